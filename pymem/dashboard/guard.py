"""The dashboard's front door, an ASGI middleware: every request's Host must be a name of this server (421
otherwise: DNS rebinding) and its Origin, when a browser sends one, an allowed origin (403: another site's page
cannot post to the dashboard); a POST that a browser marks as cross-site (Sec-Fetch-Site), or whose Origin is
"null" (what a browser sends under Referrer-Policy: no-referrer) without a same-origin Sec-Fetch-Site, is refused
too. Every response gets the security headers: a Content-Security-Policy that allows nothing but this server's own
files and no script at all, no framing, no referrer, no caching. Host and Origin are checked as pymem.http_guard
checks them for `pymem serve --transport http` (PYMEM_ALLOWED_HOSTS, PYMEM_ALLOWED_ORIGINS)."""

from __future__ import annotations

import logging

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pymem.http_guard import host_allowed, origin_allowed

log = logging.getLogger(__name__)

SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'self';"
        " frame-ancestors 'none'"
    ),
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


class DashboardGuard:
    """Host, Origin and Sec-Fetch-Site checks, and the security headers on every response."""

    def __init__(self, app: ASGIApp, *, hosts: tuple[str, ...], origins: tuple[str, ...]) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        refusal = self.refusal(Headers(scope=scope), scope["method"])
        if refusal is not None:
            status, text = refusal
            log.info("dashboard refused a %s request: %s", scope["method"], text)
            await PlainTextResponse(text, status_code=status)(scope, receive, with_headers)
            return
        await self.app(scope, receive, with_headers)

    def refusal(self, headers: Headers, method: str) -> tuple[int, str] | None:
        """(status, why) for a request refused at the door, else None."""
        host = headers.get("host", "")
        if not host_allowed(host, self.hosts):
            return 421, (
                f"Host {host[:200]!r} is not a name of this server; an operator who serves the dashboard under"
                " another name (behind a proxy) adds it to PYMEM_ALLOWED_HOSTS"
            )
        origin = headers.get("origin")
        if origin is not None and origin != "null" and not origin_allowed(origin, self.origins):
            return 403, f"Origin {origin[:200]!r} may not use this dashboard (PYMEM_ALLOWED_ORIGINS)"
        if method in ("GET", "HEAD"):
            return None
        # a browser says where a request comes from in Sec-Fetch-Site whatever the referrer policy; under
        # no-referrer it sends a form's Origin as "null", which only a same-origin Sec-Fetch-Site vouches for
        site = headers.get("sec-fetch-site")
        if (site is not None and site not in ("same-origin", "none")) or (origin == "null" and site != "same-origin"):
            return 403, "a cross-site request may not change anything here"
        return None
