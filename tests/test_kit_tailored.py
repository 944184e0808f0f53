"""Each scenario's own kit (issue 44): the turn track, the map's key and notes, and the rules
print what the scenario uses and nothing else. The Tsaritsyn scenario (three turns, open steppe,
no ships) against the Denikin campaign (no last turn, every terrain, a navy)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.loader import load_scenario
from kitgen.mapping.hexmap import HexMap
from kitgen.products.booklet import booklet_text, tables
from tests import pdftext
from tests.conftest import kitgen_map

TSARITSYN = "tsaritsyn-1919"
DENIKIN = "denikin-1919"
DATE = re.compile(r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b")


@pytest.fixture(scope="module")
def tsaritsyn_map(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("tsaritsyn-map")
    kitgen_map(out, cache_dir, TSARITSYN)
    return out


def poster_text(folder: Path) -> str:
    return " ".join(pdftext.page_texts((folder / "map-poster.pdf").read_bytes())[0].split())


def key_text(folder: Path) -> str:
    """The poster's key and notes: its text from the map's title on."""
    text = poster_text(folder)
    return text[text.index("One hex is") :]


def built_map(scenario: str, cache_dir: Path) -> HexMap:
    from kitgen.loader import load_scenario_map

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(cache_dir))
        return load_scenario_map(scenario)[1]


def test_issue44_the_turn_track_has_a_box_a_turn_of_the_scenario(tsaritsyn_map: Path, a4: Path) -> None:
    """Issue 44: "the turn track, as many boxes as the scenario has turns, dated": the Tsaritsyn
    scenario's last turn is its third, and the Denikin campaign, which has none, keeps its track."""
    track = key_text(tsaritsyn_map)[key_text(tsaritsyn_map).index("Turn record") :]
    assert len(DATE.findall(track)) == load_scenario(TSARITSYN).meta.turns.last == 3
    assert "END" in track
    denikin = key_text(a4)[key_text(a4).index("Turn record") :]
    assert len(DATE.findall(denikin)) == 24 and "END" not in denikin


@pytest.mark.parametrize("scenario", [TSARITSYN, DENIKIN])
def test_issue44_the_key_shows_the_terrain_of_its_map_and_no_other(
    scenario: str, tsaritsyn_map: Path, a4: Path, cache_dir: Path
) -> None:
    """Issue 44: "a legend of the terrain and features on its map": each terrain of the rules is
    in the key if and only if a hex of the map has it; so are ports and ferries."""
    folder = tsaritsyn_map if scenario == TSARITSYN else a4
    key = key_text(folder)
    built = built_map(scenario, cache_dir)
    on_map = {h.terrain for h in built.hexes}
    for terrain in load_scenario(scenario).movement.terrain:
        if terrain.id == "sea":
            assert ("Sea hex" in key) == (terrain.id in on_map)
        else:
            assert (re.search(rf"\b{terrain.name}\b", key) is not None) == (terrain.id in on_map), terrain.name
    assert (" Port " in f" {key} ") == any(h.port for h in built.hexes)
    assert ("Ferry on a major river" in key) == bool(built.ferries)
    assert ("Road (" in key) == bool(built.roads)


@pytest.mark.parametrize("scenario", [TSARITSYN, DENIKIN])
def test_issue44_the_map_notes_give_the_grid_as_printed(
    scenario: str, tsaritsyn_map: Path, a4: Path, cache_dir: Path
) -> None:
    """Issue 44: "map notes from the real grid" (the Tsaritsyn map said "54 columns x 18 rows" and
    showed 10 x 12): the columns and rows the map has, with their first and last ids where the map
    is a window of the larger grid."""
    built = built_map(scenario, cache_dir)
    cols, rows = sorted({h.col for h in built.hexes}), sorted({h.row for h in built.hexes})
    key = key_text(tsaritsyn_map if scenario == TSARITSYN else a4)
    if cols[0] == 1 and rows[0] == 1:
        said = f"{len(cols)} columns x {len(rows)} rows"
    else:
        said = f"{len(cols)} columns ({cols[0]:02d}–{cols[-1]:02d}) x {len(rows)} rows ({rows[0]:02d}–{rows[-1]:02d})"
    assert said in key
    assert scenario != TSARITSYN or "10 columns (45–54) x 12 rows (07–18)" in key


def _booklet(scenario: str) -> str:
    return " ".join(text for _, text in booklet_text(load_scenario(scenario)))


def test_issue44_a_scenario_without_ships_leaves_out_the_naval_rules_and_says_so() -> None:
    """Issue 44: "rules sections for what its pieces can do (no naval section without ships), with
    the booklet saying what it leaves out and why"."""
    tsaritsyn, denikin = _booklet(TSARITSYN), _booklet(DENIKIN)
    assert not load_scenario(TSARITSYN).setup.ships and load_scenario(DENIKIN).setup.ships
    for rule in ("Ships move up to", "Ports held open", "Naval gunfire", "Amphibious landings on coastal hexes"):
        assert rule not in tsaritsyn and rule in denikin
    assert "has no ships and no ports on its map, so the campaign's naval rules" in tsaritsyn
    loads = {name: [row[0] for row in tables(load_scenario(name), {})["loads"]] for name in (TSARITSYN, DENIKIN)}
    assert "Ship capacity" not in loads[TSARITSYN] and "Ship capacity" in loads[DENIKIN]  # the loads table too
    assert "Left out: this scenario has no ships" in tsaritsyn


def test_issue44_the_player_aids_give_ships_only_where_the_scenario_has_them() -> None:
    """Issue 44: the aids print what the scenario's pieces can do: the Tsaritsyn aid gives trains
    and no ships; the Denikin aid gives both."""
    from kitgen.products.playeraids import build_charts

    def aid(scenario: str) -> str:
        (part, *_) = build_charts(load_scenario(scenario), "a4")
        return " ".join(" ".join((p.extract_text() or "") for p in PdfReader(io.BytesIO(part.pdf)).pages).split())

    tsaritsyn, denikin = aid(TSARITSYN), aid(DENIKIN)
    assert "Train: carries" in tsaritsyn and "Ship:" not in tsaritsyn and "TRAINS AND SHIPS" not in tsaritsyn
    assert not re.search(r"\bships?\b", tsaritsyn, re.IGNORECASE)
    assert "Train: carries" in denikin and "Ship: 16 hexes a turn" in denikin


@pytest.mark.parametrize("scenario", [TSARITSYN, DENIKIN])
def test_issue44_no_set_up_page_but_the_last_is_under_half_full(scenario: str) -> None:
    """Issue 44: "The Ukrainian and Makhnovist set-up pages are about 15% full" and "Card key 3 of
    3 holds two rows": a short set-up shares the page before, and the card key starts under the
    last one. Measured by where each page's words end, between the top margin and the footer."""
    import pymupdf

    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from kitgen.products.setupchart import build_setup_chart
    from kitgen.render.formstyle import form_style

    s = load_scenario(scenario)
    built, _ = hex_map(s)
    assert built is not None
    (part,) = build_setup_chart(s, place_hexes(s, built), "a4")
    st = form_style()
    mm = 72 / 25.4
    with pymupdf.open(stream=part.pdf, filetype="pdf") as doc:
        fills = []
        for page in doc:
            top, bottom = st.margin_mm * mm, page.rect.height - (st.margin_mm + st.footer_mm) * mm
            ends = [w[3] for w in page.get_text("words") if w[3] <= bottom]
            fills.append((max(ends) - top) / (bottom - top))
    assert all(fill >= 0.5 for fill in fills[:-1]), fills


def test_issue44_the_battle_sheet_asks_only_about_what_the_map_and_the_pieces_have() -> None:
    """Issue 44: the forms print what the scenario uses: the battle set-up sheet's terrain boxes
    are the terrain of its map (no forest, mountain, marsh or coast at Tsaritsyn), and a scenario
    without ships has no naval gunfire box."""
    from kitgen.products.forms import build_forms

    def sheet_text(scenario: str) -> str:
        (part, *_) = build_forms(load_scenario(scenario), "a4")
        pages = [p.extract_text() or "" for p in PdfReader(io.BytesIO(part.pdf)).pages]
        return " ".join(" ".join(p for p in pages if "Battle setup sheet" in p).split())

    tsaritsyn, denikin = sheet_text(TSARITSYN), sheet_text(DENIKIN)
    for word in ("Forest", "Mountain", "Marsh", "Coastal hex", "Naval gunfire", "NAVAL GUNFIRE"):
        assert word not in tsaritsyn
    for word in ("Forest", "Mountain", "Marsh", "Coastal hex", "NAVAL GUNFIRE"):
        assert word in denikin, word
    assert "Open" in tsaritsyn and "Major river" in tsaritsyn


def test_issue44_a_small_maps_key_takes_the_paper_it_needs(tsaritsyn_map: Path) -> None:
    """Issue 44: "no wasted pages" and paper as the club's cost: a map too narrow for a key band
    has its key under it in a block as tall as its title, entries and turn track need (the
    Tsaritsyn key has 12 entries and 3 turns), with no band of empty paper in it."""
    import subprocess

    import numpy as np

    from kitgen.render.style import map_style

    dpi = 20
    out = subprocess.run(
        ["pdftoppm", "-gray", "-r", str(dpi), str(tsaritsyn_map / "map-poster.pdf")], capture_output=True, check=True
    ).stdout
    header_end = out.index(b"255\n") + 4
    width, height = (int(v) for v in out[3:header_end].split()[:2])
    image = np.frombuffer(out[header_end:], dtype=np.uint8).reshape(height, width)
    margin = round(map_style().poster.margin_in * dpi)
    inked = np.nonzero(image[:, margin:-margin].min(axis=1) < 200)[0]  # the rows with ink
    key = inked[inked > height * 0.55]  # under the map
    assert (height - key.max()) / dpi * 25.4 <= map_style().poster.margin_in * 25.4 + 5  # no paper under it
    longest = max(np.diff(key)) / dpi * 25.4
    assert longest <= 15, f"{longest:.0f} mm of empty paper in the key"
