"""The clean map drawn once and kept on disk, under a hash of everything that draws it.

The week's packets lay the clean map under their map pages; drawing it is most of their cost,
and it changes only with the scenario, the map's layouts or kitgen itself. A damaged or
unreadable entry is drawn again, and a cache that cannot be written only costs time."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from kitgen.render.style import layouts_dir

if TYPE_CHECKING:
    from kitgen.model.scenario import Scenario
    from kitgen.render.mapart import MapArt
    from kitgen.render.recorded import Picture
    from kitgen.render.style import MapStyle

T = TypeVar("T")

LIMIT = 64 << 20
"""A drawn map of the bundled scenario is about 0.3 MB."""


MapText = Literal["all", "no names", "none"]
"""What text a clean map carries: all of it; all but the towns', places' and rivers' names (a
packet's sectors draw those round their counters); none (a packet's overview, too small to read)."""


def map_key(scenario: Scenario, text: MapText = "all") -> str:
    """A hash of the scenario, the map's layouts, the PDF library, kitgen's own code and `text`."""
    import reportlab

    from kitgen.scenariocache import code_digest

    digest = hashlib.sha256(f"kitgen-mapart 3 reportlab {reportlab.Version} {text}\n".encode())
    digest.update(code_digest().encode())
    digest.update((layouts_dir() / "map.yaml").read_bytes())
    digest.update(scenario.model_dump_json().encode())
    return digest.hexdigest()[:32]


def clean_map_pdf(art: MapArt, scenario: Scenario, text: MapText = "all") -> bytes:
    """The clean map alone, one page the map's size, with `text`: from the cache, else drawn and kept."""
    return kept_map_pdf(scenario, map_key(scenario, text), lambda: draw_map_pdf(art, scenario, text))


def kept_map_pdf(scenario: Scenario, key: str, draw: Callable[[], bytes]) -> bytes:
    """A drawing of the scenario's map from the cache under `key` (a hash of everything that
    draws it), else `draw`n and kept."""
    from kitgen.errors import KitgenError, UsageError
    from kitgen.inputs import is_file, read_file
    from kitgen.scenariocache import KEEP, cache_dir, prune

    path = cache_dir() / f"mapart-{scenario.meta.id}-{key}.pdf"
    if is_file(path):
        with contextlib.suppress(KitgenError):
            data = read_file(path, limit=LIMIT)
            if data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"):
                return data
    data = draw()
    from kitgen.outputs import write_atomic

    with contextlib.suppress(OSError, UsageError):
        write_atomic(path, data)
        prune(f"mapart-{scenario.meta.id}-*.pdf", KEEP)
    return data


def place_labels_once(art: MapArt, scenario: Scenario) -> None:
    """The map's label places (`MapArt.label_places`) from the cache, else worked out and kept:
    placing every town's and place's name round the others is the slowest part of a packet's
    map that the clean map does not already hold."""
    import shapely

    from kitgen.render.mapart import LabelPlaces

    digest = hashlib.sha256(map_key(scenario, "all").encode())
    digest.update(f"shapely {shapely.__version__} GEOS {shapely.geos_version_string}".encode())  # placement is GEOS's
    digest.update(art.style.model_dump_json().encode())
    digest.update(repr((art.width, art.height, len(art.centres))).encode())
    places = kept_value("maplabels", scenario, digest, LabelPlaces, art.label_places)
    if places is not None:  # worked out here, or an earlier run's
        art.recall(places)


def kept_value(
    kind: str,
    scenario: Scenario,
    digest: Any,
    made: type[T],
    make: Callable[[], T | None],
    whole: Callable[[T], bool] = lambda _: True,
) -> T | None:
    """A value of the scenario's map kept under `digest` (a hash of everything that makes it)
    when the cache holds one of type `made` and `whole`; else `make`d and kept (None, nothing to keep)."""
    from kitgen.scenariocache import KEEP, cache_dir, prune, read_private, write_private

    path = cache_dir() / f"{kind}-{scenario.meta.id}-{digest.hexdigest()[:32]}.pickle"
    found = read_private(path)
    if isinstance(found, made) and whole(found):
        return found
    value = make()
    if value is not None:
        write_private(path, value)
        prune(f"{kind}-{scenario.meta.id}-*.pickle", KEEP)
    return value


def draw_map_pdf(art: MapArt, scenario: Scenario, text: MapText = "all") -> bytes:
    import io

    from kitgen.render.pages import new_canvas

    buffer = io.BytesIO()
    c = new_canvas(buffer, (art.width, art.height), scenario, "map")
    art.draw(c, names=text == "all", words=text != "none")
    c.showPage()
    c.save()
    return buffer.getvalue()


def map_picture(scenario: Scenario, style: MapStyle, art: Callable[[], MapArt | None]) -> Picture | None:
    """The map as a picture (`MapArt.draw_art`) in `style`, from the cache, else drawn from
    `art` (made only then: a cover needs none of its look-up tables) and kept; None if there
    is no map to draw."""
    from kitgen.render.recorded import Picture

    digest = hashlib.sha256(map_key(scenario, "none").encode())
    digest.update(f"picture {style.model_dump_json()}".encode())

    def draw() -> Picture | None:
        drawn = art()
        return None if drawn is None else drawn.picture

    return kept_value("mappicture", scenario, digest, Picture, draw, lambda kept: isinstance(kept.code, str))
