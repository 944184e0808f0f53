"""The umpire's packet: everything, for the one who sees everything."""

from __future__ import annotations

from functools import partial

from kitgen.messages import plural
from kitgen.products.packets.builder import PacketFile, Packets
from kitgen.products.packets.scene import make_scene
from kitgen.products.packets.text import say
from kitgen.render.sheet import Column, Page, Sheet


def umpire_packet(p: Packets) -> PacketFile:
    """The umpire's packet: the week and the ledgers, the master map, every faction's supply, the
    rolls to make, the contacts and what changed, and a set-up sheet per battle."""
    maps = p.pages_for()
    start = p.b.start
    scene = p.scenes["umpire"] = make_scene(p.c, start, None)
    shown = p.sectors_shown(scene.hexes())
    note = f"turn {p.b.turn}"
    pages: list[Page] = [("The week and the ledgers", "week", partial(_week, p))]
    pages += _checklist(p)
    from kitgen.products.packets.report import roster

    pages += roster(p)
    pages += p.map_pages(maps, scene, shown, "Master map", note)
    for f in p.s.meta.factions:
        if not any(u.faction == f.id for u in start.units):
            continue
        overlay = p.overlay(f.id)
        pages.append(p.supply_page(maps, scene, overlay, f"Supply: {f.name}", f"supply-{f.id}", f"Supply: {f.name}"))
    pages += _umpire_extra(p)
    name = f"umpire-{p.suffix()}.pdf"
    return p.build(pages, "umpire", name, f"Umpire's packet, turn {p.b.turn}")


def _umpire_extra(p: Packets) -> list[Page]:
    """The roll sheet, the contacts and what changed last turn; then each contact's battle sheet,
    its report form after it."""
    from kitgen.engine.changes import changes
    from kitgen.products.packets.battlesheets import battle_sheet_pages
    from kitgen.products.packets.lists import changes_pages, contacts_pages
    from kitgen.products.reportforms import report_form_pages, roll_sheet_pages
    from kitgen.reports.battleform import battle_form

    b = p.b
    contacts = p.contacts()
    pages: list[Page] = roll_sheet_pages(p.c, p.sheet_rolls(), b.turn, p.paper)
    pages += contacts_pages(p, contacts, ordered=b.log is not None)
    if b.before is not None:
        pages += changes_pages(p, changes(b.before, b.after))
    for contact in contacts:
        pages += battle_sheet_pages(p.c, [contact], b.turn)
        pages += report_form_pages(p.c, [battle_form(p.c, contact)], p.paper)
    return pages


def _week(p: Packets, sheet: Sheet) -> float:
    b = p.b
    y = sheet.band(say("umpire_title", turn=b.turn), None, f"{p.s.meta.title}")
    y = sheet.heading(sheet.left, y, sheet.span, "The week")
    steps = say("week", turn=b.turn, log=f"turns/turn-{b.turn:02d}.yaml", dice=p.c.meta.dice).splitlines()
    y = sheet.bullets(sheet.left, y, sheet.span, [(f"{k}.", text) for k, text in enumerate(steps, start=1)])
    y -= sheet.st.gap
    y = p.vp_ledger(sheet, y, None)
    y = p.end_section(sheet, y)
    y = sheet.heading(sheet.left, y, sheet.span, "In this packet")
    rows = [[title, str(number)] for title, number in p.contents]
    return sheet.table(sheet.left, y, sheet.span, [Column(8), Column(1, "right")], [["Part", "Page"]], rows)


def _checklist(p: Packets) -> list[Page]:
    """What the turn still owes, as `kitgen status` says it: whose orders are in, the rolls not
    yet written, the battles to report with their units, breakouts owed and slips to place; over
    as many pages as its rows need."""
    from kitgen.record.status import turn_status

    b = p.b
    slips = {slip.id: slip.text.split(". ")[0].rstrip(".") for pile in p.s.cards.piles.values() for slip in pile}

    def waiting(drawn: dict[str, tuple[str, ...]]) -> list[list[str]]:
        """A row a slip drawn and not placed (E.3-E.5): what its text begins with, and its id."""
        return [
            ["Slip", f"{p.s.faction_name(f)}: {slips.get(i, i)} ({i})"] for f, ids in sorted(drawn.items()) for i in ids
        ]

    rows: list[list[str]] = []
    intro = ""
    if b.log is None or b.source is None:
        intro = say("checklist_unstarted", turn=b.turn)
        rows = waiting(b.after.slips)
    else:
        status = turn_status(p.c, b.after, b.log, b.source)

        def named(ids: tuple[str, ...]) -> str:
            return ", ".join(f"{p.pieces.get(i, i)} ({i})" for i in ids)

        for f in status.factions:
            state = "in" if f.handed_in else "not in yet"
            rows.append(["Orders", f"{f.name}: {state}; {f.ordered} of {f.units} units, trains and ships ordered"])
        if any(o.kind == "untouched" for o in status.owed):
            rows.append(["Log", say("checklist_untouched", turn=b.turn)])
        owed_rolls = [o for o in status.owed if o.kind in ("roll_missing", "roll_unwritten")]
        orders_out = [o.faction for o in status.owed if o.kind == "orders_out"]
        rows += [["Orders", say("checklist_orders_out", faction=p.s.faction_name(f))] for f in orders_out]
        if owed_rolls:
            said = "checklist_rolls_table" if status.dice == "table" else "checklist_rolls_kitgen"
            rows.append(["Rolls", say(said, rolls=plural(len(owed_rolls), "roll"))])
        elif status.dice == "kitgen" and orders_out:
            rows.append(["Rolls", say("checklist_rolls_waiting")])
        elif status.dice is None and status.rolls:
            rows.append(["Rolls", say("checklist_rolls_unsaid", rolls=plural(len(status.rolls), "roll"))])
        for o in status.owed:
            where = " or ".join((o.hex or "", *o.across))
            if o.kind == "no_report":
                waits = f"; it may change with {plural(len(o.rolls), 'roll')} not yet in" if o.rolls else ""
                rows.append(["Battle", f"to report under hex {where}, listing {named(o.units)}{waits}"])
            elif o.kind == "left_out":
                rows.append(["Battle", f"the report under hex {where} leaves out {named(o.units)}"])
            elif o.kind == "breakout":
                rows.append(["Breakout", f"{named(o.units)} in {o.hex} must break out or perish (II.B.1)"])
        rows += waiting(status.slips)
        if status.finished and not status.over:  # over, `next` refuses: the end row says why
            rows.append(["Next", say("checklist_clear")])
        rows.append(["The end", status.ending])

    return p.table_pages(
        f"Turn {b.turn}: the checklist",
        "checklist",
        None,
        ("Where the turn stands", "II"),
        [Column(1.2), Column(8)],
        ["", "What it still owes"],
        rows or [["", "Nothing waits."]],
        intro=[intro] if intro else [],
        wrap=True,
    )
