"""A.1 and B.3 over the board: what a land move along a path of hexes costs, and the supply trace.

RULES-NOTES readings: a unit spends the cost of each hex it enters, +1 for a crossable-river
hexside; a `p*` terrain may be entered only along a road or rail line; a major-river hexside
only at a bridge or with a pontoon/ferry, which takes the whole move and ends it across; no
minimum move. Supply: at most `trace_hexes` hexes from the unit (its own hex is 0) through
hexes free of enemy units, not across sea or an unbridged major-river hexside, to a hex with
rail track joined over intact, enemy-free track to one of the faction's supply sources.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Literal

from kitgen.mapping.board import Board
from kitgen.model.rules import MovementRules
from kitgen.rules.movement import EntryCost, River, entry_cost, movement_row

Stop = Literal["mp", "terrain", "river", "sea", "land", "track", "wrecked", "enemy", "contact", "ferry_full", "met"]
"""Why a move went no farther than it did (RULES-NOTES, ruling of 2026-12-02): its MP (a
train's 12 hexes) spent; `p*` terrain with no road or rail through the hex (or a type that may
not enter it at all); a major-river hexside with no bridge, pontoon or ferry; sea or open water;
land (a ship); no track (a train, or a unit that keeps to it); wrecked track; enemy units ahead (a train);
a hex of enemy units entered (contact); a ferry full this turn; an enemy move met on a hexside."""

STOP_WORDS: dict[Stop, str] = {
    "mp": "its MP spent",
    "terrain": "terrain it may not enter there",
    "river": "a major river with no bridge, pontoon or ferry",
    "sea": "sea or open water",
    "land": "land: a ship keeps to the sea, ports and rivers up to their ports",
    "track": "no track",
    "wrecked": "wrecked track",
    "enemy": "enemy units on the line",
    "contact": "enemy units in the hex when movement ends (contact)",
    "ferry_full": "the ferry full this turn",
    "met": "an enemy move met on the hexside (contact across it)",
}


@dataclass(frozen=True)
class Step:
    hex: str
    cost: EntryCost


@dataclass(frozen=True)
class PathVerdict:
    """A land move judged hex by hex (ruling of 2026-12-02): it goes as far as it can pay for and
    may enter, and stops there (`stop` says why, `blocked_at` the hex it did not enter); only a
    malformed path, off the map or with hexes not adjacent in turn, is void."""

    start: str
    spent: int
    mp: int
    steps: tuple[Step, ...]
    rule: str
    stop: Stop | None = None
    reason: str | None = None
    """Words for the stop, or for what makes the path malformed."""
    blocked_at: str | None = None
    """The next hex of the path, not entered, when the move stopped short of it."""
    malformed: bool = False

    @property
    def allowed(self) -> bool:
        """The order stands: carried out in full, or as far as it went."""
        return not self.malformed

    @property
    def complete(self) -> bool:
        """Carried out to the path's last hex."""
        return not self.malformed and self.stop is None

    @property
    def end(self) -> str:
        """Where the unit ends: the last hex it entered, or its own."""
        return self.steps[-1].hex if self.steps and not self.malformed else self.start

    @property
    def went(self) -> tuple[str, ...]:
        """The hexes of the move as far as it went, its own hex first."""
        return (self.start, *(s.hex for s in self.steps)) if not self.malformed else (self.start,)

    def cut(self, steps: int, stop: Stop, rule: str, reason: str) -> PathVerdict:
        """The move stopped after its first `steps` steps, for `stop`."""
        kept = self.steps[:steps]
        nxt = self.steps[steps].hex if steps < len(self.steps) else self.blocked_at
        spent = sum(s.cost.mp or 0 for s in kept)
        return replace(self, steps=kept, spent=spent, stop=stop, rule=rule, reason=reason, blocked_at=nxt)

    def explain(self) -> str:
        """'costs 5 MP (forest 2 +1 crossable river, forest 2)'; a move stopped short says where
        and why ('... to 0304, then stops before 0305 (why), A.1'); a malformed one is void."""
        parts = ", ".join(" ".join(s.cost.parts) for s in self.steps if s.cost.parts)
        text = f"costs {self.spent} MP ({parts})" if parts else f"costs {self.spent} MP"
        if self.malformed:
            return f"{text}: void, {self.rule} ({self.reason})"
        if self.stop is None:
            return text
        why = self.reason or STOP_WORDS[self.stop]
        if self.stop == "contact":
            return f"{text} to {self.end}, where enemy units are when movement ends: stopped there (contact), the rest dropped, A"
        if not self.steps:
            return f"cannot enter {self.blocked_at} ({why}): stopped where it stood, {self.rule}"
        return f"{text} to {self.end}, then stops before {self.blocked_at} ({why}), the rest dropped, {self.rule}"


@dataclass(frozen=True)
class Crossing:
    """One step into a neighbouring hex as the movement rules see it: the hex entered and the
    hexside crossed. Equal crossings cost a unit type the same, wherever they are on the board."""

    terrain: str
    """Of the hex entered."""
    sea: bool = False
    """The hex entered is sea."""
    open_water: bool = False
    """The hexside is open water with no bridge."""
    river: River = "none"
    bridge: bool = False
    road: bool = False
    """A road runs from the hex left into the hex entered."""
    rail: bool = False
    """Rail track runs from the hex left into the hex entered."""
    pontoon: bool = False
    """A pontoon or ferry at the hexside (A.1)."""
    origin: str = field(default="", compare=False)
    """The hex stepped from, for the wording of a refusal only."""


def crossing(board: Board, here: str, there: str, pontoons: Collection[frozenset[str]] = frozenset()) -> Crossing:
    """The step from `here` into its neighbour `there` on the board; `pontoons` are the hexsides
    crossed by pontoon or ferry."""
    side = board.side(here, there)
    bridge = side is not None and side.bridge
    river: River = "none"
    if side is not None and side.river_class in ("major", "crossable"):
        river = "major" if side.river_class == "major" else "crossable"
    return Crossing(
        terrain=board.terrain[there],
        sea=board.is_sea(there),
        open_water=side is not None and side.sea and not bridge,
        river=river,
        bridge=bridge,
        road=board.road_link(here, there),
        rail=board.rail_link(here, there),
        pontoon=frozenset((here, there)) in pontoons,
        origin=here,
    )


def step_cost(rules: MovementRules, type_id: str, step: Crossing) -> EntryCost:
    """A, A.1, A.3: what a unit of `type_id` pays for the step, or why it may not take it."""
    if step.sea:
        return EntryCost(None, (), "A", reason="sea; land units go by ship (D)", barrier="sea")
    if step.open_water:
        reason = f"open water from {step.origin}; no land move across (A.3: by ship)"
        return EntryCost(None, (), "A", reason=reason, barrier="sea")
    return entry_cost(
        rules,
        type_id,
        step.terrain,
        river=step.river,
        bridge=step.bridge,
        road=step.road,
        rail=step.rail,
        pontoon=step.pontoon,
    )


def allowance(rules: MovementRules, type_id: str, mp_modifier: int = 0) -> int:
    """The MP a unit of `type_id` has this turn: its row's MP with the card modifiers, never below 0."""
    return max(0, (movement_row(rules, type_id).mp or 0) + mp_modifier)


def land_path(
    board: Board,
    rules: MovementRules,
    type_id: str,
    path: list[str],
    *,
    mp_modifier: int = 0,
    pontoons: Collection[frozenset[str]] = frozenset(),
    enemy: Collection[str] = frozenset(),
) -> PathVerdict:
    """Judge a land move along `path` (the start hex first) by a unit of `type_id`, hex by hex
    (ruling of 2026-12-02): it stops in the last hex it can pay for and may enter; a pontoon or
    ferry crossing takes the whole move, so only a first step makes one, and it ends the move
    across; a move that enters a hex of `enemy` units stops there (contact). Only hexes off the
    map or not adjacent in turn make the path malformed: void."""
    mp = allowance(rules, type_id, mp_modifier)
    steps: list[Step] = []
    spent = 0

    def stopped(stop: Stop, rule: str, reason: str, at: str | None) -> PathVerdict:
        return PathVerdict(path[0], spent, mp, tuple(steps), rule, stop, reason, at)

    for here, there in zip(path, path[1:], strict=False):
        if not board.on_map(there):
            return PathVerdict(path[0], 0, mp, (), "A", reason=f"{there} is not a hex of the map", malformed=True)
        if not board.adjacent(here, there):
            return PathVerdict(path[0], 0, mp, (), "A", reason=f"{here} and {there} are not adjacent", malformed=True)
    for here, there in zip(path, path[1:], strict=False):
        cost = step_cost(rules, type_id, crossing(board, here, there, pontoons))
        if not cost.allowed:
            return stopped(cost.barrier or "terrain", cost.rule, cost.reason or "not allowed", there)
        if cost.whole_move:
            if steps:
                why = "a pontoon or ferry crossing takes the whole move, and it has moved already"
                return stopped("mp", "A.1", why, there)
            steps.append(Step(there, cost))
            spent = mp
            if len(path) > 2 and there in enemy:
                return stopped("contact", "A", "enemy units in the hex (contact)", path[2])
            if len(path) > 2:
                return stopped("mp", "A.1", "the crossing took its whole move", path[2])
            continue
        if spent + (cost.mp or 0) > mp:
            return stopped("mp", "A.1", f"{cost.mp} MP more, and it has {mp - spent} of its {mp} left", there)
        steps.append(Step(there, cost))
        spent += cost.mp or 0
        if there in enemy and len(steps) < len(path) - 1:
            return stopped("contact", "A", "enemy units in the hex (contact)", path[len(steps) + 1])
    rule = steps[-1].cost.rule if steps else "A"
    return PathVerdict(path[0], spent, mp, tuple(steps), rule)


def supply_trace(
    board: Board,
    start: str,
    sources: Collection[str],
    *,
    enemy: Collection[str] = frozenset(),
    wrecked: Collection[str] = frozenset(),
    trace_hexes: int,
    railway: dict[str, str | None] | None = None,
    crossings: Collection[frozenset[str]] = frozenset(),
) -> tuple[str, ...] | None:
    """B.3: the hexes that prove a unit in `start` is in supply, from the unit to a source, or None.

    The path runs overland for at most `trace_hexes` hexes to a railway hex, then along intact,
    enemy-free track to a source (a source hex reached overland needs no track). `railway` is
    `rail_tree(board, sources, enemy, wrecked)` when the caller has it already; `crossings`
    are hexsides the side has bridged itself (pontoons)."""
    enemy = set(enemy)
    if railway is None:
        railway = rail_tree(board, set(sources), enemy, set(wrecked))
    back: dict[str, str | None] = {start: None}
    frontier: deque[tuple[str, int]] = deque([(start, 0)])
    while frontier:
        here, depth = frontier.popleft()
        if here in railway or here in sources:
            overland = _walk_back(back, here)
            return overland + _walk_rail(railway, here)[1:]
        if depth == trace_hexes:
            continue
        for there in board.neighbours(here):
            if there in back or there in enemy or board.is_sea(there):
                continue
            side = board.side(here, there)
            bridged = side is not None and (side.bridge or frozenset((here, there)) in crossings)
            if side is not None and not bridged and (side.sea or side.river_class == "major"):
                continue
            back[there] = here
            frontier.append((there, depth + 1))
    return None


def rail_tree(
    board: Board, sources: Collection[str], enemy: Collection[str], wrecked: Collection[str]
) -> dict[str, str | None]:
    """Every hex joined to a source over intact, enemy-free track -> the next hex towards it."""
    tree: dict[str, str | None] = {s: None for s in sorted(sources) if s not in enemy and s not in wrecked}
    frontier = deque(tree)
    while frontier:
        here = frontier.popleft()
        for there in board.rail_neighbours(here):
            if there in tree or there in enemy or there in wrecked:
                continue
            tree[there] = here
            frontier.append(there)
    return tree


def _walk_back(back: dict[str, str | None], end: str) -> tuple[str, ...]:
    path = [end]
    while (prev := back[path[-1]]) is not None:
        path.append(prev)
    return tuple(reversed(path))


def _walk_rail(tree: dict[str, str | None], start: str) -> tuple[str, ...]:
    path = [start]
    while start in tree and (nxt := tree[start]) is not None:
        path.append(nxt)
        start = nxt
    return tuple(path)
