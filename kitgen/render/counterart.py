"""How a counter sheet is drawn: each counter (the faction's colour and mark, the unit-type
symbol under its size mark, the name shrunk or shortened to fit, the strength's figures large,
the commander and the small print), its out-of-supply back mirrored for duplex printing, the
faction headings and the cutting lines. What goes on the counters is products/counters.py's."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kitgen.render.countergrid import (
    EPS,
    Heading,
    Sides,
    Slot,
    cut_lines,
    heading_base,
    heading_text,
    lay_out,
    sheet_title,
)
from kitgen.render.counterstyle import CounterStyle
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, text_width
from kitgen.render.pages import contrast, faction_mark, hex_colour, ink_on
from kitgen.render.symbols import unit_symbol
from kitgen.render.wording import curled

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.scenario import Faction, Scenario

ELLIPSIS = "\u2026"
CAP = 0.73
"""The sans face's capital height, in ems."""
RGB = tuple[float, float, float]


@dataclass(frozen=True)
class Counter:
    """One counter: its faction, unit-type symbol and the texts printed on it."""

    faction: str
    symbol: str
    """A unit type of movement.yaml, or a drawn period type (armoured_train, warship, transport)."""
    name: str
    stands: str
    """Stands by kind ('3 inf 1 MG'), or a train's or ship's rating."""
    note: str
    """The small print: the unit's id, or the slip, event or chart row it comes from."""
    commander: str | None = None
    flags: tuple[str, ...] = ()
    spare: bool = False
    """A blank counter to write on, filling the faction's last row."""
    size: str = ""
    """The unit-size mark over the symbol (XX for a division), from the data's formation size."""
    kinds: frozenset[str] = frozenset()
    """Its stand kinds (the vehicles among them need out-of-fuel markers)."""


# --- Drawing ---------------------------------------------------------------------------------


def name_forms(name: str, style: CounterStyle) -> list[str]:
    """A unit's name as the counter tries it, longest first: in full, abbreviated, and
    abbreviated without its bracketed note ("(vs Veshenskaya rising)")."""
    bare = re.sub(r"\s*\([^)]*\)", "", name)
    return [name, abbreviate(name, style), abbreviate(bare, style)]


def abbreviate(text: str, style: CounterStyle) -> str:
    """Each word with a short form in the layout replaced by it, keeping a lower-case initial."""

    def short(m: re.Match[str]) -> str:
        word = m.group(0)
        form = style.abbreviations.get(word.lower())
        if form is None:
            return word
        return form[:1].lower() + form[1:] if word[:1].islower() else form

    return re.sub(r"[A-Za-z]+", short, text)


def wrap(text: str, font: str, size: float, width: float) -> list[str] | None:
    """Greedy word wrap; None when one word alone is wider than `width`."""
    lines: list[str] = []
    for word in text.split():
        if text_width(word, font, size) > width + EPS:
            return None
        if lines and text_width(f"{lines[-1]} {word}", font, size) <= width + EPS:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def truncate(text: str, font: str, size: float, width: float) -> str:
    if text_width(text, font, size) <= width + EPS:
        return text
    while text and text_width(text.rstrip() + ELLIPSIS, font, size) > width + EPS:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def _sizes(high: float, low: float) -> list[float]:
    steps = max(0, math.floor((high - low) / 0.2 + EPS))
    return [round(high - 0.2 * k, 2) for k in range(steps + 1)]


def fit_text(
    texts: Sequence[str], font: str, high: float, low: float, width: float, height: float, leading: float, lines: int
) -> tuple[float, list[str]]:
    """The largest size from `high` down to `low` at which one of `texts` (first preferred)
    wraps into at most `lines` lines within `width` and `height`; else the last text at `low`,
    cut with an ellipsis between two words (in a word only when its first is too long alone)."""
    for size in _sizes(high, low):
        allowed = min(lines, max(1, math.floor((height + EPS) / (size * leading))))
        for text in texts:
            wrapped = wrap(text, font, size, width)
            if wrapped is not None and len(wrapped) <= allowed:
                return size, wrapped
    allowed = min(lines, max(1, math.floor(height / (low * leading))))
    words, out = texts[-1].split(), []
    for _ in range(allowed):
        line = ""
        while words and text_width(f"{line} {words[0]}".strip(), font, low) <= width:
            line = f"{line} {words.pop(0)}".strip()
        if not line and words:
            line = words.pop(0)
        out.append(line)
    if words:  # cut between words, never in one ("Markov Officer…", not "Markov Officer Re…")
        kept = out[-1].split()
        while kept and text_width(" ".join(kept) + ELLIPSIS, font, low) > width:
            kept.pop()
        out[-1] = " ".join(kept) + ELLIPSIS if kept else truncate(f"{out[-1]} {' '.join(words)}", font, low, width)
    return low, [truncate(line, font, low, width) for line in out]


def draw_name(
    c: Canvas,
    texts: Sequence[str],
    cx: float,
    width: float,
    below: float,
    top: float,
    sizes: tuple[float, float],
    leading: float,
    lines: int,
) -> None:
    """A counter's name centred on `cx` in the space from `below` to `top`: the first of `texts`
    (its short forms, longest first) that fits at the largest of `sizes` (most, least)."""
    texts = [curled(t) for t in texts]
    area = top - below
    size, found = fit_text(texts, SANS_BOLD, sizes[0], sizes[1], width, area, leading, lines)
    lead = size * leading
    block = (len(found) - 1) * lead + size * CAP  # cap height of the first line down to the last baseline
    base = below + (area - block) / 2 + block - size * CAP
    c.setFont(SANS_BOLD, size)
    for k, line in enumerate(found):
        c.drawCentredString(cx, base - k * lead, line)


def strength_line(
    c: Canvas,
    text: str,
    cx: float,
    base: float,
    width: float,
    figure: tuple[float, float],
    words: tuple[float, float],
) -> None:
    """A counter's strength centred on `cx`: its figures in the largest type on the counter, the
    words between them ('inf', 'carries') smaller, shrunk together to fit `width`, each no further
    than its least (size, least), the figures going on shrinking once the words are at theirs;
    past that, the words go and the figures are summed ('3')."""
    runs = [(run, run.isdigit()) for run in re.split(r"(\d+)", text) if run]

    def size(big: bool, k: float) -> float:
        most, least = figure if big else words
        return max(least, most * k)

    def measure(k: float) -> float:
        return sum(text_width(r, SANS_BOLD, size(big, k)) for r, big in runs)

    k = 1.0
    floor = figure[1] / figure[0]
    while k > floor and measure(k) > width + EPS:
        k -= 0.02
    if measure(k) > width + EPS:
        runs, k = [(str(sum(int(r) for r, big in runs if big)), True)], 1.0
    t = c.beginText(cx - measure(k) / 2, base)
    for run, big in runs:
        t.setFont(SANS_BOLD, size(big, k))
        t.textOut(run)
    c.drawText(t)


def back_fill(colour: str, style: CounterStyle) -> str:
    """A back's fill: the faction colour lightened by the layout's share, and further while its
    ink reads at under the layout's contrast (a black faction's back would be mid-grey)."""
    t = style.back.lighten
    while True:
        fill = lighten(colour, t)
        ink = "#000000" if ink_on(fill) == (0.0, 0.0, 0.0) else "#FFFFFF"
        if contrast(fill, ink) >= style.back.contrast or t >= 1:
            return fill
        t = min(1.0, t + 0.05)


def lighten(colour: str, t: float) -> str:
    r, g, b = (v + (1 - v) * t for v in hex_colour(colour))
    return f"#{round(r * 255):02X}{round(g * 255):02X}{round(b * 255):02X}"


@dataclass(frozen=True)
class Look:
    fill: str
    ink: RGB


class Sheets:
    """Draws the counter sheets of one scenario on one paper size."""

    def __init__(self, scenario: Scenario, paper: str, style: CounterStyle, counters: Sequence[Counter]) -> None:
        self.s = scenario
        self.paper = paper
        self.st = style
        self.factions: dict[str, Faction] = {f.id: f for f in scenario.meta.factions}
        self.groups: list[tuple[str, list[Counter]]] = []
        for c in counters:
            if not self.groups or self.groups[-1][0] != c.faction:
                self.groups.append((c.faction, []))
            self.groups[-1][1].append(c)
        self.layout = lay_out(style, paper, [len(cs) for _, cs in self.groups])
        self.of = self.layout.sheets
        """The sheets of the whole file, the markers' included (set when they follow)."""
        self.size = self.layout.grid.size
        f = style.fonts
        self.faces = {
            "figure": (SANS_BOLD, f.figure, f.figure_min),
            "stands": (SANS_BOLD, f.stands, f.stands_min),
            "commander": (SANS_ITALIC, f.commander, f.commander_min),
            "small": (SANS, f.small, f.small_min),
        }

    def counter(self, slot: Slot) -> Counter:
        faction, counters = self.groups[slot.group]
        if slot.index < len(counters):
            return counters[slot.index]
        return Counter(faction, "", "", "", "spare", spare=True)

    def faction_name(self, faction: str) -> str:
        f = self.factions.get(faction)
        return f.name if f else faction.replace("_", " ").title()

    def colour(self, faction: str) -> str:
        f = self.factions.get(faction)
        return f.colour if f else "#999999"

    # --- pages --------------------------------------------------------------------------------

    def names_on(self, sheet: int) -> list[str]:
        """The factions whose counters are on `sheet`, in order."""
        names: list[str] = []
        for h in self.layout.headings:
            if h.sheet == sheet and self.faction_name(self.groups[h.group][0]) not in names:
                names.append(self.faction_name(self.groups[h.group][0]))
        return names

    def page(self, c: Canvas, sheet: int, back: bool, titled: bool = True) -> None:
        """The units' part of a sheet's side, and the sheet's title where `titled`."""
        g, st = self.layout.grid, self.st
        if titled:
            self.title(c, sheet, back)
        for h in self.layout.headings:
            if h.sheet == sheet:
                self.heading(c, h, back)
        for slot in self.layout.slots:
            if slot.sheet == sheet:
                x = g.back_x(slot.x) if back else slot.x
                self.draw_counter(c, self.counter(slot), x, slot.y, back, self.layout.bleeds(slot, back))
        if not back:  # cut along the fronts' lines: on a back, a duplex shift of a millimetre would show them
            cut_lines(c, self.layout, sheet, st)

    def title(self, c: Canvas, sheet: int, back: bool) -> None:
        st = self.st
        side = "backs (out of supply)" if back else "fronts"
        text = f"{self.s.meta.title}: counters, sheet {sheet + 1} of {self.of}, {side}"
        if back:
            key = "Print double-sided, flipping on the long edge"
        else:
            key = "  ".join(f"{letter} {flag.title()}" for flag, letter in st.flag_letters.items())
        sheet_title(c, self.layout.grid, st, text, key)

    def heading(self, c: Canvas, h: Heading, back: bool) -> None:
        g, st = self.layout.grid, self.st
        faction, counters = self.groups[h.group]
        size = st.fonts.heading
        base = heading_base(st, h.y)
        chip = size * 1.3
        fill = self.colour(faction)
        c.setFillColorRGB(*hex_colour(back_fill(fill, st) if back else fill))
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.4)
        c.rect(g.x0, base - size * 0.25, chip, chip, stroke=1, fill=1)
        c.setFillColorRGB(*ink_on(back_fill(fill, st) if back else fill))
        faction_mark(c, faction, g.x0 + chip / 2, base - size * 0.25 + chip / 2, chip * 0.72)
        if back:
            more = ", out of supply (backs)"
        else:
            more = f", {len(counters)} counters" + (" (continued)" if h.continued else "")
        heading_text(c, st, g.x0 + chip + size * 0.5, h.y, self.faction_name(faction), more)

    # --- one counter ----------------------------------------------------------------------------

    def draw_counter(
        self, c: Canvas, counter: Counter, x: float, y: float, back: bool, bleed: Sides = (0.0, 0.0, 0.0, 0.0)
    ) -> None:
        """One counter, its ground running `bleed` past its sides (`Layout.bleeds`)."""
        st, size = self.st, self.size
        fill = self.colour(counter.faction)
        if back:
            fill = back_fill(fill, st)
        ink = ink_on(fill)
        c.saveState()
        c.setFillColorRGB(*hex_colour(fill))
        left, bottom, right, top = bleed
        c.rect(x - left, y - bottom, size + left + right, size + bottom + top, stroke=0, fill=1)
        c.setFillColorRGB(*ink)
        c.setStrokeColorRGB(*ink)
        pad, width = st.padding, size - 2 * st.padding
        cx = x + size / 2
        sym_y = y + st.lines.symbol_centre
        faction_mark(c, counter.faction, x + pad + st.mark / 2, sym_y, st.mark)
        box_w, box_h = st.symbol.width, st.symbol.height
        if counter.spare:
            c.setLineWidth(st.symbol.line * 0.6)
            c.setDash(1.2, 1.2)
            c.rect(cx - box_w / 2, sym_y - box_h / 2, box_w, box_h, stroke=1, fill=0)
            c.setDash()
        else:
            unit_symbol(c, counter.symbol, cx - box_w / 2, sym_y - box_h / 2, box_w, box_h, line=st.symbol.line)
            top = sym_y + box_h / 2
            if counter.size:
                base = top + st.lines.size_mark
                c.setFont(SANS_BOLD, st.fonts.size_mark)
                c.drawCentredString(cx, base, counter.size)
                top = base + st.fonts.size_mark * CAP + 1.0  # a clear gap: the mark is no line of the name
            self.name(c, counter, x, y, top)
            self.flags(c, counter, x + size - pad - st.flag.size / 2, sym_y, fill, ink)
        lines = st.lines
        if back:
            self.band(c, x, y, fill, ink, (left, right))
            self.strength(c, counter.stands, cx, y + lines.commander, width)
            if lines.small_under_commander:
                self.line(c, counter.note, "small", cx, y + lines.small, width, drop=True)
        else:
            self.strength(c, counter.stands, cx, y + lines.stands, width)
            if counter.commander:
                self.line(c, counter.commander, "commander", cx, y + lines.commander, width)
                if lines.small_under_commander:
                    self.line(c, counter.note, "small", cx, y + lines.small, width)
            else:
                self.small_print(c, counter.note, cx, y, width)
        c.restoreState()

    def name(self, c: Canvas, counter: Counter, x: float, y: float, below: float) -> None:
        """The unit's name, centred in the space above the symbol row, shrunk or shortened to fit."""
        st, f = self.st, self.st.fonts
        top = y + self.size - st.padding
        texts = name_forms(counter.name, st)
        width = self.size - 2 * st.padding
        draw_name(
            c, texts, x + self.size / 2, width, below + 1.0, top, (f.name_max, f.name_min), f.name_leading, f.name_lines
        )

    def flags(self, c: Canvas, counter: Counter, cx: float, cy: float, fill: str, ink: RGB) -> None:
        st = self.st
        letters = [st.flag_letters.get(f, f[:1].upper()) for f in counter.flags]
        s = st.flag.size
        step = s + 1.0
        for k, letter in enumerate(letters):
            my = cy + ((len(letters) - 1) / 2 - k) * step
            c.setFillColorRGB(*ink)
            c.rect(cx - s / 2, my - s / 2, s, s, stroke=0, fill=1)
            c.setFillColorRGB(*hex_colour(fill))
            c.setFont(SANS_BOLD, st.flag.font)
            c.drawCentredString(cx, my - st.flag.font * 0.36, letter)
        c.setFillColorRGB(*ink)

    def band(self, c: Canvas, x: float, y: float, fill: str, ink: RGB, bleed: tuple[float, float] = (0.0, 0.0)) -> None:
        """The back's OUT OF SUPPLY band across the counter, where the front has its stands,
        running `bleed` (left, right) past its sides."""
        st = self.st
        mid = y + st.back.band_centre
        h = st.back.band_height
        c.setFillColorRGB(*ink)
        c.rect(x - bleed[0], mid - h / 2, self.size + sum(bleed), h, stroke=0, fill=1)
        c.setFillColorRGB(*hex_colour(fill))
        size = st.fonts.band
        text = "OUT OF SUPPLY"
        if text_width(text, SANS_BOLD, size) > self.size - 2 * st.padding:
            text = "OoS"
        c.setFont(SANS_BOLD, size)
        c.drawCentredString(x + self.size / 2, mid - size * 0.36, text)
        c.setFillColorRGB(*ink)

    def strength(self, c: Canvas, text: str, cx: float, base: float, width: float) -> None:
        """The strength line centred on `cx` (`strength_line`)."""
        figure, words = self.faces["figure"], self.faces["stands"]
        strength_line(c, text, cx, base, width, (figure[1], figure[2]), (words[1], words[2]))

    def line(
        self, c: Canvas, text: str, face: str, cx: float, base: float, width: float, *, drop: bool = False
    ) -> None:
        """One centred line in `face` (stands, commander, small), shrunk to fit; with `drop`, leading
        words are left out (a slip's 'slip') rather than the end cut."""
        font, high, low = self.faces[face]
        words = curled(text).split()
        while drop and len(words) > 1 and text_width(" ".join(words), font, low) > width:
            words.pop(0)
        if words:
            size, fitted = fit_text([" ".join(words)], font, high, low, width, high, 1.0, 1)
            c.setFont(font, size)
            c.drawCentredString(cx, base, fitted[0])

    def small_print(self, c: Canvas, text: str, cx: float, y: float, width: float) -> None:
        """The small print where there is no commander: one line, or more (`small_lines`) when it is long."""
        f, st = self.st.fonts, self.st
        most = st.lines.small_lines
        size, lines = fit_text([curled(text)], SANS, f.small, f.small_min, width, f.small * 1.2 * most, 1.15, most)
        c.setFont(SANS, size)
        for k, line in enumerate(lines):
            c.drawCentredString(cx, y + st.lines.small + (len(lines) - 1 - k) * size * 1.2, line)
