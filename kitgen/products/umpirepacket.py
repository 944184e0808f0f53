"""The umpire's packet: everything, for the one who sees everything."""

from __future__ import annotations

from functools import partial

from kitgen.engine.turnlog import TurnLog
from kitgen.products.packetbuilder import PacketFile, Packets
from kitgen.products.packetscene import make_scene
from kitgen.products.packettext import say
from kitgen.render.mapembed import MapSlot
from kitgen.render.sheet import Column, Page, Sheet


def umpire_packet(p: Packets) -> PacketFile:
    """The umpire's packet: the week and the ledgers, the master map, every faction's supply, the
    rolls to make, the contacts and what changed, and a set-up sheet per battle."""
    slots: list[MapSlot] = []
    maps = p.pages_for(slots)
    start = p.b.start
    scene = p.scenes["umpire"] = make_scene(p.c, start, None)
    shown = p.sectors_shown(maps, scene.hexes())
    note = f"turn {p.b.turn}"
    pages: list[Page] = [("The week and the ledgers", "week", partial(_week, p))]
    pages += p.map_pages(maps, scene, shown, "Master map", note)
    for f in p.s.meta.factions:
        if not any(u.faction == f.id for u in start.units):
            continue
        overlay = p.overlay(f.id)
        pages.append(p.supply_page(maps, scene, overlay, f"Supply: {f.name}", f"supply-{f.id}", f"Supply: {f.name}"))
    pages += _umpire_extra(p)
    name = f"umpire-{p.suffix()}.pdf"
    return p.build(pages, "umpire", name, f"Umpire's packet, turn {p.b.turn}", slots)


def _umpire_extra(p: Packets) -> list[Page]:
    """What changed last turn; the rolls, the contacts and the battle sheets."""
    from kitgen.engine.changes import changes
    from kitgen.engine.contacts_ahead import contacts_ahead
    from kitgen.products.battlesheets import battle_sheet_pages
    from kitgen.products.packetpages import changes_pages, contacts_pages, rolls_pages

    b = p.b
    contacts = contacts_ahead(p.c, b.after, b.log or TurnLog(turn=b.turn), b.source)

    pages: list[Page] = rolls_pages(p, p.rolls())
    pages += contacts_pages(p, contacts, ordered=b.log is not None)
    if b.before is not None:
        pages += changes_pages(p, changes(b.before, b.after))
    return pages + battle_sheet_pages(p.c, contacts, b.turn)


def _week(p: Packets, sheet: Sheet) -> float:
    b = p.b
    y = sheet.band(say("umpire_title", turn=b.turn), None, f"{p.s.meta.title}")
    y = sheet.heading(sheet.left, y, sheet.span, "The week")
    steps = say("week", folder=str(p.c.folder), turn=b.turn, log=f"turn-{b.turn:02d}.yaml").splitlines()
    y = sheet.bullets(sheet.left, y, sheet.span, [(f"{k}.", text) for k, text in enumerate(steps, start=1)])
    y -= sheet.st.gap
    y = p.vp_ledger(sheet, y, None)
    y = p.end_section(sheet, y)
    y = sheet.heading(sheet.left, y, sheet.span, "In this packet")
    rows = [[title, str(number)] for title, number in p.contents]
    return sheet.table(sheet.left, y, sheet.span, [Column(8), Column(1, "right")], [["Part", "Page"]], rows)
