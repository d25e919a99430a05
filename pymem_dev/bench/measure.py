"""The measurements: each one times real calls (SQL API as pymem_app under RLS, the MCP tools
through a real client session, the embedder, a spawned `pymem serve`) and returns plain dicts."""

from __future__ import annotations

import math
import os
import queue
import shutil
import sys
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import psycopg
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from pgvector.psycopg import register_vector

from pymem import maintenance, token_counts
from pymem.client import MemoryClient
from pymem.embedding_worker import EmbeddingWorker
from pymem.embeddings import Embedder, EmbeddingService
from pymem.mcp_server import ServerOptions, build_server
from pymem.pool import make_pool
from pymem.tenancy import tenant_transaction
from pymem_dev.bench import corpus
from pymem_dev.bench.loader import MIX, TenantData
from pymem_dev.scratch import ScratchDatabase

Log = Callable[[str], None]
Query = tuple[str, np.ndarray]


def stats(seconds: Sequence[float]) -> dict[str, float | int]:
    """n, p50/p95/p99, mean and max of a list of durations, in milliseconds."""
    if not seconds:
        return {"n": 0}
    ms = np.asarray(seconds, dtype=np.float64) * 1000.0
    return {
        "n": len(seconds),
        "p50_ms": round(float(np.percentile(ms, 50)), 3),
        "p95_ms": round(float(np.percentile(ms, 95)), 3),
        "p99_ms": round(float(np.percentile(ms, 99)), 3),
        "mean_ms": round(float(ms.mean()), 3),
        "max_ms": round(float(ms.max()), 3),
    }


def connect_app(scratch: ScratchDatabase) -> psycopg.Connection[Any]:
    conn = psycopg.connect(scratch.app_dsn, autocommit=True)
    register_vector(conn)
    return conn


def _timed(calls: Sequence[Callable[[], object]], warmup: int) -> list[float]:
    """Run every call, timing each; the first `warmup` calls are run first and not counted."""
    for call in calls[:warmup]:
        call()
    samples = []
    for call in calls:
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return samples


def query_embedding(embedder: Embedder, texts: Sequence[str], warmup: int = 5) -> dict[str, Any]:
    samples = _timed([partial(embedder.embed, t) for t in texts], warmup)
    return {**stats(samples), "what": "Embedder.embed of one query text, model already loaded"}


def sql_queries(scratch: ScratchDatabase, tenant: str, queries: Sequence[Query], warmup: int = 5) -> dict[str, Any]:
    """memory_search (hybrid, limit 20) and memory_recall (limit 10) with a precomputed query
    embedding, as pymem_app in a transaction bound to `tenant` (the calls the MCP tools make)."""
    with connect_app(scratch) as conn:
        client = MemoryClient(conn)

        def search(text: str, vector: np.ndarray) -> int:
            with tenant_transaction(conn, tenant):
                rows = client.search_scored(
                    query=text,
                    types=["episode", "fact", "rule"],
                    mode="hybrid",
                    limit=20,
                    min_confidence=0.2,
                    query_embedding=vector,
                )
            return len(rows)

        def recall(text: str, vector: np.ndarray) -> int:
            with tenant_transaction(conn, tenant):
                return len(client.recall(topic=text, limit=10, query_embedding=vector))

        out: dict[str, Any] = {}
        for name, fn in (("search", search), ("recall", recall)):
            found: list[int] = []

            def one(fn: Callable[[str, np.ndarray], int], found: list[int], query: Query) -> None:
                found.append(fn(*query))

            out[f"{name}_sql"] = stats(_timed([partial(one, fn, found, q) for q in queries], warmup))
            counted = found[warmup:]
            out[f"{name}_sql"]["mean_results"] = round(sum(counted) / max(len(counted), 1), 2)
    return out


def hot_memory(scratch: ScratchDatabase, data: TenantData, count: int, warmup: int = 5) -> dict[str, Any]:
    """memory_recent_episodes (limit 10): by butler, and every other call within one session."""
    butlers = list(data.sessions)
    with connect_app(scratch) as conn:
        client = MemoryClient(conn)
        returned: list[int] = []

        def recent(i: int) -> None:
            butler = butlers[i % len(butlers)]
            session = data.sessions[butler][i % len(data.sessions[butler])] if i % 2 else None
            with tenant_transaction(conn, data.tenant):
                returned.append(len(client.recent_episodes(butler=butler, limit=10, in_session=session)))

        samples = _timed([partial(recent, i) for i in range(count)], warmup)
    return {**stats(samples), "mean_results": round(sum(returned[warmup:]) / max(count, 1), 2)}


def mcp_server_for(
    scratch: ScratchDatabase, embedder: Embedder, tenant: str, butlers_dir: Path, *, second: Embedder | None = None
) -> tuple[Any, Any]:
    """The server `pymem serve` builds (with the second encoder, when given), on a pool of its own."""
    pool = make_pool(scratch.app_dsn, min_size=1, max_size=4)
    service = EmbeddingService(embedder)
    service.wait()
    second_service = EmbeddingService(second) if second is not None else None
    if second_service is not None:
        second_service.wait()
    built = build_server(
        ServerOptions(
            pool=pool,
            embeddings=service,
            stdio_tenant=tenant,
            butlers_dir=butlers_dir,
            owns_pool=False,
            second_embeddings=second_service,
        )
    )
    return built, pool


async def call_tool(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    if result.is_error or result.structured_content is None:
        text = " ".join(getattr(part, "text", "") for part in result.content)
        raise RuntimeError(f"{tool} failed through MCP: {text}")
    return dict(result.structured_content)


def mcp_queries(
    scratch: ScratchDatabase, embedder: Embedder, tenant: str, texts: Sequence[str], butlers_dir: Path, warmup: int = 5
) -> dict[str, Any]:
    """memory_search and memory_recall end to end: an in-process MCP client session against the
    server `pymem serve` builds (query embedding, tool dispatch, SQL, result models)."""
    server, pool = mcp_server_for(scratch, embedder, tenant, butlers_dir)
    out: dict[str, Any] = {}

    async def run() -> None:
        async with Client(server) as client:
            for name, tool, key in (("search", "memory_search", "query"), ("recall", "memory_recall", "topic")):
                for text in texts[:warmup]:
                    await call_tool(client, tool, {key: text})
                samples = []
                for text in texts:
                    started = time.perf_counter()
                    await call_tool(client, tool, {key: text})
                    samples.append(time.perf_counter() - started)
                out[f"{name}_mcp"] = stats(samples)

    try:
        anyio.run(run)
    finally:
        pool.close()
    return out


def embedding_queue(
    scratch: ScratchDatabase, embedder: Embedder, tenant: str, count: int, log: Log, probes: int = 5
) -> dict[str, Any]:
    """The embedding worker (pymem.embedding_worker): its throughput on a backlog of count memories stored without an
    embedding in one transaction (the queue trigger queues them), embedded by one worker's work() in batches of its
    BATCH (the write-back of one overlapping the embedding of the next); then its latency at idle: a worker thread
    LISTENing, probes single facts stored in committed transactions, the seconds from each commit until its embedding
    is there. Run before anything else leaves the queue non-empty."""
    texts = corpus.unique_texts(count + probes, seed=13)
    with connect_app(scratch) as conn, tenant_transaction(conn, tenant):
        MemoryClient(conn).store_episodes([{"content": text, "butler": "worker"} for text in texts[:count]])
    worker = EmbeddingWorker(dsn=scratch.migrator_dsn, embedder=embedder, interval=30)
    started = time.perf_counter()
    embedded = worker.work("bench")
    seconds = time.perf_counter() - started
    log(f"embedding worker: {embedded} memories in {seconds:.1f} s")
    latencies: list[float] = []
    thread, stop = worker.start()
    try:
        time.sleep(1.0)  # listening
        with connect_app(scratch) as conn:
            for text in texts[count:]:
                with tenant_transaction(conn, tenant):
                    stored = MemoryClient(conn).store_fact(subject="probe", predicate=text[:40], content=text)
                committed = time.perf_counter()
                while time.perf_counter() - committed < 30:
                    with tenant_transaction(conn, tenant):
                        row = conn.execute(
                            "select embedding is not null from pymem.facts where id = %s", (stored.memory_id,)
                        ).fetchone()
                    if row and row[0]:
                        break
                    time.sleep(0.005)
                latencies.append(time.perf_counter() - committed)
                time.sleep(0.2)
    finally:
        stop.set()
        thread.join(timeout=10)
    log(f"embedding worker: commit to embedding at idle, median {sorted(latencies)[len(latencies) // 2]:.3f} s")
    return {
        "memories": embedded,
        "seconds": round(seconds, 3),
        "per_s": round(embedded / seconds, 1) if seconds else None,
        "batch": worker.batch,
        "idle_latency_s": [round(x, 3) for x in latencies],
        "idle_latency_max_s": round(max(latencies), 3) if latencies else None,
    }


def consolidation(scratch: ScratchDatabase, tenant: str, count: int, log: Log) -> dict[str, Any]:
    """Consolidation's throughput: count chat turns ("User: ...", "Maya: ..." in turn) stored as episodes of a tenant
    of their own, then pymem.maintenance.run_consolidation over that tenant (the built-in extractor, one committed
    batch of 100 at a time, as `pymem consolidate` and the consolidation worker run it; no embedding after)."""
    texts = corpus.unique_texts(count, seed=11)
    with connect_app(scratch) as conn, tenant_transaction(conn, tenant):
        speakers = ("User", "Maya")
        MemoryClient(conn).store_episodes(
            [{"content": f"{speakers[n % 2]}: {text}", "butler": "chat"} for n, text in enumerate(texts)]
        )
    started = time.perf_counter()
    summary = maintenance.run_consolidation(scratch.migrator_dsn, None, tenants=[tenant])
    seconds = time.perf_counter() - started
    log(f"consolidation: {summary.episodes} episodes in {seconds:.1f} s")
    return {
        "episodes": summary.episodes,
        "seconds": round(seconds, 3),
        "per_s": round(summary.episodes / seconds, 1) if seconds else None,
        "facts": summary.facts,
        "rules": summary.rules,
        "kept_for_review": summary.kept_for_review,
    }


def mcp_ingest(
    scratch: ScratchDatabase, embedder: Embedder, tenant: str, count: int, butlers_dir: Path, log: Log
) -> dict[str, Any]:
    """count memories stored one call at a time through the MCP tools (facts, episodes and
    rules in turn), embedding included."""
    texts = corpus.unique_texts(count, seed=23)
    server, pool = mcp_server_for(scratch, embedder, tenant, butlers_dir)
    result: dict[str, Any] = {}

    async def run() -> None:
        async with Client(server) as client:
            await call_tool(client, "memory_stats", {})
            samples = []
            started = time.perf_counter()
            for i, text in enumerate(texts):
                kind = i % 3
                begun = time.perf_counter()
                if kind == 0:
                    await call_tool(
                        client, "memory_store_fact", {"subject": "user", "predicate": f"note_{i}", "content": text}
                    )
                elif kind == 1:
                    await call_tool(client, "memory_store_episode", {"content": text, "butler": "general"})
                else:
                    await call_tool(client, "memory_store_rule", {"content": text})
                samples.append(time.perf_counter() - begun)
                if (i + 1) % 50 == 0:
                    log(f"ingest (MCP): {i + 1}/{count}")
            wall = time.perf_counter() - started
            result.update(memories=count, seconds=round(wall, 3), per_s=round(count / wall, 1), call=stats(samples))

    try:
        anyio.run(run)
    finally:
        pool.close()
    return result


def batch_ingest(
    scratch: ScratchDatabase, embedder: Embedder, tenant: str, count: int, log: Log, batch: int = 64
) -> dict[str, Any]:
    """count memories through embed_many + the SQL store functions, one transaction per batch
    (MemoryClient.store_facts and friends: psycopg pipeline mode via executemany), embedding the next
    batch while this one is written."""
    texts = corpus.unique_texts(count, seed=5)
    kinds = ["fact", "episode", "rule"]
    weights = [MIX[k] for k in kinds]
    counter = token_counts.load_tokenizer()
    batches: queue.Queue[tuple[list[str], list[np.ndarray], list[int]] | BaseException | None] = queue.Queue(2)

    def produce() -> None:
        try:
            for start in range(0, count, batch):
                chunk = texts[start : start + batch]
                tokens = [len(e.ids) for e in counter.encode_batch(chunk, add_special_tokens=False)]
                batches.put((chunk, embedder.embed_many(chunk), tokens))
            batches.put(None)
        except BaseException as exc:  # handed to the writer, which re-raises it
            batches.put(exc)

    started = time.perf_counter()
    producer = threading.Thread(target=produce, name="bench-embed", daemon=True)
    producer.start()
    done = 0
    with connect_app(scratch) as conn:
        client = MemoryClient(conn)
        store: dict[str, Callable[[list[Any]], None]] = {
            "fact": client.store_facts,
            "episode": client.store_episodes,
            "rule": client.store_rules,
        }
        while (item := batches.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            chunk, vectors, tokens = item
            rows: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
            for text, vector, n in zip(chunk, vectors, tokens, strict=True):
                kind = kinds[_pick(done, weights)]
                butler = corpus.BUTLERS[done % len(corpus.BUTLERS)]
                stored: dict[str, Any] = {"content": text, "embedding": vector, "embedding_model": embedder.model_id}
                stored["token_count"] = n
                if kind == "fact":
                    stored.update(subject="user", predicate=f"note_{done}", importance=float(1 + done % 9))
                    stored["scope"] = butler if done % 3 else "global"
                elif kind == "episode":
                    stored.update(butler=butler, importance=float(1 + done % 9))
                else:
                    stored["scope"] = butler if done % 3 else "global"
                rows[kind].append(stored)
                done += 1
            with tenant_transaction(conn, tenant):
                for kind in kinds:
                    store[kind](rows[kind])
            if done % (batch * 8) == 0 or done == count:
                log(f"ingest (batch): {done}/{count}")
    producer.join()
    wall = time.perf_counter() - started
    return {"memories": count, "batch": batch, "seconds": round(wall, 3), "per_s": round(count / wall, 1)}


def _pick(i: int, weights: Sequence[float]) -> int:
    """A deterministic spread of kinds in the given proportions."""
    position = (i * 0.618034) % 1.0
    total = 0.0
    for k, w in enumerate(weights):
        total += w
        if position < total:
            return k
    return len(weights) - 1


def filtered_recall(scratch: ScratchDatabase, tenant: str, queries: Sequence[Query], k: int = 10) -> dict[str, Any]:
    """memory_search semantic mode for one small tenant against an exact scan of that tenant's
    visible rows with index scans disabled: as configured (memory_search searches a table exactly
    when the tenant has at most pymem.exact_search_rows rows there), and forced through the vector
    index (pymem.exact_search_rows = 0: HNSW with the tenant filter applied in iterative scans)."""
    out: dict[str, Any] = {"k": k, "queries": len(queries)}
    with connect_app(scratch) as conn:
        with tenant_transaction(conn, tenant):
            row = conn.execute(
                "select current_setting('pymem.exact_search_rows', true),"
                " (select count(*) from pymem.facts), (select count(*) from pymem.rules),"
                " (select count(*) from pymem.episodes)"
            ).fetchone()
        assert row is not None
        out["tenant_rows_per_table"] = {"facts": row[1], "rules": row[2], "episodes": row[3]}
        out["exact_search_rows"] = row[0] or "1000 (default)"
        exact_rows = {}
        for text, vector in queries:
            with tenant_transaction(conn, tenant):
                conn.execute("set local enable_indexscan = off")
                exact_rows[text] = conn.execute(EXACT_SQL, {"q": vector, "k": k}).fetchall()
        for label, threshold in (("configured", None), ("index", "0")):
            recalls = []
            latency = []
            for text, vector in queries:
                started = time.perf_counter()
                with tenant_transaction(conn, tenant):
                    if threshold is not None:
                        conn.execute("select set_config('pymem.exact_search_rows', %s, true)", (threshold,))
                    rows = MemoryClient(conn).search_scored(
                        query=text, mode="semantic", limit=k, query_embedding=vector, bump_references=False
                    )
                latency.append(time.perf_counter() - started)
                found = [(str(r.memory_id), 1.0 - float(r.semantic_score or 0.0)) for r in rows]
                recalls.append(_recall(found, exact_rows[text], k))
            out[label] = {
                "recall_at_k": round(float(np.mean(recalls)), 4) if recalls else None,
                "min": round(float(np.min(recalls)), 4) if recalls else None,
                "search_latency": stats(latency),
            }
    out["recall_at_k"] = out["configured"]["recall_at_k"]
    out["min"] = out["configured"]["min"]
    return out


# exact nearest neighbours among the rows memory_search may return (tenant-bound by RLS and set
# explicitly; defaults of memory_search: active facts, live episodes and rules, confidence >= 0.2)
EXACT_SQL = """
select id::text, distance from (
    select f.id, f.embedding operator(public.<=>) %(q)s as distance from pymem.facts as f
    where f.tenant_id = pymem.current_tenant() and f.validity = 'active' and f.embedding is not null
      and pymem.memory_effective_confidence(f.confidence, f.decay_rate, f.last_confirmed_at, now()) >= 0.2
    union all
    select r.id, r.embedding operator(public.<=>) %(q)s from pymem.rules as r
    where r.tenant_id = pymem.current_tenant() and r.forgotten_at is null and r.embedding is not null
      and pymem.memory_effective_confidence(r.confidence, r.decay_rate, r.last_confirmed_at, now()) >= 0.2
    union all
    select e.id, e.embedding operator(public.<=>) %(q)s from pymem.episodes as e
    where e.tenant_id = pymem.current_tenant() and e.forgotten_at is null and e.embedding is not null
      and (e.expires_at is null or e.expires_at > now())
) as x
order by distance
limit %(k)s
"""


def _recall(found: Sequence[tuple[str, float]], exact: Sequence[tuple[str, float]], k: int) -> float:
    """Share of the exact top k that was found; a found row at a distance tied with the k-th
    exact one counts too (equal distances have no order)."""
    if not exact:
        return 1.0
    wanted = {i for i, _ in exact}
    kth = float(exact[-1][1])
    hits = sum(1 for i, d in found[:k] if i in wanted or d <= kth + 1e-6)
    return min(hits, len(exact)) / min(k, len(exact))


EF_SEARCH = (40, 100, 200, 400, 1000)
# the candidate depth of the benchmarked calls (sql/functions/140-search.sql: memory_search passes its
# limit; 150-recall.sql: memory_recall max(3 x limit, 30)); memory_candidates searches the facts at
# hnsw.ef_search = pymem_private.hnsw_ef_search(depth, 'pymem.facts') (sql/functions/130-candidates.sql)
SEARCH_DEPTHS = {"memory_search limit 20": 20, "memory_recall limit 10": 30}


def search_settings(conn: psycopg.Connection[Any], table: str = "pymem.facts") -> dict[str, Any]:
    """The vector index settings a search of `table` uses, read from the database (not assumed): the iterative
    scan of pymem_private.memory_candidates' SET clause, and pymem_private.hnsw_ef_search of the table (the list
    memory_candidates sets for it) at the depths of the benchmarked calls, at the table's size now."""
    row = conn.execute(
        "select p.proconfig from pg_catalog.pg_proc as p"
        " join pg_catalog.pg_namespace as n on n.oid = p.pronamespace"
        " where n.nspname = 'pymem_private' and p.proname = 'memory_candidates' order by p.oid desc limit 1"
    ).fetchone()
    if row is None:
        return {"ef_search": 100, "iterative_scan": None, "source": "pymem_private.memory_candidates not found"}
    config = dict(item.split("=", 1) for item in (row[0] or []))
    by_call = {
        call: int(conn.execute("select pymem_private.hnsw_ef_search(%s, %s)", (depth, table)).fetchone()[0])  # type: ignore[index]
        for call, depth in SEARCH_DEPTHS.items()
    }
    source = f"memory_candidates sets pymem_private.hnsw_ef_search(depth, '{table}') for {table}: " + ", ".join(
        f"{call} (depth {SEARCH_DEPTHS[call]}) -> {ef}" for call, ef in by_call.items()
    )
    return {"ef_search": max(by_call.values()), "iterative_scan": config.get("hnsw.iterative_scan"), "source": source}


# the other vector tables, each searched at its own list (pymem_private.semantic_search_lists)
OTHER_VECTOR_TABLES = ("pymem.rules", "pymem.episodes")


def _index_recall_sweep(
    conn: psycopg.Connection[Any],
    table: str,
    vectors: Sequence[np.ndarray],
    k: int,
    ef_values: Sequence[int],
    iterative_scan: str | None,
) -> dict[str, Any]:
    """recall@k of `table`'s vector index over every tenant (plain ORDER BY <=> LIMIT k) at each ef_search, with
    the iterative scan searches use, against an exact scan with index scans disabled."""
    exact_sql = f"select id::text, embedding operator(public.<=>) %(q)s from {table} order by 2 limit %(k)s"
    ann_sql = (
        f"select id::text, embedding operator(public.<=>) %(q)s from {table}"
        " order by embedding operator(public.<=>) %(q)s limit %(k)s"
    )
    exact = []
    for vector in vectors:
        with conn.transaction():
            conn.execute("set local enable_indexscan = off")
            exact.append(conn.execute(exact_sql, {"q": vector, "k": k}).fetchall())
    sweep: dict[str, Any] = {}
    for ef in sorted(set(ef_values)):
        recalls = []
        latency = []
        for vector, truth in zip(vectors, exact, strict=True):
            with conn.transaction():
                conn.execute("select set_config('hnsw.ef_search', %s, true)", (str(ef),))
                if iterative_scan:
                    conn.execute("select set_config('hnsw.iterative_scan', %s, true)", (iterative_scan,))
                started = time.perf_counter()
                found = conn.execute(ann_sql, {"q": vector, "k": k}).fetchall()
                latency.append(time.perf_counter() - started)
            recalls.append(_recall([(str(i), float(d)) for i, d in found], truth, k))
        sweep[str(ef)] = {
            "recall_at_k": round(float(np.mean(recalls)), 4) if recalls else None,
            "min": round(float(np.min(recalls)), 4) if recalls else None,
            "ann_latency": stats(latency),
        }
    return sweep


def hnsw_recall(scratch: ScratchDatabase, vectors: Sequence[np.ndarray], k: int = 10) -> dict[str, Any]:
    """The facts table's vector index over every tenant (plain ORDER BY <=> LIMIT k) at several
    hnsw.ef_search values, with the iterative scan searches use, against an exact scan with index
    scans disabled, as the migrator; and the rules' and episodes' indexes at the list searches set for
    each (pymem_private.hnsw_ef_search(depth, table)). The target is read at the ef_search searches set,
    the least recall of the three tables."""
    with psycopg.connect(scratch.migrator_dsn, autocommit=True) as conn:
        register_vector(conn)
        conn.execute("select public.vector_dims('[1]'::public.vector)")  # loads pgvector: its settings exist
        row = conn.execute("select current_setting('hnsw.ef_search', true), count(*) from pymem.facts").fetchone()
        assert row is not None
        used = search_settings(conn)
        sweep = _index_recall_sweep(
            conn, "pymem.facts", vectors, k, [*EF_SEARCH, used["ef_search"]], used["iterative_scan"]
        )
        others: dict[str, Any] = {}
        for table in OTHER_VECTOR_TABLES:
            counted = conn.execute(f"select count(*) from {table} where embedding is not null").fetchone()
            rows = int(counted[0]) if counted else 0
            if rows == 0:
                continue
            ef = search_settings(conn, table)["ef_search"]
            own = _index_recall_sweep(conn, table, vectors, k, [ef], used["iterative_scan"])[str(ef)]
            others[table] = {"rows": rows, "ef_search": ef, "recall_at_k": own["recall_at_k"], "min": own["min"]}
    chosen = sweep[str(used["ef_search"])]
    least = min(
        (r for r in (chosen["recall_at_k"], *(o["recall_at_k"] for o in others.values())) if r is not None),
        default=None,
    )
    return {
        "table": "pymem.facts",
        "rows": int(row[1]),
        "server_ef_search": row[0],
        "ef_search": used["ef_search"],
        "iterative_scan": used["iterative_scan"],
        "settings_source": used["source"],
        "k": k,
        "queries": len(vectors),
        "recall_at_k": chosen["recall_at_k"],
        "min": chosen["min"],
        "by_ef_search": sweep,
        "other_tables": others,
        "least_recall_at_k": least,
    }


def keyword_share(scratch: ScratchDatabase, tenant: str, texts: Sequence[str]) -> float | None:
    """Mean share of the tenant's memories that the full-text query of a search text matches
    (memory_tsquery ORs the query's lexemes): how much work the keyword leg has."""
    shares = []
    with connect_app(scratch) as conn, tenant_transaction(conn, tenant):
        for text in texts:
            row = conn.execute(
                "with q as (select pymem.memory_tsquery(query => %(query)s::text) as q) select"
                " (select count(*) from pymem.facts, q where search_vector @@ q.q)"
                " + (select count(*) from pymem.rules, q where search_vector @@ q.q)"
                " + (select count(*) from pymem.episodes, q where search_vector @@ q.q),"
                " (select count(*) from pymem.facts) + (select count(*) from pymem.rules)"
                " + (select count(*) from pymem.episodes)",
                {"query": text},
            ).fetchone()
            if row is not None and row[1]:
                shares.append(int(row[0]) / int(row[1]))
    return round(float(np.mean(shares)), 4) if shares else None


def pymem_command() -> list[str]:
    found = shutil.which("pymem", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "pymem.cli"]


def cold_start(scratch: ScratchDatabase, tenant: str, butlers_dir: Path, runs: int, log: Log) -> dict[str, Any]:
    """Spawn `pymem serve` (stdio, tenant set) against the running scratch database and time
    process start -> initialize -> first tool call (memory_stats) answered, then the first
    memory_recall (which waits for the embedding model to load)."""
    command = pymem_command()
    env = dict(os.environ)
    env.update(
        PYMEM_DSN=scratch.migrator_dsn,
        PYMEM_APP_DSN=scratch.app_dsn,
        PYMEM_TENANT=tenant,
        PYMEM_BUTLERS_DIR=str(butlers_dir),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
    )
    params = StdioServerParameters(command=command[0], args=[*command[1:], "serve"], env=env)
    first: list[float] = []
    initialized: list[float] = []
    recall: list[float] = []

    async def once() -> None:
        started = time.perf_counter()
        async with Client(params) as client:
            initialized.append(time.perf_counter() - started)
            await call_tool(client, "memory_stats", {})
            first.append(time.perf_counter() - started)
            await call_tool(client, "memory_recall", {"topic": "what does the user eat for breakfast"})
            recall.append(time.perf_counter() - started)

    for i in range(runs):
        anyio.run(once)
        log(f"cold start {i + 1}/{runs}: first call answered after {first[-1]:.2f} s")
    return {
        "runs": runs,
        "command": " ".join([*command, "serve"]),
        "initialize_s": [round(x, 3) for x in initialized],
        "first_call_s": [round(x, 3) for x in first],
        "first_recall_s": [round(x, 3) for x in recall],
        "first_call_median_s": round(float(np.median(first)), 3),
        "first_recall_median_s": round(float(np.median(recall)), 3),
        "what": "process spawn -> MCP initialize -> memory_stats answered (first_call); then memory_recall,"
        " which needs the embedding model (first_recall)",
    }


def janitor(scratch: ScratchDatabase, log: Log) -> dict[str, Any]:
    """pymem.maintenance.run_janitor over the loaded memories, if that function exists."""
    try:
        from pymem import maintenance
    except ImportError as exc:
        return {"measured": False, "reason": f"pymem.maintenance is not available ({exc})"}
    run: Callable[..., Any] | None = getattr(maintenance, "run_janitor", None)
    if run is None:
        return {"measured": False, "reason": "pymem.maintenance.run_janitor does not exist yet"}
    started = time.perf_counter()
    summary = run(scratch.migrator_dsn, progress=None)
    seconds = time.perf_counter() - started
    details = {
        name: getattr(summary, name)
        for name in ("tenants", "episodes_expired", "facts_checked", "facts_merged", "rules_checked", "rules_merged")
        if isinstance(getattr(summary, name, None), int)
    }
    log(f"janitor: {seconds:.1f} s {details}")
    return {"measured": True, "seconds": round(seconds, 3), "summary": details}


def finite(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)


# stage_split: the calls timed for each tool: memory_candidates with its legs (p_semantic, p_keyword, p_graph) on
# and off, then the tool's own SQL call ("sql"), the same without its reference bumps ("sql_nobump"), the provenance
# of the rows it returns ("provenance") and a bare transaction ("bare"); a stage is the difference of two of them,
# query by query. Each kind of call is planned as a session plans it (custom plans for 5 calls, then a generic plan
# when it costs less), as in the server; forcing one way (plan_cache_mode) distorts it: at 100k per tenant, generic,
# the semantic leg alone took 130-160 ms a call (p50; 10-13 ms as planned); custom, memory_candidates with no leg
# took 8.4 ms (3.4 as planned)
LEG_PASSES: dict[str, tuple[bool, bool, bool]] = {
    "none": (False, False, False),
    "semantic": (True, False, False),
    "keyword": (False, True, False),
    "legs": (True, True, False),
    "graph": (True, True, True),
}
# the stages, in order: for each query they add up to the tool's SQL call (then the embedding)
SPLIT_STAGES = (
    "embedding",
    "call",
    "semantic",
    "keyword",
    "fusion_relevance",
    "graph",
    "scoring",
    "provenance",
    "bumps",
)
# what each tool asks of memory_candidates: sql/functions/150-recall.sql, facts and rules at depth
# min(1000, max(3 x limit, 30)) = 30 for limit 10; 140-search.sql, every type (types NULL) at depth = its limit 20;
# both with scope NULL, min_confidence 0.2, as_of NULL and the graph leg on (recall always, search while
# graph_rrf_weight > 0: default 1), no second encoder
SPLIT_TOOLS: dict[str, dict[str, Any]] = {
    "recall": {"types": ["fact", "rule"], "depth": SEARCH_DEPTHS["memory_recall limit 10"]},
    "search": {"types": ["episode", "fact", "rule"], "depth": SEARCH_DEPTHS["memory_search limit 20"]},
}
CANDIDATES_SQL = (
    "select count(*) from pymem_private.memory_candidates(p_tenant => %(tenant)s, p_query => %(query)s,"
    " p_query_embedding => %(vector)s, p_types => %(types)s::text[], p_scope => null, p_depth => %(depth)s,"
    " p_min_confidence => 0.2, p_as_of => null, p_semantic => %(semantic)s, p_keyword => %(keyword)s,"
    " p_graph => %(graph)s)"
)
# a session builds the generic plan of a statement at its 6th run (13 ms at 400 rows, against 2.5 ms after):
# the warm-up runs past it
SPLIT_WARMUP = 6
# the queries of the split (the first of the bench's), 13 calls each: 41 s at 100k per tenant (2 cores, one of
# them busy with another database)
SPLIT_QUERIES = 100
SPLIT_WHAT = (
    "each stage timed on its own for the same queries, as pymem_app bound to one tenant (a transaction per call, a"
    " connection per kind of call, planned as a session plans it; the calls of one query back to back in an order"
    " turning from query to query; 6 warm-up queries); memory_candidates as the tool asks it: call, with no leg"
    " (transaction, round trip, the function's set-up); semantic, keyword: that leg alone minus call;"
    " fusion_relevance: both legs minus each alone plus call; graph: both legs and the graph minus both legs;"
    " scoring: the tool's SQL call with bump_references => false minus memory_candidates with every leg and minus"
    " provenance (the composite score, the floor and the focus check, the columns of each row, the arguments'"
    " checks); provenance: pymem_private.memory_provenance_many over the rows the tool returned minus a transaction"
    " of `select 1`; bumps: the tool's SQL call minus the same with bump_references => false (the reference"
    " bumps, pymem_private.memory_touch_many). Not clipped: a small negative figure is noise, or a leg planned"
    " otherwise alone than with the other."
    " at_p95_ms: the stage's mean over the calls whose SQL time is at or above the SQL p95 (they add up to those"
    " calls' SQL time; embedding apart). mcp_layer: MCP p95 - SQL p95 - embedding p95, a difference of p95s (the"
    " MCP call of mcp_queries, over all the bench's queries)"
)
PassCall = Callable[[MemoryClient, int, Query], object]


def stage_split(
    scratch: ScratchDatabase,
    embedder: Embedder,
    tenant: str,
    queries: Sequence[Query],
    mcp: dict[str, dict[str, Any]],
    warmup: int = SPLIT_WARMUP,
) -> dict[str, Any]:
    """Where the time of memory_recall and memory_search goes (SPLIT_WHAT): the query embedding (Embedder.embed),
    then for each tool pymem_private.memory_candidates as the tool asks it (SPLIT_TOOLS) with the legs of each of
    LEG_PASSES, and the tool's SQL call as its MCP tool makes it, for each of the first SPLIT_QUERIES queries
    (_passes); the stages per tool with p50, p95 and the mean at the p95 calls, and the MCP layer from mcp
    ({"recall": recall_mcp, "search": search_mcp} of mcp_queries). memory_recall's MCP tool also asks
    memory_query_focus in a transaction of its own beside the embedding: timed too (recall.query_focus), it is part
    of the MCP layer."""
    queries = queries[:SPLIT_QUERIES]
    embedding = np.asarray(_timed([partial(embedder.embed, text) for text, _ in queries], warmup))
    focus, differs = _focus_vectors(scratch, embedder, tenant, queries)
    out: dict[str, Any] = {"queries": len(queries), "tenant": tenant, "warmup": warmup, "what": SPLIT_WHAT}
    full: dict[str, Callable[[bool], PassCall]] = {
        "recall": lambda bump: partial(_recall_call, focus, bump),
        "search": lambda bump: partial(_search_call, bump),
    }
    for tool, asked in SPLIT_TOOLS.items():
        calls: dict[str, PassCall] = {
            name: partial(_candidates_call, tenant, asked, legs) for name, legs in LEG_PASSES.items()
        }
        calls["sql"] = full[tool](True)
        calls["sql_nobump"] = full[tool](False)
        returned = _returned_rows(scratch, tenant, queries, full[tool])
        calls["provenance"] = partial(_provenance_call, tenant, returned)
        calls["bare"] = _bare_call
        if tool == "recall":
            calls["query_focus"] = _query_focus_call
        passes = _passes(scratch, tenant, queries, calls, warmup)
        out[tool] = {
            **_split_figures(passes, embedding, mcp.get(tool) or {}),
            "returned_rows": round(sum(len(ids) for _, ids in returned) / max(len(returned), 1), 2),
            "candidates": f"pymem_private.memory_candidates(types {{{','.join(asked['types'])}}}, depth"
            f" {asked['depth']}, scope NULL, min_confidence 0.2, as_of NULL)",
        }
        if tool == "recall":
            out[tool]["query_focus"] = stats(list(passes["query_focus"]))
    out["recall"]["sql_call"] = (
        "pymem.memory_recall(topic, limit 10, query_embedding, focus_embedding) as its MCP tool calls it"
        " (focus_embedding: the query's vector, or the embedding of memory_query_focus(topic) when that differs)"
    )
    out["recall"]["focus_differs"] = differs
    out["search"]["sql_call"] = "pymem.memory_search(query, mode hybrid, limit 20, min_confidence 0.2, query_embedding)"
    return out


def _passes(
    scratch: ScratchDatabase,
    tenant: str,
    queries: Sequence[Query],
    calls: dict[str, PassCall],
    warmup: int,
) -> dict[str, np.ndarray]:
    """Each named call once per query, each in a transaction bound to tenant, timed (seconds), on a connection of
    its own (a session caches its plans: one kind of call does not choose another's). The calls of one query run
    one after the other, in an order that turns from query to query, so that whatever else the machine does weighs
    on every stage alike; the first `warmup` queries are run through every call first, untimed."""
    with ExitStack() as stack:
        clients = {}
        for name in calls:
            clients[name] = MemoryClient(stack.enter_context(connect_app(scratch)))
        names = list(calls)
        seconds: dict[str, list[float]] = {name: [] for name in names}
        for i, query in [*enumerate(queries[:warmup]), *enumerate(queries)]:
            turn = i % len(names)
            for name in names[turn:] + names[:turn]:
                client = clients[name]
                started = time.perf_counter()
                with tenant_transaction(client.conn, tenant):
                    calls[name](client, i, query)
                seconds[name].append(time.perf_counter() - started)
    return {name: np.asarray(samples[min(warmup, len(queries)) :]) for name, samples in seconds.items()}


def _candidates_call(
    tenant: str, asked: dict[str, Any], legs: tuple[bool, bool, bool], client: MemoryClient, _: int, query: Query
) -> object:
    semantic, keyword, graph = legs
    arguments = {"tenant": tenant, "query": query[0], "vector": query[1], **asked}
    return client.conn.execute(CANDIDATES_SQL, {**arguments, "semantic": semantic, "keyword": keyword, "graph": graph})


def _recall_call(focus: Sequence[np.ndarray], bump: bool, client: MemoryClient, i: int, query: Query) -> list[Any]:
    return client.recall(
        topic=query[0], limit=10, query_embedding=query[1], focus_embedding=focus[i], bump_references=bump
    )


def _search_call(bump: bool, client: MemoryClient, _: int, query: Query) -> list[Any]:
    return client.search_scored(
        query=query[0],
        types=["episode", "fact", "rule"],
        mode="hybrid",
        limit=20,
        min_confidence=0.2,
        query_embedding=query[1],
        bump_references=bump,
    )


def _returned_rows(
    scratch: ScratchDatabase, tenant: str, queries: Sequence[Query], call: Callable[[bool], PassCall]
) -> list[tuple[list[str], list[Any]]]:
    """For each query, the (types, ids) of the rows the tool's SQL call returns (without bumping them): what
    provenance is asked of in the split."""
    returned = []
    with connect_app(scratch) as conn:
        client = MemoryClient(conn)
        for i, query in enumerate(queries):
            with tenant_transaction(conn, tenant):
                rows = call(False)(client, i, query)
            assert isinstance(rows, list)
            returned.append(([row.memory_type for row in rows], [row.memory_id for row in rows]))
    return returned


def _provenance_call(
    tenant: str, returned: Sequence[tuple[list[str], list[Any]]], client: MemoryClient, i: int, _: Query
) -> object:
    types, ids = returned[i]
    return client.conn.execute(
        "select count(*) from pymem_private.memory_provenance_many(%s, %s::text[], %s::uuid[])", (tenant, types, ids)
    ).fetchone()


def _bare_call(client: MemoryClient, _: int, __: Query) -> object:
    return client.conn.execute("select 1").fetchone()


def _query_focus_call(client: MemoryClient, _: int, query: Query) -> object:
    return client.query_focus(topic=query[0])


def _focus_vectors(
    scratch: ScratchDatabase, embedder: Embedder, tenant: str, queries: Sequence[Query]
) -> tuple[list[np.ndarray], int]:
    """The focus_embedding memory_recall's MCP tool passes for each query (pymem.mcp_server._recall_vectors): the
    query's own vector when memory_query_focus leaves the topic as it is, else the embedding of the focus; and how
    many queries have a focus of their own."""
    vectors = []
    differs = 0
    with connect_app(scratch) as conn:
        for text, vector in queries:
            with tenant_transaction(conn, tenant):
                focus = MemoryClient(conn).query_focus(topic=text)
            differs += focus != text
            vectors.append(vector if focus == text else embedder.embed(focus))
    return vectors, differs


def _split_figures(passes: dict[str, np.ndarray], embedding: np.ndarray, mcp: dict[str, Any]) -> dict[str, Any]:
    """One tool's stages, query by query, from its timed passes (seconds), in milliseconds: p50, p95 and the mean
    at the calls whose SQL time is at or above its p95; the SQL call; from mcp the MCP call and the MCP layer."""
    per_query = {
        "embedding": embedding,
        "call": passes["none"],
        "semantic": passes["semantic"] - passes["none"],
        "keyword": passes["keyword"] - passes["none"],
        "fusion_relevance": passes["legs"] - passes["semantic"] - passes["keyword"] + passes["none"],
        "graph": passes["graph"] - passes["legs"],
        "scoring": passes["sql_nobump"] - passes["graph"] - (passes["provenance"] - passes["bare"]),
        "provenance": passes["provenance"] - passes["bare"],
        "bumps": passes["sql"] - passes["sql_nobump"],
        "sql": passes["sql"],
    }
    slow = passes["sql"] >= np.percentile(passes["sql"], 95)

    def figures(seconds: np.ndarray) -> dict[str, float]:
        ms = seconds * 1000.0
        return {
            "p50_ms": round(float(np.percentile(ms, 50)), 3),
            "p95_ms": round(float(np.percentile(ms, 95)), 3),
            "at_p95_ms": round(float(ms[slow].mean()), 3),
        }

    stages: dict[str, dict[str, Any]] = {name: figures(seconds) for name, seconds in per_query.items()}
    mcp_p95 = mcp.get("p95_ms")
    layer = mcp_p95 - stages["sql"]["p95_ms"] - stages["embedding"]["p95_ms"] if finite(mcp_p95) else None
    stages["mcp_layer"] = {"p95_ms": None if layer is None else round(layer, 3)}
    stages["mcp"] = {"p50_ms": mcp.get("p50_ms"), "p95_ms": mcp_p95}
    return {"p95_calls": int(slow.sum()), "stages": stages}


def split_line(split: dict[str, Any]) -> str:
    """The split in one line, for the log: each tool's stages at its p95 calls, and its MCP layer."""
    short = {
        "embedding": "embed",
        "semantic": "sem",
        "keyword": "kw",
        "fusion_relevance": "fusion",
        "provenance": "prov",
    }
    parts = []
    for tool in SPLIT_TOOLS:
        stages = split[tool]["stages"]
        added = " + ".join(f"{short.get(s, s)} {stages[s]['at_p95_ms']:.1f}" for s in SPLIT_STAGES)
        layer = stages["mcp_layer"]["p95_ms"]
        parts.append(
            f"{tool} at its {split[tool]['p95_calls']} p95 call(s): {added} ms (SQL {stages['sql']['at_p95_ms']:.1f});"
            f" MCP layer p95 {'-' if layer is None else f'{layer:.1f}'} ms"
        )
    return "p95 split: " + "; ".join(parts)
