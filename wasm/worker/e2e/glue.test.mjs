// Unit test of wasm/worker/glue/worker.mjs's instance handling, with a stand-in Go runtime: one
// instance serves every request, concurrent first requests share its start, and a program that
// ends is replaced on the next request. Run: node --test wasm/worker/e2e/
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

test("glue: one instance per isolate, replaced when its program ends", async () => {
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
          ctx.binding.handleRequest = async (req) => new Response(id + " " + ctx.binding.keepAlive + " " + new URL(req.url).pathname);
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
