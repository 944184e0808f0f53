"""The booklet's worked examples: moves judged by the engine's own path rules on a strip of hexes
laid out for the example, so that what the booklet says is what the engine does."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.mapping.board import Board
from kitgen.mapping.handmade import board_spec, hex_map_of
from kitgen.model.scenario import Scenario
from kitgen.render.wording import either
from kitgen.rules.movement import movement_row
from kitgen.rules.paths import PathVerdict, land_path

STRIP = ("0101", "0201", "0301", "0401", "0501")
"""Five hexes in a row, west to east."""


@dataclass(frozen=True)
class Example:
    """A move as the booklet tells it: the unit, the hexes it is ordered into, and the engine's verdict."""

    unit: str
    mp: int
    ordered: tuple[str, ...]
    """Each hex of the path beyond the first, as the order reads ('a forest hex')."""
    named: tuple[str, ...]
    """The same hexes named again ('the forest hex')."""
    verdict: PathVerdict

    def text(self) -> str:
        """The example in the booklet's words, made from the verdict's numbers."""
        v = self.verdict
        went = len(v.steps)
        paid = [f"{s.cost.mp} MP for {self.named[k]} ({' '.join(s.cost.parts)})" for k, s in enumerate(v.steps)]
        out = f"A {self.unit} unit ({self.mp} MP) is ordered into {either(list(self.ordered), 'and')}."
        out += f" It pays {either(paid, 'and')}: {v.spent} MP, {self.mp - v.spent} left."
        if v.stop is None:
            return out
        here = self.named[went - 1] if went else "the hex it stands in"
        why = f"it would need {v.reason}" if v.stop == "mp" else f"it may not go on ({v.reason})"
        return out + f" For {self.named[went]} {why}: it stops in {here}, and the rest of its path is dropped."


def stop_example(scenario: Scenario) -> Example | None:
    """Cavalry (or the first type with MP and terrain costs) ordered into open ground, over a
    crossable river into forest and on into forest: it stops when its MP run out. None if the
    scenario's tables have no such terrain."""
    mv = scenario.movement
    terrain = {t.id for t in mv.terrain}
    if not {"open", "forest"} <= terrain:
        return None
    kinds = [t for t in mv.unit_types if not t.moves_as and t.cost and t.mp]
    row = next((t for t in kinds if t.id == "cavalry"), kinds[0] if kinds else None)
    if row is None:
        return None
    board = _strip(["open", "forest", "forest", "forest"])
    verdict = land_path(board, mv, row.id, list(STRIP))
    if verdict.stop is None or verdict.malformed:  # a unit that goes the whole way shows no stop
        return None
    ordered = ("an open hex", "a forest hex across a crossable river", "a second forest hex", "a third")
    named = ("the open hex", "the forest hex across the river", "the second forest hex", "the third forest hex")
    return Example(row.name.lower(), movement_row(mv, row.id).mp or 0, ordered, named, verdict)


def _strip(terrain: list[str]) -> Board:
    """The five hexes of STRIP, the first open and the rest as `terrain` says, a crossable river
    between the second and the third."""
    spec = {
        "columns": len(STRIP),
        "rows": 1,
        "terrain": "open",
        "hexes": {h: {"terrain": t} for h, t in zip(STRIP[1:], terrain, strict=True)},
        "sides": [{"hexes": [STRIP[1], STRIP[2]], "river": "River", "class": "crossable"}],
    }
    return Board.from_map(hex_map_of(board_spec(spec)))
