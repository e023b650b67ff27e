"""The console's 카메라 보정 dialog in a real browser against the production server with a fake
camera: three photos, four taps on the mat's corners, 보정하기 → success, and the camera loop
reads with the new calibration (its status turns to 카메라 정상)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.web_api.test_calibration_api import Venue, calibrating_venue, markless_venue
from tests.web_browser.helpers import console, js_errors, live_state
from tests.web_live import LIVE_PIN, READY_TIMEOUT, REPO, LiveServer, free_port, stop_live_server

pytestmark = pytest.mark.browser

SIZE = (640, 360)


class Camera:
    """What the fake camera (``fake:DIR``, re-read every frame) sees: one picture, replaced atomically."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir()

    def show(self, image: Any) -> None:
        ok, buf = cv2.imencode(".png", image)
        assert ok
        tmp = self.folder / "frame.tmp"
        tmp.write_bytes(buf.tobytes())
        os.replace(tmp, self.folder / "frame.png")


def start_with_camera(tmp: Path, camera_dir: Path) -> LiveServer:
    """``yut-cam serve`` as the ``live_server`` fixture starts it, but with ``--camera fake:DIR``."""
    port = free_port()
    db, log = tmp / "yut.sqlite3", tmp / "server.log"
    env = dict(os.environ, YUT_CAM_PIN=LIVE_PIN, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "yut_cam.cli", "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db),
           "--var", str(tmp / "var"), "--camera", f"fake:{camera_dir}", "--allow-injected-readings"]
    with log.open("wb") as handle:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True)
    server = LiveServer(f"http://127.0.0.1:{port}", LIVE_PIN, db, log, proc)
    deadline = time.monotonic() + READY_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"yut-cam serve exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(server.url + "/api/matches", timeout=2) as resp:
                if resp.status == 200:
                    return server
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop_live_server(server)
            raise RuntimeError(f"yut-cam serve not ready:\n{log.read_text(errors='replace')}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def venue() -> Venue:
    venue = calibrating_venue(SIZE, square=True)
    assert len(venue.mat) == 4
    return venue


@pytest.fixture
def rig(tmp_path: Path, venue: Venue) -> Iterator[tuple[LiveServer, Camera]]:
    camera = Camera(tmp_path / "camera")
    camera.show(venue.empty)
    server = start_with_camera(tmp_path, camera.folder)
    try:
        yield server, camera
    finally:
        stop_live_server(server)


def photo_matches(page: Any, kind: str, expected: Any) -> bool:
    """The stored photo (fetched with the browser's referee session) shows ``expected``."""
    url = page.locator(f"#cal-step-{kind} img").get_attribute("src")
    body = page.request.get(urllib.parse.urljoin(page.url, url)).body()
    got = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    return got is not None and got.shape == expected.shape and \
        float(np.mean(cv2.absdiff(got, expected))) < 4.0


def take(page: Any, camera: Camera, kind: str, image: Any) -> None:
    camera.show(image)
    for _ in range(20):  # the camera loop picks the new picture up within a frame or two
        before = page.locator(f"#cal-step-{kind} img").get_attribute("src")
        page.click(f'#cal-step-{kind} .cal-shoot')
        page.wait_for_function(
            "([k, b]) => { const i = document.querySelector(`#cal-step-${k} img`);"
            " return !i.hidden && i.getAttribute('src') !== b && i.complete && i.naturalWidth > 0; }",
            arg=[kind, before])
        if photo_matches(page, kind, image):
            return
    pytest.fail(f"the {kind} photo never showed the camera's picture")


@contextlib.contextmanager
def dialog_with_photos(open_page: Callable[..., Any], tmp_path: Path, empty: Any, belly: Any,
                       back: Any) -> Iterator[tuple[LiveServer, Any]]:
    """A live service whose camera shows ``empty``, its console's 카메라 보정 dialog open with
    the three photos taken; the service stopped afterwards."""
    camera = Camera(tmp_path / "camera")
    camera.show(empty)
    server = start_with_camera(tmp_path, camera.folder)
    try:
        page = console(open_page, server, server.create_match())
        page.click("#btn-cal")
        page.wait_for_selector("#dlg-cal[open]")
        for kind, image in (("empty", empty), ("belly", belly), ("back", back)):
            take(page, camera, kind, image)
        yield server, page
    finally:
        stop_live_server(server)


def test_calibrate_from_the_console(open_page: Callable[..., Any], rig: tuple[LiveServer, Camera], venue: Venue,
                                    shots_dir: Path) -> None:
    server, camera = rig
    match_id = server.create_match()
    assert "보정 파일 문제" in live_state(server, match_id)["camera"]["message"]
    page = console(open_page, server, match_id)
    page.wait_for_selector("#btn-cal.attention")  # the camera needs a calibration
    assert "보정 파일 문제" in (page.locator("#btn-cal").get_attribute("title") or "")
    # a camera that cannot read yet: the console says so, not that there is no camera
    assert page.inner_text("#r-note").startswith("카메라가 읽지 못하는 중")
    page.click("#btn-cal")
    page.wait_for_selector("#dlg-cal[open]")
    assert page.locator("#cal-now").inner_text() == "아직 보정하지 않았습니다"
    assert page.locator("#cal-run").is_disabled()
    for kind, image in (("empty", venue.empty), ("belly", venue.belly), ("back", venue.back)):
        take(page, camera, kind, image)
        assert page.locator(f"#cal-step-{kind}").get_attribute("class") == "cal-step done"
    assert "4곳 더" in page.locator("#cal-why").inner_text()

    # tap the mat's corners on the empty-mat photo (one wrong tap, taken back with 되돌리기)
    page.wait_for_function("() => document.querySelector('#cal-svg').getAttribute('viewBox') === '0 0 640 360'")
    page.screenshot(path=str(shots_dir / "calibration-photos.png"))
    page.locator("#cal-svg").scroll_into_view_if_needed()
    box = page.locator("#cal-svg").bounding_box()

    def tap(x: float, y: float) -> None:
        page.mouse.click(box["x"] + x / SIZE[0] * box["width"], box["y"] + y / SIZE[1] * box["height"])

    tap(SIZE[0] / 2, 5)
    assert page.locator("#cal-count").inner_text() == "1점"
    page.click("#cal-undo")
    for x, y in venue.mat:
        tap(x, y)
    assert page.locator("#cal-count").inner_text() == f"{len(venue.mat)}점"
    assert page.locator("#cal-svg circle.tap").count() == len(venue.mat)
    assert page.locator("#cal-svg polygon.taps").count() == 1
    assert page.locator("#cal-run").is_enabled()
    page.screenshot(path=str(shots_dir / "calibration-taps.png"))

    page.click("#cal-run")
    page.wait_for_selector("#cal-result.good", timeout=60_000)
    assert "보정했습니다" in page.locator("#cal-result").inner_text()
    assert page.locator("#cal-svg polygon.found").count() == 1
    page.wait_for_function("() => document.querySelector('#cal-now').textContent.startsWith('지금 보정: 멍석')")
    page.screenshot(path=str(shots_dir / "calibration-done.png"))

    # the server uses it: the calibration file, its mat, and the camera loop reading again
    ref = server.referee()
    status, summary = ref.get("/api/calibration")
    assert status == 200 and summary["calibrated"] is True
    for (gx, gy), (tx, ty) in zip(sorted(map(tuple, summary["mat"])), sorted(map(tuple, venue.mat))):
        assert abs(gx - tx) <= 2.5 and abs(gy - ty) <= 2.5  # a tap lands within a screen pixel
    assert Path(summary["path"]).is_file() and json.loads(Path(summary["path"]).read_text())["version"] == 1
    page.wait_for_function(
        "id => fetch(`/api/matches/${id}`).then(r => r.json()).then(s => s.camera && s.camera.message === '카메라 정상')",
        arg=match_id, polling=250)
    page.click("#cal-close")
    assert page.locator("#dlg-cal[open]").count() == 0
    page.wait_for_selector("#btn-cal:not(.attention)[title='카메라: 카메라 정상']")
    assert page.inner_text("#r-note").startswith("카메라가 던지기를 지켜봅니다")
    assert js_errors(page) == []
    assert re.search(r"/referee", page.url)


def test_a_calibration_without_the_mark_is_shown_in_amber(open_page: Callable[..., Any], tmp_path: Path,
                                                          shots_dir: Path) -> None:
    """Photos whose 빽도 mark does not show: 보정하기 succeeds, and the dialog says in amber
    that one stick 배 up will be the referee's call."""
    venue = markless_venue(SIZE, square=True)
    with dialog_with_photos(open_page, tmp_path, venue.empty, venue.belly, venue.back) as (server, page):
        page.wait_for_function("() => document.querySelector('#cal-svg').getAttribute('viewBox') === '0 0 640 360'")
        page.locator("#cal-svg").scroll_into_view_if_needed()
        box = page.locator("#cal-svg").bounding_box()
        for x, y in venue.mat:
            page.mouse.click(box["x"] + x / SIZE[0] * box["width"], box["y"] + y / SIZE[1] * box["height"])
        page.click("#cal-run")
        page.wait_for_selector("#cal-result.warn", timeout=60_000)
        text = page.locator("#cal-result").inner_text()
        # the service's pictures may show a stick whose ends differ a little (then the first 빽도
        # confirmed teaches the mark) or none: either way one stick 배 up is the referee's call
        assert "보정했습니다 (주의)" in text and "심판이 도인지 빽도인지 정합니다" in text, text
        assert "빽도 표시를 배우지 못했습니다" in text or "빽도 표시가 있는 윷을 아직 모릅니다" in text, text
        page.wait_for_function("() => ['빽도 표시 없음', '빽도를 한두 번 확인하면 배웁니다'].some("
                               "w => document.querySelector('#cal-now').textContent.includes(w))")
        page.screenshot(path=str(shots_dir / "calibration-no-mark.png"))
        assert js_errors(page) == []


def test_a_calibration_that_can_learn_the_mark_says_so(open_page: Callable[..., Any], tmp_path: Path,
                                                       shots_dir: Path) -> None:
    """Photos where a blot at another stick's end hides which stick is marked: the dialog says
    the first 빽도 the referee confirms will teach the mark."""
    from tests.vision_reader import scenes as S
    from tests.vision_reader import test_learn_mark as M

    belly = M.smudged([S.Stick(x, y, a, "배", marked=(i == 2)) for i, (x, y, a) in enumerate(M.SPOTS)], 0)
    # at this size, after the service's JPEG, the vision tests' chalk is told from the red mark
    # by an end's most different stretch (calibration.MARK_PEAK); a blot of blue ink is not
    belly[0] = dataclasses.replace(belly[0], mark_color=(200, 60, 30), mark_radius=10)
    back = [S.Stick(x, y, a, "등") for x, y, a in M.SPOTS]
    empty = S.render([], 0, size=SIZE)
    mat = [(x * SIZE[0] / S.SIZE[0], y * SIZE[1] / S.SIZE[1]) for x, y in S.MAT]
    with dialog_with_photos(open_page, tmp_path, empty, S.render(belly, 1, size=SIZE),
                            S.render(back, 2, size=SIZE)) as (server, page):
        page.wait_for_function("() => document.querySelector('#cal-svg').getAttribute('viewBox') === '0 0 640 360'")
        page.locator("#cal-svg").scroll_into_view_if_needed()
        box = page.locator("#cal-svg").bounding_box()
        for x, y in mat:
            page.mouse.click(box["x"] + x / SIZE[0] * box["width"], box["y"] + y / SIZE[1] * box["height"])
        page.click("#cal-run")
        page.wait_for_selector("#cal-result.warn", timeout=60_000)
        text = page.locator("#cal-result").inner_text()
        assert "심판이 빽도를 한두 번 확인하면" in text, text
        page.wait_for_function("() => document.querySelector('#cal-now').textContent.includes('빽도를 한두 번 확인하면 배웁니다')")
        assert "빽도 표시 없음" not in page.locator("#cal-now").inner_text()
        page.screenshot(path=str(shots_dir / "calibration-mark-candidates.png"))
        assert js_errors(page) == []


def test_an_unsure_mat_edge_is_asked_for_once_and_settled_by_taps(open_page: Callable[..., Any], tmp_path: Path,
                                                                 shots_dir: Path) -> None:
    """Held-out venue 1510 (a canvas mat whose border band has the grass floor's look), found
    automatically: the dialog says in amber that the mat's edge is unsure and asks for taps;
    the status line says so apart from the mark. Tapped, the warning about the edge goes."""
    from bench.held_out_scenes import Style as HeldOut, calibration_images

    style = HeldOut(1510)
    empty, belly, back = calibration_images(style, np.random.default_rng(1510 + 11))[:3]  # 1280x720
    with dialog_with_photos(open_page, tmp_path, empty, belly, back) as (server, page):
        page.check('input[name="cal-mode"][value="auto"]')
        page.click("#cal-run")
        page.wait_for_selector("#cal-result.warn", timeout=60_000)
        assert "멍석 가장자리가 확실하지 않습니다" in page.locator("#cal-result").inner_text()
        page.wait_for_function("() => document.querySelector('#cal-now').textContent.includes('멍석 가장자리 불확실')")
        # the mark was learned here: the edge's warning alone does not read as a missing mark
        assert "빽도 표시" not in page.locator("#cal-now").inner_text()
        page.screenshot(path=str(shots_dir / "calibration-mat-unsure.png"))

        page.check('input[name="cal-mode"][value="taps"]')
        page.locator("#cal-svg").scroll_into_view_if_needed()
        box = page.locator("#cal-svg").bounding_box()
        w, h = style.size
        for x, y in style.taps():
            page.mouse.click(box["x"] + x / w * box["width"], box["y"] + y / h * box["height"])
        page.click("#cal-run")
        page.wait_for_function("() => !document.querySelector('#cal-result').textContent.includes('멍석 가장자리')"
                               " && document.querySelector('#cal-result').textContent.includes('보정했습니다')",
                               timeout=60_000)
        page.wait_for_function("() => !document.querySelector('#cal-now').textContent.includes('멍석 가장자리 불확실')")
        status, summary = server.referee().get("/api/calibration")
        assert status == 200 and summary["mat_unsure"] is False and summary["mat_doubt"] == [0.0, 0.0]
        assert js_errors(page) == []


def test_a_found_outline_on_the_mats_edge_is_confirmed_with_one_tap(open_page: Callable[..., Any], tmp_path: Path,
                                                                    shots_dir: Path) -> None:
    """Independent venue 51000, found automatically with no warning: the dialog offers to
    confirm the outline drawn over the empty picture; one tap makes it exact (as taps are),
    in the file the camera reads with, and the offer goes."""
    from bench.foreign_scenes import Style as Independent, calibration_images

    style = Independent(51000)
    empty, belly, back = calibration_images(style, np.random.default_rng(51000 + 11))
    with dialog_with_photos(open_page, tmp_path, empty, belly, back) as (server, page):
        page.check('input[name="cal-mode"][value="auto"]')
        page.click("#cal-run")
        page.wait_for_selector("#cal-result.good", timeout=60_000)
        page.wait_for_selector("#cal-confirm-btn:visible")
        _, before = server.referee().get("/api/calibration")
        assert before["mat_doubt"] != [0.0, 0.0]
        page.screenshot(path=str(shots_dir / "calibration-confirm-outline.png"))
        page.click("#cal-confirm-btn")
        page.wait_for_function("() => document.querySelector('#cal-result').textContent.includes('윤곽을 확인했습니다')")
        page.wait_for_selector("#cal-confirm", state="hidden")
        status, after = server.referee().get("/api/calibration")
        assert status == 200 and after["mat_doubt"] == [0.0, 0.0] and after["mat"] == before["mat"]
        assert js_errors(page) == []
