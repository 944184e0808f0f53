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

from kitgen.mapping.board import Board
from kitgen.model.rules import MovementRules
from kitgen.rules.movement import EntryCost, River, entry_cost, movement_row


@dataclass(frozen=True)
class Step:
    hex: str
    cost: EntryCost


@dataclass(frozen=True)
class PathVerdict:
    """A land move judged: allowed or void, its cost step by step, and the rule that decides."""

    allowed: bool
    spent: int
    mp: int
    steps: tuple[Step, ...]
    rule: str
    reason: str | None = None
    blocked_at: str | None = None
    """The hex the move may not enter, when that is why it is void."""
    stopped_at: str | None = None
    """Contact (RULES-NOTES): the hex of enemy units where the move stopped, the rest of its path
    dropped; the move is allowed as far as there."""

    def explain(self) -> str:
        """'costs 5 MP (forest 2 +1 crossable river, forest 2)' and why it is void, if it is; or
        'cannot enter 0305 (why): void, A.1' when a step is barred whatever the cost."""
        parts = ", ".join(" ".join(s.cost.parts) for s in self.steps if s.cost.parts)
        text = f"costs {self.spent} MP ({parts})" if parts else f"costs {self.spent} MP"
        if self.stopped_at is not None:
            return f"{text} to {self.stopped_at}, where enemy units stood as movement began: stopped there (contact), the rest dropped, A"
        if self.blocked_at is not None:
            before = f"{text} to {self.steps[-1].hex}, then " if self.steps else ""
            return f"{before}cannot enter {self.blocked_at} ({self.reason}): void, {self.rule}"
        return text if self.allowed else f"{text}: void, {self.rule}" + (f" ({self.reason})" if self.reason else "")


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
        return EntryCost(None, (), "A", reason="sea; land units go by ship (D)")
    if step.open_water:
        return EntryCost(None, (), "A", reason=f"open water from {step.origin}; no land move across (A.3: by ship)")
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
    """Judge a land move along `path` (the start hex first) by a unit of `type_id`; a move
    that enters a hex of `enemy` units stops there and the rest of its path is dropped (ruling
    stop_at_enemy; RULES-NOTES, Contact): `stopped_at` says where."""
    contact = next((k for k, h in enumerate(path) if k > 0 and h in enemy), None)
    if contact is not None and contact < len(path) - 1:  # judged as far as the contact only
        judged = land_path(board, rules, type_id, path[: contact + 1], mp_modifier=mp_modifier, pontoons=pontoons)
        return replace(judged, rule="A", stopped_at=path[contact]) if judged.allowed else judged
    mp = allowance(rules, type_id, mp_modifier)
    steps: list[Step] = []
    spent = 0

    def void(rule: str, reason: str, at: str | None = None) -> PathVerdict:
        return PathVerdict(False, spent, mp, tuple(steps), rule, reason, at)

    for i, (here, there) in enumerate(zip(path, path[1:], strict=False)):
        if not board.on_map(there):
            return void("A", f"{there} is not a hex of the map")
        if not board.adjacent(here, there):
            return void("A", f"{here} and {there} are not adjacent")
        cost = step_cost(rules, type_id, crossing(board, here, there, pontoons))
        if not cost.allowed:
            return void(cost.rule, cost.reason or "not allowed", there)
        if cost.whole_move and (i > 0 or len(path) > 2):
            steps.append(Step(there, cost))
            return void("A.1", "a pontoon or ferry crossing takes the whole move and ends it across the river")
        steps.append(Step(there, cost))
        spent += cost.mp or 0
        if spent > mp:
            return PathVerdict(False, spent, mp, tuple(steps), "A.1", f"more than the unit's {mp} MP")
    rule = steps[-1].cost.rule if steps else "A"
    return PathVerdict(True, spent, mp, tuple(steps), rule)


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
