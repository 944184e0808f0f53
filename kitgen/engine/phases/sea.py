"""Sea movement (D.1-D.3) and landings (A.3)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.phases.loads import boarding, weigh
from kitgen.engine.state import CampaignState, Result, UnitState, Verdict
from kitgen.engine.turnlog import SeaOrder, TurnLog
from kitgen.errors import KitgenError
from kitgen.mapping.board import Board
from kitgen.messages import plural
from kitgen.model.scenario import Scenario
from kitgen.rules.transport import Load, river_passages
from kitgen.validation import dotted


def sea_moves(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """D.1: a ship moves up to 16 hexes through the sea (or stays, on a path of its own hex);
    D.3: it carries 16 points. Units board only in port at the start of the turn; at a port
    they go ashore, on a coastal hex beside the sea hex where the ship stops they land (A.3:
    infantry only, and no map move from the landing hex that turn), and at sea they stay
    aboard, to go ashore on a later turn."""
    s = campaign.scenario
    ships = {x["id"]: dict(x) for x in state.ships}
    units = {u.id: u for u in state.units}
    ports, coastal = set(board.ports), set(board.coastal)
    waters = {h for passage in river_passages(board, ports).values() for h in passage}
    verdicts = list(state.verdicts)
    file = located.name
    moved: set[str] = set()
    for faction, orders in log.sea.items():
        for i, order in enumerate(orders):
            line, column = located.position(("sea", faction, i))
            ship = ships.get(order.ship)
            if ship is None or ship["faction"] != faction:
                at = ("sea", faction, i, "ship")
                mine = sorted(x for x, y in ships.items() if y["faction"] == faction)
                message = msg.log_unknown_ship(order.ship, faction, mine)
                raise KitgenError([located.problem(at, message.within(dotted(at)))])
            route, at = "-".join(order.path), ship["hex"]
            landings: list[Verdict] = []
            why, aboard, cargo = _judge_sea(s, board, order, ship, units, halted, ports, coastal, waters, moved)
            if why:
                result: Result
                result, text = "void", f"ship {ship['name']}: path {route}: {why}: void"
            else:
                hexes = len(order.path) - 1
                result, text = (
                    "done",
                    f"ship {ship['name']}: path {route}, {plural(hexes, 'hex', 'hexes')}, carrying {', '.join(aboard) or 'nothing'} ({cargo.total if cargo else 0} of {s.transport.ship.capacity} points)",
                )
                end = order.path[-1]
                ship["hex"] = end
                moved.add(order.ship)
                ashore = order.land or (end if end in ports else None)
                going, staying, landings = _going_ashore(s, order, aboard, units, ashore, line, column, file, faction)
                for u in aboard:
                    if u in going:
                        units[u] = replace(
                            units[u], hex=ashore or end, moved=True, carried=True, aboard=None, carrier=order.ship
                        )
                    else:
                        units[u] = replace(
                            units[u], hex=end, moved=True, carried=True, aboard=order.ship, carrier=order.ship
                        )
                if ashore is None:
                    text += f"; they stay aboard at sea in {end}" if aboard else ""
                elif order.land and going and not staying:
                    text += f"; lands them on {order.land}"
                elif staying:
                    went = (
                        f"lands {', '.join(going)} on {order.land}" if order.land else f"{', '.join(going)} go ashore"
                    )
                    text += (f"; {went}" if going else "") + f"; {', '.join(staying)} stay aboard in {end}"
                left = [u for u in order.carry if u not in aboard]
                if left:
                    text += f"; left behind (not in {order.path[0]} at the start, moved, or held by command): {', '.join(left)}"
            rule = "A.3" if order.land else "D.1"
            hexes, most = len(order.path) - 1, s.transport.ship.move_hexes
            numbers: dict[str, Any] = {"kind": "sea", "start": at, "end": ship["hex"], "allowance": most}
            if result == "done":
                numbers |= {"spent": hexes, "left": max(0, most - hexes), "left_behind": tuple(left), "load": cargo}
            elif cargo is not None:  # void for its load: the figures say by how much
                numbers["load"] = cargo
            verdicts.append(
                Verdict(file, line, faction, order.ship, f"sea {route}", result, text, rule, **numbers, column=column)
            )
            verdicts += landings  # each unit named to land: its own verdict, after the ship's
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        ships=tuple(ships[x["id"]] for x in state.ships),
        verdicts=tuple(verdicts),
    )


def ships_lost(state: CampaignState, log: TurnLog, located: LogSource) -> CampaignState:
    """D.1 (RULES-NOTES): a ship the log reports lost (`ships_lost`) leaves the state, and the
    units aboard it are lost with it."""
    if not log.ships_lost:
        return state
    verdicts = list(state.verdicts)
    gone: set[str] = set()
    for i, ship_id in enumerate(log.ships_lost):
        ship = next(x for x in state.ships if x["id"] == ship_id)  # the log check knows it
        line, column = located.position(("ships_lost", i))
        crew = [u.id for u in state.units if u.aboard == ship_id]
        gone |= set(crew)
        text = f"ship {ship['name']} lost in {ship['hex']}" + (f", with {', '.join(crew)} aboard" if crew else "")
        verdicts.append(
            Verdict(
                located.name, line, ship["faction"], ship_id, "lost", "done", text, "D.1", kind="sea", column=column
            )
        )
    return replace(
        state,
        units=tuple(u for u in state.units if u.id not in gone),
        ships=tuple(x for x in state.ships if x["id"] not in log.ships_lost),
        verdicts=tuple(verdicts),
    )


def _judge_sea(
    s: Scenario,
    board: Board,
    order: SeaOrder,
    ship: dict[str, Any],
    units: dict[str, UnitState],
    halted: dict[str, str],
    ports: set[str],
    coastal: set[str],
    waters: set[str],
    moved: set[str],
) -> tuple[str | None, list[str], Load | None]:
    """(why void or None, units aboard, load text) of one sea order."""
    if order.ship in moved:
        return "has moved already this turn", [], None
    if order.path[0] != ship["hex"]:
        return f"starts in {order.path[0]}, but the ship is in {ship['hex']}", [], None
    if len(order.path) - 1 > s.transport.ship.move_hexes:
        return f"{len(order.path) - 1} hexes, more than a ship's {s.transport.ship.move_hexes} (D.1)", [], None
    for here, there in zip(order.path, order.path[1:], strict=False):
        if not board.adjacent(here, there):
            return f"{here} and {there} are not adjacent", [], None
    inner = order.path[1:-1]
    if any(not board.is_sea(h) and h not in waters and h not in ports for h in inner):
        return "a ship keeps to sea hexes, ports, and rivers up to their ports (D.1)", [], None
    end = order.path[-1]
    if not board.is_sea(end) and end not in ports:
        return f"{end} is neither sea nor a port", [], None
    already = [u for u, x in units.items() if x.aboard == order.ship]
    boarding_here = order.path[0] in ports  # D.1: units board only in port, at the start of the turn
    aboard = already + [
        u for u in boarding(order.carry, order.path[0], units, halted) if boarding_here and u not in already
    ]
    landing_place = order.land is not None and board.is_sea(end) and board.adjacent(end, order.land)
    if order.land is not None and not (landing_place and order.land in coastal):
        return (
            f"a landing is made on a coastal hex beside the sea hex where the ship stops, not {order.land} (A.3)",
            [],
            None,
        )
    load = weigh(s, aboard, units, "ship")
    if not load.fits:  # the load carried on the verdict, as a train's is (C.1)
        return f"load of {load.total} points is over a ship's {load.capacity} (D.3)", [], load
    return None, aboard, load


def _going_ashore(
    s: Scenario,
    order: SeaOrder,
    aboard: list[str],
    units: dict[str, UnitState],
    ashore: str | None,
    line: int,
    column: int,
    file: str,
    faction: str,
) -> tuple[list[str], list[str], list[Verdict]]:
    """D.1, A.3: which units aboard go ashore (at the port reached) or land (on `order.land`),
    and which stay aboard; each unit named to land gets its own verdict, so that one that may not
    land (A.3: only infantry on a coast) stays aboard without voiding the others."""
    if ashore is None:
        return [], list(aboard), []
    named = list(aboard) if order.ashore is None else list(order.ashore)
    going, verdicts = [], []
    what = f"land {order.land}" if order.land else f"ashore {ashore}"
    for u in named:
        why = None
        if u not in aboard:
            why = f"{u} is not aboard ship {order.ship}"
        elif order.land and set(units[u].stands) - set(s.transport.landing_stands):
            why = "only infantry land on a coast; it stays aboard, to go ashore at a port (A.3)"
        if why is None:
            going.append(u)
        rule = "A.3" if order.land else "D.1"
        if why is not None or order.ashore is not None:
            text = f"{units[u].name if u in units else u}: {what}: " + (f"{why}: void" if why else "goes ashore")
            verdicts.append(
                Verdict(file, line, faction, u, what, "void" if why else "done", text, rule, kind="sea", column=column)
            )
    staying = [u for u in aboard if u not in going]
    return going, staying, verdicts
