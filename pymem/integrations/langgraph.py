"""LangGraph's long-term memory in pymem: ``PymemStore``, a ``langgraph.store.base.BaseStore``.

The store acts as one tenant under row-level security: a login bound to a tenant (an analyst's) needs no
``tenant``; the application role pymem_app needs one. Its items are pymem memories, not a second storage system:
each is a fact (subject and scope its namespace path, predicate its key, the value in metadata.item), written,
found, ranked and expired by the SQL functions of sql/functions/270-items.sql through pymem.item_client, so a
second put supersedes the first (``as_of`` still answers the old value), a delete retracts, and an analyst sees
the agent's items with ``memory_recall`` in psql.

    with PymemStore.from_conn_string("postgresql://pymem_app@localhost/pymem", tenant="alice") as store:
        store.put(("memories", "alice"), "diet", {"text": "Alice is vegetarian"})
        store.search(("memories",), query="what does alice eat")

Search with a query ranks by pymem's hybrid search (keyword and MiniLM-L6 vectors, fused), with its scores;
without one, newest first. ``index``: ``fields`` (JSON paths of the value to embed; default the whole value) and
``embed`` (a function or LangChain ``Embeddings`` returning 384-d vectors; default the MiniLM-L6 model pymem
ships). ``ttl``: ``default_ttl`` and ``refresh_on_read`` (minutes since the last put or read); an expired item is
never returned and ``sweep_ttl`` retracts it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import numpy as np
import psycopg
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)
from langgraph.store.base.embed import ensure_embeddings
from psycopg_pool import ConnectionPool

from pymem.embeddings import MODEL_ID, Embedder
from pymem.item_client import FoundItem, ItemClient
from pymem.tenancy import tenant_transaction

DIMENSIONS = 384  # pymem's embedding column: vector(384), MiniLM-L6


class PymemStoreError(ValueError):
    """A store configured or called in a way pymem cannot serve (the message says how to fix it)."""


class PymemStore(BaseStore):
    """A LangGraph store whose items are pymem memories of one tenant (see the module docstring)."""

    supports_ttl = True

    def __init__(
        self,
        conn: psycopg.Connection[Any] | ConnectionPool,
        *,
        tenant: str | None = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        """conn: a psycopg connection (autocommit; the store opens its own transactions) or a pool. embedder:
        pymem's MiniLM-L6 embedder to use when index has no embed (default: one loaded at the first put)."""
        self._conn = conn
        self._tenant = tenant
        self.index_config = index
        self.ttl_config = ttl
        fields = index.get("fields") if index else None
        self._fields: list[str] | None = list(fields) if fields else None
        if index and index.get("dims") not in (None, DIMENSIONS):
            raise PymemStoreError(
                f"index dims {index.get('dims')}: pymem stores {DIMENSIONS}-d embeddings (vector({DIMENSIONS}),"
                " MiniLM-L6); leave dims out, or give an embed function of 384 dimensions"
            )
        self._embed = ensure_embeddings(index["embed"]) if index and index.get("embed") is not None else None
        self._embedder: Embedder | None = embedder

    @classmethod
    @contextmanager
    def from_conn_string(
        cls,
        conn_string: str,
        *,
        tenant: str | None = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> Iterator[PymemStore]:
        """A store on its own connection (closed on exit), like LangGraph's PostgresStore.from_conn_string."""
        with psycopg.connect(conn_string, autocommit=True) as conn:
            yield cls(conn, tenant=tenant, index=index, ttl=ttl)

    # the transaction ---------------------------------------------------------------------------------

    @contextmanager
    def _client(self) -> Iterator[ItemClient]:
        """One transaction of the store's tenant (or the login's, for a bound analyst)."""
        if isinstance(self._conn, ConnectionPool):
            with self._conn.connection() as conn, self._bound(conn):
                yield ItemClient(conn)
        else:
            with self._bound(self._conn):
                yield ItemClient(self._conn)

    @contextmanager
    def _bound(self, conn: psycopg.Connection[Any]) -> Iterator[None]:
        if self._tenant is None:
            with conn.transaction():
                yield
        else:
            with tenant_transaction(conn, self._tenant, actor="langgraph"):
                yield

    # embeddings --------------------------------------------------------------------------------------

    def _vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        if not texts:
            return []
        if self._embed is not None:
            vectors = [np.asarray(v, dtype=np.float32) for v in self._embed.embed_documents(list(texts))]
            for vector in vectors:
                if vector.shape != (DIMENSIONS,):
                    raise PymemStoreError(
                        f"the index's embed function returned {vector.shape[0] if vector.ndim else 0}-d vectors:"
                        f" pymem stores {DIMENSIONS}-d embeddings (vector({DIMENSIONS}), MiniLM-L6)"
                    )
            return vectors
        if self._embedder is None:
            self._embedder = Embedder()
        return self._embedder.embed_many(list(texts))

    def _model_id(self) -> str:
        # a custom embed's vectors are used as given, as vectors of the model the database searches with
        return self._embedder.model_id if self._embedder is not None else MODEL_ID

    # the operations ----------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """The operations in order, in one transaction of the tenant: a get after a put sees it."""
        ops = list(ops)
        for op in ops:
            validate_op_namespace(op)
        queries = [op.query for op in ops if isinstance(op, SearchOp) and op.query]
        query_vectors = dict(zip(queries, self._vectors(queries), strict=True)) if queries else {}
        results: list[Result] = []
        with self._client() as client:
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(client, op))
                elif isinstance(op, SearchOp):
                    results.append(self._search(client, op, query_vectors.get(op.query or "")))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._namespaces(client, op))
                elif isinstance(op, PutOp):
                    self._put(client, op)
                    results.append(None)
                else:
                    raise PymemStoreError(f"unknown operation {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """batch in a worker thread."""
        return await asyncio.to_thread(self.batch, list(ops))

    def sweep_ttl(self) -> int:
        """Retract the tenant's expired items (pymem.memory_item_sweep); how many."""
        with self._client() as client:
            return client.item_sweep()

    def _get(self, client: ItemClient, op: GetOp) -> Item | None:
        got = client.item_get(namespace=op.namespace, key=op.key, refresh_ttl=op.refresh_ttl)
        if got is None:
            return None
        return Item(
            value=got.value, key=op.key, namespace=op.namespace, created_at=got.created_at, updated_at=got.updated_at
        )

    def _search(self, client: ItemClient, op: SearchOp, vector: np.ndarray | None) -> list[SearchItem]:
        found = client.item_search(
            namespace_prefix=op.namespace_prefix,
            query=op.query,
            filter=op.filter,
            limit=op.limit,
            offset=op.offset,
            query_embedding=vector,
            refresh_ttl=op.refresh_ttl,
        )
        return [_search_item(row) for row in found]

    def _namespaces(self, client: ItemClient, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        prefixes = [c.path for c in conditions if c.match_type == "prefix"]
        suffixes = [c.path for c in conditions if c.match_type == "suffix"]
        if len(prefixes) > 1 or len(suffixes) > 1:
            raise PymemStoreError("list_namespaces takes at most one prefix and one suffix condition")
        return client.item_namespaces(
            prefix=prefixes[0] if prefixes else None,
            suffix=suffixes[0] if suffixes else None,
            max_depth=op.max_depth,
            limit=op.limit,
            offset=op.offset,
        )

    def _put(self, client: ItemClient, op: PutOp) -> None:
        if op.value is None:
            client.item_put(namespace=op.namespace, key=op.key, value=None)
            return
        # a mapping is sent as an object; anything else as it is, for SQL to refuse naming it
        value: Any = dict(op.value) if isinstance(op.value, Mapping) else op.value
        fields = self._fields if op.index is None else (list(op.index) if op.index is not False else None)
        text = client.item_text(value=value, fields=fields) if op.index is not False else None
        vector = self._vectors([text])[0] if text is not None else None
        client.item_put(
            namespace=op.namespace,
            key=op.key,
            value=value,
            fields=fields,
            indexed=op.index is not False,
            ttl_minutes=op.ttl,
            embedding=vector,
            embedding_model=self._model_id() if vector is not None else None,
        )


class AsyncPymemStore(PymemStore):
    """PymemStore for async code: ``async with AsyncPymemStore.from_conn_string(...)``; the a* methods run the
    SQL in a worker thread."""

    @classmethod
    @asynccontextmanager
    async def from_conn_string(  # type: ignore[override]
        cls,
        conn_string: str,
        *,
        tenant: str | None = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> AsyncIterator[AsyncPymemStore]:
        conn: psycopg.Connection[Any] = await asyncio.to_thread(lambda: psycopg.connect(conn_string, autocommit=True))
        try:
            yield cls(conn, tenant=tenant, index=index, ttl=ttl)
        finally:
            await asyncio.to_thread(conn.close)


def _search_item(row: FoundItem) -> SearchItem:
    return SearchItem(
        namespace=tuple(row.namespace),
        key=row.key,
        value=row.value,
        created_at=row.created_at,
        updated_at=row.updated_at,
        score=row.score,
    )
