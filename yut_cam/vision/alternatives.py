"""What else a throw the reader asks about could be: the results the referee chooses among.

When the reader is unsure of a stick's face, of whether a stick touches the mat, or of the
빽도 mark, the throw can only be its reading or what that reading becomes with those
doubts resolved the other way. The console shows these few results beside the reading, so
the referee looks at the stick named in the reasons and taps one of two or three results
instead of counting all four sticks again. When which regions are the four sticks is itself
in doubt (merged sticks, a stick missing, more stick-like regions than sticks), anything is
possible and no alternatives are given.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from yut_cam.vision.types import BY_FLAT_UP, Result, StickReading

# more open questions than this, or more possible results (the reading included) than
# MAX_CHOICES: the referee has to look at everything anyway
MAX_OPEN = 4
MAX_CHOICES = 3


@dataclass(frozen=True)
class Doubts:
    """What the reader left open about one throw (stick indices as in the reading)."""

    faces: frozenset[int] = field(default_factory=frozenset)  # the face may be the other one
    edges: frozenset[int] = field(default_factory=frozenset)  # may lie on / off the mat the other way
    mark: bool = False  # the one 배-up stick may or may not be the marked stick
    whole: bool = False  # which regions are the four sticks is itself in doubt


def alternatives(sticks: Sequence[StickReading], result: Result, doubts: Doubts,
                 margins: Sequence[float] = ()) -> tuple[Result, ...]:
    """The results other than ``result`` the throw could be, likeliest first: fewest doubts
    resolved the other way, then the least sure faces (``margins``, 0..1 a stick) first.
    Empty when there is no doubt, the doubt is about the sticks themselves, or too much is
    open for a short list to help."""
    if doubts.whole or len(sticks) != 4:
        return ()
    opened: list[tuple[str, int]] = [("face", i) for i in sorted(doubts.faces)] + \
                                    [("edge", i) for i in sorted(doubts.edges)]
    if doubts.mark:
        opened.append(("mark", -1))
    if not opened or len(opened) > MAX_OPEN:
        return ()

    def weight(item: tuple[str, int]) -> float:
        kind, i = item
        return margins[i] if kind == "face" and i < len(margins) else 0.5

    combos = [c for k in range(1, len(opened) + 1) for c in itertools.combinations(opened, k)]
    combos.sort(key=lambda c: (len(c), sum(map(weight, c))))
    seen: list[Result] = [result]
    for combo in combos:
        for r in _results(sticks, combo):
            if r not in seen:
                seen.append(r)
    if len(seen) > MAX_CHOICES:
        return ()
    return tuple(seen[1:])


def _results(sticks: Sequence[StickReading], combo: Sequence[tuple[str, int]]) -> list[Result]:
    """The results of the throw with the doubts in ``combo`` resolved the other way (two when
    the 빽도 mark of the one 배-up stick is unknown: it was read 등 up, so its ends were not)."""
    flips = {i for kind, i in combo if kind == "face"}
    moved = {i for kind, i in combo if kind == "edge"}
    faces = [("등" if s.face == "배" else "배") if i in flips else s.face for i, s in enumerate(sticks)]
    if any((not s.on_mat) != (i in moved) for i, s in enumerate(sticks)):
        return ["낙"]
    bellies = [i for i, f in enumerate(faces) if f == "배"]
    if len(bellies) != 1:
        return [BY_FLAT_UP[len(bellies)]]
    (one,) = bellies
    if one in flips:
        return ["도", "빽도"]
    marked = sticks[one].marked != any(kind == "mark" for kind, _ in combo)
    return ["빽도" if marked else "도"]
