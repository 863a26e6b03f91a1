package api

import (
	"bytes"
	"context"
	"errors"
	"mime"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/internal/limits"
	"github.com/aoekit/aoekit/wasm/wire"
)

// MaxBody is the largest request body accepted, 1 MiB; past it the answer is 413. The
// WebAssembly module refuses a larger request with the same limit (wasm/internal/limits).
const MaxBody = limits.MaxBody

// MaxAge is how long, in seconds, a browser may cache a CORS preflight answer.
const MaxAge = 86400

// routes lists the endpoints, for 404 messages.
const routes = "POST /v1/parse, POST /v1/evaluate, POST /v1/move, POST /v1/cover, POST /v1/full-attack, GET /v1/version"

// A door answers a request body with a JSON body or an error (wire.Parse and the like),
// watching ctx. The handler's ctx is never cancelled by the client: net/http cancels a
// request's context when its client closes its side of the connection, which a client that
// half-closes after sending its request (nc -N, some proxies) does while still reading, and
// every door's work is bounded anyway (SPEC §8.3: about a second at most).
type door func(ctx engine.Context, body []byte) ([]byte, *engine.Error)

// doors are the handler's answers, replaced in tests.
type doors struct {
	parse, evaluate, move, cover, fullAttack door
	version                                  func() []byte
}

// plain is a door that does not watch its context: parse, cover and full attack, whose work is
// bounded by the request's sizes well under a second (SPEC §8.3, §9.1).
func plain(fn func(body []byte) ([]byte, *engine.Error)) door {
	return func(_ engine.Context, body []byte) ([]byte, *engine.Error) { return fn(body) }
}

// Options configure the handler; the zero value is New's.
type Options struct {
	// MaxEvaluations caps how many requests the engine answers at once (POST /v1/parse,
	// /v1/evaluate, /v1/move, /v1/cover, /v1/full-attack, counted once their body has arrived;
	// reading a body takes no slot, nor writing its answer). A request past the cap waits its
	// turn (first come, first served) for up to QueueWait, in a queue of at most QueueLength;
	// past either it is answered with 503, Retry-After: 1 and the code too_large; so is an
	// answer over 1 MiB while MaxEvaluations × 48 MiB of such answers are being sent. 0 or less
	// means no cap.
	MaxEvaluations int
	// QueueWait is how long a request waits for a slot: 2 s when 0; less than 0, none (503 at
	// once, as before the queue).
	QueueWait time.Duration
	// QueueLength is how many requests may wait at once: 64 × MaxEvaluations when 0.
	QueueLength int
}

// DefaultQueueWait is Options.QueueWait's default.
const DefaultQueueWait = 2 * time.Second

// New returns the HTTP API:
//
//	POST /v1/parse        {"text": "…"}        → template
//	POST /v1/evaluate     request              → result
//	POST /v1/move         move request         → move result
//	POST /v1/cover        cover request        → cover result
//	POST /v1/full-attack  full-attack request  → full attack
//	GET  /v1/version                           → version
//
// Errors are {"error": {"code", "message", "field"?, "at"?}}: 400 for a bad request (malformed JSON names
// the byte offset), 422 for a rule violation (a full attack's illegal step among them), 404 for an unknown path, 405 (with Allow) for a
// wrong method, 413 past MaxBody, 415 for a body that is not application/json, 500 for a bug,
// and, with Options.MaxEvaluations, 503 (Retry-After: 1) when busy. Every answer carries Access-Control-Allow-Origin: *, and OPTIONS answers CORS preflights;
// but OPTIONS * (about the server, not a path) answers 200 with no body, as net/http does.
// An evaluation or a move runs to its end even if its client goes away (see door).
// Paths are routed in their canonical form (see canonicalPath): /v1//parse and /v1/./parse are
// /v1/parse, with no redirect.
func New() http.Handler {
	return NewWithOptions(Options{})
}

// NewWithOptions returns the HTTP API of New configured by o.
func NewWithOptions(o Options) http.Handler {
	return newHandler(doors{parse: plain(wire.Parse), evaluate: evaluate, move: move, cover: plain(wire.Cover),
		fullAttack: plain(wire.FullAttack), version: wire.Version}, o)
}

// evaluate and move are wire's, watching the request's context.
func evaluate(ctx engine.Context, body []byte) ([]byte, *engine.Error) {
	return wire.EvaluateContext(ctx, body)
}

func move(ctx engine.Context, body []byte) ([]byte, *engine.Error) {
	return wire.MoveContext(ctx, body)
}

func newHandler(d doors, o Options) http.Handler {
	h, _ := newHandlerGate(d, o)
	return h
}

// newHandlerGate is newHandler, with its gate (nil without a cap) for tests.
func newHandlerGate(d doors, o Options) (http.Handler, *gate) {
	mux := http.NewServeMux()
	var slots *gate
	var out *sending
	if o.MaxEvaluations > 0 {
		wait, length := o.QueueWait, o.QueueLength
		if wait == 0 {
			wait = DefaultQueueWait
		}
		if length <= 0 {
			length = 64 * o.MaxEvaluations
		}
		slots = newGate(o.MaxEvaluations, length, wait)
		slots.slots = o.MaxEvaluations
		out = &sending{max: o.MaxEvaluations * answerBudget}
	}
	post := func(path string, fn door) {
		route(mux, path, "POST, OPTIONS", http.MethodPost, jsonDoor(fn, slots, out))
	}
	post("/v1/parse", d.parse)
	post("/v1/evaluate", d.evaluate)
	post("/v1/move", d.move)
	post("/v1/cover", d.cover)
	post("/v1/full-attack", d.fullAttack)
	route(mux, "/v1/version", "GET, HEAD, OPTIONS", http.MethodGet, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, d.version())
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, engine.CodeBadRequest,
			"no such endpoint: "+r.Method+" "+Short(r.URL.Path)+" (the API has "+routes+")")
	})
	return withServerOptions(withCORS(withRecover(withCanonicalPath(mux)))), slots
}

// withServerOptions answers OPTIONS * — a question about the server itself (RFC 9110 §9.3.7), no
// CORS preflight, which a browser never sends — as net/http's server does before any handler
// runs: 200, Content-Length: 0 and no body. So the answer is one whether the server in front
// answers it (the native server: http.Server's general OPTIONS handler) or hands it on (a server
// with DisableGeneralOptionsHandler); it was a 404 from the API.
func withServerOptions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions && r.RequestURI == "*" {
			w.Header().Set("Content-Length", "0")
			w.WriteHeader(http.StatusOK)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// withCanonicalPath routes every request by its canonical path, so that ServeMux never answers
// with its own redirect (a 301 or 307 with no JSON body): a path canonicalPath cannot make
// clean, through encoded slashes or dots such as /v1%2F.%2Fparse, is a 404 like any unknown path.
func withCanonicalPath(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A raw # in the request's target starts a fragment, as the Workers build's URL parser
		// reads it; Go's server keeps it in the path.
		if i := strings.IndexByte(r.RequestURI, '#'); i >= 0 {
			if u, err := url.ParseRequestURI(r.RequestURI[:i]); err == nil {
				r = r.WithContext(r.Context())
				r.URL = u
			}
		}
		// The path as sent: RawPath when it holds characters Go would escape (a backslash).
		esc := r.URL.RawPath
		if esc == "" {
			esc = r.URL.EscapedPath()
		}
		if r.Method != http.MethodConnect && strings.HasPrefix(esc, "/") {
			if p := canonicalPath(esc); p != esc {
				u := *r.URL
				dec, err := url.PathUnescape(p)
				if err != nil {
					dec = r.URL.Path
				}
				u.Path, u.RawPath = dec, p
				r = r.WithContext(r.Context())
				r.URL = &u
			}
		}
		if p := r.URL.Path; r.Method == http.MethodConnect || p == "" || p[0] != '/' || cleanPath(p) != p {
			writeError(w, http.StatusNotFound, engine.CodeBadRequest,
				"no such endpoint: "+Short(r.Method)+" "+Short(r.URL.Path)+" (the API has "+routes+")")
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// canonicalPath returns an escaped URL path as the Workers runtime hands it to the Workers
// build — as a WHATWG URL parser leaves it: backslashes read as slashes, and "." and ".."
// segments, percent-encoded ones too, resolved — and then with every run of slashes made one.
// The native server applies it to the path as received, the Workers build to a path the
// runtime already parsed (where only the slashes change), so both builds route alike.
func canonicalPath(esc string) string {
	segs := strings.Split(strings.ReplaceAll(esc, `\`, "/"), "/")[1:]
	out := make([]string, 0, len(segs))
	for i, s := range segs {
		last := i == len(segs)-1
		switch strings.ReplaceAll(strings.ToLower(s), "%2e", ".") {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	// Runs of slashes: empty segments go, but for a trailing one.
	kept := out[:0]
	for i, s := range out {
		if s != "" || i == len(out)-1 {
			kept = append(kept, s)
		}
	}
	return "/" + strings.Join(kept, "/")
}

// cleanPath is ServeMux's rule: a path it does not redirect is its own cleanPath.
func cleanPath(p string) string {
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

// route serves path: method (GET also answers HEAD) with h, OPTIONS with a preflight answer,
// any other method with 405.
func route(mux *http.ServeMux, path, allow, method string, h http.HandlerFunc) {
	mux.HandleFunc(method+" "+path, h)
	mux.HandleFunc("OPTIONS "+path, func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Allow", allow)
		h.Set("Access-Control-Allow-Methods", allow)
		h.Set("Access-Control-Allow-Headers", "Content-Type")
		h.Set("Access-Control-Max-Age", strconv.Itoa(MaxAge))
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, engine.CodeBadRequest,
			"method "+Short(r.Method)+" is not allowed on "+path+"; use "+method)
	})
}

// jsonDoor reads a JSON body of at most MaxBody bytes and answers it with fn, in one of slots
// (nil: no cap), and writes the answer within out's budget (nil: none).
func jsonDoor(fn door, slots *gate, out *sending) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if msg := checkContentType(contentType(r.Header)); msg != "" {
			writeError(w, http.StatusUnsupportedMediaType, engine.CodeBadRequest, msg)
			return
		}
		body, err := readBody(w, r)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				writeError(w, http.StatusRequestEntityTooLarge, engine.CodeTooLarge,
					"the request body exceeds the 1 MiB limit ("+strconv.Itoa(MaxBody)+" bytes)")
				return
			}
			writeError(w, http.StatusBadRequest, engine.CodeBadRequest, "reading the request body: "+bodyError(err))
			return
		}
		var answer []byte
		var eerr *engine.Error
		switch inSlot(r.Context(), slots, func() { answer, eerr = fn(context.WithoutCancel(r.Context()), body) }) {
		case queueFull:
			if slots.wait <= 0 {
				busy(w, strconv.Itoa(slots.slots)+" requests in progress")
			} else {
				busy(w, strconv.Itoa(slots.slots)+" requests in progress and "+strconv.Itoa(slots.maxQueue)+" waiting")
			}
			return
		case waitedOut:
			busy(w, strconv.Itoa(slots.slots)+" requests in progress; this one waited "+slots.wait.String()+" for its turn")
			return
		case gaveUp:
			return // its client went away while it waited: nobody to answer
		}
		if eerr != nil {
			writeJSON(w, wire.Status(eerr), wire.Error(eerr))
			return
		}
		if !out.take(len(answer)) {
			busy(w, "answers of "+strconv.Itoa(out.max>>20)+" MiB in all being sent")
			return
		}
		defer out.give(len(answer))
		writeJSON(w, http.StatusOK, answer)
	}
}

// inSlot runs f in one of slots (nil: no cap), waiting its turn as the gate says, and reports
// admitted, or why not. The slot is given back when f returns, before its answer is written:
// a client slow to read holds none.
func inSlot(ctx context.Context, slots *gate, f func()) int {
	if slots != nil {
		if why := slots.enter(ctx); why != admitted {
			return why
		}
		defer slots.leave()
	}
	f()
	return admitted
}

// busy answers 503 with Retry-After: 1, the server's limit named by why.
func busy(w http.ResponseWriter, why string) {
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Access-Control-Expose-Headers", "Retry-After") // for pages on other origins
	writeError(w, http.StatusServiceUnavailable, engine.CodeTooLarge, "the server is busy: "+why+"; retry")
}

// answerBudget is the bytes of large answers one evaluation slot allows being written at once
// (a variable for tests): an answer stays in memory until its client has read it, or the
// write deadline cuts it off, and one answer is at most some 41 MB (SPEC §8.3).
var answerBudget = 48 << 20

// smallAnswer is the size up to which an answer is written outside the budget: small answers
// are never refused for large ones being read slowly.
const smallAnswer = 1 << 20

// sending counts the bytes of the large answers being written, against max.
type sending struct {
	mu         sync.Mutex
	bytes, max int
}

// take reserves n bytes for an answer, or reports false when they would pass the budget (one
// answer alone always fits).
func (s *sending) take(n int) bool {
	if s == nil || n <= smallAnswer {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bytes > 0 && s.bytes+n > s.max {
		return false
	}
	s.bytes += n
	return true
}

// give returns the n bytes take reserved.
func (s *sending) give(n int) {
	if s == nil || n <= smallAnswer {
		return
	}
	s.mu.Lock()
	s.bytes -= n
	s.mu.Unlock()
}

// bodyError is why reading a request body failed, without the connection's addresses, in the
// same words in both builds: "timed out" for a read past its deadline, and for any other failure
// — a body shorter than its Content-Length, broken chunked framing, a connection lost — one
// sentence, since the Workers runtime reports them all alike ("JavaScript error on read: Error:
// Network connection lost.") where net/http tells them apart ("unexpected EOF", "malformed
// chunked encoding").
func bodyError(err error) string {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out"
	}
	return "it ended before its declared length, its chunked framing is broken, or the connection was lost"
}

// contentType returns the Content-Type header as one text, every value of every line: the
// Workers build's fresh-instance glue (github.com/syumai/workers' bridge) hands a header over
// split at each comma, the keep-alive glue and the native server one value per header line, and
// all must judge "application/json, text/plain" alike (refused: a body has one type).
func contentType(h http.Header) string {
	var parts []string
	for _, v := range h.Values("Content-Type") {
		for _, p := range strings.Split(v, ",") {
			parts = append(parts, strings.TrimSpace(p))
		}
	}
	return strings.Join(parts, ", ")
}

// checkContentType accepts application/json, with no parameter but charset=utf-8; otherwise it
// says what is wrong.
func checkContentType(ct string) string {
	const want = "the body must be JSON, sent with Content-Type: application/json"
	if strings.TrimSpace(ct) == "" {
		return "missing Content-Type: " + want
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return "unsupported Content-Type " + Short(ct) + ": " + want
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return "unsupported Content-Type " + Short(ct) + ": JSON is UTF-8 (charset=utf-8 or no parameter)"
		}
	}
	return ""
}

// readBody reads the whole body, failing with *http.MaxBytesError past MaxBody. Its buffer
// grows with the bytes that arrive, never from the declared Content-Length: a client that
// declares a megabyte and sends ten bytes costs ten bytes (and bytes.Buffer's first 512), not a
// megabyte held while it stalls.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxBody {
		return nil, &http.MaxBytesError{Limit: MaxBody}
	}
	if r.Body == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, MaxBody))
	return buf.Bytes(), err
}

// Short cuts text from a request down to 100 bytes at most for a message, at the start of a
// character: cut inside one, the message would carry a broken byte sequence, which JSON writes
// as U+FFFD (a path of 99 bytes and an é showed "…/aaa\ufffd…"). The worker's framing
// quotes with it too, so that both builds' messages agree.
func Short(s string) string {
	if len(s) <= 100 {
		return s
	}
	cut := 100
	for cut > 100-utf8.UTFMax && !utf8.RuneStart(s[cut]) { // past 3 bytes back, no character was cut
		cut--
	}
	return s[:cut] + "…"
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

func writeError(w http.ResponseWriter, status int, code engine.Code, msg string) {
	writeJSON(w, status, wire.Error(&engine.Error{Code: code, Message: msg}))
}

// withCORS lets a page on any origin call the API: the API holds no credentials or state.
func withCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		next.ServeHTTP(w, r)
	})
}

// withRecover answers a panic with a 500 JSON error instead of a dropped connection (or, on
// Workers, a dead Go instance).
func withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				writeJSON(w, http.StatusInternalServerError, wire.Error(wire.Recovered(v)))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
