"""The typed client of the item functions (sql/functions/270-items.sql): the key-value items an agent framework's
store keeps as facts (pymem.integrations.langgraph). One method per SQL function, on the caller's connection, in the
caller's tenant transaction; what an item is, how it is ranked and when it expires is decided in SQL."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import numpy as np
from psycopg.types.json import Jsonb

from pymem.client import NULL, Row, SqlClient


def _vector(embedding: np.ndarray | None) -> str | None:
    """A pgvector literal (sent as text and cast: the connection needs no vector adapter)."""
    if embedding is None:
        return None
    return "[" + ",".join(f"{float(v):.8g}" for v in np.asarray(embedding).ravel()) + "]"


class PutItem(Row):
    """A row of pymem.memory_item_put (none for a delete)."""

    memory_id: UUID
    supersedes_id: UUID | None
    review_state: str


class GotItem(Row):
    """A row of pymem.memory_item_get: the live item at a namespace and key."""

    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    memory_id: UUID
    review_state: str


class FoundItem(Row):
    """A row of pymem.memory_item_search."""

    namespace: list[str]
    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    score: float | None
    memory_id: UUID


class ListedItem(Row):
    """A row of pymem.memory_item_list."""

    key: str
    value: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    memory_id: UUID
    review_state: str


class ItemNamespace(Row):
    """A row of pymem.memory_item_namespaces."""

    namespace: list[str]


class ItemClient(SqlClient):
    """The item functions on one connection."""

    def item_text(self, *, value: dict[str, Any], fields: Sequence[str] | None = None) -> str | None:
        """pymem.memory_item_text: the text of value that is embedded and searched (None: nothing to index)."""
        text = self._scalar(
            "memory_item_text",
            value=("jsonb", Jsonb(value)),
            fields=("text[]", list(fields) if fields is not None else None),
        )
        return str(text) if text is not None else None

    def item_put(
        self,
        *,
        namespace: Sequence[str],
        key: str,
        value: dict[str, Any] | None,
        fields: Sequence[str] | None = None,
        indexed: bool = True,
        ttl_minutes: float | None = None,
        embedding: np.ndarray | None = None,
        embedding_model: str | None = None,
        token_count: int | None = None,
    ) -> PutItem | None:
        """pymem.memory_item_put: the item stored as a fact (value None deletes it; no row then)."""
        rows = self._rows(
            PutItem,
            "memory_item_put",
            namespace=("text[]", list(namespace)),
            key=("text", key),
            value=("jsonb", Jsonb(value) if value is not None else NULL),
            fields=("text[]", list(fields) if fields is not None else None),
            indexed=("boolean", indexed),
            ttl_minutes=("double precision", ttl_minutes),
            embedding=("public.vector", _vector(embedding)),
            embedding_model=("text", embedding_model),
            token_count=("integer", token_count),
        )
        return rows[0] if rows else None

    def item_get(self, *, namespace: Sequence[str], key: str, refresh_ttl: bool = True) -> GotItem | None:
        """pymem.memory_item_get: the live item, or None."""
        rows = self._rows(
            GotItem,
            "memory_item_get",
            namespace=("text[]", list(namespace)),
            key=("text", key),
            refresh_ttl=("boolean", refresh_ttl),
        )
        return rows[0] if rows else None

    def item_search(
        self,
        *,
        namespace_prefix: Sequence[str],
        query: str | None = None,
        filter: dict[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        query_embedding: np.ndarray | None = None,
        refresh_ttl: bool = True,
    ) -> list[FoundItem]:
        """pymem.memory_item_search: live items under the prefix, ranked by hybrid search with a query."""
        return self._rows(
            FoundItem,
            "memory_item_search",
            namespace_prefix=("text[]", list(namespace_prefix)),
            query=("text", query),
            filter=("jsonb", Jsonb(filter) if filter is not None else None),
            limit=("integer", limit),
            offset=("integer", offset),
            query_embedding=("public.vector", _vector(query_embedding)),
            refresh_ttl=("boolean", refresh_ttl),
        )

    def item_namespaces(
        self,
        *,
        prefix: Sequence[str] | None = None,
        suffix: Sequence[str] | None = None,
        max_depth: int | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[tuple[str, ...]]:
        """pymem.memory_item_namespaces: the namespaces that hold live items."""
        rows = self._rows(
            ItemNamespace,
            "memory_item_namespaces",
            prefix=("text[]", list(prefix) if prefix is not None else None),
            suffix=("text[]", list(suffix) if suffix is not None else None),
            max_depth=("integer", max_depth),
            limit=("integer", limit),
            offset=("integer", offset),
        )
        return [tuple(row.namespace) for row in rows]

    def item_list(self, *, namespace: Sequence[str], key_prefix: str | None = None) -> list[ListedItem]:
        """pymem.memory_item_list: every live item of one namespace (review pending included), by key."""
        return self._rows(
            ListedItem,
            "memory_item_list",
            namespace=("text[]", list(namespace)),
            key_prefix=("text", key_prefix),
        )

    def item_sweep(self) -> int:
        """pymem.memory_item_sweep: retract the tenant's expired items; how many."""
        return int(self._scalar("memory_item_sweep"))
