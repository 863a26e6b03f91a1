package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aoekit/aoekit/core/engine"
)

// stallingBody is a client that declared more than it sends: it hands out data, then blocks
// until release is closed, then fails as a connection cut short would.
type stallingBody struct {
	data    []byte
	sent    chan struct{} // closed once data is handed out and the reader asks for more
	release chan struct{}
	once    sync.Once
}

func (b *stallingBody) Read(p []byte) (int, error) {
	if len(b.data) > 0 {
		n := copy(p, b.data)
		b.data = b.data[n:]
		return n, nil
	}
	b.once.Do(func() { close(b.sent) })
	<-b.release
	return 0, io.ErrUnexpectedEOF
}

func (b *stallingBody) Close() error { return nil }

// heap returns the bytes of live heap objects after a collection.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestStalledBodiesHoldWhatArrived: requests that declare 1 MiB, send 10 bytes and stall hold
// about what they sent, not the megabyte they declared (2 000 such connections once took the
// server from 33 MB to 1.7 GB).
func TestStalledBodiesHoldWhatArrived(t *testing.T) {
	const n = 64
	h := stubHandler()
	before := heap()
	release := make(chan struct{})
	bodies := make([]*stallingBody, n)
	answers := make([]*httptest.ResponseRecorder, n)
	var done sync.WaitGroup
	for i := range bodies {
		b := &stallingBody{data: []byte(`{"text": "`), sent: make(chan struct{}), release: release}
		bodies[i] = b
		req := httptest.NewRequest("POST", "/v1/parse", nil)
		req.Body = b
		req.ContentLength = MaxBody
		req.Header.Set("Content-Type", "application/json")
		answers[i] = httptest.NewRecorder()
		done.Add(1)
		go func() {
			defer done.Done()
			h.ServeHTTP(answers[i], req)
		}()
	}
	deadline := time.After(30 * time.Second)
	for i, b := range bodies {
		select {
		case <-b.sent:
		case <-deadline:
			close(release)
			t.Fatalf("request %d never read its body", i)
		}
	}
	held := int64(heap()) - int64(before)
	close(release)
	done.Wait()
	per := held / n
	t.Logf("%d stalled requests declaring 1 MiB: %d B of heap each", n, per)
	if per > 64<<10 {
		t.Errorf("each stalled request holds %d B of heap; want what it sent (10 B) and small buffers, not its declared %d B", per, MaxBody)
	}
	for i, w := range answers {
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "reading the request body: it ended before its declared length") {
			t.Errorf("request %d, cut short: %d %s", i, w.Code, w.Body)
			break
		}
	}
}

// earlyEOF is a body that ends after its data, whatever Content-Length said.
type earlyEOF struct{ r io.Reader }

func (b earlyEOF) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b earlyEOF) Close() error               { return nil }

// TestShortBodiesAllocateWhatArrived counts every byte allocated while answering requests that
// declare 1 MiB and send 10 bytes.
func TestShortBodiesAllocateWhatArrived(t *testing.T) {
	h := stubHandler()
	const n = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < n; i++ {
		req := httptest.NewRequest("POST", "/v1/parse", nil)
		req.Body = earlyEOF{strings.NewReader(`{"text":1}`)}
		req.ContentLength = MaxBody
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 || w.Body.String() != `{"door":"parse","bytes":10}` {
			t.Fatalf("%d %s", w.Code, w.Body)
		}
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("a request declaring 1 MiB and sending 10 bytes: %d B allocated", per)
	if per > 64<<10 {
		t.Errorf("%d B allocated per request; want a few kilobytes, not the declared %d B", per, MaxBody)
	}
}

// TestBodyLimitStillHolds: growing as bytes arrive, bodies past 1 MiB are still refused, with
// or without a declared length, and exactly 1 MiB still passes.
func TestBodyLimitStillHolds(t *testing.T) {
	h := stubHandler()
	for _, c := range []struct {
		name     string
		n        int
		declared int64 // -1: unknown (chunked)
		status   int
	}{
		{"1 MiB declared", MaxBody, MaxBody, 200},
		{"1 MiB undeclared", MaxBody, -1, 200},
		{"1 MiB + 1 declared", MaxBody + 1, MaxBody + 1, 413},
		{"1 MiB + 1 undeclared", MaxBody + 1, -1, 413},
		{"3 MiB undeclared", 3 * MaxBody, -1, 413},
	} {
		req := httptest.NewRequest("POST", "/v1/evaluate", nil)
		req.Body = earlyEOF{bytes.NewReader(bytes.Repeat([]byte(" "), c.n))}
		req.ContentLength = c.declared
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != c.status {
			t.Errorf("%s: %d %.100s, want %d", c.name, w.Code, w.Body, c.status)
		}
		if c.status == 413 {
			if e := errorOf(t, w); e.Code != "too_large" {
				t.Errorf("%s: %+v", c.name, e)
			}
		}
	}
}

// TestBusy: without a queue (QueueWait < 0), past MaxEvaluations requests in the engine at
// once, the answer is 503 with Retry-After and the JSON error shape; GET /v1/version and
// preflights never wait for a slot; a slot frees when its request ends, even by a panic.
func TestBusy(t *testing.T) {
	const max = 3
	entered := make(chan struct{}, 100)
	release := make(chan struct{})
	block := func(_ engine.Context, body []byte) ([]byte, *engine.Error) {
		entered <- struct{}{}
		select {
		case <-release:
		case <-time.After(30 * time.Second): // bounded, should a request get in that must not
		}
		if string(body) == "panic" {
			panic("boom")
		}
		return []byte(`{"ok":true}`), nil
	}
	h := newHandler(doors{parse: block, evaluate: block, move: block, cover: block, fullAttack: block, version: func() []byte { return []byte(`{"v":1}`) }},
		Options{MaxEvaluations: max, QueueWait: -1})
	var done sync.WaitGroup
	codes := make([]int, max)
	for i := 0; i < max; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			body := "{}"
			if i == 0 {
				body = "panic"
			}
			codes[i] = call{"POST", []string{"/v1/parse", "/v1/evaluate", "/v1/move"}[i], "application/json", body}.do(t, h).Code
		}()
	}
	for i := 0; i < max; i++ {
		select {
		case <-entered:
		case <-time.After(30 * time.Second):
			close(release)
			t.Fatal("the blocking requests did not all start")
		}
	}
	for _, path := range []string{"/v1/parse", "/v1/evaluate", "/v1/move", "/v1/cover", "/v1/full-attack"} {
		c := call{"POST", path, "application/json", "{}"}
		w := c.do(t, h)
		checkCommon(t, c, w)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" ||
			w.Header().Get("Access-Control-Expose-Headers") != "Retry-After" {
			t.Errorf("%s while busy: %d, Retry-After %q", path, w.Code, w.Header().Get("Retry-After"))
			continue
		}
		want := engine.Error{Code: "too_large", Message: "the server is busy: " + strconv.Itoa(max) + " requests in progress; retry"}
		if e := errorOf(t, w); e != want {
			t.Errorf("%s while busy: %+v, want %+v", path, e, want)
		}
	}
	for _, c := range []call{{"GET", "/v1/version", "", ""}, {"OPTIONS", "/v1/evaluate", "", ""}, {"GET", "/nowhere", "", ""},
		{"POST", "/v1/parse", "text/plain", "{}"}} {
		if w := c.do(t, h); w.Code == http.StatusServiceUnavailable {
			t.Errorf("%s %s while busy: 503; only the engine's answers take a slot", c.method, c.path)
		}
	}
	close(release)
	done.Wait()
	if codes[0] != 500 || codes[1] != 200 || codes[2] != 200 {
		t.Errorf("the blocked requests answered %v; want 500 (the panic), 200, 200", codes)
	}
	// Every slot is free again, the panicking request's too.
	for i := 0; i < max+1; i++ {
		if w := (call{"POST", "/v1/parse", "application/json", "{}"}).do(t, h); w.Code != 200 {
			t.Fatalf("request %d after the load: %d %s", i, w.Code, w.Body)
		}
	}
}

// TestUnlimitedByDefault: New has no cap.
func TestUnlimitedByDefault(t *testing.T) {
	const n = 50
	entered := make(chan struct{}, n)
	release := make(chan struct{})
	block := func(engine.Context, []byte) ([]byte, *engine.Error) {
		entered <- struct{}{}
		<-release
		return []byte(`{}`), nil
	}
	h := newHandler(doors{parse: block, evaluate: block, move: block, cover: block, fullAttack: block, version: func() []byte { return nil }}, Options{})
	var done sync.WaitGroup
	codes := make([]int, n)
	for i := 0; i < n; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			codes[i] = call{"POST", "/v1/evaluate", "application/json", "{}"}.do(t, h).Code
		}()
	}
	for i := 0; i < n; i++ {
		select {
		case <-entered:
		case <-time.After(30 * time.Second):
			close(release)
			t.Fatalf("only %d of %d requests entered the engine at once", i, n)
		}
	}
	close(release)
	done.Wait()
	for i, c := range codes {
		if c != 200 {
			t.Fatalf("request %d: %d", i, c)
		}
	}
}

// TestCanonicalPaths: every odd spelling of a path is routed as the Workers runtime's URL parser
// (WHATWG) leaves it, then with runs of slashes made one; nothing is redirected.
func TestCanonicalPaths(t *testing.T) {
	h := stubHandler()
	for _, c := range []struct {
		path string
		want string // the route answered: "parse", or the path a 404 names
	}{
		{"/v1/parse", "parse"},
		{"//v1/parse", "parse"},
		{"/v1//parse", "parse"},
		{"///v1///parse", "parse"},
		{"/v1/./parse", "parse"},
		{"/./v1/parse", "parse"},
		{"/v1/x/../parse", "parse"},
		{"/../v1/parse", "parse"},
		{"/%2e%2e/v1/parse", "parse"},
		{"/v1/%2E/parse", "parse"},
		{"/v1/x/.%2e/parse", "parse"},
		{`/v1\parse`, "parse"},
		{"/v1/%70arse", "parse"},
		{"/v1/parse/", "/v1/parse/"},
		{"/v1/parse//", "/v1/parse/"},
		{"/v1/parse/.", "/v1/parse/"},
		{"/v1/parse/..", "/v1/"},
		{"/v1/parse/x/..", "/v1/parse/"},
		{"/a//..", "/a/"},
		{"/..", "/"},
		{"/v1/..", "/"},
		{"/v1%2Fparse", "/v1/parse"},
		{"/v1%2F.%2Fparse", "/v1/./parse"},
		{"/v1/parse%2F", "/v1/parse/"},
	} {
		req := readRequest(t, "POST", c.path)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		checkCommon(t, call{"POST", c.path, "", ""}, w)
		if c.want == "parse" {
			if w.Code != 200 || w.Body.String() != `{"door":"parse","bytes":2}` {
				t.Errorf("POST %s: %d %s, want /v1/parse's answer", c.path, w.Code, w.Body)
			}
			continue
		}
		if w.Code != http.StatusNotFound {
			t.Errorf("POST %s: %d %s %v, want 404", c.path, w.Code, w.Body, w.Header())
			continue
		}
		if e := errorOf(t, w); !strings.HasPrefix(e.Message, "no such endpoint: POST "+c.want+" (") {
			t.Errorf("POST %s: %q, want the path %s", c.path, e.Message, c.want)
		}
	}
}

// readRequest reads a request for target as the server does, from its request line.
func readRequest(t *testing.T, method, target string) *http.Request {
	t.Helper()
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(method + " " + target +
		" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")))
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	return req
}

// rawCall sends one request with its target exactly as given over a new connection to addr.
func rawCall(t *testing.T, addr, method, target string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	io.WriteString(conn, method+" "+target+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	return res, body
}

// TestEveryAnswerIsJSON: over a real connection, whatever the method and path, every answer but
// a 204 preflight and HEAD's is the JSON error shape or a JSON answer.
func TestEveryAnswerIsJSON(t *testing.T) {
	srv := httptest.NewServer(stubHandler())
	defer srv.Close()
	paths := []string{"/", "//", "/v1", "/v1/", "//v1/parse", "/v1//parse", "/v1/./parse", "/v1/x/../parse", "/v1/parse/.",
		"/v1/parse/..", "/%2e%2e/v1/parse", "/v1%2F.%2Fparse", "/v1/version/", "//v1/version", "/v1/./version", `/v1\version`,
		"/v1/nowhere", "/favicon.ico", "/v1/parse?x=1", "/v1//evaluate?a=b"}
	for _, p := range paths {
		for _, m := range []string{"GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
			res, body := rawCall(t, srv.Listener.Addr().String(), m, p)
			if res.StatusCode == http.StatusNoContent && m == "OPTIONS" {
				continue
			}
			if res.StatusCode >= 300 && res.StatusCode < 400 {
				t.Errorf("%s %s: redirect %d to %q", m, p, res.StatusCode, res.Header.Get("Location"))
				continue
			}
			if !json.Valid(body) || res.Header.Get("Content-Type") != "application/json" {
				t.Errorf("%s %s: %d %q (%s)", m, p, res.StatusCode, body, res.Header.Get("Content-Type"))
				continue
			}
			if res.StatusCode != 200 {
				var e struct {
					Error *engine.Error `json:"error"`
				}
				if json.Unmarshal(body, &e) != nil || e.Error == nil || e.Error.Code == "" || e.Error.Message == "" {
					t.Errorf("%s %s: %d %s is not the error shape", m, p, res.StatusCode, body)
				}
			}
		}
	}
}

// TestContentTypeEveryValue: the Workers build receives a header split at its commas; the
// native server, one value per header line. Both refuse a body of two types, and accept one.
func TestContentTypeEveryValue(t *testing.T) {
	h := stubHandler()
	msg := func(ct string) string {
		return "unsupported Content-Type " + ct + ": the body must be JSON, sent with Content-Type: application/json"
	}
	for _, c := range []struct {
		name   string
		values []string
		status int
		msg    string
	}{
		{"one line", []string{"application/json, text/plain"}, 415, msg("application/json, text/plain")},
		{"split at the comma (Workers)", []string{"application/json", " text/plain"}, 415, msg("application/json, text/plain")},
		{"two lines", []string{"application/json", "text/plain"}, 415, msg("application/json, text/plain")},
		{"twice the same", []string{"application/json", "application/json"}, 415, msg("application/json, application/json")},
		{"one value", []string{"application/json; charset=utf-8"}, 200, ""},
	} {
		req := httptest.NewRequest("POST", "/v1/parse", strings.NewReader("{}"))
		req.Header["Content-Type"] = c.values
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, w.Code, w.Body, c.status)
			continue
		}
		if c.msg != "" {
			if e := errorOf(t, w); e.Message != c.msg {
				t.Errorf("%s: %q, want %q", c.name, e.Message, c.msg)
			}
		}
	}
}

// FuzzCanonicalPath: whatever the path, its canonical form is canonical (applying it again
// changes nothing), has no run of slashes, no dot segment and no backslash, and the handler
// answers it with JSON, never a redirect.
func FuzzCanonicalPath(f *testing.F) {
	for _, p := range []string{"/v1/parse", "//v1/parse", "/v1/./parse", "/a//..", `/v1\parse`, "/%2e%2E/x/", "/v1%2F.%2Fparse", "/..//../.", "/"} {
		f.Add(p)
	}
	h := stubHandler()
	f.Fuzz(func(t *testing.T, p string) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		c := canonicalPath(p)
		if again := canonicalPath(c); again != c {
			t.Fatalf("canonicalPath(%q) = %q, then %q", p, c, again)
		}
		if !strings.HasPrefix(c, "/") || strings.Contains(c, "//") || strings.Contains(c, `\`) {
			t.Fatalf("canonicalPath(%q) = %q", p, c)
		}
		for _, seg := range strings.Split(c, "/") {
			if d := strings.ReplaceAll(strings.ToLower(seg), "%2e", "."); d == "." || d == ".." {
				t.Fatalf("canonicalPath(%q) = %q keeps a dot segment", p, c)
			}
		}
		req, err := http.ReadRequest(bufio.NewReader(strings.NewReader("POST " + p +
			" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")))
		if err != nil {
			return // not a request line the server would read
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 300 && w.Code < 400 || !json.Valid(w.Body.Bytes()) {
			t.Fatalf("POST %q: %d %q", p, w.Code, w.Body)
		}
	})
}
