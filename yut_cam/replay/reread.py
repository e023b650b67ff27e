"""Re-reading a recorded match's throws with the current reader (``yut-cam reread``).

For every throw event that has a capture (numbered as :mod:`yut_cam.replay.timeline`
says) the settled frame is read again with a calibration, and the result is compared with
what the referee decided (the confirmed event's ``result``).  The HTML report puts the
settled frame, the new annotated frame and the one recorded at the time side by side, the
disagreements first; its images are copied into a folder beside it, so the report and its
folder can be zipped and sent as they are.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yut_cam.replay.source import MatchSource
from yut_cam.replay.timeline import Timeline, build, mmss, title_of, undone_indices

if TYPE_CHECKING:
    from yut_cam.vision.calibration import Calibration


@dataclass(frozen=True)
class RereadRow:
    index: int  # the event's position in the record
    capture: int
    clock: str
    team: str
    decided: str  # what the referee confirmed
    old: str | None  # what the camera read at the time (reading.json), if recorded
    new: str | None  # what the current reader says (None: the image could not be read)
    confidence: float | None
    needs_referee: bool
    reasons: tuple[str, ...]
    undone: bool
    settled: str | None  # image paths relative to the report
    annotated_new: str | None
    annotated_old: str | None
    error: str | None = None

    @property
    def disagrees(self) -> bool:
        return self.new is not None and self.new != self.decided

    @property
    def changed(self) -> bool:
        """The current reader reads differently from the camera at the time."""
        return self.new is not None and self.old is not None and self.new != self.old


@dataclass(frozen=True)
class RereadReport:
    title: str
    source: str
    calibration: str
    rows: tuple[RereadRow, ...]
    #: capture directories no event of the record points to (readings thrown away)
    unreferenced: tuple[int, ...]
    #: capture numbers the record points to that have no settled.jpg (not recorded)
    missing: tuple[int, ...] = ()

    @property
    def disagreements(self) -> tuple[RereadRow, ...]:
        return tuple(r for r in self.rows if r.disagrees)

    @property
    def read(self) -> int:
        return sum(r.new is not None for r in self.rows)


def _old_result(folder: Path) -> str | None:
    import json

    try:
        data = json.loads((folder / "reading.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    result = data.get("result") if isinstance(data, dict) else None
    return result if isinstance(result, str) else None


def reread(source: MatchSource, calibration: Calibration, images: Path, *, calibration_label: str = "",
           timeline: Timeline | None = None) -> RereadReport:
    """Read every captured throw again; copy and draw the images into ``images`` (created).
    Image paths in the rows are relative to ``images.parent`` (where the report goes)."""
    import cv2

    from yut_cam.vision.annotate import annotate
    from yut_cam.vision.errors import VisionError
    from yut_cam.vision.reader import load_image, read_image

    tl = timeline or build(source.header, source.events, strict=False)
    undone = undone_indices(tl.steps)
    images.mkdir(parents=True, exist_ok=True)
    rel = images.name
    rows: list[RereadRow] = []
    missing: list[int] = []
    seen: set[int] = set()
    for step in tl.steps:
        n = step.capture
        if n is None:
            continue
        seen.add(n)
        team_no = step.event.get("team")
        team = step.before.lineups[team_no].name if team_no in (0, 1) else ""
        decided = str(step.event.get("result", ""))
        folder = source.capture_dir(n)
        settled_path = folder / "settled.jpg" if folder is not None else None
        base = RereadRow(index=step.index, capture=n, clock=mmss(step.t), team=team, decided=decided, old=None,
                         new=None, confidence=None, needs_referee=False, reasons=(), undone=step.index in undone,
                         settled=None, annotated_new=None, annotated_old=None)
        if settled_path is None or not settled_path.is_file():
            missing.append(n)
            continue
        assert folder is not None
        old = _old_result(folder)
        settled = f"{rel}/{n}-settled.jpg"
        shutil.copyfile(settled_path, images.parent / settled)
        annotated_old = None
        if (folder / "annotated.jpg").is_file():
            annotated_old = f"{rel}/{n}-old.jpg"
            shutil.copyfile(folder / "annotated.jpg", images.parent / annotated_old)
        try:
            image = load_image(str(settled_path))
            reading = read_image(image, calibration)
        except VisionError as exc:
            rows.append(replace(base, old=old, needs_referee=True, settled=settled, annotated_old=annotated_old,
                                error=str(exc)))
            continue
        annotated_new = f"{rel}/{n}-new.jpg"
        cv2.imwrite(str(images.parent / annotated_new), annotate(image, reading, calibration),
                    [cv2.IMWRITE_JPEG_QUALITY, 88])
        rows.append(replace(base, old=old, new=reading.result, confidence=reading.confidence,
                            needs_referee=reading.needs_referee, reasons=reading.reasons, settled=settled,
                            annotated_new=annotated_new, annotated_old=annotated_old))
    unreferenced = tuple(n for n in source.capture_numbers() if n not in seen)
    return RereadReport(title_of(tl.header), source.label, calibration_label, tuple(rows), unreferenced,
                        tuple(missing))


_TEMPLATE = """<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>다시 판독 — {{ r.title }}</title>
<style>
 body { font-family: "Noto Sans CJK KR", "Noto Sans KR", "NanumGothic", "Malgun Gothic", sans-serif; margin: 16px;
        color: #111; background: #fafafa; }
 h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 24px 0 8px; }
 .meta { color: #555; font-size: 14px; }
 .summary { font-size: 17px; margin: 10px 0; padding: 8px 12px; background: #fff; border: 1px solid #ccc; }
 .throw { background: #fff; border: 1px solid #ccc; border-radius: 6px; margin: 10px 0; padding: 8px 10px; }
 .throw.disagree { border: 2px solid #c62828; }
 .throw.undone { opacity: .7; }
 .head { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: baseline; }
 .head .n { font-weight: 800; font-size: 18px; }
 .res b { font-size: 18px; } .res.bad b { color: #c62828; } .res.good b { color: #2e7d32; }
 .reasons { color: #8d6e00; font-size: 13px; margin: 4px 0; }
 .err { color: #c62828; }
 .imgs { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 6px; }
 .imgs figure { margin: 0; } .imgs figcaption { font-size: 13px; color: #555; }
 .imgs img { width: 100%; display: block; border: 1px solid #ddd; background: #000; }
 table { border-collapse: collapse; font-size: 14px; } td, th { border: 1px solid #ccc; padding: 2px 8px; }
 tr.bad td { color: #c62828; font-weight: 700; }
</style></head><body>
<h1>다시 판독 (현재 판독기) — {{ r.title }}</h1>
<p class="meta">기록: {{ r.source }} · 보정: {{ r.calibration }}</p>
<p class="summary" id="summary">촬영된 던지기 {{ r.rows|length }}번 중 {{ r.read }}번 판독,
 <b>심판 판정과 다름 {{ r.disagreements|length }}번</b>{% if r.missing %} · 촬영 파일이 없는 던지기 {{ r.missing|length }}번{% endif %}{% if r.unreferenced %} · 기록에 없는 촬영 {{ r.unreferenced|join(", ") }}{% endif %}</p>
{% macro card(x) %}
<section class="throw{% if x.disagrees %} disagree{% endif %}{% if x.undone %} undone{% endif %}" id="capture-{{ x.capture }}" data-capture="{{ x.capture }}" data-decided="{{ x.decided }}" data-new="{{ x.new or '' }}">
 <div class="head"><span class="n">촬영 #{{ x.capture }}</span><span>{{ x.clock }} · {{ x.team }} · 기록 {{ x.index }}번{% if x.undone %} (되돌리기로 취소됨){% endif %}</span>
  <span class="res">심판 판정 <b>{{ x.decided }}</b></span>
  <span class="res">당시 판독 <b>{{ x.old or "-" }}</b></span>
  <span class="res {{ 'bad' if x.disagrees else 'good' }}">현재 판독 <b>{{ x.new or "-" }}</b>{% if x.confidence is not none %} ({{ (x.confidence * 100)|round|int }}%){% endif %}</span></div>
 {% if x.error %}<p class="err">{{ x.error }}</p>{% endif %}
 {% if x.reasons %}<p class="reasons">확인 필요: {{ x.reasons|join("; ") }}</p>{% endif %}
 <div class="imgs">
  <figure><figcaption>정지 화면</figcaption>{% if x.settled %}<img src="{{ x.settled }}" alt="정지 화면 {{ x.capture }}" loading="lazy">{% else %}없음{% endif %}</figure>
  <figure><figcaption>현재 판독</figcaption>{% if x.annotated_new %}<img src="{{ x.annotated_new }}" alt="현재 판독 {{ x.capture }}" loading="lazy">{% else %}없음{% endif %}</figure>
  <figure><figcaption>당시 판독</figcaption>{% if x.annotated_old %}<img src="{{ x.annotated_old }}" alt="당시 판독 {{ x.capture }}" loading="lazy">{% else %}없음{% endif %}</figure>
 </div>
</section>
{% endmacro %}
<h2>심판 판정과 다른 판독 ({{ r.disagreements|length }})</h2>
{% for x in r.disagreements %}{{ card(x) }}{% else %}<p>없음 — 현재 판독기가 모든 판정과 같습니다.</p>{% endfor %}
<h2>모든 던지기</h2>
<table id="all"><thead><tr><th>촬영</th><th>시간</th><th>팀</th><th>심판</th><th>당시</th><th>현재</th><th>신뢰도</th></tr></thead><tbody>
{% for x in r.rows %}<tr class="{{ 'bad' if x.disagrees else '' }}"><td><a href="#capture-{{ x.capture }}">{{ x.capture }}</a></td><td>{{ x.clock }}</td><td>{{ x.team }}</td>
<td>{{ x.decided }}</td><td>{{ x.old or "-" }}</td><td>{{ x.new or "-" }}</td><td>{% if x.confidence is not none %}{{ (x.confidence * 100)|round|int }}%{% endif %}</td></tr>{% endfor %}
</tbody></table>
<h2>판정과 같은 판독</h2>
{% for x in r.rows if not x.disagrees %}{{ card(x) }}{% endfor %}
</body></html>
"""


def report_html(report: RereadReport) -> str:
    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(default=True, default_for_string=True))
    return env.from_string(_TEMPLATE).render(r=report)


def write_report(source: MatchSource, calibration: Calibration, out: Path, *, calibration_label: str = "") -> RereadReport:
    """Re-read and write ``out`` (HTML) with its images in ``<out stem>-images/`` beside it."""
    from yut_cam.store import atomic_write_bytes

    images = out.parent / f"{out.stem}-images"
    report = reread(source, calibration, images, calibration_label=calibration_label)
    atomic_write_bytes(out, report_html(report).encode("utf-8"))
    return report


def summary_json(report: RereadReport) -> dict[str, Any]:
    return {
        "throws": len(report.rows),
        "read": report.read,
        "disagreements": [
            {"capture": r.capture, "index": r.index, "decided": r.decided, "new": r.new, "old": r.old}
            for r in report.disagreements
        ],
        "unreferenced": list(report.unreferenced),
        "missing": len(report.missing),
    }


__all__ = ["RereadReport", "RereadRow", "report_html", "reread", "summary_json", "write_report"]
