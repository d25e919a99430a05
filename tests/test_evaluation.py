"""The evaluation harness (`pymem eval`): metrics computed by hand, the golden dataset's coverage,
an end-to-end run on the real database and MiniLM, and the BEIR loader on a tiny folder."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from pymem.config import Settings
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from pymem.evaluation import beir, calibration, metrics, reference, run, tables
from pymem.evaluation.dataset import CATEGORIES, DatasetError, load_dataset, parse_dataset
from pymem.evaluation.golden import CHECK_KINDS
from pymem.reports import strict
from pymem.scratch import recreate, scratch_database
from pymem.tenancy import tenant_transaction
from tests.conftest import app_dsn_for

# Metrics: ranked a x b y c; relevant a=2, b=1, c=1, d=2 (d never retrieved)
RANKED = ["a", "x", "b", "y", "c"]
GRADES = {"a": 2, "b": 1, "c": 1, "d": 2}


def test_precision_and_recall_at_k_by_hand() -> None:
    assert metrics.precision_at_k(RANKED, GRADES, 1) == 1.0
    assert metrics.precision_at_k(RANKED, GRADES, 3) == pytest.approx(2 / 3)
    assert metrics.precision_at_k(RANKED, GRADES, 10) == pytest.approx(3 / 10)  # a short list is not padded away
    assert metrics.recall_at_k(RANKED, GRADES, 3) == pytest.approx(2 / 4)
    assert metrics.recall_at_k(RANKED, GRADES, 5) == pytest.approx(3 / 4)
    assert metrics.recall_at_k(RANKED, {}, 5) == 1.0
    assert metrics.recall_at_k(RANKED, {"a": 0}, 5) == 1.0  # grade 0 is not relevant
    with pytest.raises(ValueError):
        metrics.precision_at_k(RANKED, GRADES, 0)


def test_reciprocal_rank_by_hand() -> None:
    assert metrics.reciprocal_rank(RANKED, GRADES) == 1.0
    assert metrics.reciprocal_rank(["x", "y", "b"], GRADES) == pytest.approx(1 / 3)
    assert metrics.reciprocal_rank(["x", "y", "b"], GRADES, k=2) == 0.0
    assert metrics.reciprocal_rank([], GRADES) == 0.0


def test_ndcg_with_graded_relevance_by_hand() -> None:
    # DCG@5 = (2^2-1)/log2 2 + (2^1-1)/log2 4 + (2^1-1)/log2 6 = 3 + 0.5 + 0.38685 = 3.88685
    # IDCG@5 (grades 2, 2, 1, 1) = 3 + 3/log2 3 + 1/log2 4 + 1/log2 5 = 5.82347
    assert metrics.dcg_at_k([2, 0, 1, 0, 1], 5) == pytest.approx(3.886853, abs=1e-6)
    assert metrics.ndcg_at_k(RANKED, GRADES, 5) == pytest.approx(3.886853 / 5.823466, abs=1e-6)
    assert metrics.ndcg_at_k(["a", "d", "b", "c"], GRADES, 10) == pytest.approx(1.0)
    assert metrics.ndcg_at_k(["x"], GRADES, 10) == 0.0
    assert metrics.ndcg_at_k(RANKED, {}, 10) == 0.0
    # cut at k: only the first result counts at k = 1, against the ideal first grade (2)
    assert metrics.ndcg_at_k(["b", "a"], GRADES, 1) == pytest.approx(1 / 3)


def test_ties_and_duplicates() -> None:
    # two results of equal grade swap places: the same nDCG; a key that comes back twice counts once
    assert metrics.ndcg_at_k(["a", "b", "c"], GRADES, 10) == metrics.ndcg_at_k(["a", "c", "b"], GRADES, 10)
    assert metrics.precision_at_k(["a", "a", "x"], GRADES, 2) == 0.5
    assert metrics.ndcg_at_k(["a", "a", "d"], GRADES, 3) == metrics.ndcg_at_k(["a", "d"], GRADES, 3)
    assert metrics.percentile([1.0, 2.0, 3.0, 4.0], 50) == pytest.approx(2.5)
    assert metrics.percentile([5.0], 95) == 5.0
    assert math.isnan(metrics.percentile([], 50))


# The golden dataset


def _words(text: str) -> set[str]:
    """Crude stems: lower-case words of 4+ letters cut to 5 characters."""
    return {w[:5] for w in re.findall(r"[a-z]{4,}", text.lower())}


def test_golden_dataset_size_and_coverage() -> None:
    dataset = load_dataset()
    by_key = dataset.by_key
    assert len(dataset.tenants) >= 3
    assert len(dataset.memories) >= 300
    assert len(dataset.questions) >= 80
    assert {q.category for q in dataset.questions} == set(CATEGORIES)
    assert {m.type for m in dataset.memories} == {"episode", "fact", "rule"}
    assert {m.tenant for m in dataset.memories} == set(dataset.tenants)
    for q in dataset.questions:
        for key in [*q.relevant, *q.absent, *([q.current] if q.current else [])]:
            assert key in by_key, (q.id, key)
    # superseded: the old fact is stored first with the same subject and predicate
    order = {m.key: i for i, m in enumerate(dataset.memories)}
    superseded = [q for q in dataset.questions if q.category == "superseded"]
    for q in superseded:
        assert q.current is not None
        for old in q.absent:
            assert (by_key[old].subject, by_key[old].predicate) == (
                by_key[q.current].subject,
                by_key[q.current].predicate,
            )
            assert order[old] < order[q.current]
    assert all(by_key[k].retract for q in dataset.questions if q.category == "retracted" for k in q.absent)
    assert sum(m.retract for m in dataset.memories) >= 5
    assert any(q.scope for q in dataset.questions if q.category == "scope")
    assert any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", q.query) for q in dataset.questions if q.category == "cjk")
    # paraphrases share no content word with their answers
    for q in (q for q in dataset.questions if q.category == "paraphrase"):
        answers = [by_key[k].content for k, grade in q.relevant.items() if grade == 2]
        assert all(not _words(q.query) & _words(a) for a in answers), q.id


def test_a_bad_dataset_names_the_question_or_memory() -> None:
    memory = {"key": "m1", "tenant": "t", "type": "fact", "subject": "s", "predicate": "p", "content": "c"}
    question = {"id": "q1", "tenant": "t", "category": "direct", "query": "?", "relevant": {"m2": 2}}
    with pytest.raises(DatasetError, match=r"question 'q1'.*'m2'"):
        parse_dataset({"tenants": {"t": ""}, "memories": [memory], "questions": [question]})
    with pytest.raises(DatasetError, match=r"memory 'm1'.*content"):
        parse_dataset({"tenants": {"t": ""}, "memories": [{**memory, "content": ""}], "questions": []})
    with pytest.raises(DatasetError, match=r"question 'q1'.*category"):
        parse_dataset({"tenants": {"t": ""}, "memories": [memory], "questions": [{**question, "category": "vibes"}]})


# End to end, on the real database


def test_golden_run_end_to_end(db_dsn: str, embedder: Embedder) -> None:
    dataset = load_dataset()
    result = run.run(app_dsn_for(db_dsn), dataset, embedder, cache_dir=None, progress=False)
    result = strict(result)
    json.dumps(result)  # strict JSON: no NaN
    assert result["model"] == embedder.model_id
    assert {"cpu", "cores", "postgresql", "pgvector", "model_id"} <= set(result["machine"])
    golden = result["golden"]
    assert golden["dataset"]["questions"] == len(dataset.questions)
    assert golden["dataset"]["memories"] == len(dataset.memories)
    assert set(golden["modes"]) == {"semantic", "keyword", "hybrid", "weighted"}
    assert len(golden["runs"]) == 4 * len(dataset.questions)
    for figures in golden["modes"].values():
        assert set(figures["categories"]) == set(CATEGORIES)
        for key in ("p@10", "r@10", "mrr", "ndcg@10", "latency_ms_p50", "latency_ms_p95"):
            assert figures["overall"][key] is not None
            assert figures["overall"][key] >= 0 or key.startswith("latency")
    hybrid = golden["modes"]["hybrid"]
    for name, check in hybrid["checks"].items():
        if CHECK_KINDS[name] in ("contradiction", "hallucination"):
            assert check["failed"] == 0, (name, check["failures"])
    assert hybrid["checks"]["tenant_isolation"]["passed"] == len(dataset.questions)
    assert hybrid["overall"]["ndcg@10"] > 0.8
    printed = tables.tables(result)
    assert "| hybrid" in printed and "superseded_old_absent" in printed


def test_the_scratch_database_is_recreated_and_never_the_configured_one(
    superuser: psycopg.Connection[Any],
) -> None:
    dsn = make_conninfo(superuser.info.dsn, dbname="postgres")
    settings = Settings(dsn=dsn, database="pymem")
    for own in ("pymem", "postgres"):  # PYMEM_DATABASE, and the database PYMEM_DSN names
        with pytest.raises(InvalidArgumentError, match="is the configured database"):
            scratch_database(settings, own)
    name = "pymem_eval_test_scratch"
    try:
        db = scratch_database(settings, name)
        recreate(db)
        with psycopg.connect(db.migrator_dsn, autocommit=True) as conn:
            conn.execute("create table public.leftover ()")
        recreate(db)  # dropped and re-created: the table is gone
        with psycopg.connect(db.app_dsn, autocommit=True) as conn:
            assert conn.execute("select current_user").fetchone() == ("pymem_app",)
            assert conn.execute("select to_regclass('public.leftover')").fetchone() == (None,)
            assert conn.execute("select count(*) from pg_proc where proname = 'memory_search'").fetchone() == (1,)
    finally:
        superuser.execute(f"drop database if exists {name} with (force)")


# BEIR


def _write_beir(folder: Path, qrels_test: str) -> None:
    docs = [
        ("d1", "Photosynthesis in green algae", "Chlorophyll in algae turns sunlight into sugar."),
        ("d2", "Plate tectonics", "Continents drift on the mantle over millions of years."),
        ("d3", "Volcanic eruptions", "Magma rises through the crust and erupts as lava and ash."),
        ("d4", "Honey bee navigation", "Bees use the waggle dance to tell the hive where flowers are."),
        ("d5", "Antibiotic resistance", "Bacteria evolve resistance when antibiotics are overused."),
    ]
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in docs)
    )
    queries = [("q1", "algae photosynthesis sunlight"), ("q2", "lava erupts from volcanoes"), ("q3", "bee dance")]
    (folder / "queries.jsonl").write_text("".join(json.dumps({"_id": i, "text": t}) + "\n" for i, t in queries))
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + qrels_test)
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\nq3\td4\t1\n")


def test_beir_on_a_tiny_folder(tmp_path: Path, db_dsn: str, embedder: Embedder) -> None:
    # q1 -> d1; q2 -> d3 (grade 2) and d5 (grade 1, not about volcanoes)
    folder = tmp_path / "tiny"
    _write_beir(folder, "q1\td1\t1\nq2\td3\t2\nq2\td5\t1\n")
    data = beir.load_beir(folder)
    assert data.texts[0] == "Photosynthesis in green algae Chlorophyll in algae turns sunlight into sugar."
    assert data.qrels["test"] == {"q1": {"d1": 1}, "q2": {"d3": 2, "d5": 1}}
    with run.connect_app(app_dsn_for(db_dsn)) as conn:
        result = beir.run_beir(
            conn, folder, embedder, config=beir.SearchConfig(depth=10), cache_dir=None, progress=False
        )
        with tenant_transaction(conn, "beir-tiny"):
            assert conn.execute("select count(*) from pymem.facts").fetchone() == (5,)
    assert result["documents"] == 5 and result["queries"] == 2
    # keyword: q1 finds d1 first, q2 finds d3 first and never d5 (no shared word): exactly
    # (1 + 3 / (3 + 1/log2 3)) / 2; the other modes also return d5 (rank 2..5) or not at all
    exact = (1 + 3 / (3 + 1 / math.log2(3))) / 2
    assert result["modes"]["keyword"]["ndcg@10"] == pytest.approx(exact)
    for mode in ("keyword", "semantic", "hybrid", "weighted"):
        figures = result["modes"][mode]
        assert figures["queries"] == 2
        assert exact - 1e-9 <= figures["ndcg@10"] <= 1.0, mode
        assert figures["mrr@10"] == 1.0, mode
        assert figures["recall@100"] is None  # depth 10 < 100: not measured
    assert result["reference"]["bm25"]["ndcg@10"] == pytest.approx(exact)  # BM25 finds what keyword finds
    assert result["reference"]["semantic_exact"]["mrr@10"] == 1.0
    keyword = beir.score({"q1": ["d1"], "q2": ["d3", "d2", "d5"]}, data.qrels["test"])
    assert keyword["ndcg@10"] == pytest.approx((1 + (3 + 1 / math.log2(4)) / (3 + 1 / math.log2(3))) / 2)
    # fitted on the one train query (q3), judged on the 2 test queries x 5 rows, 3 of them relevant
    fitted = result["calibration"]
    assert fitted["fitted_on"] == {"split": "train", "queries": 1, "rows": 5}
    assert fitted["features"] == ["intercept", *calibration.FEATURES]
    assert (fitted["test"]["rows"], fitted["test"]["relevant_rows"]) == (10, 3)
    for relevance in ("rank_relevance", "calibrated"):
        assert 0.0 <= fitted["test"][relevance]["auc"] <= 1.0
        assert sum(b["rows"] for b in fitted["test"][relevance]["reliability"]) == 10


def test_reference_bm25_and_rrf_by_hand() -> None:
    assert reference.tsvector_terms("'run':1,4 'smith':2 'o''brien':3") == {"run": 2, "smith": 1, "o'brien": 1}
    docs = {"a": {"coral": 2, "heat": 1}, "b": {"coral": 1}, "c": {"heat": 1, "bleach": 3}}
    bm25 = reference.Bm25(docs)
    # 'bleach' is only in c: it outweighs the common 'coral'; a lexeme nobody has changes nothing
    assert bm25.rank(["coral", "bleach"], 10) == ["c", "a", "b"]
    assert bm25.rank(["nothing"], 10) == []
    # RRF with k = 60 and depth 2: a missing rank counts as 3
    assert reference.rrf(["a", "b"], ["b", "c"], 60, 2) == ["b", "a", "c"]


def test_beir_errors_name_the_file_and_line(tmp_path: Path) -> None:
    folder = tmp_path / "bad"
    _write_beir(folder, "q1\td9\t1\n")
    with pytest.raises(InvalidArgumentError, match=r"test.tsv: query 'q1' names document 'd9'"):
        beir.load_beir(folder)
    with pytest.raises(InvalidArgumentError, match="not a folder"):
        beir.load_beir(tmp_path / "missing")


def test_logistic_fit_recovers_known_coefficients() -> None:
    rng = np.random.default_rng(15)
    x = rng.normal(size=(4000, 2))
    truth = np.array([-1.0, 2.0, -0.5])
    p = 1 / (1 + np.exp(-(truth[0] + x @ truth[1:])))
    y = (rng.random(4000) < p).astype(np.float64)
    coef = calibration.fit_logistic(x, y, l2=0.0)
    assert coef == pytest.approx(truth, abs=0.15)
    assert calibration.predict(coef, np.zeros((1, 2)))[0] == pytest.approx(1 / (1 + math.exp(-coef[0])))
    with pytest.raises(ValueError):
        calibration.fit_logistic(np.zeros((0, 2)), np.zeros(0))


def test_auc_brier_reliability_and_rank_relevance_by_hand() -> None:
    # relevant 0.9 and 0.4, irrelevant 0.4 and 0.1: pairs (0.9>0.4, 0.9>0.1, 0.4=0.4 half, 0.4>0.1) = 3.5 / 4
    assert calibration.auc([0.9, 0.4, 0.4, 0.1], [True, True, False, False]) == 0.875
    assert calibration.auc([0.5, 0.2], [True, True]) is None
    assert calibration.brier([1.0, 0.0], [True, True]) == 0.5
    bins = calibration.reliability([0.1, 0.15, 0.95], [False, True, True])
    assert bins[0] == {"bin": "[0.0, 0.2)", "rows": 2, "mean_predicted": 0.125, "observed_relevant": 0.5}
    assert bins[4]["bin"] == "[0.8, 1.0]" and bins[4]["rows"] == 1
    # today's recall relevance: the row's fused score over the query's best, whatever the evidence
    assert calibration.rank_relevance([0.032, 0.031, 0.016]) == pytest.approx([1.0, 0.96875, 0.5])
    assert calibration.row_features(0.8, None) == (0.8, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0)
    assert calibration.row_features(0.7, 0.5, 2, 4, 0.8) == pytest.approx((0.7, 0.5, 1.0, 1.0, 0.5, 0.25, -0.1))


def test_transfer_applies_coefficients_fitted_elsewhere_and_judges_the_floor() -> None:
    # coefficients that read only the cosine: relevance = sigmoid(20 * (cos - 0.5))
    coef = [-10.0, 20.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]

    def row(cos: float, relevant: bool) -> dict[str, Any]:
        return {"features": [cos, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0], "relevant": relevant, "rank_relevance": 1.0}

    questions = [
        {"id": "a1", "category": "direct", "answerable": True, "rows": [row(0.8, True), row(0.3, False)]},
        {"id": "a2", "category": "direct", "answerable": True, "rows": [row(0.45, True)]},
        {"id": "n1", "category": "no_answer", "answerable": False, "rows": [row(0.2, False), row(0.1, False)]},
        {"id": "n2", "category": "no_answer", "answerable": False, "rows": [row(0.7, False)]},
    ]
    moved = calibration.transfer(questions, coef)
    assert moved["questions"] == 4 and moved["no_answer_questions"] == 2
    assert moved["no_answer_below_floor"] == 0.5  # n1 below 0.5, n2 above
    assert moved["answerable_above_floor"] == 0.5  # a1 above, a2 (cos 0.45) below
    assert moved["rows"]["rows"] == 6 and moved["rows"]["relevant_rows"] == 2
    assert moved["rows"]["rank_relevance"]["auc"] == 0.5  # every row 1.0: no information
    # relevant 0.8 beats the four others, 0.45 beats 0.3, 0.2 and 0.1 but not 0.7: 7 of 8 pairs
    assert moved["rows"]["calibrated"]["auc"] == pytest.approx(0.875)
