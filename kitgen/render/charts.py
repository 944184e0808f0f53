"""Vector charts on a reportlab canvas, for the chronicle: lines of a figure over the turns (one a
faction, each with its colour, its own dash and its mark at the points, so that they part in
grayscale), or stacked bars (one layer a kind, each with its colour and its own hatching).
Drawn with plain canvas calls, so that every label is placed where it cannot meet another."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kitgen.render.pages import faction_mark, hex_colour, ink_on

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Box = tuple[float, float, float, float]
FACTIONS = ("reds", "whites", "ukrainians", "makhnovists")
"""Keys drawn with their faction's mark; any other key gets a shape of `SHAPES`."""
DASHES: tuple[tuple[float, ...], ...] = ((), (5.0, 2.0), (1.5, 1.5), (6.0, 2.0, 1.5, 2.0), (3.0, 3.0))
SHAPES = ("circle", "square", "triangle", "diamond", "cross")
HATCHES = ("none", "right", "left", "cross", "level", "upright", "dots", "grid")
INK = (0.1, 0.1, 0.1)
GRID = (0.82, 0.82, 0.82)


@dataclass(frozen=True)
class Series:
    label: str
    """In the legend: a faction's name, a stand kind."""
    key: str
    """A faction's id (its mark at the points), or any other word (a shape)."""
    colour: str
    values: tuple[float | None, ...]
    """One a turn of the chart's `xs`; None: no point."""
    pattern: int | None = None
    """Its hatching (`HATCHES`) or dash and shape, where it must not follow its place in the
    chart: the same kind hatched alike in every faction's bars, all in the faction's colour."""


@dataclass(frozen=True)
class Chart:
    title: str
    y_label: str
    xs: tuple[int, ...]
    series: tuple[Series, ...]
    kind: Literal["line", "bars"] = "line"
    """bars: stacked, a layer a series."""
    x_label: str = "Turn"


@dataclass(frozen=True)
class Plotted:
    """What was drawn, for the tests: per series label, (x, value, page x, page y) of each point
    (a bar's segment: its top), and the plot area in page points."""

    points: dict[str, tuple[tuple[int, float, float, float], ...]]
    plot_box: Box


def nice_top(high: float) -> tuple[float, float]:
    """An axis top at or over `high` and its tick step: 1, 2 or 5 times a power of ten, 4 to 6 ticks."""
    if high <= 0:
        return 1.0, 1.0
    for exp in range(-1, 12):
        for m in (1, 2, 5):
            step = m * 10.0**exp
            if step >= 1 and math.ceil(high / step) <= 5:
                return step * max(1, math.ceil(high / step)), step
    return high, high


def x_step(count: int, room: float, width: float) -> int:
    """Turns between labelled ticks: every turn if their labels fit, else 2, 5, 10, 20..."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if room / max(1, count / step) >= width * 1.8:
            return step
    return 1000


def draw_chart(c: Canvas, chart: Chart, box: Box, *, font_size: float = 8.0) -> Plotted:
    """The chart inside `box` (x0, y0, x1, y1 in page points, y up): title, legend, axes, grid,
    then the lines or bars."""
    register_fonts()
    x0, y0, x1, y1 = box
    small = max(7.0, font_size - 0.5)
    c.saveState()
    c.setFillColorRGB(*INK)
    c.setFont(SANS_BOLD, font_size + 1)
    title = _fit(chart.title, SANS_BOLD, font_size + 1, x1 - x0)
    c.drawString(x0, y1 - font_size - 1, title)
    top = y1 - font_size * 1.9
    rows = _legend_rows(chart, x1 - x0, small)
    legend_h = len(rows) * small * 1.6
    _legend(c, chart, rows, x0, top - small, small)
    top -= legend_h + small * 0.6
    values = [v for s in chart.series for v in s.values if v is not None]
    if chart.kind == "bars":
        sums = [sum(s.values[k] or 0.0 for s in chart.series) for k in range(len(chart.xs))]
        high, low = max(sums, default=0.0), 0.0
    else:
        high, low = max(values, default=0.0), min(0.0, *values) if values else 0.0
    ymax, step = nice_top(high)
    ymin = -nice_top(-low)[0] if low < 0 else 0.0
    tick_w = max(text_width(_num(v), SANS, small) for v in _ticks(ymin, ymax, step))
    px0 = x0 + small * 1.6 + tick_w + 3
    px1 = x1 - 2
    py0 = y0 + small * 3.0
    py1 = top
    plot = (px0, py0, px1, py1)
    if py1 - py0 < small * 3 or not chart.xs:
        c.setFont(SANS, small)
        c.drawString(x0, (y0 + top) / 2, "Nothing to show yet.")
        c.restoreState()
        return Plotted({}, plot)
    n = len(chart.xs)

    pad = small * 0.9  # a marker at the first turn or at 0 stands clear of the axes and their figures

    def fx(k: float) -> float:
        if chart.kind == "bars":
            return px0 + (k + 0.5) * (px1 - px0) / n
        return px0 + pad + (px1 - px0 - 2 * pad) * (k / (n - 1) if n > 1 else 0.5)

    def fy(v: float) -> float:
        return py0 + pad + (py1 - py0 - pad) * (v - ymin) / (ymax - ymin)

    _axes(c, chart, plot, ymin, ymax, step, fx, fy, small)
    if not chart.series or not values:
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.setFont(SANS, small)
        c.drawCentredString((px0 + px1) / 2, (py0 + py1) / 2, "nothing to show")
        c.restoreState()
        return Plotted({s.label: () for s in chart.series}, plot)
    bars = chart.kind == "bars"
    points = _bars(c, chart, fx, fy, (px1 - px0) / n * 0.7) if bars else _lines(c, chart, fx, fy, small)
    c.restoreState()
    return Plotted(points, plot)


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _ticks(low: float, high: float, step: float) -> list[float]:
    count = round((high - low) / step)
    return [low + k * step for k in range(count + 1)]


def _fit(text: str, font: str, size: float, width: float) -> str:
    if text_width(text, font, size) <= width:
        return text
    while text and text_width(text + "...", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def _legend_rows(chart: Chart, width: float, size: float) -> list[list[tuple[Series, float]]]:
    """The legend's entries in rows that fit the width: each a swatch and its label."""
    rows: list[list[tuple[Series, float]]] = [[]]
    used = 0.0
    for s in chart.series:
        w = size * 3.2 + text_width(s.label, SANS, size) + size * 1.2
        if rows[-1] and used + w > width:
            rows.append([])
            used = 0.0
        rows[-1].append((s, used))
        used += w
    return [r for r in rows if r]


def _legend(c: Canvas, chart: Chart, rows: list[list[tuple[Series, float]]], x: float, y: float, size: float) -> None:
    for n, row in enumerate(rows):
        base = y - n * size * 1.6
        for s, at in row:
            index = chart.series.index(s)
            sx = x + at
            if chart.kind == "bars":
                _swatch(c, s, _pattern(s, index), sx, base - 1, size * 2.4, size * 1.1)
            else:
                _line_style(c, s, index, 1.4)
                c.line(sx, base + size * 0.32, sx + size * 2.4, base + size * 0.32)
                c.setDash()
                _marker(c, s, index, sx + size * 1.2, base + size * 0.32, size * 0.95)
            c.setFillColorRGB(*INK)
            c.setFont(SANS, size)
            c.drawString(sx + size * 2.9, base, s.label)


def _axes(
    c: Canvas,
    chart: Chart,
    plot: Box,
    ymin: float,
    ymax: float,
    step: float,
    fx: Callable[[float], float],
    fy: Callable[[float], float],
    size: float,
) -> None:
    """Grid lines and ticks: the value axis labelled at each tick, the turns at a step their
    labels fit at; the axes' names."""
    px0, py0, px1, py1 = plot
    c.setLineWidth(0.4)
    for v in _ticks(ymin, ymax, step):
        y = fy(v)
        c.setStrokeColorRGB(*(INK if v == 0 else GRID))
        c.line(px0, y, px1, y)
        c.setFillColorRGB(*INK)
        c.setFont(SANS, size)
        c.drawRightString(px0 - 2.5, y - size * 0.35, _num(v))
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.6)
    c.line(px0, py0, px0, py1)
    c.line(px0, py0, px1, py0)
    widest = max(text_width(str(x), SANS, size) for x in chart.xs)
    every = x_step(len(chart.xs), px1 - px0, widest)
    c.setFont(SANS, size)
    for k, x in enumerate(chart.xs):
        if k and x % every:
            continue
        cx = fx(k)
        c.line(cx, py0, cx, py0 - 2.5)
        c.drawCentredString(cx, py0 - 2.5 - size, str(x))
    c.drawCentredString((px0 + px1) / 2, py0 - size * 2.7, chart.x_label)
    c.saveState()
    c.translate(
        px0 - size * 0.6 - max(text_width(_num(v), SANS, size) for v in _ticks(ymin, ymax, step)) - 3, (py0 + py1) / 2
    )
    c.rotate(90)
    c.drawCentredString(0, 0, chart.y_label)
    c.restoreState()


def _line_style(c: Canvas, s: Series, index: int, width: float) -> None:
    c.setStrokeColorRGB(*hex_colour(s.colour))
    c.setLineWidth(width)
    dash = DASHES[index % len(DASHES)]
    if dash:
        c.setDash(list(dash))
    else:
        c.setDash()


def _lines(
    c: Canvas, chart: Chart, fx: Callable[[float], float], fy: Callable[[float], float], size: float
) -> dict[str, tuple[tuple[int, float, float, float], ...]]:
    """Each series as a line over a thin white casing (where lines cross each stays whole), its
    marker every few points (every one when there are few)."""
    points: dict[str, tuple[tuple[int, float, float, float], ...]] = {}
    n = len(chart.xs)
    every = 1 if n <= 30 else math.ceil(n / 20)
    for index, s in enumerate(chart.series):
        lift = _lifts(chart.series, index, size * 0.5)

        def y_of(v: float, k: int, lift: list[float] = lift) -> float:
            return fy(v) + lift[k]

        pts = [(chart.xs[k], float(v), fx(k), y_of(float(v), k)) for k, v in enumerate(s.values) if v is not None]
        points[s.label] = tuple(pts)
        runs = _runs(s.values)
        for run in runs:
            if len(run) < 2:
                continue
            for width, white in ((3.2, True), (1.6, False)):
                if white:
                    c.setStrokeColorRGB(1, 1, 1)
                    c.setLineWidth(width)
                    c.setDash()
                else:
                    _line_style(c, s, index, width)
                c.setLineJoin(1)
                p = c.beginPath()
                p.moveTo(fx(run[0]), y_of(float(s.values[run[0]] or 0), run[0]))
                for k in run[1:]:
                    p.lineTo(fx(k), y_of(float(s.values[k] or 0), k))
                c.drawPath(p, stroke=1, fill=0)
        c.setDash()
        for k, v in enumerate(s.values):
            if v is not None and (k % every == 0 or k == n - 1):
                _marker(c, s, index, fx(k), y_of(float(v), k), size * 0.95)
    return points


def _lifts(series: Sequence[Series], index: int, step: float) -> list[float]:
    """How far series `index` is drawn above its values, point by point: a step for each series
    before it with the same value there, so that lines that coincide (no failed rolls for
    three factions) stay side by side, each seen."""
    own = series[index].values
    return [
        0.0 if v is None else step * sum(1 for other in series[:index] if other.values[k] == v)
        for k, v in enumerate(own)
    ]


def _pattern(s: Series, index: int) -> int:
    return index if s.pattern is None else s.pattern


def _runs(values: Sequence[float | None]) -> list[list[int]]:
    """The indices of each stretch of values with no gap."""
    runs: list[list[int]] = [[]]
    for k, v in enumerate(values):
        if v is None:
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append(k)
    return [r for r in runs if r]


def _marker(c: Canvas, s: Series, index: int, x: float, y: float, size: float) -> None:
    """A point: a faction's mark on a disc of its colour; any other series its shape."""
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.4)
    c.setFillColorRGB(*hex_colour(s.colour))
    if s.key in FACTIONS:
        c.circle(x, y, size * 0.62, stroke=1, fill=1)
        c.setFillColorRGB(*ink_on(s.colour))
        faction_mark(c, s.key, x, y, size * 0.78)
        return
    shape = SHAPES[index % len(SHAPES)]
    r = size * 0.5
    p = c.beginPath()
    if shape == "circle":
        c.circle(x, y, r, stroke=1, fill=1)
        return
    if shape == "square":
        c.rect(x - r, y - r, 2 * r, 2 * r, stroke=1, fill=1)
        return
    corners = {
        "triangle": [(0, 1.1), (0.95, -0.6), (-0.95, -0.6)],
        "diamond": [(0, 1.15), (1.0, 0), (0, -1.15), (-1.0, 0)],
        "cross": [
            (-0.35, 1),
            (0.35, 1),
            (0.35, 0.35),
            (1, 0.35),
            (1, -0.35),
            (0.35, -0.35),
            (0.35, -1),
            (-0.35, -1),
            (-0.35, -0.35),
            (-1, -0.35),
            (-1, 0.35),
            (-0.35, 0.35),
        ],
    }[shape]
    p.moveTo(x + corners[0][0] * r, y + corners[0][1] * r)
    for cx, cy in corners[1:]:
        p.lineTo(x + cx * r, y + cy * r)
    p.close()
    c.drawPath(p, stroke=1, fill=1)


def _bars(
    c: Canvas, chart: Chart, fx: Callable[[float], float], fy: Callable[[float], float], width: float
) -> dict[str, tuple[tuple[int, float, float, float], ...]]:
    """Stacked bars, a layer a series from the bottom up, each its colour and its hatching."""
    points: dict[str, list[tuple[int, float, float, float]]] = {s.label: [] for s in chart.series}
    for k, x in enumerate(chart.xs):
        base = 0.0
        cx = fx(k)
        for index, s in enumerate(chart.series):
            v = s.values[k] or 0.0
            if v <= 0:
                continue
            top = base + v
            _swatch(c, s, _pattern(s, index), cx - width / 2, fy(base), width, fy(top) - fy(base))
            points[s.label].append((x, top, cx, fy(top)))
            base = top
    return {label: tuple(p) for label, p in points.items()}


def _swatch(c: Canvas, s: Series, index: int, x: float, y: float, w: float, h: float) -> None:
    """A bar's segment (or the legend's swatch): its colour, its hatching in the ink that reads
    on it, a dark edge."""
    c.setFillColorRGB(*hex_colour(s.colour))
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.4)
    c.rect(x, y, w, h, stroke=0, fill=1)
    hatch = HATCHES[index % len(HATCHES)]
    if hatch != "none" and h > 0.5:
        c.saveState()
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColorRGB(*ink_on(s.colour))
        c.setLineWidth(0.45)
        gap = 2.6
        span = w + h
        if hatch in ("right", "cross"):
            for k in range(int(span / gap) + 2):
                d = k * gap
                c.line(x + d - h, y, x + d, y + h)
        if hatch in ("left", "cross"):
            for k in range(int(span / gap) + 2):
                d = k * gap
                c.line(x + d, y, x + d - h, y + h)
        if hatch in ("level", "grid"):
            for k in range(int(h / gap) + 1):
                c.line(x, y + k * gap, x + w, y + k * gap)
        if hatch in ("upright", "grid"):
            for k in range(int(w / gap) + 1):
                c.line(x + k * gap, y, x + k * gap, y + h)
        if hatch == "dots":
            c.setFillColorRGB(*ink_on(s.colour))
            for i in range(int(w / gap) + 1):
                for j in range(int(h / gap) + 1):
                    c.circle(x + i * gap + gap / 2, y + j * gap + gap / 2, 0.45, stroke=0, fill=1)
        c.restoreState()
    c.rect(x, y, w, h, stroke=1, fill=0)
