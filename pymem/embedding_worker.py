"""The embedding worker: memories written without an embedding (an analyst's store in psql, another application's
INSERT, an import without a model) become searchable by meaning.

The queue is SQL's (sql/functions/275-embedding-queue.sql): triggers queue every live memory without an embedding
and NOTIFY ``pymem_embedding``. The worker LISTENs, so at idle a row is embedded moments after its commit; it claims
due rows of any tenant with FOR UPDATE SKIP LOCKED (``pymem_private.embedding_claim``: several workers never take
the same row), embeds them in one batch, and writes them back tenant by tenant as pymem_app
(``pymem.memory_embedding_complete``, which skips a memory whose text changed meanwhile). A batch that fails is
handed back row by row (``pymem_private.embedding_fail``: retried with backoff, kept as failed after five tries).
The worker needs the migrator login (it claims for every tenant), like ``pymem worker``.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import psycopg
from psycopg import sql

from pymem.index_worker import ScheduledWork
from pymem.tenancy import tenant_transaction

log = logging.getLogger(__name__)

CHANNEL = "pymem_embedding"
BATCH = 64  # rows claimed and embedded at once
IDLE_WAIT = 5.0  # seconds a worker waits for a notification before it looks at the queue anyway (retries fall due)
LEASE = "5 minutes"  # how long a claim holds its rows (a worker that dies gives them back then)


class Embeds(Protocol):
    model_id: str

    def embed_many(self, texts: list[str]) -> list[np.ndarray]: ...


@dataclass
class Claimed:
    tenant_id: str
    memory_type: str
    memory_id: Any
    content: str
    content_md5: str
    attempts: int


def _vector(embedding: np.ndarray) -> str:
    return "[" + ",".join(f"{float(v):.8g}" for v in np.asarray(embedding).ravel()) + "]"


@dataclass(kw_only=True)
class EmbeddingWorker(ScheduledWork):
    """Embeds the queue's rows as they come (see the module docstring). dsn: the migrator login."""

    dsn: str
    embedder: Embeds
    interval: float = IDLE_WAIT
    batch: int = BATCH
    name: str = "embedding worker"
    embedded: int = 0
    failed: int = 0

    def due(self) -> str | None:
        return "queue"

    def claim(self, conn: psycopg.Connection[Any]) -> list[Claimed]:
        rows = conn.execute(
            "select tenant_id, memory_type, memory_id, content, content_md5, attempts"
            " from pymem_private.embedding_claim(%s, %s::interval)",
            (self.batch, LEASE),
        ).fetchall()
        return [Claimed(*row) for row in rows]

    def complete(self, conn: psycopg.Connection[Any], rows: Sequence[Claimed], vectors: Sequence[np.ndarray]) -> int:
        """Write back tenant by tenant, each in a transaction of its tenant as pymem_app."""
        by_tenant: dict[str, list[tuple[Claimed, np.ndarray]]] = defaultdict(list)
        for row, vector in zip(rows, vectors, strict=True):
            by_tenant[row.tenant_id].append((row, vector))
        written = 0
        for tenant, pairs in by_tenant.items():
            with tenant_transaction(conn, tenant, actor="embedding worker"):
                conn.execute("set local role pymem_app")
                got = conn.execute(
                    "select pymem.memory_embedding_complete(%s::text[], %s::uuid[], %s::text[],"
                    " %s::text[]::public.vector[], %s::text)",
                    (
                        [r.memory_type for r, _ in pairs],
                        [r.memory_id for r, _ in pairs],
                        [r.content_md5 for r, _ in pairs],
                        [_vector(v) for _, v in pairs],
                        self.embedder.model_id,
                    ),
                ).fetchone()
                written += int(got[0]) if got else 0
        return written

    def fail(self, conn: psycopg.Connection[Any], rows: Sequence[Claimed], error: str) -> None:
        for row in rows:
            outcome = conn.execute(
                "select pymem_private.embedding_fail(%s, %s, %s, %s)",
                (row.tenant_id, row.memory_type, row.memory_id, error),
            ).fetchone()
            if outcome and outcome[0] == "failed":
                self.failed += 1
                log.warning(
                    "embedding worker: gave up on %s %s of tenant %r: %s",
                    row.memory_type,
                    row.memory_id,
                    row.tenant_id,
                    error,
                )

    def work(self, reason: str) -> int:
        """Embed what is due, batch after batch, until the queue holds nothing due; how many were written."""
        total = 0
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while True:
                rows = self.claim(conn)
                if not rows:
                    break
                try:
                    vectors = self.embedder.embed_many([r.content for r in rows])
                    total += self.complete(conn, rows, vectors)
                except (psycopg.Error, ValueError, RuntimeError, OSError) as exc:
                    if isinstance(exc, psycopg.OperationalError):
                        raise
                    self.fail(conn, rows, f"{type(exc).__name__}: {exc}")
                if len(rows) < self.batch:
                    break
        self.embedded += total
        if total:
            log.info("embedding worker: %d memories embedded", total)
        return total

    def run(self, stop: threading.Event) -> None:
        """Work at once, then whenever pymem_embedding is notified, and every `interval` seconds anyway (retries
        fall due), until stop is set, after `delay` seconds. A database that is down is retried."""
        if self.delay and stop.wait(self.delay):
            return
        while not stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as listener:
                    listener.execute(sql.SQL("listen {}").format(sql.Identifier(CHANNEL)))
                    while not stop.is_set():
                        self.work("queue")
                        # wake on the first notification, or after interval; drain what else came meanwhile
                        for _ in listener.notifies(timeout=self.interval, stop_after=1):
                            pass
            except psycopg.Error as exc:
                log.warning("embedding worker: %s; retrying in %.0f s", exc, self.interval)
                stop.wait(self.interval)
