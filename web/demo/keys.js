// @ts-check
// The keyboard (tools, turning, zoom, levels, undo, selection, arrows), the help dialog, and the
// toolbar's buttons.
import { HALF, MAX_LEVELS } from "./constants.js";
import { canvas, dom } from "./dom.js";
import { draw, pointHandle, snapPoint } from "./draw.js";
import { commit, findEntity, redo, scene, ui, undo } from "./state.js";
import { onIntersection, placementOf } from "./requests.js";
import { slidePath } from "./engine.js";
import { refresh } from "./refresh.js";
import { renderView, reveal, setLevel, zoomFit, zoomIn, zoomOut } from "./view.js";
import { flash } from "./panel.js";
import { anchorOf, clearSlidePath, moveTo, popSlideSquare, removeWall, renderWallTools, sameSel, select, selectables, setTool, toggleDoor, toggleFence } from "./edit.js";
import { endGesture, lastPoint, turn, updateCursor } from "./pointer.js";
import { removeSelected } from "./creatures.js";
import { deleteTemplate } from "./templates.js";

/** @typedef {import("./types.js").Tool} Tool */

/** Whether typing into el is text editing (with its own undo). @param {EventTarget | null} el */
function isTextField(el) {
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement) return !["checkbox", "radio", "button", "submit", "reset", "file"].includes(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}
/** Whether el takes letter keys itself (text fields, and selects, which jump to options). @param {EventTarget | null} el */
function isField(el) {
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement) return !["checkbox", "radio", "button", "submit", "reset", "file"].includes(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

document.addEventListener("keydown", (e) => {
  if (dom.help.open || dom.confirmReplace.open) return; // a dialog handles its own keys (Esc closes it)
  const mod = e.ctrlKey || e.metaKey;
  if (mod) {
    if (isTextField(e.target) || e.altKey) return; // a text field's own undo
    const k = e.key.toLowerCase();
    if (k === "z") { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    else if (k === "y") { e.preventDefault(); redo(); }
    return;
  }
  if (isField(e.target) || e.altKey) return;
  const k = e.key;
  if (k === "?") { e.preventDefault(); openHelp(); return; }
  const lower = k.toLowerCase();
  if (k === " " && (ui.space || (lastPoint && (document.activeElement === canvas || document.activeElement === document.body)))) {
    // Held over the board (its repeats too): a drag pans.
    e.preventDefault();
    if (!ui.space) {
      ui.space = true;
      updateCursor();
    }
    return;
  }
  if (k === "+" || k === "=") { e.preventDefault(); zoomIn(); return; }
  if (k === "-" || k === "_") { e.preventDefault(); zoomOut(); return; }
  if (k === "0") { e.preventDefault(); zoomFit(); return; }
  if ((k === "PageUp" || k === "PageDown") && document.activeElement === canvas) { e.preventDefault(); setLevel(ui.level + (k === "PageUp" ? 1 : -1)); return; }
  if (lower === "q") { e.preventDefault(); turn(-1); }
  else if (lower === "e") { e.preventDefault(); turn(1); }
  else if (lower === "v") setTool("move");
  else if (lower === "w") setTool("wall");
  else if (lower === "l") setTool("low");
  else if (lower === "x") setTool("erase");
  else if (lower === "t") setTool("thin");
  else if (lower === "h") setTool("pan");
  else if (lower === "a") setTool("add");
  else if (lower === "m") setTool("template");
  else if (lower === "d" && ui.tool === "thin") { if (ui.wall !== null) toggleDoor(ui.wall); }
  else if (lower === "f" && ui.tool === "thin") toggleFence();
  else if (lower === "p" && ui.template && placementOf(ui.template, scene) === "wall") setTool("path");
  else if (lower === "k" && scene.trait === "selective") setTool("spare");
  else if (k === "[" || k === "]") {
    const list = selectables();
    if (list.length === 0) return;
    const i = list.findIndex((s) => sameSel(s, ui.selected));
    const next = k === "]" ? (i + 1) % list.length : (i <= 0 ? list.length - 1 : i - 1);
    select(list[next]);
  } else if (k === "Escape" && ui.tool === "slide" && !ui.drag && slidePath().length > 0) {
    if (ui.slideStroke) endGesture(false);
    clearSlidePath();
  } else if (k === "Backspace" && ui.tool === "slide") {
    e.preventDefault(); // never the creature: the path's last square
    if (ui.slideStroke) endGesture(false);
    popSlideSquare();
  } else if (k === "Escape") {
    if (ui.drag || ui.wallStroke || ui.drawing) { endGesture(true); return; }
    ui.attack.pick = 0; // picking an attacker and a target stops too
    ui.wall = null;
    renderWallTools();
    select(null);
  } else if ((k === "Delete" || k === "Backspace") && ui.tool === "thin" && ui.wall !== null) {
    e.preventDefault();
    removeWall();
  } else if ((k === "Delete" || k === "Backspace") && ui.tool === "template") {
    e.preventDefault();
    deleteTemplate(scene.at);
  } else if ((k === "Delete" || k === "Backspace") && ui.selected && ui.selected.kind === "entity") {
    e.preventDefault();
    removeSelected();
  } else if (k.startsWith("Arrow") && document.activeElement === canvas && ui.selected) {
    e.preventDefault();
    const [dx, dy] = k === "ArrowLeft" ? [-1, 0] : k === "ArrowRight" ? [1, 0] : k === "ArrowUp" ? [0, -1] : [0, 1];
    if (ui.selected.kind === "origin" && pointHandle()) {
      // A point of origin steps along its lattice: half a square, a square for cubes and pf2e bursts.
      const step = onIntersection(ui.template) ? 1 : HALF, p = scene.point;
      commit();
      scene.point = { ...snapPoint(p.x + dx * step, p.y + dy * step, false), z: p.z };
      commit();
      reveal(Math.floor(scene.point.x), Math.floor(scene.point.y), 1);
      refresh();
      return;
    }
    const a = anchorOf(ui.selected);
    if (!a) return;
    commit();
    const why = moveTo(ui.selected, a.x + dx, a.y + dy);
    if (why) flash(`Cannot move there: ${why}.`);
    else ui.boardNote = "";
    commit();
    const sel = ui.selected, moved = anchorOf(sel);
    if (moved) reveal(moved.x, moved.y, sel.kind === "entity" ? findEntity(sel.id)?.size ?? 1 : 1);
    refresh();
  }
});

document.addEventListener("keyup", (e) => {
  if (e.key === " " && ui.space) {
    ui.space = false;
    updateCursor();
  }
});
window.addEventListener("blur", () => {
  if (ui.space) { ui.space = false; updateCursor(); }
});

/** Opens the help at its top: the dialog would focus (and scroll to) its Close button, at the bottom. */
function openHelp() {
  if (dom.help.open) return;
  dom.help.showModal();
  dom.helpHeading.focus({ preventScroll: true });
  dom.help.scrollTop = 0;
}
dom.helpButton.addEventListener("click", openHelp);

for (const b of dom.tools) b.addEventListener("click", () => setTool(/** @type {Tool} */ (b.dataset.tool)));
dom.wallDoor.addEventListener("click", () => { if (ui.wall !== null) toggleDoor(ui.wall); });
dom.wallFence.addEventListener("click", toggleFence);
dom.wallDelete.addEventListener("click", removeWall);
dom.undo.addEventListener("click", undo);
dom.linesAll.addEventListener("change", () => { ui.linesAll = dom.linesAll.checked; draw(); });
dom.redo.addEventListener("click", redo);
dom.zoomIn.addEventListener("click", () => zoomIn());
dom.zoomOut.addEventListener("click", () => zoomOut());
dom.zoomFit.addEventListener("click", zoomFit);
dom.levelUp.addEventListener("click", () => setLevel(ui.level + 1));
dom.levelDown.addEventListener("click", () => setLevel(ui.level - 1));
// The board's height: a board edit (one undo step), which the areas' cells follow.
dom.levels.addEventListener("change", () => {
  const n = Number(dom.levels.value);
  if (!ui.engine || !Number.isInteger(n) || n < 1 || n > MAX_LEVELS) {
    dom.levels.setAttribute("aria-invalid", "true");
    flash(`The board has 1 to ${MAX_LEVELS} levels.`);
    return;
  }
  dom.levels.setAttribute("aria-invalid", "false");
  if (n === scene.levels) return;
  commit();
  scene.levels = n;
  commit();
  renderView();
  refresh();
});
