// The demo page (web/demo) in headless Chromium: Foundry's gesture — with the Template tool, a
// drag on the board draws a template of the selected one's kind, its size following the drag and
// its direction the drag's angle (TDGS and Draw Steel: the 8 compass directions; D&D 5e and
// Pathfinder 2e: 15° steps as Foundry snaps them, free with Alt) — and several templates on the
// board at once, each selectable and removable, the Targets list following the selected one;
// export and import carry them all, an older file (one template) still imports. Expected
// templates come from the drag's geometry and SPEC (§1.3 directions relative to facing, §2.7
// rectangles, §10.3 sizes in feet); expected cells and targets from the engine in Node, never
// from the page's own output. The page exposes what it drew through globalThis.__aoekitDemo (a
// test hook, not an API).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { WEB, engine, fileBrowser, openDemo } from "./helpers.mjs";

const WAIT = { timeout: 30_000 };
const file = fileBrowser(WEB);
const open = (t, options) => openDemo(t, file, { timeout: 10_000, ...options });

const look = (page) => page.evaluate(() => {
  const d = globalThis.__aoekitDemo;
  return {
    request: d.request(), exported: d.exportRequest(), result: d.state.result, error: d.state.error, scene: structuredClone(d.scene),
    templates: d.templates(), placedCells: d.placedCells(), cells: d.drawnCells(), history: d.history, sq: d.sq,
  };
});

/** The page position of board point (x, y), in squares. */
const at = (page, x, y) => page.evaluate(([x, y]) => globalThis.__aoekitDemo.cellCentre(x, y, 0, 0), [x, y]);

/** A drag from board point a to b (in squares), with keys held (Alt…). */
async function drag(page, a, b, { alt = false, release = true } = {}) {
  const p = await at(page, ...a), q = await at(page, ...b);
  if (alt) await page.keyboard.down("Alt");
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y, { steps: 10 });
  if (release) await page.mouse.up();
  if (alt) await page.keyboard.up("Alt");
}

async function clean(page, problems) {
  assert.deepEqual(problems, [], "no page error and no console error");
  assert.deepEqual(await page.evaluate(() => globalThis.__csp), [], "no Content-Security-Policy violation");
}

const cellKeys = (cells, z = 0) => cells.filter((c) => c[2] === z).map((c) => `${c[0]},${c[1]}`).sort();

/** The engine's answer in Node to a template of the page's board (its exported request with the template's own fields). */
async function answer(exported, fields) {
  const { placed, placedAt, template, rules, point, toward, origin, aim, path, orientation, originSquare, range, targeting, ...board } = exported;
  return (await engine()).evaluate({ ...board, ...fields });
}

/** Imports `text` as the file `name`, and waits for the scene message that names it. */
async function importFile(page, name, text) {
  await page.setInputFiles("#import-file", { name, mimeType: "application/json", buffer: Buffer.from(text) });
  await page.waitForFunction((n) => document.getElementById("scene-message").textContent.includes(n), name, WAIT);
}

async function chooseRules(page, rules, notation) {
  await page.selectOption("#rules", rules);
  await page.fill("#notation", notation);
  await page.press("#notation", "Enter");
  await page.waitForFunction((n) => globalThis.__aoekitDemo.state.result?.template?.notation === n || globalThis.__aoekitDemo.scene.template === n, notation, WAIT);
}

test("demo templates: a D&D 5e drag draws a fireball at the point pressed, its radius the drag's length; the first template stays on the board", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await chooseRules(page, "dnd5e", "20-foot-radius sphere");
  const first = (await look(page)).exported;
  await page.click('button.tool[data-tool="template"]');
  assert.equal(await page.getAttribute('button.tool[data-tool="template"]', "aria-pressed"), "true");
  // From grid intersection (14, 8), 3 squares east: a 15-foot-radius sphere there (SPEC §10.3: 5 ft a square).
  await drag(page, [14, 8], [17, 8]);
  const s = await look(page);
  assert.equal(s.scene.template, "15-foot-radius sphere");
  assert.deepEqual(s.exported.point, { x: 14, y: 8, z: 0 });
  assert.equal(s.templates.length, 2, "both templates are on the board");
  assert.equal(s.templates[0].template, first.template, "the first one as it was");
  assert.deepEqual(s.templates[0].point, first.point);
  // The new one's area is the engine's; the first one's cells are the engine's too, drawn faint.
  const mine = await answer(s.exported, { template: "15-foot-radius sphere", rules: "dnd5e", point: { x: 14, y: 8, z: 0 } });
  assert.deepEqual(s.cells.map((c) => `${c[0]},${c[1]}`).sort(), cellKeys(mine.cells));
  const old = await answer(s.exported, { template: first.template, rules: "dnd5e", point: first.point });
  assert.deepEqual(cellKeys(s.placedCells[0].cells), cellKeys(old.cells));
  // A square of the first area only is tinted; one of neither is the board's colour.
  const only = old.cells.find((c) => !mine.cells.some((m) => m[0] === c[0] && m[1] === c[1]) && !s.scene.tokens.some((e) => e.x === c[0] && e.y === c[1]) &&
    !(s.scene.caster.x === c[0] && s.scene.caster.y === c[1]) && !s.scene.obstacles.some((b) => b.x === c[0] && b.y === c[1]));
  assert.ok(only, "a square of the first area alone");
  const px = await page.evaluate(([x, y]) => globalThis.__aoekitDemo.pixel((x + 0.8) * globalThis.__aoekitDemo.sq, (y + 0.8) * globalThis.__aoekitDemo.sq), only);
  const board = await page.evaluate(() => globalThis.__aoekitDemo.pixel(0.5 * globalThis.__aoekitDemo.sq, 0.5 * globalThis.__aoekitDemo.sq));
  assert.notDeepEqual(px, board, `the first template's square ${only} is drawn`);
  assert.ok(px[0] > px[2] + 15, `tinted orange: ${px}`);
  // One undo step: undo takes the new template away, redo brings it back.
  await page.click("#undo");
  assert.equal((await look(page)).templates.length, 1);
  await page.click("#redo");
  assert.equal((await look(page)).templates.length, 2);
  await clean(page, problems);
});

test("demo templates: a D&D 5e cone's direction is the drag's angle in 15° steps (Foundry's), free with Alt; its length follows the drag", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await chooseRules(page, "dnd5e", "15-foot cone");
  await page.focus("#board");
  await page.keyboard.press("m");
  assert.equal(await page.getAttribute('button.tool[data-tool="template"]', "aria-pressed"), "true", "M chooses the Template tool");
  // 6 squares at atan2(3, 5.2) ≈ 30.0°… and at atan2(2, 5.66) ≈ 19.5°: 30° and 15° in steps; 19.47° free.
  await drag(page, [10, 5], [15.2, 8]);
  let s = await look(page);
  assert.equal(s.scene.template, `${Math.round(Math.hypot(5.2, 3)) * 5}-foot cone`);
  assert.equal(s.exported.toward, 30);
  assert.deepEqual(s.exported.point, { x: 10, y: 5, z: 0 });
  await drag(page, [10, 5], [15.66, 7]);
  s = await look(page);
  assert.equal(s.exported.toward, 15);
  await drag(page, [10, 5], [15.66, 7], { alt: true });
  s = await look(page);
  const free = (Math.atan2(2, 5.66) * 180) / Math.PI;
  assert.ok(Math.abs(s.exported.toward - free) < 0.6, `free with Alt: ${s.exported.toward} ≈ ${free}`);
  assert.equal(s.templates.length, 4);
  const mine = await answer(s.exported, { template: s.scene.template, rules: "dnd5e", point: s.exported.point, toward: s.exported.toward });
  assert.deepEqual(s.cells.map((c) => `${c[0]},${c[1]}`).sort(), cellKeys(mine.cells));
  await clean(page, problems);
});

test("demo templates: a TDGS cone drawn toward the south-east reads relative to the caster's facing (E: Con3NE) and points SE; a rectangle from corner to corner", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  const facing = (await look(page)).scene.caster.facing;
  assert.equal(facing, "E", "the sample's wizard faces E");
  await page.click('button.tool[data-tool="template"]');
  // Pressed in square (12, 4), released 3 squares south-east: SE is one step clockwise of E (SPEC §1.3).
  await drag(page, [12.5, 4.5], [15.5, 7.5]);
  let s = await look(page);
  assert.equal(s.scene.template, "Con3NE");
  assert.deepEqual(s.exported.origin, { x: 12, y: 4, z: 0 });
  assert.equal(s.result.direction, "SE", "the engine's answer points the way dragged");
  assert.match(await page.locator("#direction-note").textContent(), /Con3NE — relative to facing E: points SE/);
  // A rectangle: from (3, 2) to (6, 4): 4 wide, 3 long, anchored at its south-west corner (3, 4) (SPEC §2.7).
  await page.click('#palette button[data-rules="tdgs"][data-shape="rectangle"]');
  await drag(page, [3.5, 2.5], [6.5, 4.5]);
  s = await look(page);
  assert.equal(s.scene.template, "Rec4x3");
  assert.deepEqual(s.exported.origin, { x: 3, y: 4, z: 0 });
  const want = [];
  for (let x = 3; x <= 6; x++) for (let y = 2; y <= 4; y++) want.push(`${x},${y}`);
  const mine = await answer(s.exported, { template: "Rec4x3", origin: s.exported.origin });
  assert.deepEqual(cellKeys(mine.cells), want.sort(), "SPEC §2.7's cells, by the engine");
  assert.deepEqual(s.cells.map((c) => `${c[0]},${c[1]}`).sort(), want.sort());
  await clean(page, problems);
});

test("demo templates: a Draw Steel line runs from the square pressed along the compass direction nearest the drag", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await page.fill("#notation", "6 x 1 line within 3");
  await page.press("#notation", "Enter");
  await page.click('button.tool[data-tool="template"]');
  // From (6, 7) (beside the wizard at 5, 8) toward 4 squares east and 1 south: east, 5 squares long.
  await drag(page, [6.5, 7.5], [10.5, 8.4]);
  const s = await look(page);
  assert.equal(s.scene.template, "5 x 1 line within 3");
  assert.deepEqual(s.exported.origin, { x: 6, y: 7, z: 0 });
  assert.deepEqual(s.exported.aim, { x: 10, y: 7, z: 0 });
  assert.deepEqual(s.cells.map((c) => `${c[0]},${c[1]}`).sort(), ["6,7", "7,7", "8,7", "9,7", "10,7"].sort());
  await clean(page, problems);
});

test("demo templates: several on the board — a click selects one and the Targets list follows it; ✕ and Delete remove; Escape cancels a drag", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await page.fill("#notation", "Cir1");
  await page.press("#notation", "Enter");
  await page.click('button.tool[data-tool="template"]');
  // A second circle on the Goblin (8, 6): radius 1, dragged one square.
  await drag(page, [8.5, 6.5], [9.5, 6.5]);
  let s = await look(page);
  assert.equal(s.templates.length, 2);
  assert.deepEqual(s.exported.origin, { x: 8, y: 6, z: 0 });
  const second = await answer(s.exported, { template: "Cir1", origin: { x: 8, y: 6, z: 0 } });
  const targets = async () => page.$$eval("#targets > li button", (bs) => bs.map((b) => b.dataset.id).sort());
  assert.deepEqual(await targets(), second.targets.map((x) => x.id).sort(), "the Targets list is the new template's");
  assert.ok(second.targets.some((x) => x.id === "Goblin" && x.affected), "the Goblin is in the new circle");
  // Escape during a drag: nothing drawn.
  await drag(page, [18.5, 3.5], [20.5, 3.5], { release: false });
  await page.keyboard.press("Escape");
  await page.mouse.up();
  assert.equal((await look(page)).templates.length, 2, "a cancelled drag draws nothing");
  // A click on the first template's area (the Move tool) selects it: the list follows.
  const first = s.templates[0];
  await page.click('button.tool[data-tool="move"]');
  const firstAnswer = await answer(s.exported, { template: first.template, origin: first.origin });
  const free = firstAnswer.cells.find((c) => !second.cells.some((m) => m[0] === c[0] && m[1] === c[1]) && !s.scene.tokens.some((e) => c[0] >= e.x && c[0] < e.x + e.size && c[1] >= e.y && c[1] < e.y + e.size) && !(s.scene.caster.x === c[0] && s.scene.caster.y === c[1]));
  assert.ok(free, "a square of the first area alone");
  const p = await at(page, free[0] + 0.5, free[1] + 0.5);
  await page.mouse.click(p.x, p.y);
  s = await look(page);
  assert.equal(s.scene.at, 0, "the first template is selected");
  assert.deepEqual(s.exported.origin, first.origin);
  assert.deepEqual(await targets(), firstAnswer.targets.map((x) => x.id).sort(), "the Targets list is the first template's");
  assert.notDeepEqual(firstAnswer.targets.map((x) => x.id).sort(), second.targets.map((x) => x.id).sort(), "two lists to tell apart");
  assert.equal(await page.getAttribute('#templates button.template-pick[data-index="0"]', "aria-pressed"), "true");
  // The list selects too.
  await page.click('#templates button.template-pick[data-index="1"]');
  assert.equal((await look(page)).scene.at, 1);
  // ✕ removes one; the last one stays (its ✕ is disabled); Undo brings it back.
  await page.click('#templates button.template-remove[data-index="0"]');
  s = await look(page);
  assert.equal(s.templates.length, 1);
  assert.deepEqual(s.exported.origin, { x: 8, y: 6, z: 0 }, "the other one is selected");
  assert.equal(await page.isDisabled('#templates button.template-remove[data-index="0"]'), true);
  await page.click("#undo");
  assert.equal((await look(page)).templates.length, 2);
  // Delete, with the Template tool, removes the selected one.
  await page.click('button.tool[data-tool="template"]');
  await page.focus("#board");
  await page.keyboard.press("Delete");
  assert.equal((await look(page)).templates.length, 1);
  await clean(page, problems);
});

test("demo templates: Export carries every template and Import brings them all back; a file of one template still imports", async (t) => {
  const o = await open(t);
  if (!o) return;
  const { page, problems } = o;
  await page.click('button.tool[data-tool="template"]');
  await drag(page, [14.5, 5.5], [16.5, 5.5]);
  await drag(page, [12.5, 12.5], [12.5, 9.5]);
  const before = await look(page);
  assert.equal(before.templates.length, 3);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export")]);
  const text = readFileSync(await download.path(), "utf8");
  const exported = JSON.parse(text);
  assert.equal(exported.placed.length, 2, "the other two, beside the selected one's request");
  assert.equal(exported.placedAt, 2);
  // The file is still the selected template's evaluate request (CONTRACT: unknown fields are ignored).
  const { placed, placedAt, ...request } = exported;
  const aoe = await engine();
  assert.deepEqual(aoe.evaluate(exported).cells, aoe.evaluate(request).cells);
  // Replaced by the sample, then imported: all three back, the same one selected.
  await page.click("#sample");
  if (await page.locator("#confirm-replace").evaluate((d) => d.open)) await page.click("#confirm-replace-yes");
  await page.waitForFunction(() => globalThis.__aoekitDemo.templates().length === 1, null, WAIT);
  await importFile(page, "three.json", text);
  const after = await look(page);
  assert.doesNotMatch(await page.locator("#scene-message").textContent(), /Not used/);
  assert.deepEqual(after.templates.map((s) => s.template), before.templates.map((s) => s.template));
  assert.equal(after.scene.at, 2);
  assert.deepEqual(after.exported, exported, "exported again, the same file");
  assert.deepEqual(cellKeys(after.placedCells[0].cells), cellKeys(before.placedCells[0].cells));
  // An older file: one template, no `placed`.
  await importFile(page, "one.json", JSON.stringify(request));
  assert.equal((await look(page)).templates.length, 1);
  // A bad entry is refused with its place named, and the scene stays.
  const bad = { ...request, placed: [{ template: "Cir99999" }] };
  await importFile(page, "bad.json", JSON.stringify(bad));
  assert.match(await page.locator("#scene-message").textContent(), /placed\[0\]/);
  assert.equal((await look(page)).templates.length, 1);
  await clean(page, problems);
});
