// aoekit for Foundry VTT v13: evaluates the measured template (or the region flagged as an area)
// being placed, dragged or moved against the scene — its tokens, walls and doors — and shows
// which tokens it affects and the cover each has, drawn on a canvas over the board by the
// aoekit overlay; optionally targets them. Everything Foundry-specific lives here (Hooks,
// game.settings, canvas, ui); the mapping from Foundry's documents to aoekit requests is map.mjs
// (pure, tested). The module folder holds the npm package's loaders and modules beside this file
// (web/foundry/README.md, make foundry).
// One engine a client: with drawing on, only aoekit-overlay.wasm is loaded — its engine answers
// every request and its overlays draw — and each template is evaluated once a frame, as it is
// drawn, against a scene of that engine that keeps the board (tokens, walls indexed, bounds)
// between frames and is changed only where the board changed (scene.update). With drawing off,
// only aoekit.wasm is loaded (index.js load()), its scene evaluated the same way.
// Typed with JSDoc against @league-of-foundry-developers/foundry-vtt-types (Foundry v13's
// globals: Hooks, game, canvas, ui, foundry.documents), checked by `tsc -p web/foundry`
// (make test-foundry-types); what the module adds to them (settings, api, hook) is declared in
// foundry-types.ts.
import { load } from "./index.js";
import { loadOverlay } from "./overlay.js";
import { ORIGIN_ID, SIDE_COLOURS, TEMPLATE_SHAPES, affectedIds, frameOf, mergeTargets, metricOf, requestFor, rulesFor, wallsFrom } from "./map.mjs";

/** @import { Bounds, Engine, Request, Result, Scene, SceneEdit, Token as Piece, Wall } from "./index.js" */
/** @import { AbilityData, Built, Frame, MergedTarget, RegionData } from "./map.mjs" */
/** @import { DrawTarget, Overlay, OverlayModule } from "./overlay.js" */
/** @import { AoekitApi, Evaluation } from "./foundry-types.js" */

/**
 * A MeasuredTemplateDocument: a placed template's, or a drag preview's.
 * @typedef {foundry.documents.MeasuredTemplateDocument} TemplateDocument
 */
/**
 * A RegionDocument read as a template (map.mjs regionShape): one flagged `flags.aoekit.area`,
 * or one handed to api.evaluate.
 * @typedef {foundry.documents.RegionDocument} RegionDocument
 */

/**
 * @typedef {object} State
 * @property {Promise<State> | null} ready
 * @property {Engine | null} engine  the one engine: the overlay module's (drawing on), else aoekit.wasm's
 * @property {Board} board  that engine's scene, and what its board holds
 * @property {OverlayModule | null} overlays
 * @property {Promise<void> | null} overlaysLoading
 * @property {boolean} overlaysFailed
 * @property {Overlay | null} overlay
 * @property {HTMLCanvasElement | null} element
 * @property {TemplateDocument | RegionDocument | null} template
 * @property {boolean} preview
 * @property {foundry.canvas.placeables.MeasuredTemplate | null} placeable  the drag preview's placeable, while template is its document
 * @property {{visible: boolean} | null} hidden  Foundry's grid highlight of the template shown, hidden while the overlay draws it
 * @property {Evaluation | null} last
 * @property {Request | null} drawn  the request the main overlay drew last (its result() is that one's answer), or null
 * @property {number | ReturnType<typeof setTimeout>} frame
 * @property {{evaluate: boolean, attach: boolean, others: boolean}} again  what the next frame does: evaluate the template shown, attach the overlays (a pan), evaluate the other templates (the board changed)
 * @property {Set<string>} warned
 * @property {Map<string, Other>} others  every other template or area region placed on the scene, drawn too
 */
/**
 * The scene the engine evaluates against, and the board it holds now (to change only what
 * changed: scene.update).
 * @typedef {object} Board
 * @property {Scene | null} scene
 * @property {Engine | null} engine  whose scene it is
 * @property {string[]} ids  its tokens' ids, in order
 * @property {string[]} tokens  each token as JSON, in that order
 * @property {Wall[] | null} walls  the walls it holds: the array wallsOf gave (compared by identity)
 * @property {string} bounds  its bounds as JSON ("null" for none)
 */
/**
 * A placed template shown besides the one the user works with: its own overlay on its own canvas.
 * @typedef {object} Other
 * @property {TemplateDocument | RegionDocument} doc
 * @property {Overlay | null} overlay
 * @property {HTMLCanvasElement | null} element
 * @property {Request | null} request
 */

const ID = "aoekit";

/** @type {State} */
const state = {
  ready: null, // Promise of {engine, overlays}, started at "ready"
  engine: null, // the one engine: aoekit-overlay.wasm's when it is loaded, else aoekit.wasm's
  board: { scene: null, engine: null, ids: [], tokens: [], walls: null, bounds: "null" },
  overlays: null, // loadOverlay()'s {attach}, once loaded
  overlaysLoading: null, // its Promise, once asked for (kept after a failure: not tried at every pan)
  overlaysFailed: false, // that load failed
  overlay: null, // the attached overlay
  element: null, // its <canvas>
  template: null, // the MeasuredTemplateDocument (or a drag preview's), or the RegionDocument, shown now
  preview: false, // template is a drag preview's document
  placeable: null, // the drag preview (its highlight is the one to hide)
  hidden: null, // Foundry's highlight layer hidden while ours is drawn
  last: null, // {request, result, targets, notation, casterId} of the last evaluation
  drawn: null, // the request state.overlay drew last
  frame: 0, // a pending requestAnimationFrame
  again: { evaluate: false, attach: false, others: false },
  warned: new Set(),
  others: new Map(), // id → Other: the other placed templates, each drawn on its own canvas
};

/**
 * A setting's value.
 * @template {"rules" | "walls" | "autoTarget" | "overlay" | "coverLines" | "chatCards" | "coverStatus"} K
 * @param {K} key
 */
const setting = (key) => game.settings.get(ID, key);

Hooks.once("init", () => {
  const refresh = () => schedule({ evaluate: true, others: true });
  game.settings.register(ID, "rules", {
    name: "aoekit: rule set",
    hint: "How templates are read and judged. By game system (the default): D&D 5e's and Pathfinder 2e's rules on dnd5e and pf2e tables (areas spread from the point the template is drawn from, as Foundry highlights it), D&D 5e's geometry with the scene's diagonal rule elsewhere. Or one rule set for every table: TDGS (Cir, Con, Lin, Rec; cover from the origin), Draw Steel (circles are bursts, rays lines, square rectangles cubes; walls cut areas) or the 50 % circle.",
    scope: "world",
    config: true,
    type: String,
    choices: { auto: "By game system", dnd5e: "D&D 5e", pf2e: "Pathfinder 2e", tdgs: "TDGS", drawsteel: "Draw Steel", circle50: "50 % circle" },
    default: "auto",
    onChange: refresh,
  });
  game.settings.register(ID, "walls", {
    name: "aoekit: walls that block areas and cover",
    hint: "Which walls stop an area and give cover. Terrain walls never do, open doors don't, windows do.",
    scope: "world",
    config: true,
    type: String,
    choices: { both: "Walls that stop movement and sight", move: "Walls that stop movement (invisible walls too)", sight: "Walls that stop sight (ethereal walls too)" },
    default: "both",
    onChange: refresh,
  });
  game.settings.register(ID, "autoTarget", {
    name: "aoekit: target the affected tokens",
    hint: "When you place or move a template, target the tokens it affects (those behind total cover are left out), and only those.",
    scope: "client",
    config: true,
    type: Boolean,
    default: true,
  });
  game.settings.register(ID, "overlay", {
    name: "aoekit: draw the area and cover",
    hint: "Draw the template's squares, a ring on each token it touches and its cover badge over the board, in place of Foundry's highlight.",
    scope: "client",
    config: true,
    type: Boolean,
    default: true,
    onChange: () => {
      detach();
      if (state.overlaysFailed) { // a load that failed is tried again, and warns again if it fails
        state.overlaysLoading = null;
        state.overlaysFailed = false;
        state.warned.delete("overlay");
      }
      schedule({ attach: true, evaluate: true, others: true });
    },
  });
  game.settings.register(ID, "chatCards", {
    name: "aoekit: chat cards",
    hint: "When a template or area is placed, post a chat card listing the tokens it affects with their cover and its bonus. Tokens hidden from players go in a separate card whispered to the GMs; a player's card lists only tokens that player can see, and a card's rows for a token a reader cannot see are not shown to that reader.",
    scope: "world",
    config: true,
    type: Boolean,
    default: true,
  });
  game.settings.register(ID, "coverStatus", {
    name: "aoekit: apply D&D 5e cover",
    hint: "On dnd5e tables, give each token in a placed area the system's cover status (half, three-quarters, total cover) the area leaves it, and take off the others; a GM's client applies them.",
    scope: "world",
    config: true,
    type: Boolean,
    default: false,
  });
  game.settings.register(ID, "coverLines", {
    name: "aoekit: draw cover lines",
    hint: "Also draw every target's cover lines (clear ones green, blocked ones dashed red).",
    scope: "client",
    config: true,
    type: Boolean,
    default: false,
    onChange: refresh,
  });
});

Hooks.once("ready", () => {
  state.ready = start();
  state.ready.catch((err) => warnOnce("load", `the engine could not load: ${messageOf(err)}`));
  const module = game.modules?.get(ID);
  if (module) module.api = api;
});

// start loads one engine: with drawing on, aoekit-overlay.wasm (whose engine answers as
// aoekit.wasm's); with drawing off, or when the overlay cannot load, aoekit.wasm (load()).
/** @returns {Promise<State>} */
async function start() {
  if (setting("overlay")) await loadOverlays();
  state.engine ??= await load();
  schedule({ attach: true, evaluate: true, others: true });
  return state;
}

// loadOverlays loads aoekit-overlay.wasm once, when drawing is on, and makes its engine the one
// that evaluates (aoekit.wasm's, if drawing was off until now, is no longer used); without it
// the answers are still given (targets, the aoekit.evaluated hook) by aoekit.wasm.
/** @returns {Promise<void>} */
function loadOverlays() {
  state.overlaysLoading ??= loadOverlay().then(
    (overlays) => {
      state.overlays = overlays;
      state.engine = overlays.engine;
      dropScene();
      schedule({ attach: true, evaluate: true, others: true });
    },
    (err) => {
      // Not tried again at every pan: turning the setting off and on, or a reload, does.
      state.overlaysFailed = true;
      warnOnce("overlay", `the overlay could not load (${messageOf(err)}); targets are still set`);
    },
  );
  return state.overlaysLoading;
}

// The public handle: game.modules.get("aoekit").api.
/** @type {AoekitApi} */
const api = Object.freeze({
  /** Resolves once the engine (and the overlay) are loaded. */
  get ready() {
    return state.ready;
  },
  /** The engine that evaluates, once ready: aoekit-overlay.wasm's when drawing is on, else aoekit.wasm's (index.js load()). */
  get engine() {
    return state.engine;
  },
  /** The last evaluation: {request, result, targets, notation, casterId}. */
  get last() {
    return state.last;
  },
  /**
   * Evaluates a MeasuredTemplateDocument (or a RegionDocument: an area, a v14 template, a Draw
   * Steel ability's) now (after ready) and shows it; returns the last evaluation.
   * @param {TemplateDocument | RegionDocument} template
   * @param {{target?: boolean, card?: boolean}} [options]  target: auto-target what it affects (when the setting is on); card: post its chat card (when the setting is on)
   */
  evaluate: (template, { target = false, card = false } = {}) => {
    state.template = template;
    state.preview = false;
    state.placeable = null;
    dropOther(template.id); // now the one shown: its own canvas goes
    evaluate({ target, notify: true, card });
    return state.last;
  },
  /** Forgets the template shown and erases the drawing. */
  clear,
});

Hooks.on("canvasReady", () => {
  clear();
  detach();
  state.others.clear();
  // Every template and area already on the scene is shown (the ones a player may see).
  const scene = canvas?.scene;
  const templates = /** @type {{contents?: TemplateDocument[]} | undefined} */ (scene?.templates)?.contents ?? [];
  const regions = /** @type {{contents?: RegionDocument[]} | undefined} */ (scene?.regions)?.contents ?? [];
  for (const doc of [...templates, ...regions.filter(isArea)]) if (doc.id) state.others.set(doc.id, { doc, overlay: null, element: null, request: null });
  dropScene();
  schedule({ attach: true, evaluate: true, others: true });
});
Hooks.on("canvasTearDown", () => {
  clear();
  detach();
  state.others.clear();
  dropScene();
});
Hooks.on("canvasPan", () => schedule({ attach: true }));

// A template placed or moved: evaluated, and its author's client targets what it affects. An
// update that changes nothing the evaluation reads (a colour, another module's flag) neither
// targets nor changes the template shown; hiding or showing the one shown evaluates it again
// (a player's client then forgets a template the GM hid).
Hooks.on("createMeasuredTemplate", (doc, _options, userId) => placed(doc, userId));
Hooks.on("updateMeasuredTemplate", (doc, changes, _options, userId) => {
  if (reshaped(changes, TEMPLATE_FIELDS)) placed(doc, userId);
  else if (state.template?.id === doc.id && !state.preview) {
    state.template = doc; // a drag's preview stays shown
    if (changes && typeof changes === "object" && "hidden" in changes) schedule({ evaluate: true });
  }
});

// What map.mjs reads of a template (templateShape, pointRequest) and of a region
// (regionShape), besides the Levels module's and aoekit's own flags.
const TEMPLATE_FIELDS = ["t", "x", "y", "distance", "direction", "angle", "width", "elevation"];
const REGION_FIELDS = ["shapes", "elevation", "attachment"];

/**
 * reshaped reports whether an update's changes (Foundry's diff) touch what the evaluation
 * reads; changes of an unknown form count as a move.
 * @param {unknown} changes
 * @param {string[]} fields
 */
function reshaped(changes, fields) {
  if (changes === null || typeof changes !== "object") return true;
  const flags = /** @type {{flags?: {levels?: unknown, aoekit?: unknown, "draw-steel"?: unknown}}} */ (changes).flags;
  return Object.keys(changes).some((k) => fields.includes(k) || /^flags\.(levels|aoekit|draw-steel)(\.|$)/.test(k)) ||
    flags?.levels !== undefined || flags?.aoekit !== undefined || flags?.["draw-steel"] !== undefined;
}

/**
 * A template (or area region) placed or moved. The user who did it works with it: it becomes
 * the template shown and targeted, and gets its chat card; the one shown before stays on the
 * board, drawn with the others. Another user's is drawn with the others (or evaluated again,
 * when it is the one shown).
 * @param {TemplateDocument | RegionDocument} doc
 * @param {string} userId  the user who placed or moved it
 */
function placed(doc, userId) {
  if (doc.parent && canvas.scene && doc.parent !== canvas.scene) return;
  const mine = userId === game.user?.id;
  if (!mine && state.template?.id !== doc.id) {
    showOther(doc);
    return;
  }
  const before = state.template;
  const keep = mine && before && !state.preview && before.id && before.id !== doc.id && stillThere(before);
  dropOther(doc.id);
  state.template = doc;
  state.preview = false;
  state.placeable = null;
  if (keep && before) {
    showHighlight(); // its highlight is hidden again by its own overlay
    showOther(before);
  }
  whenReady(() => evaluate({ target: mine, notify: mine, card: mine }));
}

/** @param {TemplateDocument | RegionDocument} doc  whether it is still on the scene */
function stillThere(doc) {
  const id = doc.id ?? "";
  const scene = canvas?.scene;
  const list = doc.documentName === "Region" ? scene?.regions : scene?.templates;
  const get = /** @type {{get?: (id: string) => unknown} | undefined} */ (list)?.get;
  return get ? get.call(list, id) !== undefined : true;
}

// A template being drawn or dragged: its preview is evaluated as it moves.
Hooks.on("refreshMeasuredTemplate", (template) => {
  if (!template?.isPreview || !template.document) return;
  state.template = template.document;
  state.preview = true;
  state.placeable = template;
  schedule({ evaluate: true });
});

// A preview destroyed while it is the template shown: a drag or a placement cancelled (one
// that ends creates or updates the document, which is then shown). The template dragged is
// shown again where it is; a new one never placed is forgotten.
Hooks.on("destroyMeasuredTemplate", (template) => {
  if (!template?.isPreview || !template.document || !state.preview || state.template !== template.document) return;
  state.preview = false;
  state.placeable = null;
  showHighlight();
  const id = template.document.id;
  const real = id ? canvas?.scene?.templates?.get(id) : undefined;
  if (!real) {
    clear();
    return;
  }
  state.template = real;
  schedule({ evaluate: true });
});

Hooks.on("deleteMeasuredTemplate", (doc) => {
  if (state.template?.id === doc.id) clear();
  dropOther(doc.id);
});

// A region that is an area (isArea) placed or changed: read as a template (map.mjs
// regionShape; a Draw Steel ability's with its ability, abilityRequest). Other regions
// (terrain, teleporters…) are left alone.
Hooks.on("createRegion", (doc, _options, userId) => {
  if (isArea(doc)) placed(doc, userId);
});
Hooks.on("updateRegion", (doc, changes, _options, userId) => {
  if (isArea(doc)) {
    if (reshaped(changes, REGION_FIELDS)) placed(doc, userId);
    else if (state.template?.id === doc.id) state.template = doc;
  } else {
    if (state.template?.id === doc.id) clear(); // the flag was taken off
    dropOther(doc.id);
  }
});
Hooks.on("deleteRegion", (doc) => {
  if (state.template?.id === doc.id) clear();
  dropOther(doc.id);
});

/**
 * Whether a region is an area aoekit reads: one flagged `flags.aoekit.area`; one the Draw Steel
 * system placed for an ability (`flags["draw-steel"].abilitySource`); on Foundry v14, which
 * places templates as Regions, one of a single template shape (circle, cone, line, ring,
 * emanation) and no behaviours (a region with behaviours is terrain, a teleporter…).
 * @param {RegionDocument} doc
 */
function isArea(doc) {
  const flags = /** @type {RegionData["flags"]} */ (doc.flags);
  if (flags?.aoekit?.area === true || typeof flags?.["draw-steel"]?.abilitySource === "string") return true;
  const shapes = /** @type {RegionData["shapes"] | undefined} */ (doc.shapes) ?? [];
  const behaviors = /** @type {{size?: number, length?: number} | undefined} */ (doc.behaviors);
  const generation = /** @type {{release?: {generation?: number}}} */ (game).release?.generation ?? 13;
  return generation >= 14 && shapes.length === 1 && !shapes[0].hole && TEMPLATE_SHAPES.includes(shapes[0].type) && (behaviors?.size ?? behaviors?.length ?? 0) === 0;
}

/**
 * The Draw Steel ability a region was placed for (`flags["draw-steel"].abilitySource`, an
 * item's uuid, found with fromUuidSync), as map.mjs reads it; null for any other region.
 * @param {TemplateDocument | RegionDocument} doc
 * @returns {AbilityData | null}
 */
function abilityOf(doc) {
  if (doc.documentName !== "Region") return null;
  const uuid = /** @type {RegionData["flags"]} */ (doc.flags)?.["draw-steel"]?.abilitySource;
  if (typeof uuid !== "string" || !uuid) return null;
  const find = /** @type {(uuid: string) => unknown} */ (/** @type {{fromUuidSync?: unknown}} */ (/** @type {unknown} */ (globalThis)).fromUuidSync ?? foundry.utils.fromUuidSync);
  const item = /** @type {{name?: string, system?: AbilityData["system"]} | null | undefined} */ (find(uuid));
  if (!item) throw new Error(`the Draw Steel ability ${uuid} this area was placed for cannot be found`);
  return { name: item.name, system: item.system };
}

// The board changed under the templates shown: evaluated again. The tokens are read at every
// evaluation (and the scene changed where they moved); the walls are mapped once and kept
// (wallsOf) until one is created, changed (a door opened) or deleted.
const again = () => {
  if (state.template || state.others.size) schedule({ evaluate: true, others: true });
};
const wallsChanged = () => {
  walls.version++;
  if (state.template || state.others.size) again();
  else if (state.ready) idle(prepare); // indexed again before a template needs them
};
Hooks.on("createToken", again);
Hooks.on("updateToken", again);
Hooks.on("deleteToken", again);
Hooks.on("createWall", wallsChanged);
Hooks.on("updateWall", wallsChanged);
Hooks.on("deleteWall", wallsChanged);
// What a player sees changed (their token moved, a door opened, a token left the fog): the
// tokens they may be shown are others.
Hooks.on("sightRefresh", () => {
  if (!game.user?.isGM) again();
});

/** @param {() => void} fn */
function whenReady(fn) {
  state.ready?.then(fn, () => {}); // a failed load is reported once, at "ready"
}

// schedule coalesces work into the next animation frame (a drag refreshes many times a frame):
// the template shown is evaluated (and drawn) once a frame; the other templates only when the
// board changed (a drag changes nothing of theirs), or drawn again after a pan.
/** @param {{attach?: boolean, evaluate?: boolean, others?: boolean}} what */
function schedule(what) {
  if (what.attach) state.again.attach = true;
  if (what.evaluate) state.again.evaluate = true;
  if (what.others) state.again.others = true;
  if (state.frame || !state.ready) return;
  const run = () => {
    state.frame = 0;
    const { attach: a, evaluate: e, others: o } = state.again;
    state.again = { attach: false, evaluate: false, others: false };
    if (a) attach({ main: !e, others: !o }); // what is evaluated below is drawn then
    if (e) evaluate({ target: false, notify: false, card: false });
    if (o) for (const other of state.others.values()) drawOther(other);
    if (!state.board.scene) idle(prepare); // no template to evaluate: the scene made meanwhile
  };
  state.frame = typeof requestAnimationFrame === "function" ? requestAnimationFrame(run) : setTimeout(run, 16);
}

/**
 * The scene's grid and dimensions, for map.mjs.
 * @param {foundry.documents.Scene} scene  canvas.scene
 */
function sceneData(scene) {
  const grid = canvas.grid ?? scene.grid;
  return { grid: { size: grid.size, distance: grid.distance ?? scene.grid?.distance, type: grid.type ?? scene.grid?.type }, dimensions: canvas.dimensions };
}

/**
 * Whether this user may be shown a token: the GM sees every one; a player those Foundry shows
 * them — not hidden, and visible to their vision now (Token#isVisible: fog, darkness, sight
 * range; a token not drawn is not seen). A plugin never reveals what the table hides.
 * @param {foundry.documents.TokenDocument} doc
 */
function seen(doc) {
  if (game.user?.isGM) return true;
  return !doc.hidden && (doc.object?.isVisible ?? false);
}

/**
 * Whether this user may be shown a template: a hidden one only to the GM and its author. An
 * area region as Foundry shows it to a player: only when its `visibility` is ALWAYS
 * (CONST.REGION_VISIBILITY: LAYER 0 and GAMEMASTER 1 are not a player's to see), and, hidden
 * (v14), only to its owners.
 * @param {TemplateDocument | RegionDocument} doc
 */
function shown(doc) {
  if (game.user?.isGM) return true;
  if (doc.documentName === "Region") {
    const region = /** @type {{hidden?: boolean, isOwner?: boolean, visibility?: number}} */ (/** @type {unknown} */ (doc));
    return (region.visibility ?? REGION_ALWAYS) === REGION_ALWAYS && (!region.hidden || !!region.isOwner);
  }
  const template = /** @type {TemplateDocument} */ (doc);
  return !template.hidden || template.isAuthor;
}

/** CONST.REGION_VISIBILITY.ALWAYS: a region every user sees. */
const REGION_ALWAYS = 2;

// ---------------------------------------------------------------------------------------------
// Evaluating: once a template, against the engine's scene.

/**
 * The walls of the scene shown as aoekit's (map.mjs wallsFrom), mapped once and kept until a
 * wall is created, changed or deleted (the hooks bump `version`), the setting or the grid
 * changes, or the scene has another number of walls: a drag maps none, and hands the scene the
 * same array, which it does not index again. Kept twice: with one-way walls (dnd5e, pf2e) and
 * without (the other rule sets: Draw Steel's ability areas on any table), the same array when
 * no wall is one-way.
 * @type {{version: number, key: string, oneWay: Wall[], twoWay: Wall[]}}
 */
const walls = { version: 0, key: "", oneWay: [], twoWay: [] };

/**
 * @param {foundry.documents.Scene} scene
 * @param {Frame} frame
 * @param {boolean} oneWay  whether one-way walls keep their direction (dnd5e, pf2e)
 * @returns {Wall[]}
 */
function wallsOf(scene, frame, oneWay) {
  const list = /** @type {{size?: number, contents: foundry.documents.WallDocument[]}} */ (/** @type {unknown} */ (scene.walls));
  const sense = setting("walls");
  const key = [walls.version, scene.id, sense, frame.size, frame.distance, frame.originX, frame.originY, list.size ?? list.contents.length].join("|");
  if (walls.key !== key) {
    const mapped = wallsFrom(list.contents, frame, { sense, oneWay: true });
    Object.assign(walls, { key, oneWay: mapped, twoWay: mapped.some((w) => w.from) ? mapped.map(({ from: _, ...w }) => w) : mapped });
  }
  return oneWay ? walls.oneWay : walls.twoWay;
}

/** Forgets the engine's scene (a scene shown anew, another engine): the next evaluation makes one. */
function dropScene() {
  const board = state.board;
  try {
    board.scene?.dispose();
  } catch (err) {
    console.debug("aoekit: scene", err);
  }
  state.board = { scene: null, engine: null, ids: [], tokens: [], walls: null, bounds: "null" };
  walls.key = "";
}

/**
 * The engine's scene, holding this board: made once (the walls validated and indexed then),
 * and changed only where the board it holds differs (scene.update: tokens moved, put on or
 * taken off; the walls when wallsOf mapped them again; the bounds).
 * @param {Engine} engine
 * @param {{tokens: Piece[], walls: Wall[], bounds?: Bounds}} board
 * @returns {Scene}
 */
function sceneFor(engine, { tokens, walls: list, bounds }) {
  const b = state.board;
  if (b.scene && b.engine !== engine) dropScene();
  const json = tokens.map((t) => JSON.stringify(t));
  const ids = tokens.map((t) => t.id ?? "");
  const box = JSON.stringify(bounds ?? null);
  if (!state.board.scene) {
    const scene = engine.scene({ tokens, walls: list, ...(bounds ? { bounds } : {}) });
    state.board = { scene, engine, ids, tokens: json, walls: list, bounds: box };
    return scene;
  }
  const scene = state.board.scene;
  /** @type {SceneEdit} */
  const edit = {};
  if (!same(json, b.tokens)) {
    const had = new Map(b.ids.map((id, i) => [id, b.tokens[i]]));
    const keep = new Set(ids);
    const kept = b.ids.filter((id) => keep.has(id));
    // The tokens still there in the same order, and the new ones after them: remove the gone,
    // put the moved and the new (a token on the board already is replaced where it stands, a
    // new one joins the end). Else the whole list again, in its order.
    if (same(ids.slice(0, kept.length), kept) && ids.slice(kept.length).every((id) => !had.has(id))) {
      const gone = b.ids.filter((id) => !keep.has(id));
      if (gone.length) edit.remove = gone;
      const put = tokens.filter((_, i) => had.get(ids[i]) !== json[i]);
      if (put.length) edit.tokens = put;
    } else {
      edit.remove = b.ids;
      edit.tokens = tokens;
    }
  }
  if (list !== b.walls) edit.walls = list;
  if (box !== b.bounds) {
    if (bounds) edit.bounds = bounds;
    else edit.noBounds = true;
  }
  if (Object.keys(edit).length) {
    scene.update(edit); // all of it or, with an error, none: what the board holds is set after
    state.board = { scene, engine, ids, tokens: json, walls: list, bounds: box };
  }
  return scene;
}

/**
 * Makes the engine's scene ready before a template needs it — its board, walls indexed — when
 * the browser is idle after a scene is shown or its walls change (making it, or indexing the
 * walls again, takes the time of one evaluation of the whole board, some tens of milliseconds
 * with thousands of walls: better then than at the first frame of a drag). It evaluates a
 * stand-in circle in the middle of the scene, alone: nothing is drawn, targeted or reported.
 */
function prepare() {
  const scene = canvas?.scene;
  if (!state.engine || !canvas?.ready || !scene || state.frame || state.template || state.others.size) return; // their evaluations keep it
  try {
    const data = sceneData(scene);
    const frame = frameOf(data);
    /** @type {import("./map.mjs").TemplateData} */
    const template = { t: "circle", x: frame.originX + (frame.columns >> 1) * frame.size, y: frame.originY + (frame.rows >> 1) * frame.size, distance: frame.distance, direction: 0, angle: 0, width: 0, elevation: 0 };
    const built = requestFor({
      scene: data,
      tokens: scene.tokens.contents.filter(seen),
      mapWalls: (f, oneWay) => wallsOf(scene, f, oneWay),
      template,
      rules: rulesFor(setting("rules"), game.system?.id),
      metric: metricOf(/** @type {{diagonals?: number} | null} */ (canvas.grid)?.diagonals),
      sense: setting("walls"),
    });
    once(built.request, null, "none");
  } catch (err) {
    console.debug("aoekit: scene", err);
  }
}

/** Runs fn when the browser is idle (soon, where it cannot tell). @param {() => void} fn */
function idle(fn) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(fn, { timeout: 1000 });
  else setTimeout(fn, 50);
}

/** @param {readonly string[]} a @param {readonly string[]} b */
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** An error's code (AoekitError's), or undefined. @param {unknown} err */
const codeOf = (err) => (typeof err === "object" && err !== null && "code" in err ? err.code : undefined);

/**
 * Whether an error is the engine's refusal of a request (a template that cannot be placed
 * there: out of range, no line of effect…), rather than a failure of drawing (a detached or
 * disposed overlay, a scene not its engine's: `bad_request`) or of the engine itself.
 * @param {unknown} err
 */
function refusal(err) {
  const code = codeOf(err);
  return typeof code === "string" && code !== "bad_request";
}

/** @param {unknown} err  the engine restarted (it failed underneath), and its scenes went with it */
const restarted = (err) => /^internal error: the engine restarted/.test(String(messageOf(err)));

/**
 * The level an overlay fills for a request: its origin's, its point's, its caster's.
 * @param {Request} request
 */
const levelOf = (request) => request.origin?.z ?? (request.point ? Math.floor(request.point.z ?? 0) : undefined) ?? request.caster?.z ?? 0;

/**
 * @typedef {object} Answer  one evaluation: drawn by an overlay, or the engine's scene's alone
 * @property {DrawTarget[]} targets
 * @property {string | undefined} notation  the engine's, of the template
 * @property {() => Result | null} result  the whole answer: an overlay's (its last draw's), or the scene's
 * @property {boolean} drawn  an overlay drew it
 */

/**
 * Evaluates a request once, against the engine's scene holding the request's board (tokens,
 * walls, bounds): drawn by `overlay` when there is one (its draw is the evaluation), else by the
 * scene alone. A drawing that fails for want of the canvas, not of the request, is erased and
 * the scene evaluates the request instead. An engine that restarted under its scene gets a new one.
 * @param {Request} request  a whole request: its board is the scene's
 * @param {Overlay | null} overlay
 * @param {"all" | "none"} lines
 * @returns {Answer}
 */
function once(request, overlay, lines) {
  const engine = /** @type {Engine} */ (state.engine);
  const { tokens = [], walls: list = [], bounds, obstacles: _, ...rest } = request;
  const run = () => {
    const scene = sceneFor(engine, { tokens, walls: list, bounds });
    if (overlay && state.overlays?.engine === engine) {
      try {
        const summary = overlay.draw(rest, { scene, level: levelOf(request), lines, details: true });
        return { targets: summary.targets, notation: summary.template?.notation, result: () => overlay.result(), drawn: true };
      } catch (err) {
        if (refusal(err) || restarted(err)) throw err;
        overlay.clear();
        console.debug("aoekit: overlay", err);
      }
    }
    const result = scene.evaluate(rest);
    return { targets: result.targets, notation: result.template?.notation, result: () => result, drawn: false };
  };
  try {
    return run();
  } catch (err) {
    if (!restarted(err)) throw err;
    dropScene();
    return run();
  }
}

/**
 * The request and the engine's answer (drawn by `overlay`, when given) for a template or an
 * area region on the scene now, with the tokens this user may know of.
 * @param {TemplateDocument | RegionDocument} template
 * @param {Overlay | null} overlay
 * @param {"all" | "none"} lines
 * @returns {{built: Built, answer: Answer}}
 */
function answerFor(template, overlay, lines) {
  const scene = /** @type {foundry.documents.Scene} */ (canvas.scene);
  const grid = /** @type {{diagonals?: number} | null} */ (canvas.grid);
  const isRegion = template.documentName === "Region";
  const built = requestFor({
    scene: sceneData(scene),
    tokens: scene.tokens.contents.filter(seen),
    mapWalls: (frame, oneWay) => wallsOf(scene, frame, oneWay),
    ...(isRegion ? { region: /** @type {RegionData} */ (/** @type {unknown} */ (template)) } : { template: /** @type {TemplateDocument} */ (template) }),
    ability: abilityOf(template),
    rules: rulesFor(setting("rules"), game.system?.id),
    metric: metricOf(grid?.diagonals),
    casterId: canvas.tokens?.controlled?.[0]?.document?.id,
    sense: setting("walls"),
  });
  return answer(built, overlay, lines);
}

/**
 * The engine's answer to a request. A point-origin area placed where its caster has no line of
 * effect (behind a wall from it) is refused by the rules (SPEC §10.4); the template is where the
 * user drew it all the same, so it is evaluated again without a caster — the caster joining the
 * other tokens.
 * @param {Built} built
 * @param {Overlay | null} overlay
 * @param {"all" | "none"} lines
 * @returns {{built: Built, answer: Answer}}
 */
function answer(built, overlay, lines) {
  try {
    return { built, answer: once(built.request, overlay, lines) };
  } catch (err) {
    const { caster, point, tokens = [], targeting, ...rest } = built.request;
    if (codeOf(err) !== "no_line_of_effect" || !caster || !point) throw err;
    /** @type {Request} */
    const request = { ...rest, point, tokens: [...tokens, ...(caster.id === ORIGIN_ID ? [] : [caster])] };
    const again = { ...built, request, casterId: null };
    return { built: again, answer: once(request, overlay, lines) };
  }
}

/**
 * The evaluation reported (api.last, the aoekit.evaluated hook). Its `result`, the whole
 * answer, crosses out of the engine only when read: the overlay's last draw's while it is still
 * this one's; after another draw, the engine evaluates the request again.
 * @param {Built} built
 * @param {Answer} got
 * @param {MergedTarget[]} targets
 * @returns {Evaluation}
 */
function evaluation(built, got, targets) {
  /** @type {Result | null | undefined} */
  let result;
  const drawn = got.drawn ? state.overlay : null;
  const request = built.request;
  const read = () => {
    if (result) return result;
    if (!drawn || state.drawn !== request || state.overlay !== drawn) return (result = /** @type {Engine} */ (state.engine).evaluate(request));
    result = got.result();
    return (result ??= /** @type {Engine} */ (state.engine).evaluate(request));
  };
  if (!got.drawn) result = got.result();
  return {
    request,
    get result() {
      return read();
    },
    targets,
    notation: got.notation ?? built.notation,
    casterId: built.casterId,
  };
}

/** @param {{target: boolean, notify: boolean, card: boolean}} how  target: auto-target (when the setting is on); notify: say why it failed; card: post its chat card (when the setting is on) */
function evaluate({ target, notify, card }) {
  const template = state.template;
  const scene = canvas?.scene;
  if (!state.engine || !template || !canvas?.ready || !scene) return;
  if (!shown(template)) {
    clear();
    return;
  }
  let built;
  let got;
  state.drawn = null;
  try {
    ({ built, answer: got } = answerFor(template, state.overlay, setting("coverLines") ? "all" : "none"));
  } catch (err) {
    state.last = null;
    state.overlay?.clear();
    showHighlight();
    if (notify) ui.notifications?.warn(`aoekit: ${messageOf(err)}`);
    else console.debug("aoekit:", err);
    return;
  }
  if (got.drawn) {
    state.drawn = built.request;
    hideHighlight();
  } else showHighlight();
  const targets = mergeTargets(got.targets, built);
  const last = evaluation(built, got, targets);
  state.last = last;
  // Where the declarations are wrong: TokenLayer#setTargets(ids, {mode}) is Foundry v13's (it
  // supersedes User#updateTokenTargets), but foundry-vtt-types 13.345.1 lacks it, so it is
  // declared here, optional (and called only when present).
  const layer = /** @type {foundry.canvas.layers.TokenLayer & {setTargets?: (ids: string[], options: {mode: "replace"}) => void} | undefined} */ (canvas.tokens);
  if (target && setting("autoTarget")) layer?.setTargets?.(affectedIds(targets), { mode: "replace" });
  if (card && setting("chatCards")) postCards(template, last).catch((err) => console.debug("aoekit: chat card", err));
  Hooks.callAll("aoekit.evaluated", {
    template,
    request: last.request,
    get result() {
      return last.result;
    },
    targets: last.targets,
    notation: last.notation,
    casterId: last.casterId,
  });
}

/**
 * Draws the template shown again (after a pan or zoom attached its overlay anew): evaluated
 * again against the scene, as it is drawn.
 * @param {Request} request  its last evaluation's
 */
function draw(request) {
  if (!state.overlay) {
    showHighlight();
    return;
  }
  state.drawn = null;
  try {
    if (!once(request, state.overlay, setting("coverLines") ? "all" : "none").drawn) throw new Error("not drawn");
  } catch (err) {
    state.overlay.clear();
    showHighlight();
    console.debug("aoekit: overlay", err);
    return;
  }
  state.drawn = request;
  hideHighlight();
}

/**
 * Foundry's own grid highlight of the template shown (GridLayer#getHighlightLayer of its
 * MeasuredTemplate#highlightId), which the overlay replaces while it draws it.
 * @returns {{visible: boolean} | undefined}
 */
function highlightOf() {
  const template = state.template;
  if (!template || template.documentName === "Region") return undefined;
  const placeable = state.placeable ?? /** @type {TemplateDocument} */ (template).object;
  const id = placeable?.highlightId;
  const grid = /** @type {{getHighlightLayer?: (name: string) => {visible: boolean} | undefined} | undefined} */ (canvas?.interface?.grid);
  return id ? grid?.getHighlightLayer?.(id) : undefined;
}

function hideHighlight() {
  const layer = highlightOf();
  if (layer === state.hidden) return;
  showHighlight();
  if (!layer) return;
  layer.visible = false;
  state.hidden = layer;
}

function showHighlight() {
  if (state.hidden) state.hidden.visible = true;
  state.hidden = null;
}

/**
 * A canvas laid over the board, under the pointer's events, just above the board (and under
 * the main overlay's canvas, for the other templates').
 * @param {string} id
 * @param {Element | null} [before]
 */
function layer(id, before = null) {
  const el = document.createElement("canvas");
  el.id = id;
  const board = document.getElementById("board");
  const z = board ? getComputedStyle(board).zIndex : "auto";
  Object.assign(el.style, { position: "fixed", left: "0", top: "0", width: "100%", height: "100%", pointerEvents: "none", zIndex: z });
  if (before) before.before(el);
  else if (board) board.after(el);
  else document.body.append(el);
  return el;
}

// attach lays the overlay's canvas over the board, at the board's pan and zoom: square (0, 0)'s
// corner where the stage puts it, squares grid.size × the zoom across. A pan or zoom attaches it
// again (attach options are fixed per overlay) and draws the templates again (main: the one
// shown; others: the other templates, each on its own canvas), unless they are evaluated next.
/** @param {{main?: boolean, others?: boolean}} [redraw] */
function attach({ main = true, others = true } = {}) {
  const scene = canvas?.scene;
  const stage = canvas?.stage;
  if (!setting("overlay") || !canvas?.ready || !scene || !stage) return;
  if (!state.overlays) {
    loadOverlays();
    return;
  }
  let frame;
  try {
    frame = frameOf(sceneData(scene));
  } catch (err) {
    warnOnce(`grid:${scene.id}`, String(messageOf(err)));
    return;
  }
  state.element ??= layer("aoekit-overlay");
  const scale = stage.scale.x;
  const at = stage.toGlobal({ x: frame.originX, y: frame.originY });
  const options = {
    cellSize: Math.min(1000, Math.max(0.01, frame.size * scale)),
    offset: { x: at.x, y: at.y },
    colours: { sides: SIDE_COLOURS },
    tokens: /** @type {"ring"} */ ("ring"),
    walls: false,
    // Only the tokens the answer is about (the caster, the targets): Foundry draws the others,
    // and the overlay must not ring a token the user may not see (unlisted is true by default).
    unlisted: false,
  };
  state.overlay?.detach();
  state.overlay = state.overlays.attach(state.element, options);
  state.drawn = null;
  if (main && state.last) draw(state.last.request);
  view = options;
  for (const other of state.others.values()) attachOther(other, others);
}

/** attach's options of the main overlay, which the others' overlays take too. @type {import("./overlay.js").OverlayOptions | null} */
let view = null;

/**
 * Lays another template's canvas and overlay over the board, as the main one's, and draws it
 * again (when `redraw`).
 * @param {Other} other
 * @param {boolean} [redraw]
 */
function attachOther(other, redraw = true) {
  if (!state.overlays || !view || !state.element) return;
  other.element ??= layer(`aoekit-overlay-${other.doc.id}`, state.element);
  other.overlay?.detach();
  other.overlay = state.overlays.attach(other.element, view);
  if (redraw && other.request) paint(other, other.request);
}

function detach() {
  showHighlight();
  view = null;
  state.overlay?.detach();
  state.overlay = null;
  state.element?.remove();
  state.element = null;
  for (const other of state.others.values()) {
    other.overlay?.detach();
    other.overlay = null;
    other.element?.remove();
    other.element = null;
    showOtherHighlight(other.doc);
  }
}

function clear() {
  showHighlight();
  state.drawn = null;
  state.template = null;
  state.preview = false;
  state.placeable = null;
  state.last = null;
  state.overlay?.clear();
}

/**
 * Shows a placed template besides the one the user works with (every template on the scene is
 * drawn, each on its own canvas): evaluated now and whenever the board changes.
 * @param {TemplateDocument | RegionDocument} doc
 */
function showOther(doc) {
  const id = doc.id;
  if (!id || state.template?.id === id) return;
  const other = state.others.get(id) ?? { doc, overlay: null, element: null, request: null };
  other.doc = doc;
  state.others.set(id, other);
  whenReady(() => {
    if (!other.overlay) attachOther(other);
    drawOther(other);
  });
}

/** Forgets another template shown (deleted, or now the user's). @param {string | null | undefined} id */
function dropOther(id) {
  const other = id ? state.others.get(id) : undefined;
  if (!other || !id) return;
  other.overlay?.detach();
  other.element?.remove();
  showOtherHighlight(other.doc);
  state.others.delete(id);
}

/**
 * Evaluates another template shown, with the tokens this user may see, and draws it (only when
 * the overlay draws: the others are shown, never targeted). One that cannot be evaluated, or
 * that this user may not see, is erased.
 * @param {Other} other
 */
function drawOther(other) {
  if (!other.overlay || !state.engine || !canvas?.ready || !canvas.scene) return;
  if (!shown(other.doc)) {
    other.request = null;
    other.overlay.clear();
    showOtherHighlight(other.doc);
    return;
  }
  let drawn;
  try {
    const { built, answer: got } = answerFor(other.doc, other.overlay, "none");
    other.request = built.request;
    drawn = got.drawn;
  } catch (err) {
    other.request = null;
    other.overlay.clear();
    showOtherHighlight(other.doc);
    console.debug("aoekit:", err);
    return;
  }
  otherHighlight(other.doc, !drawn);
}

/**
 * Draws another template again (after a pan or zoom attached its overlay anew): evaluated again
 * against the scene, as it is drawn.
 * @param {Other} other
 * @param {Request} request  its last evaluation's
 */
function paint(other, request) {
  if (!other.overlay) return;
  try {
    if (!once(request, other.overlay, "none").drawn) throw new Error("not drawn");
    otherHighlight(other.doc, false);
  } catch (err) {
    other.overlay.clear();
    showOtherHighlight(other.doc);
    console.debug("aoekit: overlay", err);
  }
}

/**
 * Foundry's highlight of another template shown: hidden while the overlay draws it, and shown
 * again only to a user who may see the template (Foundry hides a hidden template's highlight
 * from the others: MeasuredTemplate#_refreshState, highlightLayer.visible = this.visible).
 * @param {TemplateDocument | RegionDocument} doc
 * @param {boolean} visible
 */
function otherHighlight(doc, visible) {
  if (doc.documentName === "Region") return;
  const id = /** @type {TemplateDocument} */ (doc).object?.highlightId;
  const grid = /** @type {{getHighlightLayer?: (name: string) => {visible: boolean} | undefined} | undefined} */ (canvas?.interface?.grid);
  const found = id ? grid?.getHighlightLayer?.(id) : undefined;
  if (found) found.visible = visible && shown(doc);
}
const showOtherHighlight = (/** @type {TemplateDocument | RegionDocument} */ doc) => otherHighlight(doc, true);

// ---------------------------------------------------------------------------------------------
// Chat cards and dnd5e's cover statuses.

/** The engine's cover grades, as a card says them. */
const COVER_WORDS = /** @type {Readonly<Record<string, string>>} */ ({ none: "no cover", partial: "partial cover", half: "half cover", threeQuarters: "three-quarters cover", total: "total cover", full: "full cover", cover: "cover", lesser: "lesser cover", standard: "standard cover", greater: "greater cover" });
/**
 * dnd5e's cover statuses (CONFIG.DND5E.statusEffects in foundryvtt/dnd5e module/config.mjs:
 * coverHalf, coverThreeQuarters, coverTotal, exclusiveGroup "cover"), by the engine's dnd5e grade.
 */
export const DND5E_COVER = Object.freeze({ half: "coverHalf", threeQuarters: "coverThreeQuarters", total: "coverTotal" });

/** @param {string} text */
const escape = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The TokenDocument of the scene shown with this id. @param {string} id */
function tokenDoc(id) {
  const tokens = /** @type {{get?: (id: string) => foundry.documents.TokenDocument | undefined, contents?: foundry.documents.TokenDocument[]} | undefined} */ (canvas?.scene?.tokens);
  return tokens?.get?.(id) ?? tokens?.contents?.find((t) => t.id === id);
}

/**
 * Posts a placed template's chat cards: one for the table, listing the tokens in the area that
 * are not hidden (a player's client knows only those the player sees), and, when the area takes
 * in hidden tokens (only a GM's client knows them), one whispered to the GMs listing those. Each
 * row names the token, whether it is affected, its cover grade and bonus; the message's
 * `flags.aoekit.card` carries the same (the GM's client applies dnd5e's cover statuses from it).
 * @param {TemplateDocument | RegionDocument} template
 * @param {import("./foundry-types.js").Evaluation} last
 */
async function postCards(template, last) {
  const rows = last.targets.filter((t) => t.inArea);
  const hidden = rows.filter((t) => tokenDoc(t.id)?.hidden);
  const open = rows.filter((t) => !tokenDoc(t.id)?.hidden);
  const gms = (/** @type {{filter?: (fn: (u: User) => boolean) => User[]} | undefined} */ (game.users))?.filter?.((u) => u.isGM).map((u) => u.id) ?? [];
  const caster = last.casterId ? tokenDoc(last.casterId) : undefined;
  const Messages = /** @type {{create: (data: object) => Promise<unknown>}} */ (/** @type {unknown} */ (ChatMessage.implementation ?? ChatMessage));
  const speaker = caster ? ChatMessage.getSpeaker({ token: caster }) : ChatMessage.getSpeaker();
  /** @param {MergedTarget[]} list @param {boolean} secret */
  const card = (list, secret) => ({
    content: cardHtml(template, last, list, secret),
    speaker,
    ...(secret ? { whisper: gms } : {}),
    flags: { aoekit: { card: { template: template.id, rules: last.request.rules ?? null, notation: last.notation, cover: list.map((t) => ({ token: t.id, grade: t.cover ?? "none", bonus: t.bonus ?? 0, affected: t.affected })) } } },
  });
  await Messages.create(card(open, false));
  if (hidden.length && gms.length) await Messages.create(card(hidden, true));
}

/**
 * @param {TemplateDocument | RegionDocument} template
 * @param {import("./foundry-types.js").Evaluation} last
 * @param {MergedTarget[]} list
 * @param {boolean} secret
 */
function cardHtml(template, last, list, secret) {
  const name = /** @type {{name?: string}} */ (template).name;
  const title = `${escape(name ? `${name}: ` : "")}${escape(last.notation)}`;
  const body = list.map((t) => {
    const doc = tokenDoc(t.id);
    const grade = COVER_WORDS[t.cover ?? "none"] ?? t.cover ?? "";
    const what = t.affected ? "affected" : t.reason === "cover" ? "not affected: cover" : t.reason === "targeting" ? "not a target" : "not affected";
    return `<tr data-token-id="${escape(t.id)}"><td>${escape(doc?.name ?? t.id)}</td><td>${escape(what)}</td><td>${escape(grade)}</td><td>${t.bonus ? `+${t.bonus}` : ""}</td></tr>`;
  }).join("");
  const empty = list.length ? "" : "<p>No token in the area.</p>";
  return `<div class="aoekit-card"${secret ? ' data-gm-only="true"' : ""}><h3>${title}</h3>${secret ? "<p><em>Hidden tokens (GM only)</em></p>" : ""}${empty}${list.length ? `<table><thead><tr><th>Token</th><th></th><th>Cover</th><th>Bonus</th></tr></thead><tbody>${body}</tbody></table>` : ""}</div>`;
}

// A reader is never shown a row for a token they cannot see: a GM's card, posted for the
// table, lists the tokens that are not hidden, and one may be in a player's fog.
Hooks.on("renderChatMessageHTML", (message, html) => {
  if (game.user?.isGM || !/** @type {{aoekit?: {card?: unknown}}} */ (message.flags)?.aoekit?.card) return;
  for (const row of html.querySelectorAll("[data-token-id]")) {
    const doc = tokenDoc(/** @type {HTMLElement} */ (row).dataset.tokenId ?? "");
    if (!doc || !seen(doc)) row.remove();
  }
});

// dnd5e's cover statuses, applied by the active GM's client (a player may not change another's
// actor) from a card's flags, when the world setting is on: each token in the area gets the
// status of its cover grade and loses the other two.
Hooks.on("createChatMessage", (message) => {
  const card = /** @type {{aoekit?: {card?: {rules?: string | null, cover?: Array<{token: string, grade: string}>}}}} */ (message.flags)?.aoekit?.card;
  if (!card || card.rules !== "dnd5e" || game.system?.id !== "dnd5e" || !setting("coverStatus")) return;
  const activeGM = /** @type {{activeGM?: {id: string} | null} | undefined} */ (game.users)?.activeGM;
  if (!game.user?.isGM || (activeGM && activeGM.id !== game.user.id)) return;
  for (const { token, grade } of card.cover ?? []) applyCover(token, grade);
});

/** @param {string} id  a TokenDocument's @param {string} grade */
function applyCover(id, grade) {
  const actor = /** @type {{statuses?: Set<string>, toggleStatusEffect?: (id: string, options: {active: boolean}) => Promise<unknown>} | null | undefined} */ (tokenDoc(id)?.actor);
  if (!actor?.toggleStatusEffect) return;
  for (const [g, status] of Object.entries(DND5E_COVER)) {
    const want = g === grade;
    if (want !== !!actor.statuses?.has(status)) actor.toggleStatusEffect(status, { active: want })?.catch?.((/** @type {unknown} */ err) => console.debug("aoekit: cover status", err));
  }
}

/**
 * @param {string} key
 * @param {string} message
 */
function warnOnce(key, message) {
  if (state.warned.has(key)) return;
  state.warned.add(key);
  ui.notifications?.warn(`aoekit: ${message}`);
}

/** An error's message (or the thing thrown, when it has none). */
function messageOf(/** @type {unknown} */ err) {
  return (typeof err === "object" && err !== null && "message" in err ? err.message : undefined) ?? err;
}
