// The loader in headless Chromium, served from 127.0.0.1 as a page would use it: streaming with
// the right MIME type and the fallback with a wrong one, errors, bulk cells, globals, and a
// fresh instance after a failure (synchronous instantiation on the main thread).
// Skipped, loudly, where /usr/bin/chromium is absent (CI installs it; CI=1 makes it required).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CONTRACT_FROM_CASTER, FULL_ATTACK_REQUEST, PACKAGE, WEB, buildCrasher, chromium, serve, tempDir } from "./helpers.mjs";

const PAGE = `<!doctype html><title>aoekit</title>
<script type="module">
  const before = new Set(Object.getOwnPropertyNames(window));
  const { load } = await import("/index.js");
  const out = {};
  const request = ${JSON.stringify(CONTRACT_FROM_CASTER)};
  const failure = (f) => { try { f(); return null; } catch (e) { return { code: e.code, message: e.message, at: e.at, isError: e instanceof Error }; } };
  try {
    // A module streams through compileStreaming (load() compiles as it downloads) or
    // instantiateStreaming: each call of either counts.
    out.streamed = 0;
    for (const name of ["compileStreaming", "instantiateStreaming"]) {
      const streaming = WebAssembly[name];
      WebAssembly[name] = (...args) => { out.streamed++; return streaming(...args); };
    }
    const e = await load();
    out.version = e.version();
    out.parse = e.parse("Con4NE");
    out.result = e.evaluate(request);
    out.cells = Array.from(e.evaluateCells(request));
    out.move = e.move({ kind: "push", distance: 3, source: { x: 0, y: 0, z: 0 }, target: "g1", tokens: [{ id: "g1", x: 1, y: 0, z: 0 }] });
    out.cover = e.cover({ rules: "dnd35", attack: "ranged", attacker: { x: 0, y: 0, z: 0 }, target: { id: "orc", x: 4, y: 0, z: 0 }, obstacles: [{ x: 3, y: 0, z: 0, fill: 0.5 }] });
    out.melee = failure(() => e.cover({ attack: "melee", attacker: { x: 0, y: 0, z: 0 }, target: { id: "orc", x: 4, y: 0, z: 0 } }));
    out.fullAttack = e.fullAttack(${JSON.stringify(FULL_ATTACK_REQUEST)});
    out.stepZero = failure(() => e.fullAttack({ steps: [{ attack: "main", extra: true }] }));
    out.notation = failure(() => e.parse("Con4"));
    const cyclic = { ...request }; cyclic.self = cyclic;
    out.cyclic = failure(() => e.evaluate(cyclic));
    out.bigint = failure(() => e.evaluate({ ...request, range: 20n }));
    out.after = e.evaluate(request).count;
    out.globals = Object.getOwnPropertyNames(window).filter((k) => !before.has(k)).sort();
    const c = await load({ wasm: "/crasher.wasm" });
    out.crash = [c.version().calls, failure(() => c.evaluate({})), c.version().calls, failure(() => c.move({})), c.version().calls];
  } catch (e) {
    out.error = String(e && e.stack || e);
  }
  window.out = out;
</script>`;

test("Chromium: load, every method, errors, globals and a fresh instance after a failure", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const crasher = readFileSync(buildCrasher(tempDir(t)));

  for (const wasmType of ["application/wasm", "application/octet-stream"]) {
    const base = await serve(t, WEB, { wasmType, pages: { "/test.html": PAGE, "/crasher.wasm": crasher } });
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(`${base}/test.html`);
    const out = await page.waitForFunction(() => window.out, null, { timeout: 30_000 }).then((h) => h.jsonValue());
    await page.close();
    const what = `served as ${wasmType}`;
    assert.equal(out.error, undefined, `${what}: ${out.error}`);
    assert.deepEqual(errors, [], what);
    assert.equal(out.streamed, wasmType === "application/wasm" ? 2 : 0, `${what}: streamed ${out.streamed}`);
    assert.deepEqual(out.version, { engine: "aoekit", version: PACKAGE.version, contract: 1 });
    assert.equal(out.parse.notation, "Con4NE");
    assert.equal(out.result.count, 10);
    assert.deepEqual(out.cells, out.result.cells.flat());
    assert.deepEqual(out.move.end, { x: 4, y: 0, z: 0 });
    assert.deepEqual([out.cover.grade, out.cover.bonus, out.cover.blocked, out.cover.total], ["cover", 4, 2, 4]);
    assert.equal(out.melee.code, "out_of_range");
    assert.deepEqual(out.fullAttack.next.map((s) => [s.with, s.bonus]), [["greatsword", 4], ["bite", 6]]);
    assert.deepEqual([out.stepZero.code, out.stepZero.at, out.stepZero.isError], ["not_declared", 0, true]);
    assert.deepEqual(out.notation, { code: "bad_notation", message: "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5", at: 5, isError: true });
    assert.equal(out.cyclic.code, "bad_request");
    assert.equal(out.bigint.code, "bad_request");
    assert.equal(out.after, 10);
    // wasm_exec.js defines Go, and shims fs, path and process where the host has none.
    assert.ok(out.globals.every((k) => ["Go", "fs", "path", "process"].includes(k)), `${what}: globals ${out.globals}`);
    const [one, stopped, fresh, exited, freshAgain] = out.crash;
    assert.equal(one, 1);
    assert.match(stopped.message, /^internal error: the engine stopped/);
    assert.equal(fresh, 1, "a fresh instance after a stack overflow");
    assert.match(exited.message, /^internal error: the engine exited/);
    assert.equal(freshAgain, 1, "a fresh instance after an exit");
  }
});
