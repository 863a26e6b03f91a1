// One engine, one answer (SPEC §8.1): every request of the cross-door corpus
// (wasm/identity/requests.json) through the built package gives the Go door's bytes
// (`go run ./wasm/identity`): JSON.stringify of the JS result, byte for byte; for an error, the
// same code, message and at. The overlay's module, aoekit-overlay.wasm (built here from the
// sources), registers the same engine functions from the same Go code (wasm/internal/jsapi):
// its engine (loadOverlay().engine) answers every request, evaluateCells and scene as
// aoekit.wasm's does, byte for byte, errors with their field too.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";

import { loadOverlay } from "../overlay.js";
import { GO, ROOT, buildOverlay, engine } from "./helpers.mjs";

const corpus = JSON.parse(readFileSync(join(ROOT, "wasm/identity/requests.json"), "utf8"));
const answers = new Map(
  JSON.parse(execFileSync(GO, ["run", "./wasm/identity"], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 }))
    .map((a) => [a.name, a]),
);

// METHODS names each door's engine method: the corpus names a door by its HTTP path.
const METHODS = { parse: "parse", evaluate: "evaluate", move: "move", cover: "cover", "full-attack": "fullAttack" };

// call sends an entry through the browser door as a user would: parse takes the text, and the
// rules as its options when the body has them.
function call(e, door, body) {
  if (door === "parse") return "rules" in body ? e.parse(body.text, { rules: body.rules }) : e.parse(body.text);
  return e[METHODS[door]](body);
}

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

// difference shows where two texts part.
function difference(got, want) {
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  const from = Math.max(0, i - 60);
  return `differs at ${i}:\n  browser …${got.slice(from, i + 60)}\n  Go      …${want.slice(from, i + 60)}`;
}

// sameAsGo checks what a call gave (outcome) against the Go door's answer to corpus entry name:
// its JSON byte for byte, or its error.
function sameAsGo(got, name) {
  const want = answers.get(name);
  if (want.status === 200) {
    assert.ok(!got.error, `${name}: threw ${got.error?.code}: ${got.error?.message}`);
    const json = JSON.stringify(got.value);
    assert.ok(json === want.body, `${name}: ${difference(json, want.body)}`);
  } else {
    sameError(got.error, want.body, name);
  }
}

function sameError(got, body, what) {
  const want = JSON.parse(body).error;
  assert.ok(got instanceof Error, `${what}: not an Error: ${got}`);
  assert.deepEqual({ code: got.code, message: got.message, field: got.field, at: got.at }, { code: want.code, message: want.message, field: want.field, at: want.at }, what);
}

test("the corpus and the Go door's answers cover the same requests, every door and outcome", () => {
  assert.deepEqual(corpus.map((c) => c.name).sort(), [...answers.keys()].sort());
  assert.deepEqual([...new Set(corpus.map((c) => c.door))].sort(), Object.keys(METHODS).sort());
  for (const door of Object.keys(METHODS)) {
    const entries = corpus.filter((c) => c.door === door);
    assert.ok(entries.some((c) => answers.get(c.name).status === 200), `${door}: an answer`);
    assert.ok(entries.some((c) => answers.get(c.name).status !== 200), `${door}: an error`);
  }
});

test("every corpus request: the browser door's JSON is the Go door's, byte for byte", async () => {
  const e = await engine();
  const failures = [];
  for (const { name, door, body } of corpus) {
    if (door === "parse" && (body === null || typeof body !== "object" || Array.isArray(body))) continue; // parse(text) cannot send it
    try {
      sameAsGo(outcome(() => call(e, door, body)), name);
    } catch (err) {
      failures.push(err.message);
    }
  }
  assert.deepEqual(failures, []);
});

test("every evaluate request: evaluateCells gives evaluate's cells, or its error", async () => {
  const e = await engine();
  for (const { name, door, body } of corpus.filter((c) => c.door === "evaluate")) {
    const want = answers.get(name);
    const got = outcome(() => e.evaluateCells(body));
    if (want.status === 200) {
      assert.ok(got.value instanceof Int32Array, `${name}: ${got.error?.message}`);
      assert.ok(JSON.stringify(Array.from(got.value)) === JSON.stringify(JSON.parse(want.body).cells.flat()), `${name}: other cells`);
    } else {
      sameError(got.error, want.body, `${name} (evaluateCells)`);
    }
  }
});

// The overlay module, built from the sources, and its engine (one instance for the file).
let overlayEngine;
function overlay() {
  if (!overlayEngine) {
    const dir = mkdtempSync(join(tmpdir(), "aoekit-identity-overlay-"));
    after(() => rmSync(dir, { recursive: true, force: true }));
    overlayEngine = loadOverlay({ wasm: buildOverlay(dir) }).then((m) => m.engine);
  }
  return overlayEngine;
}

// What a call gave, as text: the JSON of its answer, or its error's own fields.
function said(o) {
  if (o.error) return JSON.stringify({ error: { name: o.error.name, code: o.error.code, message: o.error.message, field: o.error.field, at: o.error.at } });
  return o.value instanceof Int32Array ? JSON.stringify({ cells: Array.from(o.value) }) : JSON.stringify(o.value ?? null);
}

test("every corpus request: the overlay module's engine gives the Go door's bytes, and aoekit.wasm's answer", async () => {
  const [e, o] = await Promise.all([engine(), overlay()]);
  const failures = [];
  let compared = 0;
  for (const { name, door, body } of corpus) {
    if (door === "parse" && (body === null || typeof body !== "object" || Array.isArray(body))) continue;
    const got = outcome(() => call(o, door, body));
    try {
      sameAsGo(got, name);
      assert.equal(said(got), said(outcome(() => call(e, door, body))), `${name}: the overlay's engine and aoekit.wasm's`);
      compared++;
    } catch (err) {
      failures.push(err.message);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(compared > 50, `${compared} requests compared`);
});

// For each evaluate request of the corpus: evaluateCells; and a scene of its board (made or
// refused), its request answered against it, an edit (a token moved, one added, an obstacle
// cleared; or a bad one), the request again, the scene disposed — the same on both engines,
// the obstacles as objects and, where their fills allow, packed.
test("every evaluate request: evaluateCells and scenes, the overlay module's engine as aoekit.wasm's", async () => {
  const [e, o] = await Promise.all([engine(), overlay()]);
  const failures = [];
  let scenes = 0;
  for (const { name, door, body } of corpus.filter((c) => c.door === "evaluate")) {
    const same = (what, f) => {
      const a = said(outcome(() => f(o))), b = said(outcome(() => f(e)));
      if (a !== b) failures.push(`${name}: ${what}: overlay ${a.slice(0, 300)}, aoekit.wasm ${b.slice(0, 300)}`);
    };
    same("evaluateCells", (x) => x.evaluateCells(body));
    if (body === null || typeof body !== "object" || Array.isArray(body)) continue;
    const { tokens, obstacles, walls, bounds, ...rest } = body;
    const boards = [{ tokens, obstacles, walls, bounds }];
    const lattice = Array.isArray(obstacles) && obstacles.every((b) => b && Number.isInteger((b.fill ?? 1) * 400) && (b.fill ?? 1) > 0);
    if (lattice && obstacles.length > 0) {
      boards.push({ tokens, walls, bounds, obstacles: new Int32Array(obstacles.flatMap((b) => [b.x ?? 0, b.y ?? 0, b.z ?? 0, Math.round((b.fill || 1) * 400)])) });
    }
    for (const board of boards) {
      const made = new Map();
      same("scene", (x) => { made.set(x, x.scene(board)); return null; });
      if (made.size !== 2) continue;
      scenes++;
      const on = (x) => made.get(x);
      same("scene.evaluate", (x) => on(x).evaluate(rest));
      same("scene.evaluateCells", (x) => on(x).evaluateCells(rest));
      const first = Array.isArray(tokens) && tokens[0] && typeof tokens[0] === "object" ? tokens[0] : null;
      const edit = {
        tokens: [...(first ? [{ ...first, x: (first.x ?? 0) + 1 }] : []), { id: "zz-added", x: 3, y: 3, z: 0 }],
        clear: Array.isArray(obstacles) && obstacles[0] ? [[obstacles[0].x ?? 0, obstacles[0].y ?? 0, obstacles[0].z ?? 0]] : [],
      };
      same("scene.update", (x) => on(x).update(edit));
      same("scene.evaluate after the edit", (x) => on(x).evaluate(rest));
      same("a refused edit", (x) => on(x).update({ remove: ["nobody"], tokens: [{ id: "zz-other", x: 0, y: 0 }] }));
      same("scene.evaluate after a refused edit", (x) => on(x).evaluate(rest));
      same("a request with a board", (x) => on(x).evaluate(body));
      same("dispose", (x) => on(x).dispose());
      same("after dispose", (x) => on(x).evaluate(rest));
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(scenes > 20, `${scenes} scenes compared`);
});
