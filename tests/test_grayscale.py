"""Issue 25, item 6: "Grayscale. The Red and White VP boxes print as the same grey": each
faction's VP cell has its own pattern, so that a grayscale print still says whose it is."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from kitgen.loader import load_scenario_map
from kitgen.render.mapart import VP_PATTERNS, MapArt
from kitgen.render.style import map_style

DPI = 600


def _cells_in_grey(art: MapArt, factions: list[str]) -> list[np.ndarray]:
    """One VP cell for each faction, drawn by the map's own code and printed in grey."""
    box = art.style.fonts.vp + 2.4 * art.hex_pt / 72
    width = box * len(factions)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(width + 20, box + 20))
    art.vp_boxes(c, 10 + width / 2, 10, [(f, 2) for f in factions])
    c.showPage()
    c.save()
    png = subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-gray", "-png", "-"], input=buf.getvalue(), capture_output=True, check=True
    )
    grey = np.asarray(Image.open(io.BytesIO(png.stdout)).convert("L")).astype(float)
    k = DPI / 72
    top = grey.shape[0] - int((10 + box) * k)
    cells = []
    for n in range(len(factions)):
        x0 = int((10 + n * box) * k)
        cells.append(grey[top + 4 : top + int(box * k) - 4, x0 + 4 : x0 + int(box * k) - 4])
    return cells


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils renders the page")
@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
def test_issue25_each_factions_vp_cell_has_its_own_pattern_in_grey(name: str) -> None:
    """Issue 25, item 6: "each faction has its own pattern or mark on every VP box": printed in
    grey, the VP cells of the scenario's factions differ pairwise in their ground (a tinted
    cell is pale inside its border) or in their texture (a hatched cell is striped), whatever
    greys their colours make; the patterns follow the factions' order."""
    scenario, board = load_scenario_map(name)
    art = MapArt(board, scenario, map_style())
    factions = [f.id for f in scenario.meta.factions if f.scores_vp]
    assert len(factions) >= 2
    cells = _cells_in_grey(art, factions)
    ground = [float(np.median(cell)) for cell in cells]
    stripes = [float(np.abs(np.diff(cell, axis=1)).mean()) for cell in cells]
    for a in range(len(cells)):
        for b in range(a + 1, len(cells)):
            if VP_PATTERNS[a % len(VP_PATTERNS)] == VP_PATTERNS[b % len(VP_PATTERNS)]:
                continue  # a fourth faction takes the first pattern again
            assert abs(ground[a] - ground[b]) > 60 or abs(stripes[a] - stripes[b]) > 8, (name, a, b, ground, stripes)
