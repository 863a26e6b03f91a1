// Command browser is aoekit.wasm, the engine for browsers and Node (GOOS=js GOARCH=wasm): it
// registers parse, evaluate, evaluateCells, move, cover, fullAttack, version and the scene
// functions as JavaScript functions that take and return JSON text, and the loader
// web/index.js turns them into the npm package's engine. The functions and their binder are
// wasm/internal/jsapi's, which aoekit-overlay.wasm (wasm/overlay) registers too: both modules
// answer every call from the same code.
//
// Built on its own (for example with Go's wasm_exec.js in a page), the module registers its
// functions on a new global object, globalThis.aoekit. The loader instead hands it an object
// under a handshake name (see main_js.go) so that nothing stays on globalThis.
//
// Every function takes one JSON string (none for version) and returns a string of JSON on
// success (a Uint8Array for evaluateCells) or, on failure, an Error with code, message and, for
// notation errors and a full attack's step errors, at. No call panics out of the module; a panic
// comes back as a bad_request error whose message starts with "internal error: ", as wire
// reports one.
//
// A request is at most 1 MiB of UTF-8 (wasm/internal/limits.MaxBody, the HTTP API's body
// limit): a longer string is refused with too_large from its length alone, before it is copied
// into Go. The module also sets maxBody, that limit, on the object it registers on, and the
// loader refuses a longer request before calling it at all.
package main
