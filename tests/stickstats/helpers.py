"""Seeded synthetic throws for the stick statistics tests."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from yut_cam.replay.stickstats import Stick, Throw

_BY_FLATS = {0: "모", 2: "개", 3: "걸", 4: "윷"}


def result_of(faces: Sequence[bool], marked: int = 0) -> str:
    """The result four faces show (True = 배 up); stick ``marked`` carries the mark."""
    flats = sum(bool(f) for f in faces)
    if flats == 1:
        return "빽도" if faces[marked] else "도"
    return _BY_FLATS[flats]


def throw_of(faces: Sequence[bool], marked: int = 0) -> Throw:
    sticks = tuple(Stick("배" if f else "등", i == marked) for i, f in enumerate(faces))
    return Throw(result_of(faces, marked), sticks)


def simulate_throws(
    n: int, rng: np.random.Generator, flat_rate: float | Sequence[float] = 0.5, faces: bool = True
) -> list[Throw]:
    """``n`` throws of four sticks; ``flat_rate`` is shared or per stick (stick 0 is marked)."""
    rates = np.broadcast_to(np.asarray(flat_rate, dtype=np.float64), (4,))
    up = rng.random((n, 4)) < rates
    # Throws are immutable: one object per face pattern (16 of them), indexed by the bits.
    table = [throw_of([bool(code >> i & 1) for i in range(4)]) for code in range(16)]
    if not faces:
        table = [Throw(t.result) for t in table]
    codes = up.astype(np.int64) @ np.array([1, 2, 4, 8], dtype=np.int64)
    return [table[int(c)] for c in codes]


def throws_with_counts(counts: dict[str, int]) -> list[Throw]:
    return [Throw(r) for r, c in counts.items() for _ in range(c)]
