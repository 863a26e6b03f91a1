// Types of the aoekit package: the whole public contract (CONTRACT.md beside this file, version
// 1) as the browser and Node door speak it. Every door takes and gives the same JSON; these are
// its shapes. "SPEC §N" cites the rule book, core/SPEC.md in this package.
//
// Coordinate spaces: a cell is a grid square (integers, x east, y south, z up; SPEC §1.1), as
// `Pos` ({x, y, z}) or `CellTuple` ([x, y, z]); a `WorldPoint` is a point in cell units (cell
// (x, y, z) spans [x, x+1] × [y, y+1] × [z, z+1]), used for cover segments.

/** A cell as an object: the form of caster, token and origin positions. */
export interface Pos {
  x: number;
  y: number;
  z: number;
}

/** A cell as an array `[x, y, z]`: the form of cell lists, paths and bounds. */
export type CellTuple = [x: number, y: number, z: number];

/** A point in world units (cells), e.g. `[5.5, 5.5, 0.5]` is the centre of cell (5, 5, 0). */
export type WorldPoint = [x: number, y: number, z: number];

/** A compass direction (SPEC §1.2); TDGS template directions are relative to the caster's facing. */
export type Direction = "N" | "NE" | "E" | "SE" | "S" | "SW" | "W" | "NW";

/** A rule set (SPEC §6). */
export type Rules = "tdgs" | "drawsteel" | "circle50";

/** A template's shape: TDGS circle, cone, line, rectangle; Draw Steel aura, burst, cube, line, wall; 50 % circle. */
export type ShapeName = "circle" | "cone" | "line" | "rectangle" | "aura" | "burst" | "cube" | "wall";

/** The codes of thrown errors (CONTRACT). */
export type ErrorCode =
  | "bad_notation"
  | "bad_request"
  | "out_of_range"
  | "no_line_of_effect"
  | "invalid_wall"
  | "not_straight"
  | "too_large";

/**
 * A parsed template (CONTRACT parse). All sizes are integers in squares; fields a shape does
 * not have are absent. TDGS: circle `radius`; cone `length`, `direction`; line `length`,
 * `direction`, `width`; rectangle `width`, `length`; each `height`. Draw Steel: aura and burst
 * `radius`; cube `side`; line `length`, `width`; wall `squares`; each `within` where given.
 * 50 % circle: `size`, `close`.
 */
export interface Template {
  /** The text as given to parse (absent when the template was built from an object). */
  text?: string;
  /** The canonical notation (SPEC §2.2): parsing it gives the same template. */
  notation: string;
  rules: Rules;
  shape: ShapeName;
  radius?: number;
  side?: number;
  size?: number;
  length?: number;
  direction?: Direction;
  width?: number;
  height?: number;
  squares?: number;
  within?: number;
  close?: boolean;
  /** A rectangle's turn about its anchor (SPEC §2.7); N when absent. */
  orientation?: "N" | "E" | "S" | "W";
}

/** A request's template: notation text (`"Con4NE"`, `"3 cube within 10"`) or a template object. */
export type TemplateInput = string | (Partial<Template> & ({ shape: ShapeName } | { notation: string } | { text: string }));

/**
 * An entity on the board (SPEC §1.5). Its anchor (x, y, z) is its north-west, lowest cell.
 * `size` is a number of squares or a size name (`"Large"`, `"1T"`…), 1 by default; `height`
 * defaults to the size; `facing` to N.
 */
export interface Token {
  id: string;
  x: number;
  y: number;
  z: number;
  size?: number | string;
  height?: number;
  facing?: Direction;
  /** Free text ("party", "enemy"…) compared by the targeting traits. */
  side?: string;
  prone?: boolean;
}

/** A solid cell (SPEC §1.6); `fill` in (0, 1] is its filled fraction of the height, 1 by default. */
export interface Obstacle {
  x: number;
  y: number;
  z: number;
  fill?: number;
}

/** The board, inclusive on both ends. */
export interface Bounds {
  min: CellTuple;
  max: CellTuple;
}

/** Smart targeting (SPEC §7.3). */
export interface Targeting {
  trait?: "none" | "alliesExcluded" | "enemiesOnly" | "selective";
  /** The ids a `selective` trait keeps. */
  ids?: string[];
  excludeCaster?: boolean;
  /** Cells that leave the area. */
  excludeCells?: CellTuple[];
}

/** Ask for rolls (SPEC §7.4). */
export interface Resolve {
  /** The caster's attacking stat. */
  stat: number;
  modifiers?: number;
  luck?: number;
  /** The generator's seed: same seed and request, same rolls on every platform. An integer; past 2^53 − 1 a JavaScript number cannot carry it exactly. */
  seed?: number;
  /** Each target's defending stat by id (REF for most areas); cover adds to it. */
  defence?: Record<string, number>;
}

/** An evaluate request (CONTRACT evaluate). Missing optional fields take SPEC defaults; unknown fields are ignored. */
export interface Request {
  /** `tdgs` by default. */
  rules?: Rules;
  template: TemplateInput;
  /** Required for shapes that project from the caster or are placed at range. */
  caster?: Token;
  /** The chosen cell of an at-range shape: circle centre, rectangle anchor, cube's north-west-lowest cell, line origin. */
  origin?: Pos;
  /** A Draw Steel cube's origin square (SPEC §3.4). */
  originSquare?: Pos;
  /** The cell a Draw Steel line points at. */
  aim?: Pos;
  /** The explicit cells of a Draw Steel line or wall, validated (SPEC §3.5–§3.7). */
  path?: CellTuple[];
  /** A number of squares, `"self"` or `"touch"`. */
  range?: number | "self" | "touch";
  tokens?: Token[];
  obstacles?: Obstacle[];
  /** Cells outside are left out of `cells` (clipped, not an error). */
  bounds?: Bounds;
  targeting?: Targeting;
  resolve?: Resolve;
  /** Turns a rectangle (also accepted in the template object). */
  orientation?: "N" | "E" | "S" | "W";
  /** Distance for range and circles (SPEC §8.2); chebyshev by default. */
  metric?: "chebyshev" | "alternating" | "manhattan" | "euclidean";
  /** Whether obstacles shape the area (SPEC §6); the rule set's choice when absent. */
  barriers?: boolean;
  /** Which cover grades apply (SPEC §6); the rule set's when absent. */
  cover?: "tdgs" | "drawsteel" | "none";
  /** Whether full cover leaves a target unaffected; the rule set's choice when absent. */
  applyCover?: boolean;
}

/** Cover grades: `none`, `partial`, `half`, `full` (tdgs, circle50) or `none`, `cover`, `full` (drawsteel). */
export type CoverGrade = "none" | "partial" | "half" | "full" | "cover";

/** One cover segment (SPEC §5.3) in world units. */
export interface Line {
  from: WorldPoint;
  to: WorldPoint;
  blocked: boolean;
}

/** One target's resolution (SPEC §7.4). */
export interface Roll {
  dice: number[];
  total: number;
  defence: number;
  hit: boolean;
}

/** An entity whose space overlaps the area. */
export interface Target {
  id: string;
  inArea: boolean;
  affected: boolean;
  /** Why an entity in the area is not affected. */
  reason?: "cover" | "targeting" | "barrier";
  cover: CoverGrade;
  /** The REF bonus: 0, 2 or 4. */
  bonus: number;
  /** How many of `lines` are blocked. */
  blocked: number;
  lines: Line[];
  /** Present when the request had `resolve`. */
  roll?: Roll;
}

/** The answer to evaluate (CONTRACT evaluate). */
export interface Result {
  template: Template;
  /** The absolute direction after facing; absent for shapes without one. */
  direction?: Direction;
  origin: Pos;
  /** Whether the caster has line of sight to the origin (SPEC §2.9, §5.3). */
  originVisible: boolean;
  /** Every affected cell, sorted by z, then y, then x, without duplicates. */
  cells: CellTuple[];
  count: number;
  /** The caster first when its space overlaps the shape, then tokens in request order. */
  targets: Target[];
}

/** A forced movement (CONTRACT move, SPEC §3.7). */
export interface MoveRequest {
  kind: "push" | "pull" | "slide";
  distance: number;
  source: Pos;
  /** The id of the token moved. */
  target: string;
  /** The squares the target's anchor enters, in order, without its starting square; the engine picks a straight one when absent. */
  path?: CellTuple[];
  vertical?: boolean;
  tokens?: Token[];
  obstacles?: Obstacle[];
  bounds?: Bounds;
}

/** What stopped a forced movement. */
export interface Collision {
  /** `"obstacle"` or a token id. */
  with: string;
  at: CellTuple;
  /** Squares of movement left. */
  left: number;
}

/** Where a forced movement ends. */
export interface MoveResult {
  /** The squares actually entered. */
  path: CellTuple[];
  end: Pos;
  collision: Collision | null;
}

/** The engine's version. */
export interface VersionInfo {
  engine: "aoekit";
  version: string;
  /** The CONTRACT version: 1. */
  contract: number;
}

/**
 * What every engine method throws for a bad request or a rule violation. `at` is the 1-based
 * position in the notation of a `bad_notation` error. A failure of the engine itself (a bug,
 * or the WebAssembly instance stopping) is a `bad_request` whose message starts with
 * `"internal error: "`; the next call then runs on a fresh instance.
 */
export interface AoekitError extends Error {
  code: ErrorCode;
  message: string;
  at?: number;
}

/**
 * A loaded engine. Its methods are synchronous, need no `this` (they may be destructured) and
 * throw an {@link AoekitError} on failure. A request that JSON cannot carry (a cycle, a BigInt,
 * undefined) is a `bad_request`.
 */
export interface Engine {
  /** Reads template notation (SPEC §2.2, §3.8, §4). */
  parse(text: string): Template;
  /** Evaluates a template on a board. */
  evaluate(request: Request): Result;
  /**
   * The cells of `evaluate(request)` packed for drawing: x, y, z of each cell in turn, in the
   * same order, without the per-cell objects (cell i is at `[3*i, 3*i+1, 3*i+2]`; the count is
   * `length / 3`). Throws what `evaluate` throws.
   */
  evaluateCells(request: Request): Int32Array;
  /** Moves a creature by force (push, pull, slide). */
  move(request: MoveRequest): MoveResult;
  version(): VersionInfo;
}

/** Where to find aoekit.wasm. */
export interface LoadOptions {
  /**
   * The module: a URL, a string (a path in Node, a URL elsewhere), its bytes, a `Response` (or
   * a promise of one, such as `fetch(url)`) or a compiled `WebAssembly.Module`. By default,
   * `aoekit.wasm` next to the loader (`new URL("./aoekit.wasm", import.meta.url)`), which
   * bundlers such as Vite and webpack follow and emit.
   */
  wasm?: string | URL | ArrayBuffer | ArrayBufferView | Response | PromiseLike<Response> | WebAssembly.Module;
}

/**
 * Instantiates aoekit.wasm and resolves to an engine. Each call starts its own instance; a
 * loaded engine holds no timer or handle that keeps a Node process alive.
 */
export function load(options?: LoadOptions): Promise<Engine>;
