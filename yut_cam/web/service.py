"""The live match service: the I/O edge between the pure match layer and the world.

For each match it holds the :class:`~yut_cam.match.MatchState` (rebuilt by replaying the
store on start, so every unfinished match resumes exactly where it was) and a
:class:`~yut_cam.web.clock.MatchClock` that stamps each accepted event's ``t``.

An event goes: parse → ``match.apply`` on a copy (refused events change nothing) →
``EventStore.append`` with a check hook that refuses it if memory and store disagree →
durable → memory updated → published to the SSE subscribers.  Acknowledged = durable.

After a restart a running clock resumes from the last recorded ``t``; the wall-clock time
since that event (the service was down for at least part of it) is reported as
``offline_gap`` for the referee to charge or forgive (:meth:`MatchService.settle_gap`).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from yut_cam.hardware.timer import TimerState
from yut_cam.match import (
    Header,
    MatchError,
    MatchState,
    RecordFormatError,
    apply,
    clock,
    moves_json,
    parse_event,
    replay,
    state_json,
)
from yut_cam.store import (
    CaptureStore,
    EventRefusedError,
    EventStore,
    InvalidEventError,
    MatchFinishedError,
    SeqConflictError,
    StoreError,
    UnknownMatchError,
)
from yut_cam.vision.reasons import korean
from yut_cam.vision.types import RESULTS
from yut_cam.web import views
from yut_cam.web.clock import MatchClock, stamp
from yut_cam.web.errors import BadRequestError, ConflictError, IllegalError, NotFoundError
from yut_cam.web.pubsub import Broker, message

log = logging.getLogger(__name__)

Event = dict[str, Any]
CAPTURE_FILES = ("settled.jpg", "annotated.jpg", "clip.mp4", "clip.avi", "reading.json")


@dataclass
class LiveMatch:
    id: int
    title: str
    status: str
    header: Header
    state: MatchState
    seq: int
    events: list[tuple[int, Event]]
    clock: MatchClock
    offline_gap: float | None = None
    reading: dict[str, Any] | None = None
    capture_no: int = 0
    last_throw_image: str | None = None
    last_move: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class _StaleMemory(Exception):
    pass


def _running(state: MatchState) -> bool:
    return state.started and state.stopped is None and not state.over


class MatchService:
    """All matches of one store, live.  Thread- and greenlet-safe (one re-entrant lock)."""

    def __init__(
        self,
        store: EventStore,
        captures: CaptureStore,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        rotation: float = 0.0,
    ) -> None:
        self.store = store
        self.captures = captures
        self.rotation = rotation
        self._mono = monotonic
        self.monotonic = monotonic
        self._wall = wall
        self._lock = threading.RLock()
        self._matches: dict[int, LiveMatch] = {}
        self.broker = Broker()
        self.listeners: list[Callable[[int], None]] = []
        #: called with (match id, capture number, result) once the referee has confirmed a
        #: camera reading (as read or corrected) and the throw is stored
        self.confirm_listeners: list[Callable[[int, int, str], object]] = []
        self.led_text: Callable[[], str | None] | None = None
        self.camera_status: Callable[[], dict[str, Any]] | None = None
        #: monotonic time of the last write by a logged-in referee (the autopilot yields)
        self.last_referee_action = float("-inf")
        for summary in store.unfinished():
            try:
                self._load(summary.id)
            except MatchError as exc:
                log.error("match %d cannot be resumed: %s", summary.id, exc)

    # -- loading -------------------------------------------------------------------------

    def _load(self, match_id: int) -> LiveMatch:
        try:
            header_json = self.store.header(match_id)
            records = self.store.records(match_id)
            status = self.store.status(match_id)
        except UnknownMatchError:
            raise NotFoundError(f"no match {match_id}", rule="") from None
        header = Header.from_json(header_json)
        events = [r.event for r in records]
        state = replay(header, events)
        now = self._mono()
        running = _running(state) and status == "open"
        gap: float | None = None
        if running and records:
            gap = round(max(0.0, self._wall() - records[-1].recorded_at.timestamp()), 1)
        summary_title = next((m.title for m in self.store.matches() if m.id == match_id), "")
        live = LiveMatch(
            id=match_id,
            title=summary_title or header.title or " 대 ".join(t.name for t in header.teams),
            status=status,
            header=header,
            state=state,
            seq=len(records),
            events=[(r.seq, r.event) for r in records],
            clock=MatchClock(state.t, now if running else None),
            offline_gap=gap,
        )
        throws = self.captures.list(match_id)
        live.capture_no = max((c.throw_no for c in throws), default=0)
        confirmed = 0
        for _, event in reversed(live.events):
            n = event.get("capture")
            if event.get("type") in ("throw", "throwoff") and isinstance(n, int) and n > 0:
                live.last_throw_image = self._image_url(match_id, n)
                confirmed = n
                break
        if status == "open" and live.capture_no > confirmed:
            live.reading = self._stored_reading(match_id, live.capture_no)
        if live.events and live.events[-1][1].get("type") == "move" and state.previous is not None:
            live.last_move = views.move_view(state.previous, live.events[-1][1])
        self._matches[match_id] = live
        return live

    def _stored_reading(self, match_id: int, n: int) -> dict[str, Any] | None:
        """The reading of capture ``n`` as published before a restart (None if unreadable)."""
        path = self.captures.path_for(match_id, n) / "reading.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("n") != n or data.get("dismissed") \
                or not isinstance(data.get("result"), str):
            return None
        return data

    def _get(self, match_id: int) -> LiveMatch:
        live = self._matches.get(match_id)
        if live is None:
            try:
                live = self._load(match_id)
            except MatchError as exc:
                raise ConflictError(f"match {match_id} cannot be replayed: {exc}", rule=exc.rule) from None
        return live

    def _image_url(self, match_id: int, n: int) -> str | None:
        path = self.captures.path_for(match_id, n) / "annotated.jpg"
        return f"/api/matches/{match_id}/captures/{n}/annotated.jpg" if path.exists() else None

    # -- reading -------------------------------------------------------------------------

    def matches(self) -> list[dict[str, Any]]:
        return [
            {"id": m.id, "title": m.title, "status": m.status, "created": m.created.isoformat(),
             "events": m.event_count}
            for m in self.store.matches()
        ]  # fmt: skip

    def current_id(self) -> int | None:
        """The latest open match (what the LED timer, buttons and camera follow)."""
        with self._lock:
            open_ids = [i for i, m in self._matches.items() if m.status == "open"]
        return max(open_ids) if open_ids else None

    def events(self, match_id: int) -> list[dict[str, Any]]:
        with self._lock:
            return [{"seq": seq, "event": e} for seq, e in self._get(match_id).events]

    def t_now(self, match_id: int) -> float:
        with self._lock:
            return self._get(match_id).clock.t(self._mono())

    def live_state(self, match_id: int) -> dict[str, Any]:
        with self._lock:
            return self._live_state(self._get(match_id))

    def _live_state(self, live: LiveMatch) -> dict[str, Any]:
        t_now = min(live.clock.t(self._mono()), float(clock.MATCH_SECONDS))
        state = live.state
        out = state_json(state, t_now)
        led = self.led_text() if self.led_text is not None else None
        out.update(
            id=live.id,
            seq=live.seq,
            title=live.title,
            status=live.status,
            legal_moves=moves_json(state) if live.status == "open" else [],
            clock_sync=views.clock_sync(state, t_now, live.clock.running, self._wall()),
            reading=live.reading,
            last_throw_image=live.last_throw_image,
            history=views.history(live.events),
            last_move=live.last_move,
            led=None if led is None else {"text": led},
            offline_gap=live.offline_gap,
            camera=self.camera_status() if self.camera_status is not None else None,
        )
        return out

    def timer_snapshot(self, now: float) -> TimerState:
        """:class:`~yut_cam.hardware.timer.TimerSource` for the LED timer: the current match."""
        match_id = self.current_id()
        with self._lock:
            if match_id is None:
                return TimerState()
            live = self._matches[match_id]
            return views.timer_state(live.state, live.clock.t(now), live.clock.running)

    # -- writing -------------------------------------------------------------------------

    def create_match(self, header_json: Any) -> int:
        if not isinstance(header_json, dict):
            raise BadRequestError(f"a match header must be a JSON object, not {header_json!r}")
        raw = {"v": 1, "type": "match", **header_json}
        try:
            header = Header.from_json(raw)
        except RecordFormatError as exc:
            raise BadRequestError(exc.message, exc.rule, ko=exc.ko) from None
        stored = header.to_json()
        try:
            match_id = self.store.create_match(stored, title=header.title or None)
        except InvalidEventError as exc:
            raise BadRequestError(str(exc)) from None
        with self._lock:
            self._load(match_id)
        return match_id

    def submit(self, match_id: int, event: Any, expect_seq: Any = None) -> tuple[int, dict[str, Any]]:
        """Stamp, validate, append durably, update memory, publish; → (seq, LIVE STATE)."""
        if not isinstance(event, dict):
            raise BadRequestError(f'"event" must be a JSON object, not {event!r}')
        if expect_seq is not None and (not isinstance(expect_seq, int) or isinstance(expect_seq, bool)):
            raise BadRequestError(f'"expect_seq" must be an integer, not {expect_seq!r}')
        body = {k: v for k, v in event.items() if k != "t" and not str(k).startswith("_")}
        with self._lock:
            live = self._get_open(match_id)
            self._maybe_time_up(live)
            if expect_seq is not None and expect_seq != live.seq:
                raise ConflictError(
                    f"match {match_id}: expected the last event to be #{expect_seq}, but it is #{live.seq} "
                    "(someone else recorded an event; reload and retry)",
                    rule="expect_seq",
                    ko=f"다른 기록이 먼저 들어왔습니다 (마지막 기록 #{expect_seq} 대신 #{live.seq}): "
                    "새 상태를 보고 다시 하세요",
                )
            body["t"] = stamp(live.clock.t(self._mono()))
            seq = self._append(live, body, expect_seq)
            return seq, self._live_state(live)

    def confirm_reading(self, match_id: int, result: Any, expect_seq: Any = None) -> tuple[int, dict[str, Any]]:
        """The camera's (or the referee's corrected) result becomes the throw event of the
        next thrower — or a throw-off throw while the first attacker is undecided."""
        if not isinstance(result, str):
            raise BadRequestError(
                f'"result" must be one of 도 개 걸 윷 모 빽도 낙, not {result!r}',
                ko=f"윷 결과는 도 개 걸 윷 모 빽도 낙 가운데 하나여야 합니다 (받은 값: {result!r})",
            )
        with self._lock:
            live = self._get_open(match_id)
            state = live.state
            event: Event
            if state.game is None:
                team = next((i for i in (0, 1) if state.throwoff[i] is None), 0)
                event = {"type": "throwoff", "team": team, "result": result}
            else:
                team = state.game.turn
                event = {"type": "throw", "team": team, "result": result,
                         "thrower": state.next_thrower_name(team)}  # fmt: skip
            capture = None if live.reading is None else int(live.reading["n"])
            if capture is not None:
                event["capture"] = capture
            seq, state_json = self.submit(match_id, event, expect_seq)
        if capture is not None:
            for listener in list(self.confirm_listeners):
                try:
                    listener(match_id, capture, result)
                except Exception:  # learning from a throw never undoes or blocks the throw
                    log.exception("match %d capture %d: confirmation listener failed", match_id, capture)
        return seq, state_json

    def _get_open(self, match_id: int) -> LiveMatch:
        live = self._get(match_id)
        if live.status != "open":
            raise ConflictError(
                f"match {match_id} is finished; it takes no more events",
                rule="경기 종료",
                ko=f"{match_id}번 경기는 끝났습니다: 더 기록할 수 없습니다",
            )
        return live

    def _append(self, live: LiveMatch, event: Event, expect_seq: int | None) -> int:
        try:
            parsed = parse_event(event)
        except RecordFormatError as exc:
            raise BadRequestError(exc.message, exc.rule, ko=exc.ko) from None
        try:
            new_state = apply(live.state, parsed)
        except MatchError as exc:
            raise IllegalError(exc.message, exc.rule, ko=exc.ko) from None
        known = live.seq

        def check(previous: Any, _event: Event) -> None:
            if len(previous) != known:
                raise _StaleMemory(f"store has {len(previous)} events, memory {known}")

        try:
            seq = self.store.append(live.id, event, check=check, expect_seq=expect_seq)
        except SeqConflictError as exc:
            raise ConflictError(str(exc), rule="expect_seq") from None
        except EventRefusedError as exc:
            self._load(live.id)  # another writer changed the store: resync memory
            raise ConflictError(f"the match changed underneath: {exc}", rule="expect_seq") from None
        except MatchFinishedError as exc:
            live.status = "finished"
            raise ConflictError(str(exc), rule="경기 종료") from None
        except InvalidEventError as exc:
            raise BadRequestError(str(exc)) from None
        # durable from here on
        before = live.state
        now = self._mono()
        live.state, live.seq = new_state, seq
        live.events.append((seq, event))
        live.clock = MatchClock(new_state.t, now if _running(new_state) else None)
        kind = event["type"]
        if kind == "move":
            live.last_move = views.move_view(before, event)
        elif kind == "undo":
            live.last_move = None
        if kind in ("throw", "throwoff"):
            live.reading = None
            n = event.get("capture")
            if isinstance(n, int):
                live.last_throw_image = self._image_url(live.id, n)
        self._changed(live)
        return seq

    def _changed(self, live: LiveMatch, extra: tuple[tuple[str, Any], ...] = ()) -> None:
        for name, payload in extra:
            self.broker.publish(live.id, message(name, payload))
        self.broker.publish(live.id, message("state", self._live_state(live)))
        for listener in list(self.listeners):
            try:
                listener(live.id)
            except Exception:
                log.exception("listener failed")

    def publish_state(self, match_id: int) -> None:
        """Push the current state (e.g. the camera's health changed)."""
        with self._lock:
            live = self._matches.get(match_id)
            if live is not None:
                self._changed(live)

    def _maybe_time_up(self, live: LiveMatch) -> bool:
        """Append ``time_up`` at t = 20:00 once the running clock has reached it."""
        if live.status != "open" or not live.clock.running or live.state.over:
            return False
        if live.clock.t(self._mono()) < clock.MATCH_SECONDS:
            return False
        if live.state.game is None:  # no throw-off yet: nothing to judge; the clock stops
            live.clock = MatchClock(float(clock.MATCH_SECONDS))
            self._changed(live)
            return False
        self._append(live, {"type": "time_up", "t": float(clock.MATCH_SECONDS)}, None)
        return True

    def tick(self) -> float:
        """Run the time-up check on every open match; → seconds until the next is due."""
        wait = 1.0
        with self._lock:
            for live in list(self._matches.values()):
                try:
                    self._maybe_time_up(live)
                except (StoreError, IllegalError, ConflictError) as exc:
                    log.error("match %d: automatic time_up failed: %s", live.id, exc)
                if live.status == "open" and live.clock.running and not live.state.over:
                    left = clock.MATCH_SECONDS - live.clock.t(self._mono())
                    wait = min(wait, max(left, 0.01))
        return wait

    def settle_gap(self, match_id: int, charge: Any) -> dict[str, Any]:
        """The referee's decision on an offline gap, recorded as a ``clock_set`` event:
        charged (the match clock moves on by the gap) or forgiven (it stays)."""
        if not isinstance(charge, bool):
            raise BadRequestError(f'"charge" must be true or false, not {charge!r}')
        with self._lock:
            live = self._get_open(match_id)
            gap = live.offline_gap
            if gap is None:
                raise IllegalError(
                    "there is no offline gap to settle", rule="경기 시간", ko="반영하거나 면제할 중단 시간이 없습니다"
                )
            now_t = stamp(live.clock.t(self._mono()))
            to = min(float(clock.MATCH_SECONDS), now_t + gap) if charge else now_t
            reason = f"중단 {gap:g}초 {'반영' if charge else '면제'}"
            self._append(live, {"type": "clock_set", "to": stamp(to), "reason": reason, "t": now_t}, None)
            live.offline_gap = None
            self._changed(live)
            self._maybe_time_up(live)
            return self._live_state(live)

    def finish(self, match_id: int) -> dict[str, Any]:
        with self._lock:
            live = self._get(match_id)
            self.store.finish(match_id)
            live.status = "finished"
            live.clock = live.clock.stop(self._mono())
            live.reading = None
            self._changed(live)
            return self._live_state(live)

    # -- camera readings -----------------------------------------------------------------

    def reserve_capture(self, match_id: int) -> int:
        with self._lock:
            live = self._get_open(match_id)
            live.capture_no += 1
            return live.capture_no

    def write_capture(self, match_id: int, n: int, files: Mapping[str, bytes]) -> None:
        for name, data in files.items():
            self.captures.write(match_id, n, name, data)

    def set_reading(self, match_id: int, n: int, reading: Mapping[str, Any]) -> dict[str, Any]:
        """Publish the camera's reading of capture ``n`` for the referee to confirm."""
        result = reading.get("result")
        if not isinstance(result, str):
            raise BadRequestError(f'a reading needs a "result", got {dict(reading)!r}')
        confidence = reading.get("confidence", 1.0)
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
            raise BadRequestError(f'"confidence" must be a number, not {confidence!r}')
        reasons = reading.get("reasons", [])
        if not isinstance(reasons, list) or not all(isinstance(why, str) for why in reasons):
            raise BadRequestError(f'"reasons" must be a list of strings, not {reasons!r}')
        alternatives = reading.get("alternatives", [])
        if not isinstance(alternatives, list) or not all(isinstance(r, str) and r in RESULTS and r != result
                                                         for r in alternatives):
            raise BadRequestError(f'"alternatives" must be a list of other results ({" ".join(RESULTS)}),'
                                  f' not {alternatives!r}')
        out = {
            "n": n,
            "result": result,
            "confidence": float(confidence),
            "needs_referee": bool(reading.get("needs_referee", False)),
            "sticks": list(reading.get("sticks", [])),
            "reasons": list(reasons),
            "reasons_ko": [korean(why) for why in reasons],  # what the referee should look at
            "alternatives": list(dict.fromkeys(alternatives)),  # what else it may be, likeliest first
            "image": self._image_url(match_id, n),
        }
        try:
            self.captures.write(match_id, n, "reading.json", json.dumps(out, ensure_ascii=False).encode())
        except (StoreError, OSError) as exc:
            log.error("match %d capture %d: reading.json not written: %s", match_id, n, exc)
        with self._lock:
            live = self._get_open(match_id)
            live.reading = out
            self._changed(live, (("reading", out),))
        return out

    def dismiss_reading(self, match_id: int) -> dict[str, Any]:
        """Drop the pending reading (no event); marked in its reading.json so a restart
        does not bring it back."""
        with self._lock:
            live = self._get_open(match_id)
            if live.reading is not None:
                dismissed = {**live.reading, "dismissed": True}
                try:
                    self.captures.write(match_id, int(live.reading["n"]), "reading.json",
                                        json.dumps(dismissed, ensure_ascii=False).encode())
                except (StoreError, OSError) as exc:
                    log.error("match %d: dismissal not recorded: %s", match_id, exc)
            live.reading = None
            self._changed(live)
            return self._live_state(live)

    def capture_path(self, match_id: int, n: int, name: str) -> Any:
        if name not in CAPTURE_FILES:
            raise NotFoundError(f"no capture file {name!r} (files: {', '.join(CAPTURE_FILES)})")
        with self._lock:
            self._get(match_id)
        try:
            path = self.captures.path_for(match_id, n) / name
        except ValueError as exc:
            raise NotFoundError(str(exc)) from None
        if not path.is_file():
            raise NotFoundError(f"match {match_id} has no capture {n}/{name}")
        return path

    def export(self, match_id: int) -> str:
        with self._lock:
            self._get(match_id)
        return "\n".join(self.store.dump_lines(match_id)) + "\n"
