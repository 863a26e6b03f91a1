// make bench's script (web/bench/bench.mjs) in its --quick mode: it runs end to end and writes
// a table with every row, and the module answers each benchmark board as the engine does
// natively, in Node and in Chromium. No timing is checked: a quick pass measures nothing.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { GO, ROOT, tempDir } from "./helpers.mjs";

test("bench.mjs --quick writes every row, and the module's answers are the native ones", { timeout: 180_000 }, async (t) => {
  const out = join(tempDir(t, "aoekit-bench-"), "bench.json");
  const child = spawn(process.execPath, [join(ROOT, "web", "bench", "bench.mjs"), "--quick", "--out", out], {
    cwd: ROOT,
    env: { ...process.env, GO },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on("exit", resolve));
  assert.equal(code, 0, `bench.mjs --quick exited ${code}:\n${stderr}\n${stdout}`);

  const bench = JSON.parse(readFileSync(out, "utf8"));
  assert.equal(bench.meta.quick, true);
  assert.deepEqual(bench.mismatches, []);
  assert.deepEqual(bench.notes.filter((n) => /failed/i.test(n)), [], "a part of the bench failed");
  const index = JSON.parse(readFileSync(join(ROOT, "build", "bench", "boards", "index.json"), "utf8"));
  const module = index.cases.filter((c) => !c.startsWith("fov-"));
  const fov = index.cases.filter((c) => c.startsWith("fov-"));
  const groups = new Map();
  for (const r of bench.rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const count = (g) => groups.get(g)?.length ?? 0;

  // Every row is measured or says why not.
  for (const r of bench.rows) {
    assert.ok(r.skipped === true || Number.isFinite(r.median) || r.group === "size", `row ${r.group} / ${r.case}: no median and not skipped`);
    assert.equal(typeof r.text?.case, "string");
  }
  // The point-origin boards (issue 28's drag budget) add BenchmarkPoint's scene and dragged rows.
  const points = module.filter((c) => c.startsWith("point-")).length;
  assert.equal(count("go"), module.length + 4 + 2 * points, "a go row per board and per Scene benchmark");
  assert.equal(count("go wire"), module.length);
  // Issue 29's worst cases: a row each, with the bytes it allocated, under 256 MB (bytes, not
  // time: the 1 s is shown in the table, never asserted).
  const worst = groups.get("go worst") ?? [];
  assert.ok(worst.length >= 20, `a go worst row per BenchmarkWorstCase_ (${worst.length})`);
  for (const r of worst) assert.ok(r.bytes > 0 && r.bytes <= 256 * 2 ** 20, `${r.case}: ${r.text.note}`);
  // The scene's rows: four boards, and three of them dragged (BurstWalls' area has no origin).
  // (and a point-origin board's scene and dragged frames).
  assert.equal(count("node"), 2 * module.length + (bench.raw.node.scene ? 4 + 3 + 2 * points : 0), "evaluate and evaluateCells for each board (and the scene's)");
  for (const r of [...groups.get("node"), ...(groups.get("chromium") ?? [])]) {
    if (!r.skipped) assert.equal(r.check, "ok", `${r.group} ${r.case}`);
  }
  const chromium = groups.get("chromium");
  assert.ok(chromium.length === 1 ? chromium[0].skipped : chromium.length === count("node"), "every Chromium row, or one that says they were skipped");
  assert.ok(count("cold node") >= 5);
  assert.ok(count("cold chromium") >= 1);
  // The cold start over the floor's: the median of each round's difference, from the raw runs.
  if (bench.raw.cold.chromium && bench.raw.cold.floor) {
    const { chromium: ours, floor } = bench.raw.cold;
    const diffs = ours.map((r, i) => r.toFirstResult - floor[i].toFirstResult).sort((a, b) => a - b);
    const row = groups.get("cold chromium").find((r) => r.text.case === "import → first result, over the floor's");
    assert.ok(row, "a row of the cold start over the floor's");
    assert.equal(row.n, ours.length);
    const mid = (diffs.length - 1) / 2;
    const median = (diffs[Math.floor(mid)] + diffs[Math.ceil(mid)]) / 2;
    assert.ok(Math.abs(row.median / 1000 - median) < 1e-9, `${row.median / 1000} ms, the pairs ${diffs}`);
  }
  for (const name of fov) assert.equal(count(`fov ${name.replace(/^fov-/, "")}`), 7, `${name}: aoekit go, node and chromium (or their skipped rows), stateless and scene, rot-js twice`);
  assert.equal(count("segments"), 4);
  const voxel = groups.get("segments").find((r) => r.case.startsWith("fast-voxel-raycast"));
  assert.ok(Number.isInteger(voxel.agree) && voxel.agree >= 0 && voxel.agree <= 1000);
  assert.ok(count("size") >= 1);
  assert.match(stdout, /^group +case +median +p95/m, "the table is printed");
});
