"""Export and import of a tenant: a versioned JSON Lines file (`pymem export`, `pymem import-tenant`).

Line 1 is the manifest (pymem.memory_export_manifest, plus this pymem's version and whether embeddings are in);
every other line is ``{"kind": ..., "data": {...}}`` as pymem.memory_export gives it: episodes, facts (each after
the fact it supersedes), rules, links, butler settings. See sql/functions/285-tenant-export.sql.

Export streams: one REPEATABLE READ transaction of the tenant (the manifest's counts are those of the lines) and a
server-side cursor, so the client's memory does not grow with the tenant. Import reads the file line by line and
hands it to pymem.memory_import in batches, all in one transaction: SQL decides what is new, what is already there
and what supersedes what; a refused line (malformed here, or refused there) rolls the whole import back and is
named by its number. Rows that come without an embedding, or with one of another model, wait for the embedding
worker.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import psycopg
from psycopg import IsolationLevel
from psycopg.types.json import Jsonb

from pymem import __version__
from pymem.errors import InvalidArgumentError, translate
from pymem.foreign_memories import ForeignFact
from pymem.migrate import head_from_files
from pymem.tenancy import tenant_transaction

FORMAT = "pymem-export"
FORMAT_VERSION = 1
KINDS = ("episode", "fact", "rule", "link", "butler_setting")
BATCH = 1000  # lines per call of pymem.memory_import
# facts per transaction of a foreign import: each fact is its own statement, and every one updates the keyword
# statistics rows of its lexemes; updated again and again in one transaction, a row's versions pile up and each
# update walks them. 5,183 SciFact abstracts: 151 s in transactions of 1000, 52 s of 250, 28 s of 100
FOREIGN_BATCH = 100
FETCH = 2000  # rows per round trip of the export cursor


def export_lines(conn: psycopg.Connection[Any], tenant: str, *, with_embeddings: bool = False) -> Iterator[str]:
    """The lines of tenant's export, manifest first, each without its newline. conn: autocommit, not in a
    transaction (the export opens its own, REPEATABLE READ and read only, and ends it when the lines are read)."""
    previous = conn.isolation_level, conn.read_only
    conn.isolation_level, conn.read_only = IsolationLevel.REPEATABLE_READ, True
    try:
        with tenant_transaction(conn, tenant, actor="pymem export"):
            row = conn.execute("select pymem.memory_export_manifest()").fetchone()
            manifest: dict[str, Any] = dict(row[0]) if row else {}
            manifest["pymem_version"] = __version__
            manifest["schema_revision"] = head_from_files()
            manifest["with_embeddings"] = with_embeddings
            yield json.dumps(manifest, sort_keys=True)
            with conn.cursor(name="pymem_export") as cursor:
                cursor.itersize = FETCH
                cursor.execute(
                    "select jsonb_build_object('kind', e.kind, 'data', e.data)::text"
                    " from pymem.memory_export(with_embeddings => %s) as e",
                    (with_embeddings,),
                )
                for (line,) in cursor:
                    yield line
    finally:
        conn.isolation_level, conn.read_only = previous


def write_export(
    conn: psycopg.Connection[Any],
    tenant: str,
    out: IO[str],
    *,
    with_embeddings: bool = False,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write tenant's export to out; the number of lines after the manifest. progress(lines) every FETCH lines."""
    written = -1
    for written, line in enumerate(export_lines(conn, tenant, with_embeddings=with_embeddings)):
        out.write(line)
        out.write("\n")
        if progress is not None and written and written % FETCH == 0:
            progress(written)
    return max(written, 0)


@dataclass
class TenantImport:
    """What an import did: per kind, lines read, rows inserted and rows skipped (already in the tenant)."""

    manifest: dict[str, Any]
    lines: Counter[str] = field(default_factory=Counter)
    inserted: Counter[str] = field(default_factory=Counter)
    skipped: Counter[str] = field(default_factory=Counter)


def _manifest(number: int, text: str) -> dict[str, Any]:
    try:
        manifest = json.loads(text)
    except ValueError as exc:
        raise InvalidArgumentError(f"line {number}: not JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InvalidArgumentError(
            f"line {number}: not a pymem export (its first line is no {FORMAT!r} manifest)",
            hint="Files of the MCP memory server or of mem0: pymem import-tenant FILE --from mcp-memory | mem0.",
        )
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise InvalidArgumentError(
            f"line {number}: export format version {version!r}; this pymem ({__version__}) reads version"
            f" {FORMAT_VERSION}",
            hint="Import it with the pymem version that wrote it, or a newer one.",
        )
    counts = manifest.get("counts")
    if not isinstance(counts, dict) or not all(isinstance(counts.get(kind), int) for kind in KINDS):
        raise InvalidArgumentError(f"line {number}: the manifest has no counts of {', '.join(KINDS)}")
    return manifest


def _data_lines(lines: Iterable[str], first: int) -> Iterator[tuple[int, str, str]]:
    """(line number, kind, text) of the export lines after the manifest; blank lines are passed over."""
    for number, text in enumerate(lines, start=first):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except ValueError as exc:
            raise InvalidArgumentError(f"line {number}: not JSON ({exc})") from None
        kind = line.get("kind") if isinstance(line, dict) else None
        if kind not in KINDS:
            raise InvalidArgumentError(
                f"line {number}: not a pymem export line (kind {kind!r}; one of {', '.join(KINDS)})"
            )
        yield number, kind, text


def _flush(conn: psycopg.Connection[Any], batch: list[tuple[int, str, str]], done: TenantImport) -> None:
    rows = conn.execute(
        "select kind, inserted, skipped from pymem.memory_import(%s::text[]::jsonb[], first_line => %s)",
        ([text for _, _, text in batch], batch[0][0]),
    ).fetchall()
    for kind, inserted, skipped in rows:
        done.inserted[kind] += inserted
        done.skipped[kind] += skipped


def import_lines(
    conn: psycopg.Connection[Any],
    tenant: str,
    lines: Iterable[str],
    *,
    progress: Callable[[TenantImport], None] | None = None,
) -> TenantImport:
    """Import an export's lines into tenant, in one transaction (see the module docstring). conn: autocommit."""
    numbered = iter(lines)
    first = next(numbered, None)
    if first is None:
        raise InvalidArgumentError("line 1: the file is empty; a pymem export starts with its manifest")
    done = TenantImport(manifest=_manifest(1, first))
    try:
        with tenant_transaction(conn, tenant, actor="pymem import-tenant"):
            batch: list[tuple[int, str, str]] = []
            # a batch's lines are consecutive (memory_import names a refused line by first_line + its place)
            for number, kind, text in _data_lines(numbered, 2):
                if batch and number != batch[-1][0] + 1:
                    _flush(conn, batch, done)
                    batch = []
                batch.append((number, kind, text))
                done.lines[kind] += 1
                if len(batch) >= BATCH:
                    _flush(conn, batch, done)
                    batch = []
                    if progress is not None:
                        progress(done)
            if batch:
                _flush(conn, batch, done)
            counts = done.manifest["counts"]
            short = [f"{k} {done.lines[k]} of {counts[k]}" for k in KINDS if done.lines[k] != counts[k]]
            if short:
                raise InvalidArgumentError(
                    f"the file's lines are not those its manifest counts ({'; '.join(short)}): cut short or edited?",
                    hint="Nothing of this import was written. Export the tenant again.",
                )
    except psycopg.Error as exc:
        error = translate(exc)
        if error is None:
            raise
        raise error from exc
    if progress is not None:
        progress(done)
    return done


@dataclass
class ForeignImport:
    """What an import from another system did: facts stored (and of them kept for review) and unchanged."""

    stored: int = 0
    pending_review: int = 0
    unchanged: int = 0


def import_foreign_facts(
    conn: psycopg.Connection[Any],
    tenant: str,
    facts: Iterable[ForeignFact],
    *,
    citation: str,
    progress: Callable[[ForeignImport], None] | None = None,
) -> ForeignImport:
    """Store facts read from another system's file (pymem.foreign_memories) in tenant through
    pymem.memory_import_facts; citation names the file. conn: autocommit.

    The whole file is read first, so a malformed line is refused before anything is written. Then one transaction
    per FOREIGN_BATCH facts (the keyword statistics rows their lexemes update, and each fact's advisory lock, are
    held to the end of its transaction): a batch the database refuses stops the import with a report of what is in,
    and running it again stores the rest (what is in is 'unchanged')."""
    pending = list(facts)
    done = ForeignImport()
    for start in range(0, len(pending), FOREIGN_BATCH):
        batch = pending[start : start + FOREIGN_BATCH]
        try:
            with tenant_transaction(conn, tenant, actor="pymem import-tenant"):
                rows = conn.execute(
                    "select outcome, review_state from pymem.memory_import_facts(%s, %s, %s, %s::timestamptz[],"
                    " %s::jsonb[], %s, line_numbers => %s)",
                    (
                        [f.subject for f in batch],
                        [f.predicate for f in batch],
                        [f.content for f in batch],
                        [f.observed_at for f in batch],
                        [Jsonb(f.metadata) for f in batch],
                        citation,
                        [f.line for f in batch],
                    ),
                ).fetchall()
        except psycopg.Error as exc:
            error = translate(exc)
            if error is None:
                raise
            if start:
                error = type(error)(
                    f"{error.args[0]} (the {start} facts before it, to line {pending[start - 1].line}, are stored;"
                    " running the import again stores the rest)",
                    hint=error.hint,
                )
            raise error from exc
        for outcome, review_state in rows:
            if outcome == "unchanged":
                done.unchanged += 1
            else:
                done.stored += 1
                done.pending_review += review_state == "pending_review"
        if progress is not None:
            progress(done)
    return done
