"""Where each unit can get to this turn: by land (A, A.1) and by train (C.1), as the movement
phase would judge its orders, searched over the whole board once per unit or stack.

The rules are those of `kitgen.rules.paths`: each kind of step on the board (`Crossing`) is
costed once by `step_cost` for a unit type, and the search reads the costs from a table of the
board's steps. A reach is worked out from the state between turns, before the next turn's
orders: what the unit knows of this turn (supply, fuel, card effects in force, pontoons in
place, where the enemy stands) and nothing of what other orders or rolls will do.
"""

from __future__ import annotations

import heapq
import weakref
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.phases.land import move_terms, mp_modifier
from kitgen.engine.phases.loads import weigh
from kitgen.engine.phases.logistics import vehicles
from kitgen.engine.phases.rail import train_blocks
from kitgen.engine.phases.supply import trace_from
from kitgen.engine.state import CampaignState, UnitState
from kitgen.errors import UsageError
from kitgen.mapping.board import Board
from kitgen.model.rules import MovementRules
from kitgen.rules.movement import RIVERS, movement_row
from kitgen.rules.paths import Crossing, allowance, step_cost


@dataclass(frozen=True)
class Reach:
    """Where one unit can get to this turn, and what it costs."""

    unit: str
    hex: str
    allowance: int
    """MP this turn (0 for a unit that cannot move on the map)."""
    land: dict[str, int]
    """Hex -> MP a land move spends to end there (the unit's own hex 0)."""
    rail: dict[str, int]
    """Hex -> rail hexes travelled, for a unit at a station with a train that can carry it
    (the unit's own hex 0); empty when no train can."""
    ferry: frozenset[str] = frozenset()
    """Hexes of `land` reached only by a whole-move pontoon or ferry crossing (A.1)."""
    notes: tuple[str, ...] = ()
    """What limits the reach beyond the board: why the unit cannot move, ferry places, trains."""


def land_reach(
    campaign: Campaign, state: CampaignState, unit_id: str, *, enemy: Collection[str] | None = None
) -> dict[str, int]:
    """The hexes a move order of the unit would be judged `done` into this turn, with the MP it
    spends. `enemy`: the enemy-held hexes to reckon with (a move stops in one); None, all of them."""
    return dict(_land(campaign, state, _unit(state, unit_id), enemy).cost)


def land_paths(
    campaign: Campaign, state: CampaignState, unit_id: str, *, enemy: Collection[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """For each hex of `land_reach`, a cheapest move there: its hexes, the unit's own first."""
    return _land(campaign, state, _unit(state, unit_id), enemy).paths()


def rail_reach(
    campaign: Campaign, state: CampaignState, unit_id: str, *, enemy: Collection[str] | None = None
) -> dict[str, int]:
    """The hexes a train of the unit's faction in its hex could carry it to this turn (C.1), with
    the hexes of track travelled; empty when there is no such train or the unit cannot board.
    `enemy`: the enemy-held hexes that block the line; None, all of them."""
    return dict(_rail(campaign, state, _unit(state, unit_id), enemy).cost)


def rail_paths(
    campaign: Campaign, state: CampaignState, unit_id: str, *, enemy: Collection[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """For each hex of `rail_reach`, a shortest run of track there, the station first."""
    return _rail(campaign, state, _unit(state, unit_id), enemy).paths()


def reach(campaign: Campaign, state: CampaignState, unit_id: str, *, enemy: Collection[str] | None = None) -> Reach:
    """The unit's land and rail reach this turn."""
    return _reach(campaign, state, _unit(state, unit_id), enemy, {})


def faction_reach(
    campaign: Campaign, state: CampaignState, faction: str, *, enemy: Collection[str] | None = None
) -> list[Reach]:
    """The reach of each of the faction's units, in the state's order; units of one hex with
    the same movement row and MP share one search. `enemy`, if given, is the enemy-held hexes
    the faction knows of (RULES-NOTES: players write orders without knowing where the enemy
    is); None reckons with every enemy unit, as the umpire's engine will."""
    factions = [f.id for f in campaign.scenario.meta.factions]
    if faction not in factions:
        raise UsageError(msg.lookup_unknown_faction(faction, factions))
    shared: dict[tuple[object, ...], _Search] = {}
    return [_reach(campaign, state, u, enemy, shared) for u in state.units if u.faction == faction]


@dataclass(frozen=True)
class _Search:
    """One search from a hex: cost per hex reached, the hex each was reached from, and the
    hexes reached by a whole-move crossing from the start (by that step alone)."""

    start: str
    cost: dict[str, int]
    back: dict[str, str]
    whole: frozenset[str] = frozenset()
    """Hexes whose cheapest move is the one-step pontoon or ferry crossing."""
    only_whole: frozenset[str] = frozenset()
    """Hexes reached by no other move."""
    allowance: int = 0
    notes: tuple[str, ...] = ()

    def paths(self) -> dict[str, tuple[str, ...]]:
        """Hex -> the hexes of a cheapest way there, the start first."""
        found: dict[str, tuple[str, ...]] = {}
        for hex_id in self.cost:
            if hex_id in self.whole:
                found[hex_id] = (self.start, hex_id)
                continue
            path = [hex_id]
            while path[-1] != self.start:
                path.append(self.back[path[-1]])
            found[hex_id] = tuple(reversed(path))
        return found


def _unit(state: CampaignState, unit_id: str) -> UnitState:
    found = state.unit(unit_id)
    if found is None:
        raise UsageError(msg.log_unknown_unit(unit_id, sorted(u.id for u in state.units)))
    return found


def _next_turn(state: CampaignState) -> CampaignState:
    """The state as the next turn's movement phase finds it, as far as that is known now: its
    turn number (for card effects and alliances), last turn's evaded partisans back (II.D.1)."""
    return replace(state, turn=state.turn + 1, evaded=frozenset())


def _reach(
    campaign: Campaign,
    state: CampaignState,
    unit: UnitState,
    enemy: Collection[str] | None,
    shared: dict[tuple[object, ...], _Search],
) -> Reach:
    land = _land(campaign, state, unit, enemy, shared)
    rail = _rail(campaign, state, unit, enemy, shared)
    return Reach(
        unit=unit.id,
        hex=unit.hex,
        allowance=land.allowance,
        land=dict(land.cost),
        rail=dict(rail.cost),
        ferry=land.only_whole,
        notes=land.notes + rail.notes,
    )


def _stuck(campaign: Campaign, state: CampaignState, unit: UnitState) -> str | None:
    """Why the unit makes no land move this turn whatever its path, or None."""
    if unit.aboard is not None:
        ship = next((str(x.get("name", x["id"])) for x in state.ships if x["id"] == unit.aboard), unit.aboard)
        return f"aboard the {ship}: no land move, it goes ashore by a sea order (D.1)"
    fuel = campaign.scenario.supply.fuel
    # B.8 as the supply phase will judge it at the start of the turn (logistics.after_judgement):
    # back in supply, fuel again; out of it after its one move, a vehicle unit is immobilised
    running_dry = unit.type in fuel.vehicles and bool(vehicles(campaign.scenario.supply, unit))
    if unit.immobilised or (running_dry and unit.moves_out_of_supply >= fuel.moves_out_of_supply):
        board, later = campaign.board, replace(state, turn=state.turn + 1)
        if trace_from(campaign, board, later, unit.faction, unit.hex) is None:
            return "out of supply and out of fuel: immobilised, no land move (B.8)"
    return None


def _land(
    campaign: Campaign,
    state: CampaignState,
    unit: UnitState,
    enemy: Collection[str] | None,
    shared: dict[tuple[object, ...], _Search] | None = None,
) -> _Search:
    stuck = _stuck(campaign, state, unit)
    if stuck is not None:
        return _Search(unit.hex, {unit.hex: 0}, {}, notes=(stuck,))
    board, rules, now = campaign.board, campaign.scenario.movement, _next_turn(state)
    mp = allowance(rules, unit.type, mp_modifier(now, unit.faction, unit.type))
    row = movement_row(rules, unit.type).id
    key = ("land", unit.faction, unit.hex, row, mp)
    if shared is not None and key in shared:
        return shared[key]
    terms = move_terms(board, now, unit.faction)
    table = _table(board, rules, unit.type, frozenset(terms.whole_move))
    index = board.arrays.index
    start = index[unit.hex]
    foes = terms.foes if enemy is None else enemy
    stop = {index[h] for h in foes if h in index} - {start}
    cost, back = _search(table, start, mp, stop=stop)
    whole: dict[int, int] = {}
    for d in range(6):  # A.1: a pontoon or ferry crossing is the whole move, from the start only
        spent, there = table.whole[start * 6 + d], table.around[start * 6 + d]
        if 0 <= spent <= mp and spent < cost.get(there, mp + 1):
            whole[there] = spent
    ids = board.arrays.ids
    found = {ids[h]: c for h, c in sorted((cost | whole).items())}
    notes = []
    for h in sorted(whole):
        crossed = frozenset((unit.hex, ids[h]))
        if crossed not in terms.bridged:  # a ferry: shared by every unit that crosses this turn
            n = board.ferries[crossed]
            notes.append(
                f"the ferry {unit.hex}-{ids[h]} takes {n} unit{'s' if n != 1 else ''} a turn, first ordered first (A.1)"
            )
    met = sorted(ids[h] for h in stop if h in cost or h in whole)
    if met:
        notes.append(f"enemy units in {', '.join(met)}: a move that enters one stops there (contact)")
    searched = _Search(
        unit.hex,
        found,
        {ids[h]: ids[b] for h, b in back.items()},
        whole=frozenset(ids[h] for h in whole),
        only_whole=frozenset(ids[h] for h in whole if h not in cost),
        allowance=mp,
        notes=tuple(notes),
    )
    if shared is not None:
        shared[key] = searched
    return searched


def _rail(
    campaign: Campaign,
    state: CampaignState,
    unit: UnitState,
    enemy: Collection[str] | None,
    shared: dict[tuple[object, ...], _Search] | None = None,
) -> _Search:
    """C.1, A.2: the run of a train of the unit's faction from the unit's hex, if it can board."""
    trains = sorted(t["id"] for t in state.trains if t["hex"] == unit.hex and t["faction"] == unit.faction)
    if not trains or unit.aboard is not None:
        return _Search(unit.hex, {}, {})
    s = campaign.scenario
    load = weigh(s, [unit.id], {unit.id: unit}, "train")
    if not load.fits:
        why = f"too heavy for a train: {load.total} points of its {load.capacity} (C.1)"
        return _Search(unit.hex, {}, {}, notes=(why,))
    which = "the train here" if len(trains) == 1 else f"one of the {len(trains)} trains here"
    note = f"by {which}: {load.total} of its {load.capacity} points (C.1)"
    key = ("rail", unit.faction, unit.hex)
    if shared is not None and key in shared:
        return replace(shared[key], notes=(note,))
    board, now = campaign.board, _next_turn(state)
    train_type = s.transport.train.unit_type
    wrecked, foes = train_blocks(now, unit.faction)
    foes = foes if enemy is None else set(enemy)
    index, ids = board.arrays.index, board.arrays.ids
    closed = {index[h] for h in wrecked | foes if h in index}
    table = _table(board, s.movement, train_type, frozenset())
    cost, back = _search(table, index[unit.hex], allowance(s.movement, train_type), closed=closed)
    searched = _Search(
        unit.hex, {ids[h]: c for h, c in sorted(cost.items())}, {ids[h]: ids[b] for h, b in back.items()}
    )
    if shared is not None:
        shared[key] = searched
    return replace(searched, notes=(note,))


def _search(
    table: _Table, start: int, budget: int, *, stop: Collection[int] = (), closed: Collection[int] = ()
) -> tuple[dict[int, int], dict[int, int]]:
    """Dijkstra from `start` over the table's steps within `budget`: cost and predecessor per
    hex. Hexes of `stop` are entered but not left (contact); hexes of `closed` not entered."""
    around, costs = table.around, table.cost
    cost, back = {start: 0}, {}
    queue = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > cost[here] or here in stop:
            continue
        for k in range(here * 6, here * 6 + 6):
            step = costs[k]
            if step < 0:
                continue
            there, total = around[k], spent + step
            if total <= budget and total < cost.get(there, budget + 1) and there not in closed:
                cost[there], back[there] = total, here
                heapq.heappush(queue, (total, there))
    return cost, back


# --- the board's steps as tables -------------------------------------------------------------

_SEA, _OPEN_WATER, _BRIDGE, _ROAD, _RAIL, _PONTOON = 1, 2, 16, 32, 64, 128
_RIVER_SHIFT, _TERRAIN_SHIFT = 2, 8
"""Bits of a step's code: what `Crossing` holds, one integer per step of the board."""


@dataclass(frozen=True)
class _Steps:
    """Every step of a board, hex by hex and direction by direction as `BoardArrays.around`,
    coded as its `Crossing` less the pontoon (-1: no neighbour that way)."""

    code: npt.NDArray[np.int64]
    terrains: tuple[str, ...]
    tables: dict[tuple[int, str, frozenset[frozenset[str]]], tuple[MovementRules, _Table]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Table:
    """What each step of the board costs one unit type: flat lists indexed hex * 6 + direction."""

    around: list[int]
    cost: list[int]
    """MP of the step, or -1 when barred (a whole-move crossing included)."""
    whole: list[int]
    """MP of a whole-move pontoon or ferry crossing, or -1."""


_BOARDS: dict[int, tuple[weakref.ref[Board], _Steps]] = {}


def _steps(board: Board) -> _Steps:
    """The board's steps, coded once per board."""
    kept = _BOARDS.get(id(board))
    if kept is not None and kept[0]() is board:
        return kept[1]
    arrays = board.arrays
    terrains = tuple(sorted(set(board.terrain.values())))
    number = {t: i for i, t in enumerate(terrains)}
    terrain = np.array([number[board.terrain[h]] for h in arrays.ids] + [0], dtype=np.int64)
    around = np.ascontiguousarray(arrays.around)
    bits = np.zeros(around.shape, dtype=np.int64)
    bits |= np.where(arrays.sea[around], _SEA, 0)
    for pair, side in board.sides.items():
        mark = (_BRIDGE if side.bridge else 0) | (_OPEN_WATER if side.sea and not side.bridge else 0)
        if side.river_class in ("major", "crossable"):
            mark |= RIVERS.index(side.river_class) << _RIVER_SHIFT
        _mark(board, bits, [pair], mark)
    _mark(board, bits, board.roads, _ROAD)
    bits |= np.where(around >= 0, (arrays.track >= 0) * _RAIL, 0)
    code = np.where(around >= 0, (terrain[around] << _TERRAIN_SHIFT) | bits, -1)
    steps = _Steps(code, terrains)
    for dead in [k for k, (ref, _) in _BOARDS.items() if ref() is None]:
        del _BOARDS[dead]
    _BOARDS[id(board)] = (weakref.ref(board), steps)
    return steps


def _mark(board: Board, bits: npt.NDArray[np.int64], links: Iterable[frozenset[str]], mark: int) -> None:
    """Set `mark` on both steps across each hexside of `links` (pairs of neighbouring hexes)."""
    arrays = board.arrays
    for link in links:
        pair = sorted(link)
        if len(pair) != 2 or pair[0] not in arrays.index or pair[1] not in arrays.index:
            continue
        i, j = arrays.index[pair[0]], arrays.index[pair[1]]
        d = arrays.direction(i, j)
        if d is not None:
            bits[i, d] |= mark
            bits[j, (d + 3) % 6] |= mark


TABLES_KEPT = 64
"""Cost tables kept on a board, at most: each load of a campaign brings its own rules object."""


def _table(board: Board, rules: MovementRules, type_id: str, pontoons: frozenset[frozenset[str]]) -> _Table:
    """The cost of every step of the board to a unit of `type_id`: each distinct crossing
    costed once by the movement rules (`step_cost`), then spread over the steps that share it."""
    steps = _steps(board)
    key = (id(rules), type_id, pontoons)
    kept = steps.tables.get(key)
    if kept is not None and kept[0] is rules:
        return kept[1]
    code = steps.code.copy()
    _mark(board, code, pontoons, _PONTOON)
    code[steps.code < 0] = -1
    kinds, which = np.unique(code, return_inverse=True)
    mp = np.full(len(kinds), -1, dtype=np.int64)
    whole = np.full(len(kinds), -1, dtype=np.int64)
    for k, c in enumerate(kinds.tolist()):
        if c < 0:
            continue
        cost = step_cost(rules, type_id, _crossing(c, steps.terrains))
        if cost.mp is not None:
            (whole if cost.whole_move else mp)[k] = cost.mp
    which = which.reshape(code.shape)
    table = _Table(
        around=board.arrays.around.ravel(order="C").tolist(),
        cost=mp[which].ravel(order="C").tolist(),
        whole=whole[which].ravel(order="C").tolist(),
    )
    if len(steps.tables) >= TABLES_KEPT:  # a board lives as long as its map (`campaign._of_map`)
        steps.tables.clear()
    steps.tables[key] = (rules, table)
    return table


def _crossing(code: int, terrains: tuple[str, ...]) -> Crossing:
    return Crossing(
        terrain=terrains[code >> _TERRAIN_SHIFT],
        sea=bool(code & _SEA),
        open_water=bool(code & _OPEN_WATER),
        river=RIVERS[(code >> _RIVER_SHIFT) & 3],
        bridge=bool(code & _BRIDGE),
        road=bool(code & _ROAD),
        rail=bool(code & _RAIL),
        pontoon=bool(code & _PONTOON),
    )
