"""Turning a data file into a model, with every problem placed at its line and column."""

from __future__ import annotations

import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from kitgen import messages as msg
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
        found = [_problem(located, model, err) for err in exc.errors()]
        problems = [p for p in found if p is not None]
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


def _problem(located: Located, model: type[BaseModel], err: Any) -> Problem | None:
    loc: Loc = tuple(err["loc"])
    if loc in located.readings:
        return None  # reported with its number reading already
    kind = err["type"]
    where = dotted(loc) or "top level"
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        return located.problem(loc, msg.value_unknown_key(loc[-1], allowed).within(where), key=True)
    if kind == "missing":
        return located.problem(loc[:-1], msg.value_missing_key().within(where))
    return located.problem(loc, _message(model, loc, err).within(where))


def _message(model: type[BaseModel], loc: Loc, err: Any) -> msg.Msg:
    kind = err["type"]
    found = _show(err.get("input"))
    ctx = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in (err.get("ctx") or {}).items()}
    if f"value.{kind}" in msg.CATALOGUE:  # the models' own checks (model.base.invalid): catalogue words already
        return msg.Msg(f"value.{kind}", "data", err["msg"])
    expected = _EXPECTED.get(kind)
    if expected is not None:
        return msg.value_wrong_type(found, expected, _bounds(model, loc) if kind in _NUMBER_KINDS else "")
    if kind == "literal_error":
        return msg.value_literal(found, str(ctx.get("expected", "")))
    bound = {
        "greater_than_equal": "at least {ge}",
        "less_than_equal": "at most {le}",
        "greater_than": "more than {gt}",
        "less_than": "less than {lt}",
    }.get(kind)
    if bound is not None:
        return msg.value_out_of_range(found, bound.format(**ctx), _bounds(model, loc))
    if kind == "too_short":
        return msg.value_too_few(int(ctx.get("actual_length", 0)), int(ctx.get("min_length", 0)))
    if kind == "too_long":
        return msg.value_too_many(int(ctx.get("actual_length", 0)), int(ctx.get("max_length", 0)))
    if kind == "string_too_short":
        return msg.value_empty_text()
    return msg.value_invalid(found, err["msg"])


SHOWN_CHARS = 60
"""The most of a wrong value a message quotes: a whole file read as one value (a log that is a
link to another file) is shown by its start, never in full."""


def _show(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return f"{value[:SHOWN_CHARS]!r}... ({len(value):,} characters)"
    return repr(value)


_NUMBER_KINDS = {"int_type", "int_parsing", "int_from_float", "float_type"}
_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "string_type": "text",
    "bool_type": "true or false",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "a mapping of keys to values",
    "model_type": "a mapping of keys to values",
    "model_attributes_type": "a mapping of keys to values",
}


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
