package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// echo is a door that answers {"door": name, "bytes": len(body)}.
func echo(name string) door {
	return func(_ engine.Context, body []byte) ([]byte, *engine.Error) {
		return []byte(`{"door":"` + name + `","bytes":` + strconv.Itoa(len(body)) + `}`), nil
	}
}

func stubHandler() http.Handler {
	return newHandler(doors{parse: echo("parse"), evaluate: echo("evaluate"), move: echo("move"), cover: echo("cover"), fullAttack: echo("full-attack"),
		version: func() []byte { return []byte(`{"engine":"stub"}`) }}, Options{})
}

type call struct {
	method, path, contentType, body string
}

func (c call) do(t *testing.T, h http.Handler) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
	if c.contentType != "" {
		req.Header.Set("Content-Type", c.contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// errorOf decodes an error body, failing the test when the body is not one.
func errorOf(t *testing.T, w *httptest.ResponseRecorder) engine.Error {
	t.Helper()
	var body struct {
		Error *engine.Error `json:"error"`
	}
	dec := json.NewDecoder(bytes.NewReader(w.Body.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.Error == nil || body.Error.Code == "" || body.Error.Message == "" {
		t.Fatalf("not an error body (%v): %q", err, w.Body.String())
	}
	return *body.Error
}

// checkCommon checks what every answer carries.
func checkCommon(t *testing.T, c call, w *httptest.ResponseRecorder) {
	t.Helper()
	if got := w.Header().Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("%s %s: Access-Control-Allow-Origin %q", c.method, c.path, got)
	}
	if w.Code == http.StatusNoContent {
		if w.Body.Len() != 0 {
			t.Errorf("%s %s: 204 with a body", c.method, c.path)
		}
		return
	}
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q", c.method, c.path, ct)
	}
	if cl := w.Header().Get("Content-Length"); cl != strconv.Itoa(w.Body.Len()) {
		t.Errorf("%s %s: Content-Length %s for %d bytes", c.method, c.path, cl, w.Body.Len())
	}
	if w.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s %s: no nosniff", c.method, c.path)
	}
	if !json.Valid(w.Body.Bytes()) {
		t.Errorf("%s %s: body is not JSON: %q", c.method, c.path, w.Body.String())
	}
}

// TestRoutesAndMethods tries every method on every route.
func TestRoutesAndMethods(t *testing.T) {
	h := stubHandler()
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"}
	for _, path := range []string{"/v1/parse", "/v1/evaluate", "/v1/move", "/v1/cover", "/v1/full-attack", "/v1/version"} {
		door := strings.TrimPrefix(path, "/v1/")
		for _, m := range methods {
			c := call{m, path, "application/json", `{"text": "Cir3"}`}
			w := c.do(t, h)
			checkCommon(t, c, w)
			allow := "POST, OPTIONS"
			if door == "version" {
				allow = "GET, HEAD, OPTIONS"
			}
			want := http.StatusMethodNotAllowed
			switch {
			case m == "OPTIONS":
				want = http.StatusNoContent
			case door == "version":
				if m == "GET" || m == "HEAD" {
					want = http.StatusOK
				}
			case m == "POST":
				want = http.StatusOK
			}
			if w.Code != want {
				t.Errorf("%s %s: %d, want %d (%s)", m, path, w.Code, want, w.Body)
				continue
			}
			switch want {
			case http.StatusOK:
				wantBody := `{"door":"` + door + `","bytes":16}`
				if door == "version" {
					wantBody = `{"engine":"stub"}`
				}
				if w.Body.String() != wantBody {
					t.Errorf("%s %s: body %s, want %s", m, path, w.Body, wantBody)
				}
			case http.StatusMethodNotAllowed:
				if got := w.Header().Get("Allow"); got != allow {
					t.Errorf("%s %s: Allow %q, want %q", m, path, got, allow)
				}
				e := errorOf(t, w)
				wantMsg := "method " + m + " is not allowed on " + path + "; use " + strings.Split(allow, ",")[0]
				if e.Code != "bad_request" || e.Message != wantMsg {
					t.Errorf("%s %s: %+v, want %q", m, path, e, wantMsg)
				}
			case http.StatusNoContent:
				for k, v := range map[string]string{"Allow": allow, "Access-Control-Allow-Methods": allow,
					"Access-Control-Allow-Headers": "Content-Type", "Access-Control-Max-Age": "86400"} {
					if got := w.Header().Get(k); got != v {
						t.Errorf("OPTIONS %s: %s %q, want %q", path, k, got, v)
					}
				}
			}
		}
	}
}

// TestPreflight is what a browser on another origin sends before a JSON POST.
func TestPreflight(t *testing.T) {
	req := httptest.NewRequest("OPTIONS", "/v1/evaluate", nil)
	req.Header.Set("Origin", "https://vtt.example")
	req.Header.Set("Access-Control-Request-Method", "POST")
	req.Header.Set("Access-Control-Request-Headers", "content-type")
	w := httptest.NewRecorder()
	New().ServeHTTP(w, req)
	if w.Code != 204 || w.Header().Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(w.Header().Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.EqualFold(w.Header().Get("Access-Control-Allow-Headers"), "content-type") ||
		w.Header().Get("Access-Control-Max-Age") != "86400" {
		t.Errorf("preflight: %d %v", w.Code, w.Header())
	}
}

func TestNotFound(t *testing.T) {
	h := stubHandler()
	for _, path := range []string{"/", "/v1", "/v1/", "/v1/parse/", "/v1/PARSE", "/v2/parse", "/favicon.ico", "/v1/evaluate/x",
		"/" + strings.Repeat("x", 300)} {
		for _, m := range []string{"GET", "POST", "OPTIONS", "DELETE"} {
			c := call{m, path, "application/json", `{}`}
			w := c.do(t, h)
			checkCommon(t, c, w)
			if w.Code != http.StatusNotFound {
				t.Errorf("%s %s: %d, want 404", m, path, w.Code)
				continue
			}
			e := errorOf(t, w)
			if e.Code != "bad_request" || !strings.HasPrefix(e.Message, "no such endpoint: "+m+" ") ||
				!strings.HasSuffix(e.Message, "(the API has "+routes+")") || len(e.Message) > 300 {
				t.Errorf("%s %s: %+v", m, path, e)
			}
		}
	}
}

// TestCleanPaths: a path with // or dot segments is answered as its canonical path, with no
// redirect (ServeMux's would be a 307 with an empty body; the Workers runtime resolves dot
// segments before the handler sees them). More in TestCanonicalPaths.
func TestCleanPaths(t *testing.T) {
	for _, p := range []string{"/v1//parse", "//v1/parse", "/v1/./parse", "/v1/x/../parse"} {
		c := call{"POST", p, "application/json", `{}`}
		w := c.do(t, stubHandler())
		checkCommon(t, c, w)
		if w.Code != http.StatusOK || w.Body.String() != `{"door":"parse","bytes":2}` || w.Header().Get("Location") != "" {
			t.Errorf("POST %s: %d %v %s", p, w.Code, w.Header(), w.Body)
		}
	}
}

func TestContentType(t *testing.T) {
	h := stubHandler()
	for _, c := range []struct {
		ct   string
		want int
		msg  string
	}{
		{"application/json", 200, ""},
		{"application/json; charset=utf-8", 200, ""},
		{"Application/JSON;Charset=UTF-8", 200, ""},
		{"application/json ; charset=\"utf-8\"", 200, ""},
		{"", 415, "missing Content-Type: the body must be JSON, sent with Content-Type: application/json"},
		{"text/plain", 415, "unsupported Content-Type text/plain: the body must be JSON, sent with Content-Type: application/json"},
		{"text/plain;charset=UTF-8", 415, "unsupported Content-Type text/plain;charset=UTF-8: the body must be JSON, sent with Content-Type: application/json"},
		{"application/x-www-form-urlencoded", 415, "unsupported Content-Type application/x-www-form-urlencoded: the body must be JSON, sent with Content-Type: application/json"},
		{"multipart/form-data; boundary=x", 415, "unsupported Content-Type multipart/form-data; boundary=x: the body must be JSON, sent with Content-Type: application/json"},
		{"application/jsonx", 415, "unsupported Content-Type application/jsonx: the body must be JSON, sent with Content-Type: application/json"},
		{"application/", 415, "unsupported Content-Type application/: the body must be JSON, sent with Content-Type: application/json"},
		{"application/json; charset=latin1", 415, "unsupported Content-Type application/json; charset=latin1: JSON is UTF-8 (charset=utf-8 or no parameter)"},
		{"application/json; profile=x", 415, "unsupported Content-Type application/json; profile=x: JSON is UTF-8 (charset=utf-8 or no parameter)"},
	} {
		for _, path := range []string{"/v1/parse", "/v1/evaluate", "/v1/move", "/v1/cover", "/v1/full-attack"} {
			cl := call{"POST", path, c.ct, `{}`}
			w := cl.do(t, h)
			checkCommon(t, cl, w)
			if w.Code != c.want {
				t.Errorf("%s with %q: %d, want %d", path, c.ct, w.Code, c.want)
				continue
			}
			if c.want == 415 {
				if e := errorOf(t, w); e.Code != "bad_request" || e.Message != c.msg {
					t.Errorf("%s with %q: %+v, want %q", path, c.ct, e, c.msg)
				}
			}
		}
	}
	// GET /v1/version needs no Content-Type.
	if w := (call{"GET", "/v1/version", "text/html", ""}).do(t, h); w.Code != 200 {
		t.Errorf("version with text/html: %d", w.Code)
	}
}

// TestBodyLimit: 1 MiB passes, one byte more is 413, whether the length is declared or not.
func TestBodyLimit(t *testing.T) {
	srv := httptest.NewServer(stubHandler())
	defer srv.Close()
	post := func(body io.Reader, length int64) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/evaluate", body)
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = length
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	body := func(n int) []byte { return bytes.Repeat([]byte(" "), n) }
	tooLarge := `{"error":{"code":"too_large","message":"the request body exceeds the 1 MiB limit (1048576 bytes)"}}`
	for _, c := range []struct {
		name   string
		n      int
		length int64 // -1: chunked
		status int
		body   string
	}{
		{"empty", 0, 0, 200, `{"door":"evaluate","bytes":0}`},
		{"exactly 1 MiB", MaxBody, MaxBody, 200, `{"door":"evaluate","bytes":1048576}`},
		{"exactly 1 MiB, chunked", MaxBody, -1, 200, `{"door":"evaluate","bytes":1048576}`},
		{"1 MiB + 1", MaxBody + 1, MaxBody + 1, 413, tooLarge},
		{"1 MiB + 1, chunked", MaxBody + 1, -1, 413, tooLarge},
		{"8 MiB, chunked", 8 * MaxBody, -1, 413, tooLarge},
	} {
		res, got := post(bytes.NewReader(body(c.n)), c.length)
		if res.StatusCode != c.status || string(got) != c.body {
			t.Errorf("%s: %d %s, want %d %s", c.name, res.StatusCode, got, c.status, c.body)
		}
		if res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no CORS header", c.name)
		}
	}
	// A declared length past the limit is refused before the body is read.
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/parse", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = 10 * MaxBody
	stubHandler().ServeHTTP(w, req)
	if w.Code != 413 || w.Body.String() != tooLarge {
		t.Errorf("declared 10 MiB: %d %s", w.Code, w.Body)
	}
}

// TestErrorStatuses maps every CONTRACT code to its HTTP status.
func TestErrorStatuses(t *testing.T) {
	for _, c := range []struct {
		err    *engine.Error
		status int
	}{
		{&engine.Error{Code: engine.CodeBadRequest, Message: "tokens[3].x: expected an integer, got a string"}, 400},
		{&engine.Error{Code: engine.CodeBadNotation, Message: "Con4: a cone needs a direction", At: 5}, 400},
		{&engine.Error{Code: engine.CodeTooLarge, Message: "10001 tokens; the limit is 10000"}, 400},
		{&engine.Error{Code: engine.CodeOutOfRange, Message: "origin 25 squares away; range 20"}, 422},
		{&engine.Error{Code: engine.CodeNoLineOfEffect, Message: "no line of effect to the origin"}, 422},
		{&engine.Error{Code: engine.CodeInvalidWall, Message: "square 3 shares no face"}, 422},
		{&engine.Error{Code: engine.CodeNotStraight, Message: "the path reverses at square 2"}, 422},
		{wire.InternalError("boom"), 500}, // flagged Internal, as wire makes them
	} {
		fail := func(engine.Context, []byte) ([]byte, *engine.Error) { return nil, c.err }
		h := newHandler(doors{parse: fail, evaluate: fail, move: fail, cover: fail, fullAttack: fail, version: wire.Version}, Options{})
		for _, path := range []string{"/v1/parse", "/v1/evaluate", "/v1/move", "/v1/cover", "/v1/full-attack"} {
			cl := call{"POST", path, "application/json", "{}"}
			w := cl.do(t, h)
			checkCommon(t, cl, w)
			if w.Code != c.status || w.Body.String() != string(wire.Error(c.err)) {
				t.Errorf("%s %s: %d %s, want %d %s", path, c.err.Code, w.Code, w.Body, c.status, wire.Error(c.err))
			}
		}
	}
}

func TestPanicIs500(t *testing.T) {
	boom := func(engine.Context, []byte) ([]byte, *engine.Error) { panic("boom") }
	h := newHandler(doors{parse: boom, evaluate: boom, move: boom, cover: boom, fullAttack: boom, version: func() []byte { panic("v") }}, Options{})
	for _, c := range []call{{"POST", "/v1/parse", "application/json", "{}"}, {"GET", "/v1/version", "", ""}} {
		w := c.do(t, h)
		checkCommon(t, c, w)
		if e := errorOf(t, w); w.Code != 500 || !strings.HasPrefix(e.Message, "internal error: ") {
			t.Errorf("%s: %d %+v", c.path, w.Code, e)
		}
	}
}

// TestBodiesAreWire: through the real doors, every HTTP answer is wire's, byte for byte, with
// wire's status — whatever the engine answers.
func TestBodiesAreWire(t *testing.T) {
	h := New()
	for _, c := range []struct {
		path string
		door func([]byte) ([]byte, *engine.Error)
		body string
	}{
		{"/v1/parse", wire.Parse, `{"text": "Con4NE"}`},
		{"/v1/parse", wire.Parse, `{"text": "Con4"}`},
		{"/v1/parse", wire.Parse, `{"text": 4}`},
		{"/v1/parse", wire.Parse, `{"text": "Con4NE"`},
		{"/v1/evaluate", wire.Evaluate, `{"template": "Cir3", "caster": {"id": "c", "x": 0, "y": 0}, "origin": {"x": 2, "y": 2}, "range": 10}`},
		{"/v1/evaluate", wire.Evaluate, `{"template": "Cir3", "tokens": [{"x": "1"}]}`},
		{"/v1/evaluate", wire.Evaluate, `{"a":`},
		{"/v1/evaluate", wire.Evaluate, ``},
		{"/v1/move", wire.Move, `{"kind": "push", "distance": 2, "source": {"x": 0, "y": 0}, "target": "g", "tokens": [{"id": "g", "x": 1, "y": 0}]}`},
		{"/v1/move", wire.Move, `[]`},
		{"/v1/cover", wire.Cover, `{"rules": "dnd35", "attack": "ranged", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 4, "y": 1}, "obstacles": [{"x": 2, "y": 1}]}`},
		{"/v1/cover", wire.Cover, `{"attack": "melee", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 4, "y": 1}}`},
		{"/v1/cover", wire.Cover, `{"attack": "spell", "attacker": {"x": 0, "y": 0}, "target": {"id": "t", "x": 1, "y": 0}}`},
		{"/v1/full-attack", wire.FullAttack, `{"bab": 6, "holding": {"main": {"id": "longsword", "kind": "oneHanded"}}, "steps": [{"attack": "main"}]}`},
		{"/v1/full-attack", wire.FullAttack, `{"steps": [{"attack": "main", "extra": true}]}`},
		{"/v1/full-attack", wire.FullAttack, `{"bab": 41}`},
		{"/v1/full-attack", wire.FullAttack, `{"steps": [{"attack": 1}]}`},
	} {
		cl := call{"POST", c.path, "application/json", c.body}
		w := cl.do(t, h)
		checkCommon(t, cl, w)
		out, err := c.door([]byte(c.body))
		want, status := out, 200
		if err != nil {
			want, status = wire.Error(err), wire.Status(err)
		}
		if w.Code != status || !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("%s %s: %d %s, want %d %s", c.path, c.body, w.Code, w.Body, status, want)
		}
	}
	w := call{"POST", "/v1/evaluate", "application/json", `{"template": "Cir3",, }`}.do(t, h)
	if e := errorOf(t, w); w.Code != 400 || e.Message != "malformed JSON at byte 20: expected a field name (a string)" {
		t.Errorf("malformed: %d %+v", w.Code, e)
	}
	w = call{"GET", "/v1/version", "", ""}.do(t, h)
	if w.Code != 200 || w.Body.String() != string(wire.Version()) {
		t.Errorf("version: %d %s", w.Code, w.Body)
	}
}

// TestHeadHasNoBody runs over a real connection, where HEAD answers carry headers only.
func TestHeadHasNoBody(t *testing.T) {
	srv := httptest.NewServer(New())
	defer srv.Close()
	res, err := http.Head(srv.URL + "/v1/version")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || len(b) != 0 || res.Header.Get("Content-Length") != strconv.Itoa(len(wire.Version())) {
		t.Errorf("HEAD: %d %q %v", res.StatusCode, b, res.Header)
	}
}

// TestContractParse checks the CONTRACT parse example once the engine parses.
func TestContractParse(t *testing.T) {
	w := call{"POST", "/v1/parse", "application/json", `{"text": "Con4NE"}`}.do(t, New())
	if w.Code != 200 && strings.Contains(w.Body.String(), "not implemented") {
		t.Skip("engine.Parse is not implemented yet")
	}
	want := `{"text":"Con4NE","notation":"Con4NE","rules":"tdgs","shape":"cone","length":4,"direction":"NE","height":4}`
	if w.Code != 200 || w.Body.String() != want {
		t.Errorf("parse Con4NE: %d %s\nwant %s", w.Code, w.Body, want)
	}
}
