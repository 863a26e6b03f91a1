// Unit test of wasm/worker/glue/worker.mjs's instance handling and request bridge, with a
// stand-in Go runtime: one instance serves every request, concurrent first requests share its
// start, and a program that ends is replaced on the next request (and fails what it left
// unanswered); a body reaches binding.serve whole, with its declared length, cut one byte past
// the 1 MiB limit, not read when declared past it, or with the error that ended its reading.
// Run: node --test wasm/worker/e2e/
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const glue = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../glue/worker.mjs");

// A module whose start function calls workers.ready, as the Go program does once it is serving.
const readyModule = new WebAssembly.Module(new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type: () -> ()
  0x02, 0x11, 0x01, 0x07, ...Buffer.from("workers"), 0x05, ...Buffer.from("ready"), 0x00, 0x00, // import workers.ready
  0x08, 0x01, 0x00, // start: function 0
]));

test("glue: one instance per isolate, replaced when its program ends; bodies handed over whole", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "aoekit-glue-"));
  try {
    copyFileSync(glue, path.join(dir, "worker.mjs"));
    // Stand-ins for wasm_exec.js (class Go) and runtime.mjs.
    writeFileSync(path.join(dir, "wasm_exec.js"), `
      globalThis.goRuns = [];
      globalThis.Go = class {
        importObject = {};
        run(instance, ctx) {
          const id = globalThis.goRuns.length + 1;
          let exit;
          const done = new Promise((resolve) => (exit = resolve));
          globalThis.goRuns.push({ ctx, exit });
          // bridge_js.go's serve: the answer says which instance answered, and what it got.
          ctx.binding.serve = (method, url, headers, contentLength, body, bodyError, done) => {
            const got = body === null ? "no body" : body.length + " bytes " + JSON.stringify(new TextDecoder().decode(body.subarray(0, 20)));
            const text = id + " " + ctx.binding.keepAlive + " " + new URL(url).pathname + (method === "GET" ? "" : " " + method + " " + contentLength + " " + got + (bodyError ? " " + bodyError : ""));
            if (new URL(url).pathname === "/fail") return done("it failed");
            if (new URL(url).pathname === "/hang") return; // never answered
            done(null, 200, "OK", "Content-Type\\ntext/plain\\nX-Headers\\n" + JSON.stringify(headers) + "\\n", new TextEncoder().encode(text));
          };
          return done;
        }
      };`);
    globalThis.readyModule = readyModule;
    writeFileSync(path.join(dir, "runtime.mjs"), `
      export async function loadModule() { await new Promise((r) => setTimeout(r, 10)); return globalThis.readyModule; }
      export function createRuntimeContext({ env, ctx, binding }) { return { env, ctx, binding }; }`);
    const worker = (await import(pathToFileURL(path.join(dir, "worker.mjs")).href)).default;
    const get = async (p) => (await worker.fetch(new Request("http://x" + p), {}, {})).text();

    assert.deepEqual(await Promise.all([get("/a"), get("/b"), get("/c")]), ["1 true /a", "1 true /b", "1 true /c"]);
    assert.equal(await get("/d"), "1 true /d");
    assert.equal(globalThis.goRuns.length, 1, "concurrent first requests share one start");

    globalThis.goRuns[0].exit(); // the program ends
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(await get("/e"), "2 true /e");
    assert.equal(await get("/f"), "2 true /f");
    assert.equal(globalThis.goRuns.length, 2);

    // The body is read in JavaScript and handed over whole, with the declared length (-1: none).
    const post = async (p, body, headers = {}) => {
      const init = { method: "POST", headers: { "content-type": "application/json", ...headers }, body };
      if (body instanceof ReadableStream) init.duplex = "half";
      const res = await worker.fetch(new Request("http://x" + p, init), {}, {});
      return { status: res.status, text: await res.text(), headers: res.headers };
    };
    const stream = (chunks, fail) => new ReadableStream({
      pull(c) {
        if (chunks.length) c.enqueue(new TextEncoder().encode(chunks.shift()));
        else if (fail) c.error(new Error(fail));
        else c.close();
      },
    });
    let r = await post("/g", '{"a":1}', { "content-length": "7" });
    assert.equal(r.text, '2 true /g POST 7 7 bytes "{\\"a\\":1}"');
    assert.equal(r.headers.get("content-type"), "text/plain");
    assert.match(r.headers.get("x-headers"), /^"content-length\\n7\\ncontent-type\\napplication\/json\\n"$/);
    r = await post("/h", stream(["{", '"a"', ":1}"]));
    assert.equal(r.text, '2 true /h POST -1 7 bytes "{\\"a\\":1}"');
    r = await post("/i", stream(Array(40).fill("x".repeat(40000))));
    assert.equal(r.text, `2 true /i POST -1 ${(1 << 20) + 1} bytes "${"x".repeat(20)}"`, "read to one byte past the limit");
    r = await post("/j", "{}", { "content-length": String((1 << 20) + 1) });
    assert.equal(r.text, `2 true /j POST ${(1 << 20) + 1} no body`, "a body declared too large is not read");
    r = await post("/j", "{}", { "content-length": "1000000000000000" }); // 16 digits: it once waited for the body
    assert.equal(r.text, `2 true /j POST ${Number.MAX_SAFE_INTEGER} no body`, "a body declared past 15 digits is not read");
    r = await post("/k", stream(["{", "}"], "boom"));
    assert.equal(r.text, '2 true /k POST -1 0 bytes "" JavaScript error on read: Error: boom');

    // Go's failures are the API's JSON 500, and a request Go never answers fails when it ends.
    r = await post("/fail", "{}");
    assert.equal(r.status, 500);
    assert.deepEqual(JSON.parse(r.text), { error: { code: "bad_request", message: "internal error: the request could not be handled: it failed" } });
    const hung = post("/hang", "{}");
    await new Promise((r) => setTimeout(r, 10));
    globalThis.goRuns[1].exit();
    r = await hung;
    assert.equal(r.status, 500);
    assert.match(JSON.parse(r.text).error.message, /the Go program ended/);
    assert.equal(await get("/l"), "3 true /l");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
