"""`yut-cam sheet`, `replay-export` and `replay-serve` on generated matches."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.replay.conftest import write_record
from tests.replay.gen import Driver, match
from yut_cam.cli import main
from yut_cam.match import replay
from yut_cam.replay.web import create_replay_app
from yut_cam.store import CaptureStore, EventStore


def test_sheet_of_a_file_writes_csv_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = Driver(16)
    d.play(pace=(7.0, 15.0))
    path = write_record(tmp_path / "m.yutlog", d.header, d.events)
    out_csv, out_html = tmp_path / "o" / "sheet.csv", tmp_path / "o" / "sheet.html"
    assert main(["sheet", str(path), "--csv", str(out_csv), "--html", str(out_html)]) == 0
    said = capsys.readouterr().out
    assert said.startswith("청룡 대 백호: 판정승 (난 말 수)")
    raw = out_csv.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    events = rows[rows.index(["번호", "시간", "팀", "구분", "선수", "결과", "말", "이동", "비고"]) + 1:]
    assert len(events) == len(d.events)
    assert [r[1] for r in events] == [f"{int(e['t']) // 60:02d}:{int(e['t']) % 60:02d}" for e in d.events]
    assert "판정승 (난 말 수)" in out_html.read_text(encoding="utf-8")


def test_sheet_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h, events = match(6)
    path = write_record(tmp_path / "m.yutlog", h, events)
    assert main(["sheet", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("윷놀이 경기 기록지,청룡 대 백호\n") and "\r" not in out


@pytest.mark.parametrize("argv", [["sheet", "{tmp}/missing.yutlog"], ["sheet", "3", "--db", "{tmp}/no.sqlite3"],
                                  ["replay-serve", "{tmp}/missing"], ["replay-export", "1", "{tmp}/x",
                                                                      "--db", "{tmp}/no.sqlite3"]])
def test_errors_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main([a.format(tmp=tmp_path) for a in argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"yut-cam {argv[0]}: error:")
    assert not (tmp_path / "no.sqlite3").exists()


def test_a_malformed_record_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yutlog"
    path.write_text('{"type":"match","teams":[]}\n{"type":"throw"\n', encoding="utf-8")
    assert main(["sheet", str(path)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_export_then_sheet_and_replay_of_the_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    h, events = match(12)
    db = tmp_path / "var" / "yut.sqlite3"
    with EventStore(db) as store:
        match_id = store.create_match(h, events=events, finished=True)
    CaptureStore(tmp_path / "var" / "captures").write(match_id, 3, "settled.jpg", b"\xff\xd8fake")
    out = tmp_path / "export"
    assert main(["replay-export", str(match_id), str(out), "--db", str(db)]) == 0
    assert f"exported match {match_id} ({len(events)} events, 1 captures)" in capsys.readouterr().out
    assert (out / "match.yutlog").is_file() and (out / "captures" / "3" / "settled.jpg").is_file()
    assert main(["replay-export", str(match_id), str(out), "--db", str(db)]) == 2  # not empty now
    capsys.readouterr()
    assert main(["sheet", str(match_id), "--db", str(db), "--csv", str(tmp_path / "a.csv")]) == 0
    assert main(["sheet", str(out), "--csv", str(tmp_path / "b.csv")]) == 0
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    data = create_replay_app(out).test_client().get("/replay/1/timeline.json").get_json()
    assert data["steps"][-1]["state"]["winner"] == replay(h, events).winner
    assert data["captures"]["3"]["settled"] == "/replay/1/captures/3/settled.jpg"


def test_replay_serve_answers_over_http(tmp_path: Path) -> None:
    """The real command in a child process, on a free loopback port."""
    import urllib.request

    h, events = match(4)
    path = write_record(tmp_path / "m.yutlog", h, events)
    proc = subprocess.Popen([sys.executable, "-m", "yut_cam.cli", "replay-serve", str(path), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        url = line.split()[3]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/replay/1")
        with urllib.request.urlopen(url + "/timeline.json", timeout=10) as resp:
            data = json.loads(resp.read())
        assert len(data["steps"]) == len(events)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stdout:
            proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()
