"""`kitgen orders scan`: scanned pages of order forms read, in any order and any way up, and
each faction's orders handed to the same import as a form filled on screen (the lock, the
state's check, the merge unit by unit, the backups and the void orders' warnings). The pages of
other forms among them (the umpire's report forms and roll sheet) go to `OtherForms`.

Reading is all or nothing: a page that cannot be read, or a doubt not settled, and no faction's
orders are imported; every problem and doubt is listed at once, and the review (if asked for)
is written all the same, for the umpire to see them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.orders.formread import FilledForm, OrderEntry
from kitgen.record.importer import Imported
from kitgen.scan.readback import FACING, SPECIAL_WORDS, PageRead, RowRead, Settle, Unreadable

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.scan.images import ScanPage
    from kitgen.scan.locate import Found
    from kitgen.scan.review import Reviewed


@dataclass(frozen=True)
class ScanFigures:
    pages: int
    marks: int
    """Bubbles read as marked."""
    doubts: int


@dataclass(frozen=True)
class Scanned:
    reads: tuple[PageRead, ...]
    imported: tuple[Imported, ...]
    figures: ScanFigures


class OtherForms(Protocol):
    """The pages of forms other than the order form's among the scans (the umpire's battle report
    forms and roll sheet: `kitgen.reports.scans`), read and written beside the orders: their own
    answers to doubts claimed, their pages taken as they are found, all read before anything is
    written, and written after the orders."""

    def claim(self, accepts: Sequence[str]) -> list[str]:
        """The answers that are not its own (the order forms'); its own kept."""
        ...

    def take(self, scan: ScanPage, found: Found) -> bool:
        """Whether the page is one of its forms' (kept, to read): else an order form's."""
        ...

    def read(self, keep: bool) -> list[Problem]:
        """Every page taken read: the pages that cannot be, the doubts, what the forms refuse."""
        ...

    stale: list[str]
    """Its answers that settle no doubt of its pages (once `read`)."""
    doubted: set[str]
    """The keys of its lines in doubt (once `read`)."""

    def reviewed(self) -> list[Reviewed]: ...

    def figures(self) -> ScanFigures: ...

    def check(self) -> None:
        """Everything checked by the record, nothing written."""
        ...

    def write(self) -> None: ...


def settle_from(accepts: Sequence[str]) -> Settle:
    """The umpire's `--accept` answers; a malformed one is a usage error."""
    from kitgen.scan.readback import parse_accept

    answers: dict[tuple[str, str], str] = {}
    for text in accepts:
        try:
            key, answer = parse_accept(text)
        except ValueError as wrong:
            raise UsageError(msg.scan_bad_accept(text, str(wrong))) from None
        answers[key] = answer
    return Settle(answers)


def read_scans(
    folder: Path,
    files: Sequence[Path],
    settle: Settle,
    *,
    keep: bool = True,
    other: Callable[[ScanPage, Found], bool] | None = None,
) -> tuple[list[PageRead], list[Problem]]:
    """Every page of `files` read against the turn being played: the pages read (each with its
    picture straightened if `keep`, for a review) and the problems of those that could not be
    (each at its file and page). A page whose code is no order form's that `other` takes is
    left to it."""
    from kitgen.campaign import load_campaign
    from kitgen.engine.basis import playable_basis
    from kitgen.scan.images import pages_of
    from kitgen.scan.locate import find
    from kitgen.scan.readback import read_page

    campaign = load_campaign(folder)
    basis = playable_basis(campaign)
    reads: list[PageRead] = []
    problems: list[Problem] = []
    seen: dict[tuple[str, int], PageRead] = {}
    for scan in pages_of(files, problems):
        found = find(scan.image)
        if found.code is None and other is not None and other(scan, found):
            continue
        try:
            read = read_page(campaign, basis.start, basis.turn, scan, settle, keep=keep, found=found)
        except Unreadable as bad:
            problems.append(Problem.of(scan.file, scan.page, 1, bad.message))
            continue
        first = seen.get((read.faction, read.code.page))
        if first is not None:
            where = f"{first.file}, page {first.page}"
            problems.append(
                Problem.of(scan.file, scan.page, 1, msg.scan_page_twice(read.faction, read.code.page, where))
            )
            continue
        seen[(read.faction, read.code.page)] = read
        reads.append(read)
    return reads, problems


def stale_answers(reads: Sequence[PageRead], settle: Settle) -> list[str]:
    """The answers that settle no doubt of the pages read: for a row read clear, or for no row."""
    used = {key for read in reads for r in read.rows for key in r.answered}
    return sorted(f"{unit}:{what}" for unit, what in settle.answers if f"{unit}:{what}" not in used)


def scan_orders(
    folder: Path,
    files: Sequence[Path],
    accepts: Sequence[str] = (),
    *,
    review: Path | None = None,
    strict: bool = False,
    partial: bool = False,
    others: OtherForms | None = None,
) -> Scanned:
    """Read the scans, then import each faction's orders (and, with `others`, what the other
    forms among them say); a KitgenError lists every page that could not be read, every doubt
    and (unless `partial`) every page of a faction's form not scanned, and then nothing is
    imported. Every faction's orders, and the other forms, are checked before any is written, so
    that a faction refused by the rules leaves the others unwritten too."""
    from kitgen.campaign import load_campaign
    from kitgen.record.importer import import_forms

    settle = settle_from(others.claim(accepts) if others is not None else accepts)
    keep = review is not None
    reads, problems = read_scans(folder, files, settle, keep=keep, other=others.take if others else None)
    unreadable = bool(problems)  # a page that could not be read may hold the doubt an answer settles
    if others is not None:
        problems += others.read(keep)
    if review is not None:
        from kitgen.scan.review import write_review

        write_review(review, reads, others.reviewed() if others is not None else ())
    stale = [] if unreadable else stale_answers(reads, settle) + (others.stale if others is not None else [])
    if stale:
        doubts = sorted(d.key() for read in reads for d in read.doubts) + sorted(others.doubted if others else ())
        raise UsageError(msg.scan_accept_unknown(stale, ", ".join(doubts) or "none"))
    campaign = load_campaign(folder)
    for read in reads:
        problems += [Problem.of(read.file, read.page, 1, d.message()) for d in read.doubts]
    if not partial:
        problems += _missing(reads)
    forms = {} if problems else _forms(campaign, reads, problems)
    if problems:
        raise KitgenError(problems)
    ordered = [form for _, form in sorted(forms.items())]
    turn = int(ordered[0].identity["turn"]) if ordered else None
    if ordered:
        import_forms(folder, ordered, turn, strict=strict, check_only=True)
    if others is not None:
        others.check()
    # every faction's orders in one write, under one lock: all of them or none
    imported = import_forms(folder, ordered, turn, strict=strict) if ordered else []
    found = figures(reads)
    if others is not None:
        others.write()
        more = others.figures()
        found = ScanFigures(found.pages + more.pages, found.marks + more.marks, found.doubts + more.doubts)
    return Scanned(tuple(reads), tuple(imported), found)


def _missing(reads: Sequence[PageRead]) -> list[Problem]:
    """A problem for each faction whose form was not scanned whole, at its first page read."""
    pages: dict[str, list[PageRead]] = {}
    for read in reads:
        pages.setdefault(read.faction, []).append(read)
    found = []
    for faction, group in sorted(pages.items()):
        first = min(group, key=lambda r: r.code.page)
        missing = sorted(set(range(1, first.code.pages + 1)) - {r.code.page for r in group})
        if missing:
            said = ("page " if len(missing) == 1 else "pages ") + ", ".join(map(str, missing))
            found.append(Problem.of(first.file, first.page, 1, msg.scan_pages_missing(faction, said, first.code.pages)))
    return found


def figures(reads: Sequence[PageRead]) -> ScanFigures:
    marks = sum(1 for read in reads for m in read.measures if m.call == "marked")
    return ScanFigures(len(reads), marks, sum(len(read.doubts) for read in reads))


def _forms(campaign: Campaign, reads: Sequence[PageRead], problems: list[Problem]) -> dict[str, FilledForm]:
    """Each faction's form: the rows of all its pages read, as the import reads a filled PDF's."""
    from kitgen.orders.rows import campaign_key

    by_faction: dict[str, list[PageRead]] = {}
    for read in reads:
        by_faction.setdefault(read.faction, []).append(read)
    forms: dict[str, FilledForm] = {}
    for faction, pages in by_faction.items():
        pages.sort(key=lambda r: r.code.page)
        entries: list[OrderEntry] = []
        for read in pages:
            for row in read.rows:
                entry = _entry(read, row, problems)
                if entry is not None:
                    entries.append(entry)
        first = pages[0]
        identity = {
            "faction": faction,
            "turn": str(first.code.turn),
            "campaign": campaign_key(campaign),
            "state": first.state,
        }
        forms[faction] = FilledForm(first.file, "scan", identity, tuple(entries))
    return forms


def _entry(read: PageRead, row: RowRead, problems: list[Problem]) -> OrderEntry | None:
    """A row's entry as the import reads it: its path's hexes, cargo and special order."""
    hexes = row.hexes
    if hexes is None:
        problems.append(
            Problem.of(read.file, read.page, 1, msg.scan_step_off_map(row.row.label or row.row.id, len(row.steps)))
        )
        return None
    word = SPECIAL_WORDS.get(row.special or "", "")
    return OrderEntry(
        row.row.id,
        " ".join(hexes),
        " ".join(row.carry),
        word,
        line=read.page,
        toward=row.toward or "" if word in FACING else "",
        source=read.file,
    )
