"""Rules engine throughput: legal-move generation and apply/undo per second, one core.

    .venv/bin/python -m bench.rules [--seconds 3]

Plays seeded random games (ideal throw odds) and times, separately, `legal_moves`,
`apply_move` + undo (pop of an immutable state) and `apply_throw`.
"""

from __future__ import annotations

import argparse
import random
import time

from yut_cam.rules import RESULTS, Game, GameState, Phase, apply_move, apply_throw, legal_moves, new_game


def positions(n: int, seed: int = 7) -> list[GameState]:
    rng = random.Random(seed)
    out: list[GameState] = []
    state = new_game()
    weights = [3, 6, 4, 1, 1, 1, 1]
    while len(out) < n:
        if state.phase is Phase.OVER:
            state = new_game(first=rng.randrange(2))
        elif state.phase is Phase.THROW:
            state = apply_throw(state, state.turn, rng.choices(RESULTS, weights)[0])
        else:
            out.append(state)
            state = apply_move(state, rng.choice(legal_moves(state)))
    return out


def rate(fn, seconds: float) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        count += fn()
    return count / elapsed, count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    pool = positions(5000)
    moves = [(s, legal_moves(s)) for s in pool]

    def gen() -> int:
        for s in pool:
            legal_moves(s)
        return len(pool)

    def apply_undo() -> int:
        g = Game()
        n = 0
        for s, ms in moves:
            g.state = s
            for m in ms:
                g.push(m)
                g.pop()
                n += 1
        return n

    def throws() -> int:
        n = 0
        for _ in range(200):
            s = new_game()
            for r in ("윷", "모", "개"):
                s = apply_throw(s, s.turn, r)
                n += 1
        return n

    rows = [
        ("legal_moves (positions/s)", *rate(gen, args.seconds)),
        ("apply_move + undo (moves/s)", *rate(apply_undo, args.seconds)),
        ("apply_throw (throws/s)", *rate(throws, args.seconds)),
    ]
    avg = sum(len(ms) for _, ms in moves) / len(moves)
    print(f"rules engine, one core, {len(pool)} move-phase positions ({avg:.1f} legal moves each)")
    print(f"{'measure':32} {'per second':>12} {'count':>10}")
    for name, per_s, count in rows:
        print(f"{name:32} {per_s:12,.0f} {count:10,}")


if __name__ == "__main__":
    main()
