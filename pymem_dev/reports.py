"""What the reports of `pymem bench` and `pymem eval` share: the environment header (machine,
PostgreSQL, pgvector, model), markdown tables, number formatting and strict JSON files."""

from __future__ import annotations

import json
import math
import os
import platform
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_gb() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return None


def environment(conninfo: str, embedder: Any = None) -> dict[str, Any]:
    """The machine, the server behind conninfo and the embedding model a run measured."""
    with psycopg.connect(conninfo) as conn:
        conn.execute("select public.vector_dims('[1]'::public.vector)")  # loads pgvector: its settings exist
        row = conn.execute(
            "select current_setting('server_version'), (select extversion from pg_extension where extname = 'vector'),"
            " current_setting('shared_buffers'), current_setting('hnsw.ef_search', true)"
        ).fetchone()
    assert row is not None
    return {
        "cpu": _cpu(),
        "cores": os.cpu_count(),
        "ram_gb": _ram_gb(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "postgresql": row[0],
        "pgvector": row[1],
        "shared_buffers": row[2],
        "hnsw_ef_search": row[3],
        "model_id": getattr(embedder, "model_id", None),
        "model_backend": getattr(embedder, "backend", None),
        "model_variant": getattr(embedder, "variant", None),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def environment_rows(env: dict[str, Any]) -> list[list[str]]:
    """The environment as the rows of a two-column markdown table."""
    return [
        ["CPU", f"{env['cpu']} ({env['cores']} cores)"],
        ["RAM", f"{env['ram_gb']} GB"],
        ["PostgreSQL", f"{env['postgresql']} (shared_buffers {env['shared_buffers']})"],
        ["pgvector", f"{env['pgvector']} (hnsw.ef_search {env['hnsw_ef_search']})"],
        ["model", f"{env['model_id']} ({env['model_backend']}, {env['model_variant']})"],
        ["OS, Python", f"{env['os']}, Python {env['python']}"],
    ]


def fmt(value: Any, digits: int = 3, *, significant: int | None = None) -> str:
    """A figure for a table: '-' for None or NaN, yes/no for booleans, floats with `digits` decimals
    (with `significant`, values strictly between -1 and 1 get that many significant digits instead)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if significant is not None and 0 < abs(value) < 1:
            return f"{value:.{significant}g}"
        return f"{value:.{digits}f}"
    return str(value)


def table(header: list[str], rows: list[list[str]], *, pad: bool = True) -> str:
    """A GitHub markdown table, its columns padded so that it also reads in a terminal (pad=False: for long
    cells, a table that reads only as markdown)."""
    if pad:
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    else:
        widths = [0] * len(header)

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) if pad else "---" for w in widths) + "|"
    return "\n".join([line(header), rule, *map(line, rows)])


def strict(value: Any) -> Any:
    """NaN (no data) as None, recursively, so that the JSON is strict."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strict(v) for v in value]
    return value


def write_json(results: dict[str, Any], path: Path) -> None:
    """Write results as strict JSON (NaN as null), creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(strict(results), indent=2, default=str) + "\n")
