"""The clean map drawn once and laid under the map pages of every packet.

Drawing the map costs far more than everything a packet draws over it, and a turn writes a
packet per player and one for the umpire. So the map is drawn once into a one-page PDF. A
packet's page draws an empty form of the map's name where the map goes, clipped to its window
and at its scale, before anything of its own (`place_map`); once the packet is made, an
incremental update fills that form with the map's page (`Increment.fill_map`): the packet's
bytes stay as they are, and only the form, the map's resources and what else changed are
appended, without the rest of the packet being read."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


def form_name(map_name: str) -> str:
    """The form a packet's pages draw a map as (reportlab calls it `FormXob.<this>`)."""
    return f"KgMap{map_name}"


def place_map(
    c: Canvas, window: tuple[float, float, float, float], at: tuple[float, float], scale: float, map_name: str
) -> None:
    """The map `map_name` under this page's window (x, y, w, h in page points), its point `at`
    at the window's bottom-left corner, at `scale`: an empty form until `Increment.fill_map`."""
    x, y, w, h = window
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.transform(scale, 0, 0, scale, x - scale * at[0], y - scale * at[1])
    c.doForm(form_name(map_name))
    c.restoreState()


@contextmanager
def whole_map(c: Canvas, window: tuple[float, float, float, float], scale: float, map_name: str) -> Iterator[None]:
    """The whole map `map_name` laid in the window (x, y, w, h in page points) at `scale`; inside
    the `with`, the canvas draws in the map's own points, clipped to the window."""
    x, y, w, h = window
    place_map(c, window, (0.0, 0.0), scale, map_name)
    c.saveState()
    p = c.beginPath()
    p.rect(x, y, w, h)
    c.clipPath(p, stroke=0, fill=0)
    c.translate(x, y)
    c.scale(scale, scale)
    try:
        yield
    finally:
        c.restoreState()


def define_maps(c: Canvas, names: Sequence[str]) -> None:
    """The empty forms `place_map` draws, defined once in the document (filled later)."""
    for name in names:
        c.beginForm(form_name(name), 0, 0, 1, 1)
        c.endForm()


class Increment:
    """An incremental update of a PDF (pypdf's objects, read lazily): objects added, objects
    changed, written after the PDF's own bytes under a cross-reference table of their own."""

    def __init__(self, pdf: bytes) -> None:
        from pypdf import PdfReader

        self.pdf = pdf
        self.reader = PdfReader(io.BytesIO(pdf))
        size: Any = self.reader.trailer["/Size"]
        self.next = int(size)
        self.objects: dict[int, Any] = {}
        """New and changed objects by number: pypdf's, or bytes already written (`MapForm`)."""

    def add(self, obj: Any) -> Any:
        """A new object; its reference."""
        from pypdf.generic import IndirectObject

        ref = IndirectObject(self.next, 0, self.reader)
        self.objects[self.next] = obj
        self.next += 1
        return ref

    def put(self, ref: Any, obj: Any) -> None:
        """The object of `ref` (one of the PDF's) written anew, as `obj`."""
        self.objects[ref.idnum] = obj

    def fill_map(self, name: str, form: MapForm) -> None:
        """The empty form `place_map` drew for the map `name`, filled with the map's page as
        `form` wrote it once for every file: its objects numbered after this file's."""
        ref = self._form_ref(f"/FormXob.{form_name(name)}")
        if ref is None:
            return
        written = form.written
        if written is None:  # text of its own that reads as a reference: copied for this file alone
            copies = _Copies(form.page, first=self.next)
            self.next += len(copies.objects)
            self.objects |= copies.objects
            self.objects[ref.idnum] = copies.form
            return
        page, added = written
        start, self.next = self.next, self.next + len(added)

        def number(found: re.Match[bytes]) -> bytes:
            return b"%d 0 R" % (start + int(found[1]))

        for k, (head, tail) in enumerate(added):
            self.objects[start + k] = _PLACED.sub(number, head) + tail
        head, tail = page
        self.objects[ref.idnum] = _PLACED.sub(number, head) + tail

    def _form_ref(self, internal: str) -> Any:
        for page in self.reader.pages:
            xobjects = page.get("/Resources", {}).get("/XObject", {})
            if internal in xobjects:
                return xobjects.raw_get(internal)
        return None

    def result(self) -> bytes:
        return _increment(self.pdf, self.reader.trailer, self.objects)


def _increment(packet: bytes, old: Any, objects: dict[int, Any]) -> bytes:
    """The packet with `objects` (new and changed, by number) appended, under a cross-reference
    table of their own and a trailer pointing back to the packet's (`old`)."""
    from pypdf.generic import DictionaryObject, NameObject, NumberObject

    out = io.BytesIO()
    out.write(packet if packet.endswith(b"\n") else packet + b"\n")
    positions: dict[int, int] = {}
    for idnum in sorted(objects):
        positions[idnum] = out.tell()
        out.write(f"{idnum} 0 obj\n".encode())
        obj = objects[idnum]
        if isinstance(obj, bytes):
            out.write(obj)
        else:
            obj.write_to_stream(out)
        out.write(b"\nendobj\n")
    table = out.tell()
    out.write(b"xref\n")
    runs: list[list[int]] = []
    for idnum in sorted(positions):
        if runs and runs[-1][-1] + 1 == idnum:
            runs[-1].append(idnum)
        else:
            runs.append([idnum])
    for run in runs:
        out.write(f"{run[0]} {len(run)}\n".encode())
        out.write(b"".join(f"{positions[i]:010d} 00000 n\r\n".encode() for i in run))  # 20 bytes an entry
    trailer = DictionaryObject(
        {
            NameObject("/Size"): NumberObject(max(int(old["/Size"]), max(positions, default=0) + 1)),
            NameObject("/Root"): old.raw_get("/Root"),
            NameObject("/Prev"): NumberObject(int(packet[packet.rindex(b"startxref") + 9 :].split()[0])),
        }
    )
    for key in ("/Info", "/ID"):
        if key in old:
            trailer[NameObject(key)] = old.raw_get(key)
    out.write(b"trailer\n")
    trailer.write_to_stream(out)
    out.write(f"\nstartxref\n{table}\n%%EOF\n".encode())
    return out.getvalue()


_BASE = 9_000_000_000
"""Object numbers no PDF has (a PDF's own stop at 8,388,607): a written map's references to its
own objects, numbered from here until a file's numbers for them are known."""
_PLACED = re.compile(rb"(?<![0-9.])9(\d{9}) 0 R")

Written = tuple[bytes, bytes]
"""An object as written, without its number: what may hold references (a stream's dictionary)
and what cannot (its data, as encoded)."""


class MapForm:
    """A map's page (`read_maps`) as the form it fills, written once: every file the map fills
    gets the same objects, only numbered after its own, and writing them anew for each file was
    most of a packet's filling."""

    def __init__(self, page: Any) -> None:
        self.page = page

    @cached_property
    def written(self) -> tuple[Written, list[Written]] | None:
        """The form, and each object it refers to in the order they are numbered; their
        references to each other as `_PLACED` finds them, numbered from 0. None where the page's
        own text would read as more references than were made (a string '9000000001 0 R')."""
        return _Copies(self.page, first=_BASE).written()


class _Copies:
    """The map's page as a form object, with everything it refers to copied (pypdf's objects),
    numbered from `first`."""

    def __init__(self, page: Any, first: int) -> None:
        from pypdf.generic import ArrayObject, FloatObject, NameObject

        self.first = first
        self.objects: dict[int, Any] = {}
        self.references = 0
        """References made to the objects copied: each is written as one."""
        self.form = self.copy(page.raw_get("/Contents").get_object(), {})
        self.form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(FloatObject(v) for v in page.mediabox),
                NameObject("/Resources"): self.copy(page.raw_get("/Resources"), {}),
            }
        )

    def copy(self, obj: Any, memo: dict[tuple[int, int], Any]) -> Any:
        """`obj` with everything it refers to, each object once (`memo`); streams copied as
        they are encoded."""
        from pypdf.generic import ArrayObject, DictionaryObject, EncodedStreamObject, IndirectObject, StreamObject

        if isinstance(obj, IndirectObject):
            key = (obj.idnum, obj.generation)
            if key not in memo:
                number = self.first + len(self.objects)
                memo[key] = IndirectObject(number, 0, obj.pdf)
                self.objects[number] = None  # numbered before what it refers to, as it is found
                self.objects[number] = self.copy(obj.get_object(), memo)
            self.references += 1
            return memo[key]
        if isinstance(obj, StreamObject):
            stream = EncodedStreamObject()
            stream._data = obj._data  # as encoded: its filters are copied with its dictionary
            for k, v in obj.items():
                stream[k] = self.copy(v, memo)
            return stream
        if isinstance(obj, DictionaryObject):
            return DictionaryObject({k: self.copy(v, memo) for k, v in obj.items()})
        if isinstance(obj, ArrayObject):
            return ArrayObject(self.copy(v, memo) for v in obj)
        return obj

    def written(self) -> tuple[Written, list[Written]] | None:
        """The copies written (`MapForm.written`): numbered from `_BASE`, which `_PLACED` finds."""
        from pypdf.generic import StreamObject

        assert self.first == _BASE, "only copies numbered from _BASE are written with their numbers to fill in"

        def written(obj: Any) -> Written:
            out = io.BytesIO()
            obj.write_to_stream(out)
            whole = out.getvalue()
            tail = b"\nstream\n" + obj._data + b"\nendstream" if isinstance(obj, StreamObject) else b""
            return whole[: len(whole) - len(tail)], tail

        added = [written(self.objects[n]) for n in sorted(self.objects)]
        form = written(self.form)
        placed = sum(len(_PLACED.findall(head)) for head, _ in [form, *added])
        return (form, added) if placed == self.references else None


def read_maps(pdfs: Mapping[str, bytes]) -> dict[str, MapForm]:
    """The maps `pdfs` (one page each, by name) read with pypdf, to fill the forms of the pages
    that place them; their font subsets renamed with tags reportlab's never use (it uses A-K),
    so that no two fonts of a file filled with them share one."""
    from pypdf import PdfReader

    from kitgen.render.pdffonts import fonts_of, rename

    readers = {name: PdfReader(io.BytesIO(pdf)) for name, pdf in sorted(pdfs.items())}
    tags = 0
    for reader in readers.values():
        tags = rename(fonts_of(reader.pages[0]["/Resources"]), first=tags, letters="LMNOPQRSTUVWXYZ")
    return {name: MapForm(reader.pages[0]) for name, reader in readers.items()}


def fill_maps(pdf: bytes, maps: Mapping[str, MapForm]) -> bytes:
    """`pdf` with the forms its pages placed (`place_map`, `define_maps`) filled with the maps
    (`read_maps`), as an incremental update."""
    inc = Increment(pdf)
    for name, art in maps.items():
        inc.fill_map(name, art)
    return inc.result()
