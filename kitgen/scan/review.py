"""The review of a scan (`kitgen orders scan --review FILE`): each page read (an order form's, or
a report form's or roll sheet's, `Reviewed`), straightened, with what was read drawn over it,
for the umpire to check at a glance: a blue ring round each bubble read as marked, a thick
vermilion square round each one in doubt, a grey dashed ring round ink it saw and did not
count, and beside each row the path and orders read, or what is in doubt and why. Blue and
vermilion, rings and squares: told apart in grey and by colour-blind eyes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kitgen.errors import escape_controls
from kitgen.orders.sheetplan import PagePlan
from kitgen.scan.bubbles import Measure
from kitgen.scan.readback import SPECIAL_WORDS, Doubt, PageRead, RowRead

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

READ = (0.0, 0.35, 0.75)
"""Blue: what was read."""
DOUBT = (0.84, 0.27, 0.0)
"""Vermilion: what is in doubt."""
IGNORED_INK = (0.45, 0.45, 0.45)
"""Grey: ink the scan saw and did not count."""
IGNORED = {"overrun", "faint"}
"""Why ink round or in an empty bubble was not counted: a filled neighbour's overrun, a trace too faint."""
SHORT = {
    "marked": "two filled",
    "ring": "ringed",
    "ink": "not filled",
    "no ring": "off its place",
    "gap": "after an empty step",
    "hexes": "hexes but no step",
    "count": "hexes and steps differ",
    "toward": "a side for no such order",
}
"""What makes a part of a row doubtful, in the review's few words."""
PANEL = 150.0
"""Points beside the page for what was read of each row (the review is for the screen, not to print)."""


@dataclass(frozen=True)
class Reviewed:
    """A page as the review draws it: the scan straightened, each bubble's call, and beside each
    row (or block) what was read of it, or what is in doubt."""

    file: Path
    page: int
    title: str
    """What the page is: 'reds, form page 1 of 2'."""
    plan: PagePlan
    flat: object
    """The page straightened (a numpy array); None when it was not kept."""
    measures: tuple[Measure, ...]
    notes: tuple[tuple[float, float, str, bool], ...]
    """(top, bottom, what was read, in doubt) of each row or block, down the page."""


def order_page(read: PageRead) -> Reviewed:
    """An order form's page read, as the review draws it."""
    notes = tuple((rp.top, rp.bottom, *_said(row)) for rp, row in zip(read.plan.rows, read.rows, strict=True))
    title = f"{read.faction}, form page {read.code.page} of {read.code.pages}"
    return Reviewed(read.file, read.page, title, read.plan, read.flat, read.measures, notes)


def review_pdf(reads: Sequence[PageRead], others: Sequence[Reviewed] = ()) -> bytes:
    """One page per page read: the scan straightened, and what was read over it; the order
    forms' pages first (by faction and page), then the other forms' as given."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts
    from kitgen.scan.images import opencv

    cv2 = opencv()
    register_fonts()
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, invariant=1, pageCompression=1, initialFontName=SANS)  # type: ignore[arg-type]
    c.setTitle("kitgen orders scan: review")
    c.setAuthor("kitgen")
    ordered = sorted(reads, key=lambda r: (r.faction, r.code.page, str(r.file), r.page))
    for read in [*map(order_page, ordered), *others]:
        plan = read.plan
        w, h = plan.size
        c.setPageSize((w + PANEL, h))
        ok, jpeg = (
            cv2.imencode(".jpg", read.flat, [cv2.IMWRITE_JPEG_QUALITY, 80]) if read.flat is not None else (False, None)
        )
        if ok and jpeg is not None:
            c.drawImage(ImageReader(io.BytesIO(jpeg.tobytes())), 0, 0, w, h)
        r = plan.layout.bubble / 2
        for m in read.measures:
            x, y = m.bubble.x, m.bubble.y
            if m.call == "marked":
                c.setStrokeColorRGB(*READ)
                c.setLineWidth(1.4)
                c.circle(x, y, r + 1.6, stroke=1, fill=0)
            elif m.call == "doubt":
                c.setStrokeColorRGB(*DOUBT)
                c.setLineWidth(1.8)
                c.rect(x - r - 2.2, y - r - 2.2, 2 * r + 4.4, 2 * r + 4.4, stroke=1, fill=0)
            elif m.why in IGNORED:
                c.setStrokeColorRGB(*IGNORED_INK)
                c.setLineWidth(0.9)
                c.setDash(1.5, 1.5)
                c.circle(x, y, r + 1.6, stroke=1, fill=0)
                c.setDash()
        for top, bottom, text, doubt in read.notes:
            _say(c, w, top, text, doubt, SANS, SANS_BOLD)
            if doubt:
                c.setFillColorRGB(*DOUBT)
                c.rect(plan.left - 7, bottom, 4, top - bottom, stroke=0, fill=1)
        c.setFont(SANS_BOLD, 7.5)
        c.setFillColorRGB(*READ)
        c.drawString(w + 6, h - 24, "blue ring: read as filled")
        c.setFillColorRGB(*DOUBT)
        c.drawString(w + 6, h - 34, "vermilion square, bar: in doubt")
        c.setFillColorRGB(*IGNORED_INK)
        c.drawString(w + 6, h - 44, "grey dashes: ink not counted")
        c.setFillColorRGB(*READ)
        c.setFont(SANS_BOLD, 8)
        c.drawString(plan.left, h - 10, escape_controls(f"{read.file.name}, page {read.page}: {read.title}"))
        c.showPage()
    c.save()
    return buffer.getvalue()


def _said(row: RowRead) -> tuple[str, bool]:
    """What was read of an order form's row: the hexes its steps enter and its orders, or what is
    in doubt."""
    if row.doubts:
        where = [f"{f'step {d.step}' if d.part == 'step' else d.part} ({_why(d)})" for d in row.doubts]
        return "in doubt: " + ", ".join(dict.fromkeys(where)), True
    parts = [" ".join(row.hexes or ()) or "no move"]
    if row.special:
        parts.append(SPECIAL_WORDS.get(row.special, row.special) + (f" {row.toward}" if row.toward else ""))
    if row.carry:
        parts.append(f"takes {len(row.carry)}")
    return "; ".join(parts), False


def _why(doubt: Doubt) -> str:
    """Why a part of a row is in doubt, in a few words: its bubbles' state, or the doubt's kind."""
    if doubt.kind != "marks":
        return SHORT[doubt.kind]
    seen = [said for _, said in doubt.bubbles if said != "empty"]
    odd = [said for said in seen if said != "marked"]
    return SHORT.get(odd[0] if odd else "marked", "unclear")


def _say(c: Canvas, x: float, top: float, text: str, doubt: bool, sans: str, bold: str) -> None:
    """What was read of a row, in the panel beside it."""
    from reportlab.lib.utils import simpleSplit

    size = 7.5
    font = bold if doubt else sans
    c.setFillColorRGB(*(DOUBT if doubt else READ))
    c.setFont(font, size)
    for k, line in enumerate(simpleSplit(text, font, size, PANEL - 10)[:6]):
        c.drawString(x + 6, top - size * (1.3 * k + 1.1), line)


def write_review(path: Path, reads: Sequence[PageRead], others: Sequence[Reviewed] = ()) -> None:
    from kitgen.outputs import write_out

    write_out(path, review_pdf(reads, others))
