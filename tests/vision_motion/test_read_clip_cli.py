"""``yut-cam read-clip VIDEO --calibration CAL.json --json`` end to end on a generated clip."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from yut_cam.cli import main
from yut_cam.vision.synth import SceneStyle, render_calibration, render_session

SIZE = (960, 540)


def test_read_clip_prints_each_settled_throw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from yut_cam.vision.calibration import calibrate

    style = SceneStyle(seed=5, noise=2.0)
    cal = render_calibration(style, SIZE)
    calibrate(cal.empty, cal.belly, cal.back, mat_polygon=list(cal.mat_polygon)).save(tmp_path / "cal.json")
    rng = np.random.default_rng(3)
    frames, throws = render_session(style, rng, 2, SIZE, case="clean", hand=False)
    video = tmp_path / "match.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, SIZE)
    for f in frames:
        writer.write(f)
    writer.release()
    status = main(["read-clip", str(video), "--calibration", str(tmp_path / "cal.json"), "--json",
                   "--save", str(tmp_path / "captures")])
    assert status == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["throws"]) == 2
    for got, (truth, settled) in zip(out["throws"], throws):
        assert abs(got["settled_frame"] - settled) <= 8
        assert {"result", "confidence", "needs_referee", "sticks"} <= set(got)
        assert got["result"] in ("도", "개", "걸", "윷", "모", "빽도", "낙")
    assert (tmp_path / "captures" / "2" / "settled.jpg").is_file()


@pytest.mark.parametrize("video_exists", [True, False])
def test_read_clip_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], video_exists: bool) -> None:
    video = tmp_path / "v.avi"
    if video_exists:
        video.write_bytes(b"junk")
    status = main(["read-clip", str(video), "--calibration", str(tmp_path / "missing.json"), "--json"])
    assert status == 2
    assert "missing.json" in capsys.readouterr().err
