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
