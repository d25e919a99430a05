"""The focus check of recall (issue 30): an off-topic question that names a person the tenant's facts are about
("What musical instrument does Tom play?") no longer gets those facts back. memory_query_focus leaves out the
words that name a subject of the tenant's facts; memory_recall, given the embedding of that focus, keeps a fact or
rule only when it is close to the focus, close to the whole question, or holds a word of the focus. Real MiniLM
vectors, the app role and an analyst login; the MCP tools through a real client session."""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg
import pytest
from mcp import Client
from pgvector.psycopg import register_vector

from pymem.embeddings import Embedder
from tests.conftest import Tenant, connect_as
from tests.mcpclient import call as mcp_call
from tests.mcpclient import stdio_like_server
from tests.sqlapi import call, store_fact, store_rule

TOM = [
    ("job", "Tom works as a software tester at an insurance company"),
    ("home", "Tom lives in Bristol"),
    ("sport", "Tom runs in the park every Sunday morning"),
]


@pytest.fixture
def server(app_pool: Any, embedder: Embedder, tmp_path: Any) -> Any:
    return stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")


def focus(conn: psycopg.Connection[Any], topic: str) -> str:
    return conn.execute("select pymem.memory_query_focus(%s)", (topic,)).fetchone()[0]


def recall(conn: psycopg.Connection[Any], embedder: Embedder, topic: str, **options: Any) -> list[str]:
    """memory_recall's contents for topic with the focus check as the server asks it (the embedding of the
    topic's focus), unless options say otherwise."""
    options.setdefault("focus_embedding", embedder.embed(focus(conn, topic)))
    rows = call(
        conn, "memory_recall", topic=topic, query_embedding=embedder.embed(topic), bump_references=False, **options
    )
    return [r["content"] for r in rows]


def seed_tom(conn: psycopg.Connection[Any], embedder: Embedder) -> None:
    for predicate, content in TOM:
        store_fact(conn, "Tom", predicate, content, embedder)


def test_the_focus_leaves_out_the_names_of_the_tenants_subjects(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        seed_tom(conn, embedder)
        store_fact(conn, "user", "diet", "The user is vegetarian", embedder)
        assert focus(conn, "What musical instrument does Tom play?") == "what musical instrument does play"
        # capitals, a possessive, a curly apostrophe: the name is still the name
        assert focus(conn, "TOM\N{RIGHT SINGLE QUOTATION MARK}s car? And the user's bike") == "car and the bike"
        # a question that only names, or names nobody, is its own focus (recall then checks nothing)
        assert focus(conn, "Tom?") == "Tom?"
        assert focus(conn, "Where does Maya work?") == "Where does Maya work?"
    with as_tenant("globex") as conn:
        # another tenant's subjects are not names here
        assert focus(conn, "What does Tom play?") == "What does Tom play?"


def test_a_superseded_subject_is_no_longer_a_name(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "Ana", "job", "Ana is a nurse", embedder)
        assert focus(conn, "What does Ana do?") == "what does do"
        call(conn, "memory_forget", type="fact", id=fact, reason="wrong person")
        assert focus(conn, "What does Ana do?") == "What does Ana do?"


def test_the_focus_checks_its_argument(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        for bad in (None, "", " "):
            with pytest.raises(psycopg.Error) as raised, conn.transaction():
                focus(conn, bad)  # type: ignore[arg-type]
            assert raised.value.sqlstate == "PM002"


def test_the_focus_needs_a_tenant(app: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.Error) as raised, app.transaction():
        focus(app, "What does Tom play?")
    assert raised.value.sqlstate == "PM001"


def test_an_off_topic_question_about_a_known_person_recalls_nothing(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        seed_tom(conn, embedder)
        question = "What musical instrument does Tom play?"
        # without the focus check the name alone brings Tom's facts back over the relevance floor
        assert recall(conn, embedder, question, focus_embedding=None) != []
        assert recall(conn, embedder, question) == []
        # min_focus 0, or a relevance floor of 0, turns the check off
        assert recall(conn, embedder, question, min_focus=0) != []
        assert len(recall(conn, embedder, question, min_relevance=0)) == 3


def test_a_topic_that_names_no_subject_is_not_checked(as_tenant: Tenant, embedder: Embedder) -> None:
    """A task-like topic that names nobody ("restaurant ideas") keeps what the relevance floor keeps: the focus
    check is for questions about someone the memory knows."""
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "diet", "The user is vegetarian", embedder)
        topic = "meat-free cooking"
        assert focus(conn, topic) == topic
        # even the strictest check (min_focus 1) leaves it as the relevance floor has it
        assert recall(conn, embedder, topic, min_focus=1) == recall(conn, embedder, topic, focus_embedding=None)
        assert recall(conn, embedder, topic, min_focus=1) == ["The user is vegetarian"]


def test_an_answerable_question_keeps_its_fact(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        seed_tom(conn, embedder)
        store_rule(conn, "Answer questions about jobs briefly", embedder)
        assert recall(conn, embedder, "What is Tom's job?")[0] == TOM[0][1]
        assert TOM[1][1] in recall(conn, embedder, "Which city does Tom live in?")
        # a word of the focus in the text passes whatever its cosine ("run" here)
        assert TOM[2][1] in recall(conn, embedder, "Is Tom running a marathon?")


@pytest.mark.parametrize(
    ("cosine", "focus_cosine", "keyword", "min_focus", "passes"),
    [
        (0.5, 0.1, False, 0.225, False),
        (0.5, 0.225, False, 0.225, True),
        (0.65, 0.0, False, 0.225, True),
        (0.1, 0.0, True, 0.225, True),
        (None, None, None, 0.225, False),
        (None, None, None, 0.0, True),
        (0.1, 0.1, False, 0.0, True),
    ],
)
def test_focus_passes(
    superuser: psycopg.Connection[Any],
    cosine: float | None,
    focus_cosine: float | None,
    keyword: bool | None,
    min_focus: float,
    passes: bool,
) -> None:
    """pymem_private.focus_passes: the focus cosine, the whole question's cosine (0.65: "Who is Efua?" names what it
    asks), a word of the focus, or the check off; NULL evidence does not pass."""
    row = superuser.execute(
        "select pymem_private.focus_passes(%s::float8, %s::float8, %s::boolean, %s::float8)",
        (cosine, focus_cosine, keyword, min_focus),
    ).fetchone()
    assert row == (passes,)


def test_recall_checks_the_focus_arguments(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        seed_tom(conn, embedder)
        for bad in (-0.1, 1.5):
            with pytest.raises(psycopg.Error, match="min_focus") as raised, conn.transaction():
                recall(conn, embedder, "Tom", min_focus=bad)
            assert raised.value.sqlstate == "PM002"
        with pytest.raises(psycopg.Error, match="focus_embedding") as raised, conn.transaction():
            recall(conn, embedder, "Tom", focus_embedding=np.full(12, 0.5, dtype=np.float32))
        assert raised.value.sqlstate == "PM002"


def test_context_leaves_out_what_fails_the_focus_check(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        seed_tom(conn, embedder)
        prompt = "What musical instrument does Tom play?"
        base = {"trigger_prompt": prompt, "butler": "chat", "query_embedding": embedder.embed(prompt)}
        assert [r for r in call(conn, "memory_context_candidates", **base) if r["section"] == "knowledge"] != []
        focused = call(conn, "memory_context_candidates", **base, focus_embedding=embedder.embed(focus(conn, prompt)))
        assert [r for r in focused if r["section"] == "knowledge"] == []


def test_an_analyst_asks_as_the_agent_does(as_tenant: Tenant, embedder: Embedder, make_login: Any, db_dsn: str) -> None:
    with as_tenant("acme") as conn:
        seed_tom(conn, embedder)
    with as_tenant("globex") as conn:
        store_fact(conn, "Tom", "instrument", "Tom plays the cello", embedder)
    with connect_as(db_dsn, make_login("acme")) as analyst:
        register_vector(analyst)
        question = "What musical instrument does Tom play?"
        assert focus(analyst, question) == "what musical instrument does play"
        assert recall(analyst, embedder, question) == []


@pytest.mark.anyio
async def test_the_mcp_tool_asks_with_the_focus(server: Any) -> None:
    """memory_recall through MCP: the server embeds the focus SQL gives it; min_relevance 0 turns every floor off.
    (memory_context does not ask with the focus: a task's prompt is not a question, and what matters for it, an
    allergy for "plan dinner for the user", may share none of its meaning.)"""
    async with Client(server) as client:
        for predicate, content in TOM:
            await mcp_call(client, "memory_store_fact", subject="Tom", predicate=predicate, content=content)
        off_topic = await mcp_call(client, "memory_recall", topic="What musical instrument does Tom play?")
        everything = await mcp_call(
            client, "memory_recall", topic="What musical instrument does Tom play?", min_relevance=0
        )
        job = await mcp_call(client, "memory_recall", topic="What is Tom's job?")
    assert off_topic["results"] == []
    assert len(everything["results"]) == 3
    assert job["results"][0]["content"] == TOM[0][1]
