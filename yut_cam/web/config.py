"""Configuration of the web app: defaults, paths, the referee PIN and the secret key."""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path
from typing import Any

from yut_cam.web.auth import hash_pin

#: The repository (``yut_cam/web/config.py`` → three levels up); ``web/`` lives there.
REPO = Path(__file__).resolve().parents[2]


def web_dir() -> Path:
    """The pages' ``web/``: beside the package in a checkout (editable install), else in the
    current directory (a service started from the project directory)."""
    for candidate in (REPO / "web", Path.cwd() / "web"):
        if (candidate / "templates").is_dir():
            return candidate
    return REPO / "web"


def defaults() -> dict[str, Any]:
    var = Path(os.environ.get("YUT_CAM_VAR", "var"))
    return {
        "VAR_DIR": str(var),
        "DB_PATH": None,  # default: VAR_DIR/yut-cam.sqlite3
        "CAPTURE_DIR": None,  # default: VAR_DIR/captures
        "WEB_DIR": os.environ.get("YUT_CAM_WEB_DIR") or str(web_dir()),
        "REFEREE_PIN": None,  # plain PIN (hashed at start); default: env YUT_CAM_PIN
        "REFEREE_PIN_HASH": None,
        "SECRET_KEY": None,  # default: generated once into VAR_DIR/secret_key
        "CAMERA": None,  # e.g. "fake:var/demo-frames", "picamera2", None = no camera
        "CALIBRATION": None,  # the camera's calibration JSON; default: CALIBRATION_DIR/calibration.json
        "CALIBRATION_DIR": None,  # the console's calibration photos; default: beside the DB, calibration/
        "HARDWARE": os.environ.get("YUT_CAM_HARDWARE", "mock"),  # "mock" | "gpio" | "none"
        "BOARD_ROTATION": 0.0,
        "BACKGROUND": True,  # time-up ticker, camera loop, LED timer (tests switch it off)
        "ALLOW_INJECTED_READINGS": False,
        "LOGIN_ATTEMPTS": 5,
        "LOGIN_WINDOW": 300.0,
        "SSE_PING": 15.0,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": 12 * 3600,
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "JSON_AS_ASCII": False,
    }


def resolve(config: dict[str, Any]) -> None:
    """Fill the derived settings in place: paths, PIN hash, secret key."""
    var = Path(config["VAR_DIR"])
    if config["DB_PATH"] is None:
        config["DB_PATH"] = str(var / "yut-cam.sqlite3")
    if config["CAPTURE_DIR"] is None:
        config["CAPTURE_DIR"] = str(Path(config["DB_PATH"]).parent / "captures")
    if config.get("CALIBRATION_DIR") is None:
        config["CALIBRATION_DIR"] = str(Path(config["DB_PATH"]).parent / "calibration")
    if config.get("CALIBRATION") is None:
        config["CALIBRATION"] = str(Path(config["CALIBRATION_DIR"]) / "calibration.json")
    # absolute from here on: Flask's send_file resolves a relative path against the app's
    # package folder, not the working directory the service was started in
    for key in ("VAR_DIR", "DB_PATH", "CAPTURE_DIR", "CALIBRATION_DIR", "CALIBRATION"):
        if config.get(key):
            config[key] = str(Path(config[key]).absolute())
    if config["SECRET_KEY"] is None:
        config["SECRET_KEY"] = _secret_key(var / "secret_key")
    if config["REFEREE_PIN_HASH"] is None:
        pin = config["REFEREE_PIN"] or os.environ.get("YUT_CAM_PIN")
        if pin:
            config["REFEREE_PIN_HASH"] = hash_pin(str(pin))
        else:
            config["REFEREE_PIN_HASH"] = _stored_pin_hash(var / "referee-pin.hash")
    config.pop("REFEREE_PIN", None)  # never keep the plain PIN around


def _secret_key(path: Path) -> str:
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


def _stored_pin_hash(path: Path) -> str:
    """The PIN hash kept in var/; on first start a random 6-digit PIN is made and shown once."""
    if path.exists():
        return path.read_text().strip()
    pin = f"{secrets.randbelow(10**6):06d}"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(hash_pin(pin) + "\n")
    print(f"yut-cam: new referee PIN {pin} (only its hash is kept in {path}; "
          "set YUT_CAM_PIN to choose one)", file=sys.stderr)  # fmt: skip
    return path.read_text().strip()
