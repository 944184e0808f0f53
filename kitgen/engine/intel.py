"""What a faction can know of the map, graded as a Kriegsspiel umpire grades it.

Players write orders without knowing where the enemy is (RULES-NOTES, contact). A faction's
packet shows its own units in full; an enemy in a hex it occupies, or in a hex where it fought
last turn, in full; an enemy in a hex next to one of its units as a stack of about that size and
arm of service, without ids or stands; nothing farther away. Its allies' units in or next to its
hexes are shown in full (allies talk at the front), and are no enemies for its moves or supply.
A faction knows the owner of the towns it holds and of those it can see (in or next to its
units), and the wrecked track of the set-up and of the hexes it can see.

What it believes of the map is `believed`: the state with every enemy it cannot see taken away
and the track as it knows it; reach and supply worked out on that give nothing hidden away."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Literal

from kitgen.engine.state import CampaignState, UnitState
from kitgen.mapping.board import Board

Grade = Literal["full", "sized"]

ARMS: dict[str, str] = {
    "infantry": "infantry",
    "machine_gun": "infantry",
    "cavalry": "cavalry",
    "tachanka": "cavalry",
    "artillery": "guns",
    "armoured_car": "armour",
    "tank": "armour",
}
"""The arm of service a stand kind shows from the next hex; the rest are 'other' (engineers,
pontoons, repair trains)."""

SIZES: tuple[tuple[int, str], ...] = ((3, "small"), (8, "medium"), (15, "large"))
"""Stand totals up to each bound read as that size; more is 'very large'."""


def size_of(stands: int) -> str:
    for bound, word in SIZES:
        if stands <= bound:
            return word
    return "very large"


@dataclass(frozen=True)
class Sighting:
    """Enemy units seen in a hex, at a grade: in full (their ids are `units`) or as a stack."""

    hex: str
    faction: str
    grade: Grade
    units: tuple[str, ...] = ()
    """Full grade only: the units' ids."""
    size: str = ""
    """Sized grade: small, medium, large or very large."""
    arms: tuple[str, ...] = ()
    """Sized grade: the arms of service seen (infantry, cavalry, guns, armour, other)."""
    allied: bool = False
    """The faction's allies, not its enemies."""


@dataclass(frozen=True)
class FactionView:
    faction: str
    own: tuple[str, ...]
    """Its units' ids, on the map or aboard its ships."""
    occupied: frozenset[str]
    """Hexes its units are in."""
    watched: frozenset[str]
    """Hexes next to them (and not occupied)."""
    sightings: tuple[Sighting, ...]
    towns_known: frozenset[str]
    """Towns (by name) whose owner it knows."""
    ships: tuple[str, ...]
    """Ships it sees: its own, and others in or next to its hexes."""
    trains: tuple[str, ...]
    fought: frozenset[str] = frozenset()
    """Hexes it fought in last turn: it knows who holds them now."""

    def sees_in_full(self, unit_id: str) -> bool:
        return unit_id in self.own or any(unit_id in s.units for s in self.sightings)

    def knows_hex(self, hex_id: str) -> bool:
        return hex_id in self.occupied or hex_id in self.watched

    @property
    def known(self) -> frozenset[str]:
        """Every hex whose enemies it knows now: where it stands, next to it, and where it fought."""
        return self.occupied | self.watched | self.fought

    @property
    def enemy_hexes(self) -> frozenset[str]:
        """The hexes where it sees enemies (in full or glimpsed)."""
        return frozenset(s.hex for s in self.sightings if not s.allied)


def believed(state: CampaignState, view: FactionView, public_wrecked: Collection[str]) -> CampaignState:
    """The state as the faction can know it: the other factions' units it cannot see taken away,
    and the wrecked track it knows: `public_wrecked` (the set-up's) where it cannot see, the
    truth where it can."""
    seen = {s.hex for s in view.sightings}
    units = tuple(u for u in state.units if u.faction == view.faction or (u.aboard is None and u.hex in seen))
    wrecked = {h for h in public_wrecked if not view.knows_hex(h)}
    wrecked |= {h for h in state.wrecked_track if view.knows_hex(h)}
    return replace(state, units=units, wrecked_track=tuple(sorted(wrecked)))


def fought_in(state: CampaignState, faction: str) -> frozenset[str]:
    """The hexes where the faction fought in the turn `state` ends (II.B), or where its partisans
    met the enemy (II.D): it knows who holds them now."""
    battles = {r.hex for r in state.battle_results if r.faction == faction}
    return frozenset(battles | {c.hex for c in state.partisan_contacts if c.faction == faction})


def faction_view(
    board: Board, state: CampaignState, faction: str, *, fought: frozenset[str] = frozenset()
) -> FactionView:
    """The faction's knowledge of `state` (`fought`: the hexes it fought in last turn, from
    `fought_in` of the state after that turn): one pass over the units, with the board's neighbours."""
    own = [u for u in state.units if u.faction == faction]
    occupied = frozenset(u.hex for u in own if u.aboard is None)
    near: set[str] = set()
    for h in occupied:
        near.update(board.neighbours(h))
    watched = frozenset(near - occupied)
    others: dict[tuple[str, str], list[UnitState]] = {}
    for u in state.units:
        if u.faction != faction and u.aboard is None:
            others.setdefault((u.hex, u.faction), []).append(u)
    sightings: list[Sighting] = []
    for (hex_id, other), units in sorted(others.items()):
        if state.allied(faction, other, state.turn):
            if hex_id in occupied or hex_id in watched:
                sightings.append(Sighting(hex_id, other, "full", tuple(sorted(u.id for u in units)), allied=True))
        elif hex_id in occupied or hex_id in fought:
            sightings.append(Sighting(hex_id, other, "full", tuple(sorted(u.id for u in units))))
        elif hex_id in watched:
            stands = sum(n for u in units for n in u.stands.values())
            arms = sorted({ARMS.get(k, "other") for u in units for k, n in u.stands.items() if n > 0})
            sightings.append(Sighting(hex_id, other, "sized", size=size_of(stands), arms=tuple(arms)))
    seen = occupied | watched
    towns = frozenset(
        name for h, names in board.towns.items() for name in names if h in seen or state.owners.get(name) == faction
    )
    ships = tuple(s["id"] for s in state.ships if s["faction"] == faction or s["hex"] in seen)
    trains = tuple(t["id"] for t in state.trains if t["faction"] == faction or t["hex"] in occupied)
    return FactionView(
        faction=faction,
        own=tuple(u.id for u in own),
        occupied=occupied,
        watched=watched,
        sightings=tuple(sightings),
        towns_known=towns,
        ships=ships,
        trains=trains,
        fought=fought,
    )
