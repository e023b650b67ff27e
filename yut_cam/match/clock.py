"""Clock constants of rule 000 and the pure shot-clock arithmetic."""

from __future__ import annotations

import math
from typing import Final

MATCH_SECONDS: Final = 20 * 60
THROW_SECONDS: Final = 10
MOVE_SECONDS: Final = 30
#: Extra move time for each throw beyond the third in one sequence (윷–모–윷–윷–개 = 50 s).
EXTRA_PER_THROW: Final = 10
FREE_THROWS: Final = 3
#: After an over-time warning, another warning for each further 5 s.
WARNING_REPEAT: Final = 5
TIMEOUT_SECONDS: Final = 40
TIMEOUTS_PER_TEAM: Final = 2
#: 작전타임 is refused with 2:00 or less left.
TIMEOUT_CUTOFF: Final = 120
SUBSTITUTION_SECONDS: Final = 20
SUBSTITUTIONS_PER_TEAM: Final = 1
#: Time warnings in one turn that void it; a team's every third warning costs it a turn.
WARNINGS_VOID_TURN: Final = 3
WARNINGS_COST_TURN: Final = 3


def move_seconds(throws_in_sequence: int) -> int:
    """Move time for a sequence of throws: 30 s, +10 s per throw beyond the third."""
    return MOVE_SECONDS + EXTRA_PER_THROW * max(0, throws_in_sequence - FREE_THROWS)


def warnings_due(overdue: float) -> int:
    """Warnings a shot clock has earned ``overdue`` seconds after running out: one at
    expiry, then one more for each further 5 s."""
    if overdue <= 0:
        return 0
    return 1 + int(overdue // WARNING_REPEAT)


def format_clock(seconds: float, tenths: bool = True) -> str:
    """Time left as the LED timer and the screens show it: MM:SS with whole seconds rounded
    up (20:00 for the whole first second, 00:00 only at time-up), tenths (rounded down) in
    the last minute, as official clocks do."""
    seconds = max(0.0, round(seconds, 3))
    if tenths and seconds < 60:
        return f"00:{math.floor(seconds * 10) / 10:04.1f}"
    return _mmss(math.ceil(seconds))


def format_elapsed(seconds: float) -> str:
    """Time played, MM:SS in whole seconds gone (the record sheet's clock)."""
    return _mmss(math.floor(max(0.0, round(seconds, 3))))


def _mmss(whole: int) -> str:
    return f"{whole // 60:02d}:{whole % 60:02d}"
