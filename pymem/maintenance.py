"""Maintenance for operators: vector index health, index rebuilds, embedding versions and the janitor.

    rows = measure_index_health(db.migrator_dsn)            # recall@10 per index and filter
    result = maintain(db.migrator_dsn)                      # rebuild what is below threshold
    record_embedding_model(db.migrator_dsn, Embedder().model_id)
    summary = reembed(db.migrator_dsn, Embedder())           # re-embed rows of another model
    summary = run_janitor(db.migrator_dsn)                   # expire, deduplicate, re-check

Everything that decides lives in SQL (sql/functions/220-index-health.sql, 225-index-rebuild.sql,
230-janitor.sql, 240-embedding-versions.sql), and so do the argument checks (PM002, raised here as
pymem.errors.InvalidArgumentError before anything changes); this module opens the connections, sets
the tenant, calls one SQL function at a time through pymem.operator_client.OperatorClient, embeds
text, runs the rebuild DDL SQL returns and commits batch by batch. The dsn is the migrator's (a
superuser, or a DBA that may SET ROLE pymem_owner and pymem_app): index health reads every tenant,
and a rebuild needs the index owner. Work on a tenant's memories (re-embedding, the janitor) runs as
pymem_app bound to that tenant, so the tenant policies apply to it as to any other call. With a
pymem_app dsn, index health runs as an elevated pymem_admin (logged in admin_tenant's audit trail);
maintain needs the migrator.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TextIO
from uuid import UUID

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from pymem.client import MemoryClient
from pymem.errors import translate
from pymem.operator_client import EmbeddingStatus, OperatorClient, RebuildStep
from pymem.operator_client import IndexHealth as IndexHealth
from pymem.tenancy import admin_transaction, tenant_transaction

APP_ROLE = "pymem_app"
ACTOR = "pymem maintenance"

Progress = Callable[[int, int, str], None]
"""progress(done, total, what): called after each committed batch."""


class TextEmbedder(Protocol):
    """What reembed needs of pymem.embeddings.Embedder."""

    @property
    def model_id(self) -> str: ...

    def embed_many(self, texts: list[str]) -> list[np.ndarray]: ...


@dataclass(frozen=True)
class Rebuild:
    index_name: str
    reason: str
    options_before: list[str] | None
    options_after: list[str] | None
    recall_before: float
    recall_after: float | None
    seconds: float
    reset_options: list[str] = field(default_factory=list)
    """The HNSW build options below pgvector's defaults that the rebuild reset."""


@dataclass(frozen=True)
class MaintenanceResult:
    before: list[IndexHealth]
    rebuilds: list[Rebuild]
    after: list[IndexHealth]

    @property
    def healthy(self) -> bool:
        return all(r.healthy for r in (self.after or self.before))


@dataclass
class ReembedSummary:
    model_id: str
    previous_model_id: str | None
    flagged: int = 0
    reembedded: int = 0
    tenants: int = 0
    seconds: float = 0.0


@dataclass
class JanitorSummary:
    tenants: int = 0
    episodes_expired: int = 0
    facts_checked: int = 0
    facts_merged: int = 0
    rules_checked: int = 0
    rules_merged: int = 0
    seconds: float = 0.0
    health: list[IndexHealth] = field(default_factory=list)

    @property
    def changed(self) -> int:
        return self.episodes_expired + self.facts_merged + self.rules_merged


@dataclass
class ConsolidationSummary:
    tenants: int = 0
    episodes: int = 0
    facts: int = 0
    rules: int = 0
    kept_for_review: int = 0
    refused: int = 0
    embedded: int = 0
    seconds: float = 0.0


class ProgressBar:
    """A one-line progress bar on stderr (a callback for reembed and run_janitor)."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self._stream = stream or sys.stderr
        self._width = width
        self._started = time.monotonic()
        self._shown = False

    def __call__(self, done: int, total: int, what: str) -> None:
        share = 1.0 if total <= 0 else min(1.0, done / total)
        filled = int(share * self._width)
        elapsed = time.monotonic() - self._started
        bar = "#" * filled + "." * (self._width - filled)
        self._stream.write(f"\r[{bar}] {share:4.0%} {done}/{total} {elapsed:5.1f}s {what[:40]:<40}")
        self._stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self._stream.write("\n")
            self._stream.flush()
            self._shown = False


def _connect(dsn: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(dsn, autocommit=True)
    register_vector(conn)
    return conn


def _is_superuser(conn: psycopg.Connection[Any]) -> bool:
    return conn.execute("select current_setting('is_superuser')").fetchone() == ("on",)


@contextmanager
def _sql_errors() -> Iterator[None]:
    """The SQLSTATEs a caller causes (PM002 for a bad argument, ...) as pymem.errors exceptions."""
    try:
        yield
    except psycopg.Error as exc:
        mapped = translate(exc)
        if mapped is None:
            raise
        raise mapped from exc


@contextmanager
def _operator_transaction(conn: psycopg.Connection[Any], admin_tenant: str, reason: str) -> Iterator[None]:
    """A transaction that reads across tenants: as the migrator (superuser), or as an elevated
    pymem_admin (logged in admin_tenant's audit trail) when connected as pymem_app."""
    if _is_superuser(conn):
        with conn.transaction():
            yield
    else:
        with admin_transaction(conn, admin_tenant, reason=reason, actor=ACTOR):
            yield


@contextmanager
def _tenant_work(conn: psycopg.Connection[Any], tenant: str) -> Iterator[None]:
    """A transaction as pymem_app bound to tenant: the tenant policies apply (the migrator steps down)."""
    with tenant_transaction(conn, tenant, actor=ACTOR):
        if conn.execute("select current_user").fetchone() != (APP_ROLE,):
            conn.execute("set local role pymem_app")
        yield


# Index health


def measure_index_health(
    dsn: str,
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
    admin_tenant: str = "default",
) -> list[IndexHealth]:
    """recall@k of every vector index against exact search, overall and filtered by tenant and tag
    (pymem.memory_index_health); saved (the first one per index and filter is the baseline) unless save=False.
    An option left None takes the SQL function's default (sample 50, k 10, min_recall 0.90, max_drift 0.05)."""
    with _connect(dsn) as conn, _sql_errors(), _operator_transaction(conn, admin_tenant, "index health"):
        return OperatorClient(conn).index_health(
            sample=sample,
            k=k,
            min_recall=min_recall,
            max_drift=max_drift,
            tenant=tenant,
            tag=tag,
            noise=noise,
            save=save,
            action=action,
        )


def _run_ddl(dsn: str, statements: Sequence[str]) -> float:
    """Run the statements pymem.memory_index_rebuild_plan returned, in order, as the index owner, on an
    autocommit connection: REINDEX INDEX CONCURRENTLY cannot run in a transaction block, so no SQL function
    can run it. Returns the seconds taken."""
    started = time.monotonic()
    with _connect(dsn) as conn:
        conn.execute("set role pymem_owner")
        for statement in statements:
            # the text comes from pymem.memory_index_rebuild_statements, which quotes the names itself
            conn.execute(statement)
    return time.monotonic() - started


def maintain(
    dsn: str,
    *,
    sample: int | None = None,
    k: int | None = None,
    min_recall: float | None = None,
    max_drift: float | None = None,
    force: bool | None = None,
    log: Callable[[str], None] | None = None,
    admin_tenant: str = "default",
) -> MaintenanceResult:
    """Measure index health, then run the rebuilds pymem.memory_index_rebuild_plan decides (every index below
    threshold or drifted; all with force), measure again and record each rebuild
    (pymem.memory_record_index_rebuild). The options left None take the SQL functions' defaults."""
    say = log or (lambda _message: None)

    def measure(action: str) -> list[IndexHealth]:
        return measure_index_health(
            dsn,
            sample=sample,
            k=k,
            min_recall=min_recall,
            max_drift=max_drift,
            action=action,
            admin_tenant=admin_tenant,
        )

    before = measure("measured")
    with _connect(dsn) as conn, _sql_errors(), _operator_transaction(conn, admin_tenant, "index rebuild plan"):
        plan = OperatorClient(conn).index_rebuild_plan(min_recall=min_recall, max_drift=max_drift, force=force)
    if not plan:
        return MaintenanceResult(before=before, rebuilds=[], after=[])
    done: list[tuple[RebuildStep, datetime, float]] = []
    for step in plan:
        say(f"rebuilding pymem.{step.index_name}: {step.reason}")
        started_at = datetime.now().astimezone()
        done.append((step, started_at, _run_ddl(dsn, step.statements)))
    after = measure("after_rebuild")
    rebuilds = []
    with _connect(dsn) as conn, _sql_errors(), conn.transaction():
        for step, started_at, seconds in done:
            recorded = OperatorClient(conn).record_index_rebuild(
                index_name=step.index_name,
                started_at=started_at,
                reason=step.reason,
                options_before=step.options_before,
                recall_before=step.recall_before,
            )
            rebuilds.append(
                Rebuild(
                    index_name=step.index_name,
                    reason=step.reason,
                    options_before=step.options_before,
                    options_after=recorded.options_after,
                    recall_before=step.recall_before,
                    recall_after=recorded.recall_after,
                    seconds=seconds,
                    reset_options=step.reset_options,
                )
            )
    return MaintenanceResult(before=before, rebuilds=rebuilds, after=after)


# Embedding versions


def _record_model(conn: psycopg.Connection[Any], model_id: str) -> str | None:
    return OperatorClient(conn).record_embedding_model(model_id=model_id).previous_model_id


def record_embedding_model(dsn: str, model_id: str) -> str | None:
    """Record the model that embeds new text (the migrator's dsn); returns the previous one. Rows of any
    other model are then flagged: search finds them by keyword only until `pymem reembed`."""
    with _connect(dsn) as conn, _sql_errors():
        return _record_model(conn, model_id)


def record_second_embedding_model(dsn: str, model_id: str | None) -> str | None:
    """Record the second encoder (the migrator's dsn; None: none); returns the previous one. Vectors of another
    model are then left out of search until the second embedding worker has embedded their memories again."""
    with _connect(dsn) as conn, _sql_errors():
        return OperatorClient(conn).record_second_embedding_model(model_id=model_id).previous_model_id


def embedding_status(dsn: str, *, admin_tenant: str = "default") -> list[EmbeddingStatus]:
    """Memories per tenant, type and embedding model, with flagged = needs re-embedding."""
    with _connect(dsn) as conn, _sql_errors(), _operator_transaction(conn, admin_tenant, "embedding status"):
        return OperatorClient(conn).embedding_status()


def reembed(
    dsn: str,
    embedder: TextEmbedder,
    *,
    batch: int = 64,
    tenants: Sequence[str] | None = None,
    progress: Progress | None = None,
    admin_tenant: str = "default",
) -> ReembedSummary:
    """Plan (pymem.memory_reembed_plan: it checks the arguments before anything changes), record embedder's
    model, then re-embed every flagged memory (another model, or none) tenant by tenant, one committed batch
    at a time: an interrupted run resumes where it stopped."""
    started = time.monotonic()
    with _connect(dsn) as conn, _sql_errors():
        client = OperatorClient(conn)
        with _operator_transaction(conn, admin_tenant, "re-embedding plan"):
            plan = client.reembed_plan(model_id=embedder.model_id, batch=batch, tenants=tenants)
        summary = ReembedSummary(model_id=embedder.model_id, previous_model_id=_record_model(conn, embedder.model_id))
        summary.flagged = sum(row.memories for row in plan)
        summary.tenants = len(plan)
        if progress is not None:
            progress(0, summary.flagged, "")
        for row in plan:
            tenant = row.tenant_id
            while True:
                with _tenant_work(conn, tenant):
                    candidates = client.reembed_candidates(limit=batch)
                    if not candidates:
                        break
                    vectors = embedder.embed_many([c.content for c in candidates])
                    for candidate, vector in zip(candidates, vectors, strict=True):
                        client.set_embedding(
                            type=candidate.memory_type,
                            id=candidate.memory_id,
                            embedding=vector,
                            embedding_model=embedder.model_id,
                        )
                summary.reembedded += len(candidates)
                if progress is not None:
                    progress(summary.reembedded, max(summary.flagged, summary.reembedded), f"tenant {tenant}")
    summary.seconds = time.monotonic() - started
    return summary


# The janitor


def run_janitor(
    dsn: str,
    *,
    progress: Progress | None = None,
    tenants: Sequence[str] | None = None,
    batch: int | None = None,
    threshold: float | None = None,
    check_health: bool = True,
    admin_tenant: str = "default",
) -> JanitorSummary:
    """Tombstone expired episodes and merge near-duplicate facts and rules (> threshold cosine-similar,
    same tenant and scope), tenant by tenant as pymem_app, committing every batch; then re-check index
    health (a pymem_app dsn needs tenants and skips nothing else). pymem.memory_janitor_plan lists the work
    and checks batch and threshold before anything changes; left None, they are the SQL functions' (batches of
    500, 0.85). Running it twice changes nothing the second time."""
    started = time.monotonic()
    summary = JanitorSummary()
    with _connect(dsn) as conn, _sql_errors():
        client = OperatorClient(conn)
        with _operator_transaction(conn, admin_tenant, "janitor"):
            work = client.janitor_plan(batch=batch, threshold=threshold, tenants=tenants)
        total = sum(w.facts + w.rules for w in work)
        done = 0
        summary.tenants = len(work)
        if progress is not None:
            progress(0, total, "")
        for w in work:
            tenant = w.tenant_id
            if w.expired_episodes:
                while True:
                    with _tenant_work(conn, tenant):
                        expired = client.janitor_expire(limit=batch)
                    summary.episodes_expired += expired
                    if expired == 0 or (batch is not None and expired < batch):
                        break
            for kind in ("fact", "rule"):
                after: UUID | None = None
                while True:
                    with _tenant_work(conn, tenant):
                        row = client.janitor_dedup(type=kind, after=after, limit=batch, threshold=threshold)
                    after, checked, merged = row.last_id, row.checked, row.merged
                    done += checked
                    if kind == "fact":
                        summary.facts_checked += checked
                        summary.facts_merged += merged
                    else:
                        summary.rules_checked += checked
                        summary.rules_merged += merged
                    if progress is not None:
                        progress(min(done, total), total, f"tenant {tenant}: {kind}s")
                    if row.done or after is None:
                        break
    if check_health:
        summary.health = measure_index_health(dsn, admin_tenant=admin_tenant)
    summary.seconds = time.monotonic() - started
    return summary


# Consolidation


def run_consolidation(
    dsn: str,
    embedder: TextEmbedder | None,
    *,
    butler: str | None = None,
    batch: int = 100,
    tenants: Sequence[str] | None = None,
    progress: Progress | None = None,
    admin_tenant: str = "default",
) -> ConsolidationSummary:
    """Consolidate every live unconsolidated episode (of butler, or all) with the built-in extractor, tenant by
    tenant as pymem_app, one committed batch of pymem.memory_consolidate at a time (an interrupted run resumes
    where it stopped; a concurrent one waits for the tenant's lock and finds the work done), then embed what was
    stored (pymem reembed, for the tenants consolidated). SQL decides what is extracted, stored and refused."""
    started = time.monotonic()
    summary = ConsolidationSummary()
    with _connect(dsn) as conn, _sql_errors():
        client = OperatorClient(conn)
        with _operator_transaction(conn, admin_tenant, "consolidation plan"):
            plan = client.consolidation_plan(butler=butler, tenants=tenants, batch=batch)
        total = sum(row.episodes for row in plan)
        summary.tenants = len(plan)
        if progress is not None:
            progress(0, total, "")
        memory = MemoryClient(conn)
        for row in plan:
            while True:
                with _tenant_work(conn, row.tenant_id):
                    done = memory.consolidate(butler=butler, limit=batch)
                summary.episodes += len(done)
                for episode in done:
                    summary.facts += episode.facts
                    summary.rules += episode.rules
                    summary.kept_for_review += episode.kept_for_review
                    summary.refused += episode.refused
                if progress is not None:
                    progress(min(summary.episodes, total), max(total, summary.episodes), f"tenant {row.tenant_id}")
                if len(done) < batch:
                    break
    if embedder is not None and plan:
        summary.embedded = reembed(
            dsn, embedder, tenants=[row.tenant_id for row in plan], admin_tenant=admin_tenant
        ).reembedded
    summary.seconds = time.monotonic() - started
    return summary
