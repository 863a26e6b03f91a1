// The engine's Web Worker (a module worker): loadWorker (worker.js) starts it, and it runs
// aoekit.wasm with load() — the engine of index.js, unchanged — answering the page's messages.
// It is the package's, not an API: the messages below may change with the package.
//
// A message from the page is {id, method, args}; the answer is {id, ok: value} or {id, error:
// {aoekit, code, message, at, field} | {name, message}}. Requests come as JSON text, made by the page
// with the JSON.stringify the engine itself uses, and are parsed here for the engine, which
// makes the same text of them again: so the worker's answers and errors are the engine's for
// the same request, byte for byte. evaluateCells' Int32Array is transferred, not copied.
//
// attachOverlay's canvases come as OffscreenCanvases (transferControlToOffscreen) and are drawn
// on here by aoekit-overlay.wasm (overlay.js, imported on first use).
import { AoekitError, load } from "./index.js";

let engine = null;
const scenes = new Map(); // id → a scene of the engine
const overlays = new Map(); // id → { canvas, options, overlay }
let nextId = 1;
let overlayJS = null; // import("./overlay.js"), once

// board is what the page sent for scene(board) or scene.update(edit): a value that is not an
// object as it is (the engine's error names it), an object's JSON and its packed obstacles.
function board(arg) {
  if (arg === null || typeof arg !== "object" || !("json" in arg)) return arg?.raw;
  const value = JSON.parse(arg.json);
  return arg.obstacles === undefined ? value : { ...value, obstacles: arg.obstacles };
}

function sceneOf(id) {
  const s = scenes.get(id);
  if (s === undefined) throw new AoekitError("bad_request", "aoekit worker: no such scene");
  return s;
}

function overlayOf(id) {
  const o = overlays.get(id);
  if (o === undefined) throw new AoekitError("bad_request", "aoekit worker: no such overlay");
  return o;
}

async function attach(canvas, options, wasm) {
  overlayJS ??= import("./overlay.js");
  const { attachOverlay } = await overlayJS;
  return attachOverlay(canvas, { ...options, wasm });
}

const methods = {
  async load(options) {
    engine = await load(options);
    return null;
  },
  parse: (json) => {
    const { text, rules } = JSON.parse(json);
    return engine.parse(text, { rules });
  },
  evaluate: (json) => engine.evaluate(JSON.parse(json)),
  evaluateCells: (json) => engine.evaluateCells(JSON.parse(json)),
  move: (json) => engine.move(JSON.parse(json)),
  cover: (json) => engine.cover(JSON.parse(json)),
  fullAttack: (json) => engine.fullAttack(JSON.parse(json)),
  version: () => engine.version(),
  scene(arg) {
    const scene = engine.scene(board(arg));
    const id = nextId++;
    scenes.set(id, scene);
    return id;
  },
  sceneUpdate: (id, arg) => sceneOf(id).update(board(arg)),
  sceneEvaluate: (id, json) => sceneOf(id).evaluate(JSON.parse(json)),
  sceneEvaluateCells: (id, json) => sceneOf(id).evaluateCells(JSON.parse(json)),
  sceneDispose(id) {
    const scene = scenes.get(id);
    scenes.delete(id);
    scene?.dispose();
  },
  // overlayCheck attaches the options to a scratch OffscreenCanvas: the module loads and checks
  // them before the page gives up its canvas, which it could not take back.
  async overlayCheck(options, wasm) {
    (await attach(new OffscreenCanvas(1, 1), options, wasm)).dispose();
    return null;
  },
  async overlayAttach(canvas, options, wasm) {
    const overlay = await attach(canvas, options, wasm);
    const id = nextId++;
    overlays.set(id, { canvas, options, wasm, overlay });
    return id;
  },
  // overlayUpdate draws; size, when the page's canvas changed its CSS size or the window its
  // device pixel ratio, first attaches the canvas again with them.
  async overlayUpdate(id, json, view, size) {
    const o = overlayOf(id);
    if (size !== undefined) {
      o.overlay.dispose();
      o.options = { ...o.options, ...size };
      o.overlay = await attach(o.canvas, o.options, o.wasm);
    }
    return o.overlay.update(JSON.parse(json), view);
  },
  overlayClear: (id) => overlayOf(id).overlay.clear(),
  overlayCellAt: (id, px, py) => overlayOf(id).overlay.cellAt(px, py),
  overlayPixelOf: (id, x, y) => overlayOf(id).overlay.pixelOf(x, y),
  overlayDispose(id) {
    const o = overlays.get(id);
    overlays.delete(id);
    o?.overlay.dispose();
  },
};

// Messages are answered one at a time, in order: a call that waits (a module loading) holds the
// ones after it, so that every call sees the state the calls before it left.
let queue = Promise.resolve();
self.addEventListener("message", (event) => {
  const { id, method, args } = event.data ?? {};
  if (typeof id !== "number") return; // no id: nothing could take an answer
  if (typeof method !== "string" || !Object.hasOwn(methods, method) || !Array.isArray(args)) {
    // Answered, never dropped: a caller waiting for it would wait for ever.
    const what = typeof method === "string" && Object.hasOwn(methods, method) ? `${method}: its arguments must be an array` : `unknown method ${JSON.stringify(String(method)).slice(0, 80)}`;
    queue = queue.then(() => self.postMessage({ id, error: wireError(new AoekitError("bad_request", `aoekit worker: ${what}`)) }));
    return;
  }
  queue = queue.then(() => answer(id, method, args));
});

async function answer(id, method, args) {
  let value;
  try {
    value = await methods[method](...args);
  } catch (err) {
    self.postMessage({ id, error: wireError(err) });
    return;
  }
  try {
    if (value instanceof Int32Array) {
      // Its own buffer (the engine's always is), handed over rather than copied.
      const cells = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
      self.postMessage({ id, ok: cells }, [cells.buffer]);
    } else {
      self.postMessage({ id, ok: value });
    }
  } catch (err) {
    self.postMessage({ id, error: wireError(err) });
  }
}

// wireError is an error as the page rebuilds it: an AoekitError's code, message and at, or
// another error's name and message.
function wireError(err) {
  if (err instanceof AoekitError) return { aoekit: true, code: err.code, message: err.message, at: err.at, field: err.field };
  return { name: typeof err?.name === "string" ? err.name : "Error", message: String(err?.message ?? err) };
}
