// The module in headless Chromium (Debian's /usr/bin/chromium through playwright-core, as the
// browser tests start it), on pages served from the repository by a small loopback server.
import { accessSync, constants, readFileSync } from "node:fs";
import http from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { brotliCompressSync, constants as zlib } from "node:zlib";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };

// The page loads measure.mjs and page.mjs, and exposes them to page.evaluate.
const PAGE = `<!doctype html><meta charset="utf-8"><title>aoekit bench</title>
<script type="module">import * as bench from "/web/bench/page.mjs"; window.bench = bench; window.ready = true;</script>`;

// Brotli -q 11 of each file served, by path (a file compresses once a run; the module ~10 s).
const BROTLI = new Map();
function brotli(file, body) {
  if (!BROTLI.has(file)) {
    BROTLI.set(file, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  }
  return BROTLI.get(file);
}

/**
 * serveRepo serves root's web/ and build/bench/ (nothing else) on a free loopback port, as a
 * host serves a page's files: brotli -q 11 (Content-Encoding: br) to a browser that accepts it,
 * as the module's size is reckoned (make size). The pages are cross-origin isolated (COOP +
 * COEP), which gives performance.now() its fine resolution in Chromium (5 µs instead of 100 µs),
 * and nothing is cached (every cold start fetches and compiles the module afresh).
 */
export async function serveRepo(root) {
  const allowed = [join(root, "web") + sep, join(root, "build", "bench") + sep, join(root, "build", "floor.wasm")];
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const headers = {
      "Cross-Origin-Opener-Policy": "same-origin",
      "Cross-Origin-Embedder-Policy": "require-corp",
      "Cache-Control": "no-store",
    };
    let body;
    if (path === "/" || path === "/bench.html") {
      body = PAGE;
      headers["Content-Type"] = "text/html";
    } else {
      const file = normalize(join(root, path));
      if (!allowed.some((dir) => (dir.endsWith(sep) ? file.startsWith(dir) : file === dir))) {
        res.writeHead(404, headers).end("not found");
        return;
      }
      try {
        body = readFileSync(file);
      } catch {
        res.writeHead(404, headers).end("not found");
        return;
      }
      headers["Content-Type"] = TYPES[extname(file)] ?? "application/octet-stream";
      if (/\bbr\b/.test(req.headers["accept-encoding"] ?? "") && [".wasm", ".js", ".mjs", ".json"].includes(extname(file))) {
        body = brotli(file, body);
        headers["Content-Encoding"] = "br";
      }
    }
    res.writeHead(200, headers).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** chromiumPath is Debian's Chromium (or $CHROMIUM), or null where it is absent. */
export function chromiumPath() {
  const path = process.env.CHROMIUM || "/usr/bin/chromium";
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

// SLOW is the network of the throttled cold starts (issue 30): 10 Mbit/s each way, 40 ms round
// trips, through the DevTools protocol (Network.emulateNetworkConditions: latency is added to
// each request's round trip, throughput caps the transfer).
export const SLOW = { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 };

/**
 * inChromium runs the cases, and the field-of-view bursts fovCases (their names), through the
 * module in a headless Chromium page, and coldRuns cold starts (each in a fresh browser context:
 * its own cache, a fresh import of the package): at the loopback's speed and on SLOW's network,
 * the package's (import → first result, through load() and through loadWorker()) and the
 * floor module's (floor: its URL under the
 * server's root, a module with only syscall/js: import wasm_exec.js → its function's first
 * answer), taken in turn.
 */
export async function inChromium(root, executablePath, { cases, fovCases = [], opts, coldCase, coldRuns, floor = null }) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const server = await serveRepo(root);
  // Compressed before the cold starts (the module's brotli -q 11 takes seconds): what each
  // cold start imports.
  for (const path of ["web/aoekit.wasm", "web/wasm_exec.js", "web/index.js", "web/internal/wasm.js", "web/worker.js", "web/engine-worker.js", ...(floor ? [floor.slice(1)] : [])]) {
    const file = join(root, path);
    brotli(file, readFileSync(file));
  }
  try {
    const open = async (network = null) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (network) {
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", network);
      }
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(`${server.url}/bench.html`);
      await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 }).catch(() => {
        throw new Error(`the bench page did not load: ${errors.join("; ") || "no error reported"}`);
      });
      return { context, page };
    };
    const cold = [];
    const coldSlow = [];
    const floorCold = [];
    const floorSlow = [];
    const workerCold = [];
    const workerSlow = [];
    for (let i = 0; i < coldRuns; i++) {
      for (const [out, network, f] of [
        [cold, null, (page) => page.evaluate((name) => window.bench.cold(name), coldCase)],
        [coldSlow, SLOW, (page) => page.evaluate((name) => window.bench.cold(name), coldCase)],
        [workerCold, null, (page) => page.evaluate((name) => window.bench.workerCold(name), coldCase)],
        [workerSlow, SLOW, (page) => page.evaluate((name) => window.bench.workerCold(name), coldCase)],
        ...(floor ? [[floorCold, null, (page) => page.evaluate((url) => window.bench.floorCold(url), floor)],
          [floorSlow, SLOW, (page) => page.evaluate((url) => window.bench.floorCold(url), floor)]] : []),
      ]) {
        const { context, page } = await open(network);
        out.push(await f(page));
        await context.close();
      }
    }
    const { context, page } = await open();
    const warm = await page.evaluate(([list, o, fov]) => window.bench.run(list, o, fov), [cases, opts, fovCases]);
    await context.close();
    return { version: browser.version(), cold, coldSlow, floorCold, floorSlow, workerCold, workerSlow, ...warm };
  } finally {
    await server.close();
    await browser.close();
  }
}
