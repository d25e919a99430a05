"""`pymem export` and `pymem import-tenant` measured as a user runs them: separate processes against the scratch
database, their wall time (rows/s) and their peak resident memory (the command's own ru_maxrss, see _MEASURE).

The query tenant of the largest scale is exported twice, without and with embeddings, then the file with
embeddings is imported into a new tenant (no embedding work: the rows keep theirs). Run last on the scratch
database: the imported tenant adds rows that the other measurements must not see.

The new tenant is one whose partition of the memory tables is not the query tenant's: pgvector's HNSW index keeps
a vector equal to one it has as a second heap pointer of that element (it still searches the graph, but writes no
element and updates no neighbour's connections), so the file's vectors imported beside their originals cost the
index much less than new ones. Before migration 0038 every tenant shared
one graph, and the import measured that shortcut (790 rows/s against 566-685 for vectors the graph does not have,
2026-11-27).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

from pymem_dev.bench.loader import tenant_partition
from pymem_dev.scratch import ScratchDatabase

Log = Any


def _pymem() -> list[str]:
    from pymem_dev.bench.measure import pymem_command

    return pymem_command()


# A small process between the benchmark and the command: a child's peak RSS (ru_maxrss) counts the memory of the
# process it was forked from until its exec, and the benchmark holds the model. This one forks (no vfork), execs the
# command and writes the command's own ru_maxrss (KB) to the file named first.
_MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def _timed(args: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    """(seconds, peak RSS in MB, stderr) of one pymem command, which must succeed."""
    with tempfile.TemporaryDirectory(prefix="pymem-bench-rss-") as folder:
        rss_file = Path(folder) / "maxrss"
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _MEASURE, str(rss_file), *_pymem(), *args],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"pymem {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
        return seconds, round(int(rss_file.read_text()) / 1024), done.stderr  # ru_maxrss is in KB on Linux


_SAID_SECONDS = re.compile(r" in (\d+(?:\.\d+)?) s\b")


def _work_seconds(said: str) -> float | None:
    """The seconds the command says its work took (without the process's start-up), from its last line."""
    found = _SAID_SECONDS.findall(said)
    return float(found[-1]) if found else None


def partition_of(conn: psycopg.Connection[Any], tenant: str) -> str | None:
    """The partition of pymem.facts that holds tenant's rows, qualified (pymem.memory_tenant_partitions; None: the
    table is not partitioned). The memory tables share their partitioning."""
    partition = tenant_partition(conn, tenant, "pymem.facts")
    return None if partition == "pymem.facts" else partition


def target_apart(conn: psycopg.Connection[Any], source: str, wanted: str) -> tuple[str, str | None, str | None]:
    """(target, its partition, source's partition): wanted, or wanted_2, _3, ... the first whose partition is not
    source's (wanted itself when every tenant shares one partition)."""
    home = partition_of(conn, source)
    for n in range(1, 65):
        target = wanted if n == 1 else f"{wanted}_{n}"
        where = partition_of(conn, target)
        if where is None or where != home:
            return target, where, home
    return wanted, home, home


def tenant_transfer(scratch: ScratchDatabase, tenant: str, target: str, log: Log) -> dict[str, Any]:
    with psycopg.connect(scratch.migrator_dsn, autocommit=True) as conn:
        target, target_partition, source_partition = target_apart(conn, tenant, target)
    env = dict(os.environ)
    env.update(PYMEM_DSN=scratch.migrator_dsn, PYMEM_APP_DSN=scratch.app_dsn, HF_HUB_OFFLINE="1")
    out: dict[str, Any] = {
        "tenant": tenant,
        "target": target,
        "partitions": {"tenant": source_partition, "target": target_partition},
    }
    # what the command line costs before any work: the memory the figures below add to
    _, out["baseline_rss_mb"], _ = _timed(["--version"], env)
    with tempfile.TemporaryDirectory(prefix="pymem-bench-export-") as folder:
        bare, full = Path(folder) / "bare.jsonl", Path(folder) / "full.jsonl"
        for name, path, extra in (("export", bare, []), ("export_with_embeddings", full, ["--with-embeddings"])):
            seconds, rss, said = _timed(["export", "--tenant", tenant, "-o", str(path), *extra], env)
            with path.open() as lines:
                counts = json.loads(next(lines))["counts"]
            rows = sum(counts.values())
            work = _work_seconds(said) or seconds
            out[name] = {
                "rows": rows,
                "seconds": round(seconds, 2),
                "rows_per_s": round(rows / seconds),
                "work_rows_per_s": round(rows / max(work, 0.05)),
                "peak_rss_mb": rss,
                "file_mb": round(path.stat().st_size / 1e6, 1),
            }
            log(f"{name}: {rows} rows in {seconds:.1f} s ({rows / seconds:.0f} rows/s), peak RSS {rss} MB")
        seconds, rss, said = _timed(["import-tenant", str(full), "--tenant", target, "--no-embed"], env)
        rows = out["export_with_embeddings"]["rows"]
        work = _work_seconds(said) or seconds
        out["import"] = {
            "rows": rows,
            "seconds": round(seconds, 2),
            "rows_per_s": round(rows / seconds),
            "work_rows_per_s": round(rows / max(work, 0.05)),
            "peak_rss_mb": rss,
            "with_embeddings": True,
        }
        log(f"import: {rows} rows in {seconds:.1f} s ({rows / seconds:.0f} rows/s), peak RSS {rss} MB")
    out["what"] = (
        "`pymem export` (without, then with embeddings) of the query tenant and `pymem import-tenant` of the file"
        " with embeddings into a new tenant of another partition than the query tenant's (so that its vectors are new"
        " to the HNSW graph they enter), each a separate process: rows/s over the wall time including start-up,"
        " work_rows_per_s over the time the command reports for its work; peak RSS of the process, beside that of"
        " `pymem --version` (baseline_rss_mb)"
    )
    return out
