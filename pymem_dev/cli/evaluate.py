"""`pymem eval`: retrieval quality figures from the golden dataset (eval/golden/dataset.json) and,
with --beir DIR, a BEIR dataset such as SciFact. Runs in a scratch database (default pymem_eval on
the configured server), dropped and re-created every run; never in the user's memories."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pymem.config import Settings
from pymem.errors import InvalidArgumentError

MODES = ("semantic", "keyword", "hybrid", "weighted", "rerank")


def _eval(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder
    from pymem_dev import reports
    from pymem_dev.evaluation import beir, run, tables
    from pymem_dev.evaluation.dataset import DEFAULT_DATASET, load_dataset
    from pymem_dev.scratch import recreate, scratch_database

    if args.k < 1 or args.k > 1000:
        raise InvalidArgumentError("--k must be between 1 and 1000")
    if args.tune and not args.beir:
        raise InvalidArgumentError("--tune tunes the BEIR run on its train qrels: give --beir DIR too")
    dataset_path = Path(args.dataset) if args.dataset else DEFAULT_DATASET
    dataset = load_dataset(dataset_path)  # a bad dataset fails before the database is touched
    beir_dir = Path(args.beir) if args.beir else None
    if beir_dir is not None:
        beir.load_beir(beir_dir)  # so does a bad BEIR folder
    modes = tuple(dict.fromkeys(args.modes or MODES))
    db = scratch_database(settings, args.database)
    print(f"pymem eval: re-creating the scratch database {db.name!r}", file=sys.stderr, flush=True)
    recreate(db)
    result = run.run(
        db.app_dsn,
        dataset,
        make_embedder(settings),
        beir_dir=beir_dir,
        tune=args.tune,
        reference=not args.no_reference,
        modes=modes,
        k=args.k,
        min_semantic=args.min_semantic,
        min_keyword=args.min_keyword,
        cache_dir=None if args.no_cache else Path(args.cache_dir),
        dataset_path=dataset_path,
        fit_relevance=Path(args.fit_relevance) if args.fit_relevance else None,
        migrator_dsn=db.migrator_dsn,
    )
    result = reports.strict(result)
    print(tables.tables(result))
    if args.json:
        reports.write_json(result, Path(args.json))
        print(f"pymem eval: wrote {args.json}", file=sys.stderr)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem eval` to the subcommands of the `pymem` parser."""
    # the light module: the parser is built on every command (pymem_dev.evaluation.defaults)
    from pymem_dev.evaluation.defaults import (
        COEFFICIENTS_FILE,
        DEFAULT_CACHE,
        DEFAULT_DATABASE,
        MIN_KEYWORD,
        MIN_SEMANTIC,
    )

    ev = sub.add_parser(
        "eval",
        help="measure retrieval quality (golden dataset; BEIR with --beir)",
        description="Store the golden dataset (eval/golden/dataset.json) in a scratch database, ask every question"
        " in every search mode and print P@k, R@k, MRR, nDCG@10, latency and the contradiction/hallucination"
        " checks; with --beir DIR also score a BEIR dataset (e.g. SciFact) on its test qrels. The scratch"
        " database is dropped and re-created on every run.",
    )
    ev.add_argument("--json", metavar="FILE", help="also write every figure as JSON to FILE")
    ev.add_argument("--beir", metavar="DIR", help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/*.tsv)")
    ev.add_argument("--tune", action="store_true", help="BEIR: choose depth, rrf_k and weights on the train qrels")
    ev.add_argument(
        "--fit-relevance",
        nargs="?",
        const=str(COEFFICIENTS_FILE),
        metavar="FILE",
        help="first fit the relevance model on the training data (the golden train questions and, with --beir, its"
        " train qrels), write it as SQL to FILE (default: the shipped sql/functions/113-relevance-coefficients.sql)"
        " and report with it",
    )
    ev.add_argument(
        "--no-reference",
        action="store_true",
        help="BEIR: skip the client-side yardsticks (BM25 on pymem's lexemes, exact cosine, their RRF)",
    )
    ev.add_argument("--k", type=int, default=10, help="cut-off of P@k and R@k, and the search limit (default 10)")
    ev.add_argument("--modes", nargs="+", choices=MODES, help="search modes to run (default: all four)")
    ev.add_argument("--dataset", help="the golden dataset file (default: eval/golden/dataset.json)")
    ev.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        help=f"the scratch database, dropped and re-created (default {DEFAULT_DATABASE})",
    )
    ev.add_argument("--cache-dir", default=str(DEFAULT_CACHE), help="where embeddings are cached (default eval/.cache)")
    ev.add_argument("--no-cache", action="store_true", help="embed everything again, without the cache")
    ev.add_argument(
        "--min-semantic",
        type=float,
        default=MIN_SEMANTIC,
        help=f"no-answer threshold on the semantic score (default {MIN_SEMANTIC})",
    )
    ev.add_argument(
        "--min-keyword",
        type=float,
        default=MIN_KEYWORD,
        help=f"no-answer threshold on the keyword score in keyword mode (default {MIN_KEYWORD})",
    )
    ev.set_defaults(func=_eval)
