"""``yut-cam calibrate`` and ``yut-cam read``: outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision_reader import scenes as S
from yut_cam.cli import main

DEMO = Path(__file__).resolve().parents[2] / "calibration" / "demo.json"


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("shots")
    empty, belly, back = S.calibration_set()
    for name, img in (("empty", empty), ("belly", belly), ("back", back)):
        cv2.imwrite(str(d / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    throw = S.render(S.four("배등등등", 0, seed=21), seed=31)
    cv2.imwrite(str(d / "throw.jpg"), throw, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (d / "mat.json").write_text(json.dumps({"polygon": [list(p) for p in S.MAT]}), encoding="utf-8")
    return d


@pytest.fixture(scope="module")
def cal_file(shots: Path) -> Path:
    out = shots / "cal" / "venue.json"
    assert main(["calibrate", "--empty", str(shots / "empty.jpg"), "--belly", str(shots / "belly.jpg"),
                 "--back", str(shots / "back.jpg"), "--out", str(out)]) == 0
    return out


def test_calibrate_writes_json_and_background(cal_file: Path) -> None:
    data = json.loads(cal_file.read_text(encoding="utf-8"))
    assert data["version"] == 1
    assert (cal_file.parent / data["background"]).is_file()


def test_calibrate_with_mat_file(shots: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    assert main(["calibrate", "--empty", str(shots / "empty.jpg"), "--belly", str(shots / "belly.jpg"),
                 "--back", str(shots / "back.jpg"), "--mat", str(shots / "mat.json"), "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["mat_polygon"] == [list(p) for p in S.MAT]


def test_read_json_and_annotation(shots: Path, cal_file: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    ann = tmp_path / "ann.png"
    assert main(["read", str(shots / "throw.jpg"), "--calibration", str(cal_file), "--json",
                 "--annotate", str(ann)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["result"] == "빽도" and data["needs_referee"] is False
    assert set(data) >= {"result", "confidence", "needs_referee", "sticks"}
    assert len(data["sticks"]) == 4 and all(len(s["box"]) == 4 for s in data["sticks"])
    img = cv2.imread(str(ann))
    assert img is not None and img.shape == (720, 1280, 3)


def test_read_plain_text(shots: Path, cal_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["read", str(shots / "throw.jpg"), "--calibration", str(cal_file)]) == 0
    assert capsys.readouterr().out.startswith("빽도")


def one_error_line(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    for w in words:
        assert w in lines[0]
    assert captured.out == ""


def test_read_corrupt_image(cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    assert main(["read", str(bad), "--calibration", str(cal_file), "--json"]) == 2
    one_error_line(capsys, "bad.jpg", "not a readable picture")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert main(["read", str(empty), "--calibration", str(cal_file)]) == 2
    one_error_line(capsys, "empty.jpg", "0 bytes")
    assert main(["read", str(tmp_path / "missing.jpg"), "--calibration", str(cal_file)]) == 2
    one_error_line(capsys, "missing.jpg", "does not exist")


def test_read_bad_calibration(shots: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "cal.json"
    bad.write_text('{"version": 1}', encoding="utf-8")
    assert main(["read", str(shots / "throw.jpg"), "--calibration", str(bad)]) == 2
    one_error_line(capsys, "cal.json", "missing field")


def test_read_wrong_aspect(cal_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.png"
    cv2.imwrite(str(odd), np.full((500, 500, 3), 90, np.uint8))
    assert main(["read", str(odd), "--calibration", str(cal_file)]) == 2
    one_error_line(capsys, "500x500", "1280x720")


def test_calibrate_refusal_is_one_line(shots: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--empty", str(shots / "empty.jpg"), "--belly", str(shots / "empty.jpg"),
                 "--back", str(shots / "back.jpg"), "--out", str(tmp_path / "x.json")]) == 2
    one_error_line(capsys, "belly image")
    assert not (tmp_path / "x.json").exists()
    bad_mat = tmp_path / "mat.json"
    bad_mat.write_text('{"polygon": [[0, 0]]}', encoding="utf-8")
    assert main(["calibrate", "--empty", str(shots / "empty.jpg"), "--belly", str(shots / "belly.jpg"),
                 "--back", str(shots / "back.jpg"), "--mat", str(bad_mat), "--out", str(tmp_path / "x.json")]) == 2
    one_error_line(capsys, "mat.json", "polygon")


def test_demo_calibration_reads_the_demo_style(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    synth = pytest.importorskip("yut_cam.vision.synth")
    from yut_cam.vision.calibration import Calibration
    from yut_cam.vision.reader import read_image

    cal = Calibration.load(DEMO)
    rng = np.random.default_rng(99)
    right = 0
    for _ in range(6):
        img, truth = synth.render_throw(synth.SceneStyle(), rng, case="clean")
        r = read_image(img, cal)
        right += r.result == truth.result and not r.needs_referee
    assert right >= 5


def test_calibrate_without_a_visible_mark_writes_and_warns(shots: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    spots = [(400, 250, 20), (800, 230, 100), (420, 500, 160), (850, 520, 60)]
    cv2.imwrite(str(tmp_path / "plain.jpg"), S.render([S.Stick(x, y, a, "배") for x, y, a in spots], 6),
                [cv2.IMWRITE_JPEG_QUALITY, 92])
    out = tmp_path / "venue.json"
    assert main(["calibrate", "--empty", str(shots / "empty.jpg"), "--belly", str(tmp_path / "plain.jpg"),
                 "--back", str(shots / "back.jpg"), "--out", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["mark"] is None
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("yut-cam calibrate: warning: the 빽도 mark was not learned"), err
