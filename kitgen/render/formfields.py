"""A PDF's form fields set in the kit's own embedded font, and drawn without any other.

reportlab's AcroForm knows only the PDF's standard fonts, which no file embeds: a field's text
would be set in whatever Helvetica the viewer has, and its check boxes drawn with ZapfDingbats.
So once a part is made its fields are put right with pypdf: the whole sans face the pages use
(not a subset: a player may type any letter the WinAnsi encoding holds, the Latin alphabets'; Cyrillic
would need a composite font) as the form's one font, each text field's typing
set in it, and each field's look drawn as it stands empty with no font at all: a check box's
cross as two strokes. Nothing then refers to the standard fonts.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kitgen.render.mapembed import Increment

FONT = "/KgSans"
"""The form's font as its fields' default appearance names it."""
_SIZE = re.compile(rb"([\d.]+)\s+Tf")


def embed_field_font(inc: Increment) -> None:
    """The form of the PDF `inc` updates, its fields set in the embedded sans face and drawn
    without fonts; a PDF with no form is left as it is. (The standard fonts' objects stay in the
    file's first part, referred to by nothing.)"""
    from pypdf.generic import BooleanObject, DictionaryObject, IndirectObject, NameObject, TextStringObject

    root_ref = inc.reader.trailer.raw_get("/Root")
    root: Any = root_ref.get_object()
    if "/AcroForm" not in root:
        return
    font = inc.add(_font(inc))
    form_ref = root.raw_get("/AcroForm")
    form: Any = form_ref.get_object()
    form[NameObject("/DR")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject(FONT): font})})
    form[NameObject("/DA")] = TextStringObject(f"{FONT} 0 Tf 0 g")
    form[NameObject("/NeedAppearances")] = BooleanObject(False)
    inc.put(
        form_ref if isinstance(form_ref, IndirectObject) else root_ref,
        form if isinstance(form_ref, IndirectObject) else root,
    )
    for page in inc.reader.pages:
        for ref in page.get("/Annots", ()):
            widget = ref.get_object()
            if widget.get("/Subtype") != "/Widget":
                continue
            kind = widget.get("/FT") or widget.get("/Parent", DictionaryObject()).get_object().get("/FT")
            if kind == "/Btn":
                _check_box(inc, widget)
            elif kind == "/Tx":
                _text_field(inc, widget)
            else:
                continue
            inc.put(ref, widget)


def _rect(widget: Any) -> tuple[float, float]:
    x0, y0, x1, y1 = (float(v) for v in widget["/Rect"])
    return abs(x1 - x0), abs(y1 - y0)


def _stream(inc: Increment, size: tuple[float, float], content: bytes) -> Any:
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    stream = DecodedStreamObject()
    stream.set_data(content)
    stream.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(
                [FloatObject(0), FloatObject(0), FloatObject(size[0]), FloatObject(size[1])]
            ),
            NameObject("/Resources"): DictionaryObject(),
        }
    )
    return inc.add(stream)


def _text_field(inc: Increment, widget: Any) -> None:
    """Typing in the embedded face at the size the field was made with; empty, it draws nothing."""
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    found = _SIZE.search(str(widget.get("/DA", "")).encode())
    size = float(found.group(1)) if found else 0.0
    widget[NameObject("/DA")] = TextStringObject(f"{FONT} {size:g} Tf 0 g")
    empty = _stream(inc, _rect(widget), b"/Tx BMC EMC\n")
    widget[NameObject("/AP")] = DictionaryObject({NameObject("/N"): empty})


def _check_box(inc: Increment, widget: Any) -> None:
    """Ticked, a cross drawn as two strokes inside its border; not, nothing (the page draws the box)."""
    from pypdf.generic import DictionaryObject, NameObject, TextStringObject

    w, h = _rect(widget)
    inset, width = min(w, h) * 0.22, min(w, h) * 0.12
    cross = (
        f"q 0 g 0 G {width:.2f} w 1 J {inset:.2f} {inset:.2f} m {w - inset:.2f} {h - inset:.2f} l "
        f"{inset:.2f} {h - inset:.2f} m {w - inset:.2f} {inset:.2f} l S Q\n"
    ).encode()
    states = DictionaryObject(
        {NameObject("/Yes"): _stream(inc, (w, h), cross), NameObject("/Off"): _stream(inc, (w, h), b"")}
    )
    widget[NameObject("/AP")] = DictionaryObject({NameObject("/N"): states})
    widget[NameObject("/DA")] = TextStringObject(f"{FONT} 0 Tf 0 g")
    mk = widget.get("/MK")
    if mk is not None and "/CA" in mk:
        del mk.get_object()["/CA"]  # the ZapfDingbats character it would draw


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
