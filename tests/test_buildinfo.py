"""Issue 14: "The version and build date in every footer and in the metadata; SOURCE_DATE_EPOCH
sets the date for reproducible builds"."""

from __future__ import annotations

import io
import subprocess

import pytest
from pypdf import PdfReader

from kitgen import __version__
from kitgen.buildinfo import RELEASED, build_date, edition
from kitgen.loader import load_scenario
from kitgen.products.forms import build_forms


def _forms() -> PdfReader:
    return PdfReader(io.BytesIO(build_forms(load_scenario("denikin-1919"), "a4")[0].pdf))


def test_the_build_date_is_the_release_unless_source_date_epoch_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert build_date() == "{:04d}-{:02d}-{:02d}".format(*RELEASED)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1577836800")  # 2020-01-01
    assert build_date() == "2020-01-01" and edition() == f"kitgen {__version__}, 2020-01-01"


def test_every_form_page_carries_the_edition_and_the_pdf_its_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1577836800")
    reader = _forms()
    assert reader.metadata is not None and str(reader.metadata["/CreationDate"]).startswith("D:20200101")
    assert reader.metadata["/Creator"] == f"kitgen {__version__}"
    for page in reader.pages:
        assert f"kitgen {__version__}, 2020-01-01" in page.extract_text()


def test_the_same_date_gives_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1577836800")
    first = build_forms(load_scenario("denikin-1919"), "a4")[0].pdf
    assert build_forms(load_scenario("denikin-1919"), "a4")[0].pdf == first
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1609459200")  # 2021-01-01
    assert build_forms(load_scenario("denikin-1919"), "a4")[0].pdf != first


def test_the_booklet_footer_carries_the_edition(tmp_path: object) -> None:
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from kitgen.products.booklet import build_booklet

    scenario = load_scenario("denikin-1919")
    built, _ = hex_map(scenario)
    assert built is not None
    rules = build_booklet(scenario, place_hexes(scenario, built), "a4")[0]
    text = subprocess.run(["pdftotext", "-", "-"], input=rules.pdf, capture_output=True, check=True).stdout.decode()
    assert text.count(edition()) >= rules.pages - 1  # every page but the cover
