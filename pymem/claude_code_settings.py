"""`pymem claude-code install`: the Claude Code settings that register pymem's hooks and its MCP server.

Project scope (the default) writes ``.claude/settings.json`` (the hooks) and ``.mcp.json`` (the server) in a
project folder; user scope writes ``~/.claude/settings.json`` and the ``mcpServers`` of ``~/.claude.json``. What is
there already is kept: pymem's own entries (a hook whose command runs ``pymem hook``, the server named ``pymem``)
are replaced, so installing twice is installing once. The commands name the pymem executable by its full path and
the tenant, so they work whatever the PATH of the process that runs them.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pymem.claude_code import BUTLER, EVENTS

SERVER: Final = "pymem"  # the MCP server's name in Claude Code
HOOK_TIMEOUT: Final = 30  # seconds Claude Code gives one hook (the first call may start the embedded database)


@dataclass(frozen=True)
class Written:
    path: Path
    content: dict[str, Any]


def pymem_executable() -> str:
    """The full path of the running pymem command (its console script beside this Python, else on the PATH)."""
    beside = Path(sys.executable).parent / "pymem"
    if beside.exists():
        return str(beside)
    found = shutil.which("pymem")
    return str(Path(found).resolve()) if found else "pymem"


def hook_command(executable: str, event: str, tenant: str, butler: str) -> str:
    parts = [executable, "hook", event, "--tenant", tenant]
    if butler != BUTLER:
        parts += ["--butler", butler]
    return shlex.join(parts)


def _is_ours(entry: Any) -> bool:
    """A matcher group whose every hook runs `pymem hook ...` (what an earlier install wrote)."""
    hooks = entry.get("hooks") if isinstance(entry, dict) else None
    return (
        isinstance(hooks, list)
        and bool(hooks)
        and all(
            isinstance(h, dict) and " hook " in f" {h.get('command', '')} " and "pymem" in h.get("command", "")
            for h in hooks
        )
    )


def with_hooks(settings: dict[str, Any], executable: str, tenant: str, butler: str) -> dict[str, Any]:
    """settings with pymem's three hooks (SessionStart, UserPromptSubmit, Stop), others' hooks kept."""
    merged = dict(settings)
    hooks = dict(merged.get("hooks") or {})
    for event, name in EVENTS.items():
        kept = [entry for entry in hooks.get(name) or [] if not _is_ours(entry)]
        ours = {"type": "command", "command": hook_command(executable, event, tenant, butler), "timeout": HOOK_TIMEOUT}
        hooks[name] = [*kept, {"hooks": [ours]}]
    merged["hooks"] = hooks
    return merged


def with_server(config: dict[str, Any], executable: str, tenant: str) -> dict[str, Any]:
    """config with the MCP server 'pymem' (stdio, `pymem serve` for tenant), other servers kept."""
    merged = dict(config)
    servers = dict(merged.get("mcpServers") or {})
    servers[SERVER] = {"type": "stdio", "command": executable, "args": ["serve"], "env": {"PYMEM_TENANT": tenant}}
    merged["mcpServers"] = servers
    return merged


def _load(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        loaded = json.loads(path.read_text(encoding="utf-8") or "{}")
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON ({exc.msg}, line {exc.lineno}): fix it or move it away first") from None
    if not isinstance(loaded, dict):
        raise ValueError(f"{path} does not hold a JSON object: fix it or move it away first")
    return loaded


def plan(
    *, scope: str, folder: Path, home: Path, tenant: str, butler: str = BUTLER, executable: str | None = None
) -> list[Written]:
    """The two files and what they will hold (nothing written)."""
    exe = executable or pymem_executable()
    if scope == "project":
        settings_path, servers_path = folder / ".claude" / "settings.json", folder / ".mcp.json"
    else:
        settings_path, servers_path = home / ".claude" / "settings.json", home / ".claude.json"
    return [
        Written(settings_path, with_hooks(_load(settings_path), exe, tenant, butler)),
        Written(servers_path, with_server(_load(servers_path), exe, tenant)),
    ]


def write(files: list[Written]) -> None:
    for file in files:
        file.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = file.path.with_name(file.path.name + ".pymem-tmp")
        temporary.write_text(json.dumps(file.content, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        temporary.replace(file.path)
