-- Comments on the schemas and tables, re-applied so they can be improved over time.

comment on schema pymem is 'pymem: long-term agent memory. Tables and the public SQL API; every row belongs to a tenant.';
comment on schema pymem_private is 'pymem internals: trigger functions, tenant bindings, migration state. Not an API.';

comment on table pymem.episodes is
'Raw observations from agent sessions; expire after 7 days (expires_at) unless consolidated into facts and rules.';
comment on table pymem.facts is
$$Distilled subject-predicate knowledge. Storing a fact whose (tenant, subject, predicate) already has an
active fact supersedes the old one (validity = 'superseded', supersedes_id, a 'supersedes' link).$$;
comment on table pymem.rules is
'Learned behaviour: maturity goes candidate -> established -> proven (or anti_pattern) with helpful/harmful feedback.';
comment on table pymem.memory_links is
'Provenance and relations between memories of one tenant: derived_from, supports, contradicts, supersedes, related_to.';
comment on table pymem.memory_events is
'Append-only audit trail: one row per state transition of a memory, and per admin elevation.';
comment on table pymem_private.role_tenants is
'Login roles bound to one tenant (analysts): pymem.current_tenant() returns the bound tenant for them.';
comment on table pymem_private.api_tokens is
$$Bearer tokens of the HTTP MCP server; only the SHA-256 of each token is stored. Read by
pymem_private.token_verify, managed with pymem token create | list | revoke. Keyed by token, not by
tenant: a bearer token is resolved before any tenant is known.$$;

comment on column pymem.episodes.embedding is
'MiniLM-L6 (384-d) embedding of content (its own; before migration 0027 with the previous turn); NULL until embedded.';
comment on column pymem.episodes.embedding_model is 'Model id that produced embedding; a different model flags the row for re-embedding.';
comment on column pymem.episodes.token_count is 'Tokens of content under the embedding model tokenizer (for token budgets).';
comment on column pymem.episodes.search_vector is
'Generated tsvector: content (weight A) and the last ten words of retrieval_context, the previous turn of its session (weight B).';
comment on column pymem.episodes.retrieval_context is
'The content of the previous episode of the session (set at insert): the episode is also found by what it answers.';
comment on column pymem.episodes.session_position is
'1, 2, ... within the session (set at insert): the order of the conversation.';
comment on column pymem.episodes.forgotten_at is 'Tombstone: set when the episode is forgotten; such rows are excluded from retrieval.';
comment on column pymem.facts.embedding is 'MiniLM-L6 (384-d) embedding of content; NULL until embedded (found by keywords meanwhile).';
comment on column pymem.facts.embedding_model is 'Model id that produced embedding; a different model flags the row for re-embedding.';
comment on column pymem.facts.token_count is 'Tokens of content under the embedding model tokenizer (for token budgets).';
comment on column pymem.facts.search_vector is 'Generated tsvector: content (weight A), subject and predicate (weight B).';
comment on column pymem.facts.decay_rate is 'Derived from permanence by a trigger (pymem.memory_decay_rate); per day.';
comment on column pymem.facts.validity is 'active | superseded | retracted (forgotten) | expired.';
comment on column pymem.rules.embedding is 'MiniLM-L6 (384-d) embedding of content; NULL until embedded (found by keywords meanwhile).';
comment on column pymem.rules.embedding_model is 'Model id that produced embedding; a different model flags the row for re-embedding.';
comment on column pymem.rules.token_count is 'Tokens of content under the embedding model tokenizer (for token budgets).';
comment on column pymem.rules.decay_rate is 'Derived from permanence by a trigger (pymem.memory_decay_rate); per day.';
comment on column pymem.rules.forgotten_at is 'Tombstone: set when the rule is forgotten; such rows are excluded from retrieval.';
comment on column pymem.memory_events.db_role is 'current_user when the event was written (pymem_app, pymem_admin, an analyst login, ...).';
comment on column pymem.memory_events.actor is 'The authenticated caller named by the application (transaction-local pymem.actor), if any.';
comment on column pymem_private.api_tokens.id is 'The id that pymem token list shows and pymem token revoke takes (not a secret).';
comment on column pymem_private.api_tokens.tenant_id is 'The tenant every call made with this token acts for.';
comment on column pymem_private.api_tokens.token_hash is 'Lower-case hex SHA-256 of the full token (pmt_...); the token is never stored.';
comment on column pymem_private.api_tokens.scopes is
'Granted scopes: memory:read, memory:write, memory:admin (may act for other tenants), memory:review (a person who '
'approves what was kept for review: pymem_private.caller_may_review).';
comment on column pymem_private.api_tokens.label is 'Free text naming the holder or purpose of the token.';
comment on column pymem_private.api_tokens.created_at is 'When the token was issued.';
comment on column pymem_private.api_tokens.expires_at is 'When the token stops verifying; NULL = never.';
comment on column pymem_private.api_tokens.revoked_at is 'When the token was revoked; a revoked token never verifies again.';
comment on column pymem_private.api_tokens.last_used_at is 'Last successful verification, written at most once a minute.';
