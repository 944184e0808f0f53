"""pypdf's reading of a filled PDF's strings, bounded.

pypdf reads a string a byte at a time in Python: an 8 MB field value took 1.7 s, written in hex
13 s, and an object stream inflates a 10 kB file into 75 MB of them. While kitgen reads a filled
form, each string pypdf reads is read from a window no longer than what is left of
`PDF_STRING_BYTES` for the file, so that all its strings together cost a fraction of a second; a
file past it is refused (`StringsTooLong`), as no form comes near it (the sample's packets hold
27 kB of strings, the longest 85 bytes)."""

from __future__ import annotations

import contextlib
import functools
import io
from collections.abc import Callable, Iterator
from typing import Any

from kitgen.limits import PDF_STRING_BYTES

_FIRST_WINDOW = 4096
"""The bytes a string is first read from: a form's are under 100."""


class StringsTooLong(Exception):
    """A PDF whose strings hold more than `PDF_STRING_BYTES`."""


@functools.cache
def _raised() -> type[Exception]:
    """`StringsTooLong` as pypdf's own `LimitReachedError` too: pypdf lets no other error out of a
    dictionary it reads (it keeps what it read before, and the form would read without the field)."""
    from pypdf.errors import LimitReachedError

    return type("StringsTooLong", (StringsTooLong, LimitReachedError), {})


@contextlib.contextmanager
def bounded_strings() -> Iterator[None]:
    """pypdf's two readers of a string (literal and hex) bounded as above, while the block runs."""
    try:
        from pypdf.generic import _data_structures as parsing
    except ImportError:  # another pypdf, read as it is
        yield
        return
    names = ("read_string_from_stream", "read_hex_string_from_stream")
    readers = {name: getattr(parsing, name, None) for name in names}
    left = [PDF_STRING_BYTES]

    def windowed(reader: Callable[..., Any]) -> Callable[..., Any]:
        def read(stream: Any, forced_encoding: Any = None) -> Any:
            from pypdf.errors import PdfStreamError

            start = stream.tell()
            size = min(_FIRST_WINDOW, left[0] + 1)
            while True:  # a window 16 times larger each time the string runs past it
                stream.seek(start)
                taken = stream.read(size)
                window = io.BytesIO(taken)
                try:
                    value = reader(window, forced_encoding)
                    break
                except PdfStreamError:
                    if len(taken) < size:  # the file ended within the window: pypdf's own trouble
                        raise
                    if size > left[0]:
                        raise _raised() from None
                    size = min(16 * size, left[0] + 1)
            left[0] -= window.tell()
            stream.seek(start + window.tell())
            return value

        return read

    if not all(readers.values()):
        yield
        return
    for name, reader in readers.items():
        setattr(parsing, name, windowed(reader))  # type: ignore[arg-type]
    try:
        yield
    finally:
        for name, reader in readers.items():
            setattr(parsing, name, reader)
