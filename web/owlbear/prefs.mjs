// @ts-check
// What the extension's pages share (background.mjs, owlbear.mjs, menu.mjs): the player's settings,
// kept in this origin's localStorage (the pages are frames of one origin), and the broadcast
// channel the background page and the popover talk on (OBR.broadcast, destination "LOCAL": this
// player's frames only). The popover sends its settings and asks for the state; the background
// page answers with what it evaluated (State). Nothing here calls the SDK.
import { RULES } from "./map.mjs";

/** The localStorage key of the player's settings. */
export const PREFS_KEY = "aoekit-owlbear";
/** The broadcast channel between the background page and the popover (OBR.broadcast.onMessage). */
export const CHANNEL = "io.github.aoekit/local";

/**
 * @typedef {object} Prefs
 * @property {string} rules      the rule set (the room's, RULES_KEY, when it names one)
 * @property {string} notation   the written template: the selection's and the tool's notation mode
 * @property {boolean} live      evaluate the selection as it and the scene change
 * @property {boolean} select    select the affected tokens
 * @property {boolean} drawings  every line and rectangle on the drawing layer is a wall
 * @property {{tagged: boolean, fog: boolean, walls: boolean}} sources  the wall sources
 */

/** The wall sources a checkbox each (map.mjs SOURCES; "drawings" has its own, older setting). */
export const SOURCE_BOXES = /** @type {const} */ (["tagged", "fog", "walls"]);

/**
 * normalPrefs: settings as stored (or sent), every field checked, defaults for the rest.
 * @param {unknown} stored
 * @returns {Prefs}
 */
export function normalPrefs(stored) {
  const v = /** @type {Record<string, unknown>} */ (stored && typeof stored === "object" ? stored : {});
  const src = /** @type {Record<string, unknown>} */ (v.sources && typeof v.sources === "object" ? v.sources : {});
  const bool = (/** @type {unknown} */ x, /** @type {boolean} */ d) => (typeof x === "boolean" ? x : d);
  return {
    rules: typeof v.rules === "string" && RULES.includes(v.rules) ? v.rules : "tdgs",
    notation: typeof v.notation === "string" ? v.notation : "",
    live: bool(v.live, true),
    select: bool(v.select, false),
    drawings: bool(v.drawings, false),
    sources: { tagged: bool(src.tagged, true), fog: bool(src.fog, true), walls: bool(src.walls, true) },
  };
}

/** @returns {Prefs} */
export function readPrefs() {
  try {
    return normalPrefs(JSON.parse(localStorage.getItem(PREFS_KEY) ?? "{}"));
  } catch {
    return normalPrefs({});
  }
}

/** @param {Prefs} prefs */
export function savePrefs(prefs) {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // storage refused (a sandboxed frame): the settings last as long as the page
  }
}

/**
 * What the background page tells the popover: the notice for a grid it does not evaluate, the
 * status line, the selection's targets, and the templates placed with the tool.
 * @typedef {{name: string, text: string, hit: boolean}} ListedTarget
 * @typedef {{id: string, notation: string, error: string | null, squares: number, targets: ListedTarget[]}} ListedTemplate
 * @typedef {{ready: boolean, notice: string | null, status: string, error: boolean, targets: ListedTarget[], placed: ListedTemplate[]}} State
 */

/**
 * The messages on CHANNEL.
 * @typedef {{kind: "prefs", prefs: Prefs} | {kind: "hello"} | {kind: "evaluate"} | {kind: "clear"} | {kind: "state", state: State}} Message
 */
