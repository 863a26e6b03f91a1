// A page that preloads the module (<link rel="preload" as="fetch" crossorigin>, as CONTRACT
// says) downloads it once: load()'s and loadOverlay()'s fetch take the preloaded response. The
// demo page (web/demo/index.html) and the Owlbear extension's background page do so, so that
// the download starts as the page is read, not once the page's modules have loaded. In headless
// Chromium (the demo under its server's content security policy).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { WEB, fileBrowser, openDemo, serve } from "./helpers.mjs";

const file = fileBrowser(WEB);

/** The page's resource timing entries: path, start (ms) and what began the download. */
const resources = (page) => page.evaluate(() => performance.getEntriesByType("resource").map((e) => ({ name: new URL(e.name).pathname, start: e.startTime, initiator: e.initiatorType })));

test("a page that preloads aoekit.wasm as CONTRACT says: load() uses that one download", { timeout: 120_000 }, async (t) => {
  if (!file.browser) return t.skip("Chromium is absent");
  const page_ = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
<link rel="preload" href="/aoekit.wasm" as="fetch" type="application/wasm" crossorigin>
<script type="module">
import { load } from "/index.js";
const engine = await load();
globalThis.answer = engine.evaluate({ template: { notation: "Cir2" }, caster: { x: 0, y: 0, z: 0 }, origin: { x: 5, y: 5, z: 0 } }).count;
</script>`;
  const base = await serve(t, WEB, { pages: { "/preload.html": page_ } });
  const context = await file.browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(err.message));
  await page.goto(`${base}/preload.html`);
  await page.waitForFunction(() => globalThis.answer !== undefined, null, { timeout: 30_000 });
  assert.ok(await page.evaluate(() => globalThis.answer) > 0, "the engine answered");
  const wasm = (await resources(page)).filter((e) => e.name === "/aoekit.wasm");
  assert.equal(wasm.length, 1, `one download of the module: ${JSON.stringify(wasm)}`);
  assert.equal(wasm[0].initiator, "link", "the module's download is the preload's");
  assert.deepEqual(problems, []);
});

test("the Owlbear extension's background page preloads the module its load() fetches", () => {
  // background.mjs imports ./index.js, whose load() fetches ./aoekit.wasm beside it, and make
  // owlbear puts both next to background.html: owlbear.test.mjs checks those. The preload is
  // the first test's, with the page's relative URL.
  const html = readFileSync(join(WEB, "owlbear", "background.html"), "utf8");
  assert.match(html, /<link rel="preload" href="aoekit\.wasm" as="fetch" type="application\/wasm" crossorigin>/);
  assert.ok(html.indexOf('rel="preload"') < html.indexOf("<script"), "the preload comes before the page's script");
});

test("the demo preloads aoekit-overlay.wasm, and loadOverlay() uses that one download", { timeout: 120_000 }, async (t) => {
  const opened = await openDemo(t, file);
  if (!opened) return;
  const { page, problems } = opened;
  const entries = await resources(page);
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
