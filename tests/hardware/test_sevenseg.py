from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yut_cam.hardware import EncodingError
from yut_cam.hardware.sevenseg import CHARSET, SEGMENTS, DigitEncoding, reverse_bits

DEFAULT = DigitEncoding()


@pytest.mark.parametrize(
    ("char", "segments"),
    [
        ("0", "abcdef"), ("1", "bc"), ("2", "abdeg"), ("3", "abcdg"), ("4", "bcfg"),
        ("5", "acdfg"), ("6", "acdefg"), ("7", "abc"), ("8", "abcdefg"), ("9", "abcdfg"),
        ("-", "g"), (" ", ""),
    ],
)
def test_default_wiring_lights_the_usual_segments(char: str, segments: str) -> None:
    expected = sum(1 << SEGMENTS.index(s) for s in segments)
    assert DEFAULT.encode_char(char) == expected
    assert DEFAULT.decode_byte(expected) == (char, False)


@pytest.mark.parametrize(
    ("encoding", "char", "segments"),
    [
        (DigitEncoding(six_tail=False), "6", "cdefg"),
        (DigitEncoding(seven_tail=True), "7", "abcf"),
        (DigitEncoding(nine_tail=False), "9", "abcfg"),
    ],
)
def test_digit_styles(encoding: DigitEncoding, char: str, segments: str) -> None:
    assert encoding.encode_char(char) == sum(1 << SEGMENTS.index(s) for s in segments)
    assert encoding.decode_byte(encoding.encode_char(char))[0] == char


def test_segment_map_moves_bits_and_dp() -> None:
    # g on bit 0, a on bit 7 …: a '-' is bit 0, the dp is wherever it is mapped.
    enc = DigitEncoding(segment_bits=(7, 6, 5, 4, 3, 2, 0, 1))
    assert enc.encode_char("-") == 0b0000_0001
    assert enc.encode_char(" ", dp=True) == 0b0000_0010
    assert enc.decode_byte(0b11) == ("-", True)


@pytest.mark.parametrize("bits", [(0, 1, 2), (0, 0, 1, 2, 3, 4, 5, 6), (0, 1, 2, 3, 4, 5, 6, 8)])
def test_bad_segment_maps_are_refused(bits: tuple[int, ...]) -> None:
    with pytest.raises(EncodingError, match="segment_bits"):
        DigitEncoding(segment_bits=bits)


def test_unknown_character_and_pattern() -> None:
    with pytest.raises(EncodingError, match="'A'"):
        DEFAULT.encode_char("A")
    assert DEFAULT.decode_byte(0b0100_0001)[0] == "?"  # a + g: no character


def test_reverse_bits() -> None:
    assert reverse_bits(0b1000_0000) == 1
    assert reverse_bits(0b1100_1010) == 0b0101_0011


encodings = st.builds(
    DigitEncoding,
    segment_bits=st.permutations(range(8)).map(tuple),
    six_tail=st.booleans(),
    seven_tail=st.booleans(),
    nine_tail=st.booleans(),
)


@given(encodings, st.text(alphabet=CHARSET, max_size=12))
def test_encode_decode_round_trips_any_text(enc: DigitEncoding, text: str) -> None:
    assert enc.decode_bytes(enc.encode_text(text)) == text


@given(encodings)
def test_every_character_has_its_own_pattern(enc: DigitEncoding) -> None:
    patterns = [enc.encode_char(c) for c in CHARSET]
    assert len(set(patterns)) == len(CHARSET)
