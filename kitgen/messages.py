"""The error catalogue: the words of every problem and usage error kitgen shows.

Each entry is a function returning a `Msg`: its catalogue code and its text. The text says
what was found and what would be right; unknown names get a "did you mean" from `suggest`.
Call sites never write their own sentences: they pick an entry and give it the values.
`CATALOGUE` lists every entry (a test triggers each one at least once).
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, ParamSpec

from kitgen.errors import escape_controls

P = ParamSpec("P")
Kind = Literal["data", "usage", "note"]


@dataclass(frozen=True)
class Msg:
    """A catalogued message: the entry's code, its kind and the text made from its values."""

    code: str
    kind: Kind
    text: str

    def within(self, where: str) -> Msg:
        """The same message placed under a dotted key path (`units[3].stands: ...`)."""
        return Msg(self.code, self.kind, f"{quoted_value(where)}: {self.text}" if where else self.text)


MAX_QUOTED_CHARS = 300
"""The longest value a message quotes whole (a name, a cell, a line of a file): a longer one is
shown by its start and end, so that no message repeats a file's contents."""


def quoted_value(value: object) -> object:
    """A value as a message may quote it: text on one line (its control characters and line breaks
    escaped, `escape_controls`) and at most MAX_QUOTED_CHARS long; the texts of a list, tuple or set
    alike; any other value as it is."""
    if isinstance(value, str):
        if len(value) > MAX_QUOTED_CHARS:
            head, tail = value[: MAX_QUOTED_CHARS * 2 // 3], value[-(MAX_QUOTED_CHARS // 3) :]
            value = f"{head}... ({len(value):,} characters) ...{tail}"
        return escape_controls(str(value), newlines=False)
    if isinstance(value, (list, tuple, set, frozenset)):
        return type(value)(quoted_value(v) for v in value)
    return value


@dataclass(frozen=True)
class Entry:
    code: str
    kind: Kind
    make: Callable[..., Msg]


CATALOGUE: dict[str, Entry] = {}


def _entry(code: str, kind: Kind) -> Callable[[Callable[P, str]], Callable[P, Msg]]:
    def register(words: Callable[P, str]) -> Callable[P, Msg]:
        @functools.wraps(words)
        def make(*args: P.args, **kwargs: P.kwargs) -> Msg:
            quoted = [quoted_value(a) for a in args]
            return Msg(code, kind, words(*quoted, **{k: quoted_value(v) for k, v in kwargs.items()}))  # type: ignore[arg-type]

        if code in CATALOGUE:
            raise RuntimeError(f"catalogue code {code} is used twice")
        CATALOGUE[code] = Entry(code, kind, make)
        return make

    return register


def data(code: str) -> Callable[[Callable[P, str]], Callable[P, Msg]]:
    """An entry for bad data in a file: reported as file:line:column, exit status 1."""
    return _entry(code, "data")


def usage(code: str) -> Callable[[Callable[P, str]], Callable[P, Msg]]:
    """An entry for a bad command-line argument: exit status 2."""
    return _entry(code, "usage")


def note(code: str) -> Callable[[Callable[P, str]], Callable[P, Msg]]:
    """An entry for something passed over or worth saying, which stops nothing."""
    return _entry(code, "note")


def suggest(value: object, choices: Iterable[str]) -> str:
    """'; did you mean 'Kiev'?' for the closest names, or '' when nothing is close."""
    close = difflib.get_close_matches(str(value), list(dict.fromkeys(choices)), n=3, cutoff=0.6)
    if not close:
        return ""
    return "; did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


def one_of(choices: Iterable[str], *, limit: int = 12) -> str:
    """'a, b or c' (the first `limit` of a long list, then how many more)."""
    names = list(choices)
    if not names:
        return "nothing (none are defined)"
    shown = names[:limit]
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    if len(shown) == 1:
        return shown[0] + more
    return ", ".join(shown[:-1]) + (f", {shown[-1]}{more}" if more else f" or {shown[-1]}")


def unknown_name(value: object, choices: Iterable[str], *, what: str = "", also: Iterable[str] = ()) -> str:
    """ "found 'Kief', expected one of ...; did you mean 'Kiev'?" (the names, then the closest).

    `what` names the kind of thing ("found the unknown town 'Kief'"); `also` are more names to
    suggest from without listing them (a town's other spellings)."""
    names = list(choices)
    found = f"the unknown {what} '{value}'" if what else f"'{value}'"
    return f"found {found}, expected one of {one_of(names)}{suggest(value, [*names, *also])}"


def ordinal(n: int) -> str:
    """3 -> '3rd', 11 -> '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


# --- reading files -----------------------------------------------------------------------


@data("file.missing")
def file_missing(what: str) -> str:
    return f"found nothing; expected {what}"


@data("scenario.not_a_scenario")
def scenario_not_a_scenario() -> str:
    return "found no scenario.yaml, so this is not a scenario folder; expected a folder like data/denikin-1919"


@data("file.dangling_link")
def file_dangling_link(target: str) -> str:
    return f"found a symbolic link to {target}, which does not exist; expected a regular file"


@data("file.link_loop")
def file_link_loop() -> str:
    return "found a loop of symbolic links; expected a regular file (or a link to one)"


@data("file.not_regular")
def file_not_regular(kind: str) -> str:
    return f"found {kind}; expected a regular file (kitgen reads no devices, pipes or sockets)"


@data("file.is_folder")
def file_is_folder() -> str:
    return "found a folder; expected a regular file"


@data("file.too_big")
def file_too_big(limit: int) -> str:
    return f"found a file of more than {limit:,} bytes; expected at most {limit:,} bytes"


@data("file.unreadable")
def file_unreadable(reason: str) -> str:
    return f"cannot read the file ({reason}); expected a file kitgen may read"


@data("folder.not_folder")
def folder_not_folder(kind: str, what: str) -> str:
    return f"found {kind}; expected {what}"


# --- YAML text ---------------------------------------------------------------------------


@data("yaml.not_utf8")
def yaml_not_utf8(byte: int) -> str:
    return f"found the byte 0x{byte:02X}, which is not UTF-8; save the file as UTF-8 text"


@data("yaml.control_character")
def yaml_control_character(codepoint: int) -> str:
    return f"found the control character U+{codepoint:04X}; delete it (YAML allows tabs and line breaks only)"


@data("yaml.nul")
def yaml_nul() -> str:
    return "found a NUL byte; the file is not text: save it as UTF-8 YAML"


@data("yaml.tab")
def yaml_tab() -> str:
    return "found a tab; YAML indents with spaces only: replace the tab with spaces"


@data("yaml.missing_colon")
def yaml_missing_colon(text: str) -> str:
    return f"found '{text}' with no ':' after the key; write 'key: value' (a colon and a space)"


@data("yaml.bad_indent")
def yaml_bad_indent() -> str:
    return "found a line indented differently from the keys above it; indent keys of one mapping alike"


@data("yaml.unclosed")
def yaml_unclosed(opener: str, closer: str) -> str:
    if opener in "'\"":
        return f"found a quote {opener} that is never closed; expected a closing {closer} where the text ends"
    return f"found a '{opener}' that is never closed; expected a '{closer}' (or a ',' between items)"


@data("yaml.too_deep")
def yaml_too_deep(limit: int) -> str:
    return f"found lists or mappings nested more than {limit} deep; expected the shallow data of a kitgen file"


@data("yaml.syntax")
def yaml_syntax(problem: str) -> str:
    return f"found text YAML cannot read ({problem}); expected YAML, as in the manual's examples"


@data("yaml.empty")
def yaml_empty() -> str:
    return "found an empty file; expected a YAML mapping or list"


@data("yaml.tag")
def yaml_tag(tag: str) -> str:
    return f"found the tag {tag}; expected plain lists and mappings (kitgen allows no tags)"


@data("yaml.merge_key")
def yaml_merge_key() -> str:
    return "found a YAML merge key ('<<'); write the keys out"


@data("yaml.complex_key")
def yaml_complex_key() -> str:
    return "found a list or mapping as a mapping key; expected a plain value"


@data("yaml.recursive_alias")
def yaml_recursive_alias() -> str:
    return "found an alias to the node that contains it; expected data without such loops"


@data("yaml.alias_bomb")
def yaml_alias_bomb(limit: int) -> str:
    return f"found more than {limit:,} values once aliases are expanded; write the data out without so many aliases"


@data("yaml.duplicate_key")
def yaml_duplicate_key(key: object) -> str:
    return f"found the key '{key}' a second time in the same mapping; expected each key once"


@data("yaml.bad_scalar")
def yaml_bad_scalar(text: str, problem: str) -> str:
    return f"found {text!r}, which YAML cannot read as a value ({problem}); put it in quotes"


@data("yaml.number_reading")
def yaml_number_reading(raw: str, reading: str, value: object) -> str:
    quoted = "; hex ids always go in quotes" if raw.isdigit() else ""
    return (
        f"found {raw} unquoted, which YAML reads as the {reading} number {value}; "
        f"write '{raw}' in quotes for text{quoted}, or the number as plain decimal digits"
    )


@data("yaml.huge_number")
def yaml_huge_number(raw: str, limit: int) -> str:
    return f"found the number {raw[:24]}{'...' if len(raw) > 24 else ''}; expected at most {limit:,} in size"


@data("yaml.not_finite")
def yaml_not_finite(raw: str) -> str:
    return f"found {raw}, which is not a finite number; expected a number (or text in quotes)"


# --- outputs -----------------------------------------------------------------------------


@usage("out.not_regular")
def out_not_regular(path: str, kind: str) -> str:
    return (
        f"{path} is {kind}; expected a regular file or a new name "
        "(kitgen writes only regular files, and replaces nothing else)"
    )


@usage("out.is_folder")
def out_is_folder(path: str) -> str:
    return f"{path} is a folder; expected a file name"


@usage("out.folder_not_folder")
def out_folder_not_folder(path: str, kind: str) -> str:
    return f"{path} is {kind}; expected a folder (new, empty, or one kitgen wrote before)"


@usage("out.foreign_files")
def out_foreign_files(path: str, names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{path} holds files kitgen did not write ({shown}); expected a new or empty folder, or one kitgen "
        "wrote before: give another --out, or move those files away"
    )


@usage("out.changed_meanwhile")
def out_changed_meanwhile(path: str, names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{path} changed while kitgen was writing the new set ({shown} saved there meanwhile); expected it left "
        "alone: nothing was replaced, and those files are where they were; run the command again"
    )


@usage("out.changed_since")
def out_changed_since(path: str, names: list[str]) -> str:
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return (
        f"{path}: found {shown} changed since kitgen wrote it (a form filled and saved in place?); expected "
        "kitgen's own file to replace: nothing was written; move it away (it is yours now), or give another --out"
    )


@usage("out.cannot_write")
def out_cannot_write(path: str, reason: str) -> str:
    return f"cannot write {path} ({reason}); expected a folder kitgen may write to"


@usage("out.protected")
def out_protected(path: str, what: str) -> str:
    return (
        f"found {path} to be {what}; expected a file or folder outside a campaign's own files (campaign.yaml, "
        "setup.yaml, turns/, backups/) and outside every scenario folder, which kitgen never writes over: "
        "give another --out"
    )


# --- values of a data file (the models' checks) ------------------------------------------


@data("value.unknown_key")
def value_unknown_key(key: object, allowed: list[str]) -> str:
    expected = f", expected one of {one_of(allowed, limit=40)}" if allowed else ", expected no key here"
    return f"found the unknown key '{key}'{expected}{suggest(key, allowed)}"


@data("value.missing_key")
def value_missing_key() -> str:
    return "found nothing; expected this key, which is required"


@data("value.wrong_type")
def value_wrong_type(found: str, expected: str, rule_range: str = "") -> str:
    return f"found {found}, expected {expected}{rule_range}"


@data("value.out_of_range")
def value_out_of_range(found: str, bound: str, rule_range: str = "") -> str:
    return f"found {found}, expected {bound}{rule_range}"


@data("value.too_few")
def value_too_few(actual: int, least: int) -> str:
    return f"found {plural(actual, 'entry', 'entries')}, expected at least {least}"


@data("value.too_many")
def value_too_many(actual: int, most: int) -> str:
    return f"found {plural(actual, 'entry', 'entries')}, expected at most {most}"


@data("value.empty_text")
def value_empty_text() -> str:
    return "found an empty text, expected at least 1 character"


@data("value.literal")
def value_literal(found: str, expected: str) -> str:
    return f"found {found}, expected {expected}"


@data("value.invalid")
def value_invalid(found: str, detail: str) -> str:
    return f"found {found}, which is not valid here ({detail})"


@data("value.length")
def value_length(found: str) -> str:
    return f"found {found}, expected a length like '12mm', '0.5in' or '8pt' (a bare number is points)"


@data("layout.extends_unknown")
def layout_extends_unknown(found: str, names: list[str]) -> str:
    return f"found extends: {found}, expected the name of another layout in this file ({one_of(names)})"


@data("layout.extends_loop")
def layout_extends_loop(chain: str) -> str:
    return f"found layouts that extend each other in a loop ({chain}), expected each to extend one that does not"


@data("packet.no_such_turn")
def packet_no_such_turn(turn: int, last: int) -> str:
    return (
        f"found --turn {turn}, expected a turn from 1 to {last + 1}: the logs reach turn {last}, "
        "and a packet is for a turn played or the next one"
    )


@data("value.control")
def value_control(char: str, at: int, expected: str) -> str:
    return f"found the control character {char} at character {at}; expected {expected}"


@data("value.ident")
def value_ident(found: str) -> str:
    return f"found {found}, expected a lower-case name of letters, digits and '_' (like 'armoured_car')"


@data("value.path_name")
def value_path_name(found: str) -> str:
    return (
        f"found {found}, expected a name for files and folders: lower-case letters, digits, '-' and '_', "
        "at most 64, starting with a letter or digit (like 'denikin-1919')"
    )


@data("value.dice")
def value_dice(found: str) -> str:
    return f"found {found}, expected dice such as 'D6', '2D6', '3D6' or 'D10'"


@data("value.move_cost")
def value_move_cost(found: str) -> str:
    return f"found {found}, expected a whole number of movement points or 'p*' (prohibited unless road/rail)"


@data("value.vp")
def value_vp(found: str) -> str:
    return f"found {found}, expected a whole number of VP (0 or more) or '-' (no VP for this faction)"


@data("value.colour")
def value_colour(found: str) -> str:
    return f"found {found}, expected a colour like '#D55E00'"


@data("value.history_date")
def value_history_date(found: str) -> str:
    return f"found {found}, expected a date of history in quotes, a day like '1919-05-07' or a month like '1919-05'"


@data("value.hex_id")
def value_hex_id(found: str) -> str:
    return f"found {found}, expected a hex id in quotes, like '0304' (CCRR)"


@data("value.lon_lat")
def value_lon_lat(found: str) -> str:
    return f"found {found}, expected a position [lon, lat] in degrees, like [30.52, 50.45]"


@data("value.extent")
def value_extent(west: float, east: float, south: float, north: float) -> str:
    return f"found west {west}, east {east}, south {south}, north {north}; expected west < east and south < north"


@data("value.parallels")
def value_parallels(a: float, b: float) -> str:
    return f"found {a} and {b}; expected two parallels on one side of the equator"


@data("value.source_kind")
def value_source_kind(found: str) -> str:
    return f"found {found}; expected exactly one of rail_exits, town, ports, depots"


@data("value.override")
def value_override(found: str) -> str:
    return (
        f"found {found}; expected one of hex (with terrain, port, coastal), hexside (with river, class, bridge, "
        "sea, remove), rail or road (with remove)"
    )


@data("value.map_geography")
def value_map_geography(missing: str) -> str:
    return (
        f"found no board and no {missing}; expected a board: section (the map hex by hex) or the map's "
        "geography: extent, projection, rivers and supply_sources"
    )


@data("value.source_limits")
def value_source_limits(found: str) -> str:
    return f"found {found} on a source that is not rail_exits; north_of, south_of, east_of and west_of go only with rail_exits"


@data("value.effect_fields")
def value_effect_fields(kind: str, needed: str, found: str) -> str:
    return f"found {found} on a {kind} effect; expected {needed}"


@data("value.reach_bands")
def value_reach_bands(bands: int, alphas: int, given: list[int]) -> str:
    return (
        f"found {bands} reach bands {given} and {alphas} tints; expected the bands rising, each MP once, "
        "and one tint more than bands (the last band is everything beyond)"
    )


@data("value.win_fields")
def value_win_fields(kind: str, needed: str, found: str) -> str:
    return f"found {found} on a {kind} win condition; expected {needed} (not empty), besides faction and when"


# --- scenarios and campaigns -------------------------------------------------------------


# --- order forms read back (kitgen orders import) ---------------------------------------------


@data("orders.not_a_form")
def orders_not_a_form(found: str) -> str:
    return (
        f"found {found}; expected a kitgen order form: a PDF made by `kitgen orders form`, or a .csv whose "
        "header row names the columns id, hex, type, stands, mp, supply, commander, target, path, carry, special"
    )


@data("orders.unreadable_pdf")
def orders_unreadable_pdf(why: str) -> str:
    return f"found a file that cannot be read as a PDF: {why}; expected an order form made by `kitgen orders form`"


@data("orders.pdf_password")
def orders_pdf_password() -> str:
    return (
        "found a PDF locked with a password to open it; expected the form saved without one (a form "
        "restricted with an empty password to open it, as Acrobat saves one, is read as it is)"
    )


@data("orders.field_not_text")
def orders_field_not_text(name: str, kind: str) -> str:
    return f"field {name}: found {kind}; expected the text typed into the field (or nothing)"


@data("orders.field_value_too_long")
def orders_field_value_too_long(name: str, length: int, limit: int) -> str:
    return (
        f"field {name}: found a value of {length:,} characters; expected at most {limit:,} (the longest order, "
        "a path of 64 hexes, is 320)"
    )


@data("orders.tick_value")
def orders_tick_value(name: str, kind: str) -> str:
    return f"tick box {name}: found {kind}; expected it ticked (/Yes) or not (/Off or nothing)"


@data("orders.field_twice")
def orders_field_twice(name: str, count: int) -> str:
    return f"found {count} fields named {name}; expected one field of each name, as `kitgen orders form` makes it"


@data("orders.field_name_too_long")
def orders_field_name_too_long(start: str, length: int, limit: int) -> str:
    return (
        f"found a field named '{start}...', {length:,} characters long; expected a field name of at most "
        f"{limit} characters, as every field of `kitgen orders form` has"
    )


@data("orders.misspelt_field")
def orders_misspelt_field(name: str, close: list[str]) -> str:
    return (
        f"found the field '{name}', which is named like a kitgen field but is none; expected o-<row id>-path, "
        f"-carry or -special, a tick box o-<row id>-special-<order> or -carry-<unit id>, or id-<faction>-faction, "
        f"-turn, -campaign or -state{suggest(name.strip().lower(), close)}"
    )


@data("orders.too_many_pages")
def orders_too_many_pages(pages: int | str, limit: int) -> str:
    return f"found a PDF of {pages} pages; expected an order form of at most {limit}"


@data("orders.too_many_rows")
def orders_too_many_rows(limit: int) -> str:
    return f"found more than {limit} rows; expected one row per unit, train and ship of one faction"


@data("orders.several_forms")
def orders_several_forms(factions: list[str]) -> str:
    return f"found the order forms of {' and '.join(factions)} in one PDF; expected the form of one faction (import each alone)"


@data("orders.csv_header")
def orders_csv_header(found: str, expected: list[str]) -> str:
    return (
        f"found the header row '{found}'; expected the columns {', '.join(expected)} (id, path, carry and special "
        "at least), separated by commas, semicolons or tabs"
    )


@data("orders.csv_column_twice")
def orders_csv_column_twice(name: str, count: int) -> str:
    return (
        f"found the column '{name}' {count} times in the header row; expected each column once, as "
        "`kitgen orders form --csv` writes them (the orders under the other would be lost)"
    )


@data("orders.csv_extra_cells")
def orders_csv_extra_cells(found: int, columns: int) -> str:
    return (
        f"found {found} cells on this row, more than the header row's {columns} columns; expected a cell under each "
        "column at most (a delimiter or quote too many?)"
    )


@data("orders.csv_open_quote")
def orders_csv_open_quote(lines: int, *, to_end: bool) -> str:
    runs = "to the end of the file" if to_end else f"over {lines} lines"
    return (
        f'found a quote (") opening a cell that runs on {runs}; expected each row on one line: close the quote '
        "on its line, or take the line breaks out of the cell"
    )


@data("orders.csv_after_quote")
def orders_csv_after_quote() -> str:
    return (
        "found text after a cell's closing quote (\"); expected a delimiter or the end of the row there (a quote "
        'inside a quoted cell is written twice: "")'
    )


@data("orders.csv_delimiter")
def orders_csv_delimiter(names: list[str]) -> str:
    return (
        f"found a header row that splits into the form's columns at {' and at '.join(names)} alike; expected "
        "one delimiter, so that the rows read one way (save the sheet again as CSV)"
    )


@data("orders.wrong_form")
def orders_wrong_form(what: str, found: str, expected: str) -> str:
    return f"found a form for {what} {found}; expected one for {what} {expected} (make it with `kitgen orders form`)"


@data("orders.csv_identity")
def orders_csv_identity(found: str) -> str:
    return (
        f"found the form's identity row holding {quoted_value(found) if found else 'nothing'}; expected the row as "
        "`kitgen orders form --csv` wrote it (faction=… turn=… campaign=… state=…), or no such row at all"
    )


@data("orders.csv_identity_twice")
def orders_csv_identity_twice(first: int) -> str:
    return (
        f"found a second identity row (the first on line {first}); expected one: two forms pasted into one "
        "spreadsheet? Send each faction's form as a file of its own"
    )


@data("orders.no_faction")
def orders_no_faction(found: str) -> str:
    return f"found rows of {found}; expected the rows of one faction's units, trains and ships"


@data("orders.unknown_row")
def orders_unknown_row(row: str, faction: str, known: list[str]) -> str:
    return (
        f"found the row '{row}'; expected a unit, train or ship of the {faction} on the map "
        f"({one_of(known)}){suggest(row, known)}"
    )


@data("orders.row_twice")
def orders_row_twice(row: str) -> str:
    return f"found a second row for '{row}'; expected one row per unit, train and ship"


@data("orders.bad_hex")
def orders_bad_hex(found: str) -> str:
    return f"found '{found}'; expected hex ids of 4 digits (CCRR) separated by spaces, commas or dashes, e.g. 3316 3216"


@data("orders.off_map")
def orders_off_map(hex_id: str) -> str:
    return f"found the hex {hex_id}, which is not on the map; expected a hex id of the map"


@data("orders.path_too_long")
def orders_path_too_long(found: int, form: int, limit: int) -> str:
    return f"found a path of {found} hexes; expected at most {limit} (the form holds {form})"


@data("orders.not_for_row")
def orders_not_for_row(found: str, kind: str, expected: str) -> str:
    return f"found '{found}' for a {kind}; expected {expected}"


@data("orders.unknown_carried")
def orders_unknown_carried(unit: str, faction: str, known: list[str]) -> str:
    return f"found the unit '{unit}'; expected units of the {faction} ({one_of(known)}){suggest(unit, known)}"


@data("orders.carried_twice")
def orders_carried_twice(unit: str) -> str:
    return f"found '{unit}' twice; expected each carried unit once"


@data("orders.bad_special")
def orders_bad_special(found: str, allowed: tuple[str, ...]) -> str:
    """The closest special word is suggested when the word itself is wrong (`retreet`), not when
    a known word has the wrong hexes after it."""
    words = [a.split(" HEX")[0] for a in allowed]  # "repair HEX [HEX]" -> "repair"
    said = found.split()
    close = ""
    if said and said[0] not in words and " ".join(said[:2]) not in words:
        close = suggest(said[0], words) or suggest(" ".join(said[:2]), words)
    return f"found the special order '{found}'; expected {one_of(allowed) if allowed else 'none for this row'}{close}"


@data("orders.partisans_differ")
def orders_partisans_differ(choice: str, hex_id: str, other: str, other_unit: str) -> str:
    return f"found {choice} in {hex_id}, where {other_unit} says {other}; expected one choice for the partisans of a hex (II.D)"


@data("orders.void")
def orders_void(explanation: str, rule: str) -> str:
    return f"found an order the rules make void: {explanation}; expected an order that stands ({rule})"


@data("orders.log_refused")
def orders_log_refused(text: str) -> str:
    return f"found that the turn log with these orders cannot be played: {text}; expected orders the log can take"


@data("orders.splice_mismatch")
def orders_splice_mismatch(section: str) -> str:
    return (
        f"found that the log rewritten around the new orders reads back differently (in {section}); expected the "
        "orders merged and nothing else changed: the log is left as it was"
    )


@usage("scenario.unknown")
def scenario_unknown(name: str, bundled: list[str]) -> str:
    names = one_of(bundled) if bundled else "none are bundled"
    return (
        f"no scenario '{name}'; expected a scenario folder or a bundled scenario name ({names}){suggest(name, bundled)}"
    )


@data("scenario.unknown_file")
def scenario_unknown_file(name: str, known: list[str]) -> str:
    return f"found the unknown scenario file {name}; expected only {one_of(known, limit=40)}{suggest(name, known)}"


@data("campaign.scenario_unknown")
def campaign_scenario_unknown(name: str, bundled: list[str]) -> str:
    names = one_of(bundled) if bundled else "none are bundled"
    return (
        f"scenario: found '{name}', which is neither a bundled scenario nor a scenario folder; expected a "
        f"bundled name ({names}) or a folder relative to the campaign folder{suggest(name, bundled)}"
    )


@data("campaign.misnamed_log")
def campaign_misnamed_log(name: str, right: str) -> str:
    return f"found {name}, which looks like a turn log but is misnamed; expected {right} (turn-NN.yaml)"


@data("campaign.link_outside")
def campaign_link_outside(target: str) -> str:
    return (
        f"found a symbolic link to {target}, outside the campaign folder; expected the campaign's own file, inside "
        "its folder (copy the file in rather than link to it)"
    )


WAITS = "its result waits for what that turn still owes (its orders, rolls and battles)"
"""How the end stands before the last turn is finished (RULES-NOTES, 2026-12-05)."""


@data("campaign.past_the_end")
def campaign_past_the_end(turn: int, ended: int, how: str) -> str:
    return (
        f"found turn {turn} asked for, but the scenario ended after turn {ended}: {how}; expected a turn up to "
        f"{ended}, or 'play_on: true' in campaign.yaml if the club plays on (a house rule)"
    )


@note("note.scenario_outside")
def note_scenario_outside(folder: str) -> str:
    return f"note: the scenario is read from {folder}, outside the campaign folder"


@note("note.no_turns_folder")
def note_no_turns_folder() -> str:
    return "note: no turns/ folder, so no turn logs yet (kitgen new makes one)"


@note("note.not_replayed")
def note_not_replayed(later: list[str]) -> str:
    return f"note: the replay stops here, so these later logs were not checked: {', '.join(later)}"


@note("note.editor_file")
def note_editor_file() -> str:
    return "note: skipped, a hidden or backup file (an editor's); only turn-NN.yaml files are logs"


@note("note.not_a_log")
def note_not_a_log() -> str:
    return "note: skipped, not a turn log; only turn-NN.yaml files are logs"


@usage("new.not_empty")
def new_not_empty(folder: str) -> str:
    return f"{folder} is not an empty folder; expected a new or empty folder for the new campaign"


@usage("install.incomplete")
def install_incomplete(folder: str, package: str) -> str:
    return (
        f"found no {folder}/ in the installed kitgen at {package}; expected it there, as the wheel installs it: "
        "install kitgen again (pipx reinstall kitgen)"
    )


@usage("samples.unknown")
def samples_unknown(name: str, known: list[str]) -> str:
    return f"no sample campaign '{name}'; expected {one_of(known) if known else 'a bundled one (none are)'}{suggest(name, known)}"


@usage("new.bad_seed")
def new_bad_seed(seed: int, most: int) -> str:
    return f"--seed {seed}: expected a whole number from 0 to {most:,}"


@data("setup.off_map")
def setup_off_map(place: str) -> str:
    return f"found '{place}', which lies off the map; expected a place on it"


# --- cross-checks between the files of a scenario (kitgen.checks) ------------------------


def _twice(what: str, name: str, first: str) -> str:
    spelt = f" (first as '{first}')" if first != name else ""
    return f"found the {what} '{name}' a second time{spelt}; expected each {what} once"


@data("check.duplicate_faction")
def check_duplicate_faction(name: str, first: str) -> str:
    return _twice("faction", name, first)


@data("check.duplicate_town")
def check_duplicate_town(name: str, first: str) -> str:
    return _twice("town name", name, first)


@data("check.duplicate_commander")
def check_duplicate_commander(name: str, first: str) -> str:
    return _twice("commander", name, first)


@data("check.duplicate_point")
def check_duplicate_point(name: str, first: str) -> str:
    return _twice("point", name, first)


@data("check.unknown_river")
def check_unknown_river(name: str, rivers: list[str]) -> str:
    return f"found the river '{name}', which the map does not have; expected one of {', '.join(rivers)}"


@data("check.duplicate_river")
def check_duplicate_river(name: str, first: str) -> str:
    return _twice("river", name, first)


@data("check.duplicate_id")
def check_duplicate_id(name: str, first: str) -> str:
    return _twice("id", name, first)


@data("check.duplicate_card")
def check_duplicate_card(name: str, first: str) -> str:
    return _twice("event card", name, first)


@data("check.duplicate_slip")
def check_duplicate_slip(name: str, first: str) -> str:
    return _twice("slip", name, first)


@data("check.duplicate_terrain")
def check_duplicate_terrain(name: str, first: str) -> str:
    return _twice("terrain", name, first)


@data("check.duplicate_unit_type")
def check_duplicate_unit_type(name: str, first: str) -> str:
    return _twice("unit type", name, first)


@data("check.duplicate_stand_kind")
def check_duplicate_stand_kind(name: str, first: str) -> str:
    return _twice("stand kind", name, first)


@data("check.duplicate_ruling")
def check_duplicate_ruling(name: str) -> str:
    return f"found the ruling '{name}' a second time; expected each ruling id once in the scenario"


@data("check.unknown_faction")
def check_unknown_faction(value: str, factions: list[str]) -> str:
    return unknown_name(value, factions, what="faction")


@data("check.win_needs_last_turn")
def check_win_needs_last_turn() -> str:
    return (
        "found a win condition judged at the last turn, but scenario.yaml gives no last turn (turns: last: null); "
        "expected when: any_turn, or a last turn"
    )


@data("check.win_against_itself")
def check_win_against_itself(faction: str) -> str:
    return f"found '{faction}' among the enemies whose units it must eliminate; expected only other factions"


@data("check.unknown_scoring_faction")
def check_unknown_scoring_faction(value: str, scoring: list[str]) -> str:
    return f"found '{value}', expected a faction that scores VP: {one_of(scoring)}{suggest(value, scoring)}"


@data("check.unknown_town")
def check_unknown_town(value: str, towns: list[str], other_names: list[str] | None = None) -> str:
    names = [*towns, *(other_names or [])]
    return (
        f"found the unknown town '{value}', expected a town of towns.yaml (by any of its names){suggest(value, names)}"
    )


@data("check.unknown_commander")
def check_unknown_commander(value: str, commanders: list[str], other_names: list[str] | None = None) -> str:
    names = [*commanders, *(other_names or [])]
    return f"found the unknown commander '{value}', expected a commander of commanders.yaml{suggest(value, names)}"


@data("check.unknown_stand_kind")
def check_unknown_stand_kind(value: str, kinds: list[str]) -> str:
    return unknown_name(value, kinds, what="stand kind")


@data("check.unknown_unit_type")
def check_unknown_unit_type(value: str, types: list[str]) -> str:
    return unknown_name(value, types, what="unit type")


@data("check.unknown_rail_unit_type")
def check_unknown_rail_unit_type(value: str, types: list[str]) -> str:
    return f"found '{value}', expected a rail_only unit type: {one_of(types)}{suggest(value, types)}"


@data("check.unknown_moves_as")
def check_unknown_moves_as(value: str, types: list[str]) -> str:
    return f"found '{value}', expected another unit type with its own costs: {one_of(types)}{suggest(value, types)}"


@data("check.unknown_terrain")
def check_unknown_terrain(value: str, terrains: list[str]) -> str:
    return unknown_name(value, terrains, what="terrain")


@data("check.unknown_ruling")
def check_unknown_ruling(value: str, rulings: list[str]) -> str:
    return unknown_name(value, rulings, what="ruling")


@data("check.unknown_source_unit")
def check_unknown_source_unit(value: str, ids: list[str]) -> str:
    return f"found a source for the unknown unit '{value}', expected the id of a unit of this file{suggest(value, ids)}"


@data("check.post_unplaced")
def check_post_unplaced(value: str, names: list[str]) -> str:
    return (
        f"found a post for '{value}', who commands no unit of this set-up, expected a commander "
        f"placed with a unit{suggest(value, names)}"
    )


@data("check.post_not_held")
def check_post_not_held(name: str, post: str, since: str, until: str | None, start: str) -> str:
    held = f"from {since} to {until}" if until else f"from {since}"
    return (
        f"found {name} placed at the start ({start}) with his post '{post}' held only {held}, "
        "expected a commander in post on the start day (move the unit's commander, or correct the dates)"
    )


@data("check.unknown_station")
def check_unknown_station(value: str, places: list[str]) -> str:
    return (
        f"found the unknown station '{value}', expected a town of towns.yaml or a point of this file"
        f"{suggest(value, places)}"
    )


@data("check.unknown_place")
def check_unknown_place(value: str, places: list[str]) -> str:
    return (
        f"found the unknown place '{value}', expected a town, a railway point or a point of map.yaml"
        f"{suggest(value, places)}"
    )


@data("check.missing_factions")
def check_missing_factions(missing: list[str], scoring: list[str]) -> str:
    return f"found no entry for {one_of(missing)}; expected one for each faction that scores VP: {one_of(scoring)}"


@data("check.missing_towns")
def check_missing_towns(missing: list[str], towns: list[str]) -> str:
    return f"found no entry for {one_of(missing)}; expected one for each of the {len(towns)} towns of towns.yaml"


@data("check.missing_terrains")
def check_missing_terrains(missing: list[str], terrains: list[str]) -> str:
    return f"found no entry for {one_of(missing)}; expected one for each terrain: {one_of(terrains, limit=40)}"


@data("check.unjudged_modifier")
def check_unjudged_modifier(found: str, judged: list[str]) -> str:
    return f"found the modifier '{found}', which kitgen never applies; expected one of {one_of(judged)}{suggest(found, judged)}"


@data("check.missing_modifiers")
def check_missing_modifiers(missing: list[str]) -> str:
    return f"found no modifier {one_of(missing)}; expected one for each condition kitgen judges for this roll"


@data("check.roll_off_die")
def check_roll_off_die(value: int, dice: str, low: int, high: int) -> str:
    return f"found {value}, expected a roll of {dice}: {low} to {high}"


@data("check.losses_not_100")
def check_losses_not_100(permanent: int, returning: int) -> str:
    return (
        f"found permanent_pct {permanent} + return_pct {returning} = {permanent + returning}; expected them to make 100"
    )


@data("check.point_is_town")
def check_point_is_town(name: str) -> str:
    return f"found '{name}', which is a town of towns.yaml; expected another name for a railway point"


@data("check.map_point_taken")
def check_map_point_taken(name: str) -> str:
    return f"found '{name}', which is already a town or railway point; expected a new name (roads may use that one)"


@data("check.bridge_not_consecutive")
def check_bridge_not_consecutive(a: str, b: str) -> str:
    return (
        f"found a bridge between {a} and {b}, which are not consecutive stations of this line; "
        "expected two stations next to each other"
    )


@data("check.no_supply_sources")
def check_no_supply_sources(faction: str) -> str:
    return f"found no supply sources for {faction}; expected at least one for each faction (B.3)"


@data("check.river_two_classes")
def check_river_two_classes(name: str, first: str, second: str) -> str:
    return f"found '{name}' under both {first} and {second}; expected each river in one class"


@data("check.river_no_course")
def check_river_no_course(name: str, courses: list[str]) -> str:
    return (
        f"found '{name}', which has no course in geo/rivers.geojson; expected a river drawn there"
        f"{suggest(name, courses)}"
    )


@data("check.river_no_class")
def check_river_no_class(name: str) -> str:
    return f"found the river '{name}' in no class; expected it under rivers: major or crossable in map.yaml"


@data("check.commander_wrong_faction")
def check_commander_wrong_faction(name: str, his: str, unit: str) -> str:
    return f"found '{name}', who commands for the {his}; expected a commander of the {unit}"


@data("check.commander_twice")
def check_commander_twice(name: str, unit: str) -> str:
    return f"found '{name}', who is already with {unit}; expected each commander with one unit"


@data("check.alliance_of_one")
def check_alliance_of_one(factions: list[str]) -> str:
    return f"found an alliance of {' and '.join(factions)}; expected two different factions"


@data("check.empty_slip")
def check_empty_slip() -> str:
    return "found a slip with no units and no replacements; expected units, replacements or both"


@data("check.strength_gap")
def check_strength_gap(a_low: int, a_high: int, b_low: int, b_high: int) -> str:
    return (
        f"found rows {a_low}..{a_high} and {b_low}..{b_high}, which leave a gap; "
        f"expected the next row to start at {a_high + 1}"
    )


@data("check.strength_overlap")
def check_strength_overlap(a_low: int, a_high: int, b_low: int, b_high: int) -> str:
    return (
        f"found rows {a_low}..{a_high} and {b_low}..{b_high}, which overlap; "
        f"expected the next row to start at {a_high + 1}"
    )


@data("check.low_above_high")
def check_low_above_high(low: int, high: int) -> str:
    return f"found low {low} above high {high}; expected low at most high"


@data("check.geometry_type")
def check_geometry_type(found: str, expected: list[str]) -> str:
    return f"found {found}, expected {one_of(expected)}"


@data("check.chart_faces")
def check_chart_faces(count: int, dice: str) -> str:
    return f"found {plural(count, 'entry', 'entries')}, expected one for each face of {dice}"


@data("check.moves_as_extra")
def check_moves_as_extra(unit_type: str, moves_as: str, keys: list[str]) -> str:
    return (
        f"found {one_of(keys)} on unit type '{unit_type}', which moves as '{moves_as}'; "
        "expected none of mp, cost, crossable_river or rail_only"
    )


@data("check.needs_mp")
def check_needs_mp(unit_type: str) -> str:
    return f"found no mp for unit type '{unit_type}'; expected mp (or moves_as another type)"


@data("check.rail_only_extra")
def check_rail_only_extra(unit_type: str, keys: list[str]) -> str:
    return f"found {one_of(keys)} on unit type '{unit_type}', which is rail_only; expected no cost or crossable_river"


@data("check.needs_cost")
def check_needs_cost(unit_type: str, terrains: list[str]) -> str:
    return f"found no cost for unit type '{unit_type}'; expected one entry per terrain ({one_of(terrains, limit=40)})"


@data("check.needs_crossable_river")
def check_needs_crossable_river(unit_type: str) -> str:
    return f"found no crossable_river for unit type '{unit_type}'; expected the extra MP to cross one (or 'p*')"


@data("check.bad_source")
def check_bad_source(source: str) -> str:
    return f"found '{source}', expected a seed section such as 'A', 'C.1' or 'II.D.3', or 'ruling:<id>'"


# --- the map builder (kitgen.mapping.build) ----------------------------------------------


@data("map.projection")
def map_projection(parallels: list[float], reason: str) -> str:
    return (
        f"found standard parallels {parallels}, which PROJ cannot use ({reason}); "
        "expected two latitudes of the map, on one side of the equator"
    )


@data("map.no_land")
def map_no_land() -> str:
    return "found no land at all; expected the coastline layer"


@data("map.coast_short")
def map_coast_short(have: tuple[float, float, float, float], need: tuple[float, float, float, float]) -> str:
    """`have` and `need` are (west, east, south, north) in degrees."""
    west, east, south, north = have
    need_w, need_e, need_s, need_n = need
    return (
        f"found a layer covering lon {west:.2f} to {east:.2f}, lat {south:.2f} to {north:.2f}, but the map's frame "
        f"reaches lon {need_w:.2f} to {need_e:.2f}, lat {need_s:.2f} to {need_n:.2f}; expected a coastline "
        "layer for the whole map: run `make geodata` after changing map.yaml's extent"
    )


@data("map.hex_too_large")
def map_hex_too_large(size: float, width: float, height: float, across: int, largest: float) -> str:
    return (
        f"found {size:g} km: the map ({width:.0f} x {height:.0f} km) would be under {across} hexes across; "
        f"expected at most {largest:.0f} km"
    )


@data("map.hex_too_small")
def map_hex_too_small(size: float, most: int, smallest: float) -> str:
    return f"found {size:g} km: the map would have more than {most} hexes; expected at least {smallest:.1f} km"


@data("map.town_outside")
def map_town_outside(town: str, lat: float, lon: float, frame: tuple[float, float, float, float]) -> str:
    """`frame` is the frame's (north, west, south, east) in degrees, at its corners."""
    north, west, south, east = frame
    return (
        f"found {town} at lat {lat:g}, lon {lon:g}, which lies outside the map's frame (the projected rectangle "
        f"through the midpoints of the edges of map.yaml's extent, from lat {north:.2f}, lon {west:.2f} at its "
        f"north-west corner to lat {south:.2f}, lon {east:.2f} at its south-east); expected a position inside it, "
        "or a larger extent"
    )


@data("map.unbridged_crossing")
def map_unbridged_crossing(line: str, river: str, a: str, b: str) -> str:
    return (
        f"found {line} crossing the {river} (a major river) between {a} and {b}, where no bridge is listed; "
        "expected a bridge entry for that stretch, or a waypoint that keeps the line on its bank"
    )


@data("map.ferry_side")
def map_ferry_side(river: str, a: str, b: str, found: str) -> str:
    return (
        f"found a ferry over the {river} between {a} and {b}, where {found}; expected two adjacent hexes "
        "either side of a major-river hexside with no bridge (A.1)"
    )


@data("map.no_rail_exit")
def map_no_rail_exit(edge: str, limits: dict[str, str | None]) -> str:
    given = ", ".join(f"{k} {v}" for k, v in limits.items() if v)
    return (
        f"found no railway that leaves the map by the {edge} edge{f' ({given})' if given else ''}; expected a rule "
        "that selects at least one rail exit (a line through a place beyond that edge makes one)"
    )


# --- a map given hex by hex, and corrections to a built one (kitgen.mapping.handmade) ---------


@data("map.hex_unknown")
def map_hex_unknown(hex_id: str, columns: int, rows: int) -> str:
    return f"found hex '{hex_id}', which is no hex of the map; expected an id CCRR from 0101 to {columns:02d}{rows:02d}"


@data("map.not_adjacent")
def map_not_adjacent(what: str, a: str, b: str) -> str:
    return f"found a {what} between {a} and {b}, which are not neighbours; expected two adjacent hexes"


@data("map.rail_at_sea")
def map_rail_at_sea(a: str, b: str, sea: str) -> str:
    return f"found a rail link {a}-{b} into the sea hex {sea}; expected railways on land hexes only"


@data("map.town_twice")
def map_town_twice(town: str, first: str, again: str) -> str:
    return f"found {town} in hex {again} as well as in {first}; expected each town in one hex"


@data("map.ferry_not_major")
def map_ferry_not_major(a: str, b: str) -> str:
    return (
        f"found a ferry across {a}-{b}, which is no major-river hexside of sides; expected a major river's side (A.1)"
    )


@data("map.override_no_link")
def map_override_no_link(kind: str, a: str, b: str) -> str:
    return f"found no {kind} link {a}-{b} to remove; expected a link the built map has"


# --- look-ups: arguments the rules do not know (kitgen lookup ...) -----------------------


@usage("lookup.unknown_faction")
def lookup_unknown_faction(value: str, factions: list[str]) -> str:
    return unknown_name(value, factions, what="faction")


@usage("lookup.unknown_town")
def lookup_unknown_town(value: str, towns: list[str], other_names: list[str] | None = None) -> str:
    names = [*towns, *(other_names or [])]
    return (
        f"found no town '{value}' in the VP table; expected a town's name, seed spelling or other name"
        f"{suggest(value, names)}"
    )


@usage("lookup.unknown_commander")
def lookup_unknown_commander(value: str, commanders: list[str], other_names: list[str] | None = None) -> str:
    names = [*commanders, *(other_names or [])]
    return (
        f"found no commander '{value}' in the scenario; expected a commander's name or seed spelling"
        f"{suggest(value, names)}"
    )


@usage("lookup.unknown_unit_type")
def lookup_unknown_unit_type(value: str, types: list[str]) -> str:
    return unknown_name(value, types, what="unit type")


@usage("lookup.unknown_terrain")
def lookup_unknown_terrain(value: str, terrains: list[str]) -> str:
    return unknown_name(value, terrains, what="terrain")


@usage("lookup.unknown_stand_kind")
def lookup_unknown_stand_kind(value: str, kinds: list[str]) -> str:
    return unknown_name(value, kinds, what="stand kind")


@usage("lookup.unknown_modifier")
def lookup_unknown_modifier(value: str, modifiers: list[str]) -> str:
    return unknown_name(value, modifiers, what="modifier")


@usage("lookup.no_threshold")
def lookup_no_threshold(faction: str, factions: list[str]) -> str:
    return f"found the faction '{faction}', which has no VP threshold; expected one of {one_of(factions)}"


@usage("lookup.no_chart")
def lookup_no_chart(faction: str, factions: list[str]) -> str:
    return f"found the faction '{faction}', which has no reinforcement chart; expected one of {one_of(factions)}"


@usage("lookup.roll_off_chart")
def lookup_roll_off_chart(roll: int, dice: str, faces: int) -> str:
    return f"found a roll of {roll}; expected a {dice} roll of 1 to {faces}"


@usage("lookup.negative_vp")
def lookup_negative_vp(total: int) -> str:
    return f"found a VP total of {total}; expected 0 or more"


@usage("lookup.negative_failures")
def lookup_negative_failures(failures: int) -> str:
    return f"found {failures} failures in a row; expected 0 or more"


@usage("lookup.negative_stands")
def lookup_negative_stands(lost: int, routed: int) -> str:
    return f"found {lost} stands lost and {routed} routed; expected 0 or more of each"


@usage("lookup.no_equipment_roll")
def lookup_no_equipment_roll() -> str:
    return "found no roll for the winner's lost equipment; expected one roll for each piece (II.B.3)"


@usage("lookup.depot_use")
def lookup_depot_use(use: int) -> str:
    return f"found turn of use {use}; expected 1 or more (1 for the depot's first turn cut off)"


@usage("lookup.scenario_and_campaign")
def lookup_scenario_and_campaign(scenario: str, campaign: str) -> str:
    return (
        f"found --scenario {scenario} and --campaign {campaign}; expected one of them (a campaign's look-ups "
        "read its own scenario)"
    )


# --- the umpire's views of a campaign (kitgen units, kitgen hex) -------------------------


@usage("view.unknown_faction")
def view_unknown_faction(value: str, factions: list[str], names: list[str]) -> str:
    return unknown_name(value, factions, what="faction", also=names)


@usage("view.unknown_hex")
def view_unknown_hex(value: str, first: str, last: str, towns: list[str]) -> str:
    return (
        f"found '{value}', which is neither a hex of the map nor a town; expected a hex id from {first} "
        f"to {last} (column then row) or a town's name{suggest(value, towns)}"
    )


# --- the printed kit: layouts and the booklet's template ---------------------------------


@usage("layout.unknown_paper")
def layout_unknown_paper(paper: str, papers: list[str]) -> str:
    return unknown_name(paper, papers, what="paper")


@usage("layout.map_too_big")
def map_too_big_for_poster(poster: str, width_mm: float, height_mm: float) -> str:
    return (
        f"found a compact map sheet of {width_mm:.0f} x {height_mm:.0f} mm, which no poster of the compact "
        f"edition holds (the largest is {poster}); expected a smaller map: print the full-size kit "
        "(without --compact), whose map is tiled"
    )


@data("booklet.unknown_ruling")
def booklet_unknown_ruling(file: str, ruling: str, rulings: list[str]) -> str:
    return (
        f"found ruling('{file}', '{ruling}'), but {file}.yaml has no ruling '{ruling}'; "
        f"expected one of {one_of(rulings)}{suggest(ruling, rulings)}"
    )


@data("booklet.table_too_wide")
def booklet_table_too_wide(table: str, needs_mm: float, room_mm: float, size: float) -> str:
    return (
        f"found table '{table}' needing {needs_mm:.0f} mm for its longest words at {size:g} pt, "
        f"but its column is {room_mm:.0f} mm wide; expected shorter headings under abbreviations, "
        f"or a smaller min_table size"
    )


@data("booklet.rulings_left_out")
def booklet_rulings_left_out(left: list[tuple[str, str]]) -> str:
    shown = one_of([f"{file}.yaml {ruling}" for file, ruling in left])
    return f"found no ruling(file, id) for {shown}; expected every ruling of the scenario printed where its rule is"


# --- the command line --------------------------------------------------------------------


@usage("arg.not_folder")
def arg_not_folder(path: str, kind: str, what: str) -> str:
    return f"{path}: found {kind}; expected {what}"


@usage("arg.no_campaign_here")
def arg_no_campaign_here(here: str) -> str:
    return (
        f"found no campaign.yaml in {here} or any folder above it; expected a campaign folder named "
        "(`kitgen status my-game`), or the command run inside one"
    )


@usage("prompt.ended")
def prompt_ended(question: str) -> str:
    return f"found the input ended before '{question}' was answered; expected an answer to every question: nothing was written"


@usage("prompt.wrong")
def prompt_wrong(answer: str, expected: str, choices: list[str]) -> str:
    return f"found '{answer[:40]}'; expected {expected}{suggest(answer, choices)}: try again"


@usage("prompt.gave_up")
def prompt_gave_up(question: str, tries: int) -> str:
    return f"found {tries} answers to '{question}' that kitgen cannot take; expected one it offers: nothing was written"


@usage("arg.bad_load_item")
def arg_bad_load_item(item: str) -> str:
    return f"found '{item[:40]}'; expected KIND=COUNT with a count of at most 4 digits (e.g. infantry=4)"


@usage("arg.bad_window")
def arg_bad_window(window: str, columns: int, rows: int) -> str:
    return (
        f"found the window '{window[:40]}'; expected two hex ids of the map, north-west and south-east "
        f"corners, as CCRR-CCRR (e.g. 2010-3525; the map runs from 0101 to {columns:02d}{rows:02d})"
    )


@data("io.failed")
def io_failed(path: str, reason: str) -> str:
    where = f"{path}: " if path else ""  # a failure of no one file (the working folder gone, a closed pipe)
    return f"{where}the system refused ({reason}); expected a file or folder kitgen may use"


@data("memory")
def out_of_memory() -> str:
    return "ran out of memory; expected inputs of the size of a campaign (a file of at most 20 MB)"


# --- turn logs (the engine's checks of what a log may say) --------------------------------


@data("log.turn_out_of_order")
def log_turn_out_of_order(number: int, last: int) -> str:
    return f"found the log of turn {number} after turn {last}; expected turn-{last + 1:02d}.yaml next"


@data("log.no_such_turn")
def log_no_such_turn(asked: int, last: int) -> str:
    return f"found no log for turn {asked}; expected a turn from 0 to {last} (the last log)"


@data("log.turn_mismatch")
def log_turn_mismatch(found: int, expected: int) -> str:
    return f"found turn {found}, expected {expected} (the number in the file's name)"


@data("log.dice_twice")
def log_dice_twice(purpose: str) -> str:
    return f"found the roll '{purpose}' a second time; expected each roll once"


@note("note.roll_unused")
def note_roll_unused(purpose: str, needed: list[str], ungiven: list[str]) -> str:
    """`ungiven`: the turn's rolls the log does not give, drawn instead; a misspelt purpose is
    most likely one of them, so the closest of them is suggested first."""
    shown = "; ".join(needed[:6]) + (f"; and {len(needed) - 6} more" if len(needed) > 6 else "")
    return (
        f"found '{purpose}', which this turn does not ask for: the roll is not used; expected one of the "
        f"turn's rolls: {shown or 'none this turn'}{suggest(purpose, ungiven) or suggest(purpose, needed)}"
    )


@data("log.dice_out_of_range")
def log_dice_out_of_range(value: int, dice: str, low: int, high: int) -> str:
    return f"found {value}, but {dice} rolls {low} to {high}"


@data("log.unknown_faction")
def log_unknown_faction(faction: str, factions: list[str]) -> str:
    return unknown_name(faction, factions)


@data("log.unknown_unit")
def log_unknown_unit(unit: str, units: list[str]) -> str:
    return f"found '{unit}', which is no unit on the map{suggest(unit, units)}"


@data("log.foreign_unit")
def log_foreign_unit(unit: str, owner: str, faction: str) -> str:
    return f"found '{unit}', a {owner} unit; expected a unit of the {faction}"


@data("log.unknown_train")
def log_unknown_train(train: str, trains: list[str]) -> str:
    return f"found '{train}', which is no train on the map{suggest(train, trains)}"


@data("log.foreign_train")
def log_foreign_train(train: str, owner: str, faction: str) -> str:
    return f"found '{train}', a {owner} train; expected a train of the {faction}"


@data("log.unknown_ship")
def log_unknown_ship(ship: str, faction: str, ships: list[str]) -> str:
    return f"found '{ship}', which is no {faction} ship{suggest(ship, ships)}"


@data("log.off_map")
def log_off_map(hex_id: str) -> str:
    return f"found '{hex_id}', which is not a hex of the map; expected a hex id of the map (CCRR)"


@data("log.listed_twice")
def log_listed_twice() -> str:
    return "found a unit listed twice; expected each unit once"


@data("log.bad_stands")
def log_bad_stands(kind: str, n: int, kinds: list[str], least: int) -> str:
    if kind not in kinds:
        return f"found the stand kind '{kind}', expected one of {one_of(kinds)}{suggest(kind, kinds)}"
    return f"found '{kind}: {n}', expected {least} or more stands"


@data("log.disband_faction")
def log_disband_faction(faction: str, only: str) -> str:
    return f"found the {faction}; expected the {only}, who alone disband (E.6)"


@data("log.partisans_bad")
def log_partisans_bad(faction: str, hex_id: str) -> str:
    return f"found faction '{faction}' and hex '{hex_id}'; expected a faction of the scenario and a hex of the map"


@data("log.remove_unit")
def log_remove_unit(unit: str, faction: str) -> str:
    return f"found '{unit}', which is no {faction} unit; expected a unit of the player who drew the card"


@data("log.remove_too_many")
def log_remove_too_many(n: int, kind: str, unit: str, has: int) -> str:
    return (
        f"found {n} {kind}, but {unit} has {has}; expected 1 to {has}"
        if has
        else f"found {n} {kind}, but {unit} has none"
    )


@data("log.remove_owed")
def log_remove_owed(taken: int, kind: str, owed: int) -> str:
    return f"found {taken} {kind} stands removed; expected {owed}, what the event cards drawn this turn take"


@data("log.unknown_lost_ship")
def log_unknown_lost_ship(ship: str, ships: list[str]) -> str:
    listed = ", ".join(ships) or "none"
    return f"found '{ship}' in ships_lost, which is no ship on the map; expected one of: {listed}{suggest(ship, ships)}"


@data("log.battle_no_loser")
def log_battle_no_loser(hex_id: str) -> str:
    return f"found no unit of the losing side in {hex_id}; expected the loser's units there (II.B.1)"


@data("log.battle_no_winner")
def log_battle_no_winner(winner: str, hex_id: str) -> str:
    return f"found no {winner} unit in the fight in {hex_id}; expected a winner that fought there"


@data("log.battle_unknown_unit")
def log_battle_unknown_unit(unit: str, hex_id: str, contact: list[str], unlisted: list[str], units: list[str]) -> str:
    """`contact`: the units in contact in the battle's hex (and across its hexside); the closest
    is suggested first of those the report does not list (`unlisted`), then of the contact, then
    of the map's `units`."""
    there = (
        f"a unit of the contact in {hex_id}: {one_of(contact)}"
        if contact
        else f"a unit on the map ({hex_id} is no contact)"
    )
    close = suggest(unit, unlisted) or suggest(unit, contact) or suggest(unit, units)
    return f"found '{unit}', which is no unit on the map; expected {there}{close}"


@data("log.battle_unit_elsewhere")
def log_battle_unit_elsewhere(unit: str, where: str | None, hex_id: str, units: list[str]) -> str:
    if where is None:
        return f"found '{unit}', which is no unit on the map{suggest(unit, units)}"
    return f"found '{unit}' in {where}; expected a unit in the battle's hex, {hex_id}"


@data("log.battle_evaded")
def log_battle_evaded(unit: str, hex_id: str) -> str:
    return f"found {unit}, whose side evaded the fight in {hex_id} (II.D.1); expected no battle there"


@data("log.battle_too_many_lost")
def log_battle_too_many_lost(n: int, kind: str, unit: str, has: int) -> str:
    return f"found {n} {kind} stands lost and routed, but {unit} has {has}; expected at most {has}"


@data("log.battle_ammo")
def log_battle_ammo(kind: str, left: int, allowed: str) -> str:
    return f"found '{kind}: {left}'; expected rounds per stand: {allowed or 'none: it carries no ammunition'}"


@data("log.battle_loser_fate")
def log_battle_loser_fate(unit: str) -> str:
    return f"found no fate for {unit}, which lost; expected `retreat: <hex>` or `surrender: true` (II.B.1)"


@data("log.breakout_bad")
def log_breakout_bad(unit: str, why: str) -> str:
    return (
        f"found a breakout by {unit}, but {why}; expected an Elite/Fanatic unit beaten where it could not "
        "retreat in an earlier battle of this log, breaking out into an adjacent hex of enemy units (II.B.1)"
    )


@note("note.breakout_owed")
def note_breakout_owed(unit: str, hex_id: str) -> str:
    return (
        f"note: {unit} lost in {hex_id} and cannot retreat: Elite/Fanatic, it must break out or perish "
        f"(II.B.1); found no breakout battle in the log; expected a later battle with {{unit: {unit}, breakout: true}}"
    )


@data("log.battle_retreat_blocked")
def log_battle_retreat_blocked(reason: str) -> str:
    return f"found a retreat the rules bar ({reason}); expected a hex it can retreat into, or `surrender: true`"


@data("log.battle_retreat_off_map")
def log_battle_retreat_off_map(hex_id: str, start: str, around: list[str]) -> str:
    return (
        f"found the retreat '{hex_id}', which is not a hex of the map; expected a hex next to {start}, where the "
        f"unit fought: {one_of(around)}{suggest(hex_id, around)}"
    )


@data("log.battle_surrender_not_cornered")
def log_battle_surrender_not_cornered(unit: str, ways: list[str]) -> str:
    return (
        f"found {unit} surrendering, but it can retreat to {', '.join(ways)}; expected a retreat: "
        "II.B.1, the loser surrenders only if surrounded or pinned by terrain"
    )


@data("log.battle_captured")
def log_battle_captured(kind: str, n: int, booty: str) -> str:
    return f"found '{kind}: {n}'; expected a winner's unit taking at most the loser's routed equipment ({booty})"


@data("log.battle_unknown_ship")
def log_battle_unknown_ship(ship: str, sides: list[str], ships: list[str]) -> str:
    """`sides`: the ships of the factions in the battle, suggested before the rest."""
    expected = (
        f"one of the ships of the sides in the battle: {one_of(sides)}"
        if sides
        else "a ship of a side in the battle, which have none"
    )
    close = suggest(ship, sides) or suggest(ship, ships)
    return f"found '{ship}', which is no ship on the map; expected {expected} (D.3){close}"


@data("log.ship_not_in_battle")
def log_ship_not_in_battle(ship: str) -> str:
    return f"found '{ship}', which is no ship of a side in the battle"


@data("log.ship_fired")
def log_ship_fired(name: str) -> str:
    return f"found {name} firing a second time this turn; expected one battle a turn for each ship (D.3)"


@data("log.ship_out_of_range")
def log_ship_out_of_range(name: str, where: str, hex_id: str) -> str:
    return f"found {name} in {where}, which cannot fire into {hex_id}; expected a ship at sea next to a coastal battle hex, or in its port (D.3)"


@usage("next.log_exists")
def next_log_exists(path: str, turn: int) -> str:
    return f"found {path} already, the log of turn {turn}; expected no file there: kitgen next never writes over a log"


# --- the campaign record: locks, backups, the turn being played (kitgen.record) -----------


@usage("record.folder_not_own")
def record_folder_not_own(path: str, what: str, kind: str) -> str:
    return f"found {path} as {kind}; expected {what} of the campaign's own, a real folder inside it"


@usage("record.no_backup")
def record_no_backup(name: str, known: list[str]) -> str:
    return f"found no backup '{name}'; expected one of {one_of(known)}{suggest(name, known)} (see `kitgen backups`)"


@usage("record.nothing_to_undo")
def record_nothing_to_undo(folder: str) -> str:
    return f"found no backup in {folder}/backups; expected one: every write to a turn log keeps one, so nothing has been written yet"


@data("record.undo_gone")
def record_undo_gone(name: str) -> str:
    return f"found no log {name} to take away; expected the log the last write made (it was removed meanwhile?)"


@note("record.index_spoilt")
def record_index_spoilt(detail: str) -> str:
    return (
        f"found the index of backups spoilt ({detail}); expected JSON as kitgen writes it: its entries still whole "
        "are read, the other backups listed by their files' times, and the next write to a log sets the index "
        "aside (backups/index.spoilt-1.json), never over it"
    )


@note("record.index_set_aside")
def record_index_set_aside(detail: str, aside: str) -> str:
    return (
        f"found the index of backups spoilt ({detail}); expected JSON as kitgen writes it: it is kept as it was, "
        f"as {aside}, and a new index begun with its entries still whole; mended by hand, all its entries count "
        "again"
    )


@note("record.index_aside")
def record_index_aside(detail: str) -> str:
    return (
        f"found an index of backups set aside as spoilt ({detail}); expected JSON as kitgen writes it: mended by "
        "hand, all its entries count again"
    )


@data("record.log_too_large")
def record_log_too_large(size: int, limit: int) -> str:
    return (
        f"found the log as it would be written of {size:,} bytes; expected at most {limit:,} (kitgen/limits.py), "
        "the size every command reads a log to: nothing was written"
    )


@data("record.saved_over")
def record_saved_over(kept: str) -> str:
    return (
        "found the log changed right after kitgen wrote it (an editor saved its own copy over it?); expected "
        f"kitgen's write to stay: it is kept as backups/{kept} (`kitgen restore {kept}` puts it back), and the "
        "log on disk is the other version"
    )


@data("record.changed_on_disk")
def record_changed_on_disk() -> str:
    return (
        "found the log changed on disk while kitgen was working on it (an editor saved it?); expected it "
        "as it was read: nothing was written, and the edit is kept; run the command again"
    )


@data("record.untouched")
def record_untouched(turn: int) -> str:
    return (
        f"found the log of turn {turn} still as kitgen next wrote it: no orders, reports or rolls in it; "
        "expected the turn's orders imported (or `handed_in:` naming the factions whose units all hold)"
    )


@data("record.orders_out")
def record_orders_out(faction: str, turn: int) -> str:
    return (
        f"found no orders of {faction} in the log of turn {turn}; expected its order form imported (a blank "
        "one if every unit of it holds): until it is in, its moves may still make or change a contact"
    )


@data("record.roll_missing")
def record_roll_missing(purpose: str, dice: str, units: list[str]) -> str:
    decides = f", which decides {', '.join(units)}" if units else ""
    return (
        f"found no {dice} roll for '{purpose}'{decides} (the table rolls this campaign's dice); expected it made at "
        "the table and given (the roll sheet, or `kitgen roll`): until it is in, the turn's contacts may change"
    )


@data("record.roll_unwritten")
def record_roll_unwritten(purpose: str, dice: str) -> str:
    return (
        f"found the {dice} roll for '{purpose}' not yet in the log (kitgen rolls this campaign's dice); expected it "
        "written there as kitgen draws it: `kitgen roll` writes every roll the turn needs"
    )


@note("note.who_rolls_unsaid")
def note_who_rolls_unsaid() -> str:
    return (
        "note: campaign.yaml does not say who rolls the dice, so kitgen draws every roll the log does not give; "
        "add `dice: table` (every roll made at the table and given) or `dice: kitgen` (kitgen rolls, and writes "
        "each roll into the log)"
    )


@data("record.no_report")
def record_no_report(hexes: list[str], units: list[str]) -> str:
    where, under = _contact_where(hexes)
    return (
        f"found the contact in {where} with no battle reported there; expected a battle at {under} "
        f"listing every unit in the contact: {', '.join(units)}"
    )


def _contact_where(hexes: list[str]) -> tuple[str, str]:
    """A contact's place in words, and the hexes its battle may be reported under."""
    if len(hexes) == 1:
        return hexes[0], f"hex '{hexes[0]}'"
    where = f"{hexes[0]} and {', '.join(hexes[1:])} (enemy moves met on the hexside between)"
    return where, "hex " + " or ".join(f"'{h}'" for h in hexes)


@data("record.left_out")
def record_left_out(hexes: list[str], units: list[str]) -> str:
    where, _ = _contact_where(hexes)
    return (
        f"found the battle in {where} leaving out {', '.join(units)}, in the contact there; expected every "
        "unit in the contact listed (with no losses, if it lost none)"
    )


@note("record.next_refused")
def record_next_refused(turn: int, reasons: int) -> str:
    return (
        f"note: found turn {turn} unfinished ({reasons} {'reason' if reasons == 1 else 'reasons'} above), and "
        "wrote nothing; expected it finished first, or `kitgen next --force`, which notes in the new log what it skipped"
    )


@data("record.no_log")
def record_no_log(turn: int, last: int) -> str:
    started = f"the turn being played is {last}" if last else "no turn is started yet"
    return (
        f"found no log of turn {turn} ({started}); expected orders for the turn being played: an import "
        "never starts a turn, `kitgen next` does"
    )


@data("record.turn_finished")
def record_turn_finished(turn: int, next_turn: int) -> str:
    return (
        f"found turn {turn} finished (every order, roll and battle of it in) and no log of turn {next_turn} yet; "
        f"expected `kitgen next` to start turn {next_turn} first, or `--turn {turn} --amend` to change turn {turn}"
    )


@data("roll.not_asked")
def roll_not_asked(purpose: str, asked: list[str]) -> str:
    said = f"one of {one_of(asked, limit=6)}" if asked else "none: the turn asks for no roll"
    return f"found a roll for '{purpose}', which the turn does not ask for; expected {said}{suggest(purpose, asked)}"


@data("roll.out_of_range")
def roll_out_of_range(purpose: str, value: int, dice: str, low: int, high: int) -> str:
    return f"found {value} for '{purpose}'; expected a roll of {dice}, from {low} to {high}"


@usage("roll.bad_give")
def roll_bad_give(text: str) -> str:
    return (
        f"found '{text[:80]}'; expected PURPOSE=VALUE, the purpose as `kitgen status` names it and the roll as a number"
    )


@data("roll.changes_battles")
def roll_changes_battles(hexes: list[str]) -> str:
    return (
        f"found the rolls changing the contacts of the battles reported at {', '.join(hexes)}; expected `--amend`, "
        "which writes the rolls and takes those reports out, to report them again: nothing was written"
    )


@usage("roll.table_rolls")
def roll_table_rolls() -> str:
    return (
        "found campaign.yaml saying the table rolls this campaign's dice (dice: table); expected the rolls made at "
        "the table given (`kitgen roll` asks for each, or import the roll sheet): kitgen draws none"
    )


@usage("roll.kitgen_rolls")
def roll_kitgen_rolls(purpose: str) -> str:
    return (
        f"found a roll given for '{purpose}', and campaign.yaml says kitgen rolls this campaign's dice (dice: kitgen); "
        "expected kitgen's own rolls (`kitgen roll` writes them), or `--amend` to change one it made"
    )


@usage("record.past_turn")
def record_past_turn(turn: int, playing: int, what: str = "orders", over: bool = False, started: bool = True) -> str:
    if over:
        now, right = "the scenario is over after it", "`--amend`"
    elif started:
        now, right = f"turn {playing} is being played", f"{what} for turn {playing}, or `--amend`"
    else:
        now, right = f"`kitgen next` starts turn {playing}", "`--amend`"
    return (
        f"found {what} for turn {turn}, which is finished ({now}); expected {right} to change turn {turn} "
        "(every later turn is replayed first)"
    )


@data("record.amend_breaks")
def record_amend_breaks(turn: int, text: str) -> str:
    return f"found that turn {turn} no longer plays with the amended orders: {text}; expected every later turn to play: nothing was written"


@data("record.stale_form")
def record_stale_form(printed: str, now: str, changed: str) -> str:
    return (
        f"found a form printed from state {printed}, and the campaign's state is now {now} ({changed}); expected "
        "a form printed from today's state (`kitgen orders form`), or `--stale-ok` to import it all the same"
    )


@note("record.void_imported")
def record_void_imported(explanation: str, rule: str) -> str:
    return f"warning: found an order the rules make void, imported as written: {explanation} ({rule})"


@data("record.restore_breaks")
def record_restore_breaks(text: str) -> str:
    return (
        f"found that the campaign no longer plays with the backup put back: {text}; expected every turn to play: "
        "nothing was written (`kitgen restore --force` puts it back all the same)"
    )


@data("record.restore_gap")
def record_restore_gap(turn: int, last: int) -> str:
    return f"found a backup of turn {turn}, and the last log is of turn {last}; expected no gap between them: nothing was written"


# battle report forms read back (kitgen.reports)


@data("report.several")
def report_several(who: str, what: str, chosen: list[str]) -> str:
    return (
        f"found {who}'s {what} marked {' and '.join(chosen)}; expected one mark on the line (rub out the others, "
        "or settle it: kitgen report asks for it)"
    )


@data("report.no_winner")
def report_no_winner(place: str, factions: list[str]) -> str:
    return f"found no winner marked for the battle at {place}; expected one of {one_of(factions)} marked"


@data("report.too_many")
def report_too_many(who: str, kind: str, lost: int, routed: int, have: int) -> str:
    return f"found {who} losing {lost} and routing {routed} {kind} stands; expected at most the {have} it had"


@data("report.roll_unasked")
def report_roll_unasked(who: str, kind: str, k: int) -> str:
    return (
        f"found an equipment roll for {who}'s {kind} stand {k}; expected one only for an equipment stand its side "
        "lost and won the battle (II.B.3: the winner rolls for each one lost)"
    )


@data("report.winner_fate")
def report_winner_fate(who: str, fate: str) -> str:
    return f"found {who}, of the winning side, marked '{fate}'; expected no fate for a winner's unit: it holds its hex"


@data("report.no_fate")
def report_no_fate(who: str, exempt: bool) -> str:
    ways = (
        "the side it retreats by, or breaks out (Elite/Fanatic)" if exempt else "the side it retreats by, or surrenders"
    )
    return f"found no fate marked for {who}, of the beaten side; expected one: {ways} (II.B.1)"


@data("report.side_off_map")
def report_side_off_map(who: str, side: str) -> str:
    return f"found {who} retreating by its {side} side, off the map; expected a side with a hex across it"


@data("report.breakout_not_exempt")
def report_breakout_not_exempt(who: str) -> str:
    return f"found {who} marked to break out; expected that only of an Elite or Fanatic unit (II.B.1): retreat or surrender"


@data("report.loser_captures")
def report_loser_captures(who: str, kind: str) -> str:
    return f"found {who}, of the beaten side, capturing {kind}; expected captures only by the winner's units (II.B.3)"


@usage("report.not_yet")
def report_not_yet(turn: int, factions: list[str], rolls: list[str]) -> str:
    waiting = []
    if factions:
        waiting.append(f"the orders of {', '.join(factions)}")
    if rolls:
        shown = "; ".join(rolls[:3]) + (f"; and {len(rolls) - 3} more" if len(rolls) > 3 else "")
        waiting.append(f"the rolls {shown}")
    return (
        f"found turn {turn} still waiting for {' and '.join(waiting)}, which decide its contacts; expected them in "
        "before its battles (`kitgen status` lists what is owed, `kitgen roll` takes the rolls)"
    )


@usage("report.no_breakout")
def report_no_breakout(unit: str, hex_id: str) -> str:
    return (
        f"found {unit} owing a breakout from {hex_id} with no enemy in a hex next to it; expected an adjacent hex "
        "of enemy units to attack (II.B.1): report the battle it lost again, or settle it in the log"
    )


@data("report.no_contact")
def report_no_contact(hex_id: str, contacts: list[str]) -> str:
    where = f"one of the turn's contacts: {one_of(contacts)}" if contacts else "none: the turn has no contact"
    return f"found a battle reported at {hex_id}, where the turn has no contact; expected {where}{suggest(hex_id, contacts)}"


@data("report.not_in_contact")
def report_not_in_contact(hex_id: str, units: list[str], there: list[str]) -> str:
    close = [(u, difflib.get_close_matches(u, there, n=1, cutoff=0.6)) for u in units]
    meant = "; ".join(f"for '{u}' did you mean '{m[0]}'?" for u, m in close if m)
    return (
        f"found {', '.join(units)} in the battle at {hex_id}, not in that contact; expected its units: "
        f"{one_of(there)}" + (f"; {meant}" if meant else "")
    )


@data("report.leaves_out")
def report_leaves_out(hex_id: str, units: list[str]) -> str:
    return f"found the battle at {hex_id} leaving out {', '.join(units)}; expected every unit of the contact (with no losses, if it lost none)"


@data("report.refused")
def report_refused(places: str, text: str) -> str:
    return f"found the battle at {places} against the rules: {text}; expected a report the rules allow: nothing was written"


# the battle report forms and the roll sheet, filled on screen or in pencil (kitgen.reports)


@data("report.misspelt_field")
def report_misspelt_field(name: str, close: list[str]) -> str:
    return (
        f"found the field '{name}', which is named like a report form's field but is none; expected "
        f"kgb-<contact key>-<row>-<line>-<choice>, kgr-<sheet key>-<row>-roll-<total> or "
        f"kgid-<b or r><key>-<what>, as `kitgen turn` prints them{suggest(name.strip().lower(), close)}"
    )


@data("report.no_identity")
def report_no_identity(what: str, key: str) -> str:
    return (
        f"found the bubbles of a {what} ({key}) without the hidden fields that say which form it is; expected "
        "the form as `kitgen turn` printed it, its fields kept (print it again, or fill the printed one in pencil)"
    )


@data("report.with_orders")
def report_with_orders(factions: list[str]) -> str:
    return (
        f"found the order form of {' and '.join(factions)} in a PDF of report forms; expected them apart: "
        "import the order form from its faction's packet, the report forms from the umpire's"
    )


@data("report.wrong_form")
def report_wrong_form(what: str, which: str, found: str, expected: str) -> str:
    return (
        f"found the {what} for {which} {found}; expected {which} {expected}: it is not this campaign's turn "
        "(print the turn's forms with `kitgen turn`)"
    )


@data("report.contact_changed")
def report_contact_changed(place: str, turn: int) -> str:
    return (
        f"found the report form of the battle at {place}, printed for a contact that is not the one there now: the "
        f"contact changed since it was printed (turn {turn}'s orders or rolls changed); expected a form printed since "
        "(`kitgen turn`), or the battle entered with `kitgen report`: nothing of it is read"
    )


@data("report.sheet_changed")
def report_sheet_changed(printed: str, now: str) -> str:
    return (
        f"found a roll sheet printed for other rolls (sheet {printed}; the turn's is {now}: an earlier turn was "
        "amended since); expected the roll sheet printed since (`kitgen turn`), or the rolls given with `kitgen roll`"
    )


@data("report.pages_missing")
def report_pages_missing(what: str, missing: str, pages: int) -> str:
    return (
        f"found the {what} without {missing} (of its {pages}); expected every page of it, so that no unit's "
        "losses or roll is left behind: scan the missing pages too"
    )


@data("report.page_twice")
def report_page_twice(what: str, page: int, other: str) -> str:
    return f"found page {page} of the {what} a second time (first in {other}); expected each page once: remove one of the scans"


@data("report.rolls_first")
def report_rolls_first(rolls: int) -> str:
    return (
        f"found the roll sheet's {rolls} rolls changing the turn's contacts: they were written first, the battles "
        "not (their problems are said with this); expected the report forms put right and the file imported again"
    )


# kitgen orders scan: paper order forms read back


@data("scan.not_a_picture")
def scan_not_a_picture(found: str) -> str:
    return f"found {found}; expected a scanned order form: a PNG, JPEG or TIFF picture, or a PDF of scanned pages"


@data("scan.too_many_pages")
def scan_too_many_pages(container: str, pages: str, limit: int) -> str:
    return f"found {container} of {pages} pages; expected at most {limit} pages in one file of scans: split it"


@data("scan.page_too_large")
def scan_page_too_large(page: int, width: int, height: int, limit: int) -> str:
    return (
        f"page {page}: found a picture of {width:,} x {height:,} pixels ({width * height:,}); expected at most "
        f"{limit:,} pixels a page (A4 at 600 dpi is 35 million): scan at 600 dpi or less, or save it smaller"
    )


@data("scan.page_decoding")
def scan_page_decoding(page: int, how: str, needs: int, limit: int) -> str:
    return (
        f"page {page}: found a picture {how}, whose decoding would take {needs:,} bytes; expected at most "
        f"{limit:,}: save it again as a PNG, a baseline JPEG or a TIFF in strips of 8-bit grey or colour"
    )


@data("scan.too_many_pixels")
def scan_too_many_pixels(container: str, pages: int, pixels: int, limit: int) -> str:
    return (
        f"found {container} of {plural(pages, 'page')} holding {pixels:,} pixels in all; expected at most {limit:,} "
        "in one file of scans (200 pages of A4 at 300 dpi hold 1,740 million): scan at 300 dpi or less, or "
        "split the file"
    )


@data("scan.page_size")
def scan_page_size(page: int, width: float, height: float, sides: tuple[float, float], aspect: float) -> str:
    def shown(value: float) -> str:
        return f"{value:,.0f}" if abs(value) < 1e9 else f"{value:.3g}"

    return (
        f"page {page}: found a page of {shown(width)} x {shown(height)} pt ({shown(width / 72 * 2.54)} x "
        f"{shown(height / 72 * 2.54)} cm), which no form could be; expected a form's page as scanned (A4, "
        f"Letter) or a photo of one: {sides[0] / 72:.0f} "
        f"to {sides[1] / 72:.0f} inches a side and at most {aspect:g} times as long as wide (save the scans at "
        "the paper's size)"
    )


@data("scan.no_code")
def scan_no_code(markers: int) -> str:
    seen = f"{markers} of its 4 corner markers" if markers else "none of its corner markers"
    return (
        f"found no kitgen QR code on the page ({seen}); expected a page of a kitgen order form, flat, whole and "
        "in focus: rescan it at 150 dpi or more, or photograph it square on in good light"
    )


@data("scan.other_code")
def scan_other_code(text: str, version: int) -> str:
    return f"found a QR code reading '{text}'; expected the QR code of a kitgen order form (KG{version}/...)"


@data("scan.wrong_form")
def scan_wrong_form(what: str, found: str, expected: str) -> str:
    return f"found a form for {what} {found}; expected {what} {expected}: this page is not for this campaign's turn"


@data("scan.stale")
def scan_stale(printed: str, now: str) -> str:
    return (
        f"found a form printed from state {printed}, and the campaign's state is now {now}; expected a form printed "
        "from today's state: its rows may differ, so no bubble of it is read (print the form again, or type the "
        "orders into the log)"
    )


@data("scan.markers")
def scan_markers(found: int) -> str:
    return (
        f"found {found} of the page's 4 corner markers; expected at least 3 to straighten the page: rescan it "
        "with its corners inside the picture"
    )


@data("scan.not_flat")
def scan_not_flat(error: float, most: float) -> str:
    return (
        f"found the page's corner markers {error:.1f} mm out of place; expected at most {most:.1f} mm: the page is "
        "folded, curled or the photo is distorted; lay it flat and rescan it"
    )


@data("scan.faint")
def scan_faint(ring: float, least: float) -> str:
    return (
        f"found the bubbles' rings {ring:.0%} as dark as the corner markers; expected {least:.0%} or more: the "
        "picture is too blurred or too faint to read; rescan it in focus and in even light"
    )


@data("scan.doubt_marks")
def scan_doubt_marks(unit: str, where: str, marks: str, key: str, choices: str) -> str:
    return (
        f"{unit}, {where}: found {marks}; expected one bubble filled or none: settle it with "
        f"--accept {key}=ANSWER (one of {choices} or none, as the paper means it), or clean the marks and rescan"
    )


@data("scan.doubt_gap")
def scan_doubt_gap(unit: str, step: int, key: str, missed: str) -> str:
    return (
        f"{unit}, step {step}: found a step marked after an empty one; expected the steps filled in order from 1: "
        f"settle it with --accept {missed}=DIR (the step missed) or --accept {key}=none (no step there), or fill "
        "the steps before it and rescan"
    )


@data("scan.doubt_carry")
def scan_doubt_carry(unit: str, marks: str, key: str) -> str:
    return (
        f"{unit}, takes aboard: found {marks}; expected each unit's bubble filled or empty: settle it with "
        f"--accept {key}=UNIT,UNIT (every unit it takes, by id) or --accept {key}=none"
    )


@data("scan.doubt_hexes")
def scan_doubt_hexes(unit: str, hexes: int, unit_id: str) -> str:
    return (
        f"{unit}: found {hexes} hexes written and no step's bubble filled; expected the steps' bubbles, which "
        f"kitgen reads (the hexes are for people): settle it with --accept {unit_id}:STEP=DIR for each step "
        f"(STEP 1, 2, ...), or --accept {unit_id}:path=read for no move"
    )


@data("scan.doubt_count")
def scan_doubt_count(unit: str, hexes: int, steps: int, unit_id: str) -> str:
    return (
        f"{unit}: found {hexes} hexes written and {steps} steps marked; expected as many hexes as steps: check the "
        f"row against its hexes, then --accept {unit_id}:path=read to take the steps as marked"
    )


@data("scan.doubt_toward")
def scan_doubt_toward(unit: str, marks: str, key: str, special: str) -> str:
    return (
        f"{unit}, toward: found {marks} with no repair, emplace or land filled; expected a side only for those "
        f"special orders: settle it with --accept {key}=none or with the special order (--accept {special}=WORD)"
    )


@data("scan.step_off_map")
def scan_step_off_map(unit: str, step: int) -> str:
    return f"{unit}, step {step}: found a step that leaves the map; expected every step onto a hex of the map"


@data("scan.page_twice")
def scan_page_twice(faction: str, page: int, other: str) -> str:
    return (
        f"found page {page} of the {faction} form a second time (first in {other}); expected each page once: "
        "remove one of the scans"
    )


@usage("scan.bad_accept")
def scan_bad_accept(found: str, expected: str) -> str:
    return f"found --accept '{found}'; expected {expected}"


@data("scan.answers_line")
def scan_answers_line(found: str, expected: str) -> str:
    return (
        f"found the answer '{found}'; expected one answer a line, as --accept takes it ({expected}), or a "
        "line starting with # for a comment"
    )


@data("scan.answers_not_utf8")
def scan_answers_not_utf8(byte: int) -> str:
    return f"found the byte 0x{byte:02x}, which is no UTF-8 text; expected the answers file saved as UTF-8 text"


@usage("scan.accept_unknown")
def scan_accept_unknown(found: list[str], doubts: str) -> str:
    which = "which settles" if len(found) == 1 else "which settle"
    return (
        f"found --accept for {', '.join(found)}, {which} no doubt of the pages scanned (an answer is taken for a "
        "row in doubt, for a part and a choice the row has, and never against a clear mark or for a row read "
        f"clear); expected answers for rows in doubt: {doubts}"
    )


@data("orders.toward_sides")
def orders_toward_sides(found: str) -> str:
    return f"found the sides '{found}'; expected one side (N, NE, SE, S, SW or NW) for the special order to face"


@data("orders.toward_alone")
def orders_toward_alone(special: str) -> str:
    return (
        f"found a side marked for the special order '{special}'; expected a side only with repair (the next hex), "
        "emplace (the hex across) or land (the hex landed on), and no hexes typed as well"
    )


@data("scan.check_missed")
def scan_check_missed(line: str, found: str, calls: str) -> str:
    return (
        f"the scanner check's '{line}' line: found {found} ({calls}); expected every bubble as the line asks: "
        "scan at 150 dpi or more, in focus and even light, with a soft pencil pressed firmly"
    )


@data("scan.not_check")
def scan_not_check(found: str) -> str:
    return f"found {found}; expected the kit's scanner check page (Forms, its last page), filled as it says"


@data("scan.crowded")
def scan_crowded() -> str:
    return (
        "found more than one page of an order form in one picture; expected a page a picture (or a page of a "
        "PDF): scan the pages apart"
    )


@data("scan.pages_missing")
def scan_pages_missing(faction: str, missing: str, pages: int) -> str:
    return (
        f"found the {faction} form without {missing} (of its {pages}); expected every page of a faction's "
        "form, so that no unit's orders are left behind: scan the missing pages too, or give --partial to "
        "import the pages scanned (the units of the others keep the orders the log has)"
    )


@data("scan.blank_form")
def scan_blank_form(rows: str) -> str:
    return (
        f"found the kit's blank order form, which names no unit ({rows}); expected a page of a faction's form "
        "printed for the turn (its packet, or `kitgen orders form`): type these orders into the log, by the "
        "units' names written on the page"
    )
