// Package jsapi is the engine's JavaScript API as a WebAssembly module registers it: the table
// of exports — parse, evaluate, evaluateCells, move, cover, fullAttack, version and the scene
// functions — and the one binder that turns each into a JavaScript function (Register, under
// js/wasm). Both modules register it from the same code: aoekit.wasm (wasm/browser) alone, and
// aoekit-overlay.wasm (wasm/overlay) with its drawing functions beside it, so that the two
// answer every call exactly alike.
//
// Every function takes one JSON string (none for version; a scene's id first for a scene's) and
// returns a string of JSON on success (a Uint8Array for the packed ones: evaluateCells' cells,
// and evaluate's result split into its JSON without the cells and the cells packed, which the
// loader puts back together, see split) or, on failure, an Error with code, message and, when
// the error has them, field and at. No call panics out of
// the module: each export has one recover, and a panic comes back as a bad_request error whose
// message starts with "internal error: ", as wire reports one.
//
// A request is at most 1 MiB of UTF-8 (wasm/internal/limits.MaxBody, the HTTP API's body
// limit): a longer string is refused with too_large from its length alone, before it is copied
// into Go. Register also sets maxBody, that limit, on the object it registers on, and the
// loaders refuse a longer request before calling it at all.
//
// The loaders call these functions directly (direct_js.go): the module exports aoekit_in,
// aoekit_call and aoekit_out itself (go:wasmexport), the request's bytes go into its memory and
// the answer's come out of it, with no js.Value made on the way. The answers and errors are
// those of the functions Register sets, which stay for any other caller; a call costs some
// 3 µs in Node where one through syscall/js cost 14.
//
// The files without a build constraint (the exports, the scene table) are plain Go, tested
// natively; the binder reads and makes JavaScript values, and is built for js/wasm only.
package jsapi
