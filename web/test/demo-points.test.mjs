// The demo page (web/demo) with the point-origin rule sets, D&D 5e and Pathfinder 2e (SPEC §10,
// §11; CONTRACT "Point-origin areas"), in headless Chromium under the demo server's CSP: the rule
// set is chosen, a point of origin is dragged on its lattice (half squares; intersections for
// bursts and cubes; finer with Alt), cones turn with the wheel and with Q and E, and the cover
// badges say the grades as players read them.
//
// Expected values come from SPEC (the fireball's 52 squares and the burst's 44 of §10.5 and
// §11.2, the pf2e cones' 7 and 6, the grades of §10.8 and §11.5) or from the engine itself in
// Node for the very request the page sent; never from the page's own output. The page exposes
// what it drew through globalThis.__aoekitDemo (a test hook, not an API).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { ROOT, WEB, demoReady, engine, fileBrowser, openDemo } from "./helpers.mjs";

const SHOTS = join(ROOT, "build", "screenshots");
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
const WAIT = { timeout: 30_000 };
const DEGREES = { E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: 225, N: 270, NE: 315 };

const file = fileBrowser(WEB);

/** Opens the demo in a fresh context under the demo server's CSP (openDemo). */
const open = (t, options) => openDemo(t, file, options);
const ready = demoReady;

const look = (page) => page.evaluate(() => {
  const d = globalThis.__aoekitDemo;
  return {
    request: d.request(), result: d.state.result, error: d.state.error, drawn: d.drawnCells(), badges: d.drawnBadges(),
    exported: d.exportRequest(), scene: structuredClone(d.scene), history: d.history,
  };
});

/** The page coordinates of board point (x, y), in squares (10 is a grid line, 10.5 a square's middle). */
const point = (page, x, y) => page.evaluate(([x, y]) => globalThis.__aoekitDemo.cellCentre(x, y, 0, 0), [x, y]);

/** Drags with the mouse from board point a to board point b (in squares), in steps; Alt held with `alt`. */
async function dragPoint(page, a, b, { alt = false } = {}) {
  const p = await point(page, ...a);
  const q = await point(page, ...b);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  if (alt) await page.keyboard.down("Alt");
  await page.mouse.move(q.x, q.y, { steps: 10 });
  if (alt) await page.keyboard.up("Alt");
  await page.mouse.up();
}

/** The composited pixel [r, g, b, a] at board point (x, y), in squares. */
const pixel = (page, x, y) => page.evaluate(([x, y]) => {
  const d = globalThis.__aoekitDemo;
  return d.pixel(x * d.sq, y * d.sq);
}, [x, y]);

const isAreaTint = ([r, g, b]) => r > 235 && g > 185 && g < 232 && b > 110 && b < 200;
const isBoard = ([r, g, b]) => r > 240 && g > 240 && b > 232;

async function importScene(page, content, name) {
  const buffer = Buffer.from(JSON.stringify(content));
  await page.evaluate(() => { document.getElementById("scene-message").textContent = ""; });
  await page.setInputFiles("#import-file", { name, mimeType: "application/json", buffer });
  await page.waitForFunction((n) => document.getElementById("scene-message").textContent.includes(n), name, WAIT);
  await ready(page);
}

async function clean(page, problems) {
  assert.deepEqual(problems, [], "no page error and no console error");
  assert.deepEqual(await page.evaluate(() => globalThis.__csp), [], "no Content-Security-Policy violation");
}

async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name) });
}

const key = (c) => `${c[0]},${c[1]}`;
const sorted = (cells) => [...new Set(cells.map(key))].sort();
const ground = (cells) => cells.filter((c) => c[2] === 0).map((c) => [c[0], c[1]]);
/** A request's toward in degrees (a compass name is one of 8). */
const towardDegrees = (v) => (typeof v === "string" ? DEGREES[v] : v);

const BOARD = { min: [0, 0, 0], max: [23, 15, 0] };
// An open board: a mage in a corner, creatures away from it.
const OPEN_FIELD = {
  template: "Cir2",
  caster: { id: "Mage", x: 2, y: 2, z: 0, facing: "E", side: "party" },
  origin: { x: 4, y: 12, z: 0 },
  tokens: [
    { id: "Kobold", x: 10, y: 8, z: 0, side: "enemy" },
    { id: "Wolf", x: 12, y: 9, z: 0, side: "enemy" },
    { id: "Hermit", x: 20, y: 3, z: 0, side: "neutral" },
  ],
  obstacles: [],
  bounds: BOARD,
};

/** SPEC §10.5: the squares whose centre lies within r of point (px, py) on the plane (a point on the floor adds at most ¼, which moves none). */
function sphereCells(r, px, py) {
  const out = [];
  for (let y = 0; y <= BOARD.max[1]; y++) {
    for (let x = 0; x <= BOARD.max[0]; x++) if ((x + 0.5 - px) ** 2 + (y + 0.5 - py) ** 2 <= r * r) out.push([x, y]);
  }
  return out;
}

test("demo points: D&D 5e chosen, a fireball dragged onto an intersection covers SPEC §10.5's 52 squares; the point snaps to half squares, Alt frees it", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  await importScene(page, OPEN_FIELD, "open-field.json");

  // The rule set: D&D 5e brings its sample, the 20-foot-radius sphere (fireball), at a point.
  await page.selectOption("#rules", "dnd5e");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "dnd5e", null, WAIT);
  let s = await look(page);
  assert.equal(await page.inputValue("#notation"), "20-foot-radius sphere");
  assert.equal(s.request.rules, "dnd5e");
  assert.equal(s.request.template, "20-foot-radius sphere");
  assert.deepEqual(s.request.point, { x: 4, y: 12, z: 0 }, "the point starts where the origin was");
  assert.ok(!("origin" in s.request) && !("toward" in s.request), JSON.stringify(s.request));
  assert.match(await page.locator("#template-info").textContent(), /radius 4 squares \(20 ft\)/, "sizes in feet beside squares");
  assert.match(await page.locator("#rules-note").textContent(), /D&D 5e/);

  // Dragged onto the intersection (10, 8): the fireball of SPEC §10.5, 13 squares a quadrant.
  await dragPoint(page, [4, 12], [10.1, 7.9]);
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 10, y: 8, z: 0 }, "it snapped to the intersection");
  assert.equal(s.result.count, 52);
  const spec = sphereCells(4, 10, 8);
  assert.equal(spec.length, 52);
  assert.deepEqual(sorted(s.drawn), sorted(spec), "the drawn squares are SPEC §10.5's picture");
  const direct = aoe.evaluate(s.request);
  assert.deepEqual(s.result, direct, "the page shows the engine's answer to its request");
  assert.match(await page.locator("#status").textContent(), /^20-foot-radius sphere: 52 squares, 2 affected/);
  // The Kobold stands between the point and the Wolf: creatures give cover in 5e, half at most (SPEC §10.8).
  assert.deepEqual(s.result.targets.map((x) => [x.id, x.affected, x.cover]), [["Kobold", true, "none"], ["Wolf", true, "half"]]);
  // On screen: squares a little away from the handle are tinted exactly when they are in it.
  const inside = new Set(spec.map(key));
  for (const [x, y] of [[7, 8], [6, 7], [13, 5], [12, 11], [14, 8], [5, 8], [10, 3], [10, 12], [6, 4], [14, 12]]) {
    const px = await pixel(page, x + 0.5, y + 0.5);
    assert.equal(inside.has(`${x},${y}`) ? isAreaTint(px) : isBoard(px), true, `(${x}, ${y}) ${inside.has(`${x},${y}`) ? "in" : "out"}: ${px}`);
  }
  await shot(page, "demo-dnd5e-fireball.png");

  // The lattice: a square's centre, an edge's midpoint.
  await dragPoint(page, [10, 8], [10.4, 8.6]);
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 10.5, y: 8.5, z: 0 });
  assert.deepEqual(s.result, aoe.evaluate(s.request));
  await dragPoint(page, [10.5, 8.5], [11.05, 8.4]);
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 11, y: 8.5, z: 0 }, "an edge's midpoint");
  // With Alt held it moves freely, on 1/40 of a square.
  await dragPoint(page, [11, 8.5], [11.3, 8.7], { alt: true });
  s = await look(page);
  const p = s.request.point;
  assert.ok(p.x !== 11 || p.y !== 8.5, JSON.stringify(p));
  assert.ok(Math.abs(p.x - 11.3) <= 0.05 && Math.abs(p.y - 8.7) <= 0.05, JSON.stringify(p));
  for (const v of [p.x, p.y]) assert.ok(Math.abs(v * 40 - Math.round(v * 40)) < 1e-9, `${v} is on the 1/40 lattice`);
  assert.ok(!Number.isInteger(p.x * 2) || !Number.isInteger(p.y * 2), `off the half-square lattice: ${JSON.stringify(p)}`);
  assert.deepEqual(s.result, aoe.evaluate(s.request));
  assert.equal(s.result.origin.x, p.x);

  // Selected, the arrow keys step it half a square (back onto the lattice); one undo step each.
  await page.focus("#board");
  await dragPoint(page, [p.x, p.y], [10, 8]);
  await page.keyboard.press("ArrowRight");
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 10.5, y: 8, z: 0 });
  await page.keyboard.press("Control+z");
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 10, y: 8, z: 0 });
  assert.equal(s.result.count, 52);

  // Back to "from the notation": the template the scene had under the other rule sets returns;
  // and D&D 5e again brings back its own, at its point.
  await page.selectOption("#rules", "");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "tdgs", null, WAIT);
  s = await look(page);
  assert.equal(s.request.template, "Cir2");
  assert.ok(!("point" in s.request) && !("rules" in s.request), JSON.stringify(s.request));
  await page.selectOption("#rules", "dnd5e");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "dnd5e", null, WAIT);
  s = await look(page);
  assert.deepEqual([s.request.template, s.request.point, s.result.count], ["20-foot-radius sphere", { x: 10, y: 8, z: 0 }, 52]);

  // Export, import and reload keep the rule set and the point.
  assert.equal(s.exported.rules, "dnd5e");
  assert.deepEqual(s.exported.point, { x: 10, y: 8, z: 0 });
  await page.reload();
  await ready(page);
  s = await look(page);
  assert.equal(await page.inputValue("#rules"), "dnd5e");
  assert.deepEqual([s.request.template, s.request.point, s.result.count], ["20-foot-radius sphere", { x: 10, y: 8, z: 0 }, 52]);
  await clean(page, problems);
});

test("demo points: the wheel turns a D&D 5e cone 15° (5° with Shift), Q and E to the next compass direction; the board shows the engine's cells", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  await importScene(page, { ...OPEN_FIELD, caster: { id: "Mage", x: 8, y: 7, z: 0, facing: "E", side: "party" } }, "cone-field.json");
  await page.selectOption("#presets", "dnd5e:15-foot cone");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.shape === "cone", null, WAIT);
  let s = await look(page);
  assert.equal(s.request.rules, "dnd5e");
  assert.equal(s.request.template, "15-foot cone");
  assert.equal(s.request.toward, "E", "it points the way the caster faced");
  assert.ok(!("point" in s.request), "a cone starts at the caster's edge (SPEC §10.5)");
  assert.match(await page.locator("#template-info").textContent(), /length 3 squares \(15 ft\)/);

  const check = async (degrees) => {
    const s = await look(page);
    assert.equal(towardDegrees(s.request.toward), degrees, JSON.stringify(s.request.toward));
    if (degrees % 45 === 0) assert.equal(typeof s.request.toward, "string", "a compass direction goes by its name");
    const direct = aoe.evaluate(s.request);
    assert.deepEqual(s.result, direct, `toward ${degrees}: the engine's answer to the request`);
    assert.deepEqual(sorted(s.drawn), sorted(ground(direct.cells)), `toward ${degrees}: the engine's cells`);
    assert.ok(direct.count > 0);
    const label = await page.locator("#turn-label").textContent();
    assert.ok(label.includes(`${degrees}°`), label);
    return s;
  };

  await check(0);
  const over = await point(page, 16, 12);
  await page.mouse.move(over.x, over.y);
  await page.mouse.wheel(0, 100);
  await page.waitForFunction(() => globalThis.__aoekitDemo.request()?.toward === 15, null, WAIT);
  s = await check(15);
  assert.equal(s.history.index, 2 + 1, "one undo step a notch (after the import and the preset)");
  await page.mouse.wheel(0, 100);
  await check(30);
  await page.keyboard.down("Shift");
  await page.mouse.wheel(0, 100);
  await page.keyboard.up("Shift");
  await check(35);
  await page.mouse.wheel(0, -100);
  await check(20);
  // E: the next compass direction (45, SE); Q twice: back to E (0), then NE (315).
  await page.focus("#board");
  await page.keyboard.press("e");
  await check(45);
  await page.keyboard.press("q");
  await check(0);
  await page.keyboard.press("q");
  await check(315);
  await page.mouse.move(over.x, over.y);
  await page.mouse.wheel(0, 100);
  s = await check(330);
  await shot(page, "demo-dnd5e-cone-330.png");

  // From a chosen point instead: the point starts where the cone left the caster, and the cone turns about it.
  await page.check("#source");
  s = await look(page);
  assert.ok(s.request.point, JSON.stringify(s.request));
  assert.equal(towardDegrees(s.request.toward), 330);
  await dragPoint(page, [s.request.point.x, s.request.point.y], [14, 12]);
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 14, y: 12, z: 0.5 }, "dragged by its handle; it keeps its height (mid-level)");
  assert.deepEqual(s.result, aoe.evaluate(s.request));
  assert.deepEqual(s.result.origin, { x: 14, y: 12, z: 0.5 });
  await page.reload();
  await ready(page);
  s = await look(page);
  assert.deepEqual([towardDegrees(s.request.toward), s.request.point], [330, { x: 14, y: 12, z: 0.5 }], "kept across a reload");
  await clean(page, problems);
});

test("demo points: a Pathfinder 2e cone steps 45° with Q, E and the wheel — 7 squares straight, 6 diagonal (SPEC §11.2)", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  await importScene(page, { ...OPEN_FIELD, caster: { id: "Mage", x: 8, y: 7, z: 0, facing: "E", side: "party" } }, "pf2e-cone.json");
  await page.selectOption("#rules", "pf2e");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "pf2e", null, WAIT);
  assert.equal(await page.inputValue("#notation"), "20-foot burst", "Pathfinder 2e's sample");
  await page.selectOption("#presets", "pf2e:15-foot cone");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.shape === "cone", null, WAIT);
  let s = await look(page);
  assert.equal(s.request.rules, "pf2e");
  assert.equal(s.request.toward, "E");

  const check = async (dir) => {
    const s = await look(page);
    assert.equal(s.request.toward, dir);
    const direct = aoe.evaluate(s.request);
    assert.deepEqual(s.result, direct);
    assert.equal(s.result.count, DEGREES[dir] % 90 === 0 ? 7 : 6, `toward ${dir}: SPEC §11.2's 15-foot cone`);
    assert.deepEqual(sorted(s.drawn), sorted(ground(direct.cells)));
  };
  await check("E");
  await page.focus("#board");
  await page.keyboard.press("e");
  await check("SE");
  await page.keyboard.press("e");
  await check("S");
  await page.keyboard.press("q");
  await page.keyboard.press("q");
  await page.keyboard.press("q");
  await check("NE");
  // The wheel too: 45° a notch (a pf2e cone aims only along the 8 directions), with or without Shift.
  const over = await point(page, 16, 12);
  await page.mouse.move(over.x, over.y);
  await page.mouse.wheel(0, 100);
  await check("E");
  await page.keyboard.down("Shift");
  await page.mouse.wheel(0, -100);
  await page.keyboard.up("Shift");
  await check("NE");
  await page.click("#rotr");
  await check("E");

  // A D&D 5e cone at 15° taken to Pathfinder 2e goes by the nearest compass direction.
  await page.click('#palette button[aria-label="D&D 5e cone"]');
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "dnd5e", null, WAIT);
  await page.mouse.move(over.x, over.y);
  await page.mouse.wheel(0, 100);
  s = await look(page);
  assert.equal(s.request.toward, 15);
  await page.selectOption("#rules", "pf2e");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "pf2e", null, WAIT);
  await check("E");
  await clean(page, problems);
});

test("demo points: a Pathfinder 2e burst's point snaps to intersections, even with Alt; SPEC §11.2's 44 squares", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  await importScene(page, OPEN_FIELD, "pf2e-burst.json");
  await page.selectOption("#rules", "dnd5e");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.rules === "dnd5e", null, WAIT);
  // A sphere in the middle of a square first...
  await dragPoint(page, [4, 12], [10.5, 7.5]);
  let s = await look(page);
  assert.deepEqual(s.request.point, { x: 10.5, y: 7.5, z: 0 });
  // ... then a pf2e burst: it must start on an intersection (SPEC §11.2), and its point goes to one.
  await page.selectOption("#presets", "pf2e:20-foot burst");
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.template?.shape === "burst", null, WAIT);
  s = await look(page);
  assert.equal(s.request.rules, "pf2e");
  assert.ok(Number.isInteger(s.request.point.x) && Number.isInteger(s.request.point.y), JSON.stringify(s.request.point));
  assert.equal(s.error, null);
  assert.equal(s.result.count, 44, "SPEC §11.2: 11 squares a quadrant");

  for (const [to, alt, want] of [[[6.4, 5.6], false, { x: 6, y: 6, z: 0 }], [[12.3, 9.2], true, { x: 12, y: 9, z: 0 }], [[10.45, 8.55], false, { x: 10, y: 9, z: 0 }]]) {
    const from = (await look(page)).request.point;
    await dragPoint(page, [from.x, from.y], to, { alt });
    s = await look(page);
    assert.deepEqual(s.request.point, want, `dragged to ${to}${alt ? " with Alt" : ""}`);
    assert.equal(s.result.count, 44);
    assert.deepEqual(s.result, aoe.evaluate(s.request));
  }
  // The SPEC's picture about (10, 9): rows of 1, 3, 3, 4 | 4, 3, 3, 1 squares a side.
  const rows = new Map();
  for (const [, y] of s.drawn) rows.set(y, (rows.get(y) ?? 0) + 1);
  assert.deepEqual([...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n), [2, 6, 6, 8, 8, 6, 6, 2]);
  assert.match(await page.locator("#template-info").textContent(), /radius 4 squares \(20 ft\).*grid intersections/);
  await clean(page, problems);
});

test("demo points: cover badges — a D&D 5e target behind a creature shows ½ +2, a Pathfinder 2e one lesser +1; the legend follows the rule set", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  // A fireball on (10, 8); Shield stands between the point and Hidden (SPEC §10.8: creatures give half cover at most).
  await importScene(page, {
    rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 8, z: 0 },
    caster: { id: "Mage", x: 2, y: 2, z: 0, facing: "E", side: "party" },
    tokens: [{ id: "Shield", x: 11, y: 7, z: 0, side: "neutral" }, { id: "Hidden", x: 12, y: 7, z: 0, side: "enemy" }],
    obstacles: [], bounds: BOARD,
  }, "half-cover.json");
  let s = await look(page);
  assert.equal(await page.inputValue("#rules"), "dnd5e");
  const direct = aoe.evaluate(s.request);
  assert.deepEqual(s.result, direct);
  const hidden = direct.targets.find((x) => x.id === "Hidden");
  assert.deepEqual([hidden.cover, hidden.bonus, hidden.affected], ["half", 2, true], "the engine: half cover, +2");
  assert.equal(direct.targets.find((x) => x.id === "Shield").cover, "none");
  assert.deepEqual(s.badges.find((b) => b.id === "Hidden"), { id: "Hidden", grade: "half", text: "½ +2" }, "the board's badge");
  // Issue 33 item 12: no "none" badge in any rule set — no badge is no cover, as the legend says.
  assert.equal(s.badges.find((b) => b.id === "Shield"), undefined, "no badge on the uncovered Shield");
  const labels = await page.evaluate(() => globalThis.__aoekitDemo.drawnLabels());
  assert.deepEqual(labels.filter((l) => l.kind === "badge" && /none/.test(l.text)), [], "no none badge");
  const item = await page.locator('#targets button[data-id="Hidden"]').textContent();
  assert.match(item, /half cover \(½\) \+2 to AC and Dex saves/);
  assert.equal(await page.locator('#targets button[data-id="Hidden"] .badge').getAttribute("data-grade"), "half");
  // The badge is painted at the top right of Hidden's square, in the half-cover orange.
  const badgePixels = [];
  for (const dx of [-0.3, -0.2, -0.1, 0.1, 0.2]) badgePixels.push(await pixel(page, 13 + dx, 7.08));
  assert.ok(badgePixels.some(([r, g, b]) => Math.abs(r - 0xff) < 12 && Math.abs(g - 0xb7) < 16 && Math.abs(b - 0x4d) < 20), JSON.stringify(badgePixels));
  assert.ok(await page.locator("#legend-grades-dnd5e").isVisible());
  assert.ok(!(await page.locator("#legend-grades").isVisible()));
  assert.match(await page.locator("#legend-grades-dnd5e").textContent(), /½ \+2.*¾ \+5.*total/);
  await page.hover('#targets button[data-id="Hidden"]');
  await shot(page, "demo-dnd5e-half-cover.png");

  // Pathfinder 2e: one line from the point to the centre of the space; through a creature, lesser cover (SPEC §11.5).
  await importScene(page, {
    rules: "pf2e", template: "20-foot burst", point: { x: 8, y: 8, z: 0 },
    caster: { id: "Mage", x: 2, y: 2, z: 0, facing: "E", side: "party" },
    tokens: [{ id: "Shield", x: 9, y: 7, z: 0 }, { id: "Hidden", x: 10, y: 6, z: 0 }],
    obstacles: [], bounds: BOARD,
  }, "lesser-cover.json");
  s = await look(page);
  const pf = aoe.evaluate(s.request);
  assert.deepEqual(s.result, pf);
  const h2 = pf.targets.find((x) => x.id === "Hidden");
  assert.deepEqual([h2.cover, h2.bonus], ["lesser", 1], JSON.stringify(h2));
  assert.deepEqual(s.badges.find((b) => b.id === "Hidden"), { id: "Hidden", grade: "lesser", text: "lesser +1" });
  assert.match(await page.locator('#targets button[data-id="Hidden"]').textContent(), /lesser cover \+1 to AC · 1 of 1 line blocked/);
  assert.ok(await page.locator("#legend-grades-pf2e").isVisible());
  assert.ok(!(await page.locator("#legend-grades-dnd5e").isVisible()));

  // The other rule sets keep the overlay's badges and their legend.
  await page.click("#sample");
  await ready(page);
  s = await look(page);
  assert.deepEqual(s.badges, []);
  assert.ok(await page.locator("#legend-grades").isVisible());
  assert.ok(!(await page.locator("#legend-grades-pf2e").isVisible()));
  await clean(page, problems);
});

test("demo points: ranges are drawn and written in feet; an out-of-range point is refused and shown, not moved", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  await importScene(page, { rules: "dnd5e", template: "20-foot-radius sphere", point: { x: 10, y: 8, z: 0 }, range: 6,
    caster: { id: "Mage", x: 2, y: 2, z: 0, facing: "E", side: "party" }, tokens: [], obstacles: [], bounds: BOARD }, "range.json");
  let s = await look(page);
  assert.equal(s.error.code, "out_of_range", "the point is 7 squares from the caster's space (SPEC §10.6)");
  assert.deepEqual(s.request.point, { x: 10, y: 8, z: 0 });
  assert.match(await page.locator("#range-note").textContent(), /6 squares \(30 ft\)/);
  assert.throws(() => aoe.evaluate(s.request), (e) => e.code === "out_of_range");
  await dragPoint(page, [10, 8], [9, 8.5]);
  s = await look(page);
  assert.deepEqual(s.request.point, { x: 9, y: 8.5, z: 0 });
  assert.equal(s.error, null);
  assert.deepEqual(s.result, aoe.evaluate(s.request));
  await clean(page, problems);
});
