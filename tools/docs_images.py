"""Render the manual's pictures of printed pages into docs/images/ (`make docs-images`).

A build-time tool: it writes the kit, the sample campaign's week and its chronicle into a
temporary folder with the installed `kitgen`, then renders the pages the manual shows, each
found by its bookmark, with poppler's `pdftoppm`. The PNGs are committed, so the manual and the
README show them without building anything; run this again when a page's look changes.

Usage: python tools/docs_images.py [DOCS_DIR]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pypdf import PdfReader

DPI = 60
"""Pages at a size a manual shows them: an A4 page is about 500 pixels wide."""

# name -> (the PDF under the temporary folder, the page's bookmark or its number from 1)
PAGES: dict[str, tuple[str, str | int]] = {
    "packet-forces": ("week/reds-turn-07-a4.pdf", "Reds, turn 7 (1 of 4)"),
    "packet-what-happened": ("week/reds-turn-07-a4.pdf", "Reds, turn 7 (2 of 4)"),
    "packet-reach": ("week/reds-turn-07-a4.pdf", "Reds, turn 7 (3 of 4)"),
    "packet-whole-map": ("week/reds-turn-07-a4.pdf", "Reds: the whole map"),
    "packet-sector": ("week/reds-turn-07-a4.pdf", "Map sector C3"),
    "order-form": ("week/reds-turn-07-a4.pdf", "Order form: Reds, turn 7 (1 of 5)"),
    "umpire-checklist": ("week/umpire-turn-07-a4.pdf", "Turn 7: the checklist"),
    "umpire-roster": ("week/umpire-turn-07-a4.pdf", "Roster, turn 7 (1 of 4)"),
    "umpire-master-map": ("week/umpire-turn-07-a4.pdf", "Master map: the whole map"),
    "umpire-supply": ("week/umpire-turn-07-a4.pdf", "Supply: Reds"),
    "umpire-roll-sheet": ("week/umpire-turn-07-a4.pdf", "Roll sheet, turn 7 (1 of 3)"),
    "umpire-contacts": ("week/umpire-turn-07-a4.pdf", "Contacts, turn 7"),
    "kit-counters": ("kit/counters-a4.pdf", 1),
    "kit-cards": ("kit/cards-a4.pdf", 1),
    "kit-player-aid": ("kit/player-aids-a4.pdf", 1),
    "kit-rules": ("kit/rules-a4.pdf", 3),
    "chronicle-turn": ("chronicle.pdf", "Turn 1: what happened"),
}
MAP_WHOLE_DPI = 14
"""The whole poster (about 120 x 95 cm) at a width a page shows."""
MAP_DETAIL = (100, 1900, 1000, 1100, 700)
"""The poster's detail: dpi, then x, y, width and height in pixels at that dpi (the Donbass)."""


def main(docs: Path) -> None:
    images = docs / "images"
    images.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        kitgen = shutil.which("kitgen") or str(Path(sys.executable).with_name("kitgen"))
        run = [kitgen]
        subprocess.run([*run, "samples", str(work / "camp")], check=True, capture_output=True)
        subprocess.run([*run, "kit", "--out", str(work / "kit")], check=True, capture_output=True)
        subprocess.run([*run, "turn", str(work / "camp"), "--out", str(work / "week")], check=True, capture_output=True)
        subprocess.run(
            [*run, "chronicle", str(work / "camp"), "--out", str(work / "chronicle.pdf")],
            check=True,
            capture_output=True,
        )
        for name, (pdf, page) in PAGES.items():
            number = page if isinstance(page, int) else _page_of(work / pdf, page)
            _render(work / pdf, number, DPI, images / name)
        _render(work / "kit" / "map-poster.pdf", 1, MAP_WHOLE_DPI, images / "kit-map")
        dpi, x, y, w, h = MAP_DETAIL
        _render(work / "kit" / "map-poster.pdf", 1, dpi, images / "kit-map-detail", crop=(x, y, w, h))


def _page_of(pdf: Path, title: str) -> int:
    reader = PdfReader(pdf)
    for item in reader.outline:
        if not isinstance(item, list) and str(item.title) == title:
            return reader.get_destination_page_number(item) + 1
    raise SystemExit(f"{pdf.name}: no page has the bookmark {title!r}")


def _render(pdf: Path, page: int, dpi: int, out: Path, crop: tuple[int, int, int, int] | None = None) -> None:
    args = ["pdftoppm", "-png", "-singlefile", "-r", str(dpi), "-f", str(page), "-l", str(page)]
    if crop:
        x, y, w, h = crop
        args += ["-x", str(x), "-y", str(y), "-W", str(w), "-H", str(h)]
    subprocess.run([*args, str(pdf), str(out)], check=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs")
