"""A faction's orders merged into a turn log's text: its entries in every section replaced, and
every other byte of the file (other factions' orders, battles, dice, comments) kept as it was.

The text is spliced where the YAML nodes stand (PyYAML's `compose` gives each node's marks):
the faction's sequence in a section is replaced by freshly written lines, a missing faction key
is added at the end of its section, a missing section at the end of the file. The result is
read back and must equal the log with the faction's orders replaced, or nothing is written."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from kitgen.engine.turnlog import TurnLog
from kitgen.model.base import Model
from kitgen.orders.entries import SECTIONS, FactionOrders


def replaced(log: TurnLog, faction: str, new: FactionOrders) -> TurnLog:
    """The log with the faction's orders in every section those of `new` (a faction key written
    before and now without orders stays, with an empty list)."""
    update: dict[str, Any] = {}
    for section in SECTIONS:
        entries = dict(getattr(log, section))
        orders = list(getattr(new, section))
        if orders or faction in entries:
            entries[faction] = orders
        update[section] = entries
    update["partisans"] = [p for p in log.partisans if p.faction != faction] + list(new.partisans)
    return log.model_copy(update=update)


def new_log_text(turn: int) -> str:
    return f"turn: {turn}\n"


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: str


def _flow(model: Model) -> str:
    data = model.model_dump(mode="json", exclude_defaults=True)
    return str(yaml.safe_dump(data, default_flow_style=True, sort_keys=False, width=10**9)).strip()


def _flow_list(models: list[Any]) -> str:
    return "[" + ", ".join(_flow(m) for m in models) + "]"


def _last_line(node: yaml.Node) -> int:
    """The 0-based line of the node's last character (block nodes end at the next token, which
    may be lines below, past comments)."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _last_line(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _last_line(node.value[-1])
    end = node.end_mark
    return end.line if end.column > 0 else end.line - 1


class _Text:
    """The file's text with its line starts, for edits by whole lines."""

    def __init__(self, text: str) -> None:
        self.text = text if not text or text.endswith("\n") else text + "\n"
        self.starts = [0]
        for k, ch in enumerate(self.text):
            if ch == "\n":
                self.starts.append(k + 1)

    def line_start(self, line: int) -> int:
        return self.starts[min(line, len(self.starts) - 1)]

    def after(self, line: int) -> int:
        return self.line_start(line + 1)


def splice(text: str, faction: str, new: FactionOrders) -> str:
    """The log's text with the faction's orders those of `new`: see the module's docstring."""
    doc = _Text(text)
    root = yaml.compose(doc.text)
    pairs = {k.value: (k, v) for k, v in root.value} if isinstance(root, yaml.MappingNode) else {}
    edits: list[_Edit] = []
    tail: list[str] = []
    for section in SECTIONS:
        orders: list[Any] = list(getattr(new, section))
        if section not in pairs:
            if orders:
                tail.append(f"{section}:\n  {faction}:\n" + "".join(f"    - {_flow(o)}\n" for o in orders))
            continue
        key, node = pairs[section]
        edits += _section(doc, key, node, faction, orders)
    edits += _partisans(doc, pairs.get("partisans"), faction, new, tail)
    out = doc.text
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: edit.start] + edit.text + out[edit.end :]
    return out + "".join(tail)


NULL = "tag:yaml.org,2002:null"


def _is_null(node: yaml.Node) -> bool:
    """A key with nothing under it but comments (as `kitgen next` writes the sections)."""
    return isinstance(node, yaml.ScalarNode) and node.tag == NULL


def _under(doc: _Text, key: yaml.Node, value: yaml.Node, text: str) -> list[_Edit]:
    """`text` (whole lines) put right under the key of a null value, the null written out (`~`,
    `null`) taken away; the comments under the key stay below the new lines."""
    edits = []
    if value.end_mark.index > value.start_mark.index and value.start_mark.line == key.start_mark.line:
        edits.append(_Edit(value.start_mark.index, value.end_mark.index, ""))
    at = doc.after(key.start_mark.line)
    return [*edits, _Edit(at, at, text)]


def _section(doc: _Text, key: yaml.Node, node: yaml.Node, faction: str, orders: list[Any]) -> list[_Edit]:
    if _is_null(node):
        if not orders:
            return []
        indent = key.start_mark.column + 2
        return _under(doc, key, node, f"{' ' * indent}{faction}:\n" + _items(orders, indent + 2))
    if not isinstance(node, yaml.MappingNode):
        raise ValueError("a section that is not a mapping")  # a log that validated has none
    found = next(((k, v) for k, v in node.value if k.value == faction), None)
    if node.flow_style:
        if found is not None:
            _, value = found
            return [_Edit(value.start_mark.index, value.end_mark.index, _flow_list(orders))]
        if not orders:
            return []
        close = node.end_mark.index - 1  # the closing brace
        lead = ", " if node.value else ""
        return [_Edit(close, close, f"{lead}{faction}: {_flow_list(orders)}")]
    indent = node.value[0][0].start_mark.column
    if found is None:
        if not orders:
            return []
        at = doc.after(_last_line(node))
        return [_Edit(at, at, f"{' ' * indent}{faction}:\n" + _items(orders, indent + 2))]
    key, value = found
    if _is_null(value):
        return _under(doc, key, value, _items(orders, key.start_mark.column + 2)) if orders else []
    if isinstance(value, yaml.SequenceNode) and value.flow_style or not value.value:
        return [_Edit(value.start_mark.index, value.end_mark.index, _flow_list(orders))]
    start, end = doc.line_start(value.start_mark.line), doc.after(_last_line(value))
    said, loose = _comments(doc, value)
    if not orders:
        return [_Edit(start, end, f"{' ' * (key.start_mark.column + 2)}[]\n" + loose)]
    return [_Edit(start, end, _items(orders, value.start_mark.column, said) + loose)]


def _items(orders: list[Any], column: int, said: dict[str, str] | None = None) -> str:
    """The orders as block items; an order for a unit (train, ship) whose old order carried a
    comment on its line carries it again."""
    said = said or {}
    lines = []
    for o in orders:
        note = said.get(_who(o), "")
        lines.append(f"{' ' * column}- {_flow(o)}" + (f"   {note}" if note else "") + "\n")
    return "".join(lines)


def _who(order: Any) -> str:
    return str(getattr(order, "unit", None) or getattr(order, "train", None) or getattr(order, "ship", None) or "")


def _comments(doc: _Text, seq: yaml.SequenceNode) -> tuple[dict[str, str], str]:
    """What the umpire wrote among a faction's old entries: the comment on each entry's line, by
    the unit (train, ship) it orders, and the comment lines between them, kept whole."""
    said: dict[str, str] = {}
    for item in seq.value:
        line_end = doc.after(item.end_mark.line) - 1
        rest = doc.text[item.end_mark.index : line_end].strip()
        who = _field(item, ("unit", "train", "ship"))
        if rest.startswith("#") and who:
            said[who] = rest
    lines = doc.text[doc.line_start(seq.start_mark.line) : doc.after(_last_line(seq))].splitlines(keepends=True)
    loose = "".join(line for line in lines if line.lstrip().startswith("#"))
    return said, loose


def _field(item: yaml.Node, names: tuple[str, ...]) -> str | None:
    if isinstance(item, yaml.MappingNode):
        for k, v in item.value:
            if k.value in names and isinstance(v, yaml.ScalarNode):
                return str(v.value)
    return None


def _partisans(
    doc: _Text, pair: tuple[yaml.Node, yaml.Node] | None, faction: str, new: FactionOrders, tail: list[str]
) -> list[_Edit]:
    """The faction's choices in the one list of all factions' partisans: its items removed, the
    new ones added at the end."""
    choices = list(new.partisans)
    if pair is None:
        if choices:
            tail.append("partisans:\n" + _items(choices, 2))
        return []
    key, node = pair
    if _is_null(node):
        return _under(doc, key, node, _items(choices, key.start_mark.column + 2)) if choices else []
    if not isinstance(node, yaml.SequenceNode):
        raise ValueError("partisans that are not a list")  # a log that validated has none
    theirs = [item for item in node.value if _faction_of(item) == faction]
    if not theirs and not choices:
        return []
    if node.flow_style or not node.value:
        kept = [yaml.safe_load(yaml.serialize(item)) for item in node.value if _faction_of(item) != faction]
        items = [str(yaml.safe_dump(k, default_flow_style=True, sort_keys=False, width=10**9)).strip() for k in kept]
        items += [_flow(c) for c in choices]
        return [_Edit(node.start_mark.index, node.end_mark.index, "[" + ", ".join(items) + "]")]
    column = node.start_mark.column
    edits = [_Edit(doc.line_start(item.start_mark.line), doc.after(_last_line(item)), "") for item in theirs]
    if len(theirs) == len(node.value) and not choices:
        edits.append(
            _Edit(doc.after(_last_line(node)), doc.after(_last_line(node)), f"{' ' * (key.start_mark.column + 2)}[]\n")
        )
    elif choices:
        at = doc.after(_last_line(node))
        edits.append(_Edit(at, at, _items(choices, column)))
    return edits


def _faction_of(item: yaml.Node) -> str | None:
    if isinstance(item, yaml.MappingNode):
        for k, v in item.value:
            if k.value == "faction" and isinstance(v, yaml.ScalarNode):
                return str(v.value)
    return None
