"""The second encoder's worker: every live memory gets a vector of the second encoder (PYMEM_SECOND_ENCODER,
all-mpnet-base-v2) in ``pymem.second_embeddings``, the third retrieval leg of search.

SQL says what is due (``pymem_private.second_embedding_due``: live memories of any tenant without a vector of the
model; a memory that is deleted or whose text changes loses its vector in a trigger) and stores what comes back
(``pymem.memory_second_embedding_store``, tenant by tenant as pymem_app, which keeps a vector only when the memory
still has the text embedded). Until its vector is stored a memory is found by the other legs. The worker works at
start, then every ``interval`` seconds (60 by default): the second encoder costs about 14 times MiniLM per text, so
it runs in the background rather than inside a store. It needs the migrator login (it reads every tenant).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from pymem.embedding_worker import Embeds
from pymem.index_worker import ScheduledWork
from pymem.tenancy import tenant_transaction

log = logging.getLogger(__name__)

BATCH = 64  # memories embedded and stored at once
INTERVAL = 60.0  # seconds between looks at what is due


@dataclass
class Due:
    tenant_id: str
    memory_type: str
    memory_id: Any
    content: str
    content_md5: str


@dataclass(kw_only=True)
class SecondEmbeddingWorker(ScheduledWork):
    """Embeds what is due with the second encoder (see the module docstring). dsn: the migrator login."""

    dsn: str
    embedder: Embeds
    interval: float = INTERVAL
    batch: int = BATCH
    name: str = "second embedding worker"
    embedded: int = 0

    def due(self) -> str | None:
        return "schedule" if self.since_last() >= self.interval else None

    def claim(self, conn: psycopg.Connection[Any]) -> list[Due]:
        rows = conn.execute(
            "select tenant_id, memory_type, memory_id, content, content_md5"
            " from pymem_private.second_embedding_due(%s, %s)",
            (self.batch, self.embedder.model_id),
        ).fetchall()
        return [Due(*row) for row in rows]

    def store(self, conn: psycopg.Connection[Any], rows: Sequence[Due], vectors: Sequence[np.ndarray]) -> int:
        """Store tenant by tenant, each in a transaction of its tenant as pymem_app."""
        by_tenant: dict[str, list[tuple[Due, np.ndarray]]] = defaultdict(list)
        for row, vector in zip(rows, vectors, strict=True):
            by_tenant[row.tenant_id].append((row, np.asarray(vector, dtype=np.float32).ravel()))
        stored = 0
        for tenant, pairs in by_tenant.items():
            with tenant_transaction(conn, tenant, actor=self.name):
                conn.execute("set local role pymem_app")
                got = conn.execute(
                    "select pymem.memory_second_embedding_store(%s::text[], %s::uuid[], %s::text[],"
                    " %b::public.vector[], %s::text)",
                    (
                        [r.memory_type for r, _ in pairs],
                        [r.memory_id for r, _ in pairs],
                        [r.content_md5 for r, _ in pairs],
                        [v for _, v in pairs],
                        self.embedder.model_id,
                    ),
                ).fetchone()
                stored += int(got[0]) if got else 0
        return stored

    def work(self, reason: str) -> int:
        """Embed and store what is due, batch after batch, until nothing is; how many were stored. A batch whose
        memories all changed meanwhile ends the run (they are due again at the next)."""
        total = 0
        try:
            with psycopg.connect(self.dsn, autocommit=True) as conn:
                register_vector(conn)
                while True:
                    rows = self.claim(conn)
                    if not rows:
                        break
                    stored = self.store(conn, rows, self.embedder.embed_many([r.content for r in rows]))
                    total += stored
                    if stored == 0 or len(rows) < self.batch:
                        break
        finally:
            self._last_check = self.clock()
            self.embedded += total
        if total:
            log.info("%s: %d memories embedded with %s", self.name, total, self.embedder.model_id)
        return total
