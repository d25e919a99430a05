"""Jinja filters: how the pages write times, durations and scores (presentation only)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import jinja2

NONE = "\u2013"  # an en dash: what a page shows for no value


def when(value: datetime | None) -> str:
    """A moment, in UTC to the minute ('2026-11-26 14:05 UTC'); NONE for none."""
    return NONE if value is None else value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def day(value: datetime | None) -> str:
    """A moment's date, in UTC ('2026-11-26'); NONE for none."""
    return NONE if value is None else value.astimezone(UTC).strftime("%Y-%m-%d")


def age(value: timedelta | None) -> str:
    """A duration, roughly ('3 d', '5 h', '12 min', '40 s'); NONE for none."""
    if value is None:
        return NONE
    seconds = value.total_seconds()
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


def score(value: float | None, digits: int = 3) -> str:
    """A number in [0, 1] as the pages show it (3 decimals; NONE for none)."""
    return NONE if value is None else f"{value:.{digits}f}"


def rank(value: int | None) -> str:
    """A search leg's rank (NONE: the leg did not find it)."""
    return NONE if value is None else str(value)


def environment(templates: Any) -> jinja2.Environment:
    """The templates' environment: autoescaped, strict about undefined names, with the filters above."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates), autoescape=True, undefined=jinja2.StrictUndefined
    )
    env.filters.update(when=when, day=day, age=age, score=score, rank=rank)
    return env
