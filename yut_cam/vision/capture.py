"""Recording one throw: a short MJPG clip (start to settle) and the settled frame.

``write_throw(directory, frames, settled, reading=None)`` writes into ``directory`` (the
store passes ``var/captures/<match>/<n>/``)::

    clip.avi      MJPG in AVI, the frames from the throw's start to its settle (what
                  opencv-python-headless writes reliably on every platform)
    settled.jpg   the full-resolution frame that was read
    reading.json  the reading, when given

Each file is written to a temporary name in the same folder, flushed to disk and renamed
into place, so a crash never leaves a half-written file under the final name.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from yut_cam.store.files import atomic_write_bytes, fsync_dir
from yut_cam.vision.errors import ImageError, VisionError

U8 = NDArray[np.uint8]
CLIP_NAME = "clip.avi"
SETTLED_NAME = "settled.jpg"
READING_NAME = "reading.json"


class CaptureError(VisionError):
    """A throw recording could not be written (disk full, permissions, codec)."""


@dataclass(frozen=True)
class ThrowFiles:
    """Where a throw's recording went."""

    directory: Path
    clip: Path
    settled: Path
    reading: Path | None
    frames: int


def _check(img: object, what: str) -> U8:
    if not isinstance(img, np.ndarray) or img.dtype != np.uint8 or img.ndim != 3 or img.shape[2] != 3:
        raise ImageError(f"{what} must be a BGR uint8 image, got {type(img).__name__} "
                         f"{getattr(img, 'shape', None)!r}")
    return img


def write_clip(path: Path, frames: Sequence[U8], fps: float = 30.0) -> int:
    """Write ``frames`` as MJPG/AVI to ``path`` atomically; returns the frame count."""
    import cv2

    if not frames:
        raise CaptureError(f"no frames to write to {str(path)!r}")
    first = _check(frames[0], "clip frame 0")
    h, w = first.shape[:2]
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".avi", dir=path.parent)
    os.close(fd)
    try:
        writer = cv2.VideoWriter(tmp, cv2.VideoWriter.fourcc(*"MJPG"), float(fps), (w, h))
        if not writer.isOpened():
            raise CaptureError(f"OpenCV cannot write an MJPG clip to {str(path)!r}")
        try:
            for i, f in enumerate(frames):
                img = _check(f, f"clip frame {i}")
                if img.shape[:2] != (h, w):
                    raise ImageError(f"clip frame {i} is {img.shape[1]}x{img.shape[0]}, "
                                     f"the clip is {w}x{h}")
                writer.write(img)
        finally:
            writer.release()
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(frames)


def write_throw(directory: str | Path, frames: Sequence[U8], settled: U8,
                reading: Mapping[str, Any] | None = None, fps: float = 30.0,
                jpeg_quality: int = 92) -> ThrowFiles:
    """Record one throw into ``directory`` (created); see the module docstring."""
    import cv2

    d = Path(directory)
    try:
        d.mkdir(parents=True, exist_ok=True)
        img = _check(settled, "settled frame")
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if not ok:
            raise CaptureError(f"cannot encode the settled frame for {str(d)!r}")
        clip = d / CLIP_NAME
        n = write_clip(clip, list(frames) if frames else [img], fps)
        atomic_write_bytes(d / SETTLED_NAME, buf.tobytes())
        rpath = None
        if reading is not None:
            rpath = d / READING_NAME
            atomic_write_bytes(rpath, (json.dumps(dict(reading), ensure_ascii=False) + "\n").encode("utf-8"))
        fsync_dir(d)
    except OSError as exc:
        raise CaptureError(f"cannot record the throw into {str(d)!r}: {exc}") from None
    return ThrowFiles(directory=d, clip=clip, settled=d / SETTLED_NAME, reading=rpath, frames=n)
