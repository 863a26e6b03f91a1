// A stateless evaluate sends its board's obstacles packed when each reads the same so
// (internal/wasm.js packRequest, wire.EvaluatePacked; issue 30): which requests go packed and
// which go as JSON alone, what the packed bytes hold, and the same answer either way — for
// random boards (every fill n/400, negative coordinates, z left out), for evaluate and
// evaluateCells, errors included.
import assert from "node:assert/strict";
import { test } from "node:test";

import { load } from "../index.js";
import { encode, packRequest } from "../internal/wasm.js";
import { CONTRACT_REQUEST, generator } from "./helpers.mjs";

const MAX_BODY = 1 << 20; // the module's maxBody

// asJSON is request with obstacles JSON.stringify writes as it writes request's, but that are
// not plain objects: packRequest sends them as JSON.
class Obstacle {}
const asJSON = (request) => ({ ...request, obstacles: request.obstacles.map((o) => Object.assign(new Obstacle(), o)) });

test("packRequest packs plain obstacles of int32 coordinates and fills n/400, in order, and leaves them out of the JSON", () => {
  const request = { ...CONTRACT_REQUEST, obstacles: [{ x: 6, y: 3, z: 0, fill: 1 }, { fill: 0.5, y: -4, x: 2147483647 }, { x: -2147483648, y: 0, z: 2, fill: 0.0025 }] };
  const [json, packed] = packRequest(request, MAX_BODY);
  assert.ok(packed instanceof Uint8Array);
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const quads = Array.from({ length: packed.length / 4 }, (_, i) => view.getInt32(4 * i, true));
  assert.deepEqual(quads, [6, 3, 0, 400, 2147483647, -4, 0, 200, -2147483648, 0, 2, 1]);
  const { obstacles: _, ...rest } = request;
  assert.equal(json, JSON.stringify(rest));
});

test("packRequest sends as JSON alone what might not read the same packed", () => {
  const base = { template: "Cir2", caster: { id: "c", x: 0, y: 0, z: 0 } };
  const ok = { x: 1, y: 2, z: 0, fill: 1 };
  class Request {}
  const inherited = Object.create({ obstacles: [ok] });
  const hidden = { ...base };
  Object.defineProperty(hidden, "obstacles", { value: [ok], enumerable: false });
  const cases = {
    "no obstacles": base,
    "an empty list": { ...base, obstacles: [] },
    "a list that is not an array": { ...base, obstacles: { 0: ok, length: 1 } },
    "a list with toJSON": { ...base, obstacles: Object.assign([ok], { toJSON: () => [] }) },
    "a hole in the list": { ...base, obstacles: [ok, , ok] }, // eslint-disable-line no-sparse-arrays
    "null in the list": { ...base, obstacles: [ok, null] },
    "another field": { ...base, obstacles: [{ ...ok, note: "crate" }] },
    "fill left out": { ...base, obstacles: [{ x: 1, y: 2, z: 0 }] },
    "fill 0": { ...base, obstacles: [{ ...ok, fill: 0 }] },
    "fill null": { ...base, obstacles: [{ ...ok, fill: null }] },
    "fill 1/3": { ...base, obstacles: [{ ...ok, fill: 1 / 3 }] },
    "fill 0.3 (120/400 in JSON, not the float64 nearest it)": { ...base, obstacles: [{ ...ok, fill: 0.1 + 0.2 }] },
    "fill past 1": { ...base, obstacles: [{ ...ok, fill: 1.0025 }] },
    "fill as text": { ...base, obstacles: [{ ...ok, fill: "0.5" }] },
    "x a fraction": { ...base, obstacles: [{ ...ok, x: 1.5 }] },
    "x past int32": { ...base, obstacles: [{ ...ok, x: 2 ** 31 }] },
    "x NaN": { ...base, obstacles: [{ ...ok, x: NaN }] },
    "y left out": { ...base, obstacles: [{ x: 1, z: 0, fill: 1 }] },
    "z null": { ...base, obstacles: [{ ...ok, z: null }] },
    "an obstacle of a class": { ...base, obstacles: [Object.assign(new Obstacle(), ok)] },
    "an obstacle with toJSON": { ...base, obstacles: [{ ...ok, toJSON: () => ({}) }] },
    "an obstacle of no prototype": { ...base, obstacles: [Object.assign(Object.create(null), ok)] },
    "a request of a class": Object.assign(new Request(), base, { obstacles: [ok] }),
    "a request with toJSON": { ...base, obstacles: [ok], toJSON: () => base },
    "inherited obstacles": inherited,
    "obstacles not enumerable": hidden,
    "more obstacles than the limit's JSON holds": { ...base, obstacles: Array.from({ length: 20000 }, (_, i) => ({ x: i, y: 2, fill: 1 })) },
    "a request near the limit": { ...base, caster: { ...base.caster, id: "c".repeat(MAX_BODY / 3 - 80) }, obstacles: [ok] },
  };
  const attempt = (f) => {
    try {
      return f();
    } catch (err) {
      return { code: err.code, message: err.message };
    }
  };
  for (const [what, request] of Object.entries(cases)) {
    // as JSON alone: what encode gives (or throws: a NaN)
    assert.deepEqual(attempt(() => packRequest(request, MAX_BODY)), attempt(() => [encode(request)]), what);
  }
  // and z left out packs, as JSON reads it: 0
  const [, packed] = packRequest({ ...base, obstacles: [{ x: 1, y: 2, fill: 1 }] }, MAX_BODY);
  assert.deepEqual(Array.from(new Int32Array(packed.buffer.slice(packed.byteOffset, packed.byteOffset + 16))), [1, 2, 0, 400]);
});

test("evaluate and evaluateCells answer alike with obstacles packed and sent as JSON", async () => {
  const engine = await load();
  const random = generator(30);
  const rand = (n) => Math.floor(random() * n);
  const fills = new Set();
  let packedRequests = 0;
  let refused = 0;
  const answer = (f) => {
    try {
      return { value: f() };
    } catch (err) {
      return { code: err.code, message: err.message, at: err.at, field: err.field };
    }
  };
  for (let k = 0; k < 40; k++) {
    const obstacles = [];
    for (let i = 0, n = 1 + rand(300); i < n; i++) {
      const units = 1 + rand(400);
      fills.add(units);
      const o = { x: rand(50) - 10, y: rand(50) - 10, fill: units / 400 };
      if (rand(3) > 0) o.z = rand(3) - 1;
      obstacles.push(o);
    }
    const request = {
      template: ["Cir4", "Con6NE", "3 burst", "Line8E"][k % 4],
      caster: { id: "caster", x: 15 + rand(10), y: 15 + rand(10), z: 0, facing: "N" },
      origin: k % 4 < 2 ? { x: 14 + rand(10), y: 14 + rand(10), z: 0 } : undefined,
      range: 20,
      tokens: Array.from({ length: 10 }, (_, i) => ({ id: `t${i}`, x: rand(40), y: rand(40), z: 0 })),
      obstacles,
      bounds: k % 5 === 0 ? undefined : { min: [-10, -10, -1], max: [39, 39, 1] },
    };
    if (packRequest(request, MAX_BODY).length === 2) packedRequests++;
    assert.equal(packRequest(asJSON(request), MAX_BODY).length, 1);
    const a = answer(() => engine.evaluate(request));
    const b = answer(() => engine.evaluate(asJSON(request)));
    assert.deepEqual(a, b, `request ${k}`);
    if (a.code) refused++;
    const cells = answer(() => Array.from(engine.evaluateCells(request)));
    assert.deepEqual(cells, answer(() => Array.from(engine.evaluateCells(asJSON(request)))), `request ${k}, cells`);
  }
  assert.equal(packedRequests, 40, "every random request went packed");
  assert.ok(refused < 40, `${refused} of 40 refused: answers must be compared too`);
  assert.ok(fills.size > 390, `${fills.size} of the 400 fills tried`);
});
