"""How the flat (배) and round (등) faces of the sticks look at one venue.

A :class:`FaceModel` is fitted to feature vectors (:func:`yut_cam.vision.functional.face_features`)
of sticks known to lie 배 or 등 up: first the calibration's four and four, then also the
sticks of every throw the referee confirms (:mod:`yut_cam.vision.learning`). Four sticks a
side say little about how a face varies under this light across the mat; a few dozen say
much more, and with them the model weighs the features together (a discriminant with
shrinkage) instead of one by one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from yut_cam.vision import functional as F

Samples = tuple[tuple[float, ...], ...]

LEARN_KEEP = 60  # confirmed sticks kept per face (the latest): light changes over a day
MIN_DIRECTION = 8  # confirmed sticks before the features are weighed together
# never trust a spread below these (per feature, as FEATURE_NAMES), nor below a fifth of
# the gap between the faces: four samples a side say little about spread
SPREAD_FLOOR = (1.0, 0.5, 0.5, 0.3, 0.3, 0.5, 1.0, 0.3)
# a score (0 배, 1 등) reads no further past either face than this
SCORE_RANGE = (-0.25, 1.25)


# features of a stick patch that measure the same property (see functional.face_features)
FEATURE_GROUPS = (("brightness", "chroma_a", "chroma_b"),
                  ("across_shading", "across_curvature", "dark_fraction"),
                  ("texture", "along_variation"))


@dataclass(frozen=True)
class FaceModel:
    """Mean features of the flat (배) and round (등) faces and how much each varies."""

    names: tuple[str, ...]
    belly: tuple[float, ...]
    back: tuple[float, ...]
    spread: tuple[float, ...]
    saturated: tuple[float, float] = (0.0, 0.0)  # largest blown-out share seen on 배, 등
    # RMS distance of the known sticks' scores from 0 (배) and 1 (등): how far a score can
    # stray at this venue (low-contrast sticks stray further)
    fit_error: float = 0.0
    # the features of the calibration's own sticks (배, 등) and of sticks in throws the
    # referee confirmed since (the latest LEARN_KEEP a face): what the model is fitted to
    samples: tuple[Samples, Samples] = ((), ())
    learned: tuple[Samples, Samples] = ((), ())
    # with enough confirmed sticks, the weights of one discriminant over all the features
    # (they vary together: a brighter patch shows its texture more): empty until then
    direction: tuple[float, ...] = ()
    # the least and greatest light its known sticks lay in (the empty mat's light under
    # them at calibration, functional.illumination, the mean of its three channels): a stick
    # elsewhere is divided by the mat's light there, and beyond them that is a guess (a lamp's
    # pool on a glossy mat brightens the mat more than the sticks), and so is the face.
    # (0, 0): not known (files from before)
    lights: tuple[float, float] = (0.0, 0.0)

    @property
    def learned_count(self) -> int:
        """How many sticks of confirmed throws the model has learned (both faces)."""
        return len(self.learned[0]) + len(self.learned[1])

    def score(self, features: npt.NDArray[np.float64]) -> float:
        """0 looks like 배, 1 like 등.

        With :attr:`direction` (enough confirmed sticks), the position between the two
        faces' means along that discriminant. Until then:

        Each feature says where the stick lies between the two faces, weighted by how
        well it separated them at calibration. Features that measure one thing (the
        colour; the shading across a round face, which also turns with the stick against
        the light; the surface texture) are first averaged within their group, so three
        shading measures do not outvote the colour three to one."""
        b, k, s = (np.asarray(v, np.float64) for v in (self.belly, self.back, self.spread))
        if self.direction:
            w = np.asarray(self.direction, np.float64)
            return float(np.clip((features - b) @ w / float((k - b) @ w), *SCORE_RANGE))
        diff = k - b
        safe = np.where(np.abs(diff) < 1e-9, 1e-9, diff)
        t = np.clip((features - b) / safe, *SCORE_RANGE)
        w = np.minimum((diff / s) ** 2, 100.0)
        total, weight = 0.0, 0.0
        for group in FEATURE_GROUPS:
            idx = [self.names.index(n) for n in group if n in self.names]
            gw = w[idx]
            if float(gw.sum()) <= 1e-9:
                continue
            total += float(gw.max()) * float((gw * t[idx]).sum() / gw.sum())
            weight += float(gw.max())
        return total / max(weight, 1e-9)

    def light_off(self, light: float) -> float:
        """How many times brighter or darker ``light`` (as :attr:`lights` measures it) is than
        any the known sticks were seen in: 1 within them, or when they are not known."""
        lo, hi = self.lights
        if lo <= 0.0 or light <= 0.0:
            return 1.0
        return max(1.0, light / hi, lo / light)

    def novelty(self, features: npt.NDArray[np.float64], back: bool) -> float:
        """How far ``features`` lie from the face they are read as (``back``: 등), in spreads,
        weighted as :meth:`score` weighs them: a patch holding a shadow, the mat's band or
        another stick looks like neither face, whichever it is nearer to."""
        b, k, s = (np.asarray(v, np.float64) for v in (self.belly, self.back, self.spread))
        w = np.minimum(((k - b) / s) ** 2, 100.0)
        z = np.abs(features - (k if back else b)) / s
        return float((w * z).sum() / max(float(w.sum()), 1e-9))

    @classmethod
    def fit(cls, belly: Sequence[Sequence[float]], back: Sequence[Sequence[float]],
            learned: tuple[Samples, Samples] = ((), ()), saturated: tuple[float, float] = (0.0, 0.0)) -> FaceModel:
        """The model of the calibration's ``belly`` and ``back`` feature vectors (at least two
        each) and the ``learned`` ones (배, 등) from confirmed throws."""
        calib = (tuple(tuple(map(float, x)) for x in belly), tuple(tuple(map(float, x)) for x in back))
        learned = (tuple(learned[0][-LEARN_KEEP:]), tuple(learned[1][-LEARN_KEEP:]))
        b = np.array(calib[0] + learned[0], np.float64)
        k = np.array(calib[1] + learned[1], np.float64)
        weigh = len(learned[0]) + len(learned[1]) >= MIN_DIRECTION
        model = dataclasses.replace(_estimate(b, k, weigh, saturated), samples=calib, learned=learned)
        if weigh:
            # each known stick scored by the model of all the others: a discriminant fitted
            # to a few dozen sticks scores its own sticks better than the next throw's
            errors = [_estimate(np.delete(b, i, axis=0), k, True, saturated).score(x) for i, x in enumerate(b)]
            errors += [1.0 - _estimate(b, np.delete(k, i, axis=0), True, saturated).score(x) for i, x in enumerate(k)]
        else:
            errors = [model.score(x) for x in b] + [1.0 - model.score(x) for x in k]
        return dataclasses.replace(model, fit_error=float(np.sqrt(np.mean(np.square(errors)))))

    def taught(self, belly: Sequence[Sequence[float]], back: Sequence[Sequence[float]],
               lights: Sequence[float] = ()) -> FaceModel:
        """This model refitted with more confirmed sticks (feature vectors, 배 and 등, seen in
        ``lights``, which widen :attr:`lights`); itself when there is nothing to add or no
        calibration samples to refit from."""
        if not (belly or back) or not (self.samples[0] and self.samples[1]):
            return self
        more = (self.learned[0] + tuple(tuple(map(float, x)) for x in belly),
                self.learned[1] + tuple(tuple(map(float, x)) for x in back))
        seen = self.lights
        if seen[0] > 0.0 and lights:
            seen = (min(seen[0], *lights), max(seen[1], *lights))
        return dataclasses.replace(FaceModel.fit(self.samples[0], self.samples[1], more, self.saturated), lights=seen)


def _estimate(b: npt.NDArray[np.float64], k: npt.NDArray[np.float64], weigh: bool,
              saturated: tuple[float, float]) -> FaceModel:
    """Means and spreads of the 배 (``b``) and 등 (``k``) feature vectors, and with ``weigh``
    the discriminant over them."""
    mb, mk = b.mean(axis=0), k.mean(axis=0)
    pooled = np.sqrt((b.var(axis=0, ddof=1) + k.var(axis=0, ddof=1)) / 2.0)
    spread = np.maximum(np.maximum(pooled, 0.2 * np.abs(mk - mb)), np.asarray(SPREAD_FLOOR))
    direction: tuple[float, ...] = ()
    if weigh:
        # the features' correlation within a face, shrunk toward none as much as the samples
        # are few (fully at MIN_DIRECTION + 2: each feature then weighed by its own separation)
        z = np.vstack([(b - mb) / spread, (k - mk) / spread])
        dof = max(1, len(z) - 2)
        shrink = min(1.0, MIN_DIRECTION / dof)
        corr = (1.0 - shrink) * (z.T @ z) / dof + shrink * np.eye(len(spread))
        direction = tuple(map(float, np.linalg.solve(corr, (mk - mb) / spread) / spread))
    return FaceModel(F.FEATURE_NAMES, tuple(map(float, mb)), tuple(map(float, mk)), tuple(map(float, spread)),
                     saturated, direction=direction)
