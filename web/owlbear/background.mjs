// @ts-check
// aoekit for Owlbear Rodeo: the background page (manifest `background_url`), which Owlbear runs
// for as long as the room is open, popover or not. It keeps everything the extension shows:
//
// - the selection's template (a circle or rectangle shape, or the written template used by the
//   selected token), evaluated as the selection and the scene change, drawn as local items (only
//   this player sees them), its targets listed in the popover, the affected tokens selected if
//   asked;
// - the templates placed with the tool (OBR.tool: modes circle/sphere, cone, line, square and the
//   written notation): dragged on the board — snapped as the scene's grid snaps, turned by the
//   drag, by 15° steps with Shift held and by [ and ] — drawn as local items while dragging, then
//   a scene item everyone sees (a PATH of the area's squares, its PlacedRecord in its metadata:
//   move it and the template moves, delete it and it is gone). Each player's page rings the
//   tokens it affects (only those that player can see), labels their cover, and draws the cover
//   lines of the token that player selects;
// - the context menus: a token's elevation, side, size and taking cover, a drawing's wall tag,
//   heights and door (menu.html, embedded in Owlbear's context menu), and a door's quick toggle.
//
// The popover (index.html, owlbear.mjs) is a view: it sends the settings and reads the state over
// OBR.broadcast (prefs.mjs CHANNEL, this player's frames only). The mapping from items to aoekit
// requests is map.mjs (pure, tested). Type-checked, strict, against @owlbear-rodeo/sdk's
// declarations: web/owlbear/tsconfig.json.
import OBR, { buildLabel, buildLine, buildPath, buildShape, isPath } from "./obr-sdk.js";

import { load } from "./index.js";
import {
  META, RULES_KEY, TEMPLATE_KEY, TOOL_MODES, affectedIds, areaCommands, cellRuns, coverSegments, coverText, frameOf,
  gridNotice, isToken, labelPoint, mergeTargets, placedRecord, requestFrom, ringOf, roomRules, rotateAbout, runRect, snapAngle,
} from "./map.mjs";
import { CHANNEL, SOURCE_BOXES, normalPrefs, readPrefs, savePrefs } from "./prefs.mjs";

/** @import { Item, Metadata, ToolContext, ToolEvent, KeyEvent, Vector2 } from "./obr-sdk.js" */
/** @import { Engine, Result } from "./index.js" */
/** @import { Built, Merged, Frame, PlacedRecord } from "./map.mjs" */
/** @import { Prefs, State, ListedTarget, ListedTemplate, Message } from "./prefs.mjs" */

/** The local items this page draws carry DRAWN: which drawing they belong to. */
const DRAWN = `${META}/drawn`;
/** @typedef {"selection" | "placed" | "lines" | "preview"} Kind */
const TOOL_ID = `${META}/tool`;
/** The tool's modes: their ids, labels and icons (folder files: relative to this module). */
const MODES = /** @type {const} */ ([
  ["circle", "Circle or sphere (drag from its centre)"],
  ["cone", "Cone (drag from its origin toward where it points)"],
  ["line", "Line (drag from its origin)"],
  ["square", "Square or cube (drag from a corner)"],
  ["notation", "The template written in the popover"],
]);
// Absolute: the SDK makes any URL that does not start with "http" origin-relative
// (common/normalize.js: `${window.location.origin}${url}`), which a folder under a sub-path breaks.
/** @param {string} file */
const here = (file) => new URL(`./${file}`, import.meta.url).href;
const ICON = here("icon.svg");

let prefs = readPrefs();
/** @type {Engine | null} */
let engine = null;
/** @type {"GM" | "PLAYER"} */
let role = "PLAYER";
let playerId = "";
/** @type {State} */
let state = { ready: false, notice: null, status: "Loading the engine…", error: false, targets: [], placed: [] };
let sentState = "";

// ---------------------------------------------------------------------------------------------
// Runs: calls while one runs are folded into one more run after it, forced when one of them was.

let running = false;
/** @type {{force: boolean} | null} */
let again = null;

async function run({ force = false } = {}) {
  if (!engine) return;
  if (running) {
    again = { force: force || again?.force === true };
    return;
  }
  running = true;
  try {
    await evaluateAll(engine, force);
  } catch (err) {
    state = { ...state, status: message(err), error: true, targets: [] };
  } finally {
    running = false;
    publish();
    if (again) {
      const next = again;
      again = null;
      run(next);
    }
  }
}

/** @param {unknown} err */
const message = (err) => (err instanceof Error ? err.message : String(err));

/** The scene as one read. */
async function readScene() {
  const [items, local, selection, dpi, scale, type, measurement] = await Promise.all([
    OBR.scene.items.getItems(),
    OBR.scene.local.getItems(),
    OBR.player.getSelection(),
    OBR.scene.grid.getDpi(),
    OBR.scene.grid.getScale(),
    OBR.scene.grid.getType(),
    OBR.scene.grid.getMeasurement(),
  ]);
  return { items, local, selection: selection ?? [], grid: { dpi, scale, type, measurement } };
}
/** @typedef {Awaited<ReturnType<typeof readScene>>} Scene */

/** What requestFrom needs from the settings and the scene. @param {Scene} scene */
const common = (scene) => ({
  items: scene.items,
  local: scene.local,
  grid: scene.grid,
  rules: prefs.rules,
  includeHidden: role === "GM",
  sources: SOURCE_BOXES.filter((s) => prefs.sources[s]),
  drawings: prefs.drawings,
});

/** @param {Engine} engine @param {boolean} force */
async function evaluateAll(engine, force) {
  const scene = await readScene();
  const unsupported = gridNotice(scene.grid.type);
  if (unsupported) {
    await replace(["selection", "placed", "lines"], []);
    state = { ready: true, notice: unsupported, status: "", error: false, targets: [], placed: [] };
    return;
  }
  state = { ...state, ready: true, notice: null };
  const frame = frameOf(scene.grid);
  if (prefs.live || force) await evaluateSelection(engine, scene, frame);
  await evaluatePlaced(engine, scene, frame);
}

// ---------------------------------------------------------------------------------------------
// The selection's template.

// The selection this page made itself (selecting the affected tokens): the change it causes is
// not a new question, and must not replace the template being shown.
/** @type {string | null} */
let ownSelection = null;
/** @type {string[]} */
let lastSelection = [];
/** @param {Iterable<string> | undefined} ids */
const key = (ids) => [...(ids ?? [])].sort().join(",");

/** A SHAPE that can be a template: a circle or a rectangle. @param {Item} item */
function isTemplateShape(item) {
  const t = /** @type {{shapeType?: unknown}} */ (item).shapeType;
  return item.type === "SHAPE" && (t === "CIRCLE" || t === "RECTANGLE");
}

/** @param {Engine} engine @param {Scene} scene @param {Frame} frame */
async function evaluateSelection(engine, scene, frame) {
  let selection = scene.selection;
  if (ownSelection !== null && key(selection) === ownSelection) selection = lastSelection;
  else {
    lastSelection = selection;
    ownSelection = null;
  }
  const byId = new Map(scene.items.map((i) => [i.id, i]));
  const selected = selection.map((id) => byId.get(id)).filter((i) => i !== undefined);
  const point = prefs.rules === "dnd5e" || prefs.rules === "pf2e";
  // A selected circle or rectangle is the template; otherwise the notation, used by the first
  // selected token, from the next selected item, toward the one after it. (A placed template
  // selected is the tool's: it is listed with the placed ones.)
  const shape = selected.find(isTemplateShape);
  const tokens = selected.filter(isToken);
  const others = selected.filter((i) => i !== tokens[0] && i !== shape && i.metadata?.[TEMPLATE_KEY] === undefined);
  if (!shape && (!prefs.notation.trim() || tokens.length + others.length === 0)) {
    await replace(["selection"], []);
    state = {
      ...state,
      error: false,
      targets: [],
      status: point
        ? "Select a circle or square shape, or write an area (20-foot-radius sphere, 15-foot cone, 10-foot emanation) and select the token that uses it (then the item at its point, or the one a cone or line points at). Or place one with the aoekit tool."
        : "Select a circle or rectangle shape, or write a template and select the token that uses it (then, for placed shapes, the item on its origin square). Or place one with the aoekit tool.",
    };
    return;
  }
  try {
    const built = requestFrom({
      ...common(scene),
      ...(shape ? { shapeId: shape.id } : { notation: prefs.notation }),
      ...(tokens[0] ? { casterId: tokens[0].id } : {}),
      ...(!shape && others[0] ? { originId: others[0].id } : {}),
      ...(!shape && others[1] ? { aimId: others[1].id } : {}),
    });
    const result = engine.evaluate(built.request);
    const targets = mergeTargets(result.targets, built);
    await replace(["selection"], [...areaRects(result, frame), ...labels(targets, built, frame, byId)].map((b) => mark(b, "selection")));
    const hint = prefs.rules === "pf2e" && scene.grid.measurement !== "ALTERNATING" ? ` (This scene measures distances ${scene.grid.measurement.toLowerCase()}: Pathfinder's are Alternating, in the grid's settings.)` : "";
    state = { ...state, error: false, targets: listed(targets, byId), status: `${summary(result, targets)}${hint}` };
    if (prefs.select) {
      const ids = affectedIds(targets);
      if (ids.length && key(ids) !== ownSelection && key(ids) !== key(selection)) {
        ownSelection = key(ids);
        await OBR.player.select(ids, true);
      }
    }
  } catch (err) {
    // A refusal takes the last answer away: it belongs to a placement that is no longer there.
    await replace(["selection"], []);
    state = { ...state, error: true, targets: [], status: message(err) };
  }
}

/** @param {Merged[]} targets @param {Map<string, Item>} byId @returns {ListedTarget[]} */
function listed(targets, byId) {
  return targets.map((t) => ({
    name: byId.get(t.id)?.name ?? t.id,
    text: `${t.affected ? "affected" : `not affected (${t.reason ?? "—"})`}, cover ${t.cover}${t.bonus ? ` (+${t.bonus})` : ""}${t.caster ? ", the caster" : ""}`,
    hit: t.affected,
  }));
}

// ---------------------------------------------------------------------------------------------
// Drawing: builders, each marked with the drawing it belongs to.

/** @param {Item} item @param {Kind} kind */
function mark(item, kind) {
  item.metadata = { ...item.metadata, [DRAWN]: kind };
  return item;
}

/** An answer's runs of squares on its origin's level. @param {Result} result */
const runsOf = (result) => cellRuns(result.cells, Math.floor(result.origin?.z ?? 0));

/** The status line for an answer. @param {Result} result @param {Merged[]} targets */
const summary = (result, targets) => `${result.template.notation}: ${result.count} squares, ${targets.filter((t) => t.affected && !t.caster).length} affected.`;

/** One rectangle a run of squares on the origin's level. @param {Result} result @param {Frame} frame @param {string} [color] */
function areaRects(result, frame, color = "#ff8c00") {
  return runsOf(result).map((r) => {
    const rect = runRect(r, frame);
    return buildShape().shapeType("RECTANGLE").position(rect.position).width(rect.width).height(rect.height).fillColor(color).fillOpacity(0.36).strokeWidth(0).layer("DRAWING").locked(true).disableHit(true).build();
  });
}

/** A label over each token in the area with its cover. @param {Merged[]} targets @param {Built} built @param {Frame} frame @param {Map<string, Item>} byId */
function labels(targets, built, frame, byId) {
  /** @type {Item[]} */
  const out = [];
  for (const t of targets) {
    if (!t.inArea) continue;
    const piece = [...built.request.tokens, built.request.caster].find((p) => p && (built.pieces[p.id] ?? p.id) === t.id);
    if (!piece) continue;
    out.push(
      buildLabel().plainText(`${byId.get(t.id)?.name ?? t.id}: ${coverText(t)}`).position(labelPoint(piece, frame)).pointerDirection("DOWN")
        .backgroundColor(t.affected ? "#ffd400" : "#222222").fillColor(t.affected ? "#1f2328" : "#ffffff").backgroundOpacity(0.85)
        .layer("TEXT").locked(true).disableHit(true).build(),
    );
  }
  return out;
}

/** A ring around each token in the area: solid gold when affected, dashed grey when not. @param {Merged[]} targets @param {Built} built @param {Frame} frame */
function rings(targets, built, frame) {
  /** @type {Item[]} */
  const out = [];
  for (const t of targets) {
    if (!t.inArea) continue;
    const ring = ringOf(t.id, built, frame);
    if (!ring) continue;
    const shape = buildShape().shapeType("CIRCLE").position(ring.position).width(ring.width).height(ring.height).fillOpacity(0)
      .strokeColor(t.affected ? "#ffd400" : "#9e9e9e").strokeWidth(Math.max(2, frame.dpi / 25)).strokeOpacity(1).layer("ATTACHMENT").locked(true).disableHit(true).name(`aoekit ring: ${t.id}`);
    if (!t.affected) shape.strokeDash([frame.dpi / 10, frame.dpi / 15]);
    out.push(shape.build());
  }
  return out;
}

// Local items are replaced a drawing (a Kind) at a time: the old ones are found by their mark,
// so other extensions' local items (Dynamic Fog's walls) are never touched.
/**
 * @param {readonly Kind[]} kinds @param {Item[]} items
 */
async function replace(kinds, items) {
  const old = await OBR.scene.local.getItems((i) => kinds.includes(/** @type {Kind} */ (i.metadata?.[DRAWN])));
  if (old.length) await OBR.scene.local.deleteItems(old.map((i) => i.id));
  if (items.length) await OBR.scene.local.addItems(items);
}

// ---------------------------------------------------------------------------------------------
// The templates placed with the tool.

/** @param {Engine} engine @param {Scene} scene @param {Frame} frame */
async function evaluatePlaced(engine, scene, frame) {
  const byId = new Map(scene.items.map((i) => [i.id, i]));
  const selectedTokens = new Set(scene.selection.filter((id) => isToken(byId.get(id))));
  /** @type {Item[]} */
  const drawn = [];
  /** @type {Item[]} */
  const lines = [];
  /** @type {ListedTemplate[]} */
  const placed = [];
  /** @type {{id: string, commands: ReturnType<typeof areaCommands>}[]} */
  const updates = [];
  for (const item of scene.items) {
    const record = placedRecord(item);
    // A template the GM hid is not a player's: Owlbear does not show it to them, nor do its
    // rings, labels and list.
    if (!record || (item.visible === false && role !== "GM")) continue;
    const entry = { id: item.id, notation: record.mode, error: /** @type {string | null} */ (null), squares: 0, targets: /** @type {ListedTarget[]} */ ([]) };
    let commands = /** @type {ReturnType<typeof areaCommands>} */ ([]);
    try {
      const built = requestFrom({ ...common(scene), placed: record });
      const result = engine.evaluate(built.request);
      const targets = mergeTargets(result.targets, built);
      entry.notation = result.template.notation;
      entry.squares = result.count;
      entry.targets = listed(targets.filter((t) => t.inArea), byId);
      commands = areaCommands(runsOf(result), frame, item.position);
      drawn.push(...rings(targets, built, frame), ...labels(targets, built, frame, byId));
      for (const t of targets) if (selectedTokens.has(t.id) && t.inArea) lines.push(...coverLines(t, frame));
    } catch (err) {
      entry.error = message(err);
    }
    placed.push(entry);
    // The placer's page keeps the scene item's area in step with the scene (a wall opened, the item moved).
    const have = /** @type {{commands?: unknown}} */ (item).commands;
    if (record.by === playerId && JSON.stringify(have) !== JSON.stringify(commands)) updates.push({ id: item.id, commands });
  }
  await replace(["placed", "lines"], [...drawn.map((i) => mark(i, "placed")), ...lines.map((i) => mark(i, "lines"))]);
  if (updates.length) {
    const next = new Map(updates.map((u) => [u.id, u.commands]));
    await OBR.scene.items.updateItems(updates.map((u) => u.id), (drafts) => {
      for (const d of drafts) {
        const commands = next.get(d.id);
        if (isPath(d) && commands) d.commands = commands;
      }
    });
  }
  state = { ...state, placed };
}

/** A target's cover lines: red where blocked, green where clear. @param {Merged} target @param {Frame} frame */
function coverLines(target, frame) {
  return coverSegments(target, frame).map((s) =>
    buildLine().startPosition(s.start).endPosition(s.end).strokeColor(s.blocked ? "#e53935" : "#43a047").strokeWidth(Math.max(2, frame.dpi / 50)).strokeOpacity(0.9)
      .layer("RULER").locked(true).disableHit(true).name(`aoekit cover line: ${target.id}`).build(),
  );
}

// ---------------------------------------------------------------------------------------------
// The tool: a drag places a template.

/**
 * The drag under way: its start (snapped, once known), the scene as it began (read once: the
 * preview is evaluated on it at every move), the pointer, the turn [ and ] gave it, Shift's 15°
 * steps, and the preview being drawn.
 * @type {{mode: string, start: Promise<Vector2>, scene: Promise<Scene>, pointer: Vector2, turn: number, shift: boolean, drawing: Promise<void> | null, dirty: boolean, done: boolean} | null}
 */
let drag = null;
/** The last template this page placed (turned by [ and ] after the drag). @type {string | null} */
let lastPlaced = null;

/** The mode's part of its id (`${META}/mode/cone` → "cone"). @param {string | undefined} id */
const modeOf = (id) => (id ?? "").replace(`${META}/mode/`, "");

/** The record a drag stands for now. @param {NonNullable<typeof drag>} d @param {Vector2} start @returns {PlacedRecord} */
function recordOf(d, start) {
  let end = rotateAbout(start, d.pointer, d.turn);
  if (d.shift) end = snapAngle(start, end, 15);
  return { mode: d.mode, start, end, ...(d.mode === "notation" ? { notation: prefs.notation } : {}), ...(playerId ? { by: playerId } : {}) };
}

/** Draws the drag's preview (local items), again while the pointer moved during a drawing. @param {NonNullable<typeof drag>} d */
function preview(d) {
  d.dirty = true;
  if (d.drawing) return d.drawing;
  d.drawing = (async () => {
    while (d.dirty && !d.done) {
      d.dirty = false;
      const start = await d.start;
      try {
        const items = await previewItems(recordOf(d, start), await d.scene);
        if (!d.done) await replace(["preview"], items.map((i) => mark(i, "preview")));
      } catch (err) {
        if (!d.done) await replace(["preview"], []);
        state = { ...state, status: message(err), error: true };
        publish();
      }
    }
    d.drawing = null;
  })();
  return d.drawing;
}

/** The preview of a record: its area, rings and labels. @param {PlacedRecord} record @param {Scene} scene */
function previewItems(record, scene) {
  if (!engine) return [];
  if (gridNotice(scene.grid.type)) return [];
  const frame = frameOf(scene.grid);
  const built = requestFrom({ ...common(scene), placed: record });
  const result = engine.evaluate(built.request);
  const targets = mergeTargets(result.targets, built);
  const byId = new Map(scene.items.map((i) => [i.id, i]));
  state = { ...state, status: summary(result, targets), error: false };
  publish();
  return [...areaRects(result, frame, "#ff8c00"), ...rings(targets, built, frame), ...labels(targets, built, frame, byId)];
}

/** The scene item of a placed template: a PATH of its area, at the drag's start. @param {PlacedRecord} record */
async function placeItem(record) {
  if (!engine) return null;
  const scene = await readScene();
  const frame = frameOf(scene.grid);
  const built = requestFrom({ ...common(scene), placed: record });
  const result = engine.evaluate(built.request);
  const at = record.start;
  const stored = { mode: record.mode, start: { x: 0, y: 0 }, end: { x: record.end.x - at.x, y: record.end.y - at.y }, ...(record.notation !== undefined ? { notation: record.notation } : {}), ...(record.by ? { by: record.by } : {}) };
  return buildPath()
    .commands(areaCommands(runsOf(result), frame, at))
    .position(at)
    .fillColor("#ff8c00")
    .fillOpacity(0.3)
    .strokeColor("#ff8c00")
    .strokeOpacity(0.9)
    .strokeWidth(0)
    .layer("DRAWING")
    .name(`aoekit: ${result.template.notation}`)
    .metadata({ [TEMPLATE_KEY]: stored })
    .build();
}

/** @param {ToolContext} context @param {ToolEvent} event */
function dragStart(context, event) {
  const mode = modeOf(context.activeMode);
  if (!TOOL_MODES.includes(mode)) return;
  const scene = readScene();
  scene.catch(() => {}); // its failure is the preview's, when it reads it
  drag = { mode, start: OBR.scene.grid.snapPosition(event.pointerPosition), scene, pointer: event.pointerPosition, turn: 0, shift: event.shiftKey, drawing: null, dirty: false, done: false };
  preview(drag);
}

/** @param {ToolContext} _context @param {ToolEvent} event */
function dragMove(_context, event) {
  if (!drag) return;
  drag.pointer = event.pointerPosition;
  drag.shift = event.shiftKey;
  preview(drag);
}

/** @param {ToolContext} _context @param {ToolEvent} event */
async function dragEnd(_context, event) {
  const d = drag;
  if (!d) return;
  drag = null;
  d.pointer = event.pointerPosition;
  d.shift = event.shiftKey;
  d.done = true;
  await d.drawing;
  try {
    const item = await placeItem(recordOf(d, await d.start));
    await replace(["preview"], []);
    if (item) {
      await OBR.scene.items.addItems([item]);
      lastPlaced = item.id;
    }
  } catch (err) {
    await replace(["preview"], []);
    state = { ...state, status: message(err), error: true };
    publish();
  }
  run();
}

async function dragCancel() {
  const d = drag;
  drag = null;
  if (d) {
    d.done = true;
    await d.drawing;
  }
  await replace(["preview"], []);
}

/** [ and ] turn the drag, or after it the last template placed, by 15°. @param {ToolContext} _context @param {KeyEvent} event */
async function keyDown(_context, event) {
  const step = event.key === "[" ? -15 : event.key === "]" ? 15 : 0;
  if (!step) return;
  if (drag) {
    drag.turn += step;
    preview(drag);
    return;
  }
  if (!lastPlaced) return;
  const id = lastPlaced;
  await OBR.scene.items.updateItems([id], (drafts) => {
    for (const d of drafts) {
      const r = /** @type {{start?: Vector2, end?: Vector2} | undefined} */ (d.metadata[TEMPLATE_KEY]);
      if (!r?.start || !r.end) continue;
      d.metadata[TEMPLATE_KEY] = { ...r, end: rotateAbout(r.start, r.end, step) };
    }
  });
}

async function createTool() {
  await OBR.tool.create({
    id: TOOL_ID,
    icons: [{ icon: ICON, label: "aoekit: place a template" }],
    defaultMode: `${META}/mode/circle`,
    shortcut: "Shift+A",
  });
  for (const [mode, label] of MODES) {
    await OBR.tool.createMode({
      id: `${META}/mode/${mode}`,
      icons: [{ icon: here(`tool-${mode}.svg`), label, filter: { activeTools: [TOOL_ID] } }],
      cursors: [{ cursor: "crosshair" }],
      // A click on a token selects it (its cover lines are drawn); elsewhere it does nothing.
      onToolClick: (_context, event) => event.target !== undefined && isToken(event.target),
      onToolDragStart: dragStart,
      onToolDragMove: dragMove,
      onToolDragEnd: (context, event) => {
        dragEnd(context, event);
      },
      onToolDragCancel: () => {
        dragCancel();
      },
      onDeactivate: () => {
        dragCancel();
      },
      onKeyDown: (context, event) => {
        keyDown(context, event);
      },
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Context menus: a token's settings and a drawing's (menu.html, embedded), and a door's toggle.

async function contextMenus() {
  await OBR.contextMenu.create({
    id: `${META}/token`,
    icons: [{
      icon: ICON,
      label: "aoekit: elevation, side, size, cover",
      filter: { min: 1, every: [{ key: "type", value: "IMAGE" }, { key: "layer", value: "CHARACTER", coordinator: "||" }, { key: "layer", value: "MOUNT" }], permissions: ["UPDATE"] },
    }],
    embed: { url: here("menu.html?for=token"), height: 196 },
  });
  await OBR.contextMenu.create({
    id: `${META}/wall`,
    icons: [{
      icon: ICON,
      label: "aoekit: wall, heights, door",
      filter: { min: 1, every: [{ key: "type", value: "IMAGE", operator: "!=" }, { key: "type", value: "WALL", operator: "!=" }, { key: ["metadata", TEMPLATE_KEY], value: undefined }], permissions: ["UPDATE"] },
    }],
    embed: { url: here("menu.html?for=wall"), height: 172 },
  });
  await OBR.contextMenu.create({
    id: `${META}/door`,
    icons: [{ icon: ICON, label: "aoekit: open / close door", filter: { every: [{ key: "type", value: "IMAGE", operator: "!=" }, { key: ["metadata", `${META}/wall`], value: undefined, operator: "!=" }], permissions: ["UPDATE"] } }],
    onClick: ({ items }) => {
      OBR.scene.items.updateItems(items.map((i) => i.id), (drafts) => {
        for (const d of drafts) {
          const tag = d.metadata[`${META}/wall`];
          const wall = tag && typeof tag === "object" ? /** @type {{open?: boolean}} */ (tag) : {};
          d.metadata[`${META}/wall`] = { ...wall, open: !wall.open };
        }
      });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// The popover's view of it all.

function publish() {
  const text = JSON.stringify(state);
  if (text === sentState) return;
  sentState = text;
  send({ kind: "state", state });
}

/** @param {Message} msg */
function send(msg) {
  OBR.broadcast.sendMessage(CHANNEL, msg, { destination: "LOCAL" }).catch(() => {});
}

/** @param {Message} msg */
async function onMessage(msg) {
  if (msg.kind === "hello") {
    sentState = "";
    publish();
  } else if (msg.kind === "prefs") {
    const rules = prefs.rules;
    prefs = normalPrefs(msg.prefs);
    // The room's rule set wins over a player's: only the GM's choice changes it (owlbear.mjs).
    if (role !== "GM" && rules !== prefs.rules) prefs.rules = rules;
    run();
  } else if (msg.kind === "evaluate") {
    run({ force: true });
  } else if (msg.kind === "clear") {
    await replace(["selection"], []);
    state = { ...state, status: "Cleared.", error: false, targets: [] };
    publish();
  }
}

/** The room's rule set, when its metadata names one. @param {Metadata} metadata */
function followRoom(metadata) {
  const rules = roomRules(metadata);
  if (!rules || rules === prefs.rules) return false;
  prefs = { ...prefs, rules };
  savePrefs(prefs);
  return true;
}

/** What the local WALL items are, so that a change to them (Dynamic Fog's, after a door opens) runs again, and this page's own drawing does not. @param {Item[]} items */
const wallsKey = (items) => items.filter((i) => i.type === "WALL").map((i) => `${i.id}@${i.lastModified}`).sort().join(",");

OBR.onReady(async () => {
  OBR.broadcast.onMessage(CHANNEL, (event) => {
    onMessage(/** @type {Message} */ (event.data));
  });
  try {
    engine = await load();
  } catch (err) {
    state = { ...state, status: `The engine could not load: ${message(err)}`, error: true };
    publish();
    return;
  }
  state = { ...state, status: "Ready.", ready: true };
  const [who, id, metadata, local] = await Promise.all([OBR.player.getRole(), OBR.player.getId(), OBR.room.getMetadata(), OBR.scene.local.getItems()]).catch(() => /** @type {["GM" | "PLAYER", string, Metadata, Item[]]} */ (["PLAYER", "", {}, []]));
  role = who;
  playerId = id;
  followRoom(metadata);
  if (role === "GM" && !roomRules(metadata)) OBR.room.setMetadata({ [RULES_KEY]: prefs.rules }).catch(() => {});
  await Promise.all([createTool(), contextMenus()]).catch((err) => {
    state = { ...state, status: `Owlbear refused the tool or a menu: ${message(err)}`, error: true };
  });
  let walls = wallsKey(local);
  OBR.player.onChange(() => run());
  OBR.scene.items.onChange(() => run());
  OBR.scene.grid.onChange(() => run());
  OBR.scene.local.onChange((items) => {
    const next = wallsKey(items);
    if (next === walls) return;
    walls = next;
    run();
  });
  OBR.room.onMetadataChange((m) => {
    if (followRoom(m)) run();
  });
  run();
});
