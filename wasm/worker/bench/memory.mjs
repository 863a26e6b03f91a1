// What the Workers build holds as it serves (issue 16): build/worker (make worker) in workerd
// through miniflare, with the test-only env binding AOEKIT_DEBUG_GO, gets -n identical good
// requests (POST /v1/evaluate of a small identity-corpus request, -c at once); every --every
// requests it prints the JavaScript values Go holds (after Go collected its garbage), the calls
// into Go, Go's linear memory, heap and goroutines, workerd's resident memory, and the requests
// per second since the last line. Not part of `make test` (the e2e memory test checks the
// property in a few thousand requests).
//
// Run after make worker: node wasm/worker/bench/memory.mjs [-n 100000] [-c 8] [--every 10000]
// [--dir build/worker] [--door evaluate|version|parse] [--seconds 900] [--baseline: a plain
// JavaScript worker instead, for workerd's own memory]
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { values: opt } = parseArgs({
  options: {
    n: { type: "string", short: "n", default: "100000" },
    c: { type: "string", short: "c", default: "8" },
    every: { type: "string", default: "10000" },
    dir: { type: "string", default: "build/worker" },
    door: { type: "string", default: "evaluate" },
    seconds: { type: "string", default: "900" },
    baseline: { type: "boolean", default: false },
  },
});
const N = Number(opt.n), C = Number(opt.c), EVERY = Number(opt.every), LIMIT_MS = Number(opt.seconds) * 1000;
const dir = path.resolve(root, opt.dir);

const corpus = JSON.parse(readFileSync(path.join(root, "wasm/identity/requests.json"), "utf8"));
const REQUESTS = {
  evaluate: ["POST", "/v1/evaluate", JSON.stringify(corpus.find((e) => e.name === "evaluate-contract-example").body)],
  parse: ["POST", "/v1/parse", '{"text":"Con4NE"}'],
  version: ["GET", "/v1/version", null],
};
const [method, p, body] = REQUESTS[opt.door];

const { Miniflare } = await import("miniflare");
const toml = readFileSync(path.join(root, "wasm/worker/wrangler.toml"), "utf8");
// --baseline: a plain JavaScript worker that reads the body and answers a constant, to tell
// workerd's and miniflare's own memory from the Go instance's.
const BASELINE = `export default { async fetch(req) {
  if (new URL(req.url).pathname === "/__debug/go") return Response.json({ values: 0, calls: 0, memory: 0 });
  await req.arrayBuffer();
  return new Response('{"baseline":true}', { headers: { "content-type": "application/json" } });
} };`;
const mf = new Miniflare({
  ...(opt.baseline ? { script: BASELINE } : {
    scriptPath: path.join(dir, "worker.mjs"),
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
  }),
  modules: true,
  compatibilityDate: /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)[1],
  bindings: { AOEKIT_DEBUG_GO: "1" },
  host: "127.0.0.1",
  port: 0,
});
const base = await mf.ready;
const agent = new http.Agent({ keepAlive: true, maxSockets: C });

// send makes one request; one on a kept-alive connection the server closed meanwhile is retried.
function send(m, target, b, retried = false) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(target, base), { method: m, agent, headers: b === null ? {} : { "content-type": "application/json" } }, (res) => {
      const chunks = [];
      res.on("data", (d) => chunks.push(d));
      res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", (e) => {
      if (req.reusedSocket && e.code === "ECONNRESET" && !retried) resolve(send(m, target, b, true));
      else reject(e);
    });
    req.end(b ?? undefined);
  });
}

function workerdRSS() {
  let kb = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const s = readFileSync(`/proc/${pid}/status`, "utf8");
      if (/^Name:\s*workerd/m.test(s) && Number(/^PPid:\s*(\d+)/m.exec(s)?.[1]) === process.pid) kb += Number(/^VmRSS:\s*(\d+)/m.exec(s)?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

const MB = (b) => (b / (1 << 20)).toFixed(1);
let lastAt = performance.now(), lastSent = 0, sent = 0;
async function report() {
  const d = JSON.parse((await send("GET", "/__debug/go", null)).text);
  const now = performance.now();
  const rps = (sent - lastSent) / ((now - lastAt) / 1000);
  lastAt = now;
  lastSent = sent;
  console.log(`${String(sent).padStart(7)} requests: held values ${d.values}${d.valuesBeforeGC !== undefined ? ` (${d.valuesBeforeGC} before Go's GC)` : ""}, calls into Go ${d.calls}, wasm memory ${MB(d.memory)} MB` +
    `${d.heapAlloc !== undefined ? `, Go heap ${MB(d.heapAlloc)} MB (${d.heapObjects} objects), goroutines ${d.goroutines}` : ""}` +
    `, workerd RSS ${workerdRSS().toFixed(0)} MB${sent ? `, ${rps.toFixed(0)} requests/s` : ""}`);
}

const want = await send(method, p, body);
if (want.status !== 200) throw new Error(`${method} ${p}: ${want.status} ${want.text}`);
console.log(`${opt.baseline ? "baseline JS worker" : dir}: ${method} ${p}, ${N} requests, ${C} at once`);
await report();
const t0 = performance.now();
let bad = 0, next = 0, nextReport = EVERY;
async function loop() {
  while (next < N && performance.now() - t0 < LIMIT_MS) {
    next++;
    const r = await send(method, p, body);
    if (r.status !== want.status || r.text !== want.text) bad++;
    sent++;
    if (sent >= nextReport) {
      nextReport += EVERY;
      await report();
    }
  }
}
await Promise.all(Array.from({ length: C }, loop));
const s = (performance.now() - t0) / 1000;
await report();
console.log(`${sent} requests in ${s.toFixed(1)} s: ${(sent / s).toFixed(0)} requests/s, ${bad} answers differing from the first`);
agent.destroy();
await mf.dispose();
