"""The player aids' and forms' look, read from layouts/forms.yaml (no style number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from kitgen.model.base import Colour, Model
from kitgen.render.style import layouts_dir, load_layout

if TYPE_CHECKING:
    from kitgen.model.scenario import Scenario

Length = float


class FormColours(Model):
    ink: Colour
    muted: Colour
    band: Colour
    heading: Colour
    header: Colour
    tint: Colour
    rule: Colour
    prohibited: Colour
    marked: Colour
    paper: Colour


class FormFonts(Model):
    title: float = Field(gt=0)
    band_note: float = Field(gt=0)
    heading: float = Field(gt=0)
    body: float = Field(gt=0)
    table: float = Field(gt=0)
    header: float = Field(gt=0)
    small: float = Field(gt=0)
    field: float = Field(gt=0)
    footer: float = Field(gt=0)
    track: float = Field(gt=0)
    min: float = Field(gt=0)


class FormWidths(Model):
    frame: Length = Field(gt=0)
    rule: Length = Field(gt=0)
    writing: Length = Field(gt=0)
    heavy: Length = Field(gt=0)


class ChartLayout(Model):
    row: Length = Field(gt=0)
    header_row: Length = Field(gt=0)
    leading: Length = Field(gt=0)
    commander_rows: int = Field(ge=1)


class FormLayout(Model):
    order_rows: int = Field(ge=1)
    order_row: Length = Field(gt=0)
    command_rows: int = Field(ge=1)
    battle_unit_rows: int = Field(ge=1)
    form_row: Length = Field(gt=0)
    vp_track_max: int = Field(ge=1)
    path_hexes: int = Field(ge=1)
    track_box_mm: float = Field(gt=0)
    track_columns: int = Field(ge=1)
    turns: int = Field(ge=1)
    turns_per_row: int = Field(ge=1)
    ledger_turns: int = Field(ge=1)
    roll_boxes: int = Field(ge=1)
    box: Length = Field(gt=0)
    """A tick box's side."""
    roll_box: Length = Field(gt=0)
    """A box for a written roll: room for two digits ("10")."""

    @property
    def vp_lap(self) -> int:
        """The VP record track's boxes (0 to its last): a VP marker's back adds as many."""
        return self.vp_track_max + 1


class FormStyle(Model):
    margin_mm: float = Field(ge=0)
    band_mm: float = Field(gt=0)
    footer_mm: float = Field(gt=0)
    gap: Length = Field(ge=0)
    colours: FormColours
    fonts: FormFonts
    widths: FormWidths
    charts: ChartLayout
    forms: FormLayout
    abbreviations: dict[str, str] = {}
    """Stand kind id -> how tables shorten it, where its name's first letters would not read."""


@cache
def form_style(path: Path | None = None) -> FormStyle:
    """The player aids' and forms' style, from layouts/forms.yaml."""
    return load_layout(FormStyle, path or layouts_dir() / "forms.yaml")


def stand_abbreviation(s: Scenario, kind: str) -> str:
    """A stand kind as tables shorten it: layouts/forms.yaml's abbreviation, else from its name
    ('Infantry stand' -> 'inf', 'Machine-gun stand' -> 'MG')."""
    given = form_style().abbreviations.get(kind)
    if given:
        return given
    names = {k.id: k.name for k in s.transport.stands}
    return abbreviation(names.get(kind, kind))


def abbreviation(stand_name: str) -> str:
    """'Infantry stand' -> 'inf', 'Machine-gun stand' -> 'MG': for the strength chart's forces."""
    name = short_stand_name(stand_name)
    if "-" in name:
        return "".join(part[0] for part in name.split("-")).upper()
    return name[:3]


def short_stand_name(stand_name: str) -> str:
    """'Infantry stand' -> 'infantry': the count before it says it is stands."""
    name = stand_name.removesuffix(" stand")
    return name if name[:2].isupper() else name.lower()
