// One engine, one answer (SPEC §8.1): every request of the cross-door corpus
// (wasm/identity/requests.json) through the built package gives the Go door's bytes
// (`go run ./wasm/identity`): JSON.stringify of the JS result, byte for byte; for an error, the
// same code, message and at.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { GO, ROOT, engine } from "./helpers.mjs";

const corpus = JSON.parse(readFileSync(join(ROOT, "wasm/identity/requests.json"), "utf8"));
const answers = new Map(
  JSON.parse(execFileSync(GO, ["run", "./wasm/identity"], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28 }))
    .map((a) => [a.name, a]),
);

// METHODS names each door's engine method: the corpus names a door by its HTTP path.
const METHODS = { parse: "parse", evaluate: "evaluate", move: "move", cover: "cover", "full-attack": "fullAttack" };

// call sends an entry through the browser door as a user would: parse takes the text.
function call(e, door, body) {
  return door === "parse" ? e.parse(body.text) : e[METHODS[door]](body);
}

function outcome(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error };
  }
}

// difference shows where two texts part.
function difference(got, want) {
  let i = 0;
  while (i < got.length && got[i] === want[i]) i++;
  const from = Math.max(0, i - 60);
  return `differs at ${i}:\n  browser …${got.slice(from, i + 60)}\n  Go      …${want.slice(from, i + 60)}`;
}

function sameError(got, body, what) {
  const want = JSON.parse(body).error;
  assert.ok(got instanceof Error, `${what}: not an Error: ${got}`);
  assert.deepEqual({ code: got.code, message: got.message, at: got.at }, { code: want.code, message: want.message, at: want.at }, what);
}

test("the corpus and the Go door's answers cover the same requests, every door and outcome", () => {
  assert.deepEqual(corpus.map((c) => c.name).sort(), [...answers.keys()].sort());
  assert.deepEqual([...new Set(corpus.map((c) => c.door))].sort(), Object.keys(METHODS).sort());
  for (const door of Object.keys(METHODS)) {
    const entries = corpus.filter((c) => c.door === door);
    assert.ok(entries.some((c) => answers.get(c.name).status === 200), `${door}: an answer`);
    assert.ok(entries.some((c) => answers.get(c.name).status !== 200), `${door}: an error`);
  }
});

test("every corpus request: the browser door's JSON is the Go door's, byte for byte", async () => {
  const e = await engine();
  const failures = [];
  for (const { name, door, body } of corpus) {
    if (door === "parse" && (body === null || typeof body !== "object" || Array.isArray(body))) continue; // parse(text) cannot send it
    const want = answers.get(name);
    const got = outcome(() => call(e, door, body));
    try {
      if (want.status === 200) {
        assert.ok(!got.error, `${name}: threw ${got.error?.code}: ${got.error?.message}`);
        const json = JSON.stringify(got.value);
        assert.ok(json === want.body, `${name}: ${difference(json, want.body)}`);
      } else {
        sameError(got.error, want.body, name);
      }
    } catch (err) {
      failures.push(err.message);
    }
  }
  assert.deepEqual(failures, []);
});

test("every evaluate request: evaluateCells gives evaluate's cells, or its error", async () => {
  const e = await engine();
  for (const { name, door, body } of corpus.filter((c) => c.door === "evaluate")) {
    const want = answers.get(name);
    const got = outcome(() => e.evaluateCells(body));
    if (want.status === 200) {
      assert.ok(got.value instanceof Int32Array, `${name}: ${got.error?.message}`);
      assert.ok(JSON.stringify(Array.from(got.value)) === JSON.stringify(JSON.parse(want.body).cells.flat()), `${name}: other cells`);
    } else {
      sameError(got.error, want.body, `${name} (evaluateCells)`);
    }
  }
});
