//go:build !js

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startSite runs the demo server as `make demo` does (run) on a free loopback port until the
// test ends, and returns its address.
func startSite(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, ln, dir) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("the server: %v", err)
		}
	})
	return ln.Addr().String()
}

// exchange writes raw on a new connection, ends its side, and reads every answer until the
// server closes: each answer's status, header and body (methods: the requests', in order).
func exchange(t *testing.T, addr string, raw []byte, methods ...string) []*http.Response {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	c.Write(raw) // an error: the server answered and closed early; read what it said
	c.(*net.TCPConn).CloseWrite()
	br := bufio.NewReader(c)
	var out []*http.Response
	for _, m := range methods {
		res, err := http.ReadResponse(br, &http.Request{Method: m})
		if err != nil {
			t.Fatalf("answer %d of %q: %v", len(out)+1, raw[:min(len(raw), 80)], err)
		}
		body, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatalf("answer %d: body: %v", len(out)+1, err)
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
		out = append(out, res)
	}
	return out
}

// TestEveryAnswerHasTheHeaders (issue 29, 9): every answer of the demo server carries the
// security headers once — also those net/http gives before any handler runs (a request's
// headers past the limit, 431; a request it cannot parse, 400; another HTTP version, 505; a
// Transfer-Encoding it does not know, 501; an Expect it does not meet, 417), which went out
// with none of them. A file whose body holds an HTTP answer's bytes, at the start of every 4 KB,
// is sent unchanged, on a connection whose next request net/http refuses.
func TestEveryAnswerHasTheHeaders(t *testing.T) {
	dir, files := site(t)
	fake := bytes.Repeat([]byte("HTTP/1.1 200 OK\r\nX: y\r\n\r\n"+strings.Repeat(".", 1024-26)), 64) // 64 KB
	if err := os.WriteFile(filepath.Join(dir, "fake.txt"), fake, 0o644); err != nil {
		t.Fatal(err)
	}
	addr := startSite(t, dir)
	req := func(line string, headers ...string) string {
		return line + "\r\nHost: x\r\n" + strings.Join(append(headers, ""), "\r\n") + "\r\n"
	}
	closing := "Connection: close"
	for _, c := range []struct {
		name   string
		raw    string
		status []int
		bodies [][]byte // nil: not checked
	}{
		{"a file", req("GET /logo.png HTTP/1.1", closing), []int{200}, [][]byte{files["logo.png"]}},
		{"headers past 64 KiB", req("GET /logo.png HTTP/1.1", "X-Big: "+strings.Repeat("a", 80<<10), closing), []int{431}, nil},
		{"a request net/http cannot parse", "GARBAGE\r\n\r\n", []int{400}, nil},
		{"two Host lines", req("GET / HTTP/1.1", "Host: y", closing), []int{400}, nil},
		{"HTTP/2.0", "GET /logo.png HTTP/2.0\r\nHost: x\r\n\r\n", []int{505}, nil},
		{"Transfer-Encoding: gzip", req("GET /logo.png HTTP/1.1", "Transfer-Encoding: gzip", closing), []int{501}, nil},
		{"Expect: foo", req("GET /logo.png HTTP/1.1", "Expect: foo", closing), []int{417}, nil},
		{"a 405, a 404, a redirect (no Content-Length)", req("POST /logo.png HTTP/1.1") + req("GET /nope HTTP/1.1") + req("GET /logo.png/ HTTP/1.1", closing),
			[]int{405, 404, 301}, nil},
		{"a file of HTTP answers, then a request net/http refuses", req("GET /fake.txt HTTP/1.1") + req("GET /fake.txt HTTP/1.1") + "GARBAGE\r\n\r\n",
			[]int{200, 200, 400}, [][]byte{fake, fake, nil}},
		{"a file of HTTP answers, then headers past the limit", req("GET /fake.txt HTTP/1.1") + req("GET /x HTTP/1.1", "X-Big: "+strings.Repeat("a", 80<<10)),
			[]int{200, 431}, [][]byte{fake, nil}},
	} {
		methods := make([]string, len(c.status))
		for i := range methods {
			methods[i] = "GET"
		}
		for i, res := range exchange(t, addr, []byte(c.raw), methods...) {
			if res.StatusCode != c.status[i] {
				t.Errorf("%s: answer %d is %s; want %d", c.name, i+1, res.Status, c.status[i])
			}
			for k, v := range securityHeaders {
				if got := res.Header.Values(k); len(got) != 1 || got[0] != v {
					t.Errorf("%s: answer %d (%d): %s %q; want it once, %q", c.name, i+1, res.StatusCode, k, got, v)
				}
			}
			if c.bodies != nil && c.bodies[i] != nil {
				if body, _ := io.ReadAll(res.Body); !bytes.Equal(body, c.bodies[i]) {
					t.Errorf("%s: answer %d: %d bytes, not the file's %d", c.name, i+1, len(body), len(c.bodies[i]))
				}
			}
		}
	}
}

// TestGuardLeavesHandlersAlone: bytes a handler writes are never taken for net/http's own
// answer, even a body flushed in pieces that each start like an HTTP answer without the policy
// (chunked, or with a Content-Length), while net/http's answer to the next request on the
// connection still gets the headers.
func TestGuardLeavesHandlersAlone(t *testing.T) {
	piece := "HTTP/1.1 200 OK\r\nX: y\r\n\r\n"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sized" {
			w.Header().Set("Content-Length", "100")
		}
		w.WriteHeader(200)
		rc := http.NewResponseController(w)
		for range 4 {
			rc.Flush()
			io.WriteString(w, piece)
		}
		if r.URL.Path == "/sized" {
			io.WriteString(w, strings.Repeat(".", 100-4*len(piece)))
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := guard(ln)
	srv := &http.Server{Handler: g.handler(h), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(g)
	t.Cleanup(func() { srv.Close() })
	raw := "GET /chunked HTTP/1.1\r\nHost: x\r\n\r\nGET /sized HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n"
	got := exchange(t, ln.Addr().String(), []byte(raw), "GET", "GET", "GET")
	for i, want := range []string{strings.Repeat(piece, 4), strings.Repeat(piece, 4) + strings.Repeat(".", 100-4*len(piece))} {
		if body, _ := io.ReadAll(got[i].Body); string(body) != want || got[i].Header.Get("Content-Security-Policy") != "" {
			t.Errorf("answer %d: %q, policy %q; want the handler's bytes alone", i+1, body, got[i].Header.Get("Content-Security-Policy"))
		}
	}
	if got[2].StatusCode != 400 || got[2].Header.Get("Content-Security-Policy") != securityHeaders["Content-Security-Policy"] {
		t.Errorf("net/http's answer: %s, policy %q", got[2].Status, got[2].Header.Get("Content-Security-Policy"))
	}
}
