"""PymemMemoryTool against the real anthropic package: every command driven with the SDK's own command objects (and
through the tool's call(), as the tool runner sends the model's input), compared output for output with the SDK's
local-filesystem memory tool; and what pymem keeps of the files: searchable, with history, forgotten on delete."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from anthropic.lib.tools import ToolError
from anthropic.tools.memory import BetaLocalFilesystemMemoryTool
from anthropic.types.beta import (
    BetaMemoryTool20250818CreateCommand as Create,
)
from anthropic.types.beta import (
    BetaMemoryTool20250818DeleteCommand as Delete,
)
from anthropic.types.beta import (
    BetaMemoryTool20250818InsertCommand as Insert,
)
from anthropic.types.beta import (
    BetaMemoryTool20250818RenameCommand as Rename,
)
from anthropic.types.beta import (
    BetaMemoryTool20250818StrReplaceCommand as Replace,
)
from anthropic.types.beta import (
    BetaMemoryTool20250818ViewCommand as View,
)
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder
from pymem.integrations.anthropic import PymemMemoryTool
from tests.conftest import Tenant
from tests.sqlapi import call

NOTES = "# Diet\n- vegetarian since 2019\n- allergic to peanuts\n"


@pytest.fixture
def tool(app_pool: ConnectionPool, embedder: Embedder) -> PymemMemoryTool:
    return PymemMemoryTool(app_pool, tenant="acme", embedder=embedder)


def outcome(tool: Any, command: Any) -> str:
    """What the model would be told: the result, or the error's message."""
    try:
        return "ok: " + str(tool.execute(command))
    except ToolError as exc:
        return "error: " + str(exc)


def directory_sizes(outcome: str) -> str:
    """An outcome with the sizes of directories left out of a listing: a disk reports its own (4.0K on ext4, other
    sizes on tmpfs). A directory's line is the listing's first (the directory viewed) or ends with '/'."""
    lines = outcome.split("\n")
    for n, line in enumerate(lines):
        after_header = n > 0 and lines[n - 1].startswith("ok: Here're the files and directories")
        if "\t" in line and (after_header or line.endswith("/")):
            lines[n] = "<dir>\t" + line.split("\t", 1)[1]
    return "\n".join(lines)


SEQUENCE: list[Any] = [
    View(command="view", path="/memories"),
    Create(command="create", path="/memories/notes/diet.md", file_text=NOTES),
    Create(command="create", path="/memories/notes/diet.md", file_text="again"),
    Create(command="create", path="/memories/todo.txt", file_text="call mum\nbuy oat milk\n"),
    Create(command="create", path="/memories/deep/er/still/file.md", file_text="deep"),
    Create(command="create", path="/memories/.hidden", file_text="not listed"),
    View(command="view", path="/memories"),
    View(command="view", path="/memories/notes"),
    View(command="view", path="/memories/notes/diet.md"),
    View(command="view", path="/memories/notes/diet.md", view_range=[2, 3]),
    View(command="view", path="/memories/notes/diet.md", view_range=[2, -1]),
    View(command="view", path="/memories/missing.md"),
    View(command="view", path="/etc/passwd"),
    View(command="view", path="/memories/../secrets"),
    Replace(command="str_replace", path="/memories/notes/diet.md", old_str="vegetarian", new_str="vegan"),
    Replace(command="str_replace", path="/memories/notes/diet.md", old_str="carnivore", new_str="x"),
    Replace(command="str_replace", path="/memories/notes/diet.md", old_str="- ", new_str="* "),
    Replace(command="str_replace", path="/memories/notes", old_str="a", new_str="b"),
    Replace(command="str_replace", path="/memories/none.md", old_str="a", new_str="b"),
    Insert(command="insert", path="/memories/todo.txt", insert_line=0, insert_text="water the plants\n"),
    Insert(command="insert", path="/memories/todo.txt", insert_line=3, insert_text="sleep"),
    Insert(command="insert", path="/memories/todo.txt", insert_line=9, insert_text="too far"),
    View(command="view", path="/memories/todo.txt"),
    Rename(command="rename", old_path="/memories/todo.txt", new_path="/memories/archive/todo-2026.txt"),
    Rename(command="rename", old_path="/memories/notes", new_path="/memories/archive"),
    Rename(command="rename", old_path="/memories/notes", new_path="/memories/health"),
    Rename(command="rename", old_path="/memories", new_path="/memories/x"),
    View(command="view", path="/memories"),
    View(command="view", path="/memories/health/diet.md"),
    Delete(command="delete", path="/memories/archive/todo-2026.txt"),
    Delete(command="delete", path="/memories/archive/todo-2026.txt"),
    Delete(command="delete", path="/memories"),
    Delete(command="delete", path="/memories/deep"),
    View(command="view", path="/memories"),
]


def test_every_command_answers_as_the_sdks_local_filesystem_tool(tool: PymemMemoryTool, tmp_path: Path) -> None:
    local = BetaLocalFilesystemMemoryTool(base_path=str(tmp_path))
    for command in SEQUENCE:
        theirs, ours = outcome(local, command), outcome(tool, command)
        assert directory_sizes(ours) == directory_sizes(theirs), command


def test_the_model_s_input_goes_through_call(tool: PymemMemoryTool) -> None:
    assert tool.to_dict() == {"type": "memory_20250818", "name": "memory"}
    assert tool.call({"command": "create", "path": "/memories/a.md", "file_text": "hello\n"}) == (
        "File created successfully at: /memories/a.md"
    )
    assert tool.call({"command": "view", "path": "/memories/a.md"}) == (
        "Here's the content of /memories/a.md with line numbers:\n     1\thello\n     2\t"
    )


def test_files_are_memories_with_history(tool: PymemMemoryTool, as_tenant: Tenant, embedder: Embedder) -> None:
    tool.execute(Create(command="create", path="/memories/notes/diet.md", file_text=NOTES))
    with as_tenant("acme") as conn:
        before = conn.execute("select now()").fetchone()[0]  # type: ignore[index]
    tool.execute(Replace(command="str_replace", path="/memories/notes/diet.md", old_str="vegetarian", new_str="vegan"))
    with as_tenant("acme") as conn:
        found = call(
            conn,
            "memory_search",
            query="peanut allergy",
            query_embedding=embedder.embed("peanut allergy"),
            types=["fact"],
        )
        then = call(conn, "memory_recall", topic="vegetarian diet", as_of=before, min_relevance=0)
        versions = conn.execute(
            "select validity from pymem.facts where predicate = '/memories/notes/diet.md' order by created_at"
        ).fetchall()
    assert found[0]["content"] == NOTES.replace("vegetarian", "vegan")
    assert [r["content"] for r in then if r["predicate"] == "/memories/notes/diet.md"] == [NOTES]
    assert versions == [("superseded",), ("active",)]
    tool.execute(Delete(command="delete", path="/memories/notes"))
    with as_tenant("acme") as conn:
        left = conn.execute("select validity, count(*) from pymem.facts group by validity order by 1").fetchall()
        assert call(conn, "memory_search", query="peanut allergy", types=["fact"]) == []
    assert left == [("retracted", 2), ("superseded", 1)]  # the file and its directory, and the old version


def test_the_tenants_directories_are_their_own(app_pool: ConnectionPool, embedder: Embedder) -> None:
    acme = PymemMemoryTool(app_pool, tenant="acme", embedder=embedder)
    globex = PymemMemoryTool(app_pool, tenant="globex", embedder=embedder)
    acme.execute(Create(command="create", path="/memories/secret.md", file_text="acme's plans"))
    assert outcome(globex, View(command="view", path="/memories/secret.md")).startswith("error: The path")
    assert globex.execute(View(command="view", path="/memories")).endswith("\t/memories")


def test_a_long_file_is_kept_as_chunks_that_search_finds_and_edits_supersede_one_by_one(
    tool: PymemMemoryTool, as_tenant: Tenant, embedder: Embedder
) -> None:
    topics = ["gardening and roses", "the user's sister Ana lives in Lisbon", "quarterly tax forms", "sourdough"]
    paragraphs = [f"## Note {n}\n" + f"A note about {topics[n % 4]}. " * 30 for n in range(12)]
    text = "\n\n".join(paragraphs) + "\n"
    tool.execute(Create(command="create", path="/memories/long.md", file_text=text))
    assert tool.execute(View(command="view", path="/memories/long.md")) == (
        "Here's the content of /memories/long.md with line numbers:\n"
        + "\n".join(f"{n + 1:>6}\t{line}" for n, line in enumerate(text.split("\n")))
    )
    with as_tenant("acme") as conn:
        chunks = conn.execute(
            "select predicate, length(content) from pymem.facts where validity = 'active' order by created_at"
        ).fetchall()
        found = call(
            conn,
            "memory_search",
            query="where does Ana live",
            types=["fact"],
            mode="semantic",
            query_embedding=embedder.embed("where does Ana live"),
        )
    assert len(chunks) > 5 and all(length <= 1000 for _, length in chunks)
    assert chunks[0][0] == "/memories/long.md" and chunks[1][0] == "/memories/long.md#chunk=1"
    assert "Lisbon" in found[0]["content"] and found[0]["predicate"].startswith("/memories/long.md")
    tool.execute(Replace(command="str_replace", path="/memories/long.md", old_str="## Note 11", new_str="## Last"))
    with as_tenant("acme") as conn:
        superseded = conn.execute("select count(*) from pymem.facts where validity = 'superseded'").fetchone()
    assert superseded == (1,)  # only the chunk that changed
    assert tool.execute(View(command="view", path="/memories/long.md", view_range=[1, 1])).endswith("## Note 0")
    tool.execute(Rename(command="rename", old_path="/memories/long.md", new_path="/memories/archive/long.md"))
    assert "## Last" in tool.execute(View(command="view", path="/memories/archive/long.md"))
    with as_tenant("acme") as conn:
        live = conn.execute("select count(*) from pymem.facts where validity = 'active'").fetchone()
    assert live == (len(chunks) + 1,)  # the moved chunks and the new directory


def test_a_file_past_a_million_characters_or_a_chunk_name_is_refused(tool: PymemMemoryTool) -> None:
    big = "x" * 1_000_001
    assert outcome(tool, Create(command="create", path="/memories/big.md", file_text=big)) == (
        "error: File /memories/big.md would hold 1000001 characters; a pymem memory file holds at most 1000000"
    )
    assert outcome(tool, Create(command="create", path="/memories/a.md#chunk=2", file_text="x")).startswith(
        "error: Path /memories/a.md#chunk=2 holds '#chunk='"
    )
    assert tool.execute(View(command="view", path="/memories")).count("\n") == 1  # the root alone
