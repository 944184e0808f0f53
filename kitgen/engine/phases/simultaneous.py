"""Phase 5's one simultaneous step (RULES-NOTES, rulings of 2026-12-02 and 2026-12-05): every
land move and train run of the turn, each worked out as far as it goes alone, then stopped where
it meets the enemy, until nothing changes.

- Enemy moves that would cross one hexside the opposite ways (units, trains, a train and a unit)
  each stop before it, in contact across it.
- A hex holds enemy units for a move if they are in it when movement ends: units that do not
  move, and units whose moves end there. A land move that enters such a hex stops in it
  (contact); a train, or a retreat, stops before it. A hex its enemies leave holds no one.

Nothing here reads the log's order: moves are settled in an order of their own (how far along
its path each stop comes, then the pieces' ids), so a log's orders may come in any order."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from kitgen.rules.paths import STOP_WORDS, PathVerdict

MoverKind = Literal["land", "rail", "retreat"]
"""A unit's land move; a train's run with the units it carries; a unit's retreat (II.C.2)."""
Allied = Callable[[str, str], bool]


@dataclass(eq=False)
class Mover:
    """One move of the turn in the simultaneous step."""

    id: str
    """The unit's or the train's id."""
    faction: str
    kind: MoverKind
    alone: PathVerdict
    """As far as it goes alone: its MP, the terrain, rivers, track and ferries, no enemy."""
    riders: tuple[str, ...]
    """The units that end where it ends: the unit itself, or the units a train carries."""
    judged: PathVerdict = field(init=False)
    """As far as it goes with the turn's other moves."""
    met_on: tuple[str, str] | None = None
    """The hexside (the hex it stopped in, the hex beyond) where an enemy move crossing the other
    way stopped it."""

    def __post_init__(self) -> None:
        self.judged = self.alone

    @property
    def enters_enemy(self) -> bool:
        """A land move may enter a hex of enemy units (and stop there); a train (C.1) and a retreat
        (II.C.2) stop before it."""
        return self.kind == "land"

    @property
    def holds(self) -> bool:
        """It puts units in its end hex: a train carrying none is no enemy for a move."""
        return bool(self.riders)


MET_WHY = "an enemy move crosses the hexside {here}-{there} the other way: both stop before it, in contact across it"
TRAIN_WHY = "enemy units in {hex} when movement ends block the line"
RETREAT_WHY = "enemy units in {hex} when movement ends: a retreat never enters their hex"


@dataclass(frozen=True)
class Settled:
    """What the simultaneous step found besides where each move goes."""

    met: frozenset[tuple[str, str]]
    """The hexsides met on, each as its two hexes in id order."""
    unsettled: tuple[str, ...] = ()
    """Moves the ruling cannot settle (each stop for an enemy undoes another's, round and round,
    as when an enemy train follows another along a line): they go as far as they would at most."""


def settle(movers: list[Mover], standing: Mapping[str, Collection[str]], allied: Allied) -> Settled:
    """Settle the turn's moves together: each mover's `judged` becomes where it goes.
    `standing` is the factions of the units that do not move, by hex."""
    ordered = sorted(movers, key=lambda m: (m.kind, m.id))
    allied = cache(allied)  # asked for the same few pairs of factions over and over
    seen: list[tuple[int, ...]] = []
    kept: list[list[tuple[PathVerdict, tuple[str, str] | None]]] = []
    unsettled: tuple[str, ...] = ()
    while True:
        cut = _meet(ordered, allied)
        while _stop_first_contact(ordered, standing, allied):
            cut = True
        if not cut and not seen:  # no move stopped for an enemy: each goes as far as it does alone
            break
        lengths = tuple(len(m.judged.steps) for m in ordered)
        stale = _unjustified(ordered, standing, allied)
        if not stale:
            break
        if lengths in seen:  # round and round: no stops that all hold
            cycle = kept[seen.index(lengths) :]
            turning = {m.id for k, m in enumerate(ordered) if len({len(c[k][0].steps) for c in cycle}) > 1}
            for k, m in enumerate(ordered):  # each goes as far as it does in any round of the cycle
                m.judged, m.met_on = max((c[k] for c in cycle), key=lambda c: len(c[0].steps))
            while stale := _unjustified(ordered, standing, allied):
                for m in stale:  # alone, it stops for no enemy: each mover is let go once at most
                    m.judged, m.met_on = m.alone, None
                    turning.add(m.id)
            unsettled = tuple(sorted(turning))
            break
        seen.append(lengths)
        kept.append([(m.judged, m.met_on) for m in ordered])
        for m in stale:  # its enemy left the hex, or never reached the hexside: it goes on
            m.judged, m.met_on = m.alone, None
    met = frozenset((min(m.met_on), max(m.met_on)) for m in ordered if m.met_on is not None)
    return Settled(met, unsettled)


@dataclass(frozen=True)
class _Held:
    """The factions with units in each hex when movement ends, as the moves stand now."""

    standing: Mapping[str, Collection[str]]
    ends: Mapping[str, set[str]]

    def hostile(self, hex_id: str, faction: str, allied: Allied) -> bool:
        """Enemies of `faction` in the hex (its own units are never its enemy)."""
        return any(not allied(f, faction) for f in (*self.standing.get(hex_id, ()), *self.ends.get(hex_id, ())))


def _holding(movers: list[Mover], standing: Mapping[str, Collection[str]]) -> _Held:
    ends: dict[str, set[str]] = {}
    for m in movers:
        if m.holds:
            ends.setdefault(m.judged.end, set()).add(m.faction)
    return _Held(standing, ends)


def _stop_first_contact(movers: list[Mover], standing: Mapping[str, Collection[str]], allied: Allied) -> bool:
    """Stop the move whose path first enters a hex held by its enemies when movement ends (the
    fewest steps along its path, then its kind and id): a land move in it, a train or a retreat
    before it. False when there is none."""
    held = _holding(movers, standing)
    first: tuple[int, int, Mover] | None = None
    for rank, m in enumerate(movers):
        steps = m.judged.steps
        for k, step in enumerate(steps, 1):
            if not held.hostile(step.hex, m.faction, allied):
                continue
            if m.enters_enemy and k == len(steps) and m.judged.stop in (None, "contact", "met"):
                break  # it ends there anyway (or stopped there for the enemy already): no stop
            if first is None or (k, rank) < first[:2]:
                first = (k, rank, m)
            break
    if first is None:
        return False
    k, _, m = first
    entered = m.judged.steps[k - 1].hex
    if m.kind == "land":
        m.judged = m.judged.cut(k, "contact", "A", STOP_WORDS["contact"])
    elif m.kind == "rail":
        m.judged = m.judged.cut(k - 1, "enemy", "C.1", TRAIN_WHY.format(hex=entered))
    else:
        m.judged = m.judged.cut(k - 1, "enemy", "II.C.2", RETREAT_WHY.format(hex=entered))
    m.met_on = None
    return True


def _justified(m: Mover, held: _Held, movers: list[Mover], allied: Allied) -> bool:
    """Whether the enemy that stopped the move is still there (`held`: `_holding` of all the
    moves, its own faction's units never its enemy): in its end hex (a land move's contact), in
    the hex before which it stopped (a train's or retreat's), or stopped on the far side of the
    hexside it met on."""
    if m.met_on is not None:
        here, there = m.met_on
        return any(o.met_on == (there, here) and not allied(o.faction, m.faction) for o in movers)
    if m.judged.stop == "contact":
        return held.hostile(m.judged.end, m.faction, allied)
    if m.judged.stop == "enemy" and m.judged.blocked_at is not None:
        return held.hostile(m.judged.blocked_at, m.faction, allied)
    return True


def _unjustified(movers: list[Mover], standing: Mapping[str, Collection[str]], allied: Allied) -> list[Mover]:
    """The moves stopped for an enemy who is not there when movement ends."""
    held = _holding(movers, standing)
    return [m for m in movers if not _justified(m, held, movers, allied)]


def _meet(movers: list[Mover], allied: Allied) -> bool:
    """Ruling of 2026-12-02: enemy moves that would cross the same hexside in opposite directions
    (each as far as it goes) each stop before it, in contact across it. A hexside is settled
    whole: every move crossing it with an enemy move crossing it the other way stops, however
    many units or factions. The order of settling: first a meeting that is the first along the
    paths of both its moves; else the one both sides reach soonest (the later of the two steps).
    Whether it stopped any."""
    met = False
    while True:
        crossings: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for i, m in enumerate(movers):
            went = m.judged.went
            for k in range(len(went) - 1):
                crossings.setdefault((went[k], went[k + 1]), []).append((i, k))
        found = [
            (i, k, j, n, a, b)
            for (a, b), ours in crossings.items()
            if a < b
            for j, n in crossings.get((b, a), ())
            for i, k in ours
            if not allied(movers[i].faction, movers[j].faction)
        ]
        if not found:
            return met
        met = True
        first: dict[int, int] = {}
        for i, k, j, n, _, _ in found:
            first[i] = min(first.get(i, k), k)
            first[j] = min(first.get(j, n), n)
        mutual = [f for f in found if first[f[0]] == f[1] and first[f[2]] == f[3]]
        _, _, _, _, a, b = min(mutual or found, key=lambda f: (max(f[1], f[3]), min(f[1], f[3]), f[4], f[5]))
        for here, there in ((a, b), (b, a)):
            stopping: dict[int, int] = {}
            for x, steps in crossings[(here, there)]:
                if any(not allied(movers[x].faction, movers[y].faction) for y, _ in crossings[(there, here)]):
                    stopping[x] = min(stopping.get(x, steps), steps)
            why = MET_WHY.format(here=here, there=there)
            for x, steps in stopping.items():
                movers[x].judged = movers[x].judged.cut(steps, "met", "A", why)
                movers[x].met_on = (here, there)
