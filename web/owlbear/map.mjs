// @ts-check
// aoekit for Owlbear Rodeo: the pure mapping from Owlbear's scene items (plain data as
// @owlbear-rodeo/sdk 3 gives them: OBR.scene.items.getItems(), OBR.scene.grid.getDpi() and
// getScale()) to an aoekit request (web/CONTRACT.md), and from the engine's answer back to the
// items. Nothing here calls the SDK: owlbear.mjs gathers the items and calls these functions,
// and web/test/owlbear*.test.mjs run them on fixtures with the real engine.
//
// Units (the decisions, also in README.md):
// - squares: Owlbear's square grid has its lines at whole multiples of the scene's dpi from the
//   scene's origin, so a scene point p is p / dpi squares and aoekit square (0, 0) is Owlbear's;
// - levels: one level is one grid square of height (the grid scale, "5ft" → 5 units): an
//   elevation e in the item's metadata (META + "/elevation", in those units) is e / 5 levels,
//   and a token stands on level ⌊e / 5⌋. Owlbear has no elevation of its own.
//
// What the extension reads and writes in an item's metadata (all optional):
// - `io.github.aoekit/elevation`: a number, the token's (or a template shape's) elevation;
// - `io.github.aoekit/side`: a string, the token's side for smart targeting ("party", "enemy");
// - `io.github.aoekit/wall`: `true`, or `{open, bottom, top}` (bottom and top elevations, in
//   grid units as above): the drawing — a LINE, CURVE, PATH or SHAPE — is a wall; `open: true`
//   makes it an open door; on a wall of any source (a Dynamic Fog drawing too), bottom and top
//   give its walls those heights;
// and in the room's metadata, RULES_KEY: the room's rule set. It reads Dynamic Fog's door lists
// (FOG_PLUGINS + "/doors") and Owlbear's WALL items: see "Walls" below.
//
// Type-checked (JSDoc, strict) with owlbear.mjs: web/owlbear/tsconfig.json. SceneItem is what
// this file reads of an item: every SDK item (@owlbear-rodeo/sdk's Item, Image, Shape, Curve,
// Line, Path, Wall) is one, and so is the plain data of a fixture.

/** @import { Request, Target, Token, Wall, Point, Rules } from "../index.js" */
/** @typedef {{x: number, y: number}} Vec */
/** @typedef {{dpi: number, distance: number}} Frame */
/**
 * What this file reads of an Owlbear item, each field as @owlbear-rodeo/sdk types it (Item;
 * Image: image, grid; Shape: width, height, shapeType; Curve: points, style.tension,
 * style.closed; Line: startPosition, endPosition; Path: commands; Wall: points, doubleSided,
 * blocking), all but id and type optional: it is read defensively.
 * @typedef {object} SceneItem
 * @property {string} id
 * @property {string} type
 * @property {string} [name]
 * @property {string} [layer]
 * @property {boolean} [visible]
 * @property {string} [attachedTo]
 * @property {string} [lastModified]
 * @property {Vec} [position]
 * @property {number} [rotation]
 * @property {Vec} [scale]
 * @property {Record<string, unknown>} [metadata]
 * @property {{width?: number, height?: number}} [image]
 * @property {{dpi?: number, offset?: Vec}} [grid]
 * @property {number} [width]
 * @property {number} [height]
 * @property {string} [shapeType]
 * @property {Vec[]} [points]
 * @property {Vec} [startPosition]
 * @property {Vec} [endPosition]
 * @property {ReadonlyArray<ReadonlyArray<number>>} [commands]
 * @property {{fillOpacity?: number, closed?: boolean, tension?: number}} [style]
 * @property {boolean} [doubleSided]
 * @property {boolean} [blocking]
 */
/** @typedef {{id: string, x: number, y: number, z: number, size: number, height?: number, side?: string, facing?: "N", takingCover?: boolean}} Piece */
/** @typedef {{a: [number, number], b: [number, number], open?: boolean, bottom?: number, top?: number}} WallOut */
/**
 * requestFrom's answer: the request (its tokens the board's pieces), which item each piece is,
 * the caster's item and the notation.
 * @typedef {{request: Request & {tokens: Piece[], walls: WallOut[], caster?: Piece}, pieces: Record<string, string>, casterId: string|null, notation: string}} Built
 */
/** @typedef {Target & {caster: boolean}} Merged */

/** The prefix of the extension's metadata keys. */
export const META = "io.github.aoekit";
/** The metadata key of a template the tool placed (a scene PATH item): its PlacedRecord. */
export const TEMPLATE_KEY = "io.github.aoekit/template";
/** The tool's modes (OBR.tool.createMode): what a drag places. */
export const TOOL_MODES = Object.freeze(["circle", "cone", "line", "square", "notation"]);
/** The id of the stand-in caster a template gets when no token stands at its origin. */
export const ORIGIN_ID = "aoekit:origin";
/** The layers whose images are tokens (creatures and mounts), by default. */
export const TOKEN_LAYERS = Object.freeze(["CHARACTER", "MOUNT"]);
/** @typedef {"tdgs" | "drawsteel" | "circle50" | "dnd5e" | "pf2e"} RuleSet */

/** The rule sets, as the popover offers them and a room stores its choice (RULES_KEY). */
export const RULES = /** @type {readonly string[]} */ (Object.freeze(["tdgs", "drawsteel", "circle50", "dnd5e", "pf2e"]));
/** The point-origin rule sets (SPEC §10, §11): areas spread from a point, sizes in feet. */
export const POINT_RULES = /** @type {readonly string[]} */ (Object.freeze(["dnd5e", "pf2e"]));
/** The room metadata key that holds the room's rule set (OBR.room.getMetadata()). */
export const RULES_KEY = "io.github.aoekit/rules";
/**
 * Owlbear's GridMeasurement (@owlbear-rodeo/sdk types/Grid.d.ts: "CHEBYSHEV" | "ALTERNATING" |
 * "EUCLIDEAN" | "MANHATTAN") as aoekit's `metric` (CONTRACT evaluate; SPEC §8.2, §10.6): how
 * range and `within` are counted, and a point-origin emanation's reach.
 */
/** @type {Readonly<Record<string, "chebyshev" | "alternating" | "euclidean" | "manhattan">>} */
export const METRICS = Object.freeze({ CHEBYSHEV: "chebyshev", ALTERNATING: "alternating", EUCLIDEAN: "euclidean", MANHATTAN: "manhattan" });
/** Owlbear's grid types (types/Grid.d.ts GridType) and what the popover calls them. */
/** @type {Readonly<Record<string, string>>} */
export const GRID_NAMES = Object.freeze({ SQUARE: "square", HEX_VERTICAL: "hexagonal (vertical)", HEX_HORIZONTAL: "hexagonal (horizontal)", ISOMETRIC: "isometric", DIMETRIC: "dimetric" });
const FEET = 5; // feet a square in dnd5e and pf2e notation (SPEC §10.3)
const EPS = 1e-9;
/** @param {number} v */
const lattice = (v) => Math.round(v * 400) / 400;
/** A finite number, or the fallback. @template F @param {unknown} v @param {F} fallback @returns {number | F} */
const num = (v, fallback) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);

/**
 * parseScale: the number of a grid scale ("5ft", "1.5m", "5 ft") or of getScale()'s answer
 * ({parsed: {multiplier}}); 5 when there is none.
 * @param {unknown} scale
 * @returns {number}
 */
export function parseScale(scale) {
  if (typeof scale === "number") return scale > 0 ? scale : 5;
  const m = typeof scale === "string" ? /^\s*(\d+(?:\.\d+)?)/.exec(scale) : null;
  const parsed = scale && typeof scale === "object" ? /** @type {{parsed?: {multiplier?: unknown}}} */ (scale).parsed : undefined;
  const v = m ? Number(m[1]) : num(parsed?.multiplier, 5);
  return v > 0 ? v : 5;
}

/** metricOf: a GridMeasurement as aoekit's metric, or undefined for anything else. @param {unknown} measurement */
export function metricOf(measurement) {
  return typeof measurement === "string" && Object.hasOwn(METRICS, measurement) ? METRICS[measurement] : undefined;
}

/** roomRules: the rule set a room's metadata names (RULES_KEY), or null. @param {Record<string, unknown> | undefined} metadata @returns {RuleSet | null} */
export function roomRules(metadata) {
  const v = metadata?.[RULES_KEY];
  return typeof v === "string" && RULES.includes(v) ? /** @type {RuleSet} */ (v) : null;
}

/**
 * gridNotice: null for a square grid (or none given), else the one sentence the popover shows
 * instead of evaluating: aoekit's rules are for square grids (SPEC §1), so a hex, isometric or
 * dimetric scene gets no answer rather than a wrong one.
 * @param {string | undefined} type
 * @returns {string | null}
 */
export function gridNotice(type) {
  if (type === undefined || type === "SQUARE") return null;
  const name = Object.hasOwn(GRID_NAMES, type) ? GRID_NAMES[type] : String(type);
  return `This scene's grid is ${name}. aoekit's areas and cover are defined on square grids only, so it evaluates nothing here: set the scene's grid type to Square (Scene settings → Grid) to use it.`;
}

/**
 * frameOf: the grid, from `{dpi, scale, type}` (OBR.scene.grid's getDpi(), getScale() or the
 * raw scale string, getType()).
 * @param {{dpi?: unknown, scale?: unknown, type?: string, measurement?: string}} grid
 * @returns {Frame}
 */
export function frameOf(grid) {
  const dpi = num(grid?.dpi, NaN);
  if (!(dpi > 0)) throw new Error("aoekit: the grid's dpi must be a number above 0");
  if (grid.type !== undefined && grid.type !== "SQUARE") throw new Error(`aoekit: only square grids are supported (this scene's grid is ${grid.type})`);
  return { dpi, distance: parseScale(grid.scale) };
}

/** toWorld: a point of an item's own space in scene units: scaled, rotated (degrees, clockwise on screen), moved to its position. @param {SceneItem} item @param {Vec} p @returns {Vec} */
export function toWorld(item, p) {
  const sx = num(item.scale?.x, 1);
  const sy = num(item.scale?.y, 1);
  const r = (num(item.rotation, 0) * Math.PI) / 180;
  const x = p.x * sx;
  const y = p.y * sy;
  return { x: num(item.position?.x, 0) + x * Math.cos(r) - y * Math.sin(r), y: num(item.position?.y, 0) + x * Math.sin(r) + y * Math.cos(r) };
}

/** A scene point in squares (fractional), on the 1/400 lattice. @param {Frame} frame @param {Vec} p @returns {Vec} */
export function toSquares(frame, p) {
  return { x: lattice(p.x / frame.dpi), y: lattice(p.y / frame.dpi) };
}

/** The level an elevation (in grid units) stands on. @param {Frame} frame @param {unknown} elevation */
export function levelOf(frame, elevation) {
  return Math.floor(num(elevation, 0) / frame.distance + EPS);
}

/** @param {SceneItem} item @param {string} key @returns {unknown} */
const metaOf = (item, key) => item.metadata?.[`${META}/${key}`];

/** A token size in the metadata (`size`): a whole number of squares 1…100, else null (the image's). @param {unknown} v */
export const sizeOf = (v) => (typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 100 ? v : null);

/**
 * imageBox: an IMAGE item's footprint — its centre in squares and its width and height in
 * squares. The image is `image.width × image.height` pixels, of which `grid.dpi` make a square;
 * its `grid.offset` (image pixels) is the point placed at `position`; `scale` stretches it (a
 * negative scale flips it) and a rotation of a quarter turn swaps its sides.
 * @param {SceneItem} item @param {Frame} frame
 * @returns {{centre: Vec, w: number, h: number}}
 */
export function imageBox(item, frame) {
  const dpi = num(item.grid?.dpi, frame.dpi) > 0 ? num(item.grid?.dpi, frame.dpi) : frame.dpi;
  const k = frame.dpi / dpi; // scene units per image pixel
  const iw = num(item.image?.width, dpi);
  const ih = num(item.image?.height, dpi);
  const off = { x: num(item.grid?.offset?.x, iw / 2), y: num(item.grid?.offset?.y, ih / 2) };
  const centre = toWorld(item, { x: (iw / 2 - off.x) * k, y: (ih / 2 - off.y) * k });
  let w = (iw / dpi) * Math.abs(num(item.scale?.x, 1));
  let h = (ih / dpi) * Math.abs(num(item.scale?.y, 1));
  if (Math.round(num(item.rotation, 0) / 90) % 2 !== 0) [w, h] = [h, w];
  return { centre: toSquares(frame, centre), w: lattice(w), h: lattice(h) };
}

/**
 * tokenPieces: an IMAGE item as aoekit tokens, as the Foundry adapter does: its width and height
 * rounded to whole squares (at least 1) on the squares nearest its centre; a square token is one
 * aoekit token with the item's id, a rectangular one square pieces `id#0`, `id#1`, … of its
 * shorter side. Side, elevation, a size that differs from the image's (`size`, whole squares
 * 1…100: the token is size × size squares about its centre) and taking cover (`takingCover:
 * true`, SPEC §11.5) from the item's metadata.
 * @param {SceneItem} item @param {Frame} frame
 * @returns {Piece[]}
 */
export function tokenPieces(item, frame) {
  const { centre, w, h } = imageBox(item, frame);
  const forced = sizeOf(metaOf(item, "size"));
  const W = forced ?? Math.max(1, Math.round(w));
  const H = forced ?? Math.max(1, Math.round(h));
  const x = Math.round(centre.x - W / 2) || 0;
  const y = Math.round(centre.y - H / 2) || 0;
  const z = levelOf(frame, metaOf(item, "elevation"));
  const sideTag = metaOf(item, "side");
  const side = typeof sideTag === "string" ? sideTag : "";
  const cover = metaOf(item, "takingCover") === true;
  /** @param {string} id @param {number} px @param {number} py @param {number} size @returns {Piece} */
  const token = (id, px, py, size) => ({ id, x: px, y: py, z, size, ...(side ? { side } : {}), ...(cover ? { takingCover: true } : {}) });
  if (W === H) return [token(item.id, x, y, W)];
  const s = Math.min(W, H);
  const long = Math.max(W, H);
  const pieces = [];
  for (let i = 0, at = 0; ; i++, at += s) {
    const off = Math.min(at, long - s);
    pieces.push(W > H ? token(`${item.id}#${i}`, x + off, y, s) : token(`${item.id}#${i}`, x, y + off, s));
    if (off === long - s) break;
  }
  return pieces;
}

// ---------------------------------------------------------------------------------------------
// Walls. Four sources, each a setting (`sources`, SOURCES):
//
// - "tagged": the drawings that carry this extension's tag, META + "/wall";
// - "fog": Dynamic Fog's walls and doors. Dynamic Fog (the official extension, and its public
//   fork desain/dynamic-fog) makes a wall of every drawing on the FOG layer: WallReactor.filter
//   and DoorReactor.filter are `item.layer === "FOG" && isDrawing(item)`, where a drawing is a
//   SHAPE, PATH, CURVE or LINE (src/types/Drawing.ts). Its doors are an array in the drawing's
//   metadata under `<plugin id>/doors` (getPluginId: "rodeo.owlbear.dynamic-fog" in the
//   official extension, "com.desain.chromodynamic" in the fork), each
//   `{open: boolean, start: ContourMarker, end: ContourMarker}` (src/types/Door.ts), a marker
//   being `{distance, index}`: a distance along contour `index` of the drawing's path, in the
//   item's own units (src/background/util/PathHelpers.ts: getSkPathIntersection on the
//   untransformed path; getSkPathBetween takes the span between min and max of the two
//   distances, on one contour only). An open door is cut out of the walls
//   (WallHelpers.drawingToPolylines: `if (door.base.open) skLines.op(door.skPath, Difference)`);
//   a closed one stays a wall;
// - "walls": Owlbear's own WALL items (@owlbear-rodeo/sdk types/items/Wall.d.ts: `points`,
//   `doubleSided`, `blocking`), which are local items (OBR.scene.local): Dynamic Fog's own
//   output (WallActor.polylineToWall: `buildWall().points(polyline).attachedTo(drawing.id)
//   .position(drawing.position).rotation(drawing.rotation).scale(drawing.scale)`) and any other
//   extension's. A WALL attached to a FOG drawing is skipped when "fog" is on: that drawing is
//   read already;
// - "drawings": every LINE, CURVE, PATH and SHAPE RECTANGLE on the DRAWING layer (the shape being
//   evaluated as a template excepted).
//
// Every drawing's outline is Dynamic Fog's (PathHelpers.drawingToSkPath), in the item's own
// units: a LINE from startPosition to endPosition (lineToSkPath); a CURVE through its points as
// a cardinal spline of tension style.tension, closed when `style.fillOpacity > 0 ||
// style.closed` (curveToSkPath, CardinalSpline.addToSkPath); a PATH by its commands, curves
// included (pathToSkPath); a SHAPE RECTANGLE (0, 0)–(width, height), CIRCLE an oval of width ×
// height about (0, 0), TRIANGLE (0, 0), (w/2, h), (−w/2, h), HEXAGON the regular hexagon of
// radius min(w, h)/2 with a vertex at (0, −r) (shapeToSkPath, RegularPolygon.addToSkPath). The
// item's position, rotation and scale place it (MathM.fromItem: translate · rotate · scale).
// Curves are flattened to within FLATNESS scene units and simplified to within SIMPLIFY (as
// simplify-js's default tolerance of 1, which Dynamic Fog applies) before they become walls.
//
// Two differences, both deliberate: Dynamic Fog's walls are the outline of the drawing's stroke
// (its WALL items run around both sides of a line, strokeWidth apart); aoekit's are the
// drawing's centre line, one thin wall (SPEC §5.6), which blocks the same lines of effect but
// those ending inside the stroke. And an open door cuts only its own drawing here; Dynamic Fog
// cuts its stroked span (stroke width + 20) out of every wall it overlaps.
//
// Heights: a source item's tag `{bottom, top}` (elevations in the grid's units) gives the walls
// it makes those heights, whichever source it comes from; Dynamic Fog and Owlbear's WALL items
// have no heights of their own. A one-sided WALL (`doubleSided: false`: "the shadowed side of
// the wall will be determined by the winding of the points array", Owlbear's reference) blocks
// both ways here: the reference does not say which side, and aoekit takes one-way walls
// (`from`) under dnd5e and pf2e only. `blocking` ("whether this wall will stop lights (or
// anything a light is attached to) from moving through it") is about movement, not sight: it
// changes nothing here.

/** The wall sources (see above) and the ones on by default. */
export const SOURCES = Object.freeze(["tagged", "fog", "walls", "drawings"]);
export const DEFAULT_SOURCES = Object.freeze(["tagged", "fog", "walls"]);
/** Dynamic Fog's metadata prefixes (getPluginId): the official extension's and the fork's. */
export const FOG_PLUGINS = Object.freeze(["rodeo.owlbear.dynamic-fog", "com.desain.chromodynamic"]);
/** How far (scene units) a flattened curve may stray from the curve, and a simplified polyline from it. */
export const FLATNESS = 0.25;
export const SIMPLIFY = 1;

const DRAWING_TYPES = ["SHAPE", "PATH", "CURVE", "LINE"];
/** Whether an item is a drawing in Dynamic Fog's sense (src/types/Drawing.ts isDrawing). @param {SceneItem | undefined} item */
export const isDrawing = (item) => DRAWING_TYPES.includes(item?.type ?? "");
/** Whether an item is a token: an image on a token layer (TOKEN_LAYERS). @param {SceneItem | undefined} item */
export const isToken = (item) => item?.type === "IMAGE" && TOKEN_LAYERS.includes(item.layer ?? "");

/** @param {Vec} a @param {Vec} b */
const dist = (a, b) => Math.hypot(b.x - a.x, b.y - a.y);

// Flattening of the curve verbs (Skia's quadTo, conicTo, cubicTo) into n straight pieces, n by
// Wang's formula for the tolerance FLATNESS (a conic counted as a quadratic of its weight).
/** @param {number} m @param {number} degree @param {number} [weight] */
function pieces(m, degree, weight = 1) {
  const n = Math.ceil(Math.sqrt((degree * (degree - 1) * m * Math.max(1, weight)) / (8 * FLATNESS)));
  return Math.min(1024, Math.max(1, Number.isFinite(n) ? n : 1));
}
/** @param {Vec} a @param {Vec} b @param {Vec} c */
const second = (a, b, c) => Math.hypot(a.x - 2 * b.x + c.x, a.y - 2 * b.y + c.y);

/**
 * A path as Skia builds one (SkPath, through CanvasKit as Dynamic Fog calls it): contours of
 * points, the curve verbs flattened; a verb after close() starts at the last moveTo's point, one
 * before any moveTo at (0, 0). `contours()` leaves out contours of no length, as Skia's
 * ContourMeasureIter does, so that a door's contour index counts as Dynamic Fog's does.
 */
/** @typedef {{points: Vec[], closed: boolean}} Contour */
class Outline {
  constructor() {
    /** @type {Contour[]} */
    this.list = [];
    /** @type {Vec[] | null} */
    this.cur = null;
    this.start = { x: 0, y: 0 };
  }
  /** The current contour, begun at the last moveTo's point if there is none. @returns {Vec[]} */
  begin() {
    if (!this.cur) this.cur = [{ ...this.start }];
    return this.cur;
  }
  /** @param {number} x @param {number} y */
  moveTo(x, y) {
    this.end(false);
    this.start = { x, y };
    this.cur = [{ x, y }];
  }
  /** @param {number} x @param {number} y */
  lineTo(x, y) {
    this.begin().push({ x, y });
  }
  /** @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2 */
  quadTo(x1, y1, x2, y2) {
    this.conicTo(x1, y1, x2, y2, 1);
  }
  /** @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2 @param {number} w */
  conicTo(x1, y1, x2, y2, w) {
    const cur = this.begin();
    const p0 = cur[cur.length - 1];
    const p1 = { x: x1, y: y1 };
    const p2 = { x: x2, y: y2 };
    const n = pieces(second(p0, p1, p2), 2, w);
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      const a = (1 - t) * (1 - t);
      const b = 2 * w * t * (1 - t);
      const c = t * t;
      const d = a + b + c;
      cur.push(i === n ? p2 : { x: (a * p0.x + b * x1 + c * x2) / d, y: (a * p0.y + b * y1 + c * y2) / d });
    }
  }
  /** @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2 @param {number} x3 @param {number} y3 */
  cubicTo(x1, y1, x2, y2, x3, y3) {
    const cur = this.begin();
    const p0 = cur[cur.length - 1];
    const p1 = { x: x1, y: y1 };
    const p2 = { x: x2, y: y2 };
    const p3 = { x: x3, y: y3 };
    const n = pieces(Math.max(second(p0, p1, p2), second(p1, p2, p3)), 3);
    for (let i = 1; i <= n; i++) {
      const t = i / n;
      const u = 1 - t;
      const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
      cur.push(i === n ? p3 : { x: a * p0.x + b * x1 + c * x2 + d * x3, y: a * p0.y + b * y1 + c * y2 + d * y3 });
    }
  }
  close() {
    if (!this.cur) return;
    this.end(true);
  }
  /** @param {boolean} closed */
  end(closed) {
    if (this.cur) {
      const pts = this.cur;
      const first = pts[0];
      const lastPt = pts[pts.length - 1];
      if (closed && (first.x !== lastPt.x || first.y !== lastPt.y)) pts.push({ ...first });
      this.list.push({ points: pts, closed });
    }
    this.cur = null;
  }
  contours() {
    this.end(false);
    return this.list.filter((c) => c.points.some((p, i) => i > 0 && dist(c.points[i - 1], p) > 0));
  }
}

// CardinalSpline.addToSkPath (src/background/util/CardinalSpline.ts), verb for verb.
/** @param {Vec} p0 @param {Vec} p1 @param {Vec} p2 @param {number} t @returns {[Vec, Vec]} */
function controlPoints(p0, p1, p2, t) {
  const d01 = dist(p0, p1);
  const d12 = dist(p1, p2);
  const d = d01 + d12;
  if (d <= 0) return [{ ...p0 }, { ...p0 }];
  const fa = (t * d01) / d;
  const fb = (t * d12) / d;
  const p02 = { x: p2.x - p0.x, y: p2.y - p0.y };
  return [{ x: p1.x - p02.x * fa, y: p1.y - p02.y * fa }, { x: p1.x + p02.x * fb, y: p1.y + p02.y * fb }];
}
/** @param {Vec[]} p @param {number} t */
function expandPoints(p, t) {
  /** @type {Vec[]} */
  const all = [];
  for (let n = 1; n < p.length - 1; n++) {
    const [cp1, cp2] = controlPoints(p[n - 1], p[n], p[n + 1], t);
    if (Number.isNaN(cp1.x)) continue;
    all.push(cp1, p[n], cp2);
  }
  return all;
}
/** @param {Vec[]} p @param {number} t @param {boolean} closed */
function tensionPoints(p, t, closed) {
  if (!closed) return expandPoints(p, t);
  const len = p.length;
  const first = controlPoints(p[len - 1], p[0], p[1], t);
  const last = controlPoints(p[len - 2], p[len - 1], p[0], t);
  return [first[1], ...expandPoints(p, t), last[0], p[len - 1], last[1], first[0], p[0]];
}
/** @param {Outline} path @param {Vec[]} p @param {number} tension @param {boolean} closed */
function cardinalSpline(path, p, tension, closed) {
  if (p.length === 0) return;
  path.moveTo(p[0].x, p[0].y);
  if (tension !== 0 && p.length > 2) {
    const tp = tensionPoints(p, tension, closed);
    const len = tp.length;
    if (!closed && len > 1) path.quadTo(tp[0].x, tp[0].y, tp[1].x, tp[1].y);
    for (let n = closed ? 0 : 2; n < len - 1; n += 3) {
      const [c1, c2, q] = [tp[n], tp[n + 1], tp[n + 2]];
      if ([c1.x, c1.y, c2.x, c2.y, q.x, q.y].every(Number.isFinite)) path.cubicTo(c1.x, c1.y, c2.x, c2.y, q.x, q.y);
    }
    if (!closed && len > 0) path.quadTo(tp[len - 1].x, tp[len - 1].y, p[p.length - 1].x, p[p.length - 1].y);
  } else {
    for (let n = 1; n < p.length; n++) path.lineTo(p[n].x, p[n].y);
  }
  if (closed) path.close();
}

/** @param {unknown} list @returns {Vec[]} */
const pointsOf = (list) => (Array.isArray(list) ? list.filter((p) => p && Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => ({ x: p.x, y: p.y })) : []);

/**
 * drawingContours: a drawing's outline as Dynamic Fog builds it (PathHelpers.drawingToSkPath),
 * in the item's own units: its contours, each `{points, closed}` (a closed one ends on its first
 * point), curves flattened. Not a drawing, or nothing to draw: [].
 * @param {SceneItem} item
 * @returns {Contour[]}
 */
export function drawingContours(item) {
  const path = new Outline();
  switch (item?.type) {
    case "LINE": {
      const a = item.startPosition ?? { x: 0, y: 0 };
      const b = item.endPosition ?? { x: 0, y: 0 };
      path.moveTo(num(a.x, 0), num(a.y, 0));
      path.lineTo(num(b.x, 0), num(b.y, 0));
      break;
    }
    case "CURVE": {
      const style = item.style ?? {};
      const closed = num(style.fillOpacity, 0) > 0 || Boolean(style.closed);
      cardinalSpline(path, pointsOf(item.points), num(style.tension, 0.5), closed);
      break;
    }
    case "PATH":
      for (const c of Array.isArray(item.commands) ? item.commands : []) {
        if (!Array.isArray(c) || !c.every(Number.isFinite)) break;
        const [verb, ...v] = c;
        if (verb === 0 && v.length >= 2) path.moveTo(v[0], v[1]);
        else if (verb === 1 && v.length >= 2) path.lineTo(v[0], v[1]);
        else if (verb === 2 && v.length >= 4) path.quadTo(v[0], v[1], v[2], v[3]);
        else if (verb === 3 && v.length >= 5) path.conicTo(v[0], v[1], v[2], v[3], v[4]);
        else if (verb === 4 && v.length >= 6) path.cubicTo(v[0], v[1], v[2], v[3], v[4], v[5]);
        else if (verb === 5) path.close();
        else break;
      }
      break;
    case "SHAPE": {
      const w = num(item.width, 0);
      const h = num(item.height, 0);
      if (item.shapeType === "RECTANGLE") {
        // SkPath::addRect, clockwise from the top-left corner.
        path.moveTo(0, 0);
        path.lineTo(w, 0);
        path.lineTo(w, h);
        path.lineTo(0, h);
        path.close();
      } else if (item.shapeType === "CIRCLE") {
        // SkPath::addOval (CanvasKit's start index 1): from the right-hand point, clockwise on
        // screen, four conics of weight √2/2 through the bounds' corners.
        const [l, t, r, b] = [-w / 2, -h / 2, w / 2, h / 2];
        const k = Math.SQRT1_2;
        path.moveTo(r, 0);
        path.conicTo(r, b, 0, b, k);
        path.conicTo(l, b, l, 0, k);
        path.conicTo(l, t, 0, t, k);
        path.conicTo(r, t, r, 0, k);
        path.close();
      } else if (item.shapeType === "TRIANGLE") {
        path.moveTo(0, 0);
        path.lineTo(w / 2, h);
        path.lineTo(-w / 2, h);
        path.close();
      } else if (item.shapeType === "HEXAGON") {
        // RegularPolygon.addToSkPath: (0, −r) turned by 60° steps (Math2.rotate).
        const r = Math.min(w, h) / 2;
        for (let i = 0; i < 6; i++) {
          const a = (i * Math.PI) / 3;
          const p = { x: r * Math.sin(a), y: -r * Math.cos(a) };
          if (i === 0) path.moveTo(p.x, p.y);
          else path.lineTo(p.x, p.y);
        }
        path.close();
      } else return [];
      break;
    }
    default:
      return [];
  }
  return path.contours();
}

/** The running length at each point of a polyline. @param {Vec[]} points */
function lengths(points) {
  const d = [0];
  for (let i = 1; i < points.length; i++) d.push(d[i - 1] + dist(points[i - 1], points[i]));
  return d;
}

/** The piece of a polyline between two distances along it (clamped), its ends interpolated. @param {Vec[]} points @param {number[]} d @param {number} from @param {number} to */
function between(points, d, from, to) {
  const total = d[d.length - 1];
  const lo = Math.max(0, Math.min(total, from));
  const hi = Math.max(0, Math.min(total, to));
  if (!(hi > lo)) return null;
  /** @param {number} s @returns {Vec} */
  const at = (s) => {
    let i = 1;
    while (i < d.length - 1 && d[i] < s) i++;
    const span = d[i] - d[i - 1];
    const f = span > 0 ? (s - d[i - 1]) / span : 0;
    return { x: points[i - 1].x + (points[i].x - points[i - 1].x) * f, y: points[i - 1].y + (points[i].y - points[i - 1].y) * f };
  };
  const out = [at(lo)];
  for (let i = 1; i < points.length - 1; i++) if (d[i] > lo && d[i] < hi) out.push(points[i]);
  out.push(at(hi));
  return out;
}

/**
 * fogDoors: Dynamic Fog's doors on a drawing (metadata `<plugin>/doors`, either plugin id), as
 * `{index, from, to, open}`: the span from `from` to `to` (min and max of the two markers'
 * distances) on contour `index`. A door whose markers lie on two contours is left out, as
 * getSkPathBetween leaves it ("Unable to update subpath across contours").
 * @param {SceneItem} item
 * @returns {{index: number, from: number, to: number, open: boolean}[]}
 */
export function fogDoors(item) {
  const doors = [];
  for (const plugin of FOG_PLUGINS) {
    const list = item?.metadata?.[`${plugin}/doors`];
    if (!Array.isArray(list)) continue;
    for (const door of /** @type {unknown[]} */ (list)) {
      const d = /** @type {{open?: unknown, start?: {index?: unknown, distance?: unknown}, end?: {index?: unknown, distance?: unknown}} | null} */ (door);
      const s = d?.start;
      const e = d?.end;
      if (!s || !e || !Number.isInteger(s.index) || s.index !== e.index) continue;
      if (typeof s.distance !== "number" || typeof e.distance !== "number" || !Number.isFinite(s.distance) || !Number.isFinite(e.distance)) continue;
      doors.push({ index: /** @type {number} */ (s.index), from: Math.min(s.distance, e.distance), to: Math.max(s.distance, e.distance), open: d?.open === true });
    }
  }
  return doors;
}

/**
 * The pieces of a contour, cut at its doors' ends: `{points, open}`, an open door's span open,
 * everything else (a closed door's span included) a wall.
 * @param {Vec[]} points @param {{from: number, to: number, open: boolean}[]} doors
 * @returns {{points: Vec[], open: boolean}[]}
 */
function doorPieces(points, doors) {
  if (doors.length === 0) return [{ points, open: false }];
  const d = lengths(points);
  const total = d[d.length - 1];
  const cuts = [...new Set([0, total, ...doors.flatMap((o) => [o.from, o.to]).map((v) => Math.max(0, Math.min(total, v)))])].sort((a, b) => a - b);
  /** @type {{points: Vec[], open: boolean}[]} */
  const out = [];
  for (let i = 1; i < cuts.length; i++) {
    const mid = (cuts[i - 1] + cuts[i]) / 2;
    const open = doors.some((o) => o.open && o.from <= mid && mid <= o.to);
    const piece = between(points, d, cuts[i - 1], cuts[i]);
    if (!piece) continue;
    const prev = out[out.length - 1];
    if (prev && prev.open === open) prev.points.push(...piece.slice(1));
    else out.push({ points: piece, open });
  }
  return out;
}

/** Douglas–Peucker: a polyline's points that keep it within `tol` of the original, its ends kept. @param {Vec[]} points @param {number} [tol] */
export function simplify(points, tol = SIMPLIFY) {
  if (points.length <= 2) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  /** @type {[number, number][]} */
  const stack = [[0, points.length - 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [i, j] = top;
    const a = points[i];
    const b = points[j];
    const len = dist(a, b);
    let best = -1;
    let at = -1;
    for (let k = i + 1; k < j; k++) {
      const p = points[k];
      const off = len > 0 ? Math.abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / len : dist(a, p);
      if (off > best) {
        best = off;
        at = k;
      }
    }
    if (best > tol) {
      keep[at] = 1;
      stack.push([i, at], [at, j]);
    }
  }
  return points.filter((_, k) => keep[k]);
}

/** The heights and open flag a source item's own tag gives its walls (in levels), or null for bottom above top. @param {SceneItem} item @param {Frame} frame */
function tagExtra(item, frame) {
  const value = metaOf(item, "wall");
  /** @type {{open?: true, bottom?: number, top?: number}} */
  const extra = {};
  if (value && typeof value === "object") {
    const tag = /** @type {{open?: unknown, bottom?: unknown, top?: unknown}} */ (value);
    if (tag.open === true) extra.open = true;
    if (typeof tag.bottom === "number" && Number.isFinite(tag.bottom)) extra.bottom = lattice(tag.bottom / frame.distance);
    if (typeof tag.top === "number" && Number.isFinite(tag.top)) extra.top = lattice(tag.top / frame.distance);
    if (extra.bottom !== undefined && extra.top !== undefined && extra.bottom > extra.top) return null;
  }
  return extra;
}

/** Walls over the segments of world-space polylines, `{points, open}`, in squares; segments of no length on the 1/400 lattice left out. @param {{points: Vec[], open: boolean}[]} polylines @param {Frame} frame @param {object} extra @returns {WallOut[]} */
function segments(polylines, frame, extra) {
  /** @type {WallOut[]} */
  const walls = [];
  for (const { points, open } of polylines) {
    const pts = simplify(points).map((p) => toSquares(frame, p));
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1];
      const b = pts[i];
      if (a.x === b.x && a.y === b.y) continue;
      walls.push({ a: [a.x, a.y], b: [b.x, b.y], ...extra, ...(open ? { open: true } : {}) });
    }
  }
  return walls;
}

/**
 * @typedef {object} WallOptions
 * @property {readonly string[]} [sources]  the wall sources (SOURCES); DEFAULT_SOURCES when absent
 * @property {boolean} [drawings]  adds "drawings"
 * @property {Set<string | undefined>} [fogIds]  the FOG layer's drawings
 * @property {string} [exclude]  an item that is never a wall (the template)
 * @property {readonly SceneItem[]} [local]  the local items (sceneWalls)
 */
/** @param {WallOptions} options */
const sourceSet = (options) => {
  const set = new Set(Array.isArray(options.sources) ? options.sources : DEFAULT_SOURCES);
  if (options.drawings) set.add("drawings");
  return set;
};

/** Which source makes an item a wall ("fog", "tagged", "drawings", "walls"), or null. @param {SceneItem} item @param {WallOptions} [options] */
export function wallSource(item, options = {}) {
  const on = sourceSet(options);
  if (item?.type === "WALL") return on.has("walls") && !(on.has("fog") && options.fogIds?.has(item.attachedTo)) ? "walls" : null;
  if (!isDrawing(item) || item.id === options.exclude || item.metadata?.[TEMPLATE_KEY] !== undefined) return null;
  if (on.has("fog") && item.layer === "FOG") return "fog";
  if (on.has("tagged") && metaOf(item, "wall")) return "tagged";
  if (on.has("drawings") && item.layer === "DRAWING" && (item.type !== "SHAPE" || item.shapeType === "RECTANGLE")) return "drawings";
  return null;
}

/**
 * wallsFrom: the thin walls (SPEC §5.6) one item stands for, from the sources `options.sources`
 * (default DEFAULT_SOURCES; `options.drawings` adds "drawings"): one per segment of its outline
 * (drawingContours, or a WALL's points), placed by its position, rotation and scale. Dynamic
 * Fog's open doors become `open: true` walls over their spans; the item's own tag adds
 * `{open, bottom, top}`. `options.fogIds`: the ids of the FOG layer's drawings, whose WALL items
 * are skipped when "fog" is on; `options.exclude`: an item that is never a wall (the template).
 * @param {SceneItem} item @param {Frame} frame @param {WallOptions} [options]
 * @returns {WallOut[]}
 */
export function wallsFrom(item, frame, options = {}) {
  const source = wallSource(item, options);
  if (!source) return [];
  const extra = tagExtra(item, frame);
  if (!extra) return [];
  if (source === "walls") {
    const pts = pointsOf(item.points).map((p) => toWorld(item, p));
    return segments([{ points: pts, open: false }], frame, extra);
  }
  const doors = source === "fog" ? fogDoors(item) : [];
  const polylines = drawingContours(item).flatMap((c, index) =>
    doorPieces(c.points, doors.filter((o) => o.index === index)).map((p) => ({ points: p.points.map((q) => toWorld(item, q)), open: p.open })),
  );
  return segments(polylines, frame, extra);
}

/**
 * sceneWalls: every wall of a scene: its items' and its local WALL items' (`options.local`,
 * OBR.scene.local.getItems()), from `options.sources` (wallsFrom).
 * @param {readonly SceneItem[]} items @param {Frame} frame @param {WallOptions} [options]
 * @returns {WallOut[]}
 */
export function sceneWalls(items, frame, options = {}) {
  const fogIds = new Set(items.filter((i) => i.layer === "FOG" && isDrawing(i)).map((i) => i.id));
  const all = [...items, ...(Array.isArray(options.local) ? options.local.filter((i) => i?.type === "WALL") : [])];
  return all.flatMap((item) => wallsFrom(item, frame, { ...options, fogIds }));
}

/**
 * mapBounds: the squares the MAP layer's images cover (floor and ceiling of their boxes), as
 * `{min: [x, y], max: [x, y]}`, or null when the scene has no map image.
 * @param {readonly SceneItem[]} items @param {Frame} frame
 * @returns {{min: [number, number], max: [number, number]} | null}
 */
export function mapBounds(items, frame) {
  /** @type {{min: [number, number], max: [number, number]} | null} */
  let box = null;
  for (const item of items) {
    if (item.type !== "IMAGE" || item.layer !== "MAP") continue;
    const { centre, w, h } = imageBox(item, frame);
    const x0 = Math.floor(centre.x - w / 2 + EPS);
    const y0 = Math.floor(centre.y - h / 2 + EPS);
    const x1 = Math.ceil(centre.x + w / 2 - EPS) - 1;
    const y1 = Math.ceil(centre.y + h / 2 - EPS) - 1;
    box = box ? { min: [Math.min(box.min[0], x0), Math.min(box.min[1], y0)], max: [Math.max(box.max[0], x1), Math.max(box.max[1], y1)] } : { min: [x0, y0], max: [x1, y1] };
  }
  return box;
}

/** The square a scene point is on. @param {Frame} frame @param {Vec} p @returns {Vec} */
export function squareAt(frame, p) {
  const s = toSquares(frame, p);
  return { x: Math.floor(s.x) || 0, y: Math.floor(s.y) || 0 };
}

/** The square an item stands on: an image's centre, a circle's centre, a rectangle's middle, else its position. @param {SceneItem} item @param {Frame} frame @returns {Vec} */
export function itemSquare(item, frame) {
  if (item.type === "IMAGE") {
    const { centre } = imageBox(item, frame);
    return { x: Math.floor(centre.x) || 0, y: Math.floor(centre.y) || 0 };
  }
  if (item.type === "SHAPE" && item.shapeType === "RECTANGLE") {
    return squareAt(frame, toWorld(item, { x: num(item.width, 0) / 2, y: num(item.height, 0) / 2 }));
  }
  return squareAt(frame, item.position ?? { x: 0, y: 0 });
}

/**
 * shapeTemplate: a SHAPE item drawn as a template. A CIRCLE (its position is its centre, its
 * width the diameter): tdgs `Cir n`, circle50 `circle n`, drawsteel `X burst` from the token on
 * its centre square; a RECTANGLE (its position the top-left corner), its corners snapped to grid
 * lines: `Rec WxL` anchored at its south-west square, or a drawsteel `W cube` when square.
 * n = round(radius − ½) squares, X = round(radius − caster size / 2), at least 1 (as the Foundry
 * adapter counts: a shape's edge lies half a square beyond its last ring of squares).
 * Other shapes (TRIANGLE, HEXAGON) are not templates: null.
 * @param {SceneItem} shape @param {Frame} frame @param {string} [rules] @param {number} [casterSize]
 * @returns {{template: string, origin?: {x: number, y: number}, centre?: {x: number, y: number}, kind: "circle"|"rect"}|null}
 */
export function shapeTemplate(shape, frame, rules = "tdgs", casterSize = 1) {
  if (shape?.type !== "SHAPE") return null;
  if (shape.shapeType === "CIRCLE") {
    const r = (num(shape.width, 0) * Math.abs(num(shape.scale?.x, 1))) / 2 / frame.dpi;
    const centre = squareAt(frame, shape.position ?? { x: 0, y: 0 });
    const n = Math.max(1, Math.round(r - 0.5 + EPS));
    if (rules === "drawsteel") return { kind: "circle", template: `${Math.max(1, Math.round(r - casterSize / 2 + EPS))} burst`, centre };
    return { kind: "circle", template: rules === "circle50" ? `circle ${n}` : `Cir${n}`, origin: centre, centre };
  }
  if (shape.shapeType === "RECTANGLE") {
    const corners = [{ x: 0, y: 0 }, { x: num(shape.width, 0), y: num(shape.height, 0) }].map((p) => toSquares(frame, toWorld(shape, p)));
    const xs = corners.map((c) => Math.round(c.x + EPS));
    const ys = corners.map((c) => Math.round(c.y + EPS));
    const x0 = Math.min(...xs);
    const y0 = Math.min(...ys);
    const W = Math.max(1, Math.max(...xs) - x0);
    const L = Math.max(1, Math.max(...ys) - y0);
    if (rules === "drawsteel" && W === L) return { kind: "rect", template: `${W} cube`, origin: { x: x0, y: y0 } };
    return { kind: "rect", template: `Rec${W}x${L}`, origin: { x: x0, y: y0 + L - 1 } };
  }
  return null;
}

/** @param {Piece} piece @param {Vec} cell */
function within(piece, cell) {
  return cell.x >= piece.x && cell.x < piece.x + piece.size && cell.y >= piece.y && cell.y < piece.y + piece.size;
}

/** The centre of an item in squares (fractional, on the lattice): an image's footprint, a rectangle's middle, else its position. @param {SceneItem} item @param {Frame} frame @returns {Vec} */
export function itemCentre(item, frame) {
  if (item.type === "IMAGE") return imageBox(item, frame).centre;
  if (item.type === "SHAPE" && item.shapeType === "RECTANGLE") return toSquares(frame, toWorld(item, { x: num(item.width, 0) / 2, y: num(item.height, 0) / 2 }));
  return toSquares(frame, item.position ?? { x: 0, y: 0 });
}

/**
 * pointKind: what a dnd5e or pf2e notation needs placed (SPEC §10.5, §10.7, §11.2): "aimed" for
 * cones and lines (a direction; a point optional), "corner" for cubes and bursts (a point on a
 * grid intersection), "caster" for emanations (no point), "point" for spheres and cylinders.
 * @param {unknown} notation
 * @returns {"aimed" | "caster" | "corner" | "point"}
 */
export function pointKind(notation) {
  const t = String(notation ?? "").toLowerCase();
  if (/\b(cone|line)\b/.test(t)) return "aimed";
  if (/\bemanation\b/.test(t)) return "caster";
  if (/\b(cube|burst)\b/.test(t)) return "corner";
  return "point";
}

/**
 * pointShapeTemplate: a SHAPE drawn as a dnd5e or pf2e area. A CIRCLE of radius r squares is a
 * `R-foot-radius sphere` (dnd5e) centred on the circle's centre, or a `R-foot burst` (pf2e) on the
 * grid intersection nearest it, R = 5 ft × round(r), at least 5 ft (the notation's sizes are
 * whole squares, SPEC §10.3). A RECTANGLE whose corners, snapped to grid lines, make a square of
 * side S is an `S-foot cube` from its north-west corner toward SE; other rectangles, triangles
 * and hexagons are not areas of these games: null. `z` is the shape's elevation in levels.
 * @param {SceneItem} shape @param {Frame} frame @param {string} rules @param {number} [z]
 * @returns {{template: string, point: {x: number, y: number, z: number}, toward?: "SE"}|null}
 */
export function pointShapeTemplate(shape, frame, rules, z = 0) {
  if (shape?.type !== "SHAPE") return null;
  if (shape.shapeType === "CIRCLE") {
    const r = (num(shape.width, 0) * Math.abs(num(shape.scale?.x, 1))) / 2 / frame.dpi;
    const R = Math.max(1, Math.round(r + EPS)) * FEET;
    const c = toSquares(frame, shape.position ?? { x: 0, y: 0 });
    if (rules === "pf2e") return { template: `${R}-foot burst`, point: { x: Math.round(c.x), y: Math.round(c.y), z: Math.round(z) } };
    return { template: `${R}-foot-radius sphere`, point: { x: c.x, y: c.y, z } };
  }
  if (shape.shapeType === "RECTANGLE") {
    const corners = [{ x: 0, y: 0 }, { x: num(shape.width, 0), y: num(shape.height, 0) }].map((p) => toSquares(frame, toWorld(shape, p)));
    const xs = corners.map((c) => Math.round(c.x + EPS));
    const ys = corners.map((c) => Math.round(c.y + EPS));
    const W = Math.max(1, Math.max(...xs) - Math.min(...xs));
    const L = Math.max(1, Math.max(...ys) - Math.min(...ys));
    if (W !== L) return null;
    return { template: `${W * FEET}-foot cube`, point: { x: Math.min(...xs), y: Math.min(...ys), z: Math.round(z) }, toward: "SE" };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The tool (owlbear.mjs's background page): a drag from `start` to `end` (scene units; start as
// the scene's grid snaps it) places a template, kept as a PlacedRecord in a scene item's metadata
// (TEMPLATE_KEY), its points relative to the item's position so that moving the item moves it.

/**
 * @typedef {object} PlacedRecord
 * @property {string} mode   one of TOOL_MODES
 * @property {Vec} start     where the drag began (scene units)
 * @property {Vec} end       where it ended
 * @property {string} [notation]  the written template (mode "notation")
 * @property {string} [by]   the player who placed it (OBR.player.id)
 */

const COMPASS = /** @type {const} */ (["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
/** @type {Record<string, [number, number]>} */
const OFFSET = { N: [0, -1], NE: [1, -1], E: [1, 0], SE: [1, 1], S: [0, 1], SW: [-1, 1], W: [-1, 0], NW: [-1, -1] };

/** angleOf: the direction from a to b in degrees clockwise from east (y grows south), as SPEC §10.2 reads degrees: 0 east, 90 south. @param {Vec} a @param {Vec} b */
export function angleOf(a, b) {
  const deg = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
  return Math.round((((deg % 360) + 360) % 360) * 400) / 400 % 360;
}

/** compassOf: the compass direction (SPEC §1.2) nearest an angle in degrees clockwise from east. @param {number} deg */
export function compassOf(deg) {
  return COMPASS[Math.round((((deg + 90) % 360) + 360) % 360 / 45) % 8];
}

/** rotateAbout: `end` turned about `start` by `degrees` (clockwise on screen). @param {Vec} start @param {Vec} end @param {number} degrees @returns {Vec} */
export function rotateAbout(start, end, degrees) {
  const r = (degrees * Math.PI) / 180;
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  return { x: start.x + dx * Math.cos(r) - dy * Math.sin(r), y: start.y + dx * Math.sin(r) + dy * Math.cos(r) };
}

/** snapAngle: `end` turned about `start` onto the nearest multiple of `step` degrees (15° steps), its distance kept. @param {Vec} start @param {Vec} end @param {number} [step] @returns {Vec} */
export function snapAngle(start, end, step = 15) {
  const deg = angleOf(start, end);
  return rotateAbout(start, end, Math.round(deg / step) * step - deg);
}

/**
 * placedRecord: the PlacedRecord of a scene item the tool placed, its points moved by the item's
 * position (scene units), or null when the item carries none or a malformed one.
 * @param {SceneItem} item
 * @returns {PlacedRecord | null}
 */
export function placedRecord(item) {
  const r = /** @type {Record<string, unknown> | undefined} */ (item?.metadata?.[TEMPLATE_KEY]);
  if (!r || typeof r !== "object") return null;
  const vec = (/** @type {unknown} */ v) => {
    const o = /** @type {{x?: unknown, y?: unknown}} */ (v);
    return o && typeof o === "object" && Number.isFinite(o.x) && Number.isFinite(o.y) ? { x: Number(o.x), y: Number(o.y) } : null;
  };
  const start = vec(r.start);
  const end = vec(r.end) ?? start;
  if (typeof r.mode !== "string" || !TOOL_MODES.includes(r.mode) || !start || !end) return null;
  const dx = num(item.position?.x, 0);
  const dy = num(item.position?.y, 0);
  return {
    mode: r.mode,
    start: { x: start.x + dx, y: start.y + dy },
    end: { x: end.x + dx, y: end.y + dy },
    ...(typeof r.notation === "string" ? { notation: r.notation } : {}),
    ...(typeof r.by === "string" ? { by: r.by } : {}),
  };
}

/**
 * @typedef {object} ToolTemplate
 * @property {string} template
 * @property {"none" | "token" | "any"} caster  none: no caster; token: the token at the start if any (point rules: then its edge is the origin); any: the token at the start, else a stand-in one-square caster on the start square
 * @property {boolean} [needsToken]  the area comes from a token (an emanation): one must stand at the start
 * @property {Vec} [origin]   a cell
 * @property {Vec} [aim]      a cell (a Draw Steel line)
 * @property {{x: number, y: number, z: number}} [point]   in squares; z relative to the start's level
 * @property {number | string} [toward]
 */

/**
 * toolTemplate: the template a drag of the tool places (PlacedRecord), under a rule set. The
 * drag's length `len` (squares, from the snapped start to the end) gives the size, its angle the
 * direction (compass names where the rule set has only those: TDGS cones and lines, PF2e cones).
 *
 * - circle: TDGS `Cir n` and the 50 % circle `circle n` on the start's square, n = round(len − ½)
 *   (the edge of a circle of n rings lies n + ½ from its centre); Draw Steel `X burst` from the
 *   token on the start square (a stand-in without one), X = round(len − size / 2); D&D 5e a
 *   `R-foot-radius sphere` centred on the start, PF2e an `R-foot burst` on the intersection
 *   nearest it, R = 5 ft × round(len);
 * - cone: TDGS `ConL DIR` from the token on the start square (a stand-in without one), L =
 *   round(len); 5e and PF2e an `L-foot cone` (L = 5 ft × round(len)) from the start point, or
 *   from the edge of the token standing there (SPEC §10.5's default origin); Draw Steel has none;
 * - line: TDGS `LinL DIR` as a cone; Draw Steel `L x 1 line` from the start's square toward the
 *   end's; 5e and PF2e an `L-foot line` as a cone;
 * - square: a square of side k = round(max(|dx|, |dy|)) from the intersection nearest the start
 *   toward the end's quadrant: TDGS and the 50 % circle `Reck×k` (anchored at its south-west
 *   square), Draw Steel `k cube`, 5e and PF2e a `5k-foot cube` from that corner toward the
 *   quadrant;
 * - notation: the popover's template, written: a circle, a rectangle or a cube on the start's
 *   square (5e, PF2e: its point; a burst's or a cube's the intersection nearest), a cone or a
 *   line, an aura, a burst or an emanation from the token there, a Draw Steel line toward the end.
 * Every size is at least 1 square.
 * @param {PlacedRecord} record @param {Frame} frame @param {string} rules
 * @param {number} [casterSize]  the size of the token on the start square (Draw Steel bursts)
 * @returns {ToolTemplate}
 */
export function toolTemplate(record, frame, rules, casterSize = 1) {
  const mode = record?.mode;
  if (!TOOL_MODES.includes(mode)) throw new Error(`aoekit: the tool's mode must be one of ${TOOL_MODES.join(", ")}, got ${JSON.stringify(mode)}`);
  const s = toSquares(frame, record.start);
  const e = toSquares(frame, record.end ?? record.start);
  const dx = e.x - s.x;
  const dy = e.y - s.y;
  const len = Math.hypot(dx, dy);
  const deg = len > EPS ? angleOf(s, e) : 0;
  const n = Math.max(1, Math.round(len + EPS));
  const cell = { x: Math.floor(s.x + EPS), y: Math.floor(s.y + EPS) };
  const corner = { x: Math.round(s.x), y: Math.round(s.y) };
  const point = POINT_RULES.includes(rules);
  const dir = compassOf(deg);
  const aimCell = () => {
    const a = { x: Math.floor(e.x + EPS), y: Math.floor(e.y + EPS) };
    return a.x === cell.x && a.y === cell.y ? { x: cell.x + OFFSET[dir][0], y: cell.y + OFFSET[dir][1] } : a;
  };
  const quadrant = () => `${dy < 0 ? "N" : "S"}${dx < 0 ? "W" : "E"}`;
  const needsDirection = () => {
    if (len <= EPS) throw new Error("aoekit: drag to give a cone or a line its direction and length");
  };
  const feet = (/** @type {number} */ k) => k * FEET;
  switch (mode) {
    case "circle": {
      const rings = Math.max(1, Math.round(len - 0.5 + EPS));
      if (rules === "drawsteel") return { template: `${Math.max(1, Math.round(len - casterSize / 2 + EPS))} burst`, caster: "any" };
      if (rules === "dnd5e") return { template: `${feet(n)}-foot-radius sphere`, caster: "none", point: { x: s.x, y: s.y, z: 0 } };
      if (rules === "pf2e") return { template: `${feet(n)}-foot burst`, caster: "none", point: { ...corner, z: 0 } };
      return { template: rules === "circle50" ? `circle ${rings}` : `Cir${rings}`, caster: "none", origin: cell };
    }
    case "cone":
    case "line": {
      needsDirection();
      const cone = mode === "cone";
      if (point) {
        const toward = cone && rules === "pf2e" ? dir : deg;
        return { template: `${feet(n)}-foot ${mode}`, caster: "token", point: { x: s.x, y: s.y, z: 0.5 }, toward };
      }
      if (rules === "drawsteel") {
        if (cone) throw new Error("aoekit: Draw Steel has no cones: use the line mode, or write the area");
        return { template: `${n} x 1 line`, caster: "none", origin: cell, aim: aimCell() };
      }
      return { template: `${cone ? "Con" : "Lin"}${n}${dir}`, caster: "any" };
    }
    case "square": {
      const k = Math.max(1, Math.round(Math.max(Math.abs(e.x - corner.x), Math.abs(e.y - corner.y)) + EPS));
      const x0 = dx < 0 ? corner.x - k : corner.x;
      const y0 = dy < 0 ? corner.y - k : corner.y;
      if (point) return { template: `${feet(k)}-foot cube`, caster: "none", point: { ...corner, z: 0 }, toward: quadrant() };
      if (rules === "drawsteel") return { template: `${k} cube`, caster: "none", origin: { x: x0, y: y0 } };
      return { template: `Rec${k}x${k}`, caster: "none", origin: { x: x0, y: y0 + k - 1 } };
    }
    default: {
      const text = typeof record.notation === "string" ? record.notation.trim() : "";
      if (!text) throw new Error("aoekit: write a template in the popover (Template) for the tool's notation mode");
      if (point) {
        const kind = pointKind(text);
        if (kind === "caster") return { template: text, caster: "token", needsToken: true };
        if (kind === "aimed") {
          needsDirection();
          return { template: text, caster: "token", point: { x: s.x, y: s.y, z: 0.5 }, toward: rules === "pf2e" && /\bcone\b/i.test(text) ? dir : deg };
        }
        if (kind === "corner") return /\bcube\b/i.test(text) ? { template: text, caster: "none", point: { ...corner, z: 0 }, toward: quadrant() } : { template: text, caster: "none", point: { ...corner, z: 0 } };
        return { template: text, caster: "none", point: { x: s.x, y: s.y, z: 0 } };
      }
      if (/^(con|lin)/i.test(text)) return { template: text, caster: "any" };
      if (/\b(aura|burst|аура|взрыв)\b/i.test(text) || /^close\b/i.test(text)) return { template: text, caster: "any" };
      if (/\b(line|линия)\b/i.test(text)) return { template: text, caster: "none", origin: cell, aim: aimCell() };
      return { template: text, caster: "none", origin: cell };
    }
  }
}

/**
 * requestFrom: the evaluate request for a template on an Owlbear scene.
 *
 * @param {object} input
 * @param {readonly SceneItem[]} input.items   every scene item (OBR.scene.items.getItems())
 * @param {{dpi?: unknown, scale?: unknown, type?: string, measurement?: string}} input.grid  {dpi, scale, type, measurement} (see frameOf; measurement: GridMeasurement → `metric`)
 * @param {string} [input.rules]   one of RULES
 * @param {PlacedRecord} [input.placed]  a template the tool placed (toolTemplate; placedRecord reads one from its item), or
 * @param {string} [input.shapeId]  a SHAPE item (CIRCLE or RECTANGLE) to read as the template, or
 * @param {string} [input.notation] a notation (`Con4NE`, `3 aura`, `circle 3`, `5 x 1 line`, `20-foot-radius sphere`, `15-foot cone`), with
 * @param {string} [input.casterId] the image that uses it (for a shape: the token on its centre by default),
 * @param {string} [input.originId] an item whose square is the origin (circles, rectangles, cubes, a line's first square), or whose centre is the point (dnd5e, pf2e),
 * @param {string} [input.aimId]    an item whose square a Draw Steel line points at, or whose centre a dnd5e or pf2e cone or line points at;
 * @param {boolean} [input.includeHidden] count invisible tokens (default true; players' clients pass false)
 * @param {readonly string[]} [input.sources]      the wall sources (SOURCES; DEFAULT_SOURCES)
 * @param {boolean} [input.drawings]      adds the "drawings" source: every line, curve, path and rectangle on the DRAWING layer is a wall
 * @param {readonly SceneItem[]} [input.local]        the local items (OBR.scene.local.getItems()): their WALL items are the "walls" source's
 * @param {readonly string[]} [input.layers]       the layers whose images are tokens (TOKEN_LAYERS)
 * @returns {Built}
 *
 * tdgs, drawsteel, circle50: the caster faces N (a notation's direction is on the board:
 * `Con4NE` points north-east) and `targeting.excludeCaster` keeps it out of its own area.
 * dnd5e, pf2e (SPEC §10, §11): the area spreads from `point` — a circle's centre, a cube's
 * corner, the origin item's centre (a cube's: the north-west corner of its square; a burst's: the
 * intersection nearest it) — and a cone or a line points `toward` the aim item's centre at the
 * origin's height (the first item after the caster is the aim when it is the only one); the
 * caster is affected as the game says (a fireball can catch its caster). `bounds`: the MAP
 * layer's images (else every token, wall and origin, 30 squares around), on every level from the
 * lowest to the highest thing on the board.
 */
export function requestFrom({ items, grid, rules = "tdgs", placed, shapeId, notation, casterId, originId, aimId, includeHidden = true, sources, drawings = false, local = [], layers = TOKEN_LAYERS }) {
  if (!RULES.includes(rules)) throw new Error(`aoekit: rules must be one of ${RULES.join(", ")}, got ${JSON.stringify(rules)}`);
  const frame = frameOf(grid);
  const byId = new Map(items.map((i) => [i.id, i]));
  const pointRules = POINT_RULES.includes(rules);

  /** @type {Record<string, string>} */
  const pieces = {};
  /** @type {Piece[]} */
  const board = [];
  for (const item of items) {
    if (item.type !== "IMAGE" || !layers.includes(item.layer ?? "")) continue;
    if (!includeHidden && item.visible === false) continue;
    for (const p of tokenPieces(item, frame)) {
      pieces[p.id] = item.id;
      board.push(p);
    }
  }
  const walls = sceneWalls(items, frame, { sources, drawings, local, exclude: shapeId });

  /** @type {Built["request"]} */
  const request = { rules: /** @type {RuleSet} */ (rules), template: "", tokens: [], walls: [] };
  const metric = metricOf(grid?.measurement);
  if (metric) request.metric = metric;
  /** @type {Piece | null} */
  let casterPiece = null;
  /** @param {string} id @param {Vec | null} [cell] */
  const pieceOf = (id, cell) => board.find((p) => pieces[p.id] === id && (!cell || within(p, cell))) ?? board.find((p) => pieces[p.id] === id) ?? null;
  /** @param {string} id @param {string} [what] @returns {SceneItem} */
  const itemOf = (id, what) => {
    const item = byId.get(id);
    if (!item) throw new Error(`aoekit: no item ${JSON.stringify(id)} in the scene${what ? ` (${what})` : ""}`);
    return item;
  };
  /** @param {SceneItem} item */
  const elevationOf = (item) => lattice(num(metaOf(item, "elevation"), 0) / frame.distance);
  const shape = shapeId !== undefined ? itemOf(shapeId) : null;
  if (placed) {
    const at = squareAt(frame, placed.start);
    const on = board.find((p) => within(p, at)) ?? null;
    const t = toolTemplate(placed, frame, rules, on?.size ?? 1);
    const level = on?.z ?? 0;
    if (t.needsToken && !on) throw new Error("aoekit: an emanation comes from a token: start the drag on the token it comes from");
    request.template = t.template;
    const fromToken = t.caster === "token" && on !== null;
    if (t.caster === "any" || fromToken) {
      /** @type {Piece} */
      const c = on ? { ...on } : { id: ORIGIN_ID, x: at.x, y: at.y, z: level, size: 1 };
      request.caster = pointRules ? c : { ...c, facing: "N" };
      casterPiece = on;
    }
    if (t.point && !fromToken) request.point = { ...t.point, z: lattice(t.point.z + level) };
    if (t.toward !== undefined) request.toward = /** @type {Request["toward"]} */ (t.toward);
    if (t.origin) request.origin = { ...t.origin, z: level };
    if (t.aim) request.aim = { ...t.aim, z: level };
  } else if (shape && pointRules) {
    const z = elevationOf(shape);
    const t = pointShapeTemplate(shape, frame, rules, z);
    if (!t) throw new Error(`aoekit: a ${String(shape.type === "SHAPE" ? shape.shapeType : shape.type).toLowerCase()}${shape.shapeType === "RECTANGLE" ? " that is not square" : ""} is not a ${rules === "dnd5e" ? "D&D 5e" : "Pathfinder 2e"} area: draw a circle or a square, or write one (20-foot-radius sphere, 15-foot cone, 10-foot cube)`);
    request.template = t.template;
    request.point = t.point;
    if (t.toward) request.toward = t.toward;
    if (casterId !== undefined) {
      casterPiece = pieceOf(casterId);
      if (casterPiece) request.caster = { ...casterPiece };
    }
  } else if (shape) {
    const centre = shape.shapeType === "CIRCLE" ? squareAt(frame, shape.position ?? { x: 0, y: 0 }) : null;
    if (centre && rules === "drawsteel") {
      casterPiece = (casterId !== undefined ? pieceOf(casterId, centre) : null) ?? board.find((p) => within(p, centre)) ?? null;
    }
    const t = shapeTemplate(shape, frame, rules, casterPiece?.size ?? 1);
    if (!t) throw new Error(`aoekit: a ${String(shape.type === "SHAPE" ? shape.shapeType : shape.type).toLowerCase()} is not a template: draw a circle or a rectangle`);
    request.template = t.template;
    const z = levelOf(frame, metaOf(shape, "elevation") ?? 0);
    if (t.origin) request.origin = { ...t.origin, z: casterPiece?.z ?? z };
    if (t.kind === "circle" && rules === "drawsteel") {
      request.caster = casterPiece ? { ...casterPiece, facing: "N" } : { id: ORIGIN_ID, x: t.centre?.x ?? 0, y: t.centre?.y ?? 0, z, size: 1, facing: "N" };
    }
  } else {
    if (typeof notation !== "string" || notation.trim() === "") throw new Error(`aoekit: write a template (${pointRules ? "20-foot-radius sphere, 15-foot cone, 10-foot emanation" : "Cir3, Con4NE, 2 burst, circle 3"}, …) or select a circle or ${pointRules ? "square" : "rectangle"} shape`);
    request.template = notation.trim();
    if (casterId !== undefined) {
      casterPiece = pieceOf(casterId);
      if (!casterPiece) throw new Error(`aoekit: the caster ${JSON.stringify(casterId)} is not a token`);
      request.caster = pointRules ? { ...casterPiece } : { ...casterPiece, facing: "N" };
    }
    if (pointRules) {
      const kind = pointKind(request.template);
      const cube = /\bcube\b/i.test(request.template);
      const origin = originId !== undefined ? itemOf(originId, "the origin") : null;
      // A cone's or a line's only item after the caster is what it points at.
      const aim = aimId !== undefined ? itemOf(aimId, "the aim") : kind === "aimed" ? origin : null;
      const from = kind === "aimed" && aimId === undefined ? null : origin;
      const caster = casterPiece;
      if (kind === "corner") {
        if (from) request.point = { ...pointCornerOf(from, frame, cube), z: Math.round(elevationOf(from)) };
        else if (caster) request.point = cube ? { x: caster.x, y: caster.y, z: caster.z } : { x: Math.round(caster.x + caster.size / 2), y: Math.round(caster.y + caster.size / 2), z: caster.z };
        else throw new Error("aoekit: a cube or a burst starts on a grid intersection: select the token that uses it, then the item on its origin");
        if (cube) request.toward = "SE";
      } else if (kind === "point") {
        if (from) request.point = { ...itemCentre(from, frame), z: elevationOf(from) };
        else if (caster) request.point = { x: caster.x + caster.size / 2, y: caster.y + caster.size / 2, z: caster.z };
        else throw new Error("aoekit: a sphere or a cylinder spreads from a point: select the token that uses it, then the item at its centre");
      } else if (kind === "aimed") {
        if (!aim) throw new Error("aoekit: a cone or a line needs a direction: select the token that uses it, then the item it points at");
        // Level with its origin: a line's direction is horizontal (SPEC §10.5), and a cone aimed
        // at a creature's square does not tilt toward the floor.
        let height;
        if (from) {
          height = lattice(elevationOf(from) + 0.5);
          request.point = { ...itemCentre(from, frame), z: height };
        } else if (caster) height = lattice(caster.z + (caster.height ?? caster.size) / 2);
        else throw new Error("aoekit: a cone or a line starts at its caster's edge: select the token that uses it first");
        request.toward = { ...itemCentre(aim, frame), z: height };
      } else if (!caster) {
        throw new Error("aoekit: an emanation comes from its caster: select the token that uses it");
      }
    } else {
      const z = casterPiece?.z ?? 0;
      if (originId !== undefined) {
        const item = itemOf(originId);
        request.origin = { ...itemSquare(item, frame), z: item.type === "IMAGE" ? levelOf(frame, metaOf(item, "elevation")) : z };
      }
      if (aimId !== undefined) {
        const item = itemOf(aimId);
        request.aim = { ...itemSquare(item, frame), z: request.origin?.z ?? z };
      }
    }
  }

  let casterDoc = null;
  if (request.caster) {
    if (!pointRules) request.targeting = { excludeCaster: true };
    if (request.caster.id !== ORIGIN_ID) {
      casterDoc = pieces[request.caster.id];
      for (let i = board.length - 1; i >= 0; i--) if (pieces[board[i].id] === casterDoc) board.splice(i, 1);
    }
  }
  request.tokens = board;
  request.walls = walls;

  const everything = [...board, ...(request.caster ? [request.caster] : [])];
  const z0 = Math.floor(request.point?.z ?? request.origin?.z ?? request.caster?.z ?? 0);
  let zmin = z0;
  let zmax = z0;
  for (const p of everything) {
    zmin = Math.min(zmin, p.z);
    zmax = Math.max(zmax, p.z + (p.height ?? p.size ?? 1) - 1);
  }
  let box = mapBounds(items, frame);
  if (!box) {
    const xs = [...everything.flatMap((p) => [p.x, p.x + p.size - 1]), ...walls.flatMap((w) => [Math.floor(w.a[0]), Math.floor(w.b[0])])];
    const ys = [...everything.flatMap((p) => [p.y, p.y + p.size - 1]), ...walls.flatMap((w) => [Math.floor(w.a[1]), Math.floor(w.b[1])])];
    for (const c of [request.origin, request.aim, request.point, typeof request.toward === "object" ? request.toward : null]) {
      if (!c) continue;
      xs.push(Math.floor(c.x));
      ys.push(Math.floor(c.y));
    }
    if (xs.length === 0) {
      xs.push(0);
      ys.push(0);
    }
    box = { min: [Math.min(...xs) - 30, Math.min(...ys) - 30], max: [Math.max(...xs) + 30, Math.max(...ys) + 30] };
  }
  request.bounds = { min: [box.min[0], box.min[1], Math.min(0, zmin)], max: [box.max[0], box.max[1], Math.max(0, zmax)] };
  return { request, pieces, casterId: casterDoc, notation: request.template };
}

/** A cube's corner (the north-west corner of the item's square) or a burst's (the intersection nearest the item's centre). @param {SceneItem} item @param {Frame} frame @param {boolean} cube @returns {Vec} */
function pointCornerOf(item, frame, cube) {
  if (cube) return itemSquare(item, frame);
  const c = itemCentre(item, frame);
  return { x: Math.round(c.x + EPS), y: Math.round(c.y + EPS) };
}

/**
 * The cover grades of every rule set, least first (tdgs and circle50: partial, half, full;
 * drawsteel: cover, full; dnd5e: half, threeQuarters, total; pf2e: lesser, standard, greater,
 * total), and how a label writes them.
 */
/** @type {Record<string, number>} */
const GRADE = { none: 0, partial: 1, lesser: 1, half: 2, cover: 2, standard: 2, threeQuarters: 3, greater: 3, full: 4, total: 4 };
/** @type {Record<string, string>} */
const GRADE_NAME = { threeQuarters: "¾" };

/** coverText: what a target's label says: "hit", "half +2", "¾ +5", "full cover", "total cover", "barrier", … @param {Pick<Target, "affected" | "cover" | "bonus" | "reason">} t */
export function coverText(t) {
  const name = GRADE_NAME[t.cover] ?? t.cover;
  if (t.affected) return t.cover === "none" ? "hit" : `${name} +${t.bonus}`;
  if (t.reason === "cover") return `${name} cover`;
  return t.reason ?? "spared";
}

/**
 * mergeTargets: the engine's targets per item: a rectangular token's pieces joined (in the area
 * when any piece is, affected when any is, with the cover of its least covered piece in the
 * area); the stand-in caster left out.
 * @param {readonly Target[] | undefined} targets @param {{pieces: Record<string, string>, casterId?: string | null}} built
 * @returns {Merged[]}
 */
export function mergeTargets(targets, { pieces, casterId = null }) {
  /** @type {Map<string, Merged>} */
  const byItem = new Map();
  for (const t of targets ?? []) {
    if (t.id === ORIGIN_ID) continue;
    const id = pieces[t.id] ?? t.id;
    const prev = byItem.get(id);
    const better = !prev || (t.inArea && !prev.inArea) || (t.inArea === prev.inArea && (GRADE[t.cover] ?? 0) < (GRADE[prev.cover] ?? 0));
    const merged = better || !prev ? { ...t, id, caster: id === casterId } : prev;
    merged.inArea = t.inArea || !!prev?.inArea;
    merged.affected = t.affected || !!prev?.affected;
    if (merged.affected) delete merged.reason;
    byItem.set(id, merged);
  }
  return [...byItem.values()];
}

/**
 * The item ids an answer affects. (Under tdgs, drawsteel and circle50 the request keeps the
 * caster out of its own area; under dnd5e and pf2e an area can catch its caster, and then it is
 * one of them.)
 * @param {readonly Merged[]} merged
 */
export function affectedIds(merged) {
  return merged.filter((t) => t.affected).map((t) => t.id);
}

/**
 * cellRuns: an answer's cells on one level as runs along rows — `{x, y, length}`, in squares —
 * so that the area is drawn with one rectangle a run instead of one a square.
 * @param {readonly (readonly number[])[]} cells @param {number} [level]
 */
export function cellRuns(cells, level = 0) {
  /** @type {Map<number, number[]>} */
  const rows = new Map();
  for (const [x, y, z] of cells) {
    if (z !== level) continue;
    const row = rows.get(y) ?? [];
    row.push(x);
    rows.set(y, row);
  }
  /** @type {{x: number, y: number, length: number}[]} */
  const runs = [];
  for (const [y, xs] of [...rows].sort((a, b) => a[0] - b[0])) {
    xs.sort((a, b) => a - b);
    let start = xs[0];
    let prev = xs[0];
    for (const x of [...xs.slice(1), Infinity]) {
      if (x === prev + 1) {
        prev = x;
        continue;
      }
      runs.push({ x: start, y, length: prev - start + 1 });
      start = prev = x;
    }
  }
  return runs;
}

/** A run of squares as a scene rectangle (a SHAPE RECTANGLE's position, width and height). @param {{x: number, y: number, length: number}} run @param {Frame} frame */
export function runRect(run, frame) {
  return { position: { x: run.x * frame.dpi, y: run.y * frame.dpi }, width: run.length * frame.dpi, height: frame.dpi };
}

/** The scene point at the centre of a square's top edge (where a cover label points). @param {Vec} cell @param {Frame} frame @returns {Vec} */
export function labelPoint(cell, frame) {
  return { x: (cell.x + 0.5) * frame.dpi, y: cell.y * frame.dpi };
}

/**
 * areaCommands: an answer's runs of squares (cellRuns) as a PATH item's commands
 * (@owlbear-rodeo/sdk Command: MOVE 0, LINE 1, CLOSE 5), one closed rectangle a run, in scene
 * units relative to `at` (the item's position).
 * @param {readonly {x: number, y: number, length: number}[]} runs @param {Frame} frame @param {Vec} [at]
 * @returns {([0, number, number] | [1, number, number] | [5])[]}
 */
export function areaCommands(runs, frame, at = { x: 0, y: 0 }) {
  /** @type {([0, number, number] | [1, number, number] | [5])[]} */
  const out = [];
  for (const r of runs) {
    const x0 = r.x * frame.dpi - at.x;
    const y0 = r.y * frame.dpi - at.y;
    const x1 = x0 + r.length * frame.dpi;
    const y1 = y0 + frame.dpi;
    out.push([0, x0, y0], [1, x1, y0], [1, x1, y1], [1, x0, y1], [5]);
  }
  return out;
}

/**
 * ringOf: the ring drawn around a target item: the box of its pieces on the board (a
 * rectangular token's every piece), as a CIRCLE shape's centre (its position) and width and
 * height, `margin` squares wider than the token on each side; null when no piece is the item's.
 * @param {string} itemId @param {Built} built @param {Frame} frame @param {number} [margin]
 * @returns {{position: Vec, width: number, height: number} | null}
 */
export function ringOf(itemId, built, frame, margin = 0.15) {
  const pieces = [...built.request.tokens, ...(built.request.caster ? [built.request.caster] : [])].filter((p) => (built.pieces[p.id] ?? p.id) === itemId);
  if (pieces.length === 0) return null;
  const x0 = Math.min(...pieces.map((p) => p.x));
  const y0 = Math.min(...pieces.map((p) => p.y));
  const x1 = Math.max(...pieces.map((p) => p.x + p.size));
  const y1 = Math.max(...pieces.map((p) => p.y + p.size));
  return { position: { x: ((x0 + x1) / 2) * frame.dpi, y: ((y0 + y1) / 2) * frame.dpi }, width: (x1 - x0 + 2 * margin) * frame.dpi, height: (y1 - y0 + 2 * margin) * frame.dpi };
}

/**
 * coverSegments: a target's cover lines (the engine's `lines`, SPEC §5.4, §10.8, §11.5: in
 * squares) as scene segments, each blocked or clear, for LINE items.
 * @param {Pick<Target, "lines">} target @param {Frame} frame
 * @returns {{start: Vec, end: Vec, blocked: boolean}[]}
 */
export function coverSegments(target, frame) {
  return (target.lines ?? []).map((l) => ({ start: { x: l.from[0] * frame.dpi, y: l.from[1] * frame.dpi }, end: { x: l.to[0] * frame.dpi, y: l.to[1] * frame.dpi }, blocked: l.blocked }));
}
