-- Privileges, applied last. Nothing is granted to PUBLIC; each role gets only what it uses.

revoke all on schema pymem from public;
revoke all on schema pymem_private from public;
grant usage on schema pymem to pymem_app, pymem_analyst, pymem_admin;
grant usage on schema pymem_private to pymem_app, pymem_analyst, pymem_admin;

revoke all on all tables in schema pymem from public;
revoke all on all tables in schema pymem_private from public;

grant select, insert, update, delete
on pymem.episodes, pymem.facts, pymem.rules, pymem.memory_links
to pymem_app, pymem_analyst;
grant select, insert on pymem.memory_events to pymem_app, pymem_analyst;
grant select on pymem.episodes, pymem.facts, pymem.rules, pymem.memory_links, pymem.memory_events
to pymem_admin;
grant insert on pymem.memory_events to pymem_admin;
grant select on pymem_private.role_tenants to pymem_app, pymem_analyst, pymem_admin;

-- Functions: EXECUTE is revoked from PUBLIC, then granted by name.
revoke all on all functions in schema pymem from public;
revoke all on all functions in schema pymem_private from public;

grant execute on function pymem.current_tenant() to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem.memory_decay_rate(text) to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem.memory_log_elevation(text) to pymem_admin;
grant execute on function pymem.memory_rls_audit() to pymem_app, pymem_analyst, pymem_admin;
-- memory_bind_role / memory_unbind_role: superusers and DBAs only (no grant).

grant execute on function pymem_private.tenant_for_write() to pymem_app, pymem_analyst, pymem_admin;
grant execute on function pymem_private.memory_exists(text, text, uuid) to pymem_app, pymem_analyst;
grant execute on function pymem_private.memory_state(text, jsonb) to pymem_app, pymem_analyst;
grant execute on function pymem_private.admin_elevated() to pymem_admin;
