"""The confidence chart, drawn on the server as inline SVG (no JavaScript, no chart library):
pymem.memory_confidence_curve computes every value; this only maps them to coordinates of the picture. The
template draws the chart (templates/_chart.html) and the same points as a table, for a screen reader."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pymem.dashboard.queries import CurvePoint

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 14, 40
Y_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class Tick:
    at: float  # the coordinate
    label: str


@dataclass(frozen=True)
class Chart:
    """An SVG chart of effective confidence over days since the last confirmation."""

    width: int
    height: int
    left: int
    right: int  # x of the plot's right edge
    top: int
    bottom: int  # y of the plot's bottom edge
    past: str  # polyline points up to now
    future: str  # polyline points from now on
    now_x: float | None
    floor: Tick | None  # where the memory falls below recall's confidence floor
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    summary: str  # the chart in words (its <desc>)


def _day_ticks(days: float) -> tuple[float, ...]:
    step = next((s for s in (1, 2, 5, 7, 10, 14, 30, 60, 90, 180, 365, 730) if days / s <= 6), 3650)
    return tuple(float(d) for d in range(0, int(days) + 1, step))


def confidence_chart(rows: Sequence[CurvePoint], now: datetime) -> Chart | None:
    """The chart of the curve's rows (None for fewer than two)."""
    if len(rows) < 2:
        return None
    days = max(rows[-1].day, 1e-9)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def to_x(day: float) -> float:
        return LEFT + day / days * plot_w

    def to_y(value: float) -> float:
        return TOP + (1 - value) * plot_h

    def line(points: Sequence[CurvePoint]) -> str:
        return " ".join(f"{to_x(p.day):.1f},{to_y(p.effective_confidence):.1f}" for p in points)

    past = [p for p in rows if not p.future]
    future = [p for p in rows if p.future]
    joined = past[-1:] + future  # the dashed part starts where the solid one ends
    now_day = (now - rows[0].at).total_seconds() / 86400
    fading = next((p for p in rows if not p.recallable), None)
    floor = Tick(to_x(fading.day), f"not recalled from {fading.at:%Y-%m-%d}") if fading else None
    first, last = rows[0], rows[-1]
    summary = (
        f"Effective confidence {first.effective_confidence:.2f} at the last confirmation ({first.at:%Y-%m-%d}),"
        f" {min(rows, key=lambda p: abs(p.day - now_day)).effective_confidence:.2f} now,"
        f" {last.effective_confidence:.2f} on {last.at:%Y-%m-%d}"
        + (
            f"; not recalled from {fading.at:%Y-%m-%d} (below recall's confidence floor, superseded, retracted,"
            " forgotten or kept for review)."
            if fading
            else "; recallable throughout."
        )
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        past=line(past),
        future=line(joined) if future else "",
        now_x=to_x(now_day) if 0 <= now_day <= days else None,
        floor=floor,
        x_ticks=tuple(Tick(to_x(d), f"{d:g}") for d in _day_ticks(days)),
        y_ticks=tuple(Tick(to_y(v), f"{v:g}") for v in Y_TICKS),
        summary=summary,
    )
