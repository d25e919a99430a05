"""Self-healing vector indexes: reindex automatically when recall drops.

An IndexWorker checks the vector indexes' health on a schedule and after large writes, and when recall falls
below the threshold (or drifts from the baseline) rebuilds them with REINDEX CONCURRENTLY and records it: it is
`pymem maintain` (pymem.maintenance.maintain: SQL measures, plans and records, Python only runs the DDL that no
SQL function can run) called by a clock instead of a person. `pymem worker` runs one in the foreground, and
`pymem serve` runs one beside the MCP server when it has the migrator login (the embedded server, or PYMEM_DSN).

"Large writes": the rows inserted, updated and deleted in the memory tables since the last check, read from
PostgreSQL's statistics (pg_stat_user_tables), so writes by any client count, not only this process's.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg

from pymem import maintenance
from pymem.errors import PymemError

log = logging.getLogger("pymem.index_worker")

DEFAULT_INTERVAL = 3600.0  # seconds between scheduled checks
DEFAULT_WRITES = 10_000  # rows written to the memory tables that trigger a check before the schedule does
POLL = 5.0  # seconds between looks at the write counter
MAX_BACKOFF = 16  # at most this many times the interval and the writes between checks, after futile rebuilds


def rows_written(dsn: str) -> int:
    """Rows inserted, updated and deleted in pymem's memory tables since the statistics were last reset."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute(
            # their partitions' counts (a partitioned table keeps none of its own)
            "select coalesce(sum(s.n_tup_ins + s.n_tup_upd + s.n_tup_del), 0)::bigint"
            " from pg_catalog.pg_stat_user_tables as s where s.relid in ("
            "select t.relid from pg_catalog.pg_partition_tree('pymem.facts') as t union all"
            " select t.relid from pg_catalog.pg_partition_tree('pymem.rules') as t union all"
            " select t.relid from pg_catalog.pg_partition_tree('pymem.episodes') as t)"
        ).fetchone()
    return int(row[0]) if row else 0


@dataclass
class Check:
    """One health check: why it ran, what it rebuilt, whether every index ended healthy."""

    reason: str
    rebuilt: list[str]
    healthy: bool
    seconds: float


@dataclass(kw_only=True)
class ScheduledWork:
    """Work done every `interval` seconds and whenever due() says so, looked at every `poll` seconds, in the
    foreground (run) or a daemon thread (start), until stopped. `clock` gives the seconds the schedule counts (a
    test passes its own instead of waiting). Subclasses say when work is due and what it is."""

    interval: float
    poll: float = POLL
    delay: float = 0.0  # seconds before the first run (pymem serve waits a minute: its start comes first)
    clock: Callable[[], float] = time.monotonic
    name: str = "worker"
    _last_check: float = field(default=0.0, init=False)
    _stop: threading.Event | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        if self.interval <= 0 or self.poll <= 0 or self.delay < 0:
            raise ValueError("interval and poll must be positive, delay not negative")

    def due(self) -> str | None:  # pragma: no cover - every subclass says
        raise NotImplementedError

    def work(self, reason: str) -> object:  # pragma: no cover - every subclass says
        raise NotImplementedError

    def since_last(self) -> float:
        """Seconds on the clock since the last run ended (or, before the first, since delay was counted from)."""
        return self.clock() - self._last_check

    def run(self, stop: threading.Event) -> None:
        """Work after `delay` seconds (at once by default), then whenever due, until stop is set. Nothing happens
        before the delay, not even a look at what is due: a write counter already past its threshold (any database
        with 10,000 rows written since its statistics were reset) used to start an index health check at the first
        poll of every `pymem serve`, beside its first calls, and the check ran on in the database after a short-lived
        server had exited. A failed run is logged and retried at the next poll: the worker outlives a database
        restart."""
        if self.delay and stop.wait(self.delay):
            return
        self._last_check = self.clock() - self.interval
        while not stop.is_set():
            try:
                reason = self.due()
                if reason is not None:
                    self.work(reason)
            except (psycopg.Error, PymemError, OSError) as exc:
                log.warning("%s: failed (%s: %s); retrying in %.0f s", self.name, type(exc).__name__, exc, self.poll)
            stop.wait(self.poll)

    def start(self) -> tuple[threading.Thread, threading.Event]:
        """run() in a daemon thread; set the returned event (or call stop()) to stop it."""
        stop = self._stop = threading.Event()
        thread = threading.Thread(target=self.run, args=(stop,), name=f"pymem-{self.name}", daemon=True)
        thread.start()
        return thread, stop

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()


@dataclass(kw_only=True)
class IndexWorker(ScheduledWork):
    """Checks index health every `interval` seconds and whenever `writes` rows were written since the last
    check; rebuilds what is unhealthy (maintenance.maintain). dsn: the migrator login."""

    dsn: str
    interval: float = DEFAULT_INTERVAL
    writes: int = DEFAULT_WRITES
    name: str = "index worker"
    maintain_options: dict[str, Any] = field(default_factory=dict)
    on_check: Callable[[Check], None] | None = None
    checks: list[Check] = field(default_factory=list)
    _last_written: int = field(default=0, init=False)
    # 1, or 2, 4 ... 16 after checks whose rebuilds left an index unhealthy: a rebuild does not help an index
    # whose data is hard for it (near-duplicates), so the next checks come that many times later
    backoff: int = field(default=1, init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.writes <= 0:
            raise ValueError("writes must be positive")

    def due(self) -> str | None:
        """Why a check is due now ('schedule' or 'N rows written'), or None; both stretched by the backoff."""
        if self.since_last() >= self.interval * self.backoff:
            return "schedule"
        written = rows_written(self.dsn) - self._last_written
        if written >= self.writes * self.backoff:
            return f"{written} rows written"
        return None

    def work(self, reason: str) -> Check:
        return self.check(reason)

    def check(self, reason: str) -> Check:
        """Measure every vector index and rebuild the unhealthy ones, now."""
        started = time.monotonic()
        self._last_written = rows_written(self.dsn)
        result = maintenance.maintain(
            self.dsn, log=lambda message: log.warning("index worker: %s", message), **self.maintain_options
        )
        done = Check(
            reason=reason,
            rebuilt=[r.index_name for r in result.rebuilds],
            healthy=result.healthy,
            seconds=time.monotonic() - started,
        )
        self._last_check = self.clock()
        self.checks.append(done)
        self.backoff = 1 if done.healthy else min(MAX_BACKOFF, self.backoff * 2) if done.rebuilt else self.backoff
        if done.rebuilt:
            log.warning(
                "index worker (%s): rebuilt %s; %s",
                reason,
                ", ".join(done.rebuilt),
                "healthy" if done.healthy else f"still unhealthy: the next check comes {self.backoff} x later",
            )
        else:
            log.info("index worker (%s): every index healthy", reason)
        if self.on_check is not None:
            self.on_check(done)
        return done
