"""The embedding queue and its worker: a memory stored without an embedding (in psql, say) is queued by a trigger,
claimed by one worker only (SKIP LOCKED), embedded and written back unless its text changed meanwhile; forgotten or
deleted memories leave the queue; failures are retried and then kept with their error; the worker wakes on NOTIFY
and makes the row searchable by meaning; `pymem embed` gives psql a query vector."""

from __future__ import annotations

import hashlib
import subprocess
import threading
import time
import zlib
from typing import Any

import numpy as np
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


def test_one_write_back_handles_every_type_and_a_memory_named_twice(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    texts = {"fact": "The user has a cat", "rule": "Greet the cat", "episode": "User: my cat is called Miso"}
    with as_tenant("acme") as conn:
        ids = {
            "fact": store_fact(conn, "user", "pet", texts["fact"]),
            "rule": store_rule(conn, texts["rule"]),
            "episode": store_episode(conn, texts["episode"], "home"),
        }
    md5 = {kind: hashlib.md5(text.encode()).hexdigest() for kind, text in texts.items()}
    one, two = _vector("one"), _vector("two")
    rows = [
        ("episode", ids["episode"], md5["episode"], one),
        ("fact", ids["fact"], md5["rule"], one),  # not the fact's text: not written
        ("rule", ids["rule"], md5["rule"], one),
        ("fact", ids["fact"], md5["fact"], two),  # written
        ("fact", ids["fact"], md5["fact"], one),  # embedded already (just above): not written
    ]
    with as_tenant("acme") as conn:
        written = conn.execute(
            "select pymem.memory_embedding_complete(%s::text[], %s::uuid[], %s::text[], %s::public.vector[], 'm')",
            [list(column) for column in zip(*rows, strict=True)],
        ).fetchone()
        stored = dict(
            conn.execute(
                "select 'fact', embedding from pymem.facts union all select 'rule', embedding from pymem.rules"
                " union all select 'episode', embedding from pymem.episodes"
            ).fetchall()
        )
    assert written == (3,)
    assert np.array_equal(stored["episode"].to_numpy(), one) and np.array_equal(stored["rule"].to_numpy(), one)
    assert np.array_equal(stored["fact"].to_numpy(), two)
    assert queued(superuser) == []


def _vector(text: str) -> np.ndarray:
    """A unit vector of its own for each text (no model needed)."""
    vector = np.random.default_rng(zlib.crc32(text.encode())).standard_normal(384).astype(np.float32)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


class _FakeEmbedder:
    """Embeds with _vector; a text with 'explode' fails the batch, one with 'zero' gets the zero vector, which
    memory_embedding_complete refuses (the write-back of its batch fails)."""

    model_id = "test-model"

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def embed_many(self, texts: list[str]) -> list[np.ndarray]:
        self.batches.append(list(texts))
        if any("explode" in t for t in texts):
            raise RuntimeError("model exploded")
        return [np.zeros(384, dtype=np.float32) if "zero" in t else _vector(t) for t in texts]


def writer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("pymem-embedding-write")]


def test_the_worker_writes_batches_back_while_it_embeds_the_next_and_hands_back_the_failed_ones(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    texts = ["ok one", "ok two", "zero three", "ok four", "explode five", "ok six", "ok seven"]
    for text in texts:  # one transaction each: claimed in this order, two at a time
        with as_tenant("acme") as conn:
            store_fact(conn, "user", text, text)
    embedder = _FakeEmbedder()
    worker = EmbeddingWorker(dsn=db_dsn, embedder=embedder, interval=30, batch=2)
    assert worker.work("test") == 3
    assert [sorted(b) for b in embedder.batches] == [sorted(texts[n : n + 2]) for n in range(0, 7, 2)]
    assert worker.embedded == 3 and not writer_threads()
    with as_tenant("acme") as conn:
        stored = dict(conn.execute("select content, embedding from pymem.facts where embedding is not null"))
    assert sorted(stored) == ["ok one", "ok seven", "ok two"]
    for text, vector in stored.items():  # the embedder's float32 values, bit for bit
        assert np.array_equal(vector.to_numpy(), _vector(text))
    waiting = superuser.execute(
        "select content, attempts, last_error, not_before > now() from pymem.embedding_queue order by content"
    ).fetchall()
    refused = "must not be the zero vector"
    assert [(c, a, backed_off) for c, a, _, backed_off in waiting] == [
        ("explode five", 1, True),
        ("ok four", 1, True),  # its batch could not be written: handed back with it
        ("ok six", 1, True),
        ("zero three", 1, True),
    ]
    errors = {c: e for c, _, e, _ in waiting}
    assert errors["explode five"] == errors["ok six"] == "RuntimeError: model exploded"
    assert refused in errors["zero three"] and refused in errors["ok four"]


def test_a_lost_connection_in_the_write_back_is_raised_and_the_worker_stops_cleanly(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(5):
        with as_tenant("acme") as conn:
            store_fact(conn, "user", f"p{n}", f"fact number {n}")

    def lost(*_: Any) -> int:
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    worker = EmbeddingWorker(dsn=db_dsn, embedder=_FakeEmbedder(), interval=30, batch=2)
    monkeypatch.setattr(worker, "complete", lost)
    with pytest.raises(psycopg.OperationalError, match="closed the connection"):
        worker.work("test")
    assert not writer_threads() and worker.embedded == 0
    # nothing handed back as failed: the claimed rows stay leased and fall due again when the lease ends
    leased = superuser.execute("select count(*) from pymem.embedding_queue where last_error is null").fetchone()
    assert leased == (5,)


def test_claim_checks_its_arguments(superuser: psycopg.Connection[Any]) -> None:
    for bad in ("0", "1001", "null"):
        with pytest.raises(psycopg.Error, match="limit must be between 1 and 1000"):
            superuser.execute(f"select * from pymem_private.embedding_claim({bad})")
