// The README's examples, run as printed. Every ```js block runs as its own ES module against
// the package (a block that does not import `load` gets the README's import line); each line
// ending in `// → value` is checked: the expression before the comment must equal the value.
// The ```go block runs with `go run`, and must print what the sentence after it says
// ("prints `…`"). The curl example is run by wasm/worker's TestREADME.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

import { GO, ROOT } from "./helpers.mjs";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
// Inside the repository (build/ is git-ignored), so that `import "aoekit"` resolves to this
// package by its own name, and `go run` finds this module.
const WORK = join(ROOT, "build", "readme");

/** blocks returns the fenced blocks of lang with the README line their first line is on. */
function blocks(lang) {
  const out = [];
  const re = new RegExp("^```" + lang + "\\n([\\s\\S]*?)^```$", "gm");
  for (let m; (m = re.exec(README)); ) {
    out.push({ line: README.slice(0, m.index).split("\n").length + 1, code: m[1], end: m.index + m[0].length });
  }
  return out;
}

// A checked line: an expression statement (not a declaration), then `// → expected`.
const CHECKED = /^(?!\s*(?:const|let|var|import|export|try|if|for)\b)(\s*)(.+?);?\s*\/\/ → (.+)$/;

/** instrument turns a block's checked lines into calls of __check(line, actual, expected). */
function instrument({ line, code }) {
  let checks = 0;
  const lines = code.split("\n").map((text, i) => {
    const m = CHECKED.exec(text);
    if (!m) return text;
    checks++;
    return `${m[1]}__check(${line + i}, ${m[2]}, ${m[3]});`;
  });
  const imports = /^import .*from "aoekit";$/m.test(code) ? "" : 'import { load } from "aoekit";\n';
  return { checks, source: imports + lines.join("\n") + "\n" };
}

test("README: every js example gives the answers it prints", async (t) => {
  mkdirSync(WORK, { recursive: true });
  t.after(() => rmSync(WORK, { recursive: true, force: true }));
  const js = blocks("js");
  assert.ok(js.length >= 2, `the README has ${js.length} js examples`);
  let ran = 0;
  globalThis.__check = (line, actual, expected) => {
    ran++;
    assert.deepEqual(actual, expected, `README.md:${line}: the example prints ${JSON.stringify(expected)}, the engine answers ${JSON.stringify(actual)}`);
  };
  t.after(() => delete globalThis.__check);
  let checks = 0;
  for (const [i, block] of js.entries()) {
    const { checks: n, source } = instrument(block);
    assert.ok(n > 0, `README.md:${block.line}: a js example with no "// → value" line checks nothing`);
    checks += n;
    const file = join(WORK, `block${i}.mjs`);
    writeFileSync(file, source);
    await import(pathToFileURL(file).href);
  }
  assert.equal(ran, checks, "every checked line ran");
});

test("README: the Go example prints what it says", (t) => {
  const [go, ...more] = blocks("go");
  assert.ok(go && more.length === 0, "the README has one go example");
  const said = /^prints `([^`]*)`/m.exec(README.slice(go.end));
  assert.ok(said, `README.md:${go.line}: the Go example is not followed by "prints \`…\`"`);
  const dir = join(WORK, "go");
  mkdirSync(dir, { recursive: true });
  t.after(() => rmSync(WORK, { recursive: true, force: true }));
  writeFileSync(join(dir, "main.go"), go.code);
  const out = execFileSync(GO, ["run", "./build/readme/go"], { cwd: ROOT, encoding: "utf8" });
  assert.equal(out.trim(), said[1]);
});
