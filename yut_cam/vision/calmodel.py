"""The calibration as a value: what the throw reader learned at a venue, and its file.

:class:`Calibration` is written as a small JSON file of statistics plus the empty mat as a
reduced, smoothed PNG beside it (``<name>.background.png``), and validated field by field
when it is read back (:meth:`Calibration.load`), with messages naming the bad field.
How a calibration is learned from three pictures is :mod:`yut_cam.vision.calibration`.
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from yut_cam.vision import functional as F
from yut_cam.vision.errors import CalibrationError
from yut_cam.vision.facemodel import FaceModel as FaceModel
from yut_cam.vision.facemodel import Samples

_A = TypeVar("_A", bound=npt.NDArray[Any])

VERSION = 1
# a 빽도 mark that showed on less than this share of its end at calibration (a faint ring, a
# small dot on dark wood) is no surer than a speck of shade or a knot at a plain stick's end,
# which reads as much (held-out dev seed 1: two such venues read 도 as 빽도 unasked): a 빽도
# read with it is always asked (the reader's ``_mark_doubt``), and, the mark being small too
# (``MARK_SMALL``), so is a plainly clean end
MARK_FAINT = 0.15
# a mark that showed on less than this share (a thin ring, a small glyph: a few px across) may
# not show in a throw's picture at all, farther from the camera's middle or in other light:
# read there, a marked stick's end looks as clean as a plain one's (held-out dev seeds 32, 35,
# 36: three 빽도 read 도 unasked, the mark read at 0.1-0.3 of its threshold). A lone 배 stick
# with a clean end is asked too (the reader's ``_mark_doubt``)
MARK_SMALL = 0.2

# a found outline whose true edge may lie further than this many stick widths either way
# (a border band almost like the floor, seen or not) is worth the referee's taps once: the
# reader asks about every stick within that doubt of it at every throw (held-out dev seed 1:
# 12 of 47 venues, 0.96 to 5.7 widths, carried 40 of 70 sticks asked about at the mat's edge;
# the others' doubts were at most 0.55 widths)
MAT_DOUBT_ASK = 0.75

Point = tuple[float, float]


@dataclass(frozen=True)
class MarkModel:
    """Colour of the 빽도 mark (Lab, calibration light) and the share of an end it covers."""

    mark_lab: tuple[float, float, float]
    marked_fraction: float  # how much more of the marked end than of the other is mark-like
    other_fraction: float  # the same, largest among the other sticks
    threshold: float
    # the marked stick's body colour (Lab) beside the mark at calibration: the mark is read
    # relative to the body it is painted on (None in files written before it was kept)
    body_lab: tuple[float, float, float] | None = None
    # learned only once the belly boxes were grown through shade: a dark mark at a tip that
    # the segmentation takes for the stick's shadow, which a throw's box may stop short of too
    in_shade: bool = False
    # a candidate mark (Calibration.mark_candidates) that has read a confirmed 빽도 short of
    # the clearness that teaches it at once: one more such 빽도 teaches it
    # (yut_cam.vision.learning.learn_mark); 0 for a mark in use
    votes: int = 0

    @property
    def faint(self) -> bool:
        """Too faint to read 빽도 unasked (``MARK_FAINT``)."""
        return self.marked_fraction < MARK_FAINT

    @property
    def small(self) -> bool:
        """Too small to read 도 unasked: it may not show at all (``MARK_SMALL``)."""
        return self.marked_fraction < MARK_SMALL


def _frozen(array: _A) -> _A:
    """``array`` made read-only: one copy is shared by every read of a calibration."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True)
class Calibration:
    image_size: tuple[int, int]  # (width, height) of the camera images
    mat_polygon: tuple[Point, ...]
    work_size: tuple[int, int]  # (width, height) segmentation runs at
    segment: F.SegmentParams
    stick_length: float  # full-resolution pixels
    stick_width: float
    faces: FaceModel
    # None when the belly picture did not show the 빽도 mark clearly, or when the referee
    # corrected a reading sure of it (``mark_distrusted``; ``mark_problem`` says how either
    # way): the reader then hands every throw with one stick 배 up to the referee
    mark: MarkModel | None
    background: npt.NDArray[np.uint8]  # empty mat at work_size, smoothed
    # how far (px) the mat's true edge may lie inside and outside ``mat_polygon``: a found
    # outline is as sure as its edge is clear; one given by the referee is taken as exact
    mat_doubt: tuple[float, float] = (0.0, 0.0)
    mark_problem: str = ""
    # the mark was learned but dropped after the referee corrected a 도/빽도 reading sure of it
    # (yut_cam.vision.learning.distrust_mark), not left unlearned by calibration
    mark_distrusted: bool = False
    # with no mark learned: the mark as each stick whose ends differed clearly in the belly
    # picture would carry it; the 빽도 the referee confirms (one or two) pick one
    # (yut_cam.vision.learning.learn_mark)
    mark_candidates: tuple[MarkModel, ...] = ()
    # the width (full px) the narrower face showed at calibration: a pale flat face on a pale
    # mat loses its rims, a round face keeps its shadow, and either lying flat shows about
    # this much at least (a stick on its edge, half as much); 0 in files from before: the
    # stick width then
    narrowest: float = 0.0
    # learned from the referee's confirmations at an outline the reader found
    # (yut_cam.vision.learning.learn_edge): the least distance (px) beyond it at which a whole
    # stick was confirmed off the mat (0: none yet), and whether a stick beyond it was ever
    # confirmed on the mat (the mat goes on past its outline somewhere: never trust it; the
    # distance is then 0, and a file with both is refused)
    mat_off_seen: float = 0.0
    mat_on_seen: bool = False

    @property
    def warnings(self) -> tuple[str, ...]:
        """What this calibration cannot do, for whoever made it (CLI, console)."""
        return self._mark_warnings + self._mat_warnings

    @property
    def mat_unsure(self) -> bool:
        """The mat's edge may lie further from its outline than ``MAT_DOUBT_ASK`` stick widths."""
        return max(self.mat_doubt) > MAT_DOUBT_ASK * self.stick_width

    @property
    def _mat_warnings(self) -> tuple[str, ...]:
        if not self.mat_unsure:
            return ()
        inside, outside = self.mat_doubt
        return (f"the mat's edge is unsure: it may lie up to {inside:.0f} px inside the outline found and"
                f" {outside:.0f} px outside it (a border band almost like the floor), so every throw with a"
                " stick that near the outline will be handed to the referee; tap the mat's outline on the"
                " empty picture (or give --mat) to settle where it ends once",)

    @property
    def _mark_warnings(self) -> tuple[str, ...]:
        if self.mark is not None:
            if self.mark.faint:
                return (f"the 빽도 mark shows faintly ({self.mark.marked_fraction:.0%} of its end): every throw with"
                        " one stick 배 up will be handed to the referee as 도 or 빽도; retake the 배 picture with the"
                        " mark in plain view (or mark the stick more boldly) to read 도 and 빽도 by themselves",)
            if self.mark.small:
                return (f"the 빽도 mark shows small ({self.mark.marked_fraction:.0%} of its end): a throw read 도 will be"
                        " handed to the referee as 도 or 빽도, as the mark may not show in a throw's picture; retake"
                        " the 배 picture with the mark in plain view (or mark the stick more boldly) to read 도 by"
                        " itself",)
            return ()
        if self.mark_distrusted:
            return (f"the 빽도 mark is no longer read ({self.mark_problem}): every throw with one stick 배 up"
                    " will be handed to the referee as 도 or 빽도; calibrate again to read 빽도 again",)
        if self.mark_candidates:
            return (f"the 빽도 mark is not learned yet ({self.mark_problem}): every throw with one stick 배 up"
                    " will be handed to the referee as 도 or 빽도 until a 빽도 the referee confirms (or two) shows"
                    " which stick carries it",)
        return (f"the 빽도 mark was not learned ({self.mark_problem}): every throw with one stick 배 up"
                " will be handed to the referee as 도 or 빽도; retake the 배 picture with the marked"
                " stick's mark in plain view to read 빽도 too",)

    @property
    def work_scale(self) -> float:
        return self.work_size[0] / self.image_size[0]

    @functools.cached_property
    def mat_mask(self) -> npt.NDArray[np.uint8]:
        """The mat (0/255) at ``work_size``: computed once a calibration, for every read (read-only)."""
        return _frozen(F.polygon_mask((self.work_size[1], self.work_size[0]), list(self.mat_polygon),
                                      self.work_scale))

    @functools.cached_property
    def mat_light(self) -> F.F32:
        """How the light fell across the empty mat (:func:`functional.illumination`, read-only)."""
        return _frozen(F.illumination(self.background, self.mat_mask))

    @property
    def lying_width(self) -> float:
        """The least width (full px) a stick lying flat shows here (see ``narrowest``)."""
        return self.narrowest if self.narrowest > 0 else self.stick_width

    @property
    def stick_area(self) -> float:
        return self.stick_length * self.stick_width

    def to_dict(self, background_file: str) -> dict[str, Any]:
        return {
            "version": VERSION,
            "image_size": list(self.image_size),
            "mat_polygon": [[round(x, 1), round(y, 1)] for x, y in self.mat_polygon],
            "mat_doubt": [round(v, 1) for v in self.mat_doubt],
            **({"mat_off_seen": round(self.mat_off_seen, 1)} if self.mat_off_seen > 0 else {}),
            **({"mat_on_seen": True} if self.mat_on_seen else {}),
            "work_size": list(self.work_size),
            "background": background_file,
            "segment": {k: (bool(v) if isinstance(v, bool) else round(float(v), 5))
                        for k, v in self.segment._asdict().items()},
            "stick": {"length": round(self.stick_length, 2), "width": round(self.stick_width, 2),
                      **({"narrowest": round(self.narrowest, 2)} if self.narrowest > 0 else {})},
            "faces": {"features": list(self.faces.names),
                      "배": [round(v, 4) for v in self.faces.belly],
                      "등": [round(v, 4) for v in self.faces.back],
                      "spread": [round(v, 4) for v in self.faces.spread],
                      "saturated": [round(v, 4) for v in self.faces.saturated],
                      "fit_error": round(self.faces.fit_error, 4),
                      "direction": [round(v, 6) for v in self.faces.direction],
                      "samples": _samples_dict(self.faces.samples),
                      "learned": _samples_dict(self.faces.learned),
                      **({"lights": [round(v, 4) for v in self.faces.lights]} if self.faces.lights[0] > 0 else {})},
            "mark": None if self.mark is None else _mark_dict(self.mark),
            **({"mark_problem": self.mark_problem} if self.mark is None else {}),
            **({"mark_distrusted": True} if self.mark_distrusted else {}),
            **({"mark_candidates": [_mark_dict(m) for m in self.mark_candidates]}
               if self.mark is None and self.mark_candidates else {}),
        }

    def save(self, path: str | Path, background_file: str | None = None) -> Path:
        """Write ``path`` (JSON, atomically) and ``<stem>.background.png`` beside it; returns
        the PNG path. With ``background_file`` (the name of the background picture already
        beside ``path``: only the face model learned more) no picture is written."""
        import cv2

        path = Path(path)
        bg_name = background_file or f"{path.stem}.background.png"
        bg_path = path.with_name(bg_name)
        path.parent.mkdir(parents=True, exist_ok=True)
        if background_file is None and not cv2.imwrite(str(bg_path), self.background,
                                                       [cv2.IMWRITE_PNG_COMPRESSION, 6]):
            raise CalibrationError(f"cannot write {str(bg_path)!r}")
        data = self.to_dict(bg_name)
        lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()]
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
        os.replace(tmp, path)  # a reader of the file never sees half of it
        return bg_path

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read and validate a calibration file (and its background picture)."""
        import cv2

        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CalibrationError(f"calibration file {str(path)!r} does not exist") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise CalibrationError(f"calibration file {str(path)!r} is not readable JSON: {exc}") from None
        if not isinstance(data, dict):
            raise CalibrationError(f"calibration file {str(path)!r} must hold a JSON object")
        where = f"calibration file {str(path)!r}"
        version = _field(data, "version", where)
        if version != VERSION:
            raise CalibrationError(f"{where}: version {version!r} is not supported (expected {VERSION})")
        image_size = _size(_field(data, "image_size", where), "image_size", where)
        work_size = _size(_field(data, "work_size", where), "work_size", where)
        polygon = _points(_field(data, "mat_polygon", where), where)
        # files written before the outline carried its doubt take it as exact
        doubt = tuple(_num(v, "mat_doubt", where)
                      for v in _list(data.get("mat_doubt", [0.0, 0.0]), "mat_doubt", where))
        if len(doubt) != 2 or min(doubt) < 0:
            raise CalibrationError(f"{where}: mat_doubt needs 2 numbers of px >= 0 (inside, outside),"
                                   f" got {list(doubt)!r}")
        off_seen = _num(data.get("mat_off_seen", 0.0), "mat_off_seen", where)
        on_seen = data.get("mat_on_seen", False)
        if off_seen < 0 or not isinstance(on_seen, bool) or (on_seen and off_seen > 0):
            raise CalibrationError(f"{where}: mat_off_seen needs px >= 0 and mat_on_seen true or false, not both"
                                   f" set (got {off_seen!r}, {on_seen!r})")
        seg = _field(data, "segment", where)
        try:
            segment = F.SegmentParams(
                lum_threshold=_num(_field(seg, "lum_threshold", where + " segment"), "lum_threshold", where),
                chroma_threshold=_num(_field(seg, "chroma_threshold", where + " segment"), "chroma_threshold", where),
                shadow_min=_num(_field(seg, "shadow_min", where + " segment"), "shadow_min", where),
                shadow_chroma=_num(_field(seg, "shadow_chroma", where + " segment"), "shadow_chroma", where),
                shadow_suppression=bool(_field(seg, "shadow_suppression", where + " segment")),
                floor_lum_threshold=_num(_field(seg, "floor_lum_threshold", where + " segment"),
                                         "floor_lum_threshold", where),
                floor_chroma_threshold=_num(_field(seg, "floor_chroma_threshold", where + " segment"),
                                            "floor_chroma_threshold", where),
            )
        except TypeError:
            raise CalibrationError(f"{where}: 'segment' must be an object") from None
        stick = _field(data, "stick", where)
        length = _num(_field(stick, "length", where + " stick"), "stick length", where)
        width = _num(_field(stick, "width", where + " stick"), "stick width", where)
        if not 0 < width <= length:
            raise CalibrationError(f"{where}: stick size {length!r} x {width!r} is impossible")
        narrowest = _num(stick.get("narrowest", 0.0), "stick narrowest", where)
        if not 0 <= narrowest <= length:
            raise CalibrationError(f"{where}: stick narrowest width {narrowest!r} is impossible")
        faces = _field(data, "faces", where)
        names = tuple(str(n) for n in _field(faces, "features", where + " faces"))
        vecs = [tuple(_num(v, f"faces {k}", where) for v in _list(_field(faces, k, where + " faces"), k, where))
                for k in ("배", "등", "spread")]
        if names != F.FEATURE_NAMES or any(len(v) != len(names) for v in vecs):
            raise CalibrationError(f"{where}: face features {list(names)!r} do not match this reader "
                                   f"({list(F.FEATURE_NAMES)!r}); calibrate again")
        sat = tuple(_num(v, "faces saturated", where)
                    for v in _list(_field(faces, "saturated", where + " faces"), "saturated", where))
        if len(sat) != 2:
            raise CalibrationError(f"{where}: faces 'saturated' needs 2 numbers (배, 등), got {list(sat)!r}")
        if min(vecs[2]) <= 0:
            raise CalibrationError(f"{where}: face 'spread' values must be positive")
        # files written before the face model carried its fit error take it as 0
        fit_error = _num(faces.get("fit_error", 0.0), "faces fit_error", where)
        if not 0.0 <= fit_error <= 1.0:
            raise CalibrationError(f"{where}: faces 'fit_error' must lie in 0..1, got {fit_error!r}")
        direction = tuple(_num(v, "faces direction", where)
                          for v in _list(faces.get("direction", []), "direction", where))
        if direction and len(direction) != len(names):
            raise CalibrationError(f"{where}: faces 'direction' needs {len(names)} numbers or none,"
                                   f" got {list(direction)!r}")
        # files from before the model kept the light its sticks were seen in know none
        lights = tuple(_num(v, "faces lights", where) for v in _list(faces.get("lights", [0.0, 0.0]), "lights", where))
        if len(lights) != 2 or not (lights == (0.0, 0.0) or 0.0 < lights[0] <= lights[1]):
            raise CalibrationError(f"{where}: faces 'lights' needs 2 positive numbers, the least first,"
                                   f" got {list(lights)!r}")
        # files from before the reader learned from confirmed throws hold no samples (and learn none)
        samples = _samples(faces.get("samples", {"배": [], "등": []}), "samples", len(names), where)
        learned = _samples(faces.get("learned", {"배": [], "등": []}), "learned", len(names), where)
        if learned != ((), ()) and not (samples[0] and samples[1]):
            raise CalibrationError(f"{where}: faces 'learned' without the calibration's 'samples' to refit with")
        mark = _field(data, "mark", where)
        mark_model: MarkModel | None = None
        mark_problem, distrusted = "", False
        candidates: tuple[MarkModel, ...] = ()
        if mark is None:  # the mark was not learned: the file must say why
            why = data.get("mark_problem")
            if not isinstance(why, str) or not why.strip():
                raise CalibrationError(f"{where}: 'mark' is null but 'mark_problem' does not say why ({why!r})")
            mark_problem = why
            distrusted = data.get("mark_distrusted", False)
            if not isinstance(distrusted, bool):
                raise CalibrationError(f"{where}: 'mark_distrusted' must be true or false, not {distrusted!r}")
            candidates = tuple(_mark(m, f"{where} mark_candidates[{k}]") for k, m in
                               enumerate(_list(data.get("mark_candidates", []), "mark_candidates", where)))
        else:
            mark_model = _mark(mark, where + " mark")
        bg_name = _field(data, "background", where)
        if not isinstance(bg_name, str) or not bg_name:
            raise CalibrationError(f"{where}: 'background' must name a PNG file, not {bg_name!r}")
        bg_path = path.parent / bg_name
        read = cv2.imread(str(bg_path), cv2.IMREAD_COLOR) if bg_path.is_file() else None
        background = None if read is None else np.asarray(read, np.uint8)
        if background is None:
            raise CalibrationError(f"{where}: background picture {str(bg_path)!r} is missing or unreadable")
        if (background.shape[1], background.shape[0]) != work_size:
            raise CalibrationError(
                f"{where}: background picture {str(bg_path)!r} is {background.shape[1]}x{background.shape[0]},"
                f" expected work_size {work_size[0]}x{work_size[1]}")
        return cls(image_size=image_size, mat_polygon=tuple(polygon), work_size=work_size,
                   segment=segment, stick_length=length, stick_width=width, narrowest=narrowest,
                   faces=FaceModel(names, vecs[0], vecs[1], vecs[2], (sat[0], sat[1]), fit_error, samples=samples,
                                   learned=learned, direction=direction, lights=(lights[0], lights[1])), mark=mark_model,
                   background=background, mat_doubt=(doubt[0], doubt[1]), mark_problem=mark_problem,
                   mark_distrusted=distrusted, mark_candidates=candidates, mat_off_seen=off_seen,
                   mat_on_seen=on_seen)


def _mark_dict(mark: MarkModel) -> dict[str, Any]:
    return {"lab": [round(v, 2) for v in mark.mark_lab],
            "marked_fraction": round(mark.marked_fraction, 4),
            "other_fraction": round(mark.other_fraction, 4),
            "threshold": round(mark.threshold, 4),
            **({} if mark.body_lab is None else {"body_lab": [round(v, 2) for v in mark.body_lab]}),
            **({"in_shade": True} if mark.in_shade else {}),
            **({"votes": mark.votes} if mark.votes else {})}


def _mark(obj: Any, where: str) -> MarkModel:
    """A :class:`MarkModel` from its JSON object (``where`` names it in errors)."""
    model = MarkModel(
        mark_lab=_lab(_field(obj, "lab", where), "lab", where),
        marked_fraction=_num(_field(obj, "marked_fraction", where), "marked_fraction", where),
        other_fraction=_num(_field(obj, "other_fraction", where), "other_fraction", where),
        threshold=_num(_field(obj, "threshold", where), "threshold", where),
        body_lab=_lab(obj["body_lab"], "body_lab", where) if "body_lab" in obj else None,
        in_shade=obj.get("in_shade", False),
        votes=obj.get("votes", 0),
    )
    if not isinstance(model.in_shade, bool):
        raise CalibrationError(f"{where}: 'in_shade' must be true or false, not {model.in_shade!r}")
    if isinstance(model.votes, bool) or not isinstance(model.votes, int) or model.votes < 0:
        raise CalibrationError(f"{where}: 'votes' must be a whole number, 0 or more, not {model.votes!r}")
    if model.threshold <= 0:
        raise CalibrationError(f"{where}: 'threshold' must be positive, got {model.threshold!r}")
    return model


def _samples_dict(samples: tuple[Samples, Samples]) -> dict[str, list[list[float]]]:
    return {face: [[round(v, 4) for v in x] for x in side] for face, side in zip(("배", "등"), samples)}


def _samples(obj: Any, name: str, size: int, where: str) -> tuple[Samples, Samples]:
    """Feature vectors of sticks known 배 and 등 up: {"배": [[...], ...], "등": [...]}."""
    if not isinstance(obj, dict):
        raise CalibrationError(f"{where}: faces {name!r} must be an object of 배 and 등 lists, not {obj!r}")
    out = []
    for face in ("배", "등"):
        side = tuple(tuple(_num(v, f"faces {name} {face}", where) for v in _list(x, f"{name} {face}", where))
                     for x in _list(obj.get(face, []), f"{name} {face}", where))
        if any(len(x) != size for x in side):
            raise CalibrationError(f"{where}: every vector of faces {name!r} {face} needs {size} numbers")
        out.append(side)
    return out[0], out[1]


def _field(obj: Any, name: str, where: str) -> Any:
    if not isinstance(obj, dict):
        raise CalibrationError(f"{where}: expected an object holding {name!r}, got {obj!r:.60}")
    if name not in obj:
        raise CalibrationError(f"{where}: missing field {name!r}")
    return obj[name]


def _lab(v: Any, name: str, where: str) -> tuple[float, float, float]:
    """A colour of the mark entry (``name``): three numbers, OpenCV Lab."""
    lab = [_num(x, f"mark {name}", where) for x in _list(v, f"mark {name}", where)]
    if len(lab) != 3:
        raise CalibrationError(f"{where}: mark '{name}' needs 3 numbers, got {lab!r}")
    return (lab[0], lab[1], lab[2])


def _num(v: Any, name: str, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise CalibrationError(f"{where}: {name} must be a number, not {v!r}")
    return float(v)


def _list(v: Any, name: str, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise CalibrationError(f"{where}: {name} must be a list, not {v!r:.60}")
    return v


def _size(v: Any, name: str, where: str) -> tuple[int, int]:
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v)):
        raise CalibrationError(f"{where}: {name} must be [width, height] in pixels, not {v!r}")
    return int(v[0]), int(v[1])


def _points(v: Any, where: str) -> list[Point]:
    pts = _list(v, "mat_polygon", where)
    if len(pts) < 3:
        raise CalibrationError(f"{where}: mat_polygon needs at least 3 corners, got {len(pts)}")
    out = []
    for p in pts:
        if not isinstance(p, list) or len(p) != 2:
            raise CalibrationError(f"{where}: mat_polygon corner {p!r} is not [x, y]")
        out.append((_num(p[0], "mat_polygon x", where), _num(p[1], "mat_polygon y", where)))
    return out
