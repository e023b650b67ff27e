"""The 29-station 윷말판 (DESIGN.md "The board"), its graph and its round-board geometry.

Stations are small integers; their canonical names are the Korean ones, with ASCII slugs as
aliases.  Outer ring 0..19 counter-clockwise from 참먹이; the diagonals follow.

Movement is a directed graph with choices only where a move *starts* (모, 뒷모 and 방);
a piece passing through a station goes straight on.  ``FINISHED`` is where a piece goes when
it passes 참먹이 and ``WAITING`` is off the board before it enters.
"""

from __future__ import annotations

import math
from typing import Final

from yut_cam.rules.errors import UnknownStationError

WAITING: Final = -1
FINISHED: Final = -2

#: (Korean name, slug), indexed by station number.
_STATIONS: Final[tuple[tuple[str, str], ...]] = (
    ("참먹이", "chammeogi"),
    ("도", "do"),
    ("개", "gae"),
    ("걸", "geol"),
    ("윷", "yut"),
    ("모", "mo"),
    ("뒷도", "dwit_do"),
    ("뒷개", "dwit_gae"),
    ("뒷걸", "dwit_geol"),
    ("뒷윷", "dwit_yut"),
    ("뒷모", "dwit_mo"),
    ("찌도", "jji_do"),
    ("찌개", "jji_gae"),
    ("찌걸", "jji_geol"),
    ("찌윷", "jji_yut"),
    ("찌모", "jji_mo"),
    ("날도", "nal_do"),
    ("날개", "nal_gae"),
    ("날걸", "nal_geol"),
    ("날윷", "nal_yut"),
    ("모도", "mo_do"),
    ("모개", "mo_gae"),
    ("방", "bang"),
    ("속윷", "sok_yut"),
    ("속모", "sok_mo"),
    ("뒷모도", "dwitmo_do"),
    ("뒷모개", "dwitmo_gae"),
    ("방수기", "bangsugi"),
    ("안찌", "anjji"),
)

NUM_STATIONS: Final = len(_STATIONS)
NAMES: Final[tuple[str, ...]] = tuple(name for name, _ in _STATIONS)
SLUGS: Final[tuple[str, ...]] = tuple(slug for _, slug in _STATIONS)

WAITING_NAME: Final = "대기"
FINISHED_NAME: Final = "났음"

_BY_NAME: Final[dict[str, int]] = {
    **{name: i for i, name in enumerate(NAMES)},
    **{slug: i for i, slug in enumerate(SLUGS)},
    WAITING_NAME: WAITING,
    "waiting": WAITING,
    FINISHED_NAME: FINISHED,
    "finished": FINISHED,
}

CHAMMEOGI: Final = 0
DO: Final = 1
MO: Final = 5
DWIT_MO: Final = 10
JJI_DO: Final = 11
JJI_MO: Final = 15
NAL_DO: Final = 16
MO_DO: Final = 20
MO_GAE: Final = 21
BANG: Final = 22
SOK_YUT: Final = 23
SOK_MO: Final = 24
DWITMO_DO: Final = 25
DWITMO_GAE: Final = 26
BANGSUGI: Final = 27
ANJJI: Final = 28
DWIT_DO: Final = 6

#: The four corners of the board.
CORNERS: Final = (CHAMMEOGI, MO, DWIT_MO, JJI_MO)


def station(name: str | int) -> int:
    """The station number of a Korean name, a slug, or 대기/났음 (WAITING/FINISHED)."""
    if isinstance(name, int) and not isinstance(name, bool):
        if WAITING >= name >= FINISHED or 0 <= name < NUM_STATIONS:
            return name
        raise UnknownStationError(
            f"no station number {name!r} (0..{NUM_STATIONS - 1})",
            ko=f"윷말판에 {name!r}번 자리는 없습니다 (자리 번호는 0~{NUM_STATIONS - 1})",
        )
    if isinstance(name, str):
        key = name.strip()
        found = _BY_NAME.get(key, _BY_NAME.get(key.lower()))
        if found is not None:
            return found
    raise UnknownStationError(
        f"unknown station {name!r}: use a Korean name such as 모개 or a slug such as mo_gae",
        ko=f"윷말판에 {name!r} 자리는 없습니다: 모개, 방, 참먹이처럼 자리 이름을 쓰세요",
    )


def name_of(index: int) -> str:
    """The canonical Korean name of a station, or 대기 / 났음."""
    if index == WAITING:
        return WAITING_NAME
    if index == FINISHED:
        return FINISHED_NAME
    if not 0 <= index < NUM_STATIONS:
        raise UnknownStationError(f"no station number {index!r}", ko=f"윷말판에 {index!r}번 자리는 없습니다")
    return NAMES[index]


def slug_of(index: int) -> str:
    if index == WAITING:
        return "waiting"
    if index == FINISHED:
        return "finished"
    return SLUGS[index]


def straight_on(previous: int, current: int) -> int:
    """The station after ``current`` for a piece passing through it, coming from ``previous``.

    Passing through a choice station never turns: 모 goes on to 뒷도, 뒷모 to 찌도, 방 goes
    straight across (모개 → 방 → 속윷, 뒷모개 → 방 → 방수기), 찌모 to 날도 and passing
    참먹이 finishes the piece.
    """
    if current == CHAMMEOGI:
        return FINISHED
    if current == BANG:
        return SOK_YUT if previous == MO_GAE else BANGSUGI
    return _OUTER_OR_LINE_NEXT[current]


def _line_next() -> dict[int, int]:
    nxt = {i: i + 1 for i in range(0, 19)}
    nxt[19] = CHAMMEOGI
    nxt.update(
        {
            MO_DO: MO_GAE,
            MO_GAE: BANG,
            SOK_YUT: SOK_MO,
            SOK_MO: JJI_MO,
            DWITMO_DO: DWITMO_GAE,
            DWITMO_GAE: BANG,
            BANGSUGI: ANJJI,
            ANJJI: CHAMMEOGI,
        }
    )
    return nxt


_OUTER_OR_LINE_NEXT: Final[dict[int, int]] = _line_next()


# --- geometry -------------------------------------------------------------------------

#: Angle (degrees, counter-clockwise from the +x axis, y up) of 참먹이 in the default
#: orientation: the bottom right, as on the familiar square board.
DEFAULT_START_ANGLE: Final = -45.0


def coordinates(rotation_deg: float = 0.0) -> tuple[tuple[float, float], ...]:
    """Round-board coordinates of every station on the unit circle, y pointing up.

    The 20 outer stations sit 18° apart with the corners on two crossing diameters and
    방 at the centre; two stations lie between each corner and 방 (at 2/3 and 1/3 of the
    radius).  ``rotation_deg`` turns the whole board counter-clockwise to match the
    physical board at the venue.
    """
    start = math.radians(DEFAULT_START_ANGLE + rotation_deg)
    points: list[tuple[float, float]] = []
    for i in range(20):
        a = start + math.radians(18.0 * i)
        points.append((math.cos(a), math.sin(a)))

    def along(corner: int, fraction: float) -> tuple[float, float]:
        x, y = points[corner]
        return (x * fraction, y * fraction)

    points += [
        along(MO, 2 / 3),  # 모도
        along(MO, 1 / 3),  # 모개
        (0.0, 0.0),  # 방
        along(JJI_MO, 1 / 3),  # 속윷
        along(JJI_MO, 2 / 3),  # 속모
        along(DWIT_MO, 2 / 3),  # 뒷모도
        along(DWIT_MO, 1 / 3),  # 뒷모개
        along(CHAMMEOGI, 1 / 3),  # 방수기
        along(CHAMMEOGI, 2 / 3),  # 안찌
    ]
    return tuple((round(x, 6) + 0.0, round(y, 6) + 0.0) for x, y in points)


def edges() -> tuple[tuple[int, int], ...]:
    """Every drawn line of the board as (from, to) station pairs."""
    pairs = [(i, (i + 1) % 20) for i in range(20)]
    pairs += [
        (MO, MO_DO), (MO_DO, MO_GAE), (MO_GAE, BANG), (BANG, SOK_YUT), (SOK_YUT, SOK_MO),
        (SOK_MO, JJI_MO), (DWIT_MO, DWITMO_DO), (DWITMO_DO, DWITMO_GAE), (DWITMO_GAE, BANG),
        (BANG, BANGSUGI), (BANGSUGI, ANJJI), (ANJJI, CHAMMEOGI),
    ]  # fmt: skip
    return tuple(pairs)
