"""`pymem bench`: the whole run, phase by phase, with progress on stderr.

1. a scratch database (dropped, re-created, migrated) on the configured server;
2. the model: real embeddings of the base texts (for the synthetic vectors) and of the queries;
3. query embedding latency;
4. per scale (tenants x memories per tenant): bulk load, index build, then SQL and MCP latency
   of memory_search / memory_recall and hot memory as one tenant, and where their p95 goes (the
   stage split: embedding, each retrieval leg, fusion and relevance, the graph leg, scoring, provenance,
   the reference bumps); at the largest scale also the
   ingest rates (batch: a small tenant with 1% of the rows, real embeddings; MCP tools), the
   filtered recall of that small tenant and the vector index's recall;
5. `pymem serve` cold start; 6. the janitor over 10k memories; 7. the targets (targets.evaluate),
   JSON and markdown. Each phase's wall time is kept (results["phases"]).

Scales: default 10 tenants x 1k and 10k; 100k: 3 tenants x 10k and 100k (for the targets set at
100k per tenant, about 7 minutes on 2 cores); 1m: 10 tenants x 1k, 10k and 100k.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from pymem import token_counts
from pymem.config import Settings
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from pymem_dev import reports
from pymem_dev.bench import corpus, loader, measure, tables, tenant_transfer
from pymem_dev.bench.targets import evaluate
from pymem_dev.scratch import ScratchDatabase, drop, recreate, scratch_database

# scale -> (tenants, memories per tenant at each step)
SCALES: dict[str, tuple[int, list[int]]] = {
    "default": (10, [1000, 10000]),
    "100k": (3, [10000, 100000]),
    "1m": (10, [1000, 10000, 100000]),
}
# --quick: tiny sizes standing for each scale's sizes, in order (2 tenants)
QUICK_SIZES = {"default": [40, 200], "100k": [40, 400], "1m": [40, 200, 400]}
QUERY_TENANT = "t00"
SMALL_TENANT = "small"
MCP_TENANT = "ingest-mcp"
CONSOLIDATION_TENANT = "consolidation"
EMBEDDING_TENANT = "embedding-queue"


@dataclass
class BenchOptions:
    scale: str = "default"
    tenants: int | None = None
    sizes: list[int] | None = None
    queries: int | None = None
    json_path: Path | None = None
    markdown_path: Path | None = None
    quick: bool = False
    keep: bool = False
    database: str = "pymem_bench"
    command: str = "pymem bench"
    started: float | None = None  # time.perf_counter() when the command started (default: now)
    note: str | None = None  # a line for the report (e.g. what else ran on the machine)


@dataclass
class Plan:
    """The sizes of everything a run does, from the options."""

    tenants: int
    sizes: list[int]
    queries: int
    recall_queries: int
    bases: int
    mcp_ingest: int
    consolidation: int
    embedding_queue: int
    small_tenant: int
    janitor_tenants: int
    janitor_per_tenant: int
    cold_starts: int
    maintenance_work_mem: str = "4GB"
    notes: list[str] = field(default_factory=list)
    nominal: dict[int, int] = field(default_factory=dict)  # size run -> size it stands for (--quick)

    def stands_for(self, size: int) -> int:
        return self.nominal.get(size, size)


def plan(options: BenchOptions) -> Plan:
    if options.scale not in SCALES:
        raise InvalidArgumentError(f"--scale must be one of {', '.join(SCALES)}, not {options.scale!r}")
    quick = options.quick
    scale_tenants, scale_sizes = SCALES[options.scale]
    tenants = options.tenants if options.tenants is not None else (2 if quick else scale_tenants)
    nominal: dict[int, int] = {}
    if options.sizes:
        sizes = sorted(set(options.sizes))
    elif quick:
        sizes = QUICK_SIZES[options.scale]
        nominal = dict(zip(sizes, scale_sizes, strict=True))
    else:
        sizes = scale_sizes
    queries = options.queries if options.queries is not None else (8 if quick else 200)
    if tenants < 1 or tenants > 1000:
        raise InvalidArgumentError("--tenants must be between 1 and 1000")
    if not sizes or min(sizes) < 10:
        raise InvalidArgumentError("--sizes are memories per tenant, each at least 10")
    if queries < 1:
        raise InvalidArgumentError("--queries must be at least 1")
    largest = tenants * max(sizes)
    return Plan(
        tenants=tenants,
        sizes=sizes,
        queries=queries,
        recall_queries=min(queries, 5 if quick else 100),
        bases=120 if quick else 2000,
        mcp_ingest=6 if quick else 150,
        consolidation=20 if quick else 1000,
        embedding_queue=20 if quick else 2000,
        small_tenant=max(math.ceil(largest * 0.01), 30),
        janitor_tenants=tenants,
        janitor_per_tenant=max(10, (150 if quick else 10000) // tenants),
        cold_starts=1 if quick else 3,
        maintenance_work_mem="512MB" if quick else "4GB",
        nominal=nominal,
    )


class Phases:
    """Wall time of each phase of a run, in order."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.rows.append({"phase": name, "seconds": round(time.perf_counter() - started, 1)})


class Clock:
    def __init__(self, started: float | None = None) -> None:
        self.started = time.perf_counter() if started is None else started

    def log(self, message: str) -> None:
        print(f"[{time.perf_counter() - self.started:7.1f}s] {message}", file=sys.stderr, flush=True)


def _embedder(settings: Settings) -> Embedder:
    from pymem import embeddings

    factory = getattr(embeddings, "embedder_from_settings", None)
    made = factory(settings) if factory is not None else embeddings.Embedder()
    if made is None:
        raise InvalidArgumentError("PYMEM_EMBEDDINGS is off: the benchmark measures embeddings, unset it to run")
    return cast(Embedder, made)


def run(options: BenchOptions, settings: Settings | None = None) -> dict[str, Any]:
    """The whole benchmark; returns the results (also written to options.json_path / markdown_path)."""
    settings = settings or Settings.from_env()
    p = plan(options)
    clock = Clock(options.started)
    log = clock.log
    db = scratch_database(settings, options.database)
    phases = Phases()
    log(f"scratch database {db.name}: dropping, creating, migrating")
    with phases("scratch database: drop, create, migrate"):
        recreate(db)
    try:
        results = _run(options, settings, p, db, log, phases)
    finally:
        if options.keep:
            log(f"kept the scratch database {db.name}")
        else:
            drop(db)
    results["wall_s"] = round(time.perf_counter() - clock.started, 1)
    if options.json_path is not None:
        reports.write_json(results, options.json_path)
        log(f"wrote {options.json_path}")
    if options.markdown_path is not None:
        options.markdown_path.parent.mkdir(parents=True, exist_ok=True)
        options.markdown_path.write_text(tables.markdown(results))
        log(f"wrote {options.markdown_path}")
    return results


@dataclass
class _Bench:
    """What the phases of one run share: the options, the scratch database, the model and the corpus."""

    options: BenchOptions
    settings: Settings
    p: Plan
    scratch: ScratchDatabase
    log: Any
    phases: Phases
    embedder: Embedder
    source: loader.Corpus
    query_texts: list[str]
    queries: list[tuple[str, Any]]
    index_defs: list[tuple[str, str]]
    tenants: list[str]
    butlers_dir: Path
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(2026))
    counter: Any = field(default_factory=token_counts.load_tokenizer)
    loads: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Largest:
    """The figures measured at the largest scale only."""

    ingest: dict[str, Any] = field(default_factory=dict)
    filtered: dict[str, Any] = field(default_factory=dict)
    hnsw: dict[str, Any] = field(default_factory=dict)


def _run(
    options: BenchOptions, settings: Settings, p: Plan, scratch: ScratchDatabase, log: Any, phases: Phases
) -> dict[str, Any]:
    with phases("model: load, embed the base texts and the queries"):
        embedder, model_load_s = _load_model(settings, log)
        source = _base_corpus(embedder, p.bases, log)
        query_texts = corpus.query_texts(p.queries)
        query_vectors = embedder.embed_many(query_texts)

    log(f"query embedding: {p.queries} queries")
    with phases("query embedding latency"):
        query_embedding = measure.query_embedding(embedder, query_texts)
    log(f"query embedding p95 {query_embedding['p95_ms']:.2f} ms")

    with loader.migrator(scratch) as conn:
        index_defs = loader.vector_index_defs(conn)
    bench = _Bench(
        options=options,
        settings=settings,
        p=p,
        scratch=scratch,
        log=log,
        phases=phases,
        embedder=embedder,
        source=source,
        query_texts=query_texts,
        queries=list(zip(query_texts, query_vectors, strict=True)),
        index_defs=index_defs,
        tenants=[f"t{i:02d}" for i in range(p.tenants)],
        butlers_dir=Path(tempfile.mkdtemp(prefix="pymem-bench-butlers-")),
    )
    scales, largest = _scales(bench)

    second = _second_encoder(bench)

    log(f"cold start of `pymem serve`: {p.cold_starts} run(s)")
    with phases("cold start of `pymem serve`"):
        cold = measure.cold_start(scratch, QUERY_TENANT, bench.butlers_dir, p.cold_starts, log)
    log("tenant export and import: `pymem export`, `pymem import-tenant`")
    with phases("tenant export and import"):
        transfer = tenant_transfer.tenant_transfer(scratch, QUERY_TENANT, "t_imported", log)
    janitor = _janitor(bench)

    results = _results(
        bench,
        scales,
        largest,
        model_load_s=model_load_s,
        query_embedding=query_embedding,
        cold_start=cold,
        janitor=janitor,
    )
    results["tenant_transfer"] = transfer
    results["second_encoder"] = second
    results["targets"] = evaluate(results)
    return results


def _second_encoder(b: _Bench) -> dict[str, Any] | None:
    """The second encoder at the largest scale, for the query tenant (pymem_dev.bench.second_encoder); None when
    its weights are not installed (the mpnet extra) or with --quick."""
    from pymem_dev.bench import second_encoder

    if b.options.quick:
        return None
    from pymem.onnx_model import mpnet_part_files

    try:
        mpnet_part_files()
    except RuntimeError as exc:  # the mpnet extra is not installed
        b.log(f"second encoder: not measured: {exc}")
        return None
    with b.phases("second encoder: vectors of the query tenant, latency, ingest, memory"):
        return second_encoder.run(b.scratch, b.embedder, QUERY_TENANT, b.source.texts, b.queries, b.butlers_dir, b.log)


def _load_model(settings: Settings, log: Any) -> tuple[Embedder, float]:
    """The embedder, warmed up, and the seconds that took."""
    embedder = _embedder(settings)
    started = time.perf_counter()
    embedder.embed("warm up")
    model_load_s = time.perf_counter() - started
    log(f"model {embedder.model_id} loaded in {model_load_s:.1f} s")
    return embedder, model_load_s


def _base_corpus(embedder: Embedder, bases: int, log: Any) -> loader.Corpus:
    """The base texts and their real embeddings, which the synthetic rows are derived from."""
    base_texts = corpus.base_texts(bases)
    started = time.perf_counter()
    base_vectors = np.vstack(embedder.embed_many(base_texts)).astype(np.float32)
    log(f"embedded {len(base_texts)} base texts in {time.perf_counter() - started:.1f} s (real MiniLM)")
    return loader.Corpus(texts=base_texts, vectors=base_vectors, model_id=embedder.model_id)


def _scales(b: _Bench) -> tuple[list[dict[str, Any]], _Largest]:
    """Each scale in turn: load, then latency; at the largest also ingest, filtered and HNSW recall."""
    p = b.p
    scales: list[dict[str, Any]] = []
    largest = _Largest()
    for size in p.sizes:
        label = f"{size} x {p.tenants}"
        with b.phases(f"{label}: load (COPY + INSERT, vector indexes, VACUUM ANALYZE)"):
            data = _load(b, b.scratch, b.tenants, size)
        scale: dict[str, Any] = {
            "tenants": p.tenants,
            "memories_per_tenant": size,
            "nominal_per_tenant": p.stands_for(size),
            "query_tenant": QUERY_TENANT,
        }
        if size == max(p.sizes):
            with b.phases(f"{label}: ingest (batch, then MCP)"):
                largest.ingest = _ingest(b)
        _latencies(b, label, scale, data)
        if size == max(p.sizes):
            largest.filtered, largest.hnsw = _recall(b, label, scale["rows_total"])
        scales.append(scale)
    return scales, largest


def _ingest(b: _Bench) -> dict[str, Any]:
    """Ingest rates: in batches (real embeddings, the small tenant), then through the MCP tools."""
    p, log = b.p, b.log
    ingest: dict[str, Any] = {}
    log(f"ingest (batch): {p.small_tenant} memories for tenant {SMALL_TENANT!r}, real embeddings")
    ingest["batch"] = measure.batch_ingest(b.scratch, b.embedder, SMALL_TENANT, p.small_tenant, log)
    log(f"ingest (batch): {ingest['batch']['per_s']} memories/s")
    log(f"ingest (MCP): {p.mcp_ingest} memories for tenant {MCP_TENANT!r}")
    ingest["mcp"] = measure.mcp_ingest(b.scratch, b.embedder, MCP_TENANT, p.mcp_ingest, b.butlers_dir, log)
    log(f"ingest (MCP): {ingest['mcp']['per_s']} memories/s")
    # the embedding worker first: consolidation stores episodes without an embedding, which the queue would hold
    ingest["embedding_queue"] = measure.embedding_queue(b.scratch, b.embedder, EMBEDDING_TENANT, p.embedding_queue, log)
    ingest["consolidation"] = measure.consolidation(b.scratch, CONSOLIDATION_TENANT, p.consolidation, log)
    return ingest


def _latencies(b: _Bench, label: str, scale: dict[str, Any], data: list[loader.TenantData]) -> None:
    """Table sizes, memory_search / memory_recall in SQL and through MCP, hot memory and the stage split of
    memory_search / memory_recall, into scale."""
    p, log, scratch = b.p, b.log, b.scratch
    with loader.migrator(scratch) as conn:
        scale["table_sizes"] = loader.table_sizes(conn)
    scale["rows_total"] = sum(t["rows"] for t in scale["table_sizes"].values())
    log(f"{label}: memory_search / memory_recall in SQL, {p.queries} queries each")
    with b.phases(f"{label}: memory_search / memory_recall in SQL"):
        scale.update(measure.sql_queries(scratch, QUERY_TENANT, b.queries))
    log(f"{label}: memory_search / memory_recall through MCP, {p.queries} queries each")
    with b.phases(f"{label}: memory_search / memory_recall through MCP"):
        scale.update(measure.mcp_queries(scratch, b.embedder, QUERY_TENANT, b.query_texts, b.butlers_dir))
    log(f"{label}: hot memory, {p.queries} calls")
    with b.phases(f"{label}: keyword match share, hot memory"):
        scale["keyword_match_share"] = measure.keyword_share(scratch, QUERY_TENANT, b.query_texts[:20])
        scale["hot_memory"] = measure.hot_memory(scratch, data[0], p.queries)
    log(
        f"{label}: recall p95 SQL {scale['recall_sql']['p95_ms']:.1f} ms, MCP {scale['recall_mcp']['p95_ms']:.1f}"
        f" ms; search p95 SQL {scale['search_sql']['p95_ms']:.1f} ms, MCP {scale['search_mcp']['p95_ms']:.1f} ms;"
        f" hot memory p95 {scale['hot_memory']['p95_ms']:.2f} ms"
    )
    split_queries = min(p.queries, measure.SPLIT_QUERIES)
    log(f"{label}: where the p95 goes: memory_candidates leg by leg and the SQL calls, {split_queries} queries")
    with b.phases(f"{label}: where the p95 goes (stage split)"):
        mcp = {"recall": scale["recall_mcp"], "search": scale["search_mcp"]}
        scale["stage_split"] = measure.stage_split(scratch, b.embedder, QUERY_TENANT, b.queries, mcp)
    log(f"{label}: {measure.split_line(scale['stage_split'])}")


def _recall(b: _Bench, label: str, rows_total: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Filtered recall@10 on the small tenant, and the vector index's recall@10 by ef_search."""
    p, log = b.p, b.log
    log(f"filtered recall@10: tenant {SMALL_TENANT!r}, {p.recall_queries} queries")
    with b.phases(f"{label}: filtered recall@10"):
        filtered = measure.filtered_recall(b.scratch, SMALL_TENANT, b.queries[: p.recall_queries])
    filtered.update(tenant=SMALL_TENANT, tenant_rows=p.small_tenant, table_rows=rows_total)
    log(
        f"filtered recall@10 = {filtered['recall_at_k']} as configured,"
        f" {filtered['index']['recall_at_k']} through the vector index"
    )
    log(f"HNSW recall@10: {p.recall_queries} queries")
    with b.phases(f"{label}: HNSW recall@10"):
        hnsw = measure.hnsw_recall(b.scratch, [v for _, v in b.queries[: p.recall_queries]])
    log(
        f"HNSW recall@10 by ef_search ({hnsw['settings_source']}): "
        + ", ".join(f"{ef}: {r['recall_at_k']}" for ef, r in hnsw["by_ef_search"].items())
    )
    return filtered, hnsw


def _janitor(b: _Bench) -> dict[str, Any]:
    """The janitor over its own memories (10% of the episodes expired), in a database of its own, so that
    --keep keeps the largest scale's data to examine."""
    p, log = b.p, b.log
    janitor_total = p.janitor_tenants * p.janitor_per_tenant
    janitor_db = scratch_database(b.settings, f"{b.scratch.name}_janitor")
    log(f"janitor: loading {janitor_total} memories (10% of the episodes expired) into {janitor_db.name}")
    with b.phases(f"janitor: load {janitor_total} memories, run"):
        recreate(janitor_db)
        try:
            _load(b, janitor_db, b.tenants[: p.janitor_tenants], p.janitor_per_tenant, expired_share=0.1)
            janitor = measure.janitor(janitor_db, log)
        finally:
            drop(janitor_db)
    janitor["memories"] = janitor_total
    return janitor


def _results(
    b: _Bench,
    scales: list[dict[str, Any]],
    largest: _Largest,
    *,
    model_load_s: float,
    query_embedding: dict[str, Any],
    cold_start: dict[str, Any],
    janitor: dict[str, Any],
) -> dict[str, Any]:
    """The results of the run (without the targets, which are read from them)."""
    options, p = b.options, b.p
    return {
        "pymem_bench": 1,
        "command": options.command,
        "machine": reports.environment(b.scratch.migrator_dsn, b.embedder),
        "config": {
            "scale": options.scale,
            "quick": options.quick,
            "tenants": p.tenants,
            "sizes": p.sizes,
            "stands_for": {str(size): p.stands_for(size) for size in p.sizes} if p.nominal else None,
            "queries": p.queries,
            "recall_queries": p.recall_queries,
            "small_tenant_rows": p.small_tenant,
            "mcp_ingest": p.mcp_ingest,
            "consolidation": p.consolidation,
            "embedding_queue": p.embedding_queue,
            "cold_starts": p.cold_starts,
            "maintenance_work_mem": p.maintenance_work_mem,
            "database": b.scratch.name,
        },
        "model_load_s": round(model_load_s, 3),
        "data": {"notes": _notes(p, len(b.source.texts)), "loads": b.loads},
        "query_embedding": query_embedding,
        "ingest": largest.ingest,
        "cold_start": cold_start,
        "scales": scales,
        "filtered_recall": largest.filtered,
        "hnsw_recall": largest.hnsw,
        "janitor": janitor,
        "phases": b.phases.rows,
        "note": options.note,
    }


def _load(
    b: _Bench, scratch: ScratchDatabase, tenants: list[str], size: int, *, expired_share: float = 0.0
) -> list[loader.TenantData]:
    p, log, index_defs = b.p, b.log, b.index_defs
    label = f"{size} x {len(tenants)}"
    log(f"{label}: emptying tables, dropping vector indexes, loading {size * len(tenants)} memories (triggers on)")
    data = []
    with loader.migrator(scratch) as conn:
        loader.reset_tables(conn, index_defs)
        started = time.perf_counter()
        for i, tenant in enumerate(tenants):
            data.append(loader.load_tenant(conn, tenant, size, b.source, b.rng, b.counter, expired_share=expired_share))
            if (i + 1) % max(1, len(tenants) // 5) == 0 or i + 1 == len(tenants):
                log(f"{label}: loaded {i + 1}/{len(tenants)} tenants")
        copy_s = time.perf_counter() - started
        log(
            f"{label}: COPY + INSERT in {copy_s:.1f} s; building vector indexes,"
            f" maintenance_work_mem {p.maintenance_work_mem}"
        )
        started = time.perf_counter()
        timings = loader.build_indexes(conn, index_defs, p.maintenance_work_mem, workers=1)
        index_s = time.perf_counter() - started
        log(f"{label}: indexes + VACUUM ANALYZE in {index_s:.1f} s")
    b.loads.append(
        {
            "memories_per_tenant": size,
            "tenants": len(tenants),
            "rows": size * len(tenants),
            "copy_s": round(copy_s, 2),
            "index_s": round(index_s, 2),
            "steps_s": {k: round(v, 2) for k, v in timings.items()},
            "expired_episode_share": expired_share,
        }
    )
    return data


def _notes(p: Plan, bases: int) -> list[str]:
    quick = []
    if p.nominal:
        quick = [
            "--quick: tiny sizes stand for the scale's sizes ("
            + ", ".join(f"{size} for {p.stands_for(size)}" for size in p.sizes)
            + " per tenant); the targets are read at the sizes they stand for, the figures are not comparable."
        ]
    return [
        *quick,
        "Scale data is synthetic: texts are built from templates about diet, travel, work, health, finance,"
        " family, hobbies, home, tech and communication (so full-text search has real words to match); each"
        f" row's vector is derived from real MiniLM embeddings of {bases} base texts: base + U(0, 0.5) x a"
        " second base + Gaussian noise (norm 0.35), renormalised. The row's text is its base text plus a clause"
        " of the second base.",
        "Scale data was loaded as setup, not measured as ingest: the raw columns (content, embedding,"
        " token count, importance, permanence, scope, backdated created_at, ...) binary-COPYed into a staging"
        f" table, then INSERT ... SELECT into the memory tables as the migrator in chunks of {loader.CHUNK} rows,"
        " with every trigger on and the column defaults in force (the database derives decay rates, validity,"
        " rule maturity and confidence, and writes one memory_events row per memory); vector indexes dropped"
        f" before and rebuilt after with maintenance_work_mem {p.maintenance_work_mem} and one parallel worker,"
        " then VACUUM (ANALYZE) of the tables written, which autovacuum would otherwise do during the measurements"
        " (figures before 2026-11-27 were measured with it running). Embeddings are stored inline (STORAGE PLAIN).",
        "Mix per tenant: 50% facts, 35% episodes (5 butlers, 4 sessions each, created in the last 6.5 days),"
        " 15% rules; facts and rules created in the last 30 days.",
        f"The small tenant {SMALL_TENANT!r} ({p.small_tenant} memories, 1% of the largest table, at least 30)"
        " and the MCP-ingest tenant hold real embeddings of distinct texts, stored through the SQL API and the"
        " MCP tools: the ingest measurements are those stores. Filtered recall is measured on that tenant.",
        "Queries: real MiniLM embeddings of template questions; latencies are per call with a precomputed"
        " embedding (SQL) or embedding included (MCP: in-process client session against the server `pymem serve`"
        " builds), as pymem_app bound to one tenant by RLS; search and recall bump reference counts as in use.",
    ]
