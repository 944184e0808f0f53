"""Write the manual's reference pages from the code itself, so that they cannot drift from it:
docs/reference/commands.md from the command line (every command, argument and option, with
its help, as `--help` gives them) and docs/reference/messages.md from the message catalogue
(every message kitgen can print, its code, what it means for the exit status, and its words).

`make docs` runs it before building the site; `tests/test_docs.py` fails if the committed
pages are not what it writes.

Usage: python tools/docs_reference.py [DOCS_DIR]
"""

from __future__ import annotations

import inspect
import itertools
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HEADER = "<!-- Written by tools/docs_reference.py from the code: edit the code, then run `make docs`. -->\n\n"


def commands_page() -> str:
    """Every command of `kitgen`, in the order `kitgen --help` lists them."""
    import typer

    from kitgen.cli import _summaries, app

    _summaries(app)
    root = typer.main.get_command(app)
    lines = [
        HEADER,
        "# Commands\n\n",
        "Every command, argument and option of `kitgen`, as its `--help` gives them. "
        "`kitgen COMMAND --help` prints the same at the terminal.\n\n",
    ]
    for path, command in _walk(root, ["kitgen"]):
        if not hasattr(command, "commands"):  # a group's own options are its commands' (`--help`)
            lines += _command(path, command)
    return "".join(lines)


def _walk(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield path, command
    if hasattr(command, "commands"):  # a group (typer's own click, not the click package)
        for name, sub in command.commands.items():
            if not sub.hidden:
                yield from _walk(sub, [*path, name])


def _command(path: list[str], command: Any) -> list[str]:
    ctx = command.context_class(command, info_name=" ".join(path))  # the click the command is built on
    usage = " ".join(command.collect_usage_pieces(ctx))
    out = [f"## {' '.join(path)}\n\n", f"```text\n{' '.join(path)} {usage}\n```\n\n"]
    out.append(_text(command.help or "") + "\n\n")
    arguments = [
        p for p in command.params if p.param_type_name == "argument" and p.metavar != ""
    ]  # "" : said with the one before
    options = [p for p in command.params if p.param_type_name == "option" and not p.hidden]
    if arguments:
        out.append("| Argument | What it takes |\n|---|---|\n")
        for p in arguments:
            out.append(f"| `{p.name}` | {_cell(getattr(p, 'help', '') or '')}{' (required)' if p.required else ''} |\n")
        out.append("\n")
    if options:
        out.append("| Option | What it takes |\n|---|---|\n")
        for p in options:
            names = ", ".join(f"`{o}`" for o in [*p.opts, *p.secondary_opts])
            value = "" if p.is_flag else f" `{_cell(p.make_metavar(ctx))}`"
            default = p.default if not callable(p.default) else None
            said = _cell(p.help or "")
            if default not in (None, False, "", ()) and not p.is_flag:
                said += f" Default: `{default}`."
            out.append(f"| {names}{value} | {said} |\n")
        out.append("\n")
    return out


def _text(text: str) -> str:
    """A docstring's paragraphs as Markdown paragraphs."""
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n") if p.strip())


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def messages_page() -> str:
    """Every entry of the message catalogue, by its code's family, with a made-up instance."""
    from kitgen import messages

    meaning = {
        "data": "bad input in a file: listed as `file:line:column`, exit status 1",
        "usage": "a bad argument on the command line: exit status 2",
        "note": "said, and nothing is stopped",
    }
    lines = [
        HEADER,
        "# Messages\n\n",
        "Every message kitgen prints about its input, from its catalogue, with its code. The words "
        "in angle brackets stand for what the message names (a file, a unit, a value); each message "
        "says what it found and what would be right. Its kind says what follows:\n\n",
        *(f"- **{kind}**: {what}\n" for kind, what in meaning.items()),
        "\n",
    ]
    for family, codes in itertools.groupby(sorted(messages.CATALOGUE), key=lambda code: code.split(".")[0]):
        lines.append(f"## {family}\n\n| Code | Kind | The message |\n|---|---|---|\n")
        for code in codes:
            entry = messages.CATALOGUE[code]
            lines.append(f"| `{code}` | {entry.kind} | {_cell(_instance(entry.make))} |\n")
        lines.append("\n")
    return "".join(lines)


def _instance(make: Any) -> str:
    """The message made from stand-ins for its values, by their types: a name as ‹name›, a
    number as a small number; where the words need real values, the values it names."""
    signature = inspect.signature(make)
    try:
        hints = typing.get_type_hints(make)
    except Exception:
        hints = {}
    args = [_stand_in(name, hints.get(name)) for name in signature.parameters]
    try:
        return str(make(*args).text)
    except Exception:
        named = ", ".join(f"‹{n}›" for n in signature.parameters)
        return f"(made from {named})"


def _stand_in(name: str, hint: Any) -> object:
    origin = typing.get_origin(hint) or hint
    if hint is int or origin is int:
        return 2
    if hint is float or origin is float:
        return 1.5
    if origin in (list, tuple, set, frozenset) or str(origin).startswith("<class 'collections.abc."):
        return [f"‹{name}›"]
    return f"‹{name}›"


PAGES = {"reference/commands.md": commands_page, "reference/messages.md": messages_page}


def write(docs: Path) -> list[Path]:
    """Each reference page written under `docs`; the paths written."""
    written = []
    for relative, make in PAGES.items():
        path = docs / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(make(), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "docs"):
        print(f"wrote {p}")
