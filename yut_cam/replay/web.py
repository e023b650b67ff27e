"""The replay page: a Flask blueprint (``replay_bp``) for the live service and a tiny app of
its own (:func:`create_replay_app`) for ``yut-cam replay-serve FILE|DIR``.

Routes (``<id>`` is a match id of the store; the stand-alone app serves its one match as 1):

- ``/replay/<id>``                    the page (``web/templates/replay.html``)
- ``/replay/<id>/timeline.json``      every step with its state, the board, the captures
- ``/replay/<id>/captures/<n>/<file>`` a capture's files (settled.jpg, annotated.jpg, clip …)
- ``/replay/<id>/captures/<n>/clip.json`` and ``…/clip/<k>.jpg``: a clip the browser cannot
  play as is (an MJPG ``.avi`` from OpenCV) decoded into JPEG frames for the flip-book
- ``/replay/<id>/sheet``, ``/replay/<id>/sheet.csv``: the record sheet (기록지)
- ``/replay/<id>/sticks.svg``         stick statistics chart of the match's throws
- ``/replay/static/<file>``           the page's JS and CSS (from ``web/static``)

Everything is served from the Pi itself: no CDN, no camera needed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, redirect, render_template, send_file, url_for

from yut_cam.match import MatchError
from yut_cam.replay import sheet as sheet_mod
from yut_cam.replay import source as src
from yut_cam.replay import timeline as tl
from yut_cam.vision.reasons import korean

EXTENSION = "yut_replay"
Resolver = Callable[[int], src.MatchSource]

_WEB = sheet_mod.web_root()
replay_bp = Blueprint(
    "replay", __name__,
    template_folder=str(_WEB / "templates"),
    static_folder=str(_WEB / "static"),
    static_url_path="/replay/static",
)  # fmt: skip


# --- where matches come from --------------------------------------------------------------


def _config_path(*keys: str) -> str | None:
    for key in keys:
        value = current_app.config.get(key)
        if isinstance(value, (str, Path)) and str(value):
            return str(value)
    return None


#: Where the live app (:func:`yut_cam.web.create_app`) keeps its MatchService.
SERVICE_EXTENSION = "yut_cam.service"


def _service_stores() -> tuple[Any, Path] | None:
    """The live service's open EventStore and captures root, when this runs inside it."""
    from yut_cam.store import CaptureStore, EventStore

    service = current_app.extensions.get(SERVICE_EXTENSION)
    store, captures = getattr(service, "store", None), getattr(service, "captures", None)
    if isinstance(store, EventStore) and isinstance(captures, CaptureStore):
        return store, captures.root
    return None


def _live_resolver(match_id: int) -> src.MatchSource:
    """The live service's store (or the database and captures folder of the app config)."""
    live = _service_stores()
    if live is not None:
        return src.from_open_store(live[0], live[1], match_id)
    db = _config_path("DB_PATH") or src.DEFAULT_DB
    captures = _config_path("CAPTURE_DIR") or str(Path(db).parent / "captures")
    return src.from_store(db, captures, match_id)


def _source(match_id: int) -> src.MatchSource:
    resolver: Resolver = current_app.extensions.get(EXTENSION) or _live_resolver
    try:
        return resolver(match_id)
    except src.SourceError as exc:
        abort(404, description=str(exc))


def _timeline(source: src.MatchSource) -> tl.Timeline:
    try:
        return tl.build(source.header, source.events, strict=False)
    except (MatchError, tl.TimelineError) as exc:
        abort(422, description=f"{source.label}: {exc}")


# --- captures -----------------------------------------------------------------------------


def _reading(folder: Path) -> dict[str, Any] | None:
    path = folder / "reading.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    reasons = data.get("reasons")
    if isinstance(reasons, list):  # why the camera asked the referee, in their words (older records lack it)
        data["reasons_ko"] = [korean(why) for why in reasons if isinstance(why, str)]
    return data


def capture_info(match_id: int, source: src.MatchSource, n: int) -> dict[str, Any] | None:
    folder = source.capture_dir(n)
    if folder is None:
        return None
    files = sorted(f.name for f in folder.iterdir() if f.is_file() and src.safe_name(f.name))

    def url(name: str) -> str:
        return url_for("replay.capture_file", match_id=match_id, n=n, name=name)

    clip = src.clip_of(files)
    clip_json: dict[str, Any] | None = None
    if clip is not None:
        if clip["kind"] == "video":
            clip_json = {"kind": "video", "url": url(clip["file"])}
        elif clip["kind"] == "frames":
            clip_json = {"kind": "frames", "frames": [url(f) for f in clip["files"]], "fps": 30}
        else:
            clip_json = {"kind": "decoded", "file": clip["file"],
                         "info": url_for("replay.clip_info", match_id=match_id, n=n),
                         "frame": url_for("replay.clip_frame", match_id=match_id, n=n, k=0).rsplit("/", 1)[0]}
    return {
        "n": n,
        "files": files,
        "settled": url("settled.jpg") if "settled.jpg" in files else None,
        "annotated": url("annotated.jpg") if "annotated.jpg" in files else None,
        "reading": _reading(folder),
        "clip": clip_json,
    }


class _ClipCache:
    """Decoded clips as JPEG frames, a few at a time (keyed by path and mtime)."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, float], tuple[list[bytes], float]] = OrderedDict()

    def get(self, path: Path) -> tuple[list[bytes], float]:
        key = (str(path), path.stat().st_mtime)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        frames = decode_clip(path)
        with self._lock:
            self._items[key] = frames
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return frames


def decode_clip(path: Path, max_frames: int = 900) -> tuple[list[bytes], float]:
    """Every frame of a video file as JPEG bytes, and its frame rate (30 if unknown)."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    frames: list[bytes] = []
    try:
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        while len(frames) < max_frames:
            ok, frame = cap.read()
            if not ok:
                break
            good, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
            if good:
                frames.append(buf.tobytes())
    finally:
        cap.release()
    return frames, fps if 1.0 <= fps <= 240.0 else 30.0


_clips = _ClipCache()


# --- routes -------------------------------------------------------------------------------


@replay_bp.get("/replay/")
def index() -> Any:
    resolver = current_app.extensions.get(EXTENSION)
    if resolver is not None:
        return redirect(url_for("replay.page", match_id=1))
    from yut_cam.store import EventStore, StoreError

    live = _service_stores()
    try:
        if live is not None:
            matches = live[0].matches()
        else:
            with EventStore(_config_path("DB_PATH") or src.DEFAULT_DB, create=False) as store:
                matches = store.matches()
    except StoreError as exc:
        abort(404, description=str(exc))
    links = "".join(
        f'<li><a href="{url_for("replay.page", match_id=m.id)}">{m.id}. {_esc(m.title)}</a> ({m.status}, {m.event_count})</li>'
        for m in matches
    )
    return f'<!doctype html><html lang="ko"><meta charset="utf-8"><title>경기 다시 보기</title><h1>경기 다시 보기</h1><ul>{links}</ul></html>'


def _esc(text: str) -> str:
    from html import escape

    return escape(text)


@replay_bp.get("/replay/<int:match_id>")
def page(match_id: int) -> Any:
    source = _source(match_id)
    header = source.header
    teams = header.get("teams") if isinstance(header, dict) else None
    title = header.get("title") or " 대 ".join(
        t.get("name", "?") for t in teams if isinstance(t, dict)) if isinstance(teams, list) else ""
    return render_template("replay.html", match_id=match_id, title=title or f"경기 {match_id}", source=source.label)


@replay_bp.get("/replay/<int:match_id>/timeline.json")
def timeline_json(match_id: int) -> Any:
    source = _source(match_id)
    timeline = _timeline(source)
    data = timeline.to_json()
    numbers = sorted({s.capture for s in timeline.steps if s.capture is not None} | set(source.capture_numbers()))
    captures = {}
    for n in numbers:
        info = capture_info(match_id, source, n)
        if info is not None:
            captures[str(n)] = info
    data["id"] = match_id
    data["source"] = source.label
    data["captures"] = captures
    data["links"] = {
        "sheet": url_for("replay.sheet_page", match_id=match_id),
        "csv": url_for("replay.sheet_csv", match_id=match_id),
        "sticks": url_for("replay.sticks_svg", match_id=match_id),
    }
    return jsonify(data)


@replay_bp.get("/replay/<int:match_id>/captures/<int:n>/<name>")
def capture_file(match_id: int, n: int, name: str) -> Any:
    path = _source(match_id).capture_file(n, name)
    if path is None:
        abort(404, description=f"no file {name!r} in capture {n} of match {match_id}")
    return send_file(Path(path).resolve(), max_age=3600)  # relative would mean the package folder


@replay_bp.get("/replay/<int:match_id>/captures/<int:n>/clip.json")
def clip_info(match_id: int, n: int) -> Any:
    path = _decodable(match_id, n)
    frames, fps = _clips.get(path)
    return jsonify({"count": len(frames), "fps": fps, "file": path.name})


@replay_bp.get("/replay/<int:match_id>/captures/<int:n>/clip/<int:k>.jpg")
def clip_frame(match_id: int, n: int, k: int) -> Any:
    frames, _ = _clips.get(_decodable(match_id, n))
    if not 0 <= k < len(frames):
        abort(404, description=f"clip of capture {n} has {len(frames)} frames, not frame {k}")
    return Response(frames[k], mimetype="image/jpeg", headers={"Cache-Control": "max-age=3600"})


def _decodable(match_id: int, n: int) -> Path:
    source = _source(match_id)
    folder = source.capture_dir(n)
    clip = src.clip_of(sorted(f.name for f in folder.iterdir() if f.is_file())) if folder is not None else None
    if folder is None or clip is None or clip["kind"] != "decoded":
        abort(404, description=f"capture {n} of match {match_id} has no clip to decode")
    return folder / str(clip["file"])


def _sheet(match_id: int) -> sheet_mod.RecordSheet:
    return sheet_mod.build_sheet(_timeline(_source(match_id)))


@replay_bp.get("/replay/<int:match_id>/sheet")
def sheet_page(match_id: int) -> Any:
    return render_template("sheet.html", sheet=_sheet(match_id), replay_url=url_for("replay.page", match_id=match_id))


@replay_bp.get("/replay/<int:match_id>/sheet.csv")
def sheet_csv(match_id: int) -> Any:
    body = sheet_mod.sheet_csv(_sheet(match_id)).encode("utf-8")
    name = f"match-{match_id}-기록지.csv"
    disposition = f"attachment; filename=\"match-{match_id}.csv\"; filename*=UTF-8''{quote(name)}"
    return Response(body, mimetype="text/csv", headers={"Content-Disposition": disposition},
                    content_type="text/csv; charset=utf-8")


@replay_bp.get("/replay/<int:match_id>/sticks.svg")
def sticks_svg(match_id: int) -> Any:
    svg = sticks_chart(_source(match_id))
    if svg is None:
        abort(404, description=f"match {match_id}: no throws to count")
    return Response(svg, mimetype="image/svg+xml")


def sticks_chart(source: src.MatchSource) -> str | None:
    """The statistics engineer's chart (:mod:`yut_cam.replay.stickchart`) over the match's
    throws; None when there are none or the record's stick data is malformed."""
    from yut_cam.replay.stickchart import render_svg
    from yut_cam.replay.stickmodel import StickStatsError
    from yut_cam.replay.stickstats import analyse_throws, read_yutlog

    lines = [json.dumps(source.header, ensure_ascii=False)]
    lines += [json.dumps({k: v for k, v in e.items() if not k.startswith("_")}, ensure_ascii=False) for e in source.events]
    try:
        throws = read_yutlog(lines, source.label)
        if not throws:
            return None
        return render_svg(analyse_throws(throws))
    except StickStatsError:
        return None


# --- the stand-alone app ------------------------------------------------------------------


def create_replay_app(source: src.MatchSource | str | Path) -> Flask:
    """A small app serving one exported match at ``/replay/1`` (``/`` redirects there)."""
    match = source if isinstance(source, src.MatchSource) else src.from_path(source)
    app = Flask(__name__, static_folder=None, template_folder=str(_WEB / "templates"))
    app.config["JSON_AS_ASCII"] = False
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    def resolve(match_id: int) -> src.MatchSource:
        if match_id != 1:
            raise src.SourceError(f"this replay serves one match (1), not {match_id}")
        return match

    app.extensions[EXTENSION] = resolve
    app.register_blueprint(replay_bp)

    @app.get("/")
    def root() -> Any:
        return redirect(url_for("replay.page", match_id=1))

    return app


__all__ = ["EXTENSION", "capture_info", "create_replay_app", "decode_clip", "replay_bp", "sticks_chart"]
