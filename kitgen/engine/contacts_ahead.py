"""The battles a turn will bring, before they are fought: the turn played from its log up to the
contacts (phase 6: partisans evade or ambush), the log's `battles` left out, and each hex where
enemies then meet described as data for the umpire's battle setup sheet."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.phases.battles import gunfire_reaches, retreat_blocked
from kitgen.engine.phases.postbattle import contact_groups, present
from kitgen.engine.state import CampaignState, PartisanContact, UnitState
from kitgen.engine.turn import play_phases
from kitgen.engine.turnlog import TurnLog
from kitgen.engine.views import Place, Side, hex_sides, nearest_town
from kitgen.mapping.board import Board
from kitgen.rules.supply import full_loads

CONTACTS_PHASE = "contacts"
"""The last phase played before the tabletop (turn.PHASES)."""
EDGE_RESUPPLY = "B.5"
"""In supply: a unit low on ammunition may retire to its friendly board edge to renew it."""
NO_EDGE_RESUPPLY = "B.6"
"""Out of supply: "No edge of board resupply permitted"."""
IfBeaten = str
"""'retreats' (a hex to fall back to), 'surrenders' (none) or 'must_break_out' (none, and
Elite/Fanatic: II.B.1)."""


@dataclass(frozen=True)
class Neighbour:
    """One of the six hexes round the battle: the hexside between (as `kitgen hex` shows it)
    and who stands there."""

    side: Side
    factions: tuple[str, ...] = ()
    """The factions with units there after movement (none aboard, no partisans who evaded)."""

    @property
    def hex(self) -> str:
        return self.side.neighbour


@dataclass(frozen=True)
class Leader:
    """II.C, II.C.5: the unit's commander; `rating` is None for one the scenario does not know."""

    name: str
    rating: int | None
    charismatic: bool


@dataclass(frozen=True)
class ContactUnit:
    """A unit as it enters the battle."""

    id: str
    name: str
    faction: str
    type: str
    stands: dict[str, int]
    flags: tuple[str, ...]
    commander: Leader | None
    in_supply: bool | None
    """B.2, as judged at the start of the turn."""
    ammo: dict[str, int]
    """B.5-B.6: rounds per stand by stand kind: full in supply, as left from its last battle out of it."""
    full_ammo: dict[str, int]
    edge_resupply: bool
    resupply_rule: str
    """B.5 (edge-of-board resupply allowed) or B.6 (not)."""
    tabletop_moves: int | None
    """B.8: an out-of-supply vehicle unit's moves on the tabletop, as rolled this turn."""
    retreats: tuple[str, ...]
    """II.B.1: the hexes it could retreat to if it lost, as the map stands before any battle of
    the turn (an earlier battle may still open or close one)."""
    if_beaten: IfBeaten
    breakout_into: tuple[str, ...]
    """II.B.1: for a unit that must break out if beaten, the adjacent hexes holding enemies now."""
    hex: str = ""
    """Where it stands: the battle's hex, or across the hexside where enemy moves met."""


@dataclass(frozen=True)
class Gunfire:
    """D.3: a ship in range of the battle, worth its rating in artillery batteries."""

    ship: str
    name: str
    faction: str
    hex: str
    rating: int


@dataclass(frozen=True)
class BattleSide:
    """Allied factions fighting together in the hex."""

    factions: tuple[str, ...]
    units: tuple[ContactUnit, ...]
    ships: tuple[Gunfire, ...]

    @property
    def edge_resupply(self) -> str:
        """'all', 'some' or 'none' of its units may renew ammunition at the board edge (B.5-B.6)."""
        allowed = sum(u.edge_resupply for u in self.units)
        return "all" if allowed == len(self.units) else "none" if not allowed else "some"


@dataclass(frozen=True)
class CardNote:
    """II.A.2: an event card in force over the battle, as the umpire applies it."""

    card: str
    title: str
    text: str


@dataclass(frozen=True)
class Contact:
    """II.B: a battle to fight on the tabletop, as known before it is fought."""

    turn: int
    hex: str
    terrain: str
    towns: tuple[str, ...]
    nearest: Place
    coastal: bool
    port: bool
    neighbours: tuple[Neighbour, ...]
    """Clockwise from north, the map's hexes only."""
    sides: tuple[BattleSide, ...]
    partisans: tuple[PartisanContact, ...]
    """II.D: this hex's partisan contacts: evaded, ambush sprung or failed, caught, or fought."""
    across: tuple[str, ...] = ()
    """Hexes across a hexside where enemy moves met (ruling of 2026-12-02): their units fight
    in this battle too, reported under any of its hexes."""
    cards: tuple[CardNote, ...] = ()
    """Event cards in force that change this battle (II.A.2)."""

    @property
    def place(self) -> str:
        """The town in the hex, else the hex id."""
        return self.towns[0] if self.towns else self.hex

    def unit_ids(self) -> tuple[str, ...]:
        return tuple(u.id for side in self.sides for u in side.units)


def contacts_ahead(
    campaign: Campaign, state: CampaignState, log: TurnLog, source: LogSource | None = None
) -> list[Contact]:
    """The contacts of the turn after `state`, in hex-id order: its phases played from `log` (its
    `battles` ignored) up to and including the contacts, then each hex where enemies meet."""
    orders = log.model_copy(update={"battles": []})
    _, played = play_phases(campaign, state, orders, source=source, through=CONTACTS_PHASE)
    return [contact_at(campaign, played, hexes[0], hexes[1:]) for hexes in contact_groups(played)]


def contact_at(campaign: Campaign, state: CampaignState, hex_id: str, across: tuple[str, ...] = ()) -> Contact:
    """One contact, from the state after the contacts phase: its hex, and the hexes `across` a
    hexside where enemy moves met (one battle with it)."""
    board = campaign.board
    hexes = (hex_id, *across)
    there = [u for u in state.units if u.hex in hexes and u.aboard is None and (u.hex, u.faction) not in state.evaded]
    sides = []
    for factions in _sides(campaign, state, {u.faction for u in there}):
        units = tuple(_unit(campaign, state, u, hexes) for u in there if u.faction in factions)
        ships = tuple(
            Gunfire(s["id"], s["name"], s["faction"], s["hex"], int(s.get("gunfire", 0)))
            for s in sorted(state.ships, key=lambda s: str(s["id"]))
            if s["faction"] in factions
            and int(s.get("gunfire", 0)) > 0
            and any(gunfire_reaches(board, s["hex"], h) for h in hexes)
        )
        sides.append(BattleSide(factions, units, ships))
    return Contact(
        turn=state.turn,
        hex=hex_id,
        terrain=board.terrain[hex_id],
        towns=board.towns.get(hex_id, ()),
        nearest=nearest_town(board, hex_id),
        coastal=hex_id in board.coastal,
        port=board.is_port(hex_id),
        neighbours=_neighbours(board, state, hex_id),
        sides=tuple(sides),
        partisans=tuple(p for p in state.partisan_contacts if p.hex in hexes),
        across=across,
        cards=cards_over(campaign, state, hexes),
    )


def cards_over(campaign: Campaign, state: CampaignState, hexes: tuple[str, ...]) -> tuple[CardNote, ...]:
    """The event cards in force this turn whose effect reaches a battle in `hexes` (II.A.2)."""
    from kitgen.rules.events import in_scope

    cards = {c.id: c for c in campaign.scenario.cards.events}
    found = []
    for lasting in state.in_force:
        card = cards.get(lasting.card)
        if card is None or lasting.last < state.turn:
            continue
        effect = card.effects[lasting.effect]
        if effect.battles is not None and in_scope(campaign.board, effect.battles, hexes):
            found.append(CardNote(card.id, card.title, effect.text or ""))
    return tuple(found)


def _sides(campaign: Campaign, state: CampaignState, here: set[str]) -> list[tuple[str, ...]]:
    """The factions present grouped by alliance, in the scenario's order of factions."""
    order = [f.id for f in campaign.scenario.meta.factions]
    ranked = sorted(here, key=lambda f: (order.index(f) if f in order else len(order), f))
    groups: list[tuple[str, ...]] = []
    for faction in ranked:
        if any(faction in g for g in groups):
            continue
        groups.append(
            tuple(f for f in ranked if state.allied(faction, f, state.turn) and not any(f in g for g in groups))
        )
    return groups


def _unit(campaign: Campaign, state: CampaignState, unit: UnitState, battle: tuple[str, ...]) -> ContactUnit:
    """The unit as it enters the battle of the hexes `battle`."""
    s = campaign.scenario
    board = campaign.board
    leader = None
    if unit.commander:
        known = s.find_commander(unit.commander)
        leader = Leader(
            known.name if known else unit.commander,
            known.dependability if known else None,
            bool(known and known.charismatic),
        )
    allowed = unit.in_supply is True
    moves = next(
        (r.value for r in state.rolls if r.purpose == f"B.8 {unit.id} tabletop moves, turn {state.turn}"), None
    )
    ways = tuple(
        n
        for n in board.neighbours(unit.hex)
        if retreat_blocked(campaign, board, state, unit, n, unit.hex, state.units) is None
    )
    exempt = bool(set(unit.flags) & set(s.battle.loser.routed_lost_exempt))
    beaten: IfBeaten = "retreats" if ways else "must_break_out" if exempt else "surrenders"
    foes = {
        u.hex
        for u in state.units
        if u.aboard is None
        and (u.hex, u.faction) not in state.evaded
        and not state.allied(u.faction, unit.faction, state.turn)
    }
    into = (  # II.B.1: into another hex than the battle's own
        tuple(n for n in board.neighbours(unit.hex) if n in foes and n not in battle)
        if beaten == "must_break_out"
        else ()
    )
    return ContactUnit(
        id=unit.id,
        name=unit.name,
        faction=unit.faction,
        type=unit.type,
        stands=dict(unit.stands),
        flags=unit.flags,
        commander=leader,
        in_supply=unit.in_supply,
        ammo=dict(unit.ammo),
        full_ammo=full_loads(s.supply, unit.stands),
        edge_resupply=allowed,
        resupply_rule=EDGE_RESUPPLY if allowed else NO_EDGE_RESUPPLY,
        tabletop_moves=moves,
        retreats=ways,
        if_beaten=beaten,
        breakout_into=into,
        hex=unit.hex,
    )


def _neighbours(board: Board, state: CampaignState, hex_id: str) -> tuple[Neighbour, ...]:
    there = present(state)
    return tuple(
        Neighbour(side, tuple(sorted(there.get(side.neighbour, ())))) for side in hex_sides(board, state, hex_id)
    )
