// @ts-check
// The scenes the demo ships, as plain data: entity() fills in a creature; the sample (first load,
// the Sample button), the stress board (?stress=1), the ledge (Attack cover's sample) and the
// walled room (thin walls and a door).
import { defaultFullAttack, SIDES } from "./constants.js";

/** @typedef {import("./types.js").Block} Block */
/** @typedef {import("./types.js").Entity} Entity */
/** @typedef {import("./types.js").Scene} Scene */

// ---------------------------------------------------------------------------------------------
// Scenes

/**
 * A creature with every field filled in.
 * @param {Partial<Entity> & {id: string, x: number, y: number}} e
 * @returns {Entity}
 */
export function entity(e) {
  return { z: 0, size: 1, height: null, facing: "N", side: "neutral", prone: false, defence: 0, ...e };
}

/**
 * The sample scene: a cone from the wizard catching a goblin in the open, a brute behind a low
 * wall (half cover), a sneak behind another (partial), an orc, an archer behind a full wall
 * (full cover: not affected) and an ally (areas hit every side, SPEC §2.1); a bandit stands
 * outside.
 * @returns {Scene}
 */
export function sampleScene() {
  /** @type {Block[]} */
  const obstacles = [];
  const wall = (/** @type {number} */ x, /** @type {number} */ y, fill = 1) => obstacles.push({ x, y, z: 0, fill });
  wall(8, 8, 0.5);                                      // low wall before the brute
  wall(9, 10, 0.5); wall(10, 10, 0.5);                  // low wall before the sneak
  wall(10, 3); wall(10, 4); wall(11, 2); wall(12, 2); wall(12, 3); // the archer's nook
  for (const x of [3, 4, 5]) wall(x, 13);
  wall(16, 9); wall(16, 10);
  return {
    cols: 24, rows: 16, levels: 1, template: "Con6N", rules: "", range: null, source: false,
    caster: entity({ id: "Wizard", x: 5, y: 8, facing: "E", side: "party" }),
    tokens: [
      entity({ id: "Goblin", x: 8, y: 6, side: "enemy", defence: 4 }),
      entity({ id: "Brute", x: 9, y: 8, side: "enemy", defence: 3 }),
      entity({ id: "Sneak", x: 10, y: 11, side: "enemy", defence: 6 }),
      entity({ id: "Orc", x: 10, y: 6, size: 2, side: "enemy", defence: 3 }),
      entity({ id: "Archer", x: 11, y: 3, side: "enemy", defence: 5 }),
      entity({ id: "Paladin", x: 7, y: 9, side: "party", defence: 5 }),
      entity({ id: "Bandit", x: 18, y: 12, side: "neutral", defence: 2 }),
    ],
    obstacles, walls: [],
    origin: { x: 15, y: 6, z: 0 }, originSquare: null, aim: { x: 10, y: 8, z: 0 }, path: [], orientation: "N",
    point: { x: 15, y: 6, z: 0 }, toward: 0,
    trait: "none", excludeCaster: false, ids: [], excludeCells: [],
    barriers: null, cover: "", applyCover: null,
    rolls: { on: false, stat: 7, modifiers: 0, luck: 0, seed: 42 },
    force: { kind: "push", distance: 3, path: [], of: "" },
    fullAttack: defaultFullAttack(),
    placed: [], at: 0,
  };
}
export const SAMPLE_SELECTED = "Sneak"; // partial cover: its blocked lines show on first load

/**
 * The stress board (?stress=1): 100 × 100 squares, the caster in the middle of a clear band
 * (rows 47…52) where a Cir5 is dragged, 200 creatures and 2 000 walls (a quarter of them low)
 * strewn pseudo-randomly (a fixed seed: the same board every time) over the rest.
 * @returns {Scene}
 */
export function stressScene() {
  const s = sampleScene();
  s.cols = 100; s.rows = 100;
  s.template = "Cir5"; s.rules = ""; s.range = null; s.source = false;
  s.caster = entity({ id: "Caster", x: 50, y: 50, facing: "E", side: "party" });
  s.origin = { x: 60, y: 50, z: 0 };
  s.aim = { x: 61, y: 50, z: 0 };
  let seed = 12345;
  const next = (/** @type {number} */ n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  /** @type {Set<string>} */
  const taken = new Set(["50,50"]);
  const free = () => {
    for (;;) {
      const x = next(100), y = next(100);
      if (y >= 47 && y <= 52) continue;
      if (!taken.has(`${x},${y}`)) { taken.add(`${x},${y}`); return { x, y }; }
    }
  };
  s.tokens = [];
  for (let i = 0; i < 200; i++) {
    const { x, y } = free();
    s.tokens.push(entity({ id: `T${i + 1}`, x, y, side: SIDES[i % 3], defence: 2 + (i % 5) }));
  }
  s.obstacles = [];
  for (let i = 0; i < 2000; i++) {
    const { x, y } = free();
    s.obstacles.push({ x, y, z: 0, fill: i % 4 === 0 ? 0.5 : 1 });
  }
  s.walls = [];
  return s;
}

/**
 * The ledge (SPEC §5.4, R2): a knight standing on a full block one level up, an orc adjacent
 * below. Standing, the ledge under its feet gives no cover; flying, it is judged as well.
 * @returns {Scene}
 */
export function ledgeScene() {
  const s = sampleScene();
  s.cols = 16; s.rows = 10; s.levels = 2; // the Knight stands on level 1
  s.template = "Cir1"; s.rules = ""; s.range = null; s.source = false;
  s.obstacles = [{ x: 4, y: 4, z: 0, fill: 1 }, { x: 4, y: 5, z: 0, fill: 1 }, { x: 3, y: 4, z: 0, fill: 1 }, { x: 3, y: 5, z: 0, fill: 1 }];
  s.caster = entity({ id: "Knight", x: 4, y: 4, z: 1, facing: "E", side: "party" });
  s.tokens = [entity({ id: "Orc", x: 5, y: 4, side: "enemy" })];
  s.origin = { x: 12, y: 6, z: 0 };
  s.aim = { x: 13, y: 6, z: 0 };
  return s;
}
/**
 * The walled room (SPEC §5.6): a room of thin walls on the grid lines x 4…12, y 3…11, its east
 * side open by a one-square door at y 6…7, a few crates in a corner. Talent's 3 burst (Draw
 * Steel, §3.2) fills the room and escapes through the door (Runner is hit) but not through the
 * walls (Lurker, just outside, is cut off); the Archer's ranged shot at the Cultist crosses the
 * east wall (TDGS: every line blocked, full cover); the Guard, pushed west, is stopped by the
 * west wall.
 * @returns {Scene}
 */
export function roomScene() {
  const s = sampleScene();
  s.template = "3 burst"; s.rules = ""; s.range = null; s.source = false;
  /** @type {[number, number][]} */
  const corners = [[4, 3], [12, 3], [12, 6], [12, 7], [12, 11], [4, 11], [4, 3]];
  s.walls = corners.slice(1).map((b, i) => ({ a: corners[i], b, ...(i === 2 ? { open: true } : {}) }));
  s.obstacles = [{ x: 4, y: 9, z: 0, fill: 1 }, { x: 4, y: 10, z: 0, fill: 1 }, { x: 5, y: 10, z: 0, fill: 1 }];
  s.caster = entity({ id: "Talent", x: 10, y: 6, facing: "E", side: "party" });
  s.tokens = [
    entity({ id: "Cultist", x: 8, y: 8, side: "enemy", defence: 3 }),
    entity({ id: "Runner", x: 13, y: 6, side: "enemy", defence: 4 }),
    entity({ id: "Lurker", x: 12, y: 8, side: "enemy", defence: 4 }),
    entity({ id: "Guard", x: 6, y: 6, side: "enemy", defence: 5 }),
    entity({ id: "Archer", x: 17, y: 9, side: "enemy", defence: 5 }),
  ];
  s.origin = { x: 16, y: 12, z: 0 };
  s.aim = { x: 18, y: 12, z: 0 };
  s.force = { kind: "push", distance: 3, path: [], of: "" };
  return s;
}
