"""``yut-cam synth`` (generated scene sets) and ``yut-cam read-clip`` (read throws in a video).

``yut-cam synth OUT [--n N] [--seed S] [--size WxH] [--styles K] [--case C]`` writes, per
style (``OUT`` itself, or ``OUT/style_00`` ... when ``--styles`` > 1)::

    calibration/empty.jpg belly.jpg back.jpg mat.json   the referee's calibration triplet
    throws/0000.jpg ...                                  N settled throws
    truth.jsonl                                          {"file", "result", "case", "sticks", "mat_polygon"}
    style.json                                           the SceneStyle used

``yut-cam read-clip VIDEO --calibration CAL.json --json`` prints
``{"throws": [{"settled_frame": N, "result": ..., "confidence": ..., "needs_referee": ...,
"sticks": [...]}]}`` (DESIGN.md contract).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("synth", help="write a generated set of yut scenes with ground truth")
    p.add_argument("out", type=Path, help="output folder (created)")
    p.add_argument("--n", type=int, default=20, help="throws per style (default 20)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--size", default="1280x720", help="image size WxH (default 1280x720)")
    p.add_argument("--styles", type=int, default=1, help="number of random venues/stick sets")
    p.add_argument("--case", choices=["clean", "touching", "edge", "낙"], default=None,
                   help="force one case (default: mixed)")
    p.add_argument("--clips", type=int, default=0, help="also write this many clips per style")
    p.set_defaults(handler=_synth)

    r = subparsers.add_parser("read-clip", help="read every settled throw in a video")
    r.add_argument("video", type=Path, help="video file (any format OpenCV reads)")
    r.add_argument("--calibration", type=Path, required=True, help="calibration JSON")
    r.add_argument("--json", action="store_true", help="print JSON (the only output format)")
    r.add_argument("--save", type=Path, default=None,
                   help="also record each throw (clip + settled frame) under this folder")
    r.set_defaults(handler=_read_clip)


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"size must look like 1280x720, got {text!r}") from None
    if w < 160 or h < 120 or w > 8000 or h > 8000:
        raise ValueError(f"size must be between 160x120 and 8000x8000, got {text!r}")
    return w, h


def _synth(args: argparse.Namespace) -> int:
    import numpy as np

    try:
        size = _parse_size(args.size)
    except ValueError as exc:
        print(f"yut-cam synth: {exc}", file=sys.stderr)
        return 2
    if args.n < 0 or args.styles < 1 or args.clips < 0:
        print(f"yut-cam synth: --n and --clips must be >= 0 and --styles >= 1 "
              f"(got {args.n}, {args.clips}, {args.styles})", file=sys.stderr)
        return 2
    from yut_cam.vision.synth import SceneStyle, random_style

    rng = np.random.default_rng(args.seed)
    for k in range(args.styles):
        style = SceneStyle(seed=args.seed) if args.styles == 1 and args.seed == 1 else random_style(rng)
        out = args.out if args.styles == 1 else args.out / f"style_{k:02d}"
        _write_set(out, style, rng, size, args.n, args.case, args.clips)
    print(f"wrote {args.styles} style(s) x {args.n} throws to {args.out}")
    return 0


def _write_set(out: Path, style: object, rng: object, size: tuple[int, int], n: int,
               case: str | None, clips: int) -> None:
    import cv2
    import numpy as np

    from yut_cam.vision.synth import SceneStyle, render_calibration, render_throw

    assert isinstance(style, SceneStyle) and isinstance(rng, np.random.Generator)
    (out / "calibration").mkdir(parents=True, exist_ok=True)
    (out / "throws").mkdir(parents=True, exist_ok=True)
    cal = render_calibration(style, size)
    for name, img in (("empty", cal.empty), ("belly", cal.belly), ("back", cal.back)):
        cv2.imwrite(str(out / "calibration" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (out / "calibration" / "mat.json").write_text(
        json.dumps({"polygon": [[round(x, 1), round(y, 1)] for x, y in cal.mat_polygon]}) + "\n",
        encoding="utf-8")
    (out / "style.json").write_text(json.dumps(dataclasses.asdict(style), ensure_ascii=False) + "\n",
                                    encoding="utf-8")
    lines = []
    for i in range(n):
        img, truth = render_throw(style, rng, size, case=case)
        name = f"throws/{i:04d}.jpg"
        cv2.imwrite(str(out / name), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines.append(json.dumps({"file": name, **truth.to_json()}, ensure_ascii=False))
    (out / "truth.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    if clips:
        _write_clips(out, style, rng, size, clips)


def _write_clips(out: Path, style: object, rng: object, size: tuple[int, int], clips: int) -> None:
    import cv2
    import numpy as np

    from yut_cam.vision.synth import SceneStyle, render_clip

    assert isinstance(style, SceneStyle) and isinstance(rng, np.random.Generator)
    (out / "clips").mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(clips):
        frames, truth, settled = render_clip(style, rng, size)
        name = f"clips/{i:03d}.avi"
        writer = cv2.VideoWriter(str(out / name), cv2.VideoWriter.fourcc(*"MJPG"), 30.0, size)
        for f in frames:
            writer.write(f)
        writer.release()
        lines.append(json.dumps({"file": name, "settled_frame": settled, **truth.to_json()},
                                ensure_ascii=False))
    (out / "clips.jsonl").write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _read_clip(args: argparse.Namespace) -> int:
    from yut_cam.vision.clip import read_video_file
    from yut_cam.vision.errors import VisionError

    try:
        throws = read_video_file(args.video, args.calibration, save_dir=args.save)
    except VisionError as exc:
        print(f"yut-cam read-clip: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"throws": throws}, ensure_ascii=False))
    return 0
