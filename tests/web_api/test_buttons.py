"""The referee buttons (mock pins) act like the console: start/stop, confirm, 낙, undo."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web_api.conftest import FakeClock, Referee

pytestmark = pytest.mark.parametrize("hardware", ["mock"])


def press(app: Flask, action: str, clock: FakeClock) -> None:
    pin = app.extensions["yut_cam.hardware"].buttons.pin(action)
    clock.advance(1.0)  # the debouncer wants the line quiet before a press
    pin.drive_low()
    pin.drive_high()


def history(client: FlaskClient, match_id: int) -> list[dict[str, Any]]:
    return client.get(f"/api/matches/{match_id}").json["history"]  # type: ignore[no-any-return]


def test_start_stop_button(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                           clock: FakeClock) -> None:
    press(app, "start_stop", clock)
    assert history(client, match_id)[-1]["type"] == "stoppage"
    press(app, "start_stop", clock)
    assert history(client, match_id)[-1]["type"] == "resume"


def test_confirm_nak_and_undo_buttons(app: Flask, client: FlaskClient, referee: Referee, match_id: int,
                                      clock: FakeClock) -> None:
    press(app, "confirm", clock)  # no reading yet: refused, nothing recorded
    assert len(history(client, match_id)) == 1
    referee.post(f"/api/matches/{match_id}/reading", {"result": "도"})
    press(app, "confirm", clock)
    last = history(client, match_id)[-1]
    assert (last["type"], last["result"], last["capture"]) == ("throw", "도", 1)
    press(app, "undo", clock)
    assert history(client, match_id)[-1]["type"] == "undo"
    press(app, "nak", clock)
    last = history(client, match_id)[-1]
    assert (last["type"], last["result"]) == ("throw", "낙")
    state = client.get(f"/api/matches/{match_id}").json
    assert state["turn"] == 1 and state["led"]["text"].endswith("10")


def test_the_venue_settings_file_decides_the_pins(config: dict[str, Any], clock: FakeClock, tmp_path: Any,
                                                  monkeypatch: pytest.MonkeyPatch, hardware: str) -> None:
    import json
    from pathlib import Path

    from yut_cam.web import close_app, create_app

    venue = json.loads(Path("firmware/hardware.json").read_text(encoding="utf-8"))
    venue["buttons"]["undo"] = 7  # the venue wired its undo button elsewhere
    path = tmp_path / "hardware.json"
    path.write_text(json.dumps(venue), encoding="utf-8")
    monkeypatch.setenv("YUT_CAM_HARDWARE", str(path))
    config["HARDWARE"] = hardware
    app = create_app(config)
    try:
        link = app.extensions["yut_cam.hardware"]
        assert link.settings.source == str(path)
        assert link.buttons.pin("undo").info.name == "GPIO7"  # BCM numbering
    finally:
        close_app(app)
