"""A faction's orders merged into a turn log unit by unit, and the log's text changed only where
they changed.

The form names the units it speaks for (every row of a PDF, the rows of a spreadsheet): each of
their entries is replaced by the form's, or dropped where the row is blank (the unit holds); a
unit the form does not mention keeps its order. The text is spliced where the YAML nodes stand
(PyYAML's `compose` gives each node's marks): an unchanged entry keeps its bytes and comments, a
changed one is rewritten on its own lines, a new one is added after the faction's last, a
missing faction key or section at the end of its section or of the file. The result is read back
and must equal the merged log, or nothing is written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from kitgen.engine.turnlog import Battle, GivenRoll, TurnLog
from kitgen.model.base import Model
from kitgen.orders.entries import SECTIONS, FactionOrders
from kitgen.outputs import yaml_string
from kitgen.yamlsource import LOADER

Fate = Literal["keep", "drop"] | Any
"""What becomes of an entry of the log: kept as it is, dropped, or replaced by a new order."""
ChangeKind = Literal["added", "replaced", "unchanged", "kept", "holds"]


@dataclass(frozen=True)
class UnitChange:
    """What the merge did to one unit's (train's, ship's) orders."""

    who: str
    kind: ChangeKind
    """added (new orders), replaced (other orders than before), unchanged, kept (the form does not
    mention it: its orders stay), holds (a blank row: no order, whatever it had)."""
    old: tuple[str, ...] = ()
    new: tuple[str, ...] = ()


@dataclass
class Plan:
    """The merge of one list of the log: each old entry's fate, and the entries added after them."""

    fates: list[Fate] = field(default_factory=list)
    added: list[Any] = field(default_factory=list)

    @property
    def changes(self) -> bool:
        return bool(self.added) or any(f != "keep" for f in self.fates)

    def result(self, old: Sequence[Any]) -> list[Any]:
        kept = [o if f == "keep" else f for o, f in zip(old, self.fates, strict=True) if f != "drop"]
        return kept + self.added


@dataclass
class Merge:
    """A faction's orders merged into a log: the plans, the merged log and what each unit got."""

    faction: str
    sections: dict[str, Plan]
    partisans: Plan
    log: TurnLog
    changes: list[UnitChange]
    hand_in: bool
    """The faction is not yet in the log's `handed_in`."""


def who(order: Any) -> str:
    """The unit, train or ship an order is for ('' for an order of none, such as a slip placed)."""
    return str(getattr(order, "unit", None) or getattr(order, "train", None) or getattr(order, "ship", None) or "")


def merge(
    log: TurnLog, faction: str, new: FactionOrders, mentioned: set[str], at: dict[str, str] | None = None
) -> Merge:
    """The faction's orders of `new` merged into `log` for the units `mentioned` (see the module).
    The faction's partisan choices (II.D) the form speaks for are those in the hexes where its
    units stand (`at`: unit -> hex) or end their old or new moves, and those it makes anew: each is
    replaced by the form's choice there, or dropped if it makes none."""
    sections: dict[str, Plan] = {}
    update: dict[str, Any] = {}
    before: dict[str, list[str]] = {}
    after: dict[str, list[str]] = {}
    for section in SECTIONS:
        old = list(getattr(log, section).get(faction, []))
        fresh = list(getattr(new, section))
        plan = _plan(old, fresh, lambda o: who(o) in mentioned, who)
        sections[section] = plan
        for o in old:
            before.setdefault(who(o), []).append(flow(o))
        for o in plan.result(old):
            after.setdefault(who(o), []).append(flow(o))
        entries = dict(getattr(log, section))
        if plan.changes or faction in entries:
            entries[faction] = plan.result(old)
        update[section] = entries
    where = {c.hex for c in new.partisans} | {h for u, h in (at or {}).items() if u in mentioned}
    for section in ("orders",):
        for o in (*getattr(log, section).get(faction, []), *getattr(new, section)):
            if who(o) in mentioned:
                where.add(o.move[-1])
    partisans = _plan(
        log.partisans, list(new.partisans), lambda p: p.faction == faction and p.hex in where, lambda p: p.hex
    )
    update["partisans"] = partisans.result(log.partisans)
    hand_in = faction not in log.handed_in
    update["handed_in"] = [*log.handed_in, faction] if hand_in else list(log.handed_in)
    changes = []
    for unit in sorted(set(before) | set(after) | mentioned):
        old_o, new_o = tuple(before.get(unit, ())), tuple(after.get(unit, ()))
        if unit not in mentioned:
            kind: ChangeKind = "kept"
        elif not new_o:
            kind = "holds"
        elif not old_o:
            kind = "added"
        else:
            kind = "unchanged" if sorted(old_o) == sorted(new_o) else "replaced"
        changes.append(UnitChange(unit, kind, old_o, new_o))
    changes += _partisan_changes(log.partisans, partisans, faction)
    return Merge(faction, sections, partisans, log.model_copy(update=update), changes, hand_in)


def _partisan_changes(old: list[Any], plan: Plan, faction: str) -> list[UnitChange]:
    """The faction's partisan choices the merge touched, as changes named by their hex."""
    found = []
    for o, fate in zip(old, plan.fates, strict=True):
        if o.faction != faction:
            continue
        name = f"partisans in {o.hex}"
        if fate == "keep":
            continue
        found.append(
            UnitChange(
                name, "holds" if fate == "drop" else "replaced", (flow(o),), () if fate == "drop" else (flow(fate),)
            )
        )
    found += [UnitChange(f"partisans in {c.hex}", "added", (), (flow(c),)) for c in plan.added]
    return found


def _plan(old: Sequence[Any], fresh: list[Any], speaks_for: Any, key: Any) -> Plan:
    """Each old entry the form speaks for replaced in place by the form's entry of the same key
    (kept if equal; a second old entry of that key dropped), or dropped if the form has none; the
    form's other entries added at the end."""
    by_key: dict[str, Any] = {}
    for o in fresh:
        by_key.setdefault(key(o), o)
    plan = Plan()
    used: set[str] = set()
    for o in old:
        if not speaks_for(o):
            plan.fates.append("keep")
            continue
        k = key(o)
        if k in used or k not in by_key:
            plan.fates.append("drop")
            continue
        used.add(k)
        plan.fates.append("keep" if by_key[k] == o else by_key[k])
    plan.added = [o for o in fresh if key(o) not in used]
    return plan


def new_log_text(turn: int) -> str:
    return f"turn: {turn}\n"


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: str


def flow(model: Model) -> str:
    """One order as a YAML flow mapping on one line, written by the YAML emitter; a roll with no
    value yet as `kitgen next` writes it, `value:` left empty for the umpire."""
    if isinstance(model, GivenRoll) and model.value is None:
        return f"{{purpose: {yaml_string(model.purpose)}, value: }}"
    data = model.model_dump(mode="json", exclude_defaults=True)
    return str(yaml.safe_dump(data, default_flow_style=True, sort_keys=False, width=10**9)).strip()


def _flow_list(models: list[Any]) -> str:
    return "[" + ", ".join(flow(m) for m in models) + "]"


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


def splice(text: str, merged: Merge) -> str:
    """The log's text (LF line ends) with the merge's changes made: see the module's docstring."""
    doc = _Text(text)
    root = yaml.compose(doc.text, Loader=LOADER)
    pairs = {k.value: (k, v) for k, v in root.value} if isinstance(root, yaml.MappingNode) else {}
    faction = merged.faction
    edits: list[_Edit] = []
    tail: list[str] = []
    for section in SECTIONS:
        plan = merged.sections[section]
        result: list[Any] = getattr(merged.log, section).get(faction, [])
        if not plan.changes:
            continue
        if section not in pairs:
            if result:
                tail.append(f"{section}:\n  {faction}:\n" + _items(result, 4))
            continue
        key, node = pairs[section]
        edits += _section(doc, key, node, faction, plan, result)
    if merged.partisans.changes:
        edits += _list(doc, pairs.get("partisans"), "partisans", merged.partisans, merged.log.partisans, tail)
    if merged.hand_in:
        hand = Plan(fates=["keep"] * (len(merged.log.handed_in) - 1), added=[faction])
        edits += _list(doc, pairs.get("handed_in"), "handed_in", hand, merged.log.handed_in, tail)
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


def _section(doc: _Text, key: yaml.Node, node: yaml.Node, faction: str, plan: Plan, result: list[Any]) -> list[_Edit]:
    if _is_null(node):
        if not result:
            return []
        indent = key.start_mark.column + 2
        return _under(doc, key, node, f"{' ' * indent}{faction}:\n" + _items(result, indent + 2))
    if not isinstance(node, yaml.MappingNode):
        raise ValueError("a section that is not a mapping")  # a log that validated has none
    found = next(((k, v) for k, v in node.value if k.value == faction), None)
    if node.flow_style:
        if found is not None:
            _, value = found
            if isinstance(value, yaml.SequenceNode) and value.flow_style:
                return _flow_items(doc, value, plan)
            return [_Edit(value.start_mark.index, value.end_mark.index, _flow_list(result))]
        if not result:
            return []
        close = node.end_mark.index - 1  # the closing brace
        lead = ", " if node.value else ""
        return [_Edit(close, close, f"{lead}{faction}: {_flow_list(result)}")]
    indent = node.value[0][0].start_mark.column
    if found is None:
        if not result:
            return []
        at = doc.after(_past_comments(doc, _last_line(node), indent))
        return [_Edit(at, at, f"{' ' * indent}{faction}:\n" + _items(result, indent + 2))]
    fkey, value = found
    if _is_null(value):
        return _under(doc, fkey, value, _items(result, fkey.start_mark.column + 2)) if result else []
    if isinstance(value, yaml.SequenceNode) and value.flow_style:
        return _flow_items(doc, value, plan)
    if not isinstance(value, yaml.SequenceNode) or not value.value:
        return [_Edit(value.start_mark.index, value.end_mark.index, _flow_list(result))]
    return _block_items(doc, value, plan)


def _past_comments(doc: _Text, line: int, indent: int) -> int:
    """The last line of the comment lines after `line` indented deeper than `indent`: they belong
    to the entry above (a template's commented orders), so a new key goes after them."""
    lines = doc.text.split("\n")
    while line + 1 < len(lines):
        nxt = lines[line + 1]
        if not (nxt.lstrip().startswith("#") and len(nxt) - len(nxt.lstrip()) > indent):
            break
        line += 1
    return line


def _block_items(doc: _Text, seq: yaml.SequenceNode, plan: Plan) -> list[_Edit]:
    """A block sequence changed item by item: kept items untouched, replaced ones rewritten on
    their own lines, dropped ones taken out, added ones after the last. Every comment on the lines
    of a replaced or dropped item stays: the first on the new item's line, the rest (and those of
    a dropped item) on lines of their own."""
    column = seq.start_mark.column
    edits = []
    for item, fate in zip(seq.value, plan.fates, strict=True):
        if fate == "keep":
            continue
        start, end = doc.line_start(item.start_mark.line), doc.after(_last_line(item))
        said = [c for c in (line_comment(line) for line in doc.text[start:end].splitlines()) if c]
        if fate == "drop":
            edits.append(_Edit(start, end, "".join(f"{' ' * column}{c}\n" for c in said)))
            continue
        first = f"   {said[0]}" if said else ""
        rest = "".join(f"{' ' * column}{c}\n" for c in said[1:])
        edits.append(_Edit(start, end, entry_lines(fate, column, first) + rest))
    if plan.added:
        at = doc.after(_last_line(seq))
        edits.append(_Edit(at, at, _items(plan.added, column)))
    return edits


def _flow_items(doc: _Text, seq: yaml.SequenceNode, plan: Plan) -> list[_Edit]:
    """A flow sequence changed entry by entry: kept entries keep their bytes (quotes, comments,
    line breaks), replaced ones are rewritten in place, dropped ones taken out with their comma,
    added ones written before the closing bracket."""
    items = seq.value
    fates = plan.fates
    kept = [k for k, fate in enumerate(fates) if fate != "drop"]
    last = kept[-1] if kept else -1
    edits = []
    for k, (item, fate) in enumerate(zip(items, fates, strict=True)):
        if fate == "keep":
            continue
        if fate != "drop":
            edits.append(_Edit(item.start_mark.index, item.end_mark.index, _scalar_or_flow(fate)))
        elif k < last:
            edits.append(_Edit(item.start_mark.index, items[k + 1].start_mark.index, ""))
    if last < len(items) - 1:  # the dropped entries after the last kept one, with the comma before them
        start = items[last].end_mark.index if last >= 0 else seq.start_mark.index + 1
        edits.append(_Edit(start, items[-1].end_mark.index, ""))
    if plan.added:
        text = ", ".join(_scalar_or_flow(a) for a in plan.added)
        if last >= 0:
            edits.append(_Edit(items[last].end_mark.index, items[last].end_mark.index, ", " + text))
        else:
            edits.append(_Edit(seq.start_mark.index + 1, seq.start_mark.index + 1, text))
    return edits


def line_comment(line: str) -> str:
    """The comment on a line of YAML (`# ...`), or '': a # that starts the line or follows a space,
    outside quotes."""
    quote = ""
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1] in " \t"):
            return line[k:].rstrip()
    return ""


def _items(orders: list[Any], column: int) -> str:
    return "".join(entry_lines(o, column) for o in orders)


def entry_lines(item: Any, column: int, comment: str = "") -> str:
    """An entry of a block list at `column`, with its comment: a battle as a block (its hex and
    winner, then a line a unit, as the README shows one), anything else on one line."""
    pad = " " * column
    if isinstance(item, Battle):
        lines = [f"{pad}- hex: {yaml_string(item.hex)}{comment}", f"{pad}  winner: {_scalar_or_flow(item.winner)}"]
        if item.ships:
            lines.append(f"{pad}  ships: {_scalar_or_flow(item.ships)}")
        lines.append(f"{pad}  units:")
        lines += [f"{pad}    - {flow(u)}" for u in item.units]
        return "\n".join(lines) + "\n"
    return f"{pad}- {_scalar_or_flow(item)}{comment}\n"


def _scalar_or_flow(item: Any) -> str:
    if isinstance(item, Model):
        return flow(item)
    return str(yaml.safe_dump(item, default_flow_style=True, width=10**9)).strip().removesuffix("...").strip()


def _list(
    doc: _Text, pair: tuple[yaml.Node, yaml.Node] | None, name: str, plan: Plan, result: list[Any], tail: list[str]
) -> list[_Edit]:
    """A top-level list of the log (partisans, handed_in) changed as its plan says."""
    if pair is None:
        if result:
            tail.append(f"{name}:\n" + _items(result, 2))
        return []
    key, node = pair
    if _is_null(node):
        return _under(doc, key, node, _items(result, key.start_mark.column + 2)) if result else []
    if not isinstance(node, yaml.SequenceNode):
        raise ValueError(f"{name} that are not a list")  # a log that validated has none
    if node.flow_style:
        return _flow_items(doc, node, plan)
    return _block_items(doc, node, plan)


def splice_list(text: str, name: str, old: Sequence[Any], plan: Plan) -> str:
    """A top-level list of the log (`dice`, `battles`) changed as `plan` says, the rest of the
    text as it was: kept entries keep their bytes, replaced ones are rewritten on their lines,
    added ones go after the last (the list made at the end of the file if the log has none)."""
    doc = _Text(text)
    root = yaml.compose(doc.text, Loader=LOADER)
    pairs = {k.value: (k, v) for k, v in root.value} if isinstance(root, yaml.MappingNode) else {}
    tail: list[str] = []
    edits = _list(doc, pairs.get(name), name, plan, plan.result(old), tail)
    out = doc.text
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        out = out[: edit.start] + edit.text + out[edit.end :]
    return out + "".join(tail)
