"""`pymem bench`: the second encoder (all-mpnet-base-v2 beside MiniLM, PYMEM_SECOND_ENCODER), measured beside the
default configuration at the largest scale, for the query tenant only.

- its vectors of the query tenant's memories: derived like MiniLM's synthetic ones, from real all-mpnet-base-v2
  embeddings of the base texts each row's text is made of (its base, plus 0.25 x the base of its clause, plus
  Gaussian noise), bulk-inserted into pymem.second_embeddings with the MD5 of the row's text (so the leg uses
  them), HNSW index built, ANALYZE;
- query embedding p95 of the second encoder (the MCP tools embed each query with both models);
- memory_search / memory_recall p95 in SQL and through MCP with the second leg, as the default configuration is
  measured just before;
- ingest: real texts embedded by the second encoder and stored through memory_second_embedding_store, as its
  worker does, in rows/s;
- memory: peak resident set of a process that loaded both models and embedded one text.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import numpy as np
from mcp.client.client import Client

from pymem.embeddings import Embedder
from pymem.second_embedding_worker import Due, SecondEmbeddingWorker
from pymem.tenancy import tenant_transaction
from pymem_dev.bench import corpus, loader, measure
from pymem_dev.scratch import ScratchDatabase

MODEL = "mpnet-qint8"
INGEST_ROWS = 128
NOISE = 0.35
CLAUSE_WEIGHT = 0.25


def _row_vectors(
    texts: Sequence[str], bases: list[str], base_vectors: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """A vector per row text: its base's (the text before "; also"), + 0.25 x its clause base's, + noise; a row not
    made of two bases gets its base's alone (the nearest by text is not looked for)."""
    index = {b.rstrip("."): i for i, b in enumerate(bases)}
    lower = {b[0].lower() + b[1:].rstrip("."): i for i, b in enumerate(bases)}
    dims = base_vectors.shape[1]
    out = np.empty((len(texts), dims), dtype=np.float32)
    for n, text in enumerate(texts):
        head, _, tail = text.partition("; also ")
        first = index.get(head.rstrip("."), n % len(bases))
        vector = base_vectors[first].copy()
        second = lower.get(tail.split(" (")[0]) if tail else None
        if second is not None:
            vector += CLAUSE_WEIGHT * base_vectors[second]
        vector += rng.normal(0.0, NOISE / np.sqrt(dims), size=dims).astype(np.float32)
        out[n] = vector / np.linalg.norm(vector)
    return out


def load_vectors(
    scratch: ScratchDatabase, first_model: str, second: Embedder, tenant: str, bases: list[str], log: Any
) -> dict[str, Any]:
    """The second encoder's vectors of every live memory of tenant, derived from its real embeddings of bases."""
    started = time.perf_counter()
    base_vectors = np.vstack(second.embed_many(bases)).astype(np.float32)
    embed_s = time.perf_counter() - started
    log(f"second encoder: embedded {len(bases)} base texts in {embed_s:.1f} s (real all-mpnet-base-v2)")
    with loader.migrator(scratch) as conn:
        rows = conn.execute(
            "select 'episode', id, content, md5(content) from pymem.episodes where tenant_id = %(t)s"
            " union all select 'fact', id, content, md5(content) from pymem.facts where tenant_id = %(t)s"
            " union all select 'rule', id, content, md5(content) from pymem.rules where tenant_id = %(t)s",
            {"t": tenant},
        ).fetchall()
        vectors = _row_vectors([r[2] for r in rows], bases, base_vectors, np.random.default_rng(31))
        started = time.perf_counter()
        with conn.cursor().copy(
            "copy pymem.second_embeddings (tenant_id, memory_type, id, embedding_model, content_md5, embedding)"
            " from stdin"
        ) as copy:
            for (kind, memory_id, _, md5), vector in zip(rows, vectors, strict=True):
                copy.write_row((tenant, kind, memory_id, second.model_id, md5, vector))
        conn.execute("analyze pymem.second_embeddings")
        # as `pymem serve` with PYMEM_SECOND_ENCODER does at start: the leg then uses this model's vectors only
        conn.execute("select * from pymem.memory_record_embedding_model(%s)", (first_model,))
        conn.execute("select * from pymem.memory_record_second_embedding_model(%s)", (second.model_id,))
        load_s = time.perf_counter() - started
    log(f"second encoder: {len(rows)} vectors of tenant {tenant!r} loaded and indexed in {load_s:.1f} s")
    return {"rows": len(rows), "base_texts": len(bases), "embed_bases_s": round(embed_s, 1), "load_s": round(load_s, 1)}


def sql_queries(
    scratch: ScratchDatabase, tenant: str, queries: Sequence[tuple[str, np.ndarray, np.ndarray]], warmup: int = 5
) -> dict[str, Any]:
    """memory_search (hybrid, limit 20) and memory_recall (limit 10) with both query embeddings precomputed."""
    from pymem.client import MemoryClient

    out: dict[str, Any] = {}
    with measure.connect_app(scratch) as conn:
        client = MemoryClient(conn)

        def search(text: str, vector: np.ndarray, second: np.ndarray) -> None:
            with tenant_transaction(conn, tenant):
                client.search_scored(query=text, limit=20, query_embedding=vector, second_query_embedding=second)

        def recall(text: str, vector: np.ndarray, second: np.ndarray) -> None:
            with tenant_transaction(conn, tenant):
                client.recall(topic=text, limit=10, query_embedding=vector, second_query_embedding=second)

        for name, fn in (("search", search), ("recall", recall)):
            calls = [lambda q=q, fn=fn: fn(*q) for q in queries]
            out[f"{name}_sql"] = measure.stats(measure._timed(calls, warmup))
    return out


def mcp_queries(
    scratch: ScratchDatabase, embedder: Embedder, second: Embedder, tenant: str, texts: Sequence[str], butlers: Path
) -> dict[str, Any]:
    """memory_search and memory_recall through an in-process MCP session against a server with the second encoder
    (each query embedded by both models)."""
    server, pool = measure.mcp_server_for(scratch, embedder, tenant, butlers, second=second)
    out: dict[str, Any] = {}

    async def run() -> None:
        async with Client(server) as client:
            for name, tool, key in (("search", "memory_search", "query"), ("recall", "memory_recall", "topic")):
                for text in texts[:5]:
                    await measure.call_tool(client, tool, {key: text})
                samples = []
                for text in texts:
                    started = time.perf_counter()
                    await measure.call_tool(client, tool, {key: text})
                    samples.append(time.perf_counter() - started)
                out[f"{name}_mcp"] = measure.stats(samples)

    try:
        anyio.run(run)
    finally:
        pool.close()
    return out


def ingest(scratch: ScratchDatabase, embedder: Embedder, second: Embedder, count: int = INGEST_ROWS) -> dict[str, Any]:
    """count real episodes of a tenant of their own stored (MiniLM embedded), then embedded by the second encoder and
    stored through memory_second_embedding_store in the worker's batches: rows/s of that step."""
    tenant = "second-ingest"
    texts = corpus.unique_texts(count, seed=41)
    vectors = embedder.embed_many(texts)
    with measure.connect_app(scratch) as conn, tenant_transaction(conn, tenant):
        ids = []
        for text, vector in zip(texts, vectors, strict=True):
            row = conn.execute(
                "select memory_id from pymem.memory_store_episode(content => %s, butler => 'bench',"
                " embedding => %s, embedding_model => %s)",
                (text, vector, embedder.model_id),
            ).fetchone()
            assert row is not None
            ids.append(row[0])
        md5s = dict(conn.execute("select id, md5(content) from pymem.episodes where id = any(%s)", (ids,)).fetchall())
    worker = SecondEmbeddingWorker(dsn=scratch.migrator_dsn, embedder=second)
    rows = [Due(tenant, "episode", i, t, md5s[i]) for i, t in zip(ids, texts, strict=True)]
    started = time.perf_counter()
    stored = 0
    with loader.migrator(scratch) as conn:
        for start in range(0, len(rows), worker.batch):
            chunk = rows[start : start + worker.batch]
            stored += worker.store(conn, chunk, second.embed_many([r.content for r in chunk]))
    seconds = time.perf_counter() - started
    return {"rows": stored, "seconds": round(seconds, 2), "per_s": round(stored / seconds, 1)}


# VmHWM, not getrusage's ru_maxrss: a child keeps the ru_maxrss of the process it was forked from (the bench)
PEAK_RSS = """
import re, sys
from pymem.embeddings import Embedder
for name in sys.argv[1:]:
    Embedder(name).embed("warm up")
print(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1))
"""


def peak_rss_mb(*models: str) -> float:
    """Peak resident set (MB) of a fresh process that loaded the models and embedded one text with each."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, *models], capture_output=True, text=True, check=True, timeout=600
    )
    return round(int(done.stdout.strip().splitlines()[-1]) / 1024, 1)


def run(
    scratch: ScratchDatabase,
    embedder: Embedder,
    tenant: str,
    bases: list[str],
    queries: Sequence[tuple[str, np.ndarray]],
    butlers: Path,
    log: Any,
) -> dict[str, Any]:
    """Everything above; the default configuration's figures are the scale's own."""
    started = time.perf_counter()
    second = Embedder(MODEL)
    second.embed("warm up")
    result: dict[str, Any] = {"model": second.model_id, "model_load_s": round(time.perf_counter() - started, 2)}
    result["vectors"] = load_vectors(scratch, embedder.model_id, second, tenant, bases, log)
    texts = [text for text, _ in queries]
    result["query_embedding"] = measure.query_embedding(second, texts)
    log(f"second encoder: query embedding p95 {result['query_embedding']['p95_ms']:.1f} ms")
    both = [(text, vector, second.embed(text)) for text, vector in queries]
    result.update(sql_queries(scratch, tenant, both))
    result.update(mcp_queries(scratch, embedder, second, tenant, texts, butlers))
    log(
        f"second encoder: recall p95 SQL {result['recall_sql']['p95_ms']:.1f} ms, MCP"
        f" {result['recall_mcp']['p95_ms']:.1f} ms; search p95 SQL {result['search_sql']['p95_ms']:.1f} ms, MCP"
        f" {result['search_mcp']['p95_ms']:.1f} ms"
    )
    result["ingest"] = ingest(scratch, embedder, second)
    log(f"second encoder: ingest {result['ingest']['per_s']} rows/s (embed + memory_second_embedding_store)")
    result["peak_rss_mb"] = {"minilm": peak_rss_mb("minilm"), "minilm+mpnet-qint8": peak_rss_mb("minilm", MODEL)}
    log(f"second encoder: peak RSS {result['peak_rss_mb']}")
    return result
