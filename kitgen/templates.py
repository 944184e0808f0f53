"""The Jinja environments kitgen fills its templates in, their compiled code kept on disk.

Compiling the booklet's template took a tenth of the time of setting the booklet. Jinja keeps
a template's compiled code under a checksum of its source (`jinja2.BytecodeCache`): a changed
template, or another Jinja, is compiled afresh. The code is only read back from kitgen's
private cache folder (`kitgen.scenariocache.read_regular`), as the cached scenarios are."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2

LIMIT = 8 << 20
"""The booklet's compiled template is about 60 kB."""


def environment(folder: Path, **options: Any) -> jinja2.Environment:
    """A Jinja environment loading templates from `folder`, with `options`, strict about
    undefined names, and its compiled templates kept between runs."""
    import jinja2

    class Kept(jinja2.BytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            from kitgen.scenariocache import read_regular

            data = read_regular(_path(bucket), LIMIT, private=True)
            if data is not None:
                bucket.bytecode_from_string(data)

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            import contextlib

            from kitgen.errors import UsageError
            from kitgen.outputs import write_atomic

            with contextlib.suppress(OSError, UsageError):  # a cache that cannot be written only costs time
                write_atomic(_path(bucket), bucket.bytecode_to_string(), mode=0o600)

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        undefined=jinja2.StrictUndefined,
        bytecode_cache=Kept(),
        **options,
    )


def _path(bucket: Any) -> Path:
    from kitgen.scenariocache import cache_dir

    return cache_dir() / f"template-{bucket.key}.jinja"
