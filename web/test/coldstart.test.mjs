// load()'s cold start in Chromium (issue 30): importing the package fetches one file, the
// module's download and compile do not wait for Go's support (wasm_exec.js) nor the loader's
// helpers (internal/wasm.js), which are requested together, and the first result does not wait
// for the warm-up, which runs after load() resolves (and loadOverlay()'s too), a call at a time
// when the page is idle; loadWorker() (aoekit/worker) alike starts the module's download before
// internal/wasm.js arrives. (make bench times them: its cold rows, plain and at 10 Mbit/s with 40
// ms round trips.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import { extname, join } from "node:path";
import { test } from "node:test";

import { CONTRACT_REQUEST, WEB, chromium } from "./helpers.mjs";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };

// serveLogged serves web/ on a free loopback port, holding back each answer whose path is a key
// of delays by that many ms; log gets every request's path and arrival time (ms).
async function serveLogged(t, delays, log) {
  const t0 = performance.now();
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    log.push({ path, at: performance.now() - t0 });
    let body = "<!doctype html><title>aoekit cold start</title>";
    if (path !== "/test.html") {
      try {
        body = readFileSync(join(WEB, path.replace(/^\/+/, "")));
      } catch {
        res.writeHead(404).end("not found");
        return;
      }
    }
    setTimeout(() => res.writeHead(200, { "Content-Type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body), delays[path] ?? 0);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

// servedPage opens a fresh page of browser on serveLogged's server (delays and log as there).
async function servedPage(t, browser, delays, log) {
  const base = await serveLogged(t, delays, log);
  const page = await browser.newPage();
  await page.goto(`${base}/test.html`);
  return page;
}

// heldBack imports the package in a fresh page and loads it, path's answer held back HOLD ms:
// how long the import took, the first evaluate's count, and when each file was requested.
const HOLD = 1500;
async function heldBack(t, browser, path) {
  const log = [];
  const page = await servedPage(t, browser, { [path]: HOLD }, log);
  const out = await page.evaluate(async (request) => {
    const t0 = performance.now();
    const { load } = await import("/index.js");
    const imported = performance.now() - t0;
    return { imported, count: (await load()).evaluate(request).count };
  }, CONTRACT_REQUEST);
  await page.close();
  assert.ok(out.count > 0);
  const at = (p) => log.find((r) => r.path === p)?.at;
  assert.ok(at(path) !== undefined && at("/aoekit.wasm") !== undefined, JSON.stringify(log));
  return { ...out, at };
}

test("Chromium: load() requests aoekit.wasm while wasm_exec.js is still on its way", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const { at } = await heldBack(t, browser, "/wasm_exec.js");
  // Before, the module was requested only once wasm_exec.js had arrived (HOLD ms after it).
  assert.ok(at("/aoekit.wasm") - at("/wasm_exec.js") < HOLD / 2,
    `aoekit.wasm requested ${Math.round(at("/aoekit.wasm") - at("/wasm_exec.js"))} ms after wasm_exec.js, which was held back ${HOLD} ms`);
});

test("Chromium: importing the package is one file, and load() requests aoekit.wasm while internal/wasm.js is still on its way", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const { imported, at } = await heldBack(t, browser, "/internal/wasm.js");
  // Before, index.js imported internal/wasm.js: the import waited for it (HOLD ms), and the
  // module was requested only once it had arrived.
  assert.ok(imported < HOLD / 2, `import("/index.js") took ${Math.round(imported)} ms with internal/wasm.js held back ${HOLD} ms`);
  assert.ok(at("/aoekit.wasm") - at("/internal/wasm.js") < HOLD / 2,
    `aoekit.wasm requested ${Math.round(at("/aoekit.wasm") - at("/internal/wasm.js"))} ms after internal/wasm.js, which was held back ${HOLD} ms`);
});

test("Chromium: importing aoekit/worker is one file, and loadWorker() requests aoekit.wasm while internal/wasm.js is still on its way", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const log = [];
  const page = await servedPage(t, browser, { "/internal/wasm.js": HOLD }, log);
  const out = await page.evaluate(async (request) => {
    const t0 = performance.now();
    const { loadWorker } = await import("/worker.js");
    const imported = performance.now() - t0;
    const engine = await loadWorker();
    const loaded = performance.now() - t0;
    const count = (await engine.evaluate(request)).count;
    engine.dispose();
    return { imported, loaded, count };
  }, CONTRACT_REQUEST);
  await page.close();
  assert.ok(out.count > 0);
  // The page's import of internal/wasm.js and the worker's (engine-worker.js, through index.js)
  // are both held back: loadWorker() cannot resolve before HOLD ms.
  assert.ok(out.loaded >= HOLD, `loadWorker() resolved ${Math.round(out.loaded)} ms after the import, before internal/wasm.js (held back ${HOLD} ms) had arrived`);
  // Before, worker.js imported internal/wasm.js: the import waited for it, and the module was
  // requested only once it had arrived.
  assert.ok(out.imported < HOLD / 2, `import("/worker.js") took ${Math.round(out.imported)} ms with internal/wasm.js held back ${HOLD} ms`);
  const at = (p) => log.find((r) => r.path === p)?.at;
  assert.ok(at("/internal/wasm.js") !== undefined && at("/aoekit.wasm") !== undefined, JSON.stringify(log));
  assert.ok(at("/aoekit.wasm") - at("/internal/wasm.js") < HOLD / 2,
    `aoekit.wasm requested ${Math.round(at("/aoekit.wasm") - at("/internal/wasm.js"))} ms after internal/wasm.js, which was held back ${HOLD} ms`);
  assert.equal(log.filter((r) => r.path === "/aoekit.wasm").length, 1, "the module is downloaded once, on the page");
});

test("Chromium: load() compiles aoekit.wasm as it arrives, while internal/wasm.js and wasm_exec.js, requested together, are still on their way", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const log = [];
  const page = await servedPage(t, browser, { "/internal/wasm.js": HOLD }, log);
  const out = await page.evaluate(async (request) => {
    const compile = WebAssembly.compileStreaming;
    let compiled;
    WebAssembly.compileStreaming = (...args) => compile.apply(WebAssembly, args).then((m) => ((compiled = performance.now()), m));
    const t0 = performance.now();
    const { load } = await import("/index.js");
    const engine = await load();
    return { compiled: compiled - t0, loaded: performance.now() - t0, count: engine.evaluate(request).count };
  }, CONTRACT_REQUEST);
  await page.close();
  assert.ok(out.count > 0);
  assert.ok(out.loaded >= HOLD, `load() resolved ${Math.round(out.loaded)} ms after the import, before internal/wasm.js (held back ${HOLD} ms) had arrived`);
  // Before, the module was compiled (instantiateStreaming) only once both had arrived, one after
  // the other.
  assert.ok(out.compiled < HOLD / 2, `aoekit.wasm compiled ${Math.round(out.compiled)} ms after the import, with internal/wasm.js held back ${HOLD} ms`);
  const at = (p) => log.find((r) => r.path === p)?.at;
  assert.ok(at("/wasm_exec.js") - at("/internal/wasm.js") < HOLD / 2,
    `wasm_exec.js requested ${Math.round(at("/wasm_exec.js") - at("/internal/wasm.js"))} ms after internal/wasm.js, which was held back ${HOLD} ms`);
});

// idleWarmUp loads an engine in a fresh page (loader: an expression of the imported module m
// that resolves to an engine) and counts the page's idle callbacks: those scheduled and run when
// the loader resolved, then once the page has been idle long enough for all of them, and the
// engine's answers to request before and after.
async function idleWarmUp(t, entry, loader) {
  const browser = await chromium(t);
  if (!browser) return null;
  const page = await servedPage(t, browser, {}, []);
  const out = await page.evaluate(async ([entry, loader, request]) => {
    // Every idle callback the page schedules, and how many have run.
    const idle = { scheduled: 0, ran: 0 };
    const schedule = window.requestIdleCallback.bind(window);
    window.requestIdleCallback = (f, options) => {
      idle.scheduled++;
      return schedule((deadline) => {
        idle.ran++;
        f(deadline);
      }, options);
    };
    const m = await import(entry);
    const engine = await (0, eval)(`(m) => ${loader}`)(m);
    const atLoad = { ...idle };
    const count = engine.evaluate(request).count; // answers before the warm-up has run
    // Idle until the warm-up has nothing left to schedule.
    for (let quiet = 0; quiet < 5; ) {
      const before = idle.scheduled;
      await new Promise((resolve) => setTimeout(resolve, 100));
      quiet = idle.scheduled === before && idle.ran === idle.scheduled ? quiet + 1 : 0;
    }
    return { atLoad, count, after: { ...idle }, again: engine.evaluate(request).count };
  }, [entry, loader, CONTRACT_REQUEST]);
  await page.close();
  return out;
}

for (const [name, entry, loader] of [
  ["load()", "/index.js", "m.load()"],
  ["loadOverlay()", "/overlay.js", "m.loadOverlay().then((o) => o.engine)"],
]) {
  test(`Chromium: ${name} resolves before its warm-up, which runs after, a call at a time when the page is idle`, async (t) => {
    const out = await idleWarmUp(t, entry, loader);
    if (!out) return;
    assert.deepEqual(out.atLoad, { scheduled: 1, ran: 0 }, `${name} resolved with its warm-up scheduled, not run`);
    assert.ok(out.count > 0 && out.again === out.count);
    // One idle callback for each of the warm-up's 7 calls (internal/wasm.js warmUpSteps: 5
    // evaluates, evaluateCells, a scene), and the last, which finds none left.
    assert.deepEqual(out.after, { scheduled: 8, ran: 8 });
  });
}
