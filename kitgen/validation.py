"""Turning a data file into a model, with every problem placed at its line and column."""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from kitgen.errors import Problem
from kitgen.yamlsource import Loc, Located

M = TypeVar("M", bound=BaseModel)


def validate(located: Located, model: type[M]) -> tuple[M | None, list[Problem]]:
    """Validate a file's data against `model`; return the model (or None) and the problems.

    A table (a model whose one field is a list of entries) keeps its valid entries when
    others are broken, so that cross-checks can still look at them.
    """
    try:
        return model.model_validate(located.data), []
    except ValidationError as exc:
        problems = [_problem(located, model, err) for err in exc.errors()]
    return _valid_entries(located, model), problems


def _valid_entries(located: Located, model: type[M]) -> M | None:
    if len(model.model_fields) != 1 or not isinstance(located.data, dict):
        return None
    ((name, field),) = model.model_fields.items()
    item = _unwrap(_step(field.annotation, 0)) if typing.get_origin(field.annotation) is list else None
    entries = located.data.get(name)
    if not (isinstance(item, type) and issubclass(item, BaseModel) and isinstance(entries, list)):
        return None
    kept: list[BaseModel | None] = []
    for entry in entries:
        try:
            kept.append(item.model_validate(entry))
        except ValidationError:
            kept.append(None)
    constructed: M = typing.cast(Any, model).model_construct(**{name: kept})
    return constructed


def dotted(loc: Loc) -> str:
    """`('towns', 3, 'vp')` -> `towns[3].vp`."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _problem(located: Located, model: type[BaseModel], err: Any) -> Problem:
    loc: Loc = tuple(err["loc"])
    kind = err["type"]
    found = err.get("input")
    ctx = err.get("ctx") or {}
    where = dotted(loc) or "top level"
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        return located.problem(loc, f"{where}: unknown key '{loc[-1]}'{hint}", key=True)
    if kind == "missing":
        return located.problem(loc[:-1], f"{where}: missing; this key is required")
    message = _MESSAGES.get(kind)
    ctx = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in ctx.items()}
    text = err["msg"] if message is None else message.format(found=_show(found), **ctx)
    if kind in _NUMBER_KINDS:
        text += _bounds(model, loc)
    return located.problem(loc, f"{where}: {text}")


def _show(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return repr(value)


_MESSAGES = {
    "int_type": "found {found}, expected a whole number",
    "int_parsing": "found {found}, expected a whole number",
    "int_from_float": "found {found}, expected a whole number",
    "float_type": "found {found}, expected a number",
    "string_type": "found {found}, expected text",
    "bool_type": "found {found}, expected true or false",
    "list_type": "found {found}, expected a list",
    "dict_type": "found {found}, expected a mapping of keys to values",
    "model_type": "found {found}, expected a mapping of keys to values",
    "model_attributes_type": "found {found}, expected a mapping of keys to values",
    "literal_error": "found {found}, expected {expected}",
    "greater_than_equal": "found {found}, expected at least {ge}",
    "less_than_equal": "found {found}, expected at most {le}",
    "greater_than": "found {found}, expected more than {gt}",
    "less_than": "found {found}, expected less than {lt}",
    "too_short": "found {actual_length} entries, expected at least {min_length}",
    "too_long": "found {actual_length} entries, expected at most {max_length}",
    "string_too_short": "found an empty text, expected at least {min_length} character",
}


_NUMBER_KINDS = {"int_type", "int_parsing", "int_from_float", "float_type", "greater_than_equal", "less_than_equal"}


def _bounds(model: type[BaseModel], loc: Loc) -> str:
    """' from 1 to 10' for a field declared with ge/le bounds; '' otherwise."""
    if not loc or not isinstance(loc[-1], str):
        return ""
    owner = _unwrap(_walk(model, loc[:-1]))
    if not (isinstance(owner, type) and issubclass(owner, BaseModel)):
        return ""
    info = owner.model_fields.get(loc[-1])
    if info is None:
        return ""
    low = next((c.ge for c in info.metadata if hasattr(c, "ge")), None)
    high = next((c.le for c in info.metadata if hasattr(c, "le")), None)
    if low is not None and high is not None:
        return f" (the rule's range is {low} to {high})"
    return ""


def _walk(model: Any, loc: Loc) -> Any:
    target: Any = model
    for part in loc:
        target = _step(target, part)
        if target is None:
            return None
    return target


def _allowed_keys(model: type[BaseModel], loc: Loc) -> list[str]:
    """The keys the model accepts at `loc`, walking its field annotations; [] if unknown."""
    target = _unwrap(_walk(model, loc))
    if isinstance(target, type) and issubclass(target, BaseModel):
        return list(target.model_fields)
    return []


def _unwrap(annotation: Any) -> Any:
    """Strip Annotated and Optional so that the model type itself is left."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        models = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(models) == 1:
            return _unwrap(models[0])
    return annotation


def _step(annotation: Any, part: str | int) -> Any:
    annotation = _unwrap(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        field = annotation.model_fields.get(str(part))
        return field.annotation if field else None
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is list and args:
        return args[0]
    if origin is dict and len(args) == 2:
        return args[1]
    return None
