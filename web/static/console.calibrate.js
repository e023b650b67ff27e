// The console's camera calibration dialog: three photos from the live camera (빈 멍석, 배가 위,
// 등이 위), the mat outline tapped on the empty-mat photo (or found automatically), 보정하기.
// Errors are shown inside the dialog in words (a modal dialog hides the page's toast).
import { h } from "./live.js";

const $ = (id) => document.getElementById(id);
const CSRF = document.querySelector('meta[name="csrf-token"]').content;
const SVG = "http://www.w3.org/2000/svg";
const KINDS = ["empty", "belly", "back"];
const MIN_POINTS = 4;

const cal = {
  photos: { empty: null, belly: null, back: null },   // url of each photo taken (null: none)
  size: null,          // [width, height] of the empty-mat photo
  taps: [],            // [x, y] in photo pixels, in tap order
  current: null,       // the calibration in use (GET /api/calibration)
  result: null,        // outline of the last successful 보정하기
  camera: true,
  busy: false,
};

async function call(method, url, body) {
  let r;
  try {
    r = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": "ko", "X-CSRF-Token": CSRF },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (_) {
    return { ok: false, status: 0, data: { error: "서버에 연결할 수 없습니다. 네트워크와 서버를 확인하세요." } };
  }
  let data = null;
  try { data = await r.json(); } catch (_) { data = null; }
  if (r.status === 401) setTimeout(() => location.assign("/referee/login"), 2500);
  return { ok: r.ok, status: r.status, data };
}

function say(kind, title, detail) {
  const box = $("cal-result");
  box.className = `cal-result ${kind}`;
  box.replaceChildren(h("div", { class: "cal-r-title" }, title), detail ? h("div", { class: "cal-r-detail" }, detail) : null);
  box.hidden = false;
}

function mode() { return document.querySelector('input[name="cal-mode"]:checked')?.value || "taps"; }

// the outline as the server will use it: the points ordered around their centre
export function ordered(points) {
  if (points.length < 3) return points.slice();
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  return points.slice().sort((a, b) => Math.atan2(a[1] - cy, a[0] - cx) - Math.atan2(b[1] - cy, b[0] - cx));
}

function svgNode(tag, attrs) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

function outline(points, cls, unit) {
  if (points.length < 2) return null;
  const tag = points.length >= 3 ? "polygon" : "polyline";
  return svgNode(tag, { points: points.map((p) => p.join(",")).join(" "), class: cls, "stroke-width": unit * 1.2 });
}

function drawStage() {
  const svg = $("cal-svg");
  const img = $("cal-photo");
  img.hidden = !cal.photos.empty;
  const has = !!cal.photos.empty && !!cal.size;
  svg.style.display = has ? "" : "none";
  $("cal-stage-empty").hidden = !!cal.photos.empty;
  if (!has) { svg.replaceChildren(); return; }
  const [w, hgt] = cal.size;
  $("cal-stage").style.aspectRatio = `${w} / ${hgt}`;
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  const unit = w / 300;
  const nodes = [];
  const result = cal.result ?? (mode() === "auto" || !cal.taps.length ? cal.current?.mat : null);
  if (result?.length) nodes.push(outline(result, cal.result ? "found" : "in-use", unit));
  if (mode() === "taps") {
    if (!cal.result) nodes.push(outline(ordered(cal.taps), "taps", unit));
    cal.taps.forEach((p, i) => {
      nodes.push(svgNode("circle", { cx: p[0], cy: p[1], r: unit * 4, class: "tap" }));
      const label = svgNode("text", { x: p[0], y: p[1] + unit * 1.9, "font-size": unit * 5.5, class: "tap-no" });
      label.textContent = String(i + 1);
      nodes.push(label);
    });
  }
  svg.replaceChildren(...nodes.filter(Boolean));
}

function refresh() {
  for (const kind of KINDS) {
    const step = $(`cal-step-${kind}`);
    const url = cal.photos[kind];
    const img = step.querySelector("img");
    step.classList.toggle("done", !!url);
    if (url) { if (img.getAttribute("src") !== url) img.src = url; img.hidden = false; } else img.hidden = true;
    step.querySelector("figcaption").hidden = !!url;
    step.querySelector(".cal-shoot").textContent = url ? "다시 찍기" : "사진 찍기";
    step.querySelector(".cal-shoot").disabled = cal.busy || !cal.camera;
  }
  $("cal-nocam").hidden = cal.camera;
  if (cal.photos.empty && $("cal-photo").getAttribute("src") !== cal.photos.empty) $("cal-photo").src = cal.photos.empty;
  const taps = mode() === "taps";
  $("cal-tap-help").hidden = !taps;
  $("cal-count").textContent = taps ? `${cal.taps.length}점` : "자동";
  $("cal-undo").disabled = !taps || !cal.taps.length || cal.busy;
  $("cal-clear").disabled = !taps || !cal.taps.length || cal.busy;
  const missing = KINDS.filter((k) => !cal.photos[k]).map((k) => ({ empty: "1", belly: "2", back: "3" })[k]);
  let why = "";
  if (missing.length) why = `${missing.join(", ")}번 사진을 먼저 찍으세요`;
  else if (taps && cal.taps.length < MIN_POINTS) why = `멍석 모서리를 ${MIN_POINTS - cal.taps.length}곳 더 누르세요 (지금 ${cal.taps.length}점)`;
  $("cal-why").textContent = why;
  $("cal-run").disabled = cal.busy || !!why;
  $("cal-run").textContent = cal.busy ? "보정하는 중…" : "보정하기";
  // a found outline not yet exact: the referee may confirm it as the mat's edge (taps are exact)
  const found = cal.current?.calibrated && (cal.current.mat_doubt || []).some((v) => v > 0);
  $("cal-confirm").hidden = !found;
  $("cal-confirm-btn").disabled = cal.busy || !found;
  const c = cal.current;
  $("cal-now").textContent = c?.calibrated
    ? `지금 보정: 멍석 ${c.mat.length}점 · 윷 길이 ${Math.round(c.stick_length_px)} px` +
      (c.mark_candidates ? " · 빽도 표시: 심판이 빽도를 한두 번 확인하면 배웁니다"
        : (c.warnings_ko || []).length > (c.mat_unsure ? 1 : 0) ? " · 빽도 표시 없음: 배 하나는 심판이 정합니다" : "") +
      (c.mat_unsure ? " · 멍석 가장자리 불확실: 윤곽을 탭해 다시 보정하세요" : "") +
      (c.learned && c.learned["배"] + c.learned["등"] > 0
        ? ` · 확인된 던지기에서 배운 윷: 배 ${c.learned["배"]} · 등 ${c.learned["등"]}` : "")
    : (c?.problem ? "보정 파일에 문제가 있습니다" : "아직 보정하지 않았습니다");
  drawStage();
}

async function load() {
  const r = await call("GET", "/api/calibration");
  if (!r.ok) { say("bad", "보정 정보를 읽지 못했습니다", r.data?.error); return; }
  cal.current = r.data;
  cal.camera = !!r.data.camera;
  cal.photos = { ...cal.photos, ...r.data.photos };
  refresh();
}

async function shoot(kind) {
  if (cal.busy) return;
  cal.busy = true;
  refresh();
  try {
    const r = await call("POST", "/api/calibration/snapshot", { kind });
    if (!r.ok) { say("bad", "사진을 찍지 못했습니다", r.data?.error); return; }
    cal.photos[kind] = r.data.url;
    if (kind === "empty") cal.size = [r.data.width, r.data.height];
    cal.result = null;
    $("cal-result").hidden = true;
  } finally {
    cal.busy = false;
    refresh();
  }
}

async function run() {
  if (cal.busy) return;
  cal.busy = true;
  cal.result = null;
  say("wait", "보정하는 중입니다…", "몇 초 걸릴 수 있습니다");
  refresh();
  try {
    const mat = mode() === "auto" ? null : ordered(cal.taps).map(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    const r = await call("POST", "/api/calibration", { mat });
    if (!r.ok) {
      const title = r.status === 422 ? "보정하지 못했습니다" : `보정하지 못했습니다 (HTTP ${r.status})`;
      say("bad", title, r.data?.error);
      return;
    }
    cal.result = r.data.mat;
    const done = `멍석 ${r.data.mat.length}점 · 윷 길이 ${Math.round(r.data.stick_length_px)} px` +
      (r.data.applied ? " · 다음 던지기부터 카메라가 이 보정으로 읽습니다" : "");
    const warnings = r.data.warnings_ko || [];
    // calibrated, but something it cannot read: say it plainly, in amber
    if (warnings.length) say("warn", "보정했습니다 (주의)", [done, ...warnings].join(" · "));
    else say("good", "보정했습니다 ✓", done);
    await load();
  } finally {
    cal.busy = false;
    refresh();
  }
}

async function confirmOutline() {
  if (cal.busy || !cal.current?.calibrated) return;
  cal.busy = true;
  refresh();
  try {
    const r = await call("POST", "/api/calibration/outline", { mat: cal.current.mat });
    if (!r.ok) { say("bad", "윤곽을 확인하지 못했습니다", r.data?.error); return; }
    say("good", "윤곽을 확인했습니다 ✓", "멍석 가장자리 근처의 윷을 더 묻지 않습니다" +
      (r.data.applied ? " · 다음 던지기부터 카메라가 이 윤곽으로 읽습니다" : ""));
    await load();
  } finally {
    cal.busy = false;
    refresh();
  }
}

function tap(ev) {
  if (mode() !== "taps" || !cal.size || cal.busy) return;
  const box = $("cal-svg").getBoundingClientRect();
  const [w, hgt] = cal.size;
  const x = Math.min(w, Math.max(0, ((ev.clientX - box.left) / box.width) * w));
  const y = Math.min(hgt, Math.max(0, ((ev.clientY - box.top) / box.height) * hgt));
  cal.taps.push([x, y]);
  cal.result = null;
  refresh();
}

export function openCalibration() {
  const dlg = $("dlg-cal");
  $("cal-result").hidden = true;
  cal.result = null;
  refresh();
  if (!dlg.open) dlg.showModal();
  load();
}

$("btn-cal").addEventListener("click", openCalibration);
$("cal-close").addEventListener("click", () => $("dlg-cal").close());
document.querySelectorAll("#dlg-cal .cal-shoot").forEach((b) => b.addEventListener("click", () => shoot(b.dataset.kind)));
$("cal-svg").addEventListener("click", tap);
$("cal-undo").addEventListener("click", () => { cal.taps.pop(); cal.result = null; refresh(); });
$("cal-clear").addEventListener("click", () => { cal.taps = []; cal.result = null; refresh(); });
$("cal-run").addEventListener("click", run);
$("cal-confirm-btn").addEventListener("click", confirmOutline);
document.querySelectorAll('input[name="cal-mode"]').forEach((r) => r.addEventListener("change", () => { cal.result = null; refresh(); }));
$("cal-photo").addEventListener("load", () => {
  const img = $("cal-photo");
  if (img.naturalWidth) cal.size = [img.naturalWidth, img.naturalHeight];
  drawStage();
});
