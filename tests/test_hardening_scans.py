"""Issue 41, hardening round 3: each reproduction of items 12, 13 and 16 (the pictures and PDFs of
scans), the slow but bounded PDFs (100,000 pages, an 8 MB field value) and one limit per kind of
input, as a named regression test.

A hostile file of scans or a filled PDF is measured before it is decoded, rendered or walked
(`kitgen.limits`), and refused with a catalogued message naming the file, the page and the size,
in a moment and a little memory; the pages within the limits are decoded one at a time; the
picture libraries' own lines never reach the terminal. Each process below runs under a 2 GiB cap
on its address space, so that a regression fails instead of taking the machine's memory.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from kitgen.errors import KitgenError
from kitgen.limits import FIELD_CHARS, FORM_PAGES, FORM_PDF_BYTES, PDF_STRING_BYTES, READ_PIXELS, SCAN_PAGES
from tests import hostile
from tests.conftest import SAMPLE, Run, run_cli

TIMEOUT = 60  # seconds: far beyond any answer; a hang fails instead of stalling the suite
SECONDS = 10
"""A refusal's time at most, whole process, on a loaded machine (`make bench` measures it: well under 2 s)."""
PEAK_MB = 300
"""A refusal's peak memory at most, whole process."""
_PEAK_KB = """
def peak_kb():
    # the peak of this program's own memory: getrusage's ru_maxrss would keep the pytest worker's
    # it was forked from (Linux carries it across exec), VmHWM is the new program's alone
    with open("/proc/self/status") as status:
        return int(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
"""
_MEASURED = (
    _PEAK_KB
    + """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
try:
    from kitgen.cli import main
    sys.argv = ["kitgen", *sys.argv[1:]]
    main()
finally:
    print(f"\\npeak-kb {peak_kb()}", file=sys.__stdout__, flush=True)
"""
)


@dataclass(frozen=True)
class Measured:
    returncode: int
    stderr: str
    seconds: float
    peak_mb: float


def measured(*args: str) -> Measured:
    """`kitgen ARGS` in a process of its own: its exit, its words, its time and its peak memory."""
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, *args], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    seconds = time.monotonic() - start
    assert "Traceback" not in done.stderr, done.stderr
    peak = re.findall(r"peak-kb (\d+)", done.stdout)
    return Measured(done.returncode, done.stderr, seconds, int(peak[-1]) / 1024)


def kitgen(*args: str) -> Run:
    """In process: for inputs that cannot hang or fill the memory even if kitgen regressed."""
    return run_cli(*args)


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sample campaign, turn 7 started: the turn scans are read against."""
    folder = tmp_path_factory.mktemp("scans") / "sample"
    shutil.copytree(SAMPLE, folder)
    assert kitgen("next", str(folder)).returncode == 0
    return folder


def only_kitgens_words(stderr: str, *files: Path) -> bool:
    """Every line of stderr is kitgen's: a problem at one of the files, or the count of problems."""
    return all(
        line.startswith(tuple(map(str, files))) or re.fullmatch(r"\d+ problems? found", line)
        for line in stderr.splitlines()
    )


# --- 12. a TIFF's pages: measured from their headers, decoded one at a time ----------------------


def test_issue41_12_a_tiff_of_huge_pages_is_refused_page_by_page_in_bounded_memory(week: Path, tmp_path: Path) -> None:
    """A 62 kB TIFF of 40 blank pages of 7700 x 7700 pixels took 4.7 GB and 55 to 100 s, its pages
    decoded all at once, and ended in "no picture" under a 4 GB limit: its pages' headers are read
    first, and their 2,372 million pixels in all refused before any is decoded."""
    path = tmp_path / "pages.tif"
    path.write_bytes(hostile.tiff([(7700, 7700)] * 40))
    done = measured("orders", "scan", str(path), "--campaign", str(week))
    assert done.returncode == 1
    said = "pages.tif:1:1: found a TIFF of 40 pages holding 2,371,600,000 pixels in all; expected at most 2,000,000,000"
    assert said in done.stderr and "no picture" not in done.stderr
    assert done.seconds < SECONDS and done.peak_mb < PEAK_MB, done


def test_issue41_12_a_tiffs_pages_are_decoded_one_at_a_time(tmp_path: Path) -> None:
    """Eight pages of 5000 x 5000 pixels, 25 MB each decoded: reading them all takes the memory of
    about one page (all at once took eight)."""
    path = tmp_path / "eight.tif"
    path.write_bytes(hostile.tiff([(5000, 5000)] * 8, rows=64))
    child = _PEAK_KB + (
        "import sys; from pathlib import Path; from kitgen.scan.images import scan_pages, opencv; opencv()\n"
        "before = peak_kb()\n"
        "pages = sum(1 for page in scan_pages(Path(sys.argv[1])))\n"
        "print(pages, (peak_kb() - before) // 1024)\n"
    )
    done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True, timeout=TIMEOUT)
    pages, grown = map(int, done.stdout.split())
    assert pages == 8 and grown < 80, f"{grown} MB for 8 pages of 25 MB"


def test_issue41_12_a_page_past_the_limit_is_named_by_its_file_page_and_size(tmp_path: Path) -> None:
    """Two small pages and a third of 9000 x 9000 pixels: the third is named, with its size, and no
    page is decoded."""
    path = tmp_path / "third.tif"
    path.write_bytes(hostile.tiff([(100, 100), (100, 100), (9000, 9000)]))
    done = kitgen("orders", "check", str(path))
    assert done.returncode == 1
    assert f"{path}:3:1: page 3: found a picture of 9,000 x 9,000 pixels (81,000,000); expected at most 60,000,000" in (
        done.stderr
    )
    assert "page 1" not in done.stderr and "no QR code" not in done.stderr


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        (
            "tiles.tif",
            hostile.tiff([(100, 100)], tile=(8192, 8192), pixels=b"\x00"),
            "page 1: found a picture of 100 x 100 pixels stored in tiles of 8,192 x 8,192 pixels, whose decoding "
            "would take 268,435,456 bytes; expected at most 240,000,000",
        ),
        (
            "deep.tif",
            hostile.tiff([(7000, 7000)], bits=16, pixels=b"\x00"),
            "page 1: found a picture of 7,000 x 7,000 pixels stored in strips of 7,000 rows of 16-bit samples",
        ),
        (
            "progressive.jpg",
            hostile.jpeg_header(7000, 7000, progressive=True),
            "page 1: found a picture of 7,000 x 7,000 pixels saved as a progressive JPEG, whose decoding would take "
            "294,000,000 bytes",
        ),
    ],
    ids=["tiles", "16-bit", "progressive"],
)
def test_issue41_12_a_picture_whose_decoder_would_hold_too_much_is_refused_from_its_header(
    tmp_path: Path, name: str, data: bytes, said: str
) -> None:
    """A 100 x 100 page in one tile of 8192 x 8192 pixels took 270 MB to decode, a TIFF of 16-bit
    samples in one strip or a progressive JPEG 6 or 8 bytes a pixel: what the header says the
    decoder will hold is counted with the page."""
    path = tmp_path / name
    path.write_bytes(data)
    done = measured("orders", "check", str(path))
    assert done.returncode == 1 and f"{name}:1:1: {said}" in done.stderr
    assert done.seconds < SECONDS and done.peak_mb < PEAK_MB, done


# --- 13. a PDF's pages: measured from its page tree, rendered within a pixel budget --------------


def test_issue41_13_a_pdf_of_huge_pages_is_refused_before_any_is_rendered(week: Path, tmp_path: Path) -> None:
    """A 24 kB PDF of 200 pages of 14400 pt (5 m) a side took 7 to 11 minutes, each page rendered at
    60 million pixels: each page's size is read from the page tree, and a page no form could be is
    refused, named with its size, before any is rendered."""
    path = tmp_path / "huge.pdf"
    path.write_bytes(hostile.pages_pdf(200, (14400, 14400)))
    assert len(path.read_bytes()) < 30_000
    done = measured("orders", "scan", str(path), "--campaign", str(week))
    assert done.returncode == 1
    assert (
        "huge.pdf:1:1: page 1: found a page of 14,400 x 14,400 pt (508 x 508 cm), which no form could be" in done.stderr
    )
    assert "expected a form's page as scanned (A4, Letter) or a photo of one: 2 to 120 inches a side" in done.stderr
    assert "200 problems found" in done.stderr
    assert done.seconds < SECONDS and done.peak_mb < PEAK_MB, done


def test_issue41_13_a_large_page_is_rendered_within_the_pixel_budget(tmp_path: Path) -> None:
    """A page of 4000 x 5000 pt (a phone's photo saved at 72 dpi) at 200 dpi would be 154 million
    pixels: it is rendered at the resolution that fits `READ_PIXELS`; an A4 page still at 200 dpi."""
    from kitgen.scan.images import scan_pages

    path = tmp_path / "photo.pdf"
    path.write_bytes(hostile.pages_pdf(1, (4000, 5000)))
    (large,) = scan_pages(path)
    assert 0.98 * READ_PIXELS <= large.image.size <= READ_PIXELS
    path.write_bytes(hostile.pages_pdf(1))
    (a4,) = scan_pages(path)
    assert a4.image.shape == (2339, 1653)


def test_issue41_13_a_pdf_of_more_pages_than_any_file_of_scans_is_refused_by_its_count(tmp_path: Path) -> None:
    path = tmp_path / "long.pdf"
    path.write_bytes(hostile.pages_pdf(SCAN_PAGES + 1))
    done = kitgen("orders", "check", str(path))
    assert done.returncode == 1
    assert (
        f"long.pdf:1:1: found a PDF of {SCAN_PAGES + 1} pages; expected at most {SCAN_PAGES} pages in one file of scans"
        in (done.stderr)
    )


# --- 16. the words: the container named as it is, no library's own lines ------------------------


def test_issue41_16_a_tiff_of_1000_pages_is_called_a_tiff(tmp_path: Path) -> None:
    """It was called "a PDF of 1000 pages"."""
    path = tmp_path / "pages.tif"
    path.write_bytes(hostile.tiff([(8, 8)] * 1000))
    done = kitgen("orders", "check", str(path))
    assert done.returncode == 1
    assert f"pages.tif:1:1: found a TIFF of more than {SCAN_PAGES} pages; expected at most {SCAN_PAGES}" in done.stderr
    assert "PDF" not in done.stderr


def test_issue41_16_the_picture_libraries_print_nothing_of_their_own(tmp_path: Path) -> None:
    """libjpeg ("Corrupt JPEG data"), libpng ("libpng warning") and OpenCV's log wrote their own lines
    to the terminal: only kitgen's words now, one problem a file."""
    import struct
    import zlib

    import cv2
    import numpy as np

    picture = (np.random.default_rng(1).random((300, 400)) * 255).astype(np.uint8)
    jpeg = cv2.imencode(".jpg", picture)[1].tobytes()
    png = cv2.imencode(".png", picture)[1].tobytes()
    gamma = struct.pack(">I", 3) + b"gAMA\x00\x00\x00" + struct.pack(">I", zlib.crc32(b"gAMA\x00\x00\x00"))
    files = {
        "cut.jpg": jpeg[: len(jpeg) // 2],
        "cut.png": png[: len(png) // 2],
        "short-gamma.png": png[:33] + gamma + png[33:],
        "cut-strip.tif": hostile.tiff([(64, 64)], pixels=b"\x78\x9c\x00\x00"),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    paths = [tmp_path / name for name in files]
    done = subprocess.run(
        [sys.executable, "-m", "kitgen", "orders", "check", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert only_kitgens_words(done.stderr, *paths), done.stderr
    assert len(done.stderr.splitlines()) == len(files) + 1


# --- slow but bounded: a PDF's page count and a field's value ------------------------------------


def test_issue41_slow_a_pdf_of_100000_pages_is_refused_by_its_page_trees_count(week: Path, tmp_path: Path) -> None:
    """Refused only after 68 s and 370 MB, every page walked: the page tree's /Count is read first."""
    path = tmp_path / "long.pdf"
    path.write_bytes(hostile.pages_pdf(100_000))
    done = measured("orders", "import", str(path), "--campaign", str(week))
    assert done.returncode == 1
    assert f"long.pdf:1:1: found a PDF of 100,000 pages; expected an order form of at most {FORM_PAGES}" in done.stderr
    assert done.seconds < SECONDS and done.peak_mb < PEAK_MB, done


@pytest.mark.parametrize("declared", [1, 0, -5])
def test_issue41_slow_a_page_tree_whose_count_lies_is_walked_no_further_than_the_limit(
    tmp_path: Path, declared: int
) -> None:
    """5,000 pages under a /Count of 1: the tree is walked, and refused at the first page past the limit."""
    from kitgen.orders.formread import read_filled

    path = tmp_path / "lying.pdf"
    path.write_bytes(hostile.pages_pdf(5000, declared=declared))
    with pytest.raises(KitgenError) as caught:
        read_filled(path)
    said = [str(p) for p in caught.value.problems]
    assert said == [
        f"{path}:1:1: found a PDF of more than {FORM_PAGES} pages; expected an order form of at most {FORM_PAGES}"
    ]


FORM = b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R 5 0 R] >> >>"
TREE = (b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>", b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>")
FACTION = b"<< /T (id-whites-faction) /V (whites) >>"


def path_field(value: bytes) -> bytes:
    return b"<< /T (o-w_drozdovsky_1-path) /FT /Tx /V " + value + b" >>"


@pytest.mark.parametrize(
    "value",
    [b"(" + b"3416 " * 1_600_000 + b")", b"<" + b"3416 ".hex().encode() * 1_600_000 + b">"],
    ids=["text", "hex"],
)
def test_issue41_slow_a_field_value_of_8_mb_is_refused_before_it_is_read(
    week: Path, tmp_path: Path, value: bytes
) -> None:
    """An 8 MB value was refused after 41 s: pypdf reads a string a byte at a time (8 MB in hex
    took 13 s here), then kitgen read it as 1.6 million hexes. A PDF's strings are read to
    `PDF_STRING_BYTES` in all, and no further."""
    path = tmp_path / "filled.pdf"
    path.write_bytes(hostile.pdf([FORM, *TREE, path_field(value), FACTION]))
    done = measured("orders", "import", str(path), "--campaign", str(week))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{path}:1:1: found a file that cannot be read as a PDF: its strings hold more than "
        f"{PDF_STRING_BYTES:,} bytes, more than any form's; expected an order form made by `kitgen orders form`",
        "1 problem found",
    ]
    assert done.seconds < SECONDS and done.peak_mb < PEAK_MB, done


def test_issue41_slow_strings_packed_in_an_object_stream_count_alike(tmp_path: Path) -> None:
    """A 10 kB file whose object stream inflates to a 10 MB value (pypdf: 3.8 s) is refused as soon
    as its strings pass the limit."""
    from kitgen.orders.formread import read_filled

    path = tmp_path / "packed.pdf"
    path.write_bytes(hostile.packed_pdf([FORM, *TREE], [path_field(b"<" + b"41" * 5_000_000 + b">"), FACTION]))
    assert len(path.read_bytes()) < 20_000
    start = time.monotonic()
    with pytest.raises(KitgenError) as caught:
        read_filled(path)
    assert time.monotonic() - start < SECONDS
    assert f"its strings hold more than {PDF_STRING_BYTES:,} bytes" in caught.value.problems[0].message


def test_issue41_slow_a_value_longer_than_any_forms_is_refused_with_its_length(week: Path, tmp_path: Path) -> None:
    """A value within the strings' limit but longer than any field's is refused as it is, before it
    is read as orders, a turn or a state."""
    path = tmp_path / "filled.pdf"
    repeats = FIELD_CHARS // 5 + 200  # 1,000 characters past the limit, well within the strings'
    path.write_bytes(hostile.pdf([FORM, *TREE, path_field(b"(" + b"3416 " * repeats + b")"), FACTION]))
    done = kitgen("orders", "import", str(path), "--campaign", str(week))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"{path}:1:1: field o-w_drozdovsky_1-path: found a value of {repeats * 5:,} characters; expected at most "
        f"{FIELD_CHARS:,} (the longest order, a path of 64 hexes, is 320)",
        "1 problem found",
    ]


def test_issue41_slow_a_filled_form_of_the_sample_reads_within_the_limits(week: Path, tmp_path: Path) -> None:
    """The limits leave the forms kitgen makes alone: the Whites' form, filled, is imported."""
    from kitgen.orders.formread import read_filled

    out = tmp_path / "whites.pdf"
    assert kitgen("orders", "form", str(week), "--faction", "whites", "--out", str(out)).returncode == 0
    form = read_filled(out)
    assert form.identity["faction"] == "whites" and form.entries


# --- one limit per kind of input, the same for every command that reads it ---------------------


def test_issue41_one_limit_a_filled_pdf_is_held_to_one_size_by_both_its_readers(tmp_path: Path) -> None:
    """`orders import` reads a PDF for report forms (it allowed 100 MB) and then for an order form
    (20 MB): one limit now, the same refusal from both."""
    from kitgen.orders.formread import read_filled
    from kitgen.reports.pdfread import read_reports

    path = tmp_path / "big.pdf"
    with path.open("wb") as out:
        out.write(b"%PDF-1.7\n")
        out.truncate(FORM_PDF_BYTES + 1)
    for reader in (read_reports, read_filled):
        with pytest.raises(KitgenError) as caught:
            reader(path)
        assert [p.code for p in caught.value.problems] == ["file.too_big"], reader
        assert f"expected at most {FORM_PDF_BYTES:,} bytes" in caught.value.problems[0].message


@pytest.mark.parametrize("kind", ["TIFF", "PDF"])
def test_issue41_one_limit_a_tiff_and_a_pdf_of_scans_are_held_to_one_page_count(tmp_path: Path, kind: str) -> None:
    """A TIFF was refused past 40 pages (its pages decoded at once), a PDF past 200: one count now."""
    path = tmp_path / f"pages.{kind.lower()}"

    def made(pages: int) -> bytes:
        return hostile.tiff([(8, 8)] * pages) if kind == "TIFF" else hostile.pages_pdf(pages, (144, 144))

    path.write_bytes(made(SCAN_PAGES))
    assert "pages in one file of scans" not in kitgen("orders", "check", str(path)).stderr
    path.write_bytes(made(SCAN_PAGES + 1))
    assert (
        f"pages; expected at most {SCAN_PAGES} pages in one file of scans"
        in kitgen("orders", "check", str(path)).stderr
    )


def test_issue41_one_limit_scan_and_check_refuse_a_file_of_scans_alike(week: Path, tmp_path: Path) -> None:
    """`orders scan` and `orders check` read their files with one reader, to the same limits."""
    path = tmp_path / "pages.tif"
    path.write_bytes(hostile.tiff([(7700, 7700)] * 40, pixels=b"\x00"))
    scanned = kitgen("orders", "scan", str(path), "--campaign", str(week))
    checked = kitgen("orders", "check", str(path))
    assert scanned.returncode == checked.returncode == 1
    assert scanned.stderr == checked.stderr and "2,371,600,000 pixels in all" in checked.stderr
