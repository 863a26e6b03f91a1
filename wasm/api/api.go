package api

import (
	"bytes"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// MaxBody is the largest request body accepted, 1 MiB; past it the answer is 413.
const MaxBody = 1 << 20

// MaxAge is how long, in seconds, a browser may cache a CORS preflight answer.
const MaxAge = 86400

// routes lists the endpoints, for 404 messages.
const routes = "POST /v1/parse, POST /v1/evaluate, POST /v1/move, GET /v1/version"

// A door answers a request body with a JSON body or an error (wire.Parse and the like).
type door func(body []byte) ([]byte, *engine.Error)

// doors are the handler's answers, replaced in tests.
type doors struct {
	parse, evaluate, move door
	version               func() []byte
}

// New returns the HTTP API:
//
//	POST /v1/parse     {"text": "…"}  → template
//	POST /v1/evaluate  request        → result
//	POST /v1/move      move request   → move result
//	GET  /v1/version                  → version
//
// Errors are {"error": {"code", "message", "at"?}}: 400 for a bad request (malformed JSON names
// the byte offset), 422 for a rule violation, 404 for an unknown path, 405 (with Allow) for a
// wrong method, 413 past MaxBody, 415 for a body that is not application/json, 500 for a bug.
// Every answer carries Access-Control-Allow-Origin: *, and OPTIONS answers CORS preflights.
func New() http.Handler {
	return newHandler(doors{parse: wire.Parse, evaluate: wire.Evaluate, move: wire.Move, version: wire.Version})
}

func newHandler(d doors) http.Handler {
	mux := http.NewServeMux()
	post := func(path string, fn door) {
		route(mux, path, "POST, OPTIONS", http.MethodPost, jsonDoor(fn))
	}
	post("/v1/parse", d.parse)
	post("/v1/evaluate", d.evaluate)
	post("/v1/move", d.move)
	route(mux, "/v1/version", "GET, HEAD, OPTIONS", http.MethodGet, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, d.version())
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, engine.CodeBadRequest,
			"no such endpoint: "+r.Method+" "+short(r.URL.Path)+" (the API has "+routes+")")
	})
	return withCORS(withRecover(mux))
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
			"method "+short(r.Method)+" is not allowed on "+path+"; use "+method)
	})
}

// jsonDoor reads a JSON body of at most MaxBody bytes and answers it with fn.
func jsonDoor(fn door) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if msg := checkContentType(r.Header.Get("Content-Type")); msg != "" {
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
			writeError(w, http.StatusBadRequest, engine.CodeBadRequest, "reading the request body: "+err.Error())
			return
		}
		out, eerr := fn(body)
		if eerr != nil {
			writeJSON(w, wire.Status(eerr), wire.Error(eerr))
			return
		}
		writeJSON(w, http.StatusOK, out)
	}
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
		return "unsupported Content-Type " + short(ct) + ": " + want
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return "unsupported Content-Type " + short(ct) + ": JSON is UTF-8 (charset=utf-8 or no parameter)"
		}
	}
	return ""
}

// readBody reads the whole body, failing with *http.MaxBytesError past MaxBody.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxBody {
		return nil, &http.MaxBytesError{Limit: MaxBody}
	}
	if r.Body == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + 1)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, MaxBody))
	return buf.Bytes(), err
}

// short cuts text from the request down to size for a message.
func short(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
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
