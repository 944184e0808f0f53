"""A picture's pages and their sizes read from its header, before any page is decoded: a PNG's
IHDR, a JPEG's frame header, each page's directory (IFD) of a TIFF, classic or BigTIFF. What its
decoder would hold beside the page is read too: a TIFF's strip or tile, a progressive JPEG's
coefficients. Nothing here decodes a pixel, and the work is bounded by the pages asked for."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

PNG = b"\x89PNG\r\n\x1a\n"
JPEG = b"\xff\xd8\xff"
TIFFS = (b"II*\x00", b"MM\x00*", b"II+\x00", b"MM\x00+")
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
"""A JPEG's frame headers (SOF0 to SOF15; C4, C8 and CC are other markers)."""
_PROGRESSIVE = frozenset({0xC2, 0xC6, 0xCA, 0xCE})
_MOST_SEGMENTS = 4096
"""Segments of a JPEG before its frame header: a camera writes a dozen, an ICC profile a few hundred."""
_MOST_ENTRIES = 65535
"""Entries of one TIFF directory: a classic TIFF cannot hold more, a page has about 20."""
_WIDTH, _HEIGHT, _BITS, _ROWS, _TILE_WIDTH, _TILE_HEIGHT = 256, 257, 258, 278, 322, 323
_SIZES = {1: 1, 3: 2, 4: 4, 13: 4, 16: 8, 18: 8}
"""The bytes of a TIFF value of each type that can hold a count: BYTE, SHORT, LONG, IFD, LONG8, IFD8."""


class Damaged(Exception):
    """A header cut short or out of shape; its text says how, in words for a message."""


@dataclass(frozen=True)
class PageHeader:
    width: int
    height: int
    buffer: int = 0
    """Bytes its decoder holds beside the page (a TIFF's strip or tile, a progressive JPEG's coefficients)."""
    stored: str = ""
    """How the page is stored, where that is what its decoder's memory depends on."""

    @property
    def pixels(self) -> int:
        return self.width * self.height


@dataclass(frozen=True)
class PictureHeader:
    kind: str
    """'PNG', 'JPEG' or 'TIFF'."""
    pages: tuple[PageHeader, ...]
    more: bool = False
    """More pages follow than were read (a TIFF of more than the pages asked for)."""


def read_header(data: bytes, most_pages: int) -> PictureHeader | None:
    """The pages of the picture `data`, at most `most_pages` of them (`more` says if there are
    others); None for a file that is no PNG, JPEG or TIFF, `Damaged` for one whose header is."""
    if data.startswith(PNG):
        return _png(data)
    if data.startswith(JPEG):
        return _jpeg(data)
    if data[:4] in TIFFS:
        return _tiff(data, most_pages)
    return None


def _png(data: bytes) -> PictureHeader:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise Damaged("a PNG without its header (IHDR)")
    width, height = struct.unpack(">II", data[16:24])
    if not width or not height:
        raise Damaged(f"a PNG of {width} x {height} pixels")
    return PictureHeader("PNG", (PageHeader(width, height),))


def _jpeg(data: bytes) -> PictureHeader:
    at = 2
    for _ in range(_MOST_SEGMENTS):
        while data[at : at + 2] == b"\xff\xff":  # fill bytes before a marker
            at += 1
        if len(data) < at + 4 or data[at] != 0xFF or data[at + 1] == 0xD9:
            raise Damaged("a JPEG cut short before its frame header")
        marker = data[at + 1]
        if 0xD0 <= marker <= 0xD8 or marker == 0x01:  # markers that stand alone
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        if marker in _SOF:
            return PictureHeader("JPEG", (_frame(data[at + 4 : at + 2 + length], marker),))
        at += 2 + length
    raise Damaged(f"a JPEG of more than {_MOST_SEGMENTS:,} segments before its frame header")


def _frame(body: bytes, marker: int) -> PageHeader:
    """A JPEG's frame header: its size, and its coefficients' bytes if it is progressive (libjpeg
    holds them all, 2 bytes a sample, for every component)."""
    if len(body) < 6:
        raise Damaged("a JPEG whose frame header is cut short")
    height, width, count = struct.unpack(">HHB", body[1:6])
    if not width or not height:
        raise Damaged(f"a JPEG of {width} x {height} pixels (a height given after the frame, which no decoder reads)")
    if marker not in _PROGRESSIVE:
        return PageHeader(width, height)
    factors = [(b >> 4, b & 15) for b in body[7 : 6 + 3 * count : 3]]
    if not factors or len(factors) != count or not all(h and v for h, v in factors):
        raise Damaged("a JPEG whose frame header is out of shape")
    most_h, most_v = max(h for h, _ in factors), max(v for _, v in factors)
    samples = sum(math.ceil(width * h / most_h) * math.ceil(height * v / most_v) for h, v in factors)
    return PageHeader(width, height, 2 * samples, "saved as a progressive JPEG")


def _tiff(data: bytes, most_pages: int) -> PictureHeader:
    """Each directory's page, following the chain from the first (a loop ends it, as in libtiff)."""
    order = "<" if data[:2] == b"II" else ">"
    big = data[2:4] in (b"+\x00", b"\x00+")
    if big:
        if len(data) < 16 or struct.unpack(order + "H", data[4:6])[0] != 8:
            raise Damaged("a BigTIFF cut short or out of shape")
        (at,) = struct.unpack(order + "Q", data[8:16])
    else:
        if len(data) < 8:
            raise Damaged("a TIFF cut short")
        (at,) = struct.unpack(order + "I", data[4:8])
    pages: list[PageHeader] = []
    seen: set[int] = set()
    while at and at not in seen:
        if len(pages) == most_pages:
            return PictureHeader("TIFF", tuple(pages), more=True)
        seen.add(at)
        page, at = _directory(data, at, order, big, len(pages) + 1)
        pages.append(page)
    if not pages:
        raise Damaged("a TIFF with no page")
    return PictureHeader("TIFF", tuple(pages))


def _directory(data: bytes, at: int, order: str, big: bool, number: int) -> tuple[PageHeader, int]:
    """One page's directory: its page and where the next directory is (0 for none)."""
    import numpy as np

    count_size, value_size = (8, 8) if big else (2, 4)
    if at + count_size > len(data):
        raise Damaged(f"a TIFF whose page {number} lies past its end")
    (count,) = struct.unpack(order + ("Q" if big else "H"), data[at : at + count_size])
    entry = np.dtype(
        [
            ("tag", order + "u2"),
            ("type", order + "u2"),
            ("count", order + ("u8" if big else "u4")),
            ("value", f"V{value_size}"),
        ]
    )
    end = at + count_size + count * entry.itemsize
    if count > _MOST_ENTRIES or end + value_size > len(data):
        raise Damaged(f"a TIFF whose page {number} is cut short or out of shape")
    entries = np.frombuffer(data, dtype=entry, count=count, offset=at + count_size)
    (following,) = struct.unpack(order + ("Q" if big else "I"), data[end : end + value_size])

    def value(tag: int) -> int | None:
        """The first value of a tag, where it stands inline or at its offset."""
        found = np.flatnonzero(entries["tag"] == tag)
        if not len(found):
            return None
        kind, many, raw = (entries[name][found[0]] for name in ("type", "count", "value"))
        size = _SIZES.get(int(kind))
        if size is None or not many:
            return None
        field = raw.tobytes()
        if int(many) * size > value_size:
            (where,) = struct.unpack(order + ("Q" if big else "I"), field)
            field = data[where : where + size]
        if len(field) < size:
            return None
        return int.from_bytes(field[:size], "little" if order == "<" else "big")

    width, height = value(_WIDTH), value(_HEIGHT)
    if not width or not height:
        raise Damaged(f"a TIFF whose page {number} has no width or height")
    bits = value(_BITS) or 1
    tiled = value(_TILE_WIDTH) is not None or value(_TILE_HEIGHT) is not None
    if tiled:
        across, down = value(_TILE_WIDTH) or width, value(_TILE_HEIGHT) or height
        stored = f"stored in tiles of {across:,} x {down:,} pixels"
    else:
        rows = value(_ROWS) or height
        across, down = width, min(rows, height)
        stored = f"stored in strips of {down:,} rows"
    if bits > 8:
        stored += f" of {bits}-bit samples"
    # OpenCV reads a strip or a tile into a buffer of 4 samples a pixel, whatever the page's samples
    return PageHeader(width, height, across * down * 4 * max(1, math.ceil(bits / 8)), stored), following
