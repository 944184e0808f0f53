"""The marker sheet: everything the rules and the forms ask the players to mark on the map or a
track, after the units' counter sheets and printed the same way (fronts, then mirrored backs).

Counts come from the scenario where it sets them (its depots, the wrecked track at the start,
its pontoon and vehicle units, the factions that score) and from layouts/counters.yaml where
play does (control markers, command-failure markers). A marker that changes state flips: a
depot's back is the depot cut off, a command marker's -1 turns to -2, an immobilised vehicle's
back is the vehicle abandoned intact, a VP marker's back counts one lap of the track; the
others carry the same face on both sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from kitgen.messages import ordinal
from kitgen.render.markerart import CROSS, MARK, PONTOON, Face, Marker, MarkerGroup

if TYPE_CHECKING:
    from kitgen.model.scenario import Scenario
    from kitgen.render.counterstyle import CounterStyle


class Piece(Protocol):
    """What the marker counts read of a unit's counter."""

    @property
    def faction(self) -> str: ...
    @property
    def symbol(self) -> str: ...
    @property
    def kinds(self) -> frozenset[str]: ...


def fill_rows(least: dict[str, int], weights: dict[str, int], columns: int, rows: int = 0) -> dict[str, int]:
    """Counts of at least `least` (faction order kept) raised to fill whole rows of `columns`, at
    least `rows` of them; the extra markers go by `weights`, largest remainder first."""
    need = sum(least.values())
    total = max(rows * columns, -(-need // columns) * columns) if columns else need
    extra = total - need
    if extra <= 0:
        return dict(least)
    if sum(weights.get(f, 0) for f in least) <= 0:
        weights = dict.fromkeys(least, 1)  # nothing to weigh by: the extra shared alike
    weight = sum(weights.get(f, 0) for f in least)
    shares = {f: extra * weights.get(f, 0) / weight for f in least}
    out = {f: least[f] + int(shares[f]) for f in least}
    left = total - sum(out.values())
    for f in sorted(least, key=lambda f: (-(shares[f] - int(shares[f])), list(least).index(f)))[:left]:
        out[f] += 1
    return out


def _same(faction: str | None, face: Face, n: int) -> list[Marker]:
    return [Marker(faction, face, face)] * n


def marker_groups(
    scenario: Scenario, style: CounterStyle, counters: Sequence[Piece], columns: int, lap: int
) -> list[MarkerGroup]:
    """The marker sheet's groups, in the order of play: turn and VP, control, depots, pontoons,
    command, vehicles, track. `counters` are the kit's unit counters (their types and stand
    kinds count the pontoon and vehicle markers), `columns` the sheet's columns (control markers
    fill rows), `lap` the VP record track's length (a VP marker's back adds it)."""
    from kitgen.rules.movement import pontoon_types

    m = style.markers
    s = scenario
    factions = [f.id for f in s.meta.factions]
    groups: list[MarkerGroup] = []

    every = ordinal(s.victory.award_every_turns)
    turn = Face("TURN", "Game turn", f"VP every {every}")
    track: list[Marker] = [Marker(None, turn, turn)]
    for f in s.meta.factions:
        if f.scores_vp:
            track.append(Marker(f.id, Face("VP", f.name, "VP track"), Face(f"+{lap}", f.name, f"{lap} VP more")))
    groups.append(MarkerGroup("Game turn and victory points", "E.2", f"VP back: +{lap}", tuple(track)))

    # the map is printed clean: every town held needs its owner's marker, and more for towns taken
    control = Face(MARK, "Control", "town held")
    held = {f: sum(1 for owner in s.setup.owners.values() if owner == f) for f in factions}
    owned = fill_rows({f: held[f] + m.control for f in factions}, held, columns)
    groups.append(
        MarkerGroup("Town control", "E.2", "", tuple(x for f, n in owned.items() for x in _same(f, control, n)))
    )

    cut = s.supply.depot_cutoff
    cut_note = f"{cut.roll} {cut.empties_on_first_use}: empty, +{cut.added_each_further_use}/use"
    weight = next((k.points for k in s.transport.stands if k.id == "depot"), None)
    own = {f: sum(1 for d in s.setup.depots if d.faction == f) for f in factions}
    face = Face("D", "Depot", f"{weight} pts by train" if weight else "supply")
    depots: list[Marker] = []
    for fid, n in fill_rows({f: own[f] + m.depots for f in factions}, own, columns).items():
        depots += [Marker(fid, face, Face("D", "Cut off", cut_note, reverse=True))] * n
    groups.append(MarkerGroup("Supply depots", "B.7", "back: cut off", tuple(depots)))

    pontoon = pontoon_types(s.movement)
    bridges = [
        x for f in factions for x in _same(f, Face(PONTOON, "Pontoon", "bridge laid"), _count(counters, f, pontoon))
    ]
    if bridges:
        groups.append(MarkerGroup("Pontoon bridges", "A.1", "", tuple(bridges)))

    # a commander, or a unit with none in its hex (C.1), rolls; each failure eases the next roll
    bonus = s.command.failure_bonus
    rollers = {f: sum(1 for k in s.commanders if k.faction == f) + _count(counters, f, None) for f in factions}
    failed = Marker(
        None,
        Face(f"\u2212{bonus}", "Command", "next roll"),
        Face(f"\u2212{2 * bonus}", "Command", "next roll", reverse=True),
    )
    command = [
        replace(failed, faction=f)
        for f, n in fill_rows({f: 1 for f in factions}, rollers, columns, m.command_rows).items()
        for _ in range(n)
    ]
    if command:
        groups.append(
            MarkerGroup("Command failures", "II.C.4", f"back: -{2 * bonus}; stack them for more", tuple(command))
        )

    fuel = set(s.supply.fuel.vehicles)
    vehicles = [
        Marker(f, Face("0 MP", "Out of fuel", "immobilised"), Face("AB", "Abandoned", "intact", reverse=True))
        for f in factions
        for _ in range(sum(1 for c in counters if c.faction == f and fuel & c.kinds))
    ]
    if vehicles:
        groups.append(MarkerGroup("Vehicles out of fuel", "B.8", "back: abandoned intact", tuple(vehicles)))

    wrecked = Face(CROSS, "Wrecked", f"repair {s.transport.track.repair_hexes_per_turn} a turn")
    count = fill_rows({"": len(s.setup.destroyed_track) + m.wrecked}, {"": 1}, columns)[""]
    groups.append(MarkerGroup("Wrecked track", "C.2", "", tuple(_same(None, wrecked, count))))
    return groups


def _count(counters: Sequence[Piece], faction: str, types: frozenset[str] | None) -> int:
    """The faction's pieces of `types` (all of them for None)."""
    return sum(1 for c in counters if c.faction == faction and (types is None or c.symbol in types))
