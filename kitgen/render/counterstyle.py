"""The counter sheets' look, read from layouts/counters.yaml (no layout number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

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


@cache
def counter_style(path: Path | None = None) -> CounterStyle:
    """The counter sheets' style, from layouts/counters.yaml."""
    return load_layout(CounterStyle, path or layouts_dir() / "counters.yaml")
