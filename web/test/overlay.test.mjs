// The overlay (web/overlay.js and aoekit-overlay.wasm, built from wasm/overlay) in headless
// Chromium, under the demo server's Content-Security-Policy: it attaches to a canvas with
// 20-pixel squares and an offset, draws a known request, and the pixels read back with
// getImageData are the ones the demo's visual language puts there — at devicePixelRatio 1 and 2.
// Errors come back as the engine's, a detached overlay says so, and the module keeps working.
// The module is built here from the sources (as make overlay builds it), so the test never runs
// a stale one. Skipped, loudly, where /usr/bin/chromium is absent (CI=1 makes it required).
// CONTRACT's examples ("The overlay") run as printed, each `// → value` line checked; a module
// whose Go program ends (a test build, -tags overlaycrash) is replaced, its overlays attached
// again. A screenshot goes to build/screenshots/overlay.png.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { ROOT, WEB, buildOverlay, chromium, contractExamples, engine, serve, tempDir } from "./helpers.mjs";

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

// A one-level TDGS circle of radius 2 at (5, 5): squares 3…7 × 3…7. A full block at (6, 5)
// hides g2 (full cover: in the area, not affected); g1 stands in the open (affected). A wall
// runs east of the area, an open door west of it.
const REQUEST = {
  template: "Cir2h1",
  origin: { x: 5, y: 5 },
  tokens: [{ id: "g1", x: 4, y: 4, side: "enemy" }, { id: "g2", x: 7, y: 5, side: "party" }],
  obstacles: [{ x: 6, y: 5 }],
  walls: [{ a: [9, 2], b: [9, 8] }, { a: [2, 3], b: [2, 5], open: true }],
};
const CELL = 20;
const OFFSET = { x: 7, y: 11 };

// Colours: the demo's (web/demo/demo.js COLOURS and BADGE).
const AREA = [255, 140, 0, 92]; // rgba(255, 140, 0, 0.36) on a transparent canvas
const HIT = [255, 212, 0];
const ENEMY = [211, 47, 47];
const PARTY = [30, 111, 217];
const BLOCKED = [255, 59, 59];
const CLEAR = [47, 191, 74];
const FULL_BADGE = [198, 40, 40];
const WALL = [29, 37, 42];
const DOOR = [141, 91, 62];

const PAGE = `<!doctype html><meta charset="utf-8"><title>overlay</title>
<link rel="stylesheet" href="/overlay-test.css">
<canvas id="board" width="300" height="240"></canvas><canvas id="other" width="40" height="40"></canvas>
<script type="module" src="/overlay-test.js"></script>`;
const CSS = `body { margin: 0; background: #fff; } canvas { display: block; }`;
const SCRIPT = `
import { loadOverlay } from "/overlay.js";
try {
  window.overlays = await loadOverlay();
  window.ready = "yes";
} catch (e) {
  window.ready = String(e && e.stack || e);
}`;

// In the page: helpers to read pixels of #board at CSS coordinates (scaled by the ratio).
const PROBES = () => {
  const canvas = document.getElementById("board");
  const ctx = canvas.getContext("2d");
  const dpr = canvas.width / 300;
  const close = (p, c, tol) => c.every((v, i) => Math.abs(p[i] - v) <= tol);
  window.probe = {
    dpr,
    pixel: (x, y) => [...ctx.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data],
    // How many pixels of the CSS rectangle x0…x1 × y0…y1 are colour c (opaque), within tol.
    count(x0, y0, x1, y1, c, tol = 12) {
      const w = Math.round((x1 - x0) * dpr), h = Math.round((y1 - y0) * dpr);
      const d = ctx.getImageData(Math.round(x0 * dpr), Math.round(y0 * dpr), w, h).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] >= 250 && close([d[i], d[i + 1], d[i + 2]], c, tol)) n++;
      return n;
    },
    // Along x0, y0 → x1, y1 every half pixel: at how many points a pixel within 2.5 pixels
    // across the way is colour c (within 40, nearly opaque), and of how many points.
    dashes(x0, y0, x1, y1, c) {
      const len = Math.hypot(x1 - x0, y1 - y0), ux = (x1 - x0) / len, uy = (y1 - y0) / len;
      let hits = 0, n = 0;
      for (let s = 0; s <= len; s += 0.5, n++) {
        let hit = false;
        for (let o = -2.5; o <= 2.5 && !hit; o += 0.5) {
          const p = window.probe.pixel(x0 + ux * s - uy * o, y0 + uy * s + ux * o);
          hit = p[3] >= 200 && close(p, c, 40);
        }
        if (hit) hits++;
      }
      return [hits, n];
    },
    close,
    canvas,
  };
};

/** The CSS pixel of a point (x, y) of the board, in squares. */
const at = (x, y) => [OFFSET.x + x * CELL, OFFSET.y + y * CELL];

test("the overlay draws in Chromium: cells, rings, cover lines, badges, walls; devicePixelRatio 1 and 2", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const wasm = buildOverlay(tempDir(t, "aoekit-overlay-"));
  const base = await serve(t, WEB, {
    pages: { "/overlay-test.html": PAGE, "/overlay-test.js": SCRIPT, "/overlay-test.css": CSS, "/aoekit-overlay.wasm": wasm },
  });
  // What the engine answers for the same request: the summary is its cells-free part.
  const expected = (await engine()).evaluate(REQUEST);

  for (const dpr of [1, 2]) {
    await t.test(`devicePixelRatio ${dpr}`, async () => {
      const context = await browser.newContext({ viewport: { width: 480, height: 320 }, deviceScaleFactor: dpr });
      t.after(() => context.close());
      const page = await context.newPage();
      const problems = [];
      page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
      page.on("console", (msg) => msg.type() === "error" && !/favicon/.test(msg.location().url) && problems.push(`console.error: ${msg.text()}`));
      await page.route("**/overlay-test.html", async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, headers: { ...res.headers(), "content-security-policy": CSP } });
      });
      await page.goto(`${base}/overlay-test.html`);
      const ready = await page.waitForFunction(() => window.ready, null, { timeout: 30_000 }).then((h) => h.jsonValue());
      assert.equal(ready, "yes", ready);

      // Attach: the backing store is the CSS size × the ratio; the CSS size stays.
      const attached = await page.evaluate(({ CELL, OFFSET }) => {
        const canvas = document.getElementById("board");
        window.view = window.overlays.attach(canvas, { cellSize: CELL, offset: OFFSET });
        const r = canvas.getBoundingClientRect();
        return { width: canvas.width, height: canvas.height, css: [r.width, r.height], ratio: window.devicePixelRatio };
      }, { CELL, OFFSET });
      assert.equal(attached.ratio, dpr);
      assert.deepEqual([attached.width, attached.height], [300 * dpr, 240 * dpr], "backing store = CSS size × devicePixelRatio");
      assert.deepEqual(attached.css, [300, 240], "the canvas keeps its CSS size");
      await page.evaluate(PROBES);

      // Draw, with every target's cover lines.
      const summary = await page.evaluate((req) => window.view.draw(req, { lines: "all" }), REQUEST);
      assert.deepEqual(summary, {
        count: expected.count,
        targets: expected.targets.map(({ id, inArea, affected, reason, cover, bonus }) => ({ id, inArea, affected, ...(reason ? { reason } : {}), cover, bonus })),
      });
      assert.deepEqual(summary.targets.map((x) => [x.id, x.affected, x.cover]), [["g1", true, "none"], ["g2", false, "full"]]);

      const look = (fn, ...args) => page.evaluate(fn, ...args);
      // A square inside the area, away from tokens and lines: the area's colour at its centre.
      const inside = await look(([x, y]) => window.probe.pixel(x, y), at(3.5, 7.5));
      assert.ok(AREA.every((v, i) => Math.abs(inside[i] - v) <= 3), `square (3, 7): ${inside}, want ${AREA}`);
      // Its west edge: the outline (areaEdge, #e07b00), one pixel inside the square.
      const edge = await look(([x, y]) => window.probe.pixel(x, y), at(3, 7.5).map((v, i) => v + (i === 0 ? 1 : 0)));
      assert.ok(Math.abs(edge[0] - 224) <= 12 && Math.abs(edge[1] - 123) <= 12 && edge[2] <= 12, `the outline at (3, 7.5): ${edge}`);
      // Squares outside: untouched.
      for (const [x, y] of [[11.5, 9.5], [1.5, 8.5], [5.5, 1.5]]) {
        const p = await look(([x, y]) => window.probe.pixel(x, y), at(x, y));
        assert.equal(p[3], 0, `(${x}, ${y}) is outside the area, yet drawn: ${p}`);
      }

      // Rings: g1 (4, 4), affected, has the yellow ring on its edge (radius 8 pixels) and its
      // side's colour (enemy) inside; g2 (7, 5), not affected, has no yellow at all, its side's
      // colour (party) and the dashed ring.
      const g1 = at(4, 4), g2 = at(7, 5);
      const ringAt = (c) => [c[0] + CELL / 2 + 8.5, c[1] + CELL / 2 - 0.5];
      const g1Ring = await look(([x, y]) => window.probe.pixel(x, y), ringAt(g1));
      const g2Ring = await look(([x, y]) => window.probe.pixel(x, y), ringAt(g2));
      assert.ok(HIT.every((v, i) => Math.abs(g1Ring[i] - v) <= 12) && g1Ring[3] === 255, `g1's ring: ${g1Ring}, want yellow ${HIT}`);
      assert.ok(!HIT.every((v, i) => Math.abs(g2Ring[i] - v) <= 40), `g2's ring is yellow: ${g2Ring}`);
      const count = (x0, y0, x1, y1, c) => look(([a, b, c2, d, colour]) => window.probe.count(a, b, c2, d, colour), [x0, y0, x1, y1, c]);
      const square = (c) => [c[0], c[1], c[0] + CELL, c[1] + CELL];
      assert.ok((await count(...square(g1), HIT)) > 20 * dpr * dpr, "g1: yellow ring");
      assert.ok((await count(...square(g1), ENEMY)) > 5 * dpr * dpr, "g1: the enemy colour");
      assert.equal(await count(...square(g2), HIT), 0, "g2 is not affected: no yellow");
      assert.ok((await count(...square(g2), PARTY)) > 5 * dpr * dpr, "g2: the party colour");
      assert.ok((await count(g2[0] - 3, g2[1] - 3, g2[0] + CELL + 3, g2[1] + CELL + 3, [34, 34, 34], 10)) > 5 * dpr, "g2: the dashed ring");

      // The badge: g2's "F" (full cover; 20-pixel squares show grades by their first letter) on
      // the badge's red at its square's top-right corner; none for g1 (no cover).
      assert.ok((await count(g2[0] + CELL - 9, g2[1] - 3, g2[0] + CELL + 5, g2[1] + 9, FULL_BADGE)) > 15 * dpr * dpr, "g2's full-cover badge");
      assert.equal(await count(g1[0] + CELL - 9, g1[1] - 3, g1[0] + CELL + 5, g1[1] + 9, [236, 239, 241]), 0, "a badge for no cover on a compact square");

      // Cover lines from the origin's centre (5.5, 5.5): g2's blocked (red, dashed) toward its
      // west face, g1's clear (green) toward its south-east corner.
      const towardG2 = [...at(6.1, 5.05), ...at(6.9, 5.95)];
      const towardG1 = [...at(4.95, 4.95), ...at(5.35, 5.35)];
      assert.ok((await count(...towardG2, BLOCKED)) > 5 * dpr, "g2's blocked lines");
      assert.ok((await count(...towardG1, CLEAR)) > 5 * dpr, "g1's clear lines");
      assert.equal(await count(...towardG1, BLOCKED), 0, "g1's lines are all clear");
      // Blocked lines are dashed: along them (the two lines to a corner run side by side, a few
      // pixels apart), some stretches are red and some are not.
      const dashes = (x0, y0, x1, y1, c) => look(([x0, y0, x1, y1, c]) => window.probe.dashes(x0, y0, x1, y1, c), [x0, y0, x1, y1, c]);
      const [red, steps] = await dashes(...at(5.9, 5.5 - 0.4 * 0.4975 / 1.5025), ...at(6.9, 5.5 - 1.4 * 0.4975 / 1.5025), BLOCKED);
      assert.ok(red > 0 && red < steps * 0.8, `a blocked line is dashed: red at ${red} of ${steps} points along it`);

      // The wall (9, 2)–(9, 8): a thick dark line; the open door (2, 3)–(2, 5): dashed.
      const wall = await look(([x, y]) => window.probe.pixel(x, y), at(9, 4.5).map((v, i) => v + (i === 0 ? 0.25 : 0)));
      assert.ok(WALL.every((v, i) => Math.abs(wall[i] - v) <= 12), `the wall at (9, 4.5): ${wall}`);
      const door = await look(([x, y0, y1]) => {
        const out = [];
        for (let y = y0; y <= y1; y += 0.5) out.push(window.probe.pixel(x, y));
        return out;
      }, [at(2, 0)[0] + 0.25, at(0, 3.2)[1], at(0, 4.8)[1]]);
      const brown = door.filter((p) => DOOR.every((v, i) => Math.abs(p[i] - v) <= 12)).length;
      assert.ok(brown > 0 && brown < door.length, `the open door is dashed: ${brown} of ${door.length} pixels in the door's colour`);

      // Only the selected token's lines by default; none with lines: "none".
      await page.evaluate((req) => window.view.draw(req, { selected: "g2" }), REQUEST);
      assert.ok((await count(...towardG2, BLOCKED)) > 5 * dpr, "the selected g2's lines");
      assert.equal(await count(...towardG1, CLEAR), 0, "g1 is not selected: no lines");
      await page.evaluate((req) => window.view.draw(req), REQUEST);
      assert.equal(await count(...towardG2, BLOCKED), 0, "nothing selected: no lines");

      // cellAt and pixelOf: CSS pixels, whatever the ratio.
      const geo = await page.evaluate(() => {
        const v = window.view;
        const trips = [];
        for (const [x, y] of [[0, 0], [5, 5], [14, 11], [-1, -1], [-3, 40], [999999, -1000000]]) {
          const p = v.pixelOf(x, y);
          trips.push([x, y, p, v.cellAt(p.x, p.y)]);
        }
        return { trips, corner: v.cellAt(7, 11), left: v.cellAt(6.9, 11), far: v.cellAt(26.99, 30.99), canvas: v.cellAt(0, 0) };
      });
      assert.deepEqual(geo.trips[1][2], { x: 117, y: 121 }, "pixelOf(5, 5): the centre of the square");
      for (const [x, y, , c] of geo.trips) assert.deepEqual(c, { x, y }, `cellAt(pixelOf(${x}, ${y}))`);
      assert.deepEqual([geo.corner, geo.left, geo.far, geo.canvas], [{ x: 0, y: 0 }, { x: -1, y: 0 }, { x: 0, y: 0 }, { x: -1, y: -1 }]);

      // A bad request throws the engine's error; the canvas keeps its drawing and the module
      // works on.
      const bad = await page.evaluate(() => {
        const failure = (f) => { try { f(); return null; } catch (e) { return { code: e.code, at: e.at, message: e.message, isError: e instanceof Error }; } };
        return {
          notation: failure(() => window.view.draw({ template: "Con4", origin: { x: 5, y: 5 } })),
          json: failure(() => window.view.draw({ template: "Cir1", range: 10n })),
          type: failure(() => window.view.draw({ template: "Cir1", tokens: [{ id: "a", x: "1" }] })),
          view: failure(() => window.view.draw({ template: "Cir1" }, { lines: "most" })),
          viewType: failure(() => window.view.draw({ template: "Cir1" }, { outline: "yes" })),
          large: failure(() => window.view.draw({ template: "Cir1", pad: "x".repeat(1 << 20) })),
          cellAt: failure(() => window.view.cellAt("1", 2)),
          pixelOf: failure(() => window.view.pixelOf(0.5, 2)),
          body: failure(() => window.overlays.attach(document.body)),
          twice: failure(() => window.overlays.attach(document.getElementById("board"))),
          options: failure(() => window.overlays.attach(document.getElementById("other"), { cellSize: "20" })),
          cellSize: failure(() => window.overlays.attach(document.getElementById("other"), { cellSize: 0 })),
        };
      });
      assert.deepEqual(bad.notation, { code: "bad_notation", at: 5, message: "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5", isError: true });
      assert.equal(bad.json.code, "bad_request");
      assert.match(bad.type.message, /^tokens\[0\]\.x: expected an integer, got a string/);
      assert.equal(bad.view.message, `draw: view.lines: expected selected, all or none, got "most"`);
      assert.equal(bad.viewType.message, "draw: view.outline: expected a boolean, got a string");
      assert.equal(bad.large.code, "too_large");
      assert.equal(bad.cellAt.message, "cellAt: px must be a number, not a string");
      assert.match(bad.pixelOf.message, /^pixelOf: x: expected an integer/);
      assert.match(bad.body.message, /^attach: expected a <canvas> element/);
      assert.match(bad.twice.message, /^attach: this canvas already has an overlay/);
      assert.equal(bad.options.message, "attach: options.cellSize: expected a number, got a string");
      assert.match(bad.cellSize.message, /^attach: options\.cellSize: expected a number of CSS pixels above 0/);
      for (const [name, e] of Object.entries(bad)) {
        assert.ok(e && e.isError && !e.message.startsWith("internal error"), `${name}: ${JSON.stringify(e)}`);
      }
      const kept = await look(([x, y]) => window.probe.pixel(x, y), at(3.5, 7.5));
      assert.ok(AREA.every((v, i) => Math.abs(kept[i] - v) <= 3), "a refused request leaves the drawing as it was");
      const again = await page.evaluate(() => window.view.draw({ template: "Cir1h1", origin: { x: 10, y: 8 } }).count);
      assert.equal(again, 9, "the module works after the errors");
      const moved = await look(([a, b]) => [window.probe.pixel(...a), window.probe.pixel(...b)], [at(3.5, 7.5), at(10.5, 8.5)]);
      assert.equal(moved[0][3], 0, "the old area is gone");
      assert.ok(AREA.every((v, i) => Math.abs(moved[1][i] - v) <= 3), `the new area: ${moved[1]}`);

      if (dpr === 1) {
        await page.evaluate((req) => window.view.draw(req, { lines: "all", labels: true, obstacles: true, selected: "g2" }), REQUEST);
        mkdirSync(join(ROOT, "build", "screenshots"), { recursive: true });
        const path = join(ROOT, "build", "screenshots", "overlay.png");
        await page.locator("#board").screenshot({ path });
        t.diagnostic(`screenshot: ${path}`);
      }

      // clear erases; detach erases, gives the canvas back as it was, and refuses every later
      // call with a clear error; the canvas can be attached again.
      const end = await page.evaluate((req) => {
        const failure = (f) => { try { f(); return null; } catch (e) { return { code: e.code, message: e.message, isError: e instanceof Error }; } };
        const canvas = document.getElementById("board");
        const v = window.view;
        v.draw(req);
        v.clear();
        const cleared = [...canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data].some((b) => b !== 0);
        v.draw(req);
        v.detach();
        v.detach(); // twice: nothing more
        const after = { width: canvas.width, height: canvas.height, style: canvas.style.width };
        const errors = { draw: failure(() => v.draw(req)), clear: failure(() => v.clear()), cellAt: failure(() => v.cellAt(1, 1)) };
        const w = window.overlays.attach(canvas, { cellSize: 20 });
        const count = w.draw(req).count;
        w.detach();
        return { cleared, after, errors, count };
      }, REQUEST);
      assert.equal(end.cleared, false, "clear leaves no pixel");
      assert.deepEqual(end.after, { width: 300, height: 240, style: "" });
      assert.deepEqual(end.errors.draw, { code: "bad_request", message: "aoekit overlay: draw after detach: this overlay was detached; attach the canvas again", isError: true });
      assert.match(end.errors.clear.message, /clear after detach/);
      assert.match(end.errors.cellAt.message, /cellAt after detach/);
      assert.equal(end.count, 25, "attached again");
      assert.deepEqual(problems, []);
    });
  }
});

// CONTRACT.md's examples (attachOverlay's and loadOverlay's), run as printed in a page beside
// the package's web/ folder (served as ./aoekit/): each line ending in `// → value` is checked,
// the expression before the comment against the value (as the README's examples are).
test("CONTRACT The overlay: the examples give the answers they print", async (t) => {
  const examples = contractExamples("### The overlay");
  assert.equal(examples.length, 3, "CONTRACT's overlay section has three html examples");
  for (const { checks } of examples) assert.ok(checks >= 3, `${checks} checked lines`);
  const browser = await chromium(t);
  if (!browser) return;
  const dir = tempDir(t, "aoekit-overlay-contract-");
  symlinkSync(WEB, join(dir, "aoekit"));
  const wasm = buildOverlay(dir);
  const pages = Object.fromEntries(examples.map((e, i) => [`/example-${i}.html`, e.html]));
  const base = await serve(t, dir, { pages: { ...pages, "/aoekit/aoekit-overlay.wasm": wasm } });
  for (const dpr of [1, 2]) {
    const context = await browser.newContext({ deviceScaleFactor: dpr });
    t.after(() => context.close());
    for (const [i, { checks }] of examples.entries()) {
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (err) => errors.push(err.message));
      await page.goto(`${base}/example-${i}.html`);
      const done = await page.waitForFunction(() => window.__done, null, { timeout: 30_000 }).then((h) => h.jsonValue());
      assert.equal(done, "yes", `example ${i} failed: ${done} ${errors}`);
      assert.deepEqual(errors, []);
      const results = await page.evaluate(() => window.__checks);
      assert.equal(results.length, checks, "every checked line ran");
      for (const [line, actual, expected] of results) {
        assert.deepEqual(actual, expected, `CONTRACT.md:${line} (devicePixelRatio ${dpr}): the example prints ${JSON.stringify(expected)}, the overlay answers ${JSON.stringify(actual)}`);
      }
    }
  }
});

// A test build whose global __aoekitOverlayCrash() ends the Go program: the next call runs on a
// fresh instance, on which the overlays not detached are attached again with their options.
test("a dead instance is replaced and its overlays attached again", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const wasm = buildOverlay(tempDir(t, "aoekit-overlay-crash-"), "overlaycrash");
  const page0 = `<!doctype html><canvas id="a" width="200" height="200"></canvas><canvas id="b" width="200" height="200"></canvas>
<script type="module">
  import { loadOverlay } from "/overlay.js";
  const out = {};
  try {
    const overlays = await loadOverlay({ wasm: "/crash.wasm" });
    const a = overlays.attach(document.getElementById("a"), { cellSize: 10, offset: { x: 5, y: 5 } });
    const b = overlays.attach(document.getElementById("b"), { cellSize: 10 });
    const request = { template: "Cir1h1", origin: { x: 2, y: 2 } };
    out.before = a.draw(request).count;
    const scene = overlays.engine.scene({ tokens: [{ id: "t", x: 2, y: 3 }] });
    out.sceneBefore = a.draw(request, { scene }).targets.map((t) => t.id);
    b.detach();
    globalThis.__aoekitOverlayCrash();
    out.after = a.draw(request).count;                 // on a fresh instance: a attached again
    try { a.draw(request, { scene }); } catch (e) { out.sceneAfter = e.message; }
    try { scene.evaluate(request); } catch (e) { out.sceneEvaluateAfter = e.message; }
    out.engineAfter = overlays.engine.evaluate(request).count;
    out.sceneAgain = a.draw(request, { scene: overlays.engine.scene({ tokens: [{ id: "t", x: 2, y: 3 }] }) }).targets.map((t) => t.id);
    const ctx = document.getElementById("a").getContext("2d");
    out.pixel = [...ctx.getImageData(Math.floor(30 * devicePixelRatio), Math.floor(30 * devicePixelRatio), 1, 1).data];
    out.cell = a.cellAt(30, 30);                        // its options came along: (30 - 5) / 10
    try { b.draw(request); } catch (e) { out.detached = e.message; }
    const c = overlays.attach(document.getElementById("b"), { cellSize: 10 });
    out.again = c.draw(request).count;
  } catch (e) {
    out.error = String(e && e.stack || e);
  }
  window.out = out;
</script>`;
  const base = await serve(t, WEB, { pages: { "/crash.html": page0, "/crash.wasm": wasm } });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/crash.html`);
  const out = await page.waitForFunction(() => window.out, null, { timeout: 30_000 }).then((h) => h.jsonValue());
  await page.close();
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(errors, []);
  assert.equal(out.before, 9);
  assert.equal(out.after, 9, "a draws on the fresh instance");
  assert.deepEqual(out.sceneBefore, ["t"]);
  assert.match(out.sceneAfter, /^internal error: the engine restarted since this scene was made/, "a scene of the dead instance is refused by draw");
  assert.match(out.sceneEvaluateAfter, /^internal error: the engine restarted since this scene was made/, "and by its own methods");
  assert.equal(out.engineAfter, 9, "the engine answers on the fresh instance");
  assert.deepEqual(out.sceneAgain, ["t"], "a scene made again draws");
  assert.ok(AREA.every((v, i) => Math.abs(out.pixel[i] - v) <= 3), `a's area on the fresh instance: ${out.pixel}`);
  assert.deepEqual(out.cell, { x: 2, y: 2 });
  assert.match(out.detached, /draw after detach/);
  assert.equal(out.again, 9);
});

// attachOverlay: the module loaded once for every canvas of the page; a canvas or its 2-D
// context; update draws and calls onTargets with the targets; errors are AoekitErrors; dispose
// gives the canvas back, and refuses every later call.
test("attachOverlay: one module a page, update and onTargets, a context as the target, errors, dispose", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const wasm = buildOverlay(tempDir(t, "aoekit-attach-"));
  const page0 = `<!doctype html><meta charset="utf-8">
<canvas id="a" width="300" height="240"></canvas><canvas id="b" width="200" height="200"></canvas><canvas id="c" width="50" height="50"></canvas>
<script type="module">
import { attachOverlay } from "/overlay.js";
import { AoekitError } from "/index.js";
const request = ${JSON.stringify(REQUEST)};
const out = {};
const failure = async (f) => { try { await f(); return null; } catch (e) { return { code: e.code, message: e.message, aoekit: e instanceof AoekitError, name: e.name }; } };
try {
  const targets = [];
  const canvas = document.getElementById("a");
  const [a, b] = await Promise.all([
    attachOverlay(canvas, { cellSize: ${CELL}, offset: ${JSON.stringify(OFFSET)}, onTargets: (t) => targets.push(t) }),
    attachOverlay(document.getElementById("b").getContext("2d"), { cellSize: 10 }),
  ]);
  out.summary = a.update(request, { lines: "all" });
  out.targets = [...targets];
  // The shared module's engine: a scene of it, drawn by update (issue 13).
  out.sameEngine = a.engine === b.engine;
  const { tokens, obstacles, walls, ...frame } = request;
  const scene = a.engine.scene({ tokens, obstacles, walls });
  out.scened = a.update(frame, { lines: "all", scene });
  out.targetsScened = targets.length;
  out.result = a.result();
  out.resultB = b.result();
  const dpr = canvas.width / 300;
  const px = (x, y) => [...canvas.getContext("2d").getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data];
  out.inside = px(${OFFSET.x + 3.5 * CELL}, ${OFFSET.y + 7.5 * CELL});
  out.b = b.update({ template: "Cir1h1", origin: { x: 2, y: 2 } }).count;
  out.fetched = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/aoekit-overlay.wasm")).length;
  out.geo = [a.pixelOf(5, 5), a.cellAt(117, 121)];
  out.errors = {
    request: await failure(() => a.update({ template: "Con4", origin: { x: 1, y: 1 } })),
    body: await failure(() => attachOverlay(document.body)),
    onTargets: await failure(() => attachOverlay(document.getElementById("c"), { onTargets: "no" })),
    option: await failure(() => attachOverlay(document.getElementById("c"), { cellSize: "20" })),
    twice: await failure(() => attachOverlay(canvas)),
  };
  out.targetsAfterError = targets.length;
  a.clear();
  out.cleared = px(${OFFSET.x + 3.5 * CELL}, ${OFFSET.y + 7.5 * CELL});
  a.dispose();
  a.dispose();
  out.after = { width: canvas.width, height: canvas.height, style: canvas.getAttribute("style") };
  out.afterDispose = await failure(() => a.update(request));
  out.cellAtAfterDispose = await failure(() => a.cellAt(1, 1));
  const again = await attachOverlay(canvas, { cellSize: 10 });
  out.again = again.update(request).count;
  out.keys = Object.keys(again).sort();
} catch (e) {
  out.error = String(e && e.stack || e);
}
window.out = out;
</script>`;
  const base = await serve(t, WEB, { pages: { "/attach.html": page0, "/aoekit-overlay.wasm": wasm } });
  const expected = (await engine()).evaluate(REQUEST);
  const summary = {
    count: expected.count,
    targets: expected.targets.map(({ id, inArea, affected, reason, cover, bonus }) => ({ id, inArea, affected, ...(reason ? { reason } : {}), cover, bonus })),
  };
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/attach.html`);
  const out = await page.waitForFunction(() => window.out, null, { timeout: 30_000 }).then((h) => h.jsonValue());
  await page.close();
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(errors, []);
  assert.deepEqual(out.summary, summary);
  assert.deepEqual(out.targets, [summary.targets], "onTargets: the draw's targets");
  assert.equal(out.sameEngine, true, "one module, one engine, for the page");
  assert.deepEqual(out.scened, summary, "update from a scene of overlay.engine: the whole request's summary");
  assert.equal(out.targetsScened, 2, "onTargets after a draw from a scene");
  assert.deepEqual(out.result, expected, "result(): the whole answer drawn");
  assert.equal(out.resultB, null, "result() before any update");
  assert.ok(AREA.every((v, i) => Math.abs(out.inside[i] - v) <= 3), `the area: ${out.inside}`);
  assert.equal(out.b, 9, "a 2-D context as the target");
  assert.equal(out.fetched, 1, "the module is fetched once for the page");
  assert.deepEqual(out.geo, [{ x: 117, y: 121 }, { x: 5, y: 5 }]);
  assert.deepEqual(out.errors.request, { code: "bad_notation", message: "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5", aoekit: true, name: "AoekitError" });
  assert.match(out.errors.body.message, /^attach: expected a <canvas> element \(an HTMLCanvasElement\) or an OffscreenCanvas, got a <body> element$/);
  assert.equal(out.errors.onTargets.message, "attach: options.onTargets: expected a function, got string");
  assert.equal(out.errors.option.message, "attach: options.cellSize: expected a number, got a string");
  assert.match(out.errors.twice.message, /^attach: this canvas already has an overlay/);
  for (const [name, e] of Object.entries(out.errors)) assert.ok(e.aoekit && e.code === "bad_request" || name === "request", `${name}: ${JSON.stringify(e)}`);
  assert.equal(out.targetsAfterError, 2, "no onTargets for a refused request (two updates before it)");
  assert.equal(out.cleared[3], 0);
  assert.deepEqual(out.after, { width: 300, height: 240, style: "" });
  assert.match(out.afterDispose.message, /^aoekit overlay: update after dispose: /);
  assert.match(out.cellAtAfterDispose.message, /^aoekit overlay: cellAt after dispose: /);
  assert.equal(out.again, 25);
  assert.deepEqual(out.keys, ["cellAt", "clear", "dispose", "engine", "pixelOf", "result", "update"]);
});

// Issue 14: on a 40-pixel grid offset by (20, 10), the overlay's area matches the engine's cells
// square for square: every square of a 9 × 7 block is filled with the area's colour, all over
// its inside (2 pixels in from its edges, where the outline may run), exactly when the engine
// lists it — a Draw Steel burst cut by a full obstacle and a thin wall, so that the area is not
// a plain box. The fill is one ImageData of a pixel a square (the cells' bounding box), put once
// and drawn once, scaled 40 times without smoothing: no path is filled in the area's colour.
test("on a 40 px grid offset by (20, 10), the area is the engine's cells, square for square", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const wasm = buildOverlay(tempDir(t, "aoekit-overlay-"));
  const base = await serve(t, WEB, {
    pages: { "/overlay-test.html": PAGE, "/overlay-test.js": SCRIPT, "/overlay-test.css": CSS, "/aoekit-overlay.wasm": wasm },
  });
  const request = {
    template: "2 burst", caster: { id: "c", x: 3, y: 2, z: 0 },
    obstacles: [{ x: 4, y: 2, z: 0 }], walls: [{ a: [2, 0], b: [2, 6] }],
    bounds: { min: [0, 0, 0], max: [8, 6, 0] },
  };
  const want = new Set((await engine()).evaluate(request).cells.map(([x, y]) => `${x},${y}`));
  const context = await browser.newContext({ viewport: { width: 480, height: 360 }, deviceScaleFactor: 1 });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${base}/overlay-test.html`);
  const ready = await page.waitForFunction(() => window.ready, null, { timeout: 30_000 }).then((h) => h.jsonValue());
  assert.equal(ready, "yes", ready);
  const squares = await page.evaluate((req) => {
    const canvas = document.getElementById("board");
    canvas.style.width = "400px"; canvas.style.height = "300px";
    canvas.width = 400; canvas.height = 300;
    const view = window.overlays.attach(canvas, { cellSize: 40, offset: { x: 20, y: 10 }, devicePixelRatio: 1 });
    // The calls the draw makes that put, draw or fill pixels, on any 2-D context.
    const calls = [];
    const protos = [CanvasRenderingContext2D.prototype, globalThis.OffscreenCanvasRenderingContext2D?.prototype].filter(Boolean);
    const saved = protos.map((p) => [p.putImageData, p.drawImage, p.fill]);
    for (const [i, p] of protos.entries()) {
      const [put, draw, fill] = saved[i];
      p.putImageData = function (img, ...rest) { calls.push({ put: [img.width, img.height] }); return put.call(this, img, ...rest); };
      p.drawImage = function (...a) { calls.push({ draw: a.slice(1), smooth: this.imageSmoothingEnabled, transform: (({ a, b, c, d, e, f }) => [a, b, c, d, e, f])(this.getTransform()) }); return draw.apply(this, a); };
      p.fill = function (...a) { calls.push({ fill: String(this.fillStyle) }); return fill.apply(this, a); };
    }
    try {
      view.draw(req, { tokens: "none", badges: false, lines: "none", outline: false, walls: false });
    } finally {
      for (const [i, p] of protos.entries()) [p.putImageData, p.drawImage, p.fill] = saved[i];
    }
    const ctx = canvas.getContext("2d");
    const out = { calls };
    for (let y = 0; y <= 6; y++) {
      for (let x = 0; x <= 8; x++) {
        const d = ctx.getImageData(20 + 40 * x + 2, 10 + 40 * y + 2, 36, 36).data;
        let area = 0, blank = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (Math.abs(d[i] - 255) <= 3 && Math.abs(d[i + 1] - 140) <= 3 && d[i + 2] <= 3 && Math.abs(d[i + 3] - 92) <= 3) area++;
          else if (d[i + 3] === 0) blank++;
        }
        out[`${x},${y}`] = [area, blank];
      }
    }
    return out;
  }, request);
  const { calls, ...cells } = squares;
  const xs = [...want].map((k) => Number(k.split(",")[0])), ys = [...want].map((k) => Number(k.split(",")[1]));
  const [x0, y0] = [Math.min(...xs), Math.min(...ys)], [w, h] = [Math.max(...xs) - x0 + 1, Math.max(...ys) - y0 + 1];
  assert.deepEqual(calls.filter((c) => c.put), [{ put: [w, h] }], "one ImageData, a pixel a square of the cells' bounding box");
  assert.deepEqual(calls.filter((c) => c.draw), [{ draw: [0, 0, w, h, x0 * 40, y0 * 40, w * 40, h * 40], smooth: false, transform: [1, 0, 0, 1, 20, 10] }],
    "drawn once, 40 pixels a square from the offset, without smoothing");
  assert.deepEqual(calls.filter((c) => c.fill && /255, 140, 0/.test(c.fill)), [], "no path filled in the area's colour");
  let inArea = 0;
  for (const [square, [area, blank]] of Object.entries(cells)) {
    if (want.has(square)) {
      inArea++;
      assert.equal(area, 36 * 36, `square ${square} is a cell of the answer: ${area} of ${36 * 36} pixels have the area's colour`);
    } else {
      assert.equal(blank, 36 * 36, `square ${square} is not a cell of the answer, yet ${36 * 36 - blank} of its pixels are drawn`);
    }
  }
  assert.ok(inArea >= 8 && inArea < 25, `${inArea} squares in the area: the obstacle and the wall cut the 5 × 5 burst`);
});

// Issue 13: the overlay draws from a scene of its own module's engine. loadOverlay() gives that
// engine (load()'s methods); a draw given { scene } takes a scene's request — the template, the
// caster, the origin: no board — and draws the answer against the scene's board. Frame after
// frame, with the scene edited between frames, the canvas drawn from the scene is, pixel for
// pixel, the canvas drawn from the whole request (the board in it: the overlay's first way,
// tested above against the demo's colours), and the summary is the same; the summary's details
// are evaluate's answer but its cells and lines; result() is evaluate's whole answer. A scene
// of another module's engine, a disposed one, a scene's request with a board and bad view
// fields are refused with clear errors.
test("drawing from a scene of the module's engine: the whole request's pixels and answers, frame after frame", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const wasm = buildOverlay(tempDir(t, "aoekit-overlay-scene-"));
  const board = {
    tokens: [
      { id: "g1", x: 4, y: 4, z: 0, side: "enemy" }, { id: "g2", x: 7, y: 5, z: 0, side: "party" },
      { id: "big", x: 10, y: 7, z: 0, size: 2, side: "neutral" }, { id: "up", x: 6, y: 8, z: 1, side: "enemy", prone: true },
    ],
    obstacles: [{ x: 6, y: 5, z: 0, fill: 1 }, { x: 9, y: 8, z: 0, fill: 0.5 }],
    walls: [{ a: [9, 2], b: [9, 6] }, { a: [2, 3], b: [2, 5], open: true }],
    bounds: { min: [0, 0, 0], max: [14, 11, 1] },
  };
  // The frames: a caster and a template, one thing moved each frame; an edit of the board
  // between some of them.
  const frames = [
    { request: { template: "Cir2h1", origin: { x: 5, y: 5, z: 0 } } },
    { request: { template: "Cir2h1", origin: { x: 8, y: 7, z: 0 } }, view: { lines: "all" } },
    { request: { template: "Con4E", caster: { id: "hero", x: 3, y: 7, z: 0, side: "party" }, range: 20, resolve: { stat: 7, seed: 42 } }, view: { selected: "g1", labels: true } },
    { edit: { tokens: [{ id: "g1", x: 6, y: 7, z: 0, side: "enemy" }], clear: [[6, 5, 0]] },
      request: { template: "Con4E", caster: { id: "hero", x: 3, y: 7, z: 0, side: "party" }, range: 20, resolve: { stat: 7, seed: 42 } }, view: { selected: "g1", focus: "big", tokens: "disc" } },
    { edit: { walls: [{ a: [5, 0], b: [5, 11] }], obstacles: [{ x: 8, y: 7, z: 0, fill: 0.25 }] },
      request: { template: "3 burst", caster: { id: "hero", x: 7, y: 6, z: 0 } }, view: { lines: "all", obstacles: true, unlisted: false, otherLevels: 0.3 } },
    { edit: { remove: ["g2"], noBounds: true }, request: { template: "Cir3", origin: { x: 9, y: 6, z: 0 } }, view: { level: 1, otherLevels: 0.5, labels: true } },
  ];
  const page0 = `<!doctype html><meta charset="utf-8"><style>body { margin: 0; } canvas { display: block; }</style>
<canvas id="whole" width="320" height="260"></canvas><canvas id="scened" width="320" height="260"></canvas><canvas id="other" width="40" height="40"></canvas>
<script type="module">
import { loadOverlay } from "/overlay.js";
const board = ${JSON.stringify(board)};
const frames = ${JSON.stringify(frames)};
const out = { frames: [] };
const pixels = (c) => c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
const failure = (f) => { try { f(); return null; } catch (e) { return { code: e.code, message: e.message }; } };
try {
  const mod = await loadOverlay({ wasm: "/scene.wasm" });
  out.keys = Object.keys(mod).sort();
  out.engineKeys = Object.keys(mod.engine).sort();
  const opts = { cellSize: 20, offset: { x: 5, y: 3 }, devicePixelRatio: 2 };
  const whole = mod.attach(document.getElementById("whole"), opts);
  const scened = mod.attach(document.getElementById("scened"), opts);
  const scene = mod.engine.scene(board);
  let current = structuredClone(board);
  for (const f of frames) {
    if (f.edit) {
      scene.update(f.edit);
      // The same edit on a copy of the board, for the whole request: what CONTRACT scene says it does.
      const e = f.edit;
      if (e.remove) current.tokens = current.tokens.filter((t) => !e.remove.includes(t.id));
      for (const t of e.tokens ?? []) { const i = current.tokens.findIndex((x) => x.id === t.id); if (i >= 0) current.tokens[i] = t; else current.tokens.push(t); }
      if (e.clear) current.obstacles = current.obstacles.filter((o) => !e.clear.some(([x, y, z]) => o.x === x && o.y === y && o.z === z));
      for (const o of e.obstacles ?? []) { current.obstacles = current.obstacles.filter((p) => !(p.x === o.x && p.y === o.y && p.z === o.z)); current.obstacles.push(o); }
      if (e.walls) current.walls = e.walls;
      if (e.noBounds) delete current.bounds;
    }
    const request = structuredClone({ ...f.request, ...current });
    const a = whole.draw(request, { ...f.view, details: true });
    const b = scened.draw(f.request, { ...f.view, details: true, scene });
    const pa = pixels(document.getElementById("whole")), pb = pixels(document.getElementById("scened"));
    let differ = 0, drawn = 0;
    for (let i = 0; i < pa.length; i++) { if (pa[i] !== pb[i]) differ++; if (pa[i] !== 0) drawn++; }
    out.frames.push({ request, a, b, differ, drawn, result: scened.result(), evaluated: mod.engine.evaluate(request), short: scened.draw(f.request, { ...f.view, scene }) });
  }
  // Errors: none touches the canvas.
  const before = pixels(document.getElementById("scened"));
  const other = (await loadOverlay({ wasm: "/scene.wasm" })).engine.scene(board);
  const gone = mod.engine.scene(board);
  gone.dispose();
  out.errors = {
    otherEngine: failure(() => scened.draw(frames[0].request, { scene: other })),
    plainObject: failure(() => scened.draw(frames[0].request, { scene: {} })),
    disposed: failure(() => scened.draw(frames[0].request, { scene: gone })),
    withBoard: failure(() => scened.draw({ ...frames[0].request, tokens: [] }, { scene })),
    focus: failure(() => scened.draw(frames[0].request, { scene, focus: 3 })),
    unlisted: failure(() => scened.draw(frames[0].request, { scene, unlisted: "no" })),
    otherLevels: failure(() => scened.draw(frames[0].request, { scene, otherLevels: 2 })),
    cellSize: failure(() => scened.draw(frames[0].request, { scene, cellSize: -1 })),
    offset: failure(() => scened.draw(frames[0].request, { scene, offset: { x: "1" } })),
  };
  const after = pixels(document.getElementById("scened"));
  out.untouched = before.every((v, i) => v === after[i]);
  // A draw's own geometry: cellAt and pixelOf follow the last draw's.
  scened.draw(frames[0].request, { scene, cellSize: 40, offset: { x: -20, y: 10 } });
  out.geometry = [scened.pixelOf(5, 5), scened.cellAt(230, 230)];
  scened.draw(frames[0].request, { scene });
  out.back = scened.pixelOf(5, 5);
  scened.clear();
  out.cleared = scened.result();
} catch (e) {
  out.error = String(e && e.stack || e);
}
window.out = out;
</script>`;
  const base = await serve(t, WEB, { pages: { "/scene.html": page0, "/scene.wasm": wasm } });
  const aoe = await engine();
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/scene.html`);
  const out = await page.waitForFunction(() => window.out, null, { timeout: 60_000 }).then((h) => h.jsonValue());
  await page.close();
  assert.equal(out.error, undefined, out.error);
  assert.deepEqual(errors, []);
  assert.deepEqual(out.keys, ["attach", "engine"]);
  assert.deepEqual(out.engineKeys, ["cover", "evaluate", "evaluateCells", "fullAttack", "move", "parse", "scene", "version"]);
  for (const [i, f] of out.frames.entries()) {
    // The answer: aoekit.wasm's (load()'s engine, in Node) to the whole request, three ways.
    const want = aoe.evaluate(f.request);
    assert.deepEqual(f.evaluated, want, `frame ${i}: the module's engine answers as load()'s`);
    assert.deepEqual(f.result, want, `frame ${i}: result() is the answer drawn`);
    const { cells, ...rest } = want;
    const details = { ...rest, targets: want.targets.map(({ lines, ...x }) => ({ ...x, total: lines.length })) };
    assert.deepEqual(f.b, details, `frame ${i}: the summary's details are the answer but its cells and lines`);
    assert.deepEqual(f.a, f.b, `frame ${i}: the same summary from the scene as from the whole request`);
    assert.deepEqual(f.short, { count: want.count, targets: want.targets.map(({ id, inArea, affected, reason, cover, bonus }) => ({ id, inArea, affected, ...(reason ? { reason } : {}), cover, bonus })) },
      `frame ${i}: without details, the summary is as ever`);
    assert.ok(f.drawn > 1000, `frame ${i}: something is drawn (${f.drawn} bytes)`);
    assert.equal(f.differ, 0, `frame ${i}: drawn from the scene, ${f.differ} bytes of the canvas differ from the whole request's drawing`);
  }
  const e = out.errors;
  assert.match(e.otherEngine.message, /^draw: view\.scene: not a scene of this overlay module's engine/);
  assert.match(e.plainObject.message, /^draw: view\.scene: not a scene of this overlay module's engine/);
  assert.equal(e.disposed.message, "draw: view.scene: the scene was disposed");
  assert.match(e.withBoard.message, /^tokens: a scene's request takes the board from the scene/);
  assert.equal(e.focus.message, "draw: view.focus: expected a string, got a number");
  assert.equal(e.unlisted.message, "draw: view.unlisted: expected a boolean, got a string");
  assert.equal(e.otherLevels.message, "draw: view.otherLevels: expected an opacity from 0 to 1, got 2");
  assert.match(e.cellSize.message, /^draw: view\.cellSize: expected a number of CSS pixels above 0/);
  assert.equal(e.offset.message, "draw: view.offset.x: expected a number, got a string");
  for (const [name, x] of Object.entries(e)) assert.equal(x.code, "bad_request", name);
  assert.ok(out.untouched, "a refused draw leaves the canvas as it was");
  assert.deepEqual(out.geometry, [{ x: 200, y: 230 }, { x: 6, y: 5 }], "cellAt and pixelOf follow the last draw's geometry");
  assert.deepEqual(out.back, { x: 115, y: 113 }, "a draw without its own geometry: attach's again");
  assert.equal(out.cleared, null, "no result after clear");
});
