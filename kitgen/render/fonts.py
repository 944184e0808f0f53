"""The kit's fonts: Bitstream Vera, shipped inside reportlab, registered once and embedded in every PDF."""

from __future__ import annotations

from functools import cache
from pathlib import Path

SANS = "KitSans"
SANS_BOLD = "KitSans-Bold"
SANS_ITALIC = "KitSans-Italic"
SANS_BOLD_ITALIC = "KitSans-BoldItalic"

_FILES = {SANS: "Vera.ttf", SANS_BOLD: "VeraBd.ttf", SANS_ITALIC: "VeraIt.ttf", SANS_BOLD_ITALIC: "VeraBI.ttf"}


@cache
def register_fonts() -> None:
    """Register the TrueType fonts (subset and embedded by reportlab when a PDF uses them)."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name in _FILES:
        pdfmetrics.registerFont(TTFont(name, str(font_file(name))))
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
    addMapping(SANS, 0, 1, SANS_ITALIC)
    addMapping(SANS, 1, 1, SANS_BOLD_ITALIC)


def font_file(font: str = SANS) -> Path:
    """The TrueType file of one of the kit's fonts."""
    import reportlab

    return Path(reportlab.__file__).parent / "fonts" / _FILES[font]


def text_width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    return float(stringWidth(text, font, size))
