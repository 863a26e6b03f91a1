// Shared by the package's tests: the built package through its entry, CONTRACT's examples and
// the checks every answer must pass.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

import { AoekitError, load } from "aoekit"; // the package entry (self-reference through package.json "exports")

export { AoekitError, load };

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const WEB = join(ROOT, "web");
export const GO = process.env.GO || "go";
export const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

// A module older than the Go it is built from answers for old code: say so, loudly.
{
  const built = statSync(join(WEB, "aoekit.wasm"), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const newest = ["core", "wasm", "go.mod"].flatMap((d) => goFiles(join(ROOT, d))).reduce((m, f) => Math.max(m, statSync(f).mtimeMs), 0);
  if (built < newest) console.error("\n*** web/aoekit.wasm is missing or older than the Go sources: run make browser (make test does) ***\n");
}

function goFiles(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? (d.name === "testdata" ? [] : goFiles(join(path, d.name))) : d.name.endsWith(".go") && !d.name.endsWith("_test.go") ? [join(path, d.name)] : []);
}

let shared;
/** The engine shared by a test file (load() starts one instance per call). */
export function engine() {
  return (shared ??= load());
}

/** CONTRACT's error codes. */
export const CODES = ["bad_notation", "bad_request", "out_of_range", "no_line_of_effect", "invalid_wall", "not_straight", "too_large",
  "no_attack_left", "hand_busy", "needs_quick_draw", "not_ranged", "not_declared"];

/** CONTRACT fullAttack's example request, verbatim. */
export const FULL_ATTACK_REQUEST = {
  bab: 11, feats: ["twoWeaponFighting", "quickDraw"], hands: ["main", "off"],
  holding: { main: { id: "longsword", kind: "oneHanded" }, off: { id: "dagger", kind: "light", ranged: "thrown" } },
  natural: [{ id: "bite", primary: true }],
  twoWeapon: true, rapidShot: false,
  steps: [{ attack: "main" }, { attack: "off" }, { drop: "main" }, { drop: "off" },
    { draw: "main", hands: ["main", "off"], item: { id: "greatsword", kind: "twoHanded" } }],
};

/** CONTRACT evaluate's example request, verbatim. */
export const CONTRACT_REQUEST = {
  rules: "tdgs",
  template: "Con4NE",
  caster: { id: "hero", x: 5, y: 5, z: 0, size: 1, height: 1, facing: "N", side: "party" },
  origin: { x: 9, y: 2, z: 0 },
  aim: { x: 12, y: 4, z: 0 },
  range: 20,
  tokens: [{ id: "g1", x: 7, y: 3, z: 0, size: 1, height: 1, side: "enemy", prone: false }],
  obstacles: [{ x: 6, y: 3, z: 0, fill: 1 }],
  bounds: { min: [0, 0, 0], max: [59, 59, 0] },
  targeting: { trait: "none", ids: [], excludeCaster: false, excludeCells: [] },
  resolve: { stat: 7, modifiers: 0, luck: 0, seed: 42, defence: { g1: 5 } },
};

/** The same request with the cone projecting from the caster, as CONTRACT's example result shows it. */
export const CONTRACT_FROM_CASTER = (() => {
  const { origin, aim, ...rest } = structuredClone(CONTRACT_REQUEST);
  return rest;
})();

/** A forced movement in CONTRACT move's shape: a push that stops before an obstacle (SPEC §3.7). */
/** CONTRACT cover's first example: an archer, a half-height wall, an orc, under dnd35. */
export const COVER_REQUEST = {
  rules: "dnd35",
  attack: "ranged",
  attacker: { id: "archer", x: 0, y: 0, z: 0, size: 1, flying: false },
  target: { id: "orc", x: 4, y: 0, z: 0, prone: false },
  tokens: [],
  obstacles: [{ x: 3, y: 0, z: 0, fill: 0.5 }],
};

export const MOVE_REQUEST = {
  kind: "push",
  distance: 3,
  source: { x: 0, y: 0, z: 0 },
  target: "g1",
  vertical: false,
  tokens: [{ id: "g1", x: 1, y: 0, z: 0 }],
  obstacles: [{ x: 3, y: 0, z: 0, fill: 1 }],
};

/** Returns the error fn throws, having checked it is a CONTRACT error (not an internal one). */
export function thrown(fn, code) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof Error, `expected an Error to be thrown, got ${err}`);
  checkError(err);
  if (code !== undefined) assert.equal(err.code, code, err.message);
  return err;
}

/**
 * checkError: a CONTRACT error (an AoekitError), with `at` only on notation errors that have one (1-based) and on a
 * full attack's errors about a step (its 0-based index, which the message names), and no panic
 * behind it.
 */
export function checkError(err) {
  assert.ok(err instanceof Error, `not an Error: ${err}`);
  assert.ok(err instanceof AoekitError && err.name === "AoekitError", `not an AoekitError: ${err}`);
  assert.ok(CODES.includes(err.code), `code ${err.code} is not a CONTRACT code (${err.message})`);
  assert.equal(typeof err.message, "string");
  assert.ok(err.message.length > 0, "empty message");
  assert.ok(!err.message.startsWith("internal error: "), `the engine failed: ${err.message}`);
  if (err.at !== undefined && err.code === "bad_notation") {
    assert.ok(Number.isInteger(err.at) && err.at >= 1, `at = ${err.at}`);
  } else if (err.at !== undefined) {
    assert.ok(Number.isInteger(err.at) && err.at >= 0 && err.message.startsWith(`steps[${err.at}]`), `at ${err.at} on a ${err.code} error: ${err.message}`);
  }
}

const isInt = (v) => Number.isInteger(v);
const isCell = (c) => Array.isArray(c) && c.length === 3 && c.every(isInt);
const isPos = (p) => p !== null && typeof p === "object" && isInt(p.x) && isInt(p.y) && isInt(p.z);
const GRADES = { tdgs: ["none", "partial", "half", "full"], circle50: ["none", "partial", "half", "full"], drawsteel: ["none", "cover", "full"] };

/** checkResult checks an evaluate result against CONTRACT's rules for any request. */
export function checkResult(r, request = {}) {
  assert.equal(typeof r, "object");
  assert.equal(typeof r.template?.notation, "string");
  assert.equal(typeof r.template.shape, "string");
  assert.ok(["tdgs", "drawsteel", "circle50"].includes(r.template.rules));
  if (r.direction !== undefined) assert.match(r.direction, /^(N|NE|E|SE|S|SW|W|NW)$/);
  assert.ok(isPos(r.origin), "origin");
  assert.equal(typeof r.originVisible, "boolean");
  assert.ok(Array.isArray(r.cells), "cells is an array");
  assert.equal(r.count, r.cells.length, "count is the number of cells");
  for (let i = 0; i < r.cells.length; i++) {
    assert.ok(isCell(r.cells[i]), `cell ${i}`);
    if (i > 0) {
      const [a, b] = [r.cells[i - 1], r.cells[i]];
      const order = a[2] - b[2] || a[1] - b[1] || a[0] - b[0];
      assert.ok(order < 0, `cells ${i - 1} and ${i} are not sorted by z, y, x without duplicates`);
    }
  }
  if (Array.isArray(request.bounds?.min) && Array.isArray(request.bounds?.max)) {
    const { min, max } = request.bounds;
    for (const c of r.cells) assert.ok(c.every((v, k) => v >= min[k] && v <= max[k]), `cell ${c} outside bounds`);
  }
  assert.ok(Array.isArray(r.targets), "targets is an array");
  // Grades follow the request's cover override, else its rule set, else the template's.
  const grades = GRADES[request.cover] ? request.cover : request.cover === "none" ? "tdgs" : GRADES[request.rules] ? request.rules : r.template.rules;
  // Targets are the caster (first) and tokens, in request order: a subsequence of them.
  // (A lone surrogate cannot cross into UTF-8: it comes back as U+FFFD, as toWellFormed gives.)
  const order = [...(request.caster ? [request.caster.id ?? ""] : []), ...(Array.isArray(request.tokens) ? request.tokens : []).map((t) => t?.id)]
    .map((id) => (typeof id === "string" ? id.toWellFormed() : id));
  let next = 0;
  for (const t of r.targets) {
    assert.equal(typeof t.id, "string");
    if (order.length > 0) {
      const at = order.indexOf(t.id, next);
      assert.ok(at >= 0, `target ${t.id} is not the caster or a token, in request order`);
      next = at + 1;
    }
    assert.equal(typeof t.inArea, "boolean");
    assert.equal(typeof t.affected, "boolean");
    if (!t.affected && t.inArea) assert.ok(["cover", "targeting", "barrier"].includes(t.reason), `reason ${t.reason}`);
    assert.ok(GRADES[grades].includes(t.cover), `cover ${t.cover} under ${grades} grades`);
    assert.ok([0, 2, 4].includes(t.bonus), `bonus ${t.bonus}`);
    assert.ok(Array.isArray(t.lines));
    for (const l of t.lines) {
      assert.ok(l.from.length === 3 && l.to.length === 3 && typeof l.blocked === "boolean");
    }
    assert.equal(t.blocked, t.lines.filter((l) => l.blocked).length, "blocked counts the blocked lines");
    if (t.roll !== undefined) {
      assert.ok(request.resolve, "a roll without resolve");
      assert.ok(Array.isArray(t.roll.dice) && t.roll.dice.every((d) => isInt(d) && d >= 1 && d <= 20));
      assert.ok(isInt(t.roll.total) && isInt(t.roll.defence) && typeof t.roll.hit === "boolean");
    }
  }
}

/** checkMove checks a move result against CONTRACT move. */
export function checkMove(m) {
  assert.ok(Array.isArray(m.path) && m.path.every(isCell), "path");
  assert.ok(isPos(m.end), "end");
  if (m.collision !== null) {
    assert.ok(["obstacle", "wall", "token", "edge"].includes(m.collision.kind), `collision.kind ${m.collision.kind}`);
    assert.equal(typeof m.collision.with, "string");
    if (m.collision.kind !== "token") assert.equal(m.collision.with, m.collision.kind);
    assert.ok(isCell(m.collision.at));
    assert.ok(isInt(m.collision.left) && m.collision.left >= 0);
  }
}

/** A temporary directory, removed after the test. */
export function tempDir(t, prefix = "aoekit-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** buildCrasher builds wasm/browser/testdata/crasher (a module that fails on purpose) into dir. */
export function buildCrasher(dir) {
  const out = join(dir, "crasher.wasm");
  execFileSync(GO, ["build", "-o", out, "./wasm/browser/testdata/crasher"], {
    cwd: ROOT,
    env: { ...process.env, GOOS: "js", GOARCH: "wasm" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return out;
}

/**
 * contractExamples returns the ```html examples of CONTRACT.md's section under heading (up to
 * the next heading of its level or above), each instrumented as the README's examples are: a
 * line ending in `// → value` pushes [its line in CONTRACT.md, the expression before the
 * comment, the value] onto window.__checks, and window.__done is "yes" once the script ran
 * (the error's message if it threw).
 */
export function contractExamples(heading) {
  const contract = readFileSync(join(ROOT, "web", "CONTRACT.md"), "utf8");
  const start = contract.indexOf(`\n${heading}`) + 1;
  assert.ok(start > 0, `CONTRACT.md has no ${heading}`);
  const level = /^#+/.exec(heading)[0];
  const next = contract.slice(start + heading.length).search(new RegExp(`^#{1,${level.length}} `, "m"));
  const section = contract.slice(start, next < 0 ? undefined : start + heading.length + next);
  const out = [];
  for (const m of section.matchAll(/^```html\n([\s\S]*?)^```$/gm)) {
    const first = contract.slice(0, start + m.index).split("\n").length + 1;
    let checks = 0;
    const html = m[1].split("\n").map((text, i) => {
      const c = /^(?!\s*(?:const|let|var|import)\b)(\s*)(.+?);?\s*\/\/ → (.+)$/.exec(text);
      if (!c) return text;
      checks++;
      return `${c[1]}window.__checks.push([${first + i}, ${c[2]}, ${c[3]}]);`;
    }).join("\n")
      .replace('<script type="module">', '<script type="module">\nwindow.__checks = [];\nwindow.addEventListener("error", (e) => { window.__done = String(e.message); });')
      .replace("</script>", 'window.__done = "yes";\n</script>');
    out.push({ html, checks, first });
  }
  return out;
}

/** buildOverlay builds wasm/overlay into dir (with the build tags given) and returns its bytes. */
export function buildOverlay(dir, tags = "") {
  const out = join(dir, tags ? `aoekit-overlay-${tags}.wasm` : "aoekit-overlay.wasm");
  execFileSync(GO, ["build", "-trimpath", "-ldflags=-s -w", ...(tags ? ["-tags", tags] : []), "-o", out, "./wasm/overlay"], {
    cwd: ROOT,
    env: { ...process.env, GOOS: "js", GOARCH: "wasm" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return readFileSync(out);
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/**
 * serve starts a static server on 127.0.0.1 for files under dir (and extra pages given as
 * text), labelling .wasm files wasmType; it closes after the test.
 */
export async function serve(t, dir, { wasmType = "application/wasm", pages = {} } = {}) {
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let body = pages[path];
    try {
      body ??= readFileSync(join(dir, path.replace(/^\/+/, "")));
    } catch {
      res.writeHead(404).end("not found");
      return;
    }
    const ext = extname(path);
    res.writeHead(200, { "Content-Type": ext === ".wasm" ? wasmType : TYPES[ext] ?? "application/octet-stream" });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

/** chromium launches headless Debian Chromium, or returns null (after a loud message) where it is absent. */
export async function chromium(t) {
  const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
  try {
    accessSync(executablePath, constants.X_OK);
  } catch {
    const msg = `CHROMIUM NOT FOUND at ${executablePath}: browser tests SKIPPED (CI installs it: apt-get install chromium)`;
    if (process.env.CI) assert.fail(msg);
    console.error(`\n*** ${msg} ***\n`);
    t.skip(msg);
    return null;
  }
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  t.after(() => browser.close());
  return browser;
}

/** devserver builds and starts wasm/devserver (make demo's server) for dir on a free loopback port; it stops after the test. */
export async function devserver(t, dir = join(ROOT, "static")) {
  const bin = join(tempDir(t), "devserver");
  execFileSync(GO, ["build", "-o", bin, "./wasm/devserver"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  const child = spawn(bin, ["-dir", dir, "-addr", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
  t.after(() => child.kill("SIGTERM"));
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`devserver did not start in 60 s:\n${log}`)), 60_000);
    child.stderr.on("data", (chunk) => {
      log += chunk;
      const m = /serving .* on (http:\/\/127\.0\.0\.1:\d+)\//.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`devserver exited (${code}):\n${log}`)));
  });
}

/** checkFullAttack checks a fullAttack answer against CONTRACT's rules for any request. */
export function checkFullAttack(r) {
  assert.ok(Array.isArray(r.steps) && Array.isArray(r.next), "steps and next are arrays");
  for (const s of [...r.steps, ...r.next]) {
    if (s.bonus === undefined) {
      assert.ok(s.drop !== undefined || s.draw !== undefined, "only a drop or a draw has no bonus");
      continue;
    }
    assert.ok(["primary", "off", "extra", "natural"].includes(s.as), `as ${s.as}`);
    const p = s.parts;
    assert.equal(s.bonus, p.sequence + p.twoWeapon + p.rapidShot + p.natural, "the bonus is the sum of its parts");
  }
  for (const s of r.next) assert.ok(s.bonus !== undefined, "next lists attacks");
}

// The demo's tests (demo.test.mjs, demo-perf.test.mjs): run in the page by page.evaluate.
/**
 * In the page: whether the canvas shows the area the answer lists, square by square. The pixel
 * at each square's centre is read (one getImageData of the whole canvas), except where something
 * else is drawn over it: a creature's square and those around it (rings, labels, badges), an
 * obstacle, a handle, a cover line within 8 pixels (and, the caster's label being wider than its
 * square, three squares either side of it), a Draw Steel wall's squares. A checked square must be area-tinted exactly
 * when its cell is in the answer (on the level shown). Returns the counts and the first misses.
 */
export function areaCheck() {
  const d = globalThis.__aoekitDemo;
  const res = d.state.result;
  const level = d.state.level ?? 0;
  const s = d.scene, sq = d.sq, dpr = d.dpr;
  const canvas = document.getElementById("board");
  const r = canvas.getBoundingClientRect();
  const img = d.image(); // the layers as shown: the still board, the overlay's result, the board canvas
  const inArea = new Set((res ? res.cells : []).filter((c) => c[2] === level).map((c) => `${c[0]},${c[1]}`));
  const skip = new Set();
  for (const e of [s.caster, ...s.tokens]) {
    // The caster's "in own area" label is wider than its square.
    const wide = e === s.caster ? 3 : 1;
    for (let dx = -wide; dx < e.size + wide; dx++) for (let dy = -1; dy <= e.size; dy++) skip.add(`${e.x + dx},${e.y + dy}`);
  }
  for (const o of s.obstacles) skip.add(`${o.x},${o.y}`);
  for (const p of [s.origin, s.aim]) skip.add(`${p.x},${p.y}`);
  for (const [x, y] of s.path ?? []) skip.add(`${x},${y}`);
  const lines = d.drawnLines();
  const near = (px, py) => lines.some(({ from: [ax, ay], to: [bx, by] }) => {
    const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy || 1;
    const t = Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / l2));
    return Math.hypot(px - (ax + t * dx), py - (ay + t * dy)) < 8;
  });
  const tint = ([r0, g, b]) => r0 > 235 && g > 185 && g < 232 && b > 110 && b < 200;
  let checked = 0, inside = 0;
  const misses = [];
  for (let y = 0; y < s.rows; y++) {
    for (let x = 0; x < s.cols; x++) {
      const k = `${x},${y}`;
      if (skip.has(k) || near((x + 0.5) * sq, (y + 0.5) * sq)) continue;
      const c = d.cellCentre(x, y);
      const px = Math.floor((c.x - r.left) * dpr), py = Math.floor((c.y - r.top) * dpr);
      if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) continue;
      const i = (py * canvas.width + px) * 4;
      const rgba = [img.data[i], img.data[i + 1], img.data[i + 2], img.data[i + 3]];
      checked++;
      if (inArea.has(k)) inside++;
      if (tint(rgba) !== inArea.has(k) && misses.length < 5) misses.push(`${k}: ${inArea.has(k) ? "in" : "out of"} the area, drawn ${rgba}`);
    }
  }
  return { checked, inside, misses };
}

// mulberry32: a small seeded generator, so that a failure replays.
export function generator(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// fileBrowser is one Chromium and one static server of dir for a whole test file: browser and
// base are set by the file's before hook (browser stays null without Chromium), and both are
// closed by its after hook.
export function fileBrowser(dir) {
  const cleanups = [];
  const suite = { after: (fn) => cleanups.push(fn), skip() {} };
  const file = { browser: null, base: "" };
  before(async () => {
    file.browser = await chromium(suite);
    if (file.browser) file.base = await serve(suite, dir);
  });
  after(async () => {
    for (const fn of cleanups.reverse()) await fn();
  });
  return file;
}

/** The demo server's content security policy (wasm/devserver), set on the demo page by openDemo. */
export const DEMO_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

/**
 * openDemo opens web/demo in a fresh browser context of file (fileBrowser: fresh localStorage)
 * under the demo server's CSP, collecting page errors, console errors (problems) and CSP
 * violations (globalThis.__csp), and waits until it has an answer (demoReady). It skips t where
 * Chromium is absent and returns null.
 */
export async function openDemo(t, file, { width = 1400, height = 900, dpr = 1, hasTouch = false, timeout } = {}) {
  if (!file.browser) {
    t.skip("Chromium is absent");
    return null;
  }
  const context = await file.browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr, acceptDownloads: true, hasTouch, isMobile: hasTouch });
  t.after(() => context.close());
  const page = await context.newPage();
  if (timeout !== undefined) page.setDefaultTimeout(timeout);
  const problems = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console.error: ${msg.text()}`));
  await page.addInitScript(() => {
    globalThis.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => globalThis.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.route("**/demo/index.html", async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, headers: { ...res.headers(), "content-security-policy": DEMO_CSP } });
  });
  await page.goto(`${file.base}/demo/index.html`);
  await demoReady(page);
  return { page, problems, context };
}

/** demoReady waits until the demo has the engine and an answer; a module that failed to load says so. */
export async function demoReady(page) {
  await page.waitForFunction(() => {
    const d = globalThis.__aoekitDemo;
    return (d?.state.engine && (d.state.result || d.state.error || d.state.waiting)) || /failed to load/.test(document.getElementById("status")?.textContent ?? "");
  }, null, { timeout: 30_000 });
  const status = await page.locator("#status").textContent();
  assert.doesNotMatch(status, /failed to load/, "the engine did not load (was web/aoekit.wasm being rebuilt?)");
}
