"""Phase 9 (C.2): track wrecked and repaired."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, Turn
from kitgen.engine.state import CampaignState, Verdict
from kitgen.engine.turnlog import TurnLog
from kitgen.mapping.board import Board


def run(turn: Turn, state: CampaignState) -> CampaignState:
    return track_work(turn.campaign, turn.board, state, turn.log, turn.source, state.held)


def track_work(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """C.2 (phase 9): an infantry or cavalry unit of 3 or more stands wrecks the track of a hex
    it entered this turn, if no enemy is there; an RR repair or engineer unit repairs up to 2
    wrecked hexes, its own and the next along the line, and ends in the last."""
    rules = campaign.scenario.transport.track
    units = {u.id: u for u in state.units}
    wrecked = set(state.wrecked_track)
    verdicts = list(state.verdicts)
    file = located.name
    for faction, orders in log.track.items():
        for i, order in enumerate(orders):
            line, column = located.position(("track", faction, i))
            said = partial(Verdict, file, line, faction, kind="track", column=column)  # the order's place
            unit = units.get(order.unit)
            if unit is None:  # surrendered or broken down earlier this turn
                gone = f"{order.unit} is no longer on the map: void"
                verdicts.append(said(order.unit, "track", "void", gone, "C.2"))
                continue
            stands = sum(unit.stands.values())
            label = f"{unit.name} ({unit.type}, {stands} stands)"
            if unit.id in halted:
                work = f"wreck {order.wreck}" if order.wreck else f"repair {'-'.join(order.repair)}"
                verdicts.append(said(unit.id, work, "held", f"{label}: {work}: {halted[unit.id]}", "II.C"))
                continue
            if order.wreck is not None:
                rail_here = any(board.rail_link(order.wreck, n) for n in board.neighbours(order.wreck))
                enemy_there = any(
                    u.hex == order.wreck and not state.allied(u.faction, faction, state.turn) for u in state.units
                )
                why = None
                if unit.type not in rules.wreck_unit_types or stands < rules.wreck_min_stands:
                    why = f"only {' or '.join(rules.wreck_unit_types)} units of {rules.wreck_min_stands} or more stands wreck track"
                elif not unit.moved or unit.hex != order.wreck:
                    why = f"it did not enter {order.wreck} this turn"
                elif not rail_here:
                    why = f"no railway runs through {order.wreck}"
                elif enemy_there:
                    why = f"enemy units are in {order.wreck}"
                if why:
                    verdicts.append(
                        said(
                            unit.id,
                            f"wreck {order.wreck}",
                            "void",
                            f"{label}: wreck {order.wreck}: {why}: void, C.2",
                            "C.2",
                        )
                    )
                else:
                    wrecked.add(order.wreck)
                    verdicts.append(
                        said(
                            unit.id,
                            f"wreck {order.wreck}",
                            "done",
                            f"{label}: wrecks the track in {order.wreck}",
                            "C.2",
                        )
                    )
            if order.repair:
                hexes = order.repair
                why = None
                if unit.type not in rules.repair_unit_types:
                    why = f"only {' or '.join(rules.repair_unit_types)} units repair track"
                elif len(hexes) > rules.repair_hexes_per_turn:
                    why = f"{len(hexes)} hexes; at most {rules.repair_hexes_per_turn} a turn"
                elif hexes[0] != unit.hex:
                    why = f"the repair starts in the unit's own hex, {unit.hex}"
                elif len(hexes) == 2 and not board.rail_link(hexes[0], hexes[1]):
                    why = f"{hexes[1]} is not the next hex along the line"
                elif unit.moved:
                    why = "the unit moved this turn; repairing is its move"
                elif any(u.hex in hexes and not state.allied(u.faction, faction, state.turn) for u in state.units):
                    why = "enemy units are on that track"
                elif any(h not in wrecked for h in hexes):
                    why = f"the track is not wrecked in {', '.join(h for h in hexes if h not in wrecked)}"
                route = "-".join(hexes)
                if why:
                    verdicts.append(
                        said(unit.id, f"repair {route}", "void", f"{label}: repair {route}: {why}: void, C.2", "C.2")
                    )
                else:
                    wrecked -= set(hexes)
                    units[unit.id] = replace(unit, hex=hexes[-1])
                    verdicts.append(
                        said(unit.id, f"repair {route}", "done", f"{label}: repairs the track in {route}", "C.2")
                    )
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        wrecked_track=tuple(sorted(wrecked)),
        verdicts=tuple(verdicts),
    )
