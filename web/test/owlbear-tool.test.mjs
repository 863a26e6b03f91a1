// The Owlbear Rodeo extension at the table (issue: "It lives only in its popover"): a background
// page that keeps evaluating and drawing while the popover is closed, a tool that places
// templates by dragging, and context menus that set a token's and a wall's settings. In
// Chromium, the extension's pages are frames of a page that plays Owlbear's room, on the SDK stub
// that refuses any call @owlbear-rodeo/sdk does not declare (owlbear-harness.mjs openRoom).
// Expectations come from SPEC (the areas and cover worked out by hand in the comments), from the
// SDK's declared shapes (ToolContext, ToolEvent, KeyEvent, ContextMenuItem) and from the fixture
// scene (owlbear.test.mjs describes it).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as O from "../owlbear/map.mjs";
import { addFrame, assemble, closeFrame, openRoom, violations } from "./fixtures/owlbear-harness.mjs";
import { WEB, chromium, engine, serve, tempDir } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/owlbear-scene.json"), "utf8"));
const { items: ITEMS, grid: GRID } = FIXTURE;
const FRAME = O.frameOf(GRID);
const item = (name) => ITEMS.find((i) => i.name === name);
const id = (name) => item(name).id;
const NAMES = Object.fromEntries(ITEMS.map((i) => [i.id, i.name]));
const sq = (x, y) => ({ x: x * 150, y: y * 150 });
const TOOL = "io.github.aoekit/tool";
const MODE = (m) => `io.github.aoekit/mode/${m}`;

// ---------------------------------------------------------------------------------------------
// The tool's geometry (map.mjs), by hand.

test("owlbear tool: a drag's template under each rule set", () => {
  const t = (mode, rules, start, end, extra = {}) => O.toolTemplate({ mode, start: sq(...start), end: sq(...end), ...extra }, FRAME, rules);
  // A circle dragged 2.5 squares from the middle of (6, 5): its edge lies n + ½ from the centre,
  // so n = 2 (SPEC §2.3: Cir2); the 50 % circle alike; 5e a 15-foot-radius sphere (round(2.5) = 3
  // squares) on the exact start; PF2e a burst on the nearest intersection (7, 6).
  assert.deepEqual(t("circle", "tdgs", [6.5, 5.5], [9, 5.5]), { template: "Cir2", caster: "none", origin: { x: 6, y: 5 } });
  assert.equal(t("circle", "circle50", [6.5, 5.5], [9, 5.5]).template, "circle 2");
  assert.deepEqual(t("circle", "dnd5e", [6.5, 5.5], [9, 5.5]), { template: "15-foot-radius sphere", caster: "none", point: { x: 6.5, y: 5.5, z: 0 } });
  assert.deepEqual(t("circle", "pf2e", [6.6, 5.6], [9, 5.6]).point, { x: 7, y: 6, z: 0 });
  // Draw Steel: a burst from the token there, X = round(2.5 − ½) = 2.
  assert.deepEqual(t("circle", "drawsteel", [6.5, 5.5], [9, 5.5]), { template: "2 burst", caster: "any" });
  // Cones and lines: TDGS compass directions (SPEC §1.2) from the nearest angle; 100° is S.
  assert.deepEqual(t("cone", "tdgs", [6.5, 5.5], [9.5, 5.5]), { template: "Con3E", caster: "any" });
  assert.equal(t("cone", "tdgs", [6.5, 5.5], [6.5 + 3 * Math.cos((100 * Math.PI) / 180), 5.5 + 3 * Math.sin((100 * Math.PI) / 180)]).template, "Con3S");
  assert.equal(t("line", "tdgs", [6.5, 5.5], [3.5, 2.5]).template, "Lin4NW"); // 3√2 ≈ 4.24 → 4
  // 5e: degrees clockwise from east (SPEC §10.2), the point at mid-height; PF2e cones a compass
  // name (§11.2): 30° is nearer SE (45°) than E (0°).
  // (The end is read to 1/400 of a square, so 30° comes out as 30.005°.)
  const cone5e = t("cone", "dnd5e", [6.5, 5.5], [6.5 + 3 * Math.cos(Math.PI / 6), 5.5 + 1.5]);
  assert.deepEqual({ ...cone5e, toward: Math.round(cone5e.toward * 10) / 10 }, { template: "15-foot cone", caster: "token", point: { x: 6.5, y: 5.5, z: 0.5 }, toward: 30 });
  assert.equal(t("cone", "pf2e", [6.5, 5.5], [6.5 + 3 * Math.cos(Math.PI / 6), 5.5 + 1.5]).toward, "SE");
  assert.equal(Math.round(t("line", "pf2e", [6.5, 5.5], [6.5 + 3 * Math.cos(Math.PI / 6), 5.5 + 1.5]).toward), 30);
  // Draw Steel: a line from the start's square toward the end's (SPEC §3.5); no cones.
  assert.deepEqual(t("line", "drawsteel", [6.5, 5.5], [10.5, 5.5]), { template: "4 x 1 line", caster: "none", origin: { x: 6, y: 5 }, aim: { x: 10, y: 5 } });
  assert.throws(() => t("cone", "drawsteel", [6.5, 5.5], [9.5, 5.5]), /Draw Steel has no cones/);
  assert.throws(() => t("cone", "tdgs", [6.5, 5.5], [6.5, 5.5]), /drag to give/);
  // A square from the intersection (7, 4) toward the south-west, side round(2.4) = 2: squares
  // 5…6 × 4…5; TDGS anchors Rec2x2 at its south-west square (SPEC §2.7), Draw Steel names its
  // north-west one (§3.4), 5e a cube from the corner toward SW (§10.5).
  assert.deepEqual(t("square", "tdgs", [7.1, 4], [4.6, 6.2]), { template: "Rec2x2", caster: "none", origin: { x: 5, y: 5 } });
  assert.deepEqual(t("square", "drawsteel", [7.1, 4], [4.6, 6.2]).origin, { x: 5, y: 4 });
  assert.deepEqual(t("square", "dnd5e", [7.1, 4], [4.6, 6.2]), { template: "10-foot cube", caster: "none", point: { x: 7, y: 4, z: 0 }, toward: "SW" });
  // The written template.
  assert.deepEqual(t("notation", "tdgs", [6.5, 5.5], [6.5, 5.5], { notation: " Con4NE " }), { template: "Con4NE", caster: "any" });
  assert.equal(t("notation", "dnd5e", [6.5, 5.5], [6.5, 5.5], { notation: "10-foot emanation" }).needsToken, true);
  assert.throws(() => t("notation", "tdgs", [6.5, 5.5], [6.5, 5.5]), /write a template/);
  assert.throws(() => O.toolTemplate({ mode: "hexagon", start: sq(1, 1), end: sq(2, 2) }, FRAME, "tdgs"), /mode must be one of/);
});

test("owlbear tool: turning, 15° steps, and the record kept in a scene item", () => {
  assert.equal(O.angleOf({ x: 0, y: 0 }, { x: 0, y: 1 }), 90); // south: clockwise from east
  assert.equal(O.angleOf({ x: 0, y: 0 }, { x: 0, y: -1 }), 270);
  assert.deepEqual(["N", "NE", "E", "SE", "S", "SW", "W", "NW"].map((_, i) => O.compassOf(270 + 45 * i)), ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
  const end = O.rotateAbout({ x: 0, y: 0 }, { x: 10, y: 0 }, 90);
  assert.ok(Math.abs(end.x) < 1e-9 && Math.abs(end.y - 10) < 1e-9, JSON.stringify(end));
  // 20° snaps to 15°, 23° to 30°, 353° to 0°, the length kept.
  for (const [deg, want] of [[20, 15], [23, 30], [353, 0]]) {
    const p = O.snapAngle({ x: 0, y: 0 }, { x: 10 * Math.cos((deg * Math.PI) / 180), y: 10 * Math.sin((deg * Math.PI) / 180) });
    assert.equal(Math.round(O.angleOf({ x: 0, y: 0 }, p)) % 360, want);
    assert.ok(Math.abs(Math.hypot(p.x, p.y) - 10) < 1e-9);
  }
  // A record is relative to its item's position: moving the item moves the template.
  const placed = { id: "t", type: "PATH", position: { x: 975, y: 825 }, metadata: { [O.TEMPLATE_KEY]: { mode: "cone", start: { x: 0, y: 0 }, end: { x: 450, y: 0 }, by: "p" } } };
  assert.deepEqual(O.placedRecord(placed), { mode: "cone", start: { x: 975, y: 825 }, end: { x: 1425, y: 825 }, by: "p" });
  assert.equal(O.placedRecord({ ...placed, metadata: { [O.TEMPLATE_KEY]: { mode: "cone", start: { x: "a", y: 0 } } } }), null);
  assert.equal(O.placedRecord({ ...placed, metadata: {} }), null);
  // A placed template is never a wall, even with every drawing a wall.
  assert.equal(O.wallSource({ ...placed, layer: "DRAWING" }, { drawings: true }), null);
  // Its PATH: one closed rectangle a run, relative to the item's position.
  assert.deepEqual(O.areaCommands([{ x: 4, y: 3, length: 5 }], FRAME, { x: 975, y: 825 }), [[0, -375, -375], [1, 375, -375], [1, 375, -225], [1, -375, -225], [5]]);
});

test("owlbear tool: a token's size and taking cover from its metadata", async () => {
  const orc = item("Orc");
  const meta = (m) => ({ ...orc, metadata: { ...orc.metadata, ...m } });
  // Size 2 about the Orc's centre (8.5, 5.5): squares 8…9 × 5…6 (a centre on a grid line goes east/south).
  assert.deepEqual(O.tokenPieces(meta({ [`${O.META}/size`]: 2 }), FRAME).map((p) => [p.x, p.y, p.size]), [[8, 5, 2]]);
  for (const bad of [0, 2.5, 101, "2"]) assert.equal(O.tokenPieces(meta({ [`${O.META}/size`]: bad }), FRAME)[0].size, 1, `size ${JSON.stringify(bad)} is the image's`);
  assert.equal(O.tokenPieces(meta({ [`${O.META}/takingCover`]: true }), FRAME)[0].takingCover, true);
  // Taking cover under PF2e (SPEC §11.5): "standard cover where it would have none". A 15-foot
  // burst on the intersection (7, 5) (the tool's circle dragged from there 3 squares east): the
  // Wizard on (6, 5) is in it, its centre (6.5, 5.5) in plain view: no cover; taking cover,
  // standard (+2).
  const wizard = item("Wizard");
  const placed = { mode: "circle", start: sq(7, 5), end: sq(10, 5) };
  const grade = async (items) => {
    const built = O.requestFrom({ items, grid: GRID, rules: "pf2e", placed });
    assert.equal(built.request.template, "15-foot burst");
    const r = (await engine()).evaluate(built.request);
    return O.mergeTargets(r.targets, built).find((x) => x.id === wizard.id);
  };
  const plain = await grade(ITEMS);
  assert.deepEqual([plain.inArea, plain.cover], [true, "none"]);
  const covering = await grade(ITEMS.map((i) => (i.id === wizard.id ? { ...wizard, metadata: { ...wizard.metadata, [`${O.META}/takingCover`]: true } } : i)));
  assert.deepEqual([covering.cover, covering.bonus], ["standard", 2]);
});

// ---------------------------------------------------------------------------------------------
// In Chromium.

/** The room, its background page and popover, on the fixture scene. */
async function room(t, scene = {}, prefs = { rules: "tdgs", live: true }, { tool = true } = {}) {
  const browser = await chromium(t);
  if (!browser) return null;
  const dir = await assemble(tempDir(t, "aoekit-owlbear-tool-"));
  const opened = await openRoom(t, browser, dir, { items: ITEMS, grid: GRID, selection: [], room: { [O.RULES_KEY]: prefs.rules }, ...scene }, { serve, prefs });
  const { room: page, logs } = opened;
  const wait = (fn, arg, what) => page.waitForFunction(fn, arg, { timeout: 30_000 }).catch((err) => {
    throw new Error(`${what}: ${err.message}\n${logs.join("\n")}`);
  });
  if (tool) await wait(() => Object.keys(window.obr.modes ?? {}).length === 5 && window.obr.menus.length === 3, null, "the tool and the menus");
  return { ...opened, dir, wait };
}

/** Drives a mode of the tool as Owlbear does: its handlers, with a ToolContext and ToolEvents shaped as Tool.d.ts declares them. */
function drive(page, mode, steps) {
  return page.evaluate(async ({ mode, steps, TOOL }) => {
    const m = window.obr.modes[mode];
    const context = { activeTool: TOOL, activeMode: mode, metadata: {} };
    const pointer = (p, extra = {}) => ({ pointerPosition: p, altKey: false, shiftKey: false, ctrlKey: false, metaKey: false, ...extra });
    for (const [kind, arg, extra] of steps) {
      if (kind === "key") m.onKeyDown(context, { altKey: false, code: arg === "]" ? "BracketRight" : "BracketLeft", key: arg, shiftKey: false, ctrlKey: false, metaKey: false, repeat: false });
      else m[kind](context, pointer(arg, extra));
      await new Promise((r) => setTimeout(r, 40));
    }
  }, { mode, steps, TOOL });
}

/** Sets a field of a context menu's page as the player would, and answers with the page's message. */
const fill = (menu, field, value) => menu.evaluate(([field, value]) => {
  const el = document.getElementById(field);
  if (el.type === "checkbox") el.checked = value;
  else el.value = value;
  el.dispatchEvent(new Event("change"));
  return new Promise((r) => setTimeout(() => r({ message: document.getElementById("message").textContent, error: document.getElementById("message").classList.contains("error") }), 100));
}, [field, value]);

const drawnKinds = (page) => page.evaluate(() => window.obr.local.map((i) => i.metadata?.["io.github.aoekit/drawn"]).filter(Boolean).sort());

test("owlbear tool: the background page keeps evaluating and drawing with the popover closed (Chromium)", async (t) => {
  const r = await room(t, { selection: [id("Fireball")] }, undefined, { tool: false });
  if (!r) return;
  const { room: page, frames, logs, wait } = r;
  // The selected circle is Cir2 on (6, 5) (owlbear.test.mjs): the Orc behind the wall, full cover.
  await wait(() => window.obr.local.some((i) => i.type === "LABEL" && i.text.plainText === "Orc: full cover"), null, "the selection drawn");
  await frames.popover.waitForFunction(() => /^Cir2: 50 squares, 4 affected\.$/.test(document.getElementById("status").textContent), null, { timeout: 30_000 });
  // The player closes the popover. The Orc walks west to (7, 5), inside the wall: hit.
  await closeFrame(page, "popover");
  await page.evaluate((orc) => {
    const items = structuredClone(window.obr.items);
    items.find((i) => i.id === orc).position = { x: 1125, y: 825 };
    window.obrChange("items", items);
  }, id("Orc"));
  await wait(() => window.obr.local.some((i) => i.type === "LABEL" && i.text.plainText === "Orc: hit"), null, "the drawing follows the scene, popover closed");
  // The selection is cleared: its drawing goes with it, nothing stale stays on the board.
  await page.evaluate(() => {
    window.obr.selection = [];
    window.obrChange("player", {});
  });
  await wait(() => !window.obr.local.some((i) => i.metadata?.["io.github.aoekit/drawn"]), null, "nothing stale");
  // Opened again, the popover shows the state the background page keeps.
  const popover = await addFrame(page, "popover", `${r.base}/index.html`);
  await popover.waitForFunction(() => /^Select a circle/.test(document.getElementById("status").textContent), null, { timeout: 30_000 });
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), []);
});

test("owlbear tool: a template dragged, snapped, turned, shown to everyone, ringed, listed, with cover lines, removed (Chromium)", async (t) => {
  const r = await room(t);
  if (!r) return;
  const { room: page, frames, logs, wait } = r;
  // The tool and its five modes, each shown while the tool is active.
  const made = await page.evaluate(() => ({
    tool: Object.keys(window.obr.tools),
    modes: Object.values(window.obr.modes).map((m) => [m.id, m.icons[0].filter?.activeTools]),
  }));
  assert.deepEqual(made.tool, [TOOL]);
  assert.deepEqual(made.modes, ["circle", "cone", "line", "square", "notation"].map((m) => [MODE(m), [TOOL]]));

  // A circle dragged from (960, 840) — snapped as the grid snaps, to the middle of (6, 5) at
  // (975, 825) — to 2.5 squares east: Cir2 (SPEC §2.3), squares 4…8 × 3…7 on levels 0 and 1.
  await drive(page, MODE("circle"), [["onToolDragStart", { x: 960, y: 840 }], ["onToolDragMove", { x: 1200, y: 830 }], ["onToolDragMove", { x: 1350, y: 825 }]]);
  await wait(() => window.obr.local.some((i) => i.metadata?.["io.github.aoekit/drawn"] === "preview"), null, "the preview");
  // While dragging: local items only, nothing in the scene yet.
  assert.equal(await page.evaluate(() => window.obr.items.filter((i) => i.metadata?.["io.github.aoekit/template"]).length), 0);
  await drive(page, MODE("circle"), [["onToolDragEnd", { x: 1350, y: 825 }]]);
  await wait(() => window.obr.items.some((i) => i.metadata?.["io.github.aoekit/template"]), null, "the placed template");
  await wait(() => !window.obr.local.some((i) => i.metadata?.["io.github.aoekit/drawn"] === "preview") && window.obr.local.some((i) => i.metadata?.["io.github.aoekit/drawn"] === "placed"), null, "rings instead of the preview");
  const placed = await page.evaluate(() => window.obr.items.find((i) => i.metadata?.["io.github.aoekit/template"]));
  // A scene item (Owlbear shares it with every player): a PATH at the snapped start, its squares
  // one rectangle a row, relative to its position; the record in its metadata.
  assert.equal(placed.type, "PATH");
  assert.deepEqual(placed.position, { x: 975, y: 825 });
  assert.deepEqual(placed.metadata[O.TEMPLATE_KEY], { mode: "circle", start: { x: 0, y: 0 }, end: { x: 375, y: 0 }, by: "player-1" });
  const rows = [3, 4, 5, 6, 7].map((y) => ({ x: 4, y, length: 5 }));
  assert.deepEqual(placed.commands, O.areaCommands(rows, FRAME, { x: 975, y: 825 }));
  // Ringed: in the area the Wizard, Ogre, Horse and (for the GM) the invisible Scout, affected;
  // the Orc in full cover, not (SPEC §5.5): a dashed ring.
  const rings = await page.evaluate(() => window.obr.local.filter((i) => i.type === "SHAPE" && i.name.startsWith("aoekit ring")).map((i) => [i.name.slice(13), i.style.strokeDash.length > 0]));
  assert.deepEqual(rings.map(([rid, dashed]) => [NAMES[rid], dashed]).sort(), [["Horse", false], ["Ogre", false], ["Orc", true], ["Scout", false], ["Wizard", false]]);
  // The Ogre's ring goes round its 2 × 2 squares 3…4 × 4…5: centred on (4, 5), 2.3 squares wide.
  const ogre = await page.evaluate((oid) => window.obr.local.find((i) => i.name === `aoekit ring: ${oid}`), id("Ogre"));
  assert.deepEqual([ogre.position, Math.round(ogre.width), ogre.shapeType], [{ x: 600, y: 750 }, 345, "CIRCLE"]);
  // Listed in the popover, removable.
  await frames.popover.waitForFunction(() => document.querySelectorAll("#placed > li").length === 1, null, { timeout: 30_000 });
  const listed = await frames.popover.evaluate(() => ({ head: document.querySelector("#placed .placed-head span").textContent, items: [...document.querySelectorAll("#placed li li")].map((li) => li.textContent).sort() }));
  assert.equal(listed.head, "Cir2: 50 squares, 4 affected");
  assert.ok(listed.items.includes("Orc: not affected (cover), cover full"), listed.items.join(" | "));

  // Cover lines for the selected token: the Orc's 4 lines (its west face, SPEC §5.5), all blocked:
  // red, from the origin square (6, 5) to the Orc's square (8, 5).
  await page.evaluate((orc) => {
    window.obr.selection = [orc];
    window.obrChange("player", {});
  }, id("Orc"));
  await wait(() => window.obr.local.some((i) => i.type === "LINE"), null, "cover lines");
  const lines = await page.evaluate(() => window.obr.local.filter((i) => i.type === "LINE").map((i) => ({ a: i.startPosition, b: i.endPosition, color: i.style.strokeColor })));
  assert.equal(lines.length, 4);
  for (const l of lines) {
    assert.equal(l.color, "#e53935", "blocked");
    assert.ok(l.a.x >= 900 && l.a.x <= 1050 && l.a.y >= 750 && l.a.y <= 900, `from the origin square: ${JSON.stringify(l.a)}`);
    assert.ok(l.b.x >= 1200 && l.b.x <= 1350 && l.b.y >= 750 && l.b.y <= 900, `to the Orc's square: ${JSON.stringify(l.b)}`);
  }
  // Another token selected: the Orc's lines go. (The Wizard, hit with no cover, has lines of its own.)
  await page.evaluate(() => {
    window.obr.selection = [];
    window.obrChange("player", {});
  });
  await wait(() => !window.obr.local.some((i) => i.type === "LINE"), null, "no cover lines without a selected token");

  // A cone dragged from the Wizard 3 squares east: Con3E from the Wizard (SPEC §2.4), turned by
  // ] six times (90°) after it is placed: Con3S, whose third row (4…8, 8)… and second (5…7, 7)
  // take in the Horse on (4…5, 7).
  await drive(page, MODE("cone"), [["onToolDragStart", { x: 975, y: 825 }], ["onToolDragMove", { x: 1425, y: 825 }], ["onToolDragEnd", { x: 1425, y: 825 }]]);
  await frames.popover.waitForFunction(() => [...document.querySelectorAll("#placed .placed-head span")].some((s) => s.textContent.startsWith("Con3E: 18 squares, 0 affected")), null, { timeout: 30_000 });
  await drive(page, MODE("cone"), [["key", "]"], ["key", "]"], ["key", "]"], ["key", "]"], ["key", "]"], ["key", "]"]]);
  await frames.popover.waitForFunction(() => [...document.querySelectorAll("#placed .placed-head span")].some((s) => /^Con3S: 18 squares, 1 affected$/.test(s.textContent)), null, { timeout: 30_000 });

  // Shift turns a drag in 15° steps: a 5e line dragged 20° below east is stored at 15°.
  await frames.popover.evaluate(() => {
    const rules = document.getElementById("rules");
    rules.value = "dnd5e";
    rules.dispatchEvent(new Event("change"));
  });
  await wait(() => window.obr.room["io.github.aoekit/rules"] === "dnd5e", null, "the GM's rule set is the room's");
  const deg = (20 * Math.PI) / 180;
  const end = { x: 975 + 900 * Math.cos(deg), y: 825 + 900 * Math.sin(deg) };
  await drive(page, MODE("line"), [["onToolDragStart", { x: 975, y: 825 }], ["onToolDragMove", end, { shiftKey: true }], ["onToolDragEnd", end, { shiftKey: true }]]);
  await wait(() => window.obr.items.filter((i) => i.metadata?.["io.github.aoekit/template"]).length === 3, null, "the third template");
  const line = await page.evaluate(() => window.obr.items.filter((i) => i.metadata?.["io.github.aoekit/template"]).at(-1));
  const rec = line.metadata[O.TEMPLATE_KEY];
  assert.equal(Math.round(O.angleOf(rec.start, rec.end)), 15);

  // Removed from the popover: the scene item goes, and so do its rings.
  const before = await drawnKinds(page);
  await frames.popover.evaluate(() => document.querySelector("#placed button").click());
  await wait(() => window.obr.items.filter((i) => i.metadata?.["io.github.aoekit/template"]).length === 2, null, "removed");
  await wait((n) => window.obr.local.filter((i) => i.metadata?.["io.github.aoekit/drawn"] === "placed").length < n, before.filter((k) => k === "placed").length, "its rings gone");
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), []);
});

// A Cir2 placed with the tool on (6, 5) by the GM, as the background page writes it (a PATH).
const PLACED = { id: "placed-1", type: "PATH", name: "aoekit: Cir2", layer: "DRAWING", visible: true, locked: false, position: { x: 975, y: 825 }, rotation: 0, scale: { x: 1, y: 1 }, zIndex: 1, commands: [], fillRule: "nonzero", style: { fillColor: "#ff8c00", fillOpacity: 0.3, strokeColor: "#ff8c00", strokeOpacity: 1, strokeWidth: 0, strokeDash: [] }, metadata: { [O.TEMPLATE_KEY]: { mode: "circle", start: { x: 0, y: 0 }, end: { x: 375, y: 0 }, by: "gm-1" } }, createdUserId: "gm-1", lastModified: "2025-01-01T00:00:00.000Z", lastModifiedUserId: "gm-1" };

// The same, placed on (2, 2) and hidden by the GM (visible: false): not a player's.
const HIDDEN_PLACED = { ...PLACED, id: "placed-2", name: "aoekit: Cir2 (hidden)", visible: false, position: { x: 375, y: 375 } };

test("owlbear tool: a player's rings and list leave out what Owlbear hides from them (Chromium)", async (t) => {
  const r = await room(t, { items: [...ITEMS, PLACED, HIDDEN_PLACED], role: "PLAYER" });
  if (!r) return;
  const { room: page, frames, logs, wait } = r;
  await wait(() => window.obr.local.some((i) => i.name?.startsWith("aoekit ring")), null, "rings");
  const rings = await page.evaluate(() => window.obr.local.filter((i) => i.name?.startsWith("aoekit ring")).map((i) => i.name.slice(13)));
  assert.deepEqual(rings.map((rid) => NAMES[rid]).sort(), ["Horse", "Ogre", "Orc", "Wizard"], "no ring on the invisible Scout");
  await frames.popover.waitForFunction(() => document.querySelectorAll("#placed li li").length > 0, null, { timeout: 30_000 });
  const listed = await frames.popover.evaluate(() => document.getElementById("placed").textContent);
  assert.doesNotMatch(listed, /Scout/);
  assert.equal(await frames.popover.evaluate(() => document.querySelectorAll("#placed > li").length), 1, "the hidden template is not listed");
  // The placer's page keeps the area: this player's does not write another's item.
  assert.deepEqual(await page.evaluate(() => window.obr.items.find((i) => i.id === "placed-1").commands), []);
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), []);
});

test("owlbear tool: context menus set a token's and a wall's settings, which the mapping reads back (Chromium)", async (t) => {
  // A template placed on the board (its labels do not depend on what the player selects: a
  // right-click selects what it is on).
  const r = await room(t, { items: [...ITEMS, PLACED] });
  if (!r) return;
  const { room: page, logs, wait, base } = r;
  await wait(() => window.obr.local.some((i) => i.type === "LABEL" && i.text.plainText === "Orc: full cover"), null, "the placed template drawn");
  const defs = await page.evaluate(() => Object.values(window.obr.menuDefs).map((m) => ({ id: m.id, embed: m.embed?.url ?? null, filter: m.icons[0].filter })));
  assert.deepEqual(defs.map((d) => [d.id, d.embed]), [[`${O.META}/token`, `${base}/menu.html?for=token`], [`${O.META}/wall`, `${base}/menu.html?for=wall`], [`${O.META}/door`, null]]);
  // The token menu is for images on the character and mount layers, the wall menu for drawings.
  assert.deepEqual(defs[0].filter.every, [{ key: "type", value: "IMAGE" }, { key: "layer", value: "CHARACTER", coordinator: "||" }, { key: "layer", value: "MOUNT" }]);
  assert.ok(defs[1].filter.every.some((f) => f.key === "type" && f.value === "IMAGE" && f.operator === "!="));

  // Right-clicking the Orc selects it; Owlbear shows the embedded page.
  await page.evaluate((orc) => {
    window.obr.selection = [orc];
  }, id("Orc"));
  const menu = await addFrame(page, "menu", `${base}/menu.html?for=token`);
  await menu.waitForFunction(() => !document.getElementById("token").hidden, null, { timeout: 30_000 });
  assert.match(await menu.evaluate(() => document.getElementById("size").placeholder), /^1 × 1/);
  const set = (field, value) => fill(menu, field, value);
  const meta = () => page.evaluate((orc) => window.obr.items.find((i) => i.id === orc).metadata, id("Orc"));
  // A size that is no whole number of squares is refused, and not written.
  assert.deepEqual(await set("size", "2.5"), { message: "Size is a whole number of squares, 1 to 100 (empty: its image's).", error: true });
  assert.equal((await meta())[`${O.META}/size`], undefined);
  await set("size", "2");
  await set("side", "neutral");
  await set("cover", true);
  await set("elevation", "10");
  const m = await meta();
  assert.deepEqual([m[`${O.META}/size`], m[`${O.META}/side`], m[`${O.META}/takingCover`], m[`${O.META}/elevation`]], [2, "neutral", true, 10]);
  // Read back by the mapping: a 2 × 2 token on 8…9 × 5…6 at level 2 (10 ft), taking cover.
  const orc = await page.evaluate((oid) => window.obr.items.find((i) => i.id === oid), id("Orc"));
  assert.deepEqual(O.tokenPieces(orc, FRAME), [{ id: id("Orc"), x: 8, y: 5, z: 2, size: 2, side: "neutral", takingCover: true }]);
  // …and by the background page: Cir2 covers levels 0 and 1 (SPEC §2.8), the Orc is out.
  await wait(() => !window.obr.local.some((i) => i.type === "LABEL" && i.text.plainText.startsWith("Orc")), null, "the Orc lifted out of the area");
  await set("elevation", "");
  assert.equal((await meta())[`${O.META}/elevation`], undefined, "an empty field removes its key");
  await closeFrame(page, "menu");

  // The wall menu on the East wall: an open door lets everything through: the Orc is hit.
  await page.evaluate((wall) => {
    window.obr.selection = [wall];
  }, id("East wall"));
  const wallMenu = await addFrame(page, "menu", `${base}/menu.html?for=wall`);
  await wallMenu.waitForFunction(() => !document.getElementById("wall").hidden, null, { timeout: 30_000 });
  assert.equal(await wallMenu.evaluate(() => document.getElementById("tagged").checked), true);
  const setWall = async (field, value) => (await fill(wallMenu, field, value)).message;
  const wallTag = () => page.evaluate(([w, key]) => window.obr.items.find((i) => i.id === w).metadata[key], [id("East wall"), `${O.META}/wall`]);
  await setWall("open", true);
  assert.deepEqual(await wallTag(), { open: true });
  await wait(() => window.obr.local.some((i) => i.type === "LABEL" && /^Orc: hit$/.test(i.text.plainText)), null, "the door open");
  // Heights: a bottom above the top is refused; a wall up to 2.5 ft (half a level) is written.
  await setWall("bottom", "0");
  assert.deepEqual(await wallTag(), { open: true, bottom: 0 });
  assert.equal(await setWall("top", "-5"), "The bottom is above the top.");
  assert.deepEqual(await wallTag(), { open: true, bottom: 0 }, "not written");
  await setWall("top", "");
  await setWall("bottom", "");
  await setWall("open", false);
  await setWall("top", "2.5");
  assert.deepEqual(await wallTag(), { top: 2.5 });
  assert.deepEqual(O.wallsFrom({ ...item("East wall"), metadata: { [`${O.META}/wall`]: await wallTag() } }, FRAME), [{ a: [8, 3], b: [8, 8], top: 0.5 }]);
  // The quick door toggle (a menu without a page) closes and opens a tagged wall.
  await page.evaluate(async (w) => {
    const items = window.obr.items.filter((i) => i.id === w);
    window.obr.menuDefs["io.github.aoekit/door"].onClick({ items, selectionBounds: { min: { x: 0, y: 0 }, max: { x: 0, y: 0 }, width: 0, height: 0, center: { x: 0, y: 0 } } }, "menu");
    await new Promise((r) => setTimeout(r, 50));
  }, id("East wall"));
  assert.deepEqual(await wallTag(), { top: 2.5, open: true });
  assert.deepEqual(logs, []);
  assert.deepEqual(await violations(page), []);
});
