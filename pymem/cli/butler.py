"""`pymem butler sync | show`: write the butler.toml files' settings into a tenant, and show what is in force.

`pymem serve` writes them at start (into its stdio tenant, or every tenant with a live token over HTTP);
this command does it by hand, e.g. after editing a file while the server runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import psycopg

from pymem import butlers
from pymem.client import MemoryClient
from pymem.config import Settings
from pymem.database import open_database
from pymem.result_schemas import ButlerSettings
from pymem.tenancy import tenant_transaction


def _line(row: ButlerSettings) -> str:
    weights = f"{row.w_relevance:g}/{row.w_importance:g}/{row.w_recency:g}/{row.w_confidence:g}"
    quotas = f"{row.quota_system:g}/{row.quota_project:g}/{row.quota_history:g}/{row.quota_knowledge:g}"
    items = f"{row.max_system}/{row.max_project}/{row.max_history}/{row.max_knowledge}"
    ttl = row.episode_ttl.total_seconds() / 86400
    origin = row.source or ("defaults" if not row.configured else "set in SQL")
    floor = "the model's" if row.min_relevance is None else f"{row.min_relevance:g}"
    focus = "the default" if row.min_focus is None else f"{row.min_focus:g}"
    bypass = "the default" if row.floor_bypass is None else f"{row.floor_bypass:g}"
    return (
        f"{row.butler}: scope {row.scope}, weights {weights} (relevance/importance/recency/confidence),"
        f" relevance floor {floor}, floor bypass {bypass}, focus check {focus}, episode TTL {ttl:g} days, context"
        f" {row.context_token_budget} tokens, quotas {quotas} and max items {items} (system/project/history/knowledge)"
        f" ({origin})"
    )


def _sync(args: argparse.Namespace, settings: Settings) -> int:
    directory = Path(args.dir) if args.dir else butlers.butlers_dir()
    tenant = args.tenant or settings.tenant
    db = open_database(settings)
    with psycopg.connect(db.app_dsn, autocommit=True) as conn, tenant_transaction(conn, tenant, actor="pymem butler"):
        written = butlers.sync_butlers(MemoryClient(conn), directory)
    for row in written:
        print(_line(row))
    print(f"wrote the settings of {len(written)} butler(s) from {directory} into tenant {tenant!r}")
    return 0


def _show(args: argparse.Namespace, settings: Settings) -> int:
    tenant = args.tenant or settings.tenant
    db = open_database(settings)
    with psycopg.connect(db.app_dsn, autocommit=True) as conn, tenant_transaction(conn, tenant, actor="pymem butler"):
        rows = MemoryClient(conn).butler_settings(name=args.butler)
    for row in rows:
        print(_line(row))
    if not rows:
        print(f"no butler settings in tenant {tenant!r}: every butler has the defaults")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    butler = sub.add_parser(
        "butler",
        help="butler settings in the database (from butler.toml files)",
        description="The settings that rank (score weights, episode TTL, context budget and quotas) are read by"
        " the SQL functions from pymem.butler_settings. `sync` writes a directory's butler.toml files into a tenant"
        " (and removes the settings of butlers whose file is gone); `show` prints what is in force.",
    ).add_subparsers(dest="butler_command", required=True)
    sync = butler.add_parser("sync", help="write the butler.toml files' settings into a tenant")
    sync.add_argument("--tenant", help="the tenant (default: $PYMEM_TENANT or 'default')")
    sync.add_argument("--dir", help="the butlers directory (default: $PYMEM_BUTLERS_DIR)")
    sync.set_defaults(func=_sync)
    show = butler.add_parser("show", help="print the butler settings in force in a tenant")
    show.add_argument("butler", nargs="?", help="one butler (its defaults when it has no settings)")
    show.add_argument("--tenant", help="the tenant (default: $PYMEM_TENANT or 'default')")
    show.set_defaults(func=_show)
