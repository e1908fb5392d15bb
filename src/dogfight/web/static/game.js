// The game page: polls the seat's view (docs/web-api.md), draws the board, offers only
// the view's actions and envelope-bound moves, and posts the choice back. The server
// checks everything; this page holds no rules.
import { rememberGame } from "/static/mygames.js";
import { api, el, showError } from "/static/api.js";
import { BoardView, bearing, keyOf, shapeOf } from "/static/board.js";
import { LogView } from "/static/log.js";

const GROUPS = [
  ["move", "Movement"], ["attack", "Attacks"], ["dogfight", "Dogfights"], ["support", "Support"],
  ["reaction", "Reactions"], ["launch", "Launches"], ["special", "Special actions"],
  ["secret", "Secret selection"], ["speed", "Speed declaration"], ["other", "Other"], ["end", "Finish"],
];
const FORM_GROUPS = new Set(["secret", "speed"]);
const PREVIEW_GROUPS = new Set(["attack", "dogfight"]);
const LONG_LIST = 30;
const LONG_MOVE_LIST = 8;

const $ = (id) => document.getElementById(id);

/** How long each of the computer's actions stays on its own when several arrive at
 * once, by the speed chosen (kept in local storage). */
const PLAY_SPEEDS = { slow: 1600, normal: 800, fast: 300, instant: 0 };
const SPEED_KEY = "dogfight.playSpeed";
const WHY_KEY = "dogfight.why";

function stored(key, fallback) {
  try {
    return localStorage.getItem(key) ?? fallback;
  } catch {
    return fallback; // storage refused (private mode, a file: page): the default
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not kept: the choice holds for this page only
  }
}

const S = {
  id: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  token: new URLSearchParams(location.search).get("token"),
  view: null,
  step: null,          // reviewing: the step shown, null for the live game
  finalVersion: null,  // actions in the finished game
  turns: new Map(),    // review: step -> turn, fetched on demand
  selected: null,      // the selected unit's key (its flight when it has one, else its id)
  target: null,        // the id of the enemy scene unit (a model, in a flight) chosen as a target
  pending: null,       // {type: "free"|"dest"|"action", ...} awaiting confirmation
  choices: new Map(),  // a secret selection form's parts by actor, kept across redraws
  busy: false,
  speed: PLAY_SPEEDS[stored(SPEED_KEY, "normal")] !== undefined ? stored(SPEED_KEY, "normal") : "normal",
  until: null,         // playing back the others' actions: the first step not shown yet (null: all shown)
  playFrom: null,      // the first step of the playback under way
  playTimer: null,
  playRun: 0,
  fetching: false,     // a frame is being fetched for the playback (it goes on when it comes)          // bumped when a playback stops, so a frame fetched late is dropped
  frame: null,         // {step, view}: the past position the board shows (null: the current one)
  frames: new Map(),   // step -> the view of that past step (a promise, GET /position), this playback's
  why: stored(WHY_KEY, "off") === "on", // the "why?" toggle
  asked: null,         // the step whose why is shown
  whys: new Map(),     // step -> the server's answer (or refusal) for this game
};

const board = new BoardView($("board"));
const log = new LogView($("log"), $("log-filters"), $("clause-pop"));

function viewPath(step) {
  const query = new URLSearchParams();
  if (S.token) query.set("token", S.token);
  if (step !== null && step !== undefined) query.set("step", String(step));
  const text = query.toString();
  return `/api/games/${encodeURIComponent(S.id)}${text ? `?${text}` : ""}`;
}

/** The scene the board shows: the current one, or while the others' actions are played
 * back, the position after the action shown last. */
function scene() {
  return S.frame ? S.frame.view.scene : S.view.scene;
}

function units() {
  return S.view ? scene().units : [];
}

/** One scene unit (a single model, where units fly in flights) by its own id. */
function modelById(id) {
  return id ? units().find((u) => u.id === id) || null : null;
}

/** Whether an action aims at the scene unit `id` (a model, or the flight it belongs to). */
function hitsTarget(action, id) {
  const model = modelById(id);
  return Boolean(model && action.target && (action.target === model.id || action.target === keyOf(model)));
}

/** The scene units chosen together as `key` (a flight's models, or one unit). */
function membersOf(key) {
  return key ? units().filter((u) => keyOf(u) === key) : [];
}

/** The model standing for `key`: the one at the centre of its envelope (a flight's
 * leader), else the first. */
function unitById(key) {
  const members = membersOf(key);
  if (members.length <= 1) return members[0] || null;
  const envelope = envelopeOf(key);
  const circle = envelope && envelope.shapes.find((sh) => sh.kind === "circle");
  if (!circle) return members[0];
  return members.reduce((best, u) =>
    Math.hypot(u.x - circle.x, u.y - circle.y) < Math.hypot(best.x - circle.x, best.y - circle.y) ? u : best);
}

/** Whether the seat may act now: its turn, and no playback of the others' actions under
 * way ("Show all" ends it). A playback, not only a past board, holds the seat: between
 * two of its steps (a past position still being fetched) the board shows the current
 * one, and actions offered then were withdrawn a moment later. */
function live() {
  return S.view && S.step === null && S.frame === null && S.until === null
    && S.view.your_turn && !S.view.over;
}

function actions() {
  return live() ? S.view.actions || [] : [];
}

function envelopeOf(unit) {
  return live() && S.view.envelopes ? S.view.envelopes[unit] || null : null;
}

function moveActionsOf(unit) {
  return actions().filter((a) => a.group === "move" && a.unit === unit && a.dest);
}

/** A view's turn as a number, for comparing steps of a review. */
function turnNumber(turn) {
  return Number(turn);
}

// ---------------------------------------------------------------- status and banners

function outcomeText(view) {
  const o = view.outcome || {};
  const reason = o.reason ? ` (${o.reason})` : "";
  if (!o.winner) return `Game over: a draw${reason}.`;
  const you = view.seat ? (o.winner === view.seat ? " You win!" : " You lose.") : "";
  return `Game over. Winner: ${o.winner}${reason}.${you}`;
}

function renderStatus(view) {
  // The tab says whose turn it is, so a player in another tab sees it is theirs.
  document.title = `${live() ? "● Your turn – " : ""}dogfight: ${view.scenario.title || view.scenario.name}`;
  $("scenario-title").textContent = `${view.scenario.title || view.scenario.name} (${view.ruleset})`;
  // turn, phase and who is to play of the position the board shows (a past one while
  // the others' actions are played back)
  const at = S.frame ? S.frame.view : view;
  $("turn").textContent = at.turn === undefined || at.turn === null ? "–"
    : at.turn_limit ? `${at.turn} of ${at.turn_limit}` : String(at.turn);
  $("phase").textContent = at.phase_name || at.phase || "–";
  $("phase").title = at.phase || "";
  $("current").textContent = at.current ?? "–";
  $("seat").textContent = view.seat ?? "spectator";
  $("your-turn").hidden = !live();
  $("waiting").hidden = view.over || S.step !== null || view.your_turn || !view.current;
  $("waiting").textContent = view.seat ? `Waiting for ${view.current}…` : "Watching";
  const banner = $("outcome");
  banner.hidden = !view.over || S.step !== null;
  if (view.over) {
    banner.textContent = outcomeText(view);
    banner.dataset.winner = (view.outcome && view.outcome.winner) || "";
  }
  renderSummary(view);
  $("undo").hidden = !(view.can_undo && S.step === null && !view.over);
  const othersComputer = view.seat
    && Object.entries(view.seats).every(([side, kind]) => side === view.seat || kind !== "human");
  const download = $("download");
  // a finished game (reviewed at any step) is anyone's to download
  download.hidden = !(view.over || S.finalVersion !== null || othersComputer);
  download.href = `/api/games/${encodeURIComponent(S.id)}/file${S.token ? `?token=${encodeURIComponent(S.token)}` : ""}`;
  download.setAttribute("download", `${S.id}.json`);
  $("summary-download").href = download.href;
  $("summary-download").setAttribute("download", `${S.id}.json`);
  document.body.dataset.version = String(view.version);
  document.body.dataset.frame = S.frame === null ? "" : String(S.frame.step);
  document.body.dataset.yourTurn = String(live());
  document.body.dataset.over = String(view.over);
}

/** The end of a game: turns played and each side's score, survivors, losses, kills. */
function renderSummary(view) {
  const panel = $("summary");
  panel.hidden = !view.over || S.step !== null || !view.summary;
  if (panel.hidden) return;
  const s = view.summary;
  const number = (v, digits = 0) => (v === null || v === undefined ? "–" : Number(v).toFixed(digits));
  $("summary-turns").textContent = `${s.turns} turn${s.turns === 1 ? "" : "s"} played, ${s.actions} actions`;
  // the seed is shown once nothing is left to roll: anyone may replay the dice
  $("summary-seed").textContent = view.seed === null || view.seed === undefined ? "" : `Seed ${view.seed}.`;
  const review = $("summary-review-link");
  review.href = `/game/${encodeURIComponent(S.id)}?${new URLSearchParams({ ...(S.token ? { token: S.token } : {}), step: "0" })}`;
  $("summary-rows").replaceChildren(...s.sides.map((row) => el("tr", { dataset: { side: row.side } },
    el("th", { scope: "row" }, row.side === view.seat ? `${row.side} (you)` : row.side),
    el("td", {}, number(row.score, 2)),
    el("td", {}, `${row.survivors} of ${row.fielded}`),
    el("td", {}, String(row.lost)),
    el("td", {}, String(row.kills)),
    el("td", {}, number(row.damage_taken, 1)))));
}

function renderReview(view) {
  const bar = $("review");
  bar.hidden = !(S.finalVersion !== null);
  if (bar.hidden) return;
  const slider = $("review-step");
  const shown = S.step ?? S.finalVersion;
  slider.max = String(S.finalVersion);
  slider.value = String(shown);
  $("review-label").textContent = `step ${shown} of ${S.finalVersion}, turn ${view.turn}`;
  $("review-prev").disabled = $("review-first").disabled = $("review-prev-turn").disabled = shown <= 0;
  $("review-next").disabled = $("review-end").disabled = $("review-next-turn").disabled = shown >= S.finalVersion;
}

// ---------------------------------------------------------------- the board

function renderBoard() {
  const view = S.view;
  // your side is drawn in the first colour (style.css swaps the colours by this index)
  const you = view.seat ? view.sides.indexOf(view.seat) : -1;
  if (you >= 0) document.body.dataset.you = String(you);
  else delete document.body.dataset.you;
  const shown = scene();
  board.setScene(shown);
  board.clear("shapes");
  board.drawShapes("shapes", shown.shapes);
  board.drawRecent(shown.recent);
  board.clear("overlays");
  board.showThreat(null);
  const selected = unitById(S.selected);
  let legend = [];
  for (const member of membersOf(S.selected)) {
    for (const entry of board.drawOverlays("overlays", member.overlays)) {
      if (!legend.some(([name]) => name === entry[0])) legend.push(entry);
    }
  }
  renderLegend(legend);
  board.clear("envelope");
  board.clear("dests");
  const envelope = selected ? envelopeOf(S.selected) : null;
  if (envelope) {
    // `blocked` shapes are the envelope's holes: points there are refused by the rules
    const open = envelope.shapes.filter((sh) => sh.cls !== "blocked");
    const nodes = board.drawShapes("envelope", open, envelope.free ? "envelope-free" : "envelope-fixed");
    for (const node of nodes) node.dataset.envelope = S.selected;
    board.drawShapes("envelope", envelope.shapes.filter((sh) => sh.cls === "blocked"), "envelope-blocked");
  }
  if (selected && !(envelope && envelope.free)) board.drawDests(destsOf(S.selected));
  const attackable = new Set();
  if (selected) {
    for (const a of actions()) if (a.unit === S.selected && a.target) attackable.add(a.target);
  }
  board.drawUnits(units(), S.selected, S.target, attackable);
  renderGhost();
}

/** The legend of the arcs drawn: each weapon's name beside its colour. */
function renderLegend(entries) {
  let box = $("arc-legend");
  if (!box) {
    box = el("div", { id: "arc-legend", class: "arc-legend" });
    $("board").parentElement.append(box);
  }
  box.hidden = !entries.length;
  box.replaceChildren(...entries.map(([name, cls]) => el("div", { class: "entry", dataset: { weapon: name } },
    el("span", { class: `swatch ${cls}` }), name)));
}

/** An enemy's threat arcs while the pointer is on it. */
function onBoardHover(event) {
  const node = event.target.closest ? event.target.closest("#layer-units .unit") : null;
  const unit = node ? modelById(node.dataset.unit) : null;
  const shown = board.layers.threat.dataset.unit || "";
  const wanted = unit && !unit.mine && keyOf(unit) !== S.selected ? unit.id : "";
  if (wanted === shown) return;
  board.showThreat(wanted ? unit : null);
  board.layers.threat.dataset.unit = wanted;
}

/** Legal end points of the selected unit's move actions, one marker per board point. */
function destsOf(unit) {
  const byPoint = new Map();
  for (const a of moveActionsOf(unit)) {
    const key = `${a.dest.x.toFixed(3)},${a.dest.y.toFixed(3)}`;
    if (!byPoint.has(key)) byPoint.set(key, { key, x: a.dest.x, y: a.dest.y, facing: a.dest.facing, indices: [], labels: [] });
    const dest = byPoint.get(key);
    dest.indices.push(a.index);
    dest.labels.push(a.label);
  }
  return [...byPoint.values()].map((d) => ({ ...d, title: d.labels.join("\n") }));
}

/** The previews beside the ghost: the rest of a flight moving with its leader (the
 * envelope's `moves_with`), and, for a selected unit whose action carries a `preview`
 * (an activation that drifts first), where that action leaves its models. */
function renderPreviews() {
  board.clear("preview");
  const p = S.pending;
  if (p && (p.type === "free" || p.type === "dest")) {
    const leader = unitById(p.unit);
    const envelope = envelopeOf(p.unit);
    for (const id of (envelope && envelope.moves_with) || []) {
      const model = modelById(id);
      if (!model || !leader) continue;
      board.drawPreviewGhost(model, model.x + p.x - leader.x, model.y + p.y - leader.y, p.facing, "flight-ghost");
    }
    return;
  }
  if (!S.selected) return;
  const action = actions().find((a) => a.unit === S.selected && a.preview && a.preview.length);
  if (!action) return;
  for (const pose of action.preview) {
    const model = modelById(pose.unit);
    if (model) board.drawPreviewGhost(model, pose.x, pose.y, pose.facing, "drift-ghost");
  }
}

function renderGhost() {
  renderPreviews();
  const p = S.pending;
  const unit = p ? unitById(p.unit) : null;
  if (!p || !unit || (p.type !== "free" && p.type !== "dest")) {
    board.drawGhost(null);
    return;
  }
  const ghost = board.drawGhost(unit, p.x, p.y, p.facing);
  drawGhostArcs();
  installGhostDrag(ghost);
}

/** The ghost's arcs and lines of fire to the enemies in them, from where it would end. */
function drawGhostArcs() {
  const p = S.pending;
  const unit = p ? unitById(p.unit) : null;
  if (!unit) return;
  const enemies = units().filter((u) => !u.mine && u.side !== unit.side);
  board.drawGhostOverlays(unit, p.x, p.y, p.facing, enemies);
}

function installGhostDrag(ghost) {
  ghost.addEventListener("pointerdown", (event) => {
    // a facing the move sets is not turned by hand
    if (!S.pending || S.pending.type !== "free" || S.pending.fixed) return;
    event.stopPropagation();
    ghost.setPointerCapture(event.pointerId);
    const turn = (e) => {
      const [x, y] = board.toBoard(e);
      if (Math.hypot(x - S.pending.x, y - S.pending.y) < 0.05) return;
      setFacing(bearing(S.pending.x, S.pending.y, x, y));
    };
    const stop = () => {
      ghost.removeEventListener("pointermove", turn);
      ghost.removeEventListener("pointerup", stop);
    };
    ghost.addEventListener("pointermove", turn);
    ghost.addEventListener("pointerup", stop);
  });
}

/** The nearest allowed facing to `deg` (any facing when the envelope lists none). */
function snapFacing(deg, facings) {
  const norm = ((deg % 360) + 360) % 360;
  if (!facings || !facings.length) return Math.round(norm) % 360;
  let best = facings[0];
  let bestGap = 999;
  for (const f of facings) {
    const gap = Math.min(Math.abs(f - norm), 360 - Math.abs(f - norm));
    if (gap < bestGap) { best = f; bestGap = gap; }
  }
  return best;
}

function setFacing(deg) {
  const p = S.pending;
  if (!p || p.type !== "free" || p.fixed) return;
  p.facing = snapFacing(deg, p.facings);
  $("facing").value = String(Math.round(p.facing));
  $("facing-value").textContent = facingText(p.facing);
  $("move-where").textContent = `to ${placeText(p)}`;
  board.turnGhost(p.facing);
  drawGhostArcs();
}

function rotate(direction, fine) {
  const p = S.pending;
  if (!p) return;
  if (p.type === "dest") {
    const i = p.choices.findIndex((c) => c.index === p.chosen);
    chooseDestAction(p.choices[(i + direction + p.choices.length) % p.choices.length].index);
    return;
  }
  if (p.type !== "free" || p.fixed) return;
  if (p.facings && p.facings.length) {
    const sorted = [...p.facings].sort((a, b) => a - b);
    const i = sorted.indexOf(p.facing);
    setFacing(sorted[(i + direction + sorted.length) % sorted.length]);
  } else {
    setFacing(p.facing + direction * (fine ? 1 : 15));
  }
}

// ---------------------------------------------------------------- choices on the board

function selectUnit(id) {
  S.selected = id;
  S.target = null;
  S.pending = null;
  renderAll();
}

/** A unit picked in the units list: an enemy becomes the target of the selected unit of ours. */
function chooseUnit(id) {
  const mine = unitById(S.selected);
  const clicked = modelById(id);
  if (mine && mine.mine && clicked && !clicked.mine) {
    S.target = S.target === id ? null : id;
    S.pending = null;
    renderAll();
    return;
  }
  const key = clicked ? keyOf(clicked) : null;
  selectUnit(key === S.selected ? null : key);
}

function onBoardClick(event) {
  // the click that ends turning the ghost is not a new choice
  if (board.suppressClick || !S.view || event.target.closest(".ghost")) return;
  const destNode = event.target.closest(".dest");
  if (destNode) {
    onDest(destNode.dataset.destKey);
    return;
  }
  const unitNode = event.target.closest("#layer-units [data-key]");
  const isFreeEnvelope = (node) => Boolean(node && node.dataset && node.dataset.envelope === S.selected
    && node.classList.contains("envelope-free"));
  const here = document.elementsFromPoint(event.clientX, event.clientY);
  // a hole of the envelope (a point the rules refuse, such as stacking on a base) is no choice
  const blocked = here.some((node) => node.classList && node.classList.contains("envelope-blocked"));
  const envelopeNode = blocked ? null : isFreeEnvelope(event.target) ? event.target
    : here.find(isFreeEnvelope) || null;
  const underEnvelope = Boolean(envelopeNode);
  if (unitNode) {
    const id = unitNode.dataset.unit;
    const key = unitNode.dataset.key;
    const clicked = modelById(id);
    const mine = unitById(S.selected);
    if (mine && mine.mine && clicked && !clicked.mine && key !== S.selected) {
      // an enemy while one of ours is selected: a target for its attacks, or (inside
      // the free envelope) a destination next to it
      S.target = id;
      S.pending = null;
      if (underEnvelope && !actions().some((a) => a.unit === S.selected && hitsTarget(a, id))) {
        const [x, y] = board.toBoard(event);
        pickFree(x, y, envelopeNode);
        return;
      }
      renderAll();
      return;
    }
    selectUnit(key === S.selected ? null : key);
    return;
  }
  if (underEnvelope) {
    const [x, y] = board.toBoard(event);
    pickFree(x, y, envelopeNode);
  }
}

/** A point picked inside the free envelope (on the element `node`): the move's end,
 * facing the way it travelled, snapped to the facings allowed there; or, when the move
 * sets the facing, the facing it will set (the envelope's `facing_from` tells it). */
function pickFree(x, y, node) {
  const unit = unitById(S.selected);
  const envelope = envelopeOf(S.selected);
  if (!unit || !envelope) return;
  let facings = envelope.facings && envelope.facings.length ? envelope.facings : null;
  let fixed = envelope.facing === "set_by_move";
  const cell = node ? shapeOf.get(node) : null;
  if (cell && "facings" in cell) {
    // a cell of the envelope lists the facings a move may end with there (null: it keeps its own)
    if (cell.facings === null) fixed = true;
    else if (cell.facings.length) facings = cell.facings;
  }
  const travel = Math.hypot(x - unit.x, y - unit.y) > 0.01 ? bearing(unit.x, unit.y, x, y) : unit.facing;
  let facing = fixed ? unit.facing : snapFacing(travel, facings);
  let hint = "It keeps its facing.";
  if (fixed && envelope.facing_from) {
    const [fx, fy] = envelope.facing_from;
    const least = Math.max(envelope.facing_min_move ?? 0, 0.01);
    if (Math.hypot(x - fx, y - fy) > least) facing = bearing(fx, fy, x, y);
    hint = "The move sets its end facing: away from where it started this activation.";
  }
  // a cell names itself (a hex) better than the board point does
  const where = board.hexMap && cell && cell.title ? cell.title.split(":")[0] : null;
  if (board.hexMap && cell && cell.kind === "polygon" && cell.points.length) {
    // a click anywhere in a highlighted hex, near its edge too, takes that hex: the
    // point sent is the cell's centre, so it can never fall into the hex next door
    x = cell.points.reduce((sum, pt) => sum + pt[0], 0) / cell.points.length;
    y = cell.points.reduce((sum, pt) => sum + pt[1], 0) / cell.points.length;
    if (!fixed) facing = snapFacing(Math.hypot(x - unit.x, y - unit.y) > 0.01 ? bearing(unit.x, unit.y, x, y) : unit.facing, facings);
  }
  S.pending = { type: "free", unit: S.selected, x, y, facings: fixed ? [facing] : facings, fixed, facing, where, hint };
  renderAll();
}

function onDest(key) {
  const dest = destsOf(S.selected).find((d) => d.key === key);
  if (!dest) return;
  const choices = dest.indices.map((i) => actions().find((a) => a.index === i)).filter(Boolean);
  S.pending = { type: "dest", unit: S.selected, x: dest.x, y: dest.y, facing: dest.facing, choices,
    chosen: choices[0].index };
  chooseDestAction(choices[0].index);
}

function chooseDestAction(index) {
  const p = S.pending;
  const action = p.choices.find((c) => c.index === index);
  p.chosen = index;
  p.facing = action.dest.facing;
  renderAll();
}

// ---------------------------------------------------------------- panels

/** A board facing (degrees clockwise from up) in the words of the log and the buttons:
 * a hex map's facing names, or the table's heading (degrees anticlockwise from east). */
function facingText(facing) {
  const scene = S.view && S.view.scene;
  const names = scene && scene.facing_names;
  if (names && names.length) {
    const step = 360 / names.length;
    return names[((Math.round((facing ?? 0) / step) % names.length) + names.length) % names.length];
  }
  // As the log words it (core.scene.shapes.place_text): anticlockwise from east, 0-359.
  const heading = Math.round((((90 - (facing ?? 0)) % 360) + 360) % 360) % 360;
  return `${heading}°`;
}

/** Where a pending move ends, as the log will say it: the hex's name on a hex map, the
 * table's coordinates (origin lower left, y up) on a table. */
function placeText(p) {
  const scene = S.view && S.view.scene;
  if (p.where) return `${p.where} facing ${facingText(p.facing)}`;
  const y = scene && !scene.facing_names ? scene.height - p.y : p.y;
  return `(${p.x.toFixed(1)}, ${y.toFixed(1)}) facing ${facingText(p.facing)}`;
}

function renderMovePanel() {
  const p = S.pending;
  const panel = $("move-panel");
  panel.hidden = !p || (p.type !== "free" && p.type !== "dest");
  if (panel.hidden) return;
  const unit = unitById(p.unit);
  $("move-unit").textContent = unit ? unit.label || unit.id : p.unit;
  $("move-where").textContent = `to ${placeText(p)}`;
  $("move-hint").textContent = p.type === "free"
    ? (p.fixed ? p.hint : "Drag the ghost, use the slider or ← → to set its end facing.")
    : p.choices.length > 1 ? "← → switch between the moves that end here." : "";
  $("facing-row").hidden = p.type !== "free" || Boolean(p.fixed);
  const choices = $("move-choices");
  choices.replaceChildren();
  if (p.type === "free") {
    $("facing").value = String(Math.round(p.facing));
    $("facing-value").textContent = facingText(p.facing);
  } else if (p.choices.length > 1) {
    choices.append(el("p", { class: "hint" }, "Several moves end here:"),
      ...p.choices.map((a) => el("label", { class: "choice" },
        el("input", { type: "radio", name: "dest-choice", value: a.index, checked: a.index === p.chosen,
          dataset: { actionIndex: a.index }, onchange: () => chooseDestAction(a.index) }), ` ${a.label}`)));
  } else {
    choices.append(el("p", {}, p.choices[0].label));
  }
}


/** A bar as wide as a probability. Its width is set through the style object, not a
 * style attribute: the page's Content-Security-Policy refuses inline styles. */
function barOf(prob) {
  const bar = el("span", { class: "bar" });
  bar.style.width = `${(prob * 100).toFixed(1)}%`;
  return bar;
}

function renderOddsPanel() {
  const p = S.pending;
  const panel = $("odds-panel");
  panel.hidden = !p || p.type !== "action";
  if (panel.hidden) return;
  const action = actions().find((a) => a.index === p.index);
  if (!action) {
    panel.hidden = true;
    return;
  }
  $("odds-label").textContent = action.label;
  const chart = $("odds-chart");
  chart.replaceChildren();
  const odds = action.odds;
  $("odds-title").textContent = odds ? odds.title : "Odds";
  if (odds) {
    const rows = Object.entries(odds.outcomes);
    chart.append(el("table", { class: "odds-table" }, el("tbody", {}, rows.map(([label, prob]) =>
      el("tr", { dataset: { outcome: label } },
        el("th", { scope: "row" }, label),
        el("td", { class: "bar-cell" }, barOf(prob)),
        el("td", { class: "pct" }, `${(prob * 100).toFixed(1)}%`))))));
    $("odds-expected").textContent = odds.expected === null || odds.expected === undefined ? ""
      : `Expected: ${Number(odds.expected).toFixed(2)}`;
    // what the numbers rest on: to-hit numbers, dice, and what the computation assumes
    const facts = Object.entries(odds.facts || {});
    if (facts.length) {
      chart.append(el("dl", { class: "odds-facts" }, facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])));
    }
    if (odds.notes && odds.notes.length) {
      chart.append(el("ul", { class: "odds-notes" }, odds.notes.map((note) => el("li", {}, note))));
    }
  } else {
    chart.append(el("p", { class: "hint" }, "No exact odds for this action."));
    $("odds-expected").textContent = "";
  }
  $("commit").dataset.actionIndex = String(action.index);
}

function detailsList(unit, heading) {
  return el("div", { class: "unit-details", dataset: { unit: unit.id } },
    el("h3", {}, `${heading}${unit.label || unit.id}`, el("span", { class: `side-tag side-${unit.side_index}` }, unit.side)),
    el("dl", {}, Object.entries(unit.details || {}).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])));
}

function actionButton(action, extraClass = "") {
  const classes = ["action", `group-${action.group}`, extraClass,
    S.selected && action.unit === S.selected ? "match" : "",
    S.target && hitsTarget(action, S.target) ? "target-match" : ""].filter(Boolean).join(" ");
  return el("button", { type: "button", class: classes,
    dataset: { actionIndex: action.index, group: action.group, unit: action.unit || "", target: action.target || "",
      odds: action.odds ? "true" : "false",
      dest: action.dest ? `${action.dest.x},${action.dest.y},${action.dest.facing}` : "" },
    onclick: () => chooseAction(action.index) }, action.label);
}

function renderSelection() {
  const panel = $("selection");
  const selected = unitById(S.selected);
  const target = modelById(S.target);
  panel.hidden = !selected && !target;
  if (panel.hidden) return;
  $("details").replaceChildren(...[selected ? detailsList(selected, "") : null,
    target ? detailsList(target, "Target: ") : null].filter(Boolean));
  const box = $("target-actions");
  box.replaceChildren();
  if (!selected) return;
  const mineNow = actions().filter((a) => a.unit === S.selected && a.group !== "move"
    && (!S.target || hitsTarget(a, S.target)));
  if (S.target && !mineNow.length) box.append(el("p", { class: "hint" }, `${selected.label || selected.id} has no action against ${target.label || target.id} now.`));
  if (mineNow.length) {
    box.append(el("h3", {}, S.target ? "Against this target" : "This unit can"),
      el("div", { class: "button-list" }, mineNow.map((a) => actionButton(a, "selected-action"))));
  }
  if (envelopeOf(S.selected) || moveActionsOf(S.selected).length) {
    box.append(el("p", { class: "hint" }, envelopeOf(S.selected) && envelopeOf(S.selected).free
      ? "Click inside the shaded envelope to choose where it moves."
      : "Click a marker on the board to choose where it moves."));
  }
}

function formFor(group, title, list) {
  const name = `choice-${group}`;
  const form = el("form", { class: "choice-form", id: `form-${group}`, dataset: { group } },
    el("fieldset", {}, el("legend", {}, title),
      list.map((a, i) => el("label", { class: "choice" },
        el("input", { type: "radio", name, value: a.index, checked: i === 0, dataset: { actionIndex: a.index } }),
        ` ${a.label}`))),
    el("button", { type: "submit", class: "primary", id: `submit-${group}` },
      group === "speed" ? "Declare speed" : "Submit secret choice"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = form.querySelector(`input[name=${name}]:checked`);
    if (chosen) commit(Number(chosen.value));
  });
  return form;
}

/** One form per actor for the secret selections that carry `choice`: what the actor
 * does and how many attack dice it trades for Speed, one Submit. Both selects are built
 * from the listed actions only (the dice offered are those listed with the chosen
 * action), so every combination sent is a listed action. */
function selectionForm(actor, list) {
  const kept = S.choices.get(actor) || {};
  const whats = [...new Set(list.map((a) => a.choice.what))];
  const what = el("select", { class: "choice-what", name: "what", dataset: { actor } },
    whats.map((w) => el("option", { value: w }, w)));
  if (whats.includes(kept.what)) what.value = kept.what;
  const speed = el("select", { class: "choice-speed", name: "speed-dice", dataset: { actor } });
  const fillSpeed = () => {
    const dice = [...new Set(list.filter((a) => a.choice.what === what.value).map((a) => a.choice.speed_dice))]
      .sort((a, b) => a - b);
    speed.replaceChildren(...dice.map((d) => el("option", { value: String(d) }, d === 0 ? "none" : String(d))));
    if (dice.includes(kept.speed)) speed.value = String(kept.speed);
    speed.disabled = dice.length <= 1;
  };
  fillSpeed();
  // the Speed the chosen selection gives, as the server computed it for that action
  const gives = el("output", { class: "choice-speed-value" });
  const chosenAction = () => list.find((a) => a.choice.what === what.value && String(a.choice.speed_dice) === speed.value);
  const showSpeed = () => {
    const chosen = chosenAction();
    const value = chosen && chosen.choice.speed !== undefined && chosen.choice.speed !== null ? chosen.choice.speed : null;
    gives.textContent = value === null ? "" : `gives Speed ${value}`;
    gives.dataset.speed = value === null ? "" : String(value);
  };
  showSpeed();
  const remember = () => S.choices.set(actor, { what: what.value, speed: Number(speed.value) });
  what.addEventListener("change", () => { fillSpeed(); remember(); showSpeed(); });
  speed.addEventListener("change", () => { remember(); showSpeed(); });
  const form = el("form", { class: "choice-form selection-form", dataset: { group: "secret", actor } },
    el("fieldset", {}, el("legend", {}, list[0].choice.who),
      el("label", { class: "choice" }, "Action ", what),
      el("label", { class: "choice" }, "Attack dice traded for Speed ", speed),
      el("p", { class: "choice" }, gives)),
    el("button", { type: "submit", class: "primary" }, "Submit secret choice"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = chosenAction();
    if (chosen) commit(chosen.index);
  });
  return form;
}

/** The forms of a form group: one per actor for selections in parts, else one list. */
function formsFor(group, title, list) {
  const parted = list.filter((a) => a.choice);
  const rest = list.filter((a) => !a.choice);
  const byActor = new Map();
  for (const a of parted) {
    if (!byActor.has(a.choice.actor)) byActor.set(a.choice.actor, []);
    byActor.get(a.choice.actor).push(a);
  }
  return [el("h3", {}, title), ...[...byActor].map(([actor, own]) => selectionForm(actor, own)),
    rest.length ? formFor(group, title, rest) : null];
}

function renderActions() {
  const box = $("actions");
  const view = S.view;
  if (S.step !== null) {
    box.replaceChildren(el("p", { class: "hint" }, "Reviewing the game: use the review bar to step through it."));
    return;
  }
  if (view.over) {
    box.replaceChildren(el("p", { class: "hint" }, "The game is over."));
    return;
  }
  if (!view.seat) {
    box.replaceChildren(el("p", { class: "hint" }, "You are watching: public information only."));
    return;
  }
  if (!view.your_turn) {
    box.replaceChildren(el("p", { class: "hint" }, `Waiting for ${view.current}…`));
    return;
  }
  if (S.frame !== null) {
    box.replaceChildren(el("p", { class: "hint" },
      "The board is showing the other side's actions one at a time; you can act once they are all shown (or press Show all)."));
    return;
  }
  const all = actions();
  const sections = [];
  for (const [group, title] of GROUPS) {
    const list = all.filter((a) => (GROUPS.some(([g]) => g === a.group) ? a.group : "other") === group);
    if (!list.length) continue;
    if (FORM_GROUPS.has(group)) {
      sections.push(el("section", { class: "group", dataset: { group } }, formsFor(group, title, list)));
      continue;
    }
    // moves are best chosen on the board, so a long list of them starts folded
    const long = list.length > (group === "move" ? LONG_MOVE_LIST : LONG_LIST);
    const hint = group === "move" ? " (or choose on the board)" : "";
    sections.push(el("details", { class: "group", open: !long, dataset: { group } },
      el("summary", {}, `${title} (${list.length})${hint}`),
      el("div", { class: "button-list" }, list.map((a) => actionButton(a)))));
  }
  box.replaceChildren(...(sections.length ? sections : [el("p", { class: "hint" }, "No actions.")]));
}

function renderUnits() {
  const box = $("units");
  box.replaceChildren(...units().map((u) => el("button", { type: "button",
    class: ["unit-button", `side-${u.side_index}`, u.mine ? "mine" : "", keyOf(u) === S.selected ? "selected" : "",
      u.id === S.target ? "target" : ""].filter(Boolean).join(" "),
    dataset: { unit: u.id, key: keyOf(u) }, onclick: () => chooseUnit(u.id) },
  `${u.label || u.id} (${u.side})${u.status ? `: ${u.status}` : ""}`)));
}

function renderAll() {
  if (!S.view) return;
  if (S.selected && !unitById(S.selected)) S.selected = null;
  if (S.target && !modelById(S.target)) S.target = null;
  renderStatus(S.view);
  renderReview(S.view);
  renderBoard();
  renderMovePanel();
  renderOddsPanel();
  renderSelection();
  renderActions();
  renderUnits();
  renderLog();
}

/** The log and the playback line only: what the playback and the why redraw, so that
 * a choice being made in the panels (a folded group opened, a form) is left alone. */
function renderLog() {
  if (!S.view) return;
  renderPlayback();
  log.render(S.view, { until: S.until, why: S.why, asked: S.asked, onWhy: askWhy });
}

// ---------------------------------------------------------------- talking to the server

/** Tell a player whose page is in the background that it is their turn. */
function noticeTurn(before, view) {
  const mine = view.your_turn && !view.over && view.step === null;
  if (!mine || (before && before.your_turn)) return;
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification("dogfight: your turn", { body: view.scenario.title || view.scenario.name, tag: S.id });
  }
}

function show(view) {
  const changed = !S.view || S.view.version !== view.version || S.view.step !== view.step;
  const before = S.view;
  S.view = view;
  noticeTurn(before, view);
  if (S.token && view.seat && !before) {
    rememberGame({ game: S.id, seat: view.seat, token: S.token,
      title: view.scenario.title || view.scenario.name, ruleset: view.ruleset });
  }
  if (view.over && view.step === null) S.finalVersion = view.version;
  if (changed) {
    S.pending = null;
    S.choices.clear();
  }
  if (before && view.version < before.version) {
    // an undo: the decisions past it were taken back, and their whys with them
    for (const step of [...S.whys.keys()]) if (step >= view.version) S.whys.delete(step);
  }
  startPlayback(before, view);
  renderAll();
}

// ---------------------------------------------------------------- the others' actions, one at a time

/** When a view brings several new actions of other seats (the computer's turn), the log
 * shows them one at a time, each for the chosen speed's delay, and the board the
 * position after each (the seat's view of that step, GET /position); the seat's own
 * actions show at once. While the board shows a past position the seat is offered no
 * action ("Show all" skips to the current one). A playback under way carries on into
 * the newer view. */
function startPlayback(before, view) {
  const live = view.step === null && before && before.step === null;
  if (!live || S.speed === "instant" || view.version <= before.version) {
    if (!live || view.version < (before ? before.version : 0)) stopPlayback();
    return;
  }
  if (S.until === null) {
    S.until = before.version;
    S.playFrom = before.version;
    S.frames.clear();
  }
  // The board stays at the position after the last action shown (the page's previous
  // view, unless it shows a past step already) until the log reaches the others' newer
  // actions (the seat's own show at once).
  if (S.frame === null && S.until === before.version && othersSteps(view, S.until)[0] === before.version) {
    S.frame = { step: before.version, view: before };
  }
  if (S.playTimer === null && !S.fetching) advancePlayback();
}

function stopPlayback() {
  if (S.playTimer !== null) clearTimeout(S.playTimer);
  S.playTimer = null;
  S.until = null;
  S.frame = null;
  S.playRun += 1;
  S.fetching = false;
}

/** The view of past `step` for this seat, fetched once a playback (null if refused:
 * the board then shows the current position). */
async function frameAt(step) {
  if (!S.frames.has(step)) {
    const query = new URLSearchParams({ step: String(step) });
    if (S.token) query.set("token", S.token);
    S.frames.set(step, api("GET", `/api/games/${encodeURIComponent(S.id)}/position?${query}`)
      .catch(() => null));
  }
  return S.frames.get(step);
}

/** The steps of the view's log taken by other seats than this one, from `from` on. */
function othersSteps(view, from) {
  const by = new Map();
  for (const e of view.log || []) if (e.step !== null && e.step !== undefined) by.set(e.step, e.by);
  return [...by].filter(([step, side]) => step >= from && side !== view.seat).map(([step]) => step);
}

/** Show the next action of another seat, then wait the chosen delay before the one
 * after (the seat's own actions, and actions that show no line, take no time). */
async function advancePlayback() {
  S.playTimer = null;
  const view = S.view;
  if (!view || S.until === null) return;
  const next = othersSteps(view, S.until)[0];
  if (next === undefined) {
    // the playback is over: the seat may act now, so the actions are drawn again too
    S.until = null;
    S.frame = null;
    renderAll();
    return;
  }
  // The board shows the position after this action, as this seat saw it then; the
  // last one is the current position, where the seat may act.
  const after = next + 1;
  if (after < view.version) {
    const run = S.playRun;
    S.fetching = true;
    const frame = await frameAt(after);
    if (run !== S.playRun) return; // stopped (or skipped) meanwhile
    S.fetching = false;
    const following = othersSteps(S.view, after)[0];
    if (following !== undefined && following + 1 < S.view.version) frameAt(following + 1);
    settleBoard(frame ? { step: after, view: frame } : null, after);
  } else {
    settleBoard(null, after);
  }
  const entry = view.log.find((e) => e.step === next);
  if (S.why && entry && isComputer(view, entry.by)) askWhy(next);
  S.playTimer = setTimeout(advancePlayback, PLAY_SPEEDS[S.speed] || 0);
}

/** Show the log up to `until` (if given) with the board at the past position `frame`
 * ({step, view}; null: the current position); the panels are redrawn only when the
 * board's position changed. */
function settleBoard(frame, until = undefined) {
  if (until !== undefined) S.until = until;
  const moved = frame !== null || S.frame !== null;
  S.frame = frame;
  if (moved) renderAll();
  else renderLog();
}

function renderPlayback() {
  const bar = $("playback");
  const view = S.view;
  bar.hidden = S.until === null || !view;
  document.body.dataset.playing = String(!bar.hidden);
  if (bar.hidden) return;
  const steps = othersSteps(view, S.playFrom ?? 0);
  const shown = steps.filter((step) => step < S.until).length;
  const last = view.log.find((e) => e.step === S.until - 1);
  $("playback-text").textContent = `Showing ${last && last.by ? `${last.by}'s` : "the"} actions one at a time`
    + ` (${shown} of ${steps.length} since your last look).`;
}

// ---------------------------------------------------------------- the computer's why

function isComputer(view, side) {
  return Boolean(side && view.seats && view.seats[side] && view.seats[side] !== "human");
}

/** Ask the server why the computer took the action at `step` (kept per step) and show
 * it in the why panel; a refusal (a hidden side's secret, while the game runs) is shown
 * there too, not as the page's error. */
async function askWhy(step) {
  S.asked = step;
  let answer = S.whys.get(step);
  if (!answer) {
    const query = new URLSearchParams({ step: String(step) });
    if (S.token) query.set("token", S.token);
    try {
      answer = await api("GET", `/api/games/${encodeURIComponent(S.id)}/why?${query}`);
      S.whys.set(step, answer);
    } catch (err) {
      // not kept: a refusal while the game runs is lifted once it is over
      answer = { step, error: err.message };
    }
  }
  if (S.asked !== step) return; // a later question was asked meanwhile
  renderWhy(answer);
  renderLog();
}

function renderWhy(answer) {
  const panel = $("why-panel");
  panel.hidden = !S.why || !answer;
  if (panel.hidden) return;
  panel.dataset.step = String(answer.step);
  $("why-title").textContent = answer.side
    ? `Why: ${answer.side} (${answer.kind}), action ${answer.step + 1}` : `Why: action ${answer.step + 1}`;
  const rows = $("why-rows");
  const table = $("why-table");
  if (answer.error) {
    panel.dataset.refused = "true";
    $("why-summary").textContent = answer.error;
    table.hidden = true;
    rows.replaceChildren();
    $("why-note").textContent = "";
    return;
  }
  panel.dataset.refused = "false";
  $("why-summary").textContent = answer.lines[0] || "";
  const candidates = answer.candidates || [];
  table.hidden = !candidates.length;
  rows.replaceChildren(...candidates.map((c, i) => el("tr", { class: i === 0 ? "chosen" : "" },
    el("td", {}, String(i + 1)), el("td", {}, c.label),
    el("td", {}, Number(c.score).toFixed(3)), el("td", {}, c.reason))));
  $("why-note").textContent = answer.same ? ""
    : "Asked again, the player weighs a little differently from when it played (it remembers earlier turns); the action it took is in the log.";
}

async function send(path, body) {
  if (S.busy) return;
  S.busy = true;
  document.body.dataset.busy = "true";
  showError(null);
  try {
    show(await api("POST", path, { token: S.token, ...body }));
  } catch (err) {
    showError(err.message);
    // a refused request changes nothing, but the game may have moved on (stale version)
    if (err.status === 409) await refresh();
  } finally {
    S.busy = false;
    document.body.dataset.busy = "false";
  }
}

function commit(index) {
  return send(`/api/games/${encodeURIComponent(S.id)}/actions`, { index, version: S.view.version });
}

function chooseAction(index) {
  const action = actions().find((a) => a.index === index);
  if (!action) return;
  if (action.odds || PREVIEW_GROUPS.has(action.group)) {
    if (action.unit && unitById(action.unit)) S.selected = action.unit;
    if (action.target) {
      const aimed = modelById(action.target) || membersOf(action.target)[0];
      if (aimed) S.target = aimed.id;
    }
    S.pending = { type: "action", index };
    renderAll();
    $("odds-panel").scrollIntoView({ block: "nearest" });
    return;
  }
  commit(index);
}

function moveHere() {
  const p = S.pending;
  if (!p) return;
  if (p.type === "dest") {
    commit(p.chosen);
    return;
  }
  if (p.type === "free") {
    send(`/api/games/${encodeURIComponent(S.id)}/move`, { unit: p.unit, x: p.x, y: p.y, facing: p.facing });
  }
}

async function refresh() {
  try {
    show(await api("GET", viewPath(S.step)));
  } catch (err) {
    showError(err.message);
  }
}

const WAIT_S = 25;  // a long-poll's longest hold (the server allows up to 60 s)

/** Long-poll the view while another side decides (the computer or another person):
 * one request held by the server until the game moves past the version shown
 * (docs/web-api.md, `after` and `wait`), then the next at once. While this page's
 * seat decides, reviews a step, or sends an action, nothing is asked. */
async function pollLoop() {
  const outcome = await poll();
  // asked: ask again at once; idle: look again soon (no request is made);
  // failed: wait a second before asking again (the server may be restarting)
  setTimeout(pollLoop, outcome === "asked" ? 0 : outcome === "failed" ? 1000 : 100);
}

async function poll() {
  const view = S.view;
  if (!view || S.busy || S.step !== null || view.over || view.your_turn) return "idle";
  const query = new URLSearchParams({ after: String(view.version), wait: String(WAIT_S) });
  if (S.token) query.set("token", S.token);
  try {
    const fresh = await api("GET", `/api/games/${encodeURIComponent(S.id)}?${query}`);
    // an action, undo or review step shown meanwhile is newer than this answer
    if (S.view !== view || S.busy || S.step !== null) return "asked";
    if (fresh.version !== view.version || fresh.your_turn !== view.your_turn) show(fresh);
    else view.thinking = fresh.thinking;
    return "asked";
  } catch (err) {
    showError(err.message);
    return "failed";
  }
}

// ---------------------------------------------------------------- review of a finished game

async function turnAt(step) {
  if (!S.turns.has(step)) S.turns.set(step, turnNumber((await api("GET", viewPath(step))).turn));
  return S.turns.get(step);
}

/** The first step whose turn is at least `turn` (binary search: turns never go back). */
async function firstStepOfTurn(turn) {
  let lo = 0;
  let hi = S.finalVersion;
  if ((await turnAt(hi)) < turn) return hi;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await turnAt(mid)) >= turn) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

async function goStep(step) {
  if (S.finalVersion === null) return;
  const target = Math.max(0, Math.min(S.finalVersion, step));
  S.step = target === S.finalVersion ? null : target;
  S.pending = null;
  try {
    const view = await api("GET", viewPath(S.step));
    S.turns.set(target, turnNumber(view.turn));
    show(view);
  } catch (err) {
    showError(err.message);
  }
}

async function stepTurn(direction) {
  const now = S.step ?? S.finalVersion;
  try {
    const turn = await turnAt(now);
    if (direction > 0) {
      await goStep(await firstStepOfTurn(turn + 1));
    } else {
      const start = await firstStepOfTurn(turn);
      await goStep(start < now ? start : await firstStepOfTurn(await turnAt(Math.max(0, now - 1))));
    }
  } catch (err) {
    showError(err.message);
  }
}

// ---------------------------------------------------------------- wiring

/** The range ruler's button (shift-drag measures without it); Escape clears it. */
function installRuler() {
  const tools = document.querySelector(".board-tools");
  if (!tools || $("ruler")) return;
  const button = el("button", { id: "ruler", type: "button",
    title: "Range ruler: drag on the board to measure (or shift-drag)" }, "Ruler");
  button.addEventListener("click", () => {
    board.rulerOn = !board.rulerOn;
    button.classList.toggle("on", board.rulerOn);
    if (!board.rulerOn) board.drawRuler(null);
  });
  tools.append(button);
}

function installNotify() {
  const button = $("notify");
  const ask = "Notification" in window && Notification.permission === "default" && S.token;
  button.hidden = !ask;
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.hidden = true;
  });
}

function install() {
  installNotify();
  const speed = $("play-speed");
  speed.value = S.speed;
  speed.addEventListener("change", () => {
    S.speed = speed.value;
    store(SPEED_KEY, S.speed);
    if (S.speed === "instant") stopPlayback();
    renderAll();
  });
  $("playback-skip").addEventListener("click", () => { stopPlayback(); renderAll(); });
  const why = $("why-toggle");
  why.checked = S.why;
  why.addEventListener("change", () => {
    S.why = why.checked;
    store(WHY_KEY, S.why ? "on" : "off");
    if (!S.why) S.asked = null;
    $("why-panel").hidden = true;
    renderLog();
  });
  $("why-close").addEventListener("click", () => { S.asked = null; $("why-panel").hidden = true; renderLog(); });
  $("summary-review").addEventListener("click", () => goStep(0));
  $("board").addEventListener("click", onBoardClick);
  $("board").addEventListener("pointerover", onBoardHover);
  installRuler();
  $("zoom-in").addEventListener("click", () => board.zoom(1.25));
  $("zoom-out").addEventListener("click", () => board.zoom(1 / 1.25));
  $("fit").addEventListener("click", () => board.fit());
  $("move-here").addEventListener("click", moveHere);
  $("move-cancel").addEventListener("click", () => { S.pending = null; renderAll(); });
  $("commit").addEventListener("click", () => commit(Number($("commit").dataset.actionIndex)));
  $("odds-cancel").addEventListener("click", () => { S.pending = null; renderAll(); });
  $("facing").addEventListener("input", () => setFacing(Number($("facing").value)));
  $("undo").addEventListener("click", () => send(`/api/games/${encodeURIComponent(S.id)}/undo`, {}));
  $("review-step").addEventListener("change", () => goStep(Number($("review-step").value)));
  $("review-first").addEventListener("click", () => goStep(0));
  $("review-prev").addEventListener("click", () => goStep((S.step ?? S.finalVersion) - 1));
  $("review-next").addEventListener("click", () => goStep((S.step ?? S.finalVersion) + 1));
  $("review-end").addEventListener("click", () => goStep(S.finalVersion));
  $("review-prev-turn").addEventListener("click", () => stepTurn(-1));
  $("review-next-turn").addEventListener("click", () => stepTurn(1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      // inputs (the facing slider among them) handle their own arrow keys
      if (event.target instanceof HTMLInputElement) return;
      if (!S.pending || S.pending.type === "action") return;
      event.preventDefault();
      rotate(event.key === "ArrowRight" ? 1 : -1, event.shiftKey);
    } else if (event.key === "Escape") {
      board.drawRuler(null);
      S.pending = null;
      renderAll();
    }
  });
}

async function main() {
  install();
  const step = new URLSearchParams(location.search).get("step");
  try {
    if (step !== null) {
      // opened at a review step: learn the length of the finished game first
      const final = await api("GET", viewPath(null));
      show(final);
      await goStep(Number(step));
    } else {
      show(await api("GET", viewPath(null)));
    }
  } catch (err) {
    showError(err.message);
  }
  document.body.dataset.ready = "true";
  pollLoop();
}

main();
