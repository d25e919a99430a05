"""The typed client of the SQL memory API: one method, one SQL function (tembo-io/pgmq's client is the model).

    with pool.connection() as conn, tenant_transaction(conn, "acme"):
        hits = MemoryClient(conn).recall(topic="diet", scope="health", query_embedding=vector)

Every argument is sent in named notation with an explicit cast (``topic => %(topic)s::text``); an
argument left as None is not sent, so the SQL default applies. Rows come back as the typed models of
pymem.result_schemas (or, for rows no tool returns, the Row models of this module: pydantic too). The caller owns the
connection, the transaction and the tenant (pymem.tenancy.tenant_transaction), so several calls can share
one transaction. Nothing here decides what is stored, found or ranked: the SQL functions do, and validate
every argument (PM002). The operators' functions (index health, re-embedding, the janitor) have their own
client in the same style: pymem.operator_client.OperatorClient.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any, Final, Required, TypedDict, TypeVar, Unpack
from uuid import UUID

import numpy as np
import psycopg
from psycopg import sql
from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb
from pydantic import BaseModel, ConfigDict

from pymem.result_schemas import (
    ButlerSettings,
    ConfirmResult,
    ConsolidatedEpisode,
    ContextCandidate,
    ContextChoice,
    FeedbackResult,
    ForgetResult,
    MemoryRecord,
    RecallHit,
    SearchHit,
    StatsRow,
    StoredMemory,
)

T = TypeVar("T")
Vector = np.ndarray | None
# (SQL type, value): the type is a constant of a client module, never caller input
Typed = tuple[str, Any]


class _SqlNull:
    """The value of an argument sent as SQL NULL. None is not sent at all (the SQL default applies), so a
    parameter without a default whose value may be NULL is given as NULL (see nullable)."""

    def __repr__(self) -> str:
        return "NULL"


NULL: Final = _SqlNull()


class Row(BaseModel):
    """A row of a SQL function as the client returns it: frozen, one field per column. Pydantic, like the rows it
    shares with the MCP tools (pymem.result_schemas), so that the client has one kind of row type."""

    model_config = ConfigDict(frozen=True)


def nullable(value: Any) -> Any:
    """value, or NULL for None: for a parameter without a SQL default."""
    return NULL if value is None else value


def _call_sql(
    function: str, arguments: Mapping[str, Typed], schema: str = "pymem"
) -> tuple[sql.Composed, dict[str, Any]]:
    sent = {name: typed for name, typed in arguments.items() if typed[1] is not None}
    named = sql.SQL(", ").join(
        sql.SQL("{} => {}::{}").format(sql.Identifier(name), sql.Placeholder(name), sql.SQL(sql_type))
        for name, (sql_type, _) in sent.items()
    )
    query = sql.SQL("select * from {}({})").format(sql.Identifier(schema, function), named)
    return query, {name: None if value is NULL else value for name, (_, value) in sent.items()}


class _TextArguments(TypedDict, total=False):
    """What every store function takes beside its own arguments: what the models computed, and metadata."""

    embedding: Vector
    embedding_model: str | None
    token_count: int | None
    metadata: dict[str, Any] | None
    observed_at: datetime | None


class EpisodeArguments(_TextArguments, total=False):
    """The arguments of pymem.memory_store_episode."""

    content: Required[str]
    butler: Required[str]
    session_id: UUID | None
    importance: float | None
    ttl: timedelta | None


class FactArguments(_TextArguments, total=False):
    """The arguments of pymem.memory_store_fact."""

    subject: Required[str]
    predicate: Required[str]
    content: Required[str]
    importance: float | None
    permanence: str | None
    scope: str | None
    tags: Sequence[str] | None
    confidence: float | None
    source_butler: str | None
    source_episode_id: UUID | None
    source: str | None
    citation: str | None


class RuleArguments(_TextArguments, total=False):
    """The arguments of pymem.memory_store_rule."""

    content: Required[str]
    scope: str | None
    tags: Sequence[str] | None
    permanence: str | None
    source_butler: str | None
    source_episode_id: UUID | None
    source: str | None
    citation: str | None


# the SQL type of every argument of the store functions
_STORE_TYPES: Final = {
    "content": "text",
    "butler": "text",
    "session_id": "uuid",
    "importance": "double precision",
    "ttl": "interval",
    "subject": "text",
    "predicate": "text",
    "permanence": "text",
    "scope": "text",
    "tags": "text[]",
    "confidence": "double precision",
    "source_butler": "text",
    "source_episode_id": "uuid",
    "source": "text",
    "citation": "text",
    "embedding": "public.vector",
    "embedding_model": "text",
    "token_count": "integer",
    "metadata": "jsonb",
    "observed_at": "timestamptz",
}


def _store_arguments(arguments: Mapping[str, Any]) -> dict[str, Typed]:
    """A store function's arguments with their SQL types (tags as a list, metadata as jsonb)."""
    typed: dict[str, Typed] = {}
    for name, value in arguments.items():
        if name == "tags" and value is not None:
            value = list(value)
        elif name == "metadata" and value is not None:
            value = Jsonb(value)
        typed[name] = (_STORE_TYPES[name], value)
    return typed


class SearchRow(Row):
    """A row of pymem.memory_search with every column: the ranks and scores of each leg beside what the
    memory_search tool reports (pymem.result_schemas.SearchHit), for measuring and evaluating the ranking."""

    memory_type: str
    memory_id: UUID
    content: str
    score: float
    confidence: float | None
    effective_confidence: float | None
    importance: float | None
    memory_scope: str | None
    subject: str | None
    predicate: str | None
    maturity: str | None
    semantic_rank: int | None
    semantic_score: float | None
    keyword_rank: int | None
    keyword_score: float | None
    keyword_tier: str | None
    date_decay: float | None
    search_mode: str
    created_at: datetime
    reference_count: int
    graph_rank: int | None
    relevance: float
    relevance_features: list[float]
    source_butler: str | None
    session_id: UUID | None
    source_episode_id: UUID | None
    source_path: str | None
    stored_by: str | None
    second_rank: int | None = None
    second_score: float | None = None
    in_time_window: bool | None = None


class Reranked(Row):
    """A row of pymem.memory_rerank: a candidate's place after the reranker."""

    memory_type: str
    memory_id: UUID
    rerank_score: float
    rerank_rank: int


class RerankChoice(Row):
    """A row of pymem.memory_rerank_select: a candidate kept by the reranker, its place, and its reference count
    after the bump."""

    memory_type: str
    memory_id: UUID
    rerank_score: float
    rerank_rank: int
    reference_count: int


class EpisodeText(Row):
    """A row of pymem.memory_episode_text: the session's last episode and the text a new episode is embedded from."""

    previous_id: UUID | None
    retrieval_context: str | None
    embedding_text: str


class RecentEpisode(Row):
    """A row of pymem.memory_recent_episodes."""

    memory_id: UUID
    content: str
    importance: float
    session_id: UUID | None
    created_at: datetime
    expires_at: datetime | None
    metadata: dict[str, Any]


class IngestionTier(Row):
    """The row of pymem.memory_ingestion_tier: the tier a fact or rule of this content would get, and why."""

    tier: int
    review_state: str  # approved | pending_review | refused
    reason: str


class Refusal(Row):
    """The row of pymem.memory_record_refusal: the audit row of a refused store (details hold no content)."""

    refused_type: str
    to_state: str
    details: dict[str, Any]


class ExtractedStatement(Row):
    """A row of pymem.memory_extract: a fact or rule the built-in extractor found in an episode."""

    memory_type: str
    subject: str | None
    predicate: str | None
    statement: str
    negated: bool


class ReviewItem(Row):
    """A row of pymem.memory_review_queue: a fact or rule that waits for a human reviewer."""

    memory_type: str
    memory_id: UUID
    short_id: str
    waiting: str  # pending_review (kept for review) | unconfirmed (inferred by the agent, not confirmed)
    reason: str
    content: str
    source: str | None
    source_episode_id: UUID | None
    maturity: str | None
    created_at: datetime


class DerivedMemory(Row):
    """A row of pymem.memory_derived_from: a fact or rule drawn from an episode."""

    episode_id: UUID
    memory_type: str
    memory_id: UUID
    content: str
    embedded: bool


class PendingEpisode(Row):
    """A row of pymem.memory_unconsolidated_episodes."""

    memory_id: UUID
    source_butler: str
    session_id: UUID | None
    content: str
    created_at: datetime


class ImportPlanStep(Row):
    """A row of pymem.memory_import_plan: what importing a file does to its chunk n."""

    chunk: int | None  # NULL for a fact the file no longer has (action retracted)
    predicate: str
    action: str
    fact_id: UUID | None
    needs_embedding: bool


class ImportedFile(Row):
    """The row of pymem.memory_import_file: the file's chunks, by what happened to them."""

    chunk_count: int
    new_count: int
    updated_count: int
    unchanged_count: int
    retracted_count: int


class SqlClient:
    """One connection and the calls of one SQL function each; MemoryClient and OperatorClient build on it."""

    schema = "pymem"  # the schema of the functions a client calls

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def _rows(self, row_type: type[T], function: str, **arguments: Typed) -> list[T]:
        query, values = _call_sql(function, arguments, self.schema)
        with self.conn.cursor(row_factory=class_row(row_type)) as cur:
            return cur.execute(query, values).fetchall()

    def _one(self, row_type: type[T], function: str, **arguments: Typed) -> T:
        rows = self._rows(row_type, function, **arguments)
        if len(rows) != 1:
            raise RuntimeError(f"{self.schema}.{function} returned {len(rows)} rows, expected one")
        return rows[0]

    def _scalar(self, function: str, **arguments: Typed) -> Any:
        query, values = _call_sql(function, arguments, self.schema)
        with self.conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(query, values).fetchone()
        assert row is not None
        return row[function]

    def _many(self, function: str, calls: Sequence[Mapping[str, Typed]]) -> None:
        """The function once per element of calls, in one executemany (pipelined, rows not fetched); every
        call must send the same arguments (those that are None in one are None in all)."""
        if not calls:
            return
        query, _ = _call_sql(function, calls[0], self.schema)
        values = []
        for arguments in calls:
            same, sent = _call_sql(function, arguments, self.schema)
            if same != query:
                raise ValueError(f"pymem.{function}: every call of a batch must send the same arguments")
            values.append(sent)
        with self.conn.cursor() as cur:
            cur.executemany(query, values)


class MemoryClient(SqlClient):
    """The memory API on one connection; see the module docstring."""

    # Storing ----------------------------------------------------------------------------------------

    def store_episode(self, **arguments: Unpack[EpisodeArguments]) -> StoredMemory:
        """pymem.memory_store_episode: the stored episode (expires_at: the butler's TTL unless ttl is given)."""
        return self._one(StoredMemory, "memory_store_episode", **_store_arguments(arguments))

    def store_fact(self, **arguments: Unpack[FactArguments]) -> StoredMemory:
        """pymem.memory_store_fact: the stored fact, with the id of the fact it superseded."""
        return self._one(StoredMemory, "memory_store_fact", **_store_arguments(arguments))

    def store_rule(self, **arguments: Unpack[RuleArguments]) -> StoredMemory:
        """pymem.memory_store_rule: the stored candidate rule."""
        return self._one(StoredMemory, "memory_store_rule", **_store_arguments(arguments))

    def store_episodes(self, episodes: Sequence[EpisodeArguments]) -> None:
        """pymem.memory_store_episode once per element, in one executemany: a bulk load that needs no rows
        back. Every element gives the same arguments."""
        self._many("memory_store_episode", [_store_arguments(episode) for episode in episodes])

    def store_facts(self, facts: Sequence[FactArguments]) -> None:
        """pymem.memory_store_fact once per element; see store_episodes."""
        self._many("memory_store_fact", [_store_arguments(fact) for fact in facts])

    def ingestion_tier(
        self, *, content: str, source: str | None = None, citation: str | None = None, document: bool | None = None
    ) -> IngestionTier:
        """pymem.memory_ingestion_tier: the tier storing this content as a fact or rule would give it."""
        return self._one(
            IngestionTier,
            "memory_ingestion_tier",
            content=("text", content),
            source=("text", source),
            citation=("text", citation),
            document=("boolean", document),
        )

    def record_refusal(
        self, *, memory_type: str, content: str, source: str | None = None, citation: str | None = None
    ) -> Refusal:
        """pymem.memory_record_refusal: the audit row of a store refused with PM007, written in a transaction of its
        own (the refused one rolled back)."""
        return self._one(
            Refusal,
            "memory_record_refusal",
            memory_type=("text", memory_type),
            content=("text", content),
            source=("text", source),
            citation=("text", citation),
        )

    # Consolidation ----------------------------------------------------------------------------------

    def extract(self, *, content: str) -> list[ExtractedStatement]:
        """pymem.memory_extract: the facts and rules the built-in extractor finds in an episode's text."""
        return self._rows(ExtractedStatement, "memory_extract", content=("text", content))

    def consolidate(self, *, butler: str | None = None, limit: int | None = None) -> list[ConsolidatedEpisode]:
        """pymem.memory_consolidate: the next unconsolidated episodes, through the built-in extractor."""
        return self._rows(ConsolidatedEpisode, "memory_consolidate", butler=("text", butler), limit=("integer", limit))

    def unconsolidated_episodes(self, *, butler: str | None = None, limit: int | None = None) -> list[PendingEpisode]:
        """pymem.memory_unconsolidated_episodes: oldest first."""
        return self._rows(
            PendingEpisode, "memory_unconsolidated_episodes", butler=("text", butler), limit=("integer", limit)
        )

    def consolidate_episode(self, *, episode: UUID, statements: Any) -> list[ConsolidatedEpisode]:
        """pymem.memory_consolidate_episode: one episode with a model's answer as it came (its reply's text, the
        statements per episode id, or this episode's list; None: no answer, the built-in extractor); SQL reads and
        normalises it. No row: consolidated already."""
        return self._rows(
            ConsolidatedEpisode,
            "memory_consolidate_episode",
            episode=("uuid", episode),
            statements=("jsonb", NULL if statements is None else Jsonb(statements)),
        )

    def derived_from(self, *, episodes: Sequence[UUID]) -> list[DerivedMemory]:
        """pymem.memory_derived_from: the facts and rules drawn from these episodes."""
        return self._rows(DerivedMemory, "memory_derived_from", episodes=("uuid[]", list(episodes)))

    def set_embeddings(self, embeddings: Sequence[tuple[str, UUID, np.ndarray, str]]) -> None:
        """pymem.memory_set_embedding once per (type, id, embedding, embedding_model), in one executemany."""
        self._many(
            "memory_set_embedding",
            [
                {
                    "type": ("text", memory_type),
                    "id": ("uuid", memory_id),
                    "embedding": ("public.vector", vector),
                    "embedding_model": ("text", model),
                }
                for memory_type, memory_id, vector, model in embeddings
            ],
        )

    def store_rules(self, rules: Sequence[RuleArguments]) -> None:
        """pymem.memory_store_rule once per element; see store_episodes."""
        self._many("memory_store_rule", [_store_arguments(rule) for rule in rules])

    # Reading ----------------------------------------------------------------------------------------

    def search(
        self,
        *,
        query: str,
        types: Sequence[str] | None = None,
        scope: str | None = None,
        mode: str | None = None,
        limit: int | None = None,
        min_confidence: float | None = None,
        query_embedding: Vector = None,
        min_relevance: float | None = None,
        rerank: bool | None = None,
        bump_references: bool | None = None,
        second_query_embedding: Vector = None,
        agent_turn_weight: float | None = None,
    ) -> list[SearchHit]:
        """pymem.memory_search: hybrid (or one-mode) search of episodes, facts and rules (with the second
        encoder's leg when second_query_embedding is given)."""
        return self._rows(
            SearchHit,
            "memory_search",
            query=("text", query),
            types=("text[]", list(types) if types is not None else None),
            scope=("text", scope),
            mode=("text", mode),
            limit=("integer", limit),
            min_confidence=("double precision", min_confidence),
            query_embedding=("public.vector", query_embedding),
            min_relevance=("double precision", min_relevance),
            rerank=("boolean", rerank),
            bump_references=("boolean", bump_references),
            second_query_embedding=("public.vector", second_query_embedding),
            agent_turn_weight=("double precision", agent_turn_weight),
        )

    def search_scored(
        self,
        *,
        query: str,
        types: Sequence[str] | None = None,
        scope: str | None = None,
        mode: str | None = None,
        limit: int | None = None,
        min_confidence: float | None = None,
        query_embedding: Vector = None,
        min_score: float | None = None,
        vector_weight: float | None = None,
        keyword_weight: float | None = None,
        rrf_k: int | None = None,
        as_of: datetime | None = None,
        bump_references: bool | None = None,
        date_half_life_days: float | None = None,
        min_relevance: float | None = None,
        rerank: bool | None = None,
        semantic_rrf_weight: float | None = None,
        keyword_rrf_weight: float | None = None,
        graph_rrf_weight: float | None = None,
        second_query_embedding: Vector = None,
        second_rrf_weight: float | None = None,
        time_boost: float | None = None,
        agent_turn_weight: float | None = None,
    ) -> list[SearchRow]:
        """pymem.memory_search with every argument, and every column of its rows (each leg's rank and score):
        what benchmarks and evaluations read. The tool's search leaves those out."""
        return self._rows(
            SearchRow,
            "memory_search",
            query=("text", query),
            types=("text[]", list(types) if types is not None else None),
            scope=("text", scope),
            mode=("text", mode),
            limit=("integer", limit),
            min_confidence=("double precision", min_confidence),
            query_embedding=("public.vector", query_embedding),
            min_score=("double precision", min_score),
            vector_weight=("double precision", vector_weight),
            keyword_weight=("double precision", keyword_weight),
            rrf_k=("integer", rrf_k),
            as_of=("timestamptz", as_of),
            bump_references=("boolean", bump_references),
            date_half_life_days=("double precision", date_half_life_days),
            min_relevance=("double precision", min_relevance),
            rerank=("boolean", rerank),
            semantic_rrf_weight=("double precision", semantic_rrf_weight),
            keyword_rrf_weight=("double precision", keyword_rrf_weight),
            graph_rrf_weight=("double precision", graph_rrf_weight),
            second_query_embedding=("public.vector", second_query_embedding),
            second_rrf_weight=("double precision", second_rrf_weight),
            time_boost=("double precision", time_boost),
            agent_turn_weight=("double precision", agent_turn_weight),
        )

    def recall(
        self,
        *,
        topic: str,
        scope: str | None = None,
        limit: int | None = None,
        query_embedding: Vector = None,
        min_relevance: float | None = None,
        bump_references: bool | None = None,
        second_query_embedding: Vector = None,
        focus_embedding: Vector = None,
        min_focus: float | None = None,
        floor_bypass: float | None = None,
    ) -> list[RecallHit]:
        """pymem.memory_recall: facts and rules by composite score (the weights of the butler named by scope),
        those below the relevance floor (min_relevance, default the relevance model's) and further from the topic
        than floor_bypass (cosine, default 0.3) or, with focus_embedding (the embedding of query_focus(topic)),
        failing the focus check (min_focus) left out."""
        return self._rows(
            RecallHit,
            "memory_recall",
            topic=("text", topic),
            scope=("text", scope),
            limit=("integer", limit),
            query_embedding=("public.vector", query_embedding),
            min_relevance=("double precision", min_relevance),
            bump_references=("boolean", bump_references),
            second_query_embedding=("public.vector", second_query_embedding),
            focus_embedding=("public.vector", focus_embedding),
            min_focus=("double precision", min_focus),
            floor_bypass=("double precision", floor_bypass),
        )

    def query_focus(self, *, topic: str) -> str:
        """pymem.memory_query_focus: the topic without the words that name a subject of the tenant's facts, the
        text whose embedding is memory_recall's focus_embedding."""
        return str(self._scalar("memory_query_focus", topic=("text", topic)))

    def second_embeddings_store(
        self, *, rows: Sequence[tuple[str, UUID, str]], embeddings: Sequence[np.ndarray], model_id: str
    ) -> int:
        """pymem.memory_second_embedding_store: the second encoder's vectors of (type, id, MD5 of the text embedded)
        memories of the current tenant; how many were stored (a memory whose text changed is left out)."""
        return int(
            self._scalar(
                "memory_second_embedding_store",
                memory_types=("text[]", [r[0] for r in rows]),
                memory_ids=("uuid[]", [r[1] for r in rows]),
                content_md5s=("text[]", [r[2] for r in rows]),
                embeddings=("public.vector[]", list(embeddings)),
                embedding_model=("text", model_id),
            )
        )

    def rerank(
        self, *, memory_types: Sequence[str], memory_ids: Sequence[UUID], scores: Sequence[float], limit: int
    ) -> list[Reranked]:
        """pymem.memory_rerank: the candidates in the order of a reranker's scores (SQL checks and decides)."""
        return self._rows(
            Reranked,
            "memory_rerank",
            memory_types=("text[]", list(memory_types)),
            memory_ids=("uuid[]", list(memory_ids)),
            scores=("double precision[]", list(scores)),
            limit=("integer", limit),
        )

    def rerank_candidates(
        self,
        *,
        query: str,
        types: Sequence[str] | None = None,
        scope: str | None = None,
        mode: str | None = None,
        limit: int | None = None,
        min_confidence: float | None = None,
        query_embedding: Vector = None,
        min_relevance: float | None = None,
        agent_turn_weight: float | None = None,
    ) -> list[SearchHit]:
        """pymem.memory_rerank_candidates: stage 1 of a search reranked by a model (memory_search's rows, as many as
        SQL decides for the limit, nothing bumped)."""
        return self._rows(
            SearchHit,
            "memory_rerank_candidates",
            query=("text", query),
            types=("text[]", list(types) if types is not None else None),
            scope=("text", scope),
            mode=("text", mode),
            limit=("integer", limit),
            min_confidence=("double precision", min_confidence),
            query_embedding=("public.vector", query_embedding),
            min_relevance=("double precision", min_relevance),
            agent_turn_weight=("double precision", agent_turn_weight),
        )

    def rerank_select(
        self, *, memory_types: Sequence[str], memory_ids: Sequence[UUID], scores: Sequence[float], limit: int | None
    ) -> list[RerankChoice]:
        """pymem.memory_rerank_select: stage 2, the candidates SQL keeps in the order of the model's scores, their
        references bumped (not in a read-only transaction)."""
        return self._rows(
            RerankChoice,
            "memory_rerank_select",
            memory_types=("text[]", list(memory_types)),
            memory_ids=("uuid[]", list(memory_ids)),
            scores=("double precision[]", list(scores)),
            limit=("integer", limit),
        )

    def episode_text(self, *, session_id: UUID | None, content: str) -> EpisodeText:
        """pymem.memory_episode_text: what a new episode of the session is embedded from (its previous turn
        and its content)."""
        return self._one(
            EpisodeText, "memory_episode_text", session_id=("uuid", nullable(session_id)), content=("text", content)
        )

    def recent_episodes(
        self, *, butler: str, limit: int | None = None, in_session: UUID | None = None
    ) -> list[RecentEpisode]:
        """pymem.memory_recent_episodes: the butler's latest live episodes (of one session with in_session)."""
        return self._rows(
            RecentEpisode,
            "memory_recent_episodes",
            butler=("text", butler),
            limit=("integer", limit),
            in_session=("uuid", in_session),
        )

    def resolve_id(self, *, type: str, ref: str | UUID) -> UUID:
        """pymem.memory_resolve_id: the id of the tenant's memory of this type whose id is ref or starts with it
        (at least 8 hex digits, the short id memory_context prints)."""
        return UUID(str(self._scalar("memory_resolve_id", type=("text", type), ref=("text", str(ref)))))

    def get(self, *, type: str, id: UUID) -> MemoryRecord:
        """pymem.memory_get: one memory with every column (counts as a reference)."""
        return self._one(MemoryRecord, "memory_get", type=("text", type), id=("uuid", id))

    def stats(self, *, scope: str | None = None) -> StatsRow:
        """pymem.memory_stats: counts and health of the tenant's memories."""
        return self._one(StatsRow, "memory_stats", scope=("text", scope))

    def touch_references(
        self, *, memory_types: Sequence[str], memory_ids: Sequence[UUID], referenced_at: datetime | None = None
    ) -> int:
        """pymem.memory_touch_references: the reference bumps of reads a replica served, applied on the primary
        (one per pair; unknown ids and other tenants' are ignored); the number of memories bumped."""
        return int(
            self._scalar(
                "memory_touch_references",
                memory_types=("text[]", list(memory_types)),
                memory_ids=("uuid[]", list(memory_ids)),
                referenced_at=("timestamptz", referenced_at),
            )
        )

    # Changing ---------------------------------------------------------------------------------------

    def confirm(self, *, type: str, id: UUID, reviewer: str | None = None) -> ConfirmResult:
        """pymem.memory_confirm: reset a fact's or rule's decay clock. reviewer: the caller is a human reviewer,
        so named (a token with the scope memory:review, `pymem review approve`): it is declared in the
        transaction-local setting pymem.reviewer, and only then may the confirmation approve what was kept for
        review or make an inferred rule standing behaviour (pymem_private.caller_may_review decides)."""
        if reviewer is not None:
            self.conn.execute("select pg_catalog.set_config('pymem.reviewer', %s::text, true)", (reviewer,))
        return self._one(ConfirmResult, "memory_confirm", type=("text", type), id=("uuid", id))

    def review_queue(self, *, limit: int | None = None) -> list[ReviewItem]:
        """pymem.memory_review_queue: what waits for a human reviewer, oldest first."""
        return self._rows(ReviewItem, "memory_review_queue", limit=("integer", limit))

    def mark_helpful(self, *, rule_id: UUID) -> FeedbackResult:
        """pymem.memory_mark_helpful."""
        return self._one(FeedbackResult, "memory_mark_helpful", rule_id=("uuid", rule_id))

    def mark_harmful(self, *, rule_id: UUID, reason: str | None = None) -> FeedbackResult:
        """pymem.memory_mark_harmful."""
        return self._one(FeedbackResult, "memory_mark_harmful", rule_id=("uuid", rule_id), reason=("text", reason))

    def forget(self, *, type: str, id: UUID, reason: str | None = None) -> ForgetResult:
        """pymem.memory_forget: retract a fact, tombstone a rule or episode."""
        return self._one(ForgetResult, "memory_forget", type=("text", type), id=("uuid", id), reason=("text", reason))

    # Context ----------------------------------------------------------------------------------------

    def context_candidates(
        self,
        *,
        trigger_prompt: str,
        butler: str,
        query_embedding: Vector = None,
        system_limit: int | None = None,
        project_limit: int | None = None,
        history_limit: int | None = None,
        knowledge_limit: int | None = None,
        min_relevance: float | None = None,
        second_query_embedding: Vector = None,
    ) -> list[ContextCandidate]:
        """pymem.memory_context_candidates: the ranked candidates of the butler's blocks (the limits and the
        relevance floor: the butler's unless given; the second encoder's leg when second_query_embedding is given)."""
        return self._rows(
            ContextCandidate,
            "memory_context_candidates",
            trigger_prompt=("text", trigger_prompt),
            butler=("text", butler),
            query_embedding=("public.vector", query_embedding),
            system_limit=("integer", system_limit),
            project_limit=("integer", project_limit),
            history_limit=("integer", history_limit),
            knowledge_limit=("integer", knowledge_limit),
            min_relevance=("double precision", min_relevance),
            second_query_embedding=("public.vector", second_query_embedding),
        )

    def context_select(
        self,
        *,
        butler: str,
        candidates: list[dict[str, Any]],
        token_budget: int | None = None,
        header_tokens: int | None = None,
    ) -> list[ContextChoice]:
        """pymem.memory_context_select: which candidates fit the budget (quotas, spill-over, tie-breaks)."""
        return self._rows(
            ContextChoice,
            "memory_context_select",
            butler=("text", butler),
            candidates=("jsonb", Jsonb(candidates)),
            token_budget=("integer", token_budget),
            header_tokens=("integer", header_tokens),
        )

    # Importing markdown files -------------------------------------------------------------------------

    def import_plan(
        self, *, subject: str, chunks: Sequence[str], scope: str | None = None, source_date: date | None = None
    ) -> list[ImportPlanStep]:
        """pymem.memory_import_plan: what importing the file's chunks would do, and which need an embedding."""
        return self._rows(
            ImportPlanStep,
            "memory_import_plan",
            subject=("text", subject),
            chunks=("text[]", list(chunks)),
            scope=("text", scope),
            source_date=("date", source_date),
        )

    def import_file(
        self,
        *,
        subject: str,
        chunks: Sequence[str],
        embeddings: Sequence[np.ndarray | None] | None = None,
        token_counts: Sequence[int | None] | None = None,
        embedding_model: str | None = None,
        scope: str | None = None,
        source_date: date | None = None,
        butler: str | None = None,
    ) -> ImportedFile:
        """pymem.memory_import_file: write the file's chunks as facts (new, superseding, retracting)."""
        return self._one(
            ImportedFile,
            "memory_import_file",
            subject=("text", subject),
            chunks=("text[]", list(chunks)),
            embeddings=("public.vector[]", list(embeddings) if embeddings is not None else None),
            token_counts=("integer[]", list(token_counts) if token_counts is not None else None),
            embedding_model=("text", embedding_model),
            scope=("text", scope),
            source_date=("date", source_date),
            butler=("text", butler),
        )

    # Butler settings --------------------------------------------------------------------------------

    def butler_configure(self, *, butler: str, source: str | None = None, **settings: Any) -> ButlerSettings:
        """pymem.memory_butler_configure: every setting of a butler (those not given take their defaults).
        settings: scope, w_relevance, w_importance, w_recency, w_confidence, episode_ttl_days,
        context_token_budget, quota_system, quota_project, quota_history, quota_knowledge, max_system, max_project,
        max_history, max_knowledge, min_relevance, min_focus, floor_bypass."""
        unknown = sorted(set(settings) - set(BUTLER_SETTING_TYPES))
        if unknown:
            raise TypeError(f"unknown butler settings: {', '.join(unknown)}")
        typed = {name: (BUTLER_SETTING_TYPES[name], value) for name, value in settings.items()}
        return self._one(
            ButlerSettings, "memory_butler_configure", butler=("text", butler), source=("text", source), **typed
        )

    def butler_remove(self, *, butler: str) -> bool:
        """pymem.memory_butler_remove: back to the defaults; True when the butler had settings."""
        return bool(self._scalar("memory_butler_remove", butler=("text", butler)))

    def butler_settings(self, *, name: str | None = None) -> list[ButlerSettings]:
        """pymem.memory_butler_settings: the settings in force for one butler, or every configured one."""
        return self._rows(ButlerSettings, "memory_butler_settings", name=("text", name))


BUTLER_SETTING_TYPES = {
    "scope": "text",
    "w_relevance": "double precision",
    "w_importance": "double precision",
    "w_recency": "double precision",
    "w_confidence": "double precision",
    "episode_ttl_days": "double precision",
    "context_token_budget": "bigint",
    "quota_system": "double precision",
    "quota_project": "double precision",
    "quota_history": "double precision",
    "quota_knowledge": "double precision",
    "max_system": "bigint",
    "max_project": "bigint",
    "max_history": "bigint",
    "max_knowledge": "bigint",
    "min_relevance": "double precision",
    "min_focus": "double precision",
    "floor_bypass": "double precision",
}
