// The npm package as users get it: `npm pack` in a clean copy of the repository (no built
// module: the prepack script builds it), installed into an empty project, imported in Node,
// type-checked by TypeScript, bundled by Vite (which must emit the .wasm) and, where Chromium is
// installed, the bundle run in a browser.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";

import { CONTRACT_FROM_CASTER, CONTRACT_REQUEST, COVER_REQUEST, FULL_ATTACK_REQUEST, MOVE_REQUEST, PACKAGE, ROOT, WEB, chromium, load, serve, tempDir } from "./helpers.mjs";

const BIN = join(ROOT, "node_modules/.bin");
const SHIPPED = ["LICENSE", "README.md", "core/SPEC.md", "package.json", "web/CONTRACT.md", "web/aoekit-overlay.wasm", "web/aoekit.wasm", "web/engine-worker.js",
  "web/index.d.ts", "web/index.js", "web/internal/wasm.js", "web/overlay.d.ts", "web/overlay.js", "web/wasm_exec.js", "web/worker.d.ts", "web/worker.js"];

function sh(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(" ").slice(0, 200)} failed:\n${err.stdout}\n${err.stderr}`);
  }
}

test("npm pack → install into an empty project → Node, TypeScript, Vite (and Chromium)", async (t) => {
  const dir = tempDir(t, "aoekit-pack-");

  // A clean copy: the files git would give a fresh clone (tracked, and new ones it does not
  // ignore), as they are in the working tree; no module, no wasm_exec.js, no node_modules.
  const clone = join(dir, "clone");
  for (const f of sh("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT).split("\0")) {
    if (!f || !existsSync(join(ROOT, f))) continue;
    mkdirSync(dirname(join(clone, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(clone, f));
  }
  assert.ok(!existsSync(join(clone, "web/aoekit.wasm")), "the copy is clean");

  // Pack: prepack builds the module; exactly what ships.
  const [packed] = JSON.parse(sh("npm", ["pack", "--json", "--pack-destination", dir], clone));
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, SHIPPED);
  // The same sources build the same module (-trimpath, no VCS stamp) as make browser here.
  assert.ok(readFileSync(join(clone, "web/aoekit.wasm")).equals(readFileSync(join(WEB, "aoekit.wasm"))), "the packed module is the one built here");

  // An empty project, the tarball installed offline (the package has no dependencies).
  const app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  sh("npm", ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", join(dir, packed.filename)], app);

  // Node: import by name (no side effects until load), evaluate.
  const out = sh(process.execPath, ["--input-type=module", "-e", `
    import { load } from "aoekit";
    if (globalThis.Go !== undefined) throw new Error("importing aoekit defined Go before load()");
    const e = await load();
    const r = e.evaluate(${JSON.stringify(CONTRACT_FROM_CASTER)});
    console.log(JSON.stringify({ count: r.count, cells: e.evaluateCells(${JSON.stringify(CONTRACT_FROM_CASTER)}).length, version: e.version() }));
  `], app);
  assert.deepEqual(JSON.parse(out), { count: 10, cells: 30, version: { engine: "aoekit", version: PACKAGE.version, contract: 1 } });
  // The other exports resolve too; AoekitError is one class through every entry; loadWorker
  // says Node has no Web Workers.
  sh(process.execPath, ["--input-type=module", "-e", `
    import { createRequire } from "node:module";
    import.meta.resolve("aoekit/aoekit.wasm"); import.meta.resolve("aoekit/wasm_exec.js");
    import { AoekitError, load } from "aoekit";
    import { AoekitError as A2, attachOverlay } from "aoekit/overlay";
    import { AoekitError as A3, loadWorker } from "aoekit/worker";
    for (const [A, B] of [[AoekitError, A2], [A2, A3], [A3, AoekitError], [A2, AoekitError]]) {
      if (!(new A("bad_request", "x") instanceof B)) throw new Error("an AoekitError of one entry is not one of another's");
    }
    if (new Error("x") instanceof AoekitError || typeof attachOverlay !== "function") throw new Error("instanceof AoekitError");
    try { (await load()).parse("Con4"); } catch (e) { if (!(e instanceof AoekitError) || e.at !== 5) throw e; }
    const refused = await loadWorker().then(() => null, (e) => e.message);
    if (!/needs Web Workers/.test(refused)) throw new Error("loadWorker in Node: " + refused);
    await import("aoekit/wasm_exec.js");
    if (typeof globalThis.Go !== "function") throw new Error("no Go");
  `], app);

  // TypeScript: the declarations resolve through "exports", type the CONTRACT examples and
  // real answers (an object literal with a field the declarations lack fails to compile).
  const e = await load();
  const answers = {
    Template: [e.parse("Con4NE"), e.parse("3 cube within 10"), e.parse("close circle 2"), e.parse("Lin5Sw2")],
    Result: [e.evaluate(CONTRACT_FROM_CASTER), e.evaluate(CONTRACT_REQUEST)],
    MoveResult: [e.move(MOVE_REQUEST), e.move({ ...MOVE_REQUEST, obstacles: [] })],
    VersionInfo: [e.version()],
    Request: [CONTRACT_REQUEST, CONTRACT_FROM_CASTER],
    MoveRequest: [MOVE_REQUEST],
    CoverRequest: [COVER_REQUEST],
    CoverResult: [e.cover(COVER_REQUEST), e.cover({ ...COVER_REQUEST, rules: "tdgs", attack: "melee", target: { id: "orc", x: 1, y: 0, z: 0 } })],
    FullAttackRequest: [FULL_ATTACK_REQUEST],
    FullAttackResult: [e.fullAttack(FULL_ATTACK_REQUEST), e.fullAttack({ ...FULL_ATTACK_REQUEST, steps: [...FULL_ATTACK_REQUEST.steps, { attack: "off" }] })],
  };
  writeFileSync(join(app, "check.ts"), `
    import { load, AoekitError, type Engine, type Request, type Result, type MoveResult, type MoveRequest, type Template, type TemplateFields, type TemplateObject, type TdgsCone, type Direction, type VersionInfo, type CoverRequest, type CoverResult, type FullAttackRequest, type FullAttackResult } from "aoekit";
    import { loadWorker, AoekitError as WorkerError, type WorkerEngine, type WorkerScene, type WorkerOverlay } from "aoekit/worker";
    import { attachOverlay, type AttachedOverlay, type DrawTarget } from "aoekit/overlay";
    ${Object.entries(answers).map(([type, values]) => `export const answers${type}: ${type}[] = ${JSON.stringify(values)};`).join("\n")}
    const request: Request = ${JSON.stringify(CONTRACT_FROM_CASTER)};
    async function main(): Promise<number> {
      const e: Engine = await load({ wasm: new URL("https://example.com/aoekit.wasm") });
      const r: Result = e.evaluate(request);
      const cells: Int32Array = e.evaluateCells(request);
      const m: MoveResult = e.move({ kind: "push", distance: 3, source: { x: 0, y: 0, z: 0 }, target: "g1" });
      const c: CoverResult = e.cover({ attack: "ranged", attacker: { x: 0, y: 0, z: 0 }, target: { id: "orc", x: 4, y: 0, z: 0 } });
      const f: FullAttackResult = e.fullAttack({ bab: 6, feats: ["quickDraw"], holding: { main: { id: "dagger", kind: "light", ranged: "thrown" } }, steps: [{ attack: "main", throw: true }] });
      try { e.parse("Con4"); } catch (err) { if (err instanceof AoekitError) { const code: "bad_notation" | string = err.code; return err.at ?? 0; } }
      return r.count + cells.length + m.path.length + c.bonus + (f.steps[0].bonus ?? 0) + e.version().contract;
    }
    main();

    // Template is a union: rules and shape narrow it to the shape's own fields, numbers.
    function sizes(t: Template): number {
      if (t.rules === "tdgs" && t.shape === "cone") { const d: Direction = t.direction; return t.length + t.height; }
      if (t.rules === "dnd5e" && t.shape === "cone") return t.length + (t.angle ?? 53.13); // a point-origin cone: no direction
      if (t.shape === "sphere" || t.shape === "emanation") return t.radius;
      if (t.rules === "drawsteel" && t.shape === "line") return t.length * t.width + (t.within ?? 0);
      if (t.rules === "circle50") { const close: boolean = t.close; return t.size; }
      if (t.shape === "rectangle") return t.width * t.length;
      const wide: TemplateFields = t; // every variant has TemplateFields' fields, of their types
      return t.radius ?? t.side ?? t.squares ?? 0; // the others' fields are there, undefined
    }
    // @ts-expect-error a cone has no radius
    const noRadius: number = ({} as TdgsCone).radius;
    const templates: TemplateObject[] = [answersTemplate[0], { shape: "cone", length: 4, direction: "NE" }, { rules: "drawsteel", shape: "cube", side: 3 }, { notation: "Cir3" }];
    // @ts-expect-error a 50 % circle has a size, not a radius
    const notACircle: TemplateObject = { rules: "circle50", shape: "circle", radius: 3 };
    // @ts-expect-error a cone needs its direction
    const noDirection: TemplateObject = { shape: "cone", length: 4 };
    const everyField: [Exclude<keyof TemplateFields, keyof Template>] extends [never] ? true : false = true;
    const sent: Request = { template: answersResult[0].template };
    // Requests with their defaults left out, as the README writes them (z, the caster's id, a
    // push's distance and source, a roll's stat; a seed as a decimal string), type-check; a
    // wall still needs both ends; an answer's positions have their z.
    const readme: Request = { template: "Cir2", caster: { id: "wizard", x: 1, y: 5 }, origin: { x: 6, y: 5 }, range: 10, tokens: [{ id: "orc", x: 7, y: 4, side: "enemy" }], obstacles: [{ x: 6, y: 4 }], bounds: { min: [0, 0, 0], max: [19, 19, 0] }, resolve: { seed: "18446744073709551615" } };
    const shoved: MoveRequest = { kind: "push", target: "orc", tokens: [{ id: "orc", x: 7, y: 4 }] };
    const noBab: FullAttackRequest = { ...answersFullAttackRequest[0], bab: undefined };
    // @ts-expect-error a wall needs both ends
    const halfWall: Request = { template: "Cir2", walls: [{ a: [1, 1] }] };
    const heights: number = answersResult[0].origin.z + answersMoveResult[0].end.z;
    const sameClass: typeof AoekitError = WorkerError;

    // The worker: the engine's methods, with promises; its scene; its overlay.
    async function offMainThread(canvas: HTMLCanvasElement): Promise<number> {
      const w: WorkerEngine = await loadWorker({ wasm: new URL("https://example.com/aoekit.wasm") });
      const t: Template = await w.parse("Con4NE");
      const r: Result = await w.evaluate(request);
      const cells: Int32Array = await w.evaluateCells(request);
      const s: WorkerScene = await w.scene({ tokens: [{ id: "orc", x: 6, y: 5, z: 0 }], obstacles: new Int32Array([6, 4, 0, 400]) });
      await s.update({ tokens: [] });
      const sr: Result = await s.evaluate({ template: "Cir2", origin: { x: 6, y: 5, z: 0 } });
      await s.dispose();
      const o: WorkerOverlay = await w.attachOverlay(canvas, { cellSize: 20, onTargets: (targets: DrawTarget[]) => targets.length });
      const { count } = await o.update(request, { lines: "all" });
      const at: { x: number; y: number } = await o.cellAt(10, 10);
      await o.dispose();
      const page: AttachedOverlay = await attachOverlay(canvas, { cellSize: 20 });
      page.dispose();
      w.dispose();
      try { await w.parse("Con4"); } catch (err) { if (err instanceof WorkerError) return err.at ?? 0; }
      return sizes(t) + r.count + cells.length + sr.count + count + at.x + (await w.version()).contract;
    }
    offMainThread(document.createElement("canvas"));
  `);
  for (const resolution of [["--module", "nodenext", "--moduleResolution", "nodenext"], ["--module", "esnext", "--moduleResolution", "bundler"]]) {
    sh(join(BIN, "tsc"), ["--noEmit", "--strict", "--target", "es2022", "--lib", "es2022,dom", ...resolution, "check.ts"], app);
  }

  // Vite: a page that imports the package and its worker; the build must emit the module and
  // bundle the worker (engine-worker.js, which brings the overlay's loader and module for its
  // attachOverlay).
  writeFileSync(join(app, "index.html"), `<!doctype html><title>app</title><script type="module" src="./main.js"></script>`);
  writeFileSync(join(app, "main.js"), `
    import { load } from "aoekit";
    import { loadWorker } from "aoekit/worker";
    const request = ${JSON.stringify(CONTRACT_FROM_CASTER)};
    load().then((e) => { window.result = e.evaluate(request); })
      .catch((err) => { window.result = { error: String(err) }; });
    loadWorker().then(async (w) => { window.fromWorker = { result: await w.evaluate(request), cells: Array.from(await w.evaluateCells(request)) }; })
      .catch((err) => { window.fromWorker = { error: String(err) }; });
  `);
  sh(join(BIN, "vite"), ["build", "--logLevel", "warn"], app);
  const assets = readdirSync(join(app, "dist/assets"));
  const wasm = assets.filter((f) => f.endsWith(".wasm")).map((f) => readFileSync(join(app, "dist/assets", f)));
  const modules = [readFileSync(join(WEB, "aoekit.wasm")), readFileSync(join(WEB, "aoekit-overlay.wasm"))];
  assert.deepEqual(wasm.map((b) => modules.findIndex((m) => m.equals(b))).sort(), [0, 1], `dist/assets: ${assets}: the module, and the overlay's (for the worker's attachOverlay)`);
  const workers = assets.filter((f) => /^engine-worker-.*\.js$/.test(f));
  assert.equal(workers.length, 1, `dist/assets: ${assets}: the worker, bundled`);

  // Chromium: the bundle runs.
  const browser = await chromium(t);
  if (!browser) return;
  const base = await serve(t, join(app, "dist"));
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/index.html`);
  const result = await page.waitForFunction(() => window.result, null, { timeout: 20_000 }).then((h) => h.jsonValue());
  const fromWorker = await page.waitForFunction(() => window.fromWorker, null, { timeout: 20_000 }).then((h) => h.jsonValue());
  assert.deepEqual(errors, []);
  assert.equal(result.count, 10, JSON.stringify(result).slice(0, 300));
  assert.deepEqual(fromWorker.result, result, JSON.stringify(fromWorker).slice(0, 300));
  assert.deepEqual(fromWorker.cells, result.cells.flat());
});
