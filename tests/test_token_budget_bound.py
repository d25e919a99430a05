"""A token budget holds whatever the memories are made of. The MiniLM WordPiece tokenizer
maps a word past 100 characters (or one it does not know) to a single [UNK], so a 99,000-character "word"
counted as one token and memory_context(token_budget=300) returned 198,509 characters. A text now counts at
least pymem.token_floor tokens (at most 4 UTF-8 bytes a token): in Python (pymem.token_counts.count_tokens,
for the rendered lines and the block) and in SQL (memory_context_select, for rows that carry their content,
whatever token_count they were stored with)."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from mcp import Client
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from pymem import token_counts
from pymem.client import MemoryClient
from pymem.context import build_context
from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.mcpclient import call, stdio_like_server
from tests.sqlapi import store_episode

BUDGET = 300
BYTES_PER_TOKEN = 4  # the length floor: a text of N UTF-8 bytes counts at least N / 4 tokens
LONG_WORD = "a" * 99_000
CJK = "東京の天気は晴れです。明日は雨が降るでしょう。" * 200  # 4,600 characters, 13,800 bytes
EMOJI = "🙂👍🏽🎉" * 2_000  # 6,000 characters, 24,000 bytes: one [UNK] word
SAMPLES = [
    "",
    "a",
    "Help user with diet",
    "The user's favourite colour is blue; 東京 and emoji 🙂\nnew line",
    "ЖЩЮЫФЛД жщюыфлд ЖЩЮЫ",  # Cyrillic: 2 bytes a character
    "L'utilisateur boit un café — sans sucre.",
    "👨‍👩‍👧‍👦 family",
    "tab\tand\r\nnewlines and \x7f delete",
    "\U00020000 rare ideograph",
    LONG_WORD,
    CJK,
    EMOJI,
]


def bounded(text: str, budget: int) -> bool:
    return len(text.encode()) <= BYTES_PER_TOKEN * budget


# The counter ---------------------------------------------------------------------------------


def test_the_python_floor_is_the_sql_floor(app: psycopg.Connection[Any]) -> None:
    rows = app.execute("select s, pymem.token_floor(s) from unnest(%s::text[]) as s", (SAMPLES,)).fetchall()
    assert [(s, token_counts.length_floor(s)) for s in SAMPLES] == [(s, n) for s, n in rows]
    assert app.execute("select pymem.token_floor(null)").fetchone() == (None,)


@pytest.mark.parametrize("text", SAMPLES, ids=range(len(SAMPLES)))
def test_no_text_counts_fewer_tokens_than_a_quarter_of_its_bytes(text: str) -> None:
    assert token_counts.count_tokens(text) >= token_counts.length_floor(text) >= len(text.encode()) / 4


def test_a_99000_character_word_is_not_one_token() -> None:
    assert token_counts.count_tokens(LONG_WORD) >= 99_000 // 4
    # what WordPiece does not know counts by its bytes: emoji 3 tokens each, CJK at least 1.5 a character
    assert token_counts.count_tokens("🙂" * 10) >= 30
    assert token_counts.count_tokens(CJK) >= 1.5 * len(CJK)


def test_rendered_english_lines_count_as_before() -> None:
    # a rendered line (what a block counts) of ordinary English: WordPiece's count is the larger, nothing
    # changes (none of the golden set's 470 lines changes); a bare sentence may count a quarter of its characters
    line = '- "The user eats oatmeal with berries for breakfast" (fact user/breakfast; scope health; id 1a2b3c4d)'
    assert token_counts.count_tokens(line) == token_counts.wordpiece_tokens(line) == 32
    sentence = "The user follows a vegetarian diet and is allergic to peanuts."
    assert token_counts.wordpiece_tokens(sentence) == 12
    assert token_counts.count_tokens(sentence) == token_counts.length_floor(sentence) == 16


# The block -----------------------------------------------------------------------------------


def store_episodes(as_tenant: Tenant, contents: list[str], embedder: Embedder, **arguments: Any) -> None:
    with as_tenant("acme") as conn:
        for content in contents:
            store_episode(conn, content, "health", embedder, **arguments)


@pytest.mark.parametrize("long_text", [LONG_WORD, CJK, EMOJI], ids=["long word", "cjk", "emoji"])
def test_memory_context_stays_within_its_budget(as_tenant: Tenant, embedder: Embedder, long_text: str) -> None:
    # stored with the count of before the fix (one token): the block counts the rendered line again
    store_episodes(as_tenant, [long_text], embedder, token_count=1)
    store_episodes(as_tenant, ["User asked for a vegetarian lasagne recipe"], embedder)
    with as_tenant("acme") as conn:
        block = build_context(
            MemoryClient(conn), trigger_prompt="diet", butler="health", token_budget=BUDGET, query_embedding=None
        )
    assert block.token_count <= BUDGET and block.token_budget == BUDGET
    assert block.token_count == token_counts.count_tokens(block.text) >= len(block.text.encode()) / 4
    assert bounded(block.text, BUDGET), len(block.text)
    assert long_text[:50] not in block.text  # too long for the budget: left out ...
    assert "vegetarian lasagne" in block.text  # ... and the short episode still goes in
    assert block.omitted["history"] == 1


def test_a_budget_large_enough_takes_cjk_at_its_bounded_count(as_tenant: Tenant, embedder: Embedder) -> None:
    text = "東京の天気は晴れです。"  # 11 characters, 33 bytes
    store_episodes(as_tenant, [text], embedder)
    with as_tenant("acme") as conn:
        block = build_context(MemoryClient(conn), trigger_prompt="天気", butler="health", token_budget=BUDGET)
    assert text in block.text
    (item,) = block.items
    assert item.tokens >= token_counts.length_floor(item.line) >= 1.5 * len(text)


def test_sql_selection_floors_stored_counts_by_the_content(as_tenant: Tenant, embedder: Embedder) -> None:
    """An analyst's selection over memory_context_candidates rows (token_count, no rendered tokens): a row
    stored with one token for 99,000 characters does not fit 300 tokens."""
    store_episodes(as_tenant, [LONG_WORD], embedder, token_count=1)
    store_episodes(as_tenant, ["User asked for a vegetarian lasagne recipe"], embedder)
    with as_tenant("acme") as conn, conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
        rows = cur.execute(
            "select s.*, c.content from pymem.memory_context_select(butler => 'health', token_budget => %s,"
            " candidates => (select jsonb_agg(c) from pymem.memory_context_candidates(trigger_prompt => 'diet',"
            " butler => 'health') as c)) as s join pymem.episodes as c on c.id = s.memory_id",
            (BUDGET,),
        ).fetchall()
    by_content = {r["content"][:20]: r for r in rows}
    long_row = by_content[LONG_WORD[:20]]
    assert long_row["tokens"] >= 99_000 // 4 and not long_row["selected"]
    assert by_content["User asked for a veg"]["selected"]
    assert sum(len(r["content"].encode()) for r in rows if r["selected"]) <= BYTES_PER_TOKEN * BUDGET


def test_sql_selection_refuses_content_that_is_not_a_string(as_tenant: Tenant) -> None:
    element = {
        "section": "history",
        "section_rank": 1,
        "memory_id": "00000000-0000-0000-0000-000000000001",
        "score": 1,
        "created_at": "2025-01-01T00:00:00Z",
        "token_count": 1,
        "content": 42,
    }
    with as_tenant("acme") as conn, pytest.raises(psycopg.Error, match="content, when given, a string"):
        conn.execute("select * from pymem.memory_context_select('health', %s, 300)", (Jsonb([element]),)).fetchall()


# Through a real MCP session ------------------------------------------------------------------


@pytest.mark.anyio
async def test_memory_context_through_mcp_stays_within_its_budget(
    app_pool: ConnectionPool, embedder: Embedder, tmp_path: Any
) -> None:
    server = stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")
    async with Client(server) as client:
        for content in (LONG_WORD, EMOJI, "User asked for a vegetarian lasagne recipe"):
            await call(client, "memory_store_episode", content=content, butler="health")
        block = await call(client, "memory_context", trigger_prompt="diet", butler="health", token_budget=BUDGET)
    text = block["text"]
    assert block["token_count"] <= BUDGET and block["token_budget"] == BUDGET
    assert block["token_count"] == token_counts.count_tokens(text) >= len(text.encode()) / 4
    assert bounded(text, BUDGET), len(text)
    assert "vegetarian lasagne" in text and LONG_WORD[:50] not in text and EMOJI[:8] not in text
    assert block["omitted"]["history"] == 2
