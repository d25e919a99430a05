"""`pymem bench`: speed and recall figures on a scratch database of the configured server
(`make bench` writes bench/results.json and bench/results.md)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from pymem.config import Settings
from pymem.errors import InvalidArgumentError


def _sizes(value: str) -> list[int]:
    try:
        sizes = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sizes takes comma-separated integers, not {value!r}") from None
    if not sizes:
        raise argparse.ArgumentTypeError("--sizes needs at least one size")
    return sizes


def target_line(target: dict[str, Any]) -> str:
    """One target for the terminal: name, measured, target (goal), status, size measured at."""
    measured = "-" if target["measured"] is None else f"{target['measured']:g}"
    bound = target["target"] + (f", goal {target['goal']}" if target.get("goal") else "")
    if target["met"] is None:  # the run text says what was not measured and why
        return f"{target['name']:<32} {measured:>10} {target['unit']:<11} ({bound}) {target['run']}"
    status = "met" if target["met"] else "MISSED"
    if target.get("goal") and target.get("goal_met") is False:
        status += " (goal not yet)"
    at = f", measured at {target['measured_at']}" if target.get("measured_at") else ""
    return f"{target['name']:<32} {measured:>10} {target['unit']:<11} ({bound}) {status}{at}"


def _command(argv: list[str]) -> str:
    """The command line for the report, without the --note text (the report prints the note itself)."""
    if argv[:1] != ["bench"]:
        return "pymem bench"
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--note":
            skip = True
        elif not arg.startswith("--note="):
            kept.append(arg)
    return "pymem " + " ".join(kept)


def _bench(args: argparse.Namespace, settings: Settings) -> int:
    started = time.perf_counter()
    from pymem_dev.bench.run import BenchOptions, run

    if args.database == settings.database:
        raise InvalidArgumentError(f"--database {args.database!r} is the memories' database; pick a scratch name")
    options = BenchOptions(
        scale=args.scale,
        tenants=args.tenants,
        sizes=args.sizes,
        queries=args.queries,
        json_path=Path(args.json) if args.json else None,
        markdown_path=Path(args.markdown) if args.markdown else None,
        quick=args.quick,
        keep=args.keep,
        database=args.database,
        started=started,
        note=args.note,
        command=_command(sys.argv[1:]),
    )
    results = run(options, settings)
    for target in results["targets"]:
        print(target_line(target))
    print(f"wall time {results['wall_s']:.0f} s")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem bench` to the subcommands of the `pymem` parser."""
    bench = sub.add_parser(
        "bench",
        help="measure ingest, latency, recall and cold start on a scratch database",
        description="Benchmark pymem on a scratch database (dropped, re-created and migrated each run) of the"
        " configured server: ingest through the MCP tools and in batches, query embedding, `pymem serve` cold"
        " start, memory_search / memory_recall latency in SQL and through MCP at 10 tenants x 1k and 10k"
        " memories (--scale 100k: 3 tenants x 10k and 100k, for the targets set at 100k per tenant; --scale 1m:"
        " 10 tenants x 1k, 10k and 100k), filtered and HNSW recall@10, hot memory and the janitor."
        " Progress goes to stderr; the targets are printed at the end (a target defined at 100k per tenant"
        " is 'not measured' unless that size was run).",
    )
    bench.add_argument(
        "--scale",
        choices=["default", "100k", "1m"],
        default="default",
        help="default: 10 tenants x 1k, 10k; 100k: 3 tenants x 10k, 100k (about 7 min on 2 cores);"
        " 1m: 10 tenants x 1k, 10k, 100k (1-2 hours)",
    )
    bench.add_argument("--tenants", type=int, help="tenants per scale (default: the scale's, 10 or 3)")
    bench.add_argument("--sizes", type=_sizes, help="memories per tenant, comma-separated (default: the scale's)")
    bench.add_argument("--queries", type=int, help="queries per latency measurement (default 200)")
    bench.add_argument("--json", metavar="FILE", help="write the raw results as JSON")
    bench.add_argument("--markdown", metavar="FILE", help="write the results as a markdown report")
    bench.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test; figures not comparable)")
    bench.add_argument(
        "--keep",
        action="store_true",
        help=(
            "keep the scratch database afterwards, with the largest scale's data (to examine plans;"
            " the janitor runs in a database of its own)"
        ),
    )
    bench.add_argument("--note", help="a line for the markdown report (e.g. what else ran on the machine)")
    bench.add_argument("--database", default="pymem_bench", help="name of the scratch database (default pymem_bench)")
    bench.set_defaults(func=_bench)
