"""Fitting and judging the calibrated relevance (sql/functions/112-relevance.sql).

The database computes each search row's evidence (memory_search's ``relevance_features``: cosine
similarity, keyword score, ranks, share of the query's words ...) and its relevance, the logistic model
``1 / (1 + exp(-(c0 + c . x)))`` whose coefficients live in pymem_private.relevance_models. This module:

- fits those coefficients, one model per variant (hybrid, semantic, keyword: the evidence a search has),
  on **training data only**: SciFact's train qrels and the golden set's train questions, each data set
  weighing the same in total (iteratively reweighted least squares, a small L2 penalty);
- chooses each variant's default relevance floor on the golden train questions (choose_floor): the lowest floor
  for which recall returns nothing for at least 90% of the no-answer questions (at most FLOOR_CEILING, 0.1), and
  reports what each floor would cost (floor_curve: no-answer questions and near misses cleared, answerable questions
  that keep an answer); DEFAULT_FLOOR (0.01) when there is nothing to choose on;
- writes sql/functions/113-relevance-coefficients.sql, the shipped model;
- judges the relevance in force on reported data: AUC, log-loss, Brier score and a reliability table,
  beside the rank-based relevance memory_recall had before (the RRF score over the query's best).

Model fitting is evaluation tooling (numpy); applying the coefficients to searches happens in SQL.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from pymem.client import SearchRow

VARIANTS = ("hybrid", "semantic", "keyword")  # each fitted on the rows of the search mode of its name
# The evidence the shipped model uses: what means the same in a tenant of ten memories and in one of a hundred
# thousand. The cosine, the share of the query's words a row holds (lexical_overlap), the fuzzy tiers' similarity, and
# semantic_lift (the cosine over the query's background, the 30th nearest memory's), which tells what a cosine means in
# this tenant. Left out (coefficient 0): the BM25 score, whose scale follows the tenant's size (a rare word's idf is
# ln 4 among six memories, ln 5000 among 5000), so a small tenant's best keyword match looked like a large one's poor
# match; and the features relative to the query's best row (gap to the best cosine, share of the best keyword score,
# ranks), which order one query's rows well on SciFact, but in a small tenant every memory is in both lists and a
# generic word ("user") gives every row the best keyword score: there they made unrelated memories look relevant.
USED_FEATURES = (
    "semantic_score",
    "semantic_found",
    "fuzzy_score",
    "lexical_overlap",
    "semantic_lift",
)
MODEL_NAME = "pymem"
# the floors tried: 0.01 .. 0.04, then 0.05 .. 0.95
FLOORS = (0.01, 0.02, 0.03, 0.04, *(round(0.05 * i, 2) for i in range(1, 20)))
FLOOR_TOP_K = 10  # an answerable question keeps the relevant rows of its top 10 above the floor


@dataclass(frozen=True)
class Evidence:
    """One search row: its features (as the database computed them), its label, the relevance the database
    gave it (the model in force) and the rank-based relevance of before (RRF score over the query's best)."""

    query: str
    features: tuple[float, ...]
    relevant: bool
    relevance: float
    rank_relevance: float
    memory_type: str = "fact"


def rank_relevance(scores: Sequence[float]) -> list[float]:
    """memory_recall's relevance before calibration: each row's fused score over the query's best one."""
    best = max(scores, default=0.0)
    return [s / best if best > 0 else 0.0 for s in scores]


def rows_evidence(query: str, rows: Sequence[SearchRow], relevant: Sequence[bool]) -> list[Evidence]:
    """One query's search rows as evidence."""
    ranked = rank_relevance([row.score for row in rows])
    return [
        Evidence(
            query, tuple(float(x) for x in row.relevance_features), label, float(row.relevance), rel, row.memory_type
        )
        for row, label, rel in zip(rows, relevant, ranked, strict=True)
    ]


def _design(x: np.ndarray) -> np.ndarray:
    return np.hstack([np.ones((x.shape[0], 1)), x])


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    *,
    weights: np.ndarray | None = None,
    l2: float = 1e-3,
    iterations: int = 100,
) -> np.ndarray:
    """Coefficients (intercept first) of a logistic regression by iteratively reweighted least squares,
    rows weighted by ``weights`` (default 1), with a small L2 penalty (not on the intercept) so that a
    separable or constant feature cannot diverge."""
    if x.ndim != 2 or x.shape[0] != y.shape[0] or x.shape[0] == 0:
        raise ValueError("fit_logistic needs a non-empty 2-d x with one label per row")
    w_rows = np.ones(x.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    if w_rows.shape != y.shape or np.any(w_rows < 0):
        raise ValueError("fit_logistic needs one non-negative weight per row")
    design = _design(x)
    coef = np.zeros(design.shape[1])
    penalty = l2 * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ coef)))
        w = np.clip(p * (1.0 - p), 1e-9, None) * w_rows
        gradient = design.T @ ((y - p) * w_rows) - penalty @ coef
        hessian = design.T @ (design * w[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        coef = coef + step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return coef


def predict(coef: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = np.clip(_design(x) @ coef, -50.0, 50.0)  # as pymem.memory_relevance clamps
    return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)


def auc(scores: Sequence[float], labels: Sequence[bool]) -> float | None:
    """Area under the ROC curve (ties count half); None without both classes."""
    s = np.asarray(scores, dtype=np.float64)
    y = np.asarray(labels, dtype=bool)
    positives, negatives = int(y.sum()), int((~y).sum())
    if positives == 0 or negatives == 0:
        return None
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s), dtype=np.float64)
    sorted_scores = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_scores[j + 1] == sorted_scores[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return float((ranks[y].sum() - positives * (positives + 1) / 2.0) / (positives * negatives))


def log_loss(p: Sequence[float], labels: Sequence[bool]) -> float:
    q = np.clip(np.asarray(p, dtype=np.float64), 1e-6, 1 - 1e-6)
    y = np.asarray(labels, dtype=np.float64)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q)))


def brier(p: Sequence[float], labels: Sequence[bool]) -> float:
    return float(np.mean((np.asarray(p, dtype=np.float64) - np.asarray(labels, dtype=np.float64)) ** 2))


def reliability(p: Sequence[float], labels: Sequence[bool], bins: int = 5) -> list[dict[str, Any]]:
    """Per bin of predicted relevance ([0, 0.2), ... [0.8, 1]): rows, mean predicted, observed share relevant."""
    q = np.asarray(p, dtype=np.float64)
    y = np.asarray(labels, dtype=np.float64)
    out = []
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        mask = (q >= low) & ((q < high) if b < bins - 1 else (q <= high))
        n = int(mask.sum())
        out.append(
            {
                "bin": f"[{low:.1f}, {high:.1f}{']' if b == bins - 1 else ')'}",
                "rows": n,
                "mean_predicted": round(float(q[mask].mean()), 4) if n else None,
                "observed_relevant": round(float(y[mask].mean()), 4) if n else None,
            }
        )
    return out


def _round(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 4)


def _judge(p: Sequence[float], labels: Sequence[bool]) -> dict[str, Any]:
    return {
        "auc": _round(auc(p, labels)),
        "log_loss": round(log_loss(p, labels), 4),
        "brier": round(brier(p, labels), 4),
        "reliability": reliability(p, labels),
    }


def summarise(evidence: Sequence[Evidence]) -> dict[str, Any]:
    """How well the relevance in force (the database's) and the rank-based relevance of before tell relevant
    rows from the others: AUC (across queries), log-loss, Brier score, reliability."""
    labels = [e.relevant for e in evidence]
    return {
        "rows": len(evidence),
        "relevant_rows": sum(labels),
        "rank_relevance": _judge([e.rank_relevance for e in evidence], labels),
        "calibrated": _judge([e.relevance for e in evidence], labels),
    }


# Fitting -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FloorQuestion:
    """A training question's rows for choosing a floor: its features in rank order and which are relevant facts
    or rules (what memory_recall could return)."""

    answerable: bool
    features: tuple[tuple[float, ...], ...]
    relevant: tuple[bool, ...]
    # "no_answer": nothing in the tenant is about it (a floor should clear it); "near_miss": the tenant knows the
    # topic, not the answer (reported; what recall returns is about the topic)
    category: str = "no_answer"


@dataclass
class FittedModel:
    variant: str
    coefficients: list[float]
    default_floor: float
    fitted_on: dict[str, Any] = field(default_factory=dict)
    floor_curve: list[dict[str, Any]] = field(default_factory=list)  # reported, not stored


def dataset_weights(sets: Mapping[str, Sequence[Evidence]]) -> np.ndarray:
    """One weight per row, in the order of the sets: each non-empty data set weighs the same in total, and the
    weights average 1."""
    sizes = [len(rows) for rows in sets.values() if rows]
    total = sum(sizes)
    return np.concatenate([np.full(n, total / (len(sizes) * n)) for n in sizes]) if sizes else np.zeros(0)


def _kept(coef: np.ndarray, question: FloorQuestion) -> float:
    """The highest relevance among the relevant facts and rules of a question's top 10 (-1 without one)."""
    top = np.asarray(question.features[:FLOOR_TOP_K], dtype=np.float64)
    relevant = np.asarray(question.relevant[:FLOOR_TOP_K])
    return float(predict(coef, top)[relevant].max()) if relevant.any() else -1.0


DEFAULT_FLOOR = 0.01  # without no-answer training questions: a memory deemed less than 1% likely to be about the topic
FLOOR_CEILING = 0.1  # a default floor is a small probability: above 10%, recall would drop what is often relevant
FLOOR_TARGET = 0.9  # the share of no-answer questions for which recall should return nothing


def floor_curve(coef: np.ndarray, questions: Sequence[FloorQuestion]) -> list[dict[str, Any]]:
    """Per floor tried, on the training questions: the share of no-answer questions whose best row falls below it
    (recall returns nothing), the same share of near misses, and the share of answerable questions that keep a
    relevant fact or rule of their top 10 above it: what a floor would cost."""

    def best(category: str) -> list[float]:
        return [
            float(predict(coef, np.asarray(q.features)).max()) if q.features else 0.0
            for q in questions
            if not q.answerable and q.category == category
        ]

    no_answer, near_miss = best("no_answer"), best("near_miss")
    kept = [_kept(coef, q) for q in questions if q.answerable and any(q.relevant[:FLOOR_TOP_K])]

    def share(values: list[float], floor: float, above: bool) -> float | None:
        if not values:
            return None
        return round(sum((v >= floor) if above else (v < floor) for v in values) / len(values), 4)

    return [
        {
            "floor": f,
            "no_answer_cleared": share(no_answer, f, above=False),
            "near_miss_cleared": share(near_miss, f, above=False),
            "answerable_kept": share(kept, f, above=True),
        }
        for f in FLOORS
    ]


def choose_floor(curve: Sequence[Mapping[str, Any]]) -> float:
    """The default floor, from the floor curve of the training questions: the lowest floor that clears at least
    FLOOR_TARGET of the no-answer questions (the least recall it costs), at most FLOOR_CEILING; DEFAULT_FLOOR when
    the training questions have no no-answer question."""
    measured = [entry for entry in curve if entry["no_answer_cleared"] is not None]
    if not measured:
        return DEFAULT_FLOOR
    for entry in sorted(measured, key=lambda e: e["floor"]):
        if entry["floor"] > FLOOR_CEILING:
            break
        if entry["no_answer_cleared"] >= FLOOR_TARGET:
            return float(entry["floor"])
    return FLOOR_CEILING


def fit_variant(
    variant: str,
    sets: Mapping[str, Sequence[Evidence]],
    floor_questions: Sequence[FloorQuestion],
    feature_names: Sequence[str],
    *,
    used: Sequence[str] = USED_FEATURES,
    l2: float = 1e-3,
) -> FittedModel:
    """The model of one variant, fitted on every row of the training sets (each set weighing the same), on the
    ``used`` features (named by feature_names, the database's order); the others keep coefficient 0."""
    rows = [e for evidence in sets.values() for e in evidence]
    if not rows:
        raise ValueError(f"no training rows for the {variant} relevance model")
    unknown = sorted(set(used) - set(feature_names))
    if unknown:
        raise ValueError(f"unknown relevance features {unknown}; the database computes {list(feature_names)}")
    columns = [i for i, name in enumerate(feature_names) if name in used]
    x = np.asarray([[e.features[i] for i in columns] for e in rows], dtype=np.float64)
    y = np.asarray([e.relevant for e in rows], dtype=np.float64)
    fitted = fit_logistic(x, y, weights=dataset_weights(sets), l2=l2)
    coef = np.zeros(len(feature_names) + 1)
    coef[0] = fitted[0]
    coef[[i + 1 for i in columns]] = fitted[1:]
    curve = floor_curve(coef, floor_questions)
    floor = choose_floor(curve)
    return FittedModel(
        variant=variant,
        coefficients=[round(float(c), 6) for c in coef],
        default_floor=floor,
        fitted_on={
            "sets": {
                name: {"queries": len({e.query for e in evidence}), "rows": len(evidence)}
                for name, evidence in sets.items()
            },
            "weights": "each set weighs the same in total",
            "features": list(used),
            "l2": l2,
            "floor": f"{floor}: the lowest floor (at most {FLOOR_CEILING}) for which recall returns nothing for"
            f" at least {FLOOR_TARGET:.0%} of the no-answer train questions (floor_curve)",
            "floor_questions": len(floor_questions),
            "fitted_at": datetime.now(UTC).date().isoformat(),
        },
        floor_curve=curve,
    )


def coefficients_sql(models: Sequence[FittedModel], feature_names: Sequence[str]) -> str:
    """The text of sql/functions/113-relevance-coefficients.sql for these models."""
    lines = [
        "-- The shipped relevance model 'pymem' (sql/functions/112-relevance.sql), one row per variant.",
        "-- Written by `pymem eval --fit-relevance` (pymem_dev/evaluation/calibration.py); do not edit by hand.",
        "-- Coefficients: the intercept, then the features of pymem.memory_relevance_feature_names():",
        *(f"--   {', '.join(feature_names[i : i + 5])}" for i in range(0, len(feature_names), 5)),
    ]
    for model in models:
        coefficients = ", ".join(repr(c) for c in model.coefficients)
        fitted_on = json.dumps(model.fitted_on, sort_keys=True, indent=4).replace("'", "''").replace("\n", "\n    ")
        lines += [
            "",
            "select pymem_private.save_relevance_model(",
            f"    '{MODEL_NAME}',",
            f"    '{model.variant}',",
            f"    array[{coefficients}]::double precision[],",
            f"    {model.default_floor!r},",
            f"    '{fitted_on}'::jsonb",
            ");",
        ]
    return "\n".join(lines) + "\n"
