"""The HTTP server's guards, against a real `pymem serve --transport http` process: session limits per
token and per tenant and the idle timeout (pymem.http_guard), Host and Origin
checked whatever address the server binds, read timeouts for headers and bodies (pymem.http_timeouts), and
no token in any log line (pymem.log_redaction). Clients are the MCP SDK's, httpx and raw sockets."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from pymem import bearer_tokens, embedded
from pymem.http_guard import (
    SessionLedger,
    SessionLimits,
    allowed_hosts,
    allowed_origins,
    host_allowed,
    origin_allowed,
)
from pymem.log_redaction import REDACTED, redact
from pymem_dev.stress import Server, spawn_http_server
from tests.conftest import migrated_database
from tests.mcpclient import call
from tests.test_mcp_transports import base_env

pytestmark = pytest.mark.anyio

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}


@pytest.fixture(scope="module")
def guard_db(pg_server: embedded.EmbeddedServer) -> Iterator[str]:
    """A database of its own for this module's server processes (migrated like a fresh install)."""
    with migrated_database(pg_server, "pymem_guard") as dsn:
        yield dsn


@contextmanager
def served(dsn: str, workdir: Path, host: str = "127.0.0.1", **settings: str) -> Iterator[Server]:
    """`pymem serve --transport http` on dsn with the given PYMEM_ settings (keyword only: no model to load)."""
    env = base_env(
        PYMEM_DSN=dsn,
        PYMEM_EMBEDDINGS="off",
        PYMEM_INDEX_CHECK_INTERVAL="0",
        XDG_CONFIG_HOME=str(workdir),
        PYMEM_BUTLERS_DIR=str(workdir / "butlers"),
        **settings,
    )
    with spawn_http_server(env, workdir, host) as server:
        yield server


@pytest.fixture(scope="module")
def limited(guard_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Three sessions per token, four per tenant, headers within 2 s and a body within 3 s."""
    with served(
        guard_db,
        tmp_path_factory.mktemp("limited"),
        PYMEM_MAX_SESSIONS_PER_TOKEN="3",
        PYMEM_MAX_SESSIONS_PER_TENANT="4",
        PYMEM_HEADER_TIMEOUT="2",
        PYMEM_BODY_TIMEOUT="3",
    ) as server:
        yield server


@pytest.fixture(scope="module")
def idle(guard_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Sessions idle for 2 s are closed; two sessions per token."""
    with served(
        guard_db, tmp_path_factory.mktemp("idle"), PYMEM_SESSION_IDLE_TIMEOUT="2", PYMEM_MAX_SESSIONS_PER_TOKEN="2"
    ) as server:
        yield server


@pytest.fixture(scope="module")
def everywhere(guard_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bound to 0.0.0.0 (the SDK checks Host and Origin only on loopback binds), with a proxy's name."""
    with served(
        guard_db,
        tmp_path_factory.mktemp("everywhere"),
        host="0.0.0.0",
        PYMEM_ALLOWED_HOSTS="mcp.example.com, 10.1.2.3:*",
        PYMEM_ALLOWED_ORIGINS="https://app.example.com",
    ) as server:
        yield server


def token(dsn: str, tenant: str) -> str:
    return bearer_tokens.create_token(dsn, tenant).token


async def initialize(url: str, bearer: str, **headers: str) -> httpx2.Response:
    async with httpx2.AsyncClient(timeout=30) as http:
        return await http.post(
            url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": f"Bearer {bearer}", **headers}
        )


async def open_session(url: str, bearer: str) -> str:
    """A new session (an initialize the client never closes); its Mcp-Session-Id."""
    response = await initialize(url, bearer)
    assert response.status_code == 200, response.text
    return response.headers["mcp-session-id"]


async def end_session(url: str, bearer: str, session_id: str) -> int:
    headers = {"Authorization": f"Bearer {bearer}", "Mcp-Session-Id": session_id, "Mcp-Protocol-Version": "2025-06-18"}
    async with httpx2.AsyncClient(timeout=30) as http:
        return (await http.delete(url, headers=headers)).status_code


async def ping(url: str, bearer: str, session_id: str) -> int:
    headers = {
        **MCP_HEADERS,
        "Authorization": f"Bearer {bearer}",
        "Mcp-Session-Id": session_id,
        "Mcp-Protocol-Version": "2025-06-18",
    }
    async with httpx2.AsyncClient(timeout=30) as http:
        return (await http.post(url, json={"jsonrpc": "2.0", "id": 2, "method": "ping"}, headers=headers)).status_code


@asynccontextmanager
async def mcp_client(url: str, bearer: str) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {bearer}"}, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


# Sessions per token and per tenant, and idle sessions closed


async def test_a_token_at_its_session_limit_is_refused_while_other_tenants_open_sessions(
    limited: Server, guard_db: str
) -> None:
    """One read-only token once opened 200 sessions in 0.76 s, and with the SDK's server-wide
    cap one tenant's sessions refused another's. Now a token has at most PYMEM_MAX_SESSIONS_PER_TOKEN open
    sessions and a tenant PYMEM_MAX_SESSIONS_PER_TENANT: past them the answer is 429, saying the limit and how
    to close sessions, while another tenant's token (and the token's own open sessions) are served."""
    first, second, other = token(guard_db, "lim-a"), token(guard_db, "lim-a"), token(guard_db, "lim-b")
    mine = [await open_session(limited.url, first) for _ in range(3)]
    refused = await initialize(limited.url, first)
    assert refused.status_code == 429
    message = refused.json()["error"]["message"]
    assert "3 open sessions" in message and "PYMEM_MAX_SESSIONS_PER_TOKEN" in message and "DELETE" in message
    assert int(refused.headers["retry-after"]) > 0
    assert await ping(limited.url, first, mine[0]) == 200  # its open sessions still serve
    # another tenant is not affected, nor another token of the same tenant up to the tenant's limit
    await open_session(limited.url, other)
    await open_session(limited.url, second)
    tenant_full = await initialize(limited.url, second)
    assert tenant_full.status_code == 429 and "PYMEM_MAX_SESSIONS_PER_TENANT" in tenant_full.json()["error"]["message"]
    # a session closed with DELETE frees its place at once
    assert await end_session(limited.url, first, mine[0]) == 200
    assert await ping(limited.url, first, mine[0]) == 404
    await open_session(limited.url, first)
    assert (await initialize(limited.url, first)).status_code == 429
    # another token cannot close (or use) a session that is not its own
    assert await end_session(limited.url, other, mine[1]) == 404
    assert await ping(limited.url, first, mine[1]) == 200


async def test_concurrent_opening_requests_of_one_token_get_exactly_its_limit(limited: Server, guard_db: str) -> None:
    """Twenty initialize requests of one token at once: three sessions open (the token's limit), the rest 429."""
    bearer = token(guard_db, "lim-race")
    statuses: list[int] = []

    async def one() -> None:
        statuses.append((await initialize(limited.url, bearer)).status_code)

    async with anyio.create_task_group() as group:
        for _ in range(20):
            group.start_soon(one)
    assert sorted(statuses) == [200] * 3 + [429] * 17


async def test_mcp_clients_that_close_their_sessions_never_reach_the_limit(limited: Server, guard_db: str) -> None:
    """The SDK's client ends its session with DELETE when it exits: ten clients in a row, one token with a
    limit of three, each stores and reads."""
    bearer = token(guard_db, "lim-c")
    for i in range(10):
        async with mcp_client(limited.url, bearer) as client:
            stored = await call(client, "memory_store_fact", subject="user", predicate=f"n{i}", content=f"Note {i}")
            assert stored["tenant_id"] == "lim-c"
    async with mcp_client(limited.url, bearer) as client:
        assert (await call(client, "memory_stats"))["facts_active"] == 10


async def test_an_idle_session_is_closed_after_the_idle_timeout(idle: Server, guard_db: str) -> None:
    """PYMEM_SESSION_IDLE_TIMEOUT (here 2 s): a session with no request in flight for that long is closed, its
    id answers 404 and its place under the token's limit is free again; a session in use is kept."""
    bearer = token(guard_db, "idle-a")
    sessions = [await open_session(idle.url, bearer) for _ in range(2)]
    assert (await initialize(idle.url, bearer)).status_code == 429
    busy = token(guard_db, "idle-b")
    async with mcp_client(idle.url, busy) as client:
        for _ in range(4):  # 4.8 s in all, never 2 s without a request
            await call(client, "memory_stats")
            await anyio.sleep(1.2)
        assert [await ping(idle.url, bearer, s) for s in sessions] == [404, 404]
        assert "facts_active" in await call(client, "memory_stats")
    await open_session(idle.url, bearer)
    await open_session(idle.url, bearer)


# Host and Origin, whatever address is bound


async def test_host_and_origin_are_checked_on_a_server_bound_to_every_address(
    everywhere: Server, guard_db: str
) -> None:
    """Bound to 0.0.0.0, the server once served `Host: evil.example` and `Origin:
    http://evil.example` (the SDK checks them only on loopback binds). Now a Host that is not the bind address,
    a localhost form or in PYMEM_ALLOWED_HOSTS gets 421, an Origin not allowed 403; no Origin (a non-browser
    client) is fine."""
    bearer = token(guard_db, "hosts")
    port = urlsplit(everywhere.url).port
    bad_host = await initialize(everywhere.url, bearer, Host="evil.example")
    assert bad_host.status_code == 421 and "PYMEM_ALLOWED_HOSTS" in bad_host.text
    assert (await initialize(everywhere.url, bearer, Host=f"evil.example:{port}")).status_code == 421
    bad_origin = await initialize(everywhere.url, bearer, Origin="http://evil.example")
    assert bad_origin.status_code == 403 and "PYMEM_ALLOWED_ORIGINS" in bad_origin.text
    assert (await initialize(everywhere.url, bearer, Origin=f"http://evil.example:{port}")).status_code == 403
    assert (await initialize(everywhere.url, bearer, Origin="null")).status_code == 403
    for good in (
        {},  # Host 127.0.0.1:port, no Origin
        {"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"},
        {"Host": "mcp.example.com", "Origin": "https://app.example.com"},
        {"Host": "10.1.2.3:8443"},
        {"Host": "MCP.example.com"},
    ):
        assert (await initialize(everywhere.url, bearer, **good)).status_code == 200, good
    # the OAuth metadata and any other path are checked the same way
    async with httpx2.AsyncClient(timeout=30) as http:
        metadata = everywhere.url.replace("/mcp", "/.well-known/oauth-protected-resource")
        assert (await http.get(metadata, headers={"Host": "evil.example"})).status_code == 421


# Read timeouts


def _read_until_closed(sock: socket.socket, limit: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed (monotonic); fails the
    test if the connection is still open after limit seconds."""
    sock.settimeout(0.2)
    received = b""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received, time.monotonic()
        if not chunk:
            return received, time.monotonic()
        received += chunk
    pytest.fail(f"the server held the connection open for {limit} s (received {received[:80]!r})")


async def test_partial_headers_and_bodies_are_cut_off_while_other_clients_are_served(
    limited: Server, guard_db: str
) -> None:
    """150 partial bodies and 50 partial header sets were once still open after 12 s. Now
    headers must arrive within PYMEM_HEADER_TIMEOUT (here 2 s) and a body within PYMEM_BODY_TIMEOUT (3 s)
    after them: the slow client gets 408 and the connection is closed, and others are served meanwhile."""
    bearer = token(guard_db, "slow")
    parts = urlsplit(limited.url)
    assert parts.hostname and parts.port
    address = (parts.hostname, parts.port)
    start = time.monotonic()
    silent = socket.create_connection(address)  # connects and sends nothing
    headers = socket.create_connection(address)
    headers.sendall(f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{parts.port}\r\nContent-Type: application/j".encode())
    body = socket.create_connection(address)
    body.sendall(
        (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{parts.port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nAuthorization: Bearer {bearer}\r\n"
            "Content-Length: 1000\r\n\r\n"
            '{"jsonrpc": "2.0", "id": 1, "method": "initialize", '
        ).encode()
    )
    try:
        await anyio.sleep(0.5)
        assert (await initialize(limited.url, token(guard_db, "fast"))).status_code == 200
        got, closed = _read_until_closed(headers, 8)
        assert got.startswith(b"HTTP/1.1 408") and 1.5 < closed - start < 4.5, (got, closed - start)
        got, closed = _read_until_closed(silent, 8)
        assert got == b"" and closed - start < 4.5  # nothing was asked: closed without an answer
        got, closed = _read_until_closed(body, 8)
        assert got.startswith(b"HTTP/1.1 408") and 2.5 < closed - start < 5.5, (got, closed - start)
    finally:
        for sock in (silent, headers, body):
            sock.close()
    # the slow opening request left no session behind: the token still opens its three
    for _ in range(3):
        await open_session(limited.url, bearer)


async def test_a_kept_alive_connection_gets_the_header_timeout_for_its_next_request(limited: Server) -> None:
    """After a response, the next request's headers on the same connection are held to the same timeout."""
    parts = urlsplit(limited.url)
    assert parts.hostname and parts.port
    with socket.create_connection((parts.hostname, parts.port)) as sock:
        sock.sendall(f"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1:{parts.port}\r\n\r\n".encode())
        sock.settimeout(5)
        answer = b""
        while not answer.endswith(b"Not Found"):
            answer += sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 404")
        start = time.monotonic()
        sock.sendall(b"GET /nothing HTTP/1.1\r\nHo")
        got, closed = _read_until_closed(sock, 8)
        assert got.startswith(b"HTTP/1.1 408") and closed - start < 4.5


# No token in a log line


async def test_a_token_in_the_url_never_reaches_the_log(limited: Server, guard_db: str) -> None:
    """A token sent as ?access_token= was once refused but written verbatim to the access log.
    Every log line is redacted: the token is not in the server's output, a redaction marker is."""
    secret = token(guard_db, "logged")
    async with httpx2.AsyncClient(timeout=30) as http:
        assert (await http.get(f"{limited.url}?access_token={secret}")).status_code == 401
        assert (await http.post(f"{limited.url}?x=1&token={secret}", json=INITIALIZE)).status_code == 401
        assert (await http.get(f"{limited.url}?api_key=not-ours-{secret[4:]}")).status_code == 401
    time.sleep(0.5)
    log = limited.log.read_text()
    assert secret not in log and secret[4:] not in log
    assert f"access_token={REDACTED}" in log and f"token={REDACTED}" in log and f"api_key={REDACTED}" in log


def test_redaction_of_query_parameters_bearer_headers_and_pymem_tokens() -> None:
    issued = bearer_tokens.new_token()
    assert issued not in redact(f"GET /mcp?access_token={issued} HTTP/1.1")
    assert redact("/mcp?a=1&Token=abc&key=xyz&keep=1") == f"/mcp?a=1&Token={REDACTED}&key={REDACTED}&keep=1"
    assert redact(f"Authorization: Bearer {issued}") == f"Authorization: Bearer {REDACTED}"
    assert redact(f"verification of {issued} failed") == f"verification of pmt_{REDACTED} failed"
    assert redact("monkey=1&turkey=2") == "monkey=1&turkey=2"  # names that end in key or token are not keys


def test_the_log_filter_redacts_messages_arguments_and_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    from pymem.log_redaction import install

    issued = bearer_tokens.new_token()
    restore = install()
    try:
        log = logging.getLogger("pymem.test")
        with caplog.at_level(logging.INFO):
            log.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:1", "GET", f"/mcp?access_token={issued}", "1.1", 401)
            log.info(f"inline {issued}")
            try:
                raise ValueError(f"bad token {issued}")
            except ValueError:
                log.exception("failed")
        text = caplog.text
        assert issued not in text and issued[4:] not in text
        assert f"/mcp?access_token={REDACTED}" in text and "ValueError: bad token pmt_" in text
    finally:
        restore()


# The guard's parts, without a server


def test_allowed_hosts_and_origins() -> None:
    hosts = allowed_hosts("0.0.0.0", 8765, ("mcp.example.com", "10.0.0.7:443", "[fd00::1]:*"))
    for good in ("localhost:8765", "127.0.0.1:8765", "[::1]:8765", "MCP.Example.com", "mcp.example.com:8443"):
        assert host_allowed(good, hosts), good
    for bad in ("0.0.0.0:8765", "localhost:8766", "localhost", "10.0.0.7:8765", "evil.example", "", "[fd00::2]:1"):
        assert not host_allowed(bad, hosts), bad
    assert host_allowed("[fd00::1]:9", hosts) and host_allowed("10.0.0.7:443", hosts)
    assert host_allowed("192.168.1.5:8765", allowed_hosts("192.168.1.5", 8765))
    assert host_allowed("anything", ("*",))
    origins = allowed_origins("0.0.0.0", 8765, ("https://app.example.com", "http://dev.example.com:*"))
    for good in ("http://localhost:8765", "https://app.example.com", "http://dev.example.com:3000"):
        assert origin_allowed(good, origins), good
    for bad in ("http://localhost:8766", "https://localhost:8765", "https://app.example.com:444", "null", ""):
        assert not origin_allowed(bad, origins), bad
    assert not origin_allowed("http://dev.example.com:3000.evil.example", origins)


def test_the_session_ledger_counts_reserves_and_expires() -> None:
    now = [0.0]
    ledger = SessionLedger(SessionLimits(per_token=2, per_tenant=3, idle_timeout=10), clock=lambda: now[0])
    assert ledger.refusal("t1", "a", "/mcp") is None
    ledger.reserve("t1", "a")
    ledger.reserve("t1", "a")  # two opening requests in flight take both places
    message, retry = ledger.refusal("t1", "a", "/mcp") or ("", 0)
    assert "this token already has 2 open sessions" in message and retry == 10
    ledger.release("t1", "a")  # one failed
    first = ledger.opened("s1", "t1", "a")
    ledger.end(first)
    ledger.reserve("t1", "a")
    ledger.end(ledger.opened("s2", "t1", "a"))
    ledger.reserve("t2", "a")
    ledger.end(ledger.opened("s3", "t2", "a"))
    message, _ = ledger.refusal("t3", "a", "/mcp") or ("", 0)
    assert "tenant 'a' already has 3" in message and ledger.refusal("t3", "b", "/mcp") is None
    now[0] = 6.0
    ledger.begin(first)  # s1 in use: not idle
    now[0] = 10.0
    ledger.expire()  # s2 and s3 idle since 0 for 10 s: closed
    assert ledger.find("s2") is None and ledger.find("s3") is None and ledger.find("s1") is first
    ledger.end(first)
    assert ledger.refusal("t1", "a", "/mcp") is None
    now[0] = 19.9
    assert ledger.find("s1") is first
    now[0] = 20.0
    assert ledger.find("s1") is None
