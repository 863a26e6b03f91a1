// aoekit overlay: the engine and a renderer in one WebAssembly module (aoekit-overlay.wasm),
// which evaluates a request and draws its answer on a <canvas> as the demo draws it.
// `attachOverlay(canvas, options)` attaches one to a canvas, loading the module once per page;
// `loadOverlay()` instantiates a module of one's own. See overlay.d.ts and CONTRACT.md ("The
// overlay").
import { canvasOf, checkSize, codedError, encode, instantiate, internalError, loadGo, moduleError, newGo } from "./internal/wasm.js";

// index.js's error class, as far as instanceof can tell (internal/wasm.js says why a copy).
export { AoekitError } from "./internal/wasm.js";

// The global under which the module finds the object to register its functions on
// (wasm/overlay/main_js.go); it exists only while the module's main runs.
const HANDSHAKE = "__aoekitOverlay";

// Functions every aoekit-overlay.wasm registers, and the answers each gives on success.
const EXPORTS = {
  attach: (out) => Number.isSafeInteger(out) && out > 0,
  draw: (out) => typeof out === "string",
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
  const source = options?.wasm ?? new URL("./aoekit-overlay.wasm", import.meta.url);
  await loadGo();
  const go = newGo();
  const { module, instance } = await instantiate(source, go.runtime.importObject, "aoekit-overlay.wasm");
  const runtime = new Runtime(module);
  runtime.start(go, instance);
  return Object.freeze({ attach: (canvas, opts) => runtime.attach(canvas, opts) });
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
  #views = new Set(); // the attached overlays: { canvas, options, handle, saved }

  constructor(module) {
    this.#module = module;
  }

  start(go, instance) {
    try {
      const fns = {};
      globalThis[HANDSHAKE] = fns;
      let exited;
      try {
        exited = go.runtime.run(instance);
      } finally {
        delete globalThis[HANDSHAKE];
      }
      exited.catch(() => {}); // a failed start shows below; a later exit, at the next call
      for (const name of Object.keys(EXPORTS)) {
        if (typeof fns[name] !== "function") {
          throw new Error(`aoekit: the module did not register ${name}: is it aoekit-overlay.wasm, built by the Go of wasm_exec.js?`);
        }
      }
      if (!Number.isSafeInteger(fns.maxBody) || fns.maxBody <= 0) {
        throw new Error("aoekit: the module did not register maxBody: is it aoekit-overlay.wasm, built by the Go of wasm_exec.js?");
      }
      this.#go = go;
      this.#fns = fns;
      this.#maxBody = fns.maxBody;
    } catch (err) {
      go.stop();
      throw err;
    }
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
        const body = encode(request);
        checkSize("draw", body, this.#maxBody);
        return JSON.parse(this.call(view, "draw", body, v));
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
