-- noqa: disable=RF01
-- Grounded ingestion: every fact and rule is given a tier at write time.
--   tier 1, approved  content with a citation, or a user's statement, an observation or an import
--                     (and content stored without any provenance, as before provenance existed);
--   tier 2, pending   an AI-synthesised claim without a citation, a user's own hedge, and any text that
--                     tries to instruct the agent: stored, but recall, search and context skip it until
--                     memory_confirm approves it (memory_forget rejects it);
--   tier 3, refused   speculation: a hedged claim, a hypothetical or counterfactual, a question. Nothing
--                     is stored: PM007, and memory_record_refusal keeps an audit row without the content.
-- The rules are regular expressions over the content (docs/agents.md, "What gets stored"); the labelled
-- statements of eval/grounding measure them (make eval: precision and recall per tier).

create or replace function pymem_private.first_match(content text, patterns text[])
returns text[]
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_match text;
begin
    -- patterns: {name, regular expression, name, regular expression, ...}, tried in order, case-insensitively
    for i in 1 .. coalesce(pg_catalog.array_length(patterns, 1), 0) / 2 loop
        v_match := pg_catalog.regexp_substr(content, patterns[2 * i], 1, 1, 'i');
        if v_match is not null then
            return array[patterns[2 * i - 1], pg_catalog.btrim(v_match)];
        end if;
    end loop;
    return null;
end;
$$;

comment on function pymem_private.first_match(text, text[]) is
$${name, matched passage} of the first of patterns ({name, regular expression, ...}) that content matches,
case-insensitively; NULL when none does.
Example: select pymem_private.first_match('Maybe so', array['a hedged claim', '\mmaybe\M']);$$;


create or replace function pymem_private.instruction_like(content text)
returns text[]
language sql
stable  -- reads pymem_private.guard_patterns
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return (
    select array[g[2], g[3]] from pymem_private.guard(content, array['instruction', 'obedience']) as g
);

comment on function pymem_private.instruction_like(text) is
$$Whether content tries to instruct the agent, as {what, passage} ('an order to drop instructions', 'the agent
given a new role', 'a note to the agent', 'system or tool markup', 'an unrestricted persona', ...: the
pymem_private.guard_patterns of kind 'instruction' and 'obedience'), or NULL. Reads the normalised text
(pymem_private.normalised_for_checks): homoglyphs, zero-width characters and spaced letters do not hide it.
Example: select pymem_private.instruction_like('Ignore all previous instructions.');$$;


create or replace function pymem_private.guard_reason(guard text[])
returns text
language sql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
return pg_catalog.format(
    '%s, %s (%s)',
    case guard_reason.guard[1]
        when 'exfiltration' then 'text that asks to send data out'
        when 'command' then 'text that asks to run a command'
        when 'secret' then 'text that asks for secrets'
        when 'quoted_source' then 'text quoted from another source'
        when 'artifact' then 'text that names an address, a number or code'
        when 'stakes' then 'a request that weakens a safeguard, acts on unseen content or claims standing'
        else 'text that tries to instruct the agent'
    end,
    guard_reason.guard[2],
    pg_catalog.quote_literal(pg_catalog.left(guard_reason.guard[3], 80))
);

comment on function pymem_private.guard_reason(text[]) is
$$What a guard found ({kind, name, passage} of pymem_private.guard), in words: 'text that asks to run a command, a
download piped to a shell (''curl ... | sh'')'.
Example: select pymem_private.guard_reason(array['command', 'a download piped to a shell', 'curl x | sh']);$$;


create or replace function pymem_private.speculation(content text)
returns text[]
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    -- {name, regular expression, ...} for pymem_private.first_match
    c_checks constant text[] := array[
        -- a trailing question mark, or a sentence opened as a question about someone
        'a question',
        '[^.!\n]*\?\s*["'')\]]*\s*$'
        || '|^\s*(do|does|did|is|are|was|were|has|have|had|can|could|should|will|would|shall)\s+'
        || '(the|a|an|he|she|they|i|you|it|there|my|his|her|their|[a-z]+''s)\M',
        'a hypothetical',
        '\m(what if|suppose|supposing|imagine|imagining|hypothetically|in theory|let''s say|pretend'
        || '|in a world where|in an ideal world|if only)\M',
        -- "if ... would/could/might" either way round ("would like/love/prefer" is a preference), "if I were",
        -- "had she known ...", "Had Joanna accepted the offer, she would ..."
        'a counterfactual',
        '\mif\M[^.;!?]*\m(would|could|might|i''d|you''d|he''d|she''d|they''d|we''d)\M'
        || '(?!\s+(like|love|prefer|rather|appreciate|enjoy))'
        || '|\m(would|could|might|i''d|you''d|he''d|she''d|they''d|we''d)\M'
        || '(?!\s+(like|love|prefer|rather|appreciate|enjoy))[^.;!?]*\mif\M'
        || '|\mif (i|he|she|they|the user) were\M|\mhad (i|he|she|they) (known|been|had)\M'
        || '|(^|[.;!?]\s+)\s*had\s+[^,;.!?]{1,80},[^.;!?]*\m(would|could|might|i''d|you''d|he''d|she''d|they''d'
        || '|we''d)\M',
        -- the claim is not asserted
        'a hedged claim',
        '\m(maybe|perhaps|possibly|probably|presumably|likely|unlikely|apparently|seemingly|conceivably'
        || '|potentially|supposedly|allegedly|might|mightn''t)\M'
        || '|\mmay\s+(not\s+|also\s+|well\s+|still\s+|already\s+|soon\s+)?(be|have|like|want|need|prefer|go|move'
        || '|come|visit|live|work|know|get|become|start|stop|try|take|eat|drink|travel|use|own|enjoy|love|hate'
        || '|consider|plan|leave|join|return|change|switch)\M'
        || '|\mcould (be|have been|possibly)\M'
        -- "must" of a guess: "must have been ...", "must be a very ..." (not "must be at the gate by 6")
        || '|\mmust (have been|be (an? )?(very|really|quite|so|pretty|extremely|incredibly|truly|deeply|such))\M'
        || '|\mi (think|guess|believe|suppose|suspect|assume|reckon|feel like|imagine)\M'
        || '|\m(not (sure|certain|clear)|unsure|uncertain|unclear|no idea|wonders? (whether|if)|wondered (whether|if)'
        || '|wondering (whether|if))\M'
        || '|\m(seems?|seemed|appears?|appeared) (to|like|as if|as though|that)\M'
        || '|\mit(''s| is| was) (possible|likely|unlikely|probable)\M|\mpossible\s+(?!to\M)[[:alpha:]]'
    ];
    -- what someone else believes, says, asks, plans or feels is a statement about them, whatever the words
    -- inside it ("Nate believes the trilogy is probably the greatest", "Jon wants to help kids, potentially by
    -- starting a foundation", "Audrey can't imagine life without her dogs", "Tim asked if John could ..."): the
    -- report is cut from its verb to the end of its clause before the checks below. A hedge before the verb is
    -- still the writer's ("Nate probably believes ...", "Joanna may be planning ...", "Melanie seems to feel
    -- ..."); the subject is a word that is neither the writer nor the user ("I think", "The user said she
    -- probably can't ...": the user's own hedge, kept for review with source user_statement), nor an auxiliary
    -- or adverb standing between them and the verb. A condition or a question is left as it is ("If Nate wants
    -- to move, he would ...", "Does Nate think it might rain"). (No lookbehind of variable length: PostgreSQL
    -- takes time quadratic in the length of the text for it.)
    c_report constant text :=
        -- a condition, or a sentence opened as a question, to the end of its clause: kept as it is (\1)
        '((?:^|[.;!?]\s+)\s*(?:do|does|did|is|are|was|were|can|could|should|will|would|shall|had)\M[^.;!?]*'
        || '|\m(?:if|unless|suppose|supposing|assuming|imagine|imagining)\M[^.;!?]*)'
        -- or the subject, and the auxiliaries and adverbs after it (\2)
        || '|(?<![[:alnum:]''])((?!(?:i|we|you|it|this|that|these|those|there|here|user|let|just|now|so|and|or|but'
        || '|if|unless|whether|suppose|supposing|assuming|imagine|what|how|why|when|where|which'
        || '|then|also|still|really|truly|honestly|actually|definitely|certainly|surely|clearly|always|often'
        || '|sometimes|never|even|already|again|once|first|finally|only|not|no|am|is|are|was|were|be|been|being'
        || '|has|have|had|do|does|did|can|could|would|will|should|shall|must|may|might|get|got|gets|getting'
        || '|becomes?|became|[[:alpha:]]+n''t)\M)[[:alpha:]]+(?:''s)?'
        -- (not "would", "could", "might", "may": "Nate would want to move if ...", "Nate may be planning ...")
        || '(?:\s+(?:am|is|are|was|were|be|been|being|has|have|had|do|does|did|not|can|cannot|will'
        || '|[[:alpha:]]+n''t|also|still|really|truly|honestly|actually|firmly|strongly'
        || '|genuinely|deeply|sincerely|clearly|openly|privately|secretly|always|often|sometimes|never|now|just'
        || '|even|already|again|once|first|finally|recently|increasingly|very|quite|so|too|getting|got|gets'
        || '|became|becomes|feeling|feels|felt))*\s+)'
        -- the verb of belief, speech, question, plan or feeling (a noun "plans", "hopes" is followed by a verb)
        || '(?:(?:believes?|believed|thinks?|thought|thinking|says|said|mentions|mentioned|tells|told|claims?|claimed'
        || '|suspects?|suspected|expects?|expected|expecting|hopes?|hoped|hoping|fears?|feared|knows?|knew'
        || '|reckons?|reckoned|insists?|insisted|admits?|admitted|explains?|explained|shares|shared|notes|noted'
        || '|adds|added|argues|argued|agrees|agreed|predicts?|predicted|guesses|guessed|assumes|assumed'
        || '|imagines?|imagined|suggests?|suggested|promises?|promised|wonders?|wondered|wondering'
        || '|(?:feels?|felt|feeling) (?:that|like|as if|as though)'
        || '|asks?|asked|asking|inquired|enquired|plans?|planned|planning|intends?|intended|intending|aims?'
        || '|aimed|aiming|wants?|wanted|wanting|wishes|wished|wish|considers?|considered|considering|debates?'
        || '|debated|debating|decides?|decided|deciding|dreams?|dreamed|dreamt|dreaming|saving|looking (?:into'
        || '|forward to))\M(?!\s+(?:might|may|could|would|will|can|should|must|is|are|was|were|be|been|has|have'
        || '|had)\M)'
        -- a feeling is reported by its clause, not by what follows a comma ("Nate is worried, probably because ...")
        || '|(?:worried|afraid|nervous|anxious|scared|concerned|relieved|hopeful|excited|conflicted|torn|unsure'
        || '|uncertain|not sure|sure|undecided|curious|confident|convinced|determined|eager|keen)\M'
        || '(?!\s+(?:might|may|could|would|will|can|should|must|is|are|was|were|be|been|has|have|had)\M|\s*[,(]))'
        -- to the end of the clause: a sentence, a semicolon, or ", but ..."; a quotation inside it is part of it
        || '(?:[^.;!?",]|,(?!\s*(?:but|although|though|whereas|yet|so)\M)|"[^"]*")*';
    -- a quoted title is not a claim: the user "is reading 'What If?'"; the normalised text (homoglyphs,
    -- zero-width characters and fullwidth punctuation do not hide a question or a hedge)
    v_text constant text := pg_catalog.regexp_replace(
        pymem_private.normalised_for_checks(content),
        '\m(reading|reads|read|watching|watches|watched|titled|called|named|book|film|movie|song|album|show'
        || '|podcast|series|play|game)\s+["\u201c\u2018''][^"\u201d\u2019'']{1,80}["\u201d\u2019'']',
        '\1 "a title"',
        'gi'
    );
begin
    -- most text holds no word of the checks at all: the report is cut (the costly part) only when it does
    if pymem_private.first_match(v_text, c_checks) is null then
        return null;
    end if;
    -- the verb goes too: it may itself be a word of the checks ("is unsure whether", "can't imagine")
    return pymem_private.first_match(pg_catalog.regexp_replace(v_text, c_report, '\1\2', 'gi'), c_checks);
end;
$$;

comment on function pymem_private.speculation(text) is
$$Why content is speculation, as {kind, passage}: 'a question', 'a hypothetical', 'a counterfactual' or 'a hedged
claim', and the words that say so; NULL when the content asserts something. A condition that states a habit
("If it rains, the user takes the bus"), a preference ("would like"), and what someone other than the writer or
the user believes, says, asks, plans or feels ("Nate believes the trilogy is probably the greatest", "Jon plans to
maybe start a foundation", "Audrey can't imagine life without her dogs") are not speculation; a hedge before that
verb is ("Nate probably believes ...").
Example: select pymem_private.speculation('The user might be vegetarian.');$$;


create or replace function pymem_private.require_memory_source(source text)
returns text
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if source is not null and source not in ('user_statement', 'observation', 'agent_inference', 'import') then
        raise exception 'source must be user_statement, observation, agent_inference or import, not %',
            pg_catalog.quote_literal(source)
            using errcode = 'PM002',
                  hint = 'user_statement: the user said it; observation: seen in a tool result or document; '
                      || 'agent_inference: your own conclusion (give a citation); import: from a file.';
    end if;
    return source;
end;
$$;

comment on function pymem_private.require_memory_source(text) is
$$Returns source (NULL allowed), or raises PM002 unless it is 'user_statement', 'observation', 'agent_inference'
or 'import'.$$;


create or replace function pymem.memory_ingestion_tier(
    content text,
    source text default null,
    citation text default null,
    document boolean default false
)
returns table (tier integer, review_state text, reason text)
language plpgsql
stable  -- reads pymem_private.guard_patterns
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_source text := pymem_private.require_memory_source(source);
    v_cited boolean := nullif(pg_catalog.btrim(citation), '') is not null;
    -- a passage of a cited document (an imported file, a corpus) is not a claim of the agent's
    v_document boolean := coalesce(document, false) or (v_source = 'import' and v_cited);
    v_guard text[];
    v_speculation text[];
begin
    perform pymem_private.require_text('content', content, 100000);
    -- text that steers the agent (orders, a new persona, data sent out, commands, secrets; an agent_inference
    -- quoting another source): pymem_private.guard_kinds says which kinds of pymem_private.guard_patterns
    v_guard := pymem_private.guard(content, pymem_private.guard_kinds(v_document, v_source));
    if v_guard is not null then
        return query select 2, 'pending_review',
            pymem_private.guard_reason(v_guard) || ': kept for review, never auto-approved';
        return;
    end if;
    if v_document then
        return query select 1, 'approved', 'a passage of an imported document';
        return;
    end if;
    v_speculation := pymem_private.speculation(content);
    if v_speculation is not null and v_speculation[1] = 'a hedged claim' and v_source = 'user_statement' then
        return query select 2, 'pending_review',
            pg_catalog.format('the user''s own hedge (%s): kept for review until confirmed',
                              pg_catalog.quote_literal(v_speculation[2]));
        return;
    end if;
    if v_speculation is not null then
        return query select 3, 'refused',
            pg_catalog.format('speculation: %s (%s)', v_speculation[1],
                              pg_catalog.quote_literal(coalesce(v_speculation[2], '')));
        return;
    end if;
    if v_cited then
        return query select 1, 'approved', 'cited';
    elsif v_source = 'agent_inference' then
        return query select 2, 'pending_review',
            'an AI-synthesised claim without a citation: kept for review until confirmed or cited';
    elsif v_source is not null then
        return query select 1, 'approved', pg_catalog.format('stated as %s', v_source);
    else
        return query select 1, 'approved', 'no provenance given: accepted as stated';
    end if;
end;
$$;

comment on function pymem.memory_ingestion_tier(text, text, text, boolean) is
$$The tier memory_store_fact and memory_store_rule give content (grounded ingestion): 1 'approved' (cited, or stated by
the user, observed or imported, or given without provenance), 2 'pending_review' (an agent_inference without a
citation, a user's own hedge, text that tries to steer the agent: pymem_private.guard over the kinds of
pymem_private.guard_kinds, i.e. orders to the agent, a new persona, data sent out, commands to run, secrets asked
for, and for an agent_inference text quoted from another source), 3 'refused' (a hedged claim, a hypothetical or
counterfactual, a question), with the reason. The checks read pymem_private.normalised_for_checks(content).
source: NULL, 'user_statement', 'observation', 'agent_inference' or 'import'; citation: a source episode id, a
URL or the quoted statement. A passage of a document (document true, or source 'import' with a citation: a
chunk of memory_import_file, a corpus) is judged only for instructions to the agent.
Example: select * from memory_ingestion_tier(content => 'The user might be vegetarian.', source => 'agent_inference');$$;


create or replace function pymem_private.require_grounded(content text, source text, citation text, document boolean)
returns table (review_state text, reason text)
language plpgsql
stable  -- memory_ingestion_tier reads pymem_private.guard_patterns
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tier record;
begin
    select * into v_tier from pymem.memory_ingestion_tier(content, source, citation, coalesce(document, false));
    if v_tier.tier = 3 then
        raise exception 'refused: %', v_tier.reason
            using errcode = 'PM007',
                  detail = 'Nothing was stored: speculative content is not written to long-term memory.',
                  hint = 'Store what was stated or observed, as a statement, with source and citation. A user''s '
                      || 'own hedge ("I think I''m allergic to nuts") is kept for review with source => '
                      || '''user_statement''; an open question can be stored as an episode.';
    end if;
    if pg_catalog.length(citation) > 2000 then
        raise exception 'citation is too long (% characters; at most 2000)', pg_catalog.length(citation)
            using errcode = 'PM002', hint = 'Cite the source episode id, a URL or the statement itself, quoted.';
    end if;
    return query select v_tier.review_state, v_tier.reason;
end;
$$;

comment on function pymem_private.require_grounded(text, text, text, boolean) is
$$The review state ('approved' or 'pending_review') and reason of content about to be stored as a fact or
rule; raises PM007 (nothing is stored) when it is speculation, tier 3 of memory_ingestion_tier.$$;


create or replace function pymem_private.citation_episode(tenant_id text, citation text)
returns uuid
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if citation !~* '^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$' then
        return null;
    end if;
    return pymem_private.require_source_episode(tenant_id, pg_catalog.btrim(citation)::uuid);
end;
$$;

comment on function pymem_private.citation_episode(text, text) is
$$The episode a citation names when it is an episode id (PM003 when the tenant has no such episode), else NULL
(a URL or a quoted statement).$$;


create or replace function pymem.memory_record_refusal(
    memory_type text,
    content text,
    source text default null,
    citation text default null
)
returns table (refused_type text, to_state text, details jsonb)
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_tenant text := pymem_private.tenant_for_write();
    v_type text := pymem_private.require_memory_type('memory_type', memory_type, array['fact', 'rule']);
    v_tier record;
    v_details jsonb;
begin
    select * into v_tier from pymem.memory_ingestion_tier(content, source, citation);
    if v_tier.tier <> 3 then
        raise exception 'this % is not refused (tier %, %): there is no refusal to record', v_type, v_tier.tier,
            v_tier.review_state
            using errcode = 'PM002', hint = 'Store it with memory_store_fact or memory_store_rule.';
    end if;
    v_details := pg_catalog.jsonb_build_object(
        'tier', 3,
        'kind', (pymem_private.speculation(content))[1],
        'source', source,
        'cited', nullif(pg_catalog.btrim(citation), '') is not null,
        'content_length', pg_catalog.length(content)
    );
    insert into pymem.memory_events (tenant_id, memory_type, memory_id, operation, from_state, to_state, details)
    values (v_tenant, v_type, null, 'refused', null, 'refused', v_details);
    return query select v_type, 'refused'::text, v_details;
end;
$$;

comment on function pymem.memory_record_refusal(text, text, text, text) is
$$Writes the audit row of a store refused as speculation (PM007), in a transaction of its own (the refused one
rolled back): memory_events gets operation 'refused' with the kind of speculation, the source, whether it was
cited and the content's length, never the content. PM002 when the content is not refused. The MCP server does
this for every refused store.
Example: select * from memory_record_refusal(memory_type => 'fact', content => 'The user might be vegetarian.');$$;


create or replace function pymem_private.ground(
    p_tenant text, p_content text, p_source text, p_citation text, p_source_episode_id uuid
)
returns table (source_episode_id uuid, citation text, review_state text, review_reason text)
language plpgsql
stable
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    -- an episode id as citation is the source episode; the source episode is a citation
    v_episode uuid := coalesce(
        pymem_private.require_source_episode(p_tenant, p_source_episode_id),
        pymem_private.citation_episode(p_tenant, p_citation)
    );
    v_grounded record;
    v_guard text[];
    v_scored record;
begin
    -- tier 3 raises PM007 here, before the caller writes anything
    select * into v_grounded
      from pymem_private.require_grounded(p_content, p_source, coalesce(p_citation, v_episode::text), false);
    -- what is drawn from an episode that steers the agent (an injection in a chat turn, a tool output or an
    -- email pasted into it) is never auto-approved, whatever the statement drawn from it says: consolidation
    -- stores every statement with its episode as citation, so this holds for both extractors
    if v_grounded.review_state = 'approved' and v_episode is not null then
        v_guard := pymem_private.guard(
            (select e.content from pymem.episodes as e where e.tenant_id = p_tenant and e.id = v_episode),
            array['instruction', 'obedience', 'exfiltration', 'command', 'secret', 'quoted_source', 'artifact', 'stakes']
        );
        if v_guard is not null then
            v_grounded.review_state := 'pending_review';
            v_grounded.reason := pg_catalog.format(
                'drawn from episode %s, which holds %s: kept for review, never auto-approved',
                v_episode, pymem_private.guard_reason(v_guard)
            );
        else
            -- whatever its wording: a guard model over the episode's embedding (none without an embedding)
            select s.name, s.score, s.threshold into v_scored
              from pymem.episodes as e
             cross join lateral pymem_private.guard_model_score(e.embedding, e.embedding_model) as s
             where e.tenant_id = p_tenant and e.id = v_episode and e.embedding is not null and s.score >= s.threshold
             order by s.score desc
             limit 1;
            if found then
                v_grounded.review_state := 'pending_review';
                v_grounded.reason := pg_catalog.format(
                    'drawn from episode %s, which reads like an attempt to steer the agent (score %s of guard model '
                    '%s, threshold %s): kept for review, never auto-approved',
                    v_episode, pg_catalog.round(v_scored.score::numeric, 2), pg_catalog.quote_literal(v_scored.name),
                    pg_catalog.round(v_scored.threshold::numeric, 2)
                );
            else
                -- the patterns and the model read English: a sentence they cannot read is not vouched for
                select pymem_private.unreadable_passage(e.content, e.embedding_model) into v_guard
                  from pymem.episodes as e
                 where e.tenant_id = p_tenant and e.id = v_episode;
                if v_guard is not null then
                    v_grounded.review_state := 'pending_review';
                    v_grounded.reason := pg_catalog.format(
                        'drawn from episode %s, which holds a sentence the guards cannot read (%s: %s): kept for '
                        'review, never auto-approved',
                        v_episode, v_guard[1], pg_catalog.quote_literal(v_guard[2])
                    );
                end if;
            end if;
        end if;
    end if;
    return query select v_episode, nullif(pg_catalog.btrim(p_citation), ''), v_grounded.review_state, v_grounded.reason;
end;
$$;

comment on function pymem_private.ground(text, text, text, text, uuid) is
$$What memory_store_fact and memory_store_rule write as provenance: the source episode (given, or the episode id
the citation is; PM003 for one the tenant does not have), the citation, and the review state and reason of
memory_ingestion_tier, at most 'pending_review' when the source episode's text steers the agent or names an
external address, a phone or account number or shell syntax, or weakens a safeguard, acts on unseen content, lets
money or code through without review or claims standing (every kind of pymem_private.guard, 'artifact' and 'stakes'
included), or whose embedding a guard model scores at or above its threshold (pymem_private.guard_model_score), or
that holds a sentence the guards cannot read (pymem_private.unreadable_passage: another script, words the embedding
model does not know, another language's function words): what
consolidation draws from such an episode waits for memory_confirm; PM007 when the content is
refused as speculation.$$;
