"""The review of a scan (`kitgen orders scan --review FILE`): each page read, straightened, with
what was read drawn over it, for the umpire to check at a glance: a blue ring round each bubble
read as marked, a thick vermilion square round each one in doubt, and beside each row the path
and orders read, or what is in doubt. Blue and vermilion, rings and squares: told apart in
grey and by colour-blind eyes."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kitgen.errors import escape_controls
from kitgen.scan.readback import SPECIAL_WORDS, PageRead, RowRead

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

READ = (0.0, 0.35, 0.75)
"""Blue: what was read."""
DOUBT = (0.84, 0.27, 0.0)
"""Vermilion: what is in doubt."""
PANEL = 150.0
"""Points beside the page for what was read of each row (the review is for the screen, not to print)."""


def review_pdf(reads: Sequence[PageRead]) -> bytes:
    """One page per page read: the scan straightened, and what was read over it."""
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
    for read in sorted(reads, key=lambda r: (r.faction, r.code.page, str(r.file), r.page)):
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
        for rp, row in zip(plan.rows, read.rows, strict=True):
            _say(c, w, rp.top, row, SANS, SANS_BOLD)
            if row.doubts:
                c.setFillColorRGB(*DOUBT)
                c.rect(plan.left - 7, rp.bottom, 4, rp.top - rp.bottom, stroke=0, fill=1)
        c.setFont(SANS_BOLD, 7.5)
        c.setFillColorRGB(*READ)
        c.drawString(w + 6, h - 24, "blue ring: read as filled")
        c.setFillColorRGB(*DOUBT)
        c.drawString(w + 6, h - 34, "vermilion square, bar: in doubt")
        c.setFillColorRGB(*READ)
        c.setFont(SANS_BOLD, 8)
        said = f"{read.file.name}, page {read.page}: {read.faction}, form page {read.code.page} of {read.code.pages}"
        c.drawString(plan.left, h - 10, escape_controls(said))
        c.showPage()
    c.save()
    return buffer.getvalue()


def _say(c: Canvas, x: float, top: float, row: RowRead, sans: str, bold: str) -> None:
    """What was read of a row, in the panel beside it: the hexes its steps enter and its
    orders, or what is in doubt."""
    if row.doubts:
        where = [f"step {d.step}" if d.part == "step" else d.part for d in row.doubts]
        text, colour, font = "in doubt: " + ", ".join(dict.fromkeys(where)), DOUBT, bold
    else:
        parts = [" ".join(row.hexes or ()) or "no move"]
        if row.special:
            parts.append(SPECIAL_WORDS.get(row.special, row.special) + (f" {row.toward}" if row.toward else ""))
        if row.carry:
            parts.append(f"takes {len(row.carry)}")
        text, colour, font = "; ".join(parts), READ, sans
    from reportlab.lib.utils import simpleSplit

    size = 7.5
    c.setFillColorRGB(*colour)
    c.setFont(font, size)
    for k, line in enumerate(simpleSplit(text, font, size, PANEL - 10)[:6]):
        c.drawString(x + 6, top - size * (1.3 * k + 1.1), line)


def write_review(path: Path, reads: Sequence[PageRead]) -> None:
    from kitgen.outputs import write_out

    write_out(path, review_pdf(reads))
