"""The boxed campaign kit: every printed part as its own PDF, and two files joining them behind a
contents page, with an outline of parts and their sections: the two-sided parts and the rest."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen.mapping.hexmap import HexMap
from kitgen.model.scenario import Scenario
from kitgen.render.pages import PAPER, PAPER_NAMES, Part

if TYPE_CHECKING:
    from kitgen.render.counterstyle import Edition

Builder = Callable[[], list[Part]]

BACKGROUND = ("folded booklet", "map", "player aids", "set-up chart", "forms")
"""The parts a second process builds while this one sets the booklet and the rest: about as
long together (`make bench` shows the kit's time)."""


def kit_builders(
    scenario: Scenario,
    hex_map: HexMap,
    paper: str,
    *,
    edition: Edition = "full",
    background: bool | None = None,
) -> Iterator[tuple[str, Builder]]:
    """(what, build) for each part of the kit, in the order of the box's contents; the map and
    counters at the size of `edition` (full: 1-inch hexes and 19 mm counters; compact: 16 mm
    hexes and half-inch counters). With `background` (default: where there is a second core to
    fork a process onto), the parts of BACKGROUND are built in a worker process from the start,
    and their build waits for it."""
    from kitgen.forking import can_fork

    kit = _Builders(scenario, hex_map, paper, edition)
    steps: list[tuple[str, Builder]] = [
        ("rules booklet", kit.booklet),
        ("folded booklet", kit.folded_booklet),
        ("map", kit.map),
        ("counters", kit.counters),
        ("cards", kit.cards),
        ("player aids", kit.aids),
        ("set-up chart", kit.setup_chart),
        ("forms", kit.forms),
    ]
    yield from _in_background(steps) if (can_fork() if background is None else background) else steps


def build_parts(steps: list[tuple[str, Builder]], started: Callable[[str], None] = lambda _: None) -> list[Part]:
    """The parts of `steps` (`kit_builders`) in the box's order, this process's own built
    first, while the worker builds the rest, then the worker's collected; `started` is told of
    each as it begins."""
    made: dict[str, list[Part]] = {}
    for what, build in sorted(steps, key=lambda step: step[0] in BACKGROUND):
        started(what)
        made[what] = build()
    return [part for what, _ in steps for part in made[what]]


class _Builders:
    """Each part's builder, importing its module only when it runs: a worker forked before
    the imports shares none of their cost with this process."""

    def __init__(self, scenario: Scenario, hex_map: HexMap, paper: str, edition: Edition) -> None:
        from kitgen.mapping.places import place_hexes

        self.s, self.hex_map, self.paper, self.edition = scenario, hex_map, paper, edition
        self.hex_ids = place_hexes(scenario, hex_map)

    def booklet(self) -> list[Part]:
        from kitgen.products.booklet import build_booklet

        return build_booklet(self.s, self.hex_ids, self.paper, ("pages",))

    def folded_booklet(self) -> list[Part]:
        from kitgen.products.booklet import build_booklet

        return build_booklet(self.s, self.hex_ids, self.paper, ("folded",))

    def map(self) -> list[Part]:
        return map_parts(self.s, self.hex_map, self.paper, self.edition)

    def counters(self) -> list[Part]:
        from kitgen.products.counters import build_counters

        return build_counters(self.s, self.paper, self.hex_ids, self.edition)

    def cards(self) -> list[Part]:
        from kitgen.products.cards import build_cards

        return build_cards(self.s, self.paper)

    def aids(self) -> list[Part]:
        from kitgen.products.playeraids import build_charts

        return build_charts(self.s, self.paper)

    def setup_chart(self) -> list[Part]:
        from kitgen.products.setupchart import build_setup_chart

        return build_setup_chart(self.s, self.hex_ids, self.paper)

    def forms(self) -> list[Part]:
        from kitgen.products.forms import build_forms

        return build_forms(self.s, self.paper)


def _in_background(steps: list[tuple[str, Builder]]) -> list[tuple[str, Builder]]:
    """`steps` with those of BACKGROUND started now in one forked worker process, in order,
    and their build the worker's result. Each part is built alone from the same state as in
    this process, so its bytes are the same."""
    from kitgen.forking import in_worker

    started = in_worker({what: build for what, build in steps if what in BACKGROUND})
    return [(what, started.get(what, build)) for what, build in steps]


def map_parts(scenario: Scenario, hex_map: HexMap, paper: str, edition: Edition = "full") -> list[Part]:
    """The map's parts: the poster for a print shop (at true scale; the compact edition's on two
    A2 or 17 x 22 in sheets, its key beside it) and the tiles to print at home."""
    from kitgen.products.mapsheets import POSTER_NAMES, MapSheet
    from kitgen.render.mapkey import hex_across
    from kitgen.render.style import map_style

    style = map_style(edition=edition)
    sheet = MapSheet(hex_map, scenario, style)
    tiles, tiling = sheet.tiles(paper)
    n = len(tiling.printed)
    if edition == "compact":
        size = sheet.compact_poster(paper)
        poster = Part(
            f"map-poster-{size}.pdf",
            "Map poster",
            f"the whole map and its key, hexes {hex_across(style)} across, on {POSTER_NAMES[size]} sheets "
            "for a print shop, with crop marks",
            sheet.poster(size),
            2 if size.startswith("2x") else 1,
            in_kit=False,
        )
    else:
        poster = Part(
            "map-poster.pdf",
            "Map poster",
            "the whole map on one sheet, for a plotter or print shop",
            sheet.poster("true"),
            1,
            in_kit=False,
        )
    tag = "-compact" if edition == "compact" else ""
    sections: tuple[tuple[str, int], ...]
    if tiling.joined:
        purpose = f"the map: an assembly page, the key and {n} tiles to print on {PAPER_NAMES[paper]} and join"
        sections = (("Assembly", 0), ("Key", 1), ("Tiles", 2))
    else:
        purpose, sections = f"the map: the key and the map on one {PAPER_NAMES[paper]} page", (("Key", 0), ("Tiles", 1))
    return [poster, Part(f"map-tiles{tag}-{paper}.pdf", "Map tiles", purpose, tiles, tiling.pages, sections)]


def combined(scenario: Scenario, parts: list[Part], paper: str, *, background: bool | None = None) -> list[Part]:
    """The parts that print on `paper` (the poster stays a file of its own) joined in two files,
    so that a printer set for one side or both is set once per file: `campaign-kit-duplex-PAPER.pdf`
    (the parts printed on both sides: rules, counters, cards) and
    `campaign-kit-single-sided-PAPER.pdf` (the rest), each behind a contents page. With
    `background` (default: where a fork is safe) the second is joined in a worker meanwhile."""
    from functools import partial

    from kitgen.forking import can_fork, in_worker

    joined = [p for p in parts if p.in_kit]
    two = [p for p in joined if p.duplex]
    one = [p for p in joined if not p.duplex]
    jobs: dict[str, Callable[[], Part]] = {}
    if two:
        jobs["duplex"] = partial(
            _joined,
            scenario,
            two,
            paper,
            "duplex",
            "the two-sided parts",
            "the parts printed on both sides in one file, behind a contents page, each starting "
            "on a right-hand page: print it double-sided (flip on the long edge)",
        )
    if one:
        jobs["single-sided"] = partial(
            _joined,
            scenario,
            one,
            paper,
            "single-sided",
            "the one-sided parts",
            "the parts printed on one side in one file, behind a contents page",
        )
    if len(jobs) == 2 and (can_fork() if background is None else background):
        jobs.update(in_worker({"single-sided": jobs["single-sided"]}))
    return [join() for join in jobs.values()]


def _joined(scenario: Scenario, joined: list[Part], paper: str, kind: str, what: str, purpose: str) -> Part:
    """`campaign-kit-KIND-PAPER.pdf`: a contents page, then each part, with an outline of parts
    and their sections and page labels by part; in a two-sided file every part starts on a
    right-hand page."""
    import time

    from pypdf import PdfReader, PdfWriter

    from kitgen import __version__
    from kitgen.buildinfo import build_epoch
    from kitgen.render.pages import copy_output_intent, uncut

    two_sided = kind == "duplex"
    first = 2  # page 1 is the contents
    starts, blanks = [], []
    for p in joined:
        blank = two_sided and first % 2 == 0  # a two-sided part starts on a right-hand page
        blanks.append(blank)
        first += blank
        starts.append(first)
        first += p.pages
    writer = PdfWriter()
    contents = PdfReader(io.BytesIO(_contents(scenario, joined, starts, paper, what)))
    writer.append(contents)
    copy_output_intent(contents, writer)  # every part declares its colours sRGB, and so does the whole
    w, h = PAPER[paper]
    for part, start, blank in zip(joined, starts, blanks, strict=True):
        if blank:
            uncut(writer.add_blank_page(width=w, height=h))
        writer.append(PdfReader(io.BytesIO(part.pdf)), import_outline=False)
        top = writer.add_outline_item(title=part.title, page_number=start - 1)
        for title, page in part.bookmarks:
            writer.add_outline_item(title=title, page_number=start - 1 + page, parent=top)
    writer.add_metadata(
        {
            "/Title": f"{scenario.meta.title}: the campaign kit, {what}",
            "/Author": "kitgen",
            "/Subject": scenario.meta.subtitle,
            "/Creator": f"kitgen {__version__}",
            "/CreationDate": time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(build_epoch())),
        }
    )
    writer.page_mode = "/UseOutlines"
    _label_pages(writer, joined, starts, blanks)
    from kitgen.render.pdffonts import unique_subsets

    unique_subsets(writer)  # each part's subsets are AAAAAA+...: joined, each needs a name of its own
    out = io.BytesIO()
    writer.write(out)
    return Part(f"campaign-kit-{kind}-{paper}.pdf", f"The whole kit, {what}", purpose, out.getvalue(), first - 1)


def label_of(part: Part) -> str:
    """A part's page label: its file's name without the paper or the edition
    ('map-tiles-compact-a4.pdf' -> 'Map tiles')."""
    stem = part.file.removesuffix(".pdf").rsplit("-", 1)[0].removesuffix("-compact")
    return stem.replace("-", " ").capitalize()


def _label_pages(writer: Any, parts: list[Part], starts: list[int], blanks: list[bool]) -> None:
    """Page labels a viewer shows and a print dialogue takes: 'Contents', 'Rules 1' ... 'Rules 19',
    'Map tiles 1' ..., 'Blank' for a page left blank before a two-sided part."""
    from pypdf.constants import PageLabelStyle

    writer.set_page_label(0, 0, prefix="Contents")
    for part, start, blank in zip(parts, starts, blanks, strict=True):
        if blank:
            writer.set_page_label(start - 2, start - 2, prefix="Blank")
        writer.set_page_label(start - 1, start + part.pages - 2, PageLabelStyle.DECIMAL, f"{label_of(part)} ", 1)


def _contents(scenario: Scenario, parts: list[Part], starts: list[int], paper: str, what: str) -> bytes:
    """The contents page: a title band, each part with its first page in the kit and what it
    is for, and the factions with their colours and marks."""
    from reportlab.lib.utils import simpleSplit

    from kitgen.render.bookletstyle import booklet_style
    from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, text_width
    from kitgen.render.pages import MM, faction_chip, hex_colour, new_canvas
    from kitgen.render.wording import curled

    w, h = PAPER[paper]
    out = io.BytesIO()
    c = new_canvas(out, (w, h), scenario, "the campaign kit")
    margin = 20 * MM
    accent = hex_colour(booklet_style().colours.accent)
    band = 58 * MM
    c.setFillColorRGB(*accent)
    c.rect(0, h - band, w, band, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(SANS_BOLD, 34)
    c.drawString(margin, h - band + 30 * MM, curled(scenario.meta.title))
    c.setFont(SANS, 12)
    c.drawString(margin, h - band + 21 * MM, curled(scenario.meta.subtitle))
    c.setFont(SANS_BOLD, 14)
    c.drawString(margin, h - band + 9 * MM, f"The campaign kit: {what}")
    y = h - band - 16 * MM
    for part, start in zip(parts, starts, strict=True):
        c.setFillColorRGB(0.12, 0.12, 0.12)
        c.setFont(SANS_BOLD, 12)
        c.drawString(margin, y, part.title)
        page = f"{start}"
        c.drawRightString(w - margin, y, page)
        left = margin + text_width(part.title, SANS_BOLD, 12) + 6
        right = w - margin - text_width(page, SANS_BOLD, 12) - 6
        c.setFont(SANS, 9)
        dots = "." * max(0, int((right - left) / text_width(".", SANS, 9)))
        c.setFillColorRGB(0.55, 0.55, 0.55)
        c.drawRightString(right, y, dots)
        c.setFillColorRGB(0.25, 0.25, 0.25)
        c.setFont(SANS_ITALIC, 9)
        note = f"{part.purpose[:1].upper()}{part.purpose[1:]}. {part.pages} page{'s' if part.pages != 1 else ''}, {part.file}"
        for line in simpleSplit(curled(note), SANS_ITALIC, 9, w - 2 * margin - 14):
            y -= 12
            c.drawString(margin + 14, y, line)
        y -= 22
    x = margin
    size = 9 * MM
    for faction in scenario.meta.factions:
        faction_chip(c, faction.id, faction.colour, x, margin + 6 * MM, size)
        c.setFillColorRGB(0.12, 0.12, 0.12)
        c.setFont(SANS, 10)
        c.drawString(x + size + 2 * MM, margin + 6 * MM + size / 2 - 3.5, faction.name)
        x += size + 2 * MM + text_width(faction.name, SANS, 10) + 8 * MM
    c.setFont(SANS, 8)
    c.setFillColorRGB(0.35, 0.35, 0.35)
    c.drawString(
        margin,
        margin,
        curled(f"Made by kitgen from the scenario's data ({scenario.meta.id}); {PAPER_NAMES[paper]} pages."),
    )
    c.showPage()
    c.save()
    return out.getvalue()


def write_kit(parts: list[Part], out: Path) -> None:
    """The kit written as the folder `out`, whole: a killed run leaves the old set or the new."""
    from kitgen.outputs import ProductFolder

    with ProductFolder(out) as product:
        for part in parts:
            product.write(part.file, part.pdf)
