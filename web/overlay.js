// aoekit overlay: the engine and a renderer in one WebAssembly module (aoekit-overlay.wasm),
// which evaluates a request and draws its answer on a <canvas> as the demo draws it.
// `attachOverlay(canvas, options)` attaches one to a canvas, loading the module once per page;
// `loadOverlay()` instantiates a module of one's own. Either way the module's engine comes
// along — the same functions and answers as `load()`'s, scenes included — and a draw can take
// its request against one of that engine's scenes (`{ scene }` in the view), so that only the
// template, caster and origin cross each frame. See overlay.d.ts and CONTRACT.md ("The
// overlay").
import { callArgs, canvasOf, checkSize, codedError, compileEarly, encode, engineOf, fetchSource, instantiate, internalError, loadGo, moduleError, newGo, newScene, runModule, warmUpLater } from "./internal/wasm.js";

// index.js's error class, as far as instanceof can tell (internal/wasm.js says why a copy).
export { AoekitError } from "./internal/wasm.js";

// The global under which the module finds the object to register its functions on
// (wasm/overlay/main_js.go); it exists only while the module's main runs.
const HANDSHAKE = "__aoekitOverlay";

// Functions every aoekit-overlay.wasm registers, and the answers each gives on success: the
// engine's, as aoekit.wasm registers them (wasm/internal/jsapi), and the overlay's own.
const isAnswer = (out) => typeof out === "string" || out instanceof Uint8Array;
const EXPORTS = {
  parse: isAnswer, evaluate: isAnswer, evaluateCells: isAnswer, move: isAnswer, cover: isAnswer, fullAttack: isAnswer,
  version: isAnswer, sceneNew: isAnswer, sceneUpdate: isAnswer, sceneEvaluate: isAnswer, sceneEvaluateCells: isAnswer,
  sceneDispose: isAnswer,
  attach: (out) => Number.isSafeInteger(out) && out > 0,
  draw: (out) => typeof out === "string",
  result: (out) => out === null || typeof out === "string",
  clear: (out) => out === undefined || out === null,
  detach: (out) => out === undefined || out === null,
  cellAt: isPoint,
  pixelOf: isPoint,
};

function isPoint(out) {
  return out !== null && typeof out === "object" && typeof out.x === "number" && typeof out.y === "number";
}

// The modules attachOverlay loaded, by source (the default's key is DEFAULT; a string, a URL's
// href, a WebAssembly.Module): a promise of each, so that a page (or a worker) instantiates a
// module once however many canvases it draws on. Bytes and a Response are not kept: each
// attachOverlay given one loads its own instance.
const modules = new Map();
const DEFAULT = Symbol("aoekit-overlay.wasm");

function shared(wasm) {
  const key = wasm === undefined || wasm === null ? DEFAULT
    : typeof wasm === "string" || wasm instanceof WebAssembly.Module ? wasm
    : wasm instanceof URL ? wasm.href : null;
  if (key === null) return loadOverlay({ wasm });
  let loading = modules.get(key);
  if (loading === undefined) {
    loading = loadOverlay(key === DEFAULT ? {} : { wasm });
    modules.set(key, loading);
    // A module that failed to load is not kept: the next attachOverlay tries again.
    loading.catch(() => modules.get(key) === loading && modules.delete(key));
  }
  return loading;
}

/**
 * Attaches an overlay to a canvas (a `<canvas>`, an OffscreenCanvas, or the 2-D context of
 * either), loading aoekit-overlay.wasm once per page for every overlay attached this way.
 * @param {HTMLCanvasElement | OffscreenCanvas | CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} target
 * @param {import("./overlay.js").AttachOverlayOptions} [options]
 * @returns {Promise<import("./overlay.js").AttachedOverlay>}
 */
export async function attachOverlay(target, options) {
  // onTargets and wasm are this function's; the rest are attach's options, which the module
  // reads and checks (so anything but an object is its error to report).
  let attachOptions = options;
  let onTargets;
  let wasm;
  if (options !== null && typeof options === "object" && !Array.isArray(options)) {
    ({ onTargets, wasm, ...attachOptions } = options);
  }
  if (onTargets !== undefined && onTargets !== null && typeof onTargets !== "function") {
    throw codedError("bad_request", `attach: options.onTargets: expected a function, got ${typeof onTargets}`);
  }
  const overlays = await shared(wasm);
  const overlay = overlays.attach(canvasOf(target), attachOptions);
  let disposed = false;
  const live = (name) => {
    if (disposed) throw codedError("bad_request", `aoekit overlay: ${name} after dispose: this overlay was disposed; attach the canvas again`);
  };
  return Object.freeze({
    update(request, view) {
      live("update");
      const summary = overlay.draw(request, view);
      if (onTargets) onTargets(summary.targets);
      return summary;
    },
    clear() {
      live("clear");
      overlay.clear();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      overlay.detach();
    },
    cellAt(px, py) {
      live("cellAt");
      return overlay.cellAt(px, py);
    },
    pixelOf(x, y) {
      live("pixelOf");
      return overlay.pixelOf(x, y);
    },
    result() {
      live("result");
      return overlay.result();
    },
    engine: overlays.engine,
  });
}

/**
 * Instantiates aoekit-overlay.wasm and resolves to an object whose attach(canvas, options)
 * attaches an overlay to a canvas.
 * @param {import("./overlay.js").LoadOverlayOptions} [options]
 * @returns {Promise<import("./overlay.js").OverlayModule>}
 */
export async function loadOverlay(options = {}) {
  if (options !== null && typeof options !== "object") {
    throw new TypeError("aoekit: loadOverlay(options) takes an object, such as { wasm: url }");
  }
  // The module downloads, and compiles as it arrives (compileEarly), while wasm_exec.js is
  // imported; a failure of either is loadOverlay()'s, and the other's is not left unhandled.
  const early = fetchSource(options?.wasm ?? new URL("./aoekit-overlay.wasm", import.meta.url)).then(compileEarly);
  early.catch(() => {});
  await loadGo();
  const go = newGo();
  const { module, instance } = await instantiate(early, go.runtime.importObject, "aoekit-overlay.wasm");
  const runtime = new Runtime(module);
  runtime.start(go, instance);
  const engine = runtime.engine();
  // The warm-up (internal/wasm.js warmUpLater) runs after loadOverlay() resolves, a call at a
  // time when the page is idle, as load()'s does: the first draw does not wait for it.
  warmUpLater(engine);
  return Object.freeze({ attach: (canvas, opts) => runtime.attach(canvas, opts), engine });
}

// A Runtime owns one running Go instance of the compiled module and the overlays attached
// through it. When the instance stops (a trap, an exit), the next call starts a fresh one and
// attaches every overlay that was not detached again, with the options it was attached with:
// a handle held by JavaScript never outlives its instance.
class Runtime {
  #module;
  #go = null; // newGo's handle of the running instance
  #fns = null; // the functions main registered; null when the instance must be replaced
  #maxBody = 0;
  #generation = 0; // how many instances have started: a scene belongs to one
  #views = new Set(); // the attached overlays: { canvas, options, handle, saved }
  #scenes = new WeakMap(); // the engine's scenes (the objects engine.scene returned) → { id, generation, disposed }

  constructor(module) {
    this.#module = module;
  }

  start(go, instance) {
    const fns = runModule(go, instance, HANDSHAKE, Object.keys(EXPORTS), "aoekit-overlay.wasm");
    this.#go = go;
    this.#fns = fns;
    this.#maxBody = fns.maxBody;
    this.#generation++;
  }

  // #fail retires the running instance (once: a failure may unwind through nested calls).
  #fail() {
    this.#fns = null;
    this.#go?.stop();
    this.#go = null;
  }

  // #live makes sure an instance runs: a failed one is replaced by a fresh one, on which every
  // attached overlay is attached again (one that cannot be keeps the error, thrown at its next use).
  #live() {
    if (this.#fns !== null && (this.#go.failed || this.#go.runtime.exited)) this.#fail();
    if (this.#fns !== null) return;
    try {
      const go = newGo();
      this.start(go, new WebAssembly.Instance(this.#module, go.runtime.importObject));
    } catch (cause) {
      throw internalError(`the overlay could not restart (${cause?.message ?? cause})`);
    }
    for (const view of this.#views) {
      view.handle = 0;
      view.broken = null;
      try {
        view.handle = this.#call("attach", view.canvas, view.options);
      } catch (err) {
        view.broken = err;
        if (this.#fns === null) throw err; // the fresh instance failed too
      }
    }
  }

  // #call calls the module's function name on a running instance; it returns its answer or
  // throws its Error. When the instance fails underneath, it throws an internal error and the
  // next call runs on a fresh instance.
  #call(name, ...args) {
    let out;
    try {
      out = this.#fns[name](...args);
    } catch (cause) {
      this.#fail();
      throw internalError(`the overlay stopped (${cause?.message ?? cause}) and will restart`);
    }
    if (this.#go === null) throw internalError("the overlay stopped during the call and will restart");
    if (this.#go.runtime.exited) {
      const code = this.#go.runtime.exitCode;
      this.#fail();
      throw internalError(`the overlay exited (code ${code}) and will restart`);
    }
    if (out instanceof Error && typeof out.code === "string") throw moduleError(out);
    if (EXPORTS[name](out)) return out;
    this.#fail();
    throw internalError(`the overlay answered ${typeof out} and will restart`);
  }

  // call calls name for an attached overlay: with its handle first.
  call(view, name, ...args) {
    if (view.detached) detached(name);
    this.#live();
    if (view.broken) throw view.broken;
    return this.#call(name, view.handle, ...args);
  }

  // #engineCall calls one of the engine's functions, as load()'s engine does (web/index.js): a
  // body past the module's maxBody is refused before it crosses into Go, an instance that
  // failed is replaced (the overlays attached again), and a scene's call (extra: [id, packed
  // bytes, generation]) is refused when the instance its scene was made on no longer runs; a
  // board's (evaluate's, extra: [packed bytes]) goes with its packed obstacles (callArgs).
  #engineCall(name, body, ...extra) {
    if (body !== undefined) checkSize(name, body, this.#maxBody);
    this.#live();
    if (extra.length > 2 && extra[2] !== this.#generation) restarted();
    return this.#call(name, ...callArgs(name, body, extra));
  }

  // engine is the module's engine: load()'s Engine (index.d.ts), on this instance. Its scenes
  // are kept, so that draw can draw from them.
  engine() {
    const call = (...args) => this.#engineCall(...args);
    return engineOf(call, this.#maxBody, (board) => {
      const { scene, info } = newScene(board, call, () => this.#generation, () => this.#fns !== null);
      this.#scenes.set(scene, info);
      return scene;
    });
  }

  // #sceneOf is the id of view.scene, a scene of this instance's engine, checked; undefined
  // without one.
  #sceneOf(scene) {
    if (scene === undefined || scene === null) return undefined;
    const info = this.#scenes.get(scene);
    if (info === undefined) {
      throw codedError("bad_request", "draw: view.scene: not a scene of this overlay module's engine: make it with the engine loadOverlay() or attachOverlay() gives (engine.scene(board))");
    }
    if (info.disposed) throw codedError("bad_request", "draw: view.scene: the scene was disposed");
    if (info.generation !== this.#generation) restarted();
    return info.id;
  }

  attach(canvas, options) {
    this.#live();
    // What to restore at detach, read before the module changes it (a value that is not a
    // canvas is refused by the module).
    const before = canvas !== null && typeof canvas === "object" && typeof canvas.style === "object" ? saved(canvas) : null;
    const view = { canvas, options, handle: 0, broken: null, detached: false, saved: before };
    view.handle = this.#call("attach", canvas, options);
    this.#views.add(view);
    const api = {
      draw: (request, v) => {
        if (view.detached) detached("draw");
        let scene;
        if (v !== null && typeof v === "object" && !Array.isArray(v) && "scene" in v) ({ scene, ...v } = v);
        const body = encode(request);
        checkSize("draw", body, this.#maxBody);
        this.#live();
        const id = this.#sceneOf(scene); // after #live, which may have started a fresh instance
        return JSON.parse(this.call(view, "draw", body, v, id));
      },
      result: () => {
        const out = this.call(view, "result");
        return out === null ? null : JSON.parse(out);
      },
      clear: () => {
        this.call(view, "clear");
      },
      detach: () => {
        if (view.detached) return;
        try {
          if (this.#fns !== null && !view.broken) this.call(view, "detach");
        } finally {
          view.detached = true;
          this.#views.delete(view);
          if (view.saved) restore(canvas, view.saved);
        }
      },
      cellAt: (px, py) => point(this.call(view, "cellAt", px, py)),
      pixelOf: (x, y) => point(this.call(view, "pixelOf", x, y)),
    };
    return Object.freeze(api);
  }
}

function restarted() {
  throw internalError("the engine restarted since this scene was made, and the scene went with it: make it again with engine.scene(board)");
}

function detached(name) {
  throw codedError("bad_request", `aoekit overlay: ${name} after detach: this overlay was detached; attach the canvas again`);
}

function point(p) {
  return { x: p.x, y: p.y };
}

// saved is what attach may change on a canvas: its size and the inline style of its size.
function saved(canvas) {
  return { width: canvas.width, height: canvas.height, styleWidth: canvas.style.width, styleHeight: canvas.style.height };
}

// restore puts back what attach changed (which also erases the canvas).
function restore(canvas, s) {
  canvas.style.width = s.styleWidth;
  canvas.style.height = s.styleHeight;
  canvas.width = s.width;
  canvas.height = s.height;
}
