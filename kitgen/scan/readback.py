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
CALLED = {"marked": "filled", "doubt": "unclear (half filled, smudged or a stray stroke)", "empty": "empty"}
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
            return msg.scan_doubt_marks(self.name, where, marks, self.key())
        if self.kind == "gap":
            return msg.scan_doubt_gap(self.name, self.step, self.key())
        if self.kind == "hexes":
            return msg.scan_doubt_hexes(self.name, self.hexes, self.unit)
        if self.kind == "count":
            return msg.scan_doubt_count(self.name, self.hexes, self.steps, self.unit)
        return msg.scan_doubt_toward(self.name, marks, self.key())


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
        row = _row(rp.row, by_row.get(rp.row.id, []), written_boxes, settle)
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
        row = _row(rp.row, mine, written, Settle())
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


def _row(row: OrderRow, measures: Sequence[Measure], written: int, settle: Settle) -> RowRead:
    """A row read: each part's one mark or none, or a doubt; an umpire's answer settles a doubt
    the marks raise, and only such a doubt (`RowRead.answered` names the answers used)."""
    name = row.label or row.id
    doubts: list[Doubt] = []
    answered: set[str] = set()

    def settled(doubt: Doubt) -> str | None:
        """The umpire's answer to `doubt`, or None (and the doubt kept) if he gave none."""
        answer = settle.get(row.id, doubt.key().split(":", 1)[1])
        if answer is None:
            doubts.append(doubt)
            return None
        answered.add(doubt.key())
        return answer

    def one(part: str, step: int, group: Sequence[Measure]) -> tuple[str | None, bool]:
        """The choice of a part whose bubbles allow one mark (or the answer to its doubt), and
        whether it is still in doubt."""
        marked = [m.bubble.choice for m in group if m.call == "marked"]
        shown = tuple((m.bubble.choice, m.call) for m in group if m.call != "empty")
        if any(m.call == "doubt" for m in group) or len(marked) > 1:
            answer = settled(Doubt(row.id, name, "marks", part, step, shown))
            if answer is None:
                return None, True
            return (None if answer == "none" else answer), False
        return (marked[0] if marked else None), False

    steps: dict[int, list[Measure]] = {}
    for m in measures:
        if m.bubble.part == "step":
            steps.setdefault(m.bubble.step, []).append(m)
    path: list[str] = []
    ended = 0
    doubtful_steps = False
    for n in sorted(steps):
        choice, doubtful = one("step", n, steps[n])
        doubtful_steps |= doubtful
        if doubtful:
            continue
        if choice is None:
            ended = ended or n
        elif ended:
            if settled(Doubt(row.id, name, "gap", "step", n)) is None:
                doubtful_steps = True
            # settled: the umpire says no step there (`none`); a direction leaves the gap as it is
        else:
            path.append(choice)
    special, _ = one("special", 0, [m for m in measures if m.bubble.part == "special"])
    toward, _ = one("toward", 0, [m for m in measures if m.bubble.part == "toward"])
    word = SPECIAL_WORDS.get(special) if special else None
    if toward is not None and word not in FACING:
        answer = settled(Doubt(row.id, name, "toward", "toward", 0, ((toward, "marked"),)))
        toward = None if answer == "none" else toward
        if answer is not None and answer != "none":  # a side for no order that faces one stays in doubt
            answered.discard(f"{row.id}:toward")
            doubts.append(Doubt(row.id, name, "toward", "toward", 0, ((toward or answer, "marked"),)))
    carry: list[str] = []
    cargo = [m for m in measures if m.bubble.part == "carry"]
    unclear = tuple((m.bubble.choice, m.call) for m in cargo if m.call == "doubt")
    if unclear:
        answer = settled(Doubt(row.id, name, "marks", "carry", 0, unclear))
        if answer is not None:
            carry = [] if answer == "none" else [c for c in answer.split(",") if c]
    else:
        carry = [m.bubble.choice for m in cargo if m.call == "marked"]
    if not doubtful_steps:
        if written and not path:
            settled(Doubt(row.id, name, "hexes", "path", 0, hexes=written))
        elif written and written != len(path):
            settled(Doubt(row.id, name, "count", "path", 0, hexes=written, steps=len(path)))
    if special is not None and special not in TICKS.values():
        special = None
    return RowRead(
        row, tuple(path), special, toward, tuple(carry), tuple(doubts), written, answered=frozenset(answered)
    )


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
