"""The packets' words: Jinja2 templates in layouts/packets-text.yaml, filled from the data."""

from __future__ import annotations

from functools import cache

from kitgen.render.style import layouts_dir


@cache
def _texts() -> dict[str, str]:
    from kitgen.render.style import load_layout_text

    return load_layout_text(layouts_dir() / "packets-text.yaml")


@cache
def _environment() -> object:
    import jinja2

    return jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


def say(key: str, **names: object) -> str:
    """A sentence of the packets, its template's names filled in."""
    env = _environment()
    return str(env.from_string(_texts()[key]).render(**names)).strip()  # type: ignore[attr-defined]
