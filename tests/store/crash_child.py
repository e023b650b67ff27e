"""Child process of the crash test: appends a deterministic stream of events forever.

Run as ``python -m tests.store.crash_child DB [bulk]``. On start it prints ``ready MATCH LAST``
(the last seq it finds in the store), then appends event ``LAST+1``, ``LAST+2``, … and
prints each seq only after :meth:`EventStore.append` has returned (i.e. acknowledged).
The parent kills it with SIGKILL at random moments and checks nothing acknowledged is lost.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from yut_cam.store import EventStore

HEADER: dict[str, Any] = {
    "v": 1,
    "type": "match",
    "rules": "official",
    "teams": [
        {"name": "청룡", "throwers": ["가", "나", "다"], "mover": "라", "reserves": []},
        {"name": "백호", "throwers": ["마", "바", "사"], "mover": "아", "reserves": []},
    ],
    "first": 0,
}
RESULTS = ("도", "개", "걸", "윷", "모", "빽도", "낙")


def event_for(seq: int) -> dict[str, Any]:
    """The exact content of event ``seq`` (sizes vary so rows straddle pages)."""
    return {
        "type": "throw",
        "team": seq % 2,
        "result": RESULTS[(seq * 5) % len(RESULTS)],
        "n": seq,
        "t": round(seq * 1.25, 2),
        "note": "윷놀이 " * (seq % 53),
        "sticks": [{"face": "배" if (seq >> k) & 1 else "등", "k": k} for k in range(4)],
    }


def _check(previous: Sequence[dict[str, Any]], event: dict[str, Any]) -> None:
    if event["n"] != len(previous) + 1:
        raise ValueError(f"event n={event['n']} after {len(previous)} events")


BULK = 150


def import_forever(store: EventStore) -> None:
    """Mode "bulk": store whole records (header + BULK events, one transaction) forever."""
    print("ready", flush=True)
    events = [event_for(seq) for seq in range(1, BULK + 1)]
    while True:
        print(store.create_match(HEADER, events=events, finished=True), flush=True)


def main(argv: Sequence[str]) -> int:
    db = argv[0]
    store = EventStore(db)
    if argv[1:] == ["bulk"]:
        import_forever(store)
    summaries = store.matches()
    match_id = summaries[0].id if summaries else store.create_match(HEADER)
    last = store.last_seq(match_id)
    print(f"ready {match_id} {last}", flush=True)
    while last < 1_000_000:
        seq = store.append(match_id, event_for(last + 1), check=_check, expect_seq=last)
        if seq != last + 1:
            raise SystemExit(f"append returned seq {seq}, expected {last + 1}")
        print(seq, flush=True)
        last = seq
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
