// The demo site as `make demo` serves it (static/, served by wasm/devserver) sends a strict
// content security policy, nosniff and a frame policy on every answer — and the demo works
// under them in headless Chromium: it loads the engine and answers with no console error and no
// securitypolicyviolation event, while the policy visibly refuses what it must (inline script,
// inline style, being framed).
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { ROOT, chromium, devserver, serve, tempDir } from "./helpers.mjs";

const STATIC = join(ROOT, "static");

/** directives parses a Content-Security-Policy header into a Map of directive → sources. */
function directives(csp) {
  return new Map((csp ?? "").split(";").map((d) => d.trim()).filter(Boolean).map((d) => {
    const [name, ...sources] = d.split(/\s+/);
    return [name.toLowerCase(), sources];
  }));
}

function checkHeaders(what, headers) {
  const csp = directives(headers.get("content-security-policy"));
  assert.deepEqual(csp.get("default-src"), ["'self'"], `${what}: default-src`);
  assert.deepEqual(csp.get("script-src"), ["'self'", "'wasm-unsafe-eval'"], `${what}: script-src`);
  assert.deepEqual(csp.get("style-src"), ["'self'"], `${what}: style-src`);
  assert.deepEqual(csp.get("img-src"), ["'self'", "data:"], `${what}: img-src`);
  assert.deepEqual(csp.get("frame-ancestors"), ["'none'"], `${what}: frame-ancestors`);
  for (const [name, sources] of csp) {
    assert.ok(!sources.includes("'unsafe-inline'") && !sources.includes("'unsafe-eval'") && !sources.includes("*"), `${what}: ${name} ${sources}`);
  }
  assert.equal(headers.get("x-content-type-options"), "nosniff", `${what}: X-Content-Type-Options`);
  assert.equal(headers.get("x-frame-options"), "DENY", `${what}: X-Frame-Options`);
}

test("make demo's server: CSP, nosniff and a frame policy on every answer, and the demo runs under them", async (t) => {
  assert.ok(statSync(join(STATIC, "demo", "index.html"), { throwIfNoEntry: false }), "static/demo is missing: make static builds it (make test does)");
  const base = await devserver(t);

  // Every kind of answer carries them: pages, scripts, the module (compressed or not), a
  // redirect, a 404.
  for (const [path, init] of [["/", {}], ["/demo/", {}], ["/demo/index.html", {}], ["/demo/demo.js", {}], ["/demo/demo.css", {}],
    ["/index.js", {}], ["/wasm_exec.js", {}], ["/aoekit.wasm", { headers: { "accept-encoding": "br" } }], ["/aoekit.wasm", {}],
    ["/demo", { redirect: "manual" }], ["/missing", {}]]) {
    const res = await fetch(base + path, init);
    await res.arrayBuffer();
    checkHeaders(`${path} (${res.status})`, res.headers);
  }

  const browser = await chromium(t);
  if (!browser) return;
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console.error: ${msg.text()}`));
  page.on("response", (res) => res.status() >= 400 && problems.push(`${res.status()} ${res.url()}`));
  await page.addInitScript(() => {
    globalThis.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => globalThis.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const res = await page.goto(`${base}/demo/`);
  checkHeaders("the page Chromium got", new Headers(await res.allHeaders()));
  await page.waitForFunction(() => {
    const d = globalThis.__aoekitDemo;
    return (d?.state.engine && (d.state.result || d.state.error || d.state.waiting)) || /failed to load/.test(document.getElementById("status")?.textContent ?? "");
  }, null, { timeout: 30_000 });
  const state = await page.evaluate(() => ({ count: globalThis.__aoekitDemo.state.result?.count, status: document.getElementById("status")?.textContent }));
  assert.ok(state.count > 0, `the demo did not evaluate under the policy: ${JSON.stringify(state)}`);
  // The help dialog closes through <form method="dialog">, which form-action must not block.
  const help = page.locator("#help-button");
  if (await help.count()) {
    await help.click();
    await page.locator("#help-close").click();
    assert.equal(await page.evaluate(() => document.getElementById("help")?.open), false, "the help dialog did not close");
  }
  await page.waitForTimeout(200); // violation events are dispatched as tasks
  assert.deepEqual(await page.evaluate(() => globalThis.__csp), [], "policy violations while the demo ran");
  assert.deepEqual(problems, [], "errors while the demo ran");

  // The policy is in force: inline script and inline style are refused, and reported. (Code that
  // page.evaluate runs is exempt from the policy, so eval cannot be tried from here.)
  const refused = await page.evaluate(async () => {
    globalThis.__csp.length = 0;
    const s = document.createElement("script");
    s.textContent = "globalThis.__inline = true";
    document.head.append(s);
    const div = document.createElement("div");
    div.setAttribute("style", "width: 123px");
    document.body.append(div);
    await new Promise((r) => setTimeout(r, 100));
    return { inline: globalThis.__inline ?? false, width: div.getBoundingClientRect().width === 123, reported: [...globalThis.__csp].sort() };
  });
  problems.length = 0;
  assert.equal(refused.inline, false, "an inline script ran");
  assert.equal(refused.width, false, "an inline style applied");
  assert.ok(refused.reported.some((v) => v.startsWith("script-src")), `reported ${refused.reported}`);
  assert.ok(refused.reported.some((v) => v.startsWith("style-src")), `reported ${refused.reported}`);

  // Framed by another origin, the demo does not load.
  const other = await serve(t, tempDir(t), { pages: { "/frame.html": `<!doctype html><title>frame</title><link rel="icon" href="data:,"><iframe src="${base}/demo/"></iframe>` } });
  const framer = await context.newPage();
  await framer.goto(`${other}/frame.html`);
  await framer.waitForFunction(() => document.querySelector("iframe") !== null, null, { timeout: 10_000 });
  await framer.waitForTimeout(1000);
  const framed = framer.frames().find((f) => f !== framer.mainFrame());
  assert.ok(framed, "no iframe");
  const loaded = await framed.evaluate(() => typeof globalThis.__aoekitDemo).catch(() => "blocked");
  assert.notEqual(loaded, "object", `the demo ran in a frame of another origin (frame URL ${framed.url()})`);
  t.diagnostic(`framed: ${framed.url()} (${loaded})`);
});
