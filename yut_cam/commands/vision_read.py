"""``yut-cam calibrate`` and ``yut-cam read`` (the throw reader on stills, DESIGN.md contract).

``yut-cam calibrate --empty E.jpg --belly B.jpg --back K.jpg [--mat mat.json] --out CAL.json``
writes CAL.json and CAL.background.png beside it.

``yut-cam read IMAGE --calibration CAL.json [--json] [--annotate OUT.png]`` prints the
reading (``--json``: the contract's object, plus ``reasons``). Bad images or calibration
files print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    c = subparsers.add_parser("calibrate", help="learn mat, light and sticks from three photos")
    c.add_argument("--empty", required=True, type=Path, help="photo of the empty mat")
    c.add_argument("--belly", required=True, type=Path, help="the four sticks apart, flat side (배) up")
    c.add_argument("--back", required=True, type=Path, help="the four sticks apart, round side (등) up")
    c.add_argument("--mat", type=Path, default=None,
                   help='mat outline: JSON {"polygon": [[x, y], ...]} in pixels, a mat\'s corners or 6+ points'
                        ' round a round mat (the ellipse through them); default: found in --empty')
    c.add_argument("--out", required=True, type=Path, help="calibration file to write (JSON)")
    c.set_defaults(handler=_calibrate)

    r = subparsers.add_parser("read", help="read the throw in one still")
    r.add_argument("image", type=Path, help="photo of the settled throw")
    r.add_argument("--calibration", required=True, type=Path, help="calibration JSON")
    r.add_argument("--json", action="store_true", help="print the reading as JSON")
    r.add_argument("--annotate", type=Path, default=None, metavar="OUT.png",
                   help="also write the image with mat, sticks and result drawn on it")
    r.set_defaults(handler=_read)


def _mat_polygon(path: Path) -> list[tuple[float, float]]:
    from yut_cam.vision.errors import CalibrationError

    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"mat file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"mat file {str(path)!r} is not readable JSON: {exc}") from None
    poly = data.get("polygon") if isinstance(data, dict) else None
    if (not isinstance(poly, list) or len(poly) < 3
            or not all(isinstance(p, list) and len(p) == 2
                       and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in p)
                       for p in poly)):
        raise CalibrationError(f'mat file {str(path)!r} must hold {{"polygon": [[x, y], ...]}} '
                               "with at least 3 corners")
    return [(float(x), float(y)) for x, y in poly]


def _calibrate(args: argparse.Namespace) -> int:
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.errors import VisionError
    from yut_cam.vision.reader import load_image

    try:
        images = {name: load_image(str(getattr(args, name))) for name in ("empty", "belly", "back")}
        polygon = _mat_polygon(args.mat) if args.mat is not None else None
        cal = calibrate(images["empty"], images["belly"], images["back"], polygon)
        bg = cal.save(args.out)
    except (VisionError, OSError) as exc:
        print(f"yut-cam calibrate: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} and {bg.name}: mat of {len(cal.mat_polygon)} corners, "
          f"sticks {cal.stick_length:.0f}x{cal.stick_width:.0f} px, "
          f"shadow suppression {'on' if cal.segment.shadow_suppression else 'off'}")
    for warning in cal.warnings:
        print(f"yut-cam calibrate: warning: {warning}", file=sys.stderr)
    return 0


def _read(args: argparse.Namespace) -> int:
    import cv2

    from yut_cam.vision.annotate import annotate
    from yut_cam.vision.calibration import Calibration
    from yut_cam.vision.errors import VisionError
    from yut_cam.vision.reader import load_image, read_image

    try:
        cal = Calibration.load(args.calibration)
        image = load_image(str(args.image))
        reading = read_image(image, cal)
    except VisionError as exc:
        print(f"yut-cam read: {exc}", file=sys.stderr)
        return 2
    if args.annotate is not None:
        if not cv2.imwrite(str(args.annotate), annotate(image, reading, cal)):
            print(f"yut-cam read: cannot write {str(args.annotate)!r}", file=sys.stderr)
            return 2
    if args.json:
        print(reading.to_json())
    else:
        faces = " ".join(f"{s.face}{'*' if s.marked else ''}{'' if s.on_mat else '(밖)'}"
                         for s in reading.sticks)
        flag = "  심판 확인: " + "; ".join(reading.reasons) if reading.needs_referee else ""
        print(f"{reading.result}  (confidence {reading.confidence:.2f})  [{faces}]{flag}")
    return 0
