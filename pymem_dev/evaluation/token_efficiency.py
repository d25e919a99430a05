"""Token efficiency of memory_context: how much of what a question needs the block holds, against
a baseline that packs the most recent memories into the same number of tokens.

For each answerable test question of the golden set, the question goes to the butler in charge of its topic
(the scope of its first relevant memory; 'general' for a global one). The block is what the memory_context tool
builds (pymem.context.build_context: SQL ranks and chooses, the model's tokenizer counts). The baseline takes the
same pool (the facts and rules of 'global' and the butler's scope, the butler's live episodes), newest first (the
dataset's order, which is the order they were stored in), rendered the same way, and packs them under the same
header until the budget is spent. Coverage is the share of the question's relevant memories a block holds. The
target: the block reaches the baseline's coverage with at least 50% fewer tokens, i.e. the block at
half a budget covers at least what the baseline covers at the whole one; the spec asks 30% fewer (the block
at 70% of the budget).
"""

from __future__ import annotations

from typing import Any

import psycopg

from pymem import context, token_counts
from pymem.client import MemoryClient
from pymem.errors import PymemError, translate
from pymem.tenancy import tenant_transaction
from pymem_dev.evaluation import metrics
from pymem_dev.evaluation.dataset import Dataset
from pymem_dev.evaluation.golden import Loaded, QuestionVectors, questions_of

BUDGETS = (300, 600, 1200)
SKIPPED = ("no_answer", "near_miss")


def _butler(dataset: Dataset, relevant: list[str]) -> str:
    first = dataset.by_key[relevant[0]]
    scope = first.butler if first.type == "episode" else first.scope
    return scope if scope and scope != "global" else "general"


def _block(client: MemoryClient, query: str, butler: str, budget: int, vector: Any) -> set[Any]:
    try:
        with client.conn.transaction():
            block = context.build_context(
                client, trigger_prompt=query, butler=butler, token_budget=budget, query_embedding=vector
            )
    except psycopg.Error as exc:  # a budget too small for the headers (PM002): an empty block
        if not isinstance(translate(exc), PymemError):
            raise
        return set()
    return {item.candidate.memory_id for item in block.items}


def _baseline(
    client: MemoryClient, query: str, butler: str, budgets: tuple[int, ...], order: dict[Any, int]
) -> dict[int, set[Any]]:
    """The most recent memories of the pool that fit each budget, under the block's own header."""
    pool = client.context_candidates(
        trigger_prompt=query,
        butler=butler,
        system_limit=1000,
        project_limit=1000,
        history_limit=1000,
        knowledge_limit=1000,
        min_relevance=0,
    )
    pool.sort(key=lambda c: order.get(c.memory_id, -1), reverse=True)
    header = token_counts.count_tokens(context.render(context.render_header(butler), {}, context.render_task(query)))
    # each line with the newline that joins it, as build_context counts it
    costs = [(c.memory_id, token_counts.count_tokens(context.render_item(c) + "\n")) for c in pool]
    packed: dict[int, set[Any]] = {}
    for budget in budgets:
        spent, chosen = header, set()
        for memory_id, tokens in costs:
            if spent + tokens > budget:
                break
            spent += tokens
            chosen.add(memory_id)
        packed[budget] = chosen
    return packed


def run_token_efficiency(
    conn: psycopg.Connection[Any], dataset: Dataset, loaded: Loaded, vectors: QuestionVectors, split: str = "test"
) -> dict[str, Any]:
    """Mean coverage of the block and of the baseline per budget, and the block's at half and at 70% of each,
    over the questions of split ("test" is reported; "train" is for tuning the block)."""
    order = {loaded.ids[m.key][1]: i for i, m in enumerate(dataset.memories) if m.key in loaded.ids}
    half = tuple(b // 2 for b in BUDGETS)
    seventy = tuple(b * 7 // 10 for b in BUDGETS)
    block_cov: dict[int, list[float]] = {b: [] for b in BUDGETS + half + seventy}
    base_cov: dict[int, list[float]] = {b: [] for b in BUDGETS}
    questions = 0
    for question in questions_of(dataset, split):
        relevant = [key for key, grade in question.relevant.items() if grade > 0 and key in loaded.ids]
        if question.category in SKIPPED or not relevant:
            continue
        questions += 1
        wanted = {loaded.ids[key][1] for key in relevant}
        butler = _butler(dataset, relevant)
        with tenant_transaction(conn, question.tenant, actor="pymem-eval"):
            client = MemoryClient(conn)
            for budget in block_cov:
                held = _block(client, question.query, butler, budget, vectors[question.id])
                block_cov[budget].append(len(held & wanted) / len(wanted))
            for budget, held in _baseline(client, question.query, butler, BUDGETS, order).items():
                base_cov[budget].append(len(held & wanted) / len(wanted))
    rows = []
    for budget, halved, reduced in zip(BUDGETS, half, seventy, strict=True):
        baseline = metrics.mean(base_cov[budget])
        rows.append(
            {
                "budget": budget,
                "block": metrics.mean(block_cov[budget]),
                "baseline": baseline,
                "block_at_half": metrics.mean(block_cov[halved]),
                "block_at_70pct": metrics.mean(block_cov[reduced]),
                "met": metrics.mean(block_cov[halved]) >= baseline,
                "met_30pct": metrics.mean(block_cov[reduced]) >= baseline,
            }
        )
    return {"questions": questions, "budgets": rows}
