"""The scanner check read back (`kitgen orders check`): how a club's scanner or phone reads the
kit's check page, line by line, as counts, and whether it reads order forms."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import Problem, escape_controls
from kitgen.orders.sheetplan import CHECK_ASKED, CHECK_BOXES, CHECK_LINES, CHECK_READ
from kitgen.scan.readback import Unreadable

ASKED = "N"
"""The bubble of each step the check page asks to fill."""


@dataclass(frozen=True)
class LineRead:
    line: str
    """The line's name (`CHECK_LINES`): 'filled', 'ticked', 'crossed', 'empty', 'ringed' or 'erased'."""
    asked: Counter[str]
    """The calls of the bubbles the line asks about (each step's N; every bubble on the empty line)."""
    others: Counter[str]
    """The calls of the line's other bubbles, all to be empty."""


@dataclass(frozen=True)
class CheckRead:
    file: Path
    page: int
    paper: str
    markers: int
    dpi: float
    """The picture's resolution, from the markers' size."""
    lines: tuple[LineRead, ...]
    written: tuple[int, int]
    """Boxes seen written of those written in, and of those left blank."""

    def problems(self) -> list[Problem]:
        """What the scanner gets wrong: a filled, ticked or crossed bubble not read, an empty one not
        empty, a ringed one not asked about, a rubbed-out one read as marked, a box's writing missed or
        seen where there is none."""
        found = []
        by = {line.line: line for line in self.lines}
        wants = dict.fromkeys(CHECK_READ, "marked") | {"empty": "empty", "ringed": "doubt"}
        for name, want in wants.items():
            line = by[name]
            total = sum(line.asked.values())
            if line.asked[want] != total:
                found.append(msg.scan_check_missed(name, f"{line.asked[want]} of {total}", _calls(line.asked)))
        for name in CHECK_ASKED:
            if by[name].asked["marked"]:
                found.append(
                    msg.scan_check_missed(name, f"{by[name].asked['marked']} read as marked", _calls(by[name].asked))
                )
        for line in self.lines:
            if sum(line.others.values()) != line.others["empty"]:
                found.append(
                    msg.scan_check_missed(f"{line.line} (its other bubbles)", "not all empty", _calls(line.others))
                )
        seen, ghost = self.written
        if seen != 4 or ghost:
            found.append(
                msg.scan_check_missed("boxes", f"{seen} of 4 written, {ghost} of 4 blank seen written", "writing")
            )
        return [Problem.of(self.file, self.page, 1, m) for m in found]


def _calls(calls: Counter[str]) -> str:
    words = {"marked": "read as marked", "empty": "empty", "doubt": "asked about"}
    return ", ".join(f"{n} {words[c]}" for c, n in sorted(calls.items()))


def check_scans(files: list[Path]) -> tuple[list[CheckRead], list[Problem]]:
    """Each check page among the files' pages, read; and the pages that could not be."""
    import numpy as np

    from kitgen.orders.sheetplan import FixedPage, check_plan
    from kitgen.scan.images import pages_of
    from kitgen.scan.locate import find
    from kitgen.scan.readback import look

    reads: list[CheckRead] = []
    problems: list[Problem] = []
    for scan in pages_of(files, problems):
        found = find(scan.image)
        code = FixedPage.parse(found.qr_text or "", "CHECK") if found.code is None else None
        if code is None:
            what = "an order form's page" if found.code is not None else found.qr_text
            problems.append(Problem.of(scan.file, scan.page, 1, msg.scan_not_check(what or "no QR code")))
            continue
        plan = check_plan(code.paper)
        try:
            _, measures, boxes = look(scan.image, plan, found)
        except Unreadable as bad:
            problems.append(Problem.of(scan.file, scan.page, 1, bad.message))
            continue
        lines = []
        for name, _ in CHECK_LINES:
            mine = [m for m in measures if m.bubble.row == name]
            asked = [m for m in mine if name == "empty" or m.bubble.choice == ASKED]
            others = [m for m in mine if m not in asked]
            lines.append(LineRead(name, Counter(m.call for m in asked), Counter(m.call for m in others)))
        written = tuple(sum(boxes.get((name, k), False) for k in range(1, 5)) for name, _ in CHECK_BOXES)
        side = float(np.median([np.linalg.norm(q[1] - q[0]) for q in found.markers.values()]))
        dpi = side / (plan.layout.marker / 72)
        reads.append(
            CheckRead(scan.file, scan.page, code.paper, len(found.markers), dpi, tuple(lines), (written[0], written[1]))
        )
    return reads, problems


def report(read: CheckRead) -> list[str]:
    """The check's reading, in lines for the terminal."""
    said = {
        "filled": "filled in full",
        "ticked": "ticked",
        "crossed": "crossed",
        "empty": "left empty",
        "ringed": "ringed round",
        "erased": "filled and rubbed out",
    }
    out = [
        f"{escape_controls(read.file.name)}, page {read.page}: the scanner check ({read.paper}), {read.markers} of 4 markers, about {read.dpi:.0f} dpi"
    ]
    for line in read.lines:
        out.append(f"  {said[line.line]}: {_calls(line.asked)}; the other bubbles: {_calls(line.others) or 'none'}")
    out.append(f"  boxes written: {read.written[0]} of 4 seen; boxes left blank: {4 - read.written[1]} of 4 seen blank")
    out.append(
        "  it reads kitgen's order forms"
        if not read.problems()
        else "  it does not yet read kitgen's order forms right"
    )
    return out
