//go:build js && wasm && overlaycrash

package main

import (
	"os"
	"syscall/js"
)

// A test build only (go build -tags overlaycrash, web/test/overlay.test.mjs): a global function
// that ends the Go program, so that the test can see the loader replace a dead instance and
// attach its overlays again.
func init() {
	js.Global().Set("__aoekitOverlayCrash", js.FuncOf(func(js.Value, []js.Value) any {
		os.Exit(3)
		return nil
	}))
}
