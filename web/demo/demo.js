// @ts-check
// The aoekit demo. One scene object (what undo, localStorage and export know), one UI object
// (what is derived or transient), one place that asks the engine (refresh), one painter (draw)
// and one converter between pixels and cells. Every rule comes from the engine: the demo asks
// engine.parse what a notation is and the engine's evaluate what it covers; it never guesses. The
// board lives in the engine too, as a scene (CONTRACT scene) kept up to date with each edit, so
// that a frame sends only what moved (drawBoard). The engine is the overlay module's
// (aoekit-overlay.wasm: the engine and a renderer in one Go runtime, CONTRACT "The overlay"),
// which draws each answer itself — the area, its outline, the cover lines, the creatures the
// answer is about with their rings — on its own canvas, between the demo's cached board and the
// demo's own layers: handles and tools, then the names and badges over every line. The answer
// never crosses into the page but as a summary (the panel's, the badges').
// Plain ES module, no framework, no build step, no inline script or style (strict CSP).
import { loadOverlay } from "../overlay.js";

/** @typedef {import("../index.js").Engine} Engine */
/** @typedef {import("../index.js").Template} Template */
/** @typedef {import("../index.js").Request} Request */
/** @typedef {import("../index.js").Result} Result */
/** @typedef {import("../index.js").Target} Target */
/** @typedef {import("../index.js").Direction} Direction */
/** @typedef {import("../index.js").CellTuple} CellTuple */
/** @typedef {import("../index.js").Pos} Pos */
/** A point in squares (SPEC §10.1), every coordinate present: a point-origin area's origin. @typedef {{x: number, y: number, z: number}} Point */
/** @typedef {import("../index.js").Rules} Rules */
/** @typedef {import("../index.js").Resolve} Resolve */
/** @typedef {import("../index.js").MoveResult} MoveResult */
/** @typedef {import("../index.js").MoveRequest} MoveRequest */
/** The demo's tokens always carry their id and level (a request may leave them out). @typedef {import("../index.js").Token & {id: string, z: number}} Token */
/** @typedef {import("../index.js").CoverRequest} CoverRequest */
/** @typedef {import("../index.js").CoverResult} CoverResult */
/** @typedef {import("../index.js").Line} Line */
/** @typedef {import("../index.js").Wall} Wall  a thin wall (SPEC §5.6), as requests carry it: ends in squares on the plane */
/** @typedef {import("../index.js").Bounds} Bounds */
/** @typedef {import("../index.js").SceneRequest} SceneRequest  an evaluate request without its board */
/** @typedef {import("../index.js").Scene} EngineScene  a board kept by the engine (CONTRACT scene); not the demo's Scene */
/** @typedef {import("../index.js").SceneEditInput} SceneEditInput */
/** @typedef {import("../index.js").Feat} Feat */
/** @typedef {import("../index.js").FullAttackItem} Item  a thing held in a hand (SPEC §9.1) */
/** @typedef {import("../index.js").FullAttackNatural} Natural */
/** @typedef {import("../index.js").FullAttackStep} FullAttackStep */
/** @typedef {import("../index.js").FullAttackRequest} FullAttackRequest */
/** @typedef {import("../index.js").FullAttackResult} FullAttackResult */
/** @typedef {import("../index.js").PricedStep} PricedStep */
/** @typedef {import("../overlay.js").DrawSummary} DrawSummary  the overlay's summary of an answer it drew (with details: all but cells and lines) */
/** @typedef {import("../overlay.js").Overlay} Overlay */
/** @typedef {import("../overlay.js").OverlayModule} OverlayModule */
/** @typedef {import("../overlay.js").OverlayView} OverlayView */
/** @typedef {"N" | "E" | "S" | "W"} Quarter */
/** @typedef {"none" | "alliesExcluded" | "enemiesOnly" | "selective"} Trait */
/** @typedef {"" | "tdgs" | "drawsteel" | "none"} CoverOverride  "": the rule set's own (CONTRACT cover) */
/** @typedef {"move" | "wall" | "low" | "erase" | "path" | "thin" | "pan" | "spare" | "slide" | "add"} Tool  "wall" paints solid squares, "thin" draws thin walls, "pan" drags the view, "spare" takes squares out of the area (selective targeting), "slide" lays a slide's path (the Forced movement section's Lay the path), "add" puts a creature on the square clicked */
/** @typedef {"caster" | "origin" | "line" | "wall" | "point"} Placement  how a template is put on the board ("point": at a point, dnd5e and pf2e) */
/** @typedef {"dnd5e" | "pf2e"} PointRules  the point-origin rule sets (SPEC §10, §11) */
/** @typedef {"tdgs" | "drawsteel" | "dnd35" | "dnd5e" | "pf2e"} AttackRules  the attack cover section's rule sets (CONTRACT cover) */
/** @typedef {"free" | "compass" | "diagonal"} Turning  how a point-origin template turns: any angle, the 8 compass directions, the 4 diagonals */

/**
 * A creature as the demo keeps it: a CONTRACT Token with every field present. `height` null
 * means "as tall as it is wide" (the engine's default); `defence` is its stat for rolls.
 * @typedef {{id: string, x: number, y: number, z: number, size: number, height: number | null,
 *   facing: Direction, side: string, prone: boolean, defence: number}} Entity
 */
/** @typedef {{x: number, y: number, z: number, fill: number}} Block  an obstacle, as requests carry it */
/** @typedef {{on: boolean, stat: number, modifiers: number, luck: number, seed: number}} Rolls */
/**
 * The forced movement (CONTRACT move): a slide's `path` is the squares laid for the creature `of`
 * (the path is ignored for any other creature, and by a push or pull).
 * @typedef {{kind: "push" | "pull" | "slide", distance: number, path: CellTuple[], of: string}} Force
 */
/**
 * The scene: everything undo, localStorage and export know. Export is the evaluate request
 * built from it (buildRequest); import reads one back (readScene).
 * The full attack panel's state (`fullAttack`) is not part of the request: localStorage keeps it
 * beside it, like the handles.
 * `levels` is the board's height: its bounds run from level 0 to level levels − 1 (1: the ground
 * only, as the demo's boards always had).
 * @typedef {{cols: number, rows: number, levels: number, template: string, rules: "" | Rules,
 *   range: null | number | "self" | "touch", source: boolean, caster: Entity, tokens: Entity[],
 *   obstacles: Block[], walls: Wall[], origin: Pos, originSquare: Pos | null, aim: Pos, path: CellTuple[], orientation: Quarter,
 *   point: Point, toward: number,
 *   trait: Trait, excludeCaster: boolean, ids: string[], excludeCells: CellTuple[],
 *   barriers: null | boolean, cover: CoverOverride, applyCover: null | boolean,
 *   rolls: Rolls, force: Force, fullAttack: FullAttackPlan}} Scene
 * `ids` and `excludeCells` are the selective trait's (CONTRACT targeting; sent with it only):
 * the creatures it may affect and the squares taken out of the area. `barriers`, `cover` and
 * `applyCover` override the rule set's profile (SPEC §6); null and "" leave it.
 * `point` and `toward` are the dnd5e and pf2e areas' (SPEC §10, §11): the point of origin (in
 * squares, on the half-square lattice or, dragged with Alt, on a finer one) and the direction of
 * cones, lines and cubes, in degrees clockwise from east (0 east, 90 south), always 0 ≤ toward < 360.
 */
/**
 * The full attack panel (SPEC §9, CONTRACT fullAttack): a full-attack request with every field
 * present — the combatant, its declarations and the steps planned so far, all legal when the
 * panel added them (a later change of the combatant may make one illegal: the engine says which).
 * @typedef {{bab: number, feats: Feat[], hands: string[], holding: Record<string, Item>, natural: Natural[],
 *   twoWeapon: boolean, rapidShot: boolean, steps: FullAttackStep[]}} FullAttackPlan
 */
/** @typedef {{kind: "entity", id: string} | {kind: "origin"} | {kind: "aim"}} Sel  a thing that can be selected and dragged */
/** @typedef {{code: string, message: string, at?: number}} EngineError */

const DIRS = /** @type {Direction[]} */ (["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
const STEP = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]]; // SPEC §1.2
const QUARTERS = /** @type {Quarter[]} */ (["N", "E", "S", "W"]);
const SIDES = ["party", "enemy", "neutral"];
/** @type {Record<string, number>} SPEC §1.5 size names */
const SIZE_NAMES = { tiny: 1, small: 1, medium: 1, "1t": 1, "1s": 1, "1m": 1, "1l": 1, large: 2, huge: 3, gargantuan: 4 };
const RULES_LABEL = { tdgs: "TDGS", drawsteel: "Draw Steel", circle50: "50 % circle", dnd5e: "D&D 5e", pf2e: "Pathfinder 2e" };
/** The template a point-origin rule set starts with when the one shown is not its own. */
const POINT_SAMPLE = { dnd5e: "20-foot-radius sphere", pf2e: "20-foot burst" };
/** Feet a square (SPEC §10.3): the point-origin rule sets write sizes in feet. */
const FEET = 5;
/** The compass directions in degrees, clockwise from east (SPEC §10.2). */
const COMPASS_DEGREES = /** @type {Record<Direction, number>} */ ({ E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: 225, N: 270, NE: 315 });
/** The point handle's lattices, in squares: half squares (intersections, centres, edge midpoints), and with Alt held. */
const HALF = 0.5, FINE = 1 / 40;
const RULE_BROKEN = new Set(["out_of_range", "no_line_of_effect", "invalid_wall", "not_straight"]); // 422: a placement, not a malformed scene
const STORAGE_KEY = "aoekit-demo/scene/v1";
const BOARD_MIN = 4, BOARD_MAX = 60, MAX_TOKENS = 200, MAX_SIZE = 10, MAX_LEVELS = 8;
// Two query flags, for measuring (web/test/demo-perf.test.mjs), not offered in the page:
// ?stress=1 opens a 100 × 100 board with 200 creatures and 2 000 walls (stressScene; larger
// than the boards the demo imports, and never saved: the scene in localStorage stays as it
// was); ?stateless=1 sends the whole board with every evaluation, as the demo did before the
// engine's scenes (evaluateBoard), to compare the two.
const QUERY = new URLSearchParams(location.search);
const STRESS = QUERY.get("stress") === "1", STATELESS = QUERY.get("stateless") === "1";
const COLOURS = {
  board: "#fbfaf7", grid: "rgba(60, 64, 72, 0.16)", area: "rgba(255, 140, 0, 0.36)", areaEdge: "#e07b00",
  wall: "#3c4850", wallEdge: "#1d252a", low: "#aab6bd", lowHatch: "#5f6f78",
  party: "#1e6fd9", enemy: "#d32f2f", neutral: "#8d8a80", hit: "#ffd400", ink: "#1f2328",
  clear: "#2fbf4a", blocked: "#ff3b3b", handle: "#6a1b9a", bad: "#c62828", path: "#8d5b3e",
  thin: "#15191d", fence: "#4b5761", door: "#8d5b3e",
  // An attack's cover lines (the attack cover section), unlike an area's (clear, blocked): blue and magenta.
  attackClear: "#00acc1", attackBlocked: "#c2188a",
};
/** How faint what stands on another level than the one shown is drawn. */
const OTHER_LEVEL_ALPHA = 0.3;

// The full attack panel (SPEC §9). The feats in the order of §9.1 (the panel's checkboxes), the
// items offered in hand and for a draw, the names of the arms added after main and off (at most
// four arms: the engine takes eight), and the budgets' names.
const FEATS = /** @type {Feat[]} */ (["twoWeaponFighting", "improvedTwoWeaponFighting", "greaterTwoWeaponFighting", "rapidShot", "quickDraw", "multiattack"]);
const ITEM_KINDS = /** @type {Item["kind"][]} */ (["light", "oneHanded", "twoHanded", "double", "lightShield", "heavyShield"]);
const KIND_LABEL = { light: "light", oneHanded: "one-handed", twoHanded: "two-handed", double: "double", lightShield: "light shield", heavyShield: "heavy shield" };
/** @type {[string, string, Item][]} key, label, item */
const ITEM_PRESETS = [
  ["longsword", "longsword (one-handed)", { id: "longsword", kind: "oneHanded" }],
  ["dagger", "dagger (light, thrown)", { id: "dagger", kind: "light", ranged: "thrown" }],
  ["greatsword", "greatsword (two-handed)", { id: "greatsword", kind: "twoHanded" }],
  ["quarterstaff", "quarterstaff (double)", { id: "quarterstaff", kind: "double" }],
  ["longbow", "longbow (two-handed, projectile)", { id: "longbow", kind: "twoHanded", ranged: "projectile" }],
  ["light shield", "light shield", { id: "light shield", kind: "lightShield" }],
  ["heavy shield", "heavy shield", { id: "heavy shield", kind: "heavyShield" }],
];
const ARMS = ["main", "off", "third", "fourth"];
const AS_LABEL = { primary: "primary sequence", off: "off-hand sequence", extra: "Rapid Shot's extra attack", natural: "natural" };

/** The panel's first combatant: a fighter with BAB +6 and a longsword, the off hand empty. @returns {FullAttackPlan} */
function defaultFullAttack() {
  return {
    bab: 6, feats: [], hands: ["main", "off"], holding: { main: { id: "longsword", kind: "oneHanded" } }, natural: [],
    twoWeapon: false, rapidShot: false, steps: [],
  };
}

// ---------------------------------------------------------------------------------------------
// DOM

/**
 * The element with this id, checked to be of the expected class.
 * @template {Element} T
 * @param {string} id
 * @param {{new (): T, prototype: T}} type
 * @returns {T}
 */
function $(id, type) {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`demo: #${id} is missing or not a ${type.name}`);
  return el;
}
/** The board's top layer (handles, tools, range, UI), which takes the pointer; under it the result (the overlay's) and the cached board. */
const canvas = $("board", HTMLCanvasElement);
/** The context drawn on: the board canvas's, or the still layer's while it is drawn (paintStill). */
let ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
/** The still layer: the board, obstacles, grid, thin walls and plain creatures, drawn again only when they change. */
const stillCanvas = $("board-still", HTMLCanvasElement);
/** The result layer: the Go overlay's canvas (attached by attachResult). */
const resultCanvas = $("board-result", HTMLCanvasElement);
/** Over the board canvas, the labels: the badges (cover grades, rolls, "in own area") and, above them, the names (drawLabels). */
const badgesCanvas = $("board-badges", HTMLCanvasElement);
const namesCanvas = $("board-names", HTMLCanvasElement);
const dom = {
  wrap: $("board-wrap", HTMLDivElement), note: $("board-note", HTMLParagraphElement),
  notation: $("notation", HTMLInputElement), notationError: $("notation-error", HTMLDivElement),
  directionNote: $("direction-note", HTMLParagraphElement), linesAll: $("lines-all", HTMLInputElement),
  legendForce: $("legend-force", HTMLLIElement), wallOptions: $("wall-options", HTMLDivElement),
  confirmReplace: $("confirm-replace", HTMLDialogElement), helpHeading: $("h-help", HTMLHeadingElement),
  presets: $("presets", HTMLSelectElement), info: $("template-info", HTMLParagraphElement),
  rules: $("rules", HTMLSelectElement), rulesNote: $("rules-note", HTMLSpanElement),
  range: $("range", HTMLInputElement), rangeNote: $("range-note", HTMLSpanElement), rangeError: $("range-error", HTMLDivElement),
  sourceRow: $("source-row", HTMLDivElement), source: $("source", HTMLInputElement), sourceText: $("source-text", HTMLSpanElement),
  legendGrades: $("legend-grades", HTMLLIElement), legendDnd5e: $("legend-grades-dnd5e", HTMLLIElement), legendPf2e: $("legend-grades-pf2e", HTMLLIElement),
  trait: $("trait", HTMLSelectElement), excludeCaster: $("exclude-caster", HTMLInputElement),
  selectiveNote: $("selective-note", HTMLParagraphElement),
  barriers: $("barriers", HTMLSelectElement), cover: $("cover", HTMLSelectElement), applyCover: $("apply-cover", HTMLSelectElement),
  shapes: Array.from(document.querySelectorAll("#palette button.shape"), (b) => /** @type {HTMLButtonElement} */ (b)),
  status: $("status", HTMLParagraphElement), targets: $("targets", HTMLOListElement), targetsEmpty: $("targets-empty", HTMLParagraphElement),
  tokens: $("tokens", HTMLUListElement), addToken: $("add-token", HTMLButtonElement),
  editor: $("editor", HTMLFormElement), editorTitle: $("editor-title", HTMLLegendElement), editorError: $("editor-error", HTMLDivElement),
  edId: $("ed-id", HTMLInputElement), edSide: $("ed-side", HTMLSelectElement), edSize: $("ed-size", HTMLInputElement),
  edHeight: $("ed-height", HTMLInputElement), edZ: $("ed-z", HTMLInputElement), edFacing: $("ed-facing", HTMLSelectElement),
  edDefence: $("ed-defence", HTMLInputElement), edProne: $("ed-prone", HTMLInputElement),
  makeCaster: $("make-caster", HTMLButtonElement), removeToken: $("remove-token", HTMLButtonElement),
  rolls: $("rolls", HTMLInputElement), rollsFields: $("rolls-fields", HTMLDivElement), rollsError: $("rolls-error", HTMLDivElement),
  stat: $("stat", HTMLInputElement), mods: $("mods", HTMLInputElement), luck: $("luck", HTMLInputElement), seed: $("seed", HTMLInputElement),
  reroll: $("reroll", HTMLButtonElement),
  moveSection: $("move-section", HTMLDetailsElement), moveKind: $("move-kind", HTMLSelectElement), moveDistance: $("move-distance", HTMLInputElement),
  moveApply: $("move-apply", HTMLButtonElement), moveInfo: $("move-info", HTMLParagraphElement),
  slideRow: $("slide-row", HTMLDivElement), slideLay: $("slide-lay", HTMLButtonElement), slidePop: $("slide-pop", HTMLButtonElement), slideClear: $("slide-clear", HTMLButtonElement),
  originSquareRow: $("origin-square-row", HTMLDivElement), originSquareInfo: $("origin-square-info", HTMLSpanElement), originSquareClear: $("origin-square-clear", HTMLButtonElement),
  exportButton: $("export", HTMLButtonElement), importButton: $("import", HTMLButtonElement), importFile: $("import-file", HTMLInputElement),
  sample: $("sample", HTMLButtonElement), clearWalls: $("clear-walls", HTMLButtonElement), sceneMessage: $("scene-message", HTMLDivElement),
  undo: $("undo", HTMLButtonElement), redo: $("redo", HTMLButtonElement),
  zoomIn: $("zoom-in", HTMLButtonElement), zoomOut: $("zoom-out", HTMLButtonElement), zoomFit: $("zoom-fit", HTMLButtonElement),
  zoomLabel: $("zoom-label", HTMLOutputElement),
  levelUp: $("level-up", HTMLButtonElement), levelDown: $("level-down", HTMLButtonElement), levelLabel: $("level-label", HTMLOutputElement),
  levels: $("levels", HTMLInputElement),
  rotl: $("rotl", HTMLButtonElement), rotr: $("rotr", HTMLButtonElement), turnLabel: $("turn-label", HTMLOutputElement),
  attackSection: $("attack-section", HTMLDetailsElement), atkAttacker: $("atk-attacker", HTMLSelectElement), atkTarget: $("atk-target", HTMLSelectElement),
  atkKind: $("atk-kind", HTMLSelectElement), atkRules: $("atk-rules", HTMLSelectElement), atkFlying: $("atk-flying", HTMLInputElement),
  atkPick: $("atk-pick", HTMLButtonElement), atkLedge: $("atk-ledge", HTMLButtonElement), atkError: $("atk-error", HTMLDivElement),
  atkResult: $("atk-result", HTMLParagraphElement),
  faSection: $("full-attack-section", HTMLDetailsElement), faBab: $("fa-bab", HTMLInputElement),
  faFeats: Array.from(document.querySelectorAll("input.fa-feat"), (b) => /** @type {HTMLInputElement} */ (b)),
  faHands: $("fa-hands", HTMLOListElement), faAddHand: $("fa-add-hand", HTMLButtonElement), faRemoveHand: $("fa-remove-hand", HTMLButtonElement),
  faNaturals: $("fa-naturals", HTMLUListElement), faNatId: $("fa-nat-id", HTMLInputElement), faNatPrimary: $("fa-nat-primary", HTMLInputElement),
  faNatHand: $("fa-nat-hand", HTMLSelectElement), faNatAdd: $("fa-nat-add", HTMLButtonElement),
  faTwoWeapon: $("fa-two-weapon", HTMLInputElement), faRapidShot: $("fa-rapid-shot", HTMLInputElement),
  faCombatantError: $("fa-combatant-error", HTMLDivElement),
  faSteps: $("fa-steps", HTMLOListElement), faStepsEmpty: $("fa-steps-empty", HTMLParagraphElement),
  faPop: $("fa-pop", HTMLButtonElement), faClear: $("fa-clear", HTMLButtonElement), faError: $("fa-error", HTMLDivElement),
  faNext: $("fa-next", HTMLUListElement), faNextEmpty: $("fa-next-empty", HTMLParagraphElement), faDrops: $("fa-drops", HTMLDivElement),
  faDrawItem: $("fa-draw-item", HTMLSpanElement), faDrawHand: $("fa-draw-hand", HTMLSelectElement),
  faDrawPair: $("fa-draw-pair", HTMLSpanElement), faDrawHand2: $("fa-draw-hand2", HTMLSelectElement), faDraw: $("fa-draw", HTMLButtonElement),
  faStatus: $("fa-status", HTMLParagraphElement),
  help: $("help", HTMLDialogElement), helpButton: $("help-button", HTMLButtonElement),
  tools: Array.from(document.querySelectorAll("button.tool"), (b) => /** @type {HTMLButtonElement} */ (b)),
  wallDoor: $("wall-door", HTMLButtonElement), wallFence: $("wall-fence", HTMLButtonElement),
  wallDelete: $("wall-delete", HTMLButtonElement), wallInfo: $("wall-info", HTMLOutputElement), sampleRoom: $("sample-room", HTMLButtonElement),
};

// ---------------------------------------------------------------------------------------------
// Scenes

/**
 * A creature with every field filled in.
 * @param {Partial<Entity> & {id: string, x: number, y: number}} e
 * @returns {Entity}
 */
function entity(e) {
  return { z: 0, size: 1, height: null, facing: "N", side: "neutral", prone: false, defence: 0, ...e };
}

/**
 * The sample scene: a cone from the wizard catching a goblin in the open, a brute behind a low
 * wall (half cover), a sneak behind another (partial), an orc, an archer behind a full wall
 * (full cover: not affected) and an ally (areas hit every side, SPEC §2.1); a bandit stands
 * outside.
 * @returns {Scene}
 */
function sampleScene() {
  /** @type {Block[]} */
  const obstacles = [];
  const wall = (/** @type {number} */ x, /** @type {number} */ y, fill = 1) => obstacles.push({ x, y, z: 0, fill });
  wall(8, 8, 0.5);                                      // low wall before the brute
  wall(9, 10, 0.5); wall(10, 10, 0.5);                  // low wall before the sneak
  wall(10, 3); wall(10, 4); wall(11, 2); wall(12, 2); wall(12, 3); // the archer's nook
  for (const x of [3, 4, 5]) wall(x, 13);
  wall(16, 9); wall(16, 10);
  return {
    cols: 24, rows: 16, levels: 1, template: "Con6N", rules: "", range: null, source: false,
    caster: entity({ id: "Wizard", x: 5, y: 8, facing: "E", side: "party" }),
    tokens: [
      entity({ id: "Goblin", x: 8, y: 6, side: "enemy", defence: 4 }),
      entity({ id: "Brute", x: 9, y: 8, side: "enemy", defence: 3 }),
      entity({ id: "Sneak", x: 10, y: 11, side: "enemy", defence: 6 }),
      entity({ id: "Orc", x: 10, y: 6, size: 2, side: "enemy", defence: 3 }),
      entity({ id: "Archer", x: 11, y: 3, side: "enemy", defence: 5 }),
      entity({ id: "Paladin", x: 7, y: 9, side: "party", defence: 5 }),
      entity({ id: "Bandit", x: 18, y: 12, side: "neutral", defence: 2 }),
    ],
    obstacles, walls: [],
    origin: { x: 15, y: 6, z: 0 }, originSquare: null, aim: { x: 10, y: 8, z: 0 }, path: [], orientation: "N",
    point: { x: 15, y: 6, z: 0 }, toward: 0,
    trait: "none", excludeCaster: false, ids: [], excludeCells: [],
    barriers: null, cover: "", applyCover: null,
    rolls: { on: false, stat: 7, modifiers: 0, luck: 0, seed: 42 },
    force: { kind: "push", distance: 3, path: [], of: "" },
    fullAttack: defaultFullAttack(),
  };
}
const SAMPLE_SELECTED = "Sneak"; // partial cover: its blocked lines show on first load

/**
 * The stress board (?stress=1): 100 × 100 squares, the caster in the middle of a clear band
 * (rows 47…52) where a Cir5 is dragged, 200 creatures and 2 000 walls (a quarter of them low)
 * strewn pseudo-randomly (a fixed seed: the same board every time) over the rest.
 * @returns {Scene}
 */
function stressScene() {
  const s = sampleScene();
  s.cols = 100; s.rows = 100;
  s.template = "Cir5"; s.rules = ""; s.range = null; s.source = false;
  s.caster = entity({ id: "Caster", x: 50, y: 50, facing: "E", side: "party" });
  s.origin = { x: 60, y: 50, z: 0 };
  s.aim = { x: 61, y: 50, z: 0 };
  let seed = 12345;
  const next = (/** @type {number} */ n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  /** @type {Set<string>} */
  const taken = new Set(["50,50"]);
  const free = () => {
    for (;;) {
      const x = next(100), y = next(100);
      if (y >= 47 && y <= 52) continue;
      if (!taken.has(`${x},${y}`)) { taken.add(`${x},${y}`); return { x, y }; }
    }
  };
  s.tokens = [];
  for (let i = 0; i < 200; i++) {
    const { x, y } = free();
    s.tokens.push(entity({ id: `T${i + 1}`, x, y, side: SIDES[i % 3], defence: 2 + (i % 5) }));
  }
  s.obstacles = [];
  for (let i = 0; i < 2000; i++) {
    const { x, y } = free();
    s.obstacles.push({ x, y, z: 0, fill: i % 4 === 0 ? 0.5 : 1 });
  }
  s.walls = [];
  return s;
}

/** @type {Scene} */
let scene = sampleScene();

/** Everything derived from the scene, or transient. */
const ui = {
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

/** @param {Scene} s */
const entities = (s) => [s.caster, ...s.tokens];
/** @param {string} id */
const findEntity = (id) => entities(scene).find((e) => e.id === id) ?? null;
/** @param {Entity} e */
const heightOf = (e) => e.height ?? e.size;
/** @param {Block | Pos} c */
const key = (c) => `${c.x},${c.y},${c.z}`;

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
function blockedAt(e, p) {
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
function entityAt(x, y, z) {
  return entities(scene).find((e) => x >= e.x && x < e.x + e.size && y >= e.y && y < e.y + e.size && e.z <= z && e.z + heightOf(e) > z) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Templates and requests

/**
 * How a template is put on the board: from the caster (cones, lines, auras, bursts, close
 * circles: they follow it), at an origin cell (circles, rectangles, cubes; TDGS cones and lines
 * in source mode), a Draw Steel line (origin and aim), or a Draw Steel wall (its squares).
 * @param {Template} t @param {Scene} s @returns {Placement}
 */
function placementOf(t, s) {
  if (isPoint(t)) {
    // SPEC §10.7, §11.2: an emanation spreads from the caster's space; a cone or a line starts
    // at the caster's edge unless given a point; every other shape is placed at its point.
    if (t.shape === "emanation") return "caster";
    if (t.shape === "cone" || t.shape === "line") return s.source ? "point" : "caster";
    return "point";
  }
  if (t.rules === "tdgs") return t.shape === "cone" || t.shape === "line" ? (s.source ? "origin" : "caster") : "origin";
  if (t.rules === "drawsteel") {
    if (t.shape === "aura" || t.shape === "burst") return "caster";
    return t.shape === "line" ? "line" : t.shape === "wall" ? "wall" : "origin";
  }
  return t.close ? "caster" : "origin";
}

/** Whether a rule set is a point-origin one (SPEC §10, §11). @param {string} r @returns {r is PointRules} */
const isPointRules = (r) => r === "dnd5e" || r === "pf2e";
/** Whether a template is a point-origin one (dnd5e, pf2e). @param {Template | null} t */
const isPoint = (t) => !!t && isPointRules(t.rules);
/** Whether a point-origin template must start on a grid intersection: a cube or a pf2e burst (SPEC §10.5, §11.2). @param {Template | null} t */
const onIntersection = (t) => isPoint(t) && !!t && (t.shape === "cube" || t.shape === "burst");
/**
 * How a point-origin template turns (SPEC §10.2, §10.5, §11.2), or null when it has no
 * direction: a dnd5e cone and either line any way, a pf2e cone the 8 compass directions, a cube
 * toward one of the 4 diagonals.
 * @param {Template | null} t @returns {Turning | null}
 */
function turningOf(t) {
  if (!t || !isPoint(t)) return null;
  if (t.shape === "cube") return "diagonal";
  if (t.shape === "line") return "free";
  if (t.shape === "cone") return t.rules === "pf2e" ? "compass" : "free";
  return null;
}
/** An angle in degrees brought into 0 ≤ d < 360, to the 1/400 of a degree the engine reads (SPEC §10.2). @param {number} d */
function degrees(d) {
  const r = Math.round((((d % 360) + 360) % 360) * 400) / 400;
  return r >= 360 ? 0 : r;
}
/** The compass direction at exactly d degrees, or null. @param {number} d */
function compassAt(d) {
  return DIRS.find((n) => COMPASS_DEGREES[n] === degrees(d)) ?? null;
}
/**
 * The direction a template takes from the scene's: as it is (free), the nearest compass
 * direction (a pf2e cone), the nearest diagonal (a cube), in degrees.
 * @param {Turning} how @param {number} d
 */
function snapToward(how, d) {
  if (how === "compass") return degrees(Math.round(d / 45) * 45);
  if (how === "diagonal") return degrees(Math.round((d - 45) / 90) * 90 + 45);
  return degrees(d);
}
/** `toward` as a request carries it: the compass name when the direction is one, else degrees (SPEC §10.2). @param {Turning} how @param {number} d @returns {Direction | number} */
function towardOut(how, d) {
  const v = snapToward(how, d);
  return compassAt(v) ?? v;
}
/** Squares in feet, beside them: "4 squares (20 ft)". @param {number} n @param {string} [unit] */
const feet = (n, unit = "square") => `${n} ${unit}${n === 1 ? "" : "s"} (${n * FEET} ft)`;
/** A coordinate of a point (on the board: never negative) as a player reads it: 10, 10½, 10.025. @param {number} v */
function coord(v) {
  if (Number.isInteger(v)) return String(v);
  if (Number.isInteger(v * 2)) return `${Math.floor(v) || ""}½`;
  return String(Math.round(v * 400) / 400);
}

/**
 * The range that limits the placement, in squares, or null for none: the Range field, else a
 * Draw Steel `within` (SPEC §3.1). `self` is 0 (the caster's own space), `touch` 1 (SPEC §2.9).
 * @param {Template} t @param {Scene} s
 */
function rangeOf(t, s) {
  if (placementOf(t, s) === "caster") return null;
  const r = s.range ?? t.within ?? null;
  return r === "self" ? 0 : r === "touch" ? 1 : r;
}

/**
 * @param {Entity} e @param {boolean} caster
 * @returns {Token}
 */
function tokenOut(e, caster) {
  /** @type {Token} */
  const t = { id: e.id, x: e.x, y: e.y, z: e.z, size: e.size };
  if (e.height !== null) t.height = e.height;
  if (caster) t.facing = e.facing;
  if (e.side) t.side = e.side;
  if (e.prone) t.prone = true;
  return t;
}

/**
 * A thin wall as requests carry it (CONTRACT Wall): only the fields it sets.
 * @param {Wall} w @returns {Wall}
 */
function wallOut(w) {
  /** @type {Wall} */
  const out = { a: [w.a[0], w.a[1]], b: [w.b[0], w.b[1]] };
  if (w.bottom !== undefined) out.bottom = w.bottom;
  if (w.top !== undefined) out.top = w.top;
  if (w.open !== undefined) out.open = w.open; // false: a door, closed (a wall without it is no door)
  return out;
}

/**
 * A board as requests carry it (CONTRACT evaluate): the tokens (never the caster), the obstacles,
 * the thin walls and the bounds. Fresh objects, never changed afterwards.
 * @typedef {{tokens: Token[], obstacles: Block[], walls: Wall[], bounds: Bounds}} BoardCopy
 */

/** The board of a scene, as requests carry it. @param {Scene} s @returns {BoardCopy} */
function boardOf(s) {
  return {
    tokens: s.tokens.map((e) => tokenOut(e, false)),
    obstacles: s.obstacles.map((o) => ({ ...o })),
    walls: s.walls.map(wallOut),
    bounds: { min: [0, 0, 0], max: [s.cols - 1, s.rows - 1, s.levels - 1] },
  };
}

/**
 * The evaluate request for a scene without its board (what a scene of the engine takes each
 * frame): only the fields the template uses; an empty Range is no range at all.
 * @param {Scene} s @param {Template} t @returns {SceneRequest}
 */
function frameRequest(s, t) {
  /** @type {SceneRequest} */
  const req = { template: s.template };
  if (s.rules) req.rules = s.rules;
  req.caster = tokenOut(s.caster, true);
  const place = placementOf(t, s);
  if (place === "point") req.point = { ...s.point };
  const turning = turningOf(t);
  if (turning) req.toward = towardOut(turning, s.toward);
  if (place === "origin" || place === "line") req.origin = { ...s.origin };
  if (place === "line") req.aim = { ...s.aim };
  if (isCube(t) && s.originSquare) req.originSquare = { ...s.originSquare };
  if (place === "wall") req.path = s.path.map((c) => /** @type {CellTuple} */ ([...c]));
  if (t.shape === "rectangle" && s.orientation !== "N") req.orientation = s.orientation;
  if (s.range !== null) req.range = s.range;
  if (s.trait === "selective") {
    const present = new Set(entities(s).map((e) => e.id));
    req.targeting = { trait: s.trait, ids: s.ids.filter((id) => present.has(id)), excludeCaster: s.excludeCaster };
    if (s.excludeCells.length > 0) req.targeting.excludeCells = s.excludeCells.map((c) => /** @type {CellTuple} */ ([...c]));
  } else if (s.trait !== "none" || s.excludeCaster) req.targeting = { trait: s.trait, excludeCaster: s.excludeCaster };
  if (s.barriers !== null) req.barriers = s.barriers;
  if (s.cover) req.cover = s.cover;
  if (s.applyCover !== null) req.applyCover = s.applyCover;
  if (s.rolls.on) req.resolve = resolveOf(s);
  return req;
}

/** The scene's rolls as a request's resolve: the settings and every creature's defence. @param {Scene} s @returns {Resolve} */
function resolveOf(s) {
  /** @type {Record<string, number>} */
  const defence = {};
  for (const e of entities(s)) if (e.defence) defence[e.id] = e.defence;
  return { stat: s.rolls.stat, modifiers: s.rolls.modifiers, luck: s.rolls.luck, seed: s.rolls.seed, defence };
}

/**
 * With Rolls off, the resolve Rolls would send, when it says anything (a defence, a setting not
 * the default): a field the engine ignores (CONTRACT: unknown fields are ignored), written with
 * the request (Export, localStorage) so that the defences are kept; never sent with a frame.
 * @param {Request} req @param {Scene} s @returns {Request & {rollsOff?: Resolve}}
 */
function withRollsOff(req, s) {
  if (s.rolls.on) return req;
  const r = resolveOf(s);
  if (Object.keys(r.defence ?? {}).length === 0 && r.stat === 7 && r.modifiers === 0 && r.luck === 0 && r.seed === 42) return req;
  return { ...req, rollsOff: r };
}

/**
 * A board's request with the board in it: the stateless request (CONTRACT evaluate), its
 * fields in the order Export has always written them.
 * @param {SceneRequest} req @param {BoardCopy} b @returns {Request}
 */
function withBoard(req, b) {
  const { targeting, resolve, ...head } = req;
  /** @type {Request} */
  const out = { ...head, tokens: b.tokens, obstacles: b.obstacles, walls: b.walls, bounds: b.bounds };
  if (targeting) out.targeting = targeting;
  if (resolve) out.resolve = resolve;
  return out;
}

/**
 * The evaluate request for a scene (CONTRACT evaluate), its board included: what Export writes
 * and what the demo's answers are answers to (the demo sends the board once, to a scene of the
 * engine, and each frame only frameRequest's part; see boardScene).
 * @param {Scene} s @param {Template} t @returns {Request}
 */
function buildRequest(s, t) {
  return withRollsOff(withBoard(frameRequest(s, t), boardOf(s)), s);
}

/**
 * Reads a notation as the scene's rule set has it: dnd5e and pf2e notation only under its rule
 * set (SPEC §10.3: the same words are other shapes in the other game); the others as written.
 * @param {Engine} engine @param {string} text @param {Scene["rules"]} rules @returns {Template}
 */
function parseAs(engine, text, rules) {
  return isPointRules(rules) ? engine.parse(text, { rules }) : engine.parse(text);
}

/** @param {unknown} err @returns {EngineError} */
function engineError(err) {
  if (err && typeof err === "object") {
    const e = /** @type {{code?: unknown, message?: unknown, at?: unknown}} */ (err);
    return { code: typeof e.code === "string" ? e.code : "error", message: String(e.message ?? err), ...(typeof e.at === "number" ? { at: e.at } : {}) };
  }
  return { code: "error", message: String(err) };
}

// ---------------------------------------------------------------------------------------------
// The engine's scene (CONTRACT scene): the board, sent once and kept by the engine, changed by
// edits; each frame then sends only the template, the caster and the handles. Its answers are
// exactly evaluate's with the board in the request (buildRequest), which is what the demo
// shows and Export writes. The demo's board changes in many places (drags, painting, walls,
// the editor, undo and redo, imports, samples): rather than each of them telling the engine,
// every evaluation first compares the board with the copy the engine's scene holds (a few
// thousand comparisons, no copy of the board, when nothing changed) and sends what differs as
// one update — or, when much of it changed (an import, a sample), makes a new scene.

/**
 * The engine's scene of the demo's board: `held` is the board it holds, as requests carry it
 * (a copy in the demo's order: the tokens in the scene's board order, which is the order of
 * the answer's targets); `broken` when the engine refused to make a scene of `held` (the
 * frame then goes without one, and the engine's refusal is the answer, as before scenes).
 * `made` and `updates` count the scenes made and the edits sent (for the tests).
 * @type {{scene: EngineScene | null, engine: Engine | null, held: BoardCopy | null, broken: boolean, made: number, updates: number}}
 */
const board = { scene: null, engine: null, held: null, broken: false, made: 0, updates: 0 };
/** Edits larger than this, and than half of the board, make a new scene instead. */
const BULK_EDIT = 64;

/** Whether an engine error is a scene's refusal after the engine restarted (CONTRACT scene). @param {unknown} err */
function sceneRestarted(err) {
  return err instanceof Error && err.message.includes("the engine restarted since this scene was made");
}

/** Forgets the engine's scene; the next evaluation makes a new one (after an import or a sample). */
function dropBoardScene() {
  const sc = board.scene;
  board.scene = null;
  board.engine = null;
  board.held = null;
  board.broken = false;
  if (sc) {
    try {
      sc.dispose();
    } catch {
      // a scene of an engine that restarted: it went with it
    }
  }
}

/**
 * Whether two flat objects (tokens as tokenOut writes them) have the same fields and values.
 * @param {object} a @param {object} b
 */
function sameFlat(a, b) {
  const x = /** @type {Record<string, unknown>} */ (a), y = /** @type {Record<string, unknown>} */ (b);
  let n = 0;
  for (const k in x) {
    if (x[k] !== y[k]) return false;
    n++;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** @param {Wall} a @param {Wall} b */
const sameWall = (a, b) => a.a[0] === b.a[0] && a.a[1] === b.a[1] && a.b[0] === b.b[0] && a.b[1] === b.b[1] &&
  a.bottom === b.bottom && a.top === b.top && a.open === b.open;

/** Whether the scene's board differs from a copy of it. @param {BoardCopy} held @param {Scene} s */
function boardChanged(held, s) {
  if (held.bounds.max[0] !== s.cols - 1 || held.bounds.max[1] !== s.rows - 1 || held.bounds.max[2] !== s.levels - 1) return true;
  if (held.tokens.length !== s.tokens.length || held.obstacles.length !== s.obstacles.length || held.walls.length !== s.walls.length) return true;
  for (let i = 0; i < s.tokens.length; i++) {
    if (!sameFlat(held.tokens[i], tokenOut(s.tokens[i], false))) return true;
  }
  for (let i = 0; i < s.obstacles.length; i++) {
    const a = held.obstacles[i], b = s.obstacles[i];
    if (a.x !== b.x || a.y !== b.y || a.z !== b.z || a.fill !== b.fill) return true;
  }
  for (let i = 0; i < s.walls.length; i++) if (!sameWall(held.walls[i], s.walls[i])) return true;
  return false;
}

/**
 * Obstacles as the engine's scenes take them fastest: an Int32Array of x, y, z, fill quads, the
 * fill in 1/400 (CONTRACT scene). A fill off that lattice (an imported 0.3337) keeps the objects,
 * whose decimal fill the engine rounds exactly as it rounds a request's.
 * @param {Block[]} blocks @returns {Block[] | Int32Array}
 */
function packObstacles(blocks) {
  const out = new Int32Array(blocks.length * 4);
  for (let i = 0; i < blocks.length; i++) {
    const o = blocks[i], n = o.fill * 400;
    if (!Number.isInteger(n) || n < 1 || n > 400) return blocks;
    out[4 * i] = o.x;
    out[4 * i + 1] = o.y;
    out[4 * i + 2] = o.z;
    out[4 * i + 3] = n;
  }
  return out;
}

/**
 * The scene edit that takes the engine's board from `held` to `next`, or null when a new scene
 * is cheaper. The tokens keep `next`'s order (the order of the targets): a token that stays in
 * place is put again only if it changed (a move, a new side); from the first one out of place
 * on (a creature made the caster, another renamed), they are taken off and put back in order.
 * @param {BoardCopy} held @param {BoardCopy} next @returns {SceneEditInput | null}
 */
function boardEdit(held, next) {
  /** @type {SceneEditInput} */
  const edit = {};
  const ids = new Set(next.tokens.map((t) => t.id));
  const remove = held.tokens.filter((t) => !ids.has(t.id)).map((t) => t.id);
  const kept = held.tokens.filter((t) => ids.has(t.id));
  let p = 0;
  while (p < kept.length && kept[p].id === next.tokens[p].id) p++;
  for (const t of kept.slice(p)) remove.push(t.id);
  const put = next.tokens.slice(0, p).filter((t, i) => !sameFlat(t, kept[i]));
  put.push(...next.tokens.slice(p));
  if (remove.length > 0) edit.remove = remove;
  if (put.length > 0) edit.tokens = put;

  /** @type {Map<string, number>} */
  const before = new Map(held.obstacles.map((o) => [key(o), o.fill]));
  /** @type {Set<string>} */
  const now = new Set();
  /** @type {Block[]} */
  const set = [];
  for (const o of next.obstacles) {
    const k = key(o);
    now.add(k);
    if (before.get(k) !== o.fill) set.push(o);
  }
  /** @type {CellTuple[]} */
  const clear = held.obstacles.filter((o) => !now.has(key(o))).map((o) => [o.x, o.y, o.z]);
  if (clear.length > 0) edit.clear = clear;
  if (set.length > 0) edit.obstacles = packObstacles(set);

  if (held.walls.length !== next.walls.length || held.walls.some((w, i) => !sameWall(w, next.walls[i]))) edit.walls = next.walls;
  const [hx, hy, hz] = held.bounds.max, [nx, ny, nz] = next.bounds.max;
  if (hx !== nx || hy !== ny || hz !== nz) edit.bounds = next.bounds;

  const size = remove.length + put.length + clear.length + set.length;
  return size > BULK_EDIT && size > (next.tokens.length + next.obstacles.length) / 2 ? null : edit;
}

/**
 * The engine's scene holding the demo's board as it is now (made, or brought up to date), or
 * null when the engine refuses the board: the frame then sends the whole board, and gets the
 * engine's error for it exactly as before. Its board is board.held.
 * @param {Engine} engine @returns {EngineScene | null}
 */
function boardScene(engine) {
  if (board.engine !== engine) dropBoardScene();
  if (board.held && !boardChanged(board.held, scene)) return board.broken ? null : board.scene;
  const next = boardOf(scene);
  if (board.scene && board.held) {
    const edit = boardEdit(board.held, next);
    if (edit) {
      try {
        board.scene.update(edit);
        board.updates++;
        board.held = next;
        return board.scene;
      } catch {
        // an engine that restarted, or an edit the engine refuses (its errors would name the
        // edit's entries, not the board's): a new scene of the whole board says it as evaluate does
      }
    }
  }
  dropBoardScene();
  board.engine = engine;
  board.held = next;
  try {
    board.scene = engine.scene({ ...next, obstacles: packObstacles(next.obstacles) });
    board.made++;
  } catch {
    board.broken = true;
  }
  return board.scene;
}

/**
 * Evaluates a frame's request against the demo's board and has the overlay draw the answer:
 * through the engine's scene of it, or with the board in the request when there is none
 * (?stateless=1, or a board the engine refuses). A scene that went with a restarted engine is
 * made again, once. The board the answer (or the error) is for becomes ui.requestBoard.
 * @param {Engine} engine @param {SceneRequest} req @returns {DrawSummary}
 */
function drawBoard(engine, req) {
  for (let attempt = 0; ; attempt++) {
    const sc = STATELESS ? null : boardScene(engine);
    const b = STATELESS ? boardOf(scene) : /** @type {BoardCopy} */ (board.held);
    ui.requestBoard = b;
    try {
      return paintResult(sc ? req : withBoard(req, b), sc);
    } catch (err) {
      if (!sc || attempt > 0 || !sceneRestarted(err)) throw err;
      dropBoardScene();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The result layer: the overlay (aoekit-overlay.wasm's renderer) draws the answer on its own
// canvas, in the demo's colours, from the answer the engine holds — the area on the level shown
// (one ImageData of a pixel a square, scaled), its outline, the hovered or selected creature's
// cover lines (or every target's), and the creatures the answer is about (and the caster, the
// selected and the hovered one) with their rings, over their plain selves of the still layer;
// those off the level shown faint. The names and badges are the demo's own, on the label layers
// above every line (drawLabels).

/** The overlay's look in the demo: attach's defaults, every draw's. @type {OverlayView} */
const RESULT_LOOK = {
  tokens: "disc", labels: false, badges: false, outline: true, lines: "selected", walls: false, obstacles: false,
  unlisted: false, otherLevels: OTHER_LEVEL_ALPHA, details: true,
};

/** Attaches the overlay to the result layer at the board canvas's size (again after a resize). */
function attachResult() {
  if (!ui.overlays) return;
  if (ui.overlay) ui.overlay.detach();
  ui.overlay = ui.overlays.attach(resultCanvas, { ...RESULT_LOOK, width: viewW(), height: viewH(), devicePixelRatio: ui.dpr });
  ui.drawn = null;
}

/** What a draw of the result shows, in the view: the selection, the creature whose lines show, the level, the pan and zoom. */
function resultView() {
  const sel = ui.selected && ui.selected.kind === "entity" ? ui.selected.id : null;
  /** @type {{selected: string | null, focus: string | null, level: number, cellSize: number, offset: {x: number, y: number}, lines: "selected" | "all"}} */
  const v = { selected: sel, focus: focusId(), level: ui.level, cellSize: ui.sq, offset: { x: -view.x, y: -view.y }, lines: ui.linesAll ? "all" : "selected" };
  return v;
}

/**
 * Has the overlay evaluate req (against sc, a scene of its engine, when given) and draw its
 * answer in the current view; returns its summary. A refused request throws the engine's error,
 * and the layer keeps what it showed (the caller clears it).
 * @param {Request | SceneRequest} req @param {EngineScene | null} sc @returns {DrawSummary}
 */
function paintResult(req, sc) {
  const overlay = /** @type {Overlay} */ (ui.overlay);
  const v = resultView();
  const t0 = performance.now();
  const summary = overlay.draw(req, sc ? { ...v, scene: sc } : v);
  ui.timing.overlay = performance.now() - t0;
  ui.drawn = { request: req, scene: sc, key: JSON.stringify(v), focus: v.focus, level: v.level, all: v.lines === "all" };
  return summary;
}

/** Erases the result layer: no answer to show. */
function clearResult() {
  ui.drawn = null;
  if (ui.overlay) ui.overlay.clear();
}

/** The selected creature that a forced movement would move (never the caster), or null. */
function forceTarget() {
  const sel = ui.selected;
  if (!dom.moveSection.open) return null;
  if (!sel || sel.kind !== "entity" || sel.id === scene.caster.id) return null;
  return findEntity(sel.id);
}

/** Whether a template is a Draw Steel cube (its origin square can be chosen: SPEC §3.4). @param {Template | null} t */
const isCube = (t) => !!t && t.rules === "drawsteel" && t.shape === "cube";

/** The slide's path laid for the creature that would move (empty for a push or pull, or for another creature). */
function slidePath() {
  const t = forceTarget();
  return t && scene.force.kind === "slide" && scene.force.of === t.id ? scene.force.path : [];
}

/** Asks the engine about the scene: the template, its placement, the area and the targets. */
function evaluateScene() {
  ui.summary = null;
  ui.error = null;
  ui.ghost = [];
  ui.waiting = "";
  ui.request = null;
  ui.requestBoard = null;
  ui.moveRequest = null;
  ui.move = null;
  ui.moveError = "";
  const engine = ui.engine;
  if (!engine) return;
  ui.template = parseAs(engine, scene.template, scene.rules); // scene.template is only ever set to text that parses (under scene.rules)
  const t = ui.template;
  const place = placementOf(t, scene);
  if (place === "wall" && scene.path.length === 0) {
    clearResult();
    ui.waiting = `Lay the wall: click or drag on the board to add its squares (up to ${t.squares}), each sharing a side with another.`;
  } else {
    const req = frameRequest(scene, t);
    ui.request = req;
    try {
      ui.summary = drawBoard(engine, req);
    } catch (err) {
      clearResult();
      ui.error = engineError(err);
      if (RULE_BROKEN.has(ui.error.code) && place !== "caster" && ui.requestBoard) {
        // Show where the template would go, hatched, without the rule that refused it: the
        // widest range first (it replaces a Draw Steel `within`), then without the caster.
        // Without the tokens too, so with the board in the request (a scene holds its tokens).
        const { caster, range, targeting, resolve, ...rest } = withBoard(req, ui.requestBoard);
        for (const ghost of [{ ...rest, caster, range: 1000, tokens: [] }, { ...rest, tokens: [] }]) {
          try {
            const packed = engine.evaluateCells(ghost);
            for (let i = 0; i < packed.length; i += 3) ui.ghost.push([packed[i], packed[i + 1], packed[i + 2]]);
            break;
          } catch {
            // next; with no ghost at all, the marks on the handles and the message say it
          }
        }
      }
    }
  }
  const target = forceTarget();
  const laid = slidePath();
  if (target && (scene.force.kind !== "slide" || laid.length > 0)) {
    const c = scene.caster;
    /** @type {MoveRequest} */
    const mreq = {
      kind: scene.force.kind, distance: scene.force.distance, source: { x: c.x, y: c.y, z: c.z }, target: target.id,
      tokens: entities(scene).map((e) => tokenOut(e, false)), obstacles: scene.obstacles.map((o) => ({ ...o })),
      walls: scene.walls.map(wallOut),
      bounds: { min: [0, 0, -1000], max: [scene.cols - 1, scene.rows - 1, 1000] },
    };
    if (scene.force.kind === "slide") mreq.path = laid.map((p) => /** @type {CellTuple} */ ([...p]));
    ui.moveRequest = mreq;
    try {
      ui.move = engine.move(mreq);
    } catch (err) {
      const e = engineError(err);
      ui.moveError = capital(e.message);
    }
  }
  evaluateAttack(engine);
}

/**
 * Attack cover (CONTRACT cover, SPEC §5.7), in the same update as the area: asked while the
 * section is open and both creatures are chosen.
 * @param {Engine} engine
 */
function evaluateAttack(engine) {
  ui.attackRequest = null;
  ui.attackResult = null;
  ui.attackError = null;
  const a = ui.attack;
  if (!dom.attackSection.open) return;
  const attacker = findEntity(a.attacker), target = findEntity(a.target);
  if (!attacker || !target || attacker === target) return;
  /** @type {CoverRequest} */
  const req = {
    rules: a.rules, attack: a.kind,
    attacker: { ...tokenOut(attacker, false), flying: a.flying },
    target: tokenOut(target, false),
    tokens: entities(scene).filter((e) => e !== attacker && e !== target).map((e) => tokenOut(e, false)),
    obstacles: scene.obstacles.map((o) => ({ ...o })),
    walls: scene.walls.map(wallOut),
  };
  ui.attackRequest = req;
  try {
    ui.attackResult = engine.cover(req);
  } catch (err) {
    ui.attackError = engineError(err);
  }
}

// ---------------------------------------------------------------------------------------------
// Full attack (CONTRACT fullAttack, SPEC §9): the panel keeps a full-attack request in
// scene.fullAttack — the combatant, its declarations, the steps so far — and the engine prices
// it. A step is added only if the engine takes the plan with it; a change of the combatant only
// if the engine takes the combatant (a change that makes a planned step illegal is made, and the
// engine's error names the step). The panel guesses no rule: what may come next is the engine's
// `next`, and a throw is offered where the engine takes the same attack with `throw`.

/** Whether an item is held in two hands: two-handed or double (SPEC §9.1). @param {Item} it */
const twoHands = (it) => it.kind === "twoHanded" || it.kind === "double";
/** @param {Item} a @param {Item} b */
const sameItem = (a, b) => a.id === b.id && a.kind === b.kind && (a.ranged ?? "") === (b.ranged ?? "");
/** A bonus as a player reads it: +9, +0, −1. @param {number} n */
const signed = (n) => (n < 0 ? `−${-n}` : `+${n}`);
/** @template T @param {T} v @returns {T} */
const copy = (v) => JSON.parse(JSON.stringify(v));

/** The other hand that holds the same two-handed or double item as `hand`, or null. @param {FullAttackPlan} plan @param {string} hand */
function partnerOf(plan, hand) {
  const it = plan.holding[hand];
  if (!it || !twoHands(it)) return null;
  return plan.hands.find((h) => h !== hand && plan.holding[h] !== undefined && plan.holding[h].id === it.id && twoHands(plan.holding[h])) ?? null;
}

/**
 * The plan with `hand` holding `item` at the start (null: empty). What the hand held goes, both
 * hands of it for a two-handed or double item; a two-handed or double item takes `partner` too
 * (by default the first other empty hand, else the first other hand), listed under both (SPEC
 * §9.1). A string says why it cannot be.
 * @param {FullAttackPlan} plan @param {string} hand @param {Item | null} item @param {string | null} partner
 * @returns {FullAttackPlan | string}
 */
function withHolding(plan, hand, item, partner) {
  /** @type {Record<string, Item>} */
  const h = { ...plan.holding };
  const free = (/** @type {string} */ x) => {
    const p = partnerOf({ ...plan, holding: h }, x);
    delete h[x];
    if (p) delete h[p];
  };
  free(hand);
  if (item) {
    if (twoHands(item)) {
      const other = partner ?? plan.hands.find((x) => x !== hand && !h[x]) ?? plan.hands.find((x) => x !== hand);
      if (!other || other === hand) return `A ${KIND_LABEL[item.kind]} item needs two hands.`;
      free(other);
      h[other] = { ...item };
    }
    h[hand] = { ...item };
  }
  /** @type {Record<string, Item>} in the order of the hands */
  const ordered = {};
  for (const x of plan.hands) if (h[x]) ordered[x] = h[x];
  return { ...plan, holding: ordered };
}

/** A step of the answer as a step of the request: its own fields only. @param {PricedStep} p @returns {FullAttackStep} */
function stepOf(p) {
  /** @type {FullAttackStep} */
  const st = {};
  if (p.attack !== undefined) st.attack = p.attack;
  if (p.head !== undefined) st.head = p.head;
  if (p.extra) st.extra = true;
  if (p.throw) st.throw = true;
  if (p.natural !== undefined) st.natural = p.natural;
  if (p.drop !== undefined) st.drop = p.drop;
  if (p.draw !== undefined) st.draw = p.draw;
  if (p.hands !== undefined) st.hands = [...p.hands];
  if (p.item !== undefined) st.item = { ...p.item };
  return st;
}

/**
 * What a step does, in words: "main: longsword", "bite (secondary)", "drop off", "draw greatsword
 * into main + off"; `p`, its price, names what attacks.
 * @param {FullAttackStep} st @param {PricedStep | null} p
 */
function describeStep(st, p) {
  if (st.attack !== undefined) {
    let s = `${st.attack}: ${p && p.with !== undefined ? p.with : "attack"}`;
    if (st.head !== undefined) s += ` head ${st.head}`;
    if (st.throw) s += ", thrown";
    if (st.extra) s += ", Rapid Shot";
    return s;
  }
  if (st.natural !== undefined) return `${st.natural}${p && p.secondary ? " (secondary)" : ""}`;
  if (st.drop !== undefined) return `drop ${st.drop}`;
  if (st.draw !== undefined) return `draw ${st.item ? st.item.id : "nothing"} into ${(st.hands ?? [st.draw]).join(" + ")}`;
  return "(an empty step)";
}

/** The parts of an attack's bonus (SPEC §9.8), in words. @param {PricedStep} p */
function partsText(p) {
  const q = p.parts;
  if (!q) return "";
  return `sequence ${signed(q.sequence)} · two-weapon ${signed(q.twoWeapon)} · Rapid Shot ${signed(q.rapidShot)} · natural ${signed(q.natural)}`;
}

/** An engine error about a full attack, with the step it names (`at`, 0-based). @param {EngineError} e */
function fullAttackErrorText(e) {
  return e.code + (e.at !== undefined ? ` at step index ${e.at} (step ${e.at + 1})` : "") + `: ${e.message}`;
}

/**
 * A full attack panel as localStorage kept it, rebuilt field by field, or null when it is not
 * one (the panel then starts afresh) or the engine refuses its combatant. The steps keep only a
 * step's fields; whether they are legal is the engine's to say when the panel shows them.
 * @param {unknown} v @returns {FullAttackPlan | null}
 */
function fullAttackValue(v) {
  const engine = ui.engine;
  if (!engine || !isObject(v)) return null;
  const { bab, feats, hands, holding, natural, steps } = v;
  if (typeof bab !== "number" || !Number.isInteger(bab) || !Array.isArray(feats) || !Array.isArray(hands) || !isObject(holding) ||
    !Array.isArray(natural) || !Array.isArray(steps) || steps.length > 64) return null;
  const name = (/** @type {unknown} */ x) => typeof x === "string" && x.length > 0 && x.length <= 64;
  const item = (/** @type {unknown} */ x) => {
    if (!isObject(x) || typeof x.id !== "string" || !name(x.id) || !ITEM_KINDS.includes(/** @type {Item["kind"]} */ (x.kind))) return null;
    /** @type {Item} */
    const it = { id: x.id, kind: /** @type {Item["kind"]} */ (x.kind) };
    if (x.ranged === "projectile" || x.ranged === "thrown") it.ranged = x.ranged;
    return it;
  };
  if (!hands.every(name) || hands.length > ARMS.length) return null;
  /** @type {FullAttackPlan} */
  const plan = {
    bab, feats: FEATS.filter((f) => feats.includes(f)), hands: /** @type {string[]} */ (hands), holding: {}, natural: [],
    twoWeapon: v.twoWeapon === true, rapidShot: v.rapidShot === true, steps: [],
  };
  for (const h of plan.hands) {
    const it = item(holding[h]);
    if (it) plan.holding[h] = it;
  }
  for (const n of natural) {
    if (!isObject(n) || typeof n.id !== "string") return null;
    /** @type {Natural} */
    const out = { id: n.id, primary: n.primary === true };
    if (typeof n.hand === "string") out.hand = n.hand;
    plan.natural.push(out);
  }
  for (const x of steps) {
    if (!isObject(x)) return null;
    /** @type {FullAttackStep} */
    const st = {};
    if (typeof x.attack === "string") st.attack = x.attack;
    if (typeof x.head === "number" && Number.isInteger(x.head)) st.head = x.head;
    if (x.extra === true) st.extra = true;
    if (x.throw === true) st.throw = true;
    if (typeof x.natural === "string") st.natural = x.natural;
    if (typeof x.drop === "string") st.drop = x.drop;
    if (typeof x.draw === "string") st.draw = x.draw;
    if (Array.isArray(x.hands) && x.hands.every((h) => typeof h === "string")) st.hands = /** @type {string[]} */ ([...x.hands]);
    const it = item(x.item);
    if (it) st.item = it;
    plan.steps.push(st);
  }
  try {
    engine.fullAttack({ ...plan, steps: [] });
  } catch {
    return null;
  }
  return plan;
}

/**
 * Asks the engine about the panel's plan, when it changed since the last answer: the steps
 * priced and what may come next, or the error (its `at`, the step); then, for every attack of
 * `next` that strikes, whether the engine takes it thrown.
 */
function evaluateFullAttack() {
  const engine = ui.engine;
  if (!engine) return;
  const fa = ui.fa;
  /** @type {FullAttackRequest} */
  const req = copy(scene.fullAttack);
  const sig = JSON.stringify(req);
  if (sig === fa.sig && engine === fa.engine) return;
  if (sig !== fa.sig) {
    fa.tried = null;
    fa.refused = "";
  }
  fa.sig = sig;
  fa.engine = engine;
  fa.request = req;
  fa.result = null;
  fa.error = null;
  fa.before = [];
  fa.throws = [];
  try {
    fa.result = engine.fullAttack(req);
  } catch (err) {
    const e = engineError(err);
    fa.error = e;
    if (e.at !== undefined && e.at > 0) {
      try {
        fa.before = engine.fullAttack({ ...req, steps: (req.steps ?? []).slice(0, e.at) }).steps;
      } catch {
        // the steps before it are legal (the first illegal step is the answer): not reached
      }
    }
    return;
  }
  fa.result.next.forEach((n, index) => {
    if (n.attack === undefined || n.extra || n.throw) return;
    const step = { ...stepOf(n), throw: true };
    try {
      const r = engine.fullAttack({ ...req, steps: [...(req.steps ?? []), step] });
      const last = r.steps[r.steps.length - 1];
      if (last && typeof last.bonus === "number") fa.throws.push({ index, step, bonus: last.bonus });
    } catch {
      // not a thrown weapon (not_ranged): its attack is a melee strike only
    }
  });
}

/**
 * Adds a step to the plan if the engine takes the plan with it (one undo step); otherwise the
 * plan stays as it was and the panel shows the engine's error, `at` naming the step.
 * @param {FullAttackStep} step
 */
function tryStep(step) {
  const engine = ui.engine;
  if (!engine || ui.fa.error) return; // an illegal plan takes no step: its own error is shown
  const plan = scene.fullAttack;
  try {
    engine.fullAttack({ ...copy(plan), steps: [...copy(plan.steps), step] });
  } catch (err) {
    ui.fa.tried = { step: copy(step), error: engineError(err) };
    renderPanel();
    return;
  }
  commit();
  scene.fullAttack.steps.push(copy(step));
  commit();
  refresh();
}

/**
 * Changes the combatant or its declarations (one undo step) if the engine takes the combatant
 * so changed; otherwise nothing changes and the panel says why. `change` gets a copy of the plan
 * and returns the new one, or a string saying why it cannot be.
 * @param {(plan: FullAttackPlan) => FullAttackPlan | string} change
 */
function editFullAttack(change) {
  const engine = ui.engine;
  if (!engine) return;
  const next = change(copy(scene.fullAttack));
  let why = typeof next === "string" ? next : "";
  if (typeof next !== "string") {
    try {
      engine.fullAttack({ ...next, steps: [] });
    } catch (err) {
      const e = engineError(err);
      why = `${e.code}: ${e.message}`;
    }
  }
  if (why || typeof next === "string") {
    ui.fa.refused = why;
    faShown = ""; // the controls go back to the plan
    renderPanel();
    return;
  }
  commit();
  scene.fullAttack = next;
  commit();
  refresh();
}

// ---------------------------------------------------------------------------------------------
// Import, export and storage

class SceneError extends Error {}
/** @param {string} message @returns {never} */
function fail(message) {
  throw new SceneError(message);
}
/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * @param {unknown} v @param {string} where @param {number} lo @param {number} hi @param {number} [dflt]
 * @returns {number}
 */
function int(v, where, lo, hi, dflt) {
  if (v === undefined || v === null) {
    if (dflt === undefined) fail(`${where} is missing`);
    return dflt;
  }
  if (typeof v !== "number" || !Number.isInteger(v)) fail(`${where}: expected a whole number, got ${JSON.stringify(v)}`);
  if (v < lo || v > hi) fail(`${where}: ${v} is outside ${lo}…${hi}`);
  return v;
}

/** @param {unknown} v @param {string} where @returns {number} */
function sizeValue(v, where) {
  if (typeof v === "string") {
    const n = SIZE_NAMES[v.trim().toLowerCase()];
    if (n === undefined) fail(`${where}: unknown size name ${JSON.stringify(v)} (Tiny, Small, Medium, Large, Huge, Gargantuan, 1T, 1S, 1M, 1L)`);
    return n;
  }
  return int(v, where, 1, MAX_SIZE, 1);
}

/** @param {unknown} v @param {string} where @returns {Pos | null} */
function posValue(v, where) {
  if (v === undefined || v === null) return null;
  if (!isObject(v)) fail(`${where}: expected {"x": …, "y": …, "z": …}`);
  return { x: int(v.x, `${where}.x`, -1e6, 1e6, 0), y: int(v.y, `${where}.y`, -1e6, 1e6, 0), z: int(v.z, `${where}.z`, -1e6, 1e6, 0) };
}

/**
 * @param {unknown} v @param {string} where @param {Record<string, number>} defence
 * @returns {Entity}
 */
function entityValue(v, where, defence) {
  if (!isObject(v)) fail(`${where}: expected a token object`);
  if (typeof v.id !== "string" || v.id.trim() === "") fail(`${where}.id: every creature needs a name (a non-empty string)`);
  const facing = v.facing ?? "N";
  if (typeof facing !== "string" || !DIRS.includes(/** @type {Direction} */ (facing))) fail(`${where}.facing: expected one of ${DIRS.join(", ")}`);
  if (v.side !== undefined && v.side !== null && typeof v.side !== "string") fail(`${where}.side: expected a string`);
  if (v.prone !== undefined && v.prone !== null && typeof v.prone !== "boolean") fail(`${where}.prone: expected true or false`);
  return {
    id: v.id, x: int(v.x, `${where}.x`, -1e6, 1e6, 0), y: int(v.y, `${where}.y`, -1e6, 1e6, 0), z: int(v.z, `${where}.z`, -100, 100, 0),
    size: sizeValue(v.size, `${where}.size`), height: v.height === undefined || v.height === null ? null : int(v.height, `${where}.height`, 1, 100),
    facing: /** @type {Direction} */ (facing), side: typeof v.side === "string" ? v.side : "", prone: v.prone === true,
    defence: defence[v.id] ?? 0,
  };
}

/** @param {unknown} v @param {string} where @returns {number | undefined} a number of levels, or undefined when absent */
function levelValue(v, where) {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) fail(`${where}: expected a number of levels, got ${JSON.stringify(v)}`);
  if (Math.abs(v) > 1e6) fail(`${where}: ${v} is outside −1000000…1000000`);
  return v;
}

/**
 * A thin wall of an imported request (CONTRACT Wall); whether it lies on the board is checked
 * once the board is known.
 * @param {unknown} v @param {string} where @returns {Wall}
 */
function wallValue(v, where) {
  if (!isObject(v)) fail(`${where}: expected {"a": [x, y], "b": [x, y]} (with bottom, top and open if wanted)`);
  const point = (/** @type {unknown} */ p, /** @type {string} */ name) => {
    if (p === undefined || p === null) fail(`${where}.${name} is missing: a wall runs from a to b, each [x, y] in squares`);
    if (!Array.isArray(p) || p.length !== 2 || !p.every((n) => typeof n === "number" && Number.isFinite(n))) fail(`${where}.${name}: expected [x, y], two numbers of squares, got ${JSON.stringify(p)}`);
    if (p.some((n) => Math.abs(n) > 1e6)) fail(`${where}.${name}: ${p.join(", ")} is outside −1000000…1000000`);
    return /** @type {[number, number]} */ ([p[0], p[1]]);
  };
  const a = point(v.a, "a"), b = point(v.b, "b");
  // CONTRACT: the ends are rounded to 1/400 of a square, and must then differ.
  const q = (/** @type {number} */ n) => Math.round(n * 400);
  if (q(a[0]) === q(b[0]) && q(a[1]) === q(b[1])) fail(`${where}: a and b are the same point (${a.join(", ")}): a wall needs two different ends`);
  const bottom = levelValue(v.bottom, `${where}.bottom`), top = levelValue(v.top, `${where}.top`);
  if (bottom !== undefined && top !== undefined && bottom > top) fail(`${where}.bottom: ${bottom} is above top ${top}`);
  if (v.open !== undefined && v.open !== null && typeof v.open !== "boolean") fail(`${where}.open: expected true or false`);
  /** @type {Wall} */
  const w = { a, b };
  if (bottom !== undefined) w.bottom = bottom;
  if (top !== undefined) w.top = top;
  if (typeof v.open === "boolean") w.open = v.open; // false: a closed door
  return w;
}

/**
 * Reads an evaluate request (CONTRACT) into a scene, or throws a SceneError that says what is
 * wrong. The engine judges it last: a request it refuses as malformed is refused; one that only
 * breaks a placement rule (out of range, …) is a scene the demo can show.
 * @param {unknown} data @param {Partial<Pick<Scene, "origin" | "aim" | "path" | "source" | "rolls" | "force" | "fullAttack" | "point" | "toward">>} [extras] what the stored scene adds
 * @returns {{scene: Scene, ignored: string[]}}
 */
function readScene(data, extras = {}) {
  const engine = ui.engine;
  if (!engine) fail("the engine is not loaded yet");
  if (!isObject(data)) fail("expected a JSON object: an evaluate request with template, caster, tokens, obstacles…");
  /** @type {string[]} */
  const ignored = [];
  const known = new Set(["template", "rules", "caster", "origin", "aim", "path", "range", "tokens", "obstacles", "walls", "bounds", "targeting", "resolve", "rollsOff", "orientation", "barriers", "cover", "applyCover", "originSquare", "point", "toward"]);
  for (const k of Object.keys(data)) if (!known.has(k)) ignored.push(k);

  // The rule set: the request's, else a dnd5e or pf2e template object's own (the demo keeps the
  // template as notation, which needs it: SPEC §10.3).
  const tv = data.template;
  let rules = data.rules ?? "";
  if (rules !== "" && rules !== "tdgs" && rules !== "drawsteel" && rules !== "circle50" && !isPointRules(String(rules))) {
    fail(`rules: expected tdgs, drawsteel, circle50, dnd5e or pf2e, got ${JSON.stringify(rules)}`);
  }
  if (rules === "" && isObject(tv) && typeof tv.rules === "string" && isPointRules(tv.rules)) rules = tv.rules;
  const pointRules = isPointRules(String(rules));

  // The template: text, or an object as parse returns it.
  let text = "";
  /** @type {Quarter} */
  let orientation = "N";
  if (typeof tv === "string") text = tv;
  else if (isObject(tv)) {
    if (typeof tv.shape === "string") {
      /** @type {Request} */
      const probe = { template: /** @type {any} */ (tv), caster: { id: "c", x: 0, y: 0, z: 0 }, bounds: { min: [0, 0, 0], max: [0, 0, 0] } };
      if (pointRules) {
        // Placed as its shape needs it, only for its notation (SPEC §10.7).
        probe.rules = /** @type {PointRules} */ (rules);
        if (tv.shape === "cone" || tv.shape === "line") probe.toward = "SE";
        else if (tv.shape !== "emanation") probe.point = { x: 0, y: 0, z: 0 };
        for (const k of ["angle", "base", "down"]) if (tv[k] !== undefined && tv[k] !== null) ignored.push(`template.${k} (the demo keeps a template as its notation, which has no ${k})`);
      }
      try {
        text = engine.evaluate(probe).template.notation;
      } catch (err) {
        const e = engineError(err);
        fail(`template: ${e.message}`);
      }
    } else if (typeof tv.notation === "string") text = tv.notation;
    else if (typeof tv.text === "string") text = tv.text;
    else fail("template: expected notation text or a template object");
    if (tv.orientation !== undefined) orientation = /** @type {Quarter} */ (tv.orientation);
  } else fail("template is missing: the one field every request needs");
  /** @type {Template} */
  let t;
  try {
    t = parseAs(engine, text, /** @type {Scene["rules"]} */ (rules));
  } catch (err) {
    const e = engineError(err);
    fail(`template: ${e.message}`);
  }
  if (data.orientation !== undefined && data.orientation !== null) orientation = /** @type {Quarter} */ (data.orientation);
  if (!QUARTERS.includes(orientation)) fail(`orientation: expected N, E, S or W`);

  /** @type {Record<string, number>} */
  const defence = {};
  let rolls = extras.rolls ?? { on: false, stat: 7, modifiers: 0, luck: 0, seed: 42 };
  // resolve: rolls asked for; rollsOff: the demo's own, Rolls unticked (what resolve would be).
  const rolled = data.resolve !== undefined && data.resolve !== null;
  const field = rolled ? "resolve" : "rollsOff";
  if (rolled || (data.rollsOff !== undefined && data.rollsOff !== null)) {
    const r = data[field];
    if (!isObject(r)) fail(`${field}: expected an object`);
    if (r.seed !== undefined && typeof r.seed !== "number") fail(`${field}.seed: the demo takes a number up to 2^53`);
    rolls = {
      on: rolled, stat: int(r.stat, `${field}.stat`, -1e6, 1e6, 0), modifiers: int(r.modifiers, `${field}.modifiers`, -1e6, 1e6, 0),
      luck: int(r.luck, `${field}.luck`, -1e6, 1e6, 0), seed: int(r.seed, `${field}.seed`, 0, Number.MAX_SAFE_INTEGER, 0),
    };
    if (r.defence !== undefined && r.defence !== null) {
      if (!isObject(r.defence)) fail(`${field}.defence: expected an object of id → number`);
      for (const [id, d] of Object.entries(r.defence)) defence[id] = int(d, `${field}.defence.${id}`, -1e6, 1e6);
    }
  }

  if (data.caster === undefined || data.caster === null) fail("caster is missing: the demo needs one (cones, lines, auras and range all start from it)");
  const caster = entityValue(data.caster, "caster", defence);
  if (!Array.isArray(data.tokens ?? [])) fail("tokens: expected an array");
  const rawTokens = /** @type {unknown[]} */ (data.tokens ?? []);
  if (rawTokens.length > MAX_TOKENS) fail(`tokens: the demo shows at most ${MAX_TOKENS}`);
  const tokens = rawTokens.map((v, i) => entityValue(v, `tokens[${i}]`, defence));
  const ids = new Set([caster.id]);
  tokens.forEach((e, i) => {
    if (ids.has(e.id)) fail(`tokens[${i}].id: ${JSON.stringify(e.id)} is used twice (ids are unique, the caster's included)`);
    ids.add(e.id);
  });
  if (!Array.isArray(data.obstacles ?? [])) fail("obstacles: expected an array");
  const rawObstacles = /** @type {unknown[]} */ (data.obstacles ?? []);
  if (rawObstacles.length > 20000) fail("obstacles: too many for the demo's board");
  /** @type {Map<string, Block>} */
  const blocks = new Map();
  rawObstacles.forEach((v, i) => {
    if (!isObject(v)) fail(`obstacles[${i}]: expected {"x": …, "y": …, "z": …, "fill": …}`);
    const fill = v.fill ?? 1;
    if (typeof fill !== "number" || !(fill >= 0 && fill <= 1)) fail(`obstacles[${i}].fill: expected a number in (0, 1]`);
    const b = { x: int(v.x, `obstacles[${i}].x`, -1e6, 1e6, 0), y: int(v.y, `obstacles[${i}].y`, -1e6, 1e6, 0), z: int(v.z, `obstacles[${i}].z`, -100, 100, 0), fill: fill === 0 ? 1 : fill };
    const old = blocks.get(key(b));
    if (!old || old.fill < b.fill) blocks.set(key(b), b); // SPEC §1.6: a cell listed twice takes the larger fill
  });
  const obstacles = [...blocks.values()];
  if (!Array.isArray(data.walls ?? [])) fail("walls: expected an array of thin walls");
  const rawWalls = /** @type {unknown[]} */ (data.walls ?? []);
  if (rawWalls.length > 10000) fail("walls: at most 10000 (CONTRACT limits)");
  const walls = rawWalls.map((v, i) => wallValue(v, `walls[${i}]`));

  // The board: the request's bounds, else big enough for everything on it.
  let cols = 24, rows = 16, levels = 1;
  if (data.bounds !== undefined && data.bounds !== null) {
    const b = data.bounds;
    if (!isObject(b) || !Array.isArray(b.min) || !Array.isArray(b.max) || b.min.length !== 3 || b.max.length !== 3) fail(`bounds: expected {"min": [x, y, z], "max": [x, y, z]}`);
    if (b.min[0] !== 0 || b.min[1] !== 0) fail("bounds.min: the demo's board starts at square 0, 0");
    if (b.min[2] !== 0) fail("bounds.min[2]: the demo's board starts at level 0");
    cols = int(b.max[0], "bounds.max[0]", BOARD_MIN - 1, BOARD_MAX - 1) + 1;
    rows = int(b.max[1], "bounds.max[1]", BOARD_MIN - 1, BOARD_MAX - 1) + 1;
    levels = int(b.max[2], "bounds.max[2]", 0, MAX_LEVELS - 1) + 1;
  } else {
    for (const e of [caster, ...tokens]) { cols = Math.max(cols, e.x + e.size); rows = Math.max(rows, e.y + e.size); }
    for (const o of obstacles) { cols = Math.max(cols, o.x + 1); rows = Math.max(rows, o.y + 1); }
    for (const w of walls) for (const [x, y] of [w.a, w.b]) { cols = Math.max(cols, Math.ceil(x)); rows = Math.max(rows, Math.ceil(y)); }
    if (cols > BOARD_MAX || rows > BOARD_MAX) fail(`the scene is larger than the demo's largest board (${BOARD_MAX} × ${BOARD_MAX} squares)`);
  }
  const onBoard = (/** @type {number} */ x, /** @type {number} */ y, size = 1) => x >= 0 && y >= 0 && x + size <= cols && y + size <= rows;
  for (const e of [caster, ...tokens]) if (!onBoard(e.x, e.y, e.size)) fail(`${e.id} at ${e.x}, ${e.y} is off the ${cols} × ${rows} board`);
  obstacles.forEach((o) => { if (!onBoard(o.x, o.y)) fail(`the obstacle at ${o.x}, ${o.y} is off the ${cols} × ${rows} board`); });
  // A wall's ends are points of the board: grid lines 0 … cols across, 0 … rows down.
  walls.forEach((w, i) => {
    for (const [name, [x, y]] of /** @type {[string, [number, number]][]} */ ([["a", w.a], ["b", w.b]])) {
      if (!(x >= 0 && x <= cols && y >= 0 && y <= rows)) fail(`walls[${i}].${name}: ${x}, ${y} is off the ${cols} × ${rows} board (its grid lines run 0…${cols} across and 0…${rows} down)`);
    }
  });

  let range = /** @type {Scene["range"]} */ (null);
  const rv = data.range;
  if (typeof rv === "string") {
    const r = rv.trim().toLowerCase();
    if (r !== "self" && r !== "touch") fail(`range: expected a number, "self" or "touch", got ${JSON.stringify(rv)}`);
    range = r;
  } else if (rv !== undefined && rv !== null) range = int(rv, "range", 0, 1000);

  const clampPos = (/** @type {Pos} */ p) => ({ x: Math.min(Math.max(p.x, 0), cols - 1), y: Math.min(Math.max(p.y, 0), rows - 1), z: 0 });
  const origin = posValue(data.origin, "origin");
  const aim = posValue(data.aim, "aim");
  const originSquare = posValue(data.originSquare, "originSquare");
  for (const [name, p] of /** @type {[string, Pos | null][]} */ ([["origin", origin], ["aim", aim]])) {
    if (p && (!onBoard(p.x, p.y) || p.z !== 0)) fail(`${name}: ${p.x}, ${p.y}, ${p.z} is not a square of the board's ground level`);
  }
  /** @type {CellTuple[]} */
  let path = extras.path ?? [];
  /** @type {Pos | null} */
  let originFromPath = null;
  if (data.path !== undefined && data.path !== null) {
    if (!Array.isArray(data.path) || data.path.length > 1000) fail("path: expected an array of up to 1000 cells [x, y, z]");
    path = data.path.map((c, i) => {
      if (!Array.isArray(c) || c.length !== 3) fail(`path[${i}]: expected a cell [x, y, z]`);
      const [x, y, z] = [int(c[0], `path[${i}][0]`, 0, cols - 1), int(c[1], `path[${i}][1]`, 0, rows - 1), int(c[2], `path[${i}][2]`, 0, 0)];
      return /** @type {CellTuple} */ ([x, y, z]);
    });
    if (t.shape === "line" && t.rules === "drawsteel" && path.length > 0 && !aim) {
      // The demo aims Draw Steel lines: the path's ends give the origin and the aim.
      const [a, b] = [path[0], path[path.length - 1]];
      if (!origin) originFromPath = { x: a[0], y: a[1], z: 0 };
      ignored.push("path (a Draw Steel line is aimed from its first to its last square)");
      extras = { ...extras, aim: { x: b[0], y: b[1], z: 0 } };
    }
  }

  let trait = /** @type {Trait} */ ("none"), excludeCaster = false;
  /** @type {string[]} */
  let selIds = [];
  /** @type {CellTuple[]} */
  let excludeCells = [];
  if (data.targeting !== undefined && data.targeting !== null) {
    const tg = data.targeting;
    if (!isObject(tg)) fail("targeting: expected an object");
    const tr = tg.trait ?? "none";
    if (tr !== "none" && tr !== "alliesExcluded" && tr !== "enemiesOnly" && tr !== "selective") fail(`targeting.trait: unknown trait ${JSON.stringify(tr)}`);
    trait = tr;
    if (tg.excludeCaster !== undefined && typeof tg.excludeCaster !== "boolean") fail("targeting.excludeCaster: expected true or false");
    excludeCaster = tg.excludeCaster === true;
    if (tg.ids !== undefined && tg.ids !== null) {
      if (!Array.isArray(tg.ids) || tg.ids.some((id) => typeof id !== "string")) fail("targeting.ids: expected an array of creature names");
      selIds = [...new Set(/** @type {string[]} */ (tg.ids))];
      if (trait !== "selective" && selIds.length > 0) { ignored.push("targeting.ids (only the selective trait uses them)"); selIds = []; }
    }
    if (tg.excludeCells !== undefined && tg.excludeCells !== null) {
      if (!Array.isArray(tg.excludeCells) || tg.excludeCells.length > 10000) fail("targeting.excludeCells: expected an array of cells [x, y, z]");
      /** @type {Set<string>} */
      const seen = new Set();
      for (const [i, c] of tg.excludeCells.entries()) {
        if (!Array.isArray(c) || c.length !== 3) fail(`targeting.excludeCells[${i}]: expected a cell [x, y, z]`);
        const cell = /** @type {CellTuple} */ ([int(c[0], `targeting.excludeCells[${i}][0]`, -1e6, 1e6), int(c[1], `targeting.excludeCells[${i}][1]`, -1e6, 1e6), int(c[2], `targeting.excludeCells[${i}][2]`, -1e6, 1e6)]);
        if (!seen.has(cell.join())) { seen.add(cell.join()); excludeCells.push(cell); }
      }
      if (trait !== "selective" && excludeCells.length > 0) { ignored.push("targeting.excludeCells (the demo takes squares out with the selective trait)"); excludeCells = []; }
    }
  }
  // The rule set's overrides (CONTRACT evaluate, SPEC §6).
  const flag = (/** @type {string} */ name) => {
    const v = data[name];
    if (v === undefined || v === null) return null;
    if (typeof v !== "boolean") fail(`${name}: expected true or false`);
    return v;
  };
  const barriers = flag("barriers"), applyCover = flag("applyCover");
  const coverV = data.cover ?? "";
  if (coverV !== "" && coverV !== "tdgs" && coverV !== "drawsteel" && coverV !== "none") fail(`cover: expected tdgs, drawsteel or none, got ${JSON.stringify(coverV)}`);
  if (pointRules && (coverV === "tdgs" || coverV === "drawsteel")) fail(`cover: ${RULES_LABEL[/** @type {PointRules} */ (rules)]} grades cover by its own rules (SPEC §10.8, §11.5): none or nothing, got ${JSON.stringify(coverV)}`);
  const cover = /** @type {CoverOverride} */ (coverV);

  const c = caster;
  const ahead = STEP[DIRS.indexOf(c.facing)];
  const near = clampPos({ x: c.x + ahead[0] * 4, y: c.y + ahead[1] * 4, z: 0 });
  const originIn = origin ?? originFromPath;

  // A point-origin area's point (SPEC §10.1: any point of the board, in squares) and direction
  // (§10.2: a compass name, degrees, or an aim point, kept as degrees).
  /** @type {Point | null} */
  let pointIn = null;
  if (data.point !== undefined && data.point !== null) {
    const pv = data.point;
    if (!isObject(pv)) fail(`point: expected {"x": …, "y": …, "z": …} in squares`);
    const num = (/** @type {unknown} */ v, /** @type {string} */ name, /** @type {number} */ hi) => {
      const n = v ?? 0;
      if (typeof n !== "number" || !Number.isFinite(n)) fail(`point.${name}: expected a number of squares`);
      if (n < 0 || n > hi) fail(`point.${name}: ${n} is off the ${cols} × ${rows} board of ${levels} level${levels === 1 ? "" : "s"} (0 … ${hi})`);
      return n;
    };
    pointIn = { x: num(pv.x, "x", cols), y: num(pv.y, "y", rows), z: num(pv.z, "z", levels) };
  }
  let toward = extras.toward ?? COMPASS_DEGREES[c.facing];
  const tw = data.toward;
  if (typeof tw === "string") {
    if (!DIRS.includes(/** @type {Direction} */ (tw))) fail(`toward: expected a compass direction (${DIRS.join(", ")}), degrees or a point, got ${JSON.stringify(tw)}`);
    toward = COMPASS_DEGREES[/** @type {Direction} */ (tw)];
  } else if (typeof tw === "number") {
    if (!Number.isFinite(tw)) fail("toward: expected a finite number of degrees");
    toward = degrees(tw);
  } else if (isObject(tw)) {
    // An aim point: the direction from the origin point (or the caster's centre) to it, in degrees.
    const ax = tw.x ?? 0, ay = tw.y ?? 0;
    if (typeof ax !== "number" || typeof ay !== "number") fail("toward: an aim point's x and y are numbers of squares");
    const from = pointIn ?? { x: c.x + c.size / 2, y: c.y + c.size / 2 };
    if (ax === from.x && ay === from.y) fail("toward: the aim point is the origin itself");
    toward = degrees((Math.atan2(ay - from.y, ax - from.x) * 180) / Math.PI);
  } else if (tw !== undefined && tw !== null) fail("toward: expected a compass direction, degrees or a point");
  if (extras.toward !== undefined) toward = extras.toward; // the stored scene's, before a pf2e cone or a cube snapped it

  /** @type {Scene} */
  const s = {
    cols, rows, levels, template: text, rules: /** @type {Scene["rules"]} */ (rules), range,
    source: (t.rules === "tdgs" || isPoint(t)) && (t.shape === "cone" || t.shape === "line") ? (isPoint(t) ? pointIn : originIn) !== null || (extras.source ?? false) : (extras.source ?? false),
    caster, tokens, obstacles, walls,
    origin: originIn ?? (extras.origin ? clampPos(extras.origin) : near),
    originSquare: t.rules === "drawsteel" && t.shape === "cube" ? originSquare : null,
    aim: aim ?? (extras.aim ? clampPos(extras.aim) : clampPos({ x: near.x + ahead[0] * 3, y: near.y + ahead[1] * 3, z: 0 })),
    path, orientation, trait, excludeCaster, ids: selIds, excludeCells, barriers, cover, applyCover, rolls,
    point: pointIn ?? extras.point ?? { x: (originIn ?? near).x, y: (originIn ?? near).y, z: 0 },
    toward,
    force: extras.force ?? { kind: "push", distance: 3, path: [], of: "" },
    fullAttack: extras.fullAttack ?? defaultFullAttack(),
  };
  if (s.aim.x === s.origin.x && s.aim.y === s.origin.y) s.aim = clampPos({ x: s.origin.x + 1, y: s.origin.y, z: 0 });

  // Last, the engine: a malformed request is refused, a broken placement rule is a scene.
  try {
    const place = placementOf(t, s);
    if (!(place === "wall" && s.path.length === 0)) engine.evaluate(buildRequest(s, t));
  } catch (err) {
    const e = engineError(err);
    // An origin square outside the cube is a placement the demo shows (the engine's message), too.
    if (!RULE_BROKEN.has(e.code) && !e.message.startsWith("originSquare")) fail(`the engine refuses it: ${e.message}`);
  }
  return { scene: s, ignored };
}

/** The request for the current scene, as Export writes it. */
function exportRequest() {
  if (!ui.template) return null;
  return buildRequest(scene, ui.template);
}

/** What localStorage keeps: the request, and what the request leaves out (unused handles). */
function storedText() {
  const request = exportRequest();
  if (!request) return null;
  const { origin, aim, path, source, rolls, force, fullAttack, point, toward } = scene;
  /** @type {Record<string, number>} */
  const defence = {};
  for (const e of entities(scene)) if (e.defence) defence[e.id] = e.defence;
  return JSON.stringify({ format: "aoekit-demo/1", request, extras: { origin, aim, path, source, rolls, force, defence, fullAttack, point, toward } });
}

function save() {
  if (STRESS) return; // the stress board is not the user's scene
  const text = storedText();
  if (!text) return;
  try {
    localStorage.setItem(STORAGE_KEY, text);
  } catch {
    // private mode or a full quota: the scene lives on in this tab
  }
}

/** The stored scene, or null when there is none or it cannot be read. */
function restore() {
  let text = null;
  try {
    text = localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
  if (!text) return null;
  try {
    const data = JSON.parse(text);
    if (!isObject(data) || data.format !== "aoekit-demo/1" || !isObject(data.extras)) return null;
    const x = data.extras;
    const pos = (/** @type {unknown} */ v) => (isObject(v) && Number.isInteger(v.x) && Number.isInteger(v.y) ? { x: Number(v.x), y: Number(v.y), z: 0 } : undefined);
    /** @type {Parameters<typeof readScene>[1]} */
    const extras = { origin: pos(x.origin), aim: pos(x.aim), source: x.source === true };
    if (Array.isArray(x.path)) extras.path = /** @type {CellTuple[]} */ (x.path);
    if (isObject(x.rolls)) extras.rolls = /** @type {Rolls} */ ({ on: false, stat: 7, modifiers: 0, luck: 0, seed: 42, ...x.rolls });
    if (isObject(x.force) && (x.force.kind === "push" || x.force.kind === "pull" || x.force.kind === "slide") && Number.isInteger(x.force.distance)) {
      const laid = Array.isArray(x.force.path) && x.force.path.every((c) => Array.isArray(c) && c.length === 3 && c.every(Number.isInteger)) ? x.force.path : [];
      extras.force = /** @type {Force} */ ({ kind: x.force.kind, distance: x.force.distance, path: laid, of: typeof x.force.of === "string" ? x.force.of : "" });
    }
    const fa = fullAttackValue(x.fullAttack);
    if (fa) extras.fullAttack = fa;
    const finite = (/** @type {unknown} */ v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
    if (isObject(x.point) && finite(x.point.x) && finite(x.point.y) && finite(x.point.z)) {
      extras.point = { x: Number(x.point.x), y: Number(x.point.y), z: Number(x.point.z) };
    }
    if (typeof x.toward === "number" && Number.isFinite(x.toward)) extras.toward = degrees(x.toward);
    const { scene: s } = readScene(data.request, extras);
    if (isObject(x.defence)) for (const e of entities(s)) if (typeof x.defence[e.id] === "number") e.defence = Number(x.defence[e.id]);
    return s;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// History: every board edit is one step; text fields keep their own undo.

/** @type {{stack: string[], index: number}} */
const history = { stack: [], index: -1 };

/** Records the scene as a step of history if it changed since the last one, and saves it. */
function commit() {
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
const undo = () => travel(-1);
const redo = () => travel(1);

/** @param {Scene} s */
function resetHistory(s) {
  scene = s;
  history.stack = [JSON.stringify(s)];
  history.index = 0;
  save();
}

// ---------------------------------------------------------------------------------------------
// Refresh: ask the engine, then draw the board and the panel.

function refresh() {
  const t0 = performance.now();
  evaluateScene();
  ui.timing.engine = performance.now() - t0;
  renderView();
  draw();
  renderPanel();
}

/** After undo, redo, import or a sample: fields follow the scene. */
function sceneReplaced() {
  ui.notationError = null;
  ui.boardNote = ""; // a passing message was about the scene replaced
  if (ui.selected) {
    const sel = ui.selected;
    if (sel.kind === "entity" && !findEntity(sel.id)) ui.selected = null;
  }
  ui.drag = null;
  ui.paint = null;
  ui.pathStroke = null;
  ui.slideStroke = null;
  ui.spareStroke = null;
  ui.wallStroke = null;
  ui.hoverWall = null;
  if (ui.wall !== null && ui.wall >= scene.walls.length) ui.wall = null;
  if (ui.engine) ui.template = parseAs(ui.engine, scene.template, scene.rules);
  fitTool();
  syncFields();
  resize();
  refresh();
}

/** The Wall squares tool belongs to wall templates: offer it there, and only there. */
function fitTool() {
  const wall = ui.template !== null && placementOf(ui.template, scene) === "wall";
  const pathButton = dom.tools.find((b) => b.dataset.tool === "path");
  if (pathButton) pathButton.hidden = !wall;
  if (wall && ui.tool === "move") setTool("path");
  if (!wall && ui.tool === "path") setTool("move");
  const selective = scene.trait === "selective";
  const spareButton = dom.tools.find((b) => b.dataset.tool === "spare");
  if (spareButton) spareButton.hidden = !selective;
  if (!selective && ui.tool === "spare") setTool("move");
  if (ui.tool === "slide" && !(dom.moveSection.open && scene.force.kind === "slide")) setTool("move");
}

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
const view = { fit: 32, zoom: 1, x: 0, y: 0, cols: 0, rows: 0, w: 0, h: 0 };
/** Zoom goes from the whole board (1) to MAX_ZOOM times it, squares of at most MAX_SQ pixels (but always to 2 ×). */
const MAX_ZOOM = 8, MAX_SQ = 160;

/**
 * The canvas's CSS size: the whole board at the fitted square size; on a phone, where that would
 * make squares too small to touch and to name (TOUCH_SQ), as wide as the page and part of the
 * screen high, the board panned in it (resize).
 */
const viewW = () => view.w;
const viewH = () => view.h;
/** The smallest square on a phone: a finger takes it, a creature's name fits under it (no initials). */
const TOUCH_SQ = 24;
/** Whether the page is a phone's: narrow. */
const narrow = () => window.innerWidth <= 600;

/** Keeps the view on the board: the canvas never shows past its edges. */
function clampPan() {
  view.x = Math.round(Math.min(Math.max(view.x, 0), Math.max(0, scene.cols * ui.sq - viewW())));
  view.y = Math.round(Math.min(Math.max(view.y, 0), Math.max(0, scene.rows * ui.sq - viewH())));
}

/**
 * Zooms to squares of about `sq` CSS pixels (whole pixels, from the fitted size to the largest),
 * keeping the board point under canvas pixel (ax, ay) where it is.
 * @param {number} sq @param {number} [ax] @param {number} [ay]
 */
function zoomTo(sq, ax = viewW() / 2, ay = viewH() / 2) {
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
const zoomIn = (ax, ay) => zoomTo(Math.max(ui.sq + 1, ui.sq * 1.25), ax, ay);
/** @param {number} [ax] @param {number} [ay] */
const zoomOut = (ax, ay) => zoomTo(Math.min(ui.sq - 1, ui.sq / 1.25), ax, ay);
/** Back to the whole board. */
const zoomFit = () => zoomTo(view.fit);

/** Moves the view by (dx, dy) CSS pixels (the board moves the other way). @param {number} dx @param {number} dy */
function panBy(dx, dy) {
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
function reveal(x, y, size) {
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
function resize() {
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
const cellAt = (px, py) => ({ x: Math.floor(px / ui.sq), y: Math.floor(py / ui.sq) });
/** Where a pointer is, in board pixels. @param {PointerEvent | WheelEvent | MouseEvent} e */
function pointOf(e) {
  const r = canvas.getBoundingClientRect();
  return { px: e.clientX - r.left + view.x, py: e.clientY - r.top + view.y };
}
/** Draws in board pixels on a canvas of the board's size. @param {CanvasRenderingContext2D} g */
function boardTransform(g) {
  g.setTransform(ui.dpr, 0, 0, ui.dpr, -view.x * ui.dpr, -view.y * ui.dpr);
}

/** Whether a creature's space takes in the level shown. @param {Entity} e */
const onLevel = (e) => e.z <= ui.level && ui.level < e.z + heightOf(e);

/** The levels the selector offers: the board's, and any a creature or an obstacle stands on. */
function levelRange() {
  let lo = 0, hi = scene.levels - 1;
  for (const o of scene.obstacles) { lo = Math.min(lo, o.z); hi = Math.max(hi, o.z); }
  for (const e of entities(scene)) { lo = Math.min(lo, e.z); hi = Math.max(hi, e.z + heightOf(e) - 1); }
  return { lo, hi };
}

/** Shows level z (clamped to levelRange). @param {number} z */
function setLevel(z) {
  const { lo, hi } = levelRange();
  const next = Math.min(Math.max(z, lo), hi);
  if (next === ui.level) return;
  ui.level = next;
  renderView();
  draw();
}

/** The view's controls follow the view and the board: the zoom, the level (brought within the board's levels). */
function renderView() {
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
const sideColour = (side) => (side === "party" ? COLOURS.party : side === "enemy" ? COLOURS.enemy : COLOURS.neutral);

/**
 * A label on a rounded pill, centred on (x, y).
 * @param {string} text @param {number} x @param {number} y @param {string} bg @param {string} fg @param {number} size
 */
function pill(text, x, y, bg, fg, size) {
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
function handles() {
  const t = ui.template;
  if (!t) return /** @type {("origin" | "aim")[]} */ ([]);
  const place = placementOf(t, scene);
  return /** @type {("origin" | "aim")[]} */ (place === "origin" || place === "point" ? ["origin"] : place === "line" ? ["origin", "aim"] : []);
}

/** Whether the origin handle is a point-origin area's point (SPEC §10.1), not a square. */
const pointHandle = () => !!ui.template && placementOf(ui.template, scene) === "point";

/** Where a handle is drawn, in board pixels: a square's centre, or the point itself. @param {"origin" | "aim"} h */
function handleAt(h) {
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
function snapPoint(x, y, free) {
  const step = onIntersection(ui.template) ? 1 : free ? FINE : HALF;
  const snap = (/** @type {number} */ v, /** @type {number} */ hi) => Math.min(Math.max(Math.round(v / step) * step, 0), hi);
  const frac = onIntersection(ui.template) ? 0 : scene.point.z - Math.floor(scene.point.z); // a point at mid-height stays so
  return { x: snap(x, scene.cols), y: snap(y, scene.rows), z: ui.level + frac };
}

/** The scene's point brought onto an intersection where the template needs one (a cube, a pf2e burst). */
function fitPoint() {
  if (!onIntersection(ui.template)) return;
  const p = scene.point;
  const x = Math.min(Math.round(p.x), scene.cols), y = Math.min(Math.round(p.y), scene.rows), z = Math.floor(p.z);
  if (x !== p.x || y !== p.y || z !== p.z) scene.point = { x, y, z };
}

/** The id whose cover lines are drawn: the hovered creature, else the selected one. */
function focusId() {
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
const layers = { key: [], painted: 0 };

/** What the still layer shows, as a list of values: equal lists, equal drawings. */
function stillKey() {
  const drag = draggedId();
  /** @type {unknown[]} */
  const k = [canvas.width, canvas.height, ui.dpr, ui.sq, view.x, view.y, scene.cols, scene.rows, ui.level,
    ui.wall ?? -1, ui.hoverWall ?? -1, drag, scene.caster.id, scene.obstacles.length, scene.walls.length, scene.tokens.length];
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

function draw() {
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

/** How a dnd5e or pf2e grade is written on a badge: ½ and ¾ cover with their bonus, pf2e's names with theirs. @param {string} grade @param {number} bonus */
function gradeBadge(grade, bonus) {
  const short = { none: "none", half: "½", threeQuarters: "¾", total: "total", lesser: "lesser", standard: "standard", greater: "greater" }[grade] ?? grade;
  return bonus ? `${short} +${bonus}` : short;
}

/**
 * How a TDGS or Draw Steel grade is written on a badge, with what it does (SPEC §5.5): partial
 * +2 and half +4 (to REF), full; Draw Steel's cover is a bane. The legend shows the same words.
 * @param {string} grade @param {number} bonus
 */
function classicBadge(grade, bonus) {
  if (grade === "cover") return "cover (bane)";
  return bonus ? `${grade} +${bonus}` : grade;
}

/**
 * A badge on squares under 24 pixels, as the legend gives it: the bonus (+2, +4; pf2e +1, +2,
 * +4), ½ and ¾ (dnd5e), full, total, bane (Draw Steel's cover).
 * @param {string} grade @param {number} bonus @param {boolean} point
 */
function shortBadge(grade, bonus, point) {
  if (grade === "half" && point) return "½";
  if (grade === "threeQuarters") return "¾";
  if (grade === "cover") return "bane";
  return bonus ? `+${bonus}` : grade;
}

/** What a dnd5e or pf2e grade means, in words (the Targets list, the legend's titles). @param {string} grade */
function gradeWords(grade) {
  return { none: "no cover", half: "half cover (½)", threeQuarters: "three-quarters cover (¾)", total: "total cover", lesser: "lesser cover", standard: "standard cover", greater: "greater cover" }[grade] ?? grade;
}

/** A badge's colours by grade: the demo's (demo.css .b-…), white text on full and total cover. @param {string} grade @returns {[string, string]} */
function gradeColours(grade) {
  const bg = { none: "#eceff1", partial: "#fff59d", half: "#ffb74d", cover: "#ffb74d", full: "#c62828", threeQuarters: "#ff7043", total: "#c62828", lesser: "#fff59d", standard: "#ffb74d", greater: "#ff7043" }[grade] ?? "#eee";
  return [bg, grade === "total" || grade === "full" ? "#fff" : "#111"];
}

/**
 * A label of the label layers, in board pixels: its box, text and look. `kind`: a creature's
 * name, a cover badge, the caster's "in own area", a roll.
 * @typedef {{kind: "name" | "badge" | "caster" | "roll", id: string, text: string, x: number, y: number, w: number, h: number,
 *   bg: string, fg: string, size: number, alpha: number}} Label
 */

/**
 * What the label layers show, as keys: equal keys, equal drawings (the names; the names and the
 * badges); and the labels each layer last painted, whose boxes are all it clears (a layer as
 * large as a 100 × 100 board is mostly empty).
 * @type {{names: string, badges: string, view: string, painted: {names: Label[], badges: Label[]}}}
 */
const labelLayers = { names: "", badges: "", view: "", painted: { names: [], badges: [] } };
/** Text widths by size, for laying labels out before drawing them. @type {Map<string, number>} */
const textWidths = new Map();
/** @param {string} text @param {number} size */
function textWidth(text, size) {
  const k = `${size}|${text}`;
  let w = textWidths.get(k);
  if (w === undefined) {
    const g = /** @type {CanvasRenderingContext2D} */ (namesCanvas.getContext("2d"));
    g.font = `700 ${size}px system-ui, sans-serif`;
    w = g.measureText(text).width;
    if (textWidths.size > 4000) textWidths.clear();
    textWidths.set(k, w);
  }
  return w;
}
/** The box of a label `text`, `size` pixels high, centred on (cx, cy), kept on the board. @param {string} text @param {number} cx @param {number} cy @param {number} size */
function labelBox(text, cx, cy, size) {
  const w = textWidth(text, size) + size * 0.8, h = size * 1.35;
  const W = scene.cols * ui.sq, H = scene.rows * ui.sq;
  return { x: Math.min(Math.max(cx - w / 2, 1), W - w - 1), y: Math.min(Math.max(cy - h / 2, 1), H - h - 1), w, h };
}
/**
 * Whether two boxes overlap by more than `slack` pixels each way.
 * @param {{x: number, y: number, w: number, h: number}} a @param {{x: number, y: number, w: number, h: number}} b @param {number} [slack]
 */
const boxesMeet = (a, b, slack = 0) => a.x + slack < b.x + b.w && b.x + slack < a.x + a.w && a.y + slack < b.y + b.h && b.y + slack < a.y + a.h;

/** Paints a label: a rounded pill, its text centred. @param {CanvasRenderingContext2D} g @param {Label} l */
function paintLabel(g, l) {
  g.globalAlpha = l.alpha;
  g.font = `700 ${l.size}px system-ui, sans-serif`;
  g.beginPath();
  g.roundRect(l.x, l.y, l.w, l.h, l.h / 2);
  g.fillStyle = l.bg;
  g.fill();
  g.lineWidth = 1;
  g.strokeStyle = "rgba(0, 0, 0, 0.75)";
  g.stroke();
  g.fillStyle = l.fg;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(l.text, l.x + l.w / 2, l.y + l.h / 2 + 0.5);
}

/** The label layers' shared view: what moves every label. */
const labelView = () => `${canvas.width}x${canvas.height}@${ui.dpr}:${ui.sq}:${view.x},${view.y}:${ui.level}:${scene.cols}x${scene.rows}`;
/** The font size of names on squares of sq pixels. @param {number} sq */
const nameFont = (sq) => Math.max(9, Math.min(13, Math.round(sq * 0.32)));

/**
 * The creatures' names: each under the middle of its space's bottom edge, on an opaque white
 * pill (with its elevation and "prone"); those off the level shown faint. On squares under 24
 * pixels, only the hovered or selected creature's, below it.
 * @returns {{key: string, list: Entity[], compact: boolean}}
 */
function namedEntities() {
  const compact = ui.sq < 24;
  const focus = focusId(), sel = ui.selected && ui.selected.kind === "entity" ? ui.selected.id : null;
  const list = entities(scene).filter((e) => !compact || e.id === focus || e.id === sel).sort((a, b) => a.z - b.z);
  let key = labelView() + (compact ? "|c" : "|");
  for (const e of list) key += `|${e.id}:${e.x},${e.y},${e.z}:${e.size}:${heightOf(e)}:${e.prone ? 1 : 0}`;
  return { key, list, compact };
}
/** @param {Entity[]} list @param {boolean} compact @returns {Label[]} */
function nameLabels(list, compact) {
  const sq = ui.sq, font = nameFont(sq);
  return list.map((e) => {
    const text = e.id + (e.z ? ` ↑${e.z}` : "") + (e.prone ? " prone" : "");
    const x0 = e.x * sq, y0 = e.y * sq, w = e.size * sq, size = compact ? 10 : font;
    /** @type {Label} */
    const l = { kind: "name", id: e.id, text, ...labelBox(text, x0 + w / 2, compact ? y0 + w + 7 : y0 + w - 1, size), bg: "#fff", fg: COLOURS.ink, size, alpha: onLevel(e) ? 1 : OTHER_LEVEL_ALPHA };
    return l;
  });
}

/**
 * The badges of the answer shown, laid out around their creatures where they cover no name and
 * no other badge (a creature's square and the ring around it; the names are drawn over them in
 * any case): each target's cover grade (TDGS and Draw Steel: partial +2, half +4, full, cover
 * (bane), none without a badge; dnd5e and pf2e: ½ +2, ¾ +5, total; lesser +1, standard +2,
 * greater +4, none), then "in own area" on the caster, then each roll. `ui.badges` keeps the
 * dnd5e and pf2e badges (for the tests).
 * @param {Label[]} names @returns {Label[]}
 */
function badgeLabels(names) {
  ui.badges = [];
  const res = ui.summary;
  if (!res) return [];
  const sq = ui.sq, compact = sq < 24, point = isPoint(ui.template);
  const font = nameFont(sq), fs = compact ? 8 : Math.max(8, font - 2);
  /** @type {Label[]} */
  const placed = [];
  const taken = names.slice();
  /**
   * @param {Label["kind"]} kind @param {Entity} e @param {string} text @param {string} bg @param {string} fg @param {number} size
   * @param {(w: number, h: number) => [number, number][]} spots the centres to try, in order
   */
  const place = (kind, e, text, bg, fg, size, spots) => {
    const w = textWidth(text, size) + size * 0.8, h = size * 1.35;
    const tries = spots(w, h);
    let box = null;
    for (const [cx, cy] of tries) {
      // Never on a name; on another badge by a pixel at most (two badges of neighbours touch).
      const b = labelBox(text, cx, cy, size);
      if (!taken.some((r) => boxesMeet(r, b, r.kind === "name" ? 0 : 1.5))) { box = b; break; }
    }
    /** @type {Label} */
    const l = { kind, id: e.id, text, ...(box ?? labelBox(text, tries[0][0], tries[0][1], size)), bg, fg, size, alpha: onLevel(e) ? 1 : OTHER_LEVEL_ALPHA };
    taken.push(l);
    placed.push(l);
  };
  const around = (/** @type {Entity} */ e) => ({ s: e.size * sq, x0: e.x * sq, y0: e.y * sq });
  for (const x of res.targets) {
    const e = findEntity(x.id);
    if (!e || !x.inArea || x.reason === "targeting" || !((x.total ?? 0) > 0)) continue;
    if (point ? compact && x.cover === "none" : x.cover === "none") continue;
    const text = compact ? shortBadge(x.cover, x.bonus, point) : point ? gradeBadge(x.cover, x.bonus) : classicBadge(x.cover, x.bonus);
    const [bg, fg] = gradeColours(x.cover);
    const { s, x0, y0 } = around(e);
    // On small squares, only where the badge stays on the creature's square and the ring of squares around it.
    place("badge", e, text, bg, fg, fs, (w, h) => compact ? [[x0 + s - 2, y0 + 3], [x0 + 2, y0 + 3], [x0 + s / 2, y0 + s / 2]]
      : [[x0 + s - 2, y0 + 3], [x0 + 2, y0 + 3], [x0 + s / 2, y0 - h / 2 + 2], [x0 + s + w / 2 - 4, y0 + s / 2], [x0 - w / 2 + 4, y0 + s / 2], [x0 + s / 2, y0 + s / 2]]);
    if (point) ui.badges.push({ id: x.id, grade: x.cover, text });
  }
  const caster = res.targets.find((x) => x.id === scene.caster.id && x.inArea);
  if (caster) {
    const e = scene.caster, { s, x0, y0 } = around(e);
    place("caster", e, "in own area", "#6a1b9a", "#fff", Math.max(8, font - 2), (w, h) => [[x0 + s / 2, y0 + s + font * 1.3], [x0 + s / 2, y0 - h / 2 - 1],
      [x0 + s + w / 2 + 1, y0 + s / 2], [x0 - w / 2 - 1, y0 + s / 2]]);
  }
  for (const x of res.targets) {
    const e = findEntity(x.id);
    if (!e || !x.roll) continue;
    const { s, x0, y0 } = around(e);
    // On small squares the roll's outcome alone (the Targets list has its dice).
    const text = compact ? (x.roll.hit ? "hit" : "miss") : `${x.roll.dice.join("→")} ${x.roll.hit ? "hit" : "miss"}`;
    place("roll", e, text, x.roll.hit ? "#c8e6c9" : "#ffcdd2", "#111", Math.max(8, font - 2),
      (w, h) => compact ? [[x0 + s / 2, y0 + s - 2], [x0 + s / 2, y0 + 2]]
        : [[x0 + 4, y0 + s / 2], [x0 + s - 4, y0 + s / 2], [x0 + s / 2, y0 + s - h / 2], [x0 + s / 2, y0 - h / 2], [x0 + s / 2, y0 + s / 2]]);
  }
  return placed;
}

/**
 * The label layers, over everything else the board shows (cover lines, handles, tools): the
 * badges, then the names above them, so that nothing is ever drawn over a name. Each layer is
 * drawn again only when what it shows changed (a creature moved, the answer's grades, the view).
 */
function drawLabels() {
  const named = namedEntities();
  const res = ui.summary;
  let bkey = named.key + `|${isPoint(ui.template) ? "p" : "c"}|${scene.caster.id}`;
  if (res) for (const x of res.targets) bkey += `|${x.id}:${x.inArea ? 1 : 0}:${x.reason ?? ""}:${x.total ?? 0}:${x.cover}:${x.bonus}` + (x.roll ? `:${x.roll.dice.join(",")}:${x.roll.hit}` : "");
  if (named.key === labelLayers.names && bkey === labelLayers.badges) return;
  const names = nameLabels(named.list, named.compact);
  const badges = badgeLabels(names);
  ui.labels = [...names, ...badges];
  // The view moved (or the canvas was resized): the layers are cleared whole, else only where
  // their last labels were.
  const whole = labelLayers.view !== labelView();
  labelLayers.view = labelView();
  for (const [layer, list, k] of /** @type {[HTMLCanvasElement, Label[], "names" | "badges"][]} */ ([[namesCanvas, names, "names"], [badgesCanvas, badges, "badges"]])) {
    const key = k === "names" ? named.key : bkey;
    if (labelLayers[k] === key) continue;
    labelLayers[k] = key;
    const g = /** @type {CanvasRenderingContext2D} */ (layer.getContext("2d"));
    g.globalAlpha = 1;
    if (whole) {
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.clearRect(0, 0, layer.width, layer.height);
      boardTransform(g);
    } else {
      boardTransform(g);
      for (const l of labelLayers.painted[k]) g.clearRect(Math.floor(l.x) - 2, Math.floor(l.y) - 2, Math.ceil(l.w) + 4, Math.ceil(l.h) + 4);
    }
    for (const l of list) paintLabel(g, l);
    labelLayers.painted[k] = list;
    g.globalAlpha = 1;
  }
}

/**
 * The direction of a dnd5e or pf2e cone, line or cube (SPEC §10.2): a dashed arrow from the
 * area's origin (the answer's: the point, or where the cone leaves the caster) along `toward`,
 * as far as the template reaches, with the angle at its tip.
 */
function drawToward() {
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
function towardText(turning, d) {
  const v = snapToward(turning, d), name = compassAt(v);
  return name ? `${name} (${v}°)` : `${v}°`;
}

/** A red ✕ centred on (x, y). @param {number} x @param {number} y @param {number} r */
function cross(x, y, r) {
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
function drawCoverLines() {
  ui.drawnLines = [];
  if (ui.attackResult && ui.attackResult.lines.length > 0) paintLines(ui.attackResult.lines, "attack");
}

/**
 * Where cover segments are drawn, seen from above, in board pixels: a corner's upper and lower
 * lines coincide, so each group is drawn side by side, the higher line on the left of the way it
 * runs (as the overlay draws an area target's: wasm/overlay plan.go, lines).
 * @param {Line[]} lines @returns {{from: [number, number], to: [number, number], blocked: boolean}[]}
 */
function lineGeometry(lines) {
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
function drawForce() {
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
function drawThinWalls() {
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
function drawWallStroke() {
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
function drawEntities(list) {
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

function drawHandles() {
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

// ---------------------------------------------------------------------------------------------
// The panel

/** @type {Record<string, string>} what to do about a broken rule */
const HINTS = {
  out_of_range: "Drag the origin or the caster closer, or raise Range.",
  no_line_of_effect: "The caster must see the origin square corner to corner (SPEC §3.1): move either, or a wall.",
  invalid_wall: "Click a square again to take it back: the squares share sides, off walls and creatures (SPEC §3.6).",
  not_straight: "The squares must run straight (SPEC §3.7).",
};
/** @type {Record<string, string>} the same for dnd5e and pf2e (SPEC §10.4, §10.7) */
const POINT_HINTS = {
  out_of_range: "Drag the point or the caster closer, or raise Range (the gap from the caster's space to the point, in whole squares).",
  no_line_of_effect: "The caster needs a clear line to the point from a corner of its space, and the point cannot be inside a wall (SPEC §10.4): move either, or a wall.",
};
const SHAPE_WORDS = { circle: "circle", cone: "cone", line: "line", rectangle: "rectangle", aura: "aura", burst: "burst", cube: "cube", wall: "wall", sphere: "sphere", cylinder: "cylinder", emanation: "emanation" };

/**
 * A sentence about a dnd5e or pf2e template: its sizes in squares and feet (SPEC §10.3), and how
 * it is placed and turned.
 * @param {Template} t
 */
function describePoint(t) {
  const parts = [`${RULES_LABEL[t.rules]} ${SHAPE_WORDS[t.shape]}${t.rules === "pf2e" && t.shape === "cone" ? " (a quarter circle)" : ""}`];
  if (t.radius) parts.push(`radius ${feet(t.radius)}`);
  if (t.side) parts.push(`side ${feet(t.side)}`);
  if (t.length) parts.push(`length ${feet(t.length)}`);
  if (t.shape === "line" && t.width) parts.push(`width ${feet(t.width)}`);
  if (t.height) parts.push(`height ${feet(t.height, "level")}`);
  const place = placementOf(t, scene);
  const turning = turningOf(t);
  const turns = turning === "free" ? "; the wheel turns it 15° (Shift: 5°), Q and E to the next compass direction"
    : turning === "compass" ? "; Q, E or the wheel turn it 45° (a pf2e cone aims along the 8 compass directions)"
    : turning === "diagonal" ? "; Q, E or the wheel turn it to the next diagonal (NE, SE, SW, NW)" : "";
  const how = t.shape === "emanation" ? "from the caster's space: it follows the caster"
    : place === "caster" ? "from the caster's edge, toward its direction (tick “start from a chosen point” to place it)"
    : onIntersection(t) ? "drag its point: it snaps to grid intersections"
    : "drag its point: it snaps to intersections, square centres and edge midpoints (hold Alt: free)";
  return `${t.notation}: ${parts.join(", ")} — ${how}${turns}.`;
}

/** A sentence about a parsed template: its rule set, shape and sizes. @param {Template} t */
function describe(t) {
  if (isPoint(t)) return describePoint(t);
  const parts = [`${RULES_LABEL[t.rules]} ${SHAPE_WORDS[t.shape]}`];
  if (t.radius) parts.push(`radius ${t.radius}`);
  if (t.size) parts.push(`size ${t.size}`);
  if (t.side) parts.push(`side ${t.side}`);
  if (t.length) parts.push(`length ${t.length}`);
  if (t.shape !== "cone" && t.width) parts.push(`width ${t.width}`);
  if (t.squares) parts.push(`${t.squares} squares`);
  if (t.height) parts.push(`height ${t.height}`);
  if (t.direction) parts.push(`${t.direction} relative to the caster's facing`);
  if (t.within) parts.push(`within ${t.within}`);
  const place = placementOf(t, scene);
  const how = place === "caster" ? "from the caster: it follows the caster" : place === "line" ? "drag its first square (origin) and its aim" : place === "wall" ? "lay its squares with the Wall squares tool" : t.shape === "cone" || t.shape === "line" ? "from the chosen square (origin handle)" : "drag the origin handle to place it";
  // A TDGS circle is every square within its radius, a diagonal step counting one (SPEC §1.4, §2.3): a square.
  const square = t.rules === "tdgs" && t.shape === "circle" && t.radius !== undefined
    ? ` — on the grid a square of ${2 * t.radius + 1} × ${2 * t.radius + 1}: every square within ${t.radius} of the origin square, a diagonal step counting as one (SPEC §1.4, §2.3)` : "";
  return `${t.notation}: ${parts.join(", ")}${square} — ${how}.`;
}

/** A message with its first letter in upper case. @param {string} text */
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A TDGS direction as written and as it points on the board (SPEC §1.3: relative to the
 * caster's facing, N forward): "Con4NE — relative to facing E: points SE". The board's is the
 * engine's answer; without one (a refused placement) it is SPEC §1.3's sum.
 * @param {Template} t @param {DrawSummary | null} res
 */
function directionText(t, res) {
  const facing = scene.caster.facing, rel = /** @type {Direction} */ (t.direction);
  const points = res && res.direction ? res.direction : DIRS[(DIRS.indexOf(facing) + DIRS.indexOf(rel)) % 8];
  return `${t.notation} — relative to facing ${facing}: points ${points}`;
}

/** @param {HTMLElement} box @param {string} message @param {string} [text] @param {number} [at] */
function showError(box, message, text, at) {
  box.replaceChildren();
  box.hidden = !message;
  if (!message) return;
  box.append(message);
  if (text !== undefined && at !== undefined) {
    // The text with the character where reading stopped marked (one past the end: a blank).
    // at counts characters (code points), not UTF-16 units: an emoji is one.
    const code = document.createElement("code");
    const mark = document.createElement("mark");
    const chars = Array.from(text);
    const i = at - 1;
    mark.textContent = i < chars.length ? chars[i] : " ";
    mark.title = `position ${at}`;
    code.append(chars.slice(0, i).join(""), mark, chars.slice(i + 1).join(""));
    box.append(code);
  }
}

let targetsShown = "";
let tokensShown = "";

function renderPanel() {
  const t = ui.template, res = ui.summary;
  // The notation box: its own error, inline, while the board keeps the last valid template.
  const ne = ui.notationError;
  dom.notation.setAttribute("aria-invalid", ne ? "true" : "false");
  showError(dom.notationError, ne ? `${capital(ne.message)}${t ? ` — the board keeps ${t.notation}` : ""}` : "", ne ? ne.text : undefined, ne ? ne.at : undefined);
  dom.notationError.title = ne ? `error code: ${ne.code}` : "";
  dom.info.textContent = t ? describe(t) : "";
  // A TDGS direction is relative to the caster's facing (SPEC §1.3): as written, and as it points.
  const written = t && t.direction ? directionText(t, res) : "";
  dom.directionNote.hidden = !written;
  if (dom.directionNote.textContent !== written) dom.directionNote.textContent = written;
  for (const b of dom.shapes) {
    const on = !!t && t.rules === b.dataset.rules && t.shape === b.dataset.shape && (t.rules !== "circle50" || !!t.close === (b.dataset.close === "true"));
    if (b.getAttribute("aria-current") !== String(on)) b.setAttribute("aria-current", String(on));
  }
  const effective = scene.rules || (t ? t.rules : "");
  const point = isPoint(t);
  dom.rulesNote.textContent = !effective ? ""
    : isPointRules(scene.rules) ? `${RULES_LABEL[scene.rules]} rules: areas from a point`
    : scene.rules ? `${RULES_LABEL[scene.rules]} rules on a ${t ? RULES_LABEL[t.rules] : ""} template` : `${RULES_LABEL[/** @type {Rules} */ (effective)]} rules`;
  dom.rulesNote.classList.toggle("override", !!scene.rules && !!t && scene.rules !== t.rules);
  if (t) {
    const place = placementOf(t, scene);
    const r = rangeOf(t, scene);
    dom.rangeNote.textContent = place === "caster" ? "not used: the template starts at the caster" : scene.range === null ? (t.within ? `empty: within ${t.within} from the notation` : "empty: no range")
      : point && r !== null ? `${feet(r)} from the caster's space to the point` : "";
    dom.sourceRow.hidden = !((t.rules === "tdgs" || point) && (t.shape === "cone" || t.shape === "line"));
    const sourceText = point ? "start from a chosen point, not the caster's edge (SPEC §10.7)" : "start from a chosen square within range (SPEC §2.9)";
    if (dom.sourceText.textContent !== sourceText) dom.sourceText.textContent = sourceText;
  }
  // dnd5e and pf2e grade cover by their own rules: the other tables are not theirs (CONTRACT).
  for (const o of dom.cover.options) o.disabled = point && (o.value === "tdgs" || o.value === "drawsteel");
  const grades = point && t ? t.rules : "";
  dom.legendGrades.hidden = grades !== "";
  dom.legendDnd5e.hidden = grades !== "dnd5e";
  dom.legendPf2e.hidden = grades !== "pf2e";
  dom.originSquareRow.hidden = !isCube(t);
  const os = scene.originSquare;
  dom.originSquareInfo.textContent = os ? `origin square: ${os.x}, ${os.y}, ${os.z} (Shift + click another square of the cube)` : "origin square: nearest the caster (Shift + click a square of the cube to choose it)";
  dom.originSquareClear.disabled = !os;
  const turning = turningOf(t);
  dom.turnLabel.value = turning ? `toward ${towardText(turning, scene.toward)}`
    : t && t.shape === "rectangle" ? `rectangle ${scene.orientation}` : `facing ${scene.caster.facing}` + (res && res.direction ? ` · points ${res.direction}` : "");

  // The status line: the answer in one sentence, or why there is none.
  dom.status.classList.toggle("error", !!ui.error);
  if (!ui.engine) dom.status.textContent = dom.status.textContent || "Loading the engine…";
  else if (ui.error) dom.status.textContent = ui.error.message;
  else if (ui.waiting) dom.status.textContent = ui.waiting;
  else if (res) {
    const hit = res.targets.filter((x) => x.affected).length;
    const toward = res.direction ? res.direction + (t && t.direction ? ` (${t.direction} relative to facing ${scene.caster.facing})` : "")
      : turning ? `${snapToward(turning, scene.toward)}°` : "";
    dom.status.textContent = `${res.template?.notation}: ${res.count} squares` + (toward ? `, toward ${toward}` : "") +
      `, ${hit} affected` + (res.originVisible ? "" : " (the caster cannot see the origin: reported, not required)");
  }
  dom.status.title = ui.error ? `error code: ${ui.error.code}` : "";
  // Under the board, where it is seen: a placement the rules refuse, a notation that does not
  // parse (the box is far down the panel on a phone), what the board waits for, creatures above
  // the board's levels.
  const hint = ui.error ? (point ? POINT_HINTS[ui.error.code] : undefined) ?? HINTS[ui.error.code] ?? "" : "";
  const above = entities(scene).filter((e) => e.z >= scene.levels);
  const aboveText = above.length === 0 ? "" : `${above.map((e) => `${e.id} (z ${e.z})`).join(", ")} ${above.length === 1 ? "stands" : "stand"} above the board's ${scene.levels} level${scene.levels === 1 ? "" : "s"}: ` +
    `areas are cut at level ${scene.levels - 1}, so nothing of them is drawn up there, though the engine may count ${above.length === 1 ? "it" : "them"} in. Raise “of N levels” in the toolbar.`;
  setBoardNote(ui.error ? `Not placed: ${ui.error.message}. ${hint}`
    : ne ? `The notation: ${ne.message}${t ? ` — the board keeps ${t.notation}` : ""}.` : ui.waiting || aboveText, !!ui.error || !!ne || !!aboveText);

  // Targets.
  const targets = res ? res.targets : [];
  const sig = JSON.stringify([targets, focusId(), ui.selected, scene.levels, scene.rolls, above.map((e) => e.id)]);
  if (sig !== targetsShown) {
    targetsShown = sig;
    dom.targets.replaceChildren(...targets.map((x) => targetItem(x)));
  }
  dom.targetsEmpty.hidden = targets.length > 0 || !res;

  // Creatures.
  const selective = scene.trait === "selective";
  const tsig = JSON.stringify([entities(scene).map((e) => [e.id, e.side]), ui.selected, selective && scene.ids]);
  if (tsig !== tokensShown) {
    tokensShown = tsig;
    dom.tokens.replaceChildren(...entities(scene).map((e) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.id = e.id;
      const sel = ui.selected;
      b.classList.toggle("current", !!sel && sel.kind === "entity" && sel.id === e.id);
      b.setAttribute("aria-pressed", b.classList.contains("current") ? "true" : "false");
      const tag = document.createElement("span");
      tag.className = `tag ${SIDES.includes(e.side) ? e.side : "neutral"}`;
      tag.textContent = e.side || "—";
      b.append(e.id, " ", tag);
      if (e === scene.caster) {
        const c = document.createElement("span");
        c.className = "tag caster";
        c.textContent = "caster";
        b.append(" ", c);
      }
      b.addEventListener("click", () => select({ kind: "entity", id: e.id }));
      li.append(b);
      if (selective) {
        // Selective (SPEC §7.3): only the creatures ticked may be affected (the caster too, if ticked).
        li.className = "chosen";
        const label = document.createElement("label");
        label.className = "choose";
        label.title = `Selective: ${e.id} may be affected`;
        const box = document.createElement("input");
        box.type = "checkbox";
        box.className = "choose-box";
        box.dataset.id = e.id;
        box.checked = scene.ids.includes(e.id);
        box.setAttribute("aria-label", `${e.id} may be affected (selective)`);
        box.addEventListener("change", () => {
          commit();
          scene.ids = box.checked ? [...scene.ids.filter((id) => id !== e.id), e.id] : scene.ids.filter((id) => id !== e.id);
          commit();
          refresh();
        });
        label.append(box);
        li.append(label);
      }
      return li;
    }));
  }
  renderEditor();
  renderAttack();
  renderFullAttack();
  renderWallTools();
  dom.rollsFields.hidden = !scene.rolls.on;

  // Forced movement.
  const ft = forceTarget();
  dom.legendForce.hidden = !(ft && ui.move && ui.move.path.length > 0);
  dom.moveApply.disabled = !ft || !ui.move || ui.move.path.length === 0;
  const slide = scene.force.kind === "slide";
  dom.slideRow.hidden = !slide;
  dom.slidePop.disabled = dom.slideClear.disabled = slidePath().length === 0;
  dom.moveInfo.classList.toggle("error", !!ft && !!ui.moveError);
  if (!ft) dom.moveInfo.textContent = `Select a creature other than the caster: the caster ${slide ? "slides" : "pushes or pulls"} it, one square at a time (SPEC §3.7).`;
  else if (ui.moveError) dom.moveInfo.textContent = ui.moveError;
  else if (slide && slidePath().length === 0) dom.moveInfo.textContent = `Lay the slide's path: with Lay the path, click or drag on the board from ${ft.id}, square by square (up to ${scene.force.distance}; any direction, not only straight). Backspace removes the last square, Escape clears.`;
  else if (ui.move) {
    const m = ui.move;
    const col = m.collision;
    dom.moveInfo.textContent = `${scene.force.kind} ${ft.id} ${scene.force.distance}: ${m.path.length} square${m.path.length === 1 ? "" : "s"} to ${m.end.x}, ${m.end.y}` +
      (col ? `; stopped by ${col.kind === "obstacle" ? "a solid square" : col.kind === "wall" ? "a thin wall" : col.kind === "edge" ? "the board's edge" : col.with} at ${col.at[0]}, ${col.at[1]} with ${col.left} left` : "") + ". The dashed blue path shows it.";
  }
  renderHistory();
}

let attackShown = "";
/** The attack cover section: its creature lists, and the answer or the error. */
function renderAttack() {
  const a = ui.attack;
  const ids = entities(scene).map((e) => e.id);
  const sig = JSON.stringify([ids, a.attacker, a.target]);
  if (sig !== attackShown) {
    attackShown = sig;
    for (const [select, chosen, label] of /** @type {[HTMLSelectElement, string, string][]} */ ([[dom.atkAttacker, a.attacker, "choose the attacker…"], [dom.atkTarget, a.target, "choose the target…"]])) {
      const none = document.createElement("option");
      none.value = "";
      none.textContent = label;
      select.replaceChildren(none, ...ids.map((id) => {
        const o = document.createElement("option");
        o.value = id;
        o.textContent = id;
        return o;
      }));
      select.value = ids.includes(chosen) ? chosen : "";
    }
  }
  dom.atkKind.value = a.kind;
  dom.atkRules.value = a.rules;
  dom.atkFlying.checked = a.flying;
  dom.atkPick.setAttribute("aria-pressed", a.pick ? "true" : "false");
  dom.atkPick.textContent = a.pick === 1 ? "Click the attacker…" : a.pick === 2 ? "Click the target…" : "Pick on the board";
  const err = ui.attackError, r = ui.attackResult;
  showError(dom.atkError, err ? capital(err.message) : "");
  dom.atkError.title = err ? `error code: ${err.code}` : "";
  const attacker = findEntity(a.attacker), target = findEntity(a.target);
  if (r) {
    dom.atkResult.textContent = (isPointRules(a.rules) ? gradeWords(r.grade) : `${r.grade}`) + (r.bonus ? ` (+${r.bonus})` : "") + ` · ${r.blocked} of ${r.total} lines blocked` +
      ` · line of effect: ${r.lineOfEffect ? "yes" : "no"} · from ${r.from.join(", ")}`;
  } else if (err) dom.atkResult.textContent = "";
  else if (attacker && target && attacker === target) dom.atkResult.textContent = "The attacker and the target must differ.";
  else dom.atkResult.textContent = "Choose an attacker and a target.";
}

let faShown = "";
/**
 * An item picker: the presets, "empty" (for a hand), "custom…" with an id, a kind and how it
 * attacks at range. `apply` gets the item chosen (null: empty); a custom item with no id yet is
 * not applied.
 * @param {string} key its ui.faCustom key @param {string} id the select's id (its fields': id-…)
 * @param {string} label @param {Item | null} item shown @param {boolean} allowEmpty
 * @param {(item: Item | null) => void} apply
 */
function itemPicker(key, id, label, item, allowEmpty, apply) {
  const wrap = document.createElement("span");
  wrap.className = "fa-item";
  const option = (/** @type {string} */ value, /** @type {string} */ text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  };
  const select = document.createElement("select");
  select.id = id;
  select.setAttribute("aria-label", label);
  if (allowEmpty) select.append(option("", "empty"));
  for (const [k, text] of ITEM_PRESETS) select.append(option(k, text));
  select.append(option("custom", "custom…"));
  const preset = item ? ITEM_PRESETS.find(([, , it]) => sameItem(it, item)) : undefined;
  const custom = ui.faCustom.has(key) || (item !== null && !preset);
  select.value = custom ? "custom" : preset ? preset[0] : "";
  select.addEventListener("change", () => {
    if (select.value === "custom") {
      ui.faCustom.add(key);
      faShown = "";
      renderPanel();
      return;
    }
    ui.faCustom.delete(key);
    const p = ITEM_PRESETS.find(([k]) => k === select.value);
    apply(p ? { ...p[2] } : null);
  });
  wrap.append(select);
  if (!custom) return wrap;
  const cur = item ?? { id: "", kind: "oneHanded" };
  const name = document.createElement("input");
  name.id = `${id}-id`;
  name.autocomplete = "off";
  name.spellcheck = false;
  name.placeholder = "id";
  name.value = cur.id;
  name.setAttribute("aria-label", `${label}: the custom item's id`);
  const kind = document.createElement("select");
  kind.id = `${id}-kind`;
  kind.setAttribute("aria-label", `${label}: its kind`);
  kind.append(...ITEM_KINDS.map((k) => option(k, KIND_LABEL[k])));
  kind.value = cur.kind;
  const ranged = document.createElement("select");
  ranged.id = `${id}-ranged`;
  ranged.setAttribute("aria-label", `${label}: at range`);
  ranged.append(option("", "melee only"), option("projectile", "projectile"), option("thrown", "thrown"));
  ranged.value = cur.ranged ?? "";
  const read = () => {
    const text = name.value.trim();
    name.setAttribute("aria-invalid", text ? "false" : "true");
    if (!text) return;
    /** @type {Item} */
    const it = { id: text, kind: /** @type {Item["kind"]} */ (kind.value) };
    if (ranged.value === "projectile" || ranged.value === "thrown") it.ranged = ranged.value;
    apply(it);
  };
  for (const el of [name, kind, ranged]) el.addEventListener("change", read);
  wrap.append(name, kind, ranged);
  return wrap;
}

/** @param {string} text @param {string} [className] */
function span(text, className) {
  const s = document.createElement("span");
  if (className) s.className = className;
  s.textContent = text;
  return s;
}

/**
 * A button of the panel (its id kept across rebuilds, so that the focus stays on it).
 * @param {string} id @param {(string | Node)[]} content @param {() => void} onClick
 */
function faButton(id, content, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.append(...content);
  b.addEventListener("click", onClick);
  return b;
}

/**
 * The full attack panel: its fields follow scene.fullAttack; the plan, what may come next and
 * the errors are the engine's answers (evaluateFullAttack).
 */
function renderFullAttack() {
  evaluateFullAttack();
  const plan = scene.fullAttack, fa = ui.fa;
  for (const box of dom.faFeats) box.checked = plan.feats.includes(/** @type {Feat} */ (box.value));
  dom.faTwoWeapon.checked = plan.twoWeapon;
  dom.faRapidShot.checked = plan.rapidShot;
  dom.faAddHand.disabled = plan.hands.length >= ARMS.length;
  dom.faRemoveHand.disabled = plan.hands.length <= 2;
  dom.faPop.disabled = plan.steps.length === 0;
  dom.faClear.disabled = plan.steps.length === 0;
  showError(dom.faCombatantError, fa.refused ? `Not changed: ${fa.refused}` : "");
  const sig = JSON.stringify([plan, fa.result, fa.error, fa.before, fa.throws, fa.tried, [...ui.faCustom], ui.faDraw]);
  if (sig === faShown) return;
  faShown = sig;
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && dom.faSection.contains(active) ? active.id : "";

  if (document.activeElement !== dom.faBab) {
    dom.faBab.value = String(plan.bab);
    dom.faBab.setAttribute("aria-invalid", "false");
  }

  // The hands, in order: the first is the primary hand (SPEC §9.1).
  dom.faHands.replaceChildren(...plan.hands.map((h, i) => {
    const li = document.createElement("li");
    li.className = "fa-hand";
    li.append(span(h, "fa-hand-name"), span(i === 0 ? "primary" : "off hand", "hint"));
    const held = plan.holding[h] ?? null;
    li.append(itemPicker(`hand:${h}`, `fa-hold-${i}`, `${h} holds`, held, true, (item) => editFullAttack((p) => withHolding(p, h, item, null))));
    if (held && twoHands(held)) {
      const pair = document.createElement("span");
      pair.className = "fa-pair";
      const label = document.createElement("label");
      label.htmlFor = `fa-pair-${i}`;
      label.textContent = "with";
      const select = document.createElement("select");
      select.id = `fa-pair-${i}`;
      for (const other of plan.hands) {
        if (other === h) continue;
        const o = document.createElement("option");
        o.value = other;
        o.textContent = other;
        select.append(o);
      }
      select.value = partnerOf(plan, h) ?? "";
      select.addEventListener("change", () => editFullAttack((p) => withHolding(p, h, p.holding[h] ?? null, select.value)));
      pair.append(label, select);
      li.append(pair);
    }
    return li;
  }));

  // Natural weapons, and the hands one may sit on.
  dom.faNaturals.replaceChildren(...plan.natural.map((n, i) => {
    const li = document.createElement("li");
    li.append(span(n.id, "fa-what"), span(`${n.primary ? "primary" : "secondary"}${n.hand ? `, on ${n.hand}` : ""}`, "hint"),
      faButton(`fa-nat-remove-${i}`, ["Remove"], () => editFullAttack((p) => ({ ...p, natural: p.natural.filter((_, j) => j !== i) }))));
    return li;
  }));
  const natHand = dom.faNatHand.value;
  dom.faNatHand.replaceChildren(...["", ...plan.hands].map((h) => {
    const o = document.createElement("option");
    o.value = h;
    o.textContent = h ? `on ${h}` : "on no hand";
    return o;
  }));
  dom.faNatHand.value = plan.hands.includes(natHand) ? natHand : "";

  // The plan, priced; an illegal plan unpriced, its steps before the illegal one named by what
  // they attack with (priced alone, they would be a shorter full attack: not shown).
  const priced = fa.result ? fa.result.steps : null;
  const bad = fa.error && fa.error.at !== undefined ? fa.error.at : -1;
  dom.faSteps.replaceChildren(...plan.steps.map((st, i) => {
    const p = priced ? priced[i] ?? null : null;
    const li = document.createElement("li");
    li.className = "fa-step";
    li.append(span(`${i + 1}.`, "fa-n"), span(describeStep(st, p ?? (i < bad ? fa.before[i] ?? null : null)), "fa-what"));
    if (p && typeof p.bonus === "number") {
      li.classList.add("fa-attack");
      li.dataset.bonus = String(p.bonus);
      li.append(span(p.as ? AS_LABEL[p.as] + (p.as === "natural" ? (p.secondary ? ", secondary" : ", primary") : "") : "", "hint"), span(signed(p.bonus), "fa-bonus"), span(partsText(p), "fa-parts"));
    } else if (st.attack === undefined && st.natural === undefined) {
      li.append(span("free", "hint"));
    }
    if (i === bad && fa.error) {
      li.classList.add("fa-bad");
      li.append(span(`✗ ${fa.error.code}`, "fa-bonus"));
    }
    return li;
  }));
  dom.faStepsEmpty.hidden = plan.steps.length > 0;

  // The errors: the step just refused (the plan is unchanged), or the plan's own.
  const tried = fa.tried;
  if (tried) showError(dom.faError, `Not added (${describeStep(tried.step, null)}) — ${fullAttackErrorText(tried.error)}. The plan is unchanged.`);
  else if (fa.error) showError(dom.faError, `${fullAttackErrorText(fa.error)}. Remove the last step or change the combatant.`);
  else showError(dom.faError, "");

  // What may come next: the engine's `next`, one button each, and a throw where the engine takes one.
  const next = fa.result ? fa.result.next : [];
  dom.faNext.replaceChildren(...next.map((n, i) => {
    const li = document.createElement("li");
    const step = stepOf(n);
    const what = describeStep(step, n);
    const bonus = n.bonus ?? 0;
    const b = faButton(`fa-next-${i}`, [`${what} `, span(signed(bonus), "fa-bonus")], () => tryStep(step));
    b.dataset.bonus = String(bonus);
    b.title = `${n.as ? AS_LABEL[n.as] : ""}: ${partsText(n)}`;
    li.append(b);
    const thrown = fa.throws.find((x) => x.index === i);
    if (thrown) {
      const t = faButton(`fa-throw-${i}`, ["throw ", span(signed(thrown.bonus), "fa-bonus")], () => tryStep(thrown.step));
      t.dataset.bonus = String(thrown.bonus);
      t.setAttribute("aria-label", `${what}, thrown ${signed(thrown.bonus)}`);
      t.title = "Throw it: the hand is empty afterwards (SPEC §9.2)";
      li.append(t);
    }
    return li;
  }));
  dom.faNextEmpty.hidden = !(fa.error || (fa.result && next.length === 0));
  dom.faNextEmpty.textContent = fa.error ? "Nothing until the plan is legal again." : "No attack may follow: every budget of this full attack is spent, or nothing in hand can use one.";

  // Drop and draw (free; a draw needs Quick Draw: the engine says so when it is missing).
  dom.faDrops.replaceChildren(...plan.hands.map((h, i) => {
    const b = faButton(`fa-drop-${i}`, [`Drop ${h}`], () => tryStep({ drop: h }));
    b.disabled = !fa.result;
    return b;
  }));
  dom.faDraw.disabled = !fa.result;
  const d = ui.faDraw;
  const hand = plan.hands.includes(d.hand) ? d.hand : plan.hands[0];
  const others = plan.hands.filter((h) => h !== hand);
  const hand2 = others.includes(d.hand2) ? d.hand2 : others[0] ?? "";
  dom.faDrawItem.replaceChildren(itemPicker("draw", "fa-draw-pick", "Draw", d.item, false, (item) => {
    if (item) ui.faDraw.item = item;
    renderPanel();
  }));
  for (const [select, list, value] of /** @type {[HTMLSelectElement, string[], string][]} */ ([[dom.faDrawHand, plan.hands, hand], [dom.faDrawHand2, others, hand2]])) {
    select.replaceChildren(...list.map((h) => {
      const o = document.createElement("option");
      o.value = h;
      o.textContent = h;
      return o;
    }));
    select.value = value;
  }
  dom.faDrawPair.hidden = !twoHands(d.item);

  // One line: the bonuses so far.
  if (fa.result) {
    const bonuses = fa.result.steps.filter((p) => typeof p.bonus === "number").map((p) => signed(/** @type {number} */ (p.bonus)));
    dom.faStatus.classList.remove("error");
    dom.faStatus.textContent = `${bonuses.length} attack${bonuses.length === 1 ? "" : "s"} so far${bonuses.length ? `: ${bonuses.join(" / ")}` : ""}; ${next.length} may come next.`;
  } else if (fa.error) {
    dom.faStatus.classList.add("error");
    dom.faStatus.textContent = fa.error.at !== undefined ? `The plan breaks a rule at step ${fa.error.at + 1}: ${fa.error.code}.` : `${fa.error.code}.`;
  } else dom.faStatus.textContent = "";

  if (focused && (document.activeElement === document.body || document.activeElement === null)) document.getElementById(focused)?.focus();
}

/**
 * A roll in words, as SPEC §7.4 adds it up: the die, plus the stat, less the defence (the
 * target's, and its cover's bonus), plus the modifiers, is the total; a hit needs 11 (a natural
 * 20 always hits, a natural 1 always misses; luck changes what the die needs).
 * @param {import("../index.js").Roll} r @param {number} cover the target's cover bonus (in r.defence)
 */
function rollWords(r, cover) {
  const die = r.dice[r.dice.length - 1], { stat, modifiers, luck } = scene.rolls;
  const term = (/** @type {number} */ n) => (n < 0 ? `− ${-n}` : `+ ${n}`);
  const defence = term(-r.defence) + (cover ? ` (defence ${r.defence - cover}, cover +${cover})` : " (defence)");
  const mods = modifiers ? ` ${term(modifiers)} (modifiers)` : "";
  const needs = ["needs 11"];
  if (r.dice.length > 1) needs.push(`the 1 rolled first was rolled again (luck ${luck})`);
  if (die === 20) needs.push("a natural 20 always hits");
  else if (die === 1) needs.push("a natural 1 always misses");
  else if (luck < 0) needs.push(`with luck ${signed(luck)} the die must also be ${11 - luck} or more`);
  else if (luck > 0) needs.push(`with luck ${signed(luck)} any die above ${11 - luck} hits`);
  return `d20 ${r.dice.join(" → ")} ${term(stat)} (stat) ${defence}${mods} = ${r.total}: ${r.hit ? "hit" : "miss"} (${needs.join("; ")})`;
}

/** @param {import("../overlay.js").DrawTarget} x a target of the summary, with its details */
function targetItem(x) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.id = x.id;
  const e = findEntity(x.id);
  b.classList.toggle("current", focusId() === x.id);
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = x.id;
  const state = document.createElement("span");
  state.className = `tag ${x.affected ? "affected" : "spared"}`;
  state.textContent = x.affected ? "affected" : `not affected: ${x.reason}`;
  b.append(who, " ", state);
  if (e && e === scene.caster) {
    const c = document.createElement("span");
    c.className = "tag caster";
    c.textContent = "caster, in its own area";
    b.append(" ", c);
  }
  const detail = document.createElement("span");
  detail.className = "detail";
  const badge = document.createElement("span");
  badge.className = `badge b-${x.cover}`;
  badge.dataset.grade = x.cover;
  const t = ui.template;
  if (isPoint(t) && t) {
    // dnd5e: ½ and ¾ cover add to AC and Dexterity saves (SPEC §10.8); pf2e: lesser to AC,
    // standard and greater to AC and Reflex saves (§11.5).
    badge.textContent = gradeWords(x.cover);
    const against = t.rules === "dnd5e" ? "AC and Dex saves" : x.cover === "lesser" ? "AC" : "AC and Reflex saves";
    detail.append("cover ", badge, x.bonus ? ` +${x.bonus} to ${against}` : "", x.cover === "total" ? " (cannot be targeted)" : "",
      x.total ? ` · ${x.blocked} of ${x.total} line${x.total === 1 ? "" : "s"} blocked` : "");
  } else {
    // TDGS: partial +2, half +4 to the defence (REF), full: not affected; Draw Steel's "cover"
    // is a bane on the abilities against it (SPEC §5.5).
    badge.textContent = x.cover;
    const effect = x.bonus ? ` +${x.bonus} defence` : x.cover === "cover" ? ": a bane on abilities against it (Draw Steel)" : x.cover === "full" ? ": cannot be targeted" : "";
    detail.append(x.cover === "cover" ? "" : "cover ", badge, effect, x.total ? ` · ${x.blocked} of ${x.total} lines blocked` : "");
  }
  if (e && e.z >= scene.levels) detail.append(` · above the board's levels (z ${e.z}; the board's are 0 … ${scene.levels - 1}): no area is drawn there`);
  if (x.roll) {
    const roll = document.createElement("span");
    roll.className = `roll ${x.roll.hit ? "roll-hit" : "roll-miss"}`;
    roll.textContent = ` · ${rollWords(x.roll, x.bonus)}`;
    detail.append(roll);
  }
  b.append(detail);
  b.addEventListener("click", () => select({ kind: "entity", id: x.id }));
  b.addEventListener("mouseenter", () => hover(x.id));
  b.addEventListener("mouseleave", () => hover(null));
  b.addEventListener("focus", () => hover(x.id));
  b.addEventListener("blur", () => hover(null));
  li.append(b);
  return li;
}

/** @param {string | null} id */
function hover(id) {
  if (ui.hoverId === id) return;
  ui.hoverId = id;
  draw();
}

let editorFor = "";
function renderEditor(force = false) {
  const sel = ui.selected;
  const e = sel && sel.kind === "entity" ? findEntity(sel.id) : null;
  dom.editor.hidden = !e;
  if (!e) { editorFor = ""; return; }
  const sig = JSON.stringify(e) + (e === scene.caster);
  if (!force && sig === editorFor) return;
  editorFor = sig;
  const isCaster = e === scene.caster;
  dom.editor.classList.toggle("is-caster", isCaster);
  dom.editorTitle.textContent = isCaster ? `${e.id} (the caster)` : e.id;
  dom.edId.value = e.id;
  dom.edSide.value = SIDES.includes(e.side) ? e.side : "neutral";
  dom.edSize.value = String(e.size);
  dom.edHeight.value = e.height === null ? "" : String(e.height);
  dom.edZ.value = String(e.z);
  dom.edFacing.value = e.facing;
  dom.edDefence.value = e.defence ? String(e.defence) : "";
  dom.edProne.checked = e.prone;
}

function renderHistory() {
  dom.undo.disabled = history.index <= 0;
  dom.redo.disabled = history.index >= history.stack.length - 1;
}

/** @param {string} text @param {boolean} [warn] */
function setBoardNote(text, warn = false) {
  const note = ui.boardNote || text;
  dom.note.textContent = note;
  dom.note.classList.toggle("warn", ui.boardNote ? ui.boardWarn : warn);
}

/** A passing message under the board (a refused drop, a refused square). @param {string} text */
function flash(text) {
  ui.boardNote = text;
  ui.boardWarn = true;
  setBoardNote("");
}

/** Fields that mirror the scene, set after the scene is replaced. */
function syncFields() {
  dom.notation.value = scene.template;
  dom.rules.value = scene.rules;
  dom.range.value = scene.range === null ? "" : String(scene.range);
  dom.range.setAttribute("aria-invalid", "false");
  showError(dom.rangeError, "");
  dom.source.checked = scene.source;
  dom.trait.value = scene.trait;
  dom.excludeCaster.checked = scene.excludeCaster;
  dom.selectiveNote.hidden = scene.trait !== "selective";
  dom.barriers.value = flagText(scene.barriers);
  dom.cover.value = scene.cover;
  dom.applyCover.value = flagText(scene.applyCover);
  dom.rolls.checked = scene.rolls.on;
  dom.stat.value = String(scene.rolls.stat);
  dom.mods.value = String(scene.rolls.modifiers);
  dom.luck.value = String(scene.rolls.luck);
  dom.seed.value = String(scene.rolls.seed);
  showError(dom.rollsError, "");
  dom.levels.value = String(scene.levels);
  dom.levels.setAttribute("aria-invalid", "false");
  dom.moveKind.value = scene.force.kind;
  dom.moveDistance.value = String(scene.force.distance);
  showError(dom.editorError, "");
  renderEditor(true);
  dom.faBab.value = String(scene.fullAttack.bab);
  dom.faBab.setAttribute("aria-invalid", "false");
  faShown = "";
}

// ---------------------------------------------------------------------------------------------
// Editing

/** @param {Sel | null} sel */
function select(sel) {
  ui.selected = sel;
  showError(dom.editorError, "");
  refresh(); // the forced-movement preview follows the selection
}

/** Everything [ and ] cycle through: creatures, then handles. */
function selectables() {
  /** @type {Sel[]} */
  const list = entities(scene).map((e) => ({ kind: "entity", id: e.id }));
  for (const h of handles()) list.push({ kind: h });
  return list;
}

/** @param {Sel} a @param {Sel | null} b */
const sameSel = (a, b) => !!b && a.kind === b.kind && (a.kind !== "entity" || (b.kind === "entity" && a.id === b.id));

/**
 * What the pointer would grab at (px, py): a handle near its centre first, then the topmost
 * creature, then a handle anywhere in its square.
 * @param {number} px @param {number} py @returns {Sel | null}
 */
function grabAt(px, py) {
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
function anchorOf(sel) {
  if (sel.kind === "origin") return scene.origin;
  if (sel.kind === "aim") return scene.aim;
  return findEntity(sel.id);
}

/**
 * Moves a selection's anchor to (x, y) if it may go there; returns "" or why not.
 * @param {Sel} sel @param {number} x @param {number} y
 */
function moveTo(sel, x, y) {
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
function setTool(tool) {
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
function gridAt(px, py) {
  return { x: Math.min(Math.max(Math.round(px / ui.sq), 0), scene.cols), y: Math.min(Math.max(Math.round(py / ui.sq), 0), scene.rows) };
}

/** The thin wall nearest (px, py) within a few pixels of it, the last drawn on a tie, or null. @param {number} px @param {number} py */
function wallAt(px, py) {
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
function selectWall(i) {
  ui.wall = i;
  if (i !== null) ui.fence = scene.walls[i].top !== undefined;
  renderWallTools();
  draw();
}

/** Adds the thin wall a → b (the same wall again only selects it), as one undo step. @param {[number, number]} a @param {[number, number]} b */
function addWall(a, b) {
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
function toggleDoor(i) {
  const w = scene.walls[i];
  if (!w) return;
  commit();
  w.open = !w.open;
  commit();
  refresh();
}

/** The fence toggle: the next walls drawn, and the selected one, are waist-high (top 0.5) or full. */
function toggleFence() {
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

function removeWall() {
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
function renderWallTools() {
  const w = ui.wall !== null ? scene.walls[ui.wall] ?? null : null;
  dom.wallDoor.disabled = !w;
  dom.wallDelete.disabled = !w;
  dom.wallDoor.setAttribute("aria-pressed", w && w.open ? "true" : "false");
  dom.wallOptions.classList.toggle("off", ui.tool !== "thin");
  dom.wallFence.setAttribute("aria-pressed", ui.fence ? "true" : "false");
  const text = w ? `selected: ${wallWords(w)}` : ui.tool !== "thin" ? "T: thin walls and doors" : "drag between grid points; click a wall";
  if (dom.wallInfo.value !== text) { dom.wallInfo.value = text; dom.wallInfo.title = text; }
}

function updateCursor() {
  canvas.classList.remove("c-grab", "c-grabbing", "c-paint", "c-blocked", "c-pan", "c-panning");
  if (ui.pan) canvas.classList.add("c-panning");
  else if (ui.tool === "pan" || ui.space) canvas.classList.add("c-pan");
  else if (ui.drag) canvas.classList.add(ui.drag.blocked ? "c-blocked" : "c-grabbing");
  else if (ui.tool !== "move") canvas.classList.add("c-paint");
  else if (ui.hoverCell && lastPoint && grabAt(lastPoint.px, lastPoint.py)) canvas.classList.add("c-grab");
}
/** @type {{px: number, py: number} | null} */
let lastPoint = null;

/**
 * The squares from a to b, each sharing a side or a corner with the one before (a fast drag
 * skips none).
 * @param {{x: number, y: number}} a @param {{x: number, y: number}} b
 */
function squaresBetween(a, b) {
  const out = [];
  const n = Math.max(Math.abs(b.x - a.x), Math.abs(b.y - a.y));
  for (let i = 1; i <= n; i++) out.push({ x: Math.round(a.x + ((b.x - a.x) * i) / n), y: Math.round(a.y + ((b.y - a.y) * i) / n) });
  return out;
}

/** Paints one square, on the level shown, with the current painting tool. @param {{x: number, y: number}} c */
function paintSquare(c) {
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
function pathSquare(c) {
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
function areaSquares(z) {
  /** @type {Set<string>} */
  const out = new Set();
  const res = ui.result;
  if (res) for (const c of res.cells) if (c[2] === z) out.add(`${c[0]},${c[1]}`);
  for (const c of scene.excludeCells) if (c[2] === z) out.add(`${c[0]},${c[1]}`);
  return out;
}

/** Takes a square of the area out of it (or puts it back), with the Spare squares tool. @param {{x: number, y: number}} c */
function spareSquare(c) {
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
function slideSquare(c) {
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
function popSlideSquare() {
  if (slidePath().length === 0) return;
  commit();
  scene.force.path.pop();
  commit();
  refresh();
}

/** Clears the slide's path (Escape, Clear). */
function clearSlidePath() {
  if (slidePath().length === 0) return;
  commit();
  scene.force.path = [];
  commit();
  refresh();
}

/** A Draw Steel cube's origin square (SPEC §3.4), chosen with Shift + click; null: the engine's default. @param {Pos | null} p */
function setOriginSquare(p) {
  commit();
  scene.originSquare = p;
  commit();
  refresh();
}

/** Starts a pan of the view by the pointer pressed. @param {PointerEvent} e */
function startPan(e) {
  e.preventDefault();
  canvas.focus({ preventScroll: true });
  ui.pan = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y };
  canvas.setPointerCapture(e.pointerId);
  updateCursor();
}

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
  if (ui.paint && inside) {
    for (const s of squaresBetween(ui.paint.last, c)) paintSquare(s);
    ui.paint.last = c;
    if (cellChanged) refresh();
    return;
  }
  if (ui.slideStroke && inside) {
    for (const s of squaresBetween(ui.slideStroke.last, c)) slideSquare(s);
    ui.slideStroke.last = c;
    if (cellChanged) refresh();
    return;
  }
  if (ui.pathStroke && inside) {
    for (const s of squaresBetween(ui.pathStroke.last, c)) pathSquare(s);
    ui.pathStroke.last = c;
    if (cellChanged) refresh();
    return;
  }
  if (ui.spareStroke && inside) {
    for (const s of squaresBetween(ui.spareStroke.last, c)) spareSquare(s);
    ui.spareStroke.last = c;
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
function endGesture(cancel = false) {
  if (ui.pan) {
    ui.pan = null;
    updateCursor();
    return;
  }
  const d = ui.drag, p = ui.paint, s = ui.pathStroke || ui.spareStroke || ui.slideStroke, w = ui.wallStroke;
  ui.drag = null;
  ui.paint = null;
  ui.pathStroke = null;
  ui.slideStroke = null;
  ui.spareStroke = null;
  ui.wallStroke = null;
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
  if (ui.drag || ui.paint || ui.pathStroke || ui.slideStroke || ui.spareStroke || ui.wallStroke || ui.pan) return;
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
function turn(k, step = null) {
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
    if (ui.drag || ui.wallStroke) { endGesture(true); return; }
    ui.attack.pick = 0; // picking an attacker and a target stops too
    ui.wall = null;
    renderWallTools();
    select(null);
  } else if ((k === "Delete" || k === "Backspace") && ui.tool === "thin" && ui.wall !== null) {
    e.preventDefault();
    removeWall();
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

// The template: engine.parse decides what it is; a bad text leaves the last good one drawn.
/** @param {string} text @param {boolean} record */
function setNotation(text, record) {
  const engine = ui.engine;
  if (!engine) return;
  /** @type {Template} */
  let t;
  try {
    t = parseAs(engine, text, scene.rules);
  } catch (err) {
    const e = engineError(err);
    const example = scene.rules === "dnd5e" ? "20-foot-radius sphere, 15-foot cone or 60-foot line" : scene.rules === "pf2e" ? "20-foot burst, 15-foot cone or 10-foot emanation" : "Cir2, Con3N, 2 burst or circle 3";
    const hint = isPointRules(scene.rules) ? ` (${RULES_LABEL[scene.rules]} notation, in feet; choose another rule set for the others)`
      : e.code === "bad_request" && /dnd5e/.test(e.message) ? " — choose D&D 5e or Pathfinder 2e as the Rule set below" : "";
    ui.notationError = { ...e, text, message: text.trim() === "" ? `type a template, such as ${example}` : e.message + hint };
    renderPanel();
    return;
  }
  ui.notationError = null;
  const before = ui.template ? placementOf(ui.template, scene) : null;
  scene.template = text;
  ui.template = t;
  const after = placementOf(t, scene);
  if (after === "line" && before !== "line") {
    // A Draw Steel line starts beside the caster, pointing the way it faces.
    const c = scene.caster, [dx, dy] = STEP[DIRS.indexOf(c.facing)];
    const clamp = (/** @type {number} */ v, /** @type {number} */ n) => Math.min(Math.max(v, 0), n - 1);
    const ox = clamp(dx > 0 ? c.x + c.size : c.x + dx, scene.cols), oy = clamp(dy > 0 ? c.y + c.size : c.y + dy, scene.rows);
    scene.origin = { x: ox, y: oy, z: 0 };
    scene.aim = { x: clamp(ox + dx * 4, scene.cols), y: clamp(oy + dy * 4, scene.rows), z: 0 };
    if (scene.aim.x === ox && scene.aim.y === oy) scene.aim = { x: clamp(ox + 1, scene.cols) === ox ? ox - 1 : ox + 1, y: oy, z: 0 };
  }
  fitPoint();
  fitTool();
  if (record) commit();
  else save();
  refresh();
}
dom.notation.addEventListener("input", () => setNotation(dom.notation.value, false));
dom.notation.addEventListener("change", () => { if (!ui.notationError) commit(); });
dom.notation.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && ui.notationError) { // back to the template drawn
    dom.notation.value = scene.template;
    ui.notationError = null;
    renderPanel();
  }
});
dom.presets.addEventListener("change", () => {
  const option = dom.presets.selectedOptions[0];
  const text = option ? option.dataset.notation ?? dom.presets.value : "";
  const rules = option ? option.dataset.rules ?? "" : "";
  dom.presets.value = "";
  if (!text) return;
  commit();
  useRules(rules);
  dom.notation.value = text;
  setNotation(text, true);
});

/**
 * The rule set a template of `rules` is read under: dnd5e and pf2e templates under their own
 * (their notation needs it); a template of another rule set under the scene's override, or
 * from its notation when the scene was on dnd5e or pf2e. Sets the Rule set field; no commit.
 * @param {string} rules the template's rule set ("": a notation of the others)
 */
function useRules(rules) {
  const next = isPointRules(rules) ? rules : isPointRules(scene.rules) ? "" : scene.rules;
  if (next === scene.rules) return;
  lastTemplate[familyOf(scene.rules)] = scene.template;
  scene.rules = next;
  if (isPointRules(next) && (scene.cover === "tdgs" || scene.cover === "drawsteel")) scene.cover = ""; // theirs are the engine's own (SPEC §10.8, §11.5)
  syncFields();
}

/** The last template of each family of rule sets, to go back to when the rule set does. @type {Record<string, string>} */
const lastTemplate = {};
/** @param {Scene["rules"]} r */
const familyOf = (r) => (isPointRules(r) ? r : "classic");

dom.rules.addEventListener("change", () => {
  const engine = ui.engine;
  if (!engine) return;
  const next = /** @type {Scene["rules"]} */ (dom.rules.value);
  commit();
  const before = scene.rules;
  lastTemplate[familyOf(before)] = scene.template;
  scene.rules = next;
  if (familyOf(next) !== familyOf(before)) {
    // dnd5e and pf2e read their own notation (SPEC §10.3): a template the new rule set cannot
    // read gives way to the one last used under it, else to its sample.
    const candidates = [scene.template, lastTemplate[familyOf(next)] ?? "", isPointRules(next) ? POINT_SAMPLE[next] : "Cir3"];
    for (const text of candidates) {
      try {
        ui.template = parseAs(engine, text, next);
      } catch {
        continue;
      }
      scene.template = text;
      break;
    }
    ui.notationError = null;
    if (isPointRules(next) && (scene.cover === "tdgs" || scene.cover === "drawsteel")) scene.cover = "";
    fitPoint();
    fitTool();
    syncFields();
  }
  commit();
  refresh();
});
dom.range.addEventListener("input", () => {
  const v = dom.range.value.trim().toLowerCase();
  /** @type {Scene["range"] | undefined} */
  let r;
  if (v === "") r = null;
  else if (v === "self" || v === "touch") r = v;
  else if (/^\d{1,4}$/.test(v) && Number(v) <= 1000) r = Number(v);
  dom.range.setAttribute("aria-invalid", r === undefined ? "true" : "false");
  showError(dom.rangeError, r === undefined ? "Range: a whole number of squares from 0 to 1000, self or touch; leave it empty for no range." : "");
  if (r === undefined) return;
  scene.range = r;
  save();
  refresh();
});
dom.range.addEventListener("change", () => { if (dom.range.getAttribute("aria-invalid") !== "true") commit(); });
dom.source.addEventListener("change", () => {
  commit();
  scene.source = dom.source.checked;
  const o = ui.summary && ui.summary.origin;
  if (scene.source && isPoint(ui.template) && o) {
    // A dnd5e or pf2e cone or line stays where it is: its point starts where it left the caster.
    const half = (/** @type {number} */ v) => Math.round(v / HALF) * HALF;
    scene.point = { x: Math.min(Math.max(half(o.x), 0), scene.cols), y: Math.min(Math.max(half(o.y), 0), scene.rows), z: o.z };
  }
  fitTool();
  commit();
  refresh();
});
dom.trait.addEventListener("change", () => {
  commit();
  scene.trait = /** @type {Trait} */ (dom.trait.value);
  // Selective starts with every creature but the caster chosen (untick those it spares).
  if (scene.trait === "selective" && scene.ids.length === 0) scene.ids = scene.tokens.map((e) => e.id);
  commit();
  fitTool();
  syncFields();
  refresh();
});
/** A boolean override's select: "" is the rule set's own, "on" true, "off" false. @param {HTMLSelectElement} el */
const flagOf = (el) => (el.value === "on" ? true : el.value === "off" ? false : null);
/** @param {null | boolean} v */
const flagText = (v) => (v === null ? "" : v ? "on" : "off");
dom.barriers.addEventListener("change", () => { commit(); scene.barriers = flagOf(dom.barriers); commit(); refresh(); });
dom.cover.addEventListener("change", () => { commit(); scene.cover = /** @type {CoverOverride} */ (dom.cover.value); commit(); refresh(); });
dom.applyCover.addEventListener("change", () => { commit(); scene.applyCover = flagOf(dom.applyCover); commit(); refresh(); });

// The shape palette: a template of the kind pressed, keeping the current one's size where it
// has one (its radius, length, side, squares), its direction, width, height and `within` where
// the new kind has them too. The engine parses it (as for text typed in the box).
/**
 * The notation of a template of kind rules/shape(/close) shaped like t where it can be.
 * @param {Rules} rules @param {string} shape @param {boolean} close @param {Template | null} t @param {string} text t's notation as written
 */
function paletteNotation(rules, shape, close, t, text) {
  const n = t ? (t.radius ?? t.length ?? t.side ?? t.squares ?? t.size ?? 3) : 3;
  if (isPointRules(rules)) {
    // SPEC §10.3: sizes in feet, 5 a square; a cylinder keeps its height, else twice its radius.
    const ft = n * FEET;
    if (shape === "sphere") return `${ft}-foot-radius sphere`;
    if (shape === "cylinder") return `${ft}-foot-radius, ${(t && t.shape === "cylinder" && isPoint(t) && t.height ? t.height : 2 * n) * FEET}-foot-high cylinder`;
    if (shape === "line") return `${ft}-foot line` + (t && isPoint(t) && t.shape === "line" && t.width && t.width > 1 ? ` ${t.width * FEET} feet wide` : "");
    return `${ft}-foot ${shape}`; // cone, cube, emanation, burst
  }
  const tdgs = t && t.rules === "tdgs" ? t : null, ds = t && t.rules === "drawsteel" ? t : null;
  const dir = tdgs && tdgs.direction ? tdgs.direction : "N";
  // A TDGS height written in the notation (hN) is kept; otherwise the shape's default (SPEC §2.8).
  const hm = tdgs ? /h(\d+)\s*$/.exec(text.trim()) : null;
  const h = hm ? `h${hm[1]}` : "";
  if (rules === "tdgs") {
    if (shape === "circle") return `Cir${n}${h}`;
    if (shape === "cone") return `Con${n}${dir}${h}`;
    if (shape === "line") return `Lin${n}${dir}${tdgs && tdgs.shape === "line" && tdgs.width && tdgs.width > 1 ? `w${tdgs.width}` : ""}${h}`;
    return tdgs && tdgs.shape === "rectangle" ? `Rec${tdgs.width}x${tdgs.length}${h}` : `Rec${n}x${n}${h}`;
  }
  if (rules === "drawsteel") {
    const within = (/** @type {number} */ d) => ` within ${ds && ds.within ? ds.within : d}`;
    if (shape === "burst" || shape === "aura") return `${n} ${shape}`;
    if (shape === "cube") return `${n} cube${within(10)}`;
    if (shape === "line") return `${n} x ${ds && ds.shape === "line" && ds.width ? ds.width : 1} line${within(1)}`;
    return `${n} wall${within(10)}`;
  }
  return `${close ? "close " : ""}circle ${n}`;
}

/** The fallback of each palette entry, when the kept size does not make a valid template. */
const PALETTE_DEFAULT = { "tdgs circle": "Cir3", "tdgs cone": "Con3N", "tdgs line": "Lin6E", "tdgs rectangle": "Rec3x4",
  "drawsteel burst": "2 burst", "drawsteel aura": "3 aura", "drawsteel cube": "3 cube within 10", "drawsteel line": "6 x 1 line within 1",
  "drawsteel wall": "6 wall within 10", "circle50 circle": "circle 4", "circle50 close": "close circle 3",
  "dnd5e sphere": "20-foot-radius sphere", "dnd5e cone": "15-foot cone", "dnd5e line": "60-foot line", "dnd5e cube": "10-foot cube",
  "dnd5e cylinder": "10-foot-radius, 40-foot-high cylinder", "dnd5e emanation": "10-foot emanation",
  "pf2e burst": "20-foot burst", "pf2e cone": "15-foot cone", "pf2e line": "60-foot line", "pf2e emanation": "10-foot emanation" };

for (const b of dom.shapes) {
  b.addEventListener("click", () => {
    const engine = ui.engine;
    if (!engine) return;
    const rules = /** @type {Rules} */ (b.dataset.rules), shape = b.dataset.shape ?? "", close = b.dataset.close === "true";
    let text = paletteNotation(rules, shape, close, ui.template, scene.template);
    try {
      const t = parseAs(engine, text, rules);
      if (t.rules !== rules || t.shape !== shape || (rules === "circle50" && !!t.close !== close)) throw new Error("another kind");
    } catch {
      text = PALETTE_DEFAULT[/** @type {keyof typeof PALETTE_DEFAULT} */ (`${rules} ${close ? "close" : shape}`)];
    }
    commit();
    useRules(rules);
    dom.notation.value = text;
    setNotation(text, true);
  });
}
dom.excludeCaster.addEventListener("change", () => { commit(); scene.excludeCaster = dom.excludeCaster.checked; commit(); refresh(); });

// Rolls.
/** @param {HTMLInputElement} input @param {number} lo @param {number} hi */
function intField(input, lo, hi) {
  const v = input.value.trim();
  const n = v === "" ? 0 : /^-?\d+$/.test(v) ? Number(v) : NaN;
  const ok = Number.isSafeInteger(n) && n >= lo && n <= hi;
  input.setAttribute("aria-invalid", ok ? "false" : "true");
  return ok ? n : null;
}
dom.rolls.addEventListener("change", () => { commit(); scene.rolls.on = dom.rolls.checked; commit(); refresh(); });
for (const [input, field, lo, hi] of /** @type {[HTMLInputElement, "stat" | "modifiers" | "luck" | "seed", number, number][]} */ ([
  [dom.stat, "stat", -1000, 1000], [dom.mods, "modifiers", -1000, 1000], [dom.luck, "luck", -100, 100], [dom.seed, "seed", 0, Number.MAX_SAFE_INTEGER],
])) {
  input.addEventListener("change", () => {
    const n = intField(input, lo, hi);
    showError(dom.rollsError, n === null ? `${field}: a whole number from ${lo} to ${hi}` : "");
    if (n === null) return;
    commit();
    scene.rolls[field] = n;
    commit();
    refresh();
  });
}
dom.reroll.addEventListener("click", () => {
  commit();
  scene.rolls.seed = (scene.rolls.seed + 1) % Number.MAX_SAFE_INTEGER;
  dom.seed.value = String(scene.rolls.seed);
  commit();
  refresh();
});

// Forced movement.
dom.moveSection.addEventListener("toggle", () => refresh());
dom.moveSection.addEventListener("toggle", () => fitTool());
dom.moveKind.addEventListener("change", () => {
  commit();
  const v = dom.moveKind.value;
  scene.force.kind = v === "pull" ? "pull" : v === "slide" ? "slide" : "push";
  commit();
  if (scene.force.kind === "slide") setTool("slide"); // the board lays the path
  fitTool();
  refresh();
});
dom.slideLay.addEventListener("click", () => { setTool(ui.tool === "slide" ? "move" : "slide"); refresh(); });
dom.slidePop.addEventListener("click", popSlideSquare);
dom.slideClear.addEventListener("click", clearSlidePath);
dom.originSquareClear.addEventListener("click", () => setOriginSquare(null));
dom.moveDistance.addEventListener("change", () => {
  const n = intField(dom.moveDistance, 0, 1000);
  if (n === null) return;
  commit();
  scene.force.distance = n;
  commit();
  refresh();
});
dom.moveApply.addEventListener("click", () => {
  const e = forceTarget(), m = ui.move;
  if (!e || !m || m.path.length === 0) return;
  commit();
  e.x = m.end.x;
  e.y = m.end.y;
  e.z = m.end.z;
  if (scene.force.kind === "slide") scene.force.path = []; // laid from where it was
  commit();
  refresh();
});

// Attack cover.
dom.attackSection.addEventListener("toggle", () => { if (!dom.attackSection.open) ui.attack.pick = 0; refresh(); });
dom.atkAttacker.addEventListener("change", () => { ui.attack.attacker = dom.atkAttacker.value; refresh(); });
dom.atkTarget.addEventListener("change", () => { ui.attack.target = dom.atkTarget.value; refresh(); });
dom.atkKind.addEventListener("change", () => { ui.attack.kind = /** @type {CoverRequest["attack"]} */ (dom.atkKind.value); refresh(); });
dom.atkRules.addEventListener("change", () => { ui.attack.rules = /** @type {AttackRules} */ (dom.atkRules.value); refresh(); });
dom.atkFlying.addEventListener("change", () => { ui.attack.flying = dom.atkFlying.checked; refresh(); });
dom.atkPick.addEventListener("click", () => {
  ui.attack.pick = ui.attack.pick ? 0 : 1;
  if (ui.attack.pick) setTool("move");
  refresh();
});

// Full attack: each change of the combatant is one undo step (editFullAttack), each step added
// too (tryStep); the draw action's choices are not saved.
dom.faBab.addEventListener("change", () => {
  const n = intField(dom.faBab, 0, 40);
  if (n === null) {
    ui.fa.refused = "Base attack bonus: a whole number from 0 to 40.";
    renderPanel();
    return;
  }
  editFullAttack((p) => ({ ...p, bab: n }));
});
for (const box of dom.faFeats) {
  box.addEventListener("change", () => editFullAttack((p) => ({ ...p, feats: FEATS.filter((f) => (f === box.value ? box.checked : p.feats.includes(f))) })));
}
dom.faTwoWeapon.addEventListener("change", () => editFullAttack((p) => ({ ...p, twoWeapon: dom.faTwoWeapon.checked })));
dom.faRapidShot.addEventListener("change", () => editFullAttack((p) => ({ ...p, rapidShot: dom.faRapidShot.checked })));
dom.faAddHand.addEventListener("click", () => editFullAttack((p) => {
  const name = ARMS.find((a) => !p.hands.includes(a));
  if (!name || p.hands.length >= ARMS.length) return `the demo offers ${ARMS.length} arms at most.`;
  return { ...p, hands: [...p.hands, name] };
}));
dom.faRemoveHand.addEventListener("click", () => editFullAttack((p) => {
  if (p.hands.length <= 2) return "main and off stay.";
  const h = p.hands[p.hands.length - 1];
  const q = /** @type {FullAttackPlan} */ (withHolding(p, h, null, null)); // what it holds goes (both hands of a two-handed item)
  return {
    ...q, hands: q.hands.filter((x) => x !== h),
    natural: q.natural.map((n) => (n.hand === h ? { id: n.id, primary: n.primary } : n)), // a claw on it stays, on no hand
  };
}));
function addNatural() {
  const id = dom.faNatId.value.trim();
  if (!id) {
    ui.fa.refused = "a natural weapon needs a name (bite, claw…).";
    renderPanel();
    return;
  }
  /** @type {Natural} */
  const n = { id, primary: dom.faNatPrimary.checked };
  if (dom.faNatHand.value) n.hand = dom.faNatHand.value;
  editFullAttack((p) => ({ ...p, natural: [...p.natural, n] }));
  if (scene.fullAttack.natural.some((x) => x.id === id)) dom.faNatId.value = "";
}
dom.faNatAdd.addEventListener("click", addNatural);
dom.faNatId.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); addNatural(); } });
dom.faPop.addEventListener("click", () => {
  if (scene.fullAttack.steps.length === 0) return;
  commit();
  scene.fullAttack.steps.pop();
  commit();
  refresh();
});
dom.faClear.addEventListener("click", () => {
  if (scene.fullAttack.steps.length === 0) return;
  commit();
  scene.fullAttack.steps = [];
  commit();
  refresh();
});
dom.faDrawHand.addEventListener("change", () => { ui.faDraw.hand = dom.faDrawHand.value; renderPanel(); });
dom.faDrawHand2.addEventListener("change", () => { ui.faDraw.hand2 = dom.faDrawHand2.value; renderPanel(); });
dom.faDraw.addEventListener("click", () => {
  const item = { ...ui.faDraw.item };
  /** @type {FullAttackStep} */
  const step = { draw: dom.faDrawHand.value, item };
  if (twoHands(item)) step.hands = [dom.faDrawHand.value, dom.faDrawHand2.value];
  tryStep(step);
});

/**
 * The ledge (SPEC §5.4, R2): a knight standing on a full block one level up, an orc adjacent
 * below. Standing, the ledge under its feet gives no cover; flying, it is judged as well.
 * @returns {Scene}
 */
function ledgeScene() {
  const s = sampleScene();
  s.cols = 16; s.rows = 10; s.levels = 2; // the Knight stands on level 1
  s.template = "Cir1"; s.rules = ""; s.range = null; s.source = false;
  s.obstacles = [{ x: 4, y: 4, z: 0, fill: 1 }, { x: 4, y: 5, z: 0, fill: 1 }, { x: 3, y: 4, z: 0, fill: 1 }, { x: 3, y: 5, z: 0, fill: 1 }];
  s.caster = entity({ id: "Knight", x: 4, y: 4, z: 1, facing: "E", side: "party" });
  s.tokens = [entity({ id: "Orc", x: 5, y: 4, side: "enemy" })];
  s.origin = { x: 12, y: 6, z: 0 };
  s.aim = { x: 13, y: 6, z: 0 };
  return s;
}
dom.atkLedge.addEventListener("click", () => replaceWith(() => {
  commit();
  scene = { ...ledgeScene(), fullAttack: scene.fullAttack }; // the full attack panel is no part of a board: it stays
  dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
  ui.selected = null;
  ui.hoverId = null;
  ui.attack = { attacker: "Knight", target: "Orc", kind: "melee", rules: "dnd35", flying: false, pick: 0 };
  dom.attackSection.open = true;
  commit();
  sceneReplaced();
  sceneMessage("The ledge: Knight stands one level up on a block, Orc below (Undo returns to your scene).", false);
  markSafe();
}));

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
function addCreature(x, y, z, focus) {
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

function removeSelected() {
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

// Scene: export, import, sample, clear.
/** @param {string} text @param {boolean} error */
function sceneMessage(text, error) {
  dom.sceneMessage.hidden = !text;
  dom.sceneMessage.textContent = text;
  dom.sceneMessage.classList.toggle("error", error);
}

dom.exportButton.addEventListener("click", () => {
  const req = exportRequest();
  if (!req) return;
  const blob = new Blob([JSON.stringify(req, null, 2) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "aoekit-scene.json";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  markSafe();
  sceneMessage("Exported aoekit-scene.json: the evaluate request for this scene.", false);
});

/**
 * Imports a request's JSON text; on any problem the scene stays as it was.
 * @param {string} text @param {string} name
 * @returns {boolean}
 */
function importText(text, name) {
  /** @type {unknown} */
  let data;
  try {
    data = JSON.parse(text);
  } catch (err) {
    sceneMessage(`${name} was not imported: it is not JSON (${err instanceof Error ? err.message : err}). The scene is unchanged.`, true);
    return false;
  }
  try {
    const { scene: s, ignored } = readScene(data);
    commit();
    scene = { ...s, fullAttack: scene.fullAttack }; // a request has no full attack: the panel stays
    dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
    ui.selected = null;
    ui.hoverId = null;
    commit();
    sceneReplaced();
    markSafe();
    sceneMessage(`Imported ${name}.` + (ignored.length ? ` Not used by the demo: ${ignored.join(", ")}.` : ""), false);
    return true;
  } catch (err) {
    if (!(err instanceof SceneError)) throw err;
    sceneMessage(`${name} was not imported: ${err.message}. The scene is unchanged.`, true);
    return false;
  }
}
dom.importButton.addEventListener("click", () => dom.importFile.click());
dom.importFile.addEventListener("change", async () => {
  const file = dom.importFile.files && dom.importFile.files[0];
  dom.importFile.value = "";
  if (!file || !ui.engine) return;
  if (file.size > 4 << 20) { sceneMessage(`${file.name} was not imported: larger than 4 MiB. The scene is unchanged.`, true); return; }
  importText(await file.text(), file.name);
});
dom.sample.addEventListener("click", () => replaceWith(() => {
  commit();
  scene = { ...sampleScene(), fullAttack: scene.fullAttack }; // the full attack panel is no part of a board: it stays
  dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
  ui.selected = { kind: "entity", id: SAMPLE_SELECTED };
  commit();
  sceneReplaced();
  markSafe();
  sceneMessage("The sample scene is back (Undo returns to yours).", false);
}));
/**
 * The walled room (SPEC §5.6): a room of thin walls on the grid lines x 4…12, y 3…11, its east
 * side open by a one-square door at y 6…7, a few crates in a corner. Talent's 3 burst (Draw
 * Steel, §3.2) fills the room and escapes through the door (Runner is hit) but not through the
 * walls (Lurker, just outside, is cut off); the Archer's ranged shot at the Cultist crosses the
 * east wall (TDGS: every line blocked, full cover); the Guard, pushed west, is stopped by the
 * west wall.
 * @returns {Scene}
 */
function roomScene() {
  const s = sampleScene();
  s.template = "3 burst"; s.rules = ""; s.range = null; s.source = false;
  /** @type {[number, number][]} */
  const corners = [[4, 3], [12, 3], [12, 6], [12, 7], [12, 11], [4, 11], [4, 3]];
  s.walls = corners.slice(1).map((b, i) => ({ a: corners[i], b, ...(i === 2 ? { open: true } : {}) }));
  s.obstacles = [{ x: 4, y: 9, z: 0, fill: 1 }, { x: 4, y: 10, z: 0, fill: 1 }, { x: 5, y: 10, z: 0, fill: 1 }];
  s.caster = entity({ id: "Talent", x: 10, y: 6, facing: "E", side: "party" });
  s.tokens = [
    entity({ id: "Cultist", x: 8, y: 8, side: "enemy", defence: 3 }),
    entity({ id: "Runner", x: 13, y: 6, side: "enemy", defence: 4 }),
    entity({ id: "Lurker", x: 12, y: 8, side: "enemy", defence: 4 }),
    entity({ id: "Guard", x: 6, y: 6, side: "enemy", defence: 5 }),
    entity({ id: "Archer", x: 17, y: 9, side: "enemy", defence: 5 }),
  ];
  s.origin = { x: 16, y: 12, z: 0 };
  s.aim = { x: 18, y: 12, z: 0 };
  s.force = { kind: "push", distance: 3, path: [], of: "" };
  return s;
}
dom.sampleRoom.addEventListener("click", () => replaceWith(() => {
  commit();
  scene = { ...roomScene(), fullAttack: scene.fullAttack }; // the full attack panel is no part of a board: it stays
  dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
  ui.selected = { kind: "entity", id: "Guard" };
  ui.hoverId = null;
  ui.wall = null;
  // Set up, not opened: the Attack cover and Forced movement sections show them when opened.
  ui.attack = { attacker: "Archer", target: "Cultist", kind: "ranged", rules: "tdgs", flying: false, pick: 0 };
  commit();
  sceneReplaced();
  markSafe();
  sceneMessage("The walled room: the burst fills the room and leaves only through the open door; double-click the door to close it. Open Attack cover for the Archer's shot across a wall, Forced movement for the Guard's push into one (Undo returns to your scene).", false);
}));

/**
 * The request of the last scene kept elsewhere — a sample, a file imported or exported — as
 * JSON (localStorage keeps it with the scene): a scene still equal to it holds no work a sample
 * would lose, and is replaced without asking.
 */
let safeRequest = "";
const SAFE_KEY = "aoekit-demo/safe/v1";
function markSafe() {
  safeRequest = JSON.stringify(exportRequest());
  if (STRESS) return;
  try {
    localStorage.setItem(SAFE_KEY, safeRequest);
  } catch {
    // private mode or a full quota: asked once more than needed
  }
}
/** @type {null | (() => void)} what Replace it in the dialog does */
let pendingReplace = null;
/**
 * Replaces the scene with a sample (`load`): at once when the scene is kept elsewhere, else once
 * the user says so (the dialog; Undo brings the scene back in any case).
 * @param {() => void} load
 */
function replaceWith(load) {
  if (!ui.engine) return;
  if (JSON.stringify(exportRequest()) === safeRequest) {
    load();
    return;
  }
  pendingReplace = load;
  dom.confirmReplace.returnValue = "";
  dom.confirmReplace.showModal();
}
dom.confirmReplace.addEventListener("close", () => {
  const load = pendingReplace;
  pendingReplace = null;
  if (load && dom.confirmReplace.returnValue === "yes") load();
});

dom.clearWalls.addEventListener("click", () => {
  commit();
  scene.obstacles = [];
  scene.walls = [];
  ui.wall = null;
  ui.hoverWall = null;
  commit();
  refresh();
});

// ---------------------------------------------------------------------------------------------
// Start

window.addEventListener("pagehide", () => { if (ui.engine) save(); });
new ResizeObserver(() => resize()).observe(/** @type {HTMLElement} */ (dom.wrap.parentElement));
window.addEventListener("resize", resize);
dom.wrap.classList.add("fits");
resize();
draw();

/**
 * The region x, y, w × h of the backing store as shown: the layers drawn one over the other (the
 * test hooks' pixels).
 * @param {number} x @param {number} y @param {number} w @param {number} h
 */
function composite(x, y, w, h) {
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d", { willReadFrequently: true }));
  for (const layer of [stillCanvas, resultCanvas, canvas, badgesCanvas, namesCanvas]) if (layer.width > 0 && layer.height > 0) g.drawImage(layer, x, y, w, h, 0, 0, w, h);
  return g.getImageData(0, 0, w, h);
}

// Exposed for the browser tests; not an API.
/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)).__aoekitDemo = {
    state: ui,
    get scene() { return scene; },
    /** The engine's scene of the board (evaluateBoard), its counts, the board it holds. */
    get engineBoard() { return board; },
    /** The evaluate request the answer shown answers, its board included (and, Rolls off, the rollsOff Export writes with it). @returns {Request | null} */
    request: () => ui.request && ui.requestBoard && JSON.parse(JSON.stringify(withRollsOff(withBoard(ui.request, ui.requestBoard), scene))),
    exportRequest,
    importText,
    /** The area's cells the overlay drew (on the level shown), from the answer it drew. @returns {[number, number][]} */
    drawnCells() {
      const res = ui.result, level = ui.drawn ? ui.drawn.level : ui.level;
      return res ? res.cells.filter((c) => c[2] === level).map((c) => /** @type {[number, number]} */ ([c[0], c[1]])) : [];
    },
    /** The cover lines drawn, in board pixels: the overlay's (the hovered or selected creature's, or every target's, from the answer it drew, where it draws them), then the attack's. */
    drawnLines() {
      const res = ui.result, id = ui.drawn ? ui.drawn.focus : null;
      const targets = !res ? [] : ui.drawn && ui.drawn.all ? res.targets : res.targets.filter((x) => x.id === id);
      /** @type {{id: string, from: [number, number], to: [number, number], blocked: boolean}[]} */
      const out = [];
      for (const target of targets) {
        const area = lineGeometry(target.lines);
        for (const l of [...area.filter((g) => !g.blocked), ...area.filter((g) => g.blocked)]) out.push({ id: target.id, ...l });
      }
      return out.concat(ui.drawnLines.map((l) => ({ ...l })));
    },
    /** The names and badges the label layers show, in board pixels: kind, creature, text and box. */
    drawnLabels: () => ui.labels.map(({ kind, id, text, x, y, w, h }) => ({ kind, id, text, x, y, w, h })),
    /** The dnd5e and pf2e cover badges the last draw painted (the overlay paints the other rule sets'). */
    drawnBadges: () => ui.badges.map((b) => ({ ...b })),
    /** @returns {CoverRequest | null} */ attackRequest: () => ui.attackRequest && JSON.parse(JSON.stringify(ui.attackRequest)),
    /** @returns {MoveRequest | null} */ moveRequest: () => ui.moveRequest && JSON.parse(JSON.stringify(ui.moveRequest)),
    /** The full-attack request the panel's answer answers. @returns {FullAttackRequest | null} */
    fullAttackRequest: () => ui.fa.request && JSON.parse(JSON.stringify(ui.fa.request)),
    /** The page coordinates of the centre of square (x, y) (plus an offset in squares), through the view. @param {number} x @param {number} y */
    cellCentre(x, y, ox = 0.5, oy = 0.5) {
      const r = canvas.getBoundingClientRect();
      return { x: r.left + (x + ox) * ui.sq - view.x, y: r.top + (y + oy) * ui.sq - view.y };
    },
    /** The board's pixel (RGBA, its layers composed) at board pixel (px, py) (square x starts at x · sq), through the view. @param {number} px @param {number} py */
    pixel(px, py) {
      return [...composite(Math.floor((px - view.x) * ui.dpr), Math.floor((py - view.y) * ui.dpr), 1, 1).data];
    },
    /** The whole board as shown: its layers composed, as one ImageData of the canvas's backing-store size. */
    image: () => composite(0, 0, canvas.width, canvas.height),
    /** The layers, bottom to top: the still layer, the overlay's, the board canvas, the badges, the names. */
    layers: () => [stillCanvas, resultCanvas, canvas, badgesCanvas, namesCanvas],
    /** The view: squares of sq pixels, `fit` at zoom 1, the canvas showing the board from board pixel (x, y). */
    get view() { return { ...view, sq: ui.sq }; },
    /** How many times the still layers (board, obstacles, grid, thin walls, plain creatures) were drawn. */
    get layersPainted() { return layers.painted; },
    zoomTo, setLevel, panBy,
    /** Draws everything again, the still layers too (their cached copies thrown away). */
    redrawFromScratch() { layers.key = []; labelLayers.names = labelLayers.badges = labelLayers.view = ""; if (ui.drawn) ui.drawn.key = ""; draw(); },
    get sq() { return ui.sq; },
    get dpr() { return ui.dpr; },
    get history() { return { index: history.index, length: history.stack.length }; },
};

loadOverlay().then((overlays) => {
  ui.overlays = overlays;
  ui.engine = overlays.engine;
  attachResult();
  const stored = STRESS ? null : restore();
  resetHistory(stored ?? (STRESS ? stressScene() : sampleScene()));
  try {
    safeRequest = stored ? localStorage.getItem(SAFE_KEY) ?? "" : "";
  } catch {
    safeRequest = "";
  }
  ui.selected = stored || STRESS ? null : { kind: "entity", id: SAMPLE_SELECTED };
  sceneReplaced();
  if (!stored) markSafe(); // the sample: in the page itself
}, (err) => {
  dom.status.classList.add("error");
  dom.status.textContent = `The engine failed to load: ${err instanceof Error ? err.message : err}`;
});
