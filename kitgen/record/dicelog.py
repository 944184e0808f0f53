"""The log's `dice:` written by the record: a roll given (at the table, on the roll sheet, at the
prompt) or drawn by kitgen where it rolls, each under its purpose; and a roll the turn asks
for and nobody has given yet written with no value, where the umpire sees it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import yaml

from kitgen.engine.turnlog import GivenRoll
from kitgen.record.merge import Fate, Plan, splice_list
from kitgen.record.templates import uncomment_rolls


def with_rolls(text: str, values: Mapping[str, int | None]) -> tuple[str, Counter[str]]:
    """The log's text with each roll of `values` under its purpose: a value replaces the entry's
    (None keeps an entry as it is, or adds one with no value); a roll's commented line becomes
    its entry; any other is added at the end of `dice:` (made at the end of the log if missing).
    Also the comments so taken away (a roll's commented line, now its entry)."""
    listed = {g.purpose for g in dice_of(text)}
    text, _, removed = uncomment_rolls(text, {p: v for p, v in values.items() if p not in listed})
    old = dice_of(text)
    fates: list[Fate] = []
    for given in old:
        value = values.get(given.purpose)
        fates.append("keep" if value is None or value == given.value else GivenRoll(purpose=given.purpose, value=value))
    now = {g.purpose for g in old}
    plan = Plan(fates, [GivenRoll(purpose=p, value=v) for p, v in values.items() if p not in now])
    return (splice_list(text, "dice", old, plan) if plan.changes else text), removed


def dice_of(text: str) -> list[GivenRoll]:
    """The `dice:` entries of a log's text (one that reads as a turn log)."""
    data: Any = yaml.safe_load(text)
    entries = data.get("dice") if isinstance(data, dict) else None
    return [GivenRoll.model_validate(e) for e in entries or []]
