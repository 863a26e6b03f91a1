//go:build !(js && wasm)

package main

import "os"

// main explains itself: the module runs only as WebAssembly under a JavaScript host.
func main() {
	os.Stderr.WriteString("aoekit/wasm/browser: build with GOOS=js GOARCH=wasm (make build)\n")
	os.Exit(2)
}
