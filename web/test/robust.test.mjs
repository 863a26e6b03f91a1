// The loader's robustness: a request past the module's size limit (1 MiB of JSON, as an HTTP
// body) is refused with too_large before it crosses into Go, however large it is; and after the
// Go program dies, nothing of the dead instance — a timer it had scheduled — throws later, and a
// fresh instance answers as before. In Node and in Chromium.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import { CONTRACT_FROM_CASTER, MOVE_REQUEST, WEB, buildCrasher, chromium, load, serve, tempDir } from "./helpers.mjs";

const MAX = 1 << 20; // limits.MaxBody: the module reports it, see "the limit is the module's"
const LIMIT_TEXT = "1 MiB (1048576 bytes)";

/** tooLarge checks that fn throws a too_large error naming the limit. */
function tooLarge(fn, what) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof Error, `${what}: no error`);
  assert.equal(err.code, "too_large", `${what}: ${err.code}: ${err.message}`);
  assert.ok(err.message.includes(LIMIT_TEXT), `${what}: the message does not name the limit: ${err.message}`);
  assert.ok(!err.message.startsWith("internal error"), `${what}: ${err.message}`);
  return err;
}

/** codeOf returns the code fn throws, or "ok". */
function codeOf(fn) {
  try {
    fn();
    return "ok";
  } catch (e) {
    return e.code;
  }
}

/** answers is what a healthy engine says to a few requests, to compare before and after. */
function answers(e) {
  return JSON.stringify([e.parse("Con4NE"), e.evaluate(CONTRACT_FROM_CASTER), Array.from(e.evaluateCells(CONTRACT_FROM_CASTER)),
    e.move(MOVE_REQUEST), e.version(), codeOf(() => e.parse("Con4"))]);
}

test("a request past 1 MiB of JSON is too_large, to the byte, in UTF-8 as over HTTP", async () => {
  const e = await load();
  const before = answers(e);
  // {"text":"…"} is 11 bytes around the text.
  assert.equal(codeOf(() => e.parse("x".repeat(MAX - 11))), "bad_notation", "exactly 1 MiB of JSON is read");
  const err = tooLarge(() => e.parse("x".repeat(MAX - 10)), "1 MiB + 1 byte");
  assert.match(err.message, /^parse: /);
  // é is one UTF-16 unit and two bytes of UTF-8: the limit counts bytes, as an HTTP body's does.
  const k = (MAX - 11) / 2 - 0.5; // 11 + 2k = MAX bytes
  assert.equal(codeOf(() => e.parse("é".repeat(Math.floor(k)))), "bad_notation", "1 MiB of UTF-8, fewer characters");
  tooLarge(() => e.parse("é".repeat(Math.floor(k) + 1)), "1 MiB + 1 byte of UTF-8");
  tooLarge(() => e.parse("🙂".repeat(MAX / 4)), "surrogate pairs, 4 bytes each");
  // Every method, with requests JSON makes larger than 1 MiB.
  const many = { ...CONTRACT_FROM_CASTER, obstacles: Array.from({ length: 80_000 }, (_, i) => ({ x: i, y: 0, z: 0 })) };
  assert.ok(JSON.stringify(many).length > MAX);
  tooLarge(() => e.evaluate(many), "evaluate");
  tooLarge(() => e.evaluateCells(many), "evaluateCells");
  tooLarge(() => e.move({ ...MOVE_REQUEST, obstacles: many.obstacles }), "move");
  assert.equal(answers(e), before, "the engine answers as before");
});

test("a 400 MB text is refused at once, and the engine keeps answering", async () => {
  const e = await load();
  const before = answers(e);
  // Once, this became a 918 MB []rune in Go and the program died "out of memory".
  const huge = "x".repeat(400_000_000);
  const err = tooLarge(() => e.parse(huge), "400 MB");
  assert.match(err.message, /\bat least 4000000\d\d bytes\b/, err.message);
  assert.equal(answers(e), before);
});

test("the limit is checked before the request crosses into Go", async (t) => {
  // The crasher answers parse with a number, which makes the loader restart the instance: a
  // request that reached it would come back as an internal error, and version's count would
  // start again at 1.
  const c = await load({ wasm: buildCrasher(tempDir(t)) });
  assert.equal(c.version().calls, 1);
  tooLarge(() => c.parse("x".repeat(MAX)), "cap + 1 characters");
  tooLarge(() => c.parse("x".repeat(400_000_000)), "400 MB");
  tooLarge(() => c.evaluate({ template: "é".repeat(MAX / 2) }), "cap + 1 bytes, fewer characters");
  assert.equal(c.version().calls, 2, "the instance never saw them");
  assert.throws(() => c.parse("x"), /internal error: the engine answered number/, "a request under the limit reaches it");
});

test("after the Go program dies, nothing of it throws later, and a fresh instance answers", async (t) => {
  const uncaught = [];
  const record = (err) => uncaught.push(String(err?.stack ?? err));
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  t.after(() => {
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
  });
  // The crasher's instance always has a Go timer pending with the host (as aoekit.wasm's runtime
  // has, at times): it used to fire on the dead program and throw "Go program has already exited".
  const c = await load({ wasm: buildCrasher(tempDir(t)) });
  const healthy = () => JSON.stringify([c.version().engine, Array.from(c.evaluateCells({}))]);
  const before = healthy();
  for (const [name, crash, message] of [
    ["exit", () => c.move({}), /^internal error: the engine exited \(code 3\) and will restart$/],
    ["stack overflow", () => c.evaluate({}), /^internal error: the engine stopped \(.*\) and will restart$/],
  ]) {
    for (let round = 0; round < 2; round++) {
      assert.throws(crash, (err) => err.code === "bad_request" && message.test(err.message), name);
      await sleep(1000); // the dead instance's timers were due every 20 ms
      assert.deepEqual(uncaught, [], `${name}: thrown by the dead instance`);
      assert.equal(c.version().calls, 1, `${name}: a fresh instance`);
      assert.equal(healthy(), before, `${name}: it answers as before`);
    }
  }
  // The live instance's timers still run it: a Go program idle for a second stays healthy.
  await sleep(300);
  assert.equal(c.version().calls, 3);
  assert.deepEqual(uncaught, []);
});

test("evaluate: exactly 1 MiB of JSON passes both the loader's check and the module's", async () => {
  const e = await load();
  const pad = (n) => ({ template: "Cir1", origin: { x: 0, y: 0, z: 0 }, pad: "x".repeat(n) }); // unknown fields are ignored
  const n = MAX - JSON.stringify(pad(0)).length;
  assert.equal(e.evaluate(pad(n)).count, 9);
  tooLarge(() => e.evaluate(pad(n + 1)), "1 MiB + 1");
});

const PAGE = `<!doctype html><title>aoekit</title><link rel="icon" href="data:,">
<script type="module">
  const { load } = await import("/index.js");
  const out = { events: [] };
  const failure = (f) => { try { f(); return null; } catch (e) { return { code: e.code, message: e.message }; } };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  try {
    const e = await load();
    const before = JSON.stringify([e.parse("Con4NE"), e.evaluate(${JSON.stringify(CONTRACT_FROM_CASTER)})]);
    out.big = failure(() => e.parse("x".repeat(${MAX})));
    out.same = JSON.stringify([e.parse("Con4NE"), e.evaluate(${JSON.stringify(CONTRACT_FROM_CASTER)})]) === before;
    const c = await load({ wasm: "/crasher.wasm" });
    out.crash = [c.version().calls, failure(() => c.move({}))];
    await sleep(1000);
    out.crash.push(failure(() => c.evaluate({})));
    await sleep(1000);
    out.crash.push(c.version().calls, c.evaluateCells({}).length);
  } catch (e) {
    out.error = String(e && e.stack || e);
  }
  window.out = out;
</script>`;

test("Chromium: too_large before Go, and no error from a dead instance", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const crasher = readFileSync(buildCrasher(tempDir(t)));
  const base = await serve(t, WEB, { pages: { "/test.html": PAGE, "/crasher.wasm": crasher } });
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  await page.goto(`${base}/test.html`);
  const out = await page.waitForFunction(() => window.out, null, { timeout: 30_000 }).then((h) => h.jsonValue());
  await page.close();
  assert.equal(out.error, undefined, out.error);
  assert.equal(out.big.code, "too_large", out.big.message);
  assert.ok(out.big.message.includes(LIMIT_TEXT), out.big.message);
  assert.ok(out.same);
  const [one, exited, stopped, fresh, cells] = out.crash;
  assert.equal(one, 1);
  assert.match(exited.message, /^internal error: the engine exited/);
  assert.match(stopped.message, /^internal error: the engine stopped/);
  assert.equal(fresh, 1);
  assert.equal(cells, 0);
  assert.deepEqual(errors, [], "errors in the page, from the dead instances");
});
