// The Foundry VTT module at a real table (issue: no leaks, the template the user drew, walls as
// Foundry means them): map.mjs on fixtures/foundry-scene.json — written field for field as v13
// stores a scene, its tokens, walls and measured templates, with the flags dnd5e's and pf2e's
// templates carry — evaluated with the real engine, and aoekit.mjs in Chromium against a stub of
// Foundry's globals that knows what a player sees (Token#isVisible), which game system runs, the
// scene's diagonal rule and the grid highlight layers. Expectations are worked out by hand from
// SPEC §5.6, §10 and §11 in the comments.
//
// The east wing of the fixture (squares x 13…19, y 8…15; square (x, y) starts at canvas pixel
// (400 + 100x, 300 + 100y), 5 ft a square and a level):
//   Windmage (13, 10) friendly, linked to its actor, flying at 30 ft (level 6) · Harpy (14, 10)
//   hostile, an unlinked token, at 30 ft · Gargoyle (15, 10) · Lookout (13, 12) · Sentry (17, 12)
//   hostile, on the ground · Lurker (14, 2) hostile, far from every template.
//   Walls: an invisible wall (move NORMAL, sight NONE) on x = 17 from y = 11 to 14; a terrain wall
//   (sight LIMITED) on x = 14 from y = 12 to 15; a window (sight PROXIMITY, thresholds 10 ft) on
//   y = 11 from x = 14 to 17; a one-way wall (dir LEFT) on x = 19 from y = 8 to 13, drawn
//   southward.
//   Templates: "shockwave", a 15-ft circle drawn on the grid intersection (15, 12) from the
//   canvas controls (no flags); "gust", a dnd5e 15-ft cone from the Windmage's centre eastward,
//   cast from its item (flags.dnd5e.origin/item name the linked actor); "screech", a pf2e
//   10-ft emanation around the Harpy (flags.pf2e.origin.actor names the unlinked token,
//   areaShape "emanation"). Every template has v13's `elevation: 0` and `sort`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as F from "../foundry/map.mjs";
import { table as foundryTable } from "./fixtures/foundry-harness.mjs";
import { ROOT, WEB, engine } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/foundry-scene.json"), "utf8"));
const SCENE = FIXTURE.scene;
const byName = (name) => SCENE.tokens.find((t) => t.name === name);
const tpl = (id) => SCENE.templates.find((t) => t._id.startsWith(id));
const wall = (id) => SCENE.walls.find((w) => w._id.startsWith(id));
const NAMES = Object.fromEntries(SCENE.tokens.map((t) => [t._id, t.name]));
const SHOCKWAVE = tpl("sHoCkWaVe");
const GUST = tpl("gUsT");
const SCREECH = tpl("sCrEeCh");
const FIREBALL = tpl("fIrEbAlL");
const SHATTER = tpl("sHaTtEr");
const RECT = tpl("wAlLoF");
const RAY = tpl("lIgHt");
const CONE = tpl("bUrNiNg");

async function run({ template, rules, tokens = SCENE.tokens, walls = SCENE.walls, ...rest }) {
  const built = F.requestFor({ scene: SCENE, tokens, walls, template, rules, ...rest });
  const result = (await engine()).evaluate(built.request);
  const targets = F.mergeTargets(result.targets, built);
  const byToken = Object.fromEntries(targets.map((t) => [NAMES[t.id] ?? t.id, t]));
  return { built, request: built.request, result, targets, byToken, affected: F.affectedIds(targets).map((id) => NAMES[id] ?? id).sort() };
}
const level = (result, z) => result.cells.filter((c) => c[2] === z);
const key = (cells) => cells.map(([x, y]) => `${x},${y}`).sort();

/** The fields a foundry-vtt-types document Schema declares (its own, not those it extends). */
function schemaFields(file) {
  const src = readFileSync(join(ROOT, "node_modules/@league-of-foundry-developers/foundry-vtt-types/src/foundry/client/documents", file), "utf8");
  const body = /\n  interface Schema extends \w+ \{\n([\s\S]*?)\n  \}\n/.exec(src)[1];
  return [...body.matchAll(/^ {4}(\w+):/gm)].map((m) => m[1]);
}

// ---------------------------------------------------------------------------------------------
// 2. The fixtures are v13's data, field for field.

test("foundry table: fixture templates and walls have every field v13's schema has, in its order; tokens every field of theirs", () => {
  const template = schemaFields("measured-template.d.mts");
  assert.deepEqual(template, ["_id", "author", "t", "x", "y", "elevation", "sort", "distance", "direction", "angle", "width", "borderColor", "fillColor", "texture", "hidden", "flags"]);
  for (const t of SCENE.templates) {
    assert.deepEqual(Object.keys(t), template, t._id);
    assert.equal(typeof t.elevation, "number", `${t._id}: v13 stores an elevation on every template`);
    assert.ok(Number.isInteger(t.x) && Number.isInteger(t.y) && Number.isInteger(t.sort), `${t._id}: x, y and sort are integers`);
  }
  const walls = schemaFields("wall.d.mts");
  for (const w of SCENE.walls) assert.deepEqual(Object.keys(w), walls, w._id);
  const tokens = schemaFields("token.d.mts");
  for (const t of SCENE.tokens) for (const f of tokens) assert.ok(f in t, `${t.name} lacks ${f}`);
});

// ---------------------------------------------------------------------------------------------
// 2. Template elevation on real v13 data.

test("foundry table: a template's height — its elevation when set, else its caster's (the system's flags), else Levels'", () => {
  const frame = F.frameOf(SCENE);
  assert.ok(frame);
  // Who cast it, by the flags dnd5e and pf2e write.
  assert.deepEqual(F.originOf(GUST), { actor: "aCtOrWiNdMaGe011" }, "dnd5e: an activity of a world actor's item");
  assert.deepEqual(F.originOf(SCREECH), { token: "hArPy00000000012" }, "pf2e: an unlinked token's actor");
  assert.deepEqual(F.originOf({ flags: { dnd5e: { origin: "Scene.sCeNeCrYpT000001.Token.oRc0000000000002.Actor.aCtOrOrC00000002.Item.x.Activity.y" } } }), { token: "oRc0000000000002" });
  assert.deepEqual(F.originOf({ flags: { pf2e: { origin: { uuid: "Actor.aCtOrWiNdMaGe011.Item.z" } } } }), { actor: "aCtOrWiNdMaGe011" });
  assert.equal(F.originOf(FIREBALL), null, "drawn from the canvas controls: no caster");
  assert.equal(F.originOf({ flags: { dnd5e: { origin: "Compendium.dnd5e.spells.Item.x" } } }), null);

  // The rule: v13's elevation 0 is "not set" unless flagged.
  const windmage = byName("Windmage");
  assert.deepEqual(F.templateElevation(GUST, windmage), { elevation: 30, from: "caster" });
  assert.deepEqual(F.templateElevation({ ...GUST, elevation: 10 }, windmage), { elevation: 10, from: "template" });
  assert.deepEqual(F.templateElevation({ ...GUST, flags: { ...GUST.flags, aoekit: { elevation: true } } }, windmage), { elevation: 0, from: "template" });
  assert.deepEqual(F.templateElevation({ ...FIREBALL, flags: { levels: { elevation: 15 } } }, null), { elevation: 15, from: "levels" });
  assert.deepEqual(F.templateElevation({ ...FIREBALL, flags: { levels: { elevation: 15 } } }, windmage), { elevation: 30, from: "caster" });
  assert.deepEqual(F.templateElevation(FIREBALL, null), { elevation: 0, from: "none" });
});

test("foundry table: a cone from a wizard flying at 30 ft hits the harpy flying beside him, not the gargoyle below", async () => {
  // The gust: v13 stores elevation 0; its dnd5e flags name the Windmage's actor, whose one token
  // flies at 30 ft (level 6). TDGS: Con3E from the Windmage's square (13, 10) at level 6 covers
  // (14, 10); (15, 9…11); (16, 8…12) on levels 5…7: the Harpy (14, 10, level 6) is in it, the
  // Gargoyle on the ground at (15, 10) is not.
  const tdgs = await run({ template: GUST, rules: "tdgs" });
  assert.deepEqual(tdgs.request.origin, { x: 13, y: 10, z: 6 });
  assert.equal(tdgs.built.casterId, byName("Windmage")._id);
  assert.deepEqual(tdgs.affected, ["Harpy"]);
  assert.equal(tdgs.byToken.Gargoyle, undefined);
  // dnd5e: a 53.13° cone from the Windmage's centre (13.5, 10.5) at its mid-height 6.5, east:
  // the Harpy's centre (14.5, 10.5, 6.5) lies 1 ahead on the axis; the Gargoyle's (15.5, 10.5,
  // 0.5) is 6 below, far outside the cone's half-angle (tan ½: 6 > 2 / 2).
  const dnd = await run({ template: GUST, rules: "dnd5e" });
  assert.deepEqual(dnd.request.point, { x: 13.5, y: 10.5, z: 6.5 });
  assert.deepEqual(dnd.affected, ["Harpy"]);
  assert.equal(dnd.byToken.Windmage.affected, false, "the caster is not in its own cone");
  // The user set the template's height: 5 ft (level 1) is what counts, not the caster's.
  const low = await run({ template: { ...GUST, elevation: 5 }, rules: "tdgs" });
  assert.equal(low.request.origin.z, 1);
  assert.ok(!low.affected.includes("Harpy"));
  // Set to the ground on purpose (0, flagged): the Gargoyle's level.
  const ground = await run({ template: { ...GUST, flags: { ...GUST.flags, aoekit: { elevation: true } } }, rules: "dnd5e" });
  assert.equal(ground.request.point.z, 0.5, "a one-square caster's mid-height above the floor of level 0");
  assert.ok(ground.affected.includes("Gargoyle"));
  // The pf2e screech names the unlinked Harpy token: a 10-ft emanation from its space at level 6
  // reaches the Windmage beside it (pf2e distance 1) and affects the Harpy itself (pf2e: the
  // caster is in its own emanation), not the Gargoyle 6 levels below.
  const screech = await run({ template: SCREECH, rules: "pf2e" });
  assert.deepEqual(screech.request.template, { rules: "pf2e", shape: "emanation", radius: 2 });
  assert.equal(screech.request.caster.id, byName("Harpy")._id);
  assert.equal(screech.request.caster.z, 6);
  assert.deepEqual(screech.affected, ["Harpy", "Windmage"]);
});

// ---------------------------------------------------------------------------------------------
// 3. The template Foundry drew.

test("foundry table: dnd5e — a circle on an intersection is a sphere from that point, not moved to a square", async () => {
  // A 20-ft circle on the intersection (15, 12), on an open board: SPEC §10.5's picture, 13
  // squares a quadrant, 52 on level 0, its corners the intersection. The sphere's centre is half
  // a level up, at the height of level 0's square centres: on that level it takes the squares
  // whose centres Foundry's circle covers. TDGS moves it to the square
  // south-east of the point and draws Cir4: 72 squares centred on (15, 12).
  const open = { tokens: [], walls: [] };
  const dnd = await run({ template: { ...SHOCKWAVE, distance: 20 }, rules: "dnd5e", ...open });
  assert.deepEqual(dnd.request.template, { rules: "dnd5e", shape: "sphere", radius: 4 });
  assert.deepEqual(dnd.request.point, { x: 15, y: 12, z: 0.5 });
  const cells = level(dnd.result, 0);
  assert.equal(cells.length, 52);
  for (const [qx, qy] of [[1, 1], [-1, 1], [1, -1], [-1, -1]]) {
    assert.equal(cells.filter(([x, y]) => (x + 0.5 - 15) * qx > 0 && (y + 0.5 - 12) * qy > 0).length, 13, `quadrant ${qx}, ${qy}`);
  }
  const tdgs = await run({ template: { ...SHOCKWAVE, distance: 20 }, rules: "tdgs", ...open });
  assert.equal(tdgs.request.template, "Cir4");
  assert.equal(level(tdgs.result, 0).length, 72);
  // Sizes are whole squares: 12 ft is 2, 12.5 ft 3 (the nearest; a half up).
  assert.equal((await run({ template: { ...SHOCKWAVE, distance: 12 }, rules: "dnd5e", ...open })).request.template.radius, 2);
  assert.equal((await run({ template: { ...SHOCKWAVE, distance: 12.5 }, rules: "dnd5e", ...open })).request.template.radius, 3);
  // A dnd5e cylinder (its flags give the height), and a 2024 emanation drawn around a token
  // (adjustedSize: the template is 10 ft plus half the Harpy): an emanation of 10 ft from it.
  const cylinder = await run({ template: { ...SHOCKWAVE, flags: { dnd5e: { dimensions: { size: "15", height: "40", adjustedSize: false } } } }, rules: "dnd5e", ...open });
  assert.deepEqual(cylinder.request.template, { rules: "dnd5e", shape: "cylinder", radius: 3, height: 8 });
  const aura = await run({ template: { ...SCREECH, distance: 12.5, flags: { dnd5e: { dimensions: { size: 10, adjustedSize: true } } } }, rules: "dnd5e" });
  assert.deepEqual(aura.request.template, { rules: "dnd5e", shape: "emanation", radius: 2 });
  assert.equal(aura.request.caster.id, byName("Harpy")._id);
  assert.deepEqual(aura.affected, ["Windmage"], "a dnd5e emanation leaves out its creature (SPEC §10.5)");
});

test("foundry table: dnd5e — a cone keeps its angle and direction; rays are lines; rects cubes or the box of their squares", async () => {
  const open = { tokens: [], walls: [] };
  const cone = (changes) => run({ template: { ...GUST, x: 1900, y: 1500, flags: {}, ...changes }, rules: "dnd5e", ...open });
  // From the intersection (15, 12) toward 30° (not snapped: TDGS would make it Con3SE). The
  // 53.13° cone covers (15, 12), (16, 12), (17, 12), (16, 13), (17, 13); at 90° three more:
  // (17, 11) above, (15, 13) and (16, 14) below its axis.
  const narrow = await cone({ direction: 30, angle: 53.13 });
  assert.equal(narrow.request.toward, 30);
  assert.deepEqual(narrow.request.template, { rules: "dnd5e", shape: "cone", length: 3, base: "round", angle: 53.13 });
  assert.deepEqual(key(level(narrow.result, 0)), key([[15, 12], [16, 12], [17, 12], [16, 13], [17, 13]]));
  const wide = await cone({ direction: 30, angle: 90 });
  assert.deepEqual(key(level(wide.result, 0)), key([[17, 11], [15, 12], [16, 12], [17, 12], [15, 13], [16, 13], [17, 13], [16, 14]]));
  assert.equal((await run({ template: { ...GUST, x: 1900, y: 1500, direction: 30, flags: {} }, rules: "tdgs", ...open })).request.template, "Con3SE");
  // A ray 30 ft long and 10 ft wide from the Wizard's centre (6.5, 5.5), south: a line 6 long
  // and 2 wide (and 2 high, on the floor: z 0 + 1), the squares whose centres are within 1 of
  // its axis — x 5…7 — from a = 0 to 6: rows 5…11.
  const ray = await run({ template: RAY, rules: "dnd5e", ...open });
  assert.deepEqual([ray.request.template, ray.request.point, ray.request.toward], [{ rules: "dnd5e", shape: "line", length: 6, width: 2 }, { x: 6.5, y: 5.5, z: 1 }, 90]);
  assert.equal(level(ray.result, 0).length, 21);
  // Rects: the fixture's 3 × 2 rectangle (squares 3…5 × 2…3) is the box of those 6 squares — a
  // line 3 long and 2 wide from the middle of its west side (3, 3), east — and a square one
  // drawn from (3, 2) toward the south-east is a cube from that corner; drawn back from (5, 4),
  // toward the north-west, the same squares.
  const box = await run({ template: RECT, rules: "dnd5e", ...open });
  assert.deepEqual([box.request.template, box.request.point, box.request.toward], [{ rules: "dnd5e", shape: "line", length: 3, width: 2 }, { x: 3, y: 3, z: 1 }, "E"]);
  assert.deepEqual(key(level(box.result, 0)), key([[3, 2], [4, 2], [5, 2], [3, 3], [4, 3], [5, 3]]));
  const square = { ...RECT, distance: Math.hypot(2, 2) * 5, direction: 45 };
  const cube = await run({ template: square, rules: "dnd5e", ...open });
  assert.deepEqual([cube.request.template, cube.request.point, cube.request.toward], [{ rules: "dnd5e", shape: "cube", side: 2 }, { x: 3, y: 2, z: 0 }, "SE"]);
  const back = await run({ template: { ...square, x: 900, y: 700, direction: 225 }, rules: "dnd5e", ...open });
  assert.deepEqual([back.request.point, back.request.toward], [{ x: 5, y: 4, z: 0 }, "NW"]);
  assert.deepEqual(key(level(back.result, 0)), key(level(cube.result, 0)));
  assert.deepEqual(key(level(cube.result, 0)), key([[3, 2], [4, 2], [3, 3], [4, 3]]));
});

test("foundry table: pf2e — bursts from intersections, quarter-circle cones from the edge, emanations, by pf2e's distance", async () => {
  const open = { tokens: [], walls: [] };
  // A 20-ft circle on an intersection: a burst, 44 squares (SPEC §11.2's picture).
  const burst = await run({ template: { ...SHOCKWAVE, distance: 20 }, rules: "pf2e", ...open });
  assert.deepEqual([burst.request.template, burst.request.point], [{ rules: "pf2e", shape: "burst", radius: 4 }, { x: 15, y: 12, z: 0 }]);
  assert.equal(level(burst.result, 0).length, 44);
  // A 10-ft circle centred on a square (the fireball, on the Wizard's): pf2e measures from that
  // centre, which is a one-square space's emanation — the Wizard's own: 21 squares (the 5 × 5
  // box less its corners: distance 2 + ⌊2/2⌋ = 3).
  const centred = await run({ template: FIREBALL, rules: "pf2e", tokens: [byName("Wizard")], walls: [] });
  assert.deepEqual(centred.request.template, { rules: "pf2e", shape: "emanation", radius: 2 });
  assert.equal(centred.request.caster.id, byName("Wizard")._id);
  assert.equal(level(centred.result, 0).length, 21);
  assert.deepEqual(centred.affected, ["Wizard"], "pf2e: an emanation affects its centre's creature");
  // Cones: aimed at the nearest of the eight directions; from the Wizard's centre, pf2e starts
  // the cone on the square's edge (east: (7, 5.5); 40° → south-east: its corner (7, 6)), and
  // counts 7 (1, 3, 3) and 6 squares (SPEC §11.2).
  const east = await run({ template: { ...CONE, direction: 10 }, rules: "pf2e", ...open });
  assert.deepEqual([east.request.point, east.request.toward, level(east.result, 0).length], [{ x: 7, y: 5.5, z: 0.5 }, "E", 7]);
  const se = await run({ template: { ...CONE, direction: 40 }, rules: "pf2e", ...open });
  assert.deepEqual([se.request.point, se.request.toward, level(se.result, 0).length], [{ x: 7, y: 6, z: 0.5 }, "SE", 6]);
});

test("foundry table: the rule set by game system, the scene's diagonals as dnd5e's metric, a world setting to force one", async () => {
  assert.equal(F.rulesFor("auto", "dnd5e"), "dnd5e");
  assert.equal(F.rulesFor("auto", "pf2e"), "pf2e");
  assert.equal(F.rulesFor("auto", "swade"), "dnd5e", "other systems: dnd5e's geometry");
  assert.equal(F.rulesFor(undefined, "draw-steel"), "dnd5e");
  for (const forced of ["tdgs", "drawsteel", "circle50", "dnd5e", "pf2e"]) assert.equal(F.rulesFor(forced, "pf2e"), forced);
  // CONST.GRID_DIAGONALS: EQUIDISTANT, EXACT, APPROXIMATE, RECTILINEAR, ALTERNATING_1, ALTERNATING_2, ILLEGAL.
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, undefined].map(F.metricOf), ["chebyshev", "euclidean", "alternating", "manhattan", "alternating", "alternating", "manhattan", "chebyshev"]);
  // The metric rides with dnd5e requests (range, emanations); pf2e keeps its own 5-10 rule.
  assert.equal((await run({ template: SHOCKWAVE, rules: "dnd5e", metric: "alternating" })).request.metric, "alternating");
  assert.equal((await run({ template: SHOCKWAVE, rules: "pf2e", metric: "chebyshev" })).request.metric, undefined);
  assert.throws(() => F.requestFor({ scene: SCENE, template: FIREBALL, rules: "hexes" }), /rules must be one of tdgs, drawsteel, circle50, dnd5e, pf2e/);
});

// ---------------------------------------------------------------------------------------------
// 4. Walls as Foundry means them.

test("foundry table: which walls block — movement and sight by default; terrain walls never; windows and doors as they are", () => {
  const frame = F.frameOf(SCENE);
  const as = (id, sense) => F.wallFrom(wall(id), frame, sense ? { sense } : {});
  // Plain wall: always. Invisible (sight NONE): only when movement alone counts. Ethereal
  // curtain (move NONE): only when sight alone counts. Terrain (LIMITED): never. Window
  // (PROXIMITY, with thresholds): by default and for sight, at every distance.
  const table = ["wAlLeAsT", "iNvIsIbLe", "cUrTaIn", "tErRaInWaLl", "wInDoW"].map((id) => [id, ["both", "move", "sight"].map((s) => as(id, s) !== null)]);
  assert.deepEqual(Object.fromEntries(table), {
    wAlLeAsT: [true, true, true],
    iNvIsIbLe: [false, true, false],
    cUrTaIn: [false, false, true],
    tErRaInWaLl: [false, false, false],
    wInDoW: [true, true, true],
  });
  assert.equal(as("iNvIsIbLe"), null, "the default is both");
  // One-way walls keep their direction only where asked (the point-origin rule sets).
  assert.equal(F.wallFrom(wall("oNeWaY"), frame).from, undefined);
  assert.equal(F.wallFrom(wall("oNeWaY"), frame, { oneWay: true }).from, "left");
  assert.equal(F.wallFrom({ ...wall("oNeWaY"), dir: 2 }, frame, { oneWay: true }).from, "right");
  assert.equal(F.wallFrom({ ...wall("oNeWaY"), dir: 0 }, frame, { oneWay: true }).from, undefined);
});

test("foundry table: an invisible wall at a balcony edge gives no cover, nor a terrain wall; a window does", async () => {
  // The shockwave (15 ft, Cir3 on the square (15, 12) under TDGS; a sphere of 3 from the
  // intersection (15, 12) under dnd5e). The Sentry (17, 12) is behind the invisible wall on
  // x = 17, the Lookout (13, 12) behind the terrain wall on x = 14, the Gargoyle (15, 10) behind
  // the window on y = 11. Before, every wall that restricts movement counted: all three had
  // full cover.
  const tdgs = await run({ template: SHOCKWAVE, rules: "tdgs" });
  assert.deepEqual([tdgs.byToken.Sentry.cover, tdgs.byToken.Lookout.cover, tdgs.byToken.Gargoyle.cover], ["none", "none", "full"]);
  assert.deepEqual(tdgs.affected, ["Lookout", "Sentry"]);
  const dnd = await run({ template: SHOCKWAVE, rules: "dnd5e" });
  assert.deepEqual(dnd.affected, ["Lookout", "Sentry"]);
  assert.equal(dnd.byToken.Gargoyle.inArea, false, "the window stops the sphere");
  // Counting walls that stop movement only, the invisible wall cuts the Sentry off.
  const move = await run({ template: SHOCKWAVE, rules: "dnd5e", sense: "move" });
  assert.deepEqual(move.affected, ["Lookout"]);
  assert.equal(move.byToken.Sentry.reason, "barrier");
  // An open door blocks nothing under dnd5e either: the Guard (6, 2) behind the north door (y = 3,
  // x 5…7), 3 squares from the Wizard's centre, is in the 15-ft sphere while the door is open and
  // cut off while it is shut or locked.
  const door = wall("dOoRnOrTh");
  const guard = async (ds) => (await run({ template: SHATTER, rules: "dnd5e", walls: [{ ...door, ds }], tokens: [byName("Guard"), byName("Wizard")] })).byToken.Guard;
  assert.equal((await guard(0))?.inArea ?? false, false);
  assert.equal((await guard(2))?.inArea ?? false, false);
  assert.equal((await guard(1)).affected, true);
});

test("foundry table: one-way walls block as Foundry's sweep does (LEFT/RIGHT by orient2dFast), under dnd5e and pf2e", async () => {
  // Foundry: Edge#orientPoint(p) is LEFT (1) when orient2dFast(a, b, p) < 0, RIGHT (2) when > 0,
  // with orient2dFast(a, b, c) = (a.y − c.y)(b.x − c.x) − (a.x − c.x)(b.y − c.y); the sweep
  // (ClockwiseSweepPolygon#_testEdgeInclusion) ignores a one-way edge when its origin's side is
  // the edge's direction. So a wall blocks a ray when the ray's origin is on the other side.
  const orient2dFast = (a, b, c) => (a.y - c.y) * (b.x - c.x) - (a.x - c.x) * (b.y - c.y);
  const foundryBlocks = (w, origin) => {
    const [ax, ay, bx, by] = w.c;
    const o = orient2dFast({ x: ax, y: ay }, { x: bx, y: by }, origin);
    const side = o < 0 ? 1 : o > 0 ? 2 : 0;
    return side !== 0 && side !== w.dir;
  };
  // A 10-ft sphere on one side of the wall on x = 19 (canvas x 2300) and a token on the other:
  // from the intersection (18, 10) (canvas (2200, 1300)) to an Imp on (19, 10), and from (20, 10)
  // (canvas (2400, 1300)) to an Imp on (18, 10). Each is 1.5, 0.5 from the point: in the sphere
  // unless the wall stops it.
  const base = wall("oNeWaY");
  const imp = (sq) => ({ ...byName("Harpy"), _id: "iMp", name: "Imp", x: 400 + 100 * sq, y: 1300, elevation: 0 });
  let checked = 0;
  for (const rules of ["dnd5e", "pf2e"]) {
    for (const dir of [1, 2]) {
      for (const c of [base.c, [base.c[2], base.c[3], base.c[0], base.c[1]]]) {
        for (const [px, sq] of [[2200, 19], [2400, 18]]) {
          const w = { ...base, dir, c };
          const template = { ...SHOCKWAVE, x: px, y: 1300, distance: 10 };
          const { byToken } = await run({ template, rules, tokens: [imp(sq)], walls: [w] });
          const blocked = foundryBlocks(w, { x: px, y: 1300 });
          assert.equal(byToken.iMp.inArea, !blocked, `${rules}, dir ${dir}, c ${c}, from x ${px}`);
          checked++;
        }
      }
    }
  }
  assert.equal(checked, 16);
  // The fixture's wall, drawn southward with dir LEFT: Foundry calls the east side RIGHT, so it
  // stops what comes from the east and lets the west through.
  assert.equal(foundryBlocks(base, { x: 2400, y: 1300 }), true);
  assert.equal(foundryBlocks(base, { x: 2200, y: 1300 }), false);
  // TDGS and the others take no one-way walls: it blocks both ways there, and no `from` is sent.
  const tdgs = await run({ template: { ...SHOCKWAVE, x: 2200, y: 1300, distance: 10 }, rules: "tdgs", tokens: [imp(19)], walls: [base] });
  assert.equal(tdgs.request.walls[0].from, undefined);
  assert.equal(tdgs.byToken.iMp.cover, "full");
});

// ---------------------------------------------------------------------------------------------
// The module in Chromium.

// The stub of Foundry's globals aoekit.mjs uses (fixtures/foundry-harness.mjs) as these tests
// have it: v13 (no release generation: the module takes 13), templates placed by their hooks
// alone (`known`: templateDoc's are on the scene, none drawn at load) and a listener on
// aoekit.evaluated. A page's options: {isGM, system, settings, fogged: [token ids a player's
// vision does not reach], diagonals}. Tokens' placeables answer isVisible as v13's
// Token#isVisible does for these cases (a GM with no token controlled sees every token; a
// player no hidden one, nor one in the fog); templates' answer highlightId, and
// canvas.interface.grid keeps a highlight layer per id. The view: zoomed to 0.2, the canvas
// pixel (400, 300) — square (0, 0)'s corner — at (20, 10) on screen: squares 20 pixels.
const V13 = { generation: 13, known: true, evaluated: true };

const HOSTILE = [0xd3, 0x2f, 0x2f]; // SIDE_COLOURS.hostile, #d32f2f

/** Chromium with the stubbed Foundry on the fixture: `open(options)`, a page ready; `logs`, its errors. */
const table = (t) => foundryTable(t, FIXTURE, { defaults: V13 });

/** Places a template (createMeasuredTemplate by this user) and returns what the module did. */
async function place(page, id, changes = {}, squares = {}) {
  return page.evaluate(async ({ id, changes, squares, hostile }) => {
    const before = calls.targets.length;
    Hooks.callAll("createMeasuredTemplate", templateDoc(id, changes), {}, game.user.id);
    await wait();
    const last = game.modules.get("aoekit").api.last;
    const names = Object.fromEntries((await (await fetch("/fixture.json")).json()).scene.tokens.map((t) => [t._id, t.name]));
    const pieces = (last?.request.tokens ?? []).map((p) => names[p.id.replace(/#\d+$/, "")] ?? p.id);
    return {
      notation: last?.notation,
      request: last?.request,
      reported: (last?.targets ?? []).map((t) => names[t.id]).sort(),
      targeted: calls.targets.slice(before).flatMap((c) => c.ids.map((i) => names[i])).sort(),
      pieces: [...new Set(pieces)].sort(),
      squares: Object.fromEntries(Object.entries(squares).map(([k, [x, y, inset]]) => [k, window.pixels(x, y, { rgb: hostile, inset })])),
      highlight: window.highlight(id),
      warnings: calls.warnings,
    };
  }, { id, changes, squares, hostile: HOSTILE });
}

test("foundry table in Chromium: 1. never reveal — a fogged token gets no ring, no label, no target, no count; the GM sees all", async (t) => {
  const env = await table(t);
  if (!env) return;
  // Under TDGS (the rule set does not matter here): the Ogre (3…4, 4…5) stands in shatter's
  // Cir3 (3…9 × 2…8), the Lurker (14, 2) far from it. A player whose vision reaches neither: the
  // Ogre is not in the request (no target, no entry in the answer, nothing the answer counts),
  // and neither gets a ring; the area's squares are still drawn.
  const squares = { ogre: [3, 4], lurker: [14, 2], area: [6, 7, 0.25] };
  const settings = { rules: "tdgs" };
  const player = await env.open({ isGM: false, settings, fogged: [byName("Ogre")._id, byName("Lurker")._id] });
  const p = await place(player, "sHaTtEr000000005", { author: "pLaYeR0000000001" }, squares);
  assert.deepEqual(p.warnings, []);
  assert.equal(p.notation, "Cir3");
  for (const name of ["Ogre", "Lurker", "Scout"]) {
    assert.ok(!p.pieces.includes(name), `${name} is not in the player's request`);
    assert.ok(!p.reported.includes(name), `${name} is not in the player's answer`);
    assert.ok(!p.targeted.includes(name), `${name} is not targeted`);
  }
  assert.deepEqual(p.targeted, ["Cart", "Owl", "Pixie", "Wagon", "Wizard"]);
  assert.equal(p.squares.ogre.ring, 0, "no ring on the fogged Ogre");
  assert.equal(p.squares.lurker.painted, 0, "nothing drawn on the fogged Lurker");
  assert.ok(p.squares.area.painted > 0, "the area is drawn");
  // The GM, same template: every token is known; the Ogre is in the area, ringed and targeted,
  // and so is the hidden Scout. The Lurker, outside the area, is not drawn at all: the overlay
  // draws only the tokens the answer is about (unlisted: false); Foundry draws the others.
  const gm = await env.open({ isGM: true, settings });
  const g = await place(gm, "sHaTtEr000000005", {}, squares);
  assert.ok(g.pieces.includes("Ogre") && g.pieces.includes("Lurker") && g.pieces.includes("Scout"));
  assert.ok(g.targeted.includes("Ogre") && g.targeted.includes("Scout"));
  assert.ok(g.squares.ogre.ring > 0, "the GM sees the Ogre's ring");
  assert.equal(g.squares.lurker.painted, 0, "a token the answer is not about gets no ring, even for the GM");
  assert.ok(g.reported.length > p.reported.length);
  // A template the GM hides is forgotten by a player's client, and a hidden one is not shown
  // there (a GM's template, not the player's: an author sees their own hidden template).
  const hidden = await player.evaluate(async () => {
    const api = game.modules.get("aoekit").api;
    const shown = api.evaluate(templateDoc("fIrEbAlL00000001", { author: "gMuSeR0000000001" }))?.notation;
    Hooks.callAll("updateMeasuredTemplate", templateDoc("fIrEbAlL00000001", { author: "gMuSeR0000000001", hidden: true }), { hidden: true }, {}, "gMuSeR0000000001");
    await wait();
    const forgotten = { last: api.last, painted: window.pixels(6, 5).painted };
    const again = api.evaluate(templateDoc("fIrEbAlL00000001", { author: "gMuSeR0000000001", hidden: true }));
    return { shown, forgotten, again };
  });
  assert.deepEqual(hidden, { shown: "Cir2", forgotten: { last: null, painted: 0 }, again: null });
  assert.deepEqual(env.logs, []);
});

test("foundry table in Chromium: 2. the gust from the flying Windmage targets the Harpy beside it (v13 elevation 0, dnd5e flags)", async (t) => {
  const env = await table(t);
  if (!env) return;
  // Under TDGS: Con3E from the Windmage's square at its level, 6 — not at the template's stored 0.
  const tdgs = await env.open({ isGM: true, settings: { rules: "tdgs" } });
  const t2 = await place(tdgs, "gUsT000000000007");
  assert.deepEqual(t2.warnings, []);
  assert.equal(t2.notation, "Con3E");
  assert.deepEqual(t2.request.origin, { x: 13, y: 10, z: 6 });
  assert.deepEqual(t2.targeted, ["Harpy"]);
  // By the game system (dnd5e): the cone from the Windmage's centre at its mid-height.
  const page = await env.open({ isGM: true, system: "dnd5e" });
  const out = await place(page, "gUsT000000000007");
  assert.equal(out.notation, "15-foot cone");
  assert.deepEqual(out.request.point, { x: 13.5, y: 10.5, z: 6.5 });
  assert.deepEqual(out.targeted, ["Harpy"]);
  assert.deepEqual(env.logs, []);
});

test("foundry table in Chromium: 3. the template Foundry drew, by game system; Foundry's own highlight hidden while ours is drawn", async (t) => {
  const env = await table(t);
  if (!env) return;
  // dnd5e: the shockwave (15 ft on the intersection (15, 12)) is a sphere from that point. Its
  // squares: (14, 11) (centre ½, ½ from the point) is in; (17, 14) (2½, 2½: 12½ > 9) is out — TDGS's
  // Cir3 on the square (15, 12) would cover both.
  const squares = { near: [14, 11, 0.25], corner: [17, 14, 0.25] };
  const dnd = await env.open({ system: "dnd5e" });
  const d = await place(dnd, "sHoCkWaVe0000006", {}, squares);
  assert.deepEqual(d.warnings, []);
  assert.deepEqual([d.request.rules, d.request.template, d.request.point], ["dnd5e", { rules: "dnd5e", shape: "sphere", radius: 3 }, { x: 15, y: 12, z: 0.5 }]);
  assert.equal(d.notation, "15-foot-radius sphere");
  assert.ok(d.squares.near.painted > 0);
  assert.equal(d.squares.corner.painted, 0);
  assert.equal(d.highlight, false, "Foundry's highlight of the template is hidden while the overlay draws it");
  const restored = await dnd.evaluate(async () => {
    Hooks.callAll("deleteMeasuredTemplate", templateDoc("sHoCkWaVe0000006"), {}, game.user.id);
    await wait();
    return window.highlight("sHoCkWaVe0000006");
  });
  assert.equal(restored, true, "and shown again when the template is gone");
  // pf2e: a burst from the intersection.
  const pf = await env.open({ system: "pf2e" });
  const p = await place(pf, "sHoCkWaVe0000006");
  assert.deepEqual([p.request.rules, p.request.template, p.notation], ["pf2e", { rules: "pf2e", shape: "burst", radius: 3 }, "15-foot burst"]);
  // Another system: dnd5e's geometry, the scene's diagonals (ALTERNATING_1) as the metric.
  const other = await env.open({ system: "swade", diagonals: 4 });
  const o = await place(other, "sHoCkWaVe0000006");
  assert.deepEqual([o.request.rules, o.request.metric, o.request.template.shape], ["dnd5e", "alternating", "sphere"]);
  // The world setting forces a rule set: the 50 % circle.
  const forced = await env.open({ system: "dnd5e", settings: { rules: "circle50" } });
  assert.equal((await place(forced, "sHoCkWaVe0000006")).notation, "circle 3");
  assert.deepEqual(env.logs, []);
});

test("foundry table in Chromium: 4. walls — an invisible wall gives no cover by default; the world setting can count it", async (t) => {
  const env = await table(t);
  if (!env) return;
  // Under TDGS (cover only: its areas ignore walls), then the same under dnd5e (walls cut areas).
  const page = await env.open({ settings: { rules: "tdgs" } });
  const both = await place(page, "sHoCkWaVe0000006");
  assert.deepEqual(both.targeted, ["Lookout", "Sentry"], "the Sentry behind the invisible wall and the Lookout behind the terrain wall; not the Gargoyle behind the window");
  const move = await page.evaluate(async () => {
    game.settings.set("aoekit", "walls", "move");
    await wait();
    return game.modules.get("aoekit").api.last.targets.filter((t) => t.affected).length;
  });
  assert.equal(move, 1, "counting walls that stop movement, the invisible wall gives the Sentry full cover");
  const dnd = await env.open({ system: "dnd5e" });
  assert.deepEqual((await place(dnd, "sHoCkWaVe0000006")).targeted, ["Lookout", "Sentry"]);
  assert.deepEqual(env.logs, []);
});
