// The native side of the bench: the board dump, the Go benchmarks (parsed), make size (parsed).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { stats } from "./measure.mjs";

export const GO = process.env.GO || "go";

function run(cmd, args, { cwd, env = {}, allowFail = false } = {}) {
  const r = spawnSync(cmd, args, { cwd, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.error) throw new Error(`${cmd} ${args.join(" ")}: ${r.error.message}`);
  if (r.status !== 0 && !allowFail) {
    throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

/** dump writes the benchmark boards under dir (core/engine's TestDumpBenchBoards). */
export function dump(root, dir) {
  run(GO, ["test", "-count=1", "-run", "^TestDumpBenchBoards$", "./core/engine"], { cwd: root, env: { BENCH_DUMP: dir } });
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
  for (const name of [...index.cases, index.segments]) {
    if (!existsSync(join(dir, `${name}.json`))) throw new Error(`the dump did not write ${name}.json`);
  }
  return index;
}

/**
 * parseBench reads `go test -bench` output: for each benchmark name (the -N GOMAXPROCS suffix
 * dropped), each run's metrics by unit ({"ns/op": …, "cpu-ns/op": …, "cells": …}).
 */
export function parseBench(text) {
  const out = new Map();
  for (const line of text.split("\n")) {
    const m = /^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$/.exec(line.trim());
    if (!m) continue;
    const fields = m[3].trim().split(/\s+/);
    const metrics = { iterations: Number(m[2]) };
    for (let i = 0; i + 1 < fields.length; i += 2) metrics[fields[i + 1]] = Number(fields[i]);
    if (!out.has(m[1])) out.set(m[1], []);
    out.get(m[1]).push(metrics);
  }
  return out;
}

/** summary of a benchmark's runs: the median of each metric, and ns/op's spread. */
export function summary(runs) {
  const units = new Set(runs.flatMap((r) => Object.keys(r)));
  const median = {};
  for (const u of units) median[u] = stats(runs.map((r) => r[u]).filter((v) => v !== undefined)).median;
  const ns = stats(runs.map((r) => r["ns/op"]));
  return { runs: runs.length, median, min: ns.min, max: ns.max, samples: runs };
}

/**
 * goBench runs pattern's benchmarks of pkg -count times (with flags, such as -benchmem) and returns
 * Map name → summary, and the command line.
 */
export function goBench(root, pkg, pattern, { benchtime, count, env = {}, flags = [] }) {
  const args = ["test", "-run", "^$", "-bench", pattern, "-benchtime", benchtime, "-count", String(count), ...flags, pkg];
  const r = run(GO, args, { cwd: root, env });
  const parsed = parseBench(r.stdout);
  if (parsed.size === 0) throw new Error(`go ${args.join(" ")}: no benchmark ran:\n${r.stdout}\n${r.stderr}`);
  const skipped = /--- SKIP: (\S+)[\s\S]*?\n\s+(.*)/.exec(r.stdout);
  const out = new Map();
  for (const [name, runs] of parsed) out.set(name, summary(runs));
  return { results: out, command: `go ${args.join(" ")}`, skipped: skipped ? `${skipped[1]}: ${skipped[2]}` : null };
}

/** size runs make size and parses what it prints (it may fail past its limit: still parsed). */
export function size(root) {
  const r = run("make", ["-s", "size"], { cwd: root, allowFail: true });
  const text = `${r.stdout}\n${r.stderr}`;
  const files = {};
  for (const m of text.matchAll(/^(\S+)\s+raw\s+(\d+) B\s+gzip -9\s+(\d+) B\s+brotli -q 11\s+(\d+) B/gm)) {
    files[m[1]] = { raw: Number(m[2]), gzip: Number(m[3]), brotli: Number(m[4]) };
  }
  // "brotli 669096 B (1.516 x the floor, for scale): goal <= 600000 B not met, over by …"
  const goal = /brotli (\d+) B \(([\d.]+) x the floor, for scale\): goal <= (\d+) B (.*)/.exec(text);
  const gzip = /gzip\s+(\d+) B: goal <= (\d+) B (.*)/.exec(text);
  return {
    ok: r.status === 0,
    output: text.trim(),
    module: files["web/aoekit.wasm"] ?? null,
    floor: files["build/floor.wasm"] ?? null,
    ratio: goal ? Number(goal[2]) : null,
    goalBytes: goal ? Number(goal[3]) : null,
    verdict: goal ? goal[4] : null,
    gzipGoalBytes: gzip ? Number(gzip[2]) : null,
    gzipVerdict: gzip ? gzip[3] : null,
  };
}

/**
 * floor builds build/floor.wasm (make floor: a module with only syscall/js, built as aoekit.wasm
 * is) and returns its path under root, for the cold starts' scale.
 */
export function floor(root) {
  run("make", ["-s", "floor"], { cwd: root });
  return "/build/floor.wasm";
}

/** goVersion is `go version`'s answer. */
export function goVersion(root) {
  return run(GO, ["version"], { cwd: root }).stdout.trim();
}

/**
 * wireBench times the JSON door natively (web/bench/wire: wire.Evaluate and wire.DecodeRequest
 * on the dumped boards): what the module runs per evaluate, minus WebAssembly and the JS
 * boundary. Returns {case: {bytes, count, evaluate: {median, p95, n}, decode: {…}}}, in ns.
 */
export function wireBench(root, boards, names, { calls, budget }) {
  const r = run(GO, ["run", "./web/bench/wire", "-boards", boards, "-calls", String(calls), "-budget", `${budget}ms`, ...names], { cwd: root });
  return JSON.parse(r.stdout);
}
