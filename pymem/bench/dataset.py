"""The benchmark's scratch database and its bulk-loaded scale data.

The scratch database (default ``pymem_bench``) lives on the configured server (PYMEM_DSN, else
the embedded one), is dropped, re-created and migrated to head per run, and is never the
database of the user's memories. Scale data is set-up, not a measurement: it is COPYed in
binary format as the migrator with ``session_replication_role = replica`` (so the per-row
triggers, which only write audit events and derive decay rates, do not run; the loader fills
decay_rate itself), with the vector indexes dropped first and rebuilt afterwards with a large
``maintenance_work_mem``, then ANALYZEd.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from pymem import embedded, migrate
from pymem.bench import corpus
from pymem.config import Settings
from pymem.database import APP_ROLE
from pymem.errors import InvalidArgumentError

DECAY = {"permanent": 0.0, "stable": 0.002, "standard": 0.008, "volatile": 0.03}
PERMANENCE = (["standard"] * 6) + (["stable"] * 2) + ["permanent", "volatile"]
MIX = {"fact": 0.5, "episode": 0.35, "rule": 0.15}
Progress = Callable[[str], None]
FACT_COLUMNS = [
    *[("tenant_id", "text"), ("id", "uuid"), ("subject", "text"), ("predicate", "text"), ("content", "text")],
    *[("embedding", "vector"), ("embedding_model", "text"), ("token_count", "int4"), ("importance", "float8")],
    *[("confidence", "float8"), ("decay_rate", "float8"), ("permanence", "text"), ("scope", "text")],
    *[("created_at", "timestamptz"), ("last_confirmed_at", "timestamptz")],
]
EPISODE_COLUMNS = [
    *[("tenant_id", "text"), ("id", "uuid"), ("butler", "text"), ("session_id", "uuid"), ("content", "text")],
    *[("embedding", "vector"), ("embedding_model", "text"), ("token_count", "int4"), ("importance", "float8")],
    *[("created_at", "timestamptz"), ("expires_at", "timestamptz")],
]
RULE_COLUMNS = [
    *[("tenant_id", "text"), ("id", "uuid"), ("content", "text"), ("embedding", "vector")],
    *[("embedding_model", "text"), ("token_count", "int4"), ("scope", "text"), ("maturity", "text")],
    *[("confidence", "float8"), ("decay_rate", "float8"), ("permanence", "text"), ("created_at", "timestamptz")],
    *[("last_confirmed_at", "timestamptz")],
]


@dataclass(frozen=True)
class Scratch:
    name: str
    admin_dsn: str
    migrator_dsn: str
    app_dsn: str


def scratch_database(settings: Settings, name: str) -> Scratch:
    """The DSNs of the scratch database `name` on the configured server (nothing is created yet)."""
    if not name or name == settings.database:
        raise InvalidArgumentError(f"the benchmark needs a scratch database of its own, not {name!r}")
    if settings.dsn:
        if conninfo_to_dict(settings.dsn).get("dbname") == name:
            raise InvalidArgumentError(f"PYMEM_DSN names {name!r}: the benchmark would drop it")
        app = settings.app_dsn or make_conninfo(settings.dsn, user=APP_ROLE, password=settings.app_password)
        return Scratch(
            name=name,
            admin_dsn=settings.dsn,
            migrator_dsn=make_conninfo(settings.dsn, dbname=name),
            app_dsn=make_conninfo(app, dbname=name),
        )
    server = embedded.start(settings.data_dir)
    return Scratch(
        name=name,
        admin_dsn=server.conninfo(),
        migrator_dsn=server.conninfo(dbname=name),
        app_dsn=(settings.app_dsn and make_conninfo(settings.app_dsn, dbname=name))
        or server.conninfo(user=APP_ROLE, dbname=name),
    )


def recreate(scratch: Scratch) -> None:
    drop(scratch)
    with psycopg.connect(scratch.admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(scratch.name)))
    migrate.upgrade(scratch.migrator_dsn)


def drop(scratch: Scratch) -> None:
    with psycopg.connect(scratch.admin_dsn, autocommit=True) as conn:
        conn.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(scratch.name)))


@contextmanager
def migrator(scratch: Scratch) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(scratch.migrator_dsn, autocommit=True) as conn:
        register_vector(conn)
        yield conn


@dataclass
class TenantData:
    """What the queries need to know about a loaded tenant."""

    tenant: str
    counts: dict[str, int]
    sessions: dict[str, list[uuid.UUID]] = field(default_factory=dict)


@dataclass
class Corpus:
    """The real base texts and their real embeddings that synthetic rows are derived from."""

    texts: list[str]
    vectors: np.ndarray
    model_id: str


def vector_index_defs(conn: psycopg.Connection[Any]) -> list[tuple[str, str]]:
    rows = conn.execute(
        "select indexname, indexdef from pg_catalog.pg_indexes where schemaname = 'pymem'"
        " and (indexdef like '%USING hnsw%' or indexdef like '%USING ivfflat%') order by indexname"
    ).fetchall()
    return [(str(r[0]), str(r[1])) for r in rows]


def reset_tables(conn: psycopg.Connection[Any], index_defs: list[tuple[str, str]]) -> None:
    """Empty the memory tables and drop the vector indexes (rebuilt after the load)."""
    conn.execute("truncate pymem.memory_links, pymem.memory_events, pymem.facts, pymem.rules, pymem.episodes")
    for name, _ in index_defs:
        conn.execute(sql.SQL("drop index if exists pymem.{}").format(sql.Identifier(name)))


def build_indexes(
    conn: psycopg.Connection[Any], index_defs: list[tuple[str, str]], maintenance_work_mem: str, workers: int
) -> dict[str, float]:
    """Re-create the vector indexes as their owner, then ANALYZE; seconds per step."""
    timings: dict[str, float] = {}
    conn.execute(sql.SQL("set maintenance_work_mem = {}").format(sql.Literal(maintenance_work_mem)))
    conn.execute(sql.SQL("set max_parallel_maintenance_workers = {}").format(sql.Literal(workers)))
    conn.execute("set role pymem_owner")
    try:
        for name, definition in index_defs:
            started = time.perf_counter()
            conn.execute(definition.encode())
            timings[name] = time.perf_counter() - started
    finally:
        conn.execute("reset role")
        conn.execute("reset maintenance_work_mem")
    started = time.perf_counter()
    conn.execute("analyze pymem.episodes, pymem.facts, pymem.rules")
    timings["analyze"] = time.perf_counter() - started
    return timings


def _split(size: int) -> dict[str, int]:
    facts = round(size * MIX["fact"])
    episodes = round(size * MIX["episode"])
    return {"fact": facts, "episode": episodes, "rule": max(size - facts - episodes, 0)}


def load_tenant(
    conn: psycopg.Connection[Any],
    tenant: str,
    size: int,
    source: Corpus,
    rng: np.random.Generator,
    token_counter: Any,
    *,
    expired_share: float = 0.0,
) -> TenantData:
    """COPY `size` synthetic memories of one tenant (half facts, 35% episodes, 15% rules)."""
    counts = _split(size)
    rows = corpus.synthetic_rows(size, source.texts, source.vectors, rng)
    tokens = [len(e.ids) for e in token_counter.encode_batch(rows.texts, add_special_tokens=False)]
    pyrng = random.Random(int(rng.integers(0, 2**31)))
    now = datetime.now(UTC)
    sessions = {b: [uuid.uuid4() for _ in range(4)] for b in corpus.BUTLERS}
    vector_oid = _vector_oid(conn)
    model = source.model_id
    offset = 0

    def take(n: int) -> range:
        nonlocal offset
        chunk = range(offset, offset + n)
        offset += n
        return chunk

    def facts() -> Iterator[tuple[object, ...]]:
        for i in take(counts["fact"]):
            permanence = PERMANENCE[i % len(PERMANENCE)]
            created = now - timedelta(days=pyrng.uniform(0, 8 if permanence == "volatile" else 30))
            topic = corpus.rng_choice(list(corpus.TOPICS), pyrng)
            yield (
                *(tenant, uuid.uuid4(), pyrng.choice(corpus.PEOPLE), f"{topic}_{i}", rows.texts[i]),
                *(rows.vectors[i], model, tokens[i], float(pyrng.randint(1, 9)), round(pyrng.uniform(0.7, 1.0), 3)),
                *(DECAY[permanence], permanence, pyrng.choice(["global", "global", *corpus.BUTLERS]), created, created),
            )

    def episodes() -> Iterator[tuple[object, ...]]:
        for i in take(counts["episode"]):
            butler = corpus.BUTLERS[i % len(corpus.BUTLERS)]
            expired = pyrng.random() < expired_share
            created = now - timedelta(days=pyrng.uniform(8, 20) if expired else pyrng.uniform(0, 6.5))
            yield (
                *(tenant, uuid.uuid4(), butler, pyrng.choice(sessions[butler]), rows.texts[i], rows.vectors[i]),
                *(model, tokens[i], float(pyrng.randint(1, 9)), created, created + timedelta(days=7)),
            )

    maturities = {"candidate": 0.5, "established": 0.75, "proven": 0.9}

    def rules() -> Iterator[tuple[object, ...]]:
        for i in take(counts["rule"]):
            maturity = corpus.rng_choice(list(maturities), pyrng)
            created = now - timedelta(days=pyrng.uniform(0, 30))
            yield (
                *(tenant, uuid.uuid4(), rows.texts[i], rows.vectors[i], model, tokens[i]),
                *(pyrng.choice(["global", *corpus.BUTLERS]), maturity, maturities[maturity], DECAY["standard"]),
                *("standard", created, created),
            )

    conn.execute("set session_replication_role = replica")
    try:
        with conn.transaction(), conn.cursor() as cur:
            for table, columns, make in (
                ("facts", FACT_COLUMNS, facts),
                ("episodes", EPISODE_COLUMNS, episodes),
                ("rules", RULE_COLUMNS, rules),
            ):
                names = ", ".join(name for name, _ in columns)
                with cur.copy(f"copy pymem.{table} ({names}) from stdin (format binary)") as copy:
                    copy.set_types([vector_oid if kind == "vector" else kind for _, kind in columns])
                    for row in make():
                        copy.write_row(row)
    finally:
        conn.execute("reset session_replication_role")
    return TenantData(tenant=tenant, counts=counts, sessions={b: list(s) for b, s in sessions.items()})


def _vector_oid(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("select 'public.vector'::regtype::oid").fetchone()
    assert row is not None
    return int(row[0])


def table_sizes(conn: psycopg.Connection[Any]) -> dict[str, dict[str, int]]:
    """Rows and on-disk bytes (with indexes) of the three memory tables."""
    out: dict[str, dict[str, int]] = {}
    for table in ("episodes", "facts", "rules"):
        row = conn.execute(
            sql.SQL("select count(*), pg_catalog.pg_total_relation_size({}::regclass) from pymem.{}").format(
                sql.Literal(f"pymem.{table}"), sql.Identifier(table)
            )
        ).fetchone()
        assert row is not None
        out[table] = {"rows": int(row[0]), "bytes": int(row[1])}
    return out
