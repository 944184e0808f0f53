"""Shared model configuration and the small value types the data files use."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

PROHIBITED = "p*"
"""Seed table mark: prohibited unless a road or rail line runs through the hex."""

NO_VP = "-"
"""Seed VP-table mark: the faction gets no VP from the town (distinct from 0)."""


class Model(BaseModel):
    """Base of every data model: unknown keys are errors, types are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _ident(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", value):
        return value
    raise PydanticCustomError(
        "ident",
        "found {found}, expected a lower-case name of letters, digits and '_' (like 'armoured_car')",
        {"found": repr(value)},
    )


def _dice(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"[1-9]?D(6|10|20)", value):
        return value
    raise PydanticCustomError(
        "dice", "found {found}, expected dice such as 'D6', '2D6', '3D6' or 'D10'", {"found": repr(value)}
    )


def _move_cost(value: Any) -> Any:
    if value == PROHIBITED or (type(value) is int and value >= 0):
        return value
    raise PydanticCustomError(
        "move_cost",
        "found {found}, expected a whole number of movement points or 'p*' (prohibited unless road/rail)",
        {"found": repr(value)},
    )


def _vp(value: Any) -> Any:
    if value == NO_VP:
        return None
    if type(value) is int and value >= 0:
        return value
    raise PydanticCustomError(
        "vp",
        "found {found}, expected a whole number of VP (0 or more) or '-' (no VP for this faction)",
        {"found": repr(value)},
    )


def _colour(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"#[0-9A-Fa-f]{6}", value):
        return value.upper()
    raise PydanticCustomError("colour", "found {found}, expected a colour like '#D55E00'", {"found": repr(value)})


Ident = Annotated[str, BeforeValidator(_ident)]
Dice = Annotated[str, BeforeValidator(_dice)]
MoveCost = Annotated[int | Literal["p*"], BeforeValidator(_move_cost)]
VP = Annotated[int | None, BeforeValidator(_vp)]
Colour = Annotated[str, BeforeValidator(_colour)]
Percent = Annotated[int, Field(ge=0, le=100)]
Positive = Annotated[int, Field(ge=1)]
Text = Annotated[str, Field(min_length=1)]


class Modifier(Model):
    """A die modifier: `value` is added to the roll when the condition `id` holds."""

    id: Ident
    value: int
    text: Text


class Ruling(Model):
    """A decision of kitgen's where neither the seed nor RULES-NOTES settles a point."""

    id: Ident
    text: Text
