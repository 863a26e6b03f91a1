// The Workers build refuses a path that is not a valid URL path (a bad percent escape such as
// /v1/move% or /v1/%zz) with a 400 of the API's JSON error shape, not the runtime's 500 and stack
// trace: Go's net/url refuses such a path, and the request conversion of the handler threw
// (found by the hostile run, issue 16). Run: node --test wasm/worker/e2e/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build, root, skip } from "./harness.mjs";

let mf;

before(async () => {
  if (skip) return;
  assert.ok(existsSync(path.join(build, "worker.mjs")), "build/worker/worker.mjs is missing: run `make worker` first");
  const toml = readFileSync(path.join(root, "wasm/worker/wrangler.toml"), "utf8");
  const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)[1];
  const { Miniflare } = await import(createRequire(path.join(root, "package.json")).resolve("miniflare"));
  mf = new Miniflare({ scriptPath: path.join(build, "worker.mjs"), modules: true,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }], compatibilityDate });
  await mf.ready;
});

after(async () => {
  if (mf) await mf.dispose();
});

test("a bad percent escape in the path is a 400 with the API's JSON error, and the worker keeps answering", { skip, timeout: 120_000 }, async () => {
  for (const p of ["/v1/move%", "/v1/%zz", "/v1/full-attack%", "/v1/evaluate%ff%fe%"]) {
    const r = await mf.dispatchFetch(`http://127.0.0.1${p}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    assert.equal(r.status, 400, p);
    assert.equal(r.headers.get("content-type"), "application/json", p);
    const body = await r.json();
    assert.equal(body.error.code, "bad_request", p);
    assert.match(body.error.message, /not a valid URL path/, p);
  }
  const v = await mf.dispatchFetch("http://127.0.0.1/v1/version");
  assert.equal(v.status, 200);
  assert.equal((await v.json()).engine, "aoekit");
});
