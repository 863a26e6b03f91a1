// The Owlbear Rodeo adapter (web/owlbear): map.mjs turns an Owlbear scene's items —
// fixtures/owlbear-scene.json, written by hand in the shapes @owlbear-rodeo/sdk 3 gives them
// (IMAGE, LINE, CURVE, SHAPE items; the grid's dpi and scale) — into aoekit requests, evaluated
// here with the real engine; the expectations are worked out by hand from SPEC in the comments.
// Then manifest.json is checked for what Owlbear reads, and the popover (index.html and
// owlbear.mjs) runs in Chromium against a stub of the SDK checked against the SDK's own
// declarations, with its real builders (fixtures/owlbear-sdk-stub.mjs): selecting a circle shape
// evaluates it, draws the area and labels as local items and lists the targets (skipped, loudly,
// without /usr/bin/chromium). Dynamic Fog's walls: owlbear-walls.test.mjs; hosting the folder:
// owlbear-host.test.mjs; the SDK's types: owlbear-sdk.test.mjs; grids and the room's rules:
// owlbear-rules.test.mjs.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as O from "../owlbear/map.mjs";
import { assemble, openPopover, owlbearLists, violations } from "./fixtures/owlbear-harness.mjs";
import { ROOT, WEB, chromium, engine, serve, tempDir } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/owlbear-scene.json"), "utf8"));
const ITEMS = FIXTURE.items;
const GRID = FIXTURE.grid;
const FRAME = O.frameOf(GRID);

// The board: 150 scene units a square (dpi 150), "5ft" a square, so a level is 5 ft. The map
// image (3000 × 2250 at 150 dpi, at the origin) covers squares 0…19 × 0…14. Tokens are 300-pixel
// images at 300 dpi (one square) centred on their square: Wizard (6, 5) party · Orc (8, 5)
// enemy · Ogre scaled × 2 (2 × 2) centred on the intersection (4, 5): squares 3…4 × 4…5 · a
// Horse on the MOUNT layer, 600 × 300 (2 × 1) on (4…5, 7) · Bat (7, 4) at 15 ft (level 3) ·
// Guard (6, 2) · Scout (4, 5), invisible · a Barrel on the PROP layer (not a token) on (7, 6).
// Walls (tagged io.github.aoekit/wall): a LINE on x = 8 from y = 3 to 8; a closed door, a LINE
// whose item sits at (750, 450) with its end 300 units east: y = 3 from x = 5 to 7; a closed
// CURVE around (11, 11); a SHAPE RECTANGLE crate over (12…13, 3…4). An untagged LINE "Sketch" on
// the DRAWING layer, x = 2 from y = 2 to 6. Template shapes: a CIRCLE 750 wide (radius 2.5
// squares) centred on (6, 5); a RECTANGLE 450 × 300 from (450, 300): squares 3…5 × 2…3; a TRIANGLE.
const item = (name) => ITEMS.find((i) => i.name === name);
const id = (name) => item(name).id;
const NAMES = Object.fromEntries(ITEMS.map((i) => [i.id, i.name]));

async function run(input) {
  const built = O.requestFrom({ items: ITEMS, grid: GRID, ...input });
  const result = (await engine()).evaluate(built.request);
  const targets = O.mergeTargets(result.targets, built);
  return { built, request: built.request, result, targets, byName: Object.fromEntries(targets.map((t) => [NAMES[t.id] ?? t.id, t])) };
}

const level = (result, z) => result.cells.filter((c) => c[2] === z);
const withItem = (name, changes) => ITEMS.map((i) => (i.name === name ? { ...i, ...changes } : i));

test("owlbear: the grid — dpi and scale", () => {
  assert.deepEqual(FRAME, { dpi: 150, distance: 5 });
  assert.equal(O.parseScale("5ft"), 5);
  assert.equal(O.parseScale("1.5m"), 1.5);
  assert.equal(O.parseScale("10 ft"), 10);
  assert.equal(O.parseScale({ raw: "5ft", parsed: { multiplier: 5, unit: "ft", digits: 0 } }), 5);
  assert.equal(O.parseScale("ft"), 5);
  assert.throws(() => O.frameOf({ dpi: 150, scale: "5ft", type: "HEX_VERTICAL" }), /only square grids/);
  assert.throws(() => O.frameOf({ dpi: 0 }), /dpi/);
});

test("owlbear: images as tokens — position, grid offset, dpi, scale, rotation; elevation and side from metadata", () => {
  const pieces = (it) => O.tokenPieces(it, FRAME).map(({ id: pid, ...p }) => ({ id: pid.replace(it.id, "*"), ...p }));
  assert.deepEqual(pieces(item("Wizard")), [{ id: "*", x: 6, y: 5, z: 0, size: 1, side: "party" }]);
  // Scaled × 2: 2 × 2 squares, centred on (4, 5).
  assert.deepEqual(pieces(item("Ogre")), [{ id: "*", x: 3, y: 4, z: 0, size: 2, side: "enemy" }]);
  // 600 × 300 at 300 dpi: 2 × 1, two pieces; no side in its metadata: none.
  assert.deepEqual(pieces(item("Horse")), [{ id: "*#0", x: 4, y: 7, z: 0, size: 1 }, { id: "*#1", x: 5, y: 7, z: 0, size: 1 }]);
  // A quarter turn about its centre (5, 7.5): 1 × 2, on (5, 7…8) (a centre on a grid line goes east).
  assert.deepEqual(pieces({ ...item("Horse"), rotation: 90 }).map((p) => [p.x, p.y]), [[5, 7], [5, 8]]);
  // A flipped image (negative scale) keeps its size.
  assert.deepEqual(pieces({ ...item("Ogre"), scale: { x: -2, y: 2 } }).map((p) => [p.x, p.y, p.size]), [[3, 4, 2]]);
  // Its grid offset at the image's bottom centre: the position is its feet, the token's centre half a square above.
  assert.deepEqual(pieces({ ...item("Orc"), grid: { dpi: 300, offset: { x: 150, y: 300 } }, position: { x: 1275, y: 900 } }).map((p) => [p.x, p.y]), [[8, 5]]);
  // An image at another dpi than the scene's: 150-pixel image at 75 dpi = 2 squares.
  assert.equal(pieces({ ...item("Orc"), image: { ...item("Orc").image, width: 150, height: 150 }, grid: { dpi: 75, offset: { x: 75, y: 75 } }, position: { x: 1200, y: 900 } })[0].size, 2);
  // Elevation in grid units: 15 ft is level 3.
  assert.equal(pieces(item("Bat"))[0].z, 3);
  assert.equal(O.levelOf(FRAME, 7), 1);
});

test("owlbear: walls — tagged lines, curves and rectangles, item transforms, doors, heights", () => {
  assert.deepEqual(O.wallsFrom(item("East wall"), FRAME), [{ a: [8, 3], b: [8, 8] }]);
  // The door's points are its item's own: (750, 450) + (0…300, 0).
  assert.deepEqual(O.wallsFrom(item("North door"), FRAME), [{ a: [5, 3], b: [7, 3] }]);
  assert.deepEqual(O.wallsFrom({ ...item("North door"), metadata: { [`${O.META}/wall`]: { open: true } } }, FRAME), [{ a: [5, 3], b: [7, 3], open: true }]);
  // A closed curve: 4 sides; a rectangle: 4 sides. A curve is closed when it is filled or
  // `closed`, as Owlbear draws it and Dynamic Fog reads it (PathHelpers.curveToSkPath:
  // `fillOpacity > 0 || closed`): unfilled and open, 3 sides.
  assert.deepEqual(O.wallsFrom(item("Pillar"), FRAME), [{ a: [11, 11], b: [12, 11] }, { a: [12, 11], b: [12, 12] }, { a: [12, 12], b: [11, 12] }, { a: [11, 12], b: [11, 11] }]);
  assert.equal(O.wallsFrom({ ...item("Pillar"), style: { ...item("Pillar").style, closed: false, fillOpacity: 0 } }, FRAME).length, 3);
  assert.equal(O.wallsFrom({ ...item("Pillar"), style: { ...item("Pillar").style, closed: false } }, FRAME).length, 4);
  assert.deepEqual(O.wallsFrom(item("Crate"), FRAME), [{ a: [12, 3], b: [14, 3] }, { a: [14, 3], b: [14, 5] }, { a: [14, 5], b: [12, 5] }, { a: [12, 5], b: [12, 3] }]);
  // Untagged: no wall, unless every drawing is.
  assert.deepEqual(O.wallsFrom(item("Sketch"), FRAME), []);
  assert.deepEqual(O.wallsFrom(item("Sketch"), FRAME, { drawings: true }), [{ a: [2, 2], b: [2, 6] }]);
  // Rotated and scaled: a LINE at (975, 825) turned a quarter turn, its end (300, 0) scaled × 0.5: (975, 975).
  const turned = { ...item("East wall"), position: { x: 975, y: 825 }, rotation: 90, scale: { x: 0.5, y: 1 }, startPosition: { x: 0, y: 0 }, endPosition: { x: 300, y: 0 } };
  assert.deepEqual(O.wallsFrom(turned, FRAME), [{ a: [6.5, 5.5], b: [6.5, 6.5] }]);
  // Heights in grid units → levels; bottom above top: no wall.
  const tag = (t) => O.wallsFrom({ ...item("East wall"), metadata: { [`${O.META}/wall`]: t } }, FRAME);
  assert.deepEqual(tag({ bottom: 0, top: 2.5 }), [{ a: [8, 3], b: [8, 8], bottom: 0, top: 0.5 }]);
  assert.deepEqual(tag({ bottom: 10, top: 5 }), []);
  // A path of straight segments.
  const path = { ...item("Sketch"), type: "PATH", commands: [[0, 0, 0], [1, 150, 0], [1, 150, 150], [5]], metadata: { [`${O.META}/wall`]: true } };
  assert.deepEqual(O.wallsFrom(path, FRAME), [{ a: [0, 0], b: [1, 0] }, { a: [1, 0], b: [1, 1] }, { a: [1, 1], b: [0, 0] }]);
  // The map's bounds.
  assert.deepEqual(O.mapBounds(ITEMS, FRAME), { min: [0, 0], max: [19, 14] });
});

test("owlbear: a circle shape behind a wall — TDGS cover, Draw Steel barrier, 50 % circle", async () => {
  // The circle's radius is 2.5 squares: round(2.5 − ½) = 2 → Cir2 on (6, 5): squares 4…8 × 3…7.
  // The Orc on (8, 5) is in it, behind the wall on x = 8: its 4 west-face lines cross the wall,
  // f = 1, full cover, not affected (SPEC §5.5). The Barrel (PROP) and the map are not tokens.
  const { request, result, byName } = await run({ shapeId: id("Fireball") });
  assert.equal(request.template, "Cir2");
  assert.deepEqual(request.origin, { x: 6, y: 5, z: 0 });
  assert.deepEqual(request.bounds, { min: [0, 0, 0], max: [19, 14, 3] });
  assert.deepEqual(Object.keys(byName).sort(), ["Horse", "Ogre", "Orc", "Scout", "Wizard"]);
  assert.equal(byName.Orc.cover, "full");
  assert.equal(byName.Orc.affected, false);
  assert.equal(level(result, 0).length, 25);
  assert.ok(!request.tokens.some((t) => NAMES[t.id] === "Barrel" || NAMES[t.id] === "Sunken Crypt"));
  // Draw Steel: a burst from the Wizard on the circle's centre square: round(2.5 − ½) = 2 burst,
  // cut by the wall (SPEC §3.2): 20 squares a level, the Orc out (barrier).
  const ds = await run({ shapeId: id("Fireball"), rules: "drawsteel" });
  assert.equal(ds.request.template, "2 burst");
  assert.equal(ds.built.casterId, id("Wizard"));
  assert.equal(level(ds.result, 0).length, 20);
  assert.equal(ds.byName.Orc.reason, "barrier");
  assert.equal(ds.byName.Wizard.caster, true);
  assert.ok(!O.affectedIds(ds.targets).includes(id("Wizard")));
  // The 50 % circle: `circle 2`, the wall stopping its fill.
  const c50 = await run({ shapeId: id("Fireball"), rules: "circle50" });
  assert.equal(c50.request.template, "circle 2");
  assert.equal(c50.byName.Orc.inArea, false);
});

test("owlbear: a door — closed gives full cover, open none", async () => {
  // Cir3 around the Wizard (a notation used by the selected Wizard, centred on it): squares
  // 3…9 × 2…8, so the Guard on (6, 2) is in; the door on y = 3 from x = 5 to 7 is between: its 4
  // south-face lines cross the door. The Wizard, the caster, is kept out of its own area.
  const closed = await run({ notation: "Cir3", casterId: id("Wizard") });
  assert.equal(closed.byName.Guard.cover, "full");
  assert.equal(closed.byName.Guard.affected, false);
  assert.equal(closed.byName.Wizard.affected, false);
  assert.equal(closed.byName.Wizard.reason, "targeting");
  const opened = O.requestFrom({ items: withItem("North door", { metadata: { [`${O.META}/wall`]: { open: true } } }), grid: GRID, notation: "Cir3", casterId: id("Wizard") });
  const r = (await engine()).evaluate(opened.request);
  const guard = O.mergeTargets(r.targets, opened).find((t) => t.id === id("Guard"));
  assert.equal(guard.cover, "none");
  assert.equal(guard.affected, true);
});

test("owlbear: notations with a caster, an origin and an aim", async () => {
  // Con3E used by the Wizard: squares (7, 5); (8, 4…6); (9, 3…7); the Orc behind the wall.
  const cone = await run({ notation: " Con3E ", casterId: id("Wizard") });
  assert.equal(cone.request.template, "Con3E");
  assert.equal(cone.request.caster.facing, "N");
  assert.equal(cone.result.direction, "E");
  assert.equal(level(cone.result, 0).length, 9);
  assert.equal(cone.byName.Orc.cover, "full");
  // A placed circle: Cir1 used by the Wizard, on the Barrel's square (7, 6).
  const placed = await run({ notation: "Cir1", casterId: id("Wizard"), originId: id("Barrel") });
  assert.deepEqual(placed.request.origin, { x: 7, y: 6, z: 0 });
  assert.deepEqual(level(placed.result, 0).map(([x, y]) => [x, y]), [[6, 5], [7, 5], [8, 5], [6, 6], [7, 6], [8, 6], [6, 7], [7, 7], [8, 7]]);
  // A Draw Steel line from the Barrel's square toward the Guard's: origin (7, 6), aim (6, 2).
  const line = await run({ notation: "4 x 1 line", rules: "drawsteel", casterId: id("Wizard"), originId: id("Barrel"), aimId: id("Guard") });
  assert.deepEqual([line.request.origin, line.request.aim], [{ x: 7, y: 6, z: 0 }, { x: 6, y: 2, z: 0 }]);
  assert.equal(level(line.result, 0).length, 4);
  // Errors say what is missing.
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, notation: "  " }), /write a template/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, notation: "Cir1", casterId: id("East wall") }), /not a token/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, shapeId: id("Arrow") }), /not a template/);
  assert.throws(() => O.requestFrom({ items: ITEMS, grid: GRID, shapeId: "nope" }), /no item/);
});

test("owlbear: shapes as templates — circles and rectangles, by rule set", async () => {
  assert.deepEqual(O.shapeTemplate(item("Fireball"), FRAME), { kind: "circle", template: "Cir2", origin: { x: 6, y: 5 }, centre: { x: 6, y: 5 } });
  assert.equal(O.shapeTemplate({ ...item("Fireball"), width: 1050 }, FRAME).template, "Cir3");
  assert.equal(O.shapeTemplate({ ...item("Fireball"), width: 100 }, FRAME).template, "Cir1");
  // A burst counts from its caster's edge: round(radius − size / 2), a tie rounding up.
  assert.equal(O.shapeTemplate(item("Fireball"), FRAME, "drawsteel", 2).template, "2 burst");
  assert.equal(O.shapeTemplate({ ...item("Fireball"), width: 690 }, FRAME, "drawsteel", 2).template, "1 burst");
  // The rectangle: squares 3…5 × 2…3, Rec3x2 anchored at its south-west square (3, 3).
  assert.deepEqual(O.shapeTemplate(item("Zone"), FRAME), { kind: "rect", template: "Rec3x2", origin: { x: 3, y: 3 } });
  const zone = await run({ shapeId: id("Zone") });
  assert.deepEqual(level(zone.result, 0).map(([x, y]) => [x, y]), [[3, 2], [4, 2], [5, 2], [3, 3], [4, 3], [5, 3]]);
  // A square one under Draw Steel is a cube named by its north-west square.
  assert.deepEqual(O.shapeTemplate({ ...item("Zone"), height: 450 }, FRAME, "drawsteel"), { kind: "rect", template: "3 cube", origin: { x: 3, y: 2 } });
  assert.equal(O.shapeTemplate(item("Arrow"), FRAME), null);
  assert.equal(O.shapeTemplate(item("Wizard"), FRAME), null);
});

test("owlbear: elevation, invisible tokens, rectangular tokens", async () => {
  // The Bat at 15 ft (level 3) is above Cir2's levels 0…1; at 5 ft it is in, on (7, 4).
  assert.equal((await run({ shapeId: id("Fireball") })).byName.Bat, undefined);
  const low = O.requestFrom({ items: withItem("Bat", { metadata: { [`${O.META}/elevation`]: 5 } }), grid: GRID, shapeId: id("Fireball") });
  const r = (await engine()).evaluate(low.request);
  assert.equal(O.mergeTargets(r.targets, low).find((t) => t.id === id("Bat"))?.inArea, true);
  // Invisible tokens are left out for players.
  assert.equal((await run({ shapeId: id("Fireball"), includeHidden: false })).byName.Scout, undefined);
  // The Horse (2 × 1) is one target.
  const { targets } = await run({ shapeId: id("Fireball") });
  assert.equal(targets.filter((t) => t.id === id("Horse")).length, 1);
});

test("owlbear: drawing runs — one rectangle a run of squares", () => {
  const cells = [[4, 3, 0], [5, 3, 0], [6, 3, 0], [8, 3, 0], [4, 4, 0], [4, 4, 1], [5, 4, 1]];
  assert.deepEqual(O.cellRuns(cells, 0), [{ x: 4, y: 3, length: 3 }, { x: 8, y: 3, length: 1 }, { x: 4, y: 4, length: 1 }]);
  assert.deepEqual(O.cellRuns(cells, 1), [{ x: 4, y: 4, length: 2 }]);
  assert.deepEqual(O.runRect({ x: 4, y: 3, length: 3 }, FRAME), { position: { x: 600, y: 450 }, width: 450, height: 150 });
  assert.deepEqual(O.labelPoint({ x: 8, y: 5 }, FRAME), { x: 1275, y: 750 });
});

test("owlbear: manifest.json is what Owlbear Rodeo reads", () => {
  const manifest = JSON.parse(readFileSync(join(WEB, "owlbear/manifest.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  assert.equal(manifest.manifest_version, 1);
  assert.equal(typeof manifest.name, "string");
  assert.ok(manifest.name.length > 0 && manifest.name.length <= 45, "a name of at most 45 characters");
  assert.equal(manifest.version, pkg.version);
  assert.ok(typeof manifest.description === "string" && manifest.description.length <= 128, "a description of at most 128 characters");
  for (const key of ["title", "icon", "popover"]) assert.equal(typeof manifest.action[key], "string", `action.${key}`);
  assert.ok(Number.isInteger(manifest.action.width) && Number.isInteger(manifest.action.height));
  // Every path is relative (resolved against the manifest's own URL, so the folder can sit at
  // any path of any origin) and names a file of the extension's folder.
  const { own } = owlbearLists();
  // The background page runs while the room is open (Owlbear's manifest: background_url).
  assert.equal(typeof manifest.background_url, "string", "a background page");
  for (const path of [manifest.icon, manifest.action.icon, manifest.action.popover, manifest.background_url]) {
    assert.doesNotMatch(path, /^\/|^[a-z]+:/i, `${path} is relative`);
    assert.ok(own.includes(path), `${path} is copied into the extension's folder`);
  }
  // The popover loads owlbear.mjs, which imports the SDK from the bundle beside it
  // (bundle.mjs), not from a CDN; the page has no inline script (a strict CSP allows it).
  const html = readFileSync(join(WEB, "owlbear/index.html"), "utf8");
  assert.doesNotMatch(html, /https?:\/\//, "index.html loads nothing from another origin");
  assert.deepEqual([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]), ['<script type="module" src="./owlbear.mjs">'], "one script, from a file");
  const imports = (file) => [...readFileSync(join(WEB, "owlbear", file), "utf8").matchAll(/^import [^;]* from "([^"]+)";$/gm)].map((m) => m[1]);
  assert.deepEqual(imports("owlbear.mjs"), ["./obr-sdk.js", "./map.mjs", "./prefs.mjs"]);
  assert.deepEqual(imports("background.mjs"), ["./obr-sdk.js", "./index.js", "./map.mjs", "./prefs.mjs"]);
  assert.deepEqual(imports("menu.mjs"), ["./obr-sdk.js", "./map.mjs"]);
  assert.match(html, /<script type="module" src="\.\/owlbear\.mjs"><\/script>/);
  for (const [page, script] of [["background.html", "background.mjs"], ["menu.html", "menu.mjs"]]) {
    const text = readFileSync(join(WEB, "owlbear", page), "utf8");
    assert.ok(own.includes(page) && own.includes(script), `${page} and ${script} are copied into the folder`);
    assert.doesNotMatch(text, /https?:\/\//, `${page} loads nothing from another origin`);
    assert.deepEqual([...text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]), [`<script type="module" src="./${script}">`], `${page}: one script, from a file`);
  }
});

test("owlbear: the popover in Chromium, with a stub of the SDK, evaluates the selected circle and draws it", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = await assemble(tempDir(t, "aoekit-owlbear-"));
  assert.ok(existsSync(join(dir, "aoekit.wasm")));
  const { page, logs } = await openPopover(t, browser, dir, { items: ITEMS, grid: GRID, selection: [id("Fireball")], room: { [O.RULES_KEY]: "tdgs" } }, { serve, prefs: { rules: "tdgs", live: true, select: true } });
  await page.waitForFunction(() => document.querySelectorAll("#targets li").length > 0, null, { timeout: 60_000 }).catch((err) => {
    throw new Error(`${err.message}\n${logs.join("\n")}`);
  });
  const out = await page.evaluate(() => ({
    status: document.getElementById("status").textContent,
    list: [...document.querySelectorAll("#targets li")].map((li) => li.textContent),
    shapes: window.obr.local.filter((i) => i.type === "SHAPE").map((i) => [i.position, i.width, i.height]),
    labels: window.obr.local.filter((i) => i.type === "LABEL").map((i) => i.text.plainText).sort(),
    selected: window.obr.selected,
    menus: window.obr.menus,
  }));
  // Cir2 on (6, 5): 25 squares on level 0 in 5 runs (rows 3…7, columns 4…8): 750 × 150 each.
  assert.match(out.status, /^Cir2: 50 squares, 4 affected\.$/);
  assert.deepEqual(out.shapes, [3, 4, 5, 6, 7].map((y) => [{ x: 600, y: y * 150 }, 750, 150]));
  assert.deepEqual(out.labels, ["Horse: hit", "Ogre: hit", "Orc: full cover", "Scout: hit", "Wizard: hit"]);
  assert.ok(out.list.includes("Orc: not affected (cover), cover full"), out.list.join(" | "));
  assert.deepEqual([...out.selected].sort(), [id("Horse"), id("Ogre"), id("Scout"), id("Wizard")].sort());
  assert.deepEqual(out.menus, [`${O.META}/token`, `${O.META}/wall`, `${O.META}/door`]);

  // A refusal takes the last answer away: the fireball moved 40 squares east of the map's
  // tokens is still answered; a Draw Steel "2 cube within 3" from the Wizard on the Ogre's
  // square is drawn, then the Ogre (its origin) walks out of range: the status says why, and
  // neither its squares, its labels nor its list stay.
  const refused = await page.evaluate(async () => {
    const look = () => ({
      status: document.getElementById("status").textContent,
      error: document.getElementById("status").classList.contains("error"),
      list: document.querySelectorAll("#targets li").length,
      local: window.obr.local.length,
    });
    const settle = () => new Promise((r) => setTimeout(r, 300));
    document.getElementById("select").click(); // off: the selection stays the user's
    const rules = document.getElementById("rules");
    rules.value = "drawsteel";
    rules.dispatchEvent(new Event("change"));
    const notation = document.getElementById("notation");
    notation.value = "2 cube within 3";
    window.obr.selection = [window.obr.items.find((i) => i.name === "Wizard").id, window.obr.items.find((i) => i.name === "Ogre").id];
    notation.dispatchEvent(new Event("input"));
    await settle();
    const drawn = look();
    const ogre = window.obr.items.find((i) => i.name === "Ogre");
    ogre.position = { x: ogre.position.x, y: ogre.position.y + 900 };
    document.getElementById("evaluate").click();
    await settle();
    return { drawn, refused: look() };
  });
  assert.match(refused.drawn.status, /^2 cube within 3: 8 squares, \d+ affected\.$/);
  assert.ok(refused.drawn.list > 0 && refused.drawn.local > 0, JSON.stringify(refused.drawn));
  assert.match(refused.refused.status, /the range is 3/);
  assert.deepEqual([refused.refused.error, refused.refused.list, refused.refused.local], [true, 0, 0], JSON.stringify(refused.refused));

  // An Evaluate click while a live run is under way, after live was unticked, is not lost: the
  // background page's run after it is forced. (The scene's items are held back until the
  // popover's messages have reached it.)
  const reads = await page.evaluate(async () => {
    let open;
    const stub = window.obr;
    stub.gate = new Promise((r) => { open = r; }); // the stub's getItems waits for it
    stub.reads = 0;
    const live = document.getElementById("live");
    if (!live.checked) throw new Error("live is off");
    document.getElementById("notation").dispatchEvent(new Event("input")); // a run starts, and waits at the gate
    await new Promise((r) => setTimeout(r, 50));
    live.click(); // off
    document.getElementById("evaluate").click();
    await new Promise((r) => setTimeout(r, 50)); // both messages reach the background page while its run waits
    open();
    await new Promise((r) => setTimeout(r, 300));
    stub.gate = null;
    return stub.reads;
  });
  assert.equal(reads, 2, "the Evaluate click made a run of its own");
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), [], "every SDK call is one @owlbear-rodeo/sdk declares");
});
