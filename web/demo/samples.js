// @ts-check
// The scene buttons: the samples (the sample, the walled room, the ledge), which ask before they
// replace a scene that is not kept elsewhere (markSafe, replaceWith), and Clear walls.
import { STRESS } from "./constants.js";
import { dom } from "./dom.js";
import { ledgeScene, roomScene, SAMPLE_SELECTED, sampleScene } from "./scenes.js";
import { commit, scene, setScene, ui } from "./state.js";
import { dropBoardScene } from "./engine.js";
import { exportRequest, sceneMessage } from "./io.js";
import { refresh, sceneReplaced } from "./refresh.js";

dom.atkLedge.addEventListener("click", () => replaceWith(() => {
  commit();
  setScene({ ...ledgeScene(), fullAttack: scene.fullAttack }); // the full attack panel is no part of a board: it stays
  dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
  ui.selected = null;
  ui.hoverId = null;
  ui.attack = { attacker: "Knight", target: "Orc", kind: "melee", rules: "dnd35", flying: false, pick: 0 };
  dom.attackSection.open = true;
  commit();
  sceneReplaced();
  sceneMessage("The ledge: Knight stands one level up on a block, Orc below (Undo returns to your scene).", false);
  markSafe();
}));
dom.sample.addEventListener("click", () => replaceWith(() => {
  commit();
  setScene({ ...sampleScene(), fullAttack: scene.fullAttack }); // the full attack panel is no part of a board: it stays
  dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
  ui.selected = { kind: "entity", id: SAMPLE_SELECTED };
  commit();
  sceneReplaced();
  markSafe();
  sceneMessage("The sample scene is back (Undo returns to yours).", false);
}));
dom.sampleRoom.addEventListener("click", () => replaceWith(() => {
  commit();
  setScene({ ...roomScene(), fullAttack: scene.fullAttack }); // the full attack panel is no part of a board: it stays
  dropBoardScene(); // a new board: a new scene of the engine, not an edit of the old one
  ui.selected = { kind: "entity", id: "Guard" };
  ui.hoverId = null;
  ui.wall = null;
  // Set up, not opened: the Attack cover and Forced movement sections show them when opened.
  ui.attack = { attacker: "Archer", target: "Cultist", kind: "ranged", rules: "tdgs", flying: false, pick: 0 };
  commit();
  sceneReplaced();
  markSafe();
  sceneMessage("The walled room: the burst fills the room and leaves only through the open door; double-click the door to close it. Open Attack cover for the Archer's shot across a wall, Forced movement for the Guard's push into one (Undo returns to your scene).", false);
}));

/**
 * The request of the last scene kept elsewhere — a sample, a file imported or exported — as
 * JSON (localStorage keeps it with the scene): a scene still equal to it holds no work a sample
 * would lose, and is replaced without asking.
 */
let safeRequest = "";
const SAFE_KEY = "aoekit-demo/safe/v1";
/** At the start: the request kept with a stored scene, or none (the sample is marked by markSafe). @param {boolean} stored */
export function restoreSafe(stored) {
  try {
    safeRequest = stored ? localStorage.getItem(SAFE_KEY) ?? "" : "";
  } catch {
    safeRequest = "";
  }
}
export function markSafe() {
  safeRequest = JSON.stringify(exportRequest());
  if (STRESS) return;
  try {
    localStorage.setItem(SAFE_KEY, safeRequest);
  } catch {
    // private mode or a full quota: asked once more than needed
  }
}
/** @type {null | (() => void)} what Replace it in the dialog does */
let pendingReplace = null;
/**
 * Replaces the scene with a sample (`load`): at once when the scene is kept elsewhere, else once
 * the user says so (the dialog; Undo brings the scene back in any case).
 * @param {() => void} load
 */
function replaceWith(load) {
  if (!ui.engine) return;
  if (JSON.stringify(exportRequest()) === safeRequest) {
    load();
    return;
  }
  pendingReplace = load;
  dom.confirmReplace.returnValue = "";
  dom.confirmReplace.showModal();
}
dom.confirmReplace.addEventListener("close", () => {
  const load = pendingReplace;
  pendingReplace = null;
  if (load && dom.confirmReplace.returnValue === "yes") load();
});

dom.clearWalls.addEventListener("click", () => {
  commit();
  scene.obstacles = [];
  scene.walls = [];
  ui.wall = null;
  ui.hoverWall = null;
  commit();
  refresh();
});
