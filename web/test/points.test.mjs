// Point-origin areas through the JS loader (SPEC §10 dnd5e, §11 pf2e; CONTRACT parse's
// options.rules): parse with a rule set, and its refusal without one; the square counts §10.5
// and §11.2 draw, cell for cell; a scene that answers point-origin requests as the stateless
// evaluate does; and the worker engine (aoekit/worker), which sends parse's rules along — in
// Node through a stand-in for a module Web Worker (worker_threads running engine-worker.js),
// and in headless Chromium (skipped, loudly, where it is absent).
import assert from "node:assert/strict";
import { Worker as ThreadWorker } from "node:worker_threads";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { AoekitError, WEB, checkError, chromium, engine, serve, thrown } from "./helpers.mjs";

const FLAT = { min: [0, 0, 0], max: [39, 39, 0] };

// The cells a drawing of SPEC §10.5 or §11.2 marks (#), its top-left square at (x0, y0) on level
// 0; the drawing's axis lines (| and ----+----) take no square. Sorted as evaluate sorts them.
function drawn(rows, x0, y0) {
  const cells = [];
  rows.filter((r) => !r.startsWith("-")).forEach((row, j) => {
    [...row.replace("|", "")].forEach((c, i) => {
      if (c === "#") cells.push([x0 + i, y0 + j, 0]);
    });
  });
  return cells;
}

// SPEC §10.5: a 20-foot sphere on a flat board, its origin the intersection +.
const SPHERE_20 = ["..##|##..", ".###|###.", "####|####", "####|####", "----+----", "####|####", "####|####", ".###|###.", "..##|##.."];
// SPEC §11.2: a 20-foot burst on a flat board, its origin the intersection +.
const BURST_20 = ["...#|#...", ".###|###.", ".###|###.", "####|####", "----+----", "####|####", ".###|###.", ".###|###.", "...#|#..."];

test("parse with rules: every form of §10.3 and §11, the canonical notation and the sizes in squares", async () => {
  const e = await engine();
  assert.deepEqual(e.parse("20-foot-radius sphere", { rules: "dnd5e" }),
    { text: "20-foot-radius sphere", notation: "20-foot-radius sphere", rules: "dnd5e", shape: "sphere", radius: 4 });
  for (const text of ["20-foot sphere", "sphere 20", "20 ft radius sphere", "  SPHERE 20 "]) {
    const t = e.parse(text, { rules: "dnd5e" });
    assert.equal(t.text, text);
    assert.deepEqual({ ...t, text: undefined }, { text: undefined, notation: "20-foot-radius sphere", rules: "dnd5e", shape: "sphere", radius: 4 }, text);
  }
  const forms = [
    ["dnd5e", "15-foot cone", { notation: "15-foot cone", shape: "cone", length: 3 }],
    ["dnd5e", "cube 10", { notation: "10-foot cube", shape: "cube", side: 2 }],
    ["dnd5e", "10-foot-radius, 40-foot-high cylinder", { notation: "10-foot-radius, 40-foot-high cylinder", shape: "cylinder", radius: 2, height: 8 }],
    ["dnd5e", "cylinder 10 high 40", { notation: "10-foot-radius, 40-foot-high cylinder", shape: "cylinder", radius: 2, height: 8 }],
    ["dnd5e", "60-foot line", { notation: "60-foot line", shape: "line", length: 12, width: 1 }],
    ["dnd5e", "100-foot line 10 feet wide", { notation: "100-foot line 10 feet wide", shape: "line", length: 20, width: 2 }],
    ["dnd5e", "line 100 wide 10", { notation: "100-foot line 10 feet wide", shape: "line", length: 20, width: 2 }],
    ["dnd5e", "emanation 10", { notation: "10-foot emanation", shape: "emanation", radius: 2 }],
    ["pf2e", "20-foot burst", { notation: "20-foot burst", shape: "burst", radius: 4 }],
    ["pf2e", "burst 20", { notation: "20-foot burst", shape: "burst", radius: 4 }],
    ["pf2e", "15-foot cone", { notation: "15-foot cone", shape: "cone", length: 3 }],
    ["pf2e", "10-foot emanation", { notation: "10-foot emanation", shape: "emanation", radius: 2 }],
    ["pf2e", "60-foot line", { notation: "60-foot line", shape: "line", length: 12, width: 1 }],
  ];
  for (const [rules, text, want] of forms) {
    assert.deepEqual(e.parse(text, { rules }), { text, rules, ...want }, `${rules}: ${text}`);
  }
  // The other rule sets' notation, named or not, reads as before.
  assert.deepEqual(e.parse("Cir3", { rules: "tdgs" }), e.parse("Cir3"));
  assert.deepEqual(e.parse("Cir3", {}), e.parse("Cir3"));
});

test("parse refuses point-origin notation without rules (bad_request, naming both games), and a size that is not whole squares", async () => {
  const e = await engine();
  for (const text of ["20-foot-radius sphere", "sphere 20", "15-foot cone", "10-foot emanation"]) {
    for (const options of [undefined, {}, { rules: undefined }]) {
      const err = thrown(() => e.parse(text, options), "bad_request");
      assert.ok(err instanceof AoekitError);
      assert.match(err.message, /dnd5e/);
      assert.match(err.message, /pf2e/);
    }
  }
  const size = thrown(() => e.parse("22-foot-radius sphere", { rules: "dnd5e" }), "bad_notation");
  assert.match(size.message, /^22-foot-radius sphere: /);
  assert.equal(size.at, 1);
  assert.equal(size.field, undefined, "parse's notation errors name no field");
  thrown(() => e.parse("20-foot-radius sphere", { rules: "pf2e" }), "bad_notation"); // a sphere is dnd5e's
  thrown(() => e.parse("20-foot burst", { rules: "dnd5e" }), "bad_notation"); // a burst is pf2e's
  thrown(() => e.parse("20-foot-radius sphere", { rules: "dnd4e" }), "bad_request");
});

test("evaluate: a dnd5e 20-foot sphere on an intersection of a flat board covers SPEC §10.5's 52 squares", async () => {
  const e = await engine();
  for (const z of [0, 0.5]) { // on the floor or at mid-height (§10.5's drawing: both)
    const r = e.evaluate({ rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 10, z }, bounds: FLAT });
    assert.equal(r.count, 52, `z ${z}`);
    assert.deepEqual(r.cells, drawn(SPHERE_20, 6, 6), `z ${z}: the drawing's squares`);
    assert.deepEqual(r.origin, { x: 10, y: 10, z });
    assert.equal(r.template.rules, "dnd5e");
    assert.equal(r.template.shape, "sphere");
    assert.deepEqual(Array.from(e.evaluateCells({ rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 10, z }, bounds: FLAT })), r.cells.flat());
  }
  // The same sphere as a template object, and from the middle of a square (49: the centres
  // lie a whole number of squares from it).
  assert.equal(e.evaluate({ rules: "dnd5e", template: { shape: "sphere", radius: 4 }, point: { x: 10, y: 10, z: 0 }, bounds: FLAT }).count, 52);
  assert.equal(e.evaluate({ rules: "dnd5e", template: { shape: "sphere", radius: 4 }, point: { x: 10.5, y: 10.5, z: 0.5 }, bounds: FLAT }).count, 49);
  // Without rules the notation is refused, as parse refuses it.
  thrown(() => e.evaluate({ template: "20-foot-radius sphere", point: { x: 10, y: 10, z: 0 }, bounds: FLAT }), "bad_request");
});

test("evaluate: a pf2e 20-foot burst on an intersection of a flat board covers SPEC §11.2's 44 squares, and its 15-foot cones 7 and 6", async () => {
  const e = await engine();
  const r = e.evaluate({ rules: "pf2e", template: "20-foot burst", point: { x: 10, y: 10, z: 0 }, bounds: FLAT });
  assert.equal(r.count, 44);
  assert.deepEqual(r.cells, drawn(BURST_20, 6, 6));
  assert.equal(e.evaluate({ rules: "pf2e", template: { shape: "burst", radius: 4 }, point: { x: 10, y: 10, z: 0 }, bounds: FLAT }).count, 44);
  thrown(() => e.evaluate({ rules: "pf2e", template: "20-foot burst", point: { x: 10.5, y: 10, z: 0 }, bounds: FLAT }), "bad_request"); // a burst starts on an intersection
  const caster = { id: "c", x: 2, y: 10 };
  const east = e.evaluate({ rules: "pf2e", template: "15-foot cone", caster, toward: "E", bounds: FLAT });
  assert.equal(east.count, 7);
  assert.deepEqual(east.origin, { x: 3, y: 10.5, z: 0.5 }, "the middle of the caster's east face, at mid-height");
  assert.deepEqual(east.cells, drawn(["..##", ".###", "..##"], 2, 9), "§11.2's drawing, without the caster's square");
  const ne = e.evaluate({ rules: "pf2e", template: "15-foot cone", caster, toward: "NE", bounds: FLAT });
  assert.equal(ne.count, 6);
  // Degrees run clockwise from east (y grows south): 315° is NE, the same cone.
  assert.equal(JSON.stringify(e.evaluate({ rules: "pf2e", template: "15-foot cone", caster, toward: 315, bounds: FLAT })), JSON.stringify(ne));
  thrown(() => e.evaluate({ rules: "pf2e", template: "15-foot cone", caster, toward: 30, bounds: FLAT }), "bad_request"); // not a multiple of 45°
});

// A board with something of every kind a point-origin request reads: tokens of several sizes
// and sides (one taking cover), full and half obstacles, walls with heights, an open door and a
// one-way wall, and bounds.
const BOARD = {
  tokens: [
    { id: "orc", x: 12, y: 10, side: "enemy" },
    { id: "ogre", x: 6, y: 7, size: "Large", side: "enemy" },
    { id: "friend", x: 9, y: 12, side: "party", takingCover: true },
    { id: "kobold", x: 13, y: 11, side: "enemy" },
    { id: "giant", x: 14, y: 6, size: 3, side: "enemy" },
  ],
  obstacles: [{ x: 11, y: 10, z: 0, fill: 0.5 }, { x: 8, y: 13, z: 0 }, { x: 12, y: 8, z: 0 }],
  walls: [
    { a: [6, 14], b: [12, 14], top: 1 },
    { a: [16, 4], b: [16, 16], from: "right" },
    { a: [5, 9], b: [5, 12], open: true },
  ],
  bounds: { min: [0, 0, -1], max: [29, 29, 2] },
};

const POINT_REQUESTS = [
  { rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 10, z: 0.5 } },
  { rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 10, z: 0.5 }, creatureCover: "full" },
  { rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 10, z: 0.5 }, creatureCover: "none", targeting: { trait: "enemiesOnly" } },
  { rules: "dnd5e", template: "30-foot cone", caster: { id: "mage", x: 4, y: 10, side: "party" }, toward: 12.5 },
  { rules: "dnd5e", template: { shape: "cone", length: 6, base: "round", angle: 60 }, caster: { id: "mage", x: 4, y: 10 }, toward: { x: 13, y: 11.5, z: 0.5 } },
  { rules: "dnd5e", template: "100-foot line 10 feet wide", caster: { id: "mage", x: 4, y: 10 }, toward: "E" },
  { rules: "dnd5e", template: "10-foot cube", point: { x: 12, y: 9, z: 0 }, toward: "SE" },
  { rules: "dnd5e", template: "10-foot-radius, 40-foot-high cylinder", point: { x: 13.5, y: 9.5, z: -1 } },
  { rules: "dnd5e", template: "15-foot emanation", caster: { id: "paladin", x: 10, y: 11, side: "party" }, targeting: { includeCaster: true } },
  { rules: "dnd5e", template: "20-foot sphere", caster: { id: "mage", x: 4, y: 10 }, point: { x: 10.25, y: 9.75, z: 0 }, range: 12, resolve: { stat: 5, seed: 9, defence: { orc: 3 } } },
  { rules: "pf2e", template: "20-foot burst", point: { x: 11, y: 11, z: 0 } },
  { rules: "pf2e", template: "15-foot cone", caster: { id: "cleric", x: 10, y: 10, side: "party" }, toward: "SE" },
  { rules: "pf2e", template: "10-foot emanation", caster: { id: "bard", x: 10, y: 10, size: "Large" }, targeting: { excludeCaster: true } },
  { rules: "pf2e", template: "60-foot line", caster: { id: "cleric", x: 4, y: 10 }, toward: 350 },
  // Refused alike: no line of effect from inside an obstacle, out of range, a bad direction.
  { rules: "dnd5e", template: "20-foot sphere", point: { x: 8.5, y: 13.5, z: 0.5 } },
  { rules: "pf2e", template: "20-foot burst", caster: { id: "cleric", x: 2, y: 2 }, point: { x: 11, y: 11, z: 0 }, range: 5 },
  { rules: "dnd5e", template: "10-foot cube", point: { x: 12, y: 9, z: 0 }, toward: "E" },
];

test("a scene answers point-origin requests as evaluate does with the same board, before and after an edit", async () => {
  const e = await engine();
  const scene = e.scene(BOARD);
  try {
    let board = BOARD;
    const compare = (when) => {
      let answered = 0;
      for (const request of POINT_REQUESTS) {
        const what = `${when}: ${JSON.stringify(request).slice(0, 120)}`;
        const stateless = outcome(() => e.evaluate({ ...board, ...request }));
        const kept = outcome(() => scene.evaluate(request));
        assert.equal(said(kept), said(stateless), what);
        assert.equal(said(outcome(() => scene.evaluateCells(request))), said(outcome(() => e.evaluateCells({ ...board, ...request }))), `${what} (evaluateCells)`);
        if (!stateless.error) {
          answered++;
          assert.ok(["dnd5e", "pf2e"].includes(stateless.value.template.rules), what);
        } else {
          checkError(stateless.error);
        }
      }
      assert.ok(answered >= POINT_REQUESTS.length - 3, `${when}: ${answered} answered`);
    };
    compare("as made");
    // The orc steps behind the low wall's end, the friend stops taking cover, a wall opens.
    const edit = {
      tokens: [{ id: "orc", x: 12, y: 11, side: "enemy" }, { id: "friend", x: 9, y: 12, side: "party" }],
      clear: [[12, 8, 0]],
      walls: [BOARD.walls[0], { ...BOARD.walls[1], open: true }, BOARD.walls[2]],
    };
    scene.update(edit);
    board = {
      ...BOARD,
      tokens: BOARD.tokens.map((t) => edit.tokens.find((u) => u.id === t.id) ?? t),
      obstacles: BOARD.obstacles.filter((o) => !(o.x === 12 && o.y === 8)),
      walls: edit.walls,
    };
    compare("after the edit");
  } finally {
    scene.dispose();
  }
});

test("the sphere's targets: grades of §10.8 under each creatureCover, a pf2e target taking cover", async () => {
  const e = await engine();
  const crowd = { template: "20-foot-radius sphere", point: { x: 4, y: 10, z: 0 }, bounds: FLAT,
    tokens: [{ id: "ogre", x: 5, y: 9, size: "Large", side: "enemy" }, { id: "kobold", x: 7, y: 10, side: "enemy" }] };
  const kobold = (creatureCover) => e.evaluate({ rules: "dnd5e", ...crowd, ...(creatureCover ? { creatureCover } : {}) }).targets.find((t) => t.id === "kobold");
  assert.deepEqual(pick(kobold()), { cover: "half", bonus: 2, affected: true });
  assert.deepEqual(pick(kobold("half")), { cover: "half", bonus: 2, affected: true });
  assert.deepEqual(pick(kobold("full")), { cover: "total", bonus: 0, affected: false });
  assert.deepEqual(pick(kobold("none")), { cover: "none", bonus: 0, affected: true });
  const pf = e.evaluate({ rules: "pf2e", ...crowd, template: "20-foot burst", tokens: [...crowd.tokens, { id: "hiding", x: 7, y: 9, takingCover: true }] });
  assert.deepEqual(pf.targets.map((t) => [t.id, t.cover, t.bonus, t.lines.length]), [["ogre", "none", 0, 1], ["kobold", "lesser", 1, 1], ["hiding", "standard", 2, 1]]);
});

// ---- the worker engine ----

// A module Web Worker for Node: a worker_threads thread that gives engine-worker.js the `self`
// of a worker (its messages and postMessage), seen from here as a Web Worker is seen from a
// page (postMessage, terminate, message and error events).
const ENGINE_WORKER = pathToFileURL(join(WEB, "engine-worker.js")).href;
const BOOT = `import { parentPort } from "node:worker_threads";
globalThis.self = {
  addEventListener(type, listener) { if (type === "message") parentPort.on("message", (data) => listener({ data })); },
  postMessage(message, transfer) { parentPort.postMessage(message, transfer); },
};
await import(${JSON.stringify(ENGINE_WORKER)});`;

class NodeWebWorker {
  #thread = new ThreadWorker(new URL(`data:text/javascript,${encodeURIComponent(BOOT)}`));
  postMessage(message, transfer) {
    this.#thread.postMessage(message, transfer);
  }
  terminate() {
    this.#thread.terminate();
  }
  addEventListener(type, listener) {
    if (type === "message") this.#thread.on("message", (data) => listener({ data }));
    if (type === "error") this.#thread.on("error", (err) => listener({ message: err.message, preventDefault() {} }));
  }
}

test("Node: the worker engine (aoekit/worker, engine-worker.js in a thread) parses with rules, and refuses without them, as load()'s engine does", async (t) => {
  const { loadWorker } = await import("aoekit/worker");
  // loadWorker asks for Web Workers (typeof Worker); the one it is given is ours.
  const had = Object.getOwnPropertyDescriptor(globalThis, "Worker");
  globalThis.Worker = NodeWebWorker;
  t.after(() => (had ? Object.defineProperty(globalThis, "Worker", had) : delete globalThis.Worker));
  const w = await loadWorker({ worker: new NodeWebWorker() });
  t.after(() => w.dispose());
  const e = await engine();
  await sameOnBoth(e, w);
});

// sameOnBoth: the worker engine w answers parse (with and without rules) and point-origin
// evaluate requests as the synchronous engine e does, errors as AoekitErrors with the same
// code, message, field and at.
async function sameOnBoth(e, w) {
  const calls = [
    ["20-foot-radius sphere", { rules: "dnd5e" }], ["sphere 20", { rules: "dnd5e" }], ["15-foot cone", { rules: "dnd5e" }],
    ["15-foot cone", { rules: "pf2e" }], ["20-foot burst", { rules: "pf2e" }], ["line 100 wide 10", { rules: "pf2e" }],
    ["20-foot-radius sphere", undefined], ["20-foot burst", {}], ["22-foot-radius sphere", { rules: "dnd5e" }],
    ["20-foot burst", { rules: "dnd5e" }], ["Con4NE", undefined], ["3 cube within 10", { rules: "drawsteel" }],
  ];
  for (const [text, options] of calls) {
    const want = outcome(() => e.parse(text, options));
    const got = await settled(w.parse(text, options));
    assert.equal(said(got), said(want), `parse(${JSON.stringify(text)}, ${JSON.stringify(options)})`);
    if (got.error) assert.ok(got.error instanceof AoekitError, `${text}: an AoekitError`);
  }
  assert.deepEqual(await w.parse("20-foot-radius sphere", { rules: "dnd5e" }),
    { text: "20-foot-radius sphere", notation: "20-foot-radius sphere", rules: "dnd5e", shape: "sphere", radius: 4 });
  await assert.rejects(w.parse("20-foot-radius sphere"), (err) => err instanceof AoekitError && err.code === "bad_request");
  for (const request of POINT_REQUESTS) {
    const full = { ...BOARD, ...request };
    assert.equal(said(await settled(w.evaluate(full))), said(outcome(() => e.evaluate(full))), JSON.stringify(request).slice(0, 120));
  }
  assert.equal((await w.evaluate({ rules: "pf2e", template: "20-foot burst", point: { x: 10, y: 10, z: 0 }, bounds: FLAT })).count, 44);
}

test("Chromium: loadWorker's engine parses with rules, as load()'s engine does", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const page = `<!doctype html><meta charset="utf-8"><title>points</title><script type="module">
import { load } from "/index.js";
import { loadWorker } from "/worker.js";
const settle = async (f) => { try { return { ok: await f() }; } catch (e) { return { error: { code: e.code, message: e.message, field: e.field, at: e.at, name: e.name } }; } };
const out = { pairs: [] };
try {
  const [e, w] = await Promise.all([load(), loadWorker()]);
  for (const [text, options] of ${JSON.stringify([["20-foot-radius sphere", { rules: "dnd5e" }], ["20-foot burst", { rules: "pf2e" }], ["15-foot cone", { rules: "pf2e" }], ["20-foot-radius sphere", null], ["22-foot-radius sphere", { rules: "dnd5e" }]])}) {
    out.pairs.push([text, await settle(() => e.parse(text, options ?? undefined)), await settle(() => w.parse(text, options ?? undefined))]);
  }
  const request = ${JSON.stringify({ rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 10, z: 0 }, bounds: FLAT })};
  out.pairs.push(["evaluate", await settle(() => e.evaluate(request)), await settle(() => w.evaluate(request))]);
  w.dispose();
} catch (err) {
  out.error = String(err && err.stack || err);
}
window.out = out;
</script>`;
  const base = await serve(t, WEB, { pages: { "/points-test.html": page } });
  const tab = await browser.newPage();
  const errors = [];
  tab.on("pageerror", (err) => errors.push(err.message));
  await tab.goto(`${base}/points-test.html`);
  const out = await tab.waitForFunction(() => window.out, null, { timeout: 60_000 }).then((h) => h.jsonValue());
  await tab.close();
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(errors, []);
  for (const [what, sync, worker] of out.pairs) assert.deepEqual(worker, sync, what);
  const [sphere, burst, , noRules, badSize, evaluated] = out.pairs.map((p) => p[2]);
  assert.deepEqual(sphere.ok, { text: "20-foot-radius sphere", notation: "20-foot-radius sphere", rules: "dnd5e", shape: "sphere", radius: 4 });
  assert.deepEqual(burst.ok, { text: "20-foot burst", notation: "20-foot burst", rules: "pf2e", shape: "burst", radius: 4 });
  assert.deepEqual([noRules.error.code, noRules.error.name], ["bad_request", "AoekitError"]);
  assert.deepEqual([badSize.error.code, badSize.error.at], ["bad_notation", 1]);
  assert.equal(evaluated.ok.count, 52);
});

// ---- helpers ----

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

async function settled(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

// What a call gave, as text: its answer's JSON (an Int32Array's numbers), or its error's own fields.
function said(o) {
  if (o.error) return JSON.stringify({ error: { name: o.error.name, code: o.error.code, message: o.error.message, field: o.error.field, at: o.error.at } });
  return o.value instanceof Int32Array ? JSON.stringify({ cells: Array.from(o.value) }) : JSON.stringify(o.value ?? null);
}

function pick(t) {
  return { cover: t.cover, bonus: t.bonus, affected: t.affected };
}
