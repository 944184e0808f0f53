"""Sea movement (D.1-D.3) and landings (A.3)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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
from kitgen.rules.paths import Stop
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
    if not any(log.sea.values()):
        return state
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
            judged = _judge_sea(s, board, order, ship, units, halted, ports, coastal, waters, moved)
            why, aboard, cargo = judged.void, judged.aboard, judged.load
            left: list[str] = []
            if why:
                result: Result
                result, text = "void", f"ship {ship['name']}: path {route}: {why}: void"
            else:
                hexes = len(judged.went) - 1
                end = judged.went[-1]
                result = "stopped" if judged.stop else "done"
                went = f"{plural(hexes, 'hex', 'hexes')}"
                if judged.stop:
                    went += (
                        f" to {end}, then stops before {judged.blocked_at} ({judged.reason}), the rest dropped"
                        if hexes
                        else f": cannot leave {end} ({judged.reason}), it stays"
                    )
                text = f"ship {ship['name']}: path {route}, {went}, carrying {', '.join(aboard) or 'nothing'} ({cargo.total if cargo else 0} of {s.transport.ship.capacity} points)"
                ship["hex"] = end
                moved.add(order.ship)
                landing = order.land if order.land and _lands_from(board, coastal, end, order.land) else None
                ashore = landing or (end if end in ports else None)
                if order.land and landing is None:  # stopped short of where the landing was to be
                    text += f"; it stopped short, so none land on {order.land} (A.3)"
                going, staying, landings = _going_ashore(
                    s, order, aboard, units, ashore, landing, line, column, file, faction
                )
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
                elif landing and going and not staying:
                    text += f"; lands them on {landing}"
                elif staying:
                    went = f"lands {', '.join(going)} on {landing}" if landing else f"{', '.join(going)} go ashore"
                    text += (f"; {went}" if going else "") + f"; {', '.join(staying)} stay aboard in {end}"
                left = [u for u in order.carry if u not in aboard]
                if left:
                    text += f"; left behind (not in {order.path[0]} at the start, moved, or held by command): {', '.join(left)}"
            rule = "A.3" if order.land else "D.1"
            most = s.transport.ship.move_hexes
            numbers: dict[str, Any] = {"kind": "sea", "start": at, "end": ship["hex"], "allowance": most}
            if result != "void":
                hexes = len(judged.went) - 1
                numbers |= {"spent": hexes, "left": max(0, most - hexes), "left_behind": tuple(left), "load": cargo}
                numbers |= {"stop": judged.stop}
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


@dataclass(frozen=True)
class _SeaJudged:
    """A sea order judged: why it is void, or how far the ship went and what it carries."""

    void: str | None = None
    aboard: list[str] = field(default_factory=list)
    load: Load | None = None
    went: tuple[str, ...] = ()
    stop: Stop | None = None
    reason: str | None = None
    blocked_at: str | None = None


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
) -> _SeaJudged:
    """One sea order. The ship goes hex by hex (ruling of 2026-12-02) through sea hexes, ports and
    rivers up to their ports, and stops before a hex it may not enter or after its 16 (D.1), in
    the last sea hex or port it reached; only a path off the ship's hex or with hexes not
    adjacent in turn is void, and so is a load over its capacity or a landing beside no hex of
    the path's end."""
    if order.ship in moved:
        return _SeaJudged("has moved already this turn")
    if order.path[0] != ship["hex"]:
        return _SeaJudged(f"starts in {order.path[0]}, but the ship is in {ship['hex']}")
    for here, there in zip(order.path, order.path[1:], strict=False):
        if not board.adjacent(here, there):
            return _SeaJudged(f"{here} and {there} are not adjacent")
    most = s.transport.ship.move_hexes
    went: list[str] = [order.path[0]]
    stop: Stop | None = None
    reason: str | None = None
    blocked: str | None = None
    for there in order.path[1:]:
        if len(went) - 1 == most:
            stop, reason = "mp", f"its {most} hexes spent (D.1)"
        elif not (board.is_sea(there) or there in waters or there in ports):
            stop, reason = (
                "land",
                f"{there} is land: a ship keeps to sea hexes, ports, and rivers up to their ports (D.1)",
            )
        else:
            went.append(there)
            continue
        blocked = there
        break
    while len(went) > 1 and not board.is_sea(went[-1]) and went[-1] not in ports:  # D.1: it ends at sea or in port
        blocked = went.pop()
        if stop != "mp":
            stop, reason = "land", f"{blocked} is a river passage: a ship ends its move at sea or in port (D.1)"
    end = went[-1]
    already = [u for u, x in units.items() if x.aboard == order.ship]
    # D.1: units board only in port, at the start of the turn, and not onto a ship that cannot leave
    boarding_here = order.path[0] in ports and not (stop and len(went) == 1)
    aboard = already + [
        u for u in boarding(order.carry, order.path[0], units, halted) if boarding_here and u not in already
    ]
    if stop is None and order.land is not None and not _lands_from(board, coastal, end, order.land):
        return _SeaJudged(
            f"a landing is made on a coastal hex beside the sea hex where the ship stops, not {order.land} (A.3)"
        )
    load = weigh(s, aboard, units, "ship")
    if not load.fits:  # the load carried on the verdict, as a train's is (C.1)
        return _SeaJudged(f"load of {load.total} points is over a ship's {load.capacity} (D.3)", load=load)
    return _SeaJudged(None, aboard, load, tuple(went), stop, reason, blocked)


def _lands_from(board: Board, coastal: set[str], end: str, land: str) -> bool:
    """A.3: a landing is made on a coastal hex beside the sea hex where the ship stops."""
    return board.is_sea(end) and board.adjacent(end, land) and land in coastal


def _going_ashore(
    s: Scenario,
    order: SeaOrder,
    aboard: list[str],
    units: dict[str, UnitState],
    ashore: str | None,
    landing: str | None,
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
    what = f"land {landing}" if landing else f"ashore {ashore}"
    for u in named:
        why = None
        if u not in aboard:
            why = f"{u} is not aboard ship {order.ship}"
        elif landing and set(units[u].stands) - set(s.transport.landing_stands):
            why = "only infantry land on a coast; it stays aboard, to go ashore at a port (A.3)"
        if why is None:
            going.append(u)
        rule = "A.3" if landing else "D.1"
        if why is not None or order.ashore is not None:
            text = f"{units[u].name if u in units else u}: {what}: " + (f"{why}: void" if why else "goes ashore")
            verdicts.append(
                Verdict(file, line, faction, u, what, "void" if why else "done", text, rule, kind="sea", column=column)
            )
    staying = [u for u in aboard if u not in going]
    return going, staying, verdicts
