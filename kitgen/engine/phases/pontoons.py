"""A.1: pontoon bridges emplaced across major rivers, and taken up again."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.state import CampaignState, Verdict
from kitgen.engine.turnlog import TurnLog
from kitgen.mapping.board import Board
from kitgen.rules.movement import pontoon_types


def friendly_pontoons(state: CampaignState, faction: str) -> set[frozenset[str]]:
    """The hexsides a faction's units may cross by pontoon: its own bridges and its allies'."""
    return {frozenset(p["hexes"]) for p in state.pontoons if state.allied(p["faction"], faction, state.turn)}


def pontoon_work(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """A.1 (before land moves, so units may cross the same turn): emplacing a pontoon takes the
    pontoon unit's whole turn, across a major-river hexside from its own hex; it stays until
    picked up (RULES-NOTES), which takes a whole turn too, from either bank."""
    pontoon = pontoon_types(campaign.scenario.movement)
    units = {u.id: u for u in state.units}
    bridges: list[dict[str, Any]] = [dict(p) for p in state.pontoons]
    verdicts = list(state.verdicts)
    file = located.name
    for faction, orders in log.pontoons.items():
        for i, order in enumerate(orders):
            line, column = located.position(("pontoons", faction, i))
            said = partial(Verdict, file, line, faction, kind="pontoon", column=column)  # the order's place
            unit = units.get(order.unit)
            work = f"emplace {'-'.join(order.emplace)}" if order.emplace else "pick up"
            if unit is None:
                gone = f"{order.unit}: {work}: no longer on the map: void"
                verdicts.append(said(order.unit, work, "void", gone, "A.1"))
                continue
            own = next((p for p in bridges if p["unit"] == unit.id), None)
            why: str | None = None
            if unit.id in halted:
                verdicts.append(said(unit.id, work, "held", f"{unit.name}: {work}: {halted[unit.id]}", "II.C"))
                continue
            if unit.type not in pontoon:
                why = "only a pontoon unit emplaces or picks up a pontoon"
            elif unit.moved:
                why = "it has moved this turn; the work takes the whole turn"
            elif order.emplace:
                here, there = (order.emplace + ["", ""])[:2]
                side = board.side(here, there)
                if len(order.emplace) != 2:
                    why = "emplace names two hexes: the unit's own and the one across the river"
                elif here != unit.hex:
                    why = f"the unit is in {unit.hex}, not {here}"
                elif not board.adjacent(here, there) or side is None or side.river_class != "major":
                    why = f"no major river between {here} and {there}"
                elif side.bridge:
                    why = f"a bridge crosses already between {here} and {there}"
                elif own is not None:
                    why = f"its pontoon is in place already, across {'-'.join(own['hexes'])}"
            elif order.pick_up:
                if own is None:
                    why = "it has no pontoon in place"
                elif unit.hex not in own["hexes"]:
                    why = f"its pontoon is across {'-'.join(own['hexes'])}, not at {unit.hex}"
            else:
                why = "expected `emplace: [own hex, hex across]` or `pick_up: true`"
            if why:
                verdicts.append(said(unit.id, work, "void", f"{unit.name}: {work}: {why}: void, A.1", "A.1"))
                continue
            if order.emplace:
                bridges.append({"faction": faction, "unit": unit.id, "hexes": sorted(order.emplace)})
                text = f"{unit.name}: emplaces a pontoon across the river, {'-'.join(order.emplace)}"
            else:
                bridges = [p for p in bridges if p["unit"] != unit.id]
                text = f"{unit.name}: picks up its pontoon"
            units[unit.id] = replace(unit, moved=True)
            verdicts.append(said(unit.id, work, "done", text, "A.1"))
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        pontoons=tuple(sorted(bridges, key=lambda p: (p["hexes"], p["unit"]))),
        verdicts=tuple(verdicts),
    )


def orphaned_pontoons(state: CampaignState) -> CampaignState:
    """A pontoon stays until its unit picks it up (RULES-NOTES): a unit lost, surrendered or
    disbanded can never do so, and its bridge goes with it."""
    present = {u.id for u in state.units}
    kept = tuple(p for p in state.pontoons if p["unit"] in present)
    return state if len(kept) == len(state.pontoons) else replace(state, pontoons=kept)
