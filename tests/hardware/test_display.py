from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from yut_cam.hardware import EncodingError
from yut_cam.hardware.display import (
    MIN_WAIT,
    AlertSeconds,
    PanelLayout,
    PanelView,
    compose,
    decode_frame,
    encode_view,
    next_change,
)
from yut_cam.hardware.timer import ClockAnchor, TimerState

T0 = 1000.0  # flash phase: on for now in [k, k+0.5)


@pytest.mark.parametrize(
    ("state", "now", "text"),
    [
        (TimerState(), T0, "--:--   "),
        (TimerState(1200.0, True), T0, "20:00   "),
        (TimerState(1199.9, True), T0, "20:00   "),  # first half of the second: colon lit
        (TimerState(1199.4, True), T0, "20 00   "),  # second half: colon dark
        (TimerState(1199.0, True), T0, "19:59   "),
        (TimerState(1187.3, False), T0 + 0.7, "19:48   "),  # stopped: steady colon
        (TimerState(59.9, True), T0, "01:00   "),
        (TimerState(59.01, True), T0, "01 00   "),
        (TimerState(0.2, True), T0, "00 01   "),
        (TimerState(0.0, False, over=True), T0, "00:00   "),  # time-up, flash on
        (TimerState(0.0, False, over=True), T0 + 0.5, "        "),  # flash off
        (TimerState(-3.0, False, over=True), T0 + 0.25, "00:00   "),
        (TimerState(431.0, False, over=True), T0 + 0.6, "07:11   "),  # won before time
        (TimerState(1000.0, True, 10.0, "throw"), T0, "16:40 10"),
        (TimerState(1000.0, True, 5.5, "throw"), T0, "16:40 06"),
        (TimerState(1000.0, True, 5.0, "throw"), T0, "16:40 05!"),  # throw alert at 5
        (TimerState(1000.0, True, 3.0, "throw"), T0, "16:40 03!"),
        (TimerState(1000.0, True, 11.0, "move"), T0, "16:40 11"),
        (TimerState(1000.0, True, 10.0, "move"), T0, "16:40 10!"),  # move alert at 10
        (TimerState(1000.0, True, 0.0, "move"), T0, "16:40 00!"),  # expired: lamp flashes
        (TimerState(1000.0, True, -2.0, "move"), T0 + 0.5, "16:40 00"),
        (TimerState(1000.0, True, 30.0, "move", over=True), T0, "16:40   "),
    ],
)
def test_compose(state: TimerState, now: float, text: str) -> None:
    assert compose(state, now).text == text


def test_lamps_say_which_clock_runs() -> None:
    throw = compose(TimerState(900.0, True, 8.0, "throw"), T0)
    move = compose(TimerState(900.0, True, 25.0, "move"), T0)
    assert (throw.throw_lamp, throw.move_lamp) == (True, False)
    assert (move.throw_lamp, move.move_lamp) == (False, True)
    assert compose(TimerState(900.0, True, 8.0, "throw"), T0, AlertSeconds(throw=10)).alert_lamp


def test_next_change_none_when_nothing_runs() -> None:
    assert next_change(TimerState(), T0) is None
    assert next_change(TimerState(600.0, False), T0) is None
    assert next_change(TimerState(600.0, False, over=True), T0) is None


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        (TimerState(1200.0, True), 0.5),  # colon goes dark
        (TimerState(1199.5, True), 0.5),  # 19:59
        (TimerState(1199.2, True), 0.2),
        (TimerState(600.0, False, 7.25, "throw"), 0.25),  # shot 8 -> 7
        (TimerState(0.0, False, over=True), 0.5),  # flash
        (TimerState(600.0, False, -4.0, "move"), 0.5),  # lamp flash
    ],
)
def test_next_change_delay(state: TimerState, expected: float) -> None:
    due = next_change(state, T0)
    assert due is not None
    assert due - T0 == pytest.approx(expected)


states = st.builds(
    TimerState,
    match_remaining=st.one_of(st.none(), st.floats(-30, 1300)),
    match_running=st.booleans(),
    shot_remaining=st.none(),
    over=st.booleans(),
) | st.builds(
    TimerState,
    match_remaining=st.floats(1, 1300),
    match_running=st.booleans(),
    shot_remaining=st.floats(-30, 60),
    shot_kind=st.sampled_from(["throw", "move"]),
)


@given(states, st.floats(0, 10_000), st.floats(0.0, 0.999))
def test_nothing_changes_before_next_change(state: TimerState, now: float, frac: float) -> None:
    """Between now and the predicted change the panel is the same (clocks running as the
    state says; a shot clock is assumed to run)."""
    due = next_change(state, now)
    if due is None:
        assert compose(state, now + 5.0) == compose(state, now)
        return
    assert due > now
    assume(due - now > 1.5 * MIN_WAIT)  # changes closer than 1 ms are shown up to 1 ms late
    t = now + (due - now) * frac

    def advanced(s: TimerState, dt: float) -> TimerState:
        m = s.match_remaining
        if m is not None and s.match_running and not s.over and m > 0:
            m = ClockAnchor(m, now).remaining(now + dt)
        sh = None if s.shot_remaining is None else s.shot_remaining - dt
        return TimerState(m, s.match_running, sh, s.shot_kind, s.over or (m is not None and m <= 0 < (s.match_remaining or 0)))

    assert compose(advanced(state, t - now), t) == compose(state, now)


layouts = st.builds(
    PanelLayout,
    chain=st.permutations(["m10", "m1", "s10", "s1", "lamps", "shot10", "shot1", "spare"]).map(tuple),
    bit_order=st.sampled_from(["msb_first", "lsb_first"]),
)
views = st.builds(
    PanelView,
    match=st.text(alphabet="0123456789- ", min_size=4, max_size=4),
    colon=st.booleans(),
    shot=st.text(alphabet="0123456789 ", min_size=2, max_size=2),
    throw_lamp=st.booleans(),
    move_lamp=st.booleans(),
    alert_lamp=st.booleans(),
)


@given(views, layouts)
def test_frames_round_trip(view: PanelView, layout: PanelLayout) -> None:
    assert decode_frame(encode_view(view, layout), layout) == view


@pytest.mark.parametrize(
    ("chain", "message"),
    [
        (("m10", "m1", "s10", "s1", "lamps", "shot10"), "lacks shot1"),
        (("m10", "m1", "s10", "s1", "lamps", "shot10", "shot1", "m1"), "more than once"),
        (("m10", "m1", "s10", "s1", "lamps", "shot10", "shot1", "hours"), "'hours'"),
    ],
)
def test_bad_layouts(chain: tuple[str, ...], message: str) -> None:
    with pytest.raises(EncodingError, match=message):
        PanelLayout(chain=chain)
