"""`kitgen roll` at the terminal where the table rolls: each roll the turn still needs asked for
in the order the turn makes them (a breakdown's once the command roll before it is in), checked
as it is given, then all written into the log at once through the record."""

from __future__ import annotations

from pathlib import Path

from kitgen.desk.words import roll_words
from kitgen.engine.piecenames import piece_names
from kitgen.prompts import Asker
from kitgen.record.rolls import RollsWritten, check_rolls, give_rolls, turn_rolls
from kitgen.rules.dice import Dice


def enter_rolls(folder: Path, asker: Asker, turn: int | None = None, *, amend: bool = False) -> RollsWritten | None:
    """Ask for every roll the turn needs that its log does not give, then write them; None when
    none is needed."""
    at = turn_rolls(folder, turn, amend=amend)
    names = piece_names(at.record.start or at.before)
    answers: dict[str, int] = {}
    record = at.record
    asked = 0
    while True:
        owed = [r for r in record.rolls if r.source == "drawn" and r.purpose not in answers]
        if not owed:
            break
        if not asked:
            asker.say(f"Turn {at.turn}: the rolls the table makes, one at a time (Ctrl-D stops; nothing is written).")
        r = owed[0]
        d = Dice.parse(r.dice)
        answers[r.purpose] = asker.count(roll_words(r, names), d.low, d.high)
        asked += 1
        record = check_rolls(at.campaign, at.before, at.log, answers, at.campaign.folder)
    if not answers:
        return None
    return give_rolls(folder, answers, at.turn, amend=amend)
