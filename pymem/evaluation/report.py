"""The printed tables of `pymem eval` (GitHub markdown, readable in a terminal) and the machine facts."""

from __future__ import annotations

import math
import os
import platform
from typing import Any

import psycopg


def _num(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, rows)])


def golden_tables(result: dict[str, Any]) -> str:
    k = result["k"]
    modes = result["modes"]
    overall = table(
        ["mode", f"P@{k}", f"R@{k}", "MRR", "nDCG@10", "p50 ms", "p95 ms"],
        [
            [
                mode,
                _num(f["overall"][f"p@{k}"]),
                _num(f["overall"][f"r@{k}"]),
                _num(f["overall"]["mrr"]),
                _num(f["overall"]["ndcg@10"]),
                _num(f["overall"]["latency_ms_p50"], 1),
                _num(f["overall"]["latency_ms_p95"], 1),
            ]
            for mode, f in modes.items()
        ],
    )
    categories: list[str] = []
    for f in modes.values():
        categories.extend(c for c in f["categories"] if c not in categories)
    first = next(iter(modes.values()))
    by_category = table(
        ["category", "questions", *(f"{m} nDCG@10 / MRR" for m in modes)],
        [
            [
                c,
                str(first["categories"][c]["questions"]),
                *(
                    f"{_num(f['categories'][c]['ndcg@10'])} / {_num(f['categories'][c]['mrr'])}"
                    if f["categories"][c]["scored"]
                    else "(checks only)"
                    for f in modes.values()
                ),
            ]
            for c in categories
        ],
    )
    names: list[str] = []
    for f in modes.values():
        names.extend(n for n in f["checks"] if n not in names)
    kinds = {n: c["kind"] for f in modes.values() for n, c in f["checks"].items()}
    order = {"contradiction": 0, "hallucination": 1, "ranking": 2}
    names.sort(key=lambda n: (order.get(kinds[n], 9), n))

    def cell(check: dict[str, Any] | None) -> str:
        if check is None:
            return "-"
        total = check["passed"] + check["failed"]
        failed = f" ({', '.join(check['failures'][:4])}{', ...' if len(check['failures']) > 4 else ''})"
        return f"{check['passed']}/{total}" + (failed if check["failed"] else "")

    checks = table(
        ["check", "kind", *modes],
        [[n, kinds[n], *(cell(f["checks"].get(n)) for f in modes.values())] for n in names],
    )
    return "\n\n".join(
        [
            f"### Golden dataset: {result['dataset']['memories']} memories, {result['dataset']['questions']} questions,"
            f" {result['dataset']['tenants']} tenants (k = {k})",
            overall,
            "Per category (nDCG@10 / MRR):",
            by_category,
            f"Checks (passed/total; failing question ids). No-answer thresholds: semantic >= "
            f"{result['thresholds']['min_semantic']} (keyword mode: keyword >= {result['thresholds']['min_keyword']}).",
            checks,
        ]
    )


def beir_tables(result: dict[str, Any]) -> str:
    rows = []
    for mode, f in result["modes"].items():
        c = f["config"]
        rows.append(
            [
                mode,
                _num(f["ndcg@10"]),
                _num(f["recall@100"]),
                _num(f["mrr@10"]),
                _num(f["latency_ms_p50"], 1),
                _num(f["latency_ms_p95"], 1),
                str(c["depth"]),
                str(c["rrf_k"]) if mode == "hybrid" else "-",
                f"{c['vector_weight']}/{c['keyword_weight']}" if mode == "weighted" else "-",
            ]
        )
    for name, value in result.get("baselines", {}).items():
        rows.append([f"published {name}", _num(value), "-", "-", "-", "-", "-", "-", "-"])
    labels = {
        "bm25": "reference: BM25 on pymem's lexemes",
        "semantic_exact": "reference: exact cosine",
        "rrf_bm25_semantic": "reference: RRF(BM25, exact cosine)",
    }
    for name, label in labels.items():
        f = result.get("reference", {}).get(name)
        if f is not None:
            scores = [_num(f["ndcg@10"]), _num(f["recall@100"]), _num(f["mrr@10"])]
            rows.append([label, *scores, "-", "-", str(f.get("depth", "-")), str(f.get("rrf_k", "-")), "-"])
    text = table(["mode", "nDCG@10", "R@100", "MRR@10", "p50 ms", "p95 ms", "depth", "rrf_k", "weights v/k"], rows)
    title = (
        f"### BEIR {result['dataset']} ({result['split']}: {result['queries']} queries,"
        f" {result['documents']} documents)"
    )
    parts = [title, text]
    if "tuning" in result:
        t = result["tuning"]
        parts.append(
            f"Tuned on {t['queries']} {t['split']} queries ({len(t['trials'])} trials):"
            f" hybrid {t['hybrid']}, weighted {t['weighted']}."
        )
    return "\n\n".join(parts)


def machine(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    row = conn.execute(
        "select current_setting('server_version'), (select extversion from pg_extension where extname = 'vector')"
    ).fetchone()
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "postgres": row[0] if row else None,
        "pgvector": row[1] if row else None,
    }
