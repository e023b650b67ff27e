"""Frame sources behind one interface, with picamera2-like named streams.

Every source gives frames with two streams:

``main``
    the full-resolution BGR image (``uint8``, H x W x 3) for stills and recordings;
``lores``
    a small grayscale (luma, ``uint8``, h x w) image for motion detection.  On a Pi it is
    the Y plane of the YUV420 ``lores`` stream, *limited range* (16-235); elsewhere it is
    the full-range gray of ``main`` resized with ``INTER_AREA`` (motion code removes
    offsets, so either works).

``read()`` advances and returns a :class:`Frame` (``None`` at the end of a finite source);
``capture("main")`` returns the full-resolution image of the latest frame (live cameras
may take a fresh one).  Sources are context managers; ``close()`` is idempotent and a
closed source raises :class:`CameraError`.  A working source that stops delivering
raises :class:`CameraLost`; :class:`ResilientSource` turns that into reports and
retries with backoff and never raises to its caller.

``open_source(spec)``: ``fake:DIR``, ``folder:DIR``, ``video:FILE``, ``usb:N``,
``picamera2``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.errors import CameraError, CameraLost, ImageError

U8 = NDArray[np.uint8]
LORES_SIZE = (320, 240)
MAIN_SIZE = (1280, 720)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
log = logging.getLogger("yut_cam.vision")


class Frame:
    """One frame: its index in the source, a timestamp (s), both streams.

    ``main`` may be fetched lazily (picamera2 copies a full frame only when asked, since
    copying every 2 MP frame caps a Pi 4 near 18 fps); once fetched it is kept.  Treat a
    frame as a value: nothing else changes after construction."""

    __slots__ = ("index", "timestamp", "lores", "_main", "_loader")

    def __init__(self, index: int, timestamp: float, lores: U8, main: U8 | None = None,
                 loader: Callable[[], U8] | None = None) -> None:
        self.index = index
        self.timestamp = timestamp
        self.lores = lores
        self._main = main
        self._loader = loader

    @property
    def main(self) -> U8 | None:
        if self._main is None and self._loader is not None:
            self._main = self._loader()
            self._loader = None
        return self._main

    def stream(self, name: str) -> U8:
        if name == "lores":
            return self.lores
        main = self.main if name == "main" else None
        if main is not None:
            return main
        raise CameraError(f"frame {self.index} has no stream {name!r}")

    def __repr__(self) -> str:
        return f"Frame(index={self.index}, timestamp={self.timestamp:.3f}, lores={self.lores.shape!r})"


@runtime_checkable
class FrameSource(Protocol):
    """What the watcher, the service and ``read-clip`` need from a camera."""

    name: str

    @property
    def closed(self) -> bool: ...

    def read(self) -> Frame | None: ...

    def capture(self, stream: str = "main") -> U8: ...

    def close(self) -> None: ...

    def __enter__(self) -> FrameSource: ...

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None: ...


def to_lores(bgr: U8, size: tuple[int, int] = LORES_SIZE) -> U8:
    """The ``lores`` stream of a BGR (or already gray) image: luma resized to ``size``."""
    import cv2

    gray = bgr if bgr.ndim == 2 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    if (gray.shape[1], gray.shape[0]) == size:
        return np.ascontiguousarray(gray, dtype=np.uint8)
    return np.asarray(cv2.resize(gray, size, interpolation=cv2.INTER_AREA), np.uint8)


def check_frame(img: object, where: str) -> U8:
    """A BGR uint8 image, or :class:`ImageError` naming ``where``."""
    if not isinstance(img, np.ndarray) or img.dtype != np.uint8 or img.ndim not in (2, 3) \
            or img.size == 0 or (img.ndim == 3 and img.shape[2] != 3):
        shape = getattr(img, "shape", None)
        raise ImageError(f"{where}: expected a BGR uint8 image, got {type(img).__name__} {shape!r}")
    if img.ndim == 2:
        import cv2

        return np.asarray(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), np.uint8)
    return img


class BaseSource:
    """Shared behaviour: closed checks, context manager, iteration, the latest frame."""

    name = "source"

    def __init__(self, lores_size: tuple[int, int] = LORES_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.lores_size = lores_size
        self._clock = clock
        self._closed = False
        self._index = 0
        self._last: Frame | None = None

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise CameraError(f"{self.name} is closed")

    def _grab(self) -> U8 | None:  # one BGR frame or None at the end; subclasses override
        raise CameraError(f"{self.name} cannot read frames")

    def read(self) -> Frame | None:
        self._check_open()
        img = self._grab()
        if img is None:
            return None
        img = check_frame(img, f"{self.name} frame {self._index}")
        frame = Frame(self._index, self._clock(), to_lores(img, self.lores_size), img)
        self._index += 1
        self._last = frame
        return frame

    def capture(self, stream: str = "main") -> U8:
        self._check_open()
        if self._last is None:
            frame = self.read()
            if frame is None:
                raise CameraError(f"{self.name} has no frame to capture")
        assert self._last is not None
        return self._last.stream(stream)

    def _release(self) -> None:
        pass

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._last = None
            self._release()

    def __enter__(self) -> BaseSource:
        self._check_open()
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame


def _image_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise CameraError(f"image folder {str(folder)!r} does not exist")
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise CameraError(f"image folder {str(folder)!r} holds no .jpg/.png/.bmp images")
    return files


def load_image(path: Path) -> U8:
    """Read a colour image or raise :class:`ImageError` quoting the path."""
    import cv2

    if not path.is_file():
        raise ImageError(f"image {str(path)!r} does not exist")
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ImageError(f"image {str(path)!r} is not a readable image")
    return np.asarray(img, np.uint8)


class FolderSource(BaseSource):
    """The images of a folder in name order (optionally looping)."""

    def __init__(self, folder: str | Path, loop: bool = False,
                 lores_size: tuple[int, int] = LORES_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(lores_size, clock)
        self.folder = Path(folder)
        self.name = f"folder:{self.folder}"
        self.files = _image_files(self.folder)
        self.loop = loop
        self._pos = 0

    def _grab(self) -> U8 | None:
        if self._pos >= len(self.files):
            if not self.loop:
                return None
            self._pos = 0
        path = self.files[self._pos]
        self._pos += 1
        return load_image(path)


class FakeCamera(BaseSource):
    """An in-package camera for tests and the demo (like gpiozero's mock pins).

    ``frames`` is a folder, a list of image paths, or a list/generator of BGR arrays.
    ``loop`` replays them forever.  ``fail_after`` makes the camera "unplugged" after that
    many frames: further reads raise :class:`CameraLost` (``replug()`` fixes it).
    """

    def __init__(self, frames: str | Path | Iterable[U8] | Sequence[str | Path], loop: bool = False,
                 lores_size: tuple[int, int] = LORES_SIZE, fail_after: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(lores_size, clock)
        self.loop = loop
        self.fail_after = fail_after
        self._files: list[Path] | None = None
        self._arrays: Iterator[U8] | None = None
        self._cache: list[U8] = []
        if isinstance(frames, (str, Path)):
            self._files = _image_files(Path(frames))
            self.name = f"fake:{frames}"
        else:
            items: list[object] | Iterable[object] = (
                list(frames) if isinstance(frames, (list, tuple)) else frames)
            if isinstance(items, list) and items and all(isinstance(p, (str, Path)) for p in items):
                self._files = [Path(str(p)) for p in items]
            else:
                self._arrays = (check_frame(a, "fake frame") for a in items)
            self.name = "fake"
        self._pos = 0
        self.delivered = 0

    def replug(self) -> None:
        """The cable is back: reads work again (for tests of recovery)."""
        self.fail_after = None

    def _grab(self) -> U8 | None:
        if self.fail_after is not None and self.delivered >= self.fail_after:
            raise CameraLost(f"{self.name}: no frame after {self.delivered} frames (camera unplugged)")
        img = self._next()
        if img is not None:
            self.delivered += 1
        return img

    def _next(self) -> U8 | None:
        if self._files is not None:
            if self._pos >= len(self._files):
                if not self.loop or not self._files:
                    return None
                self._pos = 0
            path = self._files[self._pos]
            self._pos += 1
            return load_image(path)
        assert self._arrays is not None
        try:
            img = next(self._arrays)
        except StopIteration:
            if not self.loop or not self._cache:
                return None
            self._arrays = iter(list(self._cache))
            self._cache = []
            return self._next()
        if self.loop:
            self._cache.append(img)
        return img


class VideoFileSource(BaseSource):
    """The frames of a video file (anything OpenCV's ``VideoCapture`` decodes)."""

    def __init__(self, path: str | Path, lores_size: tuple[int, int] = LORES_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import cv2

        super().__init__(lores_size, clock)
        self.path = Path(path)
        self.name = f"video:{self.path}"
        if not self.path.is_file():
            self._closed = True
            raise CameraError(f"video file {str(self.path)!r} does not exist")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            self._closed = True
            raise CameraError(f"video file {str(self.path)!r} cannot be opened (not a video OpenCV can decode)")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS))
        self.fps = fps if fps > 0 else 30.0

    def _grab(self) -> U8 | None:
        ok, img = self._cap.read()
        if not ok or img is None:
            return None
        return np.asarray(img, np.uint8)

    def _release(self) -> None:
        self._cap.release()


class OpenCVCameraSource(BaseSource):
    """A USB (V4L2/UVC) camera through OpenCV, by device index."""

    def __init__(self, index: int = 0, size: tuple[int, int] = MAIN_SIZE,
                 lores_size: tuple[int, int] = LORES_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import cv2

        super().__init__(lores_size, clock)
        self.index = index
        self.name = f"usb:{index}"
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            self._closed = True
            raise CameraError(f"no camera at usb:{index} (/dev/video{index}): is it plugged in, "
                              "and is the user in the 'video' group?")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])

    def _grab(self) -> U8 | None:
        ok, img = self._cap.read()
        if not ok or img is None:
            raise CameraLost(f"camera usb:{self.index} stopped delivering frames (unplugged?)")
        return np.asarray(img, np.uint8)

    def _release(self) -> None:
        self._cap.release()


def open_source(spec: str, lores_size: tuple[int, int] = LORES_SIZE) -> BaseSource:
    """Open a source from a spec: ``fake:DIR``, ``folder:DIR``, ``video:FILE``, ``usb:N``, ``picamera2``."""
    kind, _, arg = spec.partition(":")
    if kind == "fake" and arg:
        return FakeCamera(arg, loop=True, lores_size=lores_size)
    if kind == "folder" and arg:
        return FolderSource(arg, lores_size=lores_size)
    if kind == "video" and arg:
        return VideoFileSource(arg, lores_size=lores_size)
    if kind == "usb":
        try:
            index = int(arg or "0")
        except ValueError:
            raise CameraError(f"camera spec {spec!r}: usb needs a device number, like usb:0") from None
        return OpenCVCameraSource(index, lores_size=lores_size)
    if kind == "picamera2" and not arg:
        from yut_cam.vision.picam import PiCamera2Source

        return PiCamera2Source(lores_size=lores_size)
    raise CameraError(f"unknown camera spec {spec!r}; use fake:DIR, folder:DIR, video:FILE, usb:N or picamera2")


@dataclass(frozen=True)
class SourceEvent:
    """A change in a resilient source's health, for logs and the referee screen."""

    kind: str  # "lost" | "retry_failed" | "recovered"
    message: str
    at: float
    failures: int


class ResilientSource:
    """Wraps a source factory: a lost camera is reported and reopened with backoff.

    ``read()`` never raises :class:`CameraError`: while the camera is down it returns
    ``None`` at once (the caller keeps serving and calls again later); at the next retry
    time (``clock()`` + 0.5 s, doubling up to ``max_delay``) it closes and reopens the
    source through ``factory``.  Events go to ``report`` (default: the log).
    """

    def __init__(self, factory: Callable[[], FrameSource], clock: Callable[[], float] = time.monotonic,
                 report: Callable[[SourceEvent], None] | None = None,
                 base_delay: float = 0.5, max_delay: float = 10.0) -> None:
        self.factory = factory
        self.clock = clock
        self.report = report or (lambda ev: log.warning("camera %s: %s", ev.kind, ev.message))
        self.base_delay, self.max_delay = base_delay, max_delay
        self.source: FrameSource | None = None
        self.failures = 0
        self.next_retry = 0.0
        self.events: list[SourceEvent] = []
        self._closed = False
        self._down = False

    @property
    def healthy(self) -> bool:
        return self.source is not None and not self._down

    @property
    def closed(self) -> bool:
        return self._closed

    def _emit(self, kind: str, message: str) -> None:
        ev = SourceEvent(kind, message, self.clock(), self.failures)
        self.events.append(ev)
        try:
            self.report(ev)
        except Exception:  # a broken reporter must not take the camera loop down
            log.exception("camera event reporter failed")

    def _fail(self, exc: Exception) -> None:
        first = not self._down
        self._down = True
        self.failures += 1
        delay = min(self.max_delay, self.base_delay * 2 ** (self.failures - 1))
        self.next_retry = self.clock() + delay
        if self.source is not None:
            try:
                self.source.close()
            except Exception:
                log.exception("closing a lost camera failed")
            self.source = None
        self._emit("lost" if first else "retry_failed", f"{exc}; retrying in {delay:.1f} s")

    def read(self) -> Frame | None:
        if self._closed:
            raise CameraError("resilient source is closed")
        if self.source is None:
            if self.clock() < self.next_retry:
                return None
            try:
                self.source = self.factory()
            except CameraError as exc:
                self._fail(exc)
                return None
        try:
            frame = self.source.read()
        except Exception as exc:  # a driver crash must not take the service down
            self._fail(exc)
            return None
        if self._down and frame is not None:
            self._down = False
            self._emit("recovered", f"camera back after {self.failures} failed attempt(s)")
            self.failures = 0
        return frame

    def capture(self, stream: str = "main") -> U8 | None:
        """The latest frame's stream, or ``None`` while the camera is down."""
        if self.source is None or self._down:
            return None
        try:
            return self.source.capture(stream)
        except Exception as exc:
            self._fail(exc)
            return None

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self.source is not None:
                self.source.close()
                self.source = None

    def __enter__(self) -> ResilientSource:
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
