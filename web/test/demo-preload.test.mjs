// The demo page starts its module's download as the page is read (a <link rel="preload"> in
// web/demo/index.html), and loadOverlay() takes that response instead of fetching the module
// again: one download, begun before the loader's own modules are even requested. In headless
// Chromium, under the demo server's content security policy.
import assert from "node:assert/strict";
import { test } from "node:test";

import { WEB, fileBrowser, openDemo } from "./helpers.mjs";

const file = fileBrowser(WEB);

test("the demo preloads aoekit-overlay.wasm, and loadOverlay() uses that one download", { timeout: 120_000 }, async (t) => {
  const opened = await openDemo(t, file);
  if (!opened) return;
  const { page, problems } = opened;
  const entries = await page.evaluate(() => performance.getEntriesByType("resource").map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, initiator: e.initiatorType })));
  const wasm = entries.filter((e) => e.name.endsWith("/aoekit-overlay.wasm"));
  // A preload loadOverlay's fetch does not match (another URL, mode or credentials) would be
  // downloaded twice: once by the link, once by the loader.
  assert.equal(wasm.length, 1, `one download of the module: ${JSON.stringify(wasm)}`);
  assert.equal(wasm[0].initiator, "link", "the module's download is the preload's");
  // internal/wasm.js is requested only once overlay.js, which demo.js imports, has arrived: the
  // module's download began before it.
  const helpers = entries.find((e) => e.name.endsWith("/internal/wasm.js"));
  assert.ok(helpers, `internal/wasm.js was loaded: ${entries.map((e) => e.name).join(", ")}`);
  assert.ok(wasm[0].start < helpers.start, `the module at ${wasm[0].start} ms, internal/wasm.js at ${helpers.start} ms`);
  const status = await page.locator("#status").textContent();
  assert.doesNotMatch(status, /failed/);
  assert.deepEqual(problems, []);
  assert.deepEqual(await page.evaluate(() => globalThis.__csp), [], "no content security policy violation");
});
