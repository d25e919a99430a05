-- Privileges, applied last. Nothing is granted to PUBLIC; each role gets only what it uses.

revoke all on schema pymem from public;
revoke all on schema pymem_private from public;
grant usage on schema pymem to pymem_app, pymem_analyst, pymem_admin;
grant usage on schema pymem_private to pymem_app, pymem_analyst, pymem_admin;

revoke all on all tables in schema pymem from public;
revoke all on all tables in schema pymem_private from public;

-- No role but the owner holds a table-level UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER or MAINTAIN privilege
-- on any table: any one of them lets its holder LOCK the whole table in ACCESS EXCLUSIVE
-- mode, and so stop every tenant's reads and writes. Tenant roles write with INSERT (LOCK up to ROW EXCLUSIVE)
-- and column-level UPDATE of the columns the memory functions change (UPDATE statements and SELECT ... FOR
-- UPDATE on their own tenant's rows, no LOCK beyond ROW EXCLUSIVE, which blocks nobody's reads or writes);
-- deletes go through SECURITY DEFINER functions (sql/functions/004-tenant-writes.sql). A table-level REVOKE
-- also drops the column grants: they are granted again below. pymem.memory_rls_audit() checks all this.
revoke update, delete, truncate, references, trigger on all tables in schema pymem, pymem_private
from pymem_app, pymem_analyst, pymem_admin;
do $$
begin
    -- MAINTAIN (VACUUM, ANALYZE, REINDEX, LOCK) exists from PostgreSQL 17 on
    if pg_catalog.current_setting('server_version_num')::integer >= 170000 then
        execute 'revoke maintain on all tables in schema pymem, pymem_private from pymem_app, pymem_analyst, pymem_admin';
    end if;
end;
$$;

grant select, insert on pymem.episodes, pymem.facts, pymem.rules, pymem.memory_links to pymem_app, pymem_analyst;
grant update (
    reference_count, last_referenced_at, forgotten_at, consolidated, embedding, embedding_model, retrieval_context
) on pymem.episodes to pymem_app, pymem_analyst;
-- invalidated_at: set with validity by supersession, and only then (pymem_private.maintain_fact_validity)
grant update (
    validity, invalidated_at, reference_count, last_referenced_at, last_confirmed_at, embedding, embedding_model
) on pymem.facts to pymem_app, pymem_analyst;
grant update (
    review_state, maturity, confidence, effectiveness_score, applied_count, success_count, harmful_count,
    reference_count, last_applied_at, last_evaluated_at, last_referenced_at, last_confirmed_at, forgotten_at,
    metadata, embedding, embedding_model, confirmed_at
) on pymem.rules to pymem_app, pymem_analyst;
grant select, insert on pymem.memory_events to pymem_app, pymem_analyst;
grant select on pymem.episodes, pymem.facts, pymem.rules, pymem.memory_links, pymem.memory_events
to pymem_admin;
-- pymem_admin appends nothing itself: memory_log_elevation (SECURITY DEFINER) writes its elevation row
revoke insert on pymem.memory_events from pymem_admin;
grant select on pymem_private.role_tenants to pymem_app, pymem_analyst, pymem_admin;

-- Functions: EXECUTE is revoked from PUBLIC, then granted by name.
revoke all on all functions in schema pymem from public;
revoke all on all functions in schema pymem_private from public;

grant execute on function pymem.current_tenant() to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem.memory_decay_rate(text) to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem.memory_log_elevation(text, jsonb) to pymem_admin;
grant execute on function pymem_private.log_elevation(text, jsonb) to pymem_admin;
grant execute on function pymem.memory_rls_audit() to pymem_app, pymem_analyst, pymem_admin;
-- memory_bind_role / memory_unbind_role: superusers and DBAs only (no grant).

grant execute on function pymem_private.tenant_for_write() to pymem_app, pymem_analyst, pymem_admin;
-- the one way to an advisory lock (migration 0016 revoked the advisory-lock functions from PUBLIC)
grant execute on function pymem_private.lock_tenant_key(text, text, text) to pymem_app, pymem_analyst;
-- full-text matching served by the GIN index under RLS (the operator pymem_private.@@@, migration 0007)
grant execute on function pymem_private.ts_match_leakproof(tsvector, tsquery) to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem_private.memory_exists(text, text, uuid) to pymem_app, pymem_analyst;
grant execute on function pymem_private.memory_state(text, jsonb) to pymem_app, pymem_analyst;
grant execute on function pymem_private.memory_current_state(text, text, uuid) to pymem_app, pymem_analyst;
grant execute on function pymem_private.admin_elevated() to pymem_admin;

-- The memory API: callable by the application and by bound analysts. Pure scoring
-- functions also by pymem_admin.
grant execute on function
pymem_private.decayed_confidence(double precision, double precision, timestamptz, timestamptz),
pymem_private.half_life_decay(timestamptz, timestamptz, double precision),
pymem.memory_effective_confidence(double precision, double precision, timestamptz, timestamptz),
pymem.memory_recency(timestamptz, timestamptz, timestamptz, double precision),
pymem.memory_date_decay(jsonb, timestamptz, double precision),
pymem.memory_rrf_score(integer, integer, integer, integer),
pymem.memory_rrf_score(
    integer, integer, integer, integer, integer, double precision, double precision, double precision
),
pymem.memory_rrf_score(
    integer, integer, integer, integer, integer, integer, double precision, double precision, double precision,
    double precision
),
pymem.memory_relevance_feature_names(),
pymem.memory_relevance_features(
    double precision, integer, double precision, integer, text, double precision, double precision, double precision,
    double precision
),
pymem.memory_relevance(double precision[], double precision[]),
pymem.memory_relevance_model(text),
pymem.memory_composite_score(
    double precision, double precision, double precision, double precision,
    double precision, double precision, double precision, double precision
),
pymem.memory_effectiveness(integer, integer),
pymem.memory_rule_maturity(text, integer, integer, text),
pymem.memory_rule_confidence(text),
pymem_private.rule_is_standing(text, text, timestamptz),
pymem.memory_tsquery(text),
pymem.memory_cjk_runs(text),
pymem.memory_like_terms(text),
pymem.memory_ingestion_tier(text, text, text, boolean),
pymem_private.first_match(text, text[]),
pymem_private.confusables(boolean),
pymem_private.leet_folded(text),
pymem_private.normalised_for_checks(text),
pymem_private.guard_pattern_rows(text[]),
pymem_private.guard_model_score(public.vector, text),
pymem_private.snowball_stop_words(text[]),
pymem_private.unreadable_passage(text, text),
pymem_private.guard(text, text[]),
pymem_private.guard_kinds(boolean, text),
pymem_private.guard_reason(text[]),
pymem_private.instruction_like(text),
pymem_private.speculation(text),
pymem_private.require_memory_source(text),
pymem.memory_extract(text),
pymem_private.extract_statements(text, boolean),
pymem_private.extraction_sentences(text),
pymem_private.speaker_kind(text),
pymem_private.turn_speaker_kind(text),
pymem_private.speaker_turns(text),
pymem_private.spoken_by(text, text),
pymem_private.extraction_value(text),
pymem_private.complete_value(text),
pymem_private.without_trailing_function_words(text),
pymem_private.extraction_pattern_rows(text[]),
pymem_private.extraction_matches(text, text[]),
pymem_private.extraction_says(text, text),
pymem_private.extraction_rule(text),
pymem_private.extraction_facts(text, boolean, text[]),
pymem_private.extraction_languages(text, boolean),
pymem_private.extraction_relations(text),
pymem_private.extraction_clause(text)
to pymem_app, pymem_analyst, pymem_admin;

grant execute on function
pymem.memory_store_episode(
    text, text, uuid, double precision, public.vector, text, integer, jsonb, interval, timestamptz
),
pymem.memory_store_fact(
    text, text, text, double precision, text, text, text[], double precision, text, uuid, public.vector, text,
    integer, jsonb, text, text, timestamptz
),
pymem.memory_store_rule(
    text, text, text[], text, text, uuid, public.vector, text, integer, jsonb, text, text, timestamptz
),
pymem.memory_record_refusal(text, text, text, text),
pymem.memory_search(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision,
    double precision, integer, timestamptz, boolean, double precision, double precision, boolean,
    double precision, double precision, double precision, public.vector, double precision, double precision,
    double precision
)
to pymem_app, pymem_analyst;

grant execute on function
pymem_private.require_text(text, text, integer),
pymem_private.source_butler_name(text),
pymem_private.require_range(text, double precision, double precision, double precision),
pymem_private.observed_moment(timestamptz),
pymem_private.require_memory_type(text, text, text[]),
pymem_private.require_vector(text, public.vector, integer, text),
pymem_private.require_vector_batch(text[], uuid[], text[], public.vector[], text, integer, text),
pymem_private.require_embedding(text, public.vector),
pymem_private.require_second_embedding(text, public.vector),
pymem_private.tags_jsonb(text[]),
pymem_private.require_metadata(jsonb),
pymem_private.embedding_model_for(public.vector, text),
pymem_private.require_token_count(integer),
pymem_private.require_source_episode(text, uuid),
pymem_private.require_grounded(text, text, text, boolean),
pymem_private.citation_episode(text, text),
pymem_private.ground(text, text, text, text, uuid),
pymem_private.require_limit(text, integer),
pymem_private.require_types(text[], text[]),
pymem_private.require_read_options(text, timestamptz, integer),
pymem_private.effective_search_mode(text, public.vector),
pymem_private.hnsw_ef_search(integer, regclass),
pymem_private.semantic_search_lists(text[], text[], integer),
pymem_private.memory_candidates(
    text, text, public.vector, text[], text, integer, double precision, timestamptz, boolean, boolean, boolean,
    public.vector
),
pymem_private.memory_fuse_candidates(
    text, text[], text, integer, double precision, timestamptz, timestamptz, boolean, double precision[], text[],
    double precision, text[], uuid[], timestamptz[], integer[], double precision[], text[], uuid[], timestamptz[],
    double precision[], text[], integer[], text[], uuid[], timestamptz[], integer[], double precision[]
),
pymem_private.second_semantic_candidates(
    text, public.vector, text, text[], text[], text, double precision, timestamptz, timestamptz, integer
),
pymem_private.searchable_facts(text, text, double precision, timestamptz, timestamptz),
pymem_private.searchable_rules(text, text, double precision, timestamptz),
pymem_private.searchable_episodes(text, text, timestamptz),
pymem_private.semantic_candidates(
    text, public.vector, text, text[], text[], text, double precision, timestamptz, timestamptz, integer
),
pymem_private.keyword_candidates(
    text, text, text[], text, integer, double precision, timestamptz, timestamptz, boolean, text[], text[]
),
pymem_private.linked_memories(text, text, uuid),
pymem_private.memory_provenance(text, text, uuid),
pymem_private.memory_provenance_many(text, text[], uuid[]),
pymem_private.memory_touch(text, uuid),
pymem_private.memory_touch_many(text, text[], uuid[], timestamptz)
to pymem_app, pymem_analyst;

grant execute on function
pymem.memory_recall(
    text, text, integer, double precision, public.vector, double precision, double precision, double precision,
    double precision, timestamptz, text, double precision, integer, boolean, double precision, public.vector,
    public.vector, double precision, double precision
),
pymem_private.floor_defaults(),
pymem_private.floor_passes(double precision, double precision, double precision, double precision),
pymem.memory_query_focus(text),
pymem_private.focus_defaults(),
pymem_private.focus_passes(double precision, double precision, boolean, double precision),
pymem.memory_get(text, uuid),
pymem.memory_resolve_id(text, text),
pymem.memory_confirm(text, uuid),
pymem.memory_review_queue(integer),
pymem_private.reviewer(),
pymem_private.caller_may_review(),
pymem.memory_mark_helpful(uuid),
pymem.memory_mark_harmful(uuid, text),
pymem.memory_forget(text, uuid, text),
pymem.memory_stats(text, double precision),
pymem.memory_time_window(text, timestamptz)
to pymem_app, pymem_analyst;

grant execute on function
pymem.memory_consolidate(text, integer),
pymem.memory_consolidate_episode(uuid, jsonb),
pymem.memory_derived_from(uuid[]),
pymem.memory_unconsolidated_episodes(text, integer),
pymem_private.answer_statements(jsonb, uuid),
pymem_private.consolidate_statement(uuid, text, text, text, text, text, text, public.vector, text),
pymem_private.lock_consolidation(text),
pymem_private.consolidate_episode(text, uuid, text, jsonb)
to pymem_app, pymem_analyst;

grant execute on function pymem.memory_consolidation_plan(text, text[], integer) to pymem_app, pymem_analyst, pymem_admin;

grant execute on function
pymem.memory_rerank(text[], uuid[], double precision[], integer),
pymem.memory_rerank_depth(integer),
pymem.memory_rerank_candidates(
    text, text[], text, text, integer, double precision, public.vector, double precision, double precision
),
pymem.memory_rerank_select(text[], uuid[], double precision[], integer),
pymem.memory_episode_text(uuid, text),
pymem_private.episode_embedding_text(text, text),
pymem_private.not_found(text, uuid),
pymem_private.rule_feedback(uuid, text, text)
to pymem_app, pymem_analyst;

-- Bearer tokens: no table privilege for any role but the owner. The application verifies a
-- token with token_verify only; token_issue / token_list / token_revoke and require_scopes
-- are for operators (a superuser, or a DBA acting as pymem_owner): no grant.
revoke all on pymem_private.api_tokens from pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem_private.token_verify(text) to pymem_app;

-- memory_context building blocks (sql/functions/210-context.sql).
grant execute on function
pymem.memory_recent_episodes(text, integer, uuid),
pymem.memory_context_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, integer, double precision, double precision, public.vector, public.vector
),
pymem_private.context_recalled_candidates(
    text, text, text, public.vector, double precision, double precision, double precision, double precision,
    integer, integer, integer, double precision, double precision, public.vector, public.vector, double precision
),
pymem_private.context_history_candidates(
    text, text, public.vector, double precision, double precision, double precision, integer, double precision
)
to pymem_app, pymem_analyst;

grant execute on function
pymem.memory_context_select(text, jsonb, integer, integer),
pymem.token_floor(text),
pymem_private.require_section_limit(text, bigint),
pymem_private.require_token_budget(text, bigint),
pymem_private.source_date(jsonb)
to pymem_app, pymem_analyst;

-- Butler settings (sql/functions/115-butler-settings.sql): the server writes them (pymem_app); bound
-- analysts read them, so that their memory_recall ranks as the agent's.
grant select, insert on pymem.butler_settings to pymem_app;
-- memory_butler_configure's upsert; memory_butler_remove deletes with pymem_private.delete_butler_settings
grant update (
    scope, w_relevance, w_importance, w_recency, w_confidence, episode_ttl, context_token_budget, source, updated_at,
    quota_system, quota_project, quota_history, quota_knowledge, max_system, max_project, max_history, max_knowledge,
    min_relevance, min_focus, floor_bypass
) on pymem.butler_settings to pymem_app;
grant execute on function pymem_private.delete_butler_settings(text) to pymem_app;
grant select on pymem.butler_settings to pymem_analyst, pymem_admin;
grant execute on function
pymem.memory_butler_configure(
    text, text, double precision, double precision, double precision, double precision, double precision,
    bigint, double precision, double precision, double precision, double precision, bigint, bigint, bigint, bigint, text,
    double precision, double precision, double precision
),
pymem.memory_butler_remove(text)
to pymem_app;
grant execute on function
pymem.memory_butler_settings(text),
pymem_private.butler_settings_for(text, text),
pymem_private.butler_defaults(text, text)
to pymem_app, pymem_analyst;

-- Relevance models (sql/functions/112-relevance.sql): no table privilege; read through
-- memory_relevance_model (granted above); save_relevance_model: operators only (no grant).
revoke all on pymem_private.relevance_models from pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem_private.relevance_model_row(text, text) to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem_private.relevance_variant(boolean, boolean) to pymem_app, pymem_analyst;

-- Maintenance (sql/functions/220-index-health.sql, 230-janitor.sql, 240-embedding-versions.sql).
-- The configured embedding model: no table privilege; read through configured_embedding_model.
revoke all on pymem_private.embedding_config from pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem_private.configured_embedding_model() to pymem_app, pymem_analyst, pymem_admin;
grant execute on function
pymem_private.configured_second_embedding_model(),
pymem.memory_second_embedding_model()
to pymem_app, pymem_analyst, pymem_admin;
grant execute on function
pymem.memory_embedding_model(),
pymem.memory_embedding_status()
to pymem_app, pymem_analyst, pymem_admin;
grant execute on function
pymem.memory_reembed_candidates(integer),
pymem.memory_embedding_text(text, uuid),
pymem.memory_set_embedding(text, uuid, public.vector, text)
to pymem_app, pymem_analyst;
-- set_embedding_model: operators only (no grant).

-- Index health crosses tenants: an elevated pymem_admin (or the migrator), never pymem_app itself.
grant select, insert on pymem_private.index_health to pymem_admin;
grant select on pymem_private.index_rebuilds to pymem_admin;
grant execute on function
pymem.memory_index_health(
    integer, integer, double precision, double precision, text, text, double precision, boolean, text
),
pymem_private.index_recall(regclass, text, text, integer, integer, double precision),
pymem_private.hnsw_ef_search(integer, regclass),
pymem_private.tenant_sizes(regclass, integer),
pymem_private.common_tag(regclass, integer),
pymem_private.require_limit(text, integer),
pymem_private.require_range(text, double precision, double precision, double precision),
pymem_private.require_text(text, text, integer)
to pymem_admin;
-- record_index_rebuild: operators only (no grant).

-- The janitor runs per tenant as pymem_app, under the tenant policies.
grant execute on function
pymem.memory_janitor_expire(integer),
pymem.memory_janitor_dedup(text, uuid, integer, double precision)
to pymem_app;
grant execute on function pymem_private.janitor_work() to pymem_admin;
grant execute on function
pymem_private.janitor_merge(text, text, uuid, uuid, integer, double precision),
pymem_private.require_memory_type(text, text, text[])
to pymem_app;

-- Importing markdown memory files (sql/functions/250-import.sql): the application and bound analysts.
grant execute on function
pymem.memory_import_plan(text, text[], text, date),
pymem.memory_import_file(text, text[], public.vector[], integer[], text, text, date, text)
to pymem_app, pymem_analyst;
grant execute on function
pymem_private.import_chunk_metadata(text, integer, date),
pymem_private.require_import_chunks(text[]),
pymem_private.require_same_length(text, anyarray, integer)
to pymem_app, pymem_analyst;

-- Rebuild, janitor and re-embedding plans (225-index-rebuild.sql, 230-janitor.sql, 240-embedding-versions.sql):
-- they read every tenant or the index measurements, so an elevated pymem_admin (or the migrator).
-- memory_record_index_rebuild and memory_record_embedding_model: operators only (no grant).
grant execute on function
pymem_private.vector_indexes(),
pymem_private.index_weak_options(text, text[]),
pymem.memory_index_rebuild_statements(text),
pymem.memory_index_rebuild_plan(double precision, double precision, boolean),
pymem.memory_janitor_plan(integer, double precision, text[]),
pymem.memory_reembed_plan(text, integer, text[])
to pymem_admin;
grant execute on function pymem_private.require_dedup_threshold(double precision) to pymem_app, pymem_admin;

-- Reference bumps of reads served by a read replica, forwarded to the primary (155-touch.sql).
grant execute on function pymem.memory_touch_references(text[], uuid[], timestamptz) to pymem_app, pymem_analyst;

-- Keyword statistics (sql/functions/125-keyword-stats.sql): kept by triggers running as the writer of the
-- memory rows (pymem_app, bound analysts), under the tenant policies; read by search.
grant select, insert on pymem.keyword_stats, pymem.keyword_lexemes to pymem_app, pymem_analyst;
grant update (docs, total_length, min_length) on pymem.keyword_stats to pymem_app, pymem_analyst;
grant update (df, max_tf) on pymem.keyword_lexemes to pymem_app, pymem_analyst;
grant select on pymem.keyword_stats, pymem.keyword_lexemes to pymem_admin;
grant execute on function pymem_private.keyword_stats_apply(text, text, tsvector, integer) to pymem_app, pymem_analyst;
grant execute on function pymem_private.keyword_stats_apply_rows(text, text[], tsvector[], integer[], boolean)
to pymem_app, pymem_analyst;
grant execute on function
pymem_private.lexeme_tsquery(text),
pymem_private.bm25_term(tsvector, tsquery, double precision, double precision),
pymem_private.memory_keyword_scores(
    text, tsquery, text[], double precision[], double precision, text[], text, double precision, timestamptz
)
to pymem_app, pymem_analyst;
grant execute on function
pymem_private.memory_keyword_top(text, text, text[], text, integer, double precision, timestamptz),
pymem_private.memory_keyword_common(
    text, tsquery, text[], double precision[], double precision, text[], text, double precision, timestamptz, integer,
    integer
)
to pymem_app, pymem_analyst;
-- the expression of the *_repeated_lexemes_idx indexes (migration 0032): evaluated by every writer of a memory row
grant execute on function pymem_private.repeated_lexemes(tsvector) to pymem_app, pymem_analyst, pymem_admin;

-- Erasure (sql/functions/182-erase.sql): memory_erase for the application and bound analysts, in their tenant;
-- memory_erase_tenant for superusers only (no grant)
grant execute on function
pymem.memory_erase(text, uuid, text, boolean),
pymem_private.scrub_erased_events(text[], uuid[], text)
to pymem_app, pymem_analyst;
-- memory_erase's deletes (sql/functions/004-tenant-writes.sql): tenant roles hold no DELETE privilege
grant execute on function pymem_private.delete_memories(text[], uuid[]), pymem_private.prune_keyword_lexemes()
to pymem_app, pymem_analyst;

-- Items of a key-value store (sql/functions/270-items.sql): facts of the caller's tenant, for the application and
-- bound analysts
grant execute on function
pymem.memory_item_text(jsonb, text[]),
pymem.memory_item_put(text[], text, jsonb, text[], boolean, double precision, public.vector, text, integer),
pymem.memory_item_get(text[], text, boolean),
pymem.memory_item_search(text[], text, jsonb, integer, integer, public.vector, boolean),
pymem.memory_item_namespaces(text[], text[], integer, integer, integer),
pymem.memory_item_sweep(),
pymem.memory_item_list(text[], text),
pymem_private.item_path(text[]),
pymem_private.item_jsonpath(text),
pymem_private.item_live(pymem.facts),
pymem_private.item_matches(jsonb, jsonb)
to pymem_app, pymem_analyst;

-- The embedding queue (sql/functions/275-embedding-queue.sql): tenant roles read their backlog and write back
-- embeddings in their tenant; the claim and fail functions are the worker's (operators only: no grant)
grant select on pymem.embedding_queue, pymem.embedding_failures to pymem_app, pymem_analyst;

-- The second encoder's vectors (pymem.second_embeddings): the application writes its tenant's (the embedding
-- worker, as pymem_app, through memory_second_embedding_store); analysts read them; the owner deletes (the
-- SECURITY DEFINER trigger of a deleted or rewritten memory). second_embedding_due and
-- set_second_embedding_model: operators only (no grant).
grant select, insert on pymem.second_embeddings to pymem_app;
grant update (embedding_model, content_md5, embedding, embedded_at) on pymem.second_embeddings to pymem_app;
grant select on pymem.second_embeddings to pymem_analyst, pymem_admin;
grant execute on function pymem.memory_second_embedding_store(text[], uuid[], text[], public.vector[], text) to pymem_app;
grant execute on function
pymem.memory_embedding_complete(text[], uuid[], text[], public.vector[], text),
pymem.memory_embedding_backlog()
to pymem_app, pymem_analyst;

-- The web dashboard's reads (sql/functions/280-dashboard.sql): the application (pymem dashboard, as pymem_app in the
-- token's tenant) and bound analysts, in their tenant
grant execute on function
pymem.memory_browse(text, text, text, text, text, integer, integer),
pymem.memory_fact_history(uuid),
pymem.memory_confidence_curve(text, uuid, double precision, integer, double precision),
pymem.memory_rules_by_maturity(boolean, integer),
pymem.memory_audit_trail(text, uuid, integer)
to pymem_app, pymem_analyst;

-- Export and import of a tenant (sql/functions/285-tenant-export.sql): the application's (pymem export,
-- pymem import-tenant); an analyst may export what its login's tenant holds, and imports nothing
grant execute on function
pymem.memory_export_manifest(),
pymem.memory_export(boolean)
to pymem_app, pymem_analyst;
grant execute on function
pymem.memory_import(jsonb[], integer),
pymem_private.import_rows(jsonb[]),
pymem_private.import_statistics(text, integer),
pymem_private.refresh_tenant_statistics(text)
to pymem_app;
grant execute on function
pymem.memory_import_facts(text[], text[], text[], timestamptz[], jsonb[], text, integer[])
to pymem_app;
