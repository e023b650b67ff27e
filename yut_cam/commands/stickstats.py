"""`yut-cam stick-stats`: fairness check of a stick set over recorded throws."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy is imported only when the command runs
    from yut_cam.replay.intervals import RateEstimate
    from yut_cam.replay.stickstats import StickStats, Throw


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "stick-stats",
        help="equipment check: are these sticks fair? (counts vs ideal odds, chi-square, flat-side rate)",
        description=(
            "Counts of 도 개 걸 윷 모 빽도 over the throws of one or more .yutlog records against the ideal "
            "16-case odds, Pearson's chi-square test, the flat-side-up (배) rate with a 95% interval, "
            "per-stick rates when the records carry stick faces, and a verdict with the number of throws "
            "still needed. 낙 throws are counted apart."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE.yutlog", help="match records (JSON Lines)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--svg", metavar="OUT.svg", help="also write a chart of observed vs expected counts")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--power", type=float, default=0.8, help="power wanted for the throws-needed figure (default 0.8)")
    p.add_argument(
        "--alternative",
        type=float,
        default=0.6,
        metavar="RATE",
        help="flat-side-up rate the check must catch (default 0.6, as measured on real sticks)",
    )
    p.set_defaults(handler=run)


def _rate(r: RateEstimate | None) -> str:
    if r is None:
        return "-"
    return f"{100 * r.rate:.1f}%  (95% {100 * r.low:.1f}–{100 * r.high:.1f}%, {r.successes}/{r.trials} faces, {r.method})"


def _width(text: str) -> int:
    """Terminal columns: Hangul and other wide characters take two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _cell(text: str, width: int, right: bool = False) -> str:
    pad = " " * max(0, width - _width(text))
    return pad + text if right else text + pad


def format_table(stats: StickStats) -> str:
    """The human-readable report."""
    from yut_cam.replay.stickchart import format_p_value
    from yut_cam.replay.stickmodel import IDEAL_ODDS, RESULTS

    out = [f"던진 횟수 (throws): {stats.throws}" + (f"   낙 {stats.nak}번 제외 (excluded)" if stats.nak else "")]
    out.append("")
    out.append(_cell("결과", 6) + _cell("관측", 8, True) + _cell("기대", 10, True) + _cell("이상 확률", 12, True))
    for r in RESULTS:
        out.append(
            _cell(r, 6)
            + _cell(str(stats.counts[r]), 8, True)
            + _cell(f"{stats.expected[r]:.2f}", 10, True)
            + _cell(f"{int(IDEAL_ODDS[r] * 16)}/16", 12, True)
        )
    out.append("")
    test = stats.test
    if test is None:
        out.append("카이제곱 (chi-square): 던진 횟수가 너무 적음 (too few throws for the test)")
    else:
        out.append(
            f"카이제곱 (chi-square): χ² = {test.statistic:.3f}, 자유도 (df) {test.df}, {format_p_value(test.p_value)}"
        )
    out.append(f"배가 위로 (flat side up), all sticks: {_rate(stats.flat_rate)}")
    if stats.marked_stick is not None or stats.plain_sticks is not None:
        out.append(f"  표시 가락 (marked stick):          {_rate(stats.marked_stick)}")
        out.append(f"  나머지 세 가락 (3 plain sticks):   {_rate(stats.plain_sticks)}")
        out.append(f"  가락 면이 있는 던짐 (throws with stick faces): {stats.throws_with_faces}")
    plan = stats.plan
    approx = "" if plan.exact else ", non-central χ² approximation"
    out.append(
        f"필요한 던짐 (throws needed to tell {100 * plan.alternative:.0f}% from 50%, power {100 * plan.power:.0f}%, "
        f"α {plan.alpha:g}): {plan.throws_needed} (power there {100 * plan.power_at_needed:.1f}%{approx}); "
        f"더 필요 (more): {plan.throws_more}"
        + (f"; power now {100 * plan.power_now:.1f}%" if plan.power_now is not None else "")
    )
    for note in stats.notes:
        out.append(f"참고: {note.ko}")
        out.append(f"note: {note.en}")
    out.append("")
    out.append(f"판정: {stats.verdict.ko}")
    out.append(f"verdict: {stats.verdict.en}")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    from yut_cam.replay.stickchart import render_svg
    from yut_cam.replay.stickstats import StickStatsError, analyse_throws, read_yutlog

    throws: list[Throw] = []
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as handle:
                throws.extend(read_yutlog(handle, source=name))
        except OSError as exc:
            print(f"yut-cam stick-stats: cannot read {name!r}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        except UnicodeDecodeError as exc:
            print(f"yut-cam stick-stats: {name!r} is not UTF-8 text ({exc.reason} at byte {exc.start})", file=sys.stderr)
            return 2
        except StickStatsError as exc:
            print(f"yut-cam stick-stats: {exc}", file=sys.stderr)
            return 2
    try:
        stats = analyse_throws(throws, alpha=args.alpha, power=args.power, alternative=args.alternative)
    except StickStatsError as exc:
        print(f"yut-cam stick-stats: {exc}", file=sys.stderr)
        return 2
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(render_svg(stats))
        except OSError as exc:
            print(f"yut-cam stick-stats: cannot write {args.svg!r}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(stats.as_json(), ensure_ascii=False, indent=2))
    else:
        print(format_table(stats))
    return 0
