// @ts-check
// The full attack panel (SPEC §9): its hands, naturals, steps, what may come next, drop and draw
// (renderFullAttack), and its controls' listeners. The logic is fullattack.js's.
import { ARMS, AS_LABEL, FEATS, ITEM_KINDS, ITEM_PRESETS, KIND_LABEL } from "./constants.js";
import { dom } from "./dom.js";
import { commit, scene, ui } from "./state.js";
import { describeStep, editFullAttack, evaluateFullAttack, fullAttackErrorText, partnerOf, partsText, sameItem, signed, stepOf, tryStep, twoHands, withHolding } from "./fullattack.js";
import { refresh } from "./refresh.js";
import { renderPanel, showError } from "./panel.js";
import { intField } from "./fields.js";

/** @typedef {import("./types.js").Feat} Feat */
/** @typedef {import("./types.js").FullAttackPlan} FullAttackPlan */
/** @typedef {import("./types.js").FullAttackStep} FullAttackStep */
/** @typedef {import("./types.js").Item} Item */
/** @typedef {import("./types.js").Natural} Natural */

let faShown = "";
/** Makes the next renderFullAttack draw the panel again (its controls back to the plan). */
export function redrawFullAttack() {
  faShown = "";
}
/**
 * An item picker: the presets, "empty" (for a hand), "custom…" with an id, a kind and how it
 * attacks at range. `apply` gets the item chosen (null: empty); a custom item with no id yet is
 * not applied.
 * @param {string} key its ui.faCustom key @param {string} id the select's id (its fields': id-…)
 * @param {string} label @param {Item | null} item shown @param {boolean} allowEmpty
 * @param {(item: Item | null) => void} apply
 */
function itemPicker(key, id, label, item, allowEmpty, apply) {
  const wrap = document.createElement("span");
  wrap.className = "fa-item";
  const option = (/** @type {string} */ value, /** @type {string} */ text) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  };
  const select = document.createElement("select");
  select.id = id;
  select.setAttribute("aria-label", label);
  if (allowEmpty) select.append(option("", "empty"));
  for (const [k, text] of ITEM_PRESETS) select.append(option(k, text));
  select.append(option("custom", "custom…"));
  const preset = item ? ITEM_PRESETS.find(([, , it]) => sameItem(it, item)) : undefined;
  const custom = ui.faCustom.has(key) || (item !== null && !preset);
  select.value = custom ? "custom" : preset ? preset[0] : "";
  select.addEventListener("change", () => {
    if (select.value === "custom") {
      ui.faCustom.add(key);
      faShown = "";
      renderPanel();
      return;
    }
    ui.faCustom.delete(key);
    const p = ITEM_PRESETS.find(([k]) => k === select.value);
    apply(p ? { ...p[2] } : null);
  });
  wrap.append(select);
  if (!custom) return wrap;
  const cur = item ?? { id: "", kind: "oneHanded" };
  const name = document.createElement("input");
  name.id = `${id}-id`;
  name.autocomplete = "off";
  name.spellcheck = false;
  name.placeholder = "id";
  name.value = cur.id;
  name.setAttribute("aria-label", `${label}: the custom item's id`);
  const kind = document.createElement("select");
  kind.id = `${id}-kind`;
  kind.setAttribute("aria-label", `${label}: its kind`);
  kind.append(...ITEM_KINDS.map((k) => option(k, KIND_LABEL[k])));
  kind.value = cur.kind;
  const ranged = document.createElement("select");
  ranged.id = `${id}-ranged`;
  ranged.setAttribute("aria-label", `${label}: at range`);
  ranged.append(option("", "melee only"), option("projectile", "projectile"), option("thrown", "thrown"));
  ranged.value = cur.ranged ?? "";
  const read = () => {
    const text = name.value.trim();
    name.setAttribute("aria-invalid", text ? "false" : "true");
    if (!text) return;
    /** @type {Item} */
    const it = { id: text, kind: /** @type {Item["kind"]} */ (kind.value) };
    if (ranged.value === "projectile" || ranged.value === "thrown") it.ranged = ranged.value;
    apply(it);
  };
  for (const el of [name, kind, ranged]) el.addEventListener("change", read);
  wrap.append(name, kind, ranged);
  return wrap;
}

/** @param {string} text @param {string} [className] */
function span(text, className) {
  const s = document.createElement("span");
  if (className) s.className = className;
  s.textContent = text;
  return s;
}

/**
 * A button of the panel (its id kept across rebuilds, so that the focus stays on it).
 * @param {string} id @param {(string | Node)[]} content @param {() => void} onClick
 */
function faButton(id, content, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.append(...content);
  b.addEventListener("click", onClick);
  return b;
}

/**
 * The full attack panel: its fields follow scene.fullAttack; the plan, what may come next and
 * the errors are the engine's answers (evaluateFullAttack).
 */
export function renderFullAttack() {
  evaluateFullAttack();
  const plan = scene.fullAttack, fa = ui.fa;
  for (const box of dom.faFeats) box.checked = plan.feats.includes(/** @type {Feat} */ (box.value));
  dom.faTwoWeapon.checked = plan.twoWeapon;
  dom.faRapidShot.checked = plan.rapidShot;
  dom.faAddHand.disabled = plan.hands.length >= ARMS.length;
  dom.faRemoveHand.disabled = plan.hands.length <= 2;
  dom.faPop.disabled = plan.steps.length === 0;
  dom.faClear.disabled = plan.steps.length === 0;
  showError(dom.faCombatantError, fa.refused ? `Not changed: ${fa.refused}` : "");
  const sig = JSON.stringify([plan, fa.result, fa.error, fa.before, fa.throws, fa.tried, [...ui.faCustom], ui.faDraw]);
  if (sig === faShown) return;
  faShown = sig;
  const active = document.activeElement;
  const focused = active instanceof HTMLElement && dom.faSection.contains(active) ? active.id : "";

  if (document.activeElement !== dom.faBab) {
    dom.faBab.value = String(plan.bab);
    dom.faBab.setAttribute("aria-invalid", "false");
  }

  // The hands, in order: the first is the primary hand (SPEC §9.1).
  dom.faHands.replaceChildren(...plan.hands.map((h, i) => {
    const li = document.createElement("li");
    li.className = "fa-hand";
    li.append(span(h, "fa-hand-name"), span(i === 0 ? "primary" : "off hand", "hint"));
    const held = plan.holding[h] ?? null;
    li.append(itemPicker(`hand:${h}`, `fa-hold-${i}`, `${h} holds`, held, true, (item) => editFullAttack((p) => withHolding(p, h, item, null))));
    if (held && twoHands(held)) {
      const pair = document.createElement("span");
      pair.className = "fa-pair";
      const label = document.createElement("label");
      label.htmlFor = `fa-pair-${i}`;
      label.textContent = "with";
      const select = document.createElement("select");
      select.id = `fa-pair-${i}`;
      for (const other of plan.hands) {
        if (other === h) continue;
        const o = document.createElement("option");
        o.value = other;
        o.textContent = other;
        select.append(o);
      }
      select.value = partnerOf(plan, h) ?? "";
      select.addEventListener("change", () => editFullAttack((p) => withHolding(p, h, p.holding[h] ?? null, select.value)));
      pair.append(label, select);
      li.append(pair);
    }
    return li;
  }));

  // Natural weapons, and the hands one may sit on.
  dom.faNaturals.replaceChildren(...plan.natural.map((n, i) => {
    const li = document.createElement("li");
    li.append(span(n.id, "fa-what"), span(`${n.primary ? "primary" : "secondary"}${n.hand ? `, on ${n.hand}` : ""}`, "hint"),
      faButton(`fa-nat-remove-${i}`, ["Remove"], () => editFullAttack((p) => ({ ...p, natural: p.natural.filter((_, j) => j !== i) }))));
    return li;
  }));
  const natHand = dom.faNatHand.value;
  dom.faNatHand.replaceChildren(...["", ...plan.hands].map((h) => {
    const o = document.createElement("option");
    o.value = h;
    o.textContent = h ? `on ${h}` : "on no hand";
    return o;
  }));
  dom.faNatHand.value = plan.hands.includes(natHand) ? natHand : "";

  // The plan, priced; an illegal plan unpriced, its steps before the illegal one named by what
  // they attack with (priced alone, they would be a shorter full attack: not shown).
  const priced = fa.result ? fa.result.steps : null;
  const bad = fa.error && fa.error.at !== undefined ? fa.error.at : -1;
  dom.faSteps.replaceChildren(...plan.steps.map((st, i) => {
    const p = priced ? priced[i] ?? null : null;
    const li = document.createElement("li");
    li.className = "fa-step";
    li.append(span(`${i + 1}.`, "fa-n"), span(describeStep(st, p ?? (i < bad ? fa.before[i] ?? null : null)), "fa-what"));
    if (p && typeof p.bonus === "number") {
      li.classList.add("fa-attack");
      li.dataset.bonus = String(p.bonus);
      li.append(span(p.as ? AS_LABEL[p.as] + (p.as === "natural" ? (p.secondary ? ", secondary" : ", primary") : "") : "", "hint"), span(signed(p.bonus), "fa-bonus"), span(partsText(p), "fa-parts"));
    } else if (st.attack === undefined && st.natural === undefined) {
      li.append(span("free", "hint"));
    }
    if (i === bad && fa.error) {
      li.classList.add("fa-bad");
      li.append(span(`✗ ${fa.error.code}`, "fa-bonus"));
    }
    return li;
  }));
  dom.faStepsEmpty.hidden = plan.steps.length > 0;

  // The errors: the step just refused (the plan is unchanged), or the plan's own.
  const tried = fa.tried;
  if (tried) showError(dom.faError, `Not added (${describeStep(tried.step, null)}) — ${fullAttackErrorText(tried.error)}. The plan is unchanged.`);
  else if (fa.error) showError(dom.faError, `${fullAttackErrorText(fa.error)}. Remove the last step or change the combatant.`);
  else showError(dom.faError, "");

  // What may come next: the engine's `next`, one button each, and a throw where the engine takes one.
  const next = fa.result ? fa.result.next : [];
  dom.faNext.replaceChildren(...next.map((n, i) => {
    const li = document.createElement("li");
    const step = stepOf(n);
    const what = describeStep(step, n);
    const bonus = n.bonus ?? 0;
    const b = faButton(`fa-next-${i}`, [`${what} `, span(signed(bonus), "fa-bonus")], () => tryStep(step));
    b.dataset.bonus = String(bonus);
    b.title = `${n.as ? AS_LABEL[n.as] : ""}: ${partsText(n)}`;
    li.append(b);
    const thrown = fa.throws.find((x) => x.index === i);
    if (thrown) {
      const t = faButton(`fa-throw-${i}`, ["throw ", span(signed(thrown.bonus), "fa-bonus")], () => tryStep(thrown.step));
      t.dataset.bonus = String(thrown.bonus);
      t.setAttribute("aria-label", `${what}, thrown ${signed(thrown.bonus)}`);
      t.title = "Throw it: the hand is empty afterwards (SPEC §9.2)";
      li.append(t);
    }
    return li;
  }));
  dom.faNextEmpty.hidden = !(fa.error || (fa.result && next.length === 0));
  dom.faNextEmpty.textContent = fa.error ? "Nothing until the plan is legal again." : "No attack may follow: every budget of this full attack is spent, or nothing in hand can use one.";

  // Drop and draw (free; a draw needs Quick Draw: the engine says so when it is missing).
  dom.faDrops.replaceChildren(...plan.hands.map((h, i) => {
    const b = faButton(`fa-drop-${i}`, [`Drop ${h}`], () => tryStep({ drop: h }));
    b.disabled = !fa.result;
    return b;
  }));
  dom.faDraw.disabled = !fa.result;
  const d = ui.faDraw;
  const hand = plan.hands.includes(d.hand) ? d.hand : plan.hands[0];
  const others = plan.hands.filter((h) => h !== hand);
  const hand2 = others.includes(d.hand2) ? d.hand2 : others[0] ?? "";
  dom.faDrawItem.replaceChildren(itemPicker("draw", "fa-draw-pick", "Draw", d.item, false, (item) => {
    if (item) ui.faDraw.item = item;
    renderPanel();
  }));
  for (const [select, list, value] of /** @type {[HTMLSelectElement, string[], string][]} */ ([[dom.faDrawHand, plan.hands, hand], [dom.faDrawHand2, others, hand2]])) {
    select.replaceChildren(...list.map((h) => {
      const o = document.createElement("option");
      o.value = h;
      o.textContent = h;
      return o;
    }));
    select.value = value;
  }
  dom.faDrawPair.hidden = !twoHands(d.item);

  // One line: the bonuses so far.
  if (fa.result) {
    const bonuses = fa.result.steps.filter((p) => typeof p.bonus === "number").map((p) => signed(/** @type {number} */ (p.bonus)));
    dom.faStatus.classList.remove("error");
    dom.faStatus.textContent = `${bonuses.length} attack${bonuses.length === 1 ? "" : "s"} so far${bonuses.length ? `: ${bonuses.join(" / ")}` : ""}; ${next.length} may come next.`;
  } else if (fa.error) {
    dom.faStatus.classList.add("error");
    dom.faStatus.textContent = fa.error.at !== undefined ? `The plan breaks a rule at step ${fa.error.at + 1}: ${fa.error.code}.` : `${fa.error.code}.`;
  } else dom.faStatus.textContent = "";

  if (focused && (document.activeElement === document.body || document.activeElement === null)) document.getElementById(focused)?.focus();
}

// Full attack: each change of the combatant is one undo step (editFullAttack), each step added
// too (tryStep); the draw action's choices are not saved.
dom.faBab.addEventListener("change", () => {
  const n = intField(dom.faBab, 0, 40);
  if (n === null) {
    ui.fa.refused = "Base attack bonus: a whole number from 0 to 40.";
    renderPanel();
    return;
  }
  editFullAttack((p) => ({ ...p, bab: n }));
});
for (const box of dom.faFeats) {
  box.addEventListener("change", () => editFullAttack((p) => ({ ...p, feats: FEATS.filter((f) => (f === box.value ? box.checked : p.feats.includes(f))) })));
}
dom.faTwoWeapon.addEventListener("change", () => editFullAttack((p) => ({ ...p, twoWeapon: dom.faTwoWeapon.checked })));
dom.faRapidShot.addEventListener("change", () => editFullAttack((p) => ({ ...p, rapidShot: dom.faRapidShot.checked })));
dom.faAddHand.addEventListener("click", () => editFullAttack((p) => {
  const name = ARMS.find((a) => !p.hands.includes(a));
  if (!name || p.hands.length >= ARMS.length) return `the demo offers ${ARMS.length} arms at most.`;
  return { ...p, hands: [...p.hands, name] };
}));
dom.faRemoveHand.addEventListener("click", () => editFullAttack((p) => {
  if (p.hands.length <= 2) return "main and off stay.";
  const h = p.hands[p.hands.length - 1];
  const q = /** @type {FullAttackPlan} */ (withHolding(p, h, null, null)); // what it holds goes (both hands of a two-handed item)
  return {
    ...q, hands: q.hands.filter((x) => x !== h),
    natural: q.natural.map((n) => (n.hand === h ? { id: n.id, primary: n.primary } : n)), // a claw on it stays, on no hand
  };
}));
function addNatural() {
  const id = dom.faNatId.value.trim();
  if (!id) {
    ui.fa.refused = "a natural weapon needs a name (bite, claw…).";
    renderPanel();
    return;
  }
  /** @type {Natural} */
  const n = { id, primary: dom.faNatPrimary.checked };
  if (dom.faNatHand.value) n.hand = dom.faNatHand.value;
  editFullAttack((p) => ({ ...p, natural: [...p.natural, n] }));
  if (scene.fullAttack.natural.some((x) => x.id === id)) dom.faNatId.value = "";
}
dom.faNatAdd.addEventListener("click", addNatural);
dom.faNatId.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); addNatural(); } });
dom.faPop.addEventListener("click", () => {
  if (scene.fullAttack.steps.length === 0) return;
  commit();
  scene.fullAttack.steps.pop();
  commit();
  refresh();
});
dom.faClear.addEventListener("click", () => {
  if (scene.fullAttack.steps.length === 0) return;
  commit();
  scene.fullAttack.steps = [];
  commit();
  refresh();
});
dom.faDrawHand.addEventListener("change", () => { ui.faDraw.hand = dom.faDrawHand.value; renderPanel(); });
dom.faDrawHand2.addEventListener("change", () => { ui.faDraw.hand2 = dom.faDrawHand2.value; renderPanel(); });
dom.faDraw.addEventListener("click", () => {
  const item = { ...ui.faDraw.item };
  /** @type {FullAttackStep} */
  const step = { draw: dom.faDrawHand.value, item };
  if (twoHands(item)) step.hands = [dom.faDrawHand.value, dom.faDrawHand2.value];
  tryStep(step);
});
