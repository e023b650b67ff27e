"""What else a throw the reader asks about could be (yut_cam.vision.alternatives)."""

from __future__ import annotations

import pytest

from yut_cam.vision.alternatives import Doubts, alternatives
from yut_cam.vision.types import Reading, StickReading, result_of

BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 2.0), (0.0, 2.0))


def sticks(faces: str, marked: int = -1, off: str = "") -> list[StickReading]:
    """Four sticks from e.g. "배등등등"; ``marked``: index of the marked stick; ``off``: which
    lie off the mat ("x" at that place)."""
    return [StickReading(face="배" if f == "배" else "등", marked=i == marked,
                         on_mat=not (off and off[i] == "x"), box=BOX) for i, f in enumerate(faces)]


CASES = [
    # faces, marked, off, doubts, margins, expected alternatives (likeliest first)
    ("배배등등", -1, "", Doubts(faces=frozenset({2})), (), ("걸",)),
    ("배배등등", -1, "", Doubts(faces=frozenset({0})), (), ("도",)),
    ("배배등등", 1, "", Doubts(faces=frozenset({0})), (), ("빽도",)),  # the 배 stick left is the marked one
    ("등등등등", -1, "", Doubts(faces=frozenset({3})), (), ("도", "빽도")),  # its mark was never read
    ("배등등등", 0, "", Doubts(mark=True), (), ("도",)),
    ("배등등등", -1, "", Doubts(mark=True), (), ("빽도",)),
    ("배배배등", -1, "", Doubts(edges=frozenset({3})), (), ("낙",)),
    ("배배배등", -1, "...x", Doubts(edges=frozenset({3})), (), ("걸",)),
    # the least sure face first
    ("배배등등", -1, "", Doubts(faces=frozenset({0, 2})), (0.05, 0.9, 0.2, 0.9), ("도", "걸")),
    ("배배등등", -1, "", Doubts(faces=frozenset({0, 2})), (0.2, 0.9, 0.05, 0.9), ("걸", "도")),
    # a face and the edge: 낙 or the other face
    ("배배배배", -1, "", Doubts(faces=frozenset({1}), edges=frozenset({2})), (0.1, 0.1, 0.1, 0.1), ("걸", "낙")),
    # too open, or nothing open, or the sticks themselves in doubt: no short list
    ("배배등등", -1, "", Doubts(faces=frozenset({0, 1, 2})), (), ()),
    ("배배등등", -1, "", Doubts(), (), ()),
    ("배배등등", -1, "", Doubts(faces=frozenset({2}), whole=True), (), ()),
    ("배등배등", -1, "", Doubts(faces=frozenset({0, 1, 2, 3}), mark=True), (), ()),
]


@pytest.mark.parametrize("faces, marked, off, doubts, margins, expected", CASES)
def test_alternatives_table(faces: str, marked: int, off: str, doubts: Doubts, margins: tuple[float, ...],
                            expected: tuple[str, ...]) -> None:
    s = sticks(faces, marked, off)
    got = alternatives(s, result_of(s), doubts, margins)
    assert got == expected
    assert result_of(s) not in got


def test_alternatives_only_with_four_sticks() -> None:
    s = sticks("배배등등")[:3]
    assert alternatives(s, "낙", Doubts(faces=frozenset({0}))) == ()


@pytest.mark.parametrize("alts", [("개",), ("도", "도"), ("빽",)])
def test_a_reading_refuses_alternatives_that_are_no_other_result(alts: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="alternatives"):
        Reading(result="개", confidence=0.5, needs_referee=True, alternatives=alts)  # type: ignore[arg-type]


def test_a_sure_reading_has_no_alternatives() -> None:
    with pytest.raises(ValueError, match="needs the referee"):
        Reading(result="개", confidence=0.9, needs_referee=False, alternatives=("걸",))
    assert Reading(result="개", confidence=0.5, needs_referee=True, alternatives=("걸",)).to_dict()["alternatives"] == ["걸"]
