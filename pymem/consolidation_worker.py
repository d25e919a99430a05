"""Consolidation on its own: episodes become facts and rules without anyone running `pymem consolidate`.

A ConsolidationWorker runs pymem.maintenance.run_consolidation (the built-in extractor, every tenant, then the
new memories embedded) every `interval` seconds and as soon as `episodes` episodes were stored since its last run.
"Stored" is read from PostgreSQL's statistics (pg_stat_user_tables), so episodes any client stores count, and
looking costs no read of tenant data. `pymem worker` runs one beside the index worker; `pymem serve` does too when
it has the migrator login. SQL decides what is extracted, kept for review or refused; the janitor tombstones an
expired episode only once consolidation has read it (pymem.memory_janitor_expire), so an episode the worker has
not reached yet waits for it instead of being lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import psycopg

from pymem import maintenance
from pymem.index_worker import ScheduledWork

log = logging.getLogger("pymem.consolidation_worker")

DEFAULT_INTERVAL = 600.0  # seconds between scheduled runs: well inside the shortest usual episode TTL (7 days)
DEFAULT_EPISODES = 50  # episodes stored since the last run that bring the next one forward


def episodes_stored(dsn: str) -> int:
    """Episodes inserted since the statistics were last reset (every tenant's; no row is read)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            # the episodes' partitions' counts (a partitioned table keeps none of its own)
            "select coalesce(sum(s.n_tup_ins), 0)::bigint from pg_catalog.pg_stat_user_tables as s"
            " where s.relid in (select t.relid from pg_catalog.pg_partition_tree('pymem.episodes') as t)"
        ).fetchone()
    return int(row[0]) if row else 0


@dataclass(kw_only=True)
class ConsolidationWorker(ScheduledWork):
    """Consolidates every tenant's unconsolidated episodes every `interval` seconds and whenever `episodes` were
    stored since the last run; embeds what it stored with `embedder` (None: found by keyword until
    `pymem reembed`). dsn: the migrator login, as for `pymem consolidate`."""

    dsn: str
    embedder: maintenance.TextEmbedder | None
    interval: float = DEFAULT_INTERVAL
    episodes: int = DEFAULT_EPISODES
    name: str = "consolidation worker"
    on_run: Callable[[str, maintenance.ConsolidationSummary], None] | None = None
    runs: list[maintenance.ConsolidationSummary] = field(default_factory=list)
    _last_stored: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.episodes <= 0:
            raise ValueError("episodes must be positive")

    def due(self) -> str | None:
        """Why a run is due now ('schedule' or 'N episodes stored'), or None."""
        if self.since_last() >= self.interval:
            return "schedule"
        stored = episodes_stored(self.dsn) - self._last_stored
        return f"{stored} episodes stored" if stored >= self.episodes else None

    def work(self, reason: str) -> maintenance.ConsolidationSummary:
        """Consolidate every tenant's backlog now."""
        self._last_stored = episodes_stored(self.dsn)
        summary = maintenance.run_consolidation(self.dsn, self.embedder)
        self._last_check = self.clock()
        self.runs.append(summary)
        if summary.episodes:
            log.info(
                "consolidation worker (%s): %d episode(s) of %d tenant(s): %d facts, %d rules, %d kept for review",
                reason,
                summary.episodes,
                summary.tenants,
                summary.facts,
                summary.rules,
                summary.kept_for_review,
            )
        if self.on_run is not None:
            self.on_run(reason, summary)
        return summary
