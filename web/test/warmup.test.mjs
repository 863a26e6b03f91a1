// load()'s and loadOverlay()'s warm-up (web/internal/wasm.js warmUp): every part of it answers,
// and in Chromium, which compiles a module's functions lazily (each on its first call, on the
// page's thread), the calls a page makes first after load() compile none of their own: V8's
// trace (category v8.wasm, event wasm.CompileLazy) names them, by index, between marks of the
// page, and the modules are built here with their name section to say which. Left out are the
// Go runtime's functions for growing the heap, first called whenever the heap first passes a
// 4 MB chunk, in whichever call that is. A call the warm-up does not make (a forced movement)
// is traced alike and must compile some, so the count is seen to work.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { warmUp } from "../internal/wasm.js";
import { CONTRACT_REQUEST, GO, MOVE_REQUEST, ROOT, WEB, chromium, generator, load, serve, tempDir } from "./helpers.mjs";

// named builds pkg as the loaders' module is built, but keeps the name section (no -s -w).
function named(dir, pkg) {
  const out = join(dir, pkg.replaceAll("/", "-") + ".wasm");
  execFileSync(GO, ["build", "-trimpath", "-o", out, pkg], { cwd: ROOT, env: { ...process.env, GOOS: "js", GOARCH: "wasm" }, stdio: ["ignore", "inherit", "inherit"] });
  return readFileSync(out);
}

// functionNames reads a WebAssembly module's name section: function names by index (imports
// counted, as V8's func_index counts them).
function functionNames(bytes) {
  const names = new Map();
  let i = 8;
  const leb = () => {
    let r = 0, shift = 0, b;
    do {
      b = bytes[i++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return r;
  };
  const text = (n) => new TextDecoder().decode(bytes.subarray(i, (i += n)));
  while (i < bytes.length) {
    const id = bytes[i++], size = leb(), end = i + size;
    if (id === 0 && text(leb()) === "name") {
      while (i < end) {
        const sub = bytes[i++], subEnd = leb() + i;
        if (sub === 1) for (let n = leb(); n > 0; n--) names.set(leb(), text(leb()));
        i = subEnd;
      }
    }
    i = end;
  }
  return names;
}

// (the name section spells a method of *T as __T_)
const HEAP_GROWTH = /^runtime\.__(pageAlloc|mheap)_\./;

// board is a 60 × 60 board like the bench's Typical: 40 tokens (sizes, facings, sides), 300
// obstacles (full and partial), 20 thin walls, drawn from a seeded generator.
function board(seed) {
  const rnd = generator(seed);
  const int = (n) => Math.floor(rnd() * n);
  const dirs = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
  const tokens = [];
  for (let i = 0; i < 40; i++) {
    tokens.push({ id: `t${i}`, x: int(60), y: int(60), z: 0, size: 1 + int(2), facing: dirs[int(8)], side: ["party", "enemy", ""][int(3)] });
  }
  const obstacles = [];
  for (let i = 0; i < 300; i++) obstacles.push({ x: int(60), y: int(60), z: 0, fill: [1, 1, 0.5, 0.25][int(4)] });
  const walls = [];
  for (let i = 0; i < 20; i++) {
    const x = int(58) + 1, y = int(58) + 1;
    walls.push(int(2) ? { a: [x, y], b: [x + 1 + int(5), y] } : { a: [x, y], b: [x, y + 1 + int(5)] });
  }
  return { tokens, obstacles, walls, bounds: { min: [0, 0, 0], max: [59, 59, 0] } };
}

// FIRST_CALLS is made in the page, on an engine just loaded: what a page does first, as named
// calls (a TDGS template over a board, CONTRACT's example, the cells alone, a scene made,
// dragged over, edited and disposed of, a Draw Steel burst among walls with no bounds).
const FIRST_CALLS = `(engine, b, contract) => {
  const caster = { id: "caster", x: 30, y: 30, z: 0, facing: "N", side: "party" };
  const tokens = b.tokens.filter((t) => Math.abs(t.x - 30) > 2 || Math.abs(t.y - 30) > 2);
  const request = { template: "Cir6", caster, origin: { x: 38, y: 30, z: 0 }, range: 20, ...b, tokens };
  const { template, origin, range } = request;
  let scene;
  return [
    ["evaluate", () => engine.evaluate(request)],
    ["evaluate CONTRACT's example", () => engine.evaluate(contract)],
    ["evaluateCells", () => engine.evaluateCells(request)],
    ["scene", () => { scene = engine.scene({ tokens, obstacles: b.obstacles, walls: b.walls, bounds: b.bounds }); }],
    ["scene.evaluate", () => { for (let x = 30; x < 40; x++) scene.evaluate({ template, caster, origin: { x, y: 30, z: 0 }, range }); }],
    ["scene.update", () => scene.update({ tokens: [{ ...tokens[0], x: tokens[0].x === 0 ? 1 : 0 }], remove: [tokens[1].id],
      clear: [[b.obstacles[0].x, b.obstacles[0].y, 0]], obstacles: [{ x: 31, y: 31, z: 0 }] })],
    ["scene.evaluateCells", () => scene.evaluateCells({ template, caster, origin, range })],
    ["scene.dispose", () => scene.dispose()],
    ["evaluate a Draw Steel burst", () => engine.evaluate({ template: "3 burst", caster, tokens, obstacles: b.obstacles, walls: b.walls })],
  ];
}`;

test("warmUp: every part answers, on load()'s engine", async () => {
  assert.deepEqual(warmUp(await load()).map(String), []);
});

test("Chromium: after load() and loadOverlay(), a page's first calls compile no function lazily", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = tempDir(t);
  const modules = { "/engine.wasm": named(dir, "./wasm/browser"), "/overlay.wasm": named(dir, "./wasm/overlay") };
  const base = await serve(t, WEB, { pages: { "/test.html": "<!doctype html><title>aoekit warm-up</title>", ...modules } });
  const loaders = [
    ["/index.js", "/engine.wasm", "m.load({ wasm: '/engine.wasm' })"],
    ["/overlay.js", "/overlay.wasm", "m.loadOverlay({ wasm: '/overlay.wasm' }).then((o) => o.engine)"],
  ];
  for (const [entry, wasm, loader] of loaders) {
    const names = functionNames(modules[wasm]);
    assert.ok(names.size > 1000, `${wasm}: no name section read (${names.size} names)`);
    const page = await browser.newPage();
    await page.goto(`${base}/test.html`);
    const cdp = await page.context().newCDPSession(page);
    const events = [];
    cdp.on("Tracing.dataCollected", (d) => events.push(...d.value));
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.start", { categories: "v8.wasm,blink.user_timing", transferMode: "ReportEvents" });
    const out = await page.evaluate(
      async ([entry, loader, first, b, contract, move]) => {
        const m = await import(entry);
        const engine = await (0, eval)(`(m) => ${loader}`)(m);
        const { warmUp } = await import("/internal/wasm.js");
        const caught = warmUp(engine).map(String);
        const calls = [...(0, eval)(first)(engine, b, contract), ["move (not warmed)", () => engine.move(move)]];
        calls.forEach(([, call], i) => {
          performance.mark(`call:${i}`);
          call();
        });
        performance.mark(`call:${calls.length}`);
        return { caught, calls: calls.map(([name]) => name) };
      },
      [entry, loader, FIRST_CALLS, board(7), CONTRACT_REQUEST, MOVE_REQUEST],
    );
    await cdp.send("Tracing.end");
    await complete;
    await page.close();
    assert.deepEqual(out.caught, [], `${entry}: warmUp caught errors`);
    const mark = Object.fromEntries(events.filter((e) => e.cat === "blink.user_timing").map((e) => [e.name, e.ts]));
    const lazy = out.calls.map((name, i) => {
      assert.ok(mark[`call:${i}`] !== undefined && mark[`call:${i + 1}`] !== undefined, `${entry}: no trace mark around ${name}`);
      const compiled = events.filter((e) => e.name === "wasm.CompileLazy" && e.ts >= mark[`call:${i}`] && e.ts <= mark[`call:${i + 1}`]);
      return [name, compiled.map((e) => names.get(e.args?.func_index) ?? `function ${e.args?.func_index}`)];
    });
    const move = lazy.pop();
    assert.ok(move[1].length > 0, `${entry}: a forced movement, which the warm-up does not make, compiled nothing lazily: the trace does not count what it should`);
    const own = lazy.map(([name, f]) => [name, f.filter((fn) => !HEAP_GROWTH.test(fn))]).filter(([, f]) => f.length > 0);
    assert.deepEqual(own, [], `${entry}: these first calls compiled functions lazily: warmUp should make them`);
  }
});
