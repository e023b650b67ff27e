"""The Raspberry Pi camera through picamera2 (imported only when this source is opened).

Configuration follows picamera2's ``capture_motion.py`` example: a ``main`` stream
(1280x720 ``RGB888``, which picamera2 lays out as B, G, R bytes: OpenCV order) for stills
and recordings, and a ``lores`` ``YUV420`` stream (320x240; a Pi 4 requires YUV420 and
``lores`` no larger than ``main``) whose Y plane, *limited range* 16-235, drives motion
detection.  Per-frame work uses only ``lores``; ``capture("main")`` copies a full frame on
demand (copying every 2 MP frame caps a Pi 4 near 18 fps): ``Frame.main`` of a frame from
this source is fetched from the camera the first time it is used.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from yut_cam.vision.errors import CameraError, CameraLost
from yut_cam.vision.sources import LORES_SIZE, MAIN_SIZE, U8, BaseSource, Frame

INSTALL_HINT = ("picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
                "and create the venv with --system-site-packages (pip install picamera2 fails off a Pi)")


class PiCamera2Source(BaseSource):
    """``main`` BGR and ``lores`` Y streams from the Pi camera."""

    name = "picamera2"

    def __init__(self, main_size: tuple[int, int] = MAIN_SIZE, lores_size: tuple[int, int] = LORES_SIZE,
                 clock: Callable[[], float] = time.monotonic, camera: Any = None) -> None:
        super().__init__(lores_size, clock)
        if lores_size[0] > main_size[0] or lores_size[1] > main_size[1]:
            self._closed = True
            raise CameraError(f"lores {lores_size!r} may not exceed main {main_size!r}")
        self.main_size = main_size
        if camera is None:
            try:
                from picamera2 import Picamera2  # type: ignore[import-not-found]
            except ImportError:
                self._closed = True
                raise CameraError(INSTALL_HINT) from None
            try:
                camera = Picamera2()
            except (RuntimeError, IndexError, OSError) as exc:
                self._closed = True
                raise CameraError(f"no Pi camera found ({exc}); check the ribbon cable and "
                                  "`rpicam-hello --list-cameras`") from None
        self._cam = camera
        try:
            config = camera.create_video_configuration(
                main={"size": main_size, "format": "RGB888"},
                lores={"size": lores_size, "format": "YUV420"})
            camera.configure(config)
            camera.start()
        except Exception as exc:  # libcamera raises plain RuntimeErrors
            self._closed = True
            self._safe_close()
            raise CameraError(f"cannot configure the Pi camera: {exc}") from None

    def _safe_close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:
            return

    def read(self) -> Frame | None:
        self._check_open()
        try:
            yuv = self._cam.capture_array("lores")
        except Exception as exc:
            raise CameraLost(f"Pi camera stopped delivering frames: {exc}") from None
        w, h = self.lores_size
        y = np.ascontiguousarray(np.asarray(yuv, np.uint8)[:h, :w])
        frame = Frame(self._index, self._clock(), y, loader=self._capture_main)
        self._index += 1
        self._last = frame
        return frame

    def capture(self, stream: str = "main") -> U8:
        self._check_open()
        if stream == "lores":
            if self._last is None:
                frame = self.read()
                assert frame is not None
                return frame.lores
            return self._last.lores
        if stream != "main":
            raise CameraError(f"picamera2 has no stream {stream!r} (main, lores)")
        return self._capture_main()

    def _capture_main(self) -> U8:
        self._check_open()
        try:
            img = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraLost(f"Pi camera stopped delivering frames: {exc}") from None
        return np.ascontiguousarray(np.asarray(img, np.uint8)[:, :, :3])

    def _release(self) -> None:
        self._safe_close()
