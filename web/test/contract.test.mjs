// CONTRACT.md through the built package: every example, every error code, the engine's shape.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import {
  AoekitError, CODES, CONTRACT_FROM_CASTER, CONTRACT_REQUEST, FULL_ATTACK_REQUEST, MOVE_REQUEST, PACKAGE, WEB, checkMove, checkResult, engine, load, thrown,
} from "./helpers.mjs";

test("load resolves to the CONTRACT engine, with synchronous methods that need no this", async () => {
  const e = await engine();
  assert.deepEqual(Object.keys(e).sort(), ["cover", "evaluate", "evaluateCells", "fullAttack", "move", "parse", "scene", "version"]);
  assert.ok(Object.isFrozen(e));
  const { version } = e; // destructured: no this
  assert.ok(!(version() instanceof Promise));
  assert.equal(typeof load, "function");
});

test("version: the engine and CONTRACT versions, the package's version", async () => {
  const e = await engine();
  assert.deepEqual(e.version(), { engine: "aoekit", version: PACKAGE.version, contract: 1 });
});

test("CONTRACT parse example: Con4NE", async () => {
  const e = await engine();
  assert.deepEqual(e.parse("Con4NE"), {
    text: "Con4NE", notation: "Con4NE", rules: "tdgs", shape: "cone", length: 4, direction: "NE", height: 4,
  });
});

test("parse: fields by shape, canonical notation (CONTRACT parse, SPEC §2.2, §3.8, §4)", async () => {
  const e = await engine();
  const cases = [
    ["cir3", { notation: "Cir3", rules: "tdgs", shape: "circle", radius: 3, height: 3 }],
    ["Lin5Sw2", { notation: "Lin5Sw2", rules: "tdgs", shape: "line", length: 5, direction: "S", width: 2, height: 5 }],
    ["Rec3x4", { notation: "Rec3x4", rules: "tdgs", shape: "rectangle", width: 3, length: 4, height: 4 }],
    ["3 aura", { rules: "drawsteel", shape: "aura", radius: 3 }],
    ["2 burst", { rules: "drawsteel", shape: "burst", radius: 2 }],
    ["3 cube within 10", { rules: "drawsteel", shape: "cube", side: 3, within: 10 }],
    ["5 x 1 line within 1", { rules: "drawsteel", shape: "line", length: 5, width: 1, within: 1 }],
    ["10 wall within 10", { rules: "drawsteel", shape: "wall", squares: 10, within: 10 }],
    ["circle 3", { rules: "circle50", shape: "circle", size: 3, close: false }],
    ["close circle 2", { rules: "circle50", shape: "circle", size: 2, close: true }],
  ];
  for (const [text, want] of cases) {
    const got = e.parse(text);
    assert.equal(got.text, text);
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k], v, `${text}: ${k}`);
    assert.deepEqual(e.parse(got.notation).notation, got.notation, `${text}: canonical text parses to itself`);
  }
});

test("CONTRACT evaluate example request, verbatim: a valid result", async () => {
  const e = await engine();
  const r = e.evaluate(CONTRACT_REQUEST);
  checkResult(r, CONTRACT_REQUEST);
  assert.equal(r.template.notation, "Con4NE");
  assert.equal(r.template.shape, "cone");
  assert.equal(r.direction, "NE", "facing N: Con4NE points NE");
  for (const t of r.targets) if (t.affected) assert.ok(t.roll, `${t.id}: resolve was given`);
});

test("CONTRACT evaluate example result: the cone from the caster (SPEC §2.5, §2.8, §5, §7.4)", async () => {
  const e = await engine();
  const r = e.evaluate(CONTRACT_FROM_CASTER);
  checkResult(r, CONTRACT_FROM_CASTER);
  assert.equal(r.template.notation, "Con4NE");
  assert.equal(r.direction, "NE");
  assert.deepEqual(r.origin, { x: 5, y: 5, z: 0 });
  assert.equal(r.originVisible, true);
  // SPEC §2.5: C + (i, -j), i, j ≥ 1, i + j ≤ 5; the bounds keep level 0 of the 4-high prism.
  const want = [];
  for (let j = 4; j >= 1; j--) for (let i = 1; i + j <= 5; i++) want.push([5 + i, 5 - j, 0]);
  assert.deepEqual(r.cells, want);
  assert.equal(r.count, 10);
  assert.equal(r.targets.length, 1);
  const [g1] = r.targets;
  assert.equal(g1.id, "g1");
  assert.equal(g1.inArea, true);
  assert.equal(g1.affected, true);
  assert.equal(g1.cover, "partial");
  assert.equal(g1.bonus, 2);
  assert.ok(g1.lines.length > 0);
  for (const l of g1.lines) assert.deepEqual(l.from, [5.5, 5.5, 0.5], "an area's cover source is the origin cell's centre");
  assert.deepEqual(g1.roll, { dice: [14], total: 14, defence: 7, hit: true });
});

test("evaluate: the template as an object, as parse returns it, gives the same result", async () => {
  const e = await engine();
  const byText = e.evaluate(CONTRACT_FROM_CASTER);
  const byObject = e.evaluate({ ...CONTRACT_FROM_CASTER, template: e.parse("Con4NE") });
  assert.deepEqual(byObject.cells, byText.cells);
  assert.deepEqual(byObject.targets, byText.targets);
});

test("evaluate: roll only when resolve was given", async () => {
  const e = await engine();
  const { resolve, ...request } = CONTRACT_FROM_CASTER;
  const r = e.evaluate(request);
  checkResult(r, request);
  for (const t of r.targets) assert.equal(t.roll, undefined);
});

test("CONTRACT move: a push stops before an obstacle and reports the squares left (SPEC §3.7)", async () => {
  const e = await engine();
  const m = e.move(MOVE_REQUEST);
  checkMove(m);
  assert.deepEqual(m, { path: [[2, 0, 0]], end: { x: 2, y: 0, z: 0 }, collision: { kind: "obstacle", with: "obstacle", at: [3, 0, 0], left: 2 } });
  const free = e.move({ ...MOVE_REQUEST, obstacles: [] });
  assert.deepEqual(free, { path: [[2, 0, 0], [3, 0, 0], [4, 0, 0]], end: { x: 4, y: 0, z: 0 }, collision: null });
});

// One request per CONTRACT error code, each from the SPEC rule it breaks.
const LONGSWORD = { id: "longsword", kind: "oneHanded" };
const DAGGER = { id: "dagger", kind: "light", ranged: "thrown" };
const caster = { id: "hero", x: 0, y: 0, z: 0 };
const wall = [];
for (let y = -5; y <= 5; y++) for (let z = -1; z <= 1; z++) wall.push({ x: 2, y, z });
const ERRORS = {
  bad_notation: (e) => e.parse("Con4"),
  bad_request: (e) => e.evaluate({ caster }),
  out_of_range: (e) => e.evaluate({ template: "Cir3", caster, origin: { x: 30, y: 0, z: 0 }, range: 5 }),
  no_line_of_effect: (e) => e.evaluate({ rules: "drawsteel", template: "1 cube within 10", caster, origin: { x: 4, y: 0, z: 0 }, obstacles: wall }),
  invalid_wall: (e) => e.evaluate({ rules: "drawsteel", template: "3 wall within 10", caster, path: [[2, 0, 0], [4, 0, 0], [5, 0, 0]] }),
  not_straight: (e) => e.evaluate({ rules: "drawsteel", template: "3 x 1 line within 5", caster, path: [[1, 0, 0], [2, 0, 0], [1, 1, 0]] }),
  too_large: (e) => e.evaluate({ template: "Cir3", caster, origin: { x: 2_000_000, y: 0, z: 0 } }),
  // A full attack's illegal steps (SPEC §9.8), each with the step's index in at.
  no_attack_left: (e) => e.fullAttack({ bab: 4, steps: [{ attack: "main" }, { attack: "main" }] }),
  hand_busy: (e) => e.fullAttack({ bab: 4, feats: ["quickDraw"], holding: { main: LONGSWORD }, steps: [{ draw: "main", item: DAGGER }] }),
  needs_quick_draw: (e) => e.fullAttack({ bab: 4, steps: [{ attack: "main" }, { draw: "off", item: DAGGER }] }),
  not_ranged: (e) => e.fullAttack({ bab: 4, holding: { main: LONGSWORD }, steps: [{ attack: "main", throw: true }] }),
  not_declared: (e) => e.fullAttack({ bab: 4, holding: { main: DAGGER }, steps: [{ attack: "main", extra: true, throw: true }] }),
};
const STEP = { no_attack_left: 1, hand_busy: 0, needs_quick_draw: 1, not_ranged: 0, not_declared: 0 };

test("every CONTRACT error code is thrown as an Error with code and message", async () => {
  const e = await engine();
  assert.deepEqual(Object.keys(ERRORS).sort(), [...CODES].sort());
  for (const [code, call] of Object.entries(ERRORS)) {
    const err = thrown(() => call(e), code);
    if (code !== "bad_notation") assert.equal(err.at, STEP[code], `${code}: at only on notation errors and a full attack's steps`);
  }
});

test("bad_notation carries the 1-based position (SPEC §2.2)", async () => {
  const e = await engine();
  const err = thrown(() => e.parse("Con4"), "bad_notation");
  assert.equal(err.at, 5);
  assert.equal(err.message, "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5");
  assert.equal(thrown(() => e.parse("Lin5SW2"), "bad_notation").at, 7);
  assert.equal(thrown(() => e.evaluate({ template: "Lin5SW2", caster }), "bad_notation").at, 7, "evaluate reports notation errors too");
});

test("errors are AoekitErrors: code, field and at are own fields (field and at only where they have a value), as the module sets them", async () => {
  const e = await engine();
  const notation = thrown(() => e.parse("Con4"), "bad_notation");
  assert.deepEqual([Object.keys(notation), notation.name, String(notation)], [["code", "at"], "AoekitError", `AoekitError: ${notation.message}`]);
  assert.deepEqual({ ...notation }, { code: "bad_notation", at: 5 });
  const request = thrown(() => e.evaluate(1n), "bad_request"); // made by the loader, not the module
  assert.deepEqual([Object.keys(request), "at" in request], [["code"], false]);
  const step = thrown(() => e.fullAttack({ steps: [{ attack: "main", extra: true }] }), "not_declared");
  assert.deepEqual({ ...step }, { code: "not_declared", field: "steps[0].extra", at: 0 });
  const made = new AoekitError("out_of_range", "too far");
  assert.ok(made instanceof Error && made instanceof AoekitError);
  assert.deepEqual([made.code, made.message, "at" in made, made.name], ["out_of_range", "too far", false, "AoekitError"]);
  assert.equal(new AoekitError("bad_notation", "x", 0).at, 0);
  assert.deepEqual({ ...new AoekitError("bad_request", "x", undefined, "tokens[0].x") }, { code: "bad_request", field: "tokens[0].x" });
  // overlay.js and worker.js make theirs with a copy of the class: instanceof holds across them.
  const { AoekitError: OverlayError } = await import("aoekit/overlay");
  const { AoekitError: WorkerError } = await import("aoekit/worker");
  assert.ok(notation instanceof OverlayError && notation instanceof WorkerError);
  assert.ok(new OverlayError("bad_request", "x") instanceof AoekitError && new WorkerError("bad_request", "x") instanceof AoekitError);
  assert.ok(!(new Error("x") instanceof AoekitError) && !(Object.assign(new Error("x"), { code: "bad_request" }) instanceof OverlayError));
});

test("AoekitError's copies (index.js and worker.js import nothing before they load; internal/wasm.js is the overlay's) are the same class, brand and all", () => {
  // Each entry defines the class itself so that importing it is one file: a change to one copy
  // must be made to all three.
  const copy = (file) => {
    const text = readFileSync(join(WEB, file), "utf8");
    const brand = text.match(/^const BRAND = .*$/m)?.[0];
    const start = text.indexOf("export class AoekitError extends Error {");
    const end = text.indexOf("\n}\n", start);
    assert.ok(brand && start >= 0 && end > start, `${file}: no AoekitError class or BRAND found`);
    return `${brand}\n${text.slice(start, end + 2)}`;
  };
  const [index, worker, helpers] = ["index.js", "worker.js", "internal/wasm.js"].map(copy);
  assert.equal(worker, index, "worker.js's AoekitError differs from index.js's");
  assert.equal(helpers, index, "internal/wasm.js's AoekitError differs from index.js's");
});

test("field: the path of the request's field an error is about, as CONTRACT's Errors section writes it", async () => {
  const e = await engine();
  const field = (f, code) => thrown(f, code).field;
  const tokens = [{ id: "a", x: 1, y: 0 }, { id: "b", x: "2", y: 0 }];
  assert.equal(field(() => e.evaluate({ template: "Cir1", origin: { x: 0, y: 0 }, tokens }), "bad_request"), "tokens[1].x");
  assert.equal(field(() => e.evaluate({ template: "Con4", caster }), "bad_notation"), "template", "a notation in a request names the template");
  assert.equal(field(() => e.evaluate({ template: { notation: "Cir" }, origin: { x: 0, y: 0 } }), "bad_notation"), "template.notation");
  assert.equal(field(() => e.evaluate({ template: "Cir1", origin: { x: 0, y: 0 }, walls: [{ a: [0, 0], b: [1e7, 0] }] }), "too_large"), "walls[0].b[0]");
  assert.equal(field(() => e.fullAttack({ holding: { "main hand": 3 } }), "bad_request"), 'holding["main hand"]');
  assert.equal(field(() => e.evaluate({ template: "Con3N" }), "bad_request"), "caster", "a missing field is named too");
  // About no one field: parse's notation (at locates it), malformed JSON, a rule between fields.
  assert.ok(!("field" in thrown(() => e.parse("Con4"), "bad_notation")));
  const noLine = thrown(() => e.evaluate({ template: "3 cube within 10", caster: { id: "c", x: 0, y: 0 }, origin: { x: 4, y: 0 }, obstacles: [{ x: 2, y: 0, z: 0 }] }), "no_line_of_effect");
  assert.ok(!("field" in noLine), noLine.message);
});

test("out_of_range says the distance and the range (SPEC §2.9)", async () => {
  const e = await engine();
  const err = thrown(() => ERRORS.out_of_range(e), "out_of_range");
  assert.match(err.message, /30/);
  assert.match(err.message, /5/);
});

test("move errors: a crooked push is not_straight", async () => {
  const e = await engine();
  thrown(() => e.move({ ...MOVE_REQUEST, obstacles: [], path: [[2, 0, 0], [3, 0, 0], [2, 1, 0]] }), "not_straight");
  thrown(() => e.move({ ...MOVE_REQUEST, target: "nobody" }), "bad_request");
});

test("requests JSON cannot carry are bad_request, before the engine sees them", async () => {
  const e = await engine();
  const cyclic = { ...CONTRACT_FROM_CASTER };
  cyclic.self = cyclic;
  for (const request of [cyclic, { ...CONTRACT_FROM_CASTER, resolve: { ...CONTRACT_FROM_CASTER.resolve, seed: 42n } }, undefined, () => 1, Symbol("s")]) {
    for (const method of ["evaluate", "evaluateCells", "move", "cover", "fullAttack"]) thrown(() => e[method](request), "bad_request");
  }
  thrown(() => e.parse(1n), "bad_request");
  thrown(() => e.parse(), "bad_request");
  thrown(() => e.parse(42), "bad_request");
});

// The three worked examples of CONTRACT cover, and its first example under each rule set.
const COVER_MELEE = {
  rules: "dnd35", attack: "melee", attacker: { id: "knight", x: 0, y: 0, z: 0 },
  target: { id: "orc", x: 1, y: 0, z: 0 }, obstacles: [{ x: 1, y: 0, z: 0, fill: 0.4 }],
};
const COVER_REACH = {
  rules: "drawsteel", attack: "reach", attacker: { id: "spear", x: 0, y: 0, z: 0 },
  target: { id: "orc", x: 2, y: 0, z: 0 }, obstacles: [{ x: 1, y: 0, z: 0, fill: 0.5 }],
};
const COVER_RANGED = {
  attack: "ranged", attacker: { id: "archer", x: 0, y: 0, z: 0 },
  target: { id: "orc", x: 4, y: 1, z: 0 }, obstacles: [{ x: 3, y: 1, z: 0, fill: 0.5 }],
};
const COVER_EXAMPLE = {
  rules: "dnd35", attack: "ranged",
  attacker: { id: "archer", x: 0, y: 0, z: 0, size: 1, flying: false },
  target: { id: "orc", x: 4, y: 0, z: 0, prone: false },
  tokens: [], obstacles: [{ x: 3, y: 0, z: 0, fill: 0.5 }],
};

function grade(r) {
  return [r.grade, r.bonus, r.blocked, r.total, r.lineOfEffect, r.from, r.lines.length];
}

test("CONTRACT cover examples: melee, reach and ranged (SPEC §5.4, §5.5, §5.7)", async () => {
  const e = await engine();
  const melee = e.cover(COVER_MELEE);
  assert.deepEqual(grade(melee), ["partial", 2, 4, 16, true, [0, 0, 0], 16]);
  assert.deepEqual(melee.lines[0], { from: [0.9975, 0.0025, 0.3025], to: [1.0025, 0.0025, 0.4025], blocked: true });
  assert.deepEqual(grade(e.cover({ ...COVER_MELEE, rules: "tdgs" })), ["none", 0, 4, 16, true, [0, 0, 0], 16]);
  const reach = e.cover(COVER_REACH);
  assert.deepEqual(grade(reach), ["cover", 0, 2, 4, true, [0, 0, 0], 4]);
  assert.deepEqual(reach.lines.map((l) => [l.to, l.blocked]), [
    [[2.0025, 0.0025, 0.3025], true], [[2.0025, 0.9975, 0.3025], true],
    [[2.0025, 0.0025, 0.9975], false], [[2.0025, 0.9975, 0.9975], false],
  ]);
  assert.deepEqual(reach.lines[0].from, [0.9975, 0.0025, 0.9975]);
  const ranged = e.cover(COVER_RANGED);
  assert.deepEqual(grade(ranged), ["partial", 2, 2, 6, true, [0, 0, 0], 6]);
  assert.deepEqual(ranged.lines.map((l) => l.blocked), [true, false, true, false, false, false]);
  assert.deepEqual(grade(e.cover({ ...COVER_RANGED, rules: "dnd35" })), ["cover", 4, 2, 6, true, [0, 0, 0], 6]);
  const first = e.cover(COVER_EXAMPLE);
  assert.deepEqual(grade(first), ["cover", 4, 2, 4, true, [0, 0, 0], 4]);
  assert.deepEqual(first.lines[0], { from: [0.9975, 0.0025, 0.0025], to: [4.0025, 0.0025, 0.3025], blocked: true });
  assert.deepEqual(grade(e.cover({ ...COVER_EXAMPLE, rules: "tdgs" })), ["half", 4, 2, 4, true, [0, 0, 0], 4]);
  assert.deepEqual(grade(e.cover({ ...COVER_EXAMPLE, rules: "drawsteel" })), ["cover", 0, 2, 4, true, [0, 0, 0], 4]);
});

test("CONTRACT cover errors: melee out of range, an unknown attack or rule set, a wrong type", async () => {
  const e = await engine();
  const err = thrown(() => e.cover({ ...COVER_MELEE, target: { id: "orc", x: 3, y: 0, z: 0 } }), "out_of_range");
  assert.equal(err.message, "target is 3 squares from the attacker; a melee attack needs adjacent spaces (distance 1)");
  assert.equal(thrown(() => e.cover({ ...COVER_RANGED, attack: "spell" }), "bad_request").message,
    'attack: expected melee, reach or ranged, got "spell"');
  thrown(() => e.cover({ ...COVER_RANGED, rules: "circle50" }), "bad_request");
  assert.equal(thrown(() => e.cover({ ...COVER_RANGED, attacker: { x: 0, y: 0, size: true } }), "bad_request").message,
    "attacker.size: expected a number or a size name, got a boolean");
  thrown(() => e.cover({ ...COVER_RANGED, target: { id: "orc", x: 0, y: 0 } }), "bad_request");
});

test("CONTRACT fullAttack example, verbatim: every step priced, then what may come next (SPEC §9)", async () => {
  const e = await engine();
  const parts = (sequence, twoWeapon, natural = 0) => ({ sequence, twoWeapon, rapidShot: 0, natural });
  assert.deepEqual(e.fullAttack(FULL_ATTACK_REQUEST), {
    steps: [
      { attack: "main", with: "longsword", as: "primary", bonus: 9, parts: parts(11, -2) },
      { attack: "off", with: "dagger", as: "off", bonus: 9, parts: parts(11, -2) },
      { drop: "main" },
      { drop: "off" },
      { draw: "main", hands: ["main", "off"], item: { id: "greatsword", kind: "twoHanded" } },
    ],
    next: [
      { attack: "main", with: "greatsword", as: "primary", bonus: 4, parts: parts(6, -2) },
      { natural: "bite", with: "bite", as: "natural", secondary: true, bonus: 6, parts: parts(11, 0, -5) },
    ],
  });
  // SPEC §9.5 (b): had the off hand not attacked, it still may after the greatsword.
  const b = e.fullAttack({ ...FULL_ATTACK_REQUEST, natural: [], steps: [
    { attack: "main" }, { drop: "main" }, { drop: "off" },
    { draw: "main", hands: ["main", "off"], item: { id: "greatsword", kind: "twoHanded" } }, { attack: "off" },
    { drop: "main" }, { draw: "off", item: { id: "dagger", kind: "light" } }, { attack: "off" },
  ] });
  assert.deepEqual(b.steps.map((s) => [s.with, s.as, s.bonus]).filter((s) => s[0]), [
    ["longsword", "primary", 9], ["greatsword", "primary", 4], ["dagger", "off", 9],
  ]);
});

test("fullAttack errors: at is the illegal step's 0-based index, 0 included; a request's error has none", async () => {
  const e = await engine();
  let err = thrown(() => e.fullAttack({ steps: [{ attack: "tail" }] }), "bad_request");
  assert.deepEqual([err.at, err.message], [0, 'steps[0].attack: "tail" is not one of the hands']);
  err = thrown(() => e.fullAttack({ ...FULL_ATTACK_REQUEST, steps: [...FULL_ATTACK_REQUEST.steps, { draw: "off", item: DAGGER }] }), "hand_busy");
  assert.deepEqual([err.at, err.message], [5, 'steps[5]: hand "off" holds "greatsword" (twoHanded); drop it first']);
  for (const [request, message] of [
    [{ bab: 41 }, "bab: expected 0 … 40, got 41"],
    [{ rapidShot: true }, "rapidShot: declared without the rapidShot feat"],
    [{ hands: [] }, "hands: a combatant needs at least one hand"],
    [{ steps: [{}, {}, {}, { attack: 1 }] }, "steps[3].attack: expected a string, got a number"],
  ]) {
    err = thrown(() => e.fullAttack(request), "bad_request");
    assert.deepEqual([err.at, err.message], [undefined, message]);
  }
  err = thrown(() => e.fullAttack({ steps: Array.from({ length: 65 }, () => ({ attack: "main" })) }), "too_large");
  assert.deepEqual([err.at, err.message], [undefined, "steps: 65 steps, past the limit of 64"]);
});
