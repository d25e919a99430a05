"""Scratch databases for `pymem bench` and `pymem eval`: a database of their own on the configured
server (PYMEM_DSN's, else the embedded one), dropped, re-created and migrated to head on every run.
The user's own database (PYMEM_DSN's, or PYMEM_DATABASE on the embedded server) is refused, since a
scratch database is dropped."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from pymem import migrate
from pymem.config import Settings
from pymem.database import Database, database_on_server
from pymem.errors import InvalidArgumentError


@dataclass(frozen=True)
class ScratchDatabase:
    """A scratch database: its name, a DSN to drop and create it from, and its migrator and app DSNs."""

    name: str
    admin_dsn: str
    database: Database

    @property
    def migrator_dsn(self) -> str:
        return self.database.migrator_dsn

    @property
    def app_dsn(self) -> str:
        return self.database.app_dsn


def scratch_database(settings: Settings, name: str) -> ScratchDatabase:
    """The scratch database ``name`` on the configured server (nothing is created yet); the user's
    own database is refused with InvalidArgumentError."""
    own = conninfo_to_dict(settings.dsn).get("dbname") if settings.dsn else settings.database
    if not name or name in (settings.database, own):
        raise InvalidArgumentError(
            f"{name!r} is the configured database: a scratch database is dropped and re-created, pick a name of its own"
        )
    db = database_on_server(settings, name)
    admin_dsn = settings.dsn or (db.embedded.conninfo() if db.embedded else db.migrator_dsn)
    return ScratchDatabase(name=name, admin_dsn=admin_dsn, database=db)


def recreate(scratch: ScratchDatabase) -> None:
    """Drop the scratch database if it exists, create it again and migrate it to head."""
    drop(scratch)
    with psycopg.connect(scratch.admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(scratch.name)))
    migrate.upgrade(scratch.migrator_dsn)


def drop(scratch: ScratchDatabase) -> None:
    with psycopg.connect(scratch.admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(scratch.name)))
