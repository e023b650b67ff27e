"""Rule profiles: named sets of rule decisions, registered by name (like chess variants).

A profile differs from another only in the hooks it overrides.  ``official`` is DESIGN.md's
reading of the tournament rules (seed 000); ``house`` is the computer-opponent app's
(seed 001): a piece stopping on 방 always turns toward 참먹이, and a 빽도 thrown with no
piece on the board is discarded instead of counting as 낙.
"""

from __future__ import annotations

from functools import cached_property
from typing import ClassVar, Final, Literal

from yut_cam.rules import board
from yut_cam.rules.errors import UnknownProfileError

BackdoNoPiece = Literal["nak", "discard"]

#: One forward route: (destination, stations passed in order, previous station, diagonal origin).
Route = tuple[int, tuple[int, ...], int, int | None]


class Profile:
    """The official tournament profile; subclasses override hooks and class attributes."""

    name: ClassVar[str] = "official"
    title: ClassVar[str] = "공식 대회 규칙"
    #: What a 빽도 thrown with no piece on the board (and no forward result pending) does.
    backdo_no_piece: ClassVar[BackdoNoPiece] = "nak"

    def bang_exits(self, origin: int | None) -> tuple[int, ...]:
        """Where a move starting on 방 may go, given the corner its diagonal began at."""
        if origin == board.MO:
            return (board.SOK_YUT, board.BANGSUGI)
        return (board.BANGSUGI,)

    def start_exits(self, at: int, origin: int | None) -> tuple[int, ...]:
        """First steps a move starting on ``at`` may take (more than one = a choice)."""
        if at == board.CHAMMEOGI:
            return (board.FINISHED,)
        if at == board.MO:
            return (board.DWIT_DO, board.MO_DO)
        if at == board.DWIT_MO:
            return (board.JJI_DO, board.DWITMO_DO)
        if at == board.BANG:
            return self.bang_exits(origin)
        return (board.straight_on(at, at),)

    # --- derived tables, computed once per profile --------------------------------------

    def routes(self, at: int, origin: int | None, steps: int) -> tuple[Route, ...]:
        """Every forward route of ``steps`` (1..5) from ``at`` (a station or WAITING)."""
        return self._route_table[(at, origin, steps)]

    def longest_remaining(self, at: int, origin: int | None) -> int:
        """Steps still needed to pass 참먹이 along the longest route (off the board: 21)."""
        if at == board.WAITING:
            return self._longest(board.CHAMMEOGI, None, entering=True)
        if at == board.FINISHED:
            return 0
        return self._longest(at, origin)

    def _longest(self, at: int, origin: int | None, entering: bool = False) -> int:
        if at == board.FINISHED:
            return 0
        firsts = (board.DO,) if entering else self.start_exits(at, origin)
        return 1 + max(self._longest(e, _origin_after(at, e, origin)) for e in firsts)

    @cached_property
    def _route_table(self) -> dict[tuple[int, int | None, int], tuple[Route, ...]]:
        table: dict[tuple[int, int | None, int], tuple[Route, ...]] = {}
        origins = (None, board.MO, board.DWIT_MO)
        for steps in range(1, 6):
            route = tuple(range(1, steps + 1))
            for origin in origins:
                table[(board.WAITING, origin, steps)] = ((steps, route, steps - 1, None),)
            for at in range(board.NUM_STATIONS):
                for origin in origins:
                    table[(at, origin, steps)] = tuple(
                        _walk(at, first, origin, steps) for first in self.start_exits(at, origin)
                    )
        return table


def _origin_after(at: int, first: int, origin: int | None) -> int | None:
    if at == board.MO and first == board.MO_DO:
        return board.MO
    if at == board.DWIT_MO and first == board.DWITMO_DO:
        return board.DWIT_MO
    return origin


def _walk(at: int, first: int, origin: int | None, steps: int) -> Route:
    passed = [first]
    prev, cur = at, first
    for _ in range(steps - 1):
        if cur == board.FINISHED:
            break
        prev, cur = cur, board.straight_on(prev, cur)
        passed.append(cur)
    return (cur, tuple(passed), prev, _origin_after(at, first, origin))


class HouseProfile(Profile):
    """Seed 001's house rules: 방 always turns to 방수기; a 빽도 with no piece is dropped."""

    name: ClassVar[str] = "house"
    title: ClassVar[str] = "하우스 규칙 (연습 모드)"
    backdo_no_piece: ClassVar[BackdoNoPiece] = "discard"

    def bang_exits(self, origin: int | None) -> tuple[int, ...]:
        return (board.BANGSUGI,)


PROFILES: Final[dict[str, Profile]] = {p.name: p for p in (Profile(), HouseProfile())}


def get_profile(name: str | Profile) -> Profile:
    """A registered profile by name (``official``, ``house``)."""
    if isinstance(name, Profile):
        return name
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(PROFILES))
        raise UnknownProfileError(
            f"unknown rule profile {name!r}: known profiles are {known}",
            ko=f"{name!r} 규칙은 없습니다: 쓸 수 있는 규칙은 "
            + ", ".join(f"{p.name}({p.title})" for p in PROFILES.values()),
        ) from None
