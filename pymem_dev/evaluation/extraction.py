"""Consolidation's built-in extractor measured: the facts and rules pymem.memory_extract finds in each episode of
eval/extraction/episodes.jsonl, against the ones a careful human filed; precision and recall per split.

An extracted fact matches an expected one when the subject is the same, the predicate's family (the part before
':') is the same, the expected value is in its content (case-insensitively) and both are, or neither is, a
negation; an extracted rule matches when the expected value is in its content. Each expected item is matched at
most once. The patterns were written looking at the 'dev' split; 'test' is what is reported.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

EPISODES = Path(__file__).resolve().parents[2] / "eval" / "extraction" / "episodes.jsonl"


@dataclass(frozen=True)
class Episode:
    """A chat turn of the golden extraction set and what should be filed from it."""

    id: str
    split: str
    conversation: str
    turn: int
    content: str
    case: str
    expected_facts: list[dict[str, Any]] = field(default_factory=list)
    expected_rules: list[dict[str, Any]] = field(default_factory=list)


def load_episodes(path: Path = EPISODES) -> list[Episode]:
    episodes = []
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            episodes.append(
                Episode(
                    id=row["id"],
                    split=row["split"],
                    conversation=row["conversation"],
                    turn=int(row["turn"]),
                    content=row["content"],
                    case=row["case"],
                    expected_facts=row["expected_facts"],
                    expected_rules=row["expected_rules"],
                )
            )
    return episodes


def extract(conn: psycopg.Connection[Any], content: str) -> list[dict[str, Any]]:
    """The rows of pymem.memory_extract(content)."""
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute("select * from pymem.memory_extract(content => %s::text)", (content,)).fetchall()


def _fact_matches(found: dict[str, Any], expected: dict[str, Any]) -> bool:
    return (
        found["memory_type"] == "fact"
        and found["subject"] == expected["subject"]
        and str(found["predicate"]).split(":", 1)[0] == expected["predicate"]
        and str(expected["value"]).lower() in str(found["statement"]).lower()
        and bool(found["negated"]) == bool(expected.get("negated", False))
    )


def _rule_matches(found: dict[str, Any], expected: dict[str, Any]) -> bool:
    return found["memory_type"] == "rule" and str(expected["value"]).lower() in str(found["statement"]).lower()


def _matches(found: dict[str, Any], kind: str, expected: dict[str, Any]) -> bool:
    return _fact_matches(found, expected) if kind == "fact" else _rule_matches(found, expected)


def score_episode(episode: Episode, found: list[dict[str, Any]]) -> dict[str, Any]:
    """Matched, extracted and expected counts of one episode, with what was wrong and what was missed."""
    expected = [("fact", e) for e in episode.expected_facts] + [("rule", e) for e in episode.expected_rules]
    unmatched = list(range(len(expected)))
    wrong = []
    for row in found:
        hit = next((i for i in unmatched if _matches(row, *expected[i])), None)
        if hit is None:
            wrong.append(f"{row['subject'] or 'rule'}|{row['predicate'] or ''}|{row['statement']}")
        else:
            unmatched.remove(hit)
    missed = [
        f"{kind}:{e.get('subject', '')}|{e.get('predicate', '')}|{e['value']}"
        for kind, e in (expected[i] for i in unmatched)
    ]
    return {
        "extracted": len(found),
        "expected": len(expected),
        "matched": len(found) - len(wrong),
        "wrong": wrong,
        "missed": missed,
    }


def run_extraction(conn: psycopg.Connection[Any], path: Path = EPISODES) -> dict[str, Any]:
    """Precision and recall of memory_extract per split ('test' is reported; the patterns were written on 'dev')."""
    episodes = load_episodes(path)
    result: dict[str, Any] = {"path": str(path)}
    for split in ("dev", "test"):
        scored = {e.id: score_episode(e, extract(conn, e.content)) for e in episodes if e.split == split}
        extracted = sum(s["extracted"] for s in scored.values())
        expected = sum(s["expected"] for s in scored.values())
        matched = sum(s["matched"] for s in scored.values())
        result[split] = {
            "episodes": len(scored),
            "extracted": extracted,
            "expected": expected,
            "matched": matched,
            "precision": round(matched / extracted, 3) if extracted else None,
            "recall": round(matched / expected, 3) if expected else None,
            "wrong": {i: s["wrong"] for i, s in scored.items() if s["wrong"]},
            "missed": {i: s["missed"] for i, s in scored.items() if s["missed"]},
        }
    return result
