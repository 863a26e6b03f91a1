// Package limits holds the bounds every door of aoekit shares: the HTTP API (wasm/api) and the
// WebAssembly module (wasm/browser, whose loader web/index.js reads the same number from it).
package limits

// MaxBody is the largest request any door accepts, in bytes of JSON (UTF-8): 1 MiB. Past it the
// HTTP API answers 413 and the module throws, both with the code too_large.
const MaxBody = 1 << 20

// MaxBodyText is MaxBody as messages name it.
const MaxBodyText = "1 MiB (1048576 bytes)"
