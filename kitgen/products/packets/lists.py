"""The umpire's pages of lists: the contacts and what changed since last turn (the rolls to
make are the roll sheet, `kitgen.products.reportforms`; a faction's lists are its situation
report, `kitgen.products.packets.report`). Each reads typed results of the engine and makes its
rows from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from kitgen.products.packets.text import say
from kitgen.render.sheet import Cell, Column, Page, Sheet

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.engine.basis import TurnBasis
    from kitgen.engine.changes import Change
    from kitgen.engine.contacts_ahead import Contact
    from kitgen.model.scenario import Scenario


class Packets(Protocol):
    """What these pages ask of the packets they go in."""

    b: TurnBasis
    c: Campaign
    s: Scenario
    paper: str
    names: dict[str, str]
    pieces: dict[str, str]
    """Units, trains and ships by id -> their names as their counters print them."""

    def table_pages(
        self,
        title: str,
        key: str,
        faction: str | None,
        heading: tuple[str, str],
        columns: list[Column],
        header: list[str],
        rows: list[list[Any]],
        *,
        intro: Sequence[str] = (),
        wrap: bool = False,
    ) -> list[Page]: ...


def contact_rows(contacts: Sequence[Contact], names: dict[str, str]) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for c in contacts:
        sides = " v ".join(
            "/".join(names.get(f, f) for f in side.factions) + " (" + ", ".join(u.name for u in side.units) + ")"
            for side in c.sides
        )
        partisans = "; ".join(
            [f"{pc.faction} {pc.choice}: {pc.outcome}" for pc in c.partisans] + [f"card: {n.title}" for n in c.cards]
        )
        place = ", ".join(c.towns) if c.towns else ""
        rows.append([" / ".join((c.hex, *c.across)), place, c.terrain, sides, partisans])
    return rows


def change_rows(found: Sequence[Change], names: dict[str, str], towns: dict[str, str]) -> list[list[Any]]:
    """A row per change: what, whose, which, where, and how (sentences made from the data)."""
    words = {
        "battle": "Battle",
        "moved": "Moved",
        "arrived": "Arrived",
        "gone": "Left the map",
        "stands": "Stands",
        "town": "Town taken",
        "vp": "VP",
    }
    rows: list[list[Any]] = []
    for ch in found:
        who = Cell(names.get(ch.faction, ch.faction), mark=ch.faction) if ch.faction in names else Cell("")
        if ch.kind == "battle":
            how = f"won by the {names.get(ch.faction, ch.faction)}: {ch.detail}" if ch.faction else ch.detail
        elif ch.kind == "moved":
            how = f"{ch.start} to {ch.end}"
        elif ch.kind == "stands":
            how = f"{ch.start} stands to {ch.end}"
        elif ch.kind == "gone":
            how = {"surrenders": "surrendered", "perishes": "perished", "destroyed": "destroyed: every stand lost"}.get(
                ch.detail, "removed"
            )
        elif ch.kind == "town":
            how = f"from the {names.get(ch.start, ch.start or 'no one')}"
        elif ch.kind == "vp":
            how = f"{ch.start} to {ch.end}"
        else:
            how = ch.detail
        subject = {"town": towns, "vp": names}.get(ch.kind, {}).get(ch.subject, ch.subject)
        rows.append([words[ch.kind], who, subject, ch.where, how])
    return rows


def changes_pages(p: Packets, found: Sequence[Change]) -> list[Page]:
    towns = {t.name: t.shown_name for t in p.s.towns}
    rows = change_rows(found, p.names, towns) or [["Nothing", "", "", "", "no unit moved, no town changed hands"]]
    columns = [Column(1.0), Column(1.2), Column(2.2), Column(0.6), Column(3.4)]
    return p.table_pages(
        f"What changed in turn {p.b.turn - 1}",
        "changes",
        None,
        ("Battles, moves, losses, towns and VP", "II.B, E.2"),
        columns,
        ["What", "Faction", "Unit, town or hex", "Hex", "How"],
        rows,
    )


def contacts_pages(p: Packets, contacts: Sequence[Contact], *, ordered: bool) -> list[Page]:
    """The battles to fight: each contact, its sides and the partisans' results; or, before the
    orders are in, how to get them."""
    log = f"turn-{p.b.turn:02d}.yaml"
    if not contacts:
        text = say("no_contacts", log=log) if not ordered else "The orders make no contact: no battle this turn."

        def draw(sheet: Sheet) -> float:
            y = sheet.band(f"Contacts, turn {p.b.turn}", None, "")
            y = sheet.heading(sheet.left, y, sheet.span, "Contacts and battles", "II.B, II.D")
            return sheet.para(sheet.left, y, sheet.span, text)

        return [(f"Contacts, turn {p.b.turn}", "contacts", draw)]
    columns = [Column(0.6), Column(1.2), Column(0.9), Column(4.6), Column(1.8)]
    intro = say("contacts_intro", log=log)
    return p.table_pages(
        f"Contacts, turn {p.b.turn}",
        "contacts",
        None,
        ("Contacts that will become battles", "II.B, II.D"),
        columns,
        ["Hex", "Town", "Terrain", "Sides", "Partisans, event cards"],
        contact_rows(contacts, p.names),
        intro=[intro],
        wrap=True,
    )
