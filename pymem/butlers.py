"""Butler settings files: ``<butlers dir>/<butler>/butler.toml`` (or ``<butlers dir>/<butler>.toml``),
written into the database, where the SQL functions read them.

    scope = "health"                  # memories recalled: scope 'global' + this one (default: the butler's name)
    episode_ttl_days = 7              # lifetime of the episodes the butler stores
    score_weights = { relevance = 0.4, importance = 0.3, recency = 0.2, confidence = 0.1 }
    min_relevance = 0.02              # relevance floor of recall and context (default: the relevance model's)
    min_focus = 0.225                 # focus check of recall (0: off, for a butler whose topics are tasks)
    floor_bypass = 0.3                # cosine to the topic that passes the floor whatever the relevance (1: off)

    [context]                         # memory_context
    token_budget = 3000
    # the blocks: System (proven and established rules), Project (facts of the scope),
    # History (recent episodes), Knowledge (other facts and rules); Task, the prompt, counts with the headers
    quotas = { system = 0.15, project = 0.25, history = 0.2, knowledge = 0.4 }   # shares of the token budget
    max_items = { system = 10, project = 10, history = 10, knowledge = 20 }      # candidates per block

The files are the operator's; what is in force is the tenant's row of pymem.butler_settings, written by
pymem.memory_butler_configure when `pymem serve` starts and by `pymem butler sync`. memory_recall (the
butler named by its scope), memory_store_episode and memory_context_* read it, so psql and MCP rank the
same for the same butler. This module only reads TOML: it maps the keys to the function's arguments and
checks that each is of the right TOML type; the ranges are the SQL function's (PM002, naming the key).

The butlers directory is ``PYMEM_BUTLERS_DIR``, else ``<user config dir>/pymem/butlers``.
"""

from __future__ import annotations

import logging
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
import psycopg

from pymem import limits
from pymem.client import MemoryClient
from pymem.errors import InvalidArgumentError, translate
from pymem.result_schemas import ButlerSettings

log = logging.getLogger(__name__)
SECTIONS = ("system", "project", "history", "knowledge")
# a butler's name is also a file name: the pattern pymem.memory_butler_configure checks, which this module needs
# before any database is there (to find the files); its length is limits.BUTLER_NAME
BUTLER_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9_.-]{{0,{limits.BUTLER_NAME - 1}}}")

# butler.toml key -> (memory_butler_configure argument, TOML type)
_TOP = {
    "scope": ("scope", str),
    "episode_ttl_days": ("episode_ttl_days", float),
    "min_relevance": ("min_relevance", float),
    "min_focus": ("min_focus", float),
    "floor_bypass": ("floor_bypass", float),
}
_WEIGHTS = {k: (f"w_{k}", float) for k in ("relevance", "importance", "recency", "confidence")}
_CONTEXT = {"token_budget": ("context_token_budget", int)}
_QUOTAS = {k: (f"quota_{k}", float) for k in SECTIONS}
_MAX_ITEMS = {k: (f"max_{k}", int) for k in SECTIONS}


@dataclass(frozen=True)
class ButlerFile:
    """What one butler.toml says, as memory_butler_configure arguments (those it leaves out take defaults)."""

    name: str
    settings: dict[str, Any] = field(default_factory=dict)
    source: Path | None = None


def validate_butler_name(name: object) -> str:
    """A butler name is also a file name: letters, digits, '_', '-', '.', at most 100, no '..'."""
    if not isinstance(name, str) or not BUTLER_NAME.fullmatch(name) or ".." in name:
        raise InvalidArgumentError(
            f"invalid butler name {name!r}",
            hint=f"use 1-{limits.BUTLER_NAME} letters, digits, '_', '-' or '.', starting with a letter or digit,"
            " without '..'",
        )
    return name


def butlers_dir(env: Mapping[str, str] | None = None) -> Path:
    """PYMEM_BUTLERS_DIR, else <user config dir>/pymem/butlers."""
    value = (os.environ if env is None else env).get("PYMEM_BUTLERS_DIR", "").strip()
    if value:
        return Path(value).expanduser()
    return Path(platformdirs.user_config_dir("pymem")) / "butlers"


def butler_files(directory: Path) -> dict[str, Path]:
    """The butler files of a directory by butler name; one butler with both layouts is an error."""
    found: dict[str, Path] = {}
    if not directory.is_dir():
        return found
    candidates = sorted(directory.glob("*/butler.toml")) + sorted(directory.glob("*.toml"))
    for path in candidates:
        name = path.parent.name if path.name == "butler.toml" and path.parent != directory else path.stem
        if not BUTLER_NAME.fullmatch(name) or ".." in name or not path.is_file():
            continue
        if name in found:
            raise InvalidArgumentError(
                f"butler {name!r} has two configuration files: {found[name]} and {path}", hint="keep one of them"
            )
        found[name] = path
    return found


def read_butler_file(name: str, path: Path) -> ButlerFile:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidArgumentError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    return parse_butler(name, data, path)


def parse_butler(name: str, data: bytes | str, source: Path | None = None) -> ButlerFile:
    """The memory_butler_configure arguments of a butler.toml's text (source names the file in errors)."""
    validate_butler_name(name)
    where = str(source) if source is not None else f"butler {name!r}"
    try:
        document = tomllib.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidArgumentError(f"{where}: not valid TOML ({exc})") from exc
    settings: dict[str, Any] = {}
    top = _table(where, "", document, [*_TOP, "score_weights", "context"])
    _take(where, "", top, _TOP, settings)
    _take(
        where,
        "score_weights",
        _table(where, "score_weights", top.get("score_weights", {}), _WEIGHTS),
        _WEIGHTS,
        settings,
    )
    context = _table(where, "context", top.get("context", {}), [*_CONTEXT, "quotas", "max_items"])
    _take(where, "context", context, _CONTEXT, settings)
    _take(
        where, "context.quotas", _table(where, "context.quotas", context.get("quotas", {}), _QUOTAS), _QUOTAS, settings
    )
    items = _table(where, "context.max_items", context.get("max_items", {}), _MAX_ITEMS)
    _take(where, "context.max_items", items, _MAX_ITEMS, settings)
    return ButlerFile(name=name, settings=settings, source=source)


def _table(where: str, key: str, value: Any, allowed: Mapping[str, Any] | list[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidArgumentError(f"{where}: {key} must be a table, not {type(value).__name__}")
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        names = ", ".join(f"{key}.{k}" if key else k for k in unknown)
        raise InvalidArgumentError(
            f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {names}",
            hint=f"allowed{' in ' + key if key else ''}: {', '.join(allowed)}",
        )
    return value


def _take(
    where: str, prefix: str, table: dict[str, Any], keys: Mapping[str, tuple[str, type]], out: dict[str, Any]
) -> None:
    """Copy the table's keys to their argument names, checking the TOML type (the ranges are SQL's)."""
    for key, (argument, kind) in keys.items():
        if key not in table:
            continue
        value = table[key]
        full = f"{prefix}.{key}" if prefix else key
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if kind is str and not isinstance(value, str):
            raise InvalidArgumentError(f"{where}: {full} must be a string, not {type(value).__name__}")
        if kind is float and not number:
            raise InvalidArgumentError(f"{where}: {full} must be a number, not {type(value).__name__}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidArgumentError(f"{where}: {full} must be an integer, not {type(value).__name__}")
        out[argument] = value


def configure(client: MemoryClient, butler: ButlerFile) -> ButlerSettings:
    """Write one butler's settings into the client's tenant (memory_butler_configure)."""
    try:
        return client.butler_configure(
            butler=butler.name, source=str(butler.source) if butler.source else None, **butler.settings
        )
    except psycopg.Error as exc:
        error = translate(exc)
        if error is None:
            raise
        where = str(butler.source) if butler.source else f"butler {butler.name!r}"
        raise type(error)(f"{where}: {error.args[0]}", hint=error.hint) from exc


def sync_butlers(client: MemoryClient, directory: Path) -> list[ButlerSettings]:
    """Make the client's tenant hold what the directory's butler files say: each file's settings written,
    and the settings of butlers whose file is gone removed (back to the defaults). A directory that does
    not exist changes nothing. The caller's transaction makes it all or nothing. Returns the settings written."""
    if not directory.is_dir():
        # the normal case (no butler files): say nothing; and a mistyped directory must not put every
        # butler back on the defaults: change nothing
        log.debug(
            "butlers directory %s does not exist: the butler settings in the database are left as they are", directory
        )
        return []
    files = [read_butler_file(name, path) for name, path in sorted(butler_files(directory).items())]
    written = [configure(client, butler) for butler in files]
    names = {butler.name for butler in files}
    for row in client.butler_settings():
        if row.butler not in names and row.source is not None:
            client.butler_remove(butler=row.butler)
    return written
