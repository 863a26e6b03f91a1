// aoekit: the rules engine as WebAssembly. `load()` instantiates aoekit.wasm and resolves to an
// engine whose methods answer synchronously; see index.d.ts for the whole contract.

// Go's own JavaScript support for the module (wasm_exec.js, copied from the Go that built it) is
// imported by the first load() (loadGo): importing this package has no side effects
// (package.json says "sideEffects": false). wasm_exec.js defines globalThis.Go and, where the
// host lacks them, the fs, path and process shims Go expects. The helpers shared with the
// package's other loaders (the overlay's) live in internal/wasm.js, which the first load()
// imports too, while the module downloads: this file imports nothing, so that a page's import
// of the package is one file and the module's download starts a round trip sooner (issue 30: on
// a network of 40 ms round trips, ~40 ms sooner to the first result).

/** @type {typeof import("./internal/wasm.js") | null} internal/wasm.js, once the first load() has imported it. */
let helpers = null;

// BRAND marks an AoekitError (as internal/wasm.js's copy of the class marks its own).
const BRAND = Symbol.for("aoekit.AoekitError");

/**
 * The class of every error the engine throws. internal/wasm.js has a copy of it, which the
 * overlay's entry exports, and worker.js another (this file imports nothing, nor does worker.js
 * before loadWorker()): `instanceof` asks for the brand they all set, so that it holds whichever
 * entry's class it is asked of (CONTRACT, Errors), as it does for another copy of the package.
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

// The global under which the module finds the object to register its functions on
// (wasm/browser/main_js.go); it exists only while the module's main runs.
const HANDSHAKE = "__aoekit";

// Functions every aoekit.wasm registers.
const EXPORTS = ["parse", "evaluate", "evaluateCells", "move", "cover", "fullAttack", "version", "sceneNew", "sceneUpdate", "sceneEvaluate", "sceneEvaluateCells", "sceneDispose"];

/**
 * Instantiates aoekit.wasm and resolves to an engine.
 * @param {import("./index.js").LoadOptions} [options]
 * @returns {Promise<import("./index.js").Engine>}
 */
export async function load(options = {}) {
  if (options !== null && typeof options !== "object") {
    throw new TypeError("aoekit: load(options) takes an object, such as { wasm: url }");
  }
  const source = options?.wasm ?? new URL("./aoekit.wasm", import.meta.url);
  // The module's download starts at once where the host fetches URLs (a browser's, not Node's,
  // which reads files: internal/wasm.js fetchSource), and it compiles as it arrives
  // (compileEarly) while internal/wasm.js and wasm_exec.js are imported, both at once; a
  // failure of any is load()'s, and the others' are not left unhandled.
  const early = (typeof source === "string" || source instanceof URL) && !isNode() ? fetch(source).then(compileEarly) : null;
  early?.catch(() => {});
  const [w] = await Promise.all([helpers ?? import("./internal/wasm.js"), import("./wasm_exec.js")]);
  helpers = w;
  await w.loadGo();
  const go = w.newGo();
  const { module, instance } = await w.instantiate(early ?? source, go.runtime.importObject);
  const runtime = new Runtime(module);
  runtime.start(go, instance);
  const engine = runtime.engine();
  // The warm-up (internal/wasm.js warmUp) runs after load() resolves, a call at a time when the
  // host is idle: the first result does not wait for it.
  w.warmUpLater(engine);
  return engine;
}

// compileEarly starts compiling a response the module can stream from (one labelled
// application/wasm, as WebAssembly.compileStreaming requires) as its bytes arrive, before Go's
// imports exist to instantiate it with; any other response is left to internal/wasm.js
// instantiate, which reads it whole or reports its status.
function compileEarly(response) {
  const wasm = /^\s*application\/wasm\s*(;|$)/i.test(response.headers.get("Content-Type") ?? "");
  return response.ok && wasm && typeof WebAssembly.compileStreaming === "function" ? WebAssembly.compileStreaming(response) : response;
}

function isNode() {
  return typeof process === "object" && process !== null && typeof process.versions?.node === "string";
}

// A Runtime owns one running Go instance of a compiled module, and replaces it when it stops.
class Runtime {
  #module;
  #go = null; // newGo's handle of the running instance
  #fns = null; // the functions main registered; null when the instance must be replaced
  #maxBody = 0; // the largest request the module accepts, in bytes of UTF-8 (its maxBody)
  #generation = 0; // how many instances have started: a scene belongs to one

  constructor(module) {
    this.#module = module;
  }

  // start runs main on instance until it blocks, having registered the module's functions. If
  // it fails, the instance's timers are stopped.
  start(go, instance) {
    const fns = helpers.runModule(go, instance, HANDSHAKE, EXPORTS, "aoekit.wasm");
    this.#go = go;
    this.#fns = fns;
    this.#maxBody = fns.maxBody;
    this.#generation++;
  }

  // fail retires the running instance: its timers are cancelled (one firing on a dead Go
  // program would throw "Go program has already exited" where nothing catches it), nothing
  // here refers to it any more (its memory, maybe gigabytes after running out of it, can go),
  // and the next call starts a fresh instance.
  #fail() {
    this.#fns = null;
    this.#go.stop();
    this.#go = null;
  }

  // call calls the module's function name; it returns its answer (a string or a Uint8Array)
  // or throws its Error. A body past the module's maxBody is refused here, before it crosses
  // into Go (the module refuses it too). When the Go instance fails underneath (a trap, a
  // stack overflow, an exit), it throws an internal error and the next call runs on a fresh
  // instance; an instance that failed between calls (in one of its timers) is replaced first.
  // A scene's call (extra: [id, packed bytes, generation]) is refused when the instance its
  // scene was made on is no longer the one running; a board's (evaluate's, extra: [packed
  // bytes]) goes with its packed obstacles (internal/wasm.js callArgs).
  call(name, body, ...extra) {
    if (body !== undefined) helpers.checkSize(name, body, this.#maxBody);
    if (this.#fns !== null && (this.#go.failed || this.#go.runtime.exited)) this.#fail();
    if (this.#fns === null) {
      try {
        const go = helpers.newGo();
        this.start(go, new WebAssembly.Instance(this.#module, go.runtime.importObject));
      } catch (cause) {
        throw helpers.internalError(`the engine could not restart (${cause?.message ?? cause})`);
      }
    }
    if (extra.length > 2 && extra[2] !== this.#generation) {
      throw helpers.internalError("the engine restarted since this scene was made, and the scene went with it: make it again with engine.scene(board)");
    }
    let out;
    try {
      out = this.#fns[name](...helpers.callArgs(name, body, extra));
    } catch (cause) {
      this.#fail();
      throw helpers.internalError(`the engine stopped (${cause?.message ?? cause}) and will restart`);
    }
    if (this.#go.runtime.exited) {
      const code = this.#go.runtime.exitCode;
      this.#fail();
      throw helpers.internalError(`the engine exited (code ${code}) and will restart`);
    }
    if (typeof out === "string" || out instanceof Uint8Array) return out;
    // The module's Error (wasm/browser jsError), as an AoekitError: the same code, message and at.
    if (out instanceof Error && typeof out.code === "string") throw new AoekitError(out.code, out.message, out.at, out.field);
    this.#fail();
    throw helpers.internalError(`the engine answered ${typeof out} and will restart`);
  }

  engine() {
    const call = (...args) => this.call(...args);
    return helpers.engineOf(call, this.#maxBody, (board) => helpers.newScene(board, call, () => this.#generation, () => this.#fns !== null).scene);
  }
}
