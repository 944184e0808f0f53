"""Where everything stands on a page of the umpire's battle report form and of the roll sheet: a
block per unit (or roll), its lines of bubbles under their numbers, a beaten unit's hexagon of
six with the hex across each side, every word printed round them. The page is drawn from this
plan, and `kitgen orders scan` reads a scanned page back by the same plan, made again from the
data (the contact's `BattleForm`, the turn's `SheetRoll`s) and the page's QR code
(`ReportPage`): there are no template files. The margins, corner markers, QR code, identity
strip, bubbles and hexagons are the order form's (`kitgen.orders.sheetplan`).

Lengths are PDF points from the page's lower left corner."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.model.base import Model
from kitgen.orders.sheetplan import CAMPAIGN_CHARS, SIDES, Bubble, OrderFormLayout, PagePlan, layout_for
from kitgen.render.lengths import Length
from kitgen.reports.battleform import (
    AMMO,
    BREAKOUT,
    CAPTURED,
    CONTACT,
    EQUIPMENT,
    FATE,
    LOST,
    ROUTED,
    SHIP,
    SURRENDER,
    WINNER,
    BattleForm,
    FormUnit,
    capturable,
)
from kitgen.reports.rollsheet import ROLL, SheetRoll, choices

if TYPE_CHECKING:
    from kitgen.model.scenario import Scenario

REPORT_VERSION = 3
"""The forms' version in their QR codes (`KG3B`, `KG3R`): a page of another version is not read
by this geometry (raise it whenever a bubble moves)."""
KEY_CHARS = 10
"""The leading characters of a contact's or a sheet's key the QR code carries."""
Kind = Literal["B", "R"]
"""A battle report form ('B') or the roll sheet ('R')."""
Align = Literal["left", "centre", "right"]


class ReportFormLayout(Model):
    """layouts/reportforms.yaml: one paper's geometry of the report forms' lines."""

    pitch: Length = Field(gt=0)
    line: Length = Field(gt=0)
    number_gap: Length = Field(ge=0)
    label_gap: Length = Field(ge=0)
    item_gap: Length = Field(ge=0)
    unit_head: Length = Field(gt=0)
    side_head: Length = Field(gt=0)
    block_gap: Length = Field(ge=0)
    fate: Length = Field(gt=0)
    roll_number: Length = Field(gt=0)
    roll_words: Length = Field(gt=0)
    name_font: Length = Field(gt=0)


class ReportFormLayouts(Model):
    layouts: dict[str, ReportFormLayout]


@cache
def report_layouts(path: Path | None = None) -> dict[str, ReportFormLayout]:
    """The report forms' layouts by paper, from layouts/reportforms.yaml."""
    from kitgen.render.style import layouts_dir, load_layout

    return load_layout(ReportFormLayouts, path or layouts_dir() / "reportforms.yaml", named="layouts").layouts


def report_layout(paper: str) -> ReportFormLayout:
    layouts = report_layouts()
    return layouts.get(paper, layouts["a4"])


@dataclass(frozen=True)
class ReportPage:
    """Which page it is, as its QR code says: the form's kind, the campaign (`campaign_key`'s
    first `CAMPAIGN_CHARS`), the contact's or the sheet's key (its first `KEY_CHARS`), a battle's
    hex, the turn, the page and the paper. `FormPage.parse` refuses it, and `parse` an order
    form's code."""

    kind: Kind
    campaign: str
    key: str
    turn: int
    page: int
    pages: int
    paper: str
    hex: str = ""
    version: int = REPORT_VERSION

    def code(self) -> str:
        """The QR code's text, in QR's alphanumeric characters: `KG3B/<campaign>/<contact>/<hex>/
        <turn>/<page>/<pages>/<A|L>`, `KG3R/<campaign>/<sheet>/<turn>/<page>/<pages>/<A|L>`."""
        keys = (self.campaign[:CAMPAIGN_CHARS].upper(), self.key[:KEY_CHARS].upper())
        where = (self.hex,) if self.kind == "B" else ()
        numbers = (str(self.turn), str(self.page), str(self.pages))
        return "/".join((f"KG{self.version}{self.kind}", *keys, *where, *numbers, _PAPERS[self.paper]))

    @classmethod
    def parse(cls, text: str) -> ReportPage | None:
        """The page a QR code's text names, or None if it is no report form's or roll sheet's."""
        parts = text.strip().split("/")
        head = _HEAD.fullmatch(parts[0]) if parts else None
        if head is None:
            return None
        kind: Kind = "B" if head.group(2) == "B" else "R"
        if len(parts) != (8 if kind == "B" else 7):
            return None
        campaign, key, *rest, paper = parts[1:]
        where = rest.pop(0) if kind == "B" else ""
        hexes_ok = kind == "R" or (where.isascii() and where.isdigit() and len(where) <= 6)
        if not hexes_ok or not all(n.isascii() and n.isdigit() and len(n) <= 4 for n in rest):
            return None
        keys = ((campaign, CAMPAIGN_CHARS), (key, KEY_CHARS))
        if paper not in _PAPERS.values() or not all(_hexdigits(k, n) for k, n in keys):
            return None
        turn, page, pages = map(int, rest)
        paper_name = next(p for p, letter in _PAPERS.items() if letter == paper)
        return cls(kind, campaign.lower(), key.lower(), turn, page, pages, paper_name, where, int(head.group(1)))


_HEAD = re.compile(r"KG([0-9]{1,3})([BR])")
_PAPERS = {"a4": "A", "letter": "L"}


def _hexdigits(key: str, length: int) -> bool:
    return len(key) == length and all(ch in "0123456789ABCDEF" for ch in key)


# --- what a plan holds, besides the order form's markers, QR code and bubbles ----------------------

Ground = Literal["heading", "side", "block"]
WordKind = Literal["name", "lead", "label", "number", "note", "hex", "off", "chip"]


@dataclass(frozen=True)
class Stretch:
    """A stretch of the page under what stands on it: a heading bar, the bar naming a side (or a
    faction's rolls), or a unit's or a roll's block (tinted on every other one)."""

    kind: Ground
    top: float
    bottom: float
    text: str = ""
    ref: str = ""
    faction: str | None = None
    row: str = ""
    tint: bool = False


@dataclass(frozen=True)
class Words:
    """A word or line printed, at its baseline."""

    x: float
    y: float
    text: str
    kind: WordKind
    align: Align = "left"
    faction: str | None = None
    """A chip's faction: its colour and mark before the name."""
    fit: float | None = None
    """The points it may take at most (shrunk to the forms' least type to fit)."""


@dataclass(frozen=True)
class Line:
    """A line of bubbles the umpire marks one of (or several, for the ships): its row and part,
    what it is in words (for a doubt's message), and on which page it stands."""

    row: str
    part: str
    words: str
    choices: tuple[str, ...]
    many: bool = False
    """Any number may be marked (the ships that fired), not one."""


@dataclass(frozen=True)
class ReportPlan:
    code: ReportPage
    page: PagePlan
    """The order form's plan of the same page: markers, QR code, every bubble (`look` reads it)."""
    stretches: tuple[Stretch, ...]
    words: tuple[Words, ...]
    hexagons: tuple[tuple[str, float, float], ...]
    """(row, x, y) of the middle of each beaten unit's hexagon of six."""
    lines: tuple[Line, ...]
    key_top: float | None
    """Where the key stands under the last block, on the form's last page; None on the others."""

    def block(self, row: str) -> Stretch | None:
        return next((s for s in self.stretches if s.kind == "block" and s.row == row), None)


# --- the page's frame ---------------------------------------------------------------------------


def content_top(paper: str) -> float:
    """Where the forms' content starts: under the band and the identity strip, as the order form's."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import MM, PAPER

    st, lay = form_style(), layout_for(paper)
    return PAPER[paper][1] - lay.margin - st.band_mm * MM - st.gap - lay.identity_strip - lay.gap


def content_bottom(paper: str) -> float:
    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import MM

    return layout_for(paper).margin + form_style().footer_mm * MM


def _frame(paper: str) -> PagePlan:
    """The order form's page of no rows on `paper`: its markers and QR code, where a scan finds them."""
    from kitgen.orders.sheetplan import page_plan

    return page_plan([], paper)


KEYS = {
    "B": (
        "one bubble a line, as the battle was fought. Lost, routed: none filled is 0. If beaten: the side of "
        "its hex a beaten unit retreats by, named by the hex across it (grey: not open before the battle), "
        "or surrenders (an Elite or Fanatic unit breaks out). Ammo left: rounds a stand has; none filled is a "
        "full load. Equipment: the winner's roll for each equipment stand it lost (II.B.3). Captured: a "
        "winning unit's booty. kitgen reads the form back from a scan or a photo, or filled on screen."
    ),
    "R": (
        "the total the dice show, one bubble a line; leave a roll not made empty (a command roll whose units "
        "are not ordered). kitgen reads the sheet back from a scan or a photo, or filled on screen."
    ),
}
"""The key under a form's last block: its words, here because the room they take is the plan's."""


def key_height(kind: Kind, width: float) -> float:
    """The room the key takes, set as the drawing sets it (`Sheet.para`: small type, its lead in
    bold), and the gap over it."""
    from reportlab.lib.utils import simpleSplit

    from kitgen.render.fonts import SANS, SANS_BOLD
    from kitgen.render.formstyle import form_style
    from kitgen.render.wording import curled

    st = form_style()
    size = st.fonts.small
    text = curled(KEYS[kind])
    first = simpleSplit(text, SANS, size, width - _width(KEY_LEAD + " ", SANS_BOLD, size))[0]
    rest = text[len(first) :].strip()
    count = 1 + (len(simpleSplit(rest, SANS, size, width)) if rest else 0)
    return size + st.charts.leading * (count - 1) + size * 0.45 + layout_for("a4").gap


KEY_LEAD = "Key:"


# --- a line of bubbles under their numbers -----------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One part of a line: its label and bubbles (infantry's 0 to 4)."""

    part: str
    label: str
    choices: tuple[str, ...]


Group = tuple[str, list[Item]]
"""A line's lead word ('Lost') and its parts."""


def _width(text: str, font: str, size: float) -> float:
    from kitgen.render.fonts import text_width
    from kitgen.render.wording import curled

    return text_width(curled(text), font, size)


def _item_width(item: Item, lay: OrderFormLayout, rl: ReportFormLayout) -> float:
    from kitgen.render.fonts import SANS

    return _width(item.label, SANS, lay.label_font) + rl.label_gap + (len(item.choices) - 1) * rl.pitch + lay.bubble


def _lead_width(lead: str, lay: OrderFormLayout) -> float:
    from kitgen.render.fonts import SANS_BOLD

    return _width(lead, SANS_BOLD, lay.label_font) + 6


@dataclass
class _Drawn:
    """What a plan collects as it is laid out."""

    bubbles: list[Bubble] = field(default_factory=list)
    words: list[Words] = field(default_factory=list)
    stretches: list[Stretch] = field(default_factory=list)
    hexagons: list[tuple[str, float, float]] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)


Placed = list[tuple[str, Item | None, float]]
"""A line laid out: (lead, item, x from the line's start) of each thing on it; a lead's item is None."""


def flow(groups: Sequence[Group], lay: OrderFormLayout, rl: ReportFormLayout, width: float) -> list[Placed]:
    """The groups in lines of `width`. A group goes whole, its lead first, at the end of the first
    line it fits on (so a short one fills a line another left short); else it starts a line of
    its own, its lead in the lead column and its items wrapping under that column."""
    column = max((_lead_width(lead, lay) for lead, items in groups if items), default=0.0)
    lines: list[Placed] = []
    ends: list[float] = []
    for lead, items in groups:
        if not items:
            continue
        whole = _lead_width(lead, lay) + sum(_item_width(i, lay, rl) + rl.item_gap for i in items) - rl.item_gap
        fits = next((k for k, end in enumerate(ends) if end + rl.item_gap + whole <= width), None)
        if fits is not None:
            x = ends[fits] + rl.item_gap
            lines[fits].append((lead, None, x))
            x += _lead_width(lead, lay)
            for k, item in enumerate(items):
                lines[fits].append((lead, item, x + (rl.item_gap if k else 0.0)))
                x += (rl.item_gap if k else 0.0) + _item_width(item, lay, rl)
            ends[fits] = x
            continue
        lines.append([(lead, None, 0.0)])
        ends.append(column)
        for k, item in enumerate(items):
            w = _item_width(item, lay, rl)
            gap = rl.item_gap if k else 0.0
            if ends[-1] + gap + w > width and len(lines[-1]) > 1:
                lines.append([("", None, 0.0)])
                ends.append(column)
                gap = 0.0
            lines[-1].append((lead, item, ends[-1] + gap))
            ends[-1] += gap + w
    return lines


def _place_line(
    drawn: _Drawn,
    row: str,
    placed: Placed,
    x0: float,
    top: float,
    lay: OrderFormLayout,
    rl: ReportFormLayout,
) -> None:
    """One line of bubbles whose top is `top`: its leads, its parts' labels and bubbles, each
    bubble's number above it."""
    r = lay.bubble / 2
    cy = top - rl.line + r + (rl.line - _line_body(lay, rl)) / 2
    base = cy - lay.label_font * 0.36
    for lead, item, x in placed:
        if item is None:
            if lead:
                drawn.words.append(Words(x0 + x, base, lead, "lead"))
            continue
        drawn.words.append(Words(x0 + x, base, item.label, "label"))
        first = x0 + x + _item_width(item, lay, rl) - (len(item.choices) - 1) * rl.pitch - r
        for k, choice in enumerate(item.choices):
            bx = first + k * rl.pitch
            drawn.bubbles.append(Bubble(row, item.part, 0, choice, bx, cy))
            drawn.words.append(Words(bx, cy + r + rl.number_gap, choice, "number", "centre"))


def _line_body(lay: OrderFormLayout, rl: ReportFormLayout) -> float:
    """A line's bubble and the number over it, bottom to top."""
    return lay.bubble + rl.number_gap + lay.label_font * 0.72


def lines_height(count: int, rl: ReportFormLayout) -> float:
    return count * rl.line


# --- the battle report form ---------------------------------------------------------------------


def kind_order(scenario: Scenario) -> Callable[[str], tuple[int, str]]:
    order = [k.id for k in scenario.transport.stands]
    return lambda k: (order.index(k) if k in order else len(order), k)


def unit_groups(form: BattleForm, unit: FormUnit, scenario: Scenario) -> list[Group]:
    """A unit's lines, as the form prints them: lost and routed by arm, ammunition left, the
    equipment rolls, what it captured (if its side wins)."""
    from kitgen.render.formstyle import stand_abbreviation
    from kitgen.rules.dice import Dice

    def short(kind: str) -> str:
        return stand_abbreviation(scenario, kind)

    def counts(n: int) -> tuple[str, ...]:
        return tuple(str(k) for k in range(n + 1))

    kinds = sorted((k for k, n in unit.stands.items() if n), key=kind_order(scenario))
    roll = Dice.parse(scenario.battle.winner.equipment.roll)
    faces = tuple(str(k) for k in range(roll.low, roll.high + 1))
    equipment = sorted(unit.equipment, key=kind_order(scenario))
    return [
        ("Lost", [Item(unit.part(k, LOST), short(k), counts(unit.stands[k])) for k in kinds]),
        ("Routed", [Item(unit.part(k, ROUTED), short(k), counts(unit.stands[k])) for k in kinds]),
        (
            "Ammo left",
            [
                Item(unit.part(k, AMMO), short(k), counts(n))
                for k, n in sorted(unit.ammo.items(), key=lambda x: kind_order(scenario)(x[0]))
            ],
        ),
        (
            f"Equipment {roll}",
            [
                Item(unit.part(f"{k}:{n}", EQUIPMENT), f"{short(k)} {n}", faces)
                for k in equipment
                for n in range(1, unit.stands.get(k, 0) + 1)
            ],
        ),
        (
            "Captured",
            [
                Item(unit.part(k, CAPTURED), short(k), counts(n))
                for k, n in sorted(capturable(form, unit).items(), key=lambda x: kind_order(scenario)(x[0]))
            ],
        ),
    ]


def line_words(part: str, scenario: Scenario) -> str:
    """A line's part in words, for a doubt's message: 'lost infantry', 'the equipment roll of tank 2'."""
    from kitgen.render.formstyle import short_stand_name

    names = {k.id: short_stand_name(k.name) for k in scenario.transport.stands}
    what, _, rest = part.partition(":")
    kind, _, number = rest.partition(":")
    name = names.get(kind, kind)
    said = {
        LOST: f"lost {name}",
        ROUTED: f"routed {name}",
        AMMO: f"ammunition left, {name}",
        EQUIPMENT: f"the equipment roll of {name} {number}",
        CAPTURED: f"captured {name}",
        FATE: "if beaten",
        WINNER: "who won",
        SHIP: "ships that fired",
        ROLL: "the roll",
    }
    return said.get(what, part)


def _fate_choices(unit: FormUnit) -> tuple[str, ...]:
    return (*DIRECTION_NAMES, BREAKOUT if unit.exempt else SURRENDER)


FATE_WORDS = {SURRENDER: "surrenders", BREAKOUT: "breaks out"}
FATE_LEAD = "If beaten:"
"""On the unit's name line, at its end: the hexagon beside it says where the unit goes."""
SURRENDER_AT = (33.0, 24.0)
"""The surrender (or breakout) bubble from the hexagon's middle, right and down: below the hex
named across its SE side, clear of it for a scan's look round the bubble."""


def _fate_height(lay: OrderFormLayout, rl: ReportFormLayout) -> float:
    """The hexagon of six with the hexes' names above and below it."""
    return 2 * (lay.hexagon + lay.bubble / 2 + rl.number_gap + lay.label_font * 0.72) + 4


def _fate_reach(lay: OrderFormLayout) -> float:
    """From the hexagon's middle to the right end of 'breaks out' or 'surrenders'."""
    from kitgen.render.fonts import SANS

    words = max(_width(w, SANS, lay.label_font) for w in FATE_WORDS.values())
    return SURRENDER_AT[0] + lay.bubble / 2 + 2.5 + words


def _fate_left(lay: OrderFormLayout, rl: ReportFormLayout) -> float:
    """From the hexagon's middle to the left end of the hexes named on its left."""
    from kitgen.render.fonts import SANS

    side = SIDES["NW"][0] * lay.hexagon
    return -side + lay.bubble / 2 + rl.number_gap + 1 + _width("off map", SANS, lay.label_font)


def _unit_height(form: BattleForm, unit: FormUnit, scenario: Scenario, paper: str) -> float:
    lay, rl = layout_for(paper), report_layout(paper)
    lines = flow(unit_groups(form, unit, scenario), lay, rl, _lines_width(paper))
    return max(rl.unit_head + lines_height(len(lines), rl), _fate_height(lay, rl)) + rl.block_gap


def _span(paper: str) -> float:
    from kitgen.orders.sheetplan import width

    return width()


def _lines_width(paper: str) -> float:
    return _span(paper) - report_layout(paper).fate - 6


def _place_unit(
    drawn: _Drawn,
    form: BattleForm,
    unit: FormUnit,
    scenario: Scenario,
    paper: str,
    left: float,
    top: float,
    tint: bool,
) -> float:
    """A unit's block from `top`: its name and stands, its lines, and at its right what becomes
    of it if beaten. Returns the y under it."""
    from kitgen.render.fonts import SANS, SANS_BOLD

    lay, rl = layout_for(paper), report_layout(paper)
    height = _unit_height(form, unit, scenario, paper) - rl.block_gap
    drawn.stretches.append(Stretch("block", top, top - height, row=unit.id, tint=tint))
    pad = 3.0
    base = top - rl.unit_head + 3.5
    room = _lines_width(paper) - pad - _lead_width(FATE_LEAD, lay) - 6
    name = clipped(unit.name, SANS_BOLD, rl.name_font, room * 0.65)
    name_w = _width(name, SANS_BOLD, rl.name_font)
    drawn.words.append(Words(left + pad, base, name, "name"))
    note = clipped(_stands_note(unit, scenario), SANS, lay.label_font, room - name_w - 6)
    drawn.words.append(Words(left + pad + name_w + 6, base, note, "note"))
    lines = flow(unit_groups(form, unit, scenario), lay, rl, _lines_width(paper))
    for k, placed in enumerate(lines):
        _place_line(drawn, unit.id, placed, left + pad, top - rl.unit_head - k * rl.line, lay, rl)
        for _, item, _ in placed:
            if item is not None:
                drawn.lines.append(Line(unit.id, item.part, line_words(item.part, scenario), item.choices))
    _place_fate(drawn, unit, left + _span(paper) - 3 - _fate_reach(lay), top, lay, rl)
    return top - height - rl.block_gap


def _stands_note(unit: FormUnit, scenario: Scenario) -> str:
    from kitgen.render.formstyle import stand_abbreviation

    kinds = sorted((k for k, n in unit.stands.items() if n), key=kind_order(scenario))
    said = ", ".join(f"{unit.stands[k]} {stand_abbreviation(scenario, k)}" for k in kinds)
    return said + ("; breaks out if cornered (II.B.1)" if unit.exempt else "")


def clipped(text: str, font: str, size: float, width: float) -> str:
    """`text` as it fits `width` at `size`: whole, or cut at a word (else a letter) with an ellipsis."""
    if _width(text, font, size) <= width:
        return text
    words = text.split()
    while len(words) > 1:
        words.pop()
        cut = " ".join(words).rstrip(",;:") + "\u2026"
        if _width(cut, font, size) <= width:
            return cut
    cut = text
    while cut and _width(cut + "\u2026", font, size) > width:
        cut = cut[:-1]
    return cut + "\u2026"


def _place_fate(
    drawn: _Drawn, unit: FormUnit, cx: float, top: float, lay: OrderFormLayout, rl: ReportFormLayout
) -> None:
    """'If beaten': the hexagon of six round (cx, ...), each side named by the hex across it (grey
    where it could not retreat before the battle), and the bubble for surrendering (or breaking
    out). The hexes' names stand `number_gap` off the rings, as a line's numbers do."""
    r = lay.bubble / 2
    cap = lay.label_font * 0.72
    cy = top - 2 - cap - rl.number_gap - r - lay.hexagon
    drawn.hexagons.append((unit.id, cx, cy))
    reach = r + rl.number_gap
    for d, (dx, dy) in SIDES.items():
        bx, by = cx + dx * lay.hexagon, cy + dy * lay.hexagon
        drawn.bubbles.append(Bubble(unit.id, FATE, 1, d, bx, by))
        across = unit.sides.get(d)
        kind: WordKind = "hex" if across in unit.retreats else "off"
        text = across or "off map"
        if abs(dx) < 0.01:  # N and S: the hex's name above or below the bubble
            drawn.words.append(Words(bx, by + reach if dy > 0 else by - reach - cap, text, kind, "centre"))
        else:
            align: Align = "left" if dx > 0 else "right"
            drawn.words.append(Words(bx + (reach + 1) * (1 if dx > 0 else -1), by - cap / 2, text, kind, align))
    lead = Words(cx - _fate_left(lay, rl) - 4, top - rl.unit_head + 3.5, FATE_LEAD, "lead", "right")
    drawn.words.append(lead)
    last = _fate_choices(unit)[-1]
    sx, sy = cx + SURRENDER_AT[0], cy - SURRENDER_AT[1]
    drawn.bubbles.append(Bubble(unit.id, FATE, 0, last, sx, sy))
    drawn.words.append(Words(sx + r + 2.5, sy - lay.label_font * 0.36, FATE_WORDS[last], "label"))
    drawn.lines.append(Line(unit.id, FATE, "if beaten", _fate_choices(unit)))


def _contact_height(form: BattleForm, scenario: Scenario, paper: str) -> float:
    return len(_contact_lines(form, scenario, paper)) * layout_for(paper).order_row + 4


def _contact_lines(form: BattleForm, scenario: Scenario, paper: str) -> list[list[str]]:
    """The battle's own lines: who won, then the ships that fired on the same line where they fit."""
    lay = layout_for(paper)
    whole = _ships_width(form, lay) + _lead_width(SHIPS_LEAD, lay)
    if _winner_width(form, scenario, lay) + 16 + whole <= _span(paper) - 6:
        return [[WINNER, SHIP]]
    return [[WINNER], [SHIP]]


WINNER_LEAD, SHIPS_LEAD = "Who won:", "Ships that fired (D.3):"
NO_SHIPS = "none of either side in range"


def _winner_width(form: BattleForm, scenario: Scenario, lay: OrderFormLayout) -> float:
    chips = sum(lay.bubble + 3 + chip_width(scenario.faction_name(f)) + 16 for f in form.factions)
    return _lead_width(WINNER_LEAD, lay) + 4 + chips - 16


def _ship_label(name: str, batteries: int) -> str:
    return f"{name} ({batteries} {'battery' if batteries == 1 else 'batteries'})"


def _ships_width(form: BattleForm, lay: OrderFormLayout) -> float:
    from kitgen.render.fonts import SANS

    if not form.ships:
        return 4 + _width(NO_SHIPS, SANS, layout_for("a4").label_font)
    labels = [min(_width(_ship_label(n, b), SANS, lay.label_font), SHIP_MOST) for _, n, b in form.ships]
    return 4 + sum(lay.bubble + 2.5 + w + 14 for w in labels) - 14


def _side_height(paper: str) -> float:
    return report_layout(paper).side_head + 3


def battle_blocks(form: BattleForm, scenario: Scenario, paper: str) -> list[list[str]]:
    """The form's blocks, page by page: `CONTACT` (who won, the ships), 'side:<k>' (a side's
    bar) and each unit's id; a page holds what fits between its identity strip and its footer
    (a page going on with a side starts with its bar again), the last page the key too. A side's
    bar is never left at a page's foot without a unit under it."""
    room = content_top(paper) - content_bottom(paper)
    key = key_height("B", _span(paper))
    items: list[tuple[str, float]] = [(CONTACT, _contact_height(form, scenario, paper))]
    for k, side in enumerate(form.sides):
        items.append((f"side:{k}", _side_height(paper)))
        items += [(u.id, _unit_height(form, u, scenario, paper)) for u in form.units if u.faction in side]
    pages: list[list[str]] = [[]]
    used = 0.0
    for n, (name, h) in enumerate(items):
        after = items[n + 1][1] if name.startswith("side:") and n + 1 < len(items) else 0.0
        if pages[-1] and used + h + after > room:
            pages.append([])
            used = 0.0 if name.startswith("side:") else _side_height(paper)
        pages[-1].append(name)
        used += h
    if used + key > room and len(pages[-1]) > 1:
        moved = pages[-1].pop()
        if pages[-1] and pages[-1][-1].startswith("side:"):
            moved_side = pages[-1].pop()
            pages.append([moved_side, moved])
        else:
            pages.append([moved])
    return pages


def _place_contact(drawn: _Drawn, form: BattleForm, scenario: Scenario, paper: str, left: float, top: float) -> float:
    """The battle's own lines: who won (a bubble and a chip a faction), the ships that fired."""
    from kitgen.render.fonts import SANS

    lay = layout_for(paper)
    r = lay.bubble / 2
    lines = _contact_lines(form, scenario, paper)
    for k, parts in enumerate(lines):
        mid = top - lay.order_row * (k + 0.5) - 2
        base = mid - lay.label_font * 0.36
        x = left + 3
        if WINNER in parts:
            drawn.words.append(Words(x, base, WINNER_LEAD, "lead"))
            x += _lead_width(WINNER_LEAD, lay) + 4
            for f in form.factions:
                name = scenario.faction_name(f)
                drawn.bubbles.append(Bubble(CONTACT, WINNER, 0, f, x + r, mid))
                drawn.words.append(Words(x + lay.bubble + 3, mid, name, "chip", faction=f))
                x += lay.bubble + 3 + chip_width(name) + 16
            drawn.lines.append(Line(CONTACT, WINNER, "who won", form.factions))
        if SHIP not in parts:
            continue
        if WINNER in parts:
            x += 8
        drawn.words.append(Words(x, base, SHIPS_LEAD, "lead"))
        x += _lead_width(SHIPS_LEAD, lay) + 4
        if not form.ships:
            drawn.words.append(Words(x, base, NO_SHIPS, "note"))
        for ship, name, batteries in form.ships:
            drawn.bubbles.append(Bubble(CONTACT, SHIP, 0, ship, x + r, mid))
            label = _ship_label(name, batteries)
            drawn.words.append(Words(x + lay.bubble + 2.5, base, label, "label", fit=SHIP_MOST))
            x += lay.bubble + 2.5 + min(_width(label, SANS, lay.label_font), SHIP_MOST) + 14
        if form.ships:
            drawn.lines.append(Line(CONTACT, SHIP, "ships that fired", tuple(s for s, _, _ in form.ships), many=True))
    return top - _contact_height(form, scenario, paper)


SHIP_MOST = 150.0
"""Points a ship's name and batteries take at most."""


def chip_height() -> float:
    from kitgen.render.formstyle import form_style

    return form_style().fonts.field * 1.55


def chip_size() -> float:
    from kitgen.render.formstyle import form_style

    return form_style().fonts.small + 0.6


def chip_width(name: str) -> float:
    """A faction's chip as `Sheet.chip` draws it: its mark's square and its name."""
    from kitgen.render.fonts import SANS_BOLD

    return chip_height() + _width(name, SANS_BOLD, chip_size()) + 3 * 1.5


def _plan(code: ReportPage, frame: PagePlan, drawn: _Drawn, key_top: float | None) -> ReportPlan:
    page = PagePlan(
        frame.paper,
        frame.size,
        frame.layout,
        frame.markers,
        frame.qr,
        content_top(frame.paper),
        (),
        tuple(drawn.bubbles),
        (),
    )
    return ReportPlan(
        code, page, tuple(drawn.stretches), tuple(drawn.words), tuple(drawn.hexagons), tuple(drawn.lines), key_top
    )


def _side_bar(drawn: _Drawn, top: float, paper: str, text: str, ref: str, faction: str | None) -> float:
    drawn.stretches.append(Stretch("side", top, top - report_layout(paper).side_head, text, ref, faction))
    return top - _side_height(paper)


def battle_plans(form: BattleForm, scenario: Scenario, paper: str, campaign: str) -> list[ReportPlan]:
    """The form's pages on `paper`, each with where everything stands; `campaign` is the
    campaign's key, for the QR code."""
    frame = _frame(paper)
    chunks = battle_blocks(form, scenario, paper)
    units = {u.id: u for u in form.units}

    def side_of(k: int, more: str = "") -> tuple[str, str | None]:
        names = " and ".join(scenario.faction_name(f) for f in form.sides[k])
        return f"Side {chr(65 + k)}: {names}{more}", form.sides[k][0]

    plans: list[ReportPlan] = []
    for number, chunk in enumerate(chunks, start=1):
        drawn = _Drawn()
        y = content_top(paper)
        tint = False
        for k, name in enumerate(chunk):
            if name == CONTACT:
                y = _place_contact(drawn, form, scenario, paper, frame.left, y)
            elif name.startswith("side:"):
                text, faction = side_of(int(name.split(":")[1]))
                y = _side_bar(drawn, y, paper, text, "II.B.1-II.B.3", faction)
                tint = False
            else:
                if k == 0:  # a page going on with a side: its bar again
                    at = next(i for i, side in enumerate(form.sides) if units[name].faction in side)
                    text, faction = side_of(at, " (continued)")
                    y = _side_bar(drawn, y, paper, text, "", faction)
                y = _place_unit(drawn, form, units[name], scenario, paper, frame.left, y, tint)
                tint = not tint
        code = ReportPage("B", campaign, form.key, form.turn, number, len(chunks), paper, form.hex)
        plans.append(_plan(code, frame, drawn, y if number == len(chunks) else None))
    return plans


# --- the roll sheet ------------------------------------------------------------------------------

OTHERS = ""
"""The group of the rolls no one faction makes (the event roll, a VP roll)."""


def roll_groups(rolls: Sequence[SheetRoll], scenario: Scenario) -> list[tuple[str, list[SheetRoll]]]:
    """The sheet's rolls by faction, in the scenario's order, then the others; in the turn's order within."""
    order = [f.id for f in scenario.meta.factions]
    groups: dict[str, list[SheetRoll]] = {}
    for r in rolls:
        groups.setdefault(r.faction if r.faction in order else OTHERS, []).append(r)
    return sorted(groups.items(), key=lambda g: order.index(g[0]) if g[0] in order else len(order))


def roll_words(roll: SheetRoll) -> str:
    """A roll's words on the sheet: its purpose by the names of its pieces, the turn left out."""
    return re.sub(r",? turn \d+$", "", roll.words)


def roll_note(roll: SheetRoll) -> str:
    return f"{roll.dice}, {roll.needed}: {roll.note}" if roll.note else f"{roll.dice}, {roll.needed}"


def roll_numbers(rolls: Sequence[SheetRoll], scenario: Scenario) -> dict[str, int]:
    """Each roll's number on the sheet (its row -> from 1), in the order the sheet prints them:
    what `--accept roll:N=VALUE` names a line by."""
    printed = [r.row for _, group in roll_groups(rolls, scenario) for r in group]
    return {row: k for k, row in enumerate(printed, start=1)}


def _roll_text(roll: SheetRoll, paper: str) -> tuple[list[str], list[str]]:
    """A roll's words (bold) and what it decides (small), each in the lines they take."""
    from reportlab.lib.utils import simpleSplit

    from kitgen.render.fonts import SANS, SANS_BOLD
    from kitgen.render.formstyle import form_style
    from kitgen.render.wording import curled

    rl = report_layout(paper)
    width = rl.roll_words - rl.roll_number - 6
    words: list[str] = simpleSplit(curled(roll_words(roll)), SANS_BOLD, rl.name_font, width)
    note: list[str] = simpleSplit(curled(roll_note(roll)), SANS, form_style().fonts.small, width)
    return words or [""], note or [""]


def _roll_height(roll: SheetRoll, paper: str) -> float:
    from kitgen.render.formstyle import form_style

    rl = report_layout(paper)
    words, note = _roll_text(roll, paper)
    text = len(words) * rl.name_font * 1.2 + len(note) * form_style().fonts.small * 1.2 + 5
    return max(rl.line, text) + rl.block_gap


def roll_blocks(rolls: Sequence[SheetRoll], scenario: Scenario, paper: str) -> list[list[str]]:
    """The sheet's blocks, page by page: 'group:<faction>' (a faction's bar; '' the others) and
    each roll's row; the first page under a heading, the last with the key; a page going on with
    a faction starts with its bar again, and a bar is never left without a roll under it."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.sheet import heading_height

    room = content_top(paper) - content_bottom(paper) - heading_height(form_style())
    key = key_height("R", _span(paper))
    items: list[tuple[str, float]] = []
    for faction, group in roll_groups(rolls, scenario):
        items.append((f"group:{faction}", _side_height(paper)))
        items += [(r.row, _roll_height(r, paper)) for r in group]
    pages: list[list[str]] = [[]]
    used = 0.0
    for n, (name, h) in enumerate(items):
        after = items[n + 1][1] if name.startswith("group:") and n + 1 < len(items) else 0.0
        if pages[-1] and used + h + after > room:
            pages.append([])
            used = 0.0 if name.startswith("group:") else _side_height(paper)
        pages[-1].append(name)
        used += h
    if used + key > room and len(pages[-1]) > 1:
        pages.append([pages[-1].pop()])
    return pages


def roll_plans(
    rolls: Sequence[SheetRoll], scenario: Scenario, paper: str, campaign: str, key: str, turn: int
) -> list[ReportPlan]:
    """The roll sheet's pages on `paper`, each with where everything stands; `campaign` and `key`
    (`sheet_key`) for its QR code."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.sheet import heading_height

    st = form_style()
    frame = _frame(paper)
    chunks = roll_blocks(rolls, scenario, paper)
    by_row = {r.row: r for r in rolls}
    factions = {f.id for f in scenario.meta.factions}
    faction_of = {r.row: (r.faction if r.faction in factions else OTHERS) for r in rolls}
    numbers = roll_numbers(rolls, scenario)

    def bar(faction: str, more: str = "") -> tuple[str, str | None]:
        if faction == OTHERS:
            return "The turn's own rolls" + more, None
        return scenario.faction_name(faction) + more, faction

    plans: list[ReportPlan] = []
    for number, chunk in enumerate(chunks, start=1):
        drawn = _Drawn()
        y = content_top(paper)
        ref = "II.C, II.A, A.4-A.5, B.7, E.3-E.6"
        drawn.stretches.append(Stretch("heading", y, y - heading_height(st), "Rolls", ref))
        y -= heading_height(st)
        tint = False
        for k, name in enumerate(chunk):
            if name.startswith("group:"):
                text, faction = bar(name.split(":", 1)[1])
                y = _side_bar(drawn, y, paper, text, "", faction)
                tint = False
                continue
            if k == 0:
                text, faction = bar(faction_of[name], " (continued)")
                y = _side_bar(drawn, y, paper, text, "", faction)
            y = _place_roll(drawn, by_row[name], numbers[name], paper, frame.left, y, tint)
            tint = not tint
        code = ReportPage("R", campaign, key, turn, number, len(chunks), paper)
        plans.append(_plan(code, frame, drawn, y if number == len(chunks) else None))
    return plans


def _place_roll(drawn: _Drawn, roll: SheetRoll, number: int, paper: str, left: float, top: float, tint: bool) -> float:
    """A roll's row: its number, its words and what it decides, and a bubble for every total."""
    from kitgen.render.formstyle import form_style

    lay, rl = layout_for(paper), report_layout(paper)
    small = form_style().fonts.small
    height = _roll_height(roll, paper) - rl.block_gap
    drawn.stretches.append(Stretch("block", top, top - height, row=roll.row, tint=tint))
    base = top - rl.name_font - 2
    drawn.words.append(Words(left + rl.roll_number - 3, base, f"{number}.", "name", "right"))
    x = left + rl.roll_number
    words, note = _roll_text(roll, paper)
    for line in words:
        drawn.words.append(Words(x, base, line, "name"))
        base -= rl.name_font * 1.2
    base += rl.name_font * 1.2 - small * 1.25
    for line in note:
        drawn.words.append(Words(x, base, line, "note"))
        base -= small * 1.2
    r = lay.bubble / 2
    cy = top - height / 2 - (rl.number_gap + lay.label_font * 0.72) / 2
    first = left + rl.roll_words + r
    for k, choice in enumerate(choices(roll)):
        bx = first + k * rl.pitch
        drawn.bubbles.append(Bubble(roll.row, ROLL, 0, choice, bx, cy))
        drawn.words.append(Words(bx, cy + r + rl.number_gap, choice, "number", "centre"))
    drawn.lines.append(Line(roll.row, ROLL, f"roll {number} ({roll_words(roll)})", tuple(choices(roll))))
    return top - height - rl.block_gap
