"""Unit-type symbols for the counters: NATO-style (APP-6) glyphs inside a rectangle, plus the
period types NATO lacks (armoured train, tachanka, cavalry army, warship and transport).

Every symbol is drawn in the canvas's current stroke and fill colours, inside the box with its
lower-left corner at (x, y), `w` wide and `h` high; an unknown type draws the box with a '?'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kitgen.render.fonts import SANS_BOLD

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Glyph = Callable[["Canvas", float, float, float, float, float], None]
"""Draws a type's glyph inside the box (x, y, w, h) with line width `lw`; the frame is drawn apart."""


def _line(c: Canvas, x0: float, y0: float, x1: float, y1: float) -> None:
    c.line(x0, y0, x1, y1)


def _diagonal(c: Canvas, x: float, y: float, w: float, h: float) -> None:
    """The cavalry (reconnaissance) stroke: lower left to upper right."""
    _line(c, x, y, x + w, y + h)


def _oval(c: Canvas, cx: float, cy: float, ow: float, oh: float, *, fill: bool = False) -> None:
    """A track: a rectangle with fully rounded ends, centred on (cx, cy)."""
    c.roundRect(cx - ow / 2, cy - oh / 2, ow, oh, oh / 2, stroke=1, fill=int(fill))


def _wheel(c: Canvas, cx: float, cy: float, r: float, *, fill: bool = False) -> None:
    c.circle(cx, cy, r, stroke=1, fill=int(fill))


def _infantry(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    _line(c, x, y, x + w, y + h)
    _line(c, x, y + h, x + w, y)


def _cavalry(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    _diagonal(c, x, y, w, h)


def _cavalry_army(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """Two cavalry strokes side by side, clipped to the box: a cavalry army (period type)."""
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    d = h * 0.2
    _line(c, x - d, y, x + w - d, y + h)
    _line(c, x + d, y, x + w + d, y + h)
    c.restoreState()


def _artillery(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    c.circle(x + w / 2, y + h / 2, min(w, h) * 0.17, stroke=0, fill=1)


def _armoured_car(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    _diagonal(c, x, y, w, h)
    _oval(c, x + w / 2, y + h / 2, w * 0.52, h * 0.42)


def _tank(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    _oval(c, x + w / 2, y + h / 2, w * 0.62, h * 0.5)


def _engineer_glyph(c: Canvas, cx: float, cy: float, gw: float, gh: float) -> None:
    """APP-6 engineers: a bar with three legs hanging from it, centred on (cx, cy)."""
    top, bottom = cy + gh / 2, cy - gh / 2
    _line(c, cx - gw / 2, top, cx + gw / 2, top)
    for fx in (-0.5, 0.0, 0.5):
        _line(c, cx + fx * gw, top, cx + fx * gw, bottom)


def _engineer(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    _engineer_glyph(c, x + w / 2, y + h / 2, w * 0.42, h * 0.4)


def _pontoon(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """Engineers between the two flared spans of the bridging sign."""
    cx, cy = x + w / 2, y + h / 2
    _engineer_glyph(c, cx, cy, w * 0.3, h * 0.28)
    bridging_sign(c, cx, cy, w * 0.3, h * 0.12, h * 0.3)


def bridging_sign(c: Canvas, cx: float, cy: float, span: float, flare: float, apart: float) -> None:
    """Two spans flared at their ends, `apart` above and below (cx, cy): the bridging sign of a
    pontoon unit and of a pontoon bridge marker."""
    for side in (1, -1):
        sy = cy + side * apart
        p = c.beginPath()
        p.moveTo(cx - span - flare, sy + side * flare)
        p.lineTo(cx - span, sy)
        p.lineTo(cx + span, sy)
        p.lineTo(cx + span + flare, sy + side * flare)
        c.drawPath(p, stroke=1, fill=0)


def _rails(c: Canvas, x0: float, x1: float, y: float, gauge: float, ties: int, lw: float) -> None:
    """Two rails `gauge` apart above y, with `ties` sleepers across them."""
    _line(c, x0, y, x1, y)
    _line(c, x0, y + gauge, x1, y + gauge)
    c.saveState()
    c.setLineWidth(lw * 0.8)
    for k in range(ties):
        tx = x0 + (x1 - x0) * (k + 0.5) / ties
        _line(c, tx, y - gauge * 0.35, tx, y + gauge * 1.35)
    c.restoreState()


def _rr_repair(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    _rails(c, x + w * 0.14, x + w * 0.86, y + h * 0.36, h * 0.28, 5, lw)


def _track_bed(c: Canvas, x: float, y: float, w: float, h: float) -> float:
    """The rail under a train; returns the rail's height."""
    ry = y + h * 0.18
    _line(c, x + w * 0.06, ry, x + w * 0.94, ry)
    return ry


def _rr_train(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """A locomotive in outline on its rail: boiler, cab, chimney and wheels."""
    ry = _track_bed(c, x, y, w, h)
    r = h * 0.08
    base = ry + 2 * r
    c.rect(x + w * 0.22, base, w * 0.36, h * 0.26, stroke=1, fill=0)  # boiler
    c.rect(x + w * 0.58, base, w * 0.2, h * 0.5, stroke=1, fill=0)  # cab
    c.rect(x + w * 0.27, base + h * 0.26, w * 0.06, h * 0.16, stroke=1, fill=0)  # chimney
    for fx in (0.3, 0.45, 0.68):
        _wheel(c, x + w * fx, ry + r, r, fill=True)


def _armoured_train(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """An armoured wagon, filled, with a gun turret, on its rail (period type)."""
    ry = _track_bed(c, x, y, w, h)
    r = h * 0.08
    base = ry + 2 * r
    p = c.beginPath()
    p.moveTo(x + w * 0.16, base)
    p.lineTo(x + w * 0.84, base)
    p.lineTo(x + w * 0.78, base + h * 0.3)
    p.lineTo(x + w * 0.22, base + h * 0.3)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    tx, ty = x + w * 0.5, base + h * 0.3
    c.wedge(tx - h * 0.14, ty - h * 0.14, tx + h * 0.14, ty + h * 0.14, 0, 180, stroke=1, fill=1)  # turret
    _line(c, tx, ty + h * 0.08, tx - w * 0.3, ty + h * 0.2)  # gun
    for fx in (0.26, 0.4, 0.6, 0.74):
        _wheel(c, x + w * fx, ry + r, r, fill=True)


def _tachanka(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """The cavalry stroke, broken by a cart on two wheels with a machine gun firing to the rear (period type)."""
    cx = x + w * 0.52
    x0, x1, y0, y1 = cx - w * 0.4, cx + w * 0.26, y + h * 0.1, y + h * 0.78  # the cart's room
    t0, t1 = max((x0 - x) / w, (y0 - y) / h), min((x1 - x) / w, (y1 - y) / h)
    _line(c, x, y, x + w * t0, y + h * t0)
    _line(c, x + w * t1, y + h * t1, x + w, y + h)
    r = h * 0.16
    deck = y + h * 0.44
    c.rect(cx - w * 0.22, deck, w * 0.44, h * 0.12, stroke=0, fill=1)  # the cart
    _wheel(c, cx - w * 0.13, deck - r * 0.55, r)
    _wheel(c, cx + w * 0.13, deck - r * 0.55, r)
    gx, gy = cx - w * 0.2, deck + h * 0.12
    c.rect(gx, gy, w * 0.12, h * 0.14, stroke=0, fill=1)  # the gun
    c.saveState()
    c.setLineWidth(lw * 1.2)
    _line(c, gx, gy + h * 0.09, x0, gy + h * 0.09)  # its barrel, pointing back
    c.restoreState()


def _hull(c: Canvas, x: float, y: float, w: float, h: float) -> float:
    """A ship's hull with a raked bow to the right, filled; returns the deck's height."""
    wl, deck = y + h * 0.2, y + h * 0.42
    p = c.beginPath()
    p.moveTo(x + w * 0.12, wl)
    p.lineTo(x + w * 0.8, wl)
    p.lineTo(x + w * 0.92, deck)
    p.lineTo(x + w * 0.06, deck)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    return deck


def _warship(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """A low grey-painted warship: turrets fore and aft with their guns, bridge, funnels, mast (period type)."""
    deck = _hull(c, x, y, w, h)
    c.rect(x + w * 0.38, deck, w * 0.22, h * 0.16, stroke=1, fill=1)  # superstructure
    c.rect(x + w * 0.42, deck + h * 0.16, w * 0.05, h * 0.14, stroke=1, fill=1)  # funnels
    c.rect(x + w * 0.51, deck + h * 0.16, w * 0.05, h * 0.14, stroke=1, fill=1)
    _line(c, x + w * 0.62, deck, x + w * 0.62, y + h * 0.9)  # mast
    for tx, direction in ((0.24, -1), (0.74, 1)):
        cx = x + w * tx
        c.rect(cx - w * 0.05, deck, w * 0.1, h * 0.1, stroke=1, fill=1)  # turret
        _line(c, cx, deck + h * 0.06, cx + direction * w * 0.14, deck + h * 0.06)  # gun


def _transport(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    """A tall-funnelled merchant ship with masts and derricks over her holds (period type)."""
    deck = _hull(c, x, y, w, h)
    c.rect(x + w * 0.44, deck, w * 0.14, h * 0.14, stroke=1, fill=1)  # bridge house
    c.rect(x + w * 0.48, deck + h * 0.14, w * 0.06, h * 0.26, stroke=1, fill=1)  # funnel
    for mx in (0.25, 0.76):
        m = x + w * mx
        _line(c, m, deck, m, y + h * 0.9)  # mast
        _line(c, m, y + h * 0.8, m + w * 0.1, deck + h * 0.04)  # derrick
        c.rect(m + w * 0.02, deck, w * 0.1, h * 0.06, stroke=1, fill=0)  # hatch


def _unknown(c: Canvas, x: float, y: float, w: float, h: float, lw: float) -> None:
    size = h * 0.75
    c.setFont(SANS_BOLD, size)
    c.drawCentredString(x + w / 2, y + h / 2 - size * 0.36, "?")


GLYPHS: dict[str, Glyph] = {
    "infantry": _infantry,
    "cavalry": _cavalry,
    "cavalry_army": _cavalry_army,
    "artillery": _artillery,
    "armoured_car": _armoured_car,
    "tank": _tank,
    "engineer": _engineer,
    "pontoon": _pontoon,
    "rr_repair": _rr_repair,
    "rr_train": _rr_train,
    "armoured_train": _armoured_train,
    "tachanka": _tachanka,
    "warship": _warship,
    "transport": _transport,
}
"""The drawn unit types: the unit types of movement.yaml and the period types of the counters."""


def unit_symbol(c: Canvas, type_id: str, x: float, y: float, w: float, h: float, *, line: float | None = None) -> None:
    """The symbol of unit type `type_id` in the box with lower-left corner (x, y), `w` by `h`, in the
    current stroke and fill colours; `line` is the stroke width (default in proportion to `h`).
    An unknown type draws the plain box with a '?'."""
    lw = line if line is not None else max(0.3, h * 0.06)
    c.saveState()
    c.setLineWidth(lw)
    c.setLineJoin(1)
    c.rect(x, y, w, h, stroke=1, fill=0)
    GLYPHS.get(type_id, _unknown)(c, x, y, w, h, lw)
    c.restoreState()
