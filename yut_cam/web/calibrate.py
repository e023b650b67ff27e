"""The console's camera calibration: three photos from the live camera, a mat polygon
tapped by the referee (or found automatically), ``calibrate()``, an atomic install of the
calibration file and a hot swap into the camera loop.

- ``POST /api/calibration/snapshot`` ``{"kind": "empty"|"belly"|"back"}`` (referee + CSRF):
  the camera loop's latest full frame → ``CALIBRATION_DIR/<kind>.jpg``;
  → ``{"kind", "url", "width", "height"}``; 503 without a camera or a picture.
- ``GET /api/calibration/snapshot/<kind>.jpg`` (referee session): that photo.
- ``POST /api/calibration`` ``{"mat": [[x, y], ...] | null}`` (referee + CSRF): calibrates on
  the three photos, installs the file at ``CALIBRATION`` (the previous one kept as
  ``<name>.bak``), and the camera reads with it from its next frame on;
  → ``{"ok": true, "stick_length_px", "mat", ...}``; 422 with the reason (nothing changes).
- ``POST /api/calibration/outline`` ``{"mat": [[x, y], ...]}`` (referee + CSRF): the referee
  confirms the outline the reader found (the one in use, as ``mat`` gives it back) as the
  mat's edge; from the next frame on it is read as a tapped one: no question about a stick
  just off or just inside it (``yut_cam.vision.learning.confirm_outline``). 409 when nothing
  is calibrated or the outline sent is not the one in use (nothing changes).
- ``GET /api/calibration`` (referee session): the current calibration and the photos.

The install is atomic: each calibration's background picture gets its own name
(``<stem>-<time>.background.png``) and the JSON that names it replaces the old JSON in one
rename, so a crash leaves either the old or the new calibration, never a mix.
"""

from __future__ import annotations

import json
import math
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import Blueprint, Response, current_app, jsonify, send_file

from yut_cam.vision.reasons import korean
from yut_cam.web.api import body
from yut_cam.web.auth import is_referee, referee_required
from yut_cam.web.background import run_blocking
from yut_cam.web.errors import (
    BadRequestError,
    ConflictError,
    IllegalError,
    NotFoundError,
    NotLoggedInError,
    ServiceError,
    UnavailableError,
)

bp = Blueprint("calibration", __name__, url_prefix="/api/calibration")

KINDS = ("empty", "belly", "back")
KIND_KO = {"empty": "빈 멍석", "belly": "배가 위", "back": "등이 위"}
JPEG_QUALITY = 95
MIN_MAT_FRACTION = 0.02  # a mat smaller than 2 % of the picture is a mis-tap
RULE = "카메라 보정"
F = TypeVar("F", bound=Callable[..., Any])
_running = threading.Lock()  # one calibration at a time


def referee_session(fn: F) -> F:
    """A read for the referee only (no CSRF: images and GETs carry no header)."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_referee():
            raise NotLoggedInError("referee login required: spectators can only watch", rule="심판 로그인")
        return fn(*args, **kwargs)

    return cast(F, wrapper)


def work_dir() -> Path:
    return Path(current_app.config["CALIBRATION_DIR"])


def target_path() -> Path:
    return Path(current_app.config["CALIBRATION"])


def camera_loop() -> Any:
    return current_app.extensions.get("yut_cam.camera")


def photo_path(kind: str) -> Path:
    return work_dir() / f"{kind}.jpg"


def photo_url(kind: str) -> str | None:
    path = photo_path(kind)
    try:
        version = path.stat().st_mtime_ns
    except OSError:
        return None
    return f"/api/calibration/snapshot/{kind}.jpg?v={version}"


def _kind(value: Any) -> str:
    if value not in KINDS:
        raise BadRequestError(
            f'"kind" must be one of {", ".join(KINDS)}, not {value!r}',
            rule=RULE,
            ko=f'"kind"는 empty(빈 멍석), belly(배), back(등) 가운데 하나여야 합니다 (받은 값: {value!r})',
        )
    return str(value)


# -- the photos --------------------------------------------------------------------------


@bp.post("/snapshot")
@referee_required
def snapshot() -> Response:
    kind = _kind(body().get("kind"))
    loop = camera_loop()
    if loop is None:
        raise UnavailableError(
            "no camera: the service runs without one (serve --camera picamera2)",
            rule=RULE,
            ko="카메라가 없습니다: 서비스가 카메라 없이 실행 중입니다 (serve --camera picamera2)",
        )
    frame = loop.latest_frame()
    if frame is None:
        message = str(loop.status().get("message", ""))
        raise UnavailableError(
            f"the camera gives no picture now ({message}); check the cable and try again",
            rule=RULE,
            ko=f"지금 카메라 영상이 없습니다 ({message}): 카메라 연결을 확인하고 다시 찍으세요",
        )
    data = run_blocking(_encode_jpeg, frame)
    from yut_cam.store import atomic_write_bytes

    try:
        atomic_write_bytes(photo_path(kind), data)
    except OSError as exc:
        raise ServiceError(f"cannot store the photo {str(photo_path(kind))!r}: {exc}", rule=RULE,
                           ko=f"사진을 저장하지 못했습니다: {exc}") from None
    height, width = int(frame.shape[0]), int(frame.shape[1])
    return jsonify({"kind": kind, "url": photo_url(kind), "width": width, "height": height})


def _encode_jpeg(image: Any) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ServiceError("cannot encode the camera frame as JPEG", rule=RULE, ko="카메라 사진을 JPEG로 만들지 못했습니다")
    return bytes(buf.tobytes())


@bp.get("/snapshot/<kind>.jpg")
@referee_session
def snapshot_file(kind: str) -> Response:
    if kind not in KINDS:
        raise NotFoundError(f"no calibration photo {kind!r} (photos: {', '.join(KINDS)})", rule=RULE)
    path = photo_path(kind)
    if not path.is_file():
        raise NotFoundError(f"the {kind} photo has not been taken yet", rule=RULE,
                            ko=f"'{KIND_KO[kind]}' 사진을 아직 찍지 않았습니다")
    resp = send_file(path.resolve(), mimetype="image/jpeg", max_age=0)
    resp.headers["Cache-Control"] = "no-store"
    return resp


# -- the calibration ---------------------------------------------------------------------


def parse_mat(value: Any) -> list[tuple[float, float]] | None:
    """``null`` or a list of ``[x, y]`` numbers (400 otherwise; the geometry is checked later)."""
    if value is None:
        return None
    ok = isinstance(value, list) and all(
        isinstance(p, list) and len(p) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p)
        for p in value)  # fmt: skip
    if not ok:
        raise BadRequestError(
            f'"mat" must be null or a list of [x, y] pixel points, not {value!r:.120}',
            rule=RULE,
            ko=f'"mat"은 null이거나 [x, y] 점의 목록이어야 합니다 (받은 값: {value!r:.120})',
        )
    return [(float(x), float(y)) for x, y in value]


def check_mat(points: list[tuple[float, float]], size: tuple[int, int]) -> list[tuple[float, float]]:
    """The referee's mat polygon, ordered around its centre (taps in any order give the same
    convex outline); 422 for fewer than 4 points, a point outside the photo, or a sliver."""
    width, height = size
    if len(points) < 4:
        raise IllegalError(
            f"a mat outline needs at least 4 points, got {len(points)}: {points!r}",
            rule=RULE,
            ko=f"멍석 테두리는 점이 4개 이상이어야 합니다 (지금 {len(points)}개): 모서리를 모두 눌러 주세요",
        )
    for x, y in points:
        if not (0 <= x <= width and 0 <= y <= height):
            raise IllegalError(
                f"mat point ({x:g}, {y:g}) lies outside the {width}x{height} photo",
                rule=RULE,
                ko=f"멍석 점 ({x:g}, {y:g})이 {width}x{height} 사진 밖에 있습니다",
            )
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    ordered = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    area = 0.5 * abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ordered, ordered[1:] + ordered[:1])))
    if area < MIN_MAT_FRACTION * width * height:
        raise IllegalError(
            f"the mat outline covers only {area / (width * height):.1%} of the photo: tap the mat's corners",
            rule=RULE,
            ko=f"멍석 테두리가 사진의 {area / (width * height):.1%}밖에 되지 않습니다: 멍석의 모서리를 눌러 주세요",
        )
    return ordered


HINTS = (
    ("differs from the empty picture", "배/등 사진이 빈 멍석 사진과 많이 다릅니다: 카메라가 움직였거나 무엇이 멍석을"
                                       " 가렸습니다. 카메라를 고정하고 세 장을 다시 찍으세요"),
    ("is blank", "사진이 한 가지 색뿐입니다: 카메라 렌즈나 연결을 보고 다시 찍으세요"),
    ("cannot find the mat", "빈 멍석 사진에서 멍석을 찾지 못했습니다: 사진에서 멍석의 모서리를 눌러 알려 주세요"),
    ("lies off the mat's outline", "윷 하나가 빈 멍석 사진에서 찾은 멍석 테두리 밖에 있습니다: 윷을 모두 멍석 위에 놓고"
                                   " 다시 찍거나, 멍석 위에 있었다면 사진에서 멍석의 모서리를 눌러 알려 주세요"),
    ("stick", "윷 네 개를 제대로 찾지 못했습니다: 네 개를 서로 떨어뜨리거나 틈을 두고 나란히, 모두 멍석 위에 보이게 놓고 다시 찍으세요"),
    ("take all three", "세 사진의 크기가 다릅니다: 같은 카메라로 세 장을 다시 찍으세요"),
)


def korean_reason(message: str) -> str:
    hint = next((ko for key, ko in HINTS if key in message), "보정하지 못했습니다")
    return f"{hint} ({message})"


@bp.post("")
@referee_required
def run_calibration() -> Response:
    data = body()
    if "mat" not in data:
        raise BadRequestError('the body must be {"mat": [[x, y], ...] or null}', rule=RULE,
                              ko='본문은 {"mat": [[x, y], ...] 또는 null} 이어야 합니다')
    mat = parse_mat(data["mat"])
    missing = [kind for kind in KINDS if not photo_path(kind).is_file()]
    if missing:
        raise ConflictError(
            f"take the calibration photos first: missing {', '.join(missing)}",
            rule=RULE,
            ko=f"보정 사진을 먼저 찍으세요: {', '.join(KIND_KO[k] for k in missing)} 사진이 없습니다",
        )
    from yut_cam.vision.errors import VisionError

    paths = [photo_path(kind) for kind in KINDS]
    target = target_path()
    with _running:
        try:
            calibration = run_blocking(calibrate_and_install, paths, mat, target)
        except VisionError as exc:
            raise IllegalError(str(exc), rule=RULE, ko=korean_reason(str(exc))) from None
        except OSError as exc:
            raise write_failed(target, exc) from None
    loop = camera_loop()
    if loop is not None:
        loop.use_calibration(calibration)
    return jsonify({"ok": True, "applied": loop is not None, **summary(calibration, target)})


# the outline confirmed must be the one in use point for point, to the 0.1 px ``summary`` rounds to
SAME_POINT = 0.1


@bp.post("/outline")
@referee_required
def confirm_found_outline() -> Response:
    from yut_cam.vision.learning import confirm_outline

    mat = parse_mat(body().get("mat"))
    if mat is None:
        raise BadRequestError('the body must be {"mat": [[x, y], ...]}: the outline you confirm', rule=RULE,
                              ko='본문은 {"mat": [[x, y], ...]} 이어야 합니다: 확인하는 멍석 윤곽')
    loop = camera_loop()
    target = target_path()
    with _running:
        calibration, problem = in_use(loop, target)
        if problem is not None:
            raise ConflictError(f"the calibration on file cannot be read ({problem}): calibrate again", rule=RULE,
                                ko="보정 파일을 읽을 수 없습니다: 다시 보정하세요")
        if calibration is None:
            raise ConflictError("nothing is calibrated yet: calibrate first, then confirm the outline", rule=RULE,
                                ko="아직 보정하지 않았습니다: 먼저 보정하고 윤곽을 확인하세요")
        shown = calibration.mat_polygon
        if len(mat) != len(shown) or any(abs(a - c) > SAME_POINT or abs(b - d) > SAME_POINT
                                         for (a, b), (c, d) in zip(mat, shown)):
            raise ConflictError("the outline confirmed is not the one in use (calibrated again meanwhile?):"
                                " look at the outline again", rule=RULE,
                                ko="확인한 윤곽이 지금 쓰는 윤곽이 아닙니다 (그새 다시 보정했나요?): 윤곽을 다시 보세요")
        confirmed = confirm_outline(calibration)
        already = confirmed is calibration
        if not already:
            try:
                confirmed = run_blocking(install, confirmed, target)
            except OSError as exc:
                raise write_failed(target, exc) from None
            if loop is not None:
                loop.use_calibration(confirmed)
    return jsonify({"ok": True, "already": already, "applied": loop is not None, **summary(confirmed, target)})


def calibrate_and_install(paths: list[Path], mat: list[tuple[float, float]] | None, target: Path) -> Any:
    """Load the photos, check the mat, calibrate, install at ``target``; → the calibration
    as loaded back from ``target``.  Raises VisionError (bad photos) or OSError."""
    from yut_cam.vision.calibration import calibrate
    from yut_cam.vision.sources import load_image

    empty, belly, back = (load_image(p) for p in paths)
    polygon = None if mat is None else check_mat(mat, (int(empty.shape[1]), int(empty.shape[0])))
    calibration = calibrate(empty, belly, back, polygon)
    return install(calibration, target)


def install(calibration: Any, target: Path) -> Any:
    """Write ``calibration`` at ``target`` atomically (the old file kept as ``<name>.bak``);
    → the calibration loaded back from ``target`` (so the service uses what a restart reads)."""
    from yut_cam.store import atomic_write_bytes
    from yut_cam.vision.calibration import Calibration

    directory = target.parent
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"{target.stem}-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}"
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=directory))
    try:
        staged = staging / f"{stem}.json"
        background = calibration.save(staged)
        Calibration.load(staged)  # it reads back: never install a file that does not
        atomic_write_bytes(directory / background.name, background.read_bytes())
        backup = backup_path(target)
        if target.is_file():
            atomic_write_bytes(backup, target.read_bytes())
        atomic_write_bytes(target, staged.read_bytes())
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    _prune_backgrounds(target)
    return Calibration.load(target)


def in_use(loop: Any, path: Path) -> tuple[Any, str | None]:
    """The calibration the camera ``loop`` reads with, else the one on file at ``path``
    (None if neither), and why the file could not be read (None if it could, or is absent)."""
    calibration = None if loop is None else loop.calibration
    if calibration is not None or not path.exists():
        return calibration, None
    from yut_cam.vision.calibration import Calibration
    from yut_cam.vision.errors import VisionError

    try:
        return run_blocking(Calibration.load, path), None
    except VisionError as exc:
        return None, str(exc)


def write_failed(target: Path, exc: OSError) -> ServiceError:
    return ServiceError(f"cannot write the calibration {str(target)!r}: {exc}", rule=RULE,
                        ko=f"보정 파일을 저장하지 못했습니다: {exc}")


def backup_path(target: Path) -> Path:
    return target.with_name(target.name + ".bak")


def _background_of(path: Path) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("background") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def _prune_backgrounds(target: Path) -> None:
    """Remove this module's background pictures that neither the file nor its .bak names."""
    keep = {_background_of(target), _background_of(backup_path(target))}
    for png in target.parent.glob(f"{target.stem}-*.background.png"):
        if png.name not in keep:
            png.unlink(missing_ok=True)


def summary(calibration: Any, path: Path) -> dict[str, Any]:
    return {
        "path": str(path),
        "image_size": list(calibration.image_size),
        "mat": [[round(x, 1), round(y, 1)] for x, y in calibration.mat_polygon],
        "stick_length_px": round(float(calibration.stick_length), 1),
        "stick_width_px": round(float(calibration.stick_width), 1),
        "warnings": list(calibration.warnings),
        "warnings_ko": [korean(why) for why in calibration.warnings],
        # with no mark learned: how many sticks may carry it (the confirmed 빽도 say which)
        "mark_candidates": len(calibration.mark_candidates),
        # how far (px) the mat's edge may lie inside and outside the outline (0, 0 when tapped),
        # and whether that is far enough that tapping the outline saves questions at every throw
        "mat_doubt": [round(float(v), 1) for v in calibration.mat_doubt],
        "mat_unsure": calibration.mat_unsure,
        # sticks of confirmed throws the face model has learned from since (배, 등)
        "learned": {face: len(side) for face, side in zip(("배", "등"), calibration.faces.learned)},
    }


@bp.get("")
@referee_session
def current() -> Response:
    """The calibration in use (or on disk), the photos taken, and whether a camera is there."""
    loop = camera_loop()
    path = target_path()
    out: dict[str, Any] = {"calibrated": False, "path": str(path), "camera": loop is not None,
                           "photos": {kind: photo_url(kind) for kind in KINDS}, "problem": None}
    calibration, out["problem"] = in_use(loop, path)
    if calibration is not None:
        out.update(calibrated=True, **summary(calibration, path))
    return jsonify(out)
