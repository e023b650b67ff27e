"""The reader's doubts, and a calibration's warnings, in the referee's words.

:func:`yut_cam.vision.reader.read_image` says why a reading needs the referee in English
(``Reading.reasons``: the record, the CLI and the benchmarks keep that text). The console
shows them in Korean: :func:`korean` turns each one into the sentence a referee acts on,
naming the stick by the number drawn beside its box in the annotated picture.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_KOREAN: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), k) for p, k in (
    (r"^stick (\d+): at the mat's edge", r"\1번 윷이 멍석 가장자리에 있습니다: 멍석에 닿았는지 보세요 (닿지 않았으면 낙)"),
    (r"^stick (\d+): just off the mat", r"\1번 윷이 멍석 바로 밖에 있습니다: 멍석에 닿았는지 보세요 (닿았으면 낙이 아님)"),
    (r"^stick (\d+): off the mat but seen only in part \((\d+%)",
     r"멍석 밖에는 \1번 윷만 있는데 일부만 보입니다 (길이의 \2): 윷이 맞는지 보세요 (윷이면 낙)"),
    (r"^stick (\d+): off the mat and of the floor's colour",
     r"멍석 밖의 \1번 윷이 바닥과 같은 색입니다 (그림자?): 윷이 맞는지 보세요 (윷이면 낙)"),
    (r"^stick (\d+): face unsure \(in light ([\d.]+) times brighter",
     r"\1번 윷이 보정 때 윷들이 놓였던 곳보다 \2배 밝은 빛 속에 있어 배·등이 확실하지 않습니다"),
    (r"^stick (\d+): face unsure \(in light ([\d.]+) times darker",
     r"\1번 윷이 보정 때 윷들이 놓였던 곳보다 \2배 어두운 빛 속에 있어 배·등이 확실하지 않습니다"),
    (r"^stick (\d+): face unsure", r"\1번 윷의 배·등이 확실하지 않습니다"),
    (r"^stick (\d+): a dark band along one side", r"\1번 윷 한쪽 가장자리가 어둡습니다 (그림자?): 그 부분을 빼면 배로 보입니다"),
    (r"^stick (\d+): looks like neither face", r"\1번 윷이 배도 등도 닮지 않았습니다 (그림자나 옆 윷이 겹침)"),
    (r"^stick (\d+): seen only in part \((\d+%)", r"\1번 윷이 일부만 보입니다 (길이의 \2)"),
    (r"^stick (\d+): its two halves read as different faces",
     r"\1번 윷의 두 끝이 서로 다른 면으로 보입니다 (그림자나 옆 윷)"),
    (r"^stick (\d+): mostly covered by another stick", r"\1번 윷이 다른 윷에 거의 가려졌습니다"),
    (r"^stick (\d+): glare over the stick", r"\1번 윷에 빛이 반사됩니다"),
    (r"^빽도 mark not learned at calibration: is stick (\d+)",
     r"보정에서 빽도 표시를 배우지 못했습니다: \1번 윷(배)이 빽도 윷인지 보세요 (빽도 또는 도)"),
    (r"^빽도 mark no longer read here \(the referee corrected it\): is stick (\d+)",
     r"이 장소에서는 빽도 표시를 더 읽지 않습니다 (심판이 고친 적이 있음): \1번 윷(배)이 빽도 윷인지 보세요 (빽도 또는 도)"),
    (r"^빽도 mark faint at calibration \((\d+%) of its end\): is stick (\d+)",
     r"보정 때 빽도 표시가 흐리게 보였습니다 (끝의 \1): \2번 윷(배)이 빽도 윷인지 보세요 (빽도 또는 도)"),
    (r"^빽도 mark small at calibration \((\d+%) of its end\): is stick (\d+)",
     r"보정 때 빽도 표시가 작게 보였습니다 (끝의 \1): 던진 사진에서는 안 보일 수 있으니 \2번 윷(배)이 빽도 윷인지 보세요"
     " (빽도 또는 도)"),
    (r"^빽도 mark unsure: stick (\d+) is ([\d.]+) times as light",
     r"빽도 표시가 확실하지 않습니다: \1번 윷이 보정 때의 빽도 윷보다 훨씬 어둡거나 밝게 보입니다 (\2배): 끝에 표시가 있는지 보세요"),
    (r"^빽도 mark unsure: an end of stick (\d+) reads only (\d+%) as marked",
     r"빽도 표시가 확실하지 않습니다: \1번 윷의 끝이 보정 때의 빽도 표시보다 훨씬 좁게만 표시처럼 보입니다 (\2):"
     " 옹이나 얼룩이 아닌지, 끝에 표시가 있는지 보세요"),
    (r"^빽도 mark unsure: an end of stick (\d+) reads ([\d.]+) times as marked",
     r"빽도 표시가 확실하지 않습니다: \1번 윷의 끝이 보정 때의 빽도 표시보다 훨씬 넓게 표시처럼 보입니다 (\2배):"
     " 그림자나 멍석 테두리가 아닌지, 끝에 표시가 있는지 보세요"),
    (r"^빽도 mark unsure: what looks like the mark at an end of stick (\d+) is a thin line along it \((\d+%)",
     r"빽도 표시가 확실하지 않습니다: \1번 윷 끝의 표시 같은 것이 윷을 따라 난 가는 선입니다 (폭의 \2, 그림자 가장자리?):"
     " 끝에 표시가 있는지 보세요"),
    (r"^빽도 mark unsure: stick (\d+) shows only faintly at its ends",
     r"빽도 표시가 확실하지 않습니다: \1번 윷의 끝이 멍석과 거의 같은 색이라 흐리게만 보입니다 (끝에 표시가 있는지 보세요)"),
    (r"^빽도 mark unsure", "빽도 표시가 확실하지 않습니다: 배가 위인 윷 끝에 표시가 있는지 보세요"),
    (r"^빽도 mark may be hidden: an end of stick (\d+)",
     r"빽도 표시가 가려졌을 수 있습니다: \1번 윷의 한쪽 끝이 다른 윷에 닿아 있습니다"),
    (r"^빽도 mark may be missed: stick (\d+) was read on (\d+%)",
     r"빽도 표시를 놓쳤을 수 있습니다: \1번 윷이 길이의 \2만 보였습니다 (끝에 표시가 있는지 보세요)"),
    (r"^(\d+) stick\(s\) seen only in small part", r"윷 \1개가 조금만 보입니다"),
    (r"^stick (\d+): stands on its edge", r"\1번 윷이 옆으로 서 있는 것 같습니다"),
    (r"^a stick stands on its edge", "윷 하나가 옆으로 서 있는 것 같습니다"),  # records before it named the stick
    (r"^a region of ([\d.]+) sticks' area read as one stick", r"윷 \1개 크기의 덩어리를 윷 하나로 읽었습니다"),
    (r"^(\d+) sticks merged beyond clean separation", r"윷 \1개가 붙어 있어 깨끗이 나누지 못했습니다"),
    (r"^(\d+) touching sticks: two of the boxes they were split into lie on one place",
     r"붙은 윷 \1개를 나눈 칸 두 개가 한 자리에 겹칩니다: 나눔이 확실하지 않으니 윷마다 배·등을 보세요"),
    (r"^a region of ([\d.]+) sticks' area with (\d+) stick\(s\)' outline",
     r"윷 \1개 크기의 덩어리에서 윷 \2개의 모양만 찾았습니다: 윷 하나가 멍석 밖이나 그림자 속에 있는지 보세요"),
    (r"^only (\d+) stick\(s\) found", r"윷을 \1개만 찾았습니다"),
    (r"^(\d+) stick-like regions, expected 4",
     r"윷 같은 것이 \1개 보입니다 (가장 윷다운 4개로 읽음): 그림자나 물건이 멍석 위에 있는지 보세요"),
    (r"^reader error: (\d+%) of the mat differs from the empty mat",
     r"판독 오류: 멍석의 \1가 빈 멍석 사진과 다릅니다: 카메라가 움직였거나 무엇이 멍석을 가렸는지 보세요"
     " (카메라가 움직였으면 다시 보정하세요)"),
    (r"^reader error: image is blank", "판독 오류: 사진이 한 가지 색뿐입니다: 카메라 렌즈나 연결을 보세요"),
    (r"^reader error: (.*)$", r"판독 오류: \1"),
    # what a calibration that worked cannot read (Calibration.warnings)
    (r"^the 빽도 mark is no longer read", "심판이 카메라의 도/빽도 판독을 고쳤으므로 이 장소에서는 빽도 표시를 더 읽지"
     " 않습니다: 배가 하나만 위인 던지기는 모두 심판이 도인지 빽도인지 정합니다. 다시 보정하면 빽도도 다시 읽습니다"),
    (r"^the 빽도 mark is not learned yet", "빽도 표시가 있는 윷을 아직 모릅니다: 심판이 빽도를 한두 번 확인하면 그 던지기에서"
     " 배웁니다. 그때까지 배가 하나만 위인 던지기는 심판이 도인지 빽도인지 정합니다"),
    (r"^the 빽도 mark shows faintly \((\d+%) of its end\)",
     r"빽도 표시가 흐리게 보입니다 (끝의 \1): 배가 하나만 위인 던지기는 모두 심판이 도인지 빽도인지 정합니다."
     " 도와 빽도를 스스로 읽게 하려면 표시가 잘 보이게 배 사진(2번)을 다시 찍거나 표시를 더 진하게 하세요"),
    (r"^the 빽도 mark shows small \((\d+%) of its end\)",
     r"빽도 표시가 작게 보입니다 (끝의 \1): 던진 사진에서는 안 보일 수 있어 도로 읽은 던지기는 심판이 도인지 빽도인지"
     " 정합니다. 도를 스스로 읽게 하려면 표시가 잘 보이게 배 사진(2번)을 다시 찍거나 표시를 더 크고 진하게 하세요"),
    (r"^the mat's edge is unsure: it may lie up to (\d+) px inside the outline found and (\d+) px outside it",
     r"멍석 가장자리가 확실하지 않습니다: 찾은 윤곽보다 \1 px 안쪽이나 \2 px 바깥쪽에서 멍석이 끝날 수 있습니다"
     " (바닥과 비슷한 테두리). 윤곽 가까이에 윷이 있는 던지기는 매번 심판이 정합니다. 빈 멍석 사진에서 멍석 윤곽을"
     " 탭하고 다시 보정하면 한 번에 정해집니다"),
    (r"^the 빽도 mark was not learned", "빽도 표시를 배우지 못했습니다: 배가 하나만 위인 던지기는 모두 심판이 도인지 빽도인지"
     " 정합니다. 빽도도 읽게 하려면 표시가 잘 보이게 배 사진(2번)을 다시 찍고 보정하세요"),
))


# the reasons that doubt the 빽도 mark itself (its score near the threshold, faint, not
# learned) or whether the sticks' ends were seen (under another stick, seen in part): the
# referee's answer to such a throw says nothing of how the venue's mark reads
# (yut_cam.vision.learning.distrust_mark)
_DOUBTS_MARK = re.compile(r"^(빽도 mark |stick \d+: (seen only in part|mostly covered by another stick)"
                          r"|\d+ stick\(s\) seen only in small part)")


def doubts_mark(reason: str) -> bool:
    """Whether ``reason`` (one of ``Reading.reasons``) doubts the 빽도 mark or the sight of a
    stick's ends."""
    return _DOUBTS_MARK.match(reason) is not None


_NAMES_STICK = re.compile(r"\bstick (\d+)\b")


def asked_sticks(reasons: Iterable[str]) -> frozenset[int]:
    """The sticks that ``reasons`` (``Reading.reasons``) ask the referee to look at, by their
    index in ``Reading.sticks`` (each reason names its stick by number, from 1)."""
    return frozenset(int(m.group(1)) - 1 for reason in reasons for m in _NAMES_STICK.finditer(reason))


_AT_EDGE = re.compile(r"^stick (\d+): at the mat's edge")


def at_edge_sticks(reasons: Iterable[str]) -> frozenset[int]:
    """The sticks that ``reasons`` ask about as lying at the mat's edge, inside its outline
    (a stick there may be the one off the mat), by their index in ``Reading.sticks``."""
    return frozenset(int(m.group(1)) - 1 for m in map(_AT_EDGE.match, reasons) if m)


def korean(reason: str) -> str:
    """``reason`` (one of ``Reading.reasons`` or ``Calibration.warnings``) in Korean; one this module does not know
    stays as it is, so nothing the reader says is lost."""
    for pattern, template in _KOREAN:
        m = pattern.match(reason)
        if m:
            return m.expand(template)
    return reason
