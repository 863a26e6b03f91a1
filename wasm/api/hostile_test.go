package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// every HOSTILE_GOOD_EVERY requests (1 000) still gives, byte for byte, the answer it gave first.
// HOSTILE_REQUESTS sets the count (1 000 by default). With HOSTILE_NET=1 the requests go over
// loopback to a real net/http server of the handler, HOSTILE_CONCURRENCY (4) at once on
// kept-alive connections, and the log gives the slowest answer and the process's peak resident
// memory (issue 29's campaign: HOSTILE_NET=1 HOSTILE_REQUESTS=1000000 HOSTILE_GOOD_EVERY=50).
// HOSTILE_SECONDS stops sending after that many seconds (the count made is logged).
// Request i is made by its own generator (seed 16, i), whatever the concurrency.
func TestHostileBodies(t *testing.T) {
	n := envCount(t, "HOSTILE_REQUESTS", 1000)
	every := max(1, envCount(t, "HOSTILE_GOOD_EVERY", 1000))
	conc := max(1, envCount(t, "HOSTILE_CONCURRENCY", 4))
	seconds := envCount(t, "HOSTILE_SECONDS", 0) // stop sending after this many (0: no limit); the count made is logged
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
	type answer struct {
		status int
		ctype  string
		body   []byte
	}
	send := func(path string, body []byte) (answer, error) {
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return answer{w.Code, w.Header().Get("Content-Type"), w.Body.Bytes()}, nil
	}
	if os.Getenv("HOSTILE_NET") == "1" {
		srv := httptest.NewServer(h)
		defer srv.Close()
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}, Timeout: time.Minute}
		defer client.CloseIdleConnections()
		send = func(path string, body []byte) (answer, error) {
			res, err := client.Post(srv.URL+path, "application/json", bytes.NewReader(body))
			if err != nil {
				return answer{}, err
			}
			defer res.Body.Close()
			b, err := io.ReadAll(res.Body)
			return answer{res.StatusCode, res.Header.Get("Content-Type"), b}, err
		}
	} else {
		conc = 1
	}
	good := []byte(`{"template": "Cir2", "origin": {"x": 3, "y": 3, "z": 0}, "tokens": [{"id": "a", "x": 4, "y": 3}], "obstacles": [{"x": 4, "y": 2}]}`)
	first, err := send("/v1/evaluate", good)
	if err != nil || first.status != 200 {
		t.Fatalf("the good request: %v %d %s", err, first.status, first.body)
	}
	codes := map[string]bool{"bad_notation": true, "bad_request": true, "out_of_range": true, "no_line_of_effect": true, "invalid_wall": true,
		"not_straight": true, "too_large": true, "no_attack_left": true, "hand_busy": true, "needs_quick_draw": true, "not_ranged": true, "not_declared": true}
	paths := make([]string, 0, len(hostileRoutes))
	for _, p := range hostileRoutes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	var (
		mu       sync.Mutex
		statuses = map[int]int{}
		errCodes = map[string]int{}
		slowest  time.Duration
		slowText string
		checks   int
		failures []string
	)
	fail := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 20 {
			failures = append(failures, msg)
		}
	}
	start := time.Now()
	var next, made atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || seconds > 0 && time.Since(start) > time.Duration(seconds)*time.Second {
					return
				}
				made.Add(1)
				mu.Lock()
				stop := len(failures) >= 20
				mu.Unlock()
				if stop {
					return
				}
				r := rand.New(rand.NewPCG(16, uint64(i)))
				e := corpus[r.IntN(len(corpus))]
				path, ok := hostileRoutes[e.Door]
				if !ok {
					continue
				}
				if r.IntN(5) == 0 { // sent to another door
					path = paths[r.IntN(len(paths))]
				}
				body := mutate(r, e.Body)
				t0 := time.Now()
				w, err := send(path, body)
				took := time.Since(t0)
				what := fmt.Sprintf("request %d to %s (body %.300q)", i, path, body)
				if err != nil {
					fail(what + ": no answer: " + err.Error())
					continue
				}
				code := ""
				switch w.status {
				case 200:
					if !json.Valid(w.body) {
						fail(fmt.Sprintf("%s: 200 with a body that is not JSON: %.200s", what, w.body))
					}
				case 400, 413, 422:
					var ans struct {
						Error struct {
							Code    string `json:"code"`
							Message string `json:"message"`
						} `json:"error"`
					}
					if err := json.Unmarshal(w.body, &ans); err != nil || !codes[ans.Error.Code] || ans.Error.Message == "" ||
						strings.HasPrefix(ans.Error.Message, "internal error") {
						fail(fmt.Sprintf("%s: %d %.300s", what, w.status, w.body))
					}
					code = ans.Error.Code
				default:
					fail(fmt.Sprintf("%s: status %d %.300s", what, w.status, w.body))
				}
				if w.ctype != "application/json" {
					fail(fmt.Sprintf("%s: Content-Type %q", what, w.ctype))
				}
				mu.Lock()
				statuses[w.status]++
				if code != "" {
					errCodes[code]++
				}
				if took > slowest {
					slowest, slowText = took, what
				}
				mu.Unlock()
				if i%every == every-1 {
					again, err := send("/v1/evaluate", good)
					if err != nil || again.status != first.status || again.ctype != first.ctype || !bytes.Equal(again.body, first.body) {
						fail(fmt.Sprintf("after request %d the good request answers %v %d %s, first %d %s", i, err, again.status, again.body, first.status, first.body))
					}
					mu.Lock()
					checks++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("%d hostile requests (%d at once, over the network: %v) in %v: statuses %v, error codes %v, %d good requests compared byte for byte; slowest %v (%.200s); peak resident memory %s",
		made.Load(), conc, os.Getenv("HOSTILE_NET") == "1", time.Since(start).Round(time.Millisecond), statuses, errCodes, checks, slowest.Round(time.Millisecond), slowText, peakRSS())
	if len(failures) > 0 {
		t.Fatalf("%d failures (the first 20):\n%s", len(failures), strings.Join(failures, "\n"))
	}
}

// envCount is the whole number in the environment variable name, or def.
func envCount(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		t.Fatalf("%s=%s: want a whole number", name, s)
	}
	return v
}

// peakRSS is the process's peak resident memory (VmHWM), as /proc gives it.
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
