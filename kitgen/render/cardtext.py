"""A card's text block, set with reportlab's platypus: paragraphs of runs in several fonts (each
with its drawn bullet), short dividers, and rows of stand tokens (a NATO-style symbol and '3
infantry'), shrunk together until they fit the card's text box.

A card's text is data (Para, Divider, Tokens); `fit` finds the largest scale at which it fits and
`draw_block` puts it on the canvas. Paragraph breaking is platypus's; only the stand tokens and
the bullets, which are drawn symbols, are laid out here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from reportlab.platypus import Flowable

from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.pages import diamond
from kitgen.render.wording import typographic

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

RGB = tuple[float, float, float]
Run = tuple[str, str]
"""(text, font)."""
Bullet = Callable[["Canvas", float, float, float], None]
"""Draws a paragraph's bullet: canvas, centre x, centre y, type size."""

TOKEN_W, TOKEN_H = 1.75, 1.15
"""A stand symbol's frame, in type sizes."""
STEP = 0.025
"""The scale's step, from 1 down to the smallest allowed."""


class CardOverflow(ValueError):
    """A card's text does not fit its card even at the smallest type the layout allows."""


@dataclass(frozen=True)
class Para:
    """A paragraph of runs, wrapped to the block's width; sizes scale with the block."""

    runs: tuple[Run, ...]
    size: float
    colour: RGB
    centre: bool = False
    bullet: Bullet | None = None
    space_before: float = 0.0
    """In units of the type size."""
    leading: float = 1.22


@dataclass(frozen=True)
class Divider:
    """A short rule between paragraphs, `height` type sizes tall (of `size`)."""

    size: float
    colour: RGB
    height: float = 1.3


@dataclass(frozen=True)
class Tokens:
    """Stand tokens, wrapping in rows: a NATO-style symbol and '3 infantry' for each kind."""

    stands: tuple[tuple[str, str], ...]
    """(stand kind, label)."""
    size: float
    fill: RGB
    ink: RGB
    colour: RGB
    """Of the labels."""
    indent: float = 0.0
    """In type sizes: lines the row up under a bulleted line's text."""


Item = Para | Divider | Tokens


# --- the flowables -------------------------------------------------------------------------------


class _Paragraph(Flowable):
    """A Para at a scale: platypus's Paragraph, indented for its bullet, the bullet drawn on its
    first line."""

    def __init__(self, item: Para, scale: float, floor: float) -> None:
        from xml.sax.saxutils import escape

        from reportlab.lib import colors
        from reportlab.lib.enums import TA_CENTER, TA_LEFT
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import Paragraph

        super().__init__()
        self.item, self.size = item, max(item.size * scale, floor)
        self.indent = self.size * 1.6 if item.bullet else 0.0
        self.spaceBefore = item.space_before * self.size
        style = ParagraphStyle(
            "card",
            fontName=SANS,
            fontSize=self.size,
            leading=self.size * item.leading,
            textColor=colors.Color(*item.colour),
            alignment=TA_CENTER if item.centre else TA_LEFT,
            leftIndent=self.indent,
            spaceShrinkage=0,  # a line never runs past the block by squeezing its spaces
            splitLongWords=False,  # a word too long for the block shrinks the block instead
        )
        # words of neighbouring runs stand a space apart, as in running text
        text = " ".join(
            f'<font name="{font}">{typographic(escape(run.strip()))}</font>' for run, font in item.runs if run.strip()
        )
        self.para = Paragraph(text, style)
        self.fits = True

    def wrap(self, width: float, height: float) -> tuple[float, float]:
        w, h = self.para.wrap(width, height)
        widths = self.para.getActualLineWidths0()
        self.fits = not widths or max(widths) <= width + 0.01  # no word wider than the block (indent counted)
        self.width, self.height = width, h
        return w, h

    def draw(self) -> None:
        self.para.drawOn(self.canv, 0, 0)
        if self.item.bullet:  # on the first baseline, which platypus sets one type size under the top
            base = self.height - self.size
            self.item.bullet(self.canv, self.size * 0.55, base + self.size * 0.34, self.size)


class _Divider(Flowable):
    def __init__(self, item: Divider, scale: float, floor: float) -> None:
        super().__init__()
        self.item = item
        self.h = item.height * item.size * scale
        self.fits = True

    def wrap(self, width: float, height: float) -> tuple[float, float]:
        self.width, self.height = width, self.h
        return width, self.h

    def draw(self) -> None:
        divider(self.canv, self.width / 2, self.h / 2, self.width * 0.32, self.item.colour)


class _Tokens(Flowable):
    """Stand tokens in rows that wrap at the block's width."""

    def __init__(self, item: Tokens, scale: float, floor: float) -> None:
        super().__init__()
        self.item, self.size = item, max(item.size * scale, floor)
        self.placed: list[tuple[str, str, float, float]] = []
        """(kind, label, x, top) from the flowable's top-left."""
        self.fits = True

    def wrap(self, width: float, height: float) -> tuple[float, float]:
        size = self.size
        left = self.item.indent * size
        x, y = left, size * 0.25
        row_h = size * (TOKEN_H + 0.55)
        self.placed, self.fits = [], True
        for kind, label in self.item.stands:
            w = size * (TOKEN_W + 0.45) + text_width(label, SANS, size)
            if x > left and x + w > width:
                x, y = left, y + row_h
            if left + w > width + 0.01:
                self.fits = False
            self.placed.append((kind, label, x, y))
            x += w + size * 1.1
        self.width, self.height = width, y + row_h
        return width, self.height

    def draw(self) -> None:
        c, item, size = self.canv, self.item, self.size
        w, h = size * TOKEN_W, size * TOKEN_H
        for kind, label, x, top in self.placed:
            sy = self.height - top - h
            stand_symbol(c, kind, x, sy, w, h, fill=item.fill, ink=item.ink)
            c.setFillColorRGB(*item.colour)
            c.setFont(SANS, size)
            c.drawString(x + w + size * 0.45, sy + h / 2 - size * 0.36, label)


FLOWABLES: dict[type, Any] = {Para: _Paragraph, Divider: _Divider, Tokens: _Tokens}


@dataclass(frozen=True)
class Laid:
    """A text block set at one scale: its flowables, each wrapped to the width, and its height."""

    flowables: tuple[Any, ...]
    width: float
    height: float
    fits: bool
    scale: float


def lay_out(items: Sequence[Item], width: float, scale: float, floor: float = 0.0) -> Laid:
    """The block at `scale` times each item's type size, never under `floor` points, `width` wide."""
    flowables = tuple(FLOWABLES[type(item)](item, scale, floor) for item in items)
    height = 0.0
    for f in flowables:
        height += getattr(f, "spaceBefore", 0.0) + f.wrap(width, 1e6)[1]
    return Laid(flowables, width, height, all(f.fits for f in flowables), scale)


def fit(items: Sequence[Item], width: float, height: float, floor: float, what: str) -> Laid:
    """The block at the largest scale (from 1 down) at which it fits the box, no type shrunk
    under `floor` points: the smaller sizes stop at the floor while the larger go on shrinking."""
    import math

    largest = max((item.size for item in items if not isinstance(item, Divider)), default=floor)
    smallest = min(1.0, floor / largest)
    steps = max(1, math.ceil((1 - smallest) / STEP))
    for k in range(steps + 1):
        laid = lay_out(items, width, max(smallest, 1 - STEP * k), floor)
        if laid.fits and laid.height <= height:
            return laid
    raise CardOverflow(f"{what}: the text does not fit the card even with its type at {floor:g} pt")


def draw_block(c: Canvas, laid: Laid, x: float, top: float, width: float) -> None:
    """The block with its top-left at (x, top)."""
    y = top
    for f in laid.flowables:
        y -= getattr(f, "spaceBefore", 0.0) + f.height
        f.drawOn(c, x, y)


def fit_title(text: str, font: str, size: float, smallest: float, width: float, lines: int) -> tuple[float, list[str]]:
    """The largest size (down to `smallest`) at which `text` wraps into at most `lines` lines,
    no word wider than `width`."""
    from reportlab.lib.utils import simpleSplit

    s = size
    while True:
        wrapped: list[str] = simpleSplit(text, font, s, width)
        if len(wrapped) <= lines and all(text_width(t, font, s) <= width + 0.01 for t in wrapped):
            return s, wrapped
        if s <= smallest:
            raise CardOverflow(f"'{text}' does not fit in {lines} line(s) at {smallest} pt")
        s = max(smallest, s - 0.25)


# --- the drawn parts -----------------------------------------------------------------------------


def divider(c: Canvas, cx: float, cy: float, half: float, colour: RGB) -> None:
    """A short rule broken by a diamond, centred on (cx, cy), `half` long each way."""
    c.saveState()
    c.setStrokeColorRGB(*colour)
    c.setFillColorRGB(*colour)
    c.setLineWidth(0.45)
    d = 1.5
    c.line(cx - half, cy, cx - d * 2, cy)
    c.line(cx + d * 2, cy, cx + half, cy)
    diamond(c, cx, cy, d)
    c.restoreState()


def stand_symbol(c: Canvas, kind: str, x: float, y: float, w: float, h: float, *, fill: RGB, ink: RGB) -> None:
    """A stand kind as a NATO-style symbol in a w x h frame: infantry a cross, cavalry a
    diagonal, artillery a dot, armour an oval, engineers the bridge-and-posts sign..."""
    c.saveState()
    c.setFillColorRGB(*fill)
    c.setStrokeColorRGB(*ink)
    lw = max(0.35, h * 0.07)
    c.setLineWidth(lw)
    c.rect(x, y, w, h, stroke=1, fill=1)
    c.setLineWidth(lw * 0.9)
    c.setFillColorRGB(*ink)
    x1, y1, cx, cy = x + w, y + h, x + w / 2, y + h / 2

    def oval(rx: float, ry: float) -> None:
        c.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=1, fill=0)

    def letters(text: str) -> None:
        c.setFont(SANS_BOLD, h * 0.5)
        c.drawCentredString(cx, cy - h * 0.18, text)

    def engineer(base: float) -> None:
        top, leg = base + h * 0.32, h * 0.22
        c.line(x + w * 0.25, top, x + w * 0.75, top)
        for px in (0.25, 0.5, 0.75):
            c.line(x + w * px, top, x + w * px, top - leg)

    if kind in ("infantry", "machine_gun"):
        c.line(x, y, x1, y1)
        c.line(x, y1, x1, y)
        if kind == "machine_gun":
            c.setFillColorRGB(*fill)
            c.rect(cx - w * 0.22, cy - h * 0.2, w * 0.44, h * 0.4, stroke=0, fill=1)
            # the weapon sign of APP-6 (an arrow up, a bar across its foot), not letters too
            # small to read at a token's size
            c.line(cx, cy - h * 0.14, cx, cy + h * 0.1)
            c.line(cx - w * 0.1, cy - h * 0.14, cx + w * 0.1, cy - h * 0.14)
            head = c.beginPath()
            head.moveTo(cx - w * 0.07, cy + h * 0.04)
            head.lineTo(cx, cy + h * 0.17)
            head.lineTo(cx + w * 0.07, cy + h * 0.04)
            head.close()
            c.setFillColorRGB(*ink)
            c.drawPath(head, stroke=0, fill=1)
    elif kind in ("cavalry", "tachanka"):
        c.line(x, y, x1, y1)
        if kind == "tachanka":
            for px in (0.3, 0.7):
                c.circle(x + w * px, y + h * 0.2, h * 0.1, stroke=1, fill=1)
    elif kind == "artillery":
        c.circle(cx, cy, h * 0.2, stroke=0, fill=1)
    elif kind == "tank":
        oval(w * 0.32, h * 0.24)
    elif kind == "armoured_car":
        c.line(x, y, x1, y1)
        oval(w * 0.3, h * 0.22)
    elif kind == "pontoon":
        p = c.beginPath()
        for sx in (-1, 1):
            p.moveTo(cx + sx * w * 0.3, cy + h * 0.3)
            p.lineTo(cx + sx * w * 0.14, cy + h * 0.12)
            p.lineTo(cx + sx * w * 0.14, cy - h * 0.12)
            p.lineTo(cx + sx * w * 0.3, cy - h * 0.3)
        c.drawPath(p, stroke=1, fill=0)
    elif kind == "engineer":
        engineer(cy - h * 0.2)
    elif kind == "rr_repair":
        engineer(cy - h * 0.05)
        c.line(x + w * 0.15, y + h * 0.2, x + w * 0.85, y + h * 0.2)
        for px in (0.3, 0.5, 0.7):
            c.line(x + w * px, y + h * 0.12, x + w * px, y + h * 0.28)
    elif kind == "depot":
        c.line(x, y + h * 0.3, x1, y + h * 0.3)
    else:
        letters(kind[:2].upper())
    c.restoreState()
