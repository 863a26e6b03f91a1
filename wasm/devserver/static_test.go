//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// site writes a small demo site: a module and a script large enough to compress, a small
// stylesheet and an image that are not worth it.
func site(t *testing.T) (dir string, files map[string][]byte) {
	t.Helper()
	dir = t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	wasm := make([]byte, 64<<10)
	for i := range wasm { // compressible: a small alphabet
		wasm[i] = "\x00asm\x01"[rng.IntN(5)]
	}
	files = map[string][]byte{
		"app.wasm":      wasm,
		"demo/demo.js":  []byte(strings.Repeat("export const answer = 42;\n", 200)),
		"demo/demo.css": []byte("body{margin:0}"),
		"logo.png":      bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1000),
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, files
}

func decode(t *testing.T, enc string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch enc {
	case "br":
		r = brotli.NewReader(r)
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "":
	default:
		t.Fatalf("unexpected Content-Encoding %q", enc)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", enc, err)
	}
	return out
}

func TestPrecompress_WritesLargeTextAndWasmOnly(t *testing.T) {
	dir, files := site(t)
	var wrote []string
	if err := Precompress(dir, func(name string, from, to int) {
		wrote = append(wrote, name)
		if to >= from {
			t.Errorf("%s: %d B is not smaller than %d B", name, to, from)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(wrote) != 4 {
		t.Errorf("wrote %v, want app.wasm and demo/demo.js as .br and .gz", wrote)
	}
	for name, data := range files {
		for _, enc := range encodings {
			got, err := os.ReadFile(filepath.Join(dir, name+enc.suffix))
			want := compressible(name) && len(data) >= minCompress
			if (err == nil) != want {
				t.Errorf("%s%s exists: %v, want %v", name, enc.suffix, err == nil, want)
			}
			if err == nil && !bytes.Equal(decode(t, enc.name, got), data) {
				t.Errorf("%s%s does not decode to the file", name, enc.suffix)
			}
		}
	}
	// A second run finds every copy current and writes nothing.
	wrote = nil
	if err := Precompress(dir, func(name string, _, _ int) { wrote = append(wrote, name) }); err != nil {
		t.Fatal(err)
	}
	if len(wrote) != 0 {
		t.Errorf("second run rewrote %v", wrote)
	}
	// A changed file gets new copies.
	if err := os.WriteFile(filepath.Join(dir, "demo/demo.js"), bytes.Repeat([]byte("let x = 1;\n"), 300), 0o644); err != nil {
		t.Fatal(err)
	}
	wrote = nil
	if err := Precompress(dir, func(name string, _, _ int) { wrote = append(wrote, filepath.Base(name)) }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(wrote, " ") != "demo.js.br demo.js.gz" {
		t.Errorf("after a change, rewrote %v", wrote)
	}
}

func TestStaticHandler_Negotiates(t *testing.T) {
	dir, files := site(t)
	if err := Precompress(dir, nil); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(staticHandler(dir))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}

	for _, tc := range []struct {
		path, accept, enc, ctype string
	}{
		{"/app.wasm", "gzip, deflate, br, zstd", "br", "application/wasm"}, // Chromium's header
		{"/app.wasm", "br", "br", "application/wasm"},
		{"/app.wasm", "gzip", "gzip", "application/wasm"},
		{"/app.wasm", "br;q=0.5, gzip", "gzip", "application/wasm"},
		{"/app.wasm", "br;q=0, gzip;q=0.1", "gzip", "application/wasm"},
		{"/app.wasm", "BR ; Q=1", "br", "application/wasm"},
		{"/app.wasm", "*", "br", "application/wasm"},
		{"/app.wasm", "*;q=0.5, br;q=0", "gzip", "application/wasm"},
		{"/app.wasm", "", "", "application/wasm"},
		{"/app.wasm", "identity", "", "application/wasm"},
		{"/app.wasm", "br;q=0, gzip;q=0", "", "application/wasm"},
		{"/app.wasm", "deflate", "", "application/wasm"},
		{"/demo/demo.js", "gzip, br", "br", "text/javascript; charset=utf-8"},
		{"/demo/demo.css", "gzip, br", "", "text/css; charset=utf-8"}, // too small to compress
		{"/logo.png", "gzip, br", "", "image/png"},                    // not compressible
	} {
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		if tc.accept != "" {
			req.Header.Set("Accept-Encoding", tc.accept)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		what := tc.path + " with Accept-Encoding " + tc.accept
		if res.StatusCode != 200 {
			t.Errorf("%s: status %d", what, res.StatusCode)
			continue
		}
		if got := res.Header.Get("Content-Encoding"); got != tc.enc {
			t.Errorf("%s: Content-Encoding %q, want %q", what, got, tc.enc)
		}
		if got := res.Header.Get("Content-Type"); got != tc.ctype {
			t.Errorf("%s: Content-Type %q, want %q", what, got, tc.ctype)
		}
		if vary := res.Header.Get("Vary"); (vary == "Accept-Encoding") != compressible(tc.path) {
			t.Errorf("%s: Vary %q", what, vary)
		}
		if res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", what, res.Header.Get("Cache-Control"))
		}
		if res.ContentLength != int64(len(body)) {
			t.Errorf("%s: Content-Length %d for %d bytes", what, res.ContentLength, len(body))
		}
		want := files[strings.TrimPrefix(tc.path, "/")]
		if got := decode(t, tc.enc, body); !bytes.Equal(got, want) {
			t.Errorf("%s: the body does not decode to the file (%d B, want %d B)", what, len(got), len(want))
		}
		if tc.enc != "" && len(body) >= len(want) {
			t.Errorf("%s: %d B sent for %d B", what, len(body), len(want))
		}
	}
}

// A copy older than its file (the file was rebuilt, Precompress not run again) is never sent.
func TestStaticHandler_SkipsStaleCopies(t *testing.T) {
	dir, files := site(t)
	if err := Precompress(dir, nil); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "app.wasm"), later, later); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("GET", "/app.wasm", nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	rec := httptest.NewRecorder()
	staticHandler(dir).ServeHTTP(rec, req)
	if enc := rec.Header().Get("Content-Encoding"); enc != "" || !bytes.Equal(rec.Body.Bytes(), files["app.wasm"]) {
		t.Errorf("stale copy served: Content-Encoding %q, %d B", enc, rec.Body.Len())
	}
}

// Paths that climb out of the folder find nothing, compressed or not.
func TestStaticHandler_StaysInside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := bytes.Repeat([]byte("secret "), 1000)
	for _, name := range []string{"secret.js", "secret.js.br"} {
		if err := os.WriteFile(filepath.Join(parent, name), secret, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"/../secret.js", "/%2e%2e/secret.js", "/..%2fsecret.js"} {
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = p
		req.URL.RawPath = ""
		req.Header.Set("Accept-Encoding", "br")
		rec := httptest.NewRecorder()
		staticHandler(dir).ServeHTTP(rec, req)
		if bytes.Contains(rec.Body.Bytes(), []byte("secret")) || rec.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s: served %d B, Content-Encoding %q", p, rec.Body.Len(), rec.Header().Get("Content-Encoding"))
		}
	}
}
