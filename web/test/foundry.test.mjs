// The Foundry VTT adapter (web/foundry): map.mjs turns a Foundry v13 scene's documents —
// fixtures/foundry-scene.json, written by hand in the shapes v13's Scene, TokenDocument,
// WallDocument and MeasuredTemplateDocument hold — into aoekit requests, evaluated here with the
// real engine (make browser builds it); the expectations are worked out by hand from SPEC in the
// comments. Then module.json is checked for what Foundry v13 requires, and aoekit.mjs is loaded
// in Chromium with a stub of the Foundry globals it uses (Hooks, game, canvas, ui): placing a
// template calls the engine, targets what it affects and draws through the overlay (skipped,
// loudly, without /usr/bin/chromium).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as F from "../foundry/map.mjs";
import { foundryLists, table } from "./fixtures/foundry-harness.mjs";
import { ROOT, WEB, engine } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/foundry-scene.json"), "utf8"));
const SCENE = FIXTURE.scene;

// The board. The scene is 2000 × 1500 pixels with 100-pixel squares, padding 0.25 and its
// background offset by (30, 70): v13 pads it by ⌈0.25 · 2000 / 100⌉ · 100 = 500 and
// ⌈0.25 · 1500 / 100⌉ · 100 = 400 pixels, then moves the scene's rectangle back by the offset,
// to (470, 330). The grid stays where it was (lines every 100 pixels from the canvas's corner),
// so aoekit's square (0, 0) is the grid square holding (470, 330): its corner is (400, 300), and
// square (x, y) starts at canvas pixel (400 + 100x, 300 + 100y). The scene's rectangle touches
// 21 × 16 squares. A level is one square of height: 5 ft.
//
// Tokens (square, level): Wizard (6, 5) friendly · Orc (8, 5) hostile · Ogre 2 × 2 at (3, 4)
// hostile · Cart 3 × 1 at (2…4, 2) neutral · Wagon 2 × 1 at (4…5, 7) neutral · Bat (7, 4) at 15 ft
// (level 3) hostile · Owl (5, 6) at 5 ft (level 1) friendly · Pixie, a 0.5 token centred on
// (6, 7), secret · Guard (6, 2) hostile · Scout (4, 5) hostile, hidden.
// Walls: a wall on the grid line x = 8 from y = 3 to 8 (between the Wizard and the Orc); a closed
// door on the line y = 3 from x = 5 to 7 (between the Wizard and the Guard); an ethereal curtain
// (move: none) on the line y = 7 from x = 3 to 6.
// Templates, all from the Wizard's centre (1050, 850) but the rectangle: a 10-ft circle
// (fireball), a 15-ft cone east (burning hands), a 30-ft ray south 10 ft wide (lightning bolt),
// a 15-ft circle (shatter), and a rectangle from the grid intersection (3, 2) to (6, 4).
const byName = (name) => SCENE.tokens.find((t) => t.name === name);
const tpl = (id) => SCENE.templates.find((t) => t._id.startsWith(id));
const wall = (id) => SCENE.walls.find((w) => w._id.startsWith(id));
const FIREBALL = tpl("fIrEbAlL");
const CONE = tpl("bUrNiNg");
const RAY = tpl("lIgHt");
const RECT = tpl("wAlLoF");
const SHATTER = tpl("sHaT");
const NAMES = Object.fromEntries(SCENE.tokens.map((t) => [t._id, t.name]));

/** Evaluates a template on the fixture scene (or a variant): the request, the answer, and the targets by token name. */
async function run({ template, rules, tokens = SCENE.tokens, walls = SCENE.walls, scene = SCENE, ...rest }) {
  const built = F.requestFor({ scene, tokens, walls, template, rules, ...rest });
  const result = (await engine()).evaluate(built.request);
  const targets = F.mergeTargets(result.targets, built);
  const byToken = Object.fromEntries(targets.map((t) => [NAMES[t.id] ?? t.id, t]));
  return { built, request: built.request, result, targets, byToken };
}

const level = (result, z) => result.cells.filter((c) => c[2] === z);

test("foundry: the frame — grid size, offset and the scene's squares, from the document or canvas.dimensions", () => {
  const frame = F.frameOf(SCENE);
  assert.deepEqual(frame, { size: 100, distance: 5, originX: 400, originY: 300, columns: 21, rows: 16 });
  // canvas.dimensions as v13 computes them for this scene give the same frame.
  assert.deepEqual(F.frameOf({ grid: SCENE.grid, dimensions: FIXTURE.dimensions }), frame);
  // Moving the background moves the scene's rectangle, not the grid: with no offset the
  // rectangle starts at (500, 400), square (0, 0)'s corner is (500, 400), and the Wizard (at
  // canvas pixel (1000, 800)) stands on (5, 4); with an offset of 130 it starts at (370, 330),
  // on the square whose corner is (300, 300), and the Wizard stands on (7, 5).
  const wizard = byName("Wizard");
  const at = (background) => F.tokenPieces(wizard, F.frameOf({ ...SCENE, background }))[0];
  assert.deepEqual([at({ offsetX: 0, offsetY: 0 }).x, at({ offsetX: 0, offsetY: 0 }).y], [5, 4]);
  assert.deepEqual([at({ offsetX: 130, offsetY: 70 }).x, at({ offsetX: 130, offsetY: 70 }).y], [7, 5]);
  assert.deepEqual([at(SCENE.background).x, at(SCENE.background).y], [6, 5]);
  // Only square grids.
  assert.throws(() => F.frameOf({ ...SCENE, grid: { ...SCENE.grid, type: 2 } }), /only square grids/);
  assert.throws(() => F.frameOf({ ...SCENE, grid: { ...SCENE.grid, type: 0 } }), /only square grids/);
});

test("foundry: tokens — squares, non-square sizes as square pieces, elevation as levels, disposition as side", () => {
  const frame = F.frameOf(SCENE);
  const pieces = (name) => F.tokenPieces(byName(name), frame).map(({ id, ...p }) => ({ id: id.replace(byName(name)._id, "*"), ...p }));
  assert.deepEqual(pieces("Wizard"), [{ id: "*", x: 6, y: 5, z: 0, size: 1, side: "friendly" }]);
  assert.deepEqual(pieces("Orc"), [{ id: "*", x: 8, y: 5, z: 0, size: 1, side: "hostile" }]);
  assert.deepEqual(pieces("Ogre"), [{ id: "*", x: 3, y: 4, z: 0, size: 2, side: "hostile" }]);
  // 3 × 1: three 1 × 1 pieces; 2 × 1: two.
  assert.deepEqual(pieces("Cart"), [0, 1, 2].map((i) => ({ id: `*#${i}`, x: 2 + i, y: 2, z: 0, size: 1, side: "neutral" })));
  assert.deepEqual(pieces("Wagon"), [0, 1].map((i) => ({ id: `*#${i}`, x: 4 + i, y: 7, z: 0, size: 1, side: "neutral" })));
  // 15 ft / 5 ft = level 3; 5 ft = level 1; 7 ft is still level 1; −5 ft is level −1.
  assert.equal(pieces("Bat")[0].z, 3);
  assert.equal(pieces("Owl")[0].z, 1);
  assert.equal(F.tokenPieces({ ...byName("Owl"), elevation: 7 }, frame)[0].z, 1);
  assert.equal(F.tokenPieces({ ...byName("Owl"), elevation: -5 }, frame)[0].z, -1);
  // A 0.5 (Tiny) token takes the square its centre is on; secret disposition is its own side.
  assert.deepEqual(pieces("Pixie"), [{ id: "*", x: 6, y: 7, z: 0, size: 1, side: "secret" }]);
  // 3 × 2: two 2 × 2 pieces, the second flush with the far end (they overlap on x = 3).
  assert.deepEqual(F.tokenPieces({ ...byName("Cart"), width: 3, height: 2 }, frame).map((p) => [p.x, p.y, p.size]), [[2, 2, 2], [3, 2, 2]]);
  // 1 × 3 (tall): pieces down.
  assert.deepEqual(F.tokenPieces({ ...byName("Cart"), width: 1, height: 3 }, frame).map((p) => [p.x, p.y, p.size]), [[2, 2, 1], [2, 3, 1], [2, 4, 1]]);
  // Dispositions.
  assert.deepEqual([1, 0, -1, -2].map((d) => F.tokenPieces({ ...byName("Orc"), disposition: d }, frame)[0].side), ["friendly", "neutral", "hostile", "secret"]);
  // A v14 depth is the height in levels.
  assert.equal(F.tokenPieces({ ...byName("Orc"), depth: 3 }, frame)[0].height, 3);
});

test("foundry: walls — pixels to squares, which walls count, doors, wall-height", () => {
  const frame = F.frameOf(SCENE);
  assert.deepEqual(F.wallFrom(wall("wAlLeAsT"), frame), { a: [8, 3], b: [8, 8] });
  assert.deepEqual(F.wallFrom(wall("dOoRnOrTh"), frame), { a: [5, 3], b: [7, 3] });
  // The curtain restricts sight, not movement: no wall by default, a wall with sense "sight".
  assert.equal(F.wallFrom(wall("cUrTaIn"), frame), null);
  assert.deepEqual(F.wallFrom(wall("cUrTaIn"), frame, { sense: "sight" }), { a: [3, 7], b: [6, 7] });
  // Doors: open (ds 1) is open; closed (0) and locked (2) are walls; a secret door (door 2) alike.
  const door = wall("dOoRnOrTh");
  assert.equal(F.wallFrom({ ...door, ds: 1 }, frame).open, true);
  assert.equal(F.wallFrom({ ...door, ds: 2 }, frame).open, undefined);
  assert.equal(F.wallFrom({ ...door, door: 2, ds: 0 }, frame).open, undefined);
  assert.equal(F.wallFrom({ ...door, door: 2, ds: 1 }, frame).open, true);
  // A plain wall's ds means nothing.
  assert.equal(F.wallFrom({ ...wall("wAlLeAsT"), ds: 1 }, frame).open, undefined);
  // wall-height: elevations in feet → levels; null and infinities are no limit; bottom above top is no wall.
  const wh = (flags) => F.wallFrom({ ...wall("wAlLeAsT"), flags: { "wall-height": flags } }, frame);
  assert.deepEqual(wh({ bottom: 0, top: 2.5 }), { a: [8, 3], b: [8, 8], bottom: 0, top: 0.5 });
  assert.deepEqual(wh({ bottom: null, top: 10 }), { a: [8, 3], b: [8, 8], top: 2 });
  assert.deepEqual(wh({ bottom: -Infinity, top: Infinity }), { a: [8, 3], b: [8, 8] });
  assert.equal(wh({ bottom: 10, top: 5 }), null);
  // Off the grid lines: fractions of a square, on the 1/400 lattice; no length: no wall.
  assert.deepEqual(F.wallFrom({ ...wall("wAlLeAsT"), c: [1250, 625, 1375, 700] }, frame), { a: [8.5, 3.25], b: [9.75, 4] });
  assert.equal(F.wallFrom({ ...wall("wAlLeAsT"), c: [1250, 625, 1250.1, 625] }, frame), null);
});

test("foundry: a wall between a circle and a token gives it full cover (TDGS), or cuts it out of the area (Draw Steel)", async () => {
  // Fireball, TDGS: a 10-ft circle is 2 squares of radius → Cir2, centred on the Wizard's
  // square (6, 5): squares 4…8 × 3…7. TDGS areas ignore walls (SPEC §2.1): the Orc on (8, 5) is in
  // the area. Cover (SPEC §5.4): from the centre of (6, 5) to the Orc's west face — the only face
  // turned toward the source — 4 corners at x = 8.0025, y in (5, 6); every line crosses x = 8
  // inside the wall's 3…8: 4 of 4 blocked, f = 1 ≥ ¾, full cover: not affected (SPEC §5.5).
  const { request, result, byToken } = await run({ template: FIREBALL, rules: "tdgs" });
  assert.equal(request.template, "Cir2");
  assert.deepEqual(request.origin, { x: 6, y: 5, z: 0 });
  assert.equal(request.caster, undefined, "a TDGS circle is placed, not cast from a token");
  // Levels 0 to 6: the Windmage and the Harpy fly at 30 ft in the east wing (foundry-table.test.mjs).
  assert.deepEqual(request.bounds, { min: [0, 0, 0], max: [20, 15, 6] });
  assert.equal(byToken.Orc.inArea, true);
  assert.equal(byToken.Orc.cover, "full");
  assert.equal(byToken.Orc.blocked, 4);
  assert.equal(byToken.Orc.affected, false);
  assert.equal(byToken.Orc.reason, "cover");
  // Cir2 is 2 levels tall (SPEC §2.8: z 0 and 1), listed on the bounds' levels 0…6: 2 × 25.
  assert.equal(result.count, 50);
  assert.equal(level(result, 0).length, 25);
  // The others in the area, none behind a wall: the Wizard (the centre square is affected), the
  // Ogre (its squares (4, 4), (4, 5)), the Wagon, the Owl (level 1), the Pixie, the hidden Scout.
  for (const name of ["Wizard", "Ogre", "Wagon", "Owl", "Pixie", "Scout"]) {
    assert.equal(byToken[name]?.affected, true, `${name} is affected`);
    assert.equal(byToken[name].cover, "none", `${name} has no cover`);
  }
  // Out: the Guard (row 2), the Bat (level 3, above the circle's levels 0…1), the Cart (row 2:
  // its square (4, 2) only touches (4, 3) at a corner — a 3 × 3 box from its corner would not).
  for (const name of ["Guard", "Bat", "Cart"]) assert.equal(byToken[name], undefined, `${name} is not listed`);
  assert.deepEqual(F.affectedIds(Object.values(byToken)).map((id) => NAMES[id]).sort(), ["Ogre", "Owl", "Pixie", "Scout", "Wagon", "Wizard"]);

  // Draw Steel: the same circle around the Wizard is a burst from the Wizard's space, 2 squares
  // (round(2 − ½)): squares 4…8 × 3…7 again, but the wall stops it (SPEC §3.2): the column x = 8
  // beyond the wall has no line of effect from the Wizard, leaving 25 − 5 = 20 squares a level,
  // and the Orc is not in the area (reason "barrier"). The Wizard is the caster, kept out of its
  // own burst (targeting.excludeCaster).
  const ds = await run({ template: FIREBALL, rules: "drawsteel" });
  assert.equal(ds.request.template, "2 burst");
  assert.equal(ds.request.caster.id, byName("Wizard")._id);
  assert.equal(ds.request.origin, undefined);
  assert.equal(level(ds.result, 0).length, 20);
  assert.ok(level(ds.result, 0).every(([x]) => x < 8), "nothing beyond the wall");
  assert.equal(ds.byToken.Orc.inArea, false);
  assert.equal(ds.byToken.Orc.reason, "barrier");
  assert.equal(ds.byToken.Wizard.caster, true);
  assert.equal(ds.byToken.Wizard.affected, false);
  assert.ok(!F.affectedIds(ds.targets).includes(byName("Wizard")._id));

  // The 50 % circle: `circle 2` (radius 2½: 21 squares), flat; the wall stops its fill, so the
  // three squares of column 8 in it ((8, 4), (8, 5), (8, 6)) are left out: 18, and the Orc is
  // out. The Owl flies above its one level.
  const c50 = await run({ template: FIREBALL, rules: "circle50" });
  assert.equal(c50.request.template, "circle 2");
  assert.equal(c50.result.count, 18);
  assert.equal(c50.byToken.Orc.inArea, false);
  assert.equal(c50.byToken.Owl, undefined);
});

test("foundry: doors — closed, locked and secret doors give cover, an open one does not", async () => {
  // Shatter: a 15-ft circle, Cir3 on (6, 5): squares 3…9 × 2…8, so the Guard on (6, 2) is in.
  // The door on y = 3 from x = 5 to 7 stands between: the Guard's south face (y = 2.9975) is the
  // one turned toward the centre of (6, 5), and each of its 4 lines crosses y = 3 at an x within
  // 6…7, on the door: full cover while it is shut.
  const door = wall("dOoRnOrTh");
  const guard = async (changes) => (await run({ template: SHATTER, walls: [wall("wAlLeAsT"), { ...door, ...changes }] })).byToken.Guard;
  for (const [what, changes] of [["closed", { ds: 0 }], ["locked", { ds: 2 }], ["secret, closed", { door: 2, ds: 0 }]]) {
    const g = await guard(changes);
    assert.equal(g.inArea, true, what);
    assert.equal(g.cover, "full", what);
    assert.equal(g.affected, false, what);
  }
  for (const [what, changes] of [["open", { ds: 1 }], ["secret, open", { door: 2, ds: 1 }]]) {
    const g = await guard(changes);
    assert.equal(g.cover, "none", what);
    assert.equal(g.blocked, 0, what);
    assert.equal(g.affected, true, what);
  }
  // Without the door at all: the same as open.
  assert.equal((await run({ template: SHATTER, walls: [] })).byToken.Guard.affected, true);
});

test("foundry: wall-height — a waist-high wall gives half cover", async () => {
  // The wall on x = 8 as a fence up to 2.5 ft (0.5 level). Of the Orc's 4 lines from (6.5, 5.5,
  // 0.5): the 2 to its lower corners (raised by the low-point boost to z 0.3025) are at z ≈ 0.303
  // where they cross x = 8, under the fence's top: blocked; the 2 to its upper corners (z 0.9975)
  // cross at z ≈ 0.997: clear. 2 of 4, f = ½: half cover, +4, still affected (SPEC §5.5).
  const fence = { ...wall("wAlLeAsT"), flags: { "wall-height": { bottom: 0, top: 2.5 } } };
  const { request, byToken } = await run({ template: FIREBALL, walls: [fence] });
  assert.deepEqual(request.walls, [{ a: [8, 3], b: [8, 8], bottom: 0, top: 0.5 }]);
  assert.equal(byToken.Orc.blocked, 2);
  assert.equal(byToken.Orc.cover, "half");
  assert.equal(byToken.Orc.bonus, 4);
  assert.equal(byToken.Orc.affected, true);
  // A wall from 10 ft up (levels 2 and above) blocks nothing on the ground.
  const high = { ...wall("wAlLeAsT"), flags: { "wall-height": { bottom: 10, top: null } } };
  assert.equal((await run({ template: FIREBALL, walls: [high] })).byToken.Orc.cover, "none");
});

test("foundry: which walls count — an ethereal curtain only with sense: sight", async () => {
  // The curtain on y = 7 from x = 3 to 6 lies between the circle's centre and the Wagon on
  // (4…5, 7): its pieces' north faces are behind it. It restricts sight, not movement, so by
  // default it is no wall: no cover. Counted as one (sense "sight"), it blocks their north lines.
  const base = await run({ template: FIREBALL, walls: [wall("cUrTaIn")] });
  assert.equal(base.request.walls.length, 0);
  assert.equal(base.byToken.Wagon.cover, "none");
  const sight = await run({ template: FIREBALL, walls: [wall("cUrTaIn")], sense: "sight" });
  assert.equal(sight.request.walls.length, 1);
  assert.notEqual(sight.byToken.Wagon.cover, "none");
});

test("foundry: elevation — a token above a template's levels is not in it", async () => {
  // Cir2 at level 0 covers levels 0…1. The Bat at 15 ft (level 3) is out; at 5 ft (level 1) it
  // is in, on (7, 4); the bounds grow to the highest thing on the board.
  const bat = byName("Bat");
  assert.equal((await run({ template: FIREBALL, tokens: [bat] })).byToken.Bat, undefined);
  const low = await run({ template: FIREBALL, tokens: [{ ...bat, elevation: 5 }] });
  assert.equal(low.byToken.Bat.inArea, true);
  assert.deepEqual(low.request.bounds.max[2], 1);
  // A template raised by the Levels module's flag to 15 ft is centred on level 3: Cir2 covers
  // levels 3…4, and the Bat is in it while the Wizard on the ground is not.
  const raised = await run({ template: { ...FIREBALL, flags: { levels: { elevation: 15 } } }, tokens: [bat, byName("Wizard")] });
  assert.deepEqual(raised.request.origin, { x: 6, y: 5, z: 3 });
  assert.equal(raised.byToken.Bat.inArea, true);
  assert.equal(raised.byToken.Wizard, undefined);
  // A cone takes its caster's level: from the Owl (level 1), Con3E covers levels 0…2.
  const owlCone = await run({ template: { ...CONE, x: 950, y: 950 }, tokens: [byName("Owl"), { ...byName("Orc"), x: 1100, y: 900, elevation: 10 }] });
  assert.equal(owlCone.request.caster.z, 1);
  assert.equal(owlCone.byToken.Orc.inArea, true, "the Orc at level 2 on (7, 6), right in front of the Owl");
});

test("foundry: non-square tokens are hit once, where they stand", async () => {
  // Shatter (Cir3: 3…9 × 2…8) reaches the Cart's row 2: its pieces on (3, 2) and (4, 2) are in,
  // (2, 2) is not; the Cart is one target, in the area and affected.
  const { byToken, targets } = await run({ template: SHATTER });
  assert.equal(byToken.Cart.inArea, true);
  assert.equal(byToken.Cart.affected, true);
  assert.equal(targets.filter((t) => t.id === byName("Cart")._id).length, 1);
  assert.equal(targets.filter((t) => t.id === byName("Wagon")._id).length, 1);
  // A wagon half behind the wall on x = 8 (on (8…9, 5), the other side from the centre): each
  // piece behind the wall gets full cover, and the wagon — whose every square is behind it — too.
  const wagon = { ...byName("Wagon"), x: 1200, y: 800 };
  const behind = await run({ template: SHATTER, tokens: [wagon] });
  assert.equal(behind.byToken.Wagon.cover, "full");
  // Straddling the wall's end at y = 8 — pieces on (7…8, 9)? Out of Cir3's rows. On (7…8, 8):
  // the piece on (7, 8) is west of the wall and seen in the open; the wagon takes the cover of
  // its least covered piece in the area: none.
  const straddle = await run({ template: SHATTER, tokens: [{ ...wagon, x: 1100, y: 1100 }] });
  assert.equal(straddle.byToken.Wagon.cover, "none");
  assert.equal(straddle.byToken.Wagon.affected, true);
});

test("foundry: hidden tokens are left out for players (includeHidden: false)", async () => {
  assert.ok((await run({ template: FIREBALL })).byToken.Scout);
  assert.equal((await run({ template: FIREBALL, includeHidden: false })).byToken.Scout, undefined);
});

test("foundry: sides from dispositions drive smart targeting", async () => {
  // The Draw Steel burst from the friendly Wizard (SPEC §7.3). Enemies only: every token whose
  // side is set and is not "friendly" — the hostile Ogre and Scout, the secret Pixie and the
  // neutral Wagon (an enemy of a friendly caster, as any other side) — but not the friendly Owl
  // (reason targeting). Allies excluded: the Owl only is left out.
  const trait = async (name) => {
    const built = F.requestFor({ scene: SCENE, tokens: SCENE.tokens, walls: SCENE.walls, template: FIREBALL, rules: "drawsteel" });
    built.request.targeting = { ...built.request.targeting, trait: name };
    assert.equal(built.request.caster.side, "friendly");
    const r = (await engine()).evaluate(built.request);
    return Object.fromEntries(F.mergeTargets(r.targets, built).map((x) => [NAMES[x.id], x]));
  };
  const enemies = await trait("enemiesOnly");
  for (const name of ["Ogre", "Scout", "Pixie", "Wagon"]) assert.equal(enemies[name].affected, true, name);
  assert.equal(enemies.Owl.affected, false);
  assert.equal(enemies.Owl.reason, "targeting");
  const allies = await trait("alliesExcluded");
  assert.equal(allies.Owl.affected, false);
  for (const name of ["Ogre", "Scout", "Pixie", "Wagon"]) assert.equal(allies[name].affected, true, name);
  // Sides as the overlay colours them.
  assert.deepEqual(Object.keys(F.SIDE_COLOURS).sort(), Object.values(F.SIDES).sort());
});

test("foundry: a cone from a token, behind a wall", async () => {
  // Burning hands: a 15-ft cone east from the Wizard's centre → Con3E from (6, 5), the Wizard its
  // caster (facing N, so E is east): squares (7, 5); (8, 4…6); (9, 3…7) — 9 a level, 3 levels
  // tall (z −1…1), listed on 0…1: 18. The Orc on (8, 5) is in it, behind the wall: full cover.
  const { request, result, byToken, built } = await run({ template: CONE });
  assert.equal(request.template, "Con3E");
  assert.equal(built.casterId, byName("Wizard")._id);
  assert.equal(request.caster.facing, "N");
  assert.equal(result.direction, "E");
  assert.deepEqual(level(result, 0), [[9, 3, 0], [8, 4, 0], [9, 4, 0], [7, 5, 0], [8, 5, 0], [9, 5, 0], [8, 6, 0], [9, 6, 0], [9, 7, 0]]);
  assert.equal(result.count, 18);
  assert.equal(byToken.Orc.cover, "full");
  assert.equal(byToken.Orc.affected, false);
  // With no token at its origin (moved to (12, 10)'s centre), a stand-in caster is used, and it
  // is not reported.
  const free = await run({ template: { ...CONE, x: 1650, y: 1350 } });
  assert.equal(free.request.caster.id, F.ORIGIN_ID);
  assert.deepEqual([free.request.caster.x, free.request.caster.y], [12, 10]);
  assert.ok(free.targets.every((t) => t.id !== F.ORIGIN_ID));
});

test("foundry: template conversions — every type, the 8 directions, rounding and ties", async () => {
  const e = await engine();
  const frame = F.frameOf(SCENE);
  // Foundry's direction: 0° east, clockwise (y grows down).
  const cases = [[0, "E"], [45, "SE"], [90, "S"], [135, "SW"], [180, "W"], [225, "NW"], [270, "N"], [315, "NE"],
    [-90, "N"], [720, "E"], [22.4, "E"], [22.5, "SE"], [67.5, "S"], [337.5, "E"], [200, "W"], [-22.5, "E"]];
  for (const [deg, dir] of cases) {
    assert.equal(F.DIRECTIONS[F.snapDirection(deg)], dir, `${deg}°`);
    for (const [template, notation] of [[CONE, `Con3${dir}`], [RAY, `Lin6${dir}w2`]]) {
      const built = F.requestFor({ scene: SCENE, tokens: [], walls: [], template: { ...template, direction: deg } });
      assert.equal(built.request.template, notation, `${template.t} at ${deg}°`);
      const r = e.evaluate(built.request);
      assert.equal(r.direction, dir);
      // Every square lies ahead of the origin square (6, 5) in that direction.
      const [dx, dy] = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]][F.DIRECTIONS.indexOf(dir)];
      for (const [x, y] of level(r, 0)) assert.ok((x - 6) * dx + (y - 5) * dy > 0, `${notation}: (${x}, ${y}) is not ahead`);
    }
  }
  // Lengths: a radius of r squares is round(r − ½) — r rounded down (3, 3.5 and 3.9 → 3) —, at
  // least 1: Cir3's edge is 3½ squares (17.5 ft) from its centre.
  const circle = (distance, rules) => F.requestFor({ scene: SCENE, template: { ...FIREBALL, distance }, rules }).request.template;
  assert.deepEqual([5, 10, 15, 17, 17.5, 20, 2].map((d) => circle(d)), ["Cir1", "Cir2", "Cir3", "Cir3", "Cir3", "Cir4", "Cir1"]);
  assert.deepEqual([10, 15].map((d) => circle(d, "circle50")), ["circle 2", "circle 3"]);
  assert.equal(F.squares(3), 3);
  assert.equal(F.squares(0.2), 1);
  // A Draw Steel burst counts from the caster's edge: round(r − size/2). From the Ogre's centre
  // (2 × 2, the grid intersection (4, 5) → origin square (4, 5), inside it), 15 ft = 3 squares:
  // a 2 burst from the Ogre.
  const ogreBurst = F.requestFor({ scene: SCENE, tokens: SCENE.tokens, template: { ...FIREBALL, x: 800, y: 800, distance: 15 }, rules: "drawsteel" });
  assert.equal(ogreBurst.request.template, "2 burst");
  assert.equal(ogreBurst.casterId, byName("Ogre")._id);
  // Rays: the width in squares, at least 1; Draw Steel lines run from the square after the
  // origin toward the direction.
  const ray = (changes, rules) => F.requestFor({ scene: SCENE, template: { ...RAY, ...changes }, rules }).request;
  assert.equal(ray({ width: 5 }).template, "Lin6S");
  assert.equal(ray({ width: 1 }).template, "Lin6S");
  assert.equal(ray({ width: 15, direction: 315 }).template, "Lin6NEw3");
  const dsLine = ray({ width: 5 }, "drawsteel");
  assert.equal(dsLine.template, "6 x 1 line");
  assert.deepEqual([dsLine.origin, dsLine.aim], [{ x: 6, y: 6, z: 0 }, { x: 6, y: 11, z: 0 }]);
  const dsDiag = ray({ width: 10, direction: 225 }, "drawsteel");
  assert.deepEqual([dsDiag.template, dsDiag.origin, dsDiag.aim], ["6 x 2 line", { x: 5, y: 4, z: 0 }, { x: 0, y: -1, z: 0 }]);
  // A cone or ray from a grid intersection starts in the square behind it: from (6, 5)'s
  // north-west corner (1000, 800) pointing E, the square to its west, (5, 5)…
  const fromCorner = (direction) => F.requestFor({ scene: SCENE, template: { ...CONE, x: 1000, y: 800, direction } }).request.origin;
  assert.deepEqual(fromCorner(0), { x: 5, y: 5, z: 0 });
  assert.deepEqual(fromCorner(180), { x: 6, y: 5, z: 0 });
  assert.deepEqual(fromCorner(270), { x: 6, y: 5, z: 0 });
  assert.deepEqual(fromCorner(315), { x: 5, y: 5, z: 0 }); // NE: the square to its south-west
  assert.deepEqual(fromCorner(135), { x: 6, y: 4, z: 0 }); // SW: the square to its north-east

  // Rectangles: from the intersection (3, 2), 3 squares east and 2 south (its diagonal, 18.03 ft
  // at 33.69°): Rec3x2 anchored at its south-west square (3, 3): squares 3…5 × 2…3.
  const rect = await run({ template: RECT, tokens: [], walls: [] });
  assert.equal(rect.request.template, "Rec3x2");
  assert.deepEqual(rect.request.origin, { x: 3, y: 3, z: 0 });
  assert.deepEqual(level(rect.result, 0), [[3, 2, 0], [4, 2, 0], [5, 2, 0], [3, 3, 0], [4, 3, 0], [5, 3, 0]]);
  // The same rectangle drawn from its other corner (6, 4), toward the north-west.
  const back = F.requestFor({ scene: SCENE, template: { ...RECT, x: 1000, y: 700, direction: RECT.direction + 180 } }).request;
  assert.deepEqual([back.template, back.origin], ["Rec3x2", { x: 3, y: 3, z: 0 }]);
  // Draw Steel: a square one is a cube (named by its north-west square), else the TDGS rectangle.
  const square = { ...RECT, distance: Math.hypot(2, 2) * 5, direction: 45 };
  const cube = F.requestFor({ scene: SCENE, template: square, rules: "drawsteel" }).request;
  assert.deepEqual([cube.template, cube.origin, cube.rules], ["2 cube", { x: 3, y: 2, z: 0 }, "drawsteel"]);
  assert.equal(F.requestFor({ scene: SCENE, template: RECT, rules: "drawsteel" }).request.template, "Rec3x2");
  assert.equal(e.evaluate(cube).count > 0, true);
  // Unknown types and rule sets are refused.
  assert.throws(() => F.requestFor({ scene: SCENE, template: { ...FIREBALL, t: "hexagon" } }), /unknown template type/);
  assert.throws(() => F.requestFor({ scene: SCENE, template: FIREBALL, rules: "hexes" }), /rules must be/);
  assert.ok(frame);
});

test("foundry: regions of one circle or rectangle are read as the template they draw", () => {
  const region = (shape, elevation) => ({ shapes: [{ hole: false, ...shape }], ...(elevation ? { elevation } : {}) });
  const same = (r, template, rules) =>
    assert.deepEqual(F.requestFor({ scene: SCENE, tokens: SCENE.tokens, walls: SCENE.walls, region: r, rules }).request,
      F.requestFor({ scene: SCENE, tokens: SCENE.tokens, walls: SCENE.walls, template, rules }).request, `${JSON.stringify(r)} (${rules})`);
  // The fireball is a 10-ft circle at the Wizard's centre (1050, 850): a circle region there of
  // 200 pixels (2 squares, 10 ft) is the same request in every rule set (a Draw Steel burst from
  // the Wizard included); so is an ellipse with equal radii.
  for (const rules of ["tdgs", "drawsteel", "circle50"]) {
    same(region({ type: "circle", x: 1050, y: 850, radius: 200 }), FIREBALL, rules);
    same(region({ type: "ellipse", x: 1050, y: 850, radiusX: 200, radiusY: 200, rotation: 30 }), FIREBALL, rules);
  }
  // Every radius is the circle template of that many feet (100 pixels, one square, is 5 ft).
  for (const radius of [50, 100, 149, 150, 250, 330, 350, 400, 1000]) {
    same(region({ type: "circle", x: 1050, y: 850, radius }), { ...FIREBALL, distance: (radius / 100) * 5 }, "tdgs");
  }
  // The rectangle template spans the squares 3…5 × 2…3: pixels (700, 500) to (1000, 700). A
  // rectangle region on those pixels, or turned half a turn about its centre, is Rec3x2 there.
  const rect = { type: "rectangle", x: 700, y: 500, width: 300, height: 200 };
  same(region(rect), RECT, "tdgs");
  same(region({ ...rect, rotation: 180 }), RECT, "tdgs");
  same(region({ ...rect, rotation: -180 }), RECT, "tdgs");
  // A quarter turn about its centre (850, 600): 2 wide, 3 tall, from (750, 450) to (950, 750),
  // squares 3.5 … 5.5 × 1.5 … 4.5, its corners rounded up to the grid lines 4, 6 and 2, 5:
  // Rec2x3 anchored at its south-west square (4, 4).
  const turned = F.requestFor({ scene: SCENE, region: region({ ...rect, rotation: 90 }) }).request;
  assert.deepEqual([turned.template, turned.origin], ["Rec2x3", { x: 4, y: 4, z: 0 }]);
  // Its elevation's bottom is its level: 10 ft is level 2 (a level is 5 ft).
  assert.deepEqual(F.requestFor({ scene: SCENE, region: region(rect, { bottom: 10, top: null }) }).request.origin, { x: 3, y: 3, z: 2 });
  assert.deepEqual(F.requestFor({ scene: SCENE, region: region(rect, { bottom: null, top: 20 }) }).request.origin, { x: 3, y: 3, z: 0 });
  // What is not one circle or rectangle is refused, saying why.
  const refused = (r, pattern) => assert.throws(() => F.requestFor({ scene: SCENE, region: r }), pattern);
  refused({ shapes: [] }, /one shape and no hole \(this one has 0 shapes\)/);
  refused({ shapes: [rect, rect] }, /this one has 2 shapes/);
  refused(region({ ...rect, hole: true }), /this one has 1 shape, a hole/);
  refused(region({ ...rect, rotation: 45 }), /multiple of 90° \(this one by 45°\)/);
  refused(region({ type: "ellipse", x: 0, y: 0, radiusX: 100, radiusY: 200 }), /only when it is a circle/);
  refused(region({ type: "polygon", points: [0, 0, 100, 0, 0, 100] }), /a "polygon" region cannot be read/);
  assert.throws(() => F.requestFor({ scene: SCENE }), /needs a template or a region/);
});

test("foundry: module.json is what Foundry v13 reads", () => {
  const manifest = JSON.parse(readFileSync(join(WEB, "foundry/module.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  // Required by v13's package manifest: id, title, version; a module declares its compatibility.
  assert.equal(manifest.id, "aoekit");
  assert.match(manifest.id, /^[a-z0-9-]+$/, "a package id is lower case letters, digits and dashes");
  assert.equal(typeof manifest.title, "string");
  assert.ok(manifest.title.length > 0);
  assert.equal(manifest.version, pkg.version, "the module's version is the package's");
  assert.equal(typeof manifest.description, "string");
  assert.equal(manifest.compatibility.minimum, "13");
  assert.equal(manifest.compatibility.verified, "14");
  assert.ok(Array.isArray(manifest.authors) && manifest.authors.every((a) => typeof a.name === "string"));
  // Fields v10+ removed (they are errors or warnings in v13).
  for (const old of ["name", "author", "minimumCoreVersion", "compatibleCoreVersion", "dependencies", "systems"]) {
    assert.equal(manifest[old], undefined, `module.json has the obsolete field ${old}`);
  }
  // Every file it names is in the module folder (foundry.mk's lists).
  const { own } = foundryLists();
  assert.deepEqual(manifest.esmodules, ["aoekit.mjs"]);
  for (const f of [...manifest.esmodules, manifest.readme, ...manifest.languages.map((l) => l.path)]) assert.ok(own.includes(f), `${f} is copied into the module folder`);
  assert.deepEqual(manifest.languages, [], "no translations yet: the settings' names are English");
  assert.equal(manifest.license, "LICENSE");
});

// The stub of the Foundry globals aoekit.mjs uses (Hooks, game, canvas, ui…:
// fixtures/foundry-harness.mjs) as this test has it: v13 (no release generation: the module
// takes 13), a GM, templates placed by their hooks alone (`known`), a listener on
// aoekit.evaluated, and the rule set TDGS (these cases are TDGS's; by game system:
// foundry-table.test.mjs). The view: zoomed to 0.4, the canvas pixel (400, 300) — square (0,
// 0)'s corner — at (20, 10) on screen.
const PAGE = { generation: 13, known: true, evaluated: true, settings: { rules: "tdgs" } };

test("foundry: aoekit.mjs in Chromium, with a stub of Foundry's globals, evaluates, targets and draws", async (t) => {
  // aoekit-overlay.wasm built from the sources here (go build); aoekit.wasm, which make browser
  // builds, is copied.
  const env = await table(t, { ...FIXTURE, zoom: 0.4 }, { overlayFromSources: true });
  if (!env) return;
  const { folder, logs } = env;
  assert.ok(existsSync(join(folder, "aoekit-overlay.wasm")));
  // Every response, the module's files included, is a success (favicon.ico aside).
  const watch = (p) => p.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && logs.push(`${r.status()} ${r.url()}`));
  const page = await env.open(PAGE, { viewport: { width: 400, height: 300 }, watch });

  // The user places the fireball: the engine answers, the author's client targets what it
  // affects (as in the TDGS test above: not the Orc, behind the wall), the overlay draws.
  const out = await page.evaluate(async () => {
    Hooks.callAll("createMeasuredTemplate", templateDoc("fIrEbAlL00000001"), {}, game.user.id);
    await new Promise((r) => setTimeout(r, 100));
    const el = document.getElementById("aoekit-overlay");
    const ctx = el.getContext("2d");
    const ratio = el.width / el.clientWidth;
    // Squares are 40 pixels a side at zoom 0.4, from (20, 10): the centre of (5, 4) (in the
    // area, no token on it) is at (20 + 5.5 · 40, 10 + 4.5 · 40) = (240, 190); (1, 1), outside,
    // at (80, 70).
    const px = (x, y) => [...ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data];
    return {
      evaluated: window.evaluated,
      targets: calls.targets,
      warnings: calls.warnings,
      overlay: { after: el.previousElementSibling?.id, pointerEvents: getComputedStyle(el).pointerEvents },
      inside: px(20 + 5.5 * 40, 10 + 4.5 * 40),
      outside: px(20 + 1.5 * 40, 10 + 1.5 * 40),
      last: game.modules.get("aoekit").api.last.notation,
    };
  });
  assert.deepEqual(out.warnings, []);
  assert.equal(out.last, "Cir2");
  assert.equal(out.evaluated.length, 1);
  assert.equal(out.evaluated[0].notation, "Cir2");
  assert.equal(out.targets.length, 1, "one setTargets call");
  assert.deepEqual(out.targets[0].options, { mode: "replace" });
  assert.deepEqual(out.targets[0].ids.map((id) => NAMES[id]).sort(), ["Ogre", "Owl", "Pixie", "Scout", "Wagon", "Wizard"]);
  assert.equal(out.overlay.after, "board", "the overlay's canvas sits right after the board");
  assert.equal(out.overlay.pointerEvents, "none");
  // The area's fill, rgba(255, 140, 0, 0.36), on a transparent canvas.
  assert.ok(out.inside[0] > 200 && out.inside[1] > 100 && out.inside[1] < 180 && out.inside[2] < 60 && out.inside[3] > 60, `inside: ${out.inside}`);
  assert.equal(out.outside[3], 0, `outside: ${out.outside}`);
  mkdirSync(join(ROOT, "build/screenshots"), { recursive: true });
  await page.screenshot({ path: join(ROOT, "build/screenshots/foundry.png") });

  // A drag preview is evaluated but targets nothing; another user's template is not evaluated
  // here; deleting the template shown erases the drawing.
  const after = await page.evaluate(async () => {
    const preview = { isPreview: true, document: { ...templateDoc("bUrNiNgHaNdS0002") } };
    Hooks.callAll("refreshMeasuredTemplate", preview, {});
    await new Promise((r) => setTimeout(r, 100));
    const n = window.evaluated.length;
    Hooks.callAll("createMeasuredTemplate", templateDoc("sHaTtEr000000005"), {}, "someone-else");
    await new Promise((r) => setTimeout(r, 50));
    const notations = window.evaluated.map((e) => e.notation);
    Hooks.callAll("deleteMeasuredTemplate", preview.document, {}, game.user.id);
    return { n, notations, targets: calls.targets.length, painted: painted(), last: game.modules.get("aoekit").api.last };
  });
  assert.deepEqual(after.notations, ["Cir2", "Con3E"]);
  assert.equal(after.targets, 1, "a preview does not target");
  assert.equal(after.painted, 0, "deleting the template erased the drawing");
  assert.equal(after.last, null);

  // Regions: one flagged as an area (flags.aoekit.area) is read as its template — a 200-pixel
  // circle at the Wizard's centre is the fireball's Cir2, and its author targets as before —;
  // an unflagged one (a teleporter, difficult terrain) is left alone; taking the flag off, or
  // deleting the region, erases the drawing.
  const regions = await page.evaluate(async () => {
    const circle = { type: "circle", x: 1050, y: 850, radius: 200, hole: false };
    const doc = (id, flags) => ({ id, documentName: "Region", parent: canvas.scene, shapes: [circle], elevation: { bottom: null, top: null }, flags });
    const wait = () => new Promise((r) => setTimeout(r, 100));
    const n = window.evaluated.length;
    Hooks.callAll("createRegion", doc("tErRaIn000000001", {}), {}, game.user.id);
    await wait();
    const unflagged = window.evaluated.length - n;
    Hooks.callAll("createRegion", doc("aReA000000000001", { aoekit: { area: true } }), {}, game.user.id);
    await wait();
    const flagged = { notation: window.evaluated.at(-1)?.notation, targets: calls.targets.at(-1)?.ids.length, painted: painted() };
    Hooks.callAll("updateRegion", doc("aReA000000000001", {}), { flags: { aoekit: { "-=area": null } } }, {}, game.user.id);
    const unflaggedAfter = painted();
    Hooks.callAll("updateRegion", doc("aReA000000000001", { aoekit: { area: true } }), { flags: { aoekit: { area: true } } }, {}, game.user.id);
    await wait();
    const again = painted();
    Hooks.callAll("deleteRegion", doc("aReA000000000001", { aoekit: { area: true } }), {}, game.user.id);
    return { unflagged, flagged, unflaggedAfter, again, deleted: painted(), last: game.modules.get("aoekit").api.last };
  });
  assert.equal(regions.unflagged, 0, "a region without the flag is not evaluated");
  assert.deepEqual([regions.flagged.notation, regions.flagged.targets], ["Cir2", 6]);
  assert.ok(regions.flagged.painted > 0 && regions.again > 0, `painted: ${JSON.stringify(regions)}`);
  assert.equal(regions.unflaggedAfter, 0, "taking the flag off erased the drawing");
  assert.deepEqual([regions.deleted, regions.last], [0, null]);

  // Templates again: a drag cancelled (its preview destroyed, no update; a colour changed by
  // someone else meanwhile) shows the template where it is; a placement cancelled (a preview
  // of no document) is forgotten; an update that changes nothing the evaluation reads (a
  // colour) neither targets nor changes the template shown, and one that moves it does both.
  const cancels = await page.evaluate(async () => {
    const wait = () => new Promise((r) => setTimeout(r, 100));
    const api = game.modules.get("aoekit").api;
    const origin = () => JSON.stringify(api.last?.request.origin ?? null);
    const out = {};
    Hooks.callAll("createMeasuredTemplate", templateDoc("fIrEbAlL00000001"), {}, game.user.id);
    await wait();
    out.placed = origin();
    const drag = { isPreview: true, document: { ...templateDoc("fIrEbAlL00000001"), x: 1650 } };
    Hooks.callAll("refreshMeasuredTemplate", drag, {});
    await wait();
    out.dragged = origin();
    // Someone recolours the template while it is dragged: the preview stays the one shown.
    Hooks.callAll("updateMeasuredTemplate", { ...templateDoc("fIrEbAlL00000001"), fillColor: "#0000ff" }, { fillColor: "#0000ff" }, {}, "someone-else");
    Hooks.callAll("destroyMeasuredTemplate", drag);
    await wait();
    out.cancelled = { origin: origin(), notation: api.last?.notation, painted: painted() > 0 };
    const placing = { isPreview: true, document: { ...templateDoc("bUrNiNgHaNdS0002"), id: null, _id: null } };
    Hooks.callAll("refreshMeasuredTemplate", placing, {});
    await wait();
    out.placing = api.last?.notation;
    Hooks.callAll("destroyMeasuredTemplate", placing);
    await wait();
    out.placingCancelled = { last: api.last, painted: painted() };
    Hooks.callAll("createMeasuredTemplate", templateDoc("fIrEbAlL00000001"), {}, game.user.id);
    await wait();
    const before = calls.targets.length;
    Hooks.callAll("updateMeasuredTemplate", { ...templateDoc("bUrNiNgHaNdS0002"), fillColor: "#00ff00" }, { fillColor: "#00ff00" }, {}, game.user.id);
    Hooks.callAll("updateMeasuredTemplate", { ...templateDoc("fIrEbAlL00000001"), hidden: true }, { hidden: true }, {}, game.user.id);
    await wait();
    out.recoloured = { targets: calls.targets.length - before, notation: api.last?.notation };
    Hooks.callAll("updateMeasuredTemplate", { ...templateDoc("bUrNiNgHaNdS0002"), x: 1150 }, { x: 1150 }, {}, game.user.id);
    await wait();
    out.moved = { targets: calls.targets.length - before, notation: api.last?.notation };
    return out;
  });
  assert.notEqual(cancels.dragged, cancels.placed, "the drag preview was evaluated where it is");
  assert.deepEqual(cancels.cancelled, { origin: cancels.placed, notation: "Cir2", painted: true }, "a cancelled drag shows the template where it is");
  assert.equal(cancels.placing, "Con3E");
  assert.deepEqual(cancels.placingCancelled, { last: null, painted: 0 }, "a cancelled placement is forgotten");
  assert.deepEqual(cancels.recoloured, { targets: 0, notation: "Cir2" }, "a colour or hidden change neither targets nor changes the template shown");
  assert.deepEqual(cancels.moved, { targets: 1, notation: "Con3E" }, "a move targets");
  assert.deepEqual(logs, []);

  // An overlay module that cannot load is warned about once, and not fetched again at each pan;
  // turning the setting off and on tries once more, and warns again.
  rmSync(join(folder, "aoekit-overlay.wasm"));
  let fetches = 0;
  const broken = await env.open(PAGE, { viewport: { width: 400, height: 300 }, watch: (p) => p.on("request", (r) => r.url().endsWith("/aoekit-overlay.wasm") && fetches++) });
  const pans = await broken.evaluate(async () => {
    for (let i = 0; i < 10; i++) {
      Hooks.callAll("canvasPan", canvas, {});
      await new Promise((r) => setTimeout(r, 40));
    }
    const warned = calls.warnings.length;
    game.settings.set("aoekit", "overlay", false);
    game.settings.set("aoekit", "overlay", true);
    await new Promise((r) => setTimeout(r, 300));
    return { warned, warnings: calls.warnings };
  });
  await broken.close();
  assert.equal(pans.warned, 1);
  assert.equal(fetches, 2, `aoekit-overlay.wasm fetched ${fetches} times`);
  assert.equal(pans.warnings.length, 2);
  for (const w of pans.warnings) assert.match(w, /^aoekit: the overlay could not load \(.*\); targets are still set$/);
});
