"""kitgen benchmarks: wall-clock figures printed as a table (never asserted in tests).

Run with `make bench`. Each figure is the median of several runs; the machine is noisy, so
compare medians, not single runs.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KITGEN = [sys.executable, "-m", "kitgen"]


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def command(*args: str) -> Callable[[], object]:
    return lambda: subprocess.run([*KITGEN, *args], check=True, capture_output=True, cwd=ROOT)


def with_hex_size(size_km: float) -> object:
    """The bundled scenario with another hex size, for the finer-grid figures."""
    from kitgen.loader import load_scenario

    s = load_scenario("denikin-1919")
    meta = s.meta.model_copy(update={"map": s.meta.map.model_copy(update={"hex_size_km": size_km})})
    return s.model_copy(update={"meta": meta})


def map_rows() -> list[tuple[str, float, str]]:
    import os
    import tempfile

    from kitgen.loader import load_scenario
    from kitgen.mapping.build import build_hex_map

    s = load_scenario("denikin-1919")
    finer = with_hex_size(15.0)
    finest = with_hex_size(7.5)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "KITGEN_CACHE": cache}
        json_args = [*KITGEN, "map", "--format", "json", "--out", str(Path(cache) / "map.json")]
        subprocess.run(json_args, check=True, capture_output=True, cwd=ROOT, env=env)  # fills the cache

        def cached() -> object:
            return subprocess.run(json_args, check=True, capture_output=True, cwd=ROOT, env=env)

        def pdfs() -> object:
            out = ["--out", str(Path(cache) / "pdf")]
            return subprocess.run([*KITGEN, "map", *out], check=True, capture_output=True, cwd=ROOT, env=env)

        from kitgen.mapping.cache import hex_map

        os.environ["KITGEN_CACHE"] = cache
        in_process = median_seconds(lambda: hex_map(s), 15)
        return [
            ("map grid from the disk cache, in process", in_process, "well under 1 s"),
            (
                "map grid, cold build in process (30 km, 54 x 34)",
                median_seconds(lambda: build_hex_map(s), 5),
                "a few s",
            ),
            ("kitgen map --format json, cached (process)", median_seconds(cached, 7), ""),
            ("map grid, cold, 4x the hexes (15 km)", median_seconds(lambda: build_hex_map(finer), 3), ""),  # type: ignore[arg-type]
            ("map grid, cold, 16x the hexes (7.5 km)", median_seconds(lambda: build_hex_map(finest), 1), ""),  # type: ignore[arg-type]
            ("kitgen map: poster + A4 tiles, cached grid (process)", median_seconds(pdfs, 3), ""),
        ]


def replay_rows() -> list[tuple[str, float, str]]:
    """Issue 4: replaying 100 turns of a campaign with 200 units, in process."""
    import os
    import tempfile

    from replay_campaign import build  # benchmarks/ is on sys.path when run as a script

    from kitgen.campaign import load_campaign
    from kitgen.engine.replay import replay

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["KITGEN_CACHE"] = str(Path(tmp) / "cache")
        folder = build(Path(tmp) / "big", units=200, turns=100)
        campaign = load_campaign(folder)
        replay(campaign)  # warm: the map cache and the scenario's look-up tables
        state = replay(campaign)
        label = f"replay {state.turn} turns, {len(state.units)} units (in process)"
        sample = ROOT / "data" / "sample-campaign"
        return [
            (label, median_seconds(lambda: replay(campaign), 5), "issue 4: under 1 s on one core"),
            ("load_campaign() of it", median_seconds(lambda: load_campaign(folder), 3), ""),
            ("kitgen state data/sample-campaign (process)", median_seconds(command("state", str(sample)), 5), ""),
        ]


def kit_rows() -> list[tuple[str, float, str]]:
    """Issue 5: the whole kit from a fresh process (interpreter start-up included), its pages,
    and the share of the time spent inside reportlab (in-process profile of the same build)."""
    import cProfile
    import os
    import pstats
    import tempfile

    from pypdf import PdfReader

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "KITGEN_CACHE": str(Path(tmp) / "cache")}
        out = Path(tmp) / "kit"
        args = [*KITGEN, "kit", "--out", str(out)]
        subprocess.run(args, check=True, capture_output=True, cwd=ROOT, env=env)  # fills the map cache

        def build() -> object:
            return subprocess.run(args, check=True, capture_output=True, cwd=ROOT, env=env)

        seconds = median_seconds(build, 3)
        pages = sum(len(PdfReader(f).pages) for f in out.glob("*.pdf") if f.name != "campaign-kit.pdf")
        os.environ["KITGEN_CACHE"] = env["KITGEN_CACHE"]
        from kitgen.loader import load_scenario_map
        from kitgen.products.kit import combined, kit_builders

        scenario, hex_map = load_scenario_map("denikin-1919")
        profile = cProfile.Profile()
        profile.enable()
        parts = [p for _, b in kit_builders(scenario, hex_map, "a4") for p in b()]
        combined(scenario, parts, "a4")
        profile.disable()
        stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
        total = sum(v[2] for v in stats.values())
        inside = sum(v[2] for k, v in stats.items() if "/reportlab/" in k[0])
    return [
        (f"kitgen kit, A4 ({pages} pages + campaign-kit.pdf; process)", seconds, "issue 5: under 5 s"),
        (f"  of the build, in reportlab itself: {inside / total:.0%}", inside, ""),
    ]


def main() -> None:
    from kitgen.loader import load_scenario

    rows = [
        ("kitgen --help (process)", median_seconds(command("--help"), 15), "issue 2: under 0.3 s"),
        (
            "kitgen validate data/denikin-1919 (process)",
            median_seconds(command("validate", "data/denikin-1919"), 10),
            "",
        ),
        ("kitgen lookup town Kiev (process)", median_seconds(command("lookup", "town", "Kiev"), 10), ""),
        ("load_scenario() in process", median_seconds(lambda: load_scenario("denikin-1919"), 30), ""),
        *map_rows(),
        *replay_rows(),
        *kit_rows(),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'benchmark'.ljust(width)}  median     target")
    for name, seconds, target in rows:
        print(f"{name.ljust(width)}  {seconds * 1000:7.1f} ms  {target}")


if __name__ == "__main__":
    main()
