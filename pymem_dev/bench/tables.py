"""The markdown report of `pymem bench` (bench/results.md): environment, targets, latency by
scale, the other figures and how the data was made."""

from __future__ import annotations

from typing import Any

from pymem_dev.reports import environment_rows, fmt, table


def _fmt(value: Any, digits: int = 1) -> str:
    return fmt(value, digits, significant=3)


def markdown(results: dict[str, Any]) -> str:
    m = results["machine"]
    targets = [
        [
            f"`{t['name']}`",
            _fmt(t["measured"], 3 if t["unit"] in ("recall", "x") else 1)
            + (f" {t['unit']}" if t["measured"] is not None else ""),
            f"{t['target']} {t['unit']}",
            f"{t['goal']} {t['unit']}" if t.get("goal") else "-",
            _status(t),
            t.get("measured_at") or "-",
            t["run"],
        ]
        for t in results["targets"]
    ]
    latency = []
    for s in results["scales"]:
        label = f"{s['memories_per_tenant']} x {s['tenants']}"
        for key, name in (
            ("search_sql", "memory_search SQL"),
            ("recall_sql", "memory_recall SQL"),
            ("search_mcp", "memory_search MCP (embedding incl.)"),
            ("recall_mcp", "memory_recall MCP (embedding incl.)"),
            ("hot_memory", "memory_recent_episodes SQL"),
        ):
            st = s.get(key) or {}
            latency.append(
                [
                    label,
                    str(s["rows_total"]),
                    name,
                    _fmt(st.get("p50_ms")),
                    _fmt(st.get("p95_ms")),
                    _fmt(st.get("p99_ms")),
                ]
            )
    lines = [
        "# pymem benchmark",
        "",
        f"Run {m['date']} in {results['wall_s']:.0f} s (`{results['command']}`).",
        "",
    ]
    if results.get("note"):
        lines += [str(results["note"]), ""]
    lines += [
        table(["machine", ""], environment_rows(m)),
        "",
        "## Targets",
        "",
        "A target is read at the size per tenant in its name (or at the largest scale run); one whose size"
        " was not run is not measured. `met` compares with the target; a stricter goal is reported beside it.",
        "",
        table(["target", "measured", "target", "goal", "met", "measured at", "run"], targets),
        "",
        "## Latency by scale (ms; search: hybrid, limit 20; recall: limit 10; one tenant under RLS)",
        "",
        table(["memories per tenant x tenants", "rows", "call", "p50", "p95", "p99"], latency),
    ]
    ing = results["ingest"]
    emb = results["query_embedding"]
    cold = results["cold_start"]
    lines += [
        "",
        "## Other figures",
        "",
        f"- ingest through MCP tools: {_fmt(ing['mcp'].get('per_s'))} memories/s ({ing['mcp'].get('memories')} stored"
        " one call at a time, embedding included)",
        f"- batch ingest: {_fmt(ing['batch'].get('per_s'))} memories/s ({ing['batch'].get('memories')} memories,"
        f" batches of {ing['batch'].get('batch')}, embed_many + SQL store functions, one transaction per batch)",
        f"- query embedding: p50 {_fmt(emb.get('p50_ms'), 2)} ms, p95 {_fmt(emb.get('p95_ms'), 2)} ms,"
        f" p99 {_fmt(emb.get('p99_ms'), 2)} ms",
        f"- `pymem serve` cold start: first tool call after {_fmt(cold.get('first_call_median_s'), 2)} s, first"
        f" memory_recall (model loaded) after {_fmt(cold.get('first_recall_median_s'), 2)} s (median of"
        f" {cold.get('runs')})",
    ]
    fr = results.get("filtered_recall") or {}
    hr = results.get("hnsw_recall") or {}
    jan = results.get("janitor") or {}
    lines += [
        f"- filtered recall@10 (tenant of {fr.get('tenant_rows')} rows among {fr.get('table_rows')}, rows per"
        f" table {fr.get('tenant_rows_per_table')}, pymem.exact_search_rows {fr.get('exact_search_rows')}):"
        f" {_fmt(fr.get('recall_at_k'), 3)} as configured (min {_fmt(fr.get('min'), 3)}),"
        f" {_fmt((fr.get('index') or {}).get('recall_at_k'), 3)} forced through the vector index"
        f" (min {_fmt((fr.get('index') or {}).get('min'), 3)}); {fr.get('queries')} queries",
        f"- HNSW recall@10 ({hr.get('table')}, {hr.get('rows')} rows, {hr.get('queries')} queries, iterative scan"
        f" {hr.get('iterative_scan') or 'off'}; searches use ef_search {hr.get('ef_search')}:"
        f" {hr.get('settings_source')}) by hnsw.ef_search: "
        + ", ".join(
            f"{ef}: {_fmt(r['recall_at_k'], 3)} (p95 {_fmt(r['ann_latency'].get('p95_ms'))} ms)"
            for ef, r in (hr.get("by_ef_search") or {}).items()
        ),
        "- share of the query tenant's memories the full-text query matches (OR of the query's lexemes): "
        + ", ".join(
            f"{x['memories_per_tenant']} per tenant: {x.get('keyword_match_share')}" for x in results["scales"]
        ),
        "- janitor: "
        + (
            f"{_fmt(jan.get('seconds'))} s for {jan.get('memories')} memories {jan.get('summary')}"
            if jan.get("measured")
            else f"not measured ({jan.get('reason')})"
        ),
        "",
        "## How the data was made",
        "",
    ]
    lines += [f"- {note}" for note in results["data"]["notes"]]
    loads = [
        [f"{x['memories_per_tenant']} x {x['tenants']}", str(x["rows"]), _fmt(x["copy_s"]), _fmt(x["index_s"])]
        for x in results["data"]["loads"]
    ]
    lines += [
        "",
        table(["load (per tenant x tenants)", "rows", "COPY + INSERT s", "vector indexes + ANALYZE s"], loads),
        "",
    ]
    phases = results.get("phases") or []
    if phases:
        lines += [
            "## Where the time went",
            "",
            table(
                ["phase", "s"],
                [[x["phase"], _fmt(x["seconds"])] for x in phases] + [["total (wall)", _fmt(results["wall_s"])]],
            ),
            "",
        ]
    return "\n".join(lines)


def _status(target: dict[str, Any]) -> str:
    if target["met"] is None:
        return "not measured"
    met = "yes" if target["met"] else "no"
    if target.get("goal") and target.get("goal_met") is not None:
        met += f" (goal: {'yes' if target['goal_met'] else 'no'})"
    return met
