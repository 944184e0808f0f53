"""What the kit keeps between runs to be quick (issue 25, item 10): the map with its furniture,
the map's picture, the booklet's contents and the compiled templates. A kept entry never
changes a byte of what is printed, and a stale, damaged or foreign one is only a miss."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from kitgen.model.scenario import Scenario


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("KITGEN_CACHE", str(cache))
    monkeypatch.setattr("kitgen.render.bookletset._cover_art", {})  # the cover's picture read again
    return cache


def _map_and_booklet(scenario: Scenario) -> list[tuple[str, bytes]]:
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from kitgen.products.booklet import build_booklet
    from kitgen.products.kit import map_parts
    from kitgen.render import bookletset

    built, _ = hex_map(scenario)
    assert built is not None
    bookletset._cover_art.clear()
    parts = build_booklet(scenario, place_hexes(scenario, built), "a4") + map_parts(scenario, built, "a4")
    return [(p.file, p.pdf) for p in parts]


def test_the_map_and_booklet_are_the_same_drawn_afresh_or_from_what_was_kept(
    scenario: Scenario, empty_cache: Path
) -> None:
    """The first run draws and keeps; the second reads what was kept: the same bytes."""
    fresh = _map_and_booklet(scenario)
    kept = sorted(p.name.split("-")[0] for p in empty_cache.iterdir())
    assert {"mapart", "mappicture", "contents", "template"} <= set(kept)
    assert _map_and_booklet(scenario) == fresh


def test_a_stale_or_damaged_contents_entry_costs_a_pass_not_a_wrong_page(scenario: Scenario, empty_cache: Path) -> None:
    """The kept contents are a hint that platypus checks against the pages it sets."""
    import pickle

    from kitgen.scenariocache import read_private, write_private

    fresh = _map_and_booklet(scenario)
    entries = sorted(empty_cache.glob("contents-*.pickle"))
    assert len(entries) == 2  # A4 pages and the folded A5 booklet
    for entry in entries:
        kept = read_private(entry)
        assert isinstance(kept, list) and kept
        write_private(entry, [(level, text, page + 1, key) for level, text, page, key in kept])
    assert _map_and_booklet(scenario) == fresh
    for entry in entries:
        entry.write_bytes(b"not a pickle")
        os.chmod(entry, 0o600)
    assert _map_and_booklet(scenario) == fresh
    assert all(isinstance(pickle.loads(e.read_bytes()), list) for e in entries)  # written right again


def test_a_damaged_map_drawing_is_drawn_again(scenario: Scenario, empty_cache: Path) -> None:
    fresh = _map_and_booklet(scenario)
    for entry in empty_cache.glob("mapart-*.pdf"):
        entry.write_bytes(b"%PDF-1.4 damaged")
    for entry in empty_cache.glob("mappicture-*.pickle"):
        entry.write_bytes(b"damaged")
    assert _map_and_booklet(scenario) == fresh


def test_a_picture_lays_down_what_painting_draws() -> None:
    """The operators of a recorded picture are those of painting it in place, between a save
    and a restore."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.recorded import record

    def paint(c: Canvas) -> None:
        c.setFillColorRGB(0.2, 0.4, 0.6)
        c.rect(1, 2, 30, 40, stroke=1, fill=1)
        c.circle(10, 10, 5)

    def drawn(draw: object) -> str:
        c = Canvas(io.BytesIO(), invariant=1)
        c.setStrokeColorRGB(1, 0, 0)
        draw(c)  # type: ignore[operator]
        c.line(0, 0, 5, 5)
        return "\n".join(c._code)  # type: ignore[attr-defined]

    def directly(c: Canvas) -> None:
        c.saveState()
        paint(c)
        c.restoreState()

    picture = record(paint, 30, 40)
    assert drawn(picture.draw) == drawn(directly)
    assert (picture.width, picture.height) == (30, 40)


def test_a_picture_that_names_a_resource_is_refused() -> None:
    """Text names a font of the page: it could not be laid down on another canvas."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.recorded import record

    def paint(c: Canvas) -> None:
        c.setFont("Helvetica", 9)
        c.drawString(0, 0, "Kiev")

    with pytest.raises(ValueError, match="Tf"):
        record(paint, 10, 10)


def test_a_changed_template_is_compiled_afresh(tmp_path: Path, empty_cache: Path) -> None:
    from kitgen.templates import environment

    folder = tmp_path / "t"
    folder.mkdir()
    template = folder / "say.j2"
    template.write_text("first {{ x }}")
    assert environment(folder).get_template("say.j2").render(x=1) == "first 1"
    assert list(empty_cache.glob("template-*.jinja"))
    template.write_text("second {{ x }}, longer")
    assert environment(folder).get_template("say.j2").render(x=1) == "second 1, longer"


def test_compiled_code_others_could_write_is_never_run(tmp_path: Path, empty_cache: Path) -> None:
    """A kept template whose file anyone else may write is compiled afresh, not run."""
    import marshal
    import pickle

    from jinja2.bccache import bc_magic

    from kitgen.templates import environment

    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "say.j2").write_text("ours {{ x }}")
    (folder / "other.j2").write_text("THEIRS {{ x }}")
    environment(folder).get_template("other.j2")
    (theirs,) = empty_cache.glob("template-*.jinja")
    environment(folder).get_template("say.j2")
    (ours,) = set(empty_cache.glob("template-*.jinja")) - {theirs}

    def code_after_checksum(data: bytes) -> tuple[object, bytes]:
        stream = io.BytesIO(data[len(bc_magic) :])
        checksum = pickle.load(stream)
        return checksum, stream.read()

    checksum, _ = code_after_checksum(ours.read_bytes())
    _, their_code = code_after_checksum(theirs.read_bytes())
    marshal.loads(their_code)  # the other template's compiled code, whole
    ours.write_bytes(bc_magic + pickle.dumps(checksum, 2) + their_code)  # under our source's checksum
    os.chmod(ours, 0o600)
    assert environment(folder).get_template("say.j2").render(x=1) == "THEIRS 1"  # a private entry is run
    ours.write_bytes(bc_magic + pickle.dumps(checksum, 2) + their_code)
    os.chmod(ours, 0o666)
    assert environment(folder).get_template("say.j2").render(x=1) == "ours 1"
