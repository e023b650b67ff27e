"""Value objects of a throw reading (the ``yut-cam read`` JSON contract of DESIGN.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Face = Literal["배", "등"]
Result = Literal["도", "개", "걸", "윷", "모", "빽도", "낙"]

FACES: tuple[Face, ...] = ("배", "등")
RESULTS: tuple[Result, ...] = ("도", "개", "걸", "윷", "모", "빽도", "낙")
# the result of four sticks by how many show the flat side (배) up, and back (빽도: one, the marked one)
BY_FLAT_UP: dict[int, Result] = {0: "모", 1: "도", 2: "개", 3: "걸", 4: "윷"}
FLAT_UP: dict[str, int] = {"모": 0, "도": 1, "빽도": 1, "개": 2, "걸": 3, "윷": 4}

Point = tuple[float, float]


@dataclass(frozen=True)
class StickReading:
    """One stick as seen: which face is up, whether it is the 빽도 stick, where it lies.

    ``box`` is the stick's outline as four (x, y) corners in pixels of the image read;
    ``on_mat`` is True when any part of the stick touches the mat (rule 000).
    ``confidence`` (0..1) is how sure the face and mark decisions are.
    """

    face: Face
    marked: bool
    on_mat: bool
    box: tuple[Point, Point, Point, Point]
    confidence: float = 1.0
    # what the reader saw, for learning from the referee's confirmation (not in the JSON):
    # the face score (0 배 .. 1 등) and, for a stick seen whole and apart, its face features
    score: float | None = field(default=None, compare=False)
    features: tuple[float, ...] | None = field(default=None, compare=False, repr=False)
    # ... and the light it lay in (as FaceModel.lights measures it), which joins that range
    # once a confirmation shows the stick was read right
    light: float | None = field(default=None, compare=False, repr=False)
    # at a venue whose mark calibration could not single out: how each candidate mark
    # (Calibration.mark_candidates) reads this 배-up stick seen whole, for learning the mark
    # from a confirmed 빽도
    mark_scores: tuple[float, ...] | None = field(default=None, compare=False, repr=False)
    # for a stick whose box lies beyond the mat's outline: how far (px of the calibration's
    # images) the whole stick lies beyond it at least (<= 0 when seen in part, it may reach
    # back in), for learning where the mat ends
    outside: float | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.face not in FACES:
            raise ValueError(f"face must be 배 or 등, not {self.face!r}")
        if len(self.box) != 4:
            raise ValueError(f"box needs 4 corners, got {len(self.box)}: {self.box!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be within 0..1, not {self.confidence!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "face": self.face,
            "marked": self.marked,
            "on_mat": self.on_mat,
            "box": [[round(x, 1), round(y, 1)] for x, y in self.box],
            "confidence": round(self.confidence, 3),
        }


def result_of(sticks: tuple[StickReading, ...] | list[StickReading]) -> Result:
    """The throw's result by rule 000: 낙 if fewer than four sticks or any stick wholly
    off the mat; otherwise the count of 배 faces up (1 is 빽도 when it is the marked one)."""
    if len(sticks) < 4 or any(not s.on_mat for s in sticks):
        return "낙"
    bellies = [s for s in sticks if s.face == "배"]
    if len(bellies) == 1 and bellies[0].marked:
        return "빽도"
    return BY_FLAT_UP[min(len(bellies), 4)]


@dataclass(frozen=True)
class Reading:
    """What the camera read from one still.

    ``needs_referee`` is True whenever the reader is not sure; ``reasons`` says why
    (short English phrases, one per doubt) and ``alternatives`` what else the throw may be
    (:mod:`yut_cam.vision.alternatives`; empty when the reader cannot narrow it down).
    """

    result: Result
    confidence: float
    needs_referee: bool
    sticks: tuple[StickReading, ...] = ()
    reasons: tuple[str, ...] = field(default=())
    alternatives: tuple[Result, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {' '.join(RESULTS)}, not {self.result!r}")
        if any(r not in RESULTS or r == self.result for r in self.alternatives) \
                or len(set(self.alternatives)) != len(self.alternatives):
            raise ValueError(f"alternatives must be other results than {self.result!r}, each once,"
                             f" not {self.alternatives!r}")
        if self.alternatives and not self.needs_referee:
            raise ValueError("a reading with alternatives needs the referee")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be within 0..1, not {self.confidence!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "confidence": round(self.confidence, 3),
            "needs_referee": self.needs_referee,
            "sticks": [s.to_dict() for s in self.sticks],
            "reasons": list(self.reasons),
            "alternatives": list(self.alternatives),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)
