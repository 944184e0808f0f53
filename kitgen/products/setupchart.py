"""The set-up chart: where every unit, train, ship and depot starts, faction by faction, with
the towns each holds and the track that starts wrecked. The printed map is clean, so this
chart (and the hex on each set-up counter) is where the starting positions are."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from kitgen.model.scenario import Faction, Scenario, name_key
from kitgen.products.cardkey import KEY_COLUMNS, KEY_HEADER, KEY_HEADING, key_pages, key_rows
from kitgen.products.counters import stands_text
from kitgen.products.sheetparts import sheets_part
from kitgen.render.counterstyle import counter_style
from kitgen.render.pages import Part
from kitgen.render.sheet import Column, Page, Sheet, heading_height

COLUMNS = [Column(0.55, "centre"), Column(1.6), Column(2.9), Column(1.6), Column(1.4)]
HEADER = ["Hex", "Place", "Unit", "Stands", "Commander"]


def setup_rows(scenario: Scenario, hexes: Mapping[str, str], faction: Faction) -> list[list[str]]:
    """The faction's starting units, trains, ships and depots, by hex then as the set-up lists them."""
    labels = counter_style()
    setup = scenario.setup

    def hex_of(at: str) -> str:
        return hexes.get(name_key(at), "off map")

    rows = [
        [hex_of(u.at), scenario.shown_place(u.at), u.name, stands_text(u.stands, labels), u.commander or ""]
        for u in setup.units
        if u.faction == faction.id
    ]
    rows += [
        [hex_of(t.at), scenario.shown_place(t.at), "Armoured train" if t.armoured else "Train", "", ""]
        for t in setup.trains
        if t.faction == faction.id
    ]
    rows += [
        [hex_of(x.at), scenario.shown_place(x.at), x.name, f"gunfire {x.gunfire}" if x.gunfire else "transport", ""]
        for x in setup.ships
        if x.faction == faction.id
    ]
    rows += [
        [hex_of(d.at), scenario.shown_place(d.at), "Supply depot", "", ""]
        for d in setup.depots
        if d.faction == faction.id
    ]
    return sorted(rows, key=lambda r: r[0])


def build_setup_chart(scenario: Scenario, hexes: Mapping[str, str], paper: str) -> list[Part]:
    """The factions that have units at the start, each under its own heading; a faction starts a
    new page only when it does not fit on the one before (issue 44: short set-ups share a page).
    The card key follows on the last set-up page where it has room, then on pages of its own."""
    factions = [f for f in scenario.meta.factions if setup_rows(scenario, hexes, f)]
    groups, key_here = _share_pages(scenario, hexes, paper, factions)
    rows = key_rows(scenario)
    pages: list[Page] = [
        (
            f"Set-up: {', '.join(f.name for f in group)}",
            f"setup-{group[0].id}",
            partial(
                _setup_page,
                scenario=scenario,
                hexes=hexes,
                factions=group,
                first=group[0] == factions[0],
                key=rows[:key_here] if k == len(groups) - 1 else [],
            ),
        )
        for k, group in enumerate(groups)
    ]
    pages += key_pages(scenario, paper, rows[key_here:])
    part = sheets_part(
        scenario,
        paper,
        pages,
        label="Set-up chart",
        file=f"setup-chart-{paper}.pdf",
        title="Set-up chart",
        purpose="where every unit, train, ship and depot starts, by faction and hex; the map is printed clean; "
        "the umpire's key from each card's printed number to the id the logs use",
    )
    return [part]


def _share_pages(
    scenario: Scenario, hexes: Mapping[str, str], paper: str, factions: list[Faction]
) -> tuple[list[list[Faction]], int]:
    """The factions in pages: each page's first under the title band, the next ones under their
    headings while they fit (measured by drawing them on a page no one sees); and how many of the
    card key's rows fit under the last."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import PAPER

    st = form_style()
    scratch = Sheet(Canvas(io.BytesIO(), pagesize=PAPER[paper]), st, scenario, PAPER[paper], "measure")
    groups: list[list[Faction]] = []
    y = 0.0
    top = scratch.band("", None, None)  # where a page's first faction starts, under the band
    headed = 2 * st.gap + heading_height(st)  # a faction under its heading, not the page's band
    for k, faction in enumerate(factions):
        body = top - _section(scratch, top, scenario, hexes, faction, first=k == 0, heading=False)
        if groups and y - headed - body >= scratch.bottom:
            groups[-1].append(faction)
            y -= headed + body
        else:
            groups.append([faction])
            y = top - body
    room = y - 2 * st.gap - heading_height(st) - st.charts.header_row - 6 - scratch.bottom
    fits = 0
    for h in scratch.row_heights(scratch.span, KEY_COLUMNS, key_rows(scenario), wrap=True):
        if h > room:
            break
        room -= h
        fits += 1
    return groups, fits


def _setup_page(
    sheet: Sheet,
    *,
    scenario: Scenario,
    hexes: Mapping[str, str],
    factions: list[Faction],
    first: bool,
    key: list[list[str]],
) -> float:
    """The page's factions: the first under the title band, the others under their headings; then
    the first rows of the card key, if any."""
    y = sheet.band(factions[0].name, factions[0], f"Set-up, {scenario.setup.date}")
    for k, faction in enumerate(factions):
        y = _section(sheet, y, scenario, hexes, faction, first=first and k == 0, heading=k > 0)
    if key:
        y = sheet.heading(sheet.left, y - 2 * sheet.st.gap, sheet.span, f"Card key: {KEY_HEADING[0]}", KEY_HEADING[1])
        y = sheet.table(sheet.left, y, sheet.span, KEY_COLUMNS, [KEY_HEADER], key, wrap=True)
    return y


def _section(
    sheet: Sheet,
    y: float,
    scenario: Scenario,
    hexes: Mapping[str, str],
    faction: Faction,
    *,
    first: bool,
    heading: bool,
) -> float:
    """A faction's starting units and the towns it holds (under a heading of its name when it is
    not the page's first); for the first faction, the track wrecked at the start."""
    gap = sheet.st.gap
    if heading:
        y = sheet.heading(sheet.left, y - 2 * gap, sheet.span, f"{faction.name}: set-up, {scenario.setup.date}")
    y = sheet.table(sheet.left, y, sheet.span, COLUMNS, [HEADER], setup_rows(scenario, hexes, faction), wrap=True)
    held = sorted(scenario.shown_place(t) for t, owner in scenario.setup.owners.items() if owner == faction.id)
    y -= gap
    if held:
        y = sheet.para(sheet.left, y, sheet.span, ", ".join(held) + ".", lead="Towns held:")
    if first and scenario.setup.destroyed_track:
        wrecked = ", ".join(f"{hexes.get(name_key(p), '?')} ({p})" for p in scenario.setup.destroyed_track)
        y = sheet.para(sheet.left, y - gap, sheet.span, wrecked + ".", lead="Track wrecked at the start:")
    return y
