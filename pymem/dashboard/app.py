"""The dashboard's Starlette application: server-rendered pages (Jinja2), no JavaScript, one tenant per caller.

    app = create_app(DashboardOptions(pool=make_pool(db.app_dsn), embeddings=EmbeddingService(embedder),
                                      hosts=allowed_hosts(host, port), origins=allowed_origins(host, port)))

Pages: / (overview), /memories (the browser), /search (recall, explained), /memory/{type}/{id} (one memory: a fact's
supersession chain and confidence chart, a rule's feedback, the audit trail), /rules (rules by maturity), /export
(the tenant's JSON Lines file), /signin and /signout. Every page needs a caller (pymem.dashboard.auth) whose token has
the scope memory:read, and reads in a read-only transaction of the caller's tenant (pymem.dashboard.queries);
without one, 401 and the sign-in form.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode
from uuid import UUID

import psycopg
from psycopg_pool import ConnectionPool
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from pymem.bearer_tokens import hash_token
from pymem.dashboard import auth, formats
from pymem.dashboard.auth import Caller, SessionStore
from pymem.dashboard.charts import confidence_chart
from pymem.dashboard.guard import DashboardGuard
from pymem.dashboard.queries import DashboardClient, reading
from pymem.embeddings import EmbeddingService
from pymem.errors import NotFoundError, PymemError, translate

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
PAGE_SIZE = 50
MAX_FORM = 4096  # bytes of a sign-in or sign-out form
REVIEW_SHOWN = 20  # the oldest memories waiting for review the overview lists
TYPES = ("episode", "fact", "rule")
STATES = (
    "active",
    "consolidated",
    "forgotten",
    "pending_review",
    "superseded",
    "retracted",
    "expired",
    "candidate",
    "established",
    "proven",
    "anti_pattern",
)
# a tenant's export as JSON Lines, each without its newline: pymem.tenant_export.export_lines
Exporter = Callable[[psycopg.Connection[Any], str], Iterator[str]]


@dataclass(frozen=True)
class DashboardOptions:
    pool: ConnectionPool  # pymem_app connections (pymem.pool.make_pool)
    embeddings: EmbeddingService  # the query embedding of a search (None: keyword search)
    hosts: tuple[str, ...]  # pymem.http_guard.allowed_hosts
    origins: tuple[str, ...]  # pymem.http_guard.allowed_origins
    exporter: Exporter | None = None  # /export, the file of `pymem export` (pymem.tenant_export.export_lines)
    secure_cookies: bool = False  # Secure cookies even over http (served behind an https proxy)


class Dashboard:
    """The pages, on the options and the sessions of one application."""

    def __init__(self, options: DashboardOptions) -> None:
        self.options = options
        self.sessions = SessionStore()
        self.templates = Jinja2Templates(env=formats.environment(HERE / "templates"))

    # -- who is asking ----------------------------------------------------------------------------------------

    def caller(self, request: Request) -> Caller | None:
        """The verified caller of a request: its bearer header, else its session (the token re-verified)."""
        token = auth.bearer(request.headers.get("authorization"))
        with self.options.pool.connection() as conn:
            if token is not None:
                return auth.verify_token(conn, token)
            session = self.sessions.find(request.cookies.get(auth.COOKIE))
            if session is None:
                return None
            found = auth.verify(conn, session.token_hash)
        if found is None:  # revoked or expired since sign-in
            self.sessions.drop(session.id)
            return None
        return Caller(tenant=found.tenant, scopes=found.scopes, token_id=found.token_id, session=session)

    def render(self, request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
        caller = context.get("caller")
        base = {
            "caller": caller,
            "csrf": caller.session.csrf if caller is not None and caller.session is not None else None,
            "can_export": self.options.exporter is not None,
            "path": request.url.path,
        }
        return self.templates.TemplateResponse(request, name, {**base, **context}, status_code=status)

    def refused(self, request: Request, caller: Caller | None) -> Response | None:
        """401 with the sign-in form without a caller, 403 without the scope memory:read, else None."""
        if caller is None:
            response = self.render(request, "signin.html", {"caller": None, "message": None}, 401)
            response.headers["www-authenticate"] = 'Bearer realm="pymem dashboard"'
            return response
        if not caller.may_read:
            return self.render(
                request, "error.html", {"caller": caller, "status": 403, "message": "needs memory:read"}, 403
            )
        return None

    def page(
        self,
        request: Request,
        name: str,
        read: Callable[[DashboardClient, Caller], dict[str, Any]],
        caller: Caller | None = None,
    ) -> Response:
        """A page: the caller (unless given, verified), then read(db, caller) in a read-only transaction of its
        tenant, then the template."""
        caller = caller or self.caller(request)
        refusal = self.refused(request, caller)
        if refusal is not None:
            return refusal
        assert caller is not None
        try:
            with self.options.pool.connection() as conn, reading(conn, caller.tenant, actor=_actor(caller)) as db:
                context = read(db, caller)
        except (PymemError, psycopg.Error) as exc:
            error = exc if isinstance(exc, PymemError) else translate(exc)
            if error is None:
                raise
            status = 404 if isinstance(error, NotFoundError) else 400
            return self.render(
                request, "error.html", {"caller": caller, "status": status, "message": str(error)}, status
            )
        return self.render(request, name, {"caller": caller, **context})

    # -- pages ------------------------------------------------------------------------------------------------

    def overview(self, request: Request) -> Response:
        def read(db: DashboardClient, caller: Caller) -> dict[str, Any]:
            return {
                "stats": db.stats(),
                "backlog": db.embedding_backlog(),
                "models": db.embedding_status(),
                "review": db.review_queue(limit=REVIEW_SHOWN),
                "review_shown": REVIEW_SHOWN,
                "semantic": self.options.embeddings.status()[0],
            }

        return self.page(request, "overview.html", read)

    def memories(self, request: Request) -> Response:
        query = request.query_params
        filters = {k: query.get(k) or None for k in ("type", "scope", "butler", "tag", "state")}
        page = _page_number(query.get("page"))

        def read(db: DashboardClient, caller: Caller) -> dict[str, Any]:
            rows = db.browse(**filters, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
            total = rows[0].total if rows else 0
            kept = {k: v for k, v in filters.items() if v}
            return {
                "rows": rows,
                "filters": filters,
                "types": TYPES,
                "states": STATES,
                "total": total,
                "page": page,
                "previous": f"?{urlencode({**kept, 'page': page - 1})}" if page > 1 else None,
                "next": f"?{urlencode({**kept, 'page': page + 1})}" if page * PAGE_SIZE < total else None,
            }

        return self.page(request, "memories.html", read)

    def search(self, request: Request) -> Response:
        topic = (request.query_params.get("q") or "").strip()
        scope = request.query_params.get("scope") or None
        caller = self.caller(request)
        refusal = self.refused(request, caller)
        if refusal is not None:
            return refusal
        vector = self.options.embeddings.embed(topic) if topic else None  # None: keyword search

        def read(db: DashboardClient, caller: Caller) -> dict[str, Any]:
            hits = db.recall_explained(topic=topic, scope=scope, query_embedding=vector) if topic else []
            return {"topic": topic, "scope": scope, "hits": hits, "embedded": vector is not None}

        return self.page(request, "search.html", read, caller)

    def memory(self, request: Request) -> Response:
        kind = request.path_params["type"]
        memory_id = _uuid(request.path_params["id"])

        def read(db: DashboardClient, caller: Caller) -> dict[str, Any]:
            if kind not in TYPES or memory_id is None:
                raise NotFoundError(f"{kind} {request.path_params['id']} not found")
            record = db.get(type=kind, id=memory_id)
            curve = db.confidence_curve(type=kind, id=memory_id) if kind != "episode" else []
            return {
                "memory": record,
                "chain": db.fact_history(id=memory_id) if kind == "fact" else [],
                "chart": confidence_chart(curve, datetime.now(UTC)),
                "curve": curve,
                "events": db.audit_trail(type=kind, id=memory_id),
            }

        return self.page(request, "memory.html", read)

    def rules(self, request: Request) -> Response:
        def read(db: DashboardClient, caller: Caller) -> dict[str, Any]:
            rules = db.rules_by_maturity()
            groups = {
                m: [r for r in rules if r.maturity == m] for m in ("proven", "established", "candidate", "anti_pattern")
            }
            return {"groups": groups}

        return self.page(request, "rules.html", read)

    def export(self, request: Request) -> Response:
        caller = self.caller(request)
        refusal = self.refused(request, caller)
        if refusal is not None:
            return refusal
        assert caller is not None and self.options.exporter is not None
        exporter, pool = self.options.exporter, self.options.pool

        def lines() -> Iterator[bytes]:
            with pool.connection() as conn:
                for line in exporter(conn, caller.tenant):
                    yield (line if line.endswith("\n") else line + "\n").encode()

        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        return StreamingResponse(
            lines(),
            media_type="application/x-ndjson",
            headers={"content-disposition": f'attachment; filename="pymem-{_filename(caller.tenant)}-{stamp}.jsonl"'},
        )

    # -- signing in and out -----------------------------------------------------------------------------------

    def signin_form(self, request: Request) -> Response:
        return self.render(request, "signin.html", {"caller": None, "message": None})

    async def signin(self, request: Request) -> Response:
        form = await _form(request)
        if form is None:
            return Response("the form is too large", status_code=413)
        token = (form.get("token") or "").strip()
        found = await run_in_threadpool(self._verify_for_signin, token)
        if found is None or not found.may_read:
            message = "That token is not valid: unknown, revoked or expired." if found is None else "needs memory:read"
            return self.render(request, "signin.html", {"caller": None, "message": message}, 401)
        self.sessions.drop(request.cookies.get(auth.COOKIE) or "")  # a new id at every sign-in
        session = self.sessions.create(hash_token(token), found.tenant, found.scopes, found.token_id)
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(
            auth.COOKIE,
            session.id,
            httponly=True,
            samesite="strict",
            secure=self.options.secure_cookies or request.url.scheme == "https",
            path="/",
        )
        return response

    def _verify_for_signin(self, token: str) -> Caller | None:
        with self.options.pool.connection() as conn:
            return auth.verify_token(conn, token)

    async def signout(self, request: Request) -> Response:
        form = await _form(request)
        if form is None:
            return Response("the form is too large", status_code=413)
        session = self.sessions.find(request.cookies.get(auth.COOKIE))
        if session is not None and not auth.csrf_matches(session, form.get("csrf")):
            return Response("the sign-out form is stale: reload the page", status_code=403)
        if session is not None:
            self.sessions.drop(session.id)
        response = RedirectResponse("/signin", status_code=303)
        response.delete_cookie(auth.COOKIE, path="/", httponly=True, samesite="strict")
        return response


def _actor(caller: Caller) -> str:
    return f"dashboard:token:{caller.token_id}"


def _page_number(value: str | None) -> int:
    try:
        return max(1, min(int(value or 1), 20000))
    except ValueError:
        return 1


def _uuid(value: str) -> UUID | None:
    try:
        return UUID(value)
    except ValueError:
        return None


def _filename(tenant: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in tenant)[:64] or "tenant"


async def _form(request: Request) -> dict[str, str] | None:
    """The fields of a small urlencoded form (the first value of each); None for a body over MAX_FORM bytes."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return None
    return {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), max_num_fields=8).items()}


def create_app(options: DashboardOptions) -> DashboardGuard:
    """The dashboard as an ASGI application, behind its guard (pymem.dashboard.guard)."""
    dashboard = Dashboard(options)
    routes = [
        Route("/", dashboard.overview),
        Route("/memories", dashboard.memories),
        Route("/search", dashboard.search),
        Route("/memory/{type}/{id}", dashboard.memory),
        Route("/rules", dashboard.rules),
        Route("/signin", dashboard.signin_form, methods=["GET"]),
        Route("/signin", dashboard.signin, methods=["POST"]),
        Route("/signout", dashboard.signout, methods=["POST"]),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    if options.exporter is not None:
        routes.append(Route("/export", dashboard.export))
    app = Starlette(routes=routes)
    app.state.dashboard = dashboard
    return DashboardGuard(app, hosts=options.hosts, origins=options.origins)
