"""Every doubt the reader gives reaches the referee in Korean, naming the same stick."""

from __future__ import annotations

import re

import pytest

from yut_cam.vision.reasons import asked_sticks, doubts_mark, korean

# one of each reason yut_cam.vision.reader writes (kept in step with it by the batch test in
# test_reader.py, which checks every reason read from generated throws is translated)
CASES = [
    ("stick 3: at the mat's edge (4 px inside its outline), check it touches the mat", "3번 윷이 멍석 가장자리"),
    ("stick 1: just off the mat (6 px from its outline), check it does not touch the mat", "1번 윷이 멍석 바로 밖"),
    ("stick 2: face unsure (margin 0.12)", "2번 윷의 배·등이 확실하지 않습니다"),
    ("stick 2: face unsure (it reads -0.04 along its middle, 1.03 across more of its width)",
     "2번 윷의 배·등이 확실하지 않습니다"),
    ("stick 1: face unsure (in light 1.4 times brighter than the faces were learned in)",
     "1번 윷이 보정 때 윷들이 놓였던 곳보다 1.4배 밝은 빛 속에 있어 배·등이 확실하지 않습니다"),
    ("stick 3: face unsure (in light 1.3 times darker than the faces were learned in)",
     "3번 윷이 보정 때 윷들이 놓였던 곳보다 1.3배 어두운 빛 속에 있어"),
    ("stick 4: looks like neither face (5.2 spreads from 등)", "4번 윷이 배도 등도 닮지 않았습니다"),
    ("stick 2: looks like neither face (it reads 1.25, past the round face, 3.4 spreads from it: the mat or a shade"
     " in its box)", "2번 윷이 배도 등도 닮지 않았습니다"),
    ("stick 3: a dark band along one side, without it the face reads 배", "3번 윷 한쪽 가장자리가 어둡습니다"),
    ("stick 2: seen only in part (64% of a stick's length)", "2번 윷이 일부만 보입니다 (길이의 64%)"),
    ("stick 1: its two halves read as different faces (0.74, -0.14): shade or a neighbour on it",
     "1번 윷의 두 끝이 서로 다른 면"),
    ("stick 3: mostly covered by another stick", "3번 윷이 다른 윷에 거의 가려졌습니다"),
    ("stick 2: glare over the stick", "2번 윷에 빛이 반사됩니다"),
    ("빽도 mark not learned at calibration: is stick 2 (배 up) the marked stick? (빽도 or 도)", "2번 윷(배)이 빽도 윷인지"),
    ("빽도 mark no longer read here (the referee corrected it): is stick 3 (배 up) the marked stick? (빽도 or 도)",
     "이 장소에서는 빽도 표시를 더 읽지 않습니다 (심판이 고친 적이 있음): 3번 윷(배)"),
    ("빽도 mark unsure (mark score 0.08, threshold 0.10)", "빽도 표시가 확실하지 않습니다"),
    ("빽도 mark faint at calibration (12% of its end): is stick 2 (배 up) the marked stick? (빽도 or 도)",
     "보정 때 빽도 표시가 흐리게 보였습니다 (끝의 12%): 2번 윷(배)이 빽도 윷인지"),
    ("빽도 mark small at calibration (18% of its end): is stick 1 (배 up) the marked stick? (빽도 or 도)",
     "보정 때 빽도 표시가 작게 보였습니다 (끝의 18%): 던진 사진에서는 안 보일 수 있으니 1번 윷(배)이 빽도 윷인지"),
    ("빽도 mark unsure: stick 3 is 0.5 times as light as the marked stick at calibration",
     "3번 윷이 보정 때의 빽도 윷보다 훨씬 어둡거나 밝게 보입니다 (0.5배)"),
    ("빽도 mark unsure: an end of stick 2 reads 3.4 times as marked as the mark did at calibration (shade or the mat's"
     " border at it?)", "빽도 표시가 확실하지 않습니다: 2번 윷의 끝이 보정 때의 빽도 표시보다 훨씬 넓게 표시처럼 보입니다 (3.4배)"),
    ("빽도 mark unsure: an end of stick 4 reads only 64% as marked as the mark did at calibration (a knot or a speck"
     " of its colour?)", "빽도 표시가 확실하지 않습니다: 4번 윷의 끝이 보정 때의 빽도 표시보다 훨씬 좁게만 표시처럼 보입니다 (64%)"),
    ("빽도 mark unsure: what looks like the mark at an end of stick 3 is a thin line along it (17% of its width; a"
     " shade's edge?)", "빽도 표시가 확실하지 않습니다: 3번 윷 끝의 표시 같은 것이 윷을 따라 난 가는 선입니다 (폭의 17%"),
    ("빽도 mark unsure: stick 2 shows only faintly at its ends", "2번 윷의 끝이 멍석과 거의 같은 색이라"),
    ("빽도 mark may be hidden: an end of stick 4 lies under or against another stick", "4번 윷의 한쪽 끝"),
    ("빽도 mark may be missed: stick 1 was read on 76% of a stick's length", "1번 윷이 길이의 76%만 보였습니다"),
    ("2 stick(s) seen only in small part", "윷 2개가 조금만 보입니다"),
    ("stick 3: stands on its edge (too narrow for its length)", "3번 윷이 옆으로 서 있는"),
    ("a stick stands on its edge (too narrow for its length)", "윷 하나가 옆으로 서 있는"),  # an older record
    ("stick 4: off the mat but seen only in part (62% of a stick's length): is it a stick? (낙 rests on it)",
     "멍석 밖에는 4번 윷만 있는데 일부만 보입니다 (길이의 62%)"),
    ("stick 2: off the mat and of the floor's colour (a shade?): is it a stick? (낙 rests on it)",
     "멍석 밖의 2번 윷이 바닥과 같은 색입니다 (그림자?): 윷이 맞는지 보세요 (윷이면 낙)"),
    ("a region of 2.6 sticks' area read as one stick", "윷 2.6개 크기의 덩어리를 윷 하나로"),
    ("3 sticks merged beyond clean separation (71% of the region explained, 2.4 sticks of area)", "윷 3개가 붙어"),
    ("a region of 2.1 sticks' area with 1 stick(s)' outline split into 2 to make four",
     "윷 2.1개 크기의 덩어리에서 윷 1개의 모양만 찾았습니다: 윷 하나가 멍석 밖이나"),
    ("2 touching sticks: two of the boxes they were split into lie on one place, the split is unsure",
     "붙은 윷 2개를 나눈 칸 두 개가 한 자리에 겹칩니다"),
    ("only 3 stick(s) found", "윷을 3개만 찾았습니다"),
    ("6 stick-like regions, expected 4 (kept the 4 likeliest)", "윷 같은 것이 6개 보입니다"),
    ("reader error: image is blank (one flat colour, mean 0)", "판독 오류: 사진이 한 가지 색뿐입니다"),
    ("reader error: 97% of the mat differs from the empty mat: has the camera moved, or is something over the mat?"
     " (if the camera moved, calibrate again)", "판독 오류: 멍석의 97%가 빈 멍석 사진과 다릅니다: 카메라가 움직였거나"),
    ("reader error: image is 640x480 but the calibration is for 1280x720", "판독 오류: image is 640x480"),
    ("the 빽도 mark shows faintly (12% of its end): every throw with one stick 배 up will be handed to the referee"
     " as 도 or 빽도; retake the 배 picture with the mark in plain view (or mark the stick more boldly) to read 도"
     " and 빽도 by themselves", "빽도 표시가 흐리게 보입니다 (끝의 12%): 배가 하나만 위인 던지기는 모두 심판이"),
    ("the 빽도 mark shows small (18% of its end): a throw read 도 will be handed to the referee as 도 or 빽도, as the"
     " mark may not show in a throw's picture; retake the 배 picture with the mark in plain view (or mark the"
     " stick more boldly) to read 도 by itself", "빽도 표시가 작게 보입니다 (끝의 18%): 던진 사진에서는 안 보일 수 있어 도로"),
    ("the 빽도 mark was not learned (belly image: cannot tell which stick carries the 빽도 mark (…)): every throw"
     " with one stick 배 up will be handed to the referee as 도 or 빽도; retake the 배 picture", "빽도 표시를 배우지 못했습니다"),
    ("the 빽도 mark is not learned yet (belly image: cannot tell which stick carries the 빽도 mark (…)): every throw"
     " with one stick 배 up will be handed to the referee as 도 or 빽도 until a 빽도 the referee confirms shows"
     " which stick carries it", "심판이 빽도를 한두 번 확인하면"),
    ("the 빽도 mark is no longer read (the referee corrected a reading of 도, sure of the mark, to 빽도 at this venue): every throw"
     " with one stick 배 up will be handed to the referee as 도 or 빽도; calibrate again to read 빽도 again",
     "이 장소에서는 빽도 표시를 더 읽지 않습니다"),
]


@pytest.mark.parametrize(("reason", "expected"), CASES)
def test_each_reason_in_korean(reason: str, expected: str) -> None:
    ko = korean(reason)
    assert expected in ko
    if not reason.startswith("reader error"):  # the error's own text is kept as it is
        assert not re.search(r"[A-Za-z]", ko), ko


# the reasons, of those above, that say the sticks' ends may not have been seen
UNSEEN_ENDS = {"stick 2: seen only in part (64% of a stick's length)", "stick 3: mostly covered by another stick",
               "2 stick(s) seen only in small part"}


@pytest.mark.parametrize("reason", [reason for reason, _ in CASES])
def test_which_reasons_doubt_the_mark(reason: str) -> None:
    """Every doubt of the 빽도 mark, and of seeing the sticks' ends, and nothing else: a 도/빽도
    the referee corrects after one of these says nothing of how the venue's mark reads."""
    assert doubts_mark(reason) == (reason.startswith("빽도 mark ") or reason in UNSEEN_ENDS)


def test_an_unknown_reason_is_kept_as_it_is() -> None:
    assert korean("something new") == "something new"


@pytest.mark.parametrize(("reasons", "sticks"), [
    (("stick 2: face unsure (margin 0.10)",), {1}),
    (("stick 1: just off the mat (4 px from its outline), check it does not touch the mat",
      "빽도 mark not learned at calibration: is stick 3 (배 up) the marked stick? (빽도 or 도)"), {0, 2}),
    (("stick 4: stands on its edge (too narrow for its length)", "stick 4: glare over the stick"), {3}),
    (("6 stick-like regions, expected 4 (kept the 4 likeliest)", "only 3 stick(s) found",
      "a region of 2.1 sticks' area with 1 stick(s)' outline split into 2 to make four"), set()),
    ((), set()),
])
def test_the_sticks_a_reading_asks_about(reasons: tuple[str, ...], sticks: set[int]) -> None:
    assert asked_sticks(reasons) == sticks
