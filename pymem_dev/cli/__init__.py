"""The development commands of the `pymem` command line: `pymem bench`, `pymem eval`, `pymem stress`.

pymem.cli adds them through register() when pymem_dev can be imported (a checkout's `make install`)."""

from __future__ import annotations

import argparse

from pymem_dev.cli import bench, evaluate, stress


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem bench`, `pymem stress` and `pymem eval` to the subcommands of the `pymem` parser."""
    bench.register(sub)
    stress.register(sub)
    evaluate.register(sub)
