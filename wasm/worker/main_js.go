//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/syumai/workers"

	"github.com/aoekit/aoekit/wasm/api"
)

// main serves the API on Cloudflare Workers in one of two ways, chosen by the glue:
//   - glue/worker.mjs (make worker's default) sets binding.keepAlive: this Go instance stays up
//     and serves every request of the isolate through binding.serve (bridge_js.go: the glue
//     reads the body, Go answers into memory), the glue starting a new one only if it exits;
//   - the glue workers-assets-gen generates (build/worker/worker-fresh.mjs) starts a fresh Go
//     instance for every request, served by github.com/syumai/workers' binding.handleRequest:
//     workers.Serve returns after one response.
func main() {
	h := newHandler(api.Options{})
	ctx := js.Global().Get("context")
	binding := ctx.Get("binding")
	if binding.Get("keepAlive").Truthy() {
		binding.Set("serve", serveFunc(h))
		if env := ctx.Get("env"); env.Type() == js.TypeObject && env.Get("AOEKIT_DEBUG_GO").Truthy() {
			binding.Set("debug", debugFunc())
		}
		workers.Ready()
		select {}
	}
	workers.Serve(h)
}
