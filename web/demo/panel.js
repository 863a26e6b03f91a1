// @ts-check
// The panel: the template's description, the status line and the note under the board, the
// Targets list (with cover and rolls in words), the creatures list and editor, the attack cover
// section's answer, and the fields that mirror the scene (syncFields).
import { DIRS, RULES_LABEL, SIDES } from "./constants.js";
import { dom } from "./dom.js";
import { draw, focusId } from "./draw.js";
import { commit, entities, findEntity, history, scene, ui } from "./state.js";
import { capital, feet, isPoint, isPointRules, onIntersection, placementOf, rangeOf, snapToward, turningOf } from "./requests.js";
import { forceTarget, isCube, slidePath } from "./engine.js";
import { signed } from "./fullattack.js";
import { refresh } from "./refresh.js";
import { gradeWords } from "./labels.js";
import { towardText } from "./marks.js";
import { redrawFullAttack, renderFullAttack } from "./fullattack-panel.js";
import { renderWallTools, select } from "./edit.js";
import { flagText } from "./fields.js";
import { renderTemplates } from "./templates.js";

/** @typedef {import("./types.js").Direction} Direction */
/** @typedef {import("./types.js").DrawSummary} DrawSummary */
/** @typedef {import("./types.js").Rules} Rules */
/** @typedef {import("./types.js").Template} Template */

// ---------------------------------------------------------------------------------------------
// The panel

/** @type {Record<string, string>} what to do about a broken rule */
const HINTS = {
  out_of_range: "Drag the origin or the caster closer, or raise Range.",
  no_line_of_effect: "The caster must see the origin square corner to corner (SPEC §3.1): move either, or a wall.",
  invalid_wall: "Click a square again to take it back: the squares share sides, off walls and creatures (SPEC §3.6).",
  not_straight: "The squares must run straight (SPEC §3.7).",
};
/** @type {Record<string, string>} the same for dnd5e and pf2e (SPEC §10.4, §10.7) */
const POINT_HINTS = {
  out_of_range: "Drag the point or the caster closer, or raise Range (the gap from the caster's space to the point, in whole squares).",
  no_line_of_effect: "The caster needs a clear line to the point from a corner of its space, and the point cannot be inside a wall (SPEC §10.4): move either, or a wall.",
};
const SHAPE_WORDS = { circle: "circle", cone: "cone", line: "line", rectangle: "rectangle", aura: "aura", burst: "burst", cube: "cube", wall: "wall", sphere: "sphere", cylinder: "cylinder", emanation: "emanation" };

/**
 * A sentence about a dnd5e or pf2e template: its sizes in squares and feet (SPEC §10.3), and how
 * it is placed and turned.
 * @param {Template} t
 */
function describePoint(t) {
  const parts = [`${RULES_LABEL[t.rules]} ${SHAPE_WORDS[t.shape]}${t.rules === "pf2e" && t.shape === "cone" ? " (a quarter circle)" : ""}`];
  if (t.radius) parts.push(`radius ${feet(t.radius)}`);
  if (t.side) parts.push(`side ${feet(t.side)}`);
  if (t.length) parts.push(`length ${feet(t.length)}`);
  if (t.shape === "line" && t.width) parts.push(`width ${feet(t.width)}`);
  if (t.height) parts.push(`height ${feet(t.height, "level")}`);
  const place = placementOf(t, scene);
  const turning = turningOf(t);
  const turns = turning === "free" ? "; the wheel turns it 15° (Shift: 5°), Q and E to the next compass direction"
    : turning === "compass" ? "; Q, E or the wheel turn it 45° (a pf2e cone aims along the 8 compass directions)"
    : turning === "diagonal" ? "; Q, E or the wheel turn it to the next diagonal (NE, SE, SW, NW)" : "";
  const how = t.shape === "emanation" ? "from the caster's space: it follows the caster"
    : place === "caster" ? "from the caster's edge, toward its direction (tick “start from a chosen point” to place it)"
    : onIntersection(t) ? "drag its point: it snaps to grid intersections"
    : "drag its point: it snaps to intersections, square centres and edge midpoints (hold Alt: free)";
  return `${t.notation}: ${parts.join(", ")} — ${how}${turns}.`;
}

/** A sentence about a parsed template: its rule set, shape and sizes. @param {Template} t */
function describe(t) {
  if (isPoint(t)) return describePoint(t);
  const parts = [`${RULES_LABEL[t.rules]} ${SHAPE_WORDS[t.shape]}`];
  if (t.radius) parts.push(`radius ${t.radius}`);
  if (t.size) parts.push(`size ${t.size}`);
  if (t.side) parts.push(`side ${t.side}`);
  if (t.length) parts.push(`length ${t.length}`);
  if (t.shape !== "cone" && t.width) parts.push(`width ${t.width}`);
  if (t.squares) parts.push(`${t.squares} squares`);
  if (t.height) parts.push(`height ${t.height}`);
  if (t.direction) parts.push(`${t.direction} relative to the caster's facing`);
  if (t.within) parts.push(`within ${t.within}`);
  const place = placementOf(t, scene);
  const how = place === "caster" ? "from the caster: it follows the caster" : place === "line" ? "drag its first square (origin) and its aim" : place === "wall" ? "lay its squares with the Wall squares tool" : t.shape === "cone" || t.shape === "line" ? "from the chosen square (origin handle)" : "drag the origin handle to place it";
  // A TDGS circle is every square within its radius, a diagonal step counting one (SPEC §1.4, §2.3): a square.
  const square = t.rules === "tdgs" && t.shape === "circle" && t.radius !== undefined
    ? ` — on the grid a square of ${2 * t.radius + 1} × ${2 * t.radius + 1}: every square within ${t.radius} of the origin square, a diagonal step counting as one (SPEC §1.4, §2.3)` : "";
  return `${t.notation}: ${parts.join(", ")}${square} — ${how}.`;
}


/**
 * A TDGS direction as written and as it points on the board (SPEC §1.3: relative to the
 * caster's facing, N forward): "Con4NE — relative to facing E: points SE". The board's is the
 * engine's answer; without one (a refused placement) it is SPEC §1.3's sum.
 * @param {Template} t @param {DrawSummary | null} res
 */
function directionText(t, res) {
  const facing = scene.caster.facing, rel = /** @type {Direction} */ (t.direction);
  const points = res && res.direction ? res.direction : DIRS[(DIRS.indexOf(facing) + DIRS.indexOf(rel)) % 8];
  return `${t.notation} — relative to facing ${facing}: points ${points}`;
}

/** @param {HTMLElement} box @param {string} message @param {string} [text] @param {number} [at] */
export function showError(box, message, text, at) {
  box.replaceChildren();
  box.hidden = !message;
  if (!message) return;
  box.append(message);
  if (text !== undefined && at !== undefined) {
    // The text with the character where reading stopped marked (one past the end: a blank).
    // at counts characters (code points), not UTF-16 units: an emoji is one.
    const code = document.createElement("code");
    const mark = document.createElement("mark");
    const chars = Array.from(text);
    const i = at - 1;
    mark.textContent = i < chars.length ? chars[i] : " ";
    mark.title = `position ${at}`;
    code.append(chars.slice(0, i).join(""), mark, chars.slice(i + 1).join(""));
    box.append(code);
  }
}

let targetsShown = "";
let tokensShown = "";

export function renderPanel() {
  const t = ui.template, res = ui.summary;
  // The notation box: its own error, inline, while the board keeps the last valid template.
  const ne = ui.notationError;
  dom.notation.setAttribute("aria-invalid", ne ? "true" : "false");
  showError(dom.notationError, ne ? `${capital(ne.message)}${t ? ` — the board keeps ${t.notation}` : ""}` : "", ne ? ne.text : undefined, ne ? ne.at : undefined);
  dom.notationError.title = ne ? `error code: ${ne.code}` : "";
  dom.info.textContent = t ? describe(t) : "";
  // A TDGS direction is relative to the caster's facing (SPEC §1.3): as written, and as it points.
  const written = t && t.direction ? directionText(t, res) : "";
  dom.directionNote.hidden = !written;
  if (dom.directionNote.textContent !== written) dom.directionNote.textContent = written;
  for (const b of dom.shapes) {
    const on = !!t && t.rules === b.dataset.rules && t.shape === b.dataset.shape && (t.rules !== "circle50" || !!t.close === (b.dataset.close === "true"));
    if (b.getAttribute("aria-current") !== String(on)) b.setAttribute("aria-current", String(on));
  }
  const effective = scene.rules || (t ? t.rules : "");
  const point = isPoint(t);
  dom.rulesNote.textContent = !effective ? ""
    : isPointRules(scene.rules) ? `${RULES_LABEL[scene.rules]} rules: areas from a point`
    : scene.rules ? `${RULES_LABEL[scene.rules]} rules on a ${t ? RULES_LABEL[t.rules] : ""} template` : `${RULES_LABEL[/** @type {Rules} */ (effective)]} rules`;
  dom.rulesNote.classList.toggle("override", !!scene.rules && !!t && scene.rules !== t.rules);
  if (t) {
    const place = placementOf(t, scene);
    const r = rangeOf(t, scene);
    dom.rangeNote.textContent = place === "caster" ? "not used: the template starts at the caster" : scene.range === null ? (t.within ? `empty: within ${t.within} from the notation` : "empty: no range")
      : point && r !== null ? `${feet(r)} from the caster's space to the point` : "";
    dom.sourceRow.hidden = !((t.rules === "tdgs" || point) && (t.shape === "cone" || t.shape === "line"));
    const sourceText = point ? "start from a chosen point, not the caster's edge (SPEC §10.7)" : "start from a chosen square within range (SPEC §2.9)";
    if (dom.sourceText.textContent !== sourceText) dom.sourceText.textContent = sourceText;
  }
  // dnd5e and pf2e grade cover by their own rules: the other tables are not theirs (CONTRACT).
  for (const o of dom.cover.options) o.disabled = point && (o.value === "tdgs" || o.value === "drawsteel");
  const grades = point && t ? t.rules : "";
  dom.legendGrades.hidden = grades !== "";
  dom.legendDnd5e.hidden = grades !== "dnd5e";
  dom.legendPf2e.hidden = grades !== "pf2e";
  dom.originSquareRow.hidden = !isCube(t);
  const os = scene.originSquare;
  dom.originSquareInfo.textContent = os ? `origin square: ${os.x}, ${os.y}, ${os.z} (Shift + click another square of the cube)` : "origin square: nearest the caster (Shift + click a square of the cube to choose it)";
  dom.originSquareClear.disabled = !os;
  const turning = turningOf(t);
  dom.turnLabel.value = turning ? `toward ${towardText(turning, scene.toward)}`
    : t && t.shape === "rectangle" ? `rectangle ${scene.orientation}` : `facing ${scene.caster.facing}` + (res && res.direction ? ` · points ${res.direction}` : "");

  // The status line: the answer in one sentence, or why there is none.
  dom.status.classList.toggle("error", !!ui.error);
  if (!ui.engine) dom.status.textContent = dom.status.textContent || "Loading the engine…";
  else if (ui.error) dom.status.textContent = ui.error.message;
  else if (ui.waiting) dom.status.textContent = ui.waiting;
  else if (res) {
    const hit = res.targets.filter((x) => x.affected).length;
    const toward = res.direction ? res.direction + (t && t.direction ? ` (${t.direction} relative to facing ${scene.caster.facing})` : "")
      : turning ? `${snapToward(turning, scene.toward)}°` : "";
    dom.status.textContent = `${res.template?.notation}: ${res.count} squares` + (toward ? `, toward ${toward}` : "") +
      `, ${hit} affected` + (res.originVisible ? "" : " (the caster cannot see the origin: reported, not required)");
  }
  dom.status.title = ui.error ? `error code: ${ui.error.code}` : "";
  // Under the board, where it is seen: a placement the rules refuse, a notation that does not
  // parse (the box is far down the panel on a phone), what the board waits for, creatures above
  // the board's levels.
  const hint = ui.error ? (point ? POINT_HINTS[ui.error.code] : undefined) ?? HINTS[ui.error.code] ?? "" : "";
  const above = entities(scene).filter((e) => e.z >= scene.levels);
  const aboveText = above.length === 0 ? "" : `${above.map((e) => `${e.id} (z ${e.z})`).join(", ")} ${above.length === 1 ? "stands" : "stand"} above the board's ${scene.levels} level${scene.levels === 1 ? "" : "s"}: ` +
    `areas are cut at level ${scene.levels - 1}, so nothing of them is drawn up there, though the engine may count ${above.length === 1 ? "it" : "them"} in. Raise “of N levels” in the toolbar.`;
  setBoardNote(ui.error ? `Not placed: ${ui.error.message}. ${hint}`
    : ne ? `The notation: ${ne.message}${t ? ` — the board keeps ${t.notation}` : ""}.` : ui.waiting || aboveText, !!ui.error || !!ne || !!aboveText);

  // Targets.
  const targets = res ? res.targets : [];
  const sig = JSON.stringify([targets, focusId(), ui.selected, scene.levels, scene.rolls, above.map((e) => e.id)]);
  if (sig !== targetsShown) {
    targetsShown = sig;
    dom.targets.replaceChildren(...targets.map((x) => targetItem(x)));
  }
  dom.targetsEmpty.hidden = targets.length > 0 || !res;

  // Creatures.
  const selective = scene.trait === "selective";
  const tsig = JSON.stringify([entities(scene).map((e) => [e.id, e.side]), ui.selected, selective && scene.ids]);
  if (tsig !== tokensShown) {
    tokensShown = tsig;
    dom.tokens.replaceChildren(...entities(scene).map((e) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.id = e.id;
      const sel = ui.selected;
      b.classList.toggle("current", !!sel && sel.kind === "entity" && sel.id === e.id);
      b.setAttribute("aria-pressed", b.classList.contains("current") ? "true" : "false");
      const tag = document.createElement("span");
      tag.className = `tag ${SIDES.includes(e.side) ? e.side : "neutral"}`;
      tag.textContent = e.side || "—";
      b.append(e.id, " ", tag);
      if (e === scene.caster) {
        const c = document.createElement("span");
        c.className = "tag caster";
        c.textContent = "caster";
        b.append(" ", c);
      }
      b.addEventListener("click", () => select({ kind: "entity", id: e.id }));
      li.append(b);
      if (selective) {
        // Selective (SPEC §7.3): only the creatures ticked may be affected (the caster too, if ticked).
        li.className = "chosen";
        const label = document.createElement("label");
        label.className = "choose";
        label.title = `Selective: ${e.id} may be affected`;
        const box = document.createElement("input");
        box.type = "checkbox";
        box.className = "choose-box";
        box.dataset.id = e.id;
        box.checked = scene.ids.includes(e.id);
        box.setAttribute("aria-label", `${e.id} may be affected (selective)`);
        box.addEventListener("change", () => {
          commit();
          scene.ids = box.checked ? [...scene.ids.filter((id) => id !== e.id), e.id] : scene.ids.filter((id) => id !== e.id);
          commit();
          refresh();
        });
        label.append(box);
        li.append(label);
      }
      return li;
    }));
  }
  renderEditor();
  renderAttack();
  renderFullAttack();
  renderWallTools();
  renderTemplates();
  dom.rollsFields.hidden = !scene.rolls.on;

  // Forced movement.
  const ft = forceTarget();
  dom.legendForce.hidden = !(ft && ui.move && ui.move.path.length > 0);
  dom.moveApply.disabled = !ft || !ui.move || ui.move.path.length === 0;
  const slide = scene.force.kind === "slide";
  dom.slideRow.hidden = !slide;
  dom.slidePop.disabled = dom.slideClear.disabled = slidePath().length === 0;
  dom.moveInfo.classList.toggle("error", !!ft && !!ui.moveError);
  if (!ft) dom.moveInfo.textContent = `Select a creature other than the caster: the caster ${slide ? "slides" : "pushes or pulls"} it, one square at a time (SPEC §3.7).`;
  else if (ui.moveError) dom.moveInfo.textContent = ui.moveError;
  else if (slide && slidePath().length === 0) dom.moveInfo.textContent = `Lay the slide's path: with Lay the path, click or drag on the board from ${ft.id}, square by square (up to ${scene.force.distance}; any direction, not only straight). Backspace removes the last square, Escape clears.`;
  else if (ui.move) {
    const m = ui.move;
    const col = m.collision;
    dom.moveInfo.textContent = `${scene.force.kind} ${ft.id} ${scene.force.distance}: ${m.path.length} square${m.path.length === 1 ? "" : "s"} to ${m.end.x}, ${m.end.y}` +
      (col ? `; stopped by ${col.kind === "obstacle" ? "a solid square" : col.kind === "wall" ? "a thin wall" : col.kind === "edge" ? "the board's edge" : col.with} at ${col.at[0]}, ${col.at[1]} with ${col.left} left` : "") + ". The dashed blue path shows it.";
  }
  renderHistory();
}

let attackShown = "";
/** The attack cover section: its creature lists, and the answer or the error. */
function renderAttack() {
  const a = ui.attack;
  const ids = entities(scene).map((e) => e.id);
  const sig = JSON.stringify([ids, a.attacker, a.target]);
  if (sig !== attackShown) {
    attackShown = sig;
    for (const [select, chosen, label] of /** @type {[HTMLSelectElement, string, string][]} */ ([[dom.atkAttacker, a.attacker, "choose the attacker…"], [dom.atkTarget, a.target, "choose the target…"]])) {
      const none = document.createElement("option");
      none.value = "";
      none.textContent = label;
      select.replaceChildren(none, ...ids.map((id) => {
        const o = document.createElement("option");
        o.value = id;
        o.textContent = id;
        return o;
      }));
      select.value = ids.includes(chosen) ? chosen : "";
    }
  }
  dom.atkKind.value = a.kind;
  dom.atkRules.value = a.rules;
  dom.atkFlying.checked = a.flying;
  dom.atkPick.setAttribute("aria-pressed", a.pick ? "true" : "false");
  dom.atkPick.textContent = a.pick === 1 ? "Click the attacker…" : a.pick === 2 ? "Click the target…" : "Pick on the board";
  const err = ui.attackError, r = ui.attackResult;
  showError(dom.atkError, err ? capital(err.message) : "");
  dom.atkError.title = err ? `error code: ${err.code}` : "";
  const attacker = findEntity(a.attacker), target = findEntity(a.target);
  if (r) {
    dom.atkResult.textContent = (isPointRules(a.rules) ? gradeWords(r.grade) : `${r.grade}`) + (r.bonus ? ` (+${r.bonus})` : "") + ` · ${r.blocked} of ${r.total} lines blocked` +
      ` · line of effect: ${r.lineOfEffect ? "yes" : "no"} · from ${r.from.join(", ")}`;
  } else if (err) dom.atkResult.textContent = "";
  else if (attacker && target && attacker === target) dom.atkResult.textContent = "The attacker and the target must differ.";
  else dom.atkResult.textContent = "Choose an attacker and a target.";
}

/**
 * A roll in words, as SPEC §7.4 adds it up: the die, plus the stat, less the defence (the
 * target's, and its cover's bonus), plus the modifiers, is the total; a hit needs 11 (a natural
 * 20 always hits, a natural 1 always misses; luck changes what the die needs).
 * @param {import("../index.js").Roll} r @param {number} cover the target's cover bonus (in r.defence)
 */
function rollWords(r, cover) {
  const die = r.dice[r.dice.length - 1], { stat, modifiers, luck } = scene.rolls;
  const term = (/** @type {number} */ n) => (n < 0 ? `− ${-n}` : `+ ${n}`);
  const defence = term(-r.defence) + (cover ? ` (defence ${r.defence - cover}, cover +${cover})` : " (defence)");
  const mods = modifiers ? ` ${term(modifiers)} (modifiers)` : "";
  const needs = ["needs 11"];
  if (r.dice.length > 1) needs.push(`the 1 rolled first was rolled again (luck ${luck})`);
  if (die === 20) needs.push("a natural 20 always hits");
  else if (die === 1) needs.push("a natural 1 always misses");
  else if (luck < 0) needs.push(`with luck ${signed(luck)} the die must also be ${11 - luck} or more`);
  else if (luck > 0) needs.push(`with luck ${signed(luck)} any die above ${11 - luck} hits`);
  return `d20 ${r.dice.join(" → ")} ${term(stat)} (stat) ${defence}${mods} = ${r.total}: ${r.hit ? "hit" : "miss"} (${needs.join("; ")})`;
}

/** @param {import("../overlay.js").DrawTarget} x a target of the summary, with its details */
function targetItem(x) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.id = x.id;
  const e = findEntity(x.id);
  b.classList.toggle("current", focusId() === x.id);
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = x.id;
  const state = document.createElement("span");
  state.className = `tag ${x.affected ? "affected" : "spared"}`;
  state.textContent = x.affected ? "affected" : `not affected: ${x.reason}`;
  b.append(who, " ", state);
  if (e && e === scene.caster) {
    const c = document.createElement("span");
    c.className = "tag caster";
    c.textContent = "caster, in its own area";
    b.append(" ", c);
  }
  const detail = document.createElement("span");
  detail.className = "detail";
  const badge = document.createElement("span");
  badge.className = `badge b-${x.cover}`;
  badge.dataset.grade = x.cover;
  const t = ui.template;
  if (isPoint(t) && t) {
    // dnd5e: ½ and ¾ cover add to AC and Dexterity saves (SPEC §10.8); pf2e: lesser to AC,
    // standard and greater to AC and Reflex saves (§11.5).
    badge.textContent = gradeWords(x.cover);
    const against = t.rules === "dnd5e" ? "AC and Dex saves" : x.cover === "lesser" ? "AC" : "AC and Reflex saves";
    detail.append("cover ", badge, x.bonus ? ` +${x.bonus} to ${against}` : "", x.cover === "total" ? " (cannot be targeted)" : "",
      x.total ? ` · ${x.blocked} of ${x.total} line${x.total === 1 ? "" : "s"} blocked` : "");
  } else {
    // TDGS: partial +2, half +4 to the defence (REF), full: not affected; Draw Steel's "cover"
    // is a bane on the abilities against it (SPEC §5.5).
    badge.textContent = x.cover;
    const effect = x.bonus ? ` +${x.bonus} defence` : x.cover === "cover" ? ": a bane on abilities against it (Draw Steel)" : x.cover === "full" ? ": cannot be targeted" : "";
    detail.append(x.cover === "cover" ? "" : "cover ", badge, effect, x.total ? ` · ${x.blocked} of ${x.total} lines blocked` : "");
  }
  if (e && e.z >= scene.levels) detail.append(` · above the board's levels (z ${e.z}; the board's are 0 … ${scene.levels - 1}): no area is drawn there`);
  if (x.roll) {
    const roll = document.createElement("span");
    roll.className = `roll ${x.roll.hit ? "roll-hit" : "roll-miss"}`;
    roll.textContent = ` · ${rollWords(x.roll, x.bonus)}`;
    detail.append(roll);
  }
  b.append(detail);
  b.addEventListener("click", () => select({ kind: "entity", id: x.id }));
  b.addEventListener("mouseenter", () => hover(x.id));
  b.addEventListener("mouseleave", () => hover(null));
  b.addEventListener("focus", () => hover(x.id));
  b.addEventListener("blur", () => hover(null));
  li.append(b);
  return li;
}

/** @param {string | null} id */
function hover(id) {
  if (ui.hoverId === id) return;
  ui.hoverId = id;
  draw();
}

let editorFor = "";
export function renderEditor(force = false) {
  const sel = ui.selected;
  const e = sel && sel.kind === "entity" ? findEntity(sel.id) : null;
  dom.editor.hidden = !e;
  if (!e) { editorFor = ""; return; }
  const sig = JSON.stringify(e) + (e === scene.caster);
  if (!force && sig === editorFor) return;
  editorFor = sig;
  const isCaster = e === scene.caster;
  dom.editor.classList.toggle("is-caster", isCaster);
  dom.editorTitle.textContent = isCaster ? `${e.id} (the caster)` : e.id;
  dom.edId.value = e.id;
  dom.edSide.value = SIDES.includes(e.side) ? e.side : "neutral";
  dom.edSize.value = String(e.size);
  dom.edHeight.value = e.height === null ? "" : String(e.height);
  dom.edZ.value = String(e.z);
  dom.edFacing.value = e.facing;
  dom.edDefence.value = e.defence ? String(e.defence) : "";
  dom.edProne.checked = e.prone;
}

export function renderHistory() {
  dom.undo.disabled = history.index <= 0;
  dom.redo.disabled = history.index >= history.stack.length - 1;
}

/** @param {string} text @param {boolean} [warn] */
export function setBoardNote(text, warn = false) {
  const note = ui.boardNote || text;
  dom.note.textContent = note;
  dom.note.classList.toggle("warn", ui.boardNote ? ui.boardWarn : warn);
}

/** A passing message under the board (a refused drop, a refused square). @param {string} text */
export function flash(text) {
  ui.boardNote = text;
  ui.boardWarn = true;
  setBoardNote("");
}

/** Fields that mirror the scene, set after the scene is replaced. */
export function syncFields() {
  dom.notation.value = scene.template;
  dom.rules.value = scene.rules;
  dom.range.value = scene.range === null ? "" : String(scene.range);
  dom.range.setAttribute("aria-invalid", "false");
  showError(dom.rangeError, "");
  dom.source.checked = scene.source;
  dom.trait.value = scene.trait;
  dom.excludeCaster.checked = scene.excludeCaster;
  dom.selectiveNote.hidden = scene.trait !== "selective";
  dom.barriers.value = flagText(scene.barriers);
  dom.cover.value = scene.cover;
  dom.applyCover.value = flagText(scene.applyCover);
  dom.rolls.checked = scene.rolls.on;
  dom.stat.value = String(scene.rolls.stat);
  dom.mods.value = String(scene.rolls.modifiers);
  dom.luck.value = String(scene.rolls.luck);
  dom.seed.value = String(scene.rolls.seed);
  showError(dom.rollsError, "");
  dom.levels.value = String(scene.levels);
  dom.levels.setAttribute("aria-invalid", "false");
  dom.moveKind.value = scene.force.kind;
  dom.moveDistance.value = String(scene.force.distance);
  showError(dom.editorError, "");
  renderEditor(true);
  dom.faBab.value = String(scene.fullAttack.bab);
  dom.faBab.setAttribute("aria-invalid", "false");
  redrawFullAttack();
}
