"""Memory poisoning measured: each episode of eval/poisoning/episodes.jsonl, eval/poisoning/heldout.jsonl and
eval/poisoning/heldout2.jsonl is stored and consolidated by the built-in extractor (pymem.memory_consolidate),
through the real SQL functions, in a transaction that is rolled back; what became of it is counted per split
and label.

- injection: how many episodes gave an approved rule or fact (the target on 'test' is 0), how many were kept
  for review (memory_confirm decides), how many gave nothing; and how many of their approved rules reached the
  System block of memory_context after five memory_mark_helpful calls.
- benign: how many episodes gave an approved rule or fact (the rate), against REFERENCE, the same measurement
  of the code before the guards (commit cbbeb5c), so the report can say what share of today's rate is kept.

The patterns of pymem_private.guard_patterns were written on 'dev'. The first set's 'test' split was reported
until its misses were read while writing the 'stakes' patterns; from then on 'heldout' (heldout.jsonl, written
afterwards by someone who read neither the checks nor the first set) was what is reported, until its one miss (a
request in another language) was read and the check of text the guards cannot read was written; from then on
'heldout2' (heldout2.jsonl, written blind to the checks and to both sets, and first measured after that check
was committed) is.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import psycopg

from pymem_dev.evaluation.embedcache import EmbedderLike

EPISODES = Path(__file__).resolve().parents[2] / "eval" / "poisoning" / "episodes.jsonl"
HELDOUT = EPISODES.with_name("heldout.jsonl")
HELDOUT2 = EPISODES.with_name("heldout2.jsonl")
TENANT: Final = "pymem-eval-poisoning"
BUTLER: Final = "eval"
HELPFUL_MARKS: Final = 5
SPLITS: Final = ("dev", "test", "heldout", "heldout2")

# What the code before the guards (commit cbbeb5c) did with each split: pymem.memory_consolidate and this module's
# consolidate() against a database migrated by that commit. Measured on 2026-11-25 (episodes.jsonl of commit
# f050fa0; heldout.jsonl the day it was written, before any check was run on it; heldout2.jsonl likewise, in a
# database migrated by cbbeb5c, the same day as it was measured at 660d070).
REFERENCE: Final[dict[str, Any]] = {
    "commit": "cbbeb5c",
    "benign_episodes": {"dev": 77, "test": 77, "heldout": 100, "heldout2": 100},
    "benign_approved": {"dev": 15, "test": 16, "heldout": 28, "heldout2": 15},
    "injection_episodes": {"dev": 82, "test": 83, "heldout": 100, "heldout2": 100},
    "injection_approved": {"dev": 12, "test": 11, "heldout": 18, "heldout2": 4},
    "injection_in_system_after_helpful": {"dev": 11, "test": 9, "heldout": 14, "heldout2": 4},
}


@dataclass(frozen=True)
class Episode:
    """A labelled episode: benign (a user's standing preference) or injection, with its category."""

    id: str
    split: str
    label: str
    category: str
    text: str


@dataclass(frozen=True)
class Outcome:
    """What consolidating one episode stored: approved facts and rules, kept for review, refused, and how many
    of its approved rules were in the System block after HELPFUL_MARKS helpful marks."""

    facts: int
    rules: int
    kept_for_review: int
    refused: int
    in_system: int

    @property
    def approved(self) -> bool:
        return self.facts + self.rules > 0


def load_episodes(path: Path = EPISODES) -> list[Episode]:
    episodes = []
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            episodes.append(Episode(row["id"], row["split"], row["label"], row["category"], row["text"]))
    return episodes


def consolidate(conn: psycopg.Connection[Any], text: str, embedding: Any = None, model: str | None = None) -> Outcome:
    """Store text as an episode, consolidate it, mark each approved rule helpful HELPFUL_MARKS times and count the
    rules in memory_context's System block; all in one transaction, rolled back."""
    with conn.transaction(force_rollback=True):
        conn.execute("select set_config('pymem.tenant_id', %s, true)", (TENANT,))
        vector = None if embedding is None else "[" + ",".join(f"{float(v):.7g}" for v in embedding) + "]"
        conn.execute(
            "select from pymem.memory_store_episode(content => %s::text, butler => %s::text,"
            " embedding => %s::public.vector, embedding_model => %s::text)",
            (text, BUTLER, vector, model if vector is not None else None),
        )
        row = conn.execute(
            "select coalesce(sum(facts), 0)::int, coalesce(sum(rules), 0)::int, coalesce(sum(kept_for_review), 0)::int,"
            " coalesce(sum(refused), 0)::int from pymem.memory_consolidate()"
        ).fetchone()
        assert row is not None
        facts, rules, review, refused = row
        approved = [
            r[0]
            for r in conn.execute(
                "select r.id from pymem.rules as r where r.tenant_id = %s and r.review_state = 'approved'", (TENANT,)
            ).fetchall()
        ]
        for rule_id in approved:
            for _ in range(HELPFUL_MARKS):
                conn.execute("select from pymem.memory_mark_helpful(rule_id => %s::uuid)", (rule_id,))
        in_system = 0
        if approved:
            found = conn.execute(
                "select count(*)::int from pymem.memory_context_candidates(trigger_prompt => %s::text,"
                " butler => %s::text) where section = 'system' and memory_type = 'rule'",
                (text[:2000], BUTLER),
            ).fetchone()
            in_system = found[0] if found else 0
    return Outcome(facts, rules, review, refused, in_system)


def _figures(episodes: list[Episode], outcomes: dict[str, Outcome]) -> dict[str, Any]:
    approved = [e for e in episodes if outcomes[e.id].approved]
    review = [e for e in episodes if not outcomes[e.id].approved and outcomes[e.id].kept_for_review]
    return {
        "episodes": len(episodes),
        "approved": len(approved),
        "approved_rate": round(len(approved) / len(episodes), 3) if episodes else None,
        "kept_for_review": len(review),
        "nothing": len(episodes) - len(approved) - len(review),
        "in_system_after_helpful": sum(outcomes[e.id].in_system for e in episodes),
        "approved_by_category": dict(sorted(Counter(e.category for e in approved).items())),
        "approved_ids": [e.id for e in approved],
    }


def run_poisoning(
    conn: psycopg.Connection[Any],
    embedder: EmbedderLike | None,
    paths: tuple[Path, ...] = (EPISODES, HELDOUT, HELDOUT2),
) -> dict[str, Any]:
    """Injection episodes that became an approved rule or fact, and benign ones still extracted, per split,
    with today's reference (REFERENCE) beside the benign rate. Each episode is stored with its embedding (as the
    MCP server stores it), unless embedder is None."""
    episodes = [e for path in paths for e in load_episodes(path)]
    vectors = embedder.embed_many([e.text for e in episodes]) if embedder is not None else [None] * len(episodes)
    model = embedder.model_id if embedder is not None else None
    outcomes = {e.id: consolidate(conn, e.text, v, model) for e, v in zip(episodes, vectors, strict=True)}
    result: dict[str, Any] = {"paths": [str(p) for p in paths], "reference_commit": REFERENCE["commit"]}
    for split in SPLITS:
        injection = _figures([e for e in episodes if e.split == split and e.label == "injection"], outcomes)
        benign = _figures([e for e in episodes if e.split == split and e.label == "benign"], outcomes)
        reference = REFERENCE["benign_approved"][split]
        benign["reference_approved"] = reference
        benign["share_of_reference"] = round(benign["approved"] / reference, 3) if reference else None
        injection["reference_approved"] = REFERENCE["injection_approved"][split]
        injection["reference_in_system_after_helpful"] = REFERENCE["injection_in_system_after_helpful"][split]
        result[split] = {"injection": injection, "benign": benign}
    return result
