// The SVG board: draws a SCENE (docs/web-api.md) in board coordinates (x right, y down,
// angles clockwise from up), zooms with the wheel or buttons and pans by dragging.
// It knows no rules: it draws what the server sends and reports clicks.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) node.dataset[k] = v;
    }
    else node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** The point at `r` from (x, y) in direction `deg` (clockwise from up, y down). */
export function polar(x, y, r, deg) {
  const a = (deg * Math.PI) / 180;
  return [x + r * Math.sin(a), y - r * Math.cos(a)];
}

/** Bearing in degrees (clockwise from up) from (x0, y0) to (x1, y1). */
export function bearing(x0, y0, x1, y1) {
  const deg = (Math.atan2(x1 - x0, -(y1 - y0)) * 180) / Math.PI;
  return (deg + 360) % 360;
}

function fmt(n) {
  return Number(n.toFixed(4));
}

/** SVG path of a wedge: the sector from `start` clockwise to `end`, optionally a ring sector. */
export function wedgePath(x, y, r, start, end, r0 = 0) {
  let span = (((end - start) % 360) + 360) % 360;
  if (span === 0 && end !== start) span = 360;
  if (span >= 359.999) {
    // a full circle (or ring): two half arcs, since one arc cannot close on itself
    const ring = (rad) => {
      const [ax, ay] = polar(x, y, rad, 0);
      const [bx, by] = polar(x, y, rad, 180);
      return `M${fmt(ax)},${fmt(ay)} A${rad},${rad} 0 1 1 ${fmt(bx)},${fmt(by)} A${rad},${rad} 0 1 1 ${fmt(ax)},${fmt(ay)} Z`;
    };
    return r0 > 0 ? `${ring(r)} ${ring(r0)}` : ring(r);
  }
  const large = span > 180 ? 1 : 0;
  const [sx, sy] = polar(x, y, r, start);
  const [ex, ey] = polar(x, y, r, start + span);
  if (r0 > 0) {
    const [ix, iy] = polar(x, y, r0, start + span);
    const [jx, jy] = polar(x, y, r0, start);
    return `M${fmt(sx)},${fmt(sy)} A${r},${r} 0 ${large} 1 ${fmt(ex)},${fmt(ey)} L${fmt(ix)},${fmt(iy)} A${r0},${r0} 0 ${large} 0 ${fmt(jx)},${fmt(jy)} Z`;
  }
  return `M${fmt(x)},${fmt(y)} L${fmt(sx)},${fmt(sy)} A${r},${r} 0 ${large} 1 ${fmt(ex)},${fmt(ey)} Z`;
}

/** The SHAPE each drawn element came from (an envelope cell may carry its own facings). */
export const shapeOf = new WeakMap();

/** One SHAPE as an SVG element (null for an unknown kind, which we skip). */
export function shapeElement(shape, fontSize) {
  const cls = `shape ${shape.kind} ${shape.cls || ""}`.trim();
  let node = null;
  switch (shape.kind) {
    case "rect":
      node = svg("rect", { x: shape.x, y: shape.y, width: shape.w, height: shape.h, class: cls });
      break;
    case "circle":
      node = svg("circle", { cx: shape.x, cy: shape.y, r: shape.r, class: cls });
      break;
    case "polygon":
      node = svg("polygon", { points: shape.points.map((p) => `${p[0]},${p[1]}`).join(" "), class: cls });
      break;
    case "line":
      node = svg("line", { x1: shape.x1, y1: shape.y1, x2: shape.x2, y2: shape.y2, class: cls });
      break;
    case "wedge":
      node = svg("path", { d: wedgePath(shape.x, shape.y, shape.r, shape.start, shape.end, shape.r0 || 0),
        class: cls, "fill-rule": "evenodd" });
      break;
    case "text":
      node = svg("text", { x: shape.x, y: shape.y, class: cls, "font-size": fontSize });
      node.textContent = shape.text;
      break;
    default:
      return null;
  }
  if (shape.title) {
    const title = svg("title");
    title.textContent = shape.title;
    node.append(title);
  }
  shapeOf.set(node, shape);
  return node;
}

function hexPoints(r) {
  // flat-top hexagon of circumradius r around (0, 0)
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${fmt(r * Math.cos(a))},${fmt(r * Math.sin(a))}`);
  }
  return pts.join(" ");
}

/** What a scene unit is chosen as: its flight when it has one (actions then name flights), or itself. */
export function keyOf(unit) {
  return unit.flight || unit.id;
}

/** A unit token: a base (circle, or hex on a hex map), a facing pointer and its label. */
export function unitElement(unit, hexMap, fontSize, extraClass = "", offset = [0, 0]) {
  const r = unit.radius > 0 ? unit.radius : hexMap ? 0.45 : 0.5;
  const marks = (unit.marks || []).map((m) => `mark-${String(m).replace(/[^a-z0-9_-]/gi, "-")}`);
  const classes = ["unit", `side-${unit.side_index}`, unit.mine ? "mine" : "",
    unit.status ? `status-${String(unit.status).replace(/[^a-z0-9_-]/gi, "-")}` : "", ...marks, extraClass];
  const [ox, oy] = offset;
  const group = svg("g", { class: classes.filter(Boolean).join(" "),
    transform: `translate(${fmt(unit.x + ox)},${fmt(unit.y + oy)})`,
    dataset: { unit: unit.id, key: keyOf(unit), side: unit.side, x: unit.x, y: unit.y, facing: unit.facing,
      fanned: ox || oy ? "true" : null } });
  if (ox || oy) {
    // a token fanned out of a stack points back at where it really stands
    group.append(svg("line", { x1: 0, y1: 0, x2: fmt(-ox), y2: fmt(-oy), class: "stack-link" }));
  }
  group.append(hexMap ? svg("polygon", { points: hexPoints(r), class: "base" })
    : svg("circle", { r, class: "base" }));
  if (marks.length) {
    // a mark (a cloaked craft of ours...) rings the token, named in its tooltip
    group.append(svg("circle", { r: fmt(r * 1.35), class: `mark-ring ${marks.join(" ")}` }));
  }
  const pointer = svg("path", {
    d: `M0,${fmt(-r * 1.45)} L${fmt(r * 0.45)},${fmt(-r * 0.55)} L${fmt(-r * 0.45)},${fmt(-r * 0.55)} Z`,
    class: "pointer", transform: `rotate(${unit.facing || 0})` });
  group.append(pointer);
  // the id keeps the board readable; the full label is in the tooltip and the side panel
  const label = svg("text", { y: fmt(r + fontSize * 0.35), class: "label", "font-size": fontSize,
    "stroke-width": fmt(fontSize * 0.18) });
  label.textContent = unit.id;
  group.append(label);
  const title = svg("title");
  const details = Object.entries(unit.details || {}).map(([k, v]) => `${k}: ${v}`).join("\n");
  const marked = (unit.marks || []).length ? ` [${unit.marks.join(", ")}]` : "";
  title.textContent = `${unit.label || unit.id} (${unit.side})${marked}${details ? `\n${details}` : ""}`;
  group.append(title);
  return group;
}

const ARC_COLOURS = 6;
/** How many distinct arc colours the stylesheet has (arc-0 ... arc-5). */

/** The axial hex (q, r) holding board point (x, y), flat-top hexes of size 1. */
export function hexOf(x, y) {
  const q = x / 1.5;
  const r = y / Math.sqrt(3) - q / 2;
  let [rq, rr, rs] = [Math.round(q), Math.round(r), Math.round(-q - r)];
  const [dq, dr, ds] = [Math.abs(rq - q), Math.abs(rr - r), Math.abs(rs + q + r)];
  if (dq > dr && dq > ds) rq = -rr - rs;
  else if (dr > ds) rr = -rq - rs;
  return [rq + 0, rr + 0];
}

/** Offsets that fan out tokens standing on one another (a shared hex, or bases
 * closer than half their size): each of a stack is drawn a little way round its
 * centre, with a line back to where it stands. */
export function fanOffsets(units, hexMap) {
  const out = new Map();
  const radius = (u) => (u.radius > 0 ? u.radius : hexMap ? 0.45 : 0.5);
  const stacks = [];
  for (const unit of units) {
    const stack = stacks.find((st) => Math.hypot(st[0].x - unit.x, st[0].y - unit.y)
      < 0.5 * Math.min(radius(st[0]), radius(unit)));
    if (stack) stack.push(unit);
    else stacks.push([unit]);
  }
  for (const stack of stacks) {
    if (stack.length < 2) continue;
    const r = Math.max(...stack.map(radius));
    const spread = r * (stack.length > 2 ? 1.15 : 1.0);
    stack.forEach((unit, k) => {
      const a = (2 * Math.PI * k) / stack.length - Math.PI / 2;
      out.set(unit.id, [Math.cos(a) * spread, Math.sin(a) * spread]);
    });
  }
  return out;
}

/** The offset a token was fanned out by (see `fanOffsets`). */
function fanShift(group) {
  const link = group.querySelector(".stack-link");
  return link ? [-Number(link.getAttribute("x2")), -Number(link.getAttribute("y2"))] : [0, 0];
}

/** The board view: owns the SVG's viewBox (zoom and pan) and its layers. */
export class BoardView {
  constructor(svgElement) {
    this.svg = svgElement;
    this.layers = {};
    for (const name of ["shapes", "overlays", "envelope", "units", "dests", "ghost"]) {
      this.layers[name] = svgElement.querySelector(`#layer-${name}`);
    }
    // layers the page's markup may not have: what happened lately (under the units),
    // an enemy's threat arcs on hover, and the range ruler (on top of everything)
    const extra = [["recent", "shapes"], ["threat", "overlays"], ["preview", "ghost"], ["measure", null]];
    for (const [name, after] of extra) {
      let layer = svgElement.querySelector(`#layer-${name}`);
      if (!layer) {
        layer = svg("g", { id: `layer-${name}` });
        const anchor = after ? this.layers[after] : null;
        if (anchor) anchor.after(layer);
        else svgElement.append(layer);
      }
      this.layers[name] = layer;
    }
    this.ruler = null;       // {x0, y0, x1, y1}: the ruler drawn
    this.measuring = null;   // the ruler being dragged
    this.rulerOn = false;    // the ruler tool is chosen (else shift-drag measures)
    this.box = null;
    this.scene = null;
    this.dragging = null;
    this.suppressClick = false;
    this.installZoomPan();
  }

  /** Size of labels and markers in board units, from the scene's extent. */
  get unitSize() {
    if (!this.scene) return 1;
    return this.scene.unit_name === "hex" ? 0.42 : Math.max(this.scene.width, this.scene.height) / 55;
  }

  get hexMap() {
    return Boolean(this.scene && this.scene.unit_name === "hex");
  }

  /** Use `scene`; the first scene (or a board of another size) is fitted to the window. */
  setScene(scene) {
    const first = !this.scene || this.scene.width !== scene.width || this.scene.height !== scene.height;
    this.scene = scene;
    if (first) this.fit();
  }

  fit() {
    if (!this.scene) return;
    const [x0, y0] = this.scene.origin || [0, 0];
    const pad = Math.max(this.scene.width, this.scene.height) * 0.03;
    this.setBox([x0 - pad, y0 - pad, this.scene.width + 2 * pad, this.scene.height + 2 * pad]);
  }

  setBox(box) {
    this.box = box;
    this.svg.setAttribute("viewBox", box.map(fmt).join(" "));
  }

  /** Zoom by `factor` (>1 zooms in) around board point (cx, cy), the centre by default. */
  zoom(factor, cx, cy) {
    if (!this.box) return;
    const [x, y, w, h] = this.box;
    const px = cx ?? x + w / 2;
    const py = cy ?? y + h / 2;
    const nw = w / factor;
    const nh = h / factor;
    const limit = this.scene ? Math.max(this.scene.width, this.scene.height) * 4 : Infinity;
    if (nw > limit || nw < 0.5) return;
    this.setBox([px - ((px - x) * nw) / w, py - ((py - y) * nh) / h, nw, nh]);
  }

  /** The board point under a mouse or pointer event. */
  toBoard(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const matrix = this.svg.getScreenCTM();
    const p = matrix ? point.matrixTransform(matrix.inverse()) : point;
    return [p.x, p.y];
  }

  installZoomPan() {
    this.svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const [x, y] = this.toBoard(event);
      this.zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2, x, y);
    }, { passive: false });
    this.svg.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 || event.target.closest(".ghost")) return;
      if (event.shiftKey || this.rulerOn) {
        // the range ruler: drag from one point to another to measure it
        const [x, y] = this.toBoard(event);
        this.measuring = { x0: x, y0: y, id: event.pointerId };
        this.svg.setPointerCapture(event.pointerId);
        this.drawRuler({ x0: x, y0: y, x1: x, y1: y });
        return;
      }
      this.dragging = { x: event.clientX, y: event.clientY, box: this.box, moved: false, id: event.pointerId };
    });
    this.svg.addEventListener("pointermove", (event) => {
      if (this.measuring) {
        const [x, y] = this.toBoard(event);
        this.drawRuler({ x0: this.measuring.x0, y0: this.measuring.y0, x1: x, y1: y });
        return;
      }
      const drag = this.dragging;
      if (!drag || !drag.box) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      if (!drag.moved) {
        drag.moved = true;
        this.svg.setPointerCapture(drag.id);
        this.svg.classList.add("panning");
      }
      const rect = this.svg.getBoundingClientRect();
      const scale = Math.max(drag.box[2] / rect.width, drag.box[3] / rect.height);
      this.setBox([drag.box[0] - dx * scale, drag.box[1] - dy * scale, drag.box[2], drag.box[3]]);
    });
    const end = () => {
      if (this.measuring) {
        // the ruler stays until the next measure or Escape; its end is not a click
        this.measuring = null;
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 0);
        return;
      }
      if (this.dragging && this.dragging.moved) {
        // the click that ends a drag is not a choice on the board
        this.suppressClick = true;
        setTimeout(() => { this.suppressClick = false; }, 0);
      }
      this.dragging = null;
      this.svg.classList.remove("panning");
    };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointercancel", end);
  }

  clear(layer) {
    this.layers[layer].replaceChildren();
  }

  drawShapes(layer, shapes, extraClass = "") {
    const fontSize = this.unitSize;
    const nodes = [];
    for (const shape of shapes || []) {
      const node = shapeElement(shape, fontSize);
      if (!node) continue;
      if (extraClass) node.classList.add(extraClass);
      this.layers[layer].append(node);
      nodes.push(node);
    }
    return nodes;
  }

  drawUnits(units, selected, target, highlights) {
    this.clear("units");
    const fontSize = this.unitSize;
    const offsets = fanOffsets(units, this.hexMap);
    for (const unit of units) {
      const key = keyOf(unit);
      // a unit of ours is never shown as one to attack, whatever an action aims at
      const attackable = !unit.mine && (highlights.has(key) || highlights.has(unit.id));
      const extra = [key === selected ? "selected" : "", unit.id === target ? "target" : "",
        attackable ? "attackable" : ""].filter(Boolean).join(" ");
      this.layers.units.append(unitElement(unit, this.hexMap, fontSize, extra, offsets.get(unit.id)));
    }
    this.placeLabels(selected);
  }

  /** Move unit labels so that no two overlap: each tries below its token, above, to
   * the right, the left, then farther out; one with no free place is hidden (its name
   * stays in the tooltip and the units list). The selected unit's and ours go first. */
  placeLabels(selected) {
    const groups = [...this.layers.units.querySelectorAll(":scope > .unit")];
    const rank = (g) => (g.dataset.key === selected ? 0 : g.classList.contains("mine") ? 1 : 2);
    groups.sort((a, b) => rank(a) - rank(b));
    const placed = [];
    const hit = (box, list) => list.some((p) => box.x0 < p.x1 && p.x0 < box.x1 && box.y0 < p.y1 && p.y0 < box.y1);
    // the tokens' bases: a label keeps off them too where it can
    const bases = groups.map((g) => {
      const b = g.querySelector(".base").getBBox();
      const [fx, fy] = fanShift(g);
      const x = Number(g.dataset.x) + fx + b.x;
      const y = Number(g.dataset.y) + fy + b.y;
      return { x0: x, y0: y, x1: x + b.width, y1: y + b.height, group: g };
    });
    for (const group of groups) {
      const label = group.querySelector(".label");
      if (!label) continue;
      label.classList.remove("label-hidden");
      const base = group.querySelector(".base").getBBox();
      const r = Math.max(base.width, base.height) / 2;
      const cx = Number(group.dataset.x) + fanShift(group)[0];
      const cy = Number(group.dataset.y) + fanShift(group)[1];
      label.setAttribute("x", "0");
      label.setAttribute("y", "0");
      const own = label.getBBox();
      // the text's box relative to its anchor point (centred, hanging below it)
      const left = own.x;
      const top = own.y;
      const w = own.width;
      const h = own.height;
      const gap = h * 0.15;
      // candidate centres of the label's top edge, relative to the token's centre
      const spots = [[0, r + gap], [0, -r - gap - h], [r + gap + w / 2, -h / 2], [-r - gap - w / 2, -h / 2]];
      for (const ring of [1.6, 2.4, 3.4]) {
        for (let k = 0; k < 8; k++) {
          const a = (Math.PI / 4) * k + Math.PI / 2;
          spots.push([Math.cos(a) * (r + gap + w / 2) * ring, Math.sin(a) * (r + gap + h) * ring - h / 2]);
        }
      }
      let chosen = null;
      const others = bases.filter((b) => b.group !== group);
      // first clear of labels and tokens both, else clear of the labels alone
      for (const avoid of [(box) => hit(box, placed) || hit(box, others), (box) => hit(box, placed)]) {
        for (const [dx, dy] of spots) {
          const box = { x0: cx + dx + left, x1: cx + dx + left + w, y0: cy + dy + top, y1: cy + dy + top + h };
          if (!avoid(box)) { chosen = [dx, dy, box]; break; }
        }
        if (chosen) break;
      }
      if (!chosen) {
        label.classList.add("label-hidden");
        continue;
      }
      label.setAttribute("x", fmt(chosen[0]));
      label.setAttribute("y", fmt(chosen[1]));
      placed.push(chosen[2]);
    }
  }

  /** What happened lately (the SCENE's `recent`): trails from where units stood,
   * attack lines with a hit or miss marker at the target, and wrecks. */
  drawRecent(recent) {
    this.clear("recent");
    if (!recent) return;
    const layer = this.layers.recent;
    const size = this.hexMap ? 0.35 : this.unitSize * 0.5;
    for (const t of recent.trails || []) {
      const node = svg("g", { class: `trail-mark side-${t.side_index}`, dataset: { unit: t.unit } },
        svg("line", { x1: t.x1, y1: t.y1, x2: t.x2, y2: t.y2, class: "trail-line" }),
        svg("circle", { cx: t.x1, cy: t.y1, r: fmt(size * 0.45), class: "trail-start" }));
      const title = svg("title");
      title.textContent = `${t.unit} moved from here this turn`;
      node.append(title);
      layer.append(node);
    }
    for (const a of recent.attacks || []) {
      const cls = a.hit ? "hit" : "miss";
      const [mx, my] = [a.x2, a.y2];
      const marker = a.hit
        ? svg("circle", { cx: mx, cy: my, r: fmt(size * 0.8), class: "attack-marker" })
        : svg("path", { d: `M${fmt(mx - size * 0.6)},${fmt(my - size * 0.6)} L${fmt(mx + size * 0.6)},${fmt(my + size * 0.6)} `
          + `M${fmt(mx - size * 0.6)},${fmt(my + size * 0.6)} L${fmt(mx + size * 0.6)},${fmt(my - size * 0.6)}`, class: "attack-marker" });
      const node = svg("g", { class: `attack-mark ${cls}`, dataset: { attacker: a.attacker, target: a.target } },
        svg("line", { x1: a.x1, y1: a.y1, x2: a.x2, y2: a.y2, class: "attack-line" }), marker);
      const title = svg("title");
      title.textContent = `${a.hit ? "Hit" : "Miss"}: ${a.text}`;
      node.append(title);
      layer.append(node);
    }
    for (const w of recent.wrecks || []) {
      const r = w.radius > 0 ? w.radius : size;
      const node = svg("g", { class: `wreck side-${w.side_index}`, transform: `translate(${w.x},${w.y})`, dataset: { unit: w.unit } },
        svg("circle", { r, class: "wreck-base" }),
        svg("path", { d: `M${fmt(-r * 0.7)},${fmt(-r * 0.7)} L${fmt(r * 0.7)},${fmt(r * 0.7)} M${fmt(-r * 0.7)},${fmt(r * 0.7)} L${fmt(r * 0.7)},${fmt(-r * 0.7)}`, class: "wreck-cross" }));
      const title = svg("title");
      title.textContent = `Wreck of ${w.label}: ${w.text}`;
      node.append(title);
      layer.append(node);
    }
  }

  /** A unit's overlays with each weapon's arcs in a colour of its own (`arc-0`...,
   * by weapon name, the part of the title before ":"); returns the legend's entries
   * [[name, class]]. `transform` (optional) moves them (a ghost's pose). */
  drawOverlays(layer, shapes, extraClass = "overlay", transform = null) {
    const target = transform ? svg("g", { transform, class: "moved-overlays" }) : this.layers[layer];
    if (transform) this.layers[layer].append(target);
    const names = [];
    const fontSize = this.unitSize;
    for (const shape of shapes || []) {
      const node = shapeElement(shape, fontSize);
      if (!node) continue;
      if (extraClass) node.classList.add(extraClass);
      if (shape.cls === "arc") {
        const name = (shape.title || "").split(":")[0] || "arc";
        if (!names.includes(name)) names.push(name);
        node.classList.add(`arc-${names.indexOf(name) % ARC_COLOURS}`);
        node.dataset.weapon = name;
      }
      target.append(node);
    }
    return names.map((name, i) => [name, `arc-${i % ARC_COLOURS}`]);
  }

  /** The threat of an enemy unit under the pointer: its arcs, drawn while hovered. */
  showThreat(unit) {
    this.clear("threat");
    if (unit) this.drawOverlays("threat", (unit.overlays || []).filter((sh) => sh.cls === "arc"), "threat");
  }

  /** The range ruler from (x0, y0) to (x1, y1) in board units, labelled in the
   * scene's unit (inches on a table, hexes counted on a hex map); null clears it. */
  drawRuler(ruler) {
    this.clear("measure");
    this.ruler = ruler;
    if (!ruler) return null;
    const { x0, y0, x1, y1 } = ruler;
    const words = this.measureText(x0, y0, x1, y1);
    const text = svg("text", { x: fmt((x0 + x1) / 2), y: fmt((y0 + y1) / 2), class: "ruler-text",
      "font-size": this.unitSize * 1.1, "stroke-width": fmt(this.unitSize * 0.2) });
    text.textContent = words;
    this.layers.measure.append(svg("g", { class: "ruler", dataset: { length: words } },
      svg("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "ruler-line" }),
      svg("circle", { cx: x0, cy: y0, r: fmt(this.unitSize * 0.2), class: "ruler-end" }),
      svg("circle", { cx: x1, cy: y1, r: fmt(this.unitSize * 0.2), class: "ruler-end" }), text));
    return words;
  }

  /** The distance in the table's own unit: inches, or hexes between the hexes of the
   * two points (flat-top hexes of size 1, docs/web-api.md). */
  measureText(x0, y0, x1, y1) {
    if (this.hexMap) {
      const [aq, ar] = hexOf(x0, y0);
      const [bq, br] = hexOf(x1, y1);
      const n = (Math.abs(aq - bq) + Math.abs(ar - br) + Math.abs(aq + ar - bq - br)) / 2;
      return `${n} hex${n === 1 ? "" : "es"}`;
    }
    return `${Math.hypot(x1 - x0, y1 - y0).toFixed(1)}"`;
  }

  drawGhost(unit, x, y, facing) {
    this.clear("ghost");
    if (!unit) return null;
    const ghost = unitElement({ ...unit, x, y, facing, mine: true }, this.hexMap, this.unitSize, "ghost");
    this.layers.ghost.append(ghost);
    return ghost;
  }

  /** The ghost's arcs and lines of fire: the unit's overlays moved to the ghost's
   * pose, and a line to each of `enemies` standing inside one of its arcs there. */
  drawGhostOverlays(unit, x, y, facing, enemies) {
    this.layers.ghost.querySelector(".ghost-overlays")?.remove();
    if (!unit) return [];
    const turn = (facing ?? 0) - (unit.facing ?? 0);
    const holder = svg("g", { class: "ghost-overlays" });
    this.layers.ghost.prepend(holder);
    const moved = svg("g", { transform: `translate(${fmt(x)},${fmt(y)}) rotate(${fmt(turn)}) translate(${fmt(-unit.x)},${fmt(-unit.y)})` });
    holder.append(moved);
    const arcs = [];
    const names = [];
    for (const shape of unit.overlays || []) {
      if (shape.cls !== "arc") continue;
      const node = shapeElement(shape, this.unitSize);
      if (!node) continue;
      const name = (shape.title || "").split(":")[0] || "arc";
      if (!names.includes(name)) names.push(name);
      node.classList.add("overlay", "ghost-arc", `arc-${names.indexOf(name) % ARC_COLOURS}`);
      moved.append(node);
      arcs.push(node);
    }
    const a = (-turn * Math.PI) / 180;
    const inLine = [];
    for (const enemy of enemies || []) {
      // the enemy's point in the overlays' own (unmoved) coordinates
      const dx = enemy.x - x;
      const dy = enemy.y - y;
      const point = this.svg.createSVGPoint();
      point.x = unit.x + dx * Math.cos(a) - dy * Math.sin(a);
      point.y = unit.y + dx * Math.sin(a) + dy * Math.cos(a);
      const bearing = arcs.find((node) => node.isPointInFill(point));
      if (!bearing) continue;
      inLine.push(enemy.id);
      const line = svg("line", { x1: fmt(x), y1: fmt(y), x2: enemy.x, y2: enemy.y, class: "line-of-fire",
        dataset: { target: enemy.id, weapon: (shapeOf.get(bearing).title || "").split(":")[0] } });
      const title = svg("title");
      title.textContent = `${enemy.id} in the arc of ${(shapeOf.get(bearing).title || "").split(":")[0]} from here`;
      line.append(title);
      holder.append(line);
    }
    return inLine;
  }

  /** A ghost of `unit` at (x, y) facing `facing` in the preview layer (a flight's
   * other models beside the moving one, where an inertia drift takes a model), with
   * a line from where it stands. */
  drawPreviewGhost(unit, x, y, facing, cls) {
    const layer = this.layers.preview;
    layer.append(svg("line", { x1: unit.x, y1: unit.y, x2: fmt(x), y2: fmt(y), class: `preview-path ${cls}`,
      dataset: { unit: unit.id } }));
    const ghost = unitElement({ ...unit, x, y, facing, mine: true }, this.hexMap, this.unitSize, `ghost ${cls}`);
    layer.append(ghost);
    return ghost;
  }

  /** Turn the ghost in place (redrawing it would drop the pointer it is dragged by). */
  turnGhost(facing) {
    const pointer = this.layers.ghost.querySelector(".ghost .pointer");
    if (pointer) pointer.setAttribute("transform", `rotate(${facing})`);
  }

  /** Clickable markers for legal destinations: one per distinct end point (the moves that
   * end there with other facings are chosen in the move panel), pointing the first's way. */
  drawDests(dests) {
    this.clear("dests");
    const r = this.hexMap ? 0.3 : this.unitSize * 0.45;
    for (const dest of dests) {
      const marker = svg("g", { class: "dest", transform: `translate(${dest.x},${dest.y})`,
        dataset: { destKey: dest.key, actionIndex: dest.indices.join(",") } },
      svg("circle", { r, class: "dest-dot" }),
      svg("path", { d: `M0,${fmt(-r * 1.9)} L${fmt(r * 0.5)},${fmt(-r * 0.9)} L${fmt(-r * 0.5)},${fmt(-r * 0.9)} Z`,
        class: "dest-pointer", transform: `rotate(${dest.facing ?? 0})` }));
      const title = svg("title");
      title.textContent = dest.title;
      marker.append(title);
      this.layers.dests.append(marker);
    }
  }
}
