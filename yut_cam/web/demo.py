"""`yut-cam demo`: everything a fresh machine needs to show a live match.

``prepare_demo(var)`` makes ``var/``, renders (once, cached) a few dozen generated throws
into ``var/demo-frames/`` with :mod:`yut_cam.vision.synth` plus the calibration of the same
synthetic venue (``var/demo-calibration.json``), opens a demo match in the store (two
teams with Korean names and rosters, official rules, first attacker by a throw-off) unless
one is still open, and picks the referee PIN (``YUT_CAM_PIN`` or a fresh random one).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FRAME_SIZE = (640, 360)
SEED = 20261130
CACHE_VERSION = 2
STYLE_ATTEMPTS = 8

DEMO_HEADER: dict[str, Any] = {
    "v": 1,
    "type": "match",
    "rules": "official",
    "title": "시범 경기: 청룡 대 백호",
    "teams": [
        {"name": "청룡", "throwers": ["김가람", "이나래", "박다온"], "mover": "최마루", "reserves": ["정바다"]},
        {"name": "백호", "throwers": ["한라온", "윤보람", "장새봄"], "mover": "오소리", "reserves": ["서하늘"]},
    ],
    "first": None,
}


class DemoError(Exception):
    """The demo could not be prepared (disk, rendering)."""


@dataclass(frozen=True)
class Demo:
    config: dict[str, Any]
    match_id: int
    pin: str


def prepare_demo(var: Path, *, throws: int = 24, camera: bool = True, db: Path | None = None) -> Demo:
    try:
        var.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DemoError(f"cannot create {str(var)!r}: {exc}") from None
    pin = os.environ.get("YUT_CAM_PIN") or f"{secrets.randbelow(10**4):04d}"
    db_path = db or var / "yut-cam.sqlite3"
    config: dict[str, Any] = {"VAR_DIR": str(var), "DB_PATH": str(db_path), "REFEREE_PIN": pin}
    if camera:
        frames, calibration = demo_frames(var, throws)
        config.update(CAMERA=f"fake:{frames}", CALIBRATION=str(calibration))
    return Demo(config, open_demo_match(db_path), pin)


def open_demo_match(db_path: Path) -> int:
    """The open demo match, or a new one."""
    from yut_cam.store import EventStore

    with EventStore(db_path) as store:
        for summary in reversed(store.unfinished()):
            if store.header(summary.id).get("title") == DEMO_HEADER["title"]:
                return summary.id
        return store.create_match(DEMO_HEADER, title=DEMO_HEADER["title"])


def demo_frames(var: Path, throws: int) -> tuple[Path, Path]:
    """``var/demo-frames/`` (numbered JPEGs) and ``var/demo-calibration.json``; rendered
    once and reused while the stamp file says they were made with the same settings."""
    frames_dir = var / "demo-frames"
    calibration = var / "demo-calibration.json"
    stamp = frames_dir / "demo.json"
    wanted = {"version": CACHE_VERSION, "seed": SEED, "throws": throws, "size": list(FRAME_SIZE)}
    try:
        if stamp.exists() and calibration.exists() and json.loads(stamp.read_text()) == wanted:
            return frames_dir, calibration
    except (OSError, ValueError):
        pass
    print(f"yut-cam demo: rendering {throws} throws into {frames_dir} (once; about "
          f"{max(1, throws * 2 // 60)} min)", flush=True)
    try:
        render_demo(frames_dir, calibration, throws)
        stamp.write_text(json.dumps(wanted))
    except OSError as exc:
        raise DemoError(f"cannot write the demo frames into {str(frames_dir)!r}: {exc}") from None
    return frames_dir, calibration


def render_demo(frames_dir: Path, calibration_path: Path, throws: int) -> None:
    import cv2
    import numpy as np

    from yut_cam.vision import synth
    from yut_cam.vision.calibration import calibrate

    from yut_cam.vision.errors import CalibrationError

    problems: list[str] = []
    for attempt in range(STYLE_ATTEMPTS):  # a venue whose sticks calibrate cleanly
        rng = np.random.default_rng(SEED + attempt)
        style = synth.SceneStyle() if attempt == 0 else synth.random_style(rng)  # the default venue first
        shots = synth.render_calibration(style, FRAME_SIZE)
        try:
            calibrate(shots.empty, shots.belly, shots.back, list(shots.mat_polygon)).save(calibration_path)
            break
        except CalibrationError as exc:
            problems.append(str(exc))
    else:
        raise DemoError(f"no generated venue calibrated in {STYLE_ATTEMPTS} tries: {problems[-1]}")
    frames_dir.mkdir(parents=True, exist_ok=True)
    for old in frames_dir.glob("*.jpg"):
        old.unlink()
    n = done = 0
    while done < throws:  # sessions of up to 4 throws, the sticks picked up in between
        k = min(4, throws - done)
        frames, _truth = synth.render_session(style, rng, k, FRAME_SIZE)
        for frame in frames:
            cv2.imwrite(str(frames_dir / f"{n:06d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 88])
            n += 1
        done += k
