"""The camera pipeline of the live service.

A background task reads a frame source (``picamera2`` on the Pi, ``fake:DIR`` in the
demo) through :class:`~yut_cam.vision.sources.ResilientSource`, feeds the small ``lores``
stream to a :class:`~yut_cam.vision.motion.SettleWatcher`, and at each settle reads the
full frame with the calibration, records the throw (clip.avi + settled.jpg +
reading.json, and annotated.jpg) under the store's capture directory, and publishes the
reading for the referee to confirm. When the referee confirms it (as read or corrected),
the calibration's face model learns the venue's sticks from it
(:func:`yut_cam.vision.learning.learn`) and is saved back to the calibration file.  The
latest full frame is kept for the console's calibration photos
(:meth:`CameraLoop.latest_frame`), also while there is no calibration yet; a new
calibration is swapped in by :meth:`CameraLoop.use_calibration` and used from the next
frame on.  A missing or lost camera, or a bad calibration, is reported in the LIVE STATE
(``camera: {"ok": false, "message": ...}``) and retried; it never takes the service down.
OpenCV work runs off the event loop (gevent threadpool).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from yut_cam.web.background import run_blocking, spawn
from yut_cam.web.service import MatchService

log = logging.getLogger(__name__)

PRE_ROLL = 5
CLIP_LIMIT = 150  # frames kept per throw (5 s at 30 fps)
PACED_KINDS = ("fake", "folder", "video")  # sources that would otherwise run flat out
KEEP_READINGS = 8  # readings kept to learn from once the referee confirms them


def card_image(text: str, size: tuple[int, int] = (320, 180)) -> bytes:
    """A small grey JPEG with ``text`` in romanised letters (injected readings)."""
    import cv2

    from yut_cam.vision.annotate import ROMAN

    img = np.full((size[1], size[0], 3), 90, np.uint8)
    label = ROMAN.get(text, text.encode("ascii", "replace").decode())
    if label:
        cv2.putText(img, label, (20, size[1] // 2 + 15), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (255, 255, 255), 3)
    ok, buf = cv2.imencode(".jpg", img)
    if not ok:
        raise ValueError("cannot encode a card image")
    return bytes(buf.tobytes())


class CameraLoop:
    def __init__(self, service: MatchService, spec: str, calibration: str | None, *, fps: float = 30.0,
                 source_factory: Callable[[], Any] | None = None) -> None:
        from yut_cam.vision.motion import SettleWatcher

        self.service = service
        self.source_factory = source_factory
        self.watcher = SettleWatcher()
        self._pre: deque[Any] = deque(maxlen=PRE_ROLL)
        self._clip: list[Any] | None = None
        self.spec = spec
        self.calibration_path = calibration
        self.period = 1.0 / fps
        self.paced = spec.partition(":")[0] in PACED_KINDS
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._status: dict[str, Any] = {"ok": False, "message": "카메라 시작 중", "spec": spec}
        self.readings = 0
        self._latest: Any = None  # the latest frame's full image (None while the camera gives none)
        self._current_calibration: Any = None
        self._calibration_problem: str | None = None
        # (match id, capture number) -> (the Reading, the calibration it was read with)
        self._unconfirmed: OrderedDict[tuple[int, int], tuple[Any, Any]] = OrderedDict()
        self._save_lock = threading.Lock()
        service.confirm_listeners.append(self.learn_from)

    @property
    def calibration(self) -> Any:
        """The calibration the next settled frame is read with (None: not calibrated yet)."""
        with self._lock:
            return self._current_calibration

    def use_calibration(self, calibration: Any) -> None:
        """Hot swap: read from the next frame on with ``calibration`` (thread-safe)."""
        with self._lock:
            self._current_calibration = calibration
            self._calibration_problem = None

    def latest_frame(self) -> Any:
        """The full-resolution BGR image of the latest frame, or None while the camera gives
        none (not started, lost, ended).  Treat it as read-only."""
        with self._lock:
            return self._latest

    def status(self) -> dict[str, Any]:
        with self._lock:
            return dict(self._status)

    def _set_status(self, ok: bool, message: str) -> None:
        with self._lock:
            changed = self._status.get("ok") != ok or self._status.get("message") != message
            self._status = {"ok": ok, "message": message, "spec": self.spec}
        if changed:
            log.info("camera: %s", message)
            match_id = self.service.current_id()
            if match_id is not None:
                self.service.publish_state(match_id)

    def start(self) -> None:
        spawn(self.run, "yut-cam-camera")

    def stop(self) -> None:
        self._stop.set()

    def _calibration(self) -> Any:
        from yut_cam.vision.calibration import Calibration

        if not self.calibration_path:
            raise ValueError("no calibration file (serve --calibration CAL.json)")
        path = Path(self.calibration_path)
        if not path.exists():
            raise ValueError(f"no calibration file {str(path)!r} yet: 심판 화면의 '카메라 보정'으로 만드세요")
        return Calibration.load(path)

    def open_source(self) -> Any:
        """The frame source, wrapped so a lost camera is reported and reopened."""
        from yut_cam.vision.sources import ResilientSource, SourceEvent, open_source

        def report(event: SourceEvent) -> None:
            self._set_status(event.kind == "recovered", f"카메라 {event.kind}: {event.message}")

        factory = self.source_factory or (lambda: open_source(self.spec))
        return ResilientSource(factory, clock=self.service.monotonic, report=report)

    def poll(self, source: Any, calibration: Any = None) -> bool:
        """Read and handle one frame; False when there was none (camera down or ended).
        ``calibration`` None: the loop's current one (:meth:`use_calibration`); without any,
        the frame is only kept as the latest (for the calibration photos)."""
        frame = source.read()
        if frame is None:
            with self._lock:
                self._latest = None
            if source.healthy:
                self._set_status(False, "카메라 영상이 끝났습니다")
            return False
        main = frame.main
        with self._lock:
            self._latest = main
            if calibration is None:
                calibration = self._current_calibration
            problem = self._calibration_problem
        if calibration is None:
            self._set_status(False, problem or "보정 필요: 심판 화면의 '카메라 보정'을 하세요")
            return True
        if not self._status["ok"]:
            self._set_status(True, "카메라 정상")
        self.feed(frame, calibration)
        return True

    def feed(self, frame: Any, calibration: Any) -> str | None:
        """Watch the lores stream; at a settle read, record and publish. → the event kind."""
        event = self.watcher.update(frame.lores)
        if self._clip is not None and len(self._clip) < CLIP_LIMIT:
            self._clip.append(frame.main)
        elif self._clip is None:
            self._pre.append(frame.main)
        if event is None:
            return None
        if event.kind == "start":
            self._clip = list(self._pre)
        elif event.kind == "settled":
            self._settled(frame.main, self._clip or [frame.main], calibration)
            self._clip = None
        elif event.kind == "abandoned":
            self._clip = None
        return str(event.kind)

    def load_calibration(self) -> Any:
        """The calibration, or None with the problem shown in the state (retried later)."""
        try:
            return self._calibration()
        except Exception as exc:  # missing, unreadable or invalid: report, never crash
            message = f"보정 파일 문제: {exc}"
            with self._lock:
                self._calibration_problem = message
            self._set_status(False, message)
            return None

    def run(self) -> None:
        source = self.open_source()
        next_due = time.monotonic()
        retry_at = float("-inf")
        try:
            while not self._stop.is_set():
                if self.calibration is None and time.monotonic() >= retry_at:
                    loaded = self.load_calibration()
                    if loaded is not None and self.calibration is None:
                        self.use_calibration(loaded)
                    retry_at = time.monotonic() + 10.0
                if not self.poll(source):
                    self._stop.wait(0.2)
                    continue
                if self.paced:
                    next_due = max(next_due + self.period, time.monotonic() - self.period)
                    self._stop.wait(max(0.0, next_due - time.monotonic()))
                else:
                    self._stop.wait(0)
        except Exception as exc:  # never take the service down; report and restart the loop
            log.exception("camera loop failed")
            self._set_status(False, f"카메라 처리 오류: {exc}")
            if not self._stop.is_set():
                self._stop.wait(2.0)
                spawn(self.run, "yut-cam-camera")
        finally:
            source.close()

    def _settled(self, image: Any, clip: list[Any], calibration: Any) -> None:
        match_id = self.service.current_id()
        if match_id is None:
            return
        fields = run_blocking(read_and_annotate, image, calibration)
        annotated = fields.pop("_annotated")
        reading = fields.pop("_reading")
        try:
            n = self.service.reserve_capture(match_id)
            directory = self.service.captures.path_for(match_id, n)
            run_blocking(_record, directory, clip, image, fields, annotated)
        except Exception as exc:
            log.error("match %d: throw not recorded: %s", match_id, exc)
            return
        if reading is not None:
            with self._lock:
                self._unconfirmed[(match_id, n)] = (reading, calibration)
                while len(self._unconfirmed) > KEEP_READINGS:
                    self._unconfirmed.popitem(last=False)
        self.service.set_reading(match_id, n, fields)
        self.readings += 1

    def learn_from(self, match_id: int, n: int, result: str) -> bool:
        """The referee confirmed capture ``n`` as ``result``: teach the calibration the
        venue's sticks from its reading and save it (a service confirmation listener).
        → whether the calibration learned. Nothing is learned from a reading made with a
        calibration that has since been replaced."""
        from yut_cam.vision.learning import learn

        with self._lock:
            reading, used = self._unconfirmed.pop((match_id, n), (None, None))
            if reading is None or used is not self._current_calibration:
                return False
        taught = learn(used, reading, result)  # a refit of some ms: not while frames wait on the lock
        with self._lock:
            if taught is used or used is not self._current_calibration:
                return False
            self._current_calibration = taught
        known = taught.faces.learned
        log.info("camera: learned from capture %d (%s): now %d 배 and %d 등 sticks confirmed", n, result,
                 len(known[0]), len(known[1]))
        if taught.mark is not None and used.mark is None:
            log.info("camera: learned the 빽도 mark from capture %d (a confirmed 빽도): one stick 배 up is read"
                     " from now on", n)
        if taught.mark is None and used.mark is not None:
            log.warning("camera: capture %d was read %s, sure of the mark, and confirmed %s: the 빽도 mark is no longer read"
                        " here; one stick 배 up goes to the referee until the next calibration", n, reading.result,
                        result)
        self._save_learned(taught)
        return True

    def _save_learned(self, taught: Any) -> None:
        """Write the learned face model into the calibration file, keeping its background
        picture; a failure is logged (the loop keeps the model in memory)."""
        if not self.calibration_path:
            return
        path = Path(self.calibration_path)
        with self._save_lock:
            if self.calibration is not taught:  # recalibrated or taught again meanwhile
                return
            try:
                background = json.loads(path.read_text(encoding="utf-8"))["background"]
                taught.save(path, background_file=str(background))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                log.warning("camera: the learned face model was not saved to %s: %s", path, exc)


def read_and_annotate(image: Any, calibration: Any) -> dict[str, Any]:
    """The reading's JSON fields plus ``_annotated`` (JPEG bytes of the annotated image) and
    ``_reading`` (the Reading, None after a reader error: such a reading needs the referee)."""
    import cv2

    from yut_cam.vision.annotate import annotate
    from yut_cam.vision.errors import VisionError
    from yut_cam.vision.reader import read_image

    try:
        reading = read_image(image, calibration)
    except VisionError as exc:
        ok, buf = cv2.imencode(".jpg", image)
        return {"result": "낙", "confidence": 0.0, "needs_referee": True, "sticks": [],
                "reasons": [f"reader error: {exc}"], "_annotated": bytes(buf.tobytes()) if ok else b"",
                "_reading": None}
    fields = reading.to_dict()
    ok, buf = cv2.imencode(".jpg", annotate(image, reading, calibration), [cv2.IMWRITE_JPEG_QUALITY, 85])
    fields["_annotated"] = bytes(buf.tobytes()) if ok else b""
    fields["_reading"] = reading
    return fields


def _record(directory: Path, clip: list[Any], image: Any, fields: dict[str, Any], annotated: bytes) -> None:
    from yut_cam.store import atomic_write_bytes
    from yut_cam.vision.capture import write_throw

    write_throw(directory, clip, image, fields)
    if annotated:
        atomic_write_bytes(directory / "annotated.jpg", annotated)
