// The Owlbear Rodeo extension against the real SDK (issue: "Its tests cannot catch a wrong SDK
// call: the SDK stub's builders accept any method name"). Two checks, both from
// @owlbear-rodeo/sdk's own declarations (lib/index.d.ts):
// - statically: web/owlbear/tsconfig.json, tsc --strict over owlbear.mjs and map.mjs (JSDoc,
//   @ts-check): a call, builder method, field or literal the SDK does not have is an error;
// - at run time: the stub the Chromium tests load (fixtures/owlbear-sdk-stub.mjs) serves only
//   what the declarations declare, with the arguments they allow, and builds with the SDK's own
//   builders; a call outside them throws and is recorded.
// Each is shown to catch wrong calls (a builder method, a literal, an API member, an argument
// count) and to pass the extension as it is.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import { OWLBEAR, ROOT, assemble, openPopover, sdkDir, sdkSurface, typeCheck, violations } from "./fixtures/owlbear-harness.mjs";
import { WEB, chromium, serve, tempDir } from "./helpers.mjs";

const FIXTURE = JSON.parse(readFileSync(join(WEB, "test/fixtures/owlbear-scene.json"), "utf8"));
const SOURCE = readFileSync(join(OWLBEAR, "background.mjs"), "utf8");

test("owlbear sdk: the SDK the checks read is the one the extension is built with", () => {
  const installed = JSON.parse(readFileSync(join(sdkDir(), "package.json"), "utf8")).version;
  const s = sdkSurface();
  assert.equal(s.version, installed);
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const pinned = pkg.devDependencies?.["@owlbear-rodeo/sdk"];
  if (pinned === undefined) {
    // Not yet a devDependency (npm install --save-dev --save-exact @owlbear-rodeo/sdk@3.1.0).
    console.error("\n*** @owlbear-rodeo/sdk is installed but not in package.json's devDependencies ***\n");
  } else assert.equal(pinned, installed, "an exact devDependency");
  // What the extension uses is declared.
  for (const path of ["scene.items.getItems", "scene.items.addItems", "scene.local.addItems", "scene.local.onChange", "scene.grid.getMeasurement", "scene.grid.snapPosition", "room.getMetadata", "room.setMetadata", "room.onMetadataChange", "player.select", "contextMenu.create", "tool.create", "tool.createMode", "broadcast.sendMessage", "broadcast.onMessage"]) {
    const m = path.split(".").reduce((node, k) => (node.kind === "api" ? node.members[k] : node[k]), s.OBR);
    assert.equal(m?.kind, "method", `OBR.${path} is a method of the SDK`);
  }
  assert.deepEqual(s.OBR.scene.members.grid.members.getMeasurement, { kind: "method", min: 0, max: 0, params: [] });
  assert.deepEqual(s.classes.ShapeBuilder.shapeType.params[0].literals, ["RECTANGLE", "CIRCLE", "TRIANGLE", "HEXAGON"]);
});

test("owlbear sdk: tsc --strict checks the extension against @owlbear-rodeo/sdk's types, and catches wrong calls", () => {
  // As it is: no error.
  assert.deepEqual(typeCheck(), []);
  // Each wrong call is an error that names it (all in one program: each on a line of its own).
  const wrong = [
    [".pointerDirection(\"DOWN\")", ".pointerDirection(\"BOTTOM\")", /"BOTTOM"/],
    [".fillOpacity(0.36)", ".fillOpacity(0.36)\n      .colour(\"#ff8c00\")", /colour/],
    ["OBR.scene.local.getItems()", "OBR.scene.local.getItemz()", /getItemz/],
    ["OBR.scene.grid.getMeasurement()", "OBR.scene.grid.getMeasurement(true)", /Expected 0 arguments/],
    [".layer(\"TEXT\")", ".layer(\"LABELS\")", /"LABELS"/],
    ["permissions: [\"UPDATE\"]", "permissions: [\"EDIT\"]", /"EDIT"/],
    // The tool, the context menus and the broadcast channel (Tool.d.ts, ContextMenu.d.ts, BroadcastApi.d.ts).
    ["onToolDragStart: dragStart,", "onDragStart: dragStart,", /onDragStart/],
    ["coordinator: \"||\"", "coordinator: \"OR\"", /"OR"/],
    ["{ destination: \"LOCAL\" }", "{ destination: \"SELF\" }", /"SELF"/],
    ["embed: { url: here(\"menu.html?for=token\"), height: 196 }", "embed: { href: here(\"menu.html?for=token\"), height: 196 }", /href/],
  ];
  let text = SOURCE;
  for (const [from, to] of wrong) {
    assert.ok(text.includes(from), `background.mjs has ${from}`);
    text = text.replace(from, to);
  }
  const errors = typeCheck({ "background.mjs": text });
  for (const [, to, error] of wrong) assert.ok(errors.some((e) => error.test(e) && e.includes("background.mjs")), `${to}: ${errors.join("\n") || "no error"}`);
  assert.ok(errors.every((e) => e.startsWith("web/owlbear/background.mjs(")), errors.join("\n"));
});

test("owlbear sdk: the stub refuses what the SDK does not declare, and builds as the SDK builds (Chromium)", async (t) => {
  const browser = await chromium(t);
  if (!browser) return;
  const dir = await assemble(tempDir(t, "aoekit-owlbear-sdk-"));
  const { page, logs } = await openPopover(t, browser, dir, { items: FIXTURE.items, grid: FIXTURE.grid, selection: [] }, { serve });
  await page.waitForFunction(() => /Select a circle/.test(document.getElementById("status").textContent), null, { timeout: 60_000 });
  assert.deepEqual(await violations(page), [], "the extension's calls are the SDK's");
  const out = await page.evaluate(async () => {
    const sdk = await import("./obr-sdk.js");
    const OBR = sdk.default;
    const attempt = (f) => {
      try {
        f();
        return "ok";
      } catch (e) {
        return e instanceof TypeError ? "refused" : `threw ${e}`;
      }
    };
    const shape = sdk.buildShape().shapeType("CIRCLE").width(10).height(10).layer("DRAWING").build();
    return {
      method: attempt(() => sdk.buildShape().colour("red")),
      literal: attempt(() => sdk.buildShape().shapeType("OVAL")),
      arity: attempt(() => sdk.buildLabel().plainText()),
      type: attempt(() => sdk.buildShape().width("10")),
      api: attempt(() => OBR.scene.items.getItemz()),
      member: attempt(() => OBR.scene.walls),
      calls: attempt(() => OBR.scene.grid.getType(1)),
      write: attempt(() => {
        OBR.scene.items.getItems = () => [];
      }),
      tool: attempt(() => OBR.tool.createMod({ id: "x", icons: [] })),
      broadcast: attempt(() => OBR.broadcast.sendMessage("channel-only")),
      good: attempt(() => sdk.buildWall().points([{ x: 0, y: 0 }]).doubleSided(false).build()),
      shape: { type: shape.type, shapeType: shape.shapeType, style: Object.keys(shape.style).sort(), layer: shape.layer },
      label: sdk.buildLabel().plainText("hi").build().text.plainText,
      recorded: window.obrViolations.length,
    };
  });
  assert.deepEqual(
    [out.method, out.literal, out.arity, out.type, out.api, out.member, out.calls, out.write, out.tool, out.broadcast, out.good],
    ["refused", "refused", "refused", "refused", "refused", "refused", "refused", "refused", "refused", "refused", "ok"],
  );
  assert.equal(out.recorded, 10, "each refusal is recorded, so that a test sees it even when the page catches it");
  // Built by the SDK's own builder: its fields, its defaults.
  assert.deepEqual(out.shape, { type: "SHAPE", shapeType: "CIRCLE", style: ["fillColor", "fillOpacity", "strokeColor", "strokeDash", "strokeOpacity", "strokeWidth"], layer: "DRAWING" });
  assert.equal(out.label, "hi");
  assert.deepEqual(logs, []);
});
