//go:build !js

package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
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

// TestStaticHandler_Hardened (issue 29, 9): the demo server answers GET and HEAD alone, never
// serves a dotfile or lists a folder, keeps its headers on every refusal, and answers a request
// for thousands of ranges with the file, once.
func TestStaticHandler_Hardened(t *testing.T) {
	dir, files := site(t)
	for name, data := range map[string]string{".env": "SECRET=1", ".git/config": "[core]", "internal/notes.txt": "x", "demo/.hidden.js": "x"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "demo/index.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := staticHandler(dir)
	do := func(method, path string, hdr map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Header().Get("Content-Security-Policy") == "" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s (%d): no security headers", method, path, w.Code)
		}
		return w
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "TRACE", "PATCH", "OPTIONS"} {
		if w := do(m, "/demo/demo.js", nil); w.Code != 405 || w.Header().Get("Allow") != "GET, HEAD" || strings.Contains(w.Body.String(), "answer = 42") {
			t.Errorf("%s: %d, Allow %q", m, w.Code, w.Header().Get("Allow"))
		}
	}
	for _, p := range []string{"/.env", "/.git/config", "/.git/", "/demo/.hidden.js", "/internal/", "/internal", "/demo/../.env"} {
		if w := do("GET", p, nil); w.Code != 404 {
			t.Errorf("GET %s: %d, want 404: %.80q", p, w.Code, w.Body.String())
		}
	}
	if w := do("GET", "/demo/", nil); w.Code != 200 || w.Body.String() != "<!doctype html>" {
		t.Errorf("a folder with its index.html: %d %q", w.Code, w.Body.String())
	}
	if w := do("HEAD", "/logo.png", nil); w.Code != 200 {
		t.Errorf("HEAD: %d", w.Code)
	}
	ranges := "bytes=0-0" + strings.Repeat(",1-1", 2999)
	if w := do("GET", "/logo.png", map[string]string{"Range": ranges}); w.Code != 200 || w.Body.Len() != len(files["logo.png"]) {
		t.Errorf("3 000 ranges: %d, %d bytes; want the whole file (%d bytes)", w.Code, w.Body.Len(), len(files["logo.png"]))
	}
	if w := do("GET", "/logo.png", map[string]string{"Range": "bytes=0-3,8-11"}); w.Code != 206 {
		t.Errorf("two ranges: %d, want 206", w.Code)
	}
}
