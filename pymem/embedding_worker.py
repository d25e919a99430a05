"""The embedding worker: memories written without an embedding (an analyst's store in psql, another application's
INSERT, an import without a model) become searchable by meaning.

The queue is SQL's (sql/functions/275-embedding-queue.sql): triggers queue every live memory without an embedding
and NOTIFY ``pymem_embedding``. The worker LISTENs, so at idle a row is embedded moments after its commit; it claims
due rows of any tenant with FOR UPDATE SKIP LOCKED (``pymem_private.embedding_claim``: several workers never take
the same row), embeds them in one batch, and writes them back tenant by tenant as pymem_app
(``pymem.memory_embedding_complete``, which skips a memory whose text changed meanwhile). A batch that fails is
handed back row by row (``pymem_private.embedding_fail``: retried with backoff, kept as failed after five tries).
The worker needs the migrator login (it claims for every tenant), like ``pymem worker``.

Throughput (the bench's backlog of 2,000 texts, 2 cores): the model runs a batch's texts in groups of similar
token counts (less padding than the embedder's own ordering by characters); the write-back of a batch runs in a
thread of its own, on a connection of its own, while the next batch is embedded, so the database's work (the HNSW
index insert above all) overlaps the model's. One batch at most is written at a time and the next waits for it:
failures and counts are the same as one after the other. Vectors go to the database in pgvector's binary form, the
model's float32 values exactly, as the other writers store them.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from pymem import token_counts
from pymem.embeddings import BATCH_SIZE
from pymem.index_worker import ScheduledWork
from pymem.tenancy import tenant_transaction

log = logging.getLogger(__name__)

CHANNEL = "pymem_embedding"
BATCH = 256  # rows claimed, embedded and written back at once
GROUP = BATCH_SIZE  # texts the model runs at once (of similar token counts: a group is padded to its longest)
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


def _vector(embedding: np.ndarray) -> np.ndarray:
    """A float32 vector of its own (pgvector's dumper sends it in binary, bit for bit)."""
    return np.asarray(embedding, dtype=np.float32).ravel()


@functools.cache
def _tokenizer() -> Any | None:
    try:
        return token_counts.load_tokenizer()
    except (RuntimeError, OSError, ImportError):  # no MiniLM tokenizer here: texts are grouped by characters
        return None


def _groups(texts: Sequence[str], size: int = GROUP) -> list[list[int]]:
    """The positions of texts in groups of size, by their count of MiniLM tokens, shortest first. (The embedder
    orders by characters, which pads the bench's texts to about 14% more tokens than they have; by tokens, 3%.)"""
    tokenizer = _tokenizer()
    if tokenizer is None:
        lengths = [len(text) for text in texts]
    else:
        lengths = [len(e.ids) for e in tokenizer.encode_batch(list(texts), add_special_tokens=False)]
    order = sorted(range(len(texts)), key=lengths.__getitem__)
    return [order[start : start + size] for start in range(0, len(order), size)]


def _connect(dsn: str) -> psycopg.Connection[Any]:
    """An autocommit connection that sends numpy vectors as public.vector (binary with %b)."""
    conn = psycopg.connect(dsn, autocommit=True)
    try:
        register_vector(conn)
    except BaseException:
        conn.close()
        raise
    return conn


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

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        """One vector per text, in order: the embedder runs groups of texts of similar token counts (a text's
        vector does not depend on the others of its group)."""
        vectors: list[np.ndarray] = [np.empty(0, dtype=np.float32)] * len(texts)
        for group in _groups(texts):
            for i, vector in zip(group, self.embedder.embed_many([texts[i] for i in group]), strict=True):
                vectors[i] = vector
        return vectors

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
                    " %b::public.vector[], %s::text)",
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

    def write_back(self, conn: psycopg.Connection[Any], rows: Sequence[Claimed], vectors: Sequence[np.ndarray]) -> int:
        """complete(), or the batch handed back with fail() when it cannot be written; how many were written. A lost
        connection is raised."""
        try:
            return self.complete(conn, rows, vectors)
        except (psycopg.Error, ValueError, RuntimeError, OSError) as exc:
            if isinstance(exc, psycopg.OperationalError):
                raise
            self.fail(conn, rows, f"{type(exc).__name__}: {exc}")
            return 0

    def work(self, reason: str) -> int:
        """Embed what is due, batch after batch, until the queue holds nothing due; how many were written. Batch
        N is written back (on a second connection, in a thread) while batch N+1 is claimed and embedded."""
        total = 0
        pending: Future[int] | None = None
        with (
            psycopg.connect(self.dsn, autocommit=True) as conn,
            _connect(self.dsn) as writer,
            ThreadPoolExecutor(max_workers=1, thread_name_prefix="pymem-embedding-write") as pool,
        ):
            while True:
                rows = self.claim(conn)
                if not rows:
                    break
                try:
                    vectors: list[np.ndarray] | None = self.embed([r.content for r in rows])
                    error = ""
                except (ValueError, RuntimeError, OSError) as exc:
                    vectors, error = None, f"{type(exc).__name__}: {exc}"
                if pending is not None:  # one batch written at a time, in order; its errors are raised here
                    total += pending.result()
                    pending = None
                if vectors is None:
                    self.fail(conn, rows, error)
                else:
                    pending = pool.submit(self.write_back, writer, rows, vectors)
                if len(rows) < self.batch:
                    break
            if pending is not None:
                total += pending.result()
            # (on an error, leaving the pool waits for a batch still being written before its connection closes)
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
