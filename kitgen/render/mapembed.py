"""The clean map drawn once and laid under the map pages of every packet.

Drawing the map costs far more than everything a packet draws over it, and a turn writes a
packet per player and one for the umpire. So the map is drawn once into a one-page PDF, and
each packet's map pages reference that page as one form XObject (pypdf), under what the page
draws itself: the counters, overlays and frames."""

from __future__ import annotations

import io
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


def lay_map_under(packet: bytes, map_pdf: bytes | Any, slots: list[MapSlot]) -> bytes:
    """The packet with the map's page drawn, clipped to its window, under each slot's page.

    No stream is decoded: the map's content becomes the form as it is, filters and all, and
    each page's contents become an array of a short stream that draws the form, then its own.
    `map_pdf` is the map's PDF, or a pypdf reader of it (read once for several packets)."""
    if not slots:
        return packet
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    art = (PdfReader(io.BytesIO(map_pdf)) if isinstance(map_pdf, bytes) else map_pdf).pages[0]
    # an incremental update: the packet's bytes kept as they are, the form and the changed pages
    # appended, so that nothing else of the packet is parsed or written again
    writer = PdfWriter(PdfReader(io.BytesIO(packet)), incremental=True)
    # the update's cross-reference is a stream, a PDF 1.5 feature: the catalog says so
    writer.root_object[NameObject("/Version")] = NameObject("/1.5")
    content = art.raw_get("/Contents").get_object()
    form = content.clone(writer)
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(FloatObject(v) for v in art.mediabox),
            NameObject("/Resources"): art["/Resources"].clone(writer),
        }
    )
    # the map's subsets are tagged AAAAAA+... as the packet's own are: renamed with letters
    # reportlab's tags never use (it uses A-K), so no two subsets share a name
    from kitgen.render.pdffonts import fonts_of, rename

    rename(fonts_of(form["/Resources"]), letters="LMNOPQRSTUVWXYZ")
    ref = writer._add_object(form)
    for slot in slots:
        page = writer.pages[slot.page]
        resources = page.setdefault(NameObject("/Resources"), DictionaryObject())
        xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject())
        xobjects[NameObject(MAP_NAME)] = ref
        x, y, w, h = slot.window
        s = slot.scale
        under = DecodedStreamObject()
        under.set_data(
            f"q {x:.3f} {y:.3f} {w:.3f} {h:.3f} re W n "
            f"{s:.6f} 0 0 {s:.6f} {x - s * slot.at[0]:.3f} {y - s * slot.at[1]:.3f} cm {MAP_NAME} Do Q\n".encode()
        )
        own = page.raw_get("/Contents")
        parts = list(own.get_object()) if isinstance(own.get_object(), ArrayObject) else [own]
        page[NameObject("/Contents")] = ArrayObject([writer._add_object(under), *parts])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
