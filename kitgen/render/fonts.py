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
    import reportlab
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = Path(reportlab.__file__).parent / "fonts"
    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(folder / file)))
    addMapping(SANS, 0, 0, SANS)
    addMapping(SANS, 1, 0, SANS_BOLD)
    addMapping(SANS, 0, 1, SANS_ITALIC)
    addMapping(SANS, 1, 1, SANS_BOLD_ITALIC)


def text_width(text: str, font: str, size: float) -> float:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    register_fonts()
    return float(stringWidth(text, font, size))
