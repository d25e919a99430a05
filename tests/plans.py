"""Reading query plans of the partitioned memory tables (migration 0038).

pymem.episodes, pymem.facts and pymem.rules are partitioned by hash (tenant_id): a plan reads their partitions
(pymem_private.<table>_pNN), through each partition's own index, whose name is made up by PostgreSQL
(facts_p03_embedding_idx, facts_p03_tenant_id_search_vector_idx, ...) and which is attached to the parent table's
index of the name pymem gave it (pymem.facts_embedding_idx, pymem.facts_search_idx, ...). So "the plan uses
pymem.facts_search_idx" reads, in partition terms: the scans of the tenant's partition go through an index
attached to pymem.facts_search_idx, and none reads the partition row by row.

A tenant bound through row-level security (tenant_id = (select pymem.current_tenant()), an InitPlan) is pruned
to its partition only when the plan runs: EXPLAIN shows every partition (each planned on its own: an empty one
through whichever index), EXPLAIN ANALYZE shows the others never executed. A tenant bound by a constant is pruned
when planned: the plan holds its partition only. Plans are read as EXPLAIN (FORMAT JSON), their scans as Scan.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql

# the nodes that read a table's rows, and those that read an index
TABLE_SCANS = {"Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Tid Scan", "Tid Range Scan"}
INDEX_SCANS = {"Index Scan", "Index Only Scan", "Bitmap Index Scan"}


@dataclass(frozen=True)
class Scan:
    """One scan node of a plan: its relation (a Bitmap Index Scan's is that of the Bitmap Heap Scan above it), its
    index (as named in the plan) and the top index that index is a partition of (schema-qualified), and whether
    it ran (None: the plan was not run)."""

    node_type: str
    relation: str | None
    index: str | None
    parent_index: str | None
    index_cond: str
    filter: str
    executed: bool | None


def explain(
    conn: psycopg.Connection[Any], query: str, params: Sequence[Any] | None = None, *, analyze: bool = False
) -> dict[str, Any]:
    """The plan of query (its top node), EXPLAIN (FORMAT JSON), and run (ANALYZE) when analyze is true."""
    options = "analyze, format json" if analyze else "format json"
    row = conn.execute(f"explain ({options}) {query}", params).fetchone()  # type: ignore[call-overload]
    assert row is not None
    document = json.loads(row[0]) if isinstance(row[0], str) else row[0]
    return dict(document[0]["Plan"])


def log_nested_plans(conn: psycopg.Connection[Any], messages: list[str]) -> None:
    """conn (a superuser's: LOAD needs one) sends the plan of every statement it runs, nested ones included, as
    auto_explain JSON notices into messages (read them with plan_of_log)."""
    register_vector(conn)
    conn.add_notice_handler(lambda d: messages.append(d.message_primary or ""))
    conn.execute("load 'auto_explain'")
    for setting in ("log_min_duration = 0", "log_nested_statements = on", "log_format = json"):
        conn.execute(f"set auto_explain.{setting}")
    conn.execute("set client_min_messages = log")


def plan_of_log(message: str) -> dict[str, Any] | None:
    """The plan an auto_explain message (auto_explain.log_format = json) logged, its top node; None for another
    message."""
    _, marker, document = message.partition("plan:")
    if not marker:
        return None
    try:
        return dict(json.loads(document)["Plan"])
    except (ValueError, KeyError, TypeError):
        return None


def _raw_scans(plan: dict[str, Any], relation: str | None = None) -> Iterator[dict[str, Any]]:
    """The scan nodes of plan and of its subplans (InitPlans and SubPlans included), each with its relation."""
    here = plan.get("Relation Name", relation if plan["Node Type"] == "Bitmap Index Scan" else None)
    if plan["Node Type"] in TABLE_SCANS or plan["Node Type"] == "Bitmap Index Scan":
        yield {**plan, "Relation Name": here}
    below = plan.get("Relation Name") if plan["Node Type"] == "Bitmap Heap Scan" else relation
    for child in plan.get("Plans", []):
        yield from _raw_scans(child, below)


def index_parent(conn: psycopg.Connection[Any], index: str) -> str:
    """The top ancestor of the index named index in pymem or pymem_private (a partition's index: the partitioned
    index it is attached to, pg_partition_ancestors; an index of a table not partitioned: itself), qualified."""
    rows = conn.execute(
        """select (select pg_catalog.format('%%I.%%I', n.nspname, t.relname)
                     from pg_catalog.pg_partition_ancestors(c.oid) with ordinality as a (relid, depth)
                     join pg_catalog.pg_class as t on t.oid = a.relid
                     join pg_catalog.pg_namespace as n on n.oid = t.relnamespace
                    order by a.depth desc limit 1)
             from pg_catalog.pg_class as c
            where c.relname = %s and c.relkind in ('i', 'I')
              and c.relnamespace in ('pymem'::regnamespace, 'pymem_private'::regnamespace)""",
        (index,),
    ).fetchall()
    assert len(rows) == 1, f"no single index {index} in pymem or pymem_private: {rows}"
    return str(rows[0][0])


def scans(conn: psycopg.Connection[Any], plan: dict[str, Any]) -> list[Scan]:
    """The scan nodes of plan (conn reads the catalog for the indexes' parents)."""
    found = []
    parents: dict[str, str] = {}
    for node in _raw_scans(plan):
        index = node.get("Index Name")
        # a catalog index (pg_class_oid_index: pymem_private.hnsw_ef_search looks up partitions) has no pymem parent
        if index is not None and index not in parents and not index.startswith("pg_"):
            parents[index] = index_parent(conn, index)
        loops = node.get("Actual Loops")
        found.append(
            Scan(
                node_type=node["Node Type"],
                relation=node["Relation Name"],
                index=index,
                parent_index=parents.get(index) if index is not None else None,
                index_cond=node.get("Index Cond", ""),
                filter=node.get("Filter", ""),
                executed=None if loops is None else loops > 0,
            )
        )
    return found


def tenant_partition(conn: psycopg.Connection[Any], table: str, tenant: str) -> str:
    """The partition of table (pymem.facts, ...) that holds tenant's rows, by the tableoid of those rows (conn
    must see them: a superuser, or a connection bound to tenant); its name as a plan gives it (unqualified)."""
    rows = conn.execute(
        sql.SQL(
            "select distinct c.relname from {} as t join pg_catalog.pg_class as c on c.oid = t.tableoid"
            " where t.tenant_id = %s"
        ).format(sql.Identifier(*table.split("."))),
        (tenant,),
    ).fetchall()
    assert len(rows) == 1, f"{tenant}'s rows of {table} are in {rows}, not one partition"
    assert rows[0][0] != table.split(".")[-1], f"{table} is not partitioned"
    return str(rows[0][0])


# the other partitions of the parent of the partition named %s (in pymem_private)
SIBLINGS = """
select o.relname
  from pg_catalog.pg_class as c
  join pg_catalog.pg_inherits as i on i.inhrelid = c.oid
  join pg_catalog.pg_inherits as s on s.inhparent = i.inhparent and s.inhrelid <> c.oid
  join pg_catalog.pg_class as o on o.oid = s.inhrelid
 where c.relname = %s and c.relnamespace = 'pymem_private'::regnamespace
"""


def served_by_index(
    conn: psycopg.Connection[Any],
    plan: dict[str, Any],
    partition: str,
    parent_index: str,
    *,
    node_types: set[str] | frozenset[str] = frozenset(INDEX_SCANS),
) -> list[Scan]:
    """Asserts that plan reads partition (a partition of a memory table, tenant_partition) through an index
    attached to parent_index (pymem.facts_search_idx, ...) in a scan of one of node_types, and never row by row
    (no Seq Scan of it); if plan was run (EXPLAIN ANALYZE), that those scans ran and that no other partition of
    its table was read. Returns the scans through that index, for the caller to check their conditions."""
    every = scans(conn, plan)
    shown = "\n".join(
        f"{s.node_type} on {s.relation} using {s.index} ({s.parent_index})"
        + ("" if s.executed is None else " ran" if s.executed else " never ran")
        for s in every
    )
    mine = [s for s in every if s.relation == partition]
    assert mine, f"no scan of {partition}:\n{shown}"
    assert not [s for s in mine if s.node_type == "Seq Scan"], f"{partition} is read row by row:\n{shown}"
    through = [s for s in mine if s.node_type in node_types and s.parent_index == parent_index]
    assert through, f"{partition} is not read through an index of {parent_index} ({sorted(node_types)}):\n{shown}"
    if through[0].executed is not None:
        assert all(s.executed for s in through), f"the scans of {partition} through {parent_index} never ran"
        siblings = {str(r[0]) for r in conn.execute(SIBLINGS, (partition,)).fetchall()}
        read = {s.relation for s in every if s.executed and s.relation in siblings}
        assert not read, f"partitions other than {partition} were read: {sorted(read)}\n{shown}"
    return through
