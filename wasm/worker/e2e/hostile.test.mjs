// Hostile requests against the Workers build (issue 16): build/worker (make worker) runs in workerd
// through miniflare, offline, and gets HOSTILE_REQUESTS requests (300 by default, so that `make
// test` stays fast; HOSTILE_REQUESTS=1000000 for the long run) made by mutating the identity
// corpus (wasm/identity/requests.json) as wasm/api/hostile_test.go does for the native handler —
// bytes flipped, cut, repeated; JSON values replaced by hostile ones; extreme numbers; deep
// nesting; unicode and escapes broken; fields and bodies of another door — and by HTTP twists:
// a wrong, missing or doubled Content-Type, a wrong method, unknown and odd paths, an empty body,
// a body declared longer or shorter than sent, chunked bodies (some malformed), bodies past 1 MiB.
//
// Every answer must be a CONTRACT answer: status 200, 400, 404, 405, 413, 415 or 422 (204 for a
// preflight), Access-Control-Allow-Origin *, a JSON body (none for HEAD), and every error the
// body {"error": {"code", "message"[, "at"]}} with a code the CONTRACT gives for that status and a
// message that is not empty and not an internal error; a twist whose answer is certain (405 for a
// wrong method, 415 for a missing Content-Type, 404 for an unknown path…) must get it. Never a 500,
// a dropped connection, no answer within a minute, or anything the worker writes to the console
// (a Go panic or the Go program's exit shows there); after every HOSTILE_GOOD_EVERY (1 000) requests a good evaluate
// request must still get, byte for byte, the answer it got first. (One exception: a connection
// reset while a body past 64 KB is still being sent, which workerd does after answering without
// reading it; those are counted apart.)
//
// Each request is made from its own generator, seeded by HOSTILE_SEED (16) and its index, so one
// request is reproduced alone with HOSTILE_FROM=<index> HOSTILE_REQUESTS=1 (a violation prints
// that line). HOSTILE_CONCURRENCY (8) requests are in flight at once. A violation is printed as
// soon as it is seen (the first HOSTILE_SHOW_EACH, 3, of each kind) and the run goes on, until
// HOSTILE_MAX_FAILURES (100) kinds or a worker that no longer answers; the test fails at the end.
// It logs the count, the time, the statuses, the error codes and the slowest request.
//
// HOSTILE_COMPARE=native also sends each request to the native server (go build ./wasm/worker)
// and holds the two answers to one another: the same status, compared headers and body, byte for
// byte, but where the README documents a difference (issue 29's campaign: 50 000 requests).
// HOSTILE_SECONDS stops sending after that many seconds (the exact count is logged);
// HOSTILE_PROGRESS sets the seconds between progress lines (60 from 20 000 requests), which
// also give workerd's resident memory.
//
// Run: node --test wasm/worker/e2e/hostile.test.mjs (after make worker; make test runs it with
// the default count); the long run, with its progress as it goes:
// HOSTILE_REQUESTS=1000000 node wasm/worker/e2e/hostile.test.mjs > /tmp/hostile.log 2>&1
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import zlib from "node:zlib";
import { requireBuild, root, skip, startNative, startWorker, watchdog } from "./harness.mjs";

function envInt(name, def) {
  const s = process.env[name];
  if (s === undefined || s === "") return def;
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name}=${s}: want a whole number`);
  return n;
}

const N = envInt("HOSTILE_REQUESTS", 300);
const SEED = envInt("HOSTILE_SEED", 16);
const FROM = envInt("HOSTILE_FROM", 0);
const CONCURRENCY = Math.max(1, envInt("HOSTILE_CONCURRENCY", 8));
const MAX_FAILURES = envInt("HOSTILE_MAX_FAILURES", 100);
const PROGRESS_S = envInt("HOSTILE_PROGRESS", N >= 20000 ? 60 : 0); // seconds between progress lines; 0: none
const BUDGET_S = envInt("HOSTILE_SECONDS", 0); // stop sending after this many seconds (0: no limit); the count is logged
const COMPARE = process.env.HOSTILE_COMPARE === "native"; // also send each request to the native server, and compare
const GOOD_EVERY = Math.max(1, envInt("HOSTILE_GOOD_EVERY", 1000)); // a good request after every this many
const REQUEST_TIMEOUT_MS = 60_000;
const TIME_LIMIT_MS = 5 * 60_000 + N * 30; // 5 minutes, and 30 ms a request
const MAX_BODY = 1 << 20;
const MAX_CHUNKS = 1000; // in a chunked body of the random mix
const RAW_ABOVE = 32 << 10; // bodies larger than this are sent on a connection of their own

const stopWatchdog = watchdog("worker e2e (hostile)", TIME_LIMIT_MS + 60_000);

// ---- what an answer may be ----

const RULE_CODES = ["out_of_range", "no_line_of_effect", "invalid_wall", "not_straight", "no_attack_left", "hand_busy",
  "needs_quick_draw", "not_ranged", "not_declared"];
// The CONTRACT's codes for each status the Workers build may answer (CONTRACT, Errors).
const CODES = {
  400: ["bad_notation", "bad_request", "too_large"],
  404: ["bad_request"],
  405: ["bad_request"],
  413: ["too_large"],
  415: ["bad_request"],
  422: RULE_CODES,
};

const ROUTES = { parse: "/v1/parse", evaluate: "/v1/evaluate", move: "/v1/move", cover: "/v1/cover", "full-attack": "/v1/full-attack" };
const DOORS = Object.keys(ROUTES);
const GOOD = '{"template": "Cir2", "origin": {"x": 3, "y": 3, "z": 0}, "tokens": [{"id": "a", "x": 4, "y": 3}], "obstacles": [{"x": 4, "y": 2}]}';

// What workerd itself logs for a request the worker is right to refuse: a malformed chunked body
// (the worker's read fails and it answers 400; an empty chunk-size line is "expected text.size() >
// 0"). Anything else on the runtime's console fails; a stack trace's lines go with the line before.
//
// Not sent: requests workerd's own HTTP server refuses before any worker runs, with a plain-text
// answer that is workerd's, not the API's — two Content-Length headers (even equal ones) or a
// Transfer-Encoding other than chunked (500), CONNECT, an absolute-form or "*" target (500), a
// method that is not a token workerd knows (501), headers past its limit (431), HTTP/1.0 without
// Host (400). Cloudflare's edge answers those in production.
const EXPECTED_LOG = [/invalid HTTP chunk size/, /failed: expected text\.size\(\) > 0/];

// ---- the generator: sfc32, seeded per request from (HOSTILE_SEED, index) ----

function fmix32(h) {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

class Rand {
  constructor(seed, index) {
    let s = fmix32(fmix32(seed + 0x9e3779b9) ^ index);
    const next = () => (s = fmix32((s + 0x6d2b79f5) >>> 0));
    this.a = next(); this.b = next(); this.c = next(); this.d = next() | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }
  u32() {
    let { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    Object.assign(this, { a, b, c, d });
    return t >>> 0;
  }
  intN(n) { return Math.floor((this.u32() / 4294967296) * n); }
  pick(a) { return a[this.intN(a.length)]; }
  chance(n) { return this.intN(n) === 0; } // 1 in n
  // weighted picks one [name, weight] pair's name.
  weighted(pairs) {
    let total = 0;
    for (const [, w] of pairs) total += w;
    let x = (this.u32() / 4294967296) * total;
    for (const [name, w] of pairs) if ((x -= w) < 0) return name;
    return pairs[pairs.length - 1][0];
  }
}

// ---- the corpus, with each body's text as written in requests.json ----

function loadCorpus() {
  const text = readFileSync(path.join(root, "wasm/identity/requests.json"), "utf8");
  const entries = JSON.parse(text);
  const lines = text.split("\n").filter((l) => l.includes('"body":'));
  return entries
    .map((e, i) => {
      let raw = JSON.stringify(e.body);
      const m = lines.length === entries.length ? /"body":\s*(.*)\},?\s*$/.exec(lines[i]) : null;
      if (m) {
        try {
          if (isDeepStrictEqual(JSON.parse(m[1]), e.body)) raw = m[1];
        } catch {}
      }
      return { name: e.name, door: e.door, body: Buffer.from(raw, "utf8") };
    })
    .filter((e) => ROUTES[e.door]);
}

// ---- body mutations (wasm/api/hostile_test.go's mutate, and more) ----

function parse(b) {
  try {
    return { ok: true, v: JSON.parse(b.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}
const json = (v) => Buffer.from(JSON.stringify(v), "utf8");

// replaceFirst replaces the first count occurrences of from in b.
function replaceFirst(b, from, to, count = 1) {
  from = Buffer.from(from, "latin1");
  to = Buffer.isBuffer(to) ? to : Buffer.from(to, "latin1");
  const parts = [];
  let at = 0;
  for (let k = 0; k < count; k++) {
    const i = b.indexOf(from, at);
    if (i < 0) break;
    parts.push(b.subarray(at, i), to);
    at = i + from.length;
  }
  parts.push(b.subarray(at));
  return Buffer.concat(parts);
}

function insertAt(b, i, x) {
  return Buffer.concat([b.subarray(0, i), Buffer.isBuffer(x) ? x : Buffer.from(x, "latin1"), b.subarray(i)]);
}

// quotes are the offsets of the byte " in b.
function quotes(b) {
  const q = [];
  for (let i = b.indexOf(34); i >= 0; i = b.indexOf(34, i + 1)) q.push(i);
  return q;
}

// hostile values, the Go test's and more (fresh each time: the mutations change them in place).
const hostileValues = () => [
  null, true, -1, 0.5, 1e300, -1e300, 2147483648, "", "x", "Cir1000000", "y".repeat(10000), [], {}, [1, 2, 3, 4], [[[]]], { x: "1" },
  false, 0, -0.5, 2147483647, -2147483648, -2147483649, 1000000, 1000001, -1000001, 1000, 1001, 4294967296, 1e-300,
  "Cir1000", "Con1000NE", "1000 cube within 1000", "\u0000", "😀".repeat(100), { x: 1000000, y: -1000000, z: 1000000 },
  [1000000, 1000000, 1000000], [[0, 0, 0], [1000000, 1000000, 1000000]], { id: "a", x: 1, y: 1 }, [{ id: "a" }, { id: "a" }],
  { "": "" }, JSON.parse('{"__proto__": 1, "constructor": "x"}'), Array(70).fill(0), "a".repeat(65), { min: [0, 0, 0], max: [1000000, 1000000, 1000000] },
];

// replaceAt replaces one value somewhere in v by x(): the value itself, or one inside it.
function replaceAt(r, v, x) {
  if (Array.isArray(v)) {
    if (v.length === 0 || r.chance(4)) return x();
    const i = r.intN(v.length);
    v[i] = replaceAt(r, v[i], x);
    return v;
  }
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v);
    if (keys.length === 0 || r.chance(4)) return x();
    const k = r.pick(keys);
    if (r.chance(8)) delete v[k];
    else v[k] = replaceAt(r, v[k], x);
    return v;
  }
  return x();
}
const replaceOne = (r, v) => replaceAt(r, v, () => r.pick(hostileValues()));

// placeRaw puts the JSON text raw where a value was (anywhere, if b is not JSON).
const SENTINEL = "\u0000hostile\u0000";
function placeRaw(r, b, raw) {
  const p = parse(b);
  if (!p.ok) return insertAt(b, r.intN(b.length + 1), raw);
  const text = JSON.stringify(replaceAt(r, p.v, () => SENTINEL));
  return Buffer.from(text.replace(JSON.stringify(SENTINEL), () => raw), "utf8");
}

// strings in v: [holder, key] pairs.
function stringSlots(v, out = []) {
  if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) {
      if (typeof v[k] === "string") out.push([v, k]);
      else stringSlots(v[k], out);
    }
  }
  return out;
}
function arraySlots(v, out = []) {
  if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) {
      if (Array.isArray(v[k]) && v[k].length > 0) out.push([v, k]);
      arraySlots(v[k], out);
    }
  }
  return out;
}
function objectKeys(v, out = []) {
  if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) {
      if (!Array.isArray(v)) out.push([v, k]);
      objectKeys(v[k], out);
    }
  }
  return out;
}

const EXTREME = ["1e308", "-1e308", "1e-320", "2147483648", "-2147483649", "18446744073709551616", "0.5", "-0", "1E400",
  "2147483647", "-2147483648", "1000000", "1000001", "-1000001", "1e6", "1.0", "0e0", "9".repeat(400), "1e999999999",
  "4294967296", "9007199254740993", "1001", "250001", "1048577", "33554433", "-1", "0"];
const BAD_NUMBERS = ["01", "1.", ".5", "+1", "1e", "1e+", "-", "0x10", "NaN", "Infinity", "-Infinity", "1_000", "١", "１", "--1", "1e1e1"];
const UNICODE_STRINGS = ["Cir３", "Сir3", "Cir3\u200b", "\u202eCir3", "Cir3\u0301", "😀".repeat(1000), "\ufeffCir3", "Cir3\u0000",
  "\ud800", "\udfff", "\ud83d\ude00", "ǅ", "İ", "ß".repeat(300), "\u2028\u2029", "Ｃｉｒ３", "𝐂𝐢𝐫𝟑", "cir3\t\n\r", "a\u0000b".repeat(100)];
const BAD_UTF8 = [[0xff], [0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98],
  [0xc3], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xef, 0xbf, 0xbf], [0x00], [0x01], [0x0a], [0x1f], [0x7f]];
const BAD_ESCAPES = ["\\u", "\\u12", "\\uZZZZ", "\\x41", "\\'", "\\\n", "\\udc00", "\\ud83d", "\\ud83d\\ude00", "\\ud800\\ud800", "\\",
  "\\\\\\", "\\U0041", "\\u00", "\\0", "\\a", "\\/", "\\b\\f\\n\\r\\t", "\\u0000"];
const NOTATIONS = ["Cir1000", "Cir1001", "Cir0", "Cir-1", "Cir1e3", "Con1000NE", "Lin1000", "Lin1000x1000", "Squ1000", "Cyl1000h1000",
  "Cir1000h1000", "1000 cube within 1000", "1001 burst", "3 cube within 10", "Cir" + "9".repeat(400), "Cir3".repeat(3000), "C", "",
  " ", "Cir3h", "Cir3h0", "Cir3h1001", "Con4NNE", "Con4ne", "1000 wall within 1000", "10 x 1000 line within 1000", "1000 aura",
  "1000 burst", "Cir 3", "3", "Con", "Cir3 Cir3", "Cir2147483648", "Cir4294967299", "Cir99999999999999999999"];

// notationLike mutates a parse text of the corpus: digit runs made extreme, characters dropped or doubled.
function notationLike(r, texts) {
  let s = r.pick(texts);
  switch (r.intN(4)) {
    case 0: return s.replace(/\d+/g, () => r.pick(["0", "1000", "1001", "99999999999", "2147483648", "-1", "1000000", "500", "501"]));
    case 1: { const i = r.intN(s.length + 1); return s.slice(0, i) + s.slice(i + 1); }
    case 2: { const i = r.intN(s.length + 1); return s.slice(0, i) + s.slice(i, i + 1).repeat(2 + r.intN(500)) + s.slice(i + 1); }
    default: return s.toUpperCase() + " " + r.pick(texts).toLowerCase();
  }
}

const MUTATIONS = [
  ["flip", 2, (r, b) => { // bytes flipped
    b = Buffer.from(b);
    for (let k = 1 + r.intN(4); k > 0; k--) if (b.length > 0) b[r.intN(b.length)] = r.intN(256);
    return b;
  }],
  ["cut", 2, (r, b) => (b.length > 0 ? b.subarray(0, r.intN(b.length)) : b)],
  ["value", 2, (r, b) => { // a value replaced
    const p = parse(b);
    return p.ok ? json(replaceOne(r, p.v)) : b;
  }],
  ["values", 2, (r, b) => { // several values replaced
    const p = parse(b);
    if (!p.ok) return b;
    let v = p.v;
    for (let k = 2 + r.intN(6); k > 0; k--) v = replaceOne(r, v);
    return json(v);
  }],
  ["repeat", 1, (r, b) => { // a slice repeated
    if (b.length <= 2) return b;
    let i = r.intN(b.length), j = r.intN(b.length);
    if (i > j) [i, j] = [j, i];
    const rep = Buffer.concat(Array(1 + r.intN(8)).fill(b.subarray(i, j)));
    return Buffer.concat([b.subarray(0, j), rep, b.subarray(j)]);
  }],
  ["numbers", 2, (r, b) => { // numbers made extreme
    switch (r.intN(3)) {
      case 0: // as the Go test: the first "1" replaced, word after word
        for (const w of EXTREME) if (r.chance(3)) b = replaceFirst(b, "1", w);
        return b;
      case 1: { // one number, anywhere (in notation too), made extreme or malformed
        const s = b.toString("latin1");
        const nums = [...s.matchAll(/-?\d+(\.\d+)?([eE][+-]?\d+)?/g)];
        if (nums.length === 0) return b;
        const m = r.pick(nums);
        const w = r.chance(3) ? r.pick(BAD_NUMBERS) : r.pick(EXTREME);
        return Buffer.concat([b.subarray(0, m.index), Buffer.from(w, "utf8"), b.subarray(m.index + m[0].length)]);
      }
      default: // a value replaced by a malformed number
        return placeRaw(r, b, r.pick(BAD_NUMBERS));
    }
  }],
  ["nest", 1, (r, b) => { // deep nesting
    switch (r.intN(4)) {
      case 0: { const d = 10 + r.intN(200); return Buffer.concat([Buffer.from("[".repeat(d)), b, Buffer.from("]".repeat(d))]); }
      case 1: { const d = 10 + r.intN(200); return Buffer.concat([Buffer.from('{"a":'.repeat(d)), b, Buffer.from("}".repeat(d))]); }
      case 2: { // a value nested around the limit of 64 levels, or far past it
        const d = r.chance(2) ? 55 + r.intN(20) : 100 + r.intN(300000);
        const inner = r.pick(["", "1", "{}", '{"x":1}']);
        return r.chance(2) ? placeRaw(r, b, "[".repeat(d) + inner + "]".repeat(d)) : placeRaw(r, b, '{"a":'.repeat(d) + (inner || "1") + "}".repeat(d));
      }
      default: { // never closed
        const d = 1 + r.intN(400000);
        return r.chance(2) ? Buffer.concat([b, Buffer.from("[".repeat(d))]) : Buffer.concat([Buffer.from("[".repeat(d)), b]);
      }
    }
  }],
  ["door", 1, (r, b, ctx) => { // fields of another door's request
    switch (r.intN(4)) {
      case 0: return replaceFirst(b, '"tokens"', '"steps"'); // as the Go test
      case 1: { // a key renamed to one of another door's
        const p = parse(b);
        if (!p.ok) return b;
        const slots = objectKeys(p.v);
        if (slots.length === 0) return b;
        const [o, k] = r.pick(slots);
        const nk = r.pick(ctx.keys);
        const val = o[k];
        delete o[k];
        o[nk] = val;
        return json(p.v);
      }
      case 2: { // fields of another request added (or overwriting)
        const p = parse(b), q = parse(r.pick(ctx.corpus).body);
        if (!p.ok || !q.ok || typeof p.v !== "object" || p.v === null || Array.isArray(p.v)) return b;
        for (const k of Object.keys(q.v)) if (r.chance(2)) p.v[k] = q.v[k];
        return json(p.v);
      }
      default: { // the start of this body, the end of another's
        const o = r.pick(ctx.corpus).body;
        return Buffer.concat([b.subarray(0, r.intN(b.length + 1)), o.subarray(r.intN(o.length + 1))]);
      }
    }
  }],
  ["unicode", 2, (r, b) => { // unicode and escapes
    const q = quotes(b);
    switch (r.intN(8)) {
      case 0: return replaceFirst(b, '"', '"\\ud800\\u0000', 1 + r.intN(3)); // as the Go test
      case 1: return q.length ? insertAt(b, r.pick(q) + 1, Buffer.from(r.pick(BAD_UTF8))) : b;
      case 2: return q.length ? insertAt(b, r.pick(q) + 1, r.pick(BAD_ESCAPES)) : b;
      case 3: { // a string value replaced by a strange one
        const p = parse(b);
        const slots = p.ok ? stringSlots(p.v) : [];
        if (slots.length === 0) return b;
        const [o, k] = r.pick(slots);
        o[k] = r.chance(2) ? r.pick(UNICODE_STRINGS) : o[k] + r.pick(UNICODE_STRINGS);
        return json(p.v);
      }
      case 4: return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]); // a byte-order mark
      case 5: { // UTF-16
        const u = Buffer.from(b.toString("utf8"), "utf16le");
        return r.chance(2) ? Buffer.concat([Buffer.from([0xff, 0xfe]), u]) : u;
      }
      case 6: { // every character of the strings escaped (\uXXXX): the same JSON
        const p = parse(b);
        if (!p.ok) return b;
        return Buffer.from(JSON.stringify(p.v).replace(/"((?:[^"\\]|\\.)*)"/g, (_, s) =>
          '"' + JSON.parse('"' + s + '"').split("").map((c) => {
            const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
            return "\\u" + (r.chance(2) ? hex.toUpperCase() : hex);
          }).join("") + '"'), "utf8");
      }
      default: { // a key or value made of escapes that decode to quotes, backslashes and controls
        return placeRaw(r, b, r.pick(['"\\"\\\\\\u0022"', '"\\u005c"', '"\\u0000\\u001f"', '"\\ud800"', '"\\udbff\\udfff"', '"\\"}"']));
      }
    }
  }],
  ["syntax", 2, (r, b) => { // JSON's syntax bent
    switch (r.intN(9)) {
      case 0: { // a key twice, the first with a hostile value
        const p = parse(b);
        const keys = p.ok && p.v && typeof p.v === "object" && !Array.isArray(p.v) ? Object.keys(p.v) : [];
        if (keys.length === 0) return b;
        const i = b.indexOf(123);
        return insertAt(b, i + 1, Buffer.from(`${JSON.stringify(r.pick(keys))}: ${JSON.stringify(r.pick(hostileValues()))}, `, "utf8"));
      }
      case 1: return Buffer.concat([b, Buffer.from(r.pick([" {}", "x", ",", "]", "}", "\u0000", "null", " ".repeat(1 + r.intN(1000)), "\n", b.toString("latin1")]), "latin1")]);
      case 2: return Buffer.concat([Buffer.from(r.pick(["\u00a0", "\v", "\f", " \t\r\n", "//c\n", "/*c*/", "\u0000", ")]}'\n", "\u2028"]), "utf8"), b]);
      case 3: return r.chance(2) ? replaceFirst(b, "}", ",}") : replaceFirst(b, "]", ",]");
      case 4: return Buffer.from(b.toString("latin1").replaceAll('"', "'"), "latin1");
      case 5: return placeRaw(r, b, r.pick(["NaN", "Infinity", "-Infinity", "undefined", "True", "tru", "nul", "'x'", "x", "", ",", ":", "{", "]", "1 2", "[,]", "{,}", '{"a"}', '{"a":}', "[1,,2]"]));
      case 6: return Buffer.from(r.pick(["[]", "null", '"x"', "1", "true", "[{}]", '""', "{}", " ", "\n", "0", "-", "[" + b.toString("latin1") + "]"]), "latin1");
      case 7: { // a comment after a comma
        const i = b.indexOf(44);
        return i < 0 ? b : insertAt(b, i + 1, r.pick(["/*x*/", "//x\n", "#x\n"]));
      }
      default: { // a byte deleted, inserted or two swapped
        if (b.length < 2) return b;
        b = Buffer.from(b);
        const i = r.intN(b.length), j = r.intN(b.length);
        switch (r.intN(3)) {
          case 0: return Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
          case 1: return insertAt(b, i, r.pick(["{", "}", "[", "]", ",", ":", '"', "\\", " ", "-", "0", "e"]));
          default: [b[i], b[j]] = [b[j], b[i]]; return b;
        }
      }
    }
  }],
  ["strings", 2, (r, b, ctx) => { // a string made hostile notation, or any other text
    const p = parse(b);
    const slots = p.ok ? stringSlots(p.v) : [];
    if (slots.length === 0) return b;
    const [o, k] = r.pick(slots);
    o[k] = r.chance(2) ? r.pick(NOTATIONS) : notationLike(r, ctx.texts);
    return json(p.v);
  }],
  ["grow", 0.05, (r, b) => { // an array grown, past the limits at times (bodies past 1 MiB included)
    const p = parse(b);
    const slots = p.ok ? arraySlots(p.v) : [];
    if (slots.length === 0) return b;
    const [o, k] = r.pick(slots);
    const a = o[k];
    const n = r.pick([64, 65, 100, 1000, 1001, 10000, 10001, 30000, 100001]);
    const grown = [];
    for (let i = 0; i < n; i++) {
      let e = structuredClone(a[i % a.length]);
      if (e && typeof e === "object" && !Array.isArray(e)) {
        if (typeof e.x === "number") e.x += i % 1000;
        if (typeof e.y === "number") e.y += Math.floor(i / 1000);
        if (typeof e.id === "string") e.id += i;
      }
      grown.push(e);
    }
    o[k] = grown;
    return json(p.v);
  }],
];

// ---- HTTP twists ----

const CT_415 = [null, "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
  "application/json, text/plain", "text/plain, application/json", "application/jsonx", "application/xml", "application/json; charset=latin1",
  "application/json; charset=utf-16", "json", "*/*", "application/*", "application/json; foo=bar", "application/vnd.api+json"];
const CT_ANY = ["APPLICATION/JSON", "application/json;charset=UTF-8", "application/json ; charset=utf-8", 'application/json; charset="utf-8"',
  "application/json;", "application/json; charset=", "application/json; charset=utf-8; charset=latin1", "application/json\t",
  "application/json; " + "a=b;".repeat(1000), "application/json; charset=utf-8, application/json", "", ";", "/", "application/", "a".repeat(8000)];
const METHODS = ["GET", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND", "PURGE", "SEARCH", "LOCK", "MKCOL", "REPORT", "QUERY", "TRACE"];
const ODD_PATHS = ["//v1/D", "/v1//D", "///v1///D", "/v1/./D", "/./v1/D", "/v1/x/../D", "/../v1/D", "/%2e%2e/v1/D", "/v1/%2E/D",
  "/v1/x/.%2e/D", "/v1\\D", "/v1/D/", "/v1/D//", "/v1/D/.", "/v1/D/..", "/v1/D/x/..", "/a//..", "/..", "/v1/..", "/v1%2FD",
  "/v1%2F.%2FD", "/v1/D%2F", "/v1/D?x=1", "//v1/D?x=1", "/v1/%zz", "/v1/D%", "/v1/D%ff%fe", "/v1/%00D", "/%2F%2Fv1/D", "/v1/D;x",
  "/v1/D#x", "/v1/D%23x", "/" + "./".repeat(5000) + "v1/D", "/" + "x/../".repeat(3000) + "v1/D", "/v1/" + "%41".repeat(5000),
  "/v1/D\u00ff", "/v1/D\u0080", "/v1/\u00c3\u00a9D", "/V1/D", "/v1/D%20", "/v1/%44"];
const UNKNOWN_PATHS = ["/v1/Dx", "/v2/D", "/V1/D", "/v1/UPPER", "/D", "/v1/D.json", "/api/v1/D", "/v1", "/", "/v1/", "/favicon.ico",
  "/v1/D/x", "/v1/D%00", "/v1/D/%00", "/v1/D%20x", "/v1/" + "a".repeat(20000), "/v1/D-", "/v1/D_", "/%76%31/x", "/v1/version/x"];

const TWISTS = [
  ["content-type", 3], ["method", 3], ["unknown-path", 2], ["odd-path", 2], ["query", 1], ["empty-body", 1], ["declared-longer", 1],
  ["declared-shorter", 1], ["chunked", 1], ["bad-chunked", 0.3], ["dup-content-type", 0.5], ["odd-headers", 1], ["version-post", 0.5],
  ["oversize", 0.02],
];

// generate makes request i: {i, label, method, path, headers: [[name, value]], body, raw, expect, ...}.
function generate(i, ctx) {
  const r = new Rand(SEED, i);
  const e = r.pick(ctx.corpus);
  let door = e.door;
  if (r.chance(5)) door = r.pick(DOORS); // sent to another door
  const req = { i, entry: e.name, door, method: "POST", path: ROUTES[door], headers: [["content-type", "application/json"]], raw: false };
  const twist = r.chance(4) ? r.weighted(TWISTS) : null;
  let body = e.body, mutation = "none";
  if (!twist || r.chance(2)) {
    mutation = r.weighted(MUTATIONS.map(([name, w]) => [name, w]));
    body = MUTATIONS.find(([name]) => name === mutation)[2](r, body, ctx);
  }
  req.body = body;
  req.label = `${e.name} → ${door}: ${mutation}${twist ? ", " + twist : ""}`;
  const ctHeader = (v) => (req.headers = v === null ? [] : [["content-type", v]]);
  switch (twist) {
    case "content-type":
      if (r.chance(2)) {
        ctHeader(r.pick(CT_415));
        req.expect = 415;
      } else ctHeader(r.pick(CT_ANY));
      break;
    case "method":
      req.method = r.pick(METHODS);
      req.expect = req.method === "OPTIONS" ? 204 : 405;
      if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") req.body = null;
      if (req.method === "TRACE" || (r.chance(4) && req.method === "GET")) { // fetch refuses TRACE, and a GET with a body
        req.raw = true;
        if (req.method === "GET") req.body = body;
      }
      break;
    case "unknown-path":
      req.path = r.pick(UNKNOWN_PATHS).replace("UPPER", door.toUpperCase()).replace("D", door);
      req.expect = 404;
      req.raw = r.chance(2);
      break;
    case "odd-path":
      req.path = r.pick(ODD_PATHS).replace("D", door);
      req.raw = true; // fetch would make them canonical first
      break;
    case "query":
      req.path += "?" + r.pick(["x=1", "", "?", "a=" + "%".repeat(100), "&&&", "text=Cir1000", "=".repeat(1000), "%zz", "x=" + "y".repeat(10000)]);
      break;
    case "empty-body":
      req.body = Buffer.alloc(0);
      req.expect = 400;
      break;
    case "declared-longer": // the client stops sending before the declared length
      req.raw = true;
      req.declared = body.length + 1 + r.intN(1000);
      if (r.intN(3) === 0) req.declared = r.pick([1e15, 1e16, 999999999999999999, 10 ** (16 + r.intN(3))]); // past 15 digits: the glue once waited for the body
      req.expect = req.declared > MAX_BODY ? 413 : 400; // a declared length past 1 MiB is refused unread
      break;
    case "declared-shorter": // the rest is sent after the body, as the next request would be
      req.raw = true;
      req.declared = r.intN(body.length + 1);
      break;
    case "chunked":
      req.raw = true;
      req.chunked = true;
      break;
    case "bad-chunked":
      req.raw = true;
      req.chunked = true;
      req.badChunk = r.pick(["zz", "-1", "0x5", " 5", "5 5", "", "fffffffffffffffffffff", "5;" + "x".repeat(100)]);
      // A size no parser reads fails the read: 400 (past 1 MiB a 413 may come first). The others
      // may be read leniently, or be right by chance ("5;x…" is a chunk extension).
      if (body.length <= MAX_BODY && ["zz", "-1", "", "fffffffffffffffffffff"].includes(req.badChunk)) req.expect = 400;
      break;
    case "dup-content-type":
      req.raw = true;
      req.headers = [["content-type", "application/json"], ["content-type", r.pick(["text/plain", "application/json"])]];
      req.expect = 415;
      break;
    case "odd-headers": // headers a client should not send, and bytes outside ASCII in Content-Type
      req.raw = true;
      req.headers = [["content-type", r.pick(["application/json", "application/json\u00ff", "application/json; charset=utf-8\u0080", "\u00e9"])]];
      for (const h of [["content-encoding", "gzip"], ["expect", "100-continue"], ["x-forwarded-for", "1.2.3.4"], ["origin", "https://evil.example"],
        ["accept", "text/html"], ["accept-encoding", "br, gzip"], ["range", "bytes=0-1"], ["cf-connecting-ip", "::1"],
        ["x-http-method-override", "DELETE"], ["cookie", "a=" + "b".repeat(4000)], ["upgrade", "websocket"]]) {
        if (r.chance(3)) req.headers.push(h);
      }
      break;
    case "version-post":
      req.path = "/v1/version";
      req.expect = 405;
      break;
    case "oversize": { // past 1 MiB: spaces after the JSON
      req.raw = true;
      req.body = Buffer.concat([body, Buffer.alloc(MAX_BODY + 1 - body.length + r.intN(100000), " ")]);
      req.chunked = r.chance(2);
      req.expect = 413;
      break;
    }
  }
  // A body the worker may leave unread (a 404, 405, 413 or 415 is answered before reading it) is
  // drained by workerd up to some 64 KB; past that it drops the connection, and fetch's pool
  // would send the next request on a connection that is reset. Larger bodies go on their own.
  if (req.body && req.body.length > RAW_ABOVE) req.raw = true;
  if (req.chunked) { // chunk sizes, at most MAX_CHUNKS of them (see the slow-body test below)
    const most = Math.max(r.pick([1, 7, 100, 4096, 65536]), Math.ceil((2 * req.body.length) / MAX_CHUNKS));
    req.chunkSizes = [];
    for (let left = req.body.length; left > 0; ) {
      const n = Math.min(left, 1 + r.intN(most));
      req.chunkSizes.push(n);
      left -= n;
    }
  }
  return req;
}

// ---- sending ----

async function sendFetch(base, req) {
  const init = { method: req.method, headers: req.headers, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  if (req.body !== null) init.body = req.body;
  const res = await fetch(base.origin + req.path, init);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, header: (n) => res.headers.get(n), body };
}

function rawRequest(base, req) {
  const head = [`${req.method} ${req.path} HTTP/1.1`, `host: ${base.host}`, "connection: close"];
  for (const [k, v] of req.headers) head.push(`${k}: ${v}`);
  const parts = [];
  const body = req.body ?? Buffer.alloc(0);
  if (req.chunked) {
    head.push("transfer-encoding: chunked");
    const chunks = [];
    let at = 0;
    for (const n of req.chunkSizes) {
      chunks.push(body.subarray(at, at + n));
      at += n;
    }
    chunks.forEach((c, k) => {
      const size = req.badChunk !== undefined && k === Math.floor(chunks.length / 2) ? req.badChunk : c.length.toString(16);
      parts.push(Buffer.from(size + "\r\n", "latin1"), c, Buffer.from("\r\n"));
    });
    if (req.badChunk !== undefined && chunks.length === 0) parts.push(Buffer.from(req.badChunk + "\r\n"));
    parts.push(Buffer.from("0\r\n\r\n"));
  } else if (req.body !== null) {
    head.push(`content-length: ${req.declared ?? body.length}`);
    parts.push(body);
  }
  return Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n", "latin1"), ...parts]);
}

// parseResponse reads one HTTP/1.1 response from bytes; null while it is incomplete.
function parseResponse(buf, method, ended) {
  const end = buf.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString("latin1").split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!m) return { status: -1, header: () => null, body: buf, note: `not an HTTP answer: ${JSON.stringify(lines[0])}` };
  const headers = new Map();
  for (const l of lines.slice(1)) {
    const c = l.indexOf(":");
    const k = l.slice(0, c).trim().toLowerCase(), v = l.slice(c + 1).trim();
    headers.set(k, headers.has(k) ? headers.get(k) + ", " + v : v);
  }
  const status = Number(m[1]);
  let rest = buf.subarray(end + 4);
  const res = { status, header: (n) => headers.get(n.toLowerCase()) ?? null, body: Buffer.alloc(0) };
  if (method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    if (status === 100) return parseResponse(rest, method, ended); // Expect: 100-continue
    return res;
  }
  if (headers.has("content-length")) {
    const n = Number(headers.get("content-length"));
    if (rest.length < n) return ended ? { ...res, body: rest, note: `body cut at ${rest.length} of ${n} bytes` } : null;
    res.body = rest.subarray(0, n);
    return decoded(res, headers);
  }
  if (/chunked/i.test(headers.get("transfer-encoding") ?? "")) {
    const out = [];
    for (;;) {
      const e = rest.indexOf("\r\n");
      if (e < 0) return ended ? { ...res, note: "chunked body cut" } : null;
      const n = parseInt(rest.subarray(0, e).toString("latin1"), 16);
      if (rest.length < e + 2 + n + 2) return ended ? { ...res, note: "chunked body cut" } : null;
      if (n === 0) break;
      out.push(rest.subarray(e + 2, e + 2 + n));
      rest = rest.subarray(e + 2 + n + 2);
    }
    res.body = Buffer.concat(out);
    return decoded(res, headers);
  }
  if (!ended) return null;
  res.body = rest;
  return decoded(res, headers);
}

// decoded undoes the Content-Encoding workerd chose for a client that accepts one (fetch does so
// itself).
function decoded(res, headers) {
  const enc = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  try {
    if (enc === "gzip") res.body = zlib.gunzipSync(res.body);
    else if (enc === "br") res.body = zlib.brotliDecompressSync(res.body);
    else if (enc === "deflate") res.body = zlib.inflateSync(res.body);
    else if (enc !== "" && enc !== "identity") res.note = `Content-Encoding ${enc}`;
  } catch (e) {
    res.note = `a body that is not ${enc}: ${e.message}`;
  }
  return res;
}

function sendRaw(base, req) {
  const bytes = rawRequest(base, req);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(base.port), base.hostname);
    const got = [];
    let done = false;
    const finish = (f) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      f();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS / 1000} s`))), REQUEST_TIMEOUT_MS);
    s.on("data", (d) => {
      got.push(d);
      const res = parseResponse(Buffer.concat(got), req.method, false);
      if (res) finish(() => resolve(res));
    });
    const onEnd = (err) => {
      const all = Buffer.concat(got);
      const res = all.length ? parseResponse(all, req.method, true) : null;
      if (res) finish(() => resolve(res));
      else finish(() => reject(new Error(`the connection ended with no answer${err ? ": " + err.message : ""}${all.length ? ": " + JSON.stringify(all.toString("latin1").slice(0, 200)) : ""}`)));
    };
    s.on("end", () => onEnd());
    s.on("close", () => onEnd());
    s.on("error", (err) => {
      // Writing may fail once workerd answered and closed (a body it does not read to the end).
      if (got.length) onEnd(err);
      else finish(() => reject(err));
    });
    s.on("connect", () => s.end(bytes)); // the request, then end of input: a short body ends here
  });
}

// ---- checking an answer ----

const utf8 = new TextDecoder("utf-8", { fatal: true });

function check(req, res) {
  const p = [];
  if (res.note) p.push(res.note);
  const allowed = req.method === "OPTIONS" ? [204, 404] : [200, 400, 404, 405, 413, 415, 422];
  if (!allowed.includes(res.status)) p.push(`status ${res.status} is not one of ${allowed.join(", ")}`);
  if (req.expect !== undefined && res.status !== req.expect) p.push(`status ${res.status}, want ${req.expect} for this request`);
  if (res.header("access-control-allow-origin") !== "*") p.push(`Access-Control-Allow-Origin ${res.header("access-control-allow-origin")}`);
  if (res.status === 405 && !res.header("allow")) p.push("a 405 with no Allow header");
  if (res.status === 204 || req.method === "HEAD") {
    if (res.body.length) p.push(`a body with a ${res.status} to ${req.method}`);
    return p;
  }
  if (!/^application\/json/.test(res.header("content-type") ?? "")) p.push(`Content-Type ${res.header("content-type")}`);
  let v;
  try {
    v = JSON.parse(utf8.decode(res.body));
  } catch (e) {
    p.push(`the body is not JSON: ${e.message}`);
    return p;
  }
  if (res.status === 200) {
    if (v === null || typeof v !== "object" || Array.isArray(v) || "error" in v) p.push("a 200 whose body is not an answer object");
    return p;
  }
  const err = v?.error;
  const keys = v && typeof v === "object" ? Object.keys(v) : [];
  if (keys.length !== 1 || keys[0] !== "error" || err === null || typeof err !== "object") {
    p.push("the body is not {\"error\": {…}}");
    return p;
  }
  const extra = Object.keys(err).filter((k) => !["code", "message", "field", "at"].includes(k));
  if (extra.length) p.push(`error fields ${extra.join(", ")}`);
  if (!(CODES[res.status] ?? []).includes(err.code)) p.push(`code ${JSON.stringify(err.code)} is not a CONTRACT code for ${res.status}`);
  if (typeof err.message !== "string" || err.message === "") p.push("an empty message");
  else if (err.message.startsWith("internal error")) p.push("an internal error");
  if ("at" in err && !Number.isSafeInteger(err.at)) p.push(`at ${JSON.stringify(err.at)}`);
  return p;
}

// ---- comparing with the native server (HOSTILE_COMPARE=native) ----

// The headers compared between the builds (as e2e/framing.test.mjs compares them; not Date,
// Connection, Content-Encoding and the like, which each runtime sets its own way).
const COMPARED = ["content-type", "access-control-allow-origin", "allow", "x-content-type-options", "retry-after"];

// Where the runtimes read a request differently, before the API's code (README, "Odd
// requests"): a path with a bad percent escape (net/http's plain 400; the glue's 400, the API's
// JSON error); a chunk extension, "5;a=b" (net/http ignores it, as RFC 9112 §7.1.1 asks; workerd
// fails the body's read, whatever the extension, and the API answers 400); and a body either
// runtime stops reading (a reset while it is still being sent, counted apart).
function expectedDifference(req, w, n) {
  if (/%(?![0-9a-fA-F]{2})/.test(req.path)) return w.status === 400 && n.status === 400 && n.header("content-type") === "text/plain; charset=utf-8";
  let message = "";
  try {
    message = JSON.parse(w.body.toString("utf8")).error?.message ?? "";
  } catch {}
  return req.chunked && /;/.test(req.badChunk ?? "") && w.status === 400 && /^reading the request body: /.test(message);
}

// differs says how the native answer n differs from workerd's w to req (none: an empty list).
function differs(req, w, n) {
  const p = [];
  if (w.status !== n.status) p.push(`status: Workers ${w.status}, native ${n.status}`);
  for (const k of COMPARED) if ((w.header(k) ?? null) !== (n.header(k) ?? null)) p.push(`${k}: Workers ${w.header(k)}, native ${n.header(k)}`);
  if (req.method !== "HEAD" && !w.body.equals(n.body)) {
    p.push(`body: Workers ${JSON.stringify(w.body.subarray(0, 300).toString("latin1"))}, native ${JSON.stringify(n.body.subarray(0, 300).toString("latin1"))}`);
  }
  return p;
}

// ---- the run ----

// Violations, grouped by kind (their text with the numbers taken out): the first SHOW_EACH of a
// kind are printed in full when seen, the rest counted. The run stops after MAX_FAILURES kinds,
// or once DEAD requests in a row got no answer at all (the worker is gone).
const SHOW_EACH = envInt("HOSTILE_SHOW_EACH", 3);
const DEAD = 100;
const kinds = new Map(); // kind → {count, first, text}
let violationCount = 0;
let noAnswerRun = 0;
const inFlight = new Set();

function violation(i, problems, detail = "") {
  violationCount++;
  const kind = problems.map((p) => p.replace(/\d+/g, "N")).join("; ");
  let k = kinds.get(kind);
  if (!k) kinds.set(kind, (k = { count: 0, first: i, text: `${problems.join("; ")}${detail}` }));
  k.count++;
  if (k.count <= SHOW_EACH) {
    const where = typeof i === "number" ? `request ${i}` : i;
    console.error(`HOSTILE VIOLATION ${violationCount} (kind ${[...kinds.keys()].indexOf(kind) + 1}, seen ${k.count}) at ${where}: ` +
      `${problems.join("; ")}${detail}` +
      (typeof i === "number" ? `\n  reproduce: HOSTILE_SEED=${SEED} HOSTILE_FROM=${i} HOSTILE_REQUESTS=1 node --test wasm/worker/e2e/hostile.test.mjs` : ""));
  }
}
const stopped = () => kinds.size >= MAX_FAILURES || noAnswerRun >= DEAD;

let mf, base;
let native, stopNative; // HOSTILE_COMPARE=native: the native server (go build ./wasm/worker)

before(async () => {
  if (skip) return;
  requireBuild();
  const watch = (stream, name) => {
    let pending = "";
    stream.on("data", (d) => {
      pending += d;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const line of lines) {
        if (line.trim() === "") continue;
        if (/^\s*stack:/.test(line)) continue; // the stack of the line before
        if (!EXPECTED_LOG.some((re) => re.test(line))) {
          violation(`workerd's ${name}, requests ${[...inFlight].join(", ")} in flight`,
            [`the runtime wrote: ${line.slice(0, 300).replace(/@[0-9a-f]+/g, "")}`], line.length > 300 ? ` … (${line.length} characters)` : "");
        }
      }
    });
  };
  ({ mf, url: base } = await startWorker("worker.mjs", { handleRuntimeStdio: (out, err) => { watch(out, "stdout"); watch(err, "stderr"); } }));
  if (COMPARE) ({ url: native, stop: stopNative } = await startNative());
  for (const sig of ["SIGINT", "SIGTERM"]) { // a long run stopped by hand takes workerd with it
    process.once(sig, () => mf.dispose().finally(() => process.exit(130)));
  }
});

after(async () => {
  if (mf) await mf.dispose();
  if (stopNative) stopNative();
  stopWatchdog();
});

// workerdRSS is the resident memory of the workerd processes this one started (Linux), for the
// progress lines: a Go instance that leaks shows there.
function workerdRSS() {
  try {
    let kb = 0;
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let status;
      try {
        status = readFileSync(`/proc/${pid}/status`, "utf8");
      } catch {
        continue;
      }
      if (/^Name:\s*workerd/m.test(status) && Number(/^PPid:\s*(\d+)/m.exec(status)?.[1]) === process.pid) kb += Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    }
    return kb ? `${(kb / 1024).toFixed(0)} MB` : "?";
  } catch {
    return "?";
  }
}

function preview(b) {
  if (b === null) return "no body";
  const s = JSON.stringify(b.subarray(0, 600).toString("latin1"));
  return `${b.length} bytes: ${s}${b.length > 600 ? " …" : ""}${b.length <= 4096 ? `\n    base64: ${b.toString("base64")}` : ""}`;
}

function describe(req) {
  return `\n  request (${req.label}): ${req.method} ${JSON.stringify(req.path.slice(0, 300))}` +
    `${req.raw ? " raw" : " fetch"}${req.chunked ? " chunked" + (req.badChunk !== undefined ? ` (bad size ${JSON.stringify(req.badChunk)})` : "") : ""}` +
    `${req.declared !== undefined ? ` declared length ${req.declared}` : ""} headers ${JSON.stringify(req.headers.map(([k, v]) => [k, v.slice(0, 200)]))}` +
    `\n  body ${preview(req.body)}`;
}

test(`${N} hostile requests to the Workers build`, { skip, timeout: TIME_LIMIT_MS }, async () => {
  const ctx = { corpus: loadCorpus() };
  assert.ok(ctx.corpus.length > 100, "the identity corpus");
  ctx.texts = ctx.corpus.filter((e) => e.door === "parse").map((e) => JSON.parse(e.body).text).filter((t) => typeof t === "string");
  ctx.keys = [...new Set(ctx.corpus.flatMap((e) => objectKeys(JSON.parse(e.body)).map(([, k]) => k)))];

  const good = async () => {
    const r = await sendFetch(base, { method: "POST", path: "/v1/evaluate", headers: [["content-type", "application/json"]], body: Buffer.from(GOOD) });
    return `${r.status} ${r.body.toString("utf8")}`;
  };
  const first = await good();
  assert.match(first, /^200 /, "the good request");

  const statuses = new Map(), codes = new Map(), labels = new Map(), compared = new Map();
  const bump = (m, k) => m.set(k, (m.get(k) ?? 0) + 1);
  let slowest = { ms: -1 };
  let sent = 0, goodChecks = 0;

  const start = performance.now();
  let lastProgress = start;
  const progress = (final = false) => {
    const s = (performance.now() - start) / 1000;
    const hist = [...statuses].sort((a, b) => String(a[0]).localeCompare(String(b[0]))).map(([k, v]) => `${k}: ${v}`).join(", ");
    console.log(`hostile: ${sent}${final ? "" : "/" + N} requests in ${s.toFixed(1)} s (${(sent / s).toFixed(0)}/s), statuses {${hist}}, ` +
      `good checks ${goodChecks}, violations ${violationCount} of ${kinds.size} kinds, slowest ${slowest.ms.toFixed(0)} ms (request ${slowest.i})` +
      `, workerd RSS ${workerdRSS()}`);
  };

  let next = FROM;
  const end = FROM + N;
  async function loop() {
    while (next < end && !stopped() && !(BUDGET_S && performance.now() - start > BUDGET_S * 1000)) {
      const i = next++;
      const req = generate(i, ctx);
      inFlight.add(i);
      const t0 = performance.now();
      let res, error;
      try {
        res = req.raw ? await sendRaw(base, req) : await sendFetch(base, req);
      } catch (e) {
        error = e;
      }
      const ms = performance.now() - t0;
      inFlight.delete(i);
      sent++;
      // workerd answers a body it will not read (past 1 MiB, or to a 404, 405 or 415) and resets
      // the connection, which may discard its answer before the client, still sending, reads it.
      // Past the 64 KB workerd drains, that is not the worker's doing: counted, not a violation.
      const unread = error && ["ECONNRESET", "EPIPE"].includes(error.code) && req.raw && (req.body?.length ?? 0) > 64 << 10;
      noAnswerRun = error && !unread ? noAnswerRun + 1 : 0;
      const problems = unread ? [] : error ? [`no answer: ${error.message}${error.cause ? ` (${error.cause.code ?? ""} ${error.cause.message ?? error.cause})` : ""}`] : check(req, res);
      bump(statuses, unread ? "reset while sending a large body" : error ? "none" : res.status);
      bump(labels, req.label.replace(/^.*?: /, ""));
      if (res && res.status !== 200 && res.status !== 204 && req.method !== "HEAD") {
        try { bump(codes, JSON.parse(res.body.toString("utf8")).error.code); } catch {}
      }
      if (ms > slowest.ms) slowest = { ms, i, req, status: error ? "none" : res.status };
      if (problems.length) {
        violation(i, problems, `${describe(req)}\n  answer ${error ? "none" : `${res.status} ${JSON.stringify(res.body.subarray(0, 600).toString("latin1"))}`}`);
      }
      if (COMPARE && res) {
        let nres, nerror;
        try {
          nres = req.raw ? await sendRaw(native, req) : await sendFetch(native, req);
        } catch (e) {
          nerror = e;
        }
        const nunread = nerror && ["ECONNRESET", "EPIPE"].includes(nerror.code) && req.raw && (req.body?.length ?? 0) > 64 << 10;
        if (nunread) bump(compared, "native reset while sending a large body");
        else if (nerror) violation(i, [`the native server gave no answer: ${nerror.message}`], describe(req));
        else {
          const d = differs(req, res, nres);
          if (d.length === 0) bump(compared, "the same");
          else if (expectedDifference(req, res, nres)) bump(compared, `a documented difference (${req.chunked ? "a chunk extension" : "a bad percent escape in the path"})`);
          else {
            bump(compared, "different");
            violation(i, [`the builds differ: ${d.join("; ")}`], describe(req));
          }
        }
      }
      if ((i + 1) % GOOD_EVERY === 0) {
        let again;
        try {
          again = await good();
        } catch (e) {
          again = `no answer: ${e.message}`;
        }
        goodChecks++;
        if (again !== first) violation(i, [`after request ${i} the good request answers ${again.slice(0, 600)}`], `\n  first ${first.slice(0, 600)}`);
      }
      if (PROGRESS_S && performance.now() - lastProgress > PROGRESS_S * 1000) {
        lastProgress = performance.now();
        progress();
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const seconds = (performance.now() - start) / 1000;

  // The worker still answers, as it did at first.
  const last = await good();
  if (last !== first) violation("the end", [`at the end the good request answers ${last.slice(0, 600)}`]);
  const version = await sendFetch(base, { method: "GET", path: "/v1/version", headers: [], body: null });
  if (version.status !== 200) violation("the end", [`at the end GET /v1/version answers ${version.status}`]);
  await new Promise((r) => setTimeout(r, 200)); // the runtime's last words

  progress(true);
  const sorted = (m) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]));
  console.log(`hostile: seed ${SEED}, requests ${FROM} … ${FROM + sent - 1}, concurrency ${CONCURRENCY}, ${seconds.toFixed(1)} s, ${(sent / seconds).toFixed(0)} requests/s`);
  console.log(`hostile: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => String(a[0]).localeCompare(String(b[0])))))}`);
  console.log(`hostile: error codes ${JSON.stringify(sorted(codes))}`);
  console.log(`hostile: kinds of request ${JSON.stringify(sorted(labels))}`);
  if (COMPARE) console.log(`hostile: compared with the native server: ${JSON.stringify(sorted(compared))}`);
  if (slowest.req) {
    const s = slowest.req;
    console.log(`hostile: slowest request ${slowest.i} (${slowest.ms.toFixed(1)} ms, ${slowest.status}): ${s.label}: ${s.method} ` +
      `${JSON.stringify(s.path.slice(0, 100))}, body ${s.body === null ? "none" : s.body.length + " bytes"}`);
  }
  const summary = [...kinds.values()].map((k, n) => `kind ${n + 1}: ${k.count} times, first at ${typeof k.first === "number" ? "request " + k.first : k.first}: ${k.text}`);
  if (summary.length) console.log(`hostile: ${violationCount} violations of ${kinds.size} kinds\n${summary.join("\n")}`);
  assert.equal(violationCount, 0, `${violationCount} violations of ${kinds.size} kinds${stopped() ? " (stopped early)" : ""}:\n${summary.slice(0, 20).join("\n")}`);
});

// A body in many one-byte chunks, beside a good request (HOSTILE_SLOW_BODY chunks, 20 000 by
// default; the most a 1 MiB body can be is 1 048 576). github.com/syumai/workers' bridge had Go
// read a body one chunk at a time, a JavaScript promise and a call into Go each (and a js.Func
// leaked each): 20 000 chunks took about 2 s, 200 000 some 45 s, and a request sent meanwhile
// waited until the body was read. glue/worker.mjs now reads the body natively and hands it to Go
// whole: memory.test.mjs checks that such a body is one call into Go. Here, the properties a
// client sees, no timing: while the body is still arriving (all of it sent but its last chunk),
// another request is answered; once the last chunk is sent, the body is answered, rightly.
const SLOW_BODY = envInt("HOSTILE_SLOW_BODY", 20000);
test(`a body in ${SLOW_BODY} one-byte chunks does not hold up other requests`, { skip, timeout: 10 * 60_000 }, async () => {
  const chunks = Math.max(16, SLOW_BODY);
  const text = Buffer.from(" ".repeat(chunks - 16) + '{"text": "Cir3"}');
  const parse = (body) => sendFetch(base, { method: "POST", path: "/v1/parse", headers: [["content-type", "application/json"]], body });
  const want = await parse(Buffer.from('{"text": "Cir3"}'));
  assert.equal(want.status, 200);

  const bytes = rawRequest(base, { method: "POST", path: "/v1/parse", headers: [["content-type", "application/json"]], body: text, chunked: true, chunkSizes: Array(text.length).fill(1) });
  const last = Buffer.from("0\r\n\r\n");
  assert.ok(bytes.subarray(bytes.length - last.length).equals(last));
  const s = net.connect(Number(base.port), base.hostname);
  const t0 = performance.now();
  let written;
  const slow = new Promise((resolve, reject) => {
    const got = [];
    s.on("data", (d) => {
      got.push(d);
      const res = parseResponse(Buffer.concat(got), "POST", false);
      if (res) resolve({ ...res, ms: performance.now() - t0 });
    });
    s.on("end", () => reject(new Error(`the connection ended with no answer: ${JSON.stringify(Buffer.concat(got).toString("latin1").slice(0, 200))}`)));
    s.on("error", reject);
    s.on("connect", () => s.write(bytes.subarray(0, bytes.length - last.length), () => (written = performance.now())));
  });
  let answered = false;
  slow.then(() => (answered = true), () => (answered = true));
  try {
    while (written === undefined) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100)); // let the worker start on it (not needed for correctness)
    const t1 = performance.now();
    const r = await sendFetch(base, { method: "POST", path: "/v1/evaluate", headers: [["content-type", "application/json"]], body: Buffer.from(GOOD) });
    const goodMs = performance.now() - t1;
    assert.equal(r.status, 200, `a request sent while the body arrives: ${r.body.toString("utf8").slice(0, 300)}`);
    assert.equal(answered, false, "the body was answered before its last chunk was sent");
    s.end(last);
    const res = await slow;
    console.log(`hostile: ${chunks} one-byte chunks (all but the last written in ${(written - t0).toFixed(0)} ms) answered ${res.status} in ${res.ms.toFixed(0)} ms; ` +
      `a request sent meanwhile answered ${r.status} in ${goodMs.toFixed(0)} ms`);
    assert.equal(res.status, 200, res.body.toString("utf8"));
    assert.ok(res.body.equals(want.body), `the answer ${res.body.toString("utf8").slice(0, 300)}`);
  } finally {
    s.destroy();
  }
});
