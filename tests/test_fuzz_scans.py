"""Fuzzing the scans (issue 41): the files `kitgen orders scan` and `orders check` read, broken in
their containers (PNG, JPEG, TIFF of one page or several, BigTIFF), in the sizes their headers
claim, in their strips and streams, and PDFs of scanned pages broken in their page count, their
page sizes and their streams; and the QR codes' payloads, random text read by the parsers and
printed on a page. Every case ends in pages read or catalogued problems (each at its file, page
and column from 1), never a traceback, within `SECONDS` and `MEMORY_MB` above what the process
held before it (its peak resident memory, reset before each case).

CI runs a short profile; `make fuzz` scales it by $KITGEN_FUZZ_SCALE and prints the count.
"""

from __future__ import annotations

import contextlib
import io
import resource
import shutil
import signal
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.limits import PAGE_PIXELS, READ_PIXELS
from kitgen.messages import CATALOGUE
from kitgen.orders.sheetplan import FixedPage, FormPage
from kitgen.reports.plan import ReportPage
from kitgen.scan.intake import read_scans
from kitgen.scan.readback import Settle
from tests import hostile
from tests.conftest import SAMPLE, run_cli
from tests.fuzzing import CASES, SCALE

FUZZ = settings(
    deadline=None,
    database=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
SECONDS = 2.0
"""A case's time at most, for each page of its file of up to `READ_PIXELS` (a larger page counts as
many as it holds): a page of these reads in about 0.2 s, the slowest page within the limits (60
million pixels in tiles of 16 x 16) decodes in 1.2 s."""
MEMORY_MB = 400
"""A case's peak resident memory at most, above what the process held before it: the largest page
within the limits, 60 million pixels in one strip, takes 360 MB to decode (the page twice, and
OpenCV's strip at 4 bytes a pixel), its reading 130 MB more once it is reduced."""
DPI = 100
"""The scans' resolution: a form reads at it, and a case stays quick."""
EXTREMES = [0, 1, 2, 8, 255, 256, 4096, 7700, 9000, 65535, 65536, 2**31 - 1, 2**32 - 1]
"""What a size in a header is set to: nothing, a pixel, a page past the limits, the largest."""


class Runaway(Exception):
    """A case that ran past `SECONDS`."""


@dataclass(frozen=True)
class Scans:
    folder: Path
    """The sample campaign, turn 7 started."""
    page: Any
    """The Whites' first page, pencilled and scanned at `DPI`, in grey."""
    plan: Any
    files: dict[str, bytes]
    """The page as each kind of file of scans."""


@pytest.fixture(scope="module")
def scans(tmp_path_factory: pytest.TempPathFactory) -> Scans:
    import cv2

    from tests.penciled import filled_page, printed, random_orders

    root = tmp_path_factory.mktemp("fuzz-scans")
    folder = root / "campaign"
    shutil.copytree(SAMPLE, folder)
    assert run_cli("next", str(folder)).returncode == 0
    form = printed(folder, "whites")
    rng = np.random.default_rng(41)
    marks, written, _ = random_orders(form, 0, {}, rng, doubt_rate=0.2)
    page = filled_page(form, 0, marks, rng, dpi=DPI, written=written)
    blank = np.full((300, 200), 255, np.uint8)
    cv2.imwritemulti(str(root / "multi.tif"), [page, blank, page])
    files = {
        "png": cv2.imencode(".png", page)[1].tobytes(),
        "jpeg": cv2.imencode(".jpg", page)[1].tobytes(),
        "progressive": cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes(),
        "tiff": cv2.imencode(".tiff", page)[1].tobytes(),
        "multi": (root / "multi.tif").read_bytes(),
        "pdf": _pdf_of(page),
    }
    return Scans(folder, page, form.plans[0], files)


def _pdf_of(page: Any) -> bytes:
    """A PDF of the page as a scanner saves one: the picture drawn over an A4 page."""
    import cv2
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, invariant=1, pagesize=(595.28, 841.89))
    c.drawImage(ImageReader(io.BytesIO(cv2.imencode(".png", page)[1].tobytes())), 0, 0, 595.28, 841.89)
    c.showPage()
    c.save()
    return out.getvalue()


# --- the judge ----------------------------------------------------------------------------------


def _resident_kb(field: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))


@contextlib.contextmanager
def _bounded(pages: float = 1, seconds: float = SECONDS) -> Iterator[Callable[[], float]]:
    """`seconds` a page on a timer; yields what the case's peak took above the memory held before it (MB)."""
    with open("/proc/self/clear_refs", "w") as clear:  # the peak (VmHWM) from here
        clear.write("5")
    before = _resident_kb("VmRSS")

    def stop(signum: int, frame: object) -> None:
        raise Runaway(f"a case ran past {seconds} s a page")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds * max(1, pages))
    try:
        yield lambda: (_resident_kb("VmHWM") - before) / 1024
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def judged(scans: Scans, name: str, data: bytes, pages: float = 1) -> list[str]:
    """`orders scan`'s reading of the file `data` of `pages` pages: pages read, or catalogued
    problems, each at its file, page and column; never a traceback, within the bounds. The codes
    of its problems."""
    CASES["count"] += 1
    path = scans.folder.parent / name
    path.write_bytes(data)
    problems: list[Problem] = []
    with _bounded(pages) as grown:
        try:
            _, problems = read_scans(scans.folder, [path], Settle(), keep=False)
        except KitgenError as error:
            problems = error.problems
        except UsageError as error:
            assert error.msg.code in CATALOGUE, error.msg
            return [error.msg.code]
        took = grown()
    assert took <= MEMORY_MB, f"a case took {took:.0f} MB"
    for p in problems:
        assert p.code in CATALOGUE, f"uncatalogued message: {p}"
        assert p.line >= 1 and p.column >= 1 and p.message and p.file, p
    return sorted({p.code for p in problems})


# --- mutations ----------------------------------------------------------------------------------


@st.composite
def broken(draw: st.DrawFn, data: bytes, fields: tuple[tuple[int, int, str], ...] = ()) -> bytes:
    """`data` with a few edits: a bit flipped, a header's field (offset, size, byte order) set to
    an extreme, the file cut short, a range deleted, repeated, zeroed, or bytes spliced in."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, max(0, len(out) - 1)))
        kind = draw(st.sampled_from(["flip", "field", "cut", "delete", "repeat", "zero", "splice"]))
        if kind == "field" and fields:
            offset, size, order = draw(st.sampled_from(fields))
            value = draw(st.sampled_from(EXTREMES)) % (1 << (8 * size))
            out[offset : offset + size] = value.to_bytes(size, "big" if order == ">" else "little")
        elif kind == "flip" and out:
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "cut":
            del out[at:]
        elif kind == "delete":
            del out[at : at + draw(st.integers(1, 64))]
        elif kind == "repeat":
            out[at:at] = out[at : at + draw(st.integers(1, 256))] * draw(st.integers(1, 4))
        elif kind == "zero":
            size = draw(st.integers(1, 64))
            out[at : at + size] = bytes(len(out[at : at + size]))
        else:
            out[at:at] = draw(st.binary(max_size=32))
    return bytes(out)


def _size_fields(kind: str, data: bytes) -> tuple[tuple[int, int, str], ...]:
    """Where a picture's header says its size: a PNG's IHDR, a JPEG's frame header, a TIFF's
    first page's width, height, rows a strip and bits a sample."""
    if kind == "png":
        return ((16, 4, ">"), (20, 4, ">"))
    if kind in ("jpeg", "progressive"):
        at = max(data.find(b"\xff\xc0"), data.find(b"\xff\xc2"))
        return ((at + 5, 2, ">"), (at + 7, 2, ">"), (at + 9, 1, ">"))
    order = "<" if data[:2] == b"II" else ">"
    (first,) = struct.unpack(order + "I", data[4:8])
    (count,) = struct.unpack(order + "H", data[first : first + 2])
    found = []
    for k in range(count):
        entry = first + 2 + 12 * k
        tag, kind_of = struct.unpack(order + "HH", data[entry : entry + 4])
        if tag in (256, 257, 258, 278, 322, 323):
            found.append((entry + 8, 2 if kind_of == 3 else 4, order))
    return tuple(found)


@st.composite
def hand_made_tiff(draw: st.DrawFn, page: Any) -> tuple[bytes, float]:
    """A TIFF built by hand (`tests.hostile`): pages of drawn sizes, stored in drawn strips or
    tiles and bits, classic or BigTIFF, either byte order, their shared strip the page's own
    pixels deflated, white, or cut short."""
    size = st.sampled_from([(8, 8), (200, 300), (827, 1170), (7700, 7700), (9000, 9000), (100, 2**20), (1, 65535)])
    many = st.sampled_from([[(8, 8)] * 201, [(7700, 7700)] * 40])  # refused by their count, their pixels
    pages = draw(st.one_of(st.lists(size, min_size=1, max_size=3), many))
    tile = draw(st.sampled_from([None, None, (16, 16), (256, 256), (8192, 8192)]))
    rows = draw(st.sampled_from([None, 1, 16, 2**31]))
    own = zlib.compress(np.ascontiguousarray(page).tobytes())
    white = zlib.compress(b"\xff" * 64 * 64)
    pixels = draw(st.sampled_from([own, own[: len(own) // 3], white, b"", b"\x78\x9c"]))
    made = hostile.tiff(
        pages,
        tile=tile,
        rows=rows if tile is None else None,
        bits=draw(st.sampled_from([1, 8, 8, 16, 32])),
        big_endian=draw(st.booleans()),
        bigtiff=draw(st.booleans()),
        pixels=pixels,
    )
    if len(pages) > 3:  # refused before a page is decoded
        return made, 1
    return made, sum(max(1, w * h / READ_PIXELS) for w, h in pages if w * h <= PAGE_PIXELS)


# --- the targets --------------------------------------------------------------------------------


@settings(FUZZ, max_examples=40 * SCALE)
@given(data=st.data())
def test_fuzz_picture_containers(scans: Scans, data: st.DataObject) -> None:
    """A PNG, a JPEG (baseline or progressive), a TIFF or a TIFF of three pages of the page, its
    bytes broken or its header's sizes set to extremes; or a TIFF built by hand of many pages,
    huge sizes, tiles, deep samples, strips cut short."""
    kind = data.draw(st.sampled_from(["png", "jpeg", "progressive", "tiff", "multi", "hand"]), label="kind")
    if kind == "hand":
        picture, pages = data.draw(hand_made_tiff(scans.page), label="tiff")
    else:
        original = scans.files[kind]
        picture, pages = data.draw(broken(original, _size_fields(kind, original)), label="picture"), 3
    suffix = {"png": "png", "jpeg": "jpg", "progressive": "jpg"}.get(kind, "tif")
    codes = judged(scans, f"scan.{suffix}", picture, pages)
    if picture == scans.files.get(kind):
        assert not set(codes) & {"scan.not_a_picture", "scan.page_too_large"}, codes


def _pages_pdf(draw: Callable[..., Any], scans: Scans) -> tuple[bytes, int]:
    """A PDF of scanned pages built by hand: drawn page counts (and a /Count that may lie), page
    sizes (none, tiny, A4, huge, negative, not numbers), rotations, and each page's content a
    picture of drawn size whose stream may be cut short, or bytes that are no content."""
    number = st.sampled_from([b"0", b"-595", b"144", b"595.28", b"842", b"3000", b"14400", b"1e30", b"nan", b"(x)"])
    count = draw(st.sampled_from([0, 1, 2, 3, 201, 2000]))
    declared = draw(st.sampled_from([None, None, 0, 1, -1, 2**31, 10**9]))
    own = zlib.compress(np.ascontiguousarray(scans.page).tobytes())
    height, width = scans.page.shape
    w, h = draw(st.sampled_from([(width, height), (width, height), (7700, 7700), (2**20, 2**20), (0, 5)]))
    stream = draw(st.sampled_from([own, own[: len(own) // 2], b"", b"\x00" * 40]))
    image = b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 " % (
        w,
        h,
    )
    image += b"/Filter /FlateDecode /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream"
    content = draw(
        st.sampled_from([b"q 595 0 0 842 0 0 cm /Im0 Do Q", b"q 1e30 0 0 1e30 0 0 cm /Im0 Do Q", b"BT ( ET"])
    )
    contents = b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream"
    first = 5  # 1 catalogue, 2 tree, 3 image, 4 content, then the pages
    box = b"[0 0 %s %s]" % (draw(number), draw(number))
    rotate = draw(st.sampled_from([b"", b"/Rotate 90", b"/Rotate 45", b"/UserUnit 75000"]))
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox " + box + b" " + rotate
    page += b" /Resources << /XObject << /Im0 3 0 R >> >> /Contents 4 0 R >>"
    kids = b" ".join(b"%d 0 R" % (first + k) for k in range(count))
    if draw(st.booleans()) and count:
        kids += b" 2 0 R"  # the tree its own kid
    tree = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (count if declared is None else declared, kids)
    made = hostile.pdf([b"<< /Type /Catalog /Pages 2 0 R >>", tree, image, contents, *[page] * count])
    return made, count if count <= 3 else 1


@settings(FUZZ, max_examples=30 * SCALE)
@given(data=st.data())
def test_fuzz_pdfs_of_scans(scans: Scans, data: st.DataObject) -> None:
    """A PDF of scanned pages built by hand (page counts, sizes, pictures, streams), or a scanner's
    PDF of the page with its bytes broken."""
    if data.draw(st.booleans(), label="by hand"):
        pdf, pages = _pages_pdf(data.draw, scans)
    else:
        pdf, pages = data.draw(broken(scans.files["pdf"]), label="pdf"), 1
    judged(scans, "scans.pdf", pdf, pages)


KG_PARTS = st.sampled_from(
    [
        "KG3",
        "KG2",
        "KG①",
        "KG3B",
        "KG3R",
        "KG",
        "KG9999",
        "CHECK",
        "BLANK",
        "A",
        "L",
        "0",
        "1",
        "²",
        "٣",
        "0123456789AB",
        "ABCDEF",
        "-1",
        "",
        " ",
        "x" * 200,
    ]
)
PAYLOADS = st.one_of(
    st.text(max_size=80),
    st.lists(st.one_of(KG_PARTS, st.text(max_size=6)), min_size=1, max_size=10).map("/".join),
    st.builds(
        lambda p, k: "/".join([p, *k]),
        KG_PARTS,
        st.lists(st.from_regex(r"[0-9A-F²٣①]{0,8}", fullmatch=True), max_size=8),
    ),
)
"""What a QR code may say: any text, kitgen's shape with its parts drawn from the right and wrong
alphabets (digits that are not ASCII, a version of another form), and random parts."""


@settings(FUZZ, max_examples=300 * SCALE)
@given(text=PAYLOADS)
def test_fuzz_qr_payloads_are_parsed_or_refused(text: str) -> None:
    """Every parser of a QR code's text gives a page it names or None: never an exception."""
    CASES["count"] += 1
    for parse in (
        FormPage.parse,
        lambda t: FixedPage.parse(t, "CHECK"),
        lambda t: FixedPage.parse(t, "BLANK"),
        ReportPage.parse,
    ):
        found = parse(text)
        assert found is None or found.code().split("/")[0].startswith("KG")


@settings(FUZZ, max_examples=10 * SCALE)
@given(text=PAYLOADS)
def test_fuzz_qr_payloads_printed_on_a_page(scans: Scans, text: str) -> None:
    """The page's QR code printed over by one saying `text`: read as a page it names or refused in
    the catalogue's words."""
    import cv2

    try:
        code = cv2.QRCodeEncoder.create().encode(text)
    except cv2.error:  # more than a QR code holds
        return
    if code is None or not code.size:
        return
    plan, dpi = scans.plan, DPI / 72
    side = round(plan.layout.qr * dpi)
    x0, top = round(plan.qr[0] * dpi), round((plan.size[1] - plan.qr[1] - plan.layout.qr) * dpi)
    image = scans.page.copy()
    image[top : top + side, x0 : x0 + side] = cv2.resize(code, (side, side), interpolation=cv2.INTER_NEAREST)
    judged(scans, "qr.png", cv2.imencode(".png", image)[1].tobytes())


def test_the_judge_catches_a_runaway_and_a_memory_hog(scans: Scans) -> None:
    """The bounds are real: a case past its time (here a tenth of `SECONDS`, the same timer) or
    `MEMORY_MB` fails."""
    import time

    with pytest.raises(Runaway), _bounded(seconds=SECONDS / 10):
        time.sleep(SECONDS)
    with _bounded(pages=30) as grown:
        hog = np.ones((MEMORY_MB + 50) * 1024 * 1024 // 8)
        assert grown() > MEMORY_MB
        del hog
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0
