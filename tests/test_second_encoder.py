"""The second encoder (all-mpnet-base-v2 beside MiniLM, issue 30), in SQL: its vectors in pymem.second_embeddings
(stored only for the text embedded, of the caller's tenant, gone with the memory or its text), the third retrieval
leg of memory_search and memory_recall (fused by RRF, skipped for another model), and the worker that fills them.
Real MiniLM and real all-mpnet-base-v2 (qint8 ONNX) vectors throughout."""

from __future__ import annotations

import hashlib
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import psycopg
import pytest
from mcp import Client

from pymem.embeddings import Embedder, EmbeddingService
from pymem.mcp_server import ServerOptions, build_server
from pymem.second_embedding_worker import SecondEmbeddingWorker
from pymem.tenancy import tenant_transaction
from tests.conftest import Tenant, base_env
from tests.mcpclient import call as mcp_call
from tests.sqlapi import call, call_one, store_episode, store_fact
from tests.test_mcp_transports import pymem_command

SECOND = "mpnet-qint8"

TURNS = [
    "User: we finally booked the flights to Lisbon for the second week of May",
    "Assistant: great, do you want me to look for hotels near Alfama?",
    "User: my sister Ana is getting married in September, I'm a bridesmaid",
    "User: the dentist said I need a crown on the lower left molar",
    "User: I switched from running to swimming because of my knee",
    "User: our team moved the product launch to the first of March",
]


@pytest.fixture(scope="session")
def second() -> Embedder:
    return Embedder(SECOND)


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


def store_vectors(conn: psycopg.Connection[Any], second: Embedder, memories: list[tuple[str, Any, str]]) -> int:
    """memory_second_embedding_store for (type, id, text) memories, embedded now."""
    vectors = second.embed_many([text for _, _, text in memories])
    return int(
        conn.execute(
            "select pymem.memory_second_embedding_store(%s::text[], %s::uuid[], %s::text[], %s::vector[], %s)",
            (
                [m[0] for m in memories],
                [m[1] for m in memories],
                [md5(m[2]) for m in memories],
                vectors,
                second.model_id,
            ),
        ).fetchone()[0]
    )


def chat(conn: psycopg.Connection[Any], embedder: Embedder, second: Embedder) -> dict[str, Any]:
    ids = {text: store_episode(conn, text, "chat", embedder) for text in TURNS}
    assert store_vectors(conn, second, [("episode", i, t) for t, i in ids.items()]) == len(TURNS)
    return ids


def search_episodes(
    conn: psycopg.Connection[Any], query: str, embedder: Embedder, second: Embedder | None, **options: Any
) -> list[dict[str, Any]]:
    """memory_search over episodes with the query's MiniLM embedding and, unless second is None, its second one."""
    if second is not None:
        options["second_query_embedding"] = second.embed(query)
    return call(conn, "memory_search", query=query, query_embedding=embedder.embed(query), types=["episode"], **options)


def test_search_fuses_the_second_leg(as_tenant: Tenant, embedder: Embedder, second: Embedder) -> None:
    query = "when is the wedding?"
    with as_tenant("acme") as conn:
        ids = chat(conn, embedder, second)
        rows = search_episodes(conn, query, embedder, second, limit=6)
        without = search_episodes(conn, query, embedder, None)
    assert rows[0]["memory_id"] == ids[TURNS[2]]  # the wedding, first by every leg
    assert all(r["second_rank"] is not None for r in rows)  # a chat this small: every turn is in every list
    assert all(r["second_rank"] is None for r in without)
    for r in rows:  # the score is the four-list RRF (an assistant's turn weighed by agent_turn_weight, 0.9)
        expected = sum(
            1.0 / (60 + (rank if rank is not None else 7))
            for rank in (r["semantic_rank"], r["keyword_rank"], r["second_rank"])
        ) + (1.0 / (60 + r["graph_rank"]) if r["graph_rank"] else 0.0)
        assert r["score"] == pytest.approx(expected * (0.9 if r["content"].startswith("Assistant:") else 1.0))


def test_second_rrf_weight_zero_is_the_search_without_it(
    as_tenant: Tenant, embedder: Embedder, second: Embedder
) -> None:
    query = "what happened with my teeth"
    with as_tenant("acme") as conn:
        chat(conn, embedder, second)
        zero = search_episodes(conn, query, embedder, second, second_rrf_weight=0.0)
        plain = search_episodes(conn, query, embedder, None)
    assert [(r["memory_id"], r["score"]) for r in zero] == [(r["memory_id"], r["score"]) for r in plain]


def test_the_leg_skips_vectors_of_another_model_and_of_another_text(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder, second: Embedder
) -> None:
    with as_tenant("acme") as conn:
        ids = chat(conn, embedder, second)
    superuser.execute("select * from pymem.memory_record_embedding_model(%s)", (embedder.model_id,))
    superuser.execute("select * from pymem.memory_record_second_embedding_model('some-other-encoder')")
    query = "swimming"
    with as_tenant("acme") as conn:
        other = search_episodes(conn, query, embedder, second)
    assert all(r["second_rank"] is None for r in other)
    superuser.execute("select * from pymem.memory_record_second_embedding_model(%s)", (second.model_id,))
    # a vector whose MD5 is not its memory's text (written behind the API's back) is never used
    superuser.execute(
        "update pymem.second_embeddings set content_md5 = md5('something else') where id = %s", (ids[TURNS[4]],)
    )
    with as_tenant("acme") as conn:
        rows = search_episodes(conn, query, embedder, second)
    swim = next(r for r in rows if r["memory_id"] == ids[TURNS[4]])
    assert swim["second_rank"] is None and all(r["second_rank"] is not None for r in rows if r is not swim)


def test_a_vector_goes_with_its_memory_and_its_text(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder, second: Embedder
) -> None:
    with as_tenant("acme") as conn:
        ids = chat(conn, embedder, second)
        call(conn, "memory_erase", type="episode", id=ids[TURNS[0]])
    superuser.execute("update pymem.episodes set content = 'User: changed' where id = %s", (ids[TURNS[1]],))
    left = {r[0] for r in superuser.execute("select id from pymem.second_embeddings").fetchall()}
    assert left == {ids[t] for t in TURNS[2:]}


def test_the_store_checks_its_arguments_and_writes_nothing_on_error(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder, second: Embedder
) -> None:
    with as_tenant("acme") as conn:
        episode = store_episode(conn, TURNS[0], "chat", embedder)
        good = second.embed(TURNS[0])
        cases = [
            (["episode", "episode"], [episode], [md5(TURNS[0])], [good], "one element each"),
            (["episode"], [episode], [md5(TURNS[0])], [embedder.embed(TURNS[0])], "768 dimensions"),
            (["note"], [episode], [md5(TURNS[0])], [good], "episode, fact or rule"),
            (["episode"], [episode], [md5(TURNS[0])], [np.zeros(768, dtype=np.float32)], "zero vector"),
        ]
        for types, ids, md5s, vectors, message in cases:
            with pytest.raises(psycopg.Error, match=message) as raised, conn.transaction():
                conn.execute(
                    "select pymem.memory_second_embedding_store(%s::text[], %s::uuid[], %s::text[], %s::vector[], 'm')",
                    (types, ids, md5s, vectors),
                )
            assert raised.value.sqlstate == "PM002"
        with pytest.raises(psycopg.Error, match="768 dimensions"), conn.transaction():
            call(conn, "memory_search", query="x", second_query_embedding=embedder.embed("x"))
        # a stale MD5 stores nothing
        assert store_vectors(conn, second, [("episode", episode, "another text")]) == 0
    assert superuser.execute("select count(*) from pymem.second_embeddings").fetchone() == (0,)


def test_a_tenant_reads_and_writes_only_its_own_vectors(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder, second: Embedder
) -> None:
    with as_tenant("acme") as conn:
        ids = chat(conn, embedder, second)
    with as_tenant("globex") as conn:
        assert conn.execute("select count(*) from pymem.second_embeddings").fetchone() == (0,)
        # acme's memory ids, stored as globex: no memory of globex has them, nothing is written
        assert store_vectors(conn, second, [("episode", i, t) for t, i in ids.items()]) == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute("delete from pymem.second_embeddings")
        assert search_episodes(conn, "Lisbon flights", embedder, second) == []
    owners = superuser.execute("select distinct tenant_id from pymem.second_embeddings").fetchall()
    assert owners == [("acme",)]


def test_recall_takes_the_second_embedding_too(as_tenant: Tenant, embedder: Embedder, second: Embedder) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "sport", "The user swims three times a week", embedder)
        store_vectors(conn, second, [("fact", fact, "The user swims three times a week")])
        topic = "exercise habits"
        rows = call(
            conn,
            "memory_recall",
            topic=topic,
            query_embedding=embedder.embed(topic),
            second_query_embedding=second.embed(topic),
            min_relevance=0,
        )
    assert [r["memory_id"] for r in rows] == [fact]


def test_the_worker_embeds_every_live_memory_of_every_tenant(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str, embedder: Embedder, second: Embedder
) -> None:
    with as_tenant("acme") as conn:
        for text in TURNS[:3]:
            store_episode(conn, text, "chat", embedder)
        forgotten = store_fact(conn, "user", "pet", "The user has a cat", embedder)
        call(conn, "memory_forget", type="fact", id=forgotten)
    with as_tenant("globex") as conn:
        store_fact(conn, "user", "city", "The user lives in Porto")  # no MiniLM embedding: still embedded here
    worker = SecondEmbeddingWorker(dsn=db_dsn, embedder=second, batch=2)
    assert worker.work("test") == 4
    assert worker.work("test") == 0  # nothing is due any more
    rows = superuser.execute(
        "select tenant_id, memory_type, embedding_model, vector_dims(embedding) from pymem.second_embeddings"
        " order by 1, 2"
    ).fetchall()
    assert rows == [("acme", "episode", second.model_id, 768)] * 3 + [("globex", "fact", second.model_id, 768)]


def test_the_rrf_of_four_lists(superuser: psycopg.Connection[Any]) -> None:
    def rrf(*args: Any) -> float:
        return float(
            superuser.execute(
                "select pymem.memory_rrf_score(%s::int, %s::int, %s::int, %s::int, %s, %s, %s, %s, %s, %s)", args
            ).fetchone()[0]
        )

    assert rrf(1, None, None, 3, 21, 60, 1.0, 1.0, 1.0, 1.0) == pytest.approx(1 / 61 + 1 / 81 + 1 / 63)
    assert rrf(None, None, None, 2, 21, 60, 1.0, 1.0, 1.0, 1.0) == pytest.approx(2 / 81 + 1 / 62)
    assert rrf(None, None, 4, None, 21, 60, 1.0, 1.0, 1.0, 1.0) == pytest.approx(1 / 64)  # a link alone
    assert rrf(1, 2, None, None, 21, 60, 1.0, 1.0, 1.0, 0.0) == pytest.approx(1 / 61 + 1 / 62)
    with pytest.raises(psycopg.Error, match="second_rank"):
        rrf(1, 2, None, 0, 21, 60, 1.0, 1.0, 1.0, 1.0)


def test_the_configured_second_model_is_recorded(superuser: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.Error, match="no embedding model is recorded"):
        superuser.execute("select * from pymem.memory_record_second_embedding_model('x')")
    superuser.execute("select * from pymem.memory_record_embedding_model('m')")
    first = call_one(superuser, "memory_record_second_embedding_model", model_id="x")
    again = call_one(superuser, "memory_record_second_embedding_model", model_id="x")
    off = call_one(superuser, "memory_record_second_embedding_model", model_id=None)
    assert (first["previous_model_id"], first["changed"], again["changed"]) == (None, True, False)
    assert (off["previous_model_id"], off["current_model_id"]) == ("x", None)
    assert superuser.execute("select pymem.memory_second_embedding_model()").fetchone() == (None,)


def test_pymem_embed_second_gives_psql_the_second_query_vector(
    as_tenant: Tenant, db_dsn: str, embedder: Embedder, second: Embedder
) -> None:
    """An analyst's hybrid search with the second leg in psql: `pymem embed` and `pymem embed --second`."""
    with as_tenant("acme") as conn:
        chat(conn, embedder, second)
    question = "who is getting married"
    script = (
        "select set_config('pymem.tenant_id', 'acme', false);\n"
        f"\\set q `{pymem_command()} embed '{question}'`\n"
        f"\\set q2 `{pymem_command()} embed --second '{question}'`\n"
        f"select vector_dims(:'q2'::vector), content, second_rank from pymem.memory_search(query => '{question}',"
        " query_embedding => :'q', second_query_embedding => :'q2', \"limit\" => 1);\n"
    )
    done = subprocess.run(
        ["psql", db_dsn, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", "set role pymem_app", "-f", "-"],
        input=script,
        capture_output=True,
        text=True,
        timeout=180,
        env=base_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    tenant, found = done.stdout.strip().splitlines()
    assert tenant == "acme" and found == f"768|{TURNS[2]}|1"


def test_a_text_rewritten_while_its_vector_is_stored_never_keeps_the_old_vector(
    connect_app: Any, db_dsn: str, embedder: Embedder, second: Embedder
) -> None:
    """The store locks the memories it checks (FOR SHARE): a rewrite of the text that commits first makes the
    store keep nothing; a store that commits first has its vector deleted by the rewrite's trigger. Either way no
    vector of an old text is left for a memory (second_embedding_due would never offer it again)."""
    first, other = connect_app(), connect_app()
    with tenant_transaction(first, "acme"):
        episode = store_episode(first, TURNS[0], "chat", embedder)
    old_md5, vector = md5(TURNS[0]), second.embed(TURNS[0])
    store = (
        "select pymem.memory_second_embedding_store(array['episode'], array[%s::uuid], array[%s], array[%s::vector],"
        " %s)"
    )
    with psycopg.connect(db_dsn, autocommit=True) as rewriter:
        # 1. the rewrite holds the row; the store waits for it, then finds the new text
        rewriter.execute("begin")
        rewriter.execute("update pymem.episodes set content = 'User: rewritten' where id = %s", (episode,))
        with ThreadPoolExecutor(1) as pool, tenant_transaction(first, "acme"):
            waiting = pool.submit(lambda: first.execute(store, (episode, old_md5, vector, second.model_id)))
            time.sleep(0.5)
            assert not waiting.done()  # blocked by the rewrite
            rewriter.execute("commit")
            assert waiting.result(timeout=30).fetchone() == (0,)
        # 2. the store holds the row; the rewrite waits for it, then its trigger deletes the vector
        new_md5 = md5("User: rewritten")
        with ThreadPoolExecutor(1) as pool:
            with tenant_transaction(other, "acme"):
                assert other.execute(store, (episode, new_md5, vector, second.model_id)).fetchone() == (1,)
                rewrite = pool.submit(
                    rewriter.execute, "update pymem.episodes set content = 'User: again' where id = %s", (episode,)
                )
                time.sleep(0.5)
                assert not rewrite.done()  # blocked by the store's lock
            rewrite.result(timeout=30)  # the store committed: the rewrite goes on
        left = rewriter.execute("select count(*) from pymem.second_embeddings where id = %s", (episode,)).fetchone()
    assert left == (0,)


def test_index_health_measures_the_second_encoders_index_too(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder, second: Embedder
) -> None:
    with as_tenant("acme") as conn:
        chat(conn, embedder, second)
    rows = superuser.execute(
        "select filter_kind, filter_value, recall from pymem.memory_index_health(sample => 6, k => 5, save => false)"
        " where index_name = 'second_embeddings_embedding_idx'"
    ).fetchall()
    assert ("overall", None, 1.0) in rows and ("tenant", "acme", 1.0) in rows


@pytest.mark.anyio
async def test_the_mcp_tools_embed_the_query_with_both_models(
    app_pool: Any, as_tenant: Tenant, embedder: Embedder, second: Embedder
) -> None:
    """A server with the second encoder (as `pymem serve` with PYMEM_SECOND_ENCODER builds it) passes the query's
    second vector to memory_search, memory_recall and memory_context: the wedding turn, first in every list, scores
    1/(60 + 1) more by RRF than on a server without it, and recall and context answer as before."""
    with as_tenant("acme") as conn:
        chat(conn, embedder, second)
        fact = store_fact(conn, "ana", "wedding", "Ana marries in September", embedder)
        store_vectors(conn, second, [("fact", fact, "Ana marries in September")])

    def options(with_second: bool) -> ServerOptions:
        return ServerOptions(
            pool=app_pool,
            embeddings=EmbeddingService(embedder),
            stdio_tenant="acme",
            owns_pool=False,
            second_embeddings=EmbeddingService(second) if with_second else None,
        )

    found: dict[bool, dict[str, Any]] = {}
    for with_second in (False, True):
        async with Client(build_server(options(with_second))) as client:
            search = await mcp_call(client, "memory_search", query="when is the wedding?", types=["episode"])
            recall = await mcp_call(client, "memory_recall", topic="when is the wedding?")
            block = await mcp_call(client, "memory_context", trigger_prompt="when is the wedding?", butler="chat")
            found[with_second] = {"search": search["results"], "recall": recall["results"], "context": block}
    plain, both = found[False]["search"][0], found[True]["search"][0]
    assert plain["content"] == both["content"] == TURNS[2]
    assert both["score"] == pytest.approx(plain["score"] + 1 / 61)
    assert [r["memory_id"] for r in found[True]["recall"]] == [str(fact)]
    assert "Ana marries in September" in found[True]["context"]["text"]
