// aoekit/worker: the engine off the main thread. `loadWorker()` starts a module Web Worker
// (engine-worker.js) that runs aoekit.wasm with load(), and resolves to an engine with the same
// methods, each returning a promise of the same value; see worker.d.ts and CONTRACT.md ("Off
// the main thread").

// This file imports nothing before loadWorker() runs (as index.js): a page's import of the entry
// is one file, and loadWorker() starts the module's download before the helpers it shares with
// the other loaders (internal/wasm.js) arrive, which it imports at the same time (on a network
// of 40 ms round trips, a round trip and internal/wasm.js's bytes sooner to the first result).

/** @type {typeof import("./internal/wasm.js") | null} internal/wasm.js, once the first loadWorker() has imported it. */
let helpers = null;

// BRAND marks an AoekitError (as internal/wasm.js's copy of the class marks its own).
const BRAND = Symbol.for("aoekit.AoekitError");

/**
 * The class of every error the engine throws: a copy of index.js's (this file imports nothing),
 * with the brand `instanceof` asks for, so that it holds whichever entry's class it is asked of
 * (CONTRACT, Errors). contract.test.mjs checks that the three copies are the same text.
 */
export class AoekitError extends Error {
  constructor(code, message, at, field) {
    super(message);
    this.code = code;
    if (at !== undefined) this.at = at;
    if (field !== undefined) this.field = field;
  }

  static [Symbol.hasInstance](value) {
    return value !== null && typeof value === "object" && value[BRAND] === true;
  }

  static {
    Object.defineProperty(this.prototype, "name", { value: "AoekitError", writable: true, configurable: true });
    Object.defineProperty(this.prototype, BRAND, { value: true });
  }
}

/**
 * Starts the engine in a Web Worker and resolves to an engine whose methods return promises.
 * @param {import("./worker.js").LoadWorkerOptions} [options]
 * @returns {Promise<import("./worker.js").WorkerEngine>}
 */
export async function loadWorker(options = {}) {
  if (options !== null && typeof options !== "object") {
    throw new TypeError("aoekit: loadWorker(options) takes an object, such as { wasm: url }");
  }
  if (typeof Worker !== "function") {
    throw new Error("aoekit: loadWorker() needs Web Workers, which this host does not have (Node has worker_threads, not Web Workers): use load() from \"aoekit\" here");
  }
  const given = options?.worker;
  let worker;
  if (given === undefined || given === null) {
    // Written out so, for bundlers (Vite, webpack) to find the worker and bundle it.
    worker = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  } else if (typeof given === "string" || given instanceof URL) {
    worker = new Worker(given, { type: "module" });
  } else if (typeof given.postMessage === "function" && typeof given.terminate === "function") {
    worker = given;
  } else {
    throw new TypeError("aoekit: options.worker must be a Worker running engine-worker.js, or its URL");
  }
  // The module's download starts now, on the page, while the worker's own scripts load
  // (compileOnPage), and the worker gets it compiled.
  const compiled = compileOnPage(options?.wasm, given === undefined || given === null);
  const imported = helpers ?? import("./internal/wasm.js");
  const link = new Link(worker);
  try {
    helpers = await imported;
    const module = await compiled;
    // A host that cannot send a WebAssembly.Module to a worker (a DataCloneError) has it
    // fetched there instead.
    const sent = module && (await link.call("load", [{ wasm: module }], [], true).then(() => true, (err) => {
      if (err?.name === "DataCloneError") return false;
      throw err;
    }));
    if (!sent) await link.call("load", [{ wasm: await portable(options?.wasm, "aoekit.wasm") }]);
  } catch (err) {
    link.close();
    throw err;
  }
  return link.engine();
}

// A Link is the page's end of one worker: calls by id, answered in any order.
class Link {
  #worker;
  #pending = new Map(); // id → { resolve, reject }
  #nextId = 1;
  #closed = false;
  #started = false;
  #failed = null; // (method) => the error of a call after the worker failed

  constructor(worker) {
    this.#worker = worker;
    worker.addEventListener("message", (event) => this.#answer(event.data));
    // A worker that fails (its script could not load, or threw) is done with: terminated, its
    // calls not yet answered rejected, and every later call too. A call made before it failed
    // (load, while the page still reads a module's Response) waits on nothing else.
    worker.addEventListener("error", (event) => {
      event.preventDefault?.();
      if (this.#closed) return;
      const why = event.message || "engine-worker.js could not be loaded, or failed";
      this.#failed = this.#started
        ? (method) => codedError("bad_request", `aoekit worker: ${named(method)} after the engine's worker failed (${why}): load another with loadWorker()`)
        : () => new Error(`aoekit: the engine's worker did not start (${why})`);
      this.#closed = true;
      this.#worker.terminate();
      this.#failAll(this.#started ? codedError("bad_request", `internal error: the engine's worker failed (${why})`) : this.#failed());
    });
  }

  #answer(data) {
    const call = this.#pending.get(data?.id);
    if (call === undefined) return;
    this.#pending.delete(data.id);
    this.#started = true;
    if ("error" in data) call.reject(rebuild(data.error));
    else call.resolve(data.ok);
  }

  #failAll(err) {
    for (const call of this.#pending.values()) call.reject(err);
    this.#pending.clear();
  }

  // call sends method and its args (and the transferables among them) and resolves to the
  // answer, or rejects with the error, the engine's own (with cloneErrors, postMessage's own
  // DataCloneError as it is).
  call(method, args, transfer = [], cloneErrors = false) {
    if (this.#failed) return Promise.reject(this.#failed(method));
    if (this.#closed) {
      return Promise.reject(codedError("bad_request", `aoekit worker: ${named(method)} after dispose: this engine's worker was terminated; load another with loadWorker()`));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker.postMessage({ id, method, args }, transfer);
      } catch (err) {
        this.#pending.delete(id);
        // A value structured clone cannot copy (a function, a scene of another engine…).
        reject(err?.name === "DataCloneError" && !cloneErrors ? codedError("bad_request", `aoekit worker: ${named(method)}: a value cannot be sent to the engine's worker: ${err.message}`) : err);
      }
    });
  }

  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#worker.terminate();
    this.#failAll(codedError("bad_request", "aoekit worker: the engine was disposed before it answered"));
  }

  engine() {
    // A method's arguments are turned into the JSON the engine reads here, on the page, as the
    // engine does it: a request JSON cannot carry is the same bad_request, rejected.
    const json = (method) => async (request) => this.call(method, [helpers.encode(request)]);
    return Object.freeze({
      parse: async (text, options) => this.call("parse", [helpers.encode({ text, rules: options?.rules })]),
      evaluate: json("evaluate"),
      evaluateCells: json("evaluateCells"),
      move: json("move"),
      cover: json("cover"),
      fullAttack: json("fullAttack"),
      version: async () => this.call("version", []),
      scene: async (board) => this.#scene(await this.call("scene", [boardArg(board)])),
      attachOverlay: async (target, options) => this.#attachOverlay(target, options),
      dispose: () => this.close(),
    });
  }

  // #scene is the page's handle on the worker's scene id.
  #scene(id) {
    let disposed = false;
    const live = (name) => {
      if (disposed) throw codedError("bad_request", `scene.${name} after dispose`);
    };
    return Object.freeze({
      update: async (edit) => {
        live("update");
        await this.call("sceneUpdate", [id, boardArg(edit)]);
      },
      evaluate: async (request) => {
        live("evaluate");
        return this.call("sceneEvaluate", [id, helpers.encode(request)]);
      },
      evaluateCells: async (request) => {
        live("evaluateCells");
        return this.call("sceneEvaluateCells", [id, helpers.encode(request)]);
      },
      dispose: async () => {
        if (disposed || this.#closed) return;
        disposed = true;
        await this.call("sceneDispose", [id]);
      },
    });
  }

  // #attachOverlay hands the canvas to the worker (transferControlToOffscreen), where
  // aoekit-overlay.wasm draws on it. What the worker cannot see — the canvas's laid-out size,
  // the window's device pixel ratio — is measured here, as the module measures a <canvas>
  // (wasm/overlay/canvas_js.go), and sent with each draw when it changed.
  async #attachOverlay(target, options) {
    const canvas = helpers.canvasOf(target);
    if (canvas !== target) {
      throw codedError("bad_request", "attach: the worker draws on a <canvas> handed to it, which a canvas with a rendering context cannot be: pass the <canvas> element, before any getContext");
    }
    if (typeof OffscreenCanvas !== "function" || canvas === null || typeof canvas !== "object" || typeof canvas.transferControlToOffscreen !== "function") {
      throw new Error("aoekit: the worker's attachOverlay needs a <canvas> element and a browser with OffscreenCanvas; elsewhere, attachOverlay from \"aoekit/overlay\" draws on the main thread");
    }
    let rest = options;
    let onTargets;
    let wasm;
    if (options !== null && typeof options === "object" && !Array.isArray(options)) {
      ({ onTargets, wasm, ...rest } = options);
    }
    if (onTargets !== undefined && onTargets !== null && typeof onTargets !== "function") {
      throw codedError("bad_request", `attach: options.onTargets: expected a function, got ${typeof onTargets}`);
    }
    wasm = await portable(wasm, "aoekit-overlay.wasm");
    // The options, checked by the module in the worker (and the module loaded) before the canvas
    // is handed over: a canvas given to a worker cannot be taken back.
    await this.call("overlayCheck", [rest, wasm]);
    const offscreen = canvas.transferControlToOffscreen();
    const given = rest ?? {};
    const fixedRatio = typeof given.devicePixelRatio === "number";
    const style = canvas.style;
    const saved = { width: style.width, height: style.height };
    // The CSS size, as the module sizes a <canvas> at attach: options' width and height, set as
    // its style; else, for a canvas its CSS does not size, its width and height attributes,
    // set as its style too; else its laid-out size.
    const css = {};
    for (const [dim, client] of [["width", "clientWidth"], ["height", "clientHeight"]]) {
      const at = canvas[dim];
      const laidOut = canvas[client] ?? 0;
      if (typeof given[dim] === "number" && given[dim] > 0) {
        css[dim] = { size: given[dim], fixed: true };
        style.setProperty(dim, `${given[dim]}px`);
      } else if (style.getPropertyValue(dim) === "" && (laidOut === 0 || laidOut === at)) {
        css[dim] = { size: at, fixed: false };
        style.setProperty(dim, `${at}px`);
      } else {
        css[dim] = { size: laidOut, fixed: false };
      }
    }
    const measure = () => {
      const size = {};
      for (const dim of ["width", "height"]) {
        const laidOut = canvas[dim === "width" ? "clientWidth" : "clientHeight"] ?? 0;
        if (!css[dim].fixed && laidOut > 0) css[dim].size = laidOut;
        if (css[dim].size > 0) size[dim] = Math.min(css[dim].size, 16384);
      }
      if (!fixedRatio) size.devicePixelRatio = Math.min(Math.max(globalThis.devicePixelRatio || 1, 0.01), 8);
      return size;
    };
    const restore = () => {
      style.width = saved.width;
      style.height = saved.height;
    };
    let sent = measure();
    let id;
    try {
      id = await this.call("overlayAttach", [offscreen, { ...rest, ...sent }, wasm], [offscreen]);
    } catch (err) {
      restore();
      throw err;
    }
    let disposed = false;
    const live = (name) => {
      if (disposed) throw codedError("bad_request", `aoekit overlay: ${name} after dispose: this overlay was disposed; its canvas went to the worker, which cannot give it back: attach another canvas`);
    };
    return Object.freeze({
      update: async (request, view) => {
        live("update");
        if (view?.scene !== undefined && view?.scene !== null) {
          throw new AoekitError("bad_request", "draw: view.scene: the worker's overlay draws the request's own board, not a scene's: send the board in the request", undefined, "view.scene");
        }
        const body = helpers.encode(request);
        const now = measure();
        const changed = Object.keys(now).some((k) => now[k] !== sent[k]) ? now : undefined;
        const summary = await this.call("overlayUpdate", [id, body, view, changed]);
        if (changed) sent = now;
        if (onTargets) onTargets(summary.targets);
        return summary;
      },
      clear: async () => {
        live("clear");
        await this.call("overlayClear", [id]);
      },
      dispose: async () => {
        if (disposed) return;
        disposed = true;
        restore();
        if (!this.#closed) await this.call("overlayDispose", [id]);
      },
      cellAt: async (px, py) => {
        live("cellAt");
        return this.call("overlayCellAt", [id, px, py]);
      },
      pixelOf: async (x, y) => {
        live("pixelOf");
        return this.call("overlayPixelOf", [id, x, y]);
      },
    });
  }
}

// boardArg is a scene's board or edit as the worker reads it (engine-worker.js board): an
// object's JSON and, when they are an Int32Array, its obstacles (copied, not taken from the
// caller); anything else as it is, for the engine to refuse with its own error (an array or a
// value a worker cannot receive, such as a function, as one that gets the same error).
function boardArg(value) {
  if (value === null || typeof value !== "object") {
    return { raw: typeof value === "function" || typeof value === "symbol" ? null : value };
  }
  if (Array.isArray(value)) return { raw: [] };
  if (value.obstacles instanceof Int32Array) {
    const { obstacles, ...rest } = value;
    helpers.notDetached(obstacles);
    return { json: helpers.encode(rest), obstacles };
  }
  return { json: helpers.encode(value) };
}

// compileOnPage starts downloading the module on the page, compiled as it arrives
// (WebAssembly.compileStreaming, off the main thread), when it is named by a URL, or is the
// package's own aoekit.wasm for the package's own worker: the worker is then sent the
// WebAssembly.Module (shared, not copied) rather than fetching the module once its scripts
// have loaded. A page's <link rel="preload"> of that URL serves this fetch, as it serves
// load()'s. A module the server does not label application/wasm (or a host without
// compileStreaming) is read whole, then compiled. It resolves to the module, or to null when
// the page cannot compile it — a response that is not OK, a fetch that fails, a page whose
// Content-Security-Policy forbids WebAssembly — and the worker then fetches the module itself,
// as load() does, with load()'s errors. (A source given otherwise — bytes, a Response, a
// Module, a promise — goes to the worker as portable makes it, and so does a URL that does not
// parse, for portable to refuse.)
function compileOnPage(source, ownWorker) {
  if (typeof fetch !== "function") return null;
  let url;
  try {
    if ((source === undefined || source === null) && ownWorker) url = new URL("./aoekit.wasm", import.meta.url);
    else if (typeof source === "string" || source instanceof URL) url = onPage(source);
    else return null;
  } catch {
    return null;
  }
  return fetch(url)
    .then(async (response) => {
      if (!response.ok) {
        response.body?.cancel().catch(() => {});
        return null;
      }
      // Streamed where the server labels it application/wasm, as compileStreaming requires.
      const wasm = /^\s*application\/wasm\s*(;|$)/i.test(response.headers.get("Content-Type") ?? "");
      return wasm && typeof WebAssembly.compileStreaming === "function" ? WebAssembly.compileStreaming(response) : WebAssembly.compile(await response.arrayBuffer());
    })
    .catch(() => null);
}

// portable is a module source the worker can use: a string or a URL resolved against the page
// (the worker would resolve it against its own script), a Response read into bytes here, bytes
// and a WebAssembly.Module as they are (postMessage copies bytes and shares a module).
async function portable(source, name) {
  source = await source;
  if (source === undefined || source === null) return undefined;
  if (typeof source === "string" || source instanceof URL) return onPage(source).href;
  if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new Error(`aoekit: fetching ${source.url || name} failed: HTTP ${source.status}`);
    return new Uint8Array(await source.arrayBuffer());
  }
  return source;
}

// onPage is a module's URL resolved against the page, as load() on the page resolves it (the
// worker would resolve it against its own script).
function onPage(source) {
  return new URL(source, globalThis.document?.baseURI ?? globalThis.location?.href);
}

// named is a message's method as the caller made the call: sceneEvaluate is scene.evaluate,
// and overlayCheck and overlayAttach are attachOverlay.
function named(method) {
  if (method === "overlayCheck" || method === "overlayAttach") return "attachOverlay";
  return method.replace(/^(scene|overlay)(.)/, (_, o, c) => `${o}.${c.toLowerCase()}`);
}

// rebuild is the worker's error (engine-worker.js wireError) as an error of this page.
function rebuild(e) {
  if (e?.aoekit) return new AoekitError(e.code, e.message, e.at, e.field);
  const types = { TypeError, RangeError, SyntaxError };
  const err = new (types[e?.name] ?? Error)(String(e?.message ?? e));
  if (typeof e?.name === "string" && err.name !== e.name) err.name = e.name;
  return err;
}

// codedError is an AoekitError of this entry's class with a code and a message (internal/wasm.js
// has its own, which this file does not wait for).
function codedError(code, message) {
  return new AoekitError(code, message);
}
