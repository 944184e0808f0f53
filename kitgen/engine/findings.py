"""What a replayed turn leaves wrong or unfinished, as warnings for `kitgen validate`: orders
void, held or stopped, cargo left behind, card effects and stands owed, slips not placed, a
Makhnovist force off its strength, rolls kitgen drew because the log did not give them, and rolls
the log gives that the turn does not ask for."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.engine.turn import TurnRecord

RESULTS_WARNED = ("void", "held", "stopped")


@dataclass(frozen=True)
class Finding:
    """One warning: where it stands, which rule, and what it is."""

    file: str
    line: int
    column: int
    """Where in the log: the order's own place, or 1:1 for what concerns the log as a whole."""
    turn: int
    code: str
    """order.void, order.held, order.stopped, cargo.left_behind, task.<code>, slips.unplaced, rolls.drawn,
    rolls.unused."""
    rule: str
    text: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: warning: {self.text} ({self.rule})"


def findings(record: TurnRecord, file: str) -> list[Finding]:
    """The warnings of a turn played, whose log is `file`."""
    state = record.state
    turn = state.turn
    found = [
        Finding(v.file, v.line, v.column, turn, f"order.{v.result}", v.rule, v.explanation)
        for v in state.verdicts
        if v.result in RESULTS_WARNED
    ]
    found += [
        Finding(
            v.file,
            v.line,
            v.column,
            turn,
            "cargo.left_behind",
            v.rule,
            f"{v.unit} leaves behind {', '.join(v.left_behind)}",
        )
        for v in state.verdicts
        if v.left_behind
    ]
    for task in state.tasks:
        said = {
            "card_effect": f"event card {task.card}: left to the umpire: {task.detail}",
            "stands_owed": f"event card {task.card}: the {task.faction} lose {task.count} {task.stand} stands, "
            "and no `remove:` says from which units",
            "strength_gap": f"Makhnovist force off its strength row: {task.detail}",
        }.get(task.code, task.detail)
        found.append(Finding(file, 1, 1, turn, f"task.{task.code}", task.rule, said))
    for note, owed in zip(record.notes, record.breakouts_owed, strict=True):
        text = f"{owed.unit} lost in {owed.hex}, cannot retreat and must break out, and no breakout battle is reported"
        found.append(Finding(note.file, note.line, note.column, turn, "task.breakout_owed", "II.B.1", text))
    for faction, slips in sorted(state.slips.items()):
        if slips:
            text = f"{faction} slips drawn and not placed: {', '.join(slips)}"
            found.append(Finding(file, 1, 1, turn, "slips.unplaced", "E.3-E.5", text))
    for unused in record.unused_rolls:  # RULES-NOTES 2026-12-02: not used, a warning at its line
        n = unused.note
        found.append(Finding(n.file, n.line, n.column, turn, "rolls.unused", "dice", n.message))
    drawn = [r.purpose for r in state.rolls if r.source == "drawn"]
    if drawn:
        more = f" and {len(drawn) - 3} more" if len(drawn) > 3 else ""
        rolls = f"{len(drawn)} roll{'s' if len(drawn) != 1 else ''}"
        text = f"{rolls} drawn from the campaign's dice, not given in the log: {'; '.join(drawn[:3])}{more}"
        found.append(Finding(file, 1, 1, turn, "rolls.drawn", "dice", text))
    return found
