// Memory after a heavy request, in the module (issue 29, 5): what the WebAssembly instance holds
// after the request 1 (a size-98 caster's 1 aura, which once grew the module's memory to
// 3.5 GB, and sent twice killed it), after the largest answer a legal request gets (a 1 000-square
// line, 10⁶ cells), and after HEAVY_CALLS (10 000) ordinary evaluations. A WebAssembly memory
// never shrinks: its size is the high-water mark of Go's heap, which Go then reuses. So the
// properties are: request 1, 4 times, grows it by at most 256 MB; after the line, the
// ordinary calls grow it no further than their own steady state (Go reuses what it holds,
// nothing accumulates: the second half of the calls grows it by a few pages at most). The sizes and
// Node's resident memory are logged, for the record (the README's numbers). Counts, not times.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CONTRACT_FROM_CASTER, WEB, load } from "./helpers.mjs";

const CALLS = Number(process.env.HEAVY_CALLS ?? 10000);
const MB = 1 << 20;

// The request 1, as it was sent (157 bytes).
const REQUEST_1 = JSON.parse('{"template":"1 aura","caster":{"id":"c","x":0,"y":0,"z":0,"size":98,"height":98},"obstacles":[{"x":49,"y":49,"z":98}],"bounds":{"min":[0,0,0],"max":[0,0,0]}}');
// One of the largest answers: a line of 10⁶ cells (core/engine's worst cases, "line of 10⁶ cells").
const LINE = { template: "Lin1000SE", caster: { id: "c", x: 0, y: 0, z: 0 } };

// loadCaught is load(), with the instance it makes caught on the way (its memory is exports.mem).
async function loadCaught() {
  const module = new WebAssembly.Module(readFileSync(new URL("aoekit.wasm", `file://${WEB}/`)));
  const instantiate = WebAssembly.instantiate;
  let instance;
  WebAssembly.instantiate = async (...args) => {
    const got = await instantiate.apply(WebAssembly, args);
    instance = got instanceof WebAssembly.Instance ? got : got.instance;
    return got;
  };
  try {
    const engine = await load({ wasm: module });
    return { engine, memory: () => instance.exports.mem.buffer.byteLength };
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

test(`memory after issue 29's request 1, the largest answer and ${CALLS} ordinary calls`, { timeout: 600_000 }, async () => {
  const { engine, memory } = await loadCaught();
  const rows = [];
  const look = (what) => {
    rows.push({ what, memory: memory(), rss: process.memoryUsage().rss });
    return memory();
  };
  const repeat = (n, request) => {
    const first = JSON.stringify(engine.evaluate(request));
    for (let i = 1; i < n; i++) {
      const got = engine.evaluate(request);
      if (i % 1000 === 0 || i === n - 1) assert.equal(JSON.stringify(got), first, `call ${i} of ${JSON.stringify(request).slice(0, 80)}`);
    }
  };
  const show = () => rows.map((r) => `${r.what}: wasm memory ${(r.memory / MB).toFixed(1)} MB, Node RSS ${(r.rss / MB).toFixed(0)} MB`).join("\n");
  try {
    const base = look("loaded (warmed up)");
    repeat(1, REQUEST_1);
    const after1 = look("after request 1");
    assert.ok(after1 - base <= 256 * MB, `request 1 grew the module's memory by ${((after1 - base) / MB).toFixed(0)} MB, past 256 MB`);
    // Go's heap grows with its collector's pace (a collection each time the heap has doubled)
    // toward a steady state of some 20 MB for this request (50 calls reach it): never toward
    // gigabytes.
    repeat(3, REQUEST_1);
    const again = look("after request 1, 3 times more");
    assert.ok(again - base <= 256 * MB, `request 1, 4 times, grew the memory by ${((again - base) / MB).toFixed(0)} MB`);
    repeat(3, LINE);
    const afterLine = look("after the 10⁶-cell line, 3 times");
    repeat(CALLS / 2, CONTRACT_FROM_CASTER);
    const half = look(`after ${CALLS / 2} ordinary calls`);
    assert.ok(half <= afterLine + 8 * MB, `${CALLS / 2} ordinary calls grew the memory by ${((half - afterLine) / MB).toFixed(1)} MB: they do not reuse the heap`);
    repeat(CALLS / 2, CONTRACT_FROM_CASTER);
    // A few pages more, at most, as Go's allocator settles: a leak of 200 bytes a call would be 1 MB.
    const end = look(`after ${CALLS} ordinary calls`);
    assert.ok(end - half <= MB, `the second ${CALLS / 2} ordinary calls grew the memory by ${((end - half) / MB).toFixed(2)} MB: something accumulates`);
  } finally {
    console.log(show());
  }
});
