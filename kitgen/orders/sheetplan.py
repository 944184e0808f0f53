"""Where everything stands on a page of the order form: its corner markers and QR code, each
row's steps (a small hexagon of six bubbles, the hex box under it), its bubbles for special
orders and cargo. The form is drawn from this plan, and `kitgen orders scan` reads a scanned
page back by the same plan, made again from the page's QR code: there are no template files.

Lengths are PDF points from the page's lower left corner."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.model.base import Model
from kitgen.orders.rows import OrderRow
from kitgen.render.lengths import Length

if TYPE_CHECKING:
    from kitgen.render.sheet import Column

FORM_VERSION = 4
"""The form's version in its QR code: a page of another version is not read by this geometry
(raise it whenever a bubble or box moves)."""
MARKERS: dict[int, tuple[str, str, str, str]] = {
    0: ("0100", "1010", "1100", "1101"),
    1: ("1111", "0000", "0110", "0101"),
    2: ("1100", "1100", "1101", "0010"),
    3: ("0110", "0110", "1011", "1001"),
}
"""The inner cells (1 black) of ArUco DICT_4X4_50's markers 0-3, top row first, as OpenCV draws
them (a test checks them against OpenCV's dictionary): top left, top right, bottom right,
bottom left of the page."""
MARKER_CELLS = 6
"""A marker's side in cells: its 4x4 code inside a black border one cell wide."""
SIDES: dict[str, tuple[float, float]] = {
    name: (math.sin(math.radians(60 * k)), math.cos(math.radians(60 * k))) for k, name in enumerate(DIRECTION_NAMES)
}
"""Each side of a flat-topped hex (N, NE, SE, S, SW, NW, as the map's hexes) as a unit vector
from its centre to the side's middle: where that direction's bubble stands on a step."""
Part = Literal["step", "special", "toward", "carry"]


class OrderFormLayout(Model):
    """layouts/orderform.yaml: one paper's geometry of the order form."""

    margin: Length = Field(gt=0)
    marker: Length = Field(gt=0)
    marker_inset: Length = Field(gt=0)
    qr: Length = Field(gt=0)
    identity_strip: Length = Field(gt=0)
    info_row: Length = Field(gt=0)
    bubble: Length = Field(gt=0)
    ring: Length = Field(gt=0)
    hexagon: Length = Field(gt=0)
    step: Length = Field(gt=0)
    steps_per_line: int = Field(gt=0)
    path_lead: Length = Field(ge=0)
    path_box: Length = Field(gt=0)
    order_row: Length = Field(gt=0)
    roll_box: Length = Field(gt=0)
    field_font: Length = Field(gt=0)
    label_font: Length = Field(gt=0)
    field_border: Length = Field(gt=0)
    gap: Length = Field(ge=0)
    key_space: Length = Field(ge=0)
    info_width: Length = Field(gt=0)
    """The column at a row's left: the unit's name and what it is, printed."""
    info_leading: Length = Field(gt=0)

    @property
    def step_height(self) -> float:
        """A step's hexagon of bubbles, top to bottom."""
        return 2 * self.hexagon + self.bubble

    @property
    def path_line(self) -> float:
        """One line of a path: its steps' hexagons over their hex boxes."""
        return self.step_height + self.path_box + 3


class OrderFormLayouts(Model):
    layouts: dict[str, OrderFormLayout]
    """By paper: a4, letter."""


@cache
def order_form_layouts(path: Path | None = None) -> dict[str, OrderFormLayout]:
    """The order form's layouts by paper, from layouts/orderform.yaml."""
    from kitgen.render.style import layouts_dir, load_layout

    return load_layout(OrderFormLayouts, path or layouts_dir() / "orderform.yaml", named="layouts").layouts


def layout_for(paper: str) -> OrderFormLayout:
    layouts = order_form_layouts()
    return layouts.get(paper, layouts["a4"])


CAMPAIGN_CHARS, STATE_CHARS = 8, 10
"""The leading characters of the campaign's and the state's keys the QR code carries: enough to
tell them apart, few enough for a code of 25 modules a side, which a blurred 150 dpi scan reads."""


def _digits(text: str, most: int) -> bool:
    """Whether `text` is a number of 1 to `most` ASCII digits: `str.isdigit` alone takes `²` and
    `①`, which `int` refuses, and a QR code says what its maker wants."""
    return 0 < len(text) <= most and text.isascii() and text.isdigit()


@dataclass(frozen=True)
class FormPage:
    """Which page it is, as its QR code says: the campaign (`campaign_key`, its first
    `CAMPAIGN_CHARS`), the state the orders are written against (`state_key`, its first
    `STATE_CHARS`), the turn, the faction (its place in the
    scenario's list), the page and the paper."""

    campaign: str
    state: str
    turn: int
    faction: int
    page: int
    pages: int
    paper: str
    version: int = FORM_VERSION

    def code(self) -> str:
        """The QR code's text, in QR's alphanumeric characters (a smaller code than bytes)."""
        paper = "L" if self.paper == "letter" else "A"
        keys = (self.campaign[:CAMPAIGN_CHARS].upper(), self.state[:STATE_CHARS].upper())
        fields = (*keys, self.turn, self.faction, self.page, self.pages, paper)
        return f"KG{self.version}/" + "/".join(map(str, fields))

    @classmethod
    def parse(cls, text: str) -> FormPage | None:
        """The page a QR code's text names, or None if it is no kitgen form's."""
        parts = text.strip().split("/")
        if len(parts) != 8 or not parts[0].startswith("KG") or not _digits(parts[0][2:], 3):
            return None
        version, campaign, state, *numbers, paper = parts
        if not all(_digits(n, 4) for n in numbers) or paper not in ("A", "L"):
            return None
        lengths = ((campaign, CAMPAIGN_CHARS), (state, STATE_CHARS))
        if not all(len(k) == n and all(ch in "0123456789ABCDEF" for ch in k) for k, n in lengths):
            return None
        turn, faction, page, pages = map(int, numbers)
        return cls(
            campaign.lower(),
            state.lower(),
            turn,
            faction,
            page,
            pages,
            "letter" if paper == "L" else "a4",
            int(version[2:]),
        )


@dataclass(frozen=True)
class Bubble:
    """One bubble: of a row's step (its `choice` a direction), special order (a special's
    word, `TICKS`), the side that order faces (a direction), or a unit a carrier takes (its id).
    The umpire's report forms name their lines' parts otherwise (`kitgen.reports.plan`)."""

    row: str
    part: Part | str
    step: int
    """The step's number, from 1; 0 for a bubble of no step. A bubble of a hexagon of six (a
    step, a beaten unit's fate) has a step: a scan finds such a hexagon first."""
    choice: str
    x: float
    y: float
    label: str = ""
    """The words printed beside it (a special's, a unit's name); none on a step."""


@dataclass(frozen=True)
class HexBox:
    """The box under a step where a person writes the hex it enters."""

    row: str
    step: int
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class RowPlan:
    row: OrderRow
    top: float
    bottom: float
    lines: tuple[tuple[str, float], ...]
    """Each line of bubbles under the path: its lead word ('' after a group's first) and its middle."""
    roll: tuple[float, float] | None
    """Where the commander's roll box stands (its lower left corner), for a unit that may roll."""
    lines_left: float = 0.0
    """Where its lines of bubbles start: right of its words, or beside its path's last line."""


@dataclass(frozen=True)
class PagePlan:
    paper: str
    size: tuple[float, float]
    layout: OrderFormLayout
    markers: tuple[tuple[int, float, float], ...]
    """(marker id, x, y of its lower left corner); its side is `layout.marker`."""
    qr: tuple[float, float]
    """The QR code's lower left corner; its side is `layout.qr`."""
    rows_top: float
    rows: tuple[RowPlan, ...]
    bubbles: tuple[Bubble, ...]
    boxes: tuple[HexBox, ...]

    @property
    def left(self) -> float:
        return self.layout.margin

    @property
    def right(self) -> float:
        return self.size[0] - self.layout.margin

    def marker_centres(self) -> dict[int, tuple[float, float]]:
        half = self.layout.marker / 2
        return {k: (x + half, y + half) for k, x, y in self.markers}


def step_lines(row: OrderRow, lay: OrderFormLayout) -> list[int]:
    """The steps on each line of the row's path, as many as the row offers (none for a unit
    that cannot move), each line as full as the row's width allows: the first beside the row's
    special orders, the last with what is left (a train's 12 in 10 and 2)."""
    total = row.offered
    if total == 0:
        return []
    span = width() - lay.info_width - lay.path_lead
    first = max(1, int((span - side_width(row, lay)) // lay.step))
    full = max(first, min(lay.steps_per_line, int(span // lay.step)))
    lines = [min(first, total)]  # the first line full: what is left may leave room beside it
    while sum(lines) < total:
        lines.append(min(full, total - sum(lines)))
    return lines


SIDE_ROWS = 3
"""The rows of a path's special orders, beside its first line of steps."""
ROLL_DROP = 11.0
"""Points from a stepless row's top to its roll box: room for the box's word above it."""


def has_side(row: OrderRow) -> bool:
    """Whether the row's special orders stand beside its path (a row with steps), not on a line under it."""
    return row.offered > 0 and bool(row.specials)


def side_items(row: OrderRow, lay: OrderFormLayout) -> list[tuple[Part, str, str, float, float]]:
    """The bubbles beside a path's first line, as (part, choice, label, x from the block's left,
    y from the line's middle): the special orders in columns of `SIDE_ROWS`, then the side they
    face as a hexagon of six, like a step's."""
    from kitgen.orders.rows import TICKS
    from kitgen.render.fonts import SANS, text_width

    if not has_side(row):
        return []
    items: list[tuple[Part, str, str, float, float]] = []
    pitch = lay.hexagon + 0.5  # the top bubble clear of the row's top rule
    x = 0.0
    words = list(row.specials)
    for k in range(0, len(words), SIDE_ROWS):
        column = words[k : k + SIDE_ROWS]
        for n, word in enumerate(column):
            items.append(("special", TICKS[word], word, x + lay.bubble / 2, pitch * (1 - n)))
        x += lay.bubble + 2.5 + max(min(text_width(w, SANS, lay.label_font), LABEL_MOST) for w in column) + 6
    cx = x + lay.hexagon * math.sin(math.radians(60)) + lay.bubble / 2
    items += [("toward", d, d, cx + dx * lay.hexagon, dy * lay.hexagon) for d, (dx, dy) in SIDES.items()]
    return items


def side_width(row: OrderRow, lay: OrderFormLayout) -> float:
    """The width the bubbles beside a path's first line take, with the roll box after them."""
    items = side_items(row, lay)
    used = max((x + lay.bubble / 2 for _, _, _, x, _ in items), default=0.0)
    roll = lay.roll_box + 6 if _rolls(row) else 0.0
    return (used + 8 if items else 0.0) + roll


Item = tuple[Part | Literal["word"], str, str, float]
"""(part, choice, label, x from the line's start) of one bubble of a line; a 'word' is a group's
lead set inline after another group (no bubble)."""
LABEL_MOST = 150.0
"""Points a bubble's label takes at most (a unit's name is cut to fit)."""
NO_CARGO = "no unit of yours in its hex"
"""What a carrier's line says when no unit of its faction shares its hex."""
TOWARD = "Toward:"
"""The lead of the six bubbles for the side a special order faces."""


def bubble_lines(row: OrderRow, lay: OrderFormLayout, width: float) -> list[tuple[str, list[Item]]]:
    """The row's bubbles under its path, in lines of `width`: a train's or ship's units to take
    aboard, its special orders and the side they face, each group from a new line but the side's,
    which follows the specials where it fits."""
    from kitgen.orders.rows import TICKS
    from kitgen.render.fonts import SANS_BOLD, text_width

    groups: list[tuple[str, list[tuple[Part, str, str]]]] = []
    if row.kind != "unit":
        groups.append(("Takes aboard:", [("carry", unit, name) for unit, name in row.carriable]))
    if row.specials and not has_side(row):  # a row with no steps: its special orders on a line
        groups.append(("Special:", [("special", TICKS[word], word) for word in row.specials]))
        groups.append((TOWARD, [("toward", d, d) for d in DIRECTION_NAMES]))
    if not groups:
        return []
    lead_width = max(text_width(lead, SANS_BOLD, lay.label_font) for lead, _ in groups) + 6
    lines: list[tuple[str, list[Item]]] = []

    def room() -> float:
        return width

    for lead, bubbles in groups:
        word = text_width(lead, SANS_BOLD, lay.label_font) + 4
        total = word + sum(_need(label, lay) for _, _, label in bubbles)
        end = _end(lines[-1][1], lay) if lines and lines[-1][1] else None
        if lead == TOWARD and end is not None and end + 6 + total <= room():
            lines[-1][1].append(("word", "", lead, end + 6))
            x = end + 6 + word
        else:
            lines.append((lead, []))
            x = lead_width
        for part, choice, label in bubbles:
            need = _need(label, lay)
            if lines[-1][1] and x + need > room():
                lines.append(("", []))
                x = lead_width
            lines[-1][1].append((part, choice, label, x))
            x += need
    return lines


def _end(items: list[Item], lay: OrderFormLayout) -> float:
    from kitgen.render.fonts import SANS_BOLD, text_width

    part, _, label, x = items[-1]
    return x + (text_width(label, SANS_BOLD, lay.label_font) + 4 if part == "word" else _need(label, lay))


def _need(label: str, lay: OrderFormLayout) -> float:
    from kitgen.render.fonts import SANS, text_width

    return lay.bubble + 2.5 + min(text_width(label, SANS, lay.label_font), LABEL_MOST) + 5


def _rolls(row: OrderRow) -> bool:
    return row.kind == "unit" and row.target is not None and row.target >= 1


def info_lines(row: OrderRow, lay: OrderFormLayout) -> list[tuple[str, bool]]:
    """The row's printed words in its left column, a line each (text, bold), every line within
    the column: its name (on two lines at most, cut between words), hex and type, stands, MP and
    supply, and who commands it with the rolls that obey him; a part too long for a line goes on
    the next."""
    from reportlab.lib.utils import simpleSplit

    from kitgen.render.counterart import fit_text
    from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts, text_width

    register_fonts()
    room = lay.info_width - 6
    size = lay.label_font
    _, name = fit_text([row.label or row.id], SANS_BOLD, size, size, room, size * 2.4, 1.15, 2)
    lines = [(line, True) for line in name]
    moves = [row.stands] if row.stands else []
    moves += [f"{row.mp} MP"] if row.mp is not None else []
    moves += [f"supply {row.supply}"] if row.supply and row.supply != "-" else []
    groups = [[x for x in (row.hex, row.type.replace("_", " ")) if x], moves, [_target_text(row)]]
    for parts in groups:
        parts = [p for p in parts if p]
        line = ""
        for part in parts:  # parts joined while they fit, each on a line of its own when not
            joined = f"{line} \u00b7 {part}" if line else part
            if line and text_width(joined, SANS, size) > room:
                lines.append((line, False))
                joined = part
            line = joined
        if line:
            lines += [(piece, False) for piece in simpleSplit(line, SANS, size, room)]
    return lines


def _target_text(row: OrderRow) -> str:
    """Who rolls for the unit if it is ordered, and the rolls that obey: 'Bredov (1-6)'."""
    if row.kind != "unit" or row.target is None:
        return ""
    obeys = "no roll" if row.target < 1 else ("1" if row.target == 1 else f"1\u2013{row.target}")
    return f"{row.commander} ({obeys})"


def beside(row: OrderRow, lay: OrderFormLayout) -> float | None:
    """Where a row's one line of bubbles (a carrier's units to take aboard) starts when it fits
    beside its path's last line, from the start of the path: a line saved; else None."""
    counts = step_lines(row, lay)
    if not counts or not bubble_lines(row, lay, width() - lay.info_width):
        return None
    from kitgen.render.fonts import SANS, SANS_BOLD, text_width

    start = lay.path_lead + counts[-1] * lay.step + 8
    room = width() - lay.info_width - start - (side_width(row, lay) if len(counts) == 1 else 0.0)
    lines = bubble_lines(row, lay, room)
    if len(lines) != 1:
        return None
    lead, items = lines[0]
    need = text_width(lead, SANS_BOLD, lay.label_font) + 6
    need += sum(_need(label, lay) for _, _, label, _ in items) if items else text_width(NO_CARGO, SANS, lay.label_font)
    return start if need <= room else None


def row_height(row: OrderRow, lay: OrderFormLayout, width: float) -> float:
    """A row's height: its left column's words, or its path's lines and its lines of bubbles."""
    lines = bubble_lines(row, lay, width - lay.info_width)
    steps = len(step_lines(row, lay))
    under = 0 if beside(row, lay) is not None else len(lines) if steps else max(1, len(lines))
    marks = lay.path_line * steps + lay.order_row * under
    if _rolls(row) and not steps:
        marks = max(marks, ROLL_DROP + lay.path_box + 2)
    words = 4 + lay.info_leading * len(info_lines(row, lay))
    return max(marks, words) + 2


INFO = ("unit", "path", "side")
"""The parts of a row, as its header names them."""
HEADER = ("Unit", "Path: a step a hex it enters", "Special orders, the side they face, the roll")
SIDE_HEADER = 0.36
"""The header's share for the bubbles beside the path."""


def info_columns(lay: OrderFormLayout) -> list[Column]:
    """The header's columns: the left column's width, the path's, the bubbles beside it."""
    from kitgen.render.sheet import Column

    rest = width() - lay.info_width
    return [Column(lay.info_width), Column(rest * (1 - SIDE_HEADER)), Column(rest * SIDE_HEADER)]


def header_height(paper: str) -> float:
    """The header row of the rows' table, as Sheet.table draws it across the paper's frame."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import PAPER
    from kitgen.render.sheet import header_height as table_header

    lay = layout_for(paper)
    return table_header(form_style(), PAPER[paper][0] - 2 * lay.margin, info_columns(lay), [list(HEADER)])


def rows_top(paper: str) -> float:
    """Where the rows start: under the band, the identity strip, the heading and the header row."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import MM, PAPER

    st, lay = form_style(), layout_for(paper)
    top = PAPER[paper][1] - lay.margin - st.band_mm * MM - st.gap
    top -= lay.identity_strip + lay.gap
    top -= st.fonts.heading * 1.75 + 3.5  # the heading bar, as Sheet.heading draws it
    return top - header_height(paper)


def room() -> float:
    """The height a page has for rows, on every paper (the pages are split before the paper is
    known); the last page's rows leave `key_space` for the key."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import MM, PAPER

    st = form_style()
    return min(rows_top(p) - layout_for(p).margin - st.footer_mm * MM for p in PAPER)


def width() -> float:
    """The width a row has, on every paper."""
    from kitgen.render.pages import PAPER

    return min(w - 2 * layout_for(p).margin for p, (w, _) in PAPER.items())


def split_pages(rows: Sequence[OrderRow]) -> list[list[OrderRow]]:
    """The rows, page by page: as many as fit the room every paper has."""
    lay, space, span = layout_for("a4"), room(), width()
    chunks: list[list[OrderRow]] = [[]]
    used = 0.0
    for row in rows:
        height = row_height(row, lay, span)
        if chunks[-1] and used + height > space:
            chunks.append([])
            used = 0.0
        chunks[-1].append(row)
        used += height
    if used > space - lay.key_space and len(chunks[-1]) > 1:  # the key, under the last page's rows
        chunks.append([chunks[-1].pop()])
    return chunks


def page_plan(rows: Sequence[OrderRow], paper: str) -> PagePlan:
    """Where everything of a page of `rows` stands, on `paper`."""
    from kitgen.render.pages import PAPER

    lay = layout_for(paper)
    w, h = PAPER[paper]
    m, inset = lay.marker, lay.marker_inset
    markers = (
        (0, inset, h - inset - m),
        (1, w - inset - m, h - inset - m),
        (2, w - inset - m, inset),
        (3, inset, inset),
    )
    qr = (w - lay.margin - lay.qr, _qr_bottom(paper))
    left, span = lay.margin, width()
    y = rows_top(paper)
    plans: list[RowPlan] = []
    bubbles: list[Bubble] = []
    boxes: list[HexBox] = []
    for row in rows:
        top = y
        inner = left + lay.info_width  # where the path and the bubbles start, right of the words
        step = 0
        first_mid = y - 2 - lay.step_height / 2
        roll = None
        if has_side(row) or (_rolls(row) and row.offered):
            right = left + span - (lay.roll_box + 2 if _rolls(row) else 0.0)
            x0 = right - side_width(row, lay) + (lay.roll_box + 6 if _rolls(row) else 0.0)
            for kind, what, word, dx, dy in side_items(row, lay):
                bubbles.append(Bubble(row.id, kind, 0, what, x0 + dx, first_mid + dy, word))
            if _rolls(row):
                roll = (left + span - lay.roll_box - 2, first_mid - lay.path_box / 2)
        for count in step_lines(row, lay):
            cy = y - 2 - lay.step_height / 2
            for k in range(count):
                step += 1
                cx = inner + lay.path_lead + (k + 0.5) * lay.step
                bubbles.extend(
                    Bubble(row.id, "step", step, d, cx + dx * lay.hexagon, cy + dy * lay.hexagon)
                    for d, (dx, dy) in SIDES.items()
                )
                box_w = lay.step - 3
                boxes.append(
                    HexBox(row.id, step, cx - box_w / 2, y - 3 - lay.step_height - lay.path_box, box_w, lay.path_box)
                )
            y -= lay.path_line
        by = beside(row, lay)
        start, top_mid = inner, y - lay.order_row / 2
        if by is None:
            lines = bubble_lines(row, lay, span - lay.info_width)
        else:  # beside the path's last line, level with its steps
            start, top_mid = inner + by, y + lay.path_line - 2 - lay.step_height / 2
            lines = bubble_lines(row, lay, span - lay.info_width - by)
        mids: list[tuple[str, float]] = []
        for n, (lead, items) in enumerate(lines):
            mid = top_mid - n * lay.order_row
            mids.append((lead, mid))
            for part, choice, label, dx in items:
                if part != "word":
                    bubbles.append(Bubble(row.id, part, 0, choice, start + dx + lay.bubble / 2, mid, label))
        if _rolls(row) and not row.offered:  # a row with no steps: at its first line's end
            roll = (left + span - lay.roll_box - 2, top - ROLL_DROP - lay.path_box)  # its word above it, in the row
        y = top - row_height(row, lay, span)
        plans.append(RowPlan(row, top, y, tuple(mids), roll, start))
    return PagePlan(paper, (w, h), lay, markers, qr, rows_top(paper), tuple(plans), tuple(bubbles), tuple(boxes))


def _qr_bottom(paper: str) -> float:
    """The QR code's bottom: centred in the identity strip."""
    from kitgen.render.formstyle import form_style
    from kitgen.render.pages import MM, PAPER

    st, lay = form_style(), layout_for(paper)
    strip_top = PAPER[paper][1] - lay.margin - st.band_mm * MM - st.gap
    return strip_top - (lay.identity_strip + lay.qr) / 2


# --- the scanner check: a page to test a club's scanner or phone ------------------------------

CHECK_LINES: tuple[tuple[str, str], ...] = (
    ("filled", "Fill the N bubble of each step, as you would an order."),
    ("ticked", "Tick the N bubble of each step."),
    ("crossed", "Cross the N bubble of each step."),
    ("empty", "Leave every bubble of these steps empty."),
    ("ringed", "Draw a ring round the N bubble of each step, close round it, without filling it."),
    ("erased", "Fill the N bubble of each step, then rub it out."),
)
"""The check page's lines of steps: what each is for, and what the club is asked to do: the marks
read as marks (a fill, a tick, a cross), and what kitgen asks about (a ring, a mark rubbed out)."""
CHECK_READ = ("filled", "ticked", "crossed")
"""The check's lines of marks that a scan must read as marks."""
CHECK_ASKED = ("ringed", "erased")
"""The check's lines that a scan must never read as marks: a ring is asked about, a mark rubbed out
asked about or read empty."""
CHECK_STEPS = 6
CHECK_BOXES: tuple[tuple[str, str], ...] = (
    ("written", "Write four digits in each box."),
    ("blank", "Leave these boxes empty."),
)
CHECK_BOX_COUNT = 4


@dataclass(frozen=True)
class FixedPage:
    """The QR code of a page that is the same in every campaign: the scanner check (`CHECK`) or
    the kit's blank order form (`BLANK`), with its form version and paper."""

    kind: Literal["CHECK", "BLANK"]
    paper: str
    version: int = FORM_VERSION

    def code(self) -> str:
        return f"KG{self.version}/{self.kind}/{'L' if self.paper == 'letter' else 'A'}"

    @classmethod
    def parse(cls, text: str, kind: Literal["CHECK", "BLANK"]) -> FixedPage | None:
        """The page a QR code's text names, if it is a `kind` page; else None."""
        parts = text.strip().split("/")
        if len(parts) != 3 or parts[1] != kind or not parts[0].startswith("KG") or not _digits(parts[0][2:], 3):
            return None
        if parts[2] not in ("A", "L"):
            return None
        return cls(kind, "letter" if parts[2] == "L" else "a4", int(parts[0][2:]))


def check_plan(paper: str) -> PagePlan:
    """Where everything of the scanner check page stands: its lines of steps, each under the
    words saying what to do, then its boxes; its markers and QR code as the order form's."""
    from kitgen.render.pages import PAPER

    base = page_plan([], paper)
    lay = base.layout
    left = base.left + lay.path_lead
    y = rows_top(paper) - 4
    bubbles: list[Bubble] = []
    for name, _ in CHECK_LINES:
        y -= lay.order_row  # the line's words
        cy = y - 2 - lay.step_height / 2
        for k in range(CHECK_STEPS):
            cx = left + (k + 0.5) * lay.step
            bubbles.extend(
                Bubble(name, "step", k + 1, d, cx + dx * lay.hexagon, cy + dy * lay.hexagon)
                for d, (dx, dy) in SIDES.items()
            )
        y -= lay.step_height + 2 + lay.gap
    boxes: list[HexBox] = []
    for name, _ in CHECK_BOXES:
        y -= lay.order_row
        for k in range(CHECK_BOX_COUNT):
            boxes.append(
                HexBox(name, k + 1, left + k * lay.step + 1.5, y - lay.path_box - 2, lay.step - 3, lay.path_box)
            )
        y -= lay.path_box + 2 + lay.gap
    return PagePlan(paper, PAPER[paper], lay, base.markers, base.qr, rows_top(paper), (), tuple(bubbles), tuple(boxes))


# --- the kit's blank order form: rows that name no unit ------------------------------------------

BLANK_ROWS = 8
"""The rows of the blank form's page: as many as a page of the faction's form holds."""
BLANK_STEPS = 6
"""The steps of a blank row: the most hexes a land unit of either scenario enters (armoured
cars' 6 MP), all on the row's first line."""


def blank_rows() -> list[OrderRow]:
    """The blank form's rows: a unit's special orders each, its name and hex to be written in."""
    from kitgen.orders.rows import UNIT_TICKS

    return [
        OrderRow(
            f"row{k}", "unit", "", "", "", None, "", "", None, label=f"{k}.", specials=UNIT_TICKS, steps=BLANK_STEPS
        )
        for k in range(1, BLANK_ROWS + 1)
    ]


def blank_plan(paper: str) -> PagePlan:
    return page_plan(blank_rows(), paper)
