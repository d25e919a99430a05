-- Row-level security: every table ENABLED and FORCED; one policy per command and role.
-- Tenant roles (pymem_app, pymem_analyst) see and write only rows of
-- (select pymem.current_tenant()) -- NULL when no tenant is set, which matches nothing.
-- pymem_admin may read across tenants, only in a transaction that logged its elevation
-- (pymem_private.admin_elevated).
-- Policies are dropped and re-created so that this file is idempotent.

-- pymem.episodes
alter table pymem.episodes enable row level security;
alter table pymem.episodes force row level security;

drop policy if exists episodes_tenant_select on pymem.episodes;
create policy episodes_tenant_select on pymem.episodes
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists episodes_tenant_insert on pymem.episodes;
create policy episodes_tenant_insert on pymem.episodes
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists episodes_tenant_update on pymem.episodes;
create policy episodes_tenant_update on pymem.episodes
for update to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- no tenant role deletes (it holds no DELETE privilege: one would let it LOCK the table): the owner does, in
-- pymem_private.delete_memories (SECURITY DEFINER), and only rows of the current tenant
drop policy if exists episodes_tenant_delete on pymem.episodes;
drop policy if exists episodes_owner_select on pymem.episodes;
create policy episodes_owner_select on pymem.episodes
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists episodes_owner_delete on pymem.episodes;
create policy episodes_owner_delete on pymem.episodes
for delete to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists episodes_admin_select on pymem.episodes;
create policy episodes_admin_select on pymem.episodes
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy episodes_tenant_select on pymem.episodes is
'A tenant role reads only rows of the current tenant.';
comment on policy episodes_tenant_insert on pymem.episodes is
'A tenant role writes rows only into the current tenant.';
comment on policy episodes_tenant_update on pymem.episodes is
'A tenant role updates only rows of the current tenant, and cannot move them to another.';
comment on policy episodes_owner_select on pymem.episodes is
'The owner (SECURITY DEFINER, so: the caller''s tenant) reads only rows of the current tenant.';
comment on policy episodes_owner_delete on pymem.episodes is
'The owner deletes rows (pymem_private.delete_memories) only in the current tenant: tenant roles hold no DELETE privilege.';
comment on policy episodes_admin_select on pymem.episodes is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

-- pymem.facts
alter table pymem.facts enable row level security;
alter table pymem.facts force row level security;

drop policy if exists facts_tenant_select on pymem.facts;
create policy facts_tenant_select on pymem.facts
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists facts_tenant_insert on pymem.facts;
create policy facts_tenant_insert on pymem.facts
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists facts_tenant_update on pymem.facts;
create policy facts_tenant_update on pymem.facts
for update to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- no tenant role deletes (it holds no DELETE privilege: one would let it LOCK the table): the owner does, in
-- pymem_private.delete_memories (SECURITY DEFINER), and only rows of the current tenant
drop policy if exists facts_tenant_delete on pymem.facts;
drop policy if exists facts_owner_select on pymem.facts;
create policy facts_owner_select on pymem.facts
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists facts_owner_delete on pymem.facts;
create policy facts_owner_delete on pymem.facts
for delete to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists facts_admin_select on pymem.facts;
create policy facts_admin_select on pymem.facts
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy facts_tenant_select on pymem.facts is
'A tenant role reads only rows of the current tenant.';
comment on policy facts_tenant_insert on pymem.facts is
'A tenant role writes rows only into the current tenant.';
comment on policy facts_tenant_update on pymem.facts is
'A tenant role updates only rows of the current tenant, and cannot move them to another.';
comment on policy facts_owner_select on pymem.facts is
'The owner (SECURITY DEFINER, so: the caller''s tenant) reads only rows of the current tenant.';
comment on policy facts_owner_delete on pymem.facts is
'The owner deletes rows (pymem_private.delete_memories) only in the current tenant: tenant roles hold no DELETE privilege.';
comment on policy facts_admin_select on pymem.facts is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

-- pymem.rules
alter table pymem.rules enable row level security;
alter table pymem.rules force row level security;

drop policy if exists rules_tenant_select on pymem.rules;
create policy rules_tenant_select on pymem.rules
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists rules_tenant_insert on pymem.rules;
create policy rules_tenant_insert on pymem.rules
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists rules_tenant_update on pymem.rules;
create policy rules_tenant_update on pymem.rules
for update to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- no tenant role deletes (it holds no DELETE privilege: one would let it LOCK the table): the owner does, in
-- pymem_private.delete_memories (SECURITY DEFINER), and only rows of the current tenant
drop policy if exists rules_tenant_delete on pymem.rules;
drop policy if exists rules_owner_select on pymem.rules;
create policy rules_owner_select on pymem.rules
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists rules_owner_delete on pymem.rules;
create policy rules_owner_delete on pymem.rules
for delete to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists rules_admin_select on pymem.rules;
create policy rules_admin_select on pymem.rules
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy rules_tenant_select on pymem.rules is
'A tenant role reads only rows of the current tenant.';
comment on policy rules_tenant_insert on pymem.rules is
'A tenant role writes rows only into the current tenant.';
comment on policy rules_tenant_update on pymem.rules is
'A tenant role updates only rows of the current tenant, and cannot move them to another.';
comment on policy rules_owner_select on pymem.rules is
'The owner (SECURITY DEFINER, so: the caller''s tenant) reads only rows of the current tenant.';
comment on policy rules_owner_delete on pymem.rules is
'The owner deletes rows (pymem_private.delete_memories) only in the current tenant: tenant roles hold no DELETE privilege.';
comment on policy rules_admin_select on pymem.rules is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

-- pymem.memory_links
alter table pymem.memory_links enable row level security;
alter table pymem.memory_links force row level security;

drop policy if exists memory_links_tenant_select on pymem.memory_links;
create policy memory_links_tenant_select on pymem.memory_links
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists memory_links_tenant_insert on pymem.memory_links;
create policy memory_links_tenant_insert on pymem.memory_links
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists memory_links_tenant_update on pymem.memory_links;
create policy memory_links_tenant_update on pymem.memory_links
for update to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- no tenant role deletes (it holds no DELETE privilege: one would let it LOCK the table): the owner does, in
-- pymem_private.delete_memories (SECURITY DEFINER), and only rows of the current tenant
drop policy if exists memory_links_tenant_delete on pymem.memory_links;
drop policy if exists memory_links_owner_select on pymem.memory_links;
create policy memory_links_owner_select on pymem.memory_links
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists memory_links_owner_delete on pymem.memory_links;
create policy memory_links_owner_delete on pymem.memory_links
for delete to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists memory_links_admin_select on pymem.memory_links;
create policy memory_links_admin_select on pymem.memory_links
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy memory_links_tenant_select on pymem.memory_links is
'A tenant role reads only rows of the current tenant.';
comment on policy memory_links_tenant_insert on pymem.memory_links is
'A tenant role writes rows only into the current tenant.';
comment on policy memory_links_tenant_update on pymem.memory_links is
'A tenant role updates only rows of the current tenant, and cannot move them to another.';
comment on policy memory_links_owner_select on pymem.memory_links is
'The owner (SECURITY DEFINER, so: the caller''s tenant) reads only rows of the current tenant.';
comment on policy memory_links_owner_delete on pymem.memory_links is
'The owner deletes the links of a deleted memory (pymem_private.delete_links_of_memory, a trigger) only in the '
'current tenant: tenant roles hold no DELETE privilege.';
comment on policy memory_links_admin_select on pymem.memory_links is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

-- pymem.memory_events: append-only. No tenant role has an UPDATE or DELETE policy or privilege, so nobody
-- can change history; the one exception is erasure (pymem.memory_erase), whose SECURITY DEFINER part
-- rewrites the details of an erased memory's events, as the owner.
alter table pymem.memory_events enable row level security;
alter table pymem.memory_events force row level security;

drop policy if exists memory_events_tenant_select on pymem.memory_events;
create policy memory_events_tenant_select on pymem.memory_events
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists memory_events_tenant_insert on pymem.memory_events;
create policy memory_events_tenant_insert on pymem.memory_events
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists memory_events_admin_select on pymem.memory_events;
create policy memory_events_admin_select on pymem.memory_events
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy memory_events_tenant_select on pymem.memory_events is
'A tenant role reads only the audit trail of the current tenant.';
comment on policy memory_events_tenant_insert on pymem.memory_events is
'Events are appended only into the current tenant; pymem_private.stamp_event writes who, when, which transaction and role.';
drop policy if exists memory_events_owner_insert on pymem.memory_events;
create policy memory_events_owner_insert on pymem.memory_events
for insert to pymem_owner
with check (tenant_id = (select pymem.current_tenant()));

comment on policy memory_events_owner_insert on pymem.memory_events is
'pymem.memory_log_elevation (SECURITY DEFINER, so: the owner) appends an admin elevation into the current tenant.';
drop policy if exists memory_events_owner_erase on pymem.memory_events;
create policy memory_events_owner_erase on pymem.memory_events
for update to pymem_owner
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

comment on policy memory_events_owner_erase on pymem.memory_events is
'pymem_private.scrub_erased_events (SECURITY DEFINER, so: the owner) rewrites the details of the events of a memory
erased in the same transaction, in the current tenant: the one change the append-only trail allows.';
drop policy if exists memory_events_owner_select on pymem.memory_events;
create policy memory_events_owner_select on pymem.memory_events
for select to pymem_owner
using (true);

comment on policy memory_events_owner_select on pymem.memory_events is
'The owner (so: pymem_private.admin_elevated, SECURITY DEFINER) reads elevation events; nobody logs in as it.';
comment on policy memory_events_admin_select on pymem.memory_events is
'pymem_admin reads the audit trail across tenants, only in a transaction that logged its elevation.';

-- pymem_private.role_tenants: each login may read its own binding (pymem.current_tenant
-- does); only a superuser or DBA binds and unbinds.
alter table pymem_private.role_tenants enable row level security;
alter table pymem_private.role_tenants force row level security;

drop policy if exists role_tenants_self_select on pymem_private.role_tenants;
create policy role_tenants_self_select on pymem_private.role_tenants
for select to pymem_app, pymem_analyst, pymem_admin, pymem_owner
using (role_name = session_user);

comment on policy role_tenants_self_select on pymem_private.role_tenants is
'A login reads only its own tenant binding (also inside a SECURITY DEFINER function of pymem_owner, so that
pymem.current_tenant() answers there as it does outside).';

-- pymem_private.api_tokens: bearer tokens (only their hashes). No tenant role has a policy or
-- a privilege: the application verifies tokens with pymem_private.token_verify and operators
-- manage them with token_issue / token_list / token_revoke, all owned by pymem_owner. The
-- owner's policies are what those functions run under (RLS is forced on the owner too); no
-- policy deletes: a token is revoked, never erased.
alter table pymem_private.api_tokens enable row level security;
alter table pymem_private.api_tokens force row level security;

drop policy if exists api_tokens_owner_select on pymem_private.api_tokens;
create policy api_tokens_owner_select on pymem_private.api_tokens
for select to pymem_owner
using (true);

drop policy if exists api_tokens_owner_insert on pymem_private.api_tokens;
create policy api_tokens_owner_insert on pymem_private.api_tokens
for insert to pymem_owner
with check (true);

drop policy if exists api_tokens_owner_update on pymem_private.api_tokens;
create policy api_tokens_owner_update on pymem_private.api_tokens
for update to pymem_owner
using (true)
with check (true);

comment on policy api_tokens_owner_select on pymem_private.api_tokens is
'The owner (so: pymem_private.token_verify, SECURITY DEFINER, and the operator functions) reads tokens; nobody logs in as it.';
comment on policy api_tokens_owner_insert on pymem_private.api_tokens is
'The owner (pymem_private.token_issue, run by an operator acting as pymem_owner) stores new token hashes.';
comment on policy api_tokens_owner_update on pymem_private.api_tokens is
'The owner records last use (token_verify) and revocation (token_revoke).';

-- pymem_private.embedding_config: the configured embedding model (one row, no tenant data). Like
-- api_tokens, only the owner has policies: tenant roles read it through
-- pymem_private.configured_embedding_model (SECURITY DEFINER); operators record it with
-- pymem_private.set_embedding_model (the migrator, or a DBA acting as pymem_owner).
alter table pymem_private.embedding_config enable row level security;
alter table pymem_private.embedding_config force row level security;

drop policy if exists embedding_config_owner_select on pymem_private.embedding_config;
create policy embedding_config_owner_select on pymem_private.embedding_config
for select to pymem_owner
using (true);

drop policy if exists embedding_config_owner_insert on pymem_private.embedding_config;
create policy embedding_config_owner_insert on pymem_private.embedding_config
for insert to pymem_owner
with check (true);

drop policy if exists embedding_config_owner_update on pymem_private.embedding_config;
create policy embedding_config_owner_update on pymem_private.embedding_config
for update to pymem_owner
using (true)
with check (true);

comment on policy embedding_config_owner_select on pymem_private.embedding_config is
'The owner (so: pymem_private.configured_embedding_model, SECURITY DEFINER) reads the configured model.';
comment on policy embedding_config_owner_insert on pymem_private.embedding_config is
'The owner (an operator acting as pymem_owner: pymem_private.set_embedding_model) records the model.';
comment on policy embedding_config_owner_update on pymem_private.embedding_config is
'The owner (an operator acting as pymem_owner: pymem_private.set_embedding_model) changes the model.';

-- pymem_private.relevance_models: the logistic relevance models (no tenant data). Like embedding_config,
-- only the owner has policies: every role reads them through pymem.memory_relevance_model()
-- (pymem_private.relevance_model_row, SECURITY DEFINER); the shipped model is written by
-- sql/functions/113-relevance-coefficients.sql, an operator's own with pymem_private.save_relevance_model
-- (as pymem_owner).
alter table pymem_private.relevance_models enable row level security;
alter table pymem_private.relevance_models force row level security;

drop policy if exists relevance_models_owner_select on pymem_private.relevance_models;
create policy relevance_models_owner_select on pymem_private.relevance_models
for select to pymem_owner
using (true);

drop policy if exists relevance_models_owner_insert on pymem_private.relevance_models;
create policy relevance_models_owner_insert on pymem_private.relevance_models
for insert to pymem_owner
with check (true);

drop policy if exists relevance_models_owner_update on pymem_private.relevance_models;
create policy relevance_models_owner_update on pymem_private.relevance_models
for update to pymem_owner
using (true)
with check (true);

comment on policy relevance_models_owner_select on pymem_private.relevance_models is
'The owner (so: pymem.memory_relevance_model, SECURITY DEFINER) reads the relevance models.';
comment on policy relevance_models_owner_insert on pymem_private.relevance_models is
'The owner (the migrator, or an operator acting as pymem_owner: pymem_private.save_relevance_model) adds a model.';
comment on policy relevance_models_owner_update on pymem_private.relevance_models is
'The owner (the migrator, or an operator acting as pymem_owner: pymem_private.save_relevance_model) re-fits a model.';

-- pymem_private.index_health and index_rebuilds: vector index measurements across tenants. Only an
-- elevated pymem_admin (or the migrator) reads and appends them; nothing updates or deletes.
alter table pymem_private.index_health enable row level security;
alter table pymem_private.index_health force row level security;

drop policy if exists index_health_admin_select on pymem_private.index_health;
create policy index_health_admin_select on pymem_private.index_health
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

drop policy if exists index_health_admin_insert on pymem_private.index_health;
create policy index_health_admin_insert on pymem_private.index_health
for insert to pymem_admin
with check ((select pymem_private.admin_elevated()));

comment on policy index_health_admin_select on pymem_private.index_health is
'pymem_admin reads index measurements (they name tenants), only in a transaction that logged its elevation.';
comment on policy index_health_admin_insert on pymem_private.index_health is
'pymem_admin records index measurements (pymem.memory_index_health), only in a transaction that logged its elevation.';

alter table pymem_private.index_rebuilds enable row level security;
alter table pymem_private.index_rebuilds force row level security;

drop policy if exists index_rebuilds_admin_select on pymem_private.index_rebuilds;
create policy index_rebuilds_admin_select on pymem_private.index_rebuilds
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy index_rebuilds_admin_select on pymem_private.index_rebuilds is
'pymem_admin reads the rebuild history, only in a transaction that logged its elevation; the migrator writes it.';

-- pymem.butler_settings: the settings that rank, per tenant and butler. pymem_app writes them (from the
-- operator's butler.toml files); bound analysts only read them (no write grant).
alter table pymem.butler_settings enable row level security;
alter table pymem.butler_settings force row level security;

drop policy if exists butler_settings_tenant_select on pymem.butler_settings;
create policy butler_settings_tenant_select on pymem.butler_settings
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists butler_settings_tenant_insert on pymem.butler_settings;
create policy butler_settings_tenant_insert on pymem.butler_settings
for insert to pymem_app
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists butler_settings_tenant_update on pymem.butler_settings;
create policy butler_settings_tenant_update on pymem.butler_settings
for update to pymem_app
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- pymem_app holds no DELETE privilege (one would let it LOCK the table): the owner deletes, in
-- pymem_private.delete_butler_settings (SECURITY DEFINER), and only rows of the current tenant
drop policy if exists butler_settings_tenant_delete on pymem.butler_settings;
drop policy if exists butler_settings_owner_select on pymem.butler_settings;
create policy butler_settings_owner_select on pymem.butler_settings
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists butler_settings_owner_delete on pymem.butler_settings;
create policy butler_settings_owner_delete on pymem.butler_settings
for delete to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists butler_settings_admin_select on pymem.butler_settings;
create policy butler_settings_admin_select on pymem.butler_settings
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on table pymem.butler_settings is
'The settings in force per tenant and butler (from butler.toml): read by memory_recall, memory_store_episode and memory_context_*.';
comment on policy butler_settings_tenant_select on pymem.butler_settings is
'A tenant role reads only the butler settings of the current tenant.';
comment on policy butler_settings_tenant_insert on pymem.butler_settings is
'pymem_app writes butler settings only into the current tenant.';
comment on policy butler_settings_tenant_update on pymem.butler_settings is
'pymem_app updates only the butler settings of the current tenant, and cannot move them to another.';
comment on policy butler_settings_owner_select on pymem.butler_settings is
'The owner (SECURITY DEFINER, so: the caller''s tenant) reads only the butler settings of the current tenant.';
comment on policy butler_settings_owner_delete on pymem.butler_settings is
'The owner (pymem_private.delete_butler_settings) deletes only the butler settings of the current tenant.';
comment on policy butler_settings_admin_select on pymem.butler_settings is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

-- pymem.embedding_queue and pymem.embedding_failures: what waits for the embedding worker, and what it gave up on.
-- Tenant roles read their tenant's rows (memory_embedding_backlog); the owner writes them, in the SECURITY DEFINER
-- queue trigger (any writer's tenant) and in the worker's claim and fail functions (every tenant: operators only).
alter table pymem.embedding_queue enable row level security;
alter table pymem.embedding_queue force row level security;
alter table pymem.embedding_failures enable row level security;
alter table pymem.embedding_failures force row level security;

drop policy if exists embedding_queue_tenant_select on pymem.embedding_queue;
create policy embedding_queue_tenant_select on pymem.embedding_queue
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists embedding_queue_owner_all on pymem.embedding_queue;
create policy embedding_queue_owner_all on pymem.embedding_queue
for all to pymem_owner
using (true)
with check (true);

drop policy if exists embedding_failures_tenant_select on pymem.embedding_failures;
create policy embedding_failures_tenant_select on pymem.embedding_failures
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists embedding_failures_owner_all on pymem.embedding_failures;
create policy embedding_failures_owner_all on pymem.embedding_failures
for all to pymem_owner
using (true)
with check (true);

comment on policy embedding_queue_tenant_select on pymem.embedding_queue is
'A tenant role reads only the queue rows of the current tenant (memory_embedding_backlog).';
comment on policy embedding_queue_owner_all on pymem.embedding_queue is
'The owner writes the queue: the queue trigger (SECURITY DEFINER) and the worker''s claim and fail functions.';
comment on policy embedding_failures_tenant_select on pymem.embedding_failures is
'A tenant role reads only the failures of the current tenant (memory_embedding_backlog).';
comment on policy embedding_failures_owner_all on pymem.embedding_failures is
'The owner writes the failures (pymem_private.embedding_fail, operators only).';

-- pymem.second_embeddings: the second encoder's vectors (migration 0029). Tenant roles read their tenant's rows;
-- pymem_app writes them (memory_second_embedding_store, in the tenant's transaction); the owner deletes them in
-- the SECURITY DEFINER trigger of a deleted or rewritten memory, whoever deleted or rewrote it: a tenant's erasure,
-- or an operator rewriting a text with no tenant set (tenant roles cannot change a memory's text). So the owner's
-- policies name no tenant, like the embedding queue's; the trigger deletes exactly the row of OLD.
alter table pymem.second_embeddings enable row level security;
alter table pymem.second_embeddings force row level security;

drop policy if exists second_embeddings_tenant_select on pymem.second_embeddings;
create policy second_embeddings_tenant_select on pymem.second_embeddings
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists second_embeddings_tenant_insert on pymem.second_embeddings;
create policy second_embeddings_tenant_insert on pymem.second_embeddings
for insert to pymem_app
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists second_embeddings_tenant_update on pymem.second_embeddings;
create policy second_embeddings_tenant_update on pymem.second_embeddings
for update to pymem_app
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists second_embeddings_owner_select on pymem.second_embeddings;
create policy second_embeddings_owner_select on pymem.second_embeddings
for select to pymem_owner
using (true);

drop policy if exists second_embeddings_owner_delete on pymem.second_embeddings;
create policy second_embeddings_owner_delete on pymem.second_embeddings
for delete to pymem_owner
using (true);

drop policy if exists second_embeddings_admin_select on pymem.second_embeddings;
create policy second_embeddings_admin_select on pymem.second_embeddings
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on policy second_embeddings_tenant_select on pymem.second_embeddings is
'A tenant role reads only the second-encoder vectors of the current tenant.';
comment on policy second_embeddings_tenant_insert on pymem.second_embeddings is
'pymem_app stores second-encoder vectors only into the current tenant (memory_second_embedding_store).';
comment on policy second_embeddings_tenant_update on pymem.second_embeddings is
'pymem_app replaces second-encoder vectors only of the current tenant, and cannot move them to another.';
comment on policy second_embeddings_owner_select on pymem.second_embeddings is
'The owner (pymem_private.drop_second_embedding, a SECURITY DEFINER trigger) finds the vector of the memory deleted or rewritten.';
comment on policy second_embeddings_owner_delete on pymem.second_embeddings is
'The owner (pymem_private.drop_second_embedding, a trigger) deletes the vector of the memory deleted or rewritten, whoever did it.';
comment on policy second_embeddings_admin_select on pymem.second_embeddings is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

-- the partitions of the memory tables (migration 0038: hash of tenant_id): read and written through their parent,
-- whose policies above apply there; on a partition itself RLS is enabled and forced with no policy and no grant, so
-- no role but the owner reads one directly
do $$
declare
    v_partition regclass;
begin
    for v_partition in
        select t.relid from pg_catalog.pg_partition_tree('pymem.episodes') as t where t.isleaf and t.level > 0
        union all
        select t.relid from pg_catalog.pg_partition_tree('pymem.facts') as t where t.isleaf and t.level > 0
        union all
        select t.relid from pg_catalog.pg_partition_tree('pymem.rules') as t where t.isleaf and t.level > 0
    loop
        execute pg_catalog.format('alter table %s enable row level security', v_partition);
        execute pg_catalog.format('alter table %s force row level security', v_partition);
    end loop;
end;
$$;
