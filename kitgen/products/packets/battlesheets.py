"""The umpire's battle setup sheets: one page (or more) per contact of a turn, printed from a log
that holds the orders and no battles yet (`kitgen.engine.contacts_ahead`).

A sheet shows the hex and its six neighbours as the map draws them, both sides' units as they
enter (stands, commanders, ammunition, supply), the rules that bear on the battle (edge-of-board
resupply, naval gunfire, partisans, retreat and breakout), then the post-battle losses table
worked out from the scenario. The battle is reported on its report form, which follows the
sheet in the umpire's packet (`kitgen.products.reportforms`).
Geometry comes from layouts/battlesheet.yaml, sentences from layouts/battlesheet.txt.j2."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from kitgen.campaign import Campaign
from kitgen.engine.contacts_ahead import BattleSide, Contact, ContactUnit
from kitgen.model.base import Model
from kitgen.model.scenario import Scenario
from kitgen.products.sheetparts import sheets_part
from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.formstyle import FormStyle, stand_abbreviation
from kitgen.render.formstyle import short_stand_name as _short
from kitgen.render.lengths import Length
from kitgen.render.packetstyle import packet_form_style
from kitgen.render.pages import MM, PAPER
from kitgen.render.sheet import Cell, CellLike, Column, Page, Sheet, heading_height
from kitgen.render.style import layouts_dir, load_layout
from kitgen.render.wording import either
from kitgen.rules.battle import losses

if TYPE_CHECKING:
    from kitgen.render.mapart import MapArt

TEMPLATE = "battlesheet.txt.j2"
LABEL = "Battle setup sheets"


class MiniMapLayout(Model):
    hex_across: Length = Field(gt=0)
    compass: Length = Field(gt=0)
    outline: Length = Field(gt=0)
    battle_hex: Length = Field(gt=0)
    battle_inset: float = Field(gt=0, le=1)


class RowLayout(Model):
    neighbour: Length = Field(gt=0)
    forces: Length = Field(gt=0)
    side: Length = Field(gt=0)
    losses: Length = Field(gt=0)


class LossesLayout(Model):
    least: int = Field(ge=1)
    most: int = Field(ge=1)


class BattleSheetLayout(Model):
    map: MiniMapLayout
    panel_gap: Length = Field(ge=0)
    rows: RowLayout
    losses: LossesLayout
    split_rows: int = Field(ge=1)


@cache
def battle_layout(path: Path | None = None) -> BattleSheetLayout:
    """The sheets' geometry, from layouts/battlesheet.yaml."""
    return load_layout(BattleSheetLayout, path or layouts_dir() / "battlesheet.yaml")


@cache
def _sentences() -> Any:
    """The template's macros, as a module: one per sentence the sheets print."""
    from kitgen.templates import environment

    env = environment(layouts_dir(), autoescape=False)  # drawn on the page as plain text, never read as markup
    return env.get_template(TEMPLATE).module


def _say(name: str, *args: Any) -> str:
    return " ".join(str(getattr(_sentences(), name)(*args)).split())


# --- page flow -------------------------------------------------------------------------


Draw = Callable[[Sheet, float], float]


@dataclass(frozen=True)
class _Block:
    """A piece drawn whole: its height (at most) and what draws it from a top y."""

    height: float
    draw: Draw


@dataclass(frozen=True)
class _Table:
    """A table that may continue on the next page, its heading and header rows repeated."""

    title: str
    ref: str
    columns: tuple[Column, ...]
    headers: tuple[tuple[CellLike, ...], ...]
    rows: tuple[tuple[CellLike, ...], ...]
    row_h: float
    lead: _Block | None = None
    """Drawn under the heading before the first rows only."""


def _header_h(st: FormStyle, width: float, columns: Sequence[Column], headers: Sequence[Sequence[CellLike]]) -> float:
    """As Sheet.table sizes its header rows."""
    from kitgen.render.sheet import header_height

    return header_height(st, width, columns, headers)


def _content_height(st: FormStyle) -> float:
    """Room under the band on the shortest paper the kit prints on."""
    height = min(h for _, h in PAPER.values())
    return height - 2 * st.margin_mm * MM - st.footer_mm * MM - st.band_mm * MM - st.gap


def _content_width(st: FormStyle) -> float:
    return min(w for w, _ in PAPER.values()) - 2 * st.margin_mm * MM


def _flow(items: Sequence[_Block | _Table], st: FormStyle, split_rows: int) -> list[list[Draw]]:
    """The items laid onto pages, tables split between rows where a page is full."""
    budget = _content_height(st)
    pages: list[list[Draw]] = [[]]
    room = budget

    def new_page() -> None:
        nonlocal room
        pages.append([])
        room = budget

    for item in items:
        if isinstance(item, _Block):
            if item.height > room and pages[-1]:
                new_page()
            pages[-1].append(item.draw)
            room -= item.height + st.gap
            continue
        rows, first, title = list(item.rows), True, item.title
        head = heading_height(st) + _header_h(st, _content_width(st), item.columns, item.headers)
        while rows or first:
            lead = item.lead.height if first and item.lead else 0.0
            fit = max(0, math.floor((room - head - lead) / item.row_h))
            if fit < min(split_rows, len(rows)) and pages[-1]:
                new_page()
                continue
            if fit < 1 and rows:
                raise ValueError(f"{title}: not one row fits on an empty page")
            chunk, rows = tuple(rows[:fit]), rows[fit:]
            pages[-1].append(_table_piece(item, title, chunk, item.lead if first else None))
            room -= head + lead + len(chunk) * item.row_h + st.gap
            first = False
            if rows:
                new_page()
                title = f"{item.title} (continued)"
    return pages


def _table_piece(item: _Table, title: str, rows: tuple[tuple[CellLike, ...], ...], lead: _Block | None) -> Draw:
    def draw(sheet: Sheet, y: float) -> float:
        y = sheet.heading(sheet.left, y, sheet.span, title, item.ref)
        if lead is not None:
            y = lead.draw(sheet, y)
        return sheet.table(sheet.left, y, sheet.span, item.columns, item.headers, rows, row_h=item.row_h)

    return draw


# --- the pages ---------------------------------------------------------------------------


def battle_sheet_pages(campaign: Campaign, contacts: list[Contact], turn: int) -> list[Page]:
    """One setup sheet per contact, in the order given; a contact whose units do not fit on one
    page continues on the next."""
    st, lay = packet_form_style(), battle_layout()
    pages: list[Page] = []
    for contact in contacts:
        items: list[_Block | _Table] = [
            _top(campaign, contact, st, lay),
            _forces(campaign.scenario, contact, lay),
            _losses(campaign.scenario, contact, st, lay),
        ]
        flowed = _flow(items, st, lay.split_rows)
        title = _title(contact, turn, campaign.hex_names)
        for k, pieces in enumerate(flowed):
            heading = title if k == 0 else f"{title} (continued)"
            key = f"battle-{turn:02d}-{contact.hex}" + (f"-{k + 1}" if k else "")
            pages.append((heading, key, _page(heading, contact, campaign.scenario, pieces)))
    return pages


def battle_sheets_pdf(campaign: Campaign, contacts: list[Contact], turn: int, paper: str) -> bytes:
    """The turn's battle setup sheets as one PDF on A4 or US Letter, each page in the outline."""
    part = sheets_part(
        campaign.scenario,
        paper,
        battle_sheet_pages(campaign, contacts, turn),
        label=LABEL,
        file=f"battles-turn-{turn:02d}-{paper}.pdf",
        title=f"Battle setup sheets, turn {turn}",
        purpose="one sheet per contact: the ground, both sides as they enter, and the losses table",
        style=packet_form_style(),
    )
    return part.pdf


def _title(contact: Contact, turn: int, names: Mapping[str, str]) -> str:
    """'Battle at Basargino (5213), turn 3': the hex by its town's name, else a station's or a
    place's in it (`Campaign.hex_names`), as its report form names it."""
    across = "".join(f" and across the hexside in {h}" for h in contact.across)
    named = names.get(contact.hex)
    if named:
        return f"Battle at {named} ({contact.hex}{across}), turn {turn}"
    return f"Battle in hex {contact.hex}{across}, turn {turn}"


def _page(heading: str, contact: Contact, s: Scenario, pieces: list[Draw]) -> Callable[[Sheet], float]:
    def draw(sheet: Sheet) -> float:
        y = sheet.band(heading)
        for piece in pieces:
            y = piece(sheet, y) - sheet.st.gap
        return y + sheet.st.gap

    return draw


def _faction(s: Scenario, faction_id: str) -> str:
    f = s.faction(faction_id)
    return f.name if f else faction_id


def _side_name(s: Scenario, side: BattleSide) -> str:
    return " and ".join(_faction(s, f) for f in side.factions)


def _kind(s: Scenario, kind: str) -> str:
    return stand_abbreviation(s, kind)


def _stands(s: Scenario, stands: dict[str, int]) -> str:
    return ", ".join(f"{n} {_kind(s, k)}" for k, n in stands.items() if n)


# --- the ground, and the rules that bear on the battle --------------------------------------


def _top(campaign: Campaign, contact: Contact, st: FormStyle, lay: BattleSheetLayout) -> _Block:
    """The small map, and beside it the neighbours and the notes."""
    s = campaign.scenario
    across = lay.map.hex_across
    map_w = 5 * across / math.sqrt(3)
    map_h = 3 * across
    panel_w = _content_width(st) - map_w - lay.panel_gap
    notes = _notes(s, contact)
    size = st.fonts.small
    leading = st.charts.leading * size / st.fonts.body
    lines = sum(len(_wrap(text, size, panel_w - _lead_w(lead, size))) for lead, text in notes)
    neighbours_h = _header_h(st, panel_w, NEIGHBOUR_COLUMNS, [NEIGHBOUR_HEADER]) + 6 * lay.rows.neighbour
    panel_h = neighbours_h + 4 + len(notes) * 2.5 + lines * leading + size
    height = max(map_h, panel_h)

    def draw(sheet: Sheet, y: float) -> float:
        _mini_map(sheet, campaign, contact, sheet.left, y, lay)
        x = sheet.left + map_w + lay.panel_gap
        width = sheet.right - x
        py = _neighbour_table(sheet, s, contact, x, y, width, lay) - 4
        for lead, text in notes:
            py = sheet.para(x, py, width, text, lead=lead, size=size, leading=leading) - 2.5
        return y - height

    return _Block(height, draw)


def _lead_w(lead: str, size: float) -> float:
    return text_width(lead + " ", SANS_BOLD, size)


def _wrap(text: str, size: float, width: float) -> list[str]:
    from reportlab.lib.utils import simpleSplit

    lines: list[str] = simpleSplit(text, SANS, size, width)
    return lines or [""]


def _notes(s: Scenario, contact: Contact) -> list[tuple[str, str]]:
    """(run-in, sentence) of each note beside the map."""
    nearest = contact.nearest.text()
    notes = [
        (
            "Ground:",
            _say("terrain", contact.hex, contact.terrain, contact.towns, contact.coastal, contact.port, nearest),
        )
    ]
    for side in contact.sides:
        out = [u.name for u in side.units if not u.edge_resupply]
        notes.append(("Resupply:", _say("resupply", _side_name(s, side), side.edge_resupply, out)))
    fire = [side for side in contact.sides if side.ships]
    if fire:
        notes += [("Naval gunfire:", _say("gunfire", _side_name(s, side), side.ships)) for side in fire]
    else:
        notes.append(("Naval gunfire:", "no ship of either side in range (D.3)."))
    for p in contact.partisans:
        notes.append(("Partisans:", _say("partisan", _faction(s, p.faction), p)))
    for card in contact.cards:  # II.A.2: a card in force over this battle, as its text says
        notes.append(("Event card:", f"{card.title}: {card.text}"))
    exempt = either([e.capitalize() for e in s.battle.loser.routed_lost_exempt])
    for side in contact.sides:
        for unit in side.units:
            if unit.if_beaten != "retreats":
                notes.append(("Cornered:", _say("beaten", unit, exempt)))
    return notes


NEIGHBOUR_COLUMNS = (Column(0.45, "centre"), Column(0.6, "centre"), Column(0.9), Column(1.9), Column(0.9), Column(1.2))
NEIGHBOUR_HEADER = ("Dir", "Hex", "Terrain", "Hexside", "Rail / road", "Units there")


def _neighbour_table(
    sheet: Sheet, s: Scenario, contact: Contact, x: float, y: float, width: float, lay: BattleSheetLayout
) -> float:
    terrains = {t.id: t.name for t in s.movement.terrain} | {"sea": "Sea"}
    columns, header = NEIGHBOUR_COLUMNS, NEIGHBOUR_HEADER
    rows = []
    for n in contact.neighbours:
        side = []
        if n.side.river:
            side.append(f"{n.side.river} ({n.side.river_class} river)")
        elif n.side.river_class:
            side.append(f"{n.side.river_class} river")
        if n.side.open_water:
            side.append("open water")
        if n.side.bridge and (n.side.river_class or n.side.open_water):
            side.append("bridged")
        links = [w for w, on in (("rail", n.side.rail), ("road", n.side.road)) if on]
        who = ", ".join(_faction(s, f) for f in n.factions)
        rows.append(
            (
                n.side.direction,
                n.hex,
                terrains.get(n.side.terrain, n.side.terrain),
                "; ".join(side),
                ", ".join(links),
                who,
            )
        )
    return sheet.table(x, y, width, columns, [header], rows, row_h=lay.rows.neighbour)


def _sub_map(campaign: Campaign, contact: Contact) -> tuple[MapArt, list[str]]:
    """The map's drawing of the battle hex, its neighbours and the ring beyond them (for the
    lines that run off the edge), town names left to the seven hexes shown."""
    import numpy as np

    from kitgen.mapping.hexmap import NO_PROJECTION
    from kitgen.render.mapart import MapArt
    from kitgen.render.style import map_style

    hm, board = campaign.hex_map, campaign.board
    inner = [contact.hex, *(n.hex for n in contact.neighbours)]
    shown = set(inner) | {m for h in inner for m in board.neighbours(h)}
    hexes = tuple(h if h.id in inner else replace(h, towns=(), port=False) for h in hm.hexes if h.id in shown)
    corners = hm.grid.corners(np.array([[h.x_km, h.y_km] for h in hexes]))
    xs, ys = corners[..., 0], corners[..., 1]
    frame = (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))
    inside = {h.id for h in hexes}
    sub = replace(
        hm,
        projection=NO_PROJECTION,
        frame_km=frame,
        hexes=hexes,
        hexsides=tuple(x for x in hm.hexsides if set(x.hexes) <= inside),
        rail=tuple(k for k in hm.rail if set(k.hexes) <= inside),
        roads=tuple(k for k in hm.roads if set(k.hexes) <= inside),
        rail_exits=(),
        supply_sources=(),
        ferries=tuple(f for f in hm.ferries if set(f.hexes) <= inside),
        points=(),  # railway points unnamed, as before the map kept them: their labels would run off this small frame
    )
    return MapArt(sub, campaign.scenario, map_style()), inner


def _mini_map(sheet: Sheet, campaign: Campaign, contact: Contact, x: float, top: float, lay: BattleSheetLayout) -> None:
    """The seven hexes as the map prints them, scaled to the layout's hex, with the factions in
    each, the battle hex outlined and a north arrow."""
    import shapely

    from kitgen.render.mapart import rings_path
    from kitgen.render.mapfurniture import compass_reach, draw_north_arrow

    art, inner = _sub_map(campaign, contact)
    c = sheet.c
    f = lay.map.hex_across / art.hex_pt
    hexes = {h.id: h for h in art.map.hexes}
    outline = shapely.union_all([shapely.Polygon(art.corners(hexes[h])) for h in inner], grid_size=0.01)
    cx, cy = art.centres[contact.hex]
    across = lay.map.hex_across
    mx, my = x + 2.5 * across / math.sqrt(3), top - 1.5 * across  # the battle hex's centre on the page
    c.saveState()
    c.translate(mx - f * cx, my - f * cy)
    c.scale(f, f)
    assert isinstance(outline, shapely.Polygon)  # seven hexes round one: a single ring
    path = rings_path(c, [list(outline.exterior.coords)])
    c.clipPath(path, stroke=0, fill=0)
    art.draw(c)
    units = [(side_f, contact.hex) for side in contact.sides for side_f in side.factions]
    units += [(fac, n.hex) for n in contact.neighbours for fac in n.factions]
    art.starting_positions(c, units)
    c.restoreState()
    c.saveState()
    c.translate(mx - f * cx, my - f * cy)
    c.scale(f, f)
    sheet.stroke(sheet.st.colours.ink, lay.map.outline / f)
    c.drawPath(path, stroke=1, fill=0)
    # inset, so the outline leaves the battle hex's own rivers and bridges in sight
    centre = art.centres[contact.hex]
    battle = centre + (art.corners(hexes[contact.hex]) - centre) * lay.map.battle_inset
    sheet.stroke(sheet.st.colours.ink, lay.map.battle_hex / f)
    c.drawPath(rings_path(c, [battle]), stroke=1, fill=0)
    c.restoreState()
    arrow = lay.map.compass
    # inside the map's box, its side names clear of the table beside it
    draw_north_arrow(c, x + 5 * across / math.sqrt(3) - compass_reach(arrow), top - arrow * 0.75, arrow)


# --- the sides ------------------------------------------------------------------------------


def _forces(s: Scenario, contact: Contact, lay: BattleSheetLayout) -> _Table:
    """Each side's units as they enter: stands, flags, commander, supply, ammunition, fate if beaten."""
    ammo_units = {a.stand: a.unit for a in s.supply.ammo}
    columns = (
        Column(2.9),
        Column(0.8),
        Column(1.1),
        Column(0.6),
        Column(1.4),
        Column(0.6, "centre"),
        Column(1.8),
        Column(0.9, "centre"),
        Column(1.0),
    )
    header = (
        "Unit",
        "Type",
        "Stands",
        "Flags",
        "Commander\n(dependability)",
        "Supply",
        "Ammunition\nper stand",  # as it enters: B.5-B.6, named in the heading
        "Edge\nresupply",
        "If beaten\n(II.B.1)",
    )
    rows: list[tuple[CellLike, ...]] = []
    for k, side in enumerate(contact.sides):
        f = s.faction(side.factions[0])
        label = f"Side {chr(65 + k)}: {_side_name(s, side)}"
        rows.append((Cell(label, span=len(columns), bold=True, fill=f.colour if f else None, mark=side.factions[0]),))
        rows += [_unit_row(s, u, ammo_units) for u in side.units]
    return _Table("Forces", "II.B, II.C.5, B.5-B.8", columns, (header,), tuple(rows), lay.rows.forces)


def _unit_row(s: Scenario, u: ContactUnit, ammo_units: dict[str, str]) -> tuple[CellLike, ...]:
    lead = "\u2013"
    if u.commander:
        rating = "?" if u.commander.rating is None else str(u.commander.rating)
        lead = f"{u.commander.name} ({rating}){chr(10) + 'charismatic' if u.commander.charismatic else ''}"
    supply = {True: "in", False: "OUT", None: "\u2013"}[u.in_supply]
    loads = [f"{_kind(s, k)} {n}/{u.full_ammo.get(k, n)} {ammo_units.get(k, '')}".rstrip() for k, n in u.ammo.items()]
    ammo = ("\n" if len(loads) <= 2 else ", ").join(loads)
    if u.tabletop_moves is not None:
        ammo = (ammo + "; " if ammo else "") + f"{u.tabletop_moves} moves (B.8)"
    beaten = {"retreats": "retreats", "surrenders": "surrenders", "must_break_out": "breaks out"}[u.if_beaten]
    flags = ", ".join(x.capitalize() for x in u.flags)
    return (
        Cell(f"{u.id}\n{u.name}"),
        u.type.replace("_", " "),
        _stands(s, u.stands),
        flags or "\u2013",
        lead,
        Cell(supply, bold=u.in_supply is False),
        ammo or "\u2013",
        "yes" if u.edge_resupply else "no",
        beaten,
    )


# --- the post-battle losses table ----------------------------------------------------------


def loss_rows(s: Scenario, upto: int) -> list[tuple[str, list[int]]]:
    """II.B.3, for 1 to `upto` stands lost (or routed): (what, stands) of each line of the
    table, worked out from the scenario's battle rules."""
    b = s.battle
    w = [losses(b, "winner", n) for n in range(1, upto + 1)]
    lo = [losses(b, "loser", n) for n in range(1, upto + 1)]
    routed = [losses(b, "loser", 0, n) for n in range(1, upto + 1)]
    return [
        (f"Winner: lost for good ({b.winner.permanent_pct}%)", [x.permanent for x in w]),
        (f"Winner: back next turn ({b.winner.return_pct}%)", [x.returning for x in w]),
        (f"Loser: lost for good ({b.loser.permanent_pct}%)", [x.permanent for x in lo]),
        (f"Loser: back next turn ({b.loser.return_pct}%)", [x.returning for x in lo]),
        (f"Loser's routed: desert or captured ({b.loser.routed_lost_pct}%)", [x.routed_lost for x in routed]),
        ("Loser's routed: back next turn", [x.routed_returning for x in routed]),
    ]


def _losses(s: Scenario, contact: Contact, st: FormStyle, lay: BattleSheetLayout) -> _Block:
    most = max((n for side in contact.sides for u in side.units for n in u.stands.values()), default=0)
    upto = min(lay.losses.most, max(lay.losses.least, most))
    lines = loss_rows(s, upto)
    columns = [Column(3.2)] + [Column(0.42, "centre") for _ in range(upto)]
    header: list[CellLike] = ["Stands lost (or routed) on the table", *(str(n) for n in range(1, upto + 1))]
    rows = [[label, *(str(v) for v in values)] for label, values in lines]
    b = s.battle
    exempt = either([e.capitalize() for e in b.loser.routed_lost_exempt])
    odd = "odd" if b.winner.equipment.recovered_on == "even" else "even"
    names = {k.id: k.name for k in s.transport.stands}
    equipment = [_short(names.get(k, k)) for k in b.equipment_stands]
    note = _say("losses_note", b, equipment, exempt, odd)
    size = st.fonts.small
    leading = st.charts.leading * size / st.fonts.body
    note_h = len(_wrap(note, size, _content_width(st))) * leading + size
    height = (
        heading_height(st)
        + _header_h(st, _content_width(st), columns, [header])
        + len(rows) * lay.rows.losses
        + 4
        + note_h
    )

    def draw(sheet: Sheet, y: float) -> float:
        y = sheet.heading(sheet.left, y, sheet.span, "Post-battle losses", "II.B.3")
        y = sheet.table(sheet.left, y, sheet.span, columns, [header], rows, row_h=lay.rows.losses)
        return sheet.para(
            sheet.left, y - 4, sheet.span, note, size=size, leading=leading, colour=sheet.st.colours.muted
        )

    return _Block(height, draw)
