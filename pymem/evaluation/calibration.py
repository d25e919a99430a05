"""How well a search row's evidence tells a relevant memory from an irrelevant one: the measurement
behind a calibrated relevance (issue 15), before any of it is applied.

Today memory_recall's relevance is the row's RRF score over the best one of the query: a rank, not a
measure, so the second of three unrelated memories gets ~0.97. This module fits a small logistic model
on absolute evidence (cosine similarity, the keyword score, whether each leg found the row) on the
SciFact **train** qrels only, and reports on the **test** split, beside the rank-based relevance:

- AUC: the chance that a relevant row of a query outranks an irrelevant one of any query (a relevance
  floor needs scores comparable across queries, which a per-query normalised rank is not);
- log-loss and Brier score of the relevance read as a probability;
- a reliability table (mean predicted vs observed share of relevant rows per bin).

Model fitting is evaluation tooling (numpy IRLS); applying coefficients to searches belongs in SQL.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pymem.client import SearchRow

FEATURES = (
    "semantic_score",
    "keyword_score",
    "semantic_found",
    "keyword_found",
    "semantic_reciprocal_rank",
    "keyword_reciprocal_rank",
    "semantic_gap_to_best",
)


@dataclass(frozen=True)
class Evidence:
    """One row of one query: its features, whether the qrels call it relevant, and today's relevance."""

    features: tuple[float, ...]
    relevant: bool
    rank_relevance: float


def row_features(
    semantic_score: float | None,
    keyword_score: float | None,
    semantic_rank: int | None = None,
    keyword_rank: int | None = None,
    best_semantic: float | None = None,
) -> tuple[float, ...]:
    """Absolute evidence (cosine similarity or 0, keyword score in [0, 1] or 0, found by each leg) and
    evidence relative to the query (1/rank in each leg or 0, cosine minus the query's best cosine)."""
    return (
        float(semantic_score or 0.0),
        float(keyword_score or 0.0),
        1.0 if semantic_score is not None else 0.0,
        1.0 if keyword_score is not None else 0.0,
        1.0 / semantic_rank if semantic_rank else 0.0,
        1.0 / keyword_rank if keyword_rank else 0.0,
        float(semantic_score - best_semantic) if semantic_score is not None and best_semantic is not None else -1.0,
    )


def rank_relevance(scores: Sequence[float]) -> list[float]:
    """memory_recall's relevance today: each row's fused score over the query's best one."""
    best = max(scores, default=0.0)
    return [s / best if best > 0 else 0.0 for s in scores]


def rows_evidence(rows: Sequence[SearchRow], relevant: Sequence[bool]) -> list[Evidence]:
    """One query's search rows as evidence: each row's features, its label and today's rank relevance."""
    best = max((row.semantic_score for row in rows if row.semantic_score is not None), default=None)
    relevance = rank_relevance([row.score for row in rows])
    return [
        Evidence(
            features=row_features(row.semantic_score, row.keyword_score, row.semantic_rank, row.keyword_rank, best),
            relevant=label,
            rank_relevance=rel,
        )
        for row, label, rel in zip(rows, relevant, relevance, strict=True)
    ]


def _design(x: np.ndarray) -> np.ndarray:
    return np.hstack([np.ones((x.shape[0], 1)), x])


def fit_logistic(x: np.ndarray, y: np.ndarray, *, l2: float = 1e-3, iterations: int = 100) -> np.ndarray:
    """Coefficients (intercept first) of a logistic regression by iteratively reweighted least squares,
    with a small L2 penalty (not on the intercept) so that a separable feature cannot diverge."""
    if x.ndim != 2 or x.shape[0] != y.shape[0] or x.shape[0] == 0:
        raise ValueError("fit_logistic needs a non-empty 2-d x with one label per row")
    design = _design(x)
    coef = np.zeros(design.shape[1])
    penalty = l2 * np.eye(design.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ coef)))
        w = np.clip(p * (1.0 - p), 1e-9, None)
        gradient = design.T @ (y - p) - penalty @ coef
        hessian = design.T @ (design * w[:, None]) + penalty
        step = np.linalg.solve(hessian, gradient)
        coef = coef + step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return coef


def predict(coef: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-(_design(x) @ coef))), dtype=np.float64)


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


def summarise(evidence: Sequence[Evidence], coef: np.ndarray) -> dict[str, Any]:
    """AUC, log-loss, Brier and reliability of today's rank relevance and of the fitted model's."""
    x = np.asarray([e.features for e in evidence], dtype=np.float64)
    labels = [e.relevant for e in evidence]
    calibrated = predict(coef, x)
    ranked = [e.rank_relevance for e in evidence]
    return {
        "rows": len(evidence),
        "relevant_rows": sum(labels),
        "rank_relevance": {
            "auc": _round(auc(ranked, labels)),
            "log_loss": round(log_loss(ranked, labels), 4),
            "brier": round(brier(ranked, labels), 4),
            "reliability": reliability(ranked, labels),
        },
        "calibrated": {
            "auc": _round(auc(calibrated.tolist(), labels)),
            "log_loss": round(log_loss(calibrated.tolist(), labels), 4),
            "brier": round(brier(calibrated.tolist(), labels), 4),
            "reliability": reliability(calibrated.tolist(), labels),
        },
    }


def _round(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(value, 4)


def transfer(questions: Sequence[dict[str, Any]], coef: Sequence[float], floor: float = 0.5) -> dict[str, Any]:
    """The model fitted elsewhere (SciFact train) applied to the golden set's hybrid rows (golden.hybrid_evidence):
    how it ranks relevant rows against the others, and, per question, whether its best row clears `floor`:
    a no-answer question should not, an answerable one should."""
    c = np.asarray(coef, dtype=np.float64)
    evidence = [
        Evidence(tuple(r["features"]), bool(r["relevant"]), float(r["rank_relevance"]))
        for q in questions
        for r in q["rows"]
    ]
    out: dict[str, Any] = {"floor": floor, "questions": len(questions)}
    if evidence:
        out["rows"] = summarise(evidence, c)
    best = {
        q["id"]: (
            q["answerable"],
            float(predict(c, np.asarray([r["features"] for r in q["rows"]], dtype=np.float64)).max())
            if q["rows"]
            else 0.0,
        )
        for q in questions
    }
    no_answer = [b for answerable, b in best.values() if not answerable]
    answerable = [b for answerable, b in best.values() if answerable]
    out["no_answer_questions"] = len(no_answer)
    out["no_answer_below_floor"] = round(sum(b < floor for b in no_answer) / len(no_answer), 4) if no_answer else None
    out["answerable_above_floor"] = (
        round(sum(b >= floor for b in answerable) / len(answerable), 4) if answerable else None
    )
    return out
