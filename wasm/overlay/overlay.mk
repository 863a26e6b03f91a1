# The overlay module (wasm/overlay: the engine and a canvas renderer through
# honnef.co/go/js/dom/v2) and its loader web/overlay.js: included by the top Makefile, which
# defines GO, GOROOT and NODE_MODULES and runs TEST_TARGETS and BUILD_TARGETS.

OVERLAY_WASM := web/aoekit-overlay.wasm
OVERLAY_ENV  := GOOS=js GOARCH=wasm

BUILD_TARGETS += overlay
TEST_TARGETS  += test-overlay

.PHONY: overlay overlay-wasm overlay-size test-overlay test-overlay-deps

# The module and its size beside the engine-only module's (overlay-size).
overlay: overlay-wasm overlay-size

# The module, and the wasm_exec.js of the Go that built it (web/overlay.js imports the one
# web/index.js does).
overlay-wasm:
	$(OVERLAY_ENV) $(GO) build -trimpath -ldflags='-s -w' $(WASM_GCFLAGS) -o $(OVERLAY_WASM) ./wasm/overlay
	$(GO) run ./wasm/internal/datamerge/cmd/datamerge -q $(POSTLINK) $(OVERLAY_WASM)
	install -m 0644 $(GOROOT)/lib/wasm/wasm_exec.js web/wasm_exec.js

# Raw and brotli -q 11 sizes of the overlay module and of the engine-only module, built from the
# same sources (make browser), and the difference: what the renderer costs a page that loads
# it. It fails past OVERLAY_MAX_BROTLI (issue 30: caps in bytes, so that the module cannot grow
# unnoticed), set a little above the module as it stood: 772,139 B with the engine's quoting
# (core/internal/num) and the cold-path flags (WASM_GCFLAGS, browser.mk), from 775,482 B; then
# without strconv's quoting, ParseFloat and Atoi (options quoted by wire.Quote, summaries written
# by wire.AppendString, canvas colours read by core/decimal, scene ids by digits: the overlay's
# TestLinksNoQuoting), -11.4 KB: 760,701 B; with browser.mk's grid and notation changes, 755,073 B;
# the planner's add and badRequest out of line (some 60 inlined copies; BenchmarkPlan unchanged,
# natively and under Node), 750,665 B; its file and line tables blanked after linking
# (browser.mk's POSTLINK), -70.6 KB: 680,110 B, under OVERLAY_GOAL_BROTLI; with the engine's
# cold-start changes (browser.mk), 681,717 B.
OVERLAY_MAX_BROTLI  ?= 683000
OVERLAY_GOAL_BROTLI ?= 700000
overlay-size: overlay-wasm browser
	@command -v brotli >/dev/null || { echo "overlay-size: needs the brotli command (apt-get install brotli)"; exit 1; }
	@o=$$(wc -c < $(OVERLAY_WASM)); ob=$$(brotli -q 11 -c $(OVERLAY_WASM) | wc -c); \
	e=$$(wc -c < $(BROWSER_WASM)); eb=$$(brotli -q 11 -c $(BROWSER_WASM) | wc -c); \
	printf '%-26s raw %8d B   brotli -q 11 %7d B\n' $(OVERLAY_WASM) $$o $$ob $(BROWSER_WASM) $$e $$eb; \
	echo "the overlay costs $$((o - e)) B raw, $$((ob - eb)) B brotli, over the engine-only module"; \
	if test $$ob -le $(OVERLAY_GOAL_BROTLI); then echo "overlay brotli $$ob B: goal <= $(OVERLAY_GOAL_BROTLI) B met"; \
	else echo "overlay brotli $$ob B: goal <= $(OVERLAY_GOAL_BROTLI) B not met, over by $$((ob - $(OVERLAY_GOAL_BROTLI))) B"; fi; \
	test $$ob -le $(OVERLAY_MAX_BROTLI) || { echo "overlay-size: $(OVERLAY_WASM) is $$ob B brotli, past the cap OVERLAY_MAX_BROTLI = $(OVERLAY_MAX_BROTLI) B"; exit 1; }

# dom/v2 must stay out of the engine-only modules and out of every native build; fmt,
# encoding/json, reflect, os and net/http out of the overlay (as out of aoekit.wasm: see
# wasm/browser/doc.go).
test-overlay-deps:
	@bad=$$($(OVERLAY_ENV) $(GO) list -deps ./wasm/overlay | grep -xE 'fmt|encoding/json|reflect|os|net/http' || true); \
	test -z "$$bad" || { echo "wasm/overlay imports $$bad"; exit 1; }
	@bad=$$($(OVERLAY_ENV) $(GO) list -deps ./wasm/browser ./wasm/worker | grep '^honnef.co/' || true); \
	test -z "$$bad" || { echo "the engine-only modules link $$bad (only wasm/overlay may)"; exit 1; }
	@bad=$$($(GO) list -deps ./... | grep '^honnef.co/' || true); \
	test -z "$$bad" || { echo "a native build links $$bad (only wasm/overlay's js/wasm files may import it)"; exit 1; }

# The overlay in headless Chromium, and CONTRACT's example of it (test-go runs its Go tests
# natively). The test builds the module it serves from the sources itself; overlay-wasm also
# puts wasm_exec.js in place.
test-overlay: overlay-wasm test-overlay-deps $(NODE_MODULES)
	GO="$(GO)" node --test web/test/overlay.test.mjs
