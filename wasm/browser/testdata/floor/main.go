//go:build js && wasm

// Command floor is the smallest useful Go js/wasm module — one syscall/js function — against
// which make size measures aoekit.wasm (the goal: at most 1.3 times its brotli size).
package main

import "syscall/js"

func main() {
	js.Global().Set("floor", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	select {}
}
