// aoekit/worker (web/worker.js and engine-worker.js): the engine in a module Web Worker, in
// headless Chromium, answering exactly as the synchronous engine does — every method on
// CONTRACT requests, errors with the same code, message and at (as AoekitErrors), scenes that
// live in the worker, evaluateCells' buffer transferred, the main thread free while the worker
// works, dispose — and attachOverlay drawing on an OffscreenCanvas in the worker. In Node,
// which has no Web Workers, loadWorker rejects with a clear error.
// Skipped, loudly, where /usr/bin/chromium is absent (CI=1 makes it required).
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import {
  CONTRACT_FROM_CASTER, CONTRACT_REQUEST, COVER_REQUEST, FULL_ATTACK_REQUEST, MOVE_REQUEST, WEB, buildOverlay, chromium, contractExamples, engine, serve, tempDir,
} from "./helpers.mjs";

test("Node: loadWorker rejects with a clear error (no Web Workers), and importing it does nothing", async () => {
  const before = new Set(Object.getOwnPropertyNames(globalThis));
  const { loadWorker } = await import("aoekit/worker");
  assert.deepEqual(Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k)), []);
  await assert.rejects(loadWorker(), { name: "Error", message: /^aoekit: loadWorker\(\) needs Web Workers, .*use load\(\) from "aoekit" here$/ });
  await assert.rejects(loadWorker(5), TypeError);
});

// The page: every method through both engines; what each answered (or threw) goes back to the
// test, which compares them.
const PAGE = `<!doctype html><meta charset="utf-8"><title>worker</title>
<canvas id="board" width="300" height="240"></canvas><canvas id="ref" width="300" height="240"></canvas>
<script type="module">
import { load, AoekitError } from "/index.js";
import { loadWorker } from "/worker.js";
const out = { pairs: [], spy: [] };
const settle = async (f) => {
  try {
    const v = await f();
    return { ok: v instanceof Int32Array ? { int32: Array.from(v) } : v === undefined ? "undefined" : v };
  } catch (e) {
    return { error: { code: e.code, message: e.message, at: e.at, hasAt: "at" in e, ...("field" in e ? { field: e.field } : {}), aoekit: e instanceof AoekitError, name: e.name } };
  }
};
const both = async (what, f) => out.pairs.push([what, await settle(() => f(sync)), await settle(() => f(worker))]);
let sync, worker;
try {
  sync = await load();
  // A worker of our own whose postMessage reports what it transfers (spy.js runs first).
  const spied = new Worker("/spy-worker.js", { type: "module" });
  spied.addEventListener("message", (e) => e.data.spy && out.spy.push(e.data.spy));
  worker = await loadWorker({ worker: spied });
  const requests = ${JSON.stringify({ CONTRACT_FROM_CASTER, CONTRACT_REQUEST, COVER_REQUEST, FULL_ATTACK_REQUEST, MOVE_REQUEST })};
  await both("version", (e) => e.version());
  for (const t of ["Con4NE", "3 cube within 10", "close circle 2", "Lin5Sw2", "Con4", "Lin5SW2", "", 42, undefined, 1n]) await both("parse " + String(t), (e) => e.parse(t));
  await both("parse too long", (e) => e.parse("x".repeat(1100000)));
  for (const [name, r] of Object.entries(requests)) {
    if (name.startsWith("CONTRACT")) {
      await both("evaluate " + name, (e) => e.evaluate(r));
      await both("evaluateCells " + name, (e) => e.evaluateCells(r));
    }
  }
  await both("move", (e) => e.move(requests.MOVE_REQUEST));
  await both("cover", (e) => e.cover(requests.COVER_REQUEST));
  await both("cover melee, out of range", (e) => e.cover({ ...requests.COVER_REQUEST, attack: "melee" }));
  await both("fullAttack", (e) => e.fullAttack(requests.FULL_ATTACK_REQUEST));
  await both("fullAttack, step 0", (e) => e.fullAttack({ steps: [{ attack: "main", extra: true }] }));
  const cyclic = { ...requests.CONTRACT_FROM_CASTER }; cyclic.self = cyclic;
  await both("evaluate cyclic", (e) => e.evaluate(cyclic));
  await both("evaluate BigInt", (e) => e.evaluate({ ...requests.CONTRACT_FROM_CASTER, range: 20n }));
  await both("evaluate undefined", (e) => e.evaluate(undefined));
  await both("evaluate with a function and undefined fields", (e) => e.evaluate({ ...requests.CONTRACT_FROM_CASTER, f: () => 1, aim: undefined }));
  await both("evaluateCells bad", (e) => e.evaluateCells({ template: "Cir2", origin: { x: "a" } }));
  await both("move bad", (e) => e.move({}));
  await both("evaluate too large", (e) => e.evaluate({ template: "Cir1", pad: "x".repeat(1048576) }));

  // Scenes: a board with JSON obstacles and one with packed ones, edits, errors, dispose.
  const board = { tokens: [{ id: "orc", x: 6, y: 5 }], obstacles: [{ x: 6, y: 4 }], walls: [{ a: [9, 0], b: [9, 9] }] };
  const packed = { ...board, obstacles: new Int32Array([6, 4, 0, 400, 7, 7, 0, 200]) };
  const scenes = {};
  for (const [name, b] of [["json", board], ["packed", packed]]) {
    await both("scene " + name, async (e) => { scenes[name + (e === sync ? "sync" : "worker")] = await e.scene(b); return "made"; });
    const s = (e) => scenes[name + (e === sync ? "sync" : "worker")];
    await both("scene evaluate " + name, (e) => s(e).evaluate({ template: "Cir2", origin: { x: 6, y: 5 } }));
    await both("scene evaluateCells " + name, (e) => s(e).evaluateCells({ template: "Cir2", origin: { x: 6, y: 5 } }));
    await both("scene update " + name, (e) => s(e).update({ tokens: [{ id: "orc", x: 12, y: 5 }], obstacles: new Int32Array([1, 1, 0, 400]) }));
    await both("scene evaluate after update " + name, (e) => s(e).evaluate({ template: "Cir2", origin: { x: 6, y: 5 } }));
    await both("scene update bad " + name, (e) => s(e).update({ obstacles: new Int32Array(3) }));
    await both("scene update not an object " + name, (e) => s(e).update(null));
    await both("scene evaluate bad " + name, (e) => s(e).evaluate({ template: "Con4" }));
    await both("scene dispose " + name, (e) => s(e).dispose());
    await both("scene dispose again " + name, (e) => s(e).dispose());
    await both("scene evaluate after dispose " + name, (e) => s(e).evaluate({ template: "Cir2", origin: { x: 6, y: 5 } }));
    await both("scene evaluateCells after dispose " + name, (e) => s(e).evaluateCells({ template: "Cir2" }));
    await both("scene update after dispose " + name, (e) => s(e).update({}));
  }
  for (const [name, b] of [["null", null], ["array", []], ["number", 5], ["function", () => 1], ["bad packed", { obstacles: new Int32Array(5) }], ["bad board", { tokens: [{ x: 1 }] }]]) {
    await both("scene of " + name, (e) => e.scene(b).then(() => "made"));
  }

  // The main thread is free while the worker evaluates: timers fire during a long call.
  const heavy = { template: "15 burst", caster: { id: "c", x: 0, y: 0 },
    tokens: Array.from({ length: 200 }, (_, i) => ({ id: "t" + i, x: (i * 3) % 31 - 15, y: Math.floor(i / 10) - 10 })),
    obstacles: Array.from({ length: 400 }, (_, i) => ({ x: (i * 7) % 31 - 15, y: (i * 13) % 31 - 15 })).filter((o) => o.x || o.y) };
  let ticks = 0;
  const timer = setInterval(() => ticks++, 0);
  const t0 = performance.now();
  const heavyAnswer = await worker.evaluate(heavy);
  out.heavy = { ms: performance.now() - t0, ticks, count: heavyAnswer.count, same: JSON.stringify(heavyAnswer) === JSON.stringify(sync.evaluate(heavy)) };
  clearInterval(timer);

  // Module sources as load takes them, resolved against the page.
  out.sources = [];
  const bytes = new Uint8Array(await (await fetch("/aoekit.wasm")).arrayBuffer());
  for (const wasm of ["aoekit.wasm", "/aoekit.wasm", new URL("/aoekit.wasm", location.href), bytes, fetch("/aoekit.wasm"), await WebAssembly.compile(bytes)]) {
    const w = await loadWorker({ wasm });
    out.sources.push((await w.evaluate(requests.CONTRACT_FROM_CASTER)).count);
    w.dispose();
  }
  out.missing = await settle(() => loadWorker({ wasm: "/missing.wasm" }));
  out.badWorker = await settle(() => loadWorker({ worker: "/missing-worker.js" }));
  // A worker that fails while the page still waits for the module: load waited on nothing else.
  const late = new Worker("/missing-worker.js", { type: "module" });
  const lateFailed = new Promise((resolve) => late.addEventListener("error", resolve));
  out.badWorkerLate = await settle(() => loadWorker({ worker: late, wasm: lateFailed.then(() => fetch("/aoekit.wasm")) }));
  // A worker that fails after it started (boom.js throws in it, and drops the call's answer).
  const boom = await loadWorker({ worker: "/boom-worker.js" });
  out.boomPending = await settle(() => boom.evaluate({ template: "BOOM" }));
  out.boomAfter = await settle(() => boom.evaluate(requests.CONTRACT_FROM_CASTER));
  out.boomScene = await settle(() => boom.scene({}));
  out.sourceStill = bytes.byteLength > 0;

  // dispose: a call in flight and every later one reject; the worker is gone.
  const w = await loadWorker();
  const inFlight = settle(() => w.evaluate(heavy));
  w.dispose();
  out.inFlight = await inFlight;
  out.afterDispose = await settle(() => w.evaluate(requests.CONTRACT_FROM_CASTER));
  out.keys = Object.keys(w).sort();
} catch (e) {
  out.error = String(e && e.stack || e);
}
window.out = out;
</script>`;

// spy.js wraps the worker's postMessage before engine-worker.js runs: each answer says what it
// transferred.
const SPY = `const post = self.postMessage.bind(self);
self.postMessage = (message, transfer) => {
  if (transfer && transfer.length) message = { ...message, spy: transfer.map((b) => [b.constructor.name, b.byteLength]) };
  post(message, transfer);
};`;
const SPY_WORKER = `import "/spy.js";\nimport "/engine-worker.js";`;

// boom.js, run before engine-worker.js: a call whose request holds BOOM is never answered, and
// the worker's script throws (an error event on the page's Worker).
const BOOM = `const boom = new Set();
self.addEventListener("message", (event) => { if (JSON.stringify(event.data?.args ?? "").includes("BOOM")) boom.add(event.data.id); });
const post = self.postMessage.bind(self);
self.postMessage = (message, transfer) => {
  if (!boom.has(message?.id)) return post(message, transfer);
  setTimeout(() => { throw new Error("boom"); });
};`;
const BOOM_WORKER = `import "/boom.js";\nimport "/engine-worker.js";`;

test("Chromium: loadWorker answers as the synchronous engine does, off the main thread", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const base = await serve(t, WEB, { pages: { "/worker-test.html": PAGE, "/spy.js": SPY, "/spy-worker.js": SPY_WORKER, "/boom.js": BOOM, "/boom-worker.js": BOOM_WORKER } });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/worker-test.html`);
  const out = await page.waitForFunction(() => window.out, null, { timeout: 60_000 }).then((h) => h.jsonValue());
  await page.close();
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(errors, []);

  let errorsSeen = 0;
  for (const [what, sync, worker] of out.pairs) {
    assert.deepEqual(worker, sync, `${what}: the worker answers ${JSON.stringify(worker).slice(0, 300)}, the engine ${JSON.stringify(sync).slice(0, 300)}`);
    if (sync.error) {
      errorsSeen++;
      assert.ok(sync.error.aoekit && sync.error.name === "AoekitError", `${what}: not an AoekitError: ${JSON.stringify(sync.error)}`);
    }
  }
  assert.ok(out.pairs.length >= 60 && errorsSeen >= 25, `${out.pairs.length} pairs, ${errorsSeen} errors`);
  const pair = (what) => out.pairs.find((p) => p[0] === what);
  assert.equal(pair("evaluate CONTRACT_FROM_CASTER")[2].ok.count, 10);
  assert.deepEqual(pair("parse Con4")[2].error, { code: "bad_notation", message: "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5", at: 5, hasAt: true, aoekit: true, name: "AoekitError" });
  assert.deepEqual([pair("fullAttack, step 0")[2].error.at, pair("cover melee, out of range")[2].error.hasAt], [0, false]);
  assert.equal(pair("scene evaluate after update packed")[2].ok.targets.length, 0, "the orc walked away");
  assert.match(pair("scene evaluate after dispose json")[2].error.message, /^scene.evaluate after dispose$/);
  assert.match(pair("evaluate too large")[2].error.message, /^evaluate: the request is .* bytes of JSON; the limit is 1 MiB/);

  // evaluateCells: every answer's buffer was transferred, whole (3 int32s a cell).
  const cells = out.pairs.filter((p) => p[0].includes("valuateCells") && p[2].ok).map((p) => p[2].ok.int32.length * 4);
  assert.ok(cells.length >= 4);
  assert.deepEqual(out.spy, cells.map((n) => [["ArrayBuffer", n]]));

  assert.ok(out.heavy.same && out.heavy.count > 20000, JSON.stringify(out.heavy));
  assert.ok(out.heavy.ms > 20 && out.heavy.ticks >= 3, `the main thread ticked ${out.heavy.ticks} times during ${out.heavy.ms} ms`);
  assert.deepEqual(out.sources, [10, 10, 10, 10, 10, 10]);
  assert.match(out.missing.error.message, /^aoekit: fetching http:\/\/127\.0\.0\.1:\d+\/missing\.wasm failed: HTTP 404$/);
  assert.match(out.badWorker.error.message, /^aoekit: the engine's worker did not start/);
  assert.match(out.badWorkerLate.error.message, /^aoekit: the engine's worker did not start/);
  assert.match(out.boomPending.error.message, /^internal error: the engine's worker failed \(.*boom\)$/);
  assert.match(out.boomAfter.error.message, /^aoekit worker: evaluate after the engine's worker failed \(.*boom\): load another with loadWorker\(\)$/);
  assert.match(out.boomScene.error.message, /^aoekit worker: scene after the engine's worker failed/);
  assert.deepEqual([out.boomAfter.error.code, out.boomAfter.error.aoekit], ["bad_request", true]);
  assert.equal(out.sourceStill, true, "bytes given are copied, not taken");
  assert.match(out.inFlight.error.message, /^aoekit worker: the engine was disposed before it answered$/);
  assert.deepEqual([out.inFlight.error.code, out.inFlight.error.aoekit], ["bad_request", true]);
  assert.match(out.afterDispose.error.message, /^aoekit worker: evaluate after dispose/);
  assert.deepEqual(out.keys, ["attachOverlay", "cover", "dispose", "evaluate", "evaluateCells", "fullAttack", "move", "parse", "scene", "version"]);
});

// The overlay in the worker: the canvas handed over (transferControlToOffscreen), drawn by
// aoekit-overlay.wasm in the worker — pixel for pixel what attachOverlay draws on the page, at
// devicePixelRatio 1 and 2, after a resize too — with onTargets called on the page.
const OVERLAY_REQUEST = {
  template: "Cir2h1",
  origin: { x: 5, y: 5 },
  tokens: [{ id: "g1", x: 4, y: 4, side: "enemy" }, { id: "g2", x: 7, y: 5, side: "party" }],
  obstacles: [{ x: 6, y: 5 }],
  walls: [{ a: [9, 2], b: [9, 8] }, { a: [2, 3], b: [2, 5], open: true }],
};

const OVERLAY_PAGE = `<!doctype html><meta charset="utf-8"><title>worker overlay</title>
<canvas id="board" width="300" height="240"></canvas><canvas id="ref" width="300" height="240"></canvas>
<canvas id="spare" width="50" height="50"></canvas><canvas id="ctx" width="50" height="50"></canvas>
<script type="module">
import { loadWorker } from "/worker.js";
import { attachOverlay } from "/overlay.js";
import { AoekitError } from "/index.js";
const request = ${JSON.stringify(OVERLAY_REQUEST)};
const out = {};
const failure = async (f) => { try { await f(); return null; } catch (e) { return { code: e.code, message: e.message, ...("at" in e ? { at: e.at } : {}), ...("field" in e ? { field: e.field } : {}), aoekit: e instanceof AoekitError }; } };
const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
// How many pixels differ between the worker's canvas (its picture, drawn on a scratch canvas)
// and the page's, and how many are drawn at all.
const compare = () => {
  const board = document.getElementById("board"), ref = document.getElementById("ref");
  const scratch = document.createElement("canvas");
  scratch.width = ref.width; scratch.height = ref.height;
  const s = scratch.getContext("2d");
  s.drawImage(board, 0, 0);
  const a = s.getImageData(0, 0, ref.width, ref.height).data, b = ref.getContext("2d").getImageData(0, 0, ref.width, ref.height).data;
  let diff = 0, drawn = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i + 3]) drawn++;
    if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) + Math.abs(a[i + 3] - b[i + 3]) > 8) diff++;
  }
  return { diff, drawn, size: [board.width, board.height, ref.width, ref.height] };
};
// The worker's frame reaches the page's canvas a frame or more later (later still on a busy
// machine): compare until done says the picture has landed, for up to 60 frame pairs, and
// report the last comparison either way.
const landed = async (done) => {
  let c;
  for (let i = 0; i < 60; i++) {
    await frames();
    c = compare();
    if (done(c)) break;
  }
  return c;
};
try {
  const worker = await loadWorker();
  const board = document.getElementById("board");
  // Bad options are refused before the canvas is handed over: it stays the page's.
  out.badOption = await failure(() => worker.attachOverlay(board, { cellSize: "20" }));
  out.badTargets = await failure(() => worker.attachOverlay(board, { onTargets: 5 }));
  out.stillOurs = board.transferControlToOffscreen !== undefined && document.getElementById("spare").getContext("2d") !== null;
  out.context = await failure(() => worker.attachOverlay(document.getElementById("ctx").getContext("2d")));
  out.uncloneableOption = await failure(() => worker.attachOverlay(document.getElementById("spare"), { colours: { sides: { party: () => "red" } } }));
  const targets = [];
  const options = { cellSize: 20, offset: { x: 7, y: 11 }, lines: "all" };
  const o = await worker.attachOverlay(board, { ...options, onTargets: (t) => targets.push(t) });
  const ref = await attachOverlay(document.getElementById("ref"), options);
  out.summary = await o.update(request);
  out.refSummary = ref.update(request);
  out.targets = [...targets];
  out.first = await landed((c) => c.drawn > 0 && c.diff === 0);
  // A resize: the page's canvas gets a larger CSS size; the worker's backing store follows.
  for (const id of ["board", "ref"]) Object.assign(document.getElementById(id).style, { width: "400px", height: "320px" });
  await o.update({ ...request, origin: { x: 8, y: 8 } }, { lines: "none" });
  ref.update({ ...request, origin: { x: 8, y: 8 } }, { lines: "none" });
  out.resized = await landed((c) => c.size[0] === c.size[2] && c.drawn > 0 && c.diff === 0);
  out.geo = [await o.pixelOf(5, 5), await o.cellAt(117, 121), ref.pixelOf(5, 5)];
  out.badRequest = await failure(() => o.update({ template: "Con4", origin: { x: 1, y: 1 } }));
  out.badView = await failure(() => o.update(request, { lines: "most" }));
  // A view the worker cannot be sent (a function in it), or one naming a scene, which the
  // worker's overlay does not draw: AoekitErrors, not postMessage's DataCloneError.
  out.uncloneable = await failure(() => o.update(request, { selected: "g1", extra: () => 1 }));
  out.sceneView = await failure(async () => o.update(request, { scene: await worker.scene({}) }));
  out.targetsAfterErrors = targets.length;
  await o.clear();
  ref.clear();
  out.cleared = await landed((c) => c.drawn === 0);
  Object.assign(board.style, { width: "", height: "" });
  board.style.removeProperty("width");
  await o.dispose();
  await o.dispose();
  out.style = board.getAttribute("style");
  out.afterDispose = await failure(() => o.update(request));
  out.keys = Object.keys(o).sort();
  worker.dispose();
} catch (e) {
  out.error = String(e && e.stack || e);
}
window.out = out;
</script>`;

test("Chromium: the worker's attachOverlay draws in the worker what attachOverlay draws on the page", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const wasm = buildOverlay(tempDir(t, "aoekit-worker-overlay-"));
  const base = await serve(t, WEB, { pages: { "/worker-overlay.html": OVERLAY_PAGE, "/aoekit-overlay.wasm": wasm } });
  const expected = (await engine()).evaluate(OVERLAY_REQUEST);
  const summary = {
    count: expected.count,
    targets: expected.targets.map(({ id, inArea, affected, reason, cover, bonus }) => ({ id, inArea, affected, ...(reason ? { reason } : {}), cover, bonus })),
  };
  for (const dpr of [1, 2]) {
    await t.test(`devicePixelRatio ${dpr}`, async () => {
      const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: dpr });
      t.after(() => context.close());
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (err) => errors.push(err.message));
      await page.goto(`${base}/worker-overlay.html`);
      const out = await page.waitForFunction(() => window.out, null, { timeout: 60_000 }).then((h) => h.jsonValue());
      assert.equal(out.error, undefined, out.error);
      assert.deepEqual(errors, []);
      assert.deepEqual(out.badOption, { code: "bad_request", message: "attach: options.cellSize: expected a number, got a string", aoekit: true });
      assert.deepEqual(out.badTargets, { code: "bad_request", message: "attach: options.onTargets: expected a function, got number", aoekit: true });
      assert.equal(out.stillOurs, true);
      assert.match(out.context.message, /^attach: the worker draws on a <canvas> handed to it/);
      assert.deepEqual(out.summary, summary);
      assert.deepEqual(out.refSummary, summary);
      assert.deepEqual(out.targets, [summary.targets], "onTargets: called once, with the targets");
      assert.deepEqual(out.first.size, [300 * dpr, 240 * dpr, 300 * dpr, 240 * dpr]);
      assert.ok(out.first.drawn > 5000 * dpr * dpr && out.first.diff === 0, `first draw: ${JSON.stringify(out.first)}`);
      assert.deepEqual(out.resized.size, [400 * dpr, 320 * dpr, 400 * dpr, 320 * dpr]);
      assert.ok(out.resized.drawn > 5000 * dpr * dpr && out.resized.diff === 0, `after the resize: ${JSON.stringify(out.resized)}`);
      assert.deepEqual(out.geo, [{ x: 117, y: 121 }, { x: 5, y: 5 }, { x: 117, y: 121 }]);
      assert.deepEqual(out.badRequest, { code: "bad_notation", message: "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5", at: 5, field: "template", aoekit: true });
      assert.equal(out.badView.message, `draw: view.lines: expected selected, all or none, got "most"`);
      assert.equal(out.uncloneable.aoekit && out.uncloneable.code, "bad_request", JSON.stringify(out.uncloneable));
      assert.match(out.uncloneable.message, /^aoekit worker: overlay.update: a value cannot be sent to the engine's worker: /);
      assert.match(out.uncloneableOption.message, /^aoekit worker: attachOverlay: a value cannot be sent to the engine's worker: /);
      assert.deepEqual(out.sceneView, { code: "bad_request", message: "draw: view.scene: the worker's overlay draws the request's own board, not a scene's: send the board in the request", field: "view.scene", aoekit: true });
      assert.equal(out.targetsAfterErrors, 2, "onTargets: once a draw, not for refused ones");
      assert.deepEqual([out.cleared.drawn, out.cleared.diff], [0, 0]);
      assert.equal(out.style, "", "dispose gives the canvas its style back");
      assert.match(out.afterDispose.message, /^aoekit overlay: update after dispose/);
      assert.deepEqual(out.keys, ["cellAt", "clear", "dispose", "pixelOf", "update"]);
    });
  }
});

// CONTRACT.md's example of loadWorker, run as printed in a page beside the package's web/
// folder (served as ./aoekit/); each `// →` line is checked.
test("CONTRACT Off the main thread: the example gives the answers it prints", async (t) => {
  const examples = contractExamples("### Off the main thread");
  assert.equal(examples.length, 1);
  assert.ok(examples[0].checks >= 5, `${examples[0].checks} checked lines`);
  const browser = await chromium(t);
  if (!browser) return;
  const dir = tempDir(t, "aoekit-worker-contract-");
  symlinkSync(WEB, join(dir, "aoekit"));
  const base = await serve(t, dir, { pages: { "/example.html": examples[0].html } });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/example.html`);
  const done = await page.waitForFunction(() => window.__done, null, { timeout: 30_000 }).then((h) => h.jsonValue());
  assert.equal(done, "yes", `the example failed: ${done} ${errors}`);
  assert.deepEqual(errors, []);
  const results = await page.evaluate(() => window.__checks);
  assert.equal(results.length, examples[0].checks, "every checked line ran");
  for (const [line, actual, expected] of results) {
    assert.deepEqual(actual, expected, `CONTRACT.md:${line}: the example prints ${JSON.stringify(expected)}, the worker answers ${JSON.stringify(actual)}`);
  }
});
