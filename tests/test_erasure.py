"""Erasure ("forgotten means forgotten"): pymem.memory_erase purges a memory for good, and
pymem.memory_erase_tenant a whole tenant. Proven by finding nothing afterwards by any path: the SQL API as the
application role, every table read as the superuser, and (after the VACUUM `pymem erase` runs) the raw pages of
the tables through pageinspect."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any
from uuid import UUID

import numpy as np
import psycopg
import pytest
from mcp import Client
from psycopg import sql
from psycopg_pool import ConnectionPool

from pymem import erasure, maintenance
from pymem.embeddings import Embedder
from pymem.errors import BusyError
from tests.conftest import Tenant, connect_as
from tests.mcpclient import call as mcp_call
from tests.mcpclient import stdio_like_server
from tests.sqlapi import call, call_one, store_episode, store_fact, store_rule
from tests.test_cli import base_env, run_cli
from tests.test_keyword_stats import kept, recounted
from tests.test_recall import recall
from tests.test_search import search

MARKER = "zebrafinch"  # a word nothing else in these tests contains
TABLES = (
    "pymem.episodes",
    "pymem.facts",
    "pymem.rules",
    "pymem.memory_links",
    "pymem.memory_events",
    "pymem.keyword_lexemes",
    "pymem.keyword_stats",
    "pymem.butler_settings",
    "pymem_private.api_tokens",
    "pymem_private.role_tenants",
)


def rows_mentioning(superuser: psycopg.Connection[Any], needle: str) -> dict[str, int]:
    """Per table, the rows whose text (every column, cast) contains needle, read as the superuser."""
    found = {}
    for table in TABLES:
        query = sql.SQL("select count(*) from {} as t where t::text ilike %s").format(sql.SQL(table))
        (count,) = superuser.execute(query, (f"%{needle}%",)).fetchone()  # type: ignore[misc]
        if count:
            found[table] = count
    return found


def pages_mentioning(superuser: psycopg.Connection[Any], needle: str) -> list[str]:
    """The relations (tables, their TOAST and indexes) of pymem whose raw pages hold needle's bytes; not the
    embedding model's vocabulary (pymem_private.model_words: "lithium" is one of its 21,722 words, nobody's memory)."""
    superuser.execute("create extension if not exists pageinspect")
    relations = superuser.execute(
        "select c.oid::regclass::text, c.relkind from pg_class as c join pg_namespace as n on n.oid = c.relnamespace"
        " where n.nspname in ('pymem', 'pymem_private', 'pg_toast') and c.relkind in ('r', 't', 'i')"
        " and c.relpersistence = 'p' and pg_relation_size(c.oid) > 0"
        " and c.oid not in ('pymem_private.model_words'::regclass, 'pymem_private.model_words_pkey'::regclass)"
        " and (n.nspname <> 'pg_toast' or c.oid in (select reltoastrelid from pg_class join pg_namespace as s"
        "      on s.oid = relnamespace where s.nspname in ('pymem', 'pymem_private')))"
    ).fetchall()
    holding = []
    for relation, _ in relations:
        (hit,) = superuser.execute(  # type: ignore[misc]
            "select exists (select from generate_series(0, pg_relation_size(%s::regclass)"
            " / current_setting('block_size')::int - 1) as b"
            " where position(convert_to(%s, 'UTF8') in get_raw_page(%s, b::int)) > 0)",
            (relation, needle, relation),
        ).fetchone()
        if hit:
            holding.append(relation)
    return holding


def vacuum(superuser: psycopg.Connection[Any], *, full: bool = False) -> None:
    """What `pymem erase` runs after the erasure (`--rewrite`: VACUUM FULL)."""
    for table in TABLES:
        superuser.execute(sql.SQL("vacuum {} {}").format(sql.SQL("full" if full else ""), sql.SQL(table)))


@pytest.fixture
def patient(as_tenant: Tenant, embedder: Embedder) -> dict[str, Any]:
    """A tenant's memories about a health condition, MARKER in each: an episode, a fact derived from it, an older
    version of a fact and the version that superseded it, a rule, a link, a confirmation and feedback; and one
    unrelated fact, which must survive."""
    with as_tenant("acme") as conn:
        episode = store_episode(conn, f"Maya said her {MARKER} test came back positive", "health", embedder)
        derived = store_fact(
            conn, "maya", "diagnosis", f"Maya has {MARKER} syndrome", embedder, source_episode_id=episode
        )
        older = store_fact(conn, "maya", "medication", f"Maya takes {MARKER}-blockers twice a day", embedder)
        newer = store_fact(conn, "maya", "medication", f"Maya takes {MARKER}-blockers once a day", embedder)
        rule = store_rule(conn, f"Remind Maya about her {MARKER} medication", embedder, scope="health")
        call(conn, "memory_confirm", type="fact", id=newer)
        call(conn, "memory_mark_helpful", rule_id=rule)
        call(conn, "memory_mark_harmful", rule_id=rule, reason=f"mentioned {MARKER} in front of guests")
        conn.execute(
            "insert into pymem.memory_links (source_type, source_id, target_type, target_id, relation)"
            " values ('rule', %s, 'fact', %s, 'related_to')",
            (rule, newer),
        )
        kept = store_fact(conn, "maya", "city", "Maya lives in Lisbon", embedder)
    return {"episode": episode, "derived": derived, "older": older, "newer": newer, "rule": rule, "kept": kept}


def test_an_erased_memory_is_found_by_no_path(
    patient: dict[str, Any], as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder
) -> None:
    assert set(rows_mentioning(superuser, MARKER)) >= {"pymem.facts", "pymem.memory_events", "pymem.keyword_lexemes"}
    with as_tenant("acme") as conn:
        why = "erasure request 17"
        erased = call(conn, "memory_erase", type="episode", id=patient["episode"], reason=why, cascade=True)
        erased += call(conn, "memory_erase", type="fact", id=patient["newer"], reason=why, cascade=True)
        erased += call(conn, "memory_erase", type="rule", id=patient["rule"])
    assert {(r["memory_type"], r["memory_id"]) for r in erased} == {
        ("episode", patient["episode"]),
        ("fact", patient["derived"]),  # derived from the episode
        ("fact", patient["newer"]),
        ("fact", patient["older"]),  # the version the newer one superseded
        ("rule", patient["rule"]),
    }
    gone = {r["memory_id"] for r in erased}
    with as_tenant("acme") as conn:
        for mode in ("hybrid", "semantic", "keyword"):
            hits = search(conn, f"{MARKER} medication", embedder, mode=mode, min_confidence=0, min_relevance=0)
            assert not {h["memory_id"] for h in hits} & gone, mode
        assert not {h["memory_id"] for h in recall(conn, f"{MARKER} syndrome", embedder, min_relevance=0)} & gone
        for kind, memory_id in (("fact", patient["newer"]), ("episode", patient["episode"]), ("rule", patient["rule"])):
            with pytest.raises(psycopg.Error) as caught, conn.transaction():
                call_one(conn, "memory_get", type=kind, id=memory_id)
            assert caught.value.sqlstate == "PM003"
        # the unrelated fact is untouched, and the trail says what happened without saying what it was
        assert call_one(conn, "memory_get", type="fact", id=patient["kept"])["content"] == "Maya lives in Lisbon"
        events = conn.execute(
            "select memory_id, operation, details from pymem.memory_events where memory_id = any(%s)", (list(gone),)
        ).fetchall()
    assert {e[0] for e in events} == gone
    assert all(e[2] == {"erased": True} for e in events if e[1] != "delete")
    deletes = [e for e in events if e[1] == "delete"]
    assert len(deletes) == 5 and {str(e[2].get("reason")) for e in deletes} == {"erasure request 17", "None"}
    assert rows_mentioning(superuser, MARKER) == {}
    # VACUUM frees the dead rows and their index entries but leaves their bytes in the pages until overwritten,
    # and a GIN index keeps its keys (lexemes); VACUUM FULL rewrites the tables and rebuilds their indexes
    vacuum(superuser)
    vacuum(superuser, full=True)
    assert pages_mentioning(superuser, MARKER) == []


def test_erasure_is_bounded_to_the_tenant_and_validated(
    patient: dict[str, Any], as_tenant: Tenant, make_login: Any, db_dsn: str
) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("globex") as conn:
        call(conn, "memory_erase", type="fact", id=patient["newer"])
    assert caught.value.sqlstate == "PM003"  # another tenant's id: not found, and nothing erased
    for arguments, state in (
        ({"type": "fact", "id": patient["newer"], "cascade": None}, "PM002"),
        ({"type": "memo", "id": patient["newer"]}, "PM002"),
        ({"type": "fact", "id": None}, "PM003"),
        ({"type": "rule", "id": patient["newer"]}, "PM003"),
        ({"type": "fact", "id": patient["newer"], "reason": "x" * 1001}, "PM002"),
    ):
        with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
            call(conn, "memory_erase", **arguments)
        assert caught.value.sqlstate == state, arguments
    # the audit part alone rewrites nothing: the memory must have been deleted in the same transaction
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        conn.execute(
            "select pymem_private.scrub_erased_events(array['fact'], array[%s]::uuid[], null)", (patient["newer"],)
        )
    assert caught.value.sqlstate == "PM006"
    with as_tenant("acme") as conn:
        assert conn.execute("select count(*) from pymem.facts").fetchone() == (4,)
    # a bound analyst erases in its own tenant only
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn, conn.transaction():
        erased = call(conn, "memory_erase", type="fact", id=patient["kept"])
        assert [r["memory_id"] for r in erased] == [patient["kept"]]


def test_erasing_a_tenant(
    patient: dict[str, Any], as_tenant: Tenant, superuser: psycopg.Connection[Any], app: psycopg.Connection[Any]
) -> None:
    with as_tenant("globex") as conn:
        theirs = store_fact(conn, "user", "city", "Globex's user lives in Oslo")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        app.execute("select * from pymem.memory_erase_tenant('acme', 'not mine to erase')")
    erased = superuser.execute("select * from pymem.memory_erase_tenant('acme', 'contract ended')")
    counts = {r[0]: r[1] for r in erased}
    assert counts["pymem.facts"] == 4 and counts["pymem.episodes"] == 1 and counts["pymem.rules"] == 1
    assert counts["pymem.memory_links"] >= 2  # the rule's link, the supersession and derived_from links
    assert rows_mentioning(superuser, MARKER) == {}
    assert rows_mentioning(superuser, "acme") == {"pymem.memory_events": 1}
    with as_tenant("acme") as conn:
        (event,) = conn.execute("select operation, to_state, details from pymem.memory_events").fetchall()
    assert event[0:2] == ("delete", "erased") and event[2]["erased"] == "tenant"
    assert event[2]["reason"] == "contract ended" and event[2]["rows"]["pymem.facts"] == 4
    with as_tenant("globex") as conn:
        assert call_one(conn, "memory_get", type="fact", id=theirs)["content"] == "Globex's user lives in Oslo"
    vacuum(superuser, full=True)
    assert pages_mentioning(superuser, MARKER) == []


def relfilenodes(superuser: psycopg.Connection[Any]) -> dict[str, int]:
    """Each partition of the memory tables, and each other table pymem erase VACUUMs, with the file it is in now."""
    return dict(
        superuser.execute(
            "select format('%I.%I', n.nspname, c.relname), c.relfilenode from pg_class as c"
            " join pg_namespace as n on n.oid = c.relnamespace"
            " where c.relkind = 'r' and (c.relispartition or c.oid = any(pymem.memory_erase_tables()::regclass[]))"
            " and n.nspname in ('pymem', 'pymem_private')"
        ).fetchall()
    )


def test_the_partitions_of_a_tenant(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    tenants = [f"tenant-{i}" for i in range(8)]
    for tenant in tenants:
        with as_tenant(tenant) as conn:
            store_fact(conn, "user", "city", "The user lives in Lima.")
            store_rule(conn, "Answer in Spanish.")
            store_episode(conn, "We talked about Lima.", "travel")
    for tenant in tenants:
        (mapped,) = superuser.execute(  # type: ignore[misc]
            "select pymem.memory_tenant_partitions(%s, array['pymem.facts', 'pymem.memory_links', 'pymem.rules',"
            " 'pymem.episodes', 'pg_catalog.pg_authid'])",
            (tenant,),
        ).fetchone()
        holding = [
            superuser.execute(  # the partition the tenant's rows are in
                sql.SQL("select distinct tableoid::regclass::text from {} where tenant_id = %s").format(
                    sql.Identifier("pymem", table)
                ),
                (tenant,),
            ).fetchall()
            for table in ("facts", "rules", "episodes")
        ]
        assert [[(p,)] for p in (mapped[0], mapped[2], mapped[3])] == holding
        assert mapped[1] == "pymem.memory_links" and mapped[4] == "pg_catalog.pg_authid"
    with pytest.raises(psycopg.Error) as refused:
        superuser.execute("select pymem.memory_tenant_partitions('acme', array['pymem.nothing'])")
    assert refused.value.sqlstate == "PM002" and "no table pymem.nothing" in str(refused.value)
    for tenant, tables in (("", "array['pymem.facts']"), ("acme", "null"), ("acme", "array[null]")):
        with pytest.raises(psycopg.Error) as refused:
            superuser.execute(f"select pymem.memory_tenant_partitions(%s, {tables}::text[])", (tenant,))
        assert refused.value.sqlstate == "PM002"


def test_a_rewrite_rewrites_the_erased_tenants_partitions_only(
    patient: dict[str, Any], as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    """VACUUM FULL holds every tenant of the table it rewrites: with the memory tables partitioned by tenant, pymem
    erase rewrites the erased tenant's partition and leaves the others' files (and their tenants) alone."""
    (home,) = superuser.execute(  # type: ignore[misc]
        "select distinct tableoid::regclass::text from pymem.facts where tenant_id = 'acme'"
    ).fetchone()
    other = next(
        t
        for t in (f"tenant-{i}" for i in range(32))
        if superuser.execute("select pymem.memory_tenant_partitions(%s, array['pymem.facts'])", (t,)).fetchone()
        != ([home],)
    )
    with as_tenant(other) as conn:
        store_fact(conn, "user", "city", "The user lives in Lima.")
    before = relfilenodes(superuser)
    erased = erasure.erase_memory(
        db_dsn, tenant="acme", memory_type="fact", memory_id=str(patient["newer"]), reason=None, cascade=True,
        rewrite=True,
    )  # fmt: skip
    after = relfilenodes(superuser)
    rewritten = {table for table in before if after.get(table) != before[table]}
    acme = {f"pymem_private.{t}_p{home.rsplit('_p', 1)[1]}" for t in ("facts", "rules", "episodes")}
    assert "pymem.facts" not in erased.vacuumed and acme <= set(erased.vacuumed)
    assert rewritten == acme | {"pymem.memory_links", "pymem.keyword_lexemes", "pymem.memory_events"}
    assert pages_mentioning(superuser, "once a day") == []
    with as_tenant(other) as conn:
        assert conn.execute("select content from pymem.facts").fetchall() == [("The user lives in Lima.",)]


def test_pymem_erase_on_the_command_line(
    patient: dict[str, Any], as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    env = base_env(PYMEM_DSN=db_dsn)
    short = str(patient["newer"])[:8]
    done = run_cli("erase", "memory", "--tenant", "acme", "--type", "fact", "--id", short, "--cascade", env=env)
    assert done.stdout.splitlines() == sorted([f"erased fact {patient['newer']}", f"erased fact {patient['older']}"])
    assert "VACUUM: pymem.memory_links, pymem_private.facts_p" in done.stderr  # the tenant's partition
    refused = run_cli("erase", "tenant", "acme", "--reason", "r", "--confirm", "acme-typo", env=env, check=False)
    assert refused.returncode == 2 and "repeat its name with --confirm acme" in refused.stderr
    with as_tenant("acme") as conn:
        assert conn.execute("select count(*) from pymem.facts").fetchone() == (2,)
    done = run_cli("erase", "tenant", "acme", "--reason", "r", "--confirm", "acme", "--rewrite", env=env)
    assert "pymem.facts" in done.stdout and "VACUUM FULL" in done.stderr
    assert rows_mentioning(superuser, MARKER) == {}
    assert pages_mentioning(superuser, MARKER) == []
    unknown = run_cli("erase", "memory", "--tenant", "acme", "--type", "fact", "--id", short, env=env, check=False)
    assert unknown.returncode == 2 and "not found" in unknown.stderr


# An erased episode's text once survived in the next turn of its session (retrieval_context, and
# through it the search vector, the keyword lexemes and the embedding)
PRIVATE = "My psychiatrist Dr Quokkazebra prescribed lithium for me."
REPLY = "Yes, twice a day."
PRIVATE_WORDS = ("quokkazebra", "psychiatrist", "lithium", "prescrib")  # the text and its lexemes
SESSION = UUID("0f6bd1a4-55c2-4b8e-9a57-2d43a0e1c925")


def embedding_of(conn: psycopg.Connection[Any], memory_id: UUID) -> Any:
    row = conn.execute("select embedding, embedding_model from pymem.episodes where id = %s", (memory_id,)).fetchone()
    assert row is not None
    return row


def cosine(a: Any, b: Any) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.anyio
async def test_an_erased_turn_leaves_nothing_in_the_next_turn_of_its_session(
    app_pool: ConnectionPool,
    embedder: Embedder,
    as_tenant: Tenant,
    superuser: psycopg.Connection[Any],
    db_dsn: str,
    tmp_path: Path,
) -> None:
    """The probe's scenario, through the MCP tools and `pymem erase memory --cascade`: the reply that survives
    holds no trace of the erased turn in any column, the keyword tables hold none of its words, a keyword search
    for its rarest word finds nothing, and the reply's embedding is again that of its own text (re-embedded by
    `pymem erase` with the real model, in the erasure's transaction)."""
    server = stdio_like_server(app_pool, embedder, "acme", tmp_path / "butlers")
    async with Client(server) as client:
        stored = [
            (await mcp_call(client, "memory_store_episode", content=text, butler="health", session_id=str(SESSION)))[
                "memory_id"
            ]
            for text in (PRIVATE, REPLY)
        ]
        before = await mcp_call(client, "memory_search", query="Quokkazebra", mode="keyword", min_relevance=0)
    private, reply = (UUID(i) for i in stored)
    assert {UUID(h["memory_id"]) for h in before["results"]} == {private, reply}  # the probe's finding
    with as_tenant("acme") as conn:
        old_embedding = embedding_of(conn, reply)[0].to_numpy()
    assert cosine(old_embedding, embedder.embed(f"{PRIVATE}\n{REPLY}")) == pytest.approx(1.0, abs=1e-5)

    done = run_cli(
        "erase", "memory", "--tenant", "acme", "--type", "episode", "--id", str(private), "--cascade", "--rewrite",
        env=base_env(PYMEM_DSN=db_dsn),
    )  # fmt: skip
    assert done.stdout.splitlines() == [f"erased episode {private}", f"re-embedded episode {reply}"]

    for word in PRIVATE_WORDS:
        assert rows_mentioning(superuser, word) == {}, word  # every column of every row, the keyword tables too
    surviving = superuser.execute(
        "select retrieval_context, search_vector::text, session_position from pymem.episodes where id = %s", (reply,)
    ).fetchone()
    assert surviving == (None, "'day':4A 'twice':2A 'yes':1A", 2)
    with as_tenant("acme") as conn:
        assert search(conn, "Quokkazebra", embedder, mode="keyword", min_confidence=0, min_relevance=0) == []
        assert search(conn, "lithium psychiatrist", embedder, mode="keyword", min_confidence=0, min_relevance=0) == []
        embedding, model = embedding_of(conn, reply)
        assert kept(conn) == recounted(conn)
    assert model == embedder.model_id
    assert cosine(embedding.to_numpy(), embedder.embed(REPLY)) == pytest.approx(1.0, abs=1e-5)
    assert cosine(embedding.to_numpy(), old_embedding) < 0.99
    # nor in the files: the old version of the reply's row went with the VACUUM FULL of --rewrite
    for word in ("Quokkazebra", "quokkazebra", "lithium"):
        assert pages_mentioning(superuser, word) == [], word


def test_erasing_a_middle_turn_rebuilds_the_next_turn_from_the_one_before(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], embedder: Embedder, db_dsn: str
) -> None:
    """In SQL alone (an analyst's memory_erase, no model): the next turn gets the previous turn it has without the
    erased one (its search vector and keyword statistics follow), its embedding is cleared (flagged for
    re-embedding, found by keyword meanwhile) and it is reported with erased = false; the fact derived from the
    erased turn goes with cascade; the other turns and the facts derived from them are untouched."""
    maintenance.record_embedding_model(db_dsn, embedder.model_id)
    turns = ["Where did you go on Saturday?", PRIVATE, REPLY, "And on Sunday?"]
    with as_tenant("acme") as conn:
        ids = []
        for text in turns:
            # as the MCP server stores a turn: embedded with its previous turn
            embedding_text = call_one(conn, "memory_episode_text", session_id=SESSION, content=text)["embedding_text"]
            embedding = embedder.embed(embedding_text)
            ids.append(store_episode(conn, text, "health", embedder, session_id=SESSION, embedding=embedding))
        derived = store_fact(conn, "user", "medication", "The user takes lithium", embedder, source_episode_id=ids[1])
        kept_fact = store_fact(conn, "user", "weekend", "The user went out on Saturday", embedder, citation=str(ids[0]))
        erased = call(conn, "memory_erase", type="episode", id=ids[1], reason="erasure request 25", cascade=True)
    assert {(r["memory_type"], r["memory_id"], r["erased"]) for r in erased} == {
        ("episode", ids[1], True),
        ("fact", derived, True),
        ("episode", ids[2], False),  # kept, rebuilt without the erased turn
    }
    for word in PRIVATE_WORDS:
        assert rows_mentioning(superuser, word) == {}, word
    with as_tenant("acme") as conn:
        rebuilt = conn.execute(
            "select retrieval_context, embedding, embedding_model, session_position from pymem.episodes where id = %s",
            (ids[2],),
        ).fetchone()
        assert rebuilt == (turns[0], None, None, 3)
        untouched = conn.execute(
            "select id, retrieval_context, embedding_model from pymem.episodes where id <> %s"
            " order by session_position",
            (ids[2],),
        ).fetchall()
        assert untouched == [(ids[0], None, embedder.model_id), (ids[3], REPLY, embedder.model_id)]
        assert kept(conn) == recounted(conn)
        # found by keyword through its new previous turn, and flagged for re-embedding with that turn
        hits = search(conn, "Saturday", embedder, mode="keyword", min_confidence=0, min_relevance=0)
        assert {h["memory_id"] for h in hits} == {ids[0], ids[2], kept_fact}
        candidates = call(conn, "memory_reembed_candidates", limit=10)
        assert candidates == [{"memory_type": "episode", "memory_id": ids[2], "content": f"{turns[0]}\n{REPLY}"}]
        assert call_one(conn, "memory_get", type="fact", id=kept_fact)["content"] == "The user went out on Saturday"


# `pymem erase tenant` once left the tenant's logins and the large objects they had made


def test_no_tenant_role_may_create_a_large_object(
    make_login: Any, db_dsn: str, app: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    """Large objects live outside row-level security and outside every pymem table: no tenant role makes one, and
    one it does not own (another's, or the superuser's) it cannot open for writing either."""
    (theirs,) = superuser.execute("select lo_from_bytea(0, 'the operator''s bytes')").fetchone()  # type: ignore[misc]
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        for statement in (
            "select lo_create(0)",
            "select lo_creat(-1)",
            "select lo_from_bytea(0, 'secret bytes')",
            "select lo_import('/etc/hostname')",
            f"select lo_open({theirs}, 131072)",  # INV_WRITE
            f"select lo_put({theirs}, 0, 'x')",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(statement)
    for statement in ("select lo_create(0)", "select lo_from_bytea(0, 'x')"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege), app.transaction():
            app.execute(statement)
    assert superuser.execute(f"select convert_from(lo_get({theirs}), 'UTF8')").fetchone() == ("the operator's bytes",)
    audit = app.execute("select ok from pymem.memory_rls_audit() where object = 'pg_catalog large objects'").fetchall()
    assert audit == [(True,)]


def test_erasing_a_tenant_drops_its_logins_and_their_large_objects(
    patient: dict[str, Any], make_login: Any, db_dsn: str, superuser: psycopg.Connection[Any]
) -> None:
    """A login bound to the erased tenant is dropped with what it owns here (a large object it made before
    migration 0018 closed lo_create); one that owns something in another database cannot be dropped from here, so
    it loses LOGIN and pymem_analyst. Another tenant's login is untouched."""
    dropped, held, other = make_login("acme"), make_login("acme"), make_login("globex")
    (blob,) = superuser.execute(f"select lo_from_bytea(0, convert_to('{MARKER} notes', 'UTF8'))").fetchone()  # type: ignore[misc]
    superuser.execute(sql.SQL("alter large object {} owner to {}").format(sql.Literal(blob), sql.Identifier(dropped)))
    session = connect_as(db_dsn, dropped)  # an open session of the erased tenant's login ends
    elsewhere = f"pymem_erasure_elsewhere_{held}"
    superuser.execute(sql.SQL("create database {} owner {}").format(sql.Identifier(elsewhere), sql.Identifier(held)))
    try:
        erased = superuser.execute("select * from pymem.memory_erase_tenant('acme', 'contract ended')").fetchall()
        counts = dict(erased)
        assert counts["pg_catalog.pg_largeobject_metadata"] == 1 and counts["pg_catalog.pg_largeobject"] == 1
        assert counts["pg_catalog.pg_authid"] == 1
        assert superuser.execute("select count(*) from pg_largeobject_metadata where oid = %s", (blob,)).fetchone() == (
            0,
        )
        roles = dict(
            superuser.execute(
                "select rolname, rolcanlogin and pg_has_role(rolname, 'pymem_analyst', 'member') from pg_roles"
                " where rolname = any(%s)",
                ([dropped, held, other],),
            ).fetchall()
        )
        assert roles == {held: False, other: True}
        with pytest.raises(psycopg.OperationalError):
            connect_as(db_dsn, held)
        with pytest.raises(psycopg.OperationalError):
            session.execute("select 1")
        assert rows_mentioning(superuser, MARKER) == {}
        (event,) = superuser.execute(
            "select details from pymem.memory_events where tenant_id = 'acme' and operation = 'delete'"
        ).fetchone()  # type: ignore[misc]
        assert event["rows"]["logins disabled"] == 1 and event["rows"]["pg_catalog.pg_authid"] == 1
    finally:
        session.close()
        superuser.execute(sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(elsewhere)))


def test_a_rewrite_waiting_for_its_lock_stalls_no_tenant(as_tenant: Tenant, make_login: Any, db_dsn: str) -> None:
    """VACUUM FULL (`pymem erase --rewrite`) needs an ACCESS EXCLUSIVE lock, which an analyst's open transaction
    holds back; while it waits, every other session's reads queue behind it. It waits a short while at a time, so
    another tenant's calls go through, and gives up naming who holds the table."""
    with as_tenant("globex") as conn:
        store_fact(conn, "user", "city", "The user lives in Lima.")
    analyst = connect_as(db_dsn, make_login("acme"))
    analyst.execute("begin")
    analyst.execute("select count(*) from pymem.facts")  # holds ACCESS SHARE until it ends
    outcome: dict[str, BaseException] = {}

    def rewrite() -> None:
        try:
            erasure.vacuum(db_dsn, ("pymem.facts",), rewrite=True, lock_wait_ms=300, attempts=5)
        except BaseException as exc:  # reported to the test below
            outcome["error"] = exc

    worker = threading.Thread(target=rewrite)
    worker.start()
    try:
        time.sleep(0.1)
        started = time.monotonic()
        with as_tenant("globex") as conn:
            conn.execute("set local statement_timeout = '5s'")  # before the fix this waited for the analyst
            assert len(conn.execute("select id from pymem.facts").fetchall()) == 1
            store_fact(conn, "user", "job", "The user is a nurse.")
        elapsed = time.monotonic() - started
    finally:
        worker.join()
        analyst.execute("rollback")
        analyst.close()
    assert elapsed < 2.0, f"another tenant's calls queued {elapsed:.1f} s behind the waiting VACUUM FULL"
    error = outcome.get("error")
    assert isinstance(error, BusyError), error
    assert (
        "VACUUM FULL pymem.facts" in str(error)
        and "test_analyst_" in str(error)
        and "idle in transaction" in str(error)
    )
    erasure.vacuum(db_dsn, ("pymem.facts",), rewrite=True, lock_wait_ms=300, attempts=5)  # nobody holds it now
