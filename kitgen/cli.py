"""The kitgen command line: thin typer commands over the library.

Heavy modules are imported inside the commands, so that `kitgen --help` stays instant.
"""

from __future__ import annotations

import os
import sys

_STOPPED: list[int] = []  # the signal that asked kitgen to stop, once one has


def _on_ctrl_c(signum: int, frame: object) -> None:
    """Ctrl-C raises KeyboardInterrupt, as Python's own handler does, and is remembered: a
    library may catch it and raise something else in its place (pydantic-core reports one
    met while it builds a schema as a SchemaError), and kitgen still ends as Ctrl-C does."""
    _STOPPED.append(signum)
    raise KeyboardInterrupt


def _quiet_interrupt(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """Ctrl-C before main() can catch it (while Python imports the command line) ends kitgen
    with status 130 and no traceback; every other uncaught error is shown as before."""
    if isinstance(value, KeyboardInterrupt):
        return  # Python then ends itself by SIGINT, as a shell expects of Ctrl-C
    stop = _stop_asked() or _signal_beneath(value)
    if isinstance(stop, (KeyboardInterrupt, SystemExit)):
        sys.stderr.flush()
        code = stop.code if isinstance(stop, SystemExit) and isinstance(stop.code, int) else 130
        os._exit(code)  # nothing is being written yet: main() has not started
    _EXCEPTHOOK(kind, value, tb)


def _signal_beneath(exc: BaseException) -> BaseException | None:
    """The Ctrl-C (KeyboardInterrupt) or stop signal (SystemExit) that `exc` is or wraps: Python
    3.11 wraps one raised while a class is made as "RuntimeError: Error calling __set_name__"."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        if isinstance(found, (KeyboardInterrupt, SystemExit)):
            return found
        seen.add(id(found))
        found = found.__cause__ or found.__context__
    return None


def _stop_asked() -> BaseException | None:
    """What the first stop signal kitgen received raises, if one came: KeyboardInterrupt for
    Ctrl-C, SystemExit(128 + n) for SIGTERM and SIGHUP."""
    if not _STOPPED:
        return None
    return KeyboardInterrupt() if _STOPPED[0] == 2 else SystemExit(128 + _STOPPED[0])  # 2 is SIGINT


def _quiet_unraisable(unraisable: UnraisableHookArgs) -> None:
    """Ctrl-C inside a callback Python cannot raise from (an import's module lock, a finalizer)
    is ignored there without a traceback ("Exception ignored in ..."); the command goes on and
    ends as it would have."""
    if not isinstance(unraisable.exc_value, KeyboardInterrupt):
        _UNRAISABLEHOOK(unraisable)
    elif _STOPPED:
        _STOPPED.pop()  # ignored, so not a stop: a later error is that error, not this Ctrl-C


def _listen_for_ctrl_c() -> None:
    """Ctrl-C goes to `_on_ctrl_c`, unless whoever started kitgen chose to ignore it."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_ctrl_c)


_EXCEPTHOOK, sys.excepthook = sys.excepthook, _quiet_interrupt  # first: the imports below take a while
_UNRAISABLEHOOK, sys.unraisablehook = sys.unraisablehook, _quiet_unraisable
_listen_for_ctrl_c()

from enum import StrEnum  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING, Annotated, Optional  # noqa: E402

# kitgen uses no pydantic plugin; looking for them scans every installed package's metadata
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

import typer  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Callable
    from sys import UnraisableHookArgs
    from types import TracebackType

    from kitgen.campaign import Campaign
    from kitgen.campaigncache import Answer as CampaignAnswer
    from kitgen.errors import Problem
    from kitgen.model.scenario import Scenario
    from kitgen.record.rolls import RollsWritten

HELP = {"help_option_names": ["-h", "--help"]}
"""-h as well as --help, on every command: a group's context passes it to its commands'."""

app = typer.Typer(
    help="Print-ready campaign kits for the 1919-1920 South Russia hex-map campaign.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings=HELP,
)
scenario_app = typer.Typer(help="Show the bundled or a given scenario.", no_args_is_help=True)
lookup_app = typer.Typer(help="Answer a rules question at the table from the scenario's data.", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")
app.add_typer(lookup_app, name="lookup")
orders_app = typer.Typer(help="The faction order form: write it pre-filled, read it back filled.", no_args_is_help=True)
app.add_typer(orders_app, name="orders")

ScenarioOpt = Annotated[str, typer.Option("--scenario", "-s", help="Scenario folder or bundled scenario name.")]
DEFAULT = "denikin-1919"


class Format(StrEnum):
    text = "text"
    json = "json"


class River(StrEnum):
    none = "none"
    crossable = "crossable"
    major = "major"


class Carrier(StrEnum):
    train = "train"
    ship = "ship"


class Side(StrEnum):
    winner = "winner"
    loser = "loser"


def _scenario(name: str) -> Scenario:
    from kitgen.loader import load_scenario

    return load_scenario(name)


LookupScenarioOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--scenario", "-s", help=f"Scenario folder or bundled scenario name; default the campaign's, else {DEFAULT}."
    ),
]
LookupCampaignOpt = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(help="A campaign folder, whose scenario to read; default the current folder, if it is one."),
]
_CAMPAIGN_FILE = "campaign.yaml"
"""kitgen.campaign.CAMPAIGN_FILE: that module imports the map's stack, which a look-up does without."""


def _lookup_scenario(scenario: str | None, campaign: Path | None) -> Scenario:
    """The scenario a look-up reads: --scenario's; else a campaign's, --campaign's or the current
    folder's when it holds campaign.yaml; else the bundled default."""
    from kitgen.inputs import Kind, kind_of

    if scenario is not None and campaign is not None:
        from kitgen import messages as msg
        from kitgen.errors import UsageError

        raise UsageError(msg.lookup_scenario_and_campaign(scenario, str(campaign)))
    if scenario is not None:
        return _scenario(scenario)
    if campaign is None:
        if kind_of(Path(_CAMPAIGN_FILE)) is Kind.MISSING:
            return _scenario(DEFAULT)
        campaign = Path(".")
    _folder_argument(campaign, "a campaign folder")
    return _campaign_scenario(campaign)


def _campaign_scenario(folder: Path) -> Scenario:
    """A campaign's scenario, from campaign.yaml's `scenario:` alone (a look-up needs no map,
    set-up or logs), read from the cache as `--scenario` is. A campaign.yaml that does not name
    one plainly is read whole, which says what is wrong at its line."""
    from kitgen.scenariofolders import find_scenario
    from kitgen.yamlsource import load_yaml

    located = load_yaml(folder / _CAMPAIGN_FILE, what="campaign.yaml, the file that makes a folder a campaign")
    named = located.data.get("scenario") if isinstance(located.data, dict) else None
    plain = isinstance(named, str) and named and not located.problems
    source = find_scenario(named, base=folder) if plain and isinstance(named, str) else None
    if source is None:
        from kitgen.campaign import load_campaign

        return load_campaign(folder).scenario
    return _scenario(str(source))


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"


class PosterSize(StrEnum):
    true = "true"
    a0 = "a0"
    a1 = "a1"
    two_a1 = "2xa1"
    arch_e = "36x48"


class MapFormat(StrEnum):
    pdf = "pdf"
    json = "json"
    yaml = "yaml"


@app.command()
def validate(
    path: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Argument(
            help="A scenario or campaign folder, or a bundled scenario's name (`kitgen scenario list`); default the "
            "campaign you are in.",
            show_default=False,
        ),
    ] = None,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 if there is any warning.")] = False,
) -> None:
    """Check a scenario or campaign folder, the map included; list every problem as file:line:column.

    A campaign is replayed: every order that was void, held or stopped, and whatever a turn left
    unfinished, is a warning at its line."""
    from kitgen.inputs import Kind, kind_of

    if path is None:
        path = _campaign_folder(None)
    if kind_of(path) is Kind.MISSING and path.name == str(path):  # a bare name: a bundled scenario's
        from kitgen.loader import resolve_scenario

        path = resolve_scenario(str(path))
    _folder_argument(path, "a scenario folder or a campaign folder")
    if kind_of(path / _CAMPAIGN_FILE) is not Kind.MISSING:  # kitgen.campaign.is_campaign, without its imports
        _validate_campaign(path, strict=strict)
        return
    from kitgen.loader import load_scenario_map

    scenario, hex_map = load_scenario_map(str(path))
    _say(
        f"{path}: ok ({len(scenario.towns)} towns, {len(scenario.commanders)} commanders, "
        f"{len(scenario.meta.factions)} factions; map {hex_map.columns} x {hex_map.rows} hexes "
        f"of {hex_map.hex_size_km:g} km)"
    )


def _validate_campaign(path: Path, *, strict: bool) -> None:
    """Every log read (all their problems at once), then replayed; warnings, then a summary."""
    _answered(path, lambda: _validation(path, strict=strict))


def _validation(path: Path, *, strict: bool) -> CampaignAnswer:
    from kitgen.campaigncache import Answer
    from kitgen.engine.findings import findings
    from kitgen.engine.replay import played, read_logs
    from kitgen.engine.unfinished import owed_findings, turn_owes
    from kitgen.errors import display_path
    from kitgen.messages import plural

    campaign, notes = _loaded(path, said_elsewhere="note.scenario_outside")  # the summary says it
    if campaign.meta.dice is None:  # said once a check, not on every command
        from kitgen import messages as msg
        from kitgen.yamlsource import load_yaml

        said = load_yaml(path / _CAMPAIGN_FILE, what="campaign.yaml, the file that makes a folder a campaign")
        notes.append(said.problem(("seed",), msg.note_who_rolls_unsaid(), key=True))
    read = read_logs(campaign)
    warnings, turns = [], 0
    for log, record in played(campaign, read=read):  # a log that cannot be played stops here, with its file:line:column
        warnings += findings(record, display_path(log))
        warnings += owed_findings(turn_owes(record, *read[log], campaign.meta.dice))
        turns = record.state.turn
    where = ""
    if any(n.code == "note.scenario_outside" for n in campaign.notes):
        where = f", read from {os.path.abspath(campaign.scenario_folder or '')}, outside the campaign folder"
    summary = (
        f"{path}: ok: {plural(turns, 'turn')}, {plural(len(warnings), 'warning')} (campaign of "
        f"{campaign.scenario.meta.id}{where}, seed {campaign.meta.seed}; set-up of {len(campaign.setup.units)} units)"
    )
    out = "".join(f"{w}\n" for w in warnings) + summary + "\n"
    return Answer(out, _said(notes), 1 if strict and warnings else 0)


def _answered(folder: Path, work: Callable[[], CampaignAnswer]) -> None:
    """Print the answer of a command that only reads the campaign: kept from an earlier run if
    every file it reads is as it was then (`kitgen.campaigncache`), else worked out and kept."""
    from kitgen import campaigncache

    _folder_argument(folder, "a campaign folder")
    key = campaigncache.answer_key(folder, sys.argv[1:])
    answer = campaigncache.recall(key) if key is not None else None
    if answer is None:
        answer = work()
        if key is not None and campaigncache.answer_key(folder, sys.argv[1:]) == key:  # no file changed meanwhile
            campaigncache.keep(key, answer)
    if answer.err:
        _print(answer.err, err=True, nl=False)
    _print(answer.out, nl=False)
    if answer.code:
        raise typer.Exit(answer.code)


CampaignArg = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Argument(help="A campaign folder; default the one you are in (or the nearest above it).", show_default=False),
]
CampaignOpt = Annotated[
    Optional[Path],  # noqa: UP045
    typer.Option(help="The campaign folder; default the one you are in (or the nearest above it).", show_default=False),
]


def _campaign_folder(folder: Path | None) -> Path:
    """The campaign folder named, or, as git finds its repository, the one the command runs in
    or the nearest above it (given relative to the current folder, as messages name files)."""
    if folder is not None:
        _folder_argument(folder, "a campaign folder")
        return folder
    from kitgen import messages as msg
    from kitgen.errors import UsageError
    from kitgen.inputs import Kind, kind_of

    here = Path.cwd()
    for candidate in (here, *here.parents):
        if kind_of(candidate / _CAMPAIGN_FILE) is not Kind.MISSING:
            return Path(os.path.relpath(candidate, here))
    raise UsageError(msg.arg_no_campaign_here(str(here)))


def _folder_argument(path: Path, what: str) -> None:
    """A folder named on the command line must be one (a bad one is bad usage, exit 2)."""
    from kitgen import messages as msg
    from kitgen.errors import UsageError
    from kitgen.inputs import Kind, kind_of

    found = kind_of(path)
    if found is not Kind.FOLDER:
        raise UsageError(msg.arg_not_folder(str(path), found.value, what))


def _notes(notes: list[Problem]) -> None:
    for note in notes:
        _say(str(note), err=True)


def _said(notes: list[Problem]) -> str:
    return "".join(f"{note}\n" for note in notes)


def _campaign(folder: Path, *, said_elsewhere: str | None = None) -> Campaign:
    """The campaign in the folder given, its notes on standard error (but the one whose code
    `said_elsewhere` names: the command says it its own way)."""
    campaign, notes = _loaded(folder, said_elsewhere=said_elsewhere)
    _notes(notes)
    return campaign


def _loaded(folder: Path, *, said_elsewhere: str | None = None) -> tuple[Campaign, list[Problem]]:
    """The campaign in the folder given and the notes to show (all but `said_elsewhere`'s)."""
    from kitgen.campaign import load_campaign

    _folder_argument(folder, "a campaign folder")
    campaign = load_campaign(folder)
    return campaign, [n for n in campaign.notes if n.code != said_elsewhere]


@app.command("turn")
def turn_command(
    folder: CampaignArg = None,
    turn: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            min=1,
            max=999,
            help="The turn; default the one being played: the last log's while it is unfinished, else the next.",
        ),
    ] = None,
    paper: Annotated[Paper, typer.Option(help="Paper size of the packets.")] = Paper.a4,
    out: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Folder to write the packets in; default DIR/packets."),
    ] = None,
    acetate: Annotated[
        bool, typer.Option("--acetate", help="Also each faction's supply overlay, to print on transparency.")
    ] = False,
) -> None:
    """The week's packets for a turn: the umpire's (master map, supply, ledgers, roll sheet, contacts,
    battle sheets and report forms) and one per faction (its map with what it can see, supply, reach,
    lists, order form); the umpire's report forms and roll sheet alone too."""
    from kitgen.messages import plural
    from kitgen.outputs import check_product_folder
    from kitgen.products.packets import build_packets, write_packets

    folder = _campaign_folder(folder)
    campaign = _campaign(folder)
    target = out or folder / "packets"
    check_product_folder(target)  # before the minutes of drawing, not after
    files = build_packets(campaign, turn, paper.value, acetates=acetate)
    for path, f in zip(write_packets(folder, target, files), files, strict=True):
        kinds = {"acetate": "supply overlay for transparency", "report_forms": "battle report forms"}
        what = kinds.get(f.kind, f.kind.replace("_", " "))
        who = "the umpire" if f.who == "umpire" else campaign.scenario.faction_name(f.who)
        _say(f"wrote {path} ({plural(f.pages, 'page')}: {what} for {who})")


@app.command("chronicle")
def chronicle_command(
    folder: CampaignArg = None,
    faction: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="A faction's edition (its id or name): only what it knew; default the umpire's."),
    ] = None,
    paper: Annotated[Paper, typer.Option(help="Paper size.")] = Paper.a4,
    out: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="The PDF to write; default DIR/chronicle/WHO-chronicle-turn-NN-PAPER.pdf."),
    ] = None,
) -> None:
    """The campaign so far as a book: a cover and an introduction, the war in charts, a map and a
    story for each turn, and a closing page. The umpire's edition has everything; a faction's
    only what that faction knew."""
    from kitgen.engine.views import faction_id
    from kitgen.outputs import check_product_folder, write_out
    from kitgen.products.chronicle import build_chronicle

    folder = _campaign_folder(folder)
    campaign = _campaign(folder)
    wanted = faction_id(campaign.scenario, faction) if faction is not None else None
    if out is None:
        check_product_folder(folder / "chronicle")
    book = build_chronicle(campaign, wanted, paper.value)
    if out is not None:
        write_out(out, book.pdf)
        path = out
    else:
        from kitgen.outputs import ProductFolder

        with ProductFolder(folder / "chronicle", keep=True) as product:
            path = product.write(book.name, book.pdf)
    who = "the umpire" if wanted is None else campaign.scenario.faction_name(wanted)

    _say(f"wrote {path} ({book.pages} pages: chronicle for {who})")


class WhoRolls(StrEnum):
    table = "table"
    kitgen = "kitgen"


@app.command("new")
def new_command(
    folder: Annotated[Path, typer.Argument(help="The campaign folder to create (new or empty).")],
    scenario: ScenarioOpt = DEFAULT,
    dice: Annotated[
        Optional[WhoRolls],  # noqa: UP045
        typer.Option(
            help="Who rolls the dice: table (every roll made at the table and given to kitgen) or kitgen (it rolls "
            "from the seed and writes each roll into the log); asked if not given.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[int, typer.Option(min=0, max=10**15, help="Seed of the dice kitgen rolls.")] = 1919,
) -> None:
    """Start a campaign of a scenario: campaign.yaml (which says who rolls the dice), the set-up to
    edit, and turns/ for the logs."""
    from kitgen.campaign import new_campaign, new_campaign_source

    if dice is None:
        new_campaign_source(folder, scenario, seed)  # a folder in use or a bad scenario before the question
    who = dice.value if dice is not None else _ask_who_rolls()
    for path in new_campaign(folder, scenario, seed, "table" if who == "table" else "kitgen"):
        _say(f"wrote {path}")
    _say(f"Next: `kitgen next {folder}` starts turn 1 (`kitgen status {folder}` says where it stands).")


def _ask_who_rolls() -> str:
    from kitgen.prompts import Asker, Option

    options = [
        Option("table", "the table: every roll is made at the table and given to kitgen (the roll sheet, kitgen roll)"),
        Option("kitgen", "kitgen: it rolls from the campaign's seed and writes each roll into the log"),
    ]
    return Asker().choose("Who rolls this campaign's dice?", options)


@app.command("samples")
def samples_command(
    folder: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Argument(help="The folder to copy the sample campaign into (new or empty); none: list the samples."),
    ] = None,
    sample: Annotated[str, typer.Option("--sample", help="Which sample campaign.")] = "sample-campaign",
) -> None:
    """Copy a sample campaign kitgen ships into a folder, to replay (`kitgen state`) or play on
    (`kitgen next`); with no folder, list the samples."""
    from kitgen.campaign import copy_sample, sample_campaigns

    if folder is None:
        for name in sample_campaigns():
            _say(name)
        return
    for path in copy_sample(sample, folder):
        _say(f"wrote {path}")


@app.command("next")
def next_command(
    folder: CampaignArg = None,
    force: Annotated[
        bool,
        typer.Option("--force", help="Start it though the turn being played is unfinished; the new log says what."),
    ] = False,
) -> None:
    """Write the next turn's log to fill in: turns/turn-NN.yaml after the last log, with a commented
    order line for every unit, train and ship, and every roll the turn asks for; never over a file,
    and only when the turn being played is finished (see `kitgen status`)."""
    from kitgen.messages import plural
    from kitgen.record.nextturn import start_next_turn

    started = start_next_turn(_campaign_folder(folder), force=force)
    for skipped in started.skipped:
        _say(f"{skipped} (gone past with --force)", err=True)
    rolls = "kitgen rolls the turn's dice" if started.dice == "kitgen" else f"{plural(started.rolls, 'roll')} to make"
    _say(f"wrote {started.path} ({rolls}, {plural(started.units, 'unit')} to order)")


@app.command("roll")
def roll_command(
    folder: CampaignArg = None,
    give: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--give",
            help="A roll made at the table, PURPOSE=VALUE, the purpose as `kitgen status` names it; once for each.",
            show_default=False,
        ),
    ] = None,
    turn: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=1, max=999, help="The turn; default the one being played."),
    ] = None,
    amend: Annotated[
        bool, typer.Option("--amend", help="Change a roll of a finished turn (it says what the change changes).")
    ] = False,
) -> None:
    """The turn's rolls into its log: where the table rolls, asked for one by one (or --give);
    where kitgen rolls, drawn and written now. Each is checked, and what it changes is said."""
    from kitgen.record.rolls import give_rolls

    folder = _campaign_folder(folder)
    campaign = _campaign(folder)
    if give:
        done = give_rolls(folder, _given(give), turn, amend=amend)
    elif campaign.meta.dice == "table":
        from kitgen.desk.rollentry import enter_rolls
        from kitgen.prompts import Asker

        entered = enter_rolls(folder, Asker(), turn, amend=amend)
        if entered is None:
            _say("The turn needs no roll that its log does not give already.")
            return
        done = entered
    else:
        done = give_rolls(folder, None, turn, amend=amend)
    _said_rolls(campaign, done)


def _given(texts: list[str]) -> dict[str, int]:
    """--give PURPOSE=VALUE, each; a malformed one is bad usage."""
    from kitgen import messages as msg
    from kitgen.errors import UsageError

    found: dict[str, int] = {}
    for text in texts:
        purpose, sep, value = text.rpartition("=")
        digits = value.strip()
        if not sep or not purpose.strip() or not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
            raise UsageError(msg.roll_bad_give(text))
        found[purpose.strip()] = int(value)
    return found


def _said_rolls(campaign: Campaign, done: RollsWritten) -> None:
    from kitgen.desk.words import change_words
    from kitgen.errors import display_path
    from kitgen.messages import plural

    where = display_path(done.log)
    if done.backup is None:
        _say(f"{where} holds these rolls already: unchanged")
    else:
        said = f"{plural(len(done.given), 'roll')} written into {where} (previous kept as {display_path(done.backup)})"
        _say(said)
    for purpose, value in done.given:
        _say(f"  {purpose}: {value}")
    if done.changes:
        _say("What the rolls change in the turn:")
        for change in done.changes:
            _say("  " + change_words(change, done.names, campaign.hex_names))
    if done.dropped:
        places = ", ".join(campaign.hex_names.get(h, h) + f" ({h})" for h in done.dropped)
        _say(f"Battle reports taken out, to report again (kitgen report): {places}")
    if done.asked:
        _say(f"Still to make ({len(done.asked)}), written with no value:")
        for purpose in done.asked:
            _say(f"  {purpose}")


@app.command("status")
def status_command(
    folder: CampaignArg = None,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for the umpire, json for tools.")
    ] = Format.text,
) -> None:
    """Where the turn being played stands: whose orders are in, the rolls not given yet, the battles
    to report and the units each must list, breakouts owed, slips to place, and what `kitgen next`
    would refuse."""
    from kitgen.campaigncache import Answer

    named = "" if folder is None else str(folder)
    folder = _campaign_folder(folder)

    def work() -> Answer:
        from kitgen.record.status import campaign_status, status_json, status_text

        campaign, notes = _loaded(folder)
        status = campaign_status(campaign)
        text = status_json(status) if format is Format.json else status_text(campaign, status, named)
        return Answer(text, _said(notes))

    _answered(folder, work)


@app.command("backups")
def backups_command(
    folder: CampaignArg = None,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for the umpire, json for tools.")
    ] = Format.text,
) -> None:
    """The earlier versions of the turn logs kept in backups/: turn, when it was replaced, by which command."""
    from kitgen.record.backups import backups_json, list_backups, spoilt_indexes

    folder = _campaign_folder(folder)
    found = list_backups(folder)
    for spoilt in spoilt_indexes(folder):
        typer.echo(str(spoilt), err=True)  # escaped by Problem.__str__
    if format is Format.json:
        _print(backups_json(found), nl=False)
        return
    if not found:
        _say(f"{folder}: no backups yet")
    for b in found:
        _say(f"{b.name}  turn {b.turn}  replaced {b.time} by {b.command}  ({b.size} bytes)")


@app.command("restore")
def restore_command(
    first: Annotated[
        str,
        typer.Argument(
            metavar="[DIR] BACKUP",
            help="A campaign folder (default the one you are in), then a backup's name as `kitgen backups` lists it "
            "(turn-03.yaml.2).",
        ),
    ],
    second: Annotated[Optional[str], typer.Argument(metavar="", show_default=False)] = None,  # noqa: UP045
    force: Annotated[
        bool, typer.Option("--force", help="Put it back even if the campaign does not play with it.")
    ] = False,
) -> None:
    """Put a backup back as its turn log, if the campaign plays with it (every later turn too); the
    log it replaces is backed up first."""
    from kitgen.errors import display_path
    from kitgen.record.restore import restore

    folder, backup = (None, first) if second is None else (Path(first), second)
    log, kept = restore(_campaign_folder(folder), backup, force=force)
    said = f"the log it replaced kept as {display_path(kept)}" if kept else "there was no log to replace"
    _say(f"restored {backup} as {display_path(log)} ({said})")


@app.command("undo")
def undo_command(
    folder: CampaignArg = None,
    force: Annotated[
        bool, typer.Option("--force", help="Put it back even if the campaign does not play with it.")
    ] = False,
) -> None:
    """Undo the last write to a turn log (an import, a roll, a report, a restore): its backup, the
    latest, put back as `kitgen restore` does; undone again, the write comes back."""
    from kitgen.errors import display_path
    from kitgen.record.backups import Created
    from kitgen.record.restore import undo

    done = undo(_campaign_folder(folder), force=force)
    last = done.last
    if isinstance(last, Created):
        kept = display_path(done.kept or done.log)
        said = f"took away turns/{last.log}, which {last.command} made at {last.time}, kept as {kept}"
        _say(f"undid the {last.command}: {said} (`kitgen undo` again brings it back)")
        return
    said = f"the log it replaced kept as {display_path(done.kept)}" if done.kept else "there was no log to replace"
    _say(
        f"undid the {last.command} of {last.time}: put back {last.name}, the latest backup, as "
        f"{display_path(done.log)} ({said}; `kitgen undo` again brings it back)"
    )


@app.command("report")
def report_command(
    folder: CampaignArg = None,
    turn: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=1, max=999, help="The turn; default the one being played."),
    ] = None,
    amend: Annotated[
        bool, typer.Option("--amend", help="Report a battle of a finished turn again (every later turn replays).")
    ] = False,
) -> None:
    """Enter the turn's battles at the terminal, contact by contact: who won, losses, retreats,
    breakouts; each checked by the rules as it is given, then all written into the log."""
    from kitgen.desk.battleentry import enter_battles
    from kitgen.errors import display_path
    from kitgen.messages import plural
    from kitgen.prompts import Asker

    folder = _campaign_folder(folder)
    campaign = _campaign(folder)
    done = enter_battles(folder, Asker(), turn, amend=amend)
    if done is None:
        return
    where = display_path(done.log)
    if done.backup is None:
        _say(f"{where} holds these battles already: unchanged")
    else:
        said = (
            f"wrote {plural(len(done.battles), 'battle')} into {where} (previous kept as {display_path(done.backup)})"
        )
        _say(said)
    for b in done.battles:
        _say(f"  {b.hex}, won by the {campaign.scenario.faction_name(b.winner)} ({b.change}):")
        for v in b.verdicts:
            _say(f"    {v.explanation}")
    asked = [p for p, v in done.rolls if v is None]
    if asked:
        _say(f"Still to make ({len(asked)}), written with no value: " + "; ".join(asked))


@app.command("state")
def state_command(
    folder: CampaignArg = None,
    turn: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=0, max=999, help="After this turn (0: the set-up); default the last."),
    ] = None,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for the umpire, json for tools.")
    ] = Format.text,
    out: Annotated[Optional[Path], typer.Option(help="Write to this file instead of standard output.")] = None,  # noqa: UP045
) -> None:
    """The campaign's state after a turn: units, supply and its proof, owners, VP, rolls, verdicts."""
    from kitgen.campaigncache import Answer

    folder = _campaign_folder(folder)

    def work() -> Answer:
        from kitgen.engine.report import state_json, state_text
        from kitgen.engine.unfinished import judged_replay

        campaign, notes = _loaded(folder)
        unfinished: list[Problem] = []  # what the logs leave unfinished: a breakout owed (II.B.1)
        state, done = judged_replay(campaign, turn, notes=unfinished)
        if format is Format.json:
            text = state_json(state, campaign, finished=done)
        else:
            text = state_text(campaign, state, finished=done)
        return Answer(text, _said([*notes, *unfinished]))

    if out is None:
        _answered(folder, work)
        return
    answer = work()
    _print(answer.err, err=True, nl=False)
    _emit(answer.out, out)


class HistoryFormat(StrEnum):
    csv = "csv"
    json = "json"


class HistoryTable(StrEnum):
    units = "units"
    battles = "battles"
    towns = "towns"


@app.command("history")
def history_command(
    folder: CampaignArg = None,
    format: Annotated[
        HistoryFormat, typer.Option("--format", "-f", help="csv: one table, for a spreadsheet; json: all three.")
    ] = HistoryFormat.csv,
    table: Annotated[
        HistoryTable,
        typer.Option(
            help="csv: units (a row per unit per turn), battles (a row per battle) or towns (a row per change)."
        ),
    ] = HistoryTable.units,
    out: Annotated[Optional[Path], typer.Option(help="Write to this file instead of standard output.")] = None,  # noqa: UP045
) -> None:
    """The campaign's history as data: a row per unit per turn (hex, stands, supply, carrier, owner
    of its hex), per battle and per town that changed hands, from the set-up to the last turn
    played (not the one being played)."""
    from kitgen.engine.history import finished
    from kitgen.products.historydata import history_csv, history_json, history_tables

    campaign = _campaign(_campaign_folder(folder))
    tables = history_tables(campaign, finished(campaign))
    _emit(history_json(tables) if format is HistoryFormat.json else history_csv(tables, table.value), out)


TurnOpt = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option(min=0, max=999, help="After this turn (0: the set-up); default the last."),
]


@app.command("units")
def units_command(
    folder: CampaignArg = None,
    faction: Annotated[Optional[str], typer.Option(help="Only this faction's (id or name).")] = None,  # noqa: UP045
    turn: TurnOpt = None,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for the umpire, json for tools.")
    ] = Format.text,
    out: Annotated[Optional[Path], typer.Option(help="Write to this file instead of standard output.")] = None,  # noqa: UP045
) -> None:
    """Every unit after a turn: hex and nearest town, stands, MP, supply, commander's target, carrier;
    then trains, ships and depots."""
    from kitgen.engine.replay import replay
    from kitgen.engine.views import faction_id, units_view
    from kitgen.engine.viewtext import units_json, units_text

    campaign = _campaign(_campaign_folder(folder))
    if faction is not None:
        faction_id(campaign.scenario, faction)  # a misspelt faction is told before the replay
    view = units_view(campaign, replay(campaign, turn), faction)
    _emit(units_json(view) if format is Format.json else units_text(campaign.scenario, view), out)


@app.command("hex")
def hex_command(
    first: Annotated[
        str, typer.Argument(metavar="[DIR] HEX", help="A campaign folder (default the one you are in), then a hex.")
    ],
    second: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(metavar="", help="A hex id (CCRR) or a town's name.", show_default=False),
    ] = None,
    turn: TurnOpt = None,
    format: Annotated[
        Format, typer.Option("--format", "-f", help="text for the umpire, json for tools.")
    ] = Format.text,
    out: Annotated[Optional[Path], typer.Option(help="Write to this file instead of standard output.")] = None,  # noqa: UP045
) -> None:
    """One hex after a turn: terrain, sides, rail and roads, towns, who is there, supply for each
    faction, and the MP each unit type pays to enter it from each neighbour."""
    from kitgen.engine.replay import replay
    from kitgen.engine.views import hex_of, hex_view
    from kitgen.engine.viewtext import hex_json, hex_text

    folder, hex_id = (None, first) if second is None else (Path(first), second)
    campaign = _campaign(_campaign_folder(folder))
    where = hex_of(campaign, hex_id)
    view = hex_view(campaign, replay(campaign, turn), where)
    _emit(hex_json(view) if format is Format.json else hex_text(campaign.scenario, view), out)


@app.command("map")
def map_command(
    scenario: Annotated[str, typer.Argument(help="Bundled scenario name or scenario folder.")] = DEFAULT,
    paper: Annotated[Paper, typer.Option(help="Paper of the tiled set.")] = Paper.a4,
    poster: Annotated[
        PosterSize,
        typer.Option(
            help="Besides the true-scale poster, one scaled to A0, A1, A0 on 2 x A1, or 36 x 48 in, with crop marks."
        ),
    ] = PosterSize.true,
    format: Annotated[
        MapFormat,
        typer.Option(
            "--format", "-f", help="pdf: poster and tiles; json: the hex grid; yaml: the board hex by hex (map.yaml)."
        ),
    ] = MapFormat.pdf,
    window: Annotated[
        str | None,
        typer.Option(help="yaml: only the hexes from one corner to the other, e.g. 2010-3525 (ids kept)."),
    ] = None,  # noqa: UP045
    out: Annotated[
        Path | None,
        typer.Option(
            help="Output folder (pdf; default output/SCENARIO/map/) or file (json; default: standard output)."
        ),
    ] = None,  # noqa: UP045
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Build the grid afresh, ignoring the disk cache.")
    ] = False,
) -> None:
    """Build the hex map; write the poster and the tiled pages, the grid as JSON (its schema in the manual's data reference),
    or the board hex by hex as YAML (map.yaml's board: section)."""
    from kitgen.loader import load_scenario_map

    s, hex_map = load_scenario_map(scenario, use_cache=not no_cache)
    if format is MapFormat.json:
        from kitgen.mapping.cache import map_json

        _emit(map_json(hex_map), out)
        return
    if format is MapFormat.yaml:
        from kitgen import messages as msg
        from kitgen.errors import UsageError
        from kitgen.mapping.handmade import board_yaml, parse_window

        corners = parse_window(window, hex_map.grid) if window is not None else None
        if window is not None and corners is None:
            raise UsageError(msg.arg_bad_window(window, hex_map.columns, hex_map.rows))
        from kitgen.mapping.places import point_hexes

        _emit(board_yaml(hex_map, corners, point_hexes(s, hex_map)), out)
        return
    from kitgen.outputs import check_product_folder
    from kitgen.products.mapsheets import write_map_sheets
    from kitgen.render.style import map_style

    folder = out if out is not None else Path("output") / s.meta.id / "map"
    check_product_folder(folder)  # before the drawing, not after
    for f in write_map_sheets(hex_map, s, map_style(), folder, paper=paper.value, poster=poster.value):
        _say(f"{f.path}  {f.pages} page{'s' if f.pages != 1 else ''}  {f.purpose}")


@app.command("kit")
def kit_command(
    scenario: ScenarioOpt = DEFAULT,
    paper: Annotated[Paper, typer.Option(help="Paper every page prints on (the poster aside).")] = Paper.a4,
    out: Annotated[
        Path | None,  # noqa: UP045
        typer.Option(help="Output folder (default output/SCENARIO/kit-PAPER/, or kit-PAPER-compact/)."),
    ] = None,
    compact: Annotated[
        bool,
        typer.Option(
            "--compact",
            help="The compact edition: 16 mm hexes and half-inch counters, the map with its key "
            "beside it on the smallest poster that holds it (the Denikin map: two A2 or 17 x 22 in sheets).",
        ),
    ] = False,
) -> None:
    """Write the whole boxed kit: rules booklet, map, counters, cards, player aids and forms as
    PDFs, and two files joining them (campaign-kit-duplex-PAPER.pdf, campaign-kit-single-sided-PAPER.pdf);
    a summary lists every file."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from kitgen.loader import load_scenario_map
    from kitgen.outputs import check_product_folder
    from kitgen.products.kit import build_parts, combined, kit_builders, write_kit
    from kitgen.render.counterstyle import Edition

    err = Console(stderr=True)
    s, hex_map = load_scenario_map(scenario)
    edition: Edition = "compact" if compact else "full"
    default = f"kit-{paper.value}" + ("-compact" if compact else "")
    folder = out if out is not None else Path("output") / s.meta.id / default
    check_product_folder(folder)  # before the drawing, not after
    steps = list(kit_builders(s, hex_map, paper.value, edition=edition))
    # refreshed by hand, not by a thread of its own: a fork is only safe from a single thread
    with Progress(console=err, transient=True, auto_refresh=False) as progress:
        task = progress.add_task("building the kit", total=len(steps) + 1)

        def started(what: str) -> None:
            progress.update(task, description=f"building the {what}", advance=1, refresh=True)

        parts = build_parts(steps, started)
        progress.update(task, description="joining the whole kit", refresh=True)
        parts += combined(s, parts, paper.value)
        progress.update(task, advance=1, refresh=True)
    write_kit(parts, folder)
    table = Table(title=f"{s.meta.title}: the kit in {folder}", title_justify="left")
    for column in ("file", "pages", "what it is for"):
        table.add_column(column, justify="right" if column == "pages" else "left")
    for part in parts:
        table.add_row(part.file, str(part.pages), part.purpose)
    Console().print(table)


def _say(*lines: str, err: bool = False) -> None:
    """Print lines of kitgen's own words, each on one line: a line break, an escape or any other
    control character that a value from input (a name, a path, a form's cell) puts in a line is
    shown escaped (`escape_controls`), so that no input can print a line that looks like kitgen's."""
    from kitgen.errors import escape_controls

    for line in lines:
        typer.echo(escape_controls(line, newlines=False), err=err)


def _print(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Print a command's output as it was made, its own line breaks kept, every other control
    character escaped as JSON writes it (`escape_output`): a name from a file cannot drive the
    terminal, and JSON printed stays JSON."""
    from kitgen.errors import escape_output

    typer.echo(escape_output(text), err=err, nl=nl)


def _emit(text: str, out: Path | None) -> None:
    """Print `text`, or write it to the file `out` whole (never a device, FIFO or socket)."""
    if out is None:
        _print(text, nl=False)
        return
    from kitgen.outputs import write_out

    write_out(out, text.encode("utf-8"))
    _say(f"wrote {out}", err=True)


@scenario_app.command("show")
def scenario_show(
    name: Annotated[str, typer.Argument(help="Bundled scenario name or scenario folder.")] = DEFAULT,
    format: Annotated[Format, typer.Option("--format", "-f", help="text for people, json for tools.")] = Format.text,
    out: Annotated[Optional[Path], typer.Option(help="Write to this file instead of standard output.")] = None,  # noqa: UP045
) -> None:
    """Print the whole validated scenario (its JSON schema is in the manual's data reference)."""
    from kitgen.describe import scenario_json, scenario_text

    s = _scenario(name)
    _emit(scenario_json(s) if format is Format.json else scenario_text(s), out)


@scenario_app.command("list")
def scenario_list() -> None:
    """List the bundled scenarios."""
    from kitgen.errors import escape_controls
    from kitgen.scenariofolders import bundled_scenarios, data_dir

    for name in bundled_scenarios():
        typer.echo(f"{escape_controls(name)}\t{escape_controls(str(data_dir() / name))}")


@lookup_app.command("move")
def lookup_move(
    unit_type: Annotated[
        str, typer.Argument(help="infantry, cavalry, artillery, armoured-car, tank, pontoon, rr-train, tachanka...")
    ],
    terrain: Annotated[str, typer.Argument(help="open, forest, mountain or marsh.")],
    river: Annotated[River, typer.Option(help="River class of the hexside crossed.")] = River.none,
    bridge: Annotated[bool, typer.Option(help="A road or rail bridge at that hexside.")] = False,
    road: Annotated[bool, typer.Option(help="A road runs through the hex entered.")] = False,
    rail: Annotated[bool, typer.Option(help="A rail line runs through the hex entered.")] = False,
    pontoon: Annotated[bool, typer.Option(help="A pontoon or ferry at the hexside.")] = False,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """MP for a unit type to enter a hex (A, A.1)."""
    from kitgen import answers

    _print(
        answers.move(
            _lookup_scenario(scenario, campaign),
            unit_type,
            terrain,
            river=river.value,
            bridge=bridge,
            road=road,
            rail=rail,
            pontoon=pontoon,
        )
    )


@lookup_app.command("load")
def lookup_load(
    items: Annotated[list[str], typer.Argument(help="KIND=COUNT, e.g. infantry=4 cavalry=2 depot=1.")],
    carrier: Annotated[Carrier, typer.Option(help="Train (C.1) or ship (D.3).")] = Carrier.train,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Load points of stands and whether they fit one train or ship (C.1, D.3)."""
    import re

    from kitgen import answers
    from kitgen import messages as msg
    from kitgen.errors import UsageError

    counts: dict[str, int] = {}
    for item in items:
        match = re.fullmatch(r"([a-z][a-z0-9_-]*)=([0-9]{1,4})", item, flags=re.ASCII)
        if match is None:
            raise UsageError(msg.arg_bad_load_item(item))
        kind, count = match.groups()
        counts[kind] = counts.get(kind, 0) + int(count)
    _print(answers.load(_lookup_scenario(scenario, campaign), counts, carrier.value))


@lookup_app.command("town")
def lookup_town(
    name: Annotated[str, typer.Argument(help="Town name, seed spelling or other name.")],
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """A town's VP for each faction (E.1)."""
    from kitgen import answers

    _print(answers.town(_lookup_scenario(scenario, campaign), name))


@lookup_app.command("reinforcements")
def lookup_reinforcements(
    faction: Annotated[str, typer.Argument(help="reds, whites or ukrainians.")],
    roll: Annotated[int, typer.Argument(min=-99, max=99, help="The D6 rolled.")],
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Draws from the pile for a roll on a faction's chart (II.E.2)."""
    from kitgen import answers

    _print(answers.reinforcements(_lookup_scenario(scenario, campaign), faction, roll))


@lookup_app.command("vp")
def lookup_vp(
    faction: Annotated[str, typer.Argument(help="reds, whites or ukrainians.")],
    total: Annotated[int, typer.Argument(min=0, max=99_999, help="The faction's VP total.")],
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Chart rolls owed for a VP total, and what is carried over (E.3-E.5)."""
    from kitgen import answers

    _print(answers.threshold(_lookup_scenario(scenario, campaign), faction, total))


@lookup_app.command("commander")
def lookup_commander(
    name: Annotated[str, typer.Argument(help="Commander's name (seed spelling accepted).")],
    failures: Annotated[int, typer.Option(min=0, max=99, help="Failures in a row before this roll (II.C.4).")] = 0,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """A commander's rating and his odds of obeying (II.C)."""
    from kitgen import answers

    _print(answers.commander(_lookup_scenario(scenario, campaign), name, failures))


@lookup_app.command("leaderless")
def lookup_leaderless(
    adjacent: Annotated[bool, typer.Option(help="A friendly commander in an adjacent hex.")] = False,
    failures: Annotated[int, typer.Option(min=0, max=99, help="Failures in a row before this roll (II.C.4).")] = 0,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Odds of obeying for units with no commander in the hex (II.C.1)."""
    from kitgen import answers

    _print(answers.leaderless(_lookup_scenario(scenario, campaign), adjacent=adjacent, failures=failures))


@lookup_app.command("breakdown")
def lookup_breakdown(
    unit_type: Annotated[str, typer.Argument(help="armoured-car or tank.")],
    carried: Annotated[bool, typer.Option(help="Carried by train or ship this turn.")] = False,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """The breakdown roll of a vehicle that moved (A.4-A.5)."""
    from kitgen import answers

    _print(answers.breakdown(_lookup_scenario(scenario, campaign), unit_type, carried=carried))


@lookup_app.command("losses")
def lookup_losses(
    side: Annotated[Side, typer.Argument(help="winner or loser.")],
    lost: Annotated[int, typer.Argument(min=0, max=9999, help="Stands lost on the tabletop.")],
    routed: Annotated[int, typer.Option(min=0, max=9999, help="Stands routed.")] = 0,
    elite: Annotated[bool, typer.Option(help="The unit is Elite or Fanatic.")] = False,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Permanent and returning losses of one unit after a battle (II.B.3)."""
    from kitgen import answers

    _print(answers.losses(_lookup_scenario(scenario, campaign), side.value, lost, routed, exempt=elite))


@lookup_app.command("evade")
def lookup_evade(
    makhno: Annotated[bool, typer.Option(help="Makhno is present.")] = False,
    cover: Annotated[bool, typer.Option(help="Partisans in forest or mountains.")] = False,
    enemy_cavalry: Annotated[bool, typer.Option(help="The enemy has cavalry in the hex.")] = True,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Partisans' odds of evading a fight (II.D.1)."""
    from kitgen import answers
    from kitgen.rules import partisans

    conditions = [
        c
        for c, on in (
            (partisans.MAKHNO_PRESENT, makhno),
            (partisans.FOREST_OR_MOUNTAIN, cover),
            (partisans.ENEMY_WITHOUT_CAVALRY, not enemy_cavalry),
        )
        if on
    ]
    _print(answers.evade(_lookup_scenario(scenario, campaign), conditions))


@lookup_app.command("ambush")
def lookup_ambush(
    makhno: Annotated[bool, typer.Option(help="Makhno is present.")] = False,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Partisans' odds of springing an ambush (II.D.2)."""
    from kitgen import answers
    from kitgen.rules import partisans

    _print(answers.ambush(_lookup_scenario(scenario, campaign), [partisans.MAKHNO_PRESENT] if makhno else []))


@lookup_app.command("depot")
def lookup_depot(
    use: Annotated[int, typer.Argument(min=1, max=99, help="Turn of use while cut off: 1 for the first.")],
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """Odds that a cut-off depot is emptied (B.7)."""
    from kitgen import answers

    _print(answers.depot(_lookup_scenario(scenario, campaign), use))


@lookup_app.command("makhnovists")
def lookup_makhnovists(
    gulai_pole: Annotated[bool, typer.Option(help="They hold Gulai Pole.")] = True,
    makhno_alive: Annotated[bool, typer.Option(help="Makhno is alive.")] = True,
    scenario: LookupScenarioOpt = None,
    campaign: LookupCampaignOpt = None,
) -> None:
    """The modifier of the Makhnovist Current Strength roll (E.6)."""
    from kitgen import answers

    s = _lookup_scenario(scenario, campaign)
    _print(answers.makhnovists(s, holds_gulai_pole=gulai_pole, makhno_alive=makhno_alive))


@lookup_app.command("events")
def lookup_events(scenario: LookupScenarioOpt = None, campaign: LookupCampaignOpt = None) -> None:
    """The random-event roll of each strategic turn (II.A.1)."""
    from kitgen import answers

    _print(answers.event_roll(_lookup_scenario(scenario, campaign)))


def main() -> None:
    """Entry point: user errors become messages and exit codes, never tracebacks.

    Exit status 1 is bad data (every problem listed as file:line:column) or a system that
    refused (a full disk, a read-only folder), 2 bad usage, 130 Ctrl-C. Every message is
    printed with its control characters escaped (`kitgen.errors.escape_controls`)."""
    try:
        _exit_cleanly_on_signals()
        _collect_less()
        _notices_shown()
        from kitgen.errors import KitgenError, UsageError, escape_controls

        try:
            try:
                _summaries(app)
                _app_for(sys.argv[1:])(prog_name="kitgen")  # `python -m kitgen` is `kitgen`
            except Exception:  # any error after a stop signal (one kitgen caught and reported, say) is the stop
                stop = _stop_asked()
                if stop is not None:
                    raise stop from None
                raise
        except KitgenError as exc:
            for problem in exc.problems:
                typer.echo(str(problem), err=True)  # escaped by Problem.__str__
            n = len(exc.problems)
            typer.echo(f"{n} problem{'s' if n != 1 else ''} found", err=True)
            sys.exit(1)
        except UsageError as exc:
            typer.echo(f"kitgen: {exc}", err=True)  # escaped by UsageError.__str__
            sys.exit(2)
        except OSError as exc:
            from kitgen import messages as msg

            said = msg.io_failed(str(exc.filename or ""), exc.strerror or str(exc)).text
            typer.echo(escape_controls(f"kitgen: {said}"), err=True)
            sys.exit(1)
        except MemoryError:
            from kitgen import messages as msg

            typer.echo(f"kitgen: {msg.out_of_memory().text}", err=True)
            sys.exit(1)
        except Exception as exc:
            stop = _signal_beneath(exc) or _stop_asked()
            if stop is None:
                raise
            raise stop from None
    except KeyboardInterrupt:  # Ctrl-C: a write under way was finished or undone before this
        sys.exit(130)


def _summaries(group: typer.Typer) -> None:
    """Each command's line in a command list is its docstring's first paragraph, as one line:
    typer's rich help keeps the docstring's line breaks there, mid-sentence."""
    import inspect

    for info in group.registered_commands:
        if info.short_help is None and info.callback is not None and info.callback.__doc__:
            info.short_help = " ".join(inspect.cleandoc(info.callback.__doc__).split("\n\n")[0].split())
    for sub in group.registered_groups:
        if sub.typer_instance is not None:
            _summaries(sub.typer_instance)


def _app_for(argv: list[str]) -> typer.Typer:
    """The app with only the command that `argv` names (when it names one exactly): typer
    builds every command it holds on each run, which a look-up at the table should not wait
    for. Help and unknown names get the whole app, so they list and suggest everything."""
    import copy

    def name(c: typer.models.CommandInfo) -> str:
        return c.name or c.callback.__name__.replace("_", "-") if c.callback else ""

    words = [a for a in argv if not a.startswith("-")][:2]
    if not words or any(a in ("--help", "-h") for a in argv[:1]):
        return app
    trimmed = copy.copy(app)
    commands = [c for c in app.registered_commands if name(c) == words[0]]
    groups = [g for g in app.registered_groups if g.name == words[0]]
    if commands:  # with the app's callback: a group, not one command
        trimmed.registered_commands, trimmed.registered_groups = commands, []
        return trimmed
    if not groups or groups[0].typer_instance is None:
        return app
    group = copy.copy(groups[0].typer_instance)
    chosen = [c for c in group.registered_commands if len(words) > 1 and name(c) == words[1]]
    group.registered_commands = chosen or group.registered_commands
    info = copy.copy(groups[0])
    info.typer_instance = group
    trimmed.registered_commands, trimmed.registered_groups = [], [info]
    return trimmed


def _version(asked: bool) -> None:
    if asked:
        from kitgen.packagedata import versions

        _print(versions())
        raise typer.Exit()


@app.callback()
def _group(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", is_eager=True, callback=_version, help="Print kitgen's version and its scenarios'."
        ),
    ] = False,
) -> None:
    """Print-ready campaign kits for the 1919-1920 South Russia hex-map campaign."""


def _notices_shown() -> None:
    """Show kitgen's notices (`kitgen.notices`) as its other notes, each time it makes one."""
    import warnings

    from kitgen.notices import Notice

    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):  # type: ignore[no-untyped-def]
        if issubclass(category, Notice):
            typer.echo(str(message), err=True)  # escaped by Problem.__str__
            return
        shown(message, category, filename, lineno, file, line)

    warnings.showwarning = show
    warnings.simplefilter("always", Notice)


def _collect_less() -> None:
    """kitgen runs for seconds and makes millions of objects, next to none of them cyclic
    garbage: the cycle collector runs less often, and never over what is left at exit (its last
    collection walked every object the run made: a tenth of a kit's time, for nothing)."""
    import atexit
    import gc

    gc.set_threshold(20_000, 20, 50)
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)  # registered first, so called last, after multiprocessing's own


def _exit_cleanly_on_signals() -> None:
    """SIGTERM and SIGHUP end kitgen like Ctrl-C does: temporary files are removed on the way out.
    (Ctrl-C itself is caught by main(), or before it by `_quiet_interrupt`.)"""
    import signal

    def stop(signum: int, frame: object) -> None:
        _STOPPED.append(signum)
        raise SystemExit(128 + signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), stop)


@orders_app.command("form")
def orders_form(
    faction: Annotated[str, typer.Option(help="The faction whose form it is (id or name).")],
    folder: CampaignArg = None,
    turn: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=1, max=999, help="The turn the orders are for; default the turn being played."),
    ] = None,
    paper: Annotated[Paper, typer.Option(help="Paper it prints on.")] = Paper.a4,
    csv: Annotated[bool, typer.Option("--csv", help="A spreadsheet (.csv) of the same rows instead of a PDF.")] = False,
    out: Annotated[Optional[Path], typer.Option(help="The file to write (default orders-FACTION-turn-NN.pdf).")] = None,  # noqa: UP045
) -> None:
    """Write a faction's order form for a turn, pre-filled from the campaign's state: a PDF to fill
    on screen or print, or the same rows as a spreadsheet."""
    from kitgen.engine.basis import playable_basis
    from kitgen.engine.views import faction_id
    from kitgen.outputs import write_out

    campaign = _campaign(_campaign_folder(folder))
    wanted = faction_id(campaign.scenario, faction)
    basis = playable_basis(campaign, turn)  # the turn being played, as its packets show it
    state, number = basis.start, basis.turn
    if csv:
        from kitgen.orders.rows import order_csv

        data = order_csv(campaign, state, wanted, number).encode("utf-8")
    else:
        from kitgen.products.orderform import order_form_pdf

        data = order_form_pdf(campaign, state, wanted, number, paper.value)
    target = out or Path(f"orders-{wanted}-turn-{number:02d}.{'csv' if csv else 'pdf'}")
    write_out(target, data)
    _say(f"wrote {target}")


@orders_app.command("import")
def orders_import(
    filled: Annotated[
        Path,
        typer.Argument(
            help="A filled order form (the PDF, or a .csv of the same columns), or battle report forms and the "
            "roll sheet (their PDF, or the umpire's packet)."
        ),
    ],
    campaign: CampaignOpt = None,
    turn: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(min=1, max=999, help="The turn the orders are for; default the turn being played."),
    ] = None,
    amend: Annotated[
        bool, typer.Option("--amend", help="Change a played turn's orders (every later turn is replayed first).")
    ] = False,
    stale_ok: Annotated[
        bool, typer.Option("--stale-ok", help="Import a form printed from another state of the campaign.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Refuse the form if the rules make any of its orders void.")
    ] = False,
) -> None:
    """Read a filled order form, check every order by the rules and merge the faction's orders into
    the turn's log unit by unit (a unit the form does not mention keeps its order; other orders,
    battles, dice and comments kept as they were); or filled battle report forms and the roll
    sheet, into the turn's battles and rolls."""
    from kitgen.errors import display_path
    from kitgen.record.importer import import_orders
    from kitgen.record.report import import_report
    from kitgen.reports.intake import import_report_pdf

    folder = _campaign_folder(campaign)
    said = import_report_pdf(folder, filled, turn, amend=amend)  # None: no report form in it
    if said is not None:
        _say(*said)
        return
    done = import_orders(folder, filled, turn, amend=amend, stale_ok=stale_ok, strict=strict)
    for warning in done.warnings:
        _say(str(warning), err=True)
    if done.stale:
        _say(f"{display_path(filled)}: warning: {done.stale} (imported with --stale-ok)", err=True)
    _print(import_report(done))


@orders_app.command("scan")
def orders_scan(
    scans: Annotated[
        list[Path],
        typer.Argument(help="Scanned pages: PNG, JPEG or TIFF pictures, or PDFs of scans; any order, any way up."),
    ],
    campaign: CampaignOpt = None,
    accept: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--accept",
            help="Settle a doubt: UNIT:STEP=DIR, UNIT:special=WORD, UNIT:toward=DIR (none for no mark), "
            "or UNIT:path=read (the steps as marked); on a report form HEX:UNIT:LINE=CHOICE or HEX:winner=FACTION, "
            "on the roll sheet roll:N=TOTAL. Give it once for each doubt.",
        ),
    ] = None,
    answers: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            help="A text file of answers, one a line as --accept takes them (the lines the scan printed may be "
            "pasted in, --accept and all); # starts a comment. Read with any --accept given."
        ),
    ] = None,
    review: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(help="Write the pages read, straightened, with what was read drawn over them (a PDF)."),
    ] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Refuse a faction's orders if the rules make any of them void.")
    ] = False,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial", help="Import a form some of whose pages were not scanned (their units keep their orders)."
        ),
    ] = False,
) -> None:
    """Read paper order forms back from scans or photos, and import each faction's orders into the
    turn being played, as `orders import` does; and the umpire's battle report forms and roll sheet
    among them, into its battles and rolls. A page that cannot be read, or a mark in doubt, and
    nothing is imported: each is named, to rescan or settle with --accept."""
    from kitgen.messages import plural
    from kitgen.record.report import import_report
    from kitgen.reports.scans import ReportScans
    from kitgen.scan.intake import scan_orders

    folder = _campaign_folder(campaign)
    given = list(accept or [])
    if answers is not None:
        from kitgen.scan.answers import read_answers

        given = read_answers(answers) + given
    others = ReportScans(folder)
    done = scan_orders(folder, scans, given, review=review, strict=strict, partial=partial, others=others)
    figures = done.figures
    _say(f"read {plural(figures.pages, 'page')}: {plural(figures.marks, 'bubble')} marked, no doubts")
    for imported in done.imported:
        for warning in imported.warnings:
            _say(str(warning), err=True)
        _print(import_report(imported))
    if others.done is not None:
        from kitgen.campaign import load_campaign
        from kitgen.reports.intake import done_words

        _say(*done_words(load_campaign(folder), others.done))
    if review is not None:
        _say(f"wrote {review}")


@orders_app.command("check")
def orders_check(
    scans: Annotated[
        list[Path],
        typer.Argument(help="The kit's scanner check page, filled in pencil, scanned or photographed."),
    ],
) -> None:
    """Say how a scanner or phone reads the kit's scanner check page (Forms, its last page), line by
    line, and whether it reads paper order forms; before the club's first paper orders."""
    from kitgen.errors import KitgenError
    from kitgen.scan.check import check_scans, report

    reads, problems = check_scans(scans)
    for read in reads:
        _say(*report(read))
        problems += read.problems()
    if problems:
        raise KitgenError(problems)
