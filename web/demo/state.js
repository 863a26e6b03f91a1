// @ts-check
// The state: `scene` (what undo, localStorage and export know; replaced only through setScene),
// `ui` (what is derived or transient), the lookups over the scene's creatures, and the history
// (commit, undo, redo): every board edit is one step.
import { sampleScene } from "./scenes.js";
import { save } from "./io.js";
import { sceneReplaced } from "./refresh.js";
import { renderHistory } from "./panel.js";

/** @typedef {import("./types.js").AttackRules} AttackRules */
/** @typedef {import("./types.js").Block} Block */
/** @typedef {import("./requests.js").BoardCopy} BoardCopy */
/** @typedef {import("./types.js").CellTuple} CellTuple */
/** @typedef {import("./types.js").CoverRequest} CoverRequest */
/** @typedef {import("./types.js").CoverResult} CoverResult */
/** @typedef {import("./types.js").DrawSummary} DrawSummary */
/** @typedef {import("./types.js").Engine} Engine */
/** @typedef {import("./types.js").EngineError} EngineError */
/** @typedef {import("./types.js").EngineScene} EngineScene */
/** @typedef {import("./types.js").Entity} Entity */
/** @typedef {import("./types.js").FullAttackRequest} FullAttackRequest */
/** @typedef {import("./types.js").FullAttackResult} FullAttackResult */
/** @typedef {import("./types.js").FullAttackStep} FullAttackStep */
/** @typedef {import("./types.js").Item} Item */
/** @typedef {import("./labels.js").Label} Label */
/** @typedef {import("./types.js").MoveRequest} MoveRequest */
/** @typedef {import("./types.js").MoveResult} MoveResult */
/** @typedef {import("./types.js").Overlay} Overlay */
/** @typedef {import("./types.js").OverlayModule} OverlayModule */
/** @typedef {import("./types.js").Pos} Pos */
/** @typedef {import("./types.js").PricedStep} PricedStep */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Result} Result */
/** @typedef {import("./types.js").Scene} Scene */
/** @typedef {import("./types.js").SceneRequest} SceneRequest */
/** @typedef {import("./types.js").Sel} Sel */
/** @typedef {import("./types.js").Template} Template */
/** @typedef {import("./types.js").Tool} Tool */

/** @type {Scene} */
export let scene = sampleScene();
/** Replaces the scene (undo and redo do it here; imports and samples through this). @param {Scene} s */
export function setScene(s) {
  scene = s;
}

/** Everything derived from the scene, or transient. */
export const ui = {
  /** @type {Engine | null} the overlay module's engine */ engine: null,
  /** @type {OverlayModule | null} the overlay module (its attach) */ overlays: null,
  /** @type {Overlay | null} the overlay drawing the result layer */ overlay: null,
  /** @type {Template | null} the parse of scene.template */ template: null,
  /** @type {SceneRequest | null} the request last sent, without its board (see evaluateBoard) */ request: null,
  /** @type {BoardCopy | null} the board ui.request was answered against */ requestBoard: null,
  /**
   * The answer shown, drawn by the overlay: its summary (the panel's: every field but the
   * cells and the lines), and the whole answer when asked (the overlay's result(): its JSON
   * crosses out of the module only then; the test hooks ask, the page's own drawing never does).
   * @type {DrawSummary | null}
   */
  summary: null,
  /** @returns {Result | null} */
  get result() { return this.summary && this.overlay ? this.overlay.result() : null; },
  /**
   * What the overlay last drew, to draw it again when only the view changes (a hover, a pan, a
   * zoom, the level): the request (with its board, or without and its scene) and the view.
   * @type {null | {request: Request | SceneRequest, scene: EngineScene | null, key: string, focus: string | null, level: number, all: boolean}}
   */
  drawn: null,
  /** @type {EngineError | null} why evaluate refused the scene */ error: null,
  /** @type {CellTuple[]} the cells the template would cover, drawn hatched, when a rule was broken */ ghost: [],
  /** @type {string} what the board is waiting for (a wall with no squares yet) */ waiting: "",
  /** @type {null | EngineError & {text: string}} the notation box's own error */ notationError: null,
  /** @type {MoveRequest | null} the move request last sent */ moveRequest: null,
  /** @type {MoveResult | null} */ move: null,
  /** @type {string} */ moveError: "",
  /** @type {Tool} */ tool: "move",
  /** @type {Sel | null} */ selected: null,
  /** @type {string | null} the creature under the pointer or the list item hovered */ hoverId: null,
  /** @type {{x: number, y: number} | null} */ hoverCell: null,
  /** @type {null | {sel: Sel, dx: number, dy: number, moved: boolean, blocked: null | {x: number, y: number, size: number, why: string}}} */ drag: null,
  /** @type {null | {fill: number, erase: boolean, last: {x: number, y: number}, changed: boolean, skipped: string}} */ paint: null,
  /** @type {null | {add: boolean, last: {x: number, y: number}, changed: boolean}} */ pathStroke: null,
  /** @type {null | {last: {x: number, y: number}, changed: boolean, full: boolean}} a slide's path being laid (the Lay the path tool) */ slideStroke: null,
  /** @type {null | {add: boolean, last: {x: number, y: number}, changed: boolean, area: Set<string>, z: number}} squares being taken out of the area (or put back), with the Spare squares tool */ spareStroke: null,
  /** @type {null | {a: [number, number], b: [number, number], hit: number | null}} a thin wall being drawn, grid point to grid point; hit: the wall pressed on */ wallStroke: null,
  /**
   * A template being drawn with the Template tool (templates.js): where the press was, in
   * squares; the kind drawn (the selected template then, its notation); the scene before, as
   * history keeps it (Escape goes back to it); whether the drag has begun.
   * @type {null | {x: number, y: number, t: Template, text: string, before: string, moved: boolean}}
   */
  drawing: null,
  /** @type {{cells: CellTuple[], error: string}[]} the placed templates' cells, in scene.placed's order, or why the engine refused one */ placedCells: [],
  /** what the placed templates' cells are answers to (the still layer, which draws them, is drawn again when it changes) */ placedKey: "",
  /** @type {number | null} the selected thin wall (an index of scene.walls), with the Thin wall tool */ wall: null,
  /** @type {number | null} the thin wall under the pointer */ hoverWall: null,
  /** @type {{x: number, y: number} | null} the grid point nearest the pointer, with the Thin wall tool */ hoverPoint: null,
  /** whether the next thin walls drawn are fences (top 0.5) */ fence: false,
  sq: 32, dpr: 1,
  /** the level (z) the board shows: its area cells, its obstacles and creatures at full strength, and where walls are painted */ level: 0,
  /** @type {null | {x: number, y: number, vx: number, vy: number}} a pan in progress: where it started (client pixels) and the view then */ pan: null,
  /** whether the space bar is held (a drag pans) */ space: false,
  /**
   * The last update's times, in ms: the engine's calls (evaluateScene, the overlay's drawing of
   * the answer included), of which the overlay's draw (the engine's evaluation and Go's
   * drawing), and the demo's own drawing (draw).
   */
  timing: { engine: 0, overlay: 0, draw: 0 },
  /** @type {{id: string, from: [number, number], to: [number, number], blocked: boolean}[]} the attack's cover lines the last draw painted, in CSS pixels */ drawnLines: [],
  /** @type {{id: string, grade: string, text: string}[]} the dnd5e and pf2e cover badges the last draw painted (drawLabels) */ badges: [],
  /** @type {Label[]} the names and badges the label layers show (drawLabels) */ labels: [],
  /** whether every target's cover lines show (the legend's checkbox), not only the focused one's */ linesAll: false,
  /** @type {string} */ boardNote: "", boardWarn: false,
  /**
   * Attack cover (SPEC §5.7): who attacks whom, how, under which rules; `pick` is what the next
   * board click chooses while picking (0: not picking).
   * @type {{attacker: string, target: string, kind: CoverRequest["attack"], rules: AttackRules, flying: boolean, pick: 0 | 1 | 2}}
   */
  attack: { attacker: "", target: "", kind: "melee", rules: "dnd35", flying: false, pick: 0 },
  /** @type {CoverRequest | null} the cover request last sent */ attackRequest: null,
  /** @type {CoverResult | null} */ attackResult: null,
  /** @type {EngineError | null} why engine.cover refused it */ attackError: null,
  /**
   * The full attack panel's answers (scene.fullAttack is what it asks about): the request last
   * sent (`sig`, its JSON), the engine's answer or error, the throws that could come next (an
   * attack of `next` with `throw` added, where the engine takes it), the last step the engine
   * refused (the plan is unchanged) and the last change of the combatant it refused.
   * `before` is the answer for the steps before an illegal one (what they attack with).
   * @type {{sig: string, engine: Engine | null, request: FullAttackRequest | null, result: FullAttackResult | null,
   *   error: EngineError | null, before: PricedStep[], throws: {index: number, step: FullAttackStep, bonus: number}[],
   *   tried: null | {step: FullAttackStep, error: EngineError}, refused: string}}
   */
  fa: { sig: "", engine: null, request: null, result: null, error: null, before: [], throws: [], tried: null, refused: "" },
  /** @type {Set<string>} the item pickers showing their custom fields ("hand:<name>", "draw") */ faCustom: new Set(),
  /** @type {{item: Item, hand: string, hand2: string}} the draw action's choices (not saved) */
  faDraw: { item: { id: "longsword", kind: "oneHanded" }, hand: "", hand2: "" },
};

/** Drops the presses under way on the board: a drag, a paint, a path, slide, spare or wall stroke (pointer.js). */
export function dropPresses() {
  ui.drag = null;
  ui.paint = null;
  ui.pathStroke = null;
  ui.slideStroke = null;
  ui.spareStroke = null;
  ui.wallStroke = null;
}

/** @param {Scene} s */
export const entities = (s) => [s.caster, ...s.tokens];
/** @param {string} id */
export const findEntity = (id) => entities(scene).find((e) => e.id === id) ?? null;
/** @param {Entity} e */
export const heightOf = (e) => e.height ?? e.size;
/** @param {Block | Pos} c */
export const key = (c) => `${c.x},${c.y},${c.z}`;

/**
 * Whether two creatures' spaces share a cell (SPEC §1.5: size × size squares, height levels).
 * @param {{x: number, y: number, z: number, size: number}} a @param {number} ah
 * @param {{x: number, y: number, z: number, size: number}} b @param {number} bh
 */
function spacesMeet(a, ah, b, bh) {
  return a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size && a.z < b.z + bh && b.z < a.z + ah;
}

/**
 * Why a creature cannot stand at p (a wall, another creature, the board's edge), or "".
 * @param {Entity} e @param {{x: number, y: number, z: number, size: number, height: number}} p
 */
export function blockedAt(e, p) {
  if (p.x < 0 || p.y < 0 || p.x + p.size > scene.cols || p.y + p.size > scene.rows) return "the edge of the board";
  for (const o of scene.obstacles) {
    if (o.x >= p.x && o.x < p.x + p.size && o.y >= p.y && o.y < p.y + p.size && o.z >= p.z && o.z < p.z + p.height) return `a wall at ${o.x}, ${o.y}`;
  }
  for (const other of entities(scene)) {
    if (other !== e && spacesMeet(p, p.height, other, heightOf(other))) return other.id;
  }
  return "";
}

/** The creature whose space takes in cell (x, y, z), if any. @param {number} x @param {number} y @param {number} z */
export function entityAt(x, y, z) {
  return entities(scene).find((e) => x >= e.x && x < e.x + e.size && y >= e.y && y < e.y + e.size && e.z <= z && e.z + heightOf(e) > z) ?? null;
}

// ---------------------------------------------------------------------------------------------
// History: every board edit is one step; text fields keep their own undo.

/** @type {{stack: string[], index: number}} */
export const history = { stack: [], index: -1 };

/** Records the scene as a step of history if it changed since the last one, and saves it. */
export function commit() {
  const json = JSON.stringify(scene);
  if (history.stack[history.index] === json) return;
  history.stack.splice(history.index + 1);
  history.stack.push(json);
  if (history.stack.length > 300) history.stack.shift();
  history.index = history.stack.length - 1;
  save();
  renderHistory();
}

/** @param {number} step */
function travel(step) {
  commit(); // a change not yet recorded (a field being edited) becomes its own step first
  const next = history.index + step;
  if (next < 0 || next >= history.stack.length) return;
  history.index = next;
  scene = JSON.parse(history.stack[next]);
  save();
  sceneReplaced();
}
export const undo = () => travel(-1);
export const redo = () => travel(1);

/** @param {Scene} s */
export function resetHistory(s) {
  scene = s;
  history.stack = [JSON.stringify(s)];
  history.index = 0;
  save();
}
