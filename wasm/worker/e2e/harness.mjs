// Shared setup of the end-to-end tests of the Workers build (not a test itself: node --test runs
// only *.test.mjs here): where the build is (build/worker; WORKER_OUT=<dir> for another, as
// make's variable), whether miniflare is installed (the tests skip loudly when it is not),
// starting the build in workerd through miniflare on a free loopback port, the identity corpus,
// and a watchdog that ends a stuck run.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
// build is build/worker, or $WORKER_OUT (as make's variable: relative to the repository's root).
export const build = path.resolve(root, process.env.WORKER_OUT || "build/worker");
export const haveMiniflare = existsSync(path.join(root, "node_modules/miniflare/package.json"));

// skip is node:test's skip option: false, or why the Workers build cannot be tested here (in CI a
// missing miniflare fails instead).
export const skip = haveMiniflare || process.env.CI ? false : "node_modules is absent: run `make test` (it runs npm ci) to test the Workers build in miniflare";

// requireBuild fails unless make worker has written files into build/worker.
export function requireBuild(files = ["worker.mjs", "runtime.mjs", "wasm_exec.js", "app.wasm"]) {
  for (const f of files) {
    assert.ok(existsSync(path.join(build, f)), `build/worker/${f} is missing: run \`make worker\` first`);
  }
}

// watchdog ends the process if the run is still going after ms: whatever happens, the test ends.
// It returns the function that cancels it.
export function watchdog(what, ms = 5 * 60 * 1000) {
  const t = setTimeout(() => {
    console.error(`${what}: still running after ${Math.round(ms / 1000)} s, giving up`);
    process.exit(1);
  }, ms);
  t.unref();
  return () => clearTimeout(t);
}

// startWorker runs build/worker/<entry> in workerd through miniflare, offline, on a free loopback
// port, with wrangler.toml's compatibility date; extra is merged into Miniflare's options (say,
// handleRuntimeStdio). It returns the Miniflare instance (dispose it) and its URL.
export async function startWorker(entry = "worker.mjs", extra = {}) {
  const toml = readFileSync(path.join(root, "wasm/worker/wrangler.toml"), "utf8");
  const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)[1];
  const require = createRequire(path.join(root, "package.json"));
  const { Miniflare } = await import(require.resolve("miniflare"));
  const mf = new Miniflare({
    scriptPath: path.join(build, entry),
    modules: true,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*.wasm"] }],
    compatibilityDate,
    host: "127.0.0.1",
    port: 0, // a free port
    ...extra,
  });
  const url = await mf.ready;
  assert.equal(url.hostname, "127.0.0.1", "miniflare listens on loopback");
  return { mf, url };
}

// corpus is wasm/identity/requests.json: [{name, door, body}], body parsed.
export function corpus() {
  return JSON.parse(readFileSync(path.join(root, "wasm/identity/requests.json"), "utf8"));
}

// startNative builds the native server (go build ./wasm/worker; $GO for another go) and runs it
// on a free loopback port. It returns its URL and stop(), which ends it and removes the build.
export async function startNative() {
  const { execFileSync, spawn } = await import("node:child_process");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const tmp = mkdtempSync(path.join(tmpdir(), "aoekit-native-"));
  const bin = path.join(tmp, "worker");
  execFileSync(process.env.GO || "go", ["build", "-o", bin, "./wasm/worker"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  const child = spawn(bin, ["-addr", "127.0.0.1:0", "-quiet"], { stdio: ["ignore", "ignore", "pipe"] });
  const stop = () => {
    child.kill("SIGTERM");
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const url = await new Promise((resolve, reject) => {
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
    return { url, stop };
  } catch (e) {
    stop();
    throw e;
  }
}
