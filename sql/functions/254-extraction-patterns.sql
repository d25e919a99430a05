-- noqa: disable=RF01
-- The shipped patterns of the built-in extractor (memory_extract; the functions that run them are
-- sql/functions/255-extraction.sql): rows of pymem_private.extraction_patterns, matched case-insensitively
-- ('(?c)' first: case-sensitively), in position order. needles: lower-case strings one of which every match holds
-- (the pattern runs only on a sentence that holds one; tests/test_extraction_patterns.py checks them against every
-- labelled text of eval/). Written on the 'dev' split of eval/extraction only. The shipped rows (shipped = true)
-- are replaced on every migrate, an operator's own (shipped = false) are kept; a migrate that changes no pattern
-- changes no row: those that come back unchanged keep their created_at (tests/test_faults.py: a second migrate
-- changes nothing).
drop table if exists pg_temp.extraction_patterns_before;
create temporary table extraction_patterns_before as
select
    e.name,
    e.kind,
    e.position,
    e.pattern,
    e.family,
    e.value_check,
    e.value_is_name,
    e.value_is_verb_phrase,
    e.user_only,
    e.multi_valued,
    e.template,
    e.needles,
    e.example,
    e.created_at
from pymem_private.extraction_patterns as e
where e.shipped;

delete from pymem_private.extraction_patterns
where shipped;

-- A fact's value is read by its family: a name (value check '^[A-Z]') ends at its first word in lower case, a goal
-- or a decision is a verb phrase, and a sentence about someone else ("my son has a nut allergy", "he's on
-- warfarin") says nothing of the user's health, age, work or likes: only of the user's name, home, hometown,
-- birthday, goals, decisions and possessions.
insert into pymem_private.extraction_patterns (
    kind, position, name, family, pattern, value_check, value_is_name, value_is_verb_phrase, user_only, multi_valued,
    template, needles, example, shipped
)
select
    v.kind,
    v.position,
    v.name,
    v.family,
    v.pattern,
    v.value_check,
    v.kind = 'fact' and v.value_check = '^[A-Z]' as value_is_name,
    v.kind = 'fact' and v.family in ('goal', 'decision') as value_is_verb_phrase,
    v.kind = 'fact' and v.family not in ('name', 'lives_in', 'hometown', 'decision', 'goal', 'owns', 'birthday')
        as user_only,
    v.multi_valued,
    v.template,
    v.needles,
    v.example,
    true as shipped
from (
    select
        -- relations whose name is a fact about the user (my sister Ana: sibling Ana)
        'sister|brother|half-sister|half-brother|twin sister|twin brother|twin|stepsister'
        || '|stepbrother|husband|wife|partner|other half|boyfriend|girlfriend|fianc[eé]e?|son|daughter|kid'
        || '|mom|mum|mother|dad|father|best friend|friend|cousin|boss|manager|roommate|flatmate|colleague|coworker'
            as relations,
        -- a name of up to four capitalised words ("Porto", "St. Mary's", "Rio de Janeiro")
        '([A-Z][[:alnum:]''.&-]*(?:\s+(?:of\s+|de\s+|da\s+)?[A-Z][[:alnum:]''.&-]*){0,3})' as capitalised,
        -- up to three words
        '([[:alnum:]][[:alnum:]''-]*(?:\s+[[:alnum:]][[:alnum:]''-]*){0,2})' as phrase
) as c
cross join lateral (
    values
    -- standing_request: the episode (its whole text) asks the agent for something standing: it is a rule
    (
        'standing_request', 10, 'from now on', null, '\m(from now on|going forward|in (the )?future)\M', '.', null,
        false, array['from now on', 'going forward', 'future'], 'From now on, answer in French.'
    ),
    (
        'standing_request', 20, 'can you always', null,
        '\m(can|could|would) you\M[^.!?]*\m(always|never|avoid|keep|stop|use|answer|reply|write|respond)\M',
        '.', null, false, array['can you', 'could you', 'would you'], 'Could you always reply in Spanish?'
    ),
    (
        'standing_request', 30, 'please always', null, '\m(please|pls)\M[^.!?]*\m(always|never|avoid|keep|stop)\M',
        '.', null, false, array['please', 'pls'], 'Please keep answers short.'
    ),
    (
        'standing_request', 40, 'always, please', null,
        '\m(always|never|avoid|keep|stop|don''t ever|do not ever)\M[^.!?]*\m(please|pls)\M',
        '.', null, false, array['please', 'pls'], 'Always use metric units please.'
    ),
    (
        'standing_request', 50, 'always or never, first', null,
        '^\s*(user:\s*)?(always|never|don''t ever|do not ever|please always|please never)\M',
        '.', null, false, array['always', 'ever'], 'Never use emojis.'
    ),
    (
        'standing_request', 60, 'when you, please', null, '\mwhen you\M[^.!?]*\m(please|pls)\M',
        '.', null, false, array['when you'], 'When you summarise, use bullet points please.'
    ),
    (
        'standing_request', 70, 'short answers please', null, '\m(plain words|short answers|bullet points) please\M',
        '.', null, false, array['plain words please', 'short answers please', 'bullet points please'],
        'Short answers please.'
    ),
    -- one_off_request: a request for one thing now, though a standing_request matched
    (
        'one_off_request', 80, 'can you recommend me', null,
        '\m(can|could|would) you (recommend|tell|help|explain|find|suggest) me\M',
        '.', null, false, array['can you', 'could you', 'would you'], 'Could you recommend me a book to keep me busy?'
    ),
    -- hedge: a sentence that asserts nothing (beside pymem_private.speculation: questions, hypotheticals)
    (
        'hedge', 90, 'someday', null,
        '\m(if i ever|someday|some day|one day|in another life|thinking about|considering)\M',
        '.', null, false,
        array['if i ever', 'someday', 'some day', 'one day', 'in another life', 'thinking about', 'considering'],
        'One day I will live in Lisbon.'
    ),
    -- about_others: the sentence is about someone else ("my son has a nut allergy", "he's on warfarin")
    (
        'about_others', 100, 'someone of the user''s', null,
        '\m(my|his|her|their)\s+(' || c.relations || '|mom|mum|mother|dad|father|parents'
        || '|nan|gran|grandma|grandpa|grandmother|grandfather|uncle|aunt|boss'
        || '|mother-in-law|father-in-law|in-laws|stepdad|stepmom|stepmum|stepfather|stepmother'
        || ')\M|^(he|she|he''s|she''s)\M|\m(for|with) (him|her)\M|\m(his|her)\s+[[:alpha:]]'
        || '|\m(he|she)(''s| is)\s+on\M',
        '.', null, false, array['my', 'his', 'he', 'him'], 'My son has a nut allergy.'
    ),
    (
        'about_others', 110, 'someone named', null, '(?c)^[[:upper:]][[:lower:]]+\s+(has|is|was|gets|takes|had|''s)\M',
        '.', null, false, array['has', 'is', 'was', 'gets', 'takes', 'had', '''s'], 'Kofi has eczema.'
    ),
    -- favourite: "my favourite drink is a flat white" (group 1 the thing, group 2 the value)
    (
        'favourite', 200, 'favourite', 'favorite',
        '(?:\mmy\s+|^|,\s*|\mand\s+)fav(?:ou?rite)?\s+(food|drink|colou?r|meal|dish|snack|dessert|coffee|cuisine)\s+'
        || '(?:is|are|''s)\s+(?:an?\s+|the\s+)?' || c.phrase,
        '.', 'The user''s favourite %s is %s.', false, array['fav'], 'My favourite drink is a flat white.'
    ),
    -- fact: about the user (group 1 the value)
    (
        'fact', 300, 'name', 'name',
        '\m(?:my name is|my name''s|call me|i''m called|i am called|me llamo)\s+([A-Z][[:alpha:]''-]+)',
        '^[A-Z]', 'The user''s name is %s.', false, array['my name', 'call me', 'called', 'me llamo'],
        'My name is Tomasz.'
    ),
    (
        'fact', 310, 'name, introduced', 'name',
        '^(?:(?:hi|hey|hello|hiya)[,!]?\s+)?(?:i''m|i am|im)\s+([A-Z][[:alpha:]''áéíóúñ-]+)\s*(?:,|btw|here|nice|$|!)',
        '^[A-Z]', 'The user''s name is %s.', false, array['i''m', 'i am', 'im'], 'Hi, I''m Priya, nice to meet you.'
    ),
    (
        'fact', 320, 'name, spelled out', 'name', '\mit''s\s+([A-Z][[:alpha:]''-]+)\s+with an?\s+[[:alpha:]]\M',
        '^[A-Z]', 'The user''s name is %s.', false, array['it''s'], 'It''s Marc with a c.'
    ),
    (
        'fact', 330, 'age', 'age',
        '\m(?:i''m|i am|just turned|turned|turning|i turn)\s+(\d{1,3})\M(?!\s*(?:am|pm|min|minutes|hours|km|%))',
        '^\d', 'The user is %s years old.', false, array['i''m', 'i am', 'turn'], 'I just turned 34.'
    ),
    (
        'fact', 340, 'age, after the name', 'age', '\m(?:i''m|i am)\s+[A-Z][[:alpha:]''áéíóúñ-]+,\s*(\d{1,2})\M',
        '^\d', 'The user is %s years old.', false, array['i''m', 'i am'], 'I''m Ana, 29.'
    ),
    (
        'fact', 350, 'birthday', 'birthday',
        '(?:\mmy\s+|^)birthday(?:''s| is)?\s+(?:on\s+)?(?:the\s+)?([[:alnum:]]+(?:\s+(?:of\s+)?[[:alnum:]]+){0,2})',
        -- a day and a month ("12 March", "March 12th", "12/03"), or a name ("Christmas Eve"); not "the 2nd" alone
        '\d.*[[:alpha:]]{3}|[[:alpha:]]{3}.*\d|\d{1,2}[/.-]\d{1,2}|^[A-Z]', 'The user''s birthday is %s.', false,
        array['birthday'], 'My birthday is on 12 March.'
    ),
    (
        'fact', 360, 'lives in', 'lives_in',
        '\m(?:i live in|i''m living in|i am living in|been living in|living in|i moved to|moved to|we moved to'
        || '|we just moved to|based in|i''ve been in|i have been in|relocated to|i live now in|i now live in|here in'
        || '|vivo en)\s+' || c.capitalised || '(?:\s+now)?',
        '^[A-Z]', 'The user lives in %s.', false,
        array['live', 'living', 'moved to', 'based in', 'been in', 'relocated to', 'here in', 'vivo en'],
        'I moved to Porto in March.'
    ),
    (
        'fact', 370, 'lives in, a place-based', 'lives_in', '\m([A-Z][[:alpha:]]+)-based\M',
        '^[A-Z]', 'The user lives in %s.', false, array['-based'], 'I''m a Berlin-based designer.'
    ),
    (
        'fact', 380, 'hometown', 'hometown',
        '(?:\m(?:i''m originally|originally|i''m|i am|soy)\s+|,\s*|^)(?:from|de)\s+' || c.capitalised,
        '^[A-Z]', 'The user is from %s.', false, array['from', 'de'], 'I''m originally from Lagos.'
    ),
    (
        'fact', 390, 'hometown, grew up', 'hometown',
        '\m(?:i grew up in|grew up in|i was born in|born in)\s+' || c.capitalised,
        '^[A-Z]', 'The user is from %s.', false, array['grew up in', 'born in'], 'I grew up in Accra.'
    ),
    (
        'fact', 400, 'hometown, born and bred', 'hometown', '\m([A-Z][[:alpha:]]+) born and bred\M',
        '^[A-Z]', 'The user is from %s.', false, array['born and bred'], 'Glasgow born and bred.'
    ),
    (
        'fact', 410, 'works as', 'works_as',
        '\m(?:i work as|i''m working as|i am working as|work as|works as)\s+(?:an?\s+)?'
        || '([[:alpha:]-]+(?:\s+[[:alpha:]-]+)?)',
        '^[a-z]', 'The user works as %s.', false, array['work as', 'working as', 'works as'], 'I work as a nurse.'
    ),
    (
        'fact', 420, 'works as, an occupation', 'works_as',
        '(?:\mi''m\s+an?\s+|\mi am\s+an?\s+|^|,\s*)((?:[[:alpha:]-]+\s+)?(?:nurse|teacher|doctor|engineer'
        || '|dev|developer|programmer|designer|pilot|lawyer|solicitor|barrister|accountant|architect|chef|sous-chef|cook'
        || '|dentist|pharmacist|paramedic|firefighter|police officer|writer|journalist|photographer|musician|artist'
        || '|carpenter|plumber|electrician|mechanic|farmer|librarian|scientist|researcher|consultant|barista'
        || '|waiter|waitress|vet|veterinarian|therapist|psychologist|social worker|translator|physiotherapist|midwife'
        || '|surgeon|professor|lecturer|tutor|analyst|paralegal|copywriter|product manager|data scientist))\M'
        || '(?=\s*(?:,|$|\.|!|\s+(?:at|for|in|and|by|since|mostly|specialising|specializing)\M))',
        '^(?!(?:a|an|the|my|her|his|their|our|your|big|huge|good|bad|great)\M)', 'The user is a %s.', false,
        array[
            'nurse', 'teacher', 'doctor', 'engineer', 'dev', 'programmer', 'designer', 'pilot', 'lawyer', 'solicitor',
            'barrister', 'accountant', 'architect', 'chef', 'cook', 'dentist', 'pharmacist', 'paramedic',
            'firefighter', 'police officer', 'writer', 'journalist', 'photographer', 'musician', 'artist',
            'carpenter', 'plumber', 'electrician', 'mechanic', 'farmer', 'librarian', 'scientist', 'researcher',
            'consultant', 'barista', 'waiter', 'waitress', 'vet', 'therapist', 'psychologist', 'social worker',
            'translator', 'midwife', 'surgeon', 'professor', 'lecturer', 'tutor', 'analyst', 'paralegal',
            'product manager'
        ],
        'I''m a teacher, mostly primary.'
    ),
    (
        'fact', 430, 'teaches', 'works_as', '\mi teach\s+([[:alpha:]]+(?:\s+[[:alpha:]]+)?)',
        '.', 'The user teaches %s.', false, array['i teach'], 'I teach maths.'
    ),
    -- an occupation by its shape: "I'm a beekeeper", "I'm an air traffic controller", "a glaciologist"
    (
        'fact', 440, 'works as, an occupation by its ending', 'works_as',
        '\m(?:i''m|i am|i work as|i''m working as)\s+an?\s+((?:[[:alpha:]-]+\s+){0,2}[[:alpha:]-]+'
        || '(?:er|or|ist|ian|ant|ier|eur|ary|ee|smith|wright))\M',
        '^(?!(?:(?:big|huge|massive|total|bit|real|good|bad|great|early|late|light|heavy|social|regular|proper|'
        || 'first-time|new|old)\s+)*(?:fan|believer|sucker|beginner|member|lover|user|customer|newbie|smoker|drinker'
        || '|vegetarian|pescatarian|sleeper|riser|eater|owner|reader|other|outsider|introvert|extrovert|neighbour'
        || '|neighbor|partner|mother|father|brother|sister|daughter|grandmother|grandfather|talker|worrier'
        || '|planner|perfectionist|optimist|pessimist|regular|amateur|veteran|player|runner|swimmer|dancer'
        || '|walker|traveller|traveler|visitor|tourist|foreigner|stranger|winner|loser|monster|disaster)$)',
        'The user is a %s.', false, array['i''m', 'i am', 'i work as'], 'I''m a beekeeper.'
    ),
    (
        'fact', 450, 'works at', 'works_at',
        '\m(?:i work at|i work for|i''m working at|i am working at|i''ve been working at|been working at'
        || '|i''ve been working for|been working for|i''m at)\s+' || c.capitalised,
        '^[A-Z]', 'The user works at %s.', false,
        array['work at', 'work for', 'working at', 'working for', 'i''m at'], 'I work at Siemens.'
    ),
    (
        'fact', 460, 'works at, after the occupation', 'works_at',
        '\m(?:nurse|teacher|doctor|engineer|dev|developer|designer|lawyer|solicitor|accountant|chef'
        || '|sous-chef|analyst|consultant|manager|barista|scientist|researcher)\s+(?:at|for)\s+' || c.capitalised,
        '^[A-Z]', 'The user works at %s.', false,
        array[
            'nurse', 'teacher', 'doctor', 'engineer', 'dev', 'designer', 'lawyer', 'solicitor', 'accountant', 'chef',
            'analyst', 'consultant', 'manager', 'barista', 'scientist', 'researcher'
        ],
        'I''m a nurse at Guy''s Hospital.'
    ),
    (
        'fact', 470, 'studies', 'studies',
        '\m(?:i study|i''m studying|i am studying|studying|majoring in|estudio|(?:doing|do) (?:a |my )?'
        || '(?:masters|master''s|phd|degree|bachelor''?s?|msc|ba|bsc)\s+in)\s+([[:alpha:]]+(?:\s+[[:alpha:]]+)?)',
        '^[[:lower:]]', 'The user studies %s.', false, array['study', 'majoring in', 'estudio', 'do'],
        'I''m studying law.'
    ),
    (
        'fact', 480, 'allergic to', 'allergy',
        '(?:^|\mi''m\s+|\mi am\s+|\malso\s+)(?:very\s+|severely\s+|super\s+|mildly\s+|properly\s+|so\s+)?'
        || 'allergic to\s+' || c.phrase,
        '.', 'The user is allergic to %s.', true, array['allergic to'], 'I''m allergic to penicillin.'
    ),
    (
        'fact', 490, 'an allergy', 'allergy', '\m(?:severe|mild|bad|serious)?\s*([[:alpha:]]+)\s+allergy\M(?!\s+to)',
        '^(?!(?:an|a|my|the|food|no|any|severe|mild|bad|serious)$)', 'The user has a %s allergy.', true,
        array['allergy'], 'I have a nut allergy.'
    ),
    (
        'fact', 500, 'a health condition', 'health_condition',
        '(?:^|\mi(?: have|''ve got| have got| got| suffer from| live with|''ve had)\s+'
        || '|\mdiagnosed with\s+'
        || '|\mit''s\s+|\mfor\s+|\mmild\s+|\malso\s+|\mhas\s+|,\s*)'
        || '((?:exercise-induced |type [12] |mild |chronic )?(?:diabetes|diabetic|asthma|migraines?|eczema|psoriasis'
        || '|arthritis|adhd|autism|anxiety|depression|high blood pressure|hypertension|celiac disease|coeliac disease'
        || '|ibs|epilepsy|crohn''s(?: disease)?|insomnia|sleep apnea|a heart condition|long covid|lupus|gout|endometriosis'
        || '|pcos|hypothyroid|hyperthyroid|hypothyroidism|sickle cell trait|sickle cell|scoliosis|frozen shoulder'
        || '|tinnitus|glaucoma|fibromyalgia|anaemia|anemia))\M',
        '.', 'The user has %s.', true,
        array[
            'diabet', 'asthma', 'migraine', 'eczema', 'psoriasis', 'arthritis', 'adhd', 'autism', 'anxiety',
            'depression', 'high blood pressure', 'hypertension', 'celiac disease', 'coeliac disease', 'ibs',
            'epilepsy', 'crohn''s', 'insomnia', 'sleep apnea', 'a heart condition', 'long covid', 'lupus', 'gout',
            'endometriosis', 'pcos', 'hypothyroid', 'hyperthyroid', 'sickle cell', 'scoliosis', 'frozen shoulder',
            'tinnitus', 'glaucoma', 'fibromyalgia', 'anaemia', 'anemia'
        ],
        'I have asthma.'
    ),
    (
        'fact', 510, 'gets headaches or migraines', 'health_condition',
        '\mi (?:get|suffer from)\s+(migraines|headaches|panic attacks|hay fever|cluster headaches)\M',
        '.', 'The user gets %s.', true, array['i get', 'i suffer from'], 'I get migraines.'
    ),
    (
        'fact', 520, 'a health condition, named alone', 'health_condition',
        '\m(pots|colou?rblind|kidney failure|kidney disease|lupus|gout|stress fracture|speech delay'
        || '|diabetic|asthmatic|epileptic|dyslexic|deaf|hard of hearing|partially sighted|coeliac|celiac)\M',
        '.', 'The user has %s.', true,
        array[
            'pots', 'colorblind', 'colourblind', 'kidney', 'lupus', 'gout', 'stress fracture', 'speech delay',
            'diabetic', 'asthmatic', 'epileptic', 'dyslexic', 'deaf', 'hard of hearing', 'partially sighted',
            'coeliac', 'celiac'
        ],
        'I''m dyslexic.'
    ),
    -- hobbies: "I play chess", "I go climbing", "I do crochet", "hobbies: bouldering"
    (
        'fact', 530, 'a hobby played', 'hobby',
        '\mi (?:play|do|practise|practice)\s+(?:the\s+|some\s+|a lot of\s+)?([[:alpha:]-]+(?:\s+[[:alpha:]-]+)?)',
        '^(?!(?:it|that|this|them|a|an|my|what|not|nothing|everything|anything|stuff|so|too|well|eat|drink|have'
        || '|like|love|want|need|know|think|go|get|make|take|use|see|feel|mind|care|believe|enjoy|miss|hate|work'
        || '|live|speak|agree|remember|understand)\M)',
        'The user''s hobby: %s.', true, array['i play', 'i do', 'i practise', 'i practice'], 'I play chess.'
    ),
    (
        'fact', 540, 'a hobby gone to', 'hobby', '\mi go\s+([[:alpha:]]+ing)\M',
        '.', 'The user''s hobby: %s.', true, array['i go'], 'I go climbing.'
    ),
    (
        'fact', 550, 'hobbies', 'hobby', '\mhobb(?:y|ies)\s*(?:is|are|:|include)?\s*([[:alpha:]-]+(?:\s+[[:alpha:]-]+)?)',
        '^(?!(?:is|are|and|of|my)\M)', 'The user''s hobby: %s.', true, array['hobb'], 'Hobbies: bouldering.'
    ),
    (
        'fact', 560, 'medication taken', 'medication',
        '\m(?:i take|i''m taking|i am taking|put me on|i''m on|i am on|on|inject|injecting|i inject)\s+'
        || '([a-z][[:alpha:]-]{4,})\s+'
        || '(?:every|each|daily|twice|once|in the|at night|for|now|pills?|tablets?|\d+\s*(?:mg|mcg|µg)\M)',
        '^(?!(?:the|a|my|it|that|this|them|some|vacation|holiday|leave|call|break|board|track|duty|time)$)',
        'The user takes %s.', true, array['take', 'taking', 'on', 'inject'], 'I take metformin every morning.'
    ),
    (
        'fact', 570, 'medication prescribed', 'medication', '\mput me on\s+([a-z][[:alpha:]-]{4,})',
        '.', 'The user takes %s.', true, array['put me on'], 'The doctor put me on sertraline.'
    ),
    -- a medicine by its name's ending: "on lamotrigine", "takes amlodipine"
    (
        'fact', 580, 'medication by its name''s ending', 'medication',
        '\m(?:on|take|takes|taking|prescribed|started)\s+([a-z]+(?:pril|sartan|dipine|olol|statin|formin'
        || '|prazole|triptan|xetine|pram|zepam|azepam|azine|mab|cillin|mycin|cycline|trigine|purinol|thyroxine'
        || '|sone|lone|tidine|fenac|profen|oxacin|vastatin|gliptin|glutide))\M',
        '.', 'The user takes %s.', true, array['on', 'take', 'taking', 'prescribed', 'started'], 'I''m on lamotrigine.'
    ),
    (
        'fact', 590, 'diet', 'diet',
        '(?:\m(?:i''m|i am|i''ve been|i have been|i''m now|i went|i''m fully|been|went)\s+|^)(vegetarian|vegan'
        || '|pescatarian|pescetarian|gluten-free|dairy-free|lactose intolerant|keto|halal|kosher|veggie|teetotal)\M',
        '.', 'The user is %s.', false,
        array[
            'vegetarian', 'vegan', 'pescatarian', 'pescetarian', 'gluten-free', 'dairy-free', 'lactose intolerant',
            'keto', 'halal', 'kosher', 'veggie', 'teetotal'
        ],
        'I''m vegetarian.'
    ),
    (
        'fact', 600, 'likes', 'likes',
        '\m(?:i love|i really love|i absolutely love|i like|i really like|i''m into|i am into|really into'
        || '|i enjoy|i adore|i''m obsessed with|obsessed with|big fan of|huge fan of|i''m a fan of|supporting|i support)\s+'
        || c.phrase,
        '^(?!(?:to|it|that|this|them|you|him|her|how|when|the way|being|my|your|anything|everything|a|an|the)\M)',
        'The user likes %s.', true,
        array['love', 'like', 'into', 'enjoy', 'adore', 'obsessed with', 'fan of', 'support'], 'I love sci-fi novels.'
    ),
    (
        'fact', 610, 'a big fan', 'likes', '\m(?:huge|big|massive)\s+([A-Z][[:alnum:]''-]+)\s+fan\M',
        '^[A-Z]', 'The user is a fan of %s.', true, array['fan'], 'I''m a huge Arsenal fan.'
    ),
    (
        'fact', 620, 'the best', 'likes',
        '^([[:alpha:]]+(?:\s+[[:alpha:]]+)?) (?:is|are) (?:the best|my favourite|my favorite)\M',
        '^(?!(?:it|this|that|he|she|they|there|which|what)\M)', 'The user likes %s.', true,
        array['the best', 'my favourite', 'my favorite'], 'sushi is my favourite.'
    ),
    (
        'fact', 630, 'dislikes', 'dislikes',
        '\m(?:i hate|i really hate|honestly hate|i can''t stand|i cannot stand|i don''t like|i do not like'
        || '|i dislike)\s+' || c.phrase,
        '^(?!(?:to|it|that|this|them|you|him|her|how|when|the way|being|my|your|a|an|the)\M)',
        'The user dislikes %s.', true, array['hate', 'stand', 'like'], 'I can''t stand coriander.'
    ),
    (
        'fact', 640, 'dislikes, said short', 'dislikes', '^(?:honestly\s+)?hate\s+' || c.phrase,
        '.', 'The user dislikes %s.', true, array['hate'], 'Hate mushrooms.'
    ),
    (
        'fact', 650, 'a hard no', 'dislikes', '^([[:alpha:]]+(?:\s+[[:alpha:]]+)?) (?:is|are) a (?:hard )?no\M',
        '.', 'The user dislikes %s.', true, array['a no', 'a hard no'], 'olives are a hard no.'
    ),
    (
        'fact', 660, 'owns', 'owns',
        '(?:\m(?:i have|i''ve got|i own|i drive|i bought|i just bought|finally bought|just bought|i got)|^own)\s+'
        || '(?:an?|my)\s+(?:new\s+|little\s+|old\s+)?(?:\d{4}\s+)?((?:[A-Z0-9][[:alnum:]-]*(?:\s+[A-Z0-9][[:alnum:]-]*)?)|car'
        || '|bike|motorbike|motorcycle|house|flat|apartment|boat|scooter|van|truck)\M',
        '^(?:[A-Z0-9]|(?:car|bike|motorbike|motorcycle|house|flat|apartment|boat|scooter|van|truck)$)',
        'The user owns %s.', true, array['i have', 'i''ve got', 'own', 'i drive', 'bought', 'i got'],
        'I drive a Toyota Corolla.'
    ),
    (
        'fact', 670, 'a pet', 'pet',
        '\m(?:i have|i''ve got|we have|we''ve got|i got)\s+an?\s+(dog|cat|puppy|kitten|rabbit|hamster|parrot'
        || '|guinea pig|tortoise|turtle|horse|ferret|budgie|lizard|snake)\M',
        '.', 'The user has a %s.', true, array['have', 'got'], 'We have a dog.'
    ),
    (
        'fact', 680, 'a pet by name', 'pet',
        '\m(?:my|our)\s+(?:dog|cat|puppy|kitten|rabbit|hamster|parrot|tortoise|horse)\s+([A-Z][[:alpha:]]+)\M',
        '^[A-Z]', 'The user has a pet called %s.', true, array['my', 'our'], 'My dog Biscuit hates the rain.'
    ),
    (
        'fact', 690, 'a pet by name, first', 'pet',
        '\m([A-Z][[:alpha:]]+),\s+my\s+(?:dog|cat|puppy|kitten|rabbit|hamster|parrot|tortoise|horse)\M',
        '^[A-Z]', 'The user has a pet called %s.', true, array['my'], 'Biscuit, my dog, is nine.'
    ),
    (
        'fact', 700, 'a goal', 'goal',
        '\m(?:my goal is|my aim is|goal for [[:alnum:] ]{1,12}:?|my goal for [[:alnum:] ]{1,12} is|i''m training for'
        || '|i am training for|training for)\s+(?:to\s+)?([[:alnum:]]+(?:\s+[[:alnum:]]+){0,3})',
        '.', 'The user''s goal: %s.', true, array['goal', 'my aim', 'training for'], 'My goal is to run a marathon.'
    ),
    (
        'fact', 710, 'a goal, said after', 'goal',
        '\m(?:gonna|going to)\s+((?:run|learn|finish|lose|climb|write|read|save|build)\s+[[:alnum:]]+'
        || '(?:\s+[[:alnum:]]+)?)[^.!?]*\mgoal\M',
        '.', 'The user''s goal: %s.', true, array['goal'], 'Gonna learn Spanish this year, that is the goal.'
    ),
    (
        'fact', 720, 'a decision', 'decision',
        '(?:\m(?:i''ve|i have|i|we|we''ve|we have)\s+|^)decided\s+(?:to|on)\s+(?:go with\s+)?(?:the\s+)?'
        || '(?:finally\s+|just\s+|really\s+|actually\s+)?([[:alnum:]]+(?:\s+[[:alnum:]]+){0,3})',
        '^(?!(?:that|it|this)$)', 'The user decided: %s.', true, array['decided'], 'I''ve decided to learn to drive.'
    ),
    (
        'fact', 730, 'a decision on a named thing', 'decision',
        '\m(?:i''m going with|going with|i went with|i''m getting|i chose|we chose)\s+(?:the\s+)?' || c.capitalised,
        '^[A-Z]', 'The user decided on %s.', true, array['going with', 'went with', 'i''m getting', 'chose'],
        'I''m going with the Framework laptop.'
    ),
    -- negation: "I don't drink alcohol", "I'm not allergic to penicillin", "I don't have a car" (group 1 a verb
    -- or empty, group 2 the value)
    (
        'negation', 800, 'does not eat or drink', 'diet',
        '\mi (?:don''t|do not|never|no longer)\s+(eat|drink)\s+' || c.phrase,
        '.', 'The user does not %s %s.', false, array['i don''t', 'i do not', 'i never', 'i no longer'],
        'I don''t eat pork.'
    ),
    (
        'negation', 810, 'not allergic', 'allergy', '\m(?:i''m not|i am not|not)\s+allergic to\s+()' || c.phrase,
        '.', 'The user is not allergic to %s%s.', false, array['allergic to'], 'I''m not allergic to penicillin.'
    ),
    (
        'negation', 820, 'does not own', 'owns',
        '\mi (?:don''t|do not)\s+(?:have|own)\s+(?:an?|any)\s+()(car|bike|house|tv|television|phone|smartphone)\M',
        '.', 'The user does not have a %s%s.', false, array['i don''t', 'i do not'], 'I don''t have a car.'
    ),
    (
        'negation', 830, 'no pets', 'pet', '\mi (?:don''t|do not)\s+have\s+(?:an?|any)\s+()(pets?|dogs?|cats?)\M',
        '.', 'The user does not have %s%s.', false, array['i don''t', 'i do not'], 'I don''t have any pets.'
    ),
    (
        'negation', 840, 'not a fan', 'likes',
        '\m(?:i''m not|i am not|not)\s+(?:a|much of a|really a|a big|a huge)\s+fan\s+of\s+()' || c.phrase,
        '.', 'The user is not a fan of %s%s.', false, array['fan of'], 'I''m not a fan of horror films.'
    ),
    -- relation: "my sister Ana is a nurse", "their husband Raj is a pilot", "Mom's allergic to shellfish" (group 1
    -- the relation, 2 a name, 3 a job, 4 and 5 a place, 6 an employer, 7 an allergen, 8 news)
    (
        'relation', 900, 'a relation', null,
        '(?:\m(?:my|their|his|her)\s+)?\m(' || c.relations || ')(?:,?\s+(?!(?:is|was|has|had|and|just|lives|works'
        || '|said|says|moved|got|who|is|said|thinks|wants|loves|always|never|also|too|now)\M)([A-Z][[:alpha:]-]+))?,?'
        || '(?:(?:\s+is|''s)\s+an?\s+([[:alpha:]-]+(?:\s+(?!(?:in|and|btw|so|who|at|for|but|lol|now|too|tbh)\M)'
        || '[[:alpha:]-]+)?)'
        || '(?:\s+in\s+([A-Z][[:alpha:]-]+))?'
        || '|\s+(?:lives|is living|moved)\s+(?:in|to)\s+([A-Z][[:alpha:]-]+(?:\s+[A-Z][[:alpha:]-]+)?)'
        || '|\s+works\s+(?:at|for)\s+([A-Z][[:alnum:]''.&-]*(?:\s+[A-Z][[:alnum:]''.&-]*)*)'
        || '|(?:\s+is|''s)\s+allergic\s+to\s+([[:alpha:]-]+)'
        || '|\s+said\s+(?:he|she|they)(?:''s|\s+is|\s+are|''re)\s+(?:finally\s+)?(retiring|moving|getting married'
        || '|getting divorced|pregnant|expecting|getting promoted|starting a new job))?',
        '.', null, false,
        array[
            'sister', 'brother', 'twin', 'husband', 'wife', 'partner', 'other half', 'friend', 'fianc', 'son',
            'daughter', 'kid', 'mom', 'mum', 'mother', 'dad', 'father', 'cousin', 'boss', 'manager', 'roommate',
            'flatmate', 'colleague', 'coworker'
        ],
        'My sister Ana is a nurse.'
    )
) as v (kind, position, name, family, pattern, value_check, template, multi_valued, needles, example);

update pymem_private.extraction_patterns as e
set created_at = b.created_at
from pg_temp.extraction_patterns_before as b
where
    e.shipped
    and e.name = b.name
    and (
        e.kind, e.position, e.pattern, e.family, e.value_check, e.value_is_name, e.value_is_verb_phrase, e.user_only,
        e.multi_valued, e.template, e.needles, e.example
    )
    is not distinct from (
        b.kind, b.position, b.pattern, b.family, b.value_check, b.value_is_name, b.value_is_verb_phrase, b.user_only,
        b.multi_valued, b.template, b.needles, b.example
    );

drop table pg_temp.extraction_patterns_before;
