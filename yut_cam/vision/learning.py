"""Learning a venue's sticks from the throws the referee confirms.

Calibration sees four sticks 배 up and four 등 up, posed, in one spot each: little to learn
how a face varies across the mat, under a passing cloud, or as the sun moves. Every throw
the referee confirms says how many sticks lay 배 up; when the reading agrees (or is one
stick off, and that stick was the nearest to doubt), each stick the reader saw whole and
apart becomes one more known example of its face, and the face model is refitted
(:meth:`yut_cam.vision.facemodel.FaceModel.taught`). A 낙, a reading two or more sticks off,
or a stick the reader was sure of but the result contradicts teaches nothing: the examples
must be right, or the model learns the mistake.

A confirmation can also unteach: a 도 or 빽도 confirmed as the other, where the reader was
sure of the mark, shows the venue's 빽도 mark is misread here (:func:`distrust_mark`).

Where the belly picture could not single out the marked stick, calibration keeps the mark
as each stick with clearly different ends would carry it; the first confirmed 빽도 whose
stick one of them reads clearly, and no other, makes that one the venue's mark (or the
second that it reads fairly clearly), and a confirmed 도 whose stick a candidate reads as
marked rules that one out (:func:`learn_mark`).

Where the reader found the mat's outline itself, a border band like the floor may go on
past it, so a stick just beyond it is asked about. A confirmed 낙 whose one stick beyond the
outline lay a distance out shows that no band goes on that far; a confirmed throw that is no
낙 with a stick beyond the outline shows that one does (:func:`learn_edge`). The referee can
also settle it at once, looking at the found outline drawn on the empty picture: confirmed
as the mat's edge, it is read as a tapped one (:func:`confirm_outline`).

Pure functions: the live service keeps the readings, calls :func:`learn` when the referee
confirms, and saves the calibration it returns.
"""

from __future__ import annotations

import dataclasses

from yut_cam.vision.calmodel import Calibration
from yut_cam.vision.reasons import at_edge_sticks, doubts_mark
from yut_cam.vision.types import FLAT_UP, Face, Reading

# a stick read on the wrong side of the confirmed count is taken to be the one nearest to
# doubt only if it was near it: |score - 0.5| * 2 below this
FLIP_MARGIN = 0.5
# a confirmed 빽도 teaches the candidate mark that reads its stick at this many times its
# threshold, when no other reaches 1: as clearly as calibration asks a mark to stand out
# from the other sticks (twice), beyond the reader's own band of doubt (1.5 times). At 1.5 a
# held-out venue learned a dark knot-like candidate from a 빽도 read at 1.6 and then read a
# 도 as a sure 빽도
MARK_LEARN_RATIO = 2.0
# ... and two confirmed 빽도 that it reads at this many times its threshold (the reader's
# band of doubt) teach it too: independent 36007's one candidate read its five 빽도 at
# 1.5-1.7 and its 도 at 0.4, and all its one-배 throws went to the referee
MARK_VOTE_RATIO = 1.5


def confirmed_faces(reading: Reading, result: str) -> list[Face] | None:
    """Each stick's face as the confirmed ``result`` says, in the reading's order; None when
    the result cannot say (낙, fewer than four sticks, two or more sticks off, or the one
    stick off was read with a clear margin)."""
    if result not in FLAT_UP or reading.result == "낙" or len(reading.sticks) != 4:
        return None
    faces: list[Face] = [s.face for s in reading.sticks]
    off = FLAT_UP[result] - faces.count("배")
    if abs(off) > 1:
        return None
    if off:
        wrong: Face = "등" if off > 0 else "배"
        near = [(abs(s.score - 0.5) * 2.0, i) for i, s in enumerate(reading.sticks)
                if s.face == wrong and s.score is not None]
        if not near or min(near)[0] >= FLIP_MARGIN:
            return None
        faces[min(near)[1]] = "배" if off > 0 else "등"
    return faces


def learn(calibration: Calibration, reading: Reading, result: str) -> Calibration:
    """``calibration`` with its face model refitted to the sticks of ``reading`` as the
    referee's confirmed ``result`` labels them, without its 빽도 mark if the reader was sure
    of the mark and wrong (:func:`distrust_mark`), or with a mark learned from a confirmed
    빽도 (:func:`learn_mark`), and knowing better where the mat ends (:func:`learn_edge`); the
    same object when nothing changes."""
    for step in (distrust_mark, learn_mark, learn_edge):
        calibration = step(calibration, reading, result)
    faces = confirmed_faces(reading, result)
    if faces is None:
        return calibration
    belly = [s.features for f, s in zip(faces, reading.sticks) if f == "배" and s.features is not None]
    back = [s.features for f, s in zip(faces, reading.sticks) if f == "등" and s.features is not None]
    # the light of the sticks it read right: there the model has shown it reads this venue's faces
    lights = [s.light for f, s in zip(faces, reading.sticks)
              if f == s.face and s.features is not None and s.light is not None]
    model = calibration.faces.taught(belly, back, lights)
    return calibration if model is calibration.faces else dataclasses.replace(calibration, faces=model)


def learn_edge(calibration: Calibration, reading: Reading, result: str) -> Calibration:
    """At an outline the reader found (a tapped one is exact already), what the confirmed
    ``result`` shows of where the mat ends: a throw that is no 낙 with a stick beyond the
    outline, that the mat goes on past it (``mat_on_seen``: from then on every stick just off
    it is asked about, until the next calibration); a 낙 with four sticks read, one of them
    wholly beyond the outline and no other there or asked about at the edge, that no border
    band reaches as far out as it lay (``mat_off_seen``, the least such distance). The same
    object when nothing changes."""
    if calibration.mat_doubt[1] <= 0.0 or calibration.mat_on_seen:
        return calibration
    beyond = {i: s.outside for i, s in enumerate(reading.sticks) if s.outside is not None}
    if not beyond:
        return calibration
    if result != "낙":
        return dataclasses.replace(calibration, mat_on_seen=True, mat_off_seen=0.0)
    if len(reading.sticks) != 4 or len(beyond) != 1 or at_edge_sticks(reading.reasons) - beyond.keys():
        return calibration
    (out,) = beyond.values()
    seen = calibration.mat_off_seen
    if out <= 0.0 or 0.0 < seen <= out:
        return calibration
    return dataclasses.replace(calibration, mat_off_seen=out)


def confirm_outline(calibration: Calibration) -> Calibration:
    """``calibration`` with its found outline confirmed by the referee as where the mat ends:
    read from then on as an outline tapped (no doubt either way: a stick off it by more than
    a box's own reach is 낙 unasked, and one that reaches over it is on the mat), with nothing
    left to learn of the edge.
    The referee sees what the empty picture may not show, a border band like the floor left
    outside the line; an outline off the mat's edge by less than the line drawn over it
    looks right and is as near as taps are. The same object when it is exact already."""
    if calibration.mat_doubt == (0.0, 0.0):
        return calibration
    return dataclasses.replace(calibration, mat_doubt=(0.0, 0.0), mat_off_seen=0.0, mat_on_seen=False)


def distrust_mark(calibration: Calibration, reading: Reading, result: str) -> Calibration:
    """``calibration`` without its 빽도 mark when ``reading`` said 도 or 빽도 sure of the mark
    and the referee confirmed the other. Sure of the mark: it may have asked about something
    else, but about nothing that :func:`~yut_cam.vision.reasons.doubts_mark` (the answer to
    such a doubt is what asking was for). A mark the reader misses or imagines at this venue
    (a mark at the very tip, a knot like it) would be misread silently again, so from then on
    every throw with one stick 배 up goes to the referee, as at a venue where calibration
    could not learn the mark, until the next calibration."""
    if calibration.mark is None or {reading.result, result} != {"도", "빽도"}:
        return calibration
    if any(map(doubts_mark, reading.reasons)):
        return calibration
    return dataclasses.replace(calibration, mark=None, mark_distrusted=True, mark_problem=(
        f"the referee corrected a reading of {reading.result}, sure of the mark, to {result} at this venue"))


def learn_mark(calibration: Calibration, reading: Reading, result: str) -> Calibration:
    """At a venue with candidate marks and no mark (:attr:`Calibration.mark_candidates`), a
    confirmed 빽도 or 도 with one stick 배 up, seen whole: for 빽도, the candidate that reads
    that stick at ``MARK_LEARN_RATIO`` times its threshold, when no other reads it marked,
    becomes the mark, and so does one that reads it at ``MARK_VOTE_RATIO`` times for the
    second time (its ``votes``); for 도, the candidates that read it marked are ruled out. The
    same object when nothing changes."""
    candidates = calibration.mark_candidates
    if calibration.mark is not None or calibration.mark_distrusted or not candidates or result not in ("도", "빽도"):
        return calibration
    faces = confirmed_faces(reading, result)
    if faces is None or faces.count("배") != 1:
        return calibration
    stick = reading.sticks[faces.index("배")]
    if stick.face != "배" or stick.mark_scores is None or len(stick.mark_scores) != len(candidates):
        return calibration
    ratios = [score / c.threshold for score, c in zip(stick.mark_scores, candidates)]
    if result == "빽도":
        best = max(range(len(candidates)), key=lambda k: ratios[k])
        if ratios[best] < MARK_VOTE_RATIO or any(r >= 1.0 for k, r in enumerate(ratios) if k != best):
            return calibration
        chosen = candidates[best]
        if ratios[best] < MARK_LEARN_RATIO and chosen.votes < 1:
            voted = dataclasses.replace(chosen, votes=1)
            return dataclasses.replace(calibration, mark_candidates=candidates[:best] + (voted,) + candidates[best + 1:])
        return dataclasses.replace(calibration, mark=dataclasses.replace(chosen, votes=0), mark_candidates=(),
                                   mark_problem="")
    kept = tuple(c for c, r in zip(candidates, ratios) if r < 1.0)
    return calibration if len(kept) == len(candidates) else dataclasses.replace(calibration, mark_candidates=kept)
