// @ts-check
// The view: the one transform between the canvas and the board (zoom, pan, the phone's layout),
// the canvases' sizes (resize), pixels to cells, and the level shown.
import { badgesCanvas, canvas, dom, namesCanvas, stillCanvas } from "./dom.js";
import { draw } from "./draw.js";
import { entities, heightOf, scene, ui } from "./state.js";
import { attachResult, clearResult, paintResult } from "./engine.js";

/** @typedef {import("./types.js").Entity} Entity */

// ---------------------------------------------------------------------------------------------
// Drawing

/**
 * The view: the one transform between the canvas and the board. The canvas is as large as the
 * whole board at `fit` CSS pixels a square (as large as fit its box, 12 to 40); zoomed in, a
 * square is ui.sq = fit × zoom pixels (a whole number) and the canvas shows the board from
 * board pixel (x, y) on: board pixel = canvas pixel + (x, y). Everything the demo draws and
 * every hit test is in board pixels (square (cx, cy) spans cx·sq … (cx + 1)·sq across): pointOf
 * turns a pointer's position into them, boardTransform puts them on the canvas, and the test
 * hook's cellCentre and pixel go back through the same (x, y).
 */
export const view = { fit: 32, zoom: 1, x: 0, y: 0, cols: 0, rows: 0, w: 0, h: 0 };
/** Zoom goes from the whole board (1) to MAX_ZOOM times it, squares of at most MAX_SQ pixels (but always to 2 ×). */
const MAX_ZOOM = 8, MAX_SQ = 160;

/**
 * The canvas's CSS size: the whole board at the fitted square size; on a phone, where that would
 * make squares too small to touch and to name (TOUCH_SQ), as wide as the page and part of the
 * screen high, the board panned in it (resize).
 */
export const viewW = () => view.w;
export const viewH = () => view.h;
/** The smallest square on a phone: a finger takes it, a creature's name fits under it (no initials). */
const TOUCH_SQ = 24;
/** Whether the page is a phone's: narrow. */
const narrow = () => window.innerWidth <= 600;

/** Keeps the view on the board: the canvas never shows past its edges. */
export function clampPan() {
  view.x = Math.round(Math.min(Math.max(view.x, 0), Math.max(0, scene.cols * ui.sq - viewW())));
  view.y = Math.round(Math.min(Math.max(view.y, 0), Math.max(0, scene.rows * ui.sq - viewH())));
}

/**
 * Zooms to squares of about `sq` CSS pixels (whole pixels, from the fitted size to the largest),
 * keeping the board point under canvas pixel (ax, ay) where it is.
 * @param {number} sq @param {number} [ax] @param {number} [ay]
 */
export function zoomTo(sq, ax = viewW() / 2, ay = viewH() / 2) {
  const most = Math.max(2 * view.fit, Math.min(view.fit * MAX_ZOOM, MAX_SQ));
  const next = Math.round(Math.min(Math.max(sq, view.fit), most));
  if (next === ui.sq) return;
  const bx = (ax + view.x) / ui.sq, by = (ay + view.y) / ui.sq; // the point, in squares
  ui.sq = next;
  view.zoom = next / view.fit;
  view.x = bx * next - ax;
  view.y = by * next - ay;
  clampPan();
  renderView();
  draw();
}
/** @param {number} [ax] @param {number} [ay] */
export const zoomIn = (ax, ay) => zoomTo(Math.max(ui.sq + 1, ui.sq * 1.25), ax, ay);
/** @param {number} [ax] @param {number} [ay] */
export const zoomOut = (ax, ay) => zoomTo(Math.min(ui.sq - 1, ui.sq / 1.25), ax, ay);
/** Back to the whole board. */
export const zoomFit = () => zoomTo(view.fit);

/** Moves the view by (dx, dy) CSS pixels (the board moves the other way). @param {number} dx @param {number} dy */
export function panBy(dx, dy) {
  const x = view.x, y = view.y;
  view.x += dx;
  view.y += dy;
  clampPan();
  if (view.x !== x || view.y !== y) draw();
}

/**
 * Pans the least that shows squares (x, y) … (x + size − 1, y + size − 1) and a square around
 * them (what the arrow keys move stays in view when zoomed in).
 * @param {number} x @param {number} y @param {number} size
 */
export function reveal(x, y, size) {
  const sq = ui.sq;
  const fit = (/** @type {number} */ v, /** @type {number} */ lo, /** @type {number} */ hi, /** @type {number} */ span) =>
    (lo < v ? lo : hi > v + span ? hi - span : v);
  view.x = fit(view.x, (x - 1) * sq, (x + size + 1) * sq, viewW());
  view.y = fit(view.y, (y - 1) * sq, (y + size + 1) * sq, viewH());
  clampPan();
}

/**
 * The canvas follows its box: squares as large as fit (12 to 40 CSS pixels), backing store ×
 * devicePixelRatio. On a phone, squares of TOUCH_SQ at least: the canvas as wide as the page and
 * up to about half the screen high, the board panned in it (a new board shows its caster).
 */
export function resize() {
  const area = /** @type {HTMLElement} */ (dom.wrap.parentElement);
  const avail = Math.max(100, area.clientWidth - 2);
  const tall = Math.max(200, window.innerHeight - 170);
  let fit = Math.max(12, Math.min(40, Math.floor(avail / scene.cols), Math.floor(tall / scene.rows)));
  let w = scene.cols * fit, h = scene.rows * fit;
  if (narrow() && fit < TOUCH_SQ) {
    fit = TOUCH_SQ;
    w = Math.min(scene.cols * fit, avail);
    h = Math.min(scene.rows * fit, Math.max(240, Math.round(window.innerHeight * 0.5)));
  }
  const dpr = window.devicePixelRatio || 1;
  const fresh = view.cols !== scene.cols || view.rows !== scene.rows;
  if (fresh) {
    // Another board: the whole of it (on a phone, around its caster).
    Object.assign(view, { zoom: 1, x: 0, y: 0, cols: scene.cols, rows: scene.rows });
    ui.sq = fit;
  }
  const sq = Math.round(fit * view.zoom);
  if (fit === view.fit && sq === ui.sq && dpr === ui.dpr && w === view.w && h === view.h && canvas.width === Math.round(w * dpr) && canvas.height === Math.round(h * dpr)) return;
  // The square at the middle of the canvas stays there.
  const mx = (view.x + viewW() / 2) / ui.sq, my = (view.y + viewH() / 2) / ui.sq;
  view.fit = fit;
  ui.sq = sq;
  view.zoom = sq / fit;
  ui.dpr = dpr;
  view.w = w;
  view.h = h;
  const c = scene.caster;
  const [cx, cy] = fresh ? [c.x + c.size / 2, c.y + c.size / 2] : [mx, my];
  view.x = cx * sq - w / 2;
  view.y = cy * sq - h / 2;
  clampPan();
  for (const c of [canvas, stillCanvas, badgesCanvas, namesCanvas]) {
    c.style.width = `${w}px`;
    c.style.height = `${h}px`;
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
  }
  const d = ui.drawn;
  attachResult(); // the overlay's canvas, at the new size, and the answer it showed drawn again
  renderView();
  if (d) {
    try {
      ui.summary = paintResult(d.request, d.scene);
    } catch {
      clearResult();
    }
  }
  draw();
}

/** The one converter from pixels to cells. @param {number} px @param {number} py board pixels (pointOf) */
export const cellAt = (px, py) => ({ x: Math.floor(px / ui.sq), y: Math.floor(py / ui.sq) });
/** Where a pointer is, in board pixels. @param {PointerEvent | WheelEvent | MouseEvent} e */
export function pointOf(e) {
  const r = canvas.getBoundingClientRect();
  return { px: e.clientX - r.left + view.x, py: e.clientY - r.top + view.y };
}
/** Draws in board pixels on a canvas of the board's size. @param {CanvasRenderingContext2D} g */
export function boardTransform(g) {
  g.setTransform(ui.dpr, 0, 0, ui.dpr, -view.x * ui.dpr, -view.y * ui.dpr);
}

/** Whether a creature's space takes in the level shown. @param {Entity} e */
export const onLevel = (e) => e.z <= ui.level && ui.level < e.z + heightOf(e);

/** The levels the selector offers: the board's, and any a creature or an obstacle stands on. */
function levelRange() {
  let lo = 0, hi = scene.levels - 1;
  for (const o of scene.obstacles) { lo = Math.min(lo, o.z); hi = Math.max(hi, o.z); }
  for (const e of entities(scene)) { lo = Math.min(lo, e.z); hi = Math.max(hi, e.z + heightOf(e) - 1); }
  return { lo, hi };
}

/** Shows level z (clamped to levelRange). @param {number} z */
export function setLevel(z) {
  const { lo, hi } = levelRange();
  const next = Math.min(Math.max(z, lo), hi);
  if (next === ui.level) return;
  ui.level = next;
  renderView();
  draw();
}

/** The view's controls follow the view and the board: the zoom, the level (brought within the board's levels). */
export function renderView() {
  const { lo, hi } = levelRange();
  ui.level = Math.min(Math.max(ui.level, lo), hi);
  const zoom = `${Math.round(view.zoom * 100)} %`, level = `level ${ui.level}`;
  if (dom.zoomLabel.textContent !== zoom) dom.zoomLabel.textContent = zoom;
  if (dom.levelLabel.textContent !== level) dom.levelLabel.textContent = level;
  dom.zoomOut.disabled = ui.sq <= view.fit;
  dom.zoomFit.disabled = ui.sq <= view.fit;
  dom.zoomIn.disabled = ui.sq >= Math.max(2 * view.fit, Math.min(view.fit * MAX_ZOOM, MAX_SQ));
  dom.levelDown.disabled = ui.level <= lo;
  dom.levelUp.disabled = ui.level >= hi;
}
