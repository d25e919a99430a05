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
from typing import TYPE_CHECKING

import psycopg

from pymem import __version__, resources
from pymem.errors import IncompatibleDatabaseError

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger(__name__)
MIGRATION_LOCK = 0x70796D656D  # "pymem"
# upgrade() records the fingerprint of the sql/ files it applied as the comment of the version table.
FINGERPRINT_PREFIX = "pymem sql "
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


def upgrade(dsn: str, *, vector_index: str | None = None) -> None:
    """Migrate the database at dsn (a superuser or DBA login) to head and re-apply sql/."""
    from alembic import command
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    with engine.begin() as conn:
        # one migrator at a time, per database
        conn.execute(text("select pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
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
            except psycopg.Error as exc:
                raise RuntimeError(f"applying {path.parent.name}/{path.name} failed: {exc}") from exc
        raw.execute("reset role")
        raw.execute(
            f"comment on table pymem_private.alembic_version is '{FINGERPRINT_PREFIX}{sql_fingerprint()}'".encode()
        )
