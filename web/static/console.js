// The referee console: set up a match, confirm or correct the camera's reading, make moves on
// the board (tap a piece, then a highlighted destination), referee actions, errors in words.
import { BoardView, fetchBoard, pieceIcon, TEAM_COLOUR, WAITING, FINISHED } from "./board.js";
import { ClockSync, LiveConnection, formatClock, describeEvent, WARNING_REASONS, DECIDED_BY,
  MATCH_SECONDS, TIMEOUT_SECONDS, h } from "./live.js";
import "./console.calibrate.js";   // the 카메라 보정 dialog (top bar button)

const $ = (id) => document.getElementById(id);
const CSRF = document.querySelector('meta[name="csrf-token"]').content;
const clock = new ClockSync();
let matchId = document.body.dataset.matchId || null;
let board = null;
let state = null;
let live = null;
let selected = null;      // station name the referee picked ("대기" for a waiting piece)
let busy = false;

const teamName = (i) => state?.teams?.[i]?.name ?? TEAM_COLOUR[i];

// ---------------------------------------------------------------- talking to the server

const STATUS_TITLE = {
  400: "잘못된 요청",
  401: "로그인이 필요합니다",
  403: "거부됨 (권한/보안 토큰)",
  404: "찾을 수 없음",
  409: "다른 기록이 먼저 들어왔습니다 — 최신 상태로 바꿨으니 다시 하세요",
  422: "규정에 맞지 않아 거부됨",
  429: "시도가 너무 많습니다",
};

function showError(status, data) {
  const title = STATUS_TITLE[status] || `오류 (HTTP ${status})`;
  const toast = $("toast");
  toast.replaceChildren(
    h("div", { class: "t-title" }, title),
    data?.error ? h("div", { class: "t-error" }, data.error) : null,
    data?.rule ? h("div", { class: "t-rule" }, `규정: ${data.rule}`) : null,
    h("button", { type: "button", class: "t-close", "aria-label": "닫기", onclick: hideError }, "닫기"));
  toast.dataset.status = status;
  toast.hidden = false;
}
function hideError() { $("toast").hidden = true; }

async function api(method, url, body) {
  let r;
  try {
    r = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": "ko", "X-CSRF-Token": CSRF },   // refusals in Korean (error_en keeps the English)
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (_) {
    showError(0, { error: "서버에 연결할 수 없습니다. 네트워크와 서버를 확인하세요." });
    return null;
  }
  let data = null;
  try { data = await r.json(); } catch (_) { data = null; }
  if (!r.ok) {
    showError(r.status, data);
    if (r.status === 401) setTimeout(() => location.assign("/referee/login"), 2500);
    if (r.status === 409 && live) live.refetch();
    return null;
  }
  hideError();
  return data;
}

async function act(fn) {
  if (busy) return null;
  busy = true;
  document.body.classList.add("busy");
  try { return await fn(); } finally { busy = false; document.body.classList.remove("busy"); }
}

function accept(data) {
  // the answer to our own POST; the stream may already have brought something newer
  if (data?.state && (!state || (data.state.seq ?? 0) >= (state.seq ?? 0))) {
    state = data.state;
    clock.update(state.clock_sync);
    render();
  }
  return data;
}

const sendEvent = (event) => act(async () =>
  accept(await api("POST", `/api/matches/${matchId}/events`, { event, expect_seq: state?.seq })));

const confirmResult = (result) => act(async () =>
  accept(await api("POST", `/api/matches/${matchId}/reading/confirm`, { result, expect_seq: state?.seq })));

// ---------------------------------------------------------------- rendering

function render() {
  if (!state) return;
  $("setup").hidden = true;
  $("run").hidden = false;
  document.title = `${state.title || "경기"} — 심판 콘솔`;
  document.querySelectorAll("[data-team-name]").forEach((n) => { n.textContent = teamName(Number(n.dataset.teamName)); });
  $("a-timeout0").textContent = `작전타임 ${teamName(0)} (${state.match?.timeouts_left?.[0] ?? 0})`;
  $("a-timeout1").textContent = `작전타임 ${teamName(1)} (${state.match?.timeouts_left?.[1] ?? 0})`;
  $("export").href = `/api/matches/${matchId}/export`;
  $("open-board").href = `/m/${matchId}`;
  document.querySelector(".panel").classList.toggle("move-phase", state.phase === "move" && legal().length > 0);
  renderStatus();
  renderReading();
  renderBoard();
  renderMoves();
  renderActions();
  renderHistory();
  renderGap();
  renderCamera();
  tickClocks();
}

function renderCamera() {
  // the camera's health on the 카메라 보정 button (e.g. "보정 필요" before the first calibration)
  const cam = state.camera;
  const btn = $("btn-cal");
  btn.classList.toggle("attention", !!cam && !cam.ok);
  btn.title = cam ? `카메라: ${cam.message}` : "카메라 없음";
}

function renderStatus() {
  const m = state.match || {};
  const status = $("status");
  status.className = "status";
  if (state.phase === "over" || state.status === "finished") {
    const w = state.winner;
    $("s-turn").textContent = w === 0 || w === 1 ? `${teamName(w)} 승리` : "경기 종료";
    $("s-phase").textContent = DECIDED_BY[m.decided_by] || (state.judged ? "동점 — 심판 판정 필요" : "");
    const j = state.judged;
    $("s-next").textContent = j ? `난 말 ${j.finished.join(":")} · 판 위 ${j.on_board.join(":")} · 남은 걸음 ${j.remaining_steps.join(":")}` : "";
  } else if (m.throwoff) {
    const r = m.throwoff.results || [null, null];
    const next = r[0] === null ? 0 : 1;
    $("s-turn").textContent = "선공 결정";
    $("s-phase").textContent = `${teamName(next)} 감독이 던질 차례`;
    $("s-next").textContent = `${teamName(0)} ${r[0] ?? "—"} · ${teamName(1)} ${r[1] ?? "—"}` +
      (m.throwoff.rounds ? ` · 다시 던지기 ${m.throwoff.rounds}회` : "");
  } else {
    const t = state.turn;
    status.classList.add(`team${t}`);
    $("s-turn").textContent = `${teamName(t)} 차례`;
    $("s-phase").textContent = state.phase === "move" ? "말 쓰기" : "윷 던지기";
    const lineup = m.lineups?.[t];
    const extra = [];
    if (state.bonus_throws) extra.push(`한 번 더 ${state.bonus_throws}`);
    if (m.timeout) extra.push(`작전타임 중 (${teamName(m.timeout.team)})`);
    if (m.clock?.stopped) extra.push(`경기 중단: ${m.clock.stopped}`);
    if (!m.clock?.started) extra.push("시계가 아직 멈춰 있음 — 경기 시작을 누르세요");
    $("s-next").textContent = [lineup ? `다음 던질 사람: ${lineup.next_thrower}` : "", ...extra].filter(Boolean).join(" · ");
  }
  $("pending").replaceChildren(...(state.pending || []).map((r) => h("span", { class: `chip${r === "빽도" ? " back" : ""}` }, r)));
}

function throwPhase() {
  return state.status !== "finished" && state.phase !== "over" && (state.phase === "throw" || !!state.match?.throwoff);
}

function readingAlternatives(reading) {
  return reading && reading.needs_referee && Array.isArray(reading.alternatives) ? reading.alternatives : [];
}

function renderReading() {
  const reading = state.reading;
  const img = $("r-img");
  const m = state.match || {};
  let who;
  if (m.throwoff) {
    const r = m.throwoff.results || [null, null];
    const t = r[0] === null ? 0 : 1;
    who = `선공 결정 — ${teamName(t)} 감독 ${m.lineups?.[t]?.mover ?? ""}`;
  } else if (state.turn !== null && state.turn !== undefined && state.phase === "move") {
    who = `${teamName(state.turn)} 말 쓰는 중 — 던진 결과는 그다음에`;
  } else if (state.turn !== null && state.turn !== undefined) {
    who = `${teamName(state.turn)} · ${m.lineups?.[state.turn]?.next_thrower ?? ""} 던질 차례`;
  } else who = "던진 결과";
  $("reading-title").textContent = who;
  const src = reading?.image || state.last_throw_image;
  if (src) { if (img.getAttribute("src") !== src) img.src = src; img.hidden = false; } else img.hidden = true;
  const confirm = $("r-confirm");
  const card = $("reading-card");
  // a throw read while the pieces are still to be moved (or after the match) waits: the
  // rules take no throw now, so it cannot be confirmed until the moves are made
  const canThrow = throwPhase();
  card.classList.toggle("has-reading", !!reading);
  card.classList.toggle("waits", !!reading && !canThrow);
  card.classList.toggle("needs-referee", !!reading?.needs_referee);
  if (reading) {
    const pct = Math.round((reading.confidence ?? 0) * 100);
    const alts = readingAlternatives(reading);
    $("r-caption").textContent = `카메라 판독: ${reading.result}` + (alts.length ? ` (또는 ${alts.join("·")})` : "") +
      ` · 확신 ${pct}%` + (reading.needs_referee ? " · 심판 확인 필요" : "");
    confirm.textContent = `✔ ${reading.result} 확인`;
    confirm.dataset.result = reading.result;
    confirm.hidden = false;
    confirm.disabled = !canThrow;
    // why the camera is not sure, stick numbers as drawn on the picture
    const why = reading.needs_referee ? (reading.reasons_ko || []) : [];
    $("r-why").replaceChildren(...why.map((text) => h("li", {}, text)));
    $("r-why").hidden = !why.length;
    $("r-dismiss").hidden = false;
    // what else the throw may be: the referee looks at the sticks named above and taps one
    $("r-note").textContent = !canThrow
      ? (state.status === "finished" || state.phase === "over"
        ? "경기가 끝났습니다: 이 판독은 기록할 수 없습니다. 판독을 버리세요"
        : "지금은 말을 쓸 차례입니다: 말을 다 쓴 뒤에 이 판독을 확인하세요 (던진 것이 아니면 판독을 버리세요)")
      : alts.length
        ? `${[reading.result, ...alts].join(" 또는 ")}: 위 윷을 보고 아래에서 맞는 결과를 한 번 누르세요`
        : "다르면 아래에서 맞는 결과를 한 번 누르세요";
  } else {
    $("r-caption").textContent = src ? "마지막 던지기 사진 · 새 판독 없음" : "카메라 판독 없음";
    confirm.hidden = true;
    $("r-why").hidden = true;
    $("r-dismiss").hidden = true;
    $("r-note").textContent = canThrow ? waitingNote(state.camera) : "지금은 던질 차례가 아닙니다";
  }
  document.querySelectorAll("#results .result").forEach((b) => {
    b.disabled = !canThrow;
    b.classList.toggle("camera-says", !!reading && b.dataset.result === reading.result);
    b.classList.toggle("camera-maybe", readingAlternatives(reading).includes(b.dataset.result));
  });
}

// what the console waits for between readings: the camera's next reading, or the referee's tap
function waitingNote(cam) {
  if (!cam) return "카메라 없이: 던진 결과를 한 번 누르세요";
  if (!cam.ok) return "카메라가 읽지 못하는 중 (카메라 보정 단추를 보세요): 던진 결과를 한 번 누르세요";
  return "카메라가 던지기를 지켜봅니다: 윷이 멈추면 판독이 여기 나옵니다 (바로 누를 수도 있습니다)";
}

function legal() { return state.status === "finished" ? [] : (state.legal_moves || []); }

function renderBoard() {
  if (!board) return;
  board.render(state);
  const moves = legal();
  const froms = new Set(moves.map((m) => m.from));
  if (selected && !froms.has(selected)) selected = null;
  if (!selected && froms.size === 1) selected = [...froms][0];   // only one piece can move: pick it
  board.setSelectable(state.turn, [...froms].filter((f) => f !== WAITING));
  board.setSelected(selected);
  const targets = [];
  if (selected) {
    const byTo = new Map();
    for (const m of moves.filter((m) => m.from === selected)) {
      if (!byTo.has(m.to)) byTo.set(m.to, []);
      byTo.get(m.to).push(m.result);
    }
    for (const [to, results] of byTo) targets.push({ to, label: results.join("·") });
  }
  board.setTargets(targets);
  // trays: waiting (tappable when a waiting piece may enter) and finished pieces
  for (const t of [0, 1]) {
    const tray = $(`tray${t}`);
    tray.querySelector(".tray-name").textContent = teamName(t);
    const pieces = state.teams[t].pieces;
    const waiting = pieces.filter((p) => p.at === WAITING).length;
    const finished = pieces.filter((p) => p.at === FINISHED).length;
    const canEnter = t === state.turn && froms.has(WAITING);
    const w = tray.querySelector(".tray-waiting");
    w.replaceChildren(...Array.from({ length: waiting }, (_, i) => {
      const b = h("button", { type: "button", class: `tray-piece${canEnter ? " selectable" : ""}${canEnter && selected === WAITING ? " selected" : ""}`,
        "aria-label": `${teamName(t)} 대기 말 ${i + 1}`, disabled: !canEnter, dataset: { team: t } });
      b.append(pieceIcon(t, { size: 36 }));
      b.addEventListener("click", () => selectFrom(WAITING));
      return b;
    }));
    if (!waiting) w.append(h("span", { class: "none" }, "없음"));
    const f = tray.querySelector(".tray-finished");
    f.replaceChildren(...Array.from({ length: finished }, () => pieceIcon(t, { size: 32, mark: "✓" })));
    if (!finished) f.append(h("span", { class: "none" }, "0"));
  }
}

function selectFrom(station) {
  selected = selected === station ? null : station;
  renderBoard();
  renderMoves();
}

function moveEvent(m) {
  return { type: "move", team: m.team, result: m.result, piece: m.piece, to: m.to };
}

async function chooseTarget(to) {
  const options = legal().filter((m) => m.from === selected && m.to === to);
  if (options.length === 1) { await doMove(options[0]); return; }
  if (!options.length) return;
  const list = $("choose-list");
  $("choose-title").textContent = `${to}(으)로 — 어느 윷으로?`;
  list.replaceChildren(...options.map((m) => h("button", { type: "button", class: "btn huge", onclick: () => {
    $("dlg-choose").close(); doMove(m);
  } }, m.result)));
  $("dlg-choose").showModal();
}

async function doMove(m) {
  const res = await sendEvent(moveEvent(m));
  if (res) selected = null;
}

function renderMoves() {
  const moves = legal();
  const list = $("move-list");
  const hint = $("move-hint");
  if (!moves.length) {
    hint.textContent = state.phase === "move" ? "(쓸 수 있는 수 없음)" : "";
    list.replaceChildren(h("p", { class: "muted" }, state.phase === "move" ? "쓸 수 있는 수가 없습니다" : "던지기가 끝나면 여기에 둘 수 있는 수가 나옵니다"));
    return;
  }
  hint.textContent = "— 판에서 말을 누르고 초록 자리를 누르세요";
  const groups = new Map();
  for (const m of moves) {
    if (!groups.has(m.from)) groups.set(m.from, []);
    groups.get(m.from).push(m);
  }
  list.replaceChildren(...[...groups].map(([from, ms]) => {
    const count = from === WAITING ? 1 : ms[0].pieces.length;
    const label = from === WAITING ? "대기 말" : `${from} 자리${count > 1 ? ` (${count}동)` : ""}`;
    return h("div", { class: `move-group${from === selected ? " selected" : ""}` },
      h("button", { type: "button", class: "btn from", onclick: () => selectFrom(from) }, label),
      ...ms.map((m) => h("button", { type: "button", class: "btn move", dataset: { from: m.from, to: m.to, result: m.result },
        onclick: () => doMove(m) }, h("b", {}, m.result), ` → ${m.to}`)));
  }));
}

function renderActions() {
  const m = state.match || {};
  const c = m.clock || {};
  const over = state.phase === "over";
  const finished = state.status === "finished";
  const game = !m.throwoff;
  const set = (id, enabled) => { $(id).disabled = finished || !enabled; };
  set("a-start", !c.started);
  set("a-stop", c.started && !c.stopped);
  set("a-resume", !!c.stopped);
  set("a-warning", !over);
  set("a-timeout0", game && !over && !m.timeout && (m.timeouts_left?.[0] ?? 0) > 0);
  set("a-timeout1", game && !over && !m.timeout && (m.timeouts_left?.[1] ?? 0) > 0);
  set("a-timeout-end", !!m.timeout);
  set("a-sub", !over);
  set("a-wrong", game && !over);
  set("a-undo", (state.seq ?? 0) > 0);
  set("a-timeup", game && !over);
  set("a-decide", over && (state.winner === null || m.decided_by === "referee"));
  set("a-finish", over);
  $("a-start").hidden = !!c.started;
}

function renderHistory() {
  const items = [...(state.history || [])].reverse().slice(0, 20);
  $("history").replaceChildren(...items.map((ev) => {
    const d = describeEvent(ev, state);
    return h("li", { class: `ev-${d.kind}` }, h("span", { class: "seq" }, `#${ev.seq}`), h("span", { class: "clk" }, d.clock), h("span", {}, d.text));
  }));
}

function renderGap() {
  const gap = state.offline_gap;
  $("gap").hidden = !(typeof gap === "number" && gap > 0 && state.status !== "finished");
  if (!$("gap").hidden) $("gap-text").textContent = `서버가 꺼져 있던 ${Math.round(gap)}초는 경기 시계에 들어가지 않았습니다. 남은 경기 시간에서 뺄까요?`;
}

// ---------------------------------------------------------------- clocks (interpolated locally)

function tickClocks() {
  if (!state) return;
  const m = state.match || {};
  const t = clock.t();
  const remaining = Math.max(0, MATCH_SECONDS - t);
  $("c-match").textContent = formatClock(remaining);
  $("c-match").classList.toggle("stopped", !clock.cs?.running);
  const shotEl = $("c-shot");
  const due = $("due");
  shotEl.className = "c-shot";
  if (m.timeout) {
    const left = Math.max(0, TIMEOUT_SECONDS - (t - m.timeout.since));
    shotEl.textContent = `작전타임 ${Math.ceil(left)}`;
    shotEl.classList.add("timeout");
    due.hidden = true;
    return;
  }
  const shot = clock.shot(state);
  if (!shot || state.phase === "over") { shotEl.textContent = ""; due.hidden = true; return; }
  const kind = shot.kind === "move" ? "말" : "던지기";
  shotEl.classList.add(`team${shot.team}`);
  if (shot.overdue > 0) {
    shotEl.textContent = `${kind} +${Math.floor(shot.overdue)}`;
    shotEl.classList.add("over");
  } else {
    shotEl.textContent = `${kind} ${Math.ceil(shot.remaining)}`;
    if (shot.remaining <= (shot.kind === "move" ? 10 : 3)) shotEl.classList.add("low");
  }
  due.hidden = !(shot.warningsDue > 0 && !shot.paused);
  if (!due.hidden) {
    $("due-text").textContent = `${teamName(shot.team)} ${shot.kind === "move" ? "말 쓰는" : "던지는"} 시간 초과 +${Math.floor(shot.overdue)}초 — 경고 ${shot.warningsDue}개 해당`;
    due.dataset.team = shot.team;
    due.dataset.reason = shot.kind === "move" ? "move_time" : "throw_time";
  }
}

let lastTick = 0;
function loop(now) {
  if (now - lastTick > 100) { lastTick = now; tickClocks(); }
  requestAnimationFrame(loop);
}

// The LED changes every half second (the colon blinks) and the shot clock's seconds turn at
// their own phase: a request every 200 ms (counted from the previous one's start) keeps the
// read-back within a quarter second of the LED (once a second, it trailed by up to a second).
const LED_POLL_MS = 200;

async function pollLed() {
  // what the physical LED timer shows, read back from the timer driver
  for (;;) {
    const started = Date.now();
    if (!document.hidden && matchId) {
      let text = null;
      try {
        const r = await fetch("/api/timer", { cache: "no-store" });
        if (r.ok) text = (await r.json()).text;
      } catch (_) { text = null; }
      if (text === null) text = state?.led?.text ?? null;
      $("led-text").textContent = text ?? "없음";
      $("led-text").classList.toggle("off", text === null);
    }
    await new Promise((res) => setTimeout(res, Math.max(0, started + LED_POLL_MS - Date.now())));
  }
}

// ---------------------------------------------------------------- match list, setup

async function loadMatches() {
  let list = [];
  try { const r = await fetch("/api/matches", { cache: "no-store" }); if (r.ok) list = await r.json(); } catch (_) { /* offline */ }
  const sel = $("match-select");
  sel.replaceChildren(...list.slice().reverse().map((m) =>
    h("option", { value: m.id, selected: String(m.id) === String(matchId) }, `#${m.id} ${m.title}${m.status === "finished" ? " (끝)" : ""}`)));
  if (!list.length) sel.append(h("option", { value: "" }, "경기 없음"));
  return list;
}

function switchMatch(id) {
  matchId = String(id);
  document.body.dataset.matchId = matchId;
  history.replaceState(null, "", `/referee?m=${matchId}`);
  state = null;
  selected = null;
  if (live) live.close();
  live = new LiveConnection(matchId, {
    onState: (s) => { if (String(s.id) === matchId) { state = s; clock.update(s.clock_sync); render(); document.body.dataset.seq = s.seq; } },
    onReading: (r) => { if (state) { state = { ...state, reading: r }; renderReading(); } },
    onStatus: (ok) => {
      const c = $("conn");
      c.textContent = ok ? "연결됨" : "연결 끊김 — 다시 연결 중";
      c.className = `conn ${ok ? "ok" : "down"}`;
      if (ok) clock.reset();
    },
  });
  live.start();
  loadMatches();
}

function showSetup() {
  $("setup").hidden = false;
  $("run").hidden = true;
  $("setup-cancel").hidden = !matchId;
}

function setupHeader(form) {
  const f = new FormData(form);
  const names = (s) => String(s || "").split(/[,，、]/).map((x) => x.trim()).filter(Boolean);
  const teams = [0, 1].map((t) => ({
    name: String(f.get(`name${t}`)).trim(),
    throwers: [0, 1, 2].map((i) => String(f.get(`t${t}_${i}`)).trim()),
    mover: String(f.get(`mover${t}`)).trim(),
    reserves: names(f.get(`reserves${t}`)),
  }));
  const first = f.get("first");
  const header = { rules: f.get("rules"), teams, first: first === "throwoff" ? null : Number(first) };
  const title = String(f.get("title") || "").trim();
  header.title = title || `${teams[0].name} 대 ${teams[1].name}`;
  return header;
}

$("setup-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const data = await act(() => api("POST", "/api/matches", setupHeader(ev.target)));
  if (data?.id !== undefined) switchMatch(data.id);
});
$("setup-cancel").addEventListener("click", () => { if (state) render(); else if (matchId) switchMatch(matchId); });
$("btn-new").addEventListener("click", showSetup);
$("match-select").addEventListener("change", (ev) => { if (ev.target.value) switchMatch(ev.target.value); });

// ---------------------------------------------------------------- buttons

$("r-confirm").addEventListener("click", (ev) => confirmResult(ev.currentTarget.dataset.result));
$("r-dismiss").addEventListener("click", () => act(async () => accept(await api("POST", `/api/matches/${matchId}/reading/dismiss`, {}))));
document.querySelectorAll("#results .result").forEach((b) => b.addEventListener("click", () => confirmResult(b.dataset.result)));

function confirmDialog(title, text) {
  return new Promise((resolve) => {
    const dlg = $("dlg-confirm");
    $("confirm-title").textContent = title;
    $("confirm-text").textContent = text;
    dlg.returnValue = "";
    dlg.addEventListener("close", () => resolve(dlg.returnValue === "ok"), { once: true });
    dlg.showModal();
  });
}

function formDialog(id) {
  return new Promise((resolve) => {
    const dlg = $(id);
    dlg.returnValue = "";
    dlg.addEventListener("close", () => resolve(dlg.returnValue === "ok" ? new FormData(dlg.querySelector("form")) : null), { once: true });
    dlg.showModal();
  });
}

$("a-start").addEventListener("click", () => sendEvent({ type: "start" }));
$("a-stop").addEventListener("click", async () => {
  const f = await formDialog("dlg-stop");
  if (f) sendEvent({ type: "stoppage", reason: String(f.get("reason") || "심판 중단") });
});
$("a-resume").addEventListener("click", () => sendEvent({ type: "resume" }));
$("a-timeout0").addEventListener("click", () => sendEvent({ type: "timeout", team: 0 }));
$("a-timeout1").addEventListener("click", () => sendEvent({ type: "timeout", team: 1 }));
$("a-timeout-end").addEventListener("click", () => sendEvent({ type: "timeout_end" }));
$("due-warn").addEventListener("click", () => {
  const d = $("due").dataset;
  sendEvent({ type: "warning", team: Number(d.team), reason: d.reason });
});
$("a-undo").addEventListener("click", async () => {
  const last = state?.history?.[state.history.length - 1];
  const what = last ? describeEvent(last, state).text : "마지막 기록";
  if (await confirmDialog("되돌리기", `「${what}」을(를) 되돌립니다. 기록에는 '되돌리기'로 남습니다.`)) sendEvent({ type: "undo" });
});
$("a-timeup").addEventListener("click", async () => {
  if (await confirmDialog("시간 종료", "경기를 끝내고 판정합니다 (난 말 → 판 위의 말 → 남은 걸음).")) sendEvent({ type: "time_up" });
});
$("a-finish").addEventListener("click", async () => {
  if (await confirmDialog("경기 마감", "이 경기를 마감합니다. 마감한 경기에는 더 기록할 수 없습니다.")) {
    act(async () => accept(await api("POST", `/api/matches/${matchId}/finish`, {})));
  }
});
$("a-decide").addEventListener("click", async () => {
  const f = await formDialog("dlg-decide");
  if (!f) return;
  const w = f.get("winner");
  sendEvent({ type: "decide", winner: w === "draw" ? null : Number(w), reason: String(f.get("reason") || "") });
});

const reasonsBox = $("warn-reasons");
reasonsBox.replaceChildren(...Object.entries(WARNING_REASONS).map(([code, text], i) =>
  h("label", { class: "reason" }, h("input", { type: "radio", name: "reason", value: code, checked: i === 0 }), h("span", {}, text))));
$("a-warning").addEventListener("click", async () => {
  const form = $("dlg-warning").querySelector("form");
  if (state && state.turn !== null && state.turn !== undefined) form.elements.team.value = String(state.turn);
  const f = await formDialog("dlg-warning");
  if (!f) return;
  const event = { type: "warning", team: Number(f.get("team")), reason: f.get("reason") };
  const note = String(f.get("note") || "").trim();
  if (note) event.note = note;
  sendEvent(event);
});

function fillSub() {
  const form = $("dlg-sub").querySelector("form");
  const t = Number(form.elements.team.value);
  const lineup = state?.match?.lineups?.[t];
  if (!lineup) return;
  const out = $("sub-out"), inn = $("sub-in");
  out.replaceChildren(...lineup.throwers.map((n, i) => h("option", { value: n }, `${n} (던지기 ${i + 1})`)),
    h("option", { value: lineup.mover }, `${lineup.mover} (감독)`));
  inn.replaceChildren(...lineup.reserves.map((n) => h("option", { value: n }, `${n} (후보)`)),
    ...lineup.throwers.map((n) => h("option", { value: n }, `${n} (자리 바꾸기)`)),
    h("option", { value: lineup.mover }, `${lineup.mover} (감독과 바꾸기)`));
}
$("dlg-sub").querySelectorAll('input[name="team"]').forEach((r) => r.addEventListener("change", fillSub));
$("a-sub").addEventListener("click", async () => {
  fillSub();
  const f = await formDialog("dlg-sub");
  if (!f) return;
  sendEvent({ type: "substitution", team: Number(f.get("team")), out: f.get("out"), in: f.get("in") });
});

function fillWrong() {
  const form = $("dlg-wrong").querySelector("form");
  const lineup = state?.match?.lineups?.[Number(form.elements.team.value)];
  if (!lineup) return;
  $("wrong-thrower").replaceChildren(...[...lineup.throwers, lineup.mover, ...lineup.reserves].map((n) => h("option", { value: n }, n)));
}
$("dlg-wrong").querySelectorAll('input[name="team"]').forEach((r) => r.addEventListener("change", fillWrong));
$("a-wrong").addEventListener("click", async () => {
  const form = $("dlg-wrong").querySelector("form");
  if (state && state.turn !== null && state.turn !== undefined) form.elements.team.value = String(state.turn);
  fillWrong();
  const f = await formDialog("dlg-wrong");
  if (!f) return;
  sendEvent({ type: "wrong_thrower", team: Number(f.get("team")), thrower: String(f.get("thrower") || ""), later: f.get("later") === "1" });
});

$("gap-charge").addEventListener("click", () => act(async () => accept(await api("POST", `/api/matches/${matchId}/offline_gap`, { charge: true }))));
$("gap-forgive").addEventListener("click", () => act(async () => accept(await api("POST", `/api/matches/${matchId}/offline_gap`, { charge: false }))));
$("toast").addEventListener("click", (ev) => { if (ev.target === $("toast")) hideError(); });

// ---------------------------------------------------------------- start

async function main() {
  for (let attempt = 0; !board; attempt++) {
    try {
      board = new BoardView($("board"), await fetchBoard(), {
        interactive: true,
        onPieceTap: (station) => selectFrom(station),
        onTargetTap: (to) => chooseTarget(to),
      });
    } catch (_) { await new Promise((r) => setTimeout(r, Math.min(5000, 500 * 2 ** attempt))); }
  }
  const list = await loadMatches();
  if (!matchId) {
    const open = list.filter((m) => m.status === "open");
    if (open.length) matchId = String(open[open.length - 1].id);
  }
  if (matchId) switchMatch(matchId); else showSetup();
  requestAnimationFrame(loop);
  pollLed();
}

main();
