// The demo page (web/demo) in headless Chromium, on what a user sees and reads: the direction a
// TDGS template points, the labels over the cover lines, the roll line, doors, the phone layout,
// the help, adding creatures, the palette's words, the samples, messages and levels. Served like
// web/test/demo.test.mjs (the demo server's Content-Security-Policy); expected values come from
// SPEC or from the engine in Node, never from the page's own output. The page exposes what it
// drew through globalThis.__aoekitDemo (a test hook, not an API).
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { ROOT, WEB, demoReady, engine, fileBrowser, openDemo } from "./helpers.mjs";

const SHOTS = join(ROOT, "build", "screenshots");
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
const WAIT = { timeout: 30_000 };
const BOARD = { min: [0, 0, 0], max: [23, 15, 0] };

const file = fileBrowser(WEB);

/** Opens the demo in a fresh context under the demo server's CSP (openDemo). */
const open = (t, options) => openDemo(t, file, { timeout: 10_000, ...options });
const ready = demoReady;

const look = (page) => page.evaluate(() => {
  const d = globalThis.__aoekitDemo;
  return {
    request: d.request(), result: d.state.result, error: d.state.error, selected: d.state.selected,
    lines: d.drawnLines(), labels: typeof d.drawnLabels === "function" ? d.drawnLabels() : [],
    exported: d.exportRequest(), history: d.history, scene: structuredClone(d.scene), sq: d.sq, view: d.view,
  };
});

const at = (page, x, y, ox = 0.5, oy = 0.5) => page.evaluate(([x, y, ox, oy]) => globalThis.__aoekitDemo.cellCentre(x, y, ox, oy), [x, y, ox, oy]);

async function drag(page, a, b) {
  const p = await at(page, ...a);
  const q = await at(page, ...b);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y, { steps: 12 });
  await page.mouse.up();
}

/** The canvas pixel at board point (x, y), in squares. */
const pixel = (page, x, y) => page.evaluate(([x, y]) => {
  const d = globalThis.__aoekitDemo;
  return d.pixel(x * d.sq, y * d.sq);
}, [x, y]);

async function importScene(page, content, name = "scene.json") {
  const buffer = Buffer.from(typeof content === "string" ? content : JSON.stringify(content));
  await page.evaluate(() => { document.getElementById("scene-message").textContent = ""; });
  await page.setInputFiles("#import-file", { name, mimeType: "application/json", buffer });
  await page.waitForFunction((n) => document.getElementById("scene-message").textContent.includes(n), name, WAIT);
  await ready(page);
}

async function shot(page, name, options = {}) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, name), ...options });
}

async function clean(page, problems) {
  assert.deepEqual(problems, [], "no page error and no console error");
  assert.deepEqual(await page.evaluate(() => globalThis.__csp), [], "no Content-Security-Policy violation");
}

const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const key = (c) => `${c[0]},${c[1]}`;
const sorted = (cells) => [...new Set(cells.map(key))].sort();

/** SPEC §2.4 and §2.5: the cells of ConL pointing dir (an index of §1.2) from C, on one level. */
function specCone(L, dir, cx, cy) {
  const base = [];
  if (dir % 2 === 0) {
    for (let d = 1; d <= L; d++) for (let s = -(d - 1); s <= d - 1; s++) base.push([s, -d]);
  } else {
    for (let i = 1; i <= L; i++) for (let j = 1; i + j <= L + 1; j++) base.push([i, -j]);
  }
  const turn = ([dx, dy]) => [-dy, dx];
  return base.map((o) => {
    for (let q = 0; q < Math.floor(dir / 2); q++) o = turn(o);
    return [cx + o[0], cy + o[1]];
  });
}

/** Whether two rectangles {x, y, w, h} share any area. */
const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** The distance from point (px, py) to the segment from → to. */
function toSegment(px, py, { from: [ax, ay], to: [bx, by] }) {
  const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy || 1;
  const t = Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / l2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Whether a cover line runs through a rectangle (sampled every 2 board pixels along the line). */
function crosses(rect, line) {
  const [ax, ay] = line.from, [bx, by] = line.to;
  const n = Math.max(2, Math.ceil(Math.hypot(bx - ax, by - ay) / 2));
  for (let i = 0; i <= n; i++) {
    const x = ax + ((bx - ax) * i) / n, y = ay + ((by - ay) * i) / n;
    if (x > rect.x && x < rect.x + rect.w && y > rect.y && y < rect.y + rect.h) return true;
  }
  return false;
}

/** The RGBA bytes shown in a board-pixel rectangle (the layers composed). */
const region = (page, r) => page.evaluate((r) => {
  const d = globalThis.__aoekitDemo;
  const img = d.image(), v = d.view, dpr = d.dpr;
  const x0 = Math.ceil((r.x - v.x) * dpr), y0 = Math.ceil((r.y - v.y) * dpr);
  const x1 = Math.floor((r.x + r.w - v.x) * dpr), y1 = Math.floor((r.y + r.h - v.y) * dpr);
  const out = [];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const i = (y * img.width + x) * 4;
    out.push(img.data[i], img.data[i + 1], img.data[i + 2], img.data[i + 3]);
  }
  return out;
}, r);

// Colours: the area's cover lines (demo.css --clear, --blocked) and the attack's (demo.js COLOURS).
const isClearGreen = ([r, g, b]) => g > 150 && r < 120 && b < 130;
const isBlockedRed = ([r, g, b]) => r > 220 && g < 110 && b < 110;
const isAttackClear = ([r, g, b]) => r < 60 && g > 140 && b > 160;
const isAttackBlocked = ([r, g, b]) => r > 160 && g < 70 && b > 100;
const isDark = ([r, g, b]) => r < 70 && g < 70 && b < 70;
const isDoorBrown = ([r, g, b]) => r > 110 && r < 175 && g > 65 && g < 120 && b > 35 && b < 95 && r - b > 50;

// ---------------------------------------------------------------------------------------------
// 1. A TDGS direction is relative to the caster's facing (SPEC §1.3): the page says so.

test("demo ux: a TDGS cone's direction is shown as written and as it points on the board (Con4NE, facing E: SE)", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  const note = page.locator("#direction-note");

  // The sample: Con6N from the Wizard, who faces E — N is forward, so it points E.
  assert.equal(await note.textContent(), "Con6N — relative to facing E: points E");
  assert.ok(await note.isVisible());

  // SPEC §1.3's own example: facing E (2) casting Con4NE (1) points SE (3).
  await importScene(page, { template: "Con4NE", caster: { id: "Seer", x: 11, y: 7, z: 0, facing: "E" }, tokens: [], obstacles: [], bounds: BOARD }, "ne.json");
  let s = await look(page);
  assert.equal(aoe.evaluate(s.request).direction, "SE", "the engine: SE");
  assert.deepEqual(sorted(s.result.cells.filter((c) => c[2] === 0)), sorted(specCone(4, 3, 11, 7)), "the cells are SPEC's cone toward SE");
  assert.equal(await page.inputValue("#notation"), "Con4NE", "the box keeps the notation");
  assert.equal(await note.textContent(), "Con4NE — relative to facing E: points SE");
  assert.match(await page.locator("#status").textContent(), /^Con4NE: \d+ squares, toward SE \(NE relative to facing E\)/);
  assert.match(await page.locator("#turn-label").textContent(), /facing E.*points SE/);

  // Turning the caster turns the cone: facing S, NE points SW.
  await page.focus("#board");
  await page.keyboard.press("e");
  await page.keyboard.press("e");
  s = await look(page);
  assert.equal(s.result.direction, "SW");
  assert.equal(await note.textContent(), "Con4NE — relative to facing S: points SW");

  // A template without a direction says nothing of one.
  await page.fill("#notation", "Cir2");
  assert.ok(!(await note.isVisible()));
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 2. Cover lines under the labels; a colour scheme each for an area's and an attack's lines.

test("demo ux: cover lines pass under the labels — a label's pixels are the same with and without lines — and no badge covers a label", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  let s = await look(page);
  assert.equal(s.selected.id, "Sneak", "the sample shows the Sneak's lines");
  const names = s.labels.filter((l) => l.kind === "name");
  assert.deepEqual(names.map((l) => l.text).sort(), ["Archer", "Bandit", "Brute", "Goblin", "Orc", "Paladin", "Sneak", "Wizard"], "every creature is named");
  for (const b of s.labels.filter((l) => l.kind !== "name")) {
    for (const n of names) assert.ok(!overlap(b, n), `the ${b.kind} ${JSON.stringify(b.text)} of ${b.id} lies over ${n.text}'s name`);
  }
  // A label a cover line runs through: the Paladin's, between the Wizard and the Sneak.
  const crossed = names.filter((n) => s.lines.some((l) => crosses(n, l)));
  assert.ok(crossed.length > 0, `a cover line crosses a name: ${JSON.stringify(names)}`);
  const inner = (r) => ({ x: r.x + r.h / 2, y: r.y + 2, w: r.w - r.h, h: r.h - 4 }); // inside the pill's round ends and rim
  const withLines = await Promise.all(crossed.map((n) => region(page, inner(n))));
  await shot(page, "demo-ux-labels-over-lines.png");

  // Without lines (nothing selected): the same label pixels.
  await page.focus("#board");
  await page.keyboard.press("Escape");
  s = await look(page);
  assert.deepEqual(s.lines, [], "no lines");
  for (const [i, n] of crossed.entries()) {
    const now = s.labels.find((l) => l.kind === "name" && l.id === n.id);
    assert.deepEqual(now, n, `${n.id}'s label stays where it was`);
    assert.deepEqual(await region(page, inner(n)), withLines[i], `${n.id}'s label is drawn over the lines, never under them`);
  }
  await clean(page, problems);
});

test("demo ux: an area's and an attack's cover lines have their own colours and legend; only the selected target's by default, every target's on request", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  let s = await look(page);
  const withLines = s.result.targets.filter((x) => x.lines.length > 0).map((x) => x.id);
  assert.deepEqual([...new Set(s.lines.map((l) => l.id))], ["Sneak"], "the selected target's lines only");
  assert.ok(await page.locator("#legend-area-lines").isVisible());
  assert.ok(await page.locator("#legend-attack-lines").isVisible());

  // Show all: every target's lines.
  await page.check("#lines-all");
  s = await look(page);
  assert.deepEqual([...new Set(s.lines.map((l) => l.id))].sort(), [...withLines].sort());
  const total = s.result.targets.reduce((n, x) => n + x.lines.length, 0);
  assert.equal(s.lines.length, total, "every line of every target");
  await page.uncheck("#lines-all");

  // An attack's lines (the Wizard's ranged shot at the Brute, behind a low wall), the area's hidden: its own colours.
  await page.focus("#board");
  await page.keyboard.press("Escape");
  await page.click("#attack-section summary");
  await page.selectOption("#atk-attacker", "Wizard");
  await page.selectOption("#atk-target", "Brute");
  await page.selectOption("#atk-kind", "ranged");
  await page.selectOption("#atk-rules", "tdgs");
  s = await look(page);
  const attack = s.lines.filter((l) => l.id === "attack");
  assert.ok(attack.length > 0 && attack.some((l) => l.blocked) && attack.some((l) => !l.blocked), "clear and blocked attack lines");
  assert.equal(s.lines.length, attack.length, "no area line shows");
  const seen = { clear: 0, blocked: 0, area: 0 };
  for (const l of attack) {
    for (let k = 4; k <= 36; k += 2) {
      const x = l.from[0] + ((l.to[0] - l.from[0]) * k) / 40, y = l.from[1] + ((l.to[1] - l.from[1]) * k) / 40;
      const px = await page.evaluate(([x, y]) => globalThis.__aoekitDemo.pixel(x, y), [x, y]);
      if (isAttackClear(px)) seen.clear++;
      if (isAttackBlocked(px)) seen.blocked++;
      if (isClearGreen(px) || isBlockedRed(px)) seen.area++;
    }
  }
  assert.ok(seen.clear > 0 && seen.blocked > 0, `the attack's colours: ${JSON.stringify(seen)}`);
  assert.equal(seen.area, 0, "never the area's green or red");
  await shot(page, "demo-ux-attack-lines.png");
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 3. and 4. Rolls: the defences are exported without Rolls; the roll line adds up.

test("demo ux: Export keeps the defences with Rolls off; imported, then rolled, the dice and hits are the same", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const aoe = await engine();
  await page.check("#rolls");
  const rolled = (await look(page)).result.targets.map((x) => [x.id, x.roll ?? null]);
  assert.ok(rolled.some(([, r]) => r && r.defence > 0), "the sample's targets have defences");
  await page.uncheck("#rolls");

  const [download] = await Promise.all([page.waitForEvent("download", WAIT), page.click("#export")]);
  const text = readFileSync(await download.path(), "utf8");
  const exported = JSON.parse(text);
  assert.equal(exported.resolve, undefined, "no rolls are asked for");
  const s0 = await look(page);
  assert.deepEqual(aoe.evaluate(exported), s0.result, "the file is still the request the page answers");

  await importScene(page, { template: "Cir2", caster: { id: "Mage", x: 2, y: 2, z: 0 }, tokens: [], obstacles: [], bounds: BOARD }, "other.json");
  await importScene(page, text, "aoekit-scene.json");
  assert.doesNotMatch(await page.locator("#scene-message").textContent(), /Not used/, "every field is read");
  await page.check("#rolls");
  const again = (await look(page)).result.targets.map((x) => [x.id, x.roll ?? null]);
  assert.deepEqual(again, rolled, "the same dice, totals, defences and hits");
  await clean(page, problems);
});

test("demo ux: a roll line shows the sum the total is and the 11 a hit needs (SPEC §7.4), never a total \"vs\" the defence", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await page.check("#rolls");
  const s = await look(page);
  const stat = s.scene.rolls.stat, mods = s.scene.rolls.modifiers;
  const rolled = s.result.targets.filter((x) => x.roll);
  assert.ok(rolled.length >= 3, `${rolled.length} rolls`);
  for (const x of rolled) {
    const text = await page.locator(`#targets button[data-id="${x.id}"] .roll`).textContent();
    assert.doesNotMatch(text, / vs /, text);
    const die = x.roll.dice.at(-1);
    // §7.4: total = die + (A − (D + c)) + m; the roll's defence is D + c.
    assert.equal(die + stat - x.roll.defence + mods, x.roll.total, "SPEC's sum");
    assert.ok(text.includes(`d20 ${x.roll.dice.join(" → ")}`) && text.includes(`= ${x.roll.total}`), text);
    assert.ok(text.includes(`− ${x.roll.defence}`) || x.roll.defence === 0, `the defence subtracted: ${text}`);
    assert.match(text, /needs 11/, text);
    assert.match(text, x.roll.hit ? /hit/ : /miss/, text);
  }
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 5. The Burst's tooltip agrees with SPEC §3.3 and the engine.

test("demo ux: the Draw Steel Burst button says the caster's space is in the burst, as the engine answers", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const title = await page.getAttribute('#palette button[data-rules="drawsteel"][data-shape="burst"]', "title");
  assert.doesNotMatch(title, /not the caster/);
  assert.match(title, /caster's own space included/);
  await page.fill("#notation", "3 burst");
  const s = await look(page);
  assert.deepEqual([s.result.targets[0].id, s.result.targets[0].affected], ["Wizard", true], "SPEC §3.3: the caster is in its burst");
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 6. A closed door is not a wall.

test("demo ux: a closed door is drawn unlike a wall and kept as a door (open: false); the legend shows it", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await importScene(page, {
    template: "2 burst", caster: { id: "Talent", x: 7, y: 8, z: 0 }, tokens: [], obstacles: [], bounds: BOARD,
    walls: [{ a: [4, 2], b: [4, 6] }, { a: [10, 2], b: [10, 6], open: false }],
  }, "door.json");
  let s = await look(page);
  assert.deepEqual(s.request.walls, [{ a: [4, 2], b: [4, 6] }, { a: [10, 2], b: [10, 6], open: false }], "the closed door stays a door");
  const wall = await pixel(page, 4, 4), door = await pixel(page, 10, 4);
  assert.ok(isDark(wall), `the wall's core: ${wall}`);
  assert.ok(isDoorBrown(door), `the closed door's core: ${door}`);
  assert.ok(await page.locator("#legend-door-closed").isVisible());

  // Drawn with the Thin wall tool, opened (D) then closed (D): a closed door, not a wall again.
  await page.click('button[data-tool="thin"]');
  await drag(page, [16, 2, 0, 0], [16, 6, 0, 0]);
  await page.keyboard.press("d");
  await page.keyboard.press("d");
  s = await look(page);
  assert.deepEqual(s.request.walls[2], { a: [16, 2], b: [16, 6], open: false });
  assert.match(await page.locator("#wall-info").textContent(), /closed door/);
  await page.keyboard.press("Escape");
  assert.ok(isDoorBrown(await pixel(page, 16, 4)), "drawn as a door");
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 7. A phone.

test("demo ux: at 390 px the squares are at least 24 px, every creature is named in full, badges are in the legend and on no name, the toolbar is short and errors show by the board", async (t) => {
  const o = await open(t, { width: 390, height: 844, dpr: 3, hasTouch: true });
  if (!o) return;
  const { page, problems } = o;
  let s = await look(page);
  assert.ok(s.sq >= 24, `squares of ${s.sq} px`);
  const board = await page.locator("#board").boundingBox();
  const toolbar = await page.locator(".toolbar").boundingBox();
  assert.ok(toolbar.height <= 110, `a toolbar ${toolbar.height} px high`);
  assert.ok(board.height >= 320, `a board ${board.height} px high`);
  assert.ok(board.y + board.height <= 844, "the board is on the first screen");
  assert.ok(await page.$$eval(".toolbar kbd, .top kbd", (ks) => ks.every((k) => k.getClientRects().length === 0)), "no keyboard hints");

  // Full names, on the creatures in view; the badges' words are the legend's; no badge on a name.
  const names = s.labels.filter((l) => l.kind === "name");
  const inView = [s.scene.caster, ...s.scene.tokens].filter((e) => (e.x + 1) * s.sq > s.view.x && e.x * s.sq < s.view.x + board.width && (e.y + 1) * s.sq > s.view.y && e.y * s.sq < s.view.y + board.height);
  assert.ok(inView.length >= 5, `${inView.length} creatures in view`);
  for (const e of inView) assert.ok(names.some((n) => n.id === e.id && n.text.startsWith(e.id)), `${e.id} named in full`);
  const legend = await page.locator(".legend").textContent();
  const badges = s.labels.filter((l) => l.kind === "badge");
  assert.ok(badges.length > 0);
  for (const b of badges) assert.ok(legend.includes(b.text), `the badge ${JSON.stringify(b.text)} is in the legend`);
  for (const b of s.labels.filter((l) => l.kind !== "name")) for (const n of names) assert.ok(!overlap(b, n), `${b.text} over ${n.text}`);
  await shot(page, "demo-ux-390.png");

  // A mistake in the notation box (down in the panel) is said under the board too.
  await page.fill("#notation", "Con4");
  await page.evaluate(() => window.scrollTo(0, 0));
  const note = page.locator("#board-note");
  assert.match(await note.textContent(), /a cone needs a direction/);
  const box = await note.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844, `the note is on the first screen: ${JSON.stringify(box)}`);

  // A finger dragged on an empty square pans the board.
  s = await look(page);
  const v0 = s.view;
  const from = await at(page, 12, 14);
  const cdp = await o.context.newCDPSession(page);
  const touch = (type, x, y) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
  await touch("touchStart", from.x, from.y);
  for (let i = 1; i <= 10; i++) await touch("touchMove", from.x - i * 10, from.y);
  await touch("touchEnd");
  s = await look(page);
  assert.ok(s.view.x > v0.x, `panned: ${v0.x} → ${s.view.x}`);
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 8. Help opens at its top.

for (const [width, height] of [[1400, 900], [390, 844]]) {
  test(`demo ux: at ${width} × ${height} the help opens at its top, not scrolled to its Close button`, async (t) => {
    const o = await open(t, { width, height });
    if (!o) return;
    const { page, problems } = o;
    await page.focus("#board");
    await page.keyboard.press("?");
    await page.waitForFunction(() => document.getElementById("help").open, null, WAIT);
    const state = await page.evaluate(() => {
      const d = document.getElementById("help");
      const h = document.getElementById("h-help").getBoundingClientRect(), r = d.getBoundingClientRect();
      return { scrollTop: d.scrollTop, overflow: d.scrollHeight > d.clientHeight, active: document.activeElement?.id ?? "", headingIn: h.top >= r.top && h.bottom <= r.bottom };
    });
    assert.equal(state.scrollTop, 0, JSON.stringify(state));
    assert.ok(state.headingIn, "the heading shows");
    assert.notEqual(state.active, "help-close");
    await page.keyboard.press("Escape");
    await clean(page, problems);
  });
}

// ---------------------------------------------------------------------------------------------
// 9. Adding a creature.

test("demo ux: a creature is added where the board is clicked with the Add tool, near the top of the page; one added by the panel's button can grow Large where it stands", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const add = page.locator('button.tool[data-tool="add"]');
  const box = await add.boundingBox();
  assert.ok(box && box.y + box.height <= 900, `the Add tool is on the first screen: ${JSON.stringify(box)}`);
  await add.click();
  const p = await at(page, 20, 3);
  await page.mouse.click(p.x, p.y);
  let s = await look(page);
  const added = s.scene.tokens.at(-1);
  assert.deepEqual([added.x, added.y], [20, 3], "where it was clicked");
  assert.deepEqual(s.selected, { kind: "entity", id: added.id });
  await page.fill("#ed-size", "large");
  await page.press("#ed-size", "Enter");
  assert.equal(await page.locator("#editor-error").textContent(), "");
  assert.equal((await look(page)).scene.tokens.at(-1).size, 2);
  // A click on a wall or a creature adds nothing.
  const n = s.scene.tokens.length;
  const q = await at(page, 16, 9);
  await page.mouse.click(q.x, q.y);
  assert.equal((await look(page)).scene.tokens.length, n);

  // The panel's button: a square with room to grow.
  await page.click('button.tool[data-tool="move"]');
  for (const size of ["large", "huge"]) {
    await page.click("#add-token");
    await page.fill("#ed-size", size);
    await page.press("#ed-size", "Enter");
    assert.equal(await page.locator("#editor-error").textContent(), "", `a new creature grows ${size}`);
  }
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 10. The TDGS circle is a square.

test("demo ux: the TDGS Circle button shows a square and says why (SPEC §2.3: every square within the radius)", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const button = page.locator('#palette button[data-rules="tdgs"][data-shape="circle"]');
  const icon = await button.evaluate((b) => ({ circles: [...b.querySelectorAll("svg circle")].map((c) => Number(c.getAttribute("r"))), rects: b.querySelectorAll("svg rect").length }));
  assert.ok(icon.rects > 0 && icon.circles.every((r) => r <= 2), `a square icon: ${JSON.stringify(icon)}`);
  assert.match(await button.getAttribute("title"), /square/);
  await button.click();
  const s = await look(page);
  const r = s.result.template.radius;
  assert.equal(s.result.count, (2 * r + 1) ** 2, "the engine's square");
  assert.match(await page.locator("#template-info").textContent(), new RegExp(`a square of ${2 * r + 1} × ${2 * r + 1}`));
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 11. Samples ask before they replace work, open no section; the push preview is in the legend.

test("demo ux: a sample asks before replacing an edited scene and opens no section; the push preview is in the legend", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  // Untouched: replaced at once, no section opened.
  await page.click("#sample-room");
  await page.waitForFunction(() => globalThis.__aoekitDemo.scene.template === "3 burst", null, WAIT);
  assert.equal(await page.locator("#attack-section").getAttribute("open"), null);
  assert.equal(await page.locator("#move-section").getAttribute("open"), null);

  // Edited: it asks; keeping leaves the scene, replacing replaces it (Undo brings it back).
  await drag(page, [17, 9], [18, 9]);
  const edited = (await look(page)).exported;
  await page.click("#sample");
  const dialog = page.locator("#confirm-replace");
  assert.ok(await dialog.isVisible(), "it asks");
  await page.click("#confirm-replace-no");
  assert.ok(!(await dialog.isVisible()));
  assert.deepEqual((await look(page)).exported, edited, "kept");
  await page.click("#sample");
  await page.click("#confirm-replace-yes");
  await page.waitForFunction(() => globalThis.__aoekitDemo.scene.template === "Con6N", null, WAIT);
  await page.click("#undo");
  assert.deepEqual((await look(page)).exported, edited, "undo returns the edited scene");

  // The push preview, once the section is opened, is explained by the legend.
  assert.ok(!(await page.locator("#legend-force").isVisible()));
  await page.click("#move-section summary");
  await page.locator("#tokens button", { hasText: "Guard" }).click();
  await page.waitForFunction(() => globalThis.__aoekitDemo.state.move, null, WAIT);
  assert.ok(await page.locator("#legend-force").isVisible());
  assert.match(await page.locator("#legend-force").textContent(), /push/);
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 12. Words.

test("demo ux: words — a Draw Steel grade says its effect, no \"none\" badge, messages lead with words not codes, wall buttons only with the Thin wall tool", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  let s = await look(page);
  assert.ok(s.result.targets.some((x) => x.cover === "none" && x.inArea), "the sample has uncovered targets");
  assert.deepEqual(s.labels.filter((l) => l.kind === "badge" && /none/.test(l.text)), [], "no none badge");

  // Draw Steel's cover grade (SPEC §5.5): a bane.
  await page.selectOption("#cover", "drawsteel");
  s = await look(page);
  const covered = s.result.targets.find((x) => x.cover === "cover");
  assert.ok(covered, JSON.stringify(s.result.targets.map((x) => x.cover)));
  const item = await page.locator(`#targets button[data-id="${covered.id}"]`).textContent();
  assert.doesNotMatch(item, /cover cover/);
  assert.match(item, /bane/);
  assert.ok(s.labels.some((l) => l.kind === "badge" && l.id === covered.id && /bane/.test(l.text)), "the board's badge says bane");
  await page.selectOption("#cover", "");

  // Messages: words first.
  await page.fill("#notation", "Con4");
  assert.doesNotMatch(await page.locator("#notation-error").textContent(), /^bad_notation/);
  await page.fill("#notation", "Cir2");
  await page.fill("#range", "1");
  s = await look(page);
  assert.equal(s.error?.code, "out_of_range");
  assert.doesNotMatch(await page.locator("#status").textContent(), /^out_of_range/);
  assert.equal(await page.locator("#status").textContent(), s.error.message);
  await page.fill("#range", "");

  // Door, fence and delete belong to the Thin wall tool.
  assert.ok(!(await page.locator("#wall-door").isVisible()));
  await page.click('button[data-tool="thin"]');
  assert.ok(await page.locator("#wall-door").isVisible());
  assert.ok(await page.locator("#wall-fence").isVisible());
  await page.click('button[data-tool="move"]');
  assert.ok(!(await page.locator("#wall-fence").isVisible()));
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 13. Elevation and the board's levels.

test("demo ux: a creature raised above the board's levels raises the board; one imported above them is pointed out", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await page.locator("#tokens button", { hasText: "Goblin" }).click();
  await page.fill("#ed-z", "1");
  await page.press("#ed-z", "Enter");
  let s = await look(page);
  assert.equal(s.scene.tokens.find((e) => e.id === "Goblin").z, 1);
  assert.deepEqual(s.request.bounds.max[2], 1, "the board has 2 levels");
  assert.equal(await page.inputValue("#levels"), "2");
  assert.ok(s.result.cells.some((c) => c[2] === 1), "the area has squares on the Goblin's level");
  assert.match(await page.locator("#board-note").textContent(), /2 levels/);
  // Past the demo's highest board: refused.
  await page.fill("#ed-z", "9");
  await page.press("#ed-z", "Enter");
  assert.match(await page.locator("#editor-error").textContent(), /8 levels/);
  assert.equal((await look(page)).scene.tokens.find((e) => e.id === "Goblin").z, 1);

  // An imported scene with a creature above its one level: said, on the board and in the list.
  await importScene(page, {
    template: "Cir3", origin: { x: 10, y: 8, z: 0 }, caster: { id: "Mage", x: 1, y: 1, z: 0 }, bounds: BOARD, obstacles: [],
    tokens: [{ id: "Bat", x: 11, y: 8, z: 1, side: "enemy" }, { id: "Rat", x: 9, y: 8, z: 0, side: "enemy" }],
  }, "bat.json");
  s = await look(page);
  assert.deepEqual(s.request.bounds, BOARD, "the board as imported");
  assert.match(await page.locator("#board-note").textContent(), /Bat .*above the board's 1 level/);
  assert.match(await page.locator('#targets button[data-id="Bat"]').textContent(), /above the board/);
  await clean(page, problems);
});

// ---------------------------------------------------------------------------------------------
// 14. The site's root page: no request for /favicon.ico (a 404 in the console).

test("demo ux: the site's root page declares an icon, so that no browser asks for /favicon.ico (a 404)", async (t) => {
  if (!file.browser) {
    t.skip("Chromium is absent");
    return;
  }
  // The root page, as web/web.mk's static target writes it (its printf's text). A page that
  // declares no icon makes a browser ask for /favicon.ico, which the site does not have (headless
  // Chromium does not ask: the test reads the page's head).
  const mk = readFileSync(join(WEB, "web.mk"), "utf8");
  const m = /printf '([^']*)' > static\/index\.html/.exec(mk);
  assert.ok(m, "web.mk writes static/index.html with printf");
  const root = m[1].replace(/\\n$/, "\n");
  const context = await file.browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  // Parsed as Chromium parses the page (its refresh is not followed).
  const head = await page.evaluate((html) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    return { icons: [...doc.querySelectorAll('link[rel~="icon"]')].map((l) => l.getAttribute("href")), refresh: doc.querySelector('meta[http-equiv="refresh"]')?.getAttribute("content") };
  }, root);
  const icons = head.icons;
  assert.equal(icons.length, 1, `the root page's icons: ${JSON.stringify(icons)}`);
  assert.ok(icons[0].startsWith("data:"), "an icon that needs no request");
  assert.equal(head.refresh, "0; url=demo/", "it still leads to the demo");
});
