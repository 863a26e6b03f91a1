// @ts-check
// The update: refresh asks the engine, then draws the board and the panel; sceneReplaced brings the
// fields and the view after undo, redo, an import or a sample; fitTool offers the tools the
// template and the sections use.
import { dom } from "./dom.js";
import { draw } from "./draw.js";
import { dropPresses, findEntity, scene, ui } from "./state.js";
import { parseAs, placementOf } from "./requests.js";
import { evaluateScene } from "./engine.js";
import { renderView, resize } from "./view.js";
import { renderPanel, syncFields } from "./panel.js";
import { setTool } from "./edit.js";
import { evaluatePlaced } from "./templates.js";

// ---------------------------------------------------------------------------------------------
// Refresh: ask the engine, then draw the board and the panel.

export function refresh() {
  const t0 = performance.now();
  evaluateScene();
  evaluatePlaced();
  ui.timing.engine = performance.now() - t0;
  renderView();
  draw();
  renderPanel();
}

/** After undo, redo, import or a sample: fields follow the scene. */
export function sceneReplaced() {
  ui.notationError = null;
  ui.boardNote = ""; // a passing message was about the scene replaced
  if (ui.selected) {
    const sel = ui.selected;
    if (sel.kind === "entity" && !findEntity(sel.id)) ui.selected = null;
  }
  dropPresses();
  ui.drawing = null;
  ui.hoverWall = null;
  if (ui.wall !== null && ui.wall >= scene.walls.length) ui.wall = null;
  if (ui.engine) ui.template = parseAs(ui.engine, scene.template, scene.rules);
  fitTool();
  syncFields();
  resize();
  refresh();
}

/** The Wall squares tool belongs to wall templates: offer it there, and only there. */
export function fitTool() {
  const wall = ui.template !== null && placementOf(ui.template, scene) === "wall";
  const pathButton = dom.tools.find((b) => b.dataset.tool === "path");
  if (pathButton) pathButton.hidden = !wall;
  if (wall && ui.tool === "move") setTool("path");
  if (!wall && ui.tool === "path") setTool("move");
  const selective = scene.trait === "selective";
  const spareButton = dom.tools.find((b) => b.dataset.tool === "spare");
  if (spareButton) spareButton.hidden = !selective;
  if (!selective && ui.tool === "spare") setTool("move");
  if (ui.tool === "slide" && !(dom.moveSection.open && scene.force.kind === "slide")) setTool("move");
}
