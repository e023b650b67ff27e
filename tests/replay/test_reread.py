"""`yut-cam reread`: generated scenes, one recorded result deliberately wrong."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.replay.conftest import write_record
from tests.replay.gen import match
from yut_cam.cli import main
from yut_cam.replay.reread import write_report
from yut_cam.replay.source import from_path
from yut_cam.vision import synth
from yut_cam.vision.calibration import Calibration, calibrate

SIZE = (960, 540)
BELLIES = {"모": 0, "도": 1, "개": 2, "걸": 3, "윷": 4}


def faces_for(result: str, marked: int) -> list[str]:
    """Stick faces (stick i is the marked one when i == marked) that show ``result``."""
    if result == "빽도":
        return ["배" if i == marked else "등" for i in range(4)]
    plain = [i for i in range(4) if i != marked]
    up = set(plain[: BELLIES[result]]) if BELLIES[result] < 4 else set(range(4))
    return ["배" if i in up else "등" for i in range(4)]


def _style() -> tuple[Any, Calibration]:
    for seed in (1, 2, 3, 8, 9):
        style = synth.random_style(np.random.default_rng(seed))
        shots = synth.render_calibration(style, SIZE)
        try:
            return style, calibrate(shots.empty, shots.belly, shots.back, list(shots.mat_polygon))
        except ValueError:
            continue
    raise AssertionError("no generated style calibrates")


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An exported match whose first two throws were filmed: capture 1 shows what the
    referee recorded, capture 2 shows another result (the recorded one is wrong)."""
    root = tmp_path_factory.mktemp("reread")
    style, cal = _style()
    cal.save(root / "cal.json")
    h, events = next(m for m in (match(s) for s in range(50))
                     if [e["result"] for e in m[1] if e["type"] == "throw"][:2].count("낙") == 0)
    recorded = [e["result"] for e in events if e["type"] == "throw"][:2]
    shown = [recorded[0], "윷" if recorded[1] != "윷" else "개"]
    rng = np.random.default_rng(2024)
    d = root / "match"
    write_record(d / "match.yutlog", h, events)
    for n, result in enumerate(shown, start=1):
        img, truth = synth.render_throw(style, rng, SIZE, case="clean", faces=faces_for(result, style.marked_stick))
        assert truth.result == result
        c = d / "captures" / str(n)
        c.mkdir(parents=True)
        cv2.imwrite(str(c / "settled.jpg"), img)
        if n == 2:  # what the camera said at the time, and its picture
            (c / "reading.json").write_text(json.dumps({"result": result}, ensure_ascii=False), encoding="utf-8")
            cv2.imwrite(str(c / "annotated.jpg"), img[::2, ::2])
    (d / "captures" / "500").mkdir()  # a reading no throw of the record points to
    return {"dir": d, "cal": root / "cal.json", "recorded": recorded, "shown": shown, "calibration": cal}


def test_the_wrong_record_is_listed(scene: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "out" / "report.html"
    report = write_report(from_path(scene["dir"]), scene["calibration"], out)
    assert [r.capture for r in report.rows] == [1, 2]
    one, two = report.rows
    assert one.new == scene["shown"][0] == one.decided and not one.disagrees
    assert two.decided == scene["recorded"][1] and two.new == scene["shown"][1] and two.disagrees
    assert two.old == scene["shown"][1] and not two.changed
    assert [r.capture for r in report.disagreements] == [2]
    assert report.unreferenced == (500,)
    assert len(report.missing) > 10  # the other throws of the record were not filmed
    html = out.read_text(encoding="utf-8")
    assert "심판 판정과 다름 1번" in html
    disagree = html[html.index("심판 판정과 다른 판독"):html.index("모든 던지기")]
    assert 'id="capture-2"' in disagree and 'id="capture-1"' not in disagree
    # self-contained folder: every image is referenced relatively and exists beside the report
    sources = re.findall(r'<img src="([^"]+)"', html)
    assert sorted(sources) == sorted(["report-images/1-settled.jpg", "report-images/1-new.jpg",
                                      "report-images/2-settled.jpg", "report-images/2-new.jpg",
                                      "report-images/2-old.jpg"])
    for src in sources:
        assert (out.parent / src).is_file()
        assert cv2.imread(str(out.parent / src)) is not None


def test_cli(scene: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r" / "x.html"
    code = main(["reread", str(scene["dir"]), "--calibration", str(scene["cal"]), "--out", str(out), "--json"])
    text = capsys.readouterr().out
    assert code == 0
    assert "2 recorded throws" in text and "1 disagree with the referee" in text
    summary = json.loads(text.strip().splitlines()[-1])
    assert summary["disagreements"] == [{"capture": 2, "index": summary["disagreements"][0]["index"],
                                         "decided": scene["recorded"][1], "new": scene["shown"][1],
                                         "old": scene["shown"][1]}]
    assert (tmp_path / "r" / "x-images" / "2-new.jpg").is_file()


@pytest.mark.parametrize(("argv", "message"), [
    (["reread", "{dir}", "--calibration", "{tmp}/none.json"], "does not exist"),
    (["reread", "{tmp}/nowhere", "--calibration", "{cal}"], "no such record or directory"),
    (["reread", "42", "--calibration", "{cal}", "--db", "{tmp}/none.sqlite3"], "no store"),
])
def test_cli_errors(scene: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                    argv: list[str], message: str) -> None:
    args = [a.format(dir=scene["dir"], cal=scene["cal"], tmp=tmp_path) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("yut-cam reread: error:") and message in err
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_corrupt_settled_image_is_reported_not_fatal(scene: dict[str, Any], tmp_path: Path) -> None:
    d = tmp_path / "m"
    shutil.copytree(scene["dir"], d)
    (d / "captures" / "1" / "settled.jpg").write_bytes(b"not a jpeg")
    report = write_report(from_path(d), scene["calibration"], tmp_path / "o.html")
    first = report.rows[0]
    assert first.new is None and first.error is not None and "not a readable picture" in first.error
    assert [r.capture for r in report.disagreements] == [2]
