"""Per-butler configuration: ``<butlers dir>/<butler>/butler.toml`` (or ``<butlers dir>/<butler>.toml``).

    scope = "health"                  # memories recalled: scope 'global' + this one (default: the butler's name)
    episode_ttl_days = 7              # lifetime of the episodes the butler stores
    score_weights = { relevance = 0.4, importance = 0.3, recency = 0.2, confidence = 0.1 }

    [context]                         # memory_context
    token_budget = 3000
    quotas = { facts = 0.5, rules = 0.3, episodes = 0.2 }     # shares of the token budget
    max_items = { facts = 20, rules = 10, episodes = 10 }     # candidates fetched per section

The butlers directory is ``PYMEM_BUTLERS_DIR``, else ``<user config dir>/pymem/butlers``. A butler
without a file gets the defaults above. Every key is optional; an unknown key, a value of the
wrong type or out of range raises InvalidArgumentError naming the file and the key. Loads are
cached per (directory, butler) and re-read when the file changes (mtime, size, inode).
"""

from __future__ import annotations

import math
import os
import re
import threading
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from pymem.errors import InvalidArgumentError

SECTIONS = ("facts", "rules", "episodes")
BUTLER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
MAX_WEIGHT = 1000.0  # memory_recall accepts each w_* in [0, 1000], not all 0
MAX_TTL_DAYS = 36500.0
MAX_TOKEN_BUDGET = 100_000
MAX_SECTION_ITEMS = 1000  # memory_context_candidates accepts 0..1000 per section
MAX_SCOPE_LENGTH = 200  # as every SQL read's scope


@dataclass(frozen=True)
class ScoreWeights:
    """memory_recall's w_relevance, w_importance, w_recency, w_confidence (normalised by their sum in SQL)."""

    relevance: float = 0.4
    importance: float = 0.3
    recency: float = 0.2
    confidence: float = 0.1


@dataclass(frozen=True)
class ContextQuotas:
    """Shares of the context token budget each section may fill in the first pass; they sum to at most 1."""

    facts: float = 0.5
    rules: float = 0.3
    episodes: float = 0.2

    def of(self, section: str) -> float:
        return float(getattr(self, section))


@dataclass(frozen=True)
class ContextMaxItems:
    """How many candidates each section fetches at most (0 leaves the section empty)."""

    facts: int = 20
    rules: int = 10
    episodes: int = 10

    def of(self, section: str) -> int:
        return int(getattr(self, section))


@dataclass(frozen=True)
class ButlerConfig:
    name: str
    scope: str
    score_weights: ScoreWeights = field(default_factory=ScoreWeights)
    episode_ttl_days: float = 7.0
    context_token_budget: int = 3000
    context_quotas: ContextQuotas = field(default_factory=ContextQuotas)
    context_max_items: ContextMaxItems = field(default_factory=ContextMaxItems)
    source: Path | None = None

    @classmethod
    def defaults(cls, name: str) -> ButlerConfig:
        return cls(name=validate_butler_name(name), scope=name)


def validate_butler_name(name: object) -> str:
    """A butler name is also a file name: letters, digits, '_', '-', '.', at most 100, no '..'."""
    if not isinstance(name, str) or not BUTLER_NAME.fullmatch(name) or ".." in name:
        raise InvalidArgumentError(
            f"invalid butler name {name!r}",
            hint="use 1-100 letters, digits, '_', '-' or '.', starting with a letter or digit, without '..'",
        )
    return name


def butlers_dir(env: Mapping[str, str] | None = None) -> Path:
    """PYMEM_BUTLERS_DIR, else <user config dir>/pymem/butlers."""
    value = (os.environ if env is None else env).get("PYMEM_BUTLERS_DIR", "").strip()
    if value:
        return Path(value).expanduser()
    return Path(platformdirs.user_config_dir("pymem")) / "butlers"


def butler_file(name: str, directory: Path | None = None) -> Path | None:
    """The butler's file, or None when it has none; both layouts at once is an error."""
    base = butlers_dir() if directory is None else directory
    candidates = [p for p in (base / name / "butler.toml", base / f"{name}.toml") if p.is_file()]
    if len(candidates) > 1:
        raise InvalidArgumentError(
            f"butler {name!r} has two configuration files: {candidates[0]} and {candidates[1]}",
            hint="keep one of them",
        )
    return candidates[0] if candidates else None


_cache: dict[tuple[Path, str], tuple[Path, tuple[int, int, int], ButlerConfig]] = {}
_cache_lock = threading.Lock()


def load_butler(name: str, directory: Path | None = None) -> ButlerConfig:
    """The butler's configuration (defaults when it has no file); cached until the file changes."""
    validate_butler_name(name)
    base = (butlers_dir() if directory is None else directory).expanduser().absolute()
    path = butler_file(name, base)
    key = (base, name)
    if path is None:
        with _cache_lock:
            _cache.pop(key, None)
        return ButlerConfig.defaults(name)
    try:
        st = path.stat()
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidArgumentError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    with _cache_lock:
        cached = _cache.get(key)
        if cached is not None and cached[0] == path and cached[1] == stamp:
            return cached[2]
    config = parse_butler(name, data, path)
    with _cache_lock:
        _cache[key] = (path, stamp, config)
    return config


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def parse_butler(name: str, data: bytes | str, source: Path | None = None) -> ButlerConfig:
    """A ButlerConfig from the text of a butler.toml (source names the file in errors)."""
    validate_butler_name(name)
    where = str(source) if source is not None else f"butler {name!r}"
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        document = tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InvalidArgumentError(f"{where}: not valid TOML ({exc})") from exc
    return _Parser(where).config(name, document, source)


class _Parser:
    def __init__(self, where: str) -> None:
        self.where = where

    def error(self, key: str, message: str) -> InvalidArgumentError:
        return InvalidArgumentError(f"{self.where}: {key} {message}")

    def table(self, key: str, value: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(key, f"must be a table, not {type(value).__name__}")
        unknown = sorted(set(value) - set(allowed))
        if unknown:
            names = ", ".join(f"{key}.{k}" if key else k for k in unknown)
            raise InvalidArgumentError(
                f"{self.where}: unknown key{'s' if len(unknown) > 1 else ''} {names}",
                hint=f"allowed{' in ' + key if key else ''}: {', '.join(allowed)}",
            )
        return value

    def number(self, key: str, value: Any, low: float, high: float, *, low_open: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, f"must be a number, not {type(value).__name__}")
        number = float(value)
        if math.isnan(number) or number > high or number < low or (low_open and number <= low):
            bounds = f"{'>' if low_open else '>='} {low:g} and <= {high:g}"
            raise self.error(key, f"must be {bounds}, not {value}")
        return number

    def integer(self, key: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be an integer, not {type(value).__name__}")
        if not low <= value <= high:
            raise self.error(key, f"must be between {low} and {high}, not {value}")
        return value

    def config(self, name: str, document: dict[str, Any], source: Path | None) -> ButlerConfig:
        top = self.table("", document, ("scope", "episode_ttl_days", "score_weights", "context"))
        scope = top.get("scope", name)
        if not isinstance(scope, str) or not scope.strip() or len(scope) > MAX_SCOPE_LENGTH:
            raise self.error("scope", f"must be a non-empty string of at most {MAX_SCOPE_LENGTH} characters")
        ttl = self.number("episode_ttl_days", top.get("episode_ttl_days", 7.0), 0, MAX_TTL_DAYS, low_open=True)

        raw_weights = self.table(
            "score_weights", top.get("score_weights", {}), tuple(ScoreWeights.__dataclass_fields__)
        )
        weights = ScoreWeights(
            **{
                k: self.number(f"score_weights.{k}", v, 0, MAX_WEIGHT)
                for k, v in {**ScoreWeights().__dict__, **raw_weights}.items()
            }
        )
        if sum(weights.__dict__.values()) <= 0:
            raise self.error("score_weights", "must not all be 0 (memory_recall divides by their sum)")

        context = self.table("context", top.get("context", {}), ("token_budget", "quotas", "max_items"))
        budget = self.integer("context.token_budget", context.get("token_budget", 3000), 1, MAX_TOKEN_BUDGET)
        raw_quotas = self.table("context.quotas", context.get("quotas", {}), SECTIONS)
        quotas = ContextQuotas(
            **{
                k: self.number(f"context.quotas.{k}", v, 0, 1)
                for k, v in {**ContextQuotas().__dict__, **raw_quotas}.items()
            }
        )
        total = sum(quotas.__dict__.values())
        if total > 1 + 1e-9:
            parts = " + ".join(f"{k} {quotas.of(k):g}{'' if k in raw_quotas else ' (default)'}" for k in SECTIONS)
            raise self.error("context.quotas", f"must sum to at most 1, not {total:g} ({parts})")
        raw_items = self.table("context.max_items", context.get("max_items", {}), SECTIONS)
        max_items = ContextMaxItems(
            **{
                k: self.integer(f"context.max_items.{k}", v, 0, MAX_SECTION_ITEMS)
                for k, v in {**ContextMaxItems().__dict__, **raw_items}.items()
            }
        )
        return ButlerConfig(
            name=name,
            scope=scope,
            score_weights=weights,
            episode_ttl_days=ttl,
            context_token_budget=budget,
            context_quotas=quotas,
            context_max_items=max_items,
            source=source,
        )
