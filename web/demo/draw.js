// @ts-check
// Drawing, the layers under the labels: the still layer (board, obstacles, grid, thin walls, plain
// creatures; cached), the result layer's redraw for a new view, and the board canvas drawn each
// frame by draw() (range, refused squares, spared squares, a wall's squares, then marks.js's).
import { COLOURS, FEET, FINE, HALF, OTHER_LEVEL_ALPHA } from "./constants.js";
import { canvas, stillCanvas } from "./dom.js";
import { entities, scene, ui } from "./state.js";
import { isPoint, onIntersection, placementOf, rangeOf } from "./requests.js";
import { clearResult, paintResult, resultView } from "./engine.js";
import { boardTransform, onLevel, view } from "./view.js";
import { drawLabels } from "./labels.js";
import { cross, drawCoverLines, drawEntities, drawForce, drawHandles, drawThinWalls, drawToward, drawWallStroke } from "./marks.js";
import { drawPlaced } from "./templates.js";

/** @typedef {import("./types.js").Point} Point */
/** @typedef {import("./types.js").Template} Template */

/** The context drawn on: the board canvas's, or the still layer's while it is drawn (paintStill). */
export let ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));

let hatch = /** @type {CanvasPattern | null} */ (null), lowHatch = /** @type {CanvasPattern | null} */ (null), hatchDpr = 0;
let spareHatch = /** @type {CanvasPattern | null} */ (null); // squares taken out of the area (selective)
function patterns() {
  if (hatch && hatchDpr === ui.dpr) return;
  const make = (/** @type {string} */ bg, /** @type {string} */ fg, /** @type {number} */ gap, /** @type {number} */ width) => {
    const n = Math.round(gap * ui.dpr);
    const c = document.createElement("canvas");
    c.width = c.height = n;
    const g = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d"));
    g.fillStyle = bg;
    g.fillRect(0, 0, n, n);
    g.strokeStyle = fg;
    g.lineWidth = width * ui.dpr;
    g.beginPath();
    for (const o of [-n, 0, n]) { g.moveTo(o, n); g.lineTo(o + n, 0); }
    g.stroke();
    const p = /** @type {CanvasPattern} */ (ctx.createPattern(c, "repeat"));
    p.setTransform(new DOMMatrix().scale(1 / ui.dpr));
    return p;
  };
  hatch = make("rgba(255, 235, 235, 0.55)", "rgba(198, 40, 40, 0.7)", 8, 2);
  lowHatch = make(COLOURS.low, COLOURS.lowHatch, 7, 1.5);
  spareHatch = make("rgba(237, 231, 246, 0.5)", "rgba(94, 53, 177, 0.85)", 6, 1.5);
  hatchDpr = ui.dpr;
}

/** @param {string} side */
export const sideColour = (side) => (side === "party" ? COLOURS.party : side === "enemy" ? COLOURS.enemy : COLOURS.neutral);

/**
 * A label on a rounded pill, centred on (x, y).
 * @param {string} text @param {number} x @param {number} y @param {string} bg @param {string} fg @param {number} size
 */
export function pill(text, x, y, bg, fg, size) {
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width + size * 0.8, h = size * 1.35;
  const left = Math.min(Math.max(x - w / 2, 1), scene.cols * ui.sq - w - 1);
  ctx.beginPath();
  ctx.roundRect(left, y - h / 2, w, h, h / 2);
  ctx.fillStyle = bg;
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = "rgba(0, 0, 0, 0.75)";
  ctx.stroke();
  ctx.fillStyle = fg;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, left + w / 2, y + 0.5);
}

/** The handle positions shown for the current template. */
export function handles() {
  const t = ui.template;
  if (!t) return /** @type {("origin" | "aim")[]} */ ([]);
  const place = placementOf(t, scene);
  return /** @type {("origin" | "aim")[]} */ (place === "origin" || place === "point" ? ["origin"] : place === "line" ? ["origin", "aim"] : []);
}

/** Whether the origin handle is a point-origin area's point (SPEC §10.1), not a square. */
export const pointHandle = () => !!ui.template && placementOf(ui.template, scene) === "point";

/** Where a handle is drawn, in board pixels: a square's centre, or the point itself. @param {"origin" | "aim"} h */
export function handleAt(h) {
  const sq = ui.sq;
  if (h === "origin" && pointHandle()) return { x: scene.point.x * sq, y: scene.point.y * sq };
  const p = h === "origin" ? scene.origin : scene.aim;
  return { x: p.x * sq + sq / 2, y: p.y * sq + sq / 2 };
}

/**
 * The point nearest (x, y), in squares, on the handle's lattice (SPEC §10.1): grid
 * intersections for cubes and pf2e bursts (they start on one, §10.5, §11.2); else every half
 * square — intersections, square centres and edge midpoints — or, with `free` (Alt held),
 * every 1/40 of a square. On the board; its height is the level shown (a point on its floor).
 * @param {number} x @param {number} y @param {boolean} free @returns {Point}
 */
export function snapPoint(x, y, free) {
  const step = onIntersection(ui.template) ? 1 : free ? FINE : HALF;
  const snap = (/** @type {number} */ v, /** @type {number} */ hi) => Math.min(Math.max(Math.round(v / step) * step, 0), hi);
  const frac = onIntersection(ui.template) ? 0 : scene.point.z - Math.floor(scene.point.z); // a point at mid-height stays so
  return { x: snap(x, scene.cols), y: snap(y, scene.rows), z: ui.level + frac };
}

/** The scene's point brought onto an intersection where the template needs one (a cube, a pf2e burst). */
export function fitPoint() {
  if (!onIntersection(ui.template)) return;
  const p = scene.point;
  const x = Math.min(Math.round(p.x), scene.cols), y = Math.min(Math.round(p.y), scene.rows), z = Math.floor(p.z);
  if (x !== p.x || y !== p.y || z !== p.z) scene.point = { x, y, z };
}

/** The id whose cover lines are drawn: the hovered creature, else the selected one. */
export function focusId() {
  if (ui.hoverId) return ui.hoverId;
  return ui.selected && ui.selected.kind === "entity" ? ui.selected.id : null;
}

/** The creature being dragged, or "". */
const draggedId = () => (ui.drag && ui.drag.sel.kind === "entity" ? ui.drag.sel.id : "");

/**
 * The drawing's layers, five canvases of one size stacked in the board's box. At the bottom
 * `still` (#board-still): the board's colour, its obstacles, the grid, the thin walls and every
 * creature on the level shown but the caster and one being dragged, drawn plain (no ring, no
 * badge, no name) — what changes only with the board or the view, drawn again only when any of
 * it changed (stillKey). Over it the result (#board-result), which the overlay draws each frame
 * (paintResult). Then the board canvas (#board), which takes the pointer and which the demo
 * draws each frame: the range, a refused placement's hatched squares, a Draw Steel wall's
 * squares, the forced movement, the attack's cover lines, the creatures off the level shown
 * that the answer is not about (faint), the handles and the tools. On top the labels, each
 * layer drawn again only when what it shows changed (drawLabels): the badges (#board-badges),
 * then the names (#board-names) — nothing is drawn over a name. `painted` counts the still
 * layer's redraws (for the tests).
 */
/** @type {{key: unknown[], painted: number}} */
export const layers = { key: [], painted: 0 };

/** What the still layer shows, as a list of values: equal lists, equal drawings. */
function stillKey() {
  const drag = draggedId();
  /** @type {unknown[]} */
  const k = [canvas.width, canvas.height, ui.dpr, ui.sq, view.x, view.y, scene.cols, scene.rows, ui.level,
    ui.wall ?? -1, ui.hoverWall ?? -1, drag, scene.caster.id, scene.obstacles.length, scene.walls.length, scene.tokens.length, ui.placedKey];
  for (const o of scene.obstacles) k.push(o.x, o.y, o.z, o.fill);
  for (const w of scene.walls) k.push(w.a[0], w.a[1], w.b[0], w.b[1], w.bottom ?? "", w.top ?? "", w.open ?? "");
  for (const e of scene.tokens) if (e.id !== drag) k.push(e.id, e.x, e.y, e.z, e.size, e.height ?? -1, e.side, e.prone);
  return k;
}
/** @param {unknown[]} a @param {unknown[]} b */
function sameKey(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Draws the still layer again. */
function paintStill() {
  const w = canvas.width, h = canvas.height;
  if (stillCanvas.width !== w || stillCanvas.height !== h) { stillCanvas.width = w; stillCanvas.height = h; }
  const main = ctx;
  try {
    ctx = /** @type {CanvasRenderingContext2D} */ (stillCanvas.getContext("2d", { alpha: false }));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = COLOURS.board;
    ctx.fillRect(0, 0, w, h);
    boardTransform(ctx);
    drawObstacles();
    drawPlaced(); // the board's other templates, under the creatures
    const sq = ui.sq, W = scene.cols * sq, H = scene.rows * sq;
    ctx.strokeStyle = COLOURS.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let x = 0; x <= scene.cols; x++) { ctx.moveTo(x * sq + 0.5, 0); ctx.lineTo(x * sq + 0.5, H); }
    for (let y = 0; y <= scene.rows; y++) { ctx.moveTo(0, y * sq + 0.5); ctx.lineTo(W, y * sq + 0.5); }
    ctx.stroke();
    drawThinWalls();
    const drag = draggedId();
    drawEntities(scene.tokens.filter((e) => e.id !== drag && onLevel(e)));
  } finally {
    ctx = main;
  }
  layers.painted++;
}

/** Walls, under the area (a TDGS area passes over them, SPEC §2.1): those of other levels faintly, first. */
function drawObstacles() {
  const sq = ui.sq;
  for (const here of [false, true]) {
    ctx.globalAlpha = here ? 1 : OTHER_LEVEL_ALPHA;
    for (const o of scene.obstacles) {
      if ((o.z === ui.level) !== here) continue;
      if (o.fill >= 1) {
        ctx.fillStyle = COLOURS.wall;
        ctx.fillRect(o.x * sq, o.y * sq, sq, sq);
      } else {
        ctx.fillStyle = /** @type {CanvasPattern} */ (lowHatch);
        ctx.fillRect(o.x * sq, o.y * sq, sq, sq);
        if (o.fill !== 0.5 && sq >= 20) pill(String(o.fill), o.x * sq + sq / 2, o.y * sq + sq / 2, "#fff", COLOURS.ink, Math.max(8, sq * 0.26));
      }
      if (o.z !== ui.level && sq >= 20) pill(`z${o.z}`, o.x * sq + sq / 2, o.y * sq + sq * 0.8, "#fff", COLOURS.ink, Math.max(8, sq * 0.24));
    }
  }
  ctx.globalAlpha = 1;
}

/** The hatched squares of a refused placement (where the template would go), on the level shown. */
function drawGhost() {
  const sq = ui.sq;
  ctx.fillStyle = /** @type {CanvasPattern} */ (hatch);
  for (const [x, y, z] of ui.ghost) if (z === ui.level) ctx.fillRect(x * sq, y * sq, sq, sq);
}

/** The squares taken out of the area (selective targeting, CONTRACT excludeCells), hatched and outlined, on the level shown. */
function drawExcluded() {
  if (scene.trait !== "selective" || scene.excludeCells.length === 0) return;
  const sq = ui.sq;
  ctx.fillStyle = /** @type {CanvasPattern} */ (spareHatch);
  ctx.strokeStyle = "rgba(94, 53, 177, 0.9)";
  ctx.lineWidth = 1.5;
  for (const [x, y, z] of scene.excludeCells) {
    if (z !== ui.level) continue;
    ctx.fillRect(x * sq, y * sq, sq, sq);
    ctx.strokeRect(x * sq + 1, y * sq + 1, sq - 2, sq - 2);
  }
}

/** The creatures the overlay draws over the still layer: the caster, those the answer names, the selected, hovered and dragged ones. */
function liveEntities() {
  /** @type {Set<string>} */
  const ids = new Set();
  if (ui.summary) for (const t of ui.summary.targets) ids.add(t.id);
  if (ui.selected && ui.selected.kind === "entity") ids.add(ui.selected.id);
  const f = focusId(), d = draggedId();
  if (f) ids.add(f);
  if (d) ids.add(d);
  return entities(scene).filter((e) => e === scene.caster || ids.has(e.id));
}

export function draw() {
  const t0 = performance.now();
  const sq = ui.sq, W = scene.cols * sq, H = scene.rows * sq;
  patterns();
  const key = stillKey();
  if (!sameKey(key, layers.key)) {
    paintStill();
    layers.key = key;
  }
  // The result layer: drawn with each answer (evaluateScene); for a change of the view alone
  // (a hover, a pan, a zoom, the level) the overlay draws the same request again, in it.
  const d = ui.drawn;
  if (d && JSON.stringify(resultView()) !== d.key) {
    try {
      ui.summary = paintResult(d.request, d.scene);
    } catch {
      clearResult(); // its scene went (an import, a sample): the refresh that follows draws the new board
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  boardTransform(ctx);
  ctx.lineCap = "butt";
  ctx.setLineDash([]);
  drawGhost();
  drawExcluded();

  const t = ui.template;
  // The range: every square within it of the caster's space (Chebyshev, SPEC §1.4).
  const r = t ? rangeOf(t, scene) : null;
  if (t && r !== null && isPoint(t)) drawPointRange(t, r);
  else if (t && r !== null) {
    const c = scene.caster;
    const x0 = (c.x - r) * sq, y0 = (c.y - r) * sq, side = (c.size + 2 * r) * sq;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, W, H);
    ctx.clip();
    ctx.setLineDash([8, 5]);
    ctx.lineWidth = 4;
    ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
    ctx.strokeRect(x0 + 2, y0 + 2, side - 4, side - 4);
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLOURS.handle;
    ctx.strokeRect(x0 + 2, y0 + 2, side - 4, side - 4);
    ctx.restore();
    ctx.setLineDash([]);
    const label = scene.range === null && t.within ? `within ${t.within}` : scene.range === "self" || scene.range === "touch" ? `range ${scene.range}` : `range ${r}`;
    pill(label, Math.max(x0, 0) + 34, Math.max(y0, 0) + 10, "#f3e5f5", COLOURS.handle, 11);
  }

  // A Draw Steel wall's squares, numbered in the order laid.
  if (t && placementOf(t, scene) === "wall") {
    scene.path.forEach(([x, y], i) => {
      ctx.lineWidth = 3;
      ctx.strokeStyle = COLOURS.path;
      ctx.strokeRect(x * sq + 2.5, y * sq + 2.5, sq - 5, sq - 5);
      if (sq >= 18) pill(String(i + 1), x * sq + sq / 2, y * sq + sq / 2, "#fff", COLOURS.path, Math.max(8, sq * 0.3));
    });
    if (ui.error && ui.error.code === "invalid_wall") {
      const m = /\((\d+),(\d+),(-?\d+)\)/.exec(ui.error.message);
      if (m) cross(Number(m[1]) * sq + sq / 2, Number(m[2]) * sq + sq / 2, sq * 0.3);
    }
  }

  drawCoverLines();
  drawForce();
  // Creatures off the level shown are faint: the overlay draws those the answer is about; the
  // others, which the still layer leaves out, are drawn here.
  const live = liveEntities();
  drawEntities(entities(scene).filter((e) => !onLevel(e) && !live.includes(e)));
  drawToward();
  drawHandles();

  // Where a dragged creature cannot go.
  const b = ui.drag && ui.drag.blocked;
  if (b) {
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 3;
    ctx.strokeStyle = COLOURS.bad;
    ctx.strokeRect(b.x * sq + 2, b.y * sq + 2, b.size * sq - 4, b.size * sq - 4);
    ctx.setLineDash([]);
  }
  // The thin wall being drawn, and the grid point it would start from.
  drawWallStroke();
  // The square a painting tool would change.
  if (ui.hoverCell && ui.tool !== "move" && ui.tool !== "thin" && ui.tool !== "pan") {
    ctx.lineWidth = 2;
    ctx.strokeStyle = ui.tool === "erase" ? COLOURS.bad : COLOURS.handle;
    ctx.strokeRect(ui.hoverCell.x * sq + 1, ui.hoverCell.y * sq + 1, sq - 2, sq - 2);
  }
  drawLabels();
  ui.timing.draw = performance.now() - t0;
}

/**
 * A dnd5e or pf2e range (SPEC §10.6, §10.7): the points within r of the caster's space — on each
 * axis the gap from its box, rounded up to whole squares, then the rule set's metric: every
 * diagonal 5 ft in dnd5e (a square), every second one 10 ft in pf2e (a stepped octagon). Dashed,
 * with its size in squares and feet.
 * @param {Template} t @param {number} r
 */
function drawPointRange(t, r) {
  const sq = ui.sq, c = scene.caster;
  const alternating = t.rules === "pf2e";
  // h[g]: how far the region reaches on one axis where the gap on the other is g whole squares.
  const h = [];
  for (let g = 0; g <= r; g++) {
    let m = 0;
    while (m + 1 <= r && (alternating ? Math.max(g, m + 1) + Math.floor(Math.min(g, m + 1) / 2) : Math.max(g, m + 1)) <= r) m++;
    h.push(m);
  }
  /** @type {[number, number][]} one quadrant's stepped edge, from the axis across (0, h0) to the axis along (r, 0) */
  const q = [[0, h[0]]];
  for (let g = 1; g <= r; g++) q.push([g - 1, h[g]], [g, h[g]]);
  q.push([r, 0]);
  const x0 = c.x, x1 = c.x + c.size, y0 = c.y, y1 = c.y + c.size;
  const rev = q.slice().reverse();
  /** @type {[number, number][]} */
  const poly = [
    ...rev.map(([a, b]) => /** @type {[number, number]} */ ([x1 + a, y1 + b])), // south-east: east to south
    ...q.map(([a, b]) => /** @type {[number, number]} */ ([x0 - a, y1 + b])), //   south-west: south to west
    ...rev.map(([a, b]) => /** @type {[number, number]} */ ([x0 - a, y0 - b])), // north-west: west to north
    ...q.map(([a, b]) => /** @type {[number, number]} */ ([x1 + a, y0 - b])), //   north-east: north to east
  ];
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, 0, scene.cols * sq, scene.rows * sq);
  ctx.clip();
  ctx.beginPath();
  poly.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x * sq, y * sq) : ctx.lineTo(x * sq, y * sq)));
  ctx.closePath();
  ctx.setLineDash([8, 5]);
  ctx.lineWidth = 4;
  ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
  ctx.stroke();
  ctx.lineWidth = 2;
  ctx.strokeStyle = COLOURS.handle;
  ctx.stroke();
  ctx.restore();
  ctx.setLineDash([]);
  const label = scene.range === "self" || scene.range === "touch" ? `range ${scene.range} (${r * FEET} ft)` : `range ${r} (${r * FEET} ft)`;
  pill(label, Math.max(x0 - r, 0) * sq + 48, Math.max(y0 - r, 0) * sq + 10, "#f3e5f5", COLOURS.handle, 11);
}
