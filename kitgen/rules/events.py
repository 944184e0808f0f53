"""II.A Random events: the roll each strategic turn that draws a card."""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from typing import TYPE_CHECKING

from kitgen.model.rules import EventRules
from kitgen.model.scenario import name_key
from kitgen.rules.dice import Dice

if TYPE_CHECKING:
    from kitgen.mapping.board import Board
    from kitgen.model.forces import BattleScope


def draws_event(rules: EventRules, roll: int) -> bool:
    """II.A.1: draw an event card on a 6."""
    return roll in rules.draw_on


def event_chance(rules: EventRules) -> Fraction:
    return Dice.parse(rules.roll).chance(lambda roll: roll in rules.draw_on)


def in_scope(board: Board, scope: BattleScope, hexes: Collection[str]) -> bool:
    """II.A.2: whether a card's effect reaches a tabletop battle fought in `hexes`: a hex within
    `scope.within` of the place `scope.near`, next to the river `scope.along`, or coastal (any of
    those given), or any battle when the card names none."""
    grid = board.grid
    home = board.places.get(name_key(scope.near)) if scope.near is not None else None
    centre = grid.parse_id(home) if home is not None else None
    river = name_key(scope.along) if scope.along is not None else None

    def near(h: str) -> bool:
        cell = grid.parse_id(h)
        return centre is not None and cell is not None and grid.distance(centre, cell) <= scope.within

    def along(h: str) -> bool:
        sides = (board.side(h, n) for n in board.neighbours(h))
        return any(s is not None and s.river is not None and name_key(s.river) == river for s in sides)

    def coastal(h: str) -> bool:
        return h in board.coastal or board.is_port(h)

    tests: list[Callable[[str], bool]] = [
        test for test, given in ((near, scope.near), (along, scope.along), (coastal, scope.coastal or None)) if given
    ]
    return not tests or any(test(h) for h in hexes for test in tests)
