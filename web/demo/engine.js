// @ts-check
// The engine bridge: the engine's scene of the demo's board (CONTRACT scene), kept up to date by
// comparing boards; the overlay drawing each answer on the result layer; evaluateScene (the area,
// the forced movement) and evaluateAttack (attack cover) — the one place that asks the engine.
import { OTHER_LEVEL_ALPHA, RULE_BROKEN, STATELESS } from "./constants.js";
import { dom, resultCanvas } from "./dom.js";
import { focusId } from "./draw.js";
import { entities, findEntity, key, scene, ui } from "./state.js";
import { boardOf, capital, engineError, frameRequest, parseAs, placementOf, tokenOut, wallOut, withBoard } from "./requests.js";
import { view, viewH, viewW } from "./view.js";

/** @typedef {import("./types.js").Block} Block */
/** @typedef {import("./requests.js").BoardCopy} BoardCopy */
/** @typedef {import("./types.js").CellTuple} CellTuple */
/** @typedef {import("./types.js").CoverRequest} CoverRequest */
/** @typedef {import("./types.js").DrawSummary} DrawSummary */
/** @typedef {import("./types.js").Engine} Engine */
/** @typedef {import("./types.js").EngineScene} EngineScene */
/** @typedef {import("./types.js").MoveRequest} MoveRequest */
/** @typedef {import("./types.js").Overlay} Overlay */
/** @typedef {import("./types.js").OverlayView} OverlayView */
/** @typedef {import("./types.js").Request} Request */
/** @typedef {import("./types.js").Scene} Scene */
/** @typedef {import("./types.js").SceneEditInput} SceneEditInput */
/** @typedef {import("./types.js").SceneRequest} SceneRequest */
/** @typedef {import("./types.js").Template} Template */
/** @typedef {import("./types.js").Wall} Wall */

// ---------------------------------------------------------------------------------------------
// The engine's scene (CONTRACT scene): the board, sent once and kept by the engine, changed by
// edits; each frame then sends only the template, the caster and the handles. Its answers are
// exactly evaluate's with the board in the request (buildRequest), which is what the demo
// shows and Export writes. The demo's board changes in many places (drags, painting, walls,
// the editor, undo and redo, imports, samples): rather than each of them telling the engine,
// every evaluation first compares the board with the copy the engine's scene holds (a few
// thousand comparisons, no copy of the board, when nothing changed) and sends what differs as
// one update — or, when much of it changed (an import, a sample), makes a new scene.

/**
 * The engine's scene of the demo's board: `held` is the board it holds, as requests carry it
 * (a copy in the demo's order: the tokens in the scene's board order, which is the order of
 * the answer's targets); `broken` when the engine refused to make a scene of `held` (the
 * frame then goes without one, and the engine's refusal is the answer, as before scenes).
 * `made` and `updates` count the scenes made and the edits sent (for the tests).
 * @type {{scene: EngineScene | null, engine: Engine | null, held: BoardCopy | null, broken: boolean, made: number, updates: number}}
 */
export const board = { scene: null, engine: null, held: null, broken: false, made: 0, updates: 0 };
/** Edits larger than this, and than half of the board, make a new scene instead. */
const BULK_EDIT = 64;

/** Whether an engine error is a scene's refusal after the engine restarted (CONTRACT scene). @param {unknown} err */
function sceneRestarted(err) {
  return err instanceof Error && err.message.includes("the engine restarted since this scene was made");
}

/** Forgets the engine's scene; the next evaluation makes a new one (after an import or a sample). */
export function dropBoardScene() {
  const sc = board.scene;
  board.scene = null;
  board.engine = null;
  board.held = null;
  board.broken = false;
  if (sc) {
    try {
      sc.dispose();
    } catch {
      // a scene of an engine that restarted: it went with it
    }
  }
}

/**
 * Whether two flat objects (tokens as tokenOut writes them) have the same fields and values.
 * @param {object} a @param {object} b
 */
function sameFlat(a, b) {
  const x = /** @type {Record<string, unknown>} */ (a), y = /** @type {Record<string, unknown>} */ (b);
  let n = 0;
  for (const k in x) {
    if (x[k] !== y[k]) return false;
    n++;
  }
  for (const _ in y) n--;
  return n === 0;
}

/** @param {Wall} a @param {Wall} b */
const sameWall = (a, b) => a.a[0] === b.a[0] && a.a[1] === b.a[1] && a.b[0] === b.b[0] && a.b[1] === b.b[1] &&
  a.bottom === b.bottom && a.top === b.top && a.open === b.open;

/** Whether the scene's board differs from a copy of it. @param {BoardCopy} held @param {Scene} s */
function boardChanged(held, s) {
  if (held.bounds.max[0] !== s.cols - 1 || held.bounds.max[1] !== s.rows - 1 || held.bounds.max[2] !== s.levels - 1) return true;
  if (held.tokens.length !== s.tokens.length || held.obstacles.length !== s.obstacles.length || held.walls.length !== s.walls.length) return true;
  for (let i = 0; i < s.tokens.length; i++) {
    if (!sameFlat(held.tokens[i], tokenOut(s.tokens[i], false))) return true;
  }
  for (let i = 0; i < s.obstacles.length; i++) {
    const a = held.obstacles[i], b = s.obstacles[i];
    if (a.x !== b.x || a.y !== b.y || a.z !== b.z || a.fill !== b.fill) return true;
  }
  for (let i = 0; i < s.walls.length; i++) if (!sameWall(held.walls[i], s.walls[i])) return true;
  return false;
}

/**
 * Obstacles as the engine's scenes take them fastest: an Int32Array of x, y, z, fill quads, the
 * fill in 1/400 (CONTRACT scene). A fill off that lattice (an imported 0.3337) keeps the objects,
 * whose decimal fill the engine rounds exactly as it rounds a request's.
 * @param {Block[]} blocks @returns {Block[] | Int32Array}
 */
function packObstacles(blocks) {
  const out = new Int32Array(blocks.length * 4);
  for (let i = 0; i < blocks.length; i++) {
    const o = blocks[i], n = o.fill * 400;
    if (!Number.isInteger(n) || n < 1 || n > 400) return blocks;
    out[4 * i] = o.x;
    out[4 * i + 1] = o.y;
    out[4 * i + 2] = o.z;
    out[4 * i + 3] = n;
  }
  return out;
}

/**
 * The scene edit that takes the engine's board from `held` to `next`, or null when a new scene
 * is cheaper. The tokens keep `next`'s order (the order of the targets): a token that stays in
 * place is put again only if it changed (a move, a new side); from the first one out of place
 * on (a creature made the caster, another renamed), they are taken off and put back in order.
 * @param {BoardCopy} held @param {BoardCopy} next @returns {SceneEditInput | null}
 */
function boardEdit(held, next) {
  /** @type {SceneEditInput} */
  const edit = {};
  const ids = new Set(next.tokens.map((t) => t.id));
  const remove = held.tokens.filter((t) => !ids.has(t.id)).map((t) => t.id);
  const kept = held.tokens.filter((t) => ids.has(t.id));
  let p = 0;
  while (p < kept.length && kept[p].id === next.tokens[p].id) p++;
  for (const t of kept.slice(p)) remove.push(t.id);
  const put = next.tokens.slice(0, p).filter((t, i) => !sameFlat(t, kept[i]));
  put.push(...next.tokens.slice(p));
  if (remove.length > 0) edit.remove = remove;
  if (put.length > 0) edit.tokens = put;

  /** @type {Map<string, number>} */
  const before = new Map(held.obstacles.map((o) => [key(o), o.fill]));
  /** @type {Set<string>} */
  const now = new Set();
  /** @type {Block[]} */
  const set = [];
  for (const o of next.obstacles) {
    const k = key(o);
    now.add(k);
    if (before.get(k) !== o.fill) set.push(o);
  }
  /** @type {CellTuple[]} */
  const clear = held.obstacles.filter((o) => !now.has(key(o))).map((o) => [o.x, o.y, o.z]);
  if (clear.length > 0) edit.clear = clear;
  if (set.length > 0) edit.obstacles = packObstacles(set);

  if (held.walls.length !== next.walls.length || held.walls.some((w, i) => !sameWall(w, next.walls[i]))) edit.walls = next.walls;
  const [hx, hy, hz] = held.bounds.max, [nx, ny, nz] = next.bounds.max;
  if (hx !== nx || hy !== ny || hz !== nz) edit.bounds = next.bounds;

  const size = remove.length + put.length + clear.length + set.length;
  return size > BULK_EDIT && size > (next.tokens.length + next.obstacles.length) / 2 ? null : edit;
}

/**
 * The engine's scene holding the demo's board as it is now (made, or brought up to date), or
 * null when the engine refuses the board: the frame then sends the whole board, and gets the
 * engine's error for it exactly as before. Its board is board.held.
 * @param {Engine} engine @returns {EngineScene | null}
 */
function boardScene(engine) {
  if (board.engine !== engine) dropBoardScene();
  if (board.held && !boardChanged(board.held, scene)) return board.broken ? null : board.scene;
  const next = boardOf(scene);
  if (board.scene && board.held) {
    const edit = boardEdit(board.held, next);
    if (edit) {
      try {
        board.scene.update(edit);
        board.updates++;
        board.held = next;
        return board.scene;
      } catch {
        // an engine that restarted, or an edit the engine refuses (its errors would name the
        // edit's entries, not the board's): a new scene of the whole board says it as evaluate does
      }
    }
  }
  dropBoardScene();
  board.engine = engine;
  board.held = next;
  try {
    board.scene = engine.scene({ ...next, obstacles: packObstacles(next.obstacles) });
    board.made++;
  } catch {
    board.broken = true;
  }
  return board.scene;
}

/**
 * Evaluates a frame's request against the demo's board and has the overlay draw the answer:
 * through the engine's scene of it, or with the board in the request when there is none
 * (?stateless=1, or a board the engine refuses). A scene that went with a restarted engine is
 * made again, once. The board the answer (or the error) is for becomes ui.requestBoard.
 * @param {Engine} engine @param {SceneRequest} req @returns {DrawSummary}
 */
function drawBoard(engine, req) {
  for (let attempt = 0; ; attempt++) {
    const sc = STATELESS ? null : boardScene(engine);
    const b = STATELESS ? boardOf(scene) : /** @type {BoardCopy} */ (board.held);
    ui.requestBoard = b;
    try {
      return paintResult(sc ? req : withBoard(req, b), sc);
    } catch (err) {
      if (!sc || attempt > 0 || !sceneRestarted(err)) throw err;
      dropBoardScene();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The result layer: the overlay (aoekit-overlay.wasm's renderer) draws the answer on its own
// canvas, in the demo's colours, from the answer the engine holds — the area on the level shown
// (one ImageData of a pixel a square, scaled), its outline, the hovered or selected creature's
// cover lines (or every target's), and the creatures the answer is about (and the caster, the
// selected and the hovered one) with their rings, over their plain selves of the still layer;
// those off the level shown faint. The names and badges are the demo's own, on the label layers
// above every line (drawLabels).

/** The overlay's look in the demo: attach's defaults, every draw's. @type {OverlayView} */
const RESULT_LOOK = {
  tokens: "disc", labels: false, badges: false, outline: true, lines: "selected", walls: false, obstacles: false,
  unlisted: false, otherLevels: OTHER_LEVEL_ALPHA, details: true,
};

/** Attaches the overlay to the result layer at the board canvas's size (again after a resize). */
export function attachResult() {
  if (!ui.overlays) return;
  if (ui.overlay) ui.overlay.detach();
  ui.overlay = ui.overlays.attach(resultCanvas, { ...RESULT_LOOK, width: viewW(), height: viewH(), devicePixelRatio: ui.dpr });
  ui.drawn = null;
}

/** What a draw of the result shows, in the view: the selection, the creature whose lines show, the level, the pan and zoom. */
export function resultView() {
  const sel = ui.selected && ui.selected.kind === "entity" ? ui.selected.id : null;
  /** @type {{selected: string | null, focus: string | null, level: number, cellSize: number, offset: {x: number, y: number}, lines: "selected" | "all"}} */
  const v = { selected: sel, focus: focusId(), level: ui.level, cellSize: ui.sq, offset: { x: -view.x, y: -view.y }, lines: ui.linesAll ? "all" : "selected" };
  return v;
}

/**
 * Has the overlay evaluate req (against sc, a scene of its engine, when given) and draw its
 * answer in the current view; returns its summary. A refused request throws the engine's error,
 * and the layer keeps what it showed (the caller clears it).
 * @param {Request | SceneRequest} req @param {EngineScene | null} sc @returns {DrawSummary}
 */
export function paintResult(req, sc) {
  const overlay = /** @type {Overlay} */ (ui.overlay);
  const v = resultView();
  const t0 = performance.now();
  const summary = overlay.draw(req, sc ? { ...v, scene: sc } : v);
  ui.timing.overlay = performance.now() - t0;
  ui.drawn = { request: req, scene: sc, key: JSON.stringify(v), focus: v.focus, level: v.level, all: v.lines === "all" };
  return summary;
}

/** Erases the result layer: no answer to show. */
export function clearResult() {
  ui.drawn = null;
  if (ui.overlay) ui.overlay.clear();
}

/** The selected creature that a forced movement would move (never the caster), or null. */
export function forceTarget() {
  const sel = ui.selected;
  if (!dom.moveSection.open) return null;
  if (!sel || sel.kind !== "entity" || sel.id === scene.caster.id) return null;
  return findEntity(sel.id);
}

/** Whether a template is a Draw Steel cube (its origin square can be chosen: SPEC §3.4). @param {Template | null} t */
export const isCube = (t) => !!t && t.rules === "drawsteel" && t.shape === "cube";

/** The slide's path laid for the creature that would move (empty for a push or pull, or for another creature). */
export function slidePath() {
  const t = forceTarget();
  return t && scene.force.kind === "slide" && scene.force.of === t.id ? scene.force.path : [];
}

/** Asks the engine about the scene: the template, its placement, the area and the targets. */
export function evaluateScene() {
  ui.summary = null;
  ui.error = null;
  ui.ghost = [];
  ui.waiting = "";
  ui.request = null;
  ui.requestBoard = null;
  ui.moveRequest = null;
  ui.move = null;
  ui.moveError = "";
  const engine = ui.engine;
  if (!engine) return;
  ui.template = parseAs(engine, scene.template, scene.rules); // scene.template is only ever set to text that parses (under scene.rules)
  const t = ui.template;
  const place = placementOf(t, scene);
  if (place === "wall" && scene.path.length === 0) {
    clearResult();
    ui.waiting = `Lay the wall: click or drag on the board to add its squares (up to ${t.squares}), each sharing a side with another.`;
  } else {
    const req = frameRequest(scene, t);
    ui.request = req;
    try {
      ui.summary = drawBoard(engine, req);
    } catch (err) {
      clearResult();
      ui.error = engineError(err);
      if (RULE_BROKEN.has(ui.error.code) && place !== "caster" && ui.requestBoard) {
        // Show where the template would go, hatched, without the rule that refused it: the
        // widest range first (it replaces a Draw Steel `within`), then without the caster.
        // Without the tokens too, so with the board in the request (a scene holds its tokens).
        const { caster, range, targeting, resolve, ...rest } = withBoard(req, ui.requestBoard);
        for (const ghost of [{ ...rest, caster, range: 1000, tokens: [] }, { ...rest, tokens: [] }]) {
          try {
            const packed = engine.evaluateCells(ghost);
            for (let i = 0; i < packed.length; i += 3) ui.ghost.push([packed[i], packed[i + 1], packed[i + 2]]);
            break;
          } catch {
            // next; with no ghost at all, the marks on the handles and the message say it
          }
        }
      }
    }
  }
  const target = forceTarget();
  const laid = slidePath();
  if (target && (scene.force.kind !== "slide" || laid.length > 0)) {
    const c = scene.caster;
    /** @type {MoveRequest} */
    const mreq = {
      kind: scene.force.kind, distance: scene.force.distance, source: { x: c.x, y: c.y, z: c.z }, target: target.id,
      tokens: entities(scene).map((e) => tokenOut(e, false)), obstacles: scene.obstacles.map((o) => ({ ...o })),
      walls: scene.walls.map(wallOut),
      bounds: { min: [0, 0, -1000], max: [scene.cols - 1, scene.rows - 1, 1000] },
    };
    if (scene.force.kind === "slide") mreq.path = laid.map((p) => /** @type {CellTuple} */ ([...p]));
    ui.moveRequest = mreq;
    try {
      ui.move = engine.move(mreq);
    } catch (err) {
      const e = engineError(err);
      ui.moveError = capital(e.message);
    }
  }
  evaluateAttack(engine);
}

/**
 * Attack cover (CONTRACT cover, SPEC §5.7), in the same update as the area: asked while the
 * section is open and both creatures are chosen.
 * @param {Engine} engine
 */
function evaluateAttack(engine) {
  ui.attackRequest = null;
  ui.attackResult = null;
  ui.attackError = null;
  const a = ui.attack;
  if (!dom.attackSection.open) return;
  const attacker = findEntity(a.attacker), target = findEntity(a.target);
  if (!attacker || !target || attacker === target) return;
  /** @type {CoverRequest} */
  const req = {
    rules: a.rules, attack: a.kind,
    attacker: { ...tokenOut(attacker, false), flying: a.flying },
    target: tokenOut(target, false),
    tokens: entities(scene).filter((e) => e !== attacker && e !== target).map((e) => tokenOut(e, false)),
    obstacles: scene.obstacles.map((o) => ({ ...o })),
    walls: scene.walls.map(wallOut),
  };
  ui.attackRequest = req;
  try {
    ui.attackResult = engine.cover(req);
  } catch (err) {
    ui.attackError = engineError(err);
  }
}
