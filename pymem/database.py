"""Which database pymem uses, and the DSNs of its three kinds of login.

- migrator: creates roles, extensions and the schema (a superuser or DBA);
- app: the application's login, pymem_app (no superuser, no BYPASSRLS);
- analyst: a login bound to one tenant (pymem.memory_bind_role).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from urllib.parse import quote

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from pymem import embedded, migrate
from pymem.config import Settings
from pymem.errors import translate
from pymem.operator_client import OperatorClient

APP_ROLE = "pymem_app"


@dataclass(frozen=True)
class Database:
    migrator_dsn: str
    app_dsn: str
    embedded: embedded.EmbeddedServer | None = None

    def dsn_for(self, user: str, password: str | None = None) -> str:
        return make_conninfo(self.migrator_dsn, user=user, password=password)


def database_on_server(settings: Settings, dbname: str | None = None, *, start: bool = True) -> Database:
    """The migrator and app DSNs of database ``dbname`` on the configured server: PYMEM_DSN's server
    (the app login from PYMEM_APP_DSN, else pymem_app with PYMEM_APP_PASSWORD), else the embedded
    server, started if needed. ``dbname=None`` is the configured database itself. Nothing is created."""

    def on(dsn: str) -> str:
        return dsn if dbname is None else make_conninfo(dsn, dbname=dbname)

    if settings.dsn:
        app = settings.app_dsn or make_conninfo(settings.dsn, user=APP_ROLE, password=settings.app_password)
        return Database(migrator_dsn=on(settings.dsn), app_dsn=on(app))
    if not start:
        raise RuntimeError("PYMEM_DSN is not set and the embedded server was not to be started")
    server = embedded.start(settings.data_dir)
    name = dbname or settings.database
    return Database(
        migrator_dsn=server.conninfo(dbname=name),
        app_dsn=on(settings.app_dsn) if settings.app_dsn else server.conninfo(user=APP_ROLE, dbname=name),
        embedded=server,
    )


def resolve_database(settings: Settings | None = None, *, start: bool = True) -> Database:
    """The configured database (PYMEM_DSN), else the embedded server, started if needed."""
    settings = settings or Settings.from_env()
    db = database_on_server(settings, start=start)
    if db.embedded is not None:
        db.embedded.ensure_database(settings.database)
    return db


def open_database(settings: Settings | None = None) -> Database:
    """resolve_database, then migrate to head unless it is current (what pymem does at startup)."""
    db = resolve_database(settings)
    migrate.ensure_current(db.migrator_dsn)
    return db


def to_url(dsn: str) -> str:
    """A postgresql:// URL for a conninfo string, usable as psql "$(pymem db url)"."""
    params = {k: v for k, v in conninfo_to_dict(dsn).items() if v is not None}
    user = quote(str(params.pop("user", "")), safe="")
    password = params.pop("password", None)
    dbname = quote(str(params.pop("dbname", "")), safe="")
    host = str(params.pop("host", ""))
    port = params.pop("port", None)
    userinfo = user + (":" + quote(str(password), safe="") if password else "")
    query: dict[str, str] = {}
    if host.startswith("/"):
        query["host"] = host
        netloc = f"{userinfo}@" if userinfo else ""
        if port:
            query["port"] = str(port)
    else:
        netloc = (f"{userinfo}@" if userinfo else "") + host + (f":{port}" if port else "")
    query.update({k: str(v) for k, v in params.items()})
    qs = "&".join(f"{k}={quote(v, safe='/')}" for k, v in query.items())
    return f"postgresql://{netloc}/{dbname}" + (f"?{qs}" if qs else "")


def analyst_role_name(tenant_id: str) -> str:
    """The default analyst login for a tenant: pymem_t_<tenant>, hashed when it must be."""
    slug = re.sub(r"[^a-z0-9_]", "_", tenant_id.lower())
    if slug == tenant_id and len(slug) <= 40:
        return f"pymem_t_{slug}"
    digest = hashlib.sha256(tenant_id.encode()).hexdigest()[:8]
    return f"pymem_t_{slug[:30]}_{digest}"


def ensure_analyst(db: Database, tenant_id: str, role: str | None = None) -> str:
    """Create (if needed) a login bound to tenant_id and return its DSN. Needs the migrator. pymem.memory_bind_role
    checks the tenant id (InvalidArgumentError, PM002), in the transaction that creates the login: a login for a
    tenant it refuses is not left behind."""
    role = role or analyst_role_name(tenant_id)
    with psycopg.connect(db.migrator_dsn, autocommit=True) as conn:
        try:
            with conn.transaction():
                exists = conn.execute("select 1 from pg_roles where rolname = %s", (role,)).fetchone()
                if not exists:
                    conn.execute(sql.SQL("create role {} login").format(sql.Identifier(role)))
                OperatorClient(conn).bind_role(role_name=role, tenant_id=tenant_id)
        except psycopg.Error as exc:
            mapped = translate(exc)
            if mapped is None:
                raise
            raise mapped from exc
    return db.dsn_for(role)
