"""The report forms and the roll sheet of a PDF filled on screen (the forms alone, or the umpire's
packet itself): each form's hidden identity fields and the bubbles ticked on it, line by line,
with the page each line stands on. The PDF is read as the order form's is (`kitgen.orders.formread`:
an empty password opened, its fields walked with what they inherit); what cannot be read for
certain is an error naming the field, never a blank: a name given to two fields, a misspelt one,
a tick box whose value is no tick's."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file
from kitgen.limits import FIELD_CHARS, FORM_PDF_BYTES
from kitgen.orders.pdfstrings import bounded_strings
from kitgen.reports.fields import IDENTITY_FIELD, KITGEN_LIKE, TICK, identity_name
from kitgen.reports.plan import Kind

if TYPE_CHECKING:
    from pypdf import PdfReader


@dataclass
class FilledSheet:
    """One form of the file: its kind and key (as its fields' names say), what its hidden fields
    say, and the choices ticked on each line, with the page the line stands on."""

    kind: Kind
    key: str
    identity: dict[str, str] = field(default_factory=dict)
    picked: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    pages: dict[tuple[str, str], int] = field(default_factory=dict)
    page: int = 1
    """The page its first field stands on."""


@dataclass(frozen=True)
class FilledReports:
    file: Path
    forms: tuple[FilledSheet, ...]
    orders: tuple[str, ...]
    """The factions whose order form fields the file holds too."""


def read_reports(path: Path) -> FilledReports | None:
    """The report forms and roll sheets of the PDF `path`; None when it holds none (an order form)."""
    from kitgen.orders.formread import _IDENTITY, _ticked, _walk_fields, open_pdf, quiet_pdf, unreadable

    data = read_file(path, what="a filled order form, report form or roll sheet", limit=FORM_PDF_BYTES)
    with quiet_pdf(), bounded_strings():
        reader = open_pdf(path, data)
        try:
            fields = _walk_fields(reader)  # each name bounded (FIELD_NAME_CHARS) before a pattern meets it
            ours = [(n, v) for n, v in fields if KITGEN_LIKE.fullmatch(n)]
            if not ours:
                return None
            pages = _pages_of(reader, {n for n, _ in ours})
        except Exception as trouble:  # noqa: BLE001 - pypdf raises many kinds on a damaged or hostile file
            raise unreadable(path, trouble) from None
    counts = Counter(n for n, _ in ours)
    problems: list[Problem] = []
    forms: dict[tuple[str, str], FilledSheet] = {}
    said: set[str] = set()
    for name, value in ours:
        page = pages.get(name, 1)
        tick, ident = TICK.fullmatch(name), IDENTITY_FIELD.fullmatch(name)
        if tick is None and ident is None:
            if name not in said:
                problems.append(Problem.of(path, page, 1, msg.report_misspelt_field(name, _close(name))))
                said.add(name)
            continue
        if counts[name] > 1:
            if name not in said:
                problems.append(Problem.of(path, page, 1, msg.orders_field_twice(name, counts[name])))
                said.add(name)
            continue
        if ident is not None:
            kind, key, what = ident.group(1).upper(), ident.group(2), ident.group(3)
            form = forms.setdefault((kind, key), FilledSheet("B" if kind == "B" else "R", key, page=page))
            text = _text(value)
            if text is None:
                problems.append(Problem.of(path, page, 1, msg.orders_field_not_text(name, _kind(value))))
                continue
            if len(text) > FIELD_CHARS:
                too_long = msg.orders_field_value_too_long(name, len(text), FIELD_CHARS)
                problems.append(Problem.of(path, page, 1, too_long))
                continue
            form.identity[what] = text
            form.page = min(form.page, page)
            continue
        assert tick is not None
        kind, key, row, part, choice = tick.groups()
        form = forms.setdefault((kind.upper(), key), FilledSheet("B" if kind == "b" else "R", key, page=page))
        form.pages.setdefault((row, part), page)
        ticked = _ticked(value)
        if ticked is None:
            problems.append(Problem.of(path, page, 1, msg.orders_tick_value(name, _kind(value))))
        elif ticked:
            form.picked.setdefault((row, part), []).append(choice)
    for form in forms.values():
        if not form.identity:
            key = form.key
            problems.append(Problem.of(path, form.page, 1, msg.report_no_identity(_WHAT[form.kind], key)))
    orders = sorted({m.group(1) for n, _ in fields if (m := _IDENTITY.fullmatch(n))})
    if problems:
        raise KitgenError(problems)
    return FilledReports(path, tuple(sorted(forms.values(), key=lambda f: (f.page, f.kind))), tuple(orders))


_WHAT: dict[Kind, str] = {"B": "battle report form", "R": "roll sheet"}


def _pages_of(reader: PdfReader, names: set[str]) -> dict[str, int]:
    """The page (from 1) each of the named fields' widgets stands on."""
    from pypdf.generic import ArrayObject, DictionaryObject

    found: dict[str, int] = {}
    for number, page in enumerate(reader.pages, start=1):
        annots = page.get("/Annots")
        annots = annots.get_object() if annots is not None else None
        if not isinstance(annots, ArrayObject):
            continue
        for ref in annots:
            widget = ref.get_object()
            if isinstance(widget, DictionaryObject) and "/T" in widget:
                name = str(widget["/T"])
                if name in names:
                    found.setdefault(name, number)
    return found


def _close(name: str) -> list[str]:
    """Names a misspelt one may stand for: its prefix set right."""
    low = name.strip().lower()
    rest = low.split("-", 1)[1] if "-" in low else low
    return [f"kgb-{rest}", f"kgr-{rest}", identity_name("B", rest, "kind")]


def _text(value: Any) -> str | None:
    from kitgen.orders.formread import _text as text

    return text(value)


def _kind(value: Any) -> str:
    from kitgen.orders.formread import _kind as kind

    return kind(value)
