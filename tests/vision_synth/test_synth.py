"""The scene generator's ground truth is self-consistent, reproducible and drawn."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from yut_cam.cli import main
from yut_cam.vision.synth import (
    CASES,
    SceneStyle,
    StickTruth,
    random_style,
    render_calibration,
    render_clip,
    render_session,
    render_throw,
    result_of,
)

SMALL = (480, 270)


def _stick(face: str, marked: bool = False, on_mat: bool = True) -> StickTruth:
    box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    return StickTruth(face=face, marked=marked, on_mat=on_mat, polygon=box, center=(0.5, 0.5), angle_deg=0.0)


@pytest.mark.parametrize("faces, marked, off, expected", [
    ("등등등등", -1, -1, "모"),
    ("배등등등", -1, -1, "도"),
    ("배등등등", 0, -1, "빽도"),
    ("배등등등", 1, -1, "도"),  # the mark is face down: an ordinary 도
    ("배배등등", 0, -1, "개"),
    ("배배배등", 2, -1, "걸"),
    ("배배배배", 3, -1, "윷"),
    ("배배배배", -1, 2, "낙"),
    ("배등등등", 0, 3, "낙"),
])
def test_result_follows_the_rules(faces: str, marked: int, off: int, expected: str) -> None:
    sticks = [_stick(f, marked=i == marked, on_mat=i != off) for i, f in enumerate(faces)]
    assert result_of(sticks) == expected


def _inside(poly: tuple[tuple[float, float], ...], pt: tuple[float, float]) -> float:
    return float(cv2.pointPolygonTest(np.array(poly, np.float32), pt, True))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("case", CASES)
def test_truth_is_consistent_with_case(seed: int, case: str) -> None:
    rng = np.random.default_rng(seed)
    style = random_style(rng)
    img, truth = render_throw(style, rng, SMALL, case=case)
    assert img.shape == (SMALL[1], SMALL[0], 3) and img.dtype == np.uint8
    assert truth.case == case and len(truth.sticks) == 4
    assert sum(s.marked for s in truth.sticks) == 1
    assert truth.result == result_of(truth.sticks)
    mat = truth.mat_polygon
    depth = [[_inside(mat, p) for p in s.polygon] for s in truth.sticks]
    if case == "낙":
        assert truth.result == "낙"
        assert any(not s.on_mat and max(d) < 0 for s, d in zip(truth.sticks, depth))
    else:
        assert all(s.on_mat for s in truth.sticks)
    if case == "clean":
        assert all(min(d) > 0 for d in depth)
    if case == "edge":
        assert any(min(d) < 0 < max(d) for d in depth)
    for s in truth.sticks:  # every stick is in view
        for x, y in s.polygon:
            assert 0 <= x <= SMALL[0] and 0 <= y <= SMALL[1]


@pytest.mark.parametrize("size", [(640, 640), (360, 640), (800, 450), (1280, 720)])
def test_non_square_sizes_scale_the_scene(size: tuple[int, int]) -> None:
    rng = np.random.default_rng(7)
    style = SceneStyle(seed=3, mat_kind="square_straw")
    img, truth = render_throw(style, rng, size, case="clean")
    assert img.shape == (size[1], size[0], 3)
    xs = [x for x, _ in truth.mat_polygon]
    ys = [y for _, y in truth.mat_polygon]
    assert 0 <= min(xs) and max(xs) <= size[0] and 0 <= min(ys) and max(ys) <= size[1]
    # a stick is ~12 % of the mat's size, whatever the pixels
    mat_side = max(xs) - min(xs)
    s = truth.sticks[0]
    length = float(np.hypot(s.polygon[1][0] - s.polygon[0][0], s.polygon[1][1] - s.polygon[0][1]))
    assert 0.09 < length / mat_side < 0.16


def test_same_seed_same_scene_and_different_seed_differs() -> None:
    style = random_style(np.random.default_rng(5))
    a, ta = render_throw(style, np.random.default_rng(9), SMALL)
    b, tb = render_throw(style, np.random.default_rng(9), SMALL)
    c, tc = render_throw(style, np.random.default_rng(10), SMALL)
    assert np.array_equal(a, b) and ta == tb
    assert not np.array_equal(a, c)


def test_forced_faces() -> None:
    rng = np.random.default_rng(1)
    style = SceneStyle(marked_stick=2)
    _, t = render_throw(style, rng, SMALL, case="clean", faces=["배"] * 4)
    assert t.result == "윷"
    _, t = render_throw(style, rng, SMALL, case="clean", faces=["등", "등", "배", "등"])
    assert t.result == "빽도"
    _, t = render_throw(style, rng, SMALL, case="clean", faces=["배", "등", "등", "등"])
    assert t.result == "도"
    with pytest.raises(ValueError, match="faces"):
        render_throw(style, rng, SMALL, faces=["배", "x", "등", "등"])


def test_belly_up_rate_is_about_sixty_percent() -> None:
    rng = np.random.default_rng(2)
    style = SceneStyle()
    faces = [s.face for _ in range(100) for s in render_throw(style, rng, (320, 180), case="clean")[1].sticks]
    assert 0.5 < faces.count("배") / len(faces) < 0.7


def test_sticks_are_drawn_where_the_truth_says() -> None:
    style = random_style(np.random.default_rng(4))
    cal = render_calibration(style, SMALL)
    img, truth = render_throw(style, np.random.default_rng(4), SMALL, case="clean")
    diff = cv2.absdiff(img, cal.empty).max(axis=2)
    for s in truth.sticks:
        mask = np.zeros(diff.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.array(s.polygon, np.int32), 1)
        inside = float(diff[mask > 0].mean())
        assert inside > 15, f"stick at {s.center} not visible (mean diff {inside:.1f})"
    far = np.ones(diff.shape, np.uint8)
    for s in truth.sticks:
        c = np.array(s.center, np.int32)
        cv2.circle(far, (int(c[0]), int(c[1])), 40, 0, -1)
    assert float(diff[far > 0].mean()) < 12  # elsewhere only noise


@pytest.mark.parametrize("bad", [dict(mat_kind="hexagon"), dict(pattern="zigzag"), dict(mark="star"),
                                 dict(floor_kind="lava"), dict(marked_stick=4)])
def test_style_rejects_unknown_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="must be|unknown"):
        SceneStyle(**bad)  # type: ignore[arg-type]


def test_size_too_small_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least"):
        render_throw(SceneStyle(), np.random.default_rng(0), (100, 80))


def test_calibration_images() -> None:
    style = random_style(np.random.default_rng(8))
    cal = render_calibration(style, (640, 360))
    again = render_calibration(style, (640, 360))
    assert np.array_equal(cal.belly, again.belly)
    for img in (cal.empty, cal.belly, cal.back):
        assert img.shape == (360, 640, 3)
    assert all(s.face == "배" and s.on_mat for s in cal.belly_truth.sticks)
    assert all(s.face == "등" and s.on_mat for s in cal.back_truth.sticks)
    assert cal.belly_truth.result == "윷" and cal.back_truth.result == "모"
    assert len(cal.mat_polygon) >= 4
    assert float(cv2.absdiff(cal.belly, cal.empty).mean()) > float(cv2.absdiff(cal.empty, cal.empty).mean())


def test_clip_has_motion_then_rest() -> None:
    rng = np.random.default_rng(3)
    style = random_style(rng)
    frames, truth, settled = render_clip(style, rng, SMALL, hand=False, rest=20)
    assert len(frames) == settled + 20
    gray = [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY).astype(np.float32) for f in frames]
    step = [float(np.abs(b - a).max(initial=0)) for a, b in zip(gray, gray[1:])]
    moving = [float(np.percentile(np.abs(b - a), 99.9)) for a, b in zip(gray, gray[1:])]
    assert max(moving[:settled]) > 40  # sticks flying in
    assert max(moving[settled:]) < 25  # only sensor noise once at rest
    assert len(step) == len(frames) - 1
    assert truth.result == result_of(truth.sticks)


def test_session_of_two_throws() -> None:
    rng = np.random.default_rng(6)
    frames, throws = render_session(random_style(rng), rng, 2, (320, 180), hand=False)
    (t1, s1), (t2, s2) = throws
    assert s1 < s2 < len(frames)
    assert t1.result == result_of(t1.sticks) and t2.result == result_of(t2.sticks)


def test_cli_synth_writes_a_set(tmp_path: Path) -> None:
    out = tmp_path / "set"
    assert main(["synth", str(out), "--n", "3", "--size", "320x180", "--seed", "4"]) == 0
    for name in ("empty", "belly", "back"):
        assert cv2.imread(str(out / "calibration" / f"{name}.jpg")).shape == (180, 320, 3)
    poly = json.loads((out / "calibration" / "mat.json").read_text())["polygon"]
    assert len(poly) >= 4
    lines = [json.loads(x) for x in (out / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 3
    for line in lines:
        assert (out / line["file"]).is_file()
        assert line["result"] in ("도", "개", "걸", "윷", "모", "빽도", "낙")
        assert len(line["sticks"]) == 4


def test_cli_synth_bad_size(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["synth", str(tmp_path), "--size", "huge"]) == 2
    assert "'huge'" in capsys.readouterr().err
