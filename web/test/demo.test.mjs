// The demo page (web/demo) in headless Chromium: it loads the engine, draws the template the
// SPEC says, turns with the caster, follows a drag, toggles walls and reports errors.
// Expected counts come from SPEC §2.4–§2.5 (the demo clips to its one-level board).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { ROOT, WEB, chromium, serve } from "./helpers.mjs";

const SQ = 32; // the demo's pixels per square

test("demo: drag, rotate and edit a template, live", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const base = await serve(t, WEB);
  const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto(`${base}/demo/index.html`);
  const status = page.locator("#status");
  const state = () => page.evaluate(() => {
    const s = globalThis.__aoekitDemo.state;
    return { caster: { ...s.caster }, count: s.result && s.result.count, direction: s.result && s.result.direction, error: s.error, targets: s.result ? s.result.targets : [], obstacles: s.obstacles.size };
  });

  // Con4N from the caster: a cardinal cone of length 4 is L² = 16 squares on one level (§2.4).
  await page.waitForFunction(() => globalThis.__aoekitDemo?.state.result, null, { timeout: 30_000 });
  assert.match(await status.textContent(), /^Con4N: 16 squares, toward N/);

  // Turning the caster 45° right points the same relative cone NE: L(L+1)/2 = 10 squares (§1.3, §2.5).
  await page.click("#rotr");
  let s = await state();
  assert.equal(s.caster.facing, 1);
  assert.equal(s.count, 10);
  assert.equal(s.direction, "NE");
  await page.click("#rotl");
  assert.equal((await state()).count, 16);

  // Dragging the caster two squares east moves the cone with it; tokens in the cone are listed.
  const canvas = await page.locator("#board").boundingBox();
  const at = (x, y) => [canvas.x + x * SQ + SQ / 2, canvas.y + y * SQ + SQ / 2];
  s = await state();
  await page.mouse.move(...at(s.caster.x, s.caster.y));
  await page.mouse.down();
  await page.mouse.move(...at(s.caster.x + 1, s.caster.y), { steps: 3 });
  await page.mouse.move(...at(s.caster.x + 2, s.caster.y), { steps: 3 });
  await page.mouse.up();
  const moved = await state();
  assert.deepEqual([moved.caster.x, moved.caster.y], [s.caster.x + 2, s.caster.y]);
  assert.equal(moved.count, 16);
  const listed = await page.locator("#targets li").allTextContents();
  assert.equal(listed.length, moved.targets.length);
  assert.ok(moved.targets.every((tg) => tg.inArea || tg.reason), "every listed target is in the area or says why not");

  // Clicking an empty square adds a wall; clicking it again removes it.
  const before = moved.obstacles;
  await page.mouse.click(...at(1, 1));
  assert.equal((await state()).obstacles, before + 1);
  await page.mouse.click(...at(1, 1));
  assert.equal((await state()).obstacles, before);

  // A malformed notation is reported with its code and position, and a good one recovers.
  await page.fill("#notation", "Con4");
  assert.match(await status.textContent(), /^bad_notation: Con4: a cone needs a direction .* at position 5$/);
  assert.equal(await status.getAttribute("class"), "error");
  await page.selectOption("#presets", "Cir3");
  s = await state();
  assert.equal(s.error, "");
  assert.equal(s.count, 49, "Cir3 is (2R+1)² = 49 squares on one level (§2.3)");

  const shots = join(ROOT, "build");
  mkdirSync(shots, { recursive: true });
  writeFileSync(join(shots, "demo.png"), await page.screenshot());
  assert.deepEqual(errors, []);
  await page.close();
});
