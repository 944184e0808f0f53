"""The chronicle's charts (kitgen.render.charts): the points land where their values say, bars
stack, and the type passes the layout gate with long labels, many turns and nothing to show."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen.canvas import Canvas

from kitgen.render.charts import Chart, Plotted, Series, draw_chart, nice_top

BOX = (40.0, 40.0, 400.0, 300.0)


def _draw(*charts: Chart) -> tuple[list[Plotted], bytes]:
    from kitgen.render.fonts import SANS, register_fonts

    register_fonts()
    out = io.BytesIO()
    c = Canvas(out, pagesize=landscape(A4), initialFontName=SANS)  # no standard font left unembedded
    found = []
    for n, chart in enumerate(charts):
        dx = (n % 2) * 400.0
        found.append(draw_chart(c, chart, (BOX[0] + dx, BOX[1], BOX[2] + dx, BOX[3])))
    c.showPage()
    c.save()
    return found, out.getvalue()


def _line(values: tuple[float | None, ...], key: str = "reds", label: str = "Reds") -> Series:
    return Series(label, key, "#D55E00", values)


def test_a_line_s_points_stand_at_their_values() -> None:
    """Each point's height is linear in its value (0 on the zero line, equal steps for equal
    differences), its place across in the order of the turns; a gap (None) draws no point."""
    values = (0.0, 5.0, 10.0, None, 20.0)
    (plotted,), _ = _draw(Chart("VP", "VP", (0, 1, 2, 3, 4), (_line(values),)))
    pts = plotted.points["Reds"]
    assert [p[0] for p in pts] == [0, 1, 2, 4] and [p[1] for p in pts] == [0.0, 5.0, 10.0, 20.0]
    xs, ys = [p[2] for p in pts], [p[3] for p in pts]
    assert xs == sorted(xs) and len(set(xs)) == 4
    step = ys[1] - ys[0]
    assert step > 0 and ys[2] - ys[1] == pytest.approx(step) and ys[3] - ys[2] == pytest.approx(2 * step)
    x0, y0, x1, y1 = plotted.plot_box
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in zip(xs, ys, strict=True))


def test_stacked_bars_top_at_the_running_sum() -> None:
    """A bar's layers stack from the bottom: each segment's top stands at the sum so far."""
    a = Series("infantry", "infantry", "#E69F00", (1.0, 0.0, 3.0))
    b = Series("cavalry", "cavalry", "#56B4E9", (2.0, 4.0, 0.0))
    (plotted,), _ = _draw(Chart("Lost", "stands", (1, 2, 3), (a, b), kind="bars"))
    assert [p[1] for p in plotted.points["infantry"]] == [1.0, 3.0]
    assert [p[1] for p in plotted.points["cavalry"]] == [3.0, 4.0]
    top_1 = next(p for p in plotted.points["cavalry"] if p[0] == 1)
    top_2 = next(p for p in plotted.points["cavalry"] if p[0] == 2)
    assert top_2[3] > top_1[3], "4 stands stand higher than 3"


def test_nice_axis_tops() -> None:
    """The value axis ends at a round figure at or over the highest value, in 1, 2 or 5 steps."""
    assert nice_top(0) == (1.0, 1.0)
    assert nice_top(23) == (25.0, 5.0)
    assert nice_top(51) == (60.0, 20.0)
    assert nice_top(3) == (3.0, 1.0)
    for high in (1, 7, 99, 101, 1234):
        top, step = nice_top(high)
        assert top >= high and top / step <= 5


def test_the_type_passes_the_layout_gate_with_long_labels_and_many_turns() -> None:
    """No text under 7 pt, none over another, none off the page: four long-named series over 120
    turns, stacked bars of eight kinds, and a chart with nothing to show."""
    from tests.layoutgate import assert_passes

    turns = tuple(range(121))
    factions = ("reds", "whites", "ukrainians", "makhnovists")
    series = tuple(
        Series(f"The {f.title()} of the long campaign", f, "#0072B2", tuple(float((k * (n + 3)) % 40) for k in turns))
        for n, f in enumerate(factions)
    )
    kinds = tuple(Series(f"kind {n}", f"kind{n}", "#009E73", tuple(float(n % 3) for _ in turns)) for n in range(8))
    plotted, pdf = _draw(
        Chart("Stands of every faction over a hundred and twenty turns", "stands", turns, series),
        Chart("Stands lost for good, by kind", "stands", turns, kinds, kind="bars"),
    )
    assert all(len(plotted[0].points[s.label]) == 121 for s in series), "every value is plotted"
    assert_passes(pdf, name="charts")
    _, empty = _draw(Chart("Nothing yet", "VP", (0,), ()))
    assert_passes(empty, name="an empty chart")


def test_many_turns_mark_some_points_and_label_some_turns() -> None:
    """Over 120 turns the markers and the turn labels thin out (else they would run together)
    while the line keeps every point."""
    import fitz

    turns = tuple(range(121))
    (plotted,), pdf = _draw(Chart("Long", "VP", turns, (_line(tuple(float(k) for k in turns)),)))
    assert len(plotted.points["Reds"]) == 121
    words = [w[4] for w in fitz.open(stream=pdf, filetype="pdf")[0].get_text("words")]
    labels = [w for w in words if w.isdigit() and int(w) in turns]
    assert len([w for w in labels if int(w) % 10 == 0]) >= 5 and len(labels) < 40


def test_issue45_lines_that_coincide_are_drawn_side_by_side() -> None:
    """ "In 'Command rolls failed', the Reds' and Ukrainians' lines are hidden under the
    Makhnovists'": where series share a value, each later one is drawn a little above the one
    before, so every line shows; where they differ, each stands at its value."""
    values = (0.0, 0.0, 2.0, 1.0)
    chart = Chart(
        "Command rolls failed",
        "rolls",
        (0, 1, 2, 3),
        (
            Series("Reds", "reds", "#C8102E", values),
            Series("Whites", "whites", "#0072B2", (0.0, 0.0, 1.0, 1.0)),
            Series("Ukrainians", "ukrainians", "#F0E442", (0.0, 3.0, 1.0, 1.0)),
        ),
    )
    (plotted,), _ = _draw(chart)
    ys = {label: [p[3] for p in pts] for label, pts in plotted.points.items()}
    assert ys["Reds"][0] < ys["Whites"][0] < ys["Ukrainians"][0]  # 0, 0, 0: three heights
    assert ys["Reds"][3] < ys["Whites"][3] < ys["Ukrainians"][3]  # 1, 1, 1
    assert ys["Whites"][2] < ys["Reds"][2]  # 1 under 2: at their values
    assert ys["Ukrainians"][1] > ys["Reds"][1]


def test_issue45_a_faction_s_bars_are_its_colour_its_arms_told_by_hatching() -> None:
    """ "Red losses are drawn in the Whites' blue (infantry) and the Ukrainians' yellow
    (cavalry)": a faction's losses by arm are all in its colour, each arm hatched its own way,
    the same arm alike in every faction's chart (`Series.pattern`)."""
    import re

    red = "#C8102E"
    layers = tuple(
        Series(kind, kind, red, (0.0, 1.0, 2.0), pattern=n) for n, kind in enumerate(("cavalry", "infantry"))
    )
    _, pdf = _draw(Chart("Stands lost for good: Reds", "stands", (0, 1, 2), layers, kind="bars"))
    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(pdf)).pages[0].get_contents()
    assert page is not None
    fills = {
        tuple(round(float(v), 2) for v in m.groups())
        for m in re.finditer(rb"([\d.]+) ([\d.]+) ([\d.]+) rg", page.get_data())
    }
    coloured = {f for f in fills if len(set(f)) > 1}  # not white, black or a grey
    assert coloured == {tuple(round(int(red[k : k + 2], 16) / 255, 2) for k in (1, 3, 5))}
