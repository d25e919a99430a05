"""BEIR datasets (SciFact): load a BEIR folder, store its corpus as facts of a scratch tenant
through the SQL API, search the queries of a split in every mode and score them.

A BEIR folder holds corpus.jsonl ({"_id", "title", "text"}), queries.jsonl ({"_id", "text"}) and
qrels/<split>.tsv (query-id, corpus-id, score, with a header line). Each document becomes a fact
(subject "doc <id>", predicate "abstract", content title + " " + text, metadata.beir_id).

``depth`` is the ``limit`` passed to memory_search: the depth of both candidate lists and of the
fused list (a rank missing from one list counts as depth + 1). nDCG@10 is computed on the first
10 results, recall@100 on the first 100 (when depth >= 100).
"""

from __future__ import annotations

import csv
import json
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psycopg

from pymem.client import MemoryClient
from pymem.errors import InvalidArgumentError
from pymem.tenancy import tenant_transaction
from pymem_dev.evaluation import calibration, metrics
from pymem_dev.evaluation.embedcache import EmbedderLike, embed_cached
from pymem_dev.evaluation.golden import search_mode

MODES = ("keyword", "semantic", "hybrid", "weighted", "rerank")
# "rerank" is hybrid search with its second stage: the candidates ordered by calibrated relevance
# (memory_search(..., rerank => true)), not by the RRF score.
BASELINES = {"scifact": {"BM25": 0.665, "all-MiniLM-L6-v2": 0.674}}


@dataclass(frozen=True)
class SearchConfig:
    """The memory_search arguments that a run varies (the rest are the SQL defaults)."""

    depth: int = 100
    rrf_k: int = 60
    vector_weight: float = 0.7
    keyword_weight: float = 0.3

    def as_dict(self) -> dict[str, Any]:
        return {
            "depth": self.depth,
            "rrf_k": self.rrf_k,
            "vector_weight": self.vector_weight,
            "keyword_weight": self.keyword_weight,
        }


@dataclass
class BeirData:
    name: str
    doc_ids: list[str]
    texts: list[str]
    queries: dict[str, str]
    qrels: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)


def document_text(title: str, text: str) -> str:
    """What is stored and embedded for a document: title + " " + text (as BEIR's dense baselines do)."""
    return f"{title or ''} {text or ''}".strip()


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise InvalidArgumentError(f"BEIR folder: {path} is missing")
    rows: list[dict[str, Any]] = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidArgumentError(f"{path}, line {number}: not JSON ({exc})") from None
            if not isinstance(row, dict) or not isinstance(row.get("_id"), str | int):
                raise InvalidArgumentError(f"{path}, line {number}: an object with an _id is expected")
            rows.append(row)
    return rows


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter="\t")
        for number, row in enumerate(reader, 1):
            if not row or (number == 1 and not row[-1].strip().lstrip("-").isdigit()):
                continue  # the header line
            if len(row) < 3:
                raise InvalidArgumentError(f"{path}, line {number}: query-id, corpus-id and score are expected")
            try:
                grade = int(row[2])
            except ValueError:
                raise InvalidArgumentError(f"{path}, line {number}: the score {row[2]!r} is not an integer") from None
            out.setdefault(row[0].strip(), {})[row[1].strip()] = grade
    return out


def load_beir(folder: Path) -> BeirData:
    """Read a BEIR folder; every qrels/*.tsv split is loaded."""
    if not folder.is_dir():
        raise InvalidArgumentError(f"--beir {folder}: not a folder")
    corpus = _jsonl(folder / "corpus.jsonl")
    queries = {str(q["_id"]): str(q.get("text", "")) for q in _jsonl(folder / "queries.jsonl")}
    splits = sorted((folder / "qrels").glob("*.tsv")) if (folder / "qrels").is_dir() else []
    if not splits:
        raise InvalidArgumentError(f"BEIR folder {folder}: no qrels/<split>.tsv")
    data = BeirData(
        name=folder.name,
        doc_ids=[str(d["_id"]) for d in corpus],
        texts=[document_text(str(d.get("title", "")), str(d.get("text", ""))) for d in corpus],
        queries=queries,
    )
    known = set(data.doc_ids)
    for path in splits:
        qrels = _qrels(path)
        for qid, docs in qrels.items():
            if qid not in queries:
                raise InvalidArgumentError(f"{path}: query {qid!r} is not in queries.jsonl")
            unknown = sorted(set(docs) - known)
            if unknown:
                raise InvalidArgumentError(f"{path}: query {qid!r} names document {unknown[0]!r}, not in corpus.jsonl")
        data.qrels[path.stem] = qrels
    empty = [i for i, t in zip(data.doc_ids, data.texts, strict=True) if not t]
    if empty:
        raise InvalidArgumentError(f"BEIR corpus: document {empty[0]!r} has neither title nor text")
    return data


def store_corpus(
    conn: psycopg.Connection[Any],
    data: BeirData,
    vectors: np.ndarray,
    tenant: str,
    model_id: str,
    *,
    progress: bool = True,
) -> dict[uuid.UUID, str]:
    """Store every document as a fact of tenant; returns memory id -> document id."""
    started = time.monotonic()
    client = MemoryClient(conn)
    ids: dict[uuid.UUID, str] = {}
    with tenant_transaction(conn, tenant, actor="pymem-eval"):
        for index, (doc_id, text) in enumerate(zip(data.doc_ids, data.texts, strict=True)):
            stored = client.store_fact(
                subject=f"doc {doc_id}",
                predicate="abstract",
                content=text,
                embedding=vectors[index],
                embedding_model=model_id,
                metadata={"beir_id": doc_id},
                # a passage of a cited document: grounding judges it for instructions only, not as a claim
                source="import",
                citation=f"{data.name}:{doc_id}",
            )
            ids[stored.memory_id] = doc_id
            if progress and ((index + 1) % 250 == 0 or index + 1 == len(data.doc_ids)):
                print(
                    f"\rpymem eval: storing {data.name}: {index + 1}/{len(data.doc_ids)}"
                    f" ({time.monotonic() - started:.0f} s)",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
    if progress:
        print(file=sys.stderr, flush=True)
    return ids


def search_split(
    conn: psycopg.Connection[Any],
    tenant: str,
    data: BeirData,
    query_vectors: dict[str, np.ndarray],
    split: str,
    mode: str,
    ids: dict[uuid.UUID, str],
    config: SearchConfig,
) -> tuple[dict[str, list[str]], list[float]]:
    """The ranked document ids of every query of the split, and the latencies (ms)."""
    runs: dict[str, list[str]] = {}
    latencies: list[float] = []
    client = MemoryClient(conn)
    for qid in data.qrels[split]:
        with tenant_transaction(conn, tenant, actor="pymem-eval"):
            started = time.perf_counter()
            rows = client.search_scored(
                query=data.queries[qid],
                types=["fact"],
                mode=search_mode(mode),
                rerank=mode == "rerank",
                limit=config.depth,
                rrf_k=config.rrf_k,
                vector_weight=config.vector_weight,
                keyword_weight=config.keyword_weight,
                bump_references=False,
                query_embedding=query_vectors[qid] if mode != "keyword" else None,
            )
            latencies.append((time.perf_counter() - started) * 1000)
        runs[qid] = [ids.get(row.memory_id, f"?{row.memory_id}") for row in rows]
    return runs, latencies


def score(runs: dict[str, list[str]], qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """Mean nDCG@10, recall@100, MRR@10 and P@10 over the queries of qrels."""
    return {
        "ndcg@10": metrics.mean(metrics.ndcg_at_k(runs.get(q, []), rel, 10) for q, rel in qrels.items()),
        "recall@100": metrics.mean(metrics.recall_at_k(runs.get(q, []), rel, 100) for q, rel in qrels.items()),
        "mrr@10": metrics.mean(metrics.reciprocal_rank(runs.get(q, []), rel, 10) for q, rel in qrels.items()),
        "p@10": metrics.mean(metrics.precision_at_k(runs.get(q, []), rel, 10) for q, rel in qrels.items()),
    }


def evaluate_mode(
    conn: psycopg.Connection[Any],
    tenant: str,
    data: BeirData,
    query_vectors: dict[str, np.ndarray],
    split: str,
    mode: str,
    ids: dict[uuid.UUID, str],
    config: SearchConfig,
) -> dict[str, Any]:
    runs, latencies = search_split(conn, tenant, data, query_vectors, split, mode, ids, config)
    figures: dict[str, Any] = {"queries": len(runs), **score(runs, data.qrels[split])}
    if config.depth < 100:
        figures["recall@100"] = None  # not measured: fewer than 100 results per query
    figures["latency_ms_p50"] = metrics.percentile(latencies, 50)
    figures["latency_ms_p95"] = metrics.percentile(latencies, 95)
    figures["config"] = config.as_dict()
    return figures


TUNE_DEPTHS = (10, 100)
TUNE_RRF_K = (10, 30, 60)
TUNE_VECTOR_WEIGHTS = (0.5, 0.7, 0.9)
TUNE_QUERIES = 200  # the first 200 train queries (by id): the grid runs in minutes, not an hour


def tune(
    conn: psycopg.Connection[Any],
    tenant: str,
    data: BeirData,
    query_vectors: dict[str, np.ndarray],
    ids: dict[uuid.UUID, str],
    *,
    split: str = "train",
    queries: int = TUNE_QUERIES,
    progress: bool = True,
) -> dict[str, Any]:
    """Grid search on (the first ``queries`` of) the train qrels: depth x rrf_k for hybrid, then
    vector_weight for weighted at the chosen depth. Returns the chosen configs and every trial."""
    trials: list[dict[str, Any]] = []
    sample = dict(sorted(data.qrels[split].items())[:queries])
    subset = BeirData(data.name, data.doc_ids, data.texts, data.queries, {split: sample})

    def trial(mode: str, config: SearchConfig) -> float:
        runs, _ = search_split(conn, tenant, subset, query_vectors, split, mode, ids, config)
        value = score(runs, sample)["ndcg@10"]
        trials.append({"mode": mode, **config.as_dict(), "ndcg@10": value})
        if progress:
            print(f"pymem eval: tune {mode} {config.as_dict()}: nDCG@10 {value:.4f}", file=sys.stderr, flush=True)
        return value

    best_hybrid = max(
        (SearchConfig(depth=d, rrf_k=k) for d in TUNE_DEPTHS for k in TUNE_RRF_K),
        key=lambda c: trial("hybrid", c),
    )
    best_weighted = max(
        (
            SearchConfig(depth=best_hybrid.depth, vector_weight=w, keyword_weight=round(1 - w, 2))
            for w in TUNE_VECTOR_WEIGHTS
        ),
        key=lambda c: trial("weighted", c),
    )
    return {
        "split": split,
        "queries": len(sample),
        "hybrid": best_hybrid.as_dict(),
        "weighted": best_weighted.as_dict(),
        "trials": trials,
    }


CALIBRATION_DEPTH = 30  # memory_recall's candidate depth at limit 10: max(3 * limit, 30)


def relevance_evidence(
    conn: psycopg.Connection[Any],
    prepared: PreparedBeir,
    split: str,
    mode: str = "hybrid",
    *,
    depth: int = CALIBRATION_DEPTH,
    queries: int | None = None,
) -> list[calibration.Evidence]:
    """Every row of a search of mode (depth rows per query) for the queries of split (the first ``queries``
    by id), with its relevance evidence and label."""
    data = prepared.data
    client = MemoryClient(conn)
    out: list[calibration.Evidence] = []
    for qid in sorted(data.qrels[split])[:queries]:
        with tenant_transaction(conn, prepared.tenant, actor="pymem-eval"):
            rows = client.search_scored(
                query=data.queries[qid],
                types=["fact"],
                mode=mode,
                limit=depth,
                bump_references=False,
                query_embedding=prepared.query_vectors[qid] if mode != "keyword" else None,
            )
        relevant = {doc for doc, grade in data.qrels[split][qid].items() if grade > 0}
        out.extend(calibration.rows_evidence(qid, rows, [prepared.ids.get(row.memory_id) in relevant for row in rows]))
    return out


@dataclass
class PreparedBeir:
    """A BEIR data set stored as facts of its scratch tenant, with its query embeddings."""

    data: BeirData
    tenant: str
    ids: dict[uuid.UUID, str]
    query_vectors: dict[str, np.ndarray]
    store_seconds: float


def prepare_beir(
    conn: psycopg.Connection[Any],
    folder: Path,
    embedder: EmbedderLike,
    *,
    cache_dir: Path | None = None,
    progress: bool = True,
) -> PreparedBeir:
    """Load the folder, embed the corpus and the queries of every split, store the corpus."""
    data = load_beir(folder)
    tenant = f"beir-{data.name}"
    doc_vectors = embed_cached(
        embedder, data.texts, cache_dir=cache_dir, label=f"{data.name} corpus", progress=progress
    )
    wanted = sorted({q for qrels in data.qrels.values() for q in qrels})
    query_array = embed_cached(
        embedder,
        [data.queries[q] for q in wanted],
        cache_dir=cache_dir,
        label=f"{data.name} queries",
        progress=progress,
    )
    started = time.monotonic()
    ids = store_corpus(conn, data, doc_vectors, tenant, embedder.model_id, progress=progress)
    return PreparedBeir(
        data, tenant, ids, dict(zip(wanted, query_array, strict=True)), round(time.monotonic() - started, 1)
    )


def run_beir(
    conn: psycopg.Connection[Any],
    prepared: PreparedBeir,
    *,
    modes: tuple[str, ...] = MODES,
    split: str = "test",
    config: SearchConfig | None = None,
    configs: dict[str, SearchConfig] | None = None,
    do_tune: bool = False,
    reference: bool = True,
    progress: bool = True,
    calibrate: bool = True,
) -> dict[str, Any]:
    """(Tune on train, and) score every mode on the split; with calibrate, how well the relevance in force
    tells relevant rows on the split (calibration.summarise, at memory_recall's depth). configs: per mode
    overrides; reference: also the client-side BM25 / exact-cosine / RRF yardsticks
    (pymem_dev.evaluation.reference)."""
    data, tenant, ids, query_vectors = prepared.data, prepared.tenant, prepared.ids, prepared.query_vectors
    if split not in data.qrels:
        raise InvalidArgumentError(f"BEIR data {data.name}: no qrels/{split}.tsv (splits: {sorted(data.qrels)})")
    result: dict[str, Any] = {
        "dataset": data.name,
        "split": split,
        "documents": len(data.doc_ids),
        "queries": len(data.qrels[split]),
        "store_seconds": prepared.store_seconds,
        "baselines": BASELINES.get(data.name, {}),
    }
    base = config or SearchConfig()
    chosen: dict[str, SearchConfig] = {mode: base for mode in modes}
    chosen.update(configs or {})
    if do_tune and "train" in data.qrels and split != "train":
        tuned = tune(conn, tenant, data, query_vectors, ids, progress=progress)
        result["tuning"] = tuned
        chosen["hybrid"] = SearchConfig(**tuned["hybrid"])
        chosen["weighted"] = SearchConfig(**tuned["weighted"])
        for mode in ("semantic", "keyword", "rerank"):
            chosen[mode] = SearchConfig(depth=chosen["hybrid"].depth, rrf_k=chosen["hybrid"].rrf_k)
    figures: dict[str, Any] = {}
    for mode in modes:
        figures[mode] = evaluate_mode(conn, tenant, data, query_vectors, split, mode, ids, chosen[mode])
        if progress:
            print(
                f"pymem eval: {data.name} {split} {mode}: nDCG@10 {figures[mode]['ndcg@10']:.4f}",
                file=sys.stderr,
                flush=True,
            )
    result["modes"] = figures
    if calibrate:
        evidence = relevance_evidence(conn, prepared, split)
        result["calibration"] = {"depth": CALIBRATION_DEPTH, "mode": "hybrid", split: calibration.summarise(evidence)}
        if progress:
            judged = result["calibration"][split]
            print(
                f"pymem eval: {data.name} {split} relevance AUC: rank-based {judged['rank_relevance']['auc']},"
                f" calibrated {judged['calibrated']['auc']}; Brier {judged['rank_relevance']['brier']}"
                f" -> {judged['calibrated']['brier']}",
                file=sys.stderr,
                flush=True,
            )
    if reference:
        from pymem_dev.evaluation.reference import reference_figures

        result["reference"] = reference_figures(
            conn, tenant, data, query_vectors, ids, split=split, depth=max(base.depth, 10), rrf_k=base.rrf_k
        )
    return result
