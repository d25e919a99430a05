"""`pymem bench`: ingest, latency, recall and maintenance figures on a scratch database."""

from pymem.bench.runner import BenchOptions, run

__all__ = ["BenchOptions", "run"]
