// load(): every way to name the module, streaming and its fallback, what it leaves on
// globalThis, Node processes that exit by themselves, and recovery when the instance fails.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { CONTRACT_FROM_CASTER, ROOT, WEB, buildCrasher, load, serve, tempDir } from "./helpers.mjs";

const WASM = join(WEB, "aoekit.wasm");
const bytes = readFileSync(WASM);

async function works(engine) {
  const e = await engine;
  assert.equal(e.version().engine, "aoekit");
  assert.equal(e.evaluate(CONTRACT_FROM_CASTER).count, 10);
  return e;
}

test("options.wasm: default, path, relative path, URL, file: string, bytes, Response, Module", async () => {
  await works(load());
  await works(load({}));
  await works(load(null));
  await works(load({ wasm: WASM }));
  await works(load({ wasm: relative(process.cwd(), WASM) }));
  await works(load({ wasm: pathToFileURL(WASM) }));
  await works(load({ wasm: pathToFileURL(WASM).href }));
  await works(load({ wasm: new Uint8Array(bytes) }));
  await works(load({ wasm: bytes })); // a Buffer, possibly a view into a larger pool
  await works(load({ wasm: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }));
  await works(load({ wasm: new Response(bytes, { headers: { "Content-Type": "application/wasm" } }) }));
  await works(load({ wasm: Promise.resolve(new Response(bytes)) }));
  await works(load({ wasm: await WebAssembly.compile(bytes) }));
});

test("two engines are independent instances", async () => {
  const [a, b] = await Promise.all([load(), load()]);
  assert.notEqual(a, b);
  assert.deepEqual(a.evaluate(CONTRACT_FROM_CASTER), b.evaluate(CONTRACT_FROM_CASTER));
});

test("over HTTP: instantiateStreaming for application/wasm, a whole read for any other type", async (t) => {
  const streaming = WebAssembly.instantiateStreaming;
  let streamed = 0;
  WebAssembly.instantiateStreaming = (...args) => {
    streamed++;
    return streaming(...args);
  };
  t.after(() => {
    WebAssembly.instantiateStreaming = streaming;
  });
  const good = await serve(t, WEB);
  const wrong = await serve(t, WEB, { wasmType: "application/octet-stream" });

  await works(load({ wasm: `${good}/aoekit.wasm` }));
  assert.equal(streamed, 1, "streamed when the type is right");
  await works(load({ wasm: new URL(`${wrong}/aoekit.wasm`) }));
  await works(load({ wasm: fetch(`${wrong}/aoekit.wasm`) }));
  assert.equal(streamed, 1, "not streamed when the type is wrong");
  // The fallback is needed: streaming refuses the wrong type.
  await assert.rejects(streaming(fetch(`${wrong}/aoekit.wasm`), {}), TypeError);

  await assert.rejects(load({ wasm: `${good}/missing.wasm` }), /HTTP 404/);
});

test("bad options reject with a clear error", async () => {
  await assert.rejects(load({ wasm: 42 }), TypeError);
  await assert.rejects(load("aoekit.wasm"), /takes an object/);
  await assert.rejects(load({ wasm: join(WEB, "no-such.wasm") }), /ENOENT/);
  await assert.rejects(load({ wasm: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) }), /did not register|Import|import/i);
  await assert.rejects(load({ wasm: new Uint8Array([1, 2, 3]) }), WebAssembly.CompileError);
});

// run runs a module script in a fresh Node, from the repository (so "aoekit" resolves to this
// package), and returns its output and how long it took to exit after its last line.
function run(script, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT });
    let stdout = "", stderr = "", lastOutput = 0;
    child.stdout.on("data", (d) => { stdout += d; lastOutput = performance.now(); });
    child.stderr.on("data", (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`still running after ${timeoutMs} ms: ${stdout}${stderr}`)); }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, lingered: performance.now() - lastOutput });
    });
  });
}

test("a Node script that loads and evaluates exits by itself, promptly, even after heavy work", async () => {
  const quick = await run(`
    import { load } from "aoekit";
    const e = await load();
    console.log(JSON.stringify(e.evaluate(${JSON.stringify(CONTRACT_FROM_CASTER)}).count));
  `);
  assert.equal(quick.code, 0, quick.stderr);
  assert.equal(quick.stdout.trim(), "10");
  assert.ok(quick.lingered < 2000, `lingered ${quick.lingered} ms after its output`);

  // Enough garbage for the Go runtime to collect many times over. The engine's calls are direct
  // (go:wasmexport, internal/wasm.js directCalls): they return from Go without running its
  // scheduler, so only the runtime's start may schedule timers. Nothing may hold the event loop:
  // no timer among Node's active resources, and the process ends promptly by itself.
  const heavy = await run(`
    const { load } = await import("aoekit");
    const e = await load();
    let n = 0;
    for (let i = 0; i < 20; i++) n += e.evaluateCells({ template: "Cir300h1", caster: { id: "c", x: 0, y: 0, z: 0 }, origin: { x: 0, y: 0, z: 0 } }).length;
    console.log(JSON.stringify({ cells: n / 3, active: process.getActiveResourcesInfo() }));
  `);
  assert.equal(heavy.code, 0, heavy.stderr);
  const { cells, active } = JSON.parse(heavy.stdout);
  assert.equal(cells, 20 * 601 * 601);
  assert.ok(!active.includes("Timeout"), `a Go timer holds the event loop: ${active}`);
  assert.ok(heavy.lingered < 2000, `lingered ${heavy.lingered} ms after its output`);
});

test("load leaves only Go's own globals (Go, and fs/path shims where the host lacks them)", async () => {
  const r = await run(`
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const { load } = await import("aoekit");
    const e = await load();
    e.evaluate(${JSON.stringify(CONTRACT_FROM_CASTER)});
    console.log(JSON.stringify(Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k)).sort()));
  `);
  assert.equal(r.code, 0, r.stderr);
  const added = JSON.parse(r.stdout);
  assert.ok(added.every((k) => ["Go", "fs", "path"].includes(k)), `added ${added}`);
  assert.ok(added.includes("Go"));
});

test("after the instance fails — stack overflow, exit, a wrong answer — the next call runs on a fresh one", async (t) => {
  const crasher = buildCrasher(tempDir(t));
  const e = await load({ wasm: crasher });
  const calls = () => e.version().calls; // counts calls on the running instance
  assert.equal(calls(), 1);
  assert.equal(calls(), 2);
  const failures = [
    ["evaluate", () => e.evaluate({}), /^internal error: the engine stopped \(.*call stack.*\) and will restart$/],
    ["move", () => e.move({}), /^internal error: the engine exited \(code 3\) and will restart$/],
    ["parse", () => e.parse("x"), /^internal error: the engine answered number and will restart$/],
  ];
  for (const [name, call, message] of failures) {
    for (let round = 0; round < 3; round++) {
      assert.throws(call, (err) => err instanceof Error && err.code === "bad_request" && message.test(err.message), name);
      assert.equal(calls(), 1, `${name}: a fresh instance`);
      assert.equal(calls(), 2, `${name}: which keeps running`);
    }
  }
  assert.equal(e.evaluateCells({}).length, 0);
  assert.equal(calls(), 3, "a good answer keeps the instance");
});

test("a scene made on an instance that then fails is gone: its calls say so, and a new scene works", async (t) => {
  const crasher = buildCrasher(tempDir(t));
  const e = await load({ wasm: crasher });
  const scene = e.scene({});
  assert.equal(scene.evaluateCells({}).length, 0);
  assert.throws(() => scene.evaluate({}), (err) => err.code === "bad_request" && /^internal error: the engine exited \(code 4\) and will restart$/.test(err.message));
  for (const call of [() => scene.evaluateCells({}), () => scene.update({}), () => scene.evaluate({})]) {
    assert.throws(call, (err) => err.code === "bad_request" && /^internal error: the engine restarted since this scene was made/.test(err.message));
  }
  scene.dispose(); // a scene that is gone can still be disposed of
  const again = e.scene({});
  assert.equal(again.evaluateCells({}).length, 0, "a new scene runs on the fresh instance");
});
