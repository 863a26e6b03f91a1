package main

import "github.com/aoekit/aoekit/wasm/internal/jsapi"

// exports lists what the module registers: the engine's functions and the scene functions
// (wasm/internal/jsapi, which aoekit-overlay.wasm registers too).
var exports = jsapi.Exports
