"""YAML read with a safe loader, keeping the line and column of every value.

Values are plain Python data; `Located.position(loc)` maps a path of keys and indexes
(as pydantic reports it) back to where it stands in the file. Syntax errors are reworded
for people (a tab, a missing colon, an unclosed bracket), numbers that YAML 1.1 reads in
another base (`0110` is octal 72) are reported with their reading, and nesting, size and
alias expansion are bounded.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem, display_path
from kitgen.inputs import read_file
from kitgen.limits import YAML_DEPTH, YAML_VALUES

Loc = tuple[str | int, ...]

MAX_NUMBER = 10**15
"""No number in the rules comes near; beyond it, arithmetic could leave Decimal's range."""

_COLLECTION_TAGS = {"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"}
_SCALAR_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "timestamp")}
_STR = "tag:yaml.org,2002:str"
_BOOL = "tag:yaml.org,2002:bool"
_BOOLS = {"true": True, "false": False}
_INT = "tag:yaml.org,2002:int"
_PLAIN_INT = re.compile(r"-?(0|[1-9][0-9]{0,14})")
_PLAIN_FLOAT = re.compile(r"-?(0|[1-9][0-9]{0,14})\.[0-9]{1,17}")
_FLOAT = "tag:yaml.org,2002:float"
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The safe loader in C where PyYAML has it: the same values and marks, several times faster."""
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_READINGS = (
    (re.compile(r"[-+]?0b[01_]+"), "binary"),
    (re.compile(r"[-+]?0x[0-9a-fA-F_]+"), "hexadecimal"),
    (re.compile(r"[-+]?0[0-7_]+"), "octal"),
    (re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?"), "base-60"),
)
_DIGITS = re.compile(r"[-+]?[0-9][0-9_]{16,}")


@dataclass
class Located:
    """Data read from one YAML file with the position of each value and mapping key."""

    path: Path
    data: Any
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    readings: set[Loc] = field(default_factory=set)
    """Values whose unquoted text YAML read as a number in another base (reported already)."""
    raw: bytes | None = None
    """The file's bytes while its positions are still to be worked out (JSON read quickly)."""

    def __post_init__(self) -> None:
        self._placed = self.raw is None

    def _place(self) -> None:
        """Positions of a JSON file read with `json`: worked out from the YAML reading, once,
        only when a message needs them."""
        if not self._placed and self.raw is not None:
            placed = parse_yaml(self.path, self.raw)
            self.values, self.keys, self._placed = placed.values, placed.keys, True

    @property
    def name(self) -> str:
        return display_path(self.path)

    def position(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Line and column (1-based) of the value at `loc`, or of its nearest ancestor."""
        self._place()
        if key and loc in self.keys:
            return self.keys[loc]
        for n in range(len(loc), -1, -1):
            if loc[:n] in self.values:
                return self.values[loc[:n]]
        return (1, 1)

    def problem_at(self, line: int, column: int, message: msg.Msg) -> Problem:
        return Problem(self.name, line, column, message.text, message.code)

    def problem(self, loc: Loc, message: msg.Msg, *, key: bool = False) -> Problem:
        return self.problem_at(*self.position(loc, key=key), message)


def load_yaml(path: Path, *, what: str = "a YAML file", limit: int | None = None) -> Located:
    """Read one YAML file of at most `limit` bytes (default `limits.TEXT_BYTES`).

    A file that cannot be read as YAML at all raises KitgenError; lesser problems (a key
    given twice, an octal reading) are listed in `Located.problems` so that checking can go on.
    """
    return parse_yaml(path, read_file(path, what=what, limit=limit), suffix=path.suffix)


def _read_json(path: Path, raw: bytes) -> Located | None:
    """Plain JSON (the GeoJSON layers) read by the json module: many times faster. Anything
    unusual (a duplicate key, NaN, a huge number, deep nesting) goes the YAML way instead,
    which reports it."""
    import json

    class Unusual(Exception):
        pass

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            raise Unusual
        return out

    def number(text: str) -> int:
        if len(text) > 15:
            raise Unusual
        return int(text)

    def constant(text: str) -> float:
        raise Unusual

    def decimal(text: str) -> float:
        value = float(text)
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            raise Unusual
        return value

    try:  # UTF-8 as the YAML way reads it: json alone would take UTF-16 and UTF-32 too
        text = raw.decode("utf-8")
        data = json.loads(text, object_pairs_hook=pairs, parse_int=number, parse_float=decimal, parse_constant=constant)
    except (Unusual, ValueError, RecursionError):
        return None
    if data is None or _depth(data) > YAML_DEPTH:
        return None
    return Located(path=path, data=data, raw=raw)


def _depth(value: Any) -> int:
    depth, level = 0, [value]
    while level:
        depth += 1
        level = [
            v
            for item in level
            if isinstance(item, (dict, list))
            for v in (item.values() if isinstance(item, dict) else item)
        ]
    return depth - 1


def parse_yaml(path: Path, raw: bytes, *, suffix: str = "") -> Located:
    """`load_yaml` of bytes already read (`path` names them in messages); a `.json` or
    `.geojson` suffix tries the quick JSON reading first."""
    if suffix in (".json", ".geojson"):
        fast = _read_json(path, raw)
        if fast is not None:
            return fast
    text = _decode(path, raw)
    bad: dict[int, Problem] = {}  # the first of each line, for ten lines at most
    for match in _NON_PRINTABLE.finditer(text):
        found = _character_problem(path, text, match.start())
        bad.setdefault(found.line, found)
        if len(bad) == 10:
            break
    if bad:
        raise KitgenError(list(bad.values()))
    node = _compose(path, text)
    if node is None:
        raise KitgenError.at(path, 1, 1, msg.yaml_empty())
    located = Located(path=path, data=None)
    located.data = _Builder(located).build(node, (), 0)
    return located


def _decode(path: Path, raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise KitgenError.at(path, line, column, msg.yaml_not_utf8(raw[exc.start])) from None


def _character_problem(path: Path, text: str, index: int) -> Problem:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    char = text[index]
    return Problem.of(path, line, column, msg.yaml_nul() if char == "\0" else msg.yaml_control_character(ord(char)))


def _compose(path: Path, text: str) -> yaml.Node | None:
    # libyaml caps nesting at 1,000 levels; its composer recurses about twice a level
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as exc:
        line, column, message = _syntax(text, exc)
        raise KitgenError.at(path, line, column, message) from None
    except yaml.YAMLError as exc:
        raise KitgenError.at(path, 1, 1, msg.yaml_syntax(str(exc).splitlines()[0])) from None
    except RecursionError:
        raise KitgenError.at(path, 1, 1, msg.yaml_too_deep(YAML_DEPTH)) from None
    finally:
        sys.setrecursionlimit(limit)


def _syntax(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, int, msg.Msg]:
    """Line, column and words for a YAML syntax error, said the way a person would fix it."""
    lines = text.split("\n")
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line, mark.column) if mark else (0, 0)
    problem = exc.problem or ""
    tab = _tab_near(lines, line, column)
    if tab is not None:
        return tab[0] + 1, tab[1] + 1, msg.yaml_tab()
    if "nesting depth" in problem:
        return line + 1, column + 1, msg.yaml_too_deep(YAML_DEPTH)
    if "could not find expected ':'" in problem and exc.context_mark is not None:
        at = exc.context_mark
        return at.line + 1, at.column + 1, msg.yaml_missing_colon(_line(lines, at.line).strip())
    if "mapping values are not allowed" in problem:
        here = _line(lines, line)
        if ": " in here[:column] or here[:column].rstrip().endswith(":"):
            return line + 1, column + 1, msg.yaml_bad_scalar(here.strip(), "a second ': ' on the line")
        above = _previous_content_line(lines, line)
        if above is not None and ":" not in _line(lines, above):
            start = len(_line(lines, above)) - len(_line(lines, above).lstrip())
            return above + 1, start + 1, msg.yaml_missing_colon(_line(lines, above).strip())
        return line + 1, column + 1, msg.yaml_bad_indent()
    if "did not find expected key" in problem or "expected <block end>" in problem:
        return line + 1, column + 1, msg.yaml_bad_indent()
    if problem.startswith("did not find expected ','") and exc.context_mark is not None:
        at = exc.context_mark
        opener = _line(lines, at.line)[at.column : at.column + 1] or "["
        return at.line + 1, at.column + 1, msg.yaml_unclosed(opener, "]" if opener == "[" else "}")
    if "end of stream" in problem and exc.context_mark is not None and "quoted" in (exc.context or ""):
        at = exc.context_mark
        quote = _line(lines, at.line)[at.column : at.column + 1] or "'"
        return at.line + 1, at.column + 1, msg.yaml_unclosed(quote, quote)
    words = " ".join(s for s in (exc.context, problem) if s)
    return line + 1, column + 1, msg.yaml_syntax(words)


def _line(lines: list[str], index: int) -> str:
    return lines[index] if 0 <= index < len(lines) else ""


def _tab_near(lines: list[str], line: int, column: int) -> tuple[int, int] | None:
    """A tab at the error, or in the indentation of its line or the line before."""
    here = _line(lines, line)
    if here[column : column + 1] == "\t":
        return line, column
    for index in (line, line - 1):
        text = _line(lines, index)
        indent = text[: len(text) - len(text.lstrip(" \t-"))]
        if "\t" in indent:
            return index, indent.index("\t")
    return None


def _previous_content_line(lines: list[str], line: int) -> int | None:
    for index in range(line - 1, -1, -1):
        stripped = _line(lines, index).strip()
        if stripped and not stripped.startswith("#"):
            return index
    return None


class _Builder:
    """Turns a composed node graph into Python values, recording positions and guarding size."""

    def __init__(self, located: Located) -> None:
        self.located = located
        self.count = 0
        self.active: set[int] = set()
        self.constructor = SafeConstructor()

    def fail(self, node: yaml.Node, message: msg.Msg) -> KitgenError:
        m = node.start_mark
        return KitgenError.at(self.located.path, m.line + 1, m.column + 1, message)

    def note(self, node: yaml.Node, message: msg.Msg) -> None:
        m = node.start_mark
        self.located.problems.append(self.located.problem_at(m.line + 1, m.column + 1, message))

    def build(self, node: yaml.Node, loc: Loc, depth: int) -> Any:
        self.count += 1
        if self.count > YAML_VALUES:
            raise self.fail(node, msg.yaml_alias_bomb(YAML_VALUES))
        if depth > YAML_DEPTH:
            raise self.fail(node, msg.yaml_too_deep(YAML_DEPTH))
        self.located.values.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, loc)
        if node.tag not in _COLLECTION_TAGS:
            raise self.fail(node, msg.yaml_tag(node.tag))
        if id(node) in self.active:
            raise self.fail(node, msg.yaml_recursive_alias())
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, loc + (i,), depth + 1) for i, item in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                return self.mapping(node, loc, depth)
            raise self.fail(node, msg.yaml_tag(node.tag))
        finally:
            self.active.discard(id(node))

    def scalar(self, node: yaml.ScalarNode, loc: Loc | None) -> Any:
        raw = node.value
        tag = node.tag
        if tag == _STR:  # most values: skip the constructor's dispatch
            return raw
        if tag not in _SCALAR_TAGS:
            raise self.fail(node, msg.yaml_tag(tag))
        if tag == _BOOL and raw in _BOOLS:
            return _BOOLS[raw]
        if tag not in (_INT, _FLOAT) or node.style:  # quoted: what the tag says, no reading to report
            return self.construct(node)
        if _PLAIN_INT.fullmatch(raw):
            return int(raw)
        if _PLAIN_FLOAT.fullmatch(raw):
            return float(raw)
        if _DIGITS.fullmatch(raw):
            raise self.fail(node, msg.yaml_huge_number(raw, MAX_NUMBER))
        value = self.construct(node)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(node, msg.yaml_not_finite(raw))
        if abs(value) > MAX_NUMBER:
            raise self.fail(node, msg.yaml_huge_number(raw, MAX_NUMBER))
        reading = next((name for pattern, name in _READINGS if pattern.fullmatch(raw)), None)
        if reading is not None and raw.lstrip("+-") not in ("0", "0_"):
            self.note(node, msg.yaml_number_reading(raw, reading, value))
            if loc is not None:
                self.located.readings.add(loc)
        return value

    def construct(self, node: yaml.ScalarNode) -> Any:
        try:
            return self.constructor.construct_object(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            problem = getattr(exc, "problem", None) or str(exc)
            raise self.fail(node, msg.yaml_bad_scalar(node.value[:40], problem)) from None

    def mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(key_node, msg.yaml_merge_key())
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, msg.yaml_complex_key())
            key = self.scalar(key_node, None)
            if key in out:
                self.note(key_node, msg.yaml_duplicate_key(key))
                continue
            self.located.keys[loc + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, loc + (key,), depth + 1)
        return out
