"""The umpire's roll sheet, as data: a line for every roll the turn may ask for, made from the
state its orders are written against (`kitgen.engine.ahead`), so that a filled sheet is read
back by the same lines, made again; and the rolls a filled one gives.

A line is a roll's purpose (as the log's `dice:` names it), its words for people, its dice and
every total they can show, one bubble each. A line left empty gives nothing; a line with two
marks is a problem naming the roll, never a guess."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.reports.battleform import FormProblem, Picked
from kitgen.rules.dice import Dice

ROLL = "roll"
"""The part of a roll's line of bubbles."""


@dataclass(frozen=True)
class SheetRoll:
    """One line of the roll sheet."""

    row: str
    """Its bubbles' row: `roll1`, `roll2` ... in the sheet's order."""
    purpose: str
    words: str
    """What it is for, with the pieces by the names their counters print."""
    dice: str
    low: int
    high: int
    needed: str
    """'always' (the turn makes it whatever is ordered) or 'if ordered'."""
    note: str
    """What it decides: 'obeys on 8 or under', 'an event card is drawn on 6'."""
    faction: str | None = None


def sheet_rolls(campaign: Campaign, after: CampaignState, turn: int) -> list[SheetRoll]:
    """Every roll the turn after `after` may ask for, in the order the turn makes them."""
    from kitgen.engine.ahead import rolls_ahead
    from kitgen.engine.piecenames import piece_names, purpose_words

    names = {**{f.id: f.name for f in campaign.scenario.meta.factions}, **piece_names(after)}
    found = []
    for k, r in enumerate(rolls_ahead(campaign, after, turn), start=1):
        d = Dice.parse(r.dice)
        needed = "always" if r.needed == "always" else "if ordered"
        found.append(
            SheetRoll(
                f"roll{k}", r.purpose, purpose_words(r.purpose, names), r.dice, d.low, d.high, needed, r.note, r.faction
            )
        )
    return found


def sheet_key(rolls: Sequence[SheetRoll]) -> str:
    """A short hash of the sheet's lines: a sheet printed for other rolls is not read as this one."""
    return hashlib.sha256("\n".join(f"{r.row} {r.purpose} {r.dice}" for r in rolls).encode("utf-8")).hexdigest()[:12]


def rolls_from(rolls: Sequence[SheetRoll], picked: Picked) -> tuple[dict[str, int], list[FormProblem]]:
    """The rolls a filled sheet gives (purpose -> roll), and the lines that cannot be read."""
    given: dict[str, int] = {}
    problems: list[FormProblem] = []
    for r in rolls:
        chosen = list(dict.fromkeys(picked.get((r.row, ROLL), ())))
        if len(chosen) > 1:
            problems.append(FormProblem(r.row, ROLL, msg.report_several(r.words, "roll", chosen)))
        elif chosen:
            given[r.purpose] = int(chosen[0])
    return given, problems


def choices(roll: SheetRoll) -> list[str]:
    """The bubbles of a roll's line: every total its dice can show."""
    return [str(v) for v in range(roll.low, roll.high + 1)]


def values_of(rolls: Sequence[SheetRoll]) -> Mapping[str, SheetRoll]:
    return {r.purpose: r for r in rolls}
