// @ts-check
// Templates and requests: how a template is placed (placementOf), the point-origin rule sets'
// directions (SPEC §10.2), and the evaluate request built from a scene (frameRequest without the
// board, buildRequest with it: what Export writes).
import { COMPASS_DEGREES, DIRS, FEET } from "./constants.js";
import { entities } from "./state.js";
import { isCube } from "./engine.js";

/** @typedef {import("./types.js").Block} Block */
/** @typedef {import("./types.js").Bounds} Bounds */
/** @typedef {import("./types.js").CellTuple} CellTuple */
/** @typedef {import("./types.js").Direction} Direction */
/** @typedef {import("./types.js").Engine} Engine */
/** @typedef {import("./types.js").EngineError} EngineError */
/** @typedef {import("./types.js").Entity} Entity */
/** @typedef {import("./types.js").Placement} Placement */
/** @typedef {import("./types.js").PointRules} PointRules */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Resolve} Resolve */
/** @typedef {import("./types.js").Scene} Scene */
/** @typedef {import("./types.js").SceneRequest} SceneRequest */
/** @typedef {import("./types.js").Template} Template */
/** @typedef {import("./types.js").Token} Token */
/** @typedef {import("./types.js").Turning} Turning */
/** @typedef {import("./types.js").Wall} Wall */

// ---------------------------------------------------------------------------------------------
// Templates and requests

/**
 * How a template is put on the board: from the caster (cones, lines, auras, bursts, close
 * circles: they follow it), at an origin cell (circles, rectangles, cubes; TDGS cones and lines
 * in source mode), a Draw Steel line (origin and aim), or a Draw Steel wall (its squares).
 * @param {Template} t @param {Scene} s @returns {Placement}
 */
export function placementOf(t, s) {
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
export const isPointRules = (r) => r === "dnd5e" || r === "pf2e";
/** Whether a template is a point-origin one (dnd5e, pf2e). @param {Template | null} t */
export const isPoint = (t) => !!t && isPointRules(t.rules);
/** Whether a point-origin template must start on a grid intersection: a cube or a pf2e burst (SPEC §10.5, §11.2). @param {Template | null} t */
export const onIntersection = (t) => isPoint(t) && !!t && (t.shape === "cube" || t.shape === "burst");
/**
 * How a point-origin template turns (SPEC §10.2, §10.5, §11.2), or null when it has no
 * direction: a dnd5e cone and either line any way, a pf2e cone the 8 compass directions, a cube
 * toward one of the 4 diagonals.
 * @param {Template | null} t @returns {Turning | null}
 */
export function turningOf(t) {
  if (!t || !isPoint(t)) return null;
  if (t.shape === "cube") return "diagonal";
  if (t.shape === "line") return "free";
  if (t.shape === "cone") return t.rules === "pf2e" ? "compass" : "free";
  return null;
}
/** An angle in degrees brought into 0 ≤ d < 360, to the 1/400 of a degree the engine reads (SPEC §10.2). @param {number} d */
export function degrees(d) {
  const r = Math.round((((d % 360) + 360) % 360) * 400) / 400;
  return r >= 360 ? 0 : r;
}
/** The compass direction at exactly d degrees, or null. @param {number} d */
export function compassAt(d) {
  return DIRS.find((n) => COMPASS_DEGREES[n] === degrees(d)) ?? null;
}
/**
 * The direction a template takes from the scene's: as it is (free), the nearest compass
 * direction (a pf2e cone), the nearest diagonal (a cube), in degrees.
 * @param {Turning} how @param {number} d
 */
export function snapToward(how, d) {
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
export const feet = (n, unit = "square") => `${n} ${unit}${n === 1 ? "" : "s"} (${n * FEET} ft)`;
/** A coordinate of a point (on the board: never negative) as a player reads it: 10, 10½, 10.025. @param {number} v */
export function coord(v) {
  if (Number.isInteger(v)) return String(v);
  if (Number.isInteger(v * 2)) return `${Math.floor(v) || ""}½`;
  return String(Math.round(v * 400) / 400);
}

/**
 * The range that limits the placement, in squares, or null for none: the Range field, else a
 * Draw Steel `within` (SPEC §3.1). `self` is 0 (the caster's own space), `touch` 1 (SPEC §2.9).
 * @param {Template} t @param {Scene} s
 */
export function rangeOf(t, s) {
  if (placementOf(t, s) === "caster") return null;
  const r = s.range ?? t.within ?? null;
  return r === "self" ? 0 : r === "touch" ? 1 : r;
}

/**
 * @param {Entity} e @param {boolean} caster
 * @returns {Token}
 */
export function tokenOut(e, caster) {
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
export function wallOut(w) {
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
export function boardOf(s) {
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
export function frameRequest(s, t) {
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
export function withRollsOff(req, s) {
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
export function withBoard(req, b) {
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
export function buildRequest(s, t) {
  return withRollsOff(withBoard(frameRequest(s, t), boardOf(s)), s);
}

/**
 * Reads a notation as the scene's rule set has it: dnd5e and pf2e notation only under its rule
 * set (SPEC §10.3: the same words are other shapes in the other game); the others as written.
 * @param {Engine} engine @param {string} text @param {Scene["rules"]} rules @returns {Template}
 */
export function parseAs(engine, text, rules) {
  return isPointRules(rules) ? engine.parse(text, { rules }) : engine.parse(text);
}

/** @param {unknown} err @returns {EngineError} */
export function engineError(err) {
  if (err && typeof err === "object") {
    const e = /** @type {{code?: unknown, message?: unknown, at?: unknown}} */ (err);
    return { code: typeof e.code === "string" ? e.code : "error", message: String(e.message ?? err), ...(typeof e.at === "number" ? { at: e.at } : {}) };
  }
  return { code: "error", message: String(err) };
}

/** A message with its first letter in upper case. @param {string} text */
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
