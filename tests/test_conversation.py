"""Conversation context (migrations 0011 and 0027, sql/functions/122-session-context.sql): an episode of a
session is also found by what it answers, through its previous turn, by keyword (its search_vector holds the
last ten words of the previous turn) and, for a short reply, by meaning (the MCP server embeds the last 20 words of
the previous turn with it)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

import psycopg
import pytest
from mcp import Client
from psycopg_pool import ConnectionPool

from pymem import maintenance, migrate
from pymem.embeddings import Embedder
from tests.conftest import Tenant
from tests.mcpclient import call, stdio_like_server
from tests.sqlapi import call_one, store_episode
from tests.test_keyword_stats import kept, recounted

SESSION = UUID("6f1e1f0e-3c1e-4c55-8d39-5a0a4c0f9a01")
OTHER = UUID("6f1e1f0e-3c1e-4c55-8d39-5a0a4c0f9a02")
TURNS = [
    "Did you get to the Rijksmuseum in the end?",
    "Yes, last Tuesday, with my sister.",
    "Nice! Anything else planned?",
]


def rows(conn: psycopg.Connection[Any]) -> dict[str, dict[str, Any]]:
    with conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
        found = cur.execute(
            "select content, session_position, retrieval_context, session_id from pymem.episodes"
        ).fetchall()
    return {r["content"]: r for r in found}


@contextmanager
def database_at(superuser: psycopg.Connection[Any], db_dsn: str, revision: str) -> Iterator[str]:
    """A new database migrated by Alembic to revision only (none of the sql/ files): its DSN; dropped after."""
    from alembic import command
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    name = f"pymem_at_{revision}"
    superuser.execute(f"drop database if exists {name}")
    superuser.execute(f"create database {name}")
    dsn = psycopg.conninfo.make_conninfo(db_dsn, dbname=name)
    try:
        engine = create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn), poolclass=NullPool)
        with engine.begin() as conn:
            cfg = migrate._config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
        yield dsn
    finally:
        superuser.execute(f"drop database if exists {name} with (force)")


def test_each_turn_keeps_the_previous_one_and_its_position(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for turn in TURNS:
            store_episode(conn, turn, "travel", session_id=SESSION)
        store_episode(conn, "A turn of another session.", "travel", session_id=OTHER)
        store_episode(conn, "No session at all.", "travel")
        stored = rows(conn)
    assert [stored[t]["session_position"] for t in TURNS] == [1, 2, 3]
    assert [stored[t]["retrieval_context"] for t in TURNS] == [None, TURNS[0], TURNS[1]]
    assert stored["A turn of another session."]["session_position"] == 1
    assert stored["A turn of another session."]["retrieval_context"] is None
    assert stored["No session at all."]["session_position"] is None
    assert stored["No session at all."]["retrieval_context"] is None


def test_a_reply_is_found_by_the_words_of_the_question_it_answers(as_tenant: Tenant) -> None:
    """Keyword only (an analyst without embeddings): "Rijksmuseum" finds the reply through its previous turn,
    ranked below the turn that holds the word itself (weight B against A)."""
    with as_tenant("acme") as conn:
        ids = [store_episode(conn, turn, "travel", session_id=SESSION) for turn in TURNS]
        found = [
            r[0]
            for r in conn.execute(
                "select memory_id from pymem.memory_search(query => 'Rijksmuseum', types => array['episode'])"
            ).fetchall()
        ]
    assert found[:2] == [ids[0], ids[1]]
    assert ids[2] not in found  # two turns later: only the previous turn counts


def test_keyword_statistics_count_the_previous_turn(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for turn in TURNS:
            store_episode(conn, turn, "travel", session_id=SESSION)
        assert kept(conn) == recounted(conn)
        call_one(
            conn,
            "memory_forget",
            type="episode",
            id=conn.execute("select id from pymem.episodes where session_position = 2").fetchone()[0],
        )  # type: ignore[index]
        assert kept(conn) == recounted(conn)


def test_memory_episode_text_is_the_previous_turn_and_the_content(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        first = call_one(conn, "memory_episode_text", session_id=SESSION, content=TURNS[0])
        assert first == {"previous_id": None, "retrieval_context": None, "embedding_text": TURNS[0]}
        first_id = store_episode(conn, TURNS[0], "travel", session_id=SESSION)
        second = call_one(conn, "memory_episode_text", session_id=SESSION, content=TURNS[1])
        assert second == {
            "previous_id": first_id,
            "retrieval_context": TURNS[0],
            "embedding_text": f"{TURNS[0]}\n{TURNS[1]}",
        }
        alone = call_one(conn, "memory_episode_text", session_id=None, content="Just this.")
        assert alone["embedding_text"] == "Just this." and alone["previous_id"] is None
    # another tenant's session of the same id is not this tenant's
    with as_tenant("globex") as conn:
        assert call_one(conn, "memory_episode_text", session_id=SESSION, content="x")["previous_id"] is None
    with as_tenant("acme") as conn, pytest.raises(psycopg.Error) as raised:
        call_one(conn, "memory_episode_text", session_id=SESSION, content=" ")
    assert raised.value.sqlstate == "PM002"


def test_reembedding_embeds_a_turn_with_its_previous_one(as_tenant: Tenant, db_dsn: str) -> None:
    maintenance.record_embedding_model(db_dsn, "some-other-model")  # the stored episodes have no embedding
    with as_tenant("acme") as conn:
        for turn in TURNS[:2]:
            store_episode(conn, turn, "travel", session_id=SESSION)
        texts = {r[0] for r in conn.execute("select content from pymem.memory_reembed_candidates(10)").fetchall()}
    assert texts == {TURNS[0], f"{TURNS[0]}\n{TURNS[1]}"}


@pytest.mark.anyio
async def test_the_mcp_tool_embeds_the_previous_turn_so_meaning_finds_the_reply(
    app_pool: ConnectionPool, embedder: Embedder, as_tenant: Tenant, tmp_path: Any
) -> None:
    """Through the MCP tools: the reply is stored with the embedding of the previous turn and itself, and a
    later question about the museum visit finds it by meaning, above a distractor of the same session."""
    server = stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")
    async with Client(server) as client:
        ids = [
            (await call(client, "memory_store_episode", content=turn, butler="travel", session_id=str(SESSION)))[
                "memory_id"
            ]
            for turn in TURNS
        ]
        await call(client, "memory_store_episode", content="Lunch was pasta with friends.", butler="travel")
        found = await call(
            client,
            "memory_search",
            query="When did the user visit the museum?",
            types=["episode"],
            mode="semantic",
            limit=4,
        )
    ranked = [hit["memory_id"] for hit in found["results"]]
    assert ids[1] in ranked[:2], [(h["content"], h["score"], h["relevance"]) for h in found["results"]]
    with as_tenant("acme") as conn:
        stored = conn.execute("select embedding from pymem.episodes where id = %s", (ids[1],)).fetchone()[0]  # type: ignore[index]
    expected = embedder.embed(f"{TURNS[0]}\n{TURNS[1]}")
    assert float(stored.to_numpy() @ expected) == pytest.approx(1.0, abs=1e-5)


def test_migration_0011_gives_existing_sessions_their_order_and_previous_turns(
    superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    """A database with episodes at revision 0010 (before conversation context) upgrades to head with every
    episode kept, each session ordered by created_at, each turn holding the previous one, and the keyword
    statistics of episodes recomputed from the new search vectors."""
    with database_at(superuser, db_dsn, "0010") as dsn:
        with psycopg.connect(dsn, autocommit=True) as old:
            for minutes, content in enumerate(TURNS):
                old.execute(
                    "insert into pymem.episodes (tenant_id, butler, session_id, content, created_at)"
                    " values ('acme', 'travel', %s, %s, now() - make_interval(mins => %s))",
                    (SESSION, content, 10 - minutes),
                )
            old.execute("insert into pymem.episodes (tenant_id, butler, content) values ('acme', 'travel', 'alone')")
        migrate.upgrade(dsn)
        with psycopg.connect(dsn, autocommit=True) as new:
            stored = rows(new)
            assert len(stored) == 4
            assert [stored[t]["session_position"] for t in TURNS] == [1, 2, 3]
            assert [stored[t]["retrieval_context"] for t in TURNS] == [None, TURNS[0], TURNS[1]]
            assert stored["alone"]["session_position"] is None
            assert new.execute(
                "select search_vector @@ 'rijksmuseum'::tsquery from pymem.episodes where session_position = 2"
            ).fetchone() == (True,)
            assert kept(new) == recounted(new)


LONG_ANSWER = (
    "Here is a three day plan for Lisbon: start in Alfama with the castle and the tram, then Belem for the tower"
    " and the pastries, then a day trip to Sintra by train. Shall I add restaurants near the hotel?"
)
LONG_TURN = "My son Leo is allergic to peanuts and cashews, so please keep every restaurant nut-free for us."


def test_a_long_turn_is_embedded_alone_and_a_short_reply_after_the_end_of_the_turn_it_answers(
    as_tenant: Tenant,
) -> None:
    """Since 0027: a turn of more than 12 words stands alone (a long answer before it drowned its meaning); a
    short reply is embedded after the last 20 words of the turn it answers."""
    with as_tenant("acme") as conn:
        store_episode(conn, LONG_ANSWER, "travel", session_id=SESSION)
        alone = call_one(conn, "memory_episode_text", session_id=SESSION, content=LONG_TURN)
        assert alone["retrieval_context"] == LONG_ANSWER  # kept whole
        assert alone["embedding_text"] == LONG_TURN
        reply = call_one(conn, "memory_episode_text", session_id=SESSION, content="Yes please, cheap ones.")
        end = " ".join(LONG_ANSWER.split()[-20:])
        assert reply["embedding_text"] == f"{end}\nYes please, cheap ones."


def test_only_the_end_of_a_long_previous_turn_is_in_the_search_vector(as_tenant: Tenant) -> None:
    """The next turn is found by the last ten words of the turn before it ("hotel"), not by its
    beginning ("Alfama"): a long answer's words no longer make every reply to it match; the statistics follow."""
    with as_tenant("acme") as conn:
        first = store_episode(conn, LONG_ANSWER, "travel", session_id=SESSION)
        second = store_episode(conn, LONG_TURN, "travel", session_id=SESSION)

        def found(query: str) -> list[Any]:
            return [
                r[0]
                for r in conn.execute(
                    "select memory_id from pymem.memory_search(query => %s, types => array['episode'])", (query,)
                ).fetchall()
            ]

        assert found("Alfama") == [first]
        assert set(found("hotel")) == {first, second}
        assert kept(conn) == recounted(conn)


def test_migration_0027_narrows_the_keyword_context_of_existing_episodes(
    superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    """A database with episodes at revision 0026 upgrades to head with each episode's previous turn kept whole,
    its search vector holding only the last ten words of it, and the keyword statistics of episodes recomputed."""
    with database_at(superuser, db_dsn, "0026") as dsn:
        with psycopg.connect(dsn, autocommit=True) as old:
            for position, (content, previous) in enumerate([(LONG_ANSWER, None), (LONG_TURN, LONG_ANSWER)], 1):
                old.execute(
                    "insert into pymem.episodes (tenant_id, butler, session_id, content, retrieval_context,"
                    " session_position) values ('acme', 'travel', %s, %s, %s, %s)",
                    (SESSION, content, previous, position),
                )
            assert old.execute(
                "select search_vector @@ 'alfama'::tsquery from pymem.episodes where session_position = 2"
            ).fetchone() == (True,)
        migrate.upgrade(dsn)
        with psycopg.connect(dsn, autocommit=True) as new:
            stored = rows(new)
            assert stored[LONG_TURN]["retrieval_context"] == LONG_ANSWER
            assert new.execute(
                "select search_vector @@ 'alfama'::tsquery, search_vector @@ 'hotel'::tsquery"
                " from pymem.episodes where session_position = 2"
            ).fetchone() == (False, True)
            assert kept(new) == recounted(new)
