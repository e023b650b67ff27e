"""Records: malformed lines are refused with their line number; `yut-cam replay`/`moves`."""

import json

import pytest

from yut_cam.cli import main
from yut_cam.match import MatchError, replay_text

from .helpers import header

HEAD = json.dumps(header(0), ensure_ascii=False)
GOOD = "\n".join(
    [
        HEAD,
        '{"type":"throw","team":0,"result":"모"}',
        '{"type":"throw","team":0,"result":"개"}',
        '{"type":"move","team":0,"result":"모","piece":0}',
        '{"type":"move","team":0,"result":"개","piece":0,"to":"모개"}',
        '{"type":"throw","team":1,"result":"걸","extra":"ignored"}',
    ]
)


@pytest.mark.parametrize(
    "lines, line_no, message",
    [
        (["{not json"], 1, "not valid JSON"),
        (['{"type":"throw"}'], 1, "first line must be the match header"),
        ([HEAD, '{"type":"fly","team":0}'], 2, "unknown event type 'fly'"),
        ([HEAD, '{"type":"throw","team":0,"result":"육"}'], 2, "unknown throw result"),
        ([HEAD, '{"type":"throw","team":1,"result":"도"}'], 2, "team 0's turn"),
        ([HEAD, '{"type":"throw","team":0,"result":"개"}', '{"type":"move","team":0,"result":"도","piece":0}'], 3,
         "not a pending result"),
        ([HEAD, '{"type":"throw","team":0,"result":"모"}', '{"type":"throw","team":0,"result":"도"}',
          '{"type":"move","team":0,"result":"모","piece":0}', '{"type":"move","team":0,"result":"도","piece":0}'], 5,
         "say which"),
        ([HEAD, '[1,2]'], 2, "JSON object"),
        ([HEAD.replace('"first": 0', '"first": 5')], 1, "first must be"),
        ([HEAD.replace('"official"', '"vegas"')], 1, "unknown rule profile"),
        ([HEAD, '{"type":"throw","team":0,"result":"도","t":-1}'], 2, "match-clock seconds"),
    ],
)  # fmt: skip
def test_malformed_or_illegal_lines_name_the_line(lines, line_no, message):
    with pytest.raises(MatchError, match=message) as info:
        replay_text("\n".join(lines))
    assert info.value.line == line_no
    assert str(info.value).startswith(f"line {line_no}:")


def test_replay_json_contract(tmp_path, capsys):
    f = tmp_path / "m.yutlog"
    f.write_text(GOOD, encoding="utf-8")
    assert main(["replay", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"teams", "turn", "phase", "pending", "bonus_throws", "winner", "judged"} <= set(out)
    assert out["teams"][0]["name"] == "청룡"
    assert out["teams"][0]["pieces"][0] == {"id": 0, "at": "모개"}
    assert out["teams"][1]["pieces"][3] == {"id": 3, "at": "대기"}
    assert (out["turn"], out["phase"], out["pending"], out["bonus_throws"]) == (1, "move", ["걸"], 0)
    assert out["winner"] is None and out["judged"] is None


def test_replay_text_summary(tmp_path, capsys):
    f = tmp_path / "m.yutlog"
    f.write_text(GOOD, encoding="utf-8")
    assert main(["replay", str(f)]) == 0
    out = capsys.readouterr().out
    assert "청룡" in out and "0:모개" in out and "남은 결과 걸" in out


def test_replay_after_time_up_reports_the_judgement(tmp_path, capsys):
    f = tmp_path / "m.yutlog"
    f.write_text(GOOD + '\n{"type":"move","team":1,"result":"걸","piece":0}\n{"type":"time_up"}\n', encoding="utf-8")
    assert main(["replay", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["phase"] == "over" and out["pending"] == [] and out["bonus_throws"] == 0
    # equal finished (0) and on board (1): 모개 is 1+9=10 steps away (via 속윷), 걸 is 18
    assert out["judged"] == {"finished": [0, 0], "on_board": [1, 1], "remaining_steps": [10 + 63, 18 + 63],
                             "decided_by": "remaining_steps"}  # fmt: skip
    assert out["winner"] == 0


def test_illegal_line_exits_2_and_prints_nothing_on_stdout(tmp_path, capsys):
    f = tmp_path / "bad.yutlog"
    f.write_text(GOOD + '\n{"type":"move","team":1,"result":"도","piece":0}\n', encoding="utf-8")
    assert main(["replay", str(f), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "line 7" in captured.err and "not a pending result" in captured.err and "rule:" in captured.err


@pytest.mark.parametrize("content", [b"\xff\xfe garbage", b""])
def test_unreadable_files(tmp_path, capsys, content):
    f = tmp_path / "x.yutlog"
    f.write_bytes(content)
    assert main(["replay", str(f)]) == 2
    assert capsys.readouterr().err.startswith("yut-cam:")


def test_missing_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.yutlog")]) == 2
    assert "no such record" in capsys.readouterr().err


def test_moves_json(tmp_path, capsys):
    f = tmp_path / "m.yutlog"
    f.write_text(GOOD, encoding="utf-8")
    assert main(["moves", str(f), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    assert moves == [
        {"type": "move", "team": 1, "result": "걸", "piece": 0, "to": "걸", "from": "대기", "pieces": [0],
         "route": ["도", "개", "걸"]}
    ]  # fmt: skip


def test_blank_lines_are_counted_and_line_separators_inside_strings_are_kept():
    text = HEAD + '\n\n{"type":"throw","team":0,"result":"개","note":"a\u2028b"}\n\n{"type":"throw","team":0,"result":"도"}\n'
    with pytest.raises(MatchError) as info:
        replay_text(text)
    assert info.value.line == 5
