"""`pymem hook EVENT` (what Claude Code runs) and `pymem claude-code install` (the settings that make it run them)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pymem import claude_code, claude_code_settings
from pymem.config import Settings
from pymem.errors import InvalidArgumentError
from pymem.tenancy import validate_tenant_id


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hook = sub.add_parser(
        "hook",
        help="a Claude Code hook: reads the event's JSON on stdin, answers on stdout (never fails the prompt)",
        description="Run by Claude Code (see `pymem claude-code install`). session-start and user-prompt add the"
        " butler's memory block as additional context; stop stores the turn as episodes. A failure prints one"
        " line on stderr and exits 0.",
    )
    hook.add_argument("event", choices=sorted(claude_code.EVENTS))
    hook.add_argument("--tenant", help="the tenant (default: $PYMEM_TENANT or the config file)")
    hook.add_argument("--butler", default=claude_code.BUTLER, help=f"the butler (default {claude_code.BUTLER})")
    hook.set_defaults(func=_hook)

    cc = sub.add_parser("claude-code", help="Claude Code integration").add_subparsers(dest="cc_command", required=True)
    install = cc.add_parser(
        "install",
        help="register pymem's hooks and MCP server in Claude Code's settings",
        description="Write the hooks (SessionStart, UserPromptSubmit, Stop) into .claude/settings.json and the MCP"
        " server into .mcp.json of a project (or, with --scope user, ~/.claude/settings.json and ~/.claude.json),"
        " keeping what is there. --print shows the result and writes nothing.",
    )
    install.add_argument("--scope", choices=["project", "user"], default="project")
    install.add_argument("--folder", type=Path, default=Path.cwd(), help="project scope: the project (default: .)")
    install.add_argument("--tenant", help="the tenant (default: $PYMEM_TENANT or the config file)")
    install.add_argument("--butler", default=claude_code.BUTLER, help=f"the butler (default {claude_code.BUTLER})")
    install.add_argument("--print", action="store_true", dest="print_only", help="print the files; write nothing")
    install.set_defaults(func=_install)


def _hook(args: argparse.Namespace, settings: Settings) -> int:
    return claude_code.run_hook(
        args.event,
        settings,
        tenant=args.tenant,
        butler=args.butler,
        stdin=sys.stdin,
        stdout=sys.stdout,
        stderr=sys.stderr,
    )


def _install(args: argparse.Namespace, settings: Settings) -> int:
    chosen = args.tenant or settings.configured_tenant
    if not chosen:
        raise InvalidArgumentError(
            "pymem claude-code install needs a tenant: pass --tenant, or set PYMEM_TENANT or the config file's tenant"
        )
    try:
        files = claude_code_settings.plan(
            scope=args.scope,
            folder=args.folder.resolve(),
            home=Path.home(),
            tenant=validate_tenant_id(chosen),
            butler=args.butler,
        )
    except ValueError as exc:
        raise InvalidArgumentError(str(exc)) from None
    if args.print_only:
        for file in files:
            print(f"# {file.path}")
            print(json.dumps(file.content, indent=2, ensure_ascii=False))
        return 0
    claude_code_settings.write(files)
    for file in files:
        print(f"pymem: wrote {file.path}")
    print("pymem: Claude Code runs pymem's hooks and MCP server from its next session on")
    return 0
