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
