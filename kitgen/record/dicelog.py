"""The log's `dice:` written by the record: a roll given (at the table, on the roll sheet, at the
prompt) or drawn by kitgen where it rolls, each under its purpose; and a roll the turn asks
for and nobody has given yet written with no value, where the umpire sees it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping
from typing import Any

import yaml

from kitgen.engine.turnlog import GivenRoll, TurnLog
from kitgen.record.merge import Fate, Plan, splice_list
from kitgen.record.templates import uncomment_rolls
from kitgen.yamlsource import LOADER


def with_rolls(text: str, values: Mapping[str, int | None], drop: Collection[str] = ()) -> tuple[str, Counter[str]]:
    """The log's text with each roll of `values` under its purpose: a value replaces the entry's
    (None keeps an entry as it is, or adds one with no value); a roll's commented line becomes
    its entry; any other is added at the end of `dice:` (made at the end of the log if missing).
    The entries of `drop` are taken out. Also the comments so taken away (a roll's commented
    line, now its entry)."""
    listed = {g.purpose for g in dice_of(text)}
    wanted = {p: v for p, v in values.items() if p not in listed}
    taken, _, removed = uncomment_rolls(text, wanted, _list_indent(text))
    try:
        old = dice_of(taken)
        text = taken
    except yaml.YAMLError:  # a log laid out otherwise than kitgen writes: the rolls go at the end instead
        old, removed = dice_of(text), Counter()
    fates: list[Fate] = []
    for given in old:
        value = values.get(given.purpose)
        if given.purpose in drop:
            fates.append("drop")
        elif value is None or value == given.value:
            fates.append("keep")
        else:
            fates.append(GivenRoll(purpose=given.purpose, value=value))
    now = {g.purpose for g in old}
    plan = Plan(fates, [GivenRoll(purpose=p, value=v) for p, v in values.items() if p not in now])
    return (splice_list(text, "dice", old, plan) if plan.changes else text), removed


def dice_of(text: str) -> list[GivenRoll]:
    """The `dice:` entries of a log's text (one that reads as a turn log)."""
    data: Any = yaml.load(text, Loader=LOADER)
    entries = data.get("dice") if isinstance(data, dict) else None
    return [GivenRoll.model_validate(e) for e in entries or []]


def _list_indent(text: str) -> str | None:
    """The indent of the entries of the log's `dice:` list, where it has some in block style."""
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        return None
    if not isinstance(root, yaml.MappingNode):
        return None
    node = next((v for k, v in root.value if k.value == "dice"), None)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return " " * node.start_mark.column
    return None


def with_given(log: TurnLog, values: Mapping[str, int]) -> TurnLog:
    """The log with `values` given under their purposes (an entry of each replaced)."""
    kept = [g for g in log.dice if g.purpose not in values]
    return log.model_copy(update={"dice": [*kept, *(GivenRoll(purpose=p, value=v) for p, v in values.items())]})
