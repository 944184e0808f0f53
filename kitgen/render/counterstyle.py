"""The counter sheets' look, read from layouts/counters.yaml (no layout number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from kitgen.model.base import Colour, Model
from kitgen.model.forces import UnitSize
from kitgen.render.style import layouts_dir, load_layout


class CutLine(Model):
    width: float = Field(gt=0)
    colour: Colour
    overhang_mm: float = Field(ge=0)


class SymbolBox(Model):
    width: float = Field(gt=0)
    height: float = Field(gt=0)
    line: float = Field(gt=0)


class CounterLines(Model):
    symbol_centre: float = Field(gt=0)
    size_mark: float = Field(ge=0)
    stands: float = Field(gt=0)
    commander: float = Field(gt=0)
    small: float = Field(ge=0)
    small_lines: int = Field(ge=1)
    """The most lines the small print takes where there is no commander."""
    small_under_commander: bool
    """Whether the small print has a line of its own, under the commander's name on the front and
    under the strength on the back; if not (a small counter), a commander's name takes its line
    and the back has none (the set-up chart and the cards say where a counter comes from)."""


class FlagMarker(Model):
    size: float = Field(gt=0)
    font: float = Field(gt=0)


class CounterFonts(Model):
    name_max: float = Field(gt=0)
    name_min: float = Field(gt=0)
    name_leading: float = Field(ge=1)
    name_lines: int = Field(ge=1)
    figure: float = Field(gt=0)
    figure_min: float = Field(gt=0)
    stands: float = Field(gt=0)
    stands_min: float = Field(gt=0)
    size_mark: float = Field(gt=0)
    commander: float = Field(gt=0)
    commander_min: float = Field(gt=0)
    small: float = Field(gt=0)
    small_min: float = Field(gt=0)
    band: float = Field(gt=0)
    heading: float = Field(gt=0)
    title: float = Field(gt=0)
    key: float = Field(gt=0)


class BackSide(Model):
    lighten: float = Field(ge=0, le=1)
    contrast: float = Field(ge=1, le=21)
    band_centre: float = Field(gt=0)
    band_height: float = Field(gt=0)


class MarkerStyle(Model):
    size_mm: float = Field(gt=0)
    neutral: Colour
    caption: float = Field(gt=0)
    caption_min: float = Field(gt=0)
    glyph: float = Field(gt=0)
    glyph_min: float = Field(gt=0)
    note: float = Field(gt=0)
    mark: float = Field(gt=0)
    control: int = Field(ge=0)
    command_rows: int = Field(ge=0)
    wrecked: int = Field(ge=0)
    depots: int = Field(ge=0)


class CounterStyle(Model):
    counter_mm: float = Field(gt=0)
    gap_mm: float = Field(ge=0)
    margin_mm: float = Field(ge=0)
    title_mm: float = Field(ge=0)
    heading_mm: float = Field(gt=0)
    bleed_mm: float = Field(ge=0)
    """How far the art of the counters on a block's edge runs past its cut (`Layout.bleeds`)."""
    spares: bool
    padding: float = Field(ge=0)
    cut_line: CutLine
    symbol: SymbolBox
    mark: float = Field(gt=0)
    lines: CounterLines
    flag: FlagMarker
    fonts: CounterFonts
    back: BackSide
    abbreviations: dict[str, str]
    stand_labels: dict[str, str]
    size_marks: dict[UnitSize, str]
    """Every formation size of the set-up data -> its mark over the unit-type box."""
    flag_letters: dict[str, str]
    markers: MarkerStyle


Edition = Literal["full", "compact"]
"""The counters' size: full (19 mm, for the true-scale map's 1-inch hexes) or compact
(half-inch, for the 16 mm hexes of the compact map)."""


class Editions(Model):
    full: CounterStyle
    compact: CounterStyle


class CounterEditions(Model):
    editions: Editions


@cache
def _counter_file(path: Path | None = None) -> CounterEditions:
    """layouts/counters.yaml, read once, its `extends:` resolved."""
    return load_layout(CounterEditions, path or layouts_dir() / "counters.yaml", named="editions")


def counter_style(path: Path | None = None, edition: Edition = "full") -> CounterStyle:
    """The counter sheets' style of `edition`, from layouts/counters.yaml."""
    editions = _counter_file(path).editions
    return editions.compact if edition == "compact" else editions.full
