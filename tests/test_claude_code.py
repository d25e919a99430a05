"""Claude Code hooks: `pymem hook EVENT` run as Claude Code runs it (a process, the event's JSON on stdin), fed the
payloads real Claude Code sent (tests/data/claude_code), against a real database; and `pymem claude-code install`,
which writes the settings that register the hooks and the MCP server."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from pymem import embedded
from pymem.claude_code import session_uuid
from tests.conftest import base_env, migrated_database
from tests.test_mcp_transports import pymem_command

DATA = Path(__file__).parent / "data" / "claude_code"
TENANT = "cc-tenant"
SESSION = "92e15113-24fd-4401-a29d-1dd47ca4dab7"  # the recorded session


@pytest.fixture(scope="module")
def hook_db(pg_server: embedded.EmbeddedServer) -> Iterator[str]:
    with migrated_database(pg_server, "pymem_claude_code") as dsn:
        yield dsn


@pytest.fixture(autouse=True)
def empty_tenant(hook_db: str) -> None:
    with psycopg.connect(hook_db, autocommit=True) as conn:
        for table in ("memory_links", "facts", "rules", "episodes", "memory_events"):
            conn.execute(f"delete from pymem.{table} where tenant_id = %s", (TENANT,))


def transcript_until(tmp_path: Path, prompt: int) -> Path:
    """The recorded transcript as it was when prompt's Stop hook ran: up to that prompt's assistant reply."""
    lines = (DATA / "transcript.jsonl").read_text().splitlines()
    replies = [n for n, line in enumerate(lines) if json.loads(line).get("type") == "assistant"]
    path = tmp_path / f"transcript-{prompt}.jsonl"
    path.write_text("\n".join(lines[: replies[prompt - 1] + 1]) + "\n")
    return path


def payload(name: str, **changes: Any) -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    return {**recorded, **changes}


def hook(dsn: str, event: str, stdin: str, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [pymem_command(), "hook", event, "--tenant", TENANT, *extra],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=base_env(PYMEM_DSN=dsn, **env),
        check=False,
    )


def episodes(dsn: str) -> list[dict[str, Any]]:
    with psycopg.connect(dsn) as conn, conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(
            "select content, butler, session_id, created_at, metadata, embedding is not null as embedded"
            " from pymem.episodes where tenant_id = %s order by created_at",
            (TENANT,),
        ).fetchall()


def test_stop_stores_each_turn_as_episodes_of_the_session(hook_db: str, tmp_path: Path) -> None:
    for prompt in (1, 2):
        sent = payload(f"stop-{prompt}", transcript_path=str(transcript_until(tmp_path, prompt)))
        done = hook(hook_db, "stop", json.dumps(sent))
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    stored = episodes(hook_db)
    assert [e["content"] for e in stored] == [
        "User: I am allergic to peanuts",
        "Assistant: Noted: you are allergic to peanuts. I will keep peanuts out of every recipe I suggest.",
        "User: I moved to Lisbon last month",
        "Assistant: Welcome to Lisbon! I will suggest things to do near you there.",
    ]
    assert {e["butler"] for e in stored} == {"claude-code"}
    assert {e["session_id"] for e in stored} == {session_uuid(SESSION)}
    assert all(e["embedded"] for e in stored)
    # observed when they were said, as the transcript dates them
    assert stored[0]["created_at"] == datetime.fromisoformat("2026-11-25T23:38:15.868+00:00")
    assert stored[0]["metadata"] == {
        "source": "claude-code",
        "claude_session_id": SESSION,
        "cwd": "/home/claude-user/recipes",
        "role": "user",
    }


def test_without_a_transcript_stop_stores_the_reply_it_was_sent(hook_db: str) -> None:
    done = hook(hook_db, "stop", json.dumps(payload("stop-2", transcript_path="/nonexistent/t.jsonl")))
    assert done.returncode == 0
    assert done.stderr == (
        "pymem: the transcript /nonexistent/t.jsonl cannot be read ([Errno 2] No such file or directory:"
        " '/nonexistent/t.jsonl'): storing the reply alone\n"
    )
    assert [e["content"] for e in episodes(hook_db)] == [
        "Assistant: Welcome to Lisbon! I will suggest things to do near you there."
    ]


def test_stop_stores_nothing_while_a_stop_hook_keeps_claude_going(hook_db: str, tmp_path: Path) -> None:
    sent = payload("stop-1", transcript_path=str(transcript_until(tmp_path, 1)), stop_hook_active=True)
    assert hook(hook_db, "stop", json.dumps(sent)).returncode == 0
    assert episodes(hook_db) == []


def test_user_prompt_adds_the_memory_block_as_context(hook_db: str, tmp_path: Path) -> None:
    hook(hook_db, "stop", json.dumps(payload("stop-1", transcript_path=str(transcript_until(tmp_path, 1)))))
    done = hook(hook_db, "user-prompt", json.dumps(payload("user-prompt-2", prompt="suggest a dinner recipe")))
    assert (done.returncode, done.stderr) == (0, "")
    output = json.loads(done.stdout)
    assert set(output) == {"hookSpecificOutput"}
    assert output["hookSpecificOutput"]["hookEventName"] == "UserPromptSubmit"
    block = output["hookSpecificOutput"]["additionalContext"]
    assert block.startswith("# Memory context for butler claude-code")
    assert '## Task\n- "suggest a dinner recipe"' in block
    assert "I am allergic to peanuts" in block  # the butler's History


def test_session_start_adds_the_block_for_the_project(hook_db: str) -> None:
    done = hook(hook_db, "session-start", json.dumps(payload("session-start-1")), PYMEM_EMBEDDINGS="off")
    assert (done.returncode, done.stderr) == (0, "")
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "SessionStart"
    assert '## Task\n- "Working on the project recipes"' in output["additionalContext"]


@pytest.mark.parametrize(
    ("event", "stdin", "said"),
    [
        ("stop", "not json", "stdin is not JSON"),
        ("stop", "[1, 2]", "stdin is not a JSON object"),
        ("user-prompt", json.dumps(payload("stop-1")), "hook_event_name is 'Stop', not 'UserPromptSubmit'"),
        ("user-prompt", json.dumps(payload("user-prompt-1", prompt=" ")), "prompt is missing"),
        ("session-start", json.dumps(payload("session-start-1", session_id="")), "session_id is missing"),
    ],
)
def test_a_bad_payload_never_blocks_the_prompt(hook_db: str, event: str, stdin: str, said: str) -> None:
    done = hook(hook_db, event, stdin, PYMEM_EMBEDDINGS="off")
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.count("\n") == 1 and said in done.stderr and done.stderr.startswith(f"pymem hook {event}:")
    assert episodes(hook_db) == []


def test_a_database_that_is_down_never_blocks_the_prompt(tmp_path: Path) -> None:
    down = f"host={tmp_path} port=1 dbname=none user=nobody connect_timeout=2"
    transcript = str(transcript_until(tmp_path, 1))
    for event, name in (("user-prompt", "user-prompt-1"), ("stop", "stop-1")):
        done = hook(down, event, json.dumps(payload(name, transcript_path=transcript)), PYMEM_EMBEDDINGS="off")
        assert (done.returncode, done.stdout) == (0, "")
        assert done.stderr.startswith(f"pymem hook {event}:") and done.stderr.count("\n") == 1, done.stderr


def test_a_hook_without_a_tenant_says_how_to_give_one(hook_db: str) -> None:
    done = subprocess.run(
        [pymem_command(), "hook", "session-start"],
        input=json.dumps(payload("session-start-1")),
        capture_output=True,
        text=True,
        timeout=120,
        env=base_env(PYMEM_DSN=hook_db, PYMEM_EMBEDDINGS="off", XDG_CONFIG_HOME="/nonexistent"),
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert "no tenant: set PYMEM_TENANT" in done.stderr


# pymem claude-code install


def install(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [pymem_command(), "claude-code", "install", "--folder", str(folder), "--tenant", TENANT, *extra],
        capture_output=True,
        text=True,
        timeout=60,
        env=base_env(HOME=str(folder / "home")),
        check=False,
    )


def test_install_registers_the_hooks_and_the_server_and_keeps_what_is_there(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    theirs = {"type": "command", "command": "echo formatted"}
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"model": "opus", "hooks": {"Stop": [{"hooks": [theirs]}]}})
    )
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"other": {"command": "other-server"}}}))
    for _ in range(2):  # installing twice is installing once
        done = install(tmp_path)
        assert done.returncode == 0, done.stderr
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    servers = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]
    command = pymem_command()
    assert settings["model"] == "opus"
    assert settings["hooks"] == {
        "SessionStart": [
            {
                "hooks": [
                    {"type": "command", "command": f"{command} hook session-start --tenant {TENANT}", "timeout": 30}
                ]
            }
        ],
        "UserPromptSubmit": [
            {"hooks": [{"type": "command", "command": f"{command} hook user-prompt --tenant {TENANT}", "timeout": 30}]}
        ],
        "Stop": [
            {"hooks": [theirs]},
            {"hooks": [{"type": "command", "command": f"{command} hook stop --tenant {TENANT}", "timeout": 30}]},
        ],
    }
    assert servers == {
        "other": {"command": "other-server"},
        "pymem": {"type": "stdio", "command": command, "args": ["serve"], "env": {"PYMEM_TENANT": TENANT}},
    }


def test_install_print_writes_nothing_and_user_scope_writes_home(tmp_path: Path) -> None:
    printed = install(tmp_path, "--print")
    assert printed.returncode == 0 and f"# {tmp_path}/.claude/settings.json" in printed.stdout
    assert not (tmp_path / ".claude").exists() and not (tmp_path / ".mcp.json").exists()
    assert install(tmp_path, "--scope", "user").returncode == 0
    home = tmp_path / "home"
    assert "hooks" in json.loads((home / ".claude" / "settings.json").read_text())
    assert "pymem" in json.loads((home / ".claude.json").read_text())["mcpServers"]


def test_install_refuses_settings_that_are_not_json(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text("{not json")
    done = install(tmp_path)
    assert done.returncode == 2
    assert ".mcp.json is not JSON" in done.stderr and "fix it or move it away first" in done.stderr
    assert (tmp_path / ".mcp.json").read_text() == "{not json"
