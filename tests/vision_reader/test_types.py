"""The result rule (rule 000) and the ``yut-cam read`` JSON contract."""

from __future__ import annotations

import json

import pytest

from yut_cam.vision.types import Reading, StickReading, result_of

BOX = ((0.0, 0.0), (10.0, 0.0), (10.0, 2.0), (0.0, 2.0))


def stick(face: str, marked: bool = False, on_mat: bool = True) -> StickReading:
    return StickReading(face=face, marked=marked, on_mat=on_mat, box=BOX)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("faces", "marked", "off", "expected"),
    [
        ("등등등등", None, None, "모"),
        ("배등등등", None, None, "도"),
        ("배등등등", 0, None, "빽도"),
        ("등등배등", 2, None, "빽도"),
        ("배등등등", 1, None, "도"),  # the marked stick shows 등: plain 도
        ("배배등등", 0, None, "개"),
        ("배배배등", 0, None, "걸"),
        ("배배배배", 3, None, "윷"),
        ("배배등등", None, 2, "낙"),
        ("배등등등", 0, 3, "낙"),
        ("배배배배", None, 0, "낙"),
    ],
)
def test_result_rule(faces: str, marked: int | None, off: int | None, expected: str) -> None:
    sticks = [stick(f, marked=i == marked, on_mat=i != off) for i, f in enumerate(faces)]
    assert result_of(sticks) == expected


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_fewer_than_four_sticks_is_nak(n: int) -> None:
    assert result_of([stick("배")] * n) == "낙"


def test_json_contract() -> None:
    r = Reading(result="개", confidence=0.98, needs_referee=False,
                sticks=(stick("배"), stick("배", marked=True), stick("등"), stick("등")), reasons=())
    data = json.loads(r.to_json())
    assert data["result"] == "개"
    assert data["confidence"] == 0.98
    assert data["needs_referee"] is False
    assert [s["face"] for s in data["sticks"]] == ["배", "배", "등", "등"]
    assert data["sticks"][1]["marked"] is True
    assert all(s["on_mat"] is True for s in data["sticks"])
    assert data["sticks"][0]["box"] == [[0.0, 0.0], [10.0, 0.0], [10.0, 2.0], [0.0, 2.0]]
    assert data["reasons"] == []
    assert "개" in r.to_json()  # Korean kept as text, not \\u escapes


@pytest.mark.parametrize(
    "kwargs",
    [
        {"result": "윳", "confidence": 0.5, "needs_referee": False},
        {"result": "도", "confidence": 1.5, "needs_referee": False},
    ],
)
def test_reading_rejects_bad_values(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Reading(**kwargs)  # type: ignore[arg-type]


def test_stick_rejects_bad_face_and_box() -> None:
    with pytest.raises(ValueError, match="face"):
        StickReading(face="앞", marked=False, on_mat=True, box=BOX)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="4 corners"):
        StickReading(face="배", marked=False, on_mat=True, box=BOX[:3])  # type: ignore[arg-type]
