// aoekit for Foundry VTT v13: evaluates the measured template being placed, dragged or moved
// against the scene — its tokens, walls and doors — and shows which tokens it affects and the
// cover each has, drawn on a canvas over the board by the aoekit overlay; optionally targets
// them. Everything Foundry-specific lives here (Hooks, game.settings, canvas, ui); the mapping
// from Foundry's documents to aoekit requests is map.mjs (pure, tested). The module folder holds
// the npm package's loaders and modules beside this file (web/foundry/README.md, make foundry).
import { load } from "./index.js";
import { loadOverlay } from "./overlay.js";
import { SIDE_COLOURS, affectedIds, frameOf, mergeTargets, requestFor } from "./map.mjs";

const ID = "aoekit";

const state = {
  ready: null, // Promise of {engine, overlays}, started at "ready"
  engine: null,
  overlays: null, // loadOverlay()'s {attach}, once loaded
  overlaysLoading: null, // its Promise, while it loads (null again after a failure)
  overlay: null, // the attached overlay
  element: null, // its <canvas>
  template: null, // the MeasuredTemplateDocument (or a drag preview's) shown now
  last: null, // {request, result, targets, notation, casterId} of the last evaluation
  frame: 0, // a pending requestAnimationFrame
  again: { evaluate: false, attach: false },
  warned: new Set(),
};

const setting = (key) => game.settings.get(ID, key);

Hooks.once("init", () => {
  const refresh = () => schedule({ evaluate: true });
  game.settings.register(ID, "rules", {
    name: "aoekit: rule set",
    hint: "How templates are read and judged: TDGS (Cir, Con, Lin, Rec; cover from the origin), Draw Steel (circles are bursts, rays lines, square rectangles cubes; walls cut areas) or the 50 % circle.",
    scope: "world",
    config: true,
    type: String,
    choices: { tdgs: "TDGS", drawsteel: "Draw Steel", circle50: "50 % circle" },
    default: "tdgs",
    onChange: refresh,
  });
  game.settings.register(ID, "autoTarget", {
    name: "aoekit: target the affected tokens",
    hint: "When you place or move a template, target the tokens it affects (those behind full cover are left out), and only those.",
    scope: "client",
    config: true,
    type: Boolean,
    default: true,
  });
  game.settings.register(ID, "overlay", {
    name: "aoekit: draw the area and cover",
    hint: "Draw the template's squares, a ring on each token it touches and its cover badge over the board.",
    scope: "client",
    config: true,
    type: Boolean,
    default: true,
    onChange: () => {
      detach();
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
  state.ready.catch((err) => warnOnce("load", `the engine could not load: ${err?.message ?? err}`));
  const module = game.modules?.get(ID);
  if (module) module.api = api;
});

async function start() {
  state.engine = await load();
  if (setting("overlay")) await loadOverlays();
  schedule({ attach: true, evaluate: true });
  return state;
}

// loadOverlays loads aoekit-overlay.wasm once, when drawing is on; without it the answers are
// still given (targets, the aoekit.evaluated hook).
function loadOverlays() {
  state.overlaysLoading ??= loadOverlay().then(
    (overlays) => {
      state.overlays = overlays;
      schedule({ attach: true });
    },
    (err) => {
      state.overlaysLoading = null;
      warnOnce("overlay", `the overlay could not load (${err?.message ?? err}); targets are still set`);
    },
  );
  return state.overlaysLoading;
}

// The public handle: game.modules.get("aoekit").api.
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
  /** Evaluates a MeasuredTemplateDocument now (after ready) and shows it; returns the last evaluation. */
  evaluate: (template, { target = false } = {}) => {
    state.template = template;
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

// A template placed or moved: evaluated, and its author's client targets what it affects.
for (const hook of ["createMeasuredTemplate", "updateMeasuredTemplate"]) {
  Hooks.on(hook, (doc, ...rest) => {
    if (doc.parent && canvas.scene && doc.parent !== canvas.scene) return;
    const userId = rest[rest.length - 1];
    const mine = userId === game.user?.id;
    if (!mine && state.template?.id !== doc.id) return;
    state.template = doc;
    whenReady(() => evaluate({ target: mine, notify: mine }));
  });
}

// A template being drawn or dragged: its preview is evaluated as it moves.
Hooks.on("refreshMeasuredTemplate", (template) => {
  if (!template?.isPreview || !template.document) return;
  state.template = template.document;
  schedule({ evaluate: true });
});

Hooks.on("deleteMeasuredTemplate", (doc) => {
  if (state.template?.id === doc.id) clear();
});

// The board changed under the template shown: evaluated again.
for (const hook of ["createToken", "updateToken", "deleteToken", "createWall", "updateWall", "deleteWall"]) {
  Hooks.on(hook, () => {
    if (state.template) schedule({ evaluate: true });
  });
}

function whenReady(fn) {
  state.ready?.then(fn, () => {}); // a failed load is reported once, at "ready"
}

// schedule coalesces work into the next animation frame (a drag refreshes many times a frame).
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

function sceneData() {
  const scene = canvas.scene;
  const grid = canvas.grid ?? scene.grid;
  return { grid: { size: grid.size, distance: grid.distance ?? scene.grid?.distance, type: grid.type ?? scene.grid?.type }, dimensions: canvas.dimensions };
}

function evaluate({ target, notify }) {
  const template = state.template;
  if (!state.engine || !template || !canvas?.ready || !canvas.scene) return;
  let built;
  let result;
  try {
    built = requestFor({
      scene: sceneData(),
      tokens: canvas.scene.tokens.contents,
      walls: canvas.scene.walls.contents,
      template,
      rules: setting("rules"),
      casterId: canvas.tokens?.controlled?.[0]?.document?.id,
      includeHidden: !!game.user?.isGM,
    });
    result = state.engine.evaluate(built.request);
  } catch (err) {
    state.last = null;
    state.overlay?.clear();
    if (notify) ui.notifications?.warn(`aoekit: ${err?.message ?? err}`);
    else console.debug("aoekit:", err);
    return;
  }
  const targets = mergeTargets(result.targets, built);
  state.last = { request: built.request, result, targets, notation: built.notation, casterId: built.casterId };
  draw(built.request);
  if (target && setting("autoTarget")) canvas.tokens?.setTargets?.(affectedIds(targets), { mode: "replace" });
  Hooks.callAll("aoekit.evaluated", { template, ...state.last });
}

function draw(request) {
  if (!state.overlay) return;
  try {
    state.overlay.draw(request, { level: request.origin?.z ?? request.caster?.z ?? 0, lines: setting("coverLines") ? "all" : "none" });
  } catch (err) {
    state.overlay.clear();
    console.debug("aoekit: overlay", err);
  }
}

// attach lays the overlay's canvas over the board, at the board's pan and zoom: square (0, 0)'s
// corner where the stage puts it, squares grid.size × the zoom across. A pan or zoom attaches it
// again (attach options are fixed per overlay).
function attach() {
  if (!setting("overlay") || !canvas?.ready || !canvas.scene) return;
  if (!state.overlays) {
    loadOverlays();
    return;
  }
  let frame;
  try {
    frame = frameOf(sceneData());
  } catch (err) {
    warnOnce(`grid:${canvas.scene.id}`, err.message);
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
  const scale = canvas.stage.scale.x;
  const at = canvas.stage.toGlobal({ x: frame.originX, y: frame.originY });
  state.overlay?.detach();
  state.overlay = state.overlays.attach(state.element, {
    cellSize: Math.min(1000, Math.max(0.01, frame.size * scale)),
    offset: { x: at.x, y: at.y },
    colours: { sides: SIDE_COLOURS },
    tokens: "ring",
    walls: false,
  });
  if (state.last) draw(state.last.request);
}

function detach() {
  state.overlay?.detach();
  state.overlay = null;
  state.element?.remove();
  state.element = null;
}

function clear() {
  state.template = null;
  state.last = null;
  state.overlay?.clear();
}

function warnOnce(key, message) {
  if (state.warned.has(key)) return;
  state.warned.add(key);
  ui.notifications?.warn(`aoekit: ${message}`);
}
