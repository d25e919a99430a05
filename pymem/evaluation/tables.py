"""The printed tables of `pymem eval` (GitHub markdown, readable in a terminal): the golden dataset's
and BEIR's figures under the environment header."""

from __future__ import annotations

from typing import Any

from pymem.reports import fmt, table


def golden_tables(result: dict[str, Any]) -> str:
    k = result["k"]
    modes = result["modes"]
    overall = table(
        ["mode", f"P@{k}", f"R@{k}", "MRR", "nDCG@10", "p50 ms", "p95 ms"],
        [
            [
                mode,
                fmt(f["overall"][f"p@{k}"]),
                fmt(f["overall"][f"r@{k}"]),
                fmt(f["overall"]["mrr"]),
                fmt(f["overall"]["ndcg@10"]),
                fmt(f["overall"]["latency_ms_p50"], 1),
                fmt(f["overall"]["latency_ms_p95"], 1),
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
                    f"{fmt(f['categories'][c]['ndcg@10'])} / {fmt(f['categories'][c]['mrr'])}"
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
                fmt(f["ndcg@10"]),
                fmt(f["recall@100"]),
                fmt(f["mrr@10"]),
                fmt(f["latency_ms_p50"], 1),
                fmt(f["latency_ms_p95"], 1),
                str(c["depth"]),
                str(c["rrf_k"]) if mode == "hybrid" else "-",
                f"{c['vector_weight']}/{c['keyword_weight']}" if mode == "weighted" else "-",
            ]
        )
    for name, value in result.get("baselines", {}).items():
        rows.append([f"published {name}", fmt(value), "-", "-", "-", "-", "-", "-", "-"])
    labels = {
        "bm25": "reference: BM25 on pymem's lexemes",
        "semantic_exact": "reference: exact cosine",
        "rrf_bm25_semantic": "reference: RRF(BM25, exact cosine)",
    }
    for name, label in labels.items():
        f = result.get("reference", {}).get(name)
        if f is not None:
            scores = [fmt(f["ndcg@10"]), fmt(f["recall@100"]), fmt(f["mrr@10"])]
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


def tables(result: dict[str, Any]) -> str:
    """Everything `pymem eval` prints: the environment line, the golden tables and (if run) BEIR's."""
    env = result["machine"]
    parts = [
        f"pymem eval: model {result['model']}, PostgreSQL {env['postgresql']}, pgvector {env['pgvector']},"
        f" {env['cores']} CPUs",
        golden_tables(result["golden"]),
    ]
    if "beir" in result:
        parts.append(beir_tables(result["beir"]))
    return "\n\n".join(parts)
