"""The turn packets' maps, read from layouts/packets.yaml (no style number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field, model_validator

from kitgen import messages as msg
from kitgen.model.base import Colour, Model, invalid
from kitgen.render.formstyle import FormStyle
from kitgen.render.lengths import Length
from kitgen.render.style import layouts_dir, load_layout


class MapPage(Model):
    frame: Length
    tint: float = Field(ge=0, le=1)
    tint_lightness: float = Field(ge=0, le=1)
    edge: Length
    rail: Length
    cut: Length
    hatch: Length


class SectorPage(MapPage):
    """A sector page: one map tile of the kit at the tiles' scale, a column beside it, and the
    units drawn as counters inside their hexes."""

    margin: Length
    band_gap: Length
    side: Length
    side_gap: Length
    list_font: Length
    list_row: Length
    counter: Length
    pair: Length
    """Two units in a hex: each counter's size, one over the other."""
    peek: Length
    """Two units in a hex: the band of the one under the other left showing above it, its name."""
    counter_drop: Length
    name_font: Length
    name_min: Length
    figure_font: Length
    words_font: Length
    badge_font: Length
    reach_bands: list[int] = Field(min_length=1)
    """The most MP of each band of the reach tint but the last, rising: [1, 2, 4] gives 1 MP,
    2 MP, 3-4 MP and 5 or more."""
    reach_alpha: list[float] = Field(min_length=2)
    """The tint's opacity in each band, the cheapest first: one more than `reach_bands`."""
    rail_ring: Length
    """The ring marking a hex a stack reaches only by train."""
    reach_colour: Colour
    """The reach tint's colour, the same for every faction: a faction's own (the Whites' blue)
    may be the water's."""

    @model_validator(mode="after")
    def _a_tint_a_band(self) -> SectorPage:
        if len(self.reach_alpha) != len(self.reach_bands) + 1 or self.reach_bands != sorted(set(self.reach_bands)):
            raise invalid(msg.value_reach_bands(len(self.reach_bands), len(self.reach_alpha), list(self.reach_bands)))
        return self


class OverviewPage(MapPage):
    notes: Length
    marker: Length
    marker_font: Length
    sector_font: Length
    town_font: Length
    side: Length
    side_gap: Length


class PacketLayouts(Model):
    map: MapPage
    sector: SectorPage
    overview: OverviewPage


class PacketType(Model):
    """The packets' type sizes where they differ from the forms' (layouts/forms.yaml): a player
    reads his packet at the club table, so nothing on it is set under 7 pt."""

    table: float = Field(ge=7)
    header: float = Field(ge=7)
    small: float = Field(ge=7)
    footer: float = Field(ge=7)
    min: float = Field(ge=7)


class ReportType(Model):
    """The situation report's and the roster's type (layouts/packets.yaml `report:`): its words
    at 9 pt and more, as a published game's, its tables at 8 pt and more."""

    heading: float = Field(ge=9)
    body: float = Field(ge=9)
    table: float = Field(ge=8)
    header: float = Field(ge=8)
    small: float = Field(ge=8)
    min: float = Field(ge=8)
    row: Length
    header_row: Length
    leading: Length


class PacketStyle(Model):
    layouts: PacketLayouts
    type: PacketType
    report: ReportType


@cache
def _packet_file(path: Path | None = None) -> PacketStyle:
    """layouts/packets.yaml, read once, its `extends:` resolved."""
    return load_layout(PacketStyle, path or layouts_dir() / "packets.yaml", named="layouts")


def packet_style(path: Path | None = None) -> PacketLayouts:
    """The packets' map layouts."""
    return _packet_file(path).layouts


@cache
def packet_form_style(path: Path | None = None) -> FormStyle:
    """The forms' style (layouts/forms.yaml) with the packets' type sizes (layouts/packets.yaml)."""
    from kitgen.render.formstyle import form_style

    base = form_style()
    sizes = _packet_file(path).type
    return base.model_copy(update={"fonts": base.fonts.model_copy(update=sizes.model_dump())})


@cache
def packet_report_style(path: Path | None = None) -> FormStyle:
    """The packets' style with the situation report's type and rows (layouts/packets.yaml `report:`)."""
    base = packet_form_style(path)
    r = _packet_file(path).report
    fonts = base.fonts.model_copy(update=r.model_dump(include={"heading", "body", "table", "header", "small", "min"}))
    charts = base.charts.model_copy(update={"row": r.row, "header_row": r.header_row, "leading": r.leading})
    return base.model_copy(update={"fonts": fonts, "charts": charts})
