// Command worker serves aoekit's HTTP API (wasm/api). Built natively, it listens on
// 127.0.0.1:${PORT:-8787} (-addr to change it), logs one line per request and shuts down
// gracefully on SIGINT or SIGTERM. Built with GOOS=js GOARCH=wasm, it runs the same handler on
// Cloudflare Workers: glue/worker.mjs keeps one Go instance per isolate and hands it each request
// whole (bridge.go, bridge_js.go); github.com/syumai/workers generates the rest of the glue and
// serves the fresh-instance-per-request mode (see README.md, worker.mk and wrangler.toml). Both
// builds serve the handler behind framing.go, which gives odd requests one answer in both.
package main
