"""The printed cards: the event deck (II.A), the reinforcement piles (II.E) and the commander cards
(II.C), poker size with bleed and crop marks, backs mirrored for long-edge duplex.

Text is checked with pypdf; pixels with poppler's pdftoppm at 150 dpi."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdf
import pytest
from PIL import Image

from kitgen.loader import load_scenario
from kitgen.model.forces import Effect
from kitgen.model.scenario import Scenario
from kitgen.products.cards import CardOverflow, build_cards, effect_text, event_front
from kitgen.render.cardsheet import (
    back_slots,
    card_slots,
    crop_mark_lines,
    draw_crop_marks,
    shared_columns,
    shared_rows,
)
from kitgen.render.cardstyle import card_style
from kitgen.render.pages import MM, PAPER, Part, hex_colour, new_canvas
from tests import pdftext
from tests.conftest import SET_AS_TYPED

STYLE = card_style()
CARD_W, CARD_H = 63 * MM, 88 * MM
BLEED = 3 * MM
DPI = 150
K = DPI / 72
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")

poppler = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdffonts", "pdftoppm")),
    reason="poppler-utils (make system-deps) is needed to inspect the PDFs",
)


@pytest.fixture(scope="module")
def parts(scenario: Scenario, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Part, Path]]:
    folder = tmp_path_factory.mktemp("cards")
    out = {}
    for paper in ("a4", "letter"):
        [part] = build_cards(scenario, paper)
        path = folder / part.file
        path.write_bytes(part.pdf)
        out[paper] = (part, path)
    return out


@pytest.fixture(scope="module")
def texts(parts: dict[str, tuple[Part, Path]]) -> dict[str, list[str]]:
    """Each paper's pages as text, whitespace collapsed."""
    return {
        paper: [words(text) for text in pdftext.page_texts(path.read_bytes())] for paper, (_, path) in parts.items()
    }


def words(text: str) -> str:
    return " ".join(text.translate(SET_AS_TYPED).split())


def render(path: Path, page: int) -> np.ndarray:
    """Page `page` (0-based) as an RGB array at 150 dpi."""
    png = subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-png", "-f", str(page + 1), "-l", str(page + 1), str(path)],
        capture_output=True,
        check=True,
    ).stdout
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def render_pages(path: Path, dpi: int) -> list[np.ndarray]:
    """Every page as an RGB array at `dpi`, in one run of pdftoppm."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(dpi), str(path), f"{tmp}/p"], check=True)
        return [np.asarray(Image.open(p).convert("RGB")).astype(int) for p in sorted(Path(tmp).glob("p-*.ppm"))]


def pixel(image: np.ndarray, page_h: float, x: float, y: float, k: float = K) -> np.ndarray:
    """The pixel at page point (x, y) of a page rendered at `k` pixels a point."""
    return image[int(round((page_h - y) * k)), int(round(x * k))]


def colour(value: str) -> np.ndarray:
    return np.array([round(v * 255) for v in hex_colour(value)])


Placed = tuple[int, int, str, str, str]
"""(sheet, slot, deck title, front colour, back colour) of a card."""


def placed(scenario: Scenario, paper: str) -> list[Placed]:
    """Every card's place, written out from the rules the cards follow: the decks in order (the
    events, each faction's pile in the scenario's order, the commanders by faction), each card
    on the next free slot of nine, except that a card of other colours than the one before
    starts a new row of three, and on US Letter, where the rows butt, leaves a row empty before
    it (issue 25, item 7: "gutters ... where neighbours differ")."""
    order = [f.id for f in scenario.meta.factions]

    def faction_colour(faction: str) -> str:
        found = scenario.faction(faction)
        return found.colour if found else STYLE.colours.events

    events = STYLE.colours.events
    looks = [("Event deck", events, events)] * len(scenario.cards.events)
    for faction in sorted(scenario.cards.piles, key=lambda f: order.index(f) if f in order else len(order)):
        found = scenario.faction(faction)
        title = f"{found.adjective if found else faction} reinforcement pile"
        looks += [(title, faction_colour(faction), faction_colour(faction))] * len(scenario.cards.piles[faction])
    for m in sorted(scenario.commanders, key=lambda m: order.index(m.faction) if m.faction in order else len(order)):
        looks.append(("Commanders", faction_colour(m.faction), STYLE.colours.commanders_back))
    out: list[Placed] = []
    sheet = slot = 0
    for k, (title, front, back) in enumerate(looks):
        if k and (front, back) != looks[k - 1][1:]:
            if slot % 3:
                slot += 3 - slot % 3
            if paper == "letter" and slot:
                slot += 3  # a row left empty between
        if slot >= 9:
            sheet, slot = sheet + 1, 0
        out.append((sheet, slot, title, front, back))
        slot += 1
    return out


def deck_pages(scenario: Scenario, paper: str, title: str) -> range:
    """The pages of one deck, fronts and backs: from the sheet of its first card to that of its last."""
    sheets = [sheet for sheet, _, deck, _, _ in placed(scenario, paper) if deck == title]
    return range(2 * min(sheets), 2 * max(sheets) + 2)


def front_colours(scenario: Scenario, paper: str, sheet: int) -> list[str | None]:
    """The colour each slot of a sheet's fronts bleeds in; None for an empty slot."""
    slots: list[str | None] = [None] * 9
    for on, slot, _, front, _ in placed(scenario, paper):
        if on == sheet:
            slots[slot] = front
    return slots


# --- content ---------------------------------------------------------------------------------


def test_every_event_title_slip_and_commander_is_printed(texts: dict[str, list[str]], scenario: Scenario) -> None:
    """Each card carries its printed reference, its place in its deck ('Event 17', 'Red slip 7'),
    and no software id (issue 14; the umpire's key in the set-up chart ties one to the other)."""
    adjective = {f.id: f.adjective for f in scenario.meta.factions}
    for paper in ("a4", "letter"):
        text = " ".join(texts[paper])
        for n, card in enumerate(scenario.cards.events, start=1):
            assert words(card.title) in text, card.title
            assert words(card.history) in text, card.id
            assert re.search(rf"\bEvent {n}\b", text), card.id
            assert "_" not in card.id or card.id not in text, card.id
        for faction, slips in scenario.cards.piles.items():
            for n, slip in enumerate(slips, start=1):
                assert re.search(rf"\b{adjective[faction]} slip {n}\b", text), (faction, slip.id)
                assert "_" not in slip.id or slip.id not in text, slip.id
                assert words(slip.text) in text, slip.id
                for unit in slip.units:
                    assert unit.name in text, slip.id
        for commander in scenario.commanders:
            assert commander.name in text, commander.name


def test_every_effect_is_printed_in_words(texts: dict[str, list[str]], scenario: Scenario) -> None:
    text = " ".join(texts["a4"])
    for card in scenario.cards.events:
        for effect in card.effects:
            assert words(effect_text(effect, scenario)) in text, (card.id, effect.kind)


def test_59_events_make_7_sheets_of_fronts_each_followed_by_its_backs(
    parts: dict[str, tuple[Part, Path]], texts: dict[str, list[str]], scenario: Scenario
) -> None:
    assert len(scenario.cards.events) == 59
    part = parts["a4"][0]
    pages = texts["a4"]
    with_titles = [k for k, t in enumerate(pages) if any(words(e.title) in t for e in scenario.cards.events)]
    assert with_titles == [0, 2, 4, 6, 8, 10, 12]
    assert deck_pages(scenario, "a4", "Event deck") == range(0, 14)
    for k in range(1, 14, 2):  # backs: the deck's name, no card text
        assert pages[k].count("EVENTS") == (9 if k < 13 else 59 - 6 * 9)
    # issue 14: "a new deck starting on the next free card", and issue 25: on the next free row
    # where its colours differ (A4's rows have gutters): the Red pile shares the events' last sheet
    assert part.pages == 2 * (placed(scenario, "a4")[-1][0] + 1)
    assert pages[12].count("EVENT") > 0 and "RED PILE" in pages[12].upper().replace("\n", " ")


def test_discard_or_return_note_follows_the_card(texts: dict[str, list[str]], scenario: Scenario) -> None:
    """RULES-NOTES: event cards are discarded unless they say they go back; slips go back unless
    they say otherwise (II.E)."""
    text = " ".join(texts["a4"])
    back = sum(card.returns_to_deck for card in scenario.cards.events)
    assert 0 < back < len(scenario.cards.events)
    assert text.count("Return to the deck and reshuffle") == back
    assert text.count("Discard after use") == len(scenario.cards.events) - back
    slips = [slip for pile in scenario.cards.piles.values() for slip in pile]
    kept = sum(not slip.returns_to_pile for slip in slips)
    assert kept > 0
    assert text.count("Set aside: does not return") == kept
    assert text.count("Back into the pile") == len(slips) - kept


def test_commander_cards_give_rating_rank_charisma_and_the_obey_odds(
    parts: dict[str, tuple[Part, Path]], texts: dict[str, list[str]], scenario: Scenario
) -> None:
    """II.C.1 obey on a D10 at or under the rating; II.C.3 rank; II.C.5 charisma."""
    pages = " ".join(texts["a4"][k] for k in deck_pages(scenario, "a4", "Commanders"))
    for commander in scenario.commanders:
        same = sum(c.faction == commander.faction for c in scenario.commanders)
        card = pages[pages.index(f"COMMANDER {commander.name} ") :]
        adjective = next(f.adjective for f in scenario.meta.factions if f.id == commander.faction)
        label = f"{adjective} commander {scenario.rank(commander)}"  # the card's printed reference, at its foot
        card = card[: card.index(label) + len(label)]
        assert f"Rank {scenario.rank(commander)} of {same} (II.C.3)" in card
        assert f"{commander.name} {commander.dependability} DEPENDABILITY" in card
        odds = {10: "obeys on 1-10 (100%)", 1: "obeys on a 1 only (10%)"}.get(
            commander.dependability, f"obeys on 1-{commander.dependability} ({commander.dependability * 10}%)"
        )
        assert odds in card, commander.name
        assert ("CHARISMATIC" in card) == commander.charismatic, commander.name
        assert ("Not charismatic" in card) != commander.charismatic
    trotsky = scenario.commanders[0]
    assert trotsky.name == "Trotsky" and scenario.rank(trotsky) == 1


# --- effect_text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("effect", "expected"),
    [
        ({"kind": "vp", "faction": "whites", "amount": -2}, "Whites lose 2 VP."),
        ({"kind": "vp", "faction": "reds", "amount": 3}, "Reds gain 3 VP."),
        ({"kind": "draws", "faction": "reds", "draws": 1}, "Reds draw 1 extra reinforcement slip (II.E)."),
        ({"kind": "draws", "faction": "ukrainians", "draws": 2}, "Ukrainians draw 2 extra reinforcement slips (II.E)."),
        (
            {"kind": "command", "faction": "reds", "modifier": 1, "turns": 2},
            "+1 to Red command-control rolls this turn and the next (II.C): orders are harder to obey.",
        ),
        (
            {"kind": "command", "faction": "whites", "modifier": -1, "turns": 1},
            "\u22121 to White command-control rolls this turn (II.C): orders are easier to obey.",
        ),
        (
            {"kind": "movement", "faction": "whites", "modifier": 1, "turns": 2, "unit_types": ["infantry", "cavalry"]},
            "+1 MP for White infantry and cavalry this turn and the next (A).",
        ),
        (
            {"kind": "movement", "faction": "all", "modifier": -1, "turns": 1},
            "\u22121 MP for the land units of every faction this turn (A).",
        ),
        ({"kind": "supply_cut", "faction": "whites", "turns": 1}, "White units count as out of supply this turn (B)."),
        ({"kind": "track_destroyed", "at": "Kirovograd"}, "The railway at Elisavetgrad is wrecked (C.2)."),
        (
            {"kind": "alliance", "factions": ["reds", "makhnovists"], "turns": 3},
            "Reds and Makhnovists are allies, not enemies, this turn and the next 2.",
        ),
        (
            {
                "kind": "units",
                "faction": "ukrainians",
                "at": "Kirovograd",
                "units": [
                    {
                        "name": "Grigoriev's insurgents",
                        "type": "infantry",
                        "stands": {"infantry": 3, "machine_gun": 1},
                        "flags": ["partisan"],
                    }
                ],
            },
            "Joins the Ukrainians at Elisavetgrad: Grigoriev's insurgents (3 infantry, 1 machine-gun; partisan).",
        ),
        (
            {"kind": "remove_stands", "faction": "reds", "stand": "infantry", "count": 3},
            "Reds lose 3 infantry stands, from units of their choice.",
        ),
        (
            {"kind": "remove_stands", "faction": "reds", "stand": "artillery", "count": 1},
            "Reds lose 1 artillery stand, from a unit of their choice.",
        ),
        (
            {"kind": "remove_stands", "faction": "all", "stand": "infantry", "count": 2},
            "Every faction loses 2 infantry stands, from units of its choice.",
        ),
        ({"kind": "town_owner", "at": "Gulai Pole", "faction": "whites"}, "Gulai Pole passes to the Whites."),
        ({"kind": "umpire", "text": "Remove Denikin from play."}, "Umpire ruling: Remove Denikin from play."),
    ],
)
def test_effect_text(scenario: Scenario, effect: dict[str, object], expected: str) -> None:
    assert effect_text(Effect.model_validate(effect), scenario) == expected


def test_every_effect_of_the_deck_reads_as_a_sentence(scenario: Scenario) -> None:
    for card in scenario.cards.events:
        for effect in card.effects:
            text = effect_text(effect, scenario)
            assert text[-1] == "." and "None" not in text and "_" not in text, (card.id, text)


# --- the sheet: trim, bleed, crop marks ------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_slots_butting_where_the_gutters_do_not_fit(paper: str) -> None:
    """Three poker cards across butt on both papers (with gutters, bleeds, marks and the marks'
    clearance they would not fit 210 mm); down, two bleeds apart on A4, butting on US Letter."""
    page_w, page_h = PAPER[paper]
    slots = card_slots(paper, STYLE)
    assert len(slots) == 9
    assert (STYLE.card.width_mm, STYLE.card.height_mm, STYLE.card.bleed_mm) == (63, 88, 3)
    for x, y in slots:
        assert x > 0 and y > 0 and x + CARD_W < page_w and y + CARD_H < page_h
    xs, ys = sorted({round(x, 6) for x, _ in slots}), sorted({round(y, 6) for _, y in slots})
    assert len(xs) == 3 and len(ys) == 3
    assert shared_columns(paper, STYLE)
    for a, b in zip(xs, xs[1:], strict=False):
        assert b - a - CARD_W == pytest.approx(0, abs=1e-4)  # the columns share their cuts
    rows_butt = paper == "letter"
    assert shared_rows(paper, STYLE) is rows_butt
    for a, b in zip(ys, ys[1:], strict=False):
        assert b - a - CARD_H == pytest.approx(0 if rows_butt else 2 * BLEED, abs=1e-4)
    assert xs[0] == pytest.approx(page_w - xs[-1] - CARD_W)  # centred
    room = (STYLE.card.mark_clearance_mm + STYLE.card.crop_mark_mm) * MM
    assert xs[0] >= room and ys[0] >= room and page_h - ys[-1] - CARD_H >= room  # marks fit outside


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_back_slot_mirrors_the_front_for_long_edge_duplex(paper: str) -> None:
    page_w = PAPER[paper][0]
    fronts, backs = card_slots(paper, STYLE), back_slots(paper, STYLE)
    for k, ((fx, fy), (bx, by)) in enumerate(zip(fronts, backs, strict=True)):
        assert bx == pytest.approx(page_w - fx - CARD_W)
        assert by == fy
        col, row = k % 3, k // 3
        assert (bx, by) == pytest.approx(fronts[row * 3 + (2 - col)])


class Recorder:
    """A stand-in canvas that records what crop_marks draws."""

    def __init__(self) -> None:
        self.lines: list[tuple[tuple[float, float, float], float, tuple[float, float, float, float]]] = []
        self.colour = (0.0, 0.0, 0.0)
        self.width = 1.0

    def saveState(self) -> None:  # noqa: N802
        pass

    def restoreState(self) -> None:  # noqa: N802
        pass

    def setStrokeColorRGB(self, r: float, g: float, b: float) -> None:  # noqa: N802
        self.colour = (r, g, b)

    def setLineWidth(self, width: float) -> None:  # noqa: N802
        self.width = width

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.lines.append((self.colour, self.width, (x1, y1, x2, y2)))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stand_outside_the_grid_on_every_cut_and_clear_of_the_paper_edge(paper: str) -> None:
    """Issue 14: "Crop marks inside every printer's printable area (at least 5 mm from the paper
    edge)": one mark at each end of every cut line of the sheet, outside the grid (between cards
    it would print on one), a bleed out where the margin allows, over white halos."""
    page_w, page_h = PAPER[paper]
    slots = card_slots(paper, STYLE)
    rec = Recorder()
    draw_crop_marks(rec, slots, STYLE, paper)  # type: ignore[arg-type]
    black = [ln for colour, width, ln in rec.lines if colour == (0, 0, 0) and width < 0.5]
    halos = [ln for colour, width, ln in rec.lines if colour == (1, 1, 1)]
    assert sorted(halos) == sorted(black)
    xs = {round(v, 3) for x, _ in slots for v in (x, x + CARD_W)}
    ys = {round(v, 3) for _, y in slots for v in (y, y + CARD_H)}
    vertical = [ln for ln in black if ln[0] == ln[2]]
    horizontal = [ln for ln in black if ln[1] == ln[3]]
    assert len(vertical) == 2 * len(xs) and len(horizontal) == 2 * len(ys)
    assert sorted({round(ln[0], 3) for ln in vertical}) == pytest.approx(sorted(xs), abs=0.002)
    assert sorted({round(ln[1], 3) for ln in horizontal}) == pytest.approx(sorted(ys), abs=0.002)
    left, right = min(x for x, _ in slots), max(x for x, _ in slots) + CARD_W
    bottom, top = min(y for _, y in slots), max(y for _, y in slots) + CARD_H
    clear = STYLE.card.mark_clearance_mm * MM - 1e-6
    for x1, y1, x2, y2 in black:
        assert min(x1, x2) >= clear and max(x1, x2) <= page_w - clear, (paper, x1, x2)
        assert min(y1, y2) >= clear and max(y1, y2) <= page_h - clear, (paper, y1, y2)
        outside = min(y1, y2) >= top or max(y1, y2) <= bottom or min(x1, x2) >= right or max(x1, x2) <= left
        assert outside, (paper, x1, y1, x2, y2)
    for x1, _, x2, _ in horizontal:  # a bleed out from the grid where the margin allows
        assert (
            min(abs(v - left) for v in (x1, x2)) >= BLEED - 1e-6
            or min(abs(v - right) for v in (x1, x2)) >= BLEED - 1e-6
        )


def corners(x: float, y: float) -> list[tuple[float, float, float, float]]:
    """(corner x, corner y, dx, dy): each trim corner and the two outward directions along its lines."""
    out = []
    for cx, sx in ((x, -1.0), (x + CARD_W, 1.0)):
        for cy, sy in ((y, -1.0), (y + CARD_H, 1.0)):
            out += [(cx, cy, sx, 0.0), (cx, cy, 0.0, sy)]
    return out


@poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rendered_crop_marks_are_dark_and_the_paper_edge_is_clear(
    parts: dict[str, tuple[Part, Path]], paper: str
) -> None:
    """As printed: each mark's middle is dark; nothing at all is printed within the clearance of
    the paper's edge, where a desktop printer cannot print."""
    page_w, page_h = PAPER[paper]
    image = render(parts[paper][1], 0)
    for x1, y1, x2, y2 in crop_mark_lines(card_slots(paper, STYLE), STYLE, paper):
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        row, col = int(round((page_h - my) * K)), int(round(mx * K))
        assert image[row - 1 : row + 2, col - 1 : col + 2].sum(axis=2).min() < 3 * 60, (x1, y1, x2, y2)
    band = int((STYLE.card.mark_clearance_mm - 0.5) * MM * K)
    for edge in (image[:band], image[-band:], image[:, :band], image[:, -band:]):
        assert edge.min() >= 245, paper


@poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_background_bleeds_3mm_past_the_trim(parts: dict[str, tuple[Part, Path]], paper: str) -> None:
    """1.5 mm outside each trim edge the grid does not share the card's colour; on A4, 4 mm out at
    the page's margins, paper."""
    part, path = parts[paper]
    page_w, page_h = PAPER[paper]
    scenario = load_scenario("denikin-1919")
    commanders = deck_pages(scenario, paper, "Commanders")
    for page in (0, commanders.start, commanders.stop - 2):
        image = render(path, page)
        for (x, y), want in zip(card_slots(paper, STYLE), front_colours(scenario, paper, page // 2), strict=True):
            if want is None:
                continue
            slots = card_slots(paper, STYLE)
            left, right = min(a for a, _ in slots), max(a for a, _ in slots)
            outside = [(x + CARD_W / 2, y - 1.5 * MM), (x + CARD_W / 2, y + CARD_H + 1.5 * MM)]
            outside = [
                p
                for p in outside
                if not shared_rows(paper, STYLE)
                or p[1] < min(b for _, b in slots)
                or p[1] > max(b for _, b in slots) + CARD_H
            ]
            outside += [(x - 1.5 * MM, y + CARD_H / 2)] if x == left else []
            outside += [(x + CARD_W + 1.5 * MM, y + CARD_H / 2)] if x == right else []
            for px, py in outside:
                assert np.abs(pixel(image, page_h, px, py) - colour(want)).max() <= 8, (page, x, y, px, py)
    if paper == "a4":
        image = render(path, 0)
        slots = card_slots(paper, STYLE)
        x, y = slots[0]
        assert pixel(image, page_h, x + CARD_W / 2, y + CARD_H + 4 * MM).min() >= 250
        assert pixel(image, page_h, x - 4 * MM, y + CARD_H / 2).min() >= 250
        assert 4 * MM < x < page_w


@poppler
def test_the_back_page_mirrors_a_partly_filled_last_sheet(
    parts: dict[str, tuple[Part, Path]], scenario: Scenario
) -> None:
    """The last sheet holds what is left of the cards; its back page has backs only behind them,
    mirrored: the back of the card in column c is in column 2 - c, same row."""
    part, path = parts["a4"]
    page_h = PAPER["a4"][1]
    last = deck_pages(scenario, "a4", "Commanders").stop - 2
    used = [slot for sheet, slot, *_ in placed(scenario, "a4") if sheet == last // 2]
    # a partly filled sheet, with a row whose first card has no third beside it
    lone = next(k for k in (0, 3, 6) if k in used and k + 2 not in used)
    assert last == part.pages - 2
    front, back = render(path, last), render(path, last + 1)

    def filled(image: np.ndarray, x: float, y: float) -> bool:
        return bool(pixel(image, page_h, x + 1.5 * MM, y + CARD_H / 2).min() < 240)

    fronts, backs = card_slots("a4", STYLE), back_slots("a4", STYLE)
    assert [filled(front, x, y) for x, y in fronts] == [k in used for k in range(9)]
    assert [filled(back, x, y) for x, y in backs] == [k in used for k in range(9)]
    # that row's first slot is filled on the front; behind it, its third column on the back page
    assert filled(back, *fronts[lone + 2]) and not filled(back, *fronts[lone])
    green = colour(STYLE.colours.commanders_back)
    for x, y in [backs[k] for k in used]:
        # inside the trim, the deck's colour under its faint lattice
        assert np.abs(pixel(back, page_h, x + 1.5 * MM, y + CARD_H / 2) - green).max() <= 40


# --- the file --------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_sizes_are_exact(parts: dict[str, tuple[Part, Path]], paper: str, scenario: Scenario) -> None:
    part, path = parts[paper]
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == part.pages == 2 * (placed(scenario, paper)[-1][0] + 1)
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(PAPER[paper], abs=0.01)
    assert part.file == f"cards-{paper}.pdf"


@poppler
def test_only_embedded_fonts(parts: dict[str, tuple[Part, Path]]) -> None:
    for _, path in parts.values():
        lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()
        fonts = lines[2:]
        assert fonts
        for line in fonts:
            assert line.split()[-5] == "yes", line  # the 'emb' column
            assert not any(line.startswith(name) for name in STANDARD_14), line


def test_two_builds_are_byte_identical(scenario: Scenario, parts: dict[str, tuple[Part, Path]]) -> None:
    for paper, (part, _) in parts.items():
        assert build_cards(scenario, paper)[0].pdf == part.pdf


def test_text_that_cannot_fit_is_an_error_not_an_overflow(scenario: Scenario) -> None:
    card = scenario.cards.events[0]
    long = card.model_copy(update={"history": "A very long line of history. " * 100})
    c = new_canvas(io.BytesIO(), PAPER["a4"], scenario, "test")
    with pytest.raises(CardOverflow, match=card.id):
        event_front(c, 100, 100, long, scenario, STYLE)


def test_cards_name_each_town_once_by_its_1919_name(scenario: Scenario) -> None:
    """Issue 14: "One name per town per card, in the 1919 convention" (RULES-NOTES: maps and cards
    print the 1919 name): no card or slip names a town by the rules' later name where it has a
    1919 one, and an effect placed at a town prints that name."""
    import re

    later = {t.name: t.name_1919 for t in scenario.towns if t.name_1919 and t.name_1919 != t.name}
    assert later, "the scenario has towns renamed after 1919"
    texts = [
        " ".join([card.title, card.history, *(effect_text(e, scenario) for e in card.effects)])
        for card in scenario.cards.events
    ]
    texts += [slip.text for pile in scenario.cards.piles.values() for slip in pile]
    for text in texts:
        for name in later:
            assert not re.search(rf"\\b{re.escape(name)}\\b", text), (name, text[:80])
    placed = [e for card in scenario.cards.events for e in card.effects if e.at and scenario.find_town(e.at)]
    assert placed
    for effect in placed:
        town = scenario.find_town(effect.at or "")
        assert town is not None and town.shown_name in effect_text(effect, scenario)


# --- issue 25: gutters where neighbours differ, seamless backs, the layout gate --------------------


def _shared_cuts(paper: str) -> list[tuple[int, int, bool]]:
    """(slot, neighbour, across) for every two slots that butt: across a shared column cut, or
    down a shared row cut."""
    pairs = []
    for slot in range(9):
        row, col = divmod(slot, 3)
        if shared_columns(paper, STYLE) and col < 2:
            pairs.append((slot, slot + 1, True))
        if shared_rows(paper, STYLE) and row < 2:
            pairs.append((slot, slot + 3, False))
    return pairs


@poppler
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue25_no_two_cards_of_different_colours_share_a_cut(parts: dict[str, tuple[Part, Path]], paper: str) -> None:
    """Issue 25, item 7: "A 1 mm mis-cut shows the neighbour's colour where two decks of different
    colours meet": on every page, fronts and backs, two cards that butt along a cut are of one
    colour, read 1.5 mm inside each trim from the rendered page."""
    part, path = parts[paper]
    page_h = PAPER[paper][1]
    dpi = 72  # a pixel 0.35 mm across: well inside the 1.5 mm either side of a cut
    pages = render_pages(path, dpi)
    assert len(pages) == part.pages
    for page, image in enumerate(pages):
        slots = card_slots(paper, STYLE) if page % 2 == 0 else back_slots(paper, STYLE)
        for a, b, across in _shared_cuts(paper):
            (ax, ay), (bx, by) = slots[a], slots[b]
            if across:  # slot a left of b on the fronts, right of it on the mirrored backs
                left, right = sorted([(ax, ay), (bx, by)])
                cut = right[0]
                here, there = (cut - 1.5 * MM, ay + CARD_H / 2), (cut + 1.5 * MM, ay + CARD_H / 2)
            else:
                here, there = (ax + CARD_W / 2, ay + 1.5 * MM), (ax + CARD_W / 2, ay - 1.5 * MM)
            one, two = pixel(image, page_h, *here, dpi / 72), pixel(image, page_h, *there, dpi / 72)
            empty = max(one.min(), two.min()) >= 250  # paper on one side: a slot left empty
            assert empty or np.abs(one - two).max() <= 40, (paper, page, a, b, one, two)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue25_the_back_lattice_is_centred_and_runs_on_across_a_shared_cut(paper: str) -> None:
    """Issue 25, item 7: "backs whose pattern is seamless or centred per card": the lattice
    crosses at the card's centre and goes a whole number of steps across and down the card, so
    every back is the same and the lines of two butting backs meet at their shared cut."""
    from kitgen.render.cardart import LATTICE_MM, lattice_steps

    across, down = lattice_steps(CARD_W, CARD_H)
    assert across == pytest.approx(LATTICE_MM * MM, rel=0.1) and down == pytest.approx(LATTICE_MM * MM, rel=0.1)
    assert (CARD_W / across) == pytest.approx(round(CARD_W / across))
    assert (CARD_H / down) == pytest.approx(round(CARD_H / down))
    backs = back_slots(paper, STYLE)
    for a, b, along in _shared_cuts(paper):
        shift = backs[b][0] - backs[a][0] if along else backs[b][1] - backs[a][1]
        step = across if along else down
        assert shift / step == pytest.approx(round(shift / step), abs=1e-6), (paper, a, b)


@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue25_every_card_page_passes_the_layout_gate(name: str, paper: str) -> None:
    """Issue 25, item 1: the layout gate over every page of the cards, A4 and US Letter: text at
    7 pt at least (titles, labels, the commander's D10 track, the backs' subtitles), the foot
    strip's note and printed reference at 5 pt at least ("card footers 5 pt"), nothing over
    anything, fonts embedded, qpdf's check clean."""
    from kitgen.render.cardart import foot_strip
    from tests.layoutgate import Area, assert_passes

    [part] = build_cards(load_scenario(name), paper)
    page_h = PAPER[paper][1]
    feet = []
    for x, y in card_slots(paper, STYLE):
        box = foot_strip(x, y, STYLE)
        feet.append(Area((box.x, page_h - box.top, box.x + box.w, page_h - box.y), 5.0, "a card's foot"))
    assert_passes(part.pdf, areas={page: feet for page in range(1, part.pages + 1, 2)}, name=part.file)


def test_issue25_a_card_of_other_colours_starts_a_new_row_or_where_rows_butt_a_new_sheet() -> None:
    """Issue 25, item 7, on a hand-made run of cards (two red, four blue, one red again) in a
    3 x 3 sheet: with gutters between the rows, the blues start the second row and the last red
    the next sheet; where the rows butt, a row is left empty at each change of colour."""
    from kitgen.products.cards import Place, card_places

    red, blue = ("#C00000", "#C00000"), ("#0000C0", "#0000C0")
    looks = [red, red, blue, blue, blue, blue, red]
    gutters = card_places(looks, 3, 3, rows_butt=False)
    assert gutters == [Place(0, 0), Place(0, 1), Place(0, 3), Place(0, 4), Place(0, 5), Place(0, 6), Place(1, 0)]
    butting = card_places(looks, 3, 3, rows_butt=True)
    assert butting == [Place(0, 0), Place(0, 1), Place(0, 6), Place(0, 7), Place(0, 8), Place(1, 0), Place(1, 6)]
    assert card_places([red] * 10, 3, 3, rows_butt=True)[-1] == Place(1, 0)  # one colour: filled in turn


def test_issue25_the_cards_are_set_with_curly_quotes_and_en_dashes(parts: dict[str, tuple[Part, Path]]) -> None:
    """Issue 25, item 2, on the cards: no straight quote and no hyphen between figures on any
    card (Grigoriev\u2019s revolt of 7\u20138 May; obeys on 1\u201310)."""
    import re

    body = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(parts["a4"][1]).pages)
    assert "'" not in body and '"' not in body
    assert not re.search(r"\d-\d", body)
    assert "Grigoriev\u2019s revolt of 7\u20138 May 1919" in body and "obeys on 1\u201310" in body
