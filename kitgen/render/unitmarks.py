"""Pieces on a packet map, drawn in the counters' art: units', trains' and ships' counters, a
stack's top counter and badge, the stacks a faction only glimpses, and the overview's squares.

Colour never stands alone: every piece carries its faction's mark, and a glimpsed stack is
hatched, so a grayscale copy reads the same."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen.render.fonts import SANS_BOLD, text_width
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.symbols import unit_symbol

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

PieceKind = Literal["unit", "carrier", "block", "stack", "memory"]

ARM_LETTERS = {"infantry": "I", "cavalry": "C", "guns": "G", "armour": "A", "other": "S"}
"""How a glimpsed stack names its arms of service (S: support)."""


@dataclass(frozen=True)
class Piece:
    """One thing drawn in a hex: a unit's counter, a train's or ship's (a carrier), a glimpsed
    stack, or a stack marker."""

    hex: str
    faction: str
    kind: PieceKind
    label: str
    """A unit's, train's or ship's id; a glimpsed stack's size; a stack marker's key."""
    type: str = ""
    """A unit's type, or a train's or ship's kind (armoured_train, warship...), for its symbol."""
    stands: int | None = None
    detail: tuple[str, ...] = ()
    """A glimpsed stack's arms; a stack marker's unit ids."""
    flags: tuple[str, ...] = ()
    """'out' for a unit out of supply, 'aboard' for one at sea."""
    name: str = ""
    """A unit's, train's or ship's name as its counter prints it (an enemy's train or ship: its kind)."""
    strength: str = ""
    """A unit's stands by kind as its counter prints them ('3 inf 1 MG'); a train's or ship's load
    or gunfire (none for an enemy's)."""
    traits: tuple[str, ...] = ()
    """A unit's flag letters (E elite, F fanatic, P partisan), as on its counter."""
    top: Piece | None = None
    """A stack marker's top piece: the counter drawn for the stack."""
    age: int = 0
    """A remembered stack: turns since it was seen (its `label` is the turn, 'T3')."""


@dataclass(frozen=True)
class CounterFaces:
    """Type sizes of a counter on a packet map, in the drawing's units."""

    name: float
    name_min: float
    figure: float
    words: float
    badge: float


def fit_size(text: str, font: str, size: float, least: float, width: float) -> float:
    while size > least and text_width(text, font, size) > width:
        size -= 0.2
    return size


def draw_frame(c: Canvas, x: float, y: float, w: float, h: float, fill: str, line: float) -> None:
    c.setFillColorRGB(*hex_colour(fill))
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(line)
    c.roundRect(x, y, w, h, min(w, h) * 0.08, stroke=1, fill=1)


def draw_piece(c: Canvas, piece: Piece, colour: str, x: float, y: float, size: float, faces: CounterFaces) -> None:
    """The piece on a square (x, y, size) in the counters' art: a unit as its counter prints it
    (out of supply, its back's pale fill and a black band under its stands); a glimpsed enemy
    stack hatched, with its size and arms."""
    if piece.kind == "block":
        _block(c, piece, colour, x, y, size, faces)
        return
    if piece.kind == "memory":
        _remembered(c, piece, colour, x, y, size, faces)
        return
    unit = piece.top if piece.kind == "stack" and piece.top is not None else piece
    if unit.kind == "block":
        _block(c, unit, colour, x, y, size, faces)
        return
    _counter(c, unit, colour, x, y, size, faces, foot=piece.kind != "stack")


def _counter(
    c: Canvas, piece: Piece, colour: str, x: float, y: float, size: float, faces: CounterFaces, *, foot: bool = True
) -> None:
    """A unit, train or ship as its counter prints it (`kitgen.render.counterart`), at `size`:
    its mark, symbol and flags, its name above, its strength below (not on a stack's top
    counter: its badge goes there)."""
    from kitgen.render.counterart import back_fill, draw_name, name_forms, strength_line
    from kitgen.render.counterstyle import counter_style

    style = counter_style()
    out = "out" in piece.flags
    fill = back_fill(colour, style) if out else colour
    ink = ink_on(fill)
    c.saveState()
    draw_frame(c, x, y, size, size, fill, max(0.35, size * 0.012))
    pad = size * 0.06
    mark = size * 0.2
    sym_w, sym_h = size * 0.42, size * 0.26
    mid = y + size * 0.46
    c.setFillColorRGB(*ink)
    faction_mark(c, piece.faction, x + pad + mark / 2, mid, mark)
    c.setStrokeColorRGB(*ink)
    unit_symbol(c, piece.type, x + (size - sym_w) / 2, mid - sym_h / 2, sym_w, sym_h, line=max(0.3, sym_h * 0.06))
    letters = [style.flag_letters.get(t, t[:1].upper()) for t in piece.traits]
    if letters:
        c.setFont(SANS_BOLD, faces.name_min)
        c.drawCentredString(x + size - pad - mark / 2, mid - faces.name_min * 0.36, "".join(letters))
    c.setFillColorRGB(*ink)
    below = mid + sym_h / 2 + size * 0.03
    texts = name_forms(piece.name or piece.label, style)
    draw_name(c, texts, x + size / 2, size - 2 * pad, below, y + size - pad, (faces.name, faces.name_min), 1.15, 2)
    # the strength, the counter's largest figures; out of supply, on a black band
    strength = piece.strength or ("" if piece.stands is None else str(piece.stands))
    if not foot:
        c.restoreState()
        return
    if out:
        band = faces.figure * 1.3
        c.setFillColorRGB(*ink)
        c.rect(x, y + pad * 0.6, size, band, stroke=0, fill=1)
        c.setFillColorRGB(*hex_colour(fill))
        strength = f"OoS {strength}"
    base = y + pad * 0.6 + faces.figure * 0.33
    strength_line(
        c, strength, x + size / 2, base, size - 2 * pad, (faces.figure, faces.name_min), (faces.words, faces.name_min)
    )
    c.restoreState()


def _block(c: Canvas, piece: Piece, colour: str, x: float, y: float, size: float, faces: CounterFaces) -> None:
    """A glimpsed enemy stack: its colour hatched, its mark, its size and arms."""
    ink = ink_on(colour)
    draw_frame(c, x, y, size, size, colour, max(0.35, size * 0.012))
    pad = size * 0.06
    mark = size * 0.24
    c.saveState()
    p = c.beginPath()
    p.roundRect(x, y, size, size, size * 0.08)
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColorRGB(*ink)
    c.setLineWidth(0.4)
    step = size * 0.14
    k = -size
    while k < size:
        c.line(x + k, y, x + k + size, y + size)
        k += step
    c.restoreState()
    c.setFillColorRGB(*ink)
    faction_mark(c, piece.faction, x + size - pad - mark / 2, y + size - pad - mark / 2, mark)
    arms = "".join(ARM_LETTERS.get(a, "?") for a in piece.detail)
    for k, (text, font) in enumerate(((piece.label, faces.figure), (arms, faces.name))):
        if not text:
            continue
        fs = fit_size(text, SANS_BOLD, font, faces.name_min, size - 2 * pad)
        tw = text_width(text, SANS_BOLD, fs)
        ty = y + size * (0.42 - 0.26 * k)
        c.setFillColorRGB(*hex_colour(colour))
        c.rect(x + (size - tw) / 2 - 1, ty - fs * 0.3, tw + 2, fs * 1.15, stroke=0, fill=1)
        c.setFillColorRGB(*ink)
        c.setFont(SANS_BOLD, fs)
        c.drawCentredString(x + size / 2, ty, text)


def faded(colour: str, age: int) -> str:
    """A remembered stack's colour: the faction's, paler with each turn since it was seen."""
    mix = min(0.6, 0.2 * max(0, age - 1))
    r, g, b = hex_colour(colour)
    return "#" + "".join(f"{round((v + (1 - v) * mix) * 255):02X}" for v in (r, g, b))


def _remembered(c: Canvas, piece: Piece, colour: str, x: float, y: float, size: float, faces: CounterFaces) -> None:
    """An enemy stack last seen some turns ago: white, framed dashed in its faction's colour
    (paler with age) over a thin grey line, its mark, the turn it was seen large, its size
    and arms below: news of then, told apart from what is seen now without colour."""
    edge = faded(colour, piece.age)
    c.saveState()
    draw_frame(c, x, y, size, size, "#FFFFFF", max(0.3, size * 0.008))
    c.setStrokeColorRGB(*hex_colour(edge))
    c.setLineWidth(size * 0.07)
    c.setDash(size * 0.12, size * 0.08)
    inset = size * 0.06
    c.roundRect(x + inset, y + inset, size - 2 * inset, size - 2 * inset, size * 0.06, stroke=1, fill=0)
    c.restoreState()
    pad = size * 0.1
    mark = size * 0.2
    c.setFillColorRGB(0.25, 0.25, 0.25)
    faction_mark(c, piece.faction, x + size - pad - mark / 2, y + size - pad - mark / 2, mark)
    arms = "".join(ARM_LETTERS.get(a, "?") for a in piece.detail if a in ARM_LETTERS)
    lines = ((piece.label, faces.figure * 1.1, 0.5), (piece.name, faces.name, 0.27), (arms, faces.name, 0.12))
    for text, font, at in lines:
        if not text:
            continue
        fs = fit_size(text, SANS_BOLD, font, faces.name_min, size - 2 * pad)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        c.setFont(SANS_BOLD, fs)
        c.drawCentredString(x + size / 2, y + size * at, text)


def draw_badge(c: Canvas, text: str, cx: float, top: float, size: float) -> tuple[float, float, float, float]:
    """A stack's badge, white with a black frame, centred under its top counter; its box."""
    w = text_width(text, SANS_BOLD, size) + size * 0.9
    h = size * 1.35
    x0, y0 = cx - w / 2, top - h
    c.setFillColorRGB(1, 1, 1)
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(max(0.35, size * 0.06))
    c.roundRect(x0, y0, w, h, h * 0.25, stroke=1, fill=1)
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(SANS_BOLD, size)
    c.drawCentredString(cx, y0 + h / 2 - size * 0.36, text)
    return (x0, y0, x0 + w, top)


def draw_dot(
    c: Canvas,
    faction: str,
    colour: str,
    cx: float,
    cy: float,
    size: float,
    count: int,
    font: float,
    *,
    age: int | None = None,
) -> None:
    """A unit or stack on the overview: a square of the faction's colour with its mark, or, for
    more than one unit, their number; a stack remembered (`age`: turns since it was seen), white
    and framed dashed in its colour, paler with age."""
    if age is not None:
        c.saveState()
        c.setFillColorRGB(1, 1, 1)
        c.setStrokeColorRGB(*hex_colour(faded(colour, age)))
        c.setLineWidth(size * 0.14)
        c.setDash(size * 0.2, size * 0.12)
        c.rect(cx - size / 2, cy - size / 2, size, size, stroke=1, fill=1)
        c.restoreState()
        c.setFillColorRGB(0.25, 0.25, 0.25)
        faction_mark(c, faction, cx, cy, size * 0.5)
        return
    draw_frame(c, cx - size / 2, cy - size / 2, size, size, colour, 0.3)
    c.setFillColorRGB(*ink_on(colour))
    if count > 1:
        c.setFont(SANS_BOLD, font)
        c.drawCentredString(cx, cy - font * 0.36, str(count))
    else:
        faction_mark(c, faction, cx, cy, size * 0.62)
