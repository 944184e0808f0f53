"""The rules booklet's look, read from layouts/booklet.yaml (no style number lives in code)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import Field

from kitgen.model.base import Colour, Model
from kitgen.render.style import layouts_dir, load_layout

LAYOUT = layouts_dir() / "booklet.yaml"


class BookletFonts(Model):
    title: float = Field(gt=0)
    part: float = Field(gt=0)
    rule: float = Field(gt=0)
    body: float = Field(gt=0)
    table: float = Field(gt=0)
    running: float = Field(gt=0)


class BookletColours(Model):
    ink: Colour
    accent: Colour
    rule: Colour
    table_head: Colour
    table_stripe: Colour


class BookletStyle(Model):
    margin_mm: float = Field(gt=0)
    cover_note: list[str] = []
    credits: list[str] = []
    """Lines of credits at the foot of the cover."""
    half_scale: float = Field(gt=0, le=1)
    fonts: BookletFonts
    colours: BookletColours


@cache
def booklet_style(path: Path | None = None) -> BookletStyle:
    """The booklet style, from layouts/booklet.yaml."""
    return load_layout(BookletStyle, path or LAYOUT)
