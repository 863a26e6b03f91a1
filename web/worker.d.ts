// aoekit/worker: the engine in a Web Worker. Hand-written; requests, answers and errors are the
// engine's (index.d.ts, CONTRACT.md), each method returning a promise of what the synchronous
// engine returns. See CONTRACT.md, "Off the main thread".

import type {
  BoardInput,
  CoverRequest,
  CoverResult,
  FullAttackRequest,
  FullAttackResult,
  LoadOptions,
  MoveRequest,
  MoveResult,
  ParseOptions,
  Request,
  Result,
  SceneEditInput,
  SceneRequest,
  Template,
  VersionInfo,
} from "./index.js";
import type { AttachOverlayOptions, DrawSummary, OverlayView } from "./overlay.js";

export { AoekitError } from "./index.js";

/**
 * Where loadWorker finds the module and the worker.
 *
 * @example
 * const engine = await loadWorker({ wasm: "/assets/aoekit.wasm" });
 */
export interface LoadWorkerOptions extends LoadOptions {
  /**
   * The worker, when the package's own cannot be used: a `Worker` already running the
   * package's `engine-worker.js` (a module worker), or that script's URL. By default,
   * `new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" })`, which
   * bundlers such as Vite and webpack follow and bundle.
   */
  worker?: Worker | string | URL;
}

/**
 * A scene kept in the worker (CONTRACT scene): `Scene`'s methods, each returning a promise.
 * `obstacles` as an `Int32Array` are copied to the worker, not taken from the caller.
 */
export interface WorkerScene {
  /**
   * Changes the board; rejects, changing nothing, with the error `Scene.update` throws.
   *
   * @example
   * await scene.update({ tokens: [{ id: "orc", x: 12, y: 5, z: 0 }] });
   */
  update(edit: SceneEditInput): Promise<void>;
  /**
   * Evaluates a template against the scene's board.
   *
   * @example
   * (await scene.evaluate({ template: "Cir2", origin: { x: 6, y: 5, z: 0 } })).count; // 50
   */
  evaluate(request: SceneRequest): Promise<Result>;
  /**
   * `evaluate`'s cells packed, as `Engine.evaluateCells` packs them; the worker hands its
   * buffer over rather than copying it.
   *
   * @example
   * const cells = await scene.evaluateCells({ template: "Cir2", origin: { x: 6, y: 5, z: 0 } });
   */
  evaluateCells(request: SceneRequest): Promise<Int32Array>;
  /**
   * Frees the scene in the worker; later calls reject, a second dispose does nothing.
   *
   * @example
   * await scene.dispose();
   */
  dispose(): Promise<void>;
}

/**
 * An overlay whose canvas the worker draws on: `AttachedOverlay`'s methods, each returning a
 * promise. `onTargets` is called on the page, after each draw, with its targets.
 */
export interface WorkerOverlay {
  /**
   * Evaluates a whole `evaluate` request (board included) in the worker and draws its answer.
   *
   * @example
   * const { targets } = await overlay.update({ template: "Cir2h1", origin: { x: 5, y: 5, z: 0 }, tokens });
   */
  update(request: Request, view?: OverlayView): Promise<DrawSummary>;
  /**
   * Erases the drawing.
   *
   * @example
   * await overlay.clear();
   */
  clear(): Promise<void>;
  /**
   * Erases the drawing and ends the overlay; the canvas gets its style back, but stays the
   * worker's (a canvas handed to a worker cannot be taken back): attach another to draw again.
   *
   * @example
   * await overlay.dispose();
   */
  dispose(): Promise<void>;
  /**
   * The square under a point of the canvas, in CSS pixels from its top-left corner.
   *
   * @example
   * await overlay.cellAt(117, 121); // { x: 5, y: 5 } with cellSize 20 and offset { x: 7, y: 11 }
   */
  cellAt(px: number, py: number): Promise<{ x: number; y: number }>;
  /**
   * The centre of square (x, y), in CSS pixels from the canvas's top-left corner.
   *
   * @example
   * await overlay.pixelOf(5, 5); // { x: 117, y: 121 } with cellSize 20 and offset { x: 7, y: 11 }
   */
  pixelOf(x: number, y: number): Promise<{ x: number; y: number }>;
}

/**
 * The engine in a Web Worker. Its methods are the `Engine`'s, need no `this`, and return
 * promises of the same values; they reject with an `AoekitError` (the same code, message and
 * at) where the engine throws one. Calls are answered in the order they are made.
 */
export interface WorkerEngine {
  /**
   * Reads template notation.
   *
   * @example
   * const t = await engine.parse("Con4NE");
   * if (t.shape === "cone") t.length; // 4
   */
  parse(text: string, options?: ParseOptions): Promise<Template>;
  /**
   * Evaluates a template on a board.
   *
   * @example
   * (await engine.evaluate({ template: "Cir1", origin: { x: 5, y: 5, z: 0 } })).count; // 9
   */
  evaluate(request: Request): Promise<Result>;
  /**
   * The cells of `evaluate(request)` packed, as `Engine.evaluateCells` packs them; the worker
   * hands the array's buffer over rather than copying it.
   *
   * @example
   * const cells = await engine.evaluateCells({ template: "Cir1", origin: { x: 5, y: 5, z: 0 } });
   * cells.length / 3; // 9
   */
  evaluateCells(request: Request): Promise<Int32Array>;
  /**
   * Moves a creature by force.
   *
   * @example
   * (await engine.move({ kind: "push", distance: 3, source: { x: 0, y: 0, z: 0 }, target: "g1", tokens: [{ id: "g1", x: 1, y: 0, z: 0 }] })).end; // { x: 4, y: 0, z: 0 }
   */
  move(request: MoveRequest): Promise<MoveResult>;
  /**
   * The cover a target has against one attack.
   *
   * @example
   * (await engine.cover({ attack: "ranged", attacker: { x: 0, y: 0, z: 0 }, target: { id: "orc", x: 4, y: 0, z: 0 } })).grade; // "none"
   */
  cover(request: CoverRequest): Promise<CoverResult>;
  /**
   * Prices a D&D 3.5 full attack.
   *
   * @example
   * (await engine.fullAttack({ bab: 6, holding: { main: { id: "longsword", kind: "oneHanded" } }, steps: [{ attack: "main" }] })).steps[0].bonus; // 6
   */
  fullAttack(request: FullAttackRequest): Promise<FullAttackResult>;
  /**
   * Makes a scene, kept in the worker; `obstacles` as an `Int32Array` are copied to it.
   *
   * @example
   * const scene = await engine.scene({ tokens: [{ id: "orc", x: 6, y: 5, z: 0 }] });
   * (await scene.evaluate({ template: "Cir2", origin: { x: 6, y: 5, z: 0 } })).targets[0].id; // "orc"
   */
  scene(board: BoardInput): Promise<WorkerScene>;
  /**
   * The engine's release and the contract's version.
   *
   * @example
   * await engine.version(); // { engine: "aoekit", version: "0.1.0", contract: 1 }
   */
  version(): Promise<VersionInfo>;
  /**
   * Hands a `<canvas>` to the worker (`transferControlToOffscreen`), where aoekit-overlay.wasm
   * draws on it: `attachOverlay`'s overlay, with promises. Needs a browser with
   * `OffscreenCanvas`, and a `<canvas>` with no rendering context yet (a context cannot go to a
   * worker); the options are checked, and the module loaded, before the canvas is handed over.
   * The canvas's CSS size and the window's device pixel ratio are read on the page at each
   * draw, as the module reads them for a canvas on the page.
   *
   * @example
   * const overlay = await engine.attachOverlay(canvas, { cellSize: 20, onTargets: (targets) => console.log(targets) });
   * await overlay.update({ template: "Cir2h1", origin: { x: 5, y: 5, z: 0 } });
   */
  attachOverlay(canvas: HTMLCanvasElement, options?: AttachOverlayOptions): Promise<WorkerOverlay>;
  /**
   * Terminates the worker: a call not yet answered, and every later one, rejects with a
   * `bad_request`.
   *
   * @example
   * engine.dispose();
   */
  dispose(): void;
}

/**
 * Starts the engine in a module Web Worker and resolves to it once the worker has loaded
 * aoekit.wasm. Each call starts its own worker. The module named by a URL (or the package's own,
 * for the package's own worker) is downloaded and compiled on the page while the worker's
 * scripts load, and the worker is given the compiled module; where the page cannot compile it
 * (its Content-Security-Policy forbids WebAssembly), the worker fetches it. Browsers only:
 * where there are no Web Workers (Node has worker_threads, not Web Workers), it rejects; use
 * `load` from `aoekit` there.
 *
 * @example
 * import { loadWorker } from "aoekit/worker";
 * const engine = await loadWorker();
 * const result = await engine.evaluate({ template: "Cir2", origin: { x: 5, y: 5, z: 0 } });
 */
export function loadWorker(options?: LoadWorkerOptions): Promise<WorkerEngine>;
