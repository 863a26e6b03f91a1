// The Chromium side of the bench, loaded by the pages chromium.mjs serves: the same loops as
// in Node (measure.mjs), on the boards fetched from /build/bench/boards/, timed inside the page.
import { coldStart, fovRows, moduleRows } from "./measure.mjs";

async function board(name) {
  const res = await fetch(`/build/bench/boards/${name}.json`);
  if (!res.ok) throw new Error(`${name}.json: HTTP ${res.status}`);
  return res.json();
}

// resolution estimates performance.now()'s step (coarse unless the page is cross-origin isolated).
function resolution() {
  let best = Infinity;
  for (let k = 0; k < 200; k++) {
    const a = performance.now();
    let b = performance.now();
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return best;
}

/**
 * run times the cases ([{name, scene}]) through the module, as moduleRows does in Node, and the
 * field-of-view bursts (fov: the names of the fov-* cases) as fovRows does.
 */
export async function run(list, opts, fov = []) {
  const cases = [];
  for (const c of list) cases.push({ ...(await board(c.name)), scene: c.scene });
  const fovCases = [];
  for (const name of fov) fovCases.push(await board(name));
  const { load } = await import("/web/index.js");
  const engine = await load();
  return {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    resolution: resolution(),
    scene: typeof engine.scene === "function",
    userAgent: navigator.userAgent,
    rows: moduleRows(engine, cases, opts),
    fov: fovRows(engine, fovCases, opts),
  };
}

/** cold is import → first result in a fresh page, the request fetched beforehand. */
export async function cold(name) {
  const c = await board(name);
  return coldStart(() => import("/web/index.js"), c.request);
}

/**
 * workerCold is loadWorker()'s cold start in a fresh page, as cold is load()'s: import
 * aoekit/worker → loadWorker() (the worker started, the module downloaded and compiled on the
 * page, instantiated in the worker) → the first evaluate's answer back on the page.
 */
export async function workerCold(name) {
  const c = await board(name);
  return coldStart(() => import("/web/worker.js"), c.request, "loadWorker");
}

/**
 * floorCold is the floor module's cold start in a fresh page (url: /build/floor.wasm, a
 * module with only syscall/js): import wasm_exec.js → instantiate (streaming) → run → its one
 * function's first answer, as load() does it for aoekit.wasm (for scale: the least a Go module
 * costs). Times in ms, named as coldStart names them.
 */
export async function floorCold(url) {
  const t0 = performance.now();
  await import("/web/wasm_exec.js");
  const t1 = performance.now();
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
  go.run(instance);
  const t2 = performance.now();
  globalThis.floor();
  const t3 = performance.now();
  return { import: t1 - t0, load: t2 - t1, firstEvaluate: t3 - t2, toFirstResult: t3 - t0 };
}
