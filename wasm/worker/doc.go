// Command worker serves aoekit's HTTP API (wasm/api). Built natively, it listens on
// 127.0.0.1:${PORT:-8787} (-addr to change it), logs one line per request and shuts down
// gracefully on SIGINT or SIGTERM. Built with GOOS=js GOARCH=wasm, it runs the same handler on
// Cloudflare Workers through github.com/syumai/workers, one Go instance per isolate with
// glue/worker.mjs (see README.md, worker.mk and wrangler.toml).
package main
