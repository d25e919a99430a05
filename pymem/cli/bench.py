"""`pymem bench`: speed and recall figures on a scratch database of the configured server
(`make bench` writes bench/results.json and bench/results.md)."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

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


def _bench(args: argparse.Namespace, settings: Settings) -> int:
    started = time.perf_counter()
    from pymem.bench.run import BenchOptions, run

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
        command="pymem " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["bench"] else "pymem bench",
    )
    results = run(options, settings)
    for target in results["targets"]:
        met = {True: "met", False: "MISSED", None: "not measured"}[target["met"]]
        measured = "-" if target["measured"] is None else f"{target['measured']:g}"
        print(f"{target['name']:<24} {measured:>10} {target['unit']:<11} ({target['target']}) {met}")
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
        " memories (x 100k with --scale 1m), filtered and HNSW recall@10, hot memory and the janitor."
        " Progress goes to stderr; the targets are printed at the end.",
    )
    bench.add_argument("--scale", choices=["default", "1m"], default="default", help="1m: also 100k per tenant")
    bench.add_argument("--tenants", type=int, help="tenants per scale (default 10)")
    bench.add_argument("--sizes", type=_sizes, help="memories per tenant, comma-separated (default 1000,10000)")
    bench.add_argument("--queries", type=int, help="queries per latency measurement (default 200)")
    bench.add_argument("--json", metavar="FILE", help="write the raw results as JSON")
    bench.add_argument("--markdown", metavar="FILE", help="write the results as a markdown report")
    bench.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test; figures not comparable)")
    bench.add_argument("--keep", action="store_true", help="keep the scratch database afterwards")
    bench.add_argument("--database", default="pymem_bench", help="name of the scratch database (default pymem_bench)")
    bench.set_defaults(func=_bench)
