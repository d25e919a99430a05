"""`pymem stress`: a bounded mixed load on `pymem serve --transport http` (loopback only) against a
scratch database of the configured server (`make stress` writes stress/results.json and stress/results.md).
Exits 1 when a tenant was returned an id it did not store, or when the server's RSS grew past the limit."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pymem.config import Settings
from pymem.errors import InvalidArgumentError


def _stress(args: argparse.Namespace, settings: Settings) -> int:
    started = time.perf_counter()
    from pymem_dev import reports, stress

    if args.database == settings.database:
        raise InvalidArgumentError(f"--database {args.database!r} is the memories' database; pick a scratch name")
    options = stress.StressOptions(
        seconds=args.seconds,
        tenants=args.tenants,
        sessions=args.sessions,
        warmup=args.warmup,
        host=args.host,
        database=args.database,
        rss_limit=args.rss_limit,
        seed=args.seed,
        json_path=Path(args.json) if args.json else None,
        markdown_path=Path(args.markdown) if args.markdown else None,
        keep=args.keep,
        command="pymem " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["stress"] else "pymem stress",
        started=started,
    )
    results = stress.run(options, settings)
    print(reports.table(stress.TOOL_HEADER, stress.tool_rows(results)))
    for line in stress.summary_lines(results):
        print(line)
    print(f"wall time {results['wall_s']:.0f} s")
    return 0 if results["ok"] else 1


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem stress` to the subcommands of the `pymem` parser."""
    stress = sub.add_parser(
        "stress",
        help="a bounded mixed load on the HTTP MCP server (loopback), on a scratch database",
        description="Start `pymem serve --transport http` on a free port of 127.0.0.1 against a scratch database"
        " (dropped, re-created and migrated each run) with a bearer token per tenant, and hold a mixed load (30%%"
        " writes: store fact / episode / rule, mark helpful, forget; reads: search, recall, context, get, stats)"
        " from several concurrent MCP client sessions per tenant for --seconds. Reports calls/s and p50/p95/p99"
        " per tool, errors per tool (counted, not fatal), the ids returned to each tenant (any it did not store is a"
        " failure) and the server's RSS sampled every second (an end above --rss-limit times the RSS after warm-up"
        " is a failure). Exits 1 on a failure. Progress goes to stderr.",
    )
    stress.add_argument("--seconds", type=float, default=150.0, help="length of the load, warm-up included (150)")
    stress.add_argument("--tenants", type=int, default=4, help="tenants, a token each (default 4)")
    stress.add_argument("--sessions", type=int, default=2, help="concurrent client sessions per tenant (default 2)")
    stress.add_argument("--warmup", type=float, help="seconds not measured at the start (default: min(15, seconds/4))")
    stress.add_argument("--host", default="127.0.0.1", help="loopback address to serve on (default 127.0.0.1)")
    stress.add_argument("--rss-limit", type=float, default=1.5, help="end RSS / RSS after warm-up allowed (1.5)")
    stress.add_argument("--seed", type=int, default=17, help="seed of the texts and of the tool choices")
    stress.add_argument("--json", metavar="FILE", help="write the raw results as JSON")
    stress.add_argument("--markdown", metavar="FILE", help="write the results as a markdown report")
    stress.add_argument("--keep", action="store_true", help="keep the scratch database afterwards")
    stress.add_argument(
        "--database", default="pymem_stress", help="name of the scratch database (default pymem_stress)"
    )
    stress.set_defaults(func=_stress)
