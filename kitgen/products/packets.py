"""The week's turn packets: one for the umpire, one per faction, for the turn to be played next.

The umpire's holds the master map (every unit), each faction's supply, the ledgers, the rolls
to make, the contacts and what changed since last turn, and a set-up sheet per battle. A
faction's holds only what it can know (`kitgen.engine.intel`): its map, its supply, where its
stacks can reach, its lists and ledger, and its order form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen.engine.basis import TurnBasis, turn_basis
from kitgen.engine.intel import FactionView, believed, faction_view, fought_in
from kitgen.engine.state import CampaignState
from kitgen.engine.turnlog import TurnLog
from kitgen.products.forms import Column, Page, Sheet, placement_text, sheets_part
from kitgen.products.packetmaps import MapPages, overlay_legend
from kitgen.products.packetscene import Overlay, Scene, Sector, make_scene, overlay_of, sectors
from kitgen.products.packettext import say
from kitgen.render.mapembed import MapSlot, lay_map_under
from kitgen.render.pages import PAPER

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.engine.ahead import RollAhead
    from kitgen.engine.reach import Reach
    from kitgen.render.mapart import MapArt


@dataclass(frozen=True)
class PacketFile:
    name: str
    """File name: `umpire-turn-07-a4.pdf`, `reds-turn-07-a4.pdf`."""
    who: str
    """'umpire' or the faction's id."""
    pdf: bytes
    pages: int
    kind: str = "packet"
    """'packet', or 'acetate': a faction's supply overlay to print on transparency."""


# --- the packets -----------------------------------------------------------------------------


class Packets:
    """Builds the week's packets over one drawing of the clean map."""

    def __init__(self, basis: TurnBasis, paper: str) -> None:
        from kitgen.render.mapart import MapArt
        from kitgen.render.packetstyle import packet_style
        from kitgen.render.style import map_style

        self.b, self.paper = basis, paper
        self.c = basis.campaign
        self.s = self.c.scenario
        self.art: MapArt = MapArt(self.c.hex_map, self.s, map_style())
        self.layouts = packet_style()
        from kitgen.render.mapcache import clean_map_pdf

        self.map_pdf = clean_map_pdf(self.art, self.s)
        self.names = {f.id: f.name for f in self.s.meta.factions}
        self._overlays: dict[tuple[str, bool], Overlay] = {}
        self._views: dict[str, FactionView] = {}
        self._rolls: list[RollAhead] | None = None
        self._map_reader: Any = None
        self._contents: list[tuple[str, int]] = []
        self.scenes: dict[str, Scene] = {}
        """Each packet's scene by who gets it, with what its pages drew."""
        self._areas: dict[frozenset[str], object] = {}

    def view(self, faction: str) -> FactionView:
        """What the faction can see at the start of the turn, with where it fought last turn."""
        if faction not in self._views:
            fought = fought_in(self.b.after, faction)
            self._views[faction] = faction_view(self.c.board, self.b.start, faction, fought=fought)
        return self._views[faction]

    def believed(self, faction: str, state: CampaignState | None = None) -> CampaignState:
        """The start of the turn (or `state`) as the faction can know it."""
        return believed(state or self.b.start, self.view(faction), self.b.setup_wrecked)

    def overlay(self, faction: str, *, believed: bool = False) -> Overlay:
        """A faction's supply as the engine judges it, or as the faction can know it."""
        key = (faction, believed)
        if key not in self._overlays:
            state = self.believed(faction) if believed else self.b.start
            self._overlays[key] = overlay_of(self.c, state, faction)
        return self._overlays[key]

    def suffix(self) -> str:
        return f"turn-{self.b.turn:02d}-{self.paper}"

    def pages_for(self, slots: list[MapSlot]) -> MapPages:
        maps = MapPages(self.c, self.art, self.layouts.sector, self.layouts.overview, slots)
        maps._areas = self._areas  # the supply areas, shared by the umpire's packet and each faction's
        return maps

    def build(self, pages: list[Page], label: str, file: str, title: str, slots: list[MapSlot]) -> PacketFile:
        self._contents = _contents(pages)
        part = sheets_part(self.s, self.paper, pages, label=label, file=file, title=title, purpose=title)
        if self._map_reader is None:
            import io

            from pypdf import PdfReader

            self._map_reader = PdfReader(io.BytesIO(self.map_pdf))
        pdf = lay_map_under(part.pdf, self._map_reader, slots)
        return PacketFile(file, label, pdf, part.pages)

    def sectors_shown(self, maps: MapPages, hexes: set[str]) -> list[Sector]:
        size = maps.sector_size(PAPER[self.paper])
        overlap = self.layouts.sector.overlap * self.art.hex_pt * 0.866
        return [s for s in sectors(self.art, size, overlap) if maps.within(s.window) & hexes]

    def map_pages(self, maps: MapPages, scene: Scene, shown: list[Sector], who: str, note: str) -> list[Page]:
        pages: list[Page] = [
            (
                f"{who}: the whole map",
                "overview",
                partial(
                    maps.overview_page,
                    scene=scene,
                    shown=shown,
                    title=f"{who}: the whole map",
                    note=note,
                    after=partial(self._sector_index, shown=shown, viewer=scene.viewer),
                ),
            )
        ]
        for sector in shown:
            pages.append(
                (
                    f"Map sector {sector.key}",
                    f"sector-{sector.key}",
                    partial(maps.sector_page, scene=scene, sector=sector, title=f"Sector {sector.key}", note=note),
                )
            )
        if scene.stacks:
            pages.append(("Stack list", "stacks", partial(self._stack_page, scene=scene)))
        return pages

    def _sector_index(self, sheet: Sheet, y: float, shown: list[Sector], viewer: str | None) -> float:
        keys = ", ".join(s.key for s in shown)
        size = f"{self.layouts.sector.hex_across * 25.4 / 72:.0f} mm"
        y = sheet.para(sheet.left, y, sheet.span, say("sector_index", keys=keys, size=size))
        y -= sheet.st.gap
        start = self.b.start
        rows = []
        for f in self.s.meta.factions:
            if viewer is not None and f.id != viewer:
                continue
            units = [u for u in start.units if u.faction == f.id]
            if not units:
                continue
            stands = sum(sum(u.stands.values()) for u in units)
            out = sum(1 for u in units if u.in_supply is False)
            aboard = sum(1 for u in units if u.aboard is not None)
            trains = sum(1 for t in start.trains if t["faction"] == f.id)
            ships = sum(1 for sh in start.ships if sh["faction"] == f.id)
            rows.append(
                [_chip(f.id, self.names), str(len(units)), str(stands), str(out), str(aboard), str(trains), str(ships)]
            )
        cols = [Column(1.6), *[Column(0.8, "right") for _ in range(6)]]
        header = ["Faction", "Units", "Stands", "Out of supply", "Aboard ship", "Trains", "Ships"]
        return sheet.table(sheet.left, y, sheet.span, cols, [header], rows)

    def _stack_page(self, sheet: Sheet, scene: Scene) -> float:
        faction = self.s.faction(scene.viewer) if scene.viewer else None
        y = sheet.band("Stack list", faction, f"turn {self.b.turn}")
        rows = []
        for e in scene.stacks:
            for k, (f, text) in enumerate(e.lines):
                rows.append([e.key if k == 0 else "", e.hex if k == 0 else "", _chip(f, self.names), text])
        cols = [Column(0.6), Column(0.6), Column(1.3), Column(6)]
        return sheet.table(sheet.left, y, sheet.span, cols, [["Stack", "Hex", "Faction", "Units"]], rows, tint=False)

    # the umpire's

    def umpire(self) -> PacketFile:
        slots: list[MapSlot] = []
        maps = self.pages_for(slots)
        start = self.b.start
        scene = self.scenes["umpire"] = make_scene(self.c, start, None)
        shown = self.sectors_shown(maps, scene.hexes())
        note = f"turn {self.b.turn}"
        pages: list[Page] = [("The week and the ledgers", "week", self._umpire_week)]
        pages += self.map_pages(maps, scene, shown, "Master map", note)
        for f in self.s.meta.factions:
            if not any(u.faction == f.id for u in start.units):
                continue
            overlay = self.overlay(f.id)
            pages.append(
                (
                    f"Supply: {f.name}",
                    f"supply-{f.id}",
                    partial(
                        maps.overview_page,
                        scene=scene,
                        shown=(),
                        title=f"Supply: {f.name}",
                        note=note,
                        overlay=overlay,
                        after=partial(self._overlay_note, overlay=overlay),
                    ),
                )
            )
        pages += self.umpire_extra()
        name = f"umpire-{self.suffix()}.pdf"
        return self.build(pages, "umpire", name, f"Umpire's packet, turn {self.b.turn}", slots)

    def umpire_extra(self) -> list[Page]:
        """What changed last turn; the rolls, the contacts and the battle sheets."""
        from kitgen.engine.changes import changes
        from kitgen.engine.contacts_ahead import contacts_ahead
        from kitgen.products.battlesheets import battle_sheet_pages
        from kitgen.products.packetpages import changes_pages, contacts_pages

        b = self.b
        contacts = contacts_ahead(self.c, b.after, b.log or TurnLog(turn=b.turn), b.source)
        from kitgen.products.packetpages import rolls_pages

        pages: list[Page] = rolls_pages(self, self.rolls())
        pages += contacts_pages(self, contacts, ordered=b.log is not None)
        if b.before is not None:
            pages += changes_pages(self, changes(b.before, b.after))
        return pages + battle_sheet_pages(self.c, contacts, b.turn)

    def _overlay_note(self, sheet: Sheet, y: float, overlay: Overlay, own: bool = False) -> float:
        out = None
        if own:
            out = [
                f"{u.id} ({u.hex})" for u in self.b.start.units if u.faction == overlay.faction and u.in_supply is False
            ]
        return overlay_legend(sheet, overlay, y, self.names, out=out)

    def _umpire_week(self, sheet: Sheet) -> float:
        b = self.b
        y = sheet.band(say("umpire_title", turn=b.turn), None, f"{self.s.meta.title}")
        y = sheet.heading(sheet.left, y, sheet.span, "The week")
        steps = say("week", folder=str(self.c.folder), turn=b.turn, log=f"turn-{b.turn:02d}.yaml").splitlines()
        y = sheet.bullets(sheet.left, y, sheet.span, [(f"{k}.", text) for k, text in enumerate(steps, start=1)])
        y -= sheet.st.gap
        y = self._vp_ledger(sheet, y, None)
        y = sheet.heading(sheet.left, y, sheet.span, "In this packet")
        rows = [[title, str(number)] for title, number in self._contents]
        return sheet.table(sheet.left, y, sheet.span, [Column(8), Column(1, "right")], [["Part", "Page"]], rows)

    def _vp_ledger(self, sheet: Sheet, y: float, faction: str | None) -> float:
        """The VP ledger: totals and towns held with their worth; a faction sees only its own."""
        s, b = self.s, self.b
        state = b.start
        every = s.victory.award_every_turns
        awards = [t for t in range(every, every * 12 + 1, every)]
        upcoming = [t for t in awards if t >= b.turn][:4]
        y = sheet.heading(sheet.left, y, sheet.span, "VP ledger", "E.2")
        scoring = [f for f in s.meta.factions if f.scores_vp and (faction is None or f.id == faction)]
        rows = []
        for f in scoring:
            held = sorted(
                (t for t in s.towns if state.owners.get(t.name) == f.id and t.vp.get(f.id)),
                key=lambda t: (-(t.vp.get(f.id) or 0), t.name),
            )
            worth = sum(t.vp.get(f.id) or 0 for t in held)
            towns = ", ".join(f"{t.shown_name} {t.vp.get(f.id)}" for t in held) or "none"
            rows.append([_chip(f.id, self.names), str(state.vp.get(f.id, 0)), str(worth), towns])
        cols = [Column(1.2), Column(0.7, "right"), Column(0.9, "right"), Column(6)]
        y = sheet.table(
            sheet.left,
            y,
            sheet.span,
            cols,
            [["Faction", "VP now", "Towns worth", "Towns held that score"]],
            rows,
            wrap=True,
        )
        y -= 4
        text = say("award", every=every, turns=", ".join(f"turn {t}" for t in upcoming))
        if b.turn in awards:
            text += " This is an award turn: VP are scored at its end."
        if faction is not None:
            text += " Other factions' totals are the umpire's to know."
        return sheet.para(sheet.left, y, sheet.span, text) - sheet.st.gap

    # a faction's

    def faction(self, faction: str) -> PacketFile:
        slots: list[MapSlot] = []
        maps = self.pages_for(slots)
        view = self.view(faction)
        reaches = self.reaches(faction, view)
        reach = frozenset(h for r in reaches for h in r.land)
        scene = self.scenes[faction] = make_scene(self.c, self.believed(faction), view, reach=reach)
        seen = set(view.occupied) | {s.hex for s in view.sightings}
        shown = self.sectors_shown(maps, seen)
        f = self.s.faction(faction)
        name = f.name if f else faction
        note = f"turn {self.b.turn}"
        from kitgen.products.packetpages import commander_pages

        pages = self._forces(faction)
        pages += commander_pages(self, faction, self.rolls())
        pages.append((f"{name}: lists and ledger", "lists", partial(self._faction_lists, faction=faction)))
        pages += self.map_pages(maps, scene, shown, name, note)
        overlay = self.overlay(faction, believed=True)
        pages.append(
            (
                "Your supply",
                "supply",
                partial(
                    maps.overview_page,
                    scene=scene,
                    shown=(),
                    title=f"Supply: {name}",
                    note=note,
                    overlay=overlay,
                    after=partial(self._overlay_note, overlay=overlay, own=True),
                ),
            )
        )
        pages += self.faction_extra(faction, reaches)
        file = f"{faction}-{self.suffix()}.pdf"
        return self.build(pages, faction, file, f"{name}' packet, turn {self.b.turn}", slots)

    def rolls(self) -> list[RollAhead]:
        """Every roll of the turn, those needed whatever the orders and the command rolls if ordered."""
        from kitgen.engine.ahead import rolls_ahead

        if self._rolls is None:
            self._rolls = rolls_ahead(self.c, self.b.after, self.b.turn)
        return self._rolls

    def reaches(self, faction: str, view: FactionView) -> list[Reach]:
        """Where each of the faction's units can get to, reckoning only with the enemies it can
        see: a reach that stopped at a hidden enemy would give it away."""
        from kitgen.engine.reach import faction_reach

        return faction_reach(self.c, self.believed(faction, self.b.after), faction)

    def faction_extra(self, faction: str, reaches: list[Reach]) -> list[Page]:
        """Reach, and the order form to fill on paper or on screen."""
        from kitgen.products.orderform import order_form_pages
        from kitgen.products.packetpages import reach_pages

        pages = reach_pages(self, faction, reaches, say("reach"))
        return pages + order_form_pages(self.c, self.b.start, faction, self.b.turn)

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
        before: Callable[[Sheet, float], float] | None = None,
        reserve: float = 0.0,
        wrap: bool = False,
    ) -> list[Page]:
        """A table over as many pages as its rows need, each page with the band and heading;
        `before` draws above the first page's table, taking `reserve` points."""
        from kitgen.render.formstyle import form_style
        from kitgen.render.pages import MM

        st = form_style()
        height = PAPER[self.paper][1] - 2 * st.margin_mm * MM - st.footer_mm * MM - st.band_mm * MM - st.gap
        height -= st.fonts.heading * 1.75 + 3.5 + st.charts.header_row + 6
        if wrap:
            probe = Sheet(None, st, self.s, PAPER[self.paper], "")  # type: ignore[arg-type]
            heights = probe.row_heights(probe.span, columns, rows)
        else:
            heights = [st.charts.row] * len(rows)
        chunks: list[list[list[Any]]] = [[]]
        room = height - reserve
        for row, h in zip(rows, heights, strict=True):
            if chunks[-1] and h > room:
                chunks.append([])
                room = height
            chunks[-1].append(row)
            room -= h
        f = self.s.faction(faction) if faction else None
        pages: list[Page] = []
        for k, chunk in enumerate(chunks):
            more = f" ({k + 1} of {len(chunks)})" if len(chunks) > 1 else ""

            def draw(sheet: Sheet, chunk: list[list[Any]] = chunk, k: int = k, more: str = more) -> float:
                y = sheet.band(title + more, f, "")
                if k == 0 and before is not None:
                    y = before(sheet, y)
                y = sheet.heading(sheet.left, y, sheet.span, heading[0], heading[1])
                return sheet.table(sheet.left, y, sheet.span, columns, [header], chunk, wrap=wrap)

            pages.append((title + more, f"{key}-{k + 1}", draw))
        return pages

    def _forces(self, faction: str) -> list[Page]:
        """The faction's units, the first page under the packet's words on what it shows."""
        own = [u for u in self.b.start.units if u.faction == faction]
        out = sum(1 for u in own if u.in_supply is False)
        rows = [
            [
                u.id,
                u.hex if u.aboard is None else f"aboard {u.aboard}",
                u.type.replace("_", " "),
                _stands_text(u.stands),
                "in" if u.in_supply else "OUT",
                u.commander or "",
            ]
            for u in own
        ]
        cols = [Column(2.4), Column(0.9), Column(1.2), Column(2.2), Column(0.6, "centre"), Column(1.4)]
        name = self.names.get(faction, faction)

        def intro(sheet: Sheet, y: float) -> float:
            y = sheet.para(sheet.left, y, sheet.span, say("faction_intro"))
            return sheet.para(sheet.left, y - 3, sheet.span, f"{len(own)} units, {out} out of supply.") - sheet.st.gap

        return self.table_pages(
            say("faction_title", faction=name, turn=self.b.turn),
            "forces",
            faction,
            ("Your forces", "B.2"),
            cols,
            ["Unit", "Hex", "Type", "Stands", "Supply", "Commander"],
            rows,
            before=intro,
            reserve=60,
        )

    def _faction_lists(self, sheet: Sheet, faction: str) -> float:
        f = self.s.faction(faction)
        y = sheet.band(f"{self.names.get(faction, faction)}: lists and ledger", f, f"turn {self.b.turn}")
        y = self.lists_extra(sheet, y, faction)
        y = self._reinforcements(sheet, y, faction)
        return self._vp_ledger(sheet, y, faction)

    def lists_extra(self, sheet: Sheet, y: float, faction: str) -> float:
        return y

    def _reinforcements(self, sheet: Sheet, y: float, faction: str) -> float:
        s = self.s
        waiting = self.b.start.slips.get(faction, ())
        f = s.faction(faction)
        placement = s.victory.placement.get(faction)
        if f is None:
            return y
        y = sheet.heading(sheet.left, y, sheet.span, "Reinforcements waiting", "II.E")
        where = f"They arrive {placement_text(s, f, placement)}" if placement else ""
        slips = {sl.id: sl for pile in s.cards.piles.values() for sl in pile}
        if not waiting:
            return sheet.para(sheet.left, y, sheet.span, f"None waiting to be placed. {where}") - sheet.st.gap
        rows = [[sid, slips[sid].text if sid in slips else ""] for sid in waiting]
        y = sheet.table(
            sheet.left, y, sheet.span, [Column(1.5), Column(6)], [["Slip", "What it brings"]], rows, wrap=True
        )
        return sheet.para(sheet.left, y - 4, sheet.span, where) - sheet.st.gap

    def acetate(self, faction: str) -> PacketFile:
        """The faction's supply overlay alone, at the poster's true scale on the map tiles' grid,
        with their crop marks and registration crosses: printed on transparency, it lies on the
        printed map. Only the tiles it marks are printed."""
        import shapely

        from kitgen.products.mapsheets import MapSheet
        from kitgen.render.style import map_style

        sheet = MapSheet(self.c.hex_map, self.s, map_style())
        sheet.art = self.art
        overlay = self.overlay(faction, believed=True)
        maps = self.pages_for([])
        marked: list[Any] = [maps.area(overlay.hexes)] if overlay.hexes else []
        marked += [shapely.LineString([self.art.centres[a], self.art.centres[b]]) for a, b in map(sorted, overlay.rail)]
        marked += [shapely.Point(self.art.centres[h]) for h in overlay.wrecked | overlay.held]
        everything = shapely.union_all(marked) if marked else shapely.GeometryCollection()

        def touches(window: tuple[float, float, float, float]) -> bool:
            return bool(shapely.intersects(everything, shapely.box(*window)))

        name = self.names.get(faction, faction)
        pdf, tiles = sheet.overlay_tiles(
            self.paper,
            lambda c: maps.supply(c, overlay, 1.0, hatch=True),
            f"{name} supply, turn {self.b.turn}",
            touches,
        )
        return PacketFile(f"{faction}-acetate-{self.suffix()}.pdf", faction, pdf, len(tiles), kind="acetate")

    def all(self, *, acetates: bool = False) -> list[PacketFile]:
        files = [self.umpire()]
        for f in self.s.meta.factions:
            if any(u.faction == f.id for u in self.b.start.units):
                files.append(self.faction(f.id))
                if acetates:
                    files.append(self.acetate(f.id))
        return files


def _contents(pages: list[Page]) -> list[tuple[str, int]]:
    """Each part's first page: a run of pages of one part ('Sector B2', 'Reach (1 of 2)') counts once."""
    found: list[tuple[str, int]] = []
    for number, (title, _, _) in enumerate(pages, start=1):
        part = title.split(" (")[0]
        if part.startswith("Map sector "):
            part = "Map sectors"
        if not found or found[-1][0] != part:
            found.append((part, number))
    return found


def _stands_text(stands: dict[str, int]) -> str:
    return ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in stands.items() if n)


def _chip(faction: str, names: dict[str, str]) -> Any:
    from kitgen.products.forms import Cell

    return Cell(names.get(faction, faction), mark=faction)


def build_packets(
    campaign: Campaign, turn: int | None = None, paper: str = "a4", *, acetates: bool = False
) -> list[PacketFile]:
    """Every packet of the turn: the umpire's, then each faction's with units on the map (and,
    with `acetates`, its supply overlay for transparency)."""
    return Packets(turn_basis(campaign, turn), paper).all(acetates=acetates)


def write_packets(folder: Path, out: Path, files: list[PacketFile]) -> list[Path]:
    """Each packet written atomically into `out`."""
    from kitgen.outputs import ensure_folder, write_atomic

    ensure_folder(out)
    written = []
    for f in files:
        path = out / f.name
        write_atomic(path, f.pdf)
        written.append(path)
    return written


Drawer = Callable[[Sheet], float]
