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
    """A rule's heading (A.1, II.A); a clause under it (II.A.1) is set in `clause`."""
    clause: float = Field(gt=0)
    body: float = Field(gt=0)
    table: float = Field(gt=0)
    min_table: float = Field(gt=0)
    """The smallest a table is set before its headings are abbreviated or it is refused."""
    running: float = Field(gt=0)


class BookletColours(Model):
    ink: Colour
    accent: Colour
    rule: Colour
    table_head: Colour
    table_stripe: Colour
    notes: Colour
    """The tint of the designer's notes' box."""


class BookletStyle(Model):
    margin_mm: float = Field(gt=0)
    gutter_mm: float = Field(gt=0)
    """Between the two columns of text."""
    new_page: list[str] = []
    """Parts that begin on a new page (their titles)."""
    one_column: list[str] = []
    """Parts set across the page: their tables are too wide for a column."""
    abbreviations: dict[str, str] = {}
    """A table heading's short form, used where the table is too wide for its column."""
    cover_note: list[str] = []
    credits: list[str] = []
    """Lines of credits at the foot of the cover."""
    half_scale: float = Field(gt=0, le=1)
    """The A5/half-letter booklet's sizes, as a part of the full page's."""
    half_columns: int = Field(1, ge=1, le=2)
    """Columns of the A5/half-letter booklet: one, so that its type keeps the print minimums."""
    fonts: BookletFonts
    colours: BookletColours


@cache
def booklet_style(path: Path | None = None) -> BookletStyle:
    """The booklet style, from layouts/booklet.yaml."""
    return load_layout(BookletStyle, path or LAYOUT)
