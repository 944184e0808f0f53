"""What an import did, in words, from its values: unit by unit, added, replaced (old and new),
unchanged, kept, and the blank rows that hold."""

from __future__ import annotations

from kitgen.errors import display_path
from kitgen.record.importer import Imported
from kitgen.record.merge import ChangeKind

_HEADS: dict[ChangeKind, str] = {
    "added": "added",
    "replaced": "replaced",
    "unchanged": "unchanged",
    "kept": "kept (not on the form: their orders stay)",
    "holds": "hold (a blank row: no order)",
}


def import_report(done: Imported) -> str:
    """The lines `kitgen orders import` prints."""
    where = display_path(done.log)
    if not done.changed:
        head = f"{where} holds these orders of the {done.faction} already: unchanged"
    else:
        kept = f"previous kept as {display_path(done.backup)}" if done.backup else "a new log"
        head = f"merged the orders of the {done.faction} into {where} ({kept})"
    counts = []
    lines = [head]
    for kind, words in _HEADS.items():
        units = [c for c in done.changes if c.kind == kind]
        if not units:
            continue
        counts.append(f"{len(units)} {kind}")
        lines.append(f"  {words}: " + ", ".join(c.who for c in units))
        if kind == "replaced":
            for c in units:
                lines.append(f"    {c.who}: {'; '.join(c.old)}  ->  {'; '.join(c.new)}")
        if kind == "holds":
            had = [c for c in units if c.old]
            for c in had:
                lines.append(f"    {c.who} had {'; '.join(c.old)}: now holds")
    if done.warnings:
        counts.append(f"{len(done.warnings)} void by the rules (warnings above)")
    lines.insert(1, "  " + ", ".join(counts) if counts else "  no units on the form")
    drawn = [(p, v) for p, v in done.rolls if v is not None]
    asked = [p for p, v in done.rolls if v is None]
    if drawn:
        rolls = "roll" if len(drawn) == 1 else f"{len(drawn)} rolls"
        lines.append(f"every faction's orders are in: kitgen rolled the turn's {rolls} into the log:")
        lines += [f"  {purpose}: {value}" for purpose, value in drawn]
    if asked:
        lines.append(f"rolls the turn now asks for, written with no value to make at the table ({len(asked)}):")
        lines += [f"  {purpose}" for purpose in asked]
    return "\n".join(lines)
