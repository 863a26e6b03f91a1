// @ts-check
// Import, export and storage: readScene reads an evaluate request (CONTRACT) into a scene or
// says what is wrong; localStorage keeps the scene (save, restore); the Export and Import buttons.
import { BOARD_MAX, BOARD_MIN, COMPASS_DEGREES, defaultFullAttack, DIRS, MAX_LEVELS, MAX_SIZE, MAX_TOKENS, QUARTERS, RULE_BROKEN, RULES_LABEL, SIZE_NAMES, STEP, STORAGE_KEY, STRESS } from "./constants.js";
import { dom } from "./dom.js";
import { commit, entities, key, scene, setScene, ui } from "./state.js";
import { buildRequest, degrees, engineError, isPoint, isPointRules, parseAs, placementOf } from "./requests.js";
import { dropBoardScene } from "./engine.js";
import { fullAttackValue } from "./fullattack.js";
import { sceneReplaced } from "./refresh.js";
import { markSafe } from "./samples.js";
import { placedOut, readPlaced } from "./templates.js";

/** @typedef {import("./types.js").Block} Block */
/** @typedef {import("./types.js").CellTuple} CellTuple */
/** @typedef {import("./types.js").CoverOverride} CoverOverride */
/** @typedef {import("./types.js").Direction} Direction */
/** @typedef {import("./types.js").Entity} Entity */
/** @typedef {import("./types.js").Force} Force */
/** @typedef {import("./types.js").Point} Point */
/** @typedef {import("./types.js").PointRules} PointRules */
/** @typedef {import("./types.js").Pos} Pos */
/** @typedef {import("./types.js").Quarter} Quarter */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Rolls} Rolls */
/** @typedef {import("./types.js").Scene} Scene */
/** @typedef {import("./types.js").Template} Template */
/** @typedef {import("./types.js").Trait} Trait */
/** @typedef {import("./types.js").Wall} Wall */

// ---------------------------------------------------------------------------------------------
// Import, export and storage

export class SceneError extends Error {}
/** @param {string} message @returns {never} */
export function fail(message) {
  throw new SceneError(message);
}
/** @param {unknown} v @returns {v is Record<string, unknown>} */
export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

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
  const known = new Set(["template", "rules", "caster", "origin", "aim", "path", "range", "tokens", "obstacles", "walls", "bounds", "targeting", "resolve", "rollsOff", "orientation", "barriers", "cover", "applyCover", "originSquare", "point", "toward", "placed", "placedAt"]);
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
    placed: [], at: 0,
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
  // The board's other templates (templates.js), each read as a request of its own on this board.
  if (data.placed !== undefined && data.placed !== null) Object.assign(s, readPlaced(data, (r) => readScene(r).scene));
  return { scene: s, ignored };
}

/** The request for the current scene, as Export writes it. */
export function exportRequest() {
  if (!ui.template || !ui.engine) return null;
  const req = buildRequest(scene, ui.template);
  // The board's other templates, beside the selected one's request (CONTRACT: unknown fields are ignored).
  return scene.placed.length === 0 ? req : { ...req, placed: placedOut(ui.engine), placedAt: scene.at };
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

export function save() {
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
export function restore() {
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

// Scene: export, import, sample, clear.
/** @param {string} text @param {boolean} error */
export function sceneMessage(text, error) {
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
export function importText(text, name) {
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
    setScene({ ...s, fullAttack: scene.fullAttack }); // a request has no full attack: the panel stays
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
