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
    wrecked hexes, its own and the next along the line, and ends in the last; standing on intact
    track it repairs the next wrecked hex along the line (and the one after), moving onto them."""
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
                # RULES-NOTES (C.2, 2026-12-02): the unit's own hex, if wrecked, then the next hexes
                # along the line, each wrecked; from intact track it repairs the next ones, moving onto them
                path = order.repair if order.repair[0] == unit.hex else [unit.hex, *order.repair]
                ahead = path[1:]
                fixed = [h for h in path[:1] if h in wrecked] + ahead
                why = None
                if unit.type not in rules.repair_unit_types:
                    why = f"only {' or '.join(rules.repair_unit_types)} units repair track"
                elif len(fixed) > rules.repair_hexes_per_turn:
                    why = f"{len(fixed)} wrecked hexes; at most {rules.repair_hexes_per_turn} a turn"
                elif any(not board.rail_link(a, b) for a, b in zip(path, path[1:], strict=False)):
                    a, b = next((a, b) for a, b in zip(path, path[1:], strict=False) if not board.rail_link(a, b))
                    why = f"{b} is not the next hex along the line from {a}"
                elif unit.moved:
                    why = "the unit moved this turn; repairing is its move"
                elif any(u.hex in path and not state.allied(u.faction, faction, state.turn) for u in state.units):
                    why = "enemy units are on that track"
                elif not fixed or any(h not in wrecked for h in ahead):
                    intact = [h for h in ahead if h not in wrecked] or path[:1]
                    why = f"the track is not wrecked in {', '.join(intact)}"
                route = "-".join(order.repair)
                if why:
                    verdicts.append(
                        said(unit.id, f"repair {route}", "void", f"{label}: repair {route}: {why}: void, C.2", "C.2")
                    )
                else:
                    wrecked -= set(fixed)
                    units[unit.id] = replace(unit, hex=path[-1])
                    verdicts.append(
                        said(
                            unit.id,
                            f"repair {route}",
                            "done",
                            f"{label}: repairs the track in {'-'.join(fixed)}"
                            + (f", ending in {path[-1]}" if path[-1] != unit.hex else ""),
                            "C.2",
                        )
                    )
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        wrecked_track=tuple(sorted(wrecked)),
        verdicts=tuple(verdicts),
    )
