"""The layout gate itself (issue 24, item 9), one case a rule: each on a page drawn here with
reportlab to break that rule alone, and a clean page that passes."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from reportlab.pdfgen.canvas import Canvas

from kitgen.render.fonts import SANS, register_fonts
from tests.layoutgate import Area, Box, breaches

A4 = (595.28, 841.89)


def page(draw: Callable[[Canvas], None]) -> bytes:
    """One A4 page drawn by `draw`, in the kit's embedded sans."""
    register_fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, invariant=True, initialFontName=SANS)
    canvas.setFont(SANS, 9)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


def kinds(pdf: bytes, counters: dict[int, list[Box]] | None = None) -> list[str]:
    return [b.kind for b in breaches(pdf, counters=counters)]


def text(canvas: Canvas, x: float, y: float, words: str, size: float = 9, font: str = SANS) -> None:
    canvas.setFont(font, size)
    canvas.drawString(x, y, words)


def test_a_clean_page_passes() -> None:
    """Body text at 9 pt, a hex id at 5 pt, lines set apart: nothing to refuse."""

    def draw(c: Canvas) -> None:
        text(c, 72, 760, "Each unit has movement points each strategic turn.")
        text(c, 72, 748, "A unit spends the cost of each hex it enters.")
        text(c, 300, 600, "0304", size=5)

    assert kinds(page(draw)) == []


@pytest.mark.parametrize(("words", "size", "refused"), [("a word", 6.5, True), ("0304", 4.5, True), ("0304", 5, False)])
def test_type_below_the_minimums_is_refused(words: str, size: float, refused: bool) -> None:
    """Text at least 7 pt; a hex id (four digits) at least 5 pt."""
    pdf = page(lambda c: text(c, 72, 700, words, size=size))
    assert ("small_type" in kinds(pdf)) is refused


def test_text_over_text_is_refused() -> None:
    """Two labels set on top of each other, as a stack box over a town name."""

    def draw(c: Canvas) -> None:
        text(c, 100, 500, "Gorlovka")
        text(c, 104, 502, "S1 5 units")

    assert kinds(page(draw)) == ["overlap"]


def test_text_off_the_page_is_refused() -> None:
    pdf = page(lambda c: text(c, A4[0] - 30, 400, "Ekaterinoslav"))
    assert kinds(pdf) == ["off_page"]


def test_a_word_broken_inside_a_table_cell_is_refused() -> None:
    """The movement table's 'Mars' over 'h', as the A5 booklet printed it; 'Marsh' is a word the
    page uses elsewhere."""

    def draw(c: Canvas) -> None:
        text(c, 72, 760, "Marsh costs infantry 2 MP.")
        text(c, 300, 600, "Mars")
        text(c, 300, 590, "h")

    assert kinds(page(draw)) == ["broken_word"]


def test_an_unembedded_font_is_refused() -> None:
    """Helvetica, one of the standard 14, is named but not embedded."""
    pdf = page(lambda c: text(c, 72, 700, "Written by", font="Helvetica"))
    assert "unembedded_font" in kinds(pdf)


def test_a_qpdf_warning_is_refused() -> None:
    """The trailer's /Size wrong: qpdf warns "reported number of objects is not one plus the
    highest object number", as it did on every packet."""
    clean = page(lambda c: text(c, 72, 700, "A page."))
    size = int(re.search(rb"/Size (\d+)", clean).group(1))  # type: ignore[union-attr]
    broken = clean.replace(b"/Size %d" % size, b"/Size %d" % (size + 3))
    found = [b.detail for b in breaches(broken) if b.kind == "qpdf"]
    assert found and any("number of objects" in d for d in found), found


def test_text_across_a_counters_edge_is_refused_and_inside_it_may_be_smaller() -> None:
    """A counter's own text may be 5 pt (issue 25: "counter text 5 pt"); a town name across its
    edge is refused."""
    counter: Box = (100.0, 300.0, 130.0, 330.0)  # PyMuPDF's space: y down from the top

    def draw(c: Canvas) -> None:
        c.rect(100, A4[1] - 330, 30, 30)
        text(c, 104, A4[1] - 315, "2-4-3", size=5)
        text(c, 120, A4[1] - 305, "Mikhailovka")

    found = kinds(page(draw), counters={1: [counter]})
    assert found == ["over_counter"]


def test_counter_text_under_5_pt_is_refused() -> None:
    """Issue 25, item 1: "counter text 5 pt": a strength at 4.6 pt inside a counter is refused."""
    counter: Box = (100.0, 300.0, 130.0, 330.0)
    pdf = page(lambda c: text(c, 104, A4[1] - 315, "2-4-3", size=4.6))
    assert kinds(pdf, counters={1: [counter]}) == ["small_type"]


@pytest.mark.parametrize(("size", "refused"), [(4.6, True), (5.0, False)])
def test_an_area_with_its_own_least_type_size(size: float, refused: bool) -> None:
    """Issue 25, item 1: "card footers 5 pt": inside a declared foot strip type may go down to
    5 pt and no further; the same words outside it are held to the text's 7 pt."""
    foot = Area((100.0, 300.0, 250.0, 320.0), 5.0, "a card's foot")
    inside = page(lambda c: text(c, 104, A4[1] - 310, "Discard after use", size=size))
    assert ("small_type" in [b.kind for b in breaches(inside, areas={1: [foot]})]) is refused
    outside = page(lambda c: text(c, 104, A4[1] - 400, "Discard after use", size=size))
    assert "small_type" in [b.kind for b in breaches(outside, areas={1: [foot]})]


def test_a_few_letters_overprinted_at_the_end_of_a_long_line_are_refused() -> None:
    """A clash is a clash however small a part of a long line it is: 'Edge' set over the last
    letters of 'Ammunition per stand', as a header cell ran into its neighbour."""

    def draw(c: Canvas) -> None:
        text(c, 72, 500, "Ammunition per stand")
        width = c.stringWidth("Ammunition per stand", SANS, 9)
        text(c, 72 + width - 12, 500, "Edge")

    assert kinds(page(draw)) == ["overlap"]


def test_words_set_close_on_one_line_do_not_clash() -> None:
    """Two runs of one line that meet (a kerned join, a bold lead and its text) are no clash."""

    def draw(c: Canvas) -> None:
        text(c, 72, 500, "Battle:")
        width = c.stringWidth("Battle:", SANS, 9)
        text(c, 72 + width - 0.4, 500, " at Sevastopol")

    assert kinds(page(draw)) == []
