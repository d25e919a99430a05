"""The benchmark's bulk-loaded scale data, on its scratch database (pymem_dev.scratch).

Scale data is set-up, not a measurement, but it goes through the memory model like any store: the
loader only generates what a caller of memory_store_* would pass (content, embedding and its model
id, token count, importance, permanence, scope, subject/predicate, butler/session) plus a backdated
created_at. Those raw columns are COPYed (binary) into a temporary staging table, and one
``insert into pymem.<table> (...) select ... from staging`` per chunk moves them into the memory
tables as the migrator, with every trigger on and the column defaults in force. So the database
decides, as it does for memory_store_fact / _rule / _episode:

- ids (gen_random_uuid()) and search vectors (generated columns);
- decay_rate, from permanence (trigger set_decay_rate -> pymem.memory_decay_rate);
- validity 'active', invalidated_at and supersession (triggers maintain_fact_validity, supersede_fact,
  link_superseded_fact; the synthetic subject/predicate keys are distinct, so nothing is superseded);
- fact confidence (column default 1.0, memory_store_fact's default), rule maturity 'candidate' and its
  confidence (column defaults; pymem.memory_rule_confidence('candidate'));
- reference counts, tags and metadata (column defaults);
- one memory_events 'insert' row per memory (trigger record_state_transition).

Two columns follow from the backdated created_at exactly as a store at that moment would set
them: last_confirmed_at = created_at, and an episode's expires_at = created_at + its ttl (7 days,
memory_store_episode's default). Chunks of CHUNK rows commit one by one, because the supersession
trigger takes one advisory lock per fact and holds it to the end of its transaction.

Set-up that is not model logic stays: the vector indexes are dropped before the load and rebuilt
afterwards as their owner with a large ``maintenance_work_mem``, then ANALYZE; and each tenant's
partition of each table is ANALYZEd after the tenant's first small chunk, so that the planner knows
the tenant is there and the supersession trigger's cached lookup uses the unique (tenant_id,
subject, predicate) index rather than scanning the tenant's facts once per row (10 tenants x 10k:
about 35 s instead of about 75 s on 2 cores). Since the tables are partitioned by tenant (migration
0038) the parent's count says nothing about a tenant's partition, and it survives a TRUNCATE (the
partitions' go back to -1): the loader used to ANALYZE a table only when the parent's count looked
empty, so from the second scale on a tenant loaded into an empty partition, or beside another
tenant, was planned as if it had no rows there until autovacuum counted it (10k facts into an
empty partition of the kept 100k x 3 data: 18.3 s, 5.2 s once counted; docs/scale.md).
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

from pymem_dev.bench import corpus
from pymem_dev.scratch import ScratchDatabase

PERMANENCE = (["standard"] * 6) + (["stable"] * 2) + ["permanent", "volatile"]
MIX = {"fact": 0.5, "episode": 0.35, "rule": 0.15}
EPISODE_TTL = timedelta(days=7)  # the ttl each synthetic episode is stored with (memory_store_episode's default)
CHUNK = 2000  # rows per transaction: at most this many supersession advisory locks held at once
FIRST_CHUNK = 100  # rows of a tenant loaded into its partition of a table before that partition is ANALYZEd


@dataclass(frozen=True)
class Table:
    """A memory table, the raw columns the loader stages for it and the SELECT that inserts them."""

    name: str
    staged: list[tuple[str, str]]
    inserted: list[str]
    selected: list[str]


FACTS = Table(
    "facts",
    staged=[
        *[("tenant_id", "text"), ("subject", "text"), ("predicate", "text"), ("content", "text")],
        *[("embedding", "vector"), ("embedding_model", "text"), ("token_count", "int4"), ("importance", "float8")],
        *[("permanence", "text"), ("scope", "text"), ("created_at", "timestamptz")],
    ],
    inserted=["last_confirmed_at"],
    selected=["created_at"],
)
EPISODES = Table(
    "episodes",
    staged=[
        *[("tenant_id", "text"), ("butler", "text"), ("session_id", "uuid"), ("content", "text")],
        *[("embedding", "vector"), ("embedding_model", "text"), ("token_count", "int4"), ("importance", "float8")],
        *[("created_at", "timestamptz"), ("ttl", "interval")],
    ],
    inserted=["expires_at"],
    selected=["created_at + ttl"],
)
RULES = Table(
    "rules",
    staged=[
        *[("tenant_id", "text"), ("content", "text"), ("embedding", "vector"), ("embedding_model", "text")],
        *[("token_count", "int4"), ("scope", "text"), ("permanence", "text"), ("created_at", "timestamptz")],
    ],
    inserted=["last_confirmed_at"],
    selected=["created_at"],
)


@contextmanager
def migrator(scratch: ScratchDatabase) -> Iterator[psycopg.Connection[Any]]:
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
    """The vector indexes of pymem's tables: (name, CREATE INDEX statement). A partitioned table's index is defined
    `ON ONLY` its parent (pg_get_indexdef); created so again it would be an invalid index on the parent alone, with
    none on the partitions, so the statement is made to cover the partitions too."""
    rows = conn.execute(
        "select indexname, indexdef from pg_catalog.pg_indexes where schemaname = 'pymem'"
        " and (indexdef like '%USING hnsw%' or indexdef like '%USING ivfflat%') order by indexname"
    ).fetchall()
    return [(str(r[0]), str(r[1]).replace(" ON ONLY ", " ON ", 1)) for r in rows]


def reset_tables(conn: psycopg.Connection[Any], index_defs: list[tuple[str, str]]) -> None:
    """Empty the memory tables and drop the vector indexes (rebuilt after the load)."""
    conn.execute("truncate pymem.memory_links, pymem.memory_events, pymem.facts, pymem.rules, pymem.episodes")
    for name, _ in index_defs:
        conn.execute(sql.SQL("drop index if exists pymem.{}").format(sql.Identifier(name)))


def build_indexes(
    conn: psycopg.Connection[Any], index_defs: list[tuple[str, str]], maintenance_work_mem: str, workers: int
) -> dict[str, float]:
    """Re-create the vector indexes as their owner, then VACUUM (ANALYZE) the tables the load wrote; seconds per step.

    VACUUM as well as ANALYZE: after a load this size, autovacuum vacuums and analyses these tables on its own, a
    minute or more later, while the latencies are being measured (in a run of 2026-11-27 it did so on all five of
    them during the first three minutes of measuring at 100k per tenant, and re-analysed them, changing the plans).
    Measured after it, the figures are those of a database at rest, and two runs can be compared."""
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
    conn.execute(
        "vacuum (analyze) pymem.episodes, pymem.facts, pymem.rules, pymem.memory_events, pymem.memory_links,"
        " pymem.keyword_stats, pymem.keyword_lexemes"
    )
    timings["vacuum_analyze"] = time.perf_counter() - started
    return timings


def _split(size: int) -> dict[str, int]:
    facts = round(size * MIX["fact"])
    episodes = round(size * MIX["episode"])
    return {"fact": facts, "episode": episodes, "rule": max(size - facts - episodes, 0)}


def _staging(table: Table) -> sql.Composed:
    return sql.SQL("staging_{}").format(sql.SQL(table.name))


def _create_staging(conn: psycopg.Connection[Any], table: Table) -> None:
    columns = sql.SQL(", ").join(
        sql.SQL("{} {}").format(sql.Identifier(name), sql.SQL("public.vector" if kind == "vector" else kind))
        for name, kind in table.staged
    )
    conn.execute(
        sql.SQL("create temporary table if not exists {} ({}) on commit delete rows").format(_staging(table), columns)
    )


def _insert(table: Table) -> sql.Composed:
    staged = [name for name, _ in table.staged if name != "ttl"]
    return sql.SQL("insert into pymem.{} ({}) select {} from pg_temp.{}").format(
        sql.Identifier(table.name),
        sql.SQL(", ").join(map(sql.Identifier, [*staged, *table.inserted])),
        sql.SQL(", ").join([*map(sql.Identifier, staged), *map(sql.SQL, table.selected)]),
        _staging(table),
    )


def _load_rows(conn: psycopg.Connection[Any], table: Table, tenant: str, rows: Iterator[tuple[object, ...]]) -> None:
    """COPY rows into the staging table and insert them into the memory table, CHUNK rows per transaction.

    Planner statistics are set-up too: the tenant is new, and until its partition of the table is counted the
    planner takes it for one of no rows there, so the supersession trigger's lookup (cached for the session) would
    scan every fact of the tenant loaded so far instead of using the unique index on (tenant_id, subject,
    predicate). So a first small chunk goes in and the tenant's partition is ANALYZEd."""
    vector_oid = _vector_oid(conn)
    names = sql.SQL(", ").join(sql.Identifier(name) for name, _ in table.staged)
    copy_sql = sql.SQL("copy pg_temp.{} ({}) from stdin (format binary)").format(_staging(table), names)
    insert = _insert(table)
    _create_staging(conn, table)
    first = True
    while chunk := list(islice(rows, FIRST_CHUNK if first else CHUNK)):
        with conn.transaction(), conn.cursor() as cur:  # the staging table empties at commit
            with cur.copy(copy_sql) as copy:
                copy.set_types([vector_oid if kind == "vector" else kind for _, kind in table.staged])
                for row in chunk:
                    copy.write_row(row)
            cur.execute(insert)
        if first:
            conn.execute(sql.SQL("analyze {}").format(sql.SQL(tenant_partition(conn, tenant, f"pymem.{table.name}"))))
            first = False


def tenant_partition(conn: psycopg.Connection[Any], tenant: str, table: str) -> str:
    """The partition of the memory table (``pymem.facts``, ...) that holds the tenant's rows, or the table itself when
    it is not partitioned, as pymem.memory_tenant_partitions names it (schema-qualified, quoted)."""
    row = conn.execute("select (pymem.memory_tenant_partitions(%s, array[%s]))[1]", (tenant, table)).fetchone()
    assert row is not None
    return str(row[0])


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
    """Store `size` synthetic memories of one tenant (half facts, 35% episodes, 15% rules) through the
    tables' triggers and defaults; `expired_share` of the episodes are old enough to have expired."""
    counts = _split(size)
    rows = corpus.synthetic_rows(size, source.texts, source.vectors, rng)
    tokens = [len(e.ids) for e in token_counter.encode_batch(rows.texts, add_special_tokens=False)]
    pyrng = random.Random(int(rng.integers(0, 2**31)))
    now = datetime.now(UTC)
    sessions = {b: [uuid.uuid4() for _ in range(4)] for b in corpus.BUTLERS}
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
                *(tenant, pyrng.choice(corpus.PEOPLE), f"{topic}_{i}", rows.texts[i]),
                *(rows.vectors[i], model, tokens[i], float(pyrng.randint(1, 9))),
                *(permanence, pyrng.choice(["global", "global", *corpus.BUTLERS]), created),
            )

    def episodes() -> Iterator[tuple[object, ...]]:
        for i in take(counts["episode"]):
            butler = corpus.BUTLERS[i % len(corpus.BUTLERS)]
            expired = pyrng.random() < expired_share
            created = now - timedelta(days=pyrng.uniform(8, 20) if expired else pyrng.uniform(0, 6.5))
            yield (
                *(tenant, butler, pyrng.choice(sessions[butler]), rows.texts[i]),
                *(rows.vectors[i], model, tokens[i], float(pyrng.randint(1, 9)), created, EPISODE_TTL),
            )

    def rules() -> Iterator[tuple[object, ...]]:
        for i in take(counts["rule"]):
            created = now - timedelta(days=pyrng.uniform(0, 30))
            yield (
                *(tenant, rows.texts[i], rows.vectors[i], model, tokens[i]),
                *(pyrng.choice(["global", *corpus.BUTLERS]), "standard", created),
            )

    for table, make in ((FACTS, facts), (EPISODES, episodes), (RULES, rules)):
        _load_rows(conn, table, tenant, make())
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
