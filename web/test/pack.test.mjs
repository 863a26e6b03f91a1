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
const SHIPPED = ["LICENSE", "README.md", "core/SPEC.md", "package.json", "web/CONTRACT.md", "web/aoekit-overlay.wasm", "web/aoekit.wasm", "web/index.d.ts",
  "web/index.js", "web/internal/wasm.js", "web/overlay.d.ts", "web/overlay.js", "web/wasm_exec.js"];

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
  // The other exports resolve too.
  sh(process.execPath, ["--input-type=module", "-e", `
    import { createRequire } from "node:module";
    import.meta.resolve("aoekit/aoekit.wasm"); import.meta.resolve("aoekit/wasm_exec.js");
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
    import { load, type Engine, type Request, type Result, type AoekitError, type MoveResult, type MoveRequest, type Template, type VersionInfo, type CoverRequest, type CoverResult, type FullAttackRequest, type FullAttackResult } from "aoekit";
    ${Object.entries(answers).map(([type, values]) => `export const answers${type}: ${type}[] = ${JSON.stringify(values)};`).join("\n")}
    const request: Request = ${JSON.stringify(CONTRACT_FROM_CASTER)};
    async function main(): Promise<number> {
      const e: Engine = await load({ wasm: new URL("https://example.com/aoekit.wasm") });
      const r: Result = e.evaluate(request);
      const cells: Int32Array = e.evaluateCells(request);
      const m: MoveResult = e.move({ kind: "push", distance: 3, source: { x: 0, y: 0, z: 0 }, target: "g1" });
      const c: CoverResult = e.cover({ attack: "ranged", attacker: { x: 0, y: 0, z: 0 }, target: { id: "orc", x: 4, y: 0, z: 0 } });
      const f: FullAttackResult = e.fullAttack({ bab: 6, feats: ["quickDraw"], holding: { main: { id: "dagger", kind: "light", ranged: "thrown" } }, steps: [{ attack: "main", throw: true }] });
      try { e.parse("Con4"); } catch (err) { const a = (err as AoekitError).at ?? 0; return a; }
      return r.count + cells.length + m.path.length + c.bonus + (f.steps[0].bonus ?? 0) + e.version().contract;
    }
    main();
  `);
  for (const resolution of [["--module", "nodenext", "--moduleResolution", "nodenext"], ["--module", "esnext", "--moduleResolution", "bundler"]]) {
    sh(join(BIN, "tsc"), ["--noEmit", "--strict", "--target", "es2022", "--lib", "es2022,dom", ...resolution, "check.ts"], app);
  }

  // Vite: a page that imports the package; the build must emit the module.
  writeFileSync(join(app, "index.html"), `<!doctype html><title>app</title><script type="module" src="./main.js"></script>`);
  writeFileSync(join(app, "main.js"), `
    import { load } from "aoekit";
    load().then((e) => { window.result = e.evaluate(${JSON.stringify(CONTRACT_FROM_CASTER)}); })
      .catch((err) => { window.result = { error: String(err) }; });
  `);
  sh(join(BIN, "vite"), ["build", "--logLevel", "warn"], app);
  const assets = readdirSync(join(app, "dist/assets"));
  const wasm = assets.filter((f) => f.endsWith(".wasm"));
  assert.equal(wasm.length, 1, `dist/assets: ${assets}`);
  assert.ok(readFileSync(join(app, "dist/assets", wasm[0])).equals(readFileSync(join(WEB, "aoekit.wasm"))), "the emitted .wasm is the module");

  // Chromium: the bundle runs.
  const browser = await chromium(t);
  if (!browser) return;
  const base = await serve(t, join(app, "dist"));
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/index.html`);
  const result = await page.waitForFunction(() => window.result, null, { timeout: 20_000 }).then((h) => h.jsonValue());
  assert.deepEqual(errors, []);
  assert.equal(result.count, 10, JSON.stringify(result).slice(0, 300));
});
