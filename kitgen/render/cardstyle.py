"""The printed cards' look, read from layouts/cards.yaml (no style number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field

from kitgen.model.base import Colour, Model
from kitgen.render.style import layouts_dir, load_layout


class CardGeometry(Model):
    width_mm: float = Field(gt=0)
    height_mm: float = Field(gt=0)
    bleed_mm: float = Field(ge=0)
    gutter_mm: float = Field(ge=0)
    min_margin_mm: float = Field(default=4.0, ge=0)
    """Paper left round the bleeds; where the rows do not fit with it, they butt and share cuts."""
    columns: int = Field(ge=1)
    rows: int = Field(ge=1)
    crop_mark_mm: float = Field(gt=0)
    crop_halo_pt: float = Field(ge=0)
    mark_clearance_mm: float = Field(default=5.0, ge=0)
    """No crop mark nearer the paper's edge than this: inside any desktop printer's printable area."""


class CardFrame(Model):
    border_mm: float = Field(gt=0)
    band_mm: float = Field(gt=0)
    foot_mm: float = Field(gt=0)
    radius_mm: float = Field(ge=0)
    inner_mm: float = Field(ge=0)
    inner_pt: float = Field(gt=0)
    padding_mm: float = Field(ge=0)


class CardFonts(Model):
    label: float = Field(gt=0)
    title: float = Field(gt=0)
    title_min: float = Field(gt=0)
    history: float = Field(gt=0)
    body: float = Field(gt=0)
    body_min: float = Field(gt=0)
    foot: float = Field(gt=0)
    foot_min: float = Field(gt=0)
    card_id: float = Field(gt=0)
    track: float = Field(gt=0)
    name: float = Field(gt=0)
    name_min: float = Field(gt=0)
    rating: float = Field(gt=0)
    back_title: float = Field(gt=0)
    back_sub: float = Field(gt=0)


class CardColours(Model):
    paper: Colour
    ink: Colour
    muted: Colour
    rule: Colour
    events: Colour
    commanders_back: Colour
    light: Colour


class CardStyle(Model):
    card: CardGeometry
    frame: CardFrame
    fonts: CardFonts
    colours: CardColours


@cache
def card_style(path: Path | None = None) -> CardStyle:
    """The card style, from layouts/cards.yaml."""
    return load_layout(CardStyle, path or layouts_dir() / "cards.yaml")
