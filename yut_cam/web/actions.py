"""The referee buttons' actions, the same as the console's: start/stop the clock, confirm
the camera's reading, call 낙, undo the last event.  They act on the current match."""

from __future__ import annotations

import logging
from collections.abc import Callable

from yut_cam.web.errors import ServiceError
from yut_cam.web.service import MatchService

log = logging.getLogger(__name__)


def start_stop(service: MatchService, match_id: int) -> None:
    """Not started → ``start``; running → ``stoppage``; stopped → ``resume``."""
    state = service.live_state(match_id)["match"]["clock"]
    if not state["started"]:
        event = {"type": "start"}
    elif state["stopped"] is None:
        event = {"type": "stoppage", "reason": "심판 중단 (버튼)"}
    else:
        event = {"type": "resume"}
    service.submit(match_id, event)


def confirm(service: MatchService, match_id: int) -> None:
    """Confirm the camera's pending reading as it was read."""
    reading = service.live_state(match_id)["reading"]
    if reading is None:
        raise ServiceError("no camera reading to confirm", rule="판정 확인")
    service.confirm_reading(match_id, reading["result"])


def nak(service: MatchService, match_id: int) -> None:
    """The referee calls 낙 (the throw is void)."""
    service.confirm_reading(match_id, "낙")


def undo(service: MatchService, match_id: int) -> None:
    service.submit(match_id, {"type": "undo"})


ACTIONS: dict[str, Callable[[MatchService, int], None]] = {
    "start_stop": start_stop,
    "confirm": confirm,
    "nak": nak,
    "undo": undo,
}


def run(service: MatchService, action: str) -> bool:
    """Run a button action on the current match; refusals are logged, never raised."""
    match_id = service.current_id()
    if match_id is None:
        log.warning("button %s: no open match", action)
        return False
    try:
        ACTIONS[action](service, match_id)
    except ServiceError as exc:
        log.warning("button %s refused: %s [%s]", action, exc.message, exc.rule)
        return False
    return True
