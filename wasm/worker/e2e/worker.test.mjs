// End-to-end test of the Workers build: build/worker/ (make worker) runs in workerd through
// miniflare, offline, on a free loopback port; the test checks the CONTRACT examples, the
// errors, and that every answer of the cross-door identity set (go run ./wasm/identity) comes
// back byte for byte. The entry is worker.mjs (one Go instance per isolate); a second miniflare
// runs syumai/workers' own glue, worker-fresh.mjs (a fresh Go instance per request), on part of
// the set. It stops miniflare itself. Run: node --test wasm/worker/e2e/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import http from "node:http";
import { corpus as readCorpus, requireBuild, root, skip, startWorker, watchdog } from "./harness.mjs";

// A watchdog: whatever happens, the test ends.
const stopWatchdog = watchdog("worker e2e");

let mf;
let mfFresh;
let base;
let baseFresh;
let corpus;
let identity;

before(async () => {
  if (skip) return;
  requireBuild(["worker.mjs", "worker-fresh.mjs", "runtime.mjs", "wasm_exec.js", "app.wasm"]);
  corpus = readCorpus();
  identity = JSON.parse(
    execFileSync("go", ["run", "./wasm/identity"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 }),
  );
  assert.equal(identity.length, corpus.length, "identity answers one entry of requests.json each");

  const start = async (entry) => {
    const { mf: m, url } = await startWorker(entry);
    return [m, url];
  };
  [mf, base] = await start("worker.mjs");
  [mfFresh, baseFresh] = await start("worker-fresh.mjs");
});

after(async () => {
  if (mf) await mf.dispose();
  if (mfFresh) await mfFresh.dispose();
  stopWatchdog();
});

async function call(method, p, body, headers = {}, at = base) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
    if (!("content-type" in init.headers)) init.headers["content-type"] = "application/json";
  }
  let res;
  try {
    res = await fetch(new URL(p, at), init);
  } catch (e) {
    throw new Error(`${method} ${p}: ${e.message}: ${e.cause?.code ?? ""} ${e.cause?.message ?? e.cause ?? ""}`);
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.equal(res.headers.get("access-control-allow-origin"), "*", `${method} ${p}: CORS header`);
  return { status: res.status, headers: res.headers, text: bytes.toString("utf8"), bytes };
}

function errorOf(r) {
  assert.match(r.headers.get("content-type") ?? "", /^application\/json/);
  const body = JSON.parse(r.text);
  assert.ok(body.error && body.error.code && body.error.message, `an error body: ${r.text}`);
  return body.error;
}

const opts = { skip, timeout: 120_000 };

test("GET /v1/version", opts, async () => {
  const r = await call("GET", "/v1/version");
  assert.equal(r.status, 200);
  assert.match(r.headers.get("content-type"), /^application\/json/);
  const v = JSON.parse(r.text);
  assert.equal(v.engine, "aoekit");
  assert.equal(v.contract, 1);
  assert.equal(r.text, `{"engine":"aoekit","version":"${v.version}","contract":1}`);
});

test("CONTRACT: POST /v1/parse Con4NE", opts, async () => {
  const r = await call("POST", "/v1/parse", { text: "Con4NE" });
  assert.equal(r.status, 200);
  assert.equal(
    r.text,
    '{"text":"Con4NE","notation":"Con4NE","rules":"tdgs","shape":"cone","length":4,"direction":"NE","height":4}',
  );
});

test("CONTRACT: POST /v1/evaluate, the example request", opts, async () => {
  const entry = corpus.find((e) => e.name === "evaluate-contract-example");
  const r = await call("POST", "/v1/evaluate", entry.body);
  assert.equal(r.status, 200, r.text);
  const res = JSON.parse(r.text);
  assert.equal(res.template.notation, "Con4NE");
  assert.equal(res.template.shape, "cone");
  assert.equal(res.direction, "NE");
  assert.equal(typeof res.originVisible, "boolean");
  assert.equal(res.count, res.cells.length);
  const key = ([x, y, z]) => [z, y, x];
  for (let i = 1; i < res.cells.length; i++) {
    const a = key(res.cells[i - 1]), b = key(res.cells[i]);
    assert.ok(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2]))), "cells sorted by z, y, x");
  }
  for (const t of res.targets) {
    assert.equal(typeof t.id, "string");
    assert.ok(["none", "partial", "half", "full"].includes(t.cover));
    for (const l of t.lines) assert.equal(l.from.length, 3);
  }
});

test("CONTRACT: POST /v1/move", opts, async () => {
  const r = await call("POST", "/v1/move", {
    kind: "push", distance: 3, source: { x: 5, y: 5, z: 0 }, target: "g1",
    tokens: [{ id: "g1", x: 6, y: 5, z: 0 }], obstacles: [{ x: 8, y: 5, z: 0 }],
  });
  assert.equal(r.status, 200, r.text);
  const m = JSON.parse(r.text);
  assert.deepEqual(Object.keys(m), ["path", "end", "collision"]);
  assert.equal(m.collision.with, "obstacle");
});

test("the cross-door identity set, byte for byte", opts, async () => {
  const failures = [];
  const queue = corpus.map((e, i) => [e, identity[i]]);
  async function worker() {
    for (let item; (item = queue.shift()); ) {
      const [e, want] = item;
      assert.equal(want.name, e.name);
      const r = await call("POST", `/v1/${e.door}`, e.body);
      if (r.status !== want.status || !r.bytes.equals(Buffer.from(want.body, "utf8"))) {
        failures.push(`${e.name}: HTTP ${r.status} ${r.text}\n  Go door ${want.status} ${want.body}`);
      }
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()]);
  assert.deepEqual(failures, [], `${failures.length} of ${corpus.length} answers differ`);
});

test("a fresh Go instance per request (worker-fresh.mjs) answers the same", opts, async () => {
  let r = await call("GET", "/v1/version", undefined, {}, baseFresh);
  assert.equal(r.status, 200);
  const failures = [];
  for (let i = 0; i < corpus.length; i += 8) {
    const [e, want] = [corpus[i], identity[i]];
    r = await call("POST", `/v1/${e.door}`, e.body, {}, baseFresh);
    if (r.status !== want.status || !r.bytes.equals(Buffer.from(want.body, "utf8"))) {
      failures.push(`${e.name}: HTTP ${r.status} ${r.text}\n  Go door ${want.status} ${want.body}`);
    }
  }
  assert.deepEqual(failures, []);
  r = await call("POST", "/v1/evaluate", '{"a":', {}, baseFresh);
  assert.equal(r.status, 400);
  assert.equal(errorOf(r).message, "malformed JSON at byte 5: unexpected end of input");
});

test("errors: 400 malformed JSON with the byte offset", opts, async () => {
  const r = await call("POST", "/v1/evaluate", '{"template": "Cir3",, }');
  assert.equal(r.status, 400);
  assert.deepEqual(errorOf(r), { code: "bad_request", message: "malformed JSON at byte 20: expected a field name (a string)" });
});

test("errors: 422 for a rule violation", opts, async () => {
  const r = await call("POST", "/v1/evaluate", {
    template: "Cir3", caster: { id: "c", x: 0, y: 0 }, origin: { x: 30, y: 4, z: 0 }, range: 20,
  });
  assert.equal(r.status, 422);
  assert.equal(errorOf(r).code, "out_of_range");
});

test("errors: 400 bad notation carries at", opts, async () => {
  const r = await call("POST", "/v1/parse", { text: "Con4" });
  assert.equal(r.status, 400);
  const e = errorOf(r);
  assert.equal(e.code, "bad_notation");
  assert.equal(e.at, 5);
});

test("errors: 404, 405, 415, 413", opts, async () => {
  let r = await call("GET", "/v1/nothing");
  assert.equal(r.status, 404);
  assert.match(errorOf(r).message, /^no such endpoint: GET \/v1\/nothing/);

  r = await call("GET", "/v1/evaluate");
  assert.equal(r.status, 405);
  assert.equal(r.headers.get("allow"), "POST, OPTIONS");
  assert.equal(errorOf(r).message, "method GET is not allowed on /v1/evaluate; use POST");

  r = await call("DELETE", "/v1/version");
  assert.equal(r.status, 405);
  assert.equal(r.headers.get("allow"), "GET, HEAD, OPTIONS");

  r = await call("POST", "/v1/parse", '{"text":"Cir3"}', { "content-type": "text/plain" });
  assert.equal(r.status, 415);
  assert.match(errorOf(r).message, /application\/json/);

  r = await call("POST", "/v1/parse", '{"text":"Cir3"}', { "content-type": "application/json; charset=utf-8" });
  assert.equal(r.status, 200);

  // On its own connection: the answer comes before the body is read, and workerd then drops the
  // connection, which fetch's pool could otherwise reuse for the next test.
  const tooLarge = await new Promise((resolve, reject) => {
    const req = http.request(new URL("/v1/evaluate", base), {
      method: "POST", agent: false, headers: { "content-type": "application/json", connection: "close" },
    }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(Buffer.alloc((1 << 20) + 1, " "));
  });
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.headers["access-control-allow-origin"], "*");
  assert.deepEqual(JSON.parse(tooLarge.text).error, { code: "too_large", message: "the request body exceeds the 1 MiB limit (1048576 bytes)" });
});

test("CORS preflight", opts, async () => {
  const r = await call("OPTIONS", "/v1/evaluate", undefined, {
    origin: "https://vtt.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type",
  });
  assert.equal(r.status, 204);
  assert.equal(r.headers.get("access-control-allow-methods"), "POST, OPTIONS");
  assert.match(r.headers.get("access-control-allow-headers"), /content-type/i);
  assert.equal(r.headers.get("access-control-max-age"), "86400");
});
