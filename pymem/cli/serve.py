"""`pymem serve`: start (and migrate) the database, then run the MCP server.

stdio is for one local agent: the tenant is the operator's (PYMEM_TENANT or the config
file), and the server refuses to start without one. HTTP is for shared deployments: every
request carries a bearer token (`pymem token create`) that names its tenant and scopes.
With a read replica (PYMEM_REPLICA_DSN, `replica_dsn` in the config file, or replica_dsn here: the
pymem_app DSN of a hot standby), the read tools run on it and writes on the primary (pymem.mcp_server).
Over HTTP a request body larger than PYMEM_MAX_REQUEST_BODY (2 MiB) is refused with 413 before it is parsed;
pymem.http_guard checks Host and Origin and counts sessions per token and tenant, pymem.http_timeouts cuts off
clients slow to send headers or a body, and no log line holds a token (pymem.log_redaction).
Beside the server an index worker keeps the vector indexes healthy (pymem.index_worker; PYMEM_INDEX_CHECK_INTERVAL)
and a consolidation worker turns episodes into facts and rules (pymem.consolidation_worker; PYMEM_CONSOLIDATE_INTERVAL).
Logs go to stderr; over stdio, stdout belongs to the protocol.

Nothing that can wait stands before the first answer (docs/scale.md): the database starts in a thread while the MCP
SDK is imported (start_database), the butler files are written beside the MCP handshake and the embedding model
loads after the first answer (pymem.mcp_server._prepare, _warm_up).
"""

from __future__ import annotations

import logging
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg_pool import ConnectionPool

from pymem import butlers, log_redaction
from pymem.bearer_tokens import PymemTokenVerifier, list_tokens
from pymem.config import Settings
from pymem.consolidation_worker import ConsolidationWorker
from pymem.database import Database, open_database
from pymem.embedding_worker import EmbeddingWorker
from pymem.embeddings import Embedder, EmbeddingService, embedder_from_settings, second_embedder_from_settings
from pymem.errors import InvalidArgumentError
from pymem.index_worker import IndexWorker, ScheduledWork
from pymem.maintenance import record_embedding_model, record_second_embedding_model
from pymem.pool import make_pool
from pymem.rerankers import CrossEncoder
from pymem.second_embedding_worker import SecondEmbeddingWorker
from pymem.tenancy import validate_tenant_id

if TYPE_CHECKING:
    from pymem.mcp_server import ServerOptions

log = logging.getLogger("pymem.cli.serve")


def stdio_tenant(settings: Settings, tenant: str | None) -> str:
    chosen = tenant or settings.configured_tenant
    if not chosen:
        raise InvalidArgumentError(
            "pymem serve over stdio needs a tenant: set PYMEM_TENANT (for example in the MCP client's"
            ' server configuration), put `tenant = "..."` in the config file, or pass --tenant'
        )
    return validate_tenant_id(chosen)


def start_workers(
    settings: Settings, migrator_dsn: str, embedder: Embedder | None, second: Embedder | None = None
) -> list[ScheduledWork]:
    """The workers beside the server, each in a daemon thread, a minute after start: the self-healing index worker
    (pymem.index_worker: index health every PYMEM_INDEX_CHECK_INTERVAL seconds and after PYMEM_INDEX_CHECK_WRITES
    rows written; off with 0) and the consolidation worker (pymem.consolidation_worker: every
    PYMEM_CONSOLIDATE_INTERVAL seconds and after PYMEM_CONSOLIDATE_EPISODES episodes stored; off with 0). Both
    need a migrator login that can act as pymem_owner (a superuser or DBA); without one, run `pymem worker`. With a
    model, the embedding worker (pymem.embedding_worker) embeds what was stored without an embedding as it is
    queued."""
    if settings.index_check_interval == 0 and settings.consolidate_interval == 0 and embedder is None:
        return []
    try:
        with psycopg.connect(migrator_dsn, autocommit=True) as conn:
            row = conn.execute("select pg_has_role(current_user, 'pymem_owner', 'USAGE')").fetchone()
    except psycopg.Error as exc:
        log.warning("workers off: the migrator login does not connect (%s)", exc)
        return []
    if not row or not row[0]:
        log.warning("workers off: the migrator login cannot act as pymem_owner; run `pymem worker` as one")
        return []
    workers: list[ScheduledWork] = []
    if settings.index_check_interval:
        workers.append(
            IndexWorker(
                dsn=migrator_dsn,
                interval=settings.index_check_interval,
                writes=settings.index_check_writes,
                delay=60,
            )
        )
        log.info(
            "index worker: checks a minute after start, every %d s and after %d rows written",
            settings.index_check_interval,
            settings.index_check_writes,
        )
    if settings.consolidate_interval:
        workers.append(
            ConsolidationWorker(
                dsn=migrator_dsn,
                embedder=embedder,
                interval=settings.consolidate_interval,
                episodes=settings.consolidate_episodes,
                delay=60,
            )
        )
        log.info(
            "consolidation worker: a minute after start, every %d s and after %d episodes stored",
            settings.consolidate_interval,
            settings.consolidate_episodes,
        )
    if embedder is not None:
        workers.append(EmbeddingWorker(dsn=migrator_dsn, embedder=embedder, delay=10))
        log.info("embedding worker: from 10 s after start, embeds what is stored without an embedding")
    if second is not None:
        workers.append(SecondEmbeddingWorker(dsn=migrator_dsn, embedder=second, delay=15))
        log.info("second embedding worker: from 15 s after start, every minute, embeds with %s", second.model_id)
    for worker in workers:
        worker.start()
    return workers


@dataclass(frozen=True)
class Started:
    """What start_database made: the database (at head) and its pools, connecting."""

    db: Database
    pool: ConnectionPool
    replica_pool: ConnectionPool | None


def start_database(
    settings: Settings, replica_dsn: str | None, embedder: Embedder | None, second: Embedder | None
) -> Started:
    """`pymem serve`'s start with its database, in a thread while the MCP SDK is imported (about half a second that
    waited for nothing else): the database opened (started and migrated if it must be), the pools connecting in
    their own threads (the server's lifespan waits for them), the embedding model recorded (rows of another model
    are flagged for `pymem reembed`) and the second encoder (search's second leg uses the vectors of that model
    only; none: the leg is off), then the workers started (start_workers: they wait out their delay before they
    look at anything)."""
    db = open_database(settings)
    # bounded waits for a connection: past PYMEM_POOL_TIMEOUT a call gets "busy, try again"
    pool = make_pool(db.app_dsn, open=False, max_size=settings.pool_size, timeout=settings.pool_timeout)
    # a replica that cannot answer within the timeout sends the read to the primary
    replica_pool = make_pool(replica_dsn, open=False, read_only=True, timeout=5) if replica_dsn else None
    for opening in (pool, replica_pool):
        if opening is not None:
            opening.open(wait=False)
    if embedder is not None:
        record_embedding_model(db.migrator_dsn, embedder.model_id)
        record_second_embedding_model(db.migrator_dsn, second.model_id if second is not None else None)
    start_workers(settings, db.migrator_dsn, embedder, second)
    return Started(db, pool, replica_pool)


def serve(
    settings: Settings,
    *,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    tenant: str | None = None,
    butlers_dir: Path | None = None,
    replica_dsn: str | None = None,
) -> int:
    started = time.monotonic()
    log_redaction.install()  # before anything logs: no token in any log line
    tenant_id = stdio_tenant(settings, tenant) if transport == "stdio" else None
    if transport == "http" and tenant:
        raise InvalidArgumentError("--tenant is for stdio; over HTTP each bearer token names its tenant")
    embedder = embedder_from_settings(settings)
    second = second_embedder_from_settings(settings)
    beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pymem-start")
    starting = beside.submit(start_database, settings, replica_dsn or settings.replica_dsn, embedder, second)
    beside.shutdown(wait=False)
    from pymem.mcp_server import ServerOptions, build_server  # the MCP SDK, while the database starts

    # its errors are raised here, as they were when it ran first; the server is built once it is done
    ready = starting.result()
    # butler settings are written into each tenant the server can serve: over HTTP, those with a live token
    now = datetime.now(UTC)
    token_tenants = (
        tuple(sorted({t.tenant_id for t in list_tokens(ready.db.migrator_dsn) if t.status(now) == "active"}))
        if transport == "http"
        else ()
    )
    options = ServerOptions(
        pool=ready.pool,
        # the model loads after the first answer, or when a call needs it (pymem.mcp_server._warm_up)
        embeddings=EmbeddingService(embedder, load_now=False),
        stdio_tenant=tenant_id,
        butlers_dir=butlers_dir or butlers.butlers_dir(),
        butler_tenants=token_tenants,
        http_url=f"http://{host}:{port}" if transport == "http" else None,
        replica_pool=ready.replica_pool,
        reranker=CrossEncoder(settings.reranker) if settings.reranker is not None else None,
        model_concurrency=settings.model_concurrency,
        max_result_bytes=settings.max_result_bytes,
        # over HTTP one tenant's calls hold at most its share of the pool (stdio serves one tenant)
        tenant_connections=settings.connections_per_tenant if transport == "http" else None,
        second_embeddings=EmbeddingService(second, load_now=False) if second is not None else None,
    )
    server = build_server(options)
    log.info("database and server ready in %.1f s", time.monotonic() - started)
    if ready.replica_pool is not None:
        log.info("read tools go to the read replica; writes and reference bumps to the primary")
    if options.reranker is not None:
        log.info("memory_search(rerank=True) reranks with the cross-encoder in %s", settings.reranker)
    if transport == "stdio":
        log.info("serving tenant %r over stdio", tenant_id)
        server.run("stdio")
    else:
        print(f"pymem: serving MCP over HTTP at http://{host}:{port}/mcp (bearer tokens required)", file=sys.stderr)
        serve_http(server, options, settings, host, port)
    return 0


def serve_http(server: Any, options: ServerOptions, settings: Settings, host: str, port: int) -> None:
    """The MCP SDK's streamable HTTP app behind pymem.http_guard, run by uvicorn with read timeouts
    (pymem.http_timeouts); what MCPServer.run("streamable-http") does, with those added."""
    import anyio
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from pymem.http_guard import (
        WILDCARD_BINDS,
        HttpGuard,
        SessionLedger,
        SessionLimits,
        allowed_hosts,
        allowed_origins,
    )
    from pymem.http_timeouts import timed_protocol

    app = server.streamable_http_app(
        # a larger body is answered 413 before it is parsed; no more than the cap is read (the SDK's check)
        max_request_body_size=settings.max_request_body,
        session_idle_timeout=settings.session_idle_timeout,  # the guard forgets idle sessions at the same time
        max_sessions=settings.max_sessions,
        # Host and Origin are the guard's, on every path and whatever the bind address: the SDK's own check
        # (on loopback binds only, with fixed names) would refuse the Host a proxy passes on
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        host=host,
    )
    limits = SessionLimits(
        per_token=settings.max_sessions_per_token,
        per_tenant=settings.max_sessions_per_tenant,
        idle_timeout=settings.session_idle_timeout,
    )
    hosts = allowed_hosts(host, port, settings.allowed_hosts)
    if host in WILDCARD_BINDS and not settings.allowed_hosts:
        log.warning(
            "bound to %s, but only requests for %s are answered (others: 421): set PYMEM_ALLOWED_HOSTS to the"
            " names and addresses clients use to reach this server",
            host,
            ", ".join(hosts),
        )
    guarded = HttpGuard(
        app,
        hosts=hosts,
        origins=allowed_origins(host, port, settings.allowed_origins),
        ledger=SessionLedger(limits),
        tenant_of=PymemTokenVerifier(options.pool).tenant_of,
    )
    config = uvicorn.Config(
        guarded,
        host=host,
        port=port,
        http=timed_protocol(settings.header_timeout, settings.body_timeout),
        log_level=server.settings.log_level.lower(),
    )
    anyio.run(uvicorn.Server(config).serve)
