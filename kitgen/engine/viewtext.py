"""The umpire's views (kitgen/engine/views.py) as text for the table and as JSON for tools."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from kitgen.engine.views import Entry, HexView, Place, UnitRow, UnitsView
from kitgen.errors import joined_lines
from kitgen.model.scenario import Scenario


def _table(header: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Columns padded to their widest cell, the last one left ragged."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        padded = [c.ljust(w) for c, w in zip(cells[:-1], widths[:-1], strict=True)]
        return (indent + "  ".join([*padded, cells[-1]])).rstrip()

    return [line(header), *(line(r) for r in rows)]


def _where(place: Place) -> str:
    return f"{place.hex} ({place.text()})"


def _command(row: UnitRow) -> str:
    if row.command is None:
        return row.commander or "-"
    c = row.command
    failed = f", {c.failures} failed" if c.failures else ""
    return f"{c.name} (obeys 1-{c.target}{failed})"


def units_text(scenario: Scenario, view: UnitsView) -> str:
    """Units by faction, then trains, ships and depots, each a table."""
    title = f"{scenario.meta.title}: units after turn {view.turn}" + (" (the set-up)" if view.turn == 0 else "")
    out = [title]
    factions = [f for f in scenario.meta.factions if view.faction in (None, f.id)]
    header = ["id", "name", "type", "hex", "stands", "MP", "supply", "commander", "carried by"]
    for f in factions:
        rows = [
            [
                u.id,
                u.name,
                u.type,
                _where(u.place),
                ", ".join(f"{n} {k}" for k, n in u.stands.items()),
                "-" if u.mp is None else str(u.mp),
                u.supply,
                _command(u),
                f"{u.carrier_kind} {u.carrier}" if u.carrier else "-",
            ]
            for u in view.units
            if u.faction == f.id
        ]
        if rows:
            out += ["", f"{f.name} ({len(rows)} units)", *_table(header, rows)]
    if view.trains:
        rows = [
            [t.id, scenario.faction_name(t.faction), _where(t.place), "armoured" if t.armoured else "-"]
            for t in view.trains
        ]
        out += ["", f"Trains ({len(rows)})", *_table(["id", "faction", "hex", "armoured"], rows)]
    if view.ships:
        rows = [[x.id, x.name, scenario.faction_name(x.faction), _where(x.place), str(x.gunfire)] for x in view.ships]
        out += ["", f"Ships ({len(rows)})", *_table(["id", "name", "faction", "hex", "gunfire"], rows)]
    if view.depots:
        rows = [
            [scenario.faction_name(d.faction), _where(d.place), f"cut off, used {d.uses}" if d.cut_off else "-"]
            for d in view.depots
        ]
        out += ["", f"Depots ({len(rows)})", *_table(["faction", "hex", "cut off (B.7)"], rows)]
    return joined_lines(out)


def units_json(view: UnitsView) -> str:
    """One object per unit, train, ship and depot, in that order, each with its `kind`."""
    items: list[dict[str, Any]] = []
    for kind, rows in (("unit", view.units), ("train", view.trains), ("ship", view.ships), ("depot", view.depots)):
        items += [{"kind": kind, **_plain(asdict(r))} for r in rows]
    return json.dumps(items, indent=1, ensure_ascii=False) + "\n"


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    """A row's place spread into its hex, town and distance."""
    place = row.pop("place")
    return {**row, "hex": place["hex"], "town": place["town"], "town_distance": place["distance"]}


def _cell(e: Entry) -> str:
    if e.whole_move and e.allowed:
        return "all"
    if e.allowed:
        return str(e.mp)
    return "-" if e.mp is None else f"{e.mp}>"


def hex_text(scenario: Scenario, view: HexView) -> str:
    """The hex, its sides, links, towns, occupants, supply and the cost of entering it."""
    towns = ", ".join(
        f"{t.name} ({scenario.faction_name(t.owner) if t.owner != 'none' else 'nobody'})" for t in view.towns
    )
    facts = [view.terrain] + [w for w, on in (("coastal", view.coastal), ("port", view.port)) if on]
    if view.edges:
        facts.append("on the " + " and ".join(view.edges) + " edge")
    out = [f"Hex {view.hex} after turn {view.turn}: {', '.join(facts)}"]
    out.append(f"Towns: {towns}" if towns else f"Towns: none ({view.nearest.text()})")
    out += ["", "Sides"]
    rows = []
    for s in view.sides:
        river = f"{s.river} ({s.river_class})" if s.river else "-"
        marks = [
            w
            for w, on in (("bridge", s.bridge), ("open water", s.open_water), ("rail", s.rail), ("road", s.road))
            if on
        ]
        if s.ferry:
            marks.append(f"ferry ({s.ferry} units a turn)")
        marks += [f"{scenario.faction_name(f)} pontoon" for f in s.pontoons]
        rows.append([s.direction, s.neighbour, s.terrain, river, ", ".join(marks) or "-"])
    out += _table(["side", "hex", "terrain", "river", "crossing"], rows)
    rail = ", ".join(view.rail) or "none"
    out += ["", f"Rail to: {rail}" + (" (track wrecked here, C.2)" if view.wrecked_track else "")]
    out.append(f"Roads to: {', '.join(view.roads) or 'none'}")
    out += ["", "Here"]
    if not view.occupants:
        out.append("  nobody")
    for o in view.occupants:
        parts = [", ".join(o.units)] if o.units else []
        parts += [f"train {t}" for t in o.trains] + [f"ship {x}" for x in o.ships] + (["depot"] if o.depot else [])
        out.append(f"  {scenario.faction_name(o.faction)}: {'; '.join(parts)}")
    if view.supply:
        out += ["", "Supply for a unit standing here (B.3)"]
        for here in view.supply:
            said = f"in, via {'-'.join(here.path)}" if here.in_supply else "OUT"
            out.append(f"  {scenario.faction_name(here.faction)}: {said}")
    if not view.entries:
        out += ["", "A sea hex: no land move enters it; units go by ship (D)"]
        return joined_lines(out)
    out += [
        "",
        "MP to enter from each neighbour, pontoons aside (A.1; all: the whole move; n> beyond the type's MP and "
        "- not allowed: a move stops before the hex)",
    ]
    rows = [[f"{e.direction} {e.neighbour}", *(_cell(x) for x in e.entries)] for e in view.entries]
    out += _table(["from", *view.unit_types], rows)
    reasons: dict[str, list[str]] = {}
    for e in view.entries:
        for x in e.entries:
            if x.reason and not x.allowed:
                reasons.setdefault(f"from {e.neighbour}: {x.reason}", []).append(x.unit_type)
    out += [f"  {text} ({', '.join(types)})" for text, types in reasons.items()]
    return joined_lines(out)


def hex_json(view: HexView) -> str:
    return json.dumps(asdict(view), indent=1, ensure_ascii=False) + "\n"
