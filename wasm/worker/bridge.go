package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// The request bridge of the Workers build (issue 16). glue/worker.mjs reads a request's body in
// JavaScript, up to the API's limit, and hands Go the whole request at once (bridge_js.go); Go
// answers it and hands back the whole answer, its body copied into JavaScript's memory as it is
// written (bridge_js.go). One call into Go per request and no JavaScript object kept:
// github.com/syumai/workers' own bridge, which the glue no longer uses, awaits a promise for
// every chunk of a body and for its answer stream, and leaks a js.Func for each one (README.md,
// "The request bridge").
//
// What is here is plain Go, tested natively (bridge_test.go); bridge_js.go converts the values.

// bridgeRequest is a request as the glue hands it over.
type bridgeRequest struct {
	Method string
	URL    string // absolute, as the runtime's Request.url gives it
	// Header is every header line as "name\nvalue\n" (names lowercase, values of one name
	// joined with ", ", as a Fetch API Headers object gives them).
	Header        string
	ContentLength int64 // the declared Content-Length; -1 when none was declared
	HasBody       bool  // whether the request has a body (Request.body is not null)
	Body          []byte
	// BodyError is why the body could not be read to its end ("" when it was): the handler
	// reads Body, then this error.
	BodyError string
}

// bridgeResponse is the handler's answer, for the glue to make a Response of.
type bridgeResponse struct {
	Status int
	// Header is every header as "name\nvalue\n", names in canonical form and sorted.
	Header string
	// Body is nil for an answer that has no body (HEAD, 1xx, 204, 205, 304). Answered through
	// serveBridgeTo, it is empty for one that has: the body is what the sink was given.
	Body []byte
}

// serveBridge answers in with h, as net/http's server would: the answer's status and headers are
// those of the first WriteHeader (or Write), and a HEAD request's answer has no body. A panic
// of the handler (wasm/api recovers its own, but for http.ErrAbortHandler) is an error, which
// the glue answers with a 500.
func serveBridge(h http.Handler, in bridgeRequest) (out bridgeResponse, err error) {
	return serveBridgeTo(h, in, nil)
}

// serveBridgeTo is serveBridge writing the answer's body to sink as the handler writes it,
// rather than keeping it (when sink is not nil). The Workers build gives a sink that copies
// into JavaScript's memory (bridge_js.go), so that the body is not held in Go's memory twice,
// the handler's answer and a copy of it here: WebAssembly's memory never shrinks, and a
// 26 MB answer (2^20 cells far from the origin) took Go's from 6 to 136 MiB.
func serveBridgeTo(h http.Handler, in bridgeRequest, sink io.Writer) (out bridgeResponse, err error) {
	r, err := in.request()
	if err != nil {
		return bridgeResponse{}, err
	}
	w := &memoryWriter{header: http.Header{}, sink: sink}
	defer func() {
		if v := recover(); v != nil {
			out, err = bridgeResponse{}, fmt.Errorf("the handler panicked: %v", v)
		}
	}()
	h.ServeHTTP(w, r)
	return w.response(r.Method), nil
}

// request is in as an *http.Request, as net/http's server makes one: the Host header in r.Host,
// not in r.Header.
func (in bridgeRequest) request() (*http.Request, error) {
	u, err := url.Parse(in.URL)
	if err != nil {
		return nil, err
	}
	header := http.Header{}
	lines := strings.Split(in.Header, "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		header.Add(lines[i], lines[i+1])
	}
	host := header.Get("Host")
	if host == "" {
		host = u.Host
	}
	header.Del("Host")
	var body io.ReadCloser = http.NoBody
	if in.HasBody {
		var rd io.Reader = bytes.NewReader(in.Body)
		if in.BodyError != "" {
			rd = io.MultiReader(rd, errorReader{errors.New(in.BodyError)})
		}
		body = io.NopCloser(rd)
	}
	contentLength := in.ContentLength
	if contentLength < 0 && !in.HasBody {
		contentLength = 0
	}
	return &http.Request{
		Method:        in.Method,
		URL:           u,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        header,
		Body:          body,
		ContentLength: contentLength,
		Host:          host,
		RemoteAddr:    header.Get("Cf-Connecting-Ip"),
		RequestURI:    u.RequestURI(),
	}, nil
}

var newlineToSpace = strings.NewReplacer("\r", " ", "\n", " ")

type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) { return 0, e.err }

// memoryWriter is an http.ResponseWriter that keeps the answer in memory.
type memoryWriter struct {
	header      http.Header // the handler's, until WriteHeader
	wroteHeader bool
	status      int
	sent        http.Header // header as it was at WriteHeader
	body        bytes.Buffer
	sink        io.Writer // where the body goes instead of body, when not nil
}

func (w *memoryWriter) Header() http.Header { return w.header }

func (w *memoryWriter) WriteHeader(status int) {
	if w.wroteHeader {
		return // net/http logs "superfluous WriteHeader" and keeps the first
	}
	if status < 100 || status > 999 {
		panic(fmt.Sprintf("invalid WriteHeader code %v", status)) // as net/http does
	}
	w.wroteHeader = true
	w.status = status
	w.sent = w.header.Clone()
}

func (w *memoryWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	if w.sink != nil {
		return w.sink.Write(b)
	}
	return w.body.Write(b)
}

// Flush does nothing: the answer goes whole once the handler returns.
func (w *memoryWriter) Flush() {}

func (w *memoryWriter) response(method string) bridgeResponse {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	var hb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(w.sent)) {
		for _, v := range w.sent[k] {
			hb.WriteString(k)
			hb.WriteByte('\n')
			hb.WriteString(newlineToSpace.Replace(v)) // as net/http writes a value
			hb.WriteByte('\n')
		}
	}
	out := bridgeResponse{Status: w.status, Header: hb.String(), Body: w.body.Bytes()}
	if method == http.MethodHead || !bodyAllowed(w.status) {
		out.Body = nil
	} else if out.Body == nil {
		out.Body = []byte{}
	}
	return out
}

// bodyAllowed reports whether an answer of this status may have a body (net/http's rule, and
// the Fetch API's: a Response of status 204, 205 or 304 must have none).
func bodyAllowed(status int) bool {
	switch {
	case status >= 100 && status <= 199, status == http.StatusNoContent, status == http.StatusResetContent, status == http.StatusNotModified:
		return false
	}
	return true
}
