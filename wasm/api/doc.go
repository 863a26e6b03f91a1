// Package api is aoekit's HTTP door: one http.Handler serving the CONTRACT endpoints with JSON
// errors and CORS, run natively by wasm/worker and on Cloudflare Workers through
// github.com/syumai/workers. Every body goes through wasm/wire, so its answers are byte for
// byte those of the other doors.
package api
