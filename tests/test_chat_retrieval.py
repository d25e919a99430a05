"""The conversational retrieval set (eval/conversations) and its measurement (pymem_dev/evaluation/chat_retrieval.py):
the data is what its README says, a chat is measured per kind of question against the real database and model,
and the relevance model's chat training data never comes from a test chat."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from pymem.embeddings import Embedder
from pymem_dev.evaluation import chat_retrieval, run, tables
from tests.conftest import app_dsn_for


def test_the_set_is_what_its_readme_says() -> None:
    chats = chat_retrieval.load_chats()
    short = [c for c in chats if c.source == "chats"]
    long = [c for c in chats if c.source == "long_chats"]
    assert len(short) == 16 and len(long) == 6
    assert {c.id for c in long if c.split == "train"} == {"r01", "r03", "r05"}
    assert {c.id for c in short if c.split == "train"} == {f"c0{n}" for n in range(1, 9)}
    now = datetime.now(UTC)
    for chat in chats:
        turns = {t.id: t for t in chat.turns}
        assert len(turns) == len(chat.turns)
        assert len(chat.questions) == (15 if chat.source == "chats" else 30)
        last = max(t.when for t in chat.turns)
        for q in chat.questions:
            assert q.kind in chat_retrieval.KINDS
            assert q.asked_on > last and q.asked_on < now, q.id  # after the chat, never in the future (as_of)
            assert all(e in turns for e in q.evidence), q.id
            if q.kind == "unanswerable":
                assert q.evidence == () and q.off_topic is not None, q.id
            else:
                assert q.evidence, q.id
        if chat.source == "long_chats":
            assert len(chat.turns) >= 260 and len({t.session for t in chat.turns}) >= 12
            assert all(len(q.evidence) >= 2 for q in chat.questions if q.kind == "multi_hop")
        else:
            assert chat.facts and all(f in turns for f in chat.facts)


def test_a_chat_is_measured_per_kind(db_dsn: str, embedder: Embedder) -> None:
    """One short chat through the real search, consolidation and recall: every question gets its figures (search
    and the yardsticks for the answerable ones, recall with and without the floor, over consolidated and over
    labelled facts), and the summary has each kind; nothing is left behind in the database."""
    chat = next(c for c in chat_retrieval.load_chats() if c.id == "c01")
    with run.connect_app(app_dsn_for(db_dsn)) as conn:
        rows = chat_retrieval.evaluate_chat(conn, chat, embedder, None)
        with conn.transaction():
            conn.execute("select set_config('pymem.tenant_id', %s, true)", (chat_retrieval.TENANT,))
            left = conn.execute(
                "select (select count(*) from pymem.episodes) + (select count(*) from pymem.facts)"
            ).fetchone()
    assert left == (0,)  # rolled back
    assert [r["question"] for r in rows] == [q.id for q in chat.questions]
    for row, q in zip(rows, chat.questions, strict=True):
        if q.evidence:
            for leg in ("hybrid", "semantic", "keyword", "bm25", "cosine"):
                assert set(row[leg]) == {"r@5", "r@10", "ndcg@10"}
                assert all(0 <= v <= 1 for v in row[leg].values())
        assert "recall_floor@10_rows" in row and "facts_floor@10_rows" in row
        assert row["facts_floor@10_rows"] <= row["facts_no_floor@10_rows"]
    answerable = [r for r in rows if r["kind"] != "unanswerable"]
    assert sum(r["hybrid"]["r@10"] for r in answerable) / len(answerable) > 0.3  # it finds things
    summary = chat_retrieval.summarise(rows)
    kinds = summary["train"]["chats"]
    assert {"single_hop", "temporal", "unanswerable", "answerable", "off_topic_silent"} <= set(kinds)
    assert kinds["off_topic_silent"]["questions"] == sum(bool(q.off_topic) for q in chat.questions)
    table = tables.chat_retrieval_tables({"by_kind": summary})
    assert "train" not in table.split("\n", 2)[2]  # the table reports test only


@pytest.mark.parametrize("mode", ["keyword"])
def test_the_chat_training_data_comes_from_train_chats_only(db_dsn: str, embedder: Embedder, mode: str) -> None:
    with run.connect_app(app_dsn_for(db_dsn)) as conn:
        rows, floors = chat_retrieval.train_evidence(conn, embedder, None, mode)
    assert rows and floors
    assert {e.query.split(":")[0] for e in rows} <= {f"c0{n}" for n in range(1, 9)}
    assert any(e.relevant for e in rows)
    assert any(not f.answerable and f.category == "no_answer" for f in floors)


def test_a_chat_is_measured_with_the_second_encoder_too(db_dsn: str, embedder: Embedder) -> None:
    """With all-mpnet-base-v2 beside MiniLM, every answerable question also gets hybrid search with the second leg
    (its vectors of every turn stored through memory_second_embedding_store) and the second encoder alone."""
    chat = next(c for c in chat_retrieval.load_chats() if c.id == "c02")
    second = chat_retrieval.second_encoder()
    assert second is not None  # make install installs the mpnet extra
    with run.connect_app(app_dsn_for(db_dsn)) as conn:
        rows = chat_retrieval.evaluate_chat(
            conn,
            chat,
            embedder,
            None,
            search_variants={"hybrid": {}},
            recall=False,
            second=second,
            second_weights=(1.0, 0.0),
        )
    for row, q in zip(rows, chat.questions, strict=True):
        if q.evidence:
            for leg in ("hybrid_second", "hybrid_second_0", "second_cosine"):
                assert set(row[leg]) == {"r@5", "r@10", "ndcg@10"}
            assert row["hybrid_second_0"] == row["hybrid"]  # a weight of 0 is the search without the leg
        else:
            assert "hybrid_second" not in row
