"""The built-in extractor's patterns are rows of pymem_private.extraction_patterns (shipped by
sql/functions/254-extraction-patterns.sql, run by 255-extraction.sql): each catches its example, its needles hold
every match, no tenant role reads or changes them, and adding a pattern is an INSERT that a migrate keeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pymem import migrate
from tests.conftest import Tenant

EVAL = Path(__file__).resolve().parents[1] / "eval"
KINDS = ["standing_request", "one_off_request", "hedge", "about_others", "favourite", "fact", "negation", "relation"]


def labelled_texts() -> list[str]:
    """Every labelled text of eval/: extraction episodes, poisoning episodes (both sets), grounding statements."""
    texts = [json.loads(line)["content"] for line in (EVAL / "extraction" / "episodes.jsonl").read_text().splitlines()]
    for name in ("episodes.jsonl", "heldout.jsonl", "heldout2.jsonl"):
        texts += [json.loads(line)["text"] for line in (EVAL / "poisoning" / name).read_text().splitlines()]
    texts += [
        json.loads(line)["content"] for line in (EVAL / "grounding" / "statements.jsonl").read_text().splitlines()
    ]
    return texts


def extracted(conn: psycopg.Connection[Any], text: str) -> list[tuple[Any, ...]]:
    return conn.execute("select * from pymem.memory_extract(%s::text)", (text,)).fetchall()


def test_every_pattern_catches_its_example(as_tenant: Tenant) -> None:
    """Each row catches its example, and memory_extract finds in the example what a match of its kind means: a
    standing request is a rule (a one-off one is not), a hedge asserts nothing, a sentence about someone else says
    nothing of the user's own facts, a fact pattern gives a fact of its family."""
    with as_tenant("acme") as conn:
        rows = conn.execute(
            "select kind, name, family, example from pymem_private.extraction_pattern_rows(%s::text[])", (KINDS,)
        ).fetchall()
        assert len(rows) >= 60
        user_only = {
            family
            for (family,) in conn.execute(
                "select distinct family from pymem_private.extraction_pattern_rows(array['fact']) where user_only"
            )
        }
        for kind, name, family, example in rows:
            caught = conn.execute(
                "select count(*) from pymem_private.extraction_matches(%s, array[%s]) where name = %s",
                (example, kind, name),
            ).fetchone()
            assert caught is not None and caught[0] > 0, (name, example)
            found = extracted(conn, example)
            facts = {
                (subject, predicate.split(":")[0], negated) for _, subject, predicate, _, negated in found if predicate
            }
            if kind == "standing_request":
                assert any(row[0] == "rule" for row in found), (name, example, found)
            elif kind == "one_off_request":
                assert not any(row[0] == "rule" for row in found), (name, example, found)
            elif kind == "hedge":
                assert found == [], (name, example, found)
            elif kind == "about_others":
                assert not any(s == "user" and f in user_only for s, f, _ in facts), (name, example, found)
            elif kind == "favourite":
                assert any(f.startswith(family + "_") for _, f, _ in facts), (name, example, found)
            elif kind == "relation":
                assert any(s.startswith("user's ") or s == "user" for s, _, _ in facts), (name, example, found)
            else:
                assert ("user", family, kind == "negation") in facts, (name, example, found)


def test_the_needles_hold_every_match(as_tenant: Tenant) -> None:
    """On every labelled text of eval/ (whole, and each sentence the extractor reads) and every example, a match of
    a pattern holds one of its needles: the filter that spares running the expression never hides a match."""
    with as_tenant("acme") as conn:
        unfiltered = conn.execute(
            """
            with texts as (
                select x as text from unnest(%s::text[]) as x
                union
                select example from pymem_private.extraction_pattern_rows(%s::text[])
            ),
            read as (
                select text from texts
                union
                select s from texts cross join lateral pymem_private.extraction_sentences(texts.text) as s
            )
            select p.name, r.text
            from pymem_private.extraction_pattern_rows(%s::text[]) as p
            cross join read as r
            where r.text ~* p.pattern
              and not exists (select from unnest(p.needles) as n where strpos(lower(r.text), n) > 0)
            """,
            (labelled_texts(), KINDS, KINDS),
        ).fetchall()
    assert unfiltered == []


def test_the_extraction_patterns_are_the_owners_alone(as_tenant: Tenant) -> None:
    """No tenant role reads or changes pymem_private.extraction_patterns (RLS forced, owner-only policies); each
    reads the patterns through pymem_private.extraction_pattern_rows."""
    with as_tenant("acme") as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute("select count(*) from pymem_private.extraction_patterns")
        with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute("delete from pymem_private.extraction_patterns")
        with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
            conn.execute(
                "insert into pymem_private.extraction_patterns (name, kind, pattern, needles, example)"
                " values ('a rule of mine', 'standing_request', 'x', array['x'], 'x')"
            )
        (facts,) = conn.execute("select count(*) from pymem_private.extraction_pattern_rows(array['fact'])").fetchone()  # type: ignore[misc]
        assert facts > 40


def test_adding_a_pattern_is_an_insert_and_a_migrate_keeps_it(
    as_tenant: Tenant, superuser: psycopg.Connection[Any], db_dsn: str
) -> None:
    """An operator's row (shipped false) changes what memory_extract finds, at once; `pymem migrate` replaces the
    shipped rows and keeps the operator's, and a shipped row that comes back unchanged keeps its created_at."""
    text = "I'm a keen birdwatcher and my blood type is O negative."
    with as_tenant("acme") as conn:
        assert not any(row[2] == "blood_type" for row in extracted(conn, text))
    with superuser.transaction():
        superuser.execute("set local role pymem_owner")
        superuser.execute(
            """
            insert into pymem_private.extraction_patterns
                (kind, position, name, family, pattern, value_check, template, needles, example)
            values ('fact', 355, 'blood type', 'blood_type',
                    '\\mmy blood type is\\s+((?:a|b|ab|o)\\s+(?:positive|negative))', '.',
                    'The user''s blood type is %s.', array['blood type'], 'My blood type is AB positive.')
            """
        )
    with as_tenant("acme") as conn:
        assert ("fact", "user", "blood_type", "The user's blood type is O negative.", False) in extracted(conn, text)
    shipped_before = superuser.execute(
        "select name, created_at from pymem_private.extraction_patterns where shipped order by name"
    ).fetchall()
    migrate.upgrade(db_dsn)
    assert (
        superuser.execute(
            "select name, created_at from pymem_private.extraction_patterns where shipped order by name"
        ).fetchall()
        == shipped_before
    )
    assert superuser.execute(
        "select count(*) from pymem_private.extraction_patterns where not shipped and name = 'blood type'"
    ).fetchone() == (1,)
    with as_tenant("acme") as conn:
        assert ("fact", "user", "blood_type", "The user's blood type is O negative.", False) in extracted(conn, text)
