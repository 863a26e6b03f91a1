// @ts-check
// Creatures: the Add creature tool and button (a free square), Remove, Make caster, and the
// editor's fields, each change one undo step if the creature still fits where it stands.
import { MAX_LEVELS, MAX_SIZE, MAX_TOKENS, SIZE_NAMES } from "./constants.js";
import { dom } from "./dom.js";
import { entity } from "./scenes.js";
import { blockedAt, commit, findEntity, heightOf, scene, ui } from "./state.js";
import { refresh } from "./refresh.js";
import { renderView, view, viewH, viewW } from "./view.js";
import { flash, renderEditor, showError } from "./panel.js";

/** @typedef {import("./types.js").Direction} Direction */
/** @typedef {import("./types.js").Entity} Entity */

// Creatures.
/**
 * The free square nearest (x, y) on level z where a creature of `size` (and as tall) fits, or
 * null: no wall, no creature, on the board.
 * @param {number} x @param {number} y @param {number} size @param {number} z
 */
function freeSquareNear(x, y, size, z) {
  const probe = entity({ id: "", x, y });
  for (let d = 0; d < Math.max(scene.cols, scene.rows); d++) {
    for (let yy = y - d; yy <= y + d; yy++) {
      for (let xx = x - d; xx <= x + d; xx++) {
        if (Math.max(Math.abs(xx - x), Math.abs(yy - y)) !== d) continue;
        if (!blockedAt(probe, { x: xx, y: yy, z, size, height: size })) return { x: xx, y: yy };
      }
    }
  }
  return null;
}

/**
 * Puts a new creature (an enemy, "Creature n") on square (x, y) at level z, as one undo step, and
 * selects it; `focus`: the editor's name field gets the focus (the panel's button), else the
 * board keeps it (the Add creature tool, which adds where it is clicked).
 * @param {number} x @param {number} y @param {number} z @param {boolean} focus
 */
export function addCreature(x, y, z, focus) {
  if (scene.tokens.length >= MAX_TOKENS) { flash(`The demo holds ${MAX_TOKENS} creatures at most.`); return; }
  let n = scene.tokens.length + 1, id = `Creature ${n}`;
  while (findEntity(id)) id = `Creature ${++n}`;
  commit();
  scene.tokens.push(entity({ id, x, y, z, side: "enemy" }));
  ui.selected = { kind: "entity", id };
  commit();
  refresh();
  renderEditor(true);
  if (focus) {
    dom.edId.focus();
    dom.edId.select();
  }
}

// The panel's button: in the middle of the board's view, on a square with room to grow (Huge,
// else Large), on the level shown.
dom.addToken.addEventListener("click", () => {
  if (!ui.engine) return;
  const cx = Math.floor((view.x + viewW() / 2) / ui.sq), cy = Math.floor((view.y + viewH() / 2) / ui.sq);
  const spot = freeSquareNear(cx, cy, 3, ui.level) ?? freeSquareNear(cx, cy, 2, ui.level) ?? freeSquareNear(cx, cy, 1, ui.level);
  if (!spot) { flash("No free square left on the board."); return; }
  addCreature(spot.x, spot.y, ui.level, true);
});

export function removeSelected() {
  const sel = ui.selected;
  if (!sel || sel.kind !== "entity" || sel.id === scene.caster.id) {
    if (sel && sel.kind === "entity") flash("The caster stays: make another creature the caster first.");
    return;
  }
  commit();
  scene.tokens = scene.tokens.filter((e) => e.id !== sel.id);
  ui.selected = null;
  if (ui.hoverId === sel.id) ui.hoverId = null;
  commit();
  refresh();
}
dom.removeToken.addEventListener("click", removeSelected);
dom.makeCaster.addEventListener("click", () => {
  const sel = ui.selected;
  const e = sel && sel.kind === "entity" ? findEntity(sel.id) : null;
  if (!e || e === scene.caster) return;
  commit();
  const old = scene.caster;
  scene.tokens = scene.tokens.map((x) => (x === e ? old : x));
  scene.caster = e;
  commit();
  refresh();
  renderEditor(true);
});

/**
 * Applies one editor field to the selected creature, if the result is a valid creature that
 * fits where it stands; otherwise says why and changes nothing.
 * @param {(e: Entity) => string} change returns "" or what is wrong
 */
function editSelected(change) {
  const sel = ui.selected;
  const e = sel && sel.kind === "entity" ? findEntity(sel.id) : null;
  if (!e) return;
  const before = JSON.stringify(e);
  const copy = /** @type {Entity} */ (JSON.parse(before));
  let why = change(copy);
  if (!why) {
    const b = blockedAt(e, { x: copy.x, y: copy.y, z: copy.z, size: copy.size, height: heightOf(copy) });
    if (b) why = `it would overlap ${b}`;
  }
  showError(dom.editorError, why);
  if (why) return;
  commit();
  const oldId = e.id;
  Object.assign(e, copy);
  if (e.z >= scene.levels) {
    // Raised above the board: the board grows to its level, in the same step.
    scene.levels = Math.min(MAX_LEVELS, e.z + 1);
    dom.levels.value = String(scene.levels);
    ui.boardNote = `The board has ${scene.levels} levels now (0 … ${scene.levels - 1}): ${e.id} stands on level ${e.z}.`;
    ui.boardWarn = false;
    renderView();
  }
  if (oldId !== e.id) {
    scene.ids = scene.ids.map((id) => (id === oldId ? e.id : id));
    if (ui.attack.attacker === oldId) ui.attack.attacker = e.id;
    if (ui.attack.target === oldId) ui.attack.target = e.id;
  }
  if (sel && sel.kind === "entity" && oldId !== e.id) {
    ui.selected = { kind: "entity", id: e.id };
    if (ui.hoverId === oldId) ui.hoverId = e.id;
  }
  commit();
  refresh();
  renderEditor(true);
}
dom.edId.addEventListener("change", () => editSelected((e) => {
  const id = dom.edId.value.trim();
  if (!id) return "A creature needs a name.";
  if (id !== e.id && findEntity(id)) return `${id} is already on the board: names are unique.`;
  e.id = id;
  return "";
}));
dom.edSide.addEventListener("change", () => editSelected((e) => { e.side = dom.edSide.value; return ""; }));
dom.edSize.addEventListener("change", () => editSelected((e) => {
  const v = dom.edSize.value.trim();
  const n = /^\d+$/.test(v) ? Number(v) : SIZE_NAMES[v.toLowerCase()];
  if (!n || n < 1 || n > MAX_SIZE) return `Size: a number from 1 to ${MAX_SIZE}, or Tiny, Small, Medium, Large, Huge, Gargantuan.`;
  e.size = n;
  return "";
}));
dom.edHeight.addEventListener("change", () => editSelected((e) => {
  const v = dom.edHeight.value.trim();
  if (v === "") { e.height = null; return ""; }
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= 100)) return "Height: a number of levels from 1 to 100, or empty for its size.";
  e.height = n;
  return "";
}));
dom.edZ.addEventListener("change", () => editSelected((e) => {
  // The board's levels run from 0 up: a creature above them raises the board (areas are cut to
  // its levels, so nothing of an area would be drawn where it stands), up to the demo's highest.
  const v = dom.edZ.value.trim();
  const n = v === "" ? 0 : /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= 0 && n < MAX_LEVELS)) return `Elevation: a whole number of levels from 0 (the ground) to ${MAX_LEVELS - 1}: the demo's boards have at most ${MAX_LEVELS} levels.`;
  e.z = n;
  return "";
}));
dom.edFacing.addEventListener("change", () => editSelected((e) => { e.facing = /** @type {Direction} */ (dom.edFacing.value); return ""; }));
dom.edDefence.addEventListener("change", () => editSelected((e) => {
  const v = dom.edDefence.value.trim();
  const n = v === "" ? 0 : /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= -1000 && n <= 1000)) return "Defence: a whole number.";
  e.defence = n;
  return "";
}));
dom.edProne.addEventListener("change", () => editSelected((e) => { e.prone = dom.edProne.checked; return ""; }));
dom.editor.addEventListener("submit", (e) => e.preventDefault());
