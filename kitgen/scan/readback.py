"""A scanned page of an order form read back: the form it is (its QR code), its geometry made
again from the campaign, every bubble called, and each row's orders, or the doubts that keep
them from being read for certain. A doubt is never guessed: it names the unit, the step and the
bubbles, and the umpire settles it (`Settle`) or rescans."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from kitgen import messages as msg
from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.orders.rows import TICKS, OrderRow
from kitgen.orders.sheetplan import FixedPage, FormPage, PagePlan
from kitgen.scan.bubbles import Measure

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from kitgen.campaign import Campaign
    from kitgen.scan.locate import Found

    Flat = npt.NDArray[np.uint8]
    from kitgen.engine.state import CampaignState
    from kitgen.scan.images import ScanPage

DoubtKind = Literal["marks", "gap", "hexes", "count", "toward"]
"""Why a row is in doubt: a part's bubbles are not one clear mark or none ('marks'); a step is
marked after an empty one ('gap'); hexes are written with no step marked ('hexes'); the hexes
written and the steps marked differ in number ('count'); a side is marked for no special order
that faces one ('toward')."""
SPECIAL_WORDS = {field: word for word, field in TICKS.items()}
FACING = ("repair", "emplace", "land")
CALLED = {
    "marked": "filled",
    "doubt": "unclear (half filled, smudged or a stray stroke)",
    "empty": "empty",
    "ring": "ringed round, not filled",
    "ink": "marked but not filled (half a fill, a dot, a stroke or a smudge)",
    "no ring": "not where the form prints it (the page is bent or torn there)",
}
"""A bubble's call, as a doubt names it."""
"""The special orders that face a side (`toward`)."""


@dataclass(frozen=True)
class Doubt:
    """Something on a row that cannot be read for certain."""

    unit: str
    name: str
    kind: DoubtKind
    part: str
    """'step', 'special', 'toward', 'carry' or 'path'."""
    step: int
    """The step, from 1, or 0."""
    bubbles: tuple[tuple[str, str], ...] = ()
    """(choice, call) of each bubble of the part that is not empty."""
    hexes: int = 0
    steps: int = 0
    missed: int = 0
    """Of a gap: the empty step before the step marked."""
    choices: tuple[str, ...] = ()
    """The choices of the part's bubbles, as an answer may give them."""

    def key(self) -> str:
        """What `--accept` names it by: `UNIT:STEP`, `UNIT:special`, `UNIT:toward`, `UNIT:path`."""
        what = str(self.step) if self.part == "step" else self.part
        return f"{self.unit}:{what}"

    def message(self) -> msg.Msg:
        said: dict[str, list[str]] = {}
        for choice, call in self.bubbles:
            said.setdefault(call, []).append(choice)
        marks = "; ".join(f"{', '.join(chosen)} {CALLED[call]}" for call, chosen in said.items()) or "no mark"
        where = f"step {self.step}" if self.part == "step" else self.part
        if self.kind == "marks" and self.part == "carry":
            return msg.scan_doubt_carry(self.name, marks, self.key())
        if self.kind == "marks":
            return msg.scan_doubt_marks(self.name, where, marks, self.key(), ", ".join(self.choices))
        if self.kind == "gap":
            return msg.scan_doubt_gap(self.name, self.step, self.key(), f"{self.unit}:{self.missed}")
        if self.kind == "hexes":
            return msg.scan_doubt_hexes(self.name, self.hexes, self.unit)
        if self.kind == "count":
            return msg.scan_doubt_count(self.name, self.hexes, self.steps, self.unit)
        return msg.scan_doubt_toward(self.name, marks, self.key(), f"{self.unit}:special")


@dataclass(frozen=True)
class RowRead:
    """What one row says, read for certain where `doubts` is empty."""

    row: OrderRow
    steps: tuple[str, ...]
    """The directions marked, step by step from the unit's hex."""
    special: str | None
    """A special order's word (`TICKS`), or None."""
    toward: str | None
    carry: tuple[str, ...]
    doubts: tuple[Doubt, ...]
    written: int
    """The hex boxes with writing in them."""
    hexes: tuple[str, ...] | None = None
    """The hexes its steps enter, in order; None if a step leaves the map."""
    answered: frozenset[str] = frozenset()
    """The umpire's answers (`Doubt.key`) that settled a doubt of this row."""

    @property
    def empty(self) -> bool:
        return not (self.steps or self.special or self.toward or self.carry)


@dataclass(frozen=True)
class PageRead:
    file: Path
    page: int
    """The page in its file, from 1."""
    code: FormPage
    faction: str
    state: str
    """The key of the state it was read against (`state_key`), which its code's begins."""
    plan: PagePlan
    rows: tuple[RowRead, ...]
    measures: tuple[Measure, ...]
    flat: object
    """The page straightened (a numpy array), for the review; None when no review is asked for."""

    @property
    def doubts(self) -> list[Doubt]:
        return [d for r in self.rows for d in r.doubts]


@dataclass(frozen=True)
class Settle:
    """The umpire's answers to doubts: `UNIT:STEP=DIR`, `UNIT:special=WORD`, `UNIT:toward=DIR`
    (`none` for no mark), `UNIT:path=read` (the steps as marked, whatever the hexes written say)."""

    answers: Mapping[tuple[str, str], str] = field(default_factory=dict)

    def get(self, unit: str, what: str) -> str | None:
        return self.answers.get((unit, what))


class Unreadable(Exception):
    """A page that cannot be read: its message says why."""

    def __init__(self, message: msg.Msg) -> None:
        super().__init__(message.text)
        self.message = message


def read_page(
    campaign: Campaign,
    state: CampaignState,
    turn: int,
    scan: ScanPage,
    settle: Settle,
    *,
    keep: bool = True,
    found: Found | None = None,
) -> PageRead:
    """One scanned page read against the form it says it is, as printed from `state` for `turn`
    (its markers and code `found` already, or looked for now)."""
    from kitgen.orders.rows import campaign_key, order_rows, state_key
    from kitgen.orders.sheetplan import CAMPAIGN_CHARS, FORM_VERSION, STATE_CHARS, page_plan, split_pages
    from kitgen.scan.locate import find

    found = found or find(scan.image)
    if found.code is None:
        blank = FixedPage.parse(found.qr_text or "", "BLANK")
        if blank is not None:
            raise Unreadable(msg.scan_blank_form(_blank_rows(scan, blank, found)))
        if found.qr_text is not None:
            raise Unreadable(msg.scan_other_code(found.qr_text[:40], FORM_VERSION))
        raise Unreadable(msg.scan_no_code(len(found.markers)))
    code = found.code
    if found.crowded:
        raise Unreadable(msg.scan_crowded())
    if code.version != FORM_VERSION:
        raise Unreadable(msg.scan_wrong_form("form version", str(code.version), str(FORM_VERSION)))
    factions = [f.id for f in campaign.scenario.meta.factions]
    if code.campaign != campaign_key(campaign)[:CAMPAIGN_CHARS]:
        raise Unreadable(msg.scan_wrong_form("campaign", code.campaign, campaign_key(campaign)[:CAMPAIGN_CHARS]))
    if code.turn != turn:
        raise Unreadable(msg.scan_wrong_form("turn", str(code.turn), str(turn)))
    if not 0 <= code.faction < len(factions):
        raise Unreadable(msg.scan_wrong_form("faction", str(code.faction + 1), " or ".join(factions)))
    faction = factions[code.faction]
    key = state_key(state)
    if code.state != key[:STATE_CHARS]:
        raise Unreadable(msg.scan_stale(code.state, key[:STATE_CHARS]))
    chunks = split_pages(order_rows(campaign, state, faction, turn))
    if code.pages != len(chunks) or not 1 <= code.page <= len(chunks):
        raise Unreadable(msg.scan_wrong_form("page", f"{code.page} of {code.pages}", f"one of {len(chunks)} pages"))
    plan = page_plan(chunks[code.page - 1], code.paper)
    flat, measures, boxes = look(scan.image, plan, found)
    by_row: dict[str, list[Measure]] = {}
    for m in measures:
        by_row.setdefault(m.bubble.row, []).append(m)
    rows = []
    for rp in plan.rows:
        written_boxes = sum(boxes.get((rp.row.id, k), False) for k in range(1, 17))
        row = read_row(rp.row, by_row.get(rp.row.id, []), written_boxes, settle)
        hexes = path_hexes(campaign, rp.row.hex, row.steps)
        rows.append(replace(row, hexes=None if hexes is None else tuple(hexes)))
    return PageRead(
        scan.file, scan.page, code, faction, key, plan, tuple(rows), tuple(measures), flat if keep else None
    )


def _blank_rows(scan: ScanPage, blank: FixedPage, found: Found) -> str:
    """What each row of the kit's blank form says, in words for the umpire to type."""
    from kitgen.orders.sheetplan import blank_plan

    plan = blank_plan(blank.paper)
    _, measures, boxes = look(scan.image, plan, found)
    said = []
    for k, rp in enumerate(plan.rows, start=1):
        mine = [m for m in measures if m.bubble.row == rp.row.id]
        written = sum(boxes.get((rp.row.id, n), False) for n in range(1, 13))
        row = read_row(rp.row, mine, written, Settle())
        if row.doubts:
            said.append(f"row {k}: in doubt ({', '.join(d.key().split(':', 1)[1] for d in row.doubts)})")
        elif not row.empty:
            special = SPECIAL_WORDS.get(row.special or "", "")
            words = [" ".join(row.steps) or "no move", special + (f" {row.toward}" if row.toward else "")]
            said.append(f"row {k}: " + ", ".join(w for w in words if w))
    return "; ".join(said) or "no row marked"


def look(
    image: npt.NDArray[np.uint8], plan: PagePlan, found: Found
) -> tuple[Flat, list[Measure], dict[tuple[str, int], bool]]:
    """A page found straightened by its markers, its bubbles found where they lie and measured,
    its hex boxes looked at; an `Unreadable` if it is too bent, too blurred or too faint."""
    import numpy as np

    from kitgen.scan.bubbles import LEAST_RING, measure, written
    from kitgen.scan.locate import MOST_ERROR_MM, SCALE, straighten
    from kitgen.scan.register import REACH_MM, registered

    done = straighten(image, plan, found)
    if done is None:
        raise Unreadable(msg.scan_markers(len(found.markers)))
    flat, error = done
    if error > MOST_ERROR_MM:
        raise Unreadable(msg.scan_not_flat(error, MOST_ERROR_MM))
    centres, bent = registered(flat, plan)
    if bent:
        raise Unreadable(msg.scan_not_flat(REACH_MM, MOST_ERROR_MM))
    measures, ring = measure(flat, plan, centres)
    if ring < LEAST_RING:
        raise Unreadable(msg.scan_faint(ring, LEAST_RING))
    printed = np.array([(b.x, plan.size[1] - b.y) for b in plan.bubbles]).reshape(-1, 2) * SCALE
    moves = {
        (b.row, b.step): (float(dx), float(dy))
        for b, (dx, dy) in zip(plan.bubbles, centres - printed, strict=True)
        if b.part == "step"
    }
    return flat, measures, written(flat, plan, moves)


UNSURE = "?"
"""A part's reading when its bubbles are not one clear mark or none."""


def _one(group: Sequence[Measure]) -> str | None:
    """The choice of a part whose bubbles allow one mark: the one marked, None for none, or
    `UNSURE` when a bubble is in doubt or more than one is marked."""
    marked = [m.bubble.choice for m in group if m.call == "marked"]
    if any(m.call == "doubt" for m in group) or len(marked) > 1:
        return UNSURE
    return marked[0] if marked else None


def seen(group: Sequence[Measure]) -> tuple[tuple[str, str], ...]:
    """(choice, what was seen: its call, or why it is in doubt) of each bubble that is not empty."""
    return tuple(
        (m.bubble.choice, m.why if m.call == "doubt" and m.why in CALLED else m.call)
        for m in group
        if m.call != "empty"
    )


def read_row(row: OrderRow, measures: Sequence[Measure], written: int, settle: Settle) -> RowRead:
    """A row read. A row the paper leaves in doubt takes the umpire's answers for any of its
    parts (a step missed, a special, the cargo), all of them, and is read again whole as
    answered: it is in doubt still until every part is one clear mark or none, its steps follow
    on from 1 without a gap, and they match the hexes written. A row clear on paper takes no
    answer (`RowRead.answered` names the answers used)."""
    steps: dict[int, list[Measure]] = {}
    parts: dict[str, list[Measure]] = {}
    for m in measures:
        if m.bubble.part == "step":
            steps.setdefault(m.bubble.step, []).append(m)
        else:
            parts.setdefault(m.bubble.part, []).append(m)
    cargo = parts.get("carry", [])
    paper = _Reading(
        {n: _one(g) for n, g in sorted(steps.items())},
        _one(parts.get("special", [])),
        _one(parts.get("toward", [])),
        UNSURE
        if any(m.call == "doubt" for m in cargo)
        else tuple(m.bubble.choice for m in cargo if m.call == "marked"),
        path_read=False,
    )
    shown = {("step", n): seen(g) for n, g in steps.items()}
    shown |= {(part, 0): seen(g) for part, g in parts.items()}
    choices = {
        part: tuple(dict.fromkeys(m.bubble.choice for m in group))  # as an answer names them: `pickup`, one word
        for part, group in parts.items()
    }
    choices["step"] = DIRECTION_NAMES
    doubts = _doubts(row, paper, written, shown, choices)
    given = {what: a for (unit, what), a in settle.answers.items() if unit == row.id}
    answered: frozenset[str] = frozenset()
    reading = paper
    doubted: set[str] = set()
    while doubts and given:
        # the parts in doubt, on paper or once answered (a side for no such order shows only
        # when the special is answered), take answers; then the row is read again as answered
        doubted |= {d.key().split(":", 1)[1] for d in doubts}
        answers = {what: a for what, a in given.items() if paper.fits(what, a, choices, doubted)}
        if not answers or frozenset(f"{row.id}:{what}" for what in answers) == answered:
            break
        reading = paper.answered(answers)
        answered = frozenset(f"{row.id}:{what}" for what in answers)
        doubts = _doubts(row, reading, written, shown, choices)
    path = reading.path()
    special = reading.special if reading.special in TICKS.values() else None
    toward = reading.toward if reading.toward not in (None, UNSURE) else None
    carry = reading.carry if isinstance(reading.carry, tuple) else ()
    return RowRead(row, path, special, toward, carry, tuple(doubts), written, answered=answered)


@dataclass(frozen=True)
class _Reading:
    """A row's parts as read (or answered): each step's direction, None or `UNSURE`; the special
    order's field, its side and the units taken aboard likewise."""

    steps: dict[int, str | None]
    special: str | None
    toward: str | None
    carry: tuple[str, ...] | str
    path_read: bool

    def fits(self, what: str, answer: str, offered: Mapping[str, tuple[str, ...]], doubted: set[str]) -> bool:
        """Whether an answer may settle the part it names: a part the row has and a choice its
        bubbles offer; and a part a doubt names, or one with no clear mark other than the answer
        (an answer never overrides a clear mark that nothing doubts)."""
        if what == "path":
            return True
        if what.isdigit():
            if int(what) not in self.steps:
                return False
            step = self.steps[int(what)]
            return what in doubted or step in (None, UNSURE) or step == answer
        if what not in ("special", "toward", "carry") or what not in offered:
            return False
        if what == "carry":
            cargo = _cargo(answer)
            return set(cargo) <= set(offered["carry"]) and (what in doubted or self.carry in (UNSURE, (), cargo))
        if answer != "none" and what == "special" and answer not in offered["special"]:
            return False
        read = self.special if what == "special" else self.toward
        return what in doubted or read in (None, UNSURE) or read == answer

    def answered(self, answers: Mapping[str, str]) -> _Reading:
        def given(what: str, read: str | None) -> str | None:
            answer = answers.get(what)
            return read if answer is None else None if answer == "none" else answer

        carry: tuple[str, ...] | str = _cargo(answers["carry"]) if "carry" in answers else self.carry
        return _Reading(
            {n: given(str(n), d) for n, d in self.steps.items()},
            given("special", self.special),
            given("toward", self.toward),
            carry,
            path_read=answers.get("path") == "read",
        )

    def gap(self) -> tuple[int, int] | None:
        """(the first empty step, the step marked after it), if a step is marked after an empty one."""
        empty = 0
        for n, d in sorted(self.steps.items()):
            if d is None:
                empty = empty or n
            elif d != UNSURE and empty:
                return empty, n
        return None

    def path(self) -> tuple[str, ...]:
        """The directions from step 1 up to the first step that is not one (in doubt or empty)."""
        found: list[str] = []
        for _, d in sorted(self.steps.items()):
            if d is None or d == UNSURE:
                break
            found.append(d)
        return tuple(found)


def _cargo(answer: str) -> tuple[str, ...]:
    """The units an answer for a carrier's cargo names (`UNIT,UNIT`, or `none`)."""
    return () if answer == "none" else tuple(c for c in answer.split(",") if c)


def _doubts(
    row: OrderRow,
    r: _Reading,
    written: int,
    shown: Mapping[tuple[str, int], tuple[tuple[str, str], ...]],
    choices: Mapping[str, tuple[str, ...]],
) -> list[Doubt]:
    """Everything that keeps the row as read (or answered) from being certain."""
    name = row.label or row.id

    def marks(part: str, step: int) -> Doubt:
        return Doubt(row.id, name, "marks", part, step, shown.get((part, step), ()), choices=choices.get(part, ()))

    found = [marks("step", n) for n, d in r.steps.items() if d == UNSURE]
    gap = r.gap()
    if gap is not None:
        found.append(Doubt(row.id, name, "gap", "step", gap[1], missed=gap[0]))
    if r.special == UNSURE:
        found.append(marks("special", 0))
    if r.toward == UNSURE:
        found.append(marks("toward", 0))
    elif r.toward is not None and r.special != UNSURE and SPECIAL_WORDS.get(r.special or "") not in FACING:
        found.append(Doubt(row.id, name, "toward", "toward", 0, ((r.toward, "marked"),)))
    if r.carry == UNSURE:
        found.append(marks("carry", 0))
    settled_steps = all(d != UNSURE for d in r.steps.values()) and gap is None
    path = r.path()
    if settled_steps and written and not r.path_read:
        if not path:
            found.append(Doubt(row.id, name, "hexes", "path", 0, hexes=written))
        elif written != len(path):
            found.append(Doubt(row.id, name, "count", "path", 0, hexes=written, steps=len(path)))
    return found


def path_hexes(campaign: Campaign, start: str, steps: Sequence[str]) -> list[str] | None:
    """The hexes a row's steps enter from `start`; None if a step leaves the map's grid."""
    grid = campaign.board.grid
    cell = grid.parse_id(start)
    hexes: list[str] = []
    for d in steps:
        if cell is None:
            return None
        cell = grid.toward(cell, d)
        if cell is None:
            return None
        hexes.append(grid.hex_id(*cell))
    return hexes


ACCEPTED = (
    "UNIT:STEP=DIR, UNIT:special=WORD, UNIT:toward=DIR, UNIT:carry=UNIT,UNIT (none for no mark) or UNIT:path=read"
)


def parse_accept(text: str) -> tuple[tuple[str, str], str]:
    """One `--accept UNIT:WHAT=ANSWER`; a ValueError says what is wrong."""
    key, sep, answer = text.partition("=")
    unit, colon, what = key.partition(":")
    unit, what, answer = unit.strip(), what.strip().lower(), answer.strip()
    if not (sep and colon and unit and what):
        raise ValueError(ACCEPTED)
    if what.isascii() and what.isdigit() and len(what) <= 4:
        up = answer.upper()
        if up not in DIRECTION_NAMES and answer.lower() != "none":
            raise ValueError(f"a direction ({', '.join(DIRECTION_NAMES)}) or none")
        return (unit, str(int(what))), up if up in DIRECTION_NAMES else "none"
    if what == "special":
        low = answer.lower()
        if low != "none" and low not in TICKS and low not in TICKS.values():
            raise ValueError(f"a special order ({', '.join(TICKS)}) or none")
        return (unit, what), low if low == "none" else TICKS.get(low, low)
    if what == "toward":
        up = answer.upper()
        if up not in DIRECTION_NAMES and answer.lower() != "none":
            raise ValueError(f"a direction ({', '.join(DIRECTION_NAMES)}) or none")
        return (unit, what), up if up in DIRECTION_NAMES else "none"
    if what == "path" and answer.lower() == "read":
        return (unit, what), "read"
    if what == "carry":
        ids = [t.strip() for t in answer.lower().split(",") if t.strip()]
        if not ids or any(not t.replace("_", "").isalnum() or not t.isascii() for t in ids):
            raise ValueError("the units it takes aboard, by id, separated by commas (or none)")
        return (unit, what), ",".join(ids)
    raise ValueError(ACCEPTED)
