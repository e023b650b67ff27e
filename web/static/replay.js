// Replay of a recorded match: step through it event by event or scrub the timeline.
// Data: GET <body data-timeline> → {title, board, start:{state, clock}, steps:[{index, type, event,
// t, capture, clock, text, moved, state}], captures:{n: {...}}, error, error_index, links}.
// Keyboard: ←/→ step, Space play/pause, Home/End.  No network beyond this server.

import { BoardView, pieceIcon, WAITING, FINISHED } from "./board.js";
import { h } from "./live.js";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const PHASE = { throw: "던질 차례", move: "말 쓸 차례", over: "경기 끝" };
const SHOT = { throw: "던지기 시간", move: "말 쓰기 시간" };
const CRITERIA = { finished: "난 말 수", on_board: "판 위의 말 수", remaining_steps: "남은 걸음 수", referee: "심판 결정", "완승": "완승" };
const REASONS = { throw_time: "윷 던지는 시간 초과", move_time: "윷말 쓰는 시간 초과", pickup: "판정 전에 윷가락을 거둠",
  protest: "감독 외 선수의 항의", wrong_move: "판정과 다르게 윷말을 씀", conduct: "기타 규정 위반" };

const R = { data: null, board: null, step: 0, timer: null, clipTimer: null, shownCapture: null };

function total() { return R.data ? R.data.steps.length : 0; }
function stateAt(k) { return k === 0 ? R.data.start.state : R.data.steps[k - 1].state; }
function clockAt(k) { return k === 0 ? R.data.start.clock : R.data.steps[k - 1].clock; }
function mmss(t) {
  if (t === null || t === undefined) return "";
  const s = Math.floor(t);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

function show(k, { animate = false } = {}) {
  if (!R.data) return;
  k = Math.max(0, Math.min(total(), k));
  const prev = R.step;
  R.step = k;
  const state = stateAt(k);
  const step = k > 0 ? R.data.steps[k - 1] : null;
  R.board.cancelAnimations();
  R.board.render(state);
  if (animate && step && step.moved && k === prev + 1 && step.moved.route && step.moved.route.length) {
    R.board.animateMove({ team: step.moved.team, pieces: step.moved.pieces, route: step.moved.route }, step.moved.from);
  }
  const boardEl = $("board");
  boardEl.dataset.step = String(k);
  $("step-no").textContent = String(k);
  $("scrub").value = String(k);
  $("event-text").textContent = step ? `${mmss(step.t) ? mmss(step.t) + " · " : ""}${step.text}${step.undone ? " — 뒤에 되돌리기로 취소됨" : ""}` : "경기 전 (기록 시작)";
  $("event-text").dataset.type = step ? step.type : "";
  showClocks(state, clockAt(k));
  showTurn(state);
  showTrays(state);
  showWarnings(state);
  showOutcome(state);
  showCapture(k);
  for (const li of document.querySelectorAll("#events li")) {
    const on = Number(li.dataset.step) === k;
    li.classList.toggle("current", on);
    if (on) {
      // scroll only the event strip; scrollIntoView would scroll the page and hide the board
      const strip = li.parentElement;
      strip.scrollLeft = li.offsetLeft - strip.offsetLeft - (strip.clientWidth - li.clientWidth) / 2;
    }
  }
  if (R.data.error && k === total()) {
    $("load-error").hidden = false;
    $("load-error").textContent = `기록 오류 — ${R.data.error_index}번 기록에서 멈춤: ${R.data.error}`;
  }
  history.replaceState(null, "", `#step=${k}`);
}

function showClocks(state, clock) {
  $("match-clock").textContent = clock.match;
  $("elapsed").textContent = clock.elapsed;
  const m = state.match || {};
  $("shot-label").textContent = clock.shot_kind ? SHOT[clock.shot_kind] || "샷 클럭" : "샷 클럭";
  $("shot-clock").textContent = clock.shot === null || clock.shot === undefined ? "--" : String(clock.shot);
  const c = m.clock || {};
  let what = "";
  if (m.timeout) what = `작전타임 (${teamName(m.timeout.team)})`;
  else if (c.stopped) what = `중단: ${c.stopped}`;
  else if (!c.started) what = "시작 전";
  else if (state.phase === "over") what = "경기 끝";
  else what = "진행 중";
  $("clock-state").textContent = what;
}

function teamName(i) { return R.data.header.teams[i] ? R.data.header.teams[i].name : "?"; }

function showTurn(state) {
  const m = state.match || {};
  const el = $("turn");
  if (state.phase === "over") { el.textContent = "경기 끝"; el.className = "turn"; }
  else if (state.turn === null || state.turn === undefined) {
    el.textContent = "선공 결정 전 (감독 윷 던지기)"; el.className = "turn";
  } else {
    const lineup = (m.lineups || [])[state.turn] || {};
    const next = state.phase === "throw" && lineup.next_thrower ? ` — 다음 던지는 선수 ${lineup.next_thrower}` : "";
    el.textContent = `${teamName(state.turn)} ${PHASE[state.phase] || state.phase}${next}`;
    el.className = `turn team${state.turn}`;
  }
  const pend = $("pending");
  pend.replaceChildren();
  for (const p of state.pending || []) {
    const b = document.createElement("span");
    b.className = "chip";
    b.textContent = p;
    pend.appendChild(b);
  }
  if (state.bonus_throws) {
    const b = document.createElement("span");
    b.className = "chip bonus";
    b.textContent = `한 번 더 ×${state.bonus_throws}`;
    pend.appendChild(b);
  }
}

function showTrays(state) {
  const m = state.match || {};
  state.teams.forEach((team, t) => {
    const box = $(`tray${t}`);
    box.querySelector(".name").textContent = team.name;
    for (const [cls, where] of [["waiting", WAITING], ["finished", FINISHED]]) {
      const host = box.querySelector(`.pieces.${cls}`);
      host.replaceChildren();
      const n = team.pieces.filter((p) => p.at === where).length;
      host.dataset.count = String(n);
      for (let i = 0; i < n; i++) host.appendChild(pieceIcon(t, { size: 26, faded: cls === "finished" }));
      if (!n) host.textContent = "–";
    }
    box.querySelector(".v-warn").textContent = String((m.warning_counts || [0, 0])[t]);
    box.querySelector(".v-timeout").textContent = String((m.timeouts_left || [2, 2])[t]);
    box.querySelector(".v-sub").textContent = String((m.substitutions_left || [1, 1])[t]);
  });
}

function showWarnings(state) {
  const list = $("warnings");
  list.replaceChildren();
  const warns = (state.match && state.match.warnings) || [];
  for (const w of warns) {
    const li = document.createElement("li");
    li.className = `team${w.team}`;
    li.textContent = `${mmss(w.t)} ${teamName(w.team)} — ${REASONS[w.reason] || w.reason}${w.consequence ? " → " + w.consequence : ""}`;
    list.appendChild(li);
  }
  if (!warns.length) {
    const li = document.createElement("li");
    li.className = "none";
    li.textContent = "없음";
    list.appendChild(li);
  }
}

function showOutcome(state) {
  const el = $("outcome");
  if (state.phase !== "over") { el.hidden = true; return; }
  el.hidden = false;
  const how = (state.match && state.match.decided_by) || (state.judged && state.judged.decided_by);
  let text = state.winner === null || state.winner === undefined ? "무승부" : `${teamName(state.winner)} 승`;
  if (how) text += ` (${CRITERIA[how] || how})`;
  const j = state.judged;
  if (j) text += ` — 난 말 ${j.finished.join(":")}, 판 위 ${j.on_board.join(":")}, 남은 걸음 ${j.remaining_steps.join(":")}`;
  el.textContent = text;
}

// --- captures ----------------------------------------------------------------------------

function captureFor(k) {
  // the throw shown: this step's, or the latest throw before it
  for (let i = k; i >= 1; i--) {
    const s = R.data.steps[i - 1];
    if (s.capture !== null && s.capture !== undefined) return { step: s, own: i === k };
  }
  return null;
}

function showCapture(k) {
  const found = captureFor(k);
  const fig = $("capture");
  if (!found) { fig.hidden = true; stopClip(); R.shownCapture = null; return; }
  fig.hidden = false;
  const n = found.step.capture;
  const info = R.data.captures[String(n)] || null;
  fig.classList.toggle("stale", !found.own);
  $("capture-caption").textContent =
    `${found.own ? "" : "마지막 "}던지기 #${n} · ${found.step.text}` + (info && info.reading ? ` · 판독 ${info.reading.result}` : "") +
    (info && info.reading && info.reading.needs_referee && (info.reading.alternatives || []).length
      ? ` (또는 ${info.reading.alternatives.join("·")})` : "");
  // why the camera asked the referee about this throw (stick numbers as on the pictures)
  const reading = info && info.reading;
  const why = reading && reading.needs_referee ? (reading.reasons_ko || []) : [];
  $("capture-why").replaceChildren(...why.map((text) => h("li", {}, text)));
  $("capture-why").hidden = !why.length;
  fig.dataset.capture = String(n);
  if (R.shownCapture === n) return;
  R.shownCapture = n;
  stopClip();
  $("capture-none").hidden = !!info;
  fig.querySelector(".shots").hidden = !(info && (info.settled || info.annotated));
  const settled = $("settled-img"), annotated = $("annotated-img");
  settled.hidden = !(info && info.settled);
  annotated.hidden = !(info && info.annotated);
  $("reading-svg").replaceChildren();
  if (info && info.settled) {
    settled.onload = () => drawReading(info.reading, settled);
    settled.src = info.settled;
  }
  if (info && info.annotated) annotated.src = info.annotated;
  showClip(info ? info.clip : null);
}

function drawReading(reading, img) {
  const svg = $("reading-svg");
  svg.replaceChildren();
  if (!reading || !Array.isArray(reading.sticks)) return;
  svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
  const stroke = Math.max(2, img.naturalWidth / 300);
  for (const [i, s] of reading.sticks.entries()) {
    if (!Array.isArray(s.box) || s.box.length !== 4) continue;
    const poly = document.createElementNS(SVGNS, "polygon");
    poly.setAttribute("points", s.box.map((p) => p.join(",")).join(" "));
    poly.setAttribute("class", `stick ${s.face === "배" ? "belly" : "back"}${s.on_mat === false ? " off" : ""}${s.marked ? " marked" : ""}`);
    poly.setAttribute("stroke-width", String(stroke));
    svg.appendChild(poly);
    const cx = s.box.reduce((a, p) => a + p[0], 0) / 4, cy = s.box.reduce((a, p) => a + p[1], 0) / 4;
    const label = document.createElementNS(SVGNS, "text");
    label.setAttribute("x", String(cx));
    label.setAttribute("y", String(cy));
    label.setAttribute("font-size", String(stroke * 9));
    label.setAttribute("class", "stick-label");
    // numbered as the reader numbers them (its reasons say "3번 윷")
    label.textContent = `${i + 1}` + (s.marked && s.face === "배" ? "빽" : s.face) + (s.on_mat === false ? "·밖" : "");
    svg.appendChild(label);
  }
  const res = document.createElementNS(SVGNS, "text");
  res.setAttribute("x", String(stroke * 4));
  res.setAttribute("y", String(stroke * 14));
  res.setAttribute("font-size", String(stroke * 12));
  res.setAttribute("class", "reading-result");
  res.textContent = `${reading.result}${reading.confidence !== undefined ? ` ${Math.round(reading.confidence * 100)}%` : ""}`;
  svg.appendChild(res);
}

function stopClip() {
  clearInterval(R.clipTimer);
  R.clipTimer = null;
  const v = $("clip-video");
  if (!v.paused) v.pause();
  $("clip-play").textContent = "▶ 장면 재생";
}

function showClip(clip) {
  const box = $("clip-box"), video = $("clip-video"), frames = $("clip-frames"), ctl = $("clip-controls");
  box.hidden = !clip;
  video.hidden = true; frames.hidden = true; ctl.hidden = true;
  R.clip = null;
  if (!clip) return;
  if (clip.kind === "video") {
    video.hidden = false;
    video.src = clip.url;
    return;
  }
  const setFrames = (urls, fps) => {
    R.clip = { urls, fps, k: 0 };
    frames.hidden = false; ctl.hidden = false;
    frames.src = urls[urls.length - 1];
    $("clip-pos").textContent = `${urls.length}장 · ${fps} fps`;
  };
  if (clip.kind === "frames") setFrames(clip.frames, clip.fps || 30);
  else if (clip.kind === "decoded") {
    fetch(clip.info).then((r) => (r.ok ? r.json() : null)).then((info) => {
      if (!info || !info.count) { box.hidden = true; return; }
      const urls = Array.from({ length: info.count }, (_, k) => `${clip.frame}/${k}.jpg`);
      setFrames(urls, Math.round(info.fps));
    }).catch(() => { box.hidden = true; });
  }
}

function toggleClip() {
  if (!R.clip) return;
  if (R.clipTimer) { stopClip(); return; }
  const frames = $("clip-frames");
  R.clip.k = 0;
  // preload, then flip
  for (const u of R.clip.urls) { const i = new Image(); i.src = u; }
  $("clip-play").textContent = "⏸ 멈춤";
  R.clipTimer = setInterval(() => {
    const c = R.clip;
    if (!c) return stopClip();
    frames.src = c.urls[c.k];
    $("clip-pos").textContent = `${c.k + 1} / ${c.urls.length}`;
    c.k += 1;
    if (c.k >= c.urls.length) stopClip();
  }, 1000 / R.clip.fps);
}

// --- playing -----------------------------------------------------------------------------

function play(on) {
  const playing = on === undefined ? !R.timer : on;
  clearInterval(R.timer);
  R.timer = null;
  if (playing) {
    if (R.step >= total()) show(0);
    R.timer = setInterval(() => {
      if (R.step >= total()) return play(false);
      show(R.step + 1, { animate: true });
    }, Number($("speed").value));
  }
  $("btn-play").textContent = R.timer ? "정지" : "재생";
  document.body.classList.toggle("playing", !!R.timer);
}

function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target && ev.target.tagName === "SELECT") return;
  const k = ev.key;
  if (k === "ArrowRight") { show(R.step + 1, { animate: true }); }
  else if (k === "ArrowLeft") { show(R.step - 1); }
  else if (k === " " || k === "Spacebar") { play(); }
  else if (k === "Home") { show(0); }
  else if (k === "End") { show(total()); }
  else return;
  ev.preventDefault();
}

function buildEvents() {
  const list = $("events");
  list.replaceChildren();
  const li0 = document.createElement("li");
  li0.dataset.step = "0";
  li0.textContent = "경기 전";
  list.appendChild(li0);
  R.data.steps.forEach((s, i) => {
    const li = document.createElement("li");
    li.dataset.step = String(i + 1);
    li.className = `type-${s.type}` + (s.event && s.event.team !== undefined ? ` team${s.event.team}` : "") +
      (s.undone ? " undone" : "");
    li.textContent = `${i + 1}. ${mmss(s.t)} ${s.text}${s.undone ? " (취소됨)" : ""}`;
    li.title = li.textContent;
    list.appendChild(li);
  });
  list.addEventListener("click", (ev) => {
    const li = ev.target.closest("li");
    if (li) { play(false); show(Number(li.dataset.step)); }
  });
}

async function main() {
  const url = document.body.dataset.timeline;
  let data;
  try {
    const r = await fetch(url, { cache: "no-store" });
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    data = await r.json();
  } catch (e) {
    $("load-error").hidden = false;
    $("load-error").textContent = `기록을 불러오지 못했습니다: ${e.message}`;
    return;
  }
  R.data = data;
  $("title").textContent = data.title;
  $("step-total").textContent = String(total());
  $("scrub").max = String(total());
  R.board = new BoardView($("board"), data.board, {});
  buildEvents();
  $("scrub").addEventListener("input", (ev) => { play(false); show(Number(ev.target.value)); });
  $("scrub").addEventListener("keydown", (ev) => { onKey(ev); ev.stopPropagation(); });
  $("btn-first").addEventListener("click", () => show(0));
  $("btn-prev").addEventListener("click", () => show(R.step - 1));
  $("btn-next").addEventListener("click", () => show(R.step + 1, { animate: true }));
  $("btn-last").addEventListener("click", () => show(total()));
  $("btn-play").addEventListener("click", () => play());
  $("speed").addEventListener("change", () => { if (R.timer) play(true); });
  $("clip-play").addEventListener("click", toggleClip);
  for (const b of document.querySelectorAll(".controls button")) {
    b.addEventListener("keydown", (ev) => { if (ev.key === " ") { ev.preventDefault(); } });
  }
  document.addEventListener("keydown", onKey);
  const m = /step=(\d+)/.exec(location.hash);
  R.step = 0;
  show(m ? Number(m[1]) : 0);
  document.body.dataset.ready = "1";
}

main();
