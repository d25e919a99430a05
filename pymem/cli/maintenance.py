"""`pymem index-health | maintain | reembed | janitor | consolidate`: maintenance for operators (the migrator login,
PYMEM_DSN or the embedded server's superuser). index-health and maintain exit 1 when an index stays
unhealthy, so they fit a cron job or a health check."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pymem import maintenance
from pymem.config import Settings
from pymem.database import open_database
from pymem.errors import InvalidArgumentError


def _thresholds(args: argparse.Namespace) -> dict[str, Any]:
    """The measurement options; pymem.memory_index_health checks them (PM002) before it measures anything."""
    return {"sample": args.sample, "k": args.k, "min_recall": args.min_recall, "max_drift": args.max_drift}


def _table(rows: list[maintenance.IndexHealth]) -> str:
    header = ("INDEX", "FILTER", "QUERIES", "RECALL", "BASELINE", "DRIFT", "STATUS")
    table = [header] + [
        (
            r.index_name,
            r.filter_kind + (f"={r.filter_value}" if r.filter_value is not None else ""),
            str(r.sample_size),
            f"{r.recall:.3f}",
            f"{r.baseline_recall:.3f}",
            f"{r.drift:.1%}",
            "ok" if r.healthy else "UNHEALTHY",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table)


def _json_rows(rows: list[maintenance.IndexHealth]) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in rows]


def _index_health(args: argparse.Namespace, settings: Settings) -> int:
    thresholds = _thresholds(args)
    db = open_database(settings)
    rows = maintenance.measure_index_health(db.migrator_dsn, tenant=args.tenant, tag=args.tag, **thresholds)
    healthy = all(r.healthy for r in rows)
    if args.json:
        print(json.dumps({"healthy": healthy, "indexes": _json_rows(rows)}, indent=2))
    elif rows:
        print(_table(rows))
    else:
        print("no vector index has embedded rows to measure", file=sys.stderr)
    return 0 if healthy else 1


def _maintain(args: argparse.Namespace, settings: Settings) -> int:
    thresholds = _thresholds(args)
    db = open_database(settings)
    result = maintenance.maintain(
        db.migrator_dsn, force=args.force, log=lambda m: print(f"pymem: {m}", file=sys.stderr), **thresholds
    )
    print(_table(result.after or result.before))
    for rebuild in result.rebuilds:
        after = f"{rebuild.recall_after:.3f}" if rebuild.recall_after is not None else "-"
        print(
            f"rebuilt pymem.{rebuild.index_name} in {rebuild.seconds:.1f} s:"
            f" recall {rebuild.recall_before:.3f} -> {after}"
            + (
                f" (reset {', '.join(rebuild.reset_options)}: were {','.join(rebuild.options_before or [])})"
                if rebuild.reset_options
                else ""
            )
        )
    if not result.rebuilds:
        print("every index is healthy: nothing rebuilt")
    return 0 if result.healthy else 1


def _reembed(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder

    if not settings.embeddings:
        raise InvalidArgumentError("embeddings are disabled (PYMEM_EMBEDDINGS=off): nothing to re-embed with")
    db = open_database(settings)
    bar = maintenance.ProgressBar()
    try:
        summary = maintenance.reembed(db.migrator_dsn, make_embedder(settings), batch=args.batch, progress=bar)
    finally:
        bar.close()
    changed = (
        f" (was {summary.previous_model_id})"
        if summary.previous_model_id and summary.previous_model_id != summary.model_id
        else ""
    )
    print(
        f"re-embedded {summary.reembedded} of {summary.flagged} flagged memories in {summary.tenants} tenant(s)"
        f" with {summary.model_id}{changed} in {summary.seconds:.1f} s"
    )
    return 0


def _janitor(args: argparse.Namespace, settings: Settings) -> int:
    db = open_database(settings)
    bar = maintenance.ProgressBar()
    try:
        summary = maintenance.run_janitor(
            db.migrator_dsn, progress=bar, batch=args.batch, threshold=args.threshold, check_health=not args.no_health
        )
    finally:
        bar.close()
    print(
        f"janitor: {summary.tenants} tenant(s) in {summary.seconds:.1f} s; {summary.episodes_expired} expired episodes"
        f" tombstoned; {summary.facts_merged} of {summary.facts_checked} facts and {summary.rules_merged} of"
        f" {summary.rules_checked} rules merged into near-duplicates"
    )
    if summary.health:
        print(_table(summary.health))
        if not all(r.healthy for r in summary.health):
            print("pymem: an index is unhealthy: run `pymem maintain`", file=sys.stderr)
            return 1
    return 0


def _consolidate(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.embeddings import make_embedder

    db = open_database(settings)
    bar = maintenance.ProgressBar()
    try:
        summary = maintenance.run_consolidation(
            db.migrator_dsn,
            None if args.no_embed or not settings.embeddings else make_embedder(settings),
            butler=args.butler,
            batch=args.batch,
            tenants=args.tenant or None,
            progress=bar,
        )
    finally:
        bar.close()
    print(
        f"consolidated {summary.episodes} episode(s) of {summary.tenants} tenant(s) in {summary.seconds:.1f} s:"
        f" {summary.facts} facts and {summary.rules} rules stored, {summary.kept_for_review} kept for review,"
        f" {summary.refused} refused as speculation; {summary.embedded} memories embedded"
    )
    return 0


def _worker(args: argparse.Namespace, settings: Settings) -> int:
    import threading

    from pymem.consolidation_worker import ConsolidationWorker
    from pymem.embedding_worker import EmbeddingWorker
    from pymem.embeddings import make_embedder
    from pymem.index_worker import IndexWorker

    db = open_database(settings)
    embedder = make_embedder(settings) if settings.embeddings else None
    worker = IndexWorker(
        dsn=db.migrator_dsn,
        interval=args.interval,
        writes=args.writes,
        poll=args.poll,
        maintain_options=_thresholds(args),
        on_check=lambda c: print(
            f"pymem worker: check ({c.reason}) in {c.seconds:.1f} s: "
            + (f"rebuilt {', '.join(c.rebuilt)}" if c.rebuilt else "nothing to rebuild")
            + ("" if c.healthy else "; STILL UNHEALTHY"),
            file=sys.stderr,
            flush=True,
        ),
    )
    consolidation = (
        None
        if args.no_consolidate
        else ConsolidationWorker(
            dsn=db.migrator_dsn,
            embedder=embedder,
            interval=args.consolidate_interval,
            episodes=args.consolidate_episodes,
            poll=args.poll,
            on_run=lambda reason, s: print(
                f"pymem worker: consolidation ({reason}) in {s.seconds:.1f} s: {s.episodes} episode(s) of"
                f" {s.tenants} tenant(s), {s.facts} facts and {s.rules} rules stored, {s.kept_for_review} kept for"
                " review",
                file=sys.stderr,
                flush=True,
            ),
        )
    )
    embedding = None if args.no_embed or embedder is None else EmbeddingWorker(dsn=db.migrator_dsn, embedder=embedder)
    if args.once:
        if embedding is not None:
            embedding.work("--once")
        if consolidation is not None:
            consolidation.work("--once")
        return 0 if worker.check("--once").healthy else 1
    stop = threading.Event()
    for side in (embedding, consolidation):
        if side is not None:
            side.start()
    try:
        worker.run(stop)
    except KeyboardInterrupt:
        stop.set()
    finally:
        for side in (embedding, consolidation):
            if side is not None:
                side.stop()
    return 0


def _add_thresholds(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sample", type=int, help="query vectors per index and filter (SQL's default: 50)")
    parser.add_argument("--k", type=int, help="recall@k (SQL's default: 10)")
    parser.add_argument("--min-recall", type=float, help="healthy at or above (SQL's default: 0.90)")
    parser.add_argument("--max-drift", type=float, help="largest drop from baseline (SQL's default: 0.05)")


def _register_worker(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem worker`: consolidation and index health on a schedule."""
    worker = sub.add_parser(
        "worker",
        help="embed, consolidate and keep the vector indexes healthy, on their own (foreground)",
        description="Embed what was stored without an embedding as it is queued (LISTEN pymem_embedding; off with"
        " --no-embed or PYMEM_EMBEDDINGS=off), and run `pymem consolidate` and `pymem maintain` by themselves."
        " Consolidation: at once, then every"
        " --consolidate-interval seconds and whenever --consolidate-episodes episodes were stored since the last"
        " run; the janitor waits for it before it tombstones an expired episode. Index health: at once, then every"
        " --interval seconds and whenever --writes rows were written to the memory tables since the last check."
        " Both read PostgreSQL's statistics (any client's writes). `pymem serve` runs the same workers when it has"
        " the migrator login. Stop with Ctrl-C.",
    )
    _add_thresholds(worker)
    worker.add_argument("--interval", type=float, default=3600, help="seconds between checks (default 3600)")
    worker.add_argument("--writes", type=int, default=10_000, help="rows written that trigger a check (default 10000)")
    worker.add_argument("--poll", type=float, default=5, help="seconds between looks at the write count (default 5)")
    worker.add_argument(
        "--consolidate-interval", type=float, default=600, help="seconds between consolidations (default 600)"
    )
    worker.add_argument(
        "--consolidate-episodes", type=int, default=50, help="episodes stored that bring one forward (default 50)"
    )
    worker.add_argument("--no-consolidate", action="store_true", help="do not consolidate")
    worker.add_argument("--no-embed", action="store_true", help="do not embed the queue (pymem_embedding)")
    worker.add_argument(
        "--once", action="store_true", help="embed, consolidate and check once, then exit (1 when still unhealthy)"
    )
    worker.set_defaults(func=_worker)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem index-health`, `maintain`, `worker`, `reembed`, `janitor` and `consolidate` to the parser."""
    health = sub.add_parser(
        "index-health",
        help="recall@k of the vector indexes against exact search; exit 1 when unhealthy",
        description="Measure recall@k of every vector index against exact search, overall and filtered by tenant"
        " and by tag, with the settings searches use. The first measurement is the baseline; healthy means recall"
        " >= --min-recall and drift from the baseline <= --max-drift.",
    )
    _add_thresholds(health)
    health.add_argument("--tenant", help="measure this tenant (default: the smallest and the largest)")
    health.add_argument("--tag", help="measure this tag (default: the most common)")
    health.add_argument("--json", action="store_true", help="print JSON")
    health.set_defaults(func=_index_health)

    maintain = sub.add_parser(
        "maintain",
        help="measure index health and rebuild (REINDEX CONCURRENTLY) what is below threshold",
        description="Measure index health; rebuild every unhealthy index concurrently (after resetting HNSW build"
        " options below pgvector's defaults), measure again and record the rebuild. Exit 1 if still unhealthy.",
    )
    _add_thresholds(maintain)
    maintain.add_argument("--force", action="store_true", help="rebuild every vector index")
    maintain.set_defaults(func=_maintain)

    _register_worker(sub)

    reembed = sub.add_parser(
        "reembed",
        help="re-embed memories of another embedding model with the configured one",
        description="Record the configured embedding model, then re-embed every memory embedded by another model"
        " (or not at all), tenant by tenant; each batch commits, so an interrupted run resumes.",
    )
    reembed.add_argument("--batch", type=int, default=64, help="memories per committed batch (default 64)")
    reembed.set_defaults(func=_reembed)

    janitor = sub.add_parser(
        "janitor",
        help="tombstone expired episodes, merge near-duplicate facts and rules, re-check index health",
        description="Per tenant, in committed batches: expired episodes get the forgotten_at tombstone; active facts"
        " and rules more than --threshold cosine-similar in the same scope are merged into the best one. A second"
        " run changes nothing.",
    )
    janitor.add_argument("--batch", type=int, help="rows per committed batch (SQL's default: 500)")
    janitor.add_argument("--threshold", type=float, help="cosine similarity of duplicates (SQL's default: 0.85)")
    janitor.add_argument("--no-health", action="store_true", help="skip the index health check at the end")
    janitor.set_defaults(func=_janitor)

    consolidate = sub.add_parser(
        "consolidate",
        help="turn unconsolidated episodes into facts and rules (the built-in extractor), then embed them",
        description="Per tenant, oldest first, in committed batches (an interrupted run resumes; a concurrent run"
        " waits for the tenant and consolidates nothing twice): pymem.memory_consolidate finds the facts and rules"
        " each episode states, stores them through grounded ingestion with the episode as citation (speculation is"
        " refused) and marks the episode consolidated. Then what was stored is embedded (pymem reembed).",
    )
    consolidate.add_argument("--butler", help="only this butler's episodes")
    consolidate.add_argument("--tenant", action="append", help="only this tenant (repeat for several)")
    consolidate.add_argument("--batch", type=int, default=100, help="episodes per committed batch (default 100)")
    consolidate.add_argument("--no-embed", action="store_true", help="leave the new memories without embeddings")
    consolidate.set_defaults(func=_consolidate)
