// @ts-check
// The page's elements, each looked up once and checked to be of its class: the board's layer
// canvases and `dom`, every control the demo reads or writes.

// ---------------------------------------------------------------------------------------------
// DOM

/**
 * The element with this id, checked to be of the expected class.
 * @template {Element} T
 * @param {string} id
 * @param {{new (): T, prototype: T}} type
 * @returns {T}
 */
function $(id, type) {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`demo: #${id} is missing or not a ${type.name}`);
  return el;
}
/** The board's top layer (handles, tools, range, UI), which takes the pointer; under it the result (the overlay's) and the cached board. */
export const canvas = $("board", HTMLCanvasElement);
/** The still layer: the board, obstacles, grid, thin walls and plain creatures, drawn again only when they change. */
export const stillCanvas = $("board-still", HTMLCanvasElement);
/** The result layer: the Go overlay's canvas (attached by attachResult). */
export const resultCanvas = $("board-result", HTMLCanvasElement);
/** Over the board canvas, the labels: the badges (cover grades, rolls, "in own area") and, above them, the names (drawLabels). */
export const badgesCanvas = $("board-badges", HTMLCanvasElement);
export const namesCanvas = $("board-names", HTMLCanvasElement);
export const dom = {
  wrap: $("board-wrap", HTMLDivElement), note: $("board-note", HTMLParagraphElement),
  notation: $("notation", HTMLInputElement), notationError: $("notation-error", HTMLDivElement),
  directionNote: $("direction-note", HTMLParagraphElement), linesAll: $("lines-all", HTMLInputElement),
  legendForce: $("legend-force", HTMLLIElement), wallOptions: $("wall-options", HTMLDivElement),
  confirmReplace: $("confirm-replace", HTMLDialogElement), helpHeading: $("h-help", HTMLHeadingElement),
  presets: $("presets", HTMLSelectElement), info: $("template-info", HTMLParagraphElement),
  rules: $("rules", HTMLSelectElement), rulesNote: $("rules-note", HTMLSpanElement),
  range: $("range", HTMLInputElement), rangeNote: $("range-note", HTMLSpanElement), rangeError: $("range-error", HTMLDivElement),
  sourceRow: $("source-row", HTMLDivElement), source: $("source", HTMLInputElement), sourceText: $("source-text", HTMLSpanElement),
  legendGrades: $("legend-grades", HTMLLIElement), legendDnd5e: $("legend-grades-dnd5e", HTMLLIElement), legendPf2e: $("legend-grades-pf2e", HTMLLIElement),
  trait: $("trait", HTMLSelectElement), excludeCaster: $("exclude-caster", HTMLInputElement),
  selectiveNote: $("selective-note", HTMLParagraphElement),
  barriers: $("barriers", HTMLSelectElement), cover: $("cover", HTMLSelectElement), applyCover: $("apply-cover", HTMLSelectElement),
  shapes: Array.from(document.querySelectorAll("#palette button.shape"), (b) => /** @type {HTMLButtonElement} */ (b)),
  status: $("status", HTMLParagraphElement), targets: $("targets", HTMLOListElement), targetsEmpty: $("targets-empty", HTMLParagraphElement),
  tokens: $("tokens", HTMLUListElement), addToken: $("add-token", HTMLButtonElement),
  editor: $("editor", HTMLFormElement), editorTitle: $("editor-title", HTMLLegendElement), editorError: $("editor-error", HTMLDivElement),
  edId: $("ed-id", HTMLInputElement), edSide: $("ed-side", HTMLSelectElement), edSize: $("ed-size", HTMLInputElement),
  edHeight: $("ed-height", HTMLInputElement), edZ: $("ed-z", HTMLInputElement), edFacing: $("ed-facing", HTMLSelectElement),
  edDefence: $("ed-defence", HTMLInputElement), edProne: $("ed-prone", HTMLInputElement),
  makeCaster: $("make-caster", HTMLButtonElement), removeToken: $("remove-token", HTMLButtonElement),
  rolls: $("rolls", HTMLInputElement), rollsFields: $("rolls-fields", HTMLDivElement), rollsError: $("rolls-error", HTMLDivElement),
  stat: $("stat", HTMLInputElement), mods: $("mods", HTMLInputElement), luck: $("luck", HTMLInputElement), seed: $("seed", HTMLInputElement),
  reroll: $("reroll", HTMLButtonElement),
  moveSection: $("move-section", HTMLDetailsElement), moveKind: $("move-kind", HTMLSelectElement), moveDistance: $("move-distance", HTMLInputElement),
  moveApply: $("move-apply", HTMLButtonElement), moveInfo: $("move-info", HTMLParagraphElement),
  slideRow: $("slide-row", HTMLDivElement), slideLay: $("slide-lay", HTMLButtonElement), slidePop: $("slide-pop", HTMLButtonElement), slideClear: $("slide-clear", HTMLButtonElement),
  originSquareRow: $("origin-square-row", HTMLDivElement), originSquareInfo: $("origin-square-info", HTMLSpanElement), originSquareClear: $("origin-square-clear", HTMLButtonElement),
  exportButton: $("export", HTMLButtonElement), importButton: $("import", HTMLButtonElement), importFile: $("import-file", HTMLInputElement),
  sample: $("sample", HTMLButtonElement), clearWalls: $("clear-walls", HTMLButtonElement), sceneMessage: $("scene-message", HTMLDivElement),
  undo: $("undo", HTMLButtonElement), redo: $("redo", HTMLButtonElement),
  zoomIn: $("zoom-in", HTMLButtonElement), zoomOut: $("zoom-out", HTMLButtonElement), zoomFit: $("zoom-fit", HTMLButtonElement),
  zoomLabel: $("zoom-label", HTMLOutputElement),
  levelUp: $("level-up", HTMLButtonElement), levelDown: $("level-down", HTMLButtonElement), levelLabel: $("level-label", HTMLOutputElement),
  levels: $("levels", HTMLInputElement),
  rotl: $("rotl", HTMLButtonElement), rotr: $("rotr", HTMLButtonElement), turnLabel: $("turn-label", HTMLOutputElement),
  attackSection: $("attack-section", HTMLDetailsElement), atkAttacker: $("atk-attacker", HTMLSelectElement), atkTarget: $("atk-target", HTMLSelectElement),
  atkKind: $("atk-kind", HTMLSelectElement), atkRules: $("atk-rules", HTMLSelectElement), atkFlying: $("atk-flying", HTMLInputElement),
  atkPick: $("atk-pick", HTMLButtonElement), atkLedge: $("atk-ledge", HTMLButtonElement), atkError: $("atk-error", HTMLDivElement),
  atkResult: $("atk-result", HTMLParagraphElement),
  faSection: $("full-attack-section", HTMLDetailsElement), faBab: $("fa-bab", HTMLInputElement),
  faFeats: Array.from(document.querySelectorAll("input.fa-feat"), (b) => /** @type {HTMLInputElement} */ (b)),
  faHands: $("fa-hands", HTMLOListElement), faAddHand: $("fa-add-hand", HTMLButtonElement), faRemoveHand: $("fa-remove-hand", HTMLButtonElement),
  faNaturals: $("fa-naturals", HTMLUListElement), faNatId: $("fa-nat-id", HTMLInputElement), faNatPrimary: $("fa-nat-primary", HTMLInputElement),
  faNatHand: $("fa-nat-hand", HTMLSelectElement), faNatAdd: $("fa-nat-add", HTMLButtonElement),
  faTwoWeapon: $("fa-two-weapon", HTMLInputElement), faRapidShot: $("fa-rapid-shot", HTMLInputElement),
  faCombatantError: $("fa-combatant-error", HTMLDivElement),
  faSteps: $("fa-steps", HTMLOListElement), faStepsEmpty: $("fa-steps-empty", HTMLParagraphElement),
  faPop: $("fa-pop", HTMLButtonElement), faClear: $("fa-clear", HTMLButtonElement), faError: $("fa-error", HTMLDivElement),
  faNext: $("fa-next", HTMLUListElement), faNextEmpty: $("fa-next-empty", HTMLParagraphElement), faDrops: $("fa-drops", HTMLDivElement),
  faDrawItem: $("fa-draw-item", HTMLSpanElement), faDrawHand: $("fa-draw-hand", HTMLSelectElement),
  faDrawPair: $("fa-draw-pair", HTMLSpanElement), faDrawHand2: $("fa-draw-hand2", HTMLSelectElement), faDraw: $("fa-draw", HTMLButtonElement),
  faStatus: $("fa-status", HTMLParagraphElement),
  help: $("help", HTMLDialogElement), helpButton: $("help-button", HTMLButtonElement),
  tools: Array.from(document.querySelectorAll("button.tool"), (b) => /** @type {HTMLButtonElement} */ (b)),
  wallDoor: $("wall-door", HTMLButtonElement), wallFence: $("wall-fence", HTMLButtonElement),
  templates: $("templates", HTMLOListElement), templatesCount: $("templates-count", HTMLSpanElement),
  wallDelete: $("wall-delete", HTMLButtonElement), wallInfo: $("wall-info", HTMLOutputElement), sampleRoom: $("sample-room", HTMLButtonElement),
};
