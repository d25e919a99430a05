"""The golden-dataset run: store the corpus through the SQL API (as pymem_app, tenant by tenant),
ask every question in every search mode, score the rankings and run the contradiction and
hallucination checks.

    loaded = load_corpus(conn, dataset, embedder, cache_dir=...)
    result = run_questions(conn, dataset, loaded, embedder, modes=MODES, k=10)
"""

from __future__ import annotations

import sys
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from pymem.client import MemoryClient, SearchRow
from pymem.tenancy import tenant_transaction
from pymem_dev.evaluation import calibration, metrics
from pymem_dev.evaluation.dataset import CATEGORIES, SPLITS, Dataset, Memory, Question
from pymem_dev.evaluation.defaults import MIN_KEYWORD, MIN_SEMANTIC
from pymem_dev.evaluation.embedcache import EmbedderLike, embed_cached

MODES = ("semantic", "keyword", "hybrid", "weighted", "rerank")
# "rerank" is hybrid search with its second stage: ordered by calibrated relevance (rerank => true).
QuestionVectors = dict[str, np.ndarray]  # question id -> query embedding
# The checks, by kind: contradiction (an outdated or forgotten memory comes back), hallucination
# (something that does not answer, or is not the tenant's, comes back), ranking (quality goals).
CHECK_KINDS = {
    "superseded_old_absent": "contradiction",
    "retracted_absent": "contradiction",
    "tenant_isolation": "hallucination",
    "scope_respected": "hallucination",
    "no_answer_below_threshold": "hallucination",
    "superseded_current_first": "ranking",
    "answerable_above_threshold": "ranking",
}
SESSION_NAMESPACE = uuid.UUID("6c1d9a52-5b7e-4f0e-9d55-2f5c8e0f4a11")
RECALL_DEPTH = 30  # memory_recall's candidate depth at limit 10: max(3 * limit, 30)


def search_mode(mode: str) -> str:
    """The memory_search mode of an evaluation mode ("rerank" is hybrid with rerank => true)."""
    return "hybrid" if mode == "rerank" else mode


@dataclass
class Loaded:
    """Where the dataset's memories went: key -> (type, id) and id -> key."""

    ids: dict[str, tuple[str, uuid.UUID]] = field(default_factory=dict)
    keys: dict[uuid.UUID, str] = field(default_factory=dict)
    seconds: float = 0.0


def _store(
    client: MemoryClient, memory: Memory, vector: np.ndarray, model_id: str, embedder: EmbedderLike | None = None
) -> uuid.UUID:
    metadata = {"eval_key": memory.key}
    if memory.type == "fact":
        if memory.subject is None or memory.predicate is None:
            raise ValueError(f"fact {memory.key!r} has no subject or predicate")
        return client.store_fact(
            subject=memory.subject,
            predicate=memory.predicate,
            importance=memory.importance,
            permanence=memory.permanence,
            scope=memory.scope,
            tags=memory.tags,
            content=memory.content,
            embedding=vector,
            embedding_model=model_id,
            metadata=metadata,
        ).memory_id
    if memory.type == "rule":
        return client.store_rule(
            scope=memory.scope,
            tags=memory.tags,
            permanence=memory.permanence,
            content=memory.content,
            embedding=vector,
            embedding_model=model_id,
            metadata=metadata,
        ).memory_id
    if memory.butler is None:
        raise ValueError(f"episode {memory.key!r} has no butler")
    session = uuid.uuid5(SESSION_NAMESPACE, memory.session) if memory.session else None
    if session is not None and embedder is not None:
        # as the MCP server does: an episode of a session is embedded after its previous turn
        text = client.episode_text(session_id=session, content=memory.content).embedding_text
        if text != memory.content:
            vector = embedder.embed_many([text])[0]
    return client.store_episode(
        butler=memory.butler,
        session_id=session,
        importance=memory.importance,
        content=memory.content,
        embedding=vector,
        embedding_model=model_id,
        metadata=metadata,
    ).memory_id


def _promote(client: MemoryClient, rule_id: uuid.UUID, maturity: str, key: str) -> None:
    for _ in range(100):
        if client.mark_helpful(rule_id=rule_id).maturity == maturity:
            return
    raise RuntimeError(f"rule {key!r} did not reach maturity {maturity!r} after 100 helpful marks")


def load_corpus(
    conn: psycopg.Connection[Any],
    dataset: Dataset,
    embedder: EmbedderLike,
    *,
    cache_dir: Path | None = None,
    progress: bool = True,
) -> Loaded:
    """Store every memory (in dataset order, one transaction per tenant), then forget the retracted
    ones and promote rules to their maturity. conn: a pymem_app connection in autocommit mode."""
    started = time.monotonic()
    vectors = embed_cached(
        embedder, [m.content for m in dataset.memories], cache_dir=cache_dir, label="golden memories", progress=progress
    )
    loaded = Loaded()
    client = MemoryClient(conn)
    by_tenant: dict[str, list[int]] = defaultdict(list)
    for index, memory in enumerate(dataset.memories):
        by_tenant[memory.tenant].append(index)
    for tenant, indexes in by_tenant.items():
        with tenant_transaction(conn, tenant, actor="pymem-eval"):
            for index in indexes:
                memory = dataset.memories[index]
                memory_id = _store(client, memory, vectors[index], embedder.model_id, embedder)
                loaded.ids[memory.key] = (memory.type, memory_id)
                loaded.keys[memory_id] = memory.key
            for index in indexes:
                memory = dataset.memories[index]
                kind, memory_id = loaded.ids[memory.key]
                if memory.type == "rule" and memory.maturity != "candidate":
                    _promote(client, memory_id, memory.maturity, memory.key)
                if memory.retract:
                    client.forget(type=kind, id=memory_id, reason="golden dataset: retracted")
        if progress:
            print(f"pymem eval: stored {len(indexes)} memories of tenant {tenant!r}", file=sys.stderr, flush=True)
    loaded.seconds = time.monotonic() - started
    return loaded


@dataclass
class Answer:
    question: Question
    mode: str
    ranked: list[str]
    rows: list[SearchRow]
    latency_ms: float


def ask(
    conn: psycopg.Connection[Any],
    question: Question,
    mode: str,
    vector: np.ndarray,
    loaded: Loaded,
    *,
    k: int,
) -> Answer:
    with tenant_transaction(conn, question.tenant, actor="pymem-eval"):
        started = time.perf_counter()
        rows = MemoryClient(conn).search_scored(
            query=question.query,
            mode=search_mode(mode),
            rerank=mode == "rerank",
            limit=k,
            bump_references=False,
            query_embedding=vector if mode != "keyword" else None,
            types=question.types or None,
            scope=question.scope or None,
        )
        latency = (time.perf_counter() - started) * 1000
    ranked = [loaded.keys.get(row.memory_id, f"?{row.memory_id}") for row in rows]
    return Answer(question, mode, ranked, rows, latency)


def answer_evidence(answer: Answer) -> list[calibration.Evidence]:
    """One answer's rows as relevance evidence (features, label, the relevance in force, the rank relevance)."""
    relevant = {key for key, grade in answer.question.relevant.items() if grade > 0}
    return calibration.rows_evidence(answer.question.id, answer.rows, [key in relevant for key in answer.ranked])


def _in_scope(memory: Memory, scope: str) -> bool:
    if memory.type == "episode":
        return memory.butler == scope
    return memory.scope in ("global", scope)


def checks_for(answer: Answer, dataset: Dataset, *, min_semantic: float, min_keyword: float) -> dict[str, bool]:
    """The pass/fail checks that apply to this answer (name -> passed)."""
    q = answer.question
    memories = dataset.by_key
    out: dict[str, bool] = {}
    # hallucination: nothing from another tenant, ever (an unknown id is a leak too)
    out["tenant_isolation"] = all(key in memories and memories[key].tenant == q.tenant for key in answer.ranked)
    if q.current is not None:
        out["superseded_current_first"] = bool(answer.ranked) and answer.ranked[0] == q.current
    if q.category == "superseded":
        out["superseded_old_absent"] = not set(q.absent) & set(answer.ranked)
    if q.category == "retracted" or any(memories[key].retract for key in q.absent):
        out["retracted_absent"] = not {key for key in q.absent if memories[key].retract} & set(answer.ranked)
    if q.scope is not None:
        out["scope_respected"] = all(key in memories and _in_scope(memories[key], q.scope) for key in answer.ranked)
    if q.category == "no_answer":
        out["no_answer_below_threshold"] = not any(
            is_answer(row, answer.mode, min_semantic=min_semantic, min_keyword=min_keyword) for row in answer.rows
        )
    if any(g > 0 for g in q.relevant.values()):
        # the other side of the threshold: an answerable question has a result above it
        out["answerable_above_threshold"] = any(
            is_answer(row, answer.mode, min_semantic=min_semantic, min_keyword=min_keyword) for row in answer.rows
        )
    return out


def is_answer(row: SearchRow, mode: str, *, min_semantic: float, min_keyword: float) -> bool:
    """Whether a search result is above the "nothing found" threshold of its mode."""
    if mode == "keyword":
        return (row.keyword_score or 0.0) >= min_keyword
    return (row.semantic_score or 0.0) >= min_semantic


def _figures(answers: list[Answer], k: int) -> dict[str, Any]:
    scored = [a for a in answers if any(g > 0 for g in a.question.relevant.values())]
    latencies = [a.latency_ms for a in answers]
    return {
        "questions": len(answers),
        "scored": len(scored),
        f"p@{k}": metrics.mean(metrics.precision_at_k(a.ranked, a.question.relevant, k) for a in scored),
        f"r@{k}": metrics.mean(metrics.recall_at_k(a.ranked, a.question.relevant, k) for a in scored),
        "mrr": metrics.mean(metrics.reciprocal_rank(a.ranked, a.question.relevant, k) for a in scored),
        "ndcg@10": metrics.mean(metrics.ndcg_at_k(a.ranked, a.question.relevant, 10) for a in scored),
        "latency_ms_p50": metrics.percentile(latencies, 50),
        "latency_ms_p95": metrics.percentile(latencies, 95),
    }


def questions_of(dataset: Dataset, split: str) -> list[Question]:
    """The dataset's questions of one split, in dataset order: "test" (reported) or "train" (for fitting)."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    return [q for q in dataset.questions if q.split == split]


def run_questions(
    conn: psycopg.Connection[Any],
    dataset: Dataset,
    loaded: Loaded,
    vectors: QuestionVectors,
    *,
    modes: tuple[str, ...] = MODES,
    k: int = 10,
    min_semantic: float = MIN_SEMANTIC,
    min_keyword: float = MIN_KEYWORD,
    progress: bool = True,
) -> dict[str, Any]:
    """Every test question in every mode: per mode and per category figures, the checks and the
    rankings. The train questions (for fitting, never reported) are not asked."""
    questions = questions_of(dataset, "test")
    result: dict[str, Any] = {"k": k, "thresholds": {"min_semantic": min_semantic, "min_keyword": min_keyword}}
    per_mode: dict[str, Any] = {}
    runs: list[dict[str, Any]] = []
    for mode in modes:
        answers = [ask(conn, q, mode, vectors[q.id], loaded, k=k) for q in questions]
        checks: dict[str, dict[str, Any]] = {}
        for answer in answers:
            for name, passed in checks_for(answer, dataset, min_semantic=min_semantic, min_keyword=min_keyword).items():
                entry = checks.setdefault(name, {"kind": CHECK_KINDS[name], "passed": 0, "failed": 0, "failures": []})
                entry["passed" if passed else "failed"] += 1
                if not passed:
                    entry["failures"].append(answer.question.id)
            runs.append(
                {
                    "id": answer.question.id,
                    "mode": mode,
                    "ranked": answer.ranked,
                    "latency_ms": round(answer.latency_ms, 2),
                }
            )
        if mode == "hybrid":
            # how well relevance tells the relevant rows of the top k from the others (calibration.summarise)
            result["calibration"] = calibration.summarise([e for a in answers for e in answer_evidence(a)])
        per_mode[mode] = {
            "overall": _figures(answers, k),
            "categories": {
                c: _figures([a for a in answers if a.question.category == c], k)
                for c in CATEGORIES
                if any(a.question.category == c for a in answers)
            },
            "checks": dict(sorted(checks.items())),
        }
        if progress:
            overall = per_mode[mode]["overall"]
            print(
                f"pymem eval: golden {mode}: nDCG@10 {overall['ndcg@10']:.3f}, MRR {overall['mrr']:.3f}",
                file=sys.stderr,
                flush=True,
            )
    result["modes"] = per_mode
    result["runs"] = runs
    return result


def question_vectors(
    dataset: Dataset, embedder: EmbedderLike, *, cache_dir: Path | None = None, progress: bool = True
) -> QuestionVectors:
    """The query embedding of every question, train and test (cached like the corpus's)."""
    array = embed_cached(
        embedder,
        [q.query for q in dataset.questions],
        cache_dir=cache_dir,
        label="golden questions",
        progress=progress,
    )
    return {q.id: array[i] for i, q in enumerate(dataset.questions)}


def train_evidence(
    conn: psycopg.Connection[Any],
    dataset: Dataset,
    loaded: Loaded,
    vectors: QuestionVectors,
    mode: str,
    *,
    depth: int = RECALL_DEPTH,
) -> tuple[list[calibration.Evidence], list[calibration.FloorQuestion]]:
    """The train questions searched in mode at memory_recall's candidate depth: every row as relevance evidence,
    and each question's rows for choosing the floor. Never the test questions."""
    rows: list[calibration.Evidence] = []
    floors: list[calibration.FloorQuestion] = []
    for question in questions_of(dataset, "train"):
        answer = ask(conn, question, mode, vectors[question.id], loaded, k=depth)
        evidence = answer_evidence(answer)
        rows.extend(evidence)
        floors.append(
            calibration.FloorQuestion(
                answerable=any(g > 0 for g in question.relevant.values()),
                features=tuple(e.features for e in evidence),
                relevant=tuple(e.relevant and e.memory_type in ("fact", "rule") for e in evidence),
                category=question.category,
            )
        )
    return rows, floors


def relevance_model(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """The relevance model in force (pymem.memory_relevance_model), per variant: floor, coefficients, fitted_on."""
    out: dict[str, Any] = {}
    for variant in calibration.VARIANTS:
        row = conn.execute(
            "select name, features, coefficients, default_floor, fitted_on from pymem.memory_relevance_model(%s)",
            (variant,),
        ).fetchone()
        assert row is not None
        out[variant] = {
            "name": row[0],
            "features": row[1],
            "coefficients": row[2],
            "default_floor": row[3],
            "fitted_on": row[4],
        }
    return out


def recall_floor(
    conn: psycopg.Connection[Any],
    dataset: Dataset,
    loaded: Loaded,
    vectors: QuestionVectors,
    embedder: EmbedderLike | None = None,
    *,
    k: int = 10,
    progress: bool = True,
) -> dict[str, Any]:
    """What the relevance floor does to memory_recall (facts and rules, the butler's weights) on the test
    questions: the share of no-answer questions for which recall returns nothing (false recall avoided), the same
    share of near misses (the tenant knows the topic, not the answer: what recall returns is about the topic), and
    the recall@k of the answerable questions' relevant facts and rules with the default floor and without one
    (min_relevance => 0)."""
    memories = dataset.by_key
    # per unanswerable category: whether recall returned nothing, question by question
    nothing: dict[str, list[bool]] = {"no_answer": [], "near_miss": []}
    kept: dict[str, list[float]] = {"floor": [], "no_floor": []}
    returned: dict[str, list[int]] = {"floor": [], "no_floor": []}
    for question in questions_of(dataset, "test"):
        relevant = {
            key: grade
            for key, grade in question.relevant.items()
            if grade > 0 and memories[key].type in ("fact", "rule")
        }
        for label, floor in (("floor", None), ("no_floor", 0.0)):
            with tenant_transaction(conn, question.tenant, actor="pymem-eval"):
                client = MemoryClient(conn)
                focus = None
                if embedder is not None and floor is None:  # the focus check, as the server asks it
                    text = client.query_focus(topic=question.query)
                    focus = vectors[question.id] if text == question.query else embedder.embed_many([text])[0]
                hits = client.recall(
                    topic=question.query,
                    scope=question.scope or None,
                    limit=k,
                    query_embedding=vectors[question.id],
                    min_relevance=floor,
                    bump_references=False,
                    focus_embedding=focus,
                )
            ranked = [loaded.keys.get(h.memory_id, f"?{h.memory_id}") for h in hits]
            returned[label].append(len(hits))
            if question.category in nothing and label == "floor":
                nothing[question.category].append(not hits)
            if relevant:
                kept[label].append(metrics.recall_at_k(ranked, relevant, k))
    out: dict[str, Any] = {"k": k}
    for category, empty in nothing.items():
        out[f"{category}_questions"] = len(empty)
        out[f"{category}_nothing_recalled"] = round(sum(empty) / len(empty), 4) if empty else None
    out |= {
        "answerable_questions": len(kept["floor"]),
        f"answerable_r@{k}_floor": metrics.mean(kept["floor"]),
        f"answerable_r@{k}_no_floor": metrics.mean(kept["no_floor"]),
        "mean_recalled_floor": metrics.mean(returned["floor"]),
        "mean_recalled_no_floor": metrics.mean(returned["no_floor"]),
    }
    if progress:
        print(
            f"pymem eval: golden recall floor: no-answer questions with nothing recalled"
            f" {out['no_answer_nothing_recalled']}, answerable r@{k} {out[f'answerable_r@{k}_floor']}"
            f" (without the floor {out[f'answerable_r@{k}_no_floor']})",
            file=sys.stderr,
            flush=True,
        )
    return out
