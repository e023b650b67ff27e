"""`yut-cam demo` preparation: the demo match, the PIN, the cached frames and calibration."""

from __future__ import annotations

from pathlib import Path

import pytest

from yut_cam.store import EventStore
from yut_cam.web.demo import DEMO_HEADER, prepare_demo


def test_demo_match_is_opened_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YUT_CAM_PIN", "7777")
    first = prepare_demo(tmp_path / "var", camera=False)
    again = prepare_demo(tmp_path / "var", camera=False)
    assert first.pin == "7777" and first.match_id == again.match_id
    with EventStore(tmp_path / "var" / "yut-cam.sqlite3") as store:
        header = store.header(first.match_id)
        assert header["first"] is None and header["rules"] == "official"
        assert [t["name"] for t in header["teams"]] == [t["name"] for t in DEMO_HEADER["teams"]]
        store.finish(first.match_id)
    assert prepare_demo(tmp_path / "var", camera=False).match_id == first.match_id + 1
    assert "CAMERA" not in first.config and first.config["REFEREE_PIN"] == "7777"


def test_demo_frames_are_rendered_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from yut_cam.vision.calibration import Calibration
    from yut_cam.web import demo

    monkeypatch.delenv("YUT_CAM_PIN", raising=False)
    made = prepare_demo(tmp_path, throws=1)
    frames = sorted((tmp_path / "demo-frames").glob("*.jpg"))
    assert made.config["CAMERA"] == f"fake:{tmp_path / 'demo-frames'}" and len(frames) > 30
    assert Calibration.load(made.config["CALIBRATION"]).image_size == demo.FRAME_SIZE
    assert len(made.pin) == 4 and made.pin.isdigit()
    stamp = frames[0].stat().st_mtime_ns

    def no_rendering(*_args: object) -> None:
        raise AssertionError("rendered again")

    monkeypatch.setattr(demo, "render_demo", no_rendering)
    prepare_demo(tmp_path, throws=1)
    assert frames[0].stat().st_mtime_ns == stamp
