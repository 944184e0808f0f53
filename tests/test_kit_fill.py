"""Issue 44, item 5: no wasted pages. "No kit page but a part's last is less than half full,
measured in a test": every page of the kit's parts is rendered small and its fill measured as
the share of the page's height, inside a margin top and bottom, whose rows carry ink.

A part is what starts on a page of its own: a form (each is photocopied alone), a faction's
player aid (a card of two sides), a section of the rules that begins a page (the set-up, the
index), the map tiles' assembly page, key and tiles; a counter sheet counts as its front (the
back mirrors it), the last sheet being the part's last. The folded booklet is the rules' pages
imposed two to a side, and is measured as those pages."""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from kitgen.render.pages import Part

pytestmark = pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler's pdftoppm renders the pages")

HALF = 0.5
EDGE = 0.06
"""The page's top and bottom share left out of the measure: running heads and folios."""
EACH_BOOKMARK = {"player-aids", "forms", "map-tiles"}
"""Parts whose every bookmark starts a part of its own."""


@cache
def kit(name: str, edition: str) -> tuple[Part, ...]:
    from kitgen.loader import load_scenario_map
    from kitgen.products.kit import build_parts, kit_builders

    scenario, hex_map = load_scenario_map(name)
    steps = list(kit_builders(scenario, hex_map, "a4", edition=edition, background=False))  # type: ignore[arg-type]
    return tuple(build_parts(steps))


def fills(pdf: bytes, tmp: Path) -> list[float]:
    """Each page's share of rows with ink, between its top and bottom edges' strips."""
    source = tmp / "part.pdf"
    source.write_bytes(pdf)
    for old in tmp.glob("p-*.pgm"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", "12", "-gray", str(source), str(tmp / "p")], check=True)
    out = []
    for path in sorted(tmp.glob("p-*.pgm"), key=lambda p: int(p.stem.rsplit("-", 1)[1])):
        magic, w, h, _, rest = path.read_bytes().split(maxsplit=4)
        assert magic == b"P5"
        image = np.frombuffer(rest[: int(w) * int(h)], dtype=np.uint8).reshape(int(h), int(w))
        body = image[int(len(image) * EDGE) : int(len(image) * (1 - EDGE))]
        out.append(float((body < 235).any(axis=1).mean()))
    return out


def last_pages(part: Part) -> set[int]:
    """The 0-based pages that end a part (`__doc__`)."""
    from kitgen.products.kit import label_of
    from kitgen.render.bookletstyle import booklet_style

    kind = label_of(part).lower().replace(" ", "-")
    starts = {0}
    if kind in EACH_BOOKMARK:
        starts |= {page for _, page in part.bookmarks}
    elif kind == "rules":
        starts |= {page for title, page in part.bookmarks if title in booklet_style().new_page}
    ends = {s - 1 for s in starts if s > 0} | {part.pages - 1}
    if kind == "counters":  # a sheet is its front; the last sheet is the part's last
        ends |= {part.pages - 2} | set(range(1, part.pages, 2))
    return ends


@pytest.mark.parametrize("edition", ["full", "compact"])
@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
def test_issue44_no_kit_page_but_a_parts_last_is_under_half_full(name: str, edition: str, tmp_path: Path) -> None:
    measured = 0
    for part in kit(name, edition):
        if part.file.startswith("rules-booklet") or part.pages < 2:
            continue  # the imposed booklet is the rules' pages; a one-page part is its own last
        ends = last_pages(part)
        for page, fill in enumerate(fills(part.pdf, tmp_path)):
            measured += 1
            if page not in ends:
                assert fill >= HALF, f"{part.file} page {page + 1} is {fill:.0%} full"
    assert measured > 20


def test_the_measure_sees_a_half_empty_page(tmp_path: Path) -> None:
    """The measure itself: a page with text in its top third is under half full; a page of text
    top to bottom is full."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    c = Canvas(out, pagesize=(595, 842))
    for y in range(800, 560, -12):
        c.drawString(72, y, "A line of the set-up")
    c.showPage()
    for y in range(800, 40, -12):
        c.drawString(72, y, "A line of the set-up")
    c.showPage()
    c.save()
    short, full = fills(out.getvalue(), tmp_path)
    assert short < 0.35 and full > 0.9
