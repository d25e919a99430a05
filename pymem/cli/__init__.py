"""The `pymem` command line.

pymem db url [--tenant T | --app | --migrator]   print a DSN (starts the embedded server)
pymem db start | stop | status                   manage the embedded server
pymem migrate                                    upgrade the database to head
pymem demo                                       store and recall a few memories
pymem import PATH [--tenant T] [--scope S] [--butler B]   import a folder of markdown memory files
pymem serve [--transport stdio|http] [--host H] [--port P] [--tenant T]   run the MCP server
pymem token create --tenant T [--admin | --read-only] [--review] [--expires-in DAYS] [--label L]
                                                 issue a bearer token for the HTTP server (shown once)
pymem token list [--tenant T]                    list bearer tokens (never the tokens)
pymem token revoke TOKEN_ID                      revoke a bearer token
pymem butler sync [--tenant T] [--dir D]         write butler.toml settings into a tenant
pymem butler show [BUTLER] [--tenant T]          print the butler settings in force
pymem erase memory --type T --id ID [--cascade] | tenant T --confirm T   erase for good (right to erasure)
pymem review list [--tenant T] | approve|reject --type fact|rule --id ID   what waits for a human reviewer
pymem dashboard [--host H] [--port P]             a read-only web dashboard of one tenant (token sign-in)
pymem hook session-start|user-prompt|stop [--tenant T]   a Claude Code hook (JSON on stdin and stdout)
pymem claude-code install [--scope project|user] [--tenant T] [--print]   register the hooks and the MCP server

From a checkout (`make install`), with the development package pymem_dev, which is not in the wheel:
pymem bench [--scale default|100k|1m] [--json F] [--markdown F]   speed figures on a scratch database
pymem eval [--json F] [--beir DIR]               quality figures on a scratch database
pymem stress [--seconds S] [--tenants N] [--sessions N]   a bounded load on the HTTP server (loopback)
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from pymem import __version__, embedded, migrate
from pymem.config import Settings
from pymem.database import ensure_analyst, open_database, resolve_database, to_url
from pymem.errors import PymemError


def _db_url(args: argparse.Namespace, settings: Settings) -> int:
    db = open_database(settings)
    if args.migrator:
        dsn = db.migrator_dsn
    elif args.app:
        dsn = db.app_dsn
    else:
        dsn = ensure_analyst(db, args.tenant or settings.tenant, args.role)
    print(to_url(dsn))
    return 0


def _db_start(args: argparse.Namespace, settings: Settings) -> int:
    db = open_database(settings)
    print(f"ready: {to_url(db.app_dsn)}")
    return 0


def _db_stop(args: argparse.Namespace, settings: Settings) -> int:
    if settings.dsn:
        print("PYMEM_DSN is set: pymem does not manage that server", file=sys.stderr)
        return 1
    print("stopped" if embedded.stop(settings.data_dir) else "not running")
    return 0


def _db_status(args: argparse.Namespace, settings: Settings) -> int:
    if settings.dsn:
        db = resolve_database(settings, start=False)
        print(f"external database; schema at {migrate.current(db.migrator_dsn) or 'nothing'} (head {migrate.head()})")
        return 0
    print(embedded.status(settings.data_dir))
    return 0


def _migrate(args: argparse.Namespace, settings: Settings) -> int:
    db = resolve_database(settings)
    before = migrate.current(db.migrator_dsn)
    migrate.upgrade(db.migrator_dsn)
    print(f"migrated: {before or 'empty'} -> {migrate.current(db.migrator_dsn)}")
    return 0


def _demo(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.cli import demo

    demo.run()
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _import(args: argparse.Namespace, settings: Settings) -> int:
    import psycopg

    from pymem import importer
    from pymem.embeddings import make_embedder

    # a bad path fails before the database starts; links out of the folder and special files are skipped, and said
    found = importer.scan_markdown(Path(args.path), follow_links_outside=args.follow_links_outside)
    for subject, reason in found.skipped:
        print(f"pymem import: skipped {subject}: {reason}", file=sys.stderr)
    if found.skipped:
        print(f"pymem import: {_count(len(found.skipped), 'file')} skipped", file=sys.stderr)
    files = found.files
    tenant = args.tenant or settings.tenant
    db = open_database(settings)

    def report(result: importer.FileImport) -> None:
        counts = {
            "new": result.new,
            "updated": result.updated,
            "unchanged": result.unchanged,
            "retracted": result.retracted,
        }
        details = ", ".join(f"{n} {what}" for what, n in counts.items() if n)
        print(f"{result.subject}: {_count(result.chunks, 'chunk')}" + (f" ({details})" if details else ""), flush=True)

    with psycopg.connect(db.app_dsn, autocommit=True) as conn:
        summary = importer.import_files(
            conn, tenant, files, embedder=make_embedder(settings), scope=args.scope, butler=args.butler, progress=report
        )
    print(
        f"imported {_count(len(summary.files), 'file')} into tenant {tenant!r}: {_count(summary.stored, 'chunk')}"
        f" stored, {summary.unchanged} unchanged, {summary.retracted} retracted"
    )
    return 0


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    from pymem.cli.serve import serve

    return serve(
        settings,
        transport=args.transport,
        host=args.host,
        port=args.port,
        tenant=args.tenant,
        butlers_dir=Path(args.butlers_dir) if args.butlers_dir else None,
        replica_dsn=args.replica_dsn,
    )


DEV_COMMANDS = {
    "bench": "measure ingest, latency, recall and cold start on a scratch database",
    "eval": "measure retrieval quality (golden dataset; BEIR with --beir)",
    "stress": "a bounded mixed load on the HTTP MCP server (loopback), on a scratch database",
}


def _dev_missing(reason: str) -> str:
    return (
        f"this command is development tooling, not part of the pymem wheel ({reason}): it runs from a checkout"
        " of the pymem repository after `make install` (pip install -e '.[dev]'), which installs the pymem_dev package"
    )


def _register_dev_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`pymem bench`, `pymem eval` and `pymem stress` from pymem_dev when it is installed; else commands that
    say how to get it (and accept any arguments, so that the message is what the user sees)."""
    try:
        from pymem_dev import cli as dev_cli
    except ImportError as exc:
        reason = "pymem_dev is not installed" if exc.name == "pymem_dev" else f"pymem_dev does not import: {exc}"
        for name, help_text in DEV_COMMANDS.items():
            # every argument, --help and the options included, is taken as is (no prefix character is in
            # use), so that `pymem eval --json F` prints the message below and not an argparse error
            missing = sub.add_parser(name, help=f"{help_text} [needs pymem_dev]", prefix_chars="\0", add_help=False)
            missing.add_argument("args", nargs="*")
            missing.set_defaults(func=_dev_unavailable, reason=reason)
        return
    dev_cli.register(sub)


def _dev_unavailable(args: argparse.Namespace, settings: Settings) -> int:
    print(f"pymem {args.command}: {_dev_missing(args.reason)}", file=sys.stderr)
    return 2


# The modules that register the other commands (each with `register(sub)`), in the order `pymem --help` lists them,
# and the commands each registers (tests/test_cli.py checks that they are the ones it registers). A command line
# that names one of them builds only its module's parsers: `pymem serve` and `pymem hook` (a Claude Code hook, on
# every prompt) no longer import the modules of every other command before they start.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "pymem.cli.token": ("token",),
    "pymem.cli.butler": ("butler",),
    "pymem.cli.maintenance": ("index-health", "maintain", "worker", "reembed", "janitor", "consolidate"),
    "pymem.cli.erase": ("erase",),
    "pymem.cli.review": ("review",),
    "pymem.cli.dashboard": ("dashboard",),
    "pymem.cli.claude_code": ("hook", "claude-code"),
    "pymem.cli.tenant_data": ("export", "import-tenant"),
    "pymem_dev.cli": tuple(DEV_COMMANDS),
    "pymem.cli.model": ("model", "embed"),
}
CORE_COMMANDS = ("db", "migrate", "demo", "import", "serve")


def _named_command(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first argument that is not an option (pymem's own options take no
    value), or None."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The `pymem` parser. With the command a command line names: only the parsers of that command's module (the
    built-in commands' with any), so that no other command's module is imported; with an unknown command or
    none, every command (for --help and for argparse's list of choices)."""
    modules = [m for m, commands in COMMAND_MODULES.items() if command in commands]
    if not modules and command not in CORE_COMMANDS:
        modules = list(COMMAND_MODULES)
    parser = argparse.ArgumentParser(prog="pymem", description="Long-term memory for AI agents, inside PostgreSQL.")
    parser.add_argument("--version", action="version", version=f"pymem {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = parser.add_subparsers(dest="command", required=True)

    db = sub.add_parser("db", help="the database in use").add_subparsers(dest="db_command", required=True)
    url = db.add_parser("url", help='print a connection URL (psql "$(pymem db url)")')
    who = url.add_mutually_exclusive_group()
    who.add_argument("--tenant", help="a login bound to this tenant (default: $PYMEM_TENANT or 'default')")
    who.add_argument("--app", action="store_true", help="the application role pymem_app")
    who.add_argument("--migrator", action="store_true", help="the migrator (superuser on the embedded server)")
    url.add_argument("--role", help="name of the bound login to create or reuse (default: pymem_t_<tenant>)")
    url.set_defaults(func=_db_url)
    db.add_parser("start", help="start and migrate the embedded server").set_defaults(func=_db_start)
    db.add_parser("stop", help="stop the embedded server").set_defaults(func=_db_stop)
    db.add_parser("status", help="say whether the embedded server runs").set_defaults(func=_db_status)

    sub.add_parser("migrate", help="upgrade the database to head").set_defaults(func=_migrate)
    sub.add_parser("demo", help="store and recall a few memories for tenant 'demo'").set_defaults(func=_demo)
    imp = sub.add_parser(
        "import",
        help="import a folder (or one file) of markdown memory files",
        description="Store each chunk of each .md file as a fact (subject: the file's path, predicate: 'chunk N');"
        " files named YYYY-MM-DD.md decay in search with a 30-day half-life. Importing again updates changed"
        " chunks and retracts removed ones.",
    )
    imp.add_argument("path", help="a folder (searched recursively for .md files) or one .md file")
    imp.add_argument("--tenant", help="the tenant to import into (default: $PYMEM_TENANT or 'default')")
    imp.add_argument("--scope", default="global", help="scope of the imported facts (default: global)")
    imp.add_argument("--butler", help="the butler recorded as the facts' source")
    imp.add_argument(
        "--follow-links-outside",
        action="store_true",
        help="also import the files that links in the folder point to outside it (skipped by default; links to"
        " folders are never followed, FIFOs, sockets and devices never opened)",
    )
    imp.set_defaults(func=_import)

    srv = sub.add_parser(
        "serve",
        help="run the MCP server (stdio by default)",
        description="Run the MCP server with the thirteen memory tools. stdio serves one tenant, the operator's"
        " ($PYMEM_TENANT, the config file or --tenant); HTTP (streamable) serves any tenant with a bearer token"
        " from `pymem token create`.",
    )
    srv.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    srv.add_argument("--host", default="127.0.0.1", help="HTTP: address to listen on (default 127.0.0.1)")
    srv.add_argument("--port", type=int, default=8765, help="HTTP: port (default 8765)")
    srv.add_argument("--tenant", help="stdio: the tenant to serve (default: $PYMEM_TENANT or the config file)")
    srv.add_argument("--butlers-dir", help="where <butler>/butler.toml files are (default: $PYMEM_BUTLERS_DIR)")
    srv.add_argument(
        "--replica-dsn", help="pymem_app DSN of a read replica for the read tools (default: $PYMEM_REPLICA_DSN)"
    )
    srv.set_defaults(func=_serve)
    for module in modules:
        if module == "pymem_dev.cli":
            _register_dev_commands(sub)
        else:
            importlib.import_module(module).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    args = build_parser(_named_command(arguments)).parse_args(arguments)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="pymem: %(message)s")
    try:
        return int(args.func(args, Settings.from_env()))
    except PymemError as exc:
        print(f"pymem: {exc}", file=sys.stderr)
        return 2
