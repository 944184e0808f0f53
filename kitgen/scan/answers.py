"""The umpire's answers to a scan's doubts kept in a file (`kitgen orders scan --answers FILE`):
one answer a line, as `--accept` takes it (`m_makhno_hq:2=NE`), the `--accept` before it allowed,
so that the lines a scan prints can be pasted in; blank lines and `#` comments left out."""

from __future__ import annotations

from pathlib import Path

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem

ANSWERS_BYTES = 256 * 1024
"""The most an answers file holds: thousands of answers, far more than a week's scans raise."""


def read_answers(path: Path) -> list[str]:
    """Each answer of the file, checked as `--accept` checks it; every line that is none is a
    problem at its line and column."""
    from kitgen.inputs import read_file
    from kitgen.reports.scans import is_own
    from kitgen.reports.scans import parse_accept as report_answer
    from kitgen.scan.readback import parse_accept

    raw = read_file(path, what="an answers file", limit=ANSWERS_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as bad:
        before = raw[: bad.start]
        at_line, at_column = before.count(b"\n") + 1, bad.start - (before.rfind(b"\n") + 1) + 1
        raise KitgenError.at(path, at_line, at_column, msg.scan_answers_not_utf8(raw[bad.start])) from None
    answers: list[str] = []
    problems: list[Problem] = []
    for n, line in enumerate(text.splitlines(), start=1):
        said = line.strip()
        if not said or said.startswith("#"):
            continue
        answer = said.removeprefix("--accept").strip()
        column = len(line) - len(line.lstrip()) + len(said) - len(answer) + 1  # the answer is the end of the line
        try:
            (report_answer if is_own(answer) else parse_accept)(answer)
        except ValueError as wrong:
            problems.append(Problem.of(path, n, column, msg.scan_answers_line(answer, str(wrong))))
            continue
        answers.append(answer)
    if problems:
        raise KitgenError(problems)
    return answers
