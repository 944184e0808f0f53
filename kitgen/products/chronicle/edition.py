"""What one edition of the chronicle knows, turn by turn, as values: the umpire's everything; a
faction's only what it saw at the start of each turn and at its end (`kitgen.engine.intel`) and
what it remembered (`kitgen.engine.memory`), its packets' view carried through time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from kitgen.engine.intel import FactionView, believed
from kitgen.engine.memory import Memory
from kitgen.engine.state import BattleResult, CampaignState, UnitState, Verdict
from kitgen.engine.tallies import Tally, tallies
from kitgen.model.scenario import name_key
from kitgen.render.chronicleart import Arrow, BattleMark, Block, By, TurnMap

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.engine.history import History

FRONT_REACH = 2
"""Hexes round a unit that its side holds, for the front line."""
MOVES: dict[str, By] = {"land": "land", "rail": "rail", "sea": "sea"}
"""The orders that move a piece on the map, and how each is drawn."""


def moved_by(v: Verdict) -> By | None:
    """How an order moved its piece across the map (a march, a train run, a voyage carried out,
    or stopped after leaving its hex); None if it moved none."""
    by = MOVES.get(v.kind)
    if by is None or v.result not in ("done", "stopped") or not v.start or not v.end or v.start == v.end:
        return None
    return by


@dataclass(frozen=True)
class Battle:
    """One battle of a turn, as the edition tells it: its number, hex and sides."""

    number: int
    hex: str
    results: tuple[BattleResult, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.faction for r in self.results if r.side == "winner"))

    @property
    def losers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r.faction for r in self.results if r.side == "loser"))


class Edition:
    """The umpire's edition (`faction` None) or a faction's, over one replay's history."""

    def __init__(self, campaign: Campaign, history: History, faction: str | None) -> None:
        self.c, self.h, self.faction = campaign, history, faction
        self.s = campaign.scenario

    @cached_property
    def views(self) -> tuple[FactionView, ...]:
        """What the faction saw at the start of turns 1 to the one after the last played."""
        assert self.faction is not None
        return self.h.views(self.c.board, self.faction)

    @cached_property
    def memories(self) -> tuple[Memory, ...]:
        assert self.faction is not None
        return self.h.memories(self.c.board, self.faction, self.s.meta.intel.memory_turns)

    @cached_property
    def hex_names(self) -> dict[str, str]:
        """Hex -> the name the story calls it by: its town, else the first station or place in it."""
        return self.c.hex_names

    def view_after(self, turn: int) -> FactionView:
        """What the faction saw at the end of `turn` (the start of the next; 0: the set-up)."""
        return self.views[turn]

    def factions(self) -> list[str]:
        """The factions whose figures it shows: all for the umpire, its own for a faction."""
        return [f.id for f in self.s.meta.factions if self.faction is None or f.id == self.faction]

    @cached_property
    def tallies(self) -> tuple[Tally, ...]:
        return tallies(self.h, self.factions())

    # a turn

    def battles(self, turn: int) -> list[Battle]:
        """The turn's battles it knows of: all for the umpire; for a faction those it fought and
        those in hexes it saw at the turn's end, numbered in the log's order."""
        results = self.h.after(turn).battle_results
        by: dict[int, list[BattleResult]] = {}
        for r in results:
            by.setdefault(r.battle, []).append(r)
        found = []
        for _, parts in sorted(by.items()):
            hex_id = parts[0].hex
            if (
                self.faction is None
                or any(r.faction == self.faction for r in parts)
                or hex_id in self.view_after(turn).known
            ):
                found.append((hex_id, tuple(parts)))
        return [Battle(n, h, parts) for n, (h, parts) in enumerate(found, start=1)]

    def towns_changed(self, turn: int) -> list[str]:
        """The towns that changed hands in the turn, as the edition knows it: all for the umpire;
        for a faction those it gained or lost, and those it saw change hands (it knew the owner
        at the turn's start and at its end)."""
        before, after = self.h.after(turn - 1), self.h.after(turn)
        changed = sorted(t for t in after.owners if after.owners[t] != before.owners.get(t, "none"))
        if self.faction is None:
            return changed
        was, now = self.views[turn - 1].towns_known, self.view_after(turn).towns_known
        mine = self.faction
        return [t for t in changed if mine in (after.owners[t], before.owners.get(t)) or (t in was and t in now)]

    def fought(self, battle: Battle) -> bool:
        """The edition's faction fought it (or the umpire's: he knows every battle in full)."""
        return self.faction is None or any(r.faction == self.faction for r in battle.results)

    def turn_map(self, turn: int) -> TurnMap:
        """The map of the turn's end, with the turn's moves and battles."""
        after = self.h.after(turn)
        end = self.h.start(turn + 1)
        battles = tuple(
            BattleMark(b.number, b.hex, b.winners[0] if b.winners else None) for b in self.battles(turn) if b.hex
        )
        arrows = tuple(self._arrows(after.verdicts, turn, {b.hex for b in battles})) if turn else ()
        if self.faction is None:
            every = _blocks(end, lambda u: True)
            front = self._front(every, end, turn)
            return TurnMap(turn, None, dict(end.owners), {}, every, arrows, battles, tuple(end.wrecked_track), front)
        view, memory = self.view_after(turn), self.memories[turn]
        blocks = list(_blocks(end, lambda u: u.faction == self.faction or view.sees_in_full(u.id)))
        counted = {(b.hex, b.faction) for b in blocks}
        blocks += [
            Block(s.hex, s.faction, 0)
            for s in view.sightings
            if s.grade == "sized" and (s.hex, s.faction) not in counted
        ]
        blocks += [Block(r.hex, r.faction, 0, seen=r.turn) for r in memory.sightings]
        owners = {t: end.owners[t] for t in view.towns_known if t in end.owners}
        remembered = {m.town: (m.owner, m.turn) for m in memory.towns}
        wrecked = believed(end, view, self.h.setup.wrecked_track).wrecked_track
        front = self._front(tuple(b for b in blocks if b.seen is None), end, turn)
        return TurnMap(turn, self.faction, owners, remembered, tuple(blocks), arrows, battles, wrecked, front)

    def _front(self, blocks: tuple[Block, ...], end: CampaignState, turn: int) -> tuple[tuple[str, str], ...]:
        """The front as the edition knows it at the turn's end: each land hex within FRONT_REACH
        hexes of a block goes to the side of its nearest blocks; the front is each hexside between
        hexes of enemy sides (a faction's edition: its own and its allies' against those it saw)."""
        board = self.c.board
        land = {h for h, t in board.terrain.items() if t != "sea"}
        near: dict[str, tuple[int, set[str]]] = {}
        frontier: list[str] = []
        for b in blocks:
            if b.hex in land:
                near.setdefault(b.hex, (0, set()))[1].add(b.faction)
                frontier.append(b.hex)
        for step in range(1, FRONT_REACH + 1):
            found: dict[str, set[str]] = {}
            for h in dict.fromkeys(frontier):
                for n in board.neighbours(h):
                    if n in land and n not in near:
                        found.setdefault(n, set()).update(near[h][1])
            for h, sides in found.items():
                near[h] = (step, sides)
            frontier = list(found)
        # a hex as near to two sides goes to one of them (the first by name), so the line runs on unbroken
        owner = {h: min(sides) for h, (_, sides) in near.items()}
        front: set[tuple[str, str]] = set()
        for h, side in owner.items():
            for n in board.neighbours(h):
                other = owner.get(n)
                if (
                    other is not None
                    and not end.allied(side, other, turn)
                    and (self.faction is None or self.faction in (side, other) or end.allied(self.faction, side, turn))
                ):
                    front.add((h, n) if h < n else (n, h))
        return tuple(sorted(front))

    def _arrows(self, verdicts: tuple[Verdict, ...], turn: int, fought: set[str]) -> list[Arrow]:
        """The turn's moves carried out: all for the umpire; for a faction its own (and its
        allies' it saw) whole, and the enemy's only along hexes it saw at the turn's start or end.
        A move known whole that ended where a battle was fought (`fought`) or a town changed hands
        mattered: it is drawn bold, with its piece's name."""
        from kitgen.engine.piecenames import piece_names

        seen = frozenset() if self.faction is None else self.views[turn - 1].known | self.view_after(turn).known
        names = piece_names(self.h.after(turn - 1)) | piece_names(self.h.after(turn))
        places = self.c.board.places
        taken = {places.get(name_key(t)) for t in self.towns_changed(turn)}
        found = []
        for v in verdicts:
            by = moved_by(v)
            if by is None or v.start is None or v.end is None:
                continue
            path = (v.start, *(s.hex for s in v.steps)) if v.steps else (v.start, v.end)
            if self.faction is None or v.faction == self.faction:
                mattered = path[-1] in fought or path[-1] in taken
                found.append(Arrow(v.faction, path, by, names.get(v.unit, "") if mattered else "", mattered))
                continue
            run: list[str] = []
            for h in (*path, ""):
                if h in seen:
                    run.append(h)
                    continue
                if len(run) >= 2:
                    found.append(Arrow(v.faction, tuple(run), by))
                run = []
        return found


def _blocks(state: CampaignState, shown: Callable[[UnitState], bool]) -> tuple[Block, ...]:
    """The units `shown` picks, counted by hex and faction (a unit aboard ship at its ship's hex)."""
    count: dict[tuple[str, str], int] = {}
    for u in state.units:
        if shown(u):
            count[(u.hex, u.faction)] = count.get((u.hex, u.faction), 0) + 1
    return tuple(Block(h, f, n) for (h, f), n in sorted(count.items()))
