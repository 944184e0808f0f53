"""A chronicle's map of one turn, as values and drawn over the whole clean map: towns by owner,
units as blocks by faction, each move as an arrow (by road, rail or sea), battles numbered with
their winner, and wrecked track. `kitgen.products.chronicle` decides what goes in it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from kitgen.render.fonts import SANS_BOLD, text_width
from kitgen.render.labels import meets
from kitgen.render.pages import faction_mark, hex_colour, ink_on, luminance
from kitgen.render.unitmarks import draw_dot, draw_frame, faded

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.mapart import MapArt

By = Literal["land", "rail", "sea"]


@dataclass(frozen=True)
class Block:
    """A faction's units in a hex at the turn's end: `count` of them (0: a stack seen, of no
    known count); `seen` the turn a remembered stack was last seen (None: seen now)."""

    hex: str
    faction: str
    count: int
    seen: int | None = None


@dataclass(frozen=True)
class Arrow:
    """A move of the turn along its hexes: a unit's march, a train's run or a ship's voyage."""

    faction: str
    hexes: tuple[str, ...]
    by: By
    label: str = ""
    """The piece's name as its counter prints it, on a move that mattered the edition knows whole."""
    bold: bool = False
    """A move that mattered: it ended where a battle was fought or a town changed hands."""


@dataclass(frozen=True)
class BattleMark:
    number: int
    """Its number in the turn, as the narrative tells it."""
    hex: str
    winner: str | None
    """The winning side's faction (its first), None if no side is known to have won."""


@dataclass(frozen=True)
class TurnMap:
    """One turn's map for the umpire (`viewer` None) or a faction: what it shows, as values."""

    turn: int
    viewer: str | None
    owners: Mapping[str, str]
    """Town -> owner, for the towns whose owner the viewer knows at the turn's end."""
    remembered: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    """Town -> (owner, turn last seen), for towns the viewer saw before and not now."""
    blocks: tuple[Block, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    battles: tuple[BattleMark, ...] = ()
    wrecked: tuple[str, ...] = ()
    front: tuple[tuple[str, str], ...] = ()
    """The hexsides (pairs of hexes) between ground each side holds, as the viewer knows it."""

    def hexes(self) -> set[str]:
        """Every hex the map marks, for the tests."""
        found = {b.hex for b in self.blocks} | {b.hex for b in self.battles} | set(self.wrecked)
        return found | {h for a in self.arrows for h in a.hexes}


@dataclass(frozen=True)
class TurnMapStyle:
    """Sizes on the page, in points, whatever the map's scale."""

    block: float = 9.0
    block_font: float = 7.0
    roundel: float = 3.2
    arrow: float = 1.1
    head: float = 4.2
    battle: float = 8.5
    battle_font: float = 7.0
    cross: float = 2.6


def style_for(hex_on_page: float) -> TurnMapStyle:
    """The marks' sizes for a map whose hexes are `hex_on_page` points across: the least where
    the hexes are small (a big map fitted to the page), up to 1.8 times that on a small map."""
    from dataclasses import fields, replace

    base = TurnMapStyle()
    f = min(1.8, max(1.0, hex_on_page / 17.0))
    return replace(base, **{x.name: getattr(base, x.name) * f for x in fields(base) if not x.name.endswith("font")})


BOLD = 1.8
"""How much wider a move that mattered is drawn."""
DASHES: dict[By, tuple[float, ...]] = {"land": (), "rail": (6.0, 3.0), "sea": (2.0, 2.0)}
"""A march solid, a train's run dashed, a voyage dotted: told apart without colour."""


def draw_turn_map(
    c: Canvas,
    art: MapArt,
    tm: TurnMap,
    colours: Mapping[str, str],
    s: float,
    st: TurnMapStyle = TurnMapStyle(),
    within: tuple[float, float, float, float] | None = None,
) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The turn's marks over the clean map, the canvas already scaled by `s` to the page: owners,
    wrecked track, arrows, blocks, battles, in that order (a battle's mark on top); a block or
    battle near the edge of `within` (map points: the part of the map shown) drawn a little in
    from it, whole. Returns the (what, box in map points) of each block and battle mark."""
    drawn: list[tuple[str, tuple[float, float, float, float]]] = []
    k = 1.0 / s
    box = within
    _owners(c, art, tm, colours, st, k)
    for h in tm.wrecked:
        if h in art.centres:
            x, y = (float(v) for v in art.centres[h])
            r = st.cross * k
            for colour, width in (("#FFFFFF", 1.6 * k), ("#000000", 0.7 * k)):
                c.setStrokeColorRGB(*hex_colour(colour))
                c.setLineWidth(width)
                c.line(x - r, y - r, x + r, y + r)
                c.line(x - r, y + r, x + r, y - r)
    _front(c, art, tm.front, st, k)
    for arrow in tm.arrows:
        _arrow(c, art, arrow, colours.get(arrow.faction, "#8C8C8C"), st, k)
    for block, (x, y) in _spots(art, tm.blocks, st.block * k):
        colour = colours.get(block.faction, "#8C8C8C")
        size = st.block * k
        if box is not None:
            x, y = _kept_in(box, x, y, size / 2 + 0.6 * k)
        if block.seen is not None:
            _remembered(c, block, colour, x, y, size, st.block_font * k, tm.turn + 1 - block.seen)
        elif block.count == 0:
            _glimpsed(c, block.faction, colour, x, y, size)
        else:
            draw_dot(c, block.faction, colour, x, y, size, block.count, st.block_font * k)
        drawn.append((f"block {block.faction} {block.hex}", (x - size / 2, y - size / 2, x + size / 2, y + size / 2)))
    for b in tm.battles:
        if b.hex in art.centres:
            taken = [mark for _, mark in drawn]  # the blocks, and the battles placed before it
            drawn.append((f"battle {b.number}", _battle(c, art, b, colours, st, k, box, taken)))
    return drawn


FRONT = "#7A1F2B"
"""The front line's ink: a dark claret no faction, terrain or water uses."""


def _front(c: Canvas, art: MapArt, sides: Sequence[tuple[str, str]], st: TurnMapStyle, k: float) -> None:
    """The front: each of its hexsides a heavy dashed line over a white casing."""
    lines = [art.hexside(*pair) for pair in sides if pair[0] in art.centres and pair[1] in art.centres]
    if not lines:
        return
    for width, ink, dash in ((st.arrow * 3.4 * k, "#FFFFFF", None), (st.arrow * 1.9 * k, FRONT, (3.0 * k, 1.6 * k))):
        c.setStrokeColorRGB(*hex_colour(ink))
        c.setLineWidth(width)
        c.setLineCap(0)
        c.setDash(list(dash)) if dash else c.setDash()
        p = c.beginPath()
        for a, b in lines:
            p.moveTo(float(a[0]), float(a[1]))
            p.lineTo(float(b[0]), float(b[1]))
        c.drawPath(p, stroke=1, fill=0)
    c.setDash()


def _kept_in(box: tuple[float, float, float, float], x: float, y: float, half: float) -> tuple[float, float]:
    """(x, y) moved just enough that a mark `half` across each way lies inside `box`."""
    return min(max(x, box[0] + half), box[2] - half), min(max(y, box[1] + half), box[3] - half)


def _spots(art: MapArt, blocks: Sequence[Block], size: float) -> list[tuple[Block, tuple[float, float]]]:
    """Each block's centre: alone in its hex at the centre, else side by side across it."""
    by_hex: dict[str, list[Block]] = {}
    for b in blocks:
        if b.hex in art.centres:
            by_hex.setdefault(b.hex, []).append(b)
    found = []
    for h, here in by_hex.items():
        cx, cy = (float(v) for v in art.centres[h])
        for n, b in enumerate(here):
            found.append((b, (cx + (n - (len(here) - 1) / 2) * size * 1.08, cy)))
    return found


def _glimpsed(c: Canvas, faction: str, colour: str, x: float, y: float, size: float) -> None:
    """A stack seen from the next hex, of no known count: hatched, as the packets draw it, its
    faction's mark on a patch of its colour in the middle."""
    draw_frame(c, x - size / 2, y - size / 2, size, size, colour, size * 0.04)
    c.saveState()
    p = c.beginPath()
    p.rect(x - size / 2, y - size / 2, size, size)
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColorRGB(*ink_on(colour))
    c.setLineWidth(size * 0.06)
    step = size * 0.28
    n = -size
    while n < size:
        c.line(x - size / 2 + n, y - size / 2, x + size / 2 + n, y + size / 2)
        n += step
    c.restoreState()
    patch = size * 0.5
    c.setFillColorRGB(*hex_colour(colour))
    c.rect(x - patch / 2, y - patch / 2, patch, patch, stroke=0, fill=1)
    c.setFillColorRGB(*ink_on(colour))
    faction_mark(c, faction, x, y, patch * 0.9)


def _remembered(c: Canvas, block: Block, colour: str, x: float, y: float, size: float, font: float, age: int) -> None:
    """A stack last seen some turns ago: white, framed dashed in its faction's colour (paler with
    each turn since), the turn it was seen in bold (never under `font`: the block widens to hold
    it), so that it reads as news of then, not of now."""
    text = f"T{block.seen}"
    w = max(size, text_width(text, SANS_BOLD, font) + size * 0.3)
    edge = faded(colour, age)
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.setStrokeColorRGB(*hex_colour(edge if luminance(edge) < 0.6 else "#7A7000"))
    c.setLineWidth(size * 0.1)
    c.setDash(size * 0.18, size * 0.12)
    c.rect(x - w / 2, y - size / 2, w, size, stroke=1, fill=1)
    c.restoreState()
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(SANS_BOLD, font)
    c.drawCentredString(x, y - font * 0.36, text)


def _owners(c: Canvas, art: MapArt, tm: TurnMap, colours: Mapping[str, str], st: TurnMapStyle, k: float) -> None:
    """Each town's hex tinted in its owner's colour, with a roundel of the colour and mark at its
    corner (round: a town, where a unit is square); a town remembered, not seen now, tinted
    faintly, its roundel hollow."""
    hexes = art.map.by_id()
    r = st.roundel * k
    offset = (st.block / 2 + st.roundel * 0.7) * k
    for h, marks in sorted(art.towns.items()):
        owners = []
        for m in marks:
            if m.name in tm.owners:
                owners.append((tm.owners[m.name], False))
            elif m.name in tm.remembered:
                owners.append((tm.remembered[m.name][0], True))
        owners = [(o, old) for o, old in owners if o != "none"]
        if not owners or h not in hexes:
            continue
        owner, old = owners[0]
        colour = colours.get(owner, "#8C8C8C")
        ring = art.corners(hexes[h])
        c.saveState()
        c.setFillColorRGB(*hex_colour(colour))
        c.setFillAlpha(0.14 if old else 0.38)
        p = c.beginPath()
        p.moveTo(float(ring[0][0]), float(ring[0][1]))
        for x, y in ring[1:]:
            p.lineTo(float(x), float(y))
        p.close()
        c.drawPath(p, stroke=0, fill=1)
        c.restoreState()
        x, y = (float(v) for v in art.centres[h])
        x, y = x - offset, y + offset * 0.8
        c.setLineWidth((st.roundel * 0.35 if old else 0.5) * k)
        if old:
            c.setFillColorRGB(1, 1, 1)
            c.setStrokeColorRGB(*hex_colour(colour if luminance(colour) < 0.6 else "#7A7000"))
            c.circle(x, y, r, stroke=1, fill=1)
            c.setFillColorRGB(0.25, 0.25, 0.25)
        else:
            c.setFillColorRGB(*hex_colour(colour))
            c.setStrokeColorRGB(0.1, 0.1, 0.1)
            c.circle(x, y, r, stroke=1, fill=1)
            c.setFillColorRGB(*ink_on(colour))
        faction_mark(c, owner, x, y, r * 1.25)


def _arrow(c: Canvas, art: MapArt, arrow: Arrow, colour: str, st: TurnMapStyle, k: float) -> None:
    """The move through its hexes' centres: its colour over a dark casing, dashed by how it went,
    an arrowhead at its end."""
    points = [tuple(float(v) for v in art.centres[h]) for h in arrow.hexes if h in art.centres]
    if len(points) < 2:
        return
    head = st.head * k
    (x0, y0), (x1, y1) = points[-2], points[-1]
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / d, (y1 - y0) / d
    tip = (x1, y1)
    base = (x1 - ux * head, y1 - uy * head)
    line = [*points[:-1], base]
    bold = BOLD if arrow.bold else 1.0
    for width, ink, dash in (
        (st.arrow * 2.2 * bold * k, (0.1, 0.1, 0.1), DASHES[arrow.by]),
        (st.arrow * bold * k, hex_colour(colour), DASHES[arrow.by]),
    ):
        c.setStrokeColorRGB(*ink)
        c.setLineWidth(width)
        c.setLineCap(0 if dash else 1)  # round caps would close a dotted line's gaps
        c.setLineJoin(1)
        c.setDash([v * k for v in dash]) if dash else c.setDash()
        p = c.beginPath()
        p.moveTo(*line[0])
        for pt in line[1:]:
            p.lineTo(*pt)
        c.drawPath(p, stroke=1, fill=0)
    c.setDash()
    half = head * 0.55 * bold
    p = c.beginPath()
    p.moveTo(*tip)
    p.lineTo(base[0] - uy * half, base[1] + ux * half)
    p.lineTo(base[0] + uy * half, base[1] - ux * half)
    p.close()
    c.setFillColorRGB(*hex_colour(colour))
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(0.5 * k)
    c.drawPath(p, stroke=1, fill=1)


def _battle(
    c: Canvas,
    art: MapArt,
    b: BattleMark,
    colours: Mapping[str, str],
    st: TurnMapStyle,
    k: float,
    box: tuple[float, float, float, float] | None,
    taken: Sequence[tuple[float, float, float, float]] = (),
) -> tuple[float, float, float, float]:
    """A battle: an eight-pointed burst round its number, in the winner's colour, with the
    winner's mark beside it; set by its hex, beside the units there rather than over them (the
    first of eight places round the hex, from above, and two rings further out, that meets no
    block or battle in `taken`), whole inside `box` where given."""
    hx, hy = (float(v) for v in art.centres[b.hex])
    r = st.battle * k
    right = r + r * 0.8 * 1.1 if b.winner else r  # the winner's mark stands to the right
    d = st.block * k * 0.5 + r + 0.8 * k
    spots = []
    rings = ((0, 1), (0.75, 0.75), (-0.75, 0.75), (1, 0), (-1, 0), (0.75, -0.75), (-0.75, -0.75), (0, -1))
    for ux, uy in [(ux * far, uy * far) for far in (1.0, 1.6, 2.2) for ux, uy in rings]:
        cx, cy = hx + ux * d, hy + uy * d
        if box is not None:
            cx = min(max(cx, box[0] + r + 0.6 * k), box[2] - right - 0.6 * k)
            cy = min(max(cy, box[1] + r + 0.6 * k), box[3] - r - 0.6 * k)
        extent = (cx - r, cy - r, cx + right, cy + r)
        spots.append((any(meets(extent, t) for t in taken), cx, cy))
    _, cx, cy = min(spots, key=lambda spot: spot[0])  # the first clear, else above
    colour = colours.get(b.winner or "", "#FFFFFF")
    p = c.beginPath()
    for n in range(16):
        a = math.pi / 2 + n * math.pi / 8
        rr = r if n % 2 == 0 else r * 0.68
        x, y = cx + rr * math.cos(a), cy + rr * math.sin(a)
        p.moveTo(x, y) if n == 0 else p.lineTo(x, y)
    p.close()
    c.setFillColorRGB(1, 1, 1)
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(0.6 * k)
    c.drawPath(p, stroke=1, fill=1)
    ring = r * 0.6
    c.setFillColorRGB(*hex_colour(colour))
    c.circle(cx, cy, ring, stroke=1, fill=1)
    text = str(b.number)
    fs = st.battle_font * k
    c.setFillColorRGB(*ink_on(colour))
    c.setFont(SANS_BOLD, fs)
    c.drawCentredString(cx, cy - fs * 0.36, text)
    if b.winner:
        mark = r * 0.8
        mx = cx + r + mark * 0.6
        draw_frame(c, mx - mark / 2, cy - mark / 2, mark, mark, colour, 0.4 * k)
        c.setFillColorRGB(*ink_on(colour))
        faction_mark(c, b.winner, mx, cy, mark * 0.72)
        return (cx - r, cy - r, mx + mark / 2, cy + r)
    return (cx - r, cy - r, cx + r, cy + r)
