// @ts-check
// The board canvas's marks: a point-origin area's direction arrow, the attack's cover lines, the
// forced movement, the thin walls and doors (for the still layer), a wall being drawn, plain
// creatures and the handles.
import { COLOURS, OTHER_LEVEL_ALPHA, RULE_BROKEN } from "./constants.js";
import { ctx, handleAt, handles, pill, pointHandle, sideColour } from "./draw.js";
import { scene, ui } from "./state.js";
import { compassAt, coord, snapToward, turningOf } from "./requests.js";
import { forceTarget, isCube, slidePath } from "./engine.js";
import { onLevel } from "./view.js";

/** @typedef {import("./types.js").Entity} Entity */
/** @typedef {import("./types.js").Line} Line */
/** @typedef {import("./types.js").Turning} Turning */

/**
 * The direction of a dnd5e or pf2e cone, line or cube (SPEC §10.2): a dashed arrow from the
 * area's origin (the answer's: the point, or where the cone leaves the caster) along `toward`,
 * as far as the template reaches, with the angle at its tip.
 */
export function drawToward() {
  const t = ui.template, res = ui.summary;
  const turning = turningOf(t);
  if (!t || !turning || !res || !res.origin) return;
  const sq = ui.sq, o = res.origin;
  const d = snapToward(turning, scene.toward), a = (d * Math.PI) / 180;
  const reach = Math.max(1.2, (t.length ?? t.side ?? 2) * (turning === "diagonal" ? Math.SQRT2 : 1));
  const x0 = o.x * sq, y0 = o.y * sq, x1 = x0 + Math.cos(a) * reach * sq, y1 = y0 + Math.sin(a) * reach * sq;
  ctx.save();
  ctx.lineCap = "round";
  for (const [w, colour] of /** @type {[number, string][]} */ ([[4, "rgba(255, 255, 255, 0.9)"], [1.75, COLOURS.handle]])) {
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = w;
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.setLineDash([]);
    const k = Math.max(6, sq * 0.22);
    ctx.beginPath();
    ctx.moveTo(x1 - Math.cos(a - 0.45) * k, y1 - Math.sin(a - 0.45) * k);
    ctx.lineTo(x1, y1);
    ctx.lineTo(x1 - Math.cos(a + 0.45) * k, y1 - Math.sin(a + 0.45) * k);
    ctx.stroke();
  }
  ctx.restore();
  if (sq >= 18) pill(towardText(turning, scene.toward), x1 + Math.cos(a) * 14, y1 + Math.sin(a) * 14, "#f3e5f5", COLOURS.handle, 10);
}

/** A direction as the toolbar and the arrow write it: "E (0°)", "15°". @param {Turning} turning @param {number} d */
export function towardText(turning, d) {
  const v = snapToward(turning, d), name = compassAt(v);
  return name ? `${name} (${v}°)` : `${v}°`;
}

/** A red ✕ centred on (x, y). @param {number} x @param {number} y @param {number} r */
export function cross(x, y, r) {
  ctx.lineCap = "round";
  for (const [w, colour] of /** @type {[number, string][]} */ ([[6, "#fff"], [3, COLOURS.bad]])) {
    ctx.lineWidth = w;
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r);
    ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r);
    ctx.stroke();
  }
  ctx.lineCap = "butt";
}

/** The attack's cover lines (the area's, of the hovered or selected creature, are the overlay's): clear solid blue, blocked dashed magenta, each over a dark outline (an area's are green and red). */
export function drawCoverLines() {
  ui.drawnLines = [];
  if (ui.attackResult && ui.attackResult.lines.length > 0) paintLines(ui.attackResult.lines, "attack");
}

/**
 * Where cover segments are drawn, seen from above, in board pixels: a corner's upper and lower
 * lines coincide, so each group is drawn side by side, the higher line on the left of the way it
 * runs (as the overlay draws an area target's: wasm/overlay plan.go, lines).
 * @param {Line[]} lines @returns {{from: [number, number], to: [number, number], blocked: boolean}[]}
 */
export function lineGeometry(lines) {
  const sq = ui.sq, k = Math.max(0.6, Math.min(1, sq / 36));
  /** @type {Map<string, import("../index.js").Line[]>} */
  const groups = new Map();
  for (const l of lines) {
    const g = `${l.to[0].toFixed(2)},${l.to[1].toFixed(2)}`;
    groups.set(g, [...(groups.get(g) ?? []), l]);
  }
  /** @type {{from: [number, number], to: [number, number], blocked: boolean}[]} */
  const drawn = [];
  for (const group of groups.values()) {
    group.sort((a, b) => b.to[2] - a.to[2]);
    group.forEach((l, i) => {
      const fx = l.from[0] * sq, fy = l.from[1] * sq, tx = l.to[0] * sq, ty = l.to[1] * sq;
      const len = Math.hypot(tx - fx, ty - fy) || 1;
      const off = (i - (group.length - 1) / 2) * 5 * k;
      const nx = (ty - fy) / len * off, ny = -(tx - fx) / len * off;
      drawn.push({ from: [fx + nx, fy + ny], to: [tx + nx, ty + ny], blocked: l.blocked });
    });
  }
  return drawn;
}

/**
 * Paints an attack's cover segments (id "attack"), seen from above, in the attack's colours.
 * @param {Line[]} lines @param {string} id
 */
function paintLines(lines, id) {
  const sq = ui.sq, k = Math.max(0.6, Math.min(1, sq / 36));
  const drawn = lineGeometry(lines);
  for (const blocked of [false, true]) {
    for (const { from, to } of drawn.filter((l) => l.blocked === blocked)) {
      ui.drawnLines.push({ id, from, to, blocked });
      ctx.setLineDash(blocked ? [9 * k, 6 * k] : []);
      ctx.lineCap = blocked ? "butt" : "round";
      ctx.lineWidth = 5.5 * k;
      ctx.strokeStyle = "rgba(17, 17, 17, 0.85)";
      ctx.beginPath(); ctx.moveTo(...from); ctx.lineTo(...to); ctx.stroke();
      ctx.lineWidth = 2.5 * k;
      ctx.strokeStyle = blocked ? COLOURS.attackBlocked : COLOURS.attackClear;
      ctx.beginPath(); ctx.moveTo(...from); ctx.lineTo(...to); ctx.stroke();
    }
  }
  ctx.setLineDash([]);
  ctx.lineCap = "butt";
  ctx.fillStyle = "#111";
  for (const src of new Set(lines.map((l) => `${l.from[0]},${l.from[1]}`))) {
    const [sx, sy] = src.split(",").map(Number);
    ctx.beginPath();
    ctx.arc(sx * sq, sy * sq, 4.5, 0, 2 * Math.PI);
    ctx.fill();
  }
  for (const l of drawn) {
    ctx.fillStyle = l.blocked ? COLOURS.attackBlocked : COLOURS.attackClear;
    ctx.beginPath();
    ctx.arc(l.to[0], l.to[1], 3 * k, 0, 2 * Math.PI);
    ctx.fill();
    ctx.lineWidth = 1;
    ctx.strokeStyle = "#111";
    ctx.stroke();
  }
}

/** The slide's path as laid: each square outlined and numbered, in the handles' colour. */
function drawSlidePath() {
  const laid = slidePath();
  if (laid.length === 0) return;
  const sq = ui.sq;
  ctx.save();
  ctx.setLineDash([]);
  ctx.lineWidth = 2;
  ctx.strokeStyle = COLOURS.handle;
  ctx.fillStyle = COLOURS.handle;
  ctx.font = `600 ${Math.max(9, Math.round(sq * 0.32))}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  laid.forEach(([x, y], i) => {
    ctx.strokeRect(x * sq + 5, y * sq + 5, sq - 10, sq - 10);
    ctx.fillText(String(i + 1), x * sq + sq / 2, y * sq + sq / 2);
  });
  ctx.restore();
}

/** A Draw Steel cube's chosen origin square (SPEC §3.4): a ringed dot, on its level. */
function drawOriginSquare() {
  const o = scene.originSquare;
  if (!o || !isCube(ui.template) || o.z !== ui.level) return;
  const sq = ui.sq, cx = o.x * sq + sq / 2, cy = o.y * sq + sq / 2, r = Math.max(4, sq * 0.2);
  ctx.save();
  ctx.setLineDash([]);
  ctx.beginPath(); ctx.arc(cx, cy, r + 2, 0, 2 * Math.PI);
  ctx.fillStyle = "#fff"; ctx.fill();
  ctx.lineWidth = 2.5; ctx.strokeStyle = COLOURS.handle; ctx.stroke();
  ctx.beginPath(); ctx.arc(cx, cy, r * 0.45, 0, 2 * Math.PI);
  ctx.fillStyle = COLOURS.handle; ctx.fill();
  ctx.restore();
}

/** The forced movement's path, its end and its collision. */
export function drawForce() {
  drawSlidePath();
  drawOriginSquare();
  const m = ui.move, e = forceTarget();
  if (!m || !e) return;
  const sq = ui.sq, half = (e.size * sq) / 2;
  /** @type {[number, number][]} */
  const pts = [[e.x * sq + half, e.y * sq + half], ...m.path.map(([x, y]) => /** @type {[number, number]} */ ([x * sq + half, y * sq + half]))];
  ctx.setLineDash([4, 4]);
  ctx.lineWidth = 3;
  ctx.strokeStyle = "#0b62d6";
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
  ctx.setLineDash([]);
  if (m.path.length > 0) {
    ctx.strokeStyle = "#0b62d6";
    ctx.lineWidth = 2;
    ctx.strokeRect(m.end.x * sq + 3, m.end.y * sq + 3, e.size * sq - 6, e.size * sq - 6);
  }
  if (m.collision && m.collision.kind === "wall") {
    // A thin wall stops the step between two squares: the cross sits where the step meets it.
    const [lx, ly] = pts[pts.length - 1], ax = m.collision.at[0] * sq + half, ay = m.collision.at[1] * sq + half;
    cross((lx + ax) / 2, (ly + ay) / 2, sq * 0.22);
  } else if (m.collision) cross(m.collision.at[0] * sq + sq / 2, m.collision.at[1] * sq + sq / 2, sq * 0.22);
}

/** Line widths of thin walls, in CSS pixels: thicker on large squares, never thinner than legible. */
const wallScale = () => Math.max(0.7, Math.min(1.25, ui.sq / 32));

/**
 * Thin walls (SPEC §5.6), over the squares and the area, under cover lines and creatures: a dark
 * core over a white casing, so that a wall shows on the board, on the area and on a dark solid
 * square alike. Closed walls are thick and solid; fences (a `top`) thinner, with posts; closed
 * doors (`open: false`) solid brown between two jambs, with a hinge; open doors dashed, with
 * hinges at both ends and, when short, the leaf swung open.
 */
export function drawThinWalls() {
  const sq = ui.sq, k = wallScale();
  ctx.save();
  ctx.setLineDash([]);
  scene.walls.forEach((w, i) => {
    const ax = w.a[0] * sq, ay = w.a[1] * sq, bx = w.b[0] * sq, by = w.b[1] * sq;
    const len = Math.hypot(bx - ax, by - ay) || 1, ux = (bx - ax) / len, uy = (by - ay) / len;
    const fence = w.top !== undefined;
    const core = (fence ? 2.5 : 5) * k, casing = core + 4;
    const seg = () => { ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(bx, by); };
    ctx.lineCap = "round";
    if (i === ui.wall || i === ui.hoverWall) {
      ctx.lineWidth = casing + (i === ui.wall ? 8 : 5);
      ctx.strokeStyle = i === ui.wall ? "rgba(11, 98, 214, 0.75)" : "rgba(106, 27, 154, 0.35)";
      seg(); ctx.stroke();
    }
    ctx.lineWidth = casing;
    ctx.strokeStyle = "#fff";
    seg(); ctx.stroke();
    ctx.strokeStyle = fence ? COLOURS.fence : COLOURS.thin;
    ctx.lineWidth = core;
    if (w.open) {
      ctx.lineCap = "butt";
      ctx.setLineDash([core * 1.6, core * 1.1]);
      seg(); ctx.stroke();
      ctx.setLineDash([]);
      if (len <= 2.01 * sq) {
        // The leaf, swung a quarter turn on its hinge at a, and the arc it sweeps.
        const lx = ax - uy * len, ly = ay + ux * len;
        ctx.lineWidth = Math.max(1.5, core * 0.45);
        ctx.beginPath(); ctx.moveTo(ax, ay); ctx.lineTo(lx, ly); ctx.stroke();
        ctx.setLineDash([3, 3]);
        ctx.lineWidth = 1;
        const start = Math.atan2(uy, ux);
        ctx.beginPath(); ctx.arc(ax, ay, len, start, start + Math.PI / 2); ctx.stroke();
        ctx.setLineDash([]);
      }
      for (const [hx, hy] of [[ax, ay], [bx, by]]) {
        ctx.beginPath(); ctx.arc(hx, hy, casing / 2 + 0.5, 0, 2 * Math.PI);
        ctx.fillStyle = "#fff"; ctx.fill();
        ctx.lineWidth = 1.5; ctx.stroke();
      }
    } else if (w.open === false) {
      // A closed door: a solid core in the door's colour between two dark jambs, and its hinge.
      ctx.strokeStyle = COLOURS.door;
      seg(); ctx.stroke();
      ctx.lineCap = "butt";
      ctx.lineWidth = 2;
      ctx.strokeStyle = COLOURS.thin;
      ctx.beginPath();
      for (const [hx, hy] of [[ax, ay], [bx, by]]) {
        const r = casing / 2 + 2;
        ctx.moveTo(hx - uy * r, hy + ux * r); ctx.lineTo(hx + uy * r, hy - ux * r);
      }
      ctx.stroke();
      ctx.beginPath(); ctx.arc(ax + ux * core, ay + uy * core, Math.max(2, core * 0.45), 0, 2 * Math.PI);
      ctx.fillStyle = "#fff"; ctx.fill();
      ctx.lineWidth = 1.5; ctx.stroke();
    } else {
      seg(); ctx.stroke();
      if (fence) {
        // Posts every half square.
        const n = Math.max(1, Math.round((len / sq) * 2));
        ctx.lineCap = "butt";
        ctx.lineWidth = 2;
        ctx.beginPath();
        for (let j = 0; j <= n; j++) {
          const px = ax + (bx - ax) * (j / n), py = ay + (by - ay) * (j / n), r = core + 2;
          ctx.moveTo(px - uy * r, py + ux * r); ctx.lineTo(px + uy * r, py - ux * r);
        }
        ctx.stroke();
      }
    }
    if (i === ui.wall) {
      ctx.fillStyle = "#0b62d6";
      for (const [hx, hy] of [[ax, ay], [bx, by]]) { ctx.beginPath(); ctx.arc(hx, hy, 3.5, 0, 2 * Math.PI); ctx.fill(); }
    }
  });
  ctx.restore();
}

/** The thin wall being drawn (dashed, from grid point to grid point), or the grid point under the pointer. */
export function drawWallStroke() {
  if (ui.tool !== "thin") return;
  const sq = ui.sq, st = ui.wallStroke;
  const dot = (/** @type {number} */ x, /** @type {number} */ y) => {
    ctx.beginPath(); ctx.arc(x * sq, y * sq, 5, 0, 2 * Math.PI);
    ctx.fillStyle = "#fff"; ctx.fill();
    ctx.lineWidth = 2.5; ctx.strokeStyle = COLOURS.handle; ctx.stroke();
  };
  if (st) {
    ctx.save();
    ctx.lineCap = "round";
    ctx.setLineDash([6, 5]);
    ctx.lineWidth = 4;
    ctx.strokeStyle = COLOURS.handle;
    ctx.beginPath(); ctx.moveTo(st.a[0] * sq, st.a[1] * sq); ctx.lineTo(st.b[0] * sq, st.b[1] * sq); ctx.stroke();
    ctx.restore();
    dot(st.a[0], st.a[1]);
    if (st.b[0] !== st.a[0] || st.b[1] !== st.a[1]) dot(st.b[0], st.b[1]);
  } else if (ui.hoverPoint) dot(ui.hoverPoint.x, ui.hoverPoint.y);
}

/**
 * Creatures drawn plain, each a disc in its side's colour (on small squares with the first
 * letter of its name): the still layer's, and those off the level shown that the answer is not
 * about (faint). The overlay draws the others over them as the answer has them: affected or
 * spared rings, the caster's marks, the selection; the names and badges are the label layers'.
 * @param {Entity[]} list
 */
export function drawEntities(list) {
  const sq = ui.sq, compact = sq < 24;
  const all = list.slice().sort((a, b) => a.z - b.z);
  for (const e of all) {
    ctx.globalAlpha = onLevel(e) ? 1 : OTHER_LEVEL_ALPHA;
    const cx = e.x * sq + (e.size * sq) / 2, cy = e.y * sq + (e.size * sq) / 2;
    const rad = (e.size * sq) / 2 - Math.max(1.5, sq * 0.1);
    ctx.fillStyle = sideColour(e.side);
    ctx.beginPath();
    ctx.arc(cx, cy, rad, 0, 2 * Math.PI);
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#111";
    ctx.stroke();
    if (compact) {
      // Small squares: the name's first letter in the disc (the full name shows on focus).
      ctx.font = `700 ${Math.max(8, Math.round(rad * 1.2))}px system-ui, sans-serif`;
      ctx.fillStyle = "#fff";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(e.id.slice(0, 1).toUpperCase(), cx, cy + 0.5);
    }
  }
  ctx.globalAlpha = 1;
}

export function drawHandles() {
  const sq = ui.sq;
  const broken = ui.error && RULE_BROKEN.has(ui.error.code) && ui.error.code !== "invalid_wall";
  const point = pointHandle();
  for (const h of handles()) {
    const { x: cx, y: cy } = handleAt(h);
    const r = sq * (point ? 0.28 : 0.34);
    const selected = ui.selected && ui.selected.kind === h;
    const colour = broken && h === "origin" ? COLOURS.bad : COLOURS.handle;
    ctx.lineWidth = 7;
    ctx.strokeStyle = "#fff";
    ctx.beginPath();
    if (h === "origin") ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    else { ctx.moveTo(cx, cy - r); ctx.lineTo(cx + r, cy); ctx.lineTo(cx, cy + r); ctx.lineTo(cx - r, cy); ctx.closePath(); }
    ctx.stroke();
    ctx.lineWidth = selected ? 4.5 : 3.5;
    ctx.strokeStyle = colour;
    ctx.stroke();
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(cx - r * 0.45, cy); ctx.lineTo(cx + r * 0.45, cy);
    ctx.moveTo(cx, cy - r * 0.45); ctx.lineTo(cx, cy + r * 0.45);
    ctx.stroke();
    if (broken && h === "origin") {
      cross(cx, cy, r * 0.55);
      const code = ui.error ? ui.error.code : "";
      pill(code === "out_of_range" ? "out of range" : code === "no_line_of_effect" ? "no line of effect" : "not straight", cx, cy + sq * 0.62, "#fff", COLOURS.bad, 11);
    }
    // A point of origin says where it is while it is selected or dragged: 10, 8 or 10½, 8½.
    if (point && h === "origin" && (selected || (ui.drag && ui.drag.sel.kind === "origin")) && !broken) {
      const p = scene.point;
      pill(`${coord(p.x)}, ${coord(p.y)}` + (p.z ? `, z ${coord(p.z)}` : ""), cx, cy - sq * 0.55, "#fff", COLOURS.handle, 11);
    }
  }
  if (handles().includes("aim")) {
    const o = scene.origin, a = scene.aim;
    ctx.setLineDash([3, 4]);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = COLOURS.handle;
    ctx.beginPath();
    ctx.moveTo(o.x * sq + sq / 2, o.y * sq + sq / 2);
    ctx.lineTo(a.x * sq + sq / 2, a.y * sq + sq / 2);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}
