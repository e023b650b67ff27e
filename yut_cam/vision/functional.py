"""Pure image functions of the throw reader: arrays in, arrays (or numbers) out.

Nothing here reads files, keeps state or knows about calibration files; the
calibration and the reader call these with the parameters they learned.

Conventions: images are ``uint8`` BGR (H, W, 3) unless said otherwise; a stick
rectangle is :class:`Rect` — centre, length along its long axis, width across it and
the angle of the long axis in degrees (image coordinates, x right, y down).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from yut_cam.vision.matfind import MatNotFound as MatNotFound
from yut_cam.vision.matfind import find_mat as find_mat
from yut_cam.vision.matfind import locate_mat as locate_mat
from yut_cam.vision.matfind import tapped_outline as tapped_outline
from yut_cam.vision.stickfit import Rect as Rect
from yut_cam.vision.stickfit import centre_across as centre_across
from yut_cam.vision.stickfit import depth_inside as depth_inside
from yut_cam.vision.stickfit import fit_rectangles as fit_rectangles
from yut_cam.vision.stickfit import grow_along as grow_along
from yut_cam.vision.stickfit import inner as inner
from yut_cam.vision.stickfit import rect_corners as rect_corners
from yut_cam.vision.stickfit import rect_from_min_area as rect_from_min_area
from yut_cam.vision.stickfit import rect_mask as rect_mask
from yut_cam.vision.stickfit import split_by_colour as split_by_colour
from yut_cam.vision.stickfit import split_row as split_row
from yut_cam.vision.stickfit import stacking as stacking
from yut_cam.vision.stickfit import to_full_length as to_full_length

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]
Polygon = list[tuple[float, float]]

_EPS = 1.0


def polygon_mask(shape: tuple[int, int], polygon: Polygon, scale: float = 1.0) -> U8:
    """A 0/255 mask of ``shape`` (H, W) with ``polygon`` (scaled by ``scale``) filled."""
    mask = np.zeros(shape, np.uint8)
    pts = np.round(np.asarray(polygon, np.float64) * scale * 16).astype(np.int32)
    cv2.fillPoly(mask, [pts.reshape(-1, 1, 2)], 255, lineType=cv2.LINE_8, shift=4)
    return mask


def resize_to(image: U8, size: tuple[int, int]) -> U8:
    """``image`` resized to ``size`` = (width, height), averaging when shrinking."""
    if (image.shape[1], image.shape[0]) == size:
        return image
    out: U8 = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    return out


def smooth(image: U8, sigma: float) -> U8:
    """Gaussian smoothing (noise and mat weave) of ``image``."""
    if sigma <= 0:
        return image
    out: U8 = np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8)
    return out


def gain_map(image: U8, background: U8, valid: U8 | None = None, cells: int = 8) -> F32:
    """Per-pixel, per-channel light gain from ``background`` to ``image``.

    The median ratio ``image / background`` is taken in a coarse grid of ``cells``
    columns (rows in proportion) over ``valid`` pixels, so the few pixels covered by
    sticks do not move it; the grid is then smoothed and enlarged. Dividing a new image
    by this map brings it back to the light of the calibration (a global or slowly
    varying change of brightness or colour temperature).
    """
    h, w = image.shape[:2]
    # the gain varies slowly: measure it on a quarter-size picture
    sw, sh = max(cells, w // 4), max(2, h // 4)
    img = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32) + _EPS
    bg = cv2.resize(background, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32) + _EPS
    if valid is not None:
        valid = np.asarray(cv2.resize(valid, (sw, sh), interpolation=cv2.INTER_NEAREST), np.uint8)
    ratio = img / bg
    rows = max(1, round(cells * h / w))
    grid = np.ones((rows, cells, 3), np.float32)
    total: npt.NDArray[np.float32] | None = None  # the whole picture's: for a block with too few pixels
    ys = np.linspace(0, sh, rows + 1).astype(int)
    xs = np.linspace(0, sw, cells + 1).astype(int)
    even = valid is None and sw % cells == 0  # every block of a band the same shape: one median a band
    for i in range(rows):
        if even:
            band = ratio[ys[i]:ys[i + 1]].reshape(ys[i + 1] - ys[i], cells, sw // cells, 3)
            if band.shape[0] * band.shape[2] > 16:
                grid[i] = np.median(band.transpose(1, 0, 2, 3).reshape(cells, -1, 3), axis=1)
                continue
        for j in range(cells):
            block = ratio[ys[i]:ys[i + 1], xs[j]:xs[j + 1]]
            if valid is not None:
                ok = valid[ys[i]:ys[i + 1], xs[j]:xs[j + 1]] > 0
                vals = block[ok]
            else:
                vals = block.reshape(-1, 3)
            if len(vals) > 16:
                grid[i, j] = np.median(vals, axis=0)
            else:
                if total is None:
                    total = np.median(ratio.reshape(-1, 3), axis=0)
                grid[i, j] = total
    # a cell mostly covered by sticks would have an odd median: pull outliers to the
    # median of their neighbours.
    med = cv2.medianBlur(np.ascontiguousarray(grid), 3) if min(rows, cells) >= 3 else grid
    off = np.abs(np.log(grid) - np.log(med)).max(axis=2) > 0.15
    grid[off] = med[off]
    out: F32 = np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    return out


def difference_maps(image: U8, expected: F32) -> tuple[F32, F32]:
    """Brightness and colour difference of ``image`` from the ``expected`` background.

    Returns ``(d_lum, d_chroma)``: ``d_lum`` is the log ratio of brightness (negative
    where darker: shadows, dark paint), ``d_chroma`` the distance of chromaticities
    (colour with brightness divided out, in percent), which a shadow barely changes.
    Chromaticity is noisy where the background is dark (a few grey levels swing it), so
    ``d_chroma`` is scaled down where the expected background is darker than mid-grey.
    """
    img = image.astype(np.float32)
    img += _EPS
    exp = expected.astype(np.float32)
    exp += _EPS
    ones = np.ones((1, 3), np.float32)
    s_img = cv2.transform(img, ones)
    s_exp = cv2.transform(exp, ones)
    d_lum: F32 = np.asarray(cv2.log(np.asarray(s_img / s_exp, np.float32)), np.float32)
    # channel by channel: numpy broadcasting over a last axis of 3 is several times slower (and
    # cv2.split of a float picture slowed 10-fold with some placements of its buffers)
    d2 = np.zeros_like(s_img)
    for i in range(3):
        c = img[..., i] / s_img
        c -= exp[..., i] / s_exp
        d2 += c * c
    scale = np.minimum(np.maximum(s_img, s_exp) * (100.0 / 384.0), 100.0)
    d_chroma: F32 = np.asarray(cv2.sqrt(d2) * scale, np.float32)
    return d_lum, d_chroma


class SegmentParams(NamedTuple):
    lum_threshold: float  # |log ratio| above which a mat pixel differs in brightness
    chroma_threshold: float  # chromaticity distance (percent) above which it differs in colour
    shadow_min: float  # log ratio of the darkest shadow (e.g. log 0.35)
    shadow_chroma: float  # a shadow changes chromaticity by less than this
    shadow_suppression: bool
    floor_lum_threshold: float  # the same two thresholds off the mat (the floor may be
    floor_chroma_threshold: float  # noisier: grass, JPEG blocks on saturated colours)

    def scaled(self, factor: float) -> SegmentParams:
        """These parameters with the four thresholds (mat and floor) times ``factor``."""
        return self._replace(lum_threshold=factor * self.lum_threshold, chroma_threshold=factor * self.chroma_threshold,
                             floor_lum_threshold=factor * self.floor_lum_threshold,
                             floor_chroma_threshold=factor * self.floor_chroma_threshold)


def foreground_mask(d_lum: F32, d_chroma: F32, p: SegmentParams, on_mat: U8 | None = None) -> U8:
    """0/255 mask of pixels that differ from the background and are not shadow.

    A shadow is a pixel darker than the background (but not black) whose colour,
    brightness divided out, is unchanged. ``on_mat`` (0/255) says where the mat's
    thresholds apply; elsewhere the floor's do (everywhere the mat's without it).
    """
    size = np.abs(d_lum)
    fg = (size > np.float32(p.lum_threshold)) | (d_chroma > np.float32(p.chroma_threshold))
    if on_mat is not None:
        floor = (size > np.float32(p.floor_lum_threshold)) | (d_chroma > np.float32(p.floor_chroma_threshold))
        fg = np.where(on_mat > 0, fg, floor)
    if p.shadow_suppression:
        shadow = (d_lum < -p.lum_threshold) & (d_lum > p.shadow_min) & (d_chroma < p.shadow_chroma)
        fg &= ~shadow
    return fg.astype(np.uint8) * 255


def clean_mask(mask: U8, radius: int) -> U8:
    """Remove specks, close small gaps and fill holes of a 0/255 mask."""
    r = max(1, radius)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    small = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    out = cv2.morphologyEx(mask, cv2.MORPH_OPEN, small)
    out = cv2.morphologyEx(out, cv2.MORPH_CLOSE, k)
    contours, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(out)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return np.asarray(filled, np.uint8)


class Blob(NamedTuple):
    x: int
    y: int
    mask: U8  # 0/255 crop of this component only
    area: int


def blobs(mask: U8, min_area: float) -> list[Blob]:
    """Connected components of ``mask`` with at least ``min_area`` pixels."""
    # Grana's block-based labelling: the default (Spaghetti) took three times as long with
    # 32-bit labels here (2 ms against 0.7 at 640x360, three calls a read)
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < min_area:
            continue
        crop = (labels[y:y + h, x:x + w] == i).astype(np.uint8) * 255
        out.append(Blob(x, y, crop, area))
    out.sort(key=lambda b: -b.area)
    return out


# the body and the other sticks' colours (ΔE) closer than this: own_pixels cannot tell them
OWN_APART = 15.0
# a pixel of a stick's own body lies at most this far (ΔE) from its colour: grain and shade
# on it, not the mat or its shadow past its tip
OWN_NEAR = 20.0


def end_slices(length: int, end_fraction: float = 0.24) -> tuple[slice, slice]:
    """Columns of the two ends of a patch ``length`` long (the outermost 4% left out)."""
    skip = max(1, int(round(length * 0.04)))
    n_end = max(skip + 2, int(round(length * end_fraction)))
    return slice(skip, n_end), slice(length - n_end, length - skip)


def stick_patch(image: U8, rect: Rect, size: tuple[int, int]) -> U8:
    """The stick under ``rect`` cut out and turned so its length runs along x.

    ``size`` = (length px, width px) of the returned patch (so every stick is compared
    at the same scale).
    """
    out_l, out_w = size
    t = math.radians(rect.angle)
    sx = rect.length / out_l
    sy = rect.width / out_w
    # patch (u, v) -> image: centre + (u - out_l/2)*sx*axis + (v - out_w/2)*sy*normal
    ax, ay = math.cos(t), math.sin(t)
    nx, ny = -math.sin(t), math.cos(t)
    m = np.array([
        [ax * sx, nx * sy, rect.cx - ax * sx * out_l / 2 - nx * sy * out_w / 2],
        [ay * sx, ny * sy, rect.cy - ay * sx * out_l / 2 - ny * sy * out_w / 2],
    ])
    patch: U8 = np.asarray(cv2.warpAffine(image, m, (out_l, out_w), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)
    return patch


FEATURE_NAMES = ("brightness", "chroma_a", "chroma_b", "across_shading", "across_curvature",
                 "texture", "dark_fraction", "along_variation")


def face_features(patch: U8, valid: U8 | None = None) -> npt.NDArray[np.float64]:
    """Appearance features of a stick patch (length along x), for telling 배 from 등.

    ``patch`` should already be brought to the calibration light (divided by the gain).
    Brightness and colour (Lab), the shading profile across the width (a half-cylinder's
    round face is shaded from its middle to its sides, the flat face is even), texture
    energy and dark paint (the 등 pattern), and the variation along the length. Only the
    middle of the patch is used (the ends may carry the 빽도 mark) and only
    ``valid`` pixels (not covered by another stick).
    """
    h, w = patch.shape[:2]
    y0, y1 = int(h * 0.12), max(int(h * 0.12) + 2, int(round(h * 0.88)))
    x0, x1 = int(w * 0.2), max(int(w * 0.2) + 2, int(round(w * 0.8)))
    if valid is not None and (valid[y0:y1, x0:x1] > 0).mean() < 0.25:
        # the middle lies under another stick (one across it): read the ends that show
        x0, x1 = int(w * 0.05), int(round(w * 0.95))
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float64)[y0:y1, x0:x1]
    ok = np.ones(lab.shape[:2], bool) if valid is None else valid[y0:y1, x0:x1] > 0
    if ok.sum() < 8:  # nothing of it shows: the caller doubts such a stick anyway
        ok = np.ones(lab.shape[:2], bool)
    light = lab[..., 0]
    mean_l = float(light[ok].mean())
    med = float(np.median(light[ok]))
    col_ok = ok.sum(axis=1)
    rows = np.where(col_ok > 0, (light * ok).sum(axis=1) / np.maximum(col_ok, 1), mean_l)
    across = rows / max(mean_l, 1.0)
    n = len(across)
    mid = across[n // 3: n - n // 3].mean() if n >= 3 else across.mean()
    sides = np.concatenate([across[: max(1, n // 4)], across[n - max(1, n // 4):]]).mean()
    row_ok = ok.sum(axis=0)
    cols = np.where(row_ok > 0, (light * ok).sum(axis=0) / np.maximum(row_ok, 1), mean_l)
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float64)
    lap = np.abs(cv2.Laplacian(gray, cv2.CV_64F, ksize=3))[y0:y1, x0:x1]
    return np.array([
        mean_l / 255.0 * 100.0,
        float(lab[..., 1][ok].mean()) - 128.0,
        float(lab[..., 2][ok].mean()) - 128.0,
        float(np.std(across)) * 100.0,
        float(mid - sides) * 100.0,
        float(lap[ok].mean()) / max(mean_l, 1.0) * 100.0,
        float((light[ok] < 0.7 * med).mean()) * 100.0,
        float(np.std(cols)) / max(mean_l, 1.0) * 100.0,
    ])


SIDE_DARK = 0.8  # a row of a stick patch this much darker than its median row is dark
SIDE_EVEN = 0.05  # the far side of a patch with a dark band is even (flat): its rows within this share


def dark_side(patch: U8, valid: U8 | None = None) -> U8 | None:
    """``valid`` without the rows along one long side of a stick patch (length along x)
    that are darker than most of it (< ``SIDE_DARK`` of the median row), when that side
    alone is dark (up to 45% of the width) and the far side of the rest is even (the rows
    of its outer 60% within ``SIDE_EVEN`` of each other): a shadow beside a flat stick, or a
    flat stick whose far rim was lost to a mat of its colour, that the box took in. ``None``
    otherwise: a round face is shaded to both rims in even light, and from one rim through
    its middle in light from one side."""
    h, w = patch.shape[:2]
    ok = np.ones((h, w), bool) if valid is None else valid > 0
    light = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float64)
    seen = ok.sum(axis=1)
    if (seen > 0).sum() < h // 2:
        return None
    rows = np.where(seen > 0, (light * ok).sum(axis=1) / np.maximum(seen, 1), np.nan)
    dark = rows < SIDE_DARK * float(np.nanmedian(rows))  # an unseen row (nan) is not dark
    if dark.all():
        return None
    top, bottom = int(np.argmin(dark)), int(np.argmin(dark[::-1]))  # dark rows from each side
    if (top > 0) == (bottom > 0) or max(top, bottom) > 0.45 * h:
        return None
    cut = slice(0, top + 1) if top else slice(h - bottom - 1, h)  # and the row where it fades
    rest = rows[top + 1:] if top else rows[:h - bottom - 1][::-1]
    far = rest[int(0.4 * len(rest)):]
    far = far[~np.isnan(far)]
    if len(far) < 2 or float(far.max() - far.min()) > SIDE_EVEN * float(np.median(far)):
        return None
    out = ok.astype(np.uint8)
    out[cut] = 0
    return out


def face_lab(names: tuple[str, ...], features: tuple[float, ...]) -> npt.NDArray[np.float64]:
    """The mean colour, in OpenCV's 8-bit Lab, that :func:`face_features` measured as
    ``features`` (named by ``names``): the inverse of its first three entries."""
    return np.array([features[names.index("brightness")] * 2.55, features[names.index("chroma_a")] + 128.0,
                     features[names.index("chroma_b")] + 128.0], np.float64)


# a stick's box may reach past its tips onto the mat or the stick's shadow (unequally at the
# two ends): columns at a tip that show no stick (stick_shows), up to this share of the
# length, are no end of it (tip_span)
TIP_TRIM = 0.15
TIP_BODY = 12.0  # ΔE from the body's colour within which a pixel shows the body
TIP_CHROMA = 6.0  # chroma (Lab a, b) within which a pixel is a blend of the body and the mat
# the mat's shade past a tip (blends): as deep as this cube root of its light (0.5: an
# eighth of the light), its lightness (CIELab L*) within TIP_LIGHT of the mat's that dark
SHADE_DEPTH = 0.5
TIP_LIGHT = 5.0
# OpenCV's 8-bit Lab to units from black (L* + 16, a*, b*, the lightness scaled so that
# TIP_LIGHT counts as TIP_CHROMA), where dimming the light scales a colour toward 0
_FROM_BLACK = np.array([16.0 * 255.0 / 100.0, -128.0, -128.0])
# OpenCV's 8-bit Lab scales L* by 255/100 and a*, b* by one: these bring it to CIELab's units
_CIE_UNITS = np.array([100.0 / 255.0, 1.0, 1.0])
_SHADE_UNITS = _CIE_UNITS * np.array([TIP_CHROMA / TIP_LIGHT, 1.0, 1.0])


def stick_shows(lab: npt.NDArray[np.float64], mat: npt.NDArray[np.float64],
                body: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Where a stick's patch (Lab) shows the stick (over the rows a tip's test reads, 10-90%
    of the width): its body's colour, or a colour that is no blend of the body with the empty
    mat's patch ``mat`` (Lab) there or the mat's shade (a mark). Past a tip the mat, its shade
    and the blurred rim show, all blends of the two."""
    h = lab.shape[0]
    rows = slice(int(h * 0.1), max(int(h * 0.1) + 1, int(round(h * 0.9))))
    blend = blends(lab[rows], mat[rows], body)
    out: npt.NDArray[np.bool_] = (np.linalg.norm(lab[rows] - body, axis=-1) < TIP_BODY) | ~blend
    return out


def blends(lab: npt.NDArray[np.float64], mat: npt.NDArray[np.float64],
           body: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Whether colours ``lab`` (OpenCV's 8-bit Lab, ... x 3) are blends of the ``body``'s
    with the mat's (``mat``, the same shape or one colour) or its shade: their chroma (a, b)
    lies within ``TIP_CHROMA`` of the line between the body's and the mat's (a rim, or a
    shade keeping the mat's chroma), or the colour is the mat's own in shade as deep as
    ``SHADE_DEPTH`` (chroma within ``TIP_CHROMA``, lightness within ``TIP_LIGHT``).

    Light dimmed to k of itself scales CIELab's L* + 16, a* and b* alike by the cube root of
    k: a shadow on a saturated mat is as much greyer as it is darker (independent 55012: the
    sticks' shadows past their tips on a tan mat, two thirds as light and as colourful, were
    read as stick, and the mark found on none). A dark mark is no such shade: greyer, or of
    another hue, than the mat as dark as it (independent 51014, 50027)."""
    px, under = lab[..., 1:], np.broadcast_to(mat[..., 1:], lab[..., 1:].shape)
    toward = body[1:] - under
    t = np.clip(((px - under) * toward).sum(axis=-1) / np.maximum((toward * toward).sum(axis=-1), 1e-6), 0.0, 1.0)
    out: npt.NDArray[np.bool_] = np.asarray(np.linalg.norm(px - (under + t[..., None] * toward), axis=-1) < TIP_CHROMA)
    # or the mat's own shade, tried on the colours left (a stick's body is a blend already):
    # from black, the mat's colour times k, k from 1 down to SHADE_DEPTH
    rest = ~out
    if not rest.any():
        return out
    p = (lab[rest] + _FROM_BLACK) * _SHADE_UNITS
    m = (np.broadcast_to(mat, lab.shape)[rest] + _FROM_BLACK) * _SHADE_UNITS
    k = np.clip(np.einsum("...i,...i", p, m) / np.maximum(np.einsum("...i,...i", m, m), 1e-6), SHADE_DEPTH, 1.0)
    gap = p - k[..., None] * m
    out[rest] = np.einsum("...i,...i", gap, gap) < TIP_CHROMA ** 2
    return out


def tip_span(shows: npt.NDArray[np.bool_], max_trim: float) -> tuple[int, int]:
    """The columns ``(lo, hi)`` of a stick's patch (length along x) from tip to tip of the
    stick: ``shows`` (rows x columns) is where the stick shows; a column showing it on 30%
    of the rows or more is the stick's (a mark covers only part of the width). From each end
    of the patch, columns that do not (the mat or a shadow past a tip of a box too long) are
    left out, up to ``max_trim`` of the length."""
    w = shows.shape[1]
    stick = shows.mean(axis=0) >= 0.3
    budget = int(round(max_trim * w))
    lo, hi = 0, w
    while lo < budget and not stick[lo]:
        lo += 1
    while w - hi < budget and not stick[hi - 1]:
        hi -= 1
    return lo, hi


class EndMarks(NamedTuple):
    """What :func:`end_marks` read at each end of a stick patch (start end, far end)."""

    shares: tuple[float, float]  # how much each end looks like the 빽도 mark, 0..1
    # the share of the patch's rows (across the stick) with a mark-like pixel at each end: a
    # mark painted across a stick fills many; a shade's edge along it, a thin line, few
    rows: tuple[float, float]


def end_profile(patch: U8, body_lab: npt.NDArray[np.float64], mark_lab: npt.NDArray[np.float64],
                end_fraction: float = 0.24, valid: U8 | None = None,
                foreground: U8 | None = None, max_trim: float = 0.0, mat: U8 | None = None) -> tuple[float, float]:
    """How much each end of a stick patch looks like the 빽도 mark (:func:`end_marks`' shares)."""
    return end_marks(patch, body_lab, mark_lab, end_fraction, valid, foreground, max_trim, mat).shares


def end_marks(patch: U8, body_lab: npt.NDArray[np.float64], mark_lab: npt.NDArray[np.float64],
              end_fraction: float = 0.24, valid: U8 | None = None,
              foreground: U8 | None = None, max_trim: float = 0.0, mat: U8 | None = None) -> EndMarks:
    """How much each end of a stick patch looks like the 빽도 mark, and across how many of
    its rows.

    For each end (the first and last ``end_fraction`` of the length), the share of its
    inner pixels whose Lab colour is near ``mark_lab``, nearer to it than to ``body_lab`` and
    clearly away from the body colour, among the ``valid`` pixels (not under or beside
    another stick). With ``foreground`` (nonzero where the picture differs from the empty
    mat) only such pixels count as mark-like: a box reaching past the stick's end onto the
    mat must not read the mat as a mark. Rows that are mark-like in the stick's middle too
    (mat or shade along a side of a box askew) are left out, and so are up to ``max_trim``
    (a share of the length) of columns at the tips where no body (nor, with ``mat``, the
    mark) shows across the width (a box longer than the stick). With ``mat`` (the empty mat
    under the patch, same light), the columns at a tip that are blends of the body with the
    mat or its shade (the blurred rim, a shadow past the tip: :func:`stick_shows`) are left
    out too, up to ``TIP_TRIM``.
    The rows are counted over the whole patch, among the ``valid`` pixels that are
    ``foreground``.
    """
    h, w = patch.shape[:2]
    full = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float64)
    # in 8-bit Lab units, unlike mark_like: measured in CIELab's, independent 61033's first
    # 빽도 read 도 unasked (held-out 59 and independent 60: one throw asked fewer)
    sep = float(np.linalg.norm(mark_lab - body_lab))
    lo, hi = 0, w
    under = None if mat is None else cv2.cvtColor(mat, cv2.COLOR_BGR2LAB).astype(np.float64)
    if max_trim > 0.0:
        # a column of the stick shows its body somewhere across the width; columns past its
        # tip none. With the mat known, a band of the mark painted at the very tip is the
        # stick's too where it is no blend of the body with the mat or its shade (what lies
        # past a tip)
        band = slice(int(h * 0.1), max(int(h * 0.1) + 1, int(round(h * 0.9))))
        shows = np.linalg.norm(full[band] - body_lab, axis=2) < 0.35 * sep
        lo, hi = tip_span(shows, max_trim)
        if under is not None and (lo > 0 or hi < w):
            tips = np.r_[0:lo, hi:w]
            shows[:, tips] |= (mark_like(full[band][:, tips], body_lab, mark_lab)
                               & ~blends(full[band][:, tips], under[band][:, tips], body_lab))
            lo, hi = tip_span(shows, max_trim)
    if under is not None:
        # a mark that is itself such a blend (a redder patch on pink wood on a red mat) cannot
        # be told from the rim: that end keeps its columns
        tip = max(1, int(round(TIP_TRIM * w)))
        trim = [not bool(blends(mark_lab, np.median(under[:, cols].reshape(-1, 3), axis=0), body_lab))
                for cols in (slice(0, tip), slice(w - tip, w))]
        if any(trim):
            lo2, hi2 = tip_span(stick_shows(full, under, body_lab), max(max_trim, TIP_TRIM))
            lo = max(lo, lo2) if trim[0] else lo
            hi = min(hi, hi2) if trim[1] else hi
    if valid is not None:
        valid = valid[:, lo:hi]
    if foreground is not None:
        foreground = foreground[:, lo:hi]
    w = hi - lo
    # mark-like across the whole width (for the rows it spans), and in its middle half (the
    # shares), among what differs from the mat
    across = mark_like(full[:, lo:hi], body_lab, mark_lab)
    if foreground is not None:
        across &= foreground > 0
    top = int(h * 0.25)
    like = across[top:max(top + 1, int(round(h * 0.75)))].copy()
    ok = np.ones(like.shape, bool) if valid is None else valid[top:top + len(like)] > 0
    if valid is not None:
        across &= valid > 0
    # the mark sits at one end: a row that is mark-like in the stick's middle as well is mat
    # or shade along a side of a box that lies askew, and tells nothing about the ends. Only
    # the stick's own pixels there count: another stick lying across it says nothing
    mid = slice(int(w * 0.35), int(w * 0.65))
    side = (like[:, mid] & ok[:, mid]).sum(axis=1) > 0.3 * ok[:, mid].sum(axis=1)
    ok &= ~side[:, None]
    like &= ok
    out, rows = [], []
    for xs in end_slices(w, end_fraction):
        seen = ok[:, xs]
        out.append(float(like[:, xs].sum()) / max(1.0, float(seen.sum())) if seen.mean() > 0.4 else 0.0)
        rows.append(float(across[:, xs].any(axis=1).mean()))
    return EndMarks((out[0], out[1]), (rows[0], rows[1]))


# a colour this share of the way from a stick's body to its mark (CIELab distance) is
# clearly away from the body (mark_like)
MARK_AWAY = 0.35


def cie_distance(lab: npt.NDArray[np.float64], other: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """CIELab's distance (ΔE 1976) between OpenCV 8-bit Lab colours (... x 3), broadcast."""
    out: npt.NDArray[np.float64] = np.linalg.norm((lab - other) * _CIE_UNITS, axis=-1)
    return out


def mark_like(lab: npt.NDArray[np.float64], body_lab: npt.NDArray[np.float64],
              mark_lab: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Where colours ``lab`` (OpenCV's 8-bit Lab, ... x 3) look like the 빽도 mark
    ``mark_lab`` on a stick of body colour ``body_lab``: near the mark's colour, not merely
    nearer it than the body (a black stripe of the mat, a shadow, is nearer a red mark than a
    pale body but no mark), and clearly away from the body (``MARK_AWAY``). Distances are
    CIELab's: counted in OpenCV's 8-bit L*, a knot a little darker than the wood is nearer a
    red dot than the wood is (independent 60002: the knots read as marked as the dot, and
    calibration learned no mark)."""
    sep = float(cie_distance(mark_lab, body_lab))
    d_body, d_mark = cie_distance(lab, body_lab), cie_distance(lab, mark_lab)
    out: npt.NDArray[np.bool_] = (d_mark < d_body) & (d_body > MARK_AWAY * sep) & (d_mark < 0.9 * sep)
    return out


MARK_LIGHTNESS = (0.7, 1.4)  # how far the mark's lightness is scaled with its stick's body
SHEEN_MIN = 0.02  # linear RGB added to every channel, below which a change is no sheen
SHEEN_MISFIT = 0.03  # a gain and a sheen must explain the body's change this closely


def relative_mark(mark_lab: npt.NDArray[np.float64], body_then: npt.NDArray[np.float64],
                  body_now: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The 빽도 mark's colour (OpenCV Lab) on a stick whose body shows ``body_now``, when at
    calibration the body showed ``body_then`` beside the mark ``mark_lab``: light left over
    after correction (shade, another angle to the lamp) darkens both alike and tints both
    alike. The lightness scales by at most 0.7..1.4."""
    ratio = min(MARK_LIGHTNESS[1], max(MARK_LIGHTNESS[0], float(body_now[0]) / max(float(body_then[0]), 1.0)))
    return np.array([mark_lab[0] * ratio, mark_lab[1] + body_now[1] - body_then[1],
                     mark_lab[2] + body_now[2] - body_then[2]], np.float64)


def _lab_to_linear(lab: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """One OpenCV Lab colour (8-bit scale) as linear RGB (BGR order), 0..1."""
    px = np.asarray(np.clip(np.round(lab), 0, 255), np.uint8).reshape(1, 1, 3)
    srgb = cv2.cvtColor(px, cv2.COLOR_LAB2BGR).reshape(3).astype(np.float64) / 255.0
    out: npt.NDArray[np.float64] = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    return out


def _linear_to_lab(linear: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    c = np.clip(linear, 0.0, 1.0)
    srgb = np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1.0 / 2.4) - 0.055)
    px = np.asarray(np.clip(np.round(srgb * 255.0), 0, 255), np.uint8).reshape(1, 1, 3)
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(3).astype(np.float64)


def sheen_mark(mark_lab: npt.NDArray[np.float64], body_then: npt.NDArray[np.float64],
               body_now: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | None:
    """The 빽도 mark's colour (OpenCV Lab) on a glossy stick that catches a sheen of the
    light: by the dichromatic reflection model a surface shows its own colour scaled by the
    light falling on it plus light reflected off its surface, colourless against the
    light's colour. When the body's change from ``body_then`` (at calibration, beside the
    mark ``mark_lab``) to ``body_now`` is such a gain and an added sheen (linear RGB:
    now = g * then + s, s > 0, fitting within 3%), the mark takes the same gain and sheen:
    it fades toward white as the body does. None when the change is no sheen
    (:func:`relative_mark` covers shade and tint)."""
    then, now = _lab_to_linear(body_then), _lab_to_linear(body_now)
    a = np.c_[then, np.ones(3)]
    if float(np.ptp(then)) < 0.02:  # a grey body: gain and sheen cannot be told apart
        return None
    (g, sheen), *_ = np.linalg.lstsq(a, now, rcond=None)
    misfit = float(np.linalg.norm(a @ np.array([g, sheen]) - now)) / max(float(np.linalg.norm(now)), 1e-6)
    if sheen < SHEEN_MIN or misfit > SHEEN_MISFIT or not 0.3 <= g <= 1.5:
        return None
    return _linear_to_lab(g * _lab_to_linear(mark_lab) + sheen)


def own_pixels(patch: U8, body_lab: npt.NDArray[np.float64], other_lab: npt.NDArray[np.float64],
               span: int) -> U8:
    """Where a stick patch (length along x) shows the stick itself: pixels of its body
    colour (clearly nearer ``body_lab`` than ``other_lab``, the colour of the other sticks
    about it), and gaps of up to ``span`` columns between such pixels along the length (a
    mark painted on it). A stick lying across it is wider than ``span`` and stays out.
    Returns 0/1; all 0 when the two colours are too alike to tell apart."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float64)
    apart = float(np.linalg.norm(body_lab - other_lab))
    if apart < OWN_APART:
        return np.zeros(patch.shape[:2], np.uint8)
    d_body = np.linalg.norm(lab - body_lab, axis=2)
    d_other = np.linalg.norm(lab - other_lab, axis=2)
    body = ((d_body < min(0.3 * apart, OWN_NEAR)) & (d_body < 0.5 * d_other)).astype(np.uint8)
    # only what joins the stick's middle: light paint on a stick lying across is not its body
    _, labels = cv2.connectedComponents(body, connectivity=4)
    w = body.shape[1]
    keep = np.unique(labels[:, int(w * 0.35):int(w * 0.65)])
    body = (np.isin(labels, keep[keep > 0])).astype(np.uint8)
    if span < 1:
        return body
    return np.asarray(cv2.morphologyEx(body, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (span, 1))),
                      np.uint8)


def flat_colour(image: U8) -> float | None:
    """The mean level of ``image`` when it is one flat colour (every channel's spread under a
    grey level: a flat red is as blank as a flat grey), else None."""
    mean, spread = cv2.meanStdDev(image)
    return float(mean.mean()) if float(spread.max()) < 1.0 else None


def saturated_fraction(patch: U8, valid: U8 | None = None) -> float:
    """Share of pixels blown out (any channel at 250 or more): glare. With ``valid``, of
    those pixels only (a stick's own: a light stick lying across it is no glare on it);
    0 when none is valid."""
    blown = patch.max(axis=2) >= 250
    if valid is None:
        return float(blown.mean())
    own = valid > 0
    return float(blown[own].mean()) if own.any() else 0.0


def segment(image_work: U8, background: U8, params: SegmentParams, clean_radius: int,
            on_mat: U8 | None = None) -> tuple[U8, F32, F32, F32]:
    """Foreground mask of a (reduced, smoothed) image against the empty-mat background.

    The light change since calibration is estimated and divided out first
    (:func:`gain_map`); returns the cleaned 0/255 mask, the gain map and the two
    difference maps (for diagnostics).
    """
    gain = gain_map(image_work, background)
    expected = background.astype(np.float32) * gain
    d_lum, d_chroma = difference_maps(image_work, expected)
    mask = clean_mask(foreground_mask(d_lum, d_chroma, params, on_mat), clean_radius)
    return mask, gain, d_lum, d_chroma


def correct_light(patch: U8, gain: npt.NDArray[np.float32]) -> U8:
    """``patch`` divided by the light gain (3 values): back to the calibration light."""
    g = np.maximum(np.asarray(gain, np.float32).reshape(1, 1, 3), 0.05)
    out: U8 = np.clip(patch.astype(np.float32) / g, 0, 255).astype(np.uint8)
    return out


def peel_shadow(rect: Rect, lab: F32, d_lum: F32, d_chroma: F32, params: SegmentParams,
                chroma_limit: float, min_width: float = 0.0) -> Rect:
    """Narrow ``rect`` (work coordinates) by peeling off the shade along one long side.

    A stick's region often carries the shadow it casts along one side. The outermost
    rows of both long sides are compared: while one is mostly shade — darker than the
    empty mat with its colour kept, and clearly unlike the stick's own middle — and the
    other is not (a round face's shading darkens both sides alike), that side loses a
    pixel. At most a third of the width goes, never below ``min_width``.
    """
    t = math.radians(rect.angle)
    nx, ny = -math.sin(t), math.cos(t)
    core = rect_mask(d_lum.shape, inner(rect, 0.8, 0.4)) > 0
    if core.sum() < 4:
        return rect
    # the stick's own colour: a box wide with its shadow has shade in its middle too (the
    # median of it all was near the shade's look, and the shade was kept); a stick whose
    # colour is a darkened mat's is all shade-like, and then all of the middle is its own
    px = lab[core]
    lit = ~((d_lum[core] < -params.lum_threshold) & (d_chroma[core] < chroma_limit))
    own = np.median(px[lit] if lit.sum() >= 0.3 * len(px) else px, axis=0)
    lo, hi = -rect.width / 2.0, rect.width / 2.0
    floor_width = max(min_width, rect.width * 2.0 / 3.0)

    def shade(edge: float) -> float:
        row = Rect(rect.cx + nx * edge, rect.cy + ny * edge, rect.length * 0.8, 1.0, rect.angle)
        m = rect_mask(d_lum.shape, row) > 0
        if m.sum() < 3:
            return 0.0
        dark = ((d_lum[m] < -params.lum_threshold) & (d_chroma[m] < chroma_limit)
                & (np.linalg.norm(lab[m] - own, axis=1) > 12.0))
        return float(dark.mean())

    while hi - lo - 1.0 >= floor_width:
        s_lo, s_hi = shade(lo + 0.5), shade(hi - 0.5)
        if max(s_lo, s_hi) < 0.5 or abs(s_lo - s_hi) < 0.3:
            break
        if s_lo > s_hi:
            lo += 1.0
        else:
            hi -= 1.0
    mid = (lo + hi) / 2.0
    return Rect(rect.cx + nx * mid, rect.cy + ny * mid, rect.length, hi - lo, rect.angle)


def illumination(background: U8, on_mat: U8, cells: int = 80) -> F32:
    """How the light falls across the mat (vignetting, a lamp's gradient), as a small
    BGR picture ``cells`` wide: the empty mat blurred over mat pixels only (its weave
    and painted lines averaged away), divided by its median. Dividing a stick's colours
    by the value at the stick compares sticks anywhere on the mat on an equal footing."""
    h, w = background.shape[:2]
    sw, sh = cells, max(2, round(cells * h / w))
    bg = cv2.resize(background, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    m = cv2.resize((on_mat > 0).astype(np.float32), (sw, sh), interpolation=cv2.INTER_AREA)
    sigma = sw / 10.0
    num = cv2.GaussianBlur(bg * m[..., None], (0, 0), sigma)
    den = cv2.GaussianBlur(m, (0, 0), sigma)
    field = num / np.maximum(den, 1e-3)[..., None]
    inside = m > 0.5
    ref = np.median(field[inside], axis=0) if inside.any() else np.median(field.reshape(-1, 3), axis=0)
    out: F32 = np.asarray(field / np.maximum(ref, 1.0), np.float32)
    return out


def light_at(field: F32, gain: F32 | None, x: float, y: float, work_size: tuple[int, int]) -> F32:
    """The light on a stick at work coordinates (x, y): the change since calibration
    (``gain``, work size; None: the light calibration saw) times the mat's illumination
    there (``field``, small)."""
    fh, fw = field.shape[:2]
    f = field[min(fh - 1, max(0, int(y * fh / work_size[1]))), min(fw - 1, max(0, int(x * fw / work_size[0])))]
    if gain is None:
        return np.asarray(f, np.float32)
    gh, gw = gain.shape[:2]
    g = gain[min(gh - 1, max(0, int(y))), min(gw - 1, max(0, int(x)))]
    out: F32 = np.asarray(g * f, np.float32)
    return out
