package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/wasm/api"
)

// header is a request's headers as the glue hands them over.
func header(kv ...string) string {
	var b strings.Builder
	for _, s := range kv {
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String()
}

// parseHeader reads bridgeResponse.Header back.
func parseHeader(t *testing.T, s string) http.Header {
	t.Helper()
	h := http.Header{}
	if s == "" {
		return h
	}
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("header %q does not end with a newline", s)
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines)%2 != 0 {
		t.Fatalf("header %q: an odd number of lines", s)
	}
	for i := 0; i < len(lines); i += 2 {
		h.Add(lines[i], lines[i+1])
	}
	return h
}

// TestBridgeAgreesWithNative: through the bridge, the API answers as it does to net/http.
func TestBridgeAgreesWithNative(t *testing.T) {
	h := newHandler(api.Options{}) // as both builds serve it
	big := bytes.Repeat([]byte(" "), api.MaxBody+1)
	cases := []struct {
		name   string
		in     bridgeRequest
		status int
	}{
		{"version", bridgeRequest{Method: "GET", URL: "https://api.example/v1/version", ContentLength: -1}, 200},
		{"parse", bridgeRequest{Method: "POST", URL: "https://api.example/v1/parse", Header: header("content-type", "application/json"),
			ContentLength: 18, HasBody: true, Body: []byte(`{"text": "Con4NE"}`)}, 200},
		{"chunked", bridgeRequest{Method: "POST", URL: "https://api.example/v1/parse", Header: header("content-type", "application/json", "transfer-encoding", "chunked"),
			ContentLength: -1, HasBody: true, Body: []byte(`{"text": "Cir3"}`)}, 200},
		{"malformed", bridgeRequest{Method: "POST", URL: "https://api.example/v1/evaluate", Header: header("content-type", "application/json"),
			ContentLength: 5, HasBody: true, Body: []byte(`{"a":`)}, 400},
		{"rule", bridgeRequest{Method: "POST", URL: "https://api.example/v1/parse", Header: header("content-type", "application/json"),
			ContentLength: -1, HasBody: true, Body: []byte(`{"text": "Con4"}`)}, 400},
		{"not found", bridgeRequest{Method: "GET", URL: "https://api.example/v1/nothing?x=1", ContentLength: -1}, 404},
		{"wrong method", bridgeRequest{Method: "DELETE", URL: "https://api.example/v1/version", ContentLength: -1}, 405},
		{"two types", bridgeRequest{Method: "POST", URL: "https://api.example/v1/parse", Header: header("content-type", "application/json, text/plain"),
			ContentLength: -1, HasBody: true, Body: []byte(`{}`)}, 415},
		{"declared too large", bridgeRequest{Method: "POST", URL: "https://api.example/v1/evaluate", Header: header("content-type", "application/json"),
			ContentLength: api.MaxBody + 1}, 413},
		{"too large", bridgeRequest{Method: "POST", URL: "https://api.example/v1/evaluate", Header: header("content-type", "application/json"),
			ContentLength: -1, HasBody: true, Body: big}, 413},
		{"dot segments", bridgeRequest{Method: "POST", URL: "https://api.example/v1//./parse", Header: header("content-type", "application/json"),
			ContentLength: -1, HasBody: true, Body: []byte(`{"text": "Cir3"}`)}, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := serveBridge(h, c.in)
			if err != nil {
				t.Fatal(err)
			}
			// The same request to the handler as net/http's server makes it.
			r := httptest.NewRequest(c.in.Method, c.in.URL, bytes.NewReader(c.in.Body))
			r.Header = parseHeader(t, c.in.Header)
			r.ContentLength = c.in.ContentLength
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if out.Status != c.status || w.Code != c.status {
				t.Errorf("status %d, native %d; want %d (%s)", out.Status, w.Code, c.status, out.Body)
			}
			if !bytes.Equal(out.Body, w.Body.Bytes()) {
				t.Errorf("body %q\nnative %q", out.Body, w.Body.Bytes())
			}
			if got, want := parseHeader(t, out.Header), w.Result().Header; !equalHeader(got, want) {
				t.Errorf("header %v\nnative %v", got, want)
			}
			// The Workers build's way: the body written to a sink as it comes, the rest alike.
			var sink bytes.Buffer
			to, err := serveBridgeTo(h, c.in, &sink)
			if err != nil || to.Status != out.Status || to.Header != out.Header || (to.Body == nil) != (out.Body == nil) || len(to.Body) != 0 {
				t.Errorf("to a sink: %v %d %q body %q; want %d %q and no body of its own", err, to.Status, to.Header, to.Body, out.Status, out.Header)
			}
			if !bytes.Equal(sink.Bytes(), out.Body) {
				t.Errorf("to a sink: body %q\nkept %q", sink.Bytes(), out.Body)
			}
		})
	}
}

func equalHeader(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if strings.Join(v, "\x00") != strings.Join(b[k], "\x00") {
			return false
		}
	}
	return true
}

// TestBridgeNoBody: HEAD, a preflight (204) and the like answer with a nil body (the glue's
// Response then has none) and their headers; an empty answer of another status has an empty one.
func TestBridgeNoBody(t *testing.T) {
	h := newHandler(api.Options{})
	out, err := serveBridge(h, bridgeRequest{Method: "HEAD", URL: "https://api.example/v1/version", ContentLength: -1})
	if err != nil || out.Status != 200 || out.Body != nil {
		t.Errorf("HEAD: %v %d %q", err, out.Status, out.Body)
	}
	if cl := parseHeader(t, out.Header).Get("Content-Length"); cl == "" || cl == "0" {
		t.Errorf("HEAD: Content-Length %q; want the GET answer's", cl)
	}
	out, err = serveBridge(h, bridgeRequest{Method: "OPTIONS", URL: "https://api.example/v1/evaluate", ContentLength: -1,
		Header: header("origin", "https://vtt.example", "access-control-request-method", "POST")})
	if err != nil || out.Status != 204 || out.Body != nil || parseHeader(t, out.Header).Get("Access-Control-Max-Age") != "86400" {
		t.Errorf("OPTIONS: %v %d %q %q", err, out.Status, out.Body, out.Header)
	}
	empty := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	out, err = serveBridge(empty, bridgeRequest{Method: "GET", URL: "https://x/"})
	if err != nil || out.Status != 200 || out.Body == nil || len(out.Body) != 0 || out.Header != "" {
		t.Errorf("an empty answer: %v %d %#v %q", err, out.Status, out.Body, out.Header)
	}
}

// TestBridgeRequest: what the handler sees of the request.
func TestBridgeRequest(t *testing.T) {
	var got *http.Request
	var body []byte
	var readErr error
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		body, readErr = io.ReadAll(r.Body)
	})
	in := bridgeRequest{Method: "POST", URL: "https://api.example:8443/v1/a%2Fb?q=1",
		Header:        header("host", "api.example:8443", "cf-connecting-ip", "203.0.113.7", "x-many", "a, b", "content-length", "3"),
		ContentLength: 3, HasBody: true, Body: []byte("abc")}
	if _, err := serveBridge(h, in); err != nil {
		t.Fatal(err)
	}
	if got.Host != "api.example:8443" || got.Header.Get("Host") != "" || got.RemoteAddr != "203.0.113.7" ||
		got.RequestURI != "/v1/a%2Fb?q=1" || got.URL.Path != "/v1/a/b" || got.URL.RawPath != "/v1/a%2Fb" ||
		got.ContentLength != 3 || got.Header.Get("X-Many") != "a, b" || got.Proto != "HTTP/1.1" || got.Context() == nil {
		t.Errorf("request %+v", got)
	}
	if string(body) != "abc" || readErr != nil {
		t.Errorf("body %q, %v", body, readErr)
	}

	// A body the glue could not read to its end: its bytes, then the error.
	in = bridgeRequest{Method: "POST", URL: "https://x/", ContentLength: -1, HasBody: true, Body: []byte("ab"), BodyError: "JavaScript error on read: boom"}
	serveBridge(h, in)
	if string(body) != "ab" || readErr == nil || readErr.Error() != "JavaScript error on read: boom" {
		t.Errorf("body %q, %v", body, readErr)
	}
	// No body: http.NoBody and a length of 0, as net/http gives a GET.
	serveBridge(h, bridgeRequest{Method: "GET", URL: "https://x/", ContentLength: -1})
	if got.Body != http.NoBody || got.ContentLength != 0 || got.Host != "x" {
		t.Errorf("no body: %v %d %q", got.Body, got.ContentLength, got.Host)
	}
	// A URL Go's net/url refuses is an error (the glue answers 500; it refuses bad paths first).
	if _, err := serveBridge(h, bridgeRequest{Method: "GET", URL: "https://x/%zz"}); err == nil {
		t.Error("a bad URL: no error")
	}
}

// TestBridgeWriter: the first WriteHeader holds, with the headers as they were then; newlines
// in a value become spaces; headers come sorted; a panic is an error.
func TestBridgeWriter(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-B", "two\r\nlines")
		w.Header().Add("X-A", "1")
		w.Header().Add("X-A", "2")
		w.WriteHeader(422)
		w.WriteHeader(500)
		w.Header().Set("X-Late", "ignored")
		w.Write([]byte("a"))
		w.(http.Flusher).Flush()
		w.Write([]byte("b"))
	})
	out, err := serveBridge(h, bridgeRequest{Method: "GET", URL: "https://x/"})
	if err != nil || out.Status != 422 || string(out.Body) != "ab" || out.Header != "X-A\n1\nX-A\n2\nX-B\ntwo  lines\n" {
		t.Errorf("%v %d %q %q", err, out.Status, out.Body, out.Header)
	}
	for _, v := range []any{"boom", http.ErrAbortHandler} {
		p := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic(v) })
		if _, err := serveBridge(p, bridgeRequest{Method: "GET", URL: "https://x/"}); err == nil || !strings.Contains(err.Error(), "panicked") {
			t.Errorf("panic(%v): %v", v, err)
		}
	}
}
