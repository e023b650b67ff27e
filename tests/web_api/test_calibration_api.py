"""The console's camera calibration over the API: photos from the camera loop's latest frame,
the referee's mat polygon, calibrate → atomic install → hot swap into the camera loop."""

from __future__ import annotations

import dataclasses
import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import Referee
from yut_cam.vision.calibration import Calibration
from yut_cam.web.camera_loop import CameraLoop

SIZE = (480, 270)


@dataclass(frozen=True)
class Venue:
    empty: Any
    belly: Any
    back: Any
    mat: list[list[float]]
    clip: list[Any]
    truth: str


def _jpeg(image: Any) -> Any:
    import cv2

    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def calibrating_venue(size: tuple[int, int] = SIZE, square: bool = False) -> Venue:
    """A generated venue whose three photos calibrate (after the JPEG the service stores);
    ``square``: a square mat, whose outline is its four corners."""
    from yut_cam.vision import synth
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.errors import CalibrationError

    for seed in range(20261130, 20261160):
        rng = np.random.default_rng(seed)
        style = synth.random_style(rng)
        if square and not style.mat_kind.startswith("square"):
            continue
        shots = synth.render_calibration(style, size)
        try:
            calibrate(_jpeg(shots.empty), _jpeg(shots.belly), _jpeg(shots.back), list(shots.mat_polygon))
        except CalibrationError:
            continue
        frames, truth, _ = synth.render_clip(style, rng, size, case="clean", hand=False, rest=20)
        return Venue(shots.empty, shots.belly, shots.back, [[x, y] for x, y in shots.mat_polygon],
                     frames, synth.result_of(truth.sticks))
    pytest.fail("no generated venue calibrates")


@pytest.fixture(scope="module")
def venue() -> Venue:
    return calibrating_venue()


class Feed:
    """The fake camera's picture: queued frames first, else the still, else nothing."""

    def __init__(self) -> None:
        self.queue: deque[Any] = deque()
        self.still: Any = None

    def frames(self) -> Iterator[Any]:
        while True:
            if self.queue:
                yield self.queue.popleft()
            elif self.still is not None:
                yield self.still
            else:
                return


@dataclass
class Rig:
    loop: CameraLoop
    source: Any
    feed: Feed

    def show(self, image: Any) -> None:
        """The camera now sees ``image``: one frame goes through the loop."""
        self.feed.still = image
        assert self.loop.poll(self.source) is True


@pytest.fixture
def rig(app: Flask) -> Rig:
    from yut_cam.vision.sources import FakeCamera

    feed = Feed()
    service = app.extensions["yut_cam.service"]
    loop = CameraLoop(service, "fake:test", app.config["CALIBRATION"],
                      source_factory=lambda: FakeCamera(feed.frames()))
    service.camera_status = loop.status
    app.extensions["yut_cam.camera"] = loop
    return Rig(loop, loop.open_source(), feed)


def photograph(referee: Referee, rig: Rig, venue: Venue) -> None:
    for kind, image in (("empty", venue.empty), ("belly", venue.belly), ("back", venue.back)):
        rig.show(image)
        resp = referee.post("/api/calibration/snapshot", {"kind": kind})
        assert resp.status_code == 200, resp.json
        assert resp.json["kind"] == kind and (resp.json["width"], resp.json["height"]) == SIZE
        with referee.client.get(resp.json["url"]) as photo:
            assert photo.status_code == 200 and photo.mimetype == "image/jpeg"
            assert photo.data[:2] == b"\xff\xd8"


def test_without_a_camera_a_photo_is_503_in_korean(referee: Referee) -> None:
    resp = referee.post("/api/calibration/snapshot", {"kind": "empty"})
    assert resp.status_code == 503 and "no camera" in resp.json["error"]
    ko = referee.client.post("/api/calibration/snapshot", json={"kind": "empty"},
                             headers={"X-CSRF-Token": referee.csrf, "Accept-Language": "ko"})
    assert ko.status_code == 503 and ko.json["error"].startswith("카메라가 없습니다")
    assert "no camera" in ko.json["error_en"]


def test_a_camera_without_a_picture_is_503(referee: Referee, rig: Rig) -> None:
    assert rig.loop.poll(rig.source) is False  # the camera delivers nothing
    resp = referee.post("/api/calibration/snapshot", {"kind": "empty"})
    assert resp.status_code == 503 and "no picture" in resp.json["error"]


@pytest.mark.parametrize("body", [{"kind": "side"}, {"kind": None}, {}])
def test_a_photo_of_an_unknown_kind_is_400(referee: Referee, rig: Rig, venue: Venue, body: dict[str, Any]) -> None:
    rig.show(venue.empty)
    resp = referee.post("/api/calibration/snapshot", body)
    assert resp.status_code == 400 and "kind" in resp.json["error"]


def test_calibrate_with_the_referees_mat_and_the_camera_reads_with_it(
        app: Flask, client: FlaskClient, referee: Referee, rig: Rig, venue: Venue, match_id: int) -> None:
    before = client.get(f"/api/matches/{match_id}").json["camera"]
    assert rig.loop.calibration is None
    rig.show(venue.empty)
    camera = client.get(f"/api/matches/{match_id}").json["camera"]
    assert camera["ok"] is False and camera["message"].startswith("보정 필요")  # frames flow, nothing read
    assert rig.loop.load_calibration() is None  # no file yet: the state says how to make one
    camera = client.get(f"/api/matches/{match_id}").json["camera"]
    assert camera["message"].startswith("보정 파일 문제") and "카메라 보정" in camera["message"]
    assert before["ok"] is False
    photograph(referee, rig, venue)
    # the referee taps the corners in any order: the outline is the same
    taps = [venue.mat[i] for i in (0, 2, 1, 3)] if len(venue.mat) == 4 else venue.mat
    resp = referee.post("/api/calibration", {"mat": taps})
    assert resp.status_code == 200, resp.json
    out = resp.json
    assert out["ok"] is True and out["applied"] is True and out["image_size"] == list(SIZE)
    assert sorted(map(tuple, out["mat"])) == sorted((round(x, 1), round(y, 1)) for x, y in venue.mat)
    assert 10 < out["stick_length_px"] < SIZE[0]
    assert out["warnings"] == [] and out["warnings_ko"] == []  # the mark was learned
    assert out["mat_doubt"] == [0.0, 0.0] and out["mat_unsure"] is False  # the outline was tapped
    path = Path(app.config["CALIBRATION"])
    assert path.is_file() and not Path(str(path) + ".bak").exists()
    # hot swap: the next throw is read with the new calibration
    assert rig.loop.calibration is not None
    rig.feed.still = None
    rig.feed.queue.extend(venue.clip)
    while rig.loop.poll(rig.source):
        pass
    assert rig.loop.readings == 1
    state = client.get(f"/api/matches/{match_id}").json
    assert state["reading"]["result"] == venue.truth
    assert state["camera"]["message"] == "카메라 영상이 끝났습니다"  # was 카메라 정상 while the clip ran
    summary = referee.client.get("/api/calibration").json
    assert summary["calibrated"] is True and summary["mat"] == out["mat"] and summary["camera"] is True
    assert all(summary["photos"][k] for k in ("empty", "belly", "back"))
    assert summary["learned"] == {"배": 0, "등": 0}
    # the referee confirms the throw: the venue's sticks are learned, in the file too
    assert referee.post(f"/api/matches/{match_id}/reading/confirm", {"result": venue.truth}).status_code == 200
    learned = referee.client.get("/api/calibration").json["learned"]
    assert learned["배"] + learned["등"] > 0
    assert [len(x) for x in Calibration.load(path).faces.learned] == [learned["배"], learned["등"]]


def test_a_second_calibration_keeps_the_first_as_bak(app: Flask, referee: Referee, rig: Rig,
                                                     venue: Venue) -> None:

    photograph(referee, rig, venue)
    assert referee.post("/api/calibration", {"mat": venue.mat}).status_code == 200
    path = Path(app.config["CALIBRATION"])
    first = json.loads(path.read_text())
    inset = [[x + (1 if x < SIZE[0] / 2 else -1), y] for x, y in venue.mat]
    assert referee.post("/api/calibration", {"mat": inset}).status_code == 200
    backup = Path(str(path) + ".bak")
    assert json.loads(backup.read_text()) == first
    assert Calibration.load(backup).mat_polygon != Calibration.load(path).mat_polygon  # both load
    pngs = sorted(p.name for p in path.parent.glob("*.background.png"))
    assert pngs == sorted({first["background"], json.loads(path.read_text())["background"]})
    assert not list(path.parent.glob(".staging-*"))


@pytest.mark.parametrize("mat, status, words", [
    ([[10, 10], [400, 10], [400, 250]], 422, "at least 4 points"),
    ([[10, 10], [900, 10], [400, 250], [10, 250]], 422, "outside the 480x270 photo"),
    ([[-5, 10], [400, 10], [400, 250], [10, 250]], 422, "outside"),
    ([[10, 10], [12, 10], [12, 12], [10, 12]], 422, "covers only"),
    ([[10, 10], [400, 10], "x", [10, 250]], 400, "[x, y]"),
    ("auto", 400, "null or a list"),
    ([[10, 10], [400, float("nan")], [400, 250], [10, 250]], 400, "[x, y]"),
])
def test_a_bad_mat_is_refused_and_the_old_calibration_stays(
        app: Flask, referee: Referee, rig: Rig, venue: Venue, mat: Any, status: int, words: str) -> None:
    photograph(referee, rig, venue)
    assert referee.post("/api/calibration", {"mat": venue.mat}).status_code == 200
    path = Path(app.config["CALIBRATION"])
    before = path.read_bytes()
    in_use = rig.loop.calibration
    resp = referee.client.post("/api/calibration", data=json.dumps({"mat": mat}), content_type="application/json",
                               headers={"X-CSRF-Token": referee.csrf})
    assert resp.status_code == status, resp.json
    assert words in resp.json["error"]
    assert path.read_bytes() == before and rig.loop.calibration is in_use
    assert not Path(str(path) + ".bak").exists()


def test_photos_that_do_not_calibrate_are_422_in_words(app: Flask, referee: Referee, rig: Rig,
                                                       venue: Venue) -> None:
    for kind in ("empty", "belly", "back"):  # three photos of the empty mat: no sticks
        rig.show(venue.empty)
        assert referee.post("/api/calibration/snapshot", {"kind": kind}).status_code == 200
    resp = referee.client.post("/api/calibration", json={"mat": venue.mat},
                               headers={"X-CSRF-Token": referee.csrf, "Accept-Language": "ko"})
    assert resp.status_code == 422
    assert "윷" in resp.json["error"] and "stick" in resp.json["error_en"]
    assert not Path(app.config["CALIBRATION"]).exists() and rig.loop.calibration is None


def test_calibrating_before_the_photos_is_409(referee: Referee, rig: Rig, venue: Venue) -> None:
    rig.show(venue.empty)
    assert referee.post("/api/calibration/snapshot", {"kind": "empty"}).status_code == 200
    resp = referee.post("/api/calibration", {"mat": None})
    assert resp.status_code == 409 and "belly, back" in resp.json["error"]


def test_spectators_get_401(client: FlaskClient, rig: Rig, venue: Venue) -> None:
    rig.show(venue.empty)
    assert client.post("/api/calibration/snapshot", json={"kind": "empty"}).status_code == 401
    assert client.post("/api/calibration", json={"mat": None}).status_code == 401
    assert client.post("/api/calibration/outline", json={"mat": venue.mat}).status_code == 401
    assert client.get("/api/calibration").status_code == 401
    assert client.get("/api/calibration/snapshot/empty.jpg").status_code == 401


def test_a_write_without_csrf_is_403(referee: Referee, rig: Rig, venue: Venue) -> None:
    rig.show(venue.empty)
    for path, body in (("/api/calibration/snapshot", {"kind": "empty"}), ("/api/calibration", {"mat": None}),
                       ("/api/calibration/outline", {"mat": venue.mat})):
        resp = referee.client.post(path, json=body)
        assert resp.status_code == 403 and "CSRF" in resp.json["error"], path
    assert referee.client.get("/api/calibration/snapshot/empty.jpg").status_code == 404


def found_outline(app: Flask, rig: Rig) -> Calibration:
    """The calibration in use and on file made as if the reader had found the outline itself
    (4 px of doubt either way) rather than the referee tapping it."""
    path = Path(app.config["CALIBRATION"])
    found = dataclasses.replace(Calibration.load(path), mat_doubt=(4.0, 4.0))
    found.save(path, background_file=json.loads(path.read_text(encoding="utf-8"))["background"])
    rig.loop.use_calibration(found)
    return found


def test_the_referee_confirms_the_found_outline_and_the_camera_reads_it_as_tapped(
        app: Flask, referee: Referee, rig: Rig, venue: Venue) -> None:
    photograph(referee, rig, venue)
    assert referee.post("/api/calibration", {"mat": venue.mat}).status_code == 200
    found_outline(app, rig)
    shown = referee.client.get("/api/calibration").json
    assert shown["mat_doubt"] == [4.0, 4.0]  # what the console offers to confirm
    resp = referee.post("/api/calibration/outline", {"mat": shown["mat"]})
    assert resp.status_code == 200, resp.json
    assert resp.json["already"] is False and resp.json["applied"] is True
    assert resp.json["mat_doubt"] == [0.0, 0.0] and resp.json["mat"] == shown["mat"]
    path = Path(app.config["CALIBRATION"])
    assert Calibration.load(path).mat_doubt == (0.0, 0.0)  # durable before it is acknowledged
    assert rig.loop.calibration.mat_doubt == (0.0, 0.0)  # and read with from the next frame on
    assert Calibration.load(Path(str(path) + ".bak")).mat_doubt == (4.0, 4.0)  # the found one kept
    before = path.read_bytes()
    again = referee.post("/api/calibration/outline", {"mat": shown["mat"]})
    assert again.status_code == 200 and again.json["already"] is True
    assert path.read_bytes() == before


@pytest.mark.parametrize(("body", "status", "words"), [
    ({}, 400, "the outline you confirm"),
    ({"mat": None}, 400, "the outline you confirm"),
    ({"mat": "all of it"}, 400, "list of [x, y]"),
    ({"mat": [[1, 2], [3, "4"]]}, 400, "list of [x, y]"),
    ("shifted", 409, "not the one in use"),
    ("three", 409, "not the one in use"),
])
def test_an_outline_not_in_use_is_refused_and_nothing_changes(
        app: Flask, referee: Referee, rig: Rig, venue: Venue, body: Any, status: int, words: str) -> None:
    photograph(referee, rig, venue)
    assert referee.post("/api/calibration", {"mat": venue.mat}).status_code == 200
    found = found_outline(app, rig)
    mat = [[x, y] for x, y in found.mat_polygon]
    if body == "shifted":  # a calibration made since moved it by a pixel
        body = {"mat": [[x + 1.0, y] for x, y in mat]}
    elif body == "three":
        body = {"mat": mat[:3]}
    path = Path(app.config["CALIBRATION"])
    before = path.read_bytes()
    resp = referee.post("/api/calibration/outline", body)
    assert resp.status_code == status, resp.json
    assert words in resp.json["error"]
    assert path.read_bytes() == before and rig.loop.calibration is found


def test_confirming_an_outline_before_calibrating_is_409_in_korean(referee: Referee, rig: Rig, venue: Venue) -> None:
    resp = referee.client.post("/api/calibration/outline", json={"mat": venue.mat},
                               headers={"X-CSRF-Token": referee.csrf, "Accept-Language": "ko"})
    assert resp.status_code == 409 and resp.json["error"].startswith("아직 보정하지 않았습니다")
    assert "calibrate first" in resp.json["error_en"]


def test_the_summary_before_any_calibration(referee: Referee) -> None:
    out = referee.client.get("/api/calibration").json
    assert out["calibrated"] is False and out["camera"] is False and out["problem"] is None
    assert out["photos"] == {"empty": None, "belly": None, "back": None}
    assert referee.client.get("/api/calibration/snapshot/side.jpg").status_code == 404


def test_automatic_mat_finding_passes_no_polygon_and_explains_a_miss(
        monkeypatch: pytest.MonkeyPatch, app: Flask, referee: Referee, rig: Rig, venue: Venue) -> None:
    from yut_cam.vision import calibration as vision_calibration
    from yut_cam.vision.errors import CalibrationError

    photograph(referee, rig, venue)
    given: list[Any] = []

    def no_mat_found(empty: Any, belly: Any, back: Any, mat_polygon: Any = None) -> Any:
        given.append(mat_polygon)
        raise CalibrationError("empty image: cannot find the mat (no large region); give --mat")

    monkeypatch.setattr(vision_calibration, "calibrate", no_mat_found)
    resp = referee.client.post("/api/calibration", json={"mat": None},
                               headers={"X-CSRF-Token": referee.csrf, "Accept-Language": "ko"})
    assert given == [None]
    assert resp.status_code == 422 and resp.json["error"].startswith("빈 멍석 사진에서 멍석을 찾지 못했습니다")
    assert "cannot find the mat" in resp.json["error_en"]
    assert not Path(app.config["CALIBRATION"]).exists()


def markless_venue(size: tuple[int, int] = SIZE, square: bool = False) -> Venue:
    """A generated venue whose 빽도 mark is painted the colour of the wood: it calibrates
    (after the service's JPEG), without the mark and without a stick whose ends differ like
    one (no candidate to learn it from)."""
    import dataclasses

    from yut_cam.vision import synth
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.errors import CalibrationError

    for seed in range(20261130, 20261160):
        style = synth.random_style(np.random.default_rng(seed))
        if square and not style.mat_kind.startswith("square"):
            continue
        style = dataclasses.replace(style, mark_color=style.wood)
        shots = synth.render_calibration(style, size)
        try:
            cal = calibrate(_jpeg(shots.empty), _jpeg(shots.belly), _jpeg(shots.back), list(shots.mat_polygon))
        except CalibrationError:
            continue
        if cal.mark is None and not cal.mark_candidates:
            return Venue(shots.empty, shots.belly, shots.back, [[x, y] for x, y in shots.mat_polygon], [], "")
    pytest.fail("no generated venue without a visible mark calibrates")


def test_a_set_whose_mark_does_not_show_calibrates_with_a_warning(referee: Referee, rig: Rig) -> None:
    """The 빽도 mark painted the colour of the wood: the camera still reads the venue, and the
    console says plainly that the referee decides 도 or 빽도."""
    venue = markless_venue()
    photograph(referee, rig, venue)
    resp = referee.post("/api/calibration", {"mat": venue.mat})
    assert resp.status_code == 200, resp.json
    assert resp.json["ok"] is True and rig.loop.calibration is not None and rig.loop.calibration.mark is None
    (warning,) = resp.json["warnings"]
    assert "빽도 mark was not learned" in warning
    (ko,) = resp.json["warnings_ko"]
    assert "빽도 표시를 배우지 못했습니다" in ko
    assert referee.client.get("/api/calibration").json["warnings_ko"] == [ko]
    assert resp.json["mark_candidates"] == 0  # no stick's ends differed: nothing to learn it from


@pytest.mark.parametrize(("message", "hint"), [
    ("empty image: cannot find the mat's outline with confidence (...); give its corners with --mat",
     "빈 멍석 사진에서 멍석을 찾지 못했습니다"),
    ("belly image: a stick at (59, 358) lies off the mat's outline found in the empty image: lay all four sticks"
     " on the mat; if they are on it, the outline found is wrong: give the mat's corners with --mat",
     "윷 하나가 빈 멍석 사진에서 찾은 멍석 테두리 밖에 있습니다"),
    ("back image: found 1 stick(s), need exactly 4 on the mat, lying apart or side by side with a gap between them",
     "윷 네 개를 제대로 찾지 못했습니다"),
    ("back image: 27% of the mat differs from the empty picture (four sticks cover a few %): has the camera moved,"
     " or is something over the mat? Take the three pictures again", "배/등 사진이 빈 멍석 사진과 많이 다릅니다"),
    ("belly image is blank (one flat colour): retake it", "사진이 한 가지 색뿐입니다"),
])
def test_a_refusal_is_told_the_referee_in_korean(message: str, hint: str) -> None:
    from yut_cam.web.calibrate import korean_reason

    said = korean_reason(message)
    assert said.startswith(hint) and said.endswith(f"({message})")
