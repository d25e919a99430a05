"""`pymem bench --quick --scale 100k` end to end on the session's embedded server: a scratch database
of its own, real MiniLM embeddings, a spawned `pymem serve`; the JSON has the eleven targets with
finite numbers, each saying where it was measured, and the markdown report is written. The targets'
logic (met, missed, not measured at 100k) is checked as a pure function of a results dict. Bad options
fail before anything runs. The bulk loader goes through the tables' triggers and defaults: what it
loads keeps the model's invariants."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from pymem import embedded, token_counts
from pymem.cli import build_parser, main
from pymem.config import Settings
from pymem.database import Database
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from pymem_dev.bench import corpus, loader, measure, tables
from pymem_dev.bench.run import BenchOptions, plan, run
from pymem_dev.bench.targets import evaluate
from pymem_dev.cli.bench import _command, target_line
from pymem_dev.scratch import ScratchDatabase, scratch_database
from tests.conftest import app_dsn_for

TARGETS = [
    "recall_e2e_p95_ms_100k",
    "search_e2e_p95_ms_100k",
    "growth_recall_p95_100k_over_10k",
    "growth_search_p95_100k_over_10k",
    "query_embed_p95_ms",
    "serve_first_call_s",
    "batch_ingest_per_s",
    "filtered_recall_at_10",
    "hot_memory_p95_ms",
    "janitor_10k_s",
    "hnsw_recall_at_10",
]
SCRATCH = "pymem_bench_test"


AT_100K = TARGETS[:4]
ROW_KEYS = {"name", "measured", "target", "goal", "unit", "met", "goal_met", "status", "measured_at", "run"}


def test_quick_run_writes_json_with_the_targets_and_markdown(
    pg_server: embedded.EmbeddedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYMEM_DSN", pg_server.conninfo())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no config file of the user's
    for name in ("PYMEM_APP_DSN", "PYMEM_CONFIG", "PYMEM_DATABASE", "PYMEM_TENANT"):
        monkeypatch.delenv(name, raising=False)
    out_json, out_md = tmp_path / "out" / "results.json", tmp_path / "out" / "results.md"
    argv = ["bench", "--quick", "--scale", "100k", "--queries", "6", "--note", "a line about the machine"]
    code = main([*argv, "--database", SCRATCH, "--json", str(out_json), "--markdown", str(out_md)])
    assert code == 0

    results = json.loads(out_json.read_text())
    queue = results["ingest"]["embedding_queue"]  # the embedding worker: a backlog of 20, then 5 probes at idle
    assert queue["memories"] == 20 and queue["per_s"] > 0 and len(queue["idle_latency_s"]) == 5
    assert "- embedding worker: " in out_md.read_text()
    transfer = results["tenant_transfer"]  # pymem export and pymem import-tenant of the query tenant (400 rows)
    assert transfer["export"]["rows"] == transfer["import"]["rows"] >= 400 and transfer["baseline_rss_mb"] > 0
    assert transfer["partitions"]["target"] != transfer["partitions"]["tenant"]  # new vectors for the HNSW graph
    for step in ("export", "export_with_embeddings", "import"):
        assert transfer[step]["rows_per_s"] > 0 and transfer[step]["peak_rss_mb"] > 0
    assert "- tenant export and import" in out_md.read_text()
    assert [t["name"] for t in results["targets"]] == TARGETS
    for target in results["targets"]:
        assert set(target) == ROW_KEYS
        assert target["run"], target
        if target["name"] == "janitor_10k_s" and target["measured"] is None:
            assert "not measured" in target["run"] and target["met"] is None
            continue
        assert isinstance(target["measured"], int | float) and math.isfinite(target["measured"]), target
        assert isinstance(target["met"], bool), target
        assert target["status"] == ("met" if target["met"] else "missed"), target
        assert "--quick" in target["run"] and target["measured_at"], target
    # --quick: 40 and 400 per tenant stand for 10k and 100k, so the 100k targets are read (not comparable)
    assert results["config"]["stands_for"] == {"40": 10000, "400": 100000}
    for target in results["targets"][:2]:
        assert target["measured_at"].startswith("400 per tenant x 2 tenants") and "100000" in target["measured_at"]
    assert results["targets"][2]["measured_at"].startswith("400 vs 40 per tenant")
    assert results["targets"][0]["goal"] == "<= 25" and results["targets"][0]["target"] == "<= 40"

    machine = results["machine"]
    assert machine["cores"] >= 1 and machine["postgresql"] and machine["pgvector"] and machine["model_id"]
    assert [(s["memories_per_tenant"], s["tenants"]) for s in results["scales"]] == [(40, 2), (400, 2)]
    for scale in results["scales"]:
        for key in ("search_sql", "recall_sql", "search_mcp", "recall_mcp", "hot_memory"):
            assert scale[key]["n"] == 6 and 0 < scale[key]["p50_ms"] <= scale[key]["p95_ms"] <= scale[key]["p99_ms"]
        assert scale["search_sql"]["mean_results"] > 0 and scale["recall_sql"]["mean_results"] > 0
    for scale in results["scales"]:  # where the p95 goes, at each scale (test_stage_split_adds_up checks the figures)
        split = scale["stage_split"]
        assert split["queries"] == 6 and split["recall"]["p95_calls"] >= 1 and split["search"]["p95_calls"] >= 1
        for tool in ("recall", "search"):
            assert list(split[tool]["stages"]) == [*measure.SPLIT_STAGES, "sql", "mcp_layer", "mcp"]
            assert split[tool]["stages"]["mcp"]["p95_ms"] == scale[f"{tool}_mcp"]["p95_ms"]
            assert math.isfinite(split[tool]["stages"]["mcp_layer"]["p95_ms"])
    assert results["ingest"]["batch"]["memories"] == 30 and results["ingest"]["mcp"]["per_s"] > 0
    assert results["filtered_recall"]["queries"] == 5 and results["hnsw_recall"]["rows"] > 0
    assert math.isfinite(results["filtered_recall"]["index"]["recall_at_k"])  # forced through the vector index
    assert set(results["hnsw_recall"]["by_ef_search"]) >= {"40", "100", "200"}
    assert str(results["hnsw_recall"]["ef_search"]) in results["hnsw_recall"]["by_ef_search"]
    assert "memory_candidates" in results["hnsw_recall"]["settings_source"]
    # the rules and episodes, each at the list searches set for it; the target reads the least of the tables
    others = results["hnsw_recall"]["other_tables"]
    assert set(others) == {"pymem.rules", "pymem.episodes"}, others
    assert all(o["rows"] > 0 and o["ef_search"] >= 200 and 0 <= o["recall_at_k"] <= 1 for o in others.values())
    assert results["hnsw_recall"]["least_recall_at_k"] == min(
        [results["hnsw_recall"]["recall_at_k"], *(o["recall_at_k"] for o in others.values())]
    )
    assert results["phases"][0]["phase"].startswith("scratch database")
    assert any(p["phase"].startswith("400 x 2: load") for p in results["phases"])
    assert results["cold_start"]["first_call_s"][0] > 0
    assert any("COPY" in note for note in results["data"]["notes"])
    assert any("synthetic" in note for note in results["data"]["notes"])

    markdown = out_md.read_text()
    assert "## Targets" in markdown and machine["cpu"] in markdown and machine["postgresql"] in markdown
    for name in TARGETS:
        assert f"`{name}`" in markdown
    header = next(line for line in markdown.splitlines() if line.startswith("| target "))
    assert [cell.strip() for cell in header.strip("|").split("|")] == [
        "target",
        "measured",
        "target",
        "goal",
        "met",
        "measured at",
        "run",
    ]
    assert "## Where the time went" in markdown
    assert "## Where the p95 goes (largest scale: 400 x 2, ms)" in markdown
    for row in ("| scoring ", "| provenance of the returned rows ", "| reference bumps of the returned rows "):
        assert any(line.startswith(row) for line in markdown.splitlines()), row
    assert "a line about the machine" in markdown
    with psycopg.connect(pg_server.conninfo(), autocommit=True) as conn:
        gone = conn.execute("select count(*) from pg_database where datname = %s", (SCRATCH,)).fetchone()
    assert gone == (0,), "the scratch database is dropped after the run (no --keep)"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (BenchOptions(scale="10m"), "--scale"),
        (BenchOptions(sizes=[5]), "--sizes"),
        (BenchOptions(tenants=0), "--tenants"),
        (BenchOptions(queries=0), "--queries"),
    ],
)
def test_bad_options_are_refused_before_anything_runs(options: BenchOptions, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        plan(options)


def test_never_benchmarks_in_the_memories_database(tmp_path: Path) -> None:
    settings = Settings(dsn="host=/nowhere dbname=pymem_bench", data_dir=tmp_path)
    with pytest.raises(InvalidArgumentError, match="is the configured database"):
        scratch_database(settings, "pymem_bench")
    with pytest.raises(InvalidArgumentError, match="is the configured database"):
        run(BenchOptions(database="pymem"), Settings(dsn="host=/nowhere", data_dir=tmp_path))


def test_cli_rejects_bad_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--sizes", "ten"])
    assert "comma-separated integers" in capsys.readouterr().err


def test_bulk_loaded_rows_keep_the_models_invariants(
    db_dsn: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "CHUNK", 7)  # several transactions per table
    texts = corpus.base_texts(24)
    source = loader.Corpus(texts, np.vstack(embedder.embed_many(texts)).astype(np.float32), embedder.model_id)
    rng = np.random.default_rng(5)
    counter = token_counts.load_tokenizer()
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        register_vector(conn)
        loaded = [loader.load_tenant(conn, t, 60, source, rng, counter, expired_share=0.5) for t in ("a", "b")]

        for data in loaded:
            for kind, table in (("fact", "facts"), ("episode", "episodes"), ("rule", "rules")):
                row = conn.execute(f"select count(*) from pymem.{table} where tenant_id = %s", (data.tenant,))
                assert row.fetchone() == (data.counts[kind],), (data.tenant, table)
        # decay rates are the database's, from permanence; facts are active, nothing superseded
        facts = conn.execute(
            "select count(*), count(distinct permanence),"
            " count(*) filter (where decay_rate is distinct from pymem.memory_decay_rate(permanence)),"
            " count(*) filter (where validity <> 'active' or invalidated_at is not null or supersedes_id is not null),"
            " count(*) filter (where last_confirmed_at <> created_at or created_at > now() - interval '1 minute')"
            " from pymem.facts"
        ).fetchone()
        assert facts is not None and facts[0] == 60 and facts[1] >= 3 and facts[2:] == (0, 0, 0), facts
        # rules are stored as memory_store_rule stores them: candidates with the confidence of that maturity
        rules = conn.execute(
            "select count(*), count(*) filter (where maturity <> 'candidate'"
            " or confidence is distinct from pymem.memory_rule_confidence(maturity)"
            " or decay_rate is distinct from pymem.memory_decay_rate(permanence)) from pymem.rules"
        ).fetchone()
        assert rules is not None and rules[0] > 0 and rules[1] == 0, rules
        # episodes expire a ttl after they were stored; about half of them already have
        episodes = conn.execute(
            "select count(*) filter (where expires_at <> created_at + interval '7 days'),"
            " count(*) filter (where expires_at < now()), count(*) from pymem.episodes"
        ).fetchone()
        assert episodes is not None and episodes[0] == 0 and 0 < episodes[1] < episodes[2], episodes
        # the audit trigger ran: one insert event per memory, into the state the database computes
        for kind, table in (("fact", "facts"), ("episode", "episodes"), ("rule", "rules")):
            events = conn.execute(
                f"select count(*), count(e.memory_id),"
                f" count(*) filter (where e.to_state is distinct from"
                f" pymem_private.memory_state(%s, to_jsonb(m) - 'embedding'))"
                f" from pymem.{table} m left join pymem.memory_events e on e.tenant_id = m.tenant_id"
                f" and e.memory_type = %s and e.memory_id = m.id and e.operation = 'insert'",
                (kind, kind),
            ).fetchone()
            assert events is not None and events[0] == events[1] > 0 and events[2] == 0, (table, events)


def test_each_tenant_is_counted_in_its_partition_after_its_first_chunk(
    db_dsn: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tables are partitioned by tenant: a tenant loaded into an empty partition, or beside another tenant, is
    planned as if it had no rows there until its partition is counted, and the supersession trigger's cached lookup
    then scans the tenant's facts once per row (the 1M load took 828 s instead of 442). The loader counts the
    tenant's own partition after its first chunk: b goes into an empty partition, c beside b."""
    monkeypatch.setattr(loader, "CHUNK", 7)
    monkeypatch.setattr(loader, "FIRST_CHUNK", 5)
    texts = corpus.base_texts(24)
    source = loader.Corpus(texts, np.vstack(embedder.embed_many(texts)).astype(np.float32), embedder.model_id)
    rng = np.random.default_rng(7)
    counter = token_counts.load_tokenizer()
    tables = ["pymem.facts", "pymem.episodes", "pymem.rules"]
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        register_vector(conn)

        def partitions(tenant: str) -> list[str]:
            row = conn.execute("select pymem.memory_tenant_partitions(%s, %s)", (tenant, tables)).fetchone()
            assert row is not None
            return list(row[0])

        def rows_and_count(tenant: str) -> list[tuple[str, float, int]]:
            """Each of the tenant's partitions: the planner's count of it (pg_class.reltuples) and its rows."""
            return [
                (p, float(reltuples), int(rows))
                for p, reltuples, rows in conn.execute(
                    "select p, (select c.reltuples from pg_class c where c.oid = p::regclass),"
                    " (select count(*) from pymem.facts where tableoid = p::regclass)"
                    " + (select count(*) from pymem.episodes where tableoid = p::regclass)"
                    " + (select count(*) from pymem.rules where tableoid = p::regclass)"
                    " from unnest(%s::text[]) as p",
                    (partitions(tenant),),
                ).fetchall()
            ]

        # b: a partition of its own (however many the tests' database has); c: b's
        names = [f"t{i}" for i in range(64)]
        a = names[0]
        b = next(n for n in names if partitions(n) != partitions(a))
        c = next(n for n in names if n != b and partitions(n) == partitions(b))
        for tenant in (a, b, c):
            before = {p: rows for p, _, rows in rows_and_count(tenant)}
            loader.load_tenant(conn, tenant, 60, source, rng, counter)
            # counted after the tenant's first chunk: what the partition held before and those 5 rows
            assert [(p, reltuples) for p, reltuples, _ in rows_and_count(tenant)] == [
                (p, before[p] + 5.0) for p in partitions(tenant)
            ], tenant


def test_the_vector_indexes_come_back_on_every_partition(db_dsn: str) -> None:
    """The bench drops the vector indexes before a load and builds them after from their definitions: a partitioned
    table's is defined `ON ONLY` its parent, which would build an invalid index on the parent and none on its
    partitions (every search then sorts every row of the tenant)."""
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        defs = loader.vector_index_defs(conn)
        assert {name for name, _ in defs} >= {"facts_embedding_idx", "rules_embedding_idx", "episodes_embedding_idx"}
        loader.reset_tables(conn, defs)
        loader.build_indexes(conn, defs, "64MB", workers=0)
        built = conn.execute(
            """
            select i.indexrelid::regclass::text, i.indisvalid,
                   (select count(*) from pg_partition_tree(i.indexrelid) t where t.isleaf),
                   (select count(*) from pg_partition_tree(i.indrelid) t where t.isleaf)
              from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
             where a.amname = 'hnsw' and i.indrelid in ('pymem.facts'::regclass, 'pymem.rules'::regclass,
                                                        'pymem.episodes'::regclass)
            """
        ).fetchall()
    assert len(built) == 3 and all(valid and leaves == partitions > 1 for _, valid, leaves, partitions in built), built


def test_stage_split_adds_up_to_the_sql_call(db_dsn: str, embedder: Embedder) -> None:
    """measure.stage_split on a tiny real database (two tenants of 60 memories loaded as the bench loads them, real
    embeddings of 8 queries): every stage of both tools has its p50, p95 and mean at the p95 calls, the stages of
    those calls add up to their SQL time, the MCP layer is the difference of the p95s, memory_candidates was asked
    as each tool asks it; the report renders the table."""
    texts = corpus.base_texts(24)
    source = loader.Corpus(texts, np.vstack(embedder.embed_many(texts)).astype(np.float32), embedder.model_id)
    counter = token_counts.load_tokenizer()
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        register_vector(conn)
        for tenant in ("t00", "t01"):
            loader.load_tenant(conn, tenant, 60, source, np.random.default_rng(3), counter)
    database = Database(migrator_dsn=db_dsn, app_dsn=app_dsn_for(db_dsn))
    scratch = ScratchDatabase(name="stage_split", admin_dsn=db_dsn, database=database)
    query_texts = corpus.query_texts(8)
    queries = list(zip(query_texts, embedder.embed_many(query_texts), strict=True))
    mcp = {"recall": {"p50_ms": 30.0, "p95_ms": 50.0}, "search": {"p50_ms": 40.0, "p95_ms": 60.0}}

    split = measure.stage_split(scratch, embedder, "t00", queries, mcp)

    assert (split["queries"], split["tenant"], split["warmup"]) == (8, "t00", 6)
    for tool, asked in (("recall", "types {fact,rule}, depth 30"), ("search", "types {episode,fact,rule}, depth 20")):
        figures, stages = split[tool], split[tool]["stages"]
        assert asked in figures["candidates"] and figures["sql_call"].startswith(f"pymem.memory_{tool}(")
        assert list(stages) == [*measure.SPLIT_STAGES, "sql", "mcp_layer", "mcp"]
        for name in (*measure.SPLIT_STAGES, "sql"):
            assert set(stages[name]) == {"p50_ms", "p95_ms", "at_p95_ms"}, name
            assert all(math.isfinite(v) for v in stages[name].values()), (name, stages[name])
        for name in ("embedding", "call", "sql"):  # timed calls, not differences
            assert 0 < stages[name]["p50_ms"] <= stages[name]["p95_ms"], (name, stages[name])
        assert 1 <= figures["p95_calls"] <= 8
        assert figures["returned_rows"] > 0  # provenance and the bumps were timed over rows the tool returns
        # from the transaction to the reference bumps, the stages of the slow calls add up to their SQL time
        added = sum(stages[name]["at_p95_ms"] for name in measure.SPLIT_STAGES if name != "embedding")
        assert added == pytest.approx(stages["sql"]["at_p95_ms"], abs=0.01)
        layer = mcp[tool]["p95_ms"] - stages["sql"]["p95_ms"] - stages["embedding"]["p95_ms"]
        assert stages["mcp_layer"]["p95_ms"] == pytest.approx(layer, abs=0.002)
        assert stages["mcp"] == mcp[tool]
    assert split["recall"]["query_focus"]["n"] == 8 and 0 <= split["recall"]["focus_differs"] <= 8
    assert "p95 split: recall at its" in measure.split_line(split)

    report = tables.markdown_stage_split({"scales": [{"memories_per_tenant": 60, "tenants": 2, "stage_split": split}]})
    lines = "\n".join(report).splitlines()
    assert "## Where the p95 goes (largest scale: 60 x 2, ms)" in lines
    rows = [line for line in lines if line.startswith("| ")]
    assert [c.strip() for c in rows[0].strip("|").split("|")] == [
        "stage",
        "recall p50",
        "recall p95",
        "recall at the p95 calls",
        "search p50",
        "search p95",
        "search at the p95 calls",
    ]
    assert [r.split("|")[1].strip() for r in rows[1:]] == [name for _, name in tables.SPLIT_ROWS]
    assert tables.markdown_stage_split({"scales": [{"memories_per_tenant": 60, "tenants": 2}]}) == []


def _results(p95: dict[int, tuple[float, float]], *, quick: bool = False, tenants: int = 3) -> dict[str, Any]:
    """A results dict as run() makes it, with {memories per tenant: (recall MCP p95, search MCP p95)}."""
    scales = [
        {
            "memories_per_tenant": size,
            "tenants": tenants,
            "rows_total": size * tenants,
            "recall_mcp": {"n": 200, "p95_ms": recall},
            "search_mcp": {"n": 200, "p95_ms": search},
            "recall_sql": {"n": 200, "p95_ms": recall - 5},
            "search_sql": {"n": 200, "p95_ms": search - 5},
            "hot_memory": {"n": 200, "p95_ms": 0.7},
        }
        for size, (recall, search) in sorted(p95.items())
    ]
    return {
        "config": {"quick": quick},
        "machine": {"model_backend": "onnx", "model_variant": "fp32"},
        "query_embedding": {"n": 200, "p95_ms": 2.5},
        "cold_start": {"runs": 3, "first_call_median_s": 1.8},
        "ingest": {"batch": {"memories": 3000, "per_s": 247.2}},
        "filtered_recall": {"queries": 100, "recall_at_k": 1.0, "tenant_rows": 3000, "table_rows": 303150},
        "hnsw_recall": {"queries": 100, "recall_at_k": 0.872, "ef_search": 100, "by_ef_search": {}},
        "janitor": {"measured": True, "seconds": 3.9, "memories": 9999},
        "scales": scales,
    }


def _rows(results: dict[str, Any]) -> dict[str, dict[str, Any]]:
    rows = evaluate(results)
    assert [r["name"] for r in rows] == TARGETS
    assert all(set(r) == ROW_KEYS for r in rows)
    return {r["name"]: r for r in rows}


def test_targets_at_100k_met_missed_and_goal() -> None:
    rows = _rows(_results({10000: (30.0, 40.0), 100000: (40.0, 28.0)}))
    recall, search = rows["recall_e2e_p95_ms_100k"], rows["search_e2e_p95_ms_100k"]
    assert (recall["measured"], recall["target"], recall["goal"]) == (40.0, "<= 40", "<= 25")
    assert (recall["met"], recall["goal_met"], recall["status"]) == (True, False, "met")
    assert (search["met"], search["goal_met"]) == (True, True)
    assert recall["measured_at"] == "100000 per tenant x 3 tenants (300000 rows)"
    assert rows["growth_recall_p95_100k_over_10k"]["measured"] == 1.33
    assert rows["growth_recall_p95_100k_over_10k"]["met"] is True
    assert rows["growth_search_p95_100k_over_10k"]["measured"] == 0.7
    assert rows["growth_search_p95_100k_over_10k"]["measured_at"] == "100000 vs 10000 per tenant x 3 tenants"
    assert rows["hnsw_recall_at_10"]["met"] is False and rows["filtered_recall_at_10"]["met"] is True
    assert "(0.99%)" in rows["filtered_recall_at_10"]["run"]
    for name in ("serve_first_call_s", "batch_ingest_per_s", "hot_memory_p95_ms", "hnsw_recall_at_10"):
        assert rows[name]["measured_at"] == recall["measured_at"], name

    # today's figures (before the issue-14 speed work): everything at 100k missed, growth about 6x
    rows = _rows(_results({10000: (42.6, 61.4), 100000: (262.0, 400.4)}))
    assert [rows[n]["status"] for n in AT_100K] == ["missed"] * 4
    assert rows["growth_recall_p95_100k_over_10k"]["measured"] == 6.15
    assert "SQL alone" in rows["growth_search_p95_100k_over_10k"]["run"]


def test_targets_at_100k_are_not_measured_when_100k_was_not_run() -> None:
    rows = _rows(_results({1000: (20.0, 30.0), 10000: (48.3, 71.9)}, tenants=10))  # the default `make bench`
    for name in AT_100K:
        row = rows[name]
        assert row["measured"] is None and row["met"] is None and row["goal_met"] is None, row
        assert row["status"] == "not measured" and row["measured_at"] is None, row
        assert "not measured" in row["run"] and "--scale 100k" in row["run"], row
    # the 10k figure is named, as not comparable, never compared with the 100k target
    assert "largest scale run is 10000 per tenant x 10 tenants" in rows["recall_e2e_p95_ms_100k"]["run"]
    assert "48.3 ms, not comparable" in rows["recall_e2e_p95_ms_100k"]["run"]
    assert "100k per tenant not run" in rows["growth_recall_p95_100k_over_10k"]["run"]
    assert rows["hot_memory_p95_ms"]["measured_at"].startswith("10000 per tenant x 10 tenants")
    assert rows["query_embed_p95_ms"]["status"] == "met"

    # 100k alone: the 100k targets are read, the growth needs 10k too
    rows = _rows(_results({100000: (40.0, 50.0)}))
    assert rows["recall_e2e_p95_ms_100k"]["met"] is True
    assert rows["growth_search_p95_100k_over_10k"]["status"] == "not measured"
    assert "10k per tenant not run" in rows["growth_search_p95_100k_over_10k"]["run"]

    lines = [target_line(r) for r in evaluate(_results({1000: (20.0, 30.0), 10000: (48.3, 71.9)}))]
    assert "(<= 40, goal <= 25) not measured at 100k per tenant" in lines[0]
    assert "met, measured at 10000 per tenant x 3 tenants" in lines[8]


def test_quick_sizes_stand_for_the_scale_and_say_so() -> None:
    results = _results({40: (5.0, 6.0), 400: (6.0, 7.0)}, quick=True, tenants=2)
    for scale, stands_for in zip(results["scales"], (10000, 100000), strict=True):
        scale["nominal_per_tenant"] = stands_for
    rows = _rows(results)
    assert rows["recall_e2e_p95_ms_100k"]["met"] is True and "--quick" in rows["recall_e2e_p95_ms_100k"]["run"]
    assert rows["recall_e2e_p95_ms_100k"]["measured_at"].endswith("standing in for 100000 per tenant")
    assert rows["growth_recall_p95_100k_over_10k"]["measured_at"] == (
        "400 vs 40 per tenant x 2 tenants, standing in for 100000 vs 10000"
    )


def test_scale_100k_option() -> None:
    args = build_parser().parse_args(["bench", "--scale", "100k", "--note", "shared machine"])
    assert (args.scale, args.note) == ("100k", "shared machine")
    p = plan(BenchOptions(scale="100k"))
    assert (p.tenants, p.sizes, p.nominal) == (3, [10000, 100000], {})
    assert p.small_tenant == 3000  # 1% of the 300k rows
    assert plan(BenchOptions(scale="1m")).sizes == [1000, 10000, 100000]
    assert (plan(BenchOptions()).tenants, plan(BenchOptions()).sizes) == (10, [1000, 10000])
    quick = plan(BenchOptions(scale="100k", quick=True))
    assert (quick.tenants, quick.sizes, quick.stands_for(400)) == (2, [40, 400], 100000)
    assert plan(BenchOptions(scale="100k", tenants=5, sizes=[2000])).sizes == [2000]
    # the report prints the note on its own line, not inside the command
    assert _command(["bench", "--scale", "100k", "--note", "shared machine", "--quick"]) == (
        "pymem bench --scale 100k --quick"
    )
    assert _command(["bench", "--note=shared", "--scale", "1m"]) == "pymem bench --scale 1m"


def test_cli_rejects_an_unknown_scale(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "--scale", "10k"])
    assert "invalid choice" in capsys.readouterr().err


def test_hnsw_target_reads_the_settings_searches_use(db_dsn: str) -> None:
    with psycopg.connect(db_dsn, autocommit=True) as conn:
        used = measure.search_settings(conn)
    assert used["ef_search"] == 200 and used["iterative_scan"] == "relaxed_order", used
    assert "memory_search limit 20 (depth 20) -> 200" in used["source"], used
    assert "hnsw_ef_search" in used["source"], used


def test_the_hnsw_target_reads_the_least_recall_of_the_tables() -> None:
    """Each vector table is searched at its own list, so the target holds only if it holds for every table: a rules
    index below 0.95 at its list misses it even when the facts' is met."""
    results = _results({10000: (30.0, 40.0), 100000: (40.0, 28.0)})
    results["hnsw_recall"].update(
        recall_at_k=0.97,
        other_tables={
            "pymem.rules": {"rows": 150000, "ef_search": 300, "recall_at_k": 0.93, "min": 0.5},
            "pymem.episodes": {"rows": 350000, "ef_search": 700, "recall_at_k": 0.99, "min": 0.9},
        },
        least_recall_at_k=0.93,
    )
    row = _rows(results)["hnsw_recall_at_10"]
    assert (row["measured"], row["met"]) == (0.93, False)
    assert "pymem.rules (150000 rows) at 300: 0.93" in row["run"] and "the least of the tables" in row["run"]
    # a results file from before the other tables were measured reads the facts alone
    del results["hnsw_recall"]["other_tables"], results["hnsw_recall"]["least_recall_at_k"]
    assert _rows(results)["hnsw_recall_at_10"]["measured"] == 0.97
