"""`yut-cam record import` with the real match-layer validator (yut_cam.match.validate_record)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.store.conftest import snapshot
from yut_cam.cli import main
from yut_cam.store import EventStore

RECORD = (
    '{"v":1,"type":"match","rules":"official","teams":['
    '{"name":"청룡","throwers":["a","b","c"],"mover":"d","reserves":[]},'
    '{"name":"백호","throwers":["e","f","g"],"mover":"h","reserves":[]}],"first":0}\n'
    '{"type":"throw","team":0,"result":"모"}\n'
    '{"type":"throw","team":0,"result":"개"}\n'
    '{"type":"move","team":0,"result":"모","piece":0}\n'
    '{"type":"move","team":0,"result":"개","piece":0,"to":"모개"}\n'
    '{"type":"time_up"}\n'
)


def test_legal_record_imports_and_illegal_one_is_refused_by_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    good = tmp_path / "good.yutlog"
    good.write_text(RECORD, encoding="utf-8")
    assert main(["record", "import", str(good), "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert "as match 1 (청룡 대 백호, 5 events, finished)" in out and err == ""

    before = snapshot(db)
    illegal = tmp_path / "illegal.yutlog"
    illegal.write_text(RECORD.replace('"to":"모개"', '"to":"뒷도"'), encoding="utf-8")
    assert main(["record", "import", str(illegal), "--db", str(db)]) == 2
    _, err = capsys.readouterr()
    assert "illegal.yutlog: record refused: line 5:" in err and "뒷도" in err
    assert snapshot(db) == before
    with EventStore(db, readonly=True) as store:
        assert [m.event_count for m in store.matches()] == [5]
