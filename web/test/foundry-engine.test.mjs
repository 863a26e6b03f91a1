// The Foundry module's one engine a client (issue 31, item 5): with drawing on, a client loads
// only aoekit-overlay.wasm, whose engine answers every request, and a drag evaluates the template
// once a frame, as the overlay draws it, against a scene of that engine that keeps the board
// (the walls indexed once) and is changed only where the board changed; with drawing off, only
// aoekit.wasm, the same way. In Chromium against the stub of Foundry's globals
// (fixtures/foundry-harness.mjs), on the v13 fixture (fixtures/foundry-scene.json), counting the
// page's calls into each module (COUNT_CALLS) and the modules it fetched. The answers are checked
// against a reference that shares nothing with the module's scene: map.mjs's request for the
// same documents, board included, evaluated whole by the engine in Node.
//
// The board (square (x, y) starts at canvas pixel (400 + 100x, 300 + 100y), 5 ft a square): the
// fireball, made a 20-ft circle (a dnd5e sphere of 4 squares from its point), is placed on the
// Wizard's centre, point (6.5, 5.5). The Guard stands on (6, 2), 3 squares north of the point,
// behind the closed door on y = 3 from x = 5 to 7 (dOoRnOrTh): out of the area (walls shape a
// dnd5e area, SPEC §10) until the door opens. The Orc stands on (8, 5), east of the wall on
// x = 8 from y = 3 to 8 (wAlLeAsT): out of the area until it steps to (7, 5), 1 square from the
// point on this side.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as F from "../foundry/map.mjs";
import { WEB, engine } from "./helpers.mjs";
import { COUNT_CALLS, table } from "./fixtures/foundry-harness.mjs";

const V13 = JSON.parse(readFileSync(join(WEB, "test/fixtures/foundry-scene.json"), "utf8"));
const SCENE = V13.scene;
const FIREBALL = SCENE.templates.find((t) => t._id === "fIrEbAlL00000001");
const NAMES = Object.fromEntries(SCENE.tokens.map((t) => [t._id, t.name]));
const GUARD = "gUaRd00000000009";
const ORC = "oRc0000000000002";
const DOOR = "dOoRnOrTh0000002";

/**
 * The reference: map.mjs's whole request for the fireball at (x, y) on this board (a GM's
 * client: every token; the dnd5e rules of a dnd5e table, the scene's diagonals 0), evaluated
 * whole by the engine in Node; its targets joined per token, as the module reports them.
 */
async function reference({ x, y, tokens = SCENE.tokens, walls = SCENE.walls }) {
  const built = F.requestFor({ scene: SCENE, tokens, walls, template: { ...FIREBALL, distance: 20, x, y }, rules: "dnd5e", metric: F.metricOf(0) });
  const result = (await engine()).evaluate(built.request);
  return { result, targets: shape(F.mergeTargets(result.targets, built)) };
}

/** Targets as compared: by token, the fields the module reports. */
const shape = (targets) => targets.map(({ id, inArea, affected, cover, bonus }) => ({ id, inArea, affected, cover, bonus })).sort((a, b) => a.id.localeCompare(b.id));
const affected = (targets) => targets.filter((t) => t.affected).map((t) => NAMES[t.id]).sort();
const cells = (result) => result.cells.map((c) => c.join(",")).sort();

// A drag: the fireball's preview at each of these points (canvas pixels), one a frame.
const DRAG = [[1050, 850], [1075, 850], [1100, 860], [1125, 870], [1150, 880], [1175, 900], [1200, 900], [1250, 900], [1250, 950], [1300, 1000]];

/** In the page: the fireball placed by this user (createMeasuredTemplate), a 20-ft circle on the Wizard. */
const placeFireball = (page) => page.evaluate(async () => {
  const doc = templateDoc("fIrEbAlL00000001", { distance: 20 });
  onScene(doc);
  Hooks.callAll("createMeasuredTemplate", doc, {}, game.user.id);
  await wait();
});

/** In the page: the fireball's drag, a step a frame, and what each step cost. */
async function drag(page, steps) {
  return page.evaluate(async (steps) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    const api = game.modules.get("aoekit").api;
    const out = [];
    for (const [x, y] of steps) {
      const before = { evaluations: evaluations(), calls: moduleCalls() };
      Hooks.callAll("refreshMeasuredTemplate", { isPreview: true, document: templateDoc("fIrEbAlL00000001", { distance: 20, x, y }) }, {});
      await frame(); // the module's frame was asked for first: it ran before this one
      out.push({ evaluations: evaluations() - before.evaluations, before: before.calls, after: moduleCalls(), targets: api.last?.targets ?? null, painted: window.square(Math.floor((x - 400) / 100), Math.floor((y - 300) / 100), 0.3) });
    }
    return out;
  }, steps);
}

/** How many calls of `name` into `file` the page made between two moduleCalls() counts. */
const delta = (step, file, name) => (step.after[file]?.[name] ?? 0) - (step.before[file]?.[name] ?? 0);

/** The .wasm files the page fetched. */
const fetched = (page) => page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name.split("/").pop()).filter((n) => n.endsWith(".wasm")));

/**
 * The page idle a moment after loading (the module makes its scene then), as a table is before
 * a template is placed. Each loader warms its engine after it resolves, a call at a time when
 * the page is idle, and COUNT_CALLS counts those calls too: the table is settled once the page
 * has made no module call for 300 ms (600 ms at least, 15 s at most).
 */
const settle = (page) => page.evaluate(async () => {
  const start = performance.now();
  let last = JSON.stringify(moduleCalls());
  let quiet = 0;
  while (performance.now() - start < 15_000 && (quiet < 3 || performance.now() - start < 600)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = JSON.stringify(moduleCalls());
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
});

test("foundry in Chromium: 5. one engine — drawing on loads only aoekit-overlay.wasm, and a drag evaluates once a frame against the scene", async (t) => {
  const env = await table(t, { ...V13, corner: { x: 400, y: 300 } });
  if (!env) return;
  const page = await env.open({ isGM: true, system: "dnd5e", generation: 13, settings: { chatCards: false } }, { init: COUNT_CALLS });
  await settle(page);
  assert.deepEqual(await fetched(page), ["aoekit-overlay.wasm"], "one module downloaded: the overlay's, whose engine answers");

  // Placed, then dragged: each frame one evaluation, the overlay's draw, against the scene made
  // before (no scene made again, no whole-board evaluate), and the area drawn where it is.
  await placeFireball(page);
  const steps = await drag(page, DRAG);
  for (const [i, step] of steps.entries()) {
    assert.equal(step.evaluations, 1, `frame ${i}: ${step.evaluations} evaluations (${JSON.stringify(step.after)})`);
    assert.equal(delta(step, "aoekit-overlay.wasm", "draw"), 1, `frame ${i}: the overlay's draw is the evaluation`);
    assert.equal(delta(step, "aoekit-overlay.wasm", "sceneNew"), 0, `frame ${i}: no scene made again`);
    assert.equal(delta(step, "aoekit-overlay.wasm", "evaluate"), 0, `frame ${i}: no whole-board evaluation`);
    assert.equal(step.after["aoekit.wasm"], undefined, "aoekit.wasm never loaded");
    assert.ok(step.painted > 0, `frame ${i}: the area is drawn under the template's point`);
  }
  // Each frame's answer is the whole request's.
  for (const [i, [x, y]] of DRAG.entries()) assert.deepEqual(shape(steps[i].targets), (await reference({ x, y })).targets, `frame ${i} at (${x}, ${y})`);

  // The fireball put back on the Wizard; then the door north of it opens (updateWall) and the Orc
  // steps west of the east wall (updateToken): each is evaluated again in one frame, the scene
  // changed (scene.update), not made again.
  const placed = await page.evaluate(async () => {
    const doc = templateDoc("fIrEbAlL00000001", { distance: 20 });
    Hooks.callAll("updateMeasuredTemplate", doc, { x: doc.x, y: doc.y }, {}, game.user.id);
    await wait();
    return game.modules.get("aoekit").api.last.targets;
  });
  assert.deepEqual(shape(placed), (await reference({ x: 1050, y: 850 })).targets);
  assert.ok(!affected(placed).includes("Guard") && !affected(placed).includes("Orc"), `behind the door and the wall: ${affected(placed)}`);

  const changes = await page.evaluate(async ({ DOOR, ORC }) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
    const api = game.modules.get("aoekit").api;
    const out = {};
    let before = { evaluations: evaluations(), calls: moduleCalls() };
    const door = canvas.scene.walls.contents.find((w) => w.id === DOOR);
    door.ds = 1; // CONST.WALL_DOOR_STATES.OPEN, as Foundry updates the document, then calls the hook
    Hooks.callAll("updateWall", door, { ds: 1 }, {}, game.user.id);
    await frame();
    out.door = { evaluations: evaluations() - before.evaluations, before: before.calls, after: moduleCalls(), targets: api.last.targets };
    before = { evaluations: evaluations(), calls: moduleCalls() };
    const orc = canvas.scene.tokens.contents.find((d) => d.id === ORC);
    orc.x = 1100;
    Hooks.callAll("updateToken", orc, { x: 1100 }, {}, game.user.id);
    await frame();
    out.orc = { evaluations: evaluations() - before.evaluations, before: before.calls, after: moduleCalls(), targets: api.last.targets };
    // The whole answer, read from the hook's evaluation (and api.last): the overlay's last
    // draw's, no evaluation more.
    before = { evaluations: evaluations(), calls: moduleCalls() };
    const result = api.last.result;
    out.result = { evaluations: evaluations() - before.evaluations, count: result.count, cells: result.cells };
    return out;
  }, { DOOR, ORC });
  const open = SCENE.walls.map((w) => (w._id === DOOR ? { ...w, ds: 1 } : w));
  const moved = SCENE.tokens.map((tk) => (tk._id === ORC ? { ...tk, x: 1100 } : tk));
  for (const [what, step, ref] of [["door", changes.door, await reference({ x: 1050, y: 850, walls: open })], ["orc", changes.orc, await reference({ x: 1050, y: 850, walls: open, tokens: moved })]]) {
    assert.equal(step.evaluations, 1, `${what}: one evaluation`);
    assert.equal(delta(step, "aoekit-overlay.wasm", "sceneNew"), 0, `${what}: the scene is not made again`);
    assert.equal(delta(step, "aoekit-overlay.wasm", "sceneUpdate"), 1, `${what}: the scene is changed`);
    assert.deepEqual(shape(step.targets), ref.targets, what);
  }
  assert.ok(affected(changes.door.targets).includes("Guard"), "the door open, the Guard is in the fireball");
  assert.ok(!affected(changes.door.targets).includes("Orc"));
  assert.ok(affected(changes.orc.targets).includes("Orc"), "the Orc stepped west of the wall, into the fireball");
  const whole = await reference({ x: 1050, y: 850, walls: open, tokens: moved });
  assert.equal(changes.result.evaluations, 0, "the result is the last draw's");
  assert.equal(changes.result.count, whole.result.count);
  assert.deepEqual(cells(changes.result), cells(whole.result));
  assert.deepEqual(env.logs, []);
});

test("foundry in Chromium: 5. one engine — drawing off loads only aoekit.wasm; turned on, the overlay's engine takes over, still once a frame", async (t) => {
  const env = await table(t, { ...V13, corner: { x: 400, y: 300 } });
  if (!env) return;
  const page = await env.open({ isGM: true, system: "dnd5e", generation: 13, settings: { chatCards: false, overlay: false } }, { init: COUNT_CALLS });
  await settle(page);
  assert.deepEqual(await fetched(page), ["aoekit.wasm"], "drawing off: aoekit-overlay.wasm is never loaded");
  await placeFireball(page);
  const off = await drag(page, DRAG.slice(0, 4));
  for (const [i, step] of off.entries()) {
    assert.equal(step.evaluations, 1, `off, frame ${i}: ${JSON.stringify(step.after)}`);
    assert.equal(delta(step, "aoekit.wasm", "sceneEvaluate"), 1, `off, frame ${i}: the scene's evaluate`);
    assert.equal(delta(step, "aoekit.wasm", "sceneNew"), 0);
    assert.equal(step.painted, null, "nothing drawn: no overlay canvas");
    assert.deepEqual(shape(step.targets), (await reference({ x: DRAG[i][0], y: DRAG[i][1] })).targets, `off, frame ${i}`);
  }

  // Drawing turned on: aoekit-overlay.wasm loads, and its engine alone evaluates from then on.
  await page.evaluate(async () => {
    game.settings.set("aoekit", "overlay", true);
    for (let i = 0; i < 100 && !document.getElementById("aoekit-overlay"); i++) await wait(50);
    await wait();
  });
  await settle(page);
  assert.deepEqual(await fetched(page), ["aoekit.wasm", "aoekit-overlay.wasm"]);
  const on = await drag(page, DRAG.slice(4));
  for (const [i, step] of on.entries()) {
    assert.equal(step.evaluations, 1, `on, frame ${i}: ${JSON.stringify(step.after)}`);
    assert.equal(delta(step, "aoekit-overlay.wasm", "draw"), 1, `on, frame ${i}: the overlay's draw`);
    assert.equal(delta(step, "aoekit.wasm", "sceneEvaluate") + delta(step, "aoekit.wasm", "evaluate"), 0, `on, frame ${i}: aoekit.wasm no longer evaluates`);
    assert.ok(step.painted > 0, `on, frame ${i}: drawn`);
    assert.deepEqual(shape(step.targets), (await reference({ x: DRAG[4 + i][0], y: DRAG[4 + i][1] })).targets, `on, frame ${i}`);
  }

  // Turned off again: the overlay's engine goes on answering; nothing else is loaded.
  const again = await page.evaluate(async () => {
    game.settings.set("aoekit", "overlay", false);
    await wait();
    return { canvas: document.getElementById("aoekit-overlay"), notation: game.modules.get("aoekit").api.last?.notation };
  });
  assert.deepEqual(again, { canvas: null, notation: (await reference({ x: DRAG.at(-1)[0], y: DRAG.at(-1)[1] })).result.template.notation });
  assert.deepEqual(await fetched(page), ["aoekit.wasm", "aoekit-overlay.wasm"]);
  assert.deepEqual(env.logs, []);
});
