"""`pymem import`: markdown memory files stored as facts, dated ones (YYYY-MM-DD.md) decaying in
search with a 30-day half-life (hybrid-search-fallbacks.md, "Temporal decay for dated memory files")."""

from __future__ import annotations

import datetime as dt
import math
import os
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest

from pymem import cli
from pymem.embeddings import Embedder
from pymem.errors import InvalidArgumentError
from pymem.importer import (
    ImportSummary,
    chunk_markdown,
    import_path,
    markdown_files,
    scan_markdown,
    source_date,
)
from pymem.tenancy import tenant_transaction
from tests.conftest import AppConnect, Tenant, connect_as
from tests.sqlapi import call, call_one, counts, store_fact

TODAY = dt.datetime.now(dt.UTC).date()
DAY_30 = f"{TODAY - dt.timedelta(days=30)}.md"
DAY_60 = f"{TODAY - dt.timedelta(days=60)}.md"
SUBJECTS = sorted(["MEMORY.md", f"daily/{DAY_30}", f"daily/{DAY_60}", "daily/2026-13-45.md"])


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def memory_dir(tmp_path: Path) -> Path:
    root = tmp_path / "memory"
    write(root / "MEMORY.md", "# Long-term\n\nAnna goes running by the river every Sunday.\n")
    write(root / "daily" / DAY_30, "Went running by the river with Anna.\n\nBought new shoes.\n")
    write(root / "daily" / DAY_60, "Anna and I went running by the river in the rain.\n")
    write(root / "daily" / "2026-13-45.md", "Not a date: running by the river, undated.\n")
    write(root / ".hidden" / "secret.md", "Never imported.\n")
    write(root / "notes.txt", "Not markdown.\n")
    return root


def run_import(conn: psycopg.Connection[Any], path: Path, embedder: Embedder, **options: Any) -> ImportSummary:
    return import_path(conn, options.pop("tenant", "acme"), path, embedder=embedder, **options)


def facts(conn: psycopg.Connection[Any], subject: str) -> list[tuple[Any, ...]]:
    return conn.execute(
        "select predicate, validity, content, id, supersedes_id from pymem.facts where subject = %s"
        " order by predicate, created_at",
        (subject,),
    ).fetchall()


def search(conn: psycopg.Connection[Any], query: str, **arguments: Any) -> dict[str, dict[str, Any]]:
    """memory_search in keyword mode, by subject (the file's relative path)."""
    rows = call(conn, "memory_search", query=query, mode="keyword", bump_references=False, **arguments)
    return {r["subject"]: r for r in rows}


def expected_decay(conn: psycopg.Connection[Any], name: str, half_life: float = 30.0) -> float:
    """exp(-ln 2 / half_life * age_days), the age counted from midnight UTC of the file's date to now()."""
    row = conn.execute(
        "select extract(epoch from now() - (%s::date::timestamp at time zone 'UTC')) / 86400.0", (name[:10],)
    ).fetchone()
    assert row is not None
    return math.exp(-math.log(2) / half_life * float(row[0]))


# Files and chunks


def test_markdown_files_are_found_sorted_and_relative(memory_dir: Path) -> None:
    found = markdown_files(memory_dir)
    assert [f.subject for f in found] == sorted(
        ["MEMORY.md", f"daily/{DAY_30}", f"daily/{DAY_60}", "daily/2026-13-45.md"]
    )
    assert [f.subject for f in markdown_files(memory_dir / "MEMORY.md")] == ["MEMORY.md"]


@pytest.mark.parametrize(
    ("path", "message"),
    [("missing", "no such file or directory"), ("empty", "no .md files"), ("memory/notes.txt", "not a markdown")],
)
def test_bad_paths_are_refused(tmp_path: Path, memory_dir: Path, path: str, message: str) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(InvalidArgumentError, match=message):
        markdown_files(tmp_path / path)


def test_only_a_valid_date_as_the_whole_name_is_a_source_date() -> None:
    assert source_date("2026-10-24.md") == "2026-10-24"
    assert source_date("2024-02-29.md") == "2024-02-29"
    for name in (
        "2026-13-45.md",
        "2023-02-29.md",
        "MEMORY.md",
        "notes-2026-10-24.md",
        "2026-10-24.txt",
        "2026-1-24.md",
    ):
        assert source_date(name) is None, name


def test_chunks_follow_headings_and_merge_small_paragraphs(embedder: Embedder) -> None:
    text = "# Diet\n\nAnna is vegetarian.\n\nShe avoids dairy.\n\n# Sport\nAnna runs.\n\n```\nkeep\n\nwhole\n```\n"
    assert chunk_markdown(text, embedder.count_tokens) == [
        "# Diet\n\nAnna is vegetarian.\n\nShe avoids dairy.",
        "# Sport\n\nAnna runs.\n\n```\nkeep\n\nwhole\n```",
    ]
    assert chunk_markdown("  \n\n", embedder.count_tokens) == []


def test_chunks_never_exceed_the_token_limit(embedder: Embedder) -> None:
    sentences = " ".join(f"On day {i} Anna ran {i % 7 + 3} kilometres along the river Spree." for i in range(80))
    lines = "\n".join(f"- item {i}: buy oat milk, bread and apples" for i in range(60))
    numbers = ",".join(str(i) for i in range(300))  # 599 tokens and no space: cut between characters
    text = f"# Log\n\n{sentences}\n\n{lines}\n\n{numbers}\n\n" + "supercalifragilistic" * 80
    chunks = chunk_markdown(text, embedder.count_tokens)
    assert len(chunks) > 5
    assert all(embedder.count_tokens(c) <= 200 for c in chunks)
    assert chunks[0].startswith("# Log\n\nOn day 0 Anna")  # the heading stays with its section
    # nothing is lost: the same words, in the same order (cut words aside)
    assert "".join("".join(chunks).split()) == "".join(text.split())


# Import, search and date decay


def test_dated_chunks_decay_in_search_and_undated_ones_do_not(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, memory_dir: Path
) -> None:
    summary = run_import(app, memory_dir, embedder, butler="journal")
    assert [(f.subject, f.chunks, f.new) for f in summary.files] == [(s, 1, 1) for s in SUBJECTS]
    assert (summary.stored, summary.unchanged, summary.retracted) == (4, 0, 0)
    with as_tenant("acme") as conn:
        rows = search(conn, "running river")
        slow = search(conn, "running river", date_half_life_days=60)
        decay_30, decay_60 = expected_decay(conn, DAY_30), expected_decay(conn, DAY_60)
        decay_60_slow = expected_decay(conn, DAY_60, half_life=60)
        stored = conn.execute(
            "select subject, permanence, scope, tags, source_butler, embedding_model, token_count, metadata"
            " from pymem.facts order by subject"
        ).fetchall()
    assert set(rows) == {"MEMORY.md", "daily/2026-13-45.md", f"daily/{DAY_30}", f"daily/{DAY_60}"}
    assert rows["MEMORY.md"]["date_decay"] == 1.0
    assert rows["daily/2026-13-45.md"]["date_decay"] == 1.0
    assert rows[f"daily/{DAY_30}"]["date_decay"] == pytest.approx(decay_30)
    assert rows[f"daily/{DAY_30}"]["date_decay"] == pytest.approx(0.5, abs=0.012)  # plus part of today
    assert rows[f"daily/{DAY_60}"]["date_decay"] == pytest.approx(decay_60)
    assert rows[f"daily/{DAY_60}"]["date_decay"] == pytest.approx(0.25, abs=0.006)
    for row in rows.values():
        assert row["score"] == pytest.approx(row["keyword_score"] * row["date_decay"])
    assert slow[f"daily/{DAY_60}"]["date_decay"] == pytest.approx(decay_60_slow)
    assert slow[f"daily/{DAY_60}"]["date_decay"] == pytest.approx(0.5, abs=0.006)
    assert slow["MEMORY.md"]["date_decay"] == 1.0

    by_subject = {r[0]: r for r in stored}
    day_30 = by_subject[f"daily/{DAY_30}"]
    assert day_30[1:6] == ("permanent", "global", ["imported"], "journal", embedder.model_id)
    assert day_30[6] == embedder.count_tokens("Went running by the river with Anna.\n\nBought new shoes.")
    assert day_30[7] == {"source_path": f"daily/{DAY_30}", "chunk": 1, "source_date": DAY_30[:10]}
    assert by_subject["MEMORY.md"][7] == {"source_path": "MEMORY.md", "chunk": 1}
    assert by_subject["daily/2026-13-45.md"][7] == {"source_path": "daily/2026-13-45.md", "chunk": 1}


def test_a_single_file_is_imported_under_its_name(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, memory_dir: Path
) -> None:
    summary = run_import(app, memory_dir / "daily" / DAY_30, embedder, scope="health")
    assert [(f.subject, f.chunks) for f in summary.files] == [(DAY_30, 1)]
    with as_tenant("acme") as conn:
        row = conn.execute("select scope, metadata ->> 'source_date' from pymem.facts").fetchall()
    assert row == [("health", DAY_30[:10])]


def test_reimport_is_idempotent(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, memory_dir: Path
) -> None:
    run_import(app, memory_dir, embedder)
    with as_tenant("acme") as conn:
        before = conn.execute("select id, validity from pymem.facts order by id").fetchall()
        events = conn.execute("select count(*) from pymem.memory_events").fetchone()
    summary = run_import(app, memory_dir, embedder)
    assert (summary.stored, summary.unchanged, summary.retracted) == (0, 4, 0)
    with as_tenant("acme") as conn:
        assert conn.execute("select id, validity from pymem.facts order by id").fetchall() == before
        assert conn.execute("select count(*) from pymem.memory_events").fetchone() == events


def test_an_edited_file_supersedes_the_changed_chunk_only(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, tmp_path: Path
) -> None:
    path = write(tmp_path / "MEMORY.md", "# Diet\nAnna is vegetarian.\n\n# Home\nAnna lives in Berlin.\n")
    run_import(app, tmp_path, embedder)
    with as_tenant("acme") as conn:
        (diet, home) = facts(conn, "MEMORY.md")
    write(path, "# Diet\nAnna is vegetarian.\n\n# Home\nAnna moved to Lisbon.\n")
    summary = run_import(app, tmp_path, embedder)
    assert [(f.new, f.updated, f.unchanged, f.retracted) for f in summary.files] == [(0, 1, 1, 0)]
    with as_tenant("acme") as conn:
        after = facts(conn, "MEMORY.md")
        found = search(conn, "Lisbon")
    assert after[0] == diet
    assert after[1][:3] == ("chunk 2", "superseded", "# Home\n\nAnna lives in Berlin.")
    assert after[2][:3] == ("chunk 2", "active", "# Home\n\nAnna moved to Lisbon.")
    assert after[2][4] == home[3]  # supersedes_id
    assert list(found) == ["MEMORY.md"]


def test_a_shortened_file_retracts_its_leftover_chunks(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, tmp_path: Path
) -> None:
    path = write(tmp_path / DAY_30, "# One\nfirst\n\n# Two\nsecond\n\n# Three\nthird\n")
    run_import(app, tmp_path, embedder)
    write(path, "# One\nfirst\n")
    summary = run_import(app, tmp_path, embedder)
    assert [(f.chunks, f.unchanged, f.retracted) for f in summary.files] == [(1, 1, 2)]
    with as_tenant("acme") as conn:
        rows = facts(conn, DAY_30)
        reasons = conn.execute(
            "select details ->> 'reason' from pymem.memory_events where to_state = 'retracted'"
        ).fetchall()
        found = search(conn, "third")
    assert [(p, v) for p, v, *_ in rows] == [("chunk 1", "active"), ("chunk 2", "retracted"), ("chunk 3", "retracted")]
    assert reasons == [(f"no longer in {DAY_30}",)] * 2
    assert found == {}
    # emptied: every chunk goes
    write(path, "")
    assert run_import(app, tmp_path, embedder).retracted == 1


def test_a_failing_file_leaves_nothing_half_imported(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, tmp_path: Path
) -> None:
    path = write(tmp_path / "b.md", "# Bob\nBob swims.\n\n# Work\nBob is a baker.\n")
    run_import(app, tmp_path, embedder)
    with as_tenant("acme") as conn:
        before = facts(conn, "b.md")
    # chunk 1 changes and is stored, then chunk 2 fails: the file's transaction is rolled back
    huge_word = "x" * 100_001  # an [UNK] of 50,001 tokens (one a 2 bytes): in one chunk of at most 60,000 tokens,
    write(path, f"# Bob\nBob swims daily.\n\n# Work\nBob is a baker {huge_word}.\n")  # too long a content
    with pytest.raises(InvalidArgumentError, match=r"b\.md: content is too long"):
        run_import(app, tmp_path, embedder, max_tokens=60_000)
    write(path, "# Bob\nBob swims daily.\x00\n")
    with pytest.raises(InvalidArgumentError, match=r"b\.md: not a text file"):
        run_import(app, tmp_path, embedder)
    write(path, "# Bob\nBob swims daily.\n")
    with pytest.raises(InvalidArgumentError, match=r"b\.md: scope must be a non-empty text"):
        run_import(app, path, embedder, scope=" ")
    with as_tenant("acme") as conn:
        assert facts(conn, "b.md") == before


def test_tenants_are_isolated(
    as_tenant: Tenant, app: psycopg.Connection[Any], embedder: Embedder, memory_dir: Path
) -> None:
    run_import(app, memory_dir, embedder, tenant="acme")
    with as_tenant("globex") as conn:
        assert search(conn, "running river") == {}
        assert conn.execute("select count(*) from pymem.facts").fetchone() == (0,)
    summary = run_import(app, memory_dir, embedder, tenant="globex")
    assert summary.stored == 4  # nothing of acme's was taken as already there


# The command line


def test_the_cli_imports_and_reports(
    db_dsn: str,
    as_tenant: Tenant,
    memory_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PYMEM_DSN", db_dsn)
    monkeypatch.delenv("PYMEM_APP_DSN", raising=False)
    monkeypatch.setenv("PYMEM_TENANT", "acme")
    assert cli.main(["import", str(memory_dir), "--butler", "journal"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        *(f"{subject}: 1 chunk (1 new)" for subject in SUBJECTS),
        "imported 4 files into tenant 'acme': 4 chunks stored, 0 unchanged, 0 retracted",
    ]
    write(memory_dir / "MEMORY.md", "# Long-term\n\nAnna goes running by the river every Sunday.\n\n# Other\nCats.\n")
    assert cli.main(["import", str(memory_dir / "MEMORY.md"), "--tenant", "globex"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "MEMORY.md: 2 chunks (2 new)"
    for tenant, count in (("acme", 4), ("globex", 2)):
        with as_tenant(tenant) as conn:
            assert conn.execute("select count(*) from pymem.facts").fetchone() == (count,)


@pytest.mark.parametrize(("path", "message"), [("missing", "no such file or directory"), ("", "no .md files")])
def test_the_cli_refuses_bad_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, path: str, message: str
) -> None:
    monkeypatch.setenv("PYMEM_DSN", "host=/nonexistent dbname=never-used")  # fails before the database
    assert cli.main(["import", str(tmp_path / path), "--tenant", "acme"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.startswith("pymem: ")


# `imp/leak.md -> ../outside/secret.txt` was once imported; special files are never opened


@pytest.fixture
def leaky_dir(tmp_path: Path, memory_dir: Path) -> Path:
    """memory_dir with links out of it (relative, absolute, a folder), a link that stays in it, and a FIFO (opening
    it for reading would wait for a writer for ever)."""
    secret = write(tmp_path / "outside" / "secret.txt", "The launch code is quokka-4417.\n")
    write(tmp_path / "outside" / "notes" / "deep.md", "Outside too: quokka-4418.\n")
    (memory_dir / "leak.md").symlink_to(Path("..") / "outside" / "secret.txt")
    (memory_dir / "daily" / "abs-leak.md").symlink_to(secret)
    (memory_dir / "linked").symlink_to(tmp_path / "outside" / "notes", target_is_directory=True)
    (memory_dir / "inside.md").symlink_to("MEMORY.md")
    os.mkfifo(memory_dir / "pipe.md")
    return memory_dir


def test_links_out_of_the_folder_and_special_files_are_skipped_and_said(leaky_dir: Path, tmp_path: Path) -> None:
    found = scan_markdown(leaky_dir)
    assert [f.subject for f in found.files] == sorted([*SUBJECTS, "inside.md"])
    skipped = dict(found.skipped)
    assert set(skipped) == {"daily/abs-leak.md", "leak.md", "linked", "pipe.md"}
    assert skipped["leak.md"].startswith("a link out of the folder (to ")
    assert str(tmp_path / "outside" / "secret.txt") in skipped["leak.md"]
    assert "--follow-links-outside" in skipped["daily/abs-leak.md"]
    assert skipped["pipe.md"] == "not a regular file (a FIFO): never opened"
    assert skipped["linked"].startswith("a link to a folder")
    assert [f.subject for f in markdown_files(leaky_dir)] == [f.subject for f in found.files]
    # allowed explicitly: the links to files out of the folder are imported, special files never
    allowed = scan_markdown(leaky_dir, follow_links_outside=True)
    assert {"leak.md", "daily/abs-leak.md"} <= {f.subject for f in allowed.files}
    assert set(dict(allowed.skipped)) == {"linked", "pipe.md"}
    # a special file named on its own is refused, not waited on
    with pytest.raises(InvalidArgumentError, match="not a regular file"):
        markdown_files(leaky_dir / "pipe.md")


def test_the_cli_imports_nothing_from_out_of_the_folder(
    db_dsn: str,
    as_tenant: Tenant,
    leaky_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("PYMEM_DSN", db_dsn)
    monkeypatch.delenv("PYMEM_APP_DSN", raising=False)
    assert cli.main(["import", str(leaky_dir), "--tenant", "acme"]) == 0
    captured = capsys.readouterr()
    assert "imported 5 files into tenant 'acme'" in captured.out
    assert "pymem import: skipped leak.md: a link out of the folder" in captured.err
    assert "pymem import: skipped pipe.md: not a regular file (a FIFO)" in captured.err
    assert "4 files skipped" in captured.err
    with as_tenant("acme") as conn:
        assert conn.execute("select count(*) from pymem.facts where content ilike '%quokka%'").fetchone() == (0,)
    assert cli.main(["import", str(leaky_dir), "--tenant", "acme", "--follow-links-outside"]) == 0
    with as_tenant("acme") as conn:
        leaked = conn.execute("select subject from pymem.facts where content ilike '%quokka%' order by 1").fetchall()
    assert leaked == [("daily/abs-leak.md",), ("leak.md",)]


# The SQL functions: memory_import_plan proposes, memory_import_file decides and writes

FILE_STATE = (
    "select subject, predicate, validity, content, scope, metadata, id, xmin::text from pymem.facts"
    " order by subject, predicate, created_at, id"
)


def import_chunks(conn: psycopg.Connection[Any], subject: str, chunks: list[str], **arguments: Any) -> dict[str, Any]:
    """memory_import_file; arguments.embedder: an embedding and token count for every chunk (the
    function must use only those of the chunks it stores)."""
    embedder: Embedder | None = arguments.pop("embedder", None)
    if embedder is not None:
        arguments.update(
            embeddings=embedder.embed_many(chunks),
            token_counts=[embedder.count_tokens(c) for c in chunks],
            embedding_model=embedder.model_id,
        )
    return call_one(conn, "memory_import_file", subject=subject, chunks=chunks, **arguments)


def plan(conn: psycopg.Connection[Any], subject: str, chunks: list[str], **arguments: Any) -> list[tuple[Any, ...]]:
    rows = call(conn, "memory_import_plan", subject=subject, chunks=chunks, **arguments)
    return [(r["chunk"], r["predicate"], r["action"], r["fact_id"], r["needs_embedding"]) for r in rows]


def counted(row: dict[str, Any]) -> tuple[int, int, int, int, int]:
    return (row["chunk_count"], row["new_count"], row["updated_count"], row["unchanged_count"], row["retracted_count"])


def active(conn: psycopg.Connection[Any], subject: str) -> dict[str, tuple[Any, ...]]:
    rows = conn.execute(
        "select predicate, id, content, scope, metadata, embedding_model, token_count, permanence, tags,"
        " source_butler from pymem.facts where subject = %s and validity = 'active'",
        (subject,),
    ).fetchall()
    return {r[0]: r[1:] for r in rows}


def test_the_sql_import_stores_new_chunks_as_permanent_imported_facts(as_tenant: Tenant, embedder: Embedder) -> None:
    chunks = ["# Diet\n\nAnna is vegetarian.", "# Home\n\nAnna lives in Berlin."]
    with as_tenant("acme") as conn:
        assert plan(conn, "2026-01-05.md", chunks, source_date=dt.date(2026, 1, 5)) == [
            (1, "chunk 1", "new", None, True),
            (2, "chunk 2", "new", None, True),
        ]
        row = import_chunks(
            conn, "2026-01-05.md", chunks, embedder=embedder, source_date=dt.date(2026, 1, 5), butler="journal"
        )
        stored = active(conn, "2026-01-05.md")
    assert counted(row) == (2, 2, 0, 0, 0)
    assert sorted(stored) == ["chunk 1", "chunk 2"]
    for n, predicate in enumerate(["chunk 1", "chunk 2"], start=1):
        _, content, scope, metadata, model, tokens, permanence, tags, butler = stored[predicate]
        assert (content, scope, permanence, tags, butler) == (
            chunks[n - 1],
            "global",
            "permanent",
            ["imported"],
            "journal",
        )
        assert metadata == {"source_path": "2026-01-05.md", "chunk": n, "source_date": "2026-01-05"}
        assert (model, tokens) == (embedder.model_id, embedder.count_tokens(chunks[n - 1]))


def test_the_sql_import_decides_new_updated_unchanged_and_retracted(as_tenant: Tenant, embedder: Embedder) -> None:
    first = ["# One\n\nfirst", "# Two\n\nsecond", "# Three\n\nthird"]
    with as_tenant("acme") as conn:
        import_chunks(conn, "MEMORY.md", first, embedder=embedder)
        store_fact(conn, "MEMORY.md", "owner", "a fact of the same subject that was not imported")
        ids = {p: row[0] for p, row in active(conn, "MEMORY.md").items()}
    second = ["# One\n\nfirst", "# Two\n\nsecond, edited", "# Three\n\nthird", "# Four\n\nfourth"]
    with as_tenant("acme") as conn:
        assert plan(conn, "MEMORY.md", second[:2]) == [
            (1, "chunk 1", "unchanged", ids["chunk 1"], False),
            (2, "chunk 2", "updated", ids["chunk 2"], True),
            (None, "chunk 3", "retracted", ids["chunk 3"], False),
        ]
        assert [r[2] for r in plan(conn, "MEMORY.md", second)] == ["unchanged", "updated", "unchanged", "new"]
        # a chunk whose content is the same but whose scope or date differs is updated
        assert [r[2] for r in plan(conn, "MEMORY.md", first, scope="health")] == ["updated"] * 3
        assert [r[2] for r in plan(conn, "MEMORY.md", first, source_date=dt.date(2026, 1, 5))] == ["updated"] * 3

        assert counted(import_chunks(conn, "MEMORY.md", second, embedder=embedder)) == (4, 1, 1, 2, 0)
        after = active(conn, "MEMORY.md")
        assert after["chunk 1"][0] == ids["chunk 1"] and after["chunk 3"][0] == ids["chunk 3"]
        assert after["chunk 2"][1] == "# Two\n\nsecond, edited" and after["chunk 2"][0] != ids["chunk 2"]
        assert after["chunk 4"][1] == "# Four\n\nfourth"
        superseded = conn.execute(
            "select validity from pymem.facts f where id = %s and exists"
            " (select from pymem.facts n where n.supersedes_id = f.id and n.validity = 'active')",
            (ids["chunk 2"],),
        ).fetchall()
        assert superseded == [("superseded",)]

        assert counted(import_chunks(conn, "MEMORY.md", second[:1])) == (1, 0, 0, 1, 3)
        assert sorted(active(conn, "MEMORY.md")) == ["chunk 1", "owner"]  # a fact not imported stays
        reasons = conn.execute(
            "select memory_id, details ->> 'reason' from pymem.memory_events where to_state = 'retracted'"
            " order by memory_id"
        ).fetchall()
        assert reasons == sorted((after[p][0], "no longer in MEMORY.md") for p in ("chunk 2", "chunk 3", "chunk 4"))
        assert counted(import_chunks(conn, "MEMORY.md", [])) == (0, 0, 0, 0, 1)
        assert sorted(active(conn, "MEMORY.md")) == ["owner"]


def test_an_unchanged_reimport_embeds_nothing_and_writes_nothing(as_tenant: Tenant, embedder: Embedder) -> None:
    chunks = ["# Diet\n\nAnna is vegetarian.", "# Home\n\nAnna lives in Berlin."]
    with as_tenant("acme") as conn:
        import_chunks(conn, "MEMORY.md", chunks, embedder=embedder, scope="health", source_date=dt.date(2026, 1, 5))
    with as_tenant("acme") as conn:
        before = conn.execute(FILE_STATE).fetchall()
        tables = counts(conn)
    with as_tenant("acme") as conn:
        assert [r[4] for r in plan(conn, "MEMORY.md", chunks, scope="health", source_date=dt.date(2026, 1, 5))] == [
            False,
            False,
        ]
        again = import_chunks(
            conn, "MEMORY.md", chunks, embedder=embedder, scope="health", source_date=dt.date(2026, 1, 5)
        )
    assert counted(again) == (2, 0, 0, 2, 0)
    with as_tenant("acme") as conn:
        assert conn.execute(FILE_STATE).fetchall() == before  # xmin too: not even a no-op update
        assert counts(conn) == tables  # no fact, link or event


UNIT = np.eye(1, 384, dtype=np.float32)[0]
BAD_IMPORTS = [
    ({"embeddings": [UNIT]}, "embeddings must have one element per chunk (2 elements), not [1:1]"),
    ({"token_counts": [3, 4, 5]}, "token_counts must have one element per chunk (2 elements), not [1:3]"),
    ({"token_counts": [[3], [4]]}, "token_counts must have one element per chunk (2 elements), not [1:2][1:1]"),
    ({"chunks": ["# Diet\n\nAnna is vegan.", None]}, "chunks[2] must be a non-empty text"),
    ({"chunks": ["# Diet\n\nAnna is vegan.", " \n"]}, "chunks[2] must be a non-empty text"),
    ({"chunks": None}, "chunks must be an array of texts, not NULL"),
    ({"chunks": ["x"] * 10001}, "too many chunks (10001; at most 10000 per file)"),
    ({"chunks": ["# Diet\n\nAnna is vegan.", "x" * 100_001]}, "content is too long"),
    ({"scope": " "}, "scope must be a non-empty text"),
    ({"subject": ""}, "subject must be a non-empty text"),
    ({"embedding_model": None}, "embedding_model (required with an embedding) must be a non-empty text"),
]


@pytest.mark.parametrize(("arguments", "message"), BAD_IMPORTS)
def test_a_bad_sql_import_gets_pm002_and_writes_nothing(
    as_tenant: Tenant, embedder: Embedder, arguments: dict[str, Any], message: str
) -> None:
    with as_tenant("acme") as conn:
        import_chunks(conn, "MEMORY.md", ["# Diet\n\nAnna is vegetarian.", "# Home\n\nAnna lives in Berlin."])
        before = conn.execute(FILE_STATE).fetchall()
        tables = counts(conn)
    # chunk 1 changes, so a call that wrote before it checked would store it
    call_arguments: dict[str, Any] = {
        "subject": "MEMORY.md",
        "chunks": ["# Diet\n\nAnna is vegan.", "# Home\n\nAnna lives in Berlin."],
        "embeddings": embedder.embed_many(["# Diet\n\nAnna is vegan.", "# Home\n\nAnna lives in Berlin."]),
        "embedding_model": embedder.model_id,
        **arguments,
    }
    with pytest.raises(psycopg.Error) as caught, as_tenant("acme") as conn:
        call_one(conn, "memory_import_file", **call_arguments)
    assert caught.value.sqlstate == "PM002", caught.value
    assert message in str(caught.value)
    with as_tenant("acme") as conn:
        assert conn.execute(FILE_STATE).fetchall() == before
        assert counts(conn) == tables


def test_the_sql_import_needs_a_tenant(app: psycopg.Connection[Any]) -> None:
    with pytest.raises(psycopg.Error) as caught:
        call(app, "memory_import_file", subject="MEMORY.md", chunks=["Anna is vegetarian."])
    assert caught.value.sqlstate == "PM001"


def test_the_sql_import_leaves_another_tenants_file_alone(as_tenant: Tenant, embedder: Embedder) -> None:
    with as_tenant("acme") as conn:
        import_chunks(conn, "MEMORY.md", ["# One\n\nacme's first", "# Two\n\nacme's second"], embedder=embedder)
    with as_tenant("acme") as conn:
        acme = conn.execute(FILE_STATE).fetchall()
    with as_tenant("globex") as conn:
        # the same subject and the same first chunk: new for globex, and acme's chunk 2 is not retracted
        assert plan(conn, "MEMORY.md", ["# One\n\nacme's first"]) == [(1, "chunk 1", "new", None, True)]
        assert counted(import_chunks(conn, "MEMORY.md", ["# One\n\nacme's first"], embedder=embedder)) == (
            1,
            1,
            0,
            0,
            0,
        )
        assert counted(import_chunks(conn, "MEMORY.md", [])) == (0, 0, 0, 0, 1)
        assert conn.execute("select distinct tenant_id from pymem.facts").fetchall() == [("globex",)]
    with as_tenant("acme") as conn:
        assert conn.execute(FILE_STATE).fetchall() == acme


def test_a_bound_analyst_imports_without_embeddings(
    as_tenant: Tenant,
    make_login: Any,
    db_dsn: str,
) -> None:
    role = make_login("acme")
    with connect_as(db_dsn, role) as conn:
        row = call_one(conn, "memory_import_file", subject="notes.md", chunks=["Anna is vegetarian."])
    assert counted(row) == (1, 1, 0, 0, 0)
    with as_tenant("acme") as conn:
        assert [r[4:6] for r in active(conn, "notes.md").values()] == [(None, None)]  # found by keyword until reembed
        assert list(search(conn, "vegetarian")) == ["notes.md"]
    with as_tenant("globex") as conn:
        assert counts(conn)["facts"] == 0


def test_two_imports_of_one_file_at_once_write_it_once(
    connect_app: AppConnect, superuser: psycopg.Connection[Any], embedder: Embedder
) -> None:
    """Stepped: A imports a file and holds its transaction open; B's import of the same file waits on
    the file's lock; A commits; B decides on what A wrote (all unchanged) instead of storing it again."""
    first, second = connect_app(), connect_app()
    chunks = ["# Diet\n\nAnna is vegetarian.", "# Home\n\nAnna lives in Berlin."]
    result: dict[str, Any] = {}

    def import_second() -> None:
        with tenant_transaction(second, "acme"):
            result["second"] = counted(import_chunks(second, "MEMORY.md", chunks, embedder=embedder))

    with tenant_transaction(first, "acme"):
        result["first"] = counted(import_chunks(first, "MEMORY.md", chunks, embedder=embedder))
        worker = threading.Thread(target=import_second)
        worker.start()
        deadline = time.monotonic() + 10
        while not waiting_on_lock(superuser, second.info.backend_pid):
            assert time.monotonic() < deadline, "the second import never waited for the first"
            time.sleep(0.02)
        assert "second" not in result
    worker.join(10)
    assert not worker.is_alive()
    assert result == {"first": (2, 2, 0, 0, 0), "second": (2, 0, 0, 2, 0)}
    rows = superuser.execute("select predicate, validity from pymem.facts order by predicate").fetchall()
    assert rows == [("chunk 1", "active"), ("chunk 2", "active")]


def waiting_on_lock(observer: psycopg.Connection[Any], pid: int) -> bool:
    row = observer.execute("select wait_event_type from pg_stat_activity where pid = %s", (pid,)).fetchone()
    return row is not None and row[0] == "Lock"
