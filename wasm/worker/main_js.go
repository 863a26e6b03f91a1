//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/syumai/workers"

	"github.com/aoekit/aoekit/wasm/api"
)

// main serves the API under syumai/workers in one of two ways, chosen by the glue:
//   - glue/worker.mjs (make worker's default) sets binding.keepAlive: this Go instance stays up
//     and serves every request of the isolate, the glue starting a new one only if it exits;
//   - the glue workers-assets-gen generates (build/worker/worker-fresh.mjs) starts a fresh Go
//     instance for every request: workers.Serve returns after one response.
func main() {
	h := api.New()
	if js.Global().Get("context").Get("binding").Get("keepAlive").Truthy() {
		workers.ServeNonBlock(h)
		workers.Ready()
		select {}
	}
	workers.Serve(h)
}
