// The module in headless Chromium (Debian's /usr/bin/chromium through playwright-core, as the
// browser tests start it), on pages served from the repository by a small loopback server.
import { accessSync, constants, readFileSync } from "node:fs";
import http from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".wasm": "application/wasm" };

// The page loads measure.mjs and page.mjs, and exposes them to page.evaluate.
const PAGE = `<!doctype html><meta charset="utf-8"><title>aoekit bench</title>
<script type="module">import * as bench from "/web/bench/page.mjs"; window.bench = bench; window.ready = true;</script>`;

/**
 * serveRepo serves root's web/ and build/bench/ (nothing else) on a free loopback port. The pages
 * are cross-origin isolated (COOP + COEP), which gives performance.now() its fine resolution in
 * Chromium (5 µs instead of 100 µs), and nothing is cached (every cold start fetches and compiles
 * the module afresh).
 */
export async function serveRepo(root) {
  const allowed = [join(root, "web") + sep, join(root, "build", "bench") + sep];
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
      if (!allowed.some((dir) => file.startsWith(dir))) {
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

/**
 * inChromium runs the cases, and the field-of-view bursts fovCases (their names), through the
 * module in a headless Chromium page, and coldRuns cold starts (each in a fresh browser context:
 * its own cache, a fresh import of the package).
 */
export async function inChromium(root, executablePath, { cases, fovCases = [], opts, coldCase, coldRuns }) {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const server = await serveRepo(root);
  try {
    const open = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(`${server.url}/bench.html`);
      await page.waitForFunction(() => window.ready === true, null, { timeout: 30_000 }).catch(() => {
        throw new Error(`the bench page did not load: ${errors.join("; ") || "no error reported"}`);
      });
      return { context, page };
    };
    const cold = [];
    for (let i = 0; i < coldRuns; i++) {
      const { context, page } = await open();
      cold.push(await page.evaluate((name) => window.bench.cold(name), coldCase));
      await context.close();
    }
    const { context, page } = await open();
    const warm = await page.evaluate(([list, o, fov]) => window.bench.run(list, o, fov), [cases, opts, fovCases]);
    await context.close();
    return { version: browser.version(), cold, ...warm };
  } finally {
    await server.close();
    await browser.close();
  }
}
