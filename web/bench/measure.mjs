// Timing loops shared by Node (bench.mjs) and the Chromium page (page.mjs): no Node imports.
// Every number is milliseconds from performance.now(); the caller turns them into µs.

/** quantile q (0…1) of sorted numbers, by linear interpolation. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

/** stats of per-call times (ms): median, p95, min, max, mean, n. */
export function stats(times) {
  const s = [...times].sort((a, b) => a - b);
  return {
    median: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    min: s[0],
    max: s[s.length - 1],
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    n: s.length,
  };
}

/**
 * sample times fn: a few warm-up calls first, then up to `calls` samples, fewer (not under
 * minCalls) where they would take more than budget ms. A sample is one call, or, for calls
 * shorter than minSample ms (the clock's resolution matters there), a batch of calls whose
 * time is divided among them. Returns stats of the per-call times (ms) and the batch.
 */
export function sample(fn, { warmup = 20, calls = 200, minCalls = 30, budget = 4000, minSample = 0.2, maxBatch = 100000 } = {}) {
  let t0 = performance.now();
  fn();
  const first = performance.now() - t0;
  for (let i = 1, n = Math.max(2, Math.min(warmup, Math.ceil(budget / 8 / Math.max(first, 1e-3)))); i < n; i++) fn();
  // Probes choose the batch (1 for anything that takes minSample or more).
  let batch = 1;
  let dt;
  for (;;) {
    t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    dt = performance.now() - t0;
    if (dt >= minSample || batch >= maxBatch) break;
    batch = Math.min(maxBatch, dt > 0 ? Math.max(batch * 2, Math.ceil((batch * minSample * 1.5) / dt)) : batch * 10);
  }
  const n = Math.max(Math.min(calls, minCalls), Math.min(calls, Math.floor(budget / Math.max(dt, 1e-3))));
  const times = new Array(n);
  for (let k = 0; k < n; k++) {
    t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    times[k] = (performance.now() - t0) / batch;
  }
  return { ...stats(times), batch };
}

/** The board of a request (what a scene holds) and the rest of it (what each frame sends). */
export function splitBoard(request) {
  const { tokens, obstacles, walls, bounds, ...frame } = request;
  const board = {};
  if (tokens) board.tokens = tokens;
  if (obstacles) board.obstacles = obstacles;
  if (walls) board.walls = walls;
  if (bounds) board.bounds = bounds;
  return { board, frame };
}

/** What an evaluate answer says of the case's expectations (count, targets, cover segments). */
export function summarise(result) {
  let segments = 0;
  for (const t of result.targets) segments += t.lines.length;
  return { count: result.count, targets: result.targets.length, segments };
}

function same(a, b) {
  return a.count === b.count && a.targets === b.targets && a.segments === b.segments;
}

/**
 * moduleRows times each case through an engine (the module's load() result): evaluate and
 * evaluateCells, stateless (the whole request each call), and a scene's evaluate where the
 * engine has scene(). Every answer is first checked against the native one (case.expect).
 * cases: [{name, request, expect}]. Returns [{case, method, median, p95, …, check}].
 */
export function moduleRows(engine, cases, opts) {
  const rows = [];
  for (const c of cases) {
    const got = summarise(engine.evaluate(c.request));
    const check = same(got, c.expect) ? "ok" : `MISMATCH: module ${JSON.stringify(got)}, native ${JSON.stringify(c.expect)}`;
    rows.push({ case: c.name, method: "evaluate", ...sample(() => engine.evaluate(c.request), opts), check, answer: got });
    if (typeof engine.evaluateCells === "function") {
      const n = engine.evaluateCells(c.request).length / 3;
      const cellsCheck = n === c.expect.count ? "ok" : `MISMATCH: ${n} cells, native ${c.expect.count}`;
      rows.push({ case: c.name, method: "evaluateCells", ...sample(() => engine.evaluateCells(c.request), opts), check: cellsCheck });
    }
    if (typeof engine.scene === "function" && c.scene) {
      rows.push(sceneRow(engine, c, opts));
      const drag = c.drag ? framesRow(engine, c, opts) : dragRow(engine, c, opts);
      if (drag) rows.push(drag);
    }
  }
  return rows;
}

/**
 * fovRows times the field-of-view bursts (the fov-* cases: no tokens, only which squares)
 * through an engine's evaluateCells, stateless, each answer's cell count first checked against
 * the native one (case.expect.count). Returns [{case, method, median, p95, …, cells, check}].
 */
export function fovRows(engine, cases, opts) {
  return cases.map((c) => {
    const cells = engine.evaluateCells(c.request).length / 3;
    const check = cells === c.expect.count ? "ok" : `MISMATCH: evaluateCells gives ${cells} cells, native ${c.expect.count}`;
    return { case: c.name, method: "evaluateCells", ...sample(() => engine.evaluateCells(c.request), opts), cells, check, scene: fovScene(engine, c, opts) };
  });
}

// fovScene: the same burst through a scene (the board read once, as rot-js reads its grid
// once), scene.evaluateCells each time; null without engine.scene.
function fovScene(engine, c, opts) {
  if (typeof engine.scene !== "function") return null;
  const { board, frame } = splitBoard(c.request);
  let scene;
  try {
    scene = engine.scene(board);
    const cells = scene.evaluateCells(frame).length / 3;
    const check = cells === c.expect.count ? "ok" : `MISMATCH: scene.evaluateCells gives ${cells} cells, native ${c.expect.count}`;
    return { method: "scene.evaluateCells", ...sample(() => scene.evaluateCells(frame), opts), cells, check };
  } catch (err) {
    return { method: "scene.evaluateCells", error: String(err?.message ?? err) };
  } finally {
    try {
      scene?.dispose?.();
    } catch {
      // a scene that cannot be disposed is no benchmark's business
    }
  }
}

// sceneRow: the board read once by engine.scene(board), then only the frame evaluated.
function sceneRow(engine, c, opts) {
  const { board, frame } = splitBoard(c.request);
  let scene;
  try {
    scene = engine.scene(board);
    const got = summarise(scene.evaluate(frame));
    const check = same(got, c.expect) ? "ok" : `MISMATCH: scene ${JSON.stringify(got)}, native ${JSON.stringify(c.expect)}`;
    return { case: c.name, method: "scene.evaluate", ...sample(() => scene.evaluate(frame), opts), check };
  } catch (err) {
    return { case: c.name, method: "scene.evaluate", error: String(err?.message ?? err) };
  } finally {
    try {
      scene?.dispose?.();
    } catch {
      // a scene that cannot be disposed is no benchmark's business
    }
  }
}

// DRAG is how many squares a dragged origin crosses, back and forth.
const DRAG = 20;

// dragRow: a template dragged across the board through a scene, its origin a square further
// each frame, over the DRAG squares up to the case's own origin (every frame a new window: what a drag costs at most; a real one mostly stays on
// a square for several frames). Each of the frames is first checked against a stateless
// evaluate. Null for a case without an origin (an area around its caster).
function dragRow(engine, c, opts) {
  const { board, frame } = splitBoard(c.request);
  if (!frame.origin) return null;
  const method = "scene.evaluate, dragged";
  const frames = Array.from({ length: DRAG }, (_, k) => ({ ...frame, origin: { ...frame.origin, x: frame.origin.x - DRAG + 1 + k } }));
  let scene;
  try {
    scene = engine.scene(board);
    let check = "ok";
    for (const f of frames) {
      const got = summarise(scene.evaluate(f));
      const want = summarise(engine.evaluate({ ...c.request, origin: f.origin }));
      if (!same(got, want)) check = `MISMATCH at origin x ${f.origin.x}: scene ${JSON.stringify(got)}, evaluate ${JSON.stringify(want)}`;
    }
    let i = 0;
    return { case: c.name, method, ...sample(() => scene.evaluate(frames[i++ % DRAG]), opts), check };
  } catch (err) {
    return { case: c.name, method, error: String(err?.message ?? err) };
  } finally {
    try {
      scene?.dispose?.();
    } catch {
      // as sceneRow
    }
  }
}

/**
 * framesRow: a drag through a scene of the case's own frames (case.drag, written by the dump:
 * issue 28's point-origin areas, core/engine's pointDrag), in turn, one frame per call. Each
 * frame is first checked twice: the scene's answer must be the stateless evaluate's, the same
 * JSON, and give the native answer's count, targets and cover segments (frame.expect). Every
 * sample is one call (never a batch: p95 is a frame's, the drag budget's measure), 2 × calls
 * of them.
 */
function framesRow(engine, c, opts) {
  const { board } = splitBoard(c.request);
  const frames = c.drag.frames.map((f) => f.request);
  const method = "scene.evaluate, dragged";
  let scene;
  try {
    scene = engine.scene(board);
    let check = "ok";
    c.drag.frames.forEach((f, k) => {
      const got = scene.evaluate(f.request);
      const want = engine.evaluate({ ...f.request, ...board });
      if (JSON.stringify(got) !== JSON.stringify(want)) check = `MISMATCH at frame ${k} (${JSON.stringify(f.request.point ?? f.request.toward)}): the scene's answer is not evaluate's: scene ${JSON.stringify(summarise(got))}, evaluate ${JSON.stringify(summarise(want))}`;
      else if (!same(summarise(got), f.expect)) check = `MISMATCH at frame ${k} (${JSON.stringify(f.request.point ?? f.request.toward)}): module ${JSON.stringify(summarise(got))}, native ${JSON.stringify(f.expect)}`;
    });
    let i = 0;
    const timing = sample(() => scene.evaluate(frames[i++ % frames.length]), { ...opts, calls: 2 * opts.calls, minSample: 0 });
    return { case: c.name, method, ...timing, frames: frames.length, about: c.drag.about, check };
  } catch (err) {
    return { case: c.name, method, error: String(err?.message ?? err) };
  } finally {
    try {
      scene?.dispose?.();
    } catch {
      // as sceneRow
    }
  }
}

/**
 * coldStart: import → load → first evaluate → second evaluate, in ms from t0 (taken before
 * the import). importer() returns the package's module namespace; loader names its function
 * that starts the engine (load, or aoekit/worker's loadWorker, whose answers are promises,
 * awaited: a synchronous answer is not).
 */
export async function coldStart(importer, request, loader = "load") {
  const t0 = performance.now();
  const start = (await importer())[loader];
  const t1 = performance.now();
  const engine = await start();
  const t2 = performance.now();
  let first = engine.evaluate(request);
  if (first instanceof Promise) first = await first;
  const t3 = performance.now();
  const second = engine.evaluate(request);
  if (second instanceof Promise) await second;
  const t4 = performance.now();
  return { import: t1 - t0, load: t2 - t1, firstEvaluate: t3 - t2, secondEvaluate: t4 - t3, toFirstResult: t3 - t0, count: first.count };
}
