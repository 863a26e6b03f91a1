//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// minCompress is the smallest file worth a compressed copy: below it, headers outweigh the gain.
const minCompress = 1024

// An encoding is a compressed representation kept beside a file as file+suffix.
type encoding struct {
	name   string // the Content-Encoding token
	suffix string
	encode func(w io.Writer, data []byte) error
	decode func(r io.Reader) (io.Reader, error)
}

// encodings in the server's order of preference when a client accepts several equally.
var encodings = []encoding{
	{"br", ".br",
		func(w io.Writer, data []byte) error {
			bw := brotli.NewWriterLevel(w, brotli.BestCompression)
			if _, err := bw.Write(data); err != nil {
				return err
			}
			return bw.Close()
		},
		func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
	{"gzip", ".gz",
		func(w io.Writer, data []byte) error {
			gw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
			if err != nil {
				return err
			}
			if _, err := gw.Write(data); err != nil {
				return err
			}
			return gw.Close()
		},
		func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
}

// compressible reports whether files named like name are text or WebAssembly, which compress
// well (images and fonts are compressed already).
func compressible(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".wasm", ".js", ".mjs", ".css", ".html", ".json", ".svg", ".map", ".txt", ".md", ".ts":
		return true
	}
	return false
}

// Precompress writes a brotli (quality 11) and a gzip (level 9) copy beside every compressible
// file of at least minCompress bytes under dir, as name.br and name.gz, and calls progress
// with each copy it writes. A copy that already holds the file's bytes is kept (its time is
// brought up to the file's, so that the server takes it as current); one that is not smaller
// than the file is not written, and an older one is removed.
func Precompress(dir string, progress func(name string, from, to int)) error {
	return filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || !compressible(name) {
			return nil
		}
		data, err := os.ReadFile(name)
		if err != nil || len(data) < minCompress {
			return err
		}
		st, err := os.Stat(name)
		if err != nil {
			return err
		}
		for _, enc := range encodings {
			out := name + enc.suffix
			if current(out, data, enc) {
				if err := os.Chtimes(out, st.ModTime(), st.ModTime()); err != nil {
					return err
				}
				continue
			}
			var buf bytes.Buffer
			if err := enc.encode(&buf, data); err != nil {
				return errors.New(name + ": " + enc.name + ": " + err.Error())
			}
			if buf.Len() >= len(data) {
				if err := os.Remove(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
				continue
			}
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				return err
			}
			if err := os.Chtimes(out, st.ModTime(), st.ModTime()); err != nil {
				return err
			}
			if progress != nil {
				progress(out, len(data), buf.Len())
			}
		}
		return nil
	})
}

// current reports whether the compressed file name decodes to data.
func current(name string, data []byte, enc encoding) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	r, err := enc.decode(f)
	if err != nil {
		return false
	}
	got, err := io.ReadAll(io.LimitReader(r, int64(len(data))+1))
	return err == nil && bytes.Equal(got, data)
}

// securityHeaders go on every answer of the demo site. The policy allows what the demo uses and
// nothing more: its own scripts, styles and files ('self'), WebAssembly compilation
// ('wasm-unsafe-eval', which instantiating aoekit.wasm needs; it allows no JavaScript eval),
// data: images (the page's empty icon); no inline script or style, no plugins, no framing.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
		"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"X-Frame-Options":        "DENY",
	"Referrer-Policy":        "no-referrer",
}

// maxRanges is the most byte ranges the server answers in one request; past it the Range
// header is ignored and the whole file sent (RFC 9110 lets a server ignore a Range): 3 000
// ranges made a 420 KB multipart answer out of a small file.
const maxRanges = 4

// staticHandler serves the files under dir like http.FileServer, uncached, with
// securityHeaders, and sends a compressed copy written by Precompress when the client accepts
// its encoding and the copy is not older than the file: with the file's Content-Type,
// Content-Encoding, and Vary: Accept-Encoding on every answer for a compressible file. It
// answers GET and HEAD alone (405 otherwise), never a path with a segment that starts with a
// dot (a dotfile, 404), never a folder's listing (a folder without index.html is a 404), and at
// most maxRanges ranges.
func staticHandler(dir string) http.Handler {
	root := http.Dir(dir)
	files := http.FileServer(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed: the demo site answers GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		name := path.Clean("/" + r.URL.Path)
		if hidden(name) || listing(root, name) {
			http.NotFound(w, r)
			return
		}
		if rg := r.Header.Get("Range"); strings.Count(rg, ",") >= maxRanges {
			r = r.Clone(r.Context())
			r.Header.Del("Range")
		}
		if !compressible(name) || strings.HasSuffix(r.URL.Path, "/") {
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			for _, enc := range accepted(r.Header.Get("Accept-Encoding")) {
				if serveEncoded(w, r, root, name, enc) {
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// serveEncoded answers with name's copy in enc if there is a current one.
func serveEncoded(w http.ResponseWriter, r *http.Request, root http.Dir, name string, enc encoding) bool {
	orig, err := stat(root, name)
	if err != nil || orig.IsDir() {
		return false
	}
	f, err := root.Open(name + enc.suffix)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.ModTime().Before(orig.ModTime()) {
		return false
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Encoding", enc.name)
	// ServeContent leaves Content-Length out of encoded answers (for ranges it would compute
	// over the encoded bytes): send the whole copy, with its length.
	h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	r = r.Clone(r.Context())
	r.Header.Del("Range")
	http.ServeContent(w, r, name, st.ModTime(), f)
	return true
}

// hidden reports whether a segment of the clean path name starts with a dot: .git, .env, a
// dotfile the site's folder may hold, is never served.
func hidden(name string) bool {
	for _, seg := range strings.Split(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	return false
}

// listing reports whether name is a folder without an index.html, whose answer would be the
// list of its files.
func listing(root http.Dir, name string) bool {
	st, err := stat(root, name)
	if err != nil || !st.IsDir() {
		return false
	}
	_, err = stat(root, path.Join(name, "index.html"))
	return err != nil
}

func stat(root http.Dir, name string) (fs.FileInfo, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// accepted returns the encodings an Accept-Encoding header allows, the most preferred first:
// by q-value, then in the server's order. "*" stands for every encoding not named; q=0 refuses.
func accepted(header string) []encoding {
	q := make([]float64, len(encodings))
	for i := range q {
		q[i] = -1 // not named
	}
	star := -1.0
	for _, part := range strings.Split(header, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		weight := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				weight = f
			}
		}
		if token == "*" {
			star = weight
		}
		for i, enc := range encodings {
			if token == enc.name {
				q[i] = weight
			}
		}
	}
	for i := range q {
		if q[i] < 0 {
			q[i] = star
		}
	}
	var out []encoding
	for len(out) < len(encodings) {
		best := -1
		for i := range q {
			if q[i] > 0 && (best < 0 || q[i] > q[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		out = append(out, encodings[best])
		q[best] = 0
	}
	return out
}
