"""Hostile pictures and PDFs built by hand, a few bytes each (issue 41): what a header claims is
what kitgen must check before it decodes or renders anything, so the headers are written here
byte by byte, and the pixels behind them are shared, cut short or left out."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence


def tiff(
    pages: Sequence[tuple[int, int]],
    *,
    tile: tuple[int, int] | None = None,
    bits: int = 8,
    rows: int | None = None,
    big_endian: bool = False,
    bigtiff: bool = False,
    pixels: bytes | None = None,
) -> bytes:
    """A TIFF (or a BigTIFF) of grey pages of the sizes given. Each page's pixels are one deflated
    strip (or tile) of white, shared by every page of its size: 40 pages of 7700 x 7700 pixels take
    62 kB. `rows` sets the rows a strip; `pixels` replaces the shared strip's bytes (cut short)."""
    e = ">" if big_endian else "<"
    word, value_size = ("Q", 8) if bigtiff else ("I", 4)
    magic = (b"MM" if big_endian else b"II") + struct.pack(e + "H", 43 if bigtiff else 42)
    out = bytearray(magic + (struct.pack(e + "HHQ", 8, 0, 0) if bigtiff else b"\x00\x00\x00\x00"))
    strips: dict[tuple[int, int], tuple[int, int]] = {}
    directories = []
    for width, height in pages:
        across, down = tile or (width, min(rows or height, height))
        if (across, down) not in strips:
            data = pixels if pixels is not None else zlib.compress(b"\xff" * (across * down * bits // 8), 9)
            strips[(across, down)] = (len(out), len(data))
            out += data + b"\x00" * (len(data) % 2)
        at, size = strips[(across, down)]
        count = -(-height // down) * (-(-width // across) if tile else 1)
        tags = [(256, 4, width), (257, 4, height), (258, 3, bits), (259, 3, 8), (262, 3, 1), (277, 3, 1)]
        if tile:
            tags += [(322, 4, across), (323, 4, down)]
        else:
            tags += [(278, 4, down)]
        offsets, counts = (324, 325) if tile else (273, 279)
        if count == 1:
            tags += [(offsets, 4, at), (counts, 4, size)]
        else:  # every strip or tile the same shared bytes
            table = len(out)
            out += struct.pack(e + "I", at) * count + struct.pack(e + "I", size) * count
            directories.append((sorted(tags), [(offsets, 4, count, table), (counts, 4, count, table + 4 * count)]))
            continue
        directories.append((sorted(tags), []))
    struct.pack_into(e + word, out, 8 if bigtiff else 4, len(out))
    for k, (tags, tables) in enumerate(directories):
        entries = sorted([(tag, kind, 1, value) for tag, kind, value in tags] + tables)
        start = len(out)
        out += struct.pack(e + ("Q" if bigtiff else "H"), len(entries))
        for tag, kind, many, value in entries:
            field = struct.pack(e + ("H" if kind == 3 else "I"), value).ljust(value_size, b"\x00")
            if many > 1 and bigtiff:  # a table of offsets or counts: LONGs at their offset
                field = struct.pack(e + "Q", value)
            out += struct.pack(e + "HH" + ("Q" if bigtiff else "I"), tag, kind, many) + field
        entry = 20 if bigtiff else 12
        count = 8 if bigtiff else 2
        following = start + count + entry * len(entries) + value_size if k + 1 < len(directories) else 0
        out += struct.pack(e + word, following)
    return bytes(out)


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims `width` x `height` grey pixels, followed by a few bytes of them."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    return b"\x89PNG\r\n\x1a\n" + head + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")


def jpeg_header(width: int, height: int, *, progressive: bool = False, components: int = 3) -> bytes:
    """A JPEG whose frame header claims `width` x `height` pixels (each component at full
    resolution), and nothing after it."""
    marker = b"\xff\xc2" if progressive else b"\xff\xc0"
    each = b"".join(bytes([k + 1, 0x11, 0]) for k in range(components))
    frame = struct.pack(">HBHHB", 8 + 3 * components, 8, height, width, components) + each
    return b"\xff\xd8" + marker + frame + b"\xff\xd9"


def pdf(objects: Sequence[bytes]) -> bytes:
    """A PDF of the objects given (numbered from 1, the first the catalogue), with its cross-reference table."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, table)
    return bytes(out)


def pages_pdf(count: int, size: tuple[float, float] = (595, 842), *, declared: int | None = None) -> bytes:
    """A PDF of `count` blank pages of `size` points, its page tree's /Count `declared` (its pages by default)."""
    kids = b" ".join(b"%d 0 R" % (k + 3) for k in range(count))
    tree = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (count if declared is None else declared, kids)
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] >>" % size
    return pdf([b"<< /Type /Catalog /Pages 2 0 R >>", tree, *[page] * count])


def packed_pdf(plain: Sequence[bytes], packed: Sequence[bytes]) -> bytes:
    """A PDF of the `plain` objects (numbered from 1, the first the catalogue) and the `packed` ones
    after them, deflated together in one object stream, with a cross-reference stream: as Acrobat
    saves a form, and as a 10 kB file holds 10 MB of objects."""
    first = len(plain) + 1
    heads, bodies, at = [], b"", 0
    for k, body in enumerate(packed):
        heads.append(b"%d %d" % (first + k, at))
        bodies += body + b"\n"
        at += len(body) + 1
    head = b" ".join(heads) + b"\n"
    deflated = zlib.compress(head + bodies, 9)
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(plain, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    stream_number = first + len(packed)
    offsets_stream = len(out)
    out += b"%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n" % (
        stream_number,
        len(packed),
        len(head),
        len(deflated),
    )
    out += deflated + b"\nendstream\nendobj\n"
    xref_at = len(out)
    rows = [b"\x00" + struct.pack(">IH", 0, 0xFFFF)]
    rows += [b"\x01" + struct.pack(">IH", at, 0) for at in offsets]
    rows += [b"\x02" + struct.pack(">IH", stream_number, k) for k in range(len(packed))]
    rows += [b"\x01" + struct.pack(">IH", offsets_stream, 0), b"\x01" + struct.pack(">IH", xref_at, 0)]
    table = b"".join(rows)
    size = stream_number + 2
    out += b"%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n" % (
        size - 1,
        size,
        len(table),
    )
    out += table + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)
