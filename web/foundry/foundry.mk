# The virtual-tabletop adapters (issue 14), assembled from the npm package's files (web/) and
# each adapter's own: `make foundry` builds the Foundry VTT module folder build/foundry/aoekit/
# (and build/foundry/aoekit.zip where `zip` exists: install it as a module), `make owlbear` the
# Owlbear Rodeo extension folder build/owlbear/ (serve it over HTTPS, see web/owlbear/README.md).
# Included by the top Makefile, which defines browser and overlay-wasm (the modules).
#
# Each list is every file the adapter loads: web/test/foundry.test.mjs and owlbear.test.mjs
# read them back from this file and check that the folder they make loads in Chromium.

# The package's files, as the npm package ships them (node_modules/aoekit/web/…, same paths).
FOUNDRY_PACKAGE_FILES := index.js overlay.js internal/wasm.js wasm_exec.js aoekit.wasm aoekit-overlay.wasm
FOUNDRY_OWN_FILES     := module.json aoekit.mjs map.mjs README.md
OWLBEAR_PACKAGE_FILES := index.js internal/wasm.js wasm_exec.js aoekit.wasm
OWLBEAR_OWN_FILES     := manifest.json index.html owlbear.mjs background.html background.mjs menu.html menu.mjs prefs.mjs map.mjs icon.svg tool-circle.svg tool-cone.svg tool-line.svg tool-square.svg tool-notation.svg README.md

FOUNDRY_DIR := build/foundry/aoekit
OWLBEAR_DIR := build/owlbear

TEST_TARGETS += test-foundry-types test-owlbear-types

.PHONY: foundry foundry-release owlbear test-foundry-types test-owlbear-types

# aoekit.mjs and map.mjs type-checked (JSDoc, strict) against Foundry v13's declarations,
# @league-of-foundry-developers/foundry-vtt-types (an exact devDependency), and the package's
# own (web/index.d.ts, web/overlay.d.ts): web/foundry/tsconfig.json. About 5-10 s.
test-foundry-types: $(NODE_MODULES)
	node_modules/.bin/tsc -p web/foundry

foundry: browser overlay-wasm
	rm -rf $(FOUNDRY_DIR) build/foundry/aoekit.zip
	mkdir -p $(FOUNDRY_DIR)/internal
	for f in $(FOUNDRY_PACKAGE_FILES); do cp web/$$f $(FOUNDRY_DIR)/$$f; done
	for f in $(FOUNDRY_OWN_FILES); do cp web/foundry/$$f $(FOUNDRY_DIR)/$$f; done
	cp LICENSE $(FOUNDRY_DIR)/LICENSE
	@if command -v zip >/dev/null; then \
	  (cd $(FOUNDRY_DIR) && zip -qr ../aoekit.zip .) && echo "foundry: $(FOUNDRY_DIR)/ and build/foundry/aoekit.zip"; \
	else echo "foundry: $(FOUNDRY_DIR)/ (no zip command: copy the folder into Data/modules/ yourself)"; fi

# A release to install from a manifest URL, as Foundry users install modules:
# build/foundry/release/module.json (its manifest and download URLs filled in) and aoekit.zip
# (top folder aoekit/), e.g. make foundry-release VERSION=0.2.0
# BASE_URL=https://github.com/OWNER/aoekit/releases/download/v0.2.0
# MANIFEST_URL=https://github.com/OWNER/aoekit/releases/latest/download/module.json
foundry-release: foundry
	@test -n "$(VERSION)" -a -n "$(BASE_URL)" || { echo "foundry-release: give VERSION=… and BASE_URL=… (and MANIFEST_URL=… for a stable manifest)"; exit 1; }
	node web/foundry/release.mjs $(VERSION) $(BASE_URL) $(if $(MANIFEST_URL),--manifest $(MANIFEST_URL))

# owlbear.mjs and map.mjs type-checked (JSDoc, strict) against @owlbear-rodeo/sdk's own
# declarations (an exact devDependency): web/owlbear/tsconfig.json.
test-owlbear-types: $(NODE_MODULES)
	node_modules/.bin/tsc -p web/owlbear

# The SDK is bundled from its npm package into the folder (obr-sdk.js, web/owlbear/bundle.mjs):
# no run-time CDN, so any static host, a sub-path or a strict CSP included, can serve it.
owlbear: browser $(NODE_MODULES)
	rm -rf $(OWLBEAR_DIR)
	mkdir -p $(OWLBEAR_DIR)/internal
	for f in $(OWLBEAR_PACKAGE_FILES); do cp web/$$f $(OWLBEAR_DIR)/$$f; done
	for f in $(OWLBEAR_OWN_FILES); do cp web/owlbear/$$f $(OWLBEAR_DIR)/$$f; done
	cp LICENSE $(OWLBEAR_DIR)/LICENSE
	node web/owlbear/bundle.mjs $(OWLBEAR_DIR)
	@echo "owlbear: $(OWLBEAR_DIR)/ (serve it over HTTPS with CORS; add <its URL>/manifest.json in Owlbear Rodeo)"
