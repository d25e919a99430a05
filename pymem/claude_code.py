"""Claude Code hooks: memory in every Claude Code session without the agent asking for it.

Claude Code runs a command at points of its lifecycle with a JSON object on stdin (session_id, transcript_path,
cwd, hook_event_name and the event's own fields) and reads JSON from stdout. `pymem hook EVENT` is that command:

- ``session-start`` (SessionStart) and ``user-prompt`` (UserPromptSubmit): the butler's ``memory_context`` block,
  for the project (at start) or the prompt, as ``hookSpecificOutput.additionalContext``;
- ``stop`` (Stop): the turn that just ended, the user's prompt and the assistant's reply, stored as two episodes
  of the session (session id from Claude Code's, observed when they were said, provenance in metadata), to be
  consolidated later like any episode.

What is stored and what is in the block is decided by the SQL functions the MCP tools call (memory_store_episode,
memory_context_candidates / memory_context_select), through the typed client. A hook never stands in the user's
way: whatever fails (no database, a bad payload), it exits 0 with one line on stderr and adds nothing.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final, TextIO

import psycopg
from pgvector.psycopg import register_vector

from pymem import context, limits
from pymem.client import MemoryClient
from pymem.config import Settings
from pymem.database import open_database
from pymem.embeddings import Embedder, embedder_from_settings
from pymem.tenancy import tenant_transaction, validate_tenant_id

log = logging.getLogger(__name__)

BUTLER: Final = "claude-code"  # the default butler of the hooks' episodes and context (--butler)
EVENTS: Final = {"session-start": "SessionStart", "user-prompt": "UserPromptSubmit", "stop": "Stop"}
PROVENANCE: Final = "claude-code"  # metadata.source of the stored turns
TRANSCRIPT_TAIL: Final = 2_000_000  # bytes of a transcript read from its end to find the last turn


class HookInputError(ValueError):
    """The payload on stdin is not what Claude Code sends for the event."""


@dataclass(frozen=True)
class HookInput:
    event: str  # the hook_event_name: SessionStart, UserPromptSubmit or Stop
    session_id: str
    cwd: str | None
    transcript_path: str | None
    prompt: str | None  # UserPromptSubmit
    last_assistant_message: str | None  # Stop, when Claude Code sends it
    stop_hook_active: bool  # Stop: true when a Stop hook already made Claude go on


@dataclass(frozen=True)
class Said:
    """One message of the transcript: who said it, what, and when."""

    role: str  # user | assistant
    text: str
    at: datetime | None


def read_input(stream: TextIO, expected: str) -> HookInput:
    """The payload of event expected (SessionStart, UserPromptSubmit, Stop); HookInputError naming what is wrong."""
    try:
        payload = json.loads(stream.read())
    except json.JSONDecodeError as exc:
        raise HookInputError(f"stdin is not JSON ({exc.msg} at {exc.pos})") from None
    if not isinstance(payload, dict):
        raise HookInputError("stdin is not a JSON object")
    event = payload.get("hook_event_name")
    if event != expected:
        raise HookInputError(f"hook_event_name is {event!r}, not {expected!r}")
    session = payload.get("session_id")
    if not isinstance(session, str) or not session.strip():
        raise HookInputError("session_id is missing")

    def text(name: str) -> str | None:
        value = payload.get(name)
        return value if isinstance(value, str) and value.strip() else None

    if expected == "UserPromptSubmit" and text("prompt") is None:
        raise HookInputError("prompt is missing")
    return HookInput(
        event=event,
        session_id=session,
        cwd=text("cwd"),
        transcript_path=text("transcript_path"),
        prompt=text("prompt"),
        last_assistant_message=text("last_assistant_message"),
        stop_hook_active=payload.get("stop_hook_active") is True,
    )


def session_uuid(session_id: str) -> uuid.UUID:
    """Claude Code's session id as pymem's session_id: itself when it is a UUID, else a name-based UUID of it."""
    try:
        return uuid.UUID(session_id)
    except ValueError:
        return uuid.uuid5(uuid.NAMESPACE_URL, f"claude-code:{session_id}")


def _message_text(message: Any) -> str | None:
    """The text a transcript message shows a reader: its string content, or its text blocks joined (tool calls,
    tool results and thinking left out); None when it has none (a tool result is not something the user said)."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content.strip() or None
    if isinstance(content, list):
        parts = [b["text"] for b in content if isinstance(b, dict) and b.get("type") == "text" and b.get("text")]
        joined = "\n".join(p.strip() for p in parts if p.strip())
        return joined or None
    return None


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None


def transcript_messages(path: Path) -> Iterator[Said]:
    """The user and assistant messages of a Claude Code transcript (JSON Lines), in order, from its last
    TRANSCRIPT_TAIL bytes; lines that are not messages, or not JSON, are skipped."""
    with path.open("rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(max(0, size - TRANSCRIPT_TAIL))
        tail = handle.read().decode("utf-8", errors="replace")
    lines = tail.splitlines()
    if size > TRANSCRIPT_TAIL and lines:
        lines = lines[1:]  # the first line was cut
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(entry, dict) or entry.get("type") not in ("user", "assistant") or entry.get("isMeta"):
            continue
        said = _message_text(entry.get("message"))
        if said is not None:
            yield Said(role=str(entry["type"]), text=said, at=_moment(entry.get("timestamp")))


def last_turn(hook: HookInput) -> list[Said]:
    """The turn that just ended: the user's last prompt in the transcript and the assistant's reply (Stop's
    last_assistant_message when Claude Code sends it, else the assistant's text messages after the prompt)."""
    messages: list[Said] = []
    if hook.transcript_path is not None:
        try:
            messages = list(transcript_messages(Path(hook.transcript_path)))
        except OSError as exc:
            log.warning("the transcript %s cannot be read (%s): storing the reply alone", hook.transcript_path, exc)
    start = max((n for n, m in enumerate(messages) if m.role == "user"), default=None)
    turn = [] if start is None else [messages[start]]
    replies = [] if start is None else [m for m in messages[start + 1 :] if m.role == "assistant"]
    if hook.last_assistant_message is not None:
        turn.append(Said("assistant", hook.last_assistant_message, replies[-1].at if replies else None))
    elif replies:
        turn.append(Said("assistant", "\n\n".join(m.text for m in replies), replies[-1].at))
    return turn


def _episode_text(said: Said) -> str:
    """ "User: ..." or "Assistant: ...", as pymem's consolidation reads a conversation; cut to the SQL limit."""
    text = f"{said.role.capitalize()}: {said.text}"
    if len(text) <= limits.CONTENT:
        return text
    marker = " [cut: the rest of this message was longer than an episode holds]"
    return text[: limits.CONTENT - len(marker)] + marker


@contextmanager
def _tenant(settings: Settings, tenant: str | None) -> Iterator[MemoryClient]:
    chosen = tenant or settings.configured_tenant
    if not chosen:
        raise HookInputError("no tenant: set PYMEM_TENANT (pymem claude-code install writes it) or pass --tenant")
    db = open_database(settings)
    with psycopg.connect(db.app_dsn) as conn:
        register_vector(conn)
        with tenant_transaction(conn, validate_tenant_id(chosen), actor="claude-code"):
            yield MemoryClient(conn)


def context_output(settings: Settings, hook: HookInput, *, tenant: str | None, butler: str) -> dict[str, Any]:
    """SessionStart / UserPromptSubmit: the butler's memory block as additional context."""
    if hook.prompt is not None:
        trigger = hook.prompt[: limits.TRIGGER_PROMPT]
    else:  # a session starts: the block for the project it works in
        trigger = f"Working on the project {Path(hook.cwd).name}" if hook.cwd else "A new session"
    embedder = embedder_from_settings(settings)
    vector = embedder.embed(trigger) if embedder is not None else None
    with _tenant(settings, tenant) as client:
        block = context.build_context(client, trigger_prompt=trigger, butler=butler, query_embedding=vector)
    return {"hookSpecificOutput": {"hookEventName": hook.event, "additionalContext": block.text}}


def store_turn(settings: Settings, hook: HookInput, *, tenant: str | None, butler: str) -> int:
    """Stop: the turn as episodes of the session; how many were stored."""
    if hook.stop_hook_active:  # Claude goes on because a Stop hook said so: the turn is stored when it ends
        return 0
    turn = last_turn(hook)
    if not turn:
        return 0
    embedder: Embedder | None = embedder_from_settings(settings)
    texts = [_episode_text(said) for said in turn]
    vectors = embedder.embed_many(texts) if embedder is not None else [None] * len(texts)
    metadata = {"source": PROVENANCE, "claude_session_id": hook.session_id, "cwd": hook.cwd}
    with _tenant(settings, tenant) as client:
        for said, text, vector in zip(turn, texts, vectors, strict=True):
            client.store_episode(
                content=text,
                butler=butler,
                session_id=session_uuid(hook.session_id),
                observed_at=said.at,
                metadata={**metadata, "role": said.role},
                embedding=vector,
                embedding_model=embedder.model_id if embedder is not None and vector is not None else None,
                token_count=embedder.count_tokens(text) if embedder is not None else None,
            )
    return len(turn)


def run_hook(
    event: str, settings: Settings, *, tenant: str | None, butler: str, stdin: TextIO, stdout: TextIO, stderr: TextIO
) -> int:
    """`pymem hook EVENT`: always 0; the output Claude Code reads on stdout, one warning line on stderr."""
    name = EVENTS[event]
    try:
        hook = read_input(stdin, name)
        if name == "Stop":
            store_turn(settings, hook, tenant=tenant, butler=butler)
            return 0
        json.dump(context_output(settings, hook, tenant=tenant, butler=butler), stdout, ensure_ascii=False)
        stdout.write("\n")
    except Exception as exc:  # a hook never blocks the user: whatever failed, say it in one line and go on
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"pymem hook {event}: {first} (memory skipped this time)", file=stderr)
    return 0
