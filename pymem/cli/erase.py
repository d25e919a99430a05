"""`pymem erase memory | tenant`: the right to erasure, for operators (the migrator login: PYMEM_DSN or the
embedded server's superuser). A hard purge, where memory_forget is a soft one; see docs/reliability.md."""

from __future__ import annotations

import argparse
import sys

from pymem import erasure
from pymem.config import Settings
from pymem.database import open_database
from pymem.embeddings import make_embedder
from pymem.errors import InvalidArgumentError


def _done(result: erasure.Erased) -> None:
    how = "VACUUM FULL (files rewritten, indexes rebuilt)" if result.rewritten else "VACUUM"
    print(f"{how}: {', '.join(result.vacuumed)}", file=sys.stderr)


def _erase_memory(args: argparse.Namespace, settings: Settings) -> int:
    db = open_database(settings)
    result = erasure.erase_memory(
        db.migrator_dsn,
        tenant=args.tenant or settings.tenant,
        memory_type=args.type,
        memory_id=args.id,
        reason=args.reason,
        cascade=args.cascade,
        rewrite=args.rewrite,
        embedder=make_embedder(settings),  # loaded only if a memory was rebuilt without the erased text
    )
    for memory_type, memory_id in result.memories:
        print(f"erased {memory_type} {memory_id}")
    for memory_type, memory_id in result.rebuilt:
        print(f"{'re-embedded' if result.reembedded else 'rebuilt'} {memory_type} {memory_id}")
    if result.rebuilt and not result.reembedded:
        print(
            "the rebuilt memories lost their embedding (another embedding model is recorded): found by keyword"
            " until `pymem reembed`",
            file=sys.stderr,
        )
    _done(result)
    return 0


def _erase_tenant(args: argparse.Namespace, settings: Settings) -> int:
    if args.confirm != args.tenant:
        raise InvalidArgumentError(
            f"erasing tenant {args.tenant!r} deletes all of its memories, events, tokens, settings and logins for good:"
            f" repeat its name with --confirm {args.tenant}"
        )
    db = open_database(settings)
    result = erasure.erase_tenant(db.migrator_dsn, tenant=args.tenant, reason=args.reason, rewrite=args.rewrite)
    width = max(len(table) for table, _ in result.rows)
    for table, count in result.rows:
        print(f"{table.ljust(width)}  {count}")
    _done(result)
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem erase` to the subcommands of the `pymem` parser."""
    erase = sub.add_parser(
        "erase",
        help="erase a memory or a whole tenant for good (right to erasure)",
        description="Hard-delete what memory_forget only hides: the rows, their links, the keyword lexemes only they"
        " held and the content of their audit events (a content-free record of the erasure stays), then VACUUM.",
    ).add_subparsers(dest="what", required=True)
    memory = erase.add_parser("memory", help="erase one memory (pymem.memory_erase)")
    memory.add_argument("--tenant", help="its tenant (default: $PYMEM_TENANT or 'default')")
    memory.add_argument("--type", required=True, choices=["episode", "fact", "rule"])
    memory.add_argument("--id", required=True, help="its id, or the first 8+ hex digits of it")
    memory.add_argument("--reason", help="why (kept in the content-free audit record; no personal data here)")
    memory.add_argument(
        "--cascade",
        action="store_true",
        help="also erase what was derived from it (an episode's facts and rules) and the older versions it superseded",
    )
    tenant = erase.add_parser(
        "tenant",
        help="erase every row of a tenant, and the logins bound to it with what they own (pymem.memory_erase_tenant)",
    )
    tenant.add_argument("tenant")
    tenant.add_argument("--reason", required=True, help="why (kept in the content-free audit record)")
    tenant.add_argument("--confirm", required=True, metavar="TENANT", help="the tenant's name again")
    for parser in (memory, tenant):
        parser.add_argument(
            "--rewrite",
            action="store_true",
            help="VACUUM FULL instead of VACUUM: rewrites the files so no byte of the erased rows stays on disk"
            " (takes an exclusive lock on each table while it runs)",
        )
    memory.set_defaults(func=_erase_memory)
    tenant.set_defaults(func=_erase_tenant)
