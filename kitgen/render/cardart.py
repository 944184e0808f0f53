"""How a card is drawn: its palette, frame, title band, foot, the deck marks and bullets, the
charisma ribbon, and the backs (full-bleed pattern and medallion). What goes on each card is
products/cards.py's."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kitgen.model.scenario import Scenario
from kitgen.render.cardstyle import CardStyle
from kitgen.render.cardtext import (
    RGB,
    Bullet,
    CardOverflow,
    fit_title,
)
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_BOLD_ITALIC, SANS_ITALIC, text_width
from kitgen.render.pages import MM, diamond, faction_mark, hex_colour, ink_on, rgb_luminance
from kitgen.render.wording import typographic

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

ALL = "all"
"""An effect or bullet for every faction."""
FILL_NON_ZERO = 1
"""reportlab's fill mode for the non-zero winding rule (its default is even-odd)."""


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


@dataclass(frozen=True)
class Palette:
    """The colours of one card: its own colour (bleed, band) and what reads on it and on paper."""

    colour: RGB
    on_colour: RGB
    """Ink on the colour: black or white."""
    accent: RGB
    """The colour where it sits on the paper panel: darkened if too pale to read there."""
    paper: RGB
    ink: RGB
    muted: RGB
    rule: RGB

    @classmethod
    def of(cls, colour: str, style: CardStyle) -> Palette:
        col = hex_colour(colour)
        ink = hex_colour(style.colours.ink)
        accent = mix(col, ink, 0.45) if rgb_luminance(col) > 0.35 else col
        return cls(
            colour=col,
            on_colour=ink_on(colour),
            accent=accent,
            paper=hex_colour(style.colours.paper),
            ink=ink,
            muted=hex_colour(style.colours.muted),
            rule=hex_colour(style.colours.rule),
        )


def spaced(c: Canvas, text: str, font: str, size: float, cx: float, y: float, spacing: float) -> None:
    """Letter-spaced small capitals, centred on cx."""
    w = text_width(text, font, size) + spacing * (len(text) - 1)
    c.setFont(font, size)
    c.drawString(cx - w / 2, y, text, charSpace=spacing)


def hexagon(c: Canvas, cx: float, cy: float, size: float, *, fill: bool = True) -> None:
    """The map's hex, flat-topped, `size` across the corners."""
    r = size / 2
    p = c.beginPath()
    for k in range(6):
        a = math.radians(60 * k)
        (p.moveTo if k == 0 else p.lineTo)(cx + r * math.cos(a), cy + r * math.sin(a))
    p.close()
    c.drawPath(p, stroke=0 if fill else 1, fill=1 if fill else 0)


def deck_mark(c: Canvas, faction: str | None, cx: float, cy: float, size: float) -> None:
    """A faction's mark, or the event deck's hex for no faction, in the current fill colour.
    Filled non-zero, so that where the mark's bars overlap (the cross, the trident) there is no hole."""
    c.saveState()
    c._fillMode = FILL_NON_ZERO  # type: ignore[attr-defined]  # no setter; restoreState resets it
    if faction:
        faction_mark(c, faction, cx, cy, size)
    else:
        hexagon(c, cx, cy, size)
    c.restoreState()


def faction_bullet(scenario: Scenario, faction: str | None, ink: RGB, neutral: RGB) -> Bullet:
    """A small disc in the faction's colour carrying its mark; a diamond where no one faction is meant."""
    found = scenario.faction(faction) if faction and faction != ALL else None

    def draw(c: Canvas, cx: float, cy: float, size: float) -> None:
        c.saveState()
        if found is None:
            c.setFillColorRGB(*neutral)
            diamond(c, cx, cy, size * 0.36)
        else:
            r = size * 0.5
            c.setFillColorRGB(*hex_colour(found.colour))
            c.setStrokeColorRGB(*ink)
            c.setLineWidth(0.3)
            c.circle(cx, cy, r, stroke=1, fill=1)
            c.setFillColorRGB(*ink_on(found.colour))
            deck_mark(c, found.id, cx, cy, r * 1.25)
        c.restoreState()

    return draw


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    @property
    def top(self) -> float:
        return self.y + self.h


def card_frame(c: Canvas, x: float, y: float, style: CardStyle, pal: Palette) -> tuple[Box, Box, Box]:
    """A card's coloured ground (to the bleed), its paper panel and thin inner frame. Returns the
    title band's text box, the panel's text box and the foot strip."""
    g, f = style.card, style.frame
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    border, band, radius = f.border_mm * MM, f.band_mm * MM, f.radius_mm * MM
    c.saveState()
    c.setFillColorRGB(*pal.colour)
    c.rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    panel = Box(x + border, y + border, w - 2 * border, h - border - band)
    c.setFillColorRGB(*pal.paper)
    c.roundRect(panel.x, panel.y, panel.w, panel.h, radius, stroke=0, fill=1)
    inner = f.inner_mm * MM
    c.setStrokeColorRGB(*pal.accent)
    c.setLineWidth(f.inner_pt)
    c.roundRect(
        panel.x + inner, panel.y + inner, panel.w - 2 * inner, panel.h - 2 * inner, max(0.0, radius - inner / 2)
    )
    c.restoreState()
    pad = f.padding_mm * MM
    safe = border  # text keeps a border's width inside the trim
    band_box = Box(x + safe, panel.top + 1.2 * MM, w - 2 * safe, h - safe - panel.h - border - 1.2 * MM)
    foot = f.foot_mm * MM
    text_box = Box(panel.x + pad, panel.y + foot + 0.8 * MM, panel.w - 2 * pad, panel.h - foot - pad - 0.8 * MM)
    return band_box, text_box, foot_strip(x, y, style)


def foot_strip(x: float, y: float, style: CardStyle) -> Box:
    """The foot strip of the card whose trim's lower-left corner is (x, y): its discard or
    return note and its printed reference, the only type on a card under 7 pt."""
    f = style.frame
    border, inner, pad = f.border_mm * MM, f.inner_mm * MM, f.padding_mm * MM
    w = style.card.width_mm * MM
    return Box(x + border + pad, y + border + inner, w - 2 * border - 2 * pad, f.foot_mm * MM - inner)


def title_band(
    c: Canvas,
    box: Box,
    pal: Palette,
    style: CardStyle,
    label: str,
    title: str,
    mark: str | None,
    *,
    title_size: float | None = None,
    title_min: float | None = None,
) -> None:
    """The title band: a letter-spaced label over the title (up to two lines), centred, with the
    mark either side (the event deck's small hexes flank its label instead)."""
    fonts = style.fonts
    cx = box.x + box.w / 2
    c.saveState()
    c.setFillColorRGB(*pal.on_colour)
    label_y = box.top - fonts.label
    spaced(c, label.upper(), SANS_BOLD, fonts.label, cx, label_y, 0.9)
    room_top = box.top - fonts.label * 1.5
    if mark is None:
        half = (text_width(label.upper(), SANS_BOLD, fonts.label) + 0.9 * len(label)) / 2
        for side in (-1, 1):
            hexagon(c, cx + side * (half + 2.2 * MM), label_y + fonts.label * 0.36, fonts.label * 0.95)
        text_w = box.w - 2 * MM
    else:
        mark_size = min(box.h * 0.5, 7 * MM)
        for side in (-1, 1):
            mx = cx + side * (box.w / 2 - mark_size / 2 - 0.5 * MM)
            deck_mark(c, mark, mx, box.y + (room_top - box.y) / 2, mark_size)
        text_w = box.w - 2 * mark_size - 5 * MM
    title = typographic(title)
    size, lines = fit_title(title, SANS_BOLD, title_size or fonts.title, title_min or fonts.title_min, text_w, 2)
    lead = size * 1.08
    block = lead * (len(lines) - 1) + size * 0.72
    base = box.y + (room_top - box.y + block) / 2 - size * 0.72
    c.setFont(SANS_BOLD, size)
    for k, line in enumerate(lines):
        c.drawCentredString(cx, base - k * lead, line)
    c.restoreState()


def card_foot(c: Canvas, box: Box, pal: Palette, style: CardStyle, note: str, card_id: str, *, strong: bool) -> None:
    """The foot strip: the discard/return note on the left (a filled tab if `strong`), on the right
    the card's printed reference (cardkey: 'Event 17'), which the umpire's key ties to its id."""
    fonts = style.fonts
    c.saveState()
    c.setStrokeColorRGB(*pal.rule)
    c.setLineWidth(0.4)
    c.line(box.x, box.top, box.x + box.w, box.top)
    y = box.y + (box.h - fonts.foot * 0.72) / 2
    id_w = text_width(card_id, SANS, fonts.card_id)
    note_w = text_width(note, SANS_BOLD, fonts.foot)
    size = fonts.foot
    room = box.w - id_w - 2.5 * MM
    if note_w > room:
        size = fonts.foot * room / note_w
        if size < fonts.foot_min - 1e-6:
            raise CardOverflow(f"the foot note '{note}' does not fit beside '{card_id}' at {fonts.foot_min:g} pt")
        note_w = room
    if strong:
        pad = 1.0 * MM
        c.setFillColorRGB(*pal.accent)
        c.roundRect(
            box.x - pad, y - 1.1 * MM + size * 0.25, note_w + 2 * pad, size + 1.1 * MM, 1.2 * MM, stroke=0, fill=1
        )
        c.setFillColorRGB(*ink_on(hex_of(pal.accent)))
    else:
        c.setFillColorRGB(*pal.accent)
    c.setFont(SANS_BOLD, size)
    c.drawString(box.x, y, note)
    c.setFillColorRGB(*pal.muted)
    c.setFont(SANS, fonts.card_id)
    c.drawRightString(box.x + box.w, y, card_id)
    c.restoreState()


def plus_bullet(pal: Palette) -> Bullet:
    def draw(c: Canvas, cx: float, cy: float, size: float) -> None:
        c.saveState()
        c.setFillColorRGB(*pal.accent)
        t, r = size * 0.2, size * 0.45
        c.rect(cx - r, cy - t / 2, 2 * r, t, stroke=0, fill=1)
        c.rect(cx - t / 2, cy - r, t, 2 * r, stroke=0, fill=1)
        c.restoreState()

    return draw


def sunburst(c: Canvas, cx: float, cy: float, size: float) -> None:
    """The charisma sign: a disc with eight rays (no faction's mark looks like it)."""
    r = size / 2
    c.circle(cx, cy, r * 0.42, stroke=0, fill=1)
    p = c.beginPath()
    for k in range(8):
        a = k * math.pi / 4
        for da, rr in ((-0.17, r * 0.55), (0.0, r), (0.17, r * 0.55)):
            (p.moveTo if da < 0 else p.lineTo)(cx + rr * math.cos(a + da), cy + rr * math.sin(a + da))
        p.close()
    c.drawPath(p, stroke=0, fill=1)


def charisma_badge(
    c: Canvas, cx: float, top: float, height: float, charismatic: bool, pal: Palette, style: CardStyle
) -> None:
    """II.C.5: a ribbon with the charisma sign, or a quiet 'Not charismatic'."""
    fonts = style.fonts
    c.saveState()
    if not charismatic:
        c.setFillColorRGB(*pal.muted)
        c.setFont(SANS_ITALIC, fonts.history)
        c.drawCentredString(cx, top - height / 2 - fonts.history * 0.36, "Not charismatic")
        c.restoreState()
        return
    label = "CHARISMATIC"
    size = fonts.body
    w = text_width(label, SANS_BOLD, size) + 0.8 * len(label) + size * 3.6
    rh = size * 1.7
    ry = top - rh
    notch = rh * 0.35
    p = c.beginPath()
    p.moveTo(cx - w / 2 - notch, ry)
    p.lineTo(cx + w / 2 + notch, ry)
    p.lineTo(cx + w / 2, ry + rh / 2)
    p.lineTo(cx + w / 2 + notch, ry + rh)
    p.lineTo(cx - w / 2 - notch, ry + rh)
    p.lineTo(cx - w / 2, ry + rh / 2)
    p.close()
    c.setFillColorRGB(*pal.accent)
    c.drawPath(p, stroke=0, fill=1)
    on = ink_on(hex_of(pal.accent))
    c.setFillColorRGB(*on)
    spaced(c, label, SANS_BOLD, size, cx + size * 0.9, ry + rh / 2 - size * 0.36, 0.8)
    sunburst(c, cx - w / 2 + size * 1.2, ry + rh / 2, size * 1.3)
    c.setFillColorRGB(*pal.muted)
    c.setFont(SANS_ITALIC, fonts.history)
    c.drawCentredString(cx, ry - fonts.history * 1.35, "Affects tabletop battles only (II.C.5)")
    c.restoreState()


def hex_of(rgb: RGB) -> str:
    return "#" + "".join(f"{round(v * 255):02X}" for v in rgb)


@dataclass(frozen=True)
class Back:
    colour: str
    title: str
    subtitle: str
    marks: tuple[str | None, ...]
    """Faction marks in the medallion (None: the event deck's hex)."""


LATTICE_MM = 3.6
"""The card back's lattice step, about: each card fits it a whole number of times."""


def lattice_steps(w: float, h: float) -> tuple[float, float]:
    """The lattice's steps across and down a card w x h: the nearest to `LATTICE_MM` that go a
    whole number of times into each side."""
    step = LATTICE_MM * MM
    return w / max(1, round(w / step)), h / max(1, round(h / step))


def draw_back(c: Canvas, back: Back, scenario: Scenario, style: CardStyle) -> None:
    """A card back at (0, 0): the colour and a lattice to the bleed, a medallion with the deck's
    mark(s), the deck's name and the scenario's title."""
    g = style.card
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    pal = Palette.of(back.colour, style)
    on = pal.on_colour
    light = on == (1.0, 1.0, 1.0)
    faint = mix(pal.colour, on, 0.16)
    c.saveState()
    c.setFillColorRGB(*pal.colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    # the lattice: diagonals both ways, clipped to the bleed box, crossing at the card's centre
    # and fitting a whole number of times across and down, so that every back is the same and
    # the lattice runs on without a seam where butting cards share a cut
    clip = c.beginPath()
    clip.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed)
    c.clipPath(clip, stroke=0, fill=0)
    c.setStrokeColorRGB(*faint)
    c.setLineWidth(0.5)
    across, down = lattice_steps(w, h)
    reach = math.ceil((w / 2 + bleed) / across + (h / 2 + bleed) / down) + 1
    t = (h / 2 + bleed) / down + 1
    for k in range(-reach, reach + 1):
        x = w / 2 + k * across
        c.line(x - t * across, h / 2 - t * down, x + t * across, h / 2 + t * down)
        c.line(x - t * across, h / 2 + t * down, x + t * across, h / 2 - t * down)
    # no frame near the trim: a duplex shift of a millimetre or two would show on it, where the
    # full-bleed lattice and a centred medallion look the same shifted
    border = style.frame.border_mm * MM  # the safe area, for the name plate and the title
    # the medallion
    cx, cy, r = w / 2, h * 0.58, 15 * MM
    disc = pal.paper if light else pal.ink
    c.setFillColorRGB(*pal.colour)
    c.circle(cx, cy, r + 1.6 * MM, stroke=0, fill=1)
    c.setStrokeColorRGB(*on)
    c.setLineWidth(0.6)
    c.circle(cx, cy, r + 1.0 * MM, stroke=1, fill=0)
    c.setFillColorRGB(*disc)
    c.circle(cx, cy, r, stroke=0, fill=1)
    c.setStrokeColorRGB(*pal.colour)
    c.setLineWidth(0.5)
    c.circle(cx, cy, r - 1.2 * MM, stroke=1, fill=0)
    c.setFillColorRGB(*pal.colour)
    if len(back.marks) == 1:
        deck_mark(c, back.marks[0], cx, cy, r * 1.15)
    else:
        across = math.ceil(math.sqrt(len(back.marks)))
        down = math.ceil(len(back.marks) / across)
        step = r * 1.05 / across
        for k, mark in enumerate(back.marks):
            col, row = k % across, k // across
            mx = cx + (col - (across - 1) / 2) * step
            my = cy - (row - (down - 1) / 2) * step
            deck_mark(c, mark, mx, my, step * 0.7)
    # the name, on a plain plate so the lattice does not run through it
    fonts = style.fonts
    plate_h = fonts.back_title * 1.9
    plate_y = cy - r - 4.5 * MM - plate_h
    c.setFillColorRGB(*pal.colour)
    c.rect(border + 1.2 * MM + 0.4, plate_y, w - 2 * border - 2.4 * MM - 0.8, plate_h, stroke=0, fill=1)
    c.setFillColorRGB(*on)
    size, lines = fit_title(
        back.title.upper(), SANS_BOLD, fonts.back_title, fonts.back_title * 0.6, w - 2 * border - 6 * MM, 1
    )
    c.setFont(SANS_BOLD, size)
    c.drawCentredString(cx, plate_y + (plate_h - size * 0.72) / 2, lines[0])
    sub_y = plate_y - fonts.back_sub * 1.8
    c.setFillColorRGB(*mix(pal.colour, on, 0.8))
    spaced(c, back.subtitle.upper(), SANS_BOLD, fonts.back_sub, cx, sub_y, 0.6)
    title = typographic(scenario.meta.title)
    c.setFont(SANS_BOLD_ITALIC, fonts.back_sub * 1.25)
    c.drawCentredString(cx, border + 4.2 * MM, title)
    c.restoreState()
