"""Citus readiness, checked over the catalog (docs/scale.md, "Past one machine: Citus").

Citus cannot be installed on the machines this project is built and tested on (no Debian package,
and the PyPI name ``citus`` is an unrelated web framework), so nothing here simulates it. What these
tests check instead, as the superuser and read-only, is what Citus would demand of the schema when
every tenant table is distributed by ``tenant_id`` and co-located:

1. Every table of pymem and pymem_private is either a *distributed* (tenant) table — tenant_id leads
   its primary key, every unique constraint and unique index and every foreign key, and every foreign
   key points at another distributed table on (tenant_id, ...) — or is named in ``NOT_DISTRIBUTED``
   below, with the kind it would be on a cluster (reference or coordinator-local) and why.
2. tenant_id leads every index of a distributed table except the vector ones (HNSW and IVFFlat index
   the embedding alone; each shard gets its own).
3. No function joins across tenants (a heuristic over the function bodies, see ``join_problems``),
   except the functions named in ``CROSS_TENANT_FUNCTIONS``; dynamic SQL, which the heuristic cannot
   read, is allowed only in the functions named in ``DYNAMIC_SQL_FUNCTIONS``.
4. Trigger functions on distributed tables touch only rows of NEW.tenant_id / OLD.tenant_id.

Each check is a function returning the problems it found, so that the ``*_is_reported`` tests can add
an offending object to this test's throwaway database (a clone of the template, inside a transaction
that is rolled back) and assert that the check names it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest

SCHEMAS = ("pymem", "pymem_private")

# Tables that would NOT be distributed by tenant_id on a Citus cluster, and why. A table that is in
# neither this list nor passes the distributed-table checks fails test_every_table_is_distributed_or_listed.
#   reference: create_reference_table() — a copy on every node, so that tenant queries running on a
#              worker can read it locally (and join it) without leaving the node; writes go to all nodes.
#   local:     stays on the coordinator only (citus_add_local_table_to_metadata, or nothing at all);
#              read and written only by maintenance run on the coordinator, never by a tenant query.
NOT_DISTRIBUTED: dict[str, tuple[str, str]] = {
    "pymem_private.role_tenants": (
        "reference",
        "keyed by role_name (0001): it says which tenant a login role is bound to, so it is read "
        "before any tenant is known, by pymem.current_tenant() inside every RLS policy, on every node",
    ),
    "pymem_private.api_tokens": (
        "reference",
        "keyed by token id and token_hash (0003): a bearer token is resolved to its tenant before any "
        "tenant is known (token_verify); last_used_at is written at most once a minute per token",
    ),
    "pymem_private.embedding_config": (
        "reference",
        "a single row, the configured embedding model (0004), read by tenant functions "
        "(memory_search skips rows of another model), so every node needs it",
    ),
    "pymem_private.relevance_models": (
        "reference",
        "keyed by model name and variant (0010): the coefficients of the calibrated relevance, read by "
        "every search (memory_candidates) on every node",
    ),
    "pymem_private.guard_patterns": (
        "reference",
        "keyed by pattern name (0019): the guards against memory poisoning, read by every store's grounded "
        "ingestion (pymem_private.guard) on every node",
    ),
    "pymem_private.guard_models": (
        "reference",
        "keyed by model name (0022): the guard models over an episode's embedding, read by every store drawn "
        "from an episode (pymem_private.ground) on every node",
    ),
    "pymem_private.extraction_patterns": (
        "reference",
        "keyed by pattern name (0023): the built-in extractor's patterns, read by every consolidation "
        "(pymem.memory_extract) on every node",
    ),
    "pymem.embedding_queue": (
        "distributed",
        "keyed by tenant, memory type and id (0026): the memories of a tenant waiting for the embedding worker, "
        "beside the tenant's memories",
    ),
    "pymem.embedding_failures": (
        "distributed",
        "keyed by tenant, memory type and id (0026): what the embedding worker gave up on, per tenant",
    ),
    "pymem_private.model_words": (
        "reference",
        "keyed by embedding model and word (0024): the words the embedding model knows, read by every store "
        "drawn from an episode (pymem_private.unreadable_passage) on every node",
    ),
    "pymem_private.index_health": (
        "local",
        "keyed by index name (0004): recall measurements of the vector indexes, written and read "
        "only by the maintenance functions, run as the migrator or elevated admin on the coordinator",
    ),
    "pymem_private.index_rebuilds": (
        "local",
        "keyed by index name (0004): the log of REINDEX runs by pymem maintain, on the coordinator",
    ),
    "pymem_private.alembic_version": (
        "local",
        "Alembic's revision marker; migrations and the sql/ files are applied on the coordinator",
    ),
}

# Functions that read several distributed tables across tenants on purpose, and why. Empty today:
# the cross-tenant maintenance functions read one table per statement (or per UNION branch), or read
# them through dynamic SQL (DYNAMIC_SQL_FUNCTIONS), so the join check has nothing to say about them.
CROSS_TENANT_FUNCTIONS: dict[str, str] = {}

# Functions that run dynamic SQL (EXECUTE), which the join check cannot read; each is reviewed here.
DYNAMIC_SQL_FUNCTIONS: dict[str, str] = {
    "pymem.memory_bind_role": "role DDL only (grant pymem_analyst to %I, alter role ... set search_path)",
    "pymem.memory_embedding_complete": "one UPDATE per table named (pymem.episodes, facts, rules: the name one of"
    " those three, never the caller's), each by tenant_id and the batch's ids: single-shard writes",
    "pymem.memory_unbind_role": "role DDL only (revoke pymem_analyst from %I)",
    "pymem_private.index_recall": (
        "one table (the vector index's), filtered by tenant or tag or not at all: recall of the index "
        "across tenants on purpose (index health, run as the migrator or elevated admin)"
    ),
    "pymem_private.tenant_sizes": "one table, grouped by tenant_id on purpose (index health sampling)",
    "pymem_private.common_tag": "one table, across tenants on purpose (index health sampling)",
    "pymem_private.import_statistics": (
        "ANALYZE of the caller's tenant's partition of one memory table (a maintenance statement, no join; on Citus"
        " the shard's, run where the import's rows are)"
    ),
    "pymem_private.refresh_tenant_statistics": (
        "ANALYZE of the caller's tenant's partition of one memory table (a maintenance statement, no join;"
        " on Citus the shard's, run where the batch's rows are)"
    ),
    "pymem.memory_rerank_candidates": (
        "one call of pymem.memory_search, the caller's tenant's, built only to leave out the arguments not given "
        "(so that memory_search's own defaults apply); no table is named"
    ),
    "pymem.memory_erase_tenant": (
        "one table per statement (delete from <table> where tenant_id = $1), the table from a fixed list: "
        "erasure of one tenant, superusers only"
    ),
}

VECTOR_INDEX_METHODS = ("hnsw", "ivfflat")
CONSTRAINT_KINDS = {"p": "primary key", "u": "unique constraint", "x": "exclusion constraint"}


# --- catalog -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    name: str
    tenant_attnum: int | None  # attnum of tenant_id, None when the table has none


def tables(conn: psycopg.Connection[Any]) -> dict[int, Table]:
    rows = conn.execute(
        """
        select c.oid::int8, n.nspname || '.' || c.relname, a.attnum
          from pg_catalog.pg_class as c
          join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
          left join pg_catalog.pg_attribute as a
            on a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped
         where n.nspname = any(%s) and c.relkind in ('r', 'p', 'f')
           -- a partition is distributed with its parent (Citus distributes a partitioned table whole)
           and not c.relispartition
         order by 2
        """,
        [list(SCHEMAS)],
    ).fetchall()
    return {oid: Table(name, attnum) for oid, name, attnum in rows}


def distributed_problems(conn: psycopg.Connection[Any], table: Table, oid: int) -> list[str]:
    """Why `table` cannot be distributed by tenant_id as it stands (no problems: it can)."""
    if table.tenant_attnum is None:
        return ["has no tenant_id column"]
    problems: list[str] = []
    has_pkey = False
    for name, kind, keys in conn.execute(
        """
        select conname, contype, conkey::int2[] from pg_catalog.pg_constraint
         where conrelid = %s and contype in ('p', 'u', 'x')
        """,
        [oid],
    ).fetchall():
        has_pkey = has_pkey or kind == "p"
        if not keys or keys[0] != table.tenant_attnum:
            problems.append(f"{CONSTRAINT_KINDS[kind]} {name} does not lead with tenant_id")
    if not has_pkey:
        problems.append("has no primary key (leading with tenant_id)")
    for name, keys in conn.execute(
        """
        select ic.relname, i.indkey::int2[] from pg_catalog.pg_index as i
          join pg_catalog.pg_class as ic on ic.oid = i.indexrelid
         where i.indrelid = %s and i.indisunique
           and not exists (select from pg_catalog.pg_constraint as k
                            where k.conrelid = i.indrelid and k.conindid = i.indexrelid
                              and k.contype in ('p', 'u', 'x'))
        """,
        [oid],
    ).fetchall():
        if keys[0] != table.tenant_attnum:
            problems.append(f"unique index {name} does not lead with tenant_id")
    return problems


# --- the table checks ----------------------------------------------------------------------------


def table_problems(conn: psycopg.Connection[Any]) -> list[str]:
    """Every table is distributable by tenant_id or listed in NOT_DISTRIBUTED; the list is not stale."""
    all_tables = tables(conn)
    names = {t.name for t in all_tables.values()}
    problems = [
        f"{name} is listed in NOT_DISTRIBUTED but does not exist: remove it from the list"
        for name in sorted(set(NOT_DISTRIBUTED) - names)
    ]
    for oid, table in all_tables.items():
        if table.name in NOT_DISTRIBUTED:
            continue
        for problem in distributed_problems(conn, table, oid):
            problems.append(
                f"{table.name} {problem}. Either make tenant_id lead its keys (a tenant table, distributed "
                f"by tenant_id on Citus) or add it to NOT_DISTRIBUTED in tests/test_citus_readiness.py "
                f"as a reference or local table, with the reason, and to the plan in docs/scale.md"
            )
    return problems


def distributed_tables(conn: psycopg.Connection[Any]) -> dict[int, Table]:
    return {oid: t for oid, t in tables(conn).items() if t.name not in NOT_DISTRIBUTED}


def foreign_key_problems(conn: psycopg.Connection[Any]) -> list[str]:
    """Foreign keys between distributed tables are co-located: (tenant_id, ...) -> (tenant_id, ...).

    Citus also refuses a foreign key from a reference or local table to a distributed one."""
    all_tables = tables(conn)
    distributed = distributed_tables(conn)
    problems: list[str] = []
    for name, table_oid, keys, target_oid, target_keys in conn.execute(
        """
        select c.conname, c.conrelid::int8, c.conkey::int2[], c.confrelid::int8, c.confkey::int2[]
          from pg_catalog.pg_constraint as c
         where c.contype = 'f' and c.conrelid = any(%s)
           -- not the copies PostgreSQL keeps of a foreign key per partition of the table it references
           and c.conparentid = 0
        """,
        [list(all_tables)],
    ).fetchall():
        table = all_tables[table_oid]
        target = all_tables.get(target_oid)
        target_name = target.name if target else f"a table outside {SCHEMAS}"
        if table_oid not in distributed:
            if target_oid in distributed:
                problems.append(
                    f"foreign key {name} of {table.name} (not distributed) references the distributed "
                    f"table {target_name}: Citus refuses it; drop it or make {table.name} a tenant table"
                )
            continue
        if target is None or target_oid not in distributed:
            if target is not None and NOT_DISTRIBUTED[target.name][0] == "reference":
                continue  # distributed -> reference is allowed
            problems.append(f"foreign key {name} of {table.name} references {target_name}, not a tenant table")
            continue
        if keys[0] != table.tenant_attnum or target_keys[0] != target.tenant_attnum:
            problems.append(
                f"foreign key {name} of {table.name} -> {target.name} is not on (tenant_id, ...) = "
                f"(tenant_id, ...): a row could point into another tenant, and Citus needs it co-located"
            )
    return problems


def index_problems(conn: psycopg.Connection[Any]) -> list[str]:
    """tenant_id leads every index of a distributed table, vector indexes excepted."""
    distributed = distributed_tables(conn)
    problems: list[str] = []
    for table_oid, index, method, keys in conn.execute(
        """
        select i.indrelid::int8, ic.relname, am.amname, i.indkey::int2[]
          from pg_catalog.pg_index as i
          join pg_catalog.pg_class as ic on ic.oid = i.indexrelid
          join pg_catalog.pg_am as am on am.oid = ic.relam
         where i.indrelid = any(%s)
         order by 2
        """,
        [list(distributed)],
    ).fetchall():
        table = distributed[table_oid]
        if method in VECTOR_INDEX_METHODS or keys[0] == table.tenant_attnum:
            continue
        problems.append(
            f"index {index} ({method}) of {table.name} does not lead with tenant_id: "
            f"create it on (tenant_id, ...) so that a tenant's scan stays within its rows"
        )
    return problems


# --- the function heuristic ----------------------------------------------------------------------
#
# Over each function body (pg_proc.prosrc; pg_get_function_sqlbody for BEGIN ATOMIC bodies):
#  1. Comments and string literals are removed (so SQL built in strings is invisible: see
#     DYNAMIC_SQL_FUNCTIONS) and the text is lower-cased.
#  2. A reference to a distributed table is `from|join|update|into|using [only] <schema>.<table>
#     [[as] alias]`; without an alias the table name is the alias.
#  3. The body is cut into segments: statements (at `;`), then at UNION / EXCEPT / INTERSECT, since
#     each branch of a set operation is a query of its own.
#  4. A tie to a tenant is an equality `alias.tenant_id = x` or `x = alias.tenant_id` (not `= any`).
#  Rules, for a function whose body references two or more distributed tables:
#  - every `join <distributed table> alias` has a tie of alias in its ON clause (the text from `on`
#    to the next clause keyword at the same parenthesis depth), or is JOIN ... USING (tenant_id, ...);
#  - a distributed table is never joined by a comma or CROSS JOIN (there is no ON clause to check);
#  - in a segment that references two or more distributed tables (a join, a correlated subquery),
#    every reference is tied to a tenant somewhere in that segment.
#  What it cannot see: SQL in strings (EXECUTE), a tie to a *different* tenant variable on each side,
#  and calls to other functions (each function is checked on its own).

KEYWORDS = frozenset(
    {
        "on",
        "where",
        "set",
        "join",
        "inner",
        "left",
        "right",
        "full",
        "cross",
        "natural",
        "lateral",
        "group",
        "order",
        "limit",
        "offset",
        "using",
        "returning",
        "for",
        "union",
        "except",
        "intersect",
        "window",
        "having",
        "values",
        "select",
        "default",
        "and",
        "or",
        "when",
        "then",
        "else",
        "end",
        "loop",
        "into",
        "as",
        "tablesample",
        "with",
        "do",
        "conflict",
    }
)
CLAUSE_END = re.compile(
    r"\b(join|inner|left|right|full|cross|natural|where|group|order|limit|offset|union|except|intersect|"
    r"having|window|returning|into|loop|then)\b"
)


def strip_sql(body: str) -> str:
    """The body without comments and string literals, lower-cased."""
    out: list[str] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if body.startswith("--", i):
            end = body.find("\n", i)
            i = n if end < 0 else end
        elif body.startswith("/*", i):
            end = body.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch == "'":
            j = i + 1
            while j < n:
                if body[j] == "'" and body.startswith("''", j):
                    j += 2
                elif body[j] == "'":
                    break
                else:
                    j += 1
            out.append("''")
            i = j + 1
        elif ch == "$" and (m := re.match(r"\$([a-z_]\w*)?\$", body[i:], re.IGNORECASE)):
            end = body.find(m.group(0), i + len(m.group(0)))
            out.append("''")
            i = n if end < 0 else end + len(m.group(0))
        elif ch == '"':
            end = body.find('"', i + 1)
            out.append(body[i + 1 : end])
            i = n if end < 0 else end + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out).lower()


@dataclass(frozen=True)
class Ref:
    verb: str  # from, join, update, into, using
    table: str  # schema.name
    alias: str
    start: int  # offset of the verb in the stripped body
    end: int  # offset just after the table reference (and alias)


def table_refs(text: str, distributed: set[str]) -> list[Ref]:
    pattern = re.compile(
        r"\b(from|join|update|into|using)\s+(?:only\s+)?(" + "|".join(SCHEMAS) + r")\.(\w+)\b"
        r"(?:\s+(?:as\s+)?([a-z_]\w*))?"
    )
    refs: list[Ref] = []
    for m in pattern.finditer(text):
        table = f"{m.group(2)}.{m.group(3)}"
        if table not in distributed:
            continue
        alias = m.group(4)
        end = m.end()
        if alias is None or alias in KEYWORDS:
            alias = m.group(3)
            end = m.end(3)
        refs.append(Ref(m.group(1), table, alias, m.start(), end))
    return refs


def tie(alias: str, value: str | None = None) -> re.Pattern[str]:
    """`alias.tenant_id = <value>` or `<value> = alias.tenant_id` (any value unless given), not `= any (...)`."""
    a = re.escape(alias) + r"\.tenant_id\b"
    if value is None:
        return re.compile(rf"\b{a}\s*=(?!\s*(?:any|all|some)\b)|(?<![<>!])=\s*{a}")
    return re.compile(rf"\b{a}\s*=\s*{value}|\b{value}\s*=\s*{a}")


def clause_after(text: str, start: int) -> str:
    """From `start` to the next clause keyword or `;` at the same parenthesis depth (or a `)` closing it)."""
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (
            ch == ";" or (text[i - 1] not in "_." and not text[i - 1].isalnum() and CLAUSE_END.match(text, i))
        ):
            break
        i += 1
    return text[start:i]


def segments(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each statement, cut again at UNION / EXCEPT / INTERSECT."""
    start = 0
    for m in re.finditer(r";|\b(?:union|except|intersect)\b", text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)


def snippet(text: str, start: int, end: int, limit: int = 160) -> str:
    short = " ".join(text[start:end].split())
    return short if len(short) <= limit else short[: limit - 3] + "..."


def joined_using_tenant_id(after_ref: str) -> bool:
    """The text after a joined table starts with USING (..., tenant_id, ...)."""
    m = re.match(r"\s*using\s*\(([^()]*)\)", after_ref)
    return m is not None and "tenant_id" in (c.strip() for c in m.group(1).split(","))


def join_problems(name: str, body: str, distributed: set[str]) -> list[str]:
    text = strip_sql(body)
    refs = table_refs(text, distributed)
    if len({r.table for r in refs}) < 2:
        return []
    using_tenant = {r for r in refs if r.verb == "join" and joined_using_tenant_id(text[r.end :])}
    problems: list[str] = []
    for ref in refs:
        if ref.verb != "join":
            continue
        before = text[max(0, ref.start - 12) : ref.start]
        if re.search(r"\bcross\s+$", before):
            problems.append(f"{name}: cross join of {ref.table} {ref.alias} (no ON clause on tenant_id)")
            continue
        if ref in using_tenant:
            continue
        on = re.match(r"\s*on\b", text[ref.end :])
        if not on:
            problems.append(f"{name}: join of {ref.table} {ref.alias} without an ON clause or USING (tenant_id, ...)")
            continue
        clause = clause_after(text, ref.end + on.end())
        if not tie(ref.alias).search(clause):
            problems.append(
                f"{name}: join {ref.table} {ref.alias} on {snippet(clause, 0, len(clause))} — "
                f"the ON clause does not compare {ref.alias}.tenant_id: join on tenant_id equality"
            )
    for m in re.finditer(r",\s*(?:only\s+)?(" + "|".join(SCHEMAS) + r")\.(\w+)\b", text):
        if f"{m.group(1)}.{m.group(2)}" in distributed:
            problems.append(
                f"{name}: {m.group(1)}.{m.group(2)} joined by a comma: write JOIN ... ON <alias>.tenant_id = ..."
            )
    for start, end in segments(text):
        inside = [r for r in refs if start <= r.start < end]
        if len(inside) < 2:
            continue
        segment = text[start:end]
        for ref in inside:
            if ref not in using_tenant and not tie(ref.alias).search(segment):
                problems.append(
                    f"{name}: {ref.table} {ref.alias} is read with another tenant table in one query but "
                    f"is not tied to a tenant ({ref.alias}.tenant_id = ...): {snippet(text, start, end)}"
                )
    return problems


@dataclass(frozen=True)
class Function:
    name: str  # schema.name
    signature: str
    language: str
    body: str


def functions(conn: psycopg.Connection[Any]) -> list[Function]:
    rows = conn.execute(
        """
        select n.nspname || '.' || p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid), l.lanname,
               case when p.prosqlbody is not null then pg_catalog.pg_get_function_sqlbody(p.oid) else p.prosrc end
          from pg_catalog.pg_proc as p
          join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
          join pg_catalog.pg_language as l on l.oid = p.prolang
         where n.nspname = any(%s)
           and not exists (select from pg_catalog.pg_depend as d
                            where d.classid = 'pg_catalog.pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
         order by 1, 2
        """,
        [list(SCHEMAS)],
    ).fetchall()
    return [Function(*row) for row in rows]


def function_problems(conn: psycopg.Connection[Any]) -> list[str]:
    distributed = {t.name for t in distributed_tables(conn).values()}
    problems: list[str] = []
    seen: set[str] = set()
    dynamic: set[str] = set()
    for fn in functions(conn):
        seen.add(fn.name)
        text = strip_sql(fn.body)
        if fn.language == "internal":
            continue  # a built-in C function under another name (ts_match_leakproof): it reads no table
        if fn.language not in ("sql", "plpgsql"):
            problems.append(f"{fn.name}({fn.signature}) is in {fn.language}: the heuristic reads sql and plpgsql only")
            continue
        if fn.language == "plpgsql" and re.search(r"\bexecute\b(?!\s+function\b)", text):
            dynamic.add(fn.name)
            if fn.name not in DYNAMIC_SQL_FUNCTIONS:
                problems.append(
                    f"{fn.name}({fn.signature}) runs dynamic SQL (EXECUTE), which the join check cannot "
                    f"read: review that it joins no tenant tables across tenants and add it, with the "
                    f"reason, to DYNAMIC_SQL_FUNCTIONS in tests/test_citus_readiness.py"
                )
        if fn.name in CROSS_TENANT_FUNCTIONS:
            continue
        problems.extend(f"{p} (in {fn.name}({fn.signature}))" for p in join_problems(fn.name, fn.body, distributed))
    for name in sorted((set(CROSS_TENANT_FUNCTIONS) | set(DYNAMIC_SQL_FUNCTIONS)) - seen):
        problems.append(f"{name} is allow-listed in tests/test_citus_readiness.py but does not exist: remove it")
    for name in sorted((set(DYNAMIC_SQL_FUNCTIONS) & seen) - dynamic):
        problems.append(f"{name} is in DYNAMIC_SQL_FUNCTIONS but runs no dynamic SQL any more: remove it")
    return problems


# --- triggers ------------------------------------------------------------------------------------
#
# A trigger function of a distributed table would run on the worker holding the row's shard (Citus
# needs citus.enable_unsafe_triggers for that, see docs/scale.md). It is safe when everything it
# touches belongs to the row's tenant, i.e. stays in co-located shards. Checked over its body:
#  - every UPDATE / DELETE / SELECT of a distributed table ties the alias to `<row>.tenant_id`, where
#    <row> is new, old, or a variable assigned `:= new` / `:= old`;
#  - every INSERT INTO a distributed table gives `<row>.tenant_id` as the tenant_id of its VALUES;
#  - every call of a pymem / pymem_private function that itself references a distributed table
#    passes `<row>.tenant_id` among its arguments (that function is checked by function_problems).
# A reviewer still checks by eye what the heuristic cannot: advisory locks (node-local on Citus: the
# supersession trigger's lock must be taken on the node that holds the tenant's shard) and anything
# a callee does with the tenant it is given.


def trigger_problems(conn: psycopg.Connection[Any]) -> list[str]:
    distributed = distributed_tables(conn)
    names = {t.name for t in distributed.values()}
    bodies = {fn.name: fn for fn in functions(conn)}
    touching = {name for name, fn in bodies.items() if table_refs(strip_sql(fn.body), names)}
    problems: list[str] = []
    for table_oid, trigger, fn_name, transition in conn.execute(
        """
        select t.tgrelid::int8, t.tgname, n.nspname || '.' || p.proname,
               coalesce(t.tgnewtable, t.tgoldtable)
          from pg_catalog.pg_trigger as t
          join pg_catalog.pg_proc as p on p.oid = t.tgfoid
          join pg_catalog.pg_namespace as n on n.oid = p.pronamespace
         where not t.tgisinternal and t.tgrelid = any(%s)
           -- TRUNCATE triggers have no row: the statement empties every tenant's rows of the table (so
           -- keyword_stats_truncate clears every tenant's statistics of that memory type)
           and t.tgtype::int & 32 = 0
         order by 2
        """,
        [list(distributed)],
    ).fetchall():
        where = f"trigger {trigger} on {distributed[table_oid].name} ({fn_name})"
        fn = bodies.get(fn_name)
        if fn is None:
            problems.append(f"{where}: its function is outside {SCHEMAS}; review it by hand")
            continue
        text = strip_sql(fn.body)
        rows = {"new", "old"} | set(re.findall(r"\b([a-z_]\w*)\s*:=\s*(?:new|old)\s*;", text))
        row_tenant = r"(?:" + "|".join(sorted(rows)) + r")\.tenant_id\b"
        if transition is not None:
            # a statement trigger: its rows are the transition table's; what it passes on must be their tenant_ids
            # (select array_agg(c.tenant_id), ... into v_tenants, ... from <transition table> as c)
            carried = {
                m.group(2)
                for m in re.finditer(r"select\s+array_agg\(\s*(\w+)\.tenant_id\s*\)[^;]*?\binto\s+(\w+)[^;]*?;", text)
                if re.search(rf"\bfrom\s+{re.escape(transition)}\s+as\s+{re.escape(m.group(1))}\b", m.group(0))
            }
            row_tenant = (
                r"(?:(?:"
                + "|".join(sorted(rows))
                + r")\.tenant_id\b"
                + "".join(rf"|\b{re.escape(v)}\b" for v in sorted(carried))
                + ")"
            )
        for ref in table_refs(text, names):
            segment = next(text[s:e] for s, e in segments(text) if s <= ref.start < e)
            if ref.verb == "into":
                m = re.match(r"\s*\(([^()]*)\)\s*values\s*\(", text[ref.end :])
                if not m:
                    problems.append(f"{where}: insert into {ref.table} is not INSERT ... (columns) VALUES (...)")
                    continue
                columns = [c.strip() for c in m.group(1).split(",")]
                values = split_args(text[ref.end + m.end() :])
                given = values[columns.index("tenant_id")] if "tenant_id" in columns else ""
                if not re.fullmatch(row_tenant, given.strip()):
                    problems.append(f"{where}: inserts into {ref.table} with tenant_id {given.strip() or 'unset'}")
            elif not tie(ref.alias, row_tenant).search(segment):
                problems.append(
                    f"{where}: {ref.verb} {ref.table} {ref.alias} is not limited to the row's tenant "
                    f"({ref.alias}.tenant_id = new.tenant_id): {snippet(segment, 0, len(segment))}"
                )
        for m in re.finditer(r"\b(" + "|".join(SCHEMAS) + r")\.(\w+)\s*\(", text):
            callee = f"{m.group(1)}.{m.group(2)}"
            if callee in touching and not any(re.search(row_tenant, a) for a in split_args(text[m.end() :])):
                problems.append(f"{where}: calls {callee} without the row's tenant_id")
    return problems


def split_args(text: str) -> list[str]:
    """The comma-separated items of `text` up to the `)` that closes the list it starts inside."""
    items: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                items.append(text[start:i])
                return items
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return items


# --- tests ---------------------------------------------------------------------------------------


def test_every_table_is_distributed_or_listed(superuser: psycopg.Connection[Any]) -> None:
    assert table_problems(superuser) == []


def test_the_tenant_tables(superuser: psycopg.Connection[Any]) -> None:
    """The plan in docs/scale.md distributes exactly these (a new tenant table belongs in both)."""
    assert sorted(t.name for t in distributed_tables(superuser).values()) == [
        "pymem.butler_settings",
        "pymem.episodes",
        "pymem.facts",
        "pymem.keyword_lexemes",
        "pymem.keyword_stats",
        "pymem.memory_events",
        "pymem.memory_links",
        "pymem.rules",
        "pymem.second_embeddings",
    ]


def test_foreign_keys_are_co_located(superuser: psycopg.Connection[Any]) -> None:
    assert foreign_key_problems(superuser) == []


def test_tenant_id_leads_every_index_but_the_vector_ones(superuser: psycopg.Connection[Any]) -> None:
    assert index_problems(superuser) == []


def test_no_function_joins_across_tenants(superuser: psycopg.Connection[Any]) -> None:
    assert function_problems(superuser) == []


def test_triggers_touch_only_the_rows_tenant(superuser: psycopg.Connection[Any]) -> None:
    assert trigger_problems(superuser) == []


# --- the checks fail when they should (objects added in this test's database, rolled back) -------


@pytest.fixture
def scratch(superuser: psycopg.Connection[Any]) -> Iterator[psycopg.Connection[Any]]:
    with superuser.transaction(force_rollback=True):
        yield superuser


def test_a_table_without_tenant_keys_is_reported(scratch: psycopg.Connection[Any]) -> None:
    scratch.execute("create table pymem.notes (id uuid primary key, tenant_id text not null, body text)")
    scratch.execute("create index notes_body_idx on pymem.notes (body)")
    problems = table_problems(scratch)
    assert len(problems) == 1
    assert problems[0].startswith("pymem.notes primary key notes_pkey does not lead with tenant_id.")
    assert "add it to NOT_DISTRIBUTED" in problems[0]
    assert index_problems(scratch) == [
        "index notes_body_idx (btree) of pymem.notes does not lead with tenant_id: "
        "create it on (tenant_id, ...) so that a tenant's scan stays within its rows",
        "index notes_pkey (btree) of pymem.notes does not lead with tenant_id: "
        "create it on (tenant_id, ...) so that a tenant's scan stays within its rows",
    ]


def test_a_foreign_key_without_tenant_id_is_reported(scratch: psycopg.Connection[Any]) -> None:
    # (a partitioned table, as the memory tables are, refuses a unique key without tenant_id outright)
    scratch.execute("alter table pymem.memory_links add column id uuid, add column origin_id uuid")
    scratch.execute("create unique index memory_links_id_key on pymem.memory_links (id)")
    scratch.execute(
        "alter table pymem.memory_links add constraint memory_links_origin_fkey foreign key (origin_id)"
        " references pymem.memory_links (id)"
    )
    assert "pymem.memory_links unique index memory_links_id_key does not lead with tenant_id." in " ".join(
        table_problems(scratch)
    )
    assert foreign_key_problems(scratch) == [
        "foreign key memory_links_origin_fkey of pymem.memory_links -> pymem.memory_links is not on (tenant_id, ...)"
        " = (tenant_id, ...): a row could point into another tenant, and Citus needs it co-located"
    ]


BAD_JOIN = """
create function pymem_private.citus_probe(p_tenant text) returns bigint
language plpgsql stable set search_path = pg_catalog, pg_temp as $$
begin
    -- facts joined to their source episode by id alone: the join crosses tenants
    return (select count(*) from pymem.facts as f
              join pymem.episodes as e on e.id = f.source_episode_id
             where f.tenant_id = p_tenant);
end;
$$
"""


def test_a_function_joining_without_tenant_id_is_reported(scratch: psycopg.Connection[Any]) -> None:
    scratch.execute(BAD_JOIN)
    problems = function_problems(scratch)
    assert problems == [
        "pymem_private.citus_probe: join pymem.episodes e on e.id = f.source_episode_id — the ON clause "
        "does not compare e.tenant_id: join on tenant_id equality (in pymem_private.citus_probe(p_tenant text))",
        "pymem_private.citus_probe: pymem.episodes e is read with another tenant table in one query but is "
        "not tied to a tenant (e.tenant_id = ...): begin return (select count(*) from pymem.facts as f join "
        "pymem.episodes as e on e.id = f.source_episode_id where f.tenant_id = p_tenant) "
        "(in pymem_private.citus_probe(p_tenant text))",
    ]


@pytest.mark.parametrize(
    "join",
    [
        "on e.tenant_id = f.tenant_id and e.id = f.source_episode_id",
        "on e.id = f.source_episode_id and p_tenant = e.tenant_id",
        "on (e.tenant_id = (select pymem.current_tenant()) and e.id = f.source_episode_id)",
    ],
)
def test_the_same_join_on_tenant_id_passes(scratch: psycopg.Connection[Any], join: str) -> None:
    scratch.execute(BAD_JOIN.replace("on e.id = f.source_episode_id", join))
    assert function_problems(scratch) == []


def test_a_join_using_tenant_id_passes(scratch: psycopg.Connection[Any]) -> None:
    scratch.execute(
        BAD_JOIN.replace(
            "join pymem.episodes as e on e.id = f.source_episode_id", "join pymem.episodes as e using (tenant_id)"
        )
    )
    assert function_problems(scratch) == []


def test_a_correlated_subquery_without_tenant_id_is_reported(scratch: psycopg.Connection[Any]) -> None:
    scratch.execute("""
        create function pymem.citus_probe() returns setof uuid
        language sql stable set search_path = pg_catalog, pg_temp
        begin atomic
            select f.id from pymem.facts as f
             where f.tenant_id = pymem.current_tenant()
               and exists (select from pymem.rules as r where r.content = f.content);
        end
    """)
    problems = function_problems(scratch)
    assert len(problems) == 1
    assert problems[0].startswith("pymem.citus_probe: pymem.rules r is read with another tenant table")


def test_dynamic_sql_outside_the_list_is_reported(scratch: psycopg.Connection[Any]) -> None:
    scratch.execute("""
        create function pymem_private.citus_probe() returns bigint
        language plpgsql stable set search_path = pg_catalog, pg_temp as $$
        declare v bigint;
        begin
            execute 'select count(*) from pymem.facts' into v;
            return v;
        end;
        $$
    """)
    problems = function_problems(scratch)
    assert len(problems) == 1
    assert problems[0].startswith("pymem_private.citus_probe() runs dynamic SQL (EXECUTE)")


def test_a_trigger_touching_other_tenants_is_reported(scratch: psycopg.Connection[Any]) -> None:
    scratch.execute("""
        create function pymem_private.citus_probe() returns trigger
        language plpgsql volatile set search_path = pg_catalog, pg_temp as $$
        begin
            update pymem.rules as r set confidence = 0 where r.content = new.content;
            insert into pymem.memory_links (tenant_id, source_type, source_id, target_type, target_id, relation)
            values ('acme', 'fact', new.id, 'fact', new.id, 'related_to');
            return new;
        end;
        $$
    """)
    scratch.execute(
        "create trigger facts_citus_probe after insert on pymem.facts "
        "for each row execute function pymem_private.citus_probe()"
    )
    assert trigger_problems(scratch) == [
        "trigger facts_citus_probe on pymem.facts (pymem_private.citus_probe): update pymem.rules r is not "
        "limited to the row's tenant (r.tenant_id = new.tenant_id): begin update pymem.rules as r set "
        "confidence = 0 where r.content = new.content",
        "trigger facts_citus_probe on pymem.facts (pymem_private.citus_probe): inserts into "
        "pymem.memory_links with tenant_id ''",
    ]


def test_a_statement_trigger_passing_on_other_tenants_is_reported(scratch: psycopg.Connection[Any]) -> None:
    """A statement trigger may pass on the tenant_ids of its transition table's rows, and nothing else."""
    scratch.execute("""
        create function pymem_private.citus_probe() returns trigger
        language plpgsql volatile set search_path = pg_catalog, pg_temp as $$
        declare
            v_tenants text[];
        begin
            select array_agg(c.tenant_id) into v_tenants from pymem.rules as c;
            perform pymem_private.keyword_stats_apply_rows('fact', v_tenants, null, null, true);
            return null;
        end;
        $$
    """)
    scratch.execute(
        "create trigger facts_citus_probe after insert on pymem.facts referencing new table as changed "
        "for each statement execute function pymem_private.citus_probe()"
    )
    assert [p for p in trigger_problems(scratch) if "citus_probe" in p] == [
        "trigger facts_citus_probe on pymem.facts (pymem_private.citus_probe): from pymem.rules c is not limited"
        " to the row's tenant (c.tenant_id = new.tenant_id): begin select array_agg(c.tenant_id) into v_tenants"
        " from pymem.rules as c",
        "trigger facts_citus_probe on pymem.facts (pymem_private.citus_probe): calls"
        " pymem_private.keyword_stats_apply_rows without the row's tenant_id",
    ]


def test_the_heuristic_reads_the_existing_functions(superuser: psycopg.Connection[Any]) -> None:
    """Guard against a heuristic that passes because it sees nothing: it finds the joins we know of."""
    distributed = {t.name for t in distributed_tables(superuser).values()}
    by_name = {fn.name: fn for fn in functions(superuser)}
    search = table_refs(strip_sql(by_name["pymem.memory_search"].body), distributed)
    assert {(r.verb, r.table, r.alias) for r in search} >= {
        ("join", "pymem.facts", "f"),
        ("join", "pymem.rules", "ru"),
        ("join", "pymem.episodes", "e"),
    }
    exists = table_refs(strip_sql(by_name["pymem_private.memory_exists"].body), distributed)
    assert {(r.table, r.alias) for r in exists} == {
        ("pymem.episodes", "e"),
        ("pymem.facts", "f"),
        ("pymem.rules", "r"),
    }
