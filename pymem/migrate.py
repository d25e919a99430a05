"""Upgrade a database to head: the Alembic chain (run-once DDL), then every
idempotent file under sql/ re-applied as pymem_owner, in one advisory-locked run.

Alembic and SQLAlchemy are imported only when a database needs upgrading: `ensure_current`
(what every command and `pymem serve` call at start) first compares the database's revision and
the fingerprint of the sql/ files it last applied with this installation's, which is one query.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from typing import TYPE_CHECKING

import psycopg

from pymem import __version__, resources
from pymem.errors import BusyError, IncompatibleDatabaseError, MigrationBlockedError, translate

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)
MIGRATION_LOCK = 0x70796D656D  # "pymem"
# upgrade() records the fingerprint of the sql/ files it applied as the comment of the version table.
FINGERPRINT_PREFIX = "pymem sql "
# upgrade() waits for each lock this long, then rolls back and tries again (an analyst's open transaction must
# not make every tenant's reads queue behind the migration's own lock request for longer)
LOCK_WAIT_MS = 2000
LOCK_ATTEMPTS = 30
_REVISION = re.compile(r"^revision(?::[^=]*)?=\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_DOWN_REVISION = re.compile(r"^down_revision(?::[^=]*)?=\s*(?:None|[\"']([^\"']*)[\"'])", re.MULTILINE)


def sql_fingerprint() -> str:
    """sha256 over the names and contents of the sql/ files, in the order they are applied."""
    digest = hashlib.sha256()
    for path in resources.sql_files():
        digest.update(f"{path.parent.name}/{path.name}\0".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _revisions_from_files() -> tuple[set[str], set[str]]:
    """(every revision, every revision some other revises) read from the migration files (no Alembic import)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((resources.migrations_dir() / "versions").glob("*.py")):
        source = path.read_text()
        found = _REVISION.search(source)
        if found is None:
            continue
        revisions.add(found.group(1))
        down = _DOWN_REVISION.search(source)
        if down is not None and down.group(1):
            parents.add(down.group(1))
    return revisions, parents


def head_from_files() -> str:
    """The head revision read from the migration files themselves (no Alembic import)."""
    revisions, parents = _revisions_from_files()
    return ",".join(sorted(revisions - parents))


def is_current(dsn: str) -> bool:
    """True when the database is at head and holds the sql/ files of this installation."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        found = conn.execute("select pg_catalog.to_regclass('pymem_private.alembic_version') is not null").fetchone()
        if not found or not found[0]:
            return False
        row = conn.execute(
            """
            select
                (select string_agg(version_num, ',' order by version_num) from pymem_private.alembic_version),
                pg_catalog.obj_description('pymem_private.alembic_version'::regclass, 'pg_class')
            """
        ).fetchone()
    if row is None:
        return False
    return bool(row[0] == head_from_files() and row[1] == FINGERPRINT_PREFIX + sql_fingerprint())


def ensure_current(dsn: str) -> None:
    """upgrade(dsn) unless the database is already current (the fast path of every start). A database
    migrated by a newer pymem (a revision these files do not know) is refused with a clear error."""
    if is_current(dsn):
        return
    at = current(dsn)
    if at is not None and at not in _revisions_from_files()[0]:
        raise IncompatibleDatabaseError(
            f"the database is at schema revision {at}, which this pymem {__version__} does not know",
            hint="it was migrated by a newer pymem: upgrade pymem, or point PYMEM_DSN / PYMEM_DATA_DIR elsewhere",
        )
    upgrade(dsn)


def _config() -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("script_location", str(resources.migrations_dir()))
    cfg.set_main_option("version_locations", str(resources.migrations_dir() / "versions"))
    return cfg


def head() -> str:
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory.from_config(_config()).get_heads()
    return ",".join(heads)


def current(dsn: str) -> str | None:
    """The revision the database is at, or None when it was never migrated."""
    from alembic.runtime.migration import MigrationContext
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"version_table": "alembic_version", "version_table_schema": "pymem_private"}
        )
        return context.get_current_revision()


def upgrade(
    dsn: str,
    *,
    vector_index: str | None = None,
    lock_wait_ms: int = LOCK_WAIT_MS,
    attempts: int = LOCK_ATTEMPTS,
) -> None:
    """Migrate the database at dsn (a superuser or DBA login) to head and re-apply sql/, in one transaction.

    Each lock is waited for lock_wait_ms at most (lock_timeout): a migration that waits behind a session holding
    a table (an analyst's open transaction) would otherwise make every tenant's reads of that table queue behind
    its own request for as long. The whole run is rolled back and tried again, up to `attempts` times, then
    fails with BusyError naming the sessions that hold pymem's tables; nothing is half-applied."""
    for attempt in range(1, attempts + 1):
        try:
            _upgrade_once(dsn, vector_index=vector_index, lock_wait_ms=lock_wait_ms)
            return
        except psycopg.errors.LockNotAvailable:
            if attempt == attempts:
                raise BusyError(
                    f"the migration did not get its locks in {attempts} tries of {lock_wait_ms} ms;"
                    f" sessions holding pymem's tables: {_holders(dsn) or 'none left'}",
                    hint="nothing was applied: run pymem migrate again once those sessions end"
                    " (pg_terminate_backend(pid) ends one)",
                ) from None
            log.info("migration waited %d ms for a lock (try %d of %d); trying again", lock_wait_ms, attempt, attempts)
            time.sleep(min(1.0, lock_wait_ms / 1000))


def _holders(dsn: str) -> str:
    """The other sessions holding a lock on a table of pymem or pymem_private: pid, role, state and age."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            """
            select a.pid, a.usename, a.state, now() - a.xact_start
            from pg_catalog.pg_stat_activity as a
            where a.pid <> pg_catalog.pg_backend_pid() and exists (
                select from pg_catalog.pg_locks as l
                join pg_catalog.pg_class as c on c.oid = l.relation
                where l.pid = a.pid and l.granted
                  and c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)
            )
            order by a.pid
            """
        ).fetchall()
    return ", ".join(f"pid {pid} ({role}, {state}, in a transaction for {age})" for pid, role, state, age in rows)


def _unwrapped(exc: BaseException) -> BaseException:
    """The psycopg error under SQLAlchemy's wrapper or our RuntimeError, if there is one."""
    inner = getattr(exc, "orig", None) or exc.__cause__
    return inner if isinstance(inner, psycopg.Error) else exc


def _upgrade_once(dsn: str, *, vector_index: str | None, lock_wait_ms: int) -> None:
    from alembic import command
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    try:
        with engine.begin() as conn:
            # one migrator at a time, per database (waited for without a bound: the other one finishes)
            conn.execute(text("select pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
            conn.execute(text("select pg_catalog.set_config('lock_timeout', :ms, true)"), {"ms": f"{lock_wait_ms}ms"})
            cfg = _config()
            cfg.attributes["connection"] = conn
            if vector_index is not None:
                cfg.attributes["vector_index"] = vector_index
            command.upgrade(cfg, "memory@head")
            raw = conn.connection.driver_connection
            assert isinstance(raw, psycopg.Connection)
            raw.execute("set local role pymem_owner")
            for path in resources.sql_files():
                log.debug("applying %s", path.name)
                try:
                    raw.execute(path.read_text().encode())
                except psycopg.errors.LockNotAvailable:
                    raise
                except psycopg.Error as exc:
                    raise RuntimeError(f"applying {path.parent.name}/{path.name} failed: {exc}") from exc
            raw.execute("reset role")
            raw.execute(
                f"comment on table pymem_private.alembic_version is '{FINGERPRINT_PREFIX}{sql_fingerprint()}'".encode()
            )
    except Exception as exc:
        inner = _unwrapped(exc)
        if isinstance(inner, psycopg.errors.LockNotAvailable) and inner is not exc:
            raise inner from None
        if isinstance(inner, psycopg.Error) and inner.sqlstate == MigrationBlockedError.sqlstate:
            raise translate(inner) or inner from None
        raise
