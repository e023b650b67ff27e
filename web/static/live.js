// Live match data for the pages: the LIVE STATE over SSE (/stream/<id>) with recovery,
// the clocks interpolated locally from clock_sync, and Korean labels shared by both pages.

export const RESULTS = ["도", "개", "걸", "윷", "모", "빽도", "낙"];

export const WARNING_REASONS = {
  throw_time: "윷 던지는 시간 초과",
  move_time: "윷말 쓰는 시간 초과",
  pickup: "판정 전에 윷가락을 거둠",
  protest: "감독 외 선수의 항의",
  wrong_move: "판정과 다르게 윷말을 씀",
  conduct: "기타 규정 위반",
};

export const DECIDED_BY = {
  "완승": "네 말이 모두 났음 (완승)",
  finished: "판정: 난 말이 더 많음",
  on_board: "판정: 판 위의 말이 더 많음",
  remaining_steps: "판정: 남은 걸음이 더 적음",
  referee: "심판 판정",
};

export const MATCH_SECONDS = 1200;
export const TIMEOUT_SECONDS = 40;

/** MM:SS with the seconds rounded up, as the LED timer shows them (20:00 for the whole
 * first second, firmware/WIRING.md), so screens and LED show the same second; tenths in the
 * last minute (as official clocks do). */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 60) return `00:${(Math.floor(s * 10) / 10).toFixed(1).padStart(4, "0")}`;
  const whole = Math.ceil(s);
  return `${String(Math.floor(whole / 60)).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
}

/** Match-clock time now, interpolated from the last clock_sync (never polled per second). */
export class ClockSync {
  constructor() { this.cs = null; this.skew = null; }

  reset() { this.skew = null; }

  update(cs) {
    if (!cs) return;
    this.cs = cs;
    // local wall clock minus server clock (+ delivery delay ≥ 0): the smallest sample is
    // the best estimate, so a Pi without network time does not drag the phones' clocks.
    const sample = Date.now() / 1000 - cs.server_time;
    this.skew = this.skew === null ? sample : Math.min(this.skew, sample);
  }

  /** Match-clock seconds now. */
  t() {
    const cs = this.cs;
    if (!cs) return 0;
    if (!cs.running) return cs.t;
    const serverNow = Date.now() / 1000 - (this.skew ?? 0);
    return cs.t + Math.max(0, serverNow - cs.server_time);
  }

  /** {kind, remaining, paused, overdue, warningsDue} of the shot clock, or null. */
  shot(state) {
    const shot = state?.match?.clock?.shot;
    const cs = this.cs;
    if (!shot || !cs) return null;
    let remaining = shot.remaining;
    if (cs.shot_deadline !== null && cs.shot_deadline !== undefined) {
      // paused (작전타임, stoppage): frozen at the sync instant; otherwise it runs with the match clock
      remaining = cs.shot_deadline - (shot.paused || cs.shot_paused ? cs.t : this.t());
    }
    const overdue = Math.max(0, -remaining);
    const due = overdue > 0 ? 1 + Math.floor(overdue / 5) : 0;
    return { ...shot, remaining, overdue, warningsDue: Math.max(0, due - (shot.warnings_given || 0)) };
  }
}

/**
 * Keeps one EventSource open on /stream/<id>; refetches the state after every (re)connect,
 * recreates the EventSource if the browser gave up (server restart), reports the status.
 */
export class LiveConnection {
  constructor(matchId, { onState, onReading, onStatus }) {
    this.id = matchId;
    this.onState = onState;
    this.onReading = onReading || (() => {});
    this.onStatus = onStatus || (() => {});
    this.es = null;
    this.retry = 0;
    this.connected = false;
    this.lastSeq = -1;
  }

  start() {
    this.open();
    this.refetch();
    window.addEventListener("online", () => { if (!this.connected) this.reopen(); });
  }

  async refetch() {
    if (this.closed) return;
    try {
      const r = await fetch(`/api/matches/${this.id}`, { cache: "no-store" });
      if (r.ok) this.deliver(await r.json());
    } catch (_) { /* the stream's error handler reports it */ }
  }

  /** Hand a state to the page unless it is older than one already shown (a slow refetch
   *  overtaken by the stream); right after a (re)connect anything goes. */
  deliver(state) {
    if (typeof state?.seq === "number") {
      if (state.seq < this.lastSeq && !this.fresh) return;
      this.lastSeq = state.seq;
    }
    this.fresh = false;
    this.onState(state);
  }

  open() {
    const es = new EventSource(`/stream/${this.id}`);
    this.es = es;
    es.addEventListener("open", () => {
      this.retry = 0;
      if (!this.connected) {
        this.connected = true;
        this.fresh = true;  // the server may have restarted: accept its state as it is
        this.onStatus(true);
        this.refetch();   // whatever happened while we were away (the stream also sends it)
      }
    });
    es.addEventListener("state", (ev) => {
      try { this.deliver(JSON.parse(ev.data)); } catch (e) { console.error("bad state event", e); }
      if (!this.connected) { this.connected = true; this.onStatus(true); }
    });
    es.addEventListener("reading", (ev) => {
      try { this.onReading(JSON.parse(ev.data)); } catch (e) { console.error("bad reading event", e); }
    });
    es.addEventListener("error", () => {
      if (this.es !== es || this.closed) return;
      if (this.connected) { this.connected = false; this.onStatus(false); }
      if (es.readyState === EventSource.CLOSED) {
        // the browser stopped retrying (e.g. an error page during a restart): try again ourselves
        this.reopen();
      }
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
    this.es = null;
  }

  reopen() {
    if (this.closed) return;
    if (this.es) this.es.close();
    this.es = null;
    const delay = Math.min(5000, 500 * 2 ** this.retry++);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { if (!this.closed) { this.open(); this.refetch(); } }, delay);
  }
}

/** One line of the throw history in Korean. */
export function describeEvent(ev, state) {
  const team = (i) => state?.teams?.[i]?.name ?? (i === 0 ? "청" : "홍");
  const clock = typeof ev.t === "number" ? formatClock(MATCH_SECONDS - ev.t) : "";
  let text;
  switch (ev.type) {
    case "throw": text = `${team(ev.team)}${ev.thrower ? ` ${ev.thrower}` : ""} — ${ev.result}`; break;
    case "move": text = `${team(ev.team)} ${ev.result} · 말${Number(ev.piece) + 1}${ev.to ? ` → ${ev.to}` : ""}`; break;
    case "throwoff": text = `선공 결정: ${team(ev.team)} ${ev.result}`; break;
    case "start": text = "경기 시작"; break;
    case "stoppage": text = `경기 중단${ev.reason ? ` (${ev.reason})` : ""}`; break;
    case "resume": text = "경기 재개"; break;
    case "warning": text = `경고 ${team(ev.team)}: ${WARNING_REASONS[ev.reason] || ev.reason}`; break;
    case "timeout": text = `작전타임 ${team(ev.team)}`; break;
    case "timeout_end": text = "작전타임 끝"; break;
    case "substitution": text = `선수교체 ${team(ev.team)}${ev.out ? `: ${ev.out} → ${ev.in}` : ""}`; break;
    case "wrong_thrower": text = `순서 위반 ${team(ev.team)} ${ev.thrower || ""} — 낙`; break;
    case "undo": text = "되돌리기"; break;
    case "time_up": text = "시간 종료"; break;
    case "decide": text = `심판 판정: ${ev.winner === null || ev.winner === undefined ? "무승부" : `${team(ev.winner)} 승`}`; break;
    default: text = ev.type;
  }
  return { clock, text, kind: ev.type, team: ev.team, result: ev.result };
}

/** Small DOM helper: h("div", {class: "x"}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
