"""Per-match subscriber queues for the SSE streams (one process, gevent-friendly).

Under gunicorn's gevent worker the standard library is monkey-patched, so ``queue.Queue``
and ``threading.Lock`` are greenlet-aware; under the Flask test client they are the real
thing.  A message is encoded once per publish and shared by every subscriber.  A slow
subscriber never blocks the publisher: when its queue is full the stale messages are
dropped and only the newest is kept (each ``state`` message is a complete state).
"""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass, field
from typing import Any

QUEUE_SIZE = 32


@dataclass(frozen=True, slots=True)
class Message:
    event: str
    data: str  # JSON text
    wire: bytes = b""  # the SSE frame, encoded once for every subscriber

    def encode(self) -> bytes:
        return self.wire or f"event: {self.event}\ndata: {self.data}\n\n".encode()


def message(event: str, payload: Any) -> Message:
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return Message(event, data, f"event: {event}\ndata: {data}\n\n".encode())


@dataclass(eq=False)
class Subscription:
    match_id: int
    queue: queue.Queue[Message] = field(default_factory=lambda: queue.Queue(QUEUE_SIZE))
    dropped: int = 0

    def get(self, timeout: float) -> Message | None:
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def put(self, msg: Message) -> None:
        try:
            self.queue.put_nowait(msg)
        except queue.Full:
            while True:
                try:
                    self.queue.get_nowait()
                    self.dropped += 1
                except queue.Empty:
                    break
            self.queue.put_nowait(msg)


class Broker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, set[Subscription]] = {}

    def subscribe(self, match_id: int) -> Subscription:
        sub = Subscription(match_id)
        with self._lock:
            self._subs.setdefault(match_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subs.get(sub.match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[sub.match_id]

    def count(self, match_id: int | None = None) -> int:
        with self._lock:
            if match_id is None:
                return sum(len(s) for s in self._subs.values())
            return len(self._subs.get(match_id, ()))

    def publish(self, match_id: int, msg: Message) -> int:
        with self._lock:
            subs = list(self._subs.get(match_id, ()))
        for sub in subs:
            sub.put(msg)
        return len(subs)
