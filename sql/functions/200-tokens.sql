-- Bearer tokens of the HTTP MCP server (pymem_private.api_tokens, revision 0003).
-- Only the SHA-256 of a token is stored. The application resolves a token with
-- token_verify (SECURITY DEFINER: it has no privilege on the table); operators (the migrator
-- login: a superuser, or a DBA acting as pymem_owner) issue, list and revoke tokens with the
-- other three, which have no grant at all.

create or replace function pymem_private.token_verify(token_hash text)
returns table (token_id uuid, tenant_id text, scopes text[], expires_at timestamptz)
language plpgsql
volatile
security definer
set search_path = pg_catalog, pg_temp
as $$
#variable_conflict use_column
declare
    v_token pymem_private.api_tokens%rowtype;
begin
    if token_hash is null or token_hash !~ '^[0-9a-f]{64}$' then
        return;  -- never an error: a bad token is simply not a token
    end if;
    select t.* into v_token
      from pymem_private.api_tokens as t
     where t.token_hash = token_verify.token_hash
       and t.revoked_at is null
       and (t.expires_at is null or t.expires_at > pg_catalog.now());
    if not found then
        return;
    end if;
    -- at most one write a minute per token, so that verifying is not a write per request; none
    -- in a read-only transaction (or on a standby), where verifying still works
    if (v_token.last_used_at is null or v_token.last_used_at < pg_catalog.now() - interval '1 minute')
       and pg_catalog.current_setting('transaction_read_only') = 'off' then
        update pymem_private.api_tokens as t
           set last_used_at = pg_catalog.now()
         where t.id = v_token.id
           and (t.last_used_at is null or t.last_used_at < pg_catalog.now() - interval '1 minute');
    end if;
    return query select v_token.id, v_token.tenant_id, v_token.scopes, v_token.expires_at;
end;
$$;

comment on function pymem_private.token_verify(text) is
$$The token whose SHA-256 (lower-case hex) is token_hash, when it exists, is not revoked and has not
expired (expires_at is NULL or later than now()); no row otherwise, never an error. Records
last_used_at (at most once a minute; not in a read-only transaction). SECURITY DEFINER (owner) to
read api_tokens; EXECUTE for pymem_app only.
Example: select * from pymem_private.token_verify(encode(sha256(convert_to('pmt_...', 'UTF8')), 'hex'));$$;


create or replace function pymem_private.require_scopes(scopes text[])
returns text[]
language plpgsql
immutable
parallel safe
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if scopes is null or pg_catalog.cardinality(scopes) = 0 then
        raise exception 'scopes must name at least one scope'
            using errcode = 'PM002', hint = 'Scopes are memory:read, memory:write, memory:admin and memory:review.';
    end if;
    if pg_catalog.array_ndims(scopes) > 1 then
        raise exception 'scopes must be a one-dimensional array of texts' using errcode = 'PM002';
    end if;
    if pg_catalog.array_position(scopes, null) is not null
       or not (scopes <@ array['memory:read', 'memory:write', 'memory:admin', 'memory:review']) then
        raise exception 'invalid scopes %', scopes
            using errcode = 'PM002', detail = 'scopes must be among: memory:read, memory:write, memory:admin, memory:review';
    end if;
    return (select pg_catalog.array_agg(distinct s.scope order by s.scope) from pg_catalog.unnest(scopes) as s (scope));
end;
$$;

comment on function pymem_private.require_scopes(text[]) is
$$Returns the scopes (distinct, sorted), or raises PM002 when they are empty, contain NULL or name
anything but memory:read, memory:write, memory:admin and memory:review.
Example: select pymem_private.require_scopes(array['memory:write', 'memory:read']);$$;


create or replace function pymem_private.token_issue(
    tenant_id text, token_hash text, scopes text[], expires_at timestamptz default null, label text default null
)
returns uuid
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
declare
    v_id uuid;
begin
    perform pymem_private.require_text('tenant_id', tenant_id, 128);
    if token_hash is null or token_hash !~ '^[0-9a-f]{64}$' then
        raise exception 'token_hash must be a lower-case hex SHA-256 (64 characters)'
            using errcode = 'PM002', hint = 'Store encode(sha256(convert_to(token, ''UTF8'')), ''hex''), never the token.';
    end if;
    -- the one check of a token's expiry (pymem token create and bearer_tokens.create_token only
    -- pass it on): NULL is never; otherwise a time after now() that a client can read back
    -- (infinity and years past 9999 are not datetimes in Python, so token_list would fail on them)
    if expires_at is not null and expires_at <= pg_catalog.now() then
        raise exception 'expires_at must be in the future'
            using errcode = 'PM002',
                  detail = pg_catalog.format('expires_at was %s, now is %s', expires_at, pg_catalog.now()),
                  hint = 'Give the token a positive lifetime (pymem token create --expires-in DAYS),'
                      || ' or none for a token that never expires.';
    end if;
    if expires_at is not null
       and (not pg_catalog.isfinite(expires_at) or expires_at >= '10000-01-01 00:00:00+00'::timestamptz) then
        raise exception 'expires_at must be before the year 10000'
            using errcode = 'PM002',
                  detail = pg_catalog.format('expires_at was %s', expires_at),
                  hint = 'Leave expires_at NULL (no --expires-in) for a token that never expires.';
    end if;
    if label is not null then
        perform pymem_private.require_text('label', label, 200);
    end if;
    insert into pymem_private.api_tokens as t (tenant_id, token_hash, scopes, expires_at, label)
    values (
        token_issue.tenant_id, token_issue.token_hash, pymem_private.require_scopes(token_issue.scopes),
        token_issue.expires_at, token_issue.label
    )
    returning t.id into v_id;
    return v_id;
end;
$$;

comment on function pymem_private.token_issue(text, text, text[], timestamptz, text) is
$$Stores a bearer token for tenant_id by its SHA-256 (lower-case hex) and returns its id; PM002 for a blank
tenant, a hash that is not 64 hex digits, scopes outside memory:read | memory:write | memory:admin | memory:review,
an expires_at not after now() or not before the year 10000 (infinity included; NULL is never), or a blank
label. The only check of a token's expiry: pymem token create passes now() + --expires-in days here.
For operators (pymem token create); no role has EXECUTE.
Example: select pymem_private.token_issue('acme', encode(sha256(convert_to('pmt_example', 'UTF8')), 'hex'),
array['memory:read', 'memory:write'], now() + interval '90 days', 'nightly agent');$$;


create or replace function pymem_private.token_revoke(token_id uuid)
returns boolean
language plpgsql
volatile
security invoker
set search_path = pg_catalog, pg_temp
as $$
begin
    if token_id is null then
        raise exception 'token_id must not be NULL' using errcode = 'PM002';
    end if;
    update pymem_private.api_tokens as t
       set revoked_at = pg_catalog.now()
     where t.id = token_revoke.token_id and t.revoked_at is null;
    return found;
end;
$$;

comment on function pymem_private.token_revoke(uuid) is
$$Revokes a bearer token (revoked_at = now()): it never verifies again. True when it was revoked now,
false when there is no such token or it was already revoked. For operators (pymem token revoke).
Example: select pymem_private.token_revoke('00000000-0000-0000-0000-000000000000');$$;


create or replace function pymem_private.token_list(tenant_id text default null)
returns table (
    token_id uuid,
    tenant_id text,
    scopes text[],
    label text,
    created_at timestamptz,
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz
)
language sql
stable
security invoker
set search_path = pg_catalog, pg_temp
begin atomic
    select
        t.id,
        t.tenant_id,
        t.scopes,
        t.label,
        t.created_at,
        t.expires_at,
        t.revoked_at,
        t.last_used_at
    from pymem_private.api_tokens as t
    where token_list.tenant_id is null or t.tenant_id = token_list.tenant_id  -- noqa: RF01
    order by t.tenant_id asc, t.created_at desc, t.id asc;
end;

comment on function pymem_private.token_list(text) is
$$The bearer tokens of tenant_id (of every tenant when NULL), revoked and expired ones included, never the
tokens themselves; newest first within a tenant. For operators (pymem token list).
Example: select * from pymem_private.token_list('acme') where revoked_at is null;$$;
