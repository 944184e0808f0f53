"""PDF pages as text (pypdf's extraction), read once a PDF's bytes: tests read the same parts,
editions and packets again and again, and the extraction is most of their time."""

from __future__ import annotations

import functools
import io


@functools.lru_cache(maxsize=32)
def page_texts(pdf: bytes, *, layout: bool = False) -> tuple[str, ...]:
    """Each page's text, as pypdf extracts it (`layout`: in its layout mode)."""
    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(pdf)).pages
    if layout:
        return tuple(page.extract_text(extraction_mode="layout") or "" for page in pages)
    return tuple(page.extract_text() or "" for page in pages)


@functools.lru_cache(maxsize=32)
def mupdf_texts(pdf: bytes) -> tuple[str, ...]:
    """Each page's text as PyMuPDF reads it (`page.get_text()`)."""
    import pymupdf

    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return tuple(page.get_text() for page in doc)
