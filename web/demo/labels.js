// @ts-check
// The label layers, above every line: the creatures' names and the badges (cover grades, "in own
// area", rolls) laid out where they cover no name, each layer drawn again only when it changed.
import { COLOURS, OTHER_LEVEL_ALPHA } from "./constants.js";
import { badgesCanvas, canvas, namesCanvas } from "./dom.js";
import { focusId } from "./draw.js";
import { entities, findEntity, heightOf, scene, ui } from "./state.js";
import { isPoint } from "./requests.js";
import { boardTransform, onLevel, view } from "./view.js";

/** @typedef {import("./types.js").Entity} Entity */

/** How a dnd5e or pf2e grade is written on a badge: ½ and ¾ cover with their bonus, pf2e's names with theirs. @param {string} grade @param {number} bonus */
function gradeBadge(grade, bonus) {
  const short = { none: "none", half: "½", threeQuarters: "¾", total: "total", lesser: "lesser", standard: "standard", greater: "greater" }[grade] ?? grade;
  return bonus ? `${short} +${bonus}` : short;
}

/**
 * How a TDGS or Draw Steel grade is written on a badge, with what it does (SPEC §5.5): partial
 * +2 and half +4 (to REF), full; Draw Steel's cover is a bane. The legend shows the same words.
 * @param {string} grade @param {number} bonus
 */
function classicBadge(grade, bonus) {
  if (grade === "cover") return "cover (bane)";
  return bonus ? `${grade} +${bonus}` : grade;
}

/**
 * A badge on squares under 24 pixels, as the legend gives it: the bonus (+2, +4; pf2e +1, +2,
 * +4), ½ and ¾ (dnd5e), full, total, bane (Draw Steel's cover).
 * @param {string} grade @param {number} bonus @param {boolean} point
 */
function shortBadge(grade, bonus, point) {
  if (grade === "half" && point) return "½";
  if (grade === "threeQuarters") return "¾";
  if (grade === "cover") return "bane";
  return bonus ? `+${bonus}` : grade;
}

/** What a dnd5e or pf2e grade means, in words (the Targets list, the legend's titles). @param {string} grade */
export function gradeWords(grade) {
  return { none: "no cover", half: "half cover (½)", threeQuarters: "three-quarters cover (¾)", total: "total cover", lesser: "lesser cover", standard: "standard cover", greater: "greater cover" }[grade] ?? grade;
}

/** A badge's colours by grade: the demo's (demo.css .b-…), white text on full and total cover. @param {string} grade @returns {[string, string]} */
function gradeColours(grade) {
  const bg = { none: "#eceff1", partial: "#fff59d", half: "#ffb74d", cover: "#ffb74d", full: "#c62828", threeQuarters: "#ff7043", total: "#c62828", lesser: "#fff59d", standard: "#ffb74d", greater: "#ff7043" }[grade] ?? "#eee";
  return [bg, grade === "total" || grade === "full" ? "#fff" : "#111"];
}

/**
 * A label of the label layers, in board pixels: its box, text and look. `kind`: a creature's
 * name, a cover badge, the caster's "in own area", a roll.
 * @typedef {{kind: "name" | "badge" | "caster" | "roll", id: string, text: string, x: number, y: number, w: number, h: number,
 *   bg: string, fg: string, size: number, alpha: number}} Label
 */

/**
 * What the label layers show, as keys: equal keys, equal drawings (the names; the names and the
 * badges); and the labels each layer last painted, whose boxes are all it clears (a layer as
 * large as a 100 × 100 board is mostly empty).
 * @type {{names: string, badges: string, view: string, painted: {names: Label[], badges: Label[]}}}
 */
export const labelLayers = { names: "", badges: "", view: "", painted: { names: [], badges: [] } };
/** Text widths by size, for laying labels out before drawing them. @type {Map<string, number>} */
const textWidths = new Map();
/** @param {string} text @param {number} size */
function textWidth(text, size) {
  const k = `${size}|${text}`;
  let w = textWidths.get(k);
  if (w === undefined) {
    const g = /** @type {CanvasRenderingContext2D} */ (namesCanvas.getContext("2d"));
    g.font = `700 ${size}px system-ui, sans-serif`;
    w = g.measureText(text).width;
    if (textWidths.size > 4000) textWidths.clear();
    textWidths.set(k, w);
  }
  return w;
}
/** The box of a label `text`, `size` pixels high, centred on (cx, cy), kept on the board. @param {string} text @param {number} cx @param {number} cy @param {number} size */
function labelBox(text, cx, cy, size) {
  const w = textWidth(text, size) + size * 0.8, h = size * 1.35;
  const W = scene.cols * ui.sq, H = scene.rows * ui.sq;
  return { x: Math.min(Math.max(cx - w / 2, 1), W - w - 1), y: Math.min(Math.max(cy - h / 2, 1), H - h - 1), w, h };
}
/**
 * Whether two boxes overlap by more than `slack` pixels each way.
 * @param {{x: number, y: number, w: number, h: number}} a @param {{x: number, y: number, w: number, h: number}} b @param {number} [slack]
 */
const boxesMeet = (a, b, slack = 0) => a.x + slack < b.x + b.w && b.x + slack < a.x + a.w && a.y + slack < b.y + b.h && b.y + slack < a.y + a.h;

/** Paints a label: a rounded pill, its text centred. @param {CanvasRenderingContext2D} g @param {Label} l */
function paintLabel(g, l) {
  g.globalAlpha = l.alpha;
  g.font = `700 ${l.size}px system-ui, sans-serif`;
  g.beginPath();
  g.roundRect(l.x, l.y, l.w, l.h, l.h / 2);
  g.fillStyle = l.bg;
  g.fill();
  g.lineWidth = 1;
  g.strokeStyle = "rgba(0, 0, 0, 0.75)";
  g.stroke();
  g.fillStyle = l.fg;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(l.text, l.x + l.w / 2, l.y + l.h / 2 + 0.5);
}

/** The label layers' shared view: what moves every label. */
const labelView = () => `${canvas.width}x${canvas.height}@${ui.dpr}:${ui.sq}:${view.x},${view.y}:${ui.level}:${scene.cols}x${scene.rows}`;
/** The font size of names on squares of sq pixels. @param {number} sq */
const nameFont = (sq) => Math.max(9, Math.min(13, Math.round(sq * 0.32)));

/**
 * The creatures' names: each under the middle of its space's bottom edge, on an opaque white
 * pill (with its elevation and "prone"); those off the level shown faint. On squares under 24
 * pixels, only the hovered or selected creature's, below it.
 * @returns {{key: string, list: Entity[], compact: boolean}}
 */
function namedEntities() {
  const compact = ui.sq < 24;
  const focus = focusId(), sel = ui.selected && ui.selected.kind === "entity" ? ui.selected.id : null;
  const list = entities(scene).filter((e) => !compact || e.id === focus || e.id === sel).sort((a, b) => a.z - b.z);
  let key = labelView() + (compact ? "|c" : "|");
  for (const e of list) key += `|${e.id}:${e.x},${e.y},${e.z}:${e.size}:${heightOf(e)}:${e.prone ? 1 : 0}`;
  return { key, list, compact };
}
/** @param {Entity[]} list @param {boolean} compact @returns {Label[]} */
function nameLabels(list, compact) {
  const sq = ui.sq, font = nameFont(sq);
  return list.map((e) => {
    const text = e.id + (e.z ? ` ↑${e.z}` : "") + (e.prone ? " prone" : "");
    const x0 = e.x * sq, y0 = e.y * sq, w = e.size * sq, size = compact ? 10 : font;
    /** @type {Label} */
    const l = { kind: "name", id: e.id, text, ...labelBox(text, x0 + w / 2, compact ? y0 + w + 7 : y0 + w - 1, size), bg: "#fff", fg: COLOURS.ink, size, alpha: onLevel(e) ? 1 : OTHER_LEVEL_ALPHA };
    return l;
  });
}

/**
 * The badges of the answer shown, laid out around their creatures where they cover no name and
 * no other badge (a creature's square and the ring around it; the names are drawn over them in
 * any case): each target's cover grade (TDGS and Draw Steel: partial +2, half +4, full, cover
 * (bane), none without a badge; dnd5e and pf2e: ½ +2, ¾ +5, total; lesser +1, standard +2,
 * greater +4, none), then "in own area" on the caster, then each roll. `ui.badges` keeps the
 * dnd5e and pf2e badges (for the tests).
 * @param {Label[]} names @returns {Label[]}
 */
function badgeLabels(names) {
  ui.badges = [];
  const res = ui.summary;
  if (!res) return [];
  const sq = ui.sq, compact = sq < 24, point = isPoint(ui.template);
  const font = nameFont(sq), fs = compact ? 8 : Math.max(8, font - 2);
  /** @type {Label[]} */
  const placed = [];
  const taken = names.slice();
  /**
   * @param {Label["kind"]} kind @param {Entity} e @param {string} text @param {string} bg @param {string} fg @param {number} size
   * @param {(w: number, h: number) => [number, number][]} spots the centres to try, in order
   */
  const place = (kind, e, text, bg, fg, size, spots) => {
    const w = textWidth(text, size) + size * 0.8, h = size * 1.35;
    const tries = spots(w, h);
    let box = null;
    for (const [cx, cy] of tries) {
      // Never on a name; on another badge by a pixel at most (two badges of neighbours touch).
      const b = labelBox(text, cx, cy, size);
      if (!taken.some((r) => boxesMeet(r, b, r.kind === "name" ? 0 : 1.5))) { box = b; break; }
    }
    /** @type {Label} */
    const l = { kind, id: e.id, text, ...(box ?? labelBox(text, tries[0][0], tries[0][1], size)), bg, fg, size, alpha: onLevel(e) ? 1 : OTHER_LEVEL_ALPHA };
    taken.push(l);
    placed.push(l);
  };
  const around = (/** @type {Entity} */ e) => ({ s: e.size * sq, x0: e.x * sq, y0: e.y * sq });
  for (const x of res.targets) {
    const e = findEntity(x.id);
    if (!e || !x.inArea || x.reason === "targeting" || !((x.total ?? 0) > 0)) continue;
    if (x.cover === "none") continue; // no badge: no cover, in every rule set (the legend says so)
    const text = compact ? shortBadge(x.cover, x.bonus, point) : point ? gradeBadge(x.cover, x.bonus) : classicBadge(x.cover, x.bonus);
    const [bg, fg] = gradeColours(x.cover);
    const { s, x0, y0 } = around(e);
    // On small squares, only where the badge stays on the creature's square and the ring of squares around it.
    place("badge", e, text, bg, fg, fs, (w, h) => compact ? [[x0 + s - 2, y0 + 3], [x0 + 2, y0 + 3], [x0 + s / 2, y0 + s / 2]]
      : [[x0 + s - 2, y0 + 3], [x0 + 2, y0 + 3], [x0 + s / 2, y0 - h / 2 + 2], [x0 + s + w / 2 - 4, y0 + s / 2], [x0 - w / 2 + 4, y0 + s / 2], [x0 + s / 2, y0 + s / 2]]);
    if (point) ui.badges.push({ id: x.id, grade: x.cover, text });
  }
  const caster = res.targets.find((x) => x.id === scene.caster.id && x.inArea);
  if (caster) {
    const e = scene.caster, { s, x0, y0 } = around(e);
    place("caster", e, "in own area", "#6a1b9a", "#fff", Math.max(8, font - 2), (w, h) => [[x0 + s / 2, y0 + s + font * 1.3], [x0 + s / 2, y0 - h / 2 - 1],
      [x0 + s + w / 2 + 1, y0 + s / 2], [x0 - w / 2 - 1, y0 + s / 2]]);
  }
  for (const x of res.targets) {
    const e = findEntity(x.id);
    if (!e || !x.roll) continue;
    const { s, x0, y0 } = around(e);
    // On small squares the roll's outcome alone (the Targets list has its dice).
    const text = compact ? (x.roll.hit ? "hit" : "miss") : `${x.roll.dice.join("→")} ${x.roll.hit ? "hit" : "miss"}`;
    place("roll", e, text, x.roll.hit ? "#c8e6c9" : "#ffcdd2", "#111", Math.max(8, font - 2),
      (w, h) => compact ? [[x0 + s / 2, y0 + s - 2], [x0 + s / 2, y0 + 2]]
        : [[x0 + 4, y0 + s / 2], [x0 + s - 4, y0 + s / 2], [x0 + s / 2, y0 + s - h / 2], [x0 + s / 2, y0 - h / 2], [x0 + s / 2, y0 + s / 2]]);
  }
  return placed;
}

/**
 * The label layers, over everything else the board shows (cover lines, handles, tools): the
 * badges, then the names above them, so that nothing is ever drawn over a name. Each layer is
 * drawn again only when what it shows changed (a creature moved, the answer's grades, the view).
 */
export function drawLabels() {
  const named = namedEntities();
  const res = ui.summary;
  let bkey = named.key + `|${isPoint(ui.template) ? "p" : "c"}|${scene.caster.id}`;
  if (res) for (const x of res.targets) bkey += `|${x.id}:${x.inArea ? 1 : 0}:${x.reason ?? ""}:${x.total ?? 0}:${x.cover}:${x.bonus}` + (x.roll ? `:${x.roll.dice.join(",")}:${x.roll.hit}` : "");
  if (named.key === labelLayers.names && bkey === labelLayers.badges) return;
  const names = nameLabels(named.list, named.compact);
  const badges = badgeLabels(names);
  ui.labels = [...names, ...badges];
  // The view moved (or the canvas was resized): the layers are cleared whole, else only where
  // their last labels were.
  const whole = labelLayers.view !== labelView();
  labelLayers.view = labelView();
  for (const [layer, list, k] of /** @type {[HTMLCanvasElement, Label[], "names" | "badges"][]} */ ([[namesCanvas, names, "names"], [badgesCanvas, badges, "badges"]])) {
    const key = k === "names" ? named.key : bkey;
    if (labelLayers[k] === key) continue;
    labelLayers[k] = key;
    const g = /** @type {CanvasRenderingContext2D} */ (layer.getContext("2d"));
    g.globalAlpha = 1;
    if (whole) {
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.clearRect(0, 0, layer.width, layer.height);
      boardTransform(g);
    } else {
      boardTransform(g);
      for (const l of labelLayers.painted[k]) g.clearRect(Math.floor(l.x) - 2, Math.floor(l.y) - 2, Math.ceil(l.w) + 4, Math.ceil(l.h) + 4);
    }
    for (const l of list) paintLabel(g, l);
    labelLayers.painted[k] = list;
    g.globalAlpha = 1;
  }
}
