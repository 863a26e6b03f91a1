// 1 000 hostile calls — wrong types, missing fields, huge numbers, NaN, cycles, BigInt, strings
// where objects belong… — each answered or refused with a CONTRACT error (never a panic), and
// each followed by a good call that still gives the same answer. SLOW=1 lists the slowest calls.
import assert from "node:assert/strict";
import { test } from "node:test";

import { CONTRACT_FROM_CASTER, FULL_ATTACK_REQUEST, MOVE_REQUEST, checkError, checkFullAttack, checkMove, checkResult, engine, generator } from "./helpers.mjs";

// HOSTILE_CALLS=1000000 for a long run (make test runs 1,000); HOSTILE_SECONDS stops it after
// that many seconds (the count made is logged, with the slowest call and the peak resident memory).
const CALLS = Number(process.env.HOSTILE_CALLS ?? 1000);
const SECONDS = Number(process.env.HOSTILE_SECONDS ?? 0);

function nested(depth, make) {
  let v = 0;
  for (let i = 0; i < depth; i++) v = make(v);
  return v;
}

// Each entry makes a fresh hostile value (some are mutated by the engine's callers: cycles).
const HOSTILE = [
  () => undefined, () => null, () => NaN, () => Infinity, () => -Infinity, () => -0, () => 0.5, () => -1, () => 1e21,
  () => 1e308, () => -1e308, () => 2 ** 31, () => -(2 ** 31) - 1, () => 2 ** 53 + 2, () => 2 ** 64, () => Number.MIN_VALUE,
  () => "", () => "x", () => "Con4NE", () => "\u0000\u001f\"\\", () => "\ud800", () => "🙂".repeat(1000), () => "x".repeat(100_000),
  () => "1", () => "NaN", () => "self", () => "touch", () => true, () => false,
  () => [], () => ({}), () => [[]], () => [1, 2], () => [1, 2, 3, 4], () => ["a", "b", "c"], () => [NaN, NaN, NaN],
  () => ({ x: "1", y: null }), () => ({ x: 1.5, y: 2, z: 0 }), () => ({ x: 1e300, y: -1e300, z: 0 }),
  () => { const o = { a: 1 }; o.self = o; return o; },
  () => { const a = [1]; a.push(a); return a; },
  () => 10n, () => [1n, 2n, 3n], () => Symbol("s"), () => () => 1,
  () => new Date(0), () => /re/, () => new Map([[1, 2]]), () => new Set([1]), () => new Uint8Array([1, 2, 3]),
  () => ({ toJSON() { throw new Error("toJSON refuses"); } }),
  () => ({ get x() { throw new Error("getter refuses"); } }),
  () => ({ toJSON() { return "Cir3"; } }),
  () => Object.create(null),
  () => nested(60, (v) => [v]), () => nested(100, (v) => [v]), () => nested(100, (v) => ({ a: v })),
  () => nested(100_000, (v) => [v]), // deeper than JSON.stringify goes
  () => Array(20_000).fill(0), () => Array.from({ length: 10_001 }, (_, i) => ({ id: `t${i}`, x: i, y: 0, z: 0 })),
  () => Array.from({ length: 300 }, () => [1e9, -1e9, 0]),
  () => ({ id: "x".repeat(10_000), x: 0, y: 0, z: 0 }),
  () => ({ min: [0, 0, 0], max: [-5, -5, -5] }), () => ({ min: [1e7, 0, 0], max: [0, 0, 0] }),
];

// Fields to poke, by method; each path is walked and its last key replaced or deleted.
const GOOD = {
  evaluate: CONTRACT_FROM_CASTER,
  evaluateCells: CONTRACT_FROM_CASTER,
  move: MOVE_REQUEST,
  fullAttack: FULL_ATTACK_REQUEST,
};

function paths(value, prefix = [], out = []) {
  if (value !== null && typeof value === "object") {
    for (const key of Object.keys(value)) {
      out.push([...prefix, key]);
      paths(value[key], [...prefix, key], out);
    }
  }
  return out;
}

const TEMPLATES = ["Cir3", "Con4NE", "Lin5Sw2", "Rec3x4", "3 aura", "2 burst", "3 cube within 10", "5 x 1 line within 1",
  "10 wall within 10", "circle 3", "close circle 2", "Cir1000", "Con1000N", "Lin1000NEw1000", "1000 aura", "circle 1000"];

function hostileCall(rnd, pick) {
  const method = pick(["evaluate", "evaluateCells", "move", "parse", "evaluate", "fullAttack"]);
  if (method === "parse") {
    const text = rnd() < 0.5 ? pick(HOSTILE)() : pick(TEMPLATES).slice(0, Math.floor(rnd() * 12)) + pick(["", "h0", "w0", "x", "9".repeat(30), " ", "\u00a0"]);
    return { method, arg: text };
  }
  if (rnd() < 0.1) return { method, arg: pick(HOSTILE)() }; // the whole request
  const request = structuredClone(GOOD[method]);
  if (method !== "move" && method !== "fullAttack" && rnd() < 0.3) {
    request.template = pick(TEMPLATES);
    request.rules = pick(["tdgs", "drawsteel", "circle50", undefined, "dnd5e"]);
    request.origin = { x: 5 + Math.floor(rnd() * 7) - 3, y: 2, z: 0 };
  }
  const all = paths(request);
  for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
    const path = pick(all);
    let parent = request;
    for (const key of path.slice(0, -1)) parent = parent?.[key];
    if (parent === null || typeof parent !== "object") continue;
    const key = path.at(-1);
    try {
      if (rnd() < 0.2) delete parent[key];
      else parent[key] = pick(HOSTILE)();
    } catch {
      // a hostile value put there earlier (a frozen object, a getter) refuses the change
    }
  }
  return { method, arg: request };
}

test(`${CALLS} hostile calls: CONTRACT errors or valid answers, and the next good call still works`, async () => {
  const e = await engine();
  const goods = [
    ["version", () => e.version()],
    ["parse", () => e.parse("Con4NE")],
    ["evaluate", () => e.evaluate(CONTRACT_FROM_CASTER)],
    ["evaluateCells", () => Array.from(e.evaluateCells(CONTRACT_FROM_CASTER))],
    ["move", () => e.move(MOVE_REQUEST)],
    ["fullAttack", () => e.fullAttack(FULL_ATTACK_REQUEST)],
  ];
  const reference = goods.map(([, f]) => JSON.stringify(f()));
  const rnd = generator(20240607);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const codes = {};
  let answered = 0;
  const slow = [];
  const began = performance.now();
  let slowest = { ms: -1, what: "" };
  let made = 0;
  for (let i = 0; i < CALLS; i++) {
    if (SECONDS && performance.now() - began > SECONDS * 1000) break;
    made++;
    const { method, arg } = hostileCall(rnd, pick);
    const what = `call ${i}: ${method}(${describe(arg)})`;
    const t0 = performance.now();
    let out, err;
    try {
      out = e[method](arg);
    } catch (e) {
      err = e;
    }
    try {
      if (err !== undefined) {
        checkError(err);
        codes[err.code] = (codes[err.code] ?? 0) + 1;
      } else {
        answered++;
        // The request as the engine saw it: its JSON (a hostile toJSON or getter changes it).
        if (method === "evaluate") checkResult(out, plain(arg) ? JSON.parse(JSON.stringify(arg)) : {});
        else if (method === "evaluateCells") assert.ok(out instanceof Int32Array && out.length % 3 === 0);
        else if (method === "move") checkMove(out);
        else if (method === "fullAttack") checkFullAttack(out);
        else assert.equal(typeof out.notation, "string");
      }
    } catch (bad) {
      bad.message = `${what}: ${bad.message}`;
      if (process.env.FULL) console.log(JSON.stringify(arg), JSON.stringify(out));
      throw bad;
    }
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, what };
    if (process.env.SLOW) slow.push([ms, what]);
    const k = i % goods.length;
    assert.equal(JSON.stringify(goods[k][1]()), reference[k], `after ${what}, ${goods[k][0]} answers differently`);
  }
  for (let k = 0; k < goods.length; k++) assert.equal(JSON.stringify(goods[k][1]()), reference[k]);
  assert.ok(codes.bad_request > made / 4, `mostly bad requests: ${JSON.stringify(codes)}`);
  if (process.env.SLOW) console.log(slow.sort((a, b) => b[0] - a[0]).slice(0, 15).map(([ms, w]) => `${ms.toFixed(0)} ms ${w.slice(0, 300)}`).join("\n"));
  console.log(`hostile: ${made} calls (each followed by a good one) in ${((performance.now() - began) / 1000).toFixed(0)} s: ${answered} answered, refused ${JSON.stringify(codes)}; ` +
    `slowest ${slowest.ms.toFixed(0)} ms (${slowest.what.slice(0, 160)}); peak resident memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
});

test("hostile arguments to every method, whole", async () => {
  const e = await engine();
  for (const method of ["parse", "evaluate", "evaluateCells", "move", "cover", "fullAttack", "version"]) {
    for (const make of HOSTILE) {
      try {
        e[method](make());
      } catch (err) {
        checkError(err);
      }
    }
    assert.equal(e.version().engine, "aoekit");
  }
});

function plain(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function describe(v) {
  try {
    const s = typeof v === "bigint" || typeof v === "symbol" ? String(v) : JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 120 ? `${s.slice(0, 120)}…` : s;
  } catch {
    return Object.prototype.toString.call(v);
  }
}

// NaN and ±Infinity, which JSON.stringify writes as null (a value left out, so its default: a
// range of NaN was no range at all, a fill of NaN a full block), are refused by the loader
// with the field's path, through every method and a scene; a null the caller writes stays a
// value left out.
test("NaN and Infinity are refused, naming their field", async () => {
  const e = await engine();
  const base = { template: "Cir2", origin: { x: 5, y: 5, z: 0 }, caster: { id: "c", x: 1, y: 1, z: 0 } };
  for (const [call, field, got] of [
    [() => e.evaluate({ ...base, range: NaN }), "range", "NaN"],
    [() => e.evaluateCells({ ...base, obstacles: [{ x: 1, y: 2, z: 0 }, { x: 5, y: 5, z: 0, fill: NaN }] }), "obstacles[1].fill", "NaN"],
    [() => e.evaluate({ ...base, tokens: [{ id: "a", x: 1, y: 1 }, { id: "b", x: Infinity, y: 1 }] }), "tokens[1].x", "Infinity"],
    [() => e.evaluate({ ...base, resolve: { stat: 2, defence: { "g 1": -Infinity } } }), 'resolve.defence["g 1"]', "-Infinity"],
    [() => e.evaluate({ ...base, walls: [{ a: [0, 0], b: [NaN, 1] }] }), "walls[0].b[0]", "NaN"],
    [() => e.move({ ...MOVE_REQUEST, distance: NaN }), "distance", "NaN"],
    [() => e.cover({ attack: "ranged", attacker: { x: 0, y: 0, z: 0 }, target: { x: 3, y: Infinity, z: 0 } }), "target.y", "Infinity"],
    [() => e.fullAttack({ ...FULL_ATTACK_REQUEST, bab: NaN }), "bab", "NaN"],
    [() => e.scene({ tokens: [{ id: "a", x: NaN, y: 0 }] }), "tokens[0].x", "NaN"],
    [() => e.scene({}).evaluate({ template: "Cir2", origin: { x: 1, y: -Infinity } }), "origin.y", "-Infinity"],
    [() => e.scene({}).update({ bounds: { min: [0, 0, 0], max: [9, NaN, 0] } }), "bounds.max[1]", "NaN"],
  ]) {
    assert.throws(call, (err) => {
      assert.deepEqual({ code: err.code, field: err.field, message: err.message }, { code: "bad_request", field, message: `${field}: expected a finite number, got ${got}` });
      return true;
    });
  }
  assert.throws(() => e.evaluate(NaN), (err) => err.code === "bad_request" && err.field === undefined && /^request: expected a finite number, got NaN$/.test(err.message));
  // A null written by the caller is a value left out, as before; so is a field set to undefined.
  assert.equal(e.evaluate({ ...base, caster: null, range: undefined }).count, e.evaluate({ template: "Cir2", origin: base.origin }).count);
});
