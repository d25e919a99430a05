"""Project SQLSTATEs turned into Python exceptions with actionable messages.

SQL functions raise ``PMnnn`` codes (see README, "Error codes"); the wrapper maps
them, and the standard codes a caller can cause, to these classes.
"""

from __future__ import annotations

import re

import psycopg
from psycopg_pool import PoolTimeout


class PymemError(Exception):
    """Base class of every error pymem raises on purpose."""

    sqlstate: str | None = None

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint

    def __str__(self) -> str:
        base = super().__str__()
        return f"{base} (hint: {self.hint})" if self.hint else base


class NoTenantError(PymemError):
    """No tenant is set for the transaction (PM001)."""

    sqlstate = "PM001"


class InvalidArgumentError(PymemError):
    """An argument failed validation (PM002, or a CHECK constraint)."""

    sqlstate = "PM002"


class NotFoundError(PymemError):
    """The memory or role does not exist in the caller's tenant (PM003)."""

    sqlstate = "PM003"


class TenantConflictError(PymemError):
    """A login bound to one tenant tried to act for another (PM004)."""

    sqlstate = "PM004"


class IncompatibleDatabaseError(PymemError):
    """The server is too old or lacks pgvector >= 0.8 (PM005)."""

    sqlstate = "PM005"


class NotElevatedError(PymemError):
    """An admin-only call was made without SET LOCAL ROLE pymem_admin (PM006)."""

    sqlstate = "PM006"


class RefusedError(PymemError):
    """A fact or rule was refused as speculation and nothing was stored (PM007, grounded ingestion tier 3)."""

    sqlstate = "PM007"


class ReviewerRequiredError(PymemError):
    """Approving a fact or rule kept for review was asked of someone who is not a reviewer (PM008): nothing
    changed. A reviewer is a login bound to the tenant, a bearer token with the scope memory:review, or
    `pymem review approve` (pymem_private.caller_may_review); the agent itself never is."""

    sqlstate = "PM008"


class MigrationBlockedError(PymemError):
    """`pymem migrate` cannot go on without dropping something it does not own (PM009): a view or function of
    someone else's reads a table the migration rebuilds. Nothing was applied; the message names the objects."""

    sqlstate = "PM009"


class PermissionDeniedError(PymemError):
    """Row-level security or a missing privilege refused the operation (42501)."""

    sqlstate = "42501"


class ConflictError(PymemError):
    """A uniqueness rule refused a duplicate (23505)."""

    sqlstate = "23505"


BUSY_HINT = "the call was rolled back and changed nothing; retry it in a few seconds"


class BusyError(PymemError):
    """The call did not get a lock, a statement's time or a free connection in time: lock_timeout (55P03),
    statement_timeout (57014), transaction_timeout (25P04), or no pooled connection within the pool's timeout
    (psycopg_pool.PoolTimeout). Nothing was changed (the transaction rolled back): try again."""

    sqlstate = "55P03"

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(f"busy, try again: {message}", hint=hint or BUSY_HINT)


_BY_SQLSTATE: dict[str, type[PymemError]] = {
    cls.sqlstate: cls
    for cls in (
        NoTenantError,
        InvalidArgumentError,
        NotFoundError,
        TenantConflictError,
        IncompatibleDatabaseError,
        NotElevatedError,
        RefusedError,
        ReviewerRequiredError,
        MigrationBlockedError,
        PermissionDeniedError,
        ConflictError,
        BusyError,
    )
    if cls.sqlstate
}
_BY_SQLSTATE["57014"] = BusyError  # query_canceled: statement_timeout
_BY_SQLSTATE["25P04"] = BusyError  # transaction_timeout (PostgreSQL 17+)
_BY_SQLSTATE["23514"] = InvalidArgumentError  # check_violation
_BY_SQLSTATE["23502"] = InvalidArgumentError  # not_null_violation
_BY_SQLSTATE["22P02"] = InvalidArgumentError  # invalid_text_representation
_BY_SQLSTATE["22003"] = InvalidArgumentError  # numeric_value_out_of_range
_BY_SQLSTATE["22008"] = InvalidArgumentError  # datetime_field_overflow (e.g. now() + a huge interval)
_BY_SQLSTATE["22015"] = InvalidArgumentError  # interval_field_overflow
_BY_SQLSTATE["22P05"] = InvalidArgumentError  # untranslatable_character (e.g. \u0000 in a JSON string)

NUL_MESSAGE = "text must not contain NUL characters (\\x00): PostgreSQL text cannot hold them"


_PGVECTOR_INPUT = re.compile(
    r"not allowed in vector|vector must have at least 1 dimension|vector cannot have more than \d+ dimensions"
)


def translate(exc: psycopg.Error) -> PymemError | None:
    """The PymemError for a database error, or None when it is not one a caller causes."""
    sqlstate = exc.sqlstate
    if isinstance(exc, PoolTimeout):  # every pooled connection is in use (psycopg_pool's getconn timeout)
        return BusyError(f"no database connection became free in time ({exc})")
    if sqlstate is None and isinstance(exc, psycopg.DataError) and "NUL (0x00)" in str(exc):
        return InvalidArgumentError(NUL_MESSAGE)  # refused by psycopg itself, before the server sees it
    if sqlstate in ("22000", "54000") and _PGVECTOR_INPUT.search(exc.diag.message_primary or ""):
        # pgvector refuses a malformed vector (NaN, infinity, no or too many dimensions) while parsing it,
        # before any pymem function runs: the caller's argument, as PM002 is
        return InvalidArgumentError(f"invalid embedding: {exc.diag.message_primary}", hint=exc.diag.message_hint)
    if sqlstate is None or sqlstate not in _BY_SQLSTATE:
        return None
    diag = exc.diag
    message = diag.message_primary or str(exc)
    if diag.message_detail:
        message = f"{message}: {diag.message_detail}"
    return _BY_SQLSTATE[sqlstate](message, hint=diag.message_hint)
