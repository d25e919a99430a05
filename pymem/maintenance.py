"""Maintenance for operators: vector index health, index rebuilds, embedding versions and the janitor.

    rows = measure_index_health(db.migrator_dsn)            # recall@10 per index and filter
    result = maintain(db.migrator_dsn)                      # rebuild what is below threshold
    record_embedding_model(db.migrator_dsn, Embedder().model_id)
    summary = reembed(db.migrator_dsn, Embedder())           # re-embed rows of another model
    summary = run_janitor(db.migrator_dsn)                   # expire, deduplicate, re-check

Everything that decides lives in SQL (sql/functions/220-index-health.sql, 230-janitor.sql,
240-embedding-versions.sql); this module opens the connections, sets the tenant, embeds text and
commits batch by batch. The dsn is the migrator's (a superuser, or a DBA that may SET ROLE
pymem_owner and pymem_app): index health reads every tenant, and a rebuild needs the index owner.
Work on a tenant's memories (re-embedding, the janitor) runs as pymem_app bound to that tenant, so
the tenant policies apply to it as to any other call. With a pymem_app dsn, index health runs as
an elevated pymem_admin (logged in admin_tenant's audit trail); maintain needs the migrator.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TextIO

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.rows import class_row, dict_row

from pymem.errors import InvalidArgumentError, translate
from pymem.tenancy import admin_transaction, tenant_transaction

APP_ROLE = "pymem_app"
ACTOR = "pymem maintenance"
HNSW_DEFAULTS = {"m": 16, "ef_construction": 64}

Progress = Callable[[int, int, str], None]
"""progress(done, total, what): called after each committed batch."""


class TextEmbedder(Protocol):
    """What reembed needs of pymem.embeddings.Embedder."""

    @property
    def model_id(self) -> str: ...

    def embed_many(self, texts: list[str]) -> list[np.ndarray]: ...


@dataclass(frozen=True)
class IndexHealth:
    """One measurement of pymem.memory_index_health: an index under one filter."""

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


@dataclass(frozen=True)
class Rebuild:
    index_name: str
    reason: str
    options_before: list[str] | None
    options_after: list[str] | None
    recall_before: float
    recall_after: float | None
    seconds: float


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


def _raise_translated(exc: psycopg.Error) -> None:
    mapped = translate(exc)
    if mapped is not None:
        raise mapped from exc
    raise exc


# Index health


def measure_index_health(
    dsn: str,
    *,
    sample: int = 50,
    k: int = 10,
    min_recall: float = 0.90,
    max_drift: float = 0.05,
    tenant: str | None = None,
    tag: str | None = None,
    noise: float = 0.0,
    save: bool = True,
    action: str = "measured",
    admin_tenant: str = "default",
) -> list[IndexHealth]:
    """recall@k of every vector index against exact search, overall and filtered by tenant and tag
    (pymem.memory_index_health); saved (the first one per index and filter is the baseline) unless save=False."""
    with _connect(dsn) as conn:
        try:
            with (
                _operator_transaction(conn, admin_tenant, "index health"),
                conn.cursor(row_factory=class_row(IndexHealth)) as cur,
            ):
                return cur.execute(
                    "select * from pymem.memory_index_health(sample => %s, k => %s, min_recall => %s,"
                    " max_drift => %s, tenant => %s, tag => %s, noise => %s, save => %s, action => %s)",
                    (sample, k, min_recall, max_drift, tenant, tag, noise, save, action),
                ).fetchall()
        except psycopg.Error as exc:
            _raise_translated(exc)
            raise


def _index_options(conn: psycopg.Connection[Any], index: str) -> tuple[str, list[str] | None]:
    row = conn.execute(
        "select am.amname, c.reloptions from pg_class as c join pg_am as am on am.oid = c.relam"
        " join pg_namespace as n on n.oid = c.relnamespace where n.nspname = 'pymem' and c.relname = %s",
        (index,),
    ).fetchone()
    if row is None:
        raise InvalidArgumentError(f"no index pymem.{index}")
    return str(row[0]), list(row[1]) if row[1] is not None else None


def _weak_build_options(method: str, options: list[str] | None) -> list[str]:
    """The HNSW build options below pgvector's defaults (m=16, ef_construction=64): what a rebuild resets."""
    if method != "hnsw" or not options:
        return []
    weak = []
    for option in options:
        name, _, value = option.partition("=")
        if name in HNSW_DEFAULTS and value.isdigit() and int(value) < HNSW_DEFAULTS[name]:
            weak.append(name)
    return weak


def rebuild_index(dsn: str, index: str) -> tuple[list[str] | None, list[str] | None, float]:
    """Reset weak HNSW build options, then REINDEX INDEX CONCURRENTLY (autocommit: it cannot run in a
    transaction or a function) as the index owner. Returns (options before, options after, seconds)."""
    started = time.monotonic()
    with _connect(dsn) as conn:
        method, before = _index_options(conn, index)
        if not _is_superuser(conn):
            conn.execute("set role pymem_owner")
        name = sql.Identifier("pymem", index)
        weak = _weak_build_options(method, before)
        if weak:
            conn.execute(
                sql.SQL("alter index {} reset ({})").format(name, sql.SQL(", ").join(map(sql.Identifier, weak)))
            )
        conn.execute(sql.SQL("reindex index concurrently {}").format(name))
        _, after = _index_options(conn, index)
    return before, after, time.monotonic() - started


def maintain(
    dsn: str,
    *,
    sample: int = 50,
    k: int = 10,
    min_recall: float = 0.90,
    max_drift: float = 0.05,
    force: bool = False,
    log: Callable[[str], None] | None = None,
) -> MaintenanceResult:
    """Measure index health; rebuild every index that is below threshold or drifted (all with force),
    re-measure, and record each rebuild in pymem_private.index_rebuilds (REQ-MEM-005)."""
    say = log or (lambda _message: None)
    thresholds = {"sample": sample, "k": k, "min_recall": min_recall, "max_drift": max_drift}
    before = measure_index_health(dsn, **thresholds)  # type: ignore[arg-type]
    worst: dict[str, IndexHealth] = {}
    for row in before:
        if (force or not row.healthy) and (row.index_name not in worst or row.recall < worst[row.index_name].recall):
            worst[row.index_name] = row
    if not worst:
        return MaintenanceResult(before=before, rebuilds=[], after=[])
    done: list[tuple[str, str, list[str] | None, list[str] | None, float, datetime]] = []
    for index, row in worst.items():
        filter_name = row.filter_kind + (f" {row.filter_value}" if row.filter_value else "")
        reason = (
            f"recall@{k} {row.recall:.3f} ({filter_name}); threshold {min_recall:.2f}, drift {row.drift:.1%}"
            f" (max {max_drift:.0%})" + ("; forced" if force and row.healthy else "")
        )
        say(f"rebuilding pymem.{index}: {reason}")
        started_at = datetime.now().astimezone()
        options_before, options_after, seconds = rebuild_index(dsn, index)
        done.append((index, reason, options_before, options_after, seconds, started_at))
    after = measure_index_health(dsn, action="after_rebuild", **thresholds)  # type: ignore[arg-type]
    rebuilds = []
    with _connect(dsn) as conn, conn.transaction():
        for index, reason, options_before, options_after, seconds, started_at in done:
            recall_after = min((r.recall for r in after if r.index_name == index), default=None)
            conn.execute(
                "select pymem_private.record_index_rebuild(%s, %s, %s, %s, %s, %s, %s)",
                (index, started_at, reason, options_before, options_after, worst[index].recall, recall_after),
            )
            rebuilds.append(
                Rebuild(index, reason, options_before, options_after, worst[index].recall, recall_after, seconds)
            )
    return MaintenanceResult(before=before, rebuilds=rebuilds, after=after)


# Embedding versions


def record_embedding_model(dsn: str, model_id: str) -> str | None:
    """Record the model that embeds new text (the migrator's dsn); returns the previous one. Rows of any
    other model are then flagged: search finds them by keyword only until `pymem reembed`."""
    with _connect(dsn) as conn:
        try:
            row = conn.execute("select * from pymem_private.set_embedding_model(%s)", (model_id,)).fetchone()
        except psycopg.Error as exc:
            _raise_translated(exc)
            raise
    assert row is not None
    return row[0] if row[0] is not None else None


def embedding_status(dsn: str, *, admin_tenant: str = "default") -> list[dict[str, Any]]:
    """Memories per tenant, type and embedding model, with flagged = needs re-embedding."""
    with (
        _connect(dsn) as conn,
        _operator_transaction(conn, admin_tenant, "embedding status"),
        conn.cursor(row_factory=dict_row) as cur,
    ):
        return cur.execute("select * from pymem.memory_embedding_status()").fetchall()


def reembed(
    dsn: str,
    embedder: TextEmbedder,
    *,
    batch: int = 64,
    tenants: Sequence[str] | None = None,
    progress: Progress | None = None,
    admin_tenant: str = "default",
) -> ReembedSummary:
    """Record embedder's model, then re-embed every flagged memory (another model, or none) tenant by
    tenant, one committed batch at a time: an interrupted run resumes where it stopped."""
    if not 1 <= batch <= 1000:
        raise InvalidArgumentError("--batch must be between 1 and 1000")
    started = time.monotonic()
    previous = record_embedding_model(dsn, embedder.model_id)
    summary = ReembedSummary(model_id=embedder.model_id, previous_model_id=previous)
    flagged: dict[str, int] = {}
    for row in embedding_status(dsn, admin_tenant=admin_tenant):
        if row["flagged"] and (tenants is None or row["tenant_id"] in tenants):
            flagged[row["tenant_id"]] = flagged.get(row["tenant_id"], 0) + int(row["memories"])
    summary.flagged = sum(flagged.values())
    summary.tenants = len(flagged)
    if progress is not None:
        progress(0, summary.flagged, "")
    with _connect(dsn) as conn:
        for tenant, _count in sorted(flagged.items()):
            while True:
                with _tenant_work(conn, tenant):
                    rows = conn.execute(
                        "select memory_type, memory_id, content from pymem.memory_reembed_candidates(%s)", (batch,)
                    ).fetchall()
                    if not rows:
                        break
                    vectors = embedder.embed_many([r[2] for r in rows])
                    with conn.cursor() as cur:
                        cur.executemany(
                            "select pymem.memory_set_embedding(%s, %s, %s, %s)",
                            [(r[0], r[1], v, embedder.model_id) for r, v in zip(rows, vectors, strict=True)],
                        )
                summary.reembedded += len(rows)
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
    batch: int = 500,
    threshold: float = 0.85,
    check_health: bool = True,
    admin_tenant: str = "default",
) -> JanitorSummary:
    """Tombstone expired episodes and merge near-duplicate facts and rules (> threshold cosine-similar,
    same tenant and scope), tenant by tenant as pymem_app, committing every batch; then re-check index
    health (a pymem_app dsn needs tenants and skips nothing else). Running it twice changes nothing the
    second time."""
    if not 1 <= batch <= 1000:
        raise InvalidArgumentError("--batch must be between 1 and 1000")
    if not 0.5 <= threshold <= 1:
        raise InvalidArgumentError("--threshold must be between 0.5 and 1")
    started = time.monotonic()
    summary = JanitorSummary()
    with _connect(dsn) as conn:
        with _operator_transaction(conn, admin_tenant, "janitor"):
            work = conn.execute(
                "select tenant_id, expired_episodes, facts, rules from pymem_private.janitor_work()"
            ).fetchall()
        if tenants is not None:
            work = [w for w in work if w[0] in tenants]
        total = sum(int(w[2]) + int(w[3]) for w in work)
        done = 0
        summary.tenants = len(work)
        if progress is not None:
            progress(0, total, "")
        for tenant, expired, _facts, _rules in work:
            while expired:
                with _tenant_work(conn, tenant):
                    count = conn.execute("select pymem.memory_janitor_expire(%s)", (1000,)).fetchone()
                n = int(count[0]) if count else 0
                summary.episodes_expired += n
                if n < 1000:
                    break
            for kind in ("fact", "rule"):
                after = None
                while True:
                    with _tenant_work(conn, tenant):
                        row = conn.execute(
                            "select * from pymem.memory_janitor_dedup(%s, %s, %s, %s)", (kind, after, batch, threshold)
                        ).fetchone()
                    assert row is not None
                    after, checked, merged, finished = row
                    done += checked
                    if kind == "fact":
                        summary.facts_checked += checked
                        summary.facts_merged += merged
                    else:
                        summary.rules_checked += checked
                        summary.rules_merged += merged
                    if progress is not None:
                        progress(min(done, total), total, f"tenant {tenant}: {kind}s")
                    if finished or after is None:
                        break
    if check_health:
        summary.health = measure_index_health(dsn, admin_tenant=admin_tenant)
    summary.seconds = time.monotonic() - started
    return summary
