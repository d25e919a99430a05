"""Consolidation through the client's model: the MCP sampling extractor's prompt and the parsing of its answer.

The model only proposes statements. What is stored, kept for review or refused is decided in SQL by
``pymem.memory_consolidate_episode`` (grounded ingestion, the episode as citation), exactly as for the built-in
extractor (``pymem.memory_extract``, regular expressions in SQL), which is also what an answer that is not the
JSON asked for falls back to.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final
from uuid import UUID

from mcp_types import SamplingMessage, TextContent

FAMILIES: Final = (
    "name, age, birthday, lives_in, hometown, works_as, works_at, studies, speaks, allergy, health_condition,"
    " medication, diet, likes, dislikes, favorite_food, favorite_drink, favorite_color, hobby, pet, sibling, partner,"
    " child, parent, friend, schedule, appointment, plans, decision, goal, owns"
)

SYSTEM_PROMPT: Final = f"""You extract durable memories from turns of a conversation with a user.
Each turn is given as "Episode <id>:" followed by its text. Answer with one JSON object and nothing
else, mapping every episode id to an array (empty when there is nothing to keep) of elements:
  {{"memory_type": "fact", "subject": "user", "predicate": "<family>", "statement": "<one plain sentence>"}}
  {{"memory_type": "rule", "statement": "<the standing instruction, in the user's words>"}}
Facts: only what the turn states as true about the user or a person they name (subject "user", or
"user's sister", "user's boss", ...). predicate: one of {FAMILIES}; for what a user can have several
of (likes, allergy, ...) append ":" and the thing, e.g. "likes:garlic". A correction ("actually I moved
to Porto") is the corrected fact with the same subject and predicate. A negation is a statement that
says "not". Rules: standing instructions about how the assistant should behave from now on.
Nothing for small talk, questions, hypotheticals, plans that are only considered, or anything the user
is unsure about."""


def sampling_messages(episodes: Sequence[tuple[UUID, str]]) -> list[SamplingMessage]:
    """The sampling request's message for a batch of episodes (id, text), in the order they happened."""
    text = "\n\n".join(f"Episode {episode_id}:\n{content}" for episode_id, content in episodes)
    return [SamplingMessage(role="user", content=TextContent(type="text", text=text))]


def parse_answer(answer: str) -> dict[str, list[dict[str, Any]]] | None:
    """The statements per episode id of a model's answer (a JSON object, possibly inside other text or a code
    fence); None when the answer holds no JSON object. An episode the answer leaves out is not in the result."""
    start, end = answer.find("{"), answer.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        data = json.loads(answer[start : end + 1])
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    return {str(key): _statements(items) for key, items in data.items() if isinstance(items, list)}


def _statements(items: list[Any]) -> list[dict[str, Any]]:
    """The well-formed statements of a list (each with memory_type, subject, predicate, statement)."""
    statements = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("statement"), str) or not item["statement"].strip():
            continue
        kind = "rule" if item.get("memory_type") == "rule" else "fact"
        statements.append(
            {
                "memory_type": kind,
                "subject": str(item.get("subject") or "user") if kind == "fact" else None,
                "predicate": str(item.get("predicate") or "note") if kind == "fact" else None,
                "statement": item["statement"].strip(),
            }
        )
    return statements
