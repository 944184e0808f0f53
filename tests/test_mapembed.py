"""The clean map filled into the forms a file's pages place (kitgen/render/mapembed.py): the map
written once (`MapForm`) fills every file as copying it for that file alone would, byte for byte,
and a map whose own text reads as a reference is copied for each file, whole."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from pypdf.generic import NameObject, TextStringObject

from kitgen.render.mapembed import MapForm, define_maps, fill_maps, place_map, read_maps
from tests.layoutgate import qpdf_problems


def _map_pdf(words: str) -> bytes:
    """A one-page map: lines, and words in an embedded font (its subset, widths and descriptor
    are objects the form refers to)."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts

    register_fonts()
    out = io.BytesIO()
    c = Canvas(out, pagesize=(400, 300), invariant=1)
    c.setLineWidth(2)
    c.line(10, 10, 390, 290)
    c.setFont(SANS, 12)
    c.drawString(40, 200, words)
    c.setFont(SANS_BOLD, 9)
    c.drawString(40, 100, "Tsaritsyn")
    c.showPage()
    c.save()
    return out.getvalue()


def _file(pages: int) -> bytes:
    """A file of `pages` pages, each placing the map 'm' at its own window and scale."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    c = Canvas(out, pagesize=(595, 842), invariant=1)
    define_maps(c, ["m"])
    for n in range(pages):
        place_map(c, (50, 50, 400, 300 + 50 * n), (10.0 * n, 0.0), 1.0 + n / 4, "m")
        c.drawString(50, 800, f"page {n + 1}")
        c.showPage()
    c.save()
    return out.getvalue()


def _copied_for_each_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MapForm, "written", None)


@pytest.mark.parametrize("pages", [1, 3])
def test_a_map_written_once_fills_each_file_as_copying_it_for_that_file_would(
    pages: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One written map, two files of different sizes (so its objects take other numbers in
    each): the bytes of copying the map for each file alone."""
    maps = read_maps({"m": _map_pdf("Voroponovo")})
    once = [fill_maps(_file(n), maps) for n in (pages, pages + 2)]
    _copied_for_each_file(monkeypatch)
    alone = [fill_maps(_file(n), read_maps({"m": _map_pdf("Voroponovo")})) for n in (pages, pages + 2)]
    assert once == alone
    for pdf in once:
        assert qpdf_problems(pdf) == []
        assert "Voroponovo" in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()


def test_a_map_whose_own_text_reads_as_a_reference_is_copied_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A string of the map's that reads as one of the written map's references ('9000000001 0
    R') is not taken for one: the map is copied for the file, its string kept as it was."""
    maps = read_maps({"m": _map_pdf("Sarepta")})
    page = maps["m"].page
    page["/Resources"][NameObject("/KitgenNote")] = TextStringObject("9000000001 0 R")
    assert maps["m"].written is None
    pdf = fill_maps(_file(2), maps)
    assert qpdf_problems(pdf) == []
    reader = PdfReader(io.BytesIO(pdf))
    form = reader.pages[0]["/Resources"]["/XObject"]["/FormXob.KgMapm"].get_object()
    assert form["/Resources"]["/KitgenNote"] == "9000000001 0 R"
    assert "Sarepta" in reader.pages[1].extract_text()
    _copied_for_each_file(monkeypatch)
    assert fill_maps(_file(2), maps) == pdf
