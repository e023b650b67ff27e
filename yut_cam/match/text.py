"""A plain-text rendering of a match state, for terminals (``yut-cam replay``)."""

from __future__ import annotations

from yut_cam.match import clock
from yut_cam.match.state import MatchState
from yut_cam.rules import board

MARKS = ("●", "○")

#: Rows of the board as text, on a 11×11 grid: (row, col) of each station.  Outer ring
#: counter-clockwise from 참먹이 at the bottom right, like the familiar board.
_GRID: dict[int, tuple[int, int]] = {
    0: (10, 10), 1: (8, 10), 2: (6, 10), 3: (4, 10), 4: (2, 10), 5: (0, 10),
    6: (0, 8), 7: (0, 6), 8: (0, 4), 9: (0, 2), 10: (0, 0),
    11: (2, 0), 12: (4, 0), 13: (6, 0), 14: (8, 0), 15: (10, 0),
    16: (10, 2), 17: (10, 4), 18: (10, 6), 19: (10, 8),
    20: (2, 8), 21: (3, 7), 22: (5, 5), 23: (7, 3), 24: (8, 2),
    25: (2, 2), 26: (3, 3), 27: (7, 7), 28: (8, 8),
}  # fmt: skip


def board_text(state: MatchState) -> str:
    spots = set(_GRID.values())
    cells = [["  ·  " if (r, c) in spots else "     " for c in range(11)] for r in range(11)]
    game = state.game
    if game is not None:
        for team in range(2):
            for at, ids in game.stacks(team).items():
                r, c = _GRID[at]
                cells[r][c] = f" {MARKS[team]}{len(ids) if len(ids) > 1 else ' '}  "
    return "\n".join("".join(row).rstrip() for row in cells)


def summary(state: MatchState) -> str:
    lines = [board_text(state), ""]
    game = state.game
    for i, team in enumerate(state.lineups):
        if game is None:
            where = "대기 4"
        else:
            ps = game.pieces[i]
            on = ", ".join(f"{n}:{board.name_of(p.at)}" for n, p in enumerate(ps) if p.on_board) or "-"
            where = f"판 위 {on} | 대기 {sum(p.waiting for p in ps)} | 났음 {sum(p.finished for p in ps)}"
        lines.append(f"{MARKS[i]} {team.name}: {where} | 경고 {state.team_warnings(i)}")
    lines.append(f"경기 시간 남음 {clock.format_clock(state.match_remaining(), tenths=False)}")
    if game is None:
        lines.append("선공 결정 전 (감독 윷 던지기)")
    elif game.over:
        if state.winner is None:
            lines.append("경기 종료: 무승부 — 심판이 결정")
        else:
            how = state.decided_by or ""
            lines.append(f"경기 종료: {state.lineups[state.winner].name} 승리 ({how})")
    else:
        team = state.lineups[game.turn]
        pending = " ".join(t.value for t in game.pending) or "-"
        what = "던질 차례" if game.phase.value == "throw" else "말 쓸 차례"
        lines.append(
            f"{team.name} {what} (다음 던지는 선수 {state.next_thrower_name(game.turn)}); "
            f"남은 결과 {pending}; 보너스 던지기 {game.bonus_throws}"
        )
    return "\n".join(lines)
