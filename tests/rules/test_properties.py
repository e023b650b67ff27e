"""Properties over random games: conservation, legality, determinism of replay."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from yut_cam.match import dumps_event, replay_text, state_json
from yut_cam.rules import RESULTS, GameState, Phase, apply_move, apply_throw, find_move, legal_moves, new_game
from yut_cam.rules.board import name_of

HEADER = (
    '{"v":1,"type":"match","rules":"%s","teams":[{"name":"청룡","throwers":["a","b","c"],"mover":"d"},'
    '{"name":"백호","throwers":["e","f","g"],"mover":"h"}],"first":%d}'
)


def play_random(seed: int, profile: str, steps: int) -> tuple[list[GameState], list[dict]]:
    rng = random.Random(seed)
    state = new_game(profile, first=seed % 2)
    states, events = [state], []
    weights = [3, 6, 4, 1, 1, 1, 1]  # 도 개 걸 윷 모 빽도 낙 (낙 rare)
    for _ in range(steps):
        if state.phase is Phase.OVER:
            break
        if state.phase is Phase.THROW:
            result = rng.choices(RESULTS, weights)[0]
            events.append({"type": "throw", "team": state.turn, "result": result.value})
            state = apply_throw(state, state.turn, result)
        else:
            moves = legal_moves(state)
            assert moves, "a move phase always has a legal move"
            m = rng.choice(moves)
            events.append(
                {"type": "move", "team": m.team, "result": m.result.value, "piece": m.piece, "to": name_of(m.to)}
            )
            state = apply_move(state, m)
        states.append(state)
    return states, events


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), profile=st.sampled_from(["official", "house"]))
def test_four_pieces_per_team_always_accounted_for(seed, profile):
    states, _ = play_random(seed, profile, 400)
    for s in states:
        for team in range(2):
            assert len(s.pieces[team]) == 4
        # a station never holds both teams
        for team in range(2):
            for station in s.stacks(team):
                assert station not in s.stacks(1 - team)
        if s.phase is Phase.THROW:
            assert s.pending == () or all(t.throws_again for t in s.pending)
        if s.phase is Phase.OVER:
            assert s.pending == () and s.bonus_throws == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), profile=st.sampled_from(["official", "house"]))
def test_no_listed_move_is_rejected(seed, profile):
    states, _ = play_random(seed, profile, 300)
    for s in states:
        for m in legal_moves(s):
            found = find_move(s, m.team, m.piece, m.result, m.to)
            assert (found.to, found.route, found.pieces) == (m.to, m.route, m.pieces)
            after = apply_move(s, m)
            assert after.phase in (Phase.MOVE, Phase.THROW, Phase.OVER)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), profile=st.sampled_from(["official", "house"]))
def test_replaying_a_written_record_reproduces_the_state(seed, profile):
    states, events = play_random(seed, profile, 300)
    text = "\n".join([HEADER % (profile, seed % 2)] + [dumps_event(e) for e in events])
    replayed = replay_text(text)
    assert replayed.game == states[-1]
    again = replay_text(text)
    assert state_json(again) == state_json(replayed)


def test_random_games_finish():
    finished = 0
    for seed in range(40):
        states, _ = play_random(seed, "official", 3000)
        finished += states[-1].phase is Phase.OVER
    assert finished == 40
