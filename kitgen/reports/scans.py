"""Battle report forms and roll sheets read back from scans, among the order forms `kitgen orders
scan` reads (`kitgen.scan.intake.OtherForms`): each page known by its QR code, its plan made
again from the turn (the roll sheet's lines, the contact's form), its bubbles called by the order
form's reader (`look`), and each line's one mark, or a doubt. A doubt is never guessed: it names
the form, the unit and the line, and the umpire settles it (`--accept HEX:UNIT:LINE=CHOICE`,
`HEX:winner=FACTION`, `roll:N=TOTAL`, `none` for no mark) or rescans. All the pages are read
before anything is written; the forms are then judged and written as a PDF's are (`intake`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.reports.battleform import CONTACT, BattleForm
from kitgen.reports.intake import Judged, ReadForm, ReportsDone, judge, place_of, record
from kitgen.reports.plan import ReportPage, ReportPlan
from kitgen.scan.intake import ScanFigures
from kitgen.scan.readback import CALLED, seen

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from kitgen.campaign import Campaign
    from kitgen.engine.basis import TurnBasis
    from kitgen.scan.bubbles import Measure
    from kitgen.scan.images import ScanPage
    from kitgen.scan.locate import Found
    from kitgen.scan.review import Reviewed

ACCEPTED = "HEX:UNIT:LINE=CHOICE, HEX:winner=FACTION, HEX:ship=SHIP,SHIP or roll:N=TOTAL (none for no mark)"


@dataclass(frozen=True)
class PackedPage:
    """A page's picture kept until the turn says its plan, packed as PNG: a form is mostly white
    paper, so the 200 pages a file of scans may hold take tens of MB kept, not gigabytes."""

    file: Path
    page: int
    png: bytes

    @classmethod
    def of(cls, scan: ScanPage) -> PackedPage:
        import cv2

        done, png = cv2.imencode(".png", scan.image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        assert done, "a greyscale page always packs"
        return cls(scan.file, scan.page, png.tobytes())

    @property
    def image(self) -> npt.NDArray[np.uint8]:
        import cv2
        import numpy as np

        return cv2.imdecode(np.frombuffer(self.png, np.uint8), cv2.IMREAD_GRAYSCALE)  # type: ignore[return-value]


@dataclass
class PageScanned:
    """A page of a report form or the roll sheet, as read."""

    scan: PackedPage
    found: Found
    code: ReportPage
    plan: ReportPlan | None = None
    measures: tuple[Measure, ...] = ()
    flat: object = None
    picked: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    notes: list[tuple[float, float, str, bool]] = field(default_factory=list)
    doubts: list[Problem] = field(default_factory=list)
    form: BattleForm | None = None


def accept_key(code: ReportPage, row: str, part: str, number: int = 0) -> str:
    """What `--accept` names a line by: `5313:r_37th_div:lost:infantry`, `5313:winner`, `roll:5`."""
    if code.kind == "R":
        return f"roll:{number}"
    return f"{code.hex}:{part}" if row == CONTACT else f"{code.hex}:{row}:{part}"


def parse_accept(text: str) -> tuple[str, str]:
    """One `--accept KEY=ANSWER` of a report form or the roll sheet; a ValueError says what is wrong."""
    key, sep, answer = text.rpartition("=")
    key, answer = key.strip(), answer.strip()
    head, _, rest = key.partition(":")
    if not (sep and rest and answer) or not (_digits(head) or head.lower() == "roll"):
        raise ValueError(ACCEPTED)
    if head.lower() == "roll":
        if not _digits(rest.strip()):
            raise ValueError("roll:N=TOTAL, N the roll's number on the sheet")
        return f"roll:{int(rest)}", answer.lower() if answer.lower() == "none" else answer
    return f"{head}:{rest.strip().lower()}", answer if answer.lower() != "none" else "none"


def is_own(text: str) -> bool:
    """An answer of a report form's or the roll sheet's (`HEX:...`, `roll:...`), not an order form's."""
    head = text.partition("=")[0].partition(":")[0].strip()
    return _digits(head) or head.lower() == "roll"


def _digits(text: str) -> bool:
    """A hex id or a roll's number: ASCII digits, a few (`str.isdigit` alone takes `²`, which `int` refuses)."""
    return 0 < len(text) <= 6 and text.isascii() and text.isdigit()


class ReportScans:
    """The report forms' and roll sheets' pages of a scan (`OtherForms`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pages: list[PageScanned] = []
        self.answers: dict[str, str] = {}
        self.stale: list[str] = []
        """The answers that settle no doubt of the pages read, named once all are read."""
        self.used: set[str] = set()
        self.doubted: set[str] = set()
        """The keys of every doubt found, settled or not."""
        self.judged: Judged | None = None
        self.done: ReportsDone | None = None
        self.names: dict[str, str] = {}
        """Each faction's name, for the review."""

    def claim(self, accepts: Sequence[str]) -> list[str]:
        rest = []
        for text in accepts:
            if not is_own(text):
                rest.append(text)
                continue
            try:
                key, answer = parse_accept(text)
            except ValueError as wrong:
                raise UsageError(msg.scan_bad_accept(text, str(wrong))) from None
            self.answers[key] = answer
        return rest

    def take(self, scan: ScanPage, found: Found) -> bool:
        code = ReportPage.parse(found.qr_text or "")
        if code is None:
            return False
        self.pages.append(PageScanned(PackedPage.of(scan), found, code))
        return True

    def read(self, keep: bool) -> list[Problem]:
        from kitgen.campaign import load_campaign
        from kitgen.engine.basis import playable_basis

        if not self.pages:
            self.stale = sorted(self.answers)
            return []
        campaign = load_campaign(self.folder)
        basis = playable_basis(campaign)
        self.names = {f.id: f.name for f in campaign.scenario.meta.factions}
        problems: list[Problem] = []
        rolls = [p for p in self.pages if p.code.kind == "R"]
        battles = [p for p in self.pages if p.code.kind == "B"]
        given = self._read_sheets(campaign, basis, rolls, keep, problems)
        self._read_battles(campaign, basis, battles, given, keep, problems)
        read = [p for p in self.pages if p.plan is not None]
        problems += _twice_or_missing(campaign, read)
        problems += [d for p in read for d in p.doubts]
        if len(read) == len(self.pages):  # every page read: no answer can be for a page not seen
            self.stale = sorted(set(self.answers) - self.used)
        if problems:
            return problems
        try:
            self.judged = judge(campaign, _forms(read), basis.turn)
        except KitgenError as refused:
            return list(refused.problems)
        return []

    def _read_sheets(
        self, campaign: Campaign, basis: TurnBasis, pages: list[PageScanned], keep: bool, problems: list[Problem]
    ) -> dict[str, int]:
        """The roll sheet's pages read; the rolls they give for certain (the contacts depend on them)."""
        from kitgen.orders.rows import campaign_key
        from kitgen.reports.plan import roll_numbers, roll_plans
        from kitgen.reports.rollsheet import rolls_from, sheet_key, sheet_rolls

        rolls = sheet_rolls(campaign, basis.after, basis.turn)
        key = sheet_key(rolls)
        numbers = roll_numbers(rolls, campaign.scenario)
        picked: dict[tuple[str, str], list[str]] = {}
        for p in pages:
            if not self._fits(campaign, basis, p, problems):
                continue
            if not key.startswith(p.code.key):
                problems.append(_on(p, msg.report_sheet_changed(p.code.key, key[:10])))
                continue
            plans = roll_plans(rolls, campaign.scenario, p.code.paper, campaign_key(campaign), key, basis.turn)
            if self._look(p, plans, "the roll sheet", keep, problems, numbers):
                picked |= p.picked
        given, _ = rolls_from(rolls, picked)
        return given

    def _read_battles(
        self,
        campaign: Campaign,
        basis: TurnBasis,
        pages: list[PageScanned],
        given: dict[str, int],
        keep: bool,
        problems: list[Problem],
    ) -> None:
        from kitgen.engine.contacts_ahead import contacts_ahead
        from kitgen.engine.turnlog import TurnLog
        from kitgen.orders.rows import campaign_key
        from kitgen.record.dicelog import with_given
        from kitgen.reports.battleform import battle_form
        from kitgen.reports.plan import battle_plans

        if not pages:
            return
        log = with_given(basis.log or TurnLog(turn=basis.turn), given)
        forms = [battle_form(campaign, c) for c in contacts_ahead(campaign, basis.after, log, basis.source)]
        for p in pages:
            if not self._fits(campaign, basis, p, problems):
                continue
            form = next((f for f in forms if f.key.startswith(p.code.key)), None)
            if form is None:
                problems.append(_on(p, msg.report_contact_changed(place_of(campaign, p.code.hex), basis.turn)))
                continue
            p.form = form
            plans = battle_plans(form, campaign.scenario, p.code.paper, campaign_key(campaign))
            self._look(p, plans, f"the battle at {form.place}", keep, problems)

    def _fits(self, campaign: Campaign, basis: TurnBasis, p: PageScanned, problems: list[Problem]) -> bool:
        """The page is of this campaign's turn, and of this version of the forms."""
        from kitgen.orders.rows import campaign_key
        from kitgen.orders.sheetplan import CAMPAIGN_CHARS
        from kitgen.reports.plan import REPORT_VERSION

        ours = campaign_key(campaign)[:CAMPAIGN_CHARS]
        if p.found.crowded:
            problems.append(_on(p, msg.scan_crowded()))
        elif p.code.version != REPORT_VERSION:
            problems.append(_on(p, msg.scan_wrong_form("form version", str(p.code.version), str(REPORT_VERSION))))
        elif p.code.campaign != ours:
            problems.append(_on(p, msg.scan_wrong_form("campaign", p.code.campaign, ours)))
        elif p.code.turn != basis.turn:
            problems.append(_on(p, msg.scan_wrong_form("turn", str(p.code.turn), str(basis.turn))))
        else:
            return True
        return False

    def _look(
        self,
        p: PageScanned,
        plans: list[ReportPlan],
        which: str,
        keep: bool,
        problems: list[Problem],
        numbers: dict[str, int] | None = None,
    ) -> bool:
        """The page's bubbles called by its plan (`plans[page - 1]`), and each line's mark or doubt."""
        from kitgen.scan.readback import Unreadable, look

        if p.code.pages != len(plans) or not 1 <= p.code.page <= len(plans):
            expected = f"one of {len(plans)} pages"
            problems.append(_on(p, msg.scan_wrong_form("page", f"{p.code.page} of {p.code.pages}", expected)))
            return False
        plan = plans[p.code.page - 1]
        try:
            flat, measures, _ = look(p.scan.image, plan.page, p.found)
        except Unreadable as bad:
            problems.append(_on(p, bad.message))
            return False
        p.plan, p.measures, p.flat = plan, tuple(measures), flat if keep else None
        by_line: dict[tuple[str, str], list[Measure]] = {}
        for m in measures:
            by_line.setdefault((m.bubble.row, m.bubble.part), []).append(m)
        said: dict[str, list[str]] = {}
        names = {u.id: u.name for u in p.form.units} if p.form is not None else {}
        for line in plan.lines:
            group = by_line.get((line.row, line.part), [])
            marked = [m.bubble.choice for m in group if m.call == "marked"]
            shown = seen(group)
            key = accept_key(p.code, line.row, line.part, (numbers or {}).get(line.row, 0))
            if any(m.call == "doubt" for m in group) or (len(marked) > 1 and not line.many):
                self.doubted.add(key)
                answer = self.answers.get(key)
                if answer is None:
                    who = f"{which}, {names[line.row]}" if line.row in names else which
                    by_call: dict[str, list[str]] = {}
                    for choice, call in shown:
                        by_call.setdefault(call, []).append(choice)
                    marks = "; ".join(f"{', '.join(cs)} {CALLED[call]}" for call, cs in by_call.items())
                    p.doubts.append(_on(p, msg.scan_doubt_marks(who, line.words, marks, key, ", ".join(line.choices))))
                    said.setdefault(line.row, []).append(f"in doubt: {line.words}")
                    continue
                self.used.add(key)
                known = {c.lower(): c for c in line.choices}
                said_ = [] if answer == "none" else [a.strip().lower() for a in answer.split(",") if a.strip()]
                chosen = [known.get(c, c) for c in said_]
                wrong = [c for c in chosen if c not in line.choices]
                if wrong or (len(chosen) > 1 and not line.many):
                    meant = msg.suggest(wrong[0], line.choices) if wrong else ""
                    raise UsageError(
                        msg.scan_bad_accept(f"{key}={answer}", f"one of {', '.join(line.choices)} or none{meant}")
                    )
                marked = chosen
            if marked:
                p.picked[(line.row, line.part)] = marked
                shown_as = [self.names.get(c, c) for c in marked]
                said.setdefault(line.row, []).append(f"{line.words}: {', '.join(shown_as)}")
        for s in plan.stretches:
            if s.kind == "block":
                doubt = any(t.startswith("in doubt") for t in said.get(s.row, []))
                p.notes.append((s.top, s.bottom, "; ".join(said.get(s.row, [])) or "nothing marked", doubt))
        if said.get(CONTACT):
            top = plan.stretches[0].top if plan.stretches else plan.page.rows_top
            p.notes.insert(0, (top + 20, top, "; ".join(said[CONTACT]), False))
        return True

    def reviewed(self) -> list[Reviewed]:
        from kitgen.scan.review import Reviewed

        found = []
        for p in self.pages:
            if p.plan is None:
                continue
            what = "roll sheet" if p.code.kind == "R" else f"battle report, {p.code.hex}"
            title = f"{what}, page {p.code.page} of {p.code.pages}"
            found.append(Reviewed(p.scan.file, p.scan.page, title, p.plan.page, p.flat, p.measures, tuple(p.notes)))
        return found

    def figures(self) -> ScanFigures:
        marks = sum(1 for p in self.pages for m in p.measures if m.call == "marked")
        return ScanFigures(len(self.pages), marks, sum(len(p.doubts) for p in self.pages))

    def check(self) -> None:
        if self.judged is not None:
            record(self.folder, self.judged, self._source(), check_only=True)

    def write(self) -> None:
        if self.judged is not None:
            self.done = record(self.folder, self.judged, self._source())

    def _source(self) -> Path:
        return self.pages[0].scan.file if self.pages else self.folder


def _on(p: PageScanned, message: msg.Msg) -> Problem:
    return Problem.of(p.scan.file, p.scan.page, 1, message)


def _what(campaign: Campaign, code: ReportPage) -> str:
    return "roll sheet" if code.kind == "R" else f"report form of the battle at {place_of(campaign, code.hex)}"


def _twice_or_missing(campaign: Campaign, read: Sequence[PageScanned]) -> list[Problem]:
    """A page scanned twice, or a form without all its pages: named at its first page read."""
    problems: list[Problem] = []
    by_form: dict[tuple[str, str], dict[int, PageScanned]] = {}
    for p in read:
        pages = by_form.setdefault((p.code.kind, p.code.key), {})
        first = pages.get(p.code.page)
        if first is not None:
            where = f"{first.scan.file}, page {first.scan.page}"
            problems.append(_on(p, msg.report_page_twice(_what(campaign, p.code), p.code.page, where)))
            continue
        pages[p.code.page] = p
    for pages in by_form.values():
        first = pages[min(pages)]
        missing = sorted(set(range(1, first.code.pages + 1)) - set(pages))
        if missing:
            said = ("page " if len(missing) == 1 else "pages ") + ", ".join(map(str, missing))
            problems.append(_on(first, msg.report_pages_missing(_what(campaign, first.code), said, first.code.pages)))
    return problems


def _forms(read: Sequence[PageScanned]) -> list[ReadForm]:
    """Each form of the pages read, its pages' marks together, as `judge` reads them."""
    by_form: dict[tuple[str, str], list[PageScanned]] = {}
    for p in read:
        by_form.setdefault((p.code.kind, p.code.key), []).append(p)
    forms = []
    for pages in by_form.values():
        pages.sort(key=lambda p: p.code.page)
        first = pages[0]
        picked: dict[tuple[str, str], list[str]] = {}
        at: dict[tuple[str, str], tuple[Path, int]] = {}
        for p in pages:
            picked |= p.picked
            for line in p.plan.lines if p.plan is not None else ():
                at[(line.row, line.part)] = (p.scan.file, p.scan.page)
        code = first.code
        where = (first.scan.file, first.scan.page)
        forms.append(ReadForm(code.kind, code.key, code.campaign, code.turn, code.hex, picked, at, where))
    return forms
