//go:build !(js && wasm)

package main

import "os"

// main explains itself: the module runs only as WebAssembly in a browser.
func main() {
	os.Stderr.WriteString("aoekit/wasm/overlay: build with GOOS=js GOARCH=wasm (make overlay)\n")
	os.Exit(2)
}
