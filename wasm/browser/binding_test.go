package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The loader expects exactly these functions (web/index.js, EXPORTS).
func TestExportsMatchLoader(t *testing.T) {
	src, err := os.ReadFile("../../web/index.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const EXPORTS = \[([^\]]*)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("web/index.js has no EXPORTS list")
	}
	var names []string
	for _, e := range exports {
		names = append(names, `"`+e.Name+`"`)
	}
	if got, want := string(m[1]), strings.Join(names, ", "); got != want {
		t.Errorf("web/index.js EXPORTS = [%s], module exports [%s]", got, want)
	}
}

// TestLinksNoHeavyHelpers keeps out of the module what the size work took out (make size has
// the numbers): errors.As and errors.Is bring internal/reflectlite, strconv.ParseFloat and
// ParseUint some 6 KB of brotli (wire has its own exact readers), strings.EqualFold more;
// strconv's quoting and unicode.IsPrint ~2 KB (num.GoQuote quotes as strconv.Quote does).
func TestLinksNoHeavyHelpers(t *testing.T) {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-dumpdep", "-o", os.DevNull, ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	banned := regexp.MustCompile(`(?m)^(.+) -> (errors\.As|errors\.Is|strconv\.ParseFloat|strconv\.ParseUint|strings\.EqualFold|strconv\.appendQuotedWith|unicode\.IsPrint)$`)
	for _, m := range banned.FindAllStringSubmatch(string(out), -1) {
		t.Errorf("the module links %s (called by %s)", m[2], m[1])
	}
}
