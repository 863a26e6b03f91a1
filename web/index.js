// aoekit: the rules engine as WebAssembly. `load()` instantiates aoekit.wasm and resolves to an
// engine whose methods answer synchronously; see index.d.ts for the whole contract.

// Go's own JavaScript support for the module (wasm_exec.js, copied from the Go that built it) is
// imported by the first load() (loadGo): importing this package has no side effects
// (package.json says "sideEffects": false). wasm_exec.js defines globalThis.Go and, where the
// host lacks them, the fs, path and process shims Go expects. The helpers shared with the
// package's other loaders (the overlay's) live in internal/wasm.js.
import { AoekitError, checkSize, engineOf, fetchSource, instantiate, internalError, loadGo, newGo, newScene, runModule, warmUpLater } from "./internal/wasm.js";

// The global under which the module finds the object to register its functions on
// (wasm/browser/main_js.go); it exists only while the module's main runs.
const HANDSHAKE = "__aoekit";

// Functions every aoekit.wasm registers.
const EXPORTS = ["parse", "evaluate", "evaluateCells", "move", "cover", "fullAttack", "version", "sceneNew", "sceneUpdate", "sceneEvaluate", "sceneEvaluateCells", "sceneDispose"];

// AoekitError is the class of every error the engine throws (and the overlay's, and the
// worker's rejections); its definition is shared with the package's other entries.
export { AoekitError };

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
  // The module's download starts while wasm_exec.js is imported; a failure of either is
  // load()'s, and the other's is not left unhandled.
  const fetched = fetchSource(source);
  fetched.catch(() => {});
  await loadGo();
  const go = newGo();
  const { module, instance } = await instantiate(fetched, go.runtime.importObject);
  const runtime = new Runtime(module);
  runtime.start(go, instance);
  const engine = runtime.engine();
  // The warm-up (internal/wasm.js warmUp) runs after load() resolves, a call at a time when the
  // host is idle: the first result does not wait for it.
  warmUpLater(engine);
  return engine;
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
    const fns = runModule(go, instance, HANDSHAKE, EXPORTS, "aoekit.wasm");
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
  // A scene's call (scene: [id, packed bytes, generation]) is refused when the instance its
  // scene was made on is no longer the one running.
  call(name, body, ...scene) {
    if (body !== undefined) checkSize(name, body, this.#maxBody);
    if (this.#fns !== null && (this.#go.failed || this.#go.runtime.exited)) this.#fail();
    if (this.#fns === null) {
      try {
        const go = newGo();
        this.start(go, new WebAssembly.Instance(this.#module, go.runtime.importObject));
      } catch (cause) {
        throw internalError(`the engine could not restart (${cause?.message ?? cause})`);
      }
    }
    if (scene.length > 2 && scene[2] !== this.#generation) {
      throw internalError("the engine restarted since this scene was made, and the scene went with it: make it again with engine.scene(board)");
    }
    let out;
    try {
      out = scene.length > 0 ? this.#fns[name](scene[0], body, scene[1]) : this.#fns[name](body);
    } catch (cause) {
      this.#fail();
      throw internalError(`the engine stopped (${cause?.message ?? cause}) and will restart`);
    }
    if (this.#go.runtime.exited) {
      const code = this.#go.runtime.exitCode;
      this.#fail();
      throw internalError(`the engine exited (code ${code}) and will restart`);
    }
    if (typeof out === "string" || out instanceof Uint8Array) return out;
    // The module's Error (wasm/browser jsError), as an AoekitError: the same code, message and at.
    if (out instanceof Error && typeof out.code === "string") throw new AoekitError(out.code, out.message, out.at, out.field);
    this.#fail();
    throw internalError(`the engine answered ${typeof out} and will restart`);
  }

  engine() {
    const call = (...args) => this.call(...args);
    return engineOf(call, this.#maxBody, (board) => newScene(board, call, () => this.#generation, () => this.#fns !== null).scene);
  }
}
