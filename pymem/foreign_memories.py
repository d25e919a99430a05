"""Reading what users bring from other memory systems (`pymem import-tenant FILE --from mcp-memory | mem0`).

This module only reads the other system's file format and says, per memory, the subject, predicate, content,
when it was observed and the metadata that keeps where it came from. What is stored, what is already there and
what supersedes what is SQL's: pymem.memory_import_facts, which stores through memory_store_fact.

The mappings (docs/operations.md, "Moving in from another memory system"):

- The official MCP memory server's ``memory.jsonl`` (``@modelcontextprotocol/server-memory``): an entity
  ``{"type": "entity", "name", "entityType", "observations": [...]}`` becomes the fact (name, "entity type",
  "<name> is a <entityType>") and one fact per observation (name, "observation <n>", "<name>: <observation>");
  a relation ``{"type": "relation", "from", "to", "relationType"}`` becomes the fact
  (from, "<relationType> <to>", "<from> <relationType> <to>"). The official graph has no dates: observed now
  (forks' "updatedAt" / "createdAt" are read).
- mem0's exported memories (``Memory.get_all()`` / the platform's export: ``{"results": [...]}``, a list, or
  JSON Lines): each ``{"id", "memory", "user_id"?, "agent_id"?, "run_id"?, "metadata"?, "categories"?,
  "created_at"?, "updated_at"?}`` becomes the fact (its user_id, agent_id or "user"; "mem0 <id>"; memory),
  observed at its updated_at or created_at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pymem.errors import InvalidArgumentError

FORMATS = ("mcp-memory", "mem0")


@dataclass(frozen=True)
class ForeignFact:
    line: int
    subject: str
    predicate: str
    content: str
    observed_at: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)


def _text(value: object, what: str, line: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentError(f"line {line}: {what} must be a non-empty text, not {value!r}")
    return value


def _json_lines(path: Path) -> Iterator[tuple[int, Any]]:
    with path.open(encoding="utf-8") as lines:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                yield number, json.loads(text)
            except ValueError as exc:
                raise InvalidArgumentError(f"line {number}: not JSON ({exc})") from None


def _mcp_kind(item: dict[str, Any]) -> str | None:
    """'entity' or 'relation': the line's "type", or for the forks that write none, the keys it has."""
    kind = item.get("type")
    if kind is None and "name" in item:
        return "entity"
    if kind is None and ("from" in item or "from_entity" in item):
        return "relation"
    return kind if isinstance(kind, str) else None


def mcp_memory_facts(path: Path) -> Iterator[ForeignFact]:
    """The facts of an MCP memory server's memory.jsonl (see the module docstring). Also read: the forks' lines
    without "type", relations with "from_entity" / "to_entity", and "updatedAt" / "createdAt" (Unix seconds or
    ISO 8601) as when an entity was observed."""
    for number, item in _json_lines(path):
        kind = _mcp_kind(item) if isinstance(item, dict) else None
        if kind == "entity":
            name = _text(item.get("name"), "an entity's name", number)
            entity_type = item.get("entityType")
            observed = _moment(item.get("updatedAt") or item.get("createdAt"), number)
            source = {"mcp_memory": {"entity": name, "entity_type": entity_type}}
            if isinstance(entity_type, str) and entity_type.strip():
                yield ForeignFact(number, name, "entity type", f"{name} is a {entity_type}", observed, source)
            observations = item.get("observations", [])
            if not isinstance(observations, list):
                raise InvalidArgumentError(f"line {number}: an entity's observations must be a list")
            for n, observation in enumerate(observations, start=1):
                said = _text(observation, f"observation {n} of {name!r}", number)
                # the entity's name leads: an observation ("Age 28", "Status: Completed") is about it, and its
                # embedding must know what about
                kept = {"mcp_memory": {**source["mcp_memory"], "observation": said}}
                yield ForeignFact(number, name, f"observation {n}", f"{name}: {said}", observed, kept)
        elif kind == "relation":
            source_name = _text(item.get("from", item.get("from_entity")), "a relation's from", number)
            target = _text(item.get("to", item.get("to_entity")), "a relation's to", number)
            relation = _text(item.get("relationType"), "a relation's relationType", number)
            yield ForeignFact(
                number,
                source_name,
                f"{relation} {target}",
                f"{source_name} {relation.replace('_', ' ')} {target}",
                _moment(item.get("updatedAt") or item.get("createdAt"), number),
                {"mcp_memory": {"from": source_name, "to": target, "relation_type": relation}},
            )
        else:
            raise InvalidArgumentError(
                f"line {number}: not an MCP memory line (type {kind!r}; 'entity' or 'relation')",
                hint="A pymem export is imported without --from.",
            )


def _moment(value: object, line: int) -> datetime | None:
    """An ISO 8601 text or Unix seconds as a moment (UTC when it names no zone); None for none."""
    if value in (None, ""):
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(value, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise InvalidArgumentError(f"line {line}: {value!r} is not a Unix time in seconds") from None
    if not isinstance(value, str):
        raise InvalidArgumentError(f"line {line}: a date must be an ISO 8601 text or Unix seconds, not {value!r}")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidArgumentError(f"line {line}: {value!r} is not an ISO 8601 date") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _mem0_items(path: Path) -> Iterator[tuple[int, Any]]:
    text = path.read_text(encoding="utf-8")
    try:
        document = json.loads(text)
    except ValueError:
        yield from _json_lines(path)  # JSON Lines: one memory a line
        return
    items = document.get("results", document.get("memories")) if isinstance(document, dict) else document
    if not isinstance(items, list):
        raise InvalidArgumentError('line 1: not a mem0 export (a list of memories, or {"results": [...]})')
    # one JSON document: a memory's "line" is its place in the list
    yield from enumerate(items, start=1)


def mem0_facts(path: Path) -> Iterator[ForeignFact]:
    """The facts of mem0's exported memories (see the module docstring)."""
    for number, item in _mem0_items(path):
        if not isinstance(item, dict) or "memory" not in item:
            raise InvalidArgumentError(f"line {number}: not a mem0 memory (no 'memory' text)")
        content = _text(item.get("memory"), "a memory's text", number)
        memory_id = _text(str(item.get("id") or ""), "a memory's id", number)
        owner = item.get("user_id") or item.get("agent_id") or "user"
        keep = ("id", "user_id", "agent_id", "run_id", "hash", "categories", "metadata", "created_at", "updated_at")
        yield ForeignFact(
            number,
            _text(str(owner), "a memory's user_id", number),
            f"mem0 {memory_id}",
            content,
            observed_at=_moment(item.get("updated_at") or item.get("created_at"), number),
            metadata={"mem0": {key: item[key] for key in keep if item.get(key) is not None}},
        )


def foreign_facts(path: Path, source: str) -> Iterator[ForeignFact]:
    if source == "mcp-memory":
        return mcp_memory_facts(path)
    if source == "mem0":
        return mem0_facts(path)
    raise InvalidArgumentError(f"unknown format {source!r}; one of {', '.join(FORMATS)}")
