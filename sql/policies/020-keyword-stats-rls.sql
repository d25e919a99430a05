-- Row-level security of the keyword statistics (migration 0008), as for every table (010-rls.sql).

-- pymem.keyword_stats / pymem.keyword_lexemes: the keyword statistics of a tenant's searchable rows
-- (sql/functions/125-keyword-stats.sql). The triggers write them as the writer of the memory rows, so the
-- tenant roles read and write only their own tenant's rows; pymem_admin reads them only when elevated.
alter table pymem.keyword_stats enable row level security;
alter table pymem.keyword_stats force row level security;

drop policy if exists keyword_stats_tenant_select on pymem.keyword_stats;
create policy keyword_stats_tenant_select on pymem.keyword_stats
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_stats_tenant_insert on pymem.keyword_stats;
create policy keyword_stats_tenant_insert on pymem.keyword_stats
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_stats_tenant_update on pymem.keyword_stats;
create policy keyword_stats_tenant_update on pymem.keyword_stats
for update to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- the owner keeps the statistics of the rows pymem_private.delete_memories (SECURITY DEFINER) deletes: its
-- triggers run as the owner, in the current tenant only
drop policy if exists keyword_stats_owner_select on pymem.keyword_stats;
create policy keyword_stats_owner_select on pymem.keyword_stats
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_stats_owner_insert on pymem.keyword_stats;
create policy keyword_stats_owner_insert on pymem.keyword_stats
for insert to pymem_owner
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_stats_owner_update on pymem.keyword_stats;
create policy keyword_stats_owner_update on pymem.keyword_stats
for update to pymem_owner
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_stats_admin_select on pymem.keyword_stats;
create policy keyword_stats_admin_select on pymem.keyword_stats
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on table pymem.keyword_stats is
'Per tenant and memory type: searchable rows (docs), their total length (distinct lexemes) and a lower bound '
'of a row''s length (min_length); BM25 N and avgdl of search.';
comment on policy keyword_stats_tenant_select on pymem.keyword_stats is
'A tenant role reads only the keyword statistics of the current tenant.';
comment on policy keyword_stats_tenant_insert on pymem.keyword_stats is
'A tenant role (through the keyword_stats triggers) writes statistics only of the current tenant.';
comment on policy keyword_stats_tenant_update on pymem.keyword_stats is
'A tenant role (through the keyword_stats triggers) updates only the statistics of the current tenant.';
comment on policy keyword_stats_owner_select on pymem.keyword_stats is
'The owner (the triggers of pymem_private.delete_memories'' deletes) reads only the statistics of the current tenant.';
comment on policy keyword_stats_owner_insert on pymem.keyword_stats is
'The owner (the triggers of pymem_private.delete_memories'' deletes) writes only the statistics of the current tenant.';
comment on policy keyword_stats_owner_update on pymem.keyword_stats is
'The owner (the triggers of pymem_private.delete_memories'' deletes) updates only the statistics of the current tenant.';
comment on policy keyword_stats_admin_select on pymem.keyword_stats is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';

alter table pymem.keyword_lexemes enable row level security;
alter table pymem.keyword_lexemes force row level security;

drop policy if exists keyword_lexemes_tenant_select on pymem.keyword_lexemes;
create policy keyword_lexemes_tenant_select on pymem.keyword_lexemes
for select to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_lexemes_tenant_insert on pymem.keyword_lexemes;
create policy keyword_lexemes_tenant_insert on pymem.keyword_lexemes
for insert to pymem_app, pymem_analyst
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_lexemes_tenant_update on pymem.keyword_lexemes;
create policy keyword_lexemes_tenant_update on pymem.keyword_lexemes
for update to pymem_app, pymem_analyst
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

-- no tenant role deletes (it holds no DELETE privilege: one would let it LOCK the table); the owner does, in
-- pymem_private.delete_memories (SECURITY DEFINER), whose triggers also keep the statistics as the owner
drop policy if exists keyword_lexemes_tenant_delete on pymem.keyword_lexemes;
drop policy if exists keyword_lexemes_owner_select on pymem.keyword_lexemes;
create policy keyword_lexemes_owner_select on pymem.keyword_lexemes
for select to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_lexemes_owner_insert on pymem.keyword_lexemes;
create policy keyword_lexemes_owner_insert on pymem.keyword_lexemes
for insert to pymem_owner
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_lexemes_owner_update on pymem.keyword_lexemes;
create policy keyword_lexemes_owner_update on pymem.keyword_lexemes
for update to pymem_owner
using (tenant_id = (select pymem.current_tenant()))
with check (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_lexemes_owner_delete on pymem.keyword_lexemes;
create policy keyword_lexemes_owner_delete on pymem.keyword_lexemes
for delete to pymem_owner
using (tenant_id = (select pymem.current_tenant()));

drop policy if exists keyword_lexemes_admin_select on pymem.keyword_lexemes;
create policy keyword_lexemes_admin_select on pymem.keyword_lexemes
for select to pymem_admin
using ((select pymem_private.admin_elevated()));

comment on table pymem.keyword_lexemes is
'Per tenant, memory type and lexeme: searchable rows holding it (df, BM25 IDF of search) and an upper bound of '
'its positions in one row (max_tf).';
comment on policy keyword_lexemes_tenant_select on pymem.keyword_lexemes is
'A tenant role reads only the keyword statistics of the current tenant.';
comment on policy keyword_lexemes_tenant_insert on pymem.keyword_lexemes is
'A tenant role (through the keyword_stats triggers) writes statistics only of the current tenant.';
comment on policy keyword_lexemes_tenant_update on pymem.keyword_lexemes is
'A tenant role (through the keyword_stats triggers) updates only the statistics of the current tenant.';
comment on policy keyword_lexemes_owner_select on pymem.keyword_lexemes is
'The owner (pymem_private.delete_memories and its triggers) reads only the statistics of the current tenant.';
comment on policy keyword_lexemes_owner_insert on pymem.keyword_lexemes is
'The owner (the triggers of pymem_private.delete_memories'' deletes) writes only the statistics of the current tenant.';
comment on policy keyword_lexemes_owner_update on pymem.keyword_lexemes is
'The owner (the triggers of pymem_private.delete_memories'' deletes) updates only the statistics of the current tenant.';
comment on policy keyword_lexemes_owner_delete on pymem.keyword_lexemes is
'The owner (pymem_private.delete_memories) deletes the lexemes no row of the current tenant holds any more.';
comment on policy keyword_lexemes_admin_select on pymem.keyword_lexemes is
'pymem_admin reads across tenants, only in a transaction that logged its elevation.';
