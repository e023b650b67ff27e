from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from yut_cam.cli import main
from yut_cam.commands.hardware import run_sequence
from yut_cam.hardware.settings import HardwareSettings, parse_settings


def test_timer_test_mock_sequence() -> None:
    lines: list[str] = []
    texts = run_sequence(HardwareSettings(), mock=True, out=lines.append)
    assert texts == [
        "--:--   ",
        "20:00 10",
        "19:59 09",
        "19:53 03!",
        "19 50 30",
        "19:48 29",
        "19:48 29",
        "19:48 29",
        "00:03 28",
        "00:00   ",
        "        ",
    ]
    assert any("♪ shot_expired" in line for line in lines)
    assert any("♪ time_up" in line for line in lines)


def test_same_sequence_with_another_wiring() -> None:
    other = parse_settings({"shift_chain": {"bit_order": "lsb_first", "registers":
                            ["m10", "m1", "spare", "s10", "s1", "lamps", "shot10", "shot1"]},
                            "digits": {"six_tail": False}})
    assert run_sequence(other, mock=True, out=lambda _: None)[:3] == ["--:--   ", "20:00 10", "19:59 09"]


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: Any) -> None:
    assert main(["timer-test", "--mock"]) == 0
    assert "19:53 03!" in capsys.readouterr().out
    bad = tmp_path / "hw.json"
    bad.write_text('{"brightness": 2}', encoding="utf-8")
    assert main(["timer-test", "--mock", "--settings", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "brightness: 2 must be a number from 0 to 1" in err
