"""`pymem eval`: one evaluation run, the golden dataset (and optionally a BEIR folder) against a
database, as pymem_app; the result is a JSON-ready dict, the tables are pymem.evaluation.tables'."""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path
from typing import Any

import psycopg
from pgvector.psycopg import register_vector

from pymem import reports
from pymem.evaluation import beir, calibration, golden
from pymem.evaluation.dataset import CATEGORIES, Dataset
from pymem.evaluation.embedcache import EmbedderLike

DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "eval" / ".cache"
DEFAULT_DATABASE = "pymem_eval"  # the scratch database (pymem.scratch), dropped and re-created per run


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
        "questions_by_category": {c: sum(q.category == c for q in dataset.questions) for c in CATEGORIES},
    }
    if path is not None and path.is_file():
        summary["path"] = str(path)
        summary["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    return summary


def run_golden(
    app_dsn: str,
    dataset: Dataset,
    embedder: EmbedderLike,
    *,
    modes: tuple[str, ...] = golden.MODES,
    k: int = 10,
    min_semantic: float = golden.MIN_SEMANTIC,
    min_keyword: float = golden.MIN_KEYWORD,
    cache_dir: Path | None = DEFAULT_CACHE,
    dataset_path: Path | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Store the golden corpus in the (fresh) database of app_dsn and ask every question."""
    with connect_app(app_dsn) as conn:
        loaded = golden.load_corpus(conn, dataset, embedder, cache_dir=cache_dir, progress=progress)
        result = golden.run_questions(
            conn,
            dataset,
            loaded,
            embedder,
            modes=modes,
            k=k,
            min_semantic=min_semantic,
            min_keyword=min_keyword,
            cache_dir=cache_dir,
            progress=progress,
        )
    result["dataset"] = dataset_summary(dataset, dataset_path)
    result["load_seconds"] = round(loaded.seconds, 1)
    return result


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
    min_semantic: float = golden.MIN_SEMANTIC,
    min_keyword: float = golden.MIN_KEYWORD,
    cache_dir: Path | None = DEFAULT_CACHE,
    dataset_path: Path | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """The whole run: machine facts, model, golden figures and (with beir_dir) BEIR figures."""
    started = time.monotonic()
    result: dict[str, Any] = {
        "machine": reports.environment(app_dsn, embedder),
        "model": embedder.model_id,
        "golden": run_golden(
            app_dsn,
            dataset,
            embedder,
            modes=modes,
            k=k,
            min_semantic=min_semantic,
            min_keyword=min_keyword,
            cache_dir=cache_dir,
            dataset_path=dataset_path,
            progress=progress,
        ),
    }
    if beir_dir is not None:
        with connect_app(app_dsn) as conn:
            result["beir"] = beir.run_beir(
                conn,
                beir_dir,
                embedder,
                modes=tuple(m for m in beir.MODES if m in modes),
                config=beir_config,
                do_tune=tune,
                reference=reference,
                cache_dir=cache_dir,
                progress=progress,
            )
    evidence = result["golden"].pop("hybrid_evidence", None)
    fitted = result.get("beir", {}).get("calibration")
    if evidence and fitted:
        # does a relevance fitted on SciFact train carry over to the golden set (another domain)?
        result["golden"]["calibration_transfer"] = calibration.transfer(evidence, fitted["coefficients"])
        if progress:
            moved = result["golden"]["calibration_transfer"]
            print(
                f"pymem eval: golden, relevance fitted on SciFact train: AUC rank-based"
                f" {moved['rows']['rank_relevance']['auc']}, fitted {moved['rows']['calibrated']['auc']};"
                f" no-answer questions below {moved['floor']}: {moved['no_answer_below_floor']},"
                f" answerable above it: {moved['answerable_above_floor']}",
                file=sys.stderr,
                flush=True,
            )
    result["seconds"] = round(time.monotonic() - started, 1)
    return result
