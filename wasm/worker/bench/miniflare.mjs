// Serves build/worker (make worker) in workerd through miniflare on 127.0.0.1:${PORT:-8788},
// offline, until Ctrl-C or --seconds (default 600) pass. --fresh serves it with syumai/workers'
// generated glue (worker-fresh.mjs: a fresh Go instance per request) instead of
// wasm/worker/glue/worker.mjs (one Go instance per isolate). --baseline serves a plain JavaScript
// worker answering every request with the version JSON, to tell Go's cost from workerd's own. For load tests: make loadtest LOAD_URL=http://127.0.0.1:8788
import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { values } = parseArgs({
  options: {
    baseline: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    port: { type: "string", default: process.env.PORT ?? "8788" },
    seconds: { type: "string", default: "600" },
  },
});
const toml = readFileSync(path.join(root, "wasm/worker/wrangler.toml"), "utf8");
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)[1];
const common = { compatibilityDate, host: "127.0.0.1", port: Number(values.port) };
const mf = new Miniflare(
  values.baseline
    ? {
        ...common,
        modules: true,
        script: `export default { fetch() {
          return new Response('{"engine":"aoekit","version":"baseline","contract":1}',
            { headers: { "content-type": "application/json", "access-control-allow-origin": "*" } });
        } };`,
      }
    : {
        ...common,
        scriptPath: path.join(root, "build/worker", values.fresh ? "worker-fresh.mjs" : "worker.mjs"),
        modules: true,
        modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
      },
);
const url = await mf.ready;
const what = values.baseline ? "baseline JS worker" : values.fresh ? "aoekit worker, fresh Go instance per request" : "aoekit worker";
console.log(`${what} in workerd on ${url.href} for ${values.seconds} s (Ctrl-C stops it)`);
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await mf.dispose();
  process.exit(0);
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
setTimeout(stop, Number(values.seconds) * 1000);
