"""A scanned page found: its corner markers (ArUco), which also say which way up it lies, and its
QR code naming the form; from them the page as printed, straightened to its own geometry at a
fixed resolution, whatever the scanner's or phone's angle, scale and perspective."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kitgen.orders.sheetplan import FormPage, PagePlan

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SCALE = 150 / 72
"""Pixels a point of the straightened page: 150 dpi, as fine as any bubble needs."""
MOST_ERROR_MM = 1.0
"""The markers' corners, mapped back, may miss the printed ones by this much at most: more and the
page is folded or curled, and its bubbles would not be where the plan says."""


@dataclass(frozen=True)
class Found:
    code: FormPage | None
    """What the QR code says, or None if it could not be read."""
    qr_text: str | None
    """The QR code's text when it is no order form's (another tool's, or a report form's)."""
    markers: dict[int, npt.NDArray[np.float64]]
    """Each marker found: its four corners in the picture (top left, top right, bottom right, bottom left)."""
    crowded: bool = False
    """Two markers of one corner, or two kitgen codes: more than one page in the picture."""


def find(image: npt.NDArray[np.uint8]) -> Found:
    """The markers and QR code in a page's picture. The code is read from the page straightened
    by its markers at four times the scan's fineness (a small code in a blurred 150 dpi scan
    reads so), else from the picture as it is. A code of kitgen's that is no order form's (a
    report form's, the scanner check's) is left in `qr_text`."""
    markers, twice = find_markers(image)
    texts: list[str] = []
    if len(markers) >= 3:
        for paper in _papers(markers):
            texts += _codes(_qr_patch(image, paper, markers))
    if not any(t.startswith("KG") for t in texts):  # a kitgen code of any form, read where it stands
        texts += _codes(image)
    codes = {c for c in map(FormPage.parse, texts) if c is not None}
    if len(codes) < 2 and twice:  # a second page's code, beside the one straightened
        codes |= {c for c in map(FormPage.parse, _codes(image)) if c is not None}
    code = min(codes, key=lambda c: (c.faction, c.page)) if codes else None
    return Found(code, None if code or not texts else texts[0], markers, twice or len(codes) > 1)


def find_markers(image: npt.NDArray[np.uint8]) -> tuple[dict[int, npt.NDArray[np.float64]], bool]:
    """Each corner marker found: its four corners in the picture; and whether a corner's marker
    was found twice (two pages in one picture)."""
    corners, ids, _ = _detector().detectMarkers(image)  # type: ignore[attr-defined]
    markers: dict[int, npt.NDArray[np.float64]] = {}
    twice = False
    if ids is not None:
        for quad, number in zip(corners, ids.reshape(-1).tolist(), strict=True):
            if 0 <= number <= 3:
                twice |= number in markers
                markers.setdefault(number, quad.reshape(4, 2).astype("float64"))
    return markers, twice


def _codes(image: npt.NDArray[np.uint8]) -> list[str]:
    import zxingcpp

    return [
        r.text
        for r in zxingcpp.read_barcodes(
            image, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode), try_rotate=True
        )
    ]


def _papers(markers: dict[int, npt.NDArray[np.float64]]) -> list[str]:
    """The papers the markers' spacing may be, the likeliest first."""
    import numpy as np

    from kitgen.orders.sheetplan import page_plan
    from kitgen.render.pages import PAPER

    def spacing(corners: dict[int, npt.NDArray[np.float64]]) -> float:
        centres = {k: q.mean(axis=0) for k, q in corners.items()}
        ks = sorted(centres)
        a, b, c = (centres[k] for k in ks[:3])
        return float(np.linalg.norm(a - b)) / max(float(np.linalg.norm(b - c)), 1e-6)

    seen = spacing(markers)
    fits = []
    for paper in PAPER:
        plan = page_plan([], paper)
        printed = {k: page_corners(plan, k) for k in markers}
        fits.append((abs(spacing(printed) - seen), paper))
    return [paper for _, paper in sorted(fits)]


def _qr_patch(
    image: npt.NDArray[np.uint8], paper: str, markers: dict[int, npt.NDArray[np.float64]]
) -> npt.NDArray[np.uint8]:
    """The QR code's corner of the page, straightened at 4 pixels a point."""
    from kitgen.scan.images import opencv

    cv2 = opencv()
    import numpy as np

    from kitgen.orders.sheetplan import page_plan

    plan = page_plan([], paper)
    printed = np.concatenate([page_corners(plan, k) for k in sorted(markers)])
    seen = np.concatenate([markers[k] for k in sorted(markers)])
    matrix, _ = cv2.findHomography(printed, seen, 0)
    if matrix is None:
        return np.full((8, 8), 255, dtype=np.uint8)
    pad = 4.0
    x0, top = plan.qr[0] - pad, plan.size[1] - plan.qr[1] - plan.layout.qr - pad
    side = plan.layout.qr + 2 * pad
    scale = 4.0
    shift = np.array([[1 / scale, 0, x0], [0, 1 / scale, top], [0, 0, 1]])
    size = (round(side * scale), round(side * scale))
    patch = cv2.warpPerspective(
        image, matrix @ shift, size, flags=cv2.INTER_CUBIC | cv2.WARP_INVERSE_MAP, borderValue=255
    )
    return np.ascontiguousarray(patch)


_DETECTOR: list[object] = []


def _detector() -> object:
    from kitgen.scan.images import opencv

    cv2 = opencv()

    if not _DETECTOR:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        # each cell read from an 8-pixel square, its outer fifth left out: a blurred, blocky 150 dpi
        # JPEG's cells of 7 pixels read whole (at OpenCV's 4 and 0.13, 1 page in 2 lost a marker)
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.2
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        _DETECTOR.append(cv2.aruco.ArucoDetector(dictionary, params))
    return _DETECTOR[0]


def page_corners(plan: PagePlan, number: int) -> npt.NDArray[np.float64]:
    """A marker's printed corners in points (y down from the page's top), in OpenCV's order:
    top left, top right, bottom right, bottom left."""
    import numpy as np

    m = plan.layout.marker
    x, y = next((x, y) for k, x, y in plan.markers if k == number)
    top = plan.size[1] - (y + m)
    return np.array([(x, top), (x + m, top), (x + m, top + m), (x, top + m)], dtype="float64")


def straighten(
    image: npt.NDArray[np.uint8], plan: PagePlan, found: Found
) -> tuple[npt.NDArray[np.uint8], float] | None:
    """The page as printed at `SCALE` pixels a point, y down, and how far the markers' corners miss
    the plan (mm); None with fewer than three markers."""
    from kitgen.scan.images import opencv

    cv2 = opencv()
    import numpy as np

    if len(found.markers) < 3:
        return None
    printed = np.concatenate([page_corners(plan, k) for k in sorted(found.markers)]) * SCALE
    seen = np.concatenate([found.markers[k] for k in sorted(found.markers)])
    matrix, _ = cv2.findHomography(printed, seen, 0)
    if matrix is None:
        return None
    back = cv2.perspectiveTransform(printed.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    pixels_per_mm = float(np.median(np.linalg.norm(np.diff(seen[:2], axis=0)))) / (plan.layout.marker / 72 * 25.4)
    error = float(np.max(np.linalg.norm(back - seen, axis=1))) / max(pixels_per_mm, 1e-6)
    size = (round(plan.size[0] * SCALE), round(plan.size[1] * SCALE))
    flat = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=255)
    return flat, error
