"""`pymem stress` for a few seconds on the session's embedded server: a scratch database of its own, a
real `pymem serve --transport http` on 127.0.0.1, two tenants with a token and an MCP client session each.
The report has its shape, every tool of the mix was called, no tenant was returned an id it did not store,
and the server's RSS was sampled. The isolation checker is then fed a deliberately foreign id (unit level:
the ledgers are the ones the load keeps, the results are shaped like the tools' own). A non-loopback host
is refused before anything runs."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from pymem import embedded
from pymem.cli import main
from pymem.errors import InvalidArgumentError
from pymem_dev.stress import MIX, TenantLedger, foreign_ids, log_problems, loopback_host, returned_ids

SCRATCH = "pymem_stress_test"
TOOL_KEYS = {
    "tool",
    "kind",
    "calls",
    "errors",
    "calls_per_s",
    "p50_ms",
    "p95_ms",
    "p99_ms",
    "max_ms",
    "warmup_calls",
    "warmup_errors",
    "error_samples",
}


def test_a_short_load_on_the_http_server_reports_every_tool_and_no_foreign_id(
    pg_server: embedded.EmbeddedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYMEM_DSN", pg_server.conninfo())
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # no config file of the user's
    for name in ("PYMEM_APP_DSN", "PYMEM_CONFIG", "PYMEM_DATABASE", "PYMEM_TENANT", "PYMEM_REPLICA_DSN"):
        monkeypatch.delenv(name, raising=False)
    out_json, out_md = tmp_path / "out" / "results.json", tmp_path / "out" / "results.md"
    # 8 s: about 250 measured calls, so that the 4% tools are called too (with 5 s, under a second test worker,
    # 118 calls once left memory_forget out)
    argv = ["stress", "--seconds", "8", "--tenants", "2", "--sessions", "1", "--rss-limit", "3"]
    code = main([*argv, "--database", SCRATCH, "--json", str(out_json), "--markdown", str(out_md)])

    results = json.loads(out_json.read_text())
    assert code == 0, results["failures"]
    assert results["ok"] and results["failures"] == []
    assert {
        "command",
        "machine",
        "config",
        "totals",
        "tools",
        "tenants",
        "isolation",
        "rss",
        "server_log",
        "wall_s",
    } <= set(results)
    assert results["config"]["tenants"] == 2 and results["config"]["concurrent_sessions"] == 2
    assert results["config"]["write_percent"] == 30
    assert "--transport http --host 127.0.0.1" in results["config"]["server_command"]

    tools = {t["tool"]: t for t in results["tools"]}
    assert set(tools) == set(MIX)
    for name, tool in tools.items():
        assert set(tool) == TOOL_KEYS, name
        assert tool["calls"] > 0, f"{name} was never called in the measured window"
        assert tool["calls_per_s"] > 0 and 0 < tool["p50_ms"] <= tool["p95_ms"] <= tool["p99_ms"], tool
    totals = results["totals"]
    assert totals["calls"] == sum(t["calls"] for t in tools.values()) > 0
    assert totals["calls_per_s"] > 0 and totals["measured_s"] > 0

    isolation = results["isolation"]
    assert isolation["ok"] and isolation["foreign"] == [] and isolation["ids_checked"] > 0
    assert [t["tenant"] for t in results["tenants"]] == ["stress-00", "stress-01"]
    for tenant in results["tenants"]:
        assert tenant["stored"] > 0 and tenant["ids_checked"] > 0 and tenant["foreign"] == 0

    rss = results["rss"]
    assert rss["samples"] >= 3 and rss["source"]
    assert 0 < rss["start_mb"] <= rss["peak_mb"] and rss["end_mb"] <= rss["peak_mb"] and rss["flat"] is True

    report = out_md.read_text()
    assert "| tool " in report and "memory_mark_helpful" in report and "## Tenant isolation" in report


def test_the_checker_finds_a_deliberately_foreign_id() -> None:
    mine, theirs = TenantLedger("stress-00", "pmt_a"), TenantLedger("stress-01", "pmt_b")
    ledgers = {ledger.tenant: ledger for ledger in (mine, theirs)}
    own, other, late = (str(uuid.uuid4()) for _ in range(3))
    mine.stored("fact", {"memory_id": own, "tenant_id": "stress-00", "review_state": "approved"})
    theirs.stored("rule", {"memory_id": other, "tenant_id": "stress-01", "review_state": "approved"})

    assert foreign_ids([own, other, own], mine.owned) == [other]
    assert foreign_ids([own], mine.owned) == []

    # a search hit of the other tenant, a context item not yet stored (a store still in flight), a get record
    mine.check("memory_search", {"query": "q", "results": [{"memory_id": own}, {"memory_id": other}]})
    mine.check("memory_context", {"items": [{"memory_type": "episode", "memory_id": late}]})
    mine.check("memory_get", {"memory_id": own, "record": {"tenant_id": "stress-00", "supersedes_id": own}})
    mine.stored("episode", {"memory_id": late, "tenant_id": "stress-00"})  # the store answers after the search
    assert mine.ids_checked == 5
    assert mine.resolve(ledgers) == [
        {"tenant": "stress-00", "tool": "memory_search", "id": other, "stored_by": "stress-01"}
    ]
    assert mine.failures == []

    stranger = str(uuid.uuid4())  # stored by no tenant of the run
    theirs.check("memory_recall", {"topic": "t", "results": [{"memory_id": stranger}]})
    assert theirs.resolve(ledgers)[0]["stored_by"] == "no tenant of this run"

    mine.check("memory_get", {"memory_id": own, "record": {"tenant_id": "stress-01"}})
    assert mine.failures == ["memory_get returned tenant_id 'stress-01' to tenant 'stress-00'"]


def test_returned_ids_reads_every_place_a_tool_puts_an_id() -> None:
    a, b, c, d = (str(uuid.uuid4()) for _ in range(4))
    result = {
        "memory_id": a,
        "supersedes_id": b,
        "session_id": str(uuid.uuid4()),  # the caller's own session, not a memory
        "items": [{"memory_id": c, "section": "knowledge"}],
        "record": {"source_episode_id": d, "tenant_id": "x"},
    }
    assert sorted(returned_ids(result)) == sorted([a, b, c, d])


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.10", "::", "localhost", "example.org"])
def test_a_host_that_is_not_loopback_is_refused(host: str) -> None:
    with pytest.raises(InvalidArgumentError):
        loopback_host(host)
    assert main(["stress", "--host", host, "--seconds", "5", "--database", SCRATCH]) == 2


def test_loopback_hosts_are_accepted() -> None:
    assert loopback_host("127.0.0.1") == "127.0.0.1"
    assert loopback_host("::1") == "::1"


def test_the_server_log_problems_are_counted_once_per_cause() -> None:
    traceback = [
        "pymem: memory_search failed",
        "Traceback (most recent call last):",
        '  File "/x/pymem/mcp_server.py", line 301, in _run',
        "    return await anyio.to_thread.run_sync(call)",
        "psycopg.errors.DeadlockDetected: deadlock detected",
        "DETAIL:  Process 1 waits for ShareLock on transaction 2; blocked by process 3.",
        "HINT:  See server log for query details.",
        'CONTEXT:  while locking tuple ({}) in relation "facts"',
    ]
    log = "\n".join(
        [
            "pymem: serving MCP over HTTP at http://127.0.0.1:1/mcp (bearer tokens required)",
            'INFO:     127.0.0.1:5 - "POST /mcp HTTP/1.1" 200 OK',
            *"\n".join(traceback).format("2,3").splitlines(),
            *"\n".join(traceback).format("127,4").splitlines(),
            "ERROR:    Exception in ASGI application",
        ]
    )
    assert log_problems(log) == [
        {
            "message": "pymem: memory_search failed -> psycopg.errors.DeadlockDetected: deadlock detected"
            ' (while locking a tuple in relation "facts")',
            "count": 2,
        },
        {"message": "ERROR:    Exception in ASGI application", "count": 1},
    ]


def test_a_fact_consolidated_from_the_tenants_own_episode_is_its_own_and_no_other_is() -> None:
    """The server's consolidation worker draws facts from episodes: such an id, read from the database with its
    tenant and source episode, is the tenant's when both are its own; any other stays foreign."""
    mine, theirs = TenantLedger("stress-00", "pmt_a"), TenantLedger("stress-01", "pmt_b")
    ledgers = {ledger.tenant: ledger for ledger in (mine, theirs)}
    my_episode, their_episode = str(uuid.uuid4()), str(uuid.uuid4())
    mine.stored("episode", {"memory_id": my_episode, "tenant_id": "stress-00"})
    theirs.stored("episode", {"memory_id": their_episode, "tenant_id": "stress-01"})
    drawn, theirs_drawn, forged = (str(uuid.uuid4()) for _ in range(3))
    derived = {
        drawn: ("stress-00", my_episode),
        theirs_drawn: ("stress-01", their_episode),
        forged: ("stress-00", their_episode),  # a row of this tenant citing another tenant's episode
    }
    mine.check("memory_search", {"results": [{"memory_id": i} for i in (drawn, theirs_drawn, forged)]})
    assert sorted(f["id"] for f in mine.resolve(ledgers, derived)) == sorted([theirs_drawn, forged])
    assert mine.consolidated == {drawn}
