// The Workers build keeps nothing of a request once it is answered (issue 16): build/worker (make
// worker) runs in workerd through miniflare with the test-only env binding AOEKIT_DEBUG_GO, under
// which glue/worker.mjs answers GET /__debug/go with the JavaScript values the Go instance holds
// (wasm_exec.js's table, after Go collected its garbage), the calls into Go since it started, and
// Go's goroutines and heap objects. After MEMORY_REQUESTS (3 000) requests of every kind — good
// ones of each door, errors, HEAD, a preflight, chunked bodies — none of these may have grown by
// more than a constant, and each request is one call into Go, however its body is chunked: a body
// in 20 000 one-byte chunks too. Properties, not timings.
//
// What it catches: github.com/syumai/workers' request bridge leaked a js.Func, and with it two
// JavaScript values, for every promise it awaited — four a request, and one for each chunk of a
// body — and called into Go once a chunk (wasm/worker/README.md, "The request bridge").
//
// Run: node --test wasm/worker/e2e/ (after make worker); MEMORY_REQUESTS=100000 for a long run, or
// node wasm/worker/bench/memory.mjs for the numbers as it goes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import { corpus as readCorpus, requireBuild, skip, startWorker, watchdog } from "./harness.mjs";

const N = Number(process.env.MEMORY_REQUESTS || 3000);
const CONCURRENCY = 8;
const CHUNKS = 20000;
// What may change between two looks at an idle instance whatever the number of requests between
// them: the values of the calls in flight at the first look, a timer's call into Go.
const SLACK = 20;

const stopWatchdog = watchdog("worker e2e (memory)");
let mf, base, agent;

before(async () => {
  if (skip) return;
  requireBuild();
  ({ mf, url: base } = await startWorker("worker.mjs", { bindings: { AOEKIT_DEBUG_GO: "1" } }));
  agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
});

after(async () => {
  agent?.destroy();
  if (mf) await mf.dispose();
  stopWatchdog();
});

// send makes one request; chunks sends the body in that many pieces (chunked, no Content-Length).
// A kept-alive connection the server closed as it was reused is retried once, as Node advises.
function send({ method, path, headers = {}, body, chunks }, retried = false) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, base), { method, agent, headers }, (res) => {
      const got = [];
      res.on("data", (d) => got.push(d));
      res.on("end", () => resolve({ status: res.statusCode, text: Buffer.concat(got).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", (e) => {
      if (req.reusedSocket && e.code === "ECONNRESET" && !retried) resolve(send({ method, path, headers, body, chunks }, true));
      else reject(e);
    });
    if (chunks) {
      const b = Buffer.from(body);
      const step = Math.ceil(b.length / chunks);
      for (let i = 0; i < b.length; i += step) req.write(b.subarray(i, i + step));
      req.end();
    } else {
      req.end(body);
    }
  });
}

async function look() {
  const r = await send({ method: "GET", path: "/__debug/go" });
  let d;
  try {
    d = JSON.parse(r.text);
  } catch {}
  assert.ok(r.status === 200 && Number.isSafeInteger(d?.values) && Number.isSafeInteger(d?.calls),
    `GET /__debug/go with AOEKIT_DEBUG_GO set: ${r.status} ${r.text.slice(0, 300)} (is build/worker/worker.mjs glue/worker.mjs?)`);
  return d;
}

const json = { "content-type": "application/json" };

test(`${N} requests leave the Go instance holding no more than before, one call into Go each`, { skip, timeout: 180_000 }, async () => {
  const corpus = readCorpus();
  const body = (name) => JSON.stringify(corpus.find((e) => e.name === name).body);
  const kinds = [
    { method: "POST", path: "/v1/evaluate", headers: json, body: body("evaluate-contract-example") },
    { method: "POST", path: "/v1/parse", headers: json, body: '{"text": "Con4NE"}' },
    { method: "POST", path: "/v1/parse", headers: json, body: '{"text": "Con4NE"}', chunks: 3 },
    ...["move", "cover", "full-attack"].map((door) => {
      const e = corpus.find((e) => e.door === door);
      return { method: "POST", path: `/v1/${door}`, headers: json, body: JSON.stringify(e.body) };
    }),
    { method: "GET", path: "/v1/version" },
    { method: "HEAD", path: "/v1/version" },
    { method: "OPTIONS", path: "/v1/evaluate", headers: { origin: "https://vtt.example", "access-control-request-method": "POST" } },
    { method: "POST", path: "/v1/evaluate", headers: json, body: '{"template": "Cir3",, }' }, // 400
    { method: "POST", path: "/v1/parse", headers: json, body: '{"text": "Con4"}' }, // 400 bad_notation
    { method: "GET", path: "/v1/nothing" }, // 404
    { method: "GET", path: "/v1/evaluate" }, // 405
    // 415, on a connection of its own: a worker that does not read the body may close it.
    { method: "POST", path: "/v1/parse", headers: { "content-type": "text/plain", connection: "close" }, body: "{}" },
  ];
  // Each kind's first answer; every later one must be the same.
  const first = [];
  for (const k of kinds) first.push(await send(k));
  for (const [i, r] of first.entries()) assert.ok(r.status < 500, `${kinds[i].method} ${kinds[i].path}: ${r.status} ${r.text}`);
  const run = async (count) => {
    let next = 0;
    const loop = async () => {
      for (let i; (i = next++) < count; ) {
        const k = i % kinds.length;
        let r;
        try {
          r = await send(kinds[k]);
        } catch (e) {
          throw new Error(`request ${i}: ${kinds[k].method} ${kinds[k].path}: ${e.message}`, { cause: e });
        }
        assert.deepEqual(r, first[k], `request ${i}: ${kinds[k].method} ${kinds[k].path}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  };
  await run(10 * kinds.length); // warm up: Go's heap and caches at their working size

  const a = await look();
  await run(N);
  const b = await look();
  const growth = (k) => b[k] - a[k];
  console.log(`memory: ${N} requests: values Go holds ${a.values} → ${b.values}, calls into Go +${growth("calls")}, ` +
    `goroutines ${a.goroutines} → ${b.goroutines}, Go heap objects ${a.heapObjects} → ${b.heapObjects}, ` +
    `linear memory ${(a.memory / 2 ** 20).toFixed(1)} → ${(b.memory / 2 ** 20).toFixed(1)} MB`);
  assert.ok(growth("values") <= SLACK,
    `the JavaScript values Go holds grew by ${growth("values")} in ${N} requests (${(growth("values") / N).toFixed(2)} a request): a leak`);
  assert.ok(growth("calls") <= N + SLACK, `${growth("calls")} calls into Go for ${N} requests (${(growth("calls") / N).toFixed(2)} a request); want one each`);
  if (a.heapObjects !== undefined) {
    assert.ok(b.goroutines <= a.goroutines, `goroutines ${a.goroutines} → ${b.goroutines}`);
    assert.ok(growth("heapObjects") <= N / 10, `Go's heap objects grew by ${growth("heapObjects")} in ${N} requests (${(growth("heapObjects") / N).toFixed(2)} a request)`);
  }
});

test(`a body in ${CHUNKS} one-byte chunks is one call into Go, and leaves nothing held`, { skip, timeout: 180_000 }, async () => {
  const text = ' '.repeat(CHUNKS - 16) + '{"text": "Cir3"}';
  const want = await send({ method: "POST", path: "/v1/parse", headers: json, body: '{"text": "Cir3"}' });
  assert.equal(want.status, 200, want.text);
  await slowBody(text); // warm up
  const a = await look();
  const r = await slowBody(text);
  const b = await look();
  console.log(`memory: a body in ${CHUNKS} one-byte chunks: ${b.calls - a.calls} calls into Go (with /__debug/go's), values Go holds ${a.values} → ${b.values}`);
  assert.equal(r.status, 200, r.body);
  assert.equal(r.body, want.text);
  assert.ok(b.calls - a.calls <= 2 + SLACK / 4, `${b.calls - a.calls} calls into Go for one request (and /__debug/go): one a chunk?`);
  assert.ok(b.values - a.values <= SLACK, `the JavaScript values Go holds grew by ${b.values - a.values} for one request`);
});

// A 71-byte request whose answer is 26 MB: 2^20 cells less a few, far from the origin. Go's
// linear memory, which never shrinks, must grow by less than twice the answer's bytes: its cells
// (12 bytes each) and its JSON are in Go's memory at once, about 1.45 times it, but not a second
// copy of the JSON. It grew by 5 times the answer when the JSON was grown as it was written
// (90 MB allocated on the way) and then copied whole before it went to JavaScript; by 2.5 times
// with the copy alone. (Cloudflare gives an isolate 128 MB, JavaScript's heap included.)
test("a 26 MB answer is not held twice in Go's memory", { skip, timeout: 180_000 }, async () => {
  const body = JSON.stringify({ template: "Cir50h100", origin: { x: -999000, y: -999000, z: -999000 } });
  const a = await look();
  const r = await send({ method: "POST", path: "/v1/evaluate", headers: json, body });
  const b = await look();
  assert.equal(r.status, 200, r.text.slice(0, 300));
  const answer = JSON.parse(r.text);
  const bytes = Buffer.byteLength(r.text);
  assert.ok(answer.cells.length > 900_000 && answer.count === answer.cells.length, `${answer.cells.length} cells, count ${answer.count}`);
  const [x, y, z] = answer.cells[0];
  assert.ok(x < -998000 && y < -998000 && z < -998000, `first cell ${answer.cells[0]}`);
  console.log(`memory: a ${(bytes / 2 ** 20).toFixed(1)} MB answer: linear memory ${(a.memory / 2 ** 20).toFixed(1)} → ${(b.memory / 2 ** 20).toFixed(1)} MB`);
  assert.ok(b.memory - a.memory < 2 * bytes,
    `Go's linear memory grew by ${((b.memory - a.memory) / 2 ** 20).toFixed(1)} MB for an answer of ${(bytes / 2 ** 20).toFixed(1)} MB: held twice?`);
  assert.ok(b.values - a.values <= SLACK, `the JavaScript values Go holds grew by ${b.values - a.values}`);
});

// slowBody POSTs text to /v1/parse as a chunked body of one-byte chunks, on a connection of its
// own, all written at once: { status, body }.
function slowBody(text) {
  const parts = [`POST /v1/parse HTTP/1.1\r\nHost: ${base.host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`];
  for (const c of text) parts.push(`1\r\n${c}\r\n`);
  parts.push("0\r\n\r\n");
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(base.port), base.hostname);
    const got = [];
    s.on("data", (d) => got.push(d));
    s.on("end", () => {
      const all = Buffer.concat(got).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(all)?.[1]);
      const head = all.slice(0, all.indexOf("\r\n\r\n"));
      let body = all.slice(all.indexOf("\r\n\r\n") + 4);
      if (/^transfer-encoding:\s*chunked/im.test(head)) {
        let out = "";
        for (let at = 0; ; ) {
          const eol = body.indexOf("\r\n", at);
          const size = parseInt(body.slice(at, eol), 16);
          if (!size) break;
          out += body.slice(eol + 2, eol + 2 + size);
          at = eol + 2 + size + 2;
        }
        body = out;
      }
      resolve({ status, body });
    });
    s.on("error", reject);
    s.on("connect", () => s.end(parts.join("")));
  });
}
