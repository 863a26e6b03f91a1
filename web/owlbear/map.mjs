// aoekit for Owlbear Rodeo: the pure mapping from Owlbear's scene items (plain data as
// @owlbear-rodeo/sdk 3 gives them: OBR.scene.items.getItems(), OBR.scene.grid.getDpi() and
// getScale()) to an aoekit request (web/CONTRACT.md), and from the engine's answer back to the
// items. Nothing here calls the SDK: owlbear.mjs gathers the items and calls these functions,
// and web/test/owlbear.test.mjs runs them on fixtures with the real engine.
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
//   grid units as above): the item — a LINE, a CURVE, a PATH of straight segments or a SHAPE
//   RECTANGLE — is a wall; `open: true` makes it an open door.

/** The prefix of the extension's metadata keys. */
export const META = "io.github.aoekit";
/** The id of the stand-in caster a template gets when no token stands at its origin. */
export const ORIGIN_ID = "aoekit:origin";
/** The layers whose images are tokens (creatures and mounts), by default. */
export const TOKEN_LAYERS = Object.freeze(["CHARACTER", "MOUNT"]);

const RULES = ["tdgs", "drawsteel", "circle50"];
const EPS = 1e-9;
const lattice = (v) => Math.round(v * 400) / 400;
const num = (v, fallback) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);

/**
 * parseScale: the number of a grid scale ("5ft", "1.5m", "5 ft") or of getScale()'s answer
 * ({parsed: {multiplier}}); 5 when there is none.
 */
export function parseScale(scale) {
  if (typeof scale === "number") return scale > 0 ? scale : 5;
  const m = typeof scale === "string" ? /^\s*(\d+(?:\.\d+)?)/.exec(scale) : null;
  const v = m ? Number(m[1]) : num(scale?.parsed?.multiplier, 5);
  return v > 0 ? v : 5;
}

/**
 * frameOf: the grid, from `{dpi, scale, type}` (OBR.scene.grid's getDpi(), getScale() or the
 * raw scale string, getType()).
 * @returns {{dpi: number, distance: number}}
 */
export function frameOf(grid) {
  const dpi = num(grid?.dpi, NaN);
  if (!(dpi > 0)) throw new Error("aoekit: the grid's dpi must be a number above 0");
  if (grid.type !== undefined && grid.type !== "SQUARE") throw new Error(`aoekit: only square grids are supported (this scene's grid is ${grid.type})`);
  return { dpi, distance: parseScale(grid.scale) };
}

/** toWorld: a point of an item's own space in scene units: scaled, rotated (degrees, clockwise on screen), moved to its position. */
export function toWorld(item, p) {
  const sx = num(item.scale?.x, 1);
  const sy = num(item.scale?.y, 1);
  const r = (num(item.rotation, 0) * Math.PI) / 180;
  const x = p.x * sx;
  const y = p.y * sy;
  return { x: num(item.position?.x, 0) + x * Math.cos(r) - y * Math.sin(r), y: num(item.position?.y, 0) + x * Math.sin(r) + y * Math.cos(r) };
}

/** A scene point in squares (fractional), on the 1/400 lattice. */
export function toSquares(frame, p) {
  return { x: lattice(p.x / frame.dpi), y: lattice(p.y / frame.dpi) };
}

/** The level an elevation (in grid units) stands on. */
export function levelOf(frame, elevation) {
  return Math.floor(num(elevation, 0) / frame.distance + EPS);
}

const metaOf = (item, key) => item.metadata?.[`${META}/${key}`];

/**
 * imageBox: an IMAGE item's footprint — its centre in squares and its width and height in
 * squares. The image is `image.width × image.height` pixels, of which `grid.dpi` make a square;
 * its `grid.offset` (image pixels) is the point placed at `position`; `scale` stretches it (a
 * negative scale flips it) and a rotation of a quarter turn swaps its sides.
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
 * shorter side. Side and elevation from the item's metadata.
 */
export function tokenPieces(item, frame) {
  const { centre, w, h } = imageBox(item, frame);
  const W = Math.max(1, Math.round(w));
  const H = Math.max(1, Math.round(h));
  const x = Math.round(centre.x - W / 2) || 0;
  const y = Math.round(centre.y - H / 2) || 0;
  const z = levelOf(frame, metaOf(item, "elevation"));
  const side = typeof metaOf(item, "side") === "string" ? metaOf(item, "side") : "";
  const token = (id, px, py, size) => ({ id, x: px, y: py, z, size, ...(side ? { side } : {}) });
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

/** The polyline (scene units) of a wall-like item, or null for other items. */
function outline(item) {
  switch (item.type) {
    case "LINE":
      return [toWorld(item, item.startPosition ?? { x: 0, y: 0 }), toWorld(item, item.endPosition ?? { x: 0, y: 0 })];
    case "CURVE": {
      const pts = (item.points ?? []).map((p) => toWorld(item, p));
      if (item.style?.closed && pts.length > 2) pts.push(pts[0]);
      return pts;
    }
    case "SHAPE": {
      if (item.shapeType !== "RECTANGLE") return null;
      const w = num(item.width, 0);
      const h = num(item.height, 0);
      return [{ x: 0, y: 0 }, { x: w, y: 0 }, { x: w, y: h }, { x: 0, y: h }, { x: 0, y: 0 }].map((p) => toWorld(item, p));
    }
    case "PATH": {
      // Straight segments only (MOVE 0, LINE 1, CLOSE 5); a curve command ends the path.
      const pts = [];
      let start = null;
      for (const c of item.commands ?? []) {
        if (c[0] === 0) {
          if (pts.length) pts.push(null);
          start = toWorld(item, { x: c[1], y: c[2] });
          pts.push(start);
        } else if (c[0] === 1) pts.push(toWorld(item, { x: c[1], y: c[2] }));
        else if (c[0] === 5 && start) pts.push(start);
        else break;
      }
      return pts;
    }
    default:
      return null;
  }
}

/**
 * wallsFrom: the thin walls (SPEC §5.6) an item stands for: one per segment of a LINE, CURVE
 * (closed curves closed), PATH or SHAPE RECTANGLE that carries `io.github.aoekit/wall`, or — with
 * `options.drawings` — any such item on the DRAWING layer. The tag's `open: true` makes an open
 * door; `bottom`/`top` (elevations in grid units) become levels. Segments of no length on the
 * 1/400 lattice are left out.
 */
export function wallsFrom(item, frame, options = {}) {
  const tag = metaOf(item, "wall");
  if (!tag && !(options.drawings && item.layer === "DRAWING")) return [];
  const pts = outline(item);
  if (!pts) return [];
  const extra = {};
  if (tag && typeof tag === "object") {
    if (tag.open === true) extra.open = true;
    if (typeof tag.bottom === "number" && Number.isFinite(tag.bottom)) extra.bottom = lattice(tag.bottom / frame.distance);
    if (typeof tag.top === "number" && Number.isFinite(tag.top)) extra.top = lattice(tag.top / frame.distance);
    if (extra.bottom !== undefined && extra.top !== undefined && extra.bottom > extra.top) return [];
  }
  const walls = [];
  for (let i = 1; i < pts.length; i++) {
    if (!pts[i - 1] || !pts[i]) continue;
    const a = toSquares(frame, pts[i - 1]);
    const b = toSquares(frame, pts[i]);
    if (a.x === b.x && a.y === b.y) continue;
    walls.push({ a: [a.x, a.y], b: [b.x, b.y], ...extra });
  }
  return walls;
}

/**
 * mapBounds: the squares the MAP layer's images cover (floor and ceiling of their boxes), as
 * `{min: [x, y], max: [x, y]}`, or null when the scene has no map image.
 */
export function mapBounds(items, frame) {
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

/** The square a scene point is on. */
export function squareAt(frame, p) {
  const s = toSquares(frame, p);
  return { x: Math.floor(s.x) || 0, y: Math.floor(s.y) || 0 };
}

/** The square an item stands on: an image's centre, a circle's centre, a rectangle's middle, else its position. */
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

function within(piece, cell) {
  return cell.x >= piece.x && cell.x < piece.x + piece.size && cell.y >= piece.y && cell.y < piece.y + piece.size;
}

/**
 * requestFrom: the evaluate request for a template on an Owlbear scene.
 *
 * @param {object} input
 * @param {object[]} input.items   every scene item (OBR.scene.items.getItems())
 * @param {object} input.grid      {dpi, scale, type} (see frameOf)
 * @param {"tdgs"|"drawsteel"|"circle50"} [input.rules]
 * @param {string} [input.shapeId]  a SHAPE item (CIRCLE or RECTANGLE) to read as the template, or
 * @param {string} [input.notation] a notation (`Con4NE`, `3 aura`, `circle 3`, `5 x 1 line`), with
 * @param {string} [input.casterId] the image that uses it (for a shape: the token on its centre by default),
 * @param {string} [input.originId] an item whose square is the origin (circles, rectangles, cubes, a line's first square),
 * @param {string} [input.aimId]    an item whose square a Draw Steel line points at;
 * @param {boolean} [input.includeHidden] count invisible tokens (default true; players' clients pass false)
 * @param {boolean} [input.drawings]      every line, curve, path and rectangle on the DRAWING layer is a wall
 * @param {string[]} [input.layers]       the layers whose images are tokens (TOKEN_LAYERS)
 * @returns {{request: object, pieces: Record<string, string>, casterId: string|null, notation: string}}
 *
 * The caster faces N (a notation's direction is on the board: `Con4NE` points north-east) and
 * `targeting.excludeCaster` keeps it out of its own area; `rules` is the chosen rule set.
 * `bounds`: the MAP layer's images (else every token, wall and origin, 30 squares around), on
 * every level from the lowest to the highest thing on the board.
 */
export function requestFrom({ items, grid, rules = "tdgs", shapeId, notation, casterId, originId, aimId, includeHidden = true, drawings = false, layers = TOKEN_LAYERS }) {
  if (!RULES.includes(rules)) throw new Error(`aoekit: rules must be tdgs, drawsteel or circle50, got ${JSON.stringify(rules)}`);
  const frame = frameOf(grid);
  const byId = new Map(items.map((i) => [i.id, i]));

  const pieces = {};
  const board = [];
  for (const item of items) {
    if (item.type !== "IMAGE" || !layers.includes(item.layer)) continue;
    if (!includeHidden && item.visible === false) continue;
    for (const p of tokenPieces(item, frame)) {
      pieces[p.id] = item.id;
      board.push(p);
    }
  }
  const walls = items.flatMap((item) => wallsFrom(item, frame, { drawings }));

  const request = { rules, template: "" };
  let casterPiece = null;
  const pieceOf = (id, cell) => board.find((p) => pieces[p.id] === id && (!cell || within(p, cell))) ?? board.find((p) => pieces[p.id] === id) ?? null;
  const shape = shapeId !== undefined ? byId.get(shapeId) : null;
  if (shapeId !== undefined) {
    if (!shape) throw new Error(`aoekit: no item ${JSON.stringify(shapeId)} in the scene`);
    const centre = shape.shapeType === "CIRCLE" ? squareAt(frame, shape.position ?? { x: 0, y: 0 }) : null;
    if (centre && rules === "drawsteel") {
      casterPiece = (casterId !== undefined ? pieceOf(casterId, centre) : null) ?? board.find((p) => within(p, centre)) ?? null;
    }
    const t = shapeTemplate(shape, frame, rules, casterPiece?.size ?? 1);
    if (!t) throw new Error(`aoekit: a ${shape.type === "SHAPE" ? shape.shapeType.toLowerCase() : shape.type.toLowerCase()} is not a template: draw a circle or a rectangle`);
    request.template = t.template;
    const z = levelOf(frame, metaOf(shape, "elevation") ?? 0);
    if (t.origin) request.origin = { ...t.origin, z: casterPiece?.z ?? z };
    if (t.kind === "circle" && rules === "drawsteel") {
      request.caster = casterPiece ? { ...casterPiece, facing: "N" } : { id: ORIGIN_ID, ...t.centre, z, facing: "N" };
    }
  } else {
    if (typeof notation !== "string" || notation.trim() === "") throw new Error("aoekit: write a template (Cir3, Con4NE, 2 burst, circle 3, …) or select a circle or rectangle shape");
    request.template = notation.trim();
    if (casterId !== undefined) {
      casterPiece = pieceOf(casterId);
      if (!casterPiece) throw new Error(`aoekit: the caster ${JSON.stringify(casterId)} is not a token`);
      request.caster = { ...casterPiece, facing: "N" };
    }
    const z = casterPiece?.z ?? 0;
    if (originId !== undefined) {
      const item = byId.get(originId);
      if (!item) throw new Error(`aoekit: no item ${JSON.stringify(originId)} in the scene`);
      request.origin = { ...itemSquare(item, frame), z: item.type === "IMAGE" ? levelOf(frame, metaOf(item, "elevation")) : z };
    }
    if (aimId !== undefined) {
      const item = byId.get(aimId);
      if (!item) throw new Error(`aoekit: no item ${JSON.stringify(aimId)} in the scene`);
      request.aim = { ...itemSquare(item, frame), z: request.origin?.z ?? z };
    }
  }

  let casterDoc = null;
  if (request.caster) {
    request.targeting = { excludeCaster: true };
    if (request.caster.id !== ORIGIN_ID) {
      casterDoc = pieces[request.caster.id];
      for (let i = board.length - 1; i >= 0; i--) if (pieces[board[i].id] === casterDoc) board.splice(i, 1);
    }
  }
  request.tokens = board;
  request.walls = walls;

  const everything = [...board, ...(request.caster ? [request.caster] : [])];
  const z0 = request.origin?.z ?? request.caster?.z ?? 0;
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
    for (const c of [request.origin, request.aim]) {
      if (!c) continue;
      xs.push(c.x);
      ys.push(c.y);
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

const GRADE = { none: 0, partial: 1, half: 2, cover: 2, full: 3 };

/**
 * mergeTargets: the engine's targets per item: a rectangular token's pieces joined (in the area
 * when any piece is, affected when any is, with the cover of its least covered piece in the
 * area); the stand-in caster left out.
 */
export function mergeTargets(targets, { pieces, casterId = null }) {
  const byItem = new Map();
  for (const t of targets ?? []) {
    if (t.id === ORIGIN_ID) continue;
    const id = pieces[t.id] ?? t.id;
    const prev = byItem.get(id);
    const better = !prev || (t.inArea && !prev.inArea) || (t.inArea === prev.inArea && (GRADE[t.cover] ?? 0) < (GRADE[prev.cover] ?? 0));
    const merged = better ? { ...t, id, caster: id === casterId } : prev;
    merged.inArea = t.inArea || !!prev?.inArea;
    merged.affected = t.affected || !!prev?.affected;
    if (merged.affected) delete merged.reason;
    byItem.set(id, merged);
  }
  return [...byItem.values()];
}

/** The item ids an answer affects, the caster left out. */
export function affectedIds(merged) {
  return merged.filter((t) => t.affected && !t.caster).map((t) => t.id);
}

/**
 * cellRuns: an answer's cells on one level as runs along rows — `{x, y, length}`, in squares —
 * so that the area is drawn with one rectangle a run instead of one a square.
 */
export function cellRuns(cells, level = 0) {
  const rows = new Map();
  for (const [x, y, z] of cells) {
    if (z !== level) continue;
    if (!rows.has(y)) rows.set(y, []);
    rows.get(y).push(x);
  }
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

/** A run of squares as a scene rectangle (a SHAPE RECTANGLE's position, width and height). */
export function runRect(run, frame) {
  return { position: { x: run.x * frame.dpi, y: run.y * frame.dpi }, width: run.length * frame.dpi, height: frame.dpi };
}

/** The scene point at the centre of a square's top edge (where a cover label points). */
export function labelPoint(cell, frame) {
  return { x: (cell.x + 0.5) * frame.dpi, y: cell.y * frame.dpi };
}
