"""The markdown report of `pymem bench` (bench/results.md): environment, targets, latency by
scale, the other figures and how the data was made."""

from __future__ import annotations

from typing import Any

from pymem_dev.reports import environment_rows, fmt, table


def _fmt(value: Any, digits: int = 1) -> str:
    return fmt(value, digits, significant=3)


def markdown(results: dict[str, Any]) -> str:
    lines = (
        _heading(results)
        + _targets(results)
        + _latency(results)
        + markdown_stage_split(results)
        + _other_figures(results)
    )
    lines += _data(results) + _phases(results)
    return "\n".join(lines)


def _heading(results: dict[str, Any]) -> list[str]:
    m = results["machine"]
    lines = [
        "# pymem benchmark",
        "",
        f"Run {m['date']} in {results['wall_s']:.0f} s (`{results['command']}`).",
        "",
    ]
    if results.get("note"):
        lines += [str(results["note"]), ""]
    return [*lines, table(["machine", ""], environment_rows(m)), ""]


def _targets(results: dict[str, Any]) -> list[str]:
    targets = [
        [
            f"`{t['name']}`",
            _fmt(t["measured"], 3 if t["unit"] in ("recall", "x") else 2 if t["unit"] == "s" else 1)
            + (f" {t['unit']}" if t["measured"] is not None else ""),
            f"{t['target']} {t['unit']}",
            f"{t['goal']} {t['unit']}" if t.get("goal") else "-",
            _status(t),
            t.get("measured_at") or "-",
            t["run"],
        ]
        for t in results["targets"]
    ]
    return [
        "## Targets",
        "",
        "A target is read at the size per tenant in its name (or at the largest scale run); one whose size"
        " was not run is not measured. `met` compares with the target; a stricter goal is reported beside it.",
        "",
        table(["target", "measured", "target", "goal", "met", "measured at", "run"], targets),
        "",
    ]


LATENCY_CALLS = (
    ("search_sql", "memory_search SQL"),
    ("recall_sql", "memory_recall SQL"),
    ("search_mcp", "memory_search MCP (embedding incl.)"),
    ("recall_mcp", "memory_recall MCP (embedding incl.)"),
    ("hot_memory", "memory_recent_episodes SQL"),
)


def _latency(results: dict[str, Any]) -> list[str]:
    latency = []
    for s in results["scales"]:
        label = f"{s['memories_per_tenant']} x {s['tenants']}"
        for key, name in LATENCY_CALLS:
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
    return [
        "## Latency by scale (ms; search: hybrid, limit 20; recall: limit 10; one tenant under RLS)",
        "",
        table(["memories per tenant x tenants", "rows", "call", "p50", "p95", "p99"], latency),
    ]


SPLIT_ROWS = (
    ("embedding", "query embedding (Embedder.embed)"),
    ("call", "transaction + memory_candidates with no leg"),
    ("semantic", "semantic leg"),
    ("keyword", "keyword leg"),
    ("fusion_relevance", "fusion + relevance (both legs)"),
    ("graph", "graph leg"),
    ("scoring", "scoring (composite score, relevance floor, focus check, columns)"),
    ("provenance", "provenance of the returned rows"),
    ("bumps", "reference bumps of the returned rows"),
    ("sql", "= the SQL call (without the embedding)"),
    ("mcp_layer", "MCP layer (MCP p95 - SQL p95 - embedding p95)"),
    ("mcp", "= the MCP call (embedding incl.)"),
)


def markdown_stage_split(results: dict[str, Any]) -> list[str]:
    """Where the p95 of memory_recall and memory_search goes, at the largest scale with a split."""
    scales = [s for s in results["scales"] if s.get("stage_split")]
    if not scales:
        return []
    scale = scales[-1]
    split = scale["stage_split"]
    recall, search = split["recall"], split["search"]
    rows = []
    for key, name in SPLIT_ROWS:
        cells = [name]
        for tool in (recall, search):
            stage = tool["stages"].get(key) or {}
            cells += [_fmt(stage.get("p50_ms")), _fmt(stage.get("p95_ms")), _fmt(stage.get("at_p95_ms"))]
        rows.append(cells)
    focus = recall.get("query_focus") or {}
    return [
        "",
        f"## Where the p95 goes (largest scale: {scale['memories_per_tenant']} x {scale['tenants']}, ms)",
        "",
        f"Each stage timed on its own over the same {split['queries']} queries (the calls of a query back to back,"
        f" each kind on a connection of its own, after {split.get('warmup')} warm-up queries), as pymem_app bound"
        f" to tenant {split['tenant']!r}: pymem_private.memory_candidates as the tool asks it (recall:"
        f" {recall['candidates']}; search: {search['candidates']}) with no leg, one leg, both legs, both and the"
        f" graph, then the SQL call (recall: {recall['sql_call']}; search: {search['sql_call']}), the same call with"
        " bump_references => false, pymem_private.memory_provenance_many over the rows it returns and a transaction"
        " of `select 1`; each kind of call planned as a session plans it. A stage is the difference of two of those"
        " calls, query by query, not clipped (a small negative figure is noise, or a leg planned otherwise alone than"
        " with the other). *At the"
        " p95 calls* is the stage's mean over the calls whose SQL time is at or above the SQL p95"
        f" ({recall['p95_calls']} recall, {search['p95_calls']} search): down that column"
        " the stages from the transaction to the reference bumps add up to the SQL call. The MCP layer is a"
        " difference of p95s (MCP p95 - SQL p95 - embedding p95; the MCP call is that of the latency table, over"
        " all the bench's queries): tool dispatch, pool, result models, JSON and, for recall, the"
        " memory_query_focus transaction the tool runs beside the embedding (alone: p50"
        f" {_fmt(focus.get('p50_ms'))}, p95 {_fmt(focus.get('p95_ms'))} ms; {recall.get('focus_differs')} of the"
        " queries have a focus of their own, which the tool embeds too).",
        "",
        table(
            [
                "stage",
                "recall p50",
                "recall p95",
                "recall at the p95 calls",
                "search p50",
                "search p95",
                "search at the p95 calls",
            ],
            rows,
        ),
    ]


def _other_figures(results: dict[str, Any]) -> list[str]:
    ing = results["ingest"]
    emb = results["query_embedding"]
    cold = results["cold_start"]
    return [
        "",
        "## Other figures",
        "",
        f"- ingest through MCP tools: {_fmt(ing['mcp'].get('per_s'))} memories/s ({ing['mcp'].get('memories')} stored"
        " one call at a time, embedding included)",
        f"- batch ingest: {_fmt(ing['batch'].get('per_s'))} memories/s ({ing['batch'].get('memories')} memories,"
        f" batches of {ing['batch'].get('batch')}, embed_many + SQL store functions, one transaction per batch)",
        _consolidation(ing.get("consolidation") or {}),
        _embedding_queue(ing.get("embedding_queue") or {}),
        f"- query embedding: p50 {_fmt(emb.get('p50_ms'), 2)} ms, p95 {_fmt(emb.get('p95_ms'), 2)} ms,"
        f" p99 {_fmt(emb.get('p99_ms'), 2)} ms",
        f"- `pymem serve` cold start: first tool call after {_fmt(cold.get('first_call_median_s'), 2)} s, first"
        f" memory_recall (model loaded) after {_fmt(cold.get('first_recall_median_s'), 2)} s (median of"
        f" {cold.get('runs')})",
        _filtered_recall(results.get("filtered_recall") or {}),
        _hnsw_recall(results.get("hnsw_recall") or {}),
        "- share of the query tenant's memories the full-text query matches (OR of the query's lexemes): "
        + ", ".join(
            f"{x['memories_per_tenant']} per tenant: {x.get('keyword_match_share')}" for x in results["scales"]
        ),
        _janitor(results.get("janitor") or {}),
        _tenant_transfer(results.get("tenant_transfer") or {}),
        _second_encoder(results.get("second_encoder") or {}),
    ]


def _second_encoder(sec: dict[str, Any]) -> str:
    """The second encoder beside the default configuration (pymem_dev.bench.second_encoder)."""
    if not sec:
        return "- second encoder: not measured in this run (the mpnet extra is not installed, or --quick)"
    emb, vectors, rss = sec["query_embedding"], sec["vectors"], sec["peak_rss_mb"]
    return (
        f"- second encoder ({sec['model']}, PYMEM_SECOND_ENCODER), its leg over {vectors['rows']} vectors of the query"
        f" tenant at the largest scale: query embedding p95 {_fmt(emb.get('p95_ms'), 2)} ms; recall p95 SQL"
        f" {_fmt(sec['recall_sql']['p95_ms'])} ms, MCP {_fmt(sec['recall_mcp']['p95_ms'])} ms; search p95 SQL"
        f" {_fmt(sec['search_sql']['p95_ms'])} ms, MCP {_fmt(sec['search_mcp']['p95_ms'])} ms; ingest (embed +"
        f" memory_second_embedding_store) {_fmt(sec['ingest']['per_s'])} memories/s; peak RSS of a process with"
        f" MiniLM {rss['minilm']} MB, with both {rss['minilm+mpnet-qint8']} MB"
    )


def _tenant_transfer(tt: dict[str, Any]) -> str:
    if not tt:
        return "- tenant export and import: not measured in this run"
    bare, full, imp = tt["export"], tt["export_with_embeddings"], tt["import"]

    def rate(step: dict[str, Any]) -> str:
        return f"{_fmt(step.get('work_rows_per_s'))} rows/s ({_fmt(step['rows_per_s'])} with start-up)"

    return (
        f"- tenant export and import, {bare['rows']} rows (each a process; peak RSS beside `pymem --version`'s"
        f" {tt.get('baseline_rss_mb')} MB): `pymem export` {rate(bare)}, peak RSS {bare['peak_rss_mb']} MB"
        f" ({bare['file_mb']} MB); with embeddings {rate(full)}, peak RSS {full['peak_rss_mb']} MB"
        f" ({full['file_mb']} MB); `pymem import-tenant` of that file into a new tenant{_apart(tt)} {rate(imp)},"
        f" peak RSS {imp['peak_rss_mb']} MB"
    )


def _apart(tt: dict[str, Any]) -> str:
    where = tt.get("partitions") or {}
    if not where.get("target"):
        return ""
    if where["target"] == where.get("tenant"):
        return f" (in the exported tenant's partition {where['target']}: its vectors are duplicates there)"
    return f" (partition {where['target']}, not the exported tenant's {where.get('tenant')})"


def _filtered_recall(fr: dict[str, Any]) -> str:
    index = fr.get("index") or {}
    return (
        f"- filtered recall@10 (tenant of {fr.get('tenant_rows')} rows among {fr.get('table_rows')}, rows per"
        f" table {fr.get('tenant_rows_per_table')}, pymem.exact_search_rows {fr.get('exact_search_rows')}):"
        f" {_fmt(fr.get('recall_at_k'), 3)} as configured (min {_fmt(fr.get('min'), 3)}),"
        f" {_fmt(index.get('recall_at_k'), 3)} forced through the vector index"
        f" (min {_fmt(index.get('min'), 3)}); {fr.get('queries')} queries"
    )


def _hnsw_recall(hr: dict[str, Any]) -> str:
    return (
        f"- HNSW recall@10 ({hr.get('table')}, {hr.get('rows')} rows, {hr.get('queries')} queries, iterative scan"
        f" {hr.get('iterative_scan') or 'off'}; searches use ef_search {hr.get('ef_search')}:"
        f" {hr.get('settings_source')}) by hnsw.ef_search: "
        + ", ".join(
            f"{ef}: {_fmt(r['recall_at_k'], 3)} (p95 {_fmt(r['ann_latency'].get('p95_ms'))} ms)"
            for ef, r in (hr.get("by_ef_search") or {}).items()
        )
        + "".join(
            f"; {table} ({o.get('rows')} rows) at its own list {o.get('ef_search')}: {_fmt(o.get('recall_at_k'), 3)}"
            for table, o in (hr.get("other_tables") or {}).items()
        )
    )


def _embedding_queue(que: dict[str, Any]) -> str:
    if not que:
        return "- embedding worker: not measured in this run"
    return (
        f"- embedding worker: {_fmt(que.get('per_s'))} memories/s ({que.get('memories')} stored without an embedding in"
        f" one transaction, embedded in batches of {que.get('batch')}); at idle, commit to embedding in"
        f" {', '.join(_fmt(x, 3) for x in que.get('idle_latency_s') or [])} s"
    )


def _consolidation(con: dict[str, Any]) -> str:
    if not con:
        return "- consolidation: not measured in this run"
    return (
        f"- consolidation: {_fmt(con.get('per_s'))} episodes/s ({con.get('episodes')} chat turns of one tenant,"
        f" `pymem consolidate`'s batches of 100, built-in extractor; {con.get('facts')} facts, {con.get('rules')}"
        f" rules, {con.get('kept_for_review')} kept for review)"
    )


def _janitor(jan: dict[str, Any]) -> str:
    if jan.get("measured"):
        return f"- janitor: {_fmt(jan.get('seconds'))} s for {jan.get('memories')} memories {jan.get('summary')}"
    return f"- janitor: not measured ({jan.get('reason')})"


def _data(results: dict[str, Any]) -> list[str]:
    loads = [
        [f"{x['memories_per_tenant']} x {x['tenants']}", str(x["rows"]), _fmt(x["copy_s"]), _fmt(x["index_s"])]
        for x in results["data"]["loads"]
    ]
    return [
        "",
        "## How the data was made",
        "",
        *[f"- {note}" for note in results["data"]["notes"]],
        "",
        table(["load (per tenant x tenants)", "rows", "COPY + INSERT s", "vector indexes + VACUUM ANALYZE s"], loads),
        "",
    ]


def _phases(results: dict[str, Any]) -> list[str]:
    phases = results.get("phases") or []
    if not phases:
        return []
    return [
        "## Where the time went",
        "",
        table(
            ["phase", "s"],
            [[x["phase"], _fmt(x["seconds"])] for x in phases] + [["total (wall)", _fmt(results["wall_s"])]],
        ),
        "",
    ]


def _status(target: dict[str, Any]) -> str:
    if target["met"] is None:
        return "not measured"
    met = "yes" if target["met"] else "no"
    if target.get("goal") and target.get("goal_met") is not None:
        met += f" (goal: {'yes' if target['goal_met'] else 'no'})"
    return met
