"""What the dashboard reads, one SQL function per method (the style of pymem.client), in a read-only transaction of
the signed-in token's tenant:

    with pool.connection() as conn, reading(conn, "acme") as db:
        page = db.browse(type="fact", tag="diet")

Every page runs as pymem_app with the tenant set transaction-locally (pymem.tenancy.tenant_transaction), so RLS
bounds it to that tenant; the transaction is READ ONLY, so no read bumps a reference count and nothing is written.
The functions are those of sql/functions/280-dashboard.sql beside memory_stats, memory_recall, memory_get,
memory_review_queue, memory_embedding_backlog and memory_embedding_status. Nothing here ranks or filters.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from uuid import UUID

import numpy as np
import psycopg

from pymem.client import MemoryClient, Row
from pymem.operator_client import EmbeddingStatus
from pymem.tenancy import tenant_transaction


class BrowsedMemory(Row):
    """A row of pymem.memory_browse."""

    memory_type: str
    memory_id: UUID
    short_id: str
    content: str
    memory_state: str
    memory_scope: str | None
    source_butler: str | None
    tags: list[str]
    importance: float | None
    confidence: float | None
    effective_confidence: float | None
    subject: str | None
    predicate: str | None
    maturity: str | None
    created_at: datetime
    total: int


class ExplainedRecall(Row):
    """A row of pymem.memory_recall with every component of its score and the rank of each search leg."""

    memory_type: str
    memory_id: UUID
    content: str
    score: float
    relevance: float
    importance: float
    recency: float
    effective_confidence: float
    confidence: float
    subject: str | None
    predicate: str | None
    validity: str | None
    maturity: str | None
    memory_scope: str
    semantic_rank: int | None
    keyword_rank: int | None
    graph_rank: int | None
    search_mode: str
    created_at: datetime
    source_butler: str | None


class ChainLink(Row):
    """A row of pymem.memory_fact_history: one fact of a supersession chain."""

    step: int
    memory_id: UUID
    short_id: str
    subject: str
    predicate: str
    content: str
    validity: str
    confidence: float
    effective_confidence: float
    supersedes_id: UUID | None
    created_at: datetime
    last_confirmed_at: datetime
    invalidated_at: datetime | None
    requested: bool


class CurvePoint(Row):
    """A row of pymem.memory_confidence_curve."""

    at: datetime
    day: float
    effective_confidence: float
    recallable: bool
    future: bool


class RuleFeedback(Row):
    """A row of pymem.memory_rules_by_maturity."""

    memory_id: UUID
    short_id: str
    content: str
    maturity: str
    memory_state: str
    memory_scope: str
    source: str | None
    confidence: float
    effective_confidence: float
    effectiveness_score: float | None
    applied_count: int
    helpful: int
    harmful: int
    last_applied_at: datetime | None
    created_at: datetime


class AuditEvent(Row):
    """A row of pymem.memory_audit_trail."""

    event_id: int
    occurred_at: datetime
    operation: str
    from_state: str | None
    to_state: str | None
    actor: str | None
    db_role: str | None
    session_role: str | None
    details: dict[str, Any]


class EmbeddingBacklog(Row):
    """The row of pymem.memory_embedding_backlog."""

    waiting: int
    due: int
    retrying: int
    oldest: datetime | None
    failed: int
    last_error: str | None


class DashboardClient(MemoryClient):
    """The memory API (pymem.client.MemoryClient) and the dashboard's own reads, on one connection."""

    def browse(
        self,
        *,
        type: str | None = None,
        scope: str | None = None,
        butler: str | None = None,
        tag: str | None = None,
        state: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> list[BrowsedMemory]:
        """pymem.memory_browse: a page of memories, newest first, filtered."""
        return self._rows(
            BrowsedMemory,
            "memory_browse",
            type=("text", type),
            scope=("text", scope),
            butler=("text", butler),
            tag=("text", tag),
            state=("text", state),
            limit=("integer", limit),
            offset=("integer", offset),
        )

    def recall_explained(
        self, *, topic: str, scope: str | None = None, limit: int | None = None, query_embedding: np.ndarray | None
    ) -> list[ExplainedRecall]:
        """pymem.memory_recall as an agent calls it (the butler's weights, the default floor), without bumps."""
        return self._rows(
            ExplainedRecall,
            "memory_recall",
            topic=("text", topic),
            scope=("text", scope),
            limit=("integer", limit),
            query_embedding=("public.vector", query_embedding),
            bump_references=("boolean", False),
        )

    def fact_history(self, *, id: UUID) -> list[ChainLink]:
        """pymem.memory_fact_history: the fact's supersession chain, oldest first."""
        return self._rows(ChainLink, "memory_fact_history", id=("uuid", id))

    def confidence_curve(self, *, type: str, id: UUID, days: float | None = None) -> list[CurvePoint]:
        """pymem.memory_confidence_curve: effective confidence from the last confirmation to `days` from now."""
        return self._rows(
            CurvePoint, "memory_confidence_curve", type=("text", type), id=("uuid", id), days=("double precision", days)
        )

    def rules_by_maturity(self, *, include_forgotten: bool | None = None) -> list[RuleFeedback]:
        """pymem.memory_rules_by_maturity: rules with their helpful and harmful feedback."""
        return self._rows(RuleFeedback, "memory_rules_by_maturity", include_forgotten=("boolean", include_forgotten))

    def audit_trail(self, *, type: str, id: UUID) -> list[AuditEvent]:
        """pymem.memory_audit_trail: the memory's events, oldest first."""
        return self._rows(AuditEvent, "memory_audit_trail", type=("text", type), id=("uuid", id))

    def embedding_backlog(self) -> EmbeddingBacklog:
        """pymem.memory_embedding_backlog: what waits for the embedding worker."""
        return self._one(EmbeddingBacklog, "memory_embedding_backlog")

    def embedding_status(self) -> list[EmbeddingStatus]:
        """pymem.memory_embedding_status: the tenant's memories by embedding model (flagged: to re-embed)."""
        return self._rows(EmbeddingStatus, "memory_embedding_status")


@contextmanager
def reading(conn: psycopg.Connection[Any], tenant: str, *, actor: str | None = None) -> Iterator[DashboardClient]:
    """One READ ONLY transaction of conn bound to tenant: what every dashboard page reads in."""
    with tenant_transaction(conn, tenant, actor=actor):
        conn.execute("set transaction read only")
        yield DashboardClient(conn)
