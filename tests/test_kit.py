"""`kitgen kit` (issue 5): every part written, `campaign-kit.pdf` joining them behind a
contents page with an outline, exact page sizes, embedded fonts, metadata, a summary."""

from __future__ import annotations

import io
import json
import multiprocessing
import re
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from kitgen.cli import app
from kitgen.errors import UsageError
from kitgen.outputs import MANIFEST
from kitgen.render.pages import PAPER
from tests.conftest import SET_AS_TYPED

EXPECTED = [
    "rules-a4.pdf",
    "rules-booklet-a5.pdf",
    "map-poster.pdf",
    "map-tiles-a4.pdf",
    "counters-a4.pdf",
    "cards-a4.pdf",
    "player-aids-a4.pdf",
    "setup-chart-a4.pdf",
    "forms-a4.pdf",
    "campaign-kit-duplex-a4.pdf",
    "campaign-kit-single-sided-a4.pdf",
]
JOINED = {"campaign-kit-duplex-a4.pdf", "campaign-kit-single-sided-a4.pdf"}
TWO_SIDED = ["rules-a4.pdf", "counters-a4.pdf", "cards-a4.pdf", "player-aids-a4.pdf"]
"""The parts printed on both sides (issue 14: the rules like a book, the aids as two-sided cards)."""


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("kit")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(tmp_path_factory.mktemp("cache")))
        mp.setenv("COLUMNS", "200")
        result = CliRunner().invoke(app, ["kit", "--paper", "a4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_the_kit_writes_every_part_and_lists_them(kit: tuple[Path, str]) -> None:
    """Issue 5: "It writes the parts as separate PDFs and one combined campaign-kit.pdf"; "a clear
    summary at the end listing every file, its pages and what it is for"."""
    out, summary = kit
    assert sorted(p.name for p in out.glob("*.pdf")) == sorted(EXPECTED)
    assert json.loads((out / MANIFEST).read_text())["files"] == sorted(EXPECTED)
    for name in EXPECTED:
        pages = len(PdfReader(out / name).pages)
        assert re.search(rf"{re.escape(name)}\s+│?\s*{pages}\b", summary), (name, pages)


@pytest.mark.parametrize("joined", sorted(JOINED))
def test_the_combined_kit_has_a_contents_page_and_an_outline(kit: tuple[Path, str], joined: str) -> None:
    """Issue 5: "one combined campaign-kit.pdf with bookmarks and a contents page"; issue 14: split
    in two, the two-sided parts (each starting on a right-hand page) and the one-sided ones: every
    part but the poster and the imposed booklet (the same pages again) in one of them, in order,
    its first page named on the contents page."""
    out, _ = kit
    loose = [n for n in EXPECTED if n not in ("map-poster.pdf", "rules-booklet-a5.pdf") and n not in JOINED]
    two = joined == "campaign-kit-duplex-a4.pdf"
    names = [n for n in loose if (n in TWO_SIDED) == two]
    counts = [len(PdfReader(out / n).pages) for n in names]
    expected, page = [], 2  # 1-based; the contents page first
    for count in counts:
        if two and page % 2 == 0:  # fronts on right-hand (odd) pages, for duplex
            page += 1
        expected.append(page)
        page += count
    reader = PdfReader(out / joined)
    assert len(reader.pages) == page - 1
    contents = re.sub(r"\s+", " ", reader.pages[0].extract_text())
    tops = [item for item in reader.outline if not isinstance(item, list)]
    starts = [reader.get_destination_page_number(item) + 1 for item in tops]  # type: ignore[arg-type]
    assert starts == expected and (not two or all(s % 2 == 1 for s in starts))
    for name, item, start in zip(names, tops, starts, strict=True):  # "Rules booklet ....... 3"
        assert name in contents, name
        assert re.search(rf"{re.escape(item.title)} [. ]*{start}\b", contents), (item.title, start)
    assert reader.metadata is not None and str(reader.metadata.title).startswith("Denikin's War: the campaign kit")


def test_every_page_is_exactly_a4_and_every_font_embedded(kit: tuple[Path, str]) -> None:
    """Issue 5: "pdfinfo/pdffonts (poppler) show every font embedded and the expected page sizes";
    the booklet's imposed sheets are A4 landscape, the poster its own size."""
    out, _ = kit
    w, h = PAPER["a4"]
    for name in EXPECTED:
        if name == "map-poster.pdf":
            continue
        for page in PdfReader(out / name).pages:
            size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
            assert size == pytest.approx(sorted((w, h)), abs=0.01), name
        try:
            listing = subprocess.run(["pdffonts", str(out / name)], capture_output=True, check=True).stdout.decode()
        except FileNotFoundError:
            pytest.skip("pdffonts (poppler-utils) is not installed")
        rows = listing.splitlines()[2:]
        assert rows and all(re.search(r"\byes\s+yes\s+yes\b", r) for r in rows), (name, rows)
        meta = PdfReader(out / name).metadata
        assert meta is not None and meta.author == "kitgen" and meta.title and meta.subject, name


def test_the_combined_kit_is_the_same_on_a_rerun() -> None:
    """Issue 5: "The same inputs give byte-identical PDFs on a rerun" (the join included)."""
    from kitgen.loader import load_scenario
    from kitgen.products.kit import combined
    from kitgen.render.pages import Part

    scenario = load_scenario("denikin-1919")
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=PAPER["a4"], invariant=1)
    c.showPage()
    c.save()
    one = Part("x.pdf", "X", "a test", buffer.getvalue(), 1, (("first", 0),))
    two = Part("y.pdf", "Y", "a test", buffer.getvalue(), 1, (("first", 0),), duplex=True)
    first, again = combined(scenario, [one, two], "a4"), combined(scenario, [one, two], "a4")
    assert [p.file for p in first] == ["campaign-kit-duplex-a4.pdf", "campaign-kit-single-sided-a4.pdf"]
    assert [p.pdf for p in first] == [p.pdf for p in again]


def test_a_failed_kit_leaves_earlier_files_untouched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Standards: "a failed run leaves earlier outputs ... untouched": the parts are all built
    before any file is written, and the folder of an earlier kit is left as it was."""
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "kit"
    out.mkdir()
    (out / "rules-a4.pdf").write_bytes(b"earlier")
    (out / MANIFEST).write_text('{"files": ["rules-a4.pdf"]}')

    def broken(*_: object) -> list[object]:
        raise RuntimeError("the counters broke")

    monkeypatch.setattr("kitgen.products.counters.build_counters", broken)
    result = CliRunner().invoke(app, ["kit", "--out", str(out)])
    assert result.exit_code != 0
    assert (out / "rules-a4.pdf").read_bytes() == b"earlier"
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "rules-a4.pdf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "kit"]


def test_the_kit_refuses_a_folder_of_the_users(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is lost: `--out` naming a folder that holds files kitgen did not write is refused,
    before anything is built, and the files stay."""
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(app, ["kit", "--out", str(tmp_path)])
    assert result.exit_code != 0 and isinstance(result.exception, UsageError)
    assert result.exception.msg.code == "out.foreign_files" and "notes.txt" in result.exception.msg.text
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_every_part_of_several_pages_has_bookmarks(kit: tuple[Path, str]) -> None:
    """Issue 5: "bookmarks": each part's PDF opens with an outline of its sections (the imposed
    booklet aside: its sides hold pages out of order, by design)."""
    out, _ = kit
    for name in EXPECTED:
        reader = PdfReader(out / name)
        if len(reader.pages) > 1 and name != "rules-booklet-a5.pdf":
            assert len(reader.outline) >= 2, name


needs_fork = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)


@needs_fork
def test_parts_built_in_the_background_are_the_same() -> None:
    """The parts built in a forked worker while the booklet is set are byte for byte the parts
    built one after another in this process."""
    from kitgen.loader import load_scenario_map
    from kitgen.products.kit import BACKGROUND, kit_builders

    scenario, hex_map = load_scenario_map("denikin-1919")
    both = []
    for background in (True, False):
        steps = list(kit_builders(scenario, hex_map, "a4", background=background))
        both.append([(what, [(p.file, p.pdf) for p in build()]) for what, build in steps])
    assert both[0] == both[1]
    assert set(BACKGROUND) < {what for what, _ in both[0]}


@needs_fork
def test_the_joined_files_are_the_same_joined_in_the_background() -> None:
    """The single-sided file joined in a forked worker while this process joins the two-sided
    one is byte for byte the file joined here."""
    from kitgen.loader import load_scenario_map
    from kitgen.products.kit import build_parts, combined, kit_builders

    scenario, hex_map = load_scenario_map("denikin-1919")
    parts = build_parts(list(kit_builders(scenario, hex_map, "a4", background=False)))
    joined = [combined(scenario, parts, "a4", background=background) for background in (True, False)]
    assert [(p.file, p.pdf) for p in joined[0]] == [(p.file, p.pdf) for p in joined[1]]
    assert [p.file for p in joined[0]] == ["campaign-kit-duplex-a4.pdf", "campaign-kit-single-sided-a4.pdf"]


@needs_fork
def test_a_part_that_fails_in_the_background_fails_the_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's error is raised where the part is asked for."""
    from kitgen.loader import load_scenario_map
    from kitgen.products.kit import BACKGROUND, kit_builders

    def broken(*_: object) -> list[object]:
        raise RuntimeError("the aids broke")

    monkeypatch.setattr("kitgen.products.playeraids.build_charts", broken)
    scenario, hex_map = load_scenario_map("denikin-1919")
    steps = dict(kit_builders(scenario, hex_map, "a4", background=True))
    assert [p.file for p in steps["map"]()] == ["map-poster.pdf", "map-tiles-a4.pdf"]
    assert "player aids" in BACKGROUND
    with pytest.raises(RuntimeError, match="the aids broke"):
        steps["player aids"]()


def test_the_setup_chart_lists_every_starting_unit_in_its_hex(kit: tuple[Path, str]) -> None:
    """Issue 12: the map is printed clean, so the set-up chart says where each unit starts: every
    set-up unit in a row of its faction's table with its starting hex, and printed there."""
    from kitgen.loader import load_scenario_map
    from kitgen.mapping.places import place_hexes
    from kitgen.model.scenario import name_key
    from kitgen.products.setupchart import setup_rows

    out, _ = kit
    scenario, hex_map = load_scenario_map("denikin-1919")
    hexes = place_hexes(scenario, hex_map)
    reader = PdfReader(out / "setup-chart-a4.pdf")
    texts = [page.extract_text().translate(SET_AS_TYPED) for page in reader.pages]  # quotes as typed
    for faction in scenario.meta.factions:
        rows = {(row[0], row[2]) for row in setup_rows(scenario, hexes, faction)}
        units = [u for u in scenario.setup.units if u.faction == faction.id]
        assert {(hexes[name_key(u.at)], u.name) for u in units} <= rows
        if units:
            (text,) = [  # under its page's band, or its own heading on a page it shares (issue 44)
                t for t in texts if t.splitlines()[0].startswith(faction.name) or f"{faction.name.upper()}: SET-UP" in t
            ]
            assert all(u.name in text and hexes[name_key(u.at)] in text for u in units)


def test_the_card_key_ties_each_printed_reference_to_its_id(kit: tuple[Path, str]) -> None:
    """Issue 14: software ids leave the pieces ("moves to a key sheet"): the set-up chart's card key
    gives every event card's and slip's printed reference (its place in its deck: 'Event 17',
    'Red slip 7') on the line of the id the logs and `kitgen state` name."""
    from kitgen.loader import load_scenario

    out, _ = kit
    scenario = load_scenario("denikin-1919")
    lines = [
        " ".join(line.split())
        for page in PdfReader(out / "setup-chart-a4.pdf").pages
        for line in page.extract_text(extraction_mode="layout").splitlines()
    ]
    adjective = {f.id: f.adjective for f in scenario.meta.factions}
    wanted = [(f"Event {n}", c.id) for n, c in enumerate(scenario.cards.events, start=1)]
    wanted += [
        (f"{adjective[f]} slip {n}", slip.id)
        for f, pile in scenario.cards.piles.items()
        for n, slip in enumerate(pile, start=1)
    ]
    for label, ident in wanted:
        assert any(line.startswith(label + " ") and line.endswith(" " + ident) for line in lines), (label, ident)


def _font_names(reader: PdfReader) -> list[str]:
    from kitgen.render.pdffonts import fonts_of

    seen: set[int] = set()
    return [str(f["/BaseFont"]) for page in reader.pages for f in fonts_of(page.get("/Resources"), seen)]


@pytest.mark.parametrize("name", EXPECTED)
def test_print_shop_every_page_declares_its_trim_and_bleed(kit: tuple[Path, str], name: str) -> None:
    """Issue 14: "Every part declares TrimBox and BleedBox", inside its MediaBox; issue 25: "Every
    rules and booklet page ... has no TrimBox or BleedBox" (read before pypdf's accessors, which
    fill in a missing box with the MediaBox)."""
    out, _ = kit
    for number, page in enumerate(PdfReader(out / name).pages, 1):
        assert "/TrimBox" in page and "/BleedBox" in page, (name, number)
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        for box in (trim, bleed):
            assert media.left <= box.left and media.bottom <= box.bottom, name
            assert box.right <= media.right and box.top <= media.top, name
        assert bleed.left <= trim.left and trim.right <= bleed.right, name
        assert bleed.bottom <= trim.bottom and trim.top <= bleed.top, name


CUT = {"cards-a4.pdf": "card", "counters-a4.pdf": "counter", "map-tiles-a4.pdf": "tile"}


@pytest.mark.parametrize("name", sorted(CUT))
def test_issue25_parts_that_are_cut_declare_their_real_trim_and_bleed(kit: tuple[Path, str], name: str) -> None:
    """Issue 25, item 8: "Parts that are cut (cards, counters, map tiles, posters) declare their
    real bleed and trim": on every page of pieces, the TrimBox is the outline of the pieces'
    cuts, inside the page's margins (not the page), and on the cards the BleedBox runs the
    cards' bleed past it."""
    from kitgen.render.cardstyle import card_style
    from kitgen.render.pages import MM

    out, _ = kit
    bleed_pt = card_style().card.bleed_mm * MM
    pieces = 0
    for number, page in enumerate(PdfReader(out / name).pages, 1):
        media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
        if trim == media:
            assert CUT[name] == "tile" and number <= 2, (name, number)  # the tiles' assembly page and key
            continue
        pieces += 1
        assert media.left < trim.left and trim.right < media.right, (name, number)
        assert media.bottom < trim.bottom and trim.top < media.top, (name, number)
        if CUT[name] == "card":
            outside = float(trim.left) - float(bleed.left)
            assert outside == pytest.approx(bleed_pt, abs=0.01), (name, number, outside)
    assert pieces >= 4, name


@pytest.mark.parametrize("name", EXPECTED)
def test_print_shop_every_part_declares_its_colours_with_an_output_intent(kit: tuple[Path, str], name: str) -> None:
    """Issue 14: "All colour is DeviceRGB, with no output intent": every file says what its RGB
    means, an /OutputIntents entry carrying an sRGB ICC profile (a display-class profile, its
    header read here) that a RIP can convert from."""
    out, _ = kit
    reader = PdfReader(out / name)
    (intent,) = [i.get_object() for i in reader.trailer["/Root"]["/OutputIntents"]]
    assert intent["/Type"] == "/OutputIntent" and intent["/OutputConditionIdentifier"] == "sRGB IEC61966-2.1"
    profile = intent["/DestOutputProfile"].get_object()
    data = profile.get_data()
    assert profile["/N"] == 3
    assert data[36:40] == b"acsp" and data[16:20] == b"RGB " and int.from_bytes(data[:4], "big") == len(data)
    assert data[12:16] == b"mntr" and data[20:24] == b"XYZ "  # sRGB: a monitor profile to the XYZ connection space


@pytest.mark.parametrize("name", EXPECTED)
def test_print_shop_font_subsets_have_names_of_their_own(kit: tuple[Path, str], name: str) -> None:
    """Issue 14: "Unique subset names when files are joined": no two subsets in a file share one
    name, the combined kit's included; and every font is embedded."""
    out, _ = kit
    reader = PdfReader(out / name)
    names = _font_names(reader)
    assert names and len(names) == len(set(names)), name
    for page in reader.pages:
        from kitgen.render.pdffonts import fonts_of

        for font in fonts_of(page.get("/Resources")):
            descriptor = font["/FontDescriptor"].get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (name, font["/BaseFont"])


def test_print_shop_the_combined_kit_labels_its_pages_by_part(kit: tuple[Path, str]) -> None:
    """Issue 14: "Page labels in campaign-kit.pdf (Rules 1-19 ...)"; the rules' cover on a right-hand page."""
    out, _ = kit
    reader = PdfReader(out / "campaign-kit-duplex-a4.pdf")
    labels = reader.page_labels
    assert labels[0] == "Contents" and len(labels) == len(reader.pages)
    first = labels.index("Rules 1")
    assert first % 2 == 0, "the rules' cover is an odd page: a right-hand one"
    rules = len(PdfReader(out / "rules-a4.pdf").pages)
    assert labels[first + rules - 1] == f"Rules {rules}"
    assert all(label for label in labels)
    single = PdfReader(out / "campaign-kit-single-sided-a4.pdf").page_labels
    tiles = len(PdfReader(out / "map-tiles-a4.pdf").pages)
    assert single[0] == "Contents" and single[1] == "Map tiles 1" and f"Map tiles {tiles}" in single


def test_the_manuals_page_counts_are_the_kits(kit: tuple[Path, str]) -> None:
    """Issue 14: "The README's page counts are produced by a test, so they cannot drift": the
    manual's table of the boxed kit (docs/clubs/kit.md) names every file of the A4 kit with the
    pages it has."""
    out, _ = kit
    readme = (Path(__file__).resolve().parent.parent / "docs" / "clubs" / "kit.md").read_text(encoding="utf-8")
    table = readme[readme.index("| file | pages (A4) | what it is |") :].split("\n\n")[0]
    rows = dict(re.findall(r"^\| `([^`]+\.pdf)` \| (\d+) \|", table, re.MULTILINE))
    assert sorted(rows) == sorted(EXPECTED)
    for name, pages in rows.items():
        assert len(PdfReader(out / name).pages) == int(pages), (name, pages)


@pytest.mark.parametrize("name", ["campaign-kit-duplex", "campaign-kit-single-sided"])
def test_issue25_the_combined_kits_contents_page_passes_the_layout_gate(kit: tuple[Path, str], name: str) -> None:
    """Issue 25, item 1, on the pages the combined kits add to the parts (each part's own pages
    pass the gate in its own tests): the contents page, and the whole file's fonts and qpdf's
    check."""
    import io

    from pypdf import PdfWriter

    from tests.layoutgate import assert_passes, fonts_unembedded, qpdf_problems

    folder, _ = kit
    pdf = (folder / f"{name}-a4.pdf").read_bytes()
    first = PdfWriter()
    first.add_page(PdfReader(io.BytesIO(pdf)).pages[0])
    page = io.BytesIO()
    first.write(page)
    assert_passes(page.getvalue(), name=f"{name}: contents page")
    whole = fonts_unembedded(pdf) + qpdf_problems(pdf)
    assert not whole, whole
