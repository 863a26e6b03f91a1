// @ts-check
// aoekit for Owlbear Rodeo: the settings embedded in Owlbear's context menu (background.mjs
// creates the menus, `embed: menu.html?for=token` and `?for=wall`). Owlbear shows the page when
// the player right-clicks items, which it selects; the page reads them and writes what the
// player sets into their metadata, in this extension's namespace (map.mjs reads it back):
//
// - a token (an image on the character or mount layer): `elevation` (the grid's units, 5 ft a
//   level), `side` (free text for the targeting traits), `size` (whole squares, when the token
//   is another size than its image) and `takingCover` (the Take Cover action, SPEC §11.5);
// - a drawing: `wall`, the aoekit tag — `true`, or `{open, bottom, top}` (an open door, and the
//   wall's bottom and top in the grid's units). A drawing on the fog layer is one of Dynamic
//   Fog's walls already; its heights and door apply all the same.
//
// An empty field removes its key; a value that is not one gets a message and is not written.
// Type-checked, strict, against @owlbear-rodeo/sdk's declarations: web/owlbear/tsconfig.json.
import OBR from "./obr-sdk.js";

import { META, TEMPLATE_KEY, frameOf, imageBox, isDrawing, isToken, sizeOf } from "./map.mjs";

/** @import { Item } from "./obr-sdk.js" */

const KIND = new URLSearchParams(location.search).get("for") === "wall" ? "wall" : "token";
const WALL = `${META}/wall`;
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

/** @param {string} text @param {boolean} [error] */
function message(text, error = false) {
  const el = /** @type {HTMLElement} */ (document.getElementById("message"));
  el.textContent = text;
  el.classList.toggle("error", error);
}

/** @param {Item} item */
const isWallDrawing = (item) => isDrawing(item) && item.metadata?.[TEMPLATE_KEY] === undefined;

/** @type {string[]} */
let ids = [];

/**
 * Writes one key of every chosen item's metadata: a value, or undefined to remove it.
 * @param {string} key @param {(current: unknown) => unknown} value
 */
async function write(key, value) {
  try {
    await OBR.scene.items.updateItems(ids, (drafts) => {
      for (const d of drafts) {
        const next = value(d.metadata[key]);
        if (next === undefined) delete d.metadata[key];
        else d.metadata[key] = next;
      }
    });
    message("Saved.");
  } catch (err) {
    message(`Owlbear did not save it: ${err instanceof Error ? err.message : err}`, true);
  }
}

/** A number field: its value, undefined when empty, or NaN when it is not a number. @param {string} id */
function numberOf(id) {
  const text = input(id).value.trim();
  if (text === "") return undefined;
  const v = Number(text);
  return Number.isFinite(v) ? v : NaN;
}

/** @param {Item[]} items @param {string} unit @param {number} dpi */
function tokenForm(items, unit, dpi) {
  const first = items[0].metadata;
  const elevation = first[`${META}/elevation`];
  const side = first[`${META}/side`];
  const size = sizeOf(first[`${META}/size`]);
  input("elevation").value = typeof elevation === "number" ? String(elevation) : "";
  input("side").value = typeof side === "string" ? side : "";
  input("size").value = size === null ? "" : String(size);
  input("cover").checked = first[`${META}/takingCover`] === true;
  /** @type {HTMLElement} */ (document.querySelector('label[for="elevation"]')).textContent = `Elevation (${unit})`;
  // The image's own size, in squares, as the placeholder: the size field is for a token of another.
  const box = imageBox(items[0], frameOf({ dpi }));
  input("size").placeholder = `${Math.max(1, Math.round(box.w))} × ${Math.max(1, Math.round(box.h))} (its image's)`;
  input("elevation").addEventListener("change", () => {
    const v = numberOf("elevation");
    if (Number.isNaN(v)) return message(`Elevation is a number of ${unit} (5 ${unit} a level).`, true);
    write(`${META}/elevation`, () => v);
  });
  input("side").addEventListener("change", () => {
    const v = input("side").value.trim();
    write(`${META}/side`, () => v || undefined);
  });
  input("size").addEventListener("change", () => {
    const v = numberOf("size");
    if (v !== undefined && sizeOf(v) === null) return message("Size is a whole number of squares, 1 to 100 (empty: its image's).", true);
    write(`${META}/size`, () => v);
  });
  input("cover").addEventListener("change", () => {
    const on = input("cover").checked;
    write(`${META}/takingCover`, () => (on ? true : undefined));
  });
}

/**
 * The tag for a drawing's settings: removed when it is no wall, `true` for a plain one, else
 * `{open, bottom, top}` with the fields that are set.
 * @param {{tagged: boolean, open: boolean, bottom?: number, top?: number}} s
 */
function wallTag(s) {
  if (!s.tagged && !s.open && s.bottom === undefined && s.top === undefined) return undefined;
  if (!s.open && s.bottom === undefined && s.top === undefined) return true;
  return { ...(s.open ? { open: true } : {}), ...(s.bottom !== undefined ? { bottom: s.bottom } : {}), ...(s.top !== undefined ? { top: s.top } : {}) };
}

/** @param {Item[]} items @param {string} unit */
function wallForm(items, unit) {
  const tag = items[0].metadata[WALL];
  const obj = /** @type {{open?: unknown, bottom?: unknown, top?: unknown}} */ (tag && typeof tag === "object" ? tag : {});
  input("tagged").checked = Boolean(tag);
  input("open").checked = obj.open === true;
  input("bottom").value = typeof obj.bottom === "number" ? String(obj.bottom) : "";
  input("top").value = typeof obj.top === "number" ? String(obj.top) : "";
  /** @type {HTMLElement} */ (document.querySelector('label[for="bottom"]')).textContent = `Bottom (${unit})`;
  /** @type {HTMLElement} */ (document.querySelector('label[for="top"]')).textContent = `Top (${unit})`;
  if (items.every((i) => i.layer === "FOG")) message("A Dynamic Fog wall: its heights and door count here too.");
  const save = () => {
    const bottom = numberOf("bottom");
    const top = numberOf("top");
    if (Number.isNaN(bottom) || Number.isNaN(top)) return message(`Bottom and top are numbers of ${unit} (empty: none).`, true);
    if (bottom !== undefined && top !== undefined && bottom > top) return message("The bottom is above the top.", true);
    const tagged = input("tagged").checked;
    const value = wallTag({ tagged, open: input("open").checked, bottom, top });
    // A drawing with a door or heights is a wall: the box says so.
    input("tagged").checked = value !== undefined;
    write(WALL, () => value);
  };
  input("tagged").addEventListener("change", () => {
    if (!input("tagged").checked) {
      input("open").checked = false;
      input("bottom").value = "";
      input("top").value = "";
    }
    save();
  });
  for (const id of ["open", "bottom", "top"]) input(id).addEventListener("change", save);
}

OBR.onReady(async () => {
  try {
    const [selection, scale, dpi] = await Promise.all([OBR.player.getSelection(), OBR.scene.grid.getScale(), OBR.scene.grid.getDpi()]);
    const items = (await OBR.scene.items.getItems(selection ?? [])).filter(KIND === "token" ? isToken : isWallDrawing);
    if (items.length === 0) {
      message(KIND === "token" ? "Select a token." : "Select a line, a curve, a path or a shape.");
      return;
    }
    ids = items.map((i) => i.id);
    const unit = scale.parsed.unit || "units";
    if (KIND === "token") tokenForm(items, unit, dpi);
    else wallForm(items, unit);
    /** @type {HTMLElement} */ (document.getElementById(KIND)).hidden = false;
  } catch (err) {
    message(`aoekit: ${err instanceof Error ? err.message : err}`, true);
  }
});
