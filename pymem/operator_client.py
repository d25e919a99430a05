"""The typed client of the operators' SQL functions: vector index health and rebuilds, embedding versions and
re-embedding, the janitor, erasure. Same style as pymem.client.MemoryClient (one method, one SQL function, named
arguments with explicit casts, None not sent so the SQL default applies, typed rows) on the same core.

    with psycopg.connect(migrator_dsn, autocommit=True) as conn, conn.transaction():
        rows = OperatorClient(conn).index_health(sample=20)

The caller owns the connection, the role and the transaction: the cross-tenant readers (index_health,
index_rebuild_plan, embedding_status, reembed_plan, janitor_plan) need the migrator or an elevated pymem_admin;
the work on memories (reembed_candidates, set_embedding, janitor_expire, janitor_dedup) runs as pymem_app bound
to one tenant (pymem.maintenance does both); so does erasure (memory_erase in a tenant, memory_erase_tenant and the
VACUUM after either as the migrator: pymem.erasure). Nothing here decides what is rebuilt, re-embedded, merged or
erased. Three statements are not function calls, as no function can run them: VACUUM, and the session's
lock_timeout and the transaction's actor (set_config).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from pymem.client import Row, SqlClient, nullable


class IndexHealth(Row):
    """A row of pymem.memory_index_health: one measurement of an index under one filter."""

    index_name: str
    table_name: str
    index_method: str
    index_options: list[str] | None
    filter_kind: str
    filter_value: str | None
    sample_size: int
    recall: float
    baseline_recall: float
    drift: float
    healthy: bool
    measured_at: datetime


class RebuildStep(Row):
    """A row of pymem.memory_index_rebuild_plan: an index to rebuild, why, and the statements that do it."""

    index_name: str
    table_name: str
    index_method: str
    options_before: list[str] | None
    reset_options: list[str]
    filter_kind: str
    filter_value: str | None
    k: int
    recall_before: float
    drift: float
    healthy: bool
    measured_at: datetime
    reason: str
    statements: list[str]


class RebuildStatement(Row):
    """A row of pymem.memory_index_rebuild_statements."""

    step: int
    statement: str


class RecordedRebuild(Row):
    """The row of pymem.memory_record_index_rebuild: the options and recall the index has now."""

    rebuild_id: int
    options_after: list[str] | None
    recall_after: float | None


class EmbeddingModelChange(Row):
    """The row of pymem.memory_record_embedding_model (and of memory_record_second_embedding_model, whose model may
    be none)."""

    previous_model_id: str | None
    current_model_id: str | None
    changed: bool


class EmbeddingStatus(Row):
    """A row of pymem.memory_embedding_status: memories of a tenant and type by embedding model."""

    tenant_id: str
    memory_type: str
    embedding_model: str | None
    memories: int
    flagged: bool


class ReembedPlanRow(Row):
    """A row of pymem.memory_reembed_plan: a tenant with memories to re-embed."""

    tenant_id: str
    memories: int


class ConsolidationPlanRow(Row):
    """A row of pymem.memory_consolidation_plan: a tenant's consolidation backlog."""

    tenant_id: str
    episodes: int
    oldest: datetime


class ReembedCandidate(Row):
    """A row of pymem.memory_reembed_candidates: a memory of the bound tenant to embed again."""

    memory_type: str
    memory_id: UUID
    content: str


class JanitorPlanRow(Row):
    """A row of pymem.memory_janitor_plan: a tenant's work for the janitor."""

    tenant_id: str
    expired_episodes: int
    facts: int
    rules: int


class DedupBatch(Row):
    """The row of pymem.memory_janitor_dedup: one batch of near-duplicate merging."""

    last_id: UUID | None
    checked: int
    merged: int
    done: bool


class ErasedMemory(Row):
    """A row of pymem.memory_erase: a memory erased, or (erased false) kept but rebuilt without the erased text."""

    memory_type: str
    memory_id: UUID
    erased: bool


class ErasedTable(Row):
    """A row of pymem.memory_erase_tenant: a table the tenant's rows were deleted from, and how many."""

    table_name: str
    rows_deleted: int


class LockHolder(Row):
    """A row of pymem.memory_lock_holders: another session holding a lock on a table."""

    pid: int
    role_name: str | None
    state: str | None
    in_transaction: timedelta | None


class OperatorClient(SqlClient):
    """The operators' SQL functions on one connection; see the module docstring."""

    # Vector indexes ---------------------------------------------------------------------------------

    def index_health(
        self,
        *,
        sample: int | None = None,
        k: int | None = None,
        min_recall: float | None = None,
        max_drift: float | None = None,
        tenant: str | None = None,
        tag: str | None = None,
        noise: float | None = None,
        save: bool | None = None,
        action: str | None = None,
    ) -> list[IndexHealth]:
        """pymem.memory_index_health: recall@k of every vector index against exact search, per filter."""
        return self._rows(
            IndexHealth,
            "memory_index_health",
            sample=("integer", sample),
            k=("integer", k),
            min_recall=("double precision", min_recall),
            max_drift=("double precision", max_drift),
            tenant=("text", tenant),
            tag=("text", tag),
            noise=("double precision", noise),
            save=("boolean", save),
            action=("text", action),
        )

    def index_rebuild_plan(
        self, *, min_recall: float | None = None, max_drift: float | None = None, force: bool | None = None
    ) -> list[RebuildStep]:
        """pymem.memory_index_rebuild_plan: the indexes to rebuild (below threshold, drifted, or all with force)."""
        return self._rows(
            RebuildStep,
            "memory_index_rebuild_plan",
            min_recall=("double precision", min_recall),
            max_drift=("double precision", max_drift),
            force=("boolean", force),
        )

    def index_rebuild_statements(self, *, index_name: str) -> list[RebuildStatement]:
        """pymem.memory_index_rebuild_statements: the DDL that rebuilds one index, in order."""
        return self._rows(RebuildStatement, "memory_index_rebuild_statements", index_name=("text", index_name))

    def record_index_rebuild(
        self,
        *,
        index_name: str,
        started_at: datetime,
        reason: str,
        options_before: Sequence[str] | None,
        recall_before: float | None,
    ) -> RecordedRebuild:
        """pymem.memory_record_index_rebuild: log a rebuild that ran, with the options and recall it left."""
        return self._one(
            RecordedRebuild,
            "memory_record_index_rebuild",
            index_name=("text", index_name),
            started_at=("timestamptz", started_at),
            reason=("text", reason),
            options_before=("text[]", nullable(list(options_before) if options_before is not None else None)),
            recall_before=("double precision", nullable(recall_before)),
        )

    # Embedding versions -----------------------------------------------------------------------------

    def record_embedding_model(self, *, model_id: str) -> EmbeddingModelChange:
        """pymem.memory_record_embedding_model: the model that embeds new text from now on."""
        return self._one(EmbeddingModelChange, "memory_record_embedding_model", model_id=("text", model_id))

    def record_second_embedding_model(self, *, model_id: str | None) -> EmbeddingModelChange:
        """pymem.memory_record_second_embedding_model: the second encoder search uses from now on (None: none)."""
        return self._one(
            EmbeddingModelChange, "memory_record_second_embedding_model", model_id=("text", nullable(model_id))
        )

    def embedding_status(self) -> list[EmbeddingStatus]:
        """pymem.memory_embedding_status: memories per tenant, type and model; flagged = to re-embed."""
        return self._rows(EmbeddingStatus, "memory_embedding_status")

    def reembed_plan(
        self, *, model_id: str, batch: int | None = None, tenants: Sequence[str] | None = None
    ) -> list[ReembedPlanRow]:
        """pymem.memory_reembed_plan: the tenants with memories of another model (or none), and how many."""
        return self._rows(
            ReembedPlanRow,
            "memory_reembed_plan",
            model_id=("text", model_id),
            batch=("integer", batch),
            tenants=("text[]", list(tenants) if tenants is not None else None),
        )

    def reembed_candidates(self, *, limit: int | None = None) -> list[ReembedCandidate]:
        """pymem.memory_reembed_candidates: the next flagged memories of the bound tenant."""
        return self._rows(ReembedCandidate, "memory_reembed_candidates", limit=("integer", limit))

    def embedding_model(self) -> str | None:
        """pymem.memory_embedding_model: the embedding model recorded for the database (None before any)."""
        model = self._scalar("memory_embedding_model")
        return None if model is None else str(model)

    def embedding_text(self, *, type: str, id: UUID) -> str:
        """pymem.memory_embedding_text: the text a memory of the bound tenant is embedded from, as stored now."""
        return str(self._scalar("memory_embedding_text", type=("text", type), id=("uuid", id)))

    def set_embedding(self, *, type: str, id: UUID, embedding: np.ndarray, embedding_model: str) -> bool:
        """pymem.memory_set_embedding: store a memory's new embedding and its model."""
        return bool(
            self._scalar(
                "memory_set_embedding",
                type=("text", type),
                id=("uuid", id),
                embedding=("public.vector", embedding),
                embedding_model=("text", embedding_model),
            )
        )

    # The janitor ------------------------------------------------------------------------------------

    def consolidation_plan(
        self, *, butler: str | None = None, tenants: Sequence[str] | None = None, batch: int | None = None
    ) -> list[ConsolidationPlanRow]:
        """pymem.memory_consolidation_plan: per tenant, the live unconsolidated episodes (checks batch first)."""
        return self._rows(
            ConsolidationPlanRow,
            "memory_consolidation_plan",
            butler=("text", butler),
            tenants=("text[]", list(tenants) if tenants is not None else None),
            batch=("integer", batch),
        )

    def janitor_plan(
        self, *, batch: int | None = None, threshold: float | None = None, tenants: Sequence[str] | None = None
    ) -> list[JanitorPlanRow]:
        """pymem.memory_janitor_plan: per tenant, the expired episodes and the facts and rules to check."""
        return self._rows(
            JanitorPlanRow,
            "memory_janitor_plan",
            batch=("integer", batch),
            threshold=("double precision", threshold),
            tenants=("text[]", list(tenants) if tenants is not None else None),
        )

    def janitor_expire(self, *, limit: int | None = None) -> int:
        """pymem.memory_janitor_expire: tombstone up to limit expired episodes of the bound tenant; how many."""
        return int(self._scalar("memory_janitor_expire", limit=("integer", limit)))

    def janitor_dedup(
        self, *, type: str, after: UUID | None = None, limit: int | None = None, threshold: float | None = None
    ) -> DedupBatch:
        """pymem.memory_janitor_dedup: merge near-duplicates among the next limit facts or rules after `after`."""
        return self._one(
            DedupBatch,
            "memory_janitor_dedup",
            type=("text", type),
            after=("uuid", after),
            limit=("integer", limit),
            threshold=("double precision", threshold),
        )

    # Roles and elevation ----------------------------------------------------------------------------

    def log_elevation(self, *, reason: str, details: dict[str, Any] | None = None) -> None:
        """pymem.memory_log_elevation: record, as pymem_admin, why this transaction crosses tenants."""
        self._scalar(
            "memory_log_elevation",
            reason=("text", reason),
            details=("jsonb", Jsonb(details) if details is not None else None),
        )

    def bind_role(self, *, role_name: str, tenant_id: str) -> None:
        """pymem.memory_bind_role: bind a login to one tenant (a DBA or the migrator)."""
        self._scalar("memory_bind_role", role_name=("name", role_name), tenant_id=("text", tenant_id))

    # Erasure ----------------------------------------------------------------------------------------

    def erase(
        self, *, type: str, id: UUID, reason: str | None = None, cascade: bool | None = None
    ) -> list[ErasedMemory]:
        """pymem.memory_erase: delete a memory of the bound tenant (with cascade, what was derived from it)."""
        return self._rows(
            ErasedMemory,
            "memory_erase",
            type=("text", type),
            id=("uuid", id),
            reason=("text", reason),
            cascade=("boolean", cascade),
        )

    def erase_tenant(self, *, tenant: str, reason: str) -> list[ErasedTable]:
        """pymem.memory_erase_tenant: delete a whole tenant and its logins (a superuser)."""
        return self._rows(ErasedTable, "memory_erase_tenant", tenant=("text", tenant), reason=("text", reason))

    def erase_tables(self) -> tuple[str, ...]:
        """pymem.memory_erase_tables: the tables memory_erase changes, which a VACUUM after it cleans."""
        return tuple(self._scalar("memory_erase_tables"))

    def tenant_partitions(self, *, tenant: str, tables: tuple[str, ...]) -> tuple[str, ...]:
        """pymem.memory_tenant_partitions: each table partitioned by tenant replaced by the tenant's partition."""
        return tuple(self._scalar("memory_tenant_partitions", tenant=("text", tenant), tables=("text[]", list(tables))))

    def lock_holders(self, *, table: str) -> list[LockHolder]:
        """pymem.memory_lock_holders: the other sessions holding a lock on table."""
        return self._rows(LockHolder, "memory_lock_holders", table_name=("regclass", table))

    def vacuum(self, *, table: str, full: bool = False) -> None:
        """VACUUM (FULL) table ("schema.name", as SQL names it); outside a transaction, as the table's owner or a
        superuser."""
        self.conn.execute(
            sql.SQL("vacuum {}{}").format(sql.SQL("full " if full else ""), sql.Identifier(*table.split(".")))
        )

    def set_lock_timeout(self, *, milliseconds: int) -> None:
        """How long each statement of the session waits for a lock before it fails with 55P03."""
        self.conn.execute("select pg_catalog.set_config('lock_timeout', %s, false)", (f"{milliseconds}ms",))

    def set_actor(self, *, actor: str) -> None:
        """Name the caller in the audit trail for the rest of the transaction (pymem.actor)."""
        self.conn.execute("select pg_catalog.set_config('pymem.actor', %s, true)", (actor,))
