"""Retrieval metrics over one ranked list of keys: pure functions, no database.

``ranked`` is the list of result keys, best first (a key that appears twice counts once, at its
first rank); ``relevant`` maps a key to its graded relevance (> 0 relevant; 2 = the answer,
1 = related). Precision and recall count any grade > 0; nDCG uses the grades (gain 2^g - 1).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence


def _dedupe(ranked: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for key in ranked:
        if key not in seen:
            seen.add(key)
            out.append(key)
    return out


def _relevant(relevant: Mapping[str, float]) -> set[str]:
    return {key for key, grade in relevant.items() if grade > 0}


def precision_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """Relevant results among the first k, divided by k (a short list is not padded away)."""
    if k < 1:
        raise ValueError("k must be >= 1")
    hits = sum(1 for key in _dedupe(ranked)[:k] if key in _relevant(relevant))
    return hits / k


def recall_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int) -> float:
    """Relevant results among the first k, divided by all relevant keys (1.0 when there are none)."""
    if k < 1:
        raise ValueError("k must be >= 1")
    wanted = _relevant(relevant)
    if not wanted:
        return 1.0
    return sum(1 for key in _dedupe(ranked)[:k] if key in wanted) / len(wanted)


def reciprocal_rank(ranked: Sequence[str], relevant: Mapping[str, float], k: int | None = None) -> float:
    """1 / rank of the first relevant result (within the first k when given), 0 when there is none."""
    wanted = _relevant(relevant)
    for rank, key in enumerate(_dedupe(ranked)[:k] if k else _dedupe(ranked), 1):
        if key in wanted:
            return 1.0 / rank
    return 0.0


def dcg_at_k(grades: Sequence[float], k: int) -> float:
    """Discounted cumulative gain of grades in rank order: sum (2^g - 1) / log2(rank + 1)."""
    return float(sum((2.0**g - 1.0) / math.log2(rank + 1) for rank, g in enumerate(grades[:k], 1)))


def ndcg_at_k(ranked: Sequence[str], relevant: Mapping[str, float], k: int = 10) -> float:
    """DCG of the ranking over the DCG of the ideal ranking (all relevant keys by grade); 0 when none."""
    if k < 1:
        raise ValueError("k must be >= 1")
    ideal = dcg_at_k(sorted((g for g in relevant.values() if g > 0), reverse=True), k)
    if ideal == 0:
        return 0.0
    return dcg_at_k([float(relevant.get(key, 0)) for key in _dedupe(ranked)], k) / ideal


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between closest ranks; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else math.nan
