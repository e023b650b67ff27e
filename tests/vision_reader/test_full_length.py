"""A box that stops short of a stick's end is grown to the stick's length at the end
where the stick goes on (the 빽도 mark there), and only there."""

from __future__ import annotations

import numpy as np
import pytest

from yut_cam.vision import functional as F


@pytest.mark.parametrize("angle", [0.0, 35.0, 90.0, 150.0])
@pytest.mark.parametrize("end", [-1, 1])
def test_grows_toward_the_end_that_goes_on(angle: float, end: int) -> None:
    t = np.radians(angle)
    ax, ay = np.cos(t), np.sin(t)
    fg = np.zeros((120, 160), np.uint8)
    whole = F.Rect(80.0, 60.0, 40.0, 8.0, angle)
    box = F.Rect(80.0 - end * ax * 4.0, 60.0 - end * ay * 4.0, 32.0, 8.0, angle)  # 8 px short at `end`
    # the stick's wood beyond the box looks like the mat; only a mark's strokes show there
    mark = F.Rect(80.0 + end * ax * 16.0, 60.0 + end * ay * 16.0, 6.0, 3.0, angle + 45.0)
    fg |= F.rect_mask(fg.shape, box)
    fg |= F.rect_mask(fg.shape, mark)
    grown = F.to_full_length(box, 40.0, fg, np.zeros_like(fg))
    assert grown is not None
    assert abs(grown.cx - whole.cx) < 1.0 and abs(grown.cy - whole.cy) < 1.0 and grown.length == 40.0


def test_leaves_a_whole_box_or_an_end_against_another_stick() -> None:
    fg = np.zeros((120, 160), np.uint8)
    box = F.Rect(80.0, 60.0, 32.0, 8.0, 0.0)
    fg |= F.rect_mask(fg.shape, box)
    assert F.to_full_length(F.Rect(80.0, 60.0, 39.0, 8.0, 0.0), 40.0, fg, np.zeros_like(fg)) is None
    assert F.to_full_length(box, 40.0, fg, np.zeros_like(fg)) is None  # nothing beyond either end
    other = F.rect_mask(fg.shape, F.Rect(100.0, 60.0, 10.0, 30.0, 90.0))  # a stick across the right end
    fg |= other
    assert F.to_full_length(box, 40.0, fg, other) is None


def _stick_scene(angle: float, seen: tuple[float, float]) -> tuple[F.Rect, F.Rect, np.ndarray]:
    """A 40x8 stick at ``angle`` that differs faintly from the mat all along, of which the
    part from ``seen[0]`` to ``seen[1]`` (shares of its length) cleared the thresholds."""
    t = np.radians(angle)
    ax, ay = np.cos(t), np.sin(t)
    whole = F.Rect(80.0, 60.0, 40.0, 8.0, angle)
    mid = (seen[0] + seen[1]) / 2.0 - 0.5
    part = F.Rect(80.0 + ax * mid * 40.0, 60.0 + ay * mid * 40.0, (seen[1] - seen[0]) * 40.0, 8.0, angle)
    faint = F.rect_mask((120, 160), whole) > 0
    return whole, part, faint


@pytest.mark.parametrize("angle", [0.0, 35.0, 90.0, 150.0])
@pytest.mark.parametrize("seen", [(0.0, 0.35), (0.6, 1.0), (0.3, 0.7)])
def test_a_stick_seen_in_part_is_followed_where_it_differs_faintly(angle: float, seen: tuple[float, float]) -> None:
    whole, part, faint = _stick_scene(angle, seen)
    grown = F.grow_along(part, faint, np.zeros_like(faint), 40.0, 8.0)
    assert grown.length >= 0.9 * 40.0 and grown.length <= 40.0
    assert np.hypot(grown.cx - whole.cx, grown.cy - whole.cy) < 2.5
    assert grown.angle == part.angle and grown.width == part.width


def test_a_stick_seen_in_part_stays_so_in_light_or_against_another_stick() -> None:
    whole, part, faint = _stick_scene(0.0, (0.0, 0.35))
    # a patch of light around it: the mat beside the stick differs as much
    lit = np.ones_like(faint)
    assert F.grow_along(part, lit, np.zeros_like(faint), 40.0, 8.0) == part
    # another region across its way
    other = F.rect_mask(faint.shape, F.Rect(70.0, 60.0, 10.0, 30.0, 90.0)) > 0
    grown = F.grow_along(part, faint | other, other, 40.0, 8.0)
    assert grown.length < 0.5 * 40.0
    # nothing faint beyond its ends
    alone = F.rect_mask(faint.shape, part) > 0
    assert F.grow_along(part, alone, np.zeros_like(faint), 40.0, 8.0) == part
