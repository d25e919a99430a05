"""Where the SQL files and Alembic migrations are: beside the package in a
checkout (editable install), or bundled inside it in a wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _root() -> Path:
    bundled = _PACKAGE / "_bundle"
    if (bundled / "migrations").is_dir():
        return bundled
    checkout = _PACKAGE.parent
    if (checkout / "migrations").is_dir():
        return checkout
    raise FileNotFoundError("pymem's migrations/ and sql/ were not found beside or inside the package")


def migrations_dir() -> Path:
    return _root() / "migrations"


def sql_files() -> list[Path]:
    """The idempotent SQL files in the order they are applied: functions, then policies."""
    root = _root() / "sql"
    return sorted((root / "functions").glob("*.sql")) + sorted((root / "policies").glob("*.sql"))
