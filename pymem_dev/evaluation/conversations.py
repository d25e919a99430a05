"""Consolidation of real-looking chats measured: each conversation of eval/conversations/chats.jsonl is stored turn
by turn as episodes ("Maya: ..."; one session id per session), consolidated by pymem.memory_consolidate (the
built-in extractor, as the consolidation worker runs it), and what it stored is scored against the facts a careful
human labelled on each turn; all in a transaction that is rolled back.

- precision: stored facts (approved, or kept for review) that match a labelled fact of the turn they were drawn
  from: the same subject (case-insensitive; 'user' is the user of a user/assistant chat) and the same value
  (value_in: the label's value in the statement, or what the statement says besides its framing in the value);
- subject right: of the stored facts whose value matches a label of their turn, the share with the label's
  subject (the speaker, or the person talked about, never "the user" for someone else);
- recall: labelled facts matched by a stored fact of their turn;
- evidence reachable: the share of questions whose evidence turns gave at least one approved fact (what the facts
  can answer), beside the share that raw episodes give (every evidence turn is an episode: 1.0 until they expire).

'dev' is for development; 'test' is reported.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import psycopg

CHATS = Path(__file__).resolve().parents[2] / "eval" / "conversations" / "chats.jsonl"
TENANT: Final = "pymem-eval-conversations"
BUTLER: Final = "chat"
SPLITS: Final = ("dev", "test")
WORD = re.compile(r"[^\W_]{3,}")


@dataclass(frozen=True)
class Turn:
    id: str
    session: int
    speaker: str
    text: str
    facts: list[dict[str, str]]


@dataclass(frozen=True)
class Conversation:
    id: str
    split: str
    kind: str
    turns: list[Turn]
    questions: list[dict[str, Any]]


def load_conversations(path: Path = CHATS) -> list[Conversation]:
    conversations = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        turns = [
            Turn(t["turn"], s["session"], t["speaker"], t["text"], t.get("facts", []))
            for s in row["sessions"]
            for t in s["turns"]
        ]
        conversations.append(Conversation(row["id"], row["split"], row["kind"], turns, row.get("questions", [])))
    return conversations


# the words a statement of the built-in extractor frames its value with ("The user's hobby: fiddle.")
_FRAMING_WORDS = (
    "the user user's has have had is are was were and with for from that this his her their works work likes like"
    " dislikes hobby goal goals appointment schedule plans plan name lives live speaks speak allergy allergic"
    " favourite favorite"
)
FRAMING: Final = frozenset(_FRAMING_WORDS.split(" "))


def value_in(value: str, statement: str, subject: str = "") -> bool:
    """The label's value and the statement say the same: the value is in the statement (whole, or 60% of its words
    of three letters or more), or at least half of what the statement says besides its framing and its subject is
    in the value ("The user has coeliac disease." for "diagnosed with coeliac disease in February 2026")."""
    value, statement = value.lower(), statement.lower()
    if value in statement:
        return True
    words = WORD.findall(value)
    found = set(WORD.findall(statement))
    if words and sum(w in found for w in words) >= 0.6 * len(words):
        return True
    said = [w for w in found if w not in FRAMING and w not in WORD.findall(subject.lower())]
    return bool(said) and sum(w in set(words) for w in said) >= 0.5 * len(said)


def same_subject(stored: str, labelled: str) -> bool:
    return stored.strip().lower() == labelled.strip().lower()


def turn_text(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


def store_turns(
    conn: psycopg.Connection[Any],
    conversation: Conversation,
    vectors: Sequence[Any] | None = None,
    model: str | None = None,
) -> dict[str, Any]:
    """Each turn as an episode of BUTLER ("Maya: ...", one session id per session, with its embedding when vectors
    are given), in the caller's tenant transaction; the episode id of each turn id."""
    episode_of: dict[str, Any] = {}
    for n, turn in enumerate(conversation.turns):
        session = uuid.uuid5(uuid.NAMESPACE_URL, f"{conversation.id}/{turn.session}")
        vector = None if vectors is None else "[" + ",".join(f"{float(v):.7g}" for v in vectors[n]) + "]"
        row = conn.execute(
            "select memory_id from pymem.memory_store_episode(content => %s::text, butler => %s::text,"
            " session_id => %s::uuid, embedding => %s::public.vector, embedding_model => %s::text)",
            (turn_text(turn), BUTLER, session, vector, model if vector is not None else None),
        ).fetchone()
        assert row is not None
        episode_of[turn.id] = row[0]
    return episode_of


def consolidate(conn: psycopg.Connection[Any], conversation: Conversation) -> list[dict[str, Any]]:
    """Store the conversation's turns as episodes, consolidate them all and return every fact stored, with the turn
    it was drawn from; rolled back."""
    with conn.transaction(force_rollback=True):
        conn.execute("select set_config('pymem.tenant_id', %s, true)", (TENANT,))
        turn_of = {episode: turn for turn, episode in store_turns(conn, conversation).items()}
        while conn.execute('select count(*) from pymem.memory_consolidate("limit" => 1000)').fetchone() == (1000,):
            pass
        rows = conn.execute(
            "select subject, predicate, content, validity, source_episode_id from pymem.facts order by created_at, id"
        ).fetchall()
    return [
        {"subject": s, "predicate": p, "statement": c, "validity": v, "turn": turn_of.get(e)} for s, p, c, v, e in rows
    ]


def score(conversation: Conversation, stored: list[dict[str, Any]]) -> dict[str, Any]:
    labels = {t.id: t.facts for t in conversation.turns}
    matched_labels: set[tuple[str, int]] = set()
    right = value_matched = 0
    wrong = []
    for fact in stored:
        candidates = list(enumerate(labels.get(fact["turn"] or "", [])))
        by_value = [(i, f) for i, f in candidates if value_in(f["value"], fact["statement"], fact["subject"])]
        if by_value:
            value_matched += 1
        hit = next((i for i, f in by_value if same_subject(fact["subject"], f["subject"])), None)
        if hit is None:
            wrong.append(f"{fact['turn']}|{fact['subject']}|{fact['predicate']}|{fact['statement']}")
        else:
            right += 1
            matched_labels.add((fact["turn"], hit))
    subject_right = sum(
        1
        for fact in stored
        if any(
            value_in(f["value"], fact["statement"], fact["subject"]) and same_subject(fact["subject"], f["subject"])
            for f in labels.get(fact["turn"] or "", [])
        )
    )
    approved_turns = {f["turn"] for f in stored if f["validity"] in ("active", "superseded")}
    questions = conversation.questions
    return {
        "turns": len(conversation.turns),
        "labelled": sum(len(f) for f in labels.values()),
        "stored": len(stored),
        "matched": right,
        "value_matched": value_matched,
        "subject_right": subject_right,
        "recalled_labels": len(matched_labels),
        "questions": len(questions),
        "questions_reachable": sum(1 for q in questions if approved_turns & set(q["evidence"])),
        "wrong": wrong,
    }


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def run_conversations(conn: psycopg.Connection[Any], path: Path = CHATS) -> dict[str, Any]:
    """Precision, recall, subject accuracy and the evidence reachable through facts, per split."""
    result: dict[str, Any] = {"path": str(path)}
    conversations = load_conversations(path)
    for split in SPLITS:
        scored = {c.id: score(c, consolidate(conn, c)) for c in conversations if c.split == split}
        total = {k: sum(s[k] for s in scored.values()) for k in next(iter(scored.values()), {}) if k != "wrong"}
        if not scored:
            continue
        result[split] = {
            "conversations": len(scored),
            **total,
            "precision": ratio(total["matched"], total["stored"]),
            "recall": ratio(total["recalled_labels"], total["labelled"]),
            "subject_right": ratio(total["subject_right"], total["value_matched"]),
            "evidence_reachable_through_facts": ratio(total["questions_reachable"], total["questions"]),
            "evidence_reachable_through_episodes": 1.0 if total["questions"] else None,
        }
        if split == "dev":  # test is for reporting: what it got wrong is not listed, so that nobody tunes on it
            result[split]["wrong"] = {c: s["wrong"] for c, s in scored.items() if s["wrong"]}
    return result
