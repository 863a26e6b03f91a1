// The direct calls (wasm/internal/jsapi direct_js.go; internal/wasm.js directCalls): the
// engine's functions called through the module's own exports, the request and answer in its
// memory, must answer exactly as the same functions called through syscall/js, which they
// replace for every call the loaders make. Two instances of aoekit.wasm side by side, one
// started by runModule (direct) and one started bare (syscall/js only), get every request of
// the cross-door corpus, as evaluateCells too, a run of scene calls with JSON and packed
// obstacles, stateless evaluates with packed obstacles, and hostile bodies; their answers must be the same bytes, and their errors the same
// code, message, at and field.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { directCalls, instantiate, loadGo, newGo, runModule, splitObstacles } from "../internal/wasm.js";
import { ROOT, generator } from "./helpers.mjs";

const EXPORTS = ["parse", "evaluate", "evaluateCells", "move", "cover", "fullAttack", "version", "sceneNew", "sceneUpdate", "sceneEvaluate", "sceneEvaluateCells", "sceneDispose"];
const DOORS = { parse: "parse", evaluate: "evaluate", move: "move", cover: "cover", "full-attack": "fullAttack" };

async function twoInstances() {
  await loadGo();
  const { module } = await instantiate(readFileSync(join(ROOT, "web/aoekit.wasm")), newGo().runtime.importObject);
  const goDirect = newGo();
  const instance = new WebAssembly.Instance(module, goDirect.runtime.importObject);
  const direct = runModule(goDirect, instance, "__aoekit", EXPORTS, "aoekit.wasm");
  const goJS = newGo();
  const viaJS = {};
  globalThis.__aoekit = viaJS;
  try {
    goJS.runtime.run(new WebAssembly.Instance(module, goJS.runtime.importObject));
  } finally {
    delete globalThis.__aoekit;
  }
  const listed = direct.direct.trim().split(" ").map((entry) => entry.split(":")[0]);
  assert.deepEqual(listed, EXPORTS, "the module lists its direct calls");
  assert.ok(EXPORTS.every((name) => direct[name] !== viaJS[name]), "every engine function is called directly");
  return { direct, viaJS, memory: () => instance.exports.mem.buffer.byteLength, stop: () => { goDirect.stop(); goJS.stop(); } };
}

// same calls name on both with args and compares what they give: a string, the bytes of a
// Uint8Array, or an Error's code, message, at and field.
function same(fns, name, ...args) {
  const a = fns.direct[name](...args);
  const b = fns.viaJS[name](...args);
  const what = `${name}(${args.map((a) => (a instanceof Uint8Array ? `Uint8Array(${a.length})` : JSON.stringify(a)?.slice(0, 120))).join(", ")})`;
  if (b instanceof Error) {
    assert.ok(a instanceof Error, `${what}: direct answered, via syscall/js refused: ${b.message}`);
    assert.deepEqual({ code: a.code, message: a.message, at: a.at, field: a.field }, { code: b.code, message: b.message, at: b.at, field: b.field }, what);
    assert.ok(typeof a.code === "string");
  } else if (b instanceof Uint8Array) {
    assert.ok(a instanceof Uint8Array, `${what}: ${a}`);
    assert.ok(Buffer.from(a).equals(Buffer.from(b)), `${what}: the bytes differ`);
  } else {
    assert.equal(typeof b, "string");
    assert.equal(a, b, what);
  }
  return a;
}

test("direct calls answer every corpus request, scene calls and hostile bodies as syscall/js calls do", async () => {
  const fns = await twoInstances();
  try {
    const corpus = JSON.parse(readFileSync(join(ROOT, "wasm/identity/requests.json"), "utf8"));
    let errors = 0;
    for (const { door, body } of corpus) {
      const out = same(fns, DOORS[door], JSON.stringify(body));
      if (out instanceof Error) errors++;
      if (door === "evaluate") same(fns, "evaluateCells", JSON.stringify(body));
    }
    assert.ok(errors > 20 && errors < corpus.length - 20, `${errors} of ${corpus.length} corpus requests refused: both kinds must be there`);
    same(fns, "version");
    for (const body of ["", "{", "[]", "null", '{"template": "Cir2"}', '{"template": "Cir2", "caster": {"id": "c", "x": 1e300}}', '{"text": "\ud800"}', "\u00e9\u4e2d".repeat(100), " ".repeat(70000) + "{}"]) {
      for (const name of ["parse", "evaluate", "evaluateCells", "move", "cover", "fullAttack"]) same(fns, name, body);
    }

    // Scenes: made from JSON and from packed obstacles, edited, evaluated, disposed; the same
    // ids on both instances, started alike.
    const random = generator(7);
    const rand = (n) => Math.floor(random() * n);
    const board = { tokens: [{ id: "a", x: 2, y: 2, z: 0 }, { id: "b", x: 6, y: 3, z: 0, size: 2 }], walls: [{ a: [4, 0], b: [4, 5] }], bounds: { min: [0, 0, 0], max: [19, 19, 0] } };
    const obstacles = new Int32Array(4 * 40);
    for (let i = 0; i < 40; i++) obstacles.set([rand(20), rand(20), 0, [400, 200][rand(2)]], 4 * i);
    const { json, packed } = splitObstacles({ ...board, obstacles }, "board");
    const ids = [same(fns, "sceneNew", 0, json, packed), same(fns, "sceneNew", 0, JSON.stringify({ ...board, obstacles: [{ x: 5, y: 5, z: 0 }] }), undefined)];
    assert.ok(ids.every((id) => typeof id === "string" && Number(id) > 0), `both scenes made: ${ids.map((id) => id.message ?? id)}`);
    for (const id of [2 ** 32 + 1, -1, 1.5, NaN]) same(fns, "sceneEvaluate", id, JSON.stringify({ template: "Cir1" }), undefined);
    let updated = 0;
    for (const id of [...ids.map(Number), 99]) {
      for (const frame of [{ template: "Cir3", caster: { id: "c", x: 10, y: 10, z: 0 }, origin: { x: 6, y: 6, z: 0 }, range: 20 }, { template: "3 burst", caster: { id: "c", x: 10, y: 10, z: 0 } }, { template: "Cir3" }]) {
        same(fns, "sceneEvaluate", id, JSON.stringify(frame), undefined);
        same(fns, "sceneEvaluateCells", id, JSON.stringify(frame), undefined);
      }
      const moved = same(fns, "sceneUpdate", id, JSON.stringify({ tokens: [{ id: "a", x: 9, y: 9, z: 0 }], clear: [[5, 5, 0]] }), undefined);
      if (!(moved instanceof Error)) updated++;
      same(fns, "sceneUpdate", id, JSON.stringify({ remove: ["nobody"] }), undefined);
      const packedEdit = splitObstacles({ obstacles: new Int32Array([3, 3, 0, 400, 4, 3, 0, 200]) }, "edit");
      same(fns, "sceneUpdate", id, packedEdit.json, packedEdit.packed);
      same(fns, "sceneEvaluate", id, JSON.stringify({ template: "2 burst", caster: { id: "c", x: 9, y: 8, z: 0 } }), undefined);
      same(fns, "sceneDispose", id, undefined, undefined);
      same(fns, "sceneEvaluate", id, JSON.stringify({ template: "Cir1" }), undefined);
    }
    assert.ok(updated >= 1, "some scene took the edit (one may refuse it: token a moved onto a random obstacle)");

    // A stateless evaluate's obstacles packed after its body's (packRequest): the same answers,
    // and the same refusals of packed obstacles that are not a whole number of quads, not a
    // Uint8Array, or out of range.
    const frame = { template: "Cir3", caster: { id: "c", x: 10, y: 10, z: 0 }, origin: { x: 6, y: 6, z: 0 }, range: 20, ...board };
    for (const name of ["evaluate", "evaluateCells"]) {
      same(fns, name, JSON.stringify(frame), packed);
      same(fns, name, JSON.stringify({ ...frame, obstacles: [{ x: 7, y: 7, z: 0, fill: 0.5 }] }), packed);
      for (const bad of [new Uint8Array(12), new Uint8Array(new Int32Array([1, 1, 0, 401]).buffer), new Uint8Array(new Int32Array([1, 1, 0, 0]).buffer), [1, 2, 3, 4]]) {
        const err = same(fns, name, JSON.stringify(frame), bad);
        assert.ok(err instanceof Error && err.code === "bad_request", `${name} with ${bad.length} bad packed bytes: ${err.message ?? "answered"}`);
      }
    }
  } finally {
    fns.stop();
  }
});

// Packed obstacles past the module's limit (maxPacked bytes: CONTRACT's 250 000 obstacles) are
// refused before they are copied into the module's memory, which a direct call would do first
// (2 GiB of them stopped the instance, losing every scene): the same too_large error as
// through syscall/js, field "obstacles", the memory not grown by them, and the instance alive.
test("packed obstacles past the limit are refused before they cross", async () => {
  const fns = await twoInstances();
  try {
    const max = fns.direct.maxPacked;
    assert.equal(max, 16 * 250000, "maxPacked: CONTRACT's 250 000 obstacles of 16 bytes");
    const id = same(fns, "sceneNew", 0, "{}", new Uint8Array(new Int32Array([1, 1, 0, 400, 2, 1, 0, 200]).buffer));
    assert.ok(Number(id) > 0, `a scene of 2 packed obstacles: ${id.message ?? id}`);
    for (const n of [max + 16, 64 << 20]) {
      const before = fns.memory();
      const err = same(fns, "sceneNew", 0, "{}", new Uint8Array(n));
      assert.ok(err instanceof Error && err.code === "too_large" && err.field === "obstacles", `${n} bytes: ${err.message ?? err}`);
      assert.equal(err.message, `obstacles (packed): ${n / 16} obstacles, past the limit of 250000`);
      assert.ok(fns.memory() - before < n, `${n} bytes refused, yet the module's memory grew by ${fns.memory() - before}`);
      same(fns, "sceneUpdate", Number(id), "{}", new Uint8Array(n));
    }
    same(fns, "sceneEvaluate", Number(id), JSON.stringify({ template: "Cir1", origin: { x: 1, y: 1, z: 1 } }), undefined);
  } finally {
    fns.stop();
  }
});

// The module's addresses are uint32s, which JavaScript reads as signed 32-bit numbers: past
// 2 GiB of memory aoekit_in and aoekit_out come back negative. A stand-in instance whose memory
// is 2 GiB and 64 KiB (committed only where written) and whose buffers lie past 2 GiB: the
// request must arrive there and the answer be read from there. (With the module itself, 77
// scenes of 250 000 packed obstacles took it past 2 GiB, and every call then failed: "Start
// offset -2135457792 is outside the bounds of the buffer".)
test("direct calls read the module's addresses past 2 GiB as unsigned", () => {
  const mem = { buffer: new ArrayBuffer(2 ** 31 + 2 ** 16) };
  const IN = 2 ** 31 + 16, OUT = 2 ** 31 + 2 ** 15;
  const answer = new TextEncoder().encode('{"ok":"answered from past 2 GiB"}');
  let got = null;
  const exports = {
    mem,
    aoekit_in: () => IN | 0, // as WebAssembly gives an i32 to JavaScript
    aoekit_call: (index, n) => {
      got = new TextDecoder().decode(new Uint8Array(mem.buffer, IN, n));
      new Uint8Array(mem.buffer, OUT, answer.length).set(answer);
      return answer.length;
    },
    aoekit_out: () => OUT | 0,
  };
  assert.ok((IN | 0) < 0 && (OUT | 0) < 0, "the stand-in's addresses read as negative i32s");
  const fns = { direct: "evaluate:0", maxBody: 1 << 20, maxPacked: 1 << 20, evaluate: () => assert.fail("called through syscall/js") };
  directCalls(fns, { exports });
  assert.equal(fns.evaluate('{"template":"Cir1"}'), '{"ok":"answered from past 2 GiB"}');
  assert.equal(got, '{"template":"Cir1"}');
});
