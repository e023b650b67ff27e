"""Characters to 7-segment bits and back (pure).

Segments are named the usual way::

     aaa
    f   b
     ggg
    e   c
     ddd  dp

A :class:`DigitEncoding` says which bit of a register byte drives which segment (that is
how the digit's cable is wired to the TPIC6B595 drains) and which style of 6, 7 and 9 the
venue prefers. It encodes the characters of :data:`CHARSET` (``0``–``9``, ``-`` and blank)
and decodes any byte it produced back to the same character, which is what the tests and
the console's "what the LED timer shows now" rely on.
"""

from __future__ import annotations

from dataclasses import dataclass

from yut_cam.hardware.errors import EncodingError

SEGMENTS: tuple[str, ...] = ("a", "b", "c", "d", "e", "f", "g", "dp")
CHARSET = "0123456789- "
UNKNOWN = "?"

_SHAPES: dict[str, str] = {
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}


@dataclass(frozen=True)
class DigitEncoding:
    """How characters become the 8 bits of one digit's register.

    ``segment_bits[i]`` is the bit (0 = least significant) that drives ``SEGMENTS[i]``;
    the default wires a→bit 0 … g→bit 6, dp→bit 7. ``six_tail``/``nine_tail`` light the
    top of the 6 / bottom of the 9; ``seven_tail`` lights f on the 7.
    """

    segment_bits: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)
    six_tail: bool = True
    seven_tail: bool = False
    nine_tail: bool = True

    def __post_init__(self) -> None:
        bits = self.segment_bits
        if len(bits) != len(SEGMENTS) or sorted(bits) != list(range(8)):
            raise EncodingError(
                f"segment_bits must give each of {', '.join(SEGMENTS)} its own bit 0-7, "
                f"got {list(bits)!r}"
            )

    def shape(self, char: str) -> str:
        """The lit segments of ``char`` in this style (no dp)."""
        if char not in _SHAPES:
            raise EncodingError(
                f"{char!r} has no 7-segment form; allowed: digits, '-' and blank"
            )
        if char == "6" and not self.six_tail:
            return "cdefg"
        if char == "7" and self.seven_tail:
            return "abcf"
        if char == "9" and not self.nine_tail:
            return "abcfg"
        return _SHAPES[char]

    def bit(self, segment: str) -> int:
        return self.segment_bits[SEGMENTS.index(segment)]

    def encode_char(self, char: str, dp: bool = False) -> int:
        """The register byte that shows ``char`` (with the decimal point if ``dp``)."""
        value = 0
        for segment in self.shape(char):
            value |= 1 << self.bit(segment)
        if dp:
            value |= 1 << self.bit("dp")
        return value

    def decode_byte(self, value: int) -> tuple[str, bool]:
        """``(char, dp)`` for a register byte; ``char`` is ``"?"`` for a pattern no
        character of this encoding produces (a wiring or encoding mismatch)."""
        if not 0 <= value <= 0xFF:
            raise EncodingError(f"a register byte is 0-255, got {value!r}")
        dp = bool(value & (1 << self.bit("dp")))
        return self._reverse().get(value & ~(1 << self.bit("dp")), UNKNOWN), dp

    def encode_text(self, text: str) -> bytes:
        """One byte per character of ``text``."""
        return bytes(self.encode_char(c) for c in text)

    def decode_bytes(self, data: bytes) -> str:
        return "".join(self.decode_byte(b)[0] for b in data)

    def _reverse(self) -> dict[int, str]:
        return {self.encode_char(c): c for c in CHARSET}


def reverse_bits(value: int) -> int:
    """Mirror the 8 bits of ``value`` (bit 0 ↔ bit 7)."""
    return int(f"{value & 0xFF:08b}"[::-1], 2)
