"""Tool results of a bounded size, with the memories in them once.

200 facts of 100 KB recalled with limit=1000 made a 39.9 MB response: every memory twice, as structured content and
as the indented JSON text the MCP SDK renders from the same value. Here:

- ``fit`` keeps the longest prefix of a ranked result list whose JSON fits in the server's byte limit
  (PYMEM_MAX_RESULT_BYTES, default 1 MiB; at least one result, which a 100,000-character content always lets fit)
  and says how many were left out. SQL ranked and chose the list; cutting it to a size is presentation, so it
  happens here, and the result says so (``truncated``, ``left_out``, ``note``) for the client to page or narrow;
- ``tool_result`` returns the structured content as the one full copy and a short text summary (each result's
  type, short id and first characters, at most SUMMARY_BYTES in all) for clients that read only text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import pydantic_core
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)

SUMMARY_BYTES = 16384  # the text summary's size at most
# of each result's content in the summary: the whole of a typical fact or rule, for clients whose model reads only
# the text (a memory longer than this is cut, and is whole in the structured content)
PREVIEW_CHARACTERS = 1000


def json_bytes(value: Any) -> int:
    """The size of value as compact JSON, UTF-8 (as the structured content goes on the wire)."""
    return len(pydantic_core.to_json(value, by_alias=True))


def fit(items: Sequence[T], max_bytes: int, reserved: int = 0) -> tuple[list[T], int]:
    """The longest prefix of items whose JSON, with reserved bytes for the rest of the result, is at most
    max_bytes (the first item always), and how many items were left out."""
    kept: list[T] = []
    size = reserved
    for item in items:
        size += json_bytes(item) + 1  # and its comma
        if kept and size > max_bytes:
            break
        kept.append(item)
    return kept, len(items) - len(kept)


def truncation_note(left_out: int, max_bytes: int) -> str | None:
    if not left_out:
        return None
    return (
        f"{left_out} more result(s) left out to keep the response within {max_bytes} bytes (PYMEM_MAX_RESULT_BYTES);"
        " ask for fewer (limit), narrow the query or scope, or fetch one with memory_get"
    )


def _preview(content: str) -> str:
    line = " ".join(content.split())
    return line if len(line) <= PREVIEW_CHARACTERS else line[: PREVIEW_CHARACTERS - 1] + "…"


def summary(title: str, results: Sequence[Any], note: str | None) -> str:
    """A short text for clients that read only text: the title, one line per result (type, short id, the start of
    its content) while they fit in SUMMARY_BYTES, and the truncation note; the full results are structured."""
    lines = [f"{title}: {len(results)} result(s); the full results are in the structured content."]
    size = len(lines[0].encode())
    for n, hit in enumerate(results):
        line = f"- {hit.memory_type} {str(hit.memory_id)[:8]}: {_preview(hit.content)}"
        size += len(line.encode()) + 1
        if size > SUMMARY_BYTES - 200:
            lines.append(f"- ... {len(results) - n} more in the structured content")
            break
        lines.append(line)
    if note:
        lines.append(f"Truncated: {note}.")
    return "\n".join(lines)


def tool_result(result: BaseModel, text: str) -> CallToolResult:
    """The tool's result: result as the structured content (the one full copy) and text as its only text block."""
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=result.model_dump(mode="json", by_alias=True),
    )
