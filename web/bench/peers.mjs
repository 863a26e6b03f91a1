// The peers, on the benchmark boards: rot-js's shadowcasting fields of view against aoekit's
// Draw Steel burst with barriers, and fast-voxel-raycast's voxel traversal against aoekit's
// segment test. Not the same work (see the notes bench.mjs prints): these are rates on the same
// boards, not a contest between equals.
import traceRay from "fast-voxel-raycast";
import ROT from "rot-js"; // its CommonJS build (dist/rot.js): lib/ is ES modules without "type": "module"

import { sample } from "./measure.mjs";

/**
 * blockedSquares is the 2-D board a fov case's request makes for rot-js: n × n squares, blocked
 * where the request has a full obstacle (fill 1) at level 0 — its low walls (fill 0.5) are left
 * out — and, for its thin walls, each closed wall on a grid line rasterised to the squares
 * east of a wall along a column line (x = k) and south of one along a row line (y = k). A thin
 * wall has no squares of its own, so this is an approximation: it blocks a whole square where
 * aoekit blocks only the line.
 */
export function blockedSquares(request) {
  const n = request.bounds.max[0] + 1;
  if (request.bounds.max[1] + 1 !== n || request.bounds.min.some((v) => v !== 0)) throw new Error("fov: expected bounds 0…n−1, square");
  const blocked = new Uint8Array(n * n);
  const set = (x, y) => {
    if (x >= 0 && y >= 0 && x < n && y < n) blocked[y * n + x] = 1;
  };
  for (const o of request.obstacles ?? []) {
    if ((o.fill ?? 1) === 1 && (o.z ?? 0) === 0) set(o.x, o.y);
  }
  let walls = 0;
  for (const w of request.walls ?? []) {
    if (w.open) continue;
    const [ax, ay] = w.a;
    const [bx, by] = w.b;
    if (![ax, ay, bx, by].every(Number.isInteger) || (ax !== bx && ay !== by)) throw new Error(`fov: wall ${JSON.stringify(w)} is not on a grid line`);
    walls++;
    if (ay === by) for (let x = Math.min(ax, bx); x < Math.max(ax, bx); x++) set(x, ay);
    else for (let y = Math.min(ay, by); y < Math.max(ay, by); y++) set(ax, y);
  }
  return { n, blocked, walls };
}

/** radiusOf is r of an "r burst". */
export function radiusOf(request) {
  const m = /^(\d+) burst$/.exec(request.template);
  if (!m) throw new Error(`fov: ${request.template} is not an "r burst"`);
  return Number(m[1]);
}

/** decided is the number of squares within Chebyshev r of (cx, cy) on the n × n board. */
export function decided(n, cx, cy, r) {
  const w = Math.min(n - 1, cx + r) - Math.max(0, cx - r) + 1;
  const h = Math.min(n - 1, cy + r) - Math.max(0, cy - r) + 1;
  return w * h;
}

/**
 * fovPeers times rot-js's PreciseShadowcasting and RecursiveShadowcasting from the caster of
 * request on its blocked squares, radius r; each row has the squares it reports visible.
 */
export function fovPeers(request, opts) {
  const { n, blocked, walls } = blockedSquares(request);
  const r = radiusOf(request);
  const { x: cx, y: cy } = request.caster;
  const lightPasses = (x, y) => x >= 0 && y >= 0 && x < n && y < n && blocked[y * n + x] === 0;
  const rows = [];
  for (const [name, Fov] of [["PreciseShadowcasting", ROT.FOV.PreciseShadowcasting], ["RecursiveShadowcasting", ROT.FOV.RecursiveShadowcasting]]) {
    const fov = new Fov(lightPasses, { topology: 8 });
    const seen = new Uint8Array(n * n);
    let visible = 0;
    fov.compute(cx, cy, r, (x, y) => {
      if (x >= 0 && y >= 0 && x < n && y < n && !seen[y * n + x]) {
        seen[y * n + x] = 1;
        visible++;
      }
    });
    let sink = 0;
    const s = sample(() => fov.compute(cx, cy, r, () => sink++), opts);
    rows.push({ peer: `rot-js ${name}`, visible, ...s });
  }
  return { rows, n, r, walls, blockedSquares: blocked.reduce((a, b) => a + b, 0), decided: decided(n, cx, cy, r) };
}

/**
 * segmentPeer times fast-voxel-raycast over the dumped segments (segments.json): voxels are its
 * blocked squares at level 0; each ray runs from a to b (lattice units / 400), at most |b − a|.
 * Returns the per-segment times and how often it agrees with aoekit's verdicts.
 */
export function segmentPeer(data, opts) {
  const n = data.size;
  const blocked = new Uint8Array(n * n);
  for (const [x, y] of data.blocked) blocked[y * n + x] = 1;
  const getVoxel = (x, y, z) => z === 0 && x >= 0 && y >= 0 && x < n && y < n && blocked[y * n + x] === 1;
  const rays = data.segments.map(([ax, ay, az, bx, by, bz]) => {
    const o = [ax / 400, ay / 400, az / 400];
    const d = [(bx - ax) / 400, (by - ay) / 400, (bz - az) / 400];
    return { o, d, len: Math.hypot(d[0], d[1], d[2]) };
  });
  const hitPos = [0, 0, 0];
  const hitNorm = [0, 0, 0];
  const all = () => {
    let hits = 0;
    for (const ray of rays) if (traceRay(getVoxel, ray.o, ray.d, ray.len, hitPos, hitNorm)) hits++;
    return hits;
  };
  let agree = 0;
  let peerBlocked = 0;
  rays.forEach((ray, i) => {
    const hit = Boolean(traceRay(getVoxel, ray.o, ray.d, ray.len, hitPos, hitNorm));
    if (hit) peerBlocked++;
    if (hit === data.verdicts[i]) agree++;
  });
  const s = sample(all, { ...opts, calls: Math.max(10, Math.round(opts.calls / 4)) });
  const per = (v) => v / rays.length;
  return {
    peer: "fast-voxel-raycast",
    segments: rays.length,
    median: per(s.median),
    p95: per(s.p95),
    min: per(s.min),
    max: per(s.max),
    mean: per(s.mean),
    n: s.n,
    batch: s.batch * rays.length,
    blocked: peerBlocked,
    aoekitBlocked: data.verdicts.filter(Boolean).length,
    agree,
  };
}
