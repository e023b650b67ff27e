"""Throw start and settle detection on the small ``lores`` luma stream.

Pure functions (array in, number out) and one small state machine, :class:`SettleWatcher`.

Measures (like picamera2's ``capture_motion.py``, made robust):

* :func:`mean_squared_difference` of two frames with the mean difference removed, so a
  slow light drift or a global flicker is not motion;
* :func:`moving_pixels`: how many pixels changed by more than a noise-scaled threshold
  (small, slow sliding shows here before it shows in the mean);
* :func:`changed_mask` against the learned empty-mat background (offset removed), used to
  tell "sticks on the view" from "nothing there" and to see an arm crossing the border.

States of :class:`SettleWatcher`::

    learning -> idle --motion--> moving --N quiet frames--> settled (event) -> wait_clear
                 ^                  |  quiet, nothing left on the view: "abandoned"    |
                 +------------------+------ the view is empty again for M frames ------+

Decisions (documented for the tests):

* a throw *starts* when the frame-to-frame difference exceeds the start threshold
  (hysteresis: the quiet threshold is lower);
* it is *settled* after ``quiet_frames`` quiet frames (default 6 = 0.2 s at 30 fps, so
  a read of ~0.1-0.2 s on a Pi still lands within 0.5 s of rest) **and** something differs
  from the empty background **and** nothing differs along the image border (an arm or a
  person reaches in from the edge; sticks lie inside the view).  A person standing still
  in view for ``occluded_timeout`` frames (2 s) is settled anyway (the reader flags it);
* an arm passing over the mat and leaving, with nothing left behind, is no throw;
* after a settle the watcher re-arms only once the view matches the empty mat for
  ``clear_frames`` frames (the sticks were picked up);
* the background and the noise level are re-learned slowly while idle, so light drift
  and camera noise set their own thresholds; the comparison with the background fits
  gain and offset first, so an exposure step (auto exposure, a cloud, lights dimmed) is
  not taken for sticks left on the mat.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.errors import ImageError

U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]


def luma(frame: NDArray[np.uint8]) -> U8:
    """A 2-D uint8 luma image (BGR frames are converted)."""
    if frame.ndim == 3 and frame.shape[2] == 3:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)
    if frame.ndim != 2 or frame.dtype != np.uint8 or frame.size == 0:
        raise ImageError(f"lores frame must be a 2-D uint8 array, got {frame.dtype} {frame.shape!r}")
    return frame


def _diff(a: NDArray[np.generic], b: NDArray[np.generic]) -> F32:
    if a.shape != b.shape:
        raise ImageError(f"frame sizes differ: {a.shape!r} vs {b.shape!r}")
    out: F32 = np.asarray(np.subtract(a, b, dtype=np.float32), np.float32)
    return out


def mean_squared_difference(a: NDArray[np.generic], b: NDArray[np.generic],
                            remove_offset: bool = True) -> float:
    """Mean squared difference of two frames; with ``remove_offset`` the variance of the
    difference (a uniform brightness change scores 0)."""
    d = _diff(a, b)
    if remove_offset:
        return float(d.var())
    return float(np.square(d).mean())


def moving_pixels(a: NDArray[np.generic], b: NDArray[np.generic], threshold: float) -> int:
    """Number of pixels whose difference (mean difference removed) exceeds ``threshold``."""
    d = _diff(a, b)
    d -= np.float32(d.mean())
    return int(np.count_nonzero(np.abs(d) > threshold))


def changed_mask(frame: NDArray[np.generic], background: NDArray[np.generic], threshold: float,
                 fit_gain: bool = True) -> NDArray[np.bool_]:
    """Pixels differing from ``background`` by more than ``threshold``, 3x3 smoothed so
    single noisy pixels do not count.  The background is first matched to the frame's
    exposure: offset only, or with ``fit_gain`` gain and offset (a robust fit on a
    subsample), so an exposure or white-balance step is not "something on the mat"."""
    d = _diff(frame, background)
    if fit_gain:
        fr = np.asarray(frame, np.float32)
        bgf = np.asarray(background, np.float32)
        f, b = fr[::4, ::4].ravel(), bgf[::4, ::4].ravel()
        keep = (f < 250) & (f > 5)  # clipped pixels say nothing about the gain
        gain = 1.0
        for _ in range(2):  # least squares, then again without the outliers (the sticks)
            if int(keep.sum()) < 50 or float(b[keep].std()) < 1.0:
                break
            bk, fk = b[keep], f[keep]
            gain = float(np.clip(np.cov(bk, fk)[0, 1] / max(float(bk.var()), 1e-6), 0.5, 2.0))
            r = f - np.float32(gain) * b
            keep &= np.abs(r - np.median(r[keep])) < 2 * threshold + 6
        if abs(gain - 1.0) > 0.02:
            d = fr - np.float32(gain) * bgf
            # both near white: clipping, not a change
            d[np.minimum(fr, bgf * np.float32(gain)) >= 235] = np.float32(np.median(d[::4, ::4]))
    d -= np.float32(np.median(d[::4, ::4]))
    d = np.asarray(cv2.blur(d, (3, 3)), np.float32)
    out: NDArray[np.bool_] = np.abs(d) > threshold
    return out


def border_count(mask: NDArray[np.bool_], width: int = 1) -> int:
    """Changed pixels in the outer ``width`` rows and columns of the frame."""
    w = max(1, width)
    return int(np.count_nonzero(mask[:w]) + np.count_nonzero(mask[-w:])
               + np.count_nonzero(mask[w:-w, :w]) + np.count_nonzero(mask[w:-w, -w:]))


@dataclass(frozen=True)
class WatchConfig:
    """Thresholds of the watcher; pixel counts are fractions of the lores frame area."""

    quiet_frames: int = 6
    clear_frames: int = 8
    learn_frames: int = 8
    occluded_timeout: int = 60
    min_start_msd: float = 3.0
    start_factor: float = 4.0
    quiet_factor: float = 2.0
    start_pixels: float = 0.0008
    quiet_pixels: float = 0.00025
    present_pixels: float = 0.0004
    border_pixels: int = 6
    background_rate: float = 0.05

    def __post_init__(self) -> None:
        if self.quiet_frames < 1 or self.clear_frames < 1 or self.learn_frames < 1:
            raise ValueError(f"frame counts must be >= 1: {self!r}")
        if self.quiet_factor >= self.start_factor:
            raise ValueError(f"quiet_factor must be below start_factor (hysteresis): {self!r}")


@dataclass(frozen=True)
class WatchEvent:
    """``start`` (motion began), ``settled`` (read this frame), ``abandoned`` (motion but
    nothing left: no throw), ``cleared`` (the mat is empty again; armed)."""

    kind: str
    index: int
    started: int


class SettleWatcher:
    """Feed lores frames with :meth:`update`; it returns an event when one happens."""

    def __init__(self, config: WatchConfig | None = None) -> None:
        self.config = config or WatchConfig()
        self.state = "learning"
        self.index = -1
        self.background: F32 | None = None
        self.noise = 1.0  # msd of two frames of a still scene
        self._prev: U8 | None = None
        self._learn: list[U8] = []
        self._msds: list[float] = []
        self._quiet = 0
        self._clear = 0
        self._started = -1
        self.last_msd = 0.0
        self.last_moving = 0

    # thresholds follow the measured noise
    def _sigma(self) -> float:
        return float(np.sqrt(max(self.noise, 0.25)))

    def _pix_threshold(self) -> float:
        return max(8.0, 5.0 * self._sigma())

    def _bg_threshold(self) -> float:
        return max(7.0, 3.5 * self._sigma())

    def _is_motion(self, msd: float, moving: int, area: int) -> bool:
        c = self.config
        return msd > max(c.min_start_msd, c.start_factor * self.noise) or moving > c.start_pixels * area

    def _is_quiet(self, msd: float, moving: int, area: int) -> bool:
        c = self.config
        return msd < max(c.min_start_msd * c.quiet_factor / c.start_factor, c.quiet_factor * self.noise) \
            and moving <= c.quiet_pixels * area

    def look(self, frame: U8) -> tuple[bool, bool]:
        """(something on the view, something crossing the border) against the background."""
        assert self.background is not None
        mask = changed_mask(frame, self.background, self._bg_threshold())
        present = int(np.count_nonzero(mask)) > self.config.present_pixels * mask.size
        return present, border_count(mask) >= self.config.border_pixels

    def update(self, frame: NDArray[np.uint8]) -> WatchEvent | None:
        cur = luma(frame)
        self.index += 1
        prev, self._prev = self._prev, cur
        c = self.config
        if prev is None or prev.shape != cur.shape:
            self._learn = [cur]
            self.state = "learning"
            return None
        msd = mean_squared_difference(cur, prev)
        moving = moving_pixels(cur, prev, self._pix_threshold()) if self.state != "learning" else 0
        self.last_msd, self.last_moving = msd, moving
        area = cur.size
        if self.state == "learning":
            self._learn.append(cur)
            self._msds.append(msd)
            if len(self._learn) > c.learn_frames:
                self.background = np.mean(np.stack(self._learn), axis=0).astype(np.float32)
                self.noise = max(0.25, float(np.median(self._msds)))
                self._learn, self._msds = [], []
                self.state = "idle"
            return None
        if self.state == "idle":
            if self._is_motion(msd, moving, area):
                self.state, self._started, self._quiet = "moving", self.index, 0
                return WatchEvent("start", self.index, self.index)
            if self._is_quiet(msd, moving, area):
                self.noise = 0.97 * self.noise + 0.03 * max(msd, 0.25)
                assert self.background is not None
                cv2.accumulateWeighted(cur.astype(np.float32), self.background, c.background_rate)
            return None
        quiet = self._is_quiet(msd, moving, area)
        if self.state == "moving":
            self._quiet = self._quiet + 1 if quiet else 0
            if self._quiet < c.quiet_frames:
                return None
            present, occluded = self.look(cur)
            if occluded and self._quiet < c.occluded_timeout:
                return None
            if present:
                self.state, self._clear = "wait_clear", 0
                return WatchEvent("settled", self.index, self._started)
            self.state = "idle"
            return WatchEvent("abandoned", self.index, self._started)
        # wait_clear: the sticks are being read or looked at; re-arm once the mat is empty
        if quiet:
            present, occluded = self.look(cur)
            self._clear = self._clear + 1 if not present and not occluded else 0
        else:
            self._clear = 0
        if self._clear >= c.clear_frames:
            self.state = "idle"
            return WatchEvent("cleared", self.index, self._started)
        return None
