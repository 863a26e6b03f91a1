// @ts-check
// The aoekit demo, its start: the modules it imports are mapped in web/demo/README.md. One scene
// object (what undo, localStorage and export know: state.js), one UI object (what is derived or
// transient: state.js), one place that asks the engine (refresh.js → engine.js), one painter
// (draw.js) and one converter between pixels and cells (view.js). Every rule comes from the engine: the demo asks
// engine.parse what a notation is and the engine's evaluate what it covers; it never guesses. The
// board lives in the engine too, as a scene (CONTRACT scene) kept up to date with each edit, so
// that a frame sends only what moved (drawBoard). The engine is the overlay module's
// (aoekit-overlay.wasm: the engine and a renderer in one Go runtime, CONTRACT "The overlay"),
// which draws each answer itself — the area, its outline, the cover lines, the creatures the
// answer is about with their rings — on its own canvas, between the demo's cached board and the
// demo's own layers: handles and tools, then the names and badges over every line. The answer
// never crosses into the page but as a summary (the panel's, the badges').
// Plain ES modules, no framework, no build step, no inline script or style (strict CSP).
import { loadOverlay } from "../overlay.js";
import { STRESS } from "./constants.js";
import { badgesCanvas, canvas, dom, namesCanvas, resultCanvas, stillCanvas } from "./dom.js";
import { draw, layers } from "./draw.js";
import { SAMPLE_SELECTED, sampleScene, stressScene } from "./scenes.js";
import { history, resetHistory, scene, ui } from "./state.js";
import { withBoard, withRollsOff } from "./requests.js";
import { attachResult, board } from "./engine.js";
import { exportRequest, importText, restore, save } from "./io.js";
import { sceneReplaced } from "./refresh.js";
import { panBy, resize, setLevel, view, zoomTo } from "./view.js";
import { labelLayers } from "./labels.js";
import { lineGeometry } from "./marks.js";
import { markSafe, restoreSafe } from "./samples.js";
import { templatesOf } from "./templates.js";
// The modules that listen to the page (their listeners are set when they load): the pointer on
// the board, the keyboard and the toolbar, the template's fields and sections, the creatures,
// the full attack panel, import and export, the samples.
import "./pointer.js";
import "./keys.js";
import "./fields.js";
import "./creatures.js";
import "./fullattack-panel.js";
import "./io.js";
import "./samples.js";

/** @typedef {import("./types.js").CoverRequest} CoverRequest */
/** @typedef {import("./types.js").FullAttackRequest} FullAttackRequest */
/** @typedef {import("./types.js").MoveRequest} MoveRequest */
/** @typedef {import("./types.js").Request} Request */

// ---------------------------------------------------------------------------------------------
// Start

window.addEventListener("pagehide", () => { if (ui.engine) save(); });
new ResizeObserver(() => resize()).observe(/** @type {HTMLElement} */ (dom.wrap.parentElement));
window.addEventListener("resize", resize);
dom.wrap.classList.add("fits");
resize();
draw();

/**
 * The region x, y, w × h of the backing store as shown: the layers drawn one over the other (the
 * test hooks' pixels).
 * @param {number} x @param {number} y @param {number} w @param {number} h
 */
function composite(x, y, w, h) {
  const c = document.createElement("canvas");
  c.width = w;
  c.height = h;
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext("2d", { willReadFrequently: true }));
  for (const layer of [stillCanvas, resultCanvas, canvas, badgesCanvas, namesCanvas]) if (layer.width > 0 && layer.height > 0) g.drawImage(layer, x, y, w, h, 0, 0, w, h);
  return g.getImageData(0, 0, w, h);
}

// Exposed for the browser tests; not an API.
/** @type {Record<string, unknown>} */ (/** @type {unknown} */ (globalThis)).__aoekitDemo = {
    state: ui,
    get scene() { return scene; },
    /** The engine's scene of the board (evaluateBoard), its counts, the board it holds. */
    get engineBoard() { return board; },
    /** The evaluate request the answer shown answers, its board included (and, Rolls off, the rollsOff Export writes with it). @returns {Request | null} */
    request: () => ui.request && ui.requestBoard && JSON.parse(JSON.stringify(withRollsOff(withBoard(ui.request, ui.requestBoard), scene))),
    exportRequest,
    importText,
    /** The area's cells the overlay drew (on the level shown), from the answer it drew. @returns {[number, number][]} */
    drawnCells() {
      const res = ui.result, level = ui.drawn ? ui.drawn.level : ui.level;
      return res ? res.cells.filter((c) => c[2] === level).map((c) => /** @type {[number, number]} */ ([c[0], c[1]])) : [];
    },
    /** The cover lines drawn, in board pixels: the overlay's (the hovered or selected creature's, or every target's, from the answer it drew, where it draws them), then the attack's. */
    drawnLines() {
      const res = ui.result, id = ui.drawn ? ui.drawn.focus : null;
      const targets = !res ? [] : ui.drawn && ui.drawn.all ? res.targets : res.targets.filter((x) => x.id === id);
      /** @type {{id: string, from: [number, number], to: [number, number], blocked: boolean}[]} */
      const out = [];
      for (const target of targets) {
        const area = lineGeometry(target.lines);
        for (const l of [...area.filter((g) => !g.blocked), ...area.filter((g) => g.blocked)]) out.push({ id: target.id, ...l });
      }
      return out.concat(ui.drawnLines.map((l) => ({ ...l })));
    },
    /** The names and badges the label layers show, in board pixels: kind, creature, text and box. */
    drawnLabels: () => ui.labels.map(({ kind, id, text, x, y, w, h }) => ({ kind, id, text, x, y, w, h })),
    /** The dnd5e and pf2e cover badges the last draw painted (the overlay paints the other rule sets'). */
    drawnBadges: () => ui.badges.map((b) => ({ ...b })),
    /** @returns {CoverRequest | null} */ attackRequest: () => ui.attackRequest && JSON.parse(JSON.stringify(ui.attackRequest)),
    /** @returns {MoveRequest | null} */ moveRequest: () => ui.moveRequest && JSON.parse(JSON.stringify(ui.moveRequest)),
    /** The full-attack request the panel's answer answers. @returns {FullAttackRequest | null} */
    fullAttackRequest: () => ui.fa.request && JSON.parse(JSON.stringify(ui.fa.request)),
    /** The page coordinates of the centre of square (x, y) (plus an offset in squares), through the view. @param {number} x @param {number} y */
    cellCentre(x, y, ox = 0.5, oy = 0.5) {
      const r = canvas.getBoundingClientRect();
      return { x: r.left + (x + ox) * ui.sq - view.x, y: r.top + (y + oy) * ui.sq - view.y };
    },
    /** The board's pixel (RGBA, its layers composed) at board pixel (px, py) (square x starts at x · sq), through the view. @param {number} px @param {number} py */
    pixel(px, py) {
      return [...composite(Math.floor((px - view.x) * ui.dpr), Math.floor((py - view.y) * ui.dpr), 1, 1).data];
    },
    /** The whole board as shown: its layers composed, as one ImageData of the canvas's backing-store size. */
    image: () => composite(0, 0, canvas.width, canvas.height),
    /** The layers, bottom to top: the still layer, the overlay's, the board canvas, the badges, the names. */
    layers: () => [stillCanvas, resultCanvas, canvas, badgesCanvas, namesCanvas],
    /** The view: squares of sq pixels, `fit` at zoom 1, the canvas showing the board from board pixel (x, y). */
    get view() { return { ...view, sq: ui.sq }; },
    /** How many times the still layers (board, obstacles, grid, thin walls, plain creatures) were drawn. */
    get layersPainted() { return layers.painted; },
    zoomTo, setLevel, panBy,
    /** Draws everything again, the still layers too (their cached copies thrown away). */
    redrawFromScratch() { layers.key = []; labelLayers.names = labelLayers.badges = labelLayers.view = ""; if (ui.drawn) ui.drawn.key = ""; draw(); },
    get sq() { return ui.sq; },
    get dpr() { return ui.dpr; },
    get history() { return { index: history.index, length: history.stack.length }; },
    /** Every template on the board, in order (the selected one at scene.at), as the scene keeps them. */
    templates: () => templatesOf(scene),
    /** The placed templates' cells as the board draws them (scene.placed's order), or why one is not placed. */
    placedCells: () => ui.placedCells.map((p) => ({ cells: p.cells.map((c) => [...c]), error: p.error })),
};

loadOverlay().then((overlays) => {
  ui.overlays = overlays;
  ui.engine = overlays.engine;
  attachResult();
  const stored = STRESS ? null : restore();
  resetHistory(stored ?? (STRESS ? stressScene() : sampleScene()));
  restoreSafe(!!stored);
  ui.selected = stored || STRESS ? null : { kind: "entity", id: SAMPLE_SELECTED };
  sceneReplaced();
  if (!stored) markSafe(); // the sample: in the page itself
}, (err) => {
  dom.status.classList.add("error");
  dom.status.textContent = `The engine failed to load: ${err instanceof Error ? err.message : err}`;
});
