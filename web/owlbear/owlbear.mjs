// aoekit for Owlbear Rodeo: the action popover. It evaluates a template — a circle or rectangle
// shape you select, or a notation you write, used by the token you select — against the scene's
// tokens and tagged walls, draws the area and a cover label on each token it touches as local
// items (seen only by you), lists the targets and, if asked, selects the affected tokens.
// Everything Owlbear-specific lives here (the SDK); the mapping from items to aoekit requests is
// map.mjs (pure, tested). The SDK is imported by its bare name: index.html's import map points
// it at a pinned CDN build (see README.md).
import OBR, { buildLabel, buildShape } from "@owlbear-rodeo/sdk";

import { load } from "./index.js";
import { META, affectedIds, cellRuns, frameOf, labelPoint, mergeTargets, requestFrom, runRect } from "./map.mjs";

const DRAWN = `${META}/drawn`;
const ICON = new URL("./icon.svg", import.meta.url).href;
const PREFS = "aoekit-owlbear";
const $ = (id) => document.getElementById(id);

const prefs = { rules: "tdgs", notation: "", live: true, select: false, drawings: false, ...readPrefs() };
const engineLoading = load();
let engine = null;
let running = false;
let again = null; // {force}: one more run asked for while one ran (force if any asked it)
// The selection this popover made itself (selecting the affected tokens): the change it causes
// is not a new question, and must not replace the template being shown.
let ownSelection = null;
const key = (ids) => [...(ids ?? [])].sort().join(",");

function readPrefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS) ?? "{}");
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

function status(text, error = false) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function ui() {
  $("rules").value = prefs.rules;
  $("notation").value = prefs.notation;
  $("live").checked = prefs.live;
  $("select").checked = prefs.select;
  $("drawings").checked = prefs.drawings;
  for (const id of ["rules", "notation", "live", "select", "drawings"]) {
    $(id).addEventListener(id === "notation" ? "input" : "change", () => {
      const el = $(id);
      prefs[id] = el.type === "checkbox" ? el.checked : el.value;
      savePrefs();
      run();
    });
  }
  $("evaluate").addEventListener("click", () => run({ force: true }));
  $("clear").addEventListener("click", () => erase().then(() => status("Cleared.")));
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
    await evaluate();
  } catch (err) {
    $("targets").replaceChildren();
    await erase().catch(() => {});
    status(err?.message ?? String(err), true);
  } finally {
    running = false;
    if (again) {
      const next = again;
      again = null;
      run(next);
    }
  }
}

let lastSelection = [];

async function evaluate() {
  let [items, selection, dpi, scale, type, role] = await Promise.all([
    OBR.scene.items.getItems(),
    OBR.player.getSelection(),
    OBR.scene.grid.getDpi(),
    OBR.scene.grid.getScale(),
    OBR.scene.grid.getType(),
    OBR.player.getRole(),
  ]);
  const byId = new Map(items.map((i) => [i.id, i]));
  if (ownSelection !== null && key(selection) === ownSelection) {
    selection = lastSelection;
  } else {
    lastSelection = selection;
    ownSelection = null;
  }
  const selected = (selection ?? []).map((id) => byId.get(id)).filter(Boolean);
  const grid = { dpi, scale, type };
  const frame = frameOf(grid);

  // A selected circle or rectangle is the template; otherwise the notation, used by the first
  // selected token, from the next selected item's square, toward the one after it.
  const shape = selected.find((i) => i.type === "SHAPE" && (i.shapeType === "CIRCLE" || i.shapeType === "RECTANGLE"));
  const tokens = selected.filter((i) => i.type === "IMAGE" && (i.layer === "CHARACTER" || i.layer === "MOUNT"));
  const others = selected.filter((i) => i !== tokens[0] && i !== shape);
  if (!shape && (!prefs.notation.trim() || selected.length === 0)) {
    await erase();
    status("Select a circle or rectangle shape, or write a template and select the token that uses it (then, for placed shapes, the item on its origin square).");
    return;
  }
  const input = {
    items,
    grid,
    rules: prefs.rules,
    includeHidden: role === "GM",
    drawings: prefs.drawings,
    ...(shape ? { shapeId: shape.id } : { notation: prefs.notation }),
    ...(tokens[0] ? { casterId: tokens[0].id } : {}),
    ...(!shape && others[0] ? { originId: others[0].id } : {}),
    ...(!shape && others[1] ? { aimId: others[1].id } : {}),
  };
  const built = requestFrom(input);
  const result = engine.evaluate(built.request);
  const targets = mergeTargets(result.targets, built);
  await draw(result, targets, built, frame, byId);
  list(result, targets, byId);
  if (prefs.select) {
    const ids = affectedIds(targets);
    if (ids.length && key(ids) !== ownSelection && key(ids) !== key(selection)) {
      ownSelection = key(ids);
      await OBR.player.select(ids, true);
    }
  }
}

// draw replaces the local items of the last drawing: one rectangle a run of squares on the
// origin's level, and a label over each token in the area with its cover.
async function draw(result, targets, built, frame, byId) {
  const level = built.request.origin?.z ?? built.request.caster?.z ?? 0;
  const mark = { [DRAWN]: true };
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
    const text = t.affected ? (t.cover === "none" ? "hit" : `${t.cover} +${t.bonus}`) : t.reason === "cover" ? "full cover" : t.reason ?? "spared";
    items.push(
      buildLabel()
        .plainText(`${byId.get(t.id)?.name ?? t.id}: ${text}`)
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

function list(result, targets, byId) {
  const ul = $("targets");
  ul.replaceChildren();
  for (const t of targets) {
    const li = document.createElement("li");
    const name = byId.get(t.id)?.name ?? t.id;
    li.textContent = `${name}: ${t.affected ? "affected" : `not affected (${t.reason ?? "—"})`}, cover ${t.cover}${t.bonus ? ` (+${t.bonus})` : ""}${t.caster ? ", the caster" : ""}`;
    li.className = t.affected ? "hit" : "spared";
    ul.append(li);
  }
  status(`${result.template.notation}: ${result.count} squares, ${targets.filter((t) => t.affected && !t.caster).length} affected.`);
}

// Context menu entries on drawings: tag as a wall (or untag), and open or close a door.
async function contextMenus() {
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
          const wall = tag && typeof tag === "object" ? tag : {};
          d.metadata[`${META}/wall`] = { ...wall, open: !wall.open };
        }
      });
    },
  });
}

ui();
status("Loading the engine…");
OBR.onReady(async () => {
  try {
    engine = await engineLoading;
  } catch (err) {
    status(`The engine could not load: ${err?.message ?? err}`, true);
    return;
  }
  status("Ready.");
  await contextMenus().catch(() => {});
  OBR.player.onChange(() => run());
  OBR.scene.items.onChange(() => run());
  OBR.scene.grid.onChange(() => run());
  run();
});
