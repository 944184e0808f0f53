"""The chronicle's pages, drawn from its edition's values alone (`Edition`): the cover with the
key, the charts, each turn's map and story, and the end."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kitgen.messages import plural
from kitgen.products.chronicle.edition import Edition
from kitgen.render.chronicleart import Arrow, BattleMark, Block, TurnMap, TurnMapStyle, draw_turn_map, style_for
from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.labels import meets
from kitgen.render.pages import hex_colour
from kitgen.render.sheet import Column, Page, Sheet
from kitgen.rules.ending import days_text, ending, ending_text, result_text, turn_days

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.products.sheetparts import Table
    from kitgen.render.charts import Chart
    from kitgen.render.mapart import MapArt

LABELLED = 10
"""Towns named on each turn's map besides those the turn's battles and changes name: the most
valuable, as far as their names find room."""


class ChroniclePages:
    def __init__(self, e: Edition, paper: str) -> None:
        from kitgen.render.mapart import MapArt
        from kitgen.render.mapcache import clean_map_pdf
        from kitgen.render.packetstyle import packet_form_style
        from kitgen.render.style import map_style

        self.e, self.paper = e, paper
        self.s = e.s
        self.art = MapArt(e.c.hex_map, self.s, map_style())
        self.map_pdf = clean_map_pdf(self.art, self.s, "none")
        self.style = packet_form_style()
        self.colours = {f.id: f.colour for f in self.s.meta.factions}
        self.names = {f.id: f.name for f in self.s.meta.factions}
        self.wide = self.art.width >= self.art.height
        self.marks: dict[int, list[tuple[str, tuple[float, float, float, float]]]] = {}
        """Each map page's blocks and battle marks (page from 1 -> what, box in page points): for the tests."""
        self.windows: dict[int, tuple[tuple[float, float, float, float], tuple[float, float, float, float]]] = {}
        """Each map page's window (page points) and the part of the map it shows (map points)."""

    @property
    def who(self) -> str:
        return "Umpire" if self.e.faction is None else self.names.get(self.e.faction, self.e.faction)

    def build(self, file: str) -> tuple[bytes, int]:
        from kitgen.products.sheetparts import sheets_part
        from kitgen.render.mapembed import fill_maps, read_maps

        pages = self.pages()
        wide = {key for _, key, _ in pages if key.startswith("charts") or (self.wide and key.endswith("-map"))}
        part = sheets_part(
            self.s,
            self.paper,
            pages,
            label=self.who,
            file=file,
            title=f"Chronicle: {self.who}",
            purpose="the campaign chronicle",
            style=self.style,
            wide=frozenset(wide),
            maps=["overview"],
        )
        return fill_maps(part.pdf, read_maps({"overview": self.map_pdf})), part.pages

    def pages(self) -> list[Page]:
        e = self.e
        pages: list[Page] = [("Chronicle", "cover", self.cover), *self.introduction_pages()]
        charts = self.charts()
        for k in range(0, len(charts), 4):
            more = f" ({k // 4 + 1} of {-(-len(charts) // 4)})" if len(charts) > 4 else ""
            pages.append(
                (
                    f"The war in charts{more}",
                    f"charts-{k // 4 + 1}",
                    partial(self.chart_page, charts=charts[k : k + 4], title=f"The war in charts{more}"),
                )
            )
        for t in range(1, e.h.last + 1):
            inset = self.story_map(t)
            if inset is None:
                pages.append((f"Turn {t}: the map", f"turn-{t:02d}-map", partial(self.map_page, turn=t)))
            pages += self.story_pages(t, inset)
        over = ending(self.s, e.h.after(e.h.last)).over
        pages.append(("The end" if over else "So far", "end", self.end_page))
        return pages

    # the cover

    def edition_text(self) -> str:
        if self.e.faction is None:
            return (
                "The umpire's edition: every unit, move, battle and town of every turn, as the replayed "
                "logs give them. Not for the players' eyes until the campaign is over."
            )
        return (
            f"The {self.who}' edition: only what the {self.who} knew at each turn, as their packets showed "
            "it: their own units and moves, the enemy where their units saw him (in full where they stood "
            "or fought, as a stack next to them), and where they last saw him before that. An enemy's "
            "move is drawn only along the hexes they saw."
        )

    def dates(self, turn: int) -> str:
        days = turn_days(self.s, turn)
        return days_text(*days) if days else ""

    def cover(self, sheet: Sheet) -> float:
        """The book's cover: the scenario's title, the campaign and its dates, the edition, the
        theatre's map, and how the scenario stands."""
        from reportlab.lib.utils import simpleSplit

        from kitgen.render.mapcache import map_picture
        from kitgen.render.style import map_style
        from kitgen.render.wording import curled

        e, s, c = self.e, self.s, sheet.c
        f = s.faction(e.faction) if e.faction else None
        c.saveState()
        c.setFillColorRGB(*hex_colour(f.colour if f else "#333333"))
        c.rect(sheet.left, sheet.top - 10, sheet.span, 10, stroke=0, fill=1)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        y = sheet.top - 22
        for size, font, text in (
            (34.0, SANS_BOLD, s.meta.title),
            (14.0, SANS, s.meta.subtitle),
            (12.0, SANS, f"The chronicle of the campaign {e.c.name}"),
            (12.0, SANS, self.span_text()),
            (12.0, SANS_BOLD, "The umpire's edition" if f is None else f"The {f.name}' edition"),
        ):
            for line in simpleSplit(curled(text), font, size, sheet.span):
                y -= size * 1.25
                c.setFont(font, size)
                c.drawString(sheet.left, y, line)
            y -= size * 0.5
        c.restoreState()
        under = sheet.para_height(sheet.span, self.edition_text()) + 4 + sheet.para_height(sheet.span, self.standing())
        floor = sheet.bottom + under + 14
        picture = map_picture(s, map_style(), lambda: self.art)
        room_w, room_h = sheet.span, y - 14 - floor
        if picture is not None and room_h > 40:
            k = min(room_w / picture.width, room_h / picture.height)
            c.saveState()
            c.translate(sheet.left + (room_w - picture.width * k) / 2, floor + (room_h - picture.height * k) / 2)
            c.scale(k, k)
            picture.draw(c)
            c.restoreState()
        y = sheet.para(sheet.left, sheet.bottom + under, sheet.span, self.edition_text()) - 4
        return sheet.para(sheet.left, y, sheet.span, self.standing())

    def span_text(self) -> str:
        """The campaign's days so far: '15 May – 13 July 1919, turns 1–6'."""
        last = self.e.h.last
        if not last:
            return "The set-up, before the first turn"
        first, end = turn_days(self.s, 1), turn_days(self.s, last)
        turns = "turn 1" if last == 1 else f"turns 1\u2013{last}"
        return f"{days_text(first[0], end[1])}, {turns}" if first and end else turns.capitalize()

    def standing(self) -> str:
        return ending_text(self.s, ending(self.s, self.e.h.after(self.e.h.last)), play_on=self.e.c.meta.play_on)

    def introduction_pages(self) -> list[Page]:
        """The situation at the start, each side's aims and forces, the turns with their dates,
        event cards and battles, and the key to the turn maps, flowed onto as few pages as they take."""
        from kitgen.render.flow import Drawn, Heading, Para, Rows, flow_pages
        from kitgen.rules.ending import condition_text

        e, s = self.e, self.s
        start = {x.faction: x for x in e.tallies if x.turn == 0}
        sides = [f for f in e.factions() if f in start]  # a faction's edition: its own (it knew no more)
        days = turn_days(s, 1)
        when = f"On {days[0].day} {days[0].strftime('%B')} {days[0].year}" if days else "At the start"
        held = "; ".join(
            f"the {self.names[f]} field {plural(start[f].units, 'unit')} of {plural(start[f].stands, 'stand')}"
            f" and hold {plural(start[f].towns, 'town')}"
            for f in sides
        )
        aims = [condition_text(s, w) for w in s.victory.win]
        aims.append(
            f"Every {s.victory.award_every_turns} turns each town scores its victory points for the side that holds it."
        )
        titles = {card.id: card.title for card in s.cards.events}
        turns: list[list[Any]] = [
            [
                str(t),
                self.dates(t),
                "; ".join(titles.get(x, x) for x in e.h.after(t).events) or "-",
                str(len(e.battles(t))),
            ]
            for t in range(1, e.h.last + 1)
        ]

        def key_height(probe: Sheet) -> float:
            import io

            from reportlab.pdfgen.canvas import Canvas

            scratch = Sheet(Canvas(io.BytesIO()), self.style, s, (probe.width, probe.height), "")
            return scratch.top - key(scratch, scratch.top)

        def key(sheet: Sheet, y: float) -> float:
            return self.key(sheet, sheet.heading(sheet.left, y, sheet.span, "The key to the turn maps") - 2)

        blocks: list[Any] = [
            Heading("The situation at the start"),
            Para(f"{when}, as the set-up gives it, {held}."),
            Rows(
                [Column(2.0), Column(1.0, "right"), Column(1.0, "right"), Column(1.0, "right")],
                ["Side", "Units", "Stands", "Towns"],
                [[self.names[f], str(start[f].units), str(start[f].stands), str(start[f].towns)] for f in sides],
                "The forces",
            ),
            Heading("The aims"),
            *(Para(a) for a in aims),
            Rows(
                [Column(0.5, "right"), Column(2.2), Column(4.2), Column(0.9, "right")],
                ["Turn", "Days", "Event card", "Battles"],
                turns or [["", "", "No turn played yet.", ""]],
                "The turns",
            ),
            Drawn(key_height, key),
        ]
        return flow_pages(s, self.paper, "Introduction", "introduction", e.faction, blocks, self.style)

    def key(self, sheet: Sheet, y: float) -> float:
        """What the turn maps' marks mean, each drawn as the maps draw it beside its words."""
        st = TurnMapStyle()
        faction = self.e.faction or self.s.meta.factions[0].id
        other = next((f.id for f in self.s.meta.factions if f.id != faction), faction)
        units: list[tuple[TurnMap, str]] = [
            (
                TurnMap(0, None, {}, blocks=(Block("a", faction, 1),)),
                "a unit, in its faction's colour and mark",
            ),
            (
                TurnMap(0, None, {}, blocks=(Block("a", faction, 3),)),
                "a number: how many units of the faction stand in the hex",
            ),
        ]
        if self.e.faction is not None:
            units += [
                (
                    TurnMap(0, None, {}, blocks=(Block("a", other, 0),)),
                    "an enemy stack seen next to your units: how many units it holds is not known",
                ),
                (
                    TurnMap(0, None, {}, blocks=(Block("a", other, 0, seen=3),)),
                    "an enemy last seen at the start of turn 3 (white, dashed): where he was then, not now",
                ),
            ]
        items: list[tuple[TurnMap, str]] = [
            *units,
            (TurnMap(0, None, {}, arrows=(Arrow(faction, ("a", "b"), "land"),)), "a march (solid), its end arrowed"),
            (TurnMap(0, None, {}, arrows=(Arrow(faction, ("a", "b"), "rail"),)), "a train's run (dashed)"),
            (TurnMap(0, None, {}, arrows=(Arrow(faction, ("a", "b"), "sea"),)), "a ship's voyage (dotted)"),
            (
                TurnMap(0, None, {}, battles=(BattleMark(1, "a", faction),)),
                "a battle, numbered as the turn's story tells it, in the winner's colour with his mark",
            ),
            (
                TurnMap(0, None, {"town": faction}),
                "a town's owner: its hex tinted in his colour, a roundel of his colour and mark by the town",
            ),
            (
                TurnMap(0, None, {}, remembered={"town": (faction, 3)}),
                "a town's owner when last seen, not seen since: a faint tint, a hollow roundel",
            ),
            (TurnMap(0, None, {}, wrecked=("a",)), "wrecked track"),
            (
                TurnMap(0, None, {}, front=(("a", "b"),)),
                "the front: between the ground each side holds, two hexes round its units"
                + (" (as we saw them)" if self.e.faction else ""),
            ),
        ]
        row = st.battle * 2.6
        for tm, words in items:
            _sample(sheet.c, tm, sheet.left + 14, y - row / 2, st, self.colours)
            below = sheet.para(sheet.left + 44, y - row / 2 + sheet.st.fonts.body * 0.35, sheet.span - 44, words)
            y = min(y - row, below)
        return y

    # the charts

    def charts(self) -> list[Chart]:
        from kitgen.render.charts import Chart, Series

        e = self.e
        t = e.tallies
        factions = e.factions()
        xs = tuple(range(e.h.last + 1))

        def series(field: str, wanted: list[str], start: int = 0) -> tuple[Series, ...]:
            return tuple(
                Series(
                    self.names[f],
                    f,
                    self.colours[f],
                    tuple(None if x.turn < start else float(getattr(x, field)) for x in t if x.faction == f),
                )
                for f in wanted
            )

        scoring = [f for f in factions if (fa := self.s.faction(f)) is not None and fa.scores_vp]
        charts = [
            Chart("Victory points", "VP", xs, series("vp", scoring)),
            Chart("Stands", "stands", xs, series("stands", factions)),
            Chart("Towns held", "towns", xs, series("towns", factions)),
            Chart("Units out of supply at the turn's start", "units", xs, series("out_of_supply", factions, 1)),
            Chart("Command rolls failed", "rolls", xs, series("command_failures", factions, 1)),
        ]
        charts = [chart for chart in charts if chart.series]  # a faction that scores no VP has no VP chart
        kinds = sorted({k for x in t for k in x.lost})
        for f in factions:
            own = [x for x in t if x.faction == f]
            if not any(x.lost for x in own):
                continue
            layers = tuple(  # the faction's colour, each arm hatched its own way in every faction's bars
                Series(
                    k.replace("_", " "),
                    k,
                    self.colours[f],
                    tuple(float(x.lost.get(k, 0)) for x in own),
                    pattern=n,
                )
                for n, k in enumerate(kinds)
                if any(x.lost.get(k) for x in own)
            )
            charts.append(Chart(f"Stands lost for good: {self.names[f]}", "stands", xs, layers, kind="bars"))
        return charts

    def chart_page(self, sheet: Sheet, charts: list[Chart], title: str) -> float:
        from kitgen.render.charts import draw_chart

        f = self.s.faction(self.e.faction) if self.e.faction else None
        top = sheet.band(title, f, self.who)
        gap = 12.0
        w = (sheet.span - gap) / 2
        h = (top - sheet.bottom - gap) / 2
        for n, chart in enumerate(charts):
            col, row = n % 2, n // 2
            x0 = sheet.left + col * (w + gap)
            y1 = top - row * (h + gap)
            draw_chart(sheet.c, chart, (x0, y1 - h, x0 + w, y1))
        return sheet.bottom

    # a turn

    def map_page(self, sheet: Sheet, turn: int) -> float:
        """The turn's map on a page of its own, cropped to where things happened (`action_area`)
        with a locator of the whole theatre in a corner, or the whole map for a busy turn."""
        e = self.e
        tm = e.turn_map(turn)
        f = self.s.faction(e.faction) if e.faction else None
        y_top = sheet.band(f"Turn {turn}: the map", f, self.dates(turn))
        room = y_top - sheet.bottom - sheet.para_height(sheet.span, self.caption(turn, zoomed=True)) - 6
        return self.draw_window(sheet, turn, tm, self.action_area(tm, sheet.span / room), y_top, room)

    def story_map(self, turn: int) -> Any | None:
        """The turn's map as a block of its story (`flow.Drawn`): where it zooms to a part of the
        board (`STORY_MAP_ASPECT` wide), or where the turn was quiet as the edition knew it (no
        move, no battle: the whole board, as small as the page's width, by a short story). A turn
        is then one page, its map above its words. None where the turn's moves spread over most
        of the board: that map takes a landscape page of its own."""
        from kitgen.render.flow import Drawn

        tm = self.e.turn_map(turn)
        whole = (0.0, 0.0, self.art.width, self.art.height)
        area = self.action_area(tm, STORY_MAP_ASPECT)
        if area != whole:
            aspect = STORY_MAP_ASPECT
        elif not tm.arrows and not tm.battles:
            aspect = self.art.width / self.art.height
        else:
            return None
        caption = self.caption(turn, zoomed=area != whole, quiet=area == whole)

        def measure(sheet: Sheet) -> float:
            return sheet.span / aspect + sheet.para_height(sheet.span, caption) + 8

        def draw(sheet: Sheet, y: float) -> float:
            return self.draw_window(sheet, turn, tm, area, y - 2, sheet.span / aspect, caption) - 2

        return Drawn(measure, draw)

    def draw_window(
        self,
        sheet: Sheet,
        turn: int,
        tm: TurnMap,
        area: tuple[float, float, float, float],
        y_top: float,
        room: float,
        caption: str = "",
    ) -> float:
        """The part `area` of the turn's map (in map points), as large as the page's span and
        `room` allow below `y_top`, its locator and names, and its caption (`caption`, else the
        turn map's); returns the y below."""
        from kitgen.render.mapembed import place_map

        ax0, ay0, ax1, ay1 = area
        s = min(sheet.span / (ax1 - ax0), room / (ay1 - ay0))
        w, h = (ax1 - ax0) * s, (ay1 - ay0) * s
        x, y = sheet.left + (sheet.span - w) / 2, y_top - h
        c = sheet.c
        zoomed = area != (0.0, 0.0, self.art.width, self.art.height)
        style = style_for(self.art.hex_pt * s)
        shown = _within(tm, self.art, area) if zoomed else tm  # those near the edge drawn a little in
        place_map(c, (x, y, w, h), (ax0, ay0), s, "overview")
        c.saveState()
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(x - ax0 * s, y - ay0 * s)
        c.scale(s, s)
        drawn = draw_turn_map(c, self.art, shown, self.colours, s, style, area)
        c.restoreState()
        ox, oy = x - ax0 * s, y - ay0 * s
        boxes = [(what, (ox + b[0] * s, oy + b[1] * s, ox + b[2] * s, oy + b[3] * s)) for what, b in drawn]
        self.marks[c.getPageNumber()] = boxes
        self.windows[c.getPageNumber()] = ((x, y, x + w, y + h), area)
        taken = [b for _, b in boxes]
        if zoomed:
            paths = [
                (
                    "arrow",
                    (
                        ox + float(p[0]) * s - 2,
                        oy + float(p[1]) * s - 2,
                        ox + float(p[0]) * s + 2,
                        oy + float(p[1]) * s + 2,
                    ),
                )
                for a in shown.arrows
                for p in (self.art.centres[h] for h in a.hexes if h in self.art.centres)
            ]
            taken.append(self.locator(sheet, (x, y, w, h), area, boxes + paths))
        taken += self.arrow_labels(sheet, shown, (ox, oy, s), taken, (x, y, x + w, y + h))
        taken += _shafts_and_roundels(self.art, shown, style, (ox, oy, s))
        self.town_names(sheet, shown, turn, (ox, oy, s), taken, style.block / 2 + 2, (x, y, x + w, y + h))
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(0.8)
        c.rect(x, y, w, h, stroke=1, fill=0)
        return sheet.para(sheet.left, y - 4, sheet.span, caption or self.caption(turn, zoomed=zoomed))

    def caption(self, turn: int, *, zoomed: bool, quiet: bool = False) -> str:
        if quiet:
            known = "" if self.e.faction is None else " that we knew of"
            return (
                f"The board at the end of turn {turn}: nothing moved or fought{known}. The key is in the introduction."
            )
        where = "Where the turn's moves and battles were" if zoomed else "The board"
        return (
            f"{where}, at the end of turn {turn}"
            + ("; the inset shows it on the whole theatre" if zoomed else "")
            + ". Solid arrows march, dashed go by train, dotted by ship; numbered bursts are the turn's battles "
            "(see its story), in the winner's colour. The key is in the introduction."
        )

    def action_area(self, tm: TurnMap, aspect: float) -> tuple[float, float, float, float]:
        """The part of the map, in its points, where the turn's moves and battles were: their hexes
        and a margin of hexes round them, widened to the page's shape (`aspect`, width over height)
        and kept on the map; the whole map where nothing moved or where that is most of it."""
        whole = (0.0, 0.0, self.art.width, self.art.height)
        hexes = [hx for a in tm.arrows for hx in a.hexes] + [b.hex for b in tm.battles]
        points = [self.art.centres[hx] for hx in hexes if hx in self.art.centres]
        if not points:
            return whole
        pad = ZOOM_MARGIN * self.art.hex_pt
        x0 = min(float(p[0]) for p in points) - pad
        x1 = max(float(p[0]) for p in points) + pad
        y0 = min(float(p[1]) for p in points) - pad
        y1 = max(float(p[1]) for p in points) + pad
        w, h = x1 - x0, y1 - y0
        least = ZOOM_LEAST * self.art.hex_pt  # never closer than a dozen hexes across
        w = max(h * aspect if w / h < aspect else w, least)
        h = w / aspect
        if w >= self.art.width * ZOOM_MOST or h >= self.art.height * ZOOM_MOST:
            return whole
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        x0 = min(max(0.0, cx - w / 2), self.art.width - w)
        y0 = min(max(0.0, cy - h / 2), self.art.height - h)
        return (x0, y0, x0 + w, y0 + h)

    def locator(
        self,
        sheet: Sheet,
        window: tuple[float, float, float, float],
        area: tuple[float, float, float, float],
        boxes: list[tuple[str, tuple[float, float, float, float]]],
    ) -> tuple[float, float, float, float]:
        """The whole theatre in small in the window's corner that covers fewest of the turn's
        marks, the map's part shown outlined on it; returns its box."""
        from kitgen.render.mapembed import place_map

        x, y, w, h = window
        options = []
        for size in LOCATOR:  # the largest that covers no mark, else the smallest covering fewest
            k = size * w / self.art.width
            lw, lh = self.art.width * k, self.art.height * k
            for lx, ly in (
                (x + w - lw - 4, y + 4),
                (x + 4, y + 4),
                (x + w - lw - 4, y + h - lh - 4),
                (x + 4, y + h - lh - 4),
            ):
                box = (lx - 1.5, ly - 1.5, lx + lw + 1.5, ly + lh + 1.5)
                options.append((sum(1 for _, b in boxes if meets(box, b)), -size, lx, ly, k))
        _, _, lx, ly, k = min(options, key=lambda o: (o[0] > 0, o[0] if o[0] else 0, o[1]))
        lw, lh = self.art.width * k, self.art.height * k
        c = sheet.c
        c.setFillColorRGB(1, 1, 1)
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(1.2)
        c.rect(lx - 1.5, ly - 1.5, lw + 3, lh + 3, stroke=1, fill=1)
        place_map(c, (lx, ly, lw, lh), (0.0, 0.0), k, "overview")
        c.setStrokeColorRGB(0.85, 0.1, 0.1)
        c.setLineWidth(1.4)
        ax0, ay0, ax1, ay1 = area
        c.rect(lx + ax0 * k, ly + ay0 * k, (ax1 - ax0) * k, (ay1 - ay0) * k, stroke=1, fill=0)
        return (lx - 1.5, ly - 1.5, lx + lw + 1.5, ly + lh + 1.5)

    def arrow_labels(
        self,
        sheet: Sheet,
        tm: TurnMap,
        at: tuple[float, float, float],
        taken: list[tuple[float, float, float, float]],
        frame: tuple[float, float, float, float],
    ) -> list[tuple[float, float, float, float]]:
        """The name of each move that mattered, on a white label by the middle of its path where
        it clashes with nothing drawn; returns the labels' boxes."""
        x0, y0, s = at
        size = sheet.st.fonts.small
        placed: list[tuple[float, float, float, float]] = []
        for arrow in tm.arrows:
            points = [self.art.centres[h] for h in arrow.hexes if h in self.art.centres]
            if not arrow.label or len(points) < 2:
                continue
            mid = points[len(points) // 2] if len(points) > 2 else (points[0] + points[1]) / 2
            cx, cy = x0 + float(mid[0]) * s, y0 + float(mid[1]) * s
            w = text_width(arrow.label, SANS_BOLD, size) + 3
            for bx, by in (
                (cx + 4, cy + 3),
                (cx - w - 4, cy + 3),
                (cx + 4, cy - size - 4),
                (cx - w - 4, cy - size - 4),
            ):
                box = (bx - 1, by - size * 0.3, bx + w, by + size * 0.95)
                if not _inside(box, frame) or any(meets(box, b) for b in taken + placed):
                    continue
                sheet.c.setFillColorRGB(1, 1, 1)
                sheet.c.setStrokeColorRGB(*hex_colour(self.colours.get(arrow.faction, "#8C8C8C")))
                sheet.c.setLineWidth(0.8)
                sheet.c.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], stroke=1, fill=1)
                sheet.text(bx + 1, by, arrow.label, size=size, font=SANS_BOLD)
                placed.append(box)
                break
        return placed

    def town_names(
        self,
        sheet: Sheet,
        tm: TurnMap,
        turn: int,
        at: tuple[float, float, float],
        taken: list[tuple[float, float, float, float]],
        d: float,
        frame: tuple[float, float, float, float],
    ) -> None:
        """Names of the towns that matter this turn (its battles', those changing hands) and the
        most valuable, each on a white label beside its town where it clashes with nothing drawn."""
        x0, y0, s = at
        board = self.e.c.board
        first = [b.hex for b in tm.battles]
        hexes = {t: h for h, names in board.towns.items() for t in names}
        first += [hexes[t] for t in self.e.towns_changed(turn) if t in hexes]
        events = set(first)
        worth = sorted(self.s.towns, key=lambda t: (-max((v or 0) for v in t.vp.values()) if t.vp else 0, t.name))
        first += [hexes[t.name] for t in worth[:LABELLED] if t.name in hexes]
        size = sheet.st.fonts.small
        placed = list(taken)
        done: set[str] = set()
        for h in first:
            names = board.towns.get(h, ())
            if not names or h in done or h not in self.art.centres:
                continue
            done.add(h)
            text = names[0]
            cx, cy = x0 + float(self.art.centres[h][0]) * s, y0 + float(self.art.centres[h][1]) * s
            w = text_width(text, SANS, size) + 2
            rings = (1.0, 1.8, 2.6) if h in events else (1.0,)
            for bx, by in (  # beside the town, else (a town of the turn's events) a little further out
                spot
                for k in rings
                for spot in (
                    (cx + d * k, cy - size * 0.35),
                    (cx - d * k - w, cy - size * 0.35),
                    (cx - w / 2, cy + d * k),
                    (cx - w / 2, cy - d * k - size),
                    (cx + d * k, cy + d * k * 0.6),
                    (cx + d * k, cy - d * k * 0.6 - size),
                    (cx - d * k - w, cy + d * k * 0.6),
                    (cx - d * k - w, cy - d * k * 0.6 - size),
                )
            ):
                box = (bx - 1, by - size * 0.3, bx + w, by + size * 0.95)
                if not _inside(box, frame) or any(meets(box, b) for b in placed):
                    continue
                sheet.c.setFillColorRGB(1, 1, 1)
                sheet.c.rect(box[0], box[1], box[2] - box[0], box[3] - box[1], stroke=0, fill=1)
                sheet.text(bx + 1, by, text, size=size)
                placed.append(box)
                break

    def story_pages(self, turn: int, inset: Any | None = None) -> list[Page]:
        """The turn's story (`prose`): its headline, a line of its days and event card, its map
        (`inset`, where the turn zooms), a paragraph for each front, the rest of the turn, and
        the turn in figures, flowed."""
        from kitgen.engine.piecenames import piece_names
        from kitgen.products.chronicle.prose import fronts, headline, rest_of_the_turn
        from kitgen.render.flow import Drawn, Para, Rows, flow_pages

        e, h = self.e, self.e.h
        names = piece_names(h.after(turn - 1)) | piece_names(h.after(turn))
        title = headline(e, turn).text
        size, leading = self.style.fonts.heading * 1.6, self.style.fonts.heading * 1.9

        def measure(sheet: Sheet) -> float:  # as `Sheet.para` sets it, and 2 points under it
            return size * 1.45 + leading * (len(sheet.wrap(title, SANS_BOLD, size, sheet.span)) - 1) + 2

        def draw(sheet: Sheet, y: float) -> float:
            return sheet.para(sheet.left, y, sheet.span, title, font=SANS_BOLD, size=size, leading=leading) - 2

        cards = "; ".join({c.id: c.title for c in self.s.cards.events}.get(x, x) for x in h.after(turn).events)
        dek = ", ".join(filter(None, [self.dates(turn), f"event card: {cards}" if cards else "no event card"]))
        dek = dek[0].upper() + dek[1:]
        blocks: list[Any] = [Drawn(measure, draw), Para(dek if dek.endswith((".", "!", "?")) else dek + ".")]
        blocks += [inset] if inset is not None else []
        blocks += [Para(text, lead) for lead, text in fronts(e, turn, names) + rest_of_the_turn(e, turn, names)]
        figures = self.figures(turn)
        blocks.append(Rows(figures.columns, figures.header, figures.rows, figures.heading))
        who = "" if e.faction is None else f"as the {self.who} knew it"
        return flow_pages(
            self.s,
            self.paper,
            f"Turn {turn}: what happened",
            f"turn-{turn:02d}-story",
            e.faction,
            blocks,
            self.style,
            note=who,
        )

    def figures(self, turn: int) -> Table:
        """The turn in figures, the charts' own for that turn: each faction's units, stands (and
        the change), stands lost for good by kind, towns, VP, units out of supply at the turn's
        start and command rolls failed of those made; a faction's edition, its own row alone."""
        from collections import Counter

        from kitgen.products.sheetparts import Table
        from kitgen.render.sheet import Cell
        from kitgen.render.wording import signed

        e = self.e
        now = {x.faction: x for x in e.tallies if x.turn == turn}
        was = {x.faction: x for x in e.tallies if x.turn == turn - 1}
        made = Counter(roll.faction for roll in e.h.after(turn).commands)

        def change(a: int, b: int) -> str:
            return f"{a} ({signed(a - b)})" if a != b else str(a)

        rows: list[list[Any]] = []
        for f in e.factions():
            x, y = now[f], was[f]
            rows.append(
                [
                    Cell(self.names[f], mark=f),
                    change(x.units, y.units),
                    change(x.stands, y.stands),
                    ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in x.lost.items()) or "0",
                    change(x.towns, y.towns),
                    change(x.vp, y.vp) if (fa := self.s.faction(f)) is not None and fa.scores_vp else "-",
                    str(x.out_of_supply),
                    f"{x.command_failures} of {made[f]}" if made[f] else "-",
                ]
            )
        columns = [
            Column(1.7),
            Column(0.8, "right"),
            Column(0.9, "right"),
            Column(1.9),
            Column(0.8, "right"),
            Column(0.8, "right"),
            Column(1.0, "right"),
            Column(1.0, "right"),
        ]
        header = ["Faction", "Units", "Stands", "Lost for good", "Towns", "VP", "Out of supply", "Command rolls failed"]
        return Table(f"Turn {turn} in figures", columns, header, rows)

    # the end

    def end_page(self, sheet: Sheet) -> float:
        """The closing page: the result (or how the scenario stands), the turning points (each
        turn whose headline was a town taken, a battle or a supply collapse), how each side stood."""
        from kitgen.products.chronicle.prose import headline, the_war

        e, s = self.e, self.s
        f = s.faction(e.faction) if e.faction else None
        end = ending(s, e.h.after(e.h.last))
        y = sheet.band("The end" if end.over else "So far", f, self.who)
        y = sheet.para(sheet.left, y, sheet.span, ending_text(s, end, play_on=e.c.meta.play_on)) - 4
        if end.over:
            y = sheet.para(sheet.left, y, sheet.span, "The result: " + result_text(s, end)) - 4
        war = the_war(e, over=end.over)
        if war:
            y = sheet.para(sheet.left, y, sheet.span, war) - 4
        points = [(t, headline(e, t)) for t in range(1, e.h.last + 1)]
        points = [(t, h) for t, h in points if h.kind in ("town", "battle", "supply")]
        y -= sheet.st.gap
        if points:
            y = sheet.heading(sheet.left, y, sheet.span, "The turning points")
            y = (
                sheet.bullets(sheet.left, y, sheet.span, [(f"Turn {t}", h.text + ".") for t, h in points])
                - sheet.st.gap
            )
        last = [x for x in e.tallies if x.turn == e.h.last and x.faction in e.factions()]
        rows = [[self.names[x.faction], str(x.vp), str(x.units), str(x.stands), str(x.towns)] for x in last]
        y = sheet.heading(sheet.left, y, sheet.span, "How it stood at the end" if end.over else "How it stands")
        cols = [Column(1.6), Column(0.8, "right"), Column(0.8, "right"), Column(0.8, "right"), Column(0.8, "right")]
        y = sheet.table(sheet.left, y, sheet.span, cols, [["Faction", "VP", "Units", "Stands", "Towns"]], rows)
        return self.last_front(sheet, y - sheet.st.gap)

    def last_front(self, sheet: Sheet, y: float) -> float:
        """The whole theatre at the last turn's end, its towns by owner and the front, without the
        turn's moves, in the room left on the closing page (where there is a useful amount)."""
        import dataclasses

        e = self.e
        if not e.h.last:
            return y
        caption = (
            f"The theatre at the end of turn {e.h.last}"
            + ("" if e.faction is None else f", as the {self.who} knew it")
            + ": towns tinted by their owners, the units, and the front. The key is in the introduction."
        )
        title = sheet.st.fonts.body * 2.4
        room = y - sheet.bottom - title - sheet.para_height(sheet.span, caption) - 8
        aspect = self.art.width / self.art.height
        if room < min(sheet.span / aspect, sheet.span) * 0.5:
            return y
        tm = dataclasses.replace(e.turn_map(e.h.last), arrows=(), battles=())
        y = sheet.heading(
            sheet.left, y, sheet.span, "The front at the end" if e.faction is None else "Our front at the end"
        )
        whole = (0.0, 0.0, self.art.width, self.art.height)
        return self.draw_window(sheet, e.h.last, tm, whole, y - 2, room, caption)


def _shafts_and_roundels(
    art: MapArt, tm: TurnMap, st: TurnMapStyle, at: tuple[float, float, float]
) -> list[tuple[float, float, float, float]]:
    """Boxes (page points) along each arrow's path, every 3 points, and round each town's owner
    roundel: what a town's name must not cover, nor be read as naming."""
    import math

    x0, y0, s = at
    boxes = []
    for a in tm.arrows:
        points = [
            (x0 + float(p[0]) * s, y0 + float(p[1]) * s) for p in (art.centres[h] for h in a.hexes if h in art.centres)
        ]
        half = 2.0 if a.bold else 1.2
        for (ax, ay), (bx, by) in zip(points, points[1:], strict=False):
            n = max(1, math.ceil(math.hypot(bx - ax, by - ay) / 3))
            for i in range(n + 1):
                px, py = ax + (bx - ax) * i / n, ay + (by - ay) * i / n
                boxes.append((px - half, py - half, px + half, py + half))
    offset = st.block / 2 + st.roundel * 0.7
    for h, marks in art.towns.items():
        if h in art.centres and any(m.name in tm.owners or m.name in tm.remembered for m in marks):
            cx, cy = x0 + float(art.centres[h][0]) * s - offset, y0 + float(art.centres[h][1]) * s + offset * 0.8
            boxes.append((cx - st.roundel, cy - st.roundel, cx + st.roundel, cy + st.roundel))
    return boxes


def _sample(c: Canvas, tm: TurnMap, x: float, y: float, st: TurnMapStyle, colours: dict[str, str]) -> None:
    """One mark of the key, drawn by the maps' own code on a tiny board of two hexes."""
    c.saveState()
    c.translate(x - (11 if tm.arrows else 0), y - (st.block * 0.9 if tm.battles else 0))
    draw_turn_map(c, _KeyBoard(bool(tm.owners or tm.remembered)), tm, colours, 1.0, st)  # type: ignore[arg-type]  # all it reads
    c.restoreState()


class _KeyBoard:
    """Two hexes side by side, 22 points apart, the first a town if asked: the board the key's
    marks are drawn on by the maps' own code."""

    def __init__(self, town: bool) -> None:
        from types import SimpleNamespace

        self.centres = {"a": (0.0, 0.0), "b": (22.0, 0.0)}
        self.towns = {"a": [SimpleNamespace(name="town")]} if town else {}
        self._hexes = {"a": "a", "b": "b"}
        self.map = SimpleNamespace(by_id=lambda: self._hexes)

    def corners(self, hex_id: str) -> list[tuple[float, float]]:
        import math

        cx, cy = self.centres[hex_id]
        return [(cx + 12 * math.cos(a * math.pi / 3), cy + 12 * math.sin(a * math.pi / 3)) for a in range(6)]

    def hexside(self, a: str, b: str) -> list[tuple[float, float]]:
        """The side the two hexes share: a short upright line between their centres."""
        return [(11.0, -7.0), (11.0, 7.0)]


ZOOM_MARGIN = 2.5
"""Hexes of map round the turn's moves and battles on its cropped map."""
ZOOM_LEAST = 12.0
"""The fewest hexes across a cropped map shows: enough round the action to place it."""
ZOOM_MOST = 0.7
"""A crop that would show this much of the map's width or height shows the whole map."""
LOCATOR = (0.22, 0.17, 0.13)
"""The locator's widths to try, as parts of the map's window, largest first."""
STORY_MAP_ASPECT = 1.7
"""Width over height of a turn's map set above its story (about 40% of an A4 page's height)."""


def _within(tm: TurnMap, art: MapArt, box: tuple[float, float, float, float]) -> TurnMap:
    """`tm` with only the blocks and battles whose hex centre stands inside `box` (map points), so
    that no mark is cut at a cropped map's edge; the arrows run on to the edge."""
    from dataclasses import replace

    def inside(hex_id: str) -> bool:
        if hex_id not in art.centres:
            return False
        x, y = (float(v) for v in art.centres[hex_id])
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]

    return replace(
        tm,
        blocks=tuple(b for b in tm.blocks if inside(b.hex)),
        battles=tuple(b for b in tm.battles if inside(b.hex)),
    )


def _inside(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]
