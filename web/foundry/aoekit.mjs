// aoekit for Foundry VTT v13: evaluates the measured template (or the region flagged as an area)
// being placed, dragged or moved against the scene — its tokens, walls and doors — and shows
// which tokens it affects and the cover each has, drawn on a canvas over the board by the
// aoekit overlay; optionally targets them. Everything Foundry-specific lives here (Hooks,
// game.settings, canvas, ui); the mapping from Foundry's documents to aoekit requests is map.mjs
// (pure, tested). The module folder holds the npm package's loaders and modules beside this file
// (web/foundry/README.md, make foundry).
// Typed with JSDoc against @league-of-foundry-developers/foundry-vtt-types (Foundry v13's
// globals: Hooks, game, canvas, ui, foundry.documents), checked by `tsc -p web/foundry`
// (make test-foundry-types); what the module adds to them (settings, api, hook) is declared in
// foundry-types.ts.
import { load } from "./index.js";
import { loadOverlay } from "./overlay.js";
import { ORIGIN_ID, SIDE_COLOURS, affectedIds, frameOf, mergeTargets, metricOf, requestFor, rulesFor } from "./map.mjs";

/** @import { Engine, Request } from "./index.js" */
/** @import { Built } from "./map.mjs" */
/** @import { Overlay, OverlayModule } from "./overlay.js" */
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
 * @property {Engine | null} engine
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
 * @property {number | ReturnType<typeof setTimeout>} frame
 * @property {{evaluate: boolean, attach: boolean}} again
 * @property {Set<string>} warned
 */

const ID = "aoekit";

/** @type {State} */
const state = {
  ready: null, // Promise of {engine, overlays}, started at "ready"
  engine: null,
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
  frame: 0, // a pending requestAnimationFrame
  again: { evaluate: false, attach: false },
  warned: new Set(),
};

/**
 * A setting's value.
 * @template {"rules" | "walls" | "autoTarget" | "overlay" | "coverLines"} K
 * @param {K} key
 */
const setting = (key) => game.settings.get(ID, key);

Hooks.once("init", () => {
  const refresh = () => schedule({ evaluate: true });
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
      schedule({ attach: true, evaluate: true });
    },
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

/** @returns {Promise<State>} */
async function start() {
  state.engine = await load();
  if (setting("overlay")) await loadOverlays();
  schedule({ attach: true, evaluate: true });
  return state;
}

// loadOverlays loads aoekit-overlay.wasm once, when drawing is on; without it the answers are
// still given (targets, the aoekit.evaluated hook).
/** @returns {Promise<void>} */
function loadOverlays() {
  state.overlaysLoading ??= loadOverlay().then(
    (overlays) => {
      state.overlays = overlays;
      schedule({ attach: true });
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
  /** The engine (web/index.js's), once ready. */
  get engine() {
    return state.engine;
  },
  /** The last evaluation: {request, result, targets, notation, casterId}. */
  get last() {
    return state.last;
  },
  /**
   * Evaluates a MeasuredTemplateDocument (or a RegionDocument of one circle or rectangle) now
   * (after ready) and shows it; returns the last evaluation.
   * @param {TemplateDocument | RegionDocument} template
   * @param {{target?: boolean}} [options]  target: auto-target what it affects (when the setting is on)
   */
  evaluate: (template, { target = false } = {}) => {
    state.template = template;
    state.preview = false;
    state.placeable = null;
    evaluate({ target, notify: true });
    return state.last;
  },
  /** Forgets the template shown and erases the drawing. */
  clear,
});

Hooks.on("canvasReady", () => {
  clear();
  detach();
  schedule({ attach: true });
});
Hooks.on("canvasTearDown", () => {
  clear();
  detach();
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
const REGION_FIELDS = ["shapes", "elevation"];

/**
 * reshaped reports whether an update's changes (Foundry's diff) touch what the evaluation
 * reads; changes of an unknown form count as a move.
 * @param {unknown} changes
 * @param {string[]} fields
 */
function reshaped(changes, fields) {
  if (changes === null || typeof changes !== "object") return true;
  const flags = /** @type {{flags?: {levels?: unknown, aoekit?: unknown}}} */ (changes).flags;
  return Object.keys(changes).some((k) => fields.includes(k) || /^flags\.(levels|aoekit)(\.|$)/.test(k)) ||
    flags?.levels !== undefined || flags?.aoekit !== undefined;
}

/**
 * @param {TemplateDocument | RegionDocument} doc
 * @param {string} userId  the user who placed or moved it
 */
function placed(doc, userId) {
  if (doc.parent && canvas.scene && doc.parent !== canvas.scene) return;
  const mine = userId === game.user?.id;
  if (!mine && state.template?.id !== doc.id) return;
  state.template = doc;
  state.preview = false;
  state.placeable = null;
  whenReady(() => evaluate({ target: mine, notify: mine }));
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
});

// A region flagged as an area (flags.aoekit.area: true) placed or changed: read as a template
// (one circle or rectangle, map.mjs regionShape). Other regions (terrain, teleporters…) are left
// alone.
Hooks.on("createRegion", (doc, _options, userId) => {
  if (isArea(doc)) placed(doc, userId);
});
Hooks.on("updateRegion", (doc, changes, _options, userId) => {
  if (isArea(doc)) {
    if (reshaped(changes, REGION_FIELDS)) placed(doc, userId);
    else if (state.template?.id === doc.id) state.template = doc;
  } else if (state.template?.id === doc.id) clear(); // the flag was taken off
});
Hooks.on("deleteRegion", (doc) => {
  if (state.template?.id === doc.id) clear();
});

/** @param {RegionDocument} doc */
function isArea(doc) {
  return doc.flags?.aoekit?.area === true;
}

// The board changed under the template shown: evaluated again.
const again = () => {
  if (state.template) schedule({ evaluate: true });
};
Hooks.on("createToken", again);
Hooks.on("updateToken", again);
Hooks.on("deleteToken", again);
Hooks.on("createWall", again);
Hooks.on("updateWall", again);
Hooks.on("deleteWall", again);
// What a player sees changed (their token moved, a door opened, a token left the fog): the
// tokens they may be shown are others.
Hooks.on("sightRefresh", () => {
  if (!game.user?.isGM) again();
});

/** @param {() => void} fn */
function whenReady(fn) {
  state.ready?.then(fn, () => {}); // a failed load is reported once, at "ready"
}

// schedule coalesces work into the next animation frame (a drag refreshes many times a frame).
/** @param {{attach?: boolean, evaluate?: boolean}} what */
function schedule(what) {
  if (what.attach) state.again.attach = true;
  if (what.evaluate) state.again.evaluate = true;
  if (state.frame || !state.ready) return;
  const run = () => {
    state.frame = 0;
    const { attach: a, evaluate: e } = state.again;
    state.again = { attach: false, evaluate: false };
    if (a) attach();
    if (e) evaluate({ target: false, notify: false });
    else if (a && state.last) draw(state.last.request);
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
 * Whether this user may be shown a template: a hidden one only to the GM and its author.
 * @param {TemplateDocument | RegionDocument} doc
 */
function shown(doc) {
  if (game.user?.isGM || doc.documentName === "Region") return true;
  const template = /** @type {TemplateDocument} */ (doc);
  return !template.hidden || template.isAuthor;
}

/** @param {{target: boolean, notify: boolean}} how  target: auto-target (when the setting is on); notify: say why it failed */
function evaluate({ target, notify }) {
  const template = state.template;
  const scene = canvas?.scene;
  if (!state.engine || !template || !canvas?.ready || !scene) return;
  if (!shown(template)) {
    clear();
    return;
  }
  let built;
  let result;
  try {
    const grid = /** @type {{diagonals?: number} | null} */ (canvas.grid);
    built = requestFor({
      scene: sceneData(scene),
      tokens: scene.tokens.contents.filter(seen),
      walls: scene.walls.contents,
      ...(template.documentName === "Region" ? { region: /** @type {RegionDocument} */ (template) } : { template: /** @type {TemplateDocument} */ (template) }),
      rules: rulesFor(setting("rules"), game.system?.id),
      metric: metricOf(grid?.diagonals),
      casterId: canvas.tokens?.controlled?.[0]?.document?.id,
      sense: setting("walls"),
    });
    ({ built, result } = answer(state.engine, built));
  } catch (err) {
    state.last = null;
    state.overlay?.clear();
    showHighlight();
    if (notify) ui.notifications?.warn(`aoekit: ${messageOf(err)}`);
    else console.debug("aoekit:", err);
    return;
  }
  const targets = mergeTargets(result.targets, built);
  const notation = result.template?.notation ?? built.notation;
  state.last = { request: built.request, result, targets, notation, casterId: built.casterId };
  draw(built.request);
  // Where the declarations are wrong: TokenLayer#setTargets(ids, {mode}) is Foundry v13's (it
  // supersedes User#updateTokenTargets), but foundry-vtt-types 13.345.1 lacks it, so it is
  // declared here, optional (and called only when present).
  const layer = /** @type {foundry.canvas.layers.TokenLayer & {setTargets?: (ids: string[], options: {mode: "replace"}) => void} | undefined} */ (canvas.tokens);
  if (target && setting("autoTarget")) layer?.setTargets?.(affectedIds(targets), { mode: "replace" });
  Hooks.callAll("aoekit.evaluated", { template, ...state.last });
}

/**
 * The engine's answer to a request. A point-origin area placed where its caster has no line of
 * effect (behind a wall from it) is refused by the rules (SPEC §10.4); the template is where the
 * user drew it all the same, so it is evaluated again without a caster — the caster joining the
 * other tokens.
 * @param {Engine} engine
 * @param {Built} built
 * @returns {{built: Built, result: ReturnType<Engine["evaluate"]>}}
 */
function answer(engine, built) {
  try {
    return { built, result: engine.evaluate(built.request) };
  } catch (err) {
    const { caster, point, tokens = [], targeting, ...rest } = built.request;
    const code = typeof err === "object" && err !== null && "code" in err ? err.code : undefined;
    if (code !== "no_line_of_effect" || !caster || !point) throw err;
    /** @type {Request} */
    const request = { ...rest, point, tokens: [...tokens, ...(caster.id === ORIGIN_ID ? [] : [caster])] };
    const again = { ...built, request, casterId: null };
    return { built: again, result: engine.evaluate(request) };
  }
}

/** @param {Request} request */
function draw(request) {
  if (!state.overlay) {
    showHighlight();
    return;
  }
  const level = request.origin?.z ?? (request.point ? Math.floor(request.point.z ?? 0) : undefined) ?? request.caster?.z ?? 0;
  try {
    state.overlay.draw(request, { level, lines: setting("coverLines") ? "all" : "none" });
  } catch (err) {
    state.overlay.clear();
    showHighlight();
    console.debug("aoekit: overlay", err);
    return;
  }
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

// attach lays the overlay's canvas over the board, at the board's pan and zoom: square (0, 0)'s
// corner where the stage puts it, squares grid.size × the zoom across. A pan or zoom attaches it
// again (attach options are fixed per overlay).
function attach() {
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
  if (!state.element) {
    const el = document.createElement("canvas");
    el.id = "aoekit-overlay";
    const board = document.getElementById("board");
    const z = board ? getComputedStyle(board).zIndex : "auto";
    Object.assign(el.style, { position: "fixed", left: "0", top: "0", width: "100%", height: "100%", pointerEvents: "none", zIndex: z });
    if (board) board.after(el);
    else document.body.append(el);
    state.element = el;
  }
  const scale = stage.scale.x;
  const at = stage.toGlobal({ x: frame.originX, y: frame.originY });
  state.overlay?.detach();
  state.overlay = state.overlays.attach(state.element, {
    cellSize: Math.min(1000, Math.max(0.01, frame.size * scale)),
    offset: { x: at.x, y: at.y },
    colours: { sides: SIDE_COLOURS },
    tokens: "ring",
    walls: false,
    // Only the tokens the answer is about (the caster, the targets): Foundry draws the others,
    // and the overlay must not ring a token the user may not see (unlisted is true by default).
    unlisted: false,
  });
  if (state.last) draw(state.last.request);
}

function detach() {
  showHighlight();
  state.overlay?.detach();
  state.overlay = null;
  state.element?.remove();
  state.element = null;
}

function clear() {
  showHighlight();
  state.template = null;
  state.preview = false;
  state.placeable = null;
  state.last = null;
  state.overlay?.clear();
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
