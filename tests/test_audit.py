"""The DBA's view: memory_rls_audit() and a catalog snapshot of who may do what."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tests.conftest import ALL_TABLES

SNAPSHOT = Path(__file__).parent / "expected" / "catalog.txt"


def audit(conn: psycopg.Connection[Any]) -> list[tuple[str, str, bool, str]]:
    return conn.execute("select section, object, ok, detail from pymem.memory_rls_audit()").fetchall()


def test_the_audit_of_a_fresh_install_is_clean(app: psycopg.Connection[Any]) -> None:
    rows = audit(app)
    assert [r for r in rows if not r[2]] == []
    tables = {r[1]: r[3] for r in rows if r[0] == "table"}
    assert set(tables) == ALL_TABLES
    assert all(d.startswith("rls enabled, forced; owner pymem_owner") for d in tables.values())
    roles = {r[1]: r[3] for r in rows if r[0] == "role"}
    assert "SUPERUSER: bypasses RLS" in roles["postgres"]
    assert roles["pymem_app"] == "login; noinherit; member of pymem_admin"


def test_the_audit_flags_what_breaks_isolation(superuser: psycopg.Connection[Any]) -> None:
    name = f"test_bypass_{uuid.uuid4().hex[:8]}"
    superuser.execute(sql.SQL("create role {} login bypassrls").format(sql.Identifier(name)))
    try:
        superuser.execute(sql.SQL("grant pymem_analyst to {}").format(sql.Identifier(name)))
        superuser.execute("alter table pymem.rules no force row level security")
        superuser.execute("grant select on pymem.facts to public")
        superuser.execute("create policy rules_leaky on pymem.rules for select to pymem_app using (true)")
        superuser.execute("create function pymem.unpinned() returns int language sql as 'select 1'")
        # a SQL-standard body is bound when created: no search_path to pin (pymem_private.bm25_term)
        superuser.execute("create function pymem.bound_body() returns int language sql return 1")
        rows = audit(superuser)
        assert ("function", "pymem.bound_body()", True) in {(r[0], r[1], r[2]) for r in rows}
        problems = {(r[0], r[1]) for r in rows if not r[2]}
        assert problems == {
            ("role", name),
            ("table", "pymem.rules"),
            ("grant", "pymem.facts to PUBLIC"),
            ("policy", "pymem.rules rules_leaky"),
            ("function", "pymem.unpinned()"),
        }
    finally:
        superuser.execute(sql.SQL("drop role {}").format(sql.Identifier(name)))


CATALOG_QUERIES = {
    "roles": """
        select rolname, rolsuper, rolinherit, rolcanlogin, rolbypassrls, rolcreaterole, rolcreatedb,
               (select array_agg(g.rolname order by g.rolname) from pg_auth_members m
                  join pg_roles g on g.oid = m.roleid where m.member = r.oid),
               (select array_agg(c order by c) from pg_db_role_setting s, unnest(s.setconfig) c
                 where s.setrole = r.oid and s.setdatabase = 0)
          from pg_roles r where rolname like 'pymem\\_%' and rolname not like 'pymem\\_t\\_%'
         order by 1""",
    "tables": """
        select c.oid::regclass, pg_get_userbyid(c.relowner), c.relrowsecurity, c.relforcerowsecurity
          from pg_class c where c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
           and c.relkind in ('r', 'p') order by c.oid::regclass::text""",
    "policies": """
        select schemaname, tablename, policyname, permissive, roles, cmd, qual, with_check
          from pg_policies where schemaname in ('pymem', 'pymem_private') order by 1, 2, 3""",
    "table grants": """
        select c.oid::regclass, pg_get_userbyid(a.grantee), string_agg(a.privilege_type, ',' order by a.privilege_type)
          from pg_class c cross join lateral aclexplode(c.relacl) a
         where c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace) and c.relkind in ('r', 'p')
         group by 1, 2 order by c.oid::regclass::text, 2""",
    "schema grants": """
        select n.nspname, case when a.grantee = 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end, a.privilege_type
          from pg_namespace n cross join lateral aclexplode(n.nspacl) a
         where n.nspname in ('pymem', 'pymem_private') order by 1, 2, 3""",
    "functions": """
        select p.oid::regprocedure, pg_get_function_result(p.oid), p.provolatile, p.proparallel, p.prosecdef,
               p.proisstrict, p.proconfig, pg_get_userbyid(p.proowner),
               (select string_agg(g.name, ',' order by g.name)
                  from aclexplode(p.proacl) a
                  cross join lateral (select case when a.grantee = 0 then 'PUBLIC'
                                                  else pg_get_userbyid(a.grantee)::text end as name) g
                 where a.grantee <> p.proowner)
          from pg_proc p where p.pronamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
         order by p.oid::regprocedure::text""",
    "triggers": """
        select tgrelid::regclass, tgname, pg_get_triggerdef(t.oid)
          from pg_trigger t where not tgisinternal
           and tgparentid = 0  -- a partition's copies of its table's triggers (tests/test_partitions.py)
           and tgrelid in (select oid from pg_class
                            where relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace))
         order by tgrelid::regclass::text, 2""",
    "comments on functions": """
        select p.oid::regprocedure, obj_description(p.oid, 'pg_proc') is not null
          from pg_proc p where p.pronamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
         order by p.oid::regprocedure::text""",
}


def catalog_snapshot(conn: psycopg.Connection[Any]) -> str:
    lines = []
    for title, query in CATALOG_QUERIES.items():
        lines.append(f"## {title}")
        lines.extend(" | ".join("" if v is None else str(v) for v in row) for row in conn.execute(query))
        lines.append("")
    return "\n".join(lines)


def test_catalog_matches_the_checked_in_snapshot(superuser: psycopg.Connection[Any]) -> None:
    actual = catalog_snapshot(superuser)
    if os.environ.get("PYMEM_UPDATE_SNAPSHOT"):
        SNAPSHOT.write_text(actual)
        pytest.skip("snapshot re-written")
    expected = SNAPSHOT.read_text() if SNAPSHOT.exists() else ""
    assert actual == expected, (
        "the catalog (policies, grants, functions, roles) changed; if that is intended, run `make snapshot` "
        "and review the diff of tests/expected/catalog.txt"
    )


def test_every_public_function_has_a_comment_with_an_example(superuser: psycopg.Connection[Any]) -> None:
    rows = superuser.execute(
        "select p.oid::regprocedure::text, coalesce(obj_description(p.oid, 'pg_proc'), '')"
        " from pg_proc p where p.pronamespace = 'pymem'::regnamespace"
    ).fetchall()
    assert rows
    missing = [name for name, comment in rows if "Example" not in comment]
    assert missing == []


def test_every_table_and_policy_has_a_comment(superuser: psycopg.Connection[Any]) -> None:
    tables = superuser.execute(
        "select c.oid::regclass::text from pg_class c where c.relkind in ('r', 'p') and c.relname <> 'alembic_version'"
        " and c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)"
        " and obj_description(c.oid, 'pg_class') is null"
    ).fetchall()
    policies = superuser.execute(
        "select polname from pg_policy where obj_description(oid, 'pg_policy') is null"
    ).fetchall()
    assert tables == [] and policies == []
