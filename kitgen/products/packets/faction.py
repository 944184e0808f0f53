"""A faction's packet, and its supply overlay for acetate: only what the faction can know."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kitgen.engine.intel import FactionView
from kitgen.products.packets.builder import PacketFile, Packets
from kitgen.products.packets.scene import make_scene

if TYPE_CHECKING:
    from kitgen.engine.reach import Reach
    from kitgen.render.scene import Scene


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
    shown = p.sectors_shown(_on_sectors(scene))
    f = p.s.faction(faction)
    name = f.name if f else faction
    note = f"turn {p.b.turn}"
    from kitgen.products.orderform import order_form_pages
    from kitgen.products.packets.report import situation_report

    pages = situation_report(p, faction, reached, memory, scene, shown)
    overlay = p.overlay(faction, believed=True)
    pages += p.map_pages(maps, scene, shown, name, note, stack_page=False, overlay=overlay)
    pages += order_form_pages(p.c, p.b.start, faction, p.b.turn)
    file = f"{faction}-{p.suffix()}.pdf"
    return p.build(pages, faction, file, f"{name}' packet, turn {p.b.turn}")


def _on_sectors(scene: Scene) -> set[str]:
    """The hexes a sector page is printed for: where the faction's units, trains and ships stand
    and where it sees or last saw the enemy; not where only its reach, supply or wrecked track lies
    (the overview shows those)."""
    return set(scene.pieces)


def reaches(p: Packets, faction: str, view: FactionView) -> list[Reach]:
    """Where each of the faction's units can get to, reckoning only with the enemies it can
    see: a reach that stopped at a hidden enemy would give it away."""
    from kitgen.engine.reach import faction_reach

    return faction_reach(p.c, p.believed(faction, p.b.after), faction)


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
    marked += [shapely.LineString(line) for line in draw.rail_net(overlay.rail)]  # as drawn: smooth
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
