// @ts-check
// Constants: compass directions and steps (SPEC §1.2), sizes, rule-set labels, feet a square,
// limits of the demo's boards, the query flags (?stress=1, ?stateless=1), the palette (COLOURS)
// and the full attack panel's feats, items and arms.

/** @typedef {import("./types.js").Direction} Direction */
/** @typedef {import("./types.js").Feat} Feat */
/** @typedef {import("./types.js").FullAttackPlan} FullAttackPlan */
/** @typedef {import("./types.js").Item} Item */
/** @typedef {import("./types.js").Quarter} Quarter */

export const DIRS = /** @type {Direction[]} */ (["N", "NE", "E", "SE", "S", "SW", "W", "NW"]);
export const STEP = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]]; // SPEC §1.2
export const QUARTERS = /** @type {Quarter[]} */ (["N", "E", "S", "W"]);
export const SIDES = ["party", "enemy", "neutral"];
/** @type {Record<string, number>} SPEC §1.5 size names */
export const SIZE_NAMES = { tiny: 1, small: 1, medium: 1, "1t": 1, "1s": 1, "1m": 1, "1l": 1, large: 2, huge: 3, gargantuan: 4 };
export const RULES_LABEL = { tdgs: "TDGS", drawsteel: "Draw Steel", circle50: "50 % circle", dnd5e: "D&D 5e", pf2e: "Pathfinder 2e" };
/** The template a point-origin rule set starts with when the one shown is not its own. */
export const POINT_SAMPLE = { dnd5e: "20-foot-radius sphere", pf2e: "20-foot burst" };
/** Feet a square (SPEC §10.3): the point-origin rule sets write sizes in feet. */
export const FEET = 5;
/** The compass directions in degrees, clockwise from east (SPEC §10.2). */
export const COMPASS_DEGREES = /** @type {Record<Direction, number>} */ ({ E: 0, SE: 45, S: 90, SW: 135, W: 180, NW: 225, N: 270, NE: 315 });
/** The point handle's lattices, in squares: half squares (intersections, centres, edge midpoints), and with Alt held. */
export const HALF = 0.5, FINE = 1 / 40;
export const RULE_BROKEN = new Set(["out_of_range", "no_line_of_effect", "invalid_wall", "not_straight"]); // 422: a placement, not a malformed scene
export const STORAGE_KEY = "aoekit-demo/scene/v1";
export const BOARD_MIN = 4, BOARD_MAX = 60, MAX_TOKENS = 200, MAX_SIZE = 10, MAX_LEVELS = 8;
// Two query flags, for measuring (web/test/demo-perf.test.mjs), not offered in the page:
// ?stress=1 opens a 100 × 100 board with 200 creatures and 2 000 walls (stressScene; larger
// than the boards the demo imports, and never saved: the scene in localStorage stays as it
// was); ?stateless=1 sends the whole board with every evaluation, as the demo did before the
// engine's scenes (evaluateBoard), to compare the two.
const QUERY = new URLSearchParams(location.search);
export const STRESS = QUERY.get("stress") === "1", STATELESS = QUERY.get("stateless") === "1";
export const COLOURS = {
  board: "#fbfaf7", grid: "rgba(60, 64, 72, 0.16)", area: "rgba(255, 140, 0, 0.36)", areaEdge: "#e07b00",
  wall: "#3c4850", wallEdge: "#1d252a", low: "#aab6bd", lowHatch: "#5f6f78",
  party: "#1e6fd9", enemy: "#d32f2f", neutral: "#8d8a80", hit: "#ffd400", ink: "#1f2328",
  clear: "#2fbf4a", blocked: "#ff3b3b", handle: "#6a1b9a", bad: "#c62828", path: "#8d5b3e",
  thin: "#15191d", fence: "#4b5761", door: "#8d5b3e",
  // An attack's cover lines (the attack cover section), unlike an area's (clear, blocked): blue and magenta.
  attackClear: "#00acc1", attackBlocked: "#c2188a",
};
/** How faint what stands on another level than the one shown is drawn. */
export const OTHER_LEVEL_ALPHA = 0.3;

// The full attack panel (SPEC §9). The feats in the order of §9.1 (the panel's checkboxes), the
// items offered in hand and for a draw, the names of the arms added after main and off (at most
// four arms: the engine takes eight), and the budgets' names.
export const FEATS = /** @type {Feat[]} */ (["twoWeaponFighting", "improvedTwoWeaponFighting", "greaterTwoWeaponFighting", "rapidShot", "quickDraw", "multiattack"]);
export const ITEM_KINDS = /** @type {Item["kind"][]} */ (["light", "oneHanded", "twoHanded", "double", "lightShield", "heavyShield"]);
export const KIND_LABEL = { light: "light", oneHanded: "one-handed", twoHanded: "two-handed", double: "double", lightShield: "light shield", heavyShield: "heavy shield" };
/** @type {[string, string, Item][]} key, label, item */
export const ITEM_PRESETS = [
  ["longsword", "longsword (one-handed)", { id: "longsword", kind: "oneHanded" }],
  ["dagger", "dagger (light, thrown)", { id: "dagger", kind: "light", ranged: "thrown" }],
  ["greatsword", "greatsword (two-handed)", { id: "greatsword", kind: "twoHanded" }],
  ["quarterstaff", "quarterstaff (double)", { id: "quarterstaff", kind: "double" }],
  ["longbow", "longbow (two-handed, projectile)", { id: "longbow", kind: "twoHanded", ranged: "projectile" }],
  ["light shield", "light shield", { id: "light shield", kind: "lightShield" }],
  ["heavy shield", "heavy shield", { id: "heavy shield", kind: "heavyShield" }],
];
export const ARMS = ["main", "off", "third", "fourth"];
export const AS_LABEL = { primary: "primary sequence", off: "off-hand sequence", extra: "Rapid Shot's extra attack", natural: "natural" };

/** The panel's first combatant: a fighter with BAB +6 and a longsword, the off hand empty. @returns {FullAttackPlan} */
export function defaultFullAttack() {
  return {
    bab: 6, feats: [], hands: ["main", "off"], holding: { main: { id: "longsword", kind: "oneHanded" } }, natural: [],
    twoWeapon: false, rapidShot: false, steps: [],
  };
}
