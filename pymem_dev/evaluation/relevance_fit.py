"""`pymem eval --fit-relevance`: fit the shipped relevance model on training data, write it to
sql/functions/113-relevance-coefficients.sql and put it in force in the scratch database, so that the
rest of the run reports the new model on the reported (test) data.

Training data: SciFact's train qrels (when --beir is given), the golden set's train questions and the train chats of
eval/conversations (their questions over the facts a human labelled on their turns: chat_retrieval.train_evidence),
each searched in the mode of the variant being fitted (hybrid, semantic, keyword) at memory_recall's candidate
depth. The features are the database's own (memory_search's relevance_features), so the
model is fitted on exactly what it is applied to.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import psycopg

from pymem_dev.evaluation import beir, calibration, chat_retrieval, golden
from pymem_dev.evaluation.dataset import Dataset


def fit_models(
    conn: psycopg.Connection[Any],
    dataset: Dataset,
    loaded: golden.Loaded,
    vectors: golden.QuestionVectors,
    prepared: beir.PreparedBeir | None,
    *,
    embedder: Any = None,
    cache_dir: Path | None = None,
    progress: bool = True,
) -> list[calibration.FittedModel]:
    """One model per variant, on every training row available."""
    row = conn.execute("select pymem.memory_relevance_feature_names()").fetchone()
    assert row is not None
    feature_names: list[str] = row[0]
    models = []
    for variant in calibration.VARIANTS:
        sets: dict[str, list[calibration.Evidence]] = {}
        if prepared is not None and "train" in prepared.data.qrels:
            sets[f"{prepared.data.name} train"] = beir.relevance_evidence(conn, prepared, "train", variant)
        rows, floor_questions = golden.train_evidence(conn, dataset, loaded, vectors, variant)
        sets["golden train"] = rows
        if embedder is not None:
            chat_rows, chat_floors = chat_retrieval.train_evidence(conn, embedder, cache_dir, variant)
            sets["chats train"] = chat_rows
            floor_questions = [*floor_questions, *chat_floors]
        model = calibration.fit_variant(variant, sets, floor_questions, feature_names)
        models.append(model)
        if progress:
            print(
                f"pymem eval: relevance model {variant}: floor {model.default_floor},"
                f" coefficients {model.coefficients}",
                file=sys.stderr,
                flush=True,
            )
    return models


def write_and_apply(
    models: list[calibration.FittedModel], path: Path, app_conn: psycopg.Connection[Any], migrator_dsn: str
) -> str:
    """Write the coefficients file and run it in the scratch database as pymem_owner; returns its text."""
    row = app_conn.execute("select pymem.memory_relevance_feature_names()").fetchone()
    assert row is not None
    text = calibration.coefficients_sql(models, row[0])
    path.write_text(text)
    with psycopg.connect(migrator_dsn, autocommit=True) as conn, conn.transaction():
        conn.execute("set local role pymem_owner")
        conn.execute(text.encode())
    return text
