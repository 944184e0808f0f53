"""A filled order form read back: the fields of a PDF made by `kitgen orders form`, or the rows of
a spreadsheet (.csv) with the same columns, as typed entries with where each stands."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file
from kitgen.orders.rows import CSV_COLUMNS, IDENTITY, PARTS

MAX_PDF_BYTES = 20 * 1024 * 1024
MAX_CSV_BYTES = 2 * 1024 * 1024
MAX_PAGES = 50
"""More pages than a faction's form ever has: a larger PDF is not one."""
MAX_ROWS = 2000

_FIELD = re.compile(r"o-([a-z][a-z0-9_]*)-(path|carry|special)")
_IDENTITY = re.compile(r"id-([a-z][a-z0-9_]*)-(" + "|".join(IDENTITY) + ")")


@dataclass(frozen=True)
class OrderEntry:
    """What the player wrote on one row (empty strings for what he left blank)."""

    row: str
    """The unit, train or ship id of the row."""
    path: str
    carry: str
    special: str
    line: int = 1
    """The row's line in a CSV file (1 for a PDF's fields)."""

    @property
    def empty(self) -> bool:
        return not (self.path.strip() or self.carry.strip() or self.special.strip())


@dataclass(frozen=True)
class FilledForm:
    file: Path
    kind: str
    """'pdf' or 'csv'."""
    identity: dict[str, str]
    """faction, turn, campaign, state, as the PDF's hidden fields say (empty for a CSV)."""
    entries: tuple[OrderEntry, ...]

    def problem(self, entry: OrderEntry | None, message: msg.Msg) -> Problem:
        return Problem.of(self.file, entry.line if entry else 1, 1, message)


def read_filled(path: Path) -> FilledForm:
    """The form in `path`: a .csv is read as a spreadsheet, anything else as a PDF."""
    if path.suffix.lower() == ".csv":
        return _read_csv(path, read_file(path, what="a filled order form (.csv)", limit=MAX_CSV_BYTES))
    return _read_pdf(path, read_file(path, what="a filled order form (PDF)", limit=MAX_PDF_BYTES))


def _read_pdf(path: Path, data: bytes) -> FilledForm:
    fields = _pdf_fields(path, data)
    identities: dict[str, dict[str, str]] = {}
    parts: dict[str, dict[str, str]] = {}
    for name, value in sorted(fields.items()):
        if m := _IDENTITY.fullmatch(name):
            identities.setdefault(m.group(1), {})[m.group(2)] = value
        elif m := _FIELD.fullmatch(name):
            parts.setdefault(m.group(1), {})[m.group(2)] = value
    if not identities:
        raise KitgenError.at(path, 1, 1, msg.orders_not_a_form("a PDF with no kitgen order form fields"))
    if len(identities) > 1:
        raise KitgenError.at(path, 1, 1, msg.orders_several_forms(sorted(identities)))
    ((faction, ids),) = identities.items()
    ids = {**ids, "faction": ids.get("faction", faction)}
    entries = tuple(
        OrderEntry(row, got.get("path", ""), got.get("carry", ""), got.get("special", "")) for row, got in parts.items()
    )
    return FilledForm(path, "pdf", ids, entries)


def _pdf_fields(path: Path, data: bytes) -> dict[str, str]:
    """Every field's name and value, read with pypdf; what it cannot parse is a problem, never a
    traceback (the file comes from a player's e-mail)."""
    from pypdf import PdfReader

    if not data.lstrip()[:5] == b"%PDF-":
        raise KitgenError.at(path, 1, 1, msg.orders_not_a_form("no PDF header (%PDF-)"))
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        pages = len(reader.pages)
        if pages > MAX_PAGES:
            raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(pages, MAX_PAGES))
        found = reader.get_fields() or {}
        values = {}
        for name, field in found.items():
            value = field.get("/V", "")
            values[str(name)] = value if isinstance(value, str) else ""
        return values
    except KitgenError:
        raise
    except Exception as exc:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
        raise KitgenError.at(path, 1, 1, msg.orders_unreadable_pdf(type(exc).__name__)) from None


def _read_csv(path: Path, data: bytes) -> FilledForm:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise KitgenError.at(path, 1, 1, msg.orders_not_a_form("a .csv that is not UTF-8 text")) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip().lower() for h in next(reader, [])]
        missing = [c for c in ("id", *PARTS) if c not in header]
        if missing:
            raise KitgenError.at(path, 1, 1, msg.orders_csv_header(", ".join(header) or "nothing", list(CSV_COLUMNS)))
        at = {name: header.index(name) for name in ("id", *PARTS)}
        entries: list[OrderEntry] = []
        line = 1
        for record in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if len(entries) >= MAX_ROWS:
                raise KitgenError.at(path, line, 1, msg.orders_too_many_rows(MAX_ROWS))
            cells = [record[at[name]].strip() if at[name] < len(record) else "" for name in ("id", *PARTS)]
            entries.append(OrderEntry(cells[0], cells[1], cells[2], cells[3], line=line))
    except csv.Error as exc:
        raise KitgenError.at(
            path, reader.line_num or 1, 1, msg.orders_not_a_form(f"a .csv it cannot read ({exc})")
        ) from None
    return FilledForm(path, "csv", {}, tuple(entries))
