"""SVG chart of stick statistics: observed vs expected counts of the six results.

A hand-written SVG string (no plotting library) so the Pi, the record sheet and the replay
page can all show it as is. Korean labels, counts on the bars, the chi-square line and the
verdict underneath. An orange tick on each observed bar marks the count expected if every
stick showed 배 at the estimated rate: when the ticks sit on the bars, one flat-side rate
explains the deviation; when they do not, the sticks differ from one another.
"""

from __future__ import annotations

import math
from html import escape

from yut_cam.replay.stickmodel import IDEAL_ODDS, RESULTS, result_probabilities
from yut_cam.replay.stickstats import StickStats

__all__ = ["render_svg", "format_p_value"]

WIDTH, HEIGHT = 800, 500
_PLOT_LEFT, _PLOT_RIGHT, _PLOT_TOP, _PLOT_BOTTOM = 64, 780, 60, 296
_FONT = "'Noto Sans KR','Noto Sans CJK KR','NanumGothic','Nanum Gothic','Apple SD Gothic Neo','Malgun Gothic',sans-serif"
_OBSERVED = "#2b6cb0"
_EXPECTED_FILL = "#e2e8f0"
_EXPECTED_STROKE = "#4a5568"
_FITTED = "#dd6b20"


def format_p_value(p: float) -> str:
    """'p = 0.031', 'p < 0.001'."""
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3f}"


def _nice_step(top: float) -> float:
    raw = max(top, 1.0) / 5.0
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return max(1.0, float(m * mag))  # counts are whole numbers
    return float(10 * mag)  # pragma: no cover - the loop always returns


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, body: str, size: int = 13, anchor: str = "start", extra: str = "") -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{escape(body)}</text>'
    )


def render_svg(stats: StickStats) -> str:
    """The chart as a standalone SVG document (UTF-8 text)."""
    observed = [stats.counts[r] for r in RESULTS]
    expected = [stats.expected[r] for r in RESULTS]
    fitted_top = 0.0
    if stats.flat_rate is not None:
        fitted_top = stats.throws * max(result_probabilities(stats.flat_rate.rate).values())
    highest = max(observed + expected + [fitted_top, 1.0]) * 1.08
    step = _nice_step(highest)
    top = step * math.ceil(highest / step)
    plot_h = _PLOT_BOTTOM - _PLOT_TOP

    def y_of(v: float) -> float:
        return _PLOT_BOTTOM - plot_h * v / top

    title = f"윷가락 통계 — 던진 {stats.throws}번" + (f" (낙 {stats.nak}번 제외)" if stats.nak else "")
    desc = "관측 대 기대 횟수: " + ", ".join(
        f"{r} {o}/{_fmt(e)}" for r, o, e in zip(RESULTS, observed, expected, strict=True)
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" font-family="{_FONT}">',
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(desc)}</desc>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        _text(_PLOT_LEFT - 40, 34, title, 19, extra=' font-weight="bold" fill="#1a202c"'),
        # legend
        f'<rect x="400" y="20" width="16" height="16" fill="{_OBSERVED}"/>',
        _text(422, 33, "관측 (observed)", 13, extra=' fill="#1a202c"'),
        f'<rect x="540" y="20" width="16" height="16" fill="{_EXPECTED_FILL}" stroke="{_EXPECTED_STROKE}" '
        'stroke-dasharray="3 2"/>',
        _text(562, 33, "기대 (이상 확률)", 13, extra=' fill="#1a202c"'),
    ]
    fitted: list[float] | None = None
    if stats.flat_rate is not None:
        probs = result_probabilities(stats.flat_rate.rate)
        fitted = [stats.throws * probs[r] for r in RESULTS]
        parts.append(f'<line x1="676" y1="28" x2="694" y2="28" stroke="{_FITTED}" stroke-width="3"/>')
        parts.append(_text(698, 33, f"배 {100 * stats.flat_rate.rate:.0f}%일 때", 13, extra=' fill="#1a202c"'))
    # grid and y axis
    ticks = int(round(top / step))
    for i in range(ticks + 1):
        v = i * step
        y = y_of(v)
        parts.append(f'<line x1="{_PLOT_LEFT}" y1="{y:.1f}" x2="{_PLOT_RIGHT}" y2="{y:.1f}" stroke="#edf2f7"/>')
        parts.append(_text(_PLOT_LEFT - 8, y + 4, _fmt(v), 11, "end", ' fill="#4a5568"'))
    parts.append(
        f'<line x1="{_PLOT_LEFT}" y1="{_PLOT_BOTTOM}" x2="{_PLOT_RIGHT}" y2="{_PLOT_BOTTOM}" stroke="#2d3748"/>'
    )
    parts.append(
        _text(18, (_PLOT_TOP + _PLOT_BOTTOM) / 2, "횟수", 12, "middle",
              f' fill="#4a5568" transform="rotate(-90 18 {(_PLOT_TOP + _PLOT_BOTTOM) / 2:.1f})"')
    )
    slot = (_PLOT_RIGHT - _PLOT_LEFT) / len(RESULTS)
    bar_w = slot * 0.32
    for i, r in enumerate(RESULTS):
        cx = _PLOT_LEFT + slot * (i + 0.5)
        o, e = observed[i], expected[i]
        ox, ex = cx - bar_w - 2, cx + 2
        parts.append(f'<g class="result" data-result="{r}" data-observed="{o}" data-expected="{e:.4f}">')
        parts.append(
            f'<rect class="observed" x="{ox:.1f}" y="{y_of(o):.1f}" width="{bar_w:.1f}" '
            f'height="{_PLOT_BOTTOM - y_of(o):.1f}" fill="{_OBSERVED}"/>'
        )
        parts.append(
            f'<rect class="expected" x="{ex:.1f}" y="{y_of(e):.1f}" width="{bar_w:.1f}" '
            f'height="{_PLOT_BOTTOM - y_of(e):.1f}" fill="{_EXPECTED_FILL}" stroke="{_EXPECTED_STROKE}" '
            'stroke-dasharray="3 2"/>'
        )
        if fitted is not None:
            fy = y_of(fitted[i])
            parts.append(
                f'<line class="fitted" x1="{ox - 3:.1f}" y1="{fy:.1f}" x2="{ox + bar_w + 3:.1f}" y2="{fy:.1f}" '
                f'stroke="{_FITTED}" stroke-width="3"/>'
            )
        parts.append(_text(ox + bar_w / 2, min(y_of(o), y_of(fitted[i]) if fitted else y_of(o)) - 6, str(o), 14, "middle", ' font-weight="bold" fill="#1a365d"'))
        parts.append(_text(ex + bar_w / 2, y_of(e) - 6, _fmt(e), 12, "middle", ' fill="#4a5568"'))
        parts.append(_text(cx, _PLOT_BOTTOM + 24, r, 18, "middle", ' font-weight="bold" fill="#1a202c"'))
        ideal = IDEAL_ODDS[r]
        parts.append(_text(cx, _PLOT_BOTTOM + 42, f"{int(ideal * 16)}/16", 11, "middle", ' fill="#718096"'))
        parts.append("</g>")
    lines: list[tuple[str, int, str]] = []
    test = stats.test
    if test is None:
        lines.append(("카이제곱 검정: 던진 횟수가 너무 적음 (chi-square: too few throws)", 14, "#1a202c"))
    else:
        pooled = " · 합친 칸 " + ", ".join(c.label for c in test.cells if len(c.results) > 1) if test.pooled else ""
        lines.append(
            (
                f"카이제곱 χ² = {test.statistic:.2f}, 자유도 {test.df}, {format_p_value(test.p_value)} "
                f"(유의수준 {stats.plan.alpha:g}){pooled}",
                14,
                "#c53030" if test.p_value < stats.plan.alpha else "#1a202c",
            )
        )
    if stats.flat_rate is not None:
        fr = stats.flat_rate
        sticks = ""
        if stats.marked_stick is not None and stats.plain_sticks is not None:
            sticks = (
                f" · 표시 가락 {100 * stats.marked_stick.rate:.0f}%"
                f" · 나머지 세 가락 {100 * stats.plain_sticks.rate:.0f}%"
            )
        lines.append(
            (f"배가 위로 {100 * fr.rate:.0f}% (95% {100 * fr.low:.0f}–{100 * fr.high:.0f}%){sticks}", 13, "#2d3748")
        )
    for chunk in stats.verdict.ko.split(" — "):
        lines.append((chunk, 13, "#1a202c"))
    for chunk in stats.verdict.en.split("; "):
        lines.append((chunk, 12, "#4a5568"))
    y = _PLOT_BOTTOM + 74.0
    for body, size, colour in lines:
        parts.append(_text(_PLOT_LEFT - 40, y, body, size, extra=f' class="caption" fill="{colour}"'))
        y += size + 8
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
