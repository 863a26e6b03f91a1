// The two builds of the HTTP API agree on the requests where their runtimes differ: the native
// server (go build ./wasm/worker, net/http) and the Workers build (build/worker, make worker) in
// workerd through miniflare get the same raw requests — paths with //, dot segments (plain and
// percent-encoded), backslashes, encoded slashes; Content-Type headers with several values —
// and must answer with the same status, Content-Type and body, every non-200 answer being the
// JSON error shape (no redirect). Run: node --test wasm/worker/e2e/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { requireBuild, root, skip, startWorker, watchdog } from "./harness.mjs";

const stopWatchdog = watchdog("worker e2e (agree)");

let mf, worker, native, child, tmp;

before(async () => {
  if (skip) return;
  requireBuild();
  // The native server, on a free loopback port.
  tmp = mkdtempSync(path.join(tmpdir(), "aoekit-agree-"));
  const bin = path.join(tmp, "worker");
  execFileSync(process.env.GO || "go", ["build", "-o", bin, "./wasm/worker"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  child = spawn(bin, ["-addr", "127.0.0.1:0", "-quiet"], { stdio: ["ignore", "ignore", "pipe"] });
  native = await new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`the native server did not start in 60 s:\n${log}`)), 60_000);
    child.stderr.on("data", (chunk) => {
      log += chunk;
      const m = /aoekit API on (http:\/\/127\.0\.0\.1:\d+) /.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]));
      }
    });
    child.on("exit", (code) => reject(new Error(`the native server exited (${code}):\n${log}`)));
  });
  // The Workers build.
  ({ mf, url: worker } = await startWorker());
});

after(async () => {
  if (mf) await mf.dispose();
  if (child) child.kill("SIGTERM");
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  stopWatchdog();
});

// raw sends one request with its target exactly as given (no URL normalisation) and headers as
// given (an array value is sent as several header lines).
function raw(base, method, target, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, method, path: target, agent: false, headers: { ...headers, connection: "close" } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${target}: no answer in 30 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

// checkShape: a non-200 answer is the JSON error shape (a 204 preflight has no body).
function checkShape(what, r) {
  if (r.status === 204) return;
  assert.equal(r.headers["content-type"], "application/json", `${what}: Content-Type`);
  const body = JSON.parse(r.text);
  if (r.status !== 200) {
    assert.ok(body.error && typeof body.error.code === "string" && typeof body.error.message === "string", `${what}: ${r.status} ${r.text}`);
  }
}

const opts = { skip, timeout: 120_000 };
const JSON_CT = { "content-type": "application/json" };

const PATHS = ["/v1/parse", "//v1/parse", "/v1//parse", "///v1///parse", "/v1/./parse", "/./v1/parse", "/v1/x/../parse",
  "/../v1/parse", "/%2e%2e/v1/parse", "/v1/%2E/parse", "/v1/x/.%2e/parse", "/v1\\parse", "/v1/%70arse", "/v1/parse/",
  "/v1/parse//", "/v1/parse/.", "/v1/parse/..", "/v1/parse/x/..", "/a//..", "/..", "/v1/..", "/v1%2Fparse", "/v1%2F.%2Fparse",
  "/v1/parse%2F", "/v1/parse?x=1", "//v1/parse?x=1",
  // escapes of bytes that are not UTF-8 (a 404 in both), and a raw # (a fragment in both)
  "/v1/%ff", "/v1/pa%ffrse", "/v1/%C0%AE%C0%AE/parse", "/v1/parse#x", "/v1/parse/#/.."];

test("odd paths: both builds answer alike, and never with a redirect", opts, async () => {
  const failures = [];
  for (const p of PATHS) {
    for (const [method, target] of [["POST", p], ["GET", p.replace("parse", "version")], ["OPTIONS", p], ["DELETE", p]]) {
      const body = method === "POST" ? '{"text": "Cir3"}' : undefined;
      const headers = method === "POST" ? JSON_CT : {};
      const [n, w] = await Promise.all([raw(native, method, target, headers, body), raw(worker, method, target, headers, body)]);
      const what = `${method} ${target}`;
      checkShape(`${what} (native)`, n);
      checkShape(`${what} (Workers)`, w);
      if (n.status !== w.status || n.text !== w.text || n.headers["content-type"] !== w.headers["content-type"] || n.headers.allow !== w.headers.allow) {
        failures.push(`${what}:\n  native  ${n.status} ${n.headers.allow ?? ""} ${n.text}\n  Workers ${w.status} ${w.headers.allow ?? ""} ${w.text}`);
      }
    }
  }
  assert.deepEqual(failures, [], failures.join("\n"));
  // The canonical path is answered: //v1/parse is /v1/parse.
  const r = await raw(worker, "POST", "//v1/parse", JSON_CT, '{"text": "Cir3"}');
  assert.equal(r.status, 200, r.text);
});

test("Content-Length: leading zeros are the same number in both builds", opts, async () => {
  const body = '{"text":"Cir3"}'; // 15 bytes
  for (const length of ["15", "015", "0000000000000015", "00000000000000000000000015"]) {
    const [n, w] = await Promise.all([raw(native, "POST", "/v1/parse", { ...JSON_CT, "content-length": length }, body),
      raw(worker, "POST", "/v1/parse", { ...JSON_CT, "content-length": length }, body)]);
    assert.deepEqual([n.status, w.status, w.text], [200, 200, n.text], `Content-Length ${length}: native ${n.status} ${n.text}, Workers ${w.status} ${w.text}`);
  }
});

test("Content-Type: one rule in both builds, whatever the header's values", opts, async () => {
  const cases = [
    ["application/json", 200],
    ["application/json; charset=utf-8", 200],
    ["Application/JSON;Charset=UTF-8", 200],
    ["application/json, text/plain", 415],
    ["text/plain, application/json", 415],
    ["application/json,application/json", 415],
    [["application/json", "text/plain"], 415], // two header lines
    ['application/json; charset="utf-8"', 200],
    ["application/json; charset=latin1", 415],
    ["text/plain", 415],
    [undefined, 415],
  ];
  const failures = [];
  for (const [ct, want] of cases) {
    const headers = ct === undefined ? {} : { "content-type": ct };
    const [n, w] = await Promise.all([raw(native, "POST", "/v1/parse", headers, '{"text": "Cir3"}'), raw(worker, "POST", "/v1/parse", headers, '{"text": "Cir3"}')]);
    checkShape(`${ct} (native)`, n);
    checkShape(`${ct} (Workers)`, w);
    if (n.status !== want || w.status !== want || n.text !== w.text) {
      failures.push(`${JSON.stringify(ct)}: want ${want}\n  native  ${n.status} ${n.text}\n  Workers ${w.status} ${w.text}`);
    }
  }
  assert.deepEqual(failures, [], failures.join("\n"));
});
