from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from yut_cam.hardware import SettingsError
from yut_cam.hardware.settings import (
    HardwareSettings,
    load_settings,
    parse_settings,
    settings_from_env,
    settings_to_json,
)

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "hardware.json"


def test_firmware_file_is_the_default() -> None:
    assert load_settings(FIRMWARE) == HardwareSettings()


def test_json_round_trip_and_partial_files() -> None:
    assert parse_settings(settings_to_json(HardwareSettings())) == HardwareSettings()
    s = parse_settings({"brightness": 0.3, "shift_chain": {"bit_order": "lsb_first"}, "_comment": "venue A"})
    assert s.brightness == 0.3 and s.layout.bit_order == "lsb_first"
    assert s.pins == HardwareSettings().pins


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ([], "expected a JSON object, got list"),
        ({"brightnes": 0.5}, "unknown field 'brightnes'"),
        ({"brightness": 1.5}, "brightness: 1.5 must be a number from 0 to 1"),
        ({"brightness": True}, "brightness: True"),
        ({"shift_chain": {"data": 40}}, "shift_chain.data: 40 is not a BCM GPIO number"),
        ({"shift_chain": {"clock": "11"}}, "shift_chain.clock: '11' is not a BCM GPIO number"),
        ({"shift_chain": {"latch": 10}}, "shift_chain.latch: GPIO10 is already used by shift_chain.data"),
        ({"buttons": {"nak": 13}}, "buttons.nak: GPIO13 is already used by buzzer.pin"),
        ({"shift_chain": {"bit_order": "big"}}, "bit_order: 'big' must be one of msb_first, lsb_first"),
        ({"shift_chain": {"registers": ["m10", "m1"]}}, "lacks s10"),
        ({"shift_chain": {"registers": "m10 m1"}}, "expected a list of slot names"),
        ({"shift_chain": {"pwm_frequency": 5}}, "pwm_frequency: 5 must be a number from 50"),
        ({"digits": {"segments": {"a": 0}}}, "missing segment(s) b, c, d, e, f, g, dp"),
        ({"digits": {"segments": {**{k: 0 for k in "abcdefg"}, "dp": 7}}}, "its own bit"),
        ({"digits": {"segments": {**{k: i for i, k in enumerate("abcdefg")}, "dp": 7.5}}}, "must be a number from 0 to 7"),
        ({"digits": {"six_tail": "yes"}}, "digits.six_tail: 'yes' must be true or false"),
        ({"lamps": {"colon": 1, "throw": 1}}, "lamp bits must be distinct"),
        ({"buzzer": {"kind": "siren"}}, "buzzer.kind: 'siren'"),
        ({"buttons": {"debounce_ms": -1}}, "buttons.debounce_ms: -1"),
        ({"buttons": "5,6"}, "buttons: expected an object"),
    ],
)
def test_bad_settings_say_what_and_where(doc: Any, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        parse_settings(doc, "venue.json")
    assert str(info.value).startswith("venue.json: ")
    assert message in str(info.value)


def test_bad_files(tmp_path: Path) -> None:
    broken = tmp_path / "hw.json"
    broken.write_text('{"brightness": 0.5,\n "buzzer": }', encoding="utf-8")
    with pytest.raises(SettingsError, match=r"hw.json: line 2 column 12: not valid JSON"):
        load_settings(broken)
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(tmp_path / "missing.json")
    assert isinstance(SettingsError("x"), ValueError)


def test_default_file_is_pretty_json() -> None:
    assert json.loads(FIRMWARE.read_text(encoding="utf-8")) == settings_to_json(HardwareSettings())


def test_settings_from_env(tmp_path: Path) -> None:
    assert settings_from_env({}) == HardwareSettings()
    venue = tmp_path / "venue.json"
    venue.write_text('{"brightness": 0.5}', encoding="utf-8")
    assert settings_from_env({"YUT_CAM_HARDWARE": str(venue)}).brightness == 0.5
    with pytest.raises(SettingsError, match="nope.json"):
        settings_from_env({"YUT_CAM_HARDWARE": str(tmp_path / "nope.json")})
