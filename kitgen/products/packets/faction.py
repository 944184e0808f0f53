"""A faction's packet, and its supply overlay for acetate: only what the faction can know."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kitgen.engine.intel import FactionView
from kitgen.engine.memory import Memory
from kitgen.products.packets.builder import PacketFile, Packets, _chip, stands_text
from kitgen.products.packets.scene import make_scene
from kitgen.products.packets.text import say
from kitgen.products.playeraids import placement_text
from kitgen.render.sheet import Column, Page, Sheet

if TYPE_CHECKING:
    from kitgen.engine.reach import Reach


def faction_packet(p: Packets, faction: str) -> PacketFile:
    """A faction's packet: only what it can know (`kitgen.engine.intel`)."""
    maps = p.pages_for()
    view = p.view(faction)
    reached = reaches(p, faction, view)
    reach: dict[str, int] = {}
    for r in reached:
        for h, cost in r.land.items():
            if not p.c.board.is_sea(h):  # a unit aboard a ship reaches no land by its own move
                reach[h] = min(cost, reach.get(h, cost))
    rail = frozenset(h for r in reached for h in r.rail if h not in reach)
    memory = p.memory(faction)
    scene = p.scenes[faction] = make_scene(p.c, p.believed(faction), view, reach=reach, rail=rail, memory=memory)
    shown = p.sectors_shown(scene.hexes())
    f = p.s.faction(faction)
    name = f.name if f else faction
    note = f"turn {p.b.turn}"
    from kitgen.products.packets.lastturn import last_turn_pages
    from kitgen.products.packets.lists import commander_pages

    pages = _forces(p, faction)
    pages += last_turn_pages(p, faction, p.b.before, p.b.after)
    pages += commander_pages(p, faction, p.rolls())
    pages += _faction_lists(p, faction)
    pages += _last_seen(p, faction, memory)
    pages += p.map_pages(maps, scene, shown, name, note)
    overlay = p.overlay(faction, believed=True)
    pages.append(p.supply_page(maps, scene, overlay, "Your supply", "supply", f"Supply: {name}", own=True))
    pages += _faction_extra(p, faction, reached)
    file = f"{faction}-{p.suffix()}.pdf"
    return p.build(pages, faction, file, f"{name}' packet, turn {p.b.turn}")


def reaches(p: Packets, faction: str, view: FactionView) -> list[Reach]:
    """Where each of the faction's units can get to, reckoning only with the enemies it can
    see: a reach that stopped at a hidden enemy would give it away."""
    from kitgen.engine.reach import faction_reach

    return faction_reach(p.c, p.believed(faction, p.b.after), faction)


def _faction_extra(p: Packets, faction: str, reaches: list[Reach]) -> list[Page]:
    """Reach, and the order form to fill on paper or on screen."""
    from kitgen.products.orderform import order_form_pages
    from kitgen.products.packets.lists import reach_pages

    pages = reach_pages(p, faction, reaches, say("reach"))
    return pages + order_form_pages(p.c, p.b.start, faction, p.b.turn)


def _forces(p: Packets, faction: str) -> list[Page]:
    """The faction's units, the first page under the packet's words on what it shows."""
    own = [u for u in p.b.start.units if u.faction == faction]
    out = sum(1 for u in own if u.in_supply is False)
    rows = [
        [
            u.name,
            u.hex if u.aboard is None else f"aboard the {p.pieces.get(u.aboard, u.aboard)}",
            u.type.replace("_", " "),
            stands_text(u.stands),
            "in" if u.in_supply else "OUT",
            u.commander or "",
        ]
        for u in own
    ]
    cols = [Column(3.6), Column(1.0), Column(1.3), Column(2.3), Column(0.7, "centre"), Column(1.6)]
    name = p.names.get(faction, faction)

    return p.table_pages(
        say("faction_title", faction=name, turn=p.b.turn),
        "forces",
        faction,
        ("Your forces", "B.2"),
        cols,
        ["Unit", "Hex", "Type", "Stands", "Supply", "Commander"],
        rows,
        intro=[say("faction_intro", memory=p.s.meta.intel.memory_turns), f"{len(own)} units, {out} out of supply."],
        wrap=True,
    )


def _last_seen(p: Packets, faction: str, memory: Memory) -> list[Page]:
    """The enemy as last seen, where the faction sees him no more: hex, nearest town, what was
    seen and when; then the towns' owners as last seen. None: no page."""
    from kitgen.engine.views import nearest_town

    if not memory.sightings and not memory.towns:
        return []
    board = p.c.board
    rows: list[list[Any]] = []
    for r in memory.sightings:
        what = (
            f"a {r.size} stack: {', '.join(r.arms) or 'arms not seen'}"
            if r.grade == "sized"
            else "; ".join(f"{u.name} ({u.type.replace('_', ' ')}, {u.stands} stands)" for u in r.units)
        )
        age = memory.age(r.turn)
        rows.append(
            [r.hex, nearest_town(board, r.hex).text(), _chip(r.faction, p.names), what, f"turn {r.turn} ({age} ago)"]
        )
    for t in memory.towns:
        age = memory.age(t.turn)
        owner = p.names.get(t.owner, "nobody") if t.owner != "none" else "nobody"
        rows.append(
            [
                "",
                t.town,
                _chip(t.owner, p.names) if t.owner != "none" else "",
                f"held by {owner}",
                f"turn {t.turn} ({age} ago)",
            ]
        )
    name = p.names.get(faction, faction)
    return p.table_pages(
        f"{name}: the enemy last seen",
        "last-seen",
        faction,
        ("Last seen", "fog of war"),
        [Column(0.7), Column(2.2), Column(1.3), Column(4.4), Column(1.5)],
        ["Hex", "Where", "Faction", "What was seen", "When"],
        rows,
        intro=[say("memory_intro", memory=p.s.meta.intel.memory_turns)],
        wrap=True,
    )


def _faction_lists(p: Packets, faction: str) -> list[Page]:
    """The reinforcements waiting (II.E), over as many pages as they need, then the VP ledger and
    time and the end on a page of their own."""
    from kitgen.products.cardkey import slip_label

    s = p.s
    name = p.names.get(faction, faction)
    waiting = p.b.start.slips.get(faction, ())
    f = s.faction(faction)
    placement = s.victory.placement.get(faction)
    where = f"They arrive {placement_text(s, f, placement)}" if placement and f else ""
    slips = {sl.id: sl for pile in s.cards.piles.values() for sl in pile}
    rows = [
        [slip_label(s, faction, sid) if sid in {x.id for x in s.cards.piles.get(faction, [])} else sid, slips[sid].text]
        for sid in waiting
        if sid in slips
    ]

    pages = p.table_pages(
        f"{name}: lists and ledger",
        "lists",
        faction,
        ("Reinforcements waiting", "II.E"),
        [Column(1.3), Column(6)],
        ["Slip", "What it brings"],
        rows or [["", "-"]],
        intro=[f"{len(rows) or 'None'} waiting to be placed. {where}"],
        wrap=True,
    )
    pages.append((f"{name}: VP and time", "ledger", partial(_ledger, p, faction=faction)))
    return pages


def _ledger(p: Packets, sheet: Sheet, faction: str) -> float:
    f = p.s.faction(faction)
    y = sheet.band(f"{p.names.get(faction, faction)}: VP and time", f, f"turn {p.b.turn}")
    y = p.vp_ledger(sheet, y, faction)
    return p.end_section(sheet, y)


def acetate(p: Packets, faction: str) -> PacketFile:
    """The faction's supply overlay alone, at the poster's true scale on the map tiles' grid,
    with their crop marks and registration crosses: printed on transparency, it lies on the
    printed map. Only the tiles it marks are printed."""
    import shapely

    from kitgen.products.mapsheets import MapSheet
    from kitgen.render.style import map_style

    sheet = MapSheet(p.c.hex_map, p.s, map_style())
    sheet.art = p.art
    overlay = p.overlay(faction, believed=True)
    draw = p.scene_art
    marked: list[Any] = [draw.area(overlay.hexes)] if overlay.hexes else []
    marked += [shapely.LineString([p.art.centres[a], p.art.centres[b]]) for a, b in map(sorted, overlay.rail)]
    marked += [shapely.Point(p.art.centres[h]) for h in overlay.wrecked | overlay.held]
    everything = shapely.union_all(marked) if marked else shapely.GeometryCollection()

    def touches(window: tuple[float, float, float, float]) -> bool:
        return bool(shapely.intersects(everything, shapely.box(*window)))

    name = p.names.get(faction, faction)
    pdf, tiles = sheet.overlay_tiles(
        p.paper,
        lambda c: draw.supply(c, overlay, 1.0, hatch=True),
        f"{name} supply, turn {p.b.turn}",
        touches,
    )
    return PacketFile(f"{faction}-acetate-{p.suffix()}.pdf", faction, pdf, len(tiles), kind="acetate")
