"""The pages of the files handed to `kitgen orders scan`: images (PNG, JPEG, TIFF, one page
each or a TIFF of several) and PDFs of scanned pages, each a greyscale picture."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import read_file

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MAX_SCAN_BYTES = 200 * 1024 * 1024
"""A scan file read at most: a 50-page PDF of 300 dpi colour pages is well under it."""
MAX_PIXELS = 60_000_000
"""A page's pixels at most: A4 at 600 dpi is 35 million."""
MAX_SCAN_PAGES = 200
MAX_TIFF_PAGES = 40
"""A TIFF's pages at most: they are decoded all at once (40 A4 pages at 200 dpi: 150 MB)."""
PDF_DPI = 200
"""A PDF page's pictures are rendered at this resolution: enough for any bubble, fast to read."""
IMAGES = {".png", ".jpg", ".jpeg", ".tif", ".tiff"}


@dataclass(frozen=True)
class ScanPage:
    file: Path
    page: int
    """Its page in the file, from 1."""
    image: npt.NDArray[np.uint8]
    """Greyscale, 0 black to 255 white."""


def scan_pages(path: Path) -> Iterator[ScanPage]:
    """Each page of `path`, as greyscale; a file that is no picture or PDF is an error at it."""
    suffix = path.suffix.lower()
    data = read_file(path, what="a scanned order form (PNG, JPEG, TIFF or PDF)", limit=MAX_SCAN_BYTES)
    if data.lstrip()[:5] == b"%PDF-":
        yield from _pdf_pages(path, data)
        return
    if suffix not in IMAGES and suffix != ".pdf":
        raise KitgenError.at(path, 1, 1, msg.scan_not_a_picture(f"a file named {path.suffix or 'without a suffix'}"))
    yield from _image_pages(path, data)


def pages_of(files: Sequence[Path], problems: list[Problem]) -> Iterator[ScanPage]:
    """Every page of every file; a file that cannot be read is a problem, and the rest are read."""
    for path in files:
        try:
            yield from scan_pages(path)
        except KitgenError as bad:
            problems += bad.problems


def _image_pages(path: Path, data: bytes) -> Iterator[ScanPage]:
    cv2 = opencv()
    import numpy as np

    raw = np.frombuffer(data, dtype=np.uint8)
    images: list[npt.NDArray[np.uint8]] = []
    try:
        if _is_tiff(data):
            count = cv2.imcount(str(path))  # the pages, counted before any is decoded
            if count > MAX_TIFF_PAGES:
                raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(count, MAX_TIFF_PAGES))
            ok, pages = cv2.imdecodemulti(raw, cv2.IMREAD_GRAYSCALE)
            images = list(pages) if ok else []
        elif len(data):
            image = cv2.imdecode(raw, cv2.IMREAD_GRAYSCALE)
            images = [] if image is None else [image]
    except cv2.error:  # a picture larger than MAX_PIXELS, or one OpenCV cannot make sense of
        images = []
    if not images:
        raise KitgenError.at(
            path,
            1,
            1,
            msg.scan_not_a_picture(
                f"a file of {len(data):,} bytes that is no picture, or one of more than {MAX_PIXELS:,} pixels"
            ),
        )
    if len(images) > MAX_SCAN_PAGES:
        raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(len(images), MAX_SCAN_PAGES))
    for number, image in enumerate(images, start=1):
        yield ScanPage(path, number, np.ascontiguousarray(image, dtype=np.uint8))


def opencv() -> Any:
    """OpenCV, told first to decode no picture larger than `MAX_PIXELS` (its own bound is a
    thousand million pixels: a small file claiming that many would take gigabytes)."""
    os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(MAX_PIXELS)
    import cv2

    return cv2


def _is_tiff(data: bytes) -> bool:
    return data[:4] in (b"II*\x00", b"MM\x00*")


def _pdf_pages(path: Path, data: bytes) -> Iterator[ScanPage]:
    import numpy as np
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        raise KitgenError.at(path, 1, 1, msg.orders_unreadable_pdf("it is damaged, cut short or locked")) from None
    try:
        if len(pdf) > MAX_SCAN_PAGES:
            raise KitgenError.at(path, 1, 1, msg.orders_too_many_pages(len(pdf), MAX_SCAN_PAGES))
        for number in range(len(pdf)):
            page = pdf[number]
            w, h = page.get_size()
            scale = PDF_DPI / 72
            if w * h * scale * scale > MAX_PIXELS:
                scale = (MAX_PIXELS / (w * h)) ** 0.5
            bitmap = page.render(scale=scale, grayscale=True)
            image = np.array(bitmap.to_numpy(), dtype=np.uint8, copy=True)
            if image.ndim == 3:
                image = image[:, :, 0]
            yield ScanPage(path, number + 1, np.ascontiguousarray(image))
    finally:
        pdf.close()
