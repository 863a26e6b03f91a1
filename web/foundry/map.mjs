// aoekit for Foundry VTT: the pure mapping from what Foundry v13's documents hold (plain data: a
// Scene's grid and dimensions, TokenDocument, WallDocument, MeasuredTemplateDocument and RegionDocument fields)
// to an aoekit request (web/CONTRACT.md), and from the engine's answer back to Foundry's tokens.
// No Foundry global is read here (no canvas, game, CONST, Hooks): aoekit.mjs gathers the data
// and calls these functions, and web/test/foundry.test.mjs runs them on fixtures with the real
// engine. Foundry's constants are spelled as the numbers v13 gives them.
//
// Units (the decisions, also in README.md):
// - squares: aoekit cell (0, 0) is the grid square holding the north-west corner of the scene's
//   rectangle (canvas.dimensions.sceneX/sceneY, which a background offset may put off the grid);
//   a canvas pixel p is (p − that square's corner) / grid.size squares;
// - levels: one level is one grid square of height, grid.distance units (5 ft on most scenes):
//   an elevation e (token, template, wall-height) is e / grid.distance levels, and a token
//   stands on level ⌊e / grid.distance⌋;
// - template lengths are in grid.distance units and become whole squares (`squares` below).
//
// Types (JSDoc, checked by `tsc -p web/foundry`, make test-foundry-types): the inputs are the
// fields read here, typed as Foundry v13's documents have them, so that aoekit.mjs passing
// TokenDocument, WallDocument and MeasuredTemplateDocument instances is checked against the
// foundry-vtt-types declarations; the request is the package's Request (web/index.d.ts).

/** @import { Request, Token, Wall } from "./index.js" */
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
 */
/**
 * A WallDocument's fields read here, as v13 has them (plain data may leave any out); the
 * wall-height module's flags are elevations (grid distance units), null or ±Infinity for none.
 * @typedef {object} WallData
 * @property {number[]} c  [x0, y0, x1, y1], canvas pixels
 * @property {number | null} move  CONST.WALL_MOVEMENT_TYPES
 * @property {number | null} sight  CONST.WALL_SENSE_TYPES
 * @property {number | null} door  CONST.WALL_DOOR_TYPES
 * @property {number | null} ds  CONST.WALL_DOOR_STATES
 * @property {{"wall-height"?: {bottom?: number | null, top?: number | null}}} [flags]
 */
/**
 * A MeasuredTemplateDocument's fields read here, as v13 has them (plain data may leave any
 * out). `elevation` is v14's; the Levels module's is `flags.levels.elevation`.
 * @typedef {object} TemplateData
 * @property {string} t  CONST.MEASURED_TEMPLATE_TYPES: "circle", "cone", "ray" or "rect"
 * @property {number} x
 * @property {number} y
 * @property {number} distance  in grid distance units
 * @property {number} direction  degrees, 0 = east, clockwise
 * @property {number} width  a ray's, in grid distance units
 * @property {number} [elevation]
 * @property {{levels?: {elevation?: number | null}}} [flags]
 */
/**
 * A RegionDocument's fields read here (v13): its shapes (RegionDocument#shapes: BaseShapeData's
 * `type` and `hole`, with a rectangle's x, y, width, height and rotation, a circle's x, y and
 * radius, an ellipse's x, y, radiusX, radiusY and rotation, in canvas pixels) and its
 * elevation (bottom and top in grid distance units, null for unbounded).
 * @typedef {object} RegionData
 * @property {readonly RegionShapeData[]} shapes
 * @property {{bottom?: number | null, top?: number | null}} [elevation]
 */
/**
 * @typedef {object} RegionShapeData
 * @property {string} type  "rectangle", "circle", "ellipse", "polygon", …
 * @property {boolean} [hole]
 * @property {number} [x]
 * @property {number} [y]
 * @property {number} [width]
 * @property {number} [height]
 * @property {number} [radius]
 * @property {number} [radiusX]
 * @property {number} [radiusY]
 * @property {number} [rotation]  degrees, about the shape's centre
 */
/** @typedef {"tdgs" | "drawsteel" | "circle50"} RuleSet */
/**
 * An aoekit token made from a TokenDocument (tokenPieces): always an id, a level, a size and a
 * side (a request may leave id and z out; these never do).
 * @typedef {Token & {id: string, z: number, size: number, side: string}} Piece
 */
/** @typedef {"move" | "sight"} Sense */
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
export const DIRECTIONS = Object.freeze(["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
/** @type {ReadonlyArray<readonly [number, number]>} */
const OFFSETS = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];

// Foundry v13 constants, by value.
const GRID_SQUARE = 1; // CONST.GRID_TYPES.SQUARE
const MOVE_NONE = 0; // CONST.WALL_MOVEMENT_TYPES.NONE
const SENSE_NONE = 0; // CONST.WALL_SENSE_TYPES.NONE
const DOOR_NONE = 0; // CONST.WALL_DOOR_TYPES.NONE (1 DOOR, 2 SECRET)
const DOOR_OPEN = 1; // CONST.WALL_DOOR_STATES.OPEN (0 CLOSED, 2 LOCKED)
/** @type {readonly string[]} */
const RULES = ["tdgs", "drawsteel", "circle50"];
/** @type {(rules: string) => rules is RuleSet} */
const isRuleSet = (rules) => RULES.includes(rules);
const EPS = 1e-9;

/** Rounds a length in squares onto the engine's 1/400 lattice (CONTRACT: walls, fills). */
const lattice = (/** @type {number} */ v) => Math.round(v * 400) / 400;
/** v when it is a finite number, else fallback. */
const num = (/** @type {unknown} */ v, /** @type {number} */ fallback) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
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
 * wallFrom: a WallDocument as an aoekit thin wall (SPEC §5.6), or null when it blocks nothing
 * physical. `c` ([x0, y0, x1, y1], canvas pixels) becomes squares. Which walls count
 * (`options.sense`): "move" (default) keeps walls that restrict movement — walls, doors,
 * windows, invisible walls — and leaves out ethereal ones and curtains (move: NONE); "sight"
 * keeps those that block sight instead. A door (door 1) or secret door (door 2) whose state `ds`
 * is OPEN is `open: true`; closed and locked doors are walls. The wall-height module's
 * `flags["wall-height"].bottom/top` (elevations, grid distance units; null or ±Infinity for
 * none) become `bottom`/`top` in levels. A one-way wall (dir) blocks both ways: aoekit's walls
 * have no side. A wall of no length on the 1/400 lattice, or whose bottom is above its top, is
 * left out (null).
 * @param {WallData} doc
 * @param {Frame} frame
 * @param {{sense?: Sense}} [options]
 * @returns {Wall | null}
 */
export function wallFrom(doc, frame, options = {}) {
  const c = doc.c;
  if (!Array.isArray(c) || c.length !== 4 || !c.every((v) => typeof v === "number" && Number.isFinite(v))) return null;
  const restriction = options.sense === "sight" ? num(doc.sight, 20) : num(doc.move, 20);
  if (restriction === (options.sense === "sight" ? SENSE_NONE : MOVE_NONE)) return null;
  const a = toSquares(frame, c[0], c[1]);
  const b = toSquares(frame, c[2], c[3]);
  if (a.x === b.x && a.y === b.y) return null;
  /** @type {Wall} */
  const wall = { a: [a.x, a.y], b: [b.x, b.y] };
  if (num(doc.door, DOOR_NONE) !== DOOR_NONE && doc.ds === DOOR_OPEN) wall.open = true;
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
 * (degrees and the snapped index), ray width (squares) and elevation level (a v14 `elevation`
 * or the Levels module's `flags.levels.elevation`, when given).
 * @param {TemplateData} doc
 * @param {Frame} frame
 * @returns {Shape}
 */
export function templateShape(doc, frame) {
  const t = doc.t ?? "circle";
  if (!isTemplateType(t)) throw new Error(`aoekit: unknown template type ${JSON.stringify(t)}`);
  const at = toSquares(frame, num(doc.x, 0), num(doc.y, 0));
  const elevation = doc.elevation ?? doc.flags?.levels?.elevation;
  return {
    t,
    at,
    r: num(doc.distance, 0) / frame.distance,
    degrees: num(doc.direction, 0),
    dir: snapDirection(doc.direction),
    width: num(doc.width, frame.distance) / frame.distance,
    z: typeof elevation === "number" && Number.isFinite(elevation) ? levelOf(frame, elevation) : undefined,
  };
}

/** @type {(t: string) => t is Shape["t"]} */
const isTemplateType = (t) => ["circle", "cone", "ray", "rect"].includes(t);

/**
 * regionShape: a Region's geometry as the measured template it stands for — its one shape,
 * which must not be a hole: a circle (or an ellipse with equal radii) is a circle template of
 * its radius around its centre; a rectangle, turned by a multiple of 90° about its centre, is
 * a rect template from its north-west corner across its diagonal. Its level is its elevation's
 * bottom when that is a number. Anything else (several shapes, holes, polygons, turned
 * rectangles, true ellipses) throws, naming what it is.
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
  const base = { degrees: 0, dir: 0, width: 1, z };
  const x = num(s.x, 0);
  const y = num(s.y, 0);
  switch (s.type) {
    case "ellipse":
      if (Math.abs(num(s.radiusX, 0) - num(s.radiusY, 0)) > EPS) throw new Error("aoekit: an ellipse region is read as a template only when it is a circle (radiusX = radiusY)");
    // fall through: a circle
    case "circle": {
      const radius = s.type === "circle" ? num(s.radius, 0) : num(s.radiusX, 0);
      return { ...base, t: "circle", at: toSquares(frame, x, y), r: radius / frame.size };
    }
    case "rectangle": {
      const turn = ((num(s.rotation, 0) % 360) + 360) % 360;
      if (turn % 90 > EPS && 90 - (turn % 90) > EPS) throw new Error(`aoekit: a rectangle region is read as a template only when it is turned by a multiple of 90° (this one by ${s.rotation}°)`);
      let w = num(s.width, 0);
      let h = num(s.height, 0);
      let [x0, y0] = [x, y];
      if (Math.round(turn / 90) % 2 === 1) { // a quarter turn about the centre: the box swaps sides
        [x0, y0] = [x + (w - h) / 2, y + (h - w) / 2];
        [w, h] = [h, w];
      }
      return { ...base, t: "rect", at: toSquares(frame, x0, y0), r: Math.hypot(w, h) / frame.size, degrees: (Math.atan2(h, w) * 180) / Math.PI };
    }
  }
  throw new Error(`aoekit: a ${JSON.stringify(s.type)} region cannot be read as a template (circles and rectangles can)`);
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
 * requestFor: the whole evaluate request for one measured template on a scene.
 *
 * @param {object} input
 * @param {SceneData} input.scene      see frameOf
 * @param {readonly TokenData[]} [input.tokens]   TokenDocument data (x, y, width, height, elevation, disposition, hidden, id or _id)
 * @param {readonly WallData[]} [input.walls]    WallDocument data (c, move, sight, door, ds, flags)
 * @param {TemplateData} [input.template]   MeasuredTemplateDocument data (t, x, y, distance, direction, width)
 * @param {RegionData} [input.region]   or a RegionDocument's (regionShape), when there is no template
 * @param {string} [input.rules]  the rule set, "tdgs", "drawsteel" or "circle50" (default tdgs; anything else throws)
 * @param {string | null} [input.casterId] a token to prefer as the caster when several stand at the origin
 * @param {boolean} [input.includeHidden]  count hidden tokens (default true; a player's client passes false)
 * @param {Sense} [input.sense]   which walls block (wallFrom)
 * @returns {Built}
 *   `pieces` maps every aoekit token id of the request (and the caster's) to its TokenDocument id;
 *   `casterId` is the TokenDocument taken as the caster, or null (then the caster, when the shape
 *   needs one, is the stand-in ORIGIN_ID on the origin square).
 *
 * Templates (SPEC §2, §3, §4), n = squares(length):
 * - circle: tdgs `Cir n` centred on its square; drawsteel `X burst` from the token standing on
 *   that square (X = squares(length, the token's size)); circle50 `circle n`;
 * - cone: `Con n DIR`, DIR its direction snapped to the eight, from its origin square (the
 *   template's `angle` is not used: aoekit's cones have their own shape, SPEC §2.4–§2.5);
 * - ray: tdgs and circle50 `Lin n DIR [wW]` (W its width in squares, at least 1); drawsteel
 *   `n x W line` from the square after its origin square toward DIR;
 * - rect: its two corners snapped to grid lines, W × L squares: `Rec WxL` anchored at its
 *   south-west square; drawsteel `W cube` when W = L (else the TDGS rectangle).
 * The request's `rules` is always the chosen rule set, so a TDGS cone on a Draw Steel table is
 * judged by Draw Steel's cover. Cones, rays and bursts take as their caster the token standing
 * on the origin square (`casterId` first); the caster faces N, so DIR is absolute, and
 * `targeting.excludeCaster` keeps it out of its own area. `bounds` is the scene's rectangle in
 * squares, on every level from the lowest to the highest thing on the board.
 */
export function requestFor({ scene, tokens = [], walls = [], template, region, rules = "tdgs", casterId, includeHidden = true, sense = "move" }) {
  if (!isRuleSet(rules)) throw new Error(`aoekit: rules must be tdgs, drawsteel or circle50, got ${JSON.stringify(rules)}`);
  const frame = frameOf(scene);
  if (!template && !region) throw new Error("aoekit: requestFor needs a template or a region");
  const shape = template ? templateShape(template, frame) : regionShape(/** @type {RegionData} */ (region), frame);
  const at = originSquare(shape);

  /** @type {Record<string, string>} */
  const pieces = {};
  /** @type {Piece[]} */
  const board = [];
  for (const doc of tokens) {
    if (!includeHidden && doc.hidden) continue;
    for (const p of tokenPieces(doc, frame)) {
      pieces[p.id] = idOf(doc);
      board.push(p);
    }
  }

  // The caster: a token standing on the origin square, for the shapes that come from one.
  const needsCaster = shape.t === "cone" || shape.t === "ray" || (shape.t === "circle" && rules === "drawsteel");
  /** @type {Piece | null} */
  let caster = null;
  if (needsCaster) {
    const here = board.filter((p) => within(p, at));
    caster = here.find((p) => pieces[p.id] === casterId) ?? here[0] ?? null;
  }
  const z = shape.z ?? caster?.z ?? 0;
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
      const rad = (shape.degrees * Math.PI) / 180;
      const xs = [shape.at.x, shape.at.x + shape.r * Math.cos(rad)].map((v) => Math.round(v + EPS));
      const ys = [shape.at.y, shape.at.y + shape.r * Math.sin(rad)].map((v) => Math.round(v + EPS));
      const x0 = Math.min(...xs);
      const y0 = Math.min(...ys);
      const W = Math.max(1, Math.max(...xs) - x0);
      const L = Math.max(1, Math.max(...ys) - y0);
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
  /** @type {Token & {z: number, size?: number} | null} */
  let casterToken = null;
  if (needsCaster) {
    if (caster) {
      casterDoc = pieces[caster.id];
      // The caster is one entity: its other pieces leave the board with it.
      for (let i = board.length - 1; i >= 0; i--) if (pieces[board[i].id] === casterDoc) board.splice(i, 1);
      casterToken = { ...caster, facing: "N" };
    } else {
      casterToken = { id: ORIGIN_ID, x: at.x, y: at.y, z, facing: "N" };
    }
    request.caster = casterToken;
    request.targeting = { excludeCaster: true };
  }
  request.tokens = board;
  request.walls = walls.map((w) => wallFrom(w, frame, { sense })).filter((w) => w !== null);

  let zmin = z;
  let zmax = z;
  for (const p of [...board, ...(casterToken ? [casterToken] : [])]) {
    zmin = Math.min(zmin, p.z);
    zmax = Math.max(zmax, p.z + (p.height ?? p.size ?? 1) - 1);
  }
  request.bounds = { min: [0, 0, Math.min(0, zmin)], max: [frame.columns - 1, frame.rows - 1, Math.max(0, zmax)] };
  return { request, pieces, casterId: casterDoc, notation };
}

/** @type {Readonly<Record<string, number>>} */
const GRADE = { none: 0, partial: 1, half: 2, cover: 2, full: 3 };

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
 * The TokenDocument ids an answer affects, the caster left out: what auto-targeting targets.
 * @param {readonly MergedTarget[]} merged
 * @returns {string[]}
 */
export function affectedIds(merged) {
  return merged.filter((t) => t.affected && !t.caster).map((t) => t.id);
}
