// The Owlbear Rodeo extension's walls (issue: "on a fogged map a token behind a wall reads hit"):
// Dynamic Fog's walls and doors, Owlbear's WALL items, this extension's tags, each a source the
// popover can turn off (web/owlbear/map.mjs, "Walls"). The scene, fixtures/owlbear-dynamic-fog.json,
// is made of items as Dynamic Fog and Owlbear's fog tools make them, built by the SDK's own
// builders; the first test holds every item's fields to what those builders give today.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as O from "../owlbear/map.mjs";
import { assemble, openPopover, violations } from "./fixtures/owlbear-harness.mjs";
import { WEB, chromium, engine, serve, tempDir } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/owlbear-dynamic-fog.json"), "utf8"));
const { items: ITEMS, local: LOCAL, grid: GRID } = FIXTURE;
const FRAME = O.frameOf(GRID);
const item = (name) => ITEMS.find((i) => i.name === name);
const id = (name) => item(name).id;
const NAMES = Object.fromEntries(ITEMS.map((i) => [i.id, i.name]));
const [DF_WALL_1, DF_WALL_2, OTHER_WALL] = LOCAL;

/** The SDK's real builders in Node: the bundle, loaded behind a window that says Owlbear is ready. */
async function sdkInNode(t) {
  const dir = tempDir(t, "aoekit-obr-sdk-");
  const { bundle } = await import("../owlbear/bundle.mjs");
  const file = await bundle(dir);
  const host = "https://www.owlbear.rodeo";
  const listeners = [];
  const saved = globalThis.window;
  globalThis.window = { location: { search: `?obrref=${btoa(`${host} room`)}` }, addEventListener: (_, f) => listeners.push(f), removeEventListener() {}, setTimeout, parent: null };
  try {
    const sdk = await import(`${file}?node`);
    for (const f of listeners) f({ origin: host, data: { id: "OBR_READY", data: { ref: "r", userId: "u" } } });
    return sdk;
  } finally {
    globalThis.window = saved;
  }
}

const shapeOf = (v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, k === "metadata" ? "…" : shapeOf(v[k])])) : Array.isArray(v) ? "array" : typeof v);

test("owlbear walls: the fixture's items have exactly the fields @owlbear-rodeo/sdk's builders give them", async (t) => {
  const sdk = await sdkInNode(t);
  const made = {
    LINE: sdk.buildLine().build(),
    SHAPE: sdk.buildShape().build(),
    CURVE: sdk.buildCurve().closed(true).build(), // style.closed is optional (CurveStyle): Owlbear's fog polygon has it
    PATH: sdk.buildPath().build(),
    WALL: sdk.buildWall().attachedTo("x").disableAttachmentBehavior(["VISIBLE", "COPY"]).build(),
  };
  const wallFree = sdk.buildWall().build(); // a WALL of another extension: not attached
  for (const it of [...ITEMS, ...LOCAL]) {
    if (it.type === "IMAGE") continue; // the tokens are the existing fixture's (owlbear-scene.json)
    const want = it.type === "WALL" && !it.attachedTo ? wallFree : made[it.type];
    assert.ok(want, `${it.type} is a type the SDK builds`);
    assert.deepEqual(shapeOf(it), shapeOf(want), `${it.name} (${it.type}) has the SDK's fields`);
  }
  // Dynamic Fog's own WALL items: the builder's defaults it does not change (WallActor.polylineToWall).
  for (const w of [DF_WALL_1, DF_WALL_2]) {
    assert.deepEqual([w.layer, w.doubleSided, w.blocking, w.name, w.attachedTo], ["FOG", true, true, "Wall", id("Hall wall")]);
  }
  assert.equal(sdk.isWall(DF_WALL_1), true);
  assert.equal(sdk.isLine(item("Hall wall")), true);
});

test("owlbear walls: Dynamic Fog's drawings on the FOG layer, in squares, its doors cut at their markers", () => {
  // The line tool's wall on x = 8 from y 0 to 12 (position (1200, 0), end (0, 1800)): a closed
  // door from 375.2 to 674.6 stays a wall, the open one from 825.4 to 1274.8 (markers stored end
  // first) is open: y 5.5025 … 8.4975 on the 1/400 lattice (825.4 / 150 = 5.50267).
  assert.deepEqual(O.wallsFrom(item("Hall wall"), FRAME), [
    { a: [8, 0], b: [8, 5.5025] },
    { a: [8, 5.5025], b: [8, 8.4975], open: true },
    { a: [8, 8.4975], b: [8, 12] },
  ]);
  // Owlbear's fog rectangle: clockwise from its top-left corner (SkPath::addRect).
  assert.deepEqual(O.wallsFrom(item("Fog rectangle"), FRAME), [{ a: [12, 8], b: [14, 8] }, { a: [14, 8], b: [14, 9] }, { a: [14, 9], b: [12, 9] }, { a: [12, 9], b: [12, 8] }]);
  // The fog polygon, a filled curve of tension 0: closed; its first side (0 … 300 along contour 0)
  // is an open door in the fork's metadata (com.desain.chromodynamic/doors).
  assert.deepEqual(O.wallsFrom(item("Fog polygon"), FRAME), [{ a: [12, 1], b: [14, 1], open: true }, { a: [14, 1], b: [13, 3] }, { a: [13, 3], b: [12, 1] }]);
  // The brush's path: a quadratic from (16, 2) through the control (17, 2) to (17, 3), flattened,
  // then straight back to (16, 3) and closed.
  const brush = O.wallsFrom(item("Fog brush"), FRAME);
  assert.deepEqual(brush[0].a, [16, 2]);
  assert.deepEqual(brush.at(-3).b, [17, 3]);
  assert.deepEqual(brush.slice(-2), [{ a: [17, 3], b: [16, 3] }, { a: [16, 3], b: [16, 2] }]);
  for (const w of brush.slice(0, -2)) {
    // Every point of the curve: B(t) = (16 + 2t − t², 2 + t²) for some t, within the lattice.
    const t2 = w.b[1] - 2;
    assert.ok(Math.abs(16 + 2 * Math.sqrt(t2) - t2 - w.b[0]) < 0.01, `${w.b} lies on the quadratic`);
  }
  // A drawing on the DRAWING layer is not Dynamic Fog's, whatever its metadata says.
  assert.deepEqual(O.wallsFrom(item("Sketch with doors"), FRAME), []);
  // A fog drawing that is not a drawing in Dynamic Fog's sense (an image) makes no wall.
  assert.deepEqual(O.wallsFrom({ ...ITEMS[0], layer: "FOG" }, FRAME), []);
});

test("owlbear walls: a fog circle is its oval, from its right-hand point, clockwise on screen, flattened closely", () => {
  const walls = O.wallsFrom(item("Fog circle"), FRAME);
  assert.ok(walls.length >= 16 && walls.length <= 128, `${walls.length} sides`);
  assert.deepEqual(walls[0].a, [17, 10]);
  assert.ok(walls[0].b[1] > 10, "the first side goes south (clockwise on screen, y down)");
  assert.deepEqual(walls.at(-1).b, [17, 10], "closed");
  for (const w of walls) {
    const r = Math.hypot(w.a[0] - 16, w.a[1] - 10);
    assert.ok(Math.abs(r - 1) <= 1 / 400 + 1e-9, `${w.a} is on the circle of radius 1 (${r})`);
    // The side's middle strays from the circle by at most the tolerances (flattening, simplification).
    const mid = Math.hypot((w.a[0] + w.b[0]) / 2 - 16, (w.a[1] + w.b[1]) / 2 - 10);
    assert.ok(1 - mid <= (O.FLATNESS + O.SIMPLIFY) / FRAME.dpi + 1 / 400, `${w.a} → ${w.b} hugs the circle`);
  }
  // A triangle and a hexagon as Dynamic Fog outlines them (shapeToSkPath, RegularPolygon).
  const tri = O.drawingContours({ ...item("Fog circle"), shapeType: "TRIANGLE", width: 300, height: 150 });
  assert.deepEqual(tri, [{ points: [{ x: 0, y: 0 }, { x: 150, y: 150 }, { x: -150, y: 150 }, { x: 0, y: 0 }], closed: true }]);
  const hex = O.drawingContours({ ...item("Fog circle"), shapeType: "HEXAGON", width: 300, height: 200 })[0].points;
  assert.equal(hex.length, 7);
  assert.deepEqual(hex[0], { x: 0, y: -100 });
  assert.ok(Math.abs(hex[1].x - 100 * Math.sin(Math.PI / 3)) < 1e-9 && Math.abs(hex[1].y + 50) < 1e-9, "turned 60° clockwise");
});

test("owlbear walls: curves of any tension, paths of every verb, door markers", () => {
  // A cardinal spline of tension 0.5 through 4 points (CardinalSpline.addToSkPath, open: a
  // quadratic, cubics, a quadratic): it passes through each point.
  const pts = [{ x: 0, y: 0 }, { x: 300, y: 0 }, { x: 300, y: 300 }, { x: 600, y: 300 }];
  const curve = { ...item("Fog polygon"), points: pts, style: { ...item("Fog polygon").style, tension: 0.5, fillOpacity: 0, closed: false }, metadata: {} };
  const [c] = O.drawingContours(curve);
  assert.equal(c.closed, false);
  for (const p of pts) assert.ok(c.points.some((q) => Math.hypot(q.x - p.x, q.y - p.y) < 1e-9), `passes through (${p.x}, ${p.y})`);
  assert.ok(c.points.length > 8, "flattened");
  // Closed with tension: back to its first point.
  const [closed] = O.drawingContours({ ...curve, style: { ...curve.style, closed: true } });
  assert.deepEqual([closed.closed, closed.points.at(-1)], [true, pts[0]]);
  // A path's contours: a conic, a cubic; a verb after close starts at the last move's point; a
  // zero-length contour is skipped (as Skia's ContourMeasureIter skips it, so door indices match).
  const path = { ...item("Fog brush"), commands: [[0, 0, 0], [0, 50, 50], [3, 100, 50, 100, 100, Math.SQRT1_2], [5], [4, 0, 0, 0, 0, 10, 10], [0, 500, 500]] };
  const cs = O.drawingContours(path);
  assert.equal(cs.length, 2);
  assert.deepEqual(cs[0].points[0], { x: 50, y: 50 });
  assert.equal(cs[0].closed, true);
  assert.deepEqual(cs[1].points[0], { x: 50, y: 50 }, "after close, from the last move's point");
  assert.deepEqual(cs[1].points.at(-1), { x: 10, y: 10 });
  // Doors: both plugin ids; a door across two contours, or with no markers, is left out.
  const doors = (list, plugin = "rodeo.owlbear.dynamic-fog") => O.fogDoors({ metadata: { [`${plugin}/doors`]: list } });
  assert.deepEqual(doors([{ open: true, start: { distance: 9, index: 1 }, end: { distance: 3, index: 1 } }], "com.desain.chromodynamic"), [{ index: 1, from: 3, to: 9, open: true }]);
  assert.deepEqual(doors([{ open: true, start: { distance: 0, index: 0 }, end: { distance: 3, index: 1 } }, { open: false }, null, "door"]), []);
  assert.deepEqual(O.fogDoors({ metadata: { "rodeo.owlbear.dynamic-fog/doors": "no" } }), []);
  // A door on the second contour of a path cuts that contour only.
  const two = { ...item("Fog brush"), commands: [[0, 0, 0], [1, 300, 0], [0, 0, 150], [1, 300, 150]], metadata: { "rodeo.owlbear.dynamic-fog/doors": [{ open: true, start: { distance: 75, index: 1 }, end: { distance: 225, index: 1 } }] } };
  assert.deepEqual(O.wallsFrom(two, FRAME), [
    { a: [16, 2], b: [18, 2] },
    { a: [16, 3], b: [16.5, 3] },
    { a: [16.5, 3], b: [17.5, 3], open: true },
    { a: [17.5, 3], b: [18, 3] },
  ]);
});

test("owlbear walls: sources — Dynamic Fog, Owlbear WALL items (local), tags, drawings; heights from the tag", () => {
  const all = (options) => O.sceneWalls(ITEMS, FRAME, { local: LOCAL, ...options });
  const on = (walls, x) => walls.filter((w) => w.a[0] === x && w.b[0] === x);
  // By default: Dynamic Fog's drawings; its WALL items for the hall wall are skipped (the drawing
  // is read already); the other extension's WALL (one-sided: both ways here) is read.
  const def = all({});
  assert.equal(on(def, 8).length, 3);
  assert.deepEqual(on(def, 11), [{ a: [11, 4], b: [11, 6] }]);
  assert.ok(!def.some((w) => w.a[0] === 7.96), "Dynamic Fog's own WALL items are not read twice");
  // Dynamic Fog off, WALL items on: its local walls stand in for the drawing (the stroke's
  // outline, 12 units wide: x = 7.96 and 8.04), the open door already cut out of them.
  const local = all({ sources: ["walls"] });
  assert.deepEqual(local.filter((w) => w.a[0] === 7.96 && w.b[0] === 7.96), [{ a: [7.96, 0], b: [7.96, 5.395] }, { a: [7.96, 8.605], b: [7.96, 12] }]);
  assert.equal(local.filter((w) => w.a[0] === 11).length, 1);
  assert.ok(!local.some((w) => w.a[0] === 8), "no fog drawing read");
  // Nothing: no walls. Tags only: none here.
  assert.deepEqual(all({ sources: [] }), []);
  assert.deepEqual(all({ sources: ["tagged"] }), []);
  // Every drawing on the DRAWING layer: the sketch (its fog door list ignored).
  assert.deepEqual(all({ sources: [], drawings: true }), [{ a: [2, 1], b: [2, 5] }]);
  // The extension's tag on a fog drawing gives its walls heights (elevations in grid units).
  const tall = { ...item("Hall wall"), metadata: { ...item("Hall wall").metadata, "io.github.aoekit/wall": { bottom: 0, top: 10 } } };
  assert.deepEqual(O.wallsFrom(tall, FRAME).map((w) => [w.bottom, w.top, w.open ?? false]), [[0, 2, false], [0, 2, true], [0, 2, false]]);
  // The template being evaluated is never a wall of its own.
  assert.deepEqual(O.wallsFrom(item("Fog rectangle"), FRAME, { exclude: id("Fog rectangle") }), []);
  assert.equal(O.wallSource(OTHER_WALL, {}), "walls");
  assert.equal(O.wallSource(DF_WALL_1, { fogIds: new Set([id("Hall wall")]) }), null);
  assert.equal(O.wallSource(DF_WALL_1, { fogIds: new Set([id("Hall wall")]), sources: ["walls"] }), "walls");
});

test("owlbear walls: behind Dynamic Fog's wall a token is covered, through its open door it is hit", async () => {
  // Cir6 around the Wizard (4, 6). The Goblin (9, 6) is seen through the open door (y 5.5 … 8.5 on
  // x = 8): every line from the origin's corners crosses x = 8 at y 6 … 7, hit. The Kobold (9, 3)
  // is behind the closed door and the wall (y 0 … 5.5): the lines cross x = 8 at y 3.6 … 5.0,
  // all blocked, full cover (SPEC §5.5) — not "hit", as the extension answered before it read
  // Dynamic Fog's walls.
  const run = async (options) => {
    const built = O.requestFrom({ items: ITEMS, grid: GRID, notation: "Cir6", casterId: id("Wizard"), local: LOCAL, ...options });
    const result = (await engine()).evaluate(built.request);
    return Object.fromEntries(O.mergeTargets(result.targets, built).map((t) => [NAMES[t.id], O.coverText(t)]));
  };
  assert.deepEqual(await run({}), { Wizard: "targeting", Goblin: "hit", Kobold: "full cover" });
  assert.deepEqual(await run({ sources: ["tagged"] }), { Wizard: "targeting", Goblin: "hit", Kobold: "hit" });
  // Dynamic Fog's own WALL items (its stroke's outline) give the same answer.
  assert.deepEqual(await run({ sources: ["walls"] }), { Wizard: "targeting", Goblin: "hit", Kobold: "full cover" });
  // The open door closed (Dynamic Fog's toggleDoorOpen flips `open`): the Goblin is covered too.
  const closed = ITEMS.map((i) => (i.name === "Hall wall" ? { ...i, metadata: { "rodeo.owlbear.dynamic-fog/doors": i.metadata["rodeo.owlbear.dynamic-fog/doors"].map((d) => ({ ...d, open: false })) } } : i));
  const built = O.requestFrom({ items: closed, grid: GRID, notation: "Cir6", casterId: id("Wizard") });
  const goblin = O.mergeTargets((await engine()).evaluate(built.request).targets, built).find((t) => t.id === id("Goblin"));
  assert.equal(O.coverText(goblin), "full cover");
});

test("owlbear walls: the popover reads Dynamic Fog's walls, and its setting turns them off (Chromium)", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = await assemble(tempDir(t, "aoekit-owlbear-"));
  const { page, logs } = await openPopover(t, browser, dir, { items: ITEMS, local: LOCAL, grid: GRID, selection: [id("Wizard")] }, { serve, prefs: { rules: "tdgs", notation: "Cir6", live: true } });
  const labels = () => page.evaluate(() => window.obr.local.filter((i) => i.type === "LABEL").map((i) => i.text.plainText).sort());
  await page.waitForFunction(() => window.obr.local.some((i) => i.type === "LABEL"), null, { timeout: 60_000 }).catch((err) => {
    throw new Error(`${err.message}\n${logs.join("\n")}`);
  });
  assert.deepEqual(await labels(), ["Goblin: hit", "Kobold: full cover", "Wizard: targeting"]);
  const boxes = await page.evaluate(() => ["src-fog", "src-walls", "src-tagged", "drawings"].map((id) => document.getElementById(id).checked));
  assert.deepEqual(boxes, [true, true, true, false], "Dynamic Fog, WALL items and tags by default");
  // The popover's own drawing changes the local items (the stub reports it, as Owlbear does):
  // that is no reason to evaluate again; a change to the local WALL items is.
  const quiet = await page.evaluate(async () => {
    const before = window.obr.reads;
    await new Promise((r) => setTimeout(r, 600));
    return window.obr.reads - before;
  });
  assert.equal(quiet, 0, "no run follows the popover's own drawing");
  // Dynamic Fog and Owlbear's WALL items off: no wall is left, the Kobold is hit.
  await page.evaluate(() => {
    for (const id of ["src-fog", "src-walls"]) document.getElementById(id).click();
  });
  await page.waitForFunction(() => window.obr.local.some((i) => i.type === "LABEL" && i.text.plainText === "Kobold: hit"), null, { timeout: 30_000 });
  assert.deepEqual(await labels(), ["Goblin: hit", "Kobold: hit", "Wizard: targeting"]);
  // WALL items back on: Dynamic Fog's local walls cover the Kobold again.
  await page.evaluate(() => document.getElementById("src-walls").click());
  await page.waitForFunction(() => window.obr.local.some((i) => i.type === "LABEL" && i.text.plainText === "Kobold: full cover"), null, { timeout: 30_000 });
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("aoekit-owlbear")).sources);
  assert.deepEqual(stored, { tagged: true, fog: false, walls: true });
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), []);
});
