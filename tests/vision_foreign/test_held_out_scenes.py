"""The held-out renderer (bench/held_out_scenes.py) tells the truth about its own scenes.

These tests check the renderer, not the reader: its ground truth follows from the geometry it
draws (낙 = a footprint wholly off the 멍석, edge = across the outline, clean = apart,
calibration = four sticks apart, one face up), the pictures are the promised size and type,
the sticks really show where the truth puts them, and everything is seeded.
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np
import pytest

from bench.held_out_geometry import Pose, flat_pose, gap, intersect, mat_sdf, tilted, top_height
from bench.held_out_place import CASES, MARGIN, Thrower, truth_of
from bench.held_out_scenes import HALF, Style, _true_sticks, calibration_images

SEEDS = (11, 12, 13, 14, 15, 16)


def _small_style(start: int) -> Style:
    seed = start
    while Style(seed).size != (1280, 720):
        seed += 1
    return Style(seed)


def _sdf(style: Style, p: Pose) -> tuple[float, float]:
    d = mat_sdf(style.shape, HALF, p.footprint())
    return float(d.min()), float(d.max())


@pytest.mark.parametrize("seed", SEEDS)
def test_throw_truth_follows_the_geometry(seed: int) -> None:
    style = Style(seed)
    rng = np.random.default_rng(seed)
    for case in CASES * 3:
        poses, truth = style.thrower.throw(rng, case)
        assert sorted(p.index for p in poses) == [0, 1, 2, 3]
        spans = [_sdf(style, p) for p in poses]
        off = [lo > 0 for lo, _ in spans]
        assert (truth.result == "낙") == any(off) == (case == "낙"), (case, spans)
        if case == "낙":
            assert max(lo for lo, _ in spans) >= MARGIN
        if case == "edge":
            assert any(lo <= -MARGIN and hi >= MARGIN for lo, hi in spans), spans
        if case == "clean":
            assert min(gap(a.footprint(), b.footprint()) for a, b in itertools.combinations(poses, 2)) >= 2.0
        if case == "touching":
            touching = [gap(a.footprint(), b.footprint()) < 0.3 for a, b in itertools.combinations(poses, 2)]
            assert any(touching) or any(p.leaning_on >= 0 for p in poses)
        assert all(style.thrower.in_view(p) for p in poses)
        faces = "".join("배" if p.belly_up else "등" for p in poses)
        assert truth.faces == faces
        if truth.result != "낙":
            expect = {0: "모", 1: "도", 2: "개", 3: "걸", 4: "윷"}[faces.count("배")]
            if faces.count("배") == 1 and faces[0] == "배":
                expect = "빽도"
            assert truth.result == expect


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_calibration_layouts_are_four_sticks_apart_on_the_mat(seed: int) -> None:
    style = Style(seed)
    rng = np.random.default_rng(seed)
    belly = style.thrower.calibration(rng, True)
    back = style.thrower.calibration(rng, False, belly)
    for poses, up in ((belly, True), (back, False)):
        assert len(poses) == 4 and all(p.belly_up == up for p in poses)
        assert all(_sdf(style, p)[1] < 0 for p in poses)
        assert min(gap(a.footprint(), b.footprint()) for a, b in itertools.combinations(poses, 2)) >= 3.0
        assert all(p.leaning_on < 0 for p in poses)
    wide = style.thrower.calibration(rng, True, wide=True)
    assert min(gap(a.footprint(), b.footprint()) for a, b in itertools.combinations(wide, 2)) >= 10.0
    assert all(_sdf(style, p)[1] < 0 for p in wide)


def test_leaning_stick_rests_on_the_other() -> None:
    low = flat_pose(1, 0.0, 0.0, 0.0, False, 18.0, 1.5, 1.2, 4.0)
    up = flat_pose(0, -4.0, 0.0, math.pi / 2, True, 18.0, 1.5, 1.2, 4.0)
    # pivot 9 cm before the crossing, raised until its underside meets the lower stick's top
    h = top_height(low, -4.0, 0.0)
    assert h == pytest.approx(1.2, abs=0.05)
    lean = tilted(flat_pose(0, -4.0, -9.0 + 9.0, math.pi / 2, True, 18.0, 1.5, 1.2, 4.0), math.asin(h / 9.0), 1)
    assert up.leaning_on == -1 and lean.leaning_on == 1
    ends = lean.to_world(np.array([[-9.0, 0.0, 1.2], [9.0, 0.0, 1.2]]))
    assert ends[0, 2] == pytest.approx(0.0, abs=1e-9) and ends[1, 2] > 2.0


def test_rays_hit_a_flat_stick_where_it_lies() -> None:
    p = flat_pose(0, 10.0, -5.0, 0.3, False, 18.0, 1.5, 1.2, 1e3)
    o = p.to_local(np.array([[10.0, -5.0, 200.0], [30.0, -5.0, 200.0]]))
    d = np.array([[0.0, 0.0, -1.0], [0.0, 0.0, -1.0]]) @ p.m
    t_in, t_out, _ = intersect(p, o, d)
    assert t_in[0] <= t_out[0] and 200.0 - t_in[0] == pytest.approx(1.2)
    assert t_in[1] > t_out[1]


def test_off_mat_stick_is_drawn_outside_the_mat_in_the_picture() -> None:
    style = _small_style(40)
    rng = np.random.default_rng(3)
    poses, truth = style.thrower.throw(rng, "낙")
    assert truth.result == "낙"
    img = style.render(poses, np.random.default_rng(1))
    assert img.shape == (720, 1280, 3) and img.dtype == np.uint8
    mat_poly = np.round(np.asarray(style.mat_polygon_image())).astype(np.int32)
    mat_mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mat_mask, [mat_poly], 1)
    off = [p for p in poses if _sdf(style, p)[0] > 0]
    assert off
    for p in off:
        uv = style.cam.project(np.c_[p.footprint(), np.zeros(len(p.footprint()))])
        inside = [mat_mask[int(v), int(u)] for u, v in uv]
        assert not any(inside)
    # the stick is really there: the picture differs from the empty scene around it
    empty = style.render([], np.random.default_rng(1))
    for p in off:
        uv = style.cam.project(p.outline(6)).mean(0).astype(int)
        a = empty[uv[1] - 2:uv[1] + 3, uv[0] - 2:uv[0] + 3].astype(float)
        b = img[uv[1] - 2:uv[1] + 3, uv[0] - 2:uv[0] + 3].astype(float)
        assert np.abs(a - b).mean() > 8.0


def test_true_stick_positions_lie_on_the_sticks_drawn() -> None:
    # the records' per-stick truth (face, centre in px) that readings are matched to
    style = _small_style(70)
    poses, truth = style.thrower.throw(np.random.default_rng(4), "clean")
    img = style.render(poses, np.random.default_rng(2))
    empty = style.render([], np.random.default_rng(2))
    sticks = _true_sticks(style, poses)
    assert "".join(face for face, _, _ in sticks) == truth.faces
    for _, u, v in sticks:
        assert np.abs(img[v - 1:v + 2, u - 1:u + 2].astype(float) - empty[v - 1:v + 2, u - 1:u + 2]).mean() > 8.0


def test_calibration_triplet_is_seeded_and_well_formed() -> None:
    a = calibration_images(_small_style(60), np.random.default_rng(5))
    b = calibration_images(_small_style(60), np.random.default_rng(5))
    for x, y in zip(a[:3], b[:3]):
        assert x.shape == (720, 1280, 3) and x.dtype == np.uint8
        assert np.array_equal(x, y)
    assert not np.array_equal(a[1], a[2])


def test_truth_of_marks_backdo_only_for_the_marked_stick() -> None:
    s = Style(11).sticks
    mk = [flat_pose(i, -40.0 + 25 * i, 0.0, 0.0, i == k, s.length, s.half_width, s.thickness, s.end_round)
          for k in (0, 2) for i in range(4)]
    assert truth_of(mk[:4], "clean", "square", HALF).result == "빽도"
    assert truth_of(mk[4:], "clean", "square", HALF).result == "도"


def test_throws_are_seeded() -> None:
    t1 = Thrower(Style(21).sticks, Style(21).cam, Style(21).shape, HALF)
    t2 = Thrower(Style(21).sticks, Style(21).cam, Style(21).shape, HALF)
    r1, r2 = np.random.default_rng(9), np.random.default_rng(9)
    for case in CASES:
        a, ta = t1.throw(r1, case)
        b, tb = t2.throw(r2, case)
        assert ta == tb and [p.center for p in a] == [p.center for p in b]
