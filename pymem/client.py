"""The typed client of the SQL memory API: one method, one SQL function (tembo-io/pgmq's client is the model).

    with pool.connection() as conn, tenant_transaction(conn, "acme"):
        hits = MemoryClient(conn).recall(topic="diet", scope="health", query_embedding=vector)

Every argument is sent in named notation with an explicit cast (``topic => %(topic)s::text``); an
argument left as None is not sent, so the SQL default applies. Rows come back as the typed models of
pymem.models. The caller owns the connection, the transaction and the tenant
(pymem.tenancy.tenant_transaction), so several calls can share one transaction. Nothing here decides
what is stored, found or ranked: the SQL functions do, and validate every argument (PM002).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any, TypeVar
from uuid import UUID

import numpy as np
import psycopg
from psycopg import sql
from psycopg.rows import class_row, dict_row
from psycopg.types.json import Jsonb

from pymem.models import (
    ButlerSettings,
    ConfirmResult,
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
# (SQL type, value): the type is a constant of this module, never caller input
Typed = tuple[str, Any]


def _call_sql(function: str, arguments: dict[str, Typed]) -> tuple[sql.Composed, dict[str, Any]]:
    sent = {name: typed for name, typed in arguments.items() if typed[1] is not None}
    named = sql.SQL(", ").join(
        sql.SQL("{} => {}::{}").format(sql.Identifier(name), sql.Placeholder(name), sql.SQL(sql_type))
        for name, (sql_type, _) in sent.items()
    )
    query = sql.SQL("select * from pymem.{}({})").format(sql.Identifier(function), named)
    return query, {name: value for name, (_, value) in sent.items()}


def _text_columns(
    embedding: Vector, embedding_model: str | None, token_count: int | None, metadata: dict[str, Any] | None
) -> dict[str, Typed]:
    """The arguments every store function takes beside the text: what the models computed, and metadata."""
    return {
        "embedding": ("public.vector", embedding),
        "embedding_model": ("text", embedding_model),
        "token_count": ("integer", token_count),
        "metadata": ("jsonb", Jsonb(metadata) if metadata is not None else None),
    }


class MemoryClient:
    """The memory API on one connection; see the module docstring."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def _rows(self, row_type: type[T], function: str, **arguments: Typed) -> list[T]:
        query, values = _call_sql(function, arguments)
        with self.conn.cursor(row_factory=class_row(row_type)) as cur:
            return cur.execute(query, values).fetchall()

    def _one(self, row_type: type[T], function: str, **arguments: Typed) -> T:
        rows = self._rows(row_type, function, **arguments)
        if len(rows) != 1:
            raise RuntimeError(f"pymem.{function} returned {len(rows)} rows, expected one")
        return rows[0]

    def _scalar(self, function: str, **arguments: Typed) -> Any:
        query, values = _call_sql(function, arguments)
        with self.conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(query, values).fetchone()
        assert row is not None
        return row[function]

    # Storing ----------------------------------------------------------------------------------------

    def store_episode(
        self,
        *,
        content: str,
        butler: str,
        session_id: UUID | None = None,
        importance: float | None = None,
        embedding: Vector = None,
        embedding_model: str | None = None,
        token_count: int | None = None,
        metadata: dict[str, Any] | None = None,
        ttl: timedelta | None = None,
    ) -> StoredMemory:
        """pymem.memory_store_episode: the stored episode (expires_at: the butler's TTL unless ttl is given)."""
        return self._one(
            StoredMemory,
            "memory_store_episode",
            content=("text", content),
            butler=("text", butler),
            session_id=("uuid", session_id),
            importance=("double precision", importance),
            **_text_columns(embedding, embedding_model, token_count, metadata),
            ttl=("interval", ttl),
        )

    def store_fact(
        self,
        *,
        subject: str,
        predicate: str,
        content: str,
        importance: float | None = None,
        permanence: str | None = None,
        scope: str | None = None,
        tags: Sequence[str] | None = None,
        confidence: float | None = None,
        source_butler: str | None = None,
        source_episode_id: UUID | None = None,
        embedding: Vector = None,
        embedding_model: str | None = None,
        token_count: int | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> StoredMemory:
        """pymem.memory_store_fact: the stored fact, with the id of the fact it superseded."""
        return self._one(
            StoredMemory,
            "memory_store_fact",
            subject=("text", subject),
            predicate=("text", predicate),
            content=("text", content),
            importance=("double precision", importance),
            permanence=("text", permanence),
            scope=("text", scope),
            tags=("text[]", list(tags) if tags is not None else None),
            confidence=("double precision", confidence),
            source_butler=("text", source_butler),
            source_episode_id=("uuid", source_episode_id),
            **_text_columns(embedding, embedding_model, token_count, metadata),
        )

    def store_rule(
        self,
        *,
        content: str,
        scope: str | None = None,
        tags: Sequence[str] | None = None,
        permanence: str | None = None,
        source_butler: str | None = None,
        source_episode_id: UUID | None = None,
        embedding: Vector = None,
        embedding_model: str | None = None,
        token_count: int | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> StoredMemory:
        """pymem.memory_store_rule: the stored candidate rule."""
        return self._one(
            StoredMemory,
            "memory_store_rule",
            content=("text", content),
            scope=("text", scope),
            tags=("text[]", list(tags) if tags is not None else None),
            permanence=("text", permanence),
            source_butler=("text", source_butler),
            source_episode_id=("uuid", source_episode_id),
            **_text_columns(embedding, embedding_model, token_count, metadata),
        )

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
    ) -> list[SearchHit]:
        """pymem.memory_search: hybrid (or one-mode) search of episodes, facts and rules."""
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
        )

    def recall(
        self,
        *,
        topic: str,
        scope: str | None = None,
        limit: int | None = None,
        query_embedding: Vector = None,
    ) -> list[RecallHit]:
        """pymem.memory_recall: facts and rules by composite score (the weights of the butler named by scope)."""
        return self._rows(
            RecallHit,
            "memory_recall",
            topic=("text", topic),
            scope=("text", scope),
            limit=("integer", limit),
            query_embedding=("public.vector", query_embedding),
        )

    def get(self, *, type: str, id: UUID) -> MemoryRecord:
        """pymem.memory_get: one memory with every column (counts as a reference)."""
        return self._one(MemoryRecord, "memory_get", type=("text", type), id=("uuid", id))

    def stats(self, *, scope: str | None = None) -> StatsRow:
        """pymem.memory_stats: counts and health of the tenant's memories."""
        return self._one(StatsRow, "memory_stats", scope=("text", scope))

    # Changing ---------------------------------------------------------------------------------------

    def confirm(self, *, type: str, id: UUID) -> ConfirmResult:
        """pymem.memory_confirm: reset a fact's or rule's decay clock."""
        return self._one(ConfirmResult, "memory_confirm", type=("text", type), id=("uuid", id))

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
        self, *, trigger_prompt: str, butler: str, query_embedding: Vector = None
    ) -> list[ContextCandidate]:
        """pymem.memory_context_candidates: the ranked candidates of the butler's three sections."""
        return self._rows(
            ContextCandidate,
            "memory_context_candidates",
            trigger_prompt=("text", trigger_prompt),
            butler=("text", butler),
            query_embedding=("public.vector", query_embedding),
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

    # Butler settings --------------------------------------------------------------------------------

    def butler_configure(self, *, butler: str, source: str | None = None, **settings: Any) -> ButlerSettings:
        """pymem.memory_butler_configure: every setting of a butler (those not given take their defaults).
        settings: scope, w_relevance, w_importance, w_recency, w_confidence, episode_ttl_days,
        context_token_budget, quota_facts, quota_rules, quota_episodes, max_facts, max_rules, max_episodes."""
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
    "context_token_budget": "integer",
    "quota_facts": "double precision",
    "quota_rules": "double precision",
    "quota_episodes": "double precision",
    "max_facts": "integer",
    "max_rules": "integer",
    "max_episodes": "integer",
}
