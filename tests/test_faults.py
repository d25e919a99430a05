"""Faults: the database dropping `pymem serve`'s connections in the middle of writes, and
databases holding data at every earlier schema revision upgraded to head.

`invariant_violations` states what "nothing half-written" means for this schema; tests/test_concurrency.py
checks the same invariants after its races."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from psycopg import sql
from psycopg.conninfo import make_conninfo

from pymem import bearer_tokens, embedded, migrate
from pymem.pool import make_pool
from pymem_dev.stress import spawn_http_server
from tests.conftest import app_dsn_for
from tests.mcpclient import call
from tests.sqlapi import call_one
from tests.test_audit import CATALOG_QUERIES
from tests.test_mcp_transports import base_env, http_client, pymem_command

# What a consistent database looks like, whatever happened to the writes that made it. Each query returns the
# rows that break its invariant (run as a superuser: every tenant at once).
INVARIANTS = {
    # the partial unique index says so too; this holds even if someone dropped it
    "two active facts for one key": """
        select tenant_id, subject, predicate, count(*) from pymem.facts where validity = 'active'
         group by 1, 2, 3 having count(*) > 1""",
    # the audit trail replays to each memory's state: one 'insert' first, each transition starting where the
    # previous one ended; a memory half-written (a row without its event, or an event without its row) breaks it
    "a transition that does not follow the previous one": """
        select tenant_id, memory_type, memory_id, id, operation, from_state, to_state, previous
          from (select e.*, lag(e.to_state) over w as previous, row_number() over w as n
                  from pymem.memory_events as e
                 where e.operation in ('insert', 'update', 'delete') and e.memory_id is not null
                window w as (partition by e.tenant_id, e.memory_type, e.memory_id order by e.id)) as t
         where (n = 1 and (operation <> 'insert' or from_state is not null))
            or (n > 1 and (operation = 'insert' or from_state is distinct from previous))""",
    "a memory whose events do not end in its state": """
        with last as (
            select distinct on (tenant_id, memory_type, memory_id) tenant_id, memory_type, memory_id, to_state
              from pymem.memory_events
             where operation in ('insert', 'update', 'delete') and memory_id is not null
             order by tenant_id, memory_type, memory_id, id desc
        ), current as (
            select tenant_id, 'episode' as memory_type, id as memory_id,
                   pymem_private.memory_state('episode', to_jsonb(m) - 'embedding') as state from pymem.episodes as m
            union all
            select tenant_id, 'fact', id, pymem_private.memory_state('fact', to_jsonb(m) - 'embedding')
              from pymem.facts as m
            union all
            select tenant_id, 'rule', id, pymem_private.memory_state('rule', to_jsonb(m) - 'embedding')
              from pymem.rules as m
        )
        select tenant_id, memory_type, memory_id, c.state, l.to_state
          from current as c full join last as l using (tenant_id, memory_type, memory_id)
         where l.to_state is distinct from coalesce(c.state, 'deleted')""",
    "a link to or from a memory that does not exist": """
        select * from pymem.memory_links as l
         where not pymem_private.memory_exists(l.tenant_id, l.source_type, l.source_id)
            or not pymem_private.memory_exists(l.tenant_id, l.target_type, l.target_id)""",
    "a superseding fact without its link, or a superseded fact still active": """
        select f.tenant_id, f.id, f.supersedes_id from pymem.facts as f
         where f.supersedes_id is not null
           and (not exists (select from pymem.memory_links as l
                             where l.tenant_id = f.tenant_id and l.relation = 'supersedes'
                               and (l.source_type, l.source_id, l.target_type, l.target_id)
                                   = ('fact', f.id, 'fact', f.supersedes_id))
                or exists (select from pymem.facts as o
                            where o.tenant_id = f.tenant_id and o.id = f.supersedes_id and o.validity = 'active'))""",
    "a fact superseded twice (a fork in the chain)": """
        select tenant_id, supersedes_id, count(*) from pymem.facts where supersedes_id is not null
         group by 1, 2 having count(*) > 1""",
    "a fact whose validity and invalidated_at disagree": """
        select tenant_id, id, validity, invalidated_at from pymem.facts
         where (validity = 'active') <> (invalidated_at is null)""",
}


def invariant_violations(conn: psycopg.Connection[Any]) -> dict[str, list[tuple[Any, ...]]]:
    """{invariant: the rows that break it} for every broken invariant ({} for a consistent database)."""
    found = {name: conn.execute(query).fetchall() for name, query in INVARIANTS.items()}
    return {name: rows for name, rows in found.items() if rows}


# 1. The database goes away in the middle of writes


@pytest.fixture
def served(db_dsn: str, tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`pymem serve --transport http` on this test's database: (its MCP URL, its process)."""
    env = base_env(PYMEM_DSN=db_dsn, XDG_CONFIG_HOME=str(tmp_path), PYMEM_BUTLERS_DIR=str(tmp_path / "butlers"))
    with spawn_http_server(env, tmp_path) as server:
        yield server.url, server.process


APP_BACKENDS = "select pid from pg_stat_activity where usename = 'pymem_app' and datname = current_database()"


def terminate_app_backends(conn: psycopg.Connection[Any]) -> int:
    """Terminates every pymem_app backend of the database, waits until they have exited and returns how many
    there were (the pool may meanwhile open new ones)."""
    pids = [pid for (pid,) in conn.execute(APP_BACKENDS).fetchall()]
    conn.execute("select pg_terminate_backend(pid) from unnest(%s::int[]) as pid", (pids,))
    deadline = time.monotonic() + 10
    while conn.execute("select count(*) from pg_stat_activity where pid = any(%s)", (pids,)).fetchone() != (0,):
        assert time.monotonic() < deadline, "the terminated backends did not exit"
        time.sleep(0.01)
    return len(pids)


def fact_arguments(i: int) -> dict[str, Any]:
    # three keys, so that most writes supersede the previous write of their key
    return {
        "subject": "user",
        "predicate": f"locker_{i % 3}",
        "content": f"The user's locker {i % 3} code is {1000 + i}",
        "source": "user_statement",
    }


@pytest.mark.anyio
async def test_acknowledged_writes_survive_terminated_backends_and_the_server_recovers(
    served: tuple[str, subprocess.Popen[bytes]], db_dsn: str, superuser: psycopg.Connection[Any]
) -> None:
    """`pymem serve` over HTTP, a real MCP client storing facts in a loop, and every pymem_app backend of the
    database terminated three times meanwhile, once more with a write stopped after its row was written and
    before its audit event was, and twice between calls. Every write acknowledged with a memory_id is in the
    table with its content; a write that failed left no row, or (a commit whose answer was lost) the row of a
    call that failed, never one nobody asked for; the invariants hold (nothing half-written); and the server
    answers the next call after a termination without a restart and without an error (its pool checks a
    connection before handing it out)."""
    url, process = served
    token = bearer_tokens.create_token(db_dsn, "faults")
    acked: dict[str, str] = {}  # memory_id -> content
    failed: list[str] = []
    kills: list[int] = []

    async def store(client: Client, i: int) -> None:
        arguments = fact_arguments(i)
        try:
            result = await client.call_tool("memory_store_fact", arguments)
        except MCPError:
            # refused before the tool ran: the bearer token's verification lost its connection (answered 401)
            failed.append(arguments["content"])
            return
        if result.is_error:
            text = " ".join(getattr(part, "text", "") for part in result.content)
            assert "database error" in text and "Traceback" not in text, text
            failed.append(arguments["content"])
        else:
            assert result.structured_content is not None
            assert result.structured_content["review_state"] == "approved"
            acked[result.structured_content["memory_id"]] = arguments["content"]

    def killer(done: threading.Event) -> None:
        try:
            with psycopg.connect(db_dsn, autocommit=True) as conn:
                for _ in range(3):
                    time.sleep(0.3)
                    deadline = time.monotonic() + 10  # a backend to kill: the loop is writing
                    while conn.execute(f"select count(*) from ({APP_BACKENDS}) as b").fetchone() == (0,):
                        if time.monotonic() > deadline:
                            return
                        time.sleep(0.005)
                    kills.append(terminate_app_backends(conn))
        finally:
            done.set()

    async with http_client(url, token.token) as client:
        # 1. writes in a loop while the backends are terminated three times
        done = threading.Event()
        thread = threading.Thread(target=killer, args=(done,))
        thread.start()
        i = 0
        while not done.is_set() or i < 40:
            await store(client, i)
            i += 1
        thread.join()
        assert len(kills) == 3 and all(k >= 1 for k in kills), kills
        written = i

        # 2. a write stopped in the middle: its fact row is written, its audit event waits for a lock
        blocker = psycopg.connect(db_dsn)
        blocker.execute("lock table pymem.memory_events in access exclusive mode")
        middle = {**fact_arguments(written), "content": "The user's locker 0 code is 9999 (cut off)"}
        async with anyio.create_task_group() as tasks:
            outcome: dict[str, Any] = {}

            async def cut_off() -> None:
                outcome["result"] = await client.call_tool("memory_store_fact", middle)

            tasks.start_soon(cut_off)
            pid = None
            deadline = time.monotonic() + 30
            while pid is None:
                assert time.monotonic() < deadline, "the write never reached the audit trail's lock"
                await anyio.sleep(0.01)
                row = superuser.execute(
                    f"""select a.pid from pg_stat_activity as a
                         where a.pid in ({APP_BACKENDS}) and a.wait_event_type = 'Lock'
                           and exists (select from pg_locks as l where l.pid = a.pid and l.granted
                                        and l.relation = 'pymem.facts'::regclass and l.mode = 'RowExclusiveLock')"""
                ).fetchone()
                pid = row[0] if row else None
            assert superuser.execute("select pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
            blocker.rollback()
            blocker.close()
        assert outcome["result"].is_error
        failed.append(middle["content"])

        # 3. terminated between calls: the next calls are answered, without an error
        for round_ in range(2):
            await store(client, written + 1 + round_)  # the pool holds a connection
            assert terminate_app_backends(superuser) >= 1
            before = len(failed)
            await store(client, written + 10 + round_)
            found = await call(client, "memory_search", query="locker code", limit=3)
            assert found["results"], "the server answered the search with nothing"
            got = await call(client, "memory_get", type="fact", id=next(iter(acked)))
            assert got["memory_id"] == next(iter(acked))
            assert len(failed) == before, f"a call after the termination failed: {failed[before:]}"
    assert process.poll() is None, "the server exited"

    stored = dict(superuser.execute("select id::text, content from pymem.facts where tenant_id = 'faults'").fetchall())
    # every acknowledged write is there, with its content
    assert {k: stored.get(k) for k in acked} == acked
    # nothing else, but the writes whose answer was lost
    assert set(stored.values()) - set(acked.values()) <= set(failed)
    assert middle["content"] not in stored.values()
    assert invariant_violations(superuser) == {}
    # per key, the facts form one chain in the order they were written: no gap, no fork
    for key in range(3):
        rows = superuser.execute(
            "select f.id, f.supersedes_id, f.validity from pymem.facts as f"
            " join pymem.memory_events as e on e.tenant_id = f.tenant_id and e.memory_id = f.id"
            "  and e.operation = 'insert'"
            " where f.tenant_id = 'faults' and f.predicate = %s order by e.id",
            (f"locker_{key}",),
        ).fetchall()
        assert [r[1] for r in rows] == [None] + [r[0] for r in rows[:-1]]
        assert [r[2] for r in rows] == ["superseded"] * (len(rows) - 1) + ["active"]


def test_the_pool_replaces_connections_the_server_closed_at_once(
    db_dsn: str, superuser: psycopg.Connection[Any]
) -> None:
    """pymem's pool (what `pymem serve` uses, pymem.pool.make_pool) with four idle connections, all of them
    terminated: the next connection it hands out works, and at once. (psycopg_pool's own check, check=
    ConnectionPool.check_connection, discards a dead connection too, but then sleeps about a second before it
    tries the next, and twice as long after each further one.)"""
    pool = make_pool(app_dsn_for(db_dsn), min_size=4, max_size=4)
    try:
        pool.wait(timeout=10)
        killed = {pid for (pid,) in superuser.execute(APP_BACKENDS).fetchall()}
        assert terminate_app_backends(superuser) == len(killed) == 4
        started = time.monotonic()
        with pool.connection() as conn:
            assert conn.execute("select 1").fetchone() == (1,)
        assert time.monotonic() - started < 0.8
        # and every connection it holds now works: none of them is one of the terminated backends
        with pool.connection() as a, pool.connection() as b, pool.connection() as c, pool.connection() as d:
            pids = {conn.execute("select pg_backend_pid()").fetchone()[0] for conn in (a, b, c, d)}  # type: ignore[index]
        assert len(pids) == 4 and not pids & killed
    finally:
        pool.close()


# 3. A database holding data at every earlier revision, upgraded to head
#
# A database deployed at revision N holds the Alembic chain up to N *and* the sql/ files of the pymem that
# was current then (every upgrade re-applies them). So the database of revision N is built from git history:
# the migrations up to N, then the sql/ files of the last commit whose head was N, applied as pymem_owner the way
# pymem.migrate did then. Data is written as pymem_app in a tenant, under that revision's triggers and policies.

REPO = Path(__file__).resolve().parent.parent


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, check=True).stdout


def full_history() -> bool:
    """A git checkout with its whole history (not an sdist, not a shallow clone)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        return False
    return git("rev-parse", "--is-shallow-repository").strip() == "false"


def chain() -> list[str]:
    """The revisions in the order they apply, from the migration files (NNNN_name.py)."""
    return sorted(p.name[:4] for p in (REPO / "migrations" / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


EARLIER = chain()[:-1]


def commit_at(revision: str) -> str:
    """The last commit whose head revision was `revision`: the parent of the commit that added the next one
    (HEAD when the next one is not committed yet)."""
    following = chain()[chain().index(revision) + 1]
    path = next((REPO / "migrations" / "versions").glob(f"{following}_*.py")).relative_to(REPO)
    added = git("log", "--diff-filter=A", "--format=%H", "--", str(path)).split()
    return git("rev-parse", f"{added[-1]}^" if added else "HEAD").strip()


def sql_files_at(commit: str) -> list[tuple[str, str]]:
    """(name, text) of the sql/ files at commit, in the order pymem applies them: functions, then policies."""
    names = git("ls-tree", "-r", "--name-only", commit, "sql/").split()
    ordered = sorted(n for n in names if n.startswith("sql/functions/") and n.endswith(".sql"))
    ordered += sorted(n for n in names if n.startswith("sql/policies/") and n.endswith(".sql"))
    return [(name, git("show", f"{commit}:{name}")) for name in ordered]


def database_at(dsn: str, revision: str) -> None:
    """Migrates the empty database at dsn to `revision` as that revision's pymem did."""
    from alembic import command
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    with engine.begin() as conn:
        cfg = migrate._config()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    # the newest commit of the revision whose sql/ files apply: a commit in the middle of a change (a grant
    # committed before the file of its function) was never deployed, so it is passed over, and said if none applies
    failures = []
    for commit in commits_at(revision):
        try:
            with psycopg.connect(dsn) as conn, conn.transaction():
                conn.execute("set local role pymem_owner")
                for name, text in sql_files_at(commit):
                    try:
                        conn.execute(text.encode())
                    except psycopg.Error as exc:
                        raise NotApplied(f"{name} at {commit[:8]}: {exc}") from exc
        except NotApplied as exc:
            failures.append(str(exc))
            continue
        return
    if revision in NEVER_DEPLOYED:
        pytest.skip(f"revision {revision} was never deployable: {NEVER_DEPLOYED[revision]} ({failures[0]})")
    raise AssertionError(f"the sql/ files of no commit of revision {revision} apply: {failures}")


# Revisions no commit of which could be deployed, so no database was ever at them (the head at the time of every
# commit of theirs failed to migrate). Only these may be passed over; any other revision must apply.
NEVER_DEPLOYED = {
    "0017": "parallel work granted pymem.token_floor before the file that creates it was committed",
    "0018": "parallel work granted pymem.token_floor before the file that creates it was committed",
}


class NotApplied(Exception):
    """A commit's sql/ file that does not apply on the database of its revision."""


def commits_at(revision: str) -> list[str]:
    """The commits whose head revision was `revision`, newest first: from commit_at(revision) back to the commit
    that added the revision (only commit_at(revision) when that cannot be told)."""
    newest = commit_at(revision)
    path = next((REPO / "migrations" / "versions").glob(f"{revision}_*.py")).relative_to(REPO)
    added = git("log", "--diff-filter=A", "--format=%H", "--", str(path)).split()
    if not added:
        return [newest]
    try:
        span = git("rev-list", "--first-parent", f"{added[-1]}^..{newest}").split()
    except subprocess.CalledProcessError:  # added by the first commit
        return [newest]
    return span or [newest]


def write_dataset(app: psycopg.Connection[Any], has_butler_settings: bool, old_quotas: bool) -> dict[str, Any]:
    """A small tenant of every kind of row, written as pymem_app through the tables (whose columns all
    revisions share): episodes of a session and a forgotten one, a fact superseded by another derived from an
    episode, a retracted fact, rules (one forgotten, one with feedback counts), links, butler settings; and a
    second tenant with a fact of the same key. Each step in its own transaction, as separate calls are."""
    ids: dict[str, Any] = {"session": uuid.uuid4()}

    def step(tenant: str, query: str, *params: Any) -> Any:
        with app.transaction():
            app.execute("select set_config('pymem.tenant_id', %s, true)", (tenant,))
            cur = app.execute(query, params)
            row = cur.fetchone() if cur.description else None
        return row[0] if row else None

    episode = "insert into pymem.episodes (butler, content, session_id) values (%s, %s, %s) returning id"
    ids["e1"] = step("acme", episode, "travel", "User said they moved to Oslo last spring", ids["session"])
    ids["e2"] = step("acme", episode, "travel", "User asked for restaurant tips in Oslo", ids["session"])
    ids["e3"] = step("acme", episode, "health", "User slept badly", None)
    step("acme", "update pymem.episodes set forgotten_at = now() where id = %s", ids["e3"])
    fact = (
        "insert into pymem.facts (subject, predicate, content, source_episode_id, permanence)"
        " values (%s, %s, %s, %s, %s) returning id"
    )
    ids["f1"] = step("acme", fact, "user", "home", "User lives in Bergen", None, "standard")
    ids["f2"] = step("acme", fact, "user", "home", "User lives in Oslo", ids["e1"], "stable")
    ids["f3"] = step("acme", fact, "user", "diet", "User is vegetarian", None, "standard")
    step("acme", "update pymem.facts set validity = 'retracted' where id = %s", ids["f3"])
    # tags at insert: pymem_app has UPDATE on the columns the memory functions change only
    ids["f4"] = step(
        "acme",
        "insert into pymem.facts (subject, predicate, content, source_episode_id, permanence, tags)"
        " values (%s, %s, %s, %s, %s, '[\"work\"]') returning id",
        "user",
        "employer",
        "User works at a shipyard",
        None,
        "permanent",
    )
    step("acme", "update pymem.facts set reference_count = 3 where id = %s", ids["f4"])
    rule = "insert into pymem.rules (content, source_episode_id) values (%s, %s) returning id"
    ids["r1"] = step("acme", rule, "Suggest vegetarian restaurants", ids["e2"])
    step(
        "acme",
        "update pymem.rules set success_count = 2, applied_count = 3, harmful_count = 1 where id = %s",
        ids["r1"],
    )
    ids["r2"] = step("acme", rule, "Book window seats", None)
    step("acme", "update pymem.rules set forgotten_at = now() where id = %s", ids["r2"])
    link = (
        "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
        " values (%s, %s, %s, %s, %s)"
    )
    step("acme", link, "fact", ids["f2"], "episode", ids["e1"], "derived_from")
    step("acme", link, "rule", ids["r1"], "fact", ids["f3"], "supports")
    ids["g1"] = step("globex", fact, "user", "home", "User lives in Lima", None, "standard")
    ids["g2"] = step("globex", episode, "travel", "User flew to Cusco", None)
    if has_butler_settings:
        quotas = (
            "quota_facts, quota_rules, quota_episodes, max_facts, max_rules, max_episodes"
            if old_quotas
            else "quota_system, quota_project, quota_history, quota_knowledge, max_system, max_project,"
            " max_history, max_knowledge"
        )
        values = "0.5, 0.3, 0.2, 20, 10, 12" if old_quotas else "0.15, 0.25, 0.2, 0.4, 10, 10, 12, 20"
        step(
            "acme",
            "insert into pymem.butler_settings (tenant_id, butler, scope, w_relevance, w_importance, w_recency,"
            f" w_confidence, episode_ttl, context_token_budget, {quotas}, source) values ('acme', 'travel',"
            f" 'travel', 0.4, 0.2, 0.2, 0.2, interval '9 days', 1500, {values}, 'butler.toml') returning butler",
        )
    return ids


MEMORY_TABLES = ["episodes", "facts", "rules", "memory_links", "memory_events", "butler_settings"]


def rows_by_key(conn: psycopg.Connection[Any]) -> dict[str, dict[tuple[Any, ...], dict[str, Any]]]:
    """{table: {primary key: the row as JSON}} of pymem's memory tables (those the database has)."""
    found: dict[str, dict[tuple[Any, ...], dict[str, Any]]] = {}
    for table in MEMORY_TABLES:
        if conn.execute("select to_regclass(%s)", (f"pymem.{table}",)).fetchone() == (None,):
            continue
        key = [
            name
            for (name,) in conn.execute(
                "select a.attname from pg_index as i join pg_attribute as a"
                " on a.attrelid = i.indrelid and a.attnum = any(i.indkey)"
                " where i.indrelid = %s::regclass and i.indisprimary order by a.attnum",
                (f"pymem.{table}",),
            )
        ]
        rows = conn.execute(
            sql.SQL("select to_jsonb(t) - 'embedding' from pymem.{} as t").format(sql.Identifier(table))
        )
        found[table] = {tuple(row[k] for k in key): row for (row,) in rows}
    return found


# columns a migration rewrites on purpose: 0011 re-defines the episodes' generated search vector
REWRITTEN = {("episodes", "search_vector")}

CATALOG = {
    **CATALOG_QUERIES,
    "columns": """
        select a.attrelid::regclass::text, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
               pg_get_expr(d.adbin, d.adrelid), a.attgenerated, a.attstorage
          from pg_attribute as a join pg_class as c on c.oid = a.attrelid
          left join pg_attrdef as d on d.adrelid = a.attrelid and d.adnum = a.attnum
         where c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
           and c.relkind in ('r', 'v', 'm') and a.attnum > 0 and not a.attisdropped
         order by 1, 2""",
    "constraints": """
        select conrelid::regclass::text, conname, pg_get_constraintdef(oid) from pg_constraint
         where connamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace) order by 1, 2, 3""",
    "indexes": """
        select schemaname, tablename, indexname, indexdef from pg_indexes
         where schemaname in ('pymem', 'pymem_private') order by 1, 2, 3""",
    "function bodies": """
        select p.oid::regprocedure::text, md5(pg_get_functiondef(p.oid)) from pg_proc as p
         where p.pronamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace) and p.prokind <> 'a'
         order by 1""",
    "relations": """
        select c.oid::regclass::text, c.relkind, c.reloptions, pg_get_userbyid(c.relowner), c.relacl
          from pg_class as c where c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
         order by 1""",
    "comments": """
        select classoid::regclass::text, pg_describe_object(classoid, objoid, objsubid), md5(description)
          from pg_description
         where (classoid = 'pg_proc'::regclass and objoid in (select oid from pg_proc
                 where pronamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)))
            or (classoid = 'pg_class'::regclass and objoid in (select oid from pg_class
                 where relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)))
            or classoid = 'pg_policy'::regclass
         order by 1, 2""",
    "extensions": "select extname, extversion from pg_extension order by 1",
}


def catalog(conn: psycopg.Connection[Any]) -> dict[str, list[tuple[str, ...]]]:
    """Everything the schema is made of (tables, columns, constraints, indexes, functions and their bodies,
    triggers, policies, grants, comments, roles, extensions), without OIDs: equal for equal schemas."""
    return {title: [tuple(str(v) for v in row) for row in conn.execute(query)] for title, query in CATALOG.items()}


# Columns a repeated `pymem migrate` may rewrite, left out of the fingerprint: none. (The shipped relevance models
# are saved again on every run; pymem_private.save_relevance_model leaves a row that would not change untouched,
# created_at included.)
RESTAMPED: dict[str, str] = {}


def fingerprint(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """The catalog, and a digest of every row of every table of pymem and pymem_private (but RESTAMPED)."""
    tables = [
        name
        for (name,) in conn.execute(
            "select c.oid::regclass::text from pg_class as c where c.relkind = 'r'"
            " and c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace) order by 1"
        )
    ]
    digest = (
        "select count(*), md5(coalesce(string_agg(r::text, '|' order by r::text), ''))"
        " from (select to_jsonb(t) - {} as r from {} as t) as rows"
    )
    data = {
        table: conn.execute(sql.SQL(digest).format(sql.Literal(RESTAMPED.get(table, "")), sql.SQL(table))).fetchone()
        for table in tables
    }
    return {"catalog": catalog(conn), "data": data}


@pytest.fixture(scope="module")
def fresh_head_catalog(pg_server: embedded.EmbeddedServer) -> dict[str, list[tuple[str, ...]]]:
    """The catalog of a database migrated from nothing to head."""
    name = "pymem_faults_fresh_head"
    with psycopg.connect(pg_server.conninfo(), autocommit=True) as admin:
        admin.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    try:
        migrate.upgrade(pg_server.conninfo(dbname=name))
        with psycopg.connect(pg_server.conninfo(dbname=name), autocommit=True) as conn:
            return catalog(conn)
    finally:
        with psycopg.connect(pg_server.conninfo(), autocommit=True) as admin:
            admin.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))


@pytest.mark.skipif(not full_history(), reason="builds the earlier revisions' databases from the git history")
@pytest.mark.parametrize("revision", EARLIER)
def test_a_database_at_an_earlier_revision_upgrades_to_head_keeping_every_row(
    revision: str,
    pg_server: embedded.EmbeddedServer,
    fresh_head_catalog: dict[str, list[tuple[str, ...]]],
    tmp_path: Path,
) -> None:
    """A database at `revision` (its migrations and its pymem's sql/ files, from git history) holding a tenant
    of every kind of row, upgraded to head: every row is still there with every column it had (but those a
    migration rewrites on purpose, REWRITTEN), the migrations' backfills are right (0002's invalidated_at,
    0011's session order, 0015's context quotas), the invariants hold (one active fact per key, the audit
    trail replays to every memory's state, no orphan link, every row has a tenant, RLS enabled and forced on
    every table), the schema is exactly a fresh install's, and the head API works on the old rows. Then
    `pymem migrate` again changes nothing: the catalog and the data are the same before and after (but the
    columns in RESTAMPED, none today)."""
    name = f"pymem_at_{revision}"
    with psycopg.connect(pg_server.conninfo(), autocommit=True) as admin:
        admin.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    dsn = pg_server.conninfo(dbname=name)
    try:
        database_at(dsn, revision)
        with psycopg.connect(dsn, autocommit=True) as su:
            has_settings = su.execute("select to_regclass('pymem.butler_settings') is not null").fetchone() == (True,)
            old_quotas = su.execute(
                "select exists (select from pg_attribute where attrelid = to_regclass('pymem.butler_settings')"
                " and attname = 'quota_facts')"
            ).fetchone() == (True,)
        with psycopg.connect(make_conninfo(dsn, user="pymem_app"), autocommit=True) as app:
            ids = write_dataset(app, has_settings, old_quotas)
        with psycopg.connect(dsn, autocommit=True) as su:
            assert migrate.current(dsn) == revision
            before = rows_by_key(su)
            assert len(before["facts"]) == 5 and len(before["episodes"]) == 4 and len(before["rules"]) == 2

        migrate.upgrade(dsn)

        with psycopg.connect(dsn, autocommit=True) as su:
            assert migrate.current(dsn) == chain()[-1]
            after = rows_by_key(su)
            for table, rows in before.items():
                assert set(after[table]) == set(rows), f"{table}: rows lost or added"
                for key, row in rows.items():
                    kept = {c: v for c, v in row.items() if c in after[table][key] and (table, c) not in REWRITTEN}
                    assert {c: after[table][key][c] for c in kept} == kept, f"{table} {key} changed"
            facts = {row["id"]: row for row in after["facts"].values()}
            assert facts[str(ids["f2"])]["supersedes_id"] == str(ids["f1"])
            assert [facts[str(ids[f])]["validity"] for f in ("f1", "f2", "f3", "f4")] == [
                "superseded",
                "active",
                "retracted",
                "active",
            ]
            episodes = {row["id"]: row for row in after["episodes"].values()}
            assert [episodes[str(ids[e])]["session_position"] for e in ("e1", "e2", "e3")] == [1, 2, None]
            assert episodes[str(ids["e2"])]["retrieval_context"] == episodes[str(ids["e1"])]["content"]
            if has_settings:
                (settings,) = after["butler_settings"].values()
                assert (settings["quota_system"], settings["max_knowledge"], settings["episode_ttl"]) == (
                    (0.15, 30, "9 days") if old_quotas else (0.15, 20, "9 days")
                )
            assert invariant_violations(su) == {}
            untenanted = su.execute(
                "select c.oid::regclass::text from pg_class as c join pg_attribute as a on a.attrelid = c.oid"
                " where c.relkind = 'r' and a.attname = 'tenant_id' and not a.attisdropped"
                " and c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)"
            ).fetchall()
            for (table,) in untenanted:
                assert su.execute(
                    sql.SQL("select count(*) from {} where coalesce(tenant_id, '') = ''").format(sql.SQL(table))
                ).fetchone() == (0,), table
            assert (
                su.execute(
                    "select c.oid::regclass::text from pg_class as c where c.relkind = 'r'"
                    " and c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)"
                    " and not (c.relrowsecurity and c.relforcerowsecurity)"
                ).fetchall()
                == []
            )
            assert catalog(su) == fresh_head_catalog
            first = fingerprint(su)

        # `pymem migrate` once more: nothing changes
        rerun = subprocess.run(
            [pymem_command(), "migrate"],
            env=base_env(PYMEM_DSN=dsn, XDG_CONFIG_HOME=str(tmp_path)),
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        assert rerun.returncode == 0, rerun.stderr
        head = chain()[-1]
        assert f"migrated: {head} -> {head}" in rerun.stdout
        with psycopg.connect(dsn, autocommit=True) as su:
            second = fingerprint(su)
            assert second["catalog"] == first["catalog"]
            assert {t: d for t, d in second["data"].items() if first["data"][t] != d} == {}

        # the head API on the old rows, as pymem_app: a new fact of the old key supersedes the old active one
        with psycopg.connect(make_conninfo(dsn, user="pymem_app"), autocommit=True) as app:
            with app.transaction():
                app.execute("select set_config('pymem.tenant_id', 'acme', true)")
                stored = call_one(
                    app,
                    "memory_store_fact",
                    subject="user",
                    predicate="home",
                    content="User lives in Rome",
                    source="user_statement",
                )
                got = call_one(app, "memory_get", type="fact", id=ids["f4"])
                seen = app.execute("select count(*) from pymem.facts").fetchone()
            assert stored["supersedes_id"] == ids["f2"] and got["reference_count"] == 4 and seen == (5,)
        with psycopg.connect(dsn, autocommit=True) as su:
            assert invariant_violations(su) == {}
    finally:
        with psycopg.connect(pg_server.conninfo(), autocommit=True) as admin:
            admin.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
