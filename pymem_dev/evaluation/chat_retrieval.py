"""Retrieval over conversations, per kind of question: the turns that answer a question, found by memory_search over
episodes and by memory_recall over the facts consolidation drew from them.

Data (eval/conversations/): chats.jsonl (16 chats of friends, groups and a user with an assistant, 4 sessions each;
dev = train, test = test), questions.jsonl (the kind of each of their questions, and five more per chat: open-domain,
a temporal one with a time expression, unanswerable ones), and long_chats.jsonl (6 long histories of one user with
an assistant, 12+ sessions and 260+ turns each, 30 questions of every kind; split per chat). All were written by
hand, blind to the code.

Each chat is stored turn by turn as episodes of one butler, as the MCP server stores them: "Speaker: text", one
session id per session, observed at its session's date (a minute per turn), embedded with the previous turn of its
session (pymem.memory_episode_text's embedding_text). Each question is asked as of its asked_on date (the turns are
then all stored; a time expression in it is relative to that date):

- search: memory_search over episodes (hybrid, limit 10); R@5 and R@10 = the share of the question's evidence turns
  in the top 5 / 10, nDCG@10 with the evidence turns relevant; beside it plain BM25 over the turns' own text (the
  Bm25 of reference.py over PostgreSQL's English lexemes, not pymem's) and the exact cosine of the turns' own
  embeddings (MiniLM alone), on the same turns;
- recall: the chat is consolidated (pymem.memory_consolidate, the built-in extractor) and its facts embedded; then
  memory_recall (limit 10 and 50) with the relevance floor in force and with the floor off (min_relevance 0): the
  share of evidence turns that a recalled fact was drawn from; and for the off-topic unanswerable questions, the
  share for which recall returns nothing.

Everything is rolled back per chat. Train is for development and fitting; test is reported.
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Final

import numpy as np
import psycopg

from pymem_dev.evaluation import metrics
from pymem_dev.evaluation.embedcache import EmbedderLike, embed_cached
from pymem_dev.evaluation.reference import Bm25, tsvector_terms

DATA: Final = Path(__file__).resolve().parents[2] / "eval" / "conversations"
CHATS: Final = DATA / "chats.jsonl"
QUESTIONS: Final = DATA / "questions.jsonl"
LONG_CHATS: Final = DATA / "long_chats.jsonl"
TENANT: Final = "pymem-eval-chat-retrieval"
BUTLER: Final = "chat"
KINDS: Final = ("single_hop", "multi_hop", "temporal", "open_domain", "unanswerable")
SPLITS: Final = ("train", "test")
CUTOFFS: Final = (5, 10)
RECALL_LIMITS: Final = (10, 50)


@dataclass(frozen=True)
class Turn:
    id: str
    session: int
    when: datetime
    speaker: str
    text: str

    @property
    def content(self) -> str:
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class Question:
    id: str
    kind: str
    text: str
    evidence: tuple[str, ...]
    asked_on: datetime
    off_topic: bool | None = None


@dataclass
class Chat:
    id: str
    split: str
    source: str
    turns: list[Turn]
    questions: list[Question] = field(default_factory=list)
    # the facts a careful human labelled on each turn (the short chats only): turn id -> [{subject, predicate, value}]
    facts: dict[str, list[dict[str, str]]] = field(default_factory=dict)


def _moment(day: str, minutes: int = 0) -> datetime:
    return datetime.combine(date.fromisoformat(day), time(9, 0), tzinfo=UTC) + timedelta(minutes=minutes)


def _end_of(day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), time(20, 0), tzinfo=UTC)


def _turns(row: dict[str, Any]) -> list[Turn]:
    return [
        Turn(t["turn"], int(s["session"]), _moment(s["date"], n), t["speaker"], t["text"])
        for s in row["sessions"]
        for n, t in enumerate(s["turns"])
    ]


def load_chats(chats: Path = CHATS, questions: Path = QUESTIONS, long_chats: Path = LONG_CHATS) -> list[Chat]:
    """The short chats with their questions' kinds (and the questions added for them), then the long ones."""
    out: list[Chat] = []
    extra = {}
    if questions.is_file():
        extra = {row["id"]: row for row in map(json.loads, questions.read_text(encoding="utf-8").splitlines()) if row}
    for line in chats.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row["id"] not in extra:
            continue
        turns = _turns(row)
        labels = extra[row["id"]]
        asked = _end_of(labels["asked_on"])
        chat = Chat(row["id"], "train" if row["split"] == "dev" else "test", "chats", turns)
        chat.facts = {t["turn"]: t["facts"] for session in row["sessions"] for t in session["turns"] if t.get("facts")}
        for n, (q, kind) in enumerate(zip(row["questions"], labels["kinds"], strict=True), 1):
            chat.questions.append(Question(f"{row['id']}-q{n:02d}", kind, q["question"], tuple(q["evidence"]), asked))
        for q in labels["new"]:
            chat.questions.append(
                Question(q["id"], q["kind"], q["question"], tuple(q["evidence"]), asked, q.get("off_topic"))
            )
        out.append(_in_the_past(chat))
    if long_chats.is_file():
        for line in long_chats.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            chat = Chat(row["id"], row["split"], "long_chats", _turns(row))
            for q in row["questions"]:
                chat.questions.append(
                    Question(
                        q["id"],
                        q["kind"],
                        q["question"],
                        tuple(q["evidence"]),
                        _end_of(q["asked_on"]),
                        q.get("off_topic"),
                    )
                )
            out.append(_in_the_past(chat))
    return out


def _in_the_past(chat: Chat) -> Chat:
    """The chat moved back by whole weeks (weekdays kept) when a question would be asked after now: as_of must not
    be in the future."""
    latest = max((q.asked_on for q in chat.questions), default=None)
    now = datetime.now(UTC) - timedelta(hours=1)
    if latest is None or latest <= now:
        return chat
    shift = timedelta(weeks=(latest - now).days // 7 + 1)
    return Chat(
        chat.id,
        chat.split,
        chat.source,
        [Turn(t.id, t.session, t.when - shift, t.speaker, t.text) for t in chat.turns],
        [Question(q.id, q.kind, q.text, q.evidence, q.asked_on - shift, q.off_topic) for q in chat.questions],
        chat.facts,
    )


def _vector(v: Any) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in v) + "]"


def store_chat(
    conn: psycopg.Connection[Any], chat: Chat, embedder: EmbedderLike, cache_dir: Path | None
) -> dict[uuid.UUID, str]:
    """The chat's turns as episodes of BUTLER, in the caller's tenant transaction, then embedded from the text the
    database says each is embedded from (pymem.memory_embedding_text: with its previous turn), as the embedding
    worker does; the turn id of each episode."""
    turn_of: dict[uuid.UUID, str] = {}
    for turn in chat.turns:
        session = uuid.uuid5(uuid.NAMESPACE_URL, f"{chat.id}/{turn.session}")
        row = conn.execute(
            "select memory_id from pymem.memory_store_episode(content => %s, butler => %s, session_id => %s,"
            " observed_at => %s, ttl => interval '3650 days')",
            (turn.content, BUTLER, session, turn.when),
        ).fetchone()
        assert row is not None
        turn_of[row[0]] = turn.id
    _embed_waiting(conn, embedder, cache_dir, chat.id)
    return turn_of


def _embed_waiting(conn: psycopg.Connection[Any], embedder: EmbedderLike, cache_dir: Path | None, label: str) -> None:
    """Embed every memory of the tenant that has no embedding, from the text the database gives for it."""
    rows = conn.execute(
        "select m.type, m.id, pymem.memory_embedding_text(m.type, m.id), md5(m.content) from ("
        " select 'episode' as type, id, content from pymem.episodes where embedding is null"
        " union all select 'fact', id, content from pymem.facts where embedding is null"
        " union all select 'rule', id, content from pymem.rules where embedding is null) as m order by 1, 2"
    ).fetchall()
    if not rows:
        return
    vectors = embed_cached(embedder, [r[2] for r in rows], cache_dir=cache_dir, label=label, progress=False)
    conn.execute(
        "select pymem.memory_embedding_complete(%s, %s, %s, %s::public.vector[], %s)",
        (
            [r[0] for r in rows],
            [r[1] for r in rows],
            [r[3] for r in rows],
            [_vector(v) for v in vectors],
            embedder.model_id,
        ),
    )


def consolidate_and_embed(conn: psycopg.Connection[Any], embedder: EmbedderLike, cache_dir: Path | None) -> None:
    """Consolidate every stored episode (the built-in extractor) and embed the facts and rules it stored."""
    while conn.execute('select count(*) from pymem.memory_consolidate("limit" => 1000)').fetchone() == (1000,):
        pass
    _embed_waiting(conn, embedder, cache_dir, "chat facts")


def fact_content(fact: dict[str, str]) -> str:
    """A labelled fact as a stored statement: "Maya works as: nurse"."""
    return f"{fact['subject']} {fact['predicate'].replace('_', ' ')}: {fact['value']}"


def store_labelled_facts(
    conn: psycopg.Connection[Any], chat: Chat, embedder: EmbedderLike, cache_dir: Path | None
) -> dict[uuid.UUID, str]:
    """The chat's labelled facts as facts, in the caller's tenant transaction, each with its embedding and observed
    at its turn: what a good extractor would have stored. Each keeps its own predicate (a numbered one), so that
    two values of one predicate ("likes") do not supersede each other. The turn id of each fact."""
    when = {t.id: t.when for t in chat.turns}
    labelled = [(turn, fact) for turn, facts in chat.facts.items() for fact in facts]
    vectors = embed_cached(
        embedder, [fact_content(f) for _, f in labelled], cache_dir=cache_dir, label=f"{chat.id} facts", progress=False
    )
    turn_of: dict[uuid.UUID, str] = {}
    for n, ((turn, fact), vector) in enumerate(zip(labelled, vectors, strict=True)):
        row = conn.execute(
            "select memory_id from pymem.memory_store_fact(subject => %s, predicate => %s, content => %s,"
            " embedding => %s::public.vector, embedding_model => %s, observed_at => %s)",
            (
                fact["subject"],
                f"{fact['predicate']}_{n}",
                fact_content(fact),
                _vector(vector),
                embedder.model_id,
                when[turn],
            ),
        ).fetchone()
        assert row is not None
        turn_of[row[0]] = turn
    return turn_of


def _store_second_fact_vectors(
    conn: psycopg.Connection[Any], second: EmbedderLike, cache_dir: Path | None, label: str
) -> None:
    """The second encoder's vector of every fact of the tenant, as its worker stores them."""
    rows = conn.execute("select id, content, md5(content) from pymem.facts order by id").fetchall()
    vectors = embed_cached(second, [r[1] for r in rows], cache_dir=cache_dir, label=label, progress=False)
    _second_store(conn, second, "fact", [(r[0], r[2]) for r in rows], list(vectors))


def labelled_fact_recall(
    conn: psycopg.Connection[Any],
    chat: Chat,
    embedder: EmbedderLike,
    cache_dir: Path | None,
    vectors: np.ndarray,
    second: EmbedderLike | None = None,
) -> list[dict[str, Any]]:
    """Per question, memory_recall (limit 10) over the chat's labelled facts with the relevance floor in force and
    without one: the share of its evidence turns (those with a labelled fact) that a recalled fact is from, and how
    many facts came back ("facts_floor@10", "facts_no_floor@10"; with a second encoder also with its leg:
    "facts_second_floor@10", ...). Rolled back."""
    out: list[dict[str, Any]] = []
    ways: list[tuple[str, float | None, Any]] = [("floor", None, None), ("no_floor", 0.0, None)]
    with conn.transaction(force_rollback=True):
        conn.execute("select set_config('pymem.tenant_id', %s, true)", (TENANT,))
        turn_of = store_labelled_facts(conn, chat, embedder, cache_dir)
        seconds: list[Any] = [None] * len(chat.questions)
        if second is not None:
            _store_second_fact_vectors(conn, second, cache_dir, f"{chat.id} facts")
            seconds = list(
                embed_cached(
                    second, [q.text for q in chat.questions], cache_dir=cache_dir, label=chat.id, progress=False
                )
            )
            ways += [("second_floor", None, True), ("second_no_floor", 0.0, True)]
        focused = focus_vectors(conn, embedder, chat.questions, vectors)
        for q, vector, second_vector, focus in zip(chat.questions, vectors, seconds, focused, strict=True):
            row: dict[str, Any] = {}
            wanted = {t for t in q.evidence if t in chat.facts}
            for name, floor, with_second in ways:
                # the floor as served (the relevance floor and the focus check), and without either
                recalled = _recall(
                    conn, q, vector, 10, floor, second_vector if with_second else None, focus if floor is None else None
                )
                found = {turn_of.get(m) for m, _ in recalled}
                row[f"facts_{name}@10_rows"] = len(found)
                if wanted:
                    row[f"facts_{name}@10"] = len(wanted & found) / len(wanted)
            out.append(row)
    return out


def train_evidence(
    conn: psycopg.Connection[Any],
    embedder: EmbedderLike,
    cache_dir: Path | None,
    mode: str,
    *,
    depth: int = 30,
) -> tuple[list[Any], list[Any]]:
    """Relevance evidence of the train chats for fitting the relevance model: each question searched over the
    chat's labelled facts in mode at memory_recall's candidate depth (30), a row relevant when its fact was labelled
    on one of the question's evidence turns; and each question's rows for choosing the floor (an off-topic question
    is a no-answer one, an on-topic unanswerable one a near miss). Never the test chats."""
    from pymem.client import MemoryClient
    from pymem_dev.evaluation import calibration

    rows: list[calibration.Evidence] = []
    floors: list[calibration.FloorQuestion] = []
    for chat in load_chats():
        if chat.split != "train" or not chat.facts:
            continue
        vectors = embed_cached(
            embedder,
            [q.text for q in chat.questions],
            cache_dir=cache_dir,
            label=f"{chat.id} questions",
            progress=False,
        )
        with conn.transaction(force_rollback=True):
            conn.execute("select set_config('pymem.tenant_id', %s, true)", (TENANT,))
            turn_of = store_labelled_facts(conn, chat, embedder, cache_dir)
            for q, vector in zip(chat.questions, vectors, strict=True):
                if q.kind != "unanswerable" and not any(t in chat.facts for t in q.evidence):
                    continue  # its answer is in no labelled fact: nothing to tell relevant rows by
                found = MemoryClient(conn).search_scored(
                    query=f"{q.text}",
                    types=["fact"],
                    mode=mode,
                    limit=depth,
                    query_embedding=vector if mode != "keyword" else None,
                    bump_references=False,
                )
                relevant = [turn_of.get(r.memory_id) in q.evidence for r in found]
                evidence = calibration.rows_evidence(f"{chat.id}:{q.id}", found, relevant)
                rows.extend(evidence)
                floors.append(
                    calibration.FloorQuestion(
                        answerable=q.kind != "unanswerable",
                        features=tuple(e.features for e in evidence),
                        relevant=tuple(e.relevant for e in evidence),
                        category="no_answer" if q.off_topic else "near_miss",
                    )
                )
    return rows, floors


def _scores(ranked: Sequence[str], evidence: Iterable[str]) -> dict[str, float]:
    relevant = {t: 1.0 for t in evidence}
    out = {f"r@{k}": metrics.recall_at_k(ranked, relevant, k) for k in CUTOFFS}
    out["ndcg@10"] = metrics.ndcg_at_k(ranked, relevant, 10)
    return out


def _search(
    conn: psycopg.Connection[Any], q: Question, vector: Any, turn_of: dict[uuid.UUID, str], options: dict[str, Any]
) -> list[str]:
    names = ", ".join(f"{name} => %({name})s" for name in options)
    rows = conn.execute(
        "select memory_id from pymem.memory_search(query => %(q)s, types => array['episode'], \"limit\" => 10,"
        " query_embedding => %(v)s::public.vector, as_of => %(at)s, bump_references => false"
        + (", " + names if names else "")
        + ")",
        {"q": q.text, "v": _vector(vector), "at": q.asked_on, **options},
    ).fetchall()
    return [turn_of.get(r[0], "?") for r in rows]


def focus_vectors(
    conn: psycopg.Connection[Any], embedder: EmbedderLike, questions: list[Question], vectors: Any
) -> list[Any]:
    """Each question's focus embedding, as the server computes it for memory_recall's focus check: the embedding of
    memory_query_focus(question) in the caller's tenant transaction (the question's own when that is the
    question)."""
    from pymem.client import MemoryClient

    out: list[Any] = []
    for q, vector in zip(questions, vectors, strict=True):
        focus = MemoryClient(conn).query_focus(topic=q.text)
        out.append(vector if focus == q.text else embedder.embed_many([focus])[0])
    return out


def _recall(
    conn: psycopg.Connection[Any],
    q: Question,
    vector: Any,
    limit: int,
    min_relevance: float | None,
    second_vector: Any = None,
    focus_vector: Any = None,
) -> list[tuple[uuid.UUID, uuid.UUID | None]]:
    """memory_recall's facts and rules in rank order: each one's id and the episode it was drawn from (None: not
    drawn from one). Asked now, not as of the question's date: consolidation stores its facts as of when it runs.
    With second_vector, the second encoder's leg too; with focus_vector, the focus check."""
    rows = conn.execute(
        'select r.memory_id, r.source_episode_id from pymem.memory_recall(topic => %s, "limit" => %s,'
        " query_embedding => %s::public.vector, bump_references => false, min_relevance => %s,"
        " second_query_embedding => %s::public.vector, focus_embedding => %s::public.vector) as r",
        (
            q.text,
            limit,
            _vector(vector),
            min_relevance,
            None if second_vector is None else _vector(second_vector),
            None if focus_vector is None else _vector(focus_vector),
        ),
    ).fetchall()
    return [(r[0], r[1]) for r in rows]


# "hybrid_agent_1": hybrid with the assistant's turns weighed as the user's (agent_turn_weight 1, migration 0034)
AGENT_OFF: Final[dict[str, Any]] = {"agent_turn_weight": 1.0}
SEARCH_VARIANTS: Final[dict[str, dict[str, Any]]] = {
    "hybrid": {},
    "hybrid_agent_1": AGENT_OFF,
    "semantic": {"mode": "semantic"},
    "keyword": {"mode": "keyword"},
}


SECOND_ENCODER: Final = "mpnet-qint8"


def second_encoder() -> EmbedderLike | None:
    """The second encoder the evaluation measures beside MiniLM (all-mpnet-base-v2, int8 ONNX), or None when its
    weights (the mpnet extra) are not installed."""
    from pymem.embeddings import Embedder
    from pymem.onnx_model import mpnet_part_files

    try:
        mpnet_part_files()
    except RuntimeError as exc:
        print(f"pymem eval: no second encoder: {exc}", file=sys.stderr, flush=True)
        return None
    return Embedder(SECOND_ENCODER)


def _second_store(
    conn: psycopg.Connection[Any],
    second: EmbedderLike,
    kind: str,
    rows: list[tuple[uuid.UUID, str]],
    vectors: list[Any],
) -> None:
    """memory_second_embedding_store of (id, MD5 of its text) memories of one kind, every one stored."""
    stored = conn.execute(
        "select pymem.memory_second_embedding_store(%s, %s, %s, %s::public.vector[], %s)",
        (
            [kind] * len(rows),
            [r[0] for r in rows],
            [r[1] for r in rows],
            [_vector(v) for v in vectors],
            second.model_id,
        ),
    ).fetchone()
    assert stored == (len(rows),), stored


def store_second_vectors(
    conn: psycopg.Connection[Any], second: EmbedderLike, turn_of: dict[uuid.UUID, str], chat: Chat, vectors: Any
) -> None:
    """The second encoder's vector of every turn's episode (of its own text: vectors[i] is turn i's), through
    memory_second_embedding_store, as the second embedding worker stores them."""
    position = {t.id: i for i, t in enumerate(chat.turns)}
    rows = conn.execute("select id, md5(content) from pymem.episodes order by id").fetchall()
    _second_store(
        conn, second, "episode", [(r[0], r[1]) for r in rows], [vectors[position[turn_of[r[0]]]] for r in rows]
    )


def second_vectors(chat: Chat, second: EmbedderLike, cache_dir: Path | None) -> tuple[Any, Any]:
    """The second encoder's vectors of the chat's turns and of its questions (computed before any transaction is
    open: a long chat takes the model longer than a transaction may stay idle)."""
    turns = embed_cached(second, [t.content for t in chat.turns], cache_dir=cache_dir, label=chat.id, progress=False)
    questions = embed_cached(
        second, [q.text for q in chat.questions], cache_dir=cache_dir, label=chat.id, progress=False
    )
    return turns, questions


def second_figures(
    conn: psycopg.Connection[Any],
    chat: Chat,
    turn_of: dict[uuid.UUID, str],
    second: EmbedderLike,
    vectors: tuple[Any, Any],
    question_vectors: Any,
    weights: Sequence[float],
) -> list[dict[str, Any]]:
    """The second encoder's figures per question (empty for one without evidence): it alone ("second_cosine"), and
    hybrid search with its leg, "hybrid_second" (of RRF weight w != 1: "hybrid_second_w"; with the assistant's turns
    weighed as the user's: "hybrid_second_agent_1"). Its vectors of the turns
    (second_vectors) are stored first, as the second embedding worker stores them."""
    turns, questions = vectors
    store_second_vectors(conn, second, turn_of, chat, turns)
    ids = [t.id for t in chat.turns]
    out: list[dict[str, Any]] = []
    for q, vector, second_vector in zip(chat.questions, question_vectors, questions, strict=True):
        figures: dict[str, Any] = {}
        if q.evidence:
            alone = np.argsort(-(turns @ second_vector), kind="stable")[:10]
            figures["second_cosine"] = _scores([ids[i] for i in alone], q.evidence)
            for weight in weights:
                options = {"second_query_embedding": _vector(second_vector), "second_rrf_weight": weight}
                name = "hybrid_second" if weight == 1.0 else f"hybrid_second_{weight:g}"
                figures[name] = _scores(_search(conn, q, vector, turn_of, options), q.evidence)
                if weight == 1.0:
                    figures["hybrid_second_agent_1"] = _scores(
                        _search(conn, q, vector, turn_of, options | AGENT_OFF), q.evidence
                    )
        out.append(figures)
    return out


def question_rows(chat: Chat) -> list[dict[str, Any]]:
    """One row per question of the chat, with what it is (its figures are added to it)."""
    return [
        {
            "chat": chat.id,
            "split": chat.split,
            "source": chat.source,
            "question": q.id,
            "kind": q.kind,
            "off_topic": q.off_topic,
            "evidence": len(q.evidence),
        }
        for q in chat.questions
    ]


def evaluate_chat(
    conn: psycopg.Connection[Any],
    chat: Chat,
    embedder: EmbedderLike,
    cache_dir: Path | None,
    *,
    search_variants: dict[str, dict[str, Any]] = SEARCH_VARIANTS,
    recall: bool = True,
    second: EmbedderLike | None = None,
    second_weights: Sequence[float] = (1.0,),
) -> list[dict[str, Any]]:
    """One row per question: its kind and every figure of every way it was asked (with a second encoder: also
    hybrid search with its leg, "hybrid_second" (of weight w: "hybrid_second_w"), and the encoder alone)."""
    own_vectors = embed_cached(
        embedder, [t.content for t in chat.turns], cache_dir=cache_dir, label=chat.id, progress=False
    )
    question_vectors = embed_cached(
        embedder, [q.text for q in chat.questions], cache_dir=cache_dir, label=f"{chat.id} questions", progress=False
    )
    second_mine = second_vectors(chat, second, cache_dir) if second is not None else None
    out = question_rows(chat)
    with conn.transaction(force_rollback=True):
        conn.execute("select set_config('pymem.tenant_id', %s, true)", (TENANT,))
        turn_of = store_chat(conn, chat, embedder, cache_dir)
        if second is not None and second_mine is not None:
            for row, figures in zip(
                out,
                second_figures(conn, chat, turn_of, second, second_mine, question_vectors, second_weights),
                strict=True,
            ):
                row.update(figures)
        # the yardsticks, over the same turns: BM25 of their own lexemes, the exact cosine of their own embeddings
        vectors = conn.execute(
            "select t.v::text from unnest(%s::text[]) with ordinality as u (content, n)"
            " cross join lateral (select to_tsvector('english'::regconfig, u.content) as v) as t order by u.n",
            ([t.content for t in chat.turns],),
        ).fetchall()
        lexemes = {t.id: tsvector_terms(v[0]) for t, v in zip(chat.turns, vectors, strict=True)}
        bm25 = Bm25(lexemes)
        ids = [t.id for t in chat.turns]
        for row, q, vector in zip(out, chat.questions, question_vectors, strict=True):
            if not q.evidence:
                continue
            words = [
                r[0]
                for r in conn.execute(
                    "select unnest(tsvector_to_array(to_tsvector('english'::regconfig, %s)))", (q.text,)
                ).fetchall()
            ]
            row["bm25"] = _scores(bm25.rank(words, 10), q.evidence)
            cosine = np.argsort(-(own_vectors @ vector), kind="stable")[:10]
            row["cosine"] = _scores([ids[i] for i in cosine], q.evidence)
            for name, options in search_variants.items():
                row[name] = _scores(_search(conn, q, vector, turn_of, options), q.evidence)
        if recall:
            consolidate_and_embed(conn, embedder, cache_dir)
            focused = focus_vectors(conn, embedder, chat.questions, question_vectors)
            for row, q, vector, focus in zip(out, chat.questions, question_vectors, focused, strict=True):
                # the floor as served (the relevance floor and the focus check), and without either
                for floor_name, floor in (("floor", None), ("no_floor", 0.0)):
                    for limit in RECALL_LIMITS:
                        recalled = _recall(conn, q, vector, limit, floor, None, focus if floor is None else None)
                        drawn = [turn_of.get(e) for _, e in recalled if e is not None]
                        key = f"recall_{floor_name}@{limit}"
                        if q.evidence:
                            row[key] = len(set(q.evidence) & set(drawn)) / len(q.evidence)
                        row[f"{key}_rows"] = len(drawn)
    if chat.facts:
        for row, figures in zip(
            out, labelled_fact_recall(conn, chat, embedder, cache_dir, question_vectors, second), strict=True
        ):
            row.update(figures)
    return out


SOURCES: Final = ("chats", "long_chats")


def _means(chosen: list[dict[str, Any]]) -> dict[str, Any]:
    figures: dict[str, Any] = {"questions": len(chosen)}
    keys = sorted({k for r in chosen for k, v in r.items() if isinstance(v, dict | float) and k != "off_topic"})
    for key in keys:
        values = [r[key] for r in chosen if key in r]
        if isinstance(values[0], dict):
            figures[key] = {m: round(metrics.mean(v[m] for v in values), 3) for m in values[0]}
        else:
            figures[key] = round(metrics.mean(values), 3)
    return figures


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per split and source (short chats, long histories, both): the mean of every figure per kind and over the
    answerable kinds, and for the off-topic questions the share that recall leaves empty."""
    result: dict[str, Any] = {}
    for split in SPLITS:
        for source in (*SOURCES, "all"):
            part = [r for r in rows if r["split"] == split and source in (r["source"], "all")]
            if not part:
                continue
            by_kind: dict[str, Any] = {}
            for kind in (*KINDS, "answerable"):
                chosen = [
                    r for r in part if r["kind"] == kind or (kind == "answerable" and r["kind"] != "unanswerable")
                ]
                if chosen:
                    by_kind[kind] = _means(chosen)
            off_topic = [r for r in part if r["kind"] == "unanswerable" and r["off_topic"]]
            if off_topic:
                keys = [f"recall_{f}@{limit}" for f in ("floor", "no_floor") for limit in RECALL_LIMITS]
                keys += [f"facts_{f}@10" for f in ("floor", "no_floor", "second_floor", "second_no_floor")]
                by_kind["off_topic_silent"] = {"questions": len(off_topic)} | {
                    key: round(sum(r[f"{key}_rows"] == 0 for r in off_topic) / len(off_topic), 3)
                    for key in keys
                    if all(f"{key}_rows" in r for r in off_topic)
                }
            result.setdefault(split, {})[source] = by_kind
    return result


def run_chat_retrieval(
    conn: psycopg.Connection[Any],
    embedder: EmbedderLike,
    cache_dir: Path | None,
    *,
    chats: list[Chat] | None = None,
    search_variants: dict[str, dict[str, Any]] = SEARCH_VARIANTS,
    recall: bool = True,
    progress: bool = True,
    keep_rows: bool = False,
    second: EmbedderLike | None = None,
    second_weights: Sequence[float] = (1.0,),
) -> dict[str, Any]:
    """Every chat evaluated; the means per split, source and kind (and each question's figures with keep_rows).
    With a second encoder, search is measured with its leg too, and it alone."""
    chosen = load_chats() if chats is None else chats
    rows: list[dict[str, Any]] = []
    for n, chat in enumerate(chosen, 1):
        rows.extend(
            evaluate_chat(
                conn,
                chat,
                embedder,
                cache_dir,
                search_variants=search_variants,
                recall=recall,
                second=second,
                second_weights=second_weights,
            )
        )
        if progress:
            print(f"\rpymem eval: chat retrieval {n}/{len(chosen)}", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr, flush=True)
    return {
        "chats": {split: sorted(c.id for c in chosen if c.split == split) for split in SPLITS},
        "turns": sum(len(c.turns) for c in chosen),
        "questions": len(rows),
        "second_encoder": second.model_id if second is not None else None,
        "by_kind": summarise(rows),
    } | ({"rows": rows} if keep_rows else {})
