"""The printed tables of `pymem eval` (GitHub markdown, readable in a terminal): the golden dataset's
and BEIR's figures under the environment header."""

from __future__ import annotations

from typing import Any

from pymem_dev.reports import fmt, table


def golden_tables(result: dict[str, Any]) -> str:
    k = result["k"]
    modes = result["modes"]
    parts = [
        f"### Golden dataset: {result['dataset']['memories']} memories, {result['dataset']['questions']} questions"
        f" ({_splits(result['dataset'])}), {result['dataset']['tenants']} tenants (k = {k}); test questions only",
        _golden_overall(k, modes),
        "Per category (nDCG@10 / MRR):",
        _golden_by_category(modes),
        f"Checks (passed/total; failing question ids). No-answer thresholds: semantic >= "
        f"{result['thresholds']['min_semantic']} (keyword mode: keyword >= {result['thresholds']['min_keyword']}).",
        _golden_checks(modes),
    ]
    if "calibration" in result:
        parts.append(relevance_line("Relevance of the hybrid top 10", result["calibration"]))
    floor = result.get("recall_floor")
    if floor:
        parts.append(_recall_floor_line(floor))
    if result.get("token_efficiency"):
        parts.append(token_efficiency_table(result["token_efficiency"]))
    return "\n\n".join(parts)


def _golden_overall(k: int, modes: dict[str, Any]) -> str:
    return table(
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


def _golden_by_category(modes: dict[str, Any]) -> str:
    categories: list[str] = []
    for f in modes.values():
        categories.extend(c for c in f["categories"] if c not in categories)
    first = next(iter(modes.values()))
    return table(
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


def _check_cell(check: dict[str, Any] | None) -> str:
    if check is None:
        return "-"
    total = check["passed"] + check["failed"]
    failed = f" ({', '.join(check['failures'][:4])}{', ...' if len(check['failures']) > 4 else ''})"
    return f"{check['passed']}/{total}" + (failed if check["failed"] else "")


def _golden_checks(modes: dict[str, Any]) -> str:
    names: list[str] = []
    for f in modes.values():
        names.extend(n for n in f["checks"] if n not in names)
    kinds = {n: c["kind"] for f in modes.values() for n, c in f["checks"].items()}
    order = {"contradiction": 0, "hallucination": 1, "ranking": 2}
    names.sort(key=lambda n: (order.get(kinds[n], 9), n))
    return table(
        ["check", "kind", *modes],
        [[n, kinds[n], *(_check_cell(f["checks"].get(n)) for f in modes.values())] for n in names],
    )


def _recall_floor_line(floor: dict[str, Any]) -> str:
    fk = floor["k"]
    return (
        f"memory_recall with its relevance floor: nothing recalled for {fmt(floor['no_answer_nothing_recalled'])}"
        f" of the {floor['no_answer_questions']} no-answer questions"
        + (
            f" and {fmt(floor['near_miss_nothing_recalled'])} of the {floor['near_miss_questions']} near misses"
            if floor.get("near_miss_questions")
            else ""
        )
        + f"; answerable questions' R@{floor['k']} of"
        f" facts and rules {fmt(floor[f'answerable_r@{fk}_floor'])} (without the floor"
        f" {fmt(floor[f'answerable_r@{fk}_no_floor'])}); memories recalled per question"
        f" {fmt(floor['mean_recalled_floor'], 1)} (without {fmt(floor['mean_recalled_no_floor'], 1)})."
    )


def _splits(dataset: dict[str, Any]) -> str:
    splits = dataset.get("questions_by_split") or {}
    return ", ".join(f"{n} {s}" for s, n in splits.items()) or "test"


def relevance_line(label: str, judged: dict[str, Any]) -> str:
    """AUC and Brier score of the calibrated relevance beside the rank-based relevance of before."""
    rank, calibrated = judged["rank_relevance"], judged["calibrated"]
    return (
        f"{label} ({judged['rows']} rows, {judged['relevant_rows']} relevant): AUC rank-based {fmt(rank['auc'])},"
        f" calibrated {fmt(calibrated['auc'])}; Brier {fmt(rank['brier'])} -> {fmt(calibrated['brier'])};"
        " reliability (predicted / observed per bin): "
        + ", ".join(
            f"{b['bin']} {fmt(b['mean_predicted'])}/{fmt(b['observed_relevant'])} ({b['rows']})"
            for b in calibrated["reliability"]
            if b["rows"]
        )
    )


BEIR_HEADER = ["mode", "nDCG@10", "R@100", "MRR@10", "p50 ms", "p95 ms", "depth", "rrf_k", "weights v/k"]


def beir_rows(result: dict[str, Any]) -> list[list[str]]:
    """The rows of the BEIR table (BEIR_HEADER): each mode, the published baselines and the references."""
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
                str(c["rrf_k"]) if mode in ("hybrid", "rerank") else "-",
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
    return rows


def beir_tables(result: dict[str, Any]) -> str:
    rows = beir_rows(result)
    text = table(BEIR_HEADER, rows)
    title = (
        f"### BEIR {result['dataset']} ({result['split']}: {result['queries']} queries,"
        f" {result['documents']} documents)"
    )
    parts = [title, text]
    if "calibration" in result:
        c = result["calibration"]
        parts.append(relevance_line(f"Relevance, {c['mode']} rows at depth {c['depth']}", c[result["split"]]))
    if "tuning" in result:
        t = result["tuning"]
        parts.append(
            f"Tuned on {t['queries']} {t['split']} queries ({len(t['trials'])} trials):"
            f" hybrid {t['hybrid']}, weighted {t['weighted']}."
        )
    return "\n\n".join(parts)


GROUNDING_HEADER = ["split", "tier", "labelled", "decided", "precision", "recall"]
TIER_NAMES = {1: "approved", 2: "kept for review", 3: "refused"}


def grounding_rows(result: dict[str, Any], *, named: bool = False) -> list[list[str]]:
    """Per split, a row per tier of memory_ingestion_tier (named: "1 approved") and one for all (shared with
    tools/docs_figures)."""
    rows = []
    for split in ("test", "dev"):
        f = result[split]
        for tier in (1, 2, 3):
            t = f[f"tier{tier}"]
            label = f"{tier} {TIER_NAMES[tier]}" if named else str(tier)
            rows.append([split, label, str(t["labelled"]), str(t["decided"]), fmt(t["precision"]), fmt(t["recall"])])
        rows.append([split, "all", str(f["statements"]), "", f"accuracy {fmt(f['accuracy'])}", ""])
    return rows


def grounding_tables(result: dict[str, Any]) -> str:
    """Grounded ingestion: precision and recall per tier of memory_ingestion_tier on the labelled statements."""
    return (
        "Grounded ingestion (eval/grounding/statements.jsonl; tiers 1 approved, 2 kept for review, 3 refused;"
        " the rules were written on dev, test is held out):\n\n" + table(GROUNDING_HEADER, grounding_rows(result))
    )


def token_efficiency_table(result: dict[str, Any]) -> str:
    """memory_context against the most recent memories packed into the same tokens."""
    rows = [
        [
            str(r["budget"]),
            fmt(r["baseline"]),
            fmt(r["block"]),
            f"{fmt(r['block_at_half'])} ({r['budget'] // 2} tokens)",
            "yes" if r["met"] else "no",
            f"{fmt(r['block_at_70pct'])} ({r['budget'] * 7 // 10} tokens)",
            "yes" if r["met_30pct"] else "no",
        ]
        for r in result["budgets"]
    ]
    return (
        f"Token efficiency of memory_context ({result['questions']} answerable test questions; coverage = share of"
        " a question's relevant memories in the block; baseline = the most recent memories of the same pool packed"
        " into the same tokens):\n\n"
        + table(
            [
                "budget (tokens)",
                "baseline",
                "memory_context",
                "memory_context at half",
                "50% fewer",
                "memory_context at 70%",
                "30% fewer (the spec's)",
            ],
            rows,
        )
    )


EXTRACTION_HEADER = ["split", "episodes", "expected", "extracted", "matched", "precision", "recall"]


def extraction_rows(result: dict[str, Any]) -> list[list[str]]:
    """A row per split of the built-in extractor's figures (shared with tools/docs_figures)."""
    return [
        [
            split,
            str(result[split]["episodes"]),
            str(result[split]["expected"]),
            str(result[split]["extracted"]),
            str(result[split]["matched"]),
            fmt(result[split]["precision"]),
            fmt(result[split]["recall"]),
        ]
        for split in ("test", "dev")
    ]


def extraction_tables(result: dict[str, Any]) -> str:
    """Consolidation's built-in extractor: precision and recall on the golden extraction set."""
    return (
        "Consolidation, built-in extractor (eval/extraction/episodes.jsonl; the patterns were written on dev, test is"
        " held out; the target is precision > 0.85):\n\n" + table(EXTRACTION_HEADER, extraction_rows(result))
    )


def conversation_rows(result: dict[str, Any]) -> list[list[str]]:
    """A row per split of eval/conversations: consolidation of realistic chats (shared with tools/docs_figures)."""
    return [
        [
            split,
            str(result[split]["turns"]),
            str(result[split]["labelled"]),
            str(result[split]["stored"]),
            fmt(result[split]["precision"]),
            fmt(result[split]["recall"]),
            fmt(result[split]["subject_right"]),
            f"{fmt(result[split]['evidence_reachable_through_facts'])} /"
            f" {fmt(result[split]['evidence_reachable_through_episodes'])}",
        ]
        for split in ("test", "dev")
        if split in result
    ]


CONVERSATION_HEADER = [
    "split",
    "turns",
    "labelled facts",
    "facts stored",
    "precision",
    "recall",
    "subject right",
    "questions reachable: facts / episodes",
]


def conversation_tables(result: dict[str, Any]) -> str:
    """Consolidation of realistic multi-session chats (eval/conversations)."""
    return (
        "Consolidation of realistic chats (eval/conversations/chats.jsonl, built-in extractor; written on dev, test"
        " is held out; targets on test: precision >= 0.85, subject right >= 0.95):\n\n"
        + table(CONVERSATION_HEADER, conversation_rows(result))
    )


CONTEXT_REACH_HEADER = ["split", "questions", "memory_search top 5", "600-token block", "met"]


def context_reach_rows(result: dict[str, Any]) -> list[list[str]]:
    """A row per split: questions of eval/conversations whose evidence turn memory_search's top 5 and the
    memory_context block reach (shared with tools/docs_figures)."""
    return [
        [
            split,
            str(result[split]["questions"]),
            fmt(result[split]["search_share"]),
            fmt(result[split]["block_share"]),
            "yes" if result[split]["met"] else "no",
        ]
        for split in ("test", "dev")
        if split in result
    ]


def context_reach_tables(result: dict[str, Any]) -> str:
    return (
        "Older turns of long chats in the context block (eval/conversations, episodes only; target: the block at"
        " least memory_search's top 5 minus 0.10):\n\n" + table(CONTEXT_REACH_HEADER, context_reach_rows(result))
    )


CHAT_RETRIEVAL_HEADER = [
    "split",
    "chats",
    "kind",
    "questions",
    "BM25 R@5 / R@10 / nDCG@10",
    "MiniLM alone",
    "pymem hybrid",
    "hybrid, assistant turns at 1",
    "mpnet alone",
    "hybrid + mpnet leg",
    "+ mpnet leg, assistant turns at 1",
    "recall R@10 floor / no floor",
    "labelled facts: recall R@10 floor / no floor",
]
CHAT_SOURCES = {"chats": "short chats", "long_chats": "long histories", "all": "both"}


def chat_retrieval_rows(result: dict[str, Any], split: str = "test") -> list[list[str]]:
    """A row per source and kind of question (shared with tools/docs_figures)."""

    def legs(figures: dict[str, Any]) -> str:
        return " / ".join(fmt(figures[m]) for m in ("r@5", "r@10", "ndcg@10")) if figures else "-"

    rows = []
    for source, kinds in result.get("by_kind", {}).get(split, {}).items():
        for kind, f in kinds.items():
            if kind in ("unanswerable", "off_topic_silent"):
                continue
            floors = " / ".join(fmt(f.get(k)) for k in ("recall_floor@10", "recall_no_floor@10"))
            labelled = " / ".join(fmt(f.get(k)) for k in ("facts_floor@10", "facts_no_floor@10"))
            rows.append(
                [
                    split,
                    CHAT_SOURCES.get(source, source),
                    kind,
                    str(f["questions"]),
                    legs(f.get("bm25", {})),
                    legs(f.get("cosine", {})),
                    legs(f.get("hybrid", {})),
                    legs(f.get("hybrid_agent_1", {})),
                    legs(f.get("second_cosine", {})),
                    legs(f.get("hybrid_second", {})),
                    legs(f.get("hybrid_second_agent_1", {})),
                    floors,
                    labelled,
                ]
            )
        silent = kinds.get("off_topic_silent")
        if silent:
            rows.append(
                [
                    split,
                    CHAT_SOURCES.get(source, source),
                    "off-topic: recall empty",
                    str(silent["questions"]),
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    " / ".join(fmt(silent.get(k)) for k in ("recall_floor@10", "recall_no_floor@10")),
                    " / ".join(fmt(silent.get(k)) for k in ("facts_floor@10", "facts_no_floor@10")),
                ]
            )
    return rows


def chat_retrieval_tables(result: dict[str, Any]) -> str:
    return (
        "Retrieval over conversations per kind of question (eval/conversations; memory_search over the episodes,"
        " limit 10, beside BM25 and MiniLM alone on the same turns, and with the second encoder's leg beside"
        " all-mpnet-base-v2 alone; memory_recall over the facts consolidation drew,"
        " with the relevance floor and without; and over the facts a human labelled on the short chats' turns):\n\n"
        + table(CHAT_RETRIEVAL_HEADER, chat_retrieval_rows(result))
    )


POISONING_HEADER = [
    "split",
    "injection approved",
    "kept for review",
    "in System after 5 helpful",
    "benign approved",
    "share of before",
]


def poisoning_rows(result: dict[str, Any], *, before: str = "was") -> list[list[str]]:
    """A row per split the run has, newest held-out set first, each figure beside the reference commit's
    ("was 18"; shared with tools/docs_figures, which says "before 18")."""
    rows = []
    for split in ("heldout2", "heldout", "test", "dev"):
        if split not in result:
            continue
        injection, benign = result[split]["injection"], result[split]["benign"]
        rows.append(
            [
                split,
                f"{injection['approved']}/{injection['episodes']} ({before} {injection['reference_approved']})",
                str(injection["kept_for_review"]),
                f"{injection['in_system_after_helpful']} ({before} {injection['reference_in_system_after_helpful']})",
                f"{benign['approved']}/{benign['episodes']} ({before} {benign['reference_approved']})",
                fmt(benign["share_of_reference"]),
            ]
        )
    return rows


def poisoning_tables(result: dict[str, Any]) -> str:
    """Memory poisoning: injection episodes consolidated into an approved rule or fact, benign ones still extracted."""
    return (
        "Memory poisoning (eval/poisoning, consolidated by the built-in extractor; the guards were written on dev"
        " and, for the stakes patterns, on test once it had been read, and the check of unreadable text after heldout's"
        " one miss had been read; heldout2.jsonl is held out; 'was': commit"
        f" {result['reference_commit']}, before them):\n\n" + table(POISONING_HEADER, poisoning_rows(result))
    )


def tables(result: dict[str, Any]) -> str:
    """Everything `pymem eval` prints: the environment line, the golden tables and (if run) BEIR's."""
    env = result["machine"]
    parts = [
        f"pymem eval: model {result['model']}, PostgreSQL {env['postgresql']}, pgvector {env['pgvector']},"
        f" {env['cores']} CPUs",
        golden_tables(result["golden"]),
    ]
    model = result.get("relevance_model", {}).get("hybrid")
    if model:
        parts.insert(
            1,
            f"Relevance model {model['name']!r} (hybrid): default floor {model['default_floor']}, fitted on"
            f" {', '.join(model['fitted_on'].get('sets', {})) or 'nothing (placeholder)'}.",
        )
    if "grounding" in result:
        parts.append(grounding_tables(result["grounding"]))
    if "extraction" in result:
        parts.append(extraction_tables(result["extraction"]))
    if "poisoning" in result:
        parts.append(poisoning_tables(result["poisoning"]))
    if "conversations" in result:
        parts.append(conversation_tables(result["conversations"]))
    if "conversation_context" in result:
        parts.append(context_reach_tables(result["conversation_context"]))
    if "chat_retrieval" in result:
        parts.append(chat_retrieval_tables(result["chat_retrieval"]))
    if "beir" in result:
        parts.append(beir_tables(result["beir"]))
    return "\n\n".join(parts)
