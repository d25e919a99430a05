"""The embedding queue and its worker: a memory stored without an embedding (in psql, say) is queued by a trigger,
claimed by one worker only (SKIP LOCKED), embedded and written back unless its text changed meanwhile; forgotten or
deleted memories leave the queue; failures are retried and then kept with their error; the worker wakes on NOTIFY
and makes the row searchable by meaning; `pymem embed` gives psql a query vector."""

from __future__ import annotations

import subprocess
import time
from typing import Any

import psycopg
import pytest

from pymem.embedding_worker import EmbeddingWorker
from pymem.embeddings import Embedder
from tests.conftest import Tenant, base_env
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule
from tests.test_mcp_transports import pymem_command


def queued(superuser: psycopg.Connection[Any]) -> list[tuple[str, str, str]]:
    return superuser.execute(
        "select tenant_id, memory_type, content from pymem.embedding_queue order by enqueued_at, content"
    ).fetchall()


def test_what_is_stored_without_an_embedding_waits_in_the_queue(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder
) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "pet", "The user has a cat")
        store_rule(conn, "Greet the cat")
        episode = store_episode(conn, "User: my cat is called Miso", "home")
        store_fact(conn, "user", "city", "The user lives in Porto", embedder)  # embedded: not queued
        backlog = call_one(conn, "memory_embedding_backlog")
    assert sorted(queued(superuser)) == [
        ("acme", "episode", "User: my cat is called Miso"),
        ("acme", "fact", "The user has a cat"),
        ("acme", "rule", "Greet the cat"),
    ]
    assert (backlog["waiting"], backlog["due"], backlog["retrying"], backlog["failed"]) == (3, 3, 0, 0)
    with as_tenant("acme") as conn:
        call(conn, "memory_forget", type="fact", id=fact)
        call(conn, "memory_erase", type="episode", id=episode)
    assert queued(superuser) == [("acme", "rule", "Greet the cat")]


def test_a_tenant_sees_only_its_own_backlog(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "pet", "The user has a cat")
    with as_tenant("globex") as conn:
        assert conn.execute("select count(*) from pymem.embedding_queue").fetchone() == (0,)
        assert call_one(conn, "memory_embedding_backlog")["waiting"] == 0
        with pytest.raises(psycopg.Error):
            conn.execute("delete from pymem.embedding_queue")


def test_two_workers_never_claim_the_same_row(as_tenant: Tenant, db_dsn: str) -> None:
    with as_tenant("acme") as conn:
        for n in range(10):
            store_fact(conn, "user", f"p{n}", f"fact number {n}")
    with psycopg.connect(db_dsn) as one, psycopg.connect(db_dsn) as two:
        first = one.execute("select memory_id from pymem_private.embedding_claim(6)").fetchall()  # held: not committed
        second = two.execute("select memory_id from pymem_private.embedding_claim(6)").fetchall()
        one.commit()
        two.commit()
        third = one.execute("select memory_id from pymem_private.embedding_claim(6)").fetchall()
    assert len(first) == 6 and len(second) == 4 and third == []  # the rest are leased
    assert not {r[0] for r in first} & {r[0] for r in second}


def test_a_text_that_changed_meanwhile_is_not_written_back(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder
) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "pet", "The user has a cat")
    (claimed,) = superuser.execute("select memory_id, content_md5 from pymem_private.embedding_claim(10)").fetchall()
    superuser.execute("update pymem.facts set content = 'The user has two cats' where id = %s", (fact,))
    vector = embedder.embed("The user has a cat")
    with as_tenant("acme") as conn:
        written = conn.execute(
            "select pymem.memory_embedding_complete(array['fact'], array[%s::uuid], array[%s], array[%s::vector], 'm')",
            (claimed[0], claimed[1], vector),
        ).fetchone()
    assert written == (0,)
    assert queued(superuser) == [("acme", "fact", "The user has two cats")]  # queued anew with its new text


def test_a_failing_row_is_retried_then_kept_with_its_error(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "pet", "The user has a cat")
    superuser.execute("select * from pymem_private.embedding_claim(10)")
    assert superuser.execute(
        "select pymem_private.embedding_fail('acme', 'fact', %s, 'model gone')", (fact,)
    ).fetchone() == ("retry",)
    row = superuser.execute(
        "select attempts, last_error, not_before > now() + interval '1 s' from pymem.embedding_queue"
    )
    assert row.fetchone() == (1, "model gone", True)  # backoff: 2 s after the first try
    assert superuser.execute("select count(*) from pymem_private.embedding_claim(10)").fetchone() == (0,)  # not due
    assert superuser.execute(
        "select pymem_private.embedding_fail('acme', 'fact', %s, 'model still gone', max_attempts => 1)", (fact,)
    ).fetchone() == ("failed",)
    with as_tenant("acme") as conn:
        backlog = call_one(conn, "memory_embedding_backlog")
    assert (backlog["waiting"], backlog["failed"], backlog["last_error"]) == (0, 1, "model still gone")


def test_the_worker_embeds_a_row_stored_in_psql_and_search_finds_it_by_meaning(
    as_tenant: Tenant, db_dsn: str, embedder: Embedder
) -> None:
    worker = EmbeddingWorker(dsn=db_dsn, embedder=embedder, interval=30)
    thread, stop = worker.start()
    try:
        time.sleep(0.5)  # listening
        with as_tenant("acme") as conn:
            fact = store_fact(conn, "user", "allergy", "The user is allergic to peanuts")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with as_tenant("acme") as conn:
                row = conn.execute("select embedding_model from pymem.facts where id = %s", (fact,)).fetchone()
            if row and row[0]:
                break
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(timeout=10)
    assert row == (embedder.model_id,)
    with as_tenant("acme") as conn:
        found = call(
            conn,
            "memory_search",
            query="nut intolerance",
            mode="semantic",
            query_embedding=embedder.embed("nut intolerance"),
        )
        assert call_one(conn, "memory_embedding_backlog")["waiting"] == 0
    assert [r["memory_id"] for r in found][:1] == [fact]
    assert worker.embedded == 1


def test_pymem_embed_gives_psql_a_query_vector(as_tenant: Tenant, db_dsn: str, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        store_fact(conn, "user", "allergy", "The user is allergic to peanuts", embedder)
        store_fact(conn, "user", "city", "The user lives in Porto", embedder)
    script = (
        "select set_config('pymem.tenant_id', 'acme', false);\n"
        f"\\set q `{pymem_command()} embed 'is the user allergic to anything'`\n"
        "select content from pymem.memory_recall(topic => 'is the user allergic to anything',"
        " query_embedding => :'q');\n"
    )
    done = subprocess.run(
        ["psql", db_dsn, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", "set role pymem_app", "-f", "-"],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        env=base_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    tenant, *recalled = done.stdout.strip().splitlines()
    assert tenant == "acme" and recalled[0] == "The user is allergic to peanuts"  # the best first, by meaning


def test_claim_checks_its_arguments(superuser: psycopg.Connection[Any]) -> None:
    for bad in ("0", "1001", "null"):
        with pytest.raises(psycopg.Error, match="limit must be between 1 and 1000"):
            superuser.execute(f"select * from pymem_private.embedding_claim({bad})")
