"""kitgen benchmarks: `make bench` prints one table of medians with min, max and peak memory,
each against its target (issue 10), marked met or missed. Timings are never asserted in
tests: these machines are noisy, so compare medians.

Whole-process figures time `python -m kitgen ...` from start to exit (os.wait4 gives each
run's peak memory). In-process figures run in a child Python of their own (`run.py --in
NAME`), so that each one's peak memory is its own and no figure warms another's caches.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KITGEN = [sys.executable, "-m", "kitgen"]
SAMPLE = ROOT / "data" / "sample-campaign"


@dataclass(frozen=True)
class Figure:
    name: str
    seconds: list[float]
    peak_mb: float
    target: str = ""
    met: bool | None = None
    shown: str = ""
    """How the figure reads, when it is not a time (a ratio)."""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def under(limit_s: float) -> Callable[[Figure], tuple[str, bool]]:
    def judge(f: Figure) -> tuple[str, bool]:
        return (f"under {_time(limit_s)}", f.median < limit_s)

    return judge


def _time(seconds: float) -> str:
    if seconds >= 60:
        return f"{seconds / 60:.1f} min"
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


# --- whole processes -----------------------------------------------------------------------


def process(
    args: list[str], runs: int, *, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> tuple[list[float], float]:
    """Wall seconds of each run and the largest peak memory (MB) of any."""
    times, peak = [], 0
    for _ in range(runs):
        with tempfile.TemporaryFile() as log:
            start = time.perf_counter()
            child = subprocess.Popen(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(child.pid, 0)
            times.append(time.perf_counter() - start)
            if os.waitstatus_to_exitcode(status) != 0:
                log.seek(0)
                tail = log.read().decode("utf-8", "replace")[-4000:]
                raise SystemExit(f"benchmark command failed: {' '.join(args)}\n{tail}")
        peak = max(peak, usage.ru_maxrss)
    return times, peak / 1024


def process_each(commands: list[list[str]], *, env: dict[str, str] | None = None) -> tuple[list[float], float]:
    """`process` of each command once: wall seconds of each, and the largest peak memory (MB)."""
    times, peak = [], 0.0
    for args in commands:
        seconds, most = process(args, 1, env=env)
        times += seconds
        peak = max(peak, most)
    return times, peak


def figure(
    name: str, measured: tuple[list[float], float], judge: Callable[[Figure], tuple[str, bool]] | None = None
) -> Figure:
    seconds, peak = measured
    f = Figure(name, seconds, peak)
    if judge is None:
        return f
    target, met = judge(f)
    return Figure(name, seconds, peak, target, met)


def forgetting(args: list[str]) -> list[str]:
    """`args` run after the kit's kept drawings are removed from $KITGEN_CACHE (the scenario
    and its grid stay): the first kit of a new scenario or a new kitgen."""
    kept = " ".join(f'"$KITGEN_CACHE"/{k}-*' for k in ("mapart", "mappicture", "contents", "template"))
    return ["sh", "-c", f'rm -f {kept} && exec "$@"', "sh", *args]


# --- in a child process of its own ----------------------------------------------------------


def in_child(name: str, env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, str(Path(__file__)), "--in", name],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _repeat(fn: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def _scaled(size_km: float) -> object:
    from kitgen.loader import load_scenario

    s = load_scenario("denikin-1919")
    meta = s.meta.model_copy(update={"map": s.meta.map.model_copy(update={"hex_size_km": size_km})})
    return s.model_copy(update={"meta": meta})


def _measure(name: str) -> dict[str, object]:
    """One in-process figure: `{seconds: [...], ...}` (run in the child)."""
    if name == "replay":
        from replay_campaign import build  # benchmarks/ is on sys.path when run as a script

        from kitgen.campaign import load_campaign
        from kitgen.engine.replay import replay

        with tempfile.TemporaryDirectory() as tmp:
            campaign = load_campaign(build(Path(tmp) / "big", units=200, turns=100))
            state = replay(campaign)  # warm: the map and the scenario's look-up tables
            return {"seconds": _repeat(lambda: replay(campaign), 7), "turns": state.turn, "units": len(state.units)}
    if name == "chronicle-long":
        from replay_campaign import build

        from kitgen.campaign import load_campaign
        from kitgen.engine.history import course
        from kitgen.products.chronicle import build_chronicle

        with tempfile.TemporaryDirectory() as tmp:
            campaign = load_campaign(build(Path(tmp) / "big", units=200, turns=100))
            found: dict[str, object] = {}
            for turns in (25, 50, 100):
                build_chronicle(campaign, None, "a4", history=course(campaign, 2))  # warm: the map, its drawing
                runs = _repeat(lambda t=turns: build_chronicle(campaign, None, "a4", history=course(campaign, t)), 3)
                found[str(turns)] = runs
            found["seconds"] = found["100"]
            return found
    if name.startswith("grid-"):
        from kitgen.mapping.build import build_hex_map
        from kitgen.mapping.cache import hex_map

        kind, scale = name.split("-")[1:]
        scenario = _scaled(30.0 / {"1x": 1, "4x": 2, "16x": 4}[scale])
        if kind == "cold":
            return {"seconds": _repeat(lambda: build_hex_map(scenario), 3 if scale != "16x" else 1)}  # type: ignore[arg-type]
        built, _ = hex_map(scenario)  # type: ignore[arg-type]
        assert built is not None
        return {"seconds": _repeat(lambda: hex_map(scenario), 7), "hexes": len(built.hexes)}  # type: ignore[arg-type]
    if name == "supply":
        from supply import measure

        r = measure(51)
        return {
            "seconds": [r.arrays.median],
            "low": r.arrays.low,
            "high": r.arrays.high,
            "nx": [r.networkx.median, r.networkx.low, r.networkx.high],
            "nx_bfs": [r.networkx_bfs.median, r.networkx_bfs.low, r.networkx_bfs.high],
            "hexes": r.hexes,
            "factions": r.factions,
        }
    raise SystemExit(f"no in-process figure {name}")


def child_main(name: str) -> None:
    result = _measure(name)
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def child_figure(
    name: str, label: str, env: dict[str, str], judge: Callable[[Figure], tuple[str, bool]] | None = None
) -> Figure:
    r = in_child(name, env)
    seconds = [float(s) for s in r["seconds"]]  # type: ignore[union-attr]
    return figure(label.format(**r), (seconds, float(r["peak_mb"])), judge)  # type: ignore[arg-type]


# --- the table ------------------------------------------------------------------------------


def main() -> None:
    skip_test = "--no-test" in sys.argv
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "KITGEN_CACHE": str(Path(tmp) / "cache")}
        subprocess.run([*KITGEN, "validate", str(SAMPLE)], env=env, cwd=ROOT, check=True, capture_output=True)  # warm
        figures.append(figure("python -c pass (the floor)", process([sys.executable, "-c", "pass"], 15, env=env)))
        figures.append(figure("kitgen --help", process([*KITGEN, "--help"], 15, env=env), under(0.150)))
        figures.append(figure("kitgen --version", process([*KITGEN, "--version"], 15, env=env), under(0.150)))
        figures.append(
            figure("kitgen lookup town Kiev", process([*KITGEN, "lookup", "town", "Kiev"], 15, env=env), under(0.150))
        )
        figures.append(
            figure(
                "kitgen lookup commander Wrangl --failures 1",
                process([*KITGEN, "lookup", "commander", "Wrangl", "--failures", "1"], 15, env=env),
                under(0.150),
            )
        )
        subprocess.run([*KITGEN, "status", str(SAMPLE)], env=env, cwd=ROOT, check=True, capture_output=True)  # warm
        figures.append(
            figure(
                "kitgen status data/sample-campaign (answer kept)",
                process([*KITGEN, "status", str(SAMPLE)], 11, env=env),
                under(0.3),
            )
        )
        figures.append(
            figure(
                "kitgen validate data/sample-campaign (answer kept)",
                process([*KITGEN, "validate", str(SAMPLE)], 11, env=env),
                under(0.25),
            )
        )
        copies = [Path(tmp) / f"campaign-{k}" for k in range(7)]
        for copy in copies:  # each run a campaign never seen: the answer worked out from the files
            shutil.copytree(SAMPLE, copy)
        figures.append(
            figure(
                "kitgen validate, a campaign not seen before (answer worked out)",
                process_each([[*KITGEN, "validate", str(copy)] for copy in copies], env=env),
                under(0.6),
            )
        )
        figures.append(
            figure("kitgen state data/sample-campaign", process([*KITGEN, "state", str(SAMPLE)], 11, env=env))
        )
        figures.append(child_figure("replay", "replay {turns} turns of {units} units (in process)", env, under(0.5)))
        for scale in ("1x", "4x", "16x"):
            figures.append(
                child_figure(f"grid-cold-{scale}", f"map grid, cold build, {scale} the hexes (in process)", env)
            )
            figures.append(
                child_figure(
                    f"grid-cached-{scale}", f"map grid from the cache, {scale} the hexes: {{hexes}} (in process)", env
                )
            )
        figures += supply_figures(env)
        packets = [*KITGEN, "turn", str(SAMPLE), "--out", str(Path(tmp) / "packets")]
        subprocess.run(packets, env=env, cwd=ROOT, check=True, capture_output=True)  # warm the map cache
        figures.append(
            figure("kitgen turn data/sample-campaign (the week's 5 packets)", process(packets, 7, env=env), under(1.5))
        )
        figures += page_figures(Path(tmp) / "packets")
        chronicle = [*KITGEN, "chronicle", str(SAMPLE), "--out", str(Path(tmp) / "chronicle.pdf")]
        subprocess.run(chronicle, env=env, cwd=ROOT, check=True, capture_output=True)  # warm the map cache
        figures.append(
            figure(
                "kitgen chronicle data/sample-campaign (6 turns, umpire's)", process(chronicle, 7, env=env), under(3.0)
            )
        )
        figures += chronicle_figures(env)
        out = Path(tmp) / "kit"
        kit = [*KITGEN, "kit", "--out", str(out)]
        subprocess.run(kit, env=env, cwd=ROOT, check=True, capture_output=True)  # warm the map cache
        figures.append(figure("kitgen kit, A4 (drawings kept)", process(kit, 9, env=env), under(1.5)))  # issue 25
        figures.append(
            figure("kitgen kit, A4, its drawings not yet kept", process_each([forgetting(kit)] * 5, env=env))
        )
        figures += scan_figures(env, Path(tmp))
        figures += report_figures(env, Path(tmp))
        figures += limit_figures(env, Path(tmp))
    if not skip_test:
        figures.append(figure("make test (wall, one run, set up)", process(["make", "test"], 1), under(240.0)))
    print_table(figures)


PAGES_MOST = {"makhnovists": 6}
"""Issue 42's pages for a faction's packet: at most 12, the Makhnovists' at most 6."""
FORM_PAGES_MOST = 3
"""... and for the Whites' order form (their packet's last part)."""


def page_figures(folder: Path) -> list[Figure]:
    """The pages of the sample's packets (A4) as `kitgen turn` wrote them, each against issue
    42's target, and the pages of each faction's order form within its packet."""
    import io

    from pypdf import PdfReader

    found = []
    for pdf in sorted(folder.glob("*-turn-*-a4.pdf")):
        who = pdf.name.split("-turn-")[0]
        reader = PdfReader(io.BytesIO(pdf.read_bytes()))
        pages = len(reader.pages)
        if who in ("umpire", "roll-sheet", "report-forms"):
            found.append(Figure(f"pages: {who} (A4)", [0.0], 0.0, "as few as it takes", None, str(pages)))
            continue
        most = PAGES_MOST.get(who, 12)
        found.append(Figure(f"pages: {who}' packet (A4)", [0.0], 0.0, f"at most {most}", pages <= most, str(pages)))
        marks = [
            (reader.get_destination_page_number(o), str(o.title)) for o in reader.outline if not isinstance(o, list)
        ]
        form = [n for n, title in marks if title.startswith("Order form")]
        if form:
            count = pages - min(form)
            target = f"at most {FORM_PAGES_MOST}" if who == "whites" else ""
            met = count <= FORM_PAGES_MOST if who == "whites" else None
            found.append(Figure(f"pages: {who}' order form (A4)", [0.0], 0.0, target, met, str(count)))
    return found


SCAN_PAGES = 12


def scan_figures(env: dict[str, str], tmp: Path) -> list[Figure]:
    """`kitgen orders scan` of 12 pencilled pages of the sample's forms, each with a scanner's or
    phone's faults (made by tests/penciled.py in a child Python, so that this process's memory
    does not count in later figures), whole process; and pages read a second."""
    folder = tmp / "scanned"
    shutil.copytree(SAMPLE, folder)
    subprocess.run([*KITGEN, "next", str(folder)], env=env, cwd=ROOT, check=True, capture_output=True)
    made = subprocess.run(
        [sys.executable, str(Path(__file__)), "--make-scans", str(folder), str(tmp)],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    pages = made.stdout.split()[:SCAN_PAGES]
    scan = [*KITGEN, "orders", "scan", *pages, "--campaign", str(folder), "--partial"]  # four pages a faction
    done = subprocess.run(
        scan, env=env, cwd=ROOT, capture_output=True, text=True
    )  # the orders in: later runs change nothing
    if done.returncode != 0:
        raise SystemExit(f"benchmark command failed: {done.stderr[-3000:]}")
    seconds, peak = process(scan, 5, env=env)
    count = len(pages)
    each = Figure(
        f"kitgen orders scan, {count} pages (whole process)",
        seconds,
        peak,
        f"under {count} s",
        statistics.median(seconds) < count,
    )
    rate = count / each.median
    return [each, Figure("  pages read a second", [rate], 0, "at least 1", rate >= 1, f"{rate:.1f}")]


def report_figures(env: dict[str, str], tmp: Path) -> list[Figure]:
    """`kitgen orders import` of the umpire's battle report forms filled on screen: the Tsaritsyn
    sample's turn 3, its two battles taken out of the log and reported on the forms (made in a
    child Python by tests/reportfilling.py), whole process (issue 40: under 1 s)."""
    folder = tmp / "reported"
    made = subprocess.run(
        [sys.executable, str(Path(__file__)), "--make-reports", str(folder), str(tmp)],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    filled = made.stdout.split()[-1]
    # turn 3 is the scenario's last: once its battles are in, they are an amendment to it
    command = [*KITGEN, "orders", "import", filled, "--campaign", str(folder), "--turn", "3", "--amend"]
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)  # later runs write nothing
    if done.returncode != 0:
        raise SystemExit(f"benchmark command failed: {done.stderr[-3000:]}")
    return [
        figure("kitgen orders import, 2 battle report forms filled on screen", process(command, 7, env=env), under(1.0))
    ]


def within(limit_s: float, limit_mb: float) -> Callable[[Figure], tuple[str, bool]]:
    def judge(f: Figure) -> tuple[str, bool]:
        return (f"under {_time(limit_s)}, {limit_mb:.0f} MB", f.median < limit_s and f.peak_mb < limit_mb)

    return judge


def refused(args: list[str], runs: int, said: str, *, env: dict[str, str]) -> tuple[list[float], float]:
    """`process` of a command that must refuse its input: exit status 1, `said` in its words."""
    times, peak = [], 0
    for _ in range(runs):
        with tempfile.TemporaryFile() as log:
            start = time.perf_counter()
            child = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(child.pid, 0)
            times.append(time.perf_counter() - start)
            log.seek(0)
            words = log.read().decode("utf-8", "replace")
            if os.waitstatus_to_exitcode(status) != 1 or said not in words:
                raise SystemExit(f"benchmark command did not refuse its input: {' '.join(args)}\n{words[-3000:]}")
        peak = max(peak, usage.ru_maxrss)
    return times, peak / 1024


LIMIT_CASES = [
    ("scans.too-big.pdf", "file of scans past SCAN_BYTES (200 MB)", "found a file of more than"),
    ("pages.tif", "TIFF of 1,000,000 pages (SCAN_PAGES)", "found a TIFF of more than 200 pages"),
    ("pages.pdf", "PDF of scans of 100,000 pages (SCAN_PAGES)", "found a PDF of 100,000 pages"),
    ("huge.png", "PNG claiming 65535 x 65535 pixels (PAGE_PIXELS)", "found a picture of 65,535 x 65,535 pixels"),
    ("tiles.tif", "TIFF page in tiles of 16383 x 16383 (DECODER_BYTES)", "whose decoding would take"),
    ("pixels.tif", "TIFF of 200 pages of 7700 x 7700 (FILE_PIXELS)", "pixels in all"),
    ("sides.pdf", "PDF of 200 pages of 14400 pt (PAGE_POINTS)", "which no form could be"),
]
"""The worst case of each limit on a file of scans (kitgen.limits): its file, its figure's name,
and what kitgen says refusing it (`orders check`, which reads scans as `orders scan` does)."""
FORM_CASES = [
    ("form.too-big.pdf", "filled PDF past FORM_PDF_BYTES (20 MB)", "found a file of more than"),
    ("form-pages.pdf", "filled PDF of 100,000 pages (FORM_PAGES)", "found a PDF of 100,000 pages"),
    ("form-value.pdf", "filled PDF, a field of 8 MB (PDF_STRING_BYTES)", "its strings hold more than"),
    ("form-hex.pdf", "filled PDF, a field of 8 MB in hex (PDF_STRING_BYTES)", "its strings hold more than"),
    ("form-strings.pdf", "filled PDF, 15,000 fields of 1 kB (PDF_STRING_BYTES)", "its strings hold more than"),
    ("form-chars.pdf", "filled PDF, a field of 1,000,000 characters (FIELD_CHARS)", "found a value of 1,000,000"),
]
"""The worst case of each limit on a filled PDF (`orders import`)."""


def limit_figures(env: dict[str, str], tmp: Path) -> list[Figure]:
    """The worst case of each limit on pictures and PDFs refused, whole process (issue 41: each in
    under 2 s and 300 MB); the files made by tests/hostile.py in a child Python."""
    made = tmp / "hostile"
    subprocess.run([sys.executable, str(Path(__file__)), "--make-hostile", str(made)], env=env, cwd=ROOT, check=True)
    folder = tmp / "refusing"
    shutil.copytree(SAMPLE, folder)
    subprocess.run([*KITGEN, "next", str(folder)], env=env, cwd=ROOT, check=True, capture_output=True)
    figures = []
    for name, label, said in LIMIT_CASES:
        args = [*KITGEN, "orders", "check", str(made / name)]
        figures.append(figure(f"refused: {label}", refused(args, 3, said, env=env), within(2.0, 300)))
    for name, label, said in FORM_CASES:
        args = [*KITGEN, "orders", "import", str(made / name), "--campaign", str(folder)]
        figures.append(figure(f"refused: {label}", refused(args, 3, said, env=env), within(2.0, 300)))
    return figures


def make_hostile(out: Path) -> None:
    """The files of `LIMIT_CASES` and `FORM_CASES`, each a few bytes but past one limit."""
    sys.path.insert(0, str(ROOT))
    from kitgen.limits import FORM_PDF_BYTES, SCAN_BYTES
    from tests import hostile

    out.mkdir(parents=True, exist_ok=True)
    for name, size in (("scans.too-big.pdf", SCAN_BYTES), ("form.too-big.pdf", FORM_PDF_BYTES)):
        with (out / name).open("wb") as big:
            big.write(b"%PDF-1.7\n")
            big.truncate(size + 1)
    files = {
        "pages.tif": hostile.tiff([(8, 8)] * 1_000_000, pixels=b"\x00"),
        "pages.pdf": hostile.pages_pdf(100_000),
        "huge.png": hostile.png_header(65535, 65535),
        "tiles.tif": hostile.tiff([(8, 8)], tile=(16383, 16383), pixels=b"\x00"),
        "pixels.tif": hostile.tiff([(7700, 7700)] * 200, pixels=b"\x00"),
        "sides.pdf": hostile.pages_pdf(200, (14400, 14400)),
        "form-pages.pdf": hostile.pages_pdf(100_000),
    }
    catalogue = b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>"
    tree, page = b"<< /Type /Pages /Count 1 /Kids [3 0 R] >>", b"<< /Type /Page /Parent 2 0 R >>"
    values = {
        "form-value.pdf": b"(" + b"3416 " * 1_600_000 + b")",
        "form-hex.pdf": b"<" + b"41" * 8_000_000 + b">",
        "form-chars.pdf": b"(" + b"3416 " * 200_000 + b")",
    }
    for name, value in values.items():
        field = b"<< /T (o-w_drozdovsky_1-path) /V " + value + b" >>"
        files[name] = hostile.pdf([catalogue, tree, page, field])
    many = 15_000
    kids = b" ".join(b"%d 0 R" % (4 + k) for k in range(many))
    fields = [b"<< /T (o-w_%d-path) /V (%s) >>" % (k, b"x" * 1000) for k in range(many)]
    files["form-strings.pdf"] = hostile.pdf(
        [b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [%s] >> >>" % kids, tree, page, *fields]
    )
    for name, data in files.items():
        (out / name).write_bytes(data)


def limits_main() -> None:
    """`run.py --limits`: the rows of `limit_figures` alone."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "KITGEN_CACHE": str(Path(tmp) / "cache")}
        print_table(limit_figures(env, Path(tmp)))


def make_reports(folder: Path, out: Path) -> None:
    """The Tsaritsyn sample's turn 3 with its battles taken out, and its report forms filled with
    them on screen; the filled PDF's name printed."""
    sys.path.insert(0, str(ROOT))
    from tests.conftest import run_cli
    from tests.forms import fill_with_pypdf
    from tests.reportfilling import battle_ticks, forms_now, turn_3

    turn = turn_3(folder)
    assert run_cli("turn", str(folder)).returncode == 0
    _, _, forms = forms_now(folder)
    forms_pdf = folder / "packets" / "report-forms-turn-03-a4.pdf"
    print(fill_with_pypdf(forms_pdf, battle_ticks(forms, turn.battles), out / "reports-filled.pdf"))


def make_scans(folder: Path, out: Path) -> None:
    """Pencilled, scanned pages of the campaign's forms, their names printed."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from kitgen.campaign import load_campaign
    from tests.penciled import degrade, faults, filled_page, printed, random_orders, save

    rng = np.random.default_rng(10)
    grid = load_campaign(folder).board.grid
    for faction in ("reds", "whites", "ukrainians"):
        form = printed(folder, faction)
        for page in range(min(4, len(form.plans))):
            marks, written, _ = random_orders(form, page, {}, rng, doubt_rate=0.0, grid=grid)
            f = faults(rng)
            image = degrade(filled_page(form, page, marks, rng, dpi=f.dpi, written=written), f, rng)
            print(save(image, out / f"scan-{faction}-{page}.jpg"))


def chronicle_figures(env: dict[str, str]) -> list[Figure]:
    """The umpire's chronicle of 25, 50 and 100 turns of a 200-unit campaign (in process, history
    included): linear if a turn costs as much at the end as at the start."""
    r = in_child("chronicle-long", env)
    peak = float(r["peak_mb"])  # type: ignore[arg-type]
    found = [
        Figure(f"chronicle of {n} turns, 200 units (in process)", [float(x) for x in r[str(n)]], peak)  # type: ignore[attr-defined]
        for n in (25, 50, 100)
    ]
    ratio = found[2].median / found[0].median
    found.append(
        Figure("  ratio: 100 turns / 25 turns (linear: 4x)", [ratio], 0, "at most 5x", ratio <= 5.0, f"{ratio:.1f}x")
    )
    return found


def supply_figures(env: dict[str, str]) -> list[Figure]:
    r = in_child("supply", env)
    what = f"{r['hexes']} hexes x {r['factions']} factions"
    median = float(r["seconds"][0])  # type: ignore[index]
    spread = [float(r["low"]), median, float(r["high"])]  # type: ignore[arg-type]
    ours = Figure(
        f"B.3 supply, every hex, {what}, whole board (in process)",
        spread,
        float(r["peak_mb"]),
        "under 50 ms",
        median < 0.050,
    )  # type: ignore[arg-type]
    nx_med, nx_low, nx_high = (float(v) for v in r["nx"])  # type: ignore[attr-defined]
    bfs_med, bfs_low, bfs_high = (float(v) for v in r["nx_bfs"])  # type: ignore[attr-defined]
    ratio, ratio_bfs = nx_med / ours.median, bfs_med / ours.median
    return [
        ours,
        Figure("  networkx multi-source Dijkstra, same graph", [nx_low, nx_med, nx_high], float(r["peak_mb"])),
        Figure("  networkx multi-source BFS layers, same graph", [bfs_low, bfs_med, bfs_high], float(r["peak_mb"])),
        Figure("  ratio: networkx Dijkstra / whole board", [ratio], 0, "at least 5x", ratio >= 5, f"{ratio:.1f}x"),
        Figure(
            "  ratio: networkx BFS / whole board", [ratio_bfs], 0, "at least 5x", ratio_bfs >= 5, f"{ratio_bfs:.1f}x"
        ),
    ]


def print_table(figures: list[Figure]) -> None:
    width = max(len(f.name) for f in figures)
    print(f"{'figure'.ljust(width)}  {'median':>9}  {'min':>9}  {'max':>9}  {'peak':>7}  target")
    for f in figures:
        if f.shown:
            cells = f"{f.shown:>9}  {'':>9}  {'':>9}  {'':>7}"
        else:
            peak = f"{f.peak_mb:5.0f} MB" if f.peak_mb else ""
            cells = f"{_time(f.median):>9}  {_time(min(f.seconds)):>9}  {_time(max(f.seconds)):>9}  {peak:>7}"
        verdict = "" if f.met is None else ("  met" if f.met else "  MISSED")
        print(f"{f.name.ljust(width)}  {cells}  {f.target}{verdict}")
    missed = [f.name.strip() for f in figures if f.met is False]
    print(
        f"\n{len([f for f in figures if f.met])} targets met, {len(missed)} missed"
        + (f": {'; '.join(missed)}" if missed else "")
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--in":
        child_main(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "--make-scans":
        make_scans(Path(sys.argv[2]), Path(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == "--make-reports":
        make_reports(Path(sys.argv[2]), Path(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--make-hostile":
        make_hostile(Path(sys.argv[2]))
    elif sys.argv[1:] == ["--limits"]:
        limits_main()
    else:
        main()
