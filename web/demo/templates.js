// @ts-check
// Several templates on the board, and Foundry's gesture: with the Template tool a drag draws a new
// template of the selected one's kind from where it starts, its size following the drag and its
// direction the drag's angle (TDGS and Draw Steel: the 8 compass directions; D&D 5e and
// Pathfinder 2e: 15° steps, free with Alt). The selected template is the scene's own fields (what
// the panel, the handles and the Targets list are about); the others wait in scene.placed, each a
// Slot, drawn faint on the board from the engine's cells. A click on one (Move or Template tool)
// or on its entry in the list selects it; Delete or its ✕ removes it.
import { DIRS, FEET, STATELESS, STEP } from "./constants.js";
import { canvas, dom } from "./dom.js";
import { ctx, snapPoint } from "./draw.js";
import { commit, entityAt, history, scene, setScene, ui } from "./state.js";
import { boardOf, engineError, frameRequest, parseAs, withBoard } from "./requests.js";
import { board } from "./engine.js";
import { refresh, sceneReplaced, fitTool } from "./refresh.js";
import { cellAt } from "./view.js";
import { flash, setBoardNote, syncFields } from "./panel.js";
import { fail, SceneError } from "./io.js";

/** @typedef {import("./types.js").CellTuple} CellTuple */
/** @typedef {import("./types.js").Engine} Engine */
/** @typedef {import("./types.js").Scene} Scene */
/** @typedef {import("./types.js").Slot} Slot */
/** @typedef {import("./types.js").Template} Template */

/** The scene's fields that make one template: a Slot's (types.js's Slot is made of them). */
export const SLOT_KEYS = /** @type {const} */ (["template", "rules", "range", "source", "origin", "originSquare", "aim", "path", "orientation",
  "point", "toward", "trait", "excludeCaster", "ids", "excludeCells", "barriers", "cover", "applyCover"]);

/** The selected template as a Slot: a copy of the scene's fields that make it. @param {Scene} s @returns {Slot} */
function slotOf(s) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const k of SLOT_KEYS) out[k] = s[k];
  return JSON.parse(JSON.stringify(out));
}

/** Every template on the board, in order: the placed ones with the selected one at scene.at. @param {Scene} s @returns {Slot[]} */
export function templatesOf(s) {
  const at = Math.min(Math.max(s.at, 0), s.placed.length);
  return [...s.placed.slice(0, at), slotOf(s), ...s.placed.slice(at)];
}

/** Makes `all[i]` the selected template (the scene's fields), the others placed. @param {Slot[]} all @param {number} i */
function choose(all, i) {
  const chosen = all[i];
  Object.assign(scene, JSON.parse(JSON.stringify(chosen)));
  scene.placed = all.filter((_, j) => j !== i);
  scene.at = i;
}

/** Selects the i-th template on the board (one undo step): the panel and the Targets list follow it. @param {number} i */
export function selectTemplate(i) {
  if (i === scene.at || i < 0 || i > scene.placed.length) return;
  commit();
  choose(templatesOf(scene), i);
  commit();
  sceneReplaced();
}

/** Removes the i-th template (one undo step); its neighbour is selected if it was. The board keeps one. @param {number} i */
export function deleteTemplate(i) {
  const all = templatesOf(scene);
  if (i < 0 || i >= all.length) return;
  if (all.length === 1) {
    flash("The board keeps one template: draw another (Template tool, M) before removing this one.");
    return;
  }
  commit();
  const at = scene.at;
  all.splice(i, 1);
  choose(all, Math.min(i === at ? i : i < at ? at - 1 : at, all.length - 1));
  commit();
  sceneReplaced();
}

// ---------------------------------------------------------------------------------------------
// Export and import: the selected template's request carries the others as `placed` (each the
// template fields of a request on the same board) and where it stands among them (`placedAt`).

/** The request fields that belong to one template, not to the board. */
const TEMPLATE_FIELDS = new Set(["template", "rules", "point", "toward", "origin", "aim", "path", "orientation", "originSquare", "range",
  "targeting", "barriers", "cover", "applyCover"]);
/** The most templates a file may place besides the selected one. */
const MAX_PLACED = 100;

/** The placed templates as Export writes them: each one's request, without the board, the caster and the rolls. @param {Engine} engine */
export function placedOut(engine) {
  return scene.placed.map((slot) => {
    const { caster, resolve, ...own } = frameRequest({ ...scene, ...slot }, parseAs(engine, slot.template, slot.rules));
    return own;
  });
}

/**
 * The placed templates of an imported request: each entry read as a request of its own on the
 * request's board (by `read`, readScene), so that its errors are readScene's, prefixed with the
 * entry (placed[2]: …).
 * @param {Record<string, unknown>} data @param {(request: unknown) => Scene} read @returns {{placed: Slot[], at: number}}
 */
export function readPlaced(data, read) {
  const list = data.placed;
  if (!Array.isArray(list) || list.length > MAX_PLACED) fail(`placed: expected an array of at most ${MAX_PLACED} templates, each {"template": …} with its placement`);
  /** @type {Record<string, unknown>} */
  const rest = {};
  for (const [k, v] of Object.entries(data)) if (!TEMPLATE_FIELDS.has(k) && k !== "placed" && k !== "placedAt") rest[k] = v;
  const placed = list.map((entry, i) => {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) fail(`placed[${i}]: expected a template's fields, {"template": …} with its placement`);
    /** @type {Record<string, unknown>} */
    const own = {};
    for (const [k, v] of Object.entries(entry)) if (TEMPLATE_FIELDS.has(k)) own[k] = v;
    try {
      return slotOf(read({ ...rest, ...own }));
    } catch (err) {
      if (err instanceof SceneError) fail(`placed[${i}]: ${err.message}`);
      throw err;
    }
  });
  const at = data.placedAt ?? placed.length;
  if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at > placed.length) fail(`placedAt: expected a whole number from 0 to ${placed.length}`);
  return { placed, at };
}

// ---------------------------------------------------------------------------------------------
// The placed templates' cells: each asked of the engine (through its scene of the board) when it
// or the board changed, drawn faint on the still layer, under the creatures and the selected area.

/** @type {{engine: Engine | null, held: unknown, made: number, cells: Map<string, {cells: CellTuple[], error: string}>}} */
const placedCache = { engine: null, held: null, made: 0, cells: new Map() };

/** The placed templates' cells and errors, in scene.placed's order (after evaluateScene: the engine's scene is up to date). */
export function evaluatePlaced() {
  const engine = ui.engine;
  ui.placedCells = [];
  ui.placedKey = "";
  if (!engine || scene.placed.length === 0) return;
  if (placedCache.engine !== engine || placedCache.held !== board.held) {
    placedCache.engine = engine;
    placedCache.held = board.held;
    placedCache.made++;
    placedCache.cells.clear();
  }
  ui.placedKey = `${placedCache.made}`;
  const sc = STATELESS || board.broken ? null : board.scene;
  for (const slot of scene.placed) {
    /** @type {{cells: CellTuple[], error: string}} */
    let answer = { cells: [], error: "" };
    try {
      const s = { ...scene, ...slot };
      const req = frameRequest(s, parseAs(engine, slot.template, slot.rules));
      const k = JSON.stringify(req);
      ui.placedKey += `|${k}`;
      const known = placedCache.cells.get(k);
      if (known) answer = known;
      else {
        const packed = sc ? sc.evaluateCells(req) : engine.evaluateCells(withBoard(req, boardOf(scene)));
        for (let i = 0; i < packed.length; i += 3) answer.cells.push([packed[i], packed[i + 1], packed[i + 2]]);
        if (placedCache.cells.size > 256) placedCache.cells.clear();
        placedCache.cells.set(k, answer);
      }
    } catch (err) {
      answer = { cells: [], error: engineError(err).message };
      ui.placedKey += `|${answer.error}`;
    }
    ui.placedCells.push(answer);
  }
}

/** The placed template (its index among all the board's) whose area holds square (x, y) on the level shown, or -1. @param {number} x @param {number} y */
export function placedAt(x, y) {
  for (let i = ui.placedCells.length - 1; i >= 0; i--) {
    if (ui.placedCells[i].cells.some((c) => c[0] === x && c[1] === y && c[2] === ui.level)) return i < scene.at ? i : i + 1;
  }
  return -1;
}

/** The placed templates' areas on the level shown: a faint fill, a dashed outline, their notation (on the still layer, under the creatures). */
export function drawPlaced() {
  const sq = ui.sq;
  ui.placedCells.forEach(({ cells }, i) => {
    // Its squares on the level shown, each once (`here` their keys, for the outline's neighbours).
    const here = new Set(), squares = [];
    for (const c of cells) {
      const k = `${c[0]},${c[1]}`;
      if (c[2] === ui.level && !here.has(k)) { here.add(k); squares.push(c); }
    }
    if (squares.length === 0) return;
    ctx.fillStyle = "rgba(224, 123, 0, 0.16)";
    for (const [x, y] of squares) ctx.fillRect(x * sq, y * sq, sq, sq);
    ctx.save();
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "#a85a00";
    ctx.beginPath();
    for (const [x, y] of squares) {
      if (!here.has(`${x},${y - 1}`)) { ctx.moveTo(x * sq, y * sq); ctx.lineTo((x + 1) * sq, y * sq); }
      if (!here.has(`${x},${y + 1}`)) { ctx.moveTo(x * sq, (y + 1) * sq); ctx.lineTo((x + 1) * sq, (y + 1) * sq); }
      if (!here.has(`${x - 1},${y}`)) { ctx.moveTo(x * sq, y * sq); ctx.lineTo(x * sq, (y + 1) * sq); }
      if (!here.has(`${x + 1},${y}`)) { ctx.moveTo((x + 1) * sq, y * sq); ctx.lineTo((x + 1) * sq, (y + 1) * sq); }
    }
    ctx.stroke();
    ctx.restore();
    if (sq >= 18) {
      // Its notation, in the area's top-left square that no creature stands on (else its top-left).
      let top = [Infinity, Infinity], free = [Infinity, Infinity];
      for (const [x, y] of squares) {
        if (y < top[1] || (y === top[1] && x < top[0])) top = [x, y];
        if ((y < free[1] || (y === free[1] && x < free[0])) && !entityAt(x, y, ui.level)) free = [x, y];
      }
      if (free[0] !== Infinity) top = free;
      ctx.font = `600 ${Math.max(9, Math.round(sq * 0.3))}px system-ui, sans-serif`;
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.fillStyle = "#7a4100";
      ctx.fillText(scene.placed[i].template, top[0] * sq + 3, top[1] * sq + 2);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The gesture: press where the template starts, drag, release.

/**
 * The template a drag from (x0, y0) to (x1, y1) (in squares) draws, of the kind of `t` (its rule
 * set, shape and the sizes the drag does not set): its notation and the fields that place it, or
 * a sentence saying why this kind is not drawn by dragging.
 * @param {Template} t @param {string} text t's notation @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1 @param {boolean} free Alt held
 * @returns {string | {text: string, fields: Partial<Slot>}}
 */
function drawnTemplate(t, text, x0, y0, x1, y1, free) {
  const dx = x1 - x0, dy = y1 - y0, dist = Math.hypot(dx, dy);
  const angle = (Math.atan2(dy, dx) * 180) / Math.PI; // clockwise from east, as `toward` (SPEC §10.2)
  const n = Math.max(1, Math.round(dist));
  const c0 = { x: Math.floor(x0), y: Math.floor(y0) }, c1 = { x: Math.floor(x1), y: Math.floor(y1) };
  const cheb = Math.max(1, Math.abs(c1.x - c0.x), Math.abs(c1.y - c0.y));
  const compass = ((Math.round((angle + 90) / 45) % 8) + 8) % 8; // an index of DIRS: 0 N, 2 E
  const cell = (/** @type {{x: number, y: number}} */ c) => ({ x: Math.min(Math.max(c.x, 0), scene.cols - 1), y: Math.min(Math.max(c.y, 0), scene.rows - 1), z: ui.level });
  if (t.rules === "dnd5e" || t.rules === "pf2e") {
    // SPEC §10.3: sizes in feet, 5 a square; cones and lines from the point pressed.
    const ft = n * FEET, point = snapPoint(x0, y0, free);
    const toward = free ? angle : Math.round(angle / 15) * 15;
    if (t.shape === "sphere") return { text: `${ft}-foot-radius sphere`, fields: { point } };
    if (t.shape === "cylinder") return { text: `${ft}-foot-radius, ${(t.height ?? 2 * n) * FEET}-foot-high cylinder`, fields: { point } };
    if (t.shape === "burst") return { text: `${ft}-foot burst`, fields: { point } };
    if (t.shape === "emanation") return { text: `${ft}-foot emanation`, fields: {} };
    if (t.shape === "cube") return { text: `${Math.max(1, Math.round(Math.max(Math.abs(dx), Math.abs(dy)))) * FEET}-foot cube`, fields: { point, toward } };
    const wide = t.shape === "line" && t.width && t.width > 1 ? ` ${t.width * FEET} feet wide` : "";
    return { text: `${ft}-foot ${t.shape}${wide}`, fields: { point, toward, source: true } };
  }
  if (t.rules === "tdgs") {
    const h = /h(\d+)\s*$/.exec(text.trim());
    const height = h ? `h${h[1]}` : "";
    if (t.shape === "circle") return { text: `Cir${cheb}${height}`, fields: { origin: cell(c0) } };
    if (t.shape === "rectangle") {
      // Corner to corner; the anchor is the south-west corner (SPEC §2.7).
      const w = Math.abs(c1.x - c0.x) + 1, l = Math.abs(c1.y - c0.y) + 1;
      return { text: `Rec${w}x${l}${height}`, fields: { origin: cell({ x: Math.min(c0.x, c1.x), y: Math.max(c0.y, c1.y) }), orientation: "N" } };
    }
    // A cone or a line from the square pressed (SPEC §2.9), its direction written relative to the
    // caster's facing (SPEC §1.3) so that it points the way dragged.
    const rel = DIRS[(compass - DIRS.indexOf(scene.caster.facing) + 8) % 8];
    const width = t.shape === "line" && t.width && t.width > 1 ? `w${t.width}` : "";
    return { text: `${t.shape === "cone" ? "Con" : "Lin"}${cheb}${rel}${width}${height}`, fields: { origin: cell(c0), source: true } };
  }
  if (t.rules === "drawsteel") {
    const within = t.within ?? 10;
    if (t.shape === "burst" || t.shape === "aura") return { text: `${n} ${t.shape}`, fields: {} };
    if (t.shape === "cube") {
      const side = Math.max(Math.abs(c1.x - c0.x), Math.abs(c1.y - c0.y)) + 1;
      return { text: `${side} cube within ${within}`, fields: { origin: cell({ x: Math.min(c0.x, c1.x), y: Math.min(c0.y, c1.y) }), originSquare: null } };
    }
    if (t.shape === "line") {
      // From the square pressed along one of the 8 compass directions (SPEC §3.5: origin and aim).
      const [sx, sy] = STEP[compass], len = cheb + 1;
      return { text: `${len} x ${t.width ?? 1} line within ${within}`, fields: { origin: cell(c0), aim: cell({ x: c0.x + sx * cheb, y: c0.y + sy * cheb }) } };
    }
    return "A Draw Steel wall is laid square by square: use the Wall squares tool (P).";
  }
  // The 50 % circle (SPEC §4): centred on the square pressed, or next to the caster (close).
  return t.close ? { text: `close circle ${n}`, fields: {} } : { text: `circle ${n}`, fields: { origin: cell(c0) } };
}

/** The press of the Template tool at (px, py) board pixels: a drag draws a template, a click selects one. @param {number} px @param {number} py */
export function startDraw(px, py) {
  if (!ui.template) return;
  commit(); // pending field edits become their own step
  ui.drawing = { x: px / ui.sq, y: py / ui.sq, t: ui.template, text: scene.template, before: history.stack[history.index], moved: false };
}

/** The drag of the Template tool to (px, py) board pixels. @param {number} px @param {number} py @param {boolean} free Alt held */
export function dragDraw(px, py, free) {
  const d = ui.drawing, engine = ui.engine;
  if (!d || !engine) return;
  const x = px / ui.sq, y = py / ui.sq;
  if (!d.moved && Math.hypot(x - d.x, y - d.y) < 0.5) return; // a click, so far
  const made = drawnTemplate(d.t, d.text, d.x, d.y, x, y, free);
  if (typeof made === "string") {
    flash(made);
    ui.drawing = null;
    return;
  }
  /** @type {Template} */
  let t;
  try {
    t = parseAs(engine, made.text, scene.rules);
  } catch {
    return; // too large a template for its notation: the last one stays
  }
  if (!d.moved) {
    // The selected template stays on the board; the new one comes after every other.
    d.moved = true;
    scene.placed = templatesOf(scene);
    scene.at = scene.placed.length;
  } else if (made.text === scene.template && Object.entries(made.fields).every(([k, v]) => JSON.stringify(scene[/** @type {keyof Slot} */ (k)]) === JSON.stringify(v))) {
    return; // the same template: nothing to ask
  }
  Object.assign(scene, made.fields);
  scene.template = made.text;
  ui.template = t;
  dom.notation.value = made.text;
  refresh();
}

/** The release (or, `cancel`, Escape or a lost pointer) of the Template tool. @param {boolean} cancel */
export function endDraw(cancel) {
  const d = ui.drawing;
  ui.drawing = null;
  if (!d) return;
  if (!d.moved) {
    // A click: the template under it is selected.
    const c = cellAt(d.x * ui.sq, d.y * ui.sq), i = placedAt(c.x, c.y);
    if (i >= 0 && !cancel) selectTemplate(i);
    return;
  }
  if (cancel) {
    setScene(JSON.parse(d.before));
    sceneReplaced();
    return;
  }
  commit();
  fitTool();
  syncFields();
  const count = scene.placed.length + 1;
  ui.boardNote = `Drawn: ${scene.template}. ${count} templates on the board — click one to select it, Delete removes the selected one.`;
  ui.boardWarn = false;
  refresh();
  setBoardNote("");
  canvas.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------------------------
// The list of the board's templates (the Template card): select, remove.

let shown = "";
/** The list of the templates on the board: the selected one marked, each with a button that selects it and one that removes it. */
export function renderTemplates() {
  // Their notations, in order: all the list shows of them (no copy of the selected one's fields, on every refresh).
  const names = scene.placed.map((s) => s.template);
  names.splice(Math.min(Math.max(scene.at, 0), names.length), 0, scene.template);
  const sig = JSON.stringify([names, scene.at, ui.placedCells.map((p) => p.error)]);
  if (sig === shown) return;
  shown = sig;
  dom.templatesCount.textContent = `${names.length} on the board`;
  dom.templates.replaceChildren(...names.map((name, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "template-pick";
    b.dataset.index = String(i);
    b.setAttribute("aria-pressed", i === scene.at ? "true" : "false");
    b.textContent = name;
    const placed = i < scene.at ? ui.placedCells[i] : i > scene.at ? ui.placedCells[i - 1] : undefined;
    if (placed && placed.error) {
      b.title = `Not placed: ${placed.error}`;
      b.classList.add("broken");
    } else b.title = i === scene.at ? "The selected template: the panel and the Targets list are about it" : "Select it: the panel and the Targets list follow it";
    b.addEventListener("click", () => selectTemplate(i));
    const x = document.createElement("button");
    x.type = "button";
    x.className = "template-remove danger";
    x.dataset.index = String(i);
    x.textContent = "✕";
    x.setAttribute("aria-label", `Remove ${name}`);
    x.title = `Remove ${name} from the board`;
    x.disabled = names.length === 1;
    x.addEventListener("click", () => deleteTemplate(i));
    li.append(b, x);
    return li;
  }));
}
