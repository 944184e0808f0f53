"""Shared model configuration and the small value types the data files use."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from kitgen import messages as msg
from kitgen.messages import Msg

PROHIBITED = "p*"
"""Seed table mark: prohibited unless a road or rail line runs through the hex."""

NO_VP = "-"
"""Seed VP-table mark: the faction gets no VP from the town (distinct from 0)."""


def invalid(message: Msg) -> PydanticCustomError:
    """A model check's failure in the catalogue's words (its code is `value.<type>`)."""
    return PydanticCustomError(message.code.removeprefix("value."), message.text)


class Model(BaseModel):
    """Base of every data model: unknown keys are errors, types are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


def _ident(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", value):
        return value
    raise invalid(msg.value_ident(repr(value)))


def _path_name(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", value):
        return value
    raise invalid(msg.value_path_name(repr(value)))


def _dice(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[1-9]?D(6|10|20)", value):
        return value
    raise invalid(msg.value_dice(repr(value)))


def _history_date(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"1[89]\d\d-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?", value):
        return value
    raise invalid(msg.value_history_date(repr(value)))


def _move_cost(value: Any) -> Any:
    if value == PROHIBITED or (type(value) is int and 0 <= value <= MAX_COUNT):
        return value
    raise invalid(msg.value_move_cost(repr(value)))


def _vp(value: Any) -> Any:
    if value == NO_VP:
        return None
    if type(value) is int and 0 <= value <= MAX_COUNT:
        return value
    raise invalid(msg.value_vp(repr(value)))


def _colour(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", value):
        return value.upper()
    raise invalid(msg.value_colour(repr(value)))


Ident = Annotated[str, BeforeValidator(_ident)]
Dice = Annotated[str, BeforeValidator(_dice)]
PathName = Annotated[str, BeforeValidator(_path_name)]
HistoryDate = Annotated[str, BeforeValidator(_history_date)]
"""A day or a month of history, New Style: '1919-05-07' or '1919-05'."""
"""A name that becomes part of a file or folder name (a scenario's id): no '/', no '..'."""
MoveCost = Annotated[int | Literal["p*"], BeforeValidator(_move_cost)]
VP = Annotated[int | None, BeforeValidator(_vp)]
Colour = Annotated[str, BeforeValidator(_colour)]
MAX_COUNT = 9_999
"""Stands, points, VP, MP, rolls and modifiers: no count of the rules comes near it, and
within it no arithmetic of the rules can overflow or leave Decimal's range."""
Percent = Annotated[int, Field(ge=0, le=100)]
Positive = Annotated[int, Field(ge=1, le=MAX_COUNT)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Signed = Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT)]
"""A count whose sign the engine judges itself (a log's stands, a roll, a modifier)."""
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_IN_PROSE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Prose may hold tabs and line breaks, the Unicode ones (pasted from a word processor) too."""


def _one_line(value: Any) -> Any:
    if isinstance(value, str) and value.endswith("\n") and "\n" not in value[:-1]:
        value = value[:-1]  # a name written as a YAML block (`name: >`) ends in a line break of YAML's
    return _printable(value, _CONTROL, "one line of printable text")


def _prose(value: Any) -> Any:
    return _printable(value, _CONTROL_IN_PROSE, "printable text (tabs and line breaks allowed)")


def _printable(value: Any, controls: re.Pattern[str], expected: str) -> Any:
    found = controls.search(value) if isinstance(value, str) else None
    if found is None:
        return value
    raise invalid(msg.value_control(f"U+{ord(found.group()):04X}", found.start() + 1, expected))


Text = Annotated[str, Field(min_length=1), BeforeValidator(_one_line)]
"""A name or a short phrase: printed on a counter, a map or one line of output, so one line of
printable text (a line break or a terminal's escape in it would break the line it is printed in)."""
Prose = Annotated[str, Field(min_length=1), BeforeValidator(_prose)]
"""A note or a source: printable text that may run over several lines."""


class Modifier(Model):
    """A die modifier: `value` is added to the roll when the condition `id` holds."""

    id: Ident
    value: Signed
    text: Prose


class Ruling(Model):
    """A decision of kitgen's where neither the seed nor RULES-NOTES settles a point."""

    id: Ident
    text: Prose


@lru_cache(maxsize=8192)  # the same few thousand place and unit names, asked for millions of times
def name_key(name: str) -> str:
    """How names are matched: case, spaces, hyphens and apostrophes do not count."""
    return _NOT_IN_KEY.sub("", name).casefold()


_NOT_IN_KEY = re.compile(r"[\s\-'’.]")
