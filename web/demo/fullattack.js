// @ts-check
// Full attack (CONTRACT fullAttack, SPEC §9): the plan's logic — hands and items, steps, the
// engine's prices and errors, a stored plan read back — without its panel (fullattack-panel.js).
import { ARMS, FEATS, ITEM_KINDS, KIND_LABEL } from "./constants.js";
import { commit, scene, ui } from "./state.js";
import { engineError } from "./requests.js";
import { isObject } from "./io.js";
import { refresh } from "./refresh.js";
import { renderPanel } from "./panel.js";
import { redrawFullAttack } from "./fullattack-panel.js";

/** @typedef {import("./types.js").EngineError} EngineError */
/** @typedef {import("./types.js").FullAttackPlan} FullAttackPlan */
/** @typedef {import("./types.js").FullAttackRequest} FullAttackRequest */
/** @typedef {import("./types.js").FullAttackStep} FullAttackStep */
/** @typedef {import("./types.js").Item} Item */
/** @typedef {import("./types.js").Natural} Natural */
/** @typedef {import("./types.js").PricedStep} PricedStep */

// ---------------------------------------------------------------------------------------------
// Full attack (CONTRACT fullAttack, SPEC §9): the panel keeps a full-attack request in
// scene.fullAttack — the combatant, its declarations, the steps so far — and the engine prices
// it. A step is added only if the engine takes the plan with it; a change of the combatant only
// if the engine takes the combatant (a change that makes a planned step illegal is made, and the
// engine's error names the step). The panel guesses no rule: what may come next is the engine's
// `next`, and a throw is offered where the engine takes the same attack with `throw`.

/** Whether an item is held in two hands: two-handed or double (SPEC §9.1). @param {Item} it */
export const twoHands = (it) => it.kind === "twoHanded" || it.kind === "double";
/** @param {Item} a @param {Item} b */
export const sameItem = (a, b) => a.id === b.id && a.kind === b.kind && (a.ranged ?? "") === (b.ranged ?? "");
/** A bonus as a player reads it: +9, +0, −1. @param {number} n */
export const signed = (n) => (n < 0 ? `−${-n}` : `+${n}`);
/** @template T @param {T} v @returns {T} */
const copy = (v) => JSON.parse(JSON.stringify(v));

/** The other hand that holds the same two-handed or double item as `hand`, or null. @param {FullAttackPlan} plan @param {string} hand */
export function partnerOf(plan, hand) {
  const it = plan.holding[hand];
  if (!it || !twoHands(it)) return null;
  return plan.hands.find((h) => h !== hand && plan.holding[h] !== undefined && plan.holding[h].id === it.id && twoHands(plan.holding[h])) ?? null;
}

/**
 * The plan with `hand` holding `item` at the start (null: empty). What the hand held goes, both
 * hands of it for a two-handed or double item; a two-handed or double item takes `partner` too
 * (by default the first other empty hand, else the first other hand), listed under both (SPEC
 * §9.1). A string says why it cannot be.
 * @param {FullAttackPlan} plan @param {string} hand @param {Item | null} item @param {string | null} partner
 * @returns {FullAttackPlan | string}
 */
export function withHolding(plan, hand, item, partner) {
  /** @type {Record<string, Item>} */
  const h = { ...plan.holding };
  const free = (/** @type {string} */ x) => {
    const p = partnerOf({ ...plan, holding: h }, x);
    delete h[x];
    if (p) delete h[p];
  };
  free(hand);
  if (item) {
    if (twoHands(item)) {
      const other = partner ?? plan.hands.find((x) => x !== hand && !h[x]) ?? plan.hands.find((x) => x !== hand);
      if (!other || other === hand) return `A ${KIND_LABEL[item.kind]} item needs two hands.`;
      free(other);
      h[other] = { ...item };
    }
    h[hand] = { ...item };
  }
  /** @type {Record<string, Item>} in the order of the hands */
  const ordered = {};
  for (const x of plan.hands) if (h[x]) ordered[x] = h[x];
  return { ...plan, holding: ordered };
}

/** A step of the answer as a step of the request: its own fields only. @param {PricedStep} p @returns {FullAttackStep} */
export function stepOf(p) {
  /** @type {FullAttackStep} */
  const st = {};
  if (p.attack !== undefined) st.attack = p.attack;
  if (p.head !== undefined) st.head = p.head;
  if (p.extra) st.extra = true;
  if (p.throw) st.throw = true;
  if (p.natural !== undefined) st.natural = p.natural;
  if (p.drop !== undefined) st.drop = p.drop;
  if (p.draw !== undefined) st.draw = p.draw;
  if (p.hands !== undefined) st.hands = [...p.hands];
  if (p.item !== undefined) st.item = { ...p.item };
  return st;
}

/**
 * What a step does, in words: "main: longsword", "bite (secondary)", "drop off", "draw greatsword
 * into main + off"; `p`, its price, names what attacks.
 * @param {FullAttackStep} st @param {PricedStep | null} p
 */
export function describeStep(st, p) {
  if (st.attack !== undefined) {
    let s = `${st.attack}: ${p && p.with !== undefined ? p.with : "attack"}`;
    if (st.head !== undefined) s += ` head ${st.head}`;
    if (st.throw) s += ", thrown";
    if (st.extra) s += ", Rapid Shot";
    return s;
  }
  if (st.natural !== undefined) return `${st.natural}${p && p.secondary ? " (secondary)" : ""}`;
  if (st.drop !== undefined) return `drop ${st.drop}`;
  if (st.draw !== undefined) return `draw ${st.item ? st.item.id : "nothing"} into ${(st.hands ?? [st.draw]).join(" + ")}`;
  return "(an empty step)";
}

/** The parts of an attack's bonus (SPEC §9.8), in words. @param {PricedStep} p */
export function partsText(p) {
  const q = p.parts;
  if (!q) return "";
  return `sequence ${signed(q.sequence)} · two-weapon ${signed(q.twoWeapon)} · Rapid Shot ${signed(q.rapidShot)} · natural ${signed(q.natural)}`;
}

/** An engine error about a full attack, with the step it names (`at`, 0-based). @param {EngineError} e */
export function fullAttackErrorText(e) {
  return e.code + (e.at !== undefined ? ` at step index ${e.at} (step ${e.at + 1})` : "") + `: ${e.message}`;
}

/**
 * A full attack panel as localStorage kept it, rebuilt field by field, or null when it is not
 * one (the panel then starts afresh) or the engine refuses its combatant. The steps keep only a
 * step's fields; whether they are legal is the engine's to say when the panel shows them.
 * @param {unknown} v @returns {FullAttackPlan | null}
 */
export function fullAttackValue(v) {
  const engine = ui.engine;
  if (!engine || !isObject(v)) return null;
  const { bab, feats, hands, holding, natural, steps } = v;
  if (typeof bab !== "number" || !Number.isInteger(bab) || !Array.isArray(feats) || !Array.isArray(hands) || !isObject(holding) ||
    !Array.isArray(natural) || !Array.isArray(steps) || steps.length > 64) return null;
  const name = (/** @type {unknown} */ x) => typeof x === "string" && x.length > 0 && x.length <= 64;
  const item = (/** @type {unknown} */ x) => {
    if (!isObject(x) || typeof x.id !== "string" || !name(x.id) || !ITEM_KINDS.includes(/** @type {Item["kind"]} */ (x.kind))) return null;
    /** @type {Item} */
    const it = { id: x.id, kind: /** @type {Item["kind"]} */ (x.kind) };
    if (x.ranged === "projectile" || x.ranged === "thrown") it.ranged = x.ranged;
    return it;
  };
  if (!hands.every(name) || hands.length > ARMS.length) return null;
  /** @type {FullAttackPlan} */
  const plan = {
    bab, feats: FEATS.filter((f) => feats.includes(f)), hands: /** @type {string[]} */ (hands), holding: {}, natural: [],
    twoWeapon: v.twoWeapon === true, rapidShot: v.rapidShot === true, steps: [],
  };
  for (const h of plan.hands) {
    const it = item(holding[h]);
    if (it) plan.holding[h] = it;
  }
  for (const n of natural) {
    if (!isObject(n) || typeof n.id !== "string") return null;
    /** @type {Natural} */
    const out = { id: n.id, primary: n.primary === true };
    if (typeof n.hand === "string") out.hand = n.hand;
    plan.natural.push(out);
  }
  for (const x of steps) {
    if (!isObject(x)) return null;
    /** @type {FullAttackStep} */
    const st = {};
    if (typeof x.attack === "string") st.attack = x.attack;
    if (typeof x.head === "number" && Number.isInteger(x.head)) st.head = x.head;
    if (x.extra === true) st.extra = true;
    if (x.throw === true) st.throw = true;
    if (typeof x.natural === "string") st.natural = x.natural;
    if (typeof x.drop === "string") st.drop = x.drop;
    if (typeof x.draw === "string") st.draw = x.draw;
    if (Array.isArray(x.hands) && x.hands.every((h) => typeof h === "string")) st.hands = /** @type {string[]} */ ([...x.hands]);
    const it = item(x.item);
    if (it) st.item = it;
    plan.steps.push(st);
  }
  try {
    engine.fullAttack({ ...plan, steps: [] });
  } catch {
    return null;
  }
  return plan;
}

/**
 * Asks the engine about the panel's plan, when it changed since the last answer: the steps
 * priced and what may come next, or the error (its `at`, the step); then, for every attack of
 * `next` that strikes, whether the engine takes it thrown.
 */
export function evaluateFullAttack() {
  const engine = ui.engine;
  if (!engine) return;
  const fa = ui.fa;
  /** @type {FullAttackRequest} */
  const req = copy(scene.fullAttack);
  const sig = JSON.stringify(req);
  if (sig === fa.sig && engine === fa.engine) return;
  if (sig !== fa.sig) {
    fa.tried = null;
    fa.refused = "";
  }
  fa.sig = sig;
  fa.engine = engine;
  fa.request = req;
  fa.result = null;
  fa.error = null;
  fa.before = [];
  fa.throws = [];
  try {
    fa.result = engine.fullAttack(req);
  } catch (err) {
    const e = engineError(err);
    fa.error = e;
    if (e.at !== undefined && e.at > 0) {
      try {
        fa.before = engine.fullAttack({ ...req, steps: (req.steps ?? []).slice(0, e.at) }).steps;
      } catch {
        // the steps before it are legal (the first illegal step is the answer): not reached
      }
    }
    return;
  }
  fa.result.next.forEach((n, index) => {
    if (n.attack === undefined || n.extra || n.throw) return;
    const step = { ...stepOf(n), throw: true };
    try {
      const r = engine.fullAttack({ ...req, steps: [...(req.steps ?? []), step] });
      const last = r.steps[r.steps.length - 1];
      if (last && typeof last.bonus === "number") fa.throws.push({ index, step, bonus: last.bonus });
    } catch {
      // not a thrown weapon (not_ranged): its attack is a melee strike only
    }
  });
}

/**
 * Adds a step to the plan if the engine takes the plan with it (one undo step); otherwise the
 * plan stays as it was and the panel shows the engine's error, `at` naming the step.
 * @param {FullAttackStep} step
 */
export function tryStep(step) {
  const engine = ui.engine;
  if (!engine || ui.fa.error) return; // an illegal plan takes no step: its own error is shown
  const plan = scene.fullAttack;
  try {
    engine.fullAttack({ ...copy(plan), steps: [...copy(plan.steps), step] });
  } catch (err) {
    ui.fa.tried = { step: copy(step), error: engineError(err) };
    renderPanel();
    return;
  }
  commit();
  scene.fullAttack.steps.push(copy(step));
  commit();
  refresh();
}

/**
 * Changes the combatant or its declarations (one undo step) if the engine takes the combatant
 * so changed; otherwise nothing changes and the panel says why. `change` gets a copy of the plan
 * and returns the new one, or a string saying why it cannot be.
 * @param {(plan: FullAttackPlan) => FullAttackPlan | string} change
 */
export function editFullAttack(change) {
  const engine = ui.engine;
  if (!engine) return;
  const next = change(copy(scene.fullAttack));
  let why = typeof next === "string" ? next : "";
  if (typeof next !== "string") {
    try {
      engine.fullAttack({ ...next, steps: [] });
    } catch (err) {
      const e = engineError(err);
      why = `${e.code}: ${e.message}`;
    }
  }
  if (why || typeof next === "string") {
    ui.fa.refused = why;
    redrawFullAttack(); // the controls go back to the plan
    renderPanel();
    return;
  }
  commit();
  scene.fullAttack = next;
  commit();
  refresh();
}
