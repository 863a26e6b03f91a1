// Odd requests, in both builds (issue 29, 7): the native server (go build ./wasm/worker, net/http)
// and the Workers build (build/worker, make worker) in workerd through miniflare get the same raw
// bytes over a socket — odd methods, request targets, Content-Type lines and bytes that are not
// UTF-8 — and give one answer: the same status, Content-Type, CORS headers and body, byte for byte.
// Where one runtime answers before the API's code runs (workerd: a method it does not know, a
// target that is not a path; net/http: what it cannot parse), the answer is the one the README
// documents ("Odd requests"), checked here so that a change of either runtime shows.
//
// The first test sends the cases of the issue; the second FRAMING_VARIANTS (400) requests made by
// a seeded generator (FRAMING_SEED, 29) from methods, targets, Content-Type lines and header
// values. The native side is also fuzzed by Go (FuzzFraming in wasm/worker, make fuzz); workerd
// cannot run inside a Go fuzz target, so this is its side. Run: node --test wasm/worker/e2e/
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { requireBuild, root, skip, startNative, startWorker, watchdog } from "./harness.mjs";

const stopWatchdog = watchdog("worker e2e (framing)");
const envInt = (name, def) => (/^\d+$/.test(process.env[name] ?? "") ? Number(process.env[name]) : def);
const VARIANTS = envInt("FRAMING_VARIANTS", 400);
const SEED = envInt("FRAMING_SEED", 29);

let mf, worker, native, stopNative;

before(async () => {
  if (skip) return;
  requireBuild();
  ({ url: native, stop: stopNative } = await startNative());
  ({ mf, url: worker } = await startWorker());
});

after(async () => {
  if (mf) await mf.dispose();
  if (stopNative) stopNative();
  stopWatchdog();
});

// The methods workerd hands to a worker: wasm/worker/framing.go's workersMethods, which the
// native server answers 501 outside of (the second test checks workerd agrees for each).
const KNOWN = new Set([...readFileSync(path.join(root, "wasm/worker/framing.go"), "utf8")
  .match(/var workersMethods = map\[string\]bool\{([^}]*)\}/)[1].matchAll(/"([A-Z]+)"/g)].map((m) => m[1]));

// ---- raw requests ----

// request is a request's bytes (latin1: each character one byte): the request line, Host, the
// header lines as given, a Content-Length for a body, Connection: close.
function request(method, target, lines = [], body = null) {
  const head = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", ...lines];
  if (body !== null) head.push(`Content-Length: ${Buffer.byteLength(body, "latin1")}`);
  head.push("Connection: close");
  return Buffer.from(head.join("\r\n") + "\r\n\r\n" + (body ?? ""), "latin1");
}

// send writes bytes to base's port, ends its side, and reads the answer: {status, header(name),
// body: Buffer}; {status: 0, note} when none came.
function send(base, bytes, method) {
  return new Promise((resolve) => {
    const s = net.connect(Number(base.port), base.hostname);
    const got = [];
    let done = false;
    const finish = (note) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      const all = Buffer.concat(got);
      resolve(all.length ? parse(all, method) : { status: 0, header: () => null, body: Buffer.alloc(0), note });
    };
    const timer = setTimeout(() => finish("no answer in 30 s"), 30_000);
    s.on("data", (d) => got.push(d));
    s.on("end", () => finish("the connection ended"));
    s.on("close", () => finish("the connection closed"));
    s.on("error", (e) => finish(e.message));
    s.on("connect", () => s.end(bytes));
  });
}

// parse reads the first HTTP/1.1 answer of buf.
function parse(buf, method) {
  const end = buf.indexOf("\r\n\r\n");
  const head = buf.subarray(0, end < 0 ? buf.length : end).toString("latin1").split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]);
  if (!m) return { status: -1, header: () => null, body: buf, note: `not an HTTP answer: ${JSON.stringify(head[0])}` };
  const headers = new Map();
  for (const l of head.slice(1)) {
    const c = l.indexOf(":");
    const k = l.slice(0, c).trim().toLowerCase(), v = l.slice(c + 1).trim();
    headers.set(k, headers.has(k) ? headers.get(k) + ", " + v : v);
  }
  const status = Number(m[1]);
  let rest = end < 0 ? Buffer.alloc(0) : buf.subarray(end + 4);
  if (method === "HEAD" || status === 204 || status === 304) rest = Buffer.alloc(0);
  else if (headers.has("content-length")) rest = rest.subarray(0, Number(headers.get("content-length")));
  else if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
    const out = [];
    for (;;) {
      const e = rest.indexOf("\r\n");
      const n = e < 0 ? 0 : parseInt(rest.subarray(0, e).toString("latin1"), 16);
      if (!n) break;
      out.push(rest.subarray(e + 2, e + 2 + n));
      rest = rest.subarray(e + 2 + n + 2);
    }
    rest = Buffer.concat(out);
  }
  return { status, header: (n) => headers.get(n.toLowerCase()) ?? null, body: rest };
}

// ---- answers ----

// The headers compared between the builds (not Date, Connection and the like, which the runtimes
// set their own way).
const COMPARED = ["content-type", "content-length", "access-control-allow-origin", "allow", "x-content-type-options",
  "access-control-allow-methods", "access-control-allow-headers", "access-control-max-age", "retry-after"];

// fingerprint is what must be equal between the builds, as text.
function fingerprint(a) {
  const h = COMPARED.map((k) => `${k}: ${a.header(k) ?? "-"}`).join("\n");
  return `${a.status}${a.note ? ` (${a.note})` : ""}\n${h}\n${a.body.toString("latin1")}`;
}

const show = (a) => `${a.status}${a.note ? ` (${a.note})` : ""} ${a.header("content-type") ?? "-"} ${a.header("access-control-allow-origin") ? "CORS" : "no CORS"} ${JSON.stringify(a.body.toString("latin1").slice(0, 220))}`;

// Answers a runtime gives before the API's code runs, as measured (README, "Odd requests").
const WORKERD_METHOD = { status: 501, type: "text/plain", cors: false, body: "ERROR: Unrecognized request method." };
const WORKERD_500 = { status: 500, type: null, cors: false, body: "Internal Server Error" };
const WORKERD_400 = { status: 400, type: "text/plain", cors: false, body: "ERROR: Bad Request" }; // CONNECT with a body
const NETHTTP_400 = { status: 400, type: "text/plain; charset=utf-8", cors: false, body: /^400 Bad Request/ };
// The API's JSON error (its message matching message).
const apiError = (status, message) => ({ status, type: "application/json", cors: true, message });

// mismatch says how answer a differs from want ({status, type, cors, body | message}); "" if not.
// An answer to HEAD has no body to check.
function mismatch(a, want, method = "GET") {
  const p = [];
  if (a.status !== want.status) p.push(`status ${a.status}, want ${want.status}`);
  if ((a.header("content-type") ?? null) !== want.type) p.push(`Content-Type ${a.header("content-type")}, want ${want.type}`);
  if ((a.header("access-control-allow-origin") === "*") !== want.cors) p.push(want.cors ? "no CORS header" : "a CORS header");
  const text = a.body.toString("utf8");
  if (method === "HEAD") {
    if (a.body.length) p.push(`a body to HEAD: ${JSON.stringify(text)}`);
    return p.join("; ");
  }
  if (typeof want.body === "string" && text !== want.body) p.push(`body ${JSON.stringify(text)}, want ${JSON.stringify(want.body)}`);
  if (want.body instanceof RegExp && !want.body.test(text)) p.push(`body ${JSON.stringify(text)}, want ${want.body}`);
  if (want.message) {
    let v;
    try {
      v = JSON.parse(text);
    } catch {}
    const keys = v && typeof v === "object" ? Object.keys(v) : [];
    if (keys.length !== 1 || v.error?.code !== "bad_request" || typeof v.error.message !== "string") p.push(`not the API's JSON error: ${JSON.stringify(text)}`);
    else if (!want.message.test(v.error.message)) p.push(`message ${JSON.stringify(v.error.message)}, want ${want.message}`);
  }
  return p.join("; ");
}

const opts = { skip, timeout: 300_000 };
const CT = "Content-Type: application/json";
const PARSE = '{"text":"Cir3"}';
const EVALUATE = '{"template":"Cir1","origin":{"x":0,"y":0,"z":0},"tokens":[{"id":"a","x":1,"y":0}]}';

test("the odd requests of issue 29, 7: one answer in both builds, or the documented difference", opts, async () => {
  // same: the builds answer alike, with status same (and a message matching has); otherwise
  // native and workers are each build's answer; nativeAs: the native answer is its answer to
  // this request (the origin-form twin of an absolute-form target).
  const cases = [
    { name: "an empty Content-Type line, then application/json", req: request("POST", "/v1/parse", ["Content-Type: ", CT], PARSE), same: 200 },
    { name: "Content-Type: application/json, then an empty line", req: request("POST", "/v1/parse", [CT, "Content-Type:"], PARSE), same: 415 },
    { name: "a second Content-Type line", req: request("POST", "/v1/parse", [CT, "Content-Type: text/plain"], PARSE), same: 415 },
    { name: "a 0xff byte in Content-Type", req: request("POST", "/v1/parse", ["Content-Type: application/json\xff"], PARSE), same: 415, has: /application\/json\uFFFD:/ },
    { name: "a cut UTF-8 sequence in Content-Type", req: request("POST", "/v1/parse", ["Content-Type: a\xe2\x82b"], PARSE), same: 415, has: /Content-Type a\uFFFDb:/ },
    { name: "a raw 0xff byte in the path", req: request("GET", "/v1/version\xff"), same: 404, has: /GET \/v1\/version\uFFFD / },
    { name: "a long path cut inside a character", req: request("GET", "/v1/pa" + "\xc4".repeat(200) + "rse"), same: 404 },
    { name: "POST with Upgrade: websocket (workerd hands a GET)", req: request("POST", "/v1/parse", [CT, "Upgrade: websocket"], PARSE), same: 405, has: /^method GET is not allowed on \/v1\/parse/ },
    { name: "DELETE with Upgrade: WebSocket", req: request("DELETE", "/v1/version", ["Upgrade: WebSocket"]), same: 200 },
    { name: "Upgrade: websocket, h2c (as sent)", req: request("POST", "/v1/parse", [CT, "Upgrade: websocket, h2c"], PARSE), same: 200 },
    { name: "a body shorter than its Content-Length", req: Buffer.from(`POST /v1/parse HTTP/1.1\r\nHost: 127.0.0.1\r\n${CT}\r\nContent-Length: 100\r\nConnection: close\r\n\r\n${PARSE}`, "latin1"),
      same: 400, has: /^reading the request body: it ended before its declared length/ },
    { name: "a lower-case method", req: request("get", "/v1/version"), native: apiError(501, /^method get is not implemented/), workers: WORKERD_METHOD },
    { name: "a lower-case POST", req: request("post", "/v1/parse", [CT], PARSE), native: apiError(501, /^method post is not implemented/), workers: WORKERD_METHOD },
    { name: "an unknown method", req: request("FOO", "/v1/parse"), native: apiError(501, /^method FOO is not implemented/), workers: WORKERD_METHOD },
    { name: "M-SEARCH (workerd knows MSEARCH)", req: request("M-SEARCH", "/v1/parse"), native: apiError(501, /not implemented/), workers: WORKERD_METHOD },
    { name: "CONNECT", req: request("CONNECT", "127.0.0.1:80"), native: apiError(501, /^method CONNECT is not implemented/), workers: WORKERD_500 },
    { name: "CONNECT with a body", req: request("CONNECT", "/v1/parse", [CT], PARSE), native: apiError(501, /^method CONNECT is not implemented/), workers: WORKERD_400 },
    { name: "a method workerd knows, not the API's", req: request("PROPFIND", "/v1/parse"), same: 405 },
    { name: "absolute-form", req: request("POST", "http://127.0.0.1/v1/parse", [CT], PARSE), nativeAs: request("POST", "/v1/parse", [CT], PARSE), workers: WORKERD_500 },
    { name: "absolute-form, another host", req: request("GET", "https://example.com/v1/version"), nativeAs: request("GET", "/v1/version"), workers: WORKERD_500 },
    { name: "absolute-form without a path", req: request("GET", "http://example.com"), nativeAs: request("GET", "/"), workers: WORKERD_500 },
    { name: "GET *", req: request("GET", "*"), native: apiError(400, /^the request target \* is not a path/), workers: WORKERD_500 },
    { name: "POST *", req: request("POST", "*", [CT], PARSE), native: apiError(400, /^the request target \* is not a path/), workers: WORKERD_500 },
    { name: "authority-form", req: request("GET", "example.com:80"), native: apiError(400, /is not a path/), workers: WORKERD_500 },
    // OPTIONS * (about the server): an empty 200. net/http answers it itself (wasm/internal/serve does not set
    // DisableGeneralOptionsHandler), and the API answers it alike when handed it (wasm/worker TestOptionsStar);
    // workerd fails on the target "*" before any worker code runs (its 500), so the Workers build cannot agree.
    { name: "OPTIONS *", req: request("OPTIONS", "*"), native: { status: 200, type: null, cors: false, body: "" }, workers: WORKERD_500 },
    // Refused by one runtime or the other before the API's code runs (README, "Odd requests").
    { name: "a relative target", req: request("GET", "v1/version"), native: NETHTTP_400, workers: WORKERD_500 },
    { name: "a bad percent escape (the glue refuses it)", req: request("GET", "/v1/%zz"), native: NETHTTP_400, workers: apiError(400, /not a valid URL path/) },
    { name: "a control byte in a header value", req: request("POST", "/v1/parse", ["Content-Type: a\x01b"], PARSE), native: NETHTTP_400, workers: apiError(415, /unsupported Content-Type a\u0001b/) },
    { name: "a header name of 0xff", req: request("POST", "/v1/parse", [CT, "X-\xff: 1"], PARSE), native: NETHTTP_400, workers: { status: 200, type: "application/json", cors: true, body: /"notation":"Cir3"/ } },
    { name: "Content-Length twice, alike", req: request("POST", "/v1/parse", [CT, `Content-Length: ${PARSE.length}`], PARSE), native: { status: 200, type: "application/json", cors: true, body: /"notation":"Cir3"/ }, workers: WORKERD_500 },
    { name: "a Content-Length of +15", req: Buffer.from(`POST /v1/parse HTTP/1.1\r\nHost: 127.0.0.1\r\n${CT}\r\nContent-Length: +15\r\nConnection: close\r\n\r\n${PARSE}`, "latin1"), native: NETHTTP_400, workers: { status: 200, type: "application/json", cors: true, body: /"notation":"Cir3"/ } },
    { name: "Transfer-Encoding: gzip", req: request("POST", "/v1/parse", [CT, "Transfer-Encoding: gzip"], PARSE), native: { status: 501, type: "text/plain; charset=utf-8", cors: false, body: "Unsupported transfer encoding" }, workers: WORKERD_500 },
    { name: "two Host lines", req: request("GET", "/v1/version", ["Host: x"]), native: NETHTTP_400, workers: WORKERD_500 },
    { name: "HTTP/2.0 in the request line", req: Buffer.from("GET /v1/version HTTP/2.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", "latin1"),
      native: { status: 505, type: "text/plain; charset=utf-8", cors: false, body: /^505 HTTP Version Not Supported/ }, workers: { status: 200, type: "application/json", cors: true, body: /"engine":"aoekit"/ } },
    { name: "Expect: foo", req: request("POST", "/v1/parse", [CT, "Expect: foo"], PARSE), native: { status: 417, type: null, cors: false, body: "" },
      workers: { status: 200, type: "application/json", cors: true, body: /"notation":"Cir3"/ } },
  ];
  const failures = [];
  for (const c of cases) {
    const method = c.req.toString("latin1").split(" ")[0];
    const [n, w] = await Promise.all([send(native, c.req, method), send(worker, c.req, method)]);
    const fail = (what) => failures.push(`${c.name}: ${what}\n  native  ${show(n)}\n  Workers ${show(w)}`);
    if (c.same !== undefined) {
      const m = mismatch(n, { status: c.same, type: "application/json", cors: true, ...(c.same === 200 ? {} : { message: c.has ?? /./ }) });
      if (m) fail(`native: ${m}`);
      if (fingerprint(n) !== fingerprint(w)) fail("the builds differ");
      continue;
    }
    if (c.nativeAs) {
      const twin = await send(native, c.nativeAs, method);
      if (fingerprint(n) !== fingerprint(twin)) fail(`native: not its answer to the path alone (${show(twin)})`);
    } else {
      const m = mismatch(n, c.native);
      if (m) fail(`native: ${m}`);
    }
    const m = mismatch(w, c.workers);
    if (m) fail(`Workers: ${m}`);
  }
  assert.deepEqual(failures, [], failures.join("\n"));
});

// ---- generated framing ----

// rand is mulberry32 seeded by seed and i: one generator a request, so one is made again alone.
function rand(seed, i) {
  let a = (seed * 0x9e3779b1 + i * 0x85ebca6b) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)], chance: (n) => next() * n < 1 };
}

const METHODS_KNOWN = ["POST", "POST", "POST", "GET", "GET", "HEAD", "OPTIONS", "OPTIONS", "PUT", "DELETE", "PATCH", "TRACE", "QUERY", "PROPFIND", "MSEARCH", "PURGE"];
const METHODS_OTHER = ["get", "post", "Post", "gET", "options", "FOO", "M-SEARCH", "BREW", "PRI", "LINK", "CONNECT", "X_Y", "P".repeat(60)];
// Paths, as bytes (latin1): odd ones, raw bytes past ASCII (UTF-8 or not), escapes of them.
const PATHS = ["/v1/parse", "/v1/parse", "/v1/evaluate", "/v1/version", "/v1/nope", "//v1/parse", "/v1/./parse", "/v1/parse?x=1",
  "/v1/version\xff", "/v1/\xc3\xa9", "/v1/pa\xe2\x82rse", "/v1/\xed\xa0\x80", "/v1/\xf0\x9f\x98\x80", "/v1/\xc0\x80", "/v1/%ff",
  "/v1/%C3%A9", "/v1/parse?\xff", "/v1/" + "\xc4".repeat(60), "/v1/" + "\xc3\xa9".repeat(60), "/\xff/../v1/parse"];
// Absolute-form targets, and the path the native server must answer them as.
const ABSOLUTE = [["http://127.0.0.1/v1/parse", "/v1/parse"], ["http://example.com/v1/version", "/v1/version"],
  ["https://x/v1/parse?x=1", "/v1/parse?x=1"], ["http://x", "/"], ["http://x/v1//./parse", "/v1//./parse"], ["HTTP://x/v1/evaluate", "/v1/evaluate"]];
const OTHER_TARGETS = ["*", "example.com:80"];
const CT_NAMES = ["Content-Type", "content-type", "CONTENT-TYPE"];
const CT_VALUES = ["application/json", "application/json", "", " ", "\t", "text/plain", "application/json; charset=utf-8", "application/json\xff",
  "\xff", "text/\xe9", "a\xe2\x82b", "a\xf0\x9f\x98b", "a\xed\xa0\x80b", "a\xc0\x80b", "\xef\xbb\xbfapplication/json", "application/json,",
  "application/json; charset=\xff\xfe", "\xc3\xa9/json", "application/json, text/plain", "\xf4\x90\x80\x80", "\xe0\x80\xaf"];
const EXTRA = ["X-A: \xff", "X-A: ", "X-A: a", "Accept: \xfe\xff", "Origin: https://\xe9", "Origin: https://example.com", "X-Forwarded-For: 1.2.3.4",
  "Access-Control-Request-Method: POST", "Upgrade: websocket", "Upgrade: WebSocket", "Upgrade: h2c"];

// variant i: {method, target, twin (the path of an absolute-form target), lines, body}.
function variant(i) {
  const r = rand(SEED, i);
  const method = r.chance(5) ? r.pick(METHODS_OTHER) : r.pick(METHODS_KNOWN);
  let target, twin;
  const t = r.int(10);
  if (t === 0) [target, twin] = r.pick(ABSOLUTE);
  else if (t === 1 && r.chance(2)) target = r.pick(OTHER_TARGETS);
  else if (method === "POST" && r.chance(1.5)) target = r.pick(["/v1/parse", "/v1/evaluate"]); // to reach the Content-Type check
  else target = r.pick(PATHS);
  const lines = [];
  for (let k = r.pick([0, 1, 1, 1, 2, 2, 3]); k > 0; k--) lines.push(`${r.pick(CT_NAMES)}: ${r.pick(CT_VALUES)}`);
  for (let k = r.int(3); k > 0; k--) lines.splice(r.int(lines.length + 1), 0, r.pick(EXTRA));
  const body = method !== "GET" && method !== "HEAD" && !r.chance(4) ? (target.includes("evaluate") ? EVALUATE : target.includes("parse") ? PARSE : r.pick([PARSE, EVALUATE])) : null;
  return { i, method, target, twin, lines, body };
}

// expected: how the builds answer v: "same", or {native, workers} (native "twin": the native
// answer to its twin request).
function expected(v) {
  if (!KNOWN.has(v.method)) {
    const workers = v.method !== "CONNECT" ? WORKERD_METHOD : v.body !== null ? WORKERD_400 : WORKERD_500;
    return { native: apiError(501, /is not implemented/), workers };
  }
  if (v.target.startsWith("/")) return "same";
  if (v.twin !== undefined) return { native: "twin", workers: WORKERD_500 };
  if (v.target === "*" && v.method === "OPTIONS") return { native: { status: 200, type: null, cors: false, body: "" }, workers: WORKERD_500 };
  return { native: apiError(400, /is not a path/), workers: WORKERD_500 };
}

test(`${VARIANTS} generated framing variants: both builds answer alike, byte for byte`, opts, async () => {
  const failures = [];
  const kinds = new Map();
  let next = 0;
  const one = async (v) => {
    const bytes = request(v.method, v.target, v.lines, v.body);
    const [n, w] = await Promise.all([send(native, bytes, v.method), send(worker, bytes, v.method)]);
    const want = expected(v);
    const kind = want === "same" ? `same ${n.status}` : v.twin !== undefined ? "absolute-form" : KNOWN.has(v.method) ? "not a path" : "unknown method";
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    const what = `#${v.i} ${JSON.stringify(bytes.toString("latin1"))}`;
    if (want === "same") {
      if (n.header("access-control-allow-origin") !== "*") failures.push(`${what}: not the API's answer natively: ${show(n)}`);
      if (fingerprint(n) !== fingerprint(w)) failures.push(`${what}: the builds differ\n  native  ${show(n)}\n  Workers ${show(w)}`);
      return;
    }
    if (want.native === "twin") {
      const twin = await send(native, request(v.method, v.twin, v.lines, v.body), v.method);
      if (fingerprint(n) !== fingerprint(twin)) failures.push(`${what}: native ${show(n)}, not its answer to ${v.twin} ${show(twin)}`);
    } else if (mismatch(n, want.native, v.method)) failures.push(`${what}: native: ${mismatch(n, want.native, v.method)}\n  native  ${show(n)}`);
    if (mismatch(w, want.workers, v.method)) failures.push(`${what}: Workers: ${mismatch(w, want.workers, v.method)}\n  Workers ${show(w)}`);
  };
  const lane = async () => {
    while (next < VARIANTS) await one(variant(next++));
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  const summary = [...kinds].sort().map(([k, n]) => `${k}: ${n}`).join(", ");
  console.log(`framing: ${VARIANTS} variants (seed ${SEED}): ${summary}`);
  assert.deepEqual(failures, [], `${failures.length} of ${VARIANTS}:\n${failures.slice(0, 40).join("\n")}`);
  const same = [...kinds].filter(([k]) => k.startsWith("same")).reduce((s, [, n]) => s + n, 0);
  assert.ok(same >= VARIANTS / 2, `only ${same} of ${VARIANTS} variants reached the API in both builds`);
  // Every method workerd hands over, and some it does not, were sent.
  assert.ok(kinds.get("unknown method") > 0, summary);
});

test("the methods workerd hands to a worker are framing.go's", opts, async () => {
  const failures = [];
  for (const m of [...KNOWN, "M-SEARCH", "BAN", "LINK", "get", "Get", "qUERY"]) {
    const bytes = request(m, "/v1/nowhere");
    const w = await send(worker, bytes, m);
    const handed = w.header("access-control-allow-origin") === "*";
    if (handed !== KNOWN.has(m)) failures.push(`${m}: ${handed ? "handed to the worker" : "refused by workerd"}, ${show(w)}`);
  }
  assert.deepEqual(failures, [], failures.join("\n"));
});
