"""Order forms filled on screen, as two PDF viewers would save them: pypdf, and PyMuPDF."""

from __future__ import annotations

import io
from pathlib import Path


def fill_with_pypdf(form: Path, values: dict[str, str], out: Path) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.append(PdfReader(form))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    buffer = io.BytesIO()
    writer.write(buffer)
    out.write_bytes(buffer.getvalue())
    return out


def fill_with_pymupdf(form: Path, values: dict[str, str], out: Path) -> Path:
    """As PyMuPDF fills a form: a check box given "/Yes" is ticked (its on state), "/Off" cleared."""
    import pymupdf

    doc = pymupdf.open(form)
    for page in doc:
        for widget in page.widgets():
            if widget.field_name in values:
                value = values[widget.field_name]
                if widget.field_type == pymupdf.PDF_WIDGET_TYPE_CHECKBOX:
                    widget.field_value = value == "/Yes"
                else:
                    widget.field_value = value
                widget.update()
    doc.save(out)
    return out
