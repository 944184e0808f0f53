"""The band under the map: title block, legend (terrain, rivers, lines, towns, supply) and scale bar."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC
from kitgen.render.mapart import Canvas, MapArt, hex_colour

Draw = Callable[[Canvas, float, float], None]


def draw_band(c: Canvas, art: MapArt, width: float, height: float) -> None:
    """Fill a band of `width` x `height` points, bottom-left at the current origin."""
    style = art.style
    pad = 0.25 * 72
    title_w = width * 0.28
    _title_block(c, art, pad, pad, title_w - pad, height - 2 * pad)
    scale_w = width * 0.2
    _legend(c, art, title_w + pad, pad, width - title_w - scale_w - 2 * pad, height - 2 * pad)
    _scale_bar(c, art, width - scale_w, pad, scale_w - pad, height - 2 * pad)
    c.setStrokeColorRGB(*hex_colour(style.colours.frame))
    c.setLineWidth(0.5)
    c.line(title_w, pad, title_w, height - pad)
    c.line(width - scale_w - pad / 2, pad, width - scale_w - pad / 2, height - pad)


def draw_key_page(c: Canvas, art: MapArt, width: float, height: float) -> None:
    """The band's title block, key (one column) and scale bar stacked on a page of `width` x
    `height` points, bottom-left at the current origin, at the map's own scale."""
    fonts = art.style.fonts
    title_h = fonts.title + fonts.subtitle * 1.6 + fonts.legend * 9
    scale_h = 80.0
    _title_block(c, art, 0, height - title_h, width, title_h)
    _legend(c, art, 0, scale_h, width, height - title_h - scale_h - 10, columns=1)
    _scale_bar(c, art, 0, 0, width, scale_h)


def _title_block(c: Canvas, art: MapArt, x: float, y: float, w: float, h: float) -> None:
    s, fonts = art.s, art.style.fonts
    top = y + h
    c.setFillColorRGB(*hex_colour(art.style.colours.town))
    c.setFont(SANS_BOLD, fonts.title)
    c.drawString(x, top - fonts.title, s.meta.title)
    c.setFont(SANS, fonts.subtitle)
    c.drawString(x, top - fonts.title - fonts.subtitle * 1.6, s.meta.subtitle)
    lines = [
        f"Campaign map. One hex is {art.map.hex_size_km:g} km across the flats; hex ids are CCRR,",
        "columns west to east, rows north to south.",
        f"{art.map.columns} columns x {art.map.rows} rows; Lambert conformal conic projection,",
        "north up along the central meridian.",
        "Coast and rivers: GSHHS and World Data Bank II; railways and towns as of 1919.",
    ]
    c.setFont(SANS, fonts.legend)
    yy = top - fonts.title - fonts.subtitle * 1.6 - fonts.legend * 2.4
    for line in lines:
        c.drawString(x, yy, line)
        yy -= fonts.legend * 1.35


def _legend(c: Canvas, art: MapArt, x: float, y: float, w: float, h: float, columns: int = 3) -> None:
    style, fonts = art.style, art.style.fonts
    u = art.hex_pt / 72.0
    c.setFillColorRGB(*hex_colour(style.colours.town))
    c.setFont(SANS_BOLD, fonts.legend_title)
    c.drawString(x, y + h - fonts.legend_title, "Key")
    col_w = w / columns
    entries = _entries(art)
    per_col = -(-len(entries) // columns)  # rows closer together when there are more entries
    row_h = min(fonts.legend * 2.6, (h - fonts.legend_title * 2) / per_col)
    for i, (label, draw) in enumerate(entries):
        col, row = divmod(i, per_col)
        ex = x + col * col_w
        ey = y + h - fonts.legend_title * 2 - (row + 1) * row_h + row_h * 0.3
        c.saveState()
        draw(c, ex + 18 * u, ey + fonts.legend * 0.35)
        c.restoreState()
        c.setFillColorRGB(*hex_colour(style.colours.town))
        c.setFont(SANS, fonts.legend)
        c.drawString(ex + 40 * u, ey, label)


def _entries(art: MapArt) -> list[tuple[str, Draw]]:
    style = art.style
    u = art.hex_pt / 72.0
    factions = [f for f in art.s.meta.factions if f.scores_vp]

    def swatch(colour: str, terrain: str | None = None) -> Draw:
        def draw(c: Canvas, x: float, y: float) -> None:
            art.fill(c, colour)
            art.stroke(c, style.colours.grid, style.widths.grid)
            c.rect(x - 14 * u, y - 7 * u, 28 * u, 14 * u, stroke=1, fill=1)
            if terrain:
                art.terrain_symbol(c, terrain, x - 6 * u, y - 1.5 * u)
                art.terrain_symbol(c, terrain, x + 7 * u, y - 1.5 * u)

        return draw

    def line(colour: str, width: float, dash: bool = False, ties: bool = False) -> Draw:
        def draw(c: Canvas, x: float, y: float) -> None:
            art.stroke(c, colour, width)
            if dash:
                c.setDash(4, 2.5)
            c.line(x - 14 * u, y, x + 14 * u, y)
            c.setDash()
            if ties:
                art.stroke(c, colour, style.widths.rail_tie)
                for t in range(-12, 13, 7):
                    c.line(x + t * u, y - 2.2 * u, x + t * u, y + 2.2 * u)

        return draw

    def bridge(c: Canvas, x: float, y: float) -> None:
        art.stroke(c, style.colours.river, style.widths.major_river)
        c.line(x, y - 8 * u, x, y + 8 * u)
        line(style.colours.rail, style.widths.rail, ties=True)(c, x, y)
        art.stroke(c, style.colours.rail, 0.9 * u)
        for sign in (-1, 1):
            c.line(x + sign * 3.2 * u, y - 4.5 * u, x + sign * 3.2 * u, y + 4.5 * u)

    def town(vp: int) -> Draw:
        def draw(c: Canvas, x: float, y: float) -> None:
            art.town_marker(c, x, y, vp)

        return draw

    def vp(c: Canvas, x: float, y: float) -> None:
        art.vp_boxes(c, x, y - 4 * u, [(f.id, 1 + i) for i, f in enumerate(factions)])

    def port(c: Canvas, x: float, y: float) -> None:
        art.anchor(c, x, y - 1 * u)

    def owned(c: Canvas, x: float, y: float) -> None:
        for i, f in enumerate(factions[:2]):
            art.town_marker(c, x - 5 * u + i * 10 * u, y, 1, f.id)

    def start(c: Canvas, x: float, y: float) -> None:
        size = 7 * u
        for i, f in enumerate(factions[:2]):
            art.unit_square(c, f.id, x - size - 1 * u + i * (size + 2 * u), y - size / 2, size)

    def place(c: Canvas, x: float, y: float) -> None:
        art.place_marker(c, x, y)

    def ring(c: Canvas, x: float, y: float) -> None:
        art.supply_ring(c, x, y, "#555555", radius=9 * u)

    def edge(c: Canvas, x: float, y: float) -> None:
        edged = sorted({s.faction for s in art.map.supply_sources if s.kind == "rail_exit"}) or ["-"]
        step = 28 * u / len(edged)
        for i, faction_id in enumerate(edged):
            faction = art.s.faction(faction_id)
            art.fill(c, faction.colour if faction else "#FFFFFF")
            art.stroke(c, "#1E1E1E", 0.5 * u)
            c.rect(x - 14 * u + i * step, y - 3.5 * u, step, 7 * u, stroke=1, fill=1)

    def sea_side(c: Canvas, x: float, y: float) -> None:
        art.sea_side_mark(c, np.array([[x - 14 * u, y], [x + 14 * u, y]]))

    def sea(c: Canvas, x: float, y: float) -> None:
        swatch(style.colours.sea)(c, x, y)

    names = {t.id: t.name for t in art.s.movement.terrain}
    entries: list[tuple[str, Draw]] = [(names.get(art.s.map.default_terrain, "Open"), swatch(style.colours.land))]
    for terrain, colour in sorted(style.colours.terrain.items()):
        entries.append((names.get(terrain, terrain.title()), swatch(colour, terrain)))
    entries += [
        ("Sea (more than half water)", sea),
        ("Open water between two shores: no land move or supply across", sea_side),
        ("Major river hexside: bridge, pontoon or ferry only", line(style.colours.river, style.widths.major_river)),
        ("Crossable river hexside: +1 MP", line(style.colours.river, style.widths.crossable_river)),
        ("Railway (1919)", line(style.colours.rail, style.widths.rail, ties=True)),
        ("Road (through mountain and marsh)", line(style.colours.road, style.widths.road, dash=True)),
        ("Bridge: no river cost where a line crosses", bridge),
        ("Town", town(1)),
        ("City (3 VP or more)", town(3)),
        ("VP for " + ", ".join(f.name for f in factions) + ", in that order", vp),
        ("Port", port),
        ("Station or place named in the set-up or on an event card", place),
        ("Supply source town: ring in the faction's colour", ring),
        ("Supply edge: band in the faction's colour where rail leaves the map", edge),
    ]
    if art.positions_shown:
        entries.append(("Starting position: a square per unit, in its faction's colour and mark", start))
        entries.append(("Town in the colour of the faction that holds it at the start", owned))
    return entries


def _scale_bar(c: Canvas, art: MapArt, x: float, y: float, w: float, h: float) -> None:
    fonts = art.style.fonts
    hexes = 5
    km = hexes * art.map.hex_size_km
    length = km * art.k
    bar_y = y + h * 0.55
    seg = length / hexes
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.6)
    for i in range(hexes):
        c.setFillColorRGB(*((0, 0, 0) if i % 2 == 0 else (1, 1, 1)))
        c.rect(x + i * seg, bar_y, seg, 6, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(SANS, fonts.legend)
    for i in range(hexes + 1):
        c.drawCentredString(x + i * seg, bar_y + 10, f"{i * art.map.hex_size_km:g}")
    c.drawString(x + length + fonts.legend * 1.6, bar_y + 10, "km")
    c.setFont(SANS_BOLD, fonts.legend_title)
    c.drawString(x, bar_y + 10 + fonts.legend * 2.2, "Scale")
    c.setFont(SANS_ITALIC, fonts.legend)
    c.drawString(x, bar_y - fonts.legend * 1.8, f"{hexes} hexes; 1 hex = {art.map.hex_size_km:g} km")
    c.drawString(
        x, bar_y - fonts.legend * 3.2, f"at {art.style.hex_across_in:g} in across the flats: 1:{_ratio(art):,}"
    )


def _ratio(art: MapArt) -> int:
    inches = art.style.hex_across_in
    return int(round(art.map.hex_size_km * 1000 / (inches * 0.0254), -3))
