"""The figures of README.md and docs/evaluation.md, written from the checked-in results so that they cannot
disagree with them: eval/results.json (`make eval`), bench/results.json (`make bench`) and
bench/results-100k.json (`make bench-100k`).

Each generated region of a page sits between two markers, and only what is between them is rewritten:

    <!-- figures:NAME -->
    ...
    <!-- /figures:NAME -->

    python tools/docs_figures.py          # rewrite the regions (make docs-figures)
    python tools/docs_figures.py --check  # exit 1, naming each region that differs (tests/test_docs_figures.py)

Prose outside the regions says what a figure means, never the figure itself; a run's figures against the
previous run's go to CHANGELOG.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pymem_dev.evaluation.tables import (
    BEIR_HEADER,
    CHAT_RETRIEVAL_HEADER,
    CONTEXT_REACH_HEADER,
    CONVERSATION_HEADER,
    EXTRACTION_HEADER,
    GROUNDING_HEADER,
    POISONING_HEADER,
    beir_rows,
    chat_retrieval_rows,
    context_reach_rows,
    conversation_rows,
    extraction_rows,
    grounding_rows,
    poisoning_rows,
)
from pymem_dev.reports import fmt, table

ROOT = Path(__file__).resolve().parent.parent
EVAL = "eval/results.json"
BENCH = "bench/results.json"
BENCH_100K = "bench/results-100k.json"

Results = dict[str, Any]
TIMES = "\N{MULTIPLICATION SIGN}"


# Formatting


def ms(value: Any) -> str:
    return fmt(value, 1)


def machine(m: dict[str, Any]) -> str:
    return (
        f"{m['cores']} cores ({m['cpu']}), PostgreSQL {m['postgresql']}, pgvector {m['pgvector']},"
        f" {m['model_id'].rsplit('/', 1)[-1]} {m.get('model_variant') or ''}".rstrip()
    )


def scale(bench: Results, per_tenant: int) -> dict[str, Any]:
    """The bench's scale of per_tenant memories per tenant."""
    for s in bench["scales"]:
        if s["memories_per_tenant"] == per_tenant:
            return dict(s)
    raise KeyError(f"no scale of {per_tenant} memories per tenant in the bench results")


def target(bench: Results, name: str) -> dict[str, Any]:
    return next(t for t in bench["targets"] if t["name"] == name)


def _digits(unit: str) -> int:
    """Decimals a target's measure is shown with: 0.936 recall, 1.05 s, 47.5 ms."""
    return 3 if unit in ("recall", "x") else 2 if unit == "s" else 1


def measured(t: dict[str, Any]) -> str:
    if t["measured"] is None:
        return "-"
    return f"{fmt(t['measured'], _digits(t['unit']))} {t['unit']}"


def met(t: dict[str, Any]) -> str:
    return "not measured" if t["met"] is None else ("met" if t["met"] else "missed")


def poisoning_split(eval_results: Results) -> str:
    """The split the poisoning figures are reported on: the newest held-out set the run has."""
    return next(s for s in ("heldout2", "heldout", "test") if s in eval_results["poisoning"])


# README.md: the quality and speed table


def readme_quality(ev: Results, bench: Results, bench_100k: Results) -> str:
    rows = retrieval_rows(ev) + lifecycle_rows(ev) + speed_rows(bench, bench_100k)
    return (
        f"From `{EVAL}` ({ev['machine']['date'][:10]}), `{BENCH}` ({bench['machine']['date'][:10]}) and"
        f" `{BENCH_100K}` ({bench_100k['machine']['date'][:10]}); {machine(ev['machine'])}:\n\n"
        + table(["measure", "latest run"], rows, pad=False)
    )


def retrieval_rows(ev: Results) -> list[list[str]]:
    """The README's rows on retrieval: the golden dataset, the relevance floor, the checks, BEIR."""
    golden = ev["golden"]
    hybrid, rerank = golden["modes"]["hybrid"], golden["modes"]["rerank"]
    dataset = golden["dataset"]
    floor = golden["recall_floor"]
    k = floor["k"]
    checks = [
        name
        for mode in golden["modes"].values()
        for name, c in mode["checks"].items()
        if c["kind"] in ("contradiction", "hallucination") and name != "no_answer_below_threshold" and c["failed"]
    ]
    isolation = hybrid["checks"]["tenant_isolation"]
    rows = [
        [
            f"golden dataset ({dataset['tenants']} tenants, {dataset['memories']} memories,"
            f" {dataset['questions_by_split']['test']} test questions), hybrid / with the relevance rerank",
            f"nDCG@10 {fmt(hybrid['overall']['ndcg@10'])} / {fmt(rerank['overall']['ndcg@10'])} (conversational"
            f" replies {fmt(hybrid['categories']['conversational']['ndcg@10'])} /"
            f" {fmt(rerank['categories']['conversational']['ndcg@10'])})",
        ],
        [
            "relevance floor (`memory_recall`)",
            f"nothing recalled for {round(floor['no_answer_nothing_recalled'] * floor['no_answer_questions'])} of"
            f" {floor['no_answer_questions']} off-topic questions; answerable R@{k}"
            f" {fmt(floor[f'answerable_r@{k}_floor'])} ({fmt(floor[f'answerable_r@{k}_no_floor'])} without the floor)",
        ],
        [
            "contradiction checks (superseded, retracted) and tenant isolation",
            ("pass in every mode" if not checks else "fail: " + ", ".join(sorted(set(checks))))
            + f" (isolation {isolation['passed']}/{isolation['passed'] + isolation['failed']})",
        ],
    ]
    beir = ev.get("beir")
    if beir:
        rows.append(
            [
                f"BEIR {beir['dataset']}, hybrid / rerank",
                f"nDCG@10 {fmt(beir['modes']['hybrid']['ndcg@10'])} / {fmt(beir['modes']['rerank']['ndcg@10'])}"
                " (published " + ", ".join(f"{name} {fmt(v)}" for name, v in beir.get("baselines", {}).items()) + ")",
            ]
        )
    return rows


def conversation_rows_of_readme(ev: Results) -> list[list[str]]:
    """The README's row on realistic chats (eval/conversations), when the run has it."""
    if "test" not in ev.get("conversations", {}):
        return []
    c = ev["conversations"]["test"]
    return [
        [
            f"the same, consolidating {c['conversations']} realistic multi-session chats ({c['turns']} held-out turns,"
            " `eval/conversations`)",
            f"{c['stored']} facts stored of {c['labelled']} labelled: precision {fmt(c['precision'])} (target 0.85),"
            f" recall {fmt(c['recall'])}, subject right {fmt(c['subject_right'])}; questions whose evidence gave a"
            f" fact {fmt(c['evidence_reachable_through_facts'])} (raw episodes"
            f" {fmt(c['evidence_reachable_through_episodes'])})",
        ]
    ]


def lifecycle_rows(ev: Results) -> list[list[str]]:
    """The README's rows on what is stored and shown: grounding, poisoning, consolidation, memory_context."""
    grounding = ev["grounding"]["test"]
    extraction = ev["extraction"]["test"]
    split = poisoning_split(ev)
    injection, benign = ev["poisoning"][split]["injection"], ev["poisoning"][split]["benign"]
    budgets = ev["golden"]["token_efficiency"]["budgets"]
    return [
        [
            f"grounded ingestion, {grounding['statements']} held-out labelled statements",
            f"accuracy {fmt(grounding['accuracy'])}; refused speculation: precision"
            f" {fmt(grounding['tier3']['precision'])}, recall {fmt(grounding['tier3']['recall'])}",
        ],
        [
            f"memory poisoning, {injection['episodes']} injection and {benign['episodes']} benign rule-like episodes"
            + (f" held out (`eval/poisoning/{split}.jsonl`)" if split.startswith("heldout") else " (test half)"),
            f"injections that became an approved rule or fact {injection['approved']}"
            f" ({injection['reference_approved']} before the guards; target 0), in the System block after five"
            f" helpful marks {injection['in_system_after_helpful']}; benign episodes extracted"
            f" {benign['approved']} ({benign['reference_approved']} before the guards)",
        ],
        [
            f"consolidation's built-in extractor, {extraction['episodes']} held-out chat episodes",
            f"precision {fmt(extraction['precision'])} (target > 0.85), recall {fmt(extraction['recall'])}",
        ],
        *conversation_rows_of_readme(ev),
        [
            "`memory_context` (five blocks) against the most recent memories in the same tokens",
            "coverage "
            + " / ".join(f"{r['block']:.2f}" for r in budgets)
            + " against "
            + " / ".join(f"{r['baseline']:.2f}" for r in budgets)
            + " at "
            + " / ".join(str(r["budget"]) for r in budgets)
            + " tokens",
        ],
    ]


def speed_rows(bench: Results, bench_100k: Results) -> list[list[str]]:
    """The README's rows on speed: recall and search through MCP at 10k and 100k per tenant, the targets."""
    small, large = scale(bench, 10000), scale(bench_100k, 100000)
    recall_100k = target(bench_100k, "recall_e2e_p95_ms_100k")
    search_100k = target(bench_100k, "search_e2e_p95_ms_100k")
    return [
        [
            f"`memory_recall` / `memory_search` through MCP, 10k memories {TIMES} {small['tenants']} tenants",
            f"p95 {ms(small['recall_mcp']['p95_ms'])} / {ms(small['search_mcp']['p95_ms'])} ms",
        ],
        [
            f"`memory_recall` / `memory_search` through MCP, 100k memories {TIMES} {large['tenants']} tenants",
            f"p95 {ms(large['recall_mcp']['p95_ms'])} / {ms(large['search_mcp']['p95_ms'])} ms (targets"
            f" {recall_100k['target'].strip('<= ')} / {search_100k['target'].strip('<= ')} ms: {met(recall_100k)} /"
            f" {met(search_100k)}, see [At scale](docs/scale.md))",
        ],
        ["query embedding", f"p95 {ms(bench['query_embedding']['p95_ms'])} ms"],
        ["speed targets met", f"at 10k per tenant {targets_met(bench)}; at 100k per tenant {targets_met(bench_100k)}"],
    ]


def targets_met(bench: Results) -> str:
    measured = [t for t in bench["targets"] if t["met"] is not None]
    missed = [t for t in measured if not t["met"]]
    text = f"{len(measured) - len(missed)} of {len(measured)} measured"
    if missed:
        text += (
            " (missed: "
            + ", ".join(f"`{t['name']}` {fmt(t['measured'], _digits(t['unit']))} {t['unit']}" for t in missed)
            + ")"
        )
    return text


# docs/evaluation.md


def eval_run(ev: Results) -> str:
    return f"Run of {ev['machine']['date']} on {machine(ev['machine'])} (`{EVAL}`, {ev['seconds']:.0f} s)."


def golden_tables(ev: Results) -> str:
    golden = ev["golden"]
    modes = golden["modes"]
    k = golden["k"]
    overall = table(
        ["mode", f"P@{k}", f"R@{k}", "MRR", "nDCG@10", "p50 ms", "p95 ms"],
        [
            [
                mode,
                fmt(f["overall"][f"p@{k}"]),
                fmt(f["overall"][f"r@{k}"]),
                fmt(f["overall"]["mrr"]),
                fmt(f["overall"]["ndcg@10"]),
                ms(f["overall"]["latency_ms_p50"]),
                ms(f["overall"]["latency_ms_p95"]),
            ]
            for mode, f in modes.items()
        ],
    )
    first = next(iter(modes.values()))
    by_category = table(
        ["category", "questions", *(f"{m} nDCG@10 / MRR" for m in modes)],
        [
            [
                category,
                str(first["categories"][category]["questions"]),
                *(
                    f"{fmt(f['categories'][category]['ndcg@10'])} / {fmt(f['categories'][category]['mrr'])}"
                    if f["categories"][category]["scored"]
                    else "(checks only)"
                    for f in modes.values()
                ),
            ]
            for category in first["categories"]
        ],
    )
    order = {"contradiction": 0, "hallucination": 1, "ranking": 2}
    names = sorted(first["checks"], key=lambda n: (order.get(first["checks"][n]["kind"], 9), n))

    def cell(check: dict[str, Any]) -> str:
        failures = check["failures"]
        shown = f" ({', '.join(failures[:4])}{', ...' if len(failures) > 4 else ''})" if check["failed"] else ""
        return f"{check['passed']}/{check['passed'] + check['failed']}{shown}"

    checks = table(
        ["check", "kind", *modes],
        [[n, first["checks"][n]["kind"], *(cell(f["checks"][n]) for f in modes.values())] for n in names],
    )
    dataset = golden["dataset"]
    return "\n\n".join(
        [
            eval_run(ev),
            f"**Golden dataset**: {dataset['memories']} memories, {dataset['questions_by_split']['test']} test"
            f" questions, {dataset['tenants']} tenants (k = {k}):",
            overall,
            "Per category (nDCG@10 / MRR):",
            by_category,
            "Checks (passed/total; failing question ids). No-answer thresholds: semantic >="
            f" {golden['thresholds']['min_semantic']} (keyword mode: keyword >="
            f" {golden['thresholds']['min_keyword']}).",
            checks,
        ]
    )


def reliability(judged: dict[str, Any]) -> str:
    rank, calibrated = judged["rank_relevance"], judged["calibrated"]
    return (
        f"{judged['rows']} rows, {judged['relevant_rows']} relevant: AUC {fmt(rank['auc'])} as a rank,"
        f" {fmt(calibrated['auc'])} calibrated; Brier {fmt(rank['brier'])} as a rank, {fmt(calibrated['brier'])}"
        " calibrated; predicted / observed per bin: "
        + ", ".join(
            f"{b['bin']} {fmt(b['mean_predicted'])} / {fmt(b['observed_relevant'])} ({b['rows']} rows)"
            for b in calibrated["reliability"]
            if b["rows"]
        )
    )


def relevance_figures(ev: Results) -> str:
    golden = ev["golden"]
    floor = golden["recall_floor"]
    k = floor["k"]
    models = ev.get("relevance_model", {})
    lines = [f"- golden test questions, the hybrid top {golden['k']}: {reliability(golden['calibration'])}"]
    if "beir" in ev and "calibration" in ev["beir"]:
        c = ev["beir"]["calibration"]
        lines.append(
            f"- {ev['beir']['dataset']} {ev['beir']['split']}, {c['mode']} rows at depth {c['depth']}:"
            f" {reliability(c[ev['beir']['split']])}"
        )
    lines.append(
        "- the floors in force: " + ", ".join(f"{variant} {m['default_floor']}" for variant, m in models.items())
    )
    recall = table(
        [f"memory_recall, limit {k}", "without the floor", "with the floor"],
        [
            [
                f"no-answer questions ({floor['no_answer_questions']}) with nothing recalled",
                "-",
                f"{round(floor['no_answer_nothing_recalled'] * floor['no_answer_questions'])} of"
                f" {floor['no_answer_questions']}",
            ],
            [
                f"near misses ({floor['near_miss_questions']}) with nothing recalled",
                "-",
                f"{round(floor['near_miss_nothing_recalled'] * floor['near_miss_questions'])} of"
                f" {floor['near_miss_questions']}",
            ],
            [
                f"answerable questions' R@{k} of their facts and rules",
                fmt(floor[f"answerable_r@{k}_no_floor"]),
                fmt(floor[f"answerable_r@{k}_floor"]),
            ],
            [
                "memories recalled per question",
                fmt(floor["mean_recalled_no_floor"], 1),
                fmt(floor["mean_recalled_floor"], 1),
            ],
        ],
    )
    return "\n".join(lines) + "\n\n" + recall


def beir_tables(ev: Results) -> str:
    beir = ev.get("beir")
    if not beir:
        return "(this run of `make eval` had no BEIR data set: `../shared/data/scifact` was not there)"
    return (
        f"**BEIR {beir['dataset']}** ({beir['split']}: {beir['queries']} queries, {beir['documents']} documents):\n\n"
        + table(BEIR_HEADER, beir_rows(beir))
    )


def grounding_table(ev: Results) -> str:
    return table(GROUNDING_HEADER, grounding_rows(ev["grounding"], named=True))


def extraction_table(ev: Results) -> str:
    return table(EXTRACTION_HEADER, extraction_rows(ev["extraction"]))


def conversation_table(ev: Results) -> str:
    if "conversations" not in ev:
        return "Not measured in this run.\n"
    text = table(CONVERSATION_HEADER, conversation_rows(ev["conversations"]))
    if "conversation_context" in ev:
        text += (
            "\n\nThe same chats, nothing consolidated: questions whose evidence turn is in memory_search's top 5 and in"
            f" the {ev['conversation_context']['budget']}-token memory_context block (target: the block at least the"
            " top 5 minus 0.10):\n\n" + table(CONTEXT_REACH_HEADER, context_reach_rows(ev["conversation_context"]))
        )
    return text


def chat_retrieval_table(ev: Results) -> str:
    if "chat_retrieval" not in ev:
        return "Not measured in this run.\n"
    return table(CHAT_RETRIEVAL_HEADER, chat_retrieval_rows(ev["chat_retrieval"]))


def poisoning_table(ev: Results) -> str:
    p = ev["poisoning"]
    return f'"Before" is commit {p["reference_commit"]}, without the guards, measured the same way.\n\n' + table(
        POISONING_HEADER, poisoning_rows(p, before="before")
    )


def token_efficiency_table(ev: Results) -> str:
    te = ev["golden"]["token_efficiency"]
    return f"{te['questions']} answerable golden test questions:\n\n" + table(
        [
            "budget (tokens)",
            "baseline",
            "memory_context",
            "memory_context at half",
            "50% fewer",
            "memory_context at 70%",
            "30% fewer",
        ],
        [
            [
                str(r["budget"]),
                fmt(r["baseline"]),
                fmt(r["block"]),
                f"{fmt(r['block_at_half'])} ({r['budget'] // 2} tokens)",
                "met" if r["met"] else "missed",
                f"{fmt(r['block_at_70pct'])} ({r['budget'] * 7 // 10} tokens)",
                "met" if r["met_30pct"] else "missed",
            ]
            for r in te["budgets"]
        ],
    )


def bench_tables(bench: Results) -> str:
    m = bench["machine"]
    targets = table(
        ["target", "measured", "target", "goal", "met", "measured at"],
        [
            [
                f"`{t['name']}`",
                measured(t),
                f"{t['target']} {t['unit']}",
                f"{t['goal']} {t['unit']}" if t.get("goal") else "-",
                met(t),
                t.get("measured_at") or "-",
            ]
            for t in bench["targets"]
        ],
    )
    latency = []
    for s in bench["scales"]:
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
                    f"{s['memories_per_tenant']} x {s['tenants']}",
                    str(s["rows_total"]),
                    name,
                    ms(st.get("p50_ms")),
                    ms(st.get("p95_ms")),
                    ms(st.get("p99_ms")),
                ]
            )
    ingest, embed, cold = bench["ingest"], bench["query_embedding"], bench["cold_start"]
    hnsw, janitor = bench.get("hnsw_recall") or {}, bench.get("janitor") or {}
    other = [
        f"- ingest through the MCP tools: {fmt(ingest['mcp']['per_s'], 1)} memories/s; in batches:"
        f" {fmt(ingest['batch']['per_s'], 1)} memories/s",
        f"- query embedding: p50 {fmt(embed['p50_ms'], 2)} ms, p95 {fmt(embed['p95_ms'], 2)} ms",
        f"- `pymem serve` cold start: first tool call after {fmt(cold['first_call_median_s'], 2)} s (median of"
        f" {cold['runs']})",
        f"- HNSW recall@10 ({hnsw.get('table')}, {hnsw.get('rows')} rows) by hnsw.ef_search: "
        + ", ".join(f"{ef}: {fmt(r['recall_at_k'])}" for ef, r in (hnsw.get("by_ef_search") or {}).items()),
        f"- janitor: {fmt(janitor.get('seconds'), 1)} s for {janitor.get('memories')} memories",
    ]
    return "\n\n".join(
        [
            f"Run of {m['date']} in {bench['wall_s']:.0f} s on {machine(m)} (`{BENCH}`; every figure of the run:"
            " `bench/results.md`).",
            targets,
            "Latency by scale (ms; search: hybrid, limit 20; recall: limit 10; one tenant under row-level security):",
            table(["memories per tenant x tenants", "rows", "call", "p50", "p95", "p99"], latency),
            "\n".join(other),
        ]
    )


def bench_100k_lines(bench: Results) -> str:
    large = scale(bench, 100000)
    lines = [
        f"`make bench-100k` of {bench['machine']['date']} (`{BENCH_100K}`), {large['tenants']} tenants of 100k"
        f" memories ({large['rows_total']} rows):",
        "",
    ]
    lines += [f"- `{t['name']}`: {measured(t)} (target {t['target']} {t['unit']}): {met(t)}" for t in bench["targets"]]
    return "\n".join(lines)


# The regions

Renderer = Callable[[Results, Results, Results], str]
REGIONS: dict[str, dict[str, Renderer]] = {
    "README.md": {"quality": readme_quality},
    "docs/evaluation.md": {
        "golden": lambda ev, b, b100: golden_tables(ev),
        "relevance": lambda ev, b, b100: relevance_figures(ev),
        "beir": lambda ev, b, b100: beir_tables(ev),
        "grounding": lambda ev, b, b100: grounding_table(ev),
        "extraction": lambda ev, b, b100: extraction_table(ev),
        "poisoning": lambda ev, b, b100: poisoning_table(ev),
        "conversations": lambda ev, b, b100: conversation_table(ev),
        "chat-retrieval": lambda ev, b, b100: chat_retrieval_table(ev),
        "token-efficiency": lambda ev, b, b100: token_efficiency_table(ev),
        "bench": lambda ev, b, b100: bench_tables(b),
        "bench-100k": lambda ev, b, b100: bench_100k_lines(b100),
    },
}


def region_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{re.escape(name)} -->\n)(.*?)(<!-- /figures:{re.escape(name)} -->)", re.DOTALL)


def load(root: Path) -> tuple[Results, Results, Results]:
    ev, bench, bench_100k = (json.loads((root / path).read_text()) for path in (EVAL, BENCH, BENCH_100K))
    return ev, bench, bench_100k


def write_region(pattern: re.Pattern[str], text: str, figures: str) -> str:
    """text with the region of pattern holding figures (a blank line after the opening marker and before the
    closing one)."""
    body = "\n" + figures.rstrip("\n") + "\n\n"
    return pattern.sub(lambda m: m.group(1) + body + m.group(3), text)


def rendered(root: Path = ROOT) -> dict[str, str]:
    """Every page with its regions written from the results under root."""
    results = load(root)
    pages = {}
    for page, regions in REGIONS.items():
        text = (root / page).read_text()
        for name, render in regions.items():
            pattern = region_pattern(name)
            if not pattern.search(text):
                raise ValueError(f"{page}: no region '{name}' (<!-- figures:{name} --> ... <!-- /figures:{name} -->)")
            text = write_region(pattern, text, render(*results))
        pages[page] = text
    return pages


def stale(root: Path = ROOT) -> list[str]:
    """The regions whose checked-in text differs from what the results give, as 'page: region'."""
    out = []
    for page, text in rendered(root).items():
        current = (root / page).read_text()
        for name in REGIONS[page]:
            want, have = region_pattern(name).search(text), region_pattern(name).search(current)
            if want is None or have is None or want.group(2) != have.group(2):
                out.append(f"{page}: {name}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if a region differs from the results")
    parser.add_argument("--root", type=Path, default=ROOT, help="the repository (default: this checkout)")
    args = parser.parse_args(argv)
    if args.check:
        differing = stale(args.root)
        for region in differing:
            print(f"out of date: {region} (run make docs-figures)", file=sys.stderr)
        return 1 if differing else 0
    for page, text in rendered(args.root).items():
        path = args.root / page
        if path.read_text() != text:
            path.write_text(text)
            print(f"wrote {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
