"""Sticks as rectangles: outlines of stick-shaped regions, and splitting a region that
holds several touching or crossing sticks into stick-sized rectangles.

Pure functions on arrays (see :mod:`yut_cam.vision.functional`, which re-exports them).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]

class Rect(NamedTuple):
    cx: float
    cy: float
    length: float
    width: float
    angle: float  # degrees of the long axis

    def scaled(self, factor: float) -> Rect:
        return Rect(self.cx * factor, self.cy * factor, self.length * factor,
                    self.width * factor, self.angle)

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.cx + dx, self.cy + dy, self.length, self.width, self.angle)


def rect_from_min_area(points: npt.NDArray[np.int32] | npt.NDArray[np.float32]) -> Rect:
    """The minimum-area rectangle around ``points`` (N, 2), long side as ``length``."""
    (cx, cy), (w, h), ang = cv2.minAreaRect(points.reshape(-1, 1, 2).astype(np.float32))
    if w >= h:
        return Rect(float(cx), float(cy), float(w), float(h), float(ang) % 180.0)
    return Rect(float(cx), float(cy), float(h), float(w), (float(ang) + 90.0) % 180.0)


def rect_corners(rect: Rect) -> npt.NDArray[np.float64]:
    """The four corners (4, 2) of ``rect``, going round it."""
    t = math.radians(rect.angle)
    ux, uy = math.cos(t) * rect.length / 2, math.sin(t) * rect.length / 2
    vx, vy = -math.sin(t) * rect.width / 2, math.cos(t) * rect.width / 2
    c = np.array([rect.cx, rect.cy])
    return np.array([c - (ux, uy) - (vx, vy), c + (ux, uy) - (vx, vy),
                     c + (ux, uy) + (vx, vy), c - (ux, uy) + (vx, vy)])


def rect_mask(shape: tuple[int, int], rect: Rect) -> U8:
    """A 0/255 mask of ``shape`` (H, W) with ``rect`` filled."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(rect_corners(rect) * 16).astype(np.int32), 255,
                       lineType=cv2.LINE_8, shift=4)
    return mask




def depth_inside(rect: Rect, outline: npt.NDArray[np.float32]) -> float:
    """How deep (px) ``rect`` reaches into the polygon ``outline`` ((N, 1, 2) float32, as
    ``cv2.pointPolygonTest`` takes it): > 0 inside, < 0 its distance outside. Measured at 12
    points along each side of ``rect`` and its centre."""
    corners = rect_corners(rect)
    t = np.linspace(0.0, 1.0, 12, endpoint=False)[:, None]
    pts = np.vstack([corners[i] + (corners[(i + 1) % 4] - corners[i]) * t for i in range(4)]
                    + [np.array([[rect.cx, rect.cy]])])
    return float(signed_distance(pts, outline).max())


def signed_distance(points: npt.NDArray[np.float64], outline: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    """Each of ``points`` (K, 2)'s distance (px) to the polygon ``outline`` ((N, 1, 2)), > 0
    inside it: ``cv2.pointPolygonTest`` with distances, for many points at once (a read
    asks it of every stick's box, one call a point cost more than the rest of the test)."""
    a = np.asarray(outline, np.float64).reshape(-1, 2)
    b = np.roll(a, -1, axis=0)
    ab = b - a
    ap = points[:, None, :] - a[None, :, :]  # (K, N, 2)
    t = np.clip((ap * ab).sum(axis=2) / np.maximum((ab * ab).sum(axis=1), 1e-12), 0.0, 1.0)
    gap = ap - t[..., None] * ab
    dist = np.sqrt((gap * gap).sum(axis=2).min(axis=1))
    # inside when a ray to +x crosses the outline an odd number of times
    py = points[:, 1:2]
    spans = (a[None, :, 1] > py) != (b[None, :, 1] > py)
    dy = np.where(ab[:, 1] == 0.0, 1.0, ab[:, 1])
    cross_x = a[None, :, 0] + (py - a[None, :, 1]) * ab[None, :, 0] / dy[None, :]
    inside = (spans & (points[:, 0:1] < cross_x)).sum(axis=1) % 2 == 1
    out: npt.NDArray[np.float64] = np.where(inside, dist, -dist)
    return out


def fit_rectangles(mask: U8, k: int, length: float, width: float,
                   angle_step: float = 4.0) -> tuple[list[Rect], float]:
    """Fit ``k`` rectangles of the stick's size into the 0/255 ``mask`` of one blob.

    Greedy placement: for each angle the mask is rotated so a stick at that angle lies
    along x, and a box filter of the stick's (slightly shrunk) size scores every
    placement (+1 for a blob pixel not yet explained, +0.3 for one already explained —
    sticks may cross —, −0.7 for a background pixel). The best placement is kept, its
    pixels marked as explained, and the next stick is sought. Because the first choice
    can be wrong (a stick laid diagonally across two side-by-side sticks), the search is
    started from the three best first placements, and for parallel sticks also from
    the blob's outline cut into ``k`` strips; each set is refined (see :func:`_k_lines`)
    and the set explaining the blob best wins. Returns the rectangles and the fraction
    of blob pixels they explain.
    """
    pad = int(math.ceil(length * 0.6)) + 2
    m = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    fg = m > 0
    h, w = m.shape
    base = np.where(fg, 1.0, -0.7).astype(np.float32)
    starts, most = _placements(base, length, width, angle_step, top=3 if k >= 2 else 1)
    candidates: list[list[Rect]] = []
    for first in starts:
        weights = base.copy()
        rects, bound = [first], most
        for _ in range(k - 1):
            inside = rect_mask((h, w), rects[-1]) > 0
            weights[inside & fg] = np.minimum(weights[inside & fg], 0.3)
            # explained pixels only lose weight: no placement scores more than it did before
            placed, bound = _placements(weights, length, width, angle_step, top=1, bound=bound)
            rects.append(placed[0])
        candidates.append(rects)
    if k >= 2:
        candidates += _strips(fg, k, length, width)
    best: tuple[float, list[Rect]] | None = None
    for rects in candidates:
        rects = _refine(fg, rects, length, width)
        if k >= 2:
            rects = _k_lines(fg, rects, length, width)
        score = _set_score(fg, rects, length, width)
        if best is None or score > best[0]:
            best = (score, rects)
    assert best is not None
    rects = best[1]
    covered = np.zeros((h, w), bool)
    for r in rects:
        covered |= rect_mask((h, w), Rect(r.cx, r.cy, r.length * 1.08 + 2,
                                          r.width * 1.15 + 2, r.angle)) > 0
    explained = float((covered & fg).sum()) / max(1.0, float(fg.sum()))
    return [r.shifted(-pad, -pad) for r in rects], explained


ROW_VALLEY = 0.2  # a seam between sticks side by side shows at least this much less of a stick
ROW_MARGIN = 0.15  # ... and by this much more than square to the sticks
ROW_COHERENT = 0.3  # where this share of a row's edges runs one way, the sticks lie within
ROW_TURN = 15.0  # this many degrees of it


def split_row(xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], k: int, strength: F32) -> list[Rect] | None:
    """A region of ``k`` sticks lying side by side (a row, neat or stepped, as a referee lays
    them for calibration), given by its pixels ``xs``, ``ys``, cut along its length into
    ``k`` sticks, with ``strength`` how much each pixel differs from the empty mat.

    The sticks' direction is not the outline's (a stepped row's outline runs slantwise, a
    row of four may be as wide as long): of a few (the outline's two sides, the direction
    of most of the region's edges, square to it) it is the one across which the region
    shows ``k`` sticks with the deepest seams between them, where it shows at least
    ``ROW_VALLEY`` less of a stick than along their middles (a gap shows the mat, or nothing
    of the region at all; a blurred seam, less), and ``ROW_MARGIN`` more than across the
    direction square to it (the bands of a 등 pattern across a row of pale sticks are seams
    too); where most edges run one way (long sides, grain), along them. None when no
    direction does, or a stick cut out is no stick: not filled, not turned that way, too
    short for its width."""
    outline = rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))
    # as the sticks' own pixels show it (a seam blurred between two sticks shows less of
    # them, however unlike the mat they are), not a speck of glare or dirt
    top = max(float(np.percentile(strength[ys, xs], 90)), 1e-6)
    weight = np.clip(strength[ys, xs], 0.0, top).astype(np.float64)
    edges, coherence = _edge_direction(xs, ys, strength, top)
    cuts: dict[float, tuple[float, list[Rect]] | None] = {}
    for angle in (outline.angle, edges):
        for a in (angle % 180.0, (angle + 90.0) % 180.0):
            if all(_turn(a, b) >= 5.0 for b in cuts):
                cuts[a] = _cut_row(xs, ys, k, a, weight)
    depth = {a: -1.0 if cut is None else cut[0] for a, cut in cuts.items()}
    best = max(depth, key=lambda a: depth[a])
    square = max((depth[a] for a in depth if _turn(a, best) > 85.0), default=-1.0)
    chosen = cuts[best]
    if chosen is None or depth[best] < max(ROW_VALLEY, square + ROW_MARGIN) \
            or (coherence >= ROW_COHERENT and _turn(best, edges) >= ROW_TURN):
        return None
    return chosen[1]


def _turn(a: float, b: float) -> float:
    """The angle (degrees, 0-90) between two directions given in degrees."""
    return abs((a - b + 90.0) % 180.0 - 90.0)


def _edge_direction(xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], strength: F32,
                    top: float) -> tuple[float, float]:
    """The direction (degrees) square to most of the gradient of ``strength`` (up to ``top``)
    in and around the region of pixels ``xs``, ``ys`` (that of most of its edges), and how
    many of them run that way (0: every way alike, 1: all)."""
    pad = 3
    x0, y0 = max(0, int(xs.min()) - pad), max(0, int(ys.min()) - pad)
    x1, y1 = min(strength.shape[1], int(xs.max()) + pad + 1), min(strength.shape[0], int(ys.max()) + pad + 1)
    crop = np.clip(strength[y0:y1, x0:x1], 0.0, top).astype(np.float32)
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    seed = np.zeros(crop.shape, np.uint8)
    seed[ys - y0, xs - x0] = 1
    near = cv2.dilate(seed, np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)) > 0
    mag = np.hypot(gx, gy)[near]
    phi = np.arctan2(gy, gx)[near]
    c, s = float((mag * np.cos(2 * phi)).sum()), float((mag * np.sin(2 * phi)).sum())
    return (math.degrees(0.5 * math.atan2(s, c)) + 90.0) % 180.0, math.hypot(c, s) / max(float(mag.sum()), 1e-9)


def _cut_row(xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp], k: int, angle: float,
             weight: npt.NDArray[np.float64]) -> tuple[float, list[Rect]] | None:
    """The region cut across ``angle`` into ``k`` sticks, and how deep its shallowest seam is
    (1 - what the seam shows of a stick against the sticks' middles); None when it cannot
    be cut into ``k`` stick-shaped parts that way."""
    t = math.radians(angle)
    across = -xs * math.sin(t) + ys * math.cos(t)
    across = across - float(across.min())
    width = float(across.max()) + 1.0
    if k < 2 or width < 2.0 * k:
        return None
    bins = int(math.ceil(width)) + 1
    at = np.clip(across.astype(np.intp), 0, bins - 1)
    shows = np.bincount(at, weights=weight, minlength=bins)
    profile = np.convolve(shows, np.ones(3) / 3.0, mode="same")
    counts = np.bincount(at, minlength=bins).astype(np.float64)
    step = width / k
    cuts = [0.0]
    for j in range(1, k):
        lo, hi = int(round(j * step - 0.3 * step)), int(round(j * step + 0.3 * step)) + 1
        cuts.append(float(lo + int(np.argmin(profile[lo:hi]))) + 0.5)
    cuts.append(width + 1.0)
    # each stick's span across: where its strip holds at least half as many of the region's
    # pixels as across its middle (not a thin bridge of blur or shade to the next), and no
    # further from where it differs at least half as much as along its middle than the row's
    # outer rims reach past that (blur that joined two sticks across a narrow gap would make
    # each as wide as the gap; one stick alone shows its rims only)
    mean = shows / np.maximum(counts, 1.0)
    spans = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        lo, hi = int(math.ceil(a - 0.5)), min(bins, int(math.ceil(b - 0.5)))
        if hi - lo < 2:
            return None
        spans.append((_span(counts, lo, hi), _span(mean, lo, hi)))
    middles = np.concatenate([profile[s0:s1] for _, (s0, s1) in spans])
    seam = max(float(profile[int(c)]) for c in cuts[1:-1]) / max(float(np.median(middles)), 1e-9)
    rim = max(0.0, 0.5 * ((spans[0][1][0] - spans[0][0][0]) + (spans[-1][0][1] - spans[-1][1][1])))
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    rects, looks = [], []
    for (c0, c1), (s0, s1) in spans:
        own = (across >= max(c0, s0 - rim)) & (across < min(c1, s1 + rim))
        if own.sum() < 5:
            return None
        r = rect_from_min_area(pts[own])
        if r.length < 2.0 * r.width or _turn(r.angle, angle) > 8.0 or own.sum() < 0.75 * r.length * r.width:
            return None
        rects.append(r)
        looks.append(float(weight[own].mean()))
    # the sticks of a calibration picture show one face alike; a part far fainter than the
    # others is no stick (a shadow beside one, the region's rim)
    if min(looks) < 0.5 * max(looks):
        return None
    return 1.0 - seam, rects


def _span(profile: npt.NDArray[np.float64], lo: int, hi: int) -> tuple[int, int]:
    """The bins ``[first, last)`` around the peak of ``profile[lo:hi]`` holding at least half of it."""
    part = profile[lo:hi]
    peak = int(np.argmax(part))
    strong = part >= 0.5 * float(part[peak])
    first = peak - int(np.argmin(strong[peak::-1])) + 1 if not strong[:peak + 1].all() else 0
    last = peak + int(np.argmin(strong[peak:])) if not strong[peak:].all() else len(part)
    return lo + first, lo + last


# a placement's score (box filter sums of float32 weights) may come out this much higher on
# weights that are nowhere higher: running sums round differently
BOUND_SLACK = 1e-3


def _placements(weights: F32, length: float, width: float, angle_step: float, top: int,
                bound: list[float] | None = None) -> tuple[list[Rect], list[float]]:
    """The ``top`` best stick placements on ``weights`` (at angles at least 10° apart), and the
    best score at each coarse angle (``angle_step`` apart from 0°).

    ``bound`` (with ``top`` 1): those best scores on weights nowhere smaller than these. No
    angle can score more here than there, so an angle whose bound falls short of the best
    score found is not looked at (the placement is the same as with every angle looked at;
    the scores returned for those angles are their bounds)."""
    h, w = weights.shape
    centre = (w / 2.0, h / 2.0)
    box_l = max(3, int(round(length * 0.88)))
    box_w = max(2, int(round(width * 0.8)))

    def at(ang: float) -> tuple[float, Rect]:
        rot = cv2.getRotationMatrix2D(centre, float(ang), 1.0)
        turned = cv2.warpAffine(weights, rot, (w, h), flags=cv2.INTER_NEAREST, borderValue=-0.7)
        s = cv2.boxFilter(turned, -1, (box_l, box_w), normalize=False, borderType=cv2.BORDER_CONSTANT)
        _, val, _, loc = cv2.minMaxLoc(s)
        px = cv2.invertAffineTransform(rot) @ np.array([loc[0], loc[1], 1.0])
        # getRotationMatrix2D(a) turns content by -a in image coordinates (y down), so a
        # box lying along x in the rotated mask is a stick at angle a in the original.
        return float(val), Rect(float(px[0]), float(px[1]), length, width, float(ang) % 180.0)

    angles = np.arange(0.0, 180.0, angle_step)
    if bound is None:
        looked = {i: at(a) for i, a in enumerate(angles)}
    else:
        assert top == 1 and len(bound) == len(angles)
        looked, best = {}, -math.inf
        for i in sorted(range(len(angles)), key=lambda i: -bound[i]):
            if bound[i] < best - BOUND_SLACK:
                break
            looked[i] = at(angles[i])
            best = max(best, looked[i][0])
    # in angle order, so that of equal scores the first angle wins whichever were looked at
    coarse = sorted((looked[i] for i in sorted(looked)), key=lambda t: -t[0])
    chosen: list[tuple[float, Rect]] = []
    for val, r in coarse:
        if all(_turn(r.angle, c.angle) >= 10.0 for _, c in chosen):
            chosen.append((val, r))
        if len(chosen) == top:
            break
    out = []
    for _, r in chosen:
        fine = [at(r.angle + d) for d in np.arange(-angle_step / 2, angle_step / 2 + 0.1, 1.0)]
        out.append(max(fine, key=lambda t: t[0])[1])
    scores = list(bound) if bound is not None else [0.0] * len(angles)  # each overwritten if looked at
    for i, (val, _) in looked.items():
        scores[i] = val
    return out, scores


def _strips(fg: npt.NDArray[np.bool_], k: int, length: float, width: float) -> list[list[Rect]]:
    """The blob's outline cut into ``k`` parallel sticks, if its size allows it."""
    ys, xs = np.nonzero(fg)
    if len(xs) < 5:
        return []
    outline = rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))
    t = math.radians(outline.angle)
    ux, uy = math.cos(t), math.sin(t)
    out = []
    if abs(outline.length - length) < 0.35 * length and abs(outline.width - k * width) < 0.4 * k * width:
        step = outline.width / k  # side by side
        out.append([Rect(outline.cx + (-uy) * (i - (k - 1) / 2) * step, outline.cy + ux * (i - (k - 1) / 2) * step,
                         length, width, outline.angle) for i in range(k)])
    if abs(outline.length - k * length) < 0.3 * k * length and outline.width < 1.5 * width:
        step = outline.length / k  # end to end
        out.append([Rect(outline.cx + ux * (i - (k - 1) / 2) * step, outline.cy + uy * (i - (k - 1) / 2) * step,
                         length, width, outline.angle) for i in range(k)])
    return out


def _set_score(fg: npt.NDArray[np.bool_], rects: list[Rect], length: float, width: float) -> float:
    """How well stick-sized rectangles at these places explain the blob (higher is better)."""
    union = np.zeros(fg.shape, bool)
    for r in rects:
        union |= rect_mask(fg.shape, Rect(r.cx, r.cy, length, width, r.angle)) > 0
    return float((union & fg).sum()) - 0.7 * float((union & ~fg).sum())


def _refine(fg: npt.NDArray[np.bool_], rects: list[Rect], length: float,
            width: float) -> list[Rect]:
    """Re-fit each rectangle on the blob pixels only it covers (its own pixels)."""
    if len(rects) == 1:
        ys, xs = np.nonzero(fg)
        r = rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))
        if abs(r.length - length) < 0.25 * length and r.width < 1.4 * width:
            return [r]
        return rects
    shape = fg.shape
    grown = [rect_mask(shape, Rect(r.cx, r.cy, r.length * 1.1 + 2, r.width * 1.3 + 2, r.angle)) > 0
             for r in rects]
    ys_all, xs_all = np.nonzero(fg)
    out = []
    for i, r in enumerate(rects):
        own = fg & grown[i]
        for j, g in enumerate(grown):
            if j != i:
                own &= ~g
        ys, xs = np.nonzero(own)
        if len(xs) >= 0.6 * length * width:
            fit = rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))
            d_ang = _turn(fit.angle, r.angle)
            if (d_ang < 6.0 and abs(fit.length - length) < 0.2 * length
                    and abs(fit.width - width) < 0.3 * width):
                out.append(fit)
                continue
        others = [o for j, o in enumerate(rects) if j != i]
        out.append(_slide_along(r, xs_all, ys_all, length, width, others))
    return out


def _segment_distance(xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], r: Rect
                      ) -> npt.NDArray[np.float64]:
    """Distance of points to the centre line (long axis segment) of ``r``."""
    t = math.radians(r.angle)
    ux, uy = math.cos(t), math.sin(t)
    dx, dy = xs - r.cx, ys - r.cy
    along = np.clip(dx * ux + dy * uy, -r.length / 2, r.length / 2)
    out: npt.NDArray[np.float64] = np.hypot(dx - along * ux, dy - along * uy)
    return out


def _in_frame(xs: npt.NDArray[Any], ys: npt.NDArray[Any], r: Rect
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Points' coordinates in ``r``'s frame: along its long axis and across it, from its centre."""
    t = math.radians(r.angle)
    dx, dy = xs - r.cx, ys - r.cy
    return dx * math.cos(t) + dy * math.sin(t), -dx * math.sin(t) + dy * math.cos(t)


def _rect_cost(xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], r: Rect,
               length: float, width: float) -> npt.NDArray[np.float64]:
    """How badly points fit a stick-sized rectangle at ``r``: distance outside it (heavily)
    plus the distance from its centre line in half-widths (to share overlaps)."""
    along, across = (np.abs(v) for v in _in_frame(xs, ys, r))
    outside = np.hypot(np.maximum(along - length / 2, 0.0), np.maximum(across - width / 2, 0.0))
    out: npt.NDArray[np.float64] = 4.0 * outside + across / (width / 2)
    return out


def _k_lines(fg: npt.NDArray[np.bool_], rects: list[Rect], length: float, width: float,
             rounds: int = 4) -> list[Rect]:
    """Like k-means with sticks for centres: give each blob pixel to the stick whose centre
    line is nearest, re-fit each stick on its pixels, repeat. Side-by-side sticks end up
    split along the line between them; a re-fit is kept only if it is stick-sized."""
    ys, xs = np.nonzero(fg)
    px, py = xs.astype(np.float64), ys.astype(np.float64)
    current = list(rects)
    for _ in range(rounds):
        d = np.stack([_rect_cost(px, py, r, length, width) for r in current])
        owner = np.argmin(d, axis=0)
        new = [_refit(px, py, owner == i, r, length, width, 0.15) for i, r in enumerate(current)]
        changed = any(abs(a.cx - b.cx) + abs(a.cy - b.cy) > 0.3 for a, b in zip(new, current))
        current = new
        if not changed:
            break
    return current


def _slide_along(r: Rect, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp],
                 length: float, width: float, others: list[Rect]) -> Rect:
    """Centre ``r`` along its axis on the blob pixels lying in its central strip (and not
    on another stick's centre line)."""
    t = math.radians(r.angle)
    along, across = _in_frame(xs, ys, r)
    sel = (np.abs(across) < 0.3 * width) & (np.abs(along) < 0.75 * length)
    for o in others:
        sel &= _segment_distance(xs.astype(np.float64), ys.astype(np.float64), o) > 0.5 * width + 1.0
    if sel.sum() < length:
        return r
    lo, hi = np.percentile(along[sel], [0.5, 99.5])
    span = float(hi - lo) + 1.0
    if abs(span - length) > 0.25 * length:
        return r
    mid = float(lo + hi) / 2.0
    return Rect(r.cx + mid * math.cos(t), r.cy + mid * math.sin(t), span, r.width, r.angle)


def inner(rect: Rect, along: float = 0.94, across: float = 0.8) -> Rect:
    """``rect`` shrunk to the stick's own surface (its outline is blurred into the mat)."""
    return Rect(rect.cx, rect.cy, rect.length * along, rect.width * across, rect.angle)


def split_by_colour(lab: F32, mask: U8, rects: list[Rect], length: float, width: float,
                    rounds: int = 3) -> list[Rect]:
    """Re-split a blob of touching sticks using their colours as well as their axes.

    ``lab`` is the blob's crop in Lab (float), ``mask`` its 0/255 mask, ``rects`` the
    sticks fitted to its shape. When the sticks differ in colour (a 배 beside a 등),
    each blob pixel goes to the stick that is near and of its colour; each stick is then
    re-fitted on its pixels (kept only if stick-sized). Same-coloured sticks are left as
    they are.
    """
    ys, xs = np.nonzero(mask)
    px, py = xs.astype(np.float64), ys.astype(np.float64)
    values = lab[ys, xs].astype(np.float64)
    current = list(rects)
    for _ in range(rounds):
        dist = np.stack([_segment_distance(px, py, r) for r in current])
        colours = []
        for d in dist:
            core = d < 0.3 * width
            colours.append(np.median(values[core], axis=0) if core.sum() >= 3 else values.mean(axis=0))
        spread = max(float(np.linalg.norm(a - b)) for a in colours for b in colours)
        if spread < 15.0:
            return current
        dcol = np.stack([np.linalg.norm(values - c, axis=1) for c in colours])
        cost = (dist / (0.5 * width)) ** 2 + (dcol / 12.0) ** 2
        owner = np.argmin(cost, axis=0)
        current = [_refit(px, py, owner == i, r, length, width, 0.25) for i, r in enumerate(current)]
    return current


def centre_across(mask: U8, rects: list[Rect], width: float) -> list[Rect]:
    """Each box split from one blob (``mask``, 0/255) that another stick crosses, moved
    across its axis to the middle of the blob pixels that are its own: within its length,
    off the crossing stick and nearer its own centre line than a neighbour's alongside.
    Fitted to the cross a blob of crossing sticks makes, a box may lie over one flank of
    its stick and read the mat beside it (held-out venue 34538: a 배 stick under a 등 read
    등 unasked). Boxes no stick crosses are left as split (side by side, the seam decides);
    so is a box with too few pixels of its own, or whose pixels span no stick's width."""
    ys, xs = np.nonzero(mask)
    px, py = xs.astype(np.float64), ys.astype(np.float64)
    lines = [_segment_distance(px, py, r) for r in rects]
    out = []
    for i, r in enumerate(rects):
        crossed = [_turn(o.angle, r.angle) > 30.0 for o in rects]
        if not any(c for j, c in enumerate(crossed) if j != i):
            out.append(r)
            continue
        t = math.radians(r.angle)
        along, across = _in_frame(px, py, r)
        sel = (np.abs(along) < 0.45 * r.length) & (np.abs(across) < width)
        for j in range(len(rects)):
            if j != i:
                # a crossing stick hides a stretch of this one, to beyond its flanks (its own
                # box may be off too); a neighbour alongside, only what lies nearer its line
                sel &= lines[j] > 0.5 * width + 3.0 if crossed[j] else lines[j] > lines[i]
        if sel.sum() < 0.3 * r.length * width:
            out.append(r)
            continue
        lo, hi = np.percentile(across[sel], [2.0, 98.0])
        mid = float(lo + hi) / 2.0
        if not 0.5 * width <= float(hi - lo) + 1.0 <= 1.3 * width or abs(mid) > 0.5 * width:
            out.append(r)
            continue
        out.append(Rect(r.cx - mid * math.sin(t), r.cy + mid * math.cos(t), r.length, r.width, r.angle))
    return out


# two sticks' colours (ΔE) closer than this: where they cross tells nothing of which is on top
STACK_APART = 10.0
# the share of a crossing's pixels that must look like one stick's own colour to put it on top
# (the rest may be shade, the rim or noise); neither stick that much: undecided
STACK_VOTE = 0.7


def stacking(lab: F32, rects: list[Rect], width: float) -> tuple[tuple[int, ...], ...]:
    """Which of two crossing sticks lies on top. Where they cross, the pixels are the top
    stick's: most of them look more like the rest of it than like the rest of the other.

    ``lab`` is the picture in Lab (float, work scale), ``rects`` the sticks' boxes on it.
    ``out[i][j]`` is 1 when stick ``j`` lies on stick ``i``, -1 when it lies under it, and 0
    when their middles do not cross or it cannot be told (sticks alike in colour, or too
    little of either seen apart from the crossing).
    """
    n = len(rects)
    out = [[0] * n for _ in range(n)]
    shape = lab.shape[:2]
    cores = [rect_mask(shape, inner(r, 0.94, 0.6)) > 0 for r in rects]
    # most throws have no crossing: the sticks' own colours only for those that cross
    crossings = [(i, j, cores[i] & cores[j]) for i in range(n) for j in range(i + 1, n)
                 if _boxes_meet(rects[i], rects[j])]
    crossings = [(i, j, c) for i, j, c in crossings if c.sum() >= max(12.0, 0.15 * width * width)]
    if not crossings:
        return tuple(map(tuple, out))
    grown = [rect_mask(shape, Rect(r.cx, r.cy, r.length + 2, r.width * 1.3 + 2, r.angle)) > 0 for r in rects]
    own: dict[int, npt.NDArray[np.float64] | None] = {}

    def own_colour(i: int) -> npt.NDArray[np.float64] | None:
        if i not in own:
            alone = cores[i].copy()
            for j in range(n):
                if j != i:
                    alone &= ~grown[j]
            own[i] = np.median(lab[alone], axis=0) if alone.sum() >= 12 else None
        return own[i]

    for i, j, cross in crossings:
        a, b = own_colour(i), own_colour(j)
        if a is None or b is None or np.linalg.norm(a - b) < STACK_APART:
            continue
        px = lab[cross].astype(np.float64)
        like_i = float((np.linalg.norm(px - a, axis=1) < np.linalg.norm(px - b, axis=1)).mean())
        if like_i > STACK_VOTE:  # the crossing shows stick i: it lies on top
            out[j][i], out[i][j] = 1, -1
        elif 1.0 - like_i > STACK_VOTE:  # it shows stick j
            out[i][j], out[j][i] = 1, -1
    return tuple(map(tuple, out))


def _boxes_meet(a: Rect, b: Rect) -> bool:
    """Whether the boxes' bounding circles meet (a quick test before comparing their pixels)."""
    reach = (math.hypot(a.length, a.width) + math.hypot(b.length, b.width)) / 2.0 + 2.0
    return math.hypot(a.cx - b.cx, a.cy - b.cy) <= reach


def to_full_length(rect: Rect, length: float, fg: npt.NDArray[np.uint8],
                    others: npt.NDArray[np.uint8]) -> Rect | None:
    """``rect`` (work coordinates) grown to the stick's ``length`` at the end where what lies
    beyond it still differs from the empty mat (and is not another stick): a box that
    stops short of the marked end. None when the box is long enough or neither end shows
    more of the stick."""
    short = length - rect.length
    if short < 0.08 * length:
        return None
    t = math.radians(rect.angle)
    ax, ay = math.cos(t), math.sin(t)
    shares = {}
    for sign in (-1, 1):
        off = sign * (rect.length + short) / 2.0
        strip = Rect(rect.cx + ax * off, rect.cy + ay * off, short, rect.width * 0.6, rect.angle)
        m = rect_mask(fg.shape, strip) > 0
        if m.sum() >= 3 and (others[m] > 0).mean() <= 0.2:
            shares[sign] = float((fg[m] > 0).mean())
    if len(shares) < 2:
        return None
    # the stick's wood may look like the mat: only the mark shows beyond the short end, so
    # one end showing clearly more than the other decides
    best = max(shares, key=lambda k: shares[k])
    clear_end = shares[best] >= 0.35 and shares[best] > shares[-best] + 0.1
    if not clear_end and (shares[best] < 0.1 or shares[best] < 2.0 * shares[-best] + 0.03):
        return None
    shift = best * short / 2.0
    return Rect(rect.cx + ax * shift, rect.cy + ay * shift, length, rect.width, rect.angle)


# a stick seen only in part is followed along its axis where at least this share of a strip
# across it is faintly unlike the empty mat (``faint``), and no more than FLANK_FAINT of one
# flank beside it: the stick goes on there, not a patch of light or shade
GROW_FAINT = 0.6
FLANK_FAINT = 0.3


def grow_along(rect: Rect, faint: npt.NDArray[np.bool_], taken: npt.NDArray[np.bool_], length: float,
               width: float) -> Rect:
    """``rect`` (a region much shorter than a stick, work coordinates) drawn out along its axis
    toward a stick's ``length`` while what lies beyond an end looks like more of it.

    A stick little unlike the mat (grey bark on a grey-green felt) clears the segmentation's
    thresholds only in places. Beyond each end, a strip of a twentieth of the length, 0.6 of
    the stick's ``width`` across, joins the stick when ``GROW_FAINT`` of it differs faintly from
    the empty mat (``faint``), one of the strips 1.2 widths to either side is mostly the mat
    (``FLANK_FAINT``; a shadow may lie along the other), and none of it is ``taken`` by
    another region. Both ends grow in turn until neither can, or the stick is whole."""
    t = math.radians(rect.angle)
    ax, ay, nx, ny = math.cos(t), math.sin(t), -math.sin(t), math.cos(t)
    step = max(1.0, 0.05 * length)
    lo, hi = -rect.length / 2.0, rect.length / 2.0
    shape = faint.shape

    def strip(along: float, aside: float) -> npt.NDArray[np.bool_]:
        return rect_mask(shape, Rect(rect.cx + ax * along + nx * aside, rect.cy + ay * along + ny * aside,
                                     step, 0.6 * width, rect.angle)) > 0

    def share(m: npt.NDArray[np.bool_], where: npt.NDArray[np.bool_]) -> float:
        return float(m[where].mean()) if where.any() else 0.0

    open_ends = {-1, 1}
    while open_ends and hi - lo + step <= length:
        for side in sorted(open_ends):
            at = (hi if side > 0 else lo) + side * step / 2.0
            beyond = strip(at, 0.0)
            if share(taken, beyond) > 0.1 or share(faint, beyond) < GROW_FAINT \
                    or min(share(faint, strip(at, 1.2 * width)), share(faint, strip(at, -1.2 * width))) > FLANK_FAINT:
                open_ends.discard(side)
            elif side > 0:
                hi += step
            else:
                lo -= step
            if hi - lo + step > length:
                break
    if (lo, hi) == (-rect.length / 2.0, rect.length / 2.0):
        return rect
    mid = (lo + hi) / 2.0
    return Rect(rect.cx + ax * mid, rect.cy + ay * mid, hi - lo, rect.width, rect.angle)


def _refit(px: npt.NDArray[np.float64], py: npt.NDArray[np.float64], sel: npt.NDArray[np.bool_],
           rect: Rect, length: float, width: float, length_tol: float) -> Rect:
    """``rect`` refitted to the pixels ``sel`` it owns, if they still look like one stick
    (enough pixels, length within ``length_tol``, a plausible width); else ``rect``."""
    if sel.sum() < 0.4 * length * width:
        return rect
    fit = rect_from_min_area(np.stack([px[sel], py[sel]], axis=1).astype(np.float32))
    if abs(fit.length - length) < length_tol * length and 0.55 * width < fit.width < 1.4 * width:
        return fit
    return rect
