"""The set-up chart: where every unit, train, ship and depot starts, faction by faction, with
the towns each holds and the track that starts wrecked. The printed map is clean, so this
chart (and the hex on each set-up counter) is where the starting positions are."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from kitgen.model.scenario import Faction, Scenario, name_key
from kitgen.products.cardkey import key_pages
from kitgen.products.counters import stands_text
from kitgen.products.sheetparts import sheets_part
from kitgen.render.counterstyle import counter_style
from kitgen.render.pages import Part
from kitgen.render.sheet import Column, Page, Sheet

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
    """One page per faction that has units at the start."""
    factions = [f for f in scenario.meta.factions if setup_rows(scenario, hexes, f)]
    pages: list[Page] = [
        (
            f"Set-up: {f.name}",
            f"setup-{f.id}",
            partial(_setup_page, scenario=scenario, hexes=hexes, faction=f, first=k == 0),
        )
        for k, f in enumerate(factions)
    ]
    pages += key_pages(scenario, paper)
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


def _setup_page(sheet: Sheet, *, scenario: Scenario, hexes: Mapping[str, str], faction: Faction, first: bool) -> float:
    """The faction's starting units, the towns it holds; on the first page, the track wrecked."""
    gap = sheet.st.gap
    y = sheet.band(faction.name, faction, f"Set-up, {scenario.setup.date}")
    y = sheet.table(sheet.left, y, sheet.span, COLUMNS, [HEADER], setup_rows(scenario, hexes, faction), wrap=True)
    held = sorted(scenario.shown_place(t) for t, owner in scenario.setup.owners.items() if owner == faction.id)
    y -= gap
    if held:
        y = sheet.para(sheet.left, y, sheet.span, ", ".join(held) + ".", lead="Towns held:")
    if first and scenario.setup.destroyed_track:
        wrecked = ", ".join(f"{hexes.get(name_key(p), '?')} ({p})" for p in scenario.setup.destroyed_track)
        y = sheet.para(sheet.left, y - gap, sheet.span, wrecked + ".", lead="Track wrecked at the start:")
    return y
