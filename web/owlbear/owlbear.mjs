// @ts-check
// aoekit for Owlbear Rodeo: the action popover, a view onto what the background page keeps
// (background.mjs, which Owlbear runs while the room is open: close the popover and the answers
// and drawings still follow the scene). The popover holds the player's settings — the rule set
// (the room's: the GM chooses it, kept in the room's metadata, RULES_KEY), the written template
// (the selection's and the tool's notation mode), live evaluation, selecting the affected tokens,
// the wall sources — sends them to the background page, and shows its state: the notice for a
// grid aoekit does not evaluate, the status line, the selection's targets and the templates
// placed with the tool (each removable). The two talk over OBR.broadcast, this player's frames
// only (prefs.mjs CHANNEL). The SDK is obr-sdk.js, the npm package @owlbear-rodeo/sdk bundled
// beside this file when the folder is built (bundle.mjs; README.md): a relative import, so the
// folder works at any path of any origin, with no CDN and no inline script (a strict CSP).
// Type-checked, strict, against @owlbear-rodeo/sdk's declarations: web/owlbear/tsconfig.json.
import OBR from "./obr-sdk.js";

import { RULES_KEY, roomRules } from "./map.mjs";
import { CHANNEL, SOURCE_BOXES, readPrefs, savePrefs } from "./prefs.mjs";

/** @import { Metadata } from "./obr-sdk.js" */
/** @import { Prefs, State, ListedTarget, Message } from "./prefs.mjs" */

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @type {Prefs} */
const prefs = readPrefs();
/** @type {"GM" | "PLAYER"} */
let role = "PLAYER";

/** @param {Message} msg */
function send(msg) {
  if (OBR.isReady) OBR.broadcast.sendMessage(CHANNEL, msg, { destination: "LOCAL" }).catch(() => {});
}

/** The settings changed: kept, and sent to the background page. */
function changed() {
  savePrefs(prefs);
  send({ kind: "prefs", prefs });
}

/** @param {string} text @param {boolean} [error] */
function status(text, error = false) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", error);
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
    changed();
    // The room's rule set: the GM's choice is every player's (players see it, greyed out).
    if (role === "GM" && OBR.isReady) OBR.room.setMetadata({ [RULES_KEY]: prefs.rules }).catch(() => {});
  });
  input("notation").addEventListener("input", () => {
    prefs.notation = input("notation").value;
    changed();
  });
  for (const id of /** @type {const} */ (["live", "select", "drawings"])) {
    input(id).addEventListener("change", () => {
      prefs[id] = input(id).checked;
      changed();
    });
  }
  for (const s of SOURCE_BOXES) {
    input(`src-${s}`).addEventListener("change", () => {
      prefs.sources[s] = input(`src-${s}`).checked;
      changed();
    });
  }
  $("evaluate").addEventListener("click", () => send({ kind: "evaluate" }));
  $("clear").addEventListener("click", () => send({ kind: "clear" }));
}

/** The room's rule set, when its metadata names one, shown. @param {Metadata} metadata */
function followRoom(metadata) {
  const rules = roomRules(metadata);
  if (!rules || rules === prefs.rules) return;
  prefs.rules = rules;
  /** @type {HTMLSelectElement} */ ($("rules")).value = rules;
  savePrefs(prefs);
}

/** @param {ListedTarget[]} targets */
function items(targets) {
  return targets.map((t) => {
    const li = document.createElement("li");
    li.textContent = `${t.name}: ${t.text}`;
    li.className = t.hit ? "hit" : "spared";
    return li;
  });
}

/** Shows the background page's state. @param {State} state */
function render(state) {
  const notice = $("notice");
  notice.textContent = state.notice ?? "";
  notice.hidden = !state.notice;
  status(state.status, state.error);
  $("targets").replaceChildren(...items(state.targets));
  const placed = $("placed");
  placed.replaceChildren(
    ...state.placed.map((p) => {
      const li = document.createElement("li");
      const head = document.createElement("div");
      head.className = "placed-head";
      const name = document.createElement("span");
      name.textContent = p.error ? `${p.notation}: ${p.error}` : `${p.notation}: ${p.squares} squares, ${p.targets.filter((t) => t.hit).length} affected`;
      if (p.error) name.className = "error";
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.dataset.id = p.id;
      remove.addEventListener("click", () => {
        OBR.scene.items.deleteItems([p.id]).catch((err) => status(`Owlbear did not remove it: ${err instanceof Error ? err.message : err}`, true));
      });
      head.append(name, remove);
      const ul = document.createElement("ul");
      ul.append(...items(p.targets));
      li.append(head, ul);
      return li;
    }),
  );
  $("placed-box").hidden = state.placed.length === 0;
}

ui();
status("Waiting for the background page…");
OBR.onReady(async () => {
  OBR.broadcast.onMessage(CHANNEL, (event) => {
    const msg = /** @type {Message} */ (event.data);
    if (msg?.kind === "state") render(msg.state);
  });
  const [who, metadata] = await Promise.all([OBR.player.getRole(), OBR.room.getMetadata()]).catch(() => /** @type {["GM" | "PLAYER", Metadata]} */ (["PLAYER", {}]));
  role = who;
  followRoom(metadata);
  const select = /** @type {HTMLSelectElement} */ ($("rules"));
  select.disabled = role !== "GM";
  select.title = role === "GM" ? "The room's rule set: every player's popover follows it." : "The GM chooses the room's rule set.";
  OBR.room.onMetadataChange(followRoom);
  // The background page may have started with other settings (another popover's): these are the
  // player's now. Then its state, which it sends on every change.
  send({ kind: "prefs", prefs });
  send({ kind: "hello" });
});
