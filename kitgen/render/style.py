"""The printed map's look, read from layouts/map.yaml (no style number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import Field

from kitgen.model.base import Colour, Model

Length = float


class PosterLayout(Model):
    margin_in: float = Field(ge=0)
    band_in: float = Field(gt=0)
    band_min_in: float = Field(gt=0)
    """The least map width the band is laid out for; under it, the key goes under the map as
    the tiles' key page has it, at full size."""
    key_width_in: float = Field(gt=0)
    """That key's width ..."""
    key_height_in: float = Field(gt=0)
    """... and height."""


class TileLayout(Model):
    margin_mm: float = Field(ge=0)
    overlap_mm: float = Field(gt=0)
    bleed_mm: float = Field(ge=0)
    footer_mm: float = Field(gt=0)
    check_bar_mm: float = Field(gt=0)


class PrintPosterLayout(Model):
    slug_mm: float = Field(gt=0)
    join_bleed_mm: float = Field(ge=0)


class NameStyle(Model):
    size: float = Field(gt=0)
    tracking: float = Field(ge=0)
    """Extra space after each letter, in ems."""
    colour: Colour


class MapName(Model):
    text: str
    hex: str
    kind: str = Field(pattern="^(sea|region)$")


class NorthArrow(Model):
    hex: str
    size_in: float = Field(gt=0)


class TurnTrack(Model):
    turns: int = Field(ge=1)
    per_row: int = Field(ge=1)
    box_over_counter_mm: float = Field(ge=0)


class Furniture(Model):
    sea_name: NameStyle
    region_name: NameStyle
    north_arrow: dict[str, NorthArrow]
    turn_track: TurnTrack
    names: dict[str, list[MapName]]
    """Per scenario id: sea and region names, each set at a hex of the board."""


class MapColours(Model):
    land: Colour
    sea: Colour
    coast: Colour
    river: Colour
    grid: Colour
    hex_id: Colour
    rail: Colour
    road: Colour
    town: Colour
    halo: Colour
    frame: Colour
    terrain: dict[str, Colour]
    symbols: dict[str, Colour]


class MapWidths(Model):
    grid: Length = Field(gt=0)
    coast: Length = Field(gt=0)
    river_course: Length = Field(gt=0)
    major_river: Length = Field(gt=0)
    crossable_river: Length = Field(gt=0)
    rail: Length = Field(gt=0)
    rail_tie: Length = Field(gt=0)
    road: Length = Field(gt=0)
    frame: Length = Field(gt=0)


class MapFonts(Model):
    hex_id: float = Field(gt=0)
    town: float = Field(gt=0)
    rules_name: float = Field(gt=0)
    """The rules' name of a town, under its 1919 name where they differ."""
    place: float = Field(gt=0)
    """A named place (a rail point, a stanitsa) that is not a VP town."""
    vp: float = Field(gt=0)
    ferry: float = Field(gt=0)
    """The units a ferry takes a turn, in its disc."""
    river: float = Field(gt=0)
    supply_edge: float = Field(gt=0)
    """FACTION SUPPLY in a supply edge's band outside the frame."""
    legend: float = Field(gt=0)
    legend_title: float = Field(gt=0)
    title: float = Field(gt=0)
    subtitle: float = Field(gt=0)


class CompactMap(Model):
    """The compact edition's map: the same board with smaller hexes, its key beside it."""

    hex_mm: float = Field(gt=0)
    key_column_mm: float = Field(gt=0)
    margin_mm: float = Field(ge=0)
    posters: dict[str, list[str]]
    """The posters it may print on, for each paper of the kit, smallest first: the first that
    takes the whole sheet is used."""


class MapStyle(Model):
    hex_across_in: float = Field(gt=0)
    edition: Literal["full", "compact"] = "full"
    """Which counters the map is drawn for (layouts/counters.yaml): set by `map_style`, not the file."""
    compact: CompactMap
    poster: PosterLayout
    tiles: TileLayout
    print_poster: PrintPosterLayout
    furniture: Furniture
    colours: MapColours
    widths: MapWidths
    fonts: MapFonts


def layouts_dir() -> Path:
    """The styles and templates of the printed parts (`kitgen.packagedata`)."""
    from kitgen.packagedata import shipped

    return shipped("layouts")


M = TypeVar("M", bound=Model)


def load_layout(model: type[M], path: Path, *, named: str | None = None) -> M:
    """A layouts file read into its model; a bad one is a KitgenError naming its line. With
    `named`, that section is a mapping of layouts, each able to `extends:` another."""
    from kitgen.errors import KitgenError
    from kitgen.render.lengths import resolve_extends
    from kitgen.validation import validate
    from kitgen.yamlsource import load_yaml

    located = load_yaml(path)
    if named:
        resolve_extends(located, named)
    style, found = validate(located, model)
    problems = located.problems + found  # a key given twice is an error even when the rest validates
    if problems or style is None:
        raise KitgenError(problems)
    return style


@cache
def map_style(path: Path | None = None, edition: Literal["full", "compact"] = "full") -> MapStyle:
    """The map style, from layouts/map.yaml: at true scale, or the compact edition's smaller hexes."""
    style = load_layout(MapStyle, path or layouts_dir() / "map.yaml")
    if edition == "compact":
        return style.model_copy(update={"hex_across_in": style.compact.hex_mm / 25.4, "edition": "compact"})
    return style


def load_layout_text(path: Path) -> dict[str, str]:
    """A layouts file of words: every value a text (a Jinja2 template); a bad one is a
    KitgenError naming its line."""
    from pydantic import RootModel

    from kitgen.model.base import Prose

    class Texts(RootModel[dict[str, Prose]]):
        model_config = {"strict": True}

    return load_layout(Texts, path).root  # type: ignore[type-var]
