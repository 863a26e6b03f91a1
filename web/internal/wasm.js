// Shared by the package's loaders of Go WebAssembly modules (web/overlay.js): Go's runtime
// support, instantiating a module from any source, request sizes and errors. Internal: not part
// of the package's API (package.json "exports" does not name it), and free to change.
//
// index.js imports them from here too, in its first load() (the overlay cannot import index.js:
// bundlers would emit its default module, aoekit.wasm, into an app that only draws overlays).

// BRAND marks an AoekitError: `instanceof AoekitError` asks for it, so that it holds for the
// errors of another copy of the package too.
const BRAND = Symbol.for("aoekit.AoekitError");

/**
 * The class of every error the engine throws (and the overlay's; index.js and worker.js, which
 * import nothing before their first load, have copies with the same brand):
 * a bad request or a broken rule, with `code`, `message`, `field` (the path of the request's
 * field it is about, when it is about one) and, for a notation error or a full attack's step,
 * `at` (`at` and `field` are own properties only when present, as the module sets them).
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

// Go is Go's JavaScript support (wasm_exec.js, copied from the Go that built the modules),
// imported by the first loadGo(): importing a loader has no side effects.
let Go = null;

/** loadGo imports wasm_exec.js once and returns globalThis.Go, which it defines. */
export async function loadGo() {
  if (Go === null) {
    await import("../wasm_exec.js");
    Go = globalThis.Go;
  }
  return Go;
}

// newGo returns a handle on a new Go runtime: { runtime (the Go object), stop(), failed }. Its
// timers do not hold a Node process open: the engine's answers are synchronous, so nothing waits
// on them (the Go runtime's background work, such as returning memory, simply pauses once the
// host has nothing else to do). stop() cancels every timer the instance has scheduled and turns
// any that still fires into nothing; a timer in which the program fails (throws, or exits) stops
// the instance and sets failed, and the error goes no further: the next call starts a fresh
// instance.
export function newGo() {
  const go = new Go();
  // The collector runs when the heap has grown 4 times past what was live (GOGC=400, Go's
  // default 100): an engine's heap is a few megabytes, and collecting a quarter as often takes
  // most of the long pauses out of a dragged template's frames. (Through the environment:
  // runtime/debug would add 30 KB to the module.)
  go.env = { ...go.env, GOGC: "400" };
  const timers = new Set();
  let dead = false;
  const handle = {
    runtime: go,
    failed: false,
    stop() {
      dead = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
  go.exit = (code) => {
    go.exitCode = code; // reported by the next call, instead of printed
  };
  // The runtime's timers come from the module's runtime.scheduleTimeoutEvent import, which
  // wasm_exec.js implements with the host's global setTimeout (and runtime.clearTimeoutEvent,
  // with clearTimeout): while they run, those globals are wrapped here, so that the timers are
  // unref'd (Node's; a browser's ids are numbers), known to stop(), and fire through a guard.
  // Nothing here reads wasm_exec.js's private fields; if it ever stops calling setTimeout, the
  // load test's "exits by itself" check fails.
  const imports = go.importObject.gojs;
  const schedule = imports["runtime.scheduleTimeoutEvent"];
  if (typeof schedule === "function") {
    imports["runtime.scheduleTimeoutEvent"] = (sp) => {
      const setTimeout = globalThis.setTimeout;
      globalThis.setTimeout = function (callback, ...rest) {
        const timer = setTimeout.call(this, () => {
          timers.delete(timer);
          if (dead) return;
          try {
            callback();
            if (!go.exited) return;
          } catch {
            // the program failed in its timer: the next call replaces it
          }
          handle.failed = true;
          handle.stop();
        }, ...rest);
        timer?.unref?.();
        timers.add(timer);
        return timer;
      };
      try {
        schedule(sp);
      } finally {
        globalThis.setTimeout = setTimeout;
      }
    };
  }
  const unschedule = imports["runtime.clearTimeoutEvent"];
  if (typeof unschedule === "function") {
    imports["runtime.clearTimeoutEvent"] = (sp) => {
      const clearTimeout = globalThis.clearTimeout;
      globalThis.clearTimeout = function (timer) {
        timers.delete(timer);
        return clearTimeout.call(this, timer);
      };
      try {
        unschedule(sp);
      } finally {
        globalThis.clearTimeout = clearTimeout;
      }
    };
  }
  return handle;
}

// instantiate compiles and instantiates source: a WebAssembly.Module, bytes, a Response (or a
// promise of one), a URL or a string (in Node a path or a URL; elsewhere a URL). name is the
// module's file name, for messages.
export async function instantiate(source, imports, name = "aoekit.wasm") {
  source = await fetchSource(source);
  if (source instanceof WebAssembly.Module) {
    return { module: source, instance: await WebAssembly.instantiate(source, imports) };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.instantiate(source, imports);
  }
  if (typeof Response !== "undefined" && source instanceof Response) {
    return fromResponse(source, imports, name);
  }
  throw new TypeError("aoekit: options.wasm must be a URL, a path, bytes, a Response or a WebAssembly.Module");
}

// fetchSource starts reading source when it is a URL or a path (or a promise of one), and
// resolves to its Response (in Node, a file's bytes); any other source, as it is. It needs no
// imports, so that a loader can start the module's download before Go's support (wasm_exec.js)
// has arrived, and hand instantiate what it resolves to: the download then overlaps that import
// (a round trip less to the first result on a slow network).
export async function fetchSource(source) {
  source = await source;
  if (typeof source === "string" || source instanceof URL) {
    if (isNode()) {
      // A file: URL or a path (anything that is not a URL, such as C:\aoekit.wasm) is read from disk.
      const url = typeof source === "string" && /^[a-z][a-z0-9+.-]+:/i.test(source) ? new URL(source) : source;
      if (typeof url === "string" || url.protocol === "file:") return (await nodeFS()).readFile(url);
    }
    return fetch(source);
  }
  return source;
}

// compileEarly starts compiling source, a Response the module can stream from (one labelled
// application/wasm, as WebAssembly.compileStreaming requires), as its bytes arrive, before Go's
// imports exist to instantiate it with: it returns the promise of a WebAssembly.Module, which
// instantiate takes. Any other source is returned as it is, for instantiate to read whole or to
// report (index.js has its own copy, as it imports nothing).
export function compileEarly(source) {
  const response = typeof Response !== "undefined" && source instanceof Response;
  return response && source.ok && isWasm(source) && typeof WebAssembly.compileStreaming === "function" ? WebAssembly.compileStreaming(source) : source;
}

// isWasm says whether response is labelled application/wasm (the streaming functions refuse any
// other type).
function isWasm(response) {
  return /^\s*application\/wasm\s*(;|$)/i.test(response.headers.get("Content-Type") ?? "");
}

// fromResponse streams the module when the server labels it application/wasm, and reads it
// whole when it does not (instantiateStreaming refuses any other type).
async function fromResponse(response, imports, name) {
  if (!response.ok) {
    throw new Error(`aoekit: fetching ${response.url || name} failed: HTTP ${response.status}`);
  }
  if (typeof WebAssembly.instantiateStreaming === "function" && isWasm(response)) {
    return WebAssembly.instantiateStreaming(response, imports);
  }
  return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}

function isNode() {
  return typeof process === "object" && process !== null && typeof process.versions?.node === "string";
}

// nodeFS returns node:fs/promises without a static import, which bundlers would try to resolve
// for browsers.
async function nodeFS() {
  if (typeof process.getBuiltinModule === "function") return process.getBuiltinModule("node:fs").promises;
  const name = "node:fs/promises";
  return import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}

// checkSize throws too_large when body, a string of JSON, is more than limit bytes of UTF-8 —
// what Go's copy of it would take, and what an HTTP body is measured in. Every UTF-16 code unit
// is 1 to 3 bytes (a surrogate pair, 4 for two), so only strings between limit / 3 and limit
// units long are counted, and none is copied.
export function checkSize(name, body, limit) {
  if (body.length <= limit / 3) return;
  if (body.length > limit) tooLarge(name, body.length, true, limit);
  let bytes = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (body.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3; // a lone surrogate becomes U+FFFD
  }
  if (bytes > limit) tooLarge(name, bytes, false, limit);
}

// tooLarge throws the module's error for a request of n bytes ("at least" n) past limit.
export function tooLarge(name, n, atLeast, limit) {
  const mib = limit % 1048576 === 0 ? `${limit / 1048576} MiB (${limit} bytes)` : `${limit} bytes`;
  throw codedError("too_large", `${publicName(name)}: the request is ${atLeast ? "at least " : ""}${n} bytes of JSON; the limit is ${mib}`);
}

// publicName is the name a caller knows a module function by: scene.update for sceneUpdate,
// scene for sceneNew; the others are the engine's own.
function publicName(name) {
  if (name === "sceneNew") return "scene";
  return name.startsWith("scene") ? `scene.${name.charAt(5).toLowerCase()}${name.slice(6)}` : name;
}

// encode turns a request into the JSON the module reads; what JSON cannot carry (a cycle, a
// BigInt, undefined) is a bad_request.
export function encode(value) {
  let body;
  try {
    body = JSON.stringify(value);
  } catch (e) {
    throw codedError("bad_request", `the request is not JSON: ${e?.message ?? e}`);
  }
  if (typeof body !== "string") {
    throw codedError("bad_request", `the request is not JSON: ${typeof value}`);
  }
  // JSON.stringify writes NaN and ±Infinity as null, which the engine reads as a value left
  // out (its default): a range of NaN would be no range, a fill of NaN a full block. Where the
  // JSON has a null, the request is searched for them, and one is refused, naming its field.
  if (body.includes("null")) {
    const bad = nonFinite(value, "", 0);
    if (bad) throw new AoekitError("bad_request", `${bad.path}: expected a finite number, got ${bad.value}`, undefined, bad.path === "request" ? undefined : bad.path);
  }
  return body;
}

const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// nonFinite is the first number of value, as JSON.stringify visits it, that is NaN or ±Infinity
// (its path, as the engine names fields: tokens[0].x, resolve.defence["g 1"]), or undefined.
function nonFinite(value, path, depth) {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { path: path || "request", value: String(value) };
  if (value === null || typeof value !== "object" || depth > 64 || typeof value.toJSON === "function") return undefined;
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    if (value instanceof Int32Array || value instanceof Uint8Array) return undefined; // integers only
    for (let i = 0; i < value.length; i++) {
      const bad = nonFinite(value[i], `${path}[${i}]`, depth + 1);
      if (bad) return bad;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const bad = nonFinite(value[key], path === "" ? key : NAME.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`, depth + 1);
    if (bad) return bad;
  }
  return undefined;
}

export function codedError(code, message) {
  return new AoekitError(code, message);
}

// moduleError is an Error a module answered (code, message and maybe at, set by Go) as an
// AoekitError with the same fields.
export function moduleError(err) {
  return new AoekitError(err.code, err.message, err.at, err.field);
}

// internalError is a failure of the engine rather than of the request, reported as the module
// reports a recovered panic.
export function internalError(message) {
  return codedError("bad_request", `internal error: ${message}`);
}

// canvasOf is the canvas of target: a 2-D context's canvas (it has one, and no getContext), or
// target itself, which the overlay module checks.
export function canvasOf(target) {
  if (target !== null && typeof target === "object" && typeof target.getContext !== "function" && target.canvas !== null && typeof target.canvas === "object") {
    return target.canvas;
  }
  return target;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

// notDetached refuses packed obstacles whose buffer was transferred away (postMessage, and
// structuredClone with transfer, detach it): no view of it can be made, nor can it be sent.
export function notDetached(obstacles) {
  if (obstacles.byteLength !== 0 || obstacles.buffer.byteLength !== 0) return;
  let detached = obstacles.buffer.detached;
  if (typeof detached !== "boolean") {
    try {
      new Uint8Array(obstacles.buffer);
      detached = false;
    } catch {
      detached = true;
    }
  }
  if (detached) throw new AoekitError("bad_request", "obstacles: the Int32Array's buffer is detached (transferred elsewhere)", undefined, "obstacles");
}

// callArgs is the arguments of the module's function name for body and extra, what both
// runtimes' call are given: a scene's function's (its name starts with "scene") [id, packed
// obstacles], a board's (evaluate, evaluateCells) [packed obstacles], or nothing.
export function callArgs(name, body, extra) {
  if (extra.length === 0) return [body];
  return name.startsWith("scene") ? [extra[0], body, extra[1]] : [body, extra[0]];
}

// splitObstacles returns what's JSON of a board or a scene edit and, when its obstacles are an
// Int32Array of x, y, z, fill quads, their bytes (little-endian int32s) for the module: for the
// scenes of either module's engine (index.js, overlay.js).
export function splitObstacles(value, what) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw codedError("bad_request", `scene: the ${what} must be an object`);
  }
  const obstacles = value.obstacles;
  if (!(obstacles instanceof Int32Array)) return { json: encode(value), packed: undefined };
  // A Proxy over an Int32Array, or an object made from Int32Array.prototype, passes instanceof
  // but has no buffer to read (its getters throw a TypeError): only a real view is packed.
  if (!ArrayBuffer.isView(obstacles)) {
    throw new AoekitError("bad_request", "obstacles: expected an Int32Array of x, y, z, fill quads or an array of obstacles, got an object that only claims to be an Int32Array", undefined, "obstacles");
  }
  if (obstacles.length % 4 !== 0) {
    throw new AoekitError("bad_request", `obstacles: an Int32Array of x, y, z, fill quads, not ${obstacles.length} numbers`, undefined, "obstacles");
  }
  const { obstacles: _, ...rest } = value;
  notDetached(obstacles);
  return { json: encode(rest), packed: littleEndianBytes(obstacles) };
}

// int32s views packed cells (x, y, z little-endian int32s) as an Int32Array.
export function int32s(bytes) {
  if (LITTLE_ENDIAN) return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.byteLength >> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(4 * i, true);
  return out;
}

const UTF8 = new TextDecoder();

// splitResult reads an evaluate answer as the module sends it (wasm/internal/jsapi split): a
// little-endian uint32 n, n bytes of the result's JSON with "cells": [], zeros to a multiple of
// 4 bytes, then the cells as little-endian int32 x, y, z. The cells go back in their place in
// the parsed object: the object JSON.parse of the whole JSON would give, without parsing a
// thousand small arrays.
export function splitResult(bytes) {
  const n = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
  const result = JSON.parse(UTF8.decode(bytes.subarray(4, 4 + n)));
  if (Array.isArray(result.cells)) {
    const v = int32s(bytes.subarray(4 + ((n + 3) & ~3)));
    const cells = new Array(v.length / 3);
    for (let i = 0, k = 0; k < cells.length; i += 3, k++) cells[k] = [v[i], v[i + 1], v[i + 2]];
    result.cells = cells;
  }
  return result;
}

// packRequest returns what evaluate sends the module for request: its JSON and, when its
// obstacles read the same packed, their bytes (x, y, z, fill little-endian int32 quads, the fill
// in 1/400 of a cell, as splitObstacles packs a scene's), which the module reads after the
// JSON's obstacles (wire.EvaluatePacked) without parsing hundreds of small objects: a page's
// first evaluate on a board of 300 obstacles parsed ~1 500 fields, often enough for V8 to spend
// a core optimizing the parser during it (issue 30). They go packed only when JSON.stringify
// would write each as plain numbers the module reads exactly so: request and every obstacle a
// plain object (of Object.prototype, without toJSON), the list request's own enumerable array,
// each obstacle's fields only x, y (int32s), z (an int32 or absent) and a fill that is n/400
// for n = 1 … 400 (the float64 nearest it, whose shortest decimal is n/400 itself:
// engine.ParseFill), and the whole request's JSON surely under the size limit (a third of
// maxBody: its UTF-8 bytes, were it sent whole; a request past it gets the JSON path's
// refusal). Anything else goes as JSON alone, as every request did before; the answer is the
// same either way (web/test/packed.test.mjs).
export function packRequest(request, maxBody) {
  const obstacles = plain(request) && Object.prototype.propertyIsEnumerable.call(request, "obstacles") ? request.obstacles : undefined;
  if (!Array.isArray(obstacles) || obstacles.length === 0 || "toJSON" in obstacles) return [encode(request)];
  const limit = maxBody / 3;
  const quads = new Int32Array(4 * obstacles.length);
  let text = 14 + obstacles.length; // ,"obstacles":[ … ], and a comma between each two
  for (let i = 0; i < obstacles.length; i++) {
    const o = obstacles[i];
    if (!plain(o)) return [encode(request)];
    for (const key in o) {
      const v = o[key];
      if (key === "z" && v === undefined) continue; // left out by JSON.stringify
      if (!PACKED_KEYS.has(key) || typeof v !== "number") return [encode(request)];
      text += key.length + 4 + String(v).length; // "key":v, with the comma before the next
    }
    const { x, y, z = 0, fill } = o;
    const units = Math.round(fill * 400);
    if (!(int32(x) && int32(y) && int32(z) && units >= 1 && units <= 400 && units / 400 === fill)) return [encode(request)];
    text += 1; // {}, less the comma after the last field
    if (text > limit) return [encode(request)]; // refused as JSON (or sent whole), its obstacles not all read first
    quads[4 * i] = x;
    quads[4 * i + 1] = y;
    quads[4 * i + 2] = z;
    quads[4 * i + 3] = units;
  }
  const { obstacles: _, ...rest } = request;
  const json = encode(rest);
  if (json.length + text > limit) return [encode(request)];
  return [json, littleEndianBytes(quads)];
}

const PACKED_KEYS = new Set(["x", "y", "z", "fill"]);

function plain(v) {
  return v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype && !("toJSON" in v);
}

function int32(v) {
  return Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff;
}

// littleEndianBytes is the bytes of an Int32Array as little-endian int32s.
function littleEndianBytes(a) {
  if (LITTLE_ENDIAN) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const bytes = new Uint8Array(a.byteLength);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < a.length; i++) view.setInt32(4 * i, a[i], true);
  return bytes;
}

// engineOf is the Engine (index.d.ts) over a module's runtime: call(name, body) calls one of
// its functions with a body (refused past maxBody, the module's limit, by the caller), and
// scene(board) makes a scene (newScene). load()'s engine and the overlay module's are both
// made here, so that they answer alike.
export function engineOf(call, maxBody, scene) {
  // A text longer than the limit makes JSON longer still: refused before JSON.stringify
  // copies it.
  const text = (t) => (typeof t === "string" && t.length > maxBody ? tooLarge("parse", t.length + 11, true, maxBody) : t);
  return Object.freeze({
    // options.rules: the rule set whose notation t is (dnd5e and pf2e need it, SPEC §10.3);
    // an absent one is left out of the JSON.
    parse: (t, options) => JSON.parse(call("parse", encode({ text: text(t), rules: options?.rules }))),
    evaluate: (request) => splitResult(call("evaluate", ...packRequest(request, maxBody))),
    evaluateCells: (request) => int32s(call("evaluateCells", ...packRequest(request, maxBody))),
    move: (request) => JSON.parse(call("move", encode(request))),
    cover: (request) => JSON.parse(call("cover", encode(request))),
    fullAttack: (request) => JSON.parse(call("fullAttack", encode(request))),
    scene,
    version: () => JSON.parse(call("version")),
  });
}

// newScene makes a scene (CONTRACT scene) of board through call(name, body, id, packed,
// generation), the runtime's call for a scene's functions, which refuses a scene whose
// generation (the instance it was made on, generation() after making it) no longer runs;
// alive() says whether an instance runs. It returns the scene and its info ({id, generation,
// disposed}).
export function newScene(board, call, generation, alive) {
  const { json, packed } = splitObstacles(board, "board");
  const id = Number(call("sceneNew", json, 0, packed));
  const info = { id, generation: generation(), disposed: false }; // after the call, which may have started a fresh instance
  const sceneCall = (name, body, bytes) => {
    if (info.disposed) throw codedError("bad_request", `${publicName(name)} after dispose`);
    return call(name, body, id, bytes, info.generation);
  };
  const scene = Object.freeze({
    update: (edit) => {
      const { json: body, packed: bytes } = splitObstacles(edit, "edit");
      sceneCall("sceneUpdate", body, bytes);
    },
    evaluate: (request) => splitResult(sceneCall("sceneEvaluate", encode(request))),
    evaluateCells: (request) => int32s(sceneCall("sceneEvaluateCells", encode(request))),
    dispose: () => {
      if (info.disposed) return;
      try {
        if (generation() === info.generation && alive()) call("sceneDispose", undefined, id);
      } finally {
        info.disposed = true;
      }
    },
  });
  return { scene, info };
}

// WARMUP is the requests warmUp runs: a TDGS circle among tokens that face and take sides, an
// obstacle, a wall, bounds and cover lines, large enough that its answer writes numbers of
// three digits; a Draw Steel burst among walls, with no bounds (its every cell decided);
// CONTRACT's cone aimed from an origin, with targeting and resolution; a dnd5e fireball on an
// intersection and a pf2e cone on the same board (the point-origin path, its cover with
// creatures in the way).
const WARMUP = (() => {
  // a 46 × 46 board: a token in the circle with a half obstacle before it (cover lines), a
  // large one, and twelve more that face and take sides; 40 more obstacles (full, half,
  // quarter), a wall, bounds: enough to decode what a page's board holds
  const tokens = [{ id: "t", x: 5, y: 0, z: 0, side: "enemy" }, { id: "u", x: 3, y: 1, z: 0, size: 2, facing: "S" }];
  for (let i = 0; i < 12; i++) {
    tokens.push({ id: `t${i}`, x: 8 + i, y: i % 2 === 0 ? 3 : 12, z: 0, size: 1 + (i % 2), facing: "NESW"[i % 4], side: i % 3 === 0 ? "party" : "enemy" });
  }
  const obstacles = [{ x: 4, y: 1, z: 0, fill: 0.5 }, { x: -1, y: 1, z: 0, fill: 0.5 }];
  for (let i = 0; i < 40; i++) obstacles.push({ x: (i * 7) % 40, y: 16 + ((i * 3) % 20), z: 0, fill: [1, 0.5, 0.25][i % 3] });
  const board = { tokens, obstacles, walls: [{ a: [6, -2], b: [6, 2] }], bounds: { min: [-5, -5, 0], max: [40, 40, 0] } };
  return [
    { template: "Cir6", caster: { id: "c", x: 0, y: 0, z: 0, facing: "E", side: "party" }, origin: { x: 4, y: 0, z: 0 }, range: 10, ...board },
    { template: "2 burst", caster: { id: "c", x: 0, y: 0, z: 0 }, tokens: [{ id: "t", x: 2, y: 0, z: 0 }],
      obstacles: [{ x: 1, y: 0, z: 0 }], walls: [{ a: [-1, -3], b: [-1, 3] }] },
    { rules: "tdgs", template: "Con4NE", caster: { id: "c", x: 5, y: 5, z: 0, size: 1, height: 1, facing: "N", side: "party" },
      origin: { x: 9, y: 2, z: 0 }, aim: { x: 12, y: 4, z: 0 }, range: 20,
      tokens: [{ id: "g", x: 7, y: 3, z: 0, size: 1, height: 1, side: "enemy", prone: false }], obstacles: [{ x: 6, y: 3, z: 0, fill: 1 }],
      targeting: { trait: "alliesExcluded", ids: [], excludeCaster: false, excludeCells: [[0, 0, 0]] },
      resolve: { stat: 7, modifiers: 0, luck: 0, seed: 42, defence: { g: 5 } } },
    { rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 9, y: 6, z: 0 }, caster: { id: "c", x: 0, y: 0, z: 0, side: "party" },
      range: 30, ...board },
    { rules: "pf2e", template: "30-foot cone", caster: { id: "c", x: 0, y: 0, z: 0, side: "party" }, toward: "SE", ...board },
  ];
})();

// warmUp is run once on the engine that load() and loadOverlay() resolve with: it makes the
// calls a page makes first (evaluate, evaluateCells, and a scene made, evaluated, edited and
// disposed of), so that those do not pay for compiling the module's functions. A WebAssembly
// engine compiles each function lazily, on its first call, and in Chromium such a compile on
// the page's thread can wait 5–18 ms behind the module's background tier-up: a scene's first
// evaluate after load() took some 20 ms, a stateless one 2–14, before the warm-up covered them.
// It is only a warm-up: an engine that fails it says so at the caller's first call. It returns
// what it caught (the tests require none).
export function warmUp(engine) {
  const caught = [];
  for (const step of warmUpSteps(engine, caught)) step();
  return caught;
}

// warmUpSteps returns warmUp's calls on engine, each a function that pushes what it throws onto
// caught.
function warmUpSteps(engine, caught) {
  const attempt = (f) => () => {
    try {
      f();
    } catch (err) {
      caught.push(err);
    }
  };
  return [
    ...WARMUP.map((request) => attempt(() => engine.evaluate(request))),
    attempt(() => engine.evaluateCells(WARMUP[1])),
    attempt(() => {
      const { template, caster, origin, range, ...board } = WARMUP[0];
      const scene = engine.scene(board);
      try {
        for (let x = 0; x <= 2; x++) scene.evaluate({ template, caster, origin: { x, y: 0, z: 0 }, range }); // dragged from the caster
        scene.update({ tokens: [{ ...board.tokens[0], x: 6 }], remove: ["t1"], clear: [[0, 16, 0]], obstacles: [{ x: 2, y: 2, z: 0 }] });
        scene.evaluateCells({ template, caster, origin, range });
      } finally {
        scene.dispose();
      }
    }),
  ];
}

// warmUpLater runs warmUp's calls on engine after load() has resolved with it, one at a time,
// each when the page is idle (requestIdleCallback; elsewhere, such as in Node, a timer that
// does not hold the process open): a page's first result no longer waits for the whole warm-up
// (issue 30; in Chromium, fresh contexts taken in turn on a busy 2-core machine, import → first
// result 316 -> 266 ms median, together with index.js's early download), and its later calls
// still find their functions compiled. A call the page makes before the warm-up's compiles
// what it needs itself, as it would without one. Errors are caught, as warmUp catches them.
export function warmUpLater(engine) {
  const steps = warmUpSteps(engine, []);
  const next = () => {
    const step = steps.shift();
    if (step === undefined) return;
    step();
    later(next);
  };
  later(next);
}

// later runs f once the host is idle, or after a second at the latest (a page that is never
// idle would otherwise never be warmed).
function later(f) {
  if (typeof globalThis.requestIdleCallback === "function") {
    globalThis.requestIdleCallback(() => f(), { timeout: 1000 });
    return;
  }
  globalThis.setTimeout(f, 0)?.unref?.();
}

const UTF8_OUT = new TextEncoder();

// directCalls replaces the functions of fns that the module also answers directly (fns.direct:
// "name:kind" by index, wasm/internal/jsapi direct_js.go) by ones that call it so: the
// request's UTF-8 written into the module's memory, its own exports aoekit_in, aoekit_call and
// aoekit_out called, the answer copied out. They take and give what the functions they replace
// do (a string or a Uint8Array, or an Error with code, message and maybe at and field);
// arguments those would refuse or read otherwise (a body that is not a string or too long to
// count here, a scene id that is not a 32-bit integer, packed obstacles that are not a
// Uint8Array or are more than maxPacked bytes) go to them, which say why without copying them
// into the module (a direct call copies first: 2 GiB of obstacles stopped the instance). A
// call through syscall/js cost some 14 µs in Node; a direct one some 3, most of it encoding and
// decoding. (Exported for direct.test.)
export function directCalls(fns, instance) {
  const ex = instance.exports;
  if (typeof fns.direct !== "string" || typeof ex.aoekit_call !== "function") return;
  fns.direct.trim().split(" ").forEach((entry, index) => {
    const [name, kind] = entry.split(":");
    const viaJS = fns[name];
    const scene = (Number(kind) & 1) !== 0;
    const packedAnswer = (Number(kind) & 2) !== 0;
    const board = (Number(kind) & 4) !== 0;
    fns[name] = (...args) => {
      const [id, body, packed] = scene ? args : [0, args[0], board ? args[1] : undefined];
      if ((body !== undefined && typeof body !== "string") || body?.length > fns.maxBody || (scene && (id | 0) !== id) ||
        (packed !== undefined && packed !== null && (!(packed instanceof Uint8Array) || !(packed.length <= fns.maxPacked)))) {
        return viaJS(...args);
      }
      const bytes = body === undefined ? new Uint8Array(0) : UTF8_OUT.encode(body);
      const np = packed?.length ?? 0;
      // The module's addresses are uint32s, which JavaScript reads as signed: >>> 0 past 2 GiB.
      const at = ex.aoekit_in(bytes.length + np) >>> 0;
      const into = new Uint8Array(ex.mem.buffer, at, bytes.length + np);
      into.set(bytes);
      if (np > 0) into.set(packed, bytes.length);
      const r = ex.aoekit_call(index, bytes.length, id, np);
      const n = r >= 0 ? r : -1 - r;
      const out = new Uint8Array(ex.mem.buffer, ex.aoekit_out() >>> 0, n);
      if (r < 0) {
        const { code, message, at: where, field } = JSON.parse(UTF8.decode(out)).error;
        return Object.assign(new Error(message), { code }, where === undefined ? {} : { at: where }, field === undefined ? {} : { field });
      }
      return packedAnswer ? out.slice() : UTF8.decode(out);
    };
  });
}

// runModule runs a module's Go program on instance (go: newGo's handle) and returns the
// functions its main registered on the handshake object, globalThis[handshake] while main runs:
// every one of names, and maxBody. A module that registers less is stopped, and the error says
// which file it should have been.
export function runModule(go, instance, handshake, names, file) {
  try {
    const fns = {};
    globalThis[handshake] = fns;
    let exited;
    try {
      exited = go.runtime.run(instance);
    } finally {
      delete globalThis[handshake];
    }
    exited.catch(() => {}); // a failed start shows below; a later exit, at the next call
    for (const name of names) {
      if (typeof fns[name] !== "function") {
        throw new Error(`aoekit: the module did not register ${name}: is it ${file}, built by the Go of wasm_exec.js?`);
      }
    }
    if (!Number.isSafeInteger(fns.maxBody) || fns.maxBody <= 0) {
      throw new Error(`aoekit: the module did not register maxBody: is it ${file}, built by the Go of wasm_exec.js?`);
    }
    directCalls(fns, instance);
    return fns;
  } catch (err) {
    go.stop();
    throw err;
  }
}
