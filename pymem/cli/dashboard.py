"""`pymem dashboard`: the read-only web dashboard of one tenant (pymem.dashboard), served by uvicorn.

Each person signs in with a bearer token (`pymem token create --tenant T --read-only`), which names the tenant they
see; the pages read as pymem_app in that tenant under RLS. Host and Origin are checked as for `pymem serve
--transport http` (PYMEM_ALLOWED_HOSTS, PYMEM_ALLOWED_ORIGINS); behind an https proxy, --secure-cookies."""

from __future__ import annotations

import argparse
import logging
import sys

from pymem.config import Settings

log = logging.getLogger("pymem.cli.dashboard")


def _run(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from pymem import log_redaction
    from pymem.dashboard import DashboardOptions, create_app
    from pymem.database import open_database
    from pymem.embeddings import EmbeddingService, embedder_from_settings
    from pymem.http_guard import allowed_hosts, allowed_origins
    from pymem.http_timeouts import timed_protocol
    from pymem.pool import make_pool
    from pymem.tenant_export import export_lines

    log_redaction.install()  # no token in any log line
    db = open_database(settings)
    options = DashboardOptions(
        pool=make_pool(db.app_dsn, max_size=settings.pool_size, timeout=settings.pool_timeout),
        embeddings=EmbeddingService(embedder_from_settings(settings)),
        hosts=allowed_hosts(args.host, args.port, settings.allowed_hosts),
        origins=allowed_origins(args.host, args.port, settings.allowed_origins),
        exporter=export_lines,
        secure_cookies=args.secure_cookies,
    )
    print(
        f"pymem: dashboard at http://{args.host}:{args.port}/ (sign in with a token: pymem token create --tenant T"
        " --read-only)",
        file=sys.stderr,
    )
    uvicorn.run(
        create_app(options),
        host=args.host,
        port=args.port,
        http=timed_protocol(settings.header_timeout, settings.body_timeout),
        log_level="info" if args.verbose else "warning",
    )
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `pymem dashboard` to the subcommands of the `pymem` parser."""
    dash = sub.add_parser(
        "dashboard",
        help="a read-only web dashboard of one tenant (sign in with a bearer token)",
        description="Serve the web dashboard: the overview of a tenant's memory, a memory browser, a search that"
        " shows why each memory was recalled, a fact's history, the rules by maturity and the audit trail. Each"
        " person signs in with a bearer token of their tenant (pymem token create --tenant T --read-only).",
    )
    dash.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    dash.add_argument("--port", type=int, default=8766, help="port (default 8766)")
    dash.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark the session cookie Secure (served over https by a proxy in front; over https it always is)",
    )
    dash.set_defaults(func=_run)
