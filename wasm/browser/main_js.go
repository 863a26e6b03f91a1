//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/aoekit/aoekit/wasm/internal/jsapi"
)

// handshake is the global under which the loader (web/index.js) hands main the object to
// register on; the loader deletes it as soon as main has returned control.
const handshake = "__aoekit"

func main() {
	jsapi.Register(target(), exports)
	select {} // keep the functions alive: JavaScript calls them while main waits
}

// target returns the object the loader handed over, or a new globalThis.aoekit without one.
func target() js.Value {
	if t := js.Global().Get(handshake); t.Type() == js.TypeObject {
		return t
	}
	t := js.Global().Get("Object").New()
	js.Global().Set("aoekit", t)
	return t
}
