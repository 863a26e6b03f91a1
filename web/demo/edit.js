// @ts-check
// Editing on the board: selection, what the pointer grabs, moving a creature or a handle, the
// tools (setTool); thin walls and doors (SPEC §5.6); painting walls, a Draw Steel wall's squares,
// spared squares and a slide's path, square by square.
import { canvas, dom } from "./dom.js";
import { draw, handleAt, handles, pointHandle } from "./draw.js";
import { blockedAt, commit, entities, entityAt, findEntity, heightOf, scene, ui } from "./state.js";
import { forceTarget, slidePath } from "./engine.js";
import { refresh } from "./refresh.js";
import { cellAt, view } from "./view.js";
import { flash, showError } from "./panel.js";
import { updateCursor } from "./pointer.js";

/** @typedef {import("./types.js").Pos} Pos */
/** @typedef {import("./types.js").Sel} Sel */
/** @typedef {import("./types.js").Tool} Tool */
/** @typedef {import("./types.js").Wall} Wall */

// ---------------------------------------------------------------------------------------------
// Editing

/** @param {Sel | null} sel */
export function select(sel) {
  ui.selected = sel;
  showError(dom.editorError, "");
  refresh(); // the forced-movement preview follows the selection
}

/** Everything [ and ] cycle through: creatures, then handles. */
export function selectables() {
  /** @type {Sel[]} */
  const list = entities(scene).map((e) => ({ kind: "entity", id: e.id }));
  for (const h of handles()) list.push({ kind: h });
  return list;
}

/** @param {Sel} a @param {Sel | null} b */
export const sameSel = (a, b) => !!b && a.kind === b.kind && (a.kind !== "entity" || (b.kind === "entity" && a.id === b.id));

/**
 * What the pointer would grab at (px, py): a handle near its centre first, then the topmost
 * creature, then a handle anywhere in its square.
 * @param {number} px @param {number} py @returns {Sel | null}
 */
export function grabAt(px, py) {
  const sq = ui.sq, c = cellAt(px, py);
  const hs = handles();
  for (const h of hs) {
    const p = handleAt(h);
    if (Math.hypot(px - p.x, py - p.y) <= sq * 0.3) return { kind: h };
  }
  const under = entities(scene).filter((e) => c.x >= e.x && c.x < e.x + e.size && c.y >= e.y && c.y < e.y + e.size);
  if (under.length > 0) {
    under.sort((a, b) => b.z - a.z || (b === scene.caster ? 1 : 0) - (a === scene.caster ? 1 : 0));
    return { kind: "entity", id: under[0].id };
  }
  for (const h of hs) {
    if (h === "origin" && pointHandle()) {
      const p = handleAt(h);
      if (Math.hypot(px - p.x, py - p.y) <= sq * 0.5) return { kind: h };
      continue;
    }
    const p = h === "origin" ? scene.origin : scene.aim;
    if (p.x === c.x && p.y === c.y) return { kind: h };
  }
  return null;
}

/** The anchor of a selection. @param {Sel} sel */
export function anchorOf(sel) {
  if (sel.kind === "origin") return scene.origin;
  if (sel.kind === "aim") return scene.aim;
  return findEntity(sel.id);
}

/**
 * Moves a selection's anchor to (x, y) if it may go there; returns "" or why not.
 * @param {Sel} sel @param {number} x @param {number} y
 */
export function moveTo(sel, x, y) {
  if (sel.kind === "entity") {
    const e = findEntity(sel.id);
    if (!e) return "gone";
    x = Math.min(Math.max(x, 0), scene.cols - e.size);
    y = Math.min(Math.max(y, 0), scene.rows - e.size);
    if (x === e.x && y === e.y) return "";
    const why = blockedAt(e, { x, y, z: e.z, size: e.size, height: heightOf(e) });
    if (why) return why;
    e.x = x;
    e.y = y;
    return "";
  }
  x = Math.min(Math.max(x, 0), scene.cols - 1);
  y = Math.min(Math.max(y, 0), scene.rows - 1);
  const p = sel.kind === "origin" ? scene.origin : scene.aim;
  const other = sel.kind === "origin" ? scene.aim : scene.origin;
  if (handles().includes("aim") && other.x === x && other.y === y) return "the origin and the aim must differ";
  if (sel.kind === "origin" && scene.originSquare) { // the chosen origin square moves with its cube
    scene.originSquare = { x: scene.originSquare.x + x - p.x, y: scene.originSquare.y + y - p.y, z: scene.originSquare.z };
  }
  p.x = x;
  p.y = y;
  return "";
}

/** @param {Tool} tool */
export function setTool(tool) {
  ui.tool = tool;
  for (const b of dom.tools) b.setAttribute("aria-pressed", b.dataset.tool === tool ? "true" : "false");
  dom.slideLay.setAttribute("aria-pressed", tool === "slide" ? "true" : "false");
  if (tool !== "thin") { ui.wall = null; ui.wallStroke = null; ui.hoverWall = null; ui.hoverPoint = null; }
  renderWallTools();
  updateCursor();
  draw();
}

// ---------------------------------------------------------------------------------------------
// Thin walls (SPEC §5.6): drawn from grid point to grid point, selected, opened, deleted.

/** The grid point nearest (px, py), on the board (grid lines 0 … cols, 0 … rows). @param {number} px @param {number} py */
export function gridAt(px, py) {
  return { x: Math.min(Math.max(Math.round(px / ui.sq), 0), scene.cols), y: Math.min(Math.max(Math.round(py / ui.sq), 0), scene.rows) };
}

/** The thin wall nearest (px, py) within a few pixels of it, the last drawn on a tie, or null. @param {number} px @param {number} py */
export function wallAt(px, py) {
  const sq = ui.sq, tol = Math.max(6, sq * 0.22);
  /** @type {number | null} */
  let best = null, bestD = tol;
  scene.walls.forEach((w, i) => {
    const ax = w.a[0] * sq, ay = w.a[1] * sq, bx = w.b[0] * sq, by = w.b[1] * sq;
    const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy || 1;
    const t = Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / l2));
    const d = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
    if (d <= bestD) { best = i; bestD = d; }
  });
  return best;
}

/** A wall's ends and kind, in words: a wall, a fence, an open or a closed door. @param {Wall} w */
function wallWords(w) {
  const kind = w.open === undefined ? (w.top !== undefined ? "fence" : "wall") : `${w.open ? "open" : "closed"} door${w.top !== undefined ? " (fence)" : ""}`;
  return `${w.a.join(", ")} → ${w.b.join(", ")} · ${kind}`;
}

/** Selects a thin wall (or none); the fence toggle follows it. @param {number | null} i */
export function selectWall(i) {
  ui.wall = i;
  if (i !== null) ui.fence = scene.walls[i].top !== undefined;
  renderWallTools();
  draw();
}

/** Adds the thin wall a → b (the same wall again only selects it), as one undo step. @param {[number, number]} a @param {[number, number]} b */
export function addWall(a, b) {
  const same = scene.walls.findIndex((w) => (w.a[0] === a[0] && w.a[1] === a[1] && w.b[0] === b[0] && w.b[1] === b[1]) ||
    (w.a[0] === b[0] && w.a[1] === b[1] && w.b[0] === a[0] && w.b[1] === a[1]));
  if (same >= 0) { selectWall(same); flash(`That wall is already there: ${wallWords(scene.walls[same])}.`); return; }
  commit();
  /** @type {Wall} */
  const w = { a, b };
  if (ui.fence) w.top = 0.5;
  scene.walls.push(w);
  ui.wall = scene.walls.length - 1;
  commit();
  refresh();
}

/**
 * Opens or closes a thin wall, which is then a door (`open` set: true, or false for a closed
 * door, which blocks as a wall does and is drawn as a door): an open door blocks nothing (SPEC §5.6).
 * @param {number} i
 */
export function toggleDoor(i) {
  const w = scene.walls[i];
  if (!w) return;
  commit();
  w.open = !w.open;
  commit();
  refresh();
}

/** The fence toggle: the next walls drawn, and the selected one, are waist-high (top 0.5) or full. */
export function toggleFence() {
  ui.fence = !ui.fence;
  const w = ui.wall !== null ? scene.walls[ui.wall] : null;
  if (w) {
    commit();
    if (ui.fence) w.top = 0.5;
    else delete w.top;
    commit();
    refresh();
  } else renderWallTools();
}

export function removeWall() {
  const i = ui.wall;
  if (i === null || !scene.walls[i]) return;
  commit();
  scene.walls.splice(i, 1);
  ui.wall = null;
  ui.hoverWall = null;
  commit();
  refresh();
}

/**
 * The thin wall buttons, about the selected wall (there is one only with the Thin wall tool).
 * They are always there, so that the toolbar never reflows and the board never moves under the
 * pointer; the text beside them has a fixed width for the same reason.
 */
export function renderWallTools() {
  const w = ui.wall !== null ? scene.walls[ui.wall] ?? null : null;
  dom.wallDoor.disabled = !w;
  dom.wallDelete.disabled = !w;
  dom.wallDoor.setAttribute("aria-pressed", w && w.open ? "true" : "false");
  dom.wallOptions.classList.toggle("off", ui.tool !== "thin");
  dom.wallFence.setAttribute("aria-pressed", ui.fence ? "true" : "false");
  const text = w ? `selected: ${wallWords(w)}` : ui.tool !== "thin" ? "T: thin walls and doors" : "drag between grid points; click a wall";
  if (dom.wallInfo.value !== text) { dom.wallInfo.value = text; dom.wallInfo.title = text; }
}

/**
 * The squares from a to b, each sharing a side or a corner with the one before (a fast drag
 * skips none).
 * @param {{x: number, y: number}} a @param {{x: number, y: number}} b
 */
export function squaresBetween(a, b) {
  const out = [];
  const n = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y));
  for (let i = 1; i <= n; i++) out.push({ x: Math.round(a.x + ((b.x - a.x) * i) / n), y: Math.round(a.y + ((b.y - a.y) * i) / n) });
  return out;
}

/** Paints one square, on the level shown, with the current painting tool. @param {{x: number, y: number}} c */
export function paintSquare(c) {
  const p = ui.paint, z = ui.level;
  if (!p || c.x < 0 || c.y < 0 || c.x >= scene.cols || c.y >= scene.rows) return;
  const i = scene.obstacles.findIndex((o) => o.x === c.x && o.y === c.y && o.z === z);
  if (p.erase) {
    if (i >= 0) { scene.obstacles.splice(i, 1); p.changed = true; }
    return;
  }
  const standing = entityAt(c.x, c.y, z);
  if (standing) { p.skipped = `${standing.id} stands on ${c.x}, ${c.y}${z ? ` at level ${z}` : ""}: no wall painted there`; return; }
  if (i >= 0) {
    if (scene.obstacles[i].fill !== p.fill) { scene.obstacles[i] = { x: c.x, y: c.y, z, fill: p.fill }; p.changed = true; }
  } else {
    scene.obstacles.push({ x: c.x, y: c.y, z, fill: p.fill });
    p.changed = true;
  }
}

/** Adds a square to (or removes it from) a Draw Steel wall's path. @param {{x: number, y: number}} c */
export function pathSquare(c) {
  const s = ui.pathStroke, t = ui.template;
  if (!s || !t || c.x < 0 || c.y < 0 || c.x >= scene.cols || c.y >= scene.rows) return;
  const i = scene.path.findIndex(([x, y]) => x === c.x && y === c.y);
  if (!s.add) {
    if (i >= 0) { scene.path.splice(i, 1); s.changed = true; }
    return;
  }
  if (i >= 0) return;
  const max = t.squares ?? 0;
  if (scene.path.length >= max) { flash(`This wall has ${max} squares: remove one (click it) to lay another.`); return; }
  scene.path.push([c.x, c.y, 0]);
  s.changed = true;
}

/**
 * The squares of the area on level z: those the answer shown covers and those taken out of it
 * (which the answer no longer lists), as "x,y" keys. Empty when there is no answer.
 * @param {number} z
 */
export function areaSquares(z) {
  /** @type {Set<string>} */
  const out = new Set();
  const res = ui.result;
  if (res) for (const c of res.cells) if (c[2] === z) out.add(`${c[0]},${c[1]}`);
  for (const c of scene.excludeCells) if (c[2] === z) out.add(`${c[0]},${c[1]}`);
  return out;
}

/** Takes a square of the area out of it (or puts it back), with the Spare squares tool. @param {{x: number, y: number}} c */
export function spareSquare(c) {
  const s = ui.spareStroke;
  if (!s) return;
  const i = scene.excludeCells.findIndex(([x, y, z]) => x === c.x && y === c.y && z === s.z);
  if (!s.add) {
    if (i >= 0) { scene.excludeCells.splice(i, 1); s.changed = true; }
    return;
  }
  if (i >= 0) return;
  if (!s.area.has(`${c.x},${c.y}`)) { flash(`${c.x}, ${c.y} is not a square of the area: only its squares can be taken out.`); return; }
  scene.excludeCells.push([c.x, c.y, s.z]);
  s.changed = true;
}

/**
 * Adds a square to the slide's path, as it is (the engine says whether it is next to the one
 * before, free…); never past the distance. @param {{x: number, y: number}} c
 */
export function slideSquare(c) {
  const s = ui.slideStroke, t = forceTarget();
  if (!s || !t) return;
  if (scene.force.of !== t.id) { scene.force.of = t.id; scene.force.path = []; }
  const f = scene.force;
  if (f.path.length >= f.distance) {
    if (!s.full) flash(`The slide is ${f.distance} square${f.distance === 1 ? "" : "s"}: remove the last square (Backspace) to lay another.`);
    s.full = true;
    return;
  }
  f.path.push([c.x, c.y, t.z]);
  s.changed = true;
}

/** Takes the last square off the slide's path (Backspace, Remove the last square). */
export function popSlideSquare() {
  if (slidePath().length === 0) return;
  commit();
  scene.force.path.pop();
  commit();
  refresh();
}

/** Clears the slide's path (Escape, Clear). */
export function clearSlidePath() {
  if (slidePath().length === 0) return;
  commit();
  scene.force.path = [];
  commit();
  refresh();
}

/** A Draw Steel cube's origin square (SPEC §3.4), chosen with Shift + click; null: the engine's default. @param {Pos | null} p */
export function setOriginSquare(p) {
  commit();
  scene.originSquare = p;
  commit();
  refresh();
}

/** Starts a pan of the view by the pointer pressed. @param {PointerEvent} e */
export function startPan(e) {
  e.preventDefault();
  canvas.focus({ preventScroll: true });
  ui.pan = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
  canvas.setPointerCapture(e.pointerId);
  updateCursor();
}
