"""Motion measures, the settle watcher on generated clips, and read_clip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from yut_cam.vision.clip import read_clip, reading_fields
from yut_cam.vision.errors import ImageError
from yut_cam.vision.motion import (
    SettleWatcher,
    WatchConfig,
    WatchEvent,
    border_count,
    changed_mask,
    mean_squared_difference,
    moving_pixels,
)
from yut_cam.vision.sources import to_lores
from yut_cam.vision.synth import SceneStyle, random_style, render_clip, render_session
from yut_cam.vision.synth_clip import ClipRenderer, arm_reach, random_arm

SIZE = (480, 270)


def _img(value: int = 100) -> np.ndarray:
    return np.full((60, 80), value, np.uint8)


def test_msd_ignores_a_uniform_brightness_change() -> None:
    a = _img(100)
    assert mean_squared_difference(a, a) == 0
    assert mean_squared_difference(a, _img(110)) == 0
    assert mean_squared_difference(a, _img(110), remove_offset=False) == 100


def test_moving_pixels_counts_a_moved_block() -> None:
    a, b = _img(), _img()
    b[10:20, 10:15] = 200
    assert moving_pixels(a, b, 20) == 50
    assert moving_pixels(a, a + 30, 20) == 0


def test_changed_mask_and_border() -> None:
    bg = _img(100).astype(np.float32)
    cur = _img(130)  # brighter light ...
    cur[20:30, 30:40] = 10  # ... and a dark object
    mask = changed_mask(cur, bg, 10)
    assert 100 <= int(mask.sum()) <= 150 and border_count(mask) == 0  # 10x10, smoothed
    cur[0:30, 0:8] = 10  # something reaching in from the edge
    assert border_count(changed_mask(cur, bg, 10)) > 10


def test_sizes_must_match() -> None:
    with pytest.raises(ImageError, match="sizes differ"):
        mean_squared_difference(_img(), np.zeros((10, 10), np.uint8))


def test_config_needs_hysteresis() -> None:
    with pytest.raises(ValueError, match="hysteresis"):
        WatchConfig(start_factor=2.0, quiet_factor=3.0)


def _watch(frames: list[np.ndarray], config: WatchConfig | None = None) -> list[WatchEvent]:
    w = SettleWatcher(config)
    return [e for f in frames if (e := w.update(to_lores(f))) is not None]


@pytest.mark.parametrize("seed", range(6))
def test_settle_is_found_within_a_few_frames_of_rest(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    frames, truth, settled = render_clip(random_style(rng), rng, SIZE, hand=seed % 2 == 0)
    events = _watch(frames)
    found = [e.index for e in events if e.kind == "settled"]
    assert len(found) == 1, events
    # quiet_frames (6) after the last visible movement; never before the sticks stop
    assert settled - 2 <= found[0] <= settled + 8, (found, settled)
    assert found[0] - settled < 15  # 0.5 s at 30 fps


def _empty_clip(rng: np.random.Generator, n: int, drift: float, arm: bool) -> list[np.ndarray]:
    style = random_style(rng)
    r = ClipRenderer(style, SIZE, rng, drift)
    a = random_arm(r.scene, rng) if arm else None
    return [r.frame(t, [], a, arm_reach(t, 20, 6)) for t in range(n)]


@pytest.mark.parametrize("seed", range(3))
def test_noise_and_light_drift_are_no_throw(seed: int) -> None:
    rng = np.random.default_rng(200 + seed)
    frames = _empty_clip(rng, 120, drift=0.05, arm=False)
    assert [e.kind for e in _watch(frames)] == []


@pytest.mark.parametrize("seed", range(3))
def test_an_arm_passing_is_no_throw(seed: int) -> None:
    rng = np.random.default_rng(300 + seed)
    frames = _empty_clip(rng, 80, drift=0.0, arm=True)
    kinds = [e.kind for e in _watch(frames)]
    assert "settled" not in kinds and kinds[-1:] == ["abandoned"]


def test_a_still_arm_is_not_a_settle_until_the_timeout() -> None:
    rng = np.random.default_rng(9)
    style = SceneStyle(noise=2.0)
    r = ClipRenderer(style, SIZE, rng, 0.0)
    arm = random_arm(r.scene, rng)
    frames = [r.frame(t, [], arm, min(1.0, max(0.0, (t - 10) / 9))) for t in range(60)]
    kinds = [e.kind for e in _watch(frames)]
    assert kinds == ["start"]
    kinds = [e.kind for e in _watch(frames, WatchConfig(occluded_timeout=20))]
    assert kinds == ["start", "settled"]


def test_two_throws_need_the_mat_cleared_in_between() -> None:
    rng = np.random.default_rng(12)
    frames, throws = render_session(random_style(rng), rng, 2, SIZE, hand=False)
    events = [e for e in _watch(frames) if e.kind in ("settled", "cleared")]
    assert [e.kind for e in events] == ["settled", "cleared", "settled"]
    for e, (_, settled) in zip([e for e in events if e.kind == "settled"], throws):
        assert settled - 2 <= e.index <= settled + 8


class FakeReading:
    def __init__(self, result: str) -> None:
        self.result = result

    def to_json(self) -> str:
        return json.dumps({"result": self.result, "confidence": 0.9, "needs_referee": False, "sticks": []})


def test_read_clip_calls_the_reader_once_per_throw(tmp_path: Path) -> None:
    rng = np.random.default_rng(21)
    frames, throws = render_session(random_style(rng), rng, 2, SIZE, hand=False)
    calls: list[tuple[tuple[int, ...], Any]] = []

    def read(img: np.ndarray, cal: Any) -> FakeReading:
        calls.append((img.shape, cal))
        return FakeReading("개")

    out = read_clip(frames, "CAL", read, record_dir=tmp_path)
    assert len(out) == 2 and len(calls) == 2
    assert all(shape == (SIZE[1], SIZE[0], 3) and cal == "CAL" for shape, cal in calls)
    assert [o["result"] for o in out] == ["개", "개"]
    for o, (_, settled) in zip(out, throws):
        assert abs(o["settled_frame"] - settled) <= 8
        assert (Path(o["capture"]) / "clip.avi").is_file()
        assert (Path(o["capture"]) / "settled.jpg").is_file()


def test_a_reader_error_flags_that_throw_only() -> None:
    rng = np.random.default_rng(22)
    frames, _, _ = render_clip(random_style(rng), rng, SIZE, hand=False)

    def read(img: np.ndarray, cal: Any) -> FakeReading:
        raise ImageError("glare everywhere")

    (entry,) = read_clip(frames, None, read)
    assert entry["result"] is None and entry["needs_referee"] and "glare" in entry["error"]


@pytest.mark.parametrize("reading", [
    {"result": "도"},
    FakeReading("도"),
    type("R", (), {"to_dict": lambda self: {"result": "도"}})(),
])
def test_reading_fields(reading: Any) -> None:
    assert reading_fields(reading)["result"] == "도"


def test_live_stream_survives_a_camera_loss() -> None:
    from yut_cam.vision.clip import iter_throws, live_frames
    from yut_cam.vision.sources import FakeCamera, ResilientSource, SourceEvent

    rng = np.random.default_rng(31)
    frames, _, settled = render_clip(random_style(rng), rng, SIZE, hand=False)
    feed = iter(frames)
    now = [0.0]
    waits: list[float] = []
    opened: list[FakeCamera] = []

    def factory() -> FakeCamera:
        cam = FakeCamera(feed, fail_after=10 if not opened else None)
        opened.append(cam)
        return cam

    def wait(s: float) -> None:
        waits.append(s)
        now[0] += 0.3

    events: list[SourceEvent] = []
    src = ResilientSource(factory, clock=lambda: now[0], report=events.append)
    stream = live_frames(src, stop=lambda: len(waits) > 20, wait=wait)
    out = list(iter_throws(stream, None, lambda img, cal: {"result": "개"}))
    assert [e.kind for e in events] == ["lost", "recovered"]
    assert len(opened) == 2
    assert len(out) == 1 and abs(out[0]["settled_frame"] - settled) <= 8


@pytest.mark.parametrize("seed", [41, 42, 44])
@pytest.mark.parametrize("step", [0.75, 0.85, 1.2, 1.35])
def test_an_exposure_step_is_no_throw(step: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    frames = _empty_clip(rng, 90, drift=0.0, arm=False)
    stepped = frames[:40] + [np.clip(f.astype(np.float32) * step, 0, 255).astype(np.uint8) for f in frames[40:]]
    assert "settled" not in [e.kind for e in _watch(stepped)]


def test_changed_mask_fits_gain() -> None:
    bg = np.tile(np.linspace(40, 200, 80, dtype=np.float32), (60, 1))  # a lit gradient
    cur = (bg * 1.15).astype(np.uint8)
    assert int(changed_mask(cur, bg, 8).sum()) == 0
    assert int(changed_mask(cur, bg, 8, fit_gain=False).sum()) > 100
    cur[20:30, 30:40] = 0
    assert 100 <= int(changed_mask(cur, bg, 8).sum()) <= 150
