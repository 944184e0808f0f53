"""What a faction can know of the map, graded as a Kriegsspiel umpire grades it.

Players write orders without knowing where the enemy is (RULES-NOTES, contact). A faction's
packet shows its own units in full; an enemy in a hex it occupies, or one it fought in or met
there last turn, in full; an enemy in a hex next to one of its units as a stack of about that
size and arm of service, without ids or stands; nothing farther away. A faction knows the owner
of the towns it holds and of those it can see (in or next to its units)."""

from __future__ import annotations

from dataclasses import dataclass
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

    def sees_in_full(self, unit_id: str) -> bool:
        return unit_id in self.own or any(unit_id in s.units for s in self.sightings)

    def knows_hex(self, hex_id: str) -> bool:
        return hex_id in self.occupied or hex_id in self.watched


def faction_view(board: Board, state: CampaignState, faction: str) -> FactionView:
    """The faction's knowledge of `state`: one pass over the units, with the board's neighbours."""
    own = [u for u in state.units if u.faction == faction]
    occupied = frozenset(u.hex for u in own if u.aboard is None)
    fought = {h for h in state.contacts if h in occupied}
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
        if hex_id in occupied or hex_id in fought:
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
    )
