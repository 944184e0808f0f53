"""One marker of the marker sheet: its word at the top, a large sign in the middle and the rule
at its foot, on its faction's colour. A flipped state sets its sign reversed, on a band of ink
across the middle (as a counter's out-of-supply back), so the two sides differ in grayscale too. The signs are the packet maps' own: a depot's D, the
wrecked-track cross, the bridging sign of a pontoon."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.symbols import bridging_sign
from kitgen.render.unitmarks import fit_size

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.scenario import Scenario
    from kitgen.render.countergrid import Layout, Sides
    from kitgen.render.counterstyle import CounterStyle, MarkerStyle

MARK = "@mark"
"""The sign is the faction's mark, large."""
CROSS = "@cross"
"""The sign is the map's wrecked-track cross."""
PONTOON = "@pontoon"
"""The sign is the bridging sign, two flared spans."""


@dataclass(frozen=True)
class Face:
    """One side of a marker."""

    glyph: str
    """A word or figure set large, or MARK, CROSS or PONTOON."""
    caption: str
    note: str = ""
    reverse: bool = False
    """The flipped state: the sign in the ground's colour on a band of ink."""


def draw_marker(
    c: Canvas,
    face: Face,
    faction: str | None,
    colour: str,
    x: float,
    y: float,
    size: float,
    st: MarkerStyle,
    bleed: Sides = (0.0, 0.0, 0.0, 0.0),
) -> None:
    """`face` on a `size` square at (x, y), on `colour` (reversed when the face says so), its
    ground running `bleed` past its sides (`Layout.bleeds`)."""
    ink = ink_on(colour)
    ground = hex_colour(colour)
    left, bottom, right, top = bleed
    c.saveState()
    c.setFillColorRGB(*ground)
    c.rect(x - left, y - bottom, size + left + right, size + bottom + top, stroke=0, fill=1)
    pad = size * 0.06
    width = size - 2 * pad
    cx = x + size / 2
    c.setFillColorRGB(*ink)
    caption = fit_size(face.caption, SANS_BOLD, st.caption, st.caption_min, width)
    c.setFont(SANS_BOLD, caption)
    c.drawCentredString(cx, y + size - pad - caption * 0.75, face.caption)
    lines = note_lines(face.note, st, width)
    c.setFont(SANS, st.note)
    for k, line in enumerate(lines):
        c.drawCentredString(cx, y + pad + st.note * (0.2 + 1.1 * (len(lines) - 1 - k)), line)
    top = y + size - pad - caption * 1.05
    bottom = y + pad + st.note * 1.1 * max(1, len(lines))
    cy = (top + bottom) / 2
    room = top - bottom
    if face.reverse:  # a band of ink across the middle, the sign in the ground's colour
        c.rect(x - left, bottom, size + left + right, room, stroke=0, fill=1)
        ground, ink = ink, ground
        c.setFillColorRGB(*ink)
    side = 0.0
    if faction and face.glyph != MARK:
        faction_mark(c, faction, x + pad + st.mark / 2, cy, st.mark)
        side = st.mark + pad
    c.setStrokeColorRGB(*ink)
    if face.glyph == MARK:
        if faction:  # a neutral marker has no mark to show
            faction_mark(c, faction, cx, cy, room * 0.92)
    elif face.glyph == CROSS:
        r = room * 0.36
        for colour_, w in ((ground, room * 0.2), (ink, room * 0.11)):
            c.setStrokeColorRGB(*colour_)
            c.setLineWidth(w)
            c.line(cx - r, cy - r, cx + r, cy + r)
            c.line(cx - r, cy + r, cx + r, cy - r)
    elif face.glyph == PONTOON:
        c.setLineWidth(room * 0.08)
        bridging_sign(c, cx + side / 2, cy, (width - side) * 0.28, room * 0.14, room * 0.2)
    else:
        glyph = fit_size(face.glyph, SANS_BOLD, min(st.glyph, room * 1.05), st.glyph_min, width - side)
        c.setFont(SANS_BOLD, glyph)
        c.drawCentredString(cx + side / 2, cy - glyph * 0.36, face.glyph)
    c.restoreState()


def note_lines(note: str, st: MarkerStyle, width: float) -> list[str]:
    """A marker's foot note at its type size: one line, or two where one will not go (a cut-off
    depot's 'D6 1: empty, +1/use'); never smaller than the counters' least type."""
    from kitgen.render.counterart import wrap

    if not note:
        return []
    if text_width(note, SANS, st.note) <= width:
        return [note]
    wrapped = wrap(note, SANS, st.note, width)
    if wrapped is None or len(wrapped) > 2:
        raise ValueError(f"the marker note '{note}' does not fit in two lines at {st.note:g} pt")
    return wrapped


@dataclass(frozen=True)
class Marker:
    faction: str | None
    """Its faction, or None for a neutral marker (the game turn, wrecked track)."""
    front: Face
    back: Face


@dataclass(frozen=True)
class MarkerGroup:
    """One kind of marker, under its own heading on the sheet."""

    title: str
    rule: str
    flip: str
    """What turning it over means ('' when both sides are the same)."""
    markers: tuple[Marker, ...]


class MarkerSheets:
    """Draws the marker sheets onto the counters' canvas: fronts, then mirrored backs."""

    def __init__(
        self,
        scenario: Scenario,
        paper: str,
        style: CounterStyle,
        groups: Sequence[MarkerGroup],
        after: Layout | None = None,
    ) -> None:
        """`after`: the units' layout, whose last sheet the markers start on where it has room."""
        from kitgen.render.countergrid import lay_out

        self.s, self.st = scenario, style
        self.groups = list(groups)
        sizes = [len(g.markers) for g in self.groups]
        kept, run_on = (
            lay_out(style, paper, sizes, size_mm=style.markers.size_mm, spares=False, after=after, keep_together=k)
            for k in (True, False)
        )
        self.layout = run_on if run_on.sheets < kept.sheets else kept  # a group split only to save a sheet
        self.of = self.layout.sheets
        """The sheets of the whole file, the units' included."""
        self.colours = {f.id: f.colour for f in scenario.meta.factions}

    @property
    def count(self) -> int:
        return sum(len(g.markers) for g in self.groups)

    def page(self, c: Canvas, sheet: int, back: bool, titled: bool = True) -> None:
        """The markers' part of a sheet's side, and the sheet's title where `titled`."""
        from kitgen.render.countergrid import cut_lines

        g, st = self.layout.grid, self.st
        if titled:
            self.title(c, sheet, back)
        for h in self.layout.headings:
            if h.sheet == sheet:
                self.heading(c, h.group, h.y, h.continued)
        for slot in self.layout.slots:
            if slot.sheet != sheet:
                continue
            marker = self.groups[slot.group].markers[slot.index]
            colour = self.colours.get(marker.faction or "", st.markers.neutral)
            x = g.back_x(slot.x) if back else slot.x
            face = marker.back if back else marker.front
            bleed = self.layout.bleeds(slot, back)
            draw_marker(c, face, marker.faction, colour, x, slot.y, g.size, st.markers, bleed)
        if not back:
            cut_lines(c, self.layout, sheet, st)

    def title(self, c: Canvas, sheet: int, back: bool) -> None:
        from kitgen.render.countergrid import sheet_title

        text = f"{self.s.meta.title}: markers, sheet {sheet + 1} of {self.of}, {'backs' if back else 'fronts'}"
        key = "Print double-sided, flipping on the long edge" if back else "A reversed back is the marker flipped"
        sheet_title(c, self.layout.grid, self.st, text, key)

    def heading(self, c: Canvas, group: int, y: float, continued: bool) -> None:
        from kitgen.render.countergrid import heading_text

        gr = self.groups[group]
        more = f" ({gr.rule}), {len(gr.markers)}" + (f"; {gr.flip}" if gr.flip else "")
        heading_text(c, self.st, self.layout.grid.x0, y, gr.title, more + (" (continued)" if continued else ""))
