"""`yut-cam serve` refuses a bad store with one clear line (before starting gunicorn)."""

from __future__ import annotations

from pathlib import Path

import pytest

from yut_cam.cli import main


def test_serve_refuses_a_file_that_is_not_a_store(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YUT_CAM_PIN", "1111")
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database")
    status = main(["serve", "--db", str(bad), "--var", str(tmp_path / "var"), "--port", "1"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "notes.txt" in err and "not a usable yut-cam store" in err
    assert bad.read_text() == "not a database"


def test_serve_without_a_pin_makes_one_and_keeps_only_its_hash(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from yut_cam.web.config import defaults, resolve

    monkeypatch.delenv("YUT_CAM_PIN", raising=False)
    settings = defaults()
    settings.update(VAR_DIR=str(tmp_path), REFEREE_PIN=None)
    resolve(settings)
    stored = (tmp_path / "referee-pin.hash").read_text().strip()
    assert stored == settings["REFEREE_PIN_HASH"] and stored.startswith("scrypt:")
    assert "REFEREE_PIN" not in settings
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
