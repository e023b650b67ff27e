"""Frame sources: fakes, folders, video files, specs, Pi camera config, recovery."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from yut_cam.vision.capture import write_throw
from yut_cam.vision.errors import CameraError, CameraLost, ImageError
from yut_cam.vision.picam import PiCamera2Source
from yut_cam.vision.sources import (
    FakeCamera,
    FolderSource,
    Frame,
    FrameSource,
    ResilientSource,
    SourceEvent,
    VideoFileSource,
    open_source,
)


def _frames(n: int, size: tuple[int, int] = (64, 48)) -> list[np.ndarray]:
    w, h = size
    return [np.full((h, w, 3), 20 * i + 10, np.uint8) for i in range(n)]


def _values(src: Any) -> list[int]:
    return [int(f.main[0, 0, 0]) for f in src]


def test_fake_camera_plays_a_list_with_both_streams() -> None:
    with FakeCamera(_frames(3), lores_size=(32, 24)) as cam:
        assert isinstance(cam, FrameSource)
        f = cam.read()
        assert isinstance(f, Frame) and f.index == 0
        assert f.main is not None and f.main.shape == (48, 64, 3)
        assert f.lores.shape == (24, 32) and f.lores.dtype == np.uint8
        assert np.array_equal(cam.capture("main"), f.main)
        assert np.array_equal(cam.capture("lores"), f.lores)
        assert _values(cam) == [30, 50]
        assert cam.read() is None


def test_fake_camera_loops_a_generator() -> None:
    cam = FakeCamera((f for f in _frames(2)), loop=True)
    assert [int(cam.read().main[0, 0, 0]) for _ in range(5)] == [10, 30, 10, 30, 10]  # type: ignore[union-attr]


def test_fake_camera_from_folder_and_file_list(tmp_path: Path) -> None:
    for i, f in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"{i:02d}.png"), f)
    assert _values(FakeCamera(tmp_path)) == [10, 30, 50]
    assert _values(FakeCamera([tmp_path / "02.png", tmp_path / "00.png"])) == [50, 10]
    assert _values(FolderSource(tmp_path)) == [10, 30, 50]


def test_closed_source_raises_and_close_is_idempotent() -> None:
    cam = FakeCamera(_frames(2))
    with cam:
        cam.read()
    assert cam.closed
    cam.close()
    with pytest.raises(CameraError, match="closed"):
        cam.read()
    with pytest.raises(CameraError, match="closed"):
        cam.capture()
    with pytest.raises(CameraError):
        with cam:
            pass


def test_fake_camera_rejects_non_images() -> None:
    with pytest.raises(ImageError, match="BGR uint8"):
        FakeCamera([np.zeros((4, 4), np.float32)]).read()


def test_fake_camera_unplugged_raises_camera_lost() -> None:
    cam = FakeCamera(_frames(5), fail_after=2)
    cam.read(), cam.read()
    with pytest.raises(CameraLost, match="unplugged"):
        cam.read()
    cam.replug()
    assert cam.read() is not None


@pytest.mark.parametrize("make, message", [
    (lambda p: FolderSource(p / "nope"), "does not exist"),
    (lambda p: FolderSource(p), "holds no"),
    (lambda p: VideoFileSource(p / "missing.avi"), "does not exist"),
])
def test_missing_inputs_have_clear_messages(tmp_path: Path, make: Any, message: str) -> None:
    with pytest.raises(CameraError, match=message) as info:
        make(tmp_path)
    assert str(tmp_path) in str(info.value)


def test_corrupt_image_in_folder(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ImageError, match="a.jpg"):
        FolderSource(tmp_path).read()


def test_not_a_video(tmp_path: Path) -> None:
    bad = tmp_path / "x.avi"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(CameraError, match="cannot be opened"):
        VideoFileSource(bad)


def test_video_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, (64, 48))
    for f in _frames(8):
        writer.write(f)
    writer.release()
    with open_source(f"video:{path}") as src:
        got = [f for f in src]
    assert len(got) == 8
    means = [float(f.main.mean()) for f in got if f.main is not None]
    assert all(abs(m - (20 * i + 10)) < 6 for i, m in enumerate(means)), means
    assert got[-1].lores.shape == (240, 320)


@pytest.mark.parametrize("spec, message", [
    ("webcam", "unknown camera spec 'webcam'"),
    ("usb:left", "usb needs a device number"),
    ("folder:", "unknown camera spec"),
])
def test_bad_specs(spec: str, message: str) -> None:
    with pytest.raises(CameraError, match=message):
        open_source(spec)


def test_missing_usb_camera_message() -> None:
    with pytest.raises(CameraError, match=r"no camera at usb:57 \(/dev/video57\)"):
        open_source("usb:57")


def test_picamera2_missing_gives_install_hint() -> None:
    pytest.importorskip("cv2")
    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="apt install python3-picamera2"):
            open_source("picamera2")
    else:  # on a Pi: nothing to check here
        pass


class FakePicamera2:
    """Just enough of picamera2.Picamera2 for the source: records the configuration."""

    def __init__(self, fail: bool = False) -> None:
        self.config: dict[str, Any] = {}
        self.started = self.closed = False
        self.fail = fail
        self.main_copies = 0

    def create_video_configuration(self, main: dict[str, Any], lores: dict[str, Any]) -> dict[str, Any]:
        return {"main": main, "lores": lores}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True

    def capture_array(self, name: str) -> np.ndarray:
        if self.fail:
            raise RuntimeError("Camera frontend has timed out!")
        if name == "lores":
            w, h = self.config["lores"]["size"]
            yuv = np.full((h * 3 // 2, w), 128, np.uint8)
            yuv[:h] = 16  # limited-range black in the Y plane
            return yuv
        w, h = self.config["main"]["size"]
        self.main_copies += 1
        return np.full((h, w, 3), 77, np.uint8)


def test_picamera2_source_configures_streams_and_uses_the_y_plane() -> None:
    fake = FakePicamera2()
    with PiCamera2Source(camera=fake) as cam:
        assert fake.config["main"] == {"size": (1280, 720), "format": "RGB888"}
        assert fake.config["lores"] == {"size": (320, 240), "format": "YUV420"}
        assert fake.started
        f = cam.read()
        assert f is not None and f.lores.shape == (240, 320) and int(f.lores.max()) == 16
        assert fake.main_copies == 0  # main is copied only on demand ...
        assert f.main is not None and f.main.shape == (720, 1280, 3)
        assert f.main is not None and fake.main_copies == 1  # ... once per frame
        assert cam.capture("main").shape == (720, 1280, 3)
    assert fake.closed


def test_picamera2_failure_is_camera_lost() -> None:
    cam = PiCamera2Source(camera=FakePicamera2(fail=True))
    with pytest.raises(CameraLost, match="timed out"):
        cam.read()
    with pytest.raises(CameraError, match="may not exceed"):
        PiCamera2Source(main_size=(320, 240), lores_size=(640, 480), camera=FakePicamera2())


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_resilient_source_reports_retries_with_backoff_and_recovers() -> None:
    clock = Clock()
    events: list[SourceEvent] = []
    opened: list[str] = []
    plan = ["flaky", "missing", "missing", "good"]

    def factory() -> FakeCamera:
        kind = plan[len(opened)] if len(opened) < len(plan) else "good"
        opened.append(kind)
        if kind == "missing":
            raise CameraError("no camera at usb:0 (/dev/video0)")
        return FakeCamera(_frames(3), loop=True, fail_after=2 if kind == "flaky" else None)

    src = ResilientSource(factory, clock=clock, report=events.append)
    assert src.read() is not None and src.read() is not None
    assert src.read() is None  # unplugged: reported, not raised
    assert [e.kind for e in events] == ["lost"]
    assert src.read() is None and opened == ["flaky"]  # waits for the retry time
    clock.t += 0.5
    assert src.read() is None and opened == ["flaky", "missing"]
    assert events[-1].kind == "retry_failed" and "1.0 s" in events[-1].message
    clock.t += 0.9
    assert src.read() is None and len(opened) == 2  # backoff doubled
    clock.t += 0.1
    assert src.read() is None and events[-1].kind == "retry_failed" and "2.0 s" in events[-1].message
    clock.t += 2.0
    assert src.read() is not None
    assert events[-1].kind == "recovered" and src.healthy
    src.close()
    src.close()
    with pytest.raises(CameraError):
        src.read()


def test_resilient_source_survives_a_broken_reporter() -> None:
    def boom(ev: SourceEvent) -> None:
        raise RuntimeError("reporter down")

    src = ResilientSource(lambda: FakeCamera(_frames(1), fail_after=0), clock=Clock(), report=boom)
    assert src.read() is None
    assert src.events[0].kind == "lost"


def test_write_throw_is_complete_and_leaves_no_temp_files(tmp_path: Path) -> None:
    frames = _frames(6, (96, 64))
    files = write_throw(tmp_path / "m1" / "3", frames, frames[-1], reading={"result": "걸"})
    assert sorted(p.name for p in files.directory.iterdir()) == ["clip.avi", "reading.json", "settled.jpg"]
    cap = cv2.VideoCapture(str(files.clip))
    n = 0
    while cap.read()[0]:
        n += 1
    assert n == 6 == files.frames
    assert cv2.imread(str(files.settled)).shape == (64, 96, 3)
    assert '"걸"' in files.reading.read_text(encoding="utf-8")  # type: ignore[union-attr]


def test_write_throw_bad_frame_writes_nothing(tmp_path: Path) -> None:
    frames = _frames(3, (96, 64)) + [np.zeros((10, 10, 3), np.uint8)]
    with pytest.raises(ImageError, match="clip frame 3"):
        write_throw(tmp_path, frames, frames[0])
    assert list(tmp_path.iterdir()) == []
