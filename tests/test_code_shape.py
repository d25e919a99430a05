"""No Python function over 80 lines, in the product (pymem/) or the tooling (pymem_dev/, tools/): a longer one
does several things, and is split by what it does."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 80
FOLDERS = ("pymem", "pymem_dev", "tools")

# Functions over MAX_LINES that are known and waiting to be split, as "path:function": each is to be split
# and removed from here (a test fails when an entry is no longer too long), and none may be added.
ALLOWED: set[str] = set()


def function_lengths(path: Path) -> Iterator[tuple[str, int]]:
    """(name, lines) of each function and method of a file, nested ones too; a function's lines run from
    its `def` to its last line (decorators not counted, its docstring and nested functions counted)."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            yield node.name, node.end_lineno - node.lineno + 1


def long_functions() -> dict[str, int]:
    return {
        f"{path.relative_to(ROOT).as_posix()}:{name}": lines
        for folder in FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for name, lines in function_lengths(path)
        if lines > MAX_LINES
    }


def test_no_function_is_over_80_lines() -> None:
    assert {f: n for f, n in long_functions().items() if f not in ALLOWED} == {}


def test_the_allow_list_holds_only_functions_still_too_long() -> None:
    assert ALLOWED - set(long_functions()) == set()


def test_the_count_runs_from_def_to_the_last_line(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))  # def + 80 lines = 81
    source.write_text(f"@decorator\ndef long():\n{body}\n\n\ndef short():\n    return 1\n")
    assert dict(function_lengths(source)) == {"long": MAX_LINES + 1, "short": 2}
