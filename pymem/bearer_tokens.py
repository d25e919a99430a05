"""Bearer tokens of the HTTP MCP server, stored as SHA-256 hashes in pymem_private.api_tokens.

    issued = create_token(db.migrator_dsn, "acme", label="nightly agent")
    print(issued.token)                       # pmt_...: shown once, never stored
    verify_token(app_conn, issued.token)      # VerifiedToken(tenant_id='acme', ...) or None

Operators (the migrator login) issue, list and revoke tokens through pymem_private.token_issue,
token_list and token_revoke; the application verifies them as pymem_app through
pymem_private.token_verify, the only access it has to the table. PymemTokenVerifier plugs that
into the MCP SDK's bearer-token authentication.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg_pool import PoolTimeout

from pymem.client import Row, SqlClient
from pymem.errors import InvalidArgumentError, translate
from pymem.tenancy import validate_tenant_id

if TYPE_CHECKING:  # the MCP SDK is imported by the verifier only, so the CLI starts fast
    from mcp.server.auth.provider import AccessToken
    from psycopg_pool import ConnectionPool

SCOPE_READ = "memory:read"
SCOPE_WRITE = "memory:write"
SCOPE_ADMIN = "memory:admin"
# a human reviewer: memory_confirm approves what was kept for review and confirms inferred rules
# (pymem_private.caller_may_review); never give it to an agent
SCOPE_REVIEW = "memory:review"

TOKEN_PREFIX = "pmt_"
MAX_TOKEN_LENGTH = 200
# what a pymem token looks like in any text (new_token: the prefix and URL-safe base64); logs redact it
TOKEN_PATTERN = re.compile(r"\bpmt_[A-Za-z0-9_-]{8,}")

log = logging.getLogger(__name__)


class IssuedToken(Row):
    """A token just issued: ``token`` is the secret, returned this once and stored nowhere."""

    id: uuid.UUID
    token: str
    tenant_id: str
    scopes: tuple[str, ...]
    expires_at: datetime | None
    label: str | None


class TokenInfo(Row):
    """A row of pymem_private.token_list: everything about a token but the token."""

    token_id: uuid.UUID
    tenant_id: str
    scopes: tuple[str, ...]
    label: str | None
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None

    def status(self, now: datetime) -> str:
        """'revoked', 'expired' or 'active' at time now."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"


class VerifiedToken(Row):
    """A token that exists, is not revoked and has not expired (pymem_private.token_verify)."""

    token_id: uuid.UUID
    tenant_id: str
    scopes: tuple[str, ...]
    expires_at: datetime | None


def hash_token(token: str) -> str:
    """What is stored for a token: the lower-case hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh secret: ``pmt_`` and 32 random bytes, URL-safe base64 (256 bits)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_scopes(*, admin: bool = False, read_only: bool = False, review: bool = False) -> tuple[str, ...]:
    """read + write by default; read only with read_only; admin adds memory:admin, review memory:review (a
    reviewer approves with memory_confirm, which writes: not with read_only)."""
    if admin and read_only:
        raise InvalidArgumentError("a token is either admin or read-only, not both")
    if review and read_only:
        raise InvalidArgumentError(
            "a review token cannot be read-only: approving (memory_confirm) writes",
            hint="pymem token create --review gives memory:read, memory:write and memory:review",
        )
    if read_only:
        return (SCOPE_READ,)
    return (SCOPE_READ, SCOPE_WRITE) + ((SCOPE_ADMIN,) if admin else ()) + ((SCOPE_REVIEW,) if review else ())


@contextmanager
def _operator(migrator_dsn: str) -> Iterator[psycopg.Connection[Any]]:
    """A transaction of the migrator login acting as pymem_owner (as pymem migrate does), with
    database errors a caller can cause turned into pymem errors."""
    try:
        with psycopg.connect(migrator_dsn) as conn, conn.transaction():
            conn.execute("set local role pymem_owner")
            yield conn
    except psycopg.Error as exc:
        error = translate(exc)
        if error is None:
            raise
        raise error from exc


def create_token(
    migrator_dsn: str,
    tenant_id: str,
    *,
    admin: bool = False,
    read_only: bool = False,
    review: bool = False,
    expires_in: timedelta | None = None,
    label: str | None = None,
) -> IssuedToken:
    """Issue a token for tenant_id; only its hash is stored. Needs the migrator login.

    The token expires at now() + expires_in (never when None); pymem_private.token_issue alone
    checks that time (after now, before the year 10000) and its PM002 comes back as
    InvalidArgumentError.
    """
    tenant = validate_tenant_id(tenant_id)
    scopes = token_scopes(admin=admin, read_only=read_only, review=review)
    token = new_token()
    # one statement, so that the expiry is reckoned on the database's clock (and an overflow is the database's
    # error): the one call of a pymem function that does not go through a client
    with _operator(migrator_dsn) as conn:
        row = conn.execute(
            "select t.expires_at,"
            " pymem_private.token_issue(%s::text, %s::text, %s::text[], t.expires_at, %s::text)"
            " from (select now() + %s::interval as expires_at) as t",
            (tenant, hash_token(token), list(scopes), label, expires_in),
        ).fetchone()
    assert row is not None
    expires_at, token_id = row
    return IssuedToken(id=token_id, token=token, tenant_id=tenant, scopes=scopes, expires_at=expires_at, label=label)


class TokenClient(SqlClient):
    """The bearer-token functions of pymem_private, one method each (operators', and token_verify for pymem_app)."""

    schema = "pymem_private"

    def token_list(self, *, tenant_id: str | None = None) -> list[TokenInfo]:
        return self._rows(TokenInfo, "token_list", tenant_id=("text", tenant_id))

    def token_revoke(self, *, token_id: uuid.UUID) -> bool:
        return bool(self._scalar("token_revoke", token_id=("uuid", token_id)))

    def token_verify(self, *, token_hash: str) -> VerifiedToken | None:
        rows = self._rows(VerifiedToken, "token_verify", token_hash=("text", token_hash))
        return rows[0] if rows else None


def list_tokens(migrator_dsn: str, tenant_id: str | None = None) -> list[TokenInfo]:
    """Every token (of tenant_id when given), revoked and expired ones included. Needs the migrator."""
    tenant = validate_tenant_id(tenant_id) if tenant_id is not None else None
    with _operator(migrator_dsn) as conn:
        return TokenClient(conn).token_list(tenant_id=tenant)


def revoke_token(migrator_dsn: str, token_id: uuid.UUID) -> bool:
    """Revoke a token; False when there is no such token or it was already revoked."""
    with _operator(migrator_dsn) as conn:
        return TokenClient(conn).token_revoke(token_id=token_id)


def well_formed(token: str) -> bool:
    """Whether token can be a pymem token at all (checked before any query)."""
    return isinstance(token, str) and token.startswith(TOKEN_PREFIX) and len(token) <= MAX_TOKEN_LENGTH


def verify_token(conn: psycopg.Connection[Any], token: str) -> VerifiedToken | None:
    """The token's tenant and scopes when it is valid (exists, not revoked, not expired), else None.

    conn is a pymem_app connection; the check runs in its own transaction (a savepoint when one
    is open). A malformed token returns None without a query.
    """
    if not well_formed(token):
        return None
    with conn.transaction():
        return TokenClient(conn).token_verify(token_hash=hash_token(token))


class PymemTokenVerifier:
    """The MCP SDK's TokenVerifier over pymem_private.token_verify, with pooled pymem_app connections.

    The AccessToken names the tenant in ``subject`` and ``claims["tenant_id"]`` and carries the
    token's scopes; an invalid token, or any database error (logged), gives None: the client then
    gets 401, never a stack trace.
    """

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool

    def _verify(self, token: str) -> VerifiedToken | None:
        try:
            with self._pool.connection() as conn:
                return verify_token(conn, token)
        except PoolTimeout:
            raise  # no free connection within the pool's timeout: a second wait would only double it
        except psycopg.OperationalError as exc:
            # the connection was lost under the check (a restart, pg_terminate_backend): once more on a new one,
            # rather than answer 401 to a valid token (the pool replaces the dead connection)
            log.info("bearer token verification lost its connection (%s); retrying once", exc)
            with self._pool.connection() as conn:
                return verify_token(conn, token)

    async def tenant_of(self, token: str) -> str | None:
        """The tenant a valid token names, None for any other token (pymem.http_guard counts sessions by it)."""
        found = await self.verify_token(token)
        return None if found is None else str((found.claims or {}).get("tenant_id") or found.subject)

    async def verify_token(self, token: str) -> AccessToken | None:
        import anyio.to_thread
        from mcp.server.auth.provider import AccessToken

        if not well_formed(token):
            return None
        try:
            found = await anyio.to_thread.run_sync(self._verify, token)
        except psycopg.Error as exc:
            log.warning("bearer token verification failed: %s: %s", type(exc).__name__, exc)
            return None
        if found is None:
            return None
        return AccessToken(
            token=token,
            client_id=f"pymem-token:{found.token_id}",
            scopes=list(found.scopes),
            expires_at=int(found.expires_at.timestamp()) if found.expires_at else None,
            subject=found.tenant_id,
            claims={"tenant_id": found.tenant_id, "token_id": str(found.token_id)},
        )
