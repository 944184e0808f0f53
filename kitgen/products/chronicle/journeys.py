"""A turn's moves told, not counted: who went where and how ("Shkuro's Kuban Cavalry rode from
Iuzovka to Volnovakha", "Kharkov Train ran from Kharkov to Lozovaia, carrying ..."). The moves
near a front open its paragraph; the rest are told after the fronts, the largest by name and
the others counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen.messages import plural
from kitgen.products.chronicle.edition import moved_by
from kitgen.products.chronicle.say import and_, at_place, capital, place_words, sentence, to_place

if TYPE_CHECKING:
    from kitgen.engine.state import UnitState
    from kitgen.products.chronicle.edition import Edition
    from kitgen.render.chronicleart import By

Gait = Literal["foot", "horse", "wheels", "train", "ship"]
VERBS: dict[Gait, str] = {"foot": "marched", "horse": "rode", "wheels": "drove", "train": "ran", "ship": "sailed"}
WAYS: dict[str, str] = {"land": "by land", "rail": "by train", "sea": "by sea"}
"""How a counted move went, by its order's kind (a march, a ride and a drive all go by land)."""
NAMED = 3
"""Moves told by name for each faction after the fronts; the others are counted."""
WHEELS = frozenset({"armoured_car", "tank"})


@dataclass(frozen=True)
class Journey:
    """One move carried out, as the story tells it: the piece by its counter's name, how it went,
    where from and to (stopped: where it was halted), and what it carried."""

    faction: str
    piece: str
    by: By
    gait: Gait
    start: str
    end: str
    stopped: bool
    carried: tuple[str, ...]
    stands: int


def journeys(e: Edition, turn: int, names: dict[str, str]) -> list[Journey]:
    """The turn's moves carried out that the edition tells: all for the umpire, its own for a
    faction (the enemy's it saw are on its map, not in its words), in the log's order."""
    before, after = e.h.after(turn - 1), e.h.after(turn)
    units = {u.id: u for u in before.units} | {u.id: u for u in after.units}
    found = []
    for v in after.verdicts:
        by = moved_by(v)
        if by is None or v.start is None or v.end is None or (e.faction is not None and v.faction != e.faction):
            continue
        aboard = [u for u in after.units if u.carried and u.carrier == v.unit] if by != "land" else []
        unit = units.get(v.unit)
        stands = sum(unit.stands.values()) if unit else 0
        gait: Gait = "train" if by == "rail" else "ship" if by == "sea" else _gait(unit)
        found.append(
            Journey(
                v.faction,
                names.get(v.unit, "") or (unit.name if unit else "a piece"),
                by,
                gait,
                v.start,
                v.end,
                v.result == "stopped",
                tuple(names.get(u.id, u.name) for u in aboard),
                stands + sum(sum(u.stands.values()) for u in aboard),
            )
        )
    return found


def told(e: Edition, moves: list[Journey]) -> list[str]:
    """Sentences for `moves`, one for each set of pieces that went the same way together."""
    together: dict[tuple[str, Gait, str, str, bool, tuple[str, ...]], list[str]] = {}
    for j in moves:
        together.setdefault((j.faction, j.gait, j.start, j.end, j.stopped, j.carried), []).append(j.piece)
    said = []
    for (_, gait, start, end, stopped, carried), pieces in together.items():
        origin = place_words(e, start, exact=False)
        was = "was" if len(pieces) == 1 else "were"
        where = f"but {was} halted {at_place(e, end)}" if stopped else to_place(e, end)
        load = f", carrying {and_(list(carried))}" if carried else ""
        said.append(sentence(capital(f"{and_(pieces)} {VERBS[gait]} from {origin} {where}{load}")))
    return said


def elsewhere(e: Edition, moves: list[Journey]) -> str:
    """The moves told after the fronts: for each faction its largest `NAMED` by name, the others
    counted by how they went ("The Reds moved 2 more pieces: 1 by land and 1 by train")."""
    parts: list[str] = []
    for f in e.factions():
        own = [j for j in moves if j.faction == f]
        if not own:
            continue
        named = sorted(own, key=lambda j: (-j.stands, j.piece))[:NAMED]
        parts += told(e, [j for j in own if j in named])
        rest = [j for j in own if j not in named]
        if rest:
            parts.append(counted(e, f, rest))
    return " ".join(parts)


def counted(e: Edition, faction: str, moves: list[Journey]) -> str:
    """The moves after those told by name: 'The Reds moved 2 more pieces: 1 by land and 1 by train'."""
    by: dict[str, int] = {}
    for j in moves:
        by[j.by] = by.get(j.by, 0) + 1
    ways = sorted(by.items(), key=lambda x: tuple(WAYS).index(x[0]))
    subject = "we" if e.faction == faction else f"the {e.s.faction_name(faction)}"
    pieces = plural(len(moves), "more piece", "more pieces")
    if len(ways) == 1:
        return sentence(capital(f"{subject} moved {pieces} {WAYS[ways[0][0]]}"))
    return sentence(capital(f"{subject} moved {pieces}: {and_([f'{k} {WAYS[m]}' for m, k in ways])}"))


def _gait(unit: UnitState | None) -> Gait:
    """A land unit goes on horse if its stands are mostly horsemen, on wheels if its are vehicles."""
    if unit is None:
        return "foot"
    horse = sum(n for kind, n in unit.stands.items() if kind in ("cavalry", "tachanka"))
    wheels = sum(n for kind, n in unit.stands.items() if kind in WHEELS)
    total = sum(unit.stands.values())
    if wheels * 2 > total:
        return "wheels"
    return "horse" if horse * 2 > total else "foot"
