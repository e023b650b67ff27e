"""The camera loop: a generated throw goes watcher → reader → capture files → reading;
a lost camera is reported in the state and comes back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import FakeClock, Referee
from yut_cam.rules import RESULTS
from yut_cam.web.camera_loop import CameraLoop

SIZE = (480, 270)


@dataclass(frozen=True)
class Scene:
    frames: list[Any]
    calibration: Any
    truth: str


@pytest.fixture(scope="module")
def scene() -> Scene:
    from yut_cam.vision import synth
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.errors import CalibrationError

    for seed in range(20261130, 20261140):
        rng = np.random.default_rng(seed)
        style = synth.random_style(rng)
        shots = synth.render_calibration(style, SIZE)
        try:
            cal = calibrate(shots.empty, shots.belly, shots.back, list(shots.mat_polygon))
        except CalibrationError:
            continue
        frames, truth, _settled = synth.render_clip(style, rng, SIZE, case="clean", hand=False, rest=20)
        return Scene(frames, cal, synth.result_of(truth.sticks))
    pytest.fail("no generated venue calibrates")


def test_a_throw_becomes_a_reading(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                   scene: Scene) -> None:
    from yut_cam.vision.sources import FakeCamera

    service = app.extensions["yut_cam.service"]
    loop = CameraLoop(service, "fake:test", None, source_factory=lambda: FakeCamera(scene.frames))
    service.camera_status = loop.status
    source = loop.open_source()
    while loop.poll(source, scene.calibration):
        pass
    assert loop.readings == 1
    state = client.get(f"/api/matches/{match_id}").json
    reading = state["reading"]
    assert reading["n"] == 1 and reading["result"] in [r.value for r in RESULTS] and len(reading["sticks"]) >= 1
    assert reading["result"] == scene.truth  # a clean synthetic throw is read right
    for name in ("settled.jpg", "annotated.jpg", "clip.avi", "reading.json"):
        with client.get(f"/api/matches/{match_id}/captures/1/{name}") as resp:
            assert resp.status_code == 200, name
    assert state["camera"]["message"] == "카메라 영상이 끝났습니다" and state["camera"]["ok"] is False
    confirmed = referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": reading["result"]}).json
    assert confirmed["state"]["last_throw_image"] == f"/api/matches/{match_id}/captures/1/annotated.jpg"


def test_a_lost_camera_is_reported_and_retried(app: Flask, client: FlaskClient, match_id: int, scene: Scene,
                                               clock: FakeClock) -> None:
    from yut_cam.vision import sources

    cameras: list[Any] = []

    def plug() -> Any:
        cam = sources.FakeCamera(scene.frames[:10], fail_after=3 if not cameras else None)
        cameras.append(cam)
        return cam

    service = app.extensions["yut_cam.service"]
    loop = CameraLoop(service, "fake:test", None, source_factory=plug)
    service.camera_status = loop.status
    source = loop.open_source()
    assert [loop.poll(source, scene.calibration) for _ in range(4)] == [True, True, True, False]
    camera = client.get(f"/api/matches/{match_id}").json["camera"]
    assert camera["ok"] is False and "lost" in camera["message"] and "unplugged" in camera["message"]
    assert loop.poll(source, scene.calibration) is False  # waits before retrying
    clock.advance(1.0)
    assert loop.poll(source, scene.calibration) is True
    assert client.get(f"/api/matches/{match_id}").json["camera"]["ok"] is True
    assert len(cameras) == 2


@pytest.mark.parametrize("content", [None, "{not json", '{"version": 1}'])
def test_a_bad_calibration_is_reported(app: Flask, client: FlaskClient, match_id: int, tmp_path: Any,
                                       content: str | None) -> None:
    path = None
    if content is not None:
        path = tmp_path / "cal.json"
        path.write_text(content)
    service = app.extensions["yut_cam.service"]
    loop = CameraLoop(service, "fake:x", None if path is None else str(path))
    service.camera_status = loop.status
    assert loop.load_calibration() is None
    camera = client.get(f"/api/matches/{match_id}").json["camera"]
    assert camera["ok"] is False and camera["message"].startswith("보정 파일 문제")


def test_a_reader_error_needs_the_referee(monkeypatch: pytest.MonkeyPatch, scene: Scene) -> None:
    from yut_cam.vision import reader
    from yut_cam.vision.errors import ImageError
    from yut_cam.web.camera_loop import read_and_annotate

    def broken(image: Any, calibration: Any) -> Any:
        raise ImageError("frame is 1x1 px")

    monkeypatch.setattr(reader, "read_image", broken)
    fields = read_and_annotate(scene.frames[-1], scene.calibration)
    assert fields["needs_referee"] is True and fields["result"] == "낙" and fields["confidence"] == 0.0
    assert "1x1" in fields["reasons"][0] and fields["_annotated"][:2] == b"\xff\xd8"


def _installed(scene: Scene, tmp_path: Any) -> Any:
    """The scene's calibration installed as the console installs one (a stamped background)."""
    from yut_cam.web.calibrate import install

    return install(scene.calibration, tmp_path / "venue.json")


def _throw_read(app: Flask, scene: Scene, calibration: Any, tmp_path: Any) -> CameraLoop:
    from yut_cam.vision.sources import FakeCamera

    service = app.extensions["yut_cam.service"]
    loop = CameraLoop(service, "fake:test", str(tmp_path / "venue.json"),
                      source_factory=lambda: FakeCamera(scene.frames))
    loop.use_calibration(calibration)
    source = loop.open_source()
    while loop.poll(source):
        pass
    assert loop.readings == 1
    return loop


def test_a_confirmed_throw_teaches_the_calibration_and_its_file(app: Flask, client: FlaskClient, referee: Referee,
                                                                match_id: int, scene: Scene, tmp_path: Any) -> None:
    from yut_cam.vision.calibration import Calibration

    installed = _installed(scene, tmp_path)
    before = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    loop = _throw_read(app, scene, installed, tmp_path)
    reading = client.get(f"/api/matches/{match_id}").json["reading"]
    assert reading["result"] == scene.truth
    resp = referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": scene.truth})
    assert resp.status_code == 200, resp.json
    learned = loop.calibration.faces.learned
    assert loop.calibration is not installed and sum(map(len, learned)) == 4  # a clean throw: all four
    saved = Calibration.load(tmp_path / "venue.json")  # what a restart reads
    assert [len(x) for x in saved.faces.learned] == [len(x) for x in learned]
    after = json.loads((tmp_path / "venue.json").read_text(encoding="utf-8"))
    assert after["background"] == before["background"]  # the picture is the installed one
    assert {k: v for k, v in after.items() if k != "faces"} == {k: v for k, v in before.items() if k != "faces"}


@pytest.mark.parametrize("result", ["낙", "모 or 윷"])
def test_a_throw_confirmed_as_nothing_it_can_teach_changes_nothing(app: Flask, client: FlaskClient, referee: Referee,
                                                                   match_id: int, scene: Scene, tmp_path: Any,
                                                                   result: str) -> None:
    installed = _installed(scene, tmp_path)
    before = (tmp_path / "venue.json").read_bytes()
    loop = _throw_read(app, scene, installed, tmp_path)
    if result != "낙":  # a result two or more sticks off the reading
        result = "모" if scene.truth in ("걸", "윷") else "윷"
    resp = referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": result})
    assert resp.status_code == 200, resp.json
    assert loop.calibration is installed and (tmp_path / "venue.json").read_bytes() == before


def test_a_reading_made_before_a_new_calibration_teaches_nothing(app: Flask, client: FlaskClient, referee: Referee,
                                                                 match_id: int, scene: Scene, tmp_path: Any) -> None:
    import dataclasses

    installed = _installed(scene, tmp_path)
    loop = _throw_read(app, scene, installed, tmp_path)
    newer = dataclasses.replace(installed)  # the referee calibrated again meanwhile
    loop.use_calibration(newer)
    referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": scene.truth})
    assert loop.calibration is newer and newer.faces.learned == ((), ())


def test_a_failing_confirmation_listener_never_loses_the_throw(app: Flask, client: FlaskClient, referee: Referee,
                                                               match_id: int, scene: Scene, tmp_path: Any) -> None:
    service = app.extensions["yut_cam.service"]
    _throw_read(app, scene, _installed(scene, tmp_path), tmp_path)
    heard: list[tuple[int, int, str]] = []

    def broken(match: int, capture: int, result: str) -> None:
        heard.append((match, capture, result))
        raise OSError("disk full")

    service.confirm_listeners.insert(0, broken)
    resp = referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": scene.truth})
    assert resp.status_code == 200, resp.json
    assert heard == [(match_id, 1, scene.truth)]
    events = [e["event"] for e in client.get(f"/api/matches/{match_id}/events").json]
    throws = [e for e in events if e.get("capture") == 1]
    assert len(throws) == 1 and throws[0]["result"] == scene.truth  # stored all the same


def test_a_confirmed_빽도_teaches_the_venue_its_mark_and_the_file_keeps_it(
        app: Flask, client: FlaskClient, referee: Referee, match_id: int, tmp_path: Any) -> None:
    """A venue whose belly picture could not say which stick is marked (a chalk smudge at
    another stick's end): the referee confirms the camera's first one-up throw as 빽도, and
    the service reads the mark from then on, after a restart too."""
    from tests.vision_reader import scenes as S
    from tests.vision_reader import test_learn_mark as M
    from yut_cam.vision.calibration import Calibration, calibrate
    from yut_cam.web.calibrate import install

    belly = M.smudged([S.Stick(x, y, a, "배", marked=(i == 2)) for i, (x, y, a) in enumerate(M.SPOTS)], 0)
    back = [S.Stick(x, y, a, "등") for x, y, a in M.SPOTS]
    venue = install(calibrate(S.render([], 0), S.render(belly, 1), S.render(back, 2)), tmp_path / "venue.json")
    assert venue.mark is None and len(venue.mark_candidates) == 2
    frames = [S.render([], 0)] * 12 + [S.render(S.four("배등등등", 0, seed=23), seed=33)] * 25
    loop = _throw_read(app, Scene(frames, venue, "빽도"), venue, tmp_path)
    reading = client.get(f"/api/matches/{match_id}").json["reading"]
    assert reading["result"] == "도" and reading["needs_referee"] is True  # asked: 도 or 빽도?
    assert referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": "빽도"}).status_code == 200
    assert loop.calibration.mark is not None and loop.calibration.mark_candidates == ()
    saved = Calibration.load(tmp_path / "venue.json")  # what a restart reads
    assert saved.mark is not None and saved.warnings == ()
