"""The eight targets of `pymem bench` and how a measurement compares with one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Target:
    name: str
    target: float
    unit: str
    higher_is_better: bool
    what: str


TARGETS = (
    Target("recall_e2e_p95_ms_100k", 25, "ms", False, "memory_recall through MCP, p95, 100k memories per tenant"),
    Target("query_embed_p95_ms", 5, "ms", False, "query embedding, p95"),
    Target("serve_first_call_s", 2, "s", False, "`pymem serve` spawn to first tool call answered"),
    Target("batch_ingest_per_s", 150, "memories/s", True, "batch ingest (embed_many + SQL store functions)"),
    Target("filtered_recall_at_10", 0.95, "recall", True, "small tenant (1% of rows), memory_search vs exact"),
    Target("hot_memory_p95_ms", 10, "ms", False, "memory_recent_episodes, p95"),
    Target("janitor_10k_s", 60, "s", False, "run_janitor wall time, 10k memories"),
    Target("hnsw_recall_at_10", 0.95, "recall", True, "vector index vs exact, all tenants"),
)


def target_row(target: Target, measured: float | None, run: str) -> dict[str, Any]:
    met = None
    if measured is not None:
        met = measured >= target.target if target.higher_is_better else measured <= target.target
    return {
        "name": target.name,
        "measured": measured,
        "target": f"{'>=' if target.higher_is_better else '<='} {target.target:g}",
        "unit": target.unit,
        "met": met,
        "run": run,
    }
