"""Bearer tokens of the HTTP server: issued by operators, stored as hashes, verified as pymem_app;
and admin elevations that record details (both tenants of an act-as call)."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import secrets
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg.types.json import Jsonb

from pymem import cli
from pymem.bearer_tokens import (
    SCOPE_ADMIN,
    SCOPE_READ,
    SCOPE_WRITE,
    PymemTokenVerifier,
    VerifiedToken,
    create_token,
    hash_token,
    list_tokens,
    new_token,
    revoke_token,
    verify_token,
)
from pymem.errors import InvalidArgumentError
from pymem.pool import make_pool
from pymem.tenancy import admin_transaction, tenant_transaction
from tests.conftest import app_dsn_for


def token_row(superuser: psycopg.Connection[Any], token_id: uuid.UUID) -> dict[str, Any]:
    row = superuser.execute(
        "select to_jsonb(t) from pymem_private.api_tokens as t where t.id = %s", (token_id,)
    ).fetchone()
    assert row is not None
    return dict(row[0])


@pytest.fixture
def analyst(superuser: psycopg.Connection[Any], db_dsn: str) -> Iterator[str]:
    """The DSN of a login bound to tenant acme (an analyst)."""
    name = f"test_tokens_{uuid.uuid4().hex[:10]}"
    superuser.execute(sql.SQL("create role {} login").format(sql.Identifier(name)))
    superuser.execute("select pymem.memory_bind_role(%s, 'acme')", (name,))
    yield make_conninfo(db_dsn, user=name)
    superuser.execute(sql.SQL("drop role {}").format(sql.Identifier(name)))


# Issue and verify


def test_an_issued_token_verifies_as_the_application_role(
    db_dsn: str, app: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    issued = create_token(db_dsn, "acme", label="nightly agent")
    assert issued.token.startswith("pmt_") and len(issued.token) == 4 + 43
    assert issued.tenant_id == "acme" and issued.label == "nightly agent" and issued.expires_at is None
    assert issued.scopes == (SCOPE_READ, SCOPE_WRITE)
    assert token_row(superuser, issued.id)["last_used_at"] is None

    assert app.execute("select current_user").fetchone() == ("pymem_app",)
    verified = verify_token(app, issued.token)
    assert verified == VerifiedToken(
        token_id=issued.id, tenant_id="acme", scopes=(SCOPE_READ, SCOPE_WRITE), expires_at=None
    )
    assert token_row(superuser, issued.id)["last_used_at"] is not None
    assert app.info.transaction_status == psycopg.pq.TransactionStatus.IDLE  # its own transaction, ended


def test_a_token_is_the_prefix_and_32_bytes_of_the_system_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    """pmt_ and the URL-safe base64 (no padding) of 32 bytes from secrets (os.urandom): 256 bits."""
    drawn: list[int] = []

    def token_bytes(nbytes: int) -> bytes:
        drawn.append(nbytes)
        return bytes(range(200, 232))

    with monkeypatch.context() as patched:
        patched.setattr(secrets, "token_bytes", token_bytes)
        assert new_token() == "pmt_yMnKy8zNzs_Q0dLT1NXW19jZ2tvc3d7f4OHi4-Tl5uc"  # bytes 200..231, base64url
    assert drawn == [32]

    tokens = [new_token() for _ in range(64)]
    assert len(set(tokens)) == 64
    for token in tokens:
        assert re.fullmatch(r"pmt_[A-Za-z0-9_-]{43}", token), token
        assert len(base64.urlsafe_b64decode(token.removeprefix("pmt_") + "=")) == 32
    ones = sum(bin(byte).count("1") for t in tokens for byte in base64.urlsafe_b64decode(t[4:] + "="))
    assert 0.47 < ones / (64 * 32 * 8) < 0.53  # random bits, not text


def test_a_token_with_one_character_changed_does_not_verify(
    db_dsn: str, app: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    issued = create_token(db_dsn, "acme", label="ci")
    assert verify_token(app, issued.token) is not None
    for position in (0, 3, 4, len(issued.token) // 2, len(issued.token) - 1):
        original = issued.token[position]
        changed = issued.token[:position] + ("A" if original != "A" else "B") + issued.token[position + 1 :]
        assert verify_token(app, changed) is None, position
    assert verify_token(app, issued.token + "A") is None and verify_token(app, issued.token[:-1]) is None
    # only the SHA-256 is stored: the token, its secret part or any 12 characters of it appear in no column
    dump = superuser.execute("select string_agg(t::text, ' ') from pymem_private.api_tokens as t").fetchone()
    assert dump is not None and hash_token(issued.token) in dump[0]
    secret = issued.token.removeprefix("pmt_")
    assert not any(secret[i : i + 12] in dump[0] for i in range(len(secret) - 11))


def test_only_the_hash_of_a_token_is_stored(db_dsn: str, superuser: psycopg.Connection[Any]) -> None:
    issued = create_token(db_dsn, "acme", label="ci")
    row = token_row(superuser, issued.id)
    assert row["token_hash"] == hashlib.sha256(issued.token.encode()).hexdigest() == hash_token(issued.token)
    secret = issued.token.removeprefix("pmt_")
    table = superuser.execute("select coalesce(string_agg(t::text, ' '), '') from pymem_private.api_tokens t")
    dump = table.fetchone()[0]  # type: ignore[index]
    assert issued.token not in dump and secret not in dump and secret[:16] not in dump
    assert issued.token not in json.dumps(row) and secret not in json.dumps(row)


def test_a_revoked_token_no_longer_verifies(db_dsn: str, app: psycopg.Connection[Any]) -> None:
    issued = create_token(db_dsn, "acme")
    other = create_token(db_dsn, "acme")
    assert verify_token(app, issued.token) is not None
    assert revoke_token(db_dsn, issued.id) is True
    assert revoke_token(db_dsn, issued.id) is False  # already revoked
    assert revoke_token(db_dsn, uuid.uuid4()) is False  # no such token
    assert verify_token(app, issued.token) is None
    assert verify_token(app, other.token) is not None  # revoking one token leaves the others


def test_an_expired_token_no_longer_verifies(db_dsn: str, app: psycopg.Connection[Any]) -> None:
    issued = create_token(db_dsn, "acme", expires_in=timedelta(days=30))
    assert issued.expires_at is not None
    assert timedelta(days=29) < issued.expires_at - datetime.now(UTC) <= timedelta(days=30)
    verified = verify_token(app, issued.token)
    assert verified is not None and verified.expires_at == issued.expires_at
    brief = create_token(db_dsn, "acme", expires_in=timedelta(milliseconds=300))
    assert verify_token(app, brief.token) is not None
    time.sleep(0.4)  # the token's real lifetime runs out
    assert verify_token(app, brief.token) is None
    assert verify_token(app, issued.token) is not None


@pytest.mark.parametrize(
    "token",
    [
        "",
        "pmt_",
        "pmt_not-a-token-that-was-issued",
        "Bearer pmt_x",
        "ghp_0123456789abcdef0123456789abcdef01234567",
        "pmt_" + "a" * 300,
    ],
)
def test_unknown_and_malformed_tokens_verify_to_none(db_dsn: str, app: psycopg.Connection[Any], token: str) -> None:
    create_token(db_dsn, "acme")
    assert verify_token(app, token) is None


def test_a_malformed_token_is_refused_without_a_query(db_dsn: str) -> None:
    conn = psycopg.connect(app_dsn_for(db_dsn))
    conn.close()  # any query would raise
    for token in ("nope", "pmt_" + "a" * 200, "PMT_abc"):
        assert verify_token(conn, token) is None


def test_token_verify_never_raises_for_a_bad_hash(app: psycopg.Connection[Any]) -> None:
    for bad in (None, "", "zz", "A" * 64, "0" * 63):
        assert app.execute("select * from pymem_private.token_verify(%s)", (bad,)).fetchall() == []


def test_last_use_is_written_at_most_once_a_minute(
    db_dsn: str, app: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    issued = create_token(db_dsn, "acme")
    verify_token(app, issued.token)
    first = token_row(superuser, issued.id)["last_used_at"]
    verify_token(app, issued.token)
    assert token_row(superuser, issued.id)["last_used_at"] == first
    # a minute later (the throttle is the server's own bookkeeping: dated back here rather than waited for)
    superuser.execute(
        "update pymem_private.api_tokens set last_used_at = now() - interval '2 minutes' where id = %s", (issued.id,)
    )
    verify_token(app, issued.token)
    assert token_row(superuser, issued.id)["last_used_at"] > first


def test_a_token_verifies_in_a_read_only_transaction_without_a_write(
    db_dsn: str, app: psycopg.Connection[Any], superuser: psycopg.Connection[Any]
) -> None:
    issued = create_token(db_dsn, "acme")
    with app.transaction():
        app.execute("set transaction read only")
        rows = app.execute("select tenant_id from pymem_private.token_verify(%s)", (hash_token(issued.token),))
        assert rows.fetchall() == [("acme",)]
    assert token_row(superuser, issued.id)["last_used_at"] is None


# Scopes and arguments


def test_scopes_of_admin_and_read_only_tokens(db_dsn: str, app: psycopg.Connection[Any]) -> None:
    admin = create_token(db_dsn, "ops", admin=True)
    reader = create_token(db_dsn, "acme", read_only=True)
    assert admin.scopes == (SCOPE_READ, SCOPE_WRITE, SCOPE_ADMIN)
    assert reader.scopes == (SCOPE_READ,)
    verified_admin = verify_token(app, admin.token)
    verified_reader = verify_token(app, reader.token)
    assert verified_admin is not None and set(verified_admin.scopes) == {SCOPE_READ, SCOPE_WRITE, SCOPE_ADMIN}
    assert verified_reader is not None and verified_reader.scopes == (SCOPE_READ,)
    assert verified_admin.tenant_id == "ops" and verified_reader.tenant_id == "acme"


@pytest.mark.parametrize(
    ("tenant", "options", "message"),
    [
        ("acme", {"admin": True, "read_only": True}, "either admin or read-only"),
        ("", {}, "tenant id"),
        ("x" * 129, {}, "tenant id"),
        ("acme", {"expires_in": timedelta(0)}, "expires_at must be in the future"),
        ("acme", {"expires_in": timedelta(days=-1)}, "expires_at must be in the future"),
        ("acme", {"expires_in": timedelta(days=3_000_000)}, "expires_at must be before the year 10000"),
        ("acme", {"label": "  "}, "label must be a non-empty text"),
        ("acme", {"label": "x" * 201}, "label is too long"),
    ],
)
def test_bad_arguments_are_refused(db_dsn: str, tenant: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        create_token(db_dsn, tenant, **options)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("acme", "0" * 64, ["memory:read", "memory:delete"], None), "invalid scopes"),
        (("acme", "0" * 64, [], None), "at least one scope"),
        (("acme", "0" * 64, ["memory:read", None], None), "invalid scopes"),
        (("acme", "0" * 64, None, None), "at least one scope"),
        (("acme", "not a hash", ["memory:read"], None), "token_hash"),
        (("acme", "0" * 64, ["memory:read"], datetime.now(UTC) - timedelta(minutes=1)), "in the future"),
        ((" ", "0" * 64, ["memory:read"], None), "tenant_id must be a non-empty text"),
        ((None, "0" * 64, ["memory:read"], None), "tenant_id must be a non-empty text"),
    ],
)
def test_token_issue_validates_its_arguments(
    superuser: psycopg.Connection[Any], arguments: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(psycopg.Error, match=message) as caught:
        superuser.execute("select pymem_private.token_issue(%s, %s, %s::text[], %s)", arguments)
    assert caught.value.sqlstate == "PM002"


@pytest.mark.parametrize(
    ("expires_at", "message", "hint"),
    [
        ("now() - interval '1 second'", "expires_at must be in the future", "a positive lifetime"),
        ("now()", "expires_at must be in the future", "--expires-in DAYS"),
        ("'-infinity'::timestamptz", "expires_at must be in the future", "never expires"),
        ("'infinity'::timestamptz", "expires_at must be before the year 10000", "never expires"),
        ("'10000-01-01 00:00:00+00'::timestamptz", "expires_at must be before the year 10000", "NULL"),
    ],
)
def test_token_issue_is_the_one_check_of_the_expiry(
    superuser: psycopg.Connection[Any], expires_at: str, message: str, hint: str
) -> None:
    """As the operator calls it (the migrator acting as pymem_owner, like create_token), whatever
    Python passes: PM002 with a message, the time in the detail and a hint; nothing stored."""
    call = sql.SQL("select pymem_private.token_issue('acme', repeat('0', 64), array['memory:read'], {})")
    with pytest.raises(psycopg.Error) as caught, superuser.transaction():
        superuser.execute("set local role pymem_owner")
        superuser.execute(call.format(sql.SQL(expires_at)))
    assert caught.value.sqlstate == "PM002"
    assert caught.value.diag.message_primary == message
    assert caught.value.diag.message_detail is not None and caught.value.diag.message_detail.startswith(
        "expires_at was"
    )
    assert hint in (caught.value.diag.message_hint or "")
    assert superuser.execute("select count(*) from pymem_private.api_tokens").fetchone() == (0,)
    ok = superuser.execute(call.format(sql.SQL("now() + interval '1 minute'"))).fetchone()
    assert ok is not None and token_row(superuser, ok[0])["expires_at"] is not None


def test_token_issue_stores_distinct_sorted_scopes(superuser: psycopg.Connection[Any]) -> None:
    row = superuser.execute(
        "select pymem_private.token_issue('acme', %s, array['memory:write', 'memory:read', 'memory:write'])",
        ("1" * 64,),
    ).fetchone()
    assert row is not None
    assert token_row(superuser, row[0])["scopes"] == ["memory:read", "memory:write"]


def test_list_tokens_shows_everything_but_the_token(db_dsn: str) -> None:
    acme = create_token(db_dsn, "acme", label="a")
    globex = create_token(db_dsn, "globex", read_only=True, expires_in=timedelta(days=1))
    revoke_token(db_dsn, acme.id)
    every = list_tokens(db_dsn)
    assert [t.token_id for t in every] == [acme.id, globex.id]  # by tenant
    only_globex = list_tokens(db_dsn, "globex")
    assert len(only_globex) == 1
    listed = only_globex[0]
    assert (listed.tenant_id, listed.scopes, listed.label, listed.expires_at) == (
        "globex",
        ("memory:read",),
        None,
        globex.expires_at,
    )
    now = datetime.now(UTC)
    assert [t.status(now) for t in every] == ["revoked", "active"]
    assert listed.status(now + timedelta(days=2)) == "expired"
    assert list_tokens(db_dsn, "initech") == []


# Who may do what


@pytest.mark.parametrize(
    "statement",
    [
        "select * from pymem_private.api_tokens",
        "insert into pymem_private.api_tokens (tenant_id, token_hash, scopes)"
        " values ('acme', repeat('0', 64), '{memory:read}')",
        "update pymem_private.api_tokens set revoked_at = null",
        "delete from pymem_private.api_tokens",
        "select pymem_private.token_issue('acme', repeat('0', 64), array['memory:read'])",
        "select * from pymem_private.token_list()",
        "select pymem_private.token_revoke(gen_random_uuid())",
        "select pymem_private.require_scopes(array['memory:read'])",
    ],
)
def test_the_application_reaches_tokens_only_through_token_verify(
    db_dsn: str, app: psycopg.Connection[Any], statement: str
) -> None:
    create_token(db_dsn, "acme")
    with pytest.raises(psycopg.errors.InsufficientPrivilege), tenant_transaction(app, "acme") as conn:
        conn.execute(statement)
    with pytest.raises(psycopg.errors.InsufficientPrivilege), admin_transaction(app, "acme", reason="r") as conn:
        conn.execute(statement)


def test_an_analyst_cannot_verify_tokens(db_dsn: str, analyst: str) -> None:
    issued = create_token(db_dsn, "acme")
    with psycopg.connect(analyst, autocommit=True) as conn:
        assert conn.execute("select pymem.current_tenant()").fetchone() == ("acme",)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            verify_token(conn, issued.token)
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("select * from pymem_private.api_tokens")


def test_the_audit_covers_the_token_table(superuser: psycopg.Connection[Any]) -> None:
    rows = superuser.execute("select section, object, ok, detail from pymem.memory_rls_audit()").fetchall()
    assert ("table", "pymem_private.api_tokens", True, "rls enabled, forced; owner pymem_owner; 3 policies") in rows
    superuser.execute("grant select on pymem_private.api_tokens to pymem_app")
    superuser.execute("create policy api_tokens_leak on pymem_private.api_tokens for select to pymem_app using (true)")
    superuser.execute(
        "create policy api_tokens_admin on pymem_private.api_tokens for select to pymem_admin"
        " using ((select pymem_private.admin_elevated()))"
    )
    problems = {(r[0], r[1]) for r in superuser.execute("select * from pymem.memory_rls_audit() where not ok")}
    assert problems == {
        ("grant", "pymem_private.api_tokens to pymem_app"),
        ("policy", "pymem_private.api_tokens api_tokens_leak"),
        ("policy", "pymem_private.api_tokens api_tokens_admin"),
    }


# The MCP SDK's token verifier


def test_the_mcp_verifier_returns_the_tenant_and_scopes(db_dsn: str) -> None:
    admin = create_token(db_dsn, "ops", admin=True, expires_in=timedelta(days=7))
    reader = create_token(db_dsn, "acme", read_only=True)
    with make_pool(app_dsn_for(db_dsn), min_size=1, max_size=2) as pool:
        verifier = PymemTokenVerifier(pool)
        access = anyio.run(verifier.verify_token, admin.token)
        assert access is not None and admin.expires_at is not None
        assert access.token == admin.token
        assert access.client_id == f"pymem-token:{admin.id}"
        assert sorted(access.scopes) == sorted([SCOPE_READ, SCOPE_WRITE, SCOPE_ADMIN])
        assert access.expires_at == int(admin.expires_at.timestamp())
        assert access.subject == "ops"
        assert access.claims == {"tenant_id": "ops", "token_id": str(admin.id)}

        access = anyio.run(verifier.verify_token, reader.token)
        assert access is not None
        assert (access.scopes, access.expires_at, access.subject) == ([SCOPE_READ], None, "acme")

        revoke_token(db_dsn, reader.id)
        assert anyio.run(verifier.verify_token, reader.token) is None
        assert anyio.run(verifier.verify_token, "pmt_unknown") is None
        assert anyio.run(verifier.verify_token, "not a token") is None


def test_the_mcp_verifier_logs_database_errors_and_refuses(
    db_dsn: str, analyst: str, caplog: pytest.LogCaptureFixture
) -> None:
    issued = create_token(db_dsn, "acme")
    with make_pool(analyst, min_size=1, max_size=1) as pool:  # a login without EXECUTE on token_verify
        verifier = PymemTokenVerifier(pool)
        with caplog.at_level(logging.WARNING, logger="pymem.bearer_tokens"):
            assert anyio.run(verifier.verify_token, issued.token) is None
    assert "InsufficientPrivilege" in caplog.text
    assert issued.token not in caplog.text


# The command line


@pytest.fixture
def cli_env(db_dsn: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    monkeypatch.setenv("PYMEM_DSN", db_dsn)
    for name in ("PYMEM_APP_DSN", "PYMEM_CONFIG", "PYMEM_TENANT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return db_dsn


def test_the_cli_creates_lists_and_revokes_tokens(
    cli_env: str, app: psycopg.Connection[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["token", "create", "--tenant", "acme", "--label", "laptop agent"]) == 0
    out, err = capsys.readouterr()
    token = out.strip()
    assert out == token + "\n" and token.startswith("pmt_")
    assert "shown only once" in err and "acme" in err and "memory:read memory:write" in err and "never" in err
    assert token not in err
    verified = verify_token(app, token)
    assert verified is not None and verified.tenant_id == "acme"

    assert cli.main(["token", "create", "--tenant", "ops", "--admin", "--expires-in", "30"]) == 0
    admin_token = capsys.readouterr()
    expected = (datetime.now(UTC) + timedelta(days=30)).strftime("%Y-%m-%d")
    assert "memory:read memory:write memory:admin" in admin_token.err and expected in admin_token.err

    assert cli.main(["token", "list"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0].split() == ["ID", "TENANT", "SCOPES", "STATUS", "CREATED", "EXPIRES", "LAST", "USED", "LABEL"]
    assert len(listing) == 3
    acme_line = next(line for line in listing if " acme " in line)
    assert str(verified.token_id) in acme_line and "active" in acme_line and "laptop agent" in acme_line
    assert "memory:read,memory:write" in acme_line
    assert token not in "\n".join(listing)

    assert cli.main(["token", "list", "--tenant", "acme"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    assert cli.main(["token", "list", "--tenant", "initech"]) == 0
    assert "no tokens for tenant 'initech'" in capsys.readouterr().err

    assert cli.main(["token", "revoke", str(verified.token_id)]) == 0
    assert capsys.readouterr().out.strip() == f"revoked {verified.token_id}"
    assert verify_token(app, token) is None
    assert cli.main(["token", "list", "--tenant", "acme"]) == 0
    assert "revoked" in capsys.readouterr().out.splitlines()[1]

    assert cli.main(["token", "revoke", str(verified.token_id)]) == 2
    assert "no active token" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["token", "revoke", "not-a-uuid"], "is not a token id"),
        (["token", "create", "--tenant", "x" * 200], "tenant id"),
    ],
)
def test_the_cli_reports_bad_arguments(
    cli_env: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("pymem: ") and message in captured.err


@pytest.mark.parametrize(
    ("days", "message"),
    [
        ("0", "expires_at must be in the future: expires_at was "),
        ("-3", "expires_at must be in the future: expires_at was "),
        ("3000000", "expires_at must be before the year 10000: expires_at was "),
    ],
)
def test_the_cli_prints_why_token_issue_refused_the_expiry_and_creates_nothing(
    cli_env: str, superuser: psycopg.Connection[Any], capsys: pytest.CaptureFixture[str], days: str, message: str
) -> None:
    """The CLI only parses DAYS; the message is the one pymem_private.token_issue raised (PM002)."""
    assert cli.main(["token", "create", "--tenant", "acme", "--expires-in", days]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no token
    assert captured.err.startswith(f"pymem: {message}"), captured.err
    assert "(hint: " in captured.err and "never expires" in captured.err
    assert superuser.execute("select count(*) from pymem_private.api_tokens").fetchone() == (0,)


@pytest.mark.parametrize("days", ["nan", "inf", "1e400", "ninety"])
def test_the_cli_refuses_an_expiry_that_is_not_a_number_of_days(
    cli_env: str, superuser: psycopg.Connection[Any], capsys: pytest.CaptureFixture[str], days: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["token", "create", "--tenant", "acme", "--expires-in", days])
    assert caught.value.code == 2
    assert f"argument --expires-in: {days!r} is not a number of days" in capsys.readouterr().err
    assert superuser.execute("select count(*) from pymem_private.api_tokens").fetchone() == (0,)


def test_the_cli_refuses_admin_and_read_only_together(cli_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["token", "create", "--tenant", "acme", "--admin", "--read-only"])
    assert caught.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


# Admin elevation details


def test_an_elevation_records_its_details(app: psycopg.Connection[Any]) -> None:
    details = {"admin_tenant": "ops", "as_tenant": "acme"}
    with admin_transaction(app, "acme", reason="support ticket 42", actor="ops-agent", details=details):
        pass
    with admin_transaction(app, "acme", reason="no details"):
        pass
    with tenant_transaction(app, "acme") as conn:
        events = conn.execute(
            "select actor, details from pymem.memory_events where operation = 'admin_elevation' order by id"
        ).fetchall()
    assert events == [
        ("ops-agent", {"reason": "support ticket 42", "admin_tenant": "ops", "as_tenant": "acme"}),
        (None, {"reason": "no details"}),
    ]


@pytest.mark.parametrize(
    ("details", "message"),
    [
        (Jsonb(["ops", "acme"]), "details must be a JSON object, not array"),
        (Jsonb("ops"), "details must be a JSON object, not string"),
        (Jsonb(None), "details must be a JSON object, not null"),
        (Jsonb({"reason": "another"}), 'must not contain "reason"'),
    ],
)
def test_elevation_details_must_be_an_object(app: psycopg.Connection[Any], details: Jsonb, message: str) -> None:
    with pytest.raises(psycopg.Error, match=message) as caught, tenant_transaction(app, "acme") as conn:
        conn.execute("set local role pymem_admin")
        conn.execute("select pymem.memory_log_elevation('r', %s)", (details,))
    assert caught.value.sqlstate == "PM002"


def test_sql_null_details_are_no_details(app: psycopg.Connection[Any]) -> None:
    with tenant_transaction(app, "acme") as conn:
        conn.execute("set local role pymem_admin")
        conn.execute("select pymem.memory_log_elevation('r', null)")
        conn.execute("set local role none")
        row = conn.execute("select details from pymem.memory_events where operation = 'admin_elevation'").fetchone()
    assert row == ({"reason": "r"},)
