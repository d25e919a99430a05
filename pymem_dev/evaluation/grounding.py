"""Grounded ingestion measured: the tier pymem.memory_ingestion_tier gives each labelled statement of
eval/grounding/statements.jsonl, against its label; precision and recall per tier, per split.

The statements were written and labelled apart from the rules (the regular expressions of
sql/functions/118-grounding.sql): the rules were written looking at the 'dev' split only, and the 'test'
split is what is reported.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from pymem.client import MemoryClient

STATEMENTS = Path(__file__).resolve().parents[2] / "eval" / "grounding" / "statements.jsonl"
TIERS = (1, 2, 3)


@dataclass(frozen=True)
class Statement:
    """A labelled statement: what an agent stores, with its provenance, and the tier it should get."""

    id: str
    split: str
    memory_type: str
    content: str
    source: str | None
    citation: str | None
    tier: int
    case: str


def load_statements(path: Path = STATEMENTS) -> list[Statement]:
    statements = []
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            statements.append(
                Statement(
                    id=row["id"],
                    split=row["split"],
                    memory_type=row["memory_type"],
                    content=row["content"],
                    source=row["source"],
                    citation=row["citation"],
                    tier=int(row["tier"]),
                    case=row["case"],
                )
            )
    return statements


def classify(conn: psycopg.Connection[Any], statements: list[Statement]) -> dict[str, tuple[int, str]]:
    """id -> (tier, reason) as pymem.memory_ingestion_tier decides."""
    db = MemoryClient(conn)
    decided = {}
    for s in statements:
        row = db.ingestion_tier(content=s.content, source=s.source, citation=s.citation)
        decided[s.id] = (row.tier, row.reason)
    return decided


def tier_figures(statements: list[Statement], decided: dict[str, tuple[int, str]]) -> dict[str, Any]:
    """Precision and recall per tier, the confusion counts (label -> decided) and the misclassified ids."""
    pairs = [(s.tier, decided[s.id][0]) for s in statements]
    figures: dict[str, Any] = {"statements": len(pairs), "accuracy": _ratio(sum(a == b for a, b in pairs), len(pairs))}
    for tier in TIERS:
        labelled = sum(a == tier for a, _ in pairs)
        given = sum(b == tier for _, b in pairs)
        right = sum(a == b == tier for a, b in pairs)
        figures[f"tier{tier}"] = {
            "labelled": labelled,
            "decided": given,
            "precision": _ratio(right, given),
            "recall": _ratio(right, labelled),
        }
    confusion = Counter(f"{a}->{b}" for a, b in pairs)
    figures["confusion"] = dict(sorted(confusion.items()))
    figures["wrong"] = [
        {"id": s.id, "case": s.case, "label": s.tier, "decided": decided[s.id][0], "reason": decided[s.id][1]}
        for s in statements
        if decided[s.id][0] != s.tier
    ]
    return figures


def run_grounding(conn: psycopg.Connection[Any], path: Path = STATEMENTS) -> dict[str, Any]:
    """The figures of both splits ('test' is the one reported; the rules were written on 'dev')."""
    statements = load_statements(path)
    decided = classify(conn, statements)
    return {split: tier_figures([s for s in statements if s.split == split], decided) for split in ("dev", "test")} | {
        "path": str(path)
    }


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 3) if denominator else None
