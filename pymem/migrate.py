"""Upgrade a database to head: the Alembic chain (run-once DDL), then every
idempotent file under sql/ re-applied as pymem_owner, in one advisory-locked run."""

from __future__ import annotations

import logging

import psycopg
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from pymem import resources

log = logging.getLogger(__name__)
MIGRATION_LOCK = 0x70796D656D  # "pymem"


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("script_location", str(resources.migrations_dir()))
    cfg.set_main_option("version_locations", str(resources.migrations_dir() / "versions"))
    return cfg


def head() -> str:
    heads = ScriptDirectory.from_config(_config()).get_heads()
    return ",".join(heads)


def current(dsn: str) -> str | None:
    """The revision the database is at, or None when it was never migrated."""
    engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"version_table": "alembic_version", "version_table_schema": "pymem_private"}
        )
        return context.get_current_revision()


def upgrade(dsn: str, *, vector_index: str | None = None) -> None:
    """Migrate the database at dsn (a superuser or DBA login) to head and re-apply sql/."""
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
