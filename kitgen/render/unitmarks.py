"""Pieces on a packet map: unit counters, stack markers, the stacks a faction only glimpses, and
the marks for trains, ships, depots, pontoons, wrecked track and abandoned vehicles.

Colour never stands alone: every piece carries its faction's mark, and a glimpsed stack is
hatched, so a grayscale copy reads the same."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.symbols import unit_symbol

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

PieceKind = Literal["unit", "block", "stack"]

ARM_LETTERS = {"infantry": "I", "cavalry": "C", "guns": "G", "armour": "A", "other": "S"}
"""How a glimpsed stack names its arms of service (S: support)."""


@dataclass(frozen=True)
class Piece:
    """One thing drawn in a hex: a unit counter, a glimpsed stack, or a stack marker."""

    hex: str
    faction: str
    kind: PieceKind
    label: str
    """A unit's id; a glimpsed stack's size; a stack marker's key."""
    type: str = ""
    """A unit's type, for its symbol."""
    stands: int | None = None
    detail: tuple[str, ...] = ()
    """A glimpsed stack's arms; a stack marker's unit ids."""
    flags: tuple[str, ...] = ()
    """'out' for a unit out of supply, 'aboard' for one at sea."""


def fit_size(text: str, font: str, size: float, least: float, width: float) -> float:
    while size > least and text_width(text, font, size) > width:
        size -= 0.2
    return size


def _frame(c: Canvas, x: float, y: float, w: float, h: float, fill: str, line: float) -> None:
    c.setFillColorRGB(*hex_colour(fill))
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(line)
    c.roundRect(x, y, w, h, min(w, h) * 0.08, stroke=1, fill=1)


def fit_line(c: Canvas, text: str, x: float, y: float, width: float, font: str, size: float, least: float) -> None:
    """One line in `width`: shrunk to `least`, then condensed to 70 %, then cut with an ellipsis."""
    size = fit_size(text, font, size, least, width)
    natural = text_width(text, font, size)
    squeeze = 1.0 if natural <= width else max(0.7, width / natural)
    if natural * squeeze > width:
        text = _clip(text, font, size * 1.0, width / squeeze)
    t = c.beginText(x, y)
    t.setFont(font, size)
    t.setHorizScale(squeeze * 100)
    t.textOut(text)
    c.drawText(t)


def draw_piece(
    c: Canvas, piece: Piece, colour: str, x: float, y: float, w: float, h: float, font: float, least: float, big: float
) -> None:
    """The piece in the box (x, y, w, h): the faction's colour, its mark in the corner; a unit
    has its type symbol and stands above its id; a glimpsed stack is hatched with its size and arms."""
    ink = ink_on(colour)
    line = max(0.35, h * 0.03)
    _frame(c, x, y, w, h, colour, line)
    pad = h * 0.08
    mark = h * 0.36
    c.setFillColorRGB(*ink)
    faction_mark(c, piece.faction, x + w - pad - mark / 2, y + h - pad - mark / 2, mark)
    if piece.kind == "unit":
        sym_h = h * 0.46
        sym_w = sym_h * 1.5
        sx, sy = x + pad * 1.2, y + h - pad - sym_h
        c.setFillColorRGB(1, 1, 1)
        c.rect(sx, sy, sym_w, sym_h, stroke=0, fill=1)
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        unit_symbol(c, piece.type, sx, sy, sym_w, sym_h, line=max(0.3, sym_h * 0.06))
        stands = "" if piece.stands is None else str(piece.stands)
        c.setFillColorRGB(*ink)
        c.setFont(SANS_BOLD, big)
        tx = sx + sym_w + pad * 1.5
        c.drawString(tx, sy + sym_h / 2 - big * 0.36, stands)
        if "out" in piece.flags:  # out of supply: a ringed O after the stands, not colour alone
            ox = tx + text_width(stands, SANS_BOLD, big) + big * 0.45
            c.setStrokeColorRGB(*ink)
            c.setLineWidth(max(0.3, h * 0.035))
            c.circle(ox, sy + sym_h / 2, big * 0.3, stroke=1, fill=0)
        c.setFillColorRGB(*ink)
        fit_line(c, piece.label, x + pad * 1.2, y + pad * 1.3, w - pad * 2.4, SANS, font, least)
        return
    if piece.kind == "block":
        c.saveState()
        p = c.beginPath()
        p.roundRect(x, y, w, h, min(w, h) * 0.08)
        c.clipPath(p, stroke=0, fill=0)
        c.setStrokeColorRGB(*ink)
        c.setLineWidth(0.4)
        step = h * 0.28
        k = -h
        while k < w:
            c.line(x + k, y, x + k + h, y + h)
            k += step
        c.restoreState()
        label = f"{piece.label} {''.join(ARM_LETTERS.get(a, '?') for a in piece.detail)}"
        size = fit_size(label, SANS_BOLD, big, least, w - 3 * pad - mark)
        tw = text_width(label, SANS_BOLD, size)
        bg = hex_colour(colour)
        c.setFillColorRGB(*bg)
        c.rect(x + pad, y + h / 2 - size * 0.55, tw + pad, size * 1.15, stroke=0, fill=1)
        c.setFillColorRGB(*ink)
        c.setFont(SANS_BOLD, size)
        c.drawString(x + pad * 1.5, y + h / 2 - size * 0.35, label)
        return
    # a stack marker: its key large, the count of units under it
    size = fit_size(piece.label, SANS_BOLD, big * 1.25, least, w * 0.5)
    c.setFillColorRGB(*ink)
    c.setFont(SANS_BOLD, size)
    c.drawString(x + pad * 1.5, y + h / 2 - size * 0.36, piece.label)
    note = f"{len(piece.detail)} units" + (f", {piece.stands}" if piece.stands is not None else "")
    small = fit_size(note, SANS, font, least, w - 3 * pad - text_width(piece.label, SANS_BOLD, size) - mark)
    c.setFont(SANS, small)
    c.drawString(x + pad * 2.5 + text_width(piece.label, SANS_BOLD, size), y + h / 2 - small * 0.36, note)


def _clip(text: str, font: str, size: float, width: float) -> str:
    while text and text_width(text + "\u2026", font, size) > width:
        text = text[:-1]
    return text + "\u2026"


def draw_dot(c: Canvas, faction: str, colour: str, cx: float, cy: float, size: float, count: int, font: float) -> None:
    """A unit or stack on the overview: a square of the faction's colour with its mark, or, for
    more than one unit, their number."""
    _frame(c, cx - size / 2, cy - size / 2, size, size, colour, 0.3)
    c.setFillColorRGB(*ink_on(colour))
    if count > 1:
        c.setFont(SANS_BOLD, font)
        c.drawCentredString(cx, cy - font * 0.36, str(count))
    else:
        faction_mark(c, faction, cx, cy, size * 0.62)
