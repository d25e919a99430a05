"""The front door of `pymem serve --transport http`: an ASGI middleware in front of the MCP SDK's streamable HTTP
app that checks every request's Host and Origin and counts MCP sessions per bearer token and per tenant.

    app = HttpGuard(sdk_app, hosts=allowed_hosts(host, port, extra), origins=allowed_origins(host, port, extra),
                    ledger=SessionLedger(SessionLimits(per_token=32, per_tenant=128, idle_timeout=1800)),
                    tenant_of=verifier.tenant_of)

Host and Origin (DNS rebinding, cross-site browser requests), on every path, whatever address the server binds
(the SDK checks them only when it binds a loopback address): a Host that is not the bind address, a localhost
form or one of PYMEM_ALLOWED_HOSTS is answered 421; an Origin that is not allowed 403. A request without an
Origin header (a non-browser client) is allowed.

Sessions: the SDK caps open sessions per server only, so one token could fill the server. Here a session is
counted from the response that opens it (its Mcp-Session-Id header) under the token that opened it (by the
token's hash) and the token's tenant, until the client ends it (DELETE), the SDK answers 404 for it, or it goes
PYMEM_SESSION_IDLE_TIMEOUT seconds without a request in flight (the SDK, given the same timeout, closes it then;
from that moment this guard answers 404 for it). A request that would open a session past
PYMEM_MAX_SESSIONS_PER_TOKEN or PYMEM_MAX_SESSIONS_PER_TENANT is answered 429 with the limit, how to close
sessions and a Retry-After. Only the SDK's HTTP interface is used (paths, headers, status codes), no attribute of
its session manager.
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from mcp_types import INVALID_REQUEST, ErrorData, JSONRPCError
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pymem.bearer_tokens import hash_token

log = logging.getLogger(__name__)

SESSION_HEADER = "mcp-session-id"
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_BINDS = ("0.0.0.0", "::", "")


# ---------------------------------------------------------------------------------------------------------------
# Host and Origin


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def allowed_hosts(host: str, port: int, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The Host values the server answers: the localhost forms and the bind address (not a wildcard one) with
    the port, and extra (PYMEM_ALLOWED_HOSTS: `name` or `name:*` for any port, `name:port`, `*` for any)."""
    names = [*LOCAL_NAMES, *([] if host in WILDCARD_BINDS else [_bracketed(host.lower())])]
    return tuple(dict.fromkeys([*(f"{n}:{port}" for n in names), *extra]))


def allowed_origins(host: str, port: int, extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The browser Origins allowed: http:// and the allowed hosts with the port (allowed_hosts without
    extra), and extra (PYMEM_ALLOWED_ORIGINS: `scheme://name[:port]`, `scheme://name:*`, `*` for any)."""
    return tuple(dict.fromkeys([*(f"http://{h}" for h in allowed_hosts(host, port)), *extra]))


def _split(authority: str) -> tuple[str, str | None]:
    """('name', 'port') of 'name:port', '[v6]:port', 'name' (port None)."""
    if authority.startswith("["):
        name, _, rest = authority.partition("]")
        return name + "]", rest[1:] if rest.startswith(":") else None
    name, colon, port = authority.rpartition(":")
    return (name, port) if colon and ":" not in name else (authority, None)


def host_allowed(value: str, allowed: Iterable[str]) -> bool:
    """Whether a Host header value is allowed: an entry with a port matches that port (`:*` any port), an
    entry without one matches the name on any port; names compare case-insensitively."""
    name, port = _split(value.strip().lower())
    for entry in allowed:
        if entry == "*":
            return True
        want_name, want_port = _split(entry)
        if want_name == name and want_port in (None, "*", port):
            return True
    return False


def origin_allowed(value: str, allowed: Iterable[str]) -> bool:
    """Whether an Origin header value is allowed: the same scheme and name, and the same port (or none in both),
    or any port for an entry ending in `:*`."""
    origin = value.strip().lower()
    for entry in allowed:
        if entry == "*" or entry == origin:
            return True
        if entry.endswith(":*") and origin.startswith(entry[:-1]) and origin[len(entry) - 1 :].isdigit():
            return True
    return False


# ---------------------------------------------------------------------------------------------------------------
# Sessions per token and per tenant


@dataclass(frozen=True)
class SessionLimits:
    per_token: int  # PYMEM_MAX_SESSIONS_PER_TOKEN
    per_tenant: int  # PYMEM_MAX_SESSIONS_PER_TENANT
    idle_timeout: float  # PYMEM_SESSION_IDLE_TIMEOUT, seconds without a request in flight


@dataclass
class Session:
    """An open MCP session: whose it is (the SHA-256 of its token, never the token) and when it went idle."""

    token: str
    tenant: str
    in_flight: int = 0
    idle_since: float = 0.0


class SessionLedger:
    """The open sessions by id, and how many each token and tenant holds (open, or being opened)."""

    def __init__(self, limits: SessionLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._held: Counter[tuple[str, str]] = Counter()  # ("token", hash) and ("tenant", id) -> sessions

    def _idle_for(self, session: Session) -> float:
        return self._clock() - session.idle_since if session.in_flight == 0 else 0.0

    def expire(self) -> None:
        """Forget every session idle for the idle timeout (the SDK closes it at the same moment)."""
        for session_id in [
            s for s, found in self._sessions.items() if self._idle_for(found) >= self.limits.idle_timeout
        ]:
            self.close(session_id)

    def refusal(self, token: str, tenant: str, path: str) -> tuple[str, int] | None:
        """(message, Retry-After seconds) when token or tenant already holds its limit of sessions, else None."""
        if self._held["token", token] >= self.limits.per_token:
            who, count, limit, setting = "this token", self._held["token", token], self.limits.per_token, "TOKEN"
            mine = [s for s in self._sessions.values() if s.token == token]
        elif self._held["tenant", tenant] >= self.limits.per_tenant:
            who, count, limit, setting = (
                f"tenant {tenant!r}",
                self._held["tenant", tenant],
                self.limits.per_tenant,
                "TENANT",
            )
            mine = [s for s in self._sessions.values() if s.tenant == tenant]
        else:
            return None
        idle = [self.limits.idle_timeout - self._idle_for(s) for s in mine if s.in_flight == 0]
        retry = max(1, math.ceil(min(idle, default=self.limits.idle_timeout)))
        message = (
            f"too many open MCP sessions: {who} already has {count} open sessions, the most allowed"
            f" (PYMEM_MAX_SESSIONS_PER_{setting}={limit}). Close the sessions you no longer use (an MCP client"
            f" does when it exits: HTTP DELETE {path} with the session's Mcp-Session-Id header) or reuse one;"
            f" a session with no request for {self.limits.idle_timeout:g} s is closed (PYMEM_SESSION_IDLE_TIMEOUT)."
        )
        return message, retry

    def reserve(self, token: str, tenant: str) -> None:
        """Count a session being opened (its opening request is in flight)."""
        self._held["token", token] += 1
        self._held["tenant", tenant] += 1

    def release(self, token: str, tenant: str) -> None:
        """Uncount a reserved session that was not opened, or a closed one."""
        self._held["token", token] -= 1
        self._held["tenant", tenant] -= 1

    def opened(self, session_id: str, token: str, tenant: str) -> Session:
        """The reserved session is open under session_id, with its opening request in flight."""
        session = Session(token=token, tenant=tenant, in_flight=1)
        self._sessions[session_id] = session
        return session

    def find(self, session_id: str) -> Session | None:
        """The open session session_id (None once it was closed or went idle for the timeout)."""
        session = self._sessions.get(session_id)
        if session is not None and self._idle_for(session) >= self.limits.idle_timeout:
            self.close(session_id)
            return None
        return session

    def begin(self, session: Session) -> None:
        session.in_flight += 1

    def end(self, session: Session) -> None:
        session.in_flight -= 1
        if session.in_flight == 0:
            session.idle_since = self._clock()

    def close(self, session_id: str) -> None:
        session = self._sessions.pop(session_id, None)
        if session is not None:
            self.release(session.token, session.tenant)


# ---------------------------------------------------------------------------------------------------------------
# The middleware


def _error(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    """A JSON-RPC error without a request id (the SDK's shape for transport-level errors)."""
    body = JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=INVALID_REQUEST, message=message))
    return Response(
        body.model_dump_json(by_alias=True, exclude_unset=True),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


def _bearer(headers: Headers) -> str | None:
    scheme, _, credential = headers.get("authorization", "").partition(" ")
    return credential.strip() or None if scheme.lower() == "bearer" else None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "?"


class HttpGuard:
    """The ASGI middleware: Host and Origin on every request, sessions on the MCP path (see the module)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: Iterable[str],
        origins: Iterable[str],
        ledger: SessionLedger,
        tenant_of: Callable[[str], Awaitable[str | None]],
        mcp_path: str = "/mcp",
    ) -> None:
        self.app = app
        self.hosts = tuple(hosts)
        self.origins = tuple(origins)
        self.ledger = ledger
        self.tenant_of = tenant_of
        self.mcp_path = mcp_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refused = self._address_refusal(headers, scope)
        if refused is not None:
            await refused(scope, receive, send)
            return
        bearer = _bearer(headers)
        if scope["path"] != self.mcp_path or bearer is None:  # no token: the SDK answers 401
            await self.app(scope, receive, send)
            return
        session_id = headers.get(SESSION_HEADER)
        if session_id is None:
            await self._open(bearer, scope, receive, send)
        else:
            await self._continue(bearer, session_id, scope, receive, send)

    def _address_refusal(self, headers: Headers, scope: Scope) -> Response | None:
        host = headers.get("host", "")
        if not host_allowed(host, self.hosts):
            log.info("refused a request from %s for Host %r", _client(scope), host[:200])
            return _error(
                f"Host {host[:200]!r} is not a name of this server (its address and localhost are); an operator who"
                " serves it under another name (behind a proxy) adds that name to PYMEM_ALLOWED_HOSTS",
                421,
            )
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, self.origins):
            log.info("refused a request from %s with Origin %r", _client(scope), origin[:200])
            return _error(
                f"Origin {origin[:200]!r} may not call this server from a browser; an operator who trusts that web"
                " application adds it to PYMEM_ALLOWED_ORIGINS (clients that are not browsers send no Origin)",
                403,
            )
        return None

    async def _open(self, bearer: str, scope: Scope, receive: Receive, send: Send) -> None:
        """A request without a session id: the SDK opens a session if it succeeds."""
        tenant = await self.tenant_of(bearer)
        if tenant is None:  # not a valid token: the SDK answers 401
            await self.app(scope, receive, send)
            return
        token = hash_token(bearer)
        # from here to reserve() no await: two opening requests of one token cannot both take the last place
        self.ledger.expire()
        refusal = self.ledger.refusal(token, tenant, self.mcp_path)
        if refusal is not None:
            message, retry = refusal
            log.info("refused a new MCP session of tenant %r from %s: %s", tenant, _client(scope), message)
            await _error(message, 429, {"Retry-After": str(retry)})(scope, receive, send)
            return
        self.ledger.reserve(token, tenant)
        session: Session | None = None

        async def watch(message: Message) -> None:
            nonlocal session
            if message["type"] == "http.response.start" and message["status"] < 400:
                opened = Headers(raw=message.get("headers", [])).get(SESSION_HEADER)
                if opened is not None:
                    session = self.ledger.opened(opened, token, tenant)
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if session is None:
                self.ledger.release(token, tenant)
            else:
                self.ledger.end(session)

    async def _continue(self, bearer: str, session_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        """A request in an open session: counted in flight (not idle) while it is served."""
        session = self.ledger.find(session_id)
        if session is None:  # closed, expired or never opened (the SDK answers the same for the first and last)
            await _error("Session not found", 404)(scope, receive, send)
            return
        if session.token != hash_token(bearer):  # not the session's token: the SDK answers 404
            await self.app(scope, receive, send)
            return
        status: int | None = None

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        self.ledger.begin(session)
        try:
            await self.app(scope, receive, watch)
        finally:
            self.ledger.end(session)
            if status == 404 or (scope["method"] == "DELETE" and status is not None and status < 300):
                self.ledger.close(session_id)
