"""The reference bumps of reads served by a read replica, forwarded to the primary.

A hot standby cannot write, so memory_search, memory_recall and memory_get skip their reference bumps there (in any
read-only transaction). The MCP server (pymem.mcp_server) runs those reads on the replica when it has one
(PYMEM_REPLICA_DSN) and hands the memories they returned to a ReferenceForwarder, which applies them on the primary
with pymem.memory_touch_references, one tenant transaction per read; while the primary cannot be reached they wait
in a bounded queue. SQL decides what a bump is; this module only carries them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg_pool import ConnectionPool

from pymem.client import MemoryClient
from pymem.tenancy import tenant_transaction

log = logging.getLogger(__name__)


Reference = tuple[str, UUID]  # (memory_type, memory_id) of a memory a read returned


@dataclass(frozen=True)
class ReplicaBumps:
    """The reference bumps of one read served by the replica: its tenant, caller, memories and moment."""

    tenant_id: str
    actor: str
    references: tuple[Reference, ...]
    at: datetime


@dataclass
class ReferenceForwarder:
    """Applies the reference bumps of replica reads on the primary (pymem.memory_touch_references), one
    tenant transaction per read, right after the read. When the primary cannot be reached they wait in a
    bounded queue and go with the next replica read (no sooner than retry_after seconds after a failure);
    past max_pending references the oldest are dropped, and every drop is counted in a warning."""

    pool: ConnectionPool  # the primary's
    max_pending: int = 10_000
    retry_after: float = 5.0
    timeout: float = 2.0  # how long a forward may wait for a primary connection
    dropped: int = 0
    _queue: deque[ReplicaBumps] = field(default_factory=deque)
    _queued: int = 0
    _retry_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def pending(self) -> int:
        """References waiting for the primary."""
        return self._queued

    def forward(self, bumps: ReplicaBumps | None = None, *, force: bool = False) -> None:
        """Queue bumps (if any) and apply what is queued, unless a recent failure says to wait (force: try)."""
        with self._lock:
            if bumps is not None and bumps.references:
                self._queue.append(bumps)
                self._queued += len(bumps.references)
                self._drop_oldest()
            if not self._queue or (not force and time.monotonic() < self._retry_at):
                return
            batch = list(self._queue)
            self._queue.clear()
            self._queued = 0
        for done, item in enumerate(batch):
            try:
                with (
                    self.pool.connection(timeout=self.timeout) as conn,
                    tenant_transaction(conn, item.tenant_id, actor=item.actor),
                ):
                    types, ids = zip(*item.references, strict=True)
                    MemoryClient(conn).touch_references(memory_types=types, memory_ids=ids, referenced_at=item.at)
            except psycopg.OperationalError as exc:  # the primary is unreachable (or a PoolTimeout): keep them
                self._requeue(batch[done:], exc)
                return
            except psycopg.Error:
                log.exception(
                    "%d reference bump(s) of a replica read were refused by the primary and are lost",
                    len(item.references),
                )

    def _requeue(self, items: list[ReplicaBumps], exc: Exception) -> None:
        with self._lock:
            self._queue.extendleft(reversed(items))
            self._queued += sum(len(item.references) for item in items)
            self._drop_oldest()
            self._retry_at = time.monotonic() + self.retry_after
            pending = self._queued
        log.warning("the primary is unreachable (%s): %d reference bump(s) of replica reads wait for it", exc, pending)

    def _drop_oldest(self) -> None:
        while self._queued > self.max_pending:
            lost = self._queue.popleft()
            self._queued -= len(lost.references)
            self.dropped += len(lost.references)
            log.warning(
                "the reference bump queue is full (%d): %d bump(s) of a replica read dropped, %d in all",
                self.max_pending,
                len(lost.references),
                self.dropped,
            )

    def last_forward(self) -> None:
        """At shutdown: one last try to forward the queued bumps; what remains is lost, and counted."""
        self.forward(force=True)
        if self.pending:
            log.warning("%d reference bump(s) of replica reads never reached the primary and are lost", self.pending)


@dataclass(frozen=True)
class ReadReplica:
    """The read replica's pool (READ ONLY transactions) and the forwarder of its reads' reference bumps."""

    pool: ConnectionPool
    bumps: ReferenceForwarder
