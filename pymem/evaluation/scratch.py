"""The scratch database of an evaluation run: dropped, re-created and migrated every run, on the
configured server (PYMEM_DSN, else the embedded one), never the user's own database."""

from __future__ import annotations

import sys

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from pymem import embedded, migrate
from pymem.config import Settings
from pymem.database import APP_ROLE, Database
from pymem.errors import InvalidArgumentError

DEFAULT_NAME = "pymem_eval"


def fresh_database(settings: Settings, name: str = DEFAULT_NAME) -> Database:
    """Drop database ``name`` if it exists, create it again and migrate it to head."""
    if not name or name == settings.database:
        raise InvalidArgumentError(
            f"the evaluation database must not be the configured database {settings.database!r}; it is dropped"
        )
    if settings.dsn:
        admin_dsn = settings.dsn
        app_base = settings.app_dsn or make_conninfo(settings.dsn, user=APP_ROLE, password=settings.app_password)
        db = Database(
            migrator_dsn=make_conninfo(settings.dsn, dbname=name), app_dsn=make_conninfo(app_base, dbname=name)
        )
    else:
        server = embedded.start(settings.data_dir)
        admin_dsn = server.conninfo()
        db = Database(
            migrator_dsn=server.conninfo(dbname=name),
            app_dsn=server.conninfo(user=APP_ROLE, dbname=name),
            embedded=server,
        )
    print(f"pymem eval: re-creating the scratch database {name!r}", file=sys.stderr, flush=True)
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
    migrate.upgrade(db.migrator_dsn)
    return db
