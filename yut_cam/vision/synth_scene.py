"""Scene geometry and image formation for :mod:`yut_cam.vision.synth`.

The world is the floor plane in centimetres with the mat centred at the origin.  A
homography maps it to the image (mat rotation, scale, keystone tilt).  Everything on the
floor is painted into a top-down *canvas* (world -> canvas is a scale and a shift), which
is warped once into the camera image; light, vignetting, colour temperature, sensor
noise, defocus and JPEG are applied in image space.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from yut_cam.vision.synth_sticks import Light, StickLook, StickSprites
from yut_cam.vision.synth_textures import floor_texture, mat_texture

if TYPE_CHECKING:
    from yut_cam.vision.synth import SceneStyle

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]

MAT_HALF_CM = 75.0  # a 1.5 m mat


def homography(style: SceneStyle, size: tuple[int, int]) -> F64:
    """World (cm) -> image (px) for ``style`` at ``size`` = (width, height)."""
    w, h = size
    side = style.mat_fill * min(w, h)
    cx = w / 2 + style.center_offset[0] * w
    cy = h / 2 + style.center_offset[1] * h
    half = side / 2
    k, q = style.keystone, style.skew
    # an axis-aligned square made into a trapezoid: the camera tilted a little
    quad = np.array([
        [cx - half * (1 - k), cy - half * (1 - q)],
        [cx + half * (1 - k), cy - half * (1 + q)],
        [cx + half * (1 + k), cy + half * (1 + q)],
        [cx - half * (1 + k), cy + half * (1 - q)],
    ], np.float32)
    a = math.radians(style.mat_rotation_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * MAT_HALF_CM
    world = (sq @ rot.T).astype(np.float32)
    H: F64 = cv2.getPerspectiveTransform(world, quad).astype(np.float64)
    return H


def project(H: F64, pts: F64) -> F64:
    """Apply a homography to an (N, 2) array of points."""
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ H.T
    out: F64 = p[:, :2] / p[:, 2:3]
    return out


def mat_outline(style: SceneStyle, n: int = 72) -> F64:
    """The mat's outline in world cm (a square, or a circle as an ``n``-gon)."""
    if style.mat_kind.startswith("round"):
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        return np.stack([np.cos(t), np.sin(t)], 1) * MAT_HALF_CM
    a = MAT_HALF_CM
    return np.array([[-a, -a], [a, -a], [a, a], [-a, a]], np.float64)


@dataclass
class Scene:
    """Everything of one style at one image size that does not change between throws."""

    size: tuple[int, int]
    H: F64
    ppc: float
    origin: tuple[float, float]
    to_image: F64
    background: F32
    light_map: F32
    world_box: tuple[float, float, float, float]
    sprites: tuple[StickSprites, ...]
    look: StickLook
    light: Light
    mat_polygon: F64


def _light_map(style: SceneStyle, size: tuple[int, int], rng: np.random.Generator) -> F32:
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    nx = (xx - w / 2) / (max(w, h) / 2)
    ny = (yy - h / 2) / (max(w, h) / 2)
    g = math.radians(style.light_azimuth_deg)
    grad = 1.0 + style.gradient * (nx * math.cos(g) + ny * math.sin(g))
    vig = 1.0 - style.vignette * (nx * nx + ny * ny) ** 1.5
    lum = (style.brightness * grad * vig).astype(np.float32)
    if style.glare > 0:
        gx, gy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        r = 0.08 * min(w, h)
        lum += (style.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))).astype(np.float32)
    t = style.color_temp
    tint = np.array([1 - 0.22 * t, 1.0 - 0.03 * abs(t), 1 + 0.15 * t], np.float32)
    out: F32 = lum[..., None] * tint[None, None, :]
    return out


@functools.lru_cache(maxsize=6)
def build_scene(style: SceneStyle, size: tuple[int, int], supersample: float) -> Scene:
    """Render the parts of a scene that every throw of ``style`` at ``size`` shares (cached)."""
    rng = np.random.default_rng(style.seed)
    w, h = size
    H = homography(style, size)
    Hinv = np.linalg.inv(H)
    corners = project(np.asarray(Hinv, np.float64), np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    x0, y0 = (float(v) - 4.0 for v in corners.min(0))
    x1, y1 = (float(v) + 4.0 for v in corners.max(0))
    # the canvas resolution: the finest image scale, supersampled
    unit = project(H, np.array([[0.0, 0.0], [1.0, 0.0]]))
    img_ppc = max(float(np.linalg.norm(unit[1] - unit[0])), style.mat_fill * min(w, h) / (2 * MAT_HALF_CM))
    ppc = img_ppc * 1.1 * supersample
    cw, ch = int(math.ceil((x1 - x0) * ppc)), int(math.ceil((y1 - y0) * ppc))
    xs = (np.arange(cw, dtype=np.float32)[None, :] / np.float32(ppc) + np.float32(x0)) * np.ones((ch, 1), np.float32)
    ys = (np.arange(ch, dtype=np.float32)[:, None] / np.float32(ppc) + np.float32(y0)) * np.ones((1, cw), np.float32)
    # the floor is laid independently of the mat's rotation
    fa = math.radians(float(rng.uniform(0, 180)))
    hx, hy = xs[::2, ::2], ys[::2, ::2]  # the floor is background: half resolution is plenty
    fx = (hx * math.cos(fa) - hy * math.sin(fa)).astype(np.float32)
    fy = (hx * math.sin(fa) + hy * math.cos(fa)).astype(np.float32)
    floor = floor_texture(style.floor_kind, style.floor_color, rng, fx, fy, ppc / 2)
    background = np.asarray(cv2.resize(floor, (cw, ch), interpolation=cv2.INTER_LINEAR), np.float32)
    # the mat only over its own bounding box
    m = MAT_HALF_CM + 2.0
    c0 = max(0, int((-m - x0) * ppc)), max(0, int((-m - y0) * ppc))
    c1 = min(cw, int(math.ceil((m - x0) * ppc))), min(ch, int(math.ceil((m - y0) * ppc)))
    sx, sy = xs[c0[1]:c1[1], c0[0]:c1[0]], ys[c0[1]:c1[1], c0[0]:c1[0]]
    mat = mat_texture(style.mat_kind, style.mat_color, rng, sx, sy, ppc, MAT_HALF_CM)
    if style.mat_kind.startswith("round"):
        dist = MAT_HALF_CM - np.hypot(sx, sy)
    else:
        dist = MAT_HALF_CM - np.maximum(np.abs(sx), np.abs(sy))
    if style.mat_kind.endswith("straw"):
        dist = dist + 0.4 * np.sin(np.arctan2(sy, sx) * 9.0)
    inside = np.clip(dist * ppc + 0.5, 0.0, 1.0)[..., None]
    # the mat is a little thick: a thin dark line where it meets the floor
    seam = np.exp(-((dist * ppc / 1.2) ** 2))[..., None] * 0.35
    sub = background[c0[1]:c1[1], c0[0]:c1[0]]
    background[c0[1]:c1[1], c0[0]:c1[0]] = (mat * inside + sub * (1 - inside)) * (1 - seam)
    S = np.array([[ppc, 0, -x0 * ppc], [0, ppc, -y0 * ppc], [0, 0, 1]], np.float64)
    to_image = H @ np.linalg.inv(S)
    look = StickLook(style.stick_length_cm, style.stick_width_cm, style.wood, style.back,
                     style.pattern, style.pattern_color, style.mark, style.mark_color, style.mark_inset)
    sprites = tuple(StickSprites(look, i == style.marked_stick, ppc, rng) for i in range(4))
    light = Light(style.light_azimuth_deg, style.light_elevation_deg, style.ambient, style.shadow)
    return Scene(size=size, H=H, ppc=ppc, origin=(float(x0), float(y0)), to_image=to_image,
                 background=background.astype(np.float32), light_map=_light_map(style, size, rng),
                 world_box=(float(corners[:, 0].min()), float(corners[:, 1].min()),
                            float(corners[:, 0].max()), float(corners[:, 1].max())),
                 sprites=sprites, look=look, light=light,
                 mat_polygon=project(H, mat_outline(style)))


def form_image(scene: Scene, canvas: F32, style: SceneStyle, rng: np.random.Generator | None,
               jpeg: bool = True, noise_field: F32 | None = None) -> U8:
    """Warp the canvas into the camera and apply light, noise, defocus and JPEG."""
    w, h = scene.size
    img = np.asarray(cv2.warpPerspective(canvas, scene.to_image, (w, h), flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REFLECT), np.float32)
    cv2.multiply(img, scene.light_map, dst=img)
    field = noise_field
    if field is None and rng is not None and style.noise > 0:
        field = rng.standard_normal((h, w, 3), dtype=np.float32)
        field *= np.float32(style.noise)
    if field is not None:
        # shot noise grows with the signal: sigma * sqrt(level / 128)
        scale = np.sqrt(np.maximum(img, np.float32(1.0)) * np.float32(1 / 128))
        img += field * scale
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    if style.blur > 0.05:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), style.blur), np.uint8)
    if jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(style.jpeg_quality)])
        if ok:
            dec = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            if dec is not None:
                out = np.asarray(dec, np.uint8)
    return out
