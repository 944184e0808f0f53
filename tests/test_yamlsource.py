"""Reading YAML safely, with positions, and failing clearly on bad files."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen import inputs
from kitgen.errors import KitgenError, Problem
from kitgen.yamlsource import load_yaml
from tests.fuzzing import tree_paths


def write(tmp_path: Path, text: str, name: str = "f.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def only(exc: pytest.ExceptionInfo[KitgenError]) -> Problem:
    assert len(exc.value.problems) == 1, exc.value.problems
    return exc.value.problems[0]


def test_positions_of_values_and_keys(tmp_path: Path) -> None:
    doc = load_yaml(write(tmp_path, "a: 1\nlist:\n  - {b: 2, c: x}\n"))
    assert doc.data == {"a": 1, "list": [{"b": 2, "c": "x"}]}
    assert doc.position(("a",)) == (1, 4)
    assert doc.position(("list", 0, "c")) == (3, 15)
    assert doc.position(("list", 0, "c"), key=True) == (3, 12)
    assert doc.position(("list", 0, "missing")) == (3, 5)


def test_duplicate_key_is_reported_and_reading_goes_on(tmp_path: Path) -> None:
    doc = load_yaml(write(tmp_path, "a: 1\nb: 2\na: 3\n"))
    (problem,) = doc.problems
    assert (problem.code, problem.line, problem.column) == ("yaml.duplicate_key", 3, 1)
    assert "'a'" in problem.message
    assert doc.data == {"a": 1, "b": 2}


def test_empty_file(tmp_path: Path) -> None:
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "# only a comment\n"))
    assert (only(exc).code, only(exc).line) == ("yaml.empty", 1)


def test_not_yaml_names_line_and_column(tmp_path: Path) -> None:
    """An unclosed bracket is reported where it opens, not where the parser gave up."""
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "a: 1\nb: [1, 2\nc: 3\n"))
    problem = only(exc)
    assert (problem.code, problem.line, problem.column) == ("yaml.unclosed", 2, 4)
    assert "'['" in problem.message and "']'" in problem.message


def test_binary_file_is_not_yaml(tmp_path: Path) -> None:
    p = tmp_path / "f.yaml"
    p.write_bytes(b"a: 1\n\xff\xfe\x00garbage\x00")
    with pytest.raises(KitgenError) as exc:
        load_yaml(p)
    problem = only(exc)
    assert (problem.code, problem.line, problem.column) == ("yaml.not_utf8", 2, 1)
    assert "0xFF" in problem.message


def test_alias_bomb_is_refused_with_one_message(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "\n".join(lines) + "\n"))
    assert only(exc).code == "yaml.alias_bomb"


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "a: &x [1, *x]\n"))
    assert only(exc).code in ("yaml.recursive_alias", "yaml.syntax")


def test_python_tags_are_not_constructed(tmp_path: Path) -> None:
    """Only the safe loader: no object of any Python class is built from a tag."""
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "a: !!python/object/apply:os.system ['true']\n"))
    problem = only(exc)
    assert (problem.code, problem.line, problem.column) == ("yaml.tag", 1, 4)
    assert "python/object/apply:os.system" in problem.message


def test_two_documents_are_refused(tmp_path: Path) -> None:
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "a: 1\n---\nb: 2\n"))
    assert only(exc).code == "yaml.syntax" and only(exc).line == 2


def test_oversized_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs, "TEXT_BYTES", 10)
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "a: 12345678901234567890\n"))
    assert only(exc).code == "file.too_big" and "at most 10 bytes" in only(exc).message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(KitgenError) as exc:
        load_yaml(tmp_path / "nope.yaml")
    assert only(exc).code == "file.missing" and only(exc).file.endswith("nope.yaml")


def test_merge_keys_are_refused(tmp_path: Path) -> None:
    with pytest.raises(KitgenError) as exc:
        load_yaml(write(tmp_path, "base: &b {x: 1}\nc:\n  <<: *b\n"))
    problem = only(exc)
    assert (problem.code, problem.line, problem.column) == ("yaml.merge_key", 3, 3)


# Printable text: PyYAML's emitter writes some control and line-break characters unquoted.
chars = st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="\x85\ufeff")
text = st.text(chars, max_size=12)
key = st.text(chars, min_size=1, max_size=8)
leaf = st.one_of(st.integers(-(10**6), 10**6), st.booleans(), st.none(), text)
data = st.recursive(
    st.dictionaries(key, leaf, max_size=4),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(key, inner, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(data)
def test_property_reads_back_what_yaml_writes_with_a_position_for_every_value(
    tmp_path_factory: pytest.TempPathFactory, value: object
) -> None:
    path = write(tmp_path_factory.mktemp("y"), yaml.safe_dump(value, allow_unicode=True))
    doc = load_yaml(path)
    assert doc.data == value
    lines = path.read_text(encoding="utf-8").split("\n")
    for loc in tree_paths(value):
        assert loc in doc.values
        line, column = doc.values[loc]
        assert 1 <= line <= len(lines) and 1 <= column <= len(lines[line - 1]) + 1


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b'{"a": 1.0e+300}', "yaml.huge_number"),
        (b'{"a": 1234567890123456789}', "yaml.huge_number"),
        ('{"a": 1}'.encode("utf-16"), "yaml.not_utf8"),
        (b'{"a": 1, "a": 2}', "yaml.duplicate_key"),
    ],
)
def test_a_json_layer_is_held_to_the_same_rules_as_yaml(tmp_path: Path, raw: bytes, code: str) -> None:
    """The GeoJSON layers are read by the json module for speed; whatever it would let through
    that the YAML reading refuses is read the YAML way, and refused there."""
    path = tmp_path / "layer.geojson"
    path.write_bytes(raw)
    try:
        found = load_yaml(path).problems
    except KitgenError as exc:
        found = exc.problems
    assert code in {p.code for p in found}
