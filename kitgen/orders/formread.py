"""A filled order form read back: the fields of a PDF made by `kitgen orders form`, or the rows of
a spreadsheet (.csv) with the same columns, as typed entries with where each stands.

Forms come back as people make them: a PDF saved encrypted with an empty user password (as
Acrobat saves a form it restricts), a spreadsheet saved with commas, semicolons or tabs (as its
locale has it), with a byte-order mark and CRLF line ends. What cannot be read for certain is an
error, never a silent blank: a field whose value is not text, two fields of one name, a field
named like kitgen's but misspelt."""

from __future__ import annotations

import codecs
import contextlib
import csv
import io
import logging
import re
import warnings
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file
from kitgen.limits import (
    CSV_BYTES,
    CSV_ROWS,
    FIELD_CHARS,
    FIELD_DEPTH,
    FIELD_NAME_CHARS,
    FIELD_NODES,
    FORM_PAGES,
    FORM_PDF_BYTES,
    PDF_STRING_BYTES,
)
from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.orders.pdfstrings import StringsTooLong, bounded_strings
from kitgen.orders.rows import (
    CSV_COLUMNS,
    IDENTITY,
    IDENTITY_ROW,
    MORE_PATH,
    PARTS,
    TICKS,
    field_name,
    identity_name,
    read_identity_cell,
    tick_name,
    unneutralise_cell,
)

if TYPE_CHECKING:
    from pypdf import PdfReader


_FIELD = re.compile(r"o-([a-z][a-z0-9_]*)-(" + "|".join((*PARTS, MORE_PATH)) + ")")
_TICK = re.compile(r"o-([a-z][a-z0-9_]*)-(carry|special|toward)-([a-z][a-z0-9_]*)")
"""A check box: a unit a train or ship takes (`carry-<unit id>`), a special order
(`special-<word>`), the side it faces (`toward-<direction>`, in lower case)."""
SIDES = tuple(d.lower() for d in DIRECTION_NAMES)
TICKED = "ticked"
_IDENTITY = re.compile(r"id-([a-z][a-z0-9_]*)-(" + "|".join(IDENTITY) + ")")
_KITGEN_PREFIX = re.compile(r"\s*(o|id)\s*[-_.\s]", re.IGNORECASE)
_LAST_WORDS = tuple(w.casefold() for w in (*PARTS, *IDENTITY))
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
    """faction, turn, campaign, state, logs, as the PDF's hidden fields or the spreadsheet's
    identity row say (empty for a spreadsheet whose row was deleted)."""
    entries: tuple[OrderEntry, ...]
    identity_line: int = 1
    """The line of the spreadsheet's identity row (where a problem with the form as a whole is)."""

    def problem(self, entry: OrderEntry | None, message: msg.Msg) -> Problem:
        if entry is None:
            return Problem.of(self.file, self.identity_line, 1, message)
        return Problem.of(entry.source or self.file, entry.line, 1, message)


def read_filled(path: Path) -> FilledForm:
    """The form in `path`: a .csv is read as a spreadsheet, anything else as a PDF."""
    if path.suffix.lower() == ".csv":
        return _read_csv(path, read_file(path, what="a filled order form (.csv)", limit=CSV_BYTES))
    return _read_pdf(path, read_file(path, what="a filled order form (PDF)", limit=FORM_PDF_BYTES))


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
            if _kitgen_like(name) and name not in said:
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
        if len(text) > FIELD_CHARS:  # before it is read as orders, a turn or a state
            problems.append(Problem.of(path, 1, 1, msg.orders_field_value_too_long(name, len(text), FIELD_CHARS)))
            continue
        found[name] = text
    if problems:
        raise KitgenError(problems)
    return found


def _kitgen_like(name: str) -> bool:
    """A field name of kitgen's shape, `o-<row id>-<part>` or `id-<faction>-<what>`, judged by its
    prefix or by its last word (after a -, _, . or space): one that does not match exactly is
    misspelt, never another tool's. Judged in one pass: no pattern that could backtrack."""
    if _KITGEN_PREFIX.match(name):
        return True
    text = name.rstrip()
    for word in _LAST_WORDS:
        if text[-len(word) :].casefold() == word:
            before = text[: -len(word)]
            kept = before.rstrip()
            if kept != before or kept.endswith(("-", "_", ".")):
                return True
    return False


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
    with quiet_pdf(), bounded_strings():
        reader = open_pdf(path, data)
        try:
            return _walk_fields(reader)
        except Exception as trouble:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
            raise unreadable(path, trouble) from None


@contextlib.contextmanager
def quiet_pdf() -> Iterator[None]:
    """pypdf's own logger and warnings silenced while kitgen reads a PDF from input: a hostile file
    makes it log a line for each object it cannot parse (thousands), and what matters is said once,
    in kitgen's words (`unreadable`)."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


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
        _count_pages(path, reader)
    except KitgenError:
        raise
    except Exception as trouble:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
        raise unreadable(path, trouble) from None
    return reader


def _count_pages(path: Path, reader: PdfReader) -> int:
    """The PDF's pages, counted without reading past `FORM_PAGES`: its page tree's own /Count
    first (a file of 100,000 pages is refused with no page read), then the tree walked as pypdf
    walks it, each path to a page counted (a /Count can lie, and a page listed twice is two)."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    def resolved(obj: Any) -> Any:
        return obj.get_object() if isinstance(obj, IndirectObject) else obj

    root = resolved(reader.trailer.get("/Root"))
    tree = resolved(root.get("/Pages")) if isinstance(root, DictionaryObject) else None
    if not isinstance(tree, DictionaryObject):
        raise KitgenError.at(path, 1, 1, msg.orders_unreadable_pdf("it has no pages"))
    declared = resolved(tree.get("/Count"))
    if isinstance(declared, int) and declared > FORM_PAGES:
        raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(f"{declared:,}", FORM_PAGES))
    nodes = 4 * FORM_PAGES + 16  # a tree's inner nodes are fewer than its pages: more is no form's
    pages = 0
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        nodes -= 1
        if nodes < 0:
            said = msg.orders_unreadable_pdf("its page tree holds more nodes than any form's")
            raise KitgenError.at(path, 1, 1, said)
        if not isinstance(node, DictionaryObject):
            continue
        kids = resolved(node.get("/Kids"))
        kind = node.get("/Type", "/Pages" if "/Kids" in node else "/Page")
        if kind == "/Page":
            pages += 1
            if pages > FORM_PAGES:
                raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(f"more than {FORM_PAGES}", FORM_PAGES))
        elif kind == "/Pages" and isinstance(kids, ArrayObject):
            if len(kids) > nodes:
                raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(f"more than {FORM_PAGES}", FORM_PAGES))
            stack.extend(resolved(kid) for kid in reversed(kids))
    return pages


def unreadable(path: Path, trouble: BaseException) -> KitgenError:
    """What pypdf (or the walk of a form's fields) could not read of a damaged or hostile file, in
    the catalogue's words."""
    from pypdf.errors import LimitReachedError

    if isinstance(trouble, _NameTooLong):
        said = msg.orders_field_name_too_long(trouble.name[:60], len(trouble.name), FIELD_NAME_CHARS)
        return KitgenError.at(path, 1, 1, said)
    if isinstance(trouble, _TooManyFields):
        what = f"it has more than {FIELD_NODES:,} form fields, more than any form has"
    elif isinstance(trouble, StringsTooLong):  # before pypdf's own bounds: raised as one of them
        what = f"its strings hold more than {PDF_STRING_BYTES:,} bytes, more than any form's"
    elif isinstance(trouble, LimitReachedError):  # pypdf's own bounds: more entries in a list than it reads
        what = "it holds more fields or entries than any form has"
    elif isinstance(trouble, _TooDeep):
        what = f"its fields nest more than {FIELD_DEPTH} deep, deeper than any form's"
    elif isinstance(trouble, RecursionError):
        what = "its objects nest too deeply"
    else:
        what = "it is damaged or cut short"
    return KitgenError.at(path, 1, 1, msg.orders_unreadable_pdf(what))


class _TooManyFields(Exception):
    """A field tree larger than any form's."""


class _TooDeep(Exception):
    """A field tree nested deeper than any form's."""


class _NameTooLong(Exception):
    """A field whose full name is longer than any form's."""

    def __init__(self, name: str) -> None:
        super().__init__(name[:60])
        self.name = name


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
    if len(top) > FIELD_NODES:
        raise _TooManyFields
    stack: list[tuple[Any, str, Any, int]] = [(kid, "", None, 1) for kid in reversed(top)]
    walked = 0
    while stack:
        ref, parent, inherited, depth = stack.pop()
        walked += 1
        if walked > FIELD_NODES:
            raise _TooManyFields
        if depth > FIELD_DEPTH:
            raise _TooDeep
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
        if len(name) > FIELD_NAME_CHARS:
            raise _NameTooLong(name)
        value = resolved(dict.get(node, "/V")) if "/V" in node else inherited
        kids = resolved(dict.get(node, "/Kids"))
        listed = [(k, resolved(k)) for k in kids] if isinstance(kids, ArrayObject) else []
        named = [k for k, kid in listed if isinstance(kid, DictionaryObject) and "/T" in kid]
        if named:
            stack.extend((kid, name, value, depth + 1) for kid in reversed(named))
        else:
            found.append((name, value))
    return found


def _read_csv(path: Path, data: bytes) -> FilledForm:
    """The rows of a spreadsheet saved as CSV. What the csv module would let through silently is
    refused at its line and column: a column named twice, a row of more cells than the header, a
    quote that runs past the end of its line (or of the file), text after a closing quote."""
    text = _csv_text(path, data)
    delimiter, skip = _delimiter(path, text)
    lines = _LINE_END.split(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    start = 1  # the line the record being read starts on
    try:
        for _ in range(skip):
            next(reader, None)
        start = reader.line_num + 1
        cells = next(reader, [])
        _on_one_line(path, lines, start, reader.line_num, delimiter)
        header = [h.strip().lower() for h in cells]
        missing = [c for c in ("id", *PARTS) if c not in header]
        if missing:
            found = ", ".join(header) or "nothing"
            raise KitgenError.at(path, reader.line_num or 1, 1, msg.orders_csv_header(found, list(CSV_COLUMNS)))
        _each_column_once(path, start, lines[start - 1], header, delimiter)
        at = {name: header.index(name) for name in ("id", *PARTS)}
        entries: list[OrderEntry] = []
        identity: dict[str, str] = {}
        identity_line = 1
        while True:
            start = reader.line_num + 1
            record = next(reader, None)
            if record is None:
                break
            _on_one_line(path, lines, start, reader.line_num, delimiter)
            if not any(cell.strip() for cell in record):
                continue
            extra = next((i for i in range(len(header), len(record)) if record[i].strip()), None)
            if extra is not None:
                column = _cells_of(lines[start - 1], delimiter)[0][extra] + 1
                raise KitgenError.at(path, start, column, msg.orders_csv_extra_cells(len(record), len(header)))
            if len(entries) >= CSV_ROWS:
                raise KitgenError.at(path, start, 1, msg.orders_too_many_rows(CSV_ROWS))
            cells = [
                unneutralise_cell(record[at[name]]).strip() if at[name] < len(record) else "" for name in ("id", *PARTS)
            ]
            if cells[0].startswith("#"):  # no unit's row: the form's identity, or a player's note
                if cells[0].lower().split(maxsplit=1)[0] == IDENTITY_ROW:
                    if identity:
                        raise KitgenError.at(path, start, 1, msg.orders_csv_identity_twice(identity_line))
                    identity, identity_line = _identity_row(path, start, record), start
                continue
            entries.append(OrderEntry(cells[0], cells[1], cells[2], cells[3], line=start))
    except csv.Error as exc:
        raise _csv_error(path, lines, start, reader.line_num, delimiter, exc) from None
    return FilledForm(path, "csv", identity, tuple(entries), identity_line)


def _identity_row(path: Path, line: int, record: list[str]) -> dict[str, str]:
    """The identity a spreadsheet's `#form` row holds, after `#form` in its id cell (or in a cell
    of its own); refused if none holds one whole (a cell edited or cut)."""
    cells = [unneutralise_cell(c).strip() for c in record]
    said = [c[len(IDENTITY_ROW) :].strip() if c.lower().startswith(IDENTITY_ROW) else c for c in cells]
    for text in said:  # after `#form` in the id cell, or in a cell of its own
        ids = read_identity_cell(text)
        if ids is not None:
            return ids
    found = next((c for c in said if c and not c.startswith("#")), "")
    raise KitgenError.at(path, line, 1, msg.orders_csv_identity(found))


_LINE_END = re.compile(r"\r\n|\r|\n")
"""Where the csv module's lines end (the text read with newline='')."""


def _cells_of(line: str, delimiter: str) -> tuple[list[int], int | None]:
    """Where each cell of one line of a CSV starts (0-based), quotes minded as the csv module minds
    them; and where text follows a closing quote, if it does (None if nowhere)."""
    starts, quoted, closed, after = [0], False, False, None
    for i, ch in enumerate(line):
        if ch == '"' and (quoted or closed or i == starts[-1]):
            quoted, closed = not quoted, quoted  # a doubled quote inside quotes opens them again at once
        elif ch == delimiter and not quoted:
            starts.append(i + 1)
            closed = False
        elif closed:
            after = i if after is None else after
            closed = False
    return starts, after


def _on_one_line(path: Path, lines: list[str], start: int, end: int, delimiter: str) -> None:
    """Refuse a record that ran on past its line: a quote opened in a cell and closed lines later
    (a line break in a cell, which no order needs), or never."""
    if end > start:
        column = _cells_of(lines[start - 1], delimiter)[0][-1] + 1
        raise KitgenError.at(path, start, column, msg.orders_csv_open_quote(end - start + 1, to_end=False))


def _each_column_once(path: Path, line: int, text: str, header: list[str], delimiter: str) -> None:
    """Refuse a header that names a column twice: the csv module would read the first and drop the
    other's cells without a word."""
    starts = _cells_of(text, delimiter)[0]
    seen: set[str] = set()
    for i, name in enumerate(header):
        if name and name in seen:
            column = starts[i] + 1 if i < len(starts) else 1
            raise KitgenError.at(path, line, column, msg.orders_csv_column_twice(name, header.count(name)))
        seen.add(name)


def _csv_error(path: Path, lines: list[str], start: int, end: int, delimiter: str, exc: csv.Error) -> KitgenError:
    """What the csv module refused, at its line and column, in the catalogue's words."""
    said = str(exc)
    if "end of data" in said or end > start:  # a quote that runs to the end of the file, or past its line
        column = _cells_of(lines[start - 1], delimiter)[0][-1] + 1 if start <= len(lines) else 1
        spans = max(end, start) - start + 1
        return KitgenError.at(path, start, column, msg.orders_csv_open_quote(spans, to_end="end of data" in said))
    if "expected after" in said:
        after = _cells_of(lines[start - 1], delimiter)[1] if start <= len(lines) else None
        return KitgenError.at(path, start, (after or 0) + 1, msg.orders_csv_after_quote())
    return KitgenError.at(path, end or 1, 1, msg.orders_not_a_form(_csv_trouble(exc)))


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
