"""A PDF's form fields, in the kit's own embedded font and drawn without any other.

A page records each field where it draws its box (`text_field`, `check_box`); once the part is
made, the fields are written into it as an incremental update (`add_fields`): the whole sans
face the pages use (not a subset: a player may type any letter the WinAnsi encoding holds, the
Latin alphabets'; Cyrillic would need a composite font) as the form's one font, each text
field's typing set in it, and each field's look drawn as it stands empty with no font at all: a
check box's cross as two strokes. reportlab's own fields would name the standard fonts, which no
file embeds (Helvetica for typing, ZapfDingbats for a tick).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.mapembed import Increment

FONT = "/KgSans"
"""The form's font as its fields' default appearance names it."""
PRINT, HIDDEN = 4, 2
"""Annotation flags: printed; hidden."""
READ_ONLY, DO_NOT_SPELL_CHECK, DO_NOT_SCROLL, COMB = 1, 1 << 22, 1 << 23, 1 << 24
"""Field flags (ISO 32000-1, tables 221 and 228)."""


@dataclass(frozen=True)
class Field:
    """One field of a page: a text field or a check box, where its box is drawn."""

    page: int
    """From 1."""
    name: str
    kind: Literal["text", "check"]
    rect: tuple[float, float, float, float]
    """x0, y0, x1, y1 in page points."""
    size: float = 0.0
    """The typing's type size (0: fitted by the viewer)."""
    maxlen: int = 0
    comb: bool = False
    """Its characters spread evenly across it, one a cell (a box a hex id's digits)."""
    value: str = ""
    tip: str = ""
    hidden: bool = False
    """Hidden and read-only: what the form says of itself, for the import to check."""


def fields_on(c: Canvas) -> list[Field]:
    """The fields the pages of `c` recorded, in order."""
    found: list[Field] = c.__dict__.setdefault("_kitgen_fields", [])
    return found


def text_field(
    c: Canvas,
    name: str,
    box: tuple[float, float, float, float],
    *,
    size: float,
    maxlen: int,
    comb: bool = False,
    tip: str = "",
    value: str = "",
    hidden: bool = False,
) -> None:
    """A text field over the box (x, y, w, h) this page draws."""
    x, y, w, h = box
    fields_on(c).append(
        Field(c.getPageNumber(), name, "text", (x, y, x + w, y + h), size, maxlen, comb, value, tip, hidden)
    )


def check_box(c: Canvas, name: str, box: tuple[float, float, float], tip: str = "") -> None:
    """A check box over the square (x, y, size) this page draws."""
    x, y, size = box
    fields_on(c).append(Field(c.getPageNumber(), name, "check", (x, y, x + size, y + size), tip=tip))


def add_fields(inc: Increment, fields: tuple[Field, ...] | list[Field]) -> None:
    """The fields written into the PDF `inc` updates: each a widget on its page, all in the
    form's fields, typed in the embedded sans face."""
    from pypdf.generic import (
        ArrayObject,
        BooleanObject,
        DictionaryObject,
        FloatObject,
        NameObject,
        NumberObject,
        TextStringObject,
    )

    if not fields:
        return
    font = inc.add(_font(inc))
    refs = []
    by_page: dict[int, list[Any]] = {}
    for f in fields:
        page = inc.reader.pages[f.page - 1]
        w, h = f.rect[2] - f.rect[0], f.rect[3] - f.rect[1]
        widget = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/Widget"),
                NameObject("/T"): TextStringObject(f.name),
                NameObject("/Rect"): ArrayObject(FloatObject(round(v, 3)) for v in f.rect),
                NameObject("/F"): NumberObject(HIDDEN if f.hidden else PRINT),
                NameObject("/P"): page.indirect_reference,
                NameObject("/MK"): DictionaryObject(),
            }
        )
        if f.tip:
            widget[NameObject("/TU")] = TextStringObject(f.tip)
        if f.kind == "check":
            inset, width = min(w, h) * 0.22, min(w, h) * 0.12
            cross = (
                f"q 0 g 0 G {width:.2f} w 1 J {inset:.2f} {inset:.2f} m {w - inset:.2f} {h - inset:.2f} l "
                f"{inset:.2f} {h - inset:.2f} m {w - inset:.2f} {inset:.2f} l S Q\n"
            ).encode()
            states = {NameObject("/Yes"): _stream(inc, (w, h), cross), NameObject("/Off"): _stream(inc, (w, h), b"")}
            widget.update(
                {
                    NameObject("/FT"): NameObject("/Btn"),
                    NameObject("/V"): NameObject("/Off"),
                    NameObject("/AS"): NameObject("/Off"),
                    NameObject("/DA"): TextStringObject(f"{FONT} 0 Tf 0 g"),
                    NameObject("/AP"): DictionaryObject({NameObject("/N"): DictionaryObject(states)}),
                }
            )
        else:
            flags = DO_NOT_SPELL_CHECK | (COMB | DO_NOT_SCROLL if f.comb else 0) | (READ_ONLY if f.hidden else 0)
            widget.update(
                {
                    NameObject("/FT"): NameObject("/Tx"),
                    NameObject("/V"): TextStringObject(f.value),
                    NameObject("/DA"): TextStringObject(f"{FONT} {f.size:g} Tf 0 g"),
                    NameObject("/Ff"): NumberObject(flags),
                    NameObject("/AP"): DictionaryObject({NameObject("/N"): _stream(inc, (w, h), b"/Tx BMC EMC\n")}),
                }
            )
            if f.maxlen:
                widget[NameObject("/MaxLen")] = NumberObject(f.maxlen)
        ref = inc.add(widget)
        refs.append(ref)
        by_page.setdefault(f.page, []).append(ref)
    for number, annots in by_page.items():
        page = inc.reader.pages[number - 1]
        old = page.get("/Annots")
        page[NameObject("/Annots")] = ArrayObject([*(old or []), *annots])
        inc.put(page.indirect_reference, page)
    form = DictionaryObject(
        {
            NameObject("/Fields"): ArrayObject(refs),
            NameObject("/DR"): DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject(FONT): font})}),
            NameObject("/DA"): TextStringObject(f"{FONT} 0 Tf 0 g"),
            NameObject("/NeedAppearances"): BooleanObject(False),
        }
    )
    root_ref = inc.reader.trailer.raw_get("/Root")
    root = root_ref.get_object()
    root[NameObject("/AcroForm")] = inc.add(form)
    inc.put(root_ref, root)


def _stream(inc: Increment, size: tuple[float, float], content: bytes) -> Any:
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    stream = DecodedStreamObject()
    stream.set_data(content)
    stream.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(
                [FloatObject(0), FloatObject(0), FloatObject(round(size[0], 3)), FloatObject(round(size[1], 3))]
            ),
            NameObject("/Resources"): DictionaryObject(),
        }
    )
    return inc.add(stream)


@cache
def _face() -> tuple[bytes, dict[str, Any]]:
    """The sans face's file and what its font dictionaries say of it (per 1000 units of type)."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    from kitgen.render.fonts import font_file

    path = font_file()
    data = path.read_bytes()
    face = TTFontFile(str(path))
    widths = []
    for code in range(32, 256):
        try:
            char = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            widths.append(0)
            continue
        widths.append(round(face.charWidths.get(ord(char), face.defaultWidth)))
    facts = {
        "name": face.name.decode() if isinstance(face.name, bytes) else str(face.name),
        "bbox": [round(v) for v in face.bbox],
        "ascent": round(face.ascent),
        "descent": round(face.descent),
        "cap": round(face.capHeight),
        "stem": round(face.stemV),
        "italic": round(face.italicAngle),
        "flags": 32,  # nonsymbolic: its glyphs are named by the WinAnsi encoding
        "widths": widths,
    }
    return data, facts


def _font(inc: Increment) -> Any:
    """The whole face as a simple TrueType font in WinAnsi encoding, its file embedded."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject

    data, facts = _face()
    file = DecodedStreamObject()
    file.set_data(data)
    file[NameObject("/Length1")] = NumberObject(len(data))
    name = NameObject("/" + facts["name"])
    descriptor = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/FontDescriptor"),
            NameObject("/FontName"): name,
            NameObject("/Flags"): NumberObject(facts["flags"]),
            NameObject("/FontBBox"): ArrayObject(NumberObject(v) for v in facts["bbox"]),
            NameObject("/ItalicAngle"): NumberObject(facts["italic"]),
            NameObject("/Ascent"): NumberObject(facts["ascent"]),
            NameObject("/Descent"): NumberObject(facts["descent"]),
            NameObject("/CapHeight"): NumberObject(facts["cap"]),
            NameObject("/StemV"): NumberObject(facts["stem"]),
            NameObject("/FontFile2"): inc.add(file),
        }
    )
    return DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/TrueType"),
            NameObject("/BaseFont"): name,
            NameObject("/FirstChar"): NumberObject(32),
            NameObject("/LastChar"): NumberObject(255),
            NameObject("/Widths"): ArrayObject(NumberObject(w) for w in facts["widths"]),
            NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            NameObject("/FontDescriptor"): inc.add(descriptor),
        }
    )
