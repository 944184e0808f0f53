"""The map's furniture: sea and region names, the north arrow, the turn record track and the
check bar. None of it has a game meaning; all of it is placed by hex (layouts/map.yaml) or
drawn at a given point, in points, on any reportlab canvas."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, text_width
from kitgen.render.halo import halo_runs
from kitgen.render.mapart import Canvas, MapArt, hex_colour
from kitgen.render.style import NameStyle

MM = 72 / 25.4


@dataclass(frozen=True)
class PlacedName:
    text: str
    kind: str
    hex: str
    x: float
    """Centre of the name, in map points."""
    y: float
    """Baseline of the name, in map points."""
    width: float


def spaced_width(text: str, font: str, size: float, tracking: float) -> float:
    """Width of `text` with `tracking` ems after every letter but the last."""
    return text_width(text, font, size) + tracking * size * max(len(text) - 1, 0)


def placed_names(art: MapArt) -> list[PlacedName]:
    """The scenario's sea and region names where layouts/map.yaml puts them: centred on their
    hex, the baseline a little above its centre (clear of the hex ids, which sit at the top of a
    hex, and of the half-hex-lower ids of the next columns). A hex not on the board is skipped."""
    furniture = art.style.furniture
    found = []
    for name in furniture.names.get(art.s.meta.id, []):
        if name.hex not in art.centres:
            continue
        look = furniture.sea_name if name.kind == "sea" else furniture.region_name
        text = name.text.upper()
        x, y = art.centres[name.hex]
        width = spaced_width(text, SANS_ITALIC, look.size, look.tracking)
        found.append(PlacedName(text, name.kind, name.hex, float(x), float(y) + 0.03 * art.hex_pt, width))
    return found


def draw_names(c: Canvas, art: MapArt) -> None:
    """Sea and region names in a spaced italic, haloed in the paper's colour."""
    furniture = art.style.furniture
    for name in placed_names(art):
        look = furniture.sea_name if name.kind == "sea" else furniture.region_name
        spaced_text(c, name.text, name.x, name.y, look, halo=art.style.colours.halo)


def spaced_text(c: Canvas, text: str, cx: float, y: float, look: NameStyle, *, halo: str) -> None:
    width = spaced_width(text, SANS_ITALIC, look.size, look.tracking)
    c.saveState()
    c.setStrokeColorRGB(*hex_colour(halo))
    c.setLineWidth(look.size * 0.22)
    c.setLineJoin(1)
    c.setFillColorRGB(*hex_colour(look.colour))
    t = c.beginText()
    t.setFont(SANS_ITALIC, look.size)
    t.setCharSpace(look.tracking * look.size)
    halo_runs(t, text, cx - width / 2, y)
    c.drawText(t)
    c.restoreState()


def north_arrow_at(art: MapArt) -> tuple[float, float, float] | None:
    """(x, y, length) of the scenario's north arrow on the map, or None where it has none."""
    arrow = art.style.furniture.north_arrow.get(art.s.meta.id)
    if arrow is None or arrow.hex not in art.centres:
        return None
    x, y = art.centres[arrow.hex]
    return float(x), float(y), arrow.size_in * 72


COMPASS = 0.62
"""The compass hexagon's inradius, as a share of the north arrow's length."""
SIDE_LABEL = 0.23
"""The six sides' names' size, as a share of the north arrow's length: 7 pt or more where a battle
sheet shows the map at half its size."""


def compass_reach(length: float) -> float:
    """How far the compass reaches from its centre, its sides' names included."""
    return length * (COMPASS + SIDE_LABEL * 1.9)


def draw_north_arrow(c: Canvas, x: float, y: float, length: float) -> None:
    """The map's compass centred on (x, y): a north arrow, `length` tall (a half-filled dart; the
    key says that north runs along the central meridian), in a hexagon lying as the map's hexes
    lie, its six sides named N, NE, SE, S, SW, NW as the order form's steps name them."""
    half = length / 2
    wing = length * 0.22
    c.saveState()
    c.setLineWidth(0.8)
    c.setLineJoin(1)
    c.setStrokeColorRGB(0.12, 0.12, 0.12)
    inradius = length * COMPASS
    corner = inradius / math.cos(math.radians(30))
    hexagon = c.beginPath()  # an outline only: the map shows through, so it reads as no hex of the board
    for k in range(7):
        a = math.radians(60 * k)
        (hexagon.moveTo if k == 0 else hexagon.lineTo)(x + corner * math.cos(a), y + corner * math.sin(a))
    c.setDash(3, 2)
    c.drawPath(hexagon, stroke=1, fill=0)
    c.setDash()
    for side, fill in ((-1, (0.12, 0.12, 0.12)), (1, (1, 1, 1))):
        c.setFillColorRGB(*fill)
        path = c.beginPath()
        path.moveTo(x, y + half)
        path.lineTo(x + side * wing, y - half)
        path.lineTo(x, y - half * 0.55)
        path.close()
        c.drawPath(path, stroke=1, fill=1)
    size = length * SIDE_LABEL
    c.setStrokeColorRGB(1, 1, 1)
    c.setLineWidth(size * 0.25)
    t = c.beginText()
    t.setFont(SANS_BOLD, size)
    reach = inradius + size * 0.95
    for k, name in enumerate(DIRECTION_NAMES):
        a = math.radians(90 - 60 * k)
        cx, cy = x + reach * math.cos(a), y + reach * math.sin(a)
        width = text_width(name, SANS_BOLD, size)
        halo_runs(t, name, cx - width / 2, cy - size * 0.36, halo_fill=(1, 1, 1), fill=(0.12, 0.12, 0.12))
    c.drawText(t)
    c.restoreState()


def draw_map_furniture(c: Canvas, art: MapArt) -> None:
    """Names and the north arrow on the map, the frame's bottom-left corner at the origin."""
    draw_names(c, art)
    arrow = north_arrow_at(art)
    if arrow is not None:
        draw_north_arrow(c, *arrow)


def turn_box_size(counter_mm: float, over_mm: float) -> float:
    """A turn box's side, in points: a counter and a little room round it."""
    return (counter_mm + over_mm) * MM


def draw_turn_track(
    c: Canvas,
    x: float,
    top: float,
    *,
    turns: int,
    per_row: int,
    box: float,
    every: int,
    dates: Sequence[str] = (),
    last: int | None = None,
) -> list[tuple[int, float, float, float]]:
    """The turn record track: boxes numbered 1..turns, `per_row` a row, the first row's top at
    `top`; every `every`-th box shaded and marked VP (towns score); each box dated with its
    turn's first day from `dates`, and the scenario's `last` turn marked END. Returns (turn, x,
    y, side) of each box, bottom-left corner."""
    boxes = []
    c.saveState()
    c.setLineWidth(0.8)
    c.setStrokeColorRGB(0.12, 0.12, 0.12)
    for n in range(1, turns + 1):
        row, col = divmod(n - 1, per_row)
        bx, by = x + col * box, top - (row + 1) * box
        scoring = every > 0 and n % every == 0
        c.setFillColorRGB(*((0.85, 0.85, 0.85) if scoring else (1, 1, 1)))
        c.rect(bx, by, box, box, stroke=1, fill=1)
        c.setFillColorRGB(0.12, 0.12, 0.12)
        c.setFont(SANS_BOLD, 9)
        c.drawString(bx + 3, by + box - 11, str(n))
        if n == last:
            c.drawRightString(bx + box - 3, by + box - 11, "END")
        if scoring:
            c.setFont(SANS_BOLD, 7)
            c.drawRightString(bx + box - 3, by + 3, "VP")
        if n <= len(dates):
            room = box - 6 - (text_width("VP", SANS_BOLD, 7) + 2 if scoring else 0)
            date = dates[n - 1]
            lines = [date] if text_width(date, SANS, 7) <= room else date.rsplit(" ", 1)  # the year under it
            c.setFont(SANS, 7)
            for k, line in enumerate(lines):
                c.drawString(bx + 3, by + 3 + (len(lines) - 1 - k) * 8, line)
        boxes.append((n, bx, by, box))
    c.restoreState()
    return boxes


def draw_check_bar(c: Canvas, x: float, y: float, length_mm: float) -> tuple[float, float]:
    """A bar `length_mm` long from (x, y), ticked every 10 mm, to check the print's scale.
    Returns the bar's two ends' x."""
    length = length_mm * MM
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setFillColorRGB(0, 0, 0)
    c.setLineWidth(0.5)
    c.rect(x, y, length, 2.2, stroke=1, fill=1)
    for i in range(0, int(length_mm // 10) + 1):
        tx = x + i * 10 * MM
        c.line(tx, y, tx, y + (5 if i % 5 == 0 else 3.5))
    c.setFont(SANS, 7)
    c.drawRightString(x - 4, y, f"check: this bar measures {length_mm:g} mm")
    c.restoreState()
    return x, x + length
