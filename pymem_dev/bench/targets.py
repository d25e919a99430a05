"""The targets of `pymem bench` (speed at 100k memories per tenant) and how a run's
results compare with them.

`evaluate(results)` is a pure function of the results dict. Every target row says at which scale it
was measured (`measured_at`). A target defined at a size per tenant (the `_100k` ones and the growth
from 10k to 100k) is read only at that size: when the run did not load it (the default `make bench`
stops at 10k per tenant) the row is "not measured" and names the largest scale that was run, instead
of comparing a 10k figure with a 100k target. Targets have a limit (`target`, met or missed) and some
a stricter `goal` (reported, `goal_met`, never a failure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIZE_10K = 10000
SIZE_100K = 100000


@dataclass(frozen=True)
class Target:
    name: str
    target: float
    unit: str
    higher_is_better: bool
    what: str
    goal: float | None = None  # the stricter figure aimed at; None: the target is the goal
    per_tenant: int | None = None  # memories per tenant the target is defined at; None: any scale

    def bound(self, value: float | None) -> str | None:
        return None if value is None else f"{'>=' if self.higher_is_better else '<='} {value:g}"

    def satisfied(self, measured: float | None, limit: float | None) -> bool | None:
        if measured is None or limit is None:
            return None
        return measured >= limit if self.higher_is_better else measured <= limit


TARGETS = (
    Target(
        "recall_e2e_p95_ms_100k",
        40,
        "ms",
        False,
        "memory_recall through MCP (query embedding included), p95, 100k memories per tenant",
        goal=25,
        per_tenant=SIZE_100K,
    ),
    Target(
        "search_e2e_p95_ms_100k",
        50,
        "ms",
        False,
        "memory_search through MCP (query embedding included), p95, 100k memories per tenant",
        goal=30,
        per_tenant=SIZE_100K,
    ),
    Target(
        "growth_recall_p95_100k_over_10k",
        2.0,
        "x",
        False,
        "memory_recall MCP p95 at 100k per tenant / at 10k per tenant (cost sublinear in the memory)",
        per_tenant=SIZE_100K,
    ),
    Target(
        "growth_search_p95_100k_over_10k",
        2.0,
        "x",
        False,
        "memory_search MCP p95 at 100k per tenant / at 10k per tenant (cost sublinear in the memory)",
        per_tenant=SIZE_100K,
    ),
    Target("query_embed_p95_ms", 5, "ms", False, "query embedding, p95"),
    Target("serve_first_call_s", 1.0, "s", False, "`pymem serve` spawn to first tool call answered"),
    Target("batch_ingest_per_s", 150, "memories/s", True, "batch ingest (embed_many + SQL store functions)"),
    Target("filtered_recall_at_10", 0.95, "recall", True, "small tenant (1% of rows), memory_search vs exact"),
    Target("hot_memory_p95_ms", 10, "ms", False, "memory_recent_episodes, p95"),
    Target("janitor_10k_s", 60, "s", False, "run_janitor wall time, 10k memories"),
    Target(
        "hnsw_recall_at_10",
        0.95,
        "recall",
        True,
        "vector index vs exact, all tenants, with the ef_search and iterative scan searches use (the least of the"
        " facts, rules and episodes, each at its own list)",
    ),
)
BY_NAME = {t.name: t for t in TARGETS}


def target_row(target: Target, measured: float | None, run: str, *, measured_at: str | None = None) -> dict[str, Any]:
    """One row of the targets table; measured None: not measured (met and goal_met None)."""
    met = target.satisfied(measured, target.target)
    return {
        "name": target.name,
        "measured": measured,
        "target": target.bound(target.target),
        "goal": target.bound(target.goal),
        "unit": target.unit,
        "met": met,
        "goal_met": target.satisfied(measured, target.goal) if target.goal is not None else met,
        "status": {True: "met", False: "missed", None: "not measured"}[met],
        "measured_at": measured_at,
        "run": run,
    }


def _other_tables(hnsw: dict[str, Any]) -> str:
    """The other vector tables at their own search lists; the target reads the least recall of all."""
    others = hnsw.get("other_tables") or {}
    if not others:
        return ""
    return (
        "; at their own lists: "
        + ", ".join(
            f"{table} ({o['rows']} rows) at {o['ef_search']}: {o['recall_at_k']}" for table, o in others.items()
        )
        + "; the target reads the least of the tables"
    )


def nominal(scale: dict[str, Any]) -> int:
    """The size per tenant a scale stands for (a --quick run's tiny sizes stand for the real ones)."""
    return int(scale.get("nominal_per_tenant") or scale["memories_per_tenant"])


def scale_at(results: dict[str, Any], per_tenant: int) -> dict[str, Any] | None:
    """The scale of the run that stands for `per_tenant` memories per tenant, if it was run."""
    return next((s for s in results["scales"] if nominal(s) == per_tenant), None)


def scale_label(scale: dict[str, Any]) -> str:
    label = f"{scale['memories_per_tenant']} per tenant x {scale['tenants']} tenants"
    if scale.get("rows_total") is not None:
        label += f" ({scale['rows_total']} rows)"
    if nominal(scale) != scale["memories_per_tenant"]:
        label += f", standing in for {nominal(scale)} per tenant"
    return label


def _p95(scale: dict[str, Any] | None, key: str) -> float | None:
    if scale is None:
        return None
    value = (scale.get(key) or {}).get("p95_ms")
    return float(value) if isinstance(value, int | float) else None


def _sizes_run(results: dict[str, Any]) -> str:
    return ", ".join(str(nominal(s)) for s in results["scales"])


def _not_at_100k(results: dict[str, Any], key: str, call: str) -> str:
    largest = results["scales"][-1]
    there = _p95(largest, key)
    seen = f"; {call} p95 there {there:.1f} ms, not comparable" if there is not None else ""
    return (
        f"not measured at 100k per tenant: the largest scale run is {scale_label(largest)}{seen};"
        " `pymem bench --scale 100k` measures it"
    )


def _at_100k(results: dict[str, Any], target: Target, key: str, call: str, quick: str) -> dict[str, Any]:
    scale = scale_at(results, SIZE_100K)
    if scale is None:
        return target_row(target, None, _not_at_100k(results, key, call))
    sql = _p95(scale, key.replace("_mcp", "_sql"))
    return target_row(
        target,
        _p95(scale, key),
        f"{(scale.get(key) or {}).get('n')} calls through MCP, query embedding included"
        + (f"; the SQL call alone: p95 {sql:.1f} ms" if sql is not None else "")
        + quick,
        measured_at=scale_label(scale),
    )


def _growth(results: dict[str, Any], target: Target, key: str, call: str, quick: str) -> dict[str, Any]:
    small, large = scale_at(results, SIZE_10K), scale_at(results, SIZE_100K)
    if small is None or large is None:
        missing = " and ".join(f"{n // 1000}k" for n, s in ((SIZE_10K, small), (SIZE_100K, large)) if s is None)
        return target_row(
            target,
            None,
            f"not measured: needs 10k and 100k per tenant in one run, {missing} per tenant not run"
            f" (sizes run: {_sizes_run(results)}); `pymem bench --scale 100k` measures it",
        )
    p_small, p_large = _p95(small, key), _p95(large, key)
    if not p_small or p_large is None:
        return target_row(target, None, f"not measured: no {call} p95 at both sizes")
    sql_small, sql_large = _p95(small, key.replace("_mcp", "_sql")), _p95(large, key.replace("_mcp", "_sql"))
    sql = f"; SQL alone {sql_large / sql_small:.2f}x" if sql_small and sql_large is not None else ""
    return target_row(
        target,
        round(p_large / p_small, 2),
        f"{call} MCP p95 {p_large:.1f} ms / {p_small:.1f} ms{sql}" + quick,
        measured_at=f"{large['memories_per_tenant']} vs {small['memories_per_tenant']} per tenant x {large['tenants']}"
        " tenants"
        + (
            f", standing in for {nominal(large)} vs {nominal(small)}"
            if (nominal(large), nominal(small)) != (large["memories_per_tenant"], small["memories_per_tenant"])
            else ""
        ),
    )


def evaluate(results: dict[str, Any]) -> list[dict[str, Any]]:
    """The target rows of a run's results (the order of TARGETS)."""
    largest = results["scales"][-1]
    at_largest = scale_label(largest)
    jan = results.get("janitor") or {}
    filtered = results.get("filtered_recall") or {}
    hnsw = results.get("hnsw_recall") or {}
    ingest = (results.get("ingest") or {}).get("batch") or {}
    emb = results["query_embedding"]
    cold = results["cold_start"]
    quick = " (--quick: tiny sizes, not comparable)" if results["config"].get("quick") else ""
    share = ""
    if filtered.get("tenant_rows") and filtered.get("table_rows"):
        share = f" ({100 * filtered['tenant_rows'] / filtered['table_rows']:.2g}%)"
    settings = f"ef_search {hnsw.get('ef_search')}"
    if hnsw.get("iterative_scan"):
        settings += f", iterative scan {hnsw['iterative_scan']}"
    return [
        _at_100k(results, BY_NAME["recall_e2e_p95_ms_100k"], "recall_mcp", "memory_recall MCP", quick),
        _at_100k(results, BY_NAME["search_e2e_p95_ms_100k"], "search_mcp", "memory_search MCP", quick),
        _growth(results, BY_NAME["growth_recall_p95_100k_over_10k"], "recall_mcp", "memory_recall", quick),
        _growth(results, BY_NAME["growth_search_p95_100k_over_10k"], "search_mcp", "memory_search", quick),
        target_row(
            BY_NAME["query_embed_p95_ms"],
            emb.get("p95_ms"),
            f"{emb.get('n')} queries, {results['machine'].get('model_backend')}"
            f" {results['machine'].get('model_variant')}" + quick,
            measured_at="the model alone, no database",
        ),
        target_row(
            BY_NAME["serve_first_call_s"],
            cold.get("first_call_median_s"),
            f"median of {cold.get('runs')} spawns, first call memory_stats" + quick,
            measured_at=at_largest,
        ),
        target_row(
            BY_NAME["batch_ingest_per_s"],
            ingest.get("per_s"),
            f"{ingest.get('memories')} memories of a new tenant" + quick,
            measured_at=at_largest,
        ),
        target_row(
            BY_NAME["filtered_recall_at_10"],
            filtered.get("recall_at_k"),
            f"{filtered.get('queries')} queries, tenant of {filtered.get('tenant_rows')} rows among"
            f" {filtered.get('table_rows')}{share}, pymem.exact_search_rows {filtered.get('exact_search_rows')};"
            f" forced through the vector index: {(filtered.get('index') or {}).get('recall_at_k')}" + quick,
            measured_at=at_largest if filtered else None,
        ),
        target_row(
            BY_NAME["hot_memory_p95_ms"],
            (largest.get("hot_memory") or {}).get("p95_ms"),
            f"{(largest.get('hot_memory') or {}).get('n')} calls" + quick,
            measured_at=at_largest,
        ),
        target_row(
            BY_NAME["janitor_10k_s"],
            jan.get("seconds") if jan.get("measured") else None,
            ("run_janitor over every tenant" if jan.get("measured") else f"not measured: {jan.get('reason')}") + quick,
            measured_at=f"{jan.get('memories')} memories" if jan.get("measured") else None,
        ),
        target_row(
            BY_NAME["hnsw_recall_at_10"],
            hnsw.get("least_recall_at_k", hnsw.get("recall_at_k")),
            f"{hnsw.get('queries')} queries over {hnsw.get('table')} ({hnsw.get('rows')} rows, synthetic vectors"
            f" plus the real ones of the ingest tenants), {settings} as searches set them"
            f" ({hnsw.get('settings_source')}); by ef_search: "
            + ", ".join(f"{ef}: {r['recall_at_k']}" for ef, r in (hnsw.get("by_ef_search") or {}).items())
            + _other_tables(hnsw)
            + quick,
            measured_at=at_largest if hnsw else None,
        ),
    ]
