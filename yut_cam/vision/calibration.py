"""Calibration of the throw reader from three images taken at the venue.

``calibrate(empty, belly, back)`` learns, under this light and this camera:
the mat's outline (and how far its true edge may lie from a found outline: ``mat_doubt``),
the empty mat (background), the size of a stick, how the flat (배) and round (등) faces
look, and how the 빽도 mark looks (the one belly-up stick that differs at one end; when no
stick does clearly, the calibration carries no mark and says why). The sticks may lie apart
or side by side in a row with a little gap between them, as a referee lays them (a row is
cut into its sticks at the seams; four pressed together are refused). Sticks that differ
little from the mat are looked for again at lower thresholds before the pictures are
refused, and the venue keeps the thresholds that showed them. The result,
:class:`Calibration`, and its file are :mod:`yut_cam.vision.calmodel`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import numpy.typing as npt

from yut_cam.vision import functional as F
from yut_cam.vision.calmodel import Calibration as Calibration
from yut_cam.vision.calmodel import FaceModel as FaceModel
from yut_cam.vision.calmodel import MarkModel, Point
from yut_cam.vision.errors import CalibrationError, ImageError

WORK_WIDTH = 640  # segmentation runs at about this width
SMOOTH_SIGMA = 1.0
PATCH_SIZE = (96, 24)  # every stick is compared at this size (length, width)
STICK_COUNT = 4
# the marked stick's two ends differ by at least this (mean ΔE over an end's most different
# stretch of MARK_PEAK of the length: a mark is small, the rest of the end would dilute it)
# and twice as much as any other stick's: a dot of a fifth of the stick's width does
MARK_ASYMMETRY = 1.5
MARK_PEAK = 0.12
# the mark threshold lies between the marked stick's mark score and the other sticks'
# (geometric mean); other sticks' ends showing nothing at calibration count as this much:
# a speck of shade or dirt at a clean stick's end in a throw is asked about, not read 빽도
MARK_OTHER_FLOOR = 0.03
# the four sticks' spans from tip to tip differ by less than this share of their length
SPAN_SLACK = 0.05
# the thresholds of the segmentation (set by the noise of the pictures) are lowered by these
# shares, in turn, until four sticks show: a low-contrast stick (pink lacquer on straw, a
# striped round face) can lie just under them (held-out venues 34507, 34522: refused with
# four sticks plainly in sight; pale natural sticks on straw under lamps, 1539 and 33501,
# show only at half the thresholds; below that no refused venue of the benches gained)
FAINT_STEPS = (1.0, 0.85, 0.7, 0.6, 0.5)
# a stick picture is refused, naming it, when more than UNLIKE_SHARE of the mat differs from
# the empty picture by UNLIKE_LUM (log brightness) or UNLIKE_CHROMA (colour, %) after the
# light's change is divided out: at most 3.5% in 428 pictures of 214 venues of the three
# renderers (sticks and their shadows), 19-98% for a frame of noise, a colour ramp, the
# camera moved by 40 px or half the picture darkened. Before, such a picture raised the
# noise thresholds of both and the message named whichever then showed fewer sticks
UNLIKE_LUM = 0.1
UNLIKE_CHROMA = 6.0
UNLIKE_SHARE = 0.1


def check_image(image: Any, name: str) -> npt.NDArray[np.uint8]:
    """``image`` as a BGR uint8 array, or :class:`ImageError` naming it."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise ImageError(f"{name}: empty or missing image")
    if image.dtype != np.uint8:
        raise ImageError(f"{name}: expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        image = np.repeat(image[..., None], 3, axis=2)
    if image.ndim != 3 or image.shape[2] not in (3, 4):
        raise ImageError(f"{name}: expected a colour image, got shape {image.shape}")
    if image.shape[2] == 4:
        image = image[..., :3]
    if min(image.shape[:2]) < 32:
        raise ImageError(f"{name}: image of {image.shape[1]}x{image.shape[0]} pixels is too small")
    return np.ascontiguousarray(image)


def work_size_for(image_size: tuple[int, int]) -> tuple[int, int]:
    w, h = image_size
    scale = min(1.0, WORK_WIDTH / w)
    return max(16, int(round(w * scale))), max(16, int(round(h * scale)))


def prepare(image: npt.NDArray[np.uint8], work_size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """The image as segmentation sees it: reduced to ``work_size`` and smoothed."""
    return F.smooth(F.resize_to(image, work_size), SMOOTH_SIGMA)


def _noise_params(d_lum: F.F32, d_chroma: F.F32) -> tuple[float, float]:
    """Thresholds that background noise (sensor, JPEG, weave) stays under.

    From the 95th percentiles of the difference maps of a calibration image against
    the empty mat (the sticks cover far less than 5% of the picture), with floors for
    noiseless pictures.
    """
    p_l = float(np.percentile(np.abs(d_lum), 95))
    p_c = float(np.percentile(d_chroma, 95))
    return max(0.05, 3.0 * p_l), max(1.0, 2.5 * p_c)


def bridge_pieces(mask: npt.NDArray[np.uint8], regions: list[F.Blob], length: float,
                   width: float) -> bool:
    """Join two pieces of one stick (a dark band or mark that looks like the floor cuts a
    stick in two): two small regions that together make one stick-sized rectangle are
    bridged in ``mask``. Returns whether any was."""
    area = length * width
    pieces = [b for b in regions if b.area < 0.8 * area]
    points = []
    for b in pieces:
        ys, xs = np.nonzero(b.mask)
        points.append(np.stack([xs + b.x, ys + b.y], axis=1).astype(np.float32))
    joined = False
    used: set[int] = set()
    for i in range(len(pieces)):
        for j in range(i + 1, len(pieces)):
            if i in used or j in used or pieces[i].area + pieces[j].area > 1.3 * area:
                continue
            r = F.rect_from_min_area(np.concatenate([points[i], points[j]]))
            if abs(r.length - length) < 0.25 * length and r.width < 1.4 * width:
                mask |= F.rect_mask(mask.shape, F.inner(r, 0.9, 0.6))
                used |= {i, j}
                joined = True
    return joined


def _rows(found: list[F.Blob], d_lum: F.F32, d_chroma: F.F32, params: F.SegmentParams) -> list[F.Rect] | None:
    """The four sticks in fewer regions, when some of them lie side by side in a row (a
    referee lays them so, neatly or a little stepped): the four are shared out between the
    regions as their areas say (every stick about as large) and each row is cut into its
    sticks (:func:`functional.split_row`). None when the regions cannot be so read (a stick
    across another, sticks end to end, something else on the mat)."""
    regions = [b for b in found if b.area >= 0.15 * found[0].area] if found else []  # not specks

    def spread(counts: tuple[int, ...]) -> float:  # how unlike in area the sticks would be
        per = [b.area / k for b, k in zip(regions, counts)]
        return max(per) / min(per)

    counts = min(_shares(len(regions), STICK_COUNT), key=spread, default=None)
    if counts is None or spread(counts) > 1.35:
        return None
    strength = np.maximum(np.abs(d_lum) / max(params.lum_threshold, 1e-6),
                          d_chroma / max(params.chroma_threshold, 1e-6)).astype(np.float32)
    rects: list[F.Rect] = []
    for b, k in zip(regions, counts):
        ys, xs = np.nonzero(b.mask)
        xs, ys = xs + b.x, ys + b.y
        row = [F.rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))] if k == 1 else \
            F.split_row(xs, ys, k, strength)
        if row is None:
            return None
        rects += row
    lengths, widths = [r.length for r in rects], [r.width for r in rects]
    if max(lengths) > 1.25 * min(lengths) or max(widths) > 1.5 * min(widths):
        return None
    return rects


def _shares(n: int, total: int) -> list[tuple[int, ...]]:
    """Every way of sharing ``total`` sticks among ``n`` regions, at least one each."""
    if n <= 1:
        return [(total,)] if n == 1 and total >= 1 else []
    return [(k,) + rest for k in range(1, total - n + 2) for rest in _shares(n - 1, total - k)]


def _find_sticks(image: npt.NDArray[np.uint8], background: npt.NDArray[np.uint8],
                 params: F.SegmentParams, name: str, work_size: tuple[int, int],
                 on_mat: npt.NDArray[np.uint8]) -> tuple[list[F.Rect], npt.NDArray[np.float32]]:
    import cv2

    work = prepare(image, work_size)
    radius = max(1, int(round(work_size[0] / 320)))
    mask, gain, d_lum, d_chroma = F.segment(work, background, params, radius, on_mat)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB).astype(np.float32)
    found = F.blobs(mask, min_area=work_size[0] * work_size[1] * 2e-4)
    if len(found) > STICK_COUNT:
        # a painted band across a round face may cut a stick in two: join collinear pieces
        # that together make a stick of the size the largest regions show
        boxes = []
        for b in found[:STICK_COUNT]:
            ys, xs = np.nonzero(b.mask)
            boxes.append(F.rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32)))
        if bridge_pieces(mask, found, max(r.length for r in boxes), float(np.median([r.width for r in boxes]))):
            found = F.blobs(mask, min_area=work_size[0] * work_size[1] * 2e-4)
    if len(found) < STICK_COUNT:
        rows = _rows(found, d_lum, d_chroma, params)
        if rows is None:
            raise CalibrationError(f"{name} image: found {len(found)} stick(s), need exactly {STICK_COUNT} on the mat,"
                                   " lying apart or side by side with a gap between them")
        # cut at the seams: a shadow may lie along a row's outer side, not between its sticks
        least = 0.9 * float(np.median([r.width for r in rows]))
        return [F.peel_shadow(r, lab, d_lum, d_chroma, params, 2.0 * params.shadow_chroma, min_width=least)
                for r in rows], gain
    top = found[:STICK_COUNT]
    med = float(np.median([b.area for b in top]))
    big = [b for b in found if b.area >= 0.35 * med]
    if len(big) != STICK_COUNT or top[-1].area < 0.6 * med or top[0].area > 1.6 * med:
        sizes = ", ".join(str(b.area) for b in found[:8])
        raise CalibrationError(f"{name} image: cannot find exactly {STICK_COUNT} sticks lying apart "
                               f"(found {len(big)} stick-sized regions of {len(found)}, areas {sizes} px);"
                               " lay the four sticks apart and retake it")
    rects = []
    for b in top:
        ys, xs = np.nonzero(b.mask)
        r = F.rect_from_min_area(np.stack([xs + b.x, ys + b.y], axis=1).astype(np.float32))
        if r.length < 2.0 * r.width:
            raise CalibrationError(f"{name} image: a region at ({r.cx / work_size[0] * image.shape[1]:.0f}, "
                                   f"{r.cy / work_size[1] * image.shape[0]:.0f}) is not stick-shaped "
                                   f"({r.length:.0f}x{r.width:.0f} px at work size); are two sticks touching?")
        rects.append(F.peel_shadow(r, lab, d_lum, d_chroma, params, 2.0 * params.shadow_chroma))
    return rects, gain


def calibrate(empty: npt.NDArray[np.uint8], belly: npt.NDArray[np.uint8], back: npt.NDArray[np.uint8],
              mat_polygon: list[Point] | None = None) -> Calibration:
    """Learn a :class:`Calibration` from the empty mat, the four sticks 배 up, and 등 up."""
    empty = check_image(empty, "empty")
    belly = check_image(belly, "belly")
    back = check_image(back, "back")
    size = (empty.shape[1], empty.shape[0])
    for img, name in ((belly, "belly"), (back, "back")):
        if (img.shape[1], img.shape[0]) != size:
            raise CalibrationError(f"{name} image is {img.shape[1]}x{img.shape[0]}, "
                                   f"the empty image {size[0]}x{size[1]}: take all three with the same camera")
    doubt = (0.0, 0.0)
    if mat_polygon is None:
        try:
            outline = F.locate_mat(empty)
            polygon, doubt = outline.polygon, (outline.doubt_in, outline.doubt_out)
        except ValueError as exc:
            raise CalibrationError(f"empty image: cannot find the mat's outline with confidence ({exc});"
                                   " give its corners with --mat") from None
    else:
        if len(mat_polygon) < 3:
            raise CalibrationError(f"mat polygon needs at least 3 corners, got {mat_polygon!r}")
        polygon = F.tapped_outline(mat_polygon, empty)
    work_size = work_size_for(size)
    scale = work_size[0] / size[0]
    background = prepare(empty, work_size)

    on_mat = F.polygon_mask((work_size[1], work_size[0]), polygon, scale)
    # noise of the difference maps, from the background pixels of both stick images, on
    # the mat and (separately: grass, JPEG blocks) on the floor
    lum_t, chroma_t, floor_lum_t, floor_chroma_t = 0.0, 0.0, 0.0, 0.0
    inside = on_mat > 0
    for img, name in ((belly, "belly"), (back, "back")):
        work = prepare(img, work_size)
        if F.flat_colour(work) is not None:
            raise CalibrationError(f"{name} image is blank (one flat colour): retake it")
        gain = F.gain_map(work, background)
        d_lum, d_chroma = F.difference_maps(work, background.astype(np.float32) * gain)
        mat_lum, mat_chroma = d_lum[inside], d_chroma[inside]
        unlike = float(((np.abs(mat_lum) > UNLIKE_LUM) | (mat_chroma > UNLIKE_CHROMA)).mean())
        if unlike > UNLIKE_SHARE:
            raise CalibrationError(f"{name} image: {unlike:.0%} of the mat differs from the empty picture (four"
                                   " sticks cover a few %): has the camera moved, or is something over the mat?"
                                   " Take the three pictures again")
        lt, ct = _noise_params(mat_lum, mat_chroma)
        lum_t, chroma_t = max(lum_t, lt), max(chroma_t, ct)
        if (~inside).sum() > 0.05 * inside.size:
            lt, ct = _noise_params(d_lum[~inside], d_chroma[~inside])
        floor_lum_t, floor_chroma_t = max(floor_lum_t, lt), max(floor_chroma_t, ct)
    params = F.SegmentParams(lum_threshold=lum_t, chroma_threshold=chroma_t,
                             shadow_min=math.log(0.45), shadow_chroma=max(2.0 * chroma_t, 3.0),
                             shadow_suppression=True, floor_lum_threshold=max(lum_t, floor_lum_t),
                             floor_chroma_threshold=max(chroma_t, floor_chroma_t))
    # sticks of nearly the mat's colour stay under thresholds set by the noise alone: look
    # again with lower ones, and keep them for the throws (the sticks there look the same)
    first: CalibrationError | None = None
    for faint in FAINT_STEPS:
        try:
            params, (belly_rects, belly_gain), (back_rects, back_gain) = _sticks(
                belly, back, background, _fainter(params, faint), work_size, on_mat, scale)
            break
        except CalibrationError as exc:
            first = first or exc
    else:
        assert first is not None
        raise first

    if mat_polygon is None:
        _sticks_on_mat(polygon, doubt[1], [("belly", belly_rects), ("back", back_rects)], scale)
    all_rects = belly_rects + back_rects
    length = float(np.median([r.length for r in all_rects])) / scale
    width = float(np.median([r.width for r in all_rects])) / scale
    narrowest = min(float(np.median([r.width for r in rects])) for rects in (belly_rects, back_rects)) / scale

    field = F.illumination(background, on_mat)
    # a belly box that stops short of an end (a dark mark there read as shadow, or wood like
    # the mat): the mark is learned from the whole stick
    work = prepare(belly, work_size)
    d_l, d_c = F.difference_maps(work, background.astype(np.float32) * belly_gain)
    fg = F.foreground_mask(d_l, d_c, params, on_mat)
    differs = F.foreground_mask(d_l, d_c, params._replace(shadow_suppression=False), on_mat)  # a dark mark too
    grown, through = [], []
    for i, r in enumerate(belly_rects):
        others = np.zeros(fg.shape, np.uint8)
        for j, o in enumerate(belly_rects):
            if j != i:
                others |= F.rect_mask(fg.shape, o)
        by_fg = F.to_full_length(r, length * scale, fg, others)
        grown.append(by_fg or r)
        through.append(by_fg or F.to_full_length(r, length * scale, differs, others) or r)
    belly_rects = grown
    def cut(image: npt.NDArray[np.uint8], r: F.Rect, gain: F.F32, across: float | None = None) -> npt.NDArray[np.uint8]:
        # a stick's patch in the calibration light; with ``across``, that width (full px) of it
        box = r.scaled(1 / scale)
        return _patch(image, box if across is None else box._replace(width=across),
                      F.light_at(field, gain, r.cx, r.cy, work_size))

    # the faces as the reader reads them: on a band of the stick's own width along each box
    faces = _face_model([F.face_features(cut(belly, r, belly_gain, width)) for r in belly_rects],
                        [F.face_features(cut(back, r, back_gain, width)) for r in back_rects])
    # the mat's light where the sticks lay (a stick read later is measured so: a change of
    # light over the whole mat since is no doubt about where it lies)
    lights = [float(np.mean(F.light_at(field, None, r.cx, r.cy, work_size))) for r in belly_rects + back_rects]
    faces = dataclasses.replace(faces, lights=(min(lights), max(lights)), saturated=(
        max(F.saturated_fraction(F.stick_patch(belly, F.inner(r.scaled(1 / scale)), PATCH_SIZE)) for r in belly_rects),
        max(F.saturated_fraction(F.stick_patch(back, F.inner(r.scaled(1 / scale)), PATCH_SIZE)) for r in back_rects)))

    def mark_of(rects: list[F.Rect]) -> tuple[MarkModel | None, str, tuple[MarkModel, ...]]:
        # the mark from the belly sticks in these boxes, each against the mat under it; only
        # what differs from the empty mat can be the mark
        return _mark_model([cut(belly, r, belly_gain) for r in rects],
                           [(F.stick_patch(differs, F.inner(r), PATCH_SIZE) > 127).astype(np.uint8) for r in rects],
                           [cut(empty, r, np.ones_like(belly_gain)) for r in rects], [r.length for r in rects])

    # a mark too faint or too small to tell from this picture does not stop the camera
    # reading: the calibration says so, and the reader asks the referee 도 or 빽도
    mark, mark_problem, candidates = mark_of(belly_rects)
    if mark is None and through != grown:
        # a dark glyph at a tip is "shade" to the segmentation, so the box stopped short of it
        # (fresh independent venue 34006: no mark learned, every 빽도 asked). Grown through
        # what differs from the empty mat at all, shade included, the boxes may reach the
        # mark, or only a shadow past a tip (independent 33034: its candidates were lost so):
        # they are used only when they single the mark out
        found, why, _ = mark_of(through)
        if found is not None:
            mark, mark_problem, candidates = dataclasses.replace(found, in_shade=True), why, ()
    return Calibration(image_size=size, mat_polygon=tuple(polygon), work_size=work_size,
                       segment=params, stick_length=length, stick_width=width, narrowest=narrowest, faces=faces,
                       mark=mark, background=background, mat_doubt=doubt, mark_problem=mark_problem,
                       mark_candidates=candidates)


def _fainter(params: F.SegmentParams, share: float) -> F.SegmentParams:
    """``params`` with the mat's thresholds (brightness, colour) at ``share`` of theirs."""
    return params._replace(lum_threshold=share * params.lum_threshold,
                           chroma_threshold=share * params.chroma_threshold)


def _sticks(belly: npt.NDArray[np.uint8], back: npt.NDArray[np.uint8], background: npt.NDArray[np.uint8],
            params: F.SegmentParams, work_size: tuple[int, int], on_mat: npt.NDArray[np.uint8],
            scale: float) -> tuple[F.SegmentParams, tuple[list[F.Rect], F.F32], tuple[list[F.Rect], F.F32]]:
    """The thresholds fitted to the sticks (with the shadow band :func:`_shadow_params` allows)
    and the four sticks found with them in each picture (boxes, gain maps); a
    :class:`CalibrationError` when there are not four alike in both."""
    try:
        belly_rects, _ = _find_sticks(belly, background, params, "belly", work_size, on_mat)
        back_rects, _ = _find_sticks(back, background, params, "back", work_size, on_mat)
    except CalibrationError:
        # sticks whose colour is a darkened mat colour vanish as "shadow": try without
        params = params._replace(shadow_suppression=False)
        belly_rects, _ = _find_sticks(belly, background, params, "belly", work_size, on_mat)
        back_rects, _ = _find_sticks(back, background, params, "back", work_size, on_mat)
    # what "shadow" may mean here: no more than a few percent of the sticks' own pixels
    params = _shadow_params(params, [(belly, belly_rects), (back, back_rects)], background, work_size)
    belly_found = _find_sticks(belly, background, params, "belly", work_size, on_mat)
    back_found = _find_sticks(back, background, params, "back", work_size, on_mat)
    lengths = [r.length for r in belly_found[0] + back_found[0]]
    length = float(np.median(lengths)) / scale
    for name, (rects, _) in (("belly", belly_found), ("back", back_found)):
        for r in rects:
            if abs(r.length / scale - length) > 0.3 * length:
                raise CalibrationError(f"{name} image: a stick of length {r.length / scale:.0f} px differs from"
                                       f" the others ({length:.0f} px): is one stick leaning or covered?")
    return params, belly_found, back_found


def _sticks_on_mat(polygon: list[Point], doubt_out: float, shots: list[tuple[str, list[F.Rect]]],
                   scale: float) -> None:
    """A :class:`CalibrationError` when a stick of the calibration pictures lies wholly off
    the mat's outline found in the empty picture, further than the outline's doubt: the
    referee laid the sticks on the mat, so the outline is not the mat's (a ring printed on
    a banner of nearly the floor's colour was taken for its edge, and sticks on the mat
    beyond it would be read 낙), unless a stick was left off it."""
    outline = np.asarray(polygon, np.float32).reshape(-1, 1, 2)
    for name, rects in shots:
        for r in rects:
            box = r.scaled(1.0 / scale)
            if F.depth_inside(box, outline) < -doubt_out:
                raise CalibrationError(
                    f"{name} image: a stick at ({box.cx:.0f}, {box.cy:.0f}) lies off the mat's outline found in the"
                    " empty image: lay all four sticks on the mat; if they are on it, the outline found is wrong:"
                    " give the mat's corners with --mat")


def _shadow_params(params: F.SegmentParams,
                   shots: list[tuple[npt.NDArray[np.uint8], list[F.Rect]]],
                   background: npt.NDArray[np.uint8], work_size: tuple[int, int]) -> F.SegmentParams:
    """The widest shadow band (darker, same colour) that leaves the sticks themselves alone.

    A shadow darkens the mat without changing its colour; a dark stick (a brown round
    face on a straw mat) can look the same. The band of darkening and colour change
    called shadow is narrowed until at most 5% of the calibration sticks' pixels fall in
    it; if no band qualifies, shadows are not suppressed at all.
    """
    d_l: list[npt.NDArray[np.float32]] = []
    d_c: list[npt.NDArray[np.float32]] = []
    shade: list[npt.NDArray[np.float32]] = []
    lum_t, chroma_t = params.lum_threshold, params.chroma_threshold
    shadow_chroma = max(2.0 * chroma_t, 3.0)
    # the sticks as big as the face that shows them whole: a round face darker at its sides
    # may have lost them to "shadow", and its own narrow box would not show what was lost
    full_l = max(float(np.median([r.length for r in rects])) for _, rects in shots)
    full_w = max(float(np.median([r.width for r in rects])) for _, rects in shots)
    shots = [(image, [F.Rect(r.cx, r.cy, max(r.length, full_l), max(r.width, full_w), r.angle) for r in rects])
             for image, rects in shots]
    for image, rects in shots:
        work = prepare(image, work_size)
        gain = F.gain_map(work, background)
        dl, dc = F.difference_maps(work, background.astype(np.float32) * gain)
        core = np.zeros(dl.shape, np.uint8)
        near = np.zeros(dl.shape, np.uint8)
        body = np.zeros(dl.shape, np.uint8)
        for r in rects:
            core |= F.rect_mask(dl.shape, F.inner(r, 0.85, 0.6))
            body |= F.rect_mask(dl.shape, F.Rect(r.cx, r.cy, r.length + 2, r.width + 2, r.angle))
            near |= F.rect_mask(dl.shape, F.Rect(r.cx, r.cy, r.length + 2 * r.width, 3.0 * r.width, r.angle))
        d_l.append(dl[core > 0])
        d_c.append(dc[core > 0])
        ring = (near > 0) & (body == 0) & (dl < -lum_t)
        shade.append(np.stack([dl[ring], dc[ring]], axis=1))
    dl_all, dc_all = np.concatenate(d_l), np.concatenate(d_c)
    ring_px = np.concatenate(shade)
    if len(ring_px) >= 20:
        # shadows on a coloured mat shift its colour a little (the shade is lit by the room,
        # not the lamp): widen the colour limit to what the sticks' shadows here show
        shadow_chroma = min(max(shadow_chroma, float(np.percentile(ring_px[:, 1], 90)) * 1.2),
                            6.0 * chroma_t)
    shadows = ring_px[ring_px[:, 1] < shadow_chroma, 0]
    # the darkest shadow the sticks cast here, with some room; a soft default without any
    # (two sticks side by side, or one leaning, cast deeper shade than one lying alone)
    deepest = float(np.percentile(shadows, 3)) - 0.25 if len(shadows) >= 20 else math.log(0.6)
    deepest = min(max(deepest, math.log(0.3)), -lum_t - 0.05)
    for chroma_f in (1.0, 0.75, 0.5):
        sc = max(chroma_f * shadow_chroma, chroma_t)
        for low in np.linspace(deepest, -lum_t - 0.05, 6):
            inside = (dl_all > low) & (dl_all < -lum_t) & (dc_all < sc)
            if float(inside.mean()) <= 0.05:
                return params._replace(shadow_min=float(low), shadow_chroma=float(sc),
                                       shadow_suppression=True)
    return params._replace(shadow_suppression=False)


def _patch(image: npt.NDArray[np.uint8], rect: F.Rect, light: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    return F.correct_light(F.stick_patch(image, F.inner(rect), PATCH_SIZE), light)


def _face_model(belly: list[npt.NDArray[np.float64]], back: list[npt.NDArray[np.float64]]) -> FaceModel:
    model = FaceModel.fit([tuple(map(float, x)) for x in belly], [tuple(map(float, x)) for x in back])
    b, k, spread = (np.asarray(v, np.float64) for v in (model.belly, model.back, model.spread))
    separation = float(np.max(np.abs(k - b) / spread))
    if separation < 2.5 or max(model.score(x) for x in belly) >= 0.4 or min(model.score(x) for x in back) <= 0.6:
        raise CalibrationError(
            "belly and back images: the flat (배) and round (등) faces look too much alike under this "
            f"light (best feature separation {separation:.1f}); check the images are 배 up and 등 up")
    return model


Labs = list[npt.NDArray[np.float64]]


def _mark_ends(patches: list[npt.NDArray[np.uint8]], foreground: list[npt.NDArray[np.uint8]],
               mat_patches: list[npt.NDArray[np.uint8]], lengths: list[float] | None = None
               ) -> tuple[Labs, Labs, list[tuple[float, int, int]], list[tuple[int, int]]]:
    """Each belly-up stick's patch in Lab, its body colour, how much its two ends differ
    from that body unequally: (difference in mean ΔE, stick, the more different end), most
    different first, and the columns each stick spans from tip to tip (where a box reaches
    past a tip, the mat ``mat_patches`` shows there, or its shade, or the blurred rim: none
    of it counts as an end). An outline turned a little shows some mat along both ends
    alike, the mark only at one."""
    import cv2

    labs = [cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float64) for p in patches]
    mats = [cv2.cvtColor(p, cv2.COLOR_BGR2LAB).astype(np.float64) for p in mat_patches]
    h, w = labs[0].shape[:2]
    y0, y1 = int(h * 0.25), int(round(h * 0.75))  # middle rows: the long edges may show mat
    bodies = [np.median(lab[y0:y1, int(w * 0.35):int(w * 0.65)].reshape(-1, 3), axis=0) for lab in labs]
    spans = _one_length([F.tip_span(F.stick_shows(lab, mat, body), F.TIP_TRIM)
                         for lab, mat, body in zip(labs, mats, bodies)], w, lengths)
    asym = []
    for i, lab in enumerate(labs):
        lo, hi = spans[i]
        # each column's mean ΔE from the body; an end's is its most different stretch
        prof = (np.linalg.norm(lab[y0:y1, lo:hi] - bodies[i], axis=2) * foreground[i][y0:y1, lo:hi]).mean(axis=0)
        run = max(2, int(round(MARK_PEAK * (hi - lo))))
        an = [float(np.convolve(prof[xs], np.ones(run) / run, mode="valid").max()) if len(prof[xs]) >= run
              else float(prof[xs].mean()) for xs in F.end_slices(hi - lo)]
        asym.append((abs(an[0] - an[1]), i, 0 if an[0] > an[1] else 1))
    asym.sort(reverse=True)
    return labs, bodies, asym, spans


def _one_length(spans: list[tuple[int, int]], w: int, lengths: list[float] | None = None) -> list[tuple[int, int]]:
    """The four sticks' ``spans`` (columns from tip to tip of patches ``w`` wide, cut from
    boxes ``lengths`` px long, all alike if not given) made one length: a set's sticks are.
    A span the tip trim cut more than ``SPAN_SLACK`` of the length shorter than the others'
    (median, in px) lost no rim but a dark mark at its tip, whose colour in chroma is a blend
    of the body with the mat's shade (held-out independent venue 33035: a black X on a
    grey-green stick over a grey mat, trimmed away, and a shadowed end of another stick
    learned as the mark). The columns go back to the end trimmed deeper than the other
    sticks' same end."""
    scale = [1.0] * len(spans) if lengths is None else [length / w for length in lengths]  # px a column
    full = float(np.median([(hi - lo) * k for (lo, hi), k in zip(spans, scale)]))
    heads = float(np.median([lo * k for (lo, _), k in zip(spans, scale)]))
    tails = float(np.median([(w - hi) * k for (_, hi), k in zip(spans, scale)]))
    out = []
    for (lo, hi), k in zip(spans, scale):
        short = int(round((full - (hi - lo) * k) / k))
        if short > SPAN_SLACK * w:
            if lo * k - heads >= (w - hi) * k - tails:
                lo = max(0, lo - short)
            else:
                hi = min(w, hi + short)
        out.append((lo, hi))
    return out


def _mark_model(patches: list[npt.NDArray[np.uint8]], foreground: list[npt.NDArray[np.uint8]],
                mat_patches: list[npt.NDArray[np.uint8]], lengths: list[float] | None = None
                ) -> tuple[MarkModel | None, str, tuple[MarkModel, ...]]:
    """The 빽도 mark learned from the four belly-up sticks' patches (cut from boxes
    ``lengths`` px long) and where each differs from the empty mat (``foreground``, 0/1):
    only such pixels can be the mark, so a box reaching past a stick's end onto the mat
    teaches nothing. → (mark, "", ()); or, when
    the picture cannot tell, (None, why, candidates): the mark as each stick whose ends
    differ clearly would carry it, most different first. The 빽도 the referee confirms (one
    or two) say which one it is (:func:`yut_cam.vision.learning.learn_mark`)."""
    labs, bodies, asym, spans = _mark_ends(patches, foreground, mat_patches, lengths)
    best, stick, end = asym[0]
    second = asym[1][0]
    why = ("belly image: cannot tell which stick carries the 빽도 mark (no stick differs clearly between"
           f" its ends: largest difference {best:.1f}, next stick {second:.1f} ΔE)")
    if best >= MARK_ASYMMETRY and best >= 2.0 * second:
        try:
            return _mark_on(patches, foreground, labs, bodies, spans, stick, end), "", ()
        except CalibrationError as exc:
            why = str(exc)
    candidates = []
    for differ, i, e in asym:
        if differ < MARK_ASYMMETRY:
            break
        try:
            candidates.append(_mark_on(patches, foreground, labs, bodies, spans, i, e))
        except CalibrationError:
            continue
    return None, why, tuple(candidates)


def _mark_on(patches: list[npt.NDArray[np.uint8]], foreground: list[npt.NDArray[np.uint8]],
             labs: list[npt.NDArray[np.float64]], bodies: list[npt.NDArray[np.float64]],
             spans: list[tuple[int, int]], stick: int, end: int) -> MarkModel:
    """The mark as the given end of ``stick`` shows it, with its threshold against the
    other sticks' ends (each read from tip to tip of its body, ``spans``)."""
    h = labs[0].shape[0]
    y0, y1 = int(h * 0.25), int(round(h * 0.75))
    lo, hi = spans[stick]
    xs = F.end_slices(hi - lo)[end]
    px = labs[stick][y0:y1, lo:hi][:, xs].reshape(-1, 3)
    d = np.linalg.norm(px - bodies[stick], axis=1) * foreground[stick][y0:y1, lo:hi][:, xs].reshape(-1)
    strong = px[d > max(8.0, 0.5 * float(np.percentile(d, 95)))]
    if len(strong) < 4:
        raise CalibrationError("belly image: the 빽도 mark is too small to learn its colour")
    mark_lab = strong.mean(axis=0)
    # a stick's mark score: how much more mark-like one end is than the other
    scores = []
    for i, p in enumerate(patches):
        # each stick's ends against the mark as it would look on that stick's body
        a, b = spans[i]
        f0, f1 = F.end_profile(np.ascontiguousarray(p[:, a:b]), bodies[i],
                               F.relative_mark(mark_lab, bodies[stick], bodies[i]),
                               foreground=np.ascontiguousarray(foreground[i][:, a:b]))
        scores.append((abs(f0 - f1), i))
    marked = next(f for f, i in scores if i == stick)
    other = max(f for f, i in scores if i != stick)
    if marked < 2.0 * other or marked < 0.04:
        raise CalibrationError(
            f"belly image: the 빽도 mark is not distinct enough (mark-like share differs by {marked:.2f}"
            f" between the ends of the marked stick, by {other:.2f} on another)")
    threshold = math.sqrt(marked * max(other, MARK_OTHER_FLOOR))
    threshold = min(threshold, 0.5 * marked)
    body = bodies[stick]
    return MarkModel((float(mark_lab[0]), float(mark_lab[1]), float(mark_lab[2])), marked, other, threshold,
                     body_lab=(float(body[0]), float(body[1]), float(body[2])))
