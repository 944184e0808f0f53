"""The lines `kitgen next` writes as comments, taken up when the log gets what they stand for: a
unit's (train's, ship's, slip's) commented order line goes when it gets that order, its words
(who it is, where, what its command roll needs) moving onto the order's line; a roll's commented
line is the roll's entry once the turn asks for it.

Every change is by whole lines of text, so the rest of the log keeps its bytes; what the lines
say is read with the YAML reader, never guessed from their look."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import yaml

from kitgen.engine.turnlog import TurnLog
from kitgen.record.merge import line_comment
from kitgen.yamlsource import LOADER

_TEMPLATE = re.compile(r"(?P<indent>[ ]*)# (?P<item>- \{(?P<key>unit|train|ship|slip|purpose): .*)$")
"""A commented entry as `kitgen next` writes it: its indent, then `# - {key: ...`."""
ORDERED: dict[str, str] = {"unit": "orders", "train": "rail", "ship": "sea", "slip": "place"}
"""The log's section a commented line's key stands for."""


@dataclass(frozen=True)
class Commented:
    """One commented entry line of the log."""

    line: int
    """Its line, from 0."""
    indent: str
    key: str
    who: str
    """The unit, train, ship or slip it names, or the roll's purpose."""
    entry: str
    """The entry as YAML, without its own trailing comment."""
    words: str
    """Its trailing comment (`# 16th Rifle Division, ...`), or ''."""


def commented(text: str) -> list[Commented]:
    """Every commented entry line of the log that the YAML reader can read as an entry."""
    found = []
    for n, line in enumerate(text.split("\n")):
        m = _TEMPLATE.fullmatch(line)
        if m is None:
            continue
        item = m.group("item")
        words = line_comment(item)
        entry = item[: len(item) - len(words)].rstrip() if words else item.rstrip()
        try:
            data = yaml.load(entry.replace(", ...]", "]"), Loader=LOADER)  # `move: ["4913", ...]`, a path to write
        except yaml.YAMLError:
            continue
        if not (isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict)):
            continue
        who = data[0].get(m.group("key"))
        if isinstance(who, str | int):
            found.append(Commented(n, m.group("indent"), m.group("key"), str(who), entry, words))
    return found


def ordered_now(log: TurnLog) -> set[tuple[str, str]]:
    """(key, who) of every unit, train, ship and slip the log gives an order of that kind."""
    found: set[tuple[str, str]] = set()
    for key, section in ORDERED.items():
        for orders in getattr(log, section).values():
            found.update((key, str(getattr(o, key))) for o in orders)
    return found


def take_up_orders(text: str, log: TurnLog) -> tuple[str, Counter[str]]:
    """The log's text with the commented order line of every unit, train, ship and slip it now
    orders taken away, its words put on the order's own line where that has none; and the
    comments taken away (for the caller's check that no other comment was lost)."""
    now = ordered_now(log)
    gone = [c for c in commented(text) if c.key != "purpose" and (c.key, c.who) in now]
    if not gone:
        return text, Counter()
    lines = text.split("\n")
    at = _order_lines(text)
    removed: Counter[str] = Counter()
    for c in gone:
        removed[line_comment(lines[c.line]).lstrip("#").strip()] += 1
        own = at.get((c.key, c.who))
        if own is not None and c.words and not line_comment(lines[own]):
            lines[own] = f"{lines[own].rstrip()}   {c.words}"
            removed[c.words.lstrip("#").strip()] -= 1  # moved, not lost
    skip = {c.line for c in gone}
    return "\n".join(line for n, line in enumerate(lines) if n not in skip), +removed


def _order_lines(text: str) -> dict[tuple[str, str], int]:
    """(key, who) -> the line (from 0) of the order entry that names it, for entries on one line."""
    try:
        root = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError:
        return {}
    found: dict[tuple[str, str], int] = {}
    if not isinstance(root, yaml.MappingNode):
        return found
    sections = {v: k for k, v in ORDERED.items()}
    for key_node, value in root.value:
        key = sections.get(key_node.value)
        if key is None or not isinstance(value, yaml.MappingNode):
            continue
        for _, orders in value.value:
            if not isinstance(orders, yaml.SequenceNode):
                continue
            for item in orders.value:
                if not isinstance(item, yaml.MappingNode) or item.start_mark.line != item.end_mark.line:
                    continue
                for k, v in item.value:
                    if k.value == key and isinstance(v, yaml.ScalarNode):
                        found[(key, str(v.value))] = item.start_mark.line
    return found


def uncomment_rolls(
    text: str, purposes: Mapping[str, int | None], indent: str | None = None
) -> tuple[str, set[str], Counter[str]]:
    """The log's text with the commented line of each roll of `purposes` made an entry (at
    `indent`, the list's own, where given), its value written (or left empty), its words kept;
    the purposes so taken up, and the comments taken away. A roll whose line is not commented
    is left for the caller."""
    from kitgen.outputs import yaml_scalar, yaml_string

    lines = text.split("\n")
    done: set[str] = set()
    removed: Counter[str] = Counter()
    for c in commented(text):
        if c.key != "purpose" or c.who not in purposes or c.who in done:
            continue
        value = purposes[c.who]
        shown = "" if value is None else yaml_scalar(value)
        words = f"   {c.words}" if c.words else ""
        removed[line_comment(lines[c.line]).lstrip("#").strip()] += 1
        lines[c.line] = (
            f"{c.indent if indent is None else indent}- {{purpose: {yaml_string(c.who)}, value: {shown}}}{words}"
        )
        done.add(c.who)
    return "\n".join(lines), done, removed
