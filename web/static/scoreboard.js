// The public scoreboard: round 윷말판, clocks, turn, pending results, teams, camera, history.
import { BoardView, fetchBoard, pieceIcon, piecePositions, TEAM_COLOUR, WAITING, FINISHED } from "./board.js";
import { ClockSync, LiveConnection, formatClock, describeEvent, DECIDED_BY, MATCH_SECONDS,
  TIMEOUT_SECONDS, h } from "./live.js";

const $ = (id) => document.getElementById(id);
const body = document.body;
const matchId = body.dataset.matchId;
const clock = new ClockSync();
let board = null;
let state = null;
let prevPositions = null;
let lastAnimatedSeq = null;

function teamName(i) { return state?.teams?.[i]?.name ?? TEAM_COLOUR[i]; }

function renderTeams() {
  const m = state.match || {};
  for (const t of [0, 1]) {
    const card = $(`team${t}`);
    card.querySelector(".team-name").textContent = `${teamName(t)}`;
    card.querySelector(".team-shape").replaceChildren(pieceIcon(t, { size: 44, label: `${TEAM_COLOUR[t]} 팀 말` }));
    const pieces = state.teams[t].pieces;
    const waiting = pieces.filter((p) => p.at === WAITING).length;
    const finished = pieces.filter((p) => p.at === FINISHED).length;
    const wEl = card.querySelector(".tray-pieces.waiting");
    const fEl = card.querySelector(".tray-pieces.finished");
    wEl.replaceChildren(...Array.from({ length: waiting }, () => pieceIcon(t, { size: 40, label: "대기 말" })));
    fEl.replaceChildren(...Array.from({ length: finished }, () => pieceIcon(t, { size: 40, mark: "✓", label: "난 말" })));
    wEl.dataset.count = waiting;
    fEl.dataset.count = finished;
    if (!waiting) wEl.append(h("span", { class: "none" }, "없음"));
    if (!finished) fEl.append(h("span", { class: "none" }, "없음"));
    card.querySelector(".v-warn").textContent = m.warning_counts?.[t] ?? 0;
    card.querySelector(".v-timeout").textContent = m.timeouts_left?.[t] ?? 2;
    card.querySelector(".v-sub").textContent = m.substitutions_left?.[t] ?? 1;
    card.classList.toggle("has-warn", (m.warning_counts?.[t] ?? 0) > 0);
    const skip = m.skip_turns?.[t] ?? 0;
    const skipEl = card.querySelector(".v-skip");
    skipEl.textContent = skip ? `차례 쉼 ${skip}` : "";
    skipEl.hidden = !skip;
    card.classList.toggle("on-turn", state.turn === t && state.phase !== "over");
    const lineup = m.lineups?.[t];
    const ol = card.querySelector(".lineup");
    ol.replaceChildren();
    if (lineup) {
      for (const name of lineup.throwers) {
        ol.append(h("li", { class: name === lineup.next_thrower ? "next" : "" }, name));
      }
      ol.append(h("li", { class: "mover" }, `감독 ${lineup.mover}`));
    }
  }
}

function renderTurn() {
  const m = state.match || {};
  const turnTeam = $("turn-team"), what = $("turn-what"), next = $("turn-next");
  const turnBox = $("turn");
  turnBox.className = "turn";
  if (state.phase === "over") {
    turnTeam.textContent = "경기 종료";
    what.textContent = "";
    next.textContent = "";
  } else if (m.throwoff) {
    const r = m.throwoff.results || [null, null];
    turnTeam.textContent = "선공 결정";
    what.textContent = "각 팀 감독이 한 번씩 던집니다";
    next.textContent = `${teamName(0)} ${r[0] ?? "—"} · ${teamName(1)} ${r[1] ?? "—"}`;
  } else {
    const t = state.turn;
    turnBox.classList.add(`team${t}`);
    turnTeam.textContent = `${teamName(t)} 차례`;
    what.textContent = m.timeout ? `작전타임 — ${teamName(m.timeout.team)}`
      : m.clock?.stopped ? "경기 중단"
      : state.phase === "move" ? "말 쓰기" : "윷 던지기";
    what.classList.toggle("alert", !!(m.timeout || m.clock?.stopped));
    const lineup = m.lineups?.[t];
    const bonus = state.bonus_throws ? ` · 한 번 더 ${state.bonus_throws}` : "";
    next.textContent = lineup ? `다음 던질 사람: ${lineup.next_thrower}${bonus}` : bonus;
  }
  const pend = $("pending");
  pend.replaceChildren(...(state.pending || []).map((r) =>
    h("span", { class: `chip r-${r}${r === "빽도" ? " back" : ""}` }, r)));
  if (state.reading) pend.append(h("span", { class: "chip judging", id: "judging-chip" }, "판정 중"));
}

function renderCamera() {
  const img = $("cam-img");
  const reading = state.reading;
  const src = reading?.image || state.last_throw_image;
  if (src) {
    if (img.getAttribute("src") !== src) img.src = src;
    img.hidden = false;
    $("cam-empty").hidden = true;
  } else {
    img.hidden = true;
    $("cam-empty").hidden = false;
  }
  $("camera").classList.toggle("no-image", !src && !reading);
  $("reading").hidden = !reading;
  const chip = $("judging-chip");
  if (!reading && chip) chip.remove();
  if (reading && !chip) $("pending").append(h("span", { class: "chip judging", id: "judging-chip" }, "판정 중"));
  $("camera").classList.toggle("judging", !!reading);
  body.classList.toggle("judging", !!reading);
  $("reading-small").textContent = reading ? `카메라 판독 ${reading.result}${reading.needs_referee ? " · 심판 확인 필요" : ""}` : "";
  const lastThrow = [...(state.history || [])].reverse().find((e) => e.type === "throw");
  $("cam-caption").textContent = reading ? "심판 확인 중" : lastThrow ? `마지막 던지기: ${teamName(lastThrow.team)} ${lastThrow.result}` : "";
}

function renderHistory() {
  const ol = $("history");
  const items = [...(state.history || [])].reverse().slice(0, 14);
  ol.replaceChildren(...items.map((ev) => {
    const d = describeEvent(ev, state);
    return h("li", { class: `ev ev-${d.kind}${typeof d.team === "number" ? ` team${d.team}` : ""}` },
      h("span", { class: "ev-clock" }, d.clock), h("span", { class: "ev-text" }, d.text));
  }));
  // show only whole lines: drop the oldest until the list fits its box
  const box = ol.parentElement;
  while (ol.children.length > 1 && box.scrollHeight > box.clientHeight + 1) ol.lastElementChild.remove();
}

function renderResult() {
  const box = $("result");
  if (state.phase !== "over") { box.hidden = true; return; }
  const m = state.match || {};
  const winner = state.winner;
  const reason = DECIDED_BY[m.decided_by] || (state.judged ? "판정: 동점 — 심판이 결정합니다" : "");
  const rows = [];
  const j = state.judged;
  if (j) {
    const row = (key, label) => h("tr", { class: j.decided_by === key ? "decider" : "" },
      h("th", {}, label), h("td", {}, j[key][0]), h("td", {}, j[key][1]));
    rows.push(h("table", { class: "judged" },
      h("tr", {}, h("th", {}, ""), h("th", { class: "team0" }, teamName(0)), h("th", { class: "team1" }, teamName(1))),
      row("finished", "난 말"), row("on_board", "판 위의 말"), row("remaining_steps", "남은 걸음")));
  }
  box.replaceChildren(
    h("div", { class: `winner${winner === 0 || winner === 1 ? ` team${winner}` : ""}` },
      winner === 0 || winner === 1 ? `${teamName(winner)} 승리` : "무승부"),
    h("div", { class: "reason" }, reason),
    ...rows);
  box.hidden = false;
}

function animate() {
  const lm = state.last_move;
  if (!board) return;
  const first = lastAnimatedSeq === null;   // first paint: show the position, replay nothing
  if (state.seq === lastAnimatedSeq) return;
  lastAnimatedSeq = state.seq;
  if (first || !lm) return;
  if (state.history?.length && state.history[state.history.length - 1].type !== "move") return;
  const from = lm.from ?? prevPositions?.get(`${lm.team}:${lm.pieces?.[0]}`) ?? null;
  board.animateMove(lm, from);
}

function render() {
  if (!state) return;
  document.title = `${state.title || "윷놀이"} — 점수판`;
  if (board) { board.cancelAnimations(); board.render(state); animate(); }
  prevPositions = piecePositions(state);
  renderTeams();
  renderTurn();
  renderCamera();
  renderHistory();
  renderResult();
  tick();
}

function tick() {
  if (!state) return;
  const m = state.match || {};
  const label = $("clock-label");
  if (state.phase === "over") label.textContent = "경기 종료";
  else if (m.clock?.stopped) label.textContent = `경기 중단 — ${m.clock.stopped}`;
  else if (!m.clock?.started) label.textContent = "경기 전";
  else label.textContent = "경기 시간";
  label.classList.toggle("alert", !!m.clock?.stopped);
  $("match-clock").classList.toggle("stopped", !clock.cs?.running);
  tickClocks();
}

// the clocks are redrawn ~10×/s from the last clock_sync; nothing is polled
let lastTick = 0;
function loop(now) {
  if (now - lastTick > 90) { lastTick = now; tickClocks(); }
  requestAnimationFrame(loop);
}

function tickClocks() {
  if (!state) return;
  const t = clock.t();
  const remaining = Math.max(0, MATCH_SECONDS - t);
  // the last minute shows SS.t (59.9 … 0.0): as wide as MM:SS, so the big digits keep their size
  const text = remaining < 60 ? formatClock(remaining).slice(3).replace(/^0(?=\d)/, "") : formatClock(remaining);
  const mc = $("match-clock");
  if (mc.textContent !== text) mc.textContent = text;
  mc.classList.toggle("last-minute", remaining < 60);
  renderShot(t);
}

function renderShot(t) {
  fillShot(t);
  const val = $("shot-clock");
  val.classList.toggle("long", val.textContent.length > 3);   // "+125" still fits its box
}

function fillShot(t) {
  const m = state.match || {};
  const box = $("shot-box"), label = $("shot-label"), val = $("shot-clock"), warn = $("shot-warn");
  box.className = "shot-box";
  if (m.timeout) {
    const left = Math.max(0, TIMEOUT_SECONDS - (t - m.timeout.since));
    label.textContent = `작전타임 · ${teamName(m.timeout.team)}`;
    val.textContent = String(Math.ceil(left));
    warn.textContent = left <= 0 ? "시간 끝" : "";
    box.classList.add("timeout", `team${m.timeout.team}`);
    return;
  }
  const shot = clock.shot(state);
  if (!shot || state.phase === "over") {
    label.innerHTML = "&nbsp;"; val.textContent = "--"; warn.textContent = "";
    box.classList.add("idle");
    return;
  }
  box.classList.add(`team${shot.team}`);
  label.textContent = shot.kind === "move" ? `말 쓰기 ${shot.limit}초` : `던지기 ${shot.limit}초`;
  if (shot.overdue > 0) {
    val.textContent = `+${Math.min(999, Math.floor(shot.overdue))}`;
    box.classList.add("over");
    warn.textContent = shot.warningsDue > 0 ? `시간 초과 — 경고 ${shot.warningsDue}` : "시간 초과";
  } else {
    val.textContent = String(Math.ceil(shot.remaining));
    if (shot.remaining <= (shot.kind === "move" ? 10 : 3)) box.classList.add("low");
    warn.textContent = shot.paused ? "멈춤" : "";
  }
}

function setConnected(ok) {
  $("conn").hidden = ok;
  body.classList.toggle("offline", !ok);
  if (ok) clock.reset();
}

async function waitForMatch() {
  $("empty").hidden = false;
  $("sb").hidden = true;
  // the big screen may be switched on before the referee opens a match: look every 5 s
  for (;;) {
    try {
      const r = await fetch("/api/matches", { cache: "no-store" });
      if (r.ok) {
        const list = await r.json();
        if (list.some((m) => m.status === "open")) { location.reload(); return; }
      }
    } catch (_) { /* offline: try again */ }
    await new Promise((res) => setTimeout(res, 5000));
  }
}

/** The big screen at "/" follows the referee: when a newer match opens, show that one. */
async function followCurrentMatch() {
  for (;;) {
    await new Promise((res) => setTimeout(res, 20000));
    try {
      const r = await fetch("/api/matches", { cache: "no-store" });
      if (!r.ok) continue;
      const open = (await r.json()).filter((m) => m.status === "open").map((m) => m.id);
      if (open.length && Math.max(...open) > Number(matchId)) { location.reload(); return; }
    } catch (_) { /* offline: the stream shows it */ }
  }
}

async function main() {
  if (!matchId) { waitForMatch(); return; }
  if (location.pathname === "/") followCurrentMatch();
  for (let attempt = 0; !board; attempt++) {
    try { board = new BoardView($("board"), await fetchBoard()); }
    catch (e) { setConnected(false); await new Promise((r) => setTimeout(r, Math.min(5000, 500 * 2 ** attempt))); }
  }
  const live = new LiveConnection(matchId, {
    onState: (s) => { state = s; clock.update(s.clock_sync); render(); body.dataset.seq = s.seq; },
    onReading: (r) => { if (state) { state = { ...state, reading: r }; renderCamera(); } },
    onStatus: setConnected,
  });
  live.start();
  requestAnimationFrame(loop);
}

main();
