"""Font subset names that stay unique when PDFs are joined.

reportlab names every font subset of a document `AAAAAA+Face`, `AAAAAB+Face` ... (its tags use
the letters A-K only), so two documents joined into one carry different subsets under one name;
preflight flags it and some RIPs substitute glyphs. Joined files get their subsets renamed in
order, each under a tag of its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_TAGGED = re.compile(r"/([A-Z]{6})\+(.+)")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def tag(n: int, letters: str = LETTERS) -> str:
    """The n-th six-letter subset tag over `letters`."""
    base, out = len(letters), []
    for _ in range(6):
        n, k = divmod(n, base)
        out.append(letters[k])
    return "".join(reversed(out))


def fonts_of(resources: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """The font dictionaries a resources dictionary uses, its forms' included, each once."""
    seen = set() if seen is None else seen
    if resources is None:
        return
    resources = resources.get_object()
    for ref in (resources.get("/Font") or {}).values():
        key = getattr(ref, "idnum", None) or id(ref)
        if key not in seen:
            seen.add(key)
            yield ref.get_object()
    for ref in (resources.get("/XObject") or {}).values():
        xobject = ref.get_object()
        key = getattr(ref, "idnum", None) or id(xobject)
        if xobject.get("/Subtype") == "/Form" and key not in seen:
            seen.add(key)
            yield from fonts_of(xobject.get("/Resources"), seen)


def rename(fonts: Iterator[Any], first: int = 0, letters: str = LETTERS) -> int:
    """Give each tagged font subset the next tag (its descriptor's name too); returns the next number."""
    from pypdf.generic import NameObject

    n = first
    for font in fonts:
        found = _TAGGED.fullmatch(str(font.get("/BaseFont", "")))
        if found is None:
            continue
        name = NameObject(f"/{tag(n, letters)}+{found.group(2)}")
        n += 1
        font[NameObject("/BaseFont")] = name
        descriptor = font.get("/FontDescriptor")
        if descriptor is not None:
            descriptor.get_object()[NameObject("/FontName")] = name
    return n


def unique_subsets(writer: Any) -> None:
    """Every font subset of a joined document under a tag of its own, in page order."""
    seen: set[int] = set()

    def every() -> Iterator[Any]:
        for page in writer.pages:
            yield from fonts_of(page.get("/Resources"), seen)

    rename(every())
