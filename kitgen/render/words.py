"""The map's words apart from its art, so that a page showing part of the map carries only the
words it shows.

A tile lays the whole map down as one form through its window. Were the words in that form,
every tile would carry every word of the map, clipped out of sight but still found by a search,
a copy or a screen reader. So the map is drawn once through `WordRecorder`, which passes every
call but those that set text on to the form's canvas and keeps each word with its box and the
state it is set in; a tile then sets the words whose box meets its window, the poster all of them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from reportlab.pdfgen.canvas import Canvas

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in the map's points."""
Matrix = tuple[float, float, float, float, float, float]
RGB = tuple[float, float, float]

ASCENT, DESCENT = 0.95, 0.25
"""A line's reach above and below its baseline, in ems: a little more than any glyph's."""


@dataclass(frozen=True)
class Word:
    """One text-setting call of the map's drawing: where its glyphs fall and how to set it again."""

    box: Box
    ctm: Matrix
    fill: RGB
    stroke: RGB
    line: tuple[float, int, int]
    """Line width, join and cap (a halo's stroke)."""
    font: tuple[str, float]
    call: str
    """The canvas's method (drawString, drawCentredString, drawRightString), or "text": a text
    object built by `args`' calls."""
    args: tuple[Any, ...]

    def draw(self, c: Canvas) -> None:
        """Set on `c`, whose origin is the map's frame corner, as it was drawn."""
        c.saveState()
        c.transform(*self.ctm)
        c.setFillColorRGB(*self.fill)
        c.setStrokeColorRGB(*self.stroke)
        width, join, cap = self.line
        c.setLineWidth(width)
        c.setLineJoin(join)
        c.setLineCap(cap)
        c.setFont(*self.font)
        if self.call == "text":
            t = c.beginText()
            for name, args in self.args:
                if name == "_code":
                    t._code.append(args[0])  # type: ignore[attr-defined]  # reportlab's text object: one operator a line
                else:
                    getattr(t, name)(*args)
            c.drawText(t)
        else:
            getattr(c, self.call)(*self.args)
        c.restoreState()


def draw_words(c: Canvas, words: Iterable[Word], window: Box) -> None:
    """The words whose glyphs meet `window` (in the map's points, as `c`'s origin is the frame's corner)."""
    from kitgen.render.labels import meets

    for word in words:
        if meets(word.box, window):
            word.draw(c)


class WordRecorder:
    """A canvas that draws everything but text on `c` (a scratch canvas, thrown away, unless
    given) and keeps every text-setting call as a `Word`, with the transform (from where it
    stood when the recorder was made) and state of `c` at the time."""

    def __init__(self, c: Canvas | None = None) -> None:
        from reportlab.pdfgen.canvas import Canvas

        self._c = c if c is not None else Canvas(io.BytesIO(), invariant=1)
        self._from = _inverse(cast("Matrix", tuple(self._c._currentMatrix)))  # type: ignore[attr-defined]
        self.words: list[Word] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._c, name)

    def drawString(self, x: float, y: float, text: str) -> None:
        self._plain("drawString", x, y, text, 0.0)

    def drawCentredString(self, x: float, y: float, text: str) -> None:
        self._plain("drawCentredString", x, y, text, 0.5)

    def drawRightString(self, x: float, y: float, text: str) -> None:
        self._plain("drawRightString", x, y, text, 1.0)

    def beginText(self, x: float = 0.0, y: float = 0.0) -> _RecordedText:
        return _RecordedText(x, y)

    def drawText(self, t: _RecordedText) -> None:
        if t.boxes:
            self._keep("text", tuple(t.calls), t.boxes)

    def _plain(self, call: str, x: float, y: float, text: str, anchor: float) -> None:
        from kitgen.render.fonts import text_width

        c = self._c
        size: float = c._fontsize  # type: ignore[attr-defined]
        width = text_width(text, c._fontname, size)  # type: ignore[attr-defined]
        left = x - anchor * width
        self._keep(call, (x, y, text), [(left, y - DESCENT * size, left + width, y + ASCENT * size)])

    def _keep(self, call: str, args: tuple[Any, ...], boxes: list[Box]) -> None:
        c = self._c
        ctm = _then(cast("Matrix", tuple(c._currentMatrix)), self._from)  # type: ignore[attr-defined]
        corners = [_apply(ctm, x, y) for b in boxes for x in (b[0], b[2]) for y in (b[1], b[3])]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        self.words.append(
            Word(
                (min(xs), min(ys), max(xs), max(ys)),
                ctm,
                _rgb(c._fillColorObj),  # type: ignore[attr-defined]
                _rgb(c._strokeColorObj),  # type: ignore[attr-defined]
                (float(c._lineWidth), int(c._lineJoin), int(c._lineCap)),  # type: ignore[attr-defined]
                (str(c._fontname), float(c._fontsize)),  # type: ignore[attr-defined]
                call,
                args,
            )
        )


class _RecordedText:
    """A text object's calls, kept to be made again on another canvas, and the boxes of the
    runs it sets."""

    def __init__(self, x: float, y: float) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.boxes: list[Box] = []
        self._code = _Calls(self.calls)
        self._at = (x, y)
        self._font = ("", 0.0)
        self._space = 0.0
        if (x, y) != (0.0, 0.0):
            self.calls.append(("setTextOrigin", (x, y)))

    def setFont(self, name: str, size: float, leading: float | None = None) -> None:
        self._font = (name, size)
        self.calls.append(("setFont", (name, size) if leading is None else (name, size, leading)))

    def setCharSpace(self, space: float) -> None:
        self._space = space
        self.calls.append(("setCharSpace", (space,)))

    def setTextOrigin(self, x: float, y: float) -> None:
        self._at = (x, y)
        self.calls.append(("setTextOrigin", (x, y)))

    def textOut(self, text: str) -> None:
        from kitgen.render.fonts import text_width

        name, size = self._font
        x, y = self._at
        width = text_width(text, name, size) + self._space * len(text)
        self.boxes.append((x, y - DESCENT * size, x + width, y + ASCENT * size))
        self._at = (x + width, y)
        self.calls.append(("textOut", (text,)))

    def textLine(self, text: str = "") -> None:
        raise NotImplementedError("a map's word set by textLine: set it with textOut")  # its box is not known

    textLines = textLine

    def __getattr__(self, name: str) -> Callable[..., None]:
        """Any other call (a render mode, a colour): kept as it is."""

        def kept(*args: Any) -> None:
            self.calls.append((name, args))

        return kept


class _Calls:
    """A text object's own list of operators, which kitgen appends to (a halo's marked content):
    each line kept as a call."""

    def __init__(self, calls: list[tuple[str, tuple[Any, ...]]]) -> None:
        self._calls = calls

    def append(self, line: str) -> None:
        self._calls.append(("_code", (line,)))


def record_words(paint: Callable[[Canvas], None], art: Canvas | None = None) -> tuple[Word, ...]:
    """The words `paint` sets, each with its box in the points `paint` draws in; the rest of
    its drawing goes onto `art`, where given."""
    recorder = WordRecorder(art)
    paint(cast("Canvas", recorder))
    return tuple(recorder.words)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _then(m: Matrix, n: Matrix) -> Matrix:
    """`m` followed by `n` (PDF's row-vector order: a point goes through m, then n)."""
    a, b, c, d, e, f = m
    p, q, r, s, t, u = n
    return (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s, e * p + f * r + t, e * q + f * s + u)


def _inverse(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(e * ia + f * ic), -(e * ib + f * id_))


def _rgb(colour: Any) -> RGB:
    rgb = colour.rgb() if hasattr(colour, "rgb") else colour
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]))
