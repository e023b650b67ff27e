"""A client that asks for Korean (the referee console sends ``Accept-Language: ko``) gets the
refusal as a Korean sentence in ``error`` and the English one in ``error_en``; everyone else
keeps ``{"error": <English>, "rule": ...}``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import testing

from tests.web_api.conftest import Referee

HANGUL = re.compile("[가-힣]")


def send(referee: Referee, match_id: int, event: dict[str, Any], language: str | None) -> Any:
    headers = {"X-CSRF-Token": referee.csrf}
    if language is not None:
        headers["Accept-Language"] = language
    return referee.client.post(f"/api/matches/{match_id}/events", json={"event": event}, headers=headers)


def seq(client: testing.FlaskClient, match_id: int) -> int:
    return int(client.get(f"/api/matches/{match_id}").json["seq"])  # type: ignore[index]


@pytest.mark.parametrize("event, status, korean, english", [
    ({"type": "move", "team": 0, "result": "윷", "piece": 0}, 422, ("'윷'은", "남은 결과: 개"), "윷 is not a pending result"),
    ({"type": "move", "team": 0, "result": "개", "piece": 0, "to": "모"}, 422,
     ("대기 중인 말 1", "'모' 자리에 갈 수 없습니다"), "cannot reach 모"),
    ({"type": "throw", "team": 1, "result": "도"}, 422, ("백호 팀", "청룡 팀"), "cannot throw"),
    ({"type": "move", "team": 0, "result": "개", "piece": 9}, 400, ("말 번호", "9"), '"piece" must be 0..3'),
])  # fmt: skip
def test_refusal_in_korean_with_english_alongside(
    referee: Referee, match_id: int, event: dict[str, Any], status: int,
    korean: tuple[str, ...], english: str,
) -> None:
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "개"})
    before = seq(referee.client, match_id)
    resp = send(referee, match_id, event, "ko-KR,ko;q=0.9,en-US;q=0.8")
    assert resp.status_code == status, resp.json
    body = resp.json
    assert set(body) == {"error", "error_en", "rule"}
    assert HANGUL.search(body["error"]) and all(w in body["error"] for w in korean), body
    assert english in body["error_en"]
    assert body["error"] != body["error_en"]
    assert seq(referee.client, match_id) == before  # nothing was written


@pytest.mark.parametrize("language", [None, "en-US,en;q=0.9", "en-US,en;q=0.9,ko;q=0.5", "*"])
def test_english_unless_korean_is_preferred(referee: Referee, match_id: int, language: str | None) -> None:
    referee.ok(match_id, {"type": "throw", "team": 0, "result": "개"})
    resp = send(referee, match_id, {"type": "move", "team": 0, "result": "윷", "piece": 0}, language)
    assert resp.status_code == 422
    assert set(resp.json) == {"error", "rule"} and "윷 is not a pending result" in resp.json["error"]


def test_english_when_there_is_no_korean_sentence(referee: Referee, match_id: int) -> None:
    """A refusal without a Korean sentence still answers in the Korean shape, in English."""
    resp = referee.client.post(f"/api/matches/{match_id}/events", data="[1]", content_type="application/json",
                               headers={"X-CSRF-Token": referee.csrf, "Accept-Language": "ko"})
    assert resp.status_code == 400
    assert resp.json["error"] == resp.json["error_en"] and resp.json["error"]
