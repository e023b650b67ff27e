"""Drawing a reading over its image for the referee screen.

OpenCV cannot draw Hangul, so the picture uses short ASCII tags with a legend line
(the web page shows the Korean words): ``B`` = 배 (flat side up), ``D`` = 등 (round side
up), ``*`` = the 빽도 mark, ``X`` = wholly off the mat, ``?`` = a stick the referee is
asked to look at (also framed in the question's red). Colours: 배 green, 등 orange, off
the mat red; the mat outline yellow.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from yut_cam.vision.calibration import Calibration
from yut_cam.vision.reasons import asked_sticks
from yut_cam.vision.types import Reading

ROMAN = {"도": "do", "개": "gae", "걸": "geol", "윷": "yut", "모": "mo", "빽도": "baekdo", "낙": "nak"}
BELLY = (60, 200, 60)
BACK = (0, 140, 255)
OFF = (40, 40, 230)
MAT = (0, 220, 240)
ASK = (0, 0, 255)  # the question's colour: the top line and the frame round a stick it names
FONT = cv2.FONT_HERSHEY_SIMPLEX
HEAD_LINES = 3  # the top line wraps to at most this many, so it never hides the mat
LEGEND = "B=bae(flat up) D=deung(round up) *=baekdo mark X=off mat ?=look at it"
# the rules' words inside the reasons (English text naming 빽도, 낙, 배 ...), longest first
# so 빽도 is not read as 빽 + 도
_WORDS = sorted({**ROMAN, "배": "bae", "등": "deung"}.items(), key=lambda kv: -len(kv[0]))


def headline(reading: Reading) -> str:
    """The picture's top line in ASCII: the result, what else it may be, the confidence and,
    when the referee is asked, why (the rules' Korean words romanised, as the tags are)."""
    head = f"{ROMAN[reading.result]}" + (f" (or {'/'.join(ROMAN[r] for r in reading.alternatives)})"
                                          if reading.alternatives else "") + f"  conf {reading.confidence:.2f}"
    if reading.needs_referee:
        why = "; ".join(reading.reasons)
        for word, roman in _WORDS:
            why = why.replace(word, roman)
        head += "  REFEREE: " + why
    return head


def wrapped(text: str, width: int, scale: float, thick: int, most: int = HEAD_LINES) -> list[str]:
    """``text`` broken at spaces into lines that each fit ``width`` px in the picture's font,
    at most ``most`` of them (the last cut short with "..." when more would be needed)."""
    def fits(line: str) -> bool:
        return int(cv2.getTextSize(line, FONT, scale, thick)[0][0]) <= width

    lines: list[str] = []
    for word in text.split(" "):
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while not fits(word) and len(word) > 1:  # a word wider than the picture: cut it
            cut = len(word) - 1
            while cut > 1 and not fits(word[:cut]):
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    if len(lines) > most:
        last = lines[most - 1]
        while last and not fits(last + "..."):
            last = last[:-1]
        lines = lines[:most - 1] + [last + "..."]
    return lines


def annotate(image: npt.NDArray[np.uint8], reading: Reading, calibration: Calibration) -> npt.NDArray[np.uint8]:
    """A copy of ``image`` with the mat outline, each stick's box and tag, and the result."""
    out = np.asarray(image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    h, w = out.shape[:2]
    k = w / calibration.image_size[0]
    thick = max(1, int(round(w / 640)))
    mat = np.round(np.asarray(calibration.mat_polygon) * k).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(out, [mat], True, MAT, thick, cv2.LINE_AA)
    scale = max(0.4, w / 1600)
    asked = asked_sticks(reading.reasons) if reading.needs_referee else frozenset()
    for i, s in enumerate(reading.sticks):
        colour = OFF if not s.on_mat else (BELLY if s.face == "배" else BACK)
        box = np.round(np.asarray(s.box)).astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [box], True, colour, thick + (0 if s.confidence >= 0.8 else 1), cv2.LINE_AA)
        if i in asked:
            frame = np.round(framed(s.box, 3 * thick + 2)).astype(np.int32).reshape(-1, 1, 2)
            cv2.polylines(out, [frame], True, ASK, thick, cv2.LINE_AA)
        tag = (f"{i + 1}{'B' if s.face == '배' else 'D'}{'*' if s.marked else ''}{'X' if not s.on_mat else ''}"
               f"{'?' if i in asked else ''}")
        cx, cy = np.asarray(s.box).mean(axis=0)
        org = _tag_place(i, reading, scale)
        outlined(out, tag, org, scale, colour, thick, 1)
        if s.marked:
            cv2.circle(out, (int(cx), int(cy)), max(3, int(4 * scale)), colour, -1, cv2.LINE_AA)
    head_colour = ASK if reading.needs_referee else (255, 255, 255)
    step = int(28 * scale) + 4
    lines = [(line, step * (n + 1), head_colour)
             for n, line in enumerate(wrapped(headline(reading), w - 16, scale, thick + 3))]
    for text, y, colour in lines + [(LEGEND, h - 8, (255, 255, 255))]:
        outlined(out, text, (8, y), scale, colour, thick, 2)
    return out


def outlined(out: npt.NDArray[np.uint8], text: str, org: tuple[int, int], scale: float,
             colour: tuple[int, int, int], thick: int, edge: int) -> None:
    """Draw ``text`` in ``colour`` on a black outline ``edge`` px wide on the BGR picture ``out``,
    readable on any mat.
    The outline is the thin text's own strokes grown by ``edge``: drawn thicker, OpenCV
    would space its letters wider than the thin text's, and a long line's outline would
    drift off it."""
    (tw, th), base = cv2.getTextSize(text, FONT, scale, thick)
    x, y = org
    pad = edge + thick + 2
    h, w = out.shape[:2]
    y0, y1, x0, x1 = max(0, y - th - pad), min(h, y + base + pad), max(0, x - pad), min(w, x + tw + pad)
    if y1 > y0 and x1 > x0:
        strokes = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.putText(strokes, text, (x - x0, y - y0), FONT, scale, 255, thick, cv2.LINE_AA)
        grown = cv2.dilate(strokes, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * edge + 1, 2 * edge + 1)))
        keep = cv2.merge([255 - grown] * 3)
        out[y0:y1, x0:x1] = cv2.multiply(out[y0:y1, x0:x1], keep, scale=1.0 / 255.0)
    cv2.putText(out, text, org, FONT, scale, colour, thick, cv2.LINE_AA)


def framed(box: tuple[tuple[float, float], ...], gap: float) -> npt.NDArray[np.float64]:
    """The corners of a frame ``gap`` px outside the rectangle ``box`` (four corners in order)
    on every side."""
    corners = np.asarray(box, np.float64)
    out = []
    for k, p in enumerate(corners):
        # each corner moves on out along both sides that meet at it
        sides = (p - corners[k - 1], p - corners[(k + 1) % 4])
        out.append(p + sum(d / max(float(np.linalg.norm(d)), 1e-6) for d in sides) * gap)
    return np.asarray(out, np.float64)


def _tag_place(i: int, reading: Reading, scale: float) -> tuple[int, int]:
    """Where stick ``i``'s tag goes: beside its long side, on the side away from the
    nearest other stick (touching sticks' tags do not overlap)."""
    box = np.asarray(reading.sticks[i].box, np.float64)
    centre = box.mean(axis=0)
    side_a, side_b = box[1] - box[0], box[2] - box[1]
    across = side_b if np.linalg.norm(side_a) >= np.linalg.norm(side_b) else side_a
    normal = across / max(float(np.linalg.norm(across)), 1e-6)
    others = [np.asarray(o.box, np.float64).mean(axis=0) for j, o in enumerate(reading.sticks) if j != i]
    if others:
        nearest = min(others, key=lambda c: float(np.linalg.norm(c - centre)))
        if float(np.dot(nearest - centre, normal)) > 0:
            normal = -normal
    reach = float(np.linalg.norm(across)) / 2 + 14 * scale
    x, y = centre + normal * reach
    return int(x - 12 * scale), int(y + 6 * scale)
