"""A filled order form read back: the fields of a PDF made by `kitgen orders form`, or the rows of
a spreadsheet (.csv) with the same columns, as typed entries with where each stands.

Forms come back as people make them: a PDF saved encrypted with an empty user password (as
Acrobat saves a form it restricts), a spreadsheet saved with commas, semicolons or tabs (as its
locale has it), with a byte-order mark and CRLF line ends. What cannot be read for certain is an
error, never a silent blank: a field whose value is not text, two fields of one name, a field
named like kitgen's but misspelt."""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file
from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.orders.rows import (
    CSV_COLUMNS,
    IDENTITY,
    MORE_PATH,
    PARTS,
    TICKS,
    field_name,
    identity_name,
    tick_name,
    unneutralise_cell,
)

if TYPE_CHECKING:
    from pypdf import PdfReader

MAX_PDF_BYTES = 20 * 1024 * 1024
MAX_CSV_BYTES = 2 * 1024 * 1024
MAX_PAGES = 50
"""More pages than a faction's form ever has: a larger PDF is not one."""
MAX_ROWS = 2000
MAX_FIELD_NODES = 200_000
"""Fields and their kids walked at most: a form has a few hundred; a hostile tree stops here."""

_FIELD = re.compile(r"o-([a-z][a-z0-9_]*)-(" + "|".join((*PARTS, MORE_PATH)) + ")")
_TICK = re.compile(r"o-([a-z][a-z0-9_]*)-(carry|special|toward)-([a-z][a-z0-9_]*)")
"""A check box: a unit a train or ship takes (`carry-<unit id>`), a special order
(`special-<word>`), the side it faces (`toward-<direction>`, in lower case)."""
SIDES = tuple(d.lower() for d in DIRECTION_NAMES)
TICKED = "ticked"
_IDENTITY = re.compile(r"id-([a-z][a-z0-9_]*)-(" + "|".join(IDENTITY) + ")")
_KITGEN_LIKE = re.compile(
    r"\s*(o|id)\s*[-_.\s].*|.*[-_.\s]\s*(" + "|".join((*PARTS, *IDENTITY)) + r")\s*", re.IGNORECASE | re.DOTALL
)
"""A field name of kitgen's shape, `o-<row id>-<part>` or `id-<faction>-<what>`, judged by its
prefix or by its last word: one that does not match exactly is misspelt, never another tool's."""
_PREFIX = re.compile(r"(o|id)[-_.\s]+(.*)", re.DOTALL)
DELIMITERS = {",": "commas", ";": "semicolons", "\t": "tabs"}
"""What a spreadsheet saves a .csv with, as its locale has it."""
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass(frozen=True)
class OrderEntry:
    """What the player wrote on one row (empty strings for what he left blank)."""

    row: str
    """The unit, train or ship id of the row."""
    path: str
    carry: str
    special: str
    line: int = 1
    """The row's line in a CSV file (1 for a PDF's fields; a scan's page in its file)."""
    toward: str = ""
    """The side its special order faces (N, NE, SE, S, SW, NW): the hex across it, from where the
    path ends, is the one the order names (repair's next, emplace's across, land's)."""
    source: Path | None = None
    """The file the row was read from, where it is not the form's (a scan of several files)."""

    @property
    def empty(self) -> bool:
        return not (self.path.strip() or self.carry.strip() or self.special.strip() or self.toward.strip())


@dataclass(frozen=True)
class FilledForm:
    file: Path
    kind: str
    """'pdf', 'csv' or 'scan'."""
    identity: dict[str, str]
    """faction, turn, campaign, state, as the PDF's hidden fields say (empty for a CSV)."""
    entries: tuple[OrderEntry, ...]

    def problem(self, entry: OrderEntry | None, message: msg.Msg) -> Problem:
        return Problem.of(entry.source or self.file if entry else self.file, entry.line if entry else 1, 1, message)


def read_filled(path: Path) -> FilledForm:
    """The form in `path`: a .csv is read as a spreadsheet, anything else as a PDF."""
    if path.suffix.lower() == ".csv":
        return _read_csv(path, read_file(path, what="a filled order form (.csv)", limit=MAX_CSV_BYTES))
    return _read_pdf(path, read_file(path, what="a filled order form (PDF)", limit=MAX_PDF_BYTES))


def _read_pdf(path: Path, data: bytes) -> FilledForm:
    fields = _kitgen_fields(path, _pdf_fields(path, data))
    identities: dict[str, dict[str, str]] = {}
    parts: dict[str, dict[str, str]] = {}
    ticks: dict[tuple[str, str], list[str]] = {}
    for name, value in sorted(fields.items()):
        if m := _IDENTITY.fullmatch(name):
            identities.setdefault(m.group(1), {})[m.group(2)] = value
        elif m := _FIELD.fullmatch(name):
            parts.setdefault(m.group(1), {})[m.group(2)] = value
        elif (m := _TICK.fullmatch(name)) and value == TICKED:
            ticks.setdefault((m.group(1), m.group(2)), []).append(m.group(3))
            parts.setdefault(m.group(1), {})
    words = {field: word for word, field in TICKS.items()}  # a special's only: `_kitgen_fields` refused others
    for (row, part), ticked in ticks.items():
        said = [words[t] for t in sorted(ticked, key=list(words).index)] if part == "special" else ticked
        if part == "toward":
            parts[row]["toward"] = " ".join(d.upper() for d in sorted(ticked, key=SIDES.index))
            continue
        typed = parts[row].get(part, "")
        parts[row][part] = " ".join([*said, typed]).strip()  # a ticked order first, then its hexes
    for got in parts.values():  # a ship's path goes on from its first line's boxes to its second's
        got["path"] = " ".join(t for t in (got.get("path", ""), got.pop(MORE_PATH, "")) if t.strip())
    if not identities:
        raise KitgenError.at(path, 1, 1, msg.orders_not_a_form("a PDF with no kitgen order form fields"))
    if len(identities) > 1:
        raise KitgenError.at(path, 1, 1, msg.orders_several_forms(sorted(identities)))
    ((faction, ids),) = identities.items()
    ids = {**ids, "faction": ids.get("faction", faction)}
    entries = tuple(
        OrderEntry(row, got.get("path", ""), got.get("carry", ""), got.get("special", ""), toward=got.get("toward", ""))
        for row, got in parts.items()
    )
    return FilledForm(path, "pdf", ids, entries)


def _kitgen_fields(path: Path, fields: list[tuple[str, Any]]) -> dict[str, str]:
    """The text of each kitgen field among a PDF's (name, value) fields; another tool's fields are
    passed over. A kitgen field that cannot be read for certain is a problem, all of them at once:
    a name given to two fields, a misspelt name, a value that is not text."""
    counts = Counter(name for name, _ in fields)
    problems: list[Problem] = []
    found: dict[str, str] = {}
    said: set[str] = set()  # a name's problem is said once, for all its fields
    for name, value in fields:
        exact = _FIELD.fullmatch(name) or _IDENTITY.fullmatch(name) or _TICK.fullmatch(name)
        if not exact:
            if _KITGEN_LIKE.fullmatch(name) and name not in said:
                problems.append(Problem.of(path, 1, 1, msg.orders_misspelt_field(name, _repairs(name))))
                said.add(name)
            continue
        if counts[name] > 1:
            if name not in said:
                problems.append(Problem.of(path, 1, 1, msg.orders_field_twice(name, counts[name])))
                said.add(name)
            continue
        if tick := _TICK.fullmatch(name):
            known = TICKS.values() if tick.group(2) == "special" else SIDES
            if tick.group(2) != "carry" and tick.group(3) not in known:
                close = [tick_name(tick.group(1), tick.group(2), w) for w in known]
                problems.append(Problem.of(path, 1, 1, msg.orders_misspelt_field(name, close)))
                continue
            ticked = _ticked(value)
            if ticked is None:
                problems.append(Problem.of(path, 1, 1, msg.orders_tick_value(name, _kind(value))))
                continue
            found[name] = TICKED if ticked else ""
            continue
        text = _text(value)
        if text is None:
            problems.append(Problem.of(path, 1, 1, msg.orders_field_not_text(name, _kind(value))))
            continue
        found[name] = text
    if problems:
        raise KitgenError(problems)
    return found


def _repairs(name: str) -> list[str]:
    """The kitgen names a misspelt one may stand for: its prefix and last word set right, in
    lower case (what `suggest` picks the closest of)."""
    low = name.strip().lower()
    m = _PREFIX.fullmatch(low)
    prefix, rest = (m.group(1), m.group(2)) if m else (None, low)
    cut = max(rest.rfind(sep) for sep in "-. ")
    middle = re.sub(r"[^a-z0-9_]+", "_", rest[:cut] if cut > 0 else rest)  # ids are [a-z][a-z0-9_]*
    names = [field_name(middle, p) for p in PARTS] if prefix in ("o", None) else []
    return names + ([identity_name(middle, w) for w in IDENTITY] if prefix in ("id", None) else [])


def _ticked(value: Any) -> bool | None:
    """A check box's value: ticked for its one on-state (/Yes), not for /Off or none; None for
    anything else, which is no tick box's."""
    from pypdf.generic import NameObject, NullObject

    if value is None or isinstance(value, NullObject) or value == NameObject("/Off"):
        return False
    return True if value == NameObject("/Yes") else None


def _text(value: Any) -> str | None:
    """A field's value as text: the string typed in, '' for none; None for any other kind of value."""
    from pypdf.generic import NullObject, TextStringObject

    if value is None or isinstance(value, NullObject):
        return ""
    return str(value) if isinstance(value, TextStringObject) else None


def _kind(value: Any) -> str:
    """What a value that is not text is, in words."""
    from pypdf.generic import (
        ArrayObject,
        BooleanObject,
        ByteStringObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        NumberObject,
    )

    if isinstance(value, NameObject):
        return f"the name {str(value)[:40]}"
    if isinstance(value, BooleanObject):
        return "true or false"
    if isinstance(value, (NumberObject, FloatObject)):
        return f"the number {value}"
    if isinstance(value, ArrayObject):
        return f"a list of {len(value)} values"
    if isinstance(value, DictionaryObject):
        return "a dictionary"
    if isinstance(value, ByteStringObject):
        return "bytes that are not text"
    return "a value of another kind"


def _pdf_fields(path: Path, data: bytes) -> list[tuple[str, Any]]:
    """Every field's full name and value, read with pypdf; what it cannot parse is a problem,
    never a traceback (the file comes from a player's e-mail)."""
    reader = open_pdf(path, data)
    try:
        return _walk_fields(reader)
    except Exception as trouble:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
        raise unreadable(path, trouble) from None


def open_pdf(path: Path, data: bytes) -> PdfReader:
    """A filled form's PDF read with pypdf: one with no PDF header, locked with a password, of
    more pages than any form or that pypdf cannot parse is a problem, never a traceback."""
    from pypdf import PasswordType, PdfReader

    if not data.lstrip()[:5] == b"%PDF-":
        raise KitgenError.at(path, 1, 1, msg.orders_not_a_form("no PDF header (%PDF-)"))
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        # Acrobat encrypts a form it restricts with an empty password to open it: that opens it
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            raise KitgenError.at(path, 1, 1, msg.orders_pdf_password())
        pages = len(reader.pages)
    except KitgenError:
        raise
    except Exception as trouble:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
        raise unreadable(path, trouble) from None
    if pages > MAX_PAGES:
        raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(pages, MAX_PAGES))
    return reader


def unreadable(path: Path, trouble: BaseException) -> KitgenError:
    """What pypdf (or the walk of a form's fields) could not read of a damaged or hostile file, in
    the catalogue's words."""
    if isinstance(trouble, _TooManyFields):
        what = f"it has more than {MAX_FIELD_NODES:,} form fields"
    elif isinstance(trouble, RecursionError):
        what = "its objects nest too deeply"
    else:
        what = "it is damaged or cut short"
    return KitgenError.at(path, 1, 1, msg.orders_unreadable_pdf(what))


class _TooManyFields(Exception):
    """A field tree larger than any form's."""


def _walk_fields(reader: PdfReader) -> list[tuple[str, Any]]:
    """(full name, value) of each field of the form's AcroForm: a parent's name joined to its
    kids' with dots, a value inherited from the parent where the kid has none. Each field is
    listed, so two of one name are both there; kids without a name are a field's widgets."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    def resolved(obj: Any) -> Any:
        return obj.get_object() if isinstance(obj, IndirectObject) else obj

    root = resolved(reader.trailer.get("/Root"))
    form = resolved(root.get("/AcroForm")) if isinstance(root, DictionaryObject) else None
    top = resolved(form.get("/Fields")) if isinstance(form, DictionaryObject) else None
    if not isinstance(top, ArrayObject):
        return []
    found: list[tuple[str, Any]] = []
    seen: set[tuple[int, int]] = set()  # objects walked: a loop of /Kids is cut
    stack: list[tuple[Any, str, Any]] = [(kid, "", None) for kid in reversed(top)]
    walked = 0
    while stack:
        ref, parent, inherited = stack.pop()
        walked += 1
        if walked > MAX_FIELD_NODES:
            raise _TooManyFields
        if isinstance(ref, IndirectObject):
            if (ref.idnum, ref.generation) in seen:
                continue
            seen.add((ref.idnum, ref.generation))
        node = resolved(ref)
        if not isinstance(node, DictionaryObject) or "/T" not in node:
            continue  # a widget of its parent's field, or no field at all
        partial = resolved(dict.get(node, "/T"))
        own = partial.decode("latin-1") if isinstance(partial, bytes) else str(partial)
        name = f"{parent}.{own}" if parent else own
        value = resolved(dict.get(node, "/V")) if "/V" in node else inherited
        kids = resolved(dict.get(node, "/Kids"))
        listed = [(k, resolved(k)) for k in kids] if isinstance(kids, ArrayObject) else []
        named = [k for k, kid in listed if isinstance(kid, DictionaryObject) and "/T" in kid]
        if named:
            stack.extend((kid, name, value) for kid in reversed(named))
        else:
            found.append((name, value))
    return found


def _read_csv(path: Path, data: bytes) -> FilledForm:
    text = _csv_text(path, data)
    delimiter, skip = _delimiter(path, text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for _ in range(skip):
            next(reader, None)
        header = [h.strip().lower() for h in next(reader, [])]
        missing = [c for c in ("id", *PARTS) if c not in header]
        if missing:
            found = ", ".join(header) or "nothing"
            raise KitgenError.at(path, reader.line_num or 1, 1, msg.orders_csv_header(found, list(CSV_COLUMNS)))
        at = {name: header.index(name) for name in ("id", *PARTS)}
        entries: list[OrderEntry] = []
        line = 1
        for record in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if len(entries) >= MAX_ROWS:
                raise KitgenError.at(path, line, 1, msg.orders_too_many_rows(MAX_ROWS))
            cells = [
                unneutralise_cell(record[at[name]]).strip() if at[name] < len(record) else "" for name in ("id", *PARTS)
            ]
            entries.append(OrderEntry(cells[0], cells[1], cells[2], cells[3], line=line))
    except csv.Error as exc:
        raise KitgenError.at(path, reader.line_num or 1, 1, msg.orders_not_a_form(_csv_trouble(exc))) from None
    return FilledForm(path, "csv", {}, tuple(entries))


def _csv_text(path: Path, data: bytes) -> str:
    """The spreadsheet's text: UTF-8, or UTF-16 when a byte-order mark says so (the mark dropped)."""
    codec = next((name for bom, name in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        raise KitgenError.at(path, 1, 1, msg.orders_not_a_form("a .csv that is not UTF-8 text")) from None


def _delimiter(path: Path, text: str) -> tuple[str, int]:
    """The delimiter the spreadsheet was saved with, and the lines before its header (Excel's
    `sep=;` line): of commas, semicolons and tabs, the one that splits the header row into the
    form's columns. A header that several split so is an error: the rows could be read either way."""
    first, _, _ = text.partition("\n")
    hint = first.rstrip("\r")
    if hint[:4].lower() == "sep=" and hint[4:] in DELIMITERS:
        return hint[4:], 1
    fits: list[str] = []
    widest, cells = ",", 0
    for d in DELIMITERS:
        try:
            header = [h.strip().lower() for h in next(csv.reader(io.StringIO(text, newline=""), delimiter=d), [])]
        except csv.Error:
            continue  # the reading proper reports it, with its line
        if all(c in header for c in ("id", *PARTS)):
            fits.append(d)
        if len(header) > cells:
            widest, cells = d, len(header)
    if len(fits) > 1:
        second = sorted(fits, key=lambda d: hint.find(d))[1]
        column = hint.find(second) + 1
        raise KitgenError.at(path, 1, max(column, 1), msg.orders_csv_delimiter([DELIMITERS[d] for d in fits]))
    return (fits or [widest])[0], 0


def _csv_trouble(exc: csv.Error) -> str:
    """What the csv module could not read, in words (its own text is for programmers)."""
    said = str(exc)
    if "NUL" in said:
        return "a .csv with a NUL character in it"
    if "field limit" in said:
        return f"a .csv with a cell longer than {csv.field_size_limit():,} characters"
    return "a .csv whose rows cannot be split into cells"
