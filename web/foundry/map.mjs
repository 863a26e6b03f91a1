// aoekit for Foundry VTT: the pure mapping from what Foundry v13's documents hold (plain data: a
// Scene's grid and dimensions, TokenDocument, WallDocument, MeasuredTemplateDocument and RegionDocument fields)
// to an aoekit request (web/CONTRACT.md), and from the engine's answer back to Foundry's tokens.
// No Foundry global is read here (no canvas, game, CONST, Hooks): aoekit.mjs gathers the data
// (only the tokens the user may see) and calls these functions, and web/test/foundry.test.mjs and
// foundry-table.test.mjs run them on fixtures with the real engine. Foundry's constants are
// spelled as the numbers v13 gives them.
//
// Units (the decisions, also in README.md):
// - squares: aoekit cell (0, 0) is the grid square holding the north-west corner of the scene's
//   rectangle (canvas.dimensions.sceneX/sceneY, which a background offset may put off the grid);
//   a canvas pixel p is (p − that square's corner) / grid.size squares;
// - levels: one level is one grid square of height, grid.distance units (5 ft on most scenes):
//   an elevation e (token, template, wall-height) is e / grid.distance levels, and a token
//   stands on level ⌊e / grid.distance⌋; a template's elevation is templateElevation's;
// - template lengths are in grid.distance units and become whole squares (`squares` below).
//
// Types (JSDoc, checked by `tsc -p web/foundry`, make test-foundry-types): the inputs are the
// fields read here, typed as Foundry v13's documents have them, so that aoekit.mjs passing
// TokenDocument, WallDocument and MeasuredTemplateDocument instances is checked against the
// foundry-vtt-types declarations; the request is the package's Request (web/index.d.ts).

/** @import { Direction, Request, Token, Wall } from "./index.js" */
/** @import { DrawTarget } from "./overlay.js" */

/**
 * A scene's grid: `grid.size` pixels a square, `grid.distance` units a square, `grid.type`
 * (CONST.GRID_TYPES).
 * @typedef {{size: number, distance?: number | null, type?: number | null}} GridData
 */
/**
 * canvas.dimensions' fields read here: the scene's rectangle on the canvas, in pixels.
 * @typedef {{sceneX: number, sceneY: number, sceneWidth: number, sceneHeight: number}} SceneDimensions
 */
/**
 * frameOf's scene: `{grid, dimensions}` as a client has them, or the Scene document's data.
 * @typedef {object} SceneData
 * @property {GridData} grid
 * @property {SceneDimensions | null} [dimensions]  canvas.dimensions; without them (null before a scene is drawn), worked out from the fields below
 * @property {number} [width]
 * @property {number} [height]
 * @property {number} [padding]
 * @property {{offsetX?: number | null, offsetY?: number | null} | null} [background]
 */
/**
 * frameOf's answer: `originX/Y`, the canvas pixel of square (0, 0)'s north-west corner;
 * `columns × rows`, the squares the scene's rectangle touches (the board's bounds).
 * @typedef {{size: number, distance: number, originX: number, originY: number, columns: number, rows: number}} Frame
 */
/**
 * A TokenDocument's fields read here, as v13 has them (plain data may leave any out: each has
 * a default). `depth` is v14's; plain data has `_id` rather than `id`.
 * @typedef {object} TokenData
 * @property {string | null} id
 * @property {string | null} [_id]
 * @property {number} x
 * @property {number} y
 * @property {number | undefined} width  in grid spaces (foundry-vtt-types 13.345.1 says it may be undefined)
 * @property {number | undefined} height
 * @property {number} elevation  in grid distance units
 * @property {number} [depth]
 * @property {number} disposition  CONST.TOKEN_DISPOSITIONS
 * @property {boolean} hidden
 * @property {string | null} [actorId]  the Actor it stands for (a template's caster is found by it: originOf)
 */
/**
 * A WallDocument's fields read here, as v13 has them (plain data may leave any out); the
 * wall-height module's flags are elevations (grid distance units), null or ±Infinity for none.
 * @typedef {object} WallData
 * @property {number[]} c  [x0, y0, x1, y1], canvas pixels
 * @property {number | null} move  CONST.WALL_MOVEMENT_TYPES
 * @property {number | null} sight  CONST.WALL_SENSE_TYPES
 * @property {number | null} [dir]  CONST.WALL_DIRECTIONS: 0 both, 1 LEFT, 2 RIGHT (one-way)
 * @property {number | null} door  CONST.WALL_DOOR_TYPES
 * @property {number | null} ds  CONST.WALL_DOOR_STATES
 * @property {{"wall-height"?: {bottom?: number | null, top?: number | null}, "draw-steel"?: {blocksLineOfEffect?: boolean | null}}} [flags]
 */
/**
 * A MeasuredTemplateDocument's fields read here, as v13 has them (plain data may leave any
 * out). v13 stores `elevation` on every template (required, 0 by default: foundry-vtt-types'
 * MeasuredTemplateDocument.Schema), so a 0 is "not set" unless `flags.aoekit.elevation` says it
 * was (templateLevel). The systems' flags name the caster: dnd5e's AbilityTemplate.fromActivity
 * (foundryvtt/dnd5e module/canvas/ability-template.mjs) writes `flags.dnd5e.origin` (the
 * activity's uuid), `item` (the item's) and `dimensions` ({size, width, height, adjustedSize});
 * pf2e's (foundryvtt/pf2e src/module/scene/measured-template-document.ts, ItemOriginFlag)
 * `flags.pf2e.origin.actor` (the actor's uuid), `origin.uuid` (the item's) and `areaShape`
 * ("burst", "cone", "cube", "cylinder", "emanation", "line", "square"). The Levels module's
 * elevation is `flags.levels.elevation`.
 * @typedef {object} TemplateData
 * @property {string} t  CONST.MEASURED_TEMPLATE_TYPES: "circle", "cone", "ray" or "rect"
 * @property {number} x  canvas pixels (an integer in v13)
 * @property {number} y
 * @property {number} distance  in grid distance units
 * @property {number} direction  degrees, 0 = east, clockwise
 * @property {number} [angle]  a cone's, in degrees
 * @property {number} width  a ray's, in grid distance units
 * @property {number} [elevation]  in grid distance units
 * @property {TemplateFlags} [flags]
 */
/**
 * The flags of a template read here (foundry-types.ts declares them to Foundry's FlagConfig).
 * @typedef {object} TemplateFlags
 * @property {{elevation?: number | null}} [levels]
 * @property {{elevation?: boolean}} [aoekit]  elevation: true — the template's `elevation` is meant even when it is 0
 * @property {{origin?: string | null, item?: string | null, dimensions?: {size?: number | string | null, width?: number | string | null, height?: number | string | null, adjustedSize?: boolean | null} | null}} [dnd5e]  the dimensions are the activity's target.template sizes (dnd5e's FormulaFields: numbers, or numeric strings)
 * @property {{origin?: {actor?: string | null, uuid?: string | null} | null, areaShape?: string | null}} [pf2e]
 */
/**
 * A RegionDocument's fields read here, as v13 and v14 have them (plain data may leave any out).
 * Its shapes (RegionDocument#shapes, BaseShapeData's `type` and `hole`, in canvas pixels) and
 * its elevation (bottom and top in grid distance units, null for unbounded). v14's Regions
 * (foundry-vtt-types 14.366, src/foundry/client/documents/region.d.mts, RegionDocument.Schema)
 * add `attachment.token` (the id of the Token it moves with), `hidden` and `behaviors`; their
 * flags are the template's (the systems name the caster there too) plus Draw Steel's
 * `flags["draw-steel"].abilitySource`, the uuid of the ability item it was placed for.
 * @typedef {object} RegionData
 * @property {readonly RegionShapeData[]} shapes
 * @property {{bottom?: number | null, top?: number | null, topInclusive?: boolean} | null} [elevation]
 * @property {{token?: string | null} | null} [attachment]  v14: the Token it is attached to
 * @property {RegionFlags} [flags]
 */
/**
 * The flags of a region read here: a template's (TemplateFlags), aoekit's `area` and Draw
 * Steel's `abilitySource`.
 * @typedef {TemplateFlags & {aoekit?: {area?: boolean, elevation?: boolean}, "draw-steel"?: {abilitySource?: string | null}}} RegionFlags
 */
/**
 * One shape of a region, v13's or v14's (foundry-vtt-types 14.366,
 * src/foundry/common/data/data.d.mts: RectangleShapeData x, y, width, height, anchorX, anchorY,
 * rotation, gridBased; CircleShapeData x, y, radius, gridBased; EllipseShapeData x, y, radiusX,
 * radiusY, rotation; ConeShapeData x, y, radius, angle, rotation, curvature ("round", "flat",
 * "semicircle"), gridBased; LineShapeData x, y, length, width, rotation, gridBased;
 * RingShapeData x, y, radius, innerWidth, outerWidth, gridBased; EmanationShapeData base (a
 * shape: a TokenShapeData's x, y in pixels, width, height in grid spaces, shape), radius,
 * gridBased). Lengths are pixels; rotations degrees, 0 = east, clockwise. `gridBased` changes how
 * Foundry highlights the shape, not its size: it is read the same either way.
 * @typedef {object} RegionShapeData
 * @property {string} type  "rectangle", "circle", "ellipse", "cone", "line", "ring", "emanation", "polygon", "token", "grid"
 * @property {boolean} [hole]
 * @property {number} [x]
 * @property {number} [y]
 * @property {number} [width]  a rectangle's and a line's, in pixels; a token shape's in grid spaces
 * @property {number} [height]
 * @property {number} [anchorX]  v14 rectangles: the origin (x, y) is this fraction of the width from its west side
 * @property {number} [anchorY]
 * @property {number} [radius]
 * @property {number} [radiusX]
 * @property {number} [radiusY]
 * @property {number} [rotation]  degrees: a v13 rectangle's about its centre, a v14 one's about its origin
 * @property {number} [angle]  a cone's, in degrees
 * @property {string} [curvature]
 * @property {number} [length]  a line's, in pixels
 * @property {number} [innerWidth]  a ring's: it spans radius − innerWidth … radius + outerWidth
 * @property {number} [outerWidth]
 * @property {RegionShapeData | null} [base]  an emanation's base shape
 * @property {boolean} [gridBased]
 */
/**
 * A Draw Steel ability item's fields read here (MetaMorphic-Digital/draw-steel 1.0.x,
 * src/module/data/item/ability.mjs, AbilityModel.defineSchema): `system.distance.type` (the
 * keys of src/module/config.mjs abilities.distances: melee, ranged, meleeRanged, aura, burst,
 * cube, line, wall, special, self) with `primary`, `secondary`, `tertiary` (FormulaFields: numbers
 * once prepared, numeric strings in the source; a cube's are its side and range, a line's its
 * length, width and range, a wall's its squares and range), and `system.target.type`
 * (abilities.targets: creature, object, creatureObject, enemy, enemyObject, ally, self,
 * selfOrAlly, selfOrCreature, selfAlly, special).
 * @typedef {object} AbilityData
 * @property {string} [name]
 * @property {{distance?: {type?: string | null, primary?: number | string | null, secondary?: number | string | null, tertiary?: number | string | null} | null, target?: {type?: string | null, value?: number | null} | null}} [system]
 */
/** @typedef {"tdgs" | "drawsteel" | "circle50" | "dnd5e" | "pf2e"} RuleSet */
/** @typedef {"chebyshev" | "alternating" | "manhattan" | "euclidean"} Metric */
/**
 * An aoekit token made from a TokenDocument (tokenPieces): always an id, a level, a size and a
 * side (a request may leave id and z out; these never do).
 * @typedef {Token & {id: string, z: number, size: number, side: string}} Piece
 */
/**
 * Which walls block (wallFrom): those that stop movement, those that stop sight, or (the
 * default) those that stop both.
 * @typedef {"move" | "sight" | "both"} Sense
 */
/**
 * templateShape's answer.
 * @typedef {object} Shape
 * @property {"circle" | "cone" | "ray" | "rect"} t
 * @property {{x: number, y: number}} at  the origin, in (fractional) squares
 * @property {number} r  the length, in squares
 * @property {number} degrees
 * @property {number} dir  the snapped direction's index in DIRECTIONS
 * @property {number} width  the ray's width, in squares
 * @property {number | undefined} z  the elevation's level, when given
 * @property {number} [top]  a region's: the highest level it reaches (its elevation's top)
 * @property {number} [angle]  a region cone's angle, in degrees
 * @property {"round" | "flat"} [base]  a region cone's end (its curvature)
 * @property {number} [inner]  a ring's: the radius of its hole, in squares
 * @property {{x: number, y: number, w: number, h: number, token?: string | null}} [around]  an emanation's base: the box it spreads from, in squares (and the token attached)
 * @property {Array<{x: number, y: number}>} [squares]  every square the region's rectangles cover (a Draw Steel wall's)
 */
/**
 * requestFor's answer.
 * @typedef {object} Built
 * @property {Request} request
 * @property {Record<string, string>} pieces  every aoekit token id of the request (and the caster's) → its TokenDocument id
 * @property {string | null} casterId  the TokenDocument taken as the caster, or null
 * @property {string} notation
 */
/**
 * A TokenDocument's answer (mergeTargets): the engine's target fields, and whether it is the caster.
 * @template {DrawTarget} [T=DrawTarget]
 * @typedef {T & {caster: boolean}} MergedTarget
 */

/** The id of the stand-in caster a template gets when no token stands at its origin. */
export const ORIGIN_ID = "aoekit:origin";

/**
 * CONST.TOKEN_DISPOSITIONS → aoekit `side`.
 * @type {Readonly<Record<number, string>>}
 */
export const SIDES = Object.freeze({ 1: "friendly", 0: "neutral", [-1]: "hostile", [-2]: "secret" });

/**
 * The overlay's colours for those sides (attach({colours: {sides}})).
 * @type {Readonly<Record<string, string>>}
 */
export const SIDE_COLOURS = Object.freeze({ friendly: "#1e6fd9", neutral: "#8d8a80", hostile: "#d32f2f", secret: "#8e44ad" });

/** The eight directions of SPEC §1.2, clockwise from north, and their offsets (y grows south). */
/** @type {readonly Direction[]} */
export const DIRECTIONS = Object.freeze(["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
/** @type {ReadonlyArray<readonly [number, number]>} */
const OFFSETS = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];

// Foundry v13 constants, by value (foundry-vtt-types src/foundry/common/constants.d.mts).
const GRID_SQUARE = 1; // CONST.GRID_TYPES.SQUARE
const MOVE_NONE = 0; // CONST.WALL_MOVEMENT_TYPES.NONE (20 NORMAL)
const SENSE_NONE = 0; // CONST.WALL_SENSE_TYPES.NONE
const SENSE_LIMITED = 10; // CONST.WALL_SENSE_TYPES.LIMITED: terrain walls (20 NORMAL, 30 PROXIMITY, 40 DISTANCE)
const DOOR_NONE = 0; // CONST.WALL_DOOR_TYPES.NONE (1 DOOR, 2 SECRET)
const DOOR_OPEN = 1; // CONST.WALL_DOOR_STATES.OPEN (0 CLOSED, 2 LOCKED)
/** CONST.WALL_DIRECTIONS (0 BOTH) → aoekit's `from` (see wallFrom). */
const ONE_WAY = /** @type {Readonly<Record<number, "left" | "right">>} */ ({ 1: "left", 2: "right" });
/**
 * CONST.GRID_DIAGONALS → aoekit's `metric` (metricOf): EQUIDISTANT 0, EXACT 1, APPROXIMATE 2
 * (1.5 a diagonal: alternating is the rule that averages it), RECTILINEAR 3, ALTERNATING_1 4,
 * ALTERNATING_2 5 (2-1-2: no metric of aoekit's; the nearest is alternating), ILLEGAL 6 (no
 * diagonal moves: manhattan).
 * @type {Readonly<Record<number, Metric>>}
 */
const METRICS = Object.freeze({ 0: "chebyshev", 1: "euclidean", 2: "alternating", 3: "manhattan", 4: "alternating", 5: "alternating", 6: "manhattan" });
/** @type {readonly string[]} */
export const RULE_SETS = Object.freeze(["tdgs", "drawsteel", "circle50", "dnd5e", "pf2e"]);
/** @type {(rules: unknown) => rules is RuleSet} */
const isRuleSet = (rules) => typeof rules === "string" && RULE_SETS.includes(rules);
/** The point-origin rule sets (SPEC §10, §11): areas spread from a point, one-way walls count. */
const isPointRules = (/** @type {string} */ rules) => rules === "dnd5e" || rules === "pf2e";
const EPS = 1e-9;

/** Rounds a length in squares onto the engine's 1/400 lattice (CONTRACT: walls, fills). */
const lattice = (/** @type {number} */ v) => Math.round(v * 400) / 400;
/** v when it is a finite number, else fallback. */
const num = (/** @type {unknown} */ v, /** @type {number} */ fallback) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
/** v when it is a number or a numeric string (dnd5e's formula fields), else fallback. */
const numeric = (/** @type {unknown} */ v, /** @type {number} */ fallback) => num(typeof v === "string" && v.trim() !== "" ? Number(v) : v, fallback);
/** A document's id (a placed document's `id`, plain data's `_id`; "" for neither, which no scene's token lacks). */
const idOf = (/** @type {TokenData} */ doc) => doc.id ?? doc._id ?? "";

/**
 * frameOf: where the grid is and how big a square is, from a scene.
 *
 * `scene` is either `{grid, dimensions}` as a v13 client has them (`canvas.scene.grid` or
 * `canvas.grid`: size, distance, type; `canvas.dimensions`: sceneX, sceneY, sceneWidth,
 * sceneHeight), or the Scene document's own data (`width`, `height`, `padding`, `grid`,
 * `background.offsetX/offsetY`), from which the dimensions are worked out as v13's
 * Scene#getDimensions does for a square grid: the padding rounded up to whole squares, then the
 * scene's rectangle moved back by the background offset.
 *
 * @param {SceneData} scene
 * @returns {Frame} `originX/Y`: the canvas pixel of square (0, 0)'s north-west corner;
 *   `columns × rows`: the squares the scene's rectangle touches (the board's bounds).
 */
export function frameOf(scene) {
  const grid = scene?.grid ?? {};
  const size = num(grid.size, NaN);
  if (!(size > 0)) throw new Error("aoekit: the scene's grid.size must be a number of pixels above 0");
  if (grid.type !== undefined && grid.type !== GRID_SQUARE) {
    throw new Error(`aoekit: only square grids are supported (this scene's grid type is ${grid.type})`);
  }
  const distance = num(grid.distance, 5) > 0 ? num(grid.distance, 5) : 5;
  let dims = scene.dimensions;
  if (!dims) {
    const width = num(scene.width, 0);
    const height = num(scene.height, 0);
    const padding = num(scene.padding, 0.25);
    // BaseGrid#calculateDimensions (square grids): the padding in whole squares.
    const x = Math.ceil(padding * width * (1 / size)) * size;
    const y = Math.ceil(padding * height * (1 / size)) * size;
    dims = {
      sceneX: x - num(scene.background?.offsetX, 0),
      sceneY: y - num(scene.background?.offsetY, 0),
      sceneWidth: width,
      sceneHeight: height,
    };
  }
  const x0 = Math.floor(dims.sceneX / size + EPS);
  const y0 = Math.floor(dims.sceneY / size + EPS);
  const x1 = Math.ceil((dims.sceneX + dims.sceneWidth) / size - EPS);
  const y1 = Math.ceil((dims.sceneY + dims.sceneHeight) / size - EPS);
  return { size, distance, originX: x0 * size, originY: y0 * size, columns: Math.max(1, x1 - x0), rows: Math.max(1, y1 - y0) };
}

/**
 * A canvas point in squares (fractional), on the 1/400 lattice.
 * @param {Frame} frame
 * @param {number} px
 * @param {number} py
 * @returns {{x: number, y: number}}
 */
export function toSquares(frame, px, py) {
  return { x: lattice((px - frame.originX) / frame.size), y: lattice((py - frame.originY) / frame.size) };
}

/**
 * The level an elevation (in grid distance units) stands on: ⌊e / distance⌋.
 * @param {Frame} frame
 * @param {number | null | undefined} elevation
 * @returns {number}
 */
export function levelOf(frame, elevation) {
  return Math.floor(num(elevation, 0) / frame.distance + EPS);
}

/**
 * tokenPieces: a TokenDocument as aoekit tokens. Its width and height (grid spaces) are rounded
 * to whole squares (at least 1: a Tiny 0.5 token takes the square its centre is on), placed on
 * the squares nearest its centre. A square token is one aoekit token with the document's id; a
 * rectangular one (2 × 1, 3 × 2) is covered by square pieces of its shorter side, ids
 * `id#0`, `id#1`, … (the last flush with its far end, so pieces may overlap): aoekit tokens are
 * square, and mergeTargets joins the pieces' answers back into one. Height: a v14 `depth`
 * when there is one, else the piece's size (aoekit's default). Side: from the disposition.
 * @param {TokenData} doc
 * @param {Frame} frame
 * @returns {Piece[]}
 */
export function tokenPieces(doc, frame) {
  const id = idOf(doc);
  const w = num(doc.width, 1) > 0 ? num(doc.width, 1) : 1;
  const h = num(doc.height, 1) > 0 ? num(doc.height, 1) : 1;
  const W = Math.max(1, Math.round(w));
  const H = Math.max(1, Math.round(h));
  const c = toSquares(frame, num(doc.x, 0), num(doc.y, 0));
  const x = Math.round(c.x + w / 2 - W / 2) || 0; // || 0: no -0
  const y = Math.round(c.y + h / 2 - H / 2) || 0;
  const z = levelOf(frame, doc.elevation);
  const side = SIDES[doc.disposition ?? 0] ?? "neutral";
  const depth = num(doc.depth, 0) > 0 ? Math.max(1, Math.round(num(doc.depth, 0))) : undefined;
  /** @type {(pid: string, px: number, py: number, size: number) => Piece} */
  const token = (pid, px, py, size) => ({ id: pid, x: px, y: py, z, size, ...(depth ? { height: depth } : {}), side });
  if (W === H) return [token(id, x, y, W)];
  const s = Math.min(W, H);
  const long = Math.max(W, H);
  const pieces = [];
  for (let i = 0, at = 0; ; i++, at += s) {
    const off = Math.min(at, long - s);
    pieces.push(W > H ? token(`${id}#${i}`, x + off, y, s) : token(`${id}#${i}`, x, y + off, s));
    if (off === long - s) break;
  }
  return pieces;
}

/**
 * wallFrom: a WallDocument as an aoekit thin wall (SPEC §5.6), or null when it does not block
 * areas and cover. `c` ([x0, y0, x1, y1], canvas pixels) becomes squares.
 *
 * Which walls count (`options.sense`): by default ("both") a wall that stops bodies *and* sight
 * — a wall, a door, a window (sight PROXIMITY or DISTANCE, at every distance) — and not an
 * invisible wall (sight NONE), an ethereal wall or a curtain (move NONE). "move" keeps every
 * wall that stops movement (invisible walls too), "sight" every wall that stops sight
 * (ethereal walls too). A terrain wall (sight LIMITED) never counts: it hides only what lies
 * behind two of them, and bodies pass the first.
 *
 * A door (door 1) or secret door (door 2) whose state `ds` is OPEN is `open: true`: it blocks
 * nothing; closed and locked doors are walls. The wall-height module's
 * `flags["wall-height"].bottom/top` (elevations, grid distance units; null or ±Infinity for
 * none) become `bottom`/`top` in levels.
 *
 * One-way walls (`dir`, CONST.WALL_DIRECTIONS) keep their direction with `options.oneWay` (the
 * point-origin rule sets, which alone take aoekit's `from`); elsewhere they block both ways.
 * Foundry names the side of a point by orient2dFast(a, b, p) — "positive if C lies to the left
 * of AB" in y-up terms (foundry-vtt-types common/utils/geometry.d.mts) — and Edge#orientPoint
 * calls p LEFT when it is negative, RIGHT when positive; ClockwiseSweepPolygon's
 * _testEdgeInclusion ignores a one-way edge when the origin's side equals its direction (v12
 * and v13 client code, as copied into public modules' patches of it). So a LEFT wall stops rays
 * that start on its RIGHT side, where orient2dFast > 0. aoekit's k (SPEC §5.6) is
 * −orient2dFast, and `from: "left"` blocks segments that start where k < 0: the same points.
 * LEFT (1) is "left", RIGHT (2) is "right": the two flips cancel. For a wall drawn from
 * (0, 0) down to (0, 100), LEFT stops what comes from the east (x > 0).
 *
 * A wall the Draw Steel system marks as not blocking line of effect
 * (`flags["draw-steel"].blocksLineOfEffect: false`) is left out, as is a wall of no length on
 * the 1/400 lattice, or whose bottom is above its top.
 * @param {WallData} doc
 * @param {Frame} frame
 * @param {{sense?: Sense, oneWay?: boolean}} [options]
 * @returns {Wall | null}
 */
export function wallFrom(doc, frame, options = {}) {
  const c = doc.c;
  if (!Array.isArray(c) || c.length !== 4 || !c.every((v) => typeof v === "number" && Number.isFinite(v))) return null;
  const sense = options.sense ?? "both";
  const move = num(doc.move, 20);
  const sight = num(doc.sight, 20);
  if (sight === SENSE_LIMITED) return null;
  // The Draw Steel system's own switch (src/module/documents/wall.mjs: blocksLineOfEffect, true
  // unless the flag says false): a wall that does not block line of effect blocks nothing here.
  if (doc.flags?.["draw-steel"]?.blocksLineOfEffect === false) return null;
  const stopsBodies = move !== MOVE_NONE;
  const stopsSight = sight !== SENSE_NONE;
  if (sense === "move" ? !stopsBodies : sense === "sight" ? !stopsSight : !(stopsBodies && stopsSight)) return null;
  const a = toSquares(frame, c[0], c[1]);
  const b = toSquares(frame, c[2], c[3]);
  if (a.x === b.x && a.y === b.y) return null;
  /** @type {Wall} */
  const wall = { a: [a.x, a.y], b: [b.x, b.y] };
  if (num(doc.door, DOOR_NONE) !== DOOR_NONE && doc.ds === DOOR_OPEN) wall.open = true;
  const from = ONE_WAY[num(doc.dir, 0)];
  if (options.oneWay && from) wall.from = from;
  const wh = doc.flags?.["wall-height"];
  if (wh) {
    const bottom = num(wh.bottom, NaN);
    const top = num(wh.top, NaN);
    if (Number.isFinite(bottom)) wall.bottom = lattice(bottom / frame.distance);
    if (Number.isFinite(top)) wall.top = lattice(top / frame.distance);
    if (wall.bottom !== undefined && wall.top !== undefined && wall.bottom > wall.top) return null;
  }
  return wall;
}

/**
 * metricOf: a scene's diagonal rule (`canvas.grid.diagonals`, CONST.GRID_DIAGONALS; v13 keeps
 * it in the core `gridDiagonals` setting) as aoekit's `metric`, for range and emanations.
 * @param {number | null | undefined} diagonals
 * @returns {Metric}
 */
export function metricOf(diagonals) {
  return METRICS[num(diagonals, 0)] ?? "chebyshev";
}

/**
 * rulesFor: the rule set a table uses. The world setting `rules` names one, or is "auto": then
 * the game system decides — dnd5e's tables are "dnd5e", pf2e's "pf2e", and every other system
 * gets dnd5e's geometry (areas from the point Foundry draws them from), with the scene's
 * diagonal rule as its metric (metricOf).
 * @param {string | null | undefined} setting
 * @param {string | null | undefined} systemId  game.system.id
 * @returns {RuleSet}
 */
export function rulesFor(setting, systemId) {
  if (isRuleSet(setting)) return setting;
  return systemId === "pf2e" ? "pf2e" : "dnd5e";
}

/**
 * snapDirection: a Foundry direction (degrees, 0 = east, growing clockwise on screen since y
 * grows down) to the nearest of the eight directions; exactly between two, the clockwise one.
 * @param {number | undefined} degrees
 * @returns {number} the index in DIRECTIONS (0 = N … 7 = NW)
 */
export function snapDirection(degrees) {
  const d = ((num(degrees, 0) % 360) + 360) % 360;
  return Math.floor(d / 45 + 2 + 0.5 + EPS) % 8;
}

/**
 * squares: a template length r (in squares, measured from a square's centre) as the whole number
 * of squares aoekit's shapes count, for an origin of `size` squares: round(r − size/2), at least
 * 1. A shape's edge lies half a square beyond its last ring (Cir3's edge is 3½ squares from its
 * centre), so a radius of 3 up to (not including) 4 squares is 3 — r rounded down; a Draw Steel
 * burst counts from the edge of its caster's space, so a 2 burst is a circle of 2 to 2½ squares
 * around a one-square caster, and of 2½ to 3 around a 2 × 2 one.
 * @param {number} r
 * @param {number} [size]
 * @returns {number}
 */
export function squares(r, size = 1) {
  return Math.max(1, Math.round(r - size / 2 + EPS));
}

/**
 * templateShape: a MeasuredTemplateDocument's geometry in squares: its type `t` ("circle",
 * "cone", "ray", "rect"), origin (fractional squares), length `r` (squares), direction
 * (degrees and the snapped index) and ray width (squares). Its height is templateElevation's.
 * @param {TemplateData} doc
 * @param {Frame} frame
 * @returns {Shape}
 */
export function templateShape(doc, frame) {
  const t = doc.t ?? "circle";
  if (!isTemplateType(t)) throw new Error(`aoekit: unknown template type ${JSON.stringify(t)}`);
  const at = toSquares(frame, num(doc.x, 0), num(doc.y, 0));
  return {
    t,
    at,
    r: num(doc.distance, 0) / frame.distance,
    degrees: num(doc.direction, 0),
    dir: snapDirection(doc.direction),
    width: num(doc.width, frame.distance) / frame.distance,
    z: undefined,
  };
}

/**
 * originOf: the token or the actor a template was cast from, as its system's flags name it
 * (TemplateFlags): pf2e's `origin.actor` (or its item's uuid), dnd5e's `origin` (an activity's
 * uuid) or `item`. A uuid of a token's actor ("Scene.S.Token.T.Actor.A…", an unlinked token) names
 * the token T; a world actor's ("Actor.A…") the actor A, whose tokens on the scene are found by
 * their `actorId`. Null when no flag names one.
 * @param {{flags?: TemplateFlags} | null | undefined} doc  a template's data, or a region's
 * @returns {{token: string} | {actor: string} | null}
 */
export function originOf(doc) {
  const f = doc?.flags;
  for (const uuid of [f?.pf2e?.origin?.actor, f?.pf2e?.origin?.uuid, f?.dnd5e?.origin, f?.dnd5e?.item]) {
    const found = uuidOrigin(uuid);
    if (found) return found;
  }
  return null;
}

/**
 * uuidOrigin: the token or actor a document uuid belongs to — "Scene.S.Token.T.Actor.A…" (an
 * unlinked token's actor, its items) names the token T, "Actor.A…" the world actor A; anything
 * else (a compendium's) is null.
 * @param {unknown} uuid
 * @returns {{token: string} | {actor: string} | null}
 */
export function uuidOrigin(uuid) {
  if (typeof uuid !== "string") return null;
  const token = /(?:^|\.)Token\.([^.]+)/.exec(uuid);
  if (token) return { token: token[1] };
  const actor = /^Actor\.([^.]+)/.exec(uuid);
  if (actor) return { actor: actor[1] };
  return null;
}

/**
 * templateElevation: a template's height, in grid distance units, and what gave it:
 * - "template": its `elevation`, when the user set it — v13 stores 0 on every template, so a 0
 *   counts only with `flags.aoekit.elevation: true` (`template.setFlag("aoekit", "elevation",
 *   true)`);
 * - "caster": else its caster's token's elevation (`caster`: the token originOf names, or the one
 *   a cone or ray starts from);
 * - "levels": else the Levels module's `flags.levels.elevation`;
 * - "none": else 0.
 * @param {TemplateData | null | undefined} doc
 * @param {TokenData | null | undefined} caster
 * @returns {{elevation: number, from: "template" | "caster" | "levels" | "none"}}
 */
export function templateElevation(doc, caster) {
  const own = num(doc?.elevation, 0);
  if (doc && (own !== 0 || doc.flags?.aoekit?.elevation === true)) return { elevation: own, from: "template" };
  if (caster) return { elevation: num(caster.elevation, 0), from: "caster" };
  const levels = doc?.flags?.levels?.elevation;
  if (typeof levels === "number" && Number.isFinite(levels)) return { elevation: levels, from: "levels" };
  return { elevation: 0, from: "none" };
}

/** @type {(t: string) => t is Shape["t"]} */
const isTemplateType = (t) => ["circle", "cone", "ray", "rect"].includes(t);

/** The v14 shape types that are a template's (Foundry v14 places its templates as Regions of one of them). */
export const TEMPLATE_SHAPES = Object.freeze(["circle", "cone", "line", "ring", "emanation"]);

/**
 * regionShape: a Region's geometry as the measured template it stands for — its one shape,
 * which must not be a hole:
 * - a circle (or an ellipse with equal radii): a circle template of its radius around its centre;
 * - a rectangle turned by a multiple of 90° (about its centre in v13, about its origin and anchor
 *   in v14): a rect template from its north-west corner across its diagonal;
 * - v14's cone: a cone of its radius toward its rotation, with its angle and its end (curvature
 *   "flat" is a flat end, the others round);
 * - v14's line: a ray of its length and width toward its rotation;
 * - v14's ring: a circle of radius + outerWidth with a hole of radius − innerWidth (`inner`);
 * - v14's emanation: of a token shape, an emanation `radius` beyond that token's box (`around`);
 *   of a circle, a circle of both radii.
 * Its level is its elevation's bottom when that is a number; `top` the highest level under its
 * elevation's top (a level counts when its floor is below the top). Anything else (several
 * shapes, holes, polygons, grid shapes, turned rectangles, true ellipses) throws, naming what it
 * is. Draw Steel walls, which are squares, read every rectangle of the region instead
 * (`squares`, with `wallSquares`).
 * @param {RegionData} doc
 * @param {Frame} frame
 * @returns {Shape}
 */
export function regionShape(doc, frame) {
  const shapes = [...(doc.shapes ?? [])];
  if (shapes.length !== 1 || shapes[0].hole) {
    throw new Error(`aoekit: a region is read as a template when it has one shape and no hole (this one has ${shapes.length} shape${shapes.length === 1 ? ", a hole" : "s"})`);
  }
  const s = shapes[0];
  const bottom = doc.elevation?.bottom;
  const z = typeof bottom === "number" && Number.isFinite(bottom) ? levelOf(frame, bottom) : undefined;
  const topAt = doc.elevation?.top;
  /** @type {{top?: number}} */
  const top = {};
  if (typeof topAt === "number" && Number.isFinite(topAt) && (z === undefined || topAt > num(bottom, 0))) {
    top.top = doc.elevation?.topInclusive ? levelOf(frame, topAt) : Math.ceil(topAt / frame.distance - EPS) - 1;
  }
  const base = { degrees: 0, dir: 0, width: 1, z, ...top };
  const x = num(s.x, 0);
  const y = num(s.y, 0);
  const px = (/** @type {unknown} */ v) => num(v, 0) / frame.size;
  const toward = (/** @type {number} */ degrees) => ({ degrees, dir: snapDirection(degrees) });
  switch (s.type) {
    case "ellipse":
      if (Math.abs(num(s.radiusX, 0) - num(s.radiusY, 0)) > EPS) throw new Error("aoekit: an ellipse region is read as a template only when it is a circle (radiusX = radiusY)");
    // fall through: a circle
    case "circle": {
      const radius = s.type === "circle" ? num(s.radius, 0) : num(s.radiusX, 0);
      return { ...base, t: "circle", at: toSquares(frame, x, y), r: radius / frame.size };
    }
    case "ring": {
      const radius = num(s.radius, 0);
      const inner = Math.max(0, radius - num(s.innerWidth, 0));
      return { ...base, t: "circle", at: toSquares(frame, x, y), r: px(radius + num(s.outerWidth, 0)), inner: inner / frame.size };
    }
    case "cone": {
      const degrees = num(s.rotation, 0);
      return { ...base, ...toward(degrees), t: "cone", at: toSquares(frame, x, y), r: px(s.radius), angle: num(s.angle, 0), base: s.curvature === "flat" ? "flat" : "round" };
    }
    case "line": {
      const degrees = num(s.rotation, 0);
      return { ...base, ...toward(degrees), t: "ray", at: toSquares(frame, x, y), r: px(s.length), width: px(s.width) };
    }
    case "emanation": {
      const b = s.base;
      const r = px(s.radius);
      if (b?.type === "token") {
        // TokenShapeData: x, y the top-left corner in pixels, width and height in grid spaces.
        const corner = toSquares(frame, num(b.x, 0), num(b.y, 0));
        const w = num(b.width, 1) > 0 ? num(b.width, 1) : 1;
        const h = num(b.height, 1) > 0 ? num(b.height, 1) : 1;
        const around = { x: corner.x, y: corner.y, w, h, token: doc.attachment?.token ?? null };
        return { ...base, t: "circle", at: { x: lattice(corner.x + w / 2), y: lattice(corner.y + h / 2) }, r: r + Math.min(w, h) / 2, around };
      }
      if (b?.type === "circle") return { ...base, t: "circle", at: toSquares(frame, num(b.x, 0), num(b.y, 0)), r: px(b.radius) + r };
      throw new Error(`aoekit: an emanation region is read as a template when its base is a token or a circle (this one's is ${JSON.stringify(b?.type ?? null)})`);
    }
    case "rectangle": {
      const turn = ((num(s.rotation, 0) % 360) + 360) % 360;
      if (turn % 90 > EPS && 90 - (turn % 90) > EPS) throw new Error(`aoekit: a rectangle region is read as a template only when it is turned by a multiple of 90° (this one by ${s.rotation}°)`);
      const { x0, y0, w, h } = boxOf(s);
      return { ...base, t: "rect", at: toSquares(frame, x0, y0), r: Math.hypot(w, h) / frame.size, degrees: (Math.atan2(h, w) * 180) / Math.PI };
    }
  }
  throw new Error(`aoekit: a ${JSON.stringify(s.type)} region cannot be read as a template (circles, cones, lines, rings, emanations and rectangles can)`);
}

/**
 * A rectangle shape's box on the canvas, in pixels, once turned by its rotation (a multiple of
 * 90°, or it is the unturned box): v13 turns it about its centre; v14 (which has `anchorX` and
 * `anchorY`) places the anchor at (x, y) and turns it about that point.
 * @param {RegionShapeData} s
 * @returns {{x0: number, y0: number, w: number, h: number}}
 */
function boxOf(s) {
  const x = num(s.x, 0);
  const y = num(s.y, 0);
  const w = num(s.width, 0);
  const h = num(s.height, 0);
  const quarter = Math.round((((num(s.rotation, 0) % 360) + 360) % 360) / 90) % 4;
  const v14 = typeof s.anchorX === "number" || typeof s.anchorY === "number";
  const left = v14 ? x - num(s.anchorX, 0) * w : x;
  const topY = v14 ? y - num(s.anchorY, 0) * h : y;
  const [cx, cy] = v14 ? [x, y] : [x + w / 2, y + h / 2];
  const cos = [1, 0, -1, 0][quarter];
  const sin = [0, 1, 0, -1][quarter];
  const xs = [];
  const ys = [];
  for (const [qx, qy] of [[left, topY], [left + w, topY], [left, topY + h], [left + w, topY + h]]) {
    xs.push(cx + (qx - cx) * cos - (qy - cy) * sin);
    ys.push(cy + (qx - cx) * sin + (qy - cy) * cos);
  }
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  return { x0, y0, w: Math.max(...xs) - x0, h: Math.max(...ys) - y0 };
}

/**
 * wallSquares: the squares a region's rectangles cover (every shape that is not a hole must be
 * a rectangle turned by a multiple of 90°), each once, in the order the shapes list them, west
 * to east and north to south within a shape: a Draw Steel wall's squares. A square counts when
 * its centre is inside a rectangle.
 * @param {RegionData} doc
 * @param {Frame} frame
 * @returns {Array<{x: number, y: number}>}
 */
export function wallSquares(doc, frame) {
  /** @type {Map<string, {x: number, y: number}>} */
  const out = new Map();
  for (const s of doc.shapes ?? []) {
    if (s.hole) continue;
    if (s.type !== "rectangle") throw new Error(`aoekit: a Draw Steel wall is read from rectangles of squares (this region has a ${JSON.stringify(s.type)})`);
    const turn = ((num(s.rotation, 0) % 360) + 360) % 360;
    if (turn % 90 > EPS && 90 - (turn % 90) > EPS) throw new Error("aoekit: a Draw Steel wall's rectangles must be turned by a multiple of 90°");
    const { x0, y0, w, h } = boxOf(s);
    const a = toSquares(frame, x0, y0);
    const b = toSquares(frame, x0 + w, y0 + h);
    for (let sy = Math.ceil(a.y - 0.5 - EPS); sy + 0.5 < b.y - EPS; sy++) {
      for (let sx = Math.ceil(a.x - 0.5 - EPS); sx + 0.5 < b.x - EPS; sx++) out.set(`${sx},${sy}`, { x: sx, y: sy });
    }
  }
  return [...out.values()];
}

/**
 * originSquare: the square a template starts from. A circle: the square its centre is on (the
 * south-east one when the centre is a grid intersection). A cone or a ray: the square holding
 * its origin, seen from behind — a point on a grid line belongs to the square on the side the
 * template does not point to, so a cone from a large token's centre (an intersection) starts
 * inside that token.
 * @param {Shape} shape
 * @returns {{x: number, y: number}}
 */
export function originSquare(shape) {
  const [dx, dy] = shape.t === "cone" || shape.t === "ray" ? OFFSETS[shape.dir] : [0, 0];
  return { x: Math.floor(shape.at.x - 1e-6 * dx) || 0, y: Math.floor(shape.at.y - 1e-6 * dy) || 0 };
}

/**
 * @param {{x: number, y: number, size: number}} piece
 * @param {{x: number, y: number}} cell
 */
function within(piece, cell) {
  return cell.x >= piece.x && cell.x < piece.x + piece.size && cell.y >= piece.y && cell.y < piece.y + piece.size;
}

/**
 * The token whose space holds a point (fractional squares), on the board's pieces.
 * @param {readonly Piece[]} board
 * @param {{x: number, y: number}} p
 * @param {Record<string, string>} pieces
 * @param {string | null | undefined} prefer  a TokenDocument id to take first
 */
function pieceAt(board, p, pieces, prefer) {
  const here = board.filter((t) => p.x >= t.x - EPS && p.x <= t.x + t.size + EPS && p.y >= t.y - EPS && p.y <= t.y + t.size + EPS);
  return here.find((t) => pieces[t.id] === prefer) ?? here[0] ?? null;
}

/**
 * wallsFrom: every WallDocument that blocks (wallFrom), as aoekit's thin walls, in order.
 * @param {readonly WallData[]} walls
 * @param {Frame} frame
 * @param {{sense?: Sense, oneWay?: boolean}} [options]  as wallFrom's
 * @returns {Wall[]}
 */
export function wallsFrom(walls, frame, options = {}) {
  /** @type {Wall[]} */
  const out = [];
  for (const w of walls) {
    const wall = wallFrom(w, frame, options);
    if (wall !== null) out.push(wall);
  }
  return out;
}

/**
 * requestFor: the whole evaluate request for one measured template on a scene.
 *
 * @param {object} input
 * @param {SceneData} input.scene      see frameOf
 * @param {readonly TokenData[]} [input.tokens]   TokenDocument data (x, y, width, height, elevation, disposition, hidden, actorId, id or _id): the tokens the user may know of (aoekit.mjs leaves out those a player cannot see)
 * @param {readonly WallData[]} [input.walls]    WallDocument data (c, move, sight, dir, door, ds, flags)
 * @param {TemplateData} [input.template]   MeasuredTemplateDocument data (t, x, y, elevation, distance, direction, angle, width, flags)
 * @param {RegionData} [input.region]   or a RegionDocument's (regionShape), when there is no template
 * @param {AbilityData | null} [input.ability]  the Draw Steel ability item the region was placed for (its flags["draw-steel"].abilitySource): then the request is abilityRequest's, under `drawsteel` whatever `rules` says
 * @param {string} [input.rules]  the rule set: "tdgs" (default), "drawsteel", "circle50", "dnd5e" or "pf2e" (anything else throws; rulesFor picks one)
 * @param {Metric} [input.metric]  dnd5e's metric for range and emanations (metricOf the scene's diagonals); pf2e keeps its own
 * @param {string | null} [input.casterId] a token to prefer as the caster when several could be (the user's controlled token)
 * @param {boolean} [input.includeHidden]  count hidden tokens (default true)
 * @param {Sense} [input.sense]   which walls block (wallFrom; default "both")
 * @param {(frame: Frame, oneWay: boolean) => Wall[]} [input.mapWalls]  the request's walls, in place of `walls` mapped with wallFrom here: what mapping them gives (one-way walls count under dnd5e and pf2e only), kept by the caller between requests (aoekit.mjs maps a scene's walls once, not at every frame of a drag, and hands its engine's scene the same array)
 * @returns {Built}
 *   `pieces` maps every aoekit token id of the request (and the caster's) to its TokenDocument id;
 *   `casterId` is the TokenDocument taken as the caster, or null (then the caster, when the shape
 *   needs one, is the stand-in ORIGIN_ID).
 *
 * The caster: the token the template's flags name (originOf) when it is on the board, else, for
 * the shapes that start from a token, the one standing where the shape starts (`casterId`
 * first). The height: templateElevation's, in levels.
 *
 * TDGS, Draw Steel and the 50 % circle (SPEC §2, §3, §4), n = squares(length):
 * - circle: tdgs `Cir n` centred on its square; drawsteel `X burst` from the token standing on
 *   that square (X = squares(length, the token's size)); circle50 `circle n`;
 * - cone: `Con n DIR`, DIR its direction snapped to the eight, from its origin square (the
 *   template's `angle` is not used: these cones have their own shape, SPEC §2.4–§2.5);
 * - ray: tdgs and circle50 `Lin n DIR [wW]` (W its width in squares, at least 1); drawsteel
 *   `n x W line` from the square after its origin square toward DIR;
 * - rect: its two corners snapped to grid lines, W × L squares: `Rec WxL` anchored at its
 *   south-west square; drawsteel `W cube` when W = L (else the TDGS rectangle).
 * Cones, rays and bursts take as their caster the token standing on the origin square; it faces
 * N, so DIR is absolute, and `targeting.excludeCaster` keeps it out of its own area.
 *
 * dnd5e and pf2e (SPEC §10, §11): pointRequest — the area spreads from the point Foundry draws
 * the template from.
 *
 * The request's `rules` is always the chosen rule set. `bounds` is the scene's rectangle in
 * squares, on every level from the lowest to the highest thing on the board.
 */
export function requestFor({ scene, tokens = [], walls = [], template, region, ability, rules = "tdgs", metric, casterId, includeHidden = true, sense = "both", mapWalls }) {
  if (ability) rules = "drawsteel";
  if (!isRuleSet(rules)) throw new Error(`aoekit: rules must be one of ${RULE_SETS.join(", ")}, got ${JSON.stringify(rules)}`);
  const frame = frameOf(scene);
  if (!template && !region) throw new Error("aoekit: requestFor needs a template or a region");
  if (ability && !region) throw new Error("aoekit: a Draw Steel ability is read with the region placed for it");
  const distance = ability ? abilityDistance(ability) : null;
  // A Draw Steel wall is squares (wallSquares); every other area one shape.
  const shape = template ? templateShape(template, frame) : distance?.type === "wall" ? null : regionShape(/** @type {RegionData} */ (region), frame);

  /** @type {Record<string, string>} */
  const pieces = {};
  /** @type {Piece[]} */
  const board = [];
  /** @type {Map<string, TokenData>} */
  const docs = new Map();
  for (const doc of tokens) {
    if (!includeHidden && doc.hidden) continue;
    docs.set(idOf(doc), doc);
    for (const p of tokenPieces(doc, frame)) {
      pieces[p.id] = idOf(doc);
      board.push(p);
    }
  }

  // The caster its flags name (a Draw Steel ability's: the item's uuid), when it is on the
  // board: a token, or the actor's token nearest the template.
  const origin = ability ? uuidOrigin(region?.flags?.["draw-steel"]?.abilitySource) : originOf(template ?? region);
  const near = template ?? (shape ? { x: frame.originX + shape.at.x * frame.size, y: frame.originY + shape.at.y * frame.size } : null);
  /** @type {TokenData | null} */
  let named = null;
  if (origin && "token" in origin) named = docs.get(origin.token) ?? null;
  else if (origin) {
    const mine = [...docs.values()].filter((d) => d.actorId === origin.actor);
    const dist = (/** @type {TokenData} */ d) => Math.hypot(num(d.x, 0) - num(near?.x, 0), num(d.y, 0) - num(near?.y, 0));
    named = mine.find((d) => idOf(d) === casterId) ?? mine.sort((a, b) => dist(a) - dist(b))[0] ?? null;
  }
  const namedPiece = named ? board.find((p) => pieces[p.id] === idOf(named)) ?? null : null;

  const built = ability && distance
    ? abilityRequest({ frame, shape, region: /** @type {RegionData} */ (region), ability, distance, board, pieces, named: namedPiece })
    : isPointRules(rules)
      ? pointRequest({ frame, shape: /** @type {Shape} */ (shape), template, rules, metric, board, pieces, docs, named: namedPiece, casterId, regionZ: region ? shape?.z : undefined })
      : gridRequest({ frame, shape: /** @type {Shape} */ (shape), template, rules, board, pieces, docs, named, casterId });
  const { request, casterToken } = built;
  request.walls = mapWalls ? mapWalls(frame, isPointRules(rules)) : wallsFrom(walls, frame, { sense, oneWay: isPointRules(rules) });

  const zs = [request.origin?.z ?? 0, request.point ? Math.floor((request.point.z ?? 0) + EPS) : 0];
  let zmin = Math.min(0, ...zs);
  let zmax = Math.max(0, ...zs);
  for (const p of [...(request.tokens ?? []), ...(casterToken ? [casterToken] : [])]) {
    const pz = p.z ?? 0;
    zmin = Math.min(zmin, pz);
    zmax = Math.max(zmax, pz + (p.height ?? (typeof p.size === "number" ? p.size : 1)) - 1);
  }
  // A region's elevation bounds its area: its levels from its bottom to its top, no others.
  if (region && shape) {
    if (shape.z !== undefined) zmin = Math.max(zmin, shape.z);
    if (shape.top !== undefined) zmax = Math.max(zmin, Math.min(zmax, shape.top));
  }
  request.bounds = { min: [0, 0, zmin], max: [frame.columns - 1, frame.rows - 1, zmax] };
  if (shape?.inner) ringHole(request, shape, zmin, zmax);
  return { request, pieces, casterId: built.casterDoc, notation: built.notation };
}

/**
 * ringHole: a ring's hole taken out of its area (`targeting.excludeCells`, SPEC §7.3), on every
 * level of the bounds. Under dnd5e and pf2e (the area is the squares whose centres the shape
 * covers) the squares whose centre lies within the hole's radius of the ring's centre, on the
 * board; under the other rule sets (a `Cir n` of whole rings around its centre square, each
 * ring's edge half a square out) the rings wholly inside the hole: Chebyshev distance d from the
 * centre square with d + ½ ≤ the hole's radius.
 * @param {Request} request
 * @param {Shape} shape
 * @param {number} zmin
 * @param {number} zmax
 */
function ringHole(request, shape, zmin, zmax) {
  const inner = num(shape.inner, 0);
  /** @type {Array<[number, number, number]>} */
  const cells = [];
  /** @type {Array<[number, number]>} */
  const flat = [];
  if (request.point) {
    const { x: cx, y: cy } = shape.at;
    for (let y = Math.floor(cy - inner); y <= Math.ceil(cy + inner); y++) {
      for (let x = Math.floor(cx - inner); x <= Math.ceil(cx + inner); x++) {
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) < inner - EPS) flat.push([x, y]);
      }
    }
  } else {
    const c = originSquare(shape);
    const d = Math.floor(inner - 0.5 + EPS);
    for (let y = c.y - d; d >= 0 && y <= c.y + d; y++) for (let x = c.x - d; x <= c.x + d; x++) flat.push([x, y]);
  }
  for (let z = zmin; z <= zmax; z++) for (const [x, y] of flat) cells.push([x, y, z]);
  if (cells.length) request.targeting = { ...request.targeting, excludeCells: cells };
}

/** Draw Steel's area distances (abilities.distances with `area: true`, but `special`, which has no shape). */
const DS_AREAS = ["aura", "burst", "cube", "line", "wall"];

/**
 * abilityDistance: a Draw Steel ability's area, its numbers whole (FormulaFields: numbers once
 * prepared, numeric strings in the source). Throws for a distance that is no area (melee,
 * ranged, self, special) or numbers that are not whole and positive.
 * @param {AbilityData} ability
 * @returns {{type: "aura" | "burst" | "cube" | "line" | "wall", primary: number, secondary: number, tertiary: number}}
 */
export function abilityDistance(ability) {
  const d = ability?.system?.distance;
  const type = d?.type ?? "self";
  if (!DS_AREAS.includes(type)) throw new Error(`aoekit: the Draw Steel ability ${JSON.stringify(ability?.name ?? "")} has no area (its distance is ${JSON.stringify(type)})`);
  /** @type {(v: unknown, what: string) => number} */
  const n = (v, what) => {
    const value = numeric(v, NaN);
    if (!Number.isInteger(value) || value < 1) throw new Error(`aoekit: the Draw Steel ability's ${type} ${what} must be a whole number of squares, 1 or more (got ${JSON.stringify(v)})`);
    return value;
  };
  const primary = n(d?.primary, type === "aura" || type === "burst" ? "size" : "length");
  const secondary = type === "cube" || type === "line" || type === "wall" ? n(d?.secondary, type === "line" ? "width" : "range") : 0;
  const tertiary = type === "line" ? n(d?.tertiary, "range") : 0;
  return { type: /** @type {"aura" | "burst" | "cube" | "line" | "wall"} */ (type), primary, secondary, tertiary };
}

/**
 * abilityNotation: a Draw Steel ability's area in SPEC §3.8's notation, as the ability's own
 * text writes it (draw-steel's lang/en.json DistanceEmbed: "Aura {primary}", "Burst
 * {primary}", "Cube {primary} within {secondary}", "{primary} x {secondary} line within
 * {tertiary}", "{primary} wall within {secondary}"): `3 aura`, `2 burst`, `3 cube within 10`,
 * `5 x 1 line within 1`, `10 wall within 10`.
 * @param {AbilityData} ability
 * @returns {string}
 */
export function abilityNotation(ability) {
  const { type, primary, secondary, tertiary } = abilityDistance(ability);
  switch (type) {
    case "cube": return `${primary} cube within ${secondary}`;
    case "line": return `${primary} x ${secondary} line within ${tertiary}`;
    case "wall": return `${primary} wall within ${secondary}`;
    default: return `${primary} ${type}`;
  }
}

/**
 * abilityTargeting: who a Draw Steel area affects, by its ability's `system.target.type`
 * (draw-steel src/module/config.mjs abilities.targets): enemies (`enemy`, `enemyObject`) —
 * aoekit's `enemiesOnly`, every side other than the caster's; allies (`ally`) — the tokens on
 * the caster's side, not the caster; the caster and its allies (`selfAlly`, `selfOrAlly`); the
 * caster alone (`self`); every creature and the caster (`selfOrCreature`); every creature but
 * the caster (`creature`, `object`, `creatureObject`, `special`: an area does not affect its
 * own user unless it says so).
 * @param {string | null | undefined} type
 * @param {Piece | null} caster
 * @param {readonly Piece[]} board  the other tokens
 * @returns {NonNullable<Request["targeting"]>}
 */
export function abilityTargeting(type, caster, board) {
  const allies = () => board.filter((p) => caster && p.side && p.side === caster.side).map((p) => p.id);
  switch (type) {
    case "enemy":
    case "enemyObject":
      return { trait: "enemiesOnly" };
    case "ally":
      return { trait: "selective", ids: allies() };
    case "selfAlly":
    case "selfOrAlly":
      return { trait: "selective", ids: [...(caster ? [caster.id] : []), ...allies()] };
    case "self":
      return { trait: "selective", ids: caster ? [caster.id] : [] };
    case "selfOrCreature":
      return {};
    default:
      return { excludeCaster: true };
  }
}

/**
 * abilityRequest: requestFor's request for a region the Draw Steel system placed for an ability
 * (flags["draw-steel"].abilitySource): the ability's own area (abilityNotation), placed where
 * the region is, judged by `drawsteel` — barriers cut it, its origin square needs the caster's
 * line of effect and must be within its range (SPEC §3.1, §3.2) — and targeted by the
 * ability's target type (abilityTargeting):
 * - aura and burst: from the caster's space (the item's actor's token, else the token the region
 *   is attached to or centred on);
 * - cube: the region's rectangle (or circle's box) gives its north-west cell;
 * - line: the region's line (or rectangle) gives its first square, half a square in from its
 *   start, and its aim, half a square back from its end;
 * - wall: the squares of the region's rectangles, its `path`.
 * The level: the region's elevation's bottom, else the caster's.
 * @param {{frame: Frame, shape: Shape | null, region: RegionData, ability: AbilityData, distance: ReturnType<typeof abilityDistance>, board: Piece[], pieces: Record<string, string>, named: Piece | null}} input
 * @returns {Part}
 */
function abilityRequest({ frame, shape, region, ability, distance, board, pieces, named }) {
  const notation = abilityNotation(ability);
  const attached = region.attachment?.token ?? shape?.around?.token ?? null;
  let caster = named ?? (attached ? board.find((p) => pieces[p.id] === attached) ?? null : null);
  if (!caster && shape && (distance.type === "aura" || distance.type === "burst")) caster = pieceAt(board, shape.at, pieces, null);
  if (!caster) throw new Error(`aoekit: the Draw Steel ability's ${distance.type} needs its user's token on this scene (the ability ${JSON.stringify(region.flags?.["draw-steel"]?.abilitySource ?? "")} names none the user can see)`);
  const bottom = region.elevation?.bottom;
  const z = typeof bottom === "number" && Number.isFinite(bottom) ? levelOf(frame, bottom) : caster.z;
  /** @type {Request} */
  const request = { rules: "drawsteel", template: notation, caster: { ...caster } };
  const cell = (/** @type {number} */ x, /** @type {number} */ y) => ({ x: Math.floor(x + EPS), y: Math.floor(y + EPS), z });
  switch (distance.type) {
    case "cube": {
      const s = /** @type {Shape} */ (shape);
      const corner = s.t === "rect" ? rectOf(s) : null;
      // A circle's (or any shape's) box: the cube of its side centred on its centre.
      request.origin = corner ? { x: corner.x0, y: corner.y0, z } : cell(s.at.x - distance.primary / 2 + 0.5, s.at.y - distance.primary / 2 + 0.5);
      break;
    }
    case "line": {
      const s = /** @type {Shape} */ (shape);
      let { x, y } = s.at;
      let length = s.r;
      let degrees = s.degrees;
      if (s.t === "rect") { // a rectangle: along its longer side, from the middle of its short west or north side
        const { x0, y0, W, L } = rectOf(s);
        [x, y, length, degrees] = W >= L ? [x0, y0 + L / 2, W, 0] : [x0 + W / 2, y0, L, 90];
      }
      const rad = (degrees * Math.PI) / 180;
      const [ux, uy] = [Math.cos(rad), Math.sin(rad)];
      const first = cell(x + ux / 2, y + uy / 2);
      const last = cell(x + ux * (length - 0.5), y + uy * (length - 0.5));
      request.origin = first;
      if (first.x === last.x && first.y === last.y) request.path = [[first.x, first.y, z]];
      else request.aim = last;
      break;
    }
    case "wall":
      request.path = wallSquares(region, frame).map((q) => /** @type {[number, number, number]} */ ([q.x, q.y, z]));
      break;
  }
  const others = board.filter((p) => pieces[p.id] !== pieces[caster.id]);
  const targeting = abilityTargeting(ability.system?.target?.type, caster, others);
  if (Object.keys(targeting).length) request.targeting = targeting;
  request.tokens = others;
  return { request, casterDoc: pieces[caster.id], casterToken: caster, notation };
}

/**
 * @typedef {object} Part  what gridRequest and pointRequest make: the request but its walls and bounds
 * @property {Request} request
 * @property {string | null} casterDoc
 * @property {Token & {z: number} | null} casterToken
 * @property {string} notation
 */

/**
 * gridRequest: requestFor's TDGS, Draw Steel and 50 % circle request.
 * @param {{frame: Frame, shape: Shape, template: TemplateData | undefined, rules: RuleSet, board: Piece[], pieces: Record<string, string>, docs: Map<string, TokenData>, named: TokenData | null, casterId: string | null | undefined}} input
 * @returns {Part}
 */
function gridRequest({ frame, shape, template, rules, board, pieces, docs, named, casterId }) {
  const at = originSquare(shape);
  // The caster: a token standing on the origin square, for the shapes that come from one.
  const needsCaster = shape.t === "cone" || shape.t === "ray" || (shape.t === "circle" && rules === "drawsteel");
  /** @type {Piece | null} */
  let caster = null;
  if (needsCaster) {
    const here = board.filter((p) => within(p, at));
    const attached = shape.around?.token;
    caster = here.find((p) => named && pieces[p.id] === idOf(named)) ?? here.find((p) => attached && pieces[p.id] === attached) ?? here.find((p) => pieces[p.id] === casterId) ?? here[0] ?? null;
  }
  const z = shape.z ?? levelOf(frame, templateElevation(template, named ?? (caster ? docs.get(pieces[caster.id]) : null)).elevation);
  const origin = { x: at.x, y: at.y, z };

  /** @type {Request} */
  const request = { rules, template: "", origin };
  let notation = "";
  const dir = DIRECTIONS[shape.dir];
  const [dx, dy] = OFFSETS[shape.dir];
  const n = squares(shape.r);
  switch (shape.t) {
    case "circle":
      if (rules === "drawsteel") {
        notation = `${squares(shape.r, caster?.size ?? 1)} burst`;
        delete request.origin; // a burst comes from its caster's space
      } else {
        notation = rules === "circle50" ? `circle ${n}` : `Cir${n}`;
      }
      break;
    case "cone":
      notation = `Con${n}${dir}`;
      break;
    case "ray": {
      const w = Math.max(1, Math.round(shape.width + EPS));
      if (rules === "drawsteel") {
        notation = `${n} x ${w} line`;
        request.origin = { x: at.x + dx, y: at.y + dy, z };
        request.aim = { x: at.x + n * dx, y: at.y + n * dy, z };
      } else {
        notation = `Lin${n}${dir}${w > 1 ? `w${w}` : ""}`;
      }
      break;
    }
    case "rect": {
      const { x0, y0, W, L } = rectOf(shape);
      if (rules === "drawsteel" && W === L) {
        notation = `${W} cube`;
        request.origin = { x: x0, y: y0, z };
      } else {
        notation = `Rec${W}x${L}`;
        request.origin = { x: x0, y: y0 + L - 1, z };
      }
      break;
    }
  }
  request.template = notation;

  /** @type {string | null} */
  let casterDoc = null;
  /** @type {Token & {z: number} | null} */
  let casterToken = null;
  if (needsCaster) {
    if (caster) {
      casterDoc = pieces[caster.id];
      casterToken = { ...caster, z: caster.z, facing: "N" };
    } else {
      casterToken = { id: ORIGIN_ID, x: at.x, y: at.y, z, facing: "N" };
    }
    request.caster = casterToken;
    request.targeting = { excludeCaster: true };
  }
  request.tokens = casterDoc ? board.filter((p) => pieces[p.id] !== casterDoc) : board; // the caster's other pieces leave the board with it
  return { request, casterDoc, casterToken, notation };
}

/**
 * A rect template's box: its two corners snapped to the nearest grid lines, W × L squares from
 * (x0, y0); (ox, oy) is the corner it was drawn from, (sx, sy) the signs toward the other.
 * @param {Shape} shape
 */
function rectOf(shape) {
  const rad = (shape.degrees * Math.PI) / 180;
  const xs = [shape.at.x, shape.at.x + shape.r * Math.cos(rad)].map((v) => Math.round(v + EPS));
  const ys = [shape.at.y, shape.at.y + shape.r * Math.sin(rad)].map((v) => Math.round(v + EPS));
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  return {
    x0, y0,
    W: Math.max(1, Math.max(...xs) - x0),
    L: Math.max(1, Math.max(...ys) - y0),
    ox: xs[0], oy: ys[0],
    sx: xs[1] < xs[0] ? -1 : 1, sy: ys[1] < ys[0] ? -1 : 1,
  };
}

/** A size in squares as the whole squares the point-origin shapes take: the nearest, at least 1. */
const whole = (/** @type {number} */ v) => Math.max(1, Math.round(v + EPS));

/**
 * pointRequest: requestFor's dnd5e and pf2e request (SPEC §10, §11, CONTRACT "Point-origin
 * areas"). The area spreads from the template's own point — x, y in squares with their
 * fractions, z its height in levels — and a square is in it when the shape covers its centre and
 * the path from the point is clear, as Foundry highlights a template (the squares whose centre
 * it covers). Sizes are whole squares (the engine's), the nearest to the template's.
 *
 * dnd5e:
 * - circle: a `sphere` of its radius; a `cylinder` when dnd5e's flags give it a height
 *   (`dimensions.height`); an `emanation` of `dimensions.size` from the token it is centred on
 *   when dnd5e drew it around one (`dimensions.adjustedSize`: a 2024 emanation, whose template is
 *   the size plus half the token);
 * - cone: a `cone` of its length, its `angle` and `direction` (degrees) as they are, with a
 *   round base (`base: "round"`), as Foundry draws cones;
 * - ray: a `line` of its length and width toward its direction (dnd5e's rotatable cubes are rays
 *   as wide as they are long: the same box);
 * - rect: a `cube` from the corner it was drawn from, toward the other, when it is square (corners
 *   snapped to the grid lines, as the squares whose centres it covers are); else the box of its
 *   squares, as a `line` along its longer side, as high as its shorter side.
 * pf2e (Player Core's rules, as the pf2e system highlights them):
 * - circle: an `emanation` when pf2e's flags say so (`areaShape`), from the token it is cast
 *   from (its flags' or the one it is centred on); else a `burst` from the grid intersection
 *   nearest its point; a circle centred on a square (pf2e measures it from that centre) is the
 *   emanation of a stand-in caster on that square;
 * - cone: a quarter-circle `cone` aimed at the nearest of the eight directions; from a square's
 *   centre it starts at that square's edge, as pf2e's highlight does;
 * - ray and rect: as dnd5e's.
 * Heights: a sphere is centred half a level above the template's floor, so that on its own
 * level it takes exactly the squares whose centres Foundry's circle covers (SPEC §10.1: a cell's
 * centre is half a level up); a cylinder, burst or cube stands on that floor; a cone starts at
 * its caster's mid-height (a one-square one's when there is none); a line (and a box) is as high
 * as it is wide, from the floor. A cone or line's caster (the token its flags name, or
 * the one standing where it starts) is the request's caster, kept out of its own area
 * (`excludeCaster`); circles and rects have one only when their flags name it.
 * `metric`: dnd5e's (range and emanations), from the scene's diagonal rule.
 * @param {{frame: Frame, shape: Shape, template: TemplateData | undefined, rules: "dnd5e" | "pf2e", metric: Metric | undefined, board: Piece[], pieces: Record<string, string>, docs: Map<string, TokenData>, named: Piece | null, casterId: string | null | undefined, regionZ: number | undefined}} input
 * @returns {Part}
 */
function pointRequest({ frame, shape, template, rules, metric, board, pieces, docs, named, casterId, regionZ }) {
  const P = shape.at;
  const flags = template?.flags;
  const dims = flags?.dnd5e?.dimensions;
  /** @type {Request} */
  const request = { rules, template: "" };
  if (rules === "dnd5e" && metric) request.metric = metric;

  // The caster, for the shapes that start from one: its flags', else the token where it starts.
  const fromToken = shape.t === "cone" || shape.t === "ray";
  /** @type {Piece | null} */
  let caster = named;
  if (!caster && fromToken) {
    const at = originSquare(shape);
    caster = board.filter((p) => within(p, at)).sort((a, b) => Number(pieces[b.id] === casterId) - Number(pieces[a.id] === casterId))[0] ?? null;
  }
  // The height of the template's floor, in levels (fractions kept).
  const height = templateElevation(template, caster ? docs.get(pieces[caster.id]) : null);
  const base = regionZ ?? (height.from === "caster" && caster ? caster.z : lattice(height.elevation / frame.distance));
  const floor = Math.floor(base + EPS);
  const r = whole(shape.r);
  /** @type {Piece | null} */
  let casterToken = caster ? { ...caster } : null;
  // A circle with no caster named: the token whose space holds its point is the request's
  // caster all the same (not reported as one), so that it gives no cover against the area
  // that bursts out of it (SPEC §10.8, §11.5: never the caster's); it is in its own area.
  const host = shape.t === "circle" && !caster ? pieceAt(board, P, pieces, casterId) : null;
  let notation = "";

  switch (shape.t) {
    case "circle": {
      const areaShape = flags?.pf2e?.areaShape;
      // An emanation: from its caster's space (pf2e: flagged so; dnd5e: drawn around a token).
      let emanation = null;
      if (shape.around) {
        // A v14 emanation region: from the token it is attached to, else the one whose space is its base.
        const a = shape.around;
        const byId = a.token ? board.find((p) => pieces[p.id] === a.token) ?? null : null;
        const around = byId ?? pieceAt(board, { x: a.x + a.w / 2, y: a.y + a.h / 2 }, pieces, casterId);
        emanation = { radius: whole(shape.r - Math.min(a.w, a.h) / 2), around: around ?? standIn(P, floor) };
      } else if (rules === "pf2e" && areaShape === "emanation") {
        const around = caster ?? pieceAt(board, P, pieces, casterId);
        emanation = { radius: r, around: around ?? standIn(P, floor) };
      } else if (rules === "dnd5e" && dims?.adjustedSize && numeric(dims.size, 0) > 0) {
        const around = caster ?? pieceAt(board, P, pieces, casterId);
        if (around && Math.abs(around.x + around.size / 2 - P.x) < EPS && Math.abs(around.y + around.size / 2 - P.y) < EPS) {
          emanation = { radius: whole(numeric(dims.size, 0) / frame.distance), around };
        }
      } else if (rules === "pf2e" && Math.abs((P.x % 1) - 0.5) < EPS && Math.abs((P.y % 1) - 0.5) < EPS) {
        // pf2e measures a circle centred on a square from that centre: a one-square space's
        // emanation — the token's on that square, or a stand-in's.
        emanation = { radius: r, around: host?.size === 1 ? host : standIn(P, floor) };
      }
      if (emanation) {
        casterToken = { ...emanation.around, z: emanation.around.id === ORIGIN_ID ? floor : emanation.around.z };
        request.template = { rules, shape: "emanation", radius: emanation.radius };
        if (rules === "pf2e" && casterToken.id === ORIGIN_ID) request.targeting = { excludeCaster: true };
        notation = `emanation ${emanation.radius}`;
      } else if (rules === "pf2e") {
        request.template = { rules, shape: "burst", radius: r };
        request.point = { x: Math.round(P.x + EPS), y: Math.round(P.y + EPS), z: floor };
        notation = `burst ${r}`;
      } else if (numeric(dims?.height, 0) > 0) {
        const h = whole(numeric(dims?.height, 0) / frame.distance);
        request.template = { rules, shape: "cylinder", radius: r, height: h };
        request.point = { x: P.x, y: P.y, z: base };
        notation = `cylinder ${r} high ${h}`;
      } else {
        request.template = { rules, shape: "sphere", radius: r };
        request.point = { x: P.x, y: P.y, z: base + 0.5 };
        notation = `sphere ${r}`;
      }
      break;
    }
    case "cone": {
      const mid = base + (caster ? (caster.height ?? caster.size) : 1) / 2;
      if (rules === "pf2e") {
        const [dx, dy] = OFFSETS[shape.dir];
        // From a square's middle, pf2e starts a cone at that square's edge (its highlight's coneOriginOffset).
        const off = (/** @type {number} */ v, /** @type {number} */ d) => (Math.abs(v - Math.round(v)) > EPS ? lattice(v + d / 2) : v);
        request.template = { rules, shape: "cone", length: r };
        request.point = { x: off(P.x, dx), y: off(P.y, dy), z: mid };
        request.toward = DIRECTIONS[shape.dir];
      } else {
        const angle = num(shape.angle ?? template?.angle, 0);
        request.template = { rules, shape: "cone", length: r, base: shape.base ?? "round", ...(angle >= 1 && angle <= 179 ? { angle } : {}) };
        request.point = { x: P.x, y: P.y, z: mid };
        request.toward = shape.degrees;
      }
      notation = `cone ${r}`;
      break;
    }
    case "ray": {
      const w = whole(shape.width);
      request.template = { rules, shape: "line", length: r, width: w };
      request.point = { x: P.x, y: P.y, z: base + w / 2 };
      request.toward = shape.degrees;
      notation = `line ${r} wide ${w}`;
      break;
    }
    case "rect": {
      const { x0, y0, W, L, ox, oy, sx, sy } = rectOf(shape);
      if (W === L) {
        request.template = { rules, shape: "cube", side: W };
        request.point = { x: ox, y: oy, z: floor };
        request.toward = DIRECTIONS[sy < 0 ? (sx < 0 ? 7 : 1) : sx < 0 ? 5 : 3]; // NW, NE, SW, SE
        notation = `cube ${W}`;
      } else {
        const [long, short] = W > L ? [W, L] : [L, W];
        request.template = { rules, shape: "line", length: long, width: short };
        request.point = W > L ? { x: x0, y: y0 + L / 2, z: floor + short / 2 } : { x: x0 + W / 2, y: y0, z: floor + short / 2 };
        request.toward = W > L ? "E" : "S";
        notation = `box ${W}x${L}`;
      }
      break;
    }
  }

  if (!casterToken && host && request.point) casterToken = { ...host };
  // Reported as the caster: the token its flags name, a cone's or a line's, an emanation's.
  const reported = casterToken && casterToken.id !== ORIGIN_ID && (casterToken.id !== host?.id || !request.point);
  /** @type {string | null} */
  const casterDoc = reported && casterToken ? pieces[casterToken.id] : null;
  const inRequest = casterToken && casterToken.id !== ORIGIN_ID ? pieces[casterToken.id] : null;
  if (casterToken) {
    request.caster = casterToken;
    if (fromToken) request.targeting = { excludeCaster: true }; // a cone's or a line's point of origin is not in it
  }
  request.tokens = inRequest ? board.filter((p) => pieces[p.id] !== inRequest) : board; // its other pieces leave with it
  return { request, casterDoc, casterToken, notation };
}

/**
 * A stand-in caster of one square holding point p, on level z.
 * @param {{x: number, y: number}} p
 * @param {number} z
 * @returns {Piece}
 */
function standIn(p, z) {
  return { id: ORIGIN_ID, x: Math.floor(p.x + EPS), y: Math.floor(p.y + EPS), z, size: 1, side: "" };
}

/** @type {Readonly<Record<string, number>>} */
const GRADE = { none: 0, partial: 1, lesser: 1, half: 2, cover: 2, standard: 2, threeQuarters: 3, greater: 3, full: 4, total: 4 };

/**
 * mergeTargets: the engine's targets (evaluate's, or the overlay draw's summary) per
 * TokenDocument: the pieces of a rectangular token joined into one — in the area when any piece
 * is, affected when any piece is, with the cover of its least covered piece in the area (the
 * grade, bonus, blocked lines and lines of that piece). The stand-in caster is left out.
 * @template {DrawTarget} T  a Target (evaluate's) or a DrawTarget (the overlay's summary)
 * @param {readonly T[] | null | undefined} targets
 * @param {{pieces: Record<string, string>, casterId?: string | null}} built  requestFor's answer
 * @returns {MergedTarget<T>[]} in the order of the engine's targets (the caster first, when it
 *   is in its own area).
 */
export function mergeTargets(targets, { pieces, casterId = null }) {
  /** @type {Map<string, MergedTarget<T>>} */
  const byDoc = new Map();
  for (const t of targets ?? []) {
    if (t.id === ORIGIN_ID) continue;
    const id = pieces[t.id] ?? t.id;
    const prev = byDoc.get(id);
    const better = !prev || (t.inArea && !prev.inArea) || (t.inArea === prev.inArea && (GRADE[t.cover] ?? 0) < (GRADE[prev.cover] ?? 0));
    const merged = better ? { ...t, id, caster: id === casterId } : prev;
    merged.inArea = t.inArea || !!prev?.inArea;
    merged.affected = t.affected || !!prev?.affected;
    if (merged.affected) delete merged.reason;
    byDoc.set(id, merged);
  }
  return [...byDoc.values()];
}

/**
 * The TokenDocument ids an answer affects: what auto-targeting targets. A caster the rules keep
 * out of its own area (a cone's, a line's, a Draw Steel burst's: `targeting.excludeCaster`; a
 * dnd5e emanation's) is not affected; one standing in its own fireball is.
 * @param {readonly MergedTarget[]} merged
 * @returns {string[]}
 */
export function affectedIds(merged) {
  return merged.filter((t) => t.affected).map((t) => t.id);
}
