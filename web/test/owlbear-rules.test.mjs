// The Owlbear Rodeo extension's grid and rules: a grid aoekit has no rules for (hex, isometric,
// dimetric) gets one notice, not an error on every change; the rule set is the room's (its
// metadata, which the GM sets: TDGS, Draw Steel, 50 % circle, D&D 5e, Pathfinder 2e), and
// Owlbear's grid measurement (CHEBYSHEV, ALTERNATING, EUCLIDEAN, MANHATTAN) is aoekit's metric.
// The point-origin rule sets (SPEC §10, §11) read shapes and notations as their games do.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as O from "../owlbear/map.mjs";
import { assemble, openPopover, violations } from "./fixtures/owlbear-harness.mjs";
import { WEB, chromium, engine, serve, tempDir } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/owlbear-scene.json"), "utf8"));
const { items: ITEMS, grid: GRID } = FIXTURE;
const item = (name) => ITEMS.find((i) => i.name === name);
const id = (name) => item(name).id;
const NAMES = Object.fromEntries(ITEMS.map((i) => [i.id, i.name]));

async function run(input) {
  const built = O.requestFrom({ items: ITEMS, grid: GRID, ...input });
  const result = (await engine()).evaluate(built.request);
  const targets = O.mergeTargets(result.targets, built);
  return { request: built.request, result, byName: Object.fromEntries(targets.map((t) => [NAMES[t.id], t])) };
}

test("owlbear rules: one notice for a grid that is not square, none for a square one", () => {
  assert.equal(O.gridNotice("SQUARE"), null);
  assert.equal(O.gridNotice(undefined), null);
  for (const [type, name] of [["HEX_VERTICAL", "hexagonal (vertical)"], ["HEX_HORIZONTAL", "hexagonal (horizontal)"], ["ISOMETRIC", "isometric"], ["DIMETRIC", "dimetric"]]) {
    const text = O.gridNotice(type);
    assert.match(text, new RegExp(`grid is ${name.replace(/[()]/g, "\\$&")}\\.`));
    assert.match(text, /square grids only/);
    assert.match(text, /Square/);
  }
});

test("owlbear rules: the room's rule set and the grid's measurement", async () => {
  assert.deepEqual(Object.keys(O.METRICS), ["CHEBYSHEV", "ALTERNATING", "EUCLIDEAN", "MANHATTAN"]);
  assert.deepEqual(Object.keys(O.METRICS).map(O.metricOf), ["chebyshev", "alternating", "euclidean", "manhattan"]);
  assert.equal(O.metricOf("HEX"), undefined);
  assert.equal(O.metricOf(undefined), undefined);
  assert.equal(O.roomRules({ [O.RULES_KEY]: "pf2e" }), "pf2e");
  assert.equal(O.roomRules({ [O.RULES_KEY]: "dnd4e" }), null);
  assert.equal(O.roomRules({}), null);
  assert.equal(O.roomRules(undefined), null);
  assert.deepEqual([...O.RULES], ["tdgs", "drawsteel", "circle50", "dnd5e", "pf2e"]);
  // The measurement is the request's metric, whatever the rule set; none given, none set.
  for (const [measurement, metric] of Object.entries(O.METRICS)) {
    const { request } = O.requestFrom({ items: ITEMS, grid: { ...GRID, measurement }, notation: "2 cube within 3", rules: "drawsteel", casterId: id("Wizard") });
    assert.equal(request.metric, metric);
  }
  const { measurement: _, ...bare } = GRID;
  assert.equal(O.requestFrom({ items: ITEMS, grid: bare, notation: "Cir1", casterId: id("Wizard") }).request.metric, undefined);
  // It changes what range and emanations reach (SPEC §8.2, §10.6): a dnd5e 10-foot emanation
  // around the Wizard counts fewer squares as the metric grows stricter.
  const counts = {};
  for (const measurement of Object.keys(O.METRICS)) {
    counts[measurement] = (await run({ rules: "dnd5e", notation: "10-foot emanation", casterId: id("Wizard"), grid: { ...GRID, measurement } })).result.count;
  }
  assert.ok(counts.CHEBYSHEV > counts.ALTERNATING && counts.ALTERNATING > counts.EUCLIDEAN && counts.EUCLIDEAN > counts.MANHATTAN, JSON.stringify(counts));
  // Under Draw Steel, `within 1` from the Wizard (6, 5) to the Barrel's square (7, 6), a diagonal
  // step: 1 square by Chebyshev, 2 by Manhattan, out of range.
  const within = (measurement) => run({ rules: "drawsteel", notation: "1 cube within 1", casterId: id("Wizard"), originId: id("Barrel"), grid: { ...GRID, measurement } });
  assert.equal((await within("CHEBYSHEV")).result.count > 0, true);
  await assert.rejects(within("MANHATTAN"), /is 2 squares from the caster; the range is 1/);
});

test("owlbear rules: D&D 5e and Pathfinder 2e — shapes and notations as areas from a point", async () => {
  // The fireball circle (radius 2.5 squares, centred at (6.5, 5.5)): a 15-foot-radius sphere from
  // its centre (5 ft × round(2.5)); under pf2e a 15-foot burst on the intersection nearest it.
  const sphere = await run({ rules: "dnd5e", shapeId: id("Fireball") });
  assert.equal(sphere.request.template, "15-foot-radius sphere");
  assert.deepEqual(sphere.request.point, { x: 6.5, y: 5.5, z: 0 });
  assert.equal(sphere.request.origin, undefined);
  assert.equal(sphere.request.targeting, undefined, "no caster kept out: a fireball can catch its caster");
  // The Orc (8, 5) is behind the wall on x = 8: the clear path (SPEC §10.4) does not reach it.
  assert.equal(sphere.byName.Orc.inArea, false);
  assert.equal(sphere.byName.Wizard.affected, true);
  assert.deepEqual(O.coverText(sphere.byName.Ogre), "half +2");
  const burst = await run({ rules: "pf2e", shapeId: id("Fireball") });
  assert.deepEqual([burst.request.template, burst.request.point], ["15-foot burst", { x: 7, y: 6, z: 0 }]);
  assert.ok(["lesser +1", "hit"].includes(O.coverText(burst.byName.Ogre)));
  // A square is a cube from its north-west corner toward SE; a rectangle that is not is no area.
  const cube = O.requestFrom({ items: ITEMS.map((i) => (i.name === "Zone" ? { ...i, height: 450 } : i)), grid: GRID, rules: "dnd5e", shapeId: id("Zone") }).request;
  assert.deepEqual([cube.template, cube.point, cube.toward], ["15-foot cube", { x: 3, y: 2, z: 0 }, "SE"]);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, rules: "dnd5e", shapeId: id("Zone") }), /not square is not a D&D 5e area/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, rules: "pf2e", shapeId: id("Arrow") }), /triangle is not a Pathfinder 2e area/);
  // Notations: a sphere at the selected item's centre; a burst on the intersection nearest it; a
  // cube from its square's north-west corner toward SE; an emanation from the caster.
  const at = (notation, rules = "dnd5e") => O.requestFrom({ items: ITEMS, grid: GRID, rules, notation, casterId: id("Wizard"), originId: id("Barrel") }).request;
  assert.deepEqual(at("20-foot-radius sphere").point, { x: 7.5, y: 6.5, z: 0 });
  assert.deepEqual(at("20-foot burst", "pf2e").point, { x: 8, y: 7, z: 0 });
  assert.deepEqual([at("10-foot cube").point, at("10-foot cube").toward], [{ x: 7, y: 6, z: 0 }, "SE"]);
  const aura = O.requestFrom({ items: ITEMS, grid: GRID, rules: "dnd5e", notation: "10-foot emanation", casterId: id("Wizard") }).request;
  assert.deepEqual([aura.point, aura.toward, aura.caster.facing], [undefined, undefined, undefined]);
  // A cone or a line points at the one item selected after the caster, level with its origin
  // (the Wizard's mid-height); given two, the first is its point.
  const cone = O.requestFrom({ items: ITEMS, grid: GRID, rules: "dnd5e", notation: "15-foot cone", casterId: id("Wizard"), originId: id("Guard") }).request;
  assert.deepEqual([cone.point, cone.toward], [undefined, { x: 6.5, y: 2.5, z: 0.5 }]);
  const line = O.requestFrom({ items: ITEMS, grid: GRID, rules: "pf2e", notation: "60-foot line", casterId: id("Wizard"), originId: id("Barrel"), aimId: id("Guard") }).request;
  assert.deepEqual([line.point, line.toward], [{ x: 7.5, y: 6.5, z: 0.5 }, { x: 6.5, y: 2.5, z: 0.5 }]);
  const evaluated = (await engine()).evaluate(line);
  assert.ok(evaluated.count > 0);
  // What is missing is said.
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, rules: "dnd5e", notation: "15-foot cone", casterId: id("Wizard") }), /needs a direction/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, rules: "dnd5e", notation: "10-foot emanation", originId: id("Barrel") }), /comes from its caster/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, rules: "pf2e", notation: "  " }), /20-foot-radius sphere/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, rules: "dnd4e", notation: "Cir1" }), /rules must be one of/);
  // The games' grades on a label.
  assert.equal(O.coverText({ affected: true, cover: "threeQuarters", bonus: 5 }), "¾ +5");
  assert.equal(O.coverText({ affected: false, cover: "total", bonus: 0, reason: "cover" }), "total cover");
  assert.equal(O.coverText({ affected: true, cover: "greater", bonus: 4 }), "greater +4");
  // A token's least covered piece wins, with the games' grades too.
  const merged = O.mergeTargets([{ id: "h#0", inArea: true, affected: true, cover: "threeQuarters", bonus: 5 }, { id: "h#1", inArea: true, affected: true, cover: "half", bonus: 2 }], { pieces: { "h#0": "h", "h#1": "h" } });
  assert.deepEqual([merged.length, merged[0].cover], [1, "half"]);
});

const STATUS = () => document.getElementById("status").textContent;

test("owlbear rules: a hex grid gets one notice, no error and no drawing, until the grid is square (Chromium)", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = await assemble(tempDir(t, "aoekit-owlbear-rules-"));
  const { page, logs } = await openPopover(t, browser, dir, { items: ITEMS, grid: { ...GRID, type: "HEX_VERTICAL" }, selection: [id("Fireball")] }, { serve, prefs: { rules: "tdgs", live: true } });
  await page.waitForFunction(() => !document.getElementById("notice").hidden, null, { timeout: 60_000 }).catch((err) => {
    throw new Error(`${err.message}\n${logs.join("\n")}`);
  });
  const look = () => page.evaluate((status) => ({
    notices: [...document.querySelectorAll("#notice")].filter((n) => !n.hidden).map((n) => n.textContent),
    status: new Function(`return (${status})()`)(),
    error: document.getElementById("status").classList.contains("error"),
    list: document.querySelectorAll("#targets li").length,
    local: window.obr.local.length,
  }), STATUS.toString());
  // Owlbear changes things: the items, the grid's other settings, the selection. Still one notice.
  await page.evaluate(() => {
    window.obrChange("items", window.obr.items);
    window.obrChange("grid", { scale: "10ft" });
    window.obrChange("items", window.obr.items);
  });
  await page.waitForTimeout(400);
  const hex = await look();
  assert.equal(hex.notices.length, 1);
  assert.match(hex.notices[0], /^This scene's grid is hexagonal \(vertical\)\. .*square grids only/);
  assert.deepEqual([hex.status, hex.error, hex.list, hex.local], ["", false, 0, 0]);
  // Square again: no notice, the answer.
  await page.evaluate(() => window.obrChange("grid", { type: "SQUARE", scale: "5ft" }));
  await page.waitForFunction(() => document.querySelectorAll("#targets li").length > 0, null, { timeout: 30_000 });
  const square = await look();
  assert.deepEqual(square.notices, []);
  assert.match(square.status, /^Cir2: 50 squares/);
  assert.ok(square.local > 0);
  // And back to isometric: the drawing and list go, the notice comes.
  await page.evaluate(() => window.obrChange("grid", { type: "ISOMETRIC" }));
  await page.waitForFunction(() => !document.getElementById("notice").hidden, null, { timeout: 30_000 });
  await page.waitForTimeout(200);
  const iso = await look();
  assert.equal(iso.notices.length, 1);
  assert.match(iso.notices[0], /isometric/);
  assert.deepEqual([iso.error, iso.list, iso.local], [false, 0, 0]);
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), []);
});

test("owlbear rules: the popover follows the room's rule set, the GM sets it, distances follow the grid (Chromium)", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = await assemble(tempDir(t, "aoekit-owlbear-rules-"));
  // The player's own choice was TDGS; the room's is D&D 5e, the grid counts Alternating.
  const scene = { items: ITEMS, grid: { ...GRID, measurement: "ALTERNATING" }, selection: [id("Wizard")], room: { [O.RULES_KEY]: "dnd5e" }, role: "PLAYER" };
  const { page, logs } = await openPopover(t, browser, dir, scene, { serve, prefs: { rules: "tdgs", notation: "10-foot emanation", live: true } });
  await page.waitForFunction(() => /^10-foot emanation:/.test(document.getElementById("status").textContent), null, { timeout: 60_000 }).catch((err) => {
    throw new Error(`${err.message}\n${logs.join("\n")}`);
  });
  const count = (measurement) => run({ rules: "dnd5e", notation: "10-foot emanation", casterId: id("Wizard"), includeHidden: false, grid: { ...GRID, measurement } }).then((r) => r.result.count);
  const state = () => page.evaluate(() => ({ rules: document.getElementById("rules").value, disabled: document.getElementById("rules").disabled, status: document.getElementById("status").textContent, room: window.obr.room }));
  let s = await state();
  assert.equal(s.rules, "dnd5e");
  assert.equal(s.disabled, true, "a player does not choose the room's rule set");
  assert.match(s.status, new RegExp(`^10-foot emanation: ${await count("ALTERNATING")} squares`));
  // The grid measures Chebyshev now: more squares.
  await page.evaluate(() => window.obrChange("grid", { measurement: "CHEBYSHEV" }));
  await page.waitForFunction((n) => document.getElementById("status").textContent.startsWith(`10-foot emanation: ${n} squares`), await count("CHEBYSHEV"), { timeout: 30_000 });
  // The GM switches the room to Pathfinder: every popover follows; a Chebyshev grid is pointed out.
  await page.evaluate(() => window.obrChange("room", { "io.github.aoekit/rules": "pf2e" }));
  await page.waitForFunction(() => document.getElementById("rules").value === "pf2e" && /Alternating/.test(document.getElementById("status").textContent), null, { timeout: 30_000 });
  s = await state();
  assert.match(s.status, /^10-foot emanation: \d+ squares, \d+ affected\. \(This scene measures distances chebyshev: Pathfinder's are Alternating/);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(logs, []);

  // As the GM: the select is enabled, and a choice is written to the room's metadata.
  const gm = await openPopover(t, browser, dir, { ...scene, role: "GM", room: {} }, { serve, prefs: { rules: "drawsteel", notation: "2 burst", live: true } });
  await gm.page.waitForFunction(() => !document.getElementById("rules").disabled && /^2 burst:/.test(document.getElementById("status").textContent), null, { timeout: 60_000 });
  assert.equal((await gm.page.evaluate(() => window.obr.room))[O.RULES_KEY], "drawsteel", "a room with no rule set takes the GM's");
  await gm.page.evaluate(() => {
    const select = document.getElementById("rules");
    select.value = "circle50";
    select.dispatchEvent(new Event("change"));
  });
  await gm.page.waitForFunction(() => window.obr.room["io.github.aoekit/rules"] === "circle50", null, { timeout: 30_000 });
  assert.deepEqual(await violations(gm.page), []);
  assert.deepEqual(gm.logs, []);
});
