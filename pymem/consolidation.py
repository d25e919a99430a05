"""Consolidation through the client's model: the MCP sampling extractor's prompt.

The model only proposes statements, and pymem only passes its reply on, as it came, to
``pymem.memory_consolidate_episode``: SQL reads the JSON object in it, normalises the statements (a default subject
and predicate, a type other than rule a fact, blank statements left out), falls back to the built-in extractor
(``pymem.memory_extract``) for an episode the reply is of no use for, and decides what is stored, kept for review or
refused (grounded ingestion, the episode as citation), one episode per transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final
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
