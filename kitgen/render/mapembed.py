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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
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

    def copy(self, obj: Any, memo: dict[tuple[int, int], Any]) -> Any:
        """`obj` of another PDF with everything it refers to, added as new objects (each once:
        `memo`); streams copied as they are encoded."""
        from pypdf.generic import ArrayObject, DictionaryObject, EncodedStreamObject, IndirectObject, StreamObject

        if isinstance(obj, IndirectObject):
            key = (obj.idnum, obj.generation)
            if key not in memo:
                memo[key] = self.add(None)
                self.objects[memo[key].idnum] = self.copy(obj.get_object(), memo)
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

    def fill_map(self, name: str, map_page: Any) -> None:
        """The empty form `place_map` drew for the map `name`, filled with `map_page` (a page of
        a pypdf reader): its content as it is, its resources copied."""
        from pypdf.generic import ArrayObject, FloatObject, NameObject

        ref = self._form_ref(f"/FormXob.{form_name(name)}")
        if ref is None:
            return
        content = map_page.raw_get("/Contents").get_object()
        form = self.copy(content, {})
        form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(FloatObject(v) for v in map_page.mediabox),
                NameObject("/Resources"): self.copy(map_page.raw_get("/Resources"), {}),
            }
        )
        self.put(ref, form)

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
        objects[idnum].write_to_stream(out)
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


def read_maps(pdfs: Mapping[str, bytes]) -> dict[str, Any]:
    """The maps `pdfs` (one page each, by name) read with pypdf, to fill the forms of the pages
    that place them; their font subsets renamed with tags reportlab's never use (it uses A-K),
    so that no two fonts of a file filled with them share one."""
    from pypdf import PdfReader

    from kitgen.render.pdffonts import fonts_of, rename

    readers = {name: PdfReader(io.BytesIO(pdf)) for name, pdf in sorted(pdfs.items())}
    tags = 0
    for reader in readers.values():
        tags = rename(fonts_of(reader.pages[0]["/Resources"]), first=tags, letters="LMNOPQRSTUVWXYZ")
    return readers


def fill_maps(pdf: bytes, readers: Mapping[str, Any]) -> bytes:
    """`pdf` with the forms its pages placed (`place_map`, `define_maps`) filled with the maps
    `readers` hold (`read_maps`), as an incremental update."""
    inc = Increment(pdf)
    for name, reader in readers.items():
        inc.fill_map(name, reader.pages[0])
    return inc.result()
