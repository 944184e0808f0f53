"""The pages of the files handed to `kitgen orders scan` and `kitgen orders check`: pictures (PNG,
JPEG, TIFF of one page or several) and PDFs of scanned pages, each a greyscale picture.

Every page is measured before any is decoded, against `kitgen.limits`: a picture's pages from its
header (`kitgen.scan.headers`), a PDF's from its page tree. The pages are then decoded one at a
time, as the reader asks for them, so that a file of many pages takes the memory of one, and a page
larger than reading needs is reduced to `READ_PIXELS` as soon as it is decoded. The C
libraries' own lines (libpng's, libjpeg's, libtiff's, OpenCV's) are kept off the terminal: what
went wrong is said once, in kitgen's words."""

from __future__ import annotations

import contextlib
import math
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file
from kitgen.limits import (
    DECODER_BYTES,
    FILE_PIXELS,
    PAGE_ASPECT,
    PAGE_PIXELS,
    PAGE_POINTS,
    PDF_DPI,
    READ_PIXELS,
    SCAN_BYTES,
    SCAN_PAGES,
)
from kitgen.scan.headers import Damaged, PictureHeader, read_header

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

IMAGES = {".png", ".jpg", ".jpeg", ".tif", ".tiff"}


@dataclass(frozen=True)
class ScanPage:
    file: Path
    page: int
    """Its page in the file, from 1."""
    image: npt.NDArray[np.uint8]
    """Greyscale, 0 black to 255 white."""


def scan_pages(path: Path) -> Iterator[ScanPage]:
    """Each page of `path`, as greyscale, decoded when it is asked for; a file that is no picture
    or PDF, or one past a limit, is an error at it before any page is decoded."""
    suffix = path.suffix.lower()
    data = read_file(path, what="a scanned order form (PNG, JPEG, TIFF or PDF)", limit=SCAN_BYTES)
    if data.lstrip()[:5] == b"%PDF-":
        yield from _pdf_pages(path, data)
        return
    if suffix not in IMAGES and suffix != ".pdf":
        raise KitgenError.at(path, 1, 1, msg.scan_not_a_picture(f"a file named {path.suffix or 'without a suffix'}"))
    yield from _picture_pages(path, data)


def pages_of(files: Sequence[Path], problems: list[Problem]) -> Iterator[ScanPage]:
    """Every page of every file; a file that cannot be read is a problem, and the rest are read."""
    for path in files:
        try:
            yield from scan_pages(path)
        except KitgenError as bad:
            problems += bad.problems


def opencv() -> Any:
    """OpenCV, told first to decode no picture larger than `PAGE_PIXELS` (its own bound is a
    thousand million pixels: a small file claiming that many would take gigabytes; kitgen checks
    each page's header first, this is the decoder's own guard) and to log nothing."""
    os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(PAGE_PIXELS)
    os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")
    import cv2

    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is not None:
        logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    return cv2


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """The process's stderr (file 2) sent to nowhere while a picture is decoded or a PDF page
    rendered: libpng, libjpeg and libtiff write their warnings there themselves, past Python."""
    sys.stderr.flush()
    try:
        kept = os.dup(2)
    except OSError:  # no stderr: nothing to keep quiet
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        yield
    finally:
        os.dup2(kept, 2)
        os.close(kept)


def _picture_pages(path: Path, data: bytes) -> Iterator[ScanPage]:
    import numpy as np

    try:
        header = read_header(data, SCAN_PAGES)
    except Damaged as damaged:
        raise KitgenError.at(path, 1, 1, msg.scan_not_a_picture(str(damaged))) from None
    if header is None:
        raise KitgenError.at(
            path, 1, 1, msg.scan_not_a_picture(f"a file of {len(data):,} bytes that is no PNG, JPEG or TIFF picture")
        )
    _measure_pictures(path, header)
    cv2 = opencv()
    raw = np.frombuffer(data, dtype=np.uint8)
    for number in range(1, len(header.pages) + 1):
        image = _decode(cv2, raw, number - 1 if header.kind == "TIFF" else None)
        if image is not None and image.size > READ_PIXELS:  # more than reading needs, and 13 bytes a pixel to read
            shrink = math.sqrt(READ_PIXELS / image.size)
            size = (max(1, math.floor(image.shape[1] * shrink)), max(1, math.floor(image.shape[0] * shrink)))
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        if image is None:
            what = f"page {number} of a {header.kind}" if len(header.pages) > 1 else f"a {header.kind}"
            raise KitgenError.at(
                path, number, 1, msg.scan_not_a_picture(f"{what} that cannot be decoded (damaged or cut short)")
            )
        yield ScanPage(path, number, np.ascontiguousarray(image, dtype=np.uint8))
        del image  # the next page is decoded with this one let go


def _measure_pictures(path: Path, header: PictureHeader) -> None:
    """Refuse, from the header alone, a picture of too many pages, a page of too many pixels or
    one whose decoder would hold too much, and a file of too many pixels in all."""
    container = f"a {header.kind}"
    if header.more:
        raise KitgenError.at(path, 1, 1, msg.scan_too_many_pages(container, f"more than {SCAN_PAGES}", SCAN_PAGES))
    problems = []
    for number, page in enumerate(header.pages, start=1):
        if page.pixels > PAGE_PIXELS:
            problems.append(
                Problem.of(path, number, 1, msg.scan_page_too_large(number, page.width, page.height, PAGE_PIXELS))
            )
        elif page.buffer > DECODER_BYTES:
            how = f"of {page.width:,} x {page.height:,} pixels {page.stored}"
            problems.append(
                Problem.of(path, number, 1, msg.scan_page_decoding(number, how, page.buffer, DECODER_BYTES))
            )
    if problems:
        raise KitgenError(problems)
    total = sum(page.pixels for page in header.pages)
    if total > FILE_PIXELS:
        raise KitgenError.at(path, 1, 1, msg.scan_too_many_pixels(container, len(header.pages), total, FILE_PIXELS))


def _decode(cv2: Any, raw: npt.NDArray[np.uint8], page: int | None) -> npt.NDArray[np.uint8] | None:
    """One picture decoded in grey: the page of a TIFF numbered `page` from 0 (that page alone), or
    the only one; None where the decoder gives nothing."""
    with quiet():
        try:
            if page is None:
                image: npt.NDArray[np.uint8] | None = cv2.imdecode(raw, cv2.IMREAD_GRAYSCALE)
                return image
            ok, pages = cv2.imdecodemulti(raw, cv2.IMREAD_GRAYSCALE, range=(page, page + 1))
            return pages[0] if ok and len(pages) == 1 else None
        except cv2.error:  # a picture OpenCV cannot make sense of, or one past its own bound
            return None


def _pdf_pages(path: Path, data: bytes) -> Iterator[ScanPage]:
    import numpy as np
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    with quiet():
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError:
            pdf = None
    if pdf is None:
        raise KitgenError.at(path, 1, 1, msg.orders_unreadable_pdf("it is damaged, cut short or locked"))
    try:
        for number, scale in enumerate(_pdf_scales(path, pdf, pdfium.PdfiumError), start=1):
            with quiet():
                try:
                    page = pdf[number - 1]
                    bitmap = page.render(scale=scale, grayscale=True)
                    image = np.array(bitmap.to_numpy(), dtype=np.uint8, copy=True)
                    bitmap.close()
                    page.close()
                except pdfium.PdfiumError:
                    image = None
            if image is None:
                said = f"page {number} of a PDF that cannot be rendered (damaged or cut short)"
                raise KitgenError.at(path, number, 1, msg.scan_not_a_picture(said))
            if image.ndim == 3:
                image = image[:, :, 0]
            yield ScanPage(path, number, np.ascontiguousarray(image))
            del image
    finally:
        pdf.close()


def _pdf_scales(path: Path, pdf: Any, failed: type[Exception]) -> list[float]:
    """The scale each page of a PDF of scans is rendered at: `PDF_DPI`, or less for a large page,
    so that it takes at most `READ_PIXELS`. Its pages are counted and measured from the page
    tree before any is rendered: too many, a page no form could be, too many pixels in all, and
    the file is refused."""
    count = len(pdf)
    if count > SCAN_PAGES:
        raise KitgenError.at(path, 1, 1, msg.scan_too_many_pages("a PDF", f"{count:,}", SCAN_PAGES))
    problems: list[Problem] = []
    scales: list[float] = []
    total = 0
    for number in range(1, count + 1):
        with quiet():
            try:
                width, height = pdf.get_page_size(number - 1)
            except failed:
                width = height = math.nan
        if math.isnan(width) or math.isnan(height):
            said = f"page {number} of a PDF whose page tree is damaged or cut short"
            problems.append(Problem.of(path, number, 1, msg.scan_not_a_picture(said)))
            break
        short, long = sorted((abs(width), abs(height)))
        if not (PAGE_POINTS[0] <= short and long <= PAGE_POINTS[1] and long <= PAGE_ASPECT * short):
            problems.append(
                Problem.of(path, number, 1, msg.scan_page_size(number, width, height, PAGE_POINTS, PAGE_ASPECT))
            )
            continue
        scale = min(PDF_DPI / 72, math.sqrt(READ_PIXELS / (short * long)))
        while math.ceil(short * scale) * math.ceil(long * scale) > READ_PIXELS:  # its sides rounded up
            scale *= 0.999
        scales.append(scale)
        total += math.ceil(short * scale) * math.ceil(long * scale)
    if problems:
        raise KitgenError(problems)
    if total > FILE_PIXELS:
        raise KitgenError.at(path, 1, 1, msg.scan_too_many_pixels("a PDF", count, total, FILE_PIXELS))
    return scales
