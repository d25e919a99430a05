-- noqa: disable=RF01
-- The built-in extractor of consolidation (REQ-MEM-011; 260-consolidation.sql stores what it finds):
-- memory_extract, regular expressions over the common statement forms of chat (attributes, preferences,
-- relationships, schedules, health notes, decisions, and standing requests to the agent, which are rules).
-- eval/extraction/episodes.jsonl measures it (make eval: precision and recall; the patterns were written on
-- the 'dev' split, 'test' is held out).

create or replace function pymem_private.extraction_sentences(content text)
returns setof text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    -- "The user mentioned that their husband ...": the agent speaks of the user in the third person
    v_third_person boolean := content ~* ('^\s*the\s+user(''s)?\s+(said|says|mentioned|told me|wrote|explained|added'
        || '|noted|is|has|wife|husband|partner|son|daughter)\M|^\s*user\s+(mentioned|noted|said)\s+(their|they)\M');
    v_sentence text;
begin
    for v_sentence in
        select pg_catalog.btrim(s.sentence)
        from pg_catalog.regexp_split_to_table(
            -- the agent's framing goes: "User:", "User said:", "The user mentioned that"
            -- the agent's framing goes ("User:", "User said:", "The user mentioned that"), and the dot of an
            -- abbreviation ("St. Mary's") does not end a sentence
            pg_catalog.regexp_replace(
                pg_catalog.regexp_replace(
                    content,
                    '^\s*(the\s+)?user(\s+(said|says|mentioned|told me|wrote|explained|added|noted|clarified|requested)'
                    || '(\s+that)?\s*:?|\s*:)\s*',
                    '',
                    'i'
                ),
                '\m(St|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|Mt|Ave|approx|vs|etc)\.(?=\s)',
                '\1' || U&'\2024',
                'g'
            ),
            '(?<=[.!?])\s+|\s+[-\u2013\u2014]+\s+|\n+|;\s*'
        ) as s (sentence)
        where pg_catalog.btrim(s.sentence) <> ''
    loop
        if v_third_person then
            v_sentence := pg_catalog.regexp_replace(v_sentence, '\m(they''re|she''s|he''s)\M', 'I''m', 'gi');
            v_sentence := pg_catalog.regexp_replace(v_sentence, '^(they|she|he)\M', 'I', 'i');
            v_sentence := pg_catalog.regexp_replace(
                v_sentence, '\m(they|she|he)\s+(don''t|do not|never|can''t|have|had|live|work|take|get)\M', 'I \2', 'gi'
            );
            v_sentence := pg_catalog.regexp_replace(v_sentence, '\m(their|his|her)\M', 'my', 'gi');
            v_sentence := pg_catalog.regexp_replace(v_sentence, '\mthe user''s\M', 'my', 'gi');
        end if;
        -- a sentence that opens with a verb is about the user: "loves sci-fi novels"
        v_sentence := pg_catalog.regexp_replace(
            v_sentence, '^(loves|likes|enjoys|hates|lives|works|speaks|studies|gets|takes|owns|drives)\M',
            'I \1', 'i'
        );
        v_sentence := pg_catalog.regexp_replace(
            v_sentence, '^I (love|like|enjoy|hate|live|work|speak|get|take|own|drive)s\M', 'I \1', 'i'
        );
        v_sentence := pg_catalog.regexp_replace(v_sentence, '^I studies\M', 'I study', 'i');
        return next pg_catalog.replace(v_sentence, U&'\2024', '.');
    end loop;
end;
$$;

comment on function pymem_private.extraction_sentences(text) is
$$The sentences of an episode, without the agent's framing ("User:", "The user mentioned that ..."), in the first
person ("their husband" -> "my husband" when the agent speaks of the user; "loves sci-fi" -> "I love sci-fi"):
split at sentence ends, dashes, new lines and semicolons.$$;


create or replace function pymem_private.extraction_value(value text)
returns text
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return nullif(
    pg_catalog.btrim(
        pg_catalog.regexp_replace(
            pg_catalog.regexp_replace(
                value,
                -- a value ends where the clause goes on
                '\s+(and|but|so|because|bc|since|which|who|lol|haha|btw|tho|though|now|too|anyway|for|from|with'
                || '|when|while|just|as|to|at|in|on|every|each|last|next|this|these|here|there|still|yet|already|ever'
                || '|obviously|honestly|really|basically|literally|though|days|lately|anymore|again|at all)\M.*$',
                '',
                'i'
            ),
            '[\s,.;:!?)("''\u201c\u201d\u2018\u2019]+$',
            ''
        ),
        ' '
    ),
    ''
);

comment on function pymem_private.extraction_value(text) is
'A captured value cut where its clause goes on ("Porto now, loving it" -> "Porto"), without trailing punctuation.';


create or replace function pymem_private.extract_statements(content text)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_text text := pymem_private.require_text('content', content, 100000);
    v_sentence text;
    v_pattern record;
    v_match text[];
    v_value text;
    v_relation text;
    v_family text;
    v_found boolean;
    v_other boolean;
    -- relations whose name is a fact about the user (my sister Ana: sibling Ana)
    c_relations constant text := 'sister|brother|half-sister|half-brother|twin sister|twin brother|twin|stepsister'
        || '|stepbrother|husband|wife|partner|other half|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kid'
        || '|mom|mum|mother|dad|father|best friend|friend|cousin|boss|manager|roommate|flatmate|colleague|coworker';
    c_capitalised constant text := '([A-Z][[:alnum:]''.&-]*(?:\s+(?:of\s+|de\s+|da\s+)?[A-Z][[:alnum:]''.&-]*){0,3})';
    c_phrase constant text := '([[:alnum:]][[:alnum:]''-]*(?:\s+[[:alnum:]][[:alnum:]''-]*){0,2})';
    c_days constant text := 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend|morning'
        || '|evening|night|week|month|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays'
        || '|weekdays|weekends';
begin
    -- rules: a standing request to the agent, in the user's words
    if v_text ~* ('\m(from now on|going forward|in (the )?future)\M'
        || '|\m(can|could|would) you\M[^.!?]*\m(always|never|avoid|keep|stop|use|answer|reply|write|respond)\M'
        || '|\m(please|pls)\M[^.!?]*\m(always|never|avoid|keep|stop)\M'
        || '|\m(always|never|avoid|keep|stop|don''t ever|do not ever)\M[^.!?]*\m(please|pls)\M'
        || '|^\s*(user:\s*)?(always|never|don''t ever|do not ever|please always|please never)\M'
        || '|\mwhen you\M[^.!?]*\m(please|pls)\M|\m(plain words|short answers|bullet points) please\M')
        and v_text !~* '\m(can|could|would) you (recommend|tell|help|explain|find|suggest) me\M' then
        return query select 'rule'::text, null::text, null::text,
            'The user asked: "' || pg_catalog.btrim(pg_catalog.regexp_replace(
                v_text, '^\s*(the\s+)?user(\s+(said|asked|wrote))?\s*:?\s*', '', 'i'
            )) || '"',
            false;
    end if;
    for v_sentence in select s from pymem_private.extraction_sentences(v_text) as s loop
        -- a question, hypothetical, counterfactual or hedge asserts nothing
        continue when pymem_private.speculation(v_sentence) is not null
            or v_sentence ~* '\m(if i ever|someday|some day|one day|in another life|thinking about|considering)\M';
        v_found := false;
        -- favourites: "my favourite drink is a flat white"
        for v_match in
            select pg_catalog.regexp_matches(
                v_sentence,
                '(?:\mmy\s+|^|,\s*|\mand\s+)fav(?:ou?rite)?\s+(food|drink|colou?r|meal|dish|snack|dessert|coffee|cuisine)\s+(?:is|are|''s)\s+'
                || '(?:an?\s+|the\s+)?' || c_phrase,
                'gi'
            )
        loop
            v_value := pymem_private.extraction_value(v_match[2]);
            continue when v_value is null;
            v_family := 'favorite_' || case pg_catalog.lower(v_match[1])
                when 'colour' then 'color' when 'meal' then 'food' when 'dish' then 'food' when 'snack' then 'food'
                when 'dessert' then 'food' when 'cuisine' then 'food' when 'coffee' then 'drink'
                else pg_catalog.lower(v_match[1]) end;
            v_found := true;
            return query select 'fact'::text, 'user'::text, v_family,
                pg_catalog.format('The user''s favourite %s is %s.', pg_catalog.lower(v_match[1]), v_value), false;
        end loop;
        -- about the user: {family, pattern (one capture: the value), value check, template, multi-valued}; a
        -- sentence about someone else ("my son has a nut allergy", "he's on warfarin") says nothing of the
        -- user's health, age or schedule
        v_other := v_sentence ~* ('\m(my|his|her|their)\s+(' || c_relations || '|mom|mum|mother|dad|father|parents'
                                  || '|nan|gran|grandma|grandpa|grandmother|grandfather|uncle|aunt|boss'
                                  || '|mother-in-law|father-in-law|in-laws|stepdad|stepmom|stepmum|stepfather|stepmother'
                                  || ')\M|^(he|she|he''s|she''s)\M|\m(for|with) (him|her)\M|\m(his|her)\s+[[:alpha:]]'
                                  || '|\m(he|she)(''s| is)\s+on\M')
            -- "Kofi has eczema": someone named
            or v_sentence ~ '^[[:upper:]][[:lower:]]+\s+(has|is|was|gets|takes|had|''s)\M';
        for v_pattern in
            select * from (values
                ('name', '\m(?:my name is|my name''s|call me|i''m called|i am called|me llamo)\s+'
                 || '([A-Z][[:alpha:]''-]+)',
                 '^[A-Z]', 'The user''s name is %s.', false),
                ('name', '^(?:(?:hi|hey|hello|hiya)[,!]?\s+)?(?:i''m|i am|im)\s+([A-Z][[:alpha:]''áéíóúñ-]+)\s*(?:,|btw|here|nice|$|!)',
                 '^[A-Z]', 'The user''s name is %s.', false),
                ('name', '\mit''s\s+([A-Z][[:alpha:]''-]+)\s+with an?\s+[[:alpha:]]\M',
                 '^[A-Z]', 'The user''s name is %s.', false),
                ('age', '\m(?:i''m|i am|just turned|turned|turning|i turn)\s+(\d{1,3})\M(?!\s*(?:am|pm|min|minutes|hours|km|%))',
                 '^\d', 'The user is %s years old.', false),
                ('age', '\m(?:i''m|i am)\s+[A-Z][[:alpha:]''áéíóúñ-]+,\s*(\d{1,2})\M', '^\d', 'The user is %s years old.', false),
                ('birthday', '(?:\mmy\s+|^)birthday(?:''s| is)?\s+(?:on\s+)?(?:the\s+)?([[:alnum:]]+(?:\s+(?:of\s+)?[[:alnum:]]+){0,2})',
                 '\d|^[A-Z]', 'The user''s birthday is %s.', false),
                ('lives_in', '\m(?:i live in|i''m living in|i am living in|been living in|living in|i moved to|moved to|we moved to'
                 || '|we just moved to|based in|i''ve been in|i have been in|relocated to|i live now in|i now live in|here in'
                 || '|vivo en)\s+' || c_capitalised || '(?:\s+now)?',
                 '^[A-Z]', 'The user lives in %s.', false),
                ('lives_in', '\m([A-Z][[:alpha:]]+)-based\M', '^[A-Z]', 'The user lives in %s.', false),
                ('hometown', '(?:\m(?:i''m originally|originally|i''m|i am|soy)\s+|,\s*|^)(?:from|de)\s+' || c_capitalised,
                 '^[A-Z]', 'The user is from %s.', false),
                ('hometown', '\m(?:i grew up in|grew up in|i was born in|born in)\s+' || c_capitalised,
                 '^[A-Z]', 'The user is from %s.', false),
                ('hometown', '\m([A-Z][[:alpha:]]+) born and bred\M', '^[A-Z]', 'The user is from %s.', false),
                ('works_as', '\m(?:i work as|i''m working as|i am working as|work as|works as)\s+(?:an?\s+)?([[:alpha:]-]+(?:\s+[[:alpha:]-]+)?)',
                 '^[a-z]', 'The user works as %s.', false),
                ('works_as', '(?:\mi''m\s+an?\s+|\mi am\s+an?\s+|^|,\s*)((?:[[:alpha:]-]+\s+)?(?:nurse|teacher|doctor|engineer'
                 || '|dev|developer|programmer|designer|pilot|lawyer|solicitor|barrister|accountant|architect|chef|sous-chef|cook'
                 || '|dentist|pharmacist|paramedic|firefighter|police officer|writer|journalist|photographer|musician|artist'
                 || '|carpenter|plumber|electrician|mechanic|farmer|librarian|scientist|researcher|consultant|barista'
                 || '|waiter|waitress|vet|veterinarian|therapist|psychologist|social worker|translator|physiotherapist|midwife'
                 || '|surgeon|professor|lecturer|tutor|analyst|paralegal|copywriter|product manager|data scientist))\M'
                 || '(?=\s*(?:,|$|\.|!|\s+(?:at|for|in|and|by|since|mostly|specialising|specializing)\M))',
                 '^(?!(?:a|an|the|my|her|his|their|our|your|big|huge|good|bad|great)\M)', 'The user is a %s.', false),
                ('works_as', '\mi teach\s+([[:alpha:]]+(?:\s+[[:alpha:]]+)?)', '.', 'The user teaches %s.', false),
                -- an occupation by its shape: "I'm a beekeeper", "I'm an air traffic controller", "a glaciologist"
                ('works_as', '\m(?:i''m|i am|i work as|i''m working as)\s+an?\s+((?:[[:alpha:]-]+\s+){0,2}[[:alpha:]-]+'
                 || '(?:er|or|ist|ian|ant|ier|eur|ary|ee|smith|wright))\M',
                 '^(?!(?:(?:big|huge|massive|total|bit|real|good|bad|great|early|late|light|heavy|social|regular|proper|'
                 || 'first-time|new|old)\s+)*(?:fan|believer|sucker|beginner|member|lover|user|customer|newbie|smoker|drinker'
                 || '|vegetarian|pescatarian|sleeper|riser|eater|owner|reader|other|outsider|introvert|extrovert|neighbour'
                 || '|neighbor|partner|mother|father|brother|sister|daughter|grandmother|grandfather|talker|worrier'
                 || '|planner|perfectionist|optimist|pessimist|regular|amateur|veteran|player|runner|swimmer|dancer'
                 || '|walker|traveller|traveler|visitor|tourist|foreigner|stranger|winner|loser|monster|disaster)$)',
                 'The user is a %s.', false),
                ('works_at', '\m(?:i work at|i work for|i''m working at|i am working at|i''ve been working at|been working at'
                 || '|i''ve been working for|been working for|i''m at)\s+' || c_capitalised,
                 '^[A-Z]', 'The user works at %s.', false),
                ('works_at', '\m(?:nurse|teacher|doctor|engineer|dev|developer|designer|lawyer|solicitor|accountant|chef'
                 || '|sous-chef|analyst|consultant|manager|barista|scientist|researcher)\s+(?:at|for)\s+' || c_capitalised,
                 '^[A-Z]', 'The user works at %s.', false),
                ('studies', '\m(?:i study|i''m studying|i am studying|studying|majoring in|estudio|(?:doing|do) (?:a |my )?'
                 || '(?:masters|master''s|phd|degree|bachelor''?s?|msc|ba|bsc)\s+in)\s+([[:alpha:]]+(?:\s+[[:alpha:]]+)?)',
                 '^[[:lower:]]', 'The user studies %s.', false),
                ('allergy', '(?:^|\mi''m\s+|\mi am\s+|\malso\s+)(?:very\s+|severely\s+|super\s+|mildly\s+|properly\s+|so\s+)?'
                 || 'allergic to\s+' || c_phrase,
                 '.', 'The user is allergic to %s.', true),
                ('allergy', '\m(?:severe|mild|bad|serious)?\s*([[:alpha:]]+)\s+allergy\M(?!\s+to)',
                 '^(?!(?:an|a|my|the|food|no|any|severe|mild|bad|serious)$)', 'The user has a %s allergy.', true),
                ('health_condition', '(?:^|\mi(?: have|''ve got| have got| got| suffer from| live with|''ve had)\s+'
                 || '|\mdiagnosed with\s+'
                 || '|\mit''s\s+|\mfor\s+|\mmild\s+|\malso\s+|\mhas\s+|,\s*)'
                 || '((?:exercise-induced |type [12] |mild |chronic )?(?:diabetes|diabetic|asthma|migraines?|eczema|psoriasis'
                 || '|arthritis|adhd|autism|anxiety|depression|high blood pressure|hypertension|celiac disease|coeliac disease'
                 || '|ibs|epilepsy|crohn''s(?: disease)?|insomnia|sleep apnea|a heart condition|long covid|lupus|gout|endometriosis|pcos'
                 || '|hypothyroid|hyperthyroid|hypothyroidism|sickle cell trait|sickle cell|scoliosis|frozen shoulder'
                 || '|tinnitus|glaucoma|fibromyalgia|anaemia|anemia))\M',
                 '.', 'The user has %s.', true),
                ('health_condition', '\mi (?:get|suffer from)\s+(migraines|headaches|panic attacks|hay fever|cluster headaches)\M',
                 '.', 'The user gets %s.', true),
                ('health_condition', '\m(pots|colou?rblind|kidney failure|kidney disease|lupus|gout|stress fracture|speech delay'
                 || '|diabetic|asthmatic|epileptic|dyslexic|deaf|hard of hearing|partially sighted|coeliac|celiac)\M',
                 '.', 'The user has %s.', true),
                -- hobbies: "I play chess", "I go climbing", "I do crochet", "hobbies: bouldering"
                ('hobby', '\mi (?:play|do|practise|practice)\s+(?:the\s+|some\s+|a lot of\s+)?([[:alpha:]-]+(?:\s+[[:alpha:]-]+)?)',
                 '^(?!(?:it|that|this|them|a|an|my|what|not|nothing|everything|anything|stuff|so|too|well|eat|drink|have'
                 || '|like|love|want|need|know|think|go|get|make|take|use|see|feel|mind|care|believe|enjoy|miss|hate|work'
                 || '|live|speak|agree|remember|understand)\M)',
                 'The user''s hobby: %s.', true),
                ('hobby', '\mi go\s+([[:alpha:]]+ing)\M', '.', 'The user''s hobby: %s.', true),
                ('hobby', '\mhobb(?:y|ies)\s*(?:is|are|:|include)?\s*([[:alpha:]-]+(?:\s+[[:alpha:]-]+)?)',
                 '^(?!(?:is|are|and|of|my)\M)', 'The user''s hobby: %s.', true),
                ('medication', '\m(?:i take|i''m taking|i am taking|put me on|i''m on|i am on|on|inject|injecting|i inject)\s+'
                 || '([a-z][[:alpha:]-]{4,})\s+'
                 || '(?:every|each|daily|twice|once|in the|at night|for|now|pills?|tablets?|\d+\s*(?:mg|mcg|µg)\M)',
                 '^(?!(?:the|a|my|it|that|this|them|some|vacation|holiday|leave|call|break|board|track|duty|time)$)',
                 'The user takes %s.', true),
                ('medication', '\mput me on\s+([a-z][[:alpha:]-]{4,})', '.', 'The user takes %s.', true),
                -- a medicine by its name's ending: "on lamotrigine", "takes amlodipine"
                ('medication', '\m(?:on|take|takes|taking|prescribed|started)\s+([a-z]+(?:pril|sartan|dipine|olol|statin|formin'
                 || '|prazole|triptan|xetine|pram|zepam|azepam|azine|mab|cillin|mycin|cycline|trigine|purinol|thyroxine'
                 || '|sone|lone|tidine|fenac|profen|oxacin|vastatin|gliptin|glutide))\M',
                 '.', 'The user takes %s.', true),
                ('diet', '(?:\m(?:i''m|i am|i''ve been|i have been|i''m now|i went|i''m fully|been|went)\s+|^)(vegetarian|vegan'
                 || '|pescatarian|pescetarian|gluten-free|dairy-free|lactose intolerant|keto|halal|kosher|veggie|teetotal)\M',
                 '.', 'The user is %s.', false),
                ('likes', '\m(?:i love|i really love|i absolutely love|i like|i really like|i''m into|i am into|really into'
                 || '|i enjoy|i adore|i''m obsessed with|obsessed with|big fan of|huge fan of|i''m a fan of|supporting|i support)\s+'
                 || c_phrase,
                 '^(?!(?:to|it|that|this|them|you|him|her|how|when|the way|being|my|your|anything|everything|a|an|the)\M)',
                 'The user likes %s.', true),
                ('likes', '\m(?:huge|big|massive)\s+([A-Z][[:alnum:]''-]+)\s+fan\M', '^[A-Z]', 'The user is a fan of %s.', true),
                ('likes', '^([[:alpha:]]+(?:\s+[[:alpha:]]+)?) (?:is|are) (?:the best|my favourite|my favorite)\M',
                 '^(?!(?:it|this|that|he|she|they|there|which|what)\M)', 'The user likes %s.', true),
                ('dislikes', '\m(?:i hate|i really hate|honestly hate|i can''t stand|i cannot stand|i don''t like|i do not like'
                 || '|i dislike)\s+' || c_phrase,
                 '^(?!(?:to|it|that|this|them|you|him|her|how|when|the way|being|my|your|a|an|the)\M)',
                 'The user dislikes %s.', true),
                ('dislikes', '^(?:honestly\s+)?hate\s+' || c_phrase, '.', 'The user dislikes %s.', true),
                ('dislikes', '^([[:alpha:]]+(?:\s+[[:alpha:]]+)?) (?:is|are) a (?:hard )?no\M', '.', 'The user dislikes %s.', true),
                ('owns', '(?:\m(?:i have|i''ve got|i own|i drive|i bought|i just bought|finally bought|just bought|i got)|^own)\s+'
                 || '(?:an?|my)\s+(?:new\s+|little\s+|old\s+)?(?:\d{4}\s+)?((?:[A-Z0-9][[:alnum:]-]*(?:\s+[A-Z0-9][[:alnum:]-]*)?)|car'
                 || '|bike|motorbike|motorcycle|house|flat|apartment|boat|scooter|van|truck)\M',
                 '^(?:[A-Z0-9]|(?:car|bike|motorbike|motorcycle|house|flat|apartment|boat|scooter|van|truck)$)',
                 'The user owns %s.', true),
                ('pet', '\m(?:i have|i''ve got|we have|we''ve got|i got)\s+an?\s+(dog|cat|puppy|kitten|rabbit|hamster|parrot'
                 || '|guinea pig|tortoise|turtle|horse|ferret|budgie|lizard|snake)\M',
                 '.', 'The user has a %s.', true),
                ('pet', '\m(?:my|our)\s+(?:dog|cat|puppy|kitten|rabbit|hamster|parrot|tortoise|horse)\s+([A-Z][[:alpha:]]+)\M',
                 '^[A-Z]', 'The user has a pet called %s.', true),
                ('pet', '\m([A-Z][[:alpha:]]+),\s+my\s+(?:dog|cat|puppy|kitten|rabbit|hamster|parrot|tortoise|horse)\M',
                 '^[A-Z]', 'The user has a pet called %s.', true),
                ('goal', '\m(?:my goal is|my aim is|goal for [[:alnum:] ]{1,12}:?|my goal for [[:alnum:] ]{1,12} is|i''m training for'
                 || '|i am training for|training for)\s+(?:to\s+)?([[:alnum:]]+(?:\s+[[:alnum:]]+){0,3})',
                 '.', 'The user''s goal: %s.', true),
                ('goal', '\m(?:gonna|going to)\s+((?:run|learn|finish|lose|climb|write|read|save|build)\s+[[:alnum:]]+'
                 || '(?:\s+[[:alnum:]]+)?)[^.!?]*\mgoal\M',
                 '.', 'The user''s goal: %s.', true),
                ('decision', '(?:\m(?:i''ve|i have|i|we|we''ve|we have)\s+|^)decided\s+(?:to|on)\s+(?:go with\s+)?(?:the\s+)?'
                 || '(?:finally\s+|just\s+|really\s+|actually\s+)?([[:alnum:]]+(?:\s+[[:alnum:]]+){0,3})',
                 '^(?!(?:that|it|this)$)', 'The user decided: %s.', true),
                ('decision', '\m(?:i''m going with|going with|i went with|i''m getting|i chose|we chose)\s+(?:the\s+)?'
                 || c_capitalised,
                 '^[A-Z]', 'The user decided on %s.', true)
            ) as p (family, pattern, value_check, template, multi)
        loop
            for v_match in select pg_catalog.regexp_matches(v_sentence, v_pattern.pattern, 'gi') loop
                v_value := case
                    -- a goal or a decision is a verb phrase: "learn to drive", "ask for an assessment"
                    when v_pattern.family in ('goal', 'decision') then pg_catalog.btrim(pg_catalog.regexp_replace(
                        v_match[1], '\s+(and|but|so|because|bc|lol|haha|btw|tbh|though|tho|since)\M.*$', '', 'i'
                    ))
                    else pymem_private.extraction_value(v_match[1])
                end;
                if v_pattern.value_check = '^[A-Z]' then
                    -- a name ends at its first word in lower case ("St. Mary's hospital"; case-insensitive patterns)
                    v_value := pg_catalog.regexp_replace(v_value, '\s+(?!(?:of|de|da|del|van|von|le|la)\s)[[:lower:]].*$', '');
                end if;
                continue when v_value is null or v_value !~ v_pattern.value_check
                    or (v_other and v_pattern.family not in ('name', 'lives_in', 'hometown', 'decision', 'goal', 'owns', 'birthday'));
                v_found := true;
                return query select
                    'fact'::text, 'user'::text,
                    case when v_pattern.multi then v_pattern.family || ':' || pg_catalog.lower(v_value)
                         else v_pattern.family end,
                    pg_catalog.format(v_pattern.template, v_value), false;
            end loop;
        end loop;
        -- languages: every one a sentence about speaking names ("speaks Yoruba at home, English at work")
        if v_sentence ~* '\m(speak|speaks|speaking|speaker|fluent|language|languages|tongue)\M' and not v_other then
            for v_match in
                select pg_catalog.regexp_matches(
                    v_sentence,
                    '\m(English|French|Spanish|German|Italian|Portuguese|Dutch|Polish|Russian|Ukrainian|Arabic|Hebrew|Turkish'
                    || '|Greek|Hindi|Urdu|Bengali|Punjabi|Tamil|Mandarin|Cantonese|Chinese|Japanese|Korean|Vietnamese|Thai'
                    || '|Malay|Indonesian|Tagalog|Swahili|Yoruba|Igbo|Hausa|Amharic|Zulu|Swedish|Norwegian|Danish|Finnish'
                    || '|Czech|Slovak|Hungarian|Romanian|Catalan|Basque|Irish|Welsh|Gaelic|Persian|Farsi|Georgian|Armenian'
                    || '|Maori)\M',
                    'g'
                )
            loop
                v_found := true;
                if v_sentence ~* ('\m(don''t|do not|can''t|cannot|never)\s+speak\s+(any\s+|a word of\s+)?' || v_match[1] || '\M') then
                    return query select 'fact'::text, 'user'::text, 'speaks:not ' || pg_catalog.lower(v_match[1]),
                        pg_catalog.format('The user does not speak %s.', v_match[1]), true;
                else
                    return query select 'fact'::text, 'user'::text, 'speaks:' || pg_catalog.lower(v_match[1]),
                        pg_catalog.format('The user speaks %s.', v_match[1]), false;
                end if;
            end loop;
        end if;
        -- negations: "I don't drink alcohol", "I'm not allergic to penicillin", "I don't have a car"
        for v_pattern in
            select * from (values
                ('diet', '\mi (?:don''t|do not|never|no longer)\s+(eat|drink)\s+' || c_phrase,
                 'The user does not %s %s.'),
                ('allergy', '\m(?:i''m not|i am not|not)\s+allergic to\s+()' || c_phrase, 'The user is not allergic to %s%s.'),
                ('owns', '\mi (?:don''t|do not)\s+(?:have|own)\s+(?:an?|any)\s+()(car|bike|house|tv|television|phone|smartphone)\M',
                 'The user does not have a %s%s.'),
                ('pet', '\mi (?:don''t|do not)\s+have\s+(?:an?|any)\s+()(pets?|dogs?|cats?)\M', 'The user does not have %s%s.'),
                ('likes', '\m(?:i''m not|i am not|not)\s+(?:a|much of a|really a|a big|a huge)\s+fan\s+of\s+()' || c_phrase,
                 'The user is not a fan of %s%s.')
            ) as p (family, pattern, template)
        loop
            for v_match in select pg_catalog.regexp_matches(v_sentence, v_pattern.pattern, 'gi') loop
                v_value := pymem_private.extraction_value(v_match[2]);
                continue when v_value is null;
                v_found := true;
                return query select
                    'fact'::text, 'user'::text, v_pattern.family || ':not ' || pg_catalog.lower(v_value),
                    pg_catalog.format(v_pattern.template, coalesce(nullif(v_match[1], ''), ''), v_value), true;
            end loop;
        end loop;
        -- relations: "my sister Ana is a nurse", "their husband Raj is a pilot", "Mom's allergic to shellfish"
        for v_match in
            select pg_catalog.regexp_matches(
                v_sentence,
                '(?:\m(?:my|their|his|her)\s+)?\m(' || c_relations || ')(?:,?\s+(?!(?:is|was|has|had|and|just|lives|works'
                || '|said|says|moved|got|who|is|said|thinks|wants|loves|always|never|also|too|now)\M)([A-Z][[:alpha:]-]+))?,?'
                || '(?:(?:\s+is|''s)\s+an?\s+([[:alpha:]-]+(?:\s+(?!(?:in|and|btw|so|who|at|for|but|lol|now|too|tbh)\M)'
                || '[[:alpha:]-]+)?)'
                || '(?:\s+in\s+([A-Z][[:alpha:]-]+))?'
                || '|\s+(?:lives|is living|moved)\s+(?:in|to)\s+([A-Z][[:alpha:]-]+(?:\s+[A-Z][[:alpha:]-]+)?)'
                || '|\s+works\s+(?:at|for)\s+([A-Z][[:alnum:]''.&-]*(?:\s+[A-Z][[:alnum:]''.&-]*)*)'
                || '|(?:\s+is|''s)\s+allergic\s+to\s+([[:alpha:]-]+)'
                || '|\s+said\s+(?:he|she|they)(?:''s|\s+is|\s+are|''re)\s+(?:finally\s+)?(retiring|moving|getting married'
                || '|getting divorced|pregnant|expecting|getting promoted|starting a new job))?',
                'gi'
            )
        loop
            v_relation := pg_catalog.lower(v_match[1]);
            -- someone of the user's ("my sister"; "Mom" alone), named with a capital ("Ana", not "is")
            continue when v_sentence !~* ('\m(my|their|his|her)\s+' || v_relation)
                and v_relation not in ('mom', 'mum', 'mother', 'dad', 'father');
            if v_match[2] !~ '^[[:upper:]]' then
                v_match[2] := null;
            end if;
            v_family := case
                when v_relation in ('sister', 'brother') then 'sibling'
                when v_relation in ('husband', 'wife', 'partner', 'other half', 'boyfriend', 'girlfriend')
                    or v_relation ~ '^fianc' then 'partner'
                when v_relation in ('son', 'daughter', 'kid') then 'child'
                when v_relation in ('mom', 'mum', 'mother', 'dad', 'father') then 'parent'
                when v_relation in ('friend', 'best friend') then 'friend'
            end;
            if v_family is not null and v_match[2] is not null then
                v_found := true;
                return query select 'fact'::text, 'user'::text, v_family || ':' || pg_catalog.lower(v_match[2]),
                    pg_catalog.format('The user''s %s is %s.', v_relation, v_match[2]), false;
            end if;
            if v_match[3] is not null then
                v_found := true;
                return query select 'fact'::text, 'user''s ' || v_relation, 'works_as',
                    pg_catalog.format('The user''s %s%s is a %s.', v_relation, coalesce(' ' || v_match[2], ''), v_match[3]),
                    false;
            end if;
            if coalesce(v_match[4], v_match[5]) is not null then
                v_found := true;
                return query select 'fact'::text, 'user''s ' || v_relation, 'lives_in',
                    pg_catalog.format('The user''s %s%s lives in %s.', v_relation, coalesce(' ' || v_match[2], ''),
                                      coalesce(v_match[4], v_match[5])),
                    false;
            end if;
            if v_match[6] is not null then
                v_found := true;
                return query select 'fact'::text, 'user''s ' || v_relation, 'works_at',
                    pg_catalog.format('The user''s %s%s works at %s.', v_relation, coalesce(' ' || v_match[2], ''),
                                      v_match[6]),
                    false;
            end if;
            if v_match[7] is not null then
                v_found := true;
                return query select 'fact'::text, 'user''s ' || v_relation, 'allergy:' || pg_catalog.lower(v_match[7]),
                    pg_catalog.format('The user''s %s%s is allergic to %s.', v_relation, coalesce(' ' || v_match[2], ''),
                                      v_match[7]),
                    false;
            end if;
            if v_match[8] is not null then
                v_found := true;
                return query select 'fact'::text, 'user''s ' || v_relation, 'plans:' || pg_catalog.lower(v_match[8]),
                    pg_catalog.format('The user''s %s%s is %s.', v_relation, coalesce(' ' || v_match[2], ''), v_match[8]),
                    false;
            end if;
        end loop;
        -- schedules, appointments and plans keep their whole clause ("gym at 6am every weekday"), when the
        -- sentence said nothing more precise and is about the user
        continue when v_found or v_other;
        if v_sentence ~* ('\m(every|each)\s+(other\s+)?(' || c_days || ')\M|\mthe (first|second|third|last) (' || c_days
                          || ') of (every|each|the) month\M') then
            return query select 'fact'::text, 'user'::text,
                'schedule:' || pg_catalog.lower(pg_catalog.left(pg_catalog.btrim(v_sentence), 60)),
                'The user''s schedule: ' || pg_catalog.btrim(v_sentence, ' .!'), false;
        elsif v_sentence ~* ('\m(appointment|interview|ceremony|check-?up|surgery|exam|operation|hearing|viewing)\M'
                             || '[^.!?]*\m(on|at|next|this|tomorrow)\s+([[:alnum:]]+)')
              and v_sentence ~* ('\m(' || c_days || '|tomorrow|january|february|march|april|may|june|july|august|september'
                                 || '|october|november|december|\d{1,2}(st|nd|rd|th)?)\M') then
            return query select 'fact'::text, 'user'::text,
                'appointment:' || pg_catalog.lower(pg_catalog.left(pg_catalog.btrim(v_sentence), 60)),
                'The user has an appointment: ' || pg_catalog.btrim(v_sentence, ' .!'), false;
        elsif v_sentence ~* ('(^|\m(i''m|i am|we''re|we are)\s+)(visiting|heading to|flying to|travell?ing to'
                             || '|going to)\s+')
              and v_sentence ~ '\m(visiting|heading|flying|travell?ing|going)\M[^.!?]*\m[A-Z][[:alpha:]]+' then
            return query select 'fact'::text, 'user'::text,
                'plans:' || pg_catalog.lower(pg_catalog.left(pg_catalog.btrim(v_sentence), 60)),
                'The user''s plans: ' || pg_catalog.btrim(v_sentence, ' .!'), false;
        end if;
    end loop;
end;
$$;

comment on function pymem_private.extract_statements(text) is
'Every statement the patterns of memory_extract find in an episode, duplicates included.';


create or replace function pymem.memory_extract(content text)
returns table (memory_type text, subject text, predicate text, statement text, negated boolean)
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
    with found as (
        select distinct on (x.memory_type, x.subject, x.predicate) x.*
        from pymem_private.extract_statements(content) as x
        order by x.memory_type, x.subject, x.predicate, pg_catalog.length(x.statement) desc
    )
    select f.* from found as f
    -- "diabetic" says less than "type 2 diabetic" of the same subject: only the fuller one is kept
    where not exists (
        select from found as g
        where g.subject = f.subject
          and g.predicate <> f.predicate
          and pg_catalog.split_part(g.predicate, ':', 1) = pg_catalog.split_part(f.predicate, ':', 1)
          and pg_catalog.split_part(f.predicate, ':', 2) <> ''
          and pg_catalog.strpos(pg_catalog.split_part(g.predicate, ':', 2), pg_catalog.split_part(f.predicate, ':', 2)) > 0
    );
$$;

comment on function pymem.memory_extract(text) is
$$The built-in extractor of consolidation: the facts (memory_type 'fact', subject, predicate, statement, negated) and
rules (memory_type 'rule', statement) that an episode states, found by regular expressions over the common
statement forms of chat (name, age, where the user lives and comes from, work, study, languages, allergies,
conditions, medication, diet, likes and dislikes, possessions, pets, goals, decisions, relations and what they
do, schedules, appointments, travel plans, negations of these, and standing requests to the agent). A
sentence that is a question, hypothetical, counterfactual or hedge yields nothing. Predicates of what a user can
have several of carry the value (likes:garlic), so that only a single-valued one (lives_in, name, diet, ...)
supersedes an earlier fact.
Example: select * from memory_extract(content => 'actually I moved to Porto in March, loving it');$$;
