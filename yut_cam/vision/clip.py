"""Reading every throw in a stream of frames: watch ``lores``, read ``main`` once per settle.

``read_clip(frames, calibration, read_fn=None)`` runs a :class:`SettleWatcher` over the
frames (BGR arrays or :class:`~yut_cam.vision.sources.Frame`) and calls
``read_fn(image_bgr, calibration)`` (default: :func:`yut_cam.vision.reader.read_image`)
once per settled throw, on the full-resolution frame.  It returns one dict per throw::

    {"settled_frame": N, "started_frame": S, "result": ..., "confidence": ...,
     "needs_referee": ..., "sticks": [...]}

A reader error on one throw does not stop the clip: that throw gets ``"result": null``,
``"needs_referee": true`` and ``"error"``.  With ``record_dir`` each throw is recorded
(:mod:`yut_cam.vision.capture`) into ``record_dir/<n>/`` (n from 1).

For the live service: ``iter_throws(live_frames(ResilientSource(factory), stop), cal)``
yields each throw as it is read; a lost camera only pauses the stream.
"""

from __future__ import annotations

import json
from collections import deque
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.errors import VisionError
from yut_cam.vision.motion import SettleWatcher, WatchConfig
from yut_cam.vision.sources import LORES_SIZE, Frame, ResilientSource, check_frame, to_lores

U8 = NDArray[np.uint8]
ReadFn = Callable[[U8, Any], Any]
PRE_ROLL = 5  # frames recorded before the detected start


def reading_fields(reading: Any) -> dict[str, Any]:
    """The JSON fields of a reading (``to_dict()``, ``to_json()`` string or dict, or a mapping)."""
    if isinstance(reading, dict):
        return dict(reading)
    to_dict = getattr(reading, "to_dict", None)
    if callable(to_dict):
        out = to_dict()
        if isinstance(out, dict):
            return out
    to_json = getattr(reading, "to_json", None)
    if callable(to_json):
        out = to_json()
        if isinstance(out, str):
            out = json.loads(out)
        if isinstance(out, dict):
            return out
    raise TypeError(f"cannot turn {type(reading).__name__} into reading fields")


def _default_read() -> ReadFn:
    from yut_cam.vision.reader import read_image

    fn: ReadFn = read_image
    return fn


def read_clip(frames: Iterable[U8 | Frame], calibration: Any, read_fn: ReadFn | None = None, *,
              config: WatchConfig | None = None, lores_size: tuple[int, int] = LORES_SIZE,
              record_dir: str | Path | None = None, fps: float = 30.0) -> list[dict[str, Any]]:
    """Read each throw that settles in ``frames``; see the module docstring."""
    return list(iter_throws(frames, calibration, read_fn, config=config, lores_size=lores_size,
                            record_dir=record_dir, fps=fps))


def iter_throws(frames: Iterable[U8 | Frame], calibration: Any, read_fn: ReadFn | None = None, *,
                config: WatchConfig | None = None, lores_size: tuple[int, int] = LORES_SIZE,
                record_dir: str | Path | None = None, fps: float = 30.0) -> Iterator[dict[str, Any]]:
    """Like :func:`read_clip` but yields each throw as soon as it is read (live streams)."""
    from yut_cam.vision.capture import write_throw

    read = read_fn or _default_read()
    watcher = SettleWatcher(config)
    count = 0
    recording: list[U8] = []
    pre: deque[U8] = deque(maxlen=PRE_ROLL)
    active = False
    for i, item in enumerate(frames):
        if isinstance(item, Frame):
            main = item.main
            lores = item.lores
        else:
            main = check_frame(item, f"frame {i}")
            lores = to_lores(main, lores_size)
        if record_dir is not None and main is not None:
            if active:
                recording.append(main)
            else:
                pre.append(main)
        ev = watcher.update(lores)
        if ev is None:
            continue
        if ev.kind == "start":
            active = True
            recording = list(pre)
            continue
        if ev.kind == "abandoned":
            active, recording = False, []
            continue
        if ev.kind != "settled":
            continue
        active = False
        entry: dict[str, Any] = {"settled_frame": ev.index, "started_frame": ev.started}
        if main is None:
            entry.update({"result": None, "needs_referee": True,
                          "error": "the source gave no full-resolution frame"})
        else:
            try:
                entry.update(reading_fields(read(main, calibration)))
            except VisionError as exc:
                entry.update({"result": None, "needs_referee": True, "error": str(exc)})
            if record_dir is not None:
                files = write_throw(Path(record_dir) / str(count + 1), recording, main,
                                    reading=entry, fps=fps)
                entry["capture"] = str(files.directory)
        recording = []
        count += 1
        yield entry


def live_frames(source: ResilientSource, stop: Callable[[], bool],
                wait: Callable[[float], None] = time.sleep, idle_s: float = 0.01) -> Iterator[Frame]:
    """Frames of a resilient (live) source until ``stop()``; waits while the camera is down."""
    while not stop():
        frame = source.read()
        if frame is None:
            wait(idle_s)
            continue
        yield frame


def read_video_file(video: str | Path, calibration_path: str | Path,
                    save_dir: str | Path | None = None) -> list[dict[str, Any]]:
    """``yut-cam read-clip``: load the calibration, read every throw of a video file."""
    from yut_cam.vision.calibration import Calibration
    from yut_cam.vision.sources import VideoFileSource

    cal = Calibration.load(calibration_path)
    src = VideoFileSource(video)
    with src:
        return read_clip(iter(src), cal, record_dir=save_dir, fps=src.fps)
