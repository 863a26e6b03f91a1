// The Foundry module installed the way Foundry users install modules: web/foundry/release.mjs
// writes a release (module.json with `manifest` and `download`, aoekit.zip with a top folder
// aoekit/) from the module folder; this test serves it on a local static server, reads the
// manifest at its URL as Foundry's "Install Module" dialog does, downloads the zip from the
// manifest's `download` URL, unpacks it (with the `unzip` command where it exists, and always with
// the small reader below), checks the fields Foundry validates in a package manifest, and loads
// the installed module in Chromium against a stub of Foundry's globals.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { test } from "node:test";
import { inflateRawSync } from "node:zlib";

import { crc32, release } from "../foundry/release.mjs";
import { ROOT, WEB, chromium, serve, tempDir } from "./helpers.mjs";

/** FOUNDRY_PACKAGE_FILES and FOUNDRY_OWN_FILES, read from web/foundry/foundry.mk. */
function foundryLists() {
  const mk = readFileSync(join(WEB, "foundry/foundry.mk"), "utf8");
  const list = (name) => new RegExp(`^${name}\\s*:=\\s*(.*)$`, "m").exec(mk)[1].trim().split(/\s+/);
  return { pkg: list("FOUNDRY_PACKAGE_FILES"), own: list("FOUNDRY_OWN_FILES") };
}

/** The module folder as make foundry assembles it (after make browser overlay-wasm), LICENSE included. */
function assemble(out) {
  const { pkg, own } = foundryLists();
  for (const [from, files] of [[WEB, pkg], [join(WEB, "foundry"), own], [ROOT, ["LICENSE"]]]) {
    for (const f of files) {
      assert.ok(existsSync(join(from, f)), `${join(from, f)} is missing: run make browser overlay-wasm (make foundry does)`);
      mkdirSync(dirname(join(out, f)), { recursive: true });
      cpSync(join(from, f), join(out, f));
    }
  }
  return [...pkg, ...own, "LICENSE"].sort();
}

/** A zip's entries, read from its central directory: [{name, data}] (folders with no data). */
function unzipEntries(buf) {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, "no end of central directory");
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50, "central directory entry");
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const size = buf.readUInt32LE(at + 20);
    const length = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString("utf8", at + 46, at + 46 + nameLength);
    assert.equal(buf.readUInt32LE(local), 0x04034b50, `${name}: local header`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const body = buf.subarray(start, start + size);
    const data = method === 8 ? inflateRawSync(body) : method === 0 ? Buffer.from(body) : assert.fail(`${name}: method ${method}`);
    assert.equal(data.length, length, `${name}: size`);
    assert.equal(crc32(data), crc, `${name}: CRC-32`);
    out.push({ name, data: name.endsWith("/") ? undefined : data });
    at += 46 + nameLength + extra + comment;
  }
  return out;
}

/** Every file under dir, relative, with "/". */
function tree(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)).split(sep).join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * The checks Foundry v13 makes of a package manifest it installs (BasePackage's schema and
 * package installation): an id of letters, digits, dashes and underscores (lower case for a
 * module folder); a title and a version; compatibility as version strings; esmodules and
 * languages naming files in the package; manifest and download http(s) URLs, download a zip.
 */
function checkManifest(m, files) {
  assert.equal(typeof m.id, "string");
  assert.match(m.id, /^[a-z0-9-_]+$/);
  for (const k of ["title", "version", "description"]) assert.ok(typeof m[k] === "string" && m[k].length > 0, k);
  assert.match(m.version, /^\d+\.\d+\.\d+/);
  assert.equal(typeof m.compatibility, "object");
  for (const k of ["minimum", "verified"]) assert.match(m.compatibility[k], /^\d+(\.\d+)?$/, `compatibility.${k}`);
  if (m.compatibility.maximum !== undefined) assert.match(m.compatibility.maximum, /^\d+(\.\d+)?$/);
  assert.ok(Array.isArray(m.esmodules) && m.esmodules.length > 0);
  for (const f of m.esmodules) assert.ok(files.includes(f), `esmodule ${f} is in the package`);
  assert.ok(Array.isArray(m.languages));
  for (const l of m.languages) {
    assert.deepEqual(Object.keys(l).sort(), ["lang", "name", "path"]);
    assert.match(l.lang, /^[a-z]{2}(-[A-Z]{2})?$/);
    assert.ok(files.includes(l.path), `language file ${l.path} is in the package`);
  }
  for (const k of ["manifest", "download", "url", "bugs"]) assert.match(m[k], /^https?:\/\//, k);
  assert.match(new URL(m.download).pathname, /\.zip$/);
  for (const k of ["readme", "license"]) assert.ok(files.includes(m[k]), `${k} ${m[k]} is in the package`);
  for (const old of ["name", "author", "minimumCoreVersion", "compatibleCoreVersion", "dependencies", "systems"]) assert.equal(m[old], undefined, old);
}

test("foundry release: module.json with manifest and download, aoekit.zip with aoekit/ — installed from a server, valid, loads", async (t) => {
  const dir = tempDir(t, "aoekit-foundry-release-");
  const folder = join(dir, "build/foundry/aoekit");
  const files = assemble(folder);
  const base = await serve(t, join(dir, "site"));
  const releaseUrl = `${base}/releases/v1.2.3`;

  // The script, as a make target would run it.
  const out = join(dir, "site/releases/v1.2.3");
  const log = execFileSync(process.execPath, [join(WEB, "foundry/release.mjs"), "1.2.3", `${releaseUrl}/`, "--from", folder, "--out", out], { encoding: "utf8" });
  assert.match(log, /^foundry release 1\.2\.3: .*module\.json \(manifest http:\/\/127\.0\.0\.1:\d+\/releases\/v1\.2\.3\/module\.json\) and .*aoekit\.zip \(download http:.*\/aoekit\.zip\), 11 files\n$/);
  assert.deepEqual(readdirSync(out).sort(), ["aoekit.zip", "module.json"]);

  // Foundry's installer: the manifest at its URL, then the zip at the manifest's download URL.
  const manifestUrl = `${releaseUrl}/module.json`;
  const manifest = await (await fetch(manifestUrl)).json();
  assert.equal(manifest.manifest, manifestUrl, "the manifest says where it lives (Foundry checks it for updates)");
  assert.equal(manifest.download, `${releaseUrl}/aoekit.zip`);
  assert.equal(manifest.version, "1.2.3");
  const source = JSON.parse(readFileSync(join(WEB, "foundry/module.json"), "utf8"));
  assert.deepEqual({ ...manifest, version: source.version, manifest: undefined, download: undefined }, { ...source, manifest: undefined, download: undefined }, "the rest is the module's own module.json");
  const res = await fetch(manifest.download);
  assert.equal(res.status, 200);
  const bytes = Buffer.from(await res.arrayBuffer());

  // Unpacked by the reader here: one top folder aoekit/, every file of the module folder, the
  // release's module.json inside.
  const entries = unzipEntries(bytes);
  assert.ok(entries.every((e) => e.name.startsWith("aoekit/")), "one top folder, aoekit/");
  const inZip = entries.filter((e) => e.data).map((e) => e.name.slice("aoekit/".length)).sort();
  assert.deepEqual(inZip, files);
  const installed = join(dir, "Data/modules");
  for (const e of entries) {
    if (!e.data) continue;
    mkdirSync(dirname(join(installed, e.name)), { recursive: true });
    writeFileSync(join(installed, e.name), e.data);
    if (e.name !== "aoekit/module.json") assert.ok(e.data.equals(readFileSync(join(folder, e.name.slice(7)))), `${e.name} is the folder's`);
  }
  assert.deepEqual(JSON.parse(readFileSync(join(installed, "aoekit/module.json"), "utf8")), manifest);
  checkManifest(manifest, inZip);
  // And by the unzip command, where there is one: the same files, the same bytes.
  let hasUnzip = true;
  try {
    execFileSync("unzip", ["-v"], { stdio: "ignore" });
  } catch {
    hasUnzip = false;
    console.error("\n*** no unzip command: the zip was read by the test's own reader only ***\n");
  }
  if (hasUnzip) {
    writeFileSync(join(dir, "aoekit.zip"), bytes);
    execFileSync("unzip", ["-q", join(dir, "aoekit.zip"), "-d", join(dir, "unzipped")]);
    assert.deepEqual(tree(join(dir, "unzipped")), tree(installed));
    for (const f of tree(installed)) assert.ok(readFileSync(join(dir, "unzipped", f)).equals(readFileSync(join(installed, f))), f);
  }
  // The same folder gives the same bytes (no time stamps).
  const again = join(dir, "again");
  release({ version: "1.2.3", baseUrl: releaseUrl, from: folder, out: again });
  assert.ok(readFileSync(join(again, "aoekit.zip")).equals(bytes), "reproducible");
  // A manifest URL of its own (GitHub's latest/download) and bad arguments.
  const latest = release({ version: "1.2.3", baseUrl: releaseUrl, manifestUrl: "https://github.com/aoekit/aoekit/releases/latest/download/module.json", from: folder, out: join(dir, "latest") });
  assert.equal(latest.manifest.manifest, "https://github.com/aoekit/aoekit/releases/latest/download/module.json");
  assert.equal(latest.manifest.download, `${releaseUrl}/aoekit.zip`);
  assert.throws(() => release({ version: "1.2", baseUrl: releaseUrl, from: folder, out: join(dir, "x") }), /VERSION must look like 1\.2\.3/);
  assert.throws(() => release({ version: "1.2.3", baseUrl: "ftp://x", from: folder, out: join(dir, "x") }), /BASE_URL must be an http\(s\) URL/);
  assert.throws(() => release({ version: "1.2.3", baseUrl: releaseUrl, from: join(dir, "nothing"), out: join(dir, "x") }), /run make foundry first/);

  // A language file the manifest names must be in the package.
  const withLanguage = join(dir, "with-language");
  cpSync(folder, withLanguage, { recursive: true });
  const m = JSON.parse(readFileSync(join(withLanguage, "module.json"), "utf8"));
  writeFileSync(join(withLanguage, "module.json"), JSON.stringify({ ...m, languages: [{ lang: "fr", name: "Français", path: "lang/fr.json" }] }));
  assert.throws(() => release({ version: "1.2.3", baseUrl: releaseUrl, from: withLanguage, out: join(dir, "x") }), /names lang\/fr\.json, which .* lacks/);
  mkdirSync(join(withLanguage, "lang"));
  writeFileSync(join(withLanguage, "lang/fr.json"), "{}");
  const french = release({ version: "1.2.3", baseUrl: releaseUrl, from: withLanguage, out: join(dir, "fr") });
  checkManifest(french.manifest, french.files);

  // The installed module loads in Chromium (from Data/modules/aoekit/, as Foundry serves it at
  // /modules/aoekit/), registers its settings, loads both WebAssembly modules and answers a
  // template.
  const browser = await chromium(t);
  if (!browser) return;
  const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/foundry-scene.json"), "utf8"));
  const site = await serve(t, join(dir, "Data"), {
    pages: {
      "/index.html": `<!doctype html><meta charset="utf-8"><title>foundry</title><canvas id="board"></canvas><script type="module" src="/stub.js"></script>`,
      "/fixture.json": JSON.stringify(FIXTURE),
      "/stub.js": `
const hooks = new Map();
window.Hooks = { on(n, f) { (hooks.get(n) ?? hooks.set(n, []).get(n)).push(f); }, once(n, f) { this.on(n, f); }, callAll(n, ...a) { for (const f of hooks.get(n) ?? []) f(...a); return true; } };
const settings = new Map(), names = [];
window.game = { user: { id: "gMuSeR0000000001", isGM: true }, system: { id: "dnd5e" }, modules: new Map([["aoekit", { id: "aoekit" }]]),
  settings: { register(ns, k, c) { settings.set(k, c.default); names.push(c.name); }, get(ns, k) { return settings.get(k); }, set(ns, k, v) { settings.set(k, v); } } };
window.ui = { notifications: { warn: (m) => { throw new Error(m); } } };
const fixture = await (await fetch("/fixture.json")).json();
const sceneDoc = { id: fixture.scene._id, grid: fixture.scene.grid };
sceneDoc.tokens = { contents: fixture.scene.tokens.map((d) => ({ ...d, id: d._id })) };
sceneDoc.walls = { contents: fixture.scene.walls.map((d) => ({ ...d, id: d._id })) };
window.canvas = { ready: true, scene: sceneDoc, grid: { size: 100, distance: 5, type: 1, diagonals: 0 }, dimensions: fixture.dimensions,
  stage: { scale: { x: 0.4, y: 0.4 }, toGlobal: (p) => ({ x: p.x * 0.4, y: p.y * 0.4 }) }, tokens: { controlled: [], setTargets() {} } };
await import("/modules/aoekit/aoekit.mjs");
Hooks.callAll("init"); Hooks.callAll("canvasReady", canvas); Hooks.callAll("ready");
const api = game.modules.get("aoekit").api;
await api.ready;
const t = fixture.scene.templates.find((x) => x._id === "sHoCkWaVe0000006");
const last = api.evaluate({ ...t, id: t._id, parent: sceneDoc, documentName: "MeasuredTemplate" });
for (let i = 0; i < 100 && !document.getElementById("aoekit-overlay"); i++) await new Promise((r) => setTimeout(r, 50)); // attached at the next frame
window.done = { notation: last.notation, overlay: !!document.getElementById("aoekit-overlay"), names };
`,
    },
  });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${site}/index.html`);
  await page.waitForFunction(() => window.done, null, { timeout: 60_000 }).catch((err) => {
    throw new Error(`${err.message}\n${errors.join("\n")}`);
  });
  const done = await page.evaluate(() => window.done);
  assert.deepEqual(errors, []);
  assert.equal(done.notation, "15-foot-radius sphere");
  assert.equal(done.overlay, true, "aoekit-overlay.wasm loaded from the installed folder");
  assert.deepEqual(done.names, ["aoekit: rule set", "aoekit: walls that block areas and cover", "aoekit: target the affected tokens", "aoekit: draw the area and cover", "aoekit: chat cards", "aoekit: apply D&D 5e cover", "aoekit: draw cover lines"]);
});
