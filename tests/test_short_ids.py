"""Short ids: memory_context prints a memory's id as its first 8 hex digits; pymem.memory_resolve_id takes such a
prefix (or a whole id) back to the memory's id, in the caller's tenant only, as pymem_app (no superuser, RLS
forced). The MCP tools that take an id accept either (tests/test_mcp_tools.py)."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest

from tests.conftest import Tenant
from tests.sqlapi import call_one, store_episode, store_fact, store_rule


def resolve(conn: psycopg.Connection[Any], type: str, ref: str | None) -> Any:
    return conn.execute("select pymem.memory_resolve_id(%s, %s)", (type, ref)).fetchone()[0]  # type: ignore[index]


def test_a_prefix_or_a_whole_id_resolves_to_the_memory(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        fact = store_fact(conn, "user", "city", "The user lives in Lisbon")
        rule = store_rule(conn, "Answer in Portuguese")
        episode = store_episode(conn, "The user said hello", "general")
        for kind, memory_id in (("fact", fact), ("rule", rule), ("episode", episode)):
            text = str(memory_id)
            assert resolve(conn, kind, text[:8]) == memory_id
            assert resolve(conn, kind, text[:13]) == memory_id  # hyphens are optional
            assert resolve(conn, kind, text.replace("-", "")[:20]) == memory_id
            assert resolve(conn, kind, f"  {text.upper()} ") == memory_id
            assert resolve(conn, kind, text) == memory_id
        # the short id goes straight into the functions that take an id
        got = call_one(conn, "memory_get", type="fact", id=resolve(conn, "fact", str(fact)[:8]))
        assert got["memory_id"] == fact


def test_a_whole_id_is_passed_on_without_a_lookup(as_tenant: Tenant) -> None:
    """memory_get and the rest say whether a whole id exists (PM003), as they always did."""
    unknown = uuid.uuid4()
    with as_tenant("acme") as conn:
        assert resolve(conn, "fact", str(unknown)) == unknown


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("9068667", "invalid id '9068667'"),  # 7 digits: too short to be told apart
        ("9068667g", "invalid id '9068667g'"),
        ("", "invalid id ''"),
        ("90686670-6c93-4357-91e2-3f95b1d5fa0b0", "invalid id"),  # 33 digits
        ("' or 1=1 --", "invalid id"),
    ],
)
def test_a_malformed_id_is_a_clear_error(as_tenant: Tenant, ref: str, message: str) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        resolve(conn, "fact", ref)
    assert caught.value.sqlstate == "PM002"
    assert message in str(caught.value)
    assert "first 8 or more hex digits" in (caught.value.diag.message_hint or "")


def test_a_null_id_or_an_unknown_type_is_refused(as_tenant: Tenant) -> None:
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        resolve(conn, "fact", None)
    assert caught.value.sqlstate == "PM003" and "fact NULL not found" in str(caught.value)
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        resolve(conn, "memo", "90686670")
    assert caught.value.sqlstate == "PM002" and "invalid type 'memo'" in str(caught.value)


def test_a_prefix_of_another_tenants_memory_is_not_found(as_tenant: Tenant) -> None:
    with as_tenant("globex") as conn:
        theirs = store_fact(conn, "user", "city", "Globex's user lives in Oslo")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        resolve(conn, "fact", str(theirs)[:8])
    assert caught.value.sqlstate == "PM003"
    assert f"fact {str(theirs)[:8]} not found" in str(caught.value)


def test_a_prefix_of_another_type_is_not_found(as_tenant: Tenant) -> None:
    with as_tenant("acme") as conn:
        rule = store_rule(conn, "Answer in Portuguese")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        resolve(conn, "fact", str(rule)[:8])
    assert caught.value.sqlstate == "PM003"


def test_an_ambiguous_prefix_asks_for_more_digits(as_tenant: Tenant, superuser: psycopg.Connection[Any]) -> None:
    with as_tenant("acme") as conn:
        first = store_fact(conn, "user", "city", "The user lives in Lisbon")
        second = store_fact(conn, "user", "job", "The user is a nurse")
    twins = (uuid.UUID("abcdef01-0000-4000-8000-000000000001"), uuid.UUID("abcdef01-0000-4000-8000-000000000002"))
    for old, new in zip((first, second), twins, strict=True):
        superuser.execute("update pymem.facts set id = %s where id = %s", (new, old))
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        resolve(conn, "fact", "abcdef01")
    assert caught.value.sqlstate == "PM002"
    assert "id prefix abcdef01 matches more than one fact" in str(caught.value)
    assert "Pass more digits" in (caught.value.diag.message_hint or "")
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:  # they share 31 of 32 digits
        resolve(conn, "fact", "abcdef01-0000-4000-8000-00000000000")
    assert caught.value.sqlstate == "PM002"
    with as_tenant("acme") as conn:
        assert resolve(conn, "fact", "abcdef01000040008000000000000002") == twins[1]
        assert resolve(conn, "fact", str(twins[0])) == twins[0]
