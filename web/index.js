// aoekit: the rules engine as WebAssembly. `load()` instantiates aoekit.wasm and resolves to an
// engine whose methods answer synchronously; see index.d.ts for the whole contract.

// Go's own JavaScript support for the module (wasm_exec.js, copied from the Go that built it) is
// imported by the first load() (loadGo): importing this package has no side effects
// (package.json says "sideEffects": false). wasm_exec.js defines globalThis.Go and, where the
// host lacks them, the fs, path and process shims Go expects. The helpers shared with the
// package's other loaders (the overlay's) live in internal/wasm.js.
import { AoekitError, checkSize, codedError, encode, instantiate, internalError, loadGo, newGo, tooLarge } from "./internal/wasm.js";

// The global under which the module finds the object to register its functions on
// (wasm/browser/main_js.go); it exists only while the module's main runs.
const HANDSHAKE = "__aoekit";

// Functions every aoekit.wasm registers.
const EXPORTS = ["parse", "evaluate", "evaluateCells", "move", "cover", "fullAttack", "version", "sceneNew", "sceneUpdate", "sceneEvaluate", "sceneEvaluateCells", "sceneDispose"];

// WARMUP is evaluated once by load(), so that the engine's first real call does not pay for
// compiling the module's functions (a WebAssembly engine compiles them lazily, on first use):
// a TDGS circle with tokens, an obstacle, a wall and cover lines, and a Draw Steel burst, reach
// most of what an evaluate runs.
const WARMUP = [
  { template: "Cir2", caster: { id: "c", x: 0, y: 0, z: 0 }, origin: { x: 4, y: 0, z: 0 }, range: 10,
    tokens: [{ id: "t", x: 5, y: 0, z: 0 }, { id: "u", x: 3, y: 1, z: 0, size: 2 }], obstacles: [{ x: 4, y: 1, z: 0, fill: 0.5 }],
    walls: [{ a: [6, -2], b: [6, 2] }], bounds: { min: [-5, -5, 0], max: [9, 9, 0] } },
  { template: "2 burst", caster: { id: "c", x: 0, y: 0, z: 0 }, tokens: [{ id: "t", x: 2, y: 0, z: 0 }],
    obstacles: [{ x: 1, y: 0, z: 0 }], bounds: { min: [-5, -5, 0], max: [9, 9, 0] } },
];

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

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
  await loadGo();
  const go = newGo();
  const { module, instance } = await instantiate(source, go.runtime.importObject);
  const runtime = new Runtime(module);
  runtime.start(go, instance);
  const engine = runtime.engine();
  try {
    for (const request of WARMUP) engine.evaluate(request);
  } catch {
    // only a warm-up: an engine that fails it says so at the caller's first call
  }
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
      for (const name of EXPORTS) {
        if (typeof fns[name] !== "function") {
          throw new Error(`aoekit: the module did not register ${name}: is it aoekit.wasm, built by the Go of wasm_exec.js?`);
        }
      }
      if (!Number.isSafeInteger(fns.maxBody) || fns.maxBody <= 0) {
        throw new Error("aoekit: the module did not register maxBody: is it aoekit.wasm, built by the Go of wasm_exec.js?");
      }
      this.#go = go;
      this.#fns = fns;
      this.#maxBody = fns.maxBody;
      this.#generation++;
    } catch (err) {
      go.stop();
      throw err;
    }
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
    const call = (name, body) => this.call(name, body);
    // A text longer than the limit makes JSON longer still: refused before JSON.stringify
    // copies it.
    const text = (t) => (typeof t === "string" && t.length > this.#maxBody ? tooLarge("parse", t.length + 11, true, this.#maxBody) : t);
    return Object.freeze({
      parse: (t) => JSON.parse(call("parse", encode({ text: text(t) }))),
      evaluate: (request) => JSON.parse(call("evaluate", encode(request))),
      evaluateCells: (request) => int32s(call("evaluateCells", encode(request))),
      move: (request) => JSON.parse(call("move", encode(request))),
      cover: (request) => JSON.parse(call("cover", encode(request))),
      fullAttack: (request) => JSON.parse(call("fullAttack", encode(request))),
      scene: (board) => this.#scene(board),
      version: () => JSON.parse(call("version")),
    });
  }

  // #scene makes a scene (CONTRACT scene) on the running instance. Its methods refuse to run on
  // another: an instance that stopped took its scenes with it.
  #scene(board) {
    const { json, packed } = splitObstacles(board, "board");
    const id = Number(this.call("sceneNew", json, 0, packed));
    const generation = this.#generation; // after the call, which may have started a fresh instance
    let disposed = false;
    const call = (name, body, bytes) => {
      if (disposed) throw codedError("bad_request", `scene: ${name.slice(5).toLowerCase()} after dispose`);
      return this.call(name, body, id, bytes, generation);
    };
    return Object.freeze({
      update: (edit) => {
        const { json: body, packed: bytes } = splitObstacles(edit, "edit");
        call("sceneUpdate", body, bytes);
      },
      evaluate: (request) => JSON.parse(call("sceneEvaluate", encode(request))),
      evaluateCells: (request) => int32s(call("sceneEvaluateCells", encode(request))),
      dispose: () => {
        if (disposed) return;
        try {
          if (this.#generation === generation && this.#fns !== null) this.call("sceneDispose", undefined, id);
        } finally {
          disposed = true;
        }
      },
    });
  }
}

// splitObstacles returns what's JSON of a board or an edit and, when its obstacles are an
// Int32Array of x, y, z, fill quads, their bytes (little-endian int32s) for the module.
function splitObstacles(value, what) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw codedError("bad_request", `scene: the ${what} must be an object`);
  }
  const obstacles = value.obstacles;
  if (!(obstacles instanceof Int32Array)) return { json: encode(value), packed: undefined };
  if (obstacles.length % 4 !== 0) {
    throw codedError("bad_request", `obstacles: an Int32Array of x, y, z, fill quads, not ${obstacles.length} numbers`);
  }
  const { obstacles: _, ...rest } = value;
  let bytes;
  if (LITTLE_ENDIAN) bytes = new Uint8Array(obstacles.buffer, obstacles.byteOffset, obstacles.byteLength);
  else {
    bytes = new Uint8Array(obstacles.byteLength);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < obstacles.length; i++) view.setInt32(4 * i, obstacles[i], true);
  }
  return { json: encode(rest), packed: bytes };
}









// int32s views packed cells (x, y, z little-endian int32s) as an Int32Array.
function int32s(bytes) {
  if (LITTLE_ENDIAN) return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(4 * i, true);
  return out;
}


