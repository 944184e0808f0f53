"""The layout gate (issue 24): what a printed page must never show, read back from the PDF.

A page fails on type below the minimums (text 7 pt, hex ids 5 pt, counters 5 pt, and the least
an area declares for itself: a card's foot strip, 5 pt), text over
other text or across a counter's edge, text off its page, a word broken inside a table cell, an
unembedded font, or a warning of qpdf's check (`qpdf --check`, through pikepdf). The text is
read with PyMuPDF, span by span, each span's box cut to its glyphs' height; two spans clash when
they share more than 0.8 pt across and 30% of the smaller type's size in height (a few letters
overprinted is a clash, however small a part of a long line); overlaps are found with one
shapely STRtree query a page, not by pairs."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MIN_TEXT = 7.0
MIN_HEX_ID = 5.0
MIN_COUNTER = 5.0
HEX_ID = re.compile(r"^\d{4}$")
WORD = re.compile(r"[A-Za-z]+")
CLASH_X = 0.8
"""Points two spans may share across (a kerned join) before they clash ..."""
CLASH_Y = 0.3
"""... when they also share this part of the smaller type's size in height."""
OVERLAP = 0.15
"""A span clashes with a counter's edge when more than this part of its area lies across it."""
EDGE = 0.5
"""Points a span may stand past the page's edge (rounding)."""

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in points, y down (PyMuPDF's page space)."""


@dataclass(frozen=True)
class Breach:
    """One thing the gate refuses: the page (from 1), what kind, and where."""

    page: int
    kind: str
    """small_type, overlap, over_counter, off_page, broken_word, unembedded_font or qpdf."""
    detail: str

    def __str__(self) -> str:
        return f"page {self.page}: {self.kind}: {self.detail}"


@dataclass(frozen=True)
class Area:
    """A part of a page with its own least type size (issue 25: a card's foot strip, 5 pt)."""

    box: Box
    least: float
    what: str


@dataclass(frozen=True)
class Span:
    text: str
    size: float
    box: Box
    line: tuple[int, int]
    """(block, line) on its page: spans of one line never clash with each other."""
    whole: str = ""
    """Its text whole, where a clipping path (a map's window) cuts it."""


def breaches(
    pdf: bytes | Path,
    *,
    counters: Mapping[int, Sequence[Box]] | None = None,
    areas: Mapping[int, Sequence[Area]] | None = None,
    counter_least: float = MIN_COUNTER,
) -> list[Breach]:
    """Every breach of the gate in the PDF; `counters` gives, page by page (from 1), the boxes of
    the counters drawn there (their text at `counter_least` at least: 4.5 pt on half-inch
    counters), and `areas` the parts with a least type size of their own, in PyMuPDF's page space."""
    import pymupdf

    data = pdf.read_bytes() if isinstance(pdf, Path) else pdf
    found: list[Breach] = []
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        texts = [_text(page) for page in doc]  # read once a page: the reading is most of the gate's time
        pages = [_spans(page, text) for page, text in zip(doc, texts, strict=True)]
        vocabulary = {w.lower() for spans in pages for s in spans for w in WORD.findall(s.text) if len(w) > 1}
        for number, (page, spans, text) in enumerate(zip(doc, pages, texts, strict=True), 1):
            boxes = list((counters or {}).get(number, ()))
            found += _small_type(number, spans, boxes, (areas or {}).get(number, ()), counter_least)
            found += _overlaps(number, spans, boxes)
            found += _off_page(number, spans, (page.rect.x0, page.rect.y0, page.rect.x1, page.rect.y1))
            found += _broken_words(number, text, vocabulary)
    found += fonts_unembedded(data)
    found += qpdf_problems(data)
    return found


def assert_passes(
    pdf: bytes | Path,
    *,
    counters: Mapping[int, Sequence[Box]] | None = None,
    areas: Mapping[int, Sequence[Area]] | None = None,
    name: str = "",
    counter_least: float = MIN_COUNTER,
) -> None:
    """Fail with the first breaches if the PDF does not pass the gate."""
    found = breaches(pdf, counters=counters, areas=areas, counter_least=counter_least)
    if found:
        shown = "\n  ".join(str(b) for b in found[:25])
        more = f"\n  ... and {len(found) - 25} more" if len(found) > 25 else ""
        raise AssertionError(f"{name or 'the PDF'} fails the layout gate ({len(found)}):\n  {shown}{more}")


def _text(page: Any, *, clipped: bool = True) -> dict[str, Any]:
    """The page's text as PyMuPDF reads it: none that a clipping path hides (or, not `clipped`,
    all of it), but text beyond the page's edge included."""
    import pymupdf

    flags = pymupdf.TEXTFLAGS_DICT & ~pymupdf.TEXT_MEDIABOX_CLIP
    if clipped:
        flags |= pymupdf.TEXT_CLIP  # clipped text is not printed
    found: dict[str, Any] = page.get_text("dict", flags=flags, clip=pymupdf.INFINITE_RECT())
    return found


def _whole(page: Any) -> list[tuple[Box, str]]:
    """Every span's box and whole text, clipped or not: what a span cut by a map's window is a
    part of (a hex id cut at a tile's edge is a hex id)."""
    found = []
    for block in _text(page, clipped=False)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                found.append((tuple(span["bbox"]), span["text"].strip()))
    return found


def _part_of(text: str, box: Box, whole: list[tuple[Box, str]]) -> str:
    """The whole text of the span a cut one (`text` in `box`) was cut from."""
    for (x0, y0, x1, _), full in whole:
        if text in full and x0 - 0.5 <= box[0] and box[2] <= x1 + 0.5 and abs(y0 - box[1]) < 0.5:
            return full
    return text


def _spans(page: Any, read: dict[str, Any]) -> list[Span]:
    """The page's text spans (`read` is its `_text`), each box cut to its glyphs: from the
    baseline up by the cap height and down by the descent, so that lines set close do not count
    as clashing."""
    spans = []
    whole: list[tuple[Box, str]] | None = None  # read only for a page with a number a window may cut
    for b, block in enumerate(read["blocks"]):
        for n, line in enumerate(block.get("lines", ())):
            horizontal = abs(line["dir"][1]) < 1e-3
            for span in line["spans"]:
                text = span["text"]
                if not text.strip():
                    continue
                x0, y0, x1, y1 = span["bbox"]
                if horizontal:
                    base = span["origin"][1]
                    y0, y1 = base - 0.72 * span["size"], base + 0.18 * span["size"]
                    lead, trail = len(text) - len(text.lstrip()), len(text) - len(text.rstrip())
                    width = (x1 - x0) / max(len(text), 1)
                    x0, x1 = x0 + lead * width, x1 - trail * width
                short = text.strip()
                full = short
                if short.isdigit() and len(short) < 4:
                    whole = _whole(page) if whole is None else whole
                    full = _part_of(short, tuple(span["bbox"]), whole)
                spans.append(Span(short, float(span["size"]), (x0, y0, x1, y1), (b, n), full))
    return spans


def _small_type(
    page: int, spans: Iterable[Span], counters: Sequence[Box], areas: Sequence[Area], counter_least: float
) -> list[Breach]:
    found = []
    for s in spans:
        area = next((a for a in areas if _inside(s.box, a.box)), None)
        if any(_inside(s.box, c) for c in counters):
            least, what = counter_least, "counter text"
        elif area is not None:
            least, what = area.least, area.what
        elif HEX_ID.match(s.text) or HEX_ID.match(s.whole) and s.text in s.whole:
            least, what = MIN_HEX_ID, "a hex id"
        else:
            least, what = MIN_TEXT, "text"
        if s.size < least - 0.05:
            found.append(Breach(page, "small_type", f"{what} {s.text[:40]!r} at {s.size:.1f} pt, below {least:g} pt"))
    return found


def _overlaps(page: int, spans: Sequence[Span], counters: Sequence[Box]) -> list[Breach]:
    import numpy as np
    import shapely

    if not spans:
        return []
    boxes = shapely.box(*np.array([s.box for s in spans]).T)
    tree = shapely.STRtree(boxes)
    left, right = tree.query(boxes, predicate="intersects")
    found = []
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        if i >= j or spans[i].line == spans[j].line or _halo(spans[i], spans[j]):
            continue
        a, b = spans[i], spans[j]
        across = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
        high = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
        if across > CLASH_X and high > CLASH_Y * min(a.size, b.size):
            found.append(Breach(page, "overlap", f"{a.text[:30]!r} over {b.text[:30]!r}"))
    for c in counters:
        edge = shapely.box(*c)
        for k in tree.query(edge, predicate="intersects").tolist():
            if not _inside(spans[k].box, c) and boxes[k].intersection(edge).area > OVERLAP * boxes[k].area:
                found.append(Breach(page, "over_counter", f"{spans[k].text[:30]!r} across a counter's edge"))
    return found


def _off_page(page: int, spans: Iterable[Span], rect: Box) -> list[Breach]:
    x0, y0, x1, y1 = rect
    return [
        Breach(page, "off_page", f"{s.text[:40]!r} runs off the page")
        for s in spans
        if s.box[0] < x0 - EDGE or s.box[1] < y0 - EDGE or s.box[2] > x1 + EDGE or s.box[3] > y1 + EDGE
    ]


def _broken_words(page: int, text: dict[str, Any], vocabulary: set[str]) -> list[Breach]:
    """A word wrapped inside a narrow box (`text` is the page's `_text`): a line of a few letters
    under a line whose last word, joined to it, makes a word the document uses ('Mars' over 'h',
    'M' over 'P')."""
    found = []
    for block in text["blocks"]:
        lines = [("".join(s["text"] for s in line["spans"]).strip(), line["bbox"]) for line in block.get("lines", ())]
        for (above, upper), (below, lower) in zip(lines, lines[1:], strict=False):
            if not (below.isalpha() and len(below) <= 3 and above and above[-1].isalpha()):
                continue
            last = above.split()[-1]
            head = WORD.findall(last)
            joined = (head[-1] if head else last) + below
            same_column = abs(lower[0] - upper[0]) < 2.0 or lower[0] >= upper[0] - 2.0 and lower[2] <= upper[2] + 2.0
            if joined.lower() in vocabulary and same_column and lower[1] >= upper[1]:
                found.append(Breach(page, "broken_word", f"{last!r} / {below!r} (the word {joined!r} broken)"))
    return found


def fonts_unembedded(data: bytes) -> list[Breach]:
    """Every font the file uses, embedded: a simple font has a font file in its descriptor; a
    composite one, in its descendant's; Type 3 fonts are drawn, not embedded. A font is used if
    anything from the file's trailer leads to it (an incremental update leaves the objects it
    replaced behind, used by nothing)."""
    import pikepdf

    found = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        seen: set[str] = set()
        for obj in _reachable(pdf):
            if not isinstance(obj, pikepdf.Dictionary) or obj.get("/Type") != pikepdf.Name.Font:
                continue
            subtype = str(obj.get("/Subtype", ""))
            if subtype in ("/Type3", "/Type0"):
                continue  # a Type 0 font is checked through its descendant, which is listed too
            descriptor = obj.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            name = str(obj.get("/BaseFont", "?"))
            if not embedded and name not in seen:
                seen.add(name)
                found.append(Breach(0, "unembedded_font", f"{name} ({subtype[1:]}) is not embedded"))
    return found


def _reachable(pdf: Any) -> list[Any]:
    """Every indirect object the trailer leads to, each once."""
    import pikepdf

    found, seen = [], set()
    stack: list[Any] = [pdf.trailer]
    while stack:
        obj = stack.pop()
        if isinstance(obj, pikepdf.Object) and obj.is_indirect:
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            found.append(obj)
        if isinstance(obj, pikepdf.Stream):
            stack.extend(obj.stream_dict.values())
        elif isinstance(obj, pikepdf.Dictionary):
            stack.extend(obj.values())
        elif isinstance(obj, pikepdf.Array):
            stack.extend(obj)
    return found


def qpdf_problems(data: bytes) -> list[Breach]:
    """qpdf's check (`qpdf --check`), as pikepdf runs it step by step."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        problems = pdf.check_pdf_syntax()
    return [Breach(0, "qpdf", p) for p in problems]


def _halo(a: Span, b: Span) -> bool:
    """The same words set twice in one place: a label over its own halo (a white outline)."""
    return a.text == b.text and all(abs(p - q) < 0.5 for p, q in zip(a.box, b.box, strict=True))


def _inside(box: Box, outer: Box, slack: float = 0.5) -> bool:
    return (
        box[0] >= outer[0] - slack
        and box[1] >= outer[1] - slack
        and box[2] <= outer[2] + slack
        and box[3] <= outer[3] + slack
    )
