"""`pymem review list | approve | reject`: the human reviewer's side of grounded ingestion.

What was kept for review (a fact or rule drawn from text that may steer the agent) is approved, and a rule the agent
inferred becomes standing behaviour, only when someone other than the agent confirms it. The operator is such a
someone: these commands connect as the migrator login (PYMEM_DSN or the embedded server's superuser), step down to
pymem_app in the tenant's transaction, and declare the reviewer `review:<OS user>` (the setting pymem.reviewer);
pymem.memory_review_queue, memory_confirm (pymem_private.caller_may_review) and memory_forget decide the rest."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC

from pymem.client import MemoryClient, ReviewItem
from pymem.config import Settings
from pymem.database import open_database
from pymem.maintenance import _connect, _sql_errors
from pymem.tenancy import tenant_transaction

CONTENT_SHOWN = 200  # characters of each memory `pymem review list` prints


def reviewer_name() -> str:
    """Who approves from this command line: review:<the operator's OS user>."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no user name in the environment nor in the password database
        user = "operator"
    return f"review:{user}"


@contextmanager
def _reviewing(settings: Settings, tenant: str) -> Iterator[MemoryClient]:
    """One transaction of the tenant, as pymem_app (the tenant policies apply), by the operator's login."""
    db = open_database(settings)
    with _connect(db.migrator_dsn) as conn, _sql_errors(), tenant_transaction(conn, tenant, actor=reviewer_name()):
        if conn.execute("select current_user").fetchone() != ("pymem_app",):
            conn.execute("set local role pymem_app")
        yield MemoryClient(conn)


def _shorten(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= CONTENT_SHOWN else flat[: CONTENT_SHOWN - 1] + "…"


def _print_item(item: ReviewItem) -> None:
    episode = f"  episode {str(item.source_episode_id)[:8]}" if item.source_episode_id else ""
    maturity = f"  {item.maturity}" if item.maturity else ""
    when = item.created_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{item.memory_type} {item.short_id}  {item.waiting}{maturity}  source {item.source or '-'}{episode}  {when}")
    print(f"    {_shorten(item.content)}")
    print(f"    why: {item.reason}")


def _list(args: argparse.Namespace, settings: Settings) -> int:
    tenant = args.tenant or settings.tenant
    with _reviewing(settings, tenant) as db:
        items = db.review_queue(limit=args.limit)
    if not items:
        print(f"nothing waits for review in tenant {tenant!r}", file=sys.stderr)
        return 0
    for item in items:
        _print_item(item)
    more = " (the limit: there may be more, pass --limit)" if len(items) == args.limit else ""
    print(f"{len(items)} waiting for review in tenant {tenant!r}{more}", file=sys.stderr)
    return 0


def _approve(args: argparse.Namespace, settings: Settings) -> int:
    tenant = args.tenant or settings.tenant
    reviewer = reviewer_name()
    with _reviewing(settings, tenant) as db:
        memory_id = db.resolve_id(type=args.type, ref=args.id)
        result = db.confirm(type=args.type, id=memory_id, reviewer=reviewer)
    what = "approved" if result.approved else "confirmed"
    print(f"{what} {args.type} {memory_id} in tenant {tenant!r} (reviewer {reviewer})")
    if result.supersedes_id is not None:
        print(f"it supersedes fact {result.supersedes_id}")
    return 0


def _reject(args: argparse.Namespace, settings: Settings) -> int:
    tenant = args.tenant or settings.tenant
    reason = args.reason or f"rejected by {reviewer_name()}"
    with _reviewing(settings, tenant) as db:
        memory_id = db.resolve_id(type=args.type, ref=args.id)
        result = db.forget(type=args.type, id=memory_id, reason=reason)
    print(f"rejected {args.type} {memory_id} in tenant {tenant!r}: {result.previous_state} -> {result.state}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem review ...` to the subcommands of the `pymem` parser."""
    review = sub.add_parser(
        "review",
        help="what waits for a human reviewer: list, approve, reject",
        description="Facts and rules kept for review (text that may steer the agent) are recalled only once a"
        " reviewer approves them, and a rule the agent inferred is standing behaviour (memory_context's System"
        " block) only once a reviewer confirms it. The agent itself cannot: this command, a bearer token with"
        " the scope memory:review or a login bound to the tenant can.",
    ).add_subparsers(dest="review_command", required=True)

    lst = review.add_parser("list", help="what waits for review (pymem.memory_review_queue), oldest first")
    lst.add_argument("--tenant", help="the tenant (default: $PYMEM_TENANT or 'default')")
    lst.add_argument("--limit", type=int, default=100, help="at most this many (1..1000, default 100)")
    lst.set_defaults(func=_list)

    approve = review.add_parser("approve", help="approve (memory_confirm as reviewer review:<your OS user>)")
    reject = review.add_parser("reject", help="reject: forget it (memory_forget, with the reason)")
    for parser in (approve, reject):
        parser.add_argument("--tenant", help="its tenant (default: $PYMEM_TENANT or 'default')")
        parser.add_argument("--type", required=True, choices=["fact", "rule"])
        parser.add_argument("--id", required=True, help="its id, or the first 8+ hex digits of it (pymem review list)")
    reject.add_argument("--reason", help="why (kept in the audit trail; default: rejected by review:<your OS user>)")
    approve.set_defaults(func=_approve)
    reject.set_defaults(func=_reject)
