"""Who is looking: a bearer token (pymem.bearer_tokens) names the tenant and the scopes, as for the MCP server.

A browser signs in once: the sign-in form POSTs the token, the server verifies it and keeps a session in memory
(a random id, the token's SHA-256 — never the token —, its tenant and scopes, a CSRF token), and sets the id in an
HttpOnly, SameSite=Strict cookie (Secure over https). No token is ever put in a URL. Every request re-verifies the
token behind its session (pymem_private.token_verify), so a revoked or expired token ends its sessions at once; a
session also ends after IDLE seconds without a request or LIFETIME seconds after sign-in. A script may instead send
``Authorization: Bearer <token>`` with each request.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg

from pymem.bearer_tokens import SCOPE_READ, TokenClient, hash_token, well_formed

COOKIE = "pymem_dashboard"
IDLE = 30 * 60  # seconds without a request
LIFETIME = 12 * 3600  # seconds after sign-in
MAX_SESSIONS = 1000  # the oldest is dropped past this


@dataclass(frozen=True)
class Caller:
    """A verified caller: its tenant and scopes; session is None for a bearer header."""

    tenant: str
    scopes: tuple[str, ...]
    token_id: str
    session: Session | None = None

    @property
    def may_read(self) -> bool:
        return SCOPE_READ in self.scopes


@dataclass
class Session:
    """A signed-in browser: the token's hash (to re-verify it), its tenant and scopes, and its CSRF token."""

    id: str
    token_hash: str
    tenant: str
    scopes: tuple[str, ...]
    token_id: str
    csrf: str
    started: float
    seen: float


class SessionStore:
    """The sessions of this process, by id (they end with it: signing in again is one form)."""

    def __init__(self, *, idle: float = IDLE, lifetime: float = LIFETIME, clock: Callable[[], float] = time.monotonic):
        self.idle = idle
        self.lifetime = lifetime
        self._clock = clock
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, token_hash: str, tenant: str, scopes: tuple[str, ...], token_id: str) -> Session:
        now = self._clock()
        session = Session(
            id=secrets.token_urlsafe(32),
            token_hash=token_hash,
            tenant=tenant,
            scopes=scopes,
            token_id=token_id,
            csrf=secrets.token_urlsafe(32),
            started=now,
            seen=now,
        )
        with self._lock:
            self._expire(now)
            while len(self._sessions) >= MAX_SESSIONS:
                self._sessions.pop(next(iter(self._sessions)))
            self._sessions[session.id] = session
        return session

    def find(self, session_id: str | None) -> Session | None:
        """The live session of that id (its idle clock restarted), else None."""
        if not session_id:
            return None
        now = self._clock()
        with self._lock:
            self._expire(now)
            session = self._sessions.get(session_id)
            if session is not None:
                session.seen = now
            return session

    def drop(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(session_id, None)

    def _expire(self, now: float) -> None:
        gone = [s.id for s in self._sessions.values() if now - s.seen >= self.idle or now - s.started >= self.lifetime]
        for session_id in gone:
            del self._sessions[session_id]


def verify(conn: psycopg.Connection[Any], token_hash: str) -> Caller | None:
    """The caller of a token (by its hash) that exists, is not revoked and has not expired, else None."""
    with conn.transaction():
        found = TokenClient(conn).token_verify(token_hash=token_hash)
    if found is None:
        return None
    return Caller(tenant=found.tenant_id, scopes=tuple(found.scopes), token_id=str(found.token_id))


def verify_token(conn: psycopg.Connection[Any], token: str) -> Caller | None:
    """verify() for a token as typed or sent (a malformed one is None without a query)."""
    token = token.strip()
    return verify(conn, hash_token(token)) if well_formed(token) else None


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    scheme, _, credential = (authorization or "").partition(" ")
    return credential.strip() or None if scheme.lower() == "bearer" else None


def csrf_matches(session: Session, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(session.csrf.encode(), sent.encode())
