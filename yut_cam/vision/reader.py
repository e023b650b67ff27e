"""Reading one still: where the four sticks lie, which face is up, 빽도 mark, 낙.

Steps (each a function of :mod:`yut_cam.vision.functional`):

1. reduce the image to the calibration's work size, divide out the change of light
   since calibration (gain map measured on the mat itself) and keep the pixels that
   differ from the empty mat in brightness or colour and are not shadow;
2. connected regions; a region holding more than one stick (by its area against the
   calibrated stick size, or by its length/width) is split by fitting that many
   stick-sized rectangles;
3. each stick is cut out at full resolution, brought back to the calibration light, and
   compared to the 배 and 등 faces learned at calibration, leaving out what lies on top of
   it (of two crossing sticks, the one the crossing looks like); 배-up sticks are checked
   at both ends for the 빽도 mark;
4. a stick is on the mat when any part of it lies inside the mat polygon (the outer edge,
   border band included); one nearer the outline than the box and the outline can be
   trusted (half a stick width inside it, a fifth outside, plus the outline's doubt) is
   flagged either way; so is 낙 resting on a region off the mat alone that is unlike a
   stick (much too thin or short). A stick surely off the mat leaves nothing else to ask
   (the throw is 낙) when exactly four stick-like regions were found and none may hold a
   stick more.

Whenever a step is unsure the reading says so (``needs_referee`` and ``reasons``).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from yut_cam.vision import functional as F
from yut_cam.vision.alternatives import Doubts, alternatives
from yut_cam.vision.calibration import PATCH_SIZE, Calibration, bridge_pieces, check_image, prepare
from yut_cam.vision.calmodel import MarkModel
from yut_cam.vision.errors import ImageError
from yut_cam.vision.types import Face, Reading, StickReading, result_of

OFF_MAT_OUTLINE = 2.2  # off the mat, an outline this many widths wide may be one stick and its shadow
NARROW = 0.62  # a region narrower than this share of the stick's width may be a stick on its edge
NARROW_FACE = 0.75  # ... and than this share of what the narrower face showed at calibration
FACE_MARGIN = 0.25  # |score - 0.5| * 2 below this: face unsure
MERGED_FACE_MARGIN = 0.3  # the same for a stick split out of touching sticks
# ... or below this many times the venue's fit error (its own calibration sticks' scores
# strayed that far from 0 and 1: low-contrast sticks); on held-out dev seed 1 this caught 3
# of 7 unflagged errors for 9 more flags in 555 throws
FIT_MARGINS = 3.0
# ... or below this while the venue has learned fewer than YOUNG_STICKS sticks from confirmed
# throws (yut_cam.vision.learning): its face model is then calibration's eight sticks, posed
# in one spot each. Fresh held-out 36 misread faces unasked at three venues in their first
# five throws, at margins 0.32-0.47; replayed on the eleven dev scene seeds (6,675 throws)
# this asked 19 more and caught 2 of 17 unflagged errors. At 0.4: 40 and 3, but the
# in-package bench (10 throws a venue) went from 4.6% to 5.3% flagged
YOUNG_FACE_MARGIN = 0.35
YOUNG_STICKS = 12
# a stick in light this many times brighter or darker than any the face model's sticks were
# seen in (facemodel.FaceModel.lights) has its face asked about: dividing its patch by the
# light there is a guess so far out (a lamp's pool on a glossy mat brightens the mat more
# than the stick). Fresh held-out 61502 (a red printed mat under lamps, all eight
# calibration sticks in one spot): a 배 stick in the pool, 1.3 times the light of any of
# them, read 등 at a 0.8 margin, 개 read 빽도 unasked. On held-out 61, sticks 1.3 times or more
# outside the calibration's light read wrong 14 times in 26, within 1.1 times 1.5%; asking
# past 1.2 asked 2 throws more in 1,800 (held-out 61, independent 61-62) and caught that one.
# A stick a confirmed throw shows was read right makes its light known (learning.learn)
# (docs/reader-history.md, session 47)
LIGHT_OFF = 1.2
GLARE = 0.08  # share of blown-out pixels on a stick that makes its face unsure
# a stick's box reaches up to half a stick width further than the stick (blur, a shadow left
# on it, the top of a round face seen beyond its footprint; measured on both benches: 99% of
# boxes within 0.5 widths), but short of it only where part of the stick went unseen (an end
# lost to a mat of its colour); seen whole, within a fifth of a width (99% of boxes that fell
# short on both benches, the rest were sticks seen only in part). A stick nearer the mat's
# outline than that, plus the outline's own doubt, is read as on or off the mat only after
# the referee looks. 낙 is the costliest misreading either way.
EDGE_IN = 0.5  # inside the outline: the box may reach this far past the stick
EDGE_OUT = 0.2  # outside it: the box of a stick seen whole may stop this far short
# outside an outline the reader found itself (one the referee tapped or confirmed is exact): a border
# band within a few ΔE of the floor's colour can end beyond it with nothing in the empty
# picture to show where (held-out 32510, 33528, 34532: sticks on such a band, 0.5-0.8 widths
# past the outline, read 낙 unasked), so a stick off by less than half a width (beyond the
# outline's doubt) is asked about. On 6,750 throws of 11 scene seeds that also asked about
# 97 true 낙 (docs/reader-history.md, session 29)
EDGE_OUT_FOUND = 0.5
# a stick's region covers at least this share of its box (more than four stick-like regions:
# ones covering less of their boxes count as that much less likely sticks)
SOLID = 0.8
SPLIT_SHORT = 0.2  # a region split into k sticks with less than k minus this many sticks' area
# of more than four stick-like regions, those whose colour (brightness divided out) differs
# from the empty mat's by less than this share of the shadow test's limit are kept last, and
# with exactly four others left not asked about: the rims of a bystander's shade (on held-out
# dev seed 1 the four kept were the four sticks in 86 of 94 such throws, 68 before; in every
# throw with exactly four others left, they were the sticks; 1 real stick in 20 is that
# tintless, and then the throw is asked about)
SHADE_TINT = 0.25
STICK_SHAPED = (0.85, 1.2)  # ... but not a black one with a stick's own length and width (shares of them)
# ... darker than the venue's darkest shadow by this much (log): the two dark sticks left out
# on the dev seeds were 0.12 and 0.6 darker, a dark patch that stays on held-out 32524's mat
# 0.045 darker
BLACK_MARGIN = 0.1
# a region of more than this many sticks' area is no pile of sticks; darker than the empty
# mat by this factor (or more) in every channel, it is shade over the mat
SHADE_AREA = 5.0
SHADE_LIGHT = 0.9
# a stick whose features lie this many spreads (weighted as the face score weighs them) from
# the face it reads as looks like neither face: its box holds shade, the mat's band or part
# of another stick
NOVELTY = 4.0
# a stick split out of touching sticks that reads this far past the round face (its score: 0
# is 배, 1 등, within facemodel.SCORE_RANGE) is darker or more shaded than this venue's 등 sticks
# themselves: its box holds the mat or the shade beside the pair, not a stick's face (fresh
# held-out 52508/9: two 배 sticks crossing at a shallow angle, one box half on the red mat;
# 52519/5: a 배 stick leaning across another; both read 등 at 1.25 unasked, 윷 read 걸). On
# held-out 50 and 51 (1,185 throws) 7 of the 25 split sticks reading so were wrong; on those
# and independent 51 and 52 (2,385) it asks 13 throws more, all read right
PAST_BACK = 1.2
# ... and lies further than this from the round face by its features (spreads, as NOVELTY
# weighs them): a 등 stick in its neighbour's shade reads past the round face too, but
# still looks like one. Of the split sticks reading past it and not already asked about for
# NOVELTY on held-out 50, 52 and 61 (1,800 throws), the 배 ones lay 3.3 and 3.5 spreads
# from it (52508/9, 52519/5), the 등 ones 1.1-3.7, 13 of 15 at most 3; on independent 61 and
# 62 all fourteen 0.8-3.2, and every such throw asked about for it alone (16 there, 5 on
# held-out 61) read right (docs/reader-history.md, session 47)
PAST_BACK_NOVELTY = 3.0
# the two halves of a stick split out of touching sticks scoring this far apart, on either
# side of 0.5: one half carries a neighbour's shadow or edge
HALVES_APART = 0.6
# ... unless the stick reads 배 and its other half reads 등 by less than this (0.5 + it/2):
# shade over part of a flat face dims it toward the round face's look, but only so far; a
# neighbour's round face in the box reads plainly 등 (of the sticks whose halves were asked
# about, those read 배 with the other half below 0.7 were read right: in-package dev seed 5
# 12 of 12, held-out dev seed 1 7 of 8, the eighth asked about for its margin)
SHADE_HALF = 0.4
# the halves of a stick are compared only when this share of each shows (not under another)
HALF_SEEN = 0.3
# a stick split out of touching sticks is read on a narrower band than the face model's sticks
# were (ACROSS_MERGED of its width, not ACROSS: F.inner's default, on which calibration and
# every stick read apart are read), to keep its neighbour out; a narrower band
# takes in less of a round face's shading, so where the faces differ mostly in their shading
# its score drifts toward 배. Read also on the model's band, a score this much apart means
# the face rests on the band: ask (held-out venue 40535, low-contrast sticks: three 등 beside
# or across another read 배 unasked, at margin 0.69-1.0; docs/reader-history.md, session 33)
BAND_SHIFT = 0.5
ACROSS, ACROSS_MERGED = 0.8, 0.65
# a stick lying across another hides it this far (widths of the top stick): its rims and
# its shadow beside it are no part of the face below
TOP_COVER = 1.2
# a gap in a stick's body along its length narrower than this share of its width is a mark
# on it, not another stick across it (own pixels of a stick beside others)
MARK_SPAN = 0.75
# the 빽도 mark is read this share of its box's length past either end of the box, where the
# stick's own body goes on
MARK_REACH = 0.1
# a 배-up stick whose box covers less of a stick's length than this may have its mark in
# the part not seen: a box b stick lengths long reaches MARK_REACH * b past an end, and the
# whole 1 - b may be missing at the marked end (independent 50037/0: a pale stick on straw at
# the mat's edge, its box 87% of a stick's length and shifted off its marked end, read 도
# unasked; it was 0.85)
MARK_BOX_SHARE = 1.0 / (1.0 + MARK_REACH)
# an unmarked-looking end of a 배-up stick less clear of the other sticks than this (share of
# its middle rows) may hide the mark against one: pixels near another stick are read only where
# they show this stick's body (independent 51027/1: a red ring against a dark 등 stick, the end
# 0.77 clear, read 도 unasked; it was 0.7, and 0.8 asked one more of 1,185 dev throws)
MARK_END_SEEN = 0.8
# at a venue whose mark looks like shade to the segmentation (``MarkModel.in_shade``), a
# window the mark is read in that stops this share of a stick's length short of one, at an
# end past which at least MARK_BEYOND of what follows (as far as the stick could reach) looks
# like the mark, may have stopped at the mark itself: a dark glyph at a tip is neither the
# body nor, to the segmentation, the stick (fresh independent venue 34006, 빽도 read 도
# unasked). At other venues a tip's shadow on the mat looks so as often (independent dev
# seed 33: 10 plain 도 throws asked, no 빽도 among them); there a lone 배 stick is asked about
# only when the mark reads on the window read on past a box short of a stick, over the stick's
# own pixels (no shade) of the mark's colour (``_read_marks``)
MARK_SHORT = 0.05
MARK_BEYOND = 0.25
# the lone 배 stick's mark score (times the venue's threshold) within which whether it is the
# marked stick is asked: one apart from the others, and one split out of touching sticks,
# whose end may pick up its neighbour's colour. The bottom was 0.6 until fresh independent
# 56038/12 read its mark at 0.56 (빽도 read 도 unasked); of the lone 배 sticks recorded on
# held-out dev seeds 50-53 and independent 51-54 (4,800 throws), no 빽도 read at 0.3-0.6 and
# three 도 read at 0.5-0.6 (two more read 0.5-0.6 past a short box's tip, ``past_tip``)
MARK_UNSURE = (0.5, 1.5)
MARK_UNSURE_MERGED = (0.4, 2.5)
# an end that reads this many times as mark-like as the marked end did at calibration shows
# more than the mark: something dark of the mark's colour at the end of a plain stick (its
# shade, the mat's dark border under it; fresh held-out 38507/14: a plain stick's end over a
# rope border read 3.4 times the mark, 도 read 빽도 unasked). Of 554 true 빽도 read on the
# dev seeds, those at a mark of a fifth of its end or more read at most 2.3 times; smaller
# marks (38507's was 18%) may read more (independent 34022/12, a 16% mark: 3.2 times, asked)
MARK_GROWN = 3.0
# an end that reads under this share of what the marked end did at calibration shows less than
# the mark: a knot or a speck of the mark's colour at a plain stick's end (fresh independent
# 45015/0 and 45018/8, a dark knot 0.64-0.69 of an X mark; 43004/10, a plain end over the
# mat's red border, 0.36 of a red mark: 도 read 빽도 unasked). Of 453 lone 배 ends read as marked
# unasked on 8 scene seeds, 17 true 빽도 read under it; on 27 seeds run in full (16,005 throws)
# it asked 52 true 빽도 and 4 도 more (docs/reader-history.md, session 35)
MARK_SHRUNK = 0.7
# mark-like pixels at an end that span fewer than this share of the rows across the stick
# lie on a thin line along it, no mark painted across it: a shade's edge or the mat's dark
# rim along a side of a box a little askew (held-out 39532/10 and 40501/10: 도 read 빽도
# unasked, a fifth of the rows and less). Of 642 true 빽도 read on the dev seeds, one spanned
# fewer (36517/8, asked about already), the next a quarter
MARK_ROWS = 0.25
# a stick-like region of more than this many sticks' area holds more than sticks
HUGE_REGION = 6.0
# a picture that differs from the empty mat over more than this share of the mat shows no
# throw: the camera moved or something covers the mat (throws on the benches: at most 2.3%
# in-package, 2.3% on independent venues, 7.2% on held-out ones with a bystander's shade)
UNLIKE_MAT = 0.35
# a region is split into at most this many stick-sized pieces: a bystander's shade over the
# mat's rim of 7.9 sticks' area is told from the sticks piece by piece (held-out 1527/11: cut
# into four, its 낙 read 개 and asked), a frame of noise would be cut into hundreds
MOST_PIECES = 12
# a stick seen only in part is followed where it differs from the empty mat by this share of
# the segmentation's thresholds (stickfit.grow_along)
FAINT = 0.5


@dataclass(frozen=True)
class _Found:
    rect: F.Rect  # work coordinates
    support: float  # blob pixels behind it
    merged: bool = False  # split out of a region holding several sticks
    partial: bool = False  # its region is much shorter than a stick: part of it is lost
    narrow: bool = False  # too narrow for its length: it may stand on its edge
    faint_ends: bool = False  # seen only in part, followed to its ends where it differs faintly from the mat


@dataclass(frozen=True)
class _Regions:
    """The sticks :func:`_find` found in a still."""

    found: list[_Found]  # the four likeliest (or fewer)
    extra: int  # stick-like regions beyond four, left out
    uncounted: bool  # a stick may be missing from the count (fewer than four, a region holding more)


def _find(mask: npt.NDArray[np.uint8], lab: F.F32, diffs: tuple[F.F32, F.F32], cal: Calibration,
          on_mat: npt.NDArray[np.uint8], reasons: list[str]) -> _Regions:
    s = cal.work_scale
    length, width = cal.stick_length * s, cal.stick_width * s
    area = length * width
    found: list[_Found] = []
    uncounted = False  # a stick may be missing from the count
    regions = F.blobs(mask, min_area=0.12 * area)
    if bridge_pieces(mask, regions, length, width):
        regions = F.blobs(mask, min_area=0.12 * area)
    whole = [b for b in regions if b.area >= 0.3 * area]
    # a region of more than HUGE_REGION sticks' area is no sticks alone (the shade of someone
    # by the mat, a bag): when the other regions hold the four sticks, it is left out
    rest = [b for b in whole if b.area <= HUGE_REGION * area]
    if len(rest) < len(whole) and sum(_count(b, length, width, on_mat)[1] for b in rest) == 4:
        whole = rest
    # fragments (a dark stick on a dark floor, half hidden) count only when sticks are missing
    fragments = [b for b in regions if b.area < 0.3 * area]
    regions = whole + fragments[:max(0, 4 - len(whole))]
    small_part = len(reasons)  # where to say how many of them stayed small
    fragments_whole = 0  # fragments followed to a stick's length
    singles, counts, excess = [], [], []
    for b in regions:
        single, k, more = _count(b, length, width, on_mat)
        singles.append(single)
        counts.append(k)
        excess.append(more)
    # four sticks were thrown: while fewer are accounted for, give one more to the region
    # that most looks like holding more than it was given
    by_outline = list(counts)
    while sum(counts) < 4 and regions:
        i = int(np.argmax(excess))
        if excess[i] <= 0.45:
            break
        counts[i] += 1
        excess[i] -= 1.0
    # the four shared out by area may be shared wrong: a region read as one stick that looks
    # like more is asked about while fewer than four are counted, and when another region was
    # split into more sticks than its area holds to make four (held-out 48521/13: a T of two
    # 배 sticks and their shadow, 2.7 sticks' area, split in three, beside two charred 등
    # sticks side by side read as one; 개 read 걸 unasked)
    split_up = any(k >= 2 and b.area / area < k - SPLIT_SHORT for b, k in zip(regions, counts))
    faint: npt.NDArray[np.bool_] | None = None
    for b, single, k, extra, k0 in zip(regions, singles, counts, excess, by_outline):
        ratio = b.area / area
        if k == 1:
            rect = single.shifted(b.x, b.y)
            faint_ends = False
            if rect.length < 0.7 * length and _touches(b, on_mat):
                # seen only in part: follow it where it differs faintly from the mat (not a
                # region wholly off it: that may be no stick, the rim of a bystander's shade,
                # and 낙 rest on it alone)
                if faint is None:
                    loose = cal.segment.scaled(FAINT)._replace(shadow_suppression=False)
                    faint = F.foreground_mask(diffs[0], diffs[1], loose, on_mat) > 0
                grown = F.grow_along(rect, faint, _others(mask.shape, regions, b), length, width)
                faint_ends, rect = grown != rect, grown
                fragments_whole += b.area < 0.3 * area and rect.length >= 0.7 * length
            if rect.width > 1.1 * width:
                rect = F.peel_shadow(rect, lab, diffs[0], diffs[1], cal.segment,
                                     2.0 * cal.segment.shadow_chroma, min_width=0.95 * width)
            # a stick on its edge shows half its width or less (its shadow beside it); lying
            # flat, about what the narrower face showed at calibration (a pale 배 stick on a
            # pale mat loses its rims: in-package seed 5, 3 throws asked about 배 sticks lying
            # flat at 0.6 of the median width, 0.8-0.9 of the 배 sticks' at calibration)
            narrow = single.width < min(NARROW * width, NARROW_FACE * cal.lying_width * s) \
                and single.length > 0.7 * length
            if not narrow and extra > 0.3 and (sum(counts) < 4 or split_up):
                reasons.append(f"a region of {ratio:.1f} sticks' area read as one stick")
                uncounted = True
            found.append(_Found(rect, float(b.area), partial=rect.length < 0.7 * length, narrow=narrow,
                                faint_ends=faint_ends))
            continue
        rects, explained = F.fit_rectangles(b.mask, k, length, width)
        bh, bw = b.mask.shape
        rects = F.split_by_colour(lab[b.y:b.y + bh, b.x:b.x + bw], b.mask, rects, length, width)
        rects = F.centre_across(b.mask, rects, width)
        if explained < 0.88 or ratio - k > 0.45 or ratio < k - 0.75:
            reasons.append(f"{k} sticks merged beyond clean separation "
                           f"({explained:.0%} of the region explained, {ratio:.1f} sticks of area)")
            uncounted = True
        elif k > k0 and _doubled(rects, width, 90.0):
            # only the count of four split it, into two boxes on one place (at any angle: two
            # sticks crossing at their middles would have an outline wider than one stick's):
            # the region may as well be one stick with its shadow, and the missing stick lost
            # elsewhere (off the mat, taken for shade)
            reasons.append(f"a region of {ratio:.1f} sticks' area with {k0} stick(s)' outline"
                           f" split into {k} to make four")
        elif _doubled(rects, width):
            # two parallel sticks side by side are a width apart; boxes on one place are a split
            # that went wrong (one box astride the seam between them) or one stick over another
            reasons.append(f"{k} touching sticks: two of the boxes they were split into lie on one place,"
                           " the split is unsure")
        for r in rects:
            found.append(_Found(r.shifted(b.x, b.y), float(b.area) / k, merged=True))
    short = len(regions) - len(whole) - fragments_whole
    if short:
        reasons.insert(small_part, f"{short} stick(s) seen only in small part")
    if len(found) < 4:
        reasons.append(f"only {len(found)} stick(s) found")
        uncounted = True
    if len(found) > 4:
        # a region of the empty mat's colour, only darker or lighter, is the rim of a shade
        # more likely than a stick: with exactly four of a stick's colour, those are read
        shade = [_shade_like(mask, diffs[1], f.rect, cal) for f in found]
        # ... unless one of those of the mat's colour is a black stick: it darkens the mat
        # without tinting it (held-out 33534/12: a charred 등 stick left out for a stick and its
        # shadow split in two, 걸 read 윷 unasked; 1522/9: a dark 등 stick left out, read right
        # by chance)
        black = any(sh and _black_stick(f, mask, diffs[0], cal, length, width) for sh, f in zip(shade, found))
        if shade.count(False) != 4 or black:
            reasons.append(f"{len(found)} stick-like regions, expected 4 (kept the 4 likeliest)")
        # a stick fills its box; specks of noise along the rim of a shadow, joined into one
        # region, do not, whatever their area
        order = sorted(range(len(found)), key=lambda i: (shade[i], -found[i].support
                                                         * min(1.0, _density(mask, found[i].rect) / SOLID)))
        return _Regions([found[i] for i in order[:4]], len(found) - 4, uncounted)
    return _Regions(found, 0, uncounted)


def _others(shape: tuple[int, ...], regions: list[F.Blob], b: F.Blob) -> npt.NDArray[np.bool_]:
    """The pixels of the ``regions`` other than ``b`` (specks too small to be a region left out)."""
    out = np.zeros(shape[:2], bool)
    for o in regions:
        if o is not b:
            h, w = o.mask.shape
            out[o.y:o.y + h, o.x:o.x + w] |= o.mask > 0
    return out


def _touches(b: F.Blob, on_mat: npt.NDArray[np.uint8]) -> bool:
    """Whether region ``b`` has a pixel on the mat."""
    h, w = b.mask.shape
    return bool((on_mat[b.y:b.y + h, b.x:b.x + w][b.mask > 0] > 0).any())


def _count(b: F.Blob, length: float, width: float, on_mat: npt.NDArray[np.uint8]) -> tuple[F.Rect, int, float]:
    """A region's outline, how many sticks it holds, and how much more than that it looks."""
    ys, xs = np.nonzero(b.mask)
    single = F.rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))
    ratio = b.area / (length * width)
    # one stick's outline (with its shadow, if that was not suppressed) is one stick,
    # whatever its area; otherwise the area says how many. Off the mat a stick keeps its
    # shadow beside it (shade is told from the mat's look, not the floor's): as wide as two
    # (in-package seed 5: four 낙 throws asked about for a fifth region, a stick on the floor
    # split from its shadow)
    off = not _touches(b, on_mat)
    # (and never more than MOST_PIECES: a region of far more is something else, and fitting
    # that many sticks into it took minutes)
    k = 1 if single.length < 1.3 * length and single.width < (OFF_MAT_OUTLINE if off else 1.7) * width \
        else min(MOST_PIECES, max(2, int(round(ratio))))
    # how much more than k sticks the region looks: by area, and by its outline
    return single, k, max(ratio - k, single.width / width - 1.0 - 0.35 if k == 1 else 0.0,
                          single.length / length - 1.0 - 0.25 if k == 1 else 0.0)


def _density(mask: npt.NDArray[np.uint8], rect: F.Rect) -> float:
    """The share of ``rect`` (work scale) that ``mask`` covers."""
    box = F.rect_mask(mask.shape, rect) > 0
    return float((mask[box] > 0).mean()) if box.any() else 0.0


def _shade_like(mask: npt.NDArray[np.uint8], d_chroma: F.F32, rect: F.Rect, cal: Calibration) -> bool:
    """Whether the region in ``rect`` (work scale) keeps the empty picture's colour there (the
    mat's, or the floor's off it), brightness divided out (median below SHADE_TINT of the
    shadow test's limit)."""
    px = _pixels(mask, rect)
    return bool(px.any()) and float(np.median(d_chroma[px])) < SHADE_TINT * cal.segment.shadow_chroma


def _pixels(mask: npt.NDArray[np.uint8], rect: F.Rect) -> npt.NDArray[np.bool_]:
    """The pixels of ``mask`` within ``rect`` (work scale)."""
    return (F.rect_mask(mask.shape, rect) > 0) & (mask > 0)


def _black_stick(found: _Found, mask: npt.NDArray[np.uint8], d_lum: F.F32, cal: Calibration,
                 length: float, width: float) -> bool:
    """Whether ``found`` (a region of the mat's colour, brightness divided out) may be a black
    stick all the same: a region of its own with a stick's length and width (within
    STICK_SHAPED of the calibrated stick's) clearly darker than any shadow at this venue (the
    median of its pixels BLACK_MARGIN below the shadow test's darkest). What shade leaves is
    shadow-dark at most, and light spilt beside a shade's rim is lighter than the mat
    (held-out 1534: two such regions with a stick's outline)."""
    r, (lo, hi) = found.rect, STICK_SHAPED
    if found.merged or found.partial or not (lo <= r.length / length <= hi and lo <= r.width / width <= hi):
        return False
    px = _pixels(mask, r)
    return bool(px.any()) and float(np.median(d_lum[px])) < cal.segment.shadow_min - BLACK_MARGIN


def _doubled(rects: list[F.Rect], width: float, turn_limit: float = 15.0) -> bool:
    """Whether two of ``rects`` lie on one place (centres within 0.6 widths, turned less than
    ``turn_limit`` degrees from each other)."""
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            turn = abs((a.angle - b.angle + 90.0) % 180.0 - 90.0)
            if math.hypot(a.cx - b.cx, a.cy - b.cy) < 0.6 * width and turn < turn_limit:
                return True
    return False


def _orphan_shade(mask: npt.NDArray[np.uint8], differs: npt.NDArray[np.uint8], cal: Calibration,
                  radius: int) -> npt.NDArray[np.uint8]:
    """Regions the shadow test took out whole that are one stick's size and shape (with the
    shadow it casts) and touch nothing that could cast them: a stick darker than the ground
    with nearly its colour (a grey stick on a beige floor), not a shadow. A stick's own
    shadow lies against it; a bystander's is far larger than a stick. ``differs`` is what
    differs from the empty mat at all (no shadow test)."""
    out = np.zeros_like(mask)
    if not cal.segment.shadow_suppression:
        return out
    s = cal.work_scale
    length, width = cal.stick_length * s, cal.stick_width * s
    every = F.clean_mask(differs, radius)
    for b in F.blobs(every, min_area=0.4 * length * width):
        if b.area > 2.5 * length * width:
            continue
        bh, bw = b.mask.shape
        if (mask[b.y:b.y + bh, b.x:b.x + bw][b.mask > 0] > 0).any():
            continue  # part of it differs from the ground by more than shade: not orphaned
        ys, xs = np.nonzero(b.mask)
        r = F.rect_from_min_area(np.stack([xs, ys], axis=1).astype(np.float32))
        if 0.6 * length < r.length < 1.35 * length and 0.5 * width < r.width < 2.4 * width:
            out[b.y:b.y + bh, b.x:b.x + bw] |= b.mask
    return out


def _relight_shade(work: npt.NDArray[np.uint8], cal: Calibration, mask: npt.NDArray[np.uint8], gain: F.F32,
                   diffs: tuple[F.F32, F.F32], on_mat: npt.NDArray[np.uint8],
                   radius: int) -> tuple[npt.NDArray[np.uint8], F.F32, F.F32, F.F32]:
    """A region larger than the four sticks together cannot be sticks alone: where it is
    darker than the empty mat (a bystander's shadow over the mat, a cloud's edge), the light
    there is measured pixel by pixel (the ratio to the empty mat, median-filtered over more
    than a stick's length) and the picture is compared with the empty mat in that light, so
    the sticks lying in the shade stand out and the shade itself does not."""
    area = cal.stick_length * cal.stick_width * cal.work_scale ** 2
    big = F.blobs(mask, min_area=SHADE_AREA * area)
    if not big:
        return mask, gain, diffs[0], diffs[1]
    gain = gain.copy()
    expected = cal.background.astype(np.float32) * gain
    # the light in the shade, pixel by pixel: the ratio to the empty mat, median-filtered over
    # more than a stick's length (a stick is thin, the median passes over it), at quarter size
    ratio = np.clip((work.astype(np.float32) + 1.0) / (expected + 1.0) * 128.0, 0, 255).astype(np.uint8)
    h, w = ratio.shape[:2]
    small = cv2.resize(ratio, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    k = int(cal.stick_length * cal.work_scale / 4 * 1.5) | 1
    local = cv2.resize(cv2.medianBlur(small, max(3, min(k, 255))), (w, h), interpolation=cv2.INTER_LINEAR)
    local_f = local.astype(np.float32) / 128.0
    changed = False
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 5, 2 * radius + 5))
    for b in big:
        bh, bw = b.mask.shape
        inside = b.mask > 0
        crop = (slice(b.y, b.y + bh), slice(b.x, b.x + bw))
        light = np.median(ratio[crop][inside].astype(np.float32) / 128.0, axis=0)
        if float(light.max()) > SHADE_LIGHT:
            continue  # not shade: something large on the mat; the reader doubts it as it is
        seed = np.zeros(mask.shape, np.uint8)
        seed[crop][inside] = 1
        region = cv2.dilate(seed, grow) > 0  # with its soft edge
        gain[region] *= local_f[region]
        changed = True
    if not changed:
        return mask, gain, diffs[0], diffs[1]
    d_lum, d_chroma = F.difference_maps(work, cal.background.astype(np.float32) * gain)
    mask = F.clean_mask(F.foreground_mask(d_lum, d_chroma, cal.segment, on_mat), radius)
    return mask, gain, d_lum, d_chroma


def edge_call(depth: float, reach: float, stick_width: float, doubt: tuple[float, float],
              off_seen: float = 0.0) -> tuple[bool, str]:
    """Whether a stick is surely off the mat, and what to ask the referee about it ("" if
    nothing), from its box's ``depth`` inside the mat's outline (px, < 0 outside), how deep
    the whole stick could ``reach`` (its box drawn out to a stick's length), the outline's
    ``doubt`` (inside, outside; none when the referee gave the outline or confirmed it) and ``off_seen``, how
    far beyond a found outline the referee has confirmed a stick off the mat (0: not yet)."""
    doubt_in, doubt_out = doubt
    off_by = (EDGE_OUT_FOUND if doubt_out > 0.0 else EDGE_OUT) * stick_width + doubt_out
    if 0.0 <= depth < EDGE_IN * stick_width + doubt_in:
        return False, f"at the mat's edge ({depth:.0f} px inside its outline), check it touches the mat"
    if depth < 0.0 and reach > -off_by:
        # no border band goes on past the outline as far as where a stick was confirmed off
        # (Calibration.mat_off_seen): a stick as far out is off, as at an outline tapped
        if off_seen > 0.0 and reach <= -max(off_seen, EDGE_OUT * stick_width + doubt_out):
            return True, ""
        return False, f"just off the mat ({-depth:.0f} px from its outline), check it does not touch the mat"
    return reach <= -off_by, ""


def read_image(image_bgr: npt.NDArray[np.uint8], calibration: Calibration) -> Reading:
    """Read the throw in one still (BGR, the camera's full resolution)."""
    cal = calibration
    image = check_image(image_bgr, "image")
    h, w = image.shape[:2]
    cw, ch = cal.image_size
    back_scale = 1.0
    if (w, h) != (cw, ch):
        if abs(w / h - cw / ch) > 0.01 * (cw / ch):
            raise ImageError(f"image is {w}x{h} but the calibration is for {cw}x{ch} (another aspect"
                             " ratio): calibrate this camera mode")
        back_scale = w / cw
        image = np.asarray(cv2.resize(image, (cw, ch), interpolation=cv2.INTER_AREA if w > cw
                                      else cv2.INTER_LINEAR), np.uint8)
    reasons: list[str] = []
    s = cal.work_scale
    work = prepare(image, cal.work_size)
    flat = F.flat_colour(work)
    if flat is not None:
        raise ImageError(f"image is blank (one flat colour, mean {flat:.0f})")
    radius = max(1, int(round(cal.work_size[0] / 320)))
    on_mat = cal.mat_mask
    mask, gain, d_lum, d_chroma = F.segment(work, cal.background, cal.segment, radius, on_mat)
    mask, gain, d_lum, d_chroma = _relight_shade(work, cal, mask, gain, (d_lum, d_chroma), on_mat, radius)
    fg_raw = F.foreground_mask(d_lum, d_chroma, cal.segment, on_mat)  # before cleaning: thin marks kept
    # what differs from the empty mat at all: a dark mark passes the shadow test, the mat does not
    differs = F.foreground_mask(d_lum, d_chroma, cal.segment._replace(shadow_suppression=False), on_mat)
    mask = mask | _orphan_shade(mask, differs, cal, radius)
    changed = float((mask[on_mat > 0] > 0).mean()) if on_mat.any() else 0.0
    if changed > UNLIKE_MAT:
        raise ImageError(f"{changed:.0%} of the mat differs from the empty mat: has the camera moved, or is"
                         " something over the mat? (if the camera moved, calibrate again)")
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB).astype(np.float32)
    regions = _find(mask, lab, (d_lum, d_chroma), cal, on_mat, reasons)
    found = regions.found
    whole_doubt = bool(reasons)  # which regions are the four sticks is in doubt

    scene = _Scene(image, cal, found, mask, gain, cal.mat_light, fg_raw, differs, d_chroma,
                   np.asarray(cal.mat_polygon, np.float32).reshape(-1, 1, 2), back_scale,
                   F.stacking(lab, [f.rect for f in found], cal.stick_width * s),
                   tuple(_cover((mask.shape[0], mask.shape[1]), f.rect) for f in found))
    per = [_read_stick(scene, i) for i in range(len(found))]
    sticks = [p.reading for p in per]
    face_doubts: list[str] = []  # doubts that do not matter once a stick is surely off the mat
    open_faces = {i for i, p in enumerate(per) if p.doubts}  # sticks whose face may be the other one
    open_edges = {i for i, p in enumerate(per) if p.edge}  # sticks that may lie on or off the mat the other way
    for i, p in enumerate(per):
        face_doubts += p.doubts
        if p.edge:
            reasons.append(f"stick {i + 1}: {p.edge}")
    # a stick is surely off the mat, and surely a stick
    surely_off = any(p.off and not p.unlike for p in per)
    if surely_off and not regions.extra and not regions.uncounted:
        # the throw is 낙 whatever the other sticks show: their faces, the mark, another stick
        # at the mat's edge, how a region was split no longer matter. Not so when there were
        # more stick-like regions than four, nor when a stick may be missing from the count:
        # a stick on the mat may have gone unseen, and what lies off it be something else (on
        # fresh held-out seed 24, a dark stick on a dark ring went unseen and pieces of a
        # bystander's shade beside the mat stood for it; on held-out dev seed 1, 16 of 19
        # throws read 낙 for too few sticks found were no 낙)
        reasons, whole_doubt, open_edges = [], False, set()
    unlike_off = [p.unlike for p in per if p.unlike]  # sticks surely off the mat that may be no stick
    # one set has one marked stick: the most mark-like 배-up stick, if it is mark-like enough
    marks = [p.mark for p in per]
    if sticks and cal.mark is not None and max(marks) >= cal.mark.threshold:
        best = int(np.argmax(marks))
        sticks[best] = dataclasses.replace(sticks[best], marked=True)
    bellies = [i for i, st in enumerate(sticks) if st.face == "배"]
    mark_doubt = _mark_doubt(bellies[0], per[bellies[0]], found[bellies[0]].merged, cal) if len(bellies) == 1 else ""
    if mark_doubt:
        face_doubts.append(mark_doubt)
    if unlike_off and not surely_off:
        # 낙 rests on regions that may be no stick alone: whether it is 낙 is in doubt, and
        # if it is not, the faces decide (their doubts follow)
        reasons.extend(unlike_off)
        whole_doubt = True
    if not surely_off:
        reasons.extend(face_doubts)
    result = result_of(sticks)
    confidence = min([st.confidence for st in sticks] + [1.0])
    if reasons:
        confidence = min(confidence, 0.6)
    # what else the throw may be, for the referee to choose among (none when a stick is
    # surely off the mat: the faces and the mark no longer matter)
    doubts = Doubts(frozenset(() if surely_off else open_faces), frozenset(open_edges),
                    bool(mark_doubt) and not surely_off, whole_doubt)
    maybe = alternatives(sticks, result, doubts, [p.margin for p in per]) if reasons else ()
    return Reading(result=result, confidence=round(float(confidence), 3), needs_referee=bool(reasons),
                   sticks=tuple(sticks), reasons=tuple(reasons), alternatives=maybe)


class _Cover(NamedTuple):
    """What one stick hides of the others, as 0/255 masks at work size: drawn once a read,
    each stick's face is read with the others' (four sticks, three others each)."""

    middle: npt.NDArray[np.uint8]  # its middle (which lies on top unknown)
    on_top: npt.NDArray[np.uint8]  # lying on another: to its rims and beyond (its shadow)
    near: npt.NDArray[np.uint8]  # its box and a pixel round it


def _cover(shape: tuple[int, int], rect: F.Rect) -> _Cover:
    return _Cover(F.rect_mask(shape, F.inner(rect, 1.0, 0.8)),
                  F.rect_mask(shape, rect._replace(width=rect.width * TOP_COVER)),
                  F.rect_mask(shape, F.Rect(rect.cx, rect.cy, rect.length + 2, rect.width + 2, rect.angle)))


@dataclass(frozen=True)
class _Scene:
    """What reading one stick of a still needs (work-size maps unless said)."""

    image: npt.NDArray[np.uint8]  # full size, the calibration's
    cal: Calibration
    found: list[_Found]
    mask: npt.NDArray[np.uint8]  # the sticks' pixels
    gain: F.F32  # the change of light since calibration
    field: F.F32  # the mat's illumination at calibration (small)
    fg_raw: npt.NDArray[np.uint8]  # foreground before cleaning (thin marks kept)
    differs: npt.NDArray[np.uint8]  # what differs from the empty mat at all
    d_chroma: F.F32  # how the colour differs from the empty picture's, brightness divided out
    mat: npt.NDArray[np.float32]  # the mat's outline, full size, for cv2.pointPolygonTest
    back_scale: float  # full size -> the image's own size
    above: tuple[tuple[int, ...], ...]  # above[i][j]: 1 if stick j lies on stick i, -1 under it, 0 not known
    covers: tuple[_Cover, ...]  # what each stick hides of the others (work size)


@dataclass(frozen=True)
class _StickRead:
    """One stick as read, with what the reading of the whole throw needs from it."""

    reading: StickReading
    margin: float  # how clear its face is, 0-1
    mark: float  # how much more one end looks like the 빽도 mark than the other (배 up, the venue's mark)
    end_seen: float  # the visible share of its less visible end
    faint_ends: bool  # its ends were found where it differs only faintly from the mat
    box_share: float  # 배 up, the venue's mark: how much of a stick's length the mark was read on
    beyond: float  # 배 up, the venue's mark: how mark-like what lies past a window short of a stick is
    lightness: float  # 배 up, the venue's mark: lightness against the marked stick's at calibration
    mark_rows: float  # 배 up, the venue's mark: the share of rows across the stick mark-like at its more marked end
    past_tip: float  # 배 up, the venue's mark: its score read on past a box short of a stick (_Marks.past_tip)
    doubts: tuple[str, ...]  # about its face (moot once a stick is surely off the mat)
    edge: str  # what to ask about it lying on or off the mat ("" if nothing)
    off: bool  # surely off the mat
    unlike: str  # surely off the mat, but it may be no stick: what to ask ("" if nothing)


def _read_stick(scene: _Scene, i: int) -> _StickRead:
    """Read stick ``i`` of ``scene.found``: its face, how like the 빽도 mark its ends are, and
    where it lies against the mat's outline."""
    cal, f, image, mask = scene.cal, scene.found[i], scene.image, scene.mask
    s = cal.work_scale
    rect = f.rect.scaled(1.0 / s)
    # the mark, and which ends lie clear of the other sticks, are read on the box no
    # wider than a stick
    face_rect = rect._replace(width=min(rect.width, 1.05 * cal.stick_width))
    # a stick split out of touching sticks is read on a narrower band along its middle
    across = ACROSS_MERGED if f.merged else ACROSS
    light = F.light_at(scene.field, scene.gain, f.rect.cx, f.rect.cy, cal.work_size)  # on this stick
    # the mat's light here at calibration: where on the mat it lies against the face model's
    # sticks (a change of light since, over the whole mat, is measured on the mat around it)
    mat_light = F.light_at(scene.field, None, f.rect.cx, f.rect.cy, cal.work_size)
    others = np.zeros(mask.shape, np.uint8)  # the other sticks' middles
    cover = np.zeros(mask.shape, np.uint8)  # what hides this stick's face
    near = np.zeros(mask.shape, np.uint8)
    for j, o in enumerate(scene.covers):
        if j != i:
            others |= o.middle
            # a stick lying on this one hides it to its rims and beyond (its shadow); one
            # lying under it hides nothing; which lies on top unknown, its middle alone
            on_top = scene.above[i][j]
            if on_top > 0:
                cover |= o.on_top
            elif on_top == 0:
                cover |= o.middle
            near |= o.near
    raw, patch, valid = _face_band(image, rect, cal, across, light, cover)
    clear = (F.stick_patch(np.ascontiguousarray(near), F.inner(face_rect.scaled(s), 0.94, across), PATCH_SIZE)
             < 64).astype(np.uint8)
    visible = float(valid.mean())
    features = F.face_features(patch, valid)
    score = cal.faces.score(features)
    face: Face = "등" if score > 0.5 else "배"
    margin = min(1.0, abs(score - 0.5) * 2.0)
    doubts: list[str] = []
    band_doubt = ""  # its face rests on the band it is read on
    if f.merged:
        _, wide, wide_valid = _face_band(image, rect, cal, ACROSS, light, cover)
        wide_score = cal.faces.score(F.face_features(wide, wide_valid))
        if abs(wide_score - score) > BAND_SHIFT:
            band_doubt = (f"stick {i + 1}: face unsure (it reads {score:.2f} along its middle, "
                          f"{wide_score:.2f} across more of its width)")
    novelty = cal.faces.novelty(features, face == "등")
    if novelty > NOVELTY:
        doubts.append(f"stick {i + 1}: looks like neither face ({novelty:.1f} spreads from {face})")
    elif f.merged and score >= PAST_BACK and novelty > PAST_BACK_NOVELTY:
        doubts.append(f"stick {i + 1}: looks like neither face (it reads {score:.2f}, past the round face, "
                      f"{novelty:.1f} spreads from it: the mat or a shade in its box)")
    part = f"{f.rect.length / (cal.stick_length * s):.0%} of a stick's length"  # how much of it was seen
    if f.partial:
        doubts.append(f"stick {i + 1}: seen only in part ({part})")
    if f.merged:
        half = PATCH_SIZE[0] // 2
        parts = [F.face_features(np.ascontiguousarray(patch[:, a:b]), np.ascontiguousarray(valid[:, a:b]))
                 for a, b in ((0, half), (half, PATCH_SIZE[0]))]
        halves = [cal.faces.score(x) for x in parts]
        # a half that disagrees with the stick but looks like neither face is shade on it
        # (a crossing stick's shadow darkens a 배 half); one that looks like the other
        # face may hold part of a neighbour split badly from it
        other_face = all(cal.faces.novelty(x, sc > 0.5) <= NOVELTY for x, sc in zip(parts, halves)
                         if (sc > 0.5) != (face == "등"))
        shade_on_belly = face == "배" and max(halves) < 0.5 + SHADE_HALF / 2
        # a half mostly under another stick is read on the few pixels beside it: no sign
        seen = min(float(valid[:, a:b].mean()) for a, b in ((0, half), (half, PATCH_SIZE[0])))
        if (halves[0] > 0.5) != (halves[1] > 0.5) and abs(halves[0] - halves[1]) > HALVES_APART and other_face \
                and not shade_on_belly and seen >= HALF_SEEN:
            doubts.append(f"stick {i + 1}: its two halves read as different faces "
                          f"({halves[0]:.2f}, {halves[1]:.2f}): shade or a neighbour on it")
    conf = 0.5 + 0.5 * min(1.0, margin / 0.6)
    # a stick split out of touching sticks may carry some of its neighbour: ask more
    young = cal.faces.learned_count < YOUNG_STICKS
    light_level = float(np.mean(mat_light))
    light_off = cal.faces.light_off(light_level)
    if light_off > LIGHT_OFF and not band_doubt:
        conf = min(conf, 0.6)
        brighter = "brighter" if light_level > cal.faces.lights[1] else "darker"
        doubts.append(f"stick {i + 1}: face unsure (in light {light_off:.1f} times {brighter} than the faces were"
                      " learned in)")
    elif band_doubt or margin < max(MERGED_FACE_MARGIN if f.merged else FACE_MARGIN,
                                  YOUNG_FACE_MARGIN if young else 0.0, FIT_MARGINS * cal.faces.fit_error):
        # one question about the face (the band's says why; its margin on one band says nothing)
        conf = min(conf, 0.6) if band_doubt else conf
        doubts.append(band_doubt or f"stick {i + 1}: face unsure (margin {margin:.2f})")
    elif face == "등":
        # a dark band along one side only may be no part of the face: a shadow the box took
        # in beside a pale 배 stick whose far rim was lost to a mat of its colour (held-out
        # venue 27514, a straw mat in sun: three 배 sticks read 등 unasked). Read without it,
        # a round face still shows its shading; a flat one shows flat
        rest = F.dark_side(patch, valid)
        if rest is not None and cal.faces.score(F.face_features(patch, rest)) < 0.5:
            doubts.append(f"stick {i + 1}: a dark band along one side, without it the face reads 배")
    if visible < 0.3 or (visible < 0.5 and margin < 0.5):
        conf = min(conf, 0.6)
        doubts.append(f"stick {i + 1}: mostly covered by another stick")
    # blown-out pixels beyond what this face showed at calibration (a light flat face
    # may clip in bright light and still read clearly): doubt the face when it is not
    # clear, or when it reads as the round (dark) face. Only on what shows of it: a light
    # stick lying across a dark one clipped, not the dark one (in-package seed 5, 50 throws
    # a venue: 8 touching throws asked about for 'glare' alone, each a 등 stick crossed by a 배)
    sat = F.saturated_fraction(raw, valid)
    usual = cal.faces.saturated[0 if face == "배" else 1]
    glare = sat > GLARE and sat > usual + 0.1 and (margin < 0.6 or face == "등")
    if glare:
        conf = min(conf, 0.5)
        doubts.append(f"stick {i + 1}: glare over the stick")
    # a stick seen whole, apart from the others and like a face can teach the face model
    # once the referee confirms the throw (yut_cam.vision.learning)
    teaches = not (f.merged or f.partial or glare) and visible >= 0.95 and novelty <= NOVELTY
    mark_share, box_share, lightness, beyond, mark_rows, past_tip = 0.0, 1.0, 1.0, 0.0, 1.0, 0.0
    end_seen = min(float(clear[int(PATCH_SIZE[1] * 0.25):int(PATCH_SIZE[1] * 0.75), cols].mean())
                   for cols in F.end_slices(PATCH_SIZE[0]))
    candidate_scores: tuple[float, ...] | None = None
    if face == "배" and (cal.mark is not None or (cal.mark_candidates and teaches)):
        full = F.to_full_length(f.rect, cal.stick_length * s, scene.fg_raw, others)
        # the box stops short of an end (the mark there): read it whole
        rect_m = face_rect if full is None else full.scaled(1.0 / s)._replace(width=face_rect.width)
        # the venue's mark; with none yet, how each candidate reads this stick (to learn the
        # mark from a confirmed 빽도)
        models = (cal.mark,) if cal.mark is not None else cal.mark_candidates
        # the empty mat in the light it had at calibration here tells a tip's blurred rim
        read = _read_marks(image, rect_m, across, (light, mat_light), near, scene.differs, scene.fg_raw, s, cal, models)
        if cal.mark is not None:
            mark_share, end_seen, lightness, beyond = read.shares[0], read.end_seen, read.lightness, read.beyond
            mark_rows, past_tip = read.rows, read.past_tip
            box_share = rect_m.length / cal.stick_length
        else:
            candidate_scores = tuple(round(x, 4) for x in read.shares)
    depth = F.depth_inside(rect, scene.mat)
    # a box shorter than a stick may miss either end: how deep the whole stick could reach
    reach = depth if rect.length >= cal.stick_length else F.depth_inside(
        rect._replace(length=2.0 * cal.stick_length - rect.length), scene.mat)
    off, edge = edge_call(depth, reach, cal.stick_width, cal.mat_doubt, cal.mat_off_seen)
    unlike = ""
    on_edge = f"stick {i + 1}: stands on its edge (too narrow for its length)"
    if f.narrow and not off:
        # its face is in doubt, which does not matter once another stick is surely off
        doubts.append(on_edge)
    elif off and (f.narrow or f.partial or _shade_like(mask, scene.d_chroma, f.rect, cal)):
        # a region off the mat this thin or much shorter than a stick may be no stick (the rim
        # of a bystander's shade beside the mat, held-out dev seed 2: 낙 read unasked), nor may
        # one of the floor's own colour, only darker or lighter (a piece of such a shade with a
        # stick's outline, fresh held-out 38503/10: 걸 read 낙 unasked, the fourth stick, pale on
        # a pale floor, unseen at the mat's rim). 낙 may rest on it alone; its own face never
        # matters. (Its look is no sign: off the mat the light is not the mat's, and real sticks
        # there looked like neither face.)
        if f.narrow:
            unlike = on_edge
        elif f.partial:
            unlike = f"stick {i + 1}: off the mat but seen only in part ({part}): is it a stick? (낙 rests on it)"
        else:
            unlike = f"stick {i + 1}: off the mat and of the floor's colour (a shade?): is it a stick? (낙 rests on it)"
        doubts = []
    if edge:
        conf = min(conf, 0.6)
    box = tuple((float(x) * scene.back_scale, float(y) * scene.back_scale) for x, y in F.rect_corners(rect))
    reading = StickReading(face=face, marked=False, on_mat=depth >= 0.0, box=(box[0], box[1], box[2], box[3]),
                           confidence=round(conf, 3), score=score,
                           features=tuple(map(float, features)) if teaches else None,
                           light=light_level if teaches else None, mark_scores=candidate_scores,
                           outside=-reach if depth < 0.0 else None)
    return _StickRead(reading, margin, mark_share, end_seen, f.faint_ends, box_share, beyond, lightness, mark_rows,
                      past_tip, tuple(doubts), edge, off, unlike)


def _face_band(image: npt.NDArray[np.uint8], rect: F.Rect, cal: Calibration, across: float, light: F.F32,
               cover: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """A stick's face patch on ``across`` of its own width along the middle of its box
    ``rect`` (full-resolution pixels): as seen, brought to the calibration ``light``, and
    where it shows (not under ``cover``, the work-sized mask of what hides it).

    That share of a box narrower than the stick (an edge lost to the mat) read less of the
    shading across a round face, of a wider one some shade or rim beside it (held-out dev
    seed 1, replayed offline: 240 -> 206 throws with a face in doubt, 8 -> 6 read wrong unasked)."""
    band = F.inner(rect._replace(width=cal.stick_width), 0.94, across)
    raw = F.stick_patch(image, band, PATCH_SIZE)
    valid = (F.stick_patch(np.ascontiguousarray(cover), band.scaled(cal.work_scale), PATCH_SIZE) < 128).astype(np.uint8)
    return raw, F.correct_light(raw, light), valid


def _mark_doubt(i: int, stick: _StickRead, merged: bool, cal: Calibration) -> str:
    """What to ask about the 빽도 mark when stick ``i`` is the only one 배 up ("" if nothing)."""
    if cal.mark is None:
        why = "no longer read here (the referee corrected it)" if cal.mark_distrusted else "not learned at calibration"
        return f"빽도 mark {why}: is stick {i + 1} (배 up) the marked stick? (빽도 or 도)"
    share, thr = stick.mark, cal.mark.threshold
    lo, hi = MARK_UNSURE_MERGED if merged else MARK_UNSURE
    if lo * thr < share < hi * thr:
        return f"빽도 mark unsure (mark score {share:.2f}, threshold {thr:.2f})"
    if stick.faint_ends:
        # its ends were found where it differs only faintly from the mat: a mark read there
        # is read on colours close to the mat's (held-out seed 26: a 배 stick on a floor of
        # its colour, followed to its tip against the mat, read 빽도 unasked)
        return f"빽도 mark unsure: stick {i + 1} shows only faintly at its ends"
    if share > lo * thr:
        if cal.mark.faint:  # no surer than a speck of shade at a plain end
            return (f"빽도 mark faint at calibration ({cal.mark.marked_fraction:.0%} of its end): is stick {i + 1}"
                    " (배 up) the marked stick? (빽도 or 도)")
        # how much of its end the mark covers against calibration: far more or far less shows
        # something else (a thin line first, which says more than "less")
        size = share / cal.mark.marked_fraction
        if size > MARK_GROWN:
            return (f"빽도 mark unsure: an end of stick {i + 1} reads {size:.1f} times as"
                    " marked as the mark did at calibration (shade or the mat's border at it?)")
        if stick.mark_rows < MARK_ROWS:
            return (f"빽도 mark unsure: what looks like the mark at an end of stick {i + 1} is a thin line along it"
                    f" ({stick.mark_rows:.0%} of its width; a shade's edge?)")
        if size < MARK_SHRUNK:
            return (f"빽도 mark unsure: an end of stick {i + 1} reads only {size:.0%} as marked"
                    " as the mark did at calibration (a knot or a speck of its colour?)")
        return ""
    if stick.end_seen < MARK_END_SEEN:  # a mark seen clearly is seen
        return f"빽도 mark may be hidden: an end of stick {i + 1} lies under or against another stick"
    if stick.box_share < MARK_BOX_SHARE:
        return f"빽도 mark may be missed: stick {i + 1} was read on {stick.box_share:.0%} of a stick's length"
    if stick.beyond >= MARK_BEYOND or stick.past_tip > lo * thr:
        return (f"빽도 mark may be missed: stick {i + 1} was read short of a stick's length, where something"
                " like the mark goes on")
    if not F.MARK_LIGHTNESS[0] <= stick.lightness <= F.MARK_LIGHTNESS[1]:
        # the mark's look is scaled with its stick's only so far: a stick in deep shade or
        # blazing light may hide a mark the reader does not know how to look for
        return (f"빽도 mark unsure: stick {i + 1} is {stick.lightness:.1f} times as light as the marked stick"
                " at calibration")
    if cal.mark.small:  # it may not show at all: a clean end is no sign of 도
        return (f"빽도 mark small at calibration ({cal.mark.marked_fraction:.0%} of its end): is stick {i + 1}"
                " (배 up) the marked stick? (빽도 or 도)")
    return ""


class _Marks(NamedTuple):
    """What :func:`_read_marks` read of a 배-up stick's ends."""

    shares: list[float]  # per mark: how much more one end looks like it than the other
    end_seen: float  # the visible share of the less visible end
    lightness: float  # the stick's body against the first mark's stick at calibration
    # where the window read stops short of a stick's length, how mark-like (the first mark)
    # what lies past its ends is at most (0 if the window is long)
    beyond: float
    rows: float  # the first mark: the share of the rows across the stick mark-like at its more marked end
    # the venue's mark, read again on past a box short of a stick over pixels of its colour
    # (0 if the box is a stick long or none go on)
    past_tip: float


def _read_marks(image: npt.NDArray[np.uint8], rect: F.Rect, across: float,
                lights: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]],
                near: npt.NDArray[np.uint8], differs: npt.NDArray[np.uint8], stick_px: npt.NDArray[np.uint8],
                s: float, cal: Calibration, marks: tuple[MarkModel, ...]) -> _Marks:
    """How much more one end of the 배-up stick in ``rect`` (full-size coordinates) looks like
    each of the 빽도 ``marks`` than the other (the venue's mark, or its candidates), and what
    else :class:`_Marks` holds.

    The ends are read on the box's inner 94%, and further out, up to ``MARK_REACH`` of its
    length and no longer than a stick, where the stick's own body goes on (a box a little
    short of a tip would leave a mark there out): pixels of its colour that are foreground
    (``stick_px``, work size: not the mat, nor shade on it). Pixels near another stick
    (``near``, work size) are left out unless they show this stick's own body or a mark on
    it: a 배 stick lying on a 등 one shows its end. ``differs`` (work size) is what differs
    from the empty mat at all: only such pixels can be the mark. ``lights``: the light on
    the stick now and the empty mat's at calibration there (the tips are read against it)."""
    reach = 1.0 + 2.0 * MARK_REACH
    n = int(round(PATCH_SIZE[0] / 0.94 * reach))
    size = (n, PATCH_SIZE[1])
    longer = F.inner(rect._replace(length=rect.length * reach), 1.0, across)
    light, mat_light = lights
    patch = F.correct_light(F.stick_patch(image, longer, size), light)
    # the empty mat under it (calibration's picture, in the same light): a tip's blurred rim
    # and a shadow past it are blends of the two (F.stick_shows), no end of the stick
    mat = F.correct_light(F.stick_patch(cal.background, longer.scaled(s), size), mat_light)
    clear = (F.stick_patch(np.ascontiguousarray(near), longer.scaled(s), size) < 64).astype(np.uint8)
    differ = (F.stick_patch(differs, longer.scaled(s), size) > 127).astype(np.uint8)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float64)
    h = PATCH_SIZE[1]
    box = n / reach  # columns the box spans
    b0 = (n - box) / 2.0
    # the body's colour from the stick's own middle; where another stick lies across it, the
    # flat face's colour as this venue's sticks showed it (Lab, same light)
    rows, mid = slice(int(h * 0.15), int(h * 0.85)), slice(int(b0 + box * 0.35), int(b0 + box * 0.65))
    seen_mid = clear[rows, mid] > 0
    if seen_mid.mean() >= 0.3:
        body = np.asarray(np.median(lab[rows, mid][seen_mid], axis=0), np.float64)
    else:
        body = F.face_lab(cal.faces.names, cal.faces.belly)
    span = int(round(MARK_SPAN * box * cal.stick_width / cal.stick_length))
    own = F.own_pixels(patch, body, F.face_lab(cal.faces.names, cal.faces.back), span)
    valid = (clear | own) & _between_edges(own)
    # out from the box's inner 94% while the stick's body (not the mat) goes on, to a stick's length
    stick_here = F.stick_patch(stick_px, longer.scaled(s), size) > 127
    rows_mid = slice(int(h * 0.25), int(h * 0.75))
    goes_on = ((own > 0) & stick_here)[rows_mid].mean(axis=0) >= 0.3
    lo, hi = int(round(b0 + box * 0.03)), int(round(n - b0 - box * 0.03))
    longest = box * cal.stick_length / rect.length
    lo, hi = _grown(goes_on, lo, hi, (0, n), longest)
    # a box short of a stick may have stopped at a mark painted at the tip, no body colour
    # (fresh independent venue 44014: a pink dot at the tip on a brown mat, the box 4% short,
    # 빽도 read 도 unasked): the window read again on past it over the stick's own pixels (not
    # shade on the mat) of the venue's mark colour, each end as far as the box is short. What
    # that finds is asked about, not read: the dark floor past a plain stick's tip at the
    # mat's edge looks so too (independent 40038/10)
    tip_window = slice(lo, hi)
    room = int(round(longest - box))
    if cal.mark is not None and marks[0] is cal.mark and room > 0:
        mark_now = F.relative_mark(np.asarray(cal.mark.mark_lab, np.float64), _mark_body(cal, cal.mark), body)
        tip_like = (F.mark_like(lab, body, mark_now) & stick_here)[rows_mid].mean(axis=0) >= 0.3
        tip_window = slice(*_grown(tip_like, lo, hi, (max(0, lo - room), min(n, hi + room)), longest))
    window = slice(lo, hi)
    # a window longer than the stick has floor or another stick past a tip: trim it there
    trim = max(0.0, 1.0 - cal.stick_length / ((hi - lo) / box * rect.length)) + 0.04
    shares, beyond, mark_rows, past_tip = [], 0.0, 1.0, 0.0
    missing = int(round(longest - (hi - lo)))
    for mark in marks:
        # the mark as it looks on this body: what light correction left over tints both
        # alike, and a glossy stick's sheen fades both toward white alike (held-out dev seed
        # 2: a lacquered stick's red band seen pale pink, its 빽도 read 도 unasked)
        then, mark_then = _mark_body(cal, mark), np.asarray(mark.mark_lab, np.float64)
        looks = [F.relative_mark(mark_then, then, body), F.sheen_mark(mark_then, then, body)]
        share = 0.0
        for mark_lab in (m for m in looks if m is not None):
            ends = _ends(patch, valid, differ, mat, window, body, mark_lab, trim)
            apart = abs(ends.shares[0] - ends.shares[1])
            if mark is marks[0] and tip_window != window:
                tip = _ends(patch, valid, differ, mat, tip_window, body, mark_lab, trim).shares
                past_tip = max(past_tip, abs(tip[0] - tip[1]))
            if apart > share and mark is marks[0]:
                mark_rows = ends.rows[int(ends.shares[1] > ends.shares[0])]
            share = max(share, apart)
            if mark.in_shade and mark is marks[0] and missing > MARK_SHORT * longest:
                like = F.mark_like(lab[rows_mid], body, mark_lab) & (differ[rows_mid] > 0)
                for cols in (slice(max(0, lo - missing), lo), slice(hi, min(n, hi + missing))):
                    if cols.stop > cols.start:
                        beyond = max(beyond, float(like[:, cols].mean()))
        shares.append(share)
    inside = valid[rows_mid, window]
    seen = min(float(inside[:, cols].mean()) for cols in F.end_slices(hi - lo))
    lightness = float(body[0]) / max(float(_mark_body(cal, marks[0])[0]), 1.0) if marks else 1.0
    return _Marks(shares, seen, lightness, beyond, mark_rows, past_tip)


def _grown(goes_on: npt.NDArray[np.bool_], lo: int, hi: int, bounds: tuple[int, int],
           longest: float) -> tuple[int, int]:
    """The columns ``[lo, hi)`` grown out at each end while ``goes_on`` there, within
    ``bounds``, and no longer than ``longest``."""
    while lo > bounds[0] and goes_on[lo - 1] and hi - lo < longest:
        lo -= 1
    while hi < bounds[1] and goes_on[hi] and hi - lo < longest:
        hi += 1
    return lo, hi


def _ends(patch: npt.NDArray[np.uint8], valid: npt.NDArray[np.uint8], differ: npt.NDArray[np.uint8],
          mat: npt.NDArray[np.uint8], window: slice, body: npt.NDArray[np.float64],
          mark_lab: npt.NDArray[np.float64], trim: float) -> F.EndMarks:
    """:func:`F.end_marks` of the columns ``window`` of a 배-up stick's patch."""
    return F.end_marks(np.ascontiguousarray(patch[:, window]), body, mark_lab,
                       valid=np.ascontiguousarray(valid[:, window]),
                       foreground=np.ascontiguousarray(differ[:, window]), max_trim=trim,
                       mat=np.ascontiguousarray(mat[:, window]))


def _between_edges(own: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """Where a stick's patch (length along x) lies between the stick's long edges, as its own
    body pixels ``own`` show them, fitted as straight lines: in a box askew a tip's shade
    beside the stick is mark-like where the mark is dark and the mat's shade a blend of its
    colours (held-out independent venue 33035: a black X on grey-green wood). All 1 where the
    body shows in too few columns to fit."""
    h, n = own.shape
    cols = np.flatnonzero(own.mean(axis=0) >= 0.3)
    if len(cols) < 0.3 * n:
        return np.ones_like(own)
    seen = own[:, cols] > 0
    edges = np.stack([np.argmax(seen, axis=0), h - 1 - np.argmax(seen[::-1], axis=0)]).astype(np.float64)
    # least-squares lines through the top and bottom edges
    dx = cols - cols.mean()
    slope = (edges - edges.mean(axis=1, keepdims=True)) @ dx / max(float(dx @ dx), 1e-9)
    at: npt.NDArray[np.float64] = edges.mean(axis=1)[:, None] + slope[:, None] * (np.arange(n) - cols.mean())[None, :]
    rows = np.arange(h, dtype=np.float64)[:, None]
    between: npt.NDArray[np.uint8] = ((rows >= at[0] - 1.0) & (rows <= at[1] + 1.0)).astype(np.uint8)
    return between


def _mark_body(cal: Calibration, mark: MarkModel) -> npt.NDArray[np.float64]:
    """The body colour (Lab) beside the 빽도 mark at calibration; for files from before it was
    kept, the flat faces' colour at calibration."""
    if mark.body_lab is not None:
        return np.asarray(mark.body_lab, np.float64)
    flat = tuple(np.mean(cal.faces.samples[0], axis=0)) if cal.faces.samples[0] else cal.faces.belly
    return F.face_lab(cal.faces.names, flat)


def read_file(path: str, calibration: Calibration) -> Reading:
    """Read an image file; a missing or corrupt file is an :class:`ImageError` naming it."""
    return read_image(load_image(path), calibration)


def load_image(path: str) -> npt.NDArray[np.uint8]:
    import os

    if not os.path.isfile(path):
        raise ImageError(f"image {path!r} does not exist")
    data = np.fromfile(path, np.uint8)
    if data.size == 0:
        raise ImageError(f"image {path!r} is empty (0 bytes)")
    img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is None:
        raise ImageError(f"image {path!r} is not a readable picture (corrupt or not JPEG/PNG)")
    return np.asarray(img, np.uint8)
