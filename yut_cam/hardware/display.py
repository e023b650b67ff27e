"""What the LED timer panel shows, as a pure function of the clocks and the time.

The panel (see ``firmware/WIRING.md``) has four large digits MM:SS for the match clock, a
colon, a 2-digit shot clock (throw / move seconds left) and three lamps: 던지기 (the throw
clock runs), 말 이동 (the move clock runs) and a red alert lamp.

Decisions (documented in ``firmware/WIRING.md`` too):

- Counting down, a clock shows its remaining seconds rounded *up*: 20:00 for the whole first
  second, 19:59 once a full second has run, 00:00 exactly at time-up.
- The colon blinks while the match clock runs (lit for the first half of every displayed
  second, so it is locked to the digits), and is steady while it is stopped.
- Before a match the panel shows ``--:--``; at time-up it flashes 00:00 (0.5 s on, 0.5 s off).
- The shot clock's last seconds stand out through the red alert lamp, not by blinking the
  digits (blinking digits are unreadable half of the time, exactly when they matter): the
  lamp is steady while 1..N seconds are shown and flashes once the clock has expired
  (``00``, overtime). N is 10 for the move clock as rule 000 asks; for the throw clock,
  which is only 10 s long, "the last 10 s" would light the lamp all the time, so its default
  is 5 (setting ``alert_seconds.throw``; set it to 10 for the literal reading).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yut_cam.hardware.errors import EncodingError
from yut_cam.hardware.sevenseg import DigitEncoding

if TYPE_CHECKING:
    from yut_cam.hardware.timer import TimerState

DIGIT_SLOTS: tuple[str, ...] = ("m10", "m1", "s10", "s1", "shot10", "shot1")
SLOTS: tuple[str, ...] = (*DIGIT_SLOTS, "lamps")
SPARE = "spare"
BIT_ORDERS = ("msb_first", "lsb_first")
FLASH_PERIOD = 1.0  # seconds; flashing things are lit for the first half
OVERTIME_BEEP_EVERY = 5.0  # rule 000: another warning each further 5 s over time
MIN_WAIT = 0.001


@dataclass(frozen=True)
class LampBits:
    """Bit (0-7) of each lamp in the ``lamps`` register."""

    colon: int = 0
    throw: int = 1
    move: int = 2
    alert: int = 3

    def __post_init__(self) -> None:
        bits = (self.colon, self.throw, self.move, self.alert)
        if any(not 0 <= b <= 7 for b in bits) or len(set(bits)) != len(bits):
            raise EncodingError(f"lamp bits must be distinct numbers 0-7, got {list(bits)!r}")


@dataclass(frozen=True)
class AlertSeconds:
    """The alert lamp lights while the shot clock shows 1..N seconds."""

    throw: int = 5
    move: int = 10


@dataclass(frozen=True)
class PanelLayout:
    """How a :class:`PanelView` becomes the bytes of the register chain.

    ``chain[0]`` is the register wired to the Pi's data line, ``chain[-1]`` the farthest;
    each entry is one of :data:`SLOTS` or ``"spare"`` (a register that stays dark).
    """

    chain: tuple[str, ...] = ("shot1", "shot10", "lamps", "s1", "s10", "m1", "m10")
    encoding: DigitEncoding = DigitEncoding()
    lamps: LampBits = LampBits()
    bit_order: str = "msb_first"

    def __post_init__(self) -> None:
        named = [s for s in self.chain if s != SPARE]
        unknown = [s for s in named if s not in SLOTS]
        if unknown:
            raise EncodingError(f"unknown chain slot {unknown[0]!r}; slots are {', '.join(SLOTS)}, spare")
        missing = [s for s in SLOTS if s not in named]
        if missing:
            raise EncodingError(f"chain {list(self.chain)!r} lacks {', '.join(missing)}")
        dup = sorted({s for s in named if named.count(s) > 1})
        if dup:
            raise EncodingError(f"chain names {', '.join(dup)} more than once")
        if self.bit_order not in BIT_ORDERS:
            raise EncodingError(f"bit_order must be msb_first or lsb_first, got {self.bit_order!r}")

    @property
    def length(self) -> int:
        return len(self.chain)


@dataclass(frozen=True)
class PanelView:
    """Everything lit on the panel at one moment.

    ``match`` is 4 characters (``"1959"``, ``"----"``, or blanks while flashing off),
    ``shot`` 2 (``"08"`` or blank).
    """

    match: str = "----"
    colon: bool = True
    shot: str = "  "
    throw_lamp: bool = False
    move_lamp: bool = False
    alert_lamp: bool = False

    def __post_init__(self) -> None:
        if len(self.match) != 4 or len(self.shot) != 2:
            raise EncodingError(f"a panel has 4 match and 2 shot digits, got {self.match!r} {self.shot!r}")

    @property
    def text(self) -> str:
        """``"19:59 08"``: MM:SS (the colon a blank when dark), the shot clock, and a
        trailing ``"!"`` while the alert lamp is lit."""
        colon = ":" if self.colon else " "
        alert = "!" if self.alert_lamp else ""
        return f"{self.match[:2]}{colon}{self.match[2:]} {self.shot}{alert}"

    @property
    def match_text(self) -> str:
        """``"19:59"`` (``"19 59"`` while the blinking colon is dark)."""
        return self.text[:5]

    def to_json(self) -> dict[str, object]:
        """For the web API: ``{"text": "19:59 10", "match": "19:59", "shot": "10", "colon":
        true, "lamps": {"throw": true, "move": false, "alert": false}}``."""
        return {
            "text": self.text,
            "match": self.match_text,
            "shot": self.shot,
            "colon": self.colon,
            "lamps": {"throw": self.throw_lamp, "move": self.move_lamp, "alert": self.alert_lamp},
        }

    def describe(self) -> str:
        """The text plus the lit lamps in words, for the console."""
        lamps = [name for name, on in (("던지기", self.throw_lamp), ("말 이동", self.move_lamp), ("경고", self.alert_lamp)) if on]
        return self.text.rstrip("!") + (f" [{', '.join(lamps)}]" if lamps else "")


def shown_seconds(remaining: float) -> int:
    """The whole seconds a countdown shows: rounded up, never below 0."""
    return max(0, math.ceil(remaining))


def _flash_on(now: float, origin: float = 0.0) -> bool:
    return ((now - origin) % FLASH_PERIOD) < FLASH_PERIOD / 2


def compose(
    state: TimerState,
    now: float,
    alert: AlertSeconds = AlertSeconds(),
    flash_origin: float | None = None,
) -> PanelView:
    """The panel for ``state`` at monotonic time ``now`` (pure).

    ``flash_origin`` is when time-up was first seen (the driver tracks it) so the flashing
    00:00 starts lit; without it the flash phase follows ``now``.
    """
    r = state.match_remaining
    if r is None:
        match, colon = "----", True
    elif r <= 0:
        on = _flash_on(now, flash_origin or 0.0)
        match, colon = ("0000" if on else "    "), on
    else:
        secs = min(shown_seconds(r), 99 * 60 + 59)
        match = f"{secs // 60:02d}{secs % 60:02d}"
        if state.match_running and not state.over:
            colon = (math.ceil(r) - r) < 0.5
        else:
            colon = True
    s = state.shot_remaining
    if s is None or state.over:
        return PanelView(match, colon)
    shown = min(shown_seconds(s), 99)
    limit = alert.throw if state.shot_kind == "throw" else alert.move
    alert_on = _flash_on(now) if shown == 0 else shown <= limit
    return PanelView(
        match,
        colon,
        f"{shown:02d}",
        throw_lamp=state.shot_kind == "throw",
        move_lamp=state.shot_kind == "move",
        alert_lamp=alert_on,
    )


def _until_countdown_change(r: float, blink: bool) -> float:
    """Seconds until a countdown at ``r`` (>0) shows something else; with ``blink`` the
    half-second colon toggle counts as a change."""
    to_next_second = r - (math.ceil(r) - 1)
    if not blink:
        return to_next_second
    half = r - (math.ceil(r) - 0.5)
    return half if half > 0 else to_next_second


def _until_flash_toggle(now: float, origin: float = 0.0) -> float:
    half = FLASH_PERIOD / 2
    phase = now - origin
    return (math.floor(phase / half) + 1) * half - phase


def next_change(state: TimerState, now: float, flash_origin: float | None = None) -> float | None:
    """The monotonic time at which :func:`compose` (or a buzzer cue) next changes if the
    clocks keep running as they are, or ``None`` if nothing changes on its own.

    A shot clock is assumed to run (the state does not say when it is paused); a paused one
    costs a harmless wake-up per second.
    """
    waits: list[float] = []
    r = state.match_remaining
    if r is not None:
        if r <= 0:
            waits.append(_until_flash_toggle(now, flash_origin or 0.0))
        elif state.match_running and not state.over:
            waits.append(_until_countdown_change(r, blink=True))
    s = state.shot_remaining
    if s is not None and not state.over:
        if s > 0:
            waits.append(_until_countdown_change(s, blink=False))
        else:
            waits.append(_until_flash_toggle(now))
            waits.append(s + OVERTIME_BEEP_EVERY * (math.floor(-s / OVERTIME_BEEP_EVERY) + 1))
    if not waits:
        return None
    return now + max(min(waits), MIN_WAIT)


def encode_view(view: PanelView, layout: PanelLayout) -> bytes:
    """The chain frame for ``view``: ``frame[i]`` is the byte for register ``chain[i]``
    (i = 0 nearest the Pi). Bits are logical: the chain's ``bit_order`` decides on which
    drain each bit lands (msb_first: bit j on drain j; lsb_first: bit j on drain 7-j)."""
    enc = layout.encoding
    digits = dict(zip(DIGIT_SLOTS, view.match + view.shot))
    lamps = 0
    for on, bit in (
        (view.colon, layout.lamps.colon),
        (view.throw_lamp, layout.lamps.throw),
        (view.move_lamp, layout.lamps.move),
        (view.alert_lamp, layout.lamps.alert),
    ):
        if on:
            lamps |= 1 << bit
    out = bytearray()
    for slot in layout.chain:
        if slot == SPARE:
            out.append(0)
        elif slot == "lamps":
            out.append(lamps)
        else:
            out.append(enc.encode_char(digits[slot]))
    return bytes(out)


def decode_frame(frame: bytes, layout: PanelLayout) -> PanelView:
    """Inverse of :func:`encode_view` (digits that match no character decode to ``?``)."""
    if len(frame) != layout.length:
        raise EncodingError(f"a frame for this chain has {layout.length} bytes, got {len(frame)}")
    by_slot = dict(zip(layout.chain, frame))
    chars = {slot: layout.encoding.decode_byte(by_slot[slot])[0] for slot in DIGIT_SLOTS}
    lamps = by_slot["lamps"]
    lit = layout.lamps
    return PanelView(
        match="".join(chars[s] for s in DIGIT_SLOTS[:4]),
        colon=bool(lamps >> lit.colon & 1),
        shot=chars["shot10"] + chars["shot1"],
        throw_lamp=bool(lamps >> lit.throw & 1),
        move_lamp=bool(lamps >> lit.move & 1),
        alert_lamp=bool(lamps >> lit.alert & 1),
    )

