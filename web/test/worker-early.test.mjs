// loadWorker() starts the module's download on the page, while the worker's own scripts load,
// and sends the worker the compiled WebAssembly.Module (worker.js compileOnPage), rather than
// leaving the worker to fetch the module once engine-worker.js and index.js have arrived (at
// 10 Mbit/s with 40 ms round trips, that cost ~60 ms of a ~1.1 s cold start). Where the page
// cannot compile it (a Content-Security-Policy without 'wasm-unsafe-eval' on the page) or cannot
// send a Module to its worker, the worker fetches the module itself, as before. In headless
// Chromium, with a server that logs who asked for what (each request's Referer) and holds
// engine-worker.js back, so that the order of the requests says who started the download.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import http from "node:http";
import { extname, join } from "node:path";
import { test } from "node:test";

import { CONTRACT_FROM_CASTER, WEB, chromium } from "./helpers.mjs";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const HOLD = 400; // ms engine-worker.js is held back

/**
 * logged serves web/ (and pages) on the loopback, answering engine-worker.js HOLD ms late, and
 * returns its base URL and its log: { path, from (the Referer's path), at (ms since the
 * server started) } for each request, in the order they came.
 */
async function logged(t, pages = {}, headers = {}) {
  const log = [];
  const t0 = performance.now();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    const referer = req.headers.referer ? new URL(req.headers.referer).pathname : null;
    log.push({ path, from: referer, at: performance.now() - t0 });
    let body = pages[path];
    try {
      body ??= readFileSync(join(WEB, path.replace(/^\/+/, "")));
    } catch {
      res.writeHead(404).end("not found");
      return;
    }
    const send = () => res.writeHead(200, { "Content-Type": TYPES[extname(path)] ?? "text/html", ...(headers[path] ?? {}) }).end(body);
    if (path === "/engine-worker.js") setTimeout(send, HOLD);
    else send();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { base: `http://127.0.0.1:${server.address().port}`, log };
}

// The page: loadWorker(options) (options: a script expression), then an evaluate through it
// and, with reference, through load() on the page, for the same answer (sync: null without).
const page = (options, { head = "", reference = true } = {}) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${head}
<script type="module">
import { loadWorker } from "/worker.js";
const request = ${JSON.stringify(CONTRACT_FROM_CASTER)};
try {
  const worker = await loadWorker(${options});
  const answer = await worker.evaluate(request);
  worker.dispose();
  const wasm = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/aoekit.wasm")).map((e) => e.initiatorType);
  const sync = ${reference} ? (await (await import("/index.js")).load()).evaluate(request) : null;
  window.out = { answer, sync, wasm };
} catch (e) {
  window.out = { error: String(e && e.stack || e) };
}
</script>`;

async function run(t, browser, base, path) {
  const context = await browser.newContext();
  t.after(() => context.close());
  const tab = await context.newPage();
  const problems = [];
  tab.on("pageerror", (err) => problems.push(err.message));
  await tab.goto(`${base}${path}`);
  const out = await tab.waitForFunction(() => window.out, null, { timeout: 60_000 }).then((h) => h.jsonValue());
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(problems, []);
  // CONTRACT_FROM_CASTER reaches 10 squares (CONTRACT; worker.test.mjs checks it too).
  assert.equal(out.answer.count, 10, "the worker's engine answered");
  if (out.sync !== null) assert.deepEqual(out.answer, out.sync, "the worker answers as load() does");
  return { ...out, tab };
}

// wasmRequests is the log's requests for the module before the page's own load() (which the
// page makes last, for its reference answer): who asked, and when.
const wasmRequests = (log) => {
  const last = log.findLastIndex((r) => r.path === "/index.js" && r.from?.endsWith(".html"));
  return log.slice(0, last).filter((r) => r.path === "/aoekit.wasm");
};

test("loadWorker(): the page downloads aoekit.wasm at once, while the worker's scripts load, and the worker gets it compiled", { timeout: 120_000 }, async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  for (const [what, options] of [["the package's own module", ""], ["a URL", `{ wasm: "/aoekit.wasm" }`]]) {
    await t.test(what, async (t) => {
      const { base, log } = await logged(t, { "/early.html": page(options) });
      await run(t, browser, base, "/early.html");
      const wasm = wasmRequests(log);
      assert.equal(wasm.length, 1, `one download: ${JSON.stringify(wasm)}`);
      assert.equal(wasm[0].from, "/early.html", "the page asked for it, not the worker");
      const script = log.find((r) => r.path === "/engine-worker.js");
      // Before the worker's script had even been answered (it is held back HOLD ms).
      assert.ok(wasm[0].at < script.at + HOLD / 2, `the module asked for at ${wasm[0].at.toFixed(0)} ms, the worker's script at ${script.at.toFixed(0)} ms (answered ${HOLD} ms later)`);
    });
  }
});

test("loadWorker() from a server that labels the module otherwise than application/wasm: still one download, the page's", { timeout: 120_000 }, async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const { base, log } = await logged(t, { "/octet.html": page("") }, { "/aoekit.wasm": { "Content-Type": "application/octet-stream" } });
  await run(t, browser, base, "/octet.html");
  assert.deepEqual(wasmRequests(log).map((r) => r.from), ["/octet.html"]);
});

test("loadWorker() with the module preloaded as CONTRACT says: one download, the link's", { timeout: 120_000 }, async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const { base, log } = await logged(t, { "/preload.html": page("", { head: `<link rel="preload" href="/aoekit.wasm" as="fetch" type="application/wasm" crossorigin>` }) });
  const out = await run(t, browser, base, "/preload.html");
  assert.equal(wasmRequests(log).length, 1, JSON.stringify(log));
  assert.deepEqual(out.wasm, ["link"], "the page's one download of the module is the preload's");
});

test("loadWorker() on a page that cannot compile WebAssembly, or cannot send a Module: the worker fetches the module itself", { timeout: 120_000 }, async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  await t.test("the page's Content-Security-Policy forbids WebAssembly; the worker's does not", async (t) => {
    // The page's own load() (its reference answer) cannot run under this policy: the worker's
    // answer is checked against CONTRACT's count alone. The page records what its policy refused.
    const head = `<script>window.refused = []; document.addEventListener("securitypolicyviolation", (e) => refused.push(e.blockedURI));</script>`;
    const csp = { "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'" };
    const { base, log } = await logged(t, { "/csp.html": page("", { head, reference: false }) }, { "/csp.html": csp });
    const { tab } = await run(t, browser, base, "/csp.html");
    const wasm = log.filter((r) => r.path === "/aoekit.wasm");
    assert.deepEqual(wasm.map((r) => r.from), ["/csp.html", "/engine-worker.js"], "the page's compile was refused; the worker fetched the module");
    assert.deepEqual(await tab.evaluate(() => window.refused.filter((u) => u !== "data")), ["wasm-eval"], "the page's compile was refused by its policy");
  });
  await t.test("a worker that cannot be sent a WebAssembly.Module (DataCloneError)", async (t) => {
    // A Worker whose postMessage refuses a Module, as a host that cannot share one would.
    const options = `{ wasm: "/aoekit.wasm", worker: (() => {
      const w = new Worker("/engine-worker.js", { type: "module" });
      return { addEventListener: (...a) => w.addEventListener(...a), terminate: () => w.terminate(), postMessage(m, transfer) {
        if (m?.args?.[0]?.wasm instanceof WebAssembly.Module) throw new DOMException("a Module cannot be sent here", "DataCloneError");
        w.postMessage(m, transfer);
      } };
    })() }`;
    const { base, log } = await logged(t, { "/clone.html": page(options) });
    await run(t, browser, base, "/clone.html");
    assert.deepEqual(wasmRequests(log).map((r) => r.from), ["/clone.html", "/engine-worker.js"], "the page's module could not be sent; the worker fetched it");
  });
});
