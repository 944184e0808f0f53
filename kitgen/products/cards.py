"""The cards: the event deck (II.A), each faction's reinforcement/replacement pile (II.E) and the
commander cards (II.C), poker size, nine to a sheet.

Every card is printed with a bleed (its background runs past the trim). Neighbouring cards stand
two bleeds apart where the gutters fit, so the bleeds meet in the gutter and never overlap, and
butt, sharing their cut, where they do not (the columns on both papers, the rows on US Letter).
Crop marks stand outside the grid only, on every cut line, never nearer the paper's edge than
the layouts' clearance. The decks follow one another card by card; each sheet of fronts is
followed by its backs, mirrored for printing double-sided with a flip on the long edge: the back
of the card in column c stands in column (columns - 1 - c) of the same row.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from kitgen.model.forces import Effect, EventCard, Slip, UnitSpec
from kitgen.model.scenario import Commander, Scenario
from kitgen.products.cardkey import commander_label, event_label, slip_label
from kitgen.render.cardstyle import CardStyle, card_style
from kitgen.render.cardtext import (
    RGB,
    Bullet,
    CardOverflow,
    Divider,
    Item,
    Para,
    Run,
    Tokens,
    diamond,
    draw_block,
    fit,
    fit_title,
)
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_BOLD_ITALIC, SANS_ITALIC, text_width
from kitgen.render.pages import MM, PAPER, Part, faction_mark, hex_colour, ink_on, new_canvas, rgb_luminance
from kitgen.render.wording import signed

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


ALL = "all"
FILL_NON_ZERO = 1
"""reportlab's fill mode for the non-zero winding rule (its default is even-odd)."""
UMPIRE = "Umpire ruling"
"""The lead-in of an effect the umpire rules on, printed bold."""


def card_slots(paper: str, style: CardStyle | None = None) -> list[tuple[float, float]]:
    """The lower-left corners (points) of the trim boxes of a sheet's card slots, row by row from
    the top left: a grid of `columns` x `rows` cards, `gutter_mm` apart (or butting, sharing
    their cuts, where the gutters would not fit), centred on the page."""
    g = (style or card_style()).card
    page_w, page_h = PAPER[paper]
    w, h, gutter = g.width_mm * MM, g.height_mm * MM, g.gutter_mm * MM
    row_gutter = 0.0 if shared_rows(paper, style) else gutter
    col_gutter = 0.0 if shared_columns(paper, style) else gutter
    block_w = g.columns * w + (g.columns - 1) * col_gutter
    block_h = g.rows * h + (g.rows - 1) * row_gutter
    left, top = (page_w - block_w) / 2, (page_h + block_h) / 2
    return [
        (left + col * (w + col_gutter), top - h - row * (h + row_gutter))
        for row in range(g.rows)
        for col in range(g.columns)
    ]


def _butt(n: int, size_mm: float, page: float, style: CardStyle | None) -> bool:
    """Whether `n` cards of `size_mm` along a page side must butt: with gutters, their outer
    bleeds, the crop marks and the marks' clearance from the edge would not fit."""
    g = (style or card_style()).card
    need = n * size_mm + (n - 1) * g.gutter_mm + 2 * (g.bleed_mm + g.crop_mark_mm + g.mark_clearance_mm)
    return need * MM > page + 1e-6


def shared_rows(paper: str, style: CardStyle | None = None) -> bool:
    """Whether the rows butt and share their cuts (three poker cards down US Letter)."""
    g = (style or card_style()).card
    return _butt(g.rows, g.height_mm, PAPER[paper][1], style)


def shared_columns(paper: str, style: CardStyle | None = None) -> bool:
    """Whether the columns butt and share their cuts (three poker cards across A4 or US Letter)."""
    g = (style or card_style()).card
    return _butt(g.columns, g.width_mm, PAPER[paper][0], style)


def bleed_box(paper: str, slot: int, style: CardStyle | None = None) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) a card in slot `slot` may print into: its trim plus the bleed, except
    along a cut it shares with a neighbour."""
    s = style or card_style()
    g = s.card
    x, y = card_slots(paper, s)[slot]
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    row, col = divmod(slot, g.columns)
    rows, cols = shared_rows(paper, s), shared_columns(paper, s)
    top = 0.0 if rows and row > 0 else bleed
    bottom = 0.0 if rows and row < g.rows - 1 else bleed
    left = 0.0 if cols and col > 0 else bleed
    right = 0.0 if cols and col < g.columns - 1 else bleed
    return x - left, y - bottom, x + w + right, y + h + top


def back_slots(paper: str, style: CardStyle | None = None) -> list[tuple[float, float]]:
    """Where the back of the card in each slot of `card_slots` is printed on the next page, for
    long-edge duplex: x mirrored across the page (back x = page width - front x - card width),
    the same row."""
    s = style or card_style()
    page_w = PAPER[paper][0]
    w = s.card.width_mm * MM
    return [(page_w - x - w, y) for x, y in card_slots(paper, s)]


# --- the effects in words ----------------------------------------------------------------------


def _turns(n: int | None) -> str:
    n = n or 1
    if n == 1:
        return "this turn"
    if n == 2:
        return "this turn and the next"
    return f"this turn and the next {n - 1}"


def _plural(name: str, n: int) -> str:
    return name if n == 1 else name + "s"


def _lower(name: str) -> str:
    """'Machine-gun stand' -> 'machine-gun stand'; acronyms (RR) keep their capitals."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in name.split())


def _stand_name(scenario: Scenario, kind: str) -> str:
    found = next((s.name for s in scenario.transport.stands if s.id == kind), kind.replace("_", " "))
    return _lower(found)


def stand_phrase(scenario: Scenario, kind: str, n: int) -> str:
    """'3 infantry stands', '1 machine-gun stand', '2 armored cars' (the names of transport.yaml)."""
    return f"{n} {_plural(_stand_name(scenario, kind), n)}"


def stands_short(scenario: Scenario, stands: dict[str, int]) -> str:
    """'3 infantry, 1 machine-gun': the stands of a unit, without the word 'stand'."""
    parts = []
    for kind, n in stands.items():
        name = _stand_name(scenario, kind)
        parts.append(f"{n} {name.removesuffix(' stand')}" if name.endswith(" stand") else f"{n} {_plural(name, n)}")
    return ", ".join(parts)


def unit_text(scenario: Scenario, unit: UnitSpec) -> str:
    """ "Grigoriev's insurgents (3 infantry, 1 machine-gun; partisan)"."""
    flags = f"; {', '.join(unit.flags)}" if unit.flags else ""
    return f"{unit.name} ({stands_short(scenario, unit.stands)}{flags})"


def _who(scenario: Scenario, faction: str | None) -> tuple[str, bool]:
    """The faction as a sentence's subject, and whether the verb is plural."""
    if faction is None or faction == ALL:
        return "Every faction", False
    return scenario.faction_name(faction), True


def _verb(plural: bool, verb: str) -> str:
    return verb if plural else {"lose": "loses", "gain": "gains", "draw": "draws"}.get(verb, verb + "s")


def _adjective(scenario: Scenario, faction: str | None) -> str:
    found = scenario.faction(faction) if faction else None
    return found.adjective if found else "every faction's"


def _unit_types(scenario: Scenario, types: Sequence[str]) -> str:
    land = [t for t in scenario.movement.unit_types if not t.rail_only]
    if not types or {t.id for t in land} <= set(types):
        return "land units"
    names = [_lower(next((t.name for t in land if t.id == k), k.replace("_", " "))) for k in types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _place(scenario: Scenario, at: str | None) -> str:
    """A place as cards print it: a town by its 1919 name (RULES-NOTES: maps and cards print the
    1919 name), any other place as the data names it."""
    town = scenario.find_town(at) if at else None
    return town.shown_name if town is not None else (at or "")


def effect_text(effect: Effect, scenario: Scenario) -> str:
    """One effect of an event card as an English sentence in rule terms (section in brackets)."""
    e = effect
    f = e.faction
    who, plural = _who(scenario, f)
    if e.kind == "vp":
        amount = e.amount or 0
        return f"{who} {_verb(plural, 'gain' if amount >= 0 else 'lose')} {abs(amount)} VP."
    if e.kind == "draws":
        n = e.draws or 1
        return f"{who} {_verb(plural, 'draw')} {n} extra reinforcement {_plural('slip', n)} (II.E)."
    if e.kind == "command":
        m = e.modifier or 0
        sense = "harder" if m > 0 else "easier"
        return (
            f"{signed(m)} to {_adjective(scenario, f)} command-control rolls {_turns(e.turns)} (II.C): "
            f"orders are {sense} to obey."
        )
    if e.kind == "movement":
        m = e.modifier or 0
        types = _unit_types(scenario, e.unit_types)
        whose = f"the {types} of every faction" if f in (None, ALL) else f"{_adjective(scenario, f)} {types}"
        return f"{signed(m)} MP for {whose} {_turns(e.turns)} (A)."
    if e.kind == "supply_cut":
        if f in (None, ALL):
            return f"Every unit counts as out of supply {_turns(e.turns)} (B)."
        return f"{_adjective(scenario, f)} units count as out of supply {_turns(e.turns)} (B)."
    if e.kind == "track_destroyed":
        return f"The railway at {_place(scenario, e.at)} is wrecked (C.2)."
    if e.kind == "alliance":
        names = [scenario.faction_name(x) for x in e.factions]
        return f"{' and '.join(names)} are allies, not enemies, {_turns(e.turns)}."
    if e.kind == "units":
        verb = "Joins" if len(e.units) == 1 else "Join"
        units = "; ".join(unit_text(scenario, u) for u in e.units)
        return f"{verb} the {who} at {_place(scenario, e.at)}: {units}."
    if e.kind == "remove_stands":
        n = e.count or 1
        stands = stand_phrase(scenario, e.stand or "infantry", n)
        whose = "their" if plural else "its"
        choice = f"from a unit of {whose} choice" if n == 1 else f"from units of {whose} choice"
        return f"{who} {_verb(plural, 'lose')} {stands}, {choice}."
    if e.kind == "town_owner":
        return f"{_place(scenario, e.at)} passes to the {who}."
    return f"{UMPIRE}: {e.text}"


# --- colour ------------------------------------------------------------------------------------


def _mix(a: RGB, b: RGB, t: float) -> RGB:
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
        accent = _mix(col, ink, 0.45) if rgb_luminance(col) > 0.35 else col
        return cls(
            colour=col,
            on_colour=ink_on(colour),
            accent=accent,
            paper=hex_colour(style.colours.paper),
            ink=ink,
            muted=hex_colour(style.colours.muted),
            rule=hex_colour(style.colours.rule),
        )


# --- text --------------------------------------------------------------------------------------


# --- drawing helpers ---------------------------------------------------------------------------


def _spaced(c: Canvas, text: str, font: str, size: float, cx: float, y: float, spacing: float) -> None:
    """Letter-spaced small capitals, centred on cx."""
    w = text_width(text, font, size) + spacing * (len(text) - 1)
    c.setFont(font, size)
    c.drawString(cx - w / 2, y, text, charSpace=spacing)


def _hexagon(c: Canvas, cx: float, cy: float, size: float, *, fill: bool = True) -> None:
    """The map's hex, flat-topped, `size` across the corners."""
    r = size / 2
    p = c.beginPath()
    for k in range(6):
        a = math.radians(60 * k)
        (p.moveTo if k == 0 else p.lineTo)(cx + r * math.cos(a), cy + r * math.sin(a))
    p.close()
    c.drawPath(p, stroke=0 if fill else 1, fill=1 if fill else 0)


def _mark(c: Canvas, faction: str | None, cx: float, cy: float, size: float) -> None:
    """A faction's mark, or the event deck's hex for no faction, in the current fill colour.
    Filled non-zero, so that where the mark's bars overlap (the cross, the trident) there is no hole."""
    c.saveState()
    c._fillMode = FILL_NON_ZERO  # type: ignore[attr-defined]  # no setter; restoreState resets it
    if faction:
        faction_mark(c, faction, cx, cy, size)
    else:
        _hexagon(c, cx, cy, size)
    c.restoreState()


def _faction_bullet(scenario: Scenario, faction: str | None, ink: RGB, neutral: RGB) -> Bullet:
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
            _mark(c, found.id, cx, cy, r * 1.25)
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


def _frame(c: Canvas, x: float, y: float, style: CardStyle, pal: Palette) -> tuple[Box, Box, Box]:
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
    foot_box = Box(panel.x + pad, panel.y + inner, panel.w - 2 * pad, foot - inner)
    return band_box, text_box, foot_box


def _band(
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
    _spaced(c, label.upper(), SANS_BOLD, fonts.label, cx, label_y, 0.9)
    room_top = box.top - fonts.label * 1.5
    if mark is None:
        half = (text_width(label.upper(), SANS_BOLD, fonts.label) + 0.9 * len(label)) / 2
        for side in (-1, 1):
            _hexagon(c, cx + side * (half + 2.2 * MM), label_y + fonts.label * 0.36, fonts.label * 0.95)
        text_w = box.w - 2 * MM
    else:
        mark_size = min(box.h * 0.5, 7 * MM)
        for side in (-1, 1):
            mx = cx + side * (box.w / 2 - mark_size / 2 - 0.5 * MM)
            _mark(c, mark, mx, box.y + (room_top - box.y) / 2, mark_size)
        text_w = box.w - 2 * mark_size - 5 * MM
    size, lines = fit_title(title, SANS_BOLD, title_size or fonts.title, title_min or fonts.title_min, text_w, 2)
    lead = size * 1.08
    block = lead * (len(lines) - 1) + size * 0.72
    base = box.y + (room_top - box.y + block) / 2 - size * 0.72
    c.setFont(SANS_BOLD, size)
    for k, line in enumerate(lines):
        c.drawCentredString(cx, base - k * lead, line)
    c.restoreState()


def _foot(c: Canvas, box: Box, pal: Palette, style: CardStyle, note: str, card_id: str, *, strong: bool) -> None:
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
        note_w = room
    if strong:
        pad = 1.0 * MM
        c.setFillColorRGB(*pal.accent)
        c.roundRect(
            box.x - pad, y - 1.1 * MM + size * 0.25, note_w + 2 * pad, size + 1.1 * MM, 1.2 * MM, stroke=0, fill=1
        )
        c.setFillColorRGB(*ink_on(_hex(pal.accent)))
    else:
        c.setFillColorRGB(*pal.accent)
    c.setFont(SANS_BOLD, size)
    c.drawString(box.x, y, note)
    c.setFillColorRGB(*pal.muted)
    c.setFont(SANS, fonts.card_id)
    c.drawRightString(box.x + box.w, y, card_id)
    c.restoreState()


# --- the fronts --------------------------------------------------------------------------------


def event_front(c: Canvas, x: float, y: float, card: EventCard, scenario: Scenario, style: CardStyle) -> None:
    pal = Palette.of(style.colours.events, style)
    band, text, foot = _frame(c, x, y, style, pal)
    _band(c, band, pal, style, "Event", card.title, None)
    fonts = style.fonts
    items: list[Para | Divider] = [
        Para(((card.history, SANS_ITALIC),), fonts.history, pal.muted, centre=True, leading=1.25),
        Divider(fonts.body, pal.accent, height=1.5),
    ]
    for k, effect in enumerate(card.effects):
        sentence = effect_text(effect, scenario)
        if effect.kind == "umpire":
            runs: tuple[Run, ...] = ((UMPIRE + ":", SANS_BOLD), (sentence.removeprefix(UMPIRE + ":"), SANS))
        else:
            runs = ((sentence, SANS),)
        who = effect.faction if effect.kind not in ("alliance", "umpire", "track_destroyed") else None
        bullet = _faction_bullet(scenario, who, pal.ink, pal.accent)
        items.append(Para(runs, fonts.body, pal.ink, bullet=bullet, space_before=0.35 if k else 0.0))
    laid = fit(items, text.w, text.h, fonts.body_min / fonts.body, f"event card '{card.id}'")
    draw_block(c, laid, text.x, text.top - (text.h - laid.height) * 0.4, text.w)
    note = "Return to the deck and reshuffle" if card.returns_to_deck else "Discard after use"
    _foot(c, foot, pal, style, note, event_label(scenario, card.id), strong=card.returns_to_deck)


def slip_kind(slip: Slip) -> str:
    if slip.units and slip.replacements:
        return "Reinforcements + drafts"
    return "Reinforcements" if slip.units else "Replacements"


def _stand_tokens(scenario: Scenario, stands: dict[str, int], size: float, pal: Palette, indent: float) -> Tokens:
    labels = stands_short(scenario, stands).split(", ")
    return Tokens(
        tuple(zip(stands, labels, strict=True)), size, _mix(pal.colour, pal.paper, 0.55), pal.ink, pal.ink, indent
    )


def slip_front(c: Canvas, x: float, y: float, faction: str, slip: Slip, scenario: Scenario, style: CardStyle) -> None:
    found = scenario.faction(faction)
    pal = Palette.of(found.colour if found else style.colours.events, style)
    band, text, foot = _frame(c, x, y, style, pal)
    adjective = found.adjective if found else faction
    _band(c, band, pal, style, f"{adjective} pile  II.E", slip_kind(slip), faction)
    fonts = style.fonts
    items: list[Item] = [Para(((slip.text, SANS),), fonts.body, pal.ink)]
    bullet = _faction_bullet(scenario, faction, pal.ink, pal.accent)
    if slip.units:
        items.append(Divider(fonts.body, pal.accent, height=1.6))
        for k, unit in enumerate(slip.units):
            runs: tuple[Run, ...] = ((unit.name, SANS_BOLD),)
            if unit.flags:
                runs += ((f"({', '.join(unit.flags)})", SANS_ITALIC),)
            items.append(Para(runs, fonts.body, pal.ink, bullet=bullet, space_before=0.5 if k else 0.0))
            items.append(_stand_tokens(scenario, unit.stands, fonts.body * 0.9, pal, 1.6 / 0.9))
    if slip.replacements:
        items.append(Divider(fonts.body, pal.accent, height=1.6))
        items.append(Para((("Replacement stands", SANS_BOLD),), fonts.body, pal.ink, bullet=_plus(pal)))
        items.append(_stand_tokens(scenario, slip.replacements, fonts.body * 0.9, pal, 1.6 / 0.9))
    laid = fit(items, text.w, text.h, fonts.body_min / fonts.body, f"slip '{slip.id}'")
    draw_block(c, laid, text.x, text.top - (text.h - laid.height) * 0.4, text.w)
    note = "Back into the pile" if slip.returns_to_pile else "Set aside: does not return"
    _foot(c, foot, pal, style, note, slip_label(scenario, faction, slip.id), strong=not slip.returns_to_pile)


def _plus(pal: Palette) -> Bullet:
    def draw(c: Canvas, cx: float, cy: float, size: float) -> None:
        c.saveState()
        c.setFillColorRGB(*pal.accent)
        t, r = size * 0.2, size * 0.45
        c.rect(cx - r, cy - t / 2, 2 * r, t, stroke=0, fill=1)
        c.rect(cx - t / 2, cy - r, t, 2 * r, stroke=0, fill=1)
        c.restoreState()

    return draw


def obey_text(rating: int) -> str:
    """II.C.1: a D10 at or under the rating obeys."""
    if rating >= 10:
        return "Roll D10: obeys on 1-10 (100%)"
    if rating == 1:
        return "Roll D10: obeys on a 1 only (10%)"
    return f"Roll D10: obeys on 1-{rating} ({rating * 10}%)"


def _sunburst(c: Canvas, cx: float, cy: float, size: float) -> None:
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


def commander_front(c: Canvas, x: float, y: float, commander: Commander, scenario: Scenario, style: CardStyle) -> None:
    found = scenario.faction(commander.faction)
    pal = Palette.of(found.colour if found else style.colours.events, style)
    band, text, foot = _frame(c, x, y, style, pal)
    fonts = style.fonts
    adjective = found.adjective if found else commander.faction
    _band(
        c, band, pal, style, f"{adjective} commander", commander.name, commander.faction,
        title_size=fonts.name, title_min=fonts.name_min,
    )  # fmt: skip
    rating = commander.dependability
    cx = text.x + text.w / 2
    r = fonts.rating * 0.62
    disc_h = 2 * r + fonts.label * 1.9
    track_h = 4.4 * MM
    words: list[Item] = [
        Para(((obey_text(rating), SANS_BOLD),), fonts.body, pal.ink, centre=True),
        Para(
            (("After a failure, each next roll is 1 lower until he obeys (II.C.4).", SANS),),
            fonts.history,
            pal.muted,
            centre=True,
            space_before=0.2,
        ),
    ]
    laid = fit(words, text.w, text.h / 3, fonts.body_min / fonts.body, f"commander '{commander.name}'")
    charisma_h = 9.5 * MM
    gap = (text.h - disc_h - track_h - laid.height - charisma_h) / 4
    if gap < 0:
        raise CardOverflow(f"commander '{commander.name}': the card is too small for its parts")
    c.saveState()
    # the rating, big, in a double ring
    top = text.top - gap * 0.6
    cy = top - r
    c.setFillColorRGB(*pal.colour)
    c.setStrokeColorRGB(*pal.accent)
    c.setLineWidth(1.2)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.setStrokeColorRGB(*pal.paper)
    c.setLineWidth(0.7)
    c.circle(cx, cy, r - 1.8, stroke=1, fill=0)
    c.setFillColorRGB(*pal.on_colour)
    number = str(rating)
    size = min(fonts.rating, fonts.rating * 1.3 * r / max(1.0, text_width(number, SANS_BOLD, fonts.rating)))
    c.setFont(SANS_BOLD, size)
    c.drawCentredString(cx, cy - size * 0.36, number)
    c.setFillColorRGB(*pal.accent)
    _spaced(c, "DEPENDABILITY", SANS_BOLD, fonts.label, cx, cy - r - fonts.label * 1.7, 0.9)
    # the D10 track: the rolls that obey are filled
    top -= disc_h + gap
    cell = text.w / 10
    for k in range(1, 11):
        bx = text.x + (k - 1) * cell
        obeys = k <= rating
        c.setLineWidth(0.4)
        c.setStrokeColorRGB(*pal.accent)
        c.setFillColorRGB(*(pal.colour if obeys else pal.paper))
        c.rect(bx + 0.3, top - track_h, cell - 0.6, track_h, stroke=1, fill=1)
        c.setFillColorRGB(*(pal.on_colour if obeys else pal.muted))
        c.setFont(SANS_BOLD if obeys else SANS, fonts.foot * 1.1)
        c.drawCentredString(bx + cell / 2, top - track_h / 2 - fonts.foot * 0.4, str(k))
    c.restoreState()
    top -= track_h + gap
    draw_block(c, laid, text.x, top, text.w)
    top -= laid.height + gap
    _charisma(c, cx, top, charisma_h, commander.charismatic, pal, style)
    same = sum(1 for other in scenario.commanders if other.faction == commander.faction)
    note = f"Rank {scenario.rank(commander)} of {same} (II.C.3)"
    _foot(c, foot, pal, style, note, commander_label(scenario, commander), strong=False)


def _charisma(
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
    on = ink_on(_hex(pal.accent))
    c.setFillColorRGB(*on)
    _spaced(c, label, SANS_BOLD, size, cx + size * 0.9, ry + rh / 2 - size * 0.36, 0.8)
    _sunburst(c, cx - w / 2 + size * 1.2, ry + rh / 2, size * 1.3)
    c.setFillColorRGB(*pal.muted)
    c.setFont(SANS_ITALIC, fonts.history)
    c.drawCentredString(cx, ry - fonts.history * 1.35, "Affects tabletop battles only (II.C.5)")
    c.restoreState()


def _hex(rgb: RGB) -> str:
    return "#" + "".join(f"{round(v * 255):02X}" for v in rgb)


# --- the backs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Back:
    colour: str
    title: str
    subtitle: str
    marks: tuple[str | None, ...]
    """Faction marks in the medallion (None: the event deck's hex)."""


def draw_back(c: Canvas, back: Back, scenario: Scenario, style: CardStyle) -> None:
    """A card back at (0, 0): the colour and a lattice to the bleed, a medallion with the deck's
    mark(s), the deck's name and the scenario's title."""
    g = style.card
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    pal = Palette.of(back.colour, style)
    on = pal.on_colour
    light = on == (1.0, 1.0, 1.0)
    faint = _mix(pal.colour, on, 0.16)
    c.saveState()
    c.setFillColorRGB(*pal.colour)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    # the lattice: diagonals both ways, clipped to the bleed box
    clip = c.beginPath()
    clip.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed)
    c.clipPath(clip, stroke=0, fill=0)
    c.setStrokeColorRGB(*faint)
    c.setLineWidth(0.5)
    step = 3.6 * MM
    span = w + h + 4 * bleed
    k = -span
    while k <= span:
        c.line(w / 2 + k - span, h / 2 - span, w / 2 + k + span, h / 2 + span)
        c.line(w / 2 + k - span, h / 2 + span, w / 2 + k + span, h / 2 - span)
        k += step
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
        _mark(c, back.marks[0], cx, cy, r * 1.15)
    else:
        across = math.ceil(math.sqrt(len(back.marks)))
        down = math.ceil(len(back.marks) / across)
        step = r * 1.05 / across
        for k, mark in enumerate(back.marks):
            col, row = k % across, k // across
            mx = cx + (col - (across - 1) / 2) * step
            my = cy - (row - (down - 1) / 2) * step
            _mark(c, mark, mx, my, step * 0.7)
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
    c.setFillColorRGB(*_mix(pal.colour, on, 0.8))
    _spaced(c, back.subtitle.upper(), SANS_BOLD, fonts.back_sub, cx, sub_y, 0.6)
    title = scenario.meta.title
    c.setFont(SANS_BOLD_ITALIC, fonts.back_sub * 1.25)
    c.drawCentredString(cx, border + 4.2 * MM, title)
    c.restoreState()


# --- the decks and the sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    title: str
    """For the bookmarks: 'Event deck', 'Red reinforcement pile', 'Commanders'."""
    back: Back
    fronts: tuple[Callable[[Canvas, float, float], None], ...]


def decks(scenario: Scenario, style: CardStyle) -> list[Deck]:
    """The event deck, each faction's pile (in the scenario's faction order), the commanders."""
    events = Deck(
        "Event deck",
        Back(style.colours.events, "Events", "Random event  II.A", (None,)),
        tuple(partial(event_front, card=card, scenario=scenario, style=style) for card in scenario.cards.events),
    )
    order = [f.id for f in scenario.meta.factions]
    piles = sorted(scenario.cards.piles, key=lambda f: order.index(f) if f in order else len(order))
    out = [events]
    for faction in piles:
        found = scenario.faction(faction)
        adjective = found.adjective if found else faction
        out.append(
            Deck(
                f"{adjective} reinforcement pile",
                Back(
                    found.colour if found else style.colours.events, adjective, "Reinforcement pile  II.E", (faction,)
                ),
                tuple(
                    partial(slip_front, faction=faction, slip=slip, scenario=scenario, style=style)
                    for slip in scenario.cards.piles[faction]
                ),
            )
        )
    commanders = sorted(scenario.commanders, key=lambda m: order.index(m.faction) if m.faction in order else len(order))
    marks = tuple(f for f in order if any(m.faction == f for m in commanders))
    out.append(
        Deck(
            "Commanders",
            Back(style.colours.commanders_back, "Commanders", "Command control  II.C", marks),
            tuple(partial(commander_front, commander=m, scenario=scenario, style=style) for m in commanders),
        )
    )
    return out


def crop_mark_lines(
    slots: Sequence[tuple[float, float]], style: CardStyle, paper: str
) -> list[tuple[float, float, float, float]]:
    """The crop marks of the used slots, as lines: each cut line of a card marked outside the
    sheet's grid, at both ends (never between cards, where it would print on one), a bleed out
    from the grid's trim where there is room, and never nearer the paper's edge than the clearance."""
    g = style.card
    w, h = g.width_mm * MM, g.height_mm * MM
    page_w, page_h = PAPER[paper]
    grid = card_slots(paper, style)
    left, right = min(x for x, _ in grid), max(x for x, _ in grid) + w
    bottom, top = min(y for _, y in grid), max(y for _, y in grid) + h
    bleed, length, clear = g.bleed_mm * MM, g.crop_mark_mm * MM, g.mark_clearance_mm * MM

    def span(margin: float) -> tuple[float, float]:
        """(offset from the trim, length) of a mark in a margin this wide."""
        room = margin - clear
        size = min(length, max(room - 0.5 * MM, 0.0))
        return min(bleed, room - size), size

    xs = sorted({round(v, 4) for x, _ in slots for v in (x, x + w)})
    ys = sorted({round(v, 4) for _, y in slots for v in (y, y + h)})
    lines = []
    (top_off, top_len), (bottom_off, bottom_len) = span(page_h - top), span(bottom)
    (left_off, left_len), (right_off, right_len) = span(left), span(page_w - right)
    for x in xs:
        lines.append((x, top + top_off, x, top + top_off + top_len))
        lines.append((x, bottom - bottom_off, x, bottom - bottom_off - bottom_len))
    for y in ys:
        lines.append((left - left_off, y, left - left_off - left_len, y))
        lines.append((right + right_off, y, right + right_off + right_len, y))
    return [ln for ln in lines if ln[:2] != ln[2:]]


def draw_crop_marks(c: Canvas, slots: Sequence[tuple[float, float]], style: CardStyle, paper: str) -> None:
    """The used slots' crop marks (`crop_mark_lines`), hairlines over white halos."""
    lines = crop_mark_lines(slots, style, paper)
    g = style.card
    if g.crop_halo_pt > 0:
        c.saveState()
        c.setStrokeColorRGB(1, 1, 1)
        c.setLineWidth(g.crop_halo_pt)
        for line in lines:
            c.line(*line)
        c.restoreState()
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.25)
    for line in lines:
        c.line(*line)
    c.restoreState()


def _clip(c: Canvas, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    path = c.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    c.clipPath(path, stroke=0, fill=0)


def _back_form(deck: int) -> str:
    return f"kitgenCardBack{deck}"


def sheets(count: int, per_sheet: int) -> list[range]:
    """The card indices on each sheet of a deck of `count` cards."""
    return [range(k, min(k + per_sheet, count)) for k in range(0, count, per_sheet)]


def build_cards(scenario: Scenario, paper: str, style: CardStyle | None = None) -> list[Part]:
    """The cards as one part: the decks one after another, filling the sheets' slots in turn (a
    deck starts on the next free card, not a new sheet), each sheet of fronts followed by its
    backs, every card's back its own deck's."""
    s = style or card_style()
    size = PAPER[paper]
    buf = io.BytesIO()
    c = new_canvas(buf, size, scenario, "cards")
    fronts, backs = card_slots(paper, s), back_slots(paper, s)
    per_sheet = len(fronts)
    g = s.card
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    every = decks(scenario, s)
    for number, deck in enumerate(every):
        c.beginForm(
            _back_form(number), -math.ceil(bleed), -math.ceil(bleed), math.ceil(w + bleed), math.ceil(h + bleed)
        )
        draw_back(c, deck.back, scenario, s)
        c.endForm()
    cards = [(number, front) for number, deck in enumerate(every) for front in deck.fronts]
    firsts: dict[int, int] = {}
    for k, (number, _) in enumerate(cards):
        firsts.setdefault(number, k)
    bookmarks: list[tuple[str, int]] = []
    page = 0
    for sheet in sheets(len(cards), per_sheet):
        for number, first in firsts.items():
            if first in sheet:
                title = every[number].title
                bookmarks.append((title, page))
                c.bookmarkPage(f"deck{number}")
                c.addOutlineEntry(title, f"deck{number}", level=0)
        used = [fronts[k - sheet.start] for k in sheet]
        for k, (x, y) in zip(sheet, used, strict=True):
            c.saveState()
            _clip(c, bleed_box(paper, k - sheet.start, s))
            cards[k][1](c, x, y)
            c.restoreState()
        draw_crop_marks(c, used, s, paper)
        c.showPage()
        for k in sheet:
            x, y = backs[k - sheet.start]
            x0, y0, x1, y1 = bleed_box(paper, k - sheet.start, s)
            mirror = size[0] - x1  # the back's box: mirrored across the page, like its card
            c.saveState()
            _clip(c, (mirror, y0, mirror + x1 - x0, y1))
            c.translate(x, y)
            c.doForm(_back_form(cards[k][0]))
            c.restoreState()
        c.showPage()
        page += 2
    c.save()
    return [
        Part(
            file=f"cards-{paper}.pdf",
            title="Cards",
            purpose=(
                "the event deck, the reinforcement piles and the commander cards, poker size, nine to a sheet: "
                "print double-sided, flipping on the long edge, and cut at the crop marks"
            ),
            pdf=buf.getvalue(),
            pages=page,
            bookmarks=tuple(bookmarks),
            duplex=True,
        )
    ]
