// Command overlay is aoekit-overlay.wasm: the engine and a renderer in one WebAssembly module
// for browsers (GOOS=js GOARCH=wasm), one Go runtime for both. It registers the engine's whole
// JavaScript API exactly as aoekit.wasm does, from the same code (wasm/internal/jsapi: parse,
// evaluate, evaluateCells, move, cover, fullAttack, version and the scene functions), and draws
// answers straight onto a <canvas> through honnef.co/go/js/dom/v2 — the affected cells and the
// template's outline, thin walls and doors, rings on the tokens by side and by affected or not,
// cover badges and cover lines — in the demo's visual language, from the answer Go holds: a
// draw can evaluate a request against one of its engine's scenes, so that per frame only the
// request crosses into the module, and only a summary crosses back. It is a build of its own so
// that the engine-only module, aoekit.wasm, stays small: only the files of this package built
// for js/wasm import dom/v2.
//
// It draws on an OffscreenCanvas as well, in a worker (web/engine-worker.js, for the worker
// engine's attachOverlay): dom/v2's canvas and context types only wrap a js.Value and call its
// methods by name, which an OffscreenCanvas and its 2-D context have. What it reads of a
// <canvas> that an OffscreenCanvas lacks — its tag, its style, its laid-out size — is not read
// for one, and a worker has no window's devicePixelRatio (1 then): options.width, height and
// devicePixelRatio, which the page measures, stand for them.
//
// The loader web/overlay.js (attachOverlay, loadOverlay) hands main an object under a handshake
// name, as web/index.js does for aoekit.wasm; built on its own, the module registers on a new
// global, globalThis.aoekitOverlay. Either way it registers aoekit.wasm's functions (and
// maxBody, the largest request in bytes of UTF-8) and its own:
//
//	attach(canvas, options) → handle (a number)
//	draw(handle, requestJSON, view?, sceneId?) → summary JSON text
//	result(handle) → the last draw's answer, JSON text, or null
//	clear(handle), detach(handle)
//	cellAt(handle, px, py) → {x, y}; pixelOf(handle, x, y) → {x, y}
//
// all bound by jsapi's one binder: every function returns, on failure, an Error with code,
// message and (when the error has them) field and at, exactly as aoekit.wasm's functions do; a
// panic is recovered in each of them and comes back as a bad_request whose message starts with
// "internal error: ". Nothing panics out of the module, and main never returns.
//
// The files without a build constraint (geometry, settings, the display list, the summary) are
// plain Go, tested natively; the files built for js/wasm only read JavaScript values and replay
// the display list on the canvas.
package main
