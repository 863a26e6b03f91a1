package api

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostileRoutes are the POST routes, with the door of the identity corpus each reads.
var hostileRoutes = map[string]string{
	"parse": "/v1/parse", "evaluate": "/v1/evaluate", "move": "/v1/move", "cover": "/v1/cover", "full-attack": "/v1/full-attack",
}

// mutate returns a hostile variant of a valid body: bytes flipped, cut, duplicated; values
// replaced by other JSON (huge, negative, fractional numbers, wrong types, deep nesting, long
// strings); fields removed.
func mutate(r *rand.Rand, body []byte) []byte {
	b := append([]byte(nil), body...)
	switch r.IntN(9) {
	case 0: // flip bytes
		for range 1 + r.IntN(4) {
			if len(b) > 0 {
				b[r.IntN(len(b))] = byte(r.IntN(256))
			}
		}
	case 1: // cut
		if len(b) > 0 {
			b = b[:r.IntN(len(b))]
		}
	case 2: // a value replaced
		var v any
		if json.Unmarshal(b, &v) == nil {
			v = replaceOne(r, v)
			b, _ = json.Marshal(v)
		}
	case 3: // several values replaced
		var v any
		if json.Unmarshal(b, &v) == nil {
			for range 2 + r.IntN(6) {
				v = replaceOne(r, v)
			}
			b, _ = json.Marshal(v)
		}
	case 4: // a slice repeated
		if len(b) > 2 {
			i, j := r.IntN(len(b)), r.IntN(len(b))
			if i > j {
				i, j = j, i
			}
			b = append(b[:j:j], append(bytes.Repeat(b[i:j], 1+r.IntN(8)), b[j:]...)...)
		}
	case 5: // numbers made extreme
		for _, w := range []string{"1e308", "-1e308", "1e-320", "2147483648", "-2147483649", "18446744073709551616", "0.5", "-0", "1E400"} {
			if r.IntN(3) == 0 {
				b = bytes.Replace(b, []byte("1"), []byte(w), 1)
			}
		}
	case 6: // deep nesting
		d := 10 + r.IntN(200)
		b = []byte(strings.Repeat("[", d) + string(b) + strings.Repeat("]", d))
	case 7: // a field's value from another door's request
		b = bytes.Replace(b, []byte(`"tokens"`), []byte(`"steps"`), 1)
	default: // unicode and escapes
		b = bytes.Replace(b, []byte(`"`), []byte(`"\ud800\u0000`), 1+r.IntN(3))
	}
	return b
}

// replaceOne replaces one value somewhere in v by a hostile one.
func replaceOne(r *rand.Rand, v any) any {
	hostile := []any{nil, true, -1, 0.5, 1e300, -1e300, 2147483648, "", "x", "Cir1000000", strings.Repeat("y", 10000),
		[]any{}, map[string]any{}, []any{1, 2, 3, 4}, []any{[]any{[]any{}}}, map[string]any{"x": "1"}}
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 || r.IntN(4) == 0 {
			return hostile[r.IntN(len(hostile))]
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		k := keys[r.IntN(len(keys))]
		if r.IntN(8) == 0 {
			delete(t, k)
		} else {
			t[k] = replaceOne(r, t[k])
		}
		return t
	case []any:
		if len(t) == 0 || r.IntN(4) == 0 {
			return hostile[r.IntN(len(hostile))]
		}
		i := r.IntN(len(t))
		t[i] = replaceOne(r, t[i])
		return t
	}
	return hostile[r.IntN(len(hostile))]
}

// TestHostileBodies (issue 16): hostile variants of every identity-corpus request, sent to the
// HTTP handler: each answered with a CONTRACT status (200, 400, 413, 422) and a JSON body — an
// error with a known code and a message, never an internal error (500) —, and a good request
// after each thousand still gives the answer it gave first. HOSTILE_REQUESTS sets the count
// (1 000 by default; HOSTILE_REQUESTS=1000000 for the long run).
func TestHostileBodies(t *testing.T) {
	n := 1000
	if s := os.Getenv("HOSTILE_REQUESTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile("../identity/requests.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []struct {
		Door string          `json:"door"`
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(raw, &corpus); err != nil {
		t.Fatal(err)
	}
	h := New()
	send := func(path string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	good := []byte(`{"template": "Cir2", "origin": {"x": 3, "y": 3, "z": 0}, "tokens": [{"id": "a", "x": 4, "y": 3}], "obstacles": [{"x": 4, "y": 2}]}`)
	first := send("/v1/evaluate", good).Body.String()
	codes := map[string]bool{"bad_notation": true, "bad_request": true, "out_of_range": true, "no_line_of_effect": true, "invalid_wall": true,
		"not_straight": true, "too_large": true, "no_attack_left": true, "hand_busy": true, "needs_quick_draw": true, "not_ranged": true, "not_declared": true}
	r := rand.New(rand.NewPCG(16, 1))
	statuses := map[int]int{}
	start, slowest := time.Now(), time.Duration(0)
	for i := range n {
		e := corpus[r.IntN(len(corpus))]
		path, ok := hostileRoutes[e.Door]
		if !ok {
			continue
		}
		if r.IntN(5) == 0 { // sent to another door
			for _, p := range hostileRoutes {
				path = p
				break
			}
		}
		body := mutate(r, e.Body)
		t0 := time.Now()
		w := send(path, body)
		slowest = max(slowest, time.Since(t0))
		statuses[w.Code]++
		switch w.Code {
		case 200:
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("request %d: 200 with a body that is not JSON: %.200s\nbody sent: %.300s", i, w.Body.String(), body)
			}
		case 400, 413, 422:
			var ans struct {
				Error struct {
					Code    string `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(w.Body.Bytes(), &ans); err != nil || !codes[ans.Error.Code] || ans.Error.Message == "" ||
				strings.HasPrefix(ans.Error.Message, "internal error") {
				t.Fatalf("request %d to %s: %d %.300s\nbody sent: %.300s", i, path, w.Code, w.Body.String(), body)
			}
		default:
			t.Fatalf("request %d to %s: status %d %.300s\nbody sent: %.300s", i, path, w.Code, w.Body.String(), body)
		}
		if i%1000 == 999 {
			if again := send("/v1/evaluate", good).Body.String(); again != first {
				t.Fatalf("after request %d the good request answers %s, first %s", i, again, first)
			}
		}
	}
	t.Logf("%d hostile requests in %v (slowest %v): statuses %v", n, time.Since(start).Round(time.Millisecond), slowest.Round(time.Millisecond), statuses)
}
