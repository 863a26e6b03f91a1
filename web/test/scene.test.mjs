// engine.scene (CONTRACT scene): a board kept by the module between evaluations answers exactly
// as engine.evaluate does with the same board in the request, after any sequence of edits;
// packed obstacles (an Int32Array) are the JSON ones; a refused edit changes nothing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { AoekitError, engine, generator } from "./helpers.mjs";

const N = 14;
const FILLS = [400, 400, 200, 120, 1]; // in 1/400

// A board model kept here by the contract's rules for edits (CONTRACT scene): the reference
// the scene's answers are compared with, through the stateless evaluate.
class Model {
  tokens = []; // in board order
  cells = new Map(); // "x,y,z" → fill in 1/400
  walls = [];
  bounds = undefined;

  apply(edit) {
    for (const id of edit.remove ?? []) this.tokens = this.tokens.filter((t) => t.id !== id);
    for (const t of edit.tokens ?? []) {
      const i = this.tokens.findIndex((u) => u.id === t.id);
      if (i >= 0) this.tokens[i] = t;
      else this.tokens.push(t);
    }
    for (const c of edit.clear ?? []) this.cells.delete(c.join(","));
    // An edit's obstacle gives its cell a new fill; a cell it lists twice takes the larger (as
    // in a board: SPEC §1.6).
    const listed = new Map();
    for (const o of edit.obstacles ?? []) {
      const k = [o.x, o.y, o.z].join(",");
      listed.set(k, Math.max(listed.get(k) ?? 0, Math.round(o.fill * 400)));
    }
    for (const [k, f] of listed) this.cells.set(k, f);
    if (edit.walls !== undefined) this.walls = edit.walls;
    if (edit.bounds !== undefined) this.bounds = edit.bounds;
    if (edit.noBounds) this.bounds = undefined;
  }

  board() {
    const obstacles = [...this.cells].map(([k, f]) => {
      const [x, y, z] = k.split(",").map(Number);
      return { x, y, z, fill: f / 400 };
    });
    return { tokens: this.tokens, obstacles, walls: this.walls, ...(this.bounds ? { bounds: this.bounds } : {}) };
  }
}

function randomEdit(r, model, next) {
  const n = (k) => Math.floor(r() * k);
  const edit = {};
  if (model.tokens.length > 0 && r() < 0.6) {
    const t = model.tokens[n(model.tokens.length)];
    edit.tokens = [{ ...t, x: n(N), y: n(N) }]; // a drag
  }
  if (r() < 0.3) (edit.tokens ??= []).push({ id: `n${next()}`, x: n(N), y: n(N), z: 0, size: 1 + n(2), side: ["party", "enemy"][n(2)] });
  if (model.tokens.length > 1 && r() < 0.15) edit.remove = [model.tokens[n(model.tokens.length)].id];
  if (r() < 0.4) edit.obstacles = Array.from({ length: 1 + n(3) }, () => ({ x: n(N), y: n(N), z: 0, fill: FILLS[n(FILLS.length)] / 400 }));
  if (r() < 0.3) edit.clear = Array.from({ length: 1 + n(3) }, () => [n(N), n(N), 0]);
  if (r() < 0.15) edit.walls = Array.from({ length: n(4) }, () => ({ a: [n(N + 1), n(N + 1)], b: [n(N + 1), n(N + 1) + 0.5], open: r() < 0.2 }));
  if (r() < 0.1) edit.bounds = { min: [n(3), n(3), 0], max: [N - 1 - n(3), N - 1 - n(3), 0] };
  else if (r() < 0.05) edit.noBounds = true;
  return edit;
}

function randomRequest(r) {
  const n = (k) => Math.floor(r() * k);
  const caster = { id: "me", x: n(N), y: n(N), z: 0, side: "party", facing: ["N", "E", "SE", "W"][n(4)] };
  switch (n(5)) {
    case 0: return { template: "Cir2h1", caster, origin: { x: n(N), y: n(N), z: 0 } };
    case 1: return { template: `Con${2 + n(3)}N`, caster };
    case 2: return { template: "2 burst", caster };
    case 3: return { template: "circle 3", origin: { x: n(N), y: n(N), z: 0 } };
    default: return { template: "Lin4Ew2", caster, targeting: { trait: "enemiesOnly" } };
  }
}

// answer is what a call gives: its value, or its error's code and message.
function answer(call) {
  try {
    return { value: call() };
  } catch (e) {
    return { code: e.code, message: e.message };
  }
}

test("a scene answers as evaluate does with its board, over random edit sequences (JSON and packed obstacles)", async () => {
  const e = await engine();
  const r = generator(42);
  let id = 0;
  const next = () => ++id;
  let compared = 0;
  let refused = 0;
  for (let s = 0; s < 30; s++) {
    const model = new Model();
    model.apply({ tokens: [{ id: "a", x: 3, y: 3, z: 0, side: "enemy" }, { id: "b", x: 8, y: 6, z: 0, size: 2 }] });
    const scene = e.scene(model.board());
    for (let step = 0; step < 40; step++) {
      const edit = randomEdit(r, model, next);
      const bad = r() < 0.08;
      if (bad) (edit.obstacles ??= []).push({ x: 1, y: 1, z: 0, fill: 1.5 }); // refused whole
      const packed = !bad && edit.obstacles && r() < 0.5;
      const sent = packed ? { ...edit, obstacles: Int32Array.from(edit.obstacles.flatMap((o) => [o.x, o.y, o.z, Math.round(o.fill * 400)])) } : edit;
      const updated = answer(() => scene.update(sent));
      if (bad) {
        assert.equal(updated.code, "bad_request", `step ${step}: a fill of 1.5 is refused`);
        refused++;
      } else {
        assert.equal(updated.code, undefined, `step ${step}: ${updated.message}`);
        model.apply(edit);
      }
      for (let k = 0; k < 2; k++) {
        const request = randomRequest(r);
        const got = answer(() => scene.evaluate(request));
        const want = answer(() => e.evaluate({ ...request, ...model.board() }));
        assert.deepEqual(got, want, `scene ${s} step ${step}: ${JSON.stringify(request)}`);
        if (got.value) {
          const cells = scene.evaluateCells(request);
          assert.deepEqual([...cells], got.value.cells.flat(), "evaluateCells packs evaluate's cells");
        }
        compared++;
      }
    }
    scene.dispose();
  }
  assert.ok(compared >= 2000 && refused >= 20, `${compared} compared, ${refused} refused`);
});

test("a scene's request carries no board; a disposed scene refuses calls; bad packed obstacles are refused", async () => {
  const e = await engine();
  const scene = e.scene({ tokens: [{ id: "a", x: 1, y: 1, z: 0 }] });
  for (const field of ["tokens", "obstacles", "walls", "bounds"]) {
    const request = { template: "Cir1", origin: { x: 1, y: 1, z: 0 }, [field]: field === "bounds" ? { min: [0, 0, 0], max: [1, 1, 1] } : [] };
    assert.throws(() => scene.evaluate(request), (err) => err.code === "bad_request" && err.message.startsWith(`${field}: a scene's request takes the board from the scene`));
  }
  assert.throws(() => scene.update({ obstacles: new Int32Array([1, 2, 3]) }), (err) => err.code === "bad_request" && /x, y, z, fill quads/.test(err.message) && err.field === "obstacles");
  assert.throws(() => scene.update({ obstacles: new Int32Array([1, 2, 0, 0]) }), (err) => err.code === "bad_request" && /obstacles \(packed\)\[0\]: fill 0/.test(err.message) && err.field === "obstacles");
  // An Int32Array whose buffer was transferred away (postMessage, structuredClone): a clear
  // error, not the TypeError of a view of it.
  const gone = new Int32Array([1, 2, 0, 400]);
  structuredClone(gone.buffer, { transfer: [gone.buffer] });
  for (const call of [() => scene.update({ obstacles: gone }), () => e.scene({ obstacles: gone })]) {
    assert.throws(call, (err) => err instanceof AoekitError && err.code === "bad_request" && err.field === "obstacles" && /detached/.test(err.message));
  }
  assert.throws(() => scene.update({ remove: ["nobody"] }), (err) => err.code === "bad_request" && /remove\[0\]: no token has the id "nobody"/.test(err.message));
  assert.throws(() => e.scene(null), (err) => err.code === "bad_request");
  assert.throws(() => e.scene({ tokens: [{ x: 1 }] }), (err) => err.code === "bad_request" && /tokens\[0\]\.id/.test(err.message));
  // A request past 1 MiB is named by the call the caller made, not the module's function.
  const big = { tokens: Array.from({ length: 40000 }, (_, i) => ({ id: `token-${i}-of-many-many-many`, x: i, y: 0 })) };
  for (const [name, call] of [["scene", () => e.scene(big)], ["scene.update", () => scene.update(big)],
    ["scene.evaluate", () => scene.evaluate({ template: "Cir1", targeting: { trait: "none", ids: big.tokens.map((t) => t.id) } })]]) {
    assert.throws(call, (err) => err.code === "too_large" && err.message.startsWith(`${name}: the request is `), name);
  }
  scene.dispose();
  scene.dispose(); // twice is harmless
  for (const name of ["evaluate", "evaluateCells", "update"]) {
    assert.throws(() => scene[name]({ template: "Cir1" }), (err) => err.code === "bad_request" && err.message === `scene.${name} after dispose`, name);
  }
});
