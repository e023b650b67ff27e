"""`yut-cam record list|export|import` through the real CLI entry point."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.store.conftest import HEADER, snapshot
from tests.store.test_yutlog import GOOD
from yut_cam.cli import main
from yut_cam.commands import record
from yut_cam.store import EventStore

REAL_MATCH_VALIDATOR = record.match_validator


@pytest.fixture(autouse=True)
def format_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the file format; the rules validator is tested below."""
    monkeypatch.setattr(record, "match_validator", lambda: None)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_import_list_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "var" / "s.sqlite3")
    source = tmp_path / "in.yutlog"
    source.write_text(GOOD, encoding="utf-8")
    status, out, _ = _run(capsys, "record", "import", str(source), "--db", db)
    assert status == 0 and "as match 1 (청룡 대 백호, 5 events, finished)" in out

    status, out, _ = _run(capsys, "record", "list", "--db", db)
    assert status == 0
    assert out.splitlines()[1].split()[:3] == ["1", "finished", "5"]
    assert "청룡 대 백호" in out

    target = tmp_path / "out.yutlog"
    status, out, _ = _run(capsys, "record", "export", "1", str(target), "--db", db)
    assert status == 0 and target.read_text(encoding="utf-8") == GOOD
    status, out, _ = _run(capsys, "record", "export", "1", "-", "--db", db)
    assert status == 0 and out == GOOD

    status, out, _ = _run(capsys, "record", "import", str(source), "--db", db, "--open")
    assert status == 0 and "as match 2" in out and "open" in out
    with EventStore(db) as store:
        assert [m.id for m in store.unfinished()] == [2]


def test_broken_import_exits_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    bad = tmp_path / "bad.yutlog"
    bad.write_text(GOOD.replace('"result":"개","piece"', '"result":"개",,"piece"'), encoding="utf-8")
    status, _, err = _run(capsys, "record", "import", str(bad), "--db", str(db))
    assert status == 2
    assert "error: bad.yutlog: line 5: not valid JSON" in err
    assert not db.exists()  # not even an empty store

    with EventStore(db) as store:
        store.create_match(HEADER)
    before = snapshot(db)
    status, _, err = _run(capsys, "record", "import", str(bad), "--db", str(db))
    assert status == 2 and snapshot(db) == before


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["record", "list"], "no store at"),
        (["record", "export", "1", "x.yutlog"], "no store at"),
        (["record", "import", "missing.yutlog"], "missing.yutlog: cannot read it"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = _run(capsys, *argv)
    assert status == 2
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and message in errors[0]
    assert list(tmp_path.iterdir()) == []


def test_export_refuses_to_overwrite_and_unknown_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.sqlite3")
    with EventStore(db) as store:
        store.create_match(HEADER)
    existing = tmp_path / "keep.yutlog"
    existing.write_text("precious", encoding="utf-8")
    status, _, err = _run(capsys, "record", "export", "1", str(existing), "--db", db)
    assert status == 2 and "exists (use --force" in err
    assert existing.read_text(encoding="utf-8") == "precious"
    status, _, err = _run(capsys, "record", "export", "1", str(existing), "--db", db, "--force")
    assert status == 0 and existing.read_text(encoding="utf-8").startswith('{"v":1')
    status, _, err = _run(capsys, "record", "export", "7", str(tmp_path / "n.yutlog"), "--db", db)
    assert status == 2 and "no match 7" in err
    assert not (tmp_path / "n.yutlog").exists()


def test_list_of_empty_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite3")
    EventStore(db).close()
    status, out, _ = _run(capsys, "record", "list", "--db", db)
    assert status == 0 and "no matches" in out
    status, out, _ = _run(capsys, "record", "list", "--db", db, "--json")
    assert status == 0 and out.strip() == "[]"


def test_import_uses_the_match_validator_and_writes_nothing_when_it_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, int]] = []

    def validate_record(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> None:
        calls.append((header["teams"][0]["name"], len(events)))
        raise ValueError("line 5: 개 from 모 cannot reach 모개 (rule 000 …)")

    monkeypatch.setattr(record, "match_validator", lambda: validate_record)
    db = tmp_path / "s.sqlite3"
    source = tmp_path / "in.yutlog"
    source.write_text(GOOD, encoding="utf-8")
    status, _, err = _run(capsys, "record", "import", str(source), "--db", str(db))
    assert status == 2 and calls == [("청룡", 5)]
    assert "in.yutlog: record refused: line 5: 개 from 모" in err
    assert "note:" not in err
    assert not db.exists()


def test_import_says_when_rules_were_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.yutlog"
    source.write_text(GOOD, encoding="utf-8")
    status, _, err = _run(capsys, "record", "import", str(source), "--db", str(tmp_path / "s.db"))
    assert status == 0 and "only the .yutlog format was checked" in err


def test_match_validator_finds_validate_record_when_the_match_layer_has_one() -> None:
    import yut_cam.match

    assert REAL_MATCH_VALIDATOR() is getattr(yut_cam.match, "validate_record", None)


def test_backup_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "s.sqlite3")
    with EventStore(db) as store:
        store.create_match(HEADER, events=[{"type": "throw", "team": 0, "result": "도"}])
        out = tmp_path / "b.sqlite3"
        status, text, _ = _run(capsys, "record", "backup", str(out), "--db", db)
        assert status == 0 and "1 matches" in text
    status, _, err = _run(capsys, "record", "backup", str(out), "--db", db)
    assert status == 2 and "exists" in err
    with EventStore(out, readonly=True) as copy:
        assert copy.events(1) == [{"type": "throw", "team": 0, "result": "도"}]
