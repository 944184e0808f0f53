"""The clean map drawn once and laid under the map pages of every packet.

Drawing the map costs far more than everything a packet draws over it, and a turn writes a
packet per player and one for the umpire. So the map is drawn once into a one-page PDF, and
each packet's map pages reference that page as one form XObject (pypdf), under what the page
draws itself: the counters, overlays and frames."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

MAP_NAME = "/KgMap"


@dataclass(frozen=True)
class MapSlot:
    """Where a page shows the map: the page (0-based), the window on the page it fills (x, y,
    w, h in page points) and the map point (x, y) at the window's bottom-left, at `scale`."""

    page: int
    window: tuple[float, float, float, float]
    at: tuple[float, float]
    scale: float
    map: str
    """Which of the maps handed to `lay_map_under` goes under it."""


def update(packet: bytes, *edits: Callable[[Any], None]) -> bytes:
    """The packet with `edits` made to it (each given a pypdf writer over it) as an incremental
    update: its bytes kept as they are, the new and changed objects appended, so that nothing
    else of the packet is parsed or written again."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(packet))
    writer = PdfWriter(reader, incremental=True)
    for edit in edits:
        edit(writer)
    return _increment(packet, reader, writer)


def lay_map_under(writer: Any, maps: Mapping[str, bytes | Any], slots: list[MapSlot]) -> None:
    """A map's page drawn, clipped to its window, under each slot's page of the PDF `writer` holds.

    No stream is decoded: each map's content becomes a form as it is, filters and all, and each
    page's contents become an array of a short stream that draws the form, then its own. `maps`
    gives each map (a PDF, or a pypdf reader of it, read once for several packets) by the name
    its slots use."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    from kitgen.render.pdffonts import fonts_of, rename

    if not slots:
        return
    forms: dict[str, tuple[str, Any]] = {}
    tags = 0
    for k, name in enumerate(sorted({slot.map for slot in slots})):
        source = maps[name]
        art = (PdfReader(io.BytesIO(source)) if isinstance(source, bytes) else source).pages[0]
        form = art.raw_get("/Contents").get_object().clone(writer)
        form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(FloatObject(v) for v in art.mediabox),
                NameObject("/Resources"): art["/Resources"].clone(writer),
            }
        )
        # the maps' subsets are tagged AAAAAA+... as the packet's own are: renamed with letters
        # reportlab's tags never use (it uses A-K), so no two subsets share a name
        tags = rename(fonts_of(form["/Resources"]), first=tags, letters="LMNOPQRSTUVWXYZ")
        forms[name] = (f"{MAP_NAME}{k}", writer._add_object(form))
    for slot in slots:
        page = writer.pages[slot.page]
        resources = page.setdefault(NameObject("/Resources"), DictionaryObject())
        xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject())
        form_name, ref = forms[slot.map]
        xobjects[NameObject(form_name)] = ref
        x, y, w, h = slot.window
        s = slot.scale
        under = DecodedStreamObject()
        under.set_data(
            f"q {x:.3f} {y:.3f} {w:.3f} {h:.3f} re W n "
            f"{s:.6f} 0 0 {s:.6f} {x - s * slot.at[0]:.3f} {y - s * slot.at[1]:.3f} cm {form_name} Do Q\n".encode()
        )
        own = page.raw_get("/Contents")
        parts = list(own.get_object()) if isinstance(own.get_object(), ArrayObject) else [own]
        page[NameObject("/Contents")] = ArrayObject([writer._add_object(under), *parts])


def _increment(packet: bytes, reader: Any, writer: Any) -> bytes:
    """The packet with the writer's new and changed objects appended, under a cross-reference
    table of their own and a trailer pointing back to the packet's. (pypdf 7 writes its update's
    cross-reference as a stream that leaves out its own entry, which qpdf's check warns of.)"""
    from pypdf.generic import DictionaryObject, NameObject, NumberObject

    out = io.BytesIO()
    out.write(packet if packet.endswith(b"\n") else packet + b"\n")
    positions: dict[int, int] = {}
    for ref in sorted(writer.list_objects_in_increment(), key=lambda r: r.idnum):
        positions[ref.idnum] = out.tell()
        out.write(f"{ref.idnum} 0 obj\n".encode())
        ref.get_object().write_to_stream(out)
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
    old = reader.trailer
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
