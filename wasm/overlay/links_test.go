package main

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// TestLinksNoQuoting keeps strconv's quoting out of the overlay module, as wasm/browser's
// TestLinksNoHeavyHelpers keeps it out of aoekit.wasm (issue 30): the engine quotes with
// core/internal/num's GoQuote, the overlay's messages with wire.Quote, and strconv's escaping
// and unicode.IsPrint's tables would be a third copy (~2.7 KB brotli).
func TestLinksNoQuoting(t *testing.T) {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-dumpdep", "-o", os.DevNull, ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^main\.main -> `).Match(out) {
		t.Fatalf("go build -ldflags=-dumpdep listed no edges of main.main:\n%.2000s", out)
	}
	banned := regexp.MustCompile(`(?m)^(.+) -> (strconv\.Quote\w*|strconv\.appendQuotedWith|strconv\.IsPrint|unicode\.IsPrint)$`)
	for _, m := range banned.FindAllStringSubmatch(string(out), -1) {
		t.Errorf("the overlay links %s (called by %s)", m[2], m[1])
	}
}
