"""The umpire's views of a campaign after a turn: his units with where they stand and what they
may do (`units_view`), and one hex with everything the rules ask of it (`hex_view`), as values."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.phases.supply import trace_from
from kitgen.engine.state import CampaignState, UnitState
from kitgen.errors import UsageError
from kitgen.mapping.board import Board
from kitgen.model.scenario import Scenario, name_key
from kitgen.rules.command import obey_target
from kitgen.rules.movement import movement_row
from kitgen.rules.paths import allowance, crossing, step_cost

SUPPLY_WORDS = {None: "not judged", True: "in", False: "OUT"}


@dataclass(frozen=True)
class Place:
    """A hex and the town nearest it: the town in the hex (distance 0), else the closest by hexes."""

    hex: str
    town: str | None
    distance: int | None

    def text(self) -> str:
        if self.town is None or self.distance is None:
            return "no town"
        if self.distance == 0:
            return self.town
        return f"{self.distance} hex{'es' if self.distance != 1 else ''} from {self.town}"


@dataclass(frozen=True)
class Command:
    """II.C: a unit's commander and the highest D10 roll that obeys him now (II.C.4: each failure
    in a row raises it)."""

    name: str
    rating: int
    failures: int
    target: int


@dataclass(frozen=True)
class UnitRow:
    id: str
    name: str
    faction: str
    type: str
    place: Place
    stands: dict[str, int]
    mp: int | None
    """A: the movement allowance of its type (following `moves_as`)."""
    supply: str
    """'in', 'OUT' or 'not judged' (B.2, at the start of the turn)."""
    command: Command | None
    commander: str | None
    """As the set-up names him (a commander the scenario does not know has no `command`)."""
    carrier: str | None
    carrier_kind: str | None
    """'train' or 'ship', when carried this turn."""


@dataclass(frozen=True)
class TrainRow:
    id: str
    faction: str
    place: Place
    armoured: bool


@dataclass(frozen=True)
class ShipRow:
    id: str
    name: str
    faction: str
    place: Place
    gunfire: int


@dataclass(frozen=True)
class DepotRow:
    faction: str
    place: Place
    cut_off: bool
    uses: int


@dataclass(frozen=True)
class UnitsView:
    turn: int
    faction: str | None
    """The faction asked for, or None for all."""
    units: tuple[UnitRow, ...]
    trains: tuple[TrainRow, ...]
    ships: tuple[ShipRow, ...]
    depots: tuple[DepotRow, ...]


def faction_id(scenario: Scenario, value: str) -> str:
    """The faction named by its id or its name; anything else is a usage error with a suggestion."""
    for f in scenario.meta.factions:
        if name_key(value) in (name_key(f.id), name_key(f.name)):
            return f.id
    raise UsageError(
        msg.view_unknown_faction(
            value, [f.id for f in scenario.meta.factions], [f.name for f in scenario.meta.factions]
        )
    )


def nearest_town(board: Board, hex_id: str) -> Place:
    """The town in the hex, else the nearest by hexes (the map's first of those as near)."""
    cell = board.grid.parse_id(hex_id)
    best: tuple[int, int, str] | None = None
    if cell is not None:
        for order, (there, towns) in enumerate(board.towns.items()):
            other = board.grid.parse_id(there)
            if other is not None and towns:
                found = (board.grid.distance(cell, other), order, towns[0])
                best = found if best is None or found < best else best
    if best is None:
        return Place(hex_id, None, None)
    return Place(hex_id, best[2], best[0])


def units_view(campaign: Campaign, state: CampaignState, faction: str | None = None) -> UnitsView:
    """Every unit (of `faction`, if given), train, ship and depot after the state's turn."""
    s, board = campaign.scenario, campaign.board
    wanted = faction_id(s, faction) if faction is not None else None

    def mine(f: str) -> bool:
        return wanted is None or f == wanted

    trains = {t["id"] for t in state.trains}
    return UnitsView(
        turn=state.turn,
        faction=wanted,
        units=tuple(_unit_row(campaign, state, u, trains) for u in state.units if mine(u.faction)),
        trains=tuple(
            TrainRow(t["id"], t["faction"], nearest_town(board, t["hex"]), bool(t.get("armoured")))
            for t in state.trains
            if mine(t["faction"])
        ),
        ships=tuple(
            ShipRow(x["id"], x["name"], x["faction"], nearest_town(board, x["hex"]), int(x.get("gunfire", 0)))
            for x in state.ships
            if mine(x["faction"])
        ),
        depots=tuple(
            DepotRow(d["faction"], nearest_town(board, d["hex"]), bool(d.get("cut_off")), int(d.get("uses", 0)))
            for d in state.depots
            if mine(d["faction"])
        ),
    )


def _unit_row(campaign: Campaign, state: CampaignState, u: UnitState, trains: set[str]) -> UnitRow:
    s = campaign.scenario
    command = None
    found = s.find_commander(u.commander) if u.commander else None
    if found is not None:
        failures = state.command_failures.get(found.name, 0)
        target = obey_target(s.command, found.dependability, failures=failures)
        command = Command(found.name, found.dependability, failures, target)
    carrier = u.carrier if u.carried else None
    kind = None if carrier is None else ("train" if carrier in trains else "ship")
    return UnitRow(
        id=u.id,
        name=u.name,
        faction=u.faction,
        type=u.type,
        place=nearest_town(campaign.board, u.hex),
        stands=dict(u.stands),
        mp=movement_row(s.movement, u.type).mp,
        supply=SUPPLY_WORDS[u.in_supply],
        command=command,
        commander=u.commander,
        carrier=carrier,
        carrier_kind=kind,
    )


# --- one hex ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of the hex: the neighbour across it and what lies between."""

    neighbour: str
    direction: str
    """Which side of the hex it is: N, NE, SE, S, SW or NW."""
    terrain: str
    """The neighbour's terrain."""
    river: str | None
    river_class: str | None
    bridge: bool
    open_water: bool
    ferry: int
    """A.1: units a ferry takes across a turn (0: no ferry)."""
    rail: bool
    road: bool
    pontoons: tuple[str, ...]
    """A.1: the factions whose pontoon bridges this side."""


@dataclass(frozen=True)
class TownRow:
    name: str
    owner: str


@dataclass(frozen=True)
class Occupants:
    faction: str
    units: tuple[str, ...]
    trains: tuple[str, ...]
    ships: tuple[str, ...]
    depot: bool


@dataclass(frozen=True)
class SupplyHere:
    """B.3: whether a unit of the faction standing in the hex now would be in supply, and the proof."""

    faction: str
    in_supply: bool
    path: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """A.1: what a unit of one type pays to enter the hex from one neighbour, alone on a two-hex path."""

    unit_type: str
    mp: int | None
    """The MP spent, when the step could be judged (even beyond the unit's allowance)."""
    allowed: bool
    whole_move: bool
    reason: str | None


@dataclass(frozen=True)
class EntriesFrom:
    neighbour: str
    direction: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class HexView:
    turn: int
    hex: str
    terrain: str
    coastal: bool
    port: bool
    edges: tuple[str, ...]
    towns: tuple[TownRow, ...]
    nearest: Place
    sides: tuple[Side, ...]
    rail: tuple[str, ...]
    """The hexes the railway joins this one to."""
    roads: tuple[str, ...]
    wrecked_track: bool
    occupants: tuple[Occupants, ...]
    supply: tuple[SupplyHere, ...]
    unit_types: tuple[str, ...]
    entries: tuple[EntriesFrom, ...]
    """Empty for a sea hex, which no land move enters."""


def hex_of(campaign: Campaign, value: str) -> str:
    """The hex a command-line argument names: a hex id of the map, or a town's hex."""
    board = campaign.board
    if board.on_map(value):
        return value
    town = campaign.scenario.find_town(value)
    if town is not None:
        there = next((h for h, towns in board.towns.items() if town.name in towns), None)
        if there is not None:
            return there
    ids = board.arrays.ids
    raise UsageError(msg.view_unknown_hex(value, ids[0], ids[-1], [t.name for t in campaign.scenario.towns]))


def hex_sides(board: Board, state: CampaignState, hex_id: str) -> tuple[Side, ...]:
    """The hex's six sides clockwise from north: each neighbour and what lies between."""
    cell = board.grid.parse_id(hex_id)
    sides = []
    for n in board.neighbours(hex_id):
        other = board.grid.parse_id(n)
        direction = board.grid.direction(cell, other) if cell and other else None
        side = board.side(hex_id, n)
        sides.append(
            Side(
                neighbour=n,
                direction=direction or "?",
                terrain=board.terrain[n],
                river=side.river if side else None,
                river_class=side.river_class if side else None,
                bridge=bool(side and side.bridge),
                open_water=bool(side and side.sea),
                ferry=board.ferry(hex_id, n),
                rail=board.rail_link(hex_id, n),
                road=board.road_link(hex_id, n),
                pontoons=tuple(p["faction"] for p in state.pontoons if set(p["hexes"]) == {hex_id, n}),
            )
        )
    return tuple(sides)


def hex_view(campaign: Campaign, state: CampaignState, hex_id: str) -> HexView:
    """Everything about one hex after the state's turn (`hex_of` finds it from an argument)."""
    s, board = campaign.scenario, campaign.board
    sides = hex_sides(board, state, hex_id)
    occupants = []
    for f in s.meta.factions:
        units = tuple(u.id for u in state.units if u.faction == f.id and u.hex == hex_id)
        trains = tuple(t["id"] for t in state.trains if t["faction"] == f.id and t["hex"] == hex_id)
        ships = tuple(x["id"] for x in state.ships if x["faction"] == f.id and x["hex"] == hex_id)
        depot = any(d["faction"] == f.id and d["hex"] == hex_id for d in state.depots)
        if units or trains or ships or depot:
            occupants.append(Occupants(f.id, units, trains, ships, depot))
    supply = []
    if not board.is_sea(hex_id):
        for f in s.meta.factions:
            path = trace_from(campaign, board, state, f.id, hex_id)
            supply.append(SupplyHere(f.id, path is not None, path or ()))
    types = tuple(t.id for t in s.movement.unit_types)
    return HexView(
        turn=state.turn,
        hex=hex_id,
        terrain=board.terrain[hex_id],
        coastal=hex_id in board.coastal,
        port=board.is_port(hex_id),
        edges=tuple(sorted(board.edges(hex_id))),
        towns=tuple(TownRow(t, state.owners.get(t, "none")) for t in board.towns.get(hex_id, ())),
        nearest=nearest_town(board, hex_id),
        sides=tuple(sides),
        rail=board.rail_neighbours(hex_id),
        roads=tuple(n for n in board.neighbours(hex_id) if board.road_link(hex_id, n)),
        wrecked_track=hex_id in state.wrecked_track,
        occupants=tuple(occupants),
        supply=tuple(supply),
        unit_types=types,
        entries=tuple(
            EntriesFrom(
                side.neighbour, side.direction, tuple(entry(campaign, t, side.neighbour, hex_id) for t in types)
            )
            for side in sides
            if not board.is_sea(hex_id)
        ),
    )


def entry(campaign: Campaign, unit_type: str, start: str, hex_id: str) -> Entry:
    """A.1 on the two-hex path start-hex_id, a ferry on the hexside counting as a crossing."""
    board = campaign.board
    if board.is_sea(start):
        return Entry(unit_type, None, False, False, "from the sea: units go ashore from a ship (A.3, D)")
    rules = campaign.scenario.movement
    cost = step_cost(rules, unit_type, crossing(board, start, hex_id, set(board.ferries)))
    mp = allowance(rules, unit_type)
    over = cost.mp is not None and not cost.whole_move and cost.mp > mp
    return Entry(
        unit_type=unit_type,
        mp=cost.mp,
        allowed=cost.allowed and not over,
        whole_move=cost.whole_move,
        reason=f"more than the unit's {mp} MP: it stops before the hex" if over else cost.reason,
    )
