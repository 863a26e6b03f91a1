package main

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/api"
	"github.com/aoekit/aoekit/wasm/wire"
)

// One answer for odd requests in both builds (issue 29, 7). The Workers runtime (workerd) reads a
// request's framing before the worker sees it, and hands over less than the native server's
// net/http does: a method it does not know never reaches the worker, repeated Content-Type lines
// arrive as one value, and bytes that are not UTF-8 arrive as U+FFFD. newHandler is the API as both
// builds serve it: wasm/api's handler behind asWorkers, which gives the native server the request as
// the Workers runtime would hand it over, or the answer both builds give when it would not.
// In the Workers build every request already arrives in that form, and asWorkers changes nothing.

// newHandler is the API of both builds: wasm/api's handler, configured by o, behind asWorkers.
func newHandler(o api.Options) http.Handler {
	return asWorkers(api.NewWithOptions(o))
}

// workersMethods are the methods the Workers runtime hands to a worker: kj's HTTP methods
// (KJ_HTTP_FOR_EACH_METHOD, which workerd parses the request line with; CONNECT is not among
// them). Methods are case-sensitive: workerd answers any other token, "get" and "M-SEARCH"
// included, with its own 501 before the worker runs (checked against workerd by
// e2e/framing.test.mjs).
var workersMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "DELETE": true, "PATCH": true, "PURGE": true,
	"OPTIONS": true, "TRACE": true, "COPY": true, "LOCK": true, "MKCOL": true, "MOVE": true,
	"PROPFIND": true, "PROPPATCH": true, "SEARCH": true, "UNLOCK": true, "ACL": true, "REPORT": true,
	"MKACTIVITY": true, "CHECKOUT": true, "MERGE": true, "MSEARCH": true, "NOTIFY": true,
	"SUBSCRIBE": true, "UNSUBSCRIBE": true, "QUERY": true,
}

// asWorkers answers, before next sees the request:
//   - a method the Workers runtime does not know (workersMethods; CONNECT too): 501, the API's
//     JSON error. RFC 9110 §15.6.2 gives 501 for a method the server does not recognise, and it
//     is the status the Workers runtime gives (in plain text, before the worker runs);
//   - a request target that is neither a path (/v1/parse) nor an absolute http(s) URL
//     (http://host/v1/parse, which a server must accept: RFC 9112 §3.2.2): 400, the API's JSON
//     error ("*", "host:port"); but OPTIONS *, which the API answers (serverOptions).
//
// And it hands next the request as the Workers runtime hands it to the worker:
//   - a request that asks for a WebSocket (Upgrade: websocket) as a GET with an empty body, its
//     method whatever it was (websocketUpgrade);
//   - every header value decoded as UTF-8 the WHATWG way, each maximal ill-formed subsequence one
//     U+FFFD (a 0xff byte is U+FFFD, and the answer carries U+FFFD as such rather than Go's
//     "\ufffd" escape of a raw byte);
//   - the Content-Type lines as one value, joined as kj joins a header's lines: ", " between them,
//     but a line that comes while the value so far is empty replaces it (so "", then
//     "application/json" is "application/json"; "application/json", then "" is
//     "application/json, ", refused as two types); an empty value is no header;
//   - bytes of the request target past ASCII decoded the same way and percent-encoded (a raw 0xff
//     in the path is %EF%BF%BD), as the runtime's URL parser does.
func asWorkers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !workersMethods[r.Method] {
			refuse(w, http.StatusNotImplemented, "method "+api.Short(r.Method)+" is not implemented: the API answers GET, HEAD, POST and OPTIONS (methods are case-sensitive)")
			return
		}
		r = asHandedOver(r)
		if websocketUpgrade(r.Header) {
			r = r.Clone(r.Context())
			r.Method, r.Body, r.ContentLength = http.MethodGet, http.NoBody, 0
		}
		target := r.RequestURI
		if !strings.HasPrefix(target, "/") && !absoluteHTTP(r.URL) && !serverOptions(r) {
			refuse(w, http.StatusBadRequest, "the request target "+api.Short(target)+" is not a path: send the path, such as /v1/parse, or an absolute http(s) URL")
			return
		}
		if r.URL.Path == "" { // http://host: the path is /
			u := *r.URL
			u.Path, u.RawPath = "/", ""
			r.URL = &u
		}
		next.ServeHTTP(w, r)
	})
}

// websocketUpgrade reports whether h asks for a WebSocket: its Upgrade lines, joined as workerd
// joins a header's lines, are "websocket" in any case. workerd hands such a request to the worker
// as a GET with an empty body, whatever its method (checked against workerd by
// e2e/framing.test.mjs); "websocket, foo" or "h2c" it hands over as sent. (A value with trailing
// blanks, "websocket  ", workerd keeps as it is, not a WebSocket's; net/http trims them.)
func websocketUpgrade(h http.Header) bool {
	vs := h.Values("Upgrade")
	return len(vs) == 1 && strings.EqualFold(vs[0], "websocket")
}

// serverOptions reports whether r is OPTIONS *, which the API answers as net/http does (200, no
// body; wasm/api's withServerOptions): natively net/http answers it before the handler runs, and
// workerd never hands it to the worker (its 500, before any code of ours: README, "Odd requests").
func serverOptions(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.RequestURI == "*"
}

// absoluteHTTP reports whether u, a request's target, is an absolute http(s) URL with a host.
func absoluteHTTP(u *url.URL) bool {
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Opaque == "" && u.Host != ""
}

// asHandedOver returns r as the Workers runtime hands it over (see asWorkers): r itself when
// nothing changes, which is every request but odd ones.
func asHandedOver(r *http.Request) *http.Request {
	target := r.RequestURI
	if ascii(target) && !needsHeaderChange(r.Header) {
		return r
	}
	r = r.Clone(r.Context())
	for k, vs := range r.Header {
		for i, v := range vs {
			vs[i] = decodeUTF8(v)
		}
		r.Header[k] = vs
	}
	if vs := r.Header.Values("Content-Type"); len(vs) > 0 {
		merged := ""
		for _, v := range vs {
			if merged == "" {
				merged = v
			} else {
				merged += ", " + v
			}
		}
		if merged == "" {
			r.Header.Del("Content-Type")
		} else {
			r.Header.Set("Content-Type", merged)
		}
	}
	if !ascii(target) {
		enc := percentEncodeNonASCII(decodeUTF8(target))
		// The target parsed before (net/http parsed it); bytes past ASCII made %XX leave it valid.
		if u, err := url.ParseRequestURI(enc); err == nil {
			r.URL, r.RequestURI = u, enc
		}
	}
	return r
}

// needsHeaderChange reports whether asHandedOver changes h: a value that is not UTF-8, or a
// Content-Type that is empty or on more than one line.
func needsHeaderChange(h http.Header) bool {
	if ct := h["Content-Type"]; len(ct) > 1 || (len(ct) == 1 && ct[0] == "") {
		return true
	}
	for _, vs := range h {
		for _, v := range vs {
			if !utf8.ValidString(v) {
				return true
			}
		}
	}
	return false
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// decodeUTF8 is s decoded as UTF-8 by the WHATWG Encoding Standard's decoder (as JavaScript's
// TextDecoder and V8 decode): each maximal subpart of an ill-formed sequence becomes one U+FFFD.
// Go's own replacement (strings.ToValidUTF8, ranging over a string) works byte by byte or run by
// run instead: "\xe2\x82" is one U+FFFD here, two for range, one for ToValidUTF8, as is
// "\xff\xfe", two here.
func decodeUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += maximalSubpart(s[i:])
	}
	return b.String()
}

// maximalSubpart is the length of the ill-formed sequence at the start of s that the WHATWG
// decoder reads as one U+FFFD: a lead byte and the continuation bytes that may follow it, up to
// the first that may not (at least 1).
func maximalSubpart(s string) int {
	c := s[0]
	need, lo, hi := 0, byte(0x80), byte(0xbf)
	switch {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c == 0xed:
		need, hi = 2, 0x9f
	case c >= 0xe1 && c <= 0xef:
		need = 2
	case c == 0xf0:
		need, lo = 3, 0x90
	case c == 0xf4:
		need, hi = 3, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	default:
		return 1
	}
	k := 1
	for k <= need && k < len(s) && s[k] >= lo && s[k] <= hi {
		lo, hi = 0x80, 0xbf
		k++
	}
	return k
}

// percentEncodeNonASCII writes every byte of s past ASCII as %XX (upper-case hex, as the WHATWG
// URL parser does).
func percentEncodeNonASCII(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// refuse answers with the API's JSON error (code bad_request) and its headers.
func refuse(w http.ResponseWriter, status int, msg string) {
	body := wire.Error(&engine.Error{Code: engine.CodeBadRequest, Message: msg})
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}
