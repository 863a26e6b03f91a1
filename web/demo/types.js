// @ts-check
// The demo's types, JSDoc only (no code): the package's own (../index.js, ../overlay.js) under
// the names the demo uses, and the demo's scene, creatures, rolls, forced movement, full attack
// and selection. Each module imports the ones it names (@typedef {import("./types.js").X} X).

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
/** @typedef {"move" | "wall" | "low" | "erase" | "path" | "thin" | "pan" | "spare" | "slide" | "add" | "template"} Tool  "template" draws a template by dragging (templates.js), "wall" paints solid squares, "thin" draws thin walls, "pan" drags the view, "spare" takes squares out of the area (selective targeting), "slide" lays a slide's path (the Forced movement section's Lay the path), "add" puts a creature on the square clicked */
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
 *   rolls: Rolls, force: Force, fullAttack: FullAttackPlan, placed: Slot[], at: number}} Scene
 * `ids` and `excludeCells` are the selective trait's (CONTRACT targeting; sent with it only):
 * the creatures it may affect and the squares taken out of the area. `barriers`, `cover` and
 * `applyCover` override the rule set's profile (SPEC §6); null and "" leave it.
 * `point` and `toward` are the dnd5e and pf2e areas' (SPEC §10, §11): the point of origin (in
 * squares, on the half-square lattice or, dragged with Alt, on a finer one) and the direction of
 * cones, lines and cubes, in degrees clockwise from east (0 east, 90 south), always 0 ≤ toward < 360.
 * `placed` are the board's other templates (templates.js), the scene's own fields being the
 * selected one's, which stands at index `at` among them (0 … placed.length).
 */
/**
 * One template of the board: the scene's fields that make it (templates.js SLOT_KEYS, their one list).
 * @typedef {Pick<Scene, (typeof import("./templates.js").SLOT_KEYS)[number]>} Slot
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


export {};
