"""The SVG chart's content and `yut-cam stick-stats` on small generated records."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from tests.stickstats.helpers import simulate_throws, throws_with_counts
from yut_cam.cli import main
from yut_cam.replay.stickchart import format_p_value, render_svg
from yut_cam.replay.stickmodel import RESULTS
from yut_cam.replay.stickstats import Throw, YutlogError, analyse_throws, read_yutlog

SVG = "{http://www.w3.org/2000/svg}"
HEADER = {
    "v": 1,
    "type": "match",
    "rules": "official",
    "teams": [
        {"name": "청룡", "throwers": ["a", "b"], "mover": "c", "reserves": []},
        {"name": "백호", "throwers": ["d", "e"], "mover": "f", "reserves": []},
    ],
    "first": 0,
}


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def test_svg_shows_counts_expected_labels_and_p_value() -> None:
    counts = {"도": 20, "개": 35, "걸": 25, "윷": 8, "모": 7, "빽도": 5}
    stats = analyse_throws(throws_with_counts(counts) + [Throw("낙")] * 2)
    svg = render_svg(stats)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") == "0 0 800 500"
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "result"]
    assert [g.get("data-result") for g in groups] == list(RESULTS)
    assert [int(g.get("data-observed") or -1) for g in groups] == [counts[r] for r in RESULTS]
    assert [float(g.get("data-expected") or -1) for g in groups] == [18.75, 37.5, 25.0, 6.25, 6.25, 6.25]
    words = texts(root)
    for r in RESULTS:
        assert r in words
    for c in ("20", "35", "25", "8", "7", "5", "18.8", "37.5", "6.2"):
        assert c in words
    assert "3/16" in words and "6/16" in words
    assert any("χ² = 1.08" in w and "자유도 5" in w and "p = 0.956" in w for w in words)
    assert any(w.startswith("공정 범위") for w in words)
    assert any(w.startswith("fair within what 100 throws") for w in words)
    assert "던진 100번 (낙 2번 제외)" in (root.findtext(f"{SVG}title") or "")
    # taller observed bar for the larger count
    bars = {g.get("data-result"): g.find(f"{SVG}rect[@class='observed']") for g in groups}
    heights = {r: float(b.get("height") or 0) for r, b in bars.items() if b is not None}
    assert heights["개"] > heights["도"] > heights["윷"] > heights["빽도"] > 0
    # the orange ticks: counts expected at the estimated flat-side rate (50.5% here)
    fitted = [line for line in root.iter(f"{SVG}line") if line.get("class") == "fitted"]
    assert len(fitted) == 6
    assert "배 50%일 때" in words or "배 51%일 때" in words


def test_svg_for_pooled_and_empty_sessions() -> None:
    small = analyse_throws(simulate_throws(30, np.random.default_rng(4), 0.5))
    words = texts(ET.fromstring(render_svg(small)))
    assert any("자유도 2" in w and "합친 칸 모+빽도+도, 걸+윷" in w for w in words)
    assert any("51번 더 던져야 함" in w for w in words)
    empty = ET.fromstring(render_svg(analyse_throws([])))
    assert any("너무 적음" in w for w in texts(empty))


@pytest.mark.parametrize(("p", "text"), [(0.95604, "p = 0.956"), (0.0004, "p < 0.001"), (0.05, "p = 0.050")])
def test_p_value_format(p: float, text: str) -> None:
    assert format_p_value(p) == text


def write_log(path: Path, events: list[dict[str, object]], header: dict[str, object] | None = None) -> Path:
    lines = [json.dumps(header or HEADER, ensure_ascii=False)] + [json.dumps(e, ensure_ascii=False) for e in events]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def throw_events(n: int, seed: int, rate: float) -> list[dict[str, object]]:
    events: list[dict[str, object]] = []
    for i, t in enumerate(simulate_throws(n, np.random.default_rng(seed), rate)):
        assert t.sticks is not None
        sticks = [{"face": s.face, "marked": s.marked, "on_mat": True} for s in t.sticks]
        events.append({"type": "throw", "team": i % 2, "result": t.result, "sticks": sticks, "t": i * 20})
        events.append({"type": "move", "team": i % 2, "result": t.result, "piece": 0})
    return events


def test_cli_json_over_two_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = write_log(tmp_path / "a.yutlog", throw_events(50, 1, 0.62) + [{"type": "throw", "team": 0, "result": "낙"}])
    b = write_log(tmp_path / "b.yutlog", [{"type": "throw", "team": 1, "result": r} for r in ["개", "걸", "모"]])
    svg = tmp_path / "out.svg"
    assert main(["stick-stats", str(a), str(b), "--json", "--svg", str(svg)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["throws"] == 53 and out["nak"] == 1
    expected = analyse_throws(read_yutlog(a.read_text(encoding="utf-8").splitlines()) + [Throw(r) for r in ["개", "걸", "모"]])
    assert [row["observed"] for row in out["results"]] == [expected.counts[r] for r in RESULTS]
    assert out["chi_square"]["df"] == 3 and out["chi_square"]["pooled"] is True
    assert out["sticks"]["throws_with_faces"] == 50
    assert out["sticks"]["marked"]["trials"] == 50 and out["sticks"]["plain"]["trials"] == 150
    assert out["plan"]["throws_needed"] == 81 and out["plan"]["throws_more"] == 28
    assert out["verdict"]["code"] in {"fair", "biased"}
    assert out["verdict"]["en"] == expected.verdict.en
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag == f"{SVG}svg"


def test_cli_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    counts = {"도": 10, "개": 35, "걸": 35, "윷": 15, "모": 2, "빽도": 3}
    log = write_log(tmp_path / "m.yutlog", [{"type": "throw", "team": 0, "result": r} for r, c in counts.items() for _ in range(c)])
    assert main(["stick-stats", str(log)]) == 0
    out = capsys.readouterr().out
    assert "던진 횟수 (throws): 100" in out
    assert "χ² = 25.080, 자유도 (df) 5, p < 0.001" in out
    assert "62.0%" in out
    assert "판정: 치우침 의심 (배가 위로 ~62%" in out
    assert "verdict: biased: flat side up ~62%" in out
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith("빽도"))
    assert row.split() == ["빽도", "3", "6.25", "1/16"]


BAD = [
    ("{\"type\":\"throw\",\"result\":\"개\"}\n", 1, "match header"),
    ("", 1, "empty record"),
    (json.dumps(HEADER) + "\n{not json\n", 2, "not valid JSON"),
    (json.dumps(HEADER) + "\n[1, 2]\n", 2, "JSON object"),
    (json.dumps(HEADER) + "\n{\"result\":\"개\"}\n", 2, "without a \"type\""),
    (json.dumps(HEADER) + "\n{\"type\":\"throw\",\"result\":\"삼\"}\n", 2, "'삼'"),
    (json.dumps(HEADER) + "\n{\"type\":\"throw\"}\n", 2, "got None"),
    (
        json.dumps(HEADER) + "\n\n" + json.dumps({"type": "throw", "result": "개", "sticks": [{"face": "배", "marked": True}]}),
        3,
        "4 sticks, got 1",
    ),
    (
        json.dumps(HEADER) + "\n" + json.dumps({"type": "throw", "result": "개", "sticks": [{"face": "옆"}] * 4}),
        2,
        "'옆'",
    ),
    (
        json.dumps(HEADER) + "\n" + json.dumps({"type": "throw", "result": "개", "sticks": [{"face": "배", "marked": "yes"}] * 4}),
        2,
        "'yes'",
    ),
    (json.dumps(HEADER) + "\n" + json.dumps({"type": "throw", "result": "개", "sticks": "배배등등"}), 2, "list of 4"),
    (
        json.dumps(HEADER) + "\n" + json.dumps({"type": "throw", "result": "개", "sticks": [{"face": "배", "marked": False}] * 4}),
        2,
        "exactly one stick is marked, got 0",
    ),
]


@pytest.mark.parametrize(("text", "line", "message"), BAD)
def test_bad_lines_name_the_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, message: str
) -> None:
    path = tmp_path / "bad.yutlog"
    path.write_text(text, encoding="utf-8")
    assert main(["stick-stats", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert (f"bad.yutlog:{line}:" in err) if line else ("bad.yutlog: empty" in err)
    with pytest.raises(YutlogError):
        read_yutlog(text.splitlines(), source="x")


def test_non_throw_events_and_sticks_of_nak_are_ignored() -> None:
    lines = [
        json.dumps(HEADER),
        json.dumps({"type": "warning", "team": 0}),
        json.dumps({"type": "throw", "result": "낙", "sticks": [{"face": "배"}]}),
        json.dumps({"type": "throw", "result": "윷", "sticks": None}),
        json.dumps({"type": "time_up"}),
    ]
    assert read_yutlog(lines) == [Throw("낙"), Throw("윷")]


def test_cli_missing_file_and_bad_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stick-stats", str(tmp_path / "nope.yutlog")]) == 2
    assert "nope.yutlog" in capsys.readouterr().err
    log = write_log(tmp_path / "m.yutlog", [])
    assert main(["stick-stats", str(log), "--alternative", "0.5"]) == 2
    assert "0.5" in capsys.readouterr().err
    latin1 = tmp_path / "l.yutlog"
    latin1.write_bytes(b'{"type":"match"}\n{"type":"throw","result":"\xb0\xb3"}\n')
    assert main(["stick-stats", str(latin1)]) == 2
    assert "not UTF-8" in capsys.readouterr().err
