// @ts-check
// aoekit for Owlbear Rodeo: the action popover. It evaluates a template — a circle or rectangle
// shape you select, or a notation you write, used by the token you select — against the scene's
// tokens and walls (this extension's tags, Dynamic Fog's walls and doors, Owlbear's WALL items,
// as the settings choose), draws the area and a cover label on each token it touches as local
// items (seen only by you), lists the targets and, if asked, selects the affected tokens. The
// rule set is the room's (its metadata, RULES_KEY: the GM chooses it), distances are counted as
// the scene's grid measures them, and a grid that is not square gets one notice, no evaluation.
// Everything Owlbear-specific lives here (the SDK); the mapping from items to aoekit requests is
// map.mjs (pure, tested). The SDK is obr-sdk.js, the npm package @owlbear-rodeo/sdk bundled
// beside this file when the folder is built (bundle.mjs; README.md): a relative import, so the
// folder works at any path of any origin, with no CDN and no inline script (a strict CSP).
// Type-checked, strict, against @owlbear-rodeo/sdk's declarations (obr-sdk.d.ts names them):
// web/owlbear/tsconfig.json.
import OBR, { buildLabel, buildShape } from "./obr-sdk.js";

import { load } from "./index.js";
import { META, RULES, RULES_KEY, affectedIds, cellRuns, coverText, frameOf, gridNotice, labelPoint, mergeTargets, requestFrom, roomRules, runRect } from "./map.mjs";

/** @import { Item, KeyFilter, Metadata, GridMeasurement } from "./obr-sdk.js" */
/** @import { Engine, Result } from "./index.js" */
/** @import { Built, Merged, Frame } from "./map.mjs" */

const DRAWN = `${META}/drawn`;
// Absolute: the SDK makes any URL that does not start with "http" origin-relative
// (common/normalize.js: `${window.location.origin}${url}`), which a folder under a sub-path breaks.
const ICON = new URL("./icon.svg", import.meta.url).href;
const PREFS = "aoekit-owlbear";
/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** The wall sources a checkbox each (map.mjs SOURCES; "drawings" has its own, older setting). */
const SOURCE_BOXES = /** @type {const} */ (["tagged", "fog", "walls"]);

/**
 * @typedef {object} Prefs
 * @property {string} rules
 * @property {string} notation
 * @property {boolean} live
 * @property {boolean} select
 * @property {boolean} drawings
 * @property {{tagged: boolean, fog: boolean, walls: boolean}} sources
 */
const stored = readPrefs();
/** @type {Prefs} */
const prefs = { rules: "tdgs", notation: "", live: true, select: false, drawings: false, ...stored, sources: { tagged: true, fog: true, walls: true, ...(stored.sources && typeof stored.sources === "object" ? stored.sources : {}) } };
if (!RULES.includes(prefs.rules)) prefs.rules = "tdgs";
const engineLoading = load();
/** @type {Engine | null} */
let engine = null;
let running = false;
/** @type {{force: boolean} | null} one more run asked for while one ran (force if any asked it) */
let again = null;
// The selection this popover made itself (selecting the affected tokens): the change it causes
// is not a new question, and must not replace the template being shown.
/** @type {string | null} */
let ownSelection = null;
/** @param {Iterable<string> | undefined} ids */
const key = (ids) => [...(ids ?? [])].sort().join(",");
/** @type {"GM" | "PLAYER"} */
let role = "PLAYER";

/** @returns {Partial<Prefs>} */
function readPrefs() {
  try {
    const v = JSON.parse(localStorage.getItem(PREFS) ?? "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

function savePrefs() {
  try {
    localStorage.setItem(PREFS, JSON.stringify(prefs));
  } catch {
    // storage refused (a sandboxed frame): the settings last as long as the popover
  }
}

/** @param {string} text @param {boolean} [error] */
function status(text, error = false) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", error);
}

/** The one notice for a scene aoekit does not evaluate (a grid that is not square), or none. @param {string | null} text */
function notice(text) {
  const el = $("notice");
  el.textContent = text ?? "";
  el.hidden = !text;
}

function ui() {
  /** @type {HTMLSelectElement} */ ($("rules")).value = prefs.rules;
  input("notation").value = prefs.notation;
  input("live").checked = prefs.live;
  input("select").checked = prefs.select;
  input("drawings").checked = prefs.drawings;
  for (const s of SOURCE_BOXES) input(`src-${s}`).checked = prefs.sources[s];
  $("rules").addEventListener("change", () => {
    prefs.rules = /** @type {HTMLSelectElement} */ ($("rules")).value;
    savePrefs();
    // The room's rule set: the GM's choice is every player's (players see it, greyed out).
    if (role === "GM" && OBR.isReady) OBR.room.setMetadata({ [RULES_KEY]: prefs.rules }).catch(() => {});
    run();
  });
  input("notation").addEventListener("input", () => {
    prefs.notation = input("notation").value;
    savePrefs();
    run();
  });
  for (const id of /** @type {const} */ (["live", "select", "drawings"])) {
    input(id).addEventListener("change", () => {
      prefs[id] = input(id).checked;
      savePrefs();
      run();
    });
  }
  for (const s of SOURCE_BOXES) {
    input(`src-${s}`).addEventListener("change", () => {
      prefs.sources[s] = input(`src-${s}`).checked;
      savePrefs();
      run();
    });
  }
  $("evaluate").addEventListener("click", () => run({ force: true }));
  $("clear").addEventListener("click", () => erase().then(() => status("Cleared.")));
}

/** The room's rule set, when its metadata names one, shown and used. @param {Metadata} metadata */
function followRoom(metadata) {
  const rules = roomRules(metadata);
  if (!rules || rules === prefs.rules) return false;
  prefs.rules = rules;
  /** @type {HTMLSelectElement} */ ($("rules")).value = rules;
  savePrefs();
  return true;
}

// run evaluates the selection; calls while one runs are folded into one more run after it,
// forced when one of them was (an Evaluate click is never lost). When the engine refuses, the
// last answer's drawing and list are taken away with it: they belong to a placement that is
// no longer there.
async function run({ force = false } = {}) {
  if (!engine || (!prefs.live && !force)) return;
  if (running) {
    again = { force: force || again?.force === true };
    return;
  }
  running = true;
  try {
    await evaluate(engine);
  } catch (err) {
    $("targets").replaceChildren();
    await erase().catch(() => {});
    status(err instanceof Error ? err.message : String(err), true);
  } finally {
    running = false;
    if (again) {
      const next = again;
      again = null;
      run(next);
    }
  }
}

/** @type {string[]} */
let lastSelection = [];

/** @param {Engine} engine */
async function evaluate(engine) {
  const [items, local, selected0, dpi, scale, type, measurement] = await Promise.all([
    OBR.scene.items.getItems(),
    OBR.scene.local.getItems(),
    OBR.player.getSelection(),
    OBR.scene.grid.getDpi(),
    OBR.scene.grid.getScale(),
    OBR.scene.grid.getType(),
    OBR.scene.grid.getMeasurement(),
  ]);
  // A grid aoekit has no rules for: one notice, nothing drawn, nothing listed.
  const unsupported = gridNotice(type);
  notice(unsupported);
  if (unsupported) {
    $("targets").replaceChildren();
    await erase();
    status("");
    return;
  }
  let selection = selected0 ?? [];
  const byId = new Map(items.map((i) => [i.id, i]));
  if (ownSelection !== null && key(selection) === ownSelection) {
    selection = lastSelection;
  } else {
    lastSelection = selection;
    ownSelection = null;
  }
  const selected = selection.map((id) => byId.get(id)).filter((i) => i !== undefined);
  const grid = { dpi, scale, type, measurement };
  const frame = frameOf(grid);
  const point = prefs.rules === "dnd5e" || prefs.rules === "pf2e";

  // A selected circle or rectangle is the template; otherwise the notation, used by the first
  // selected token, from the next selected item, toward the one after it.
  const shape = selected.find((i) => i.type === "SHAPE" && isTemplateShape(i));
  const tokens = selected.filter((i) => i.type === "IMAGE" && (i.layer === "CHARACTER" || i.layer === "MOUNT"));
  const others = selected.filter((i) => i !== tokens[0] && i !== shape);
  if (!shape && (!prefs.notation.trim() || selected.length === 0)) {
    await erase();
    $("targets").replaceChildren();
    status(point
      ? "Select a circle or square shape, or write an area (20-foot-radius sphere, 15-foot cone, 10-foot emanation) and select the token that uses it (then the item at its point, or the one a cone or line points at)."
      : "Select a circle or rectangle shape, or write a template and select the token that uses it (then, for placed shapes, the item on its origin square).");
    return;
  }
  const built = requestFrom({
    items,
    grid,
    rules: prefs.rules,
    includeHidden: role === "GM",
    sources: SOURCE_BOXES.filter((s) => prefs.sources[s]),
    drawings: prefs.drawings,
    local,
    ...(shape ? { shapeId: shape.id } : { notation: prefs.notation }),
    ...(tokens[0] ? { casterId: tokens[0].id } : {}),
    ...(!shape && others[0] ? { originId: others[0].id } : {}),
    ...(!shape && others[1] ? { aimId: others[1].id } : {}),
  });
  const result = engine.evaluate(built.request);
  const targets = mergeTargets(result.targets, built);
  await draw(result, targets, built, frame, byId);
  list(result, targets, byId, measurement);
  if (prefs.select) {
    const ids = affectedIds(targets);
    if (ids.length && key(ids) !== ownSelection && key(ids) !== key(selection)) {
      ownSelection = key(ids);
      await OBR.player.select(ids, true);
    }
  }
}

/** A SHAPE that can be a template: a circle or a rectangle. @param {Item} item */
function isTemplateShape(item) {
  const t = /** @type {{shapeType?: unknown}} */ (item).shapeType;
  return t === "CIRCLE" || t === "RECTANGLE";
}

// draw replaces the local items of the last drawing: one rectangle a run of squares on the
// origin's level, and a label over each token in the area with its cover.
/** @param {Result} result @param {Merged[]} targets @param {Built} built @param {Frame} frame @param {Map<string, Item>} byId */
async function draw(result, targets, built, frame, byId) {
  const level = Math.floor(result.origin?.z ?? 0);
  const mark = { [DRAWN]: true };
  /** @type {Item[]} */
  const items = cellRuns(result.cells, level).map((run) => {
    const rect = runRect(run, frame);
    return buildShape()
      .shapeType("RECTANGLE")
      .position(rect.position)
      .width(rect.width)
      .height(rect.height)
      .fillColor("#ff8c00")
      .fillOpacity(0.36)
      .strokeWidth(0)
      .layer("DRAWING")
      .locked(true)
      .disableHit(true)
      .metadata(mark)
      .build();
  });
  for (const t of targets) {
    if (!t.inArea) continue;
    const piece = [...built.request.tokens, built.request.caster].find((p) => p && (built.pieces[p.id] ?? p.id) === t.id);
    if (!piece) continue;
    items.push(
      buildLabel()
        .plainText(`${byId.get(t.id)?.name ?? t.id}: ${coverText(t)}`)
        .position(labelPoint(piece, frame))
        .pointerDirection("DOWN")
        .backgroundColor(t.affected ? "#ffd400" : "#222222")
        .fillColor(t.affected ? "#1f2328" : "#ffffff")
        .backgroundOpacity(0.85)
        .layer("TEXT")
        .locked(true)
        .disableHit(true)
        .metadata(mark)
        .build(),
    );
  }
  await erase();
  if (items.length) await OBR.scene.local.addItems(items);
}

async function erase() {
  const old = await OBR.scene.local.getItems((item) => item.metadata?.[DRAWN] === true);
  if (old.length) await OBR.scene.local.deleteItems(old.map((i) => i.id));
}

/** @param {Result} result @param {Merged[]} targets @param {Map<string, Item>} byId @param {GridMeasurement} measurement */
function list(result, targets, byId, measurement) {
  const ul = $("targets");
  ul.replaceChildren();
  for (const t of targets) {
    const li = document.createElement("li");
    const name = byId.get(t.id)?.name ?? t.id;
    li.textContent = `${name}: ${t.affected ? "affected" : `not affected (${t.reason ?? "—"})`}, cover ${t.cover}${t.bonus ? ` (+${t.bonus})` : ""}${t.caster ? ", the caster" : ""}`;
    li.className = t.affected ? "hit" : "spared";
    ul.append(li);
  }
  // Pathfinder counts every second diagonal as 10 ft; a scene that measures otherwise is told so.
  const hint = prefs.rules === "pf2e" && measurement !== "ALTERNATING" ? ` (This scene measures distances ${measurement.toLowerCase()}: Pathfinder's are Alternating, in the grid's settings.)` : "";
  status(`${result.template.notation}: ${result.count} squares, ${targets.filter((t) => t.affected && !t.caster).length} affected.${hint}`);
}

// Context menu entries on drawings: tag as a wall (or untag), and open or close a door.
async function contextMenus() {
  /** @type {KeyFilter} */
  const drawn = { key: "type", value: "IMAGE", operator: "!=" };
  await OBR.contextMenu.create({
    id: `${META}/wall`,
    icons: [{ icon: ICON, label: "aoekit: wall on / off", filter: { every: [drawn], permissions: ["UPDATE"] } }],
    onClick: ({ items }) => {
      const on = items.some((i) => !i.metadata?.[`${META}/wall`]);
      OBR.scene.items.updateItems(items.map((i) => i.id), (drafts) => {
        for (const d of drafts) {
          if (on) d.metadata[`${META}/wall`] = d.metadata[`${META}/wall`] || true;
          else delete d.metadata[`${META}/wall`];
        }
      });
    },
  });
  await OBR.contextMenu.create({
    id: `${META}/door`,
    icons: [{ icon: ICON, label: "aoekit: open / close door", filter: { every: [drawn, { key: ["metadata", `${META}/wall`], value: undefined, operator: "!=" }], permissions: ["UPDATE"] } }],
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

/** What the local WALL items are, so that a change to them (Dynamic Fog's, after a door opens) runs again, and this popover's own drawing does not. @param {Item[]} items */
const wallsKey = (items) => items.filter((i) => i.type === "WALL").map((i) => `${i.id}@${i.lastModified}`).sort().join(",");

ui();
status("Loading the engine…");
OBR.onReady(async () => {
  try {
    engine = await engineLoading;
  } catch (err) {
    status(`The engine could not load: ${err instanceof Error ? err.message : err}`, true);
    return;
  }
  status("Ready.");
  const [who, metadata, local] = await Promise.all([OBR.player.getRole(), OBR.room.getMetadata(), OBR.scene.local.getItems()]).catch(() => /** @type {["GM" | "PLAYER", Metadata, Item[]]} */ (["PLAYER", {}, []]));
  role = who;
  followRoom(metadata);
  if (role === "GM" && !roomRules(metadata)) OBR.room.setMetadata({ [RULES_KEY]: prefs.rules }).catch(() => {});
  const select = /** @type {HTMLSelectElement} */ ($("rules"));
  select.disabled = role !== "GM";
  select.title = role === "GM" ? "The room's rule set: every player's popover follows it." : "The GM chooses the room's rule set.";
  await contextMenus().catch(() => {});
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
