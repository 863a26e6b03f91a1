// @ts-check
// The template's fields: notation, presets, rule set, range, source, targeting, overrides, the shape
// palette; then the Rolls, Forced movement and Attack cover sections' controls.
import { DIRS, FEET, HALF, POINT_SAMPLE, RULES_LABEL, STEP } from "./constants.js";
import { dom } from "./dom.js";
import { fitPoint } from "./draw.js";
import { commit, scene, ui } from "./state.js";
import { engineError, isPoint, isPointRules, parseAs, placementOf } from "./requests.js";
import { forceTarget } from "./engine.js";
import { save } from "./io.js";
import { fitTool, refresh } from "./refresh.js";
import { renderPanel, showError, syncFields } from "./panel.js";
import { clearSlidePath, popSlideSquare, setOriginSquare, setTool } from "./edit.js";

/** @typedef {import("./types.js").AttackRules} AttackRules */
/** @typedef {import("./types.js").CoverOverride} CoverOverride */
/** @typedef {import("./types.js").CoverRequest} CoverRequest */
/** @typedef {import("./types.js").Rules} Rules */
/** @typedef {import("./types.js").Scene} Scene */
/** @typedef {import("./types.js").Template} Template */
/** @typedef {import("./types.js").Trait} Trait */

// The template: engine.parse decides what it is; a bad text leaves the last good one drawn.
/** @param {string} text @param {boolean} record */
function setNotation(text, record) {
  const engine = ui.engine;
  if (!engine) return;
  /** @type {Template} */
  let t;
  try {
    t = parseAs(engine, text, scene.rules);
  } catch (err) {
    const e = engineError(err);
    const example = scene.rules === "dnd5e" ? "20-foot-radius sphere, 15-foot cone or 60-foot line" : scene.rules === "pf2e" ? "20-foot burst, 15-foot cone or 10-foot emanation" : "Cir2, Con3N, 2 burst or circle 3";
    const hint = isPointRules(scene.rules) ? ` (${RULES_LABEL[scene.rules]} notation, in feet; choose another rule set for the others)`
      : e.code === "bad_request" && /dnd5e/.test(e.message) ? " — choose D&D 5e or Pathfinder 2e as the Rule set below" : "";
    ui.notationError = { ...e, text, message: text.trim() === "" ? `type a template, such as ${example}` : e.message + hint };
    renderPanel();
    return;
  }
  ui.notationError = null;
  const before = ui.template ? placementOf(ui.template, scene) : null;
  scene.template = text;
  ui.template = t;
  const after = placementOf(t, scene);
  if (after === "line" && before !== "line") {
    // A Draw Steel line starts beside the caster, pointing the way it faces.
    const c = scene.caster, [dx, dy] = STEP[DIRS.indexOf(c.facing)];
    const clamp = (/** @type {number} */ v, /** @type {number} */ n) => Math.min(Math.max(v, 0), n - 1);
    const ox = clamp(dx > 0 ? c.x + c.size : c.x + dx, scene.cols), oy = clamp(dy > 0 ? c.y + c.size : c.y + dy, scene.rows);
    scene.origin = { x: ox, y: oy, z: 0 };
    scene.aim = { x: clamp(ox + dx * 4, scene.cols), y: clamp(oy + dy * 4, scene.rows), z: 0 };
    if (scene.aim.x === ox && scene.aim.y === oy) scene.aim = { x: clamp(ox + 1, scene.cols) === ox ? ox - 1 : ox + 1, y: oy, z: 0 };
  }
  fitPoint();
  fitTool();
  if (record) commit();
  else save();
  refresh();
}
dom.notation.addEventListener("input", () => setNotation(dom.notation.value, false));
dom.notation.addEventListener("change", () => { if (!ui.notationError) commit(); });
dom.notation.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && ui.notationError) { // back to the template drawn
    dom.notation.value = scene.template;
    ui.notationError = null;
    renderPanel();
  }
});
dom.presets.addEventListener("change", () => {
  const option = dom.presets.selectedOptions[0];
  const text = option ? option.dataset.notation ?? dom.presets.value : "";
  const rules = option ? option.dataset.rules ?? "" : "";
  dom.presets.value = "";
  if (!text) return;
  commit();
  useRules(rules);
  dom.notation.value = text;
  setNotation(text, true);
});

/**
 * The rule set a template of `rules` is read under: dnd5e and pf2e templates under their own
 * (their notation needs it); a template of another rule set under the scene's override, or
 * from its notation when the scene was on dnd5e or pf2e. Sets the Rule set field; no commit.
 * @param {string} rules the template's rule set ("": a notation of the others)
 */
function useRules(rules) {
  const next = isPointRules(rules) ? rules : isPointRules(scene.rules) ? "" : scene.rules;
  if (next === scene.rules) return;
  lastTemplate[familyOf(scene.rules)] = scene.template;
  scene.rules = next;
  if (isPointRules(next) && (scene.cover === "tdgs" || scene.cover === "drawsteel")) scene.cover = ""; // theirs are the engine's own (SPEC §10.8, §11.5)
  syncFields();
}

/** The last template of each family of rule sets, to go back to when the rule set does. @type {Record<string, string>} */
const lastTemplate = {};
/** @param {Scene["rules"]} r */
const familyOf = (r) => (isPointRules(r) ? r : "classic");

dom.rules.addEventListener("change", () => {
  const engine = ui.engine;
  if (!engine) return;
  const next = /** @type {Scene["rules"]} */ (dom.rules.value);
  commit();
  const before = scene.rules;
  lastTemplate[familyOf(before)] = scene.template;
  scene.rules = next;
  if (familyOf(next) !== familyOf(before)) {
    // dnd5e and pf2e read their own notation (SPEC §10.3): a template the new rule set cannot
    // read gives way to the one last used under it, else to its sample.
    const candidates = [scene.template, lastTemplate[familyOf(next)] ?? "", isPointRules(next) ? POINT_SAMPLE[next] : "Cir3"];
    for (const text of candidates) {
      try {
        ui.template = parseAs(engine, text, next);
      } catch {
        continue;
      }
      scene.template = text;
      break;
    }
    ui.notationError = null;
    if (isPointRules(next) && (scene.cover === "tdgs" || scene.cover === "drawsteel")) scene.cover = "";
    fitPoint();
    fitTool();
    syncFields();
  }
  commit();
  refresh();
});
dom.range.addEventListener("input", () => {
  const v = dom.range.value.trim().toLowerCase();
  /** @type {Scene["range"] | undefined} */
  let r;
  if (v === "") r = null;
  else if (v === "self" || v === "touch") r = v;
  else if (/^\d{1,4}$/.test(v) && Number(v) <= 1000) r = Number(v);
  dom.range.setAttribute("aria-invalid", r === undefined ? "true" : "false");
  showError(dom.rangeError, r === undefined ? "Range: a whole number of squares from 0 to 1000, self or touch; leave it empty for no range." : "");
  if (r === undefined) return;
  scene.range = r;
  save();
  refresh();
});
dom.range.addEventListener("change", () => { if (dom.range.getAttribute("aria-invalid") !== "true") commit(); });
dom.source.addEventListener("change", () => {
  commit();
  scene.source = dom.source.checked;
  const o = ui.summary && ui.summary.origin;
  if (scene.source && isPoint(ui.template) && o) {
    // A dnd5e or pf2e cone or line stays where it is: its point starts where it left the caster.
    const half = (/** @type {number} */ v) => Math.round(v / HALF) * HALF;
    scene.point = { x: Math.min(Math.max(half(o.x), 0), scene.cols), y: Math.min(Math.max(half(o.y), 0), scene.rows), z: o.z };
  }
  fitTool();
  commit();
  refresh();
});
dom.trait.addEventListener("change", () => {
  commit();
  scene.trait = /** @type {Trait} */ (dom.trait.value);
  // Selective starts with every creature but the caster chosen (untick those it spares).
  if (scene.trait === "selective" && scene.ids.length === 0) scene.ids = scene.tokens.map((e) => e.id);
  commit();
  fitTool();
  syncFields();
  refresh();
});
/** A boolean override's select: "" is the rule set's own, "on" true, "off" false. @param {HTMLSelectElement} el */
const flagOf = (el) => (el.value === "on" ? true : el.value === "off" ? false : null);
/** @param {null | boolean} v */
export const flagText = (v) => (v === null ? "" : v ? "on" : "off");
dom.barriers.addEventListener("change", () => { commit(); scene.barriers = flagOf(dom.barriers); commit(); refresh(); });
dom.cover.addEventListener("change", () => { commit(); scene.cover = /** @type {CoverOverride} */ (dom.cover.value); commit(); refresh(); });
dom.applyCover.addEventListener("change", () => { commit(); scene.applyCover = flagOf(dom.applyCover); commit(); refresh(); });

// The shape palette: a template of the kind pressed, keeping the current one's size where it
// has one (its radius, length, side, squares), its direction, width, height and `within` where
// the new kind has them too. The engine parses it (as for text typed in the box).
/**
 * The notation of a template of kind rules/shape(/close) shaped like t where it can be.
 * @param {Rules} rules @param {string} shape @param {boolean} close @param {Template | null} t @param {string} text t's notation as written
 */
function paletteNotation(rules, shape, close, t, text) {
  const n = t ? (t.radius ?? t.length ?? t.side ?? t.squares ?? t.size ?? 3) : 3;
  if (isPointRules(rules)) {
    // SPEC §10.3: sizes in feet, 5 a square; a cylinder keeps its height, else twice its radius.
    const ft = n * FEET;
    if (shape === "sphere") return `${ft}-foot-radius sphere`;
    if (shape === "cylinder") return `${ft}-foot-radius, ${(t && t.shape === "cylinder" && isPoint(t) && t.height ? t.height : 2 * n) * FEET}-foot-high cylinder`;
    if (shape === "line") return `${ft}-foot line` + (t && isPoint(t) && t.shape === "line" && t.width && t.width > 1 ? ` ${t.width * FEET} feet wide` : "");
    return `${ft}-foot ${shape}`; // cone, cube, emanation, burst
  }
  const tdgs = t && t.rules === "tdgs" ? t : null, ds = t && t.rules === "drawsteel" ? t : null;
  const dir = tdgs && tdgs.direction ? tdgs.direction : "N";
  // A TDGS height written in the notation (hN) is kept; otherwise the shape's default (SPEC §2.8).
  const hm = tdgs ? /h(\d+)\s*$/.exec(text.trim()) : null;
  const h = hm ? `h${hm[1]}` : "";
  if (rules === "tdgs") {
    if (shape === "circle") return `Cir${n}${h}`;
    if (shape === "cone") return `Con${n}${dir}${h}`;
    if (shape === "line") return `Lin${n}${dir}${tdgs && tdgs.shape === "line" && tdgs.width && tdgs.width > 1 ? `w${tdgs.width}` : ""}${h}`;
    return tdgs && tdgs.shape === "rectangle" ? `Rec${tdgs.width}x${tdgs.length}${h}` : `Rec${n}x${n}${h}`;
  }
  if (rules === "drawsteel") {
    const within = (/** @type {number} */ d) => ` within ${ds && ds.within ? ds.within : d}`;
    if (shape === "burst" || shape === "aura") return `${n} ${shape}`;
    if (shape === "cube") return `${n} cube${within(10)}`;
    if (shape === "line") return `${n} x ${ds && ds.shape === "line" && ds.width ? ds.width : 1} line${within(1)}`;
    return `${n} wall${within(10)}`;
  }
  return `${close ? "close " : ""}circle ${n}`;
}

/** The fallback of each palette entry, when the kept size does not make a valid template. */
const PALETTE_DEFAULT = { "tdgs circle": "Cir3", "tdgs cone": "Con3N", "tdgs line": "Lin6E", "tdgs rectangle": "Rec3x4",
  "drawsteel burst": "2 burst", "drawsteel aura": "3 aura", "drawsteel cube": "3 cube within 10", "drawsteel line": "6 x 1 line within 1",
  "drawsteel wall": "6 wall within 10", "circle50 circle": "circle 4", "circle50 close": "close circle 3",
  "dnd5e sphere": "20-foot-radius sphere", "dnd5e cone": "15-foot cone", "dnd5e line": "60-foot line", "dnd5e cube": "10-foot cube",
  "dnd5e cylinder": "10-foot-radius, 40-foot-high cylinder", "dnd5e emanation": "10-foot emanation",
  "pf2e burst": "20-foot burst", "pf2e cone": "15-foot cone", "pf2e line": "60-foot line", "pf2e emanation": "10-foot emanation" };

for (const b of dom.shapes) {
  b.addEventListener("click", () => {
    const engine = ui.engine;
    if (!engine) return;
    const rules = /** @type {Rules} */ (b.dataset.rules), shape = b.dataset.shape ?? "", close = b.dataset.close === "true";
    let text = paletteNotation(rules, shape, close, ui.template, scene.template);
    try {
      const t = parseAs(engine, text, rules);
      if (t.rules !== rules || t.shape !== shape || (rules === "circle50" && !!t.close !== close)) throw new Error("another kind");
    } catch {
      text = PALETTE_DEFAULT[/** @type {keyof typeof PALETTE_DEFAULT} */ (`${rules} ${close ? "close" : shape}`)];
    }
    commit();
    useRules(rules);
    dom.notation.value = text;
    setNotation(text, true);
  });
}
dom.excludeCaster.addEventListener("change", () => { commit(); scene.excludeCaster = dom.excludeCaster.checked; commit(); refresh(); });

// Rolls.
/** @param {HTMLInputElement} input @param {number} lo @param {number} hi */
export function intField(input, lo, hi) {
  const v = input.value.trim();
  const n = v === "" ? 0 : /^-?\d+$/.test(v) ? Number(v) : NaN;
  const ok = Number.isSafeInteger(n) && n >= lo && n <= hi;
  input.setAttribute("aria-invalid", ok ? "false" : "true");
  return ok ? n : null;
}
dom.rolls.addEventListener("change", () => { commit(); scene.rolls.on = dom.rolls.checked; commit(); refresh(); });
for (const [input, field, lo, hi] of /** @type {[HTMLInputElement, "stat" | "modifiers" | "luck" | "seed", number, number][]} */ ([
  [dom.stat, "stat", -1000, 1000], [dom.mods, "modifiers", -1000, 1000], [dom.luck, "luck", -100, 100], [dom.seed, "seed", 0, Number.MAX_SAFE_INTEGER],
])) {
  input.addEventListener("change", () => {
    const n = intField(input, lo, hi);
    showError(dom.rollsError, n === null ? `${field}: a whole number from ${lo} to ${hi}` : "");
    if (n === null) return;
    commit();
    scene.rolls[field] = n;
    commit();
    refresh();
  });
}
dom.reroll.addEventListener("click", () => {
  commit();
  scene.rolls.seed = (scene.rolls.seed + 1) % Number.MAX_SAFE_INTEGER;
  dom.seed.value = String(scene.rolls.seed);
  commit();
  refresh();
});

// Forced movement.
dom.moveSection.addEventListener("toggle", () => refresh());
dom.moveSection.addEventListener("toggle", () => fitTool());
dom.moveKind.addEventListener("change", () => {
  commit();
  const v = dom.moveKind.value;
  scene.force.kind = v === "pull" ? "pull" : v === "slide" ? "slide" : "push";
  commit();
  if (scene.force.kind === "slide") setTool("slide"); // the board lays the path
  fitTool();
  refresh();
});
dom.slideLay.addEventListener("click", () => { setTool(ui.tool === "slide" ? "move" : "slide"); refresh(); });
dom.slidePop.addEventListener("click", popSlideSquare);
dom.slideClear.addEventListener("click", clearSlidePath);
dom.originSquareClear.addEventListener("click", () => setOriginSquare(null));
dom.moveDistance.addEventListener("change", () => {
  const n = intField(dom.moveDistance, 0, 1000);
  if (n === null) return;
  commit();
  scene.force.distance = n;
  commit();
  refresh();
});
dom.moveApply.addEventListener("click", () => {
  const e = forceTarget(), m = ui.move;
  if (!e || !m || m.path.length === 0) return;
  commit();
  e.x = m.end.x;
  e.y = m.end.y;
  e.z = m.end.z;
  if (scene.force.kind === "slide") scene.force.path = []; // laid from where it was
  commit();
  refresh();
});

// Attack cover.
dom.attackSection.addEventListener("toggle", () => { if (!dom.attackSection.open) ui.attack.pick = 0; refresh(); });
dom.atkAttacker.addEventListener("change", () => { ui.attack.attacker = dom.atkAttacker.value; refresh(); });
dom.atkTarget.addEventListener("change", () => { ui.attack.target = dom.atkTarget.value; refresh(); });
dom.atkKind.addEventListener("change", () => { ui.attack.kind = /** @type {CoverRequest["attack"]} */ (dom.atkKind.value); refresh(); });
dom.atkRules.addEventListener("change", () => { ui.attack.rules = /** @type {AttackRules} */ (dom.atkRules.value); refresh(); });
dom.atkFlying.addEventListener("change", () => { ui.attack.flying = dom.atkFlying.checked; refresh(); });
dom.atkPick.addEventListener("click", () => {
  ui.attack.pick = ui.attack.pick ? 0 : 1;
  if (ui.attack.pick) setTool("move");
  refresh();
});
