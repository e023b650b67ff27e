"""Background tasks of the service: the time-up ticker, the LED timer, the camera loop and
(in the demo) the autopilot.

Under gunicorn's gevent worker the standard library is monkey-patched, so the daemon
threads started here are greenlets in the one worker process; without gevent (tests, the
Flask CLI) they are ordinary threads.  Callbacks from foreign OS threads (GPIO libraries)
are handed to the gevent loop with ``run_callback_threadsafe``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from flask import Flask

from yut_cam.web.service import MatchService

log = logging.getLogger(__name__)


def gevent_active() -> bool:
    try:
        from gevent import monkey  # type: ignore[import-untyped]
    except ImportError:
        return False
    return bool(monkey.is_module_patched("threading"))


def loop_dispatcher() -> Callable[[Callable[[], None]], None]:
    """A function that runs a callable on the service's loop, from any OS thread."""
    if not gevent_active():
        return lambda fn: fn()
    import gevent

    hub = gevent.get_hub()

    def dispatch(fn: Callable[[], None]) -> None:
        hub.loop.run_callback_threadsafe(gevent.spawn, fn)

    return dispatch


def run_blocking(fn: Callable[..., Any], *args: Any) -> Any:
    """Run CPU-heavy work (OpenCV) off the event loop when gevent runs it, so SSE clients
    keep being served; a plain call otherwise."""
    if gevent_active():
        import gevent

        return gevent.get_hub().threadpool.apply(fn, args)
    return fn(*args)


def spawn(target: Callable[[], None], name: str) -> threading.Thread:
    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return thread


def attach_hardware(app: Flask, service: MatchService) -> None:
    mode = app.config["HARDWARE"]
    if mode in (None, "none"):
        return
    from yut_cam.web.hardware_link import HardwareLink

    try:
        link = HardwareLink(service, mode, dispatch=loop_dispatcher())
    except Exception as exc:  # a missing GPIO chip must not stop the scoreboard
        log.error("LED timer/buttons unavailable (%s): %s", mode, exc)
        return
    app.extensions["yut_cam.hardware"] = link
    service.led_text = link.text
    service.listeners.append(link.notify)


def start_background(app: Flask) -> None:
    service: MatchService = app.extensions["yut_cam.service"]
    stop = threading.Event()
    stoppers: list[Callable[[], None]] = [stop.set]

    def ticker() -> None:
        while not stop.is_set():
            try:
                wait = service.tick()
            except Exception:
                log.exception("time-up ticker")
                wait = 1.0
            stop.wait(min(wait, 0.5))

    spawn(ticker, "yut-cam-ticker")
    link = app.extensions.get("yut_cam.hardware")
    if link is not None:
        link.start()
    camera = app.config.get("CAMERA")
    if camera:
        from yut_cam.web.camera_loop import CameraLoop

        loop = CameraLoop(service, camera, app.config.get("CALIBRATION"))
        app.extensions["yut_cam.camera"] = loop
        service.camera_status = loop.status
        loop.start()
        stoppers.append(loop.stop)
    if app.config.get("AUTOPILOT"):
        from yut_cam.web.autopilot import Autopilot

        pilot = Autopilot(service, **dict(app.config.get("AUTOPILOT_OPTIONS") or {}))
        app.extensions["yut_cam.autopilot"] = pilot
        pilot.start()
        stoppers.append(pilot.stop)

    def stop_all() -> None:
        for fn in reversed(stoppers):
            try:
                fn()
            except Exception:
                log.exception("stopping a background task")

    app.extensions["yut_cam.stop"] = stop_all
