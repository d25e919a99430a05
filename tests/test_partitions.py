"""The memory tables partitioned by hash of the tenant (migration 0038): the shape, isolation, and the move of
existing rows by the migration itself."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from psycopg import errors

from pymem import migrate
from pymem.errors import MigrationBlockedError
from pymem_dev.bench.tenant_transfer import partition_of, target_apart
from tests.conftest import MEMORY_PARTITIONS, TEST_PARTITIONS, Tenant
from tests.test_conversation import database_at

MEMORY_TABLES = ("pymem.episodes", "pymem.facts", "pymem.rules")


def test_each_memory_table_is_partitioned_by_hash_of_tenant(superuser: psycopg.Connection[Any]) -> None:
    for table in MEMORY_TABLES:
        key = superuser.execute(
            "select pg_get_partkeydef(%s::regclass), relkind from pg_class where oid = %s::regclass", (table, table)
        ).fetchone()
        assert key == ("HASH (tenant_id)", "p")
    partitions = superuser.execute(
        """
        select c.oid::regclass::text, c.relrowsecurity, c.relforcerowsecurity, pg_get_userbyid(c.relowner),
               pg_get_expr(c.relpartbound, c.oid), obj_description(c.oid, 'pg_class') is not null
          from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent in ('pymem.episodes'::regclass, 'pymem.facts'::regclass, 'pymem.rules'::regclass)
        """
    ).fetchall()
    assert {p[0] for p in partitions} == MEMORY_PARTITIONS
    # RLS enabled and forced on each, owned by the owner, commented; remainders 0..n-1 of modulus n
    assert all(p[1:4] == (True, True, "pymem_owner") and p[5] for p in partitions), partitions
    assert sorted(p[4] for p in partitions if p[0].startswith("pymem_private.facts_")) == sorted(
        f"FOR VALUES WITH (modulus {TEST_PARTITIONS}, remainder {i})" for i in range(TEST_PARTITIONS)
    )


def test_each_partition_carries_every_index_and_trigger_of_its_table(superuser: psycopg.Connection[Any]) -> None:
    for table in MEMORY_TABLES:
        parent_indexes = superuser.execute(
            "select count(*) from pg_index where indrelid = %s::regclass", (table,)
        ).fetchone()
        attached = superuser.execute(
            """
            select c.relname, count(ix.indexrelid), count(pi.inhparent)
              from pg_inherits i join pg_class c on c.oid = i.inhrelid
              join pg_index ix on ix.indrelid = c.oid
              left join pg_inherits pi on pi.inhrelid = ix.indexrelid
             where i.inhparent = %s::regclass
             group by c.relname
            """,
            (table,),
        ).fetchall()
        assert len(attached) == TEST_PARTITIONS
        # every index of a partition is a partition of one of the table's indexes, and none is missing
        assert all(n == parent_indexes[0] and m == n for _, n, m in attached), (table, attached)  # type: ignore[index]
    row_triggers = superuser.execute(
        "select count(*) from pg_trigger where tgrelid = 'pymem.facts'::regclass and not tgisinternal"
        " and (tgtype & 1) = 1"  # FOR EACH ROW
    ).fetchone()
    cloned = superuser.execute(
        "select count(*) from pg_trigger where tgrelid = 'pymem_private.facts_p03'::regclass and not tgisinternal"
        " and tgparentid <> 0"
    ).fetchone()
    assert row_triggers == cloned and row_triggers[0] > 10  # type: ignore[index]


def test_a_tenants_rows_live_in_one_partition(as_tenant: Tenant) -> None:
    where: dict[str, set[str]] = {}
    for tenant in ("acme", "globex", "initech", "umbrella"):
        with as_tenant(tenant) as conn:
            for i in range(3):
                conn.execute(
                    "select pymem.memory_store_fact(subject => 'user', predicate => %s, content => %s)",
                    (f"p{i}", f"the fact {i} of {tenant}"),
                )
            where[tenant] = {r[0] for r in conn.execute("select tableoid::regclass::text from pymem.facts")}
    assert all(len(parts) == 1 for parts in where.values()), where


def test_the_bench_imports_into_a_partition_apart_from_the_exported_tenant(
    as_tenant: Tenant, superuser: psycopg.Connection[Any]
) -> None:
    # pgvector's HNSW index takes a vector it already has as a second heap pointer of that element, with no new element
    # and no neighbour updated: an import of a tenant's own vectors into its partition measured less index work than
    # new vectors cost (pymem_dev/bench/tenant_transfer.py)
    tenants = [f"t{i:02d}" for i in range(12)]
    for tenant in tenants:
        with as_tenant(tenant) as conn:
            conn.execute("select pymem.memory_store_fact(subject => 'user', predicate => 'likes', content => 'tea')")
    placed = dict(
        superuser.execute(
            "select distinct tenant_id, tableoid::regclass::text from pymem.facts where tenant_id = any(%s)",
            (tenants,),
        ).fetchall()
    )
    assert {tenant: partition_of(superuser, tenant) for tenant in tenants} == placed
    assert len(set(placed.values())) > 1
    targets = set()
    for tenant in tenants:
        target, target_partition, home = target_apart(superuser, tenant, "t_imported")
        assert home == placed[tenant] and target_partition == partition_of(superuser, target) != home
        assert target == "t_imported" or partition_of(superuser, "t_imported") == home
        targets.add(target)
    assert len(targets) == 2  # some tenants share t_imported's partition: another name is taken for them


def test_no_tenant_role_reads_or_writes_a_partition_directly(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        conn.execute("select pymem.memory_store_fact(subject => 'user', predicate => 'likes', content => 'tea')")
        partition = conn.execute("select tableoid::regclass::text from pymem.facts").fetchone()[0]  # type: ignore[index]
        with pytest.raises(errors.InsufficientPrivilege):
            conn.execute(f"select * from {partition}")
    with as_tenant("acme") as conn, pytest.raises(errors.InsufficientPrivilege):
        conn.execute(f"insert into {partition} (tenant_id, subject, predicate, content) values ('acme', 'a', 'b', 'c')")


def _seed(dsn: str) -> None:
    """Rows of two tenants in the unpartitioned tables of 0037, with a foreign key of each kind."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        for tenant in ("acme", "globex"):
            episode = conn.execute(
                "insert into pymem.episodes (tenant_id, butler, content) values (%s, 'b', %s) returning id",
                (tenant, f"{tenant} said they moved to Lisbon"),
            ).fetchone()[0]  # type: ignore[index]
            old = conn.execute(
                "insert into pymem.facts (tenant_id, subject, predicate, content, validity, invalidated_at)"
                " values (%s, 'user', 'lives in', 'Porto', 'superseded', now()) returning id",
                (tenant,),
            ).fetchone()[0]  # type: ignore[index]
            conn.execute(
                "insert into pymem.facts (tenant_id, subject, predicate, content, supersedes_id, source_episode_id)"
                " values (%s, 'user', 'lives in', 'Lisbon', %s, %s)",
                (tenant, old, episode),
            )
            conn.execute(
                "insert into pymem.rules (tenant_id, content, source_episode_id) values (%s, 'answer briefly', %s)",
                (tenant, episode),
            )


def _contents(dsn: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(dsn) as conn:
        return conn.execute(
            """
            select 'episode', tenant_id, id, content, search_vector::text, null::uuid, null::uuid from pymem.episodes
            union all
            select 'fact', tenant_id, id, content, search_vector::text, supersedes_id, source_episode_id
              from pymem.facts
            union all
            select 'rule', tenant_id, id, content, search_vector::text, null, source_episode_id from pymem.rules
            order by 1, 2, 3
            """
        ).fetchall()


def test_the_migration_moves_every_row_and_keeps_every_key(superuser: psycopg.Connection[Any], db_dsn: str) -> None:
    with database_at(superuser, db_dsn, "0037") as dsn:
        _seed(dsn)
        before = _contents(dsn)
        migrate.upgrade(dsn)
        assert migrate.current(dsn) == "0038"
        assert _contents(dsn) == before and len(before) == 8
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("select relkind from pg_class where oid = 'pymem.facts'::regclass").fetchone() == ("p",)
            # the keys hold across partitions: a fact cannot name another tenant's episode
            globex_episode = conn.execute("select id from pymem.episodes where tenant_id = 'globex'").fetchone()
            with pytest.raises(errors.ForeignKeyViolation):
                conn.execute(
                    "insert into pymem.facts (tenant_id, subject, predicate, content, source_episode_id)"
                    " values ('acme', 'user', 'x', 'y', %s)",
                    globex_episode,
                )
            # the triggers are back: storing the same subject and predicate supersedes through the partition
            conn.execute("select set_config('pymem.tenant_id', 'acme', false)")
            conn.execute("set role pymem_app")
            row = conn.execute(
                "select supersedes_id from pymem.memory_store_fact(subject => 'user', predicate => 'lives in',"
                " content => 'Madrid')"
            ).fetchone()
            lisbon = conn.execute(
                "select id, validity from pymem.facts where content = 'Lisbon' and tenant_id = 'acme'"
            ).fetchone()
            assert row == (lisbon[0],) and lisbon[1] == "superseded"  # type: ignore[index]
            conn.execute("reset role")
            # the audit is clean over the new tables
            assert [
                r for r in conn.execute("select * from pymem.memory_rls_audit() where not ok and section <> 'role'")
            ] == []


def test_the_migration_stops_before_dropping_what_others_built_on_the_tables(
    superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    with database_at(superuser, db_dsn, "0037") as dsn:
        _seed(dsn)
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("create view public.lisbon as select content from pymem.facts")
        with pytest.raises(
            MigrationBlockedError, match=r"cannot partition the memory tables: they are read by view public\.lisbon"
        ) as failed:
            migrate.upgrade(dsn)
        assert failed.value.hint == "drop those objects, run pymem migrate, then create them again"
        # nothing was applied: the revision, the table and its rows are as they were
        assert migrate.current(dsn) == "0037"
        with psycopg.connect(dsn) as conn:
            assert conn.execute("select relkind from pg_class where oid = 'pymem.facts'::regclass").fetchone() == ("r",)
            assert conn.execute("select count(*) from public.lisbon").fetchone() == (4,)


def test_sixteen_partitions_unless_the_operator_chose_another_number(
    superuser: psycopg.Connection[Any], db_dsn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PYMEM_MEMORY_PARTITIONS (1..256) when migration 0038 runs; unset: 16 (the suite's template sets 4)."""
    monkeypatch.delenv("PYMEM_MEMORY_PARTITIONS")
    with database_at(superuser, db_dsn, "0038") as dsn, psycopg.connect(dsn) as conn:
        names = [
            r[0]
            for r in conn.execute(
                "select relid::regclass::text from pg_partition_tree('pymem.facts') where isleaf order by 1"
            )
        ]
        assert names == [f"pymem_private.facts_p{i:02d}" for i in range(16)]
    for wrong in ("0", "257", "lots"):
        monkeypatch.setenv("PYMEM_MEMORY_PARTITIONS", wrong)
        with (
            pytest.raises(ValueError, match="PYMEM_MEMORY_PARTITIONS must be a whole number from 1 to 256"),
            database_at(superuser, db_dsn, "0038"),
        ):
            pass
