"""`pymem token create | list | revoke`: bearer tokens of the HTTP MCP server (operators only:
they use the migrator login, PYMEM_DSN or the embedded server's superuser)."""

from __future__ import annotations

import argparse
import sys
import uuid
from datetime import UTC, datetime, timedelta

from pymem import bearer_tokens
from pymem.config import Settings
from pymem.database import open_database
from pymem.errors import InvalidArgumentError, NotFoundError


def _when(value: datetime | None, never: str = "-") -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if value is not None else never


def _days(text: str) -> timedelta:
    """--expires-in DAYS as a duration: parsing only; whether it is a valid lifetime (positive, not
    past the year 9999) is pymem_private.token_issue's to say, and its message is printed."""
    try:
        return timedelta(days=float(text))
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None


def _create(args: argparse.Namespace, settings: Settings) -> int:
    db = open_database(settings)
    issued = bearer_tokens.create_token(
        db.migrator_dsn,
        args.tenant,
        admin=args.admin,
        read_only=args.read_only,
        review=args.review,
        expires_in=args.expires_in,
        label=args.label,
    )
    print(issued.token, flush=True)
    print(
        "pymem: this token is shown only once; store it now (only its hash is kept).\n"
        f"  id:      {issued.id}\n"
        f"  tenant:  {issued.tenant_id}\n"
        f"  scopes:  {' '.join(issued.scopes)}\n"
        f"  expires: {_when(issued.expires_at, never='never')}"
        + (f"\n  label:   {issued.label}" if issued.label else ""),
        file=sys.stderr,
    )
    return 0


def _list(args: argparse.Namespace, settings: Settings) -> int:
    db = open_database(settings)
    rows = bearer_tokens.list_tokens(db.migrator_dsn, args.tenant)
    if not rows:
        print("no tokens" + (f" for tenant {args.tenant!r}" if args.tenant else ""), file=sys.stderr)
        return 0
    now = datetime.now(UTC)
    header = ("ID", "TENANT", "SCOPES", "STATUS", "CREATED", "EXPIRES", "LAST USED", "LABEL")
    table = [header] + [
        (
            str(t.token_id),
            t.tenant_id,
            ",".join(t.scopes),
            t.status(now),
            _when(t.created_at),
            _when(t.expires_at, never="never"),
            _when(t.last_used_at, never="never"),
            t.label or "",
        )
        for t in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip())
    return 0


def _revoke(args: argparse.Namespace, settings: Settings) -> int:
    try:
        token_id = uuid.UUID(args.token_id)
    except ValueError:
        raise InvalidArgumentError(f"{args.token_id!r} is not a token id (a UUID from pymem token list)") from None
    db = open_database(settings)
    if not bearer_tokens.revoke_token(db.migrator_dsn, token_id):
        raise NotFoundError(f"no active token {token_id}", hint="pymem token list shows the tokens and their status")
    print(f"revoked {token_id}")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem token ...` to the subcommands of the `pymem` parser."""
    token = sub.add_parser(
        "token",
        help="bearer tokens of the HTTP server (create, list, revoke)",
        description="Bearer tokens for `pymem serve --transport http`. Each token acts for one tenant;"
        " only its SHA-256 is stored, so a token is shown once, when it is created.",
    ).add_subparsers(dest="token_command", required=True)

    create = token.add_parser("create", help="issue a token for a tenant and print it (once)")
    create.add_argument("--tenant", required=True, help="the tenant every call made with the token acts for")
    kind = create.add_mutually_exclusive_group()
    kind.add_argument("--admin", action="store_true", help="also memory:admin: may act for other tenants (logged)")
    kind.add_argument("--read-only", action="store_true", help="memory:read only (default: read and write)")
    create.add_argument(
        "--review",
        action="store_true",
        help="also memory:review: a person who approves what was kept for review with memory_confirm (never give it"
        " to an agent: its confirmation would then count as a reviewer's)",
    )
    create.add_argument("--expires-in", type=_days, metavar="DAYS", help="expire after DAYS days (default: never)")
    create.add_argument("--label", help="who or what the token is for")
    create.set_defaults(func=_create)

    lst = token.add_parser("list", help="list tokens (never the tokens themselves)")
    lst.add_argument("--tenant", help="only this tenant's tokens")
    lst.set_defaults(func=_list)

    revoke = token.add_parser("revoke", help="revoke a token; it never verifies again")
    revoke.add_argument("token_id", metavar="TOKEN_ID", help="the id shown by pymem token create and list")
    revoke.set_defaults(func=_revoke)
