# wasm/worker: aoekit's HTTP API, natively (serve-api) and on Cloudflare Workers (worker).
# Included by the top Makefile, which runs $(TEST_TARGETS) on `make test`.

WORKER_OUT   ?= build/worker
IDENTITY_OUT ?= build/identity.json
API_FLAGS    ?=
LOAD_URL     ?= http://127.0.0.1:8787
LOAD_FLAGS   ?= -n 20000 -c 32

TEST_TARGETS  += test-wire-js test-worker
BUILD_TARGETS += worker

.PHONY: worker serve-api serve-worker test-worker test-wire-js identity loadtest bench-instance bench-memory

# The Workers bundle: the glue of github.com/syumai/workers (runtime.mjs, wasm_exec.js and
# worker.mjs; the generator's version is pinned by go.mod's tool directive, and it empties
# $(WORKER_OUT) first), then the handler built for js/wasm as app.wasm beside it. The entry,
# worker.mjs, is wasm/worker/glue/worker.mjs, which keeps one Go instance per isolate and hands it
# each request whole (bridge_js.go); the generated one, a fresh Go instance per request served by
# syumai/workers' own bridge, stays as worker-fresh.mjs (for comparison).
# Publish with `npx wrangler@3 deploy --config wasm/worker/wrangler.toml`.
worker:
	$(GO) tool workers-assets-gen -mode=go -runtime=cloudflare -o $(WORKER_OUT)
	mv $(WORKER_OUT)/worker.mjs $(WORKER_OUT)/worker-fresh.mjs
	cp wasm/worker/glue/worker.mjs $(WORKER_OUT)/worker.mjs
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' $(WASM_GCFLAGS) -o $(WORKER_OUT)/app.wasm ./wasm/worker
	$(GO) run ./wasm/internal/datamerge/cmd/datamerge -q $(WORKER_OUT)/app.wasm
	@echo "worker: $(WORKER_OUT)/app.wasm $$(wc -c < $(WORKER_OUT)/app.wasm) bytes, $$(gzip -9c $(WORKER_OUT)/app.wasm | wc -c) gzipped"

# The API on 127.0.0.1:${PORT:-8787}; API_FLAGS='-addr :8787' to listen on every interface.
serve-api:
	$(GO) run ./wasm/worker $(API_FLAGS)

# The Workers build in workerd (miniflare), offline, on 127.0.0.1:${PORT:-8788}.
serve-worker: worker $(NODE_MODULES)
	node wasm/worker/bench/miniflare.mjs

# The cross-door identity set: the Go door's answer to every request of wasm/identity/requests.json.
identity:
	@mkdir -p $(dir $(IDENTITY_OUT))
	$(GO) run ./wasm/identity -o $(IDENTITY_OUT)

# End to end: the Workers build in miniflare, against the CONTRACT and the identity set. The Go
# tests of wasm/wire, wasm/api, wasm/worker and wasm/identity run in test-go.
test-worker: worker $(NODE_MODULES)
	node --test wasm/worker/e2e/

# The codec's tests (byte identity with encoding/json included) under js/wasm, where the browser
# module and the worker run it.
test-wire-js:
	GOOS=js GOARCH=wasm $(GO) test -short -count=1 -exec="$(WASM_EXEC)" ./wasm/wire

# Not part of `make test`: a bounded load test against a running server (serve-api or serve-worker).
loadtest:
	$(GO) run ./wasm/worker/loadtest -url $(LOAD_URL) $(LOAD_FLAGS)

# Not part of `make test`: what a fresh Go instance per request costs (Node, no workerd).
bench-instance: worker
	node wasm/worker/bench/instance.mjs

# Not part of `make test`: what the Workers build holds and how fast it answers over MEMORY_FLAGS
# (default 100 000 evaluate requests, 8 at once), in workerd (issue 16).
MEMORY_FLAGS ?= -n 100000 -c 8
bench-memory: worker $(NODE_MODULES)
	node wasm/worker/bench/memory.mjs --dir $(WORKER_OUT) $(MEMORY_FLAGS)
