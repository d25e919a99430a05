"""The machine a run was on, the eight targets, and the JSON and markdown outputs."""

from __future__ import annotations

import json
import os
import platform
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg


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


def machine(conninfo: str, embedder: Any) -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gb: float | None = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    with psycopg.connect(conninfo) as conn:
        conn.execute("select public.vector_dims('[1]'::public.vector)")  # loads pgvector: its settings exist
        row = conn.execute(
            "select current_setting('server_version'), (select extversion from pg_extension where extname = 'vector'),"
            " current_setting('shared_buffers'), current_setting('hnsw.ef_search', true)"
        ).fetchone()
    assert row is not None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "ram_gb": ram_gb,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "postgresql": row[0],
        "pgvector": row[1],
        "shared_buffers": row[2],
        "hnsw_ef_search": row[3],
        "model_id": getattr(embedder, "model_id", None),
        "model_backend": getattr(embedder, "backend", None),
        "model_variant": getattr(embedder, "variant", None),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def write_json(results: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2, default=str) + "\n")


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}" if abs(value) >= 1 or value == 0 else f"{value:.3g}"
    return str(value)


def markdown(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        "# pymem benchmark",
        "",
        f"Run {m['date']} in {results['wall_s']:.0f} s (`{results['command']}`).",
        "",
        "| machine | |",
        "|---|---|",
        f"| CPU | {m['cpu']} ({m['cores']} cores) |",
        f"| RAM | {m['ram_gb']} GB |",
        f"| PostgreSQL | {m['postgresql']} (shared_buffers {m['shared_buffers']}) |",
        f"| pgvector | {m['pgvector']} (hnsw.ef_search {m['hnsw_ef_search']}) |",
        f"| model | {m['model_id']} ({m['model_backend']}, {m['model_variant']}) |",
        f"| OS, Python | {m['os']}, Python {m['python']} |",
        "",
        "## Targets",
        "",
        "| target | measured | goal | met | run |",
        "|---|---|---|---|---|",
    ]
    for t in results["targets"]:
        measured = _fmt(t["measured"], 3 if t["unit"] == "recall" else 1)
        lines.append(
            f"| `{t['name']}` | {measured} {t['unit'] if t['measured'] is not None else ''}"
            f" | {t['target']} {t['unit']} | {_fmt(t['met'])} | {t['run']} |"
        )
    lines += [
        "",
        "## Latency by scale (ms; search: hybrid, limit 20; recall: limit 10; one tenant under RLS)",
        "",
        "| memories per tenant x tenants | rows | call | p50 | p95 | p99 |",
        "|---|---|---|---|---|---|",
    ]
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
            lines.append(
                f"| {label} | {s['rows_total']} | {name} | {_fmt(st.get('p50_ms'))} | {_fmt(st.get('p95_ms'))}"
                f" | {_fmt(st.get('p99_ms'))} |"
            )
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
        f"- HNSW recall@10 ({hr.get('table')}, {hr.get('rows')} rows, {hr.get('queries')} queries) by"
        " hnsw.ef_search: "
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
    load_rows = [
        f"| {x['memories_per_tenant']} x {x['tenants']} | {x['rows']} | {_fmt(x['copy_s'])} | {_fmt(x['index_s'])} |"
        for x in results["data"]["loads"]
    ]
    lines += [
        "",
        "| load (per tenant x tenants) | rows | COPY s | vector indexes + ANALYZE s |",
        "|---|---|---|---|",
        *load_rows,
        "",
    ]
    return "\n".join(lines)
