// @ts-check
// The demo's screenshots, taken afresh: `make static`, then `node web/demo/screenshots.mjs`. It
// serves static/ (the site `make demo` serves) on a loopback port, opens the demo in headless
// Chromium (/usr/bin/chromium, or $CHROMIUM) at 1440 × 900 and at 390 × 844, and writes
// web/demo/screenshots/<scene>-<width>x<height>.png for three scenes:
//   fireball      a D&D 5e 20-foot-radius sphere (fireball) on a point among the sample's
//                 creatures: the area, its cover badges (½ +2, ¾ +5) and every name;
//   burst-wall    the walled room: Talent's Draw Steel 3 burst stopped by the room's thin walls,
//                 leaving through the open door;
//   attack-cover  the walled room's Archer shooting at the Cultist across the east wall (TDGS):
//                 the attack's cover lines, under every name.
// Each shot is checked before it is written: the engine answered, and no label is drawn over by
// another (the page's own layout of names and badges).
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const STATIC = join(ROOT, "static");
const OUT = join(HERE, "screenshots");
const SIZES = [[1440, 900], [390, 844]];
/** @type {Record<string, string>} */
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm", ".json": "application/json", ".ts": "text/plain; charset=utf-8" };

if (!statSync(join(STATIC, "demo", "index.html"), { throwIfNoEntry: false })) {
  console.error("static/demo is missing: run make static first");
  process.exit(1);
}

const server = createServer((req, res) => {
  let path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
  if (path.endsWith("/")) path += "index.html";
  const file = join(STATIC, path);
  if (!file.startsWith(STATIC)) { res.writeHead(403).end(); return; }
  try {
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(null)));
const address = server.address();
const base = `http://127.0.0.1:${address && typeof address === "object" ? address.port : 0}`;

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
mkdirSync(OUT, { recursive: true });
/** @type {string[]} */
const problems = [];
try {
  for (const [width, height] of SIZES) {
    for (const scene of ["fireball", "burst-wall", "attack-cover"]) {
      const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      page.on("pageerror", (err) => problems.push(`${scene} ${width}: ${err.message}`));
      page.on("console", (msg) => { if (msg.type() === "error") problems.push(`${scene} ${width}: ${msg.text()}`); });
      await page.goto(`${base}/demo/`);
      await page.waitForFunction(() => /** @type {any} */ (globalThis).__aoekitDemo?.state.result, null, { timeout: 30_000 });
      await setUp(page, scene);
      const overlaps = await page.evaluate(() => {
        const labels = /** @type {any} */ (globalThis).__aoekitDemo.drawnLabels();
        /** @type {string[]} */
        const out = [];
        for (const a of labels) for (const b of labels) {
          if (a === b || a.kind !== "name") continue;
          if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) out.push(`${b.text} over ${a.text}`);
        }
        return out;
      });
      if (overlaps.length) problems.push(`${scene} ${width}: ${overlaps.join(", ")}`);
      const path = join(OUT, `${scene}-${width}x${height}.png`);
      await page.screenshot({ path });
      console.log(`wrote ${path}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}

/**
 * Puts the page in a scene: through the page's own controls and its test hook's importText.
 * @param {import("playwright-core").Page} page @param {string} scene
 */
async function setUp(page, scene) {
  if (scene === "fireball") {
    // The sample's board under D&D 5e: a fireball's point on the intersection at (10, 7).
    await page.evaluate(() => {
      const d = /** @type {any} */ (globalThis).__aoekitDemo;
      const { origin, aim, ...request } = d.exportRequest();
      d.importText(JSON.stringify({ ...request, rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 7, z: 0 } }), "fireball.json");
    });
  } else if (scene === "burst-wall") {
    await page.click("#sample-room");
  } else {
    // The walled room's Archer shooting at the Cultist across the room's east wall (TDGS ranged):
    // the sample sets the attack up; opening the section shows it, as a user opens it.
    await page.click("#sample-room");
    await page.waitForFunction(() => /** @type {any} */ (globalThis).__aoekitDemo.scene.template === "3 burst", null, { timeout: 30_000 });
    await page.locator("#attack-section > summary").click();
    // On a phone the board shows part of the room: the view is panned to the middle of the shot.
    await page.evaluate(() => {
      const d = /** @type {any} */ (globalThis).__aoekitDemo, v = d.view;
      d.panBy(((8 + 17 + 1) / 2) * v.sq - v.w / 2 - v.x, ((8 + 9 + 1) / 2) * v.sq - v.h / 2 - v.y);
    });
  }
  await page.waitForFunction(() => {
    const d = /** @type {any} */ (globalThis).__aoekitDemo;
    return d.state.result && (!document.getElementById("attack-section")?.hasAttribute("open") || d.state.attackResult);
  }, null, { timeout: 30_000 });
  await page.mouse.move(0, 0); // no hover left on a button
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(100);
}
