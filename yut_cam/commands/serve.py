"""`yut-cam serve` and `yut-cam demo`: the scoreboard, console, API and SSE streams.

Production server: gunicorn with ONE gevent worker (``--worker-connections 2000``),
started in-process through gunicorn's ``BaseApplication``.  One worker because the SSE
subscribers, the match clocks, the camera loop and the LED timer live in one process;
gevent because every open scoreboard holds a connection for as long as it is open
(a thread per connection starves ordinary requests; see DESIGN.md "Field notes").
The app is created inside the worker (no preload), after gevent has patched the
standard library.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

DEFAULT_PORT = 8000


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("serve", help="serve the scoreboard, referee console and live API (gunicorn + gevent)")
    _common(p, host="0.0.0.0")
    p.add_argument("--demo", action="store_true", help="same as `yut-cam demo` (fake camera, autopilot)")
    p.set_defaults(handler=_serve)

    d = subparsers.add_parser("demo", help="run a demo match: fake camera, mock GPIO, autopilot, on :8000")
    _common(d, host="127.0.0.1")
    d.add_argument("--no-autopilot", action="store_true", help="no autopilot: the referee plays every throw")
    d.add_argument("--throws", type=int, default=24, help="generated throws for the fake camera (default 24)")
    d.set_defaults(handler=_demo)


def _common(p: argparse.ArgumentParser, host: str) -> None:
    p.add_argument("--host", default=host, help=f"address to listen on (default {host})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument("--var", type=Path, default=Path("var"), help="state directory (default var/)")
    p.add_argument("--db", type=Path, default=None, help="SQLite store (default VAR/yut-cam.sqlite3)")
    p.add_argument("--camera", default=None, help="camera spec: picamera2, usb:N, fake:DIR, video:FILE")
    p.add_argument("--no-camera", action="store_true", help="run without a camera")
    p.add_argument("--calibration", type=Path, default=None, help="calibration JSON for the camera")
    p.add_argument("--hardware", choices=["mock", "gpio", "none"], default=None,
                   help="LED timer and buttons: mock pins (default), real GPIO, or none")
    p.add_argument("--rotation", type=float, default=0.0, help="board rotation in degrees")
    p.add_argument("--allow-injected-readings", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--dev", action="store_true",
                   help="Flask's development server instead of gunicorn (debugging only; a few SSE clients)")


def _config(args: argparse.Namespace) -> dict[str, Any]:
    var: Path = args.var
    hardware = args.hardware or os.environ.get("YUT_CAM_HARDWARE") or ("gpio" if _on_a_pi() else "mock")
    return {
        "VAR_DIR": str(var),
        "DB_PATH": str(args.db) if args.db else None,
        "CAMERA": None if args.no_camera else args.camera,
        "CALIBRATION": str(args.calibration) if args.calibration else None,
        "HARDWARE": hardware,
        "BOARD_ROTATION": args.rotation,
        "ALLOW_INJECTED_READINGS": bool(args.allow_injected_readings),
    }


def _on_a_pi() -> bool:
    if os.environ.get("GPIOZERO_PIN_FACTORY", "") == "mock":
        return False
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def _serve(args: argparse.Namespace) -> int:
    if args.demo:
        return _demo(args)
    return run_server(_config(args), args.host, args.port, dev=args.dev)


def _demo(args: argparse.Namespace) -> int:
    from yut_cam.web.demo import DemoError, prepare_demo

    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    config = _config(args)
    config["HARDWARE"] = "mock"
    try:
        demo = prepare_demo(Path(args.var), throws=getattr(args, "throws", 24),
                            camera=not args.no_camera, db=args.db)
    except DemoError as exc:
        print(f"yut-cam demo: {exc}", file=sys.stderr)
        return 2
    config.update(demo.config)
    config["AUTOPILOT"] = not getattr(args, "no_autopilot", False)
    if not config.get("CAMERA"):  # nothing to wait for: the autopilot calls the throws itself
        config["AUTOPILOT_OPTIONS"] = {"reading_wait": 0.0}
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0") else args.host
    base = f"http://{shown}:{args.port}"
    print(f"yut-cam demo\n  scoreboard: {base}/m/{demo.match_id}\n  console:    {base}/referee"
          f"\n  referee PIN: {demo.pin}\n  (Ctrl-C stops it; state is kept in {args.var}/)", flush=True)
    return run_server(config, args.host, args.port, dev=args.dev)


def run_server(config: dict[str, Any], host: str, port: int, *, dev: bool = False) -> int:
    """Check the settings and the store here, in the master (one clear error line, the new
    PIN printed once), then serve; the app itself is created inside the worker."""
    from yut_cam.store import EventStore, StoreError
    from yut_cam.web.config import defaults, resolve

    settings = defaults()
    settings.update(config)
    try:
        resolve(settings)
        EventStore(settings["DB_PATH"]).close()
    except (OSError, StoreError) as exc:
        print(f"yut-cam serve: {exc}", file=sys.stderr)
        return 2
    config = settings
    if dev:
        from yut_cam.web import create_app

        create_app(config).run(host=host, port=port, threaded=True)
        return 0
    from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

    apps: list[Any] = []

    def factory() -> Any:
        from yut_cam.web import create_app

        apps.append(create_app(config))
        return apps[-1]

    def worker_exit(_server: Any, _worker: Any) -> None:
        from yut_cam.web import close_app

        for app in apps:  # stop the camera/timer tasks, close the store
            close_app(app)

    class YutCamServer(BaseApplication):  # type: ignore[misc]
        def __init__(self, load: Callable[[], Any], options: dict[str, Any]) -> None:
            self.options = options
            self._load = load
            super().__init__()

        def load_config(self) -> None:
            for key, value in self.options.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return self._load()

    options = {
        "bind": f"{host}:{port}",
        "workers": 1,
        "worker_class": "gevent",
        "worker_connections": 2000,
        "timeout": 30,
        "graceful_timeout": 3,
        "keepalive": 5,
        "preload_app": False,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "info",
        "proc_name": "yut-cam",
        "control_socket_disable": True,
        "worker_exit": worker_exit,
    }
    YutCamServer(factory, options).run()
    return 0
