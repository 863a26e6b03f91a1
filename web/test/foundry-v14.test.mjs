// The Foundry module on Foundry v14 and the Draw Steel system (issue 31, items 7 and 8): map.mjs
// on fixtures/foundry-v14-scene.json — a v14 scene, its tokens, walls and Regions written field
// for field from foundry-vtt-types 14.366 (src/foundry/client/documents/{scene,token,wall,
// region}.d.mts, shapes from src/foundry/common/data/data.d.mts) — and
// fixtures/draw-steel-ability.json (three abilities exactly as the draw-steel system's
// compendium source stores them), evaluated with the real engine; then aoekit.mjs in Chromium
// against a stub of Foundry's globals (fixtures/foundry-harness.mjs): Draw Steel ability
// Regions, v14 template Regions, chat cards, dnd5e's cover statuses, every template shown.
// Expectations are worked out by hand from SPEC §3, §7 and §10 in the comments.
//
// The board (square (x, y) starts at canvas pixel (500 + 100x, 400 + 100y), 5 ft a square and a
// level): Conduit (4, 7) friendly, its actor linked · Fury (3, 6) friendly · Sniper (7, 7),
// Runner (5, 9), Archer (10, 8), Skulker (3, 12), Imp (10, 3), Wisp (12, 3), Grunt (11, 6)
// hostile on the ground · Hawk (12, 6) hostile at 30 ft (level 6).
// Walls: a stone wall on x = 7 from y = 4 to 11; a glass wall on y = 9 from x = 3 to 7 that the
// Draw Steel system marks as not blocking line of effect (flags["draw-steel"].blocksLineOfEffect
// false).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import * as F from "../foundry/map.mjs";
import { WEB, engine } from "./helpers.mjs";
import { table } from "./fixtures/foundry-harness.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/foundry-v14-scene.json"), "utf8"));
const V13 = JSON.parse(readFileSync(join(WEB, "test/fixtures/foundry-scene.json"), "utf8"));
const ITEMS = JSON.parse(readFileSync(join(WEB, "test/fixtures/draw-steel-ability.json"), "utf8")).items;
const SCENE = FIXTURE.scene;
const NAMES = Object.fromEntries(SCENE.tokens.map((t) => [t._id, t.name]));
const byName = (name) => SCENE.tokens.find((t) => t.name === name);
const region = (name) => SCENE.regions.find((r) => r.name === name);
const ability = (name) => ITEMS.find((i) => i.name === name);
const abilityOf = (r) => {
  const uuid = r.flags?.["draw-steel"]?.abilitySource;
  return uuid ? ITEMS.find((i) => uuid.endsWith(`.Item.${i._id}`)) : null;
};

async function run({ region: r, rules = "dnd5e", tokens = SCENE.tokens, walls = SCENE.walls, ...rest }) {
  const built = F.requestFor({ scene: SCENE, tokens, walls, region: r, ability: abilityOf(r), rules, ...rest });
  const result = (await engine()).evaluate(built.request);
  const targets = F.mergeTargets(result.targets, built);
  const byToken = Object.fromEntries(targets.map((t) => [NAMES[t.id] ?? t.id, t]));
  return { built, request: built.request, result, byToken, affected: F.affectedIds(targets).map((id) => NAMES[id]).sort() };
}
const level = (result, z) => result.cells.filter((c) => c[2] === z);

// ---------------------------------------------------------------------------------------------
// The fixtures are v14's data and draw-steel's, field for field.

test("foundry v14: fixture regions, tokens and walls have the fields v14's schemas declare, in order; the abilities are draw-steel's", () => {
  // RegionDocument.Schema (region.d.mts), TokenDocument's (token.d.mts: Schema and the
  // SharedProtoSchema it extends), WallDocument.Schema (wall.d.mts), foundry-vtt-types 14.366.
  const REGION = ["_id", "name", "color", "shapes", "elevation", "levels", "restriction", "attachment", "behaviors", "visibility", "highlightMode", "displayMeasurements", "hidden", "locked", "ownership", "flags", "_shapeConstraints"];
  for (const r of SCENE.regions) {
    assert.deepEqual(Object.keys(r), REGION, r.name);
    assert.deepEqual(Object.keys(r.elevation), ["bottom", "top", "topInclusive"]);
    assert.deepEqual(Object.keys(r.attachment), ["token"]);
  }
  const SHAPES = {
    circle: ["type", "hole", "x", "y", "radius", "gridBased"],
    cone: ["type", "hole", "x", "y", "radius", "angle", "rotation", "curvature", "gridBased"],
    line: ["type", "hole", "x", "y", "length", "width", "rotation", "gridBased"],
    ring: ["type", "hole", "x", "y", "radius", "innerWidth", "outerWidth", "gridBased"],
    emanation: ["type", "hole", "base", "radius", "gridBased"],
    rectangle: ["type", "hole", "x", "y", "width", "height", "anchorX", "anchorY", "rotation", "gridBased"],
  };
  for (const r of SCENE.regions) for (const s of r.shapes) assert.deepEqual(Object.keys(s), SHAPES[s.type], `${r.name}: ${s.type}`);
  const TOKEN = ["_id", "name", "actorId", "delta", "shape", "level", "x", "y", "elevation", "sort", "locked", "hidden", "_movementHistory", "_regions",
    "displayName", "actorLink", "width", "height", "depth", "texture", "lockRotation", "rotation", "alpha", "disposition", "displayBars", "light", "sight", "detectionModes", "occludable", "ring", "turnMarker", "movementAction", "flags"];
  for (const t of SCENE.tokens) for (const f of TOKEN) assert.ok(f in t, `${t.name} lacks ${f}`);
  const WALL = ["_id", "c", "levels", "light", "move", "sight", "sound", "dir", "door", "ds", "doorSound", "threshold", "animation", "flags"];
  for (const w of SCENE.walls) assert.deepEqual(Object.keys(w), WALL);
  // draw-steel's AbilityModel: system.distance {type, primary, secondary?, tertiary?}, system.target {type, …}.
  for (const i of ITEMS) {
    assert.equal(i.type, "ability");
    assert.ok(["burst", "cube", "line"].includes(i.system.distance.type));
    assert.equal(i.system.target.type, "enemy");
  }
});

// ---------------------------------------------------------------------------------------------
// 7. v14 Regions with template shapes.

test("foundry v14: a cone region is a dnd5e cone of its radius, angle and rotation from its point; its caster by the dnd5e flags", async () => {
  // Cone of Cold: (950, 1150) = the Conduit's centre (4.5, 7.5), radius 300 px = 3 squares,
  // angle 90, rotation 180 (west), round; flags.dnd5e.item names the Conduit's actor.
  const { request, result, byToken, affected } = await run({ region: region("Cone of Cold") });
  assert.deepEqual(request.template, { rules: "dnd5e", shape: "cone", length: 3, base: "round", angle: 90 });
  assert.deepEqual(request.point, { x: 4.5, y: 7.5, z: 0.5 });
  assert.equal(request.toward, 180);
  assert.equal(request.caster.id, byName("Conduit")._id);
  // SPEC §10: on its own level a square is in when its centre is within 3 of the point and 45° of
  // the axis (west). Every level-0 cell the engine gives passes; every square well inside is given.
  const P = { x: 4.5, y: 7.5 };
  const inside = (x, y, slack) => {
    const [dx, dy] = [x + 0.5 - P.x, y + 0.5 - P.y];
    const d = Math.hypot(dx, dy);
    const off = d ? (Math.acos(-dx / d) * 180) / Math.PI : 0;
    return d <= 3 + slack && off <= 45 + slack * 10;
  };
  const cells = level(result, 0);
  for (const [x, y] of cells) assert.ok(inside(x, y, 1e-6), `${x},${y}`);
  for (let y = 3; y <= 12; y++) for (let x = 0; x <= 5; x++) if (inside(x, y, -1e-3) && !(x === 4 && y === 7)) assert.ok(cells.some(([cx, cy]) => cx === x && cy === y), `${x},${y} is in`);
  // The Fury (3, 6): its centre 1.41 away, 45° off the axis — on the edge, taken (SPEC §10.2, a
  // square whose centre the shape covers). The Conduit casts it: not in its own cone.
  assert.deepEqual(affected, ["Fury"]);
  assert.equal(byToken.Conduit.affected, false);
});

test("foundry v14: a ring region is its outer circle less its hole; an emanation spreads from the token it is attached to", async () => {
  // Ring of Fire: centre (1500, 700) = the intersection (10, 3), radius 200, innerWidth 100,
  // outerWidth 100: from 1 to 3 squares. On level 0 the squares whose centres lie 1…3 from the
  // intersection: their offsets (±½ or ±1½ or ±2½ each way) give d² = 2.5 (8), 4.5 (4), 6.5 (8),
  // 8.5 (8): 28; the 4 around the point (d² = 0.5) are the hole.
  const ring = await run({ region: region("Ring of Fire") });
  assert.deepEqual(ring.request.template, { rules: "dnd5e", shape: "sphere", radius: 3 });
  const cells = level(ring.result, 0);
  assert.equal(cells.length, 28);
  assert.ok(cells.every(([x, y]) => Math.hypot(x + 0.5 - 10, y + 0.5 - 3) >= 1));
  assert.equal(ring.byToken.Imp.inArea, false, "the Imp stands in the hole");
  assert.equal(ring.byToken.Imp.reason, "targeting");
  assert.deepEqual(ring.affected, ["Wisp"]);
  // Under TDGS (Cir3 on the square (10, 3)) the hole is the rings wholly inside radius 1: the
  // centre square (Chebyshev 0, its edge ½ out). The Imp stands on it.
  const tdgs = await run({ region: region("Ring of Fire"), rules: "tdgs" });
  assert.equal(tdgs.request.template, "Cir3");
  assert.equal(tdgs.byToken.Imp.inArea, false);
  assert.equal(level(tdgs.result, 0).length, 49 - 1);
  // Spirit Guardians: an emanation of 200 px (2 squares) around the Conduit's token shape,
  // attached to it: dnd5e's emanation of 2 from the Conduit's space (SPEC §10.5): the Fury
  // (gap 1) and the Runner (gap 2, behind the glass wall that blocks nothing) are in; the Sniper
  // (gap 3) is not; the Conduit is left out of its own emanation.
  const aura = await run({ region: region("Spirit Guardians") });
  assert.deepEqual(aura.request.template, { rules: "dnd5e", shape: "emanation", radius: 2 });
  assert.equal(aura.request.caster.id, byName("Conduit")._id);
  assert.deepEqual(aura.affected, ["Fury", "Runner"]);
});

test("foundry v14: a region's elevation bounds its area — bottom its floor, top its last level; a line region is a line", async () => {
  // Gust on high: a 10-ft circle on the intersection (12, 6), elevation 30 to 40 ft: levels 6
  // and 7 (a level counts when its floor is below the top). The Hawk flies at 30 ft, in it; the
  // Grunt below on (11, 6) is not, though the same circle on the ground takes it in.
  const high = await run({ region: region("Gust on high") });
  assert.deepEqual(high.request.point, { x: 12, y: 6, z: 6.5 });
  assert.equal(high.request.bounds.min[2], 6);
  assert.ok(high.request.bounds.max[2] <= 7);
  assert.ok(high.result.cells.every((c) => c[2] >= 6 && c[2] <= 7));
  assert.deepEqual(high.affected, ["Hawk"]);
  const ground = await run({ region: { ...region("Gust on high"), elevation: { bottom: null, top: null, topInclusive: false } } });
  assert.ok(ground.affected.includes("Grunt"));
  assert.deepEqual(F.regionShape({ ...region("Gust on high"), elevation: { bottom: 30, top: 40, topInclusive: true } }, F.frameOf(SCENE)).top, 8);
  // Lightning Line: from (1000, 1150) = (5, 7.5), east, 600 px long and 100 wide: a dnd5e line
  // 6 long, 1 wide; the stone wall on x = 7 cuts it after (5, 7) and (6, 7): the Sniper beyond.
  const line = await run({ region: region("Lightning Line") });
  assert.deepEqual([line.request.template, line.request.point, line.request.toward], [{ rules: "dnd5e", shape: "line", length: 6, width: 1 }, { x: 5, y: 7.5, z: 0.5 }, 0]);
  assert.equal(line.byToken.Sniper.reason, "barrier");
  // What cannot be read says why.
  assert.throws(() => F.regionShape({ shapes: [{ type: "polygon", points: [0, 0, 100, 0, 0, 100] }] }, F.frameOf(SCENE)), /"polygon" region cannot be read/);
  assert.throws(() => F.regionShape({ shapes: [{ type: "emanation", base: { type: "polygon" }, radius: 100 }] }, F.frameOf(SCENE)), /base is a token or a circle/);
});

// ---------------------------------------------------------------------------------------------
// 7. The Draw Steel system's ability Regions.

test("foundry v14: a Draw Steel ability's notation from its distance, and its targets from its target type", () => {
  const of = (distance) => F.abilityNotation({ system: { distance } });
  assert.equal(F.abilityNotation(ability("Revelator")), "3 burst");
  assert.equal(F.abilityNotation(ability("Call the Thunder Down")), "3 cube within 10");
  assert.equal(F.abilityNotation(ability("Spirit Stampede")), "10 x 2 line within 5");
  assert.equal(of({ type: "line", primary: "5", secondary: "1", tertiary: "1" }), "5 x 1 line within 1");
  assert.equal(of({ type: "aura", primary: 2 }), "2 aura");
  assert.equal(of({ type: "wall", primary: 10, secondary: 10 }), "10 wall within 10");
  assert.throws(() => of({ type: "ranged", primary: 10 }), /has no area \(its distance is "ranged"\)/);
  assert.throws(() => of({ type: "burst", primary: "@chr" }), /must be a whole number of squares/);
  const caster = { id: "c", x: 0, y: 0, z: 0, size: 1, side: "friendly" };
  const board = [{ id: "f", x: 1, y: 0, z: 0, size: 1, side: "friendly" }, { id: "h", x: 2, y: 0, z: 0, size: 1, side: "hostile" }];
  assert.deepEqual(F.abilityTargeting("enemy", caster, board), { trait: "enemiesOnly" });
  assert.deepEqual(F.abilityTargeting("ally", caster, board), { trait: "selective", ids: ["f"] });
  assert.deepEqual(F.abilityTargeting("selfAlly", caster, board), { trait: "selective", ids: ["c", "f"] });
  assert.deepEqual(F.abilityTargeting("self", caster, board), { trait: "selective", ids: ["c"] });
  assert.deepEqual(F.abilityTargeting("creature", caster, board), { excludeCaster: true });
});

test("foundry v14: Draw Steel — a burst stopped by the stone wall, not by a wall that blocks no line of effect; cubes and lines within range", async () => {
  // Revelator, 3 burst, each enemy: every square within 3 of the Conduit's space (1…7 × 4…10),
  // but the stone wall on x = 7 cuts off the column 7 (SPEC §3.2): the Sniper (7, 7) is listed
  // with the reason barrier. The Runner (5, 9) lies beyond the glass wall on y = 9, which the
  // system marks as not blocking line of effect: affected. The Fury is an ally: in the area, not
  // a target. The Conduit uses it: not in it.
  const burst = await run({ region: region("Revelator") });
  assert.equal(burst.request.rules, "drawsteel");
  assert.equal(burst.request.template, "3 burst");
  assert.equal(burst.request.caster.id, byName("Conduit")._id);
  assert.deepEqual(burst.request.targeting, { trait: "enemiesOnly" });
  assert.deepEqual(burst.affected, ["Runner"]);
  assert.equal(burst.byToken.Sniper.reason, "barrier");
  assert.deepEqual([burst.byToken.Fury.inArea, burst.byToken.Fury.reason], [true, "targeting"]);
  assert.ok(level(burst.result, 0).every(([x]) => x < 7));
  // The same glass wall without the system's flag blocks: the Runner is cut off too.
  const walls = SCENE.walls.map((w) => ({ ...w, flags: {} }));
  const blocked = await run({ region: region("Revelator"), walls });
  assert.equal(blocked.byToken.Runner.reason, "barrier");
  assert.deepEqual(blocked.affected, []);
  // Call the Thunder Down, 3 cube within 10: the region's 300 × 300 rectangle from (700, 1500)
  // is squares 2…4 × 11…13; the Skulker (3, 12) is in it. Its origin square (the cube's cell
  // nearest the Conduit) is 4 squares away, in range.
  const cube = await run({ region: region("Call the Thunder Down") });
  assert.equal(cube.request.template, "3 cube within 10");
  assert.deepEqual(cube.request.origin, { x: 2, y: 11, z: 0 });
  assert.deepEqual(cube.affected, ["Skulker"]);
  // Spirit Stampede, 10 x 2 line within 5: from (1000, 1150) east, its first square (5, 7) and
  // its aim (14, 7); the stone wall cuts it after two squares: the Sniper and the Archer beyond.
  const line = await run({ region: region("Spirit Stampede") });
  assert.equal(line.request.template, "10 x 2 line within 5");
  assert.deepEqual([line.request.origin, line.request.aim], [{ x: 5, y: 7, z: 0 }, { x: 14, y: 7, z: 0 }]);
  assert.equal(line.byToken.Sniper.reason, "barrier");
  assert.equal(line.byToken.Archer.reason, "barrier");
  // Out of range: the Conduit 9 squares west of the cube: the engine's out_of_range.
  const far = SCENE.tokens.map((t) => (t.name === "Conduit" ? { ...t, x: 500 + 100 * 4, y: 400 + 100 * 0 } : t));
  const tooFar = F.requestFor({ scene: SCENE, tokens: far, walls: SCENE.walls, region: region("Call the Thunder Down"), ability: ability("Call the Thunder Down") });
  assert.throws(() => engineSync().evaluate(tooFar.request), (err) => err.code === "out_of_range");
  // Without its user's token on the scene, a burst says so.
  assert.throws(() => F.requestFor({ scene: SCENE, tokens: [], walls: [], region: region("Revelator"), ability: ability("Revelator") }), /needs its user's token/);
});

let loaded = null;
const engineSync = () => loaded;
test.before(async () => {
  loaded = await engine();
});

// ---------------------------------------------------------------------------------------------
// In Chromium.

const V14 = { ...FIXTURE, items: ITEMS, corner: { x: 500, y: 400 } };

test("foundry v14 in Chromium: 7. a Draw Steel ability's Region and v14 template Regions are evaluated; other regions are left alone", async (t) => {
  const env = await table(t, V14);
  if (!env) return;
  const page = await env.open({ isGM: true, system: "draw-steel", generation: 14, settings: { chatCards: false } });
  const out = await page.evaluate(async () => {
    const names = Object.fromEntries(canvas.scene.tokens.contents.map((t) => [t.id, t.name]));
    const api = game.modules.get("aoekit").api;
    const place = async (id, changes = {}) => {
      const before = calls.targets.length;
      Hooks.callAll("createRegion", regionDoc(id, changes), {}, game.user.id);
      await wait();
      return { notation: api.last?.notation, rules: api.last?.request.rules, targeted: calls.targets.slice(before).flatMap((c) => c.ids.map((i) => names[i])).sort() };
    };
    const burst = await place("dSbUrSt000000006");
    const cube = await place("dScUbE0000000007");
    const cone = await place("cOnEoFcOlD000001");
    api.clear();
    const terrain = await place("cOnEoFcOlD000001", { behaviors: [{ _id: "bEhAvIoR", type: "adjustDarknessLevel" }] });
    return { burst, cube, cone, terrain, warnings: calls.warnings };
  });
  assert.deepEqual(out.warnings, []);
  // Under drawsteel whatever the world's rule set: the burst targets the Runner alone (above).
  assert.deepEqual(out.burst, { notation: "3 burst", rules: "drawsteel", targeted: ["Runner"] });
  assert.deepEqual(out.cube, { notation: "3 cube within 10", rules: "drawsteel", targeted: ["Skulker"] });
  // A v14 cone region, no flag: a template; under draw-steel's table, dnd5e's geometry.
  assert.equal(out.cone.rules, "dnd5e");
  assert.deepEqual(out.cone.targeted, ["Fury"]);
  // The same cone with a behaviour is terrain, not a template: nothing evaluated.
  assert.deepEqual(out.terrain, { notation: undefined, rules: undefined, targeted: [] });
  assert.deepEqual(env.logs, []);
});

test("foundry v14 in Chromium: 8. chat cards — cover and bonus per token; hidden tokens only in a GM whisper; a player's card names only what they see", async (t) => {
  const env = await table(t, V14);
  if (!env) return;
  // This user places Revelator (createRegion): the chat messages posted.
  const placeRevelator = (page) => page.evaluate(async () => {
    Hooks.callAll("createRegion", regionDoc("dSbUrSt000000006"), {}, game.user.id);
    await wait();
    return calls.messages;
  });
  // The GM places Revelator with the Runner hidden: the table's card lists the Fury (an ally:
  // not a target) and not the Runner; a second card, whispered to the GM, lists the Runner.
  const gm = await env.open({ isGM: true, system: "draw-steel", hidden: [byName("Runner")._id] });
  const g = await placeRevelator(gm);
  assert.equal(g.length, 2);
  const [open, secret] = g;
  assert.equal(open.whisper, undefined);
  assert.match(open.content, /3 burst/);
  assert.match(open.content, /Fury/);
  assert.doesNotMatch(open.content, /Runner/);
  assert.deepEqual(open.flags.aoekit.card.cover.map((c) => NAMES[c.token]).sort(), ["Conduit", "Fury"]);
  assert.deepEqual(secret.whisper, ["gMuSeR0000000001"]);
  assert.match(secret.content, /Runner/);
  assert.deepEqual(secret.flags.aoekit.card.cover.map((c) => [NAMES[c.token], c.affected]), [["Runner", true]]);
  // A player whose vision does not reach the Runner: their card never names it, and no whisper.
  const player = await env.open({ isGM: false, system: "draw-steel", fogged: [byName("Runner")._id] });
  const p = await placeRevelator(player);
  assert.equal(p.length, 1);
  assert.doesNotMatch(p[0].content, /Runner/);
  // A card the GM posted for the table shows a player only the rows of tokens they see.
  const shown = await player.evaluate(async (content) => {
    const html = document.createElement("div");
    html.innerHTML = content;
    Hooks.callAll("renderChatMessageHTML", { flags: { aoekit: { card: {} } } }, html, {});
    return [...html.querySelectorAll("[data-token-id]")].map((r) => r.textContent);
  }, open.content.replace(/<\/tbody>/, `<tr data-token-id="${byName("Runner")._id}"><td>Runner</td></tr></tbody>`));
  assert.ok(shown.some((r) => r.startsWith("Fury")));
  assert.ok(!shown.some((r) => r.startsWith("Runner")), "the fogged Runner's row is not shown");
  assert.deepEqual(env.logs, []);
});

test("foundry v14 in Chromium: 8. dnd5e's cover statuses (coverHalf, coverThreeQuarters, coverTotal) follow the card, when the setting is on", async (t) => {
  // The v13 scene, dnd5e: the fireball (a 10-ft sphere from the Wizard's centre) — creatures give
  // half cover under dnd5e (SPEC §10.8).
  const env = await table(t, { ...V13, corner: { x: 400, y: 300 } });
  if (!env) return;
  const run = (settings) => env.open({ isGM: true, system: "dnd5e", generation: 13, settings }).then((page) => page.evaluate(async () => {
    const t = (await (await fetch("/fixture.json")).json()).scene.templates.find((x) => x._id === "fIrEbAlL00000001");
    Hooks.callAll("createMeasuredTemplate", templateDoc(t._id), {}, game.user.id);
    await wait();
    return { statuses: calls.statuses, card: calls.messages[0]?.flags.aoekit.card };
  }));
  const off = await run({});
  assert.deepEqual(off.statuses, [], "off by default");
  const on = await run({ coverStatus: true });
  assert.equal(on.card.rules, "dnd5e");
  // Each token in the area ends with the status of its grade, and none of the others
  // (CONFIG.DND5E.statusEffects ids, foundryvtt/dnd5e module/config.mjs).
  const STATUS = { half: "coverHalf", threeQuarters: "coverThreeQuarters", total: "coverTotal" };
  const final = new Map();
  for (const s of on.statuses) final.set(`${s.token}:${s.id}`, s.active);
  for (const { token, grade } of on.card.cover) {
    for (const [g, id] of Object.entries(STATUS)) assert.equal(final.get(`${token}:${id}`) ?? false, g === grade, `${NAMES[token] ?? token}: ${id}`);
  }
  assert.ok(on.card.cover.some((c) => c.grade !== "none"), "some token has cover");
  assert.deepEqual(env.logs, []);
});

test("foundry v14 in Chromium: 8. every placed template is shown, not only the last — and another user's", async (t) => {
  const env = await table(t, { ...V13, corner: { x: 400, y: 300 } });
  if (!env) return;
  const page = await env.open({ isGM: true, system: "dnd5e", generation: 13, settings: { rules: "tdgs", chatCards: false } });
  const out = await page.evaluate(async () => {
    // The fireball (Cir2 on the Wizard's square (6, 5): 4…8 × 3…7), then the shockwave (Cir3 on
    // (15, 12)) by this user, then a ray placed by another user (lightning bolt, from (6, 5) south).
    for (const [id, user] of [["fIrEbAlL00000001", game.user.id], ["sHoCkWaVe0000006", game.user.id], ["lIgHtNiNgBoLt003", "someone-else"]]) {
      const doc = templateDoc(id);
      onScene(doc);
      Hooks.callAll("createMeasuredTemplate", doc, {}, user);
      await wait();
    }
    return {
      fireball: window.square(5, 4, 0.3, "aoekit-overlay-fIrEbAlL00000001"),
      shockwave: window.square(15, 12, 0.3, "aoekit-overlay"),
      bolt: window.square(6, 9, 0.3, "aoekit-overlay-lIgHtNiNgBoLt003"),
      last: game.modules.get("aoekit").api.last?.notation,
      highlights: ["fIrEbAlL00000001", "sHoCkWaVe0000006", "lIgHtNiNgBoLt003"].map((id) => window.highlight(id)),
      deleted: (Hooks.callAll("deleteMeasuredTemplate", templateDoc("fIrEbAlL00000001"), {}, game.user.id), document.getElementById("aoekit-overlay-fIrEbAlL00000001")),
      // Another user's template made the one shown (api.evaluate) is drawn by the main overlay
      // alone: its own canvas goes then.
      chosen: (game.modules.get("aoekit").api.evaluate(templateDoc("lIgHtNiNgBoLt003")), document.getElementById("aoekit-overlay-lIgHtNiNgBoLt003")),
    };
  });
  assert.equal(out.last, "Cir3", "the user's last template is the one targeted and reported");
  assert.ok(out.fireball > 0, "the fireball placed before is still drawn");
  assert.ok(out.shockwave > 0);
  assert.ok(out.bolt > 0, "another user's template is drawn");
  assert.deepEqual(out.highlights, [false, false, false], "Foundry's highlight of each is hidden while ours is drawn");
  assert.equal(out.deleted, null, "a deleted template's drawing goes with it");
  assert.equal(out.chosen, null, "a template made the one shown keeps no canvas of its own");
  assert.deepEqual(env.logs, []);
});

test("foundry v14 in Chromium: 8. another user's template or area a player may not see is not shown to them — neither drawn nor its highlight", async (t) => {
  // The v13 scene, a player's client: the GM places the fireball hidden and the lightning bolt
  // in sight. Foundry hides a hidden template's highlight from the players
  // (MeasuredTemplate#_refreshState: highlightLayer.visible = this.visible, false for them).
  const v13 = await table(t, { ...V13, corner: { x: 400, y: 300 } });
  if (!v13) return;
  const page = await v13.open({ isGM: false, system: "dnd5e", generation: 13, settings: { rules: "tdgs", chatCards: false } });
  const out = await page.evaluate(async () => {
    canvas.interface.grid.getHighlightLayer("MeasuredTemplate.fIrEbAlL00000001").visible = false;
    for (const doc of [templateDoc("fIrEbAlL00000001", { author: "gMuSeR0000000001", hidden: true }), templateDoc("lIgHtNiNgBoLt003", { author: "gMuSeR0000000001" })]) {
      onScene(doc);
      Hooks.callAll("createMeasuredTemplate", doc, {}, "gMuSeR0000000001");
      await wait();
    }
    return { fireball: window.painted("aoekit-overlay-fIrEbAlL00000001"), highlight: window.highlight("fIrEbAlL00000001"), bolt: window.square(6, 9, 0.3, "aoekit-overlay-lIgHtNiNgBoLt003") };
  });
  assert.ok(!out.fireball, "the hidden fireball is not drawn");
  assert.equal(out.highlight, false, "nor is Foundry's highlight of it shown again");
  assert.ok(out.bolt > 0, "the GM's template in sight is drawn");
  assert.deepEqual(v13.logs, []);

  // The v14 scene: the GM's Cone of Cold as a region only the GMs see (visibility
  // CONST.REGION_VISIBILITY.GAMEMASTER, 1) is not drawn on a player's client; every user's
  // (ALWAYS, 2, as the fixture has it) is.
  const v14 = await table(t, V14);
  if (!v14) return;
  const p14 = await v14.open({ isGM: false, system: "dnd5e", generation: 14, settings: { chatCards: false } });
  const cone = await p14.evaluate(async () => {
    const drawn = async (visibility) => {
      Hooks.callAll("createRegion", regionDoc("cOnEoFcOlD000001", { visibility }), {}, "gMuSeR0000000001");
      await wait();
      return window.painted("aoekit-overlay-cOnEoFcOlD000001");
    };
    return { gm: await drawn(1), always: await drawn(2) };
  });
  assert.ok(!cone.gm, "a region only the GMs see is not drawn for a player");
  assert.ok(cone.always > 0, "a region every user sees is");
  assert.deepEqual(v14.logs, []);
});
