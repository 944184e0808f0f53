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
from typing import Generic, Literal, Protocol, TypeVar

from kitgen.engine.state import Verdict
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


class Moving(Protocol):
    """An order that stands, with its move in the simultaneous step."""

    @property
    def mover(self) -> Mover: ...


M = TypeVar("M", bound=Moving)


@dataclass
class Plan(Generic[M]):
    """A phase's orders in the log's order: each refused (its verdict) or a move to settle."""

    planned: list[Verdict | M]

    @property
    def movers(self) -> list[Mover]:
        return [p.mover for p in self.planned if not isinstance(p, Verdict)]


MET_WHY = "an enemy move crosses the hexside {here}-{there} the other way: both stop before it, in contact across it"
TRAIN_WHY = "enemy units in {hex} when movement ends block the line"
RETREAT_WHY = "enemy units in {hex} when movement ends: a retreat never enters their hex"

State = tuple[tuple[int, str | None, tuple[str, str] | None], ...]
"""Where every move stands in a round: its steps, why it stopped, the hexside it met on."""


@dataclass(frozen=True)
class Settled:
    """What the simultaneous step found besides where each move goes."""

    met: frozenset[tuple[str, str]]
    """The hexsides met on, each as its two hexes in id order."""
    unsettled: tuple[str, ...] = ()
    """Moves the ruling cannot settle (a stop for an enemy's end hex undoes another's, round and
    round, as when an enemy train follows another along a line): no end hex of another move
    stops them; units that do not move and enemy moves met on a hexside still do."""


def settle(movers: list[Mover], standing: Mapping[str, Collection[str]], allied: Allied) -> Settled:
    """Settle the turn's moves together: each mover's `judged` becomes where it goes.
    `standing` is the factions of the units that do not move, by hex.

    Meetings on a hexside are settled first, then the hexes held when movement ends; if that
    goes round and round without settling, the held hexes are settled first instead; and if
    that does too, the moves that go round are let go of other moves' end hexes (`unsettled`)."""
    ordered = sorted(movers, key=lambda m: (m.kind, m.id))
    allied = cache(allied)  # asked for the same few pairs of factions over and over
    loose: set[str] = set()
    for meetings_first in (True, False):
        if not meetings_first:
            _restart(ordered)
        turning = _rounds(ordered, standing, allied, loose, meetings_first)
        if not turning:
            break
    everyone = {m.id for m in ordered}
    while turning and loose != everyone:  # no other move's end hex stops them, and all is
        # settled again; at the worst, no move's end hex stops any (units that do not move and
        # meetings still do)
        loose |= turning if not turning <= loose else everyone
        _restart(ordered)
        turning = _rounds(ordered, standing, allied, loose, True)
    met = frozenset((min(m.met_on), max(m.met_on)) for m in ordered if m.met_on is not None)
    return Settled(met, tuple(sorted(loose)))


def _restart(movers: list[Mover]) -> None:
    for m in movers:
        m.judged, m.met_on = m.alone, None


def _rounds(
    ordered: list[Mover],
    standing: Mapping[str, Collection[str]],
    allied: Allied,
    loose: set[str],
    meetings_first: bool,
) -> set[str]:
    """Stop the moves where they meet the enemy, and let go those whose enemy is not there, until
    nothing changes; returns the ids of the moves that change round and round, if it never does."""
    seen: list[State] = []
    while True:
        cut = False
        while True:  # one kind of stop first, then the other, until neither finds any
            if meetings_first and _meet(ordered, allied):
                cut = True
            if _stop_first_contact(ordered, standing, allied, loose):
                cut = True
                continue
            if not meetings_first and _meet(ordered, allied):
                cut = True
                continue
            break
        if not cut and not seen:  # no move stopped for an enemy: each goes as far as it does alone
            return set()
        stale = _unjustified(ordered, standing, allied, loose)
        if not stale:
            return set()
        now: State = tuple((len(m.judged.steps), m.judged.stop, m.met_on) for m in ordered)
        if now in seen:
            cycle = seen[seen.index(now) :]
            return {m.id for k, m in enumerate(ordered) if len({c[k] for c in cycle}) > 1} | {m.id for m in stale}
        seen.append(now)
        for m in stale:  # its enemy left the hex, or never reached the hexside: it goes on
            m.judged, m.met_on = m.alone, None


@dataclass(frozen=True)
class _Held:
    """Who has units in each hex when movement ends, as the moves stand now: the factions that
    do not move, and the moves that end there."""

    standing: Mapping[str, Collection[str]]
    ends: Mapping[str, list[Mover]]
    loose: Collection[str]
    """Moves no end hex stops (`Settled.unsettled`)."""

    def hostile(self, hex_id: str, m: Mover, allied: Allied) -> bool:
        """Enemies of the move in the hex (its own faction's units are never its enemy). A train
        or a retreat that ends in the hex is not kept out of it by enemies who stopped in it for
        a contact: they stopped there for it, and both are there, in contact."""
        if any(not allied(f, m.faction) for f in self.standing.get(hex_id, ())):
            return True
        if m.id in self.loose:
            return False
        last = not m.enters_enemy and m.judged.end == hex_id
        return any(
            not allied(o.faction, m.faction) and not (last and o.judged.stop == "contact")
            for o in self.ends.get(hex_id, ())
        )


def _holding(movers: list[Mover], standing: Mapping[str, Collection[str]], loose: Collection[str]) -> _Held:
    ends: dict[str, list[Mover]] = {}
    for m in movers:
        if m.holds:
            ends.setdefault(m.judged.end, []).append(m)
    return _Held(standing, ends, loose)


def _stop_first_contact(
    movers: list[Mover], standing: Mapping[str, Collection[str]], allied: Allied, loose: Collection[str]
) -> bool:
    """Stop the move whose path first enters a hex held by its enemies when movement ends (the
    fewest steps along its path, then its kind and id): a land move in it, a train or a retreat
    before it. False when there is none."""
    held = _holding(movers, standing, loose)
    first: tuple[int, int, Mover] | None = None
    for rank, m in enumerate(movers):
        steps = m.judged.steps
        for k, step in enumerate(steps, 1):
            if not held.hostile(step.hex, m, allied):
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
    """Whether the enemy that stopped the move is still there: in its end hex (a land move's
    contact), in the hex before which it stopped (a train's or retreat's), or stopped on the far
    side of the hexside it met on."""
    if m.met_on is not None:
        here, there = m.met_on
        return any(o.met_on == (there, here) and _meets(o, m, allied) for o in movers)
    if m.judged.stop == "contact":
        return held.hostile(m.judged.end, m, allied)
    if m.judged.stop == "enemy" and m.judged.blocked_at is not None:
        return held.hostile(m.judged.blocked_at, m, allied)
    return True


def _unjustified(
    movers: list[Mover], standing: Mapping[str, Collection[str]], allied: Allied, loose: Collection[str]
) -> list[Mover]:
    """The moves stopped for an enemy who is not there when movement ends."""
    held = _holding(movers, standing, loose)
    return [m for m in movers if not _justified(m, held, movers, allied)]


def _meets(a: Mover, b: Mover, allied: Allied) -> bool:
    """Whether two moves crossing one hexside the opposite ways meet: enemies, and either both
    trains (one track: loaded or not, they cannot pass) or both with units."""
    return not allied(a.faction, b.faction) and ((a.kind == b.kind == "rail") or (a.holds and b.holds))


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
            if _meets(movers[i], movers[j], allied)
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
        stopping: dict[int, tuple[int, str, str]] = {}
        for here, there in ((a, b), (b, a)):  # both ways judged first, then cut: settled whole
            for x, steps in crossings[(here, there)]:
                if any(_meets(movers[x], movers[y], allied) for y, _ in crossings[(there, here)]):
                    stopping[x] = min(stopping.get(x, (steps, here, there)), (steps, here, there))
        for x, (steps, here, there) in stopping.items():
            rule = "C.1" if movers[x].kind == "rail" else "A"
            movers[x].judged = movers[x].judged.cut(steps, "met", rule, MET_WHY.format(here=here, there=there))
            movers[x].met_on = (here, there)
