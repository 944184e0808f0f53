"""YAML read with a safe loader, keeping the line and column of every value.

Values are plain Python data; `Located.position(loc)` maps a path of keys and indexes
(as pydantic reports it) back to where it stands in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from kitgen.errors import KitgenError, Problem, display_path

Loc = tuple[str | int, ...]

MAX_FILE_BYTES = 20 * 1024 * 1024
MAX_VALUES = 250_000  # after alias expansion: a guard against "billion laughs"

_COLLECTION_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Located:
    """Data read from one YAML file with the position of each value and mapping key."""

    path: Path
    data: Any
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def name(self) -> str:
        return display_path(self.path)

    def position(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Line and column (1-based) of the value at `loc`, or of its nearest ancestor."""
        if key and loc in self.keys:
            return self.keys[loc]
        for n in range(len(loc), -1, -1):
            if loc[:n] in self.values:
                return self.values[loc[:n]]
        return (1, 1)

    def problem_at(self, line: int, column: int, message: str) -> Problem:
        return Problem(self.name, line, column, message)

    def problem(self, loc: Loc, message: str, *, key: bool = False) -> Problem:
        return self.problem_at(*self.position(loc, key=key), message)


def load_yaml(path: Path) -> Located:
    """Read one YAML file.

    A file that cannot be read as YAML at all raises KitgenError; lesser problems (a key
    given twice) are listed in `Located.problems` so that checking can go on.
    """
    name = display_path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise KitgenError.at(
                name, 1, 1, f"file is {size:,} bytes; kitgen reads YAML files of at most {MAX_FILE_BYTES:,}"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise KitgenError.at(name, 1, 1, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise KitgenError.at(name, line, 1, "not UTF-8 text; save the YAML file as UTF-8") from None
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = " ".join(s for s in (exc.context, exc.problem) if s)
        raise KitgenError.at(name, line, col, f"not valid YAML: {what}") from None
    except yaml.YAMLError as exc:
        raise KitgenError.at(name, 1, 1, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise KitgenError.at(name, 1, 1, "not usable YAML: nested too deeply") from None
    if node is None:
        raise KitgenError.at(name, 1, 1, "file is empty; expected a YAML mapping or list")
    located = Located(path=path, data=None)
    located.data = _Builder(located).build(node, ())
    return located


class _Builder:
    """Turns a composed node graph into Python values, recording positions and guarding size."""

    def __init__(self, located: Located) -> None:
        self.located = located
        self.count = 0
        self.active: set[int] = set()
        self.constructor = SafeConstructor()

    def fail(self, node: yaml.Node, message: str) -> KitgenError:
        m = node.start_mark
        return KitgenError.at(self.located.path, m.line + 1, m.column + 1, message)

    def build(self, node: yaml.Node, loc: Loc) -> Any:
        self.count += 1
        if self.count > MAX_VALUES:
            raise self.fail(
                node,
                f"more than {MAX_VALUES:,} values once aliases are expanded "
                "(an alias bomb?); write the data out without so many nested aliases",
            )
        self.located.values.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if node.tag not in _COLLECTION_TAGS:
            raise self.fail(node, f"not usable YAML: the tag {node.tag} is not allowed; write plain lists and mappings")
        if id(node) in self.active:
            raise self.fail(node, "an alias refers to the node that contains it; recursive YAML is not allowed")
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, loc + (i,)) for i, item in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, loc)
            raise self.fail(node, f"unsupported YAML node {node.tag}")
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.Node) -> Any:
        try:
            return self.constructor.construct_object(node)
        except yaml.YAMLError as exc:
            raise self.fail(node, f"not usable YAML: {getattr(exc, 'problem', None) or exc}") from None

    def mapping(self, node: yaml.MappingNode, loc: Loc) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, "YAML merge keys ('<<') are not supported; write the keys out")
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "a mapping key must be a plain value, not a list or mapping")
            key = self.scalar(key_node)
            if key in out:
                m = key_node.start_mark
                self.located.problems.append(
                    self.located.problem_at(m.line + 1, m.column + 1, f"key '{key}' appears twice in the same mapping")
                )
                continue
            self.located.keys[loc + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, loc + (key,))
        return out
