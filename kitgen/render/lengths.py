"""Lengths in the layouts files, written with their unit (`12mm`, `0.5in`, `8pt`), and layouts
that extend one another; both resolved once, on load."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from kitgen import messages as msg
from kitgen.model.base import invalid
from kitgen.yamlsource import Loc, Located

POINTS_PER = {"pt": 1.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0}
_LENGTH = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(pt|mm|cm|in)\s*")


def points(value: Any) -> Any:
    """A length in points: a bare number is points already; a string carries its unit."""
    if type(value) in (int, float) and value >= 0:
        return float(value)
    if isinstance(value, str) and (m := _LENGTH.fullmatch(value)):
        return float(m.group(1)) * POINTS_PER[m.group(2)]
    raise invalid(msg.value_length(repr(value)))


Length = Annotated[float, BeforeValidator(points)]
"""A length, in points once loaded."""

EXTENDS = "extends"


def resolve_extends(located: Located, section: str) -> None:
    """In `located.data[section]`, a mapping of named layouts, each one that names another in
    `extends:` takes that one's keys (deeply, its own winning, `+= 2mm` adjusting); the positions of inherited values
    are the parent's, so a bad inherited value is reported where it is written. A name that is
    missing, or a loop, is a problem at the `extends:`."""
    layouts = located.data.get(section) if isinstance(located.data, dict) else None
    if not isinstance(layouts, dict):
        return
    done: dict[str, dict[str, Any]] = {}

    def resolve(name: str, seen: tuple[str, ...]) -> dict[str, Any]:
        if name in done:
            return done[name]
        own = layouts[name]
        if not isinstance(own, dict) or EXTENDS not in own:
            done[name] = own
            return own
        parent = own[EXTENDS]
        where: Loc = (section, name, EXTENDS)
        if parent not in layouts or not isinstance(layouts[parent], dict):
            located.problems.append(located.problem(where, msg.layout_extends_unknown(repr(parent), sorted(layouts))))
            merged = {k: v for k, v in own.items() if k != EXTENDS}
        elif parent in (*seen, name):
            chain = " -> ".join((*seen, name, parent))
            located.problems.append(located.problem(where, msg.layout_extends_loop(chain)))
            merged = {k: v for k, v in own.items() if k != EXTENDS}
        else:
            base = resolve(parent, (*seen, name))
            _inherit_positions(located, (section, parent), (section, name), base, own)
            merged = _deep_merge(base, {k: v for k, v in own.items() if k != EXTENDS})
        done[name] = merged
        return merged

    for name in list(layouts):
        layouts[name] = resolve(name, ())


_RELATIVE = re.compile(r"\s*([+-])=\s*(.+)")


def _deep_merge(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """`own` over `base`; a value written `+= 2mm` or `-= 0.5pt` adjusts the inherited length."""
    merged = dict(base)
    for key, value in own.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        elif isinstance(value, str) and (m := _RELATIVE.fullmatch(value)) and key in merged:
            merged[key] = _adjusted(merged[key], m.group(1), m.group(2), value)
        else:
            merged[key] = value
    return merged


def _adjusted(inherited: Any, sign: str, by: str, written: str) -> Any:
    """The inherited length moved by `by`, in points; left as written (for the model to report)
    when either is no length."""
    try:
        start, step = points(inherited), points(by)
    except PydanticCustomError:
        return written
    return start + step if sign == "+" else start - step


def _inherit_positions(located: Located, parent: Loc, child: Loc, base: Any, own: Any) -> None:
    """Positions for the values the child takes from its parent (those it does not write)."""
    if not isinstance(base, dict):
        return
    for key, value in base.items():
        if isinstance(own, dict) and key in own and not isinstance(own[key], dict):
            continue
        src, dst = (*parent, key), (*child, key)
        if dst not in located.values and src in located.values:
            located.values[dst] = located.values[src]
            located.keys.setdefault(dst, located.keys.get(src, located.values[src]))
        _inherit_positions(located, src, dst, value, own.get(key) if isinstance(own, dict) else None)
