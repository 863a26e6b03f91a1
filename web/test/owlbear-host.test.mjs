// The Owlbear Rodeo extension hosted anywhere (issue: "It needs its own origin to be hosted"):
// the folder `make owlbear` builds works under a sub-path of any origin, with no CDN, under a
// strict CSP, and with the real SDK (obr-sdk.js, bundled from the npm package by
// web/owlbear/bundle.mjs). In Chromium a page of another origin plays Owlbear Rodeo: it fetches
// the manifest across origins, as Owlbear does, opens its popover in an iframe with the
// `obrref` Owlbear gives it, and answers the SDK's messages (postMessage, the protocol of
// @owlbear-rodeo/sdk's lib/messages/MessageBus.js and lib/api/*.js) from a scene.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { extname, join } from "node:path";
import { test } from "node:test";

import { ROOT, assemble, owlbearLists, owlbearRecipe, sdkSurface } from "./fixtures/owlbear-harness.mjs";
import { WEB, chromium, tempDir } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/owlbear-scene.json"), "utf8"));
const PREFIX = "/some/path/aoekit";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".svg": "image/svg+xml", ".wasm": "application/wasm", ".md": "text/markdown" };
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

/**
 * A static host like GitHub Pages' project sites: the folder at PREFIX/ and nothing at the
 * root (a root-relative URL is a 404, and is recorded), every response with
 * `Access-Control-Allow-Origin: *`, pages with a strict CSP.
 */
async function staticHost(t, dir) {
  const outside = [];
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const headers = { "Access-Control-Allow-Origin": "*" };
    if (!path.startsWith(`${PREFIX}/`) || path.includes("..")) {
      if (path !== "/favicon.ico") outside.push(path);
      res.writeHead(404, headers).end("not found");
      return;
    }
    let body;
    try {
      body = readFileSync(join(dir, path.slice(PREFIX.length + 1)));
    } catch {
      res.writeHead(404, headers).end("not found");
      return;
    }
    const ext = extname(path);
    if (ext === ".html") headers["Content-Security-Policy"] = CSP;
    res.writeHead(200, { ...headers, "Content-Type": TYPES[ext] ?? "application/octet-stream" }).end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { base: `http://127.0.0.1:${server.address().port}`, outside };
}

/** The page that plays Owlbear Rodeo, on its own origin (localhost: not the host's 127.0.0.1). */
async function owlbear(t) {
  const server = http.createServer((req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>Owlbear Rodeo (test)</title><body></body>"));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://localhost:${server.address().port}`;
}

/**
 * The extension's folder: build/owlbear when `make owlbear` has built it with the bundle, else
 * the same folder assembled here (the file lists of foundry.mk, bundle.mjs).
 */
async function extensionFolder(t) {
  const built = join(ROOT, "build/owlbear");
  const { pkg, own } = owlbearLists();
  if ([...pkg, ...own, "obr-sdk.js"].every((f) => existsSync(join(built, f)))) {
    t.diagnostic(`serving build/owlbear (make owlbear)`);
    return built;
  }
  t.diagnostic("build/owlbear is missing or has no obr-sdk.js: serving a folder assembled as make owlbear does");
  return assemble(tempDir(t, "aoekit-owlbear-host-"));
}

test("owlbear host: bundle.mjs writes the SDK as one browser module, licences first, nothing imported", async (t) => {
  const dir = tempDir(t, "aoekit-obr-sdk-");
  const { bundle, absoluteManifest, SDK_PACKAGES } = await import("../owlbear/bundle.mjs");
  const code = readFileSync(await bundle(dir), "utf8");
  assert.match(code, /^\/\*! obr-sdk\.js: @owlbear-rodeo\/sdk/);
  for (const name of SDK_PACKAGES) assert.match(code.slice(0, code.indexOf("*/")), new RegExp(`${name.replace("/", "\\/")}@\\d+\\.\\d+\\.\\d+ \\(`), `${name}'s licence heads the bundle`);
  const body = code.slice(code.indexOf("*/") + 2);
  assert.doesNotMatch(body, /^\s*import\b|\bimport\s*\(|\brequire\(|\bprocess\.env\b/m, "no import, require or process.env left");
  assert.doesNotMatch(body, /https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\/[^"'\s]*\.m?js\b/i, "no script URL of another host");
  // Its exports are the SDK's: the default OBR, every builder its declarations name, and more.
  const names = new Set([...body.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) => m[1].split(",").map((e) => e.trim().split(/\s+as\s+/).at(-1))));
  assert.ok(names.has("default"), "a default export (OBR)");
  for (const b of Object.keys(sdkSurface().builders)) assert.ok(names.has(b), `exports ${b}`);
  for (const n of ["isWall", "isShape", "isImage", "Math2", "MathM", "Command"]) assert.ok(names.has(n), `exports ${n}`);
  // --base: the manifest's paths as absolute URLs, for a host that wants them so.
  const manifest = JSON.parse(readFileSync(join(WEB, "owlbear/manifest.json"), "utf8"));
  const out = tempDir(t, "aoekit-owlbear-base-");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(join(out, "manifest.json"), JSON.stringify(manifest));
  const abs = absoluteManifest(out, "https://me.github.io/tables/aoekit");
  assert.deepEqual([abs.icon, abs.action.icon, abs.action.popover], ["https://me.github.io/tables/aoekit/icon.svg", "https://me.github.io/tables/aoekit/icon.svg", "https://me.github.io/tables/aoekit/index.html"]);
  assert.equal(abs.name, manifest.name);
});

test("owlbear host: make owlbear's recipe bundles the SDK into the folder", { todo: /bundle\.mjs/.test(owlbearRecipe()) ? false : "add `node web/owlbear/bundle.mjs $(OWLBEAR_DIR)` to the owlbear recipe in web/foundry/foundry.mk" }, () => {
  const recipe = owlbearRecipe();
  assert.match(recipe, /node web\/owlbear\/bundle\.mjs \$\(OWLBEAR_DIR\)/, "the owlbear recipe runs bundle.mjs on its folder");
  // The recipe's files are the ones owlbear.mjs loads: none is fetched from elsewhere.
  const { own } = owlbearLists();
  for (const f of ["manifest.json", "index.html", "owlbear.mjs", "map.mjs", "icon.svg"]) assert.ok(own.includes(f), `${f} is one of OWLBEAR_OWN_FILES`);
  assert.ok(!own.includes("bundle.mjs") && !own.includes("obr-sdk.d.ts") && !own.includes("tsconfig.json"), "build-time files are not shipped");
});

test("owlbear host: under a sub-path of another origin, a strict CSP and the real SDK, the popover answers Owlbear (Chromium)", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = await extensionFolder(t);
  const { base, outside } = await staticHost(t, dir);
  const origin = await owlbear(t);
  const page = await browser.newPage();
  const logs = [];
  page.on("pageerror", (e) => logs.push(String(e)));
  page.on("console", (m) => m.type() === "error" && logs.push(`console: ${m.text()}`));
  page.on("response", (r) => r.status() >= 400 && !r.url().endsWith("/favicon.ico") && logs.push(`${r.status()} ${r.url()}`));
  page.on("requestfailed", (r) => logs.push(`failed ${r.url()} ${r.failure()?.errorText}`));
  await page.goto(`${origin}/`);
  const manifestUrl = `${base}${PREFIX}/manifest.json`;

  // Owlbear fetches the manifest from its own origin (CORS), and resolves its paths.
  const fetched = await page.evaluate(async (url) => {
    const res = await fetch(url);
    const manifest = await res.json();
    const get = async (path) => {
      const u = new URL(path, url).href;
      const r = await fetch(u);
      return { url: u, status: r.status, type: r.headers.get("content-type") };
    };
    return { manifest, icon: await get(manifest.icon), actionIcon: await get(manifest.action.icon), popover: await get(manifest.action.popover), background: await get(manifest.background_url) };
  }, manifestUrl);
  assert.equal(fetched.manifest.action.popover, "index.html");
  assert.equal(fetched.manifest.background_url, "background.html");
  assert.deepEqual([fetched.icon.status, fetched.icon.type, fetched.icon.url], [200, "image/svg+xml", `${base}${PREFIX}/icon.svg`]);
  assert.deepEqual([fetched.actionIcon.status, fetched.popover.status, fetched.popover.type], [200, 200, "text/html"]);
  assert.deepEqual([fetched.background.status, fetched.background.type], [200, "text/html"]);

  // The background page and the popover in iframes, as Owlbear opens them:
  // ?obrref=base64("<Owlbear's origin> <room>"). The page answers the SDK's messages from the
  // fixture scene, and passes the extension's broadcasts to its frames ("LOCAL": this player's);
  // a message it does not know is recorded (the extension asked Owlbear for something this test
  // does not expect).
  const scene = { items: FIXTURE.items, grid: FIXTURE.grid, selection: [FIXTURE.items.find((i) => i.name === "Fireball").id], room: { "io.github.aoekit/rules": "tdgs" } };
  const ref = `?obrref=${Buffer.from(`${origin} room-1`).toString("base64")}`;
  const srcs = [fetched.manifest.background_url, fetched.manifest.action.popover].map((p) => `${new URL(p, manifestUrl).href}${ref}`);
  const result = await page.evaluate(async ({ srcs, scene }) => {
    const local = [];
    const sent = (window.sent = []);
    const unknown = [];
    const menus = [];
    const tools = [];
    const frames = [];
    const channels = new Map(); // window → channels it subscribed to
    let room = { ...scene.room };
    const relay = (d) => {
      if (d.options?.destination === "REMOTE" || !d.options) return;
      for (const w of frames) if (channels.get(w)?.has(d.channel)) w.postMessage({ id: `OBR_BROADCAST_MESSAGE_${d.channel}`, data: { data: d.data, connectionId: "c-1" } }, extOrigin);
    };
    const answers = {
      OBR_PLAYER_GET_ROLE: () => ({ role: "GM" }),
      OBR_PLAYER_GET_SELECTION: () => ({ selection: scene.selection }),
      OBR_PLAYER_SELECT: () => ({}),
      OBR_ROOM_GET_METADATA: () => ({ metadata: room }),
      OBR_ROOM_SET_METADATA: (d) => ((room = { ...room, ...d.update }), {}),
      OBR_SCENE_ITEMS_GET_ALL_ITEMS: () => ({ items: scene.items }),
      OBR_SCENE_ITEMS_GET_ITEMS: (d) => ({ items: scene.items.filter((i) => d.ids.includes(i.id)) }),
      OBR_SCENE_LOCAL_GET_ALL_ITEMS: () => ({ items: local }),
      OBR_SCENE_LOCAL_GET_ITEMS: (d) => ({ items: local.filter((i) => d.ids.includes(i.id)) }),
      OBR_SCENE_LOCAL_ADD_ITEMS: (d) => (local.push(...d.items), {}),
      OBR_SCENE_LOCAL_DELETE_ITEMS: (d) => (local.splice(0, local.length, ...local.filter((i) => !d.ids.includes(i.id))), {}),
      OBR_SCENE_GRID_GET_DPI: () => ({ dpi: scene.grid.dpi }),
      OBR_SCENE_GRID_GET_SCALE: () => ({ raw: scene.grid.scale, parsed: { multiplier: 5, unit: "ft", digits: 0 } }),
      OBR_SCENE_GRID_GET_TYPE: () => ({ type: scene.grid.type }),
      OBR_SCENE_GRID_GET_MEASUREMENT: () => ({ measurement: scene.grid.measurement }),
      OBR_CONTEXT_MENU_CREATE: (d) => (menus.push(d), {}),
      OBR_PLAYER_GET_ID: () => ({ id: "gm-1" }),
      OBR_TOOL_CREATE: (d) => (tools.push(d), {}),
      OBR_TOOL_MODE_CREATE: (d) => (tools.push(d), {}),
      OBR_BROADCAST_SEND_MESSAGE: (d) => (relay(d), {}),
    };
    const subscriptions = ["OBR_PLAYER_SUBSCRIBE", "OBR_ROOM_METADATA_SUBSCRIBE", "OBR_SCENE_ITEMS_SUBSCRIBE", "OBR_SCENE_LOCAL_SUBSCRIBE", "OBR_SCENE_GRID_SUBSCRIBE"];
    const extOrigin = new URL(srcs[0]).origin;
    window.addEventListener("message", (e) => {
      if (e.origin !== extOrigin) return;
      const { id, data, ref, nonce } = e.data ?? {};
      sent.push(id);
      if (ref !== "ref-1") unknown.push(`${id}: ref ${ref}`);
      if (id === "OBR_BROADCAST_SUBSCRIBE") {
        if (!channels.has(e.source)) channels.set(e.source, new Set());
        channels.get(e.source).add(data.channel);
        return;
      }
      if (subscriptions.includes(id)) return;
      const answer = answers[id];
      if (!answer) {
        unknown.push(id);
        return;
      }
      e.source.postMessage({ id: `${id}_RESPONSE${nonce}`, data: answer(data) }, extOrigin);
    });
    for (const src of srcs) {
      const frame = document.createElement("iframe");
      frame.src = src;
      frame.width = "360";
      frame.height = "600";
      const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
      document.body.append(frame);
      await loaded;
      frames.push(frame.contentWindow);
      frame.contentWindow.postMessage({ id: "OBR_READY", data: { ref: "ref-1", userId: "gm-1" } }, extOrigin);
    }
    const deadline = Date.now() + 60_000;
    while (!local.some((i) => i.type === "LABEL") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return {
      labels: local.filter((i) => i.type === "LABEL").map((i) => i.text.plainText).sort(),
      shapes: local.filter((i) => i.type === "SHAPE").length,
      sent: [...new Set(sent)].sort(),
      unknown,
      icons: [...menus, ...tools].flatMap((m) => m.icons.map((i) => i.icon)),
      embeds: menus.filter((m) => m.embed).map((m) => m.embed.url),
      tools: tools.map((t) => t.id),
    };
  }, { srcs, scene });

  // The popover shows what the background page evaluated, told over the real SDK's broadcast.
  const popover = page.frames().find((f) => f.url().includes("/index.html"));
  await popover.waitForFunction(() => document.querySelectorAll("#targets li").length > 0, null, { timeout: 30_000 }).catch((err) => {
    throw new Error(`${err.message}\n${logs.join("\n")}`);
  });
  assert.match(await popover.evaluate(() => document.getElementById("status").textContent), /^Cir2: 50 squares, 4 affected\.$/);
  // The real SDK asked for the scene, and the extension drew what owlbear.test.mjs's stub shows.
  assert.deepEqual(result.unknown, [], "every message is one this Owlbear answers");
  assert.deepEqual(result.labels, ["Horse: hit", "Ogre: hit", "Orc: full cover", "Scout: hit", "Wizard: hit"], logs.join("\n"));
  assert.equal(result.shapes, 5);
  for (const id of ["OBR_SCENE_ITEMS_GET_ALL_ITEMS", "OBR_SCENE_LOCAL_GET_ALL_ITEMS", "OBR_SCENE_GRID_GET_MEASUREMENT", "OBR_ROOM_GET_METADATA", "OBR_SCENE_LOCAL_ADD_ITEMS"]) assert.ok(result.sent.includes(id), `the SDK sent ${id}`);
  // The tool and its modes, the context menus' icons and embedded pages: the folder's, absolute
  // URLs under the sub-path.
  assert.deepEqual(result.tools, ["io.github.aoekit/tool", ...["circle", "cone", "line", "square", "notation"].map((m) => `io.github.aoekit/mode/${m}`)]);
  assert.deepEqual([...new Set(result.icons)].sort(), [`${base}${PREFIX}/icon.svg`, ...["circle", "cone", "line", "notation", "square"].map((m) => `${base}${PREFIX}/tool-${m}.svg`)]);
  assert.deepEqual(result.embeds, [`${base}${PREFIX}/menu.html?for=token`, `${base}${PREFIX}/menu.html?for=wall`]);
  // (Read again: the background page's broadcast may come after the drawing the evaluation waited for.)
  const sentNow = await page.evaluate(() => [...new Set(window.sent)]);
  for (const id of ["OBR_TOOL_CREATE", "OBR_TOOL_MODE_CREATE", "OBR_BROADCAST_SUBSCRIBE", "OBR_BROADCAST_SEND_MESSAGE"]) assert.ok(sentNow.includes(id), `the SDK sent ${id}`);
  // Nothing was asked of the host's root, of another host (a CDN), or refused by the CSP.
  assert.deepEqual(outside, [], "no root-relative request");
  assert.deepEqual(logs, []);
});
