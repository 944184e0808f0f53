"""Layouts as data: lengths written with their unit, and layouts that extend one another."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic_core import PydanticCustomError

from kitgen.errors import KitgenError
from kitgen.render.lengths import points
from kitgen.render.packetstyle import PacketStyle
from kitgen.render.style import layouts_dir, load_layout

MM = 72 / 25.4


@pytest.mark.parametrize(
    ("written", "pt"), [("12mm", 12 * MM), ("0.5in", 36.0), ("8pt", 8.0), ("1.5cm", 15 * MM), (7, 7.0), (6.5, 6.5)]
)
def test_a_length_is_converted_once_to_points(written: object, pt: float) -> None:
    assert points(written) == pytest.approx(pt)


@pytest.mark.parametrize("written", ["12", "12 furlongs", "mm", "-3mm", -1, True, None, "12mm 3mm"])
def test_anything_else_is_no_length(written: object) -> None:
    with pytest.raises(PydanticCustomError):
        points(written)


def _layouts(tmp_path: Path, text: str) -> PacketStyle:
    path = tmp_path / "packets.yaml"
    path.write_text(text, encoding="utf-8")
    return load_layout(PacketStyle, path, named="layouts")


BASE = (layouts_dir() / "packets.yaml").read_text(encoding="utf-8")


def test_the_bundled_packet_layouts_extend_the_map_layout() -> None:
    """Every packet map layout extends `map` and takes what it does not give."""
    style = load_layout(PacketStyle, layouts_dir() / "packets.yaml", named="layouts")
    assert style.layouts.sector.frame == style.layouts.map.frame
    assert style.layouts.overview.edge == style.layouts.map.edge
    assert style.layouts.sector.counter == pytest.approx(16 * MM)


def test_a_layout_extends_another_and_adjusts_a_length(tmp_path: Path) -> None:
    """`+= 2mm` moves the inherited length; a key given anew replaces it."""
    text = BASE.replace("    counter: 16mm ", "    counter: 16mm\n    edge: += 2mm\n    frame: 2pt   #", 1)
    style = _layouts(tmp_path, text).layouts
    assert style.sector.edge == pytest.approx(style.map.edge + 2 * MM)
    assert style.sector.frame == 2.0 and style.overview.frame == style.map.frame


def test_an_unknown_parent_is_an_error_at_its_line(tmp_path: Path) -> None:
    text = BASE.replace("extends: map\n    margin", "extends: page\n    margin", 1)
    with pytest.raises(KitgenError) as caught:
        _layouts(tmp_path, text)
    (problem,) = [p for p in caught.value.problems if p.code == "layout.extends_unknown"]
    line = text.splitlines().index("    extends: page") + 1
    assert (problem.line, "'page'" in problem.message) == (line, True)


def test_layouts_that_extend_each_other_in_a_loop_are_an_error(tmp_path: Path) -> None:
    text = BASE.replace("  map:                      # what every map page shares", "  map:\n    extends: sector", 1)
    with pytest.raises(KitgenError) as caught:
        _layouts(tmp_path, text)
    assert any(p.code == "layout.extends_loop" and "map -> sector -> map" in p.message for p in caught.value.problems)


def test_a_bad_inherited_value_is_reported_where_it_is_written(tmp_path: Path) -> None:
    """The sector takes `frame` from `map`: a bad frame there is reported at map's line."""
    text = BASE.replace("    frame: 0.9pt", "    frame: thick", 1)
    with pytest.raises(KitgenError) as caught:
        _layouts(tmp_path, text)
    line = next(i for i, t in enumerate(text.splitlines(), start=1) if t.startswith("    frame: thick"))
    assert caught.value.problems and all(p.line == line for p in caught.value.problems)
