// The round 윷말판 in SVG, shared by the scoreboard and the referee console.
// Data: GET /api/board → {stations:[{id,name,slug,x,y}], edges:[[a,b]], rotation}
// (x, y on the unit circle, y up).  No dependencies, no build step.

const SVG = "http://www.w3.org/2000/svg";
const R = 400;                 // board radius in SVG user units
const STATION_R = 25;          // ordinary station
const BIG_R = 40;              // corners and 방
const PIECE_R = 31;
const STEP_MS = 240;           // glide time per station
const BIG = new Set(["참먹이", "모", "뒷모", "찌모", "방"]);

export const WAITING = "대기";
export const FINISHED = "났음";
export const TEAM_COLOUR = ["청", "홍"];          // colour names used in the UI
export const TEAM_SHAPE = ["원", "네모"];         // shapes (colour-blind safe)

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

/** The shape of a team's piece centred at (0, 0): circle for team 0, square for team 1. */
function pieceShape(team, r, parent, cls) {
  if (team === 0) return el("circle", { r, class: cls }, parent);
  const s = r * 0.9;
  return el("rect", { x: -s, y: -s, width: 2 * s, height: 2 * s, rx: r * 0.18, class: cls }, parent);
}

/** A small standalone SVG of one piece (for the waiting/finished trays), count inside if > 1. */
export function pieceIcon(team, { count = 1, faded = false, size = 40, label = "", mark = "" } = {}) {
  const svg = el("svg", { viewBox: "-32 -32 64 64", width: size, height: size,
    class: `piece-icon team${team}${faded ? " faded" : ""}`, role: "img" });
  el("title", {}, svg).textContent = label || `${TEAM_COLOUR[team]} 말`;
  pieceShape(team, PIECE_R, svg, "piece-body");
  if (count > 1 || mark) {
    const t = el("text", { class: "piece-count", y: 2 }, svg);
    t.textContent = mark || String(count);
  }
  return svg;
}

export async function fetchBoard(url = "/api/board") {
  const r = await fetch(url, { cache: "no-store" });
  if (!r.ok) throw new Error(`/api/board: HTTP ${r.status}`);
  return r.json();
}

export class BoardView {
  /**
   * @param {Element} host  element to put the <svg> into
   * @param {object} data   /api/board
   * @param {object} opts   {interactive: bool, onPieceTap(station, team), onTargetTap(to)}
   */
  constructor(host, data, opts = {}) {
    this.opts = opts;
    this.pos = new Map();      // name → [x, y] in SVG units
    for (const s of data.stations) this.pos.set(s.name, [s.x * R, -s.y * R]);
    const start = this.pos.get("참먹이") || [R * 0.7, R * 0.7];
    const len = Math.hypot(start[0], start[1]) || 1;
    // off-board spots: where waiting pieces enter from / finished pieces leave to
    this.pos.set(WAITING, [start[0] * 1.2, start[1] * 1.2 + 10]);
    this.pos.set(FINISHED, [start[0] / len * (R + 100), start[1] / len * (R + 100)]);
    this.svg = el("svg", { viewBox: `${-R - 55} ${-R - 55} ${2 * R + 110} ${2 * R + 110}`,
      class: "yut-board", role: "img", "aria-label": "윷말판" });
    el("title", {}, this.svg).textContent = "윷말판";
    this.gEdges = el("g", { class: "edges" }, this.svg);
    this.gStations = el("g", { class: "stations" }, this.svg);
    this.gPieces = el("g", { class: "pieces" }, this.svg);
    this.gTargets = el("g", { class: "targets" }, this.svg);   // above the pieces: a capture is tappable
    this.gTip = el("g", { class: "tip", visibility: "hidden" }, this.svg);
    this.tipBox = el("rect", { rx: 14, height: 56 }, this.gTip);
    this.tipText = el("text", { y: 28 }, this.gTip);
    el("circle", { r: R, class: "ring" }, this.gEdges);
    for (const [a, b] of data.edges) {
      const pa = this.pos.get(data.stations[a].name), pb = this.pos.get(data.stations[b].name);
      el("line", { x1: pa[0], y1: pa[1], x2: pb[0], y2: pb[1] }, this.gEdges);
    }
    for (const s of data.stations) {
      const [x, y] = this.pos.get(s.name);
      const big = BIG.has(s.name);
      const g = el("g", { class: `station${big ? " big" : ""}`, "data-name": s.name,
        "data-slug": s.slug, transform: `translate(${x} ${y})` }, this.gStations);
      el("title", {}, g).textContent = s.name;
      el("circle", { r: big ? BIG_R : STATION_R }, g);
      if (big) el("circle", { r: (big ? BIG_R : STATION_R) - 9, class: "inner" }, g);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); this.showTip(s.name); });
    }
    // permanent label at the start/finish corner
    const [sx, sy] = this.pos.get("참먹이") || [0, 0];
    const lab = el("text", { class: "start-label", x: sx / len * (R + 62), y: sy / len * (R + 62) + 12 }, this.svg);
    lab.textContent = "참먹이";
    this.startLabel = lab;
    this.svg.addEventListener("click", () => this.hideTip());
    host.replaceChildren(this.svg);
    this.pieceNodes = new Map();   // `${team}:${station}` → <g>
    this.positions = null;         // last drawn [{team, id, at}]
    this.selectable = new Set();
    this.selected = null;
    this.animating = [];
  }

  showTip(name) {
    const p = this.pos.get(name);
    if (!p) return;
    this.tipText.textContent = name;
    const w = 30 + 26 * [...name].length;
    this.tipBox.setAttribute("width", w);
    this.tipBox.setAttribute("x", -w / 2);
    this.tipText.setAttribute("x", 0);
    const y = p[1] < -R + 120 ? p[1] + 50 : p[1] - 112;
    this.gTip.setAttribute("transform", `translate(${p[0]} ${y})`);
    this.gTip.setAttribute("visibility", "visible");
    this.gTip.dataset.name = name;
    clearTimeout(this.tipTimer);
    this.tipTimer = setTimeout(() => this.hideTip(), 2500);
  }

  hideTip() { this.gTip.setAttribute("visibility", "hidden"); }

  /** Where each team's pieces are: [[{id, at}...], [...]] from LIVE STATE teams. */
  render(state) {
    const groups = new Map();    // key → {team, at, ids}
    (state.teams || []).forEach((team, t) => {
      for (const p of team.pieces) {
        if (p.at === WAITING || p.at === FINISHED || !this.pos.has(p.at)) continue;
        const key = `${t}:${p.at}`;
        if (!groups.has(key)) groups.set(key, { team: t, at: p.at, ids: [] });
        groups.get(key).ids.push(p.id);
      }
    });
    this.gPieces.replaceChildren();
    this.pieceNodes.clear();
    for (const [key, g] of groups) {
      const [x, y] = this.pos.get(g.at);
      const node = el("g", { class: `piece team${g.team}`, transform: `translate(${x} ${y})`,
        "data-team": g.team, "data-at": g.at, "data-pieces": g.ids.join(","),
        "data-count": g.ids.length }, this.gPieces);
      el("title", {}, node).textContent =
        `${state.teams[g.team].name} (${TEAM_COLOUR[g.team]}) · ${g.at}` + (g.ids.length > 1 ? ` · ${g.ids.length}동 업음` : "");
      el("circle", { r: PIECE_R + 12, class: "halo" }, node);
      pieceShape(g.team, PIECE_R, node, "piece-body");
      if (g.ids.length > 1) {   // 업기: the stack's size, big, inside the piece
        const t = el("text", { class: "piece-count", y: 2 }, node);
        t.textContent = String(g.ids.length);
      }
      node.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (this.opts.onPieceTap && this.selectable.has(g.at) && g.team === this.selectableTeam) {
          this.opts.onPieceTap(g.at, g.team);
        } else {
          this.showTip(g.at);
        }
      });
      this.pieceNodes.set(key, node);
    }
    this.applySelection();
  }

  /** Console: pieces at these stations (of `team`) can be tapped. */
  setSelectable(team, stations) {
    this.selectableTeam = team;
    this.selectable = new Set(stations);
    this.applySelection();
  }

  setSelected(station) {
    this.selected = station;
    this.applySelection();
  }

  applySelection() {
    for (const node of this.pieceNodes.values()) {
      const team = Number(node.dataset.team), at = node.dataset.at;
      node.classList.toggle("selectable", team === this.selectableTeam && this.selectable.has(at));
      node.classList.toggle("selected", team === this.selectableTeam && at === this.selected);
    }
  }

  /** Console: highlighted legal destinations [{to, label}]; tapping one calls onTargetTap(to). */
  setTargets(targets) {
    this.gTargets.replaceChildren();
    // the 났음 target sits where the 참먹이 label is: show one at a time
    this.startLabel.style.display = targets.some((t) => t.to === FINISHED) ? "none" : "";
    for (const { to, label } of targets) {
      const p = this.pos.get(to);
      if (!p) continue;
      const g = el("g", { class: `target${to === FINISHED ? " finish" : ""}`, "data-to": to,
        transform: `translate(${p[0]} ${p[1]})` }, this.gTargets);
      el("title", {}, g).textContent = `${to}(으)로`;
      el("circle", { r: BIG_R + 16, class: "target-ring" }, g);
      if (to === FINISHED) {
        const t = el("text", { class: "target-name", y: 2 }, g);
        t.textContent = "났음";
      }
      const above = p[1] > -R + 60;   // near the top edge the label goes below the ring
      const t = el("text", { class: "target-label", y: above ? -BIG_R - 26 : BIG_R + 56 }, g);
      t.textContent = label;
      g.addEventListener("click", (ev) => {
        ev.stopPropagation();
        if (this.opts.onTargetTap) this.opts.onTargetTap(to);
      });
    }
  }

  /**
   * Glide the piece(s) of last_move along its route, station by station.
   * @param {object} move   {team, pieces, route}
   * @param {string|null} from  station the piece started on (from the previous state), if known
   */
  animateMove(move, from) {
    if (!move || !Array.isArray(move.route) || move.route.length === 0) return;
    const names = [...move.route];
    if (from && names[0] !== from) names.unshift(from);
    const pts = names.filter((n) => this.pos.has(n)).map((n) => this.pos.get(n));
    if (pts.length < 2) return;
    const dest = names[names.length - 1];
    const real = this.pieceNodes.get(`${move.team}:${dest}`);
    // a ghost glides; the real piece (if still on the board) appears when it arrives
    const ghost = el("g", { class: `piece team${move.team} ghost` }, this.gPieces);
    pieceShape(move.team, PIECE_R, ghost, "piece-body");
    const frames = pts.map(([x, y]) => ({ transform: `translate(${x}px, ${y}px)` }));
    if (dest === FINISHED) frames.push({ transform: frames[frames.length - 1].transform, opacity: 0 });
    if (real) real.style.visibility = "hidden";
    const anim = ghost.animate(frames, { duration: STEP_MS * (frames.length - 1), easing: "linear", fill: "forwards" });
    this.animating.push(anim);
    const done = () => {
      ghost.remove();
      if (real) real.style.visibility = "";
      this.animating = this.animating.filter((a) => a !== anim);
    };
    anim.onfinish = done;
    anim.oncancel = done;
  }

  cancelAnimations() {
    for (const a of [...this.animating]) a.cancel();
  }
}

/** Where each piece is: Map `${team}:${id}` → station name. */
export function piecePositions(state) {
  const out = new Map();
  (state.teams || []).forEach((team, t) => {
    for (const p of team.pieces) out.set(`${t}:${p.id}`, p.at);
  });
  return out;
}
