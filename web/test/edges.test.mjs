// The module's edges (issue 29, 8): every failure an AoekitError, every message answered.
// scene() given obstacles that only claim to be an Int32Array (a Proxy over one, an object made
// from its prototype) refuses them with a bad_request rather than a TypeError from deep in the
// loader; the engine's worker answers a message for an unknown method, one whose args are not
// an array, and a scene id it does not know, rather than dropping it (a caller waiting for it
// would wait for ever) or failing with a TypeError. The worker's half runs in headless
// Chromium, skipped loudly where /usr/bin/chromium is absent (CI=1 makes it required).
import assert from "node:assert/strict";
import { test } from "node:test";

import { AoekitError, WEB, chromium, engine, serve } from "./helpers.mjs";

test("scene(): obstacles that only claim to be an Int32Array are a bad_request naming obstacles", async () => {
  const e = await engine();
  const fakes = {
    proxy: new Proxy(new Int32Array([1, 1, 0, 400]), {}),
    prototype: Object.create(Int32Array.prototype),
  };
  for (const [name, obstacles] of Object.entries(fakes)) {
    for (const call of [() => e.scene({ obstacles }), () => e.scene({}).update({ obstacles })]) {
      assert.throws(call, (err) => {
        assert.ok(err instanceof AoekitError, `${name}: ${err?.name}: ${err?.message}`);
        assert.equal(err.code, "bad_request");
        assert.equal(err.field, "obstacles");
        assert.match(err.message, /^obstacles: expected an Int32Array/);
        return true;
      });
    }
  }
  // A real Int32Array still goes packed.
  const s = e.scene({ obstacles: new Int32Array([6, 4, 0, 400]) });
  assert.equal(s.evaluate({ template: "Cir1h1", origin: { x: 6, y: 5 } }).count, 9);
  s.dispose();
});

const PAGE = `<!doctype html><meta charset="utf-8"><title>edges</title>
<script type="module">
const w = new Worker("/engine-worker.js", { type: "module" });
const answers = new Map();
w.addEventListener("message", (e) => answers.set(e.data.id, e.data));
const ask = (message) => new Promise((resolve) => {
  w.postMessage(message);
  const t0 = performance.now();
  const poll = () => answers.has(message.id) ? resolve(answers.get(message.id)) : performance.now() - t0 > 5000 ? resolve({ id: message.id, hung: true }) : setTimeout(poll, 10);
  poll();
});
const out = {};
out.load = await ask({ id: 1, method: "load", args: [{}] });
out.proto = await ask({ id: 2, method: "__proto__", args: [] });
out.toString = await ask({ id: 3, method: "toString", args: [] });
out.nullArgs = await ask({ id: 4, method: "evaluate", args: null });
out.objectArgs = await ask({ id: 5, method: "parse", args: { 0: "Cir3" } });
out.noScene = await ask({ id: 6, method: "sceneEvaluate", args: [999, JSON.stringify({ template: "Cir1", origin: { x: 0, y: 0 } })] });
out.noSceneUpdate = await ask({ id: 7, method: "sceneUpdate", args: [999, { json: "{}" }] });
out.still = await ask({ id: 8, method: "parse", args: [JSON.stringify({ text: "Cir3" })] });
window.out = out;
</script>`;

test("Chromium: the engine's worker answers every message with an id, and unknown scenes with an AoekitError", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const base = await serve(t, WEB, { pages: { "/edges.html": PAGE } });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/edges.html`);
  const out = await page.waitForFunction(() => window.out, null, { timeout: 60_000 }).then((h) => h.jsonValue());
  await page.close();
  assert.deepEqual(errors, []);
  assert.deepEqual(out.load, { id: 1, ok: null });
  const refused = (a, message) => {
    assert.ok(!a.hung, `${message}: no answer`);
    assert.equal(a.error?.aoekit, true, JSON.stringify(a));
    assert.equal(a.error.code, "bad_request");
    assert.match(a.error.message, message);
  };
  refused(out.proto, /^aoekit worker: unknown method "__proto__"$/);
  refused(out.toString, /^aoekit worker: unknown method "toString"$/);
  refused(out.nullArgs, /^aoekit worker: evaluate: its arguments must be an array$/);
  refused(out.objectArgs, /^aoekit worker: parse: its arguments must be an array$/);
  refused(out.noScene, /^aoekit worker: no such scene$/);
  refused(out.noSceneUpdate, /^aoekit worker: no such scene$/);
  assert.equal(out.still.ok?.notation, "Cir3", "the worker still answers after the refusals");
});
