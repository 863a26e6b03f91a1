// The aoekit demo: one state object, setters that redraw, pure hit tests, one pixel↔cell
// converter. Plain ES module, no framework, no build step.
import { load } from "../index.js";

/** @typedef {{px: number, py: number}} PixelPoint  a point on the canvas, in CSS pixels */
/** @typedef {{x: number, y: number}} Cell          a board square (y grows south) */
/** @typedef {{id: string, x: number, y: number, size?: number, side?: string, prone?: boolean}} Token */

const SQ = 32; // pixels per square
const COLS = 30, ROWS = 20;
const DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById("board"));
const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

const state = {
  /** @type {any} */ engine: null,
  notation: "Con4N",
  rules: "tdgs",
  range: 20,
  caster: { id: "hero", x: 8, y: 10, facing: 0, side: "party" },
  /** @type {Token[]} */
  tokens: [
    { id: "goblin 1", x: 8, y: 6, side: "enemy" },
    { id: "goblin 2", x: 10, y: 7, side: "enemy" },
    { id: "ogre", x: 13, y: 4, size: 2, side: "enemy" },
    { id: "ally", x: 6, y: 8, side: "party" },
  ],
  /** @type {Map<string, {x: number, y: number, z: number, fill: number}>} "x,y" → the obstacle as requests carry it */
  obstacles: new Map([[9, 6, 1], [9, 7, 1], [7, 5, 0.5], [12, 6, 1]].map(([x, y, fill]) => [`${x},${y}`, { x, y, z: 0, fill }])),
  /** @type {Cell} */ origin: { x: 15, y: 10 },
  /** @type {null | {target: Cell, grab: Cell}} the caster, token or origin being dragged */ drag: null,
  /** @type {any} */ result: null,
  /** @type {string} */ error: "",
};

/** One converter between pixels and cells. @param {PixelPoint} p @returns {Cell} */
const cellAt = (p) => ({ x: Math.floor(p.px / SQ), y: Math.floor(p.py / SQ) });
/** @param {PointerEvent} e @returns {PixelPoint} */
function pixelOf(e) {
  const r = canvas.getBoundingClientRect();
  return { px: (e.clientX - r.left) * (canvas.width / r.width), py: (e.clientY - r.top) * (canvas.height / r.height) };
}

/** Pure hit test: the caster, token or origin at cell c, or null. @returns {Cell | null} */
function hit(c) {
  const inside = (t) => c.x >= t.x && c.x < t.x + (t.size || 1) && c.y >= t.y && c.y < t.y + (t.size || 1);
  if (inside(state.caster)) return state.caster;
  const token = state.tokens.find(inside);
  if (token) return token;
  if (c.x === state.origin.x && c.y === state.origin.y) return state.origin;
  return null;
}

function request() {
  const c = state.caster;
  const req = {
    rules: state.rules,
    template: state.notation,
    caster: { id: c.id, x: c.x, y: c.y, z: 0, size: 1, height: 1, facing: DIRS[c.facing], side: c.side },
    origin: { x: state.origin.x, y: state.origin.y, z: 0 },
    range: state.range,
    tokens: state.tokens.map((t) => ({ id: t.id, x: t.x, y: t.y, z: 0, size: t.size || 1, side: t.side, prone: !!t.prone })),
    obstacles: [...state.obstacles.values()],
    bounds: { min: [0, 0, 0], max: [COLS - 1, ROWS - 1, 0] },
  };
  if (/line/i.test(state.notation) && /^\s*\d/.test(state.notation)) {
    // A Draw Steel line starts beside the caster and points at the ring.
    const dx = Math.sign(state.origin.x - c.x), dy = Math.sign(state.origin.y - c.y);
    req.origin = { x: c.x + dx, y: c.y + dy, z: 0 };
    req.aim = { x: state.origin.x, y: state.origin.y, z: 0 };
    delete req.range;
  }
  if (/\bcube\b|\bwithin\b/i.test(state.notation)) delete req.range;
  return req;
}

/** Every change goes through here: evaluate, then redraw. */
function update(patch = {}) {
  Object.assign(state, patch);
  if (state.engine) {
    try {
      state.result = state.engine.evaluate(request());
      state.error = "";
    } catch (err) {
      state.result = null;
      state.error = (err.code ? err.code + ": " : "") + err.message;
    }
  }
  draw();
}

let targetsShown = "";

function draw() {
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, COLS * SQ, ROWS * SQ);
  const res = state.result;
  if (res) {
    ctx.fillStyle = "rgba(255, 140, 0, 0.35)";
    for (const [x, y, z] of res.cells) if (z === 0) ctx.fillRect(x * SQ, y * SQ, SQ, SQ);
  }
  for (const { x, y, fill } of state.obstacles.values()) {
    ctx.fillStyle = fill >= 1 ? "#3b3b3b" : "#9a9a9a";
    ctx.fillRect(x * SQ, y * SQ, SQ, SQ);
  }
  ctx.strokeStyle = "#ddd";
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let x = 0; x <= COLS; x++) { ctx.moveTo(x * SQ + 0.5, 0); ctx.lineTo(x * SQ + 0.5, ROWS * SQ); }
  for (let y = 0; y <= ROWS; y++) { ctx.moveTo(0, y * SQ + 0.5); ctx.lineTo(COLS * SQ, y * SQ + 0.5); }
  ctx.stroke();
  const byId = new Map((res ? res.targets : []).map((t) => [t.id, t]));
  if (res) { // cover lines, world units → pixels
    for (const t of res.targets) for (const l of t.lines) {
      ctx.strokeStyle = l.blocked ? "rgba(200, 0, 0, 0.55)" : "rgba(0, 140, 0, 0.45)";
      ctx.beginPath();
      ctx.moveTo(l.from[0] * SQ, l.from[1] * SQ);
      ctx.lineTo(l.to[0] * SQ, l.to[1] * SQ);
      ctx.stroke();
    }
  }
  const drawToken = (t, colour) => {
    const s = (t.size || 1) * SQ;
    ctx.fillStyle = colour;
    ctx.strokeStyle = "#222";
    ctx.beginPath();
    ctx.arc(t.x * SQ + s / 2, t.y * SQ + s / 2, s / 2 - 3, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  };
  for (const t of state.tokens) {
    const r = byId.get(t.id);
    drawToken(t, !r ? "#f7f7f7" : r.affected ? "#e53935" : "#bdbdbd");
  }
  const c = state.caster;
  drawToken(c, "#1e88e5");
  const a = (c.facing * Math.PI) / 4; // facing arrow
  ctx.strokeStyle = "#fff";
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(c.x * SQ + SQ / 2, c.y * SQ + SQ / 2);
  ctx.lineTo(c.x * SQ + SQ / 2 + Math.sin(a) * SQ * 0.4, c.y * SQ + SQ / 2 - Math.cos(a) * SQ * 0.4);
  ctx.stroke();
  ctx.strokeStyle = "#6a1b9a";
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.arc(state.origin.x * SQ + SQ / 2, state.origin.y * SQ + SQ / 2, SQ / 2 - 2, 0, 2 * Math.PI);
  ctx.stroke();
  ctx.lineWidth = 1;
  const status = document.getElementById("status");
  status.className = state.error ? "error" : "";
  status.textContent = state.error || (res ? `${res.template.notation}: ${res.count} squares` + (res.direction ? `, toward ${res.direction}` : "") + (res.originVisible ? "" : " (origin not visible)") : "");
  const lines = (res ? res.targets : []).map((t) =>
    `${t.id}: ${t.affected ? "affected" : "not affected (" + t.reason + ")"}, cover ${t.cover}` + (t.bonus ? ` +${t.bonus} REF` : ""));
  if (lines.join("\n") !== targetsShown) { // rebuild the list only when it changes
    targetsShown = lines.join("\n");
    document.getElementById("targets").replaceChildren(...lines.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
  }
}

canvas.addEventListener("pointerdown", (e) => {
  const c = cellAt(pixelOf(e));
  const t = hit(c);
  if (!t) { // toggle a wall
    const k = `${c.x},${c.y}`;
    if (state.obstacles.has(k)) state.obstacles.delete(k);
    else state.obstacles.set(k, { x: c.x, y: c.y, z: 0, fill: e.shiftKey ? 0.5 : 1 });
    update();
    return;
  }
  state.drag = { target: t, grab: { x: c.x - t.x, y: c.y - t.y } };
  canvas.setPointerCapture(e.pointerId);
});
canvas.addEventListener("pointermove", (e) => {
  const d = state.drag;
  if (!d) return;
  const c = cellAt(pixelOf(e));
  const t = d.target;
  const x = Math.max(0, Math.min(COLS - 1, c.x - d.grab.x)), y = Math.max(0, Math.min(ROWS - 1, c.y - d.grab.y));
  if (x !== t.x || y !== t.y) { t.x = x; t.y = y; update(); }
});
const endDrag = () => { state.drag = null; };
canvas.addEventListener("pointerup", endDrag);
canvas.addEventListener("pointercancel", endDrag);

const turn = (k) => { state.caster.facing = (state.caster.facing + k + 8) % 8; update(); };
$("rotl").addEventListener("click", () => turn(-1));
$("rotr").addEventListener("click", () => turn(1));
canvas.addEventListener("keydown", (e) => { if (e.key === "q") turn(-1); if (e.key === "e") turn(1); });
$("notation").addEventListener("input", (e) => update({ notation: e.target.value }));
$("rules").addEventListener("change", (e) => update({ rules: e.target.value }));
$("range").addEventListener("input", (e) => update({ range: Number(e.target.value) || 0 }));
$("presets").addEventListener("change", (e) => {
  if (!e.target.value) return;
  const text = e.target.value;
  const rules = /^\s*\d/.test(text) ? "drawsteel" : /^\s*(close|circle)/i.test(text) ? "circle50" : "tdgs";
  $("notation").value = text;
  $("rules").value = rules;
  update({ notation: text, rules });
  e.target.value = "";
});

// Exposed for the browser test; not an API.
globalThis.__aoekitDemo = { state, update, cellAt, hit };

draw();
load().then((engine) => update({ engine }), (err) => update({ error: "the engine failed to load: " + err.message }));
