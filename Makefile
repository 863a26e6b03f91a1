# aoekit — every command a developer and CI need. `make test` runs every test there is.
GO       ?= go
GOROOT   := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm/go_js_wasm_exec
export GOFLAGS := -buildvcs=false

# The npm packages the tests use (playwright-core, typescript, vite, miniflare, Foundry's
# declarations for the type-check, rot-js and fast-voxel-raycast for make bench), installed by
# `npm ci` from the committed lock file whenever it is newer than what is installed: a fresh
# clone's `make test` sets itself up. Go modules download on their own.
NODE_MODULES := node_modules/.package-lock.json
$(NODE_MODULES): package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

# Each door adds its own targets to these lists in its .mk file.
TEST_TARGETS  := vet test-go
BUILD_TARGETS :=

-include wasm/browser/browser.mk
-include wasm/overlay/overlay.mk
-include wasm/worker/worker.mk
-include web/web.mk
-include web/foundry/foundry.mk

.PHONY: test vet test-go build bench fuzz
test: $(TEST_TARGETS)
	@echo "make test: all passed"

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './node_modules/*'))" || { echo "gofmt needed:"; gofmt -l .; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

test-go:
	$(GO) test -count=1 ./...

build: $(BUILD_TARGETS)

# Benchmarks, not timed tests (issue 11): one table of the engine's benchmark scenes natively,
# through the module in Node and in headless Chromium (skipped, loudly, where it is absent),
# peers on the same boards (rot-js, fast-voxel-raycast), the module's size and its cold start,
# also written to build/bench/bench.json; about 3 minutes. The boards are the Go benchmarks'
# own, written by core/engine's TestDumpBenchBoards. To compare raw Go runs with benchstat:
# go test -run '^$' -bench . -benchmem ./core/...
bench: browser $(NODE_MODULES)
	BENCH_DUMP=$(CURDIR)/build/bench/boards $(GO) test -count=1 -run '^TestDumpBenchBoards$$' ./core/engine
	GO="$(GO)" node web/bench/bench.mjs

# A short run of every fuzz target (FUZZTIME=1m make fuzz for longer). A package whose tests do
# not build fails the run (its targets are not silently skipped), and so does any func Fuzz… of
# a package's test files that was not run (say, behind a build tag).
FUZZTIME ?= 10s
fuzz:
	@ran=0; \
	for pkg in $$($(GO) list ./...); do \
	  list=$$($(GO) test -list '^Fuzz' $$pkg 2>&1) || { echo "fuzz: cannot list the fuzz targets of $$pkg:"; echo "$$list"; exit 1; }; \
	  for f in $$(echo "$$list" | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; ran=$$((ran + 1)); \
	  done; done; \
	declared=$$(for d in $$($(GO) list -f '{{.Dir}}' ./...); do cat $$d/*_test.go 2>/dev/null; done | grep -cE '^func Fuzz[A-Za-z0-9_]*\(' ); \
	echo "fuzz: ran $$ran of the $$declared fuzz targets declared"; \
	test $$ran -eq $$declared || { echo "fuzz: some fuzz targets were not run"; exit 1; }
