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
from pymem.evaluation import calibration, metrics
from pymem.evaluation.dataset import CATEGORIES, Dataset, Memory, Question
from pymem.evaluation.embedcache import EmbedderLike, embed_cached
from pymem.tenancy import tenant_transaction

MODES = ("semantic", "keyword", "hybrid", "weighted")
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
# The "nothing found" thresholds of the hallucination check: a result counts as an answer when its
# semantic score (cosine similarity) reaches MIN_SEMANTIC -- in every mode that has a query
# embedding, since RRF scores are ranks and say nothing about relevance -- or, in keyword mode,
# when its keyword score reaches MIN_KEYWORD.
MIN_SEMANTIC = 0.35
MIN_KEYWORD = 0.5


@dataclass
class Loaded:
    """Where the dataset's memories went: key -> (type, id) and id -> key."""

    ids: dict[str, tuple[str, uuid.UUID]] = field(default_factory=dict)
    keys: dict[uuid.UUID, str] = field(default_factory=dict)
    seconds: float = 0.0


def _store(client: MemoryClient, memory: Memory, vector: np.ndarray, model_id: str) -> uuid.UUID:
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
                memory_id = _store(client, memory, vectors[index], embedder.model_id)
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
            mode=mode,
            limit=k,
            bump_references=False,
            query_embedding=vector if mode != "keyword" else None,
            types=question.types or None,
            scope=question.scope or None,
        )
        latency = (time.perf_counter() - started) * 1000
    ranked = [loaded.keys.get(row.memory_id, f"?{row.memory_id}") for row in rows]
    return Answer(question, mode, ranked, rows, latency)


def hybrid_evidence(answer: Answer) -> dict[str, Any]:
    """One question's hybrid rows as calibration evidence (features, relevant, today's rank relevance), JSON-ready."""
    relevant = {key for key, grade in answer.question.relevant.items() if grade > 0}
    evidence = calibration.rows_evidence(answer.rows, [key in relevant for key in answer.ranked])
    return {
        "id": answer.question.id,
        "category": answer.question.category,
        "answerable": bool(relevant),
        "rows": [
            {"features": list(e.features), "relevant": e.relevant, "rank_relevance": e.rank_relevance} for e in evidence
        ],
    }


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


def run_questions(
    conn: psycopg.Connection[Any],
    dataset: Dataset,
    loaded: Loaded,
    embedder: EmbedderLike,
    *,
    modes: tuple[str, ...] = MODES,
    k: int = 10,
    min_semantic: float = MIN_SEMANTIC,
    min_keyword: float = MIN_KEYWORD,
    cache_dir: Path | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Every question in every mode: per mode and per category figures, the checks and the rankings."""
    vectors = embed_cached(
        embedder, [q.query for q in dataset.questions], cache_dir=cache_dir, label="golden questions", progress=progress
    )
    result: dict[str, Any] = {"k": k, "thresholds": {"min_semantic": min_semantic, "min_keyword": min_keyword}}
    per_mode: dict[str, Any] = {}
    runs: list[dict[str, Any]] = []
    for mode in modes:
        answers = [ask(conn, q, mode, vectors[i], loaded, k=k) for i, q in enumerate(dataset.questions)]
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
            result["hybrid_evidence"] = [hybrid_evidence(answer) for answer in answers]
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
