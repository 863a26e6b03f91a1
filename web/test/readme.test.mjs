// The README's examples, run as printed. Every ```js block runs as its own ES module against
// the package (a block that does not import `load` gets the README's import line); each line
// ending in `// → value` is checked: the expression before the comment must equal the value.
// The ```go block runs with `go run`, and must print what the sentence after it says
// ("prints `…`"). The curl example is run by wasm/worker's TestREADME.
//
// "Embedding it" has a subsection per way in (ROUTES below), and each one's example runs where
// it is meant to: the plain page's ```html in Chromium, served as the README says (the package's
// web/ folder as ./aoekit/); the bundler's ```js in Node and, bundled by Vite, in Chromium; the
// worker's and the overlay's in Chromium (the bare "aoekit/…" imports mapped to the package's
// files by an import map), the overlay's drawing read back from the canvas; Foundry's macro in
// Chromium against a stub of Foundry's globals with the real module (make foundry's folder), and
// type-checked against foundry-vtt-types; each `make …` the section names is a make target, and
// the folders it names are those foundry.mk assembles. Chromium tests are skipped, loudly, where
// /usr/bin/chromium is absent (CI=1 makes them required).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { GO, ROOT, WEB, buildOverlay, chromium, serve, tempDir } from "./helpers.mjs";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
// Inside the repository (build/ is git-ignored), so that `import "aoekit"` resolves to this
// package by its own name, and `go run` finds this module.
const WORK = join(ROOT, "build", "readme");
const BIN = join(ROOT, "node_modules/.bin");

// "Embedding it": its subsections, in order, and where each one's examples run.
const EMBEDDING = "## Embedding it";
const ROUTES = {
  "In a page, without a bundler": "page",
  "With a bundler": "bundler",
  "In a Web Worker": "browser",
  "Drawn on a canvas: the overlay": "browser",
  "In Foundry VTT": "foundry",
  "In Owlbear Rodeo": "owlbear",
  "Over HTTP": "http",
  "From Go": "go",
};
// The subsections whose js cannot run in Node (Web Workers, a <canvas>, Foundry's globals).
const NOT_NODE = new Set(["browser", "foundry"]);

/** The "### " subsection of "Embedding it" a README offset is in, or null outside it. */
function routeAt(offset) {
  const start = README.indexOf(`\n${EMBEDDING}\n`);
  if (start < 0 || offset < start) return null;
  const next = README.slice(start + 1 + EMBEDDING.length).search(/^## /m);
  if (next >= 0 && offset > start + 1 + EMBEDDING.length + next) return null;
  const headings = [...README.slice(start, offset).matchAll(/^### (.+)$/gm)];
  return headings.length ? headings[headings.length - 1][1] : null;
}

/** blocks returns the fenced blocks of lang with the README line their first line is on, and their subsection of "Embedding it". */
function blocks(lang) {
  const out = [];
  const re = new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm");
  for (let m; (m = re.exec(README)); ) {
    const section = routeAt(m.index);
    out.push({ line: README.slice(0, m.index).split("\n").length + 1, code: m[1], end: m.index + m[0].length, section, route: ROUTES[section] ?? null });
  }
  return out;
}

/** The text of a subsection of "Embedding it", up to the next heading. */
function subsection(title) {
  const at = README.indexOf(`\n### ${title}\n`);
  assert.ok(at >= 0, `README.md has no "### ${title}"`);
  const rest = README.slice(at + 1);
  const next = rest.slice(4).search(/^##+ /m);
  return next < 0 ? rest : rest.slice(0, next + 4);
}

// A checked line: an expression statement (not a declaration), then `// → expected`.
const CHECKED = /^(?!\s*(?:const|let|var|import|export|try|if|for)\b)(\s*)(.+?);?\s*\/\/ → (.+)$/;

/** instrument turns a block's checked lines into calls of `call`(line, actual, expected). */
function instrument({ line, code }, call = "__check") {
  let checks = 0;
  const lines = code.split("\n").map((text, i) => {
    const m = CHECKED.exec(text);
    if (!m) return text;
    checks++;
    return `${m[1]}${call}(${line + i}, ${m[2]}, ${m[3]});`;
  });
  return { checks, source: lines.join("\n") + "\n" };
}

/** Asserts every check a page pushed as [line, actual, expected]: the README's value. */
function assertChecks(checks, n, where) {
  assert.equal(checks.length, n, `${where}: ${checks.length} of its ${n} checked lines ran`);
  for (const [line, actual, expected] of checks) {
    assert.deepEqual(actual, expected, `README.md:${line}: the example prints ${JSON.stringify(expected)}, the answer is ${JSON.stringify(actual)}`);
  }
}

test("README: every js example gives the answers it prints (in Node)", async (t) => {
  mkdirSync(WORK, { recursive: true });
  t.after(() => rmSync(WORK, { recursive: true, force: true }));
  const js = blocks("js").filter((b) => !NOT_NODE.has(b.route));
  assert.ok(js.length >= 2, `the README has ${js.length} js examples`);
  let ran = 0;
  globalThis.__check = (line, actual, expected) => {
    ran++;
    assert.deepEqual(actual, expected, `README.md:${line}: the example prints ${JSON.stringify(expected)}, the engine answers ${JSON.stringify(actual)}`);
  };
  t.after(() => delete globalThis.__check);
  let checks = 0;
  for (const [i, block] of js.entries()) {
    const { checks: n, source } = instrument(block);
    assert.ok(n > 0, `README.md:${block.line}: a js example with no "// → value" line checks nothing`);
    checks += n;
    const imports = /^import .*from "aoekit";$/m.test(block.code) ? "" : 'import { load } from "aoekit";\n';
    const file = join(WORK, `block${i}.mjs`);
    writeFileSync(file, imports + source);
    await import(pathToFileURL(file).href);
  }
  assert.equal(ran, checks, "every checked line ran");
});

test("README: the Go example prints what it says", (t) => {
  const [go, ...more] = blocks("go");
  assert.ok(go && more.length === 0, "the README has one go example");
  const said = /^prints `([^`]*)`/m.exec(README.slice(go.end));
  assert.ok(said, `README.md:${go.line}: the Go example is not followed by "prints \`…\`"`);
  const dir = join(WORK, "go");
  mkdirSync(dir, { recursive: true });
  t.after(() => rmSync(WORK, { recursive: true, force: true }));
  writeFileSync(join(dir, "main.go"), go.code);
  const out = execFileSync(GO, ["run", "./build/readme/go"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(out.trim(), said[1]);
});

test("README: Embedding it has a section per way in, each with an example; the make targets and folders it names are real", () => {
  // The first screen keeps its two commands.
  const first = README.slice(0, README.indexOf("\n## "));
  assert.match(first, /^make demo\b/m);
  assert.match(first, /^make test\b/m);
  // One subsection per route, in order, each with a fenced example.
  const start = README.indexOf(`\n${EMBEDDING}\n`);
  assert.ok(start > 0, `README.md has no "${EMBEDDING}"`);
  const section = README.slice(start + 1, start + 1 + EMBEDDING.length + README.slice(start + 1 + EMBEDDING.length).search(/^## /m));
  assert.deepEqual([...section.matchAll(/^### (.+)$/gm)].map((m) => m[1]), Object.keys(ROUTES));
  for (const title of Object.keys(ROUTES)) assert.match(subsection(title), /^```\w+\n/m, `"${title}" has no example`);
  assert.ok(blocks("html").some((b) => b.route === "page"), "the plain page's example is html");
  assert.ok(blocks("sh").some((b) => b.route === "http" && /^curl /m.test(b.code)), "Over HTTP shows a curl command (wasm/worker's TestREADME runs it)");

  // Every `make X` it names is a target (make -n only prints what it would run).
  const targets = new Set([...section.matchAll(/(?:^|`)make ([a-z][\w-]*)/gm)].map((m) => m[1]));
  assert.ok(targets.has("foundry") && targets.has("owlbear") && targets.has("serve-api"), [...targets].join(" "));
  for (const target of targets) execFileSync("make", ["-n", target], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });

  // The folders it says make foundry and make owlbear assemble are foundry.mk's, and hold the
  // manifest each host reads.
  const mk = readFileSync(join(WEB, "foundry/foundry.mk"), "utf8");
  const variable = (name) => new RegExp(`^${name}\\s*:=\\s*(.*)$`, "m").exec(mk)[1].trim();
  assert.match(subsection("In Foundry VTT"), new RegExp("`" + variable("FOUNDRY_DIR") + "/`"));
  assert.ok(variable("FOUNDRY_OWN_FILES").split(/\s+/).includes("module.json"));
  assert.match(subsection("In Owlbear Rodeo"), new RegExp("`" + variable("OWLBEAR_DIR") + "/`"));
  assert.ok(variable("OWLBEAR_OWN_FILES").split(/\s+/).includes("manifest.json"));
  assert.match(subsection("In Owlbear Rodeo"), /`https:\/\/<your host>\/<folder>\/manifest\.json`/);

  // The Foundry setting it names is one the module registers (by its name in the settings).
  const named = [...subsection("In Foundry VTT").matchAll(/the setting \*([^*]+)\*/g)].map((m) => m[1].replace(/\s+/g, " ").toLowerCase());
  assert.ok(named.length > 0, "the Foundry section names its auto-target setting");
  const registered = [...readFileSync(join(WEB, "foundry/aoekit.mjs"), "utf8").matchAll(/name: "aoekit: ([^"]+)"/g)].map((m) => m[1].toLowerCase());
  for (const n of named) assert.ok(registered.includes(n), `the setting "${n}" is not one of aoekit.mjs's: ${registered.join(", ")}`);
});

/** The page, worker and overlay examples, in one server: the package's web/ folder as /aoekit/, and an import map for its entries. */
async function packagePage(t) {
  const dir = tempDir(t, "aoekit-readme-");
  symlinkSync(WEB, join(dir, "aoekit"));
  // A fresh overlay module, built from the sources (as make overlay-wasm builds it).
  const overlayWasm = buildOverlay(dir);
  const pages = { "/aoekit/aoekit-overlay.wasm": overlayWasm };
  const base = await serve(t, dir, { pages });
  return { base, pages };
}

const IMPORT_MAP = `<script type="importmap">{"imports": {"aoekit": "/aoekit/index.js", "aoekit/worker": "/aoekit/worker.js", "aoekit/overlay": "/aoekit/overlay.js"}}</script>`;

/** Opens a page and waits for window.__done; returns its checks, its problems and the page. */
async function run(browser, url) {
  const page = await browser.newPage({ viewport: { width: 480, height: 360 } });
  const problems = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (m) => m.type() === "error" && !/favicon/.test(m.location().url) && problems.push(`console.error: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && problems.push(`${r.status()} ${r.url()}`));
  await page.goto(url);
  const done = await page.waitForFunction(() => window.__done, null, { timeout: 60_000 }).then((h) => h.jsonValue(), (err) => `${err.message}\n${problems.join("\n")}`);
  assert.equal(done, "yes", done);
  return { checks: await page.evaluate(() => window.__checks), problems, page };
}

test("README: the plain page, worker and overlay examples run in Chromium as printed", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const { base, pages } = await packagePage(t);

  // The plain page: the html as printed, served beside the package's web/ folder as ./aoekit/.
  const html = blocks("html").filter((b) => b.route === "page");
  assert.equal(html.length, 1, "one plain-page example");
  for (const block of html) {
    const { checks: n, source } = instrument(block);
    assert.ok(n > 0, `README.md:${block.line}: the page checks nothing`);
    pages["/page.html"] = `<!doctype html><meta charset="utf-8"><title>readme</title>
<script>window.__checks = []; window.__check = (line, actual, expected) => window.__checks.push([line, actual, expected]);
window.addEventListener("error", (e) => { window.__done = String(e.message); });</script>\n${source.replace("</script>", 'window.__done = "yes";\n</script>')}`;
    const { checks, problems } = await run(browser, `${base}/page.html`);
    assertChecks(checks, n, `README.md:${block.line}`);
    assert.deepEqual(problems, []);
  }

  // The worker and the overlay: each block a module of its own, its "aoekit/…" imports mapped
  // to the package's files, on a page with a <canvas> (400 × 320) for the overlay.
  const js = blocks("js").filter((b) => b.route === "browser");
  assert.deepEqual([...new Set(js.map((b) => b.section))], ["In a Web Worker", "Drawn on a canvas: the overlay"]);
  for (const [i, block] of js.entries()) {
    const { checks: n, source } = instrument(block);
    assert.ok(n > 0, `README.md:${block.line}: a js example with no "// → value" line checks nothing`);
    pages[`/block${i}.js`] = source;
    pages[`/block${i}.html`] = `<!doctype html><meta charset="utf-8"><title>readme</title><style>body{margin:0}canvas{display:block}</style>
${IMPORT_MAP}<canvas width="400" height="320"></canvas>
<script type="module">
window.__checks = [];
window.__check = (line, actual, expected) => window.__checks.push([line, actual, expected]);
import("/block${i}.js").then(() => { window.__done = "yes"; }, (e) => { window.__done = String(e && e.stack || e); });
</script>`;
    const { checks, problems, page } = await run(browser, `${base}/block${i}.html`);
    assertChecks(checks, n, `README.md:${block.line}`);
    assert.deepEqual(problems, []);
    if (block.section === "Drawn on a canvas: the overlay") {
      // As the README says: squares of 40 pixels from the canvas's corner; the 5 × 5 squares
      // (3…7, 3…7) are filled and the rest of the canvas is clear. Probed at each square's centre.
      const painted = await page.evaluate(() => {
        const canvas = document.querySelector("canvas");
        const ratio = canvas.width / canvas.clientWidth;
        const ctx = canvas.getContext("2d");
        const out = [];
        for (let y = 0; y < 8; y++) for (let x = 0; x < 10; x++) {
          if (ctx.getImageData(Math.round((x * 40 + 20) * ratio), Math.round((y * 40 + 20) * ratio), 1, 1).data[3] > 0) out.push([x, y]);
        }
        return out;
      });
      const area = [];
      for (let y = 3; y <= 7; y++) for (let x = 3; x <= 7; x++) area.push([x, y]);
      assert.deepEqual(painted, area);
    }
    await page.close();
  }
});

test("README: the bundler example, bundled by Vite, runs in Chromium", async (t) => {
  const [block, ...more] = blocks("js").filter((b) => b.route === "bundler");
  assert.ok(block && more.length === 0, "one bundler example");
  const { checks: n, source } = instrument(block);
  assert.ok(n > 0, `README.md:${block.line}: the bundler example checks nothing`);
  // An app whose node_modules/aoekit is this package, built as the README says: nothing to configure.
  const app = tempDir(t, "aoekit-readme-vite-");
  mkdirSync(join(app, "node_modules"));
  symlinkSync(ROOT, join(app, "node_modules/aoekit"));
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  writeFileSync(join(app, "index.html"), `<!doctype html><meta charset="utf-8"><title>app</title>
<script>window.__checks = []; window.__check = (line, actual, expected) => window.__checks.push([line, actual, expected]);
window.addEventListener("error", (e) => { window.__done = String(e.message); });</script>
<script type="module" src="./main.js"></script>`);
  writeFileSync(join(app, "main.js"), `${source}window.__done = "yes";\n`);
  try {
    execFileSync(join(BIN, "vite"), ["build", "--logLevel", "warn"], { cwd: app, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    throw new Error(`vite build failed:\n${err.stdout}\n${err.stderr}`);
  }
  const browser = await chromium(t);
  if (!browser) return;
  const base = await serve(t, join(app, "dist"));
  const { checks, problems } = await run(browser, `${base}/index.html`);
  assertChecks(checks, n, `README.md:${block.line}`);
  assert.deepEqual(problems, []);
});

// A stub of the Foundry v13 globals aoekit.mjs and the README's macro use (Hooks, game, canvas,
// ui), on fixtures/foundry-scene.json's scene, whose last template is the README's "10 ft
// circle". setTargets calls and the hook's console.log lines are recorded.
const FOUNDRY_STUB = `
window.calls = { targets: [], warnings: [], logs: [] };
const log = console.log;
console.log = (...args) => { window.calls.logs.push(JSON.parse(JSON.stringify(args))); log(...args); };
const hooks = new Map();
window.Hooks = {
  on(name, fn) { (hooks.get(name) ?? hooks.set(name, []).get(name)).push(fn); return 0; },
  once(name, fn) { return this.on(name, fn); },
  callAll(name, ...args) { for (const fn of hooks.get(name) ?? []) fn(...args); return true; },
};
const settings = new Map();
window.game = {
  user: { id: "uSeR0000000000001", isGM: true },
  modules: new Map([["aoekit", { id: "aoekit", active: true }]]),
  settings: { register(ns, key, config) { settings.set(key, config.default); }, get(ns, key) { return settings.get(key); } },
};
window.ui = { notifications: { warn: (m) => calls.warnings.push(m), error: (m) => calls.warnings.push(m) } };
const { scene, dimensions } = await (await fetch("/fixture.json")).json();
const sceneDoc = { id: scene._id, grid: scene.grid };
const doc = (data) => ({ ...data, id: data._id, parent: sceneDoc });
sceneDoc.tokens = { contents: scene.tokens.map(doc) };
sceneDoc.walls = { contents: scene.walls.map(doc) };
const circle = scene.templates.find((t) => t.t === "circle" && t.distance === 10); // on a 5 ft grid
window.canvas = {
  ready: true,
  scene: sceneDoc,
  grid: scene.grid,
  dimensions,
  stage: { scale: { x: 0.4, y: 0.4 }, toGlobal: (p) => ({ x: p.x * 0.4, y: p.y * 0.4 }) },
  tokens: { controlled: [], setTargets: (ids, options) => calls.targets.push({ ids: [...ids], options }) },
  templates: { placeables: [{ document: doc(scene.templates[0]) }, { document: doc(circle) }] },
};
await import("/modules/aoekit/aoekit.mjs");
for (const hook of ["init", "setup", "canvasReady", "ready"]) Hooks.callAll(hook, hook === "canvasReady" ? canvas : undefined);
`;

test("README: the Foundry macro runs against the module, and type-checks against Foundry v13's declarations", async (t) => {
  const [block, ...more] = blocks("js").filter((b) => b.route === "foundry");
  assert.ok(block && more.length === 0, "one Foundry example");
  const { checks: n, source } = instrument(block);
  assert.ok(n > 0, `README.md:${block.line}: the Foundry example checks nothing`);

  // Type-checked (// @ts-check, not strict: a macro need not prove what it knows) against
  // foundry-vtt-types and what the module declares it adds (web/foundry/foundry-types.ts).
  const dir = join(ROOT, "build", "readme-foundry");
  mkdirSync(dir, { recursive: true });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "macro.mjs"), `// @ts-check\n${block.code}\nexport {};\n`);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    extends: "../../web/foundry/tsconfig.json",
    compilerOptions: { strict: false, checkJs: false },
    files: ["../../web/foundry/foundry-types.ts", "macro.mjs"],
  }));
  try {
    execFileSync(join(BIN, "tsc"), ["-p", dir], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    throw new Error(`README.md:${block.line}: the Foundry example does not type-check:\n${err.stdout}${err.stderr}`);
  }

  const browser = await chromium(t);
  if (!browser) return;
  // The module folder, as make foundry assembles it (foundry.mk's lists), with a fresh overlay.
  const site = tempDir(t, "aoekit-readme-foundry-");
  const mk = readFileSync(join(WEB, "foundry/foundry.mk"), "utf8");
  const list = (name) => new RegExp(`^${name}\\s*:=\\s*(.*)$`, "m").exec(mk)[1].trim().split(/\s+/);
  const folder = join(site, "modules/aoekit");
  for (const f of list("FOUNDRY_PACKAGE_FILES")) {
    mkdirSync(dirname(join(folder, f)), { recursive: true });
    if (f !== "aoekit-overlay.wasm") cpSync(join(WEB, f), join(folder, f));
  }
  for (const f of list("FOUNDRY_OWN_FILES")) cpSync(join(WEB, "foundry", f), join(folder, f));
  buildOverlay(folder);
  const base = await serve(t, site, {
    pages: {
      "/fixture.json": readFileSync(join(WEB, "test/fixtures/foundry-scene.json"), "utf8"),
      "/stub.js": FOUNDRY_STUB,
      "/macro.js": source,
      "/index.html": `<!doctype html><meta charset="utf-8"><title>foundry</title><canvas id="board"></canvas>
<script type="module">
window.__checks = [];
window.__check = (line, actual, expected) => window.__checks.push([line, actual, expected]);
try {
  await import("/stub.js");
  await import("/macro.js");      // the README's macro, as a script module
  window.__done = "yes";
} catch (e) { window.__done = String(e && e.stack || e); }
</script>`,
    },
  });
  const { checks, problems, page } = await run(browser, `${base}/index.html`);
  assertChecks(checks, n, `README.md:${block.line}`);
  assert.deepEqual(problems, []);
  const calls = await page.evaluate(() => ({ ...window.calls, last: game.modules.get("aoekit").api.last }));
  assert.deepEqual(calls.warnings, []);
  // The hook the macro listens to ran (and runs again at each evaluation: the module's own,
  // at the next frame, too), with the notation and one entry per token.
  assert.ok(calls.logs.length > 0, "the aoekit.evaluated hook ran");
  for (const [notation, targets] of calls.logs) {
    assert.equal(notation, "10-foot-radius sphere");
    assert.deepEqual(targets.map((e) => e.id), calls.last.targets.map((e) => e.id));
  }
  // { target: true }: your targets become the tokens it affects (the caster left out), and only those.
  assert.deepEqual(calls.targets, [{ ids: calls.last.targets.filter((e) => e.affected && !e.caster).map((e) => e.id), options: { mode: "replace" } }]);
  assert.ok(calls.targets[0].ids.length > 0, "it targets something");
});
