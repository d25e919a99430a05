"""`pymem bench --quick` end to end on the session's embedded server: a scratch database of its
own, real MiniLM embeddings, a spawned `pymem serve`; the JSON has the eight targets with finite
numbers and the markdown report is written. Bad options fail before anything runs. The bulk loader
goes through the tables' triggers and defaults: what it loads keeps the model's invariants."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import psycopg
import pytest
from pgvector.psycopg import register_vector

from pymem import embedded, token_counts
from pymem.bench import corpus, loader
from pymem.bench.run import BenchOptions, plan, run
from pymem.cli import main
from pymem.config import Settings
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from pymem.scratch import scratch_database

TARGETS = [
    "recall_e2e_p95_ms_100k",
    "query_embed_p95_ms",
    "serve_first_call_s",
    "batch_ingest_per_s",
    "filtered_recall_at_10",
    "hot_memory_p95_ms",
    "janitor_10k_s",
    "hnsw_recall_at_10",
]
SCRATCH = "pymem_bench_test"


def test_quick_run_writes_json_with_the_eight_targets_and_markdown(
    pg_server: embedded.EmbeddedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYMEM_DSN", pg_server.conninfo())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no config file of the user's
    for name in ("PYMEM_APP_DSN", "PYMEM_CONFIG", "PYMEM_DATABASE", "PYMEM_TENANT"):
        monkeypatch.delenv(name, raising=False)
    out_json, out_md = tmp_path / "out" / "results.json", tmp_path / "out" / "results.md"
    argv = ["bench", "--quick", "--tenants", "2", "--sizes", "20,60", "--queries", "6"]
    code = main([*argv, "--database", SCRATCH, "--json", str(out_json), "--markdown", str(out_md)])
    assert code == 0

    results = json.loads(out_json.read_text())
    assert [t["name"] for t in results["targets"]] == TARGETS
    for target in results["targets"]:
        assert set(target) == {"name", "measured", "target", "unit", "met", "run"}
        assert target["run"], target
        if target["name"] == "janitor_10k_s" and target["measured"] is None:
            assert "not measured" in target["run"] and target["met"] is None
            continue
        assert isinstance(target["measured"], int | float) and math.isfinite(target["measured"]), target
        assert isinstance(target["met"], bool), target
    assert "only --scale 1m measures 100k" in results["targets"][0]["run"]

    machine = results["machine"]
    assert machine["cores"] >= 1 and machine["postgresql"] and machine["pgvector"] and machine["model_id"]
    assert [(s["memories_per_tenant"], s["tenants"]) for s in results["scales"]] == [(20, 2), (60, 2)]
    for scale in results["scales"]:
        for key in ("search_sql", "recall_sql", "search_mcp", "recall_mcp", "hot_memory"):
            assert scale[key]["n"] == 6 and 0 < scale[key]["p50_ms"] <= scale[key]["p95_ms"] <= scale[key]["p99_ms"]
        assert scale["search_sql"]["mean_results"] > 0 and scale["recall_sql"]["mean_results"] > 0
    assert results["ingest"]["batch"]["memories"] == 30 and results["ingest"]["mcp"]["per_s"] > 0
    assert results["filtered_recall"]["queries"] == 5 and results["hnsw_recall"]["rows"] > 0
    assert math.isfinite(results["filtered_recall"]["index"]["recall_at_k"])  # forced through the vector index
    assert set(results["hnsw_recall"]["by_ef_search"]) == {"40", "100", "200"}
    assert results["cold_start"]["first_call_s"][0] > 0
    assert any("COPY" in note for note in results["data"]["notes"])
    assert any("synthetic" in note for note in results["data"]["notes"])

    markdown = out_md.read_text()
    assert "## Targets" in markdown and machine["cpu"] in markdown and machine["postgresql"] in markdown
    for name in TARGETS:
        assert f"`{name}`" in markdown
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
