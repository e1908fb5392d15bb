// The SVG board: draws a SCENE (docs/web-api.md) in board coordinates (x right, y down,
// angles clockwise from up), zooms with the wheel or buttons and pans by dragging.
// It knows no rules: it draws what the server sends and reports clicks.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "dataset") Object.assign(node.dataset, value);
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
export function unitElement(unit, hexMap, fontSize, extraClass = "") {
  const r = unit.radius > 0 ? unit.radius : hexMap ? 0.45 : 0.5;
  const classes = ["unit", `side-${unit.side_index}`, unit.mine ? "mine" : "",
    unit.status ? `status-${String(unit.status).replace(/[^a-z0-9_-]/gi, "-")}` : "", extraClass];
  const group = svg("g", { class: classes.filter(Boolean).join(" "),
    transform: `translate(${unit.x},${unit.y})`, dataset: { unit: unit.id, key: keyOf(unit), side: unit.side, x: unit.x, y: unit.y, facing: unit.facing } });
  group.append(hexMap ? svg("polygon", { points: hexPoints(r), class: "base" })
    : svg("circle", { r, class: "base" }));
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
  title.textContent = `${unit.label || unit.id} (${unit.side})${details ? `\n${details}` : ""}`;
  group.append(title);
  return group;
}

/** The board view: owns the SVG's viewBox (zoom and pan) and its layers. */
export class BoardView {
  constructor(svgElement) {
    this.svg = svgElement;
    this.layers = {};
    for (const name of ["shapes", "overlays", "envelope", "units", "dests", "ghost"]) {
      this.layers[name] = svgElement.querySelector(`#layer-${name}`);
    }
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
      this.dragging = { x: event.clientX, y: event.clientY, box: this.box, moved: false, id: event.pointerId };
    });
    this.svg.addEventListener("pointermove", (event) => {
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
    for (const unit of units) {
      const key = keyOf(unit);
      const extra = [key === selected ? "selected" : "", unit.id === target ? "target" : "",
        highlights.has(key) || highlights.has(unit.id) ? "attackable" : ""].filter(Boolean).join(" ");
      this.layers.units.append(unitElement(unit, this.hexMap, fontSize, extra));
    }
  }

  drawGhost(unit, x, y, facing) {
    this.clear("ghost");
    if (!unit) return null;
    const ghost = unitElement({ ...unit, x, y, facing, mine: true }, this.hexMap, this.unitSize, "ghost");
    this.layers.ghost.append(ghost);
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
