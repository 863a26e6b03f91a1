// aoekit overlay: the engine and a canvas renderer in one WebAssembly module
// (aoekit-overlay.wasm). Hand-written; the request and the errors are the engine's
// (index.d.ts, CONTRACT.md). See CONTRACT.md, "The overlay".

import type { CoverGrade, Engine, LoadOptions, Request, Result, Roll, Scene, SceneRequest, Target, Template } from "./index.js";

export { AoekitError } from "./index.js";
export type { Engine, Request, Result, Scene, SceneRequest };

/**
 * Where loadOverlay finds the module: as `load`'s `wasm` option, by default
 * `aoekit-overlay.wasm` next to the loader (`new URL("./aoekit-overlay.wasm", import.meta.url)`).
 *
 * @example
 * const overlays = await loadOverlay({ wasm: "/assets/aoekit-overlay.wasm" });
 */
export interface LoadOverlayOptions {
  /** A URL, a path (Node), the module's bytes, a `Response` (or a promise of one) or a compiled `WebAssembly.Module`. */
  wasm?: LoadOptions["wasm"];
}

/**
 * What one draw shows. Given to `attach` (as fields of its options) it is every draw's default;
 * given to `draw`, it overrides those defaults field by field, for that draw.
 *
 * @example
 * overlay.draw(request, { selected: "orc", lines: "selected", labels: true });
 */
export interface OverlayView {
  /** The token shown with a tinted square, whose cover lines `lines: "selected"` draws unless `focus` names another; `null` unselects. */
  selected?: string | null;
  /**
   * The token whose cover lines `lines: "selected"` draws and whose name shows on squares under
   * 24 pixels (a token hovered, say), instead of the selected one; `null` (the default) is the
   * selected one.
   */
  focus?: string | null;
  /** Cover lines: the focused (else the selected) token's (default), every target's, or none. Clear lines are solid green, blocked ones dashed red. */
  lines?: "selected" | "all" | "none";
  /**
   * Tokens: `"ring"` (default) rings in the side's colour that leave the map's token art
   * visible; `"disc"` the demo's filled discs; `"none"` only badges and labels. Either way an
   * affected token gets a thick yellow ring, a listed but unaffected one a dashed ring, and the
   * caster a white inner ring and an arrow for its facing.
   */
  tokens?: "ring" | "disc" | "none";
  /** The area's outline (default true). */
  outline?: boolean;
  /** Cover badges (the grade; its first letter on squares under 24 pixels), rolls, and "in own area" on the caster (default true). */
  badges?: boolean;
  /** Token names (default false; on squares under 24 pixels, the selected token's only). */
  labels?: boolean;
  /** The request's obstacles: full ones dark, partial ones hatched (default false: the map shows its own). */
  obstacles?: boolean;
  /** The request's thin walls as thick lines; open doors dashed (default true). */
  walls?: boolean;
  /** The level (z) whose cells are filled (default 0). */
  level?: number;
  /**
   * Whether tokens the answer does not list are drawn (default true). With `false`, only the
   * caster, the targets and the selected and focused tokens are: for a page that draws its
   * tokens itself, and lets the overlay draw over them those the answer is about.
   */
  unlisted?: boolean;
  /** The opacity (0 to 1) of tokens whose space does not take in `level` (default 1: as the others). */
  otherLevels?: number;
  /**
   * Whether the summary carries the rest of the answer but its cells and lines (default false):
   * see `DrawSummary`.
   */
  details?: boolean;
}

/**
 * A draw's own fields, besides the view's: given to `draw` (or `update`), not to `attach`.
 *
 * @example
 * overlay.draw({ template: "Cir3", origin: { x: 9, y: 4 } }, { scene, cellSize: 40, offset: { x: -120, y: 0 } });
 */
export interface DrawView extends OverlayView {
  /**
   * A scene of this overlay module's engine (`engine.scene(board)` of the `engine` that
   * `loadOverlay()` or `attachOverlay()` gives): the request is then a scene's request (no
   * `tokens`, `obstacles`, `walls` or `bounds`), answered against the scene's board, which is
   * drawn as it stands — only the request crosses into the module.
   */
  scene?: Scene | null;
  /** Pixels a square for this draw (as attach's `cellSize`); `cellAt` and `pixelOf` follow the last draw's. */
  cellSize?: number;
  /** Where square (0, 0)'s corner is for this draw (as attach's `offset`, missing fields 0). */
  offset?: { x?: number; y?: number };
}

/**
 * Colours, any CSS colour string the canvas accepts; each one given replaces the demo's.
 *
 * @example
 * overlays.attach(canvas, { colours: { area: "rgba(80, 0, 200, 0.3)", sides: { ally: "#2e7d32" } } });
 */
export interface OverlayColours {
  /** The affected cells' fill: `rgba(255, 140, 0, 0.36)`. */
  area?: string;
  /** The area's outline: `#e07b00`. */
  areaEdge?: string;
  /** A full obstacle: `#3c4850`. */
  obstacle?: string;
  /** A partial obstacle: `#aab6bd`, hatched in `hatch`, `#5f6f78`. */
  lowObstacle?: string;
  hatch?: string;
  /** A closed thin wall: `#1d252a`. */
  wall?: string;
  /** An open door (dashed): `#8d5b3e`. */
  door?: string;
  /** A thin wall with a `bottom` or a `top`: `#5f6f78`. */
  fence?: string;
  /** Under every wall: `rgba(255, 255, 255, 0.85)`. */
  halo?: string;
  /** The ring of an affected token: `#ffd400`. */
  hit?: string;
  /** The dashed ring of a token in the area but not affected: `#222`. */
  spared?: string;
  /** A clear cover line: `#2fbf4a`. */
  clear?: string;
  /** A blocked cover line: `#ff3b3b`. */
  blocked?: string;
  /** The selected token's square: `rgba(11, 98, 214, 0.18)`. */
  selected?: string;
  /** Text on labels: `#1f2328`. */
  ink?: string;
  /** Token colours by `side`: party `#1e6fd9`, enemy `#d32f2f`, neutral `#8d8a80`; any other side is drawn as neutral. */
  sides?: Record<string, string>;
  /** Cover-badge colours by grade: none `#eceff1`, partial `#fff59d`, half and cover `#ffb74d`, full `#c62828`. */
  badges?: Partial<Record<CoverGrade, string>> & Record<string, string>;
}

/**
 * How an overlay lays the board on its canvas, and its default view. Lengths are CSS pixels.
 *
 * @example
 * const overlay = overlays.attach(canvas, { cellSize: 50, offset: { x: -scrollX, y: -scrollY }, lines: "all" });
 */
export interface OverlayOptions extends OverlayView {
  /** CSS pixels a square (above 0, at most 1000; default 32). */
  cellSize?: number;
  /** Where the north-west corner of square (0, 0) is, from the canvas's top-left corner (default 0, 0). */
  offset?: { x?: number; y?: number };
  /**
   * The backing store's pixels a CSS pixel (above 0, at most 8). By default the window's
   * `devicePixelRatio`, read again at every draw: the backing store is the canvas's CSS size
   * times it, so that lines stay sharp on high-density screens.
   */
  devicePixelRatio?: number;
  /**
   * The canvas's CSS size, set as its style. By default its laid-out size (`clientWidth` ×
   * `clientHeight`, read again at every draw); a canvas its CSS does not size keeps its
   * `width` × `height` attributes as its CSS size.
   */
  width?: number;
  height?: number;
  colours?: OverlayColours;
}

/**
 * A target as `draw` reports it: the engine's target without its lines and roll; with the
 * view's `details`, also its `blocked`, its `total` (how many lines it has) and its `roll`.
 */
export type DrawTarget = Pick<Target, "id" | "inArea" | "affected" | "reason" | "cover" | "bonus"> & {
  /** With `details`: evaluate's `blocked`. */
  blocked?: number;
  /** With `details`: how many lines evaluate's target has (`lines.length`). */
  total?: number;
  /** With `details`, when the request had `resolve` and the target is affected: evaluate's `roll`. */
  roll?: Roll;
};

/**
 * What `draw` returns: the engine's count and targets, without the cells it drew; with the
 * view's `details`, also the answer's `template`, `direction`, `origin` and `originVisible`.
 *
 * @example
 * const { count, targets } = overlay.draw(request);
 * targets.filter((t) => t.affected).map((t) => t.id); // → ["g1"]
 */
export interface DrawSummary {
  /** The number of cells of the area (every level), as evaluate's `count`. */
  count: number;
  /** As evaluate's `targets`, in the same order. */
  targets: DrawTarget[];
  /** With `details`: as evaluate's. */
  template?: Template;
  /** With `details`, for a TDGS cone or line: as evaluate's. */
  direction?: Result["direction"];
  /** With `details`: as evaluate's. */
  origin?: Result["origin"];
  /** With `details`: as evaluate's. */
  originVisible?: boolean;
}

/**
 * One canvas with an overlay. Its methods are synchronous and need no `this`; each throws an
 * `AoekitError` (code, message, at) for a bad request or a bad argument, and a `bad_request`
 * once the overlay is detached.
 */
export interface Overlay {
  /**
   * Evaluates `request` (as `engine.evaluate` would) and draws its answer, replacing what was
   * drawn; throws the engine's error, leaving the canvas as it was, when the request is refused.
   *
   * @example
   * const summary = overlay.draw({ template: "Cir2h1", origin: { x: 5, y: 5 }, tokens: [{ id: "g1", x: 4, y: 4 }] });
   * summary.targets[0].affected; // → true
   */
  draw(request: Request | SceneRequest, view?: DrawView): DrawSummary;
  /**
   * The whole answer of the last draw, as `evaluate` returns it (cells and lines included:
   * JSON crosses out of the module only now), or `null` before the first draw and after `clear`.
   *
   * @example
   * overlay.draw(request);
   * overlay.result().cells.length; // → the count
   */
  result(): Result | null;
  /**
   * Erases what the overlay drew.
   *
   * @example
   * overlay.clear();
   */
  clear(): void;
  /**
   * Erases what the overlay drew and gives the canvas back: its size and the inline style of
   * its size as before `attach`. Every later call throws; detaching twice does nothing.
   *
   * @example
   * overlay.detach();
   */
  detach(): void;
  /**
   * The square under a point of the canvas, in CSS pixels from its top-left corner.
   *
   * @example
   * canvas.addEventListener("click", (e) => {
   *   const r = canvas.getBoundingClientRect();
   *   const { x, y } = overlay.cellAt(e.clientX - r.left, e.clientY - r.top);
   * });
   */
  cellAt(px: number, py: number): { x: number; y: number };
  /**
   * The centre of square (x, y), in CSS pixels from the canvas's top-left corner:
   * `cellAt(pixelOf(x, y))` is `{ x, y }`. `x` and `y` are integers from −1 000 000 to 1 000 000.
   *
   * @example
   * overlay.pixelOf(5, 5); // → { x: 117, y: 121 } with cellSize 20 and offset { x: 7, y: 11 }
   */
  pixelOf(x: number, y: number): { x: number; y: number };
}

/** The loaded module: attach overlays with it; its engine answers as `load()`'s. */
export interface OverlayModule {
  /**
   * The module's engine: `load()`'s `Engine` (the same methods, the same answers and errors,
   * scenes included), running in the same Go runtime as the overlays — and the only one whose
   * scenes a draw can take (`draw(request, { scene })`).
   *
   * @example
   * const { engine, attach } = await loadOverlay();
   * const scene = engine.scene({ tokens: [{ id: "orc", x: 6, y: 5 }] });
   * attach(canvas).draw({ template: "Cir2", origin: { x: 6, y: 5 } }, { scene });
   */
  engine: Engine;
  /**
   * Attaches an overlay to a `<canvas>` (one overlay a canvas; its 2-D context is the
   * overlay's), sizing its backing store for the device pixel ratio. In a worker, to an
   * `OffscreenCanvas`: it has no layout and the worker no window, so its CSS size is
   * `options.width` × `options.height` (else its size at attach) and its ratio
   * `options.devicePixelRatio` (else 1).
   *
   * @example
   * const overlay = overlays.attach(document.querySelector("canvas"), { cellSize: 20, offset: { x: 7, y: 11 } });
   */
  attach(canvas: HTMLCanvasElement | OffscreenCanvas, options?: OverlayOptions): Overlay;
}

/**
 * attachOverlay's options: attach's (`cellSize`, `offset`, `colours`, the view's defaults…),
 * `wasm` (where the module is, as `loadOverlay`'s) and `onTargets`.
 *
 * @example
 * await attachOverlay(canvas, { cellSize: 50, offset: { x: 0, y: 0 }, onTargets: (targets) => showTargets(targets) });
 */
export interface AttachOverlayOptions extends OverlayOptions, LoadOverlayOptions {
  /** Called after each draw with its targets (`update`'s summary's). */
  onTargets?: (targets: DrawTarget[]) => void;
}

/**
 * An overlay that `attachOverlay` attached. Its methods are synchronous and need no `this`;
 * each throws an `AoekitError` for a bad request or argument, and every one but `dispose`
 * throws a `bad_request` once the overlay is disposed.
 */
export interface AttachedOverlay {
  /**
   * Evaluates `request` — a whole `evaluate` request, board included, or with `view.scene` (a
   * scene of `engine`, this overlay's module's engine; not one of another module's) a scene's
   * request — and draws its answer, replacing what was drawn; then calls `onTargets` with its
   * targets, and returns the summary.
   * A refused request throws the engine's error, leaves the canvas as it was, and calls nothing.
   *
   * @example
   * overlay.update({ template: "Cir2h1", origin: { x: 5, y: 5, z: 0 }, tokens: [{ id: "g1", x: 4, y: 4, z: 0 }] }).count; // 25
   */
  update(request: Request | SceneRequest, view?: DrawView): DrawSummary;
  /**
   * The whole answer of the last update, as `evaluate` returns it, or `null` before the first
   * and after `clear`.
   *
   * @example
   * overlay.result()?.cells.length;
   */
  result(): Result | null;
  /**
   * The engine of the module this overlay draws with (shared by every overlay `attachOverlay`
   * attached with the same `wasm`): make scenes with it for `update(request, { scene })`.
   *
   * @example
   * const scene = overlay.engine.scene({ tokens });
   * overlay.update({ template: "Cir2", origin: { x: 5, y: 5 } }, { scene });
   */
  engine: Engine;
  /**
   * Erases what the overlay drew.
   *
   * @example
   * overlay.clear();
   */
  clear(): void;
  /**
   * Erases the drawing and gives the canvas back (its size and the inline style of its size as
   * before); a second call does nothing. The canvas can be attached again.
   *
   * @example
   * overlay.dispose();
   */
  dispose(): void;
  /**
   * The square under a point of the canvas, in CSS pixels from its top-left corner.
   *
   * @example
   * overlay.cellAt(117, 121); // { x: 5, y: 5 } with cellSize 20 and offset { x: 7, y: 11 }
   */
  cellAt(px: number, py: number): { x: number; y: number };
  /**
   * The centre of square (x, y), in CSS pixels from the canvas's top-left corner.
   *
   * @example
   * overlay.pixelOf(5, 5); // { x: 117, y: 121 } with cellSize 20 and offset { x: 7, y: 11 }
   */
  pixelOf(x: number, y: number): { x: number; y: number };
}

/**
 * Attaches an overlay to a canvas — a `<canvas>`, its 2-D context, or (in a worker) an
 * `OffscreenCanvas` — and resolves to it. The module, aoekit-overlay.wasm, is loaded once per
 * page (once per `wasm` URL or module) for every overlay attached this way.
 *
 * @example
 * import { attachOverlay } from "aoekit/overlay";
 * const overlay = await attachOverlay(canvas, { cellSize: 20, onTargets: (targets) => console.log(targets) });
 * overlay.update({ template: "Cir2h1", origin: { x: 5, y: 5, z: 0 } });
 */
export function attachOverlay(
  canvas: HTMLCanvasElement | CanvasRenderingContext2D | OffscreenCanvas | OffscreenCanvasRenderingContext2D,
  options?: AttachOverlayOptions,
): Promise<AttachedOverlay>;

/**
 * Instantiates aoekit-overlay.wasm (the engine and the renderer) and resolves to the module;
 * its engine then warms itself as `load`'s does, a call at a time when the host is idle (or
 * within a second). Each call starts its own instance. Should the instance fail, the next call
 * runs on a fresh one on which every overlay not detached is attached again.
 *
 * @example
 * import { loadOverlay } from "./aoekit/overlay.js"; // served beside index.js and the .wasm files
 * const overlays = await loadOverlay();
 * const overlay = overlays.attach(canvas, { cellSize: 20 });
 * overlay.draw({ template: "Cir2h1", origin: { x: 5, y: 5 } });
 */
export function loadOverlay(options?: LoadOverlayOptions): Promise<OverlayModule>;
