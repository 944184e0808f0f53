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
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'benchmark'.ljust(width)}  median     target")
    for name, seconds, target in rows:
        print(f"{name.ljust(width)}  {seconds * 1000:7.1f} ms  {target}")


if __name__ == "__main__":
    main()
