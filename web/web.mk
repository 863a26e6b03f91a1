# The demo site (static/), built from web/: the package's loaders and modules beside the demo
# page (web/demo: index.html, demo.css and the page's ES modules, every *.js) — the overlay's
# (overlay.js, aoekit-overlay.wasm: the engine and the renderer, which the demo runs on) and
# the engine-only one's (index.js, aoekit.wasm) — with brotli and gzip copies
# (name.br, name.gz) of the large files for servers that send them as they are (the dev server
# does; so can most static hosts). Included by the top Makefile.

DEMO_ADDR ?= 127.0.0.1:8080

BUILD_TARGETS += static
TEST_TARGETS  += test-demo-types

.PHONY: static demo test-demo-types

static: browser overlay-wasm
	@mkdir -p static/demo
	@mkdir -p static/internal
	cp web/index.js web/index.d.ts web/aoekit.wasm web/wasm_exec.js static/
	cp web/overlay.js web/overlay.d.ts web/aoekit-overlay.wasm static/
	cp web/internal/wasm.js static/internal/
	cp web/demo/index.html web/demo/demo.css web/demo/*.js static/demo/
	printf '<!doctype html><meta charset="utf-8"><title>aoekit</title><link rel="icon" href="data:,"><meta http-equiv="refresh" content="0; url=demo/"><a href="demo/">aoekit demo</a>\n' > static/index.html
	$(GO) run ./wasm/devserver -dir static -precompress

# Build everything the demo needs and serve it on http://$(DEMO_ADDR)/ (Ctrl-C stops it).
demo: static
	$(GO) run ./wasm/devserver -dir static -addr $(DEMO_ADDR)

# The demo's modules (web/demo/*.js: demo.js and the modules it imports, web/demo/README.md)
# type-checked, strict, against the package's own declarations (web/demo/tsconfig.json); the
# screenshots script (web/demo/screenshots.mjs) as the Node script it is.
test-demo-types: $(NODE_MODULES)
	npx --no-install tsc -p web/demo
	npx --no-install tsc -p web/demo/tsconfig.screenshots.json
