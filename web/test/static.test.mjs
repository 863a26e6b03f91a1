// The demo site as `make demo` serves it (static/, built by `make static`, served by
// wasm/devserver), in headless Chromium: the page works, and the module it runs on — the
// overlay's, aoekit-overlay.wasm: the engine and the renderer (issue 13) — crosses the wire
// compressed with its own Content-Type, as the browser negotiated; every page of the site (each
// .html under static/, and each folder's own address) loads with no console error, no page error
// and no failed request, the demo's modules included.
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

import { ROOT, chromium, devserver } from "./helpers.mjs";

const STATIC = join(ROOT, "static");

test("make demo's server sends the module compressed, and the demo runs on it", async (t) => {
  const size = statSync(join(STATIC, "aoekit-overlay.wasm"), { throwIfNoEntry: false })?.size;
  assert.ok(size > 0, "static/aoekit-overlay.wasm is missing: make static builds it (make test does)");
  const browser = await chromium(t);
  if (!browser) return;
  const base = await devserver(t);

  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  const responses = new Map();
  page.on("response", (res) => {
    responses.set(new URL(res.url()).pathname, res);
    if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
  });
  await page.goto(`${base}/demo/`);
  await page.waitForFunction(() => globalThis.__aoekitDemo?.state.result, null, { timeout: 30_000 });
  assert.deepEqual(errors, []);

  const wasm = responses.get("/aoekit-overlay.wasm");
  assert.ok(wasm, `no request for /aoekit-overlay.wasm among ${[...responses.keys()]}`);
  const headers = await wasm.allHeaders();
  assert.equal(headers["content-encoding"], "br", JSON.stringify(headers));
  assert.equal(headers["content-type"], "application/wasm");
  assert.match(headers["vary"] ?? "", /Accept-Encoding/i);

  // What crossed the wire (encoded) against what the page got (decoded): the whole module,
  // in under a quarter of its size.
  const entry = await page.evaluate(() => {
    const e = performance.getEntriesByType("resource").find((r) => new URL(r.name).pathname === "/aoekit-overlay.wasm");
    return e && { encoded: e.encodedBodySize, decoded: e.decodedBodySize };
  });
  assert.ok(entry, "no resource timing for /aoekit-overlay.wasm");
  assert.equal(entry.decoded, size, "the page got the whole module");
  assert.ok(entry.encoded > 0 && entry.encoded < size / 4, `${entry.encoded} B crossed for a ${size} B module`);
  t.diagnostic(`aoekit-overlay.wasm: ${entry.encoded} B sent (brotli), ${size} B decoded`);

  // The scripts are compressed too.
  for (const path of ["/overlay.js", "/internal/wasm.js", "/wasm_exec.js", "/demo/demo.js"]) {
    const res = responses.get(path);
    assert.ok(res, `no request for ${path}`);
    assert.equal((await res.allHeaders())["content-encoding"], "br", path);
  }
});

/** Every page of the site: each .html under dir, as its path, and a folder's index.html by the folder's own path too. */
function pages(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".html")) continue;
    const path = "/" + relative(dir, join(entry.parentPath ?? entry.path, entry.name)).split("\\").join("/");
    out.push(path);
    if (entry.name === "index.html") out.push(path.slice(0, -"index.html".length));
  }
  return out.sort();
}

test("every page of the site loads with no console error, no page error and no failed request", async (t) => {
  const list = pages(STATIC);
  assert.ok(list.includes("/") && list.includes("/demo/"), `the site's pages: ${list}`);
  const browser = await chromium(t);
  if (!browser) return;
  const base = await devserver(t);
  for (const path of list) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    t.after(() => context.close());
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
    page.on("console", (msg) => msg.type() === "error" && problems.push(`console.error: ${msg.text()}`));
    page.on("requestfailed", (req) => problems.push(`failed: ${req.url()} ${req.failure()?.errorText}`));
    page.on("response", (res) => res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`));
    await page.goto(base + path);
    // A page that leads on (the root's refresh to demo/) is followed; the demo is waited for
    // until the engine answered, so that its modules and the module it runs on have all loaded.
    await page.waitForLoadState("load");
    await page.waitForTimeout(300);
    if (new URL(page.url()).pathname.startsWith("/demo/")) {
      await page.waitForFunction(() => {
        const d = globalThis.__aoekitDemo;
        return (d?.state.engine && (d.state.result || d.state.error || d.state.waiting)) || /failed to load/.test(document.getElementById("status")?.textContent ?? "");
      }, null, { timeout: 30_000 });
      assert.doesNotMatch(await page.locator("#status").textContent(), /failed to load/, path);
    }
    await page.waitForTimeout(200); // errors reported as tasks
    assert.deepEqual(problems, [], `${path} (shown as ${new URL(page.url()).pathname})`);
    t.diagnostic(`${path}: no error (${new URL(page.url()).pathname})`);
  }
});
