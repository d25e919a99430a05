"""`pymem eval`: one evaluation run, the golden dataset (and optionally a BEIR folder) against a
database, as pymem_app; the result is a JSON-ready dict, the tables are pymem_dev.evaluation.tables'."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from pymem_dev import reports
from pymem_dev.evaluation import (
    beir,
    chat_retrieval,
    conversation_context,
    conversations,
    extraction,
    golden,
    grounding,
    poisoning,
    relevance_fit,
    token_efficiency,
)
from pymem_dev.evaluation.dataset import CATEGORIES, SPLITS, Dataset
from pymem_dev.evaluation.defaults import DEFAULT_CACHE, MIN_KEYWORD, MIN_SEMANTIC
from pymem_dev.evaluation.embedcache import EmbedderLike


def connect_app(app_dsn: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(app_dsn, autocommit=True)
    register_vector(conn)
    return conn


def dataset_summary(dataset: Dataset, path: Path | None = None) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "tenants": len(dataset.tenants),
        "memories": len(dataset.memories),
        "memories_by_type": {t: sum(m.type == t for m in dataset.memories) for t in ("episode", "fact", "rule")},
        "retracted": sum(m.retract for m in dataset.memories),
        "questions": len(dataset.questions),
        "questions_by_split": {s: sum(q.split == s for q in dataset.questions) for s in SPLITS},
        "questions_by_category": {
            c: sum(q.category == c and q.split == "test" for q in dataset.questions) for c in CATEGORIES
        },
    }
    if path is not None and path.is_file():
        summary["path"] = str(path)
        summary["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return summary


def run(
    app_dsn: str,
    dataset: Dataset,
    embedder: EmbedderLike,
    *,
    beir_dir: Path | None = None,
    tune: bool = False,
    reference: bool = True,
    beir_config: beir.SearchConfig | None = None,
    modes: tuple[str, ...] = golden.MODES,
    k: int = 10,
    min_semantic: float = MIN_SEMANTIC,
    min_keyword: float = MIN_KEYWORD,
    cache_dir: Path | None = DEFAULT_CACHE,
    dataset_path: Path | None = None,
    progress: bool = True,
    fit_relevance: Path | None = None,
    migrator_dsn: str | None = None,
    chats: bool = True,
) -> dict[str, Any]:
    """The whole run: machine facts, model, golden figures and (with beir_dir) BEIR figures. With fit_relevance
        (a path, and the scratch database's migrator_dsn), the relevance model is first fitted on the training data,
        written to that path and put in force, so that every figure reported is the new model's. chats: also measure
    retrieval over eval/conversations per kind of question (and fit on its train chats)."""
    started = time.monotonic()
    result: dict[str, Any] = {"machine": reports.environment(app_dsn, embedder), "model": embedder.model_id}
    with connect_app(app_dsn) as conn:
        loaded = golden.load_corpus(conn, dataset, embedder, cache_dir=cache_dir, progress=progress)
        vectors = golden.question_vectors(dataset, embedder, cache_dir=cache_dir, progress=progress)
        prepared = (
            beir.prepare_beir(conn, beir_dir, embedder, cache_dir=cache_dir, progress=progress)
            if beir_dir is not None
            else None
        )
        if fit_relevance is not None:
            if migrator_dsn is None:
                raise ValueError("fitting the relevance model needs the scratch database's migrator DSN")
            models = relevance_fit.fit_models(
                conn, dataset, loaded, vectors, prepared, embedder=embedder if chats else None, cache_dir=cache_dir
            )
            relevance_fit.write_and_apply(models, fit_relevance, conn, migrator_dsn)
            result["relevance_fit"] = {"path": str(fit_relevance), "models": [m.__dict__ for m in models]}
        result["relevance_model"] = golden.relevance_model(conn)
        figures = golden.run_questions(
            conn,
            dataset,
            loaded,
            vectors,
            modes=modes,
            k=k,
            min_semantic=min_semantic,
            min_keyword=min_keyword,
            progress=progress,
        )
        figures["recall_floor"] = golden.recall_floor(conn, dataset, loaded, vectors, embedder, progress=progress)
        figures["token_efficiency"] = token_efficiency.run_token_efficiency(conn, dataset, loaded, vectors)
        figures["dataset"] = dataset_summary(dataset, dataset_path)
        figures["load_seconds"] = round(loaded.seconds, 1)
        result["golden"] = figures
        result["grounding"] = grounding.run_grounding(conn)
        result["extraction"] = extraction.run_extraction(conn)
        result["poisoning"] = poisoning.run_poisoning(conn, embedder)
        result["conversations"] = conversations.run_conversations(conn)
        result["conversation_context"] = conversation_context.run_context_reach(conn, embedder)
        if chats:
            result["chat_retrieval"] = chat_retrieval.run_chat_retrieval(
                conn, embedder, cache_dir, progress=progress, second=chat_retrieval.second_encoder()
            )
        if prepared is not None:
            result["beir"] = beir.run_beir(
                conn,
                prepared,
                modes=tuple(m for m in beir.MODES if m in modes),
                config=beir_config,
                do_tune=tune,
                reference=reference,
                progress=progress,
            )
    result["seconds"] = round(time.monotonic() - started, 1)
    return result
