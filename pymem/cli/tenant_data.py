"""`pymem export` and `pymem import-tenant`: a tenant's memories out to a JSON Lines file and back in (or in from
the MCP memory server's memory.jsonl or mem0's export). See pymem/tenant_export.py and docs/operations.md."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path
from typing import IO

import psycopg

from pymem import foreign_memories, tenant_export
from pymem.config import Settings
from pymem.database import Database, open_database
from pymem.errors import InvalidArgumentError


def _export(args: argparse.Namespace, settings: Settings) -> int:
    tenant = args.tenant or settings.tenant
    db = open_database(settings)
    started = time.monotonic()

    def progress(lines: int) -> None:
        if args.output:
            print(f"\r{lines} lines ...", end="", file=sys.stderr, flush=True)

    with contextlib.ExitStack() as stack:
        out: IO[str] = stack.enter_context(open(args.output, "w", encoding="utf-8")) if args.output else sys.stdout
        conn = stack.enter_context(psycopg.connect(db.app_dsn, autocommit=True))
        lines = tenant_export.write_export(conn, tenant, out, with_embeddings=args.with_embeddings, progress=progress)
    seconds = time.monotonic() - started
    where = args.output or "standard output"
    print(
        f"\rexported tenant {tenant!r}: {lines} lines to {where} in {seconds:.1f} s"
        + (" (with embeddings)" if args.with_embeddings else ""),
        file=sys.stderr,
    )
    return 0


def _embed_backlog(db: Database, settings: Settings, tenant: str) -> None:
    """Embed what the import left without an embedding, now, unless embeddings are off."""
    from pymem.embedding_worker import EmbeddingWorker
    from pymem.embeddings import make_embedder
    from pymem.tenancy import tenant_transaction

    def waiting() -> int:
        with psycopg.connect(db.app_dsn, autocommit=True) as conn, tenant_transaction(conn, tenant):
            row = conn.execute("select waiting from pymem.memory_embedding_backlog()").fetchone()
        return int(row[0]) if row else 0

    before = waiting()
    if not before:
        return
    if not settings.embeddings:
        print(f"{before} memories wait for the embedding worker (PYMEM_EMBEDDINGS=off)", file=sys.stderr)
        return
    print(f"embedding {before} memories ...", file=sys.stderr, flush=True)
    # the worker takes what waits in any tenant: this tenant's rows are among them
    EmbeddingWorker(dsn=db.migrator_dsn, embedder=make_embedder(settings)).work("import")
    left = waiting()
    print(
        f"embedded {before - left} memories" + (f" ({left} failed or wait to be retried)" if left else ""),
        file=sys.stderr,
    )


def _import_tenant(args: argparse.Namespace, settings: Settings) -> int:
    path = Path(args.file)
    if not path.is_file():
        raise InvalidArgumentError(f"{path}: no such file")
    tenant = args.tenant or settings.tenant
    db = open_database(settings)
    started = time.monotonic()
    if args.source == "pymem":

        def progress(done: tenant_export.TenantImport) -> None:
            print(f"\r{sum(done.lines.values())} lines ...", end="", file=sys.stderr, flush=True)

        with path.open(encoding="utf-8") as lines, psycopg.connect(db.app_dsn, autocommit=True) as conn:
            done = tenant_export.import_lines(conn, tenant, lines, progress=progress)
        print(f"\rimported {path} into tenant {tenant!r} in {time.monotonic() - started:.1f} s", file=sys.stderr)
        for kind in tenant_export.KINDS:
            if done.lines[kind]:
                print(f"{kind}: {done.inserted[kind]} inserted, {done.skipped[kind]} already there")
    else:
        facts = foreign_memories.foreign_facts(path, args.source)
        with psycopg.connect(db.app_dsn, autocommit=True) as conn:
            result = tenant_export.import_foreign_facts(conn, tenant, facts, citation=f"{args.source}:{path.name}")
        print(f"imported {path} ({args.source}) into tenant {tenant!r}", file=sys.stderr)
        print(f"fact: {result.stored} stored ({result.pending_review} kept for review), {result.unchanged} unchanged")
    if not args.no_embed:
        _embed_backlog(db, settings, tenant)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    exp = sub.add_parser(
        "export",
        help="write a tenant's memories to a JSON Lines file",
        description="A manifest line, then one line per episode, fact, rule, link and butler setting of the tenant,"
        " with ids, validity, supersession, provenance, confidence and times; read back by pymem import-tenant.",
    )
    exp.add_argument("--tenant", help="the tenant to export (default: $PYMEM_TENANT or 'default')")
    exp.add_argument("-o", "--output", help="the file to write (default: standard output)")
    exp.add_argument("--with-embeddings", action="store_true", help="include the embeddings (about 4 KB a row)")
    exp.set_defaults(func=_export)

    imp = sub.add_parser(
        "import-tenant",
        help="import a tenant's export (or the MCP memory server's memory.jsonl, or mem0's export)",
        description="Restore a pymem export into a tenant (the same or another) in one transaction: rows the tenant"
        " has are skipped, so importing twice is importing once; a refused line is named and nothing is written."
        " Rows without an embedding (or of another model) are embedded afterwards.",
    )
    imp.add_argument("file", help="the file to import")
    imp.add_argument("--tenant", help="the tenant to import into (default: $PYMEM_TENANT or 'default')")
    imp.add_argument(
        "--from",
        dest="source",
        choices=("pymem", *foreign_memories.FORMATS),
        default="pymem",
        help="the file's format: a pymem export (default), the MCP memory server's memory.jsonl, mem0's export",
    )
    imp.add_argument("--no-embed", action="store_true", help="leave the embeddings to the embedding worker")
    imp.set_defaults(func=_import_tenant)
