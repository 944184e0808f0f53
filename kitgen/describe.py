"""The scenario as JSON for tools and as plain text for the umpire."""

from __future__ import annotations

import json
from typing import Any

from kitgen.model.base import NO_VP, PROHIBITED
from kitgen.model.scenario import Scenario
from kitgen.rules.movement import movement_row

SCHEMA_VERSION = 1


def scenario_dict(s: Scenario) -> dict[str, Any]:
    """The validated scenario as plain data; commanders carry their derived II.C.3 rank."""
    data = s.model_dump(mode="json")
    for entry, commander in zip(data["commanders"], s.commanders, strict=True):
        entry["rank"] = s.rank(commander)
    return {"schema_version": SCHEMA_VERSION, **data}


def scenario_json(s: Scenario) -> str:
    return json.dumps(scenario_dict(s), indent=2, ensure_ascii=False) + "\n"


def _table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    cells = [headers] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()

    return [fmt(cells[0]), fmt(["-" * w for w in widths])] + [fmt(r) for r in cells[1:]]


def scenario_text(s: Scenario) -> str:
    m = s.meta
    out = [f"{m.title}: {m.subtitle}", f"scenario {m.id}; hex {m.map.hex_size_km:g} km across the flats", ""]
    out.append("Factions: " + ", ".join(f.name for f in m.factions))
    out += ["", "A. Movement (p* = only along road/rail; rail-only types move along track)"]
    terrain = [t.id for t in s.movement.terrain]
    rows: list[list[Any]] = []
    for u in s.movement.unit_types:
        row = movement_row(s.movement, u.id)
        note = f"moves as {row.name} ({u.source})" if u.moves_as else ""
        if row.rail_only:
            rows.append([u.name, row.mp] + ["-"] * (len(terrain) + 1) + [note or "must be on RR track"])
        else:
            cost = row.cost or {}
            river = row.crossable_river if row.crossable_river == PROHIBITED else f"+{row.crossable_river}"
            rows.append([u.name, row.mp] + [cost[t] for t in terrain] + [river, note])
    out += _table(["Unit type", "MP"] + [t.capitalize() for t in terrain] + ["Crossable river", "Note"], rows)

    t = s.transport
    out += [
        "",
        f"C/D. Loads: train {t.train.capacity} points, ship {t.ship.capacity} points, ship move {t.ship.move_hexes} hexes",
    ]
    out += _table(["Stand or item", "Points"], [[k.name, k.points] for k in t.stands])

    v = s.victory
    scoring = [f for f in m.factions if f.scores_vp]
    out += ["", f"E. Towns: VP to the owner every {v.award_every_turns} turns ('-' = no VP)"]
    out += _table(
        ["Town"] + [f.name for f in scoring],
        [[tw.name] + [NO_VP if tw.vp.get(f.id) is None else tw.vp[f.id] for f in scoring] for tw in s.towns],
    )
    out += ["", "E. Thresholds: " + ", ".join(f"{s.faction_name(f)} {n}" for f, n in v.thresholds.items())]
    chart = v.reinforcement_chart
    out += ["", f"II.E.2 Reinforcement chart ({chart.roll}): draws"]
    out += _table(
        ["Roll"] + [s.faction_name(f) for f in chart.draws],
        [[i + 1] + [d[i] for d in chart.draws.values()] for i in range(len(next(iter(chart.draws.values()))))],
    )

    out += ["", f"II.C Commanders (obey on {s.command.roll} at or under dependability; C = charismatic)"]
    out += _table(
        ["Commander", "Faction", "Rank", "Dependability", "C"],
        [
            [c.name, s.faction_name(c.faction), s.rank(c), c.dependability, "C" if c.charismatic else ""]
            for c in s.commanders
        ],
    )
    return "\n".join(out) + "\n"
