"""The packets' words: Jinja2 templates in layouts/packets-text.yaml, filled from the data."""

from __future__ import annotations

from functools import cache
from typing import Any

from kitgen.render.style import layouts_dir


@cache
def _texts() -> dict[str, str]:
    from kitgen.render.style import load_layout_text

    return load_layout_text(layouts_dir() / "packets-text.yaml")


@cache
def _template(key: str) -> Any:
    """The sentence's template, compiled once."""
    import jinja2

    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
    return env.from_string(_texts()[key])


def say(key: str, **names: object) -> str:
    """A sentence of the packets, its template's names filled in."""
    return str(_template(key).render(**names)).strip()
