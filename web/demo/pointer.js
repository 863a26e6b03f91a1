// @ts-check
// The pointer on the board: press, drag and release for every tool (pointerdown, pointermove,
// endGesture), the cursor, double-click on a door, turning (Q, E, the wheel) and Ctrl + wheel zoom.
import { DIRS, QUARTERS } from "./constants.js";
import { canvas, dom } from "./dom.js";
import { draw, pointHandle, snapPoint } from "./draw.js";
import { entity } from "./scenes.js";
import { blockedAt, commit, dropPresses, findEntity, scene, ui } from "./state.js";
import { degrees, snapToward, turningOf } from "./requests.js";
import { forceTarget, isCube, slidePath } from "./engine.js";
import { refresh } from "./refresh.js";
import { cellAt, clampPan, pointOf, view, zoomIn, zoomOut } from "./view.js";
import { flash, renderEditor } from "./panel.js";
import { addWall, anchorOf, areaSquares, grabAt, gridAt, moveTo, paintSquare, pathSquare, select, selectWall, setOriginSquare, slideSquare, spareSquare, squaresBetween, startPan, toggleDoor, wallAt } from "./edit.js";
import { addCreature } from "./creatures.js";
import { dragDraw, endDraw, placedAt, selectTemplate, startDraw } from "./templates.js";

export function updateCursor() {
  canvas.classList.remove("c-grab", "c-grabbing", "c-paint", "c-blocked", "c-pan", "c-panning");
  if (ui.pan) canvas.classList.add("c-panning");
  else if (ui.tool === "pan" || ui.space) canvas.classList.add("c-pan");
  else if (ui.drag) canvas.classList.add(ui.drag.blocked ? "c-blocked" : "c-grabbing");
  else if (ui.tool !== "move") canvas.classList.add("c-paint");
  else if (ui.hoverCell && lastPoint && grabAt(lastPoint.px, lastPoint.py)) canvas.classList.add("c-grab");
}
/** @type {{px: number, py: number} | null} */
export let lastPoint = null;

canvas.addEventListener("pointerdown", (e) => {
  if (!ui.engine) return;
  if (e.button === 1 || (e.button === 0 && (ui.tool === "pan" || ui.space))) {
    // A pan: the middle button, the Pan tool, or the space bar held.
    startPan(e);
    return;
  }
  if (e.button !== 0) return;
  canvas.focus({ preventScroll: true });
  const pt = pointOf(e);
  lastPoint = pt;
  const c = cellAt(pt.px, pt.py);
  if (c.x < 0 || c.y < 0 || c.x >= scene.cols || c.y >= scene.rows) return;
  commit(); // pending field edits become their own step
  ui.boardNote = "";
  if (e.shiftKey && isCube(ui.template) && (ui.tool === "move" || ui.tool === "slide")) {
    // Shift + click: the cube's origin square (the engine checks it is one of the cube's).
    setOriginSquare({ x: c.x, y: c.y, z: ui.level });
    return;
  }
  if (ui.tool === "slide") {
    const t = forceTarget(), laid = slidePath();
    if (laid.length === 0) {
      // No path yet: a press on another creature chooses it instead.
      const sel = grabAt(pt.px, pt.py);
      if (sel && sel.kind === "entity" && sel.id !== scene.caster.id && (!t || sel.id !== t.id)) { select(sel); return; }
      if (!t) { flash("Select the creature to slide first: click it."); return; }
    }
    if (!t) return;
    canvas.setPointerCapture(e.pointerId);
    const last = laid.length > 0 ? { x: laid[laid.length - 1][0], y: laid[laid.length - 1][1] } : { x: t.x, y: t.y };
    const onStart = laid.length > 0 ? c.x === last.x && c.y === last.y : c.x >= t.x && c.x < t.x + t.size && c.y >= t.y && c.y < t.y + t.size;
    ui.slideStroke = { last: onStart ? last : c, changed: false, full: false };
    if (!onStart) slideSquare(c);
    refresh();
    return;
  }
  if (ui.tool === "add") {
    // The Add creature tool: a creature on the square clicked, if it is free.
    const why = blockedAt(entity({ id: "", x: c.x, y: c.y }), { x: c.x, y: c.y, z: ui.level, size: 1, height: 1 });
    if (why) flash(`No creature added on ${c.x}, ${c.y}: ${why === "the edge of the board" ? why : why.startsWith("a wall") ? "a wall stands there" : `${why} stands there`}.`);
    else addCreature(c.x, c.y, ui.level, false);
    return;
  }
  if (ui.tool === "template") {
    // The Template tool: a drag draws a template from here, a click selects one (templates.js).
    canvas.setPointerCapture(e.pointerId);
    startDraw(pt.px, pt.py);
    return;
  }
  if (ui.tool === "move" && ui.attack.pick && dom.attackSection.open) {
    const sel = grabAt(pt.px, pt.py);
    if (sel && sel.kind === "entity") {
      if (ui.attack.pick === 1) { ui.attack.attacker = sel.id; ui.attack.pick = 2; }
      else { ui.attack.target = sel.id; ui.attack.pick = 0; }
      refresh();
      return;
    }
  }
  if (ui.tool === "move") {
    const sel = grabAt(pt.px, pt.py);
    if (!sel) { // a missed grab only clears the selection: it never paints; a finger's pans the board
      const i = placedAt(c.x, c.y);
      if (i >= 0 && e.pointerType !== "touch") { selectTemplate(i); return; } // another template's area: it is selected
      if (ui.selected) select(null);
      if (e.pointerType === "touch") startPan(e);
      return;
    }
    const a = anchorOf(sel);
    if (!a) return;
    ui.selected = sel;
    // A point of origin is held where it was grabbed, in squares (it moves on its lattice); the
    // rest by their squares.
    const grip = sel.kind === "origin" && pointHandle() ? { x: pt.px / ui.sq - scene.point.x, y: pt.py / ui.sq - scene.point.y } : { x: c.x - a.x, y: c.y - a.y };
    ui.drag = { sel, dx: grip.x, dy: grip.y, moved: false, blocked: null };
    canvas.setPointerCapture(e.pointerId);
    updateCursor();
    refresh();
    return;
  }
  canvas.setPointerCapture(e.pointerId);
  if (ui.tool === "thin") {
    // Press at a grid point, release at another: a wall between them. Released where it was
    // pressed, it is a click: it selects the wall under the pointer (or none).
    const g = gridAt(pt.px, pt.py);
    ui.wallStroke = { a: [g.x, g.y], b: [g.x, g.y], hit: wallAt(pt.px, pt.py) };
    draw();
    return;
  }
  if (ui.tool === "spare") {
    const z = ui.level;
    ui.spareStroke = { add: !scene.excludeCells.some(([x, y, cz]) => x === c.x && y === c.y && cz === z), last: c, changed: false, area: areaSquares(z), z };
    spareSquare(c);
  } else if (ui.tool === "path") {
    ui.pathStroke = { add: !scene.path.some(([x, y]) => x === c.x && y === c.y), last: c, changed: false };
    pathSquare(c);
  } else {
    ui.paint = { fill: ui.tool === "low" ? 0.5 : 1, erase: ui.tool === "erase", last: c, changed: false, skipped: "" };
    paintSquare(c);
  }
  refresh();
});

canvas.addEventListener("pointermove", (e) => {
  if (ui.pan) {
    const p = ui.pan, x = view.x, y = view.y;
    view.x = p.vx - (e.clientX - p.x);
    view.y = p.vy - (e.clientY - p.y);
    clampPan();
    if (view.x !== x || view.y !== y) draw();
    return;
  }
  const pt = pointOf(e);
  lastPoint = pt;
  const c = cellAt(pt.px, pt.py);
  const inside = c.x >= 0 && c.y >= 0 && c.x < scene.cols && c.y < scene.rows;
  const cellChanged = !ui.hoverCell || ui.hoverCell.x !== c.x || ui.hoverCell.y !== c.y;
  ui.hoverCell = inside ? c : null;
  if (ui.drawing) {
    dragDraw(pt.px, pt.py, e.altKey);
    return;
  }
  const d = ui.drag;
  if (d && d.sel.kind === "origin" && pointHandle()) {
    // The point of origin: on the half-square lattice (intersections for cubes and pf2e
    // bursts), or finer with Alt held (SPEC §10.1).
    const p = snapPoint(pt.px / ui.sq - d.dx, pt.py / ui.sq - d.dy, e.altKey);
    const q = scene.point;
    if (p.x !== q.x || p.y !== q.y || p.z !== q.z) {
      scene.point = p;
      d.moved = true;
      refresh();
    }
    return;
  }
  if (d) {
    const why = moveTo(d.sel, c.x - d.dx, c.y - d.dy);
    if (why) {
      const e2 = d.sel.kind === "entity" ? findEntity(d.sel.id) : null;
      const size = e2 ? e2.size : 1;
      const bx = Math.min(Math.max(c.x - d.dx, 0), scene.cols - size), by = Math.min(Math.max(c.y - d.dy, 0), scene.rows - size);
      const was = d.blocked;
      d.blocked = { x: bx, y: by, size, why };
      if (!was || was.x !== bx || was.y !== by) { flash(`Cannot drop there: ${why}.`); updateCursor(); draw(); }
      return;
    }
    const a = anchorOf(d.sel);
    const wasBlocked = d.blocked !== null;
    d.blocked = null;
    if (wasBlocked) { ui.boardNote = ""; updateCursor(); }
    if (a && cellChanged) { d.moved = true; refresh(); } else if (wasBlocked) draw();
    return;
  }
  // A stroke (paint, slide path, wall squares, spare squares): every square from the last one to here.
  const stroke = ui.paint || ui.slideStroke || ui.pathStroke || ui.spareStroke;
  if (stroke && inside) {
    const step = ui.paint ? paintSquare : ui.slideStroke ? slideSquare : ui.pathStroke ? pathSquare : spareSquare;
    for (const s of squaresBetween(stroke.last, c)) step(s);
    stroke.last = c;
    if (cellChanged) refresh();
    return;
  }
  if (ui.wallStroke) {
    const g = gridAt(pt.px, pt.py), st = ui.wallStroke;
    if (g.x !== st.b[0] || g.y !== st.b[1]) { st.b = [g.x, g.y]; draw(); }
    return;
  }
  // With the Thin wall tool: the grid point a wall would start from, and the wall a click would select.
  let wallHover = false;
  if (ui.tool === "thin") {
    const g = inside ? gridAt(pt.px, pt.py) : null;
    const w = inside ? wallAt(pt.px, pt.py) : null;
    const hp = ui.hoverPoint;
    wallHover = w !== ui.hoverWall || (g === null) !== (hp === null) || (!!g && !!hp && (g.x !== hp.x || g.y !== hp.y));
    ui.hoverWall = w;
    ui.hoverPoint = g;
  }
  // Hovering: the creature under the pointer shows its cover lines.
  const sel = ui.tool === "move" && inside ? grabAt(pt.px, pt.py) : null;
  const id = sel && sel.kind === "entity" ? sel.id : null;
  updateCursor();
  if (id !== ui.hoverId) { ui.hoverId = id; refresh(); } else if ((cellChanged && ui.tool !== "move") || wallHover) draw();
});

/** The end of a press: a drop, a stroke, a wall drawn; cancelled (Esc, pointercancel), a wall is not drawn. */
export function endGesture(cancel = false) {
  if (ui.pan) {
    ui.pan = null;
    updateCursor();
    return;
  }
  if (ui.drawing) {
    endDraw(cancel);
    updateCursor();
    return;
  }
  const d = ui.drag, p = ui.paint, s = ui.pathStroke || ui.spareStroke || ui.slideStroke, w = ui.wallStroke;
  dropPresses();
  if (w) {
    updateCursor();
    if (cancel) draw();
    else if (w.a[0] === w.b[0] && w.a[1] === w.b[1]) selectWall(w.hit);
    else addWall(w.a, w.b);
    return;
  }
  if (d && d.blocked) ui.boardNote = "";
  if (p && p.skipped) flash(p.skipped);
  updateCursor();
  if (d || p || s) {
    commit();
    refresh();
  }
}
canvas.addEventListener("pointerup", () => endGesture(false));
canvas.addEventListener("pointercancel", () => endGesture(true));
canvas.addEventListener("pointerleave", () => {
  if (ui.drag || ui.paint || ui.pathStroke || ui.slideStroke || ui.spareStroke || ui.wallStroke || ui.drawing || ui.pan) return;
  ui.hoverCell = null;
  ui.hoverPoint = null;
  ui.hoverWall = null;
  lastPoint = null;
  if (ui.hoverId) { ui.hoverId = null; refresh(); } else draw();
});

// A double-click on a thin wall opens or closes it: with the Thin wall tool, or with the Move
// tool where there is nothing to grab (doors open in play, between moves).
canvas.addEventListener("dblclick", (e) => {
  if (!ui.engine || (ui.tool !== "thin" && ui.tool !== "move")) return;
  const pt = pointOf(e);
  if (ui.tool === "move" && grabAt(pt.px, pt.py)) return;
  const i = wallAt(pt.px, pt.py);
  if (i === null) return;
  if (ui.tool === "thin") ui.wall = i;
  toggleDoor(i);
});

/**
 * Turns 45° (cones and lines with the caster's facing) or, for a rectangle, a quarter. A dnd5e
 * or pf2e cone or line turns itself, absolutely (SPEC §10.2): to the next of the 8 compass
 * directions (Q, E, the buttons) or by `step` degrees (the wheel: 15°, 5° with Shift); a pf2e
 * cone by 45° either way (§11.2), a cube through the 4 diagonals (§10.5).
 * @param {number} k 1 clockwise (right), −1 counter-clockwise @param {number | null} [step] degrees; null: to the next compass direction
 */
export function turn(k, step = null) {
  const t = ui.template;
  if (!ui.engine) return;
  const turning = turningOf(t);
  if (turning) {
    commit();
    const d = scene.toward;
    let next;
    if (turning === "diagonal") next = snapToward(turning, d) + 90 * k;
    else if (turning === "compass") next = snapToward(turning, d) + 45 * k;
    else if (step !== null) next = d + step * k;
    else next = k > 0 ? (Math.floor(d / 45 + 1e-9) + 1) * 45 : (Math.ceil(d / 45 - 1e-9) - 1) * 45;
    scene.toward = degrees(next);
    commit();
    refresh();
    return;
  }
  commit();
  if (t && t.shape === "rectangle") {
    scene.orientation = QUARTERS[(QUARTERS.indexOf(scene.orientation) + k + 4) % 4];
  } else {
    scene.caster.facing = DIRS[(DIRS.indexOf(scene.caster.facing) + k + 8) % 8];
  }
  commit();
  refresh();
  renderEditor(true);
}
dom.rotl.addEventListener("click", () => turn(-1));
dom.rotr.addEventListener("click", () => turn(1));
let wheelAcc = 0, zoomAcc = 0;
canvas.addEventListener("wheel", (e) => {
  if (e.ctrlKey || e.metaKey) {
    // Zoom about the pointer (a trackpad's pinch comes as Ctrl + wheel too, in small steps).
    e.preventDefault();
    zoomAcc += e.deltaY;
    if (Math.abs(zoomAcc) >= 40) {
      const r = canvas.getBoundingClientRect();
      if (zoomAcc < 0) zoomIn(e.clientX - r.left, e.clientY - r.top);
      else zoomOut(e.clientX - r.left, e.clientY - r.top);
      zoomAcc = 0;
    }
    return;
  }
  const turning = turningOf(ui.template);
  if (turning) {
    // A dnd5e or pf2e cone, line or cube turns with the wheel alone, as in Foundry VTT: 15° a
    // notch, 5° with Shift (a pf2e cone 45°, a cube 90°: the directions they take).
    e.preventDefault();
    wheelAcc += e.deltaY || e.deltaX;
    if (Math.abs(wheelAcc) >= 40) {
      const k = wheelAcc > 0 ? 1 : -1;
      wheelAcc = 0;
      turn(k, turning === "free" ? (e.shiftKey ? 5 : 15) : null);
    }
    return;
  }
  if (!e.shiftKey) return;
  e.preventDefault();
  wheelAcc += e.deltaY || e.deltaX;
  if (Math.abs(wheelAcc) >= 40) {
    turn(wheelAcc > 0 ? 1 : -1);
    wheelAcc = 0;
  }
}, { passive: false });
