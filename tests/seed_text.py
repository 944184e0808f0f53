"""The seed's tables read straight from the scanned rule text, independently of data/.

The tests compare the data files with what this module reads, so a typo in the YAML fails.
Spellings are mapped with the corrections of RULES-NOTES, written out here again.
"""

from __future__ import annotations

from pathlib import Path

SEED = Path(__file__).parent / "seed" / "campaign-rules.txt"
SHARED_SEED = Path(__file__).resolve().parents[2] / "shared" / "seed" / "campaign-rules.txt"

# RULES-NOTES, "Town names, seed spelling -> display spelling".
TOWN_SPELLING = {
    "Zaporozbe": "Zaporozhe",
    "Dzhenkoy": "Dzhankoy",
    "Paviograd": "Pavlograd",
    "Krovoi Rog": "Krivoi Rog",
    "Mithaylovka": "Mikhailovka",
    "Belgorad": "Belgorod",
    "Velikokniazh eskaia": "Velikokniazheskaia",
    "Dneprodzerzhnsk": "Dneprodzerzhinsk",
    "Novorossaiysk": "Novorossiisk",
    "Elitsa": "Elista",
    "Sochi-Georgian City": "Sochi",
    "Shakty": "Shakhty",
}
# RULES-NOTES, "Commanders, seed spelling -> display spelling".
COMMANDER_SPELLING = {
    "Wrangl": "Wrangel",
    "Sidonn": "Sidorin",
    "MaiMaevsky": "Mai-Maevsky",
    "Marnontov": "Mamontov",
    "Babev": "Babiev",
    "Usefovich": "Yuzefovich",
    "Kanzanovich": "Kazanovich",
    "Petylura": "Petliura",
    "Babochan": "Bolbochan",
    "Zholba": "Zhloba",
    "Ghai": "Gai",
    "Epiganykovtyukh": "Epifan Kovtyukh",
    "Parkomenko": "Parkhomenko",
    "Lazerevich": "Lazarevich",
    "Schuss": "Shchus",
    "Kurilenkco": "Kurilenko",
}
WORDS = {"One": 1, "Two": 2, "Three": 3, "Four": 4, "Five": 5, "Six": 6, "Seven": 7}


def lines() -> list[str]:
    return SEED.read_text(encoding="utf-8").split("\n")


def _block(header: str) -> list[list[str]]:
    text = lines()
    start = text.index(header) + 1
    rows = []
    for line in text[start:]:
        if not line.strip():
            break
        rows.append(line.split("\t"))
    return rows


def movement_table() -> dict[str, list[str]]:
    """Section A: unit type -> [MP, Open, Forest, Mountain, Marsh, Crossable River], as printed."""
    rows = _block("Unit Type\tMP\tOpen\tForest\tMountain\tMarsh\tCrossable River")
    return {r[0]: r[1:] for r in rows}


def vp_table() -> list[tuple[str, str, str, str]]:
    """CITY/TOWN VP'S: (seed name, Red, White, Ukrn) in reading order, left column then right."""
    left, right = [], []
    for r in _block("Name\tRed\tWhite\tUkrn\tName\tRed\tWhite\tUkrn"):
        left.append(tuple(r[0:4]))
        if r[4] != "-":
            right.append(tuple(r[4:8]))
    return left + right


def commander_table() -> list[tuple[str, str, int, bool]]:
    """The Commanders: (faction, seed name, dependability, charismatic)."""
    out = []
    makhnovists = False
    for r in _block("Reds\t-\t-\tWhites\t-\t-\tUkrainians"):
        r = r + ["-"] * (9 - len(r))
        for faction, (name, dep, c) in (("reds", r[0:3]), ("whites", r[3:6]), ("ukrainians", r[6:9])):
            if name == "Maknovists":
                makhnovists = True
                continue
            if name == "-":
                continue
            if faction == "ukrainians" and makhnovists:
                faction = "makhnovists"
            out.append((faction, name, int(dep), c == "C"))
    return out


def reinforcement_chart() -> dict[str, list[int]]:
    """II.E.2: faction -> draws for D6 faces 1-6, from lines like '1 - Three draws\\tOne draw\\tOne draw'."""
    text = lines()
    start = text.index("REDS\tWHITES\tUKRAINIANS") + 1
    chart: dict[str, list[int]] = {"reds": [], "whites": [], "ukrainians": []}
    for face, line in enumerate(text[start : start + 6], start=1):
        prefix, cells = line.split(" - ", 1)
        assert int(prefix) == face
        for faction, cell in zip(chart, cells.split("\t"), strict=True):
            chart[faction].append(WORDS[cell.split()[0]])
    return chart
