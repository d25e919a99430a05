"""Alembic environment for pymem.

pymem calls Alembic programmatically (``pymem.migrate.upgrade``), handing it an
open SQLAlchemy connection in ``config.attributes["connection"]``. Run from the
command line (``alembic upgrade memory@head``) it connects to the migrator DSN
that pymem would use (``PYMEM_DSN`` or the embedded server).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine, text

VERSION_SCHEMA = "pymem_private"
VERSION_TABLE = "alembic_version"


def _run(connection: Connection) -> None:
    # The version table lives in the private schema, which must exist before
    # Alembic creates it. The first revision sets the schema's owner.
    connection.execute(text(f"create schema if not exists {VERSION_SCHEMA}"))
    context.configure(
        connection=connection,
        version_table=VERSION_TABLE,
        version_table_schema=VERSION_SCHEMA,
        transaction_per_migration=False,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    from pymem.database import resolve_database  # command-line use only

    dsn = resolve_database().migrator_dsn
    engine = create_engine("postgresql+psycopg://", creator=lambda: _connect(dsn))
    with engine.begin() as conn:
        _run(conn)


def _connect(dsn: str):  # type: ignore[no-untyped-def]
    import psycopg

    return psycopg.connect(dsn)


if context.is_offline_mode():
    raise SystemExit("pymem migrations run online only (they create roles and extensions)")
run_migrations_online()
