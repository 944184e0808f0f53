"""The map's key: the band under the poster's map and the tiles' key page (title block, legend of
every symbol and line, scale bar, north arrow and turn record track)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from reportlab.lib.utils import simpleSplit

from kitgen.mapping.hexmap import HexMap
from kitgen.render.counterstyle import counter_style
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, text_width
from kitgen.render.mapart import Canvas, MapArt, hex_colour
from kitgen.render.mapfurniture import compass_reach, draw_north_arrow, draw_turn_track, turn_box_size
from kitgen.render.style import MapStyle
from kitgen.render.wording import curled

Draw = Callable[[Canvas, float, float], None]


def draw_band(c: Canvas, art: MapArt, width: float, height: float) -> None:
    """Fill a band of `width` x `height` points, bottom-left at the current origin: title block,
    key, scale bar and turn record track side by side."""
    style = art.style
    pad = 0.25 * 72
    spans = [0.2, 0.43, 0.14, 0.23]
    xs = [width * sum(spans[:i]) for i in range(len(spans) + 1)]
    inner = height - 2 * pad
    _title_block(c, art, pad, pad, xs[1] - 2 * pad, inner)
    _legend(c, art, xs[1] + pad, pad, xs[2] - xs[1] - 2 * pad, inner)
    _scale_bar(c, art, xs[2] + pad, pad, xs[3] - xs[2] - 2 * pad, inner)
    _turn_track(c, art, xs[3] + pad, pad + inner)
    c.setStrokeColorRGB(*hex_colour(style.colours.frame))
    c.setLineWidth(0.5)
    for x in xs[1:-1]:
        c.line(x, pad, x, height - pad)


def key_page_fonts(art: MapArt) -> dict[str, float]:
    """Type sizes on the key page: the map's own for the symbols' labels, a smaller title."""
    fonts = art.style.fonts
    return {"title": min(fonts.title, 26), "subtitle": min(fonts.subtitle, 12), "legend": min(fonts.legend, 9)}


def draw_key_page(c: Canvas, art: MapArt, width: float, height: float) -> None:
    """The key on a page of `width` x `height` points, bottom-left at the current origin, at
    100%: every symbol and line as the map prints it, the scale bar true, a north arrow and the
    turn record track with a box for a counter."""
    sizes = key_page_fonts(art)
    about = [curled(a) for a in _about(art)]
    title = curled(art.s.meta.title)
    block_w = max(text_width(title, SANS_BOLD, sizes["title"]), *(text_width(a, SANS, 8) for a in about))
    hexes = 5 if block_w + 18 + _scale_width(art, 5) <= width else 3  # a shorter bar where room is short
    scale_w = _scale_width(art, hexes)
    subtitle = simpleSplit(curled(art.s.meta.subtitle), SANS, sizes["subtitle"], width - scale_w - 18)
    top = height
    c.setFillColorRGB(*hex_colour(art.style.colours.town))
    y = _title_lines(c, top, [title], sizes["title"], subtitle, sizes["subtitle"], about)
    _scale_bar(c, art, width - scale_w, top - 82, scale_w, 80, hexes=hexes)
    box = _box(art)
    track_rows = -(-track_turns(art) // _per_row(art, width))
    track_h = 22 + track_rows * box
    arrow = 40
    reach = compass_reach(arrow)
    draw_north_arrow(c, width - reach, track_h + 6 + reach, arrow)
    legend_top = y - 4
    legend_w = width - 2 * reach - 4  # clear of the compass
    _legend(c, art, 0, track_h + 10, legend_w, legend_top - track_h - 10, columns=2, label_size=sizes["legend"])
    _turn_track(c, art, 0, track_h, per_row=_per_row(art, width))


def key_page_height(art: MapArt, width: float) -> float:
    """The height `draw_key_page` needs at `width`: the title block, the key's entries in two
    columns at their natural spacing, and the turn track; a key with fewer entries (a scenario's
    smaller map) takes less paper."""
    sizes, fonts = key_page_fonts(art), art.style.fonts
    u = art.hex_pt / 72.0
    scale_w = _scale_width(art, 5)
    subtitle = simpleSplit(curled(art.s.meta.subtitle), SANS, sizes["subtitle"], width - scale_w - 18)
    head = sizes["title"] + len(subtitle) * sizes["subtitle"] * 1.5 + 14 + len(_about(art)) * 10 + 4
    head = max(head, 82.0)  # the scale bar beside it
    per_col = -(-len(_entries(art)) // 2)
    legend = fonts.legend_title * 2 + per_col * max(sizes["legend"] * 2.6, 24 * u)
    track_rows = -(-track_turns(art) // _per_row(art, width))
    track_h = 22 + track_rows * _box(art)
    return head + legend + 10 + max(track_h, track_h + 6 + 2 * compass_reach(40) - legend) + 4


def draw_key_column(c: Canvas, art: MapArt, width: float, height: float) -> None:
    """The key in a column `width` wide beside the map (the compact edition's sheet), top down
    from `height`: title, scale bar, north arrow, the key's entries in one column, then the
    turn record track, each at 100%."""
    parts = _column_parts(art, width)
    y = height
    for need, draw in parts:
        draw(c, y)
        y -= need


def _title_lines(
    c: Canvas, top: float, titles: list[str], size: float, subtitle: list[str], sub_size: float, about: list[str]
) -> float:
    """The key's title (its lines), subtitle and notes on the map, down from `top`; the y under them."""
    c.setFont(SANS_BOLD, size)
    y = top
    for k, line in enumerate(titles):
        y -= size * (1.15 if k else 1.0)
        c.drawString(0, y, line)
    c.setFont(SANS, sub_size)
    for line in subtitle:
        y -= sub_size * 1.5
        c.drawString(0, y, line)
    y -= 14
    c.setFont(SANS, 8)
    for line in about:
        c.drawString(0, y, line)
        y -= 10
    return y


def key_column_height(art: MapArt, width: float) -> float:
    """The height `draw_key_column` needs at `width`."""
    return sum(need for need, _ in _column_parts(art, width))


def _column_parts(art: MapArt, width: float) -> list[tuple[float, Callable[[Canvas, float], None]]]:
    """(height, draw at a top y) of each part of the key column, top down."""
    sizes, fonts = key_page_fonts(art), art.style.fonts
    title_size = sizes["title"]
    while title_size > 12 and text_width(curled(art.s.meta.title), SANS_BOLD, title_size) > width:
        title_size -= 0.5
    titles = simpleSplit(curled(art.s.meta.title), SANS_BOLD, title_size, width)  # a long title wraps
    subtitle = simpleSplit(curled(art.s.meta.subtitle), SANS, sizes["subtitle"], width)
    about = simpleSplit(curled(" ".join(_about(art))), SANS, 8, width)
    ink = hex_colour(art.style.colours.town)

    def heading(c: Canvas, top: float) -> None:
        c.setFillColorRGB(*ink)
        _title_lines(c, top, titles, title_size, subtitle, sizes["subtitle"], about)

    lines_h = (
        title_size * (1 + 1.15 * (len(titles) - 1)) + len(subtitle) * sizes["subtitle"] * 1.5 + 14 + len(about) * 10
    )
    head_h = lines_h + 8  # clear of the scale bar's heading
    arrow = 40
    reach = compass_reach(arrow)
    hexes = 5 if _scale_width(art, 5) <= width else 3
    scale_h = 80.0 + 2 * reach + 8  # the scale bar and its notes, the compass under them

    def scale_and_arrow(c: Canvas, top: float) -> None:
        _scale_bar(c, art, 0, top - 80, _scale_width(art, hexes), 80, hexes=hexes)
        draw_north_arrow(c, width / 2, top - 80 - reach - 4, arrow)

    u = art.hex_pt / 72.0
    size = sizes["legend"]
    labels = [simpleSplit(curled(label), SANS, size, width - 40 * u - size) for label, _ in _entries(art)]
    row = max(size * 2.6, 24 * u, max(len(lines) for lines in labels) * size * 1.16 + 7)
    legend_h = fonts.legend_title * 2 + len(labels) * row + 6

    def legend(c: Canvas, top: float) -> None:
        _legend(c, art, 0, top - legend_h, width, legend_h, columns=1, label_size=size, row=row)

    per_row = _per_row(art, width)
    track_h = 22 + len(_track_note_lines(art, width)) * 9 + 4 + -(-track_turns(art) // per_row) * _box(art) + 14

    def track(c: Canvas, top: float) -> None:
        _turn_track(c, art, 0, top, per_row=per_row, wrap=width)

    return [(head_h, heading), (scale_h, scale_and_arrow), (legend_h, legend), (track_h, track)]


def track_turns(art: MapArt) -> int:
    """The turn track's boxes: the scenario's turns, or the map's track for a campaign that has no
    last turn."""
    return art.s.meta.turns.last or art.style.furniture.turn_track.turns


def _box(art: MapArt) -> float:
    track = art.style.furniture.turn_track
    return turn_box_size(counter_style(edition=art.style.edition).counter_mm, track.box_over_counter_mm)


def _per_row(art: MapArt, width: float) -> int:
    track = art.style.furniture.turn_track
    return max(1, min(track.per_row, int(width // _box(art))))


def _turn_track(
    c: Canvas, art: MapArt, x: float, top: float, per_row: int | None = None, wrap: float | None = None
) -> None:
    """The turn record track, its heading's top at `top`: a box a turn, each big enough for a
    counter. With `wrap`, its note goes under the heading in lines that wide, the boxes lower."""
    from kitgen.rules.ending import MONTHS, turn_days

    track = art.style.furniture.turn_track
    every = art.s.victory.award_every_turns
    c.setFillColorRGB(*hex_colour(art.style.colours.town))
    c.setFont(SANS_BOLD, 11)
    c.drawString(x, top - 11, "Turn record")
    c.setFont(SANS, 7.5)
    note = _track_note(art)
    if wrap is not None:
        for line in _track_note_lines(art, wrap):
            top -= 9
            c.drawString(x, top - 11, line)
        top -= 4
    else:
        c.drawString(x + 80, top - 10, note)
    dates, year = [], None
    for n in range(1, track_turns(art) + 1):
        span = turn_days(art.s, n)
        if span is None:
            break
        day = span[0]
        dates.append(f"{day.day} {MONTHS[day.month - 1][:3]}" + (f" {day.year}" if day.year != year else ""))
        year = day.year
    draw_turn_track(
        c,
        x,
        top - 18,
        turns=track_turns(art),
        per_row=per_row or track.per_row,
        box=_box(art),
        every=every,
        dates=dates,
        last=art.s.meta.turns.last,
    )


def _track_note(art: MapArt) -> str:
    days = art.s.meta.turns.days
    return (
        f"a turn stands for {days} day{'s' if days != 1 else ''}; the turn marker moves a box each turn; "
        f"shaded: towns score VP (every {art.s.victory.award_every_turns})"
    )


def _track_note_lines(art: MapArt, width: float) -> list[str]:
    """The turn track's note as a sentence under its heading, in lines `width` wide."""
    note = _track_note(art)
    return list(simpleSplit(note[0].upper() + note[1:], SANS, 7.5, width))


def _about(art: MapArt) -> list[str]:
    return [
        f"One hex is {art.map.hex_size_km:g} km across the flats; hex ids are CCRR,",
        f"columns west to east, rows north to south; {grid_span(art.map)}.",
        "Lambert conformal conic projection, north up along the central meridian.",
        "Printed at 100%: every symbol below is the size the map prints it,",
        "and the scale bar measures true.",
    ]


def grid_span(m: HexMap) -> str:
    """The map's grid as printed: '54 columns x 43 rows', or with the first and last where the
    map is a window of a larger grid ('10 columns (45-54) x 12 rows (07-18)')."""
    cols, rows = sorted({h.col for h in m.hexes}), sorted({h.row for h in m.hexes})

    def span(ids: list[int], what: str) -> str:
        n = f"{len(ids)} {what}"
        return n if ids[0] == 1 else f"{n} ({ids[0]:02d}-{ids[-1]:02d})"

    return f"{span(cols, 'columns')} x {span(rows, 'rows')}"


def _title_block(c: Canvas, art: MapArt, x: float, y: float, w: float, h: float) -> None:
    s, fonts = art.s, art.style.fonts
    top = y + h
    c.setFillColorRGB(*hex_colour(art.style.colours.town))
    c.setFont(SANS_BOLD, fonts.title)
    c.drawString(x, top - fonts.title, curled(s.meta.title))
    c.setFont(SANS, fonts.subtitle)
    c.drawString(x, top - fonts.title - fonts.subtitle * 1.6, curled(s.meta.subtitle))
    lines = [
        f"Campaign map. One hex is {art.map.hex_size_km:g} km across the flats; hex ids are CCRR,",
        "columns west to east, rows north to south.",
        f"{grid_span(art.map)}; Lambert conformal conic projection,",
        "north up along the central meridian.",
        "Coast and rivers: GSHHS and World Data Bank II; railways and towns as of 1919.",
    ]
    c.setFont(SANS, fonts.legend)
    yy = top - fonts.title - fonts.subtitle * 1.6 - fonts.legend * 2.4
    for line in lines:
        c.drawString(x, yy, line)
        yy -= fonts.legend * 1.35


def _legend(
    c: Canvas,
    art: MapArt,
    x: float,
    y: float,
    w: float,
    h: float,
    columns: int = 3,
    label_size: float | None = None,
    row: float | None = None,
) -> None:
    """The key's entries in `columns` in the box (x, y, w, h), a row `row` apart (by default
    as close as the box asks, never further apart than a line of labels needs)."""
    style, fonts = art.style, art.style.fonts
    size = label_size or fonts.legend
    u = art.hex_pt / 72.0
    c.setFillColorRGB(*hex_colour(style.colours.town))
    c.setFont(SANS_BOLD, fonts.legend_title)
    c.drawString(x, y + h - fonts.legend_title, "Key")
    col_w = w / columns
    entries = _entries(art)
    per_col = -(-len(entries) // columns)  # rows closer together when there are more entries
    row_h = row or min(max(size * 2.6, 24 * u), (h - fonts.legend_title * 2) / per_col)
    for i, (label, draw) in enumerate(entries):
        col, row = divmod(i, per_col)
        ex = x + col * col_w
        ey = y + h - fonts.legend_title * 2 - (row + 1) * row_h + row_h * 0.3
        c.saveState()
        draw(c, ex + 18 * u, ey + size * 0.35)
        c.restoreState()
        c.setFillColorRGB(*hex_colour(style.colours.town))
        c.setFont(SANS, size)
        lines = simpleSplit(curled(label), SANS, size, col_w - 40 * u - size)  # never into the next column
        for k, line in enumerate(lines):
            c.drawString(ex + 40 * u, ey + (len(lines) - 1) * size * 0.58 - k * size * 1.16, line)


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

    def ferry(c: Canvas, x: float, y: float) -> None:
        art.stroke(c, style.colours.river, style.widths.major_river)
        c.line(x, y - 9 * u, x, y + 9 * u)
        art.ferry_mark(c, x, y, 2)

    def hex_cell(c: Canvas, x: float, y: float) -> None:
        r = 11 * u
        art.fill(c, style.colours.land)
        art.stroke(c, style.colours.grid, style.widths.grid)
        path = c.beginPath()
        for k in range(6):
            a = math.radians(60 * k)
            (path.moveTo if k == 0 else path.lineTo)(x + r * math.cos(a), y + r * math.sin(a))
        path.close()
        c.drawPath(path, stroke=1, fill=1)
        top = y + r * 0.866 - style.fonts.hex_id - 0.8
        art.halo_text(c, "0907", x, top, SANS, style.fonts.hex_id, style.colours.hex_id, halo=0.9)

    def background(c: Canvas, x: float, y: float) -> None:
        art.fill(c, style.colours.land)
        art.stroke(c, style.colours.grid, style.widths.grid)
        c.rect(x - 14 * u, y - 7 * u, 28 * u, 14 * u, stroke=1, fill=1)
        art.fill(c, style.colours.sea)
        path = c.beginPath()
        path.moveTo(x + 2 * u, y - 7 * u)
        path.curveTo(x - 4 * u, y - 2 * u, x + 8 * u, y + 2 * u, x + 1 * u, y + 7 * u)
        path.lineTo(x + 14 * u, y + 7 * u)
        path.lineTo(x + 14 * u, y - 7 * u)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
        art.stroke(c, style.colours.coast, style.widths.coast)
        path = c.beginPath()
        path.moveTo(x + 2 * u, y - 7 * u)
        path.curveTo(x - 4 * u, y - 2 * u, x + 8 * u, y + 2 * u, x + 1 * u, y + 7 * u)
        c.drawPath(path, stroke=1, fill=0)

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
    has = features(art)
    entries: list[tuple[str, Draw]] = [("Hex, its id (column, row) at the top", hex_cell)]
    if art.s.map.default_terrain in has:
        entries.append((names.get(art.s.map.default_terrain, "Open"), swatch(style.colours.land)))
    for terrain, colour in sorted(style.colours.terrain.items()):
        if terrain in has:
            entries.append((names.get(terrain, terrain.title()), swatch(colour, terrain)))
    shown: list[tuple[str, str, Draw]] = [
        ("sea", "Sea hex (more than half water): the rules' sea", sea),
        ("sea_side", "Open water between two shores: the rules' sea; no land move or supply across", sea_side),
        ("coast", "Sea tint and coast line on land hexes: background art, no game meaning", background),
        (
            "major",
            "Major river hexside: bridge, pontoon or ferry only",
            line(style.colours.river, style.widths.major_river),
        ),
        ("crossable", "Crossable river hexside: +1 MP", line(style.colours.river, style.widths.crossable_river)),
        ("rail", "Railway (1919)", line(style.colours.rail, style.widths.rail, ties=True)),
        ("road", "Road (through mountain and marsh)", line(style.colours.road, style.widths.road, dash=True)),
        ("bridge", "Bridge: no river cost where a line crosses", bridge),
        ("ferry", "Ferry on a major river hexside: the units it takes a turn", ferry),
        ("town", "Town", town(1)),
        ("city", "City (3 VP or more)", town(3)),
        ("vp", "VP for " + ", ".join(f.name for f in factions) + ", in that order", vp),
        ("port", "Port", port),
        ("place", "Station or place named in the set-up or on an event card", place),
        ("source", "Supply source town: ring in the faction's colour", ring),
        ("edge", "Supply edge: band in the faction's colour where rail leaves the map", edge),
    ]
    return entries + [(label, draw) for key, label, draw in shown if key in has]


def features(art: MapArt) -> set[str]:
    """What the map has, so that its key shows that and nothing else: the board's features
    (`HexMap.features`), and 'town', 'city' (3 VP or more), 'vp' and 'place' as it draws them."""
    values = [art.best_vp(h) for h in art.towns]
    found = {
        "town": any(v < 3 for v in values),
        "city": any(v >= 3 for v in values),
        "vp": any(v > 0 for v in values),
        "place": bool(art.place_labels()),
    }
    return art.map.features() | {key for key, present in found.items() if present}


def _scale_width(art: MapArt, hexes: int) -> float:
    """The scale bar's width, its 'km' and its notes included, for a bar `hexes` long."""
    notes = _scale_notes(art, hexes)
    return max(
        hexes * art.map.hex_size_km * art.k + 30, *(text_width(n, SANS_ITALIC, art.style.fonts.legend) for n in notes)
    )


def _scale_notes(art: MapArt, hexes: int) -> tuple[str, str]:
    """The two lines under the scale bar."""
    km = art.map.hex_size_km
    return f"{hexes} hexes; 1 hex = {km:g} km", f"at {hex_across(art.style)} across the flats: 1:{_ratio(art):,}"


def _scale_bar(c: Canvas, art: MapArt, x: float, y: float, w: float, h: float, *, hexes: int = 5) -> None:
    fonts = art.style.fonts
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
    first, second = _scale_notes(art, hexes)
    c.drawString(x, bar_y - fonts.legend * 1.8, first)
    c.drawString(x, bar_y - fonts.legend * 3.2, second)


def hex_across(style: MapStyle) -> str:
    """A hex's size across the flats as the map says it: '1 in', or in millimetres where it is
    no simple fraction of an inch ('16 mm')."""
    inches = style.hex_across_in
    return f"{inches:g} in" if abs(inches * 8 - round(inches * 8)) < 1e-6 else f"{inches * 25.4:.0f} mm"


def _ratio(art: MapArt) -> int:
    inches = art.style.hex_across_in
    return int(round(art.map.hex_size_km * 1000 / (inches * 0.0254), -3))
