//go:build !js

package main

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStaticHandler_SecurityHeaders: every answer — a page, a script, the module, a compressed
// copy, a directory redirect, a 404 — carries the demo's content security policy, nosniff and
// a frame policy.
func TestStaticHandler_SecurityHeaders(t *testing.T) {
	dir, _ := site(t)
	if err := Precompress(dir, nil); err != nil {
		t.Fatal(err)
	}
	h := staticHandler(dir)
	for _, c := range []struct{ path, accept string }{
		{"/demo/demo.js", ""}, {"/demo/demo.js", "br"}, {"/app.wasm", "gzip"}, {"/demo/demo.css", ""},
		{"/demo/", ""}, {"/demo", ""}, {"/missing.html", ""}, {"/logo.png", ""},
	} {
		req := httptest.NewRequest("GET", c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		got := w.Header()
		csp := got.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'",
			"img-src 'self' data:", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, d) {
				t.Errorf("%s (%d): Content-Security-Policy %q lacks %q", c.path, w.Code, csp, d)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "'unsafe-eval'") {
			t.Errorf("%s: Content-Security-Policy %q allows inline code or eval", c.path, csp)
		}
		if got.Get("X-Content-Type-Options") != "nosniff" || got.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s (%d): X-Content-Type-Options %q, X-Frame-Options %q", c.path, w.Code,
				got.Get("X-Content-Type-Options"), got.Get("X-Frame-Options"))
		}
	}
}
