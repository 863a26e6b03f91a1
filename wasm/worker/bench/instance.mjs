// What syumai/workers' "fresh Go instance per request" costs, measured in Node without workerd:
// the module is compiled once (as workerd does), then every request instantiates it, runs the
// Go runtime to workers.Ready and handles one request — what build/worker/worker-fresh.mjs does
// — against one kept instance handling every request, as build/worker/worker.mjs does.
// Run after `make worker`: node wasm/worker/bench/instance.mjs [-n 200]
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const build = path.resolve(root, process.env.WORKER_OUT || "build/worker"); // WORKER_OUT as make's
const { values } = parseArgs({ options: { n: { type: "string", short: "n", default: "200" } } });
const n = Number(values.n);

await import(path.join(build, "wasm_exec.js")); // defines globalThis.Go
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

let t = performance.now();
const mod = await WebAssembly.compile(readFileSync(path.join(build, "app.wasm")));
const compileMs = performance.now() - t;

// run is worker.mjs's run(): a new Go instance, started until it calls workers.ready().
async function run(ctx) {
  // ctx.binding.keepAlive chooses main_js.go's mode.
  const go = new Go();
  let ready;
  const readyPromise = new Promise((resolve) => (ready = resolve));
  const instance = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
  go.run(instance, ctx);
  await readyPromise;
}

function request(p, body) {
  return new Request("http://local" + p, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body,
  });
}

async function once(p, body) {
  const binding = {}; // no keepAlive: the program ends after one response
  const t0 = performance.now();
  await run({ env: {}, ctx: {}, connect: undefined, binding });
  const t1 = performance.now();
  const res = await binding.handleRequest(request(p, body));
  const text = await res.text();
  const t2 = performance.now();
  if (res.status >= 500) throw new Error(`${p}: ${res.status} ${text}`);
  return [t1 - t0, t2 - t1];
}

const pct = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const cases = [
  ["GET /v1/version", "/v1/version", undefined],
  ["POST /v1/parse Con4NE", "/v1/parse", '{"text":"Con4NE"}'],
  ["POST /v1/evaluate (CONTRACT example)", "/v1/evaluate", JSON.stringify(
    JSON.parse(readFileSync(path.join(root, "wasm/identity/requests.json"), "utf8")).find((e) => e.name === "evaluate-contract-example").body)],
];
console.log(`app.wasm ${(readFileSync(path.join(build, "app.wasm")).length / 1e6).toFixed(2)} MB, compiled once in ${compileMs.toFixed(0)} ms`);
for (const [name, p, body] of cases) {
  for (let i = 0; i < 5; i++) await once(p, body); // warm up
  const start = [], handle = [];
  for (let i = 0; i < n; i++) {
    const [s, h] = await once(p, body);
    start.push(s);
    handle.push(h);
  }
  console.log(`${name}: new instance to ready p50 ${pct(start, 0.5).toFixed(2)} ms p99 ${pct(start, 0.99).toFixed(2)} ms;` +
    ` handling p50 ${pct(handle, 0.5).toFixed(2)} ms p99 ${pct(handle, 0.99).toFixed(2)} ms (n=${n})`);
}

// serve is what glue/worker.mjs does with a request to the kept instance: binding.serve
// (bridge_js.go) with the body read, the answer made a Response.
async function serve(binding, req) {
  const body = req.body === null ? null : new Uint8Array(await req.arrayBuffer());
  let headers = "";
  for (const [k, v] of req.headers) headers += `${k}\n${v}\n`;
  return new Promise((resolve, reject) => {
    binding.serve(req.method, req.url, headers, body === null ? -1 : body.length, body, "", (err, status, statusText, head, answer) => {
      if (err !== null) return reject(new Error(err));
      const h = new Headers();
      const lines = head.split("\n");
      for (let i = 0; i + 1 < lines.length; i += 2) h.append(lines[i], lines[i + 1]);
      resolve(new Response(answer, { status, statusText, headers: h }));
    });
  });
}

// One kept instance, as glue/worker.mjs runs it.
const kept = { keepAlive: true };
t = performance.now();
await run({ env: {}, ctx: {}, connect: undefined, binding: kept });
console.log(`kept instance: started in ${(performance.now() - t).toFixed(2)} ms`);
for (const [name, p, body] of cases) {
  for (let i = 0; i < 20; i++) await (await serve(kept, request(p, body))).text();
  const handle = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await serve(kept, request(p, body));
    await res.text();
    handle.push(performance.now() - t0);
    if (res.status >= 500) throw new Error(`${p}: ${res.status}`);
  }
  console.log(`${name}, kept instance: handling p50 ${pct(handle, 0.5).toFixed(2)} ms p99 ${pct(handle, 0.99).toFixed(2)} ms (n=${n})`);
}
process.exit(0);
