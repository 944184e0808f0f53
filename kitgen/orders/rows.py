"""The rows of a faction's order form: one per unit, train and ship, with what the player needs
to write its orders (hex, stands, MP, supply, command target); and the names of the form's
fields, shared by the form that writes them and the import that reads them back."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.limits import FIELD_CHARS
from kitgen.rules.movement import movement_row

RowKind = Literal["unit", "train", "ship"]
PARTS = ("path", "carry", "special")
"""What the player writes on a row."""
MORE_PATH = "path2"
"""The field of a path's second line of boxes (a ship's steps after its first line's)."""
CSV_COLUMNS = ("id", "hex", "type", "stands", "mp", "supply", "commander", "target", *PARTS)
"""The columns of an order form as a spreadsheet, in order."""
IDENTITY = ("faction", "turn", "campaign", "state", "logs")
"""The hidden fields that say which form it is."""
PATH_HEXES: dict[RowKind, int] = {"unit": 12, "train": 12, "ship": 16}
"""The hexes a row's path field holds."""
SUPPLY_WORDS = {None: "-", True: "in", False: "OUT"}
UNIT_TICKS = ("retreat", "wreck", "repair", "emplace", "pick up", "resupply")
PARTISAN_TICKS = ("evade", "ambush")
"""II.D: a partisan unit's own special orders."""


@dataclass(frozen=True)
class OrderRow:
    """One row of the form, pre-filled from the state the orders are written against."""

    id: str
    kind: RowKind
    hex: str
    type: str
    stands: str
    """Stands by kind, short: '3 inf 1 art'."""
    mp: int | None
    """A: the unit type's allowance; a train's MP on the track (C.1); a ship's hexes (D.1)."""
    supply: str
    commander: str
    """The commander who rolls for the unit's hex (II.C.3: the highest-ranking there), or 'none'."""
    target: int | None
    """II.C: the highest D10 roll that obeys now; None for trains and ships."""
    aboard: str | None = None
    """D.1: the ship the unit is aboard."""
    label: str = ""
    """What the printed form names the row by: the unit's, train's or ship's name as its counter
    prints it (and the ship it is aboard); the id stays in the fields' names."""
    carriable: tuple[tuple[str, str], ...] = ()
    """A train's or ship's: (id, name) of each unit of its faction in its hex, which it may take
    aboard where it starts (C.1, D.1): a tick box each on the form."""
    specials: tuple[str, ...] = ()
    """The special orders the row may be given (`TICKS`): a tick box each on the form."""
    steps: int | None = None
    """The steps its path offers: as many hexes as the unit can enter this turn (its MP over the
    cheapest a hex costs it; none aboard a ship or immobilised); None: the most a row of its kind
    holds (`PATH_HEXES`)."""

    @property
    def offered(self) -> int:
        """The steps the form prints for the row's path."""
        return PATH_HEXES[self.kind] if self.steps is None else self.steps


TICKS = {
    "retreat": "retreat",
    "wreck": "wreck",
    "repair": "repair",
    "emplace": "emplace",
    "pick up": "pickup",
    "resupply": "resupply",
    "evade": "evade",
    "ambush": "ambush",
    "land": "land",
}
"""Each special order the form offers a tick box for, by its word, and the word its field is named by."""


def tick_name(row_id: str, part: str, what: str) -> str:
    """The AcroForm check box of one tick of a row: `o-w_markov_1-special-retreat` (a special
    order's word, `TICKS`), `o-r_train_1-carry-r_13th_army` (a unit the carrier takes)."""
    return f"o-{row_id}-{part}-{what}"


def field_name(row_id: str, part: str) -> str:
    """The AcroForm field of one part of a row: `o-w_markov_1-path` (no dots: a dot in a PDF
    field name makes a hierarchy)."""
    return f"o-{row_id}-{part}"


def identity_name(faction: str, what: str) -> str:
    """A hidden identity field: `id-reds-turn` (the faction in the name, so that the forms of
    several factions can share one PDF)."""
    return f"id-{faction}-{what}"


def campaign_key(campaign: Campaign) -> str:
    """A short hash of what makes the campaign: its scenario, seed and set-up."""
    made = json.dumps([campaign.scenario.meta.id, campaign.meta.seed, campaign.setup.model_dump(mode="json")])
    return hashlib.sha256(made.encode("utf-8")).hexdigest()[:12]


def state_key(state: CampaignState) -> str:
    """A short hash of the state the orders are written against (worked out once a state: the
    pages of a faction's form, printed or scanned, all ask)."""
    kept = _STATE_KEYS.get(id(state))
    if kept is not None and kept[0] is state:
        return kept[1]
    made = json.dumps(state.to_json(), sort_keys=True, default=str)
    key = hashlib.sha256(made.encode("utf-8")).hexdigest()[:12]
    _STATE_KEYS[id(state)] = (state, key)
    if len(_STATE_KEYS) > 64:
        _STATE_KEYS.pop(next(iter(_STATE_KEYS)))
    return key


_STATE_KEYS: dict[int, tuple[CampaignState, str]] = {}
"""Each state's key by its identity (the state held, so that its id is not reused meanwhile)."""


def identity(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> dict[str, str]:
    return {
        "faction": faction,
        "turn": str(turn),
        "campaign": campaign_key(campaign),
        "state": state_key(state),
        "logs": logs_key(campaign, turn),
    }


def logs_key(campaign: Campaign, turn: int) -> str:
    """`1:3fa2c01b 2:...`: a short hash of each log before `turn` as read (its comments aside), so
    that a form printed before a log changed can name the turns changed since."""
    from kitgen.engine.replay import turn_logs

    return " ".join(f"{n}:{_log_digest(path)}" for n, path in turn_logs(campaign) if n < turn)


def _log_digest(path: Path) -> str:
    from kitgen.engine.turn import read_log
    from kitgen.errors import KitgenError

    try:
        info = path.stat()
    except OSError:
        return "unreadable"
    seen = (str(path), info.st_size, info.st_mtime_ns, info.st_ino)
    if seen not in _DIGESTS:
        try:
            log, _ = read_log(path)
        except KitgenError:
            _DIGESTS[seen] = "unreadable"
        else:
            _DIGESTS[seen] = hashlib.sha256(log.model_dump_json().encode("utf-8")).hexdigest()[:8]
    return _DIGESTS[seen]


_DIGESTS: dict[tuple[str, int, int, int], str] = {}
"""Each log's digest by its file's name, size, time and inode: the forms of a week's packets read each log once."""


def changed_turns(printed: str, now: str) -> list[int]:
    """The turns whose logs differ between two `logs_key`s (one missing from either counts)."""

    def turns(key: str) -> dict[int, str]:
        found = {}
        for part in key.split():
            n, _, digest = part.partition(":")
            if n.isascii() and n.isdigit() and len(n) <= 4:  # a form's field says it: `²` is no turn
                found[int(n)] = digest
        return found

    a, b = turns(printed), turns(now)
    return sorted(n for n in set(a) | set(b) if a.get(n) != b.get(n))


def command_targets(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> dict[str, tuple[str, int]]:
    """II.C, as the command phase judges it: for each of the faction's units, who rolls for it if
    it is ordered (a commander's name, or 'none': the unit alone) and the highest roll that obeys.
    `state` is the one the orders are written against: after the turn before, or turn `turn`'s own."""
    from kitgen.engine.ahead import before_orders
    from kitgen.engine.phases.command import command_groups

    own = state if state.turn == turn else before_orders(campaign, state, turn)
    ordered = [(u.faction, u.id) for u in own.units if u.faction == faction]
    found: dict[str, tuple[str, int]] = {}
    for g in command_groups(campaign, campaign.board, own, ordered):
        for unit_id in g.units:
            found[unit_id] = (g.key if g.rating is not None else "none", g.target)
    return found


def stands_text(campaign: Campaign, stands: dict[str, int]) -> str:
    """'3 inf 1 art': each kind's count and its abbreviation (as every table of the kit writes it)."""
    from kitgen.render.formstyle import stand_abbreviation

    s = campaign.scenario
    return " ".join(f"{n} {stand_abbreviation(s, kind)}" for kind, n in sorted(stands.items()) if n)


def order_rows(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> list[OrderRow]:
    """The form's rows: the faction's units (on the map, then aboard ships), trains and ships."""
    s = campaign.scenario
    rows: list[OrderRow] = []
    mine = [u for u in state.units if u.faction == faction]
    targets = command_targets(campaign, state, faction, turn)
    from kitgen.engine.piecenames import piece_names

    names = piece_names(state)
    here: dict[str, list[tuple[str, str]]] = {}
    for u in sorted(mine, key=lambda u: u.name):
        if u.aboard is None:
            here.setdefault(u.hex, []).append((u.id, u.name))
    for u in sorted(mine, key=lambda u: (u.aboard is not None, u.id)):
        who, target = targets.get(u.id, ("none", 0))
        specials = UNIT_TICKS + (PARTISAN_TICKS if "partisan" in u.flags else ())
        steps = 0 if u.aboard is not None or u.immobilised else unit_steps(campaign, state, u.faction, u.type)
        rows.append(
            OrderRow(
                id=u.id,
                kind="unit",
                hex=u.hex,
                type=u.type,
                stands=stands_text(campaign, u.stands),
                mp=movement_row(s.movement, u.type).mp,
                supply=SUPPLY_WORDS[u.in_supply],
                commander=who,
                target=target,
                aboard=u.aboard,
                label=u.name + (f" (aboard the {names.get(u.aboard, u.aboard)})" if u.aboard else ""),
                specials=specials,
                steps=steps,
            )
        )
    train_mp = movement_row(s.movement, s.transport.train.unit_type).mp
    for t in sorted((t for t in state.trains if t["faction"] == faction), key=lambda t: str(t["id"])):
        kind = "armoured train" if t.get("armoured") else "train"
        train = str(t["id"])
        rows.append(
            OrderRow(
                train,
                "train",
                str(t["hex"]),
                kind,
                "",
                train_mp,
                "",
                "",
                None,
                label=names[train],
                carriable=tuple(here.get(str(t["hex"]), ())),
            )
        )
    for x in sorted((x for x in state.ships if x["faction"] == faction), key=lambda x: str(x["id"])):
        rows.append(
            OrderRow(
                str(x["id"]),
                "ship",
                str(x["hex"]),
                "ship",
                "",
                s.transport.ship.move_hexes,
                "",
                "",
                None,
                label=names[str(x["id"])],
                carriable=tuple(here.get(str(x["hex"]), ())),
                specials=("land",),
            )
        )
    return rows


def unit_steps(campaign: Campaign, state: CampaignState, faction: str, type_id: str) -> int:
    """The most hexes a unit of `type_id` can enter this turn (A): its MP with the cards in force
    and the most the turn's own card could add, over the least any hex costs it (a road's, or its
    cheapest terrain's), at most `PATH_HEXES`."""
    from kitgen.engine.phases.land import mp_modifier
    from kitgen.rules.paths import allowance

    rules = campaign.scenario.movement
    row = movement_row(rules, type_id)
    costs = [c for c in (row.cost or {}).values() if isinstance(c, int | float) and c > 0]
    cheapest = min([rules.road_cost, *costs])
    mp = allowance(rules, type_id, mp_modifier(state, faction, type_id) + _card_mp(campaign, faction, type_id))
    return min(PATH_HEXES["unit"], int(mp // cheapest))


def _card_mp(campaign: Campaign, faction: str, type_id: str) -> int:
    """The most MP an event card drawn this turn could add to the unit type (the turn's card is
    drawn after the orders are written: its steps must be on the form already)."""
    most = 0
    for card in campaign.scenario.cards.events:
        for e in card.effects:
            if e.kind == "movement" and e.faction in (faction, "all") and (not e.unit_types or type_id in e.unit_types):
                most = max(most, e.modifier or 0)
    return most


def order_csv(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> str:
    """The form's rows as a spreadsheet: the printed columns filled, path, carry and special empty;
    every cell a spreadsheet would run as a formula neutralised (`neutralise_cell`). Its last row
    says which form it is, as a PDF's hidden fields do (`identity_cell`)."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in order_rows(campaign, state, faction, turn):
        target = "" if row.target is None else str(row.target)
        mp = "" if row.mp is None else str(row.mp)
        cells = [row.id, row.hex, row.type, row.stands, mp, row.supply, row.commander, target, "", "", ""]
        writer.writerow([neutralise_cell(c) for c in cells])
    said = identity_cell(identity(campaign, state, faction, turn))
    writer.writerow([f"{IDENTITY_ROW} {said}", IDENTITY_NOTE, *[""] * (len(CSV_COLUMNS) - 2)])
    return out.getvalue()


IDENTITY_ROW = "#form"
"""How the id cell of a spreadsheet's identity row starts, the identity after it (in the one
column every spreadsheet of orders keeps); a row whose id starts with # is no unit's (a
player's note, or this)."""
IDENTITY_NOTE = "# keep this row: it says which campaign, turn and state the orders are for"


def identity_cell(ids: dict[str, str]) -> str:
    """A form's identity as one cell a spreadsheet keeps as text whatever its locale:
    `faction=reds turn=7 campaign=3fa2… state=9b1c… logs=1:aa/2:bb` (words and '=' are never read
    as a number, a date or a formula)."""
    return " ".join(f"{what}={ids[what].replace(' ', '/')}" for what in IDENTITY if ids.get(what))


def read_identity_cell(text: str) -> dict[str, str] | None:
    """`identity_cell` read back; None if it is not one."""
    ids: dict[str, str] = {}
    for word in text.split():
        what, equals, value = word.partition("=")
        if not equals or what not in IDENTITY or what in ids or not value or not _IDENTITY_VALUE.fullmatch(value):
            return None
        ids[what] = value.replace("/", " ")
    if not {"faction", "turn", "campaign", "state"} <= ids.keys():
        return None
    return {"logs": "", **ids}  # no logs before the first turn: none written


_IDENTITY_VALUE = re.compile(rf"[a-z0-9_:/]{{1,{FIELD_CHARS}}}")
"""A value of the identity cell, bounded as a PDF's field is (`limits.FIELD_CHARS`)."""


_FORMULA = re.compile("'*[=+\\-@\t\r]")
"""A cell a spreadsheet runs as a formula (OWASP: CSV injection), after any quotes already
put before it."""
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def neutralise_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: one starting with =, +, -, @, tab or CR gets a
    leading `'` (a plain number such as -1, or a lone - or + meaning none, stays as it is).
    `unneutralise_cell` undoes it."""
    if _FORMULA.match(text) and not _NUMBER.fullmatch(text) and text not in ("-", "+"):
        return "'" + text
    return text


def unneutralise_cell(text: str) -> str:
    """A cell read back from a spreadsheet as it was before `neutralise_cell`: a leading `'`
    dropped where it precedes =, +, -, @, tab or CR (or more quotes and then one of them)."""
    return text[1:] if text.startswith("'") and _FORMULA.match(text, 1) else text
