"""What a faction remembers: the enemies it saw and the owners of towns it saw, carried from turn
to turn as "last seen, turn N" until it sees that hex again or the sighting grows older than the
scenario's `intel.memory_turns`. Always derived from what it saw each turn (`intel.faction_view`
of the replayed states), never kept by hand, so a replay of the logs gives it back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kitgen.engine.intel import FactionView, Grade, size_of
from kitgen.engine.state import CampaignState


@dataclass(frozen=True)
class SeenUnit:
    """An enemy unit seen in full, as it was then."""

    id: str
    name: str
    type: str
    stands: int


@dataclass(frozen=True)
class Remembered:
    """Enemies of one faction seen in a hex at the start of turn `turn`, at the grade they were
    seen at (the `intel.Sighting` of then, with the units as they were)."""

    hex: str
    faction: str
    turn: int
    grade: Grade
    size: str
    """small, medium, large or very large."""
    arms: tuple[str, ...] = ()
    """Sized grade: the arms of service seen."""
    units: tuple[SeenUnit, ...] = ()
    """Full grade: the units."""


@dataclass(frozen=True)
class TownRemembered:
    """A town another faction (or nobody) held when the faction last saw it, at the start of `turn`."""

    town: str
    owner: str
    turn: int


@dataclass(frozen=True)
class Memory:
    """What the faction remembers at the start of turn `turn`, beside what it sees then: older
    sightings of hexes it does not see now, none more than the horizon's turns old."""

    faction: str
    turn: int
    sightings: tuple[Remembered, ...] = ()
    towns: tuple[TownRemembered, ...] = ()

    def age(self, seen: int) -> int:
        """Turns since a sighting of turn `seen`."""
        return self.turn - seen

    @property
    def hexes(self) -> frozenset[str]:
        return frozenset(r.hex for r in self.sightings)


def memories(faction: str, seen: Sequence[tuple[CampaignState, FactionView]], horizon: int) -> tuple[Memory, ...]:
    """The faction's memory at the start of each turn, given the state and what it saw at the start
    of turns 1, 2, ... in order. A sighting is forgotten when the faction knows its hex again
    (whatever it sees there now), when a unit seen in full is seen again elsewhere (it is
    remembered where it was seen last), when its faction is an ally now, or when it is older
    than `horizon` turns. A town is remembered with the owner it was seen with, unless it was
    the faction's own (it knows the towns it holds)."""
    carried: dict[tuple[str, str], Remembered] = {}
    towns: dict[str, TownRemembered] = {}
    found = []
    for turn, (state, view) in enumerate(seen, start=1):
        known = view.known
        again = {u for s in view.sightings if s.grade == "full" for u in s.units}
        kept = {}
        for key, r in carried.items():
            if r.hex in known or turn - r.turn > horizon or state.allied(faction, r.faction, turn):
                continue
            if r.grade == "full":
                units = tuple(u for u in r.units if u.id not in again)
                if not units:
                    continue
                r = Remembered(r.hex, r.faction, r.turn, "full", size_of(sum(u.stands for u in units)), units=units)
            kept[key] = r
        carried = kept
        towns = {t: m for t, m in towns.items() if t not in view.towns_known and turn - m.turn <= horizon}
        found.append(
            Memory(faction, turn, tuple(carried[k] for k in sorted(carried)), tuple(towns[t] for t in sorted(towns)))
        )
        if horizon == 0:
            continue
        by_id = {u.id: u for u in state.units}
        for s in view.sightings:
            if s.allied:
                continue
            if s.grade == "full":
                units = tuple(
                    SeenUnit(u.id, u.name, u.type, sum(u.stands.values())) for i in s.units if (u := by_id.get(i))
                )
                size = size_of(sum(u.stands for u in units))
                carried[(s.hex, s.faction)] = Remembered(s.hex, s.faction, turn, "full", size, units=units)
            else:
                carried[(s.hex, s.faction)] = Remembered(s.hex, s.faction, turn, "sized", s.size, s.arms)
        for town in view.towns_known:
            owner = state.owners.get(town, "none")
            if owner != faction:
                towns[town] = TownRemembered(town, owner, turn)
    return tuple(found)
