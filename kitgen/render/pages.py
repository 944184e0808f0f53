"""What every printed part of the kit shares: paper sizes, a deterministic canvas with the kit's
metadata and fonts, crop marks, and the faction marks that stand beside colour (never colour
alone, for grayscale printing and colour-blind players)."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts

if TYPE_CHECKING:
    from pypdf import PdfReader, PdfWriter
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.scenario import Scenario

MM = 72 / 25.4
"""Points per millimetre."""

PAPER: dict[str, tuple[float, float]] = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}
"""Portrait page sizes in points, exact: A4 is 595.28 x 841.89, US Letter 612 x 792."""

HALF: dict[str, tuple[float, float]] = {"a4": (148 * MM, 210 * MM), "letter": (396.0, 612.0)}
"""The booklet's page, half the sheet: A5 and half-letter (5.5 x 8.5 in)."""

PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}


def landscape(size: tuple[float, float]) -> tuple[float, float]:
    return (max(size), min(size))


@dataclass(frozen=True)
class Part:
    """One printed part of the kit, as the kit command writes and lists it."""

    file: str
    """File name in the output folder, e.g. 'counters-a4.pdf'."""
    title: str
    purpose: str
    """What it is for, in a line: the kit's summary and the contents page print it."""
    pdf: bytes
    pages: int
    bookmarks: tuple[tuple[str, int], ...] = ()
    """(title, 0-based page) within the part, for the combined kit's outline."""
    duplex: bool = False
    """Printed on both sides, fronts on odd pages: it goes in the combined kit's two-sided file, on a right-hand page."""
    in_kit: bool = True
    """Joined into the combined kit (not the poster, nor a second imposition of the same pages)."""
    fields: tuple[Any, ...] = ()
    """Its form's fields (`kitgen.render.formfields.Field`), to write into its PDF once made."""


def new_canvas(target: io.BytesIO, size: tuple[float, float], scenario: Scenario, what: str) -> Canvas:
    """A canvas in reportlab's invariant mode (no dates or random ids: byte-identical reruns),
    compressed, with title, author, subject and the kit's fonts registered."""
    from reportlab.pdfgen import canvas

    register_fonts()
    c = canvas.Canvas(target, pagesize=size, invariant=1, pageCompression=1, initialFontName=SANS)  # type: ignore[arg-type]
    set_page(c, size)
    output_intent(c)
    c.setTitle(f"{scenario.meta.title}: {what}")
    c.setAuthor("kitgen")
    c.setSubject(scenario.meta.subtitle)
    from kitgen.buildinfo import stamp

    stamp(c)  # dated at the build, its edition in the creator
    return c


OUTPUT_CONDITION = "sRGB IEC61966-2.1"
"""What the kit's colours are: every fill and stroke is sRGB (DeviceRGB in the file)."""


@cache
def srgb_profile() -> bytes:
    """The sRGB ICC profile every part carries as its output intent (made by littleCMS, dated
    2026-01-01 so that its bytes never change); read once a process, for every canvas."""
    from importlib.resources import files

    return files("kitgen.render").joinpath("srgb.icc").read_bytes()


def output_intent(c: Canvas) -> None:
    """Declare the colours sRGB: an /OutputIntents entry with the sRGB profile, which a print
    shop's RIP reads to convert the RGB art to its press. (Not a PDF/X claim: that needs a press
    profile, and the file says no GTS_PDFXVersion.)"""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFStream, PDFString

    catalog = c._doc.Catalog  # type: ignore[attr-defined]
    if getattr(catalog, "OutputIntents", None) is not None:
        return
    profile = PDFStream(PDFDictionary({"N": 3}), srgb_profile())
    intent = PDFDictionary(
        {
            "Type": PDFName("OutputIntent"),
            "S": PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": PDFString(OUTPUT_CONDITION),
            "Info": PDFString(OUTPUT_CONDITION),
            "RegistryName": PDFString("http://www.color.org"),
            "DestOutputProfile": c._doc.Reference(profile),  # type: ignore[attr-defined]
        }
    )
    # reportlab writes only the catalog keys it knows: this catalog knows one more
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]
    c.setCatalogEntry("OutputIntents", PDFArray([intent]))


def copy_output_intent(source: PdfReader, writer: PdfWriter) -> None:
    """A PDF made from another's pages keeps its output intent (pypdf copies pages, not the catalog)."""
    from pypdf.generic import DictionaryObject, NameObject

    root = source.trailer["/Root"]
    intents = root.get("/OutputIntents") if isinstance(root, DictionaryObject) else None
    if intents is not None:
        writer._root_object[NameObject("/OutputIntents")] = intents.clone(writer)


def set_page(c: Canvas, size: tuple[float, float]) -> None:
    """The pages from here on are `size`, and declare where they are trimmed and how far they
    bleed: the page itself, for parts printed and cut by hand (a print shop's poster sets its
    own boxes page by page)."""
    c.setPageSize(size)
    c.setTrimBox((0, 0, *size))
    c.setBleedBox((0, 0, *size))


def uncut(page: Any) -> Any:
    """A page pypdf made (a blank, an imposed sheet) declared printed whole and trimmed nowhere:
    its trim and bleed boxes are the page."""
    page.trimbox = page.mediabox
    page.bleedbox = page.mediabox
    return page


def declare_cut(
    c: Canvas, trims: Sequence[tuple[float, float, float, float]], bleeds: Sequence[tuple[float, float, float, float]]
) -> None:
    """This page's print boxes for a sheet of pieces cut from it (cards, counters, a map tile):
    the trim round every piece's cut, the bleed round every piece's bleed (x0, y0, x1, y1 each,
    within the page)."""
    c.setTrimBox(_round_box(_union(trims)))
    c.setBleedBox(_round_box(_union([*trims, *bleeds])))


def _union(boxes: Sequence[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _round_box(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return (round(box[0], 3), round(box[1], 3), round(box[2], 3), round(box[3], 3))


def crop_marks(
    c: Canvas, x: float, y: float, w: float, h: float, *, bleed: float = 3 * MM, length: float = 5 * MM
) -> None:
    """Crop marks at the four corners of the trim box (x, y, w, h): short hairlines on the trim
    lines, starting `bleed` outside the box so they never print on the piece."""
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.25)
    for cx, sx in ((x, -1), (x + w, 1)):
        for cy, sy in ((y, -1), (y + h, 1)):
            c.line(cx + sx * bleed, cy, cx + sx * (bleed + length), cy)
            c.line(cx, cy + sy * bleed, cx, cy + sy * (bleed + length))
    c.restoreState()


def hex_colour(value: str) -> tuple[float, float, float]:
    v = value.lstrip("#")
    return (int(v[0:2], 16) / 255, int(v[2:4], 16) / 255, int(v[4:6], 16) / 255)


def rgb_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG 2 relative luminance of an RGB triple (0-1 channels), 0 (black) to 1 (white)."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a '#RRGGBB' colour."""
    return rgb_luminance(hex_colour(colour))


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21 (7 is AAA for small type)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ink_on(fill: str) -> tuple[float, float, float]:
    """Black or white, whichever reads better on `fill` (WCAG relative luminance)."""
    return (0.0, 0.0, 0.0) if luminance(fill) > 0.22 else (1.0, 1.0, 1.0)


def faction_mark(c: Canvas, faction: str, cx: float, cy: float, size: float) -> None:
    """The faction's mark, centred on (cx, cy), `size` across, in the current fill colour:
    Reds a five-pointed star, Whites a cross, Ukrainians a trident, Makhnovists a flag,
    any other faction its initial."""
    r = size / 2
    p = c.beginPath()
    if faction == "reds":
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.4
            a = math.pi / 2 + k * math.pi / 5
            (p.moveTo if k == 0 else p.lineTo)(cx + radius * math.cos(a), cy + radius * math.sin(a))
        p.close()
    elif faction == "whites":
        t = size * 0.22
        p.rect(cx - t / 2, cy - r, t, size)
        p.rect(cx - r, cy - t / 2 + r * 0.25, size, t)
    elif faction == "ukrainians":
        t = size * 0.13
        p.rect(cx - t / 2, cy - r, t, size)  # the shaft
        p.rect(cx - r * 0.8, cy - r * 0.35, r * 1.6, t)  # the cross-bar
        p.rect(cx - r * 0.8, cy - r * 0.35, t, r * 1.2)  # the outer tines
        p.rect(cx + r * 0.8 - t, cy - r * 0.35, t, r * 1.2)
    elif faction == "makhnovists":
        t = size * 0.1
        p.rect(cx - r * 0.7, cy - r, t, size)  # the staff
        p.moveTo(cx - r * 0.7 + t, cy + r)
        p.lineTo(cx + r, cy + r * 0.55)
        p.lineTo(cx - r * 0.7 + t, cy + r * 0.1)
        p.close()
    else:
        c.setFont(SANS_BOLD, size)
        c.drawCentredString(cx, cy - size * 0.36, faction[:1].upper())
        return
    c.drawPath(p, stroke=0, fill=1, fillMode=1)  # non-zero winding: overlapping bars stay solid


def diamond(c: Canvas, cx: float, cy: float, r: float, *, stroke: bool = False) -> None:
    """A square on its point, `r` from the centre to each corner, filled in the fill colour and,
    with `stroke`, outlined in the stroke colour: a card's bullet and divider, a ruling's mark."""
    p = c.beginPath()
    p.moveTo(cx, cy + r)
    p.lineTo(cx + r, cy)
    p.lineTo(cx, cy - r)
    p.lineTo(cx - r, cy)
    p.close()
    c.drawPath(p, stroke=int(stroke), fill=1)


def faction_chip(c: Canvas, faction: str, colour: str, x: float, y: float, size: float, *, line: float = 1.0) -> None:
    """A square in the faction's colour, ringed dark, with the faction's mark in the ink that
    reads on it: a unit's place on the map, a faction on a cover or contents page."""
    c.saveState()
    c.setFillColorRGB(*hex_colour(colour))
    c.setStrokeColorRGB(0.12, 0.12, 0.12)
    c.setLineWidth(line)
    c.rect(x, y, size, size, stroke=1, fill=1)
    c.setFillColorRGB(*ink_on(colour))
    faction_mark(c, faction, x + size / 2, y + size / 2, size * 0.7)
    c.restoreState()
