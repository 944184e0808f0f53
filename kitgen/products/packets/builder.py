"""What every packet of a turn shares: one drawing of the clean map, the layouts, what each
faction can see and believes, the supply overlays and the rolls ahead, and the pages they have
in common (the map pages, the VP ledger, tables over as many pages as they need)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from kitgen.engine.basis import TurnBasis
from kitgen.engine.intel import FactionView, believed, faction_view, fought_in
from kitgen.engine.memory import Memory
from kitgen.engine.state import CampaignState
from kitgen.messages import ordinal, plural
from kitgen.products.packets.maps import MapPages, overlay_legend
from kitgen.products.packets.scene import overlay_of
from kitgen.products.packets.text import say
from kitgen.products.sheetparts import sheets_part, table_pages
from kitgen.render.mapembed import Increment
from kitgen.render.pages import MM
from kitgen.render.scene import Overlay, Scene, Sector
from kitgen.render.sceneart import SceneArt
from kitgen.render.sheet import Column, Page, Sheet
from kitgen.rules.ending import award_turns, condition_text, days_text, ending, ending_text, turn_days

if TYPE_CHECKING:
    from kitgen.engine.ahead import RollAhead
    from kitgen.engine.contacts_ahead import Contact
    from kitgen.render.mapart import MapArt
    from kitgen.render.mapembed import MapForm
    from kitgen.reports.rollsheet import SheetRoll


@dataclass(frozen=True)
class PacketFile:
    name: str
    """File name: `umpire-turn-07-a4.pdf`, `reds-turn-07-a4.pdf`."""
    who: str
    """'umpire' or the faction's id."""
    pdf: bytes
    pages: int
    kind: str = "packet"
    """'packet'; 'acetate', a faction's supply overlay to print on transparency; 'report_forms' or
    'roll_sheet', the umpire's forms alone."""


REPORT_KEYS = ("report-", "roster-")
"""The keys of the pages set in the situation report's type (`kitgen.render.flow`)."""

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
        from kitgen.render.mapcache import clean_map_pdf, place_labels_once

        self.map_pdfs = {
            "sector": clean_map_pdf(self.art, self.s, "no names"),
            "overview": clean_map_pdf(self.art, self.s, "none"),
        }
        """The clean map under the sectors (their names drawn round the counters) and under the
        overviews (no text: at their scale none could be read)."""
        place_labels_once(self.art, self.s)
        self.names = {f.id: f.name for f in self.s.meta.factions}
        from kitgen.engine.piecenames import piece_names

        self.pieces = piece_names(basis.start)
        """Each unit, train and ship by id -> its name as its counter prints it."""
        self._overlays: dict[tuple[str, bool], Overlay] = {}
        self._views: dict[str, FactionView] = {}
        self._memories: dict[str, Memory] = {}
        self._rolls: list[RollAhead] | None = None
        self._contacts: list[Contact] | None = None
        self._sheet: list[SheetRoll] | None = None
        self._map_forms: dict[str, MapForm] | None = None
        self._tiles: list[Sector] | None = None
        self.contents: list[tuple[str, int]] = []
        self.scenes: dict[str, Scene] = {}
        """Each packet's scene by who gets it, with what its pages drew."""
        self.scene_art = SceneArt(self.art, self.s, self.layouts.sector, self.layouts.overview)
        """One drawer of scenes for every packet: the supply areas and windows it works out are shared."""

    def view(self, faction: str) -> FactionView:
        """What the faction can see at the start of the turn, with where it fought last turn."""
        if faction not in self._views:
            fought = fought_in(self.b.after, faction)
            self._views[faction] = faction_view(self.c.board, self.b.start, faction, fought=fought)
        return self._views[faction]

    def memory(self, faction: str) -> Memory:
        """What the faction remembers at the start of the turn (`kitgen.engine.memory`)."""
        if faction not in self._memories:
            h = self.b.history
            horizon = self.s.meta.intel.memory_turns
            self._memories[faction] = (
                h.memories(self.c.board, faction, horizon)[-1] if h is not None else Memory(faction, self.b.turn)
            )
        return self._memories[faction]

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

    def pages_for(self) -> MapPages:
        return MapPages(self.c, self.art, self.layouts.sector, self.layouts.overview, self.scene_art)

    def build(self, pages: list[Page], label: str, file: str, title: str) -> PacketFile:
        self.contents = _contents(pages)
        from kitgen.render.packetstyle import packet_form_style, packet_report_style

        style = packet_form_style()
        sectors = frozenset(key for _, key, _ in pages if key.startswith("sector-"))
        wide = sectors | {key for _, key, _ in pages if key == "overview" or key.startswith("supply")}
        reports = {key: packet_report_style() for _, key, _ in pages if key.startswith(REPORT_KEYS)}
        sector = self.layouts.sector
        tight = style.model_copy(update={"margin_mm": sector.margin / MM, "gap": sector.band_gap})
        part = sheets_part(
            self.s,
            self.paper,
            pages,
            label=label,
            file=file,
            title=title,
            purpose=title,
            style=style,
            wide=frozenset(wide),
            styles=dict.fromkeys(sectors, tight) | reports,
            maps=sorted(self.map_pdfs),
        )
        from kitgen.render.formfields import add_fields

        inc = Increment(part.pdf)
        add_fields(inc, part.fields)
        for name, form in self.map_forms().items():
            inc.fill_map(name, form)
        return PacketFile(file, label, inc.result(), part.pages)

    def map_forms(self) -> dict[str, MapForm]:
        """The clean maps read once (pypdf) for every packet's map pages, and their forms written
        once (`MapForm`); their font subsets renamed with tags reportlab's never use (it uses A-K),
        so that no two of a packet share one."""
        if self._map_forms is None:
            from kitgen.render.mapembed import read_maps

            self._map_forms = read_maps(self.map_pdfs)
        return self._map_forms

    def warm(self) -> None:
        """What every packet works out the same, worked out once: before the packets are made
        in processes of their own, which would each work it out again."""
        for form in self.map_forms().values():
            _ = form.written
        _ = self.tiles
        self.rolls()
        self.contacts()
        self.sheet_rolls()
        art, scene_art = self.art, self.scene_art
        _ = art.label_spots, art.covered_hex_ids, art.river_name_spots
        _ = scene_art.obstacles, scene_art.rows, scene_art.symbols, scene_art.hex_id_boxes

    @property
    def tiles(self) -> list[Sector]:
        """The kit's map tiles on this paper as sectors: each tile's window and core in map points."""
        if self._tiles is None:
            from kitgen.products.mapsheets import Tiling, map_tiling
            from kitgen.render.style import map_style

            style = map_style()
            t = map_tiling(self.art.width, self.art.height, style, self.paper)
            bleed = style.tiles.bleed_mm * MM

            def in_map(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
                return (box[0] - bleed, box[1] - bleed, box[2] - bleed, box[3] - bleed)

            self._tiles = [
                Sector(Tiling.label(col, row), in_map(t.window(col, row)), in_map(t.core_rect(col, row)))
                for row in range(t.rows)
                for col in range(t.columns)
            ]
        return self._tiles

    def sectors_shown(self, hexes: set[str]) -> list[Sector]:
        """The tiles whose core holds one of `hexes`: the sectors a packet prints."""
        return [t for t in self.tiles if self.scene_art.within(t.core) & hexes]

    def map_pages(
        self,
        maps: MapPages,
        scene: Scene,
        shown: list[Sector],
        who: str,
        note: str,
        *,
        stack_page: bool = True,
        overlay: Overlay | None = None,
    ) -> list[Page]:
        """The overview (with a faction's supply under it, given its `overlay`), then the sectors
        `shown`; then, unless the stacks are listed elsewhere (a faction's report), the stack list."""
        after = partial(self._sector_index, shown=shown, viewer=scene.viewer)
        if overlay is not None:
            after = partial(self._map_notes, shown=shown, overlay=overlay)
        pages: list[Page] = [
            (
                f"{who}: the whole map",
                "overview",
                partial(
                    maps.overview_page,
                    scene=scene,
                    shown=self.tiles,
                    title=f"{who}: the whole map" + (" and supply" if overlay else ""),
                    note=note,
                    overlay=overlay,
                    after=after,
                ),
            )
        ]
        for sector in shown:
            pages.append(
                (
                    f"Map sector {sector.key}",
                    f"sector-{sector.key}",
                    partial(
                        maps.sector_page,
                        scene=scene,
                        sector=sector,
                        tiles=self.tiles,
                        title=f"Sector {sector.key}",
                        note=note,
                    ),
                )
            )
        if scene.stacks and stack_page:
            pages += self._stack_pages(scene)
        return pages

    def _sector_index(self, sheet: Sheet, y: float, shown: list[Sector], viewer: str | None) -> float:
        """Under (or beside) the whole map: its sectors, then each faction's forces in a line."""
        keys = ", ".join(s.key for s in shown)
        y = sheet.para(sheet.left, y, sheet.span, say("sector_index", keys=keys))
        y -= sheet.st.gap
        start = self.b.start
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
            text = f"{plural(len(units), 'unit')} of {plural(stands, 'stand')}, {out} out of supply"
            text += f", {aboard} aboard ship; {plural(trains, 'train')}, {plural(ships, 'ship')}."
            y = sheet.para(sheet.left, y, sheet.span, text, lead=f"{f.name}:") - 2
        return y

    def _map_notes(self, sheet: Sheet, y: float, shown: list[Sector], overlay: Overlay) -> float:
        """Under a faction's whole map: its sectors and its supply's key."""
        y = sheet.para(sheet.left, y, sheet.span, say("sector_index", keys=", ".join(s.key for s in shown)))
        return self.overlay_note(sheet, y - sheet.st.gap / 2, overlay, own=True)

    def _stack_pages(self, scene: Scene) -> list[Page]:
        """The stack list, over as many pages as its rows take (`kitgen.render.flow`)."""
        from kitgen.render.flow import Rows, flow_pages
        from kitgen.render.packetstyle import packet_form_style

        rows = stack_rows(scene, self.names, str)
        table = Rows([Column(0.7), Column(1.3), Column(6)], ["Hex", "Faction", "Units"], rows, tint=False)
        faction = scene.viewer
        return flow_pages(self.s, self.paper, "Stack list", "stacks", faction, [table], packet_form_style())

    def supply_page(
        self, maps: MapPages, scene: Scene, overlay: Overlay, heading: str, key: str, title: str, *, own: bool = False
    ) -> Page:
        """A faction's supply over the whole map, with what it shows under it."""
        draw = partial(
            maps.overview_page,
            scene=scene,
            shown=(),
            title=title,
            note=f"turn {self.b.turn}",
            overlay=overlay,
            after=partial(self.overlay_note, overlay=overlay, own=own),
        )
        return (heading, key, draw)

    def overlay_note(self, sheet: Sheet, y: float, overlay: Overlay, own: bool = False) -> float:
        out = None
        if own:
            out = [
                f"{u.name} ({u.hex})"
                for u in self.b.start.units
                if u.faction == overlay.faction and u.in_supply is False
            ]
        return overlay_legend(sheet, overlay, y, self.names, out=out)

    def vp_ledger(self, sheet: Sheet, y: float, faction: str | None) -> float:
        """The VP ledger: totals and towns held with their worth; a faction sees only its own."""
        s, b = self.s, self.b
        state = b.start
        every = s.victory.award_every_turns
        upcoming = award_turns(s, b.turn, 4, play_on=self.c.meta.play_on)
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
        text = say("award", every=ordinal(every), turns=", ".join(f"turn {t}" for t in upcoming))
        if upcoming and upcoming[0] == b.turn:
            text += " This is an award turn: VP are scored at its end."
        if faction is not None:
            text += " Other factions' totals are the umpire's to know."
        return sheet.para(sheet.left, y, sheet.span, text) - sheet.st.gap

    def end_section(self, sheet: Sheet, y: float) -> float:
        """Time and the end (RULES-NOTES, 2026-12-02): the days this turn stands for, whether it
        is the last, or how the scenario ended if the club plays on; then how it is won."""
        s, turn = self.s, self.b.turn
        last = s.meta.turns.last
        y = sheet.heading(sheet.left, y, sheet.span, "Time and the end")
        days = turn_days(s, turn)
        dates = days_text(*days) if days is not None else ""
        words = [say("turn_days", turn=turn, days=plural(s.meta.turns.days, "day"), dates=dates)]
        end = ending(s, self.b.after)
        if end.over:
            words.append(ending_text(s, end, play_on=self.c.meta.play_on))
        elif last is None:
            words.append(say("no_last_turn"))
        elif turn == last:
            words.append(say("last_turn", last=last))
        else:
            words.append(say("turn_of", turn=turn, last=last))
        y = sheet.para(sheet.left, y, sheet.span, " ".join(words)) - 3
        y = self.turn_track(sheet, y) - 3
        conditions = [condition_text(s, c) for c in s.victory.win]
        if not conditions:
            return sheet.para(sheet.left, y, sheet.span, say("no_win")) - sheet.st.gap
        y = sheet.para(sheet.left, y, sheet.span, say("how_won")) - 2
        return sheet.bullets(sheet.left, y, sheet.span, [("", c) for c in conditions]) - sheet.st.gap

    def turn_track(self, sheet: Sheet, y: float) -> float:
        """The turn track, dated: each turn of the scenario (or, with no last turn, the next few)
        with the days it stands for; this turn, the VP award turns (E.2) and the last marked."""
        from kitgen.render.sheet import Cell

        s, turn = self.s, self.b.turn
        last = s.meta.turns.last
        play_on = self.c.meta.play_on
        final = max(turn, last) if last is not None else turn + 5
        turns = range(1, final + 1)
        awards = set(award_turns(s, 1, len(turns), play_on=play_on))
        cells: list[list[Any]] = []
        for t in turns:
            days = turn_days(s, t)
            marks = [say("track_now")] if t == turn else []
            marks += [say("track_award")] if t in awards else []
            marks += [say("track_last")] if t == last else []
            cells.append([Cell(str(t), bold=t == turn), days_text(*days) if days else "", ", ".join(marks)])
        across = 3
        per = -(-len(cells) // across)
        rows = []
        for k in range(per):
            row: list[Any] = []
            for c in range(across):
                n = c * per + k
                row += cells[n] if n < len(cells) else ["", "", ""]
            rows.append(row)
        columns = [Column(0.4, "right"), Column(2.4), Column(1.1)] * across
        header = [say("track_turn"), say("track_days"), ""] * across
        return sheet.table(sheet.left, y, sheet.span, columns, [header], rows)

    # a faction's

    def rolls(self) -> list[RollAhead]:
        """Every roll of the turn, those needed whatever the orders and the command rolls if ordered."""
        from kitgen.engine.ahead import rolls_ahead

        if self._rolls is None:
            self._rolls = rolls_ahead(self.c, self.b.after, self.b.turn)
        return self._rolls

    def contacts(self) -> list[Contact]:
        """The contacts the turn's orders make (none before they are in): the battles to fight."""
        from kitgen.engine.contacts_ahead import contacts_ahead
        from kitgen.engine.turnlog import TurnLog

        if self._contacts is None:
            b = self.b
            self._contacts = contacts_ahead(self.c, b.after, b.log or TurnLog(turn=b.turn), b.source)
        return self._contacts

    def sheet_rolls(self) -> list[SheetRoll]:
        """The roll sheet's lines: every roll the turn may ask for."""
        from kitgen.reports.rollsheet import sheet_rolls

        if self._sheet is None:
            self._sheet = sheet_rolls(self.c, self.b.after, self.b.turn)
        return self._sheet

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
    ) -> list[Page]:
        """A table over as many pages as its rows need (forms.table_pages) on the packets' paper,
        measured in the packets' type, under its `intro` paragraphs."""
        from kitgen.render.packetstyle import packet_form_style

        return table_pages(
            self.s,
            self.paper,
            title,
            key,
            faction,
            heading,
            columns,
            header,
            rows,
            intro=intro,
            wrap=wrap,
            style=packet_form_style(),
        )


def _contents(pages: list[Page]) -> list[tuple[str, int]]:
    """Each part's first page: a run of pages of one part ('Sector B2', 'Reach (1 of 2)') counts once."""
    found: list[tuple[str, int]] = []
    for number, (title, _, _) in enumerate(pages, start=1):
        part = title.split(" (")[0]
        if part.startswith("Map sector "):
            part = "Map sectors"
        elif part.startswith(("Battle at ", "Battle in hex ", "Battle report: ")):
            part = "Battle set-up sheets and report forms"  # each sheet followed by its form
        if not found or found[-1][0] != part:
            found.append((part, number))
    return found


def stack_rows(scene: Scene, names: dict[str, str], where: Callable[[str], str]) -> list[list[Any]]:
    """A row a piece of each stack on the scene's maps, top counter first: the stack's hex as
    `where` says it on its first row, the piece's faction and what it is."""
    rows: list[list[Any]] = []
    for e in scene.stacks:
        for k, (f, text) in enumerate(e.lines):
            rows.append([where(e.hex) if k == 0 else "", _chip(f, names), text])
    return rows


def stands_text(stands: dict[str, int]) -> str:
    return ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in stands.items() if n)


def _chip(faction: str, names: dict[str, str]) -> Any:
    from kitgen.render.sheet import Cell

    return Cell(names.get(faction, faction), mark=faction)
