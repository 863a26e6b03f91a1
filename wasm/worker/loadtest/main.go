// Command loadtest sends a bounded number of requests to aoekit's HTTP API at a fixed
// concurrency and reports throughput and latency. It stops by itself: after -n requests, or at
// -max, whichever comes first. It is a measuring tool, not part of `make test`.
//
//	go run ./wasm/worker/loadtest -url http://127.0.0.1:8787 -n 20000 -c 32
//	go run ./wasm/worker/loadtest -url http://127.0.0.1:8788 -n 2000 -c 8 -corpus wasm/identity/requests.json
//
// Without -corpus every request is the same: -method, -path and -body (default: POST /v1/parse
// {"text": "Con4NE"}), and any status but -status counts as an error. With -corpus the requests
// cycle through the identity corpus, whose 4xx answers are expected: only transport failures and
// 5xx count as errors.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

type request struct {
	method, path string
	body         []byte
}

func main() {
	var (
		base    = flag.String("url", "http://127.0.0.1:8787", "the API's base URL")
		n       = flag.Int("n", 20000, "requests to send")
		c       = flag.Int("c", 32, "requests in flight at once")
		method  = flag.String("method", "POST", "method, without -corpus")
		path    = flag.String("path", "/v1/parse", "path, without -corpus")
		body    = flag.String("body", `{"text": "Con4NE"}`, "body, without -corpus (@file reads a file)")
		status  = flag.Int("status", 200, "the expected status, without -corpus")
		corpus  = flag.String("corpus", "", "cycle through this identity corpus (wasm/identity/requests.json)")
		timeout = flag.Duration("timeout", 30*time.Second, "per-request timeout")
		max     = flag.Duration("max", 5*time.Minute, "stop after this long, whatever is left")
		warm    = flag.Int("warm", 0, "requests sent before measuring")
	)
	flag.Parse()
	if *n <= 0 || *c <= 0 {
		fail("-n and -c must be positive")
	}
	reqs, err := requests(*corpus, *method, *path, *body)
	if err != nil {
		fail(err.Error())
	}
	client := &http.Client{
		Timeout:   *timeout,
		Transport: &http.Transport{MaxIdleConns: *c, MaxIdleConnsPerHost: *c, MaxConnsPerHost: *c, IdleConnTimeout: time.Minute},
	}
	strict := *corpus == ""
	if *warm > 0 {
		run(context.Background(), client, *base, reqs, *warm, min(*c, *warm), strict, *status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *max)
	defer cancel()
	r := run(ctx, client, *base, reqs, *n, *c, strict, *status)
	r.print(os.Stdout, *base, *c)
	if r.errors > 0 {
		os.Exit(1)
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "loadtest:", msg)
	os.Exit(2)
}

func requests(corpus, method, path, body string) ([]request, error) {
	if corpus == "" {
		b := []byte(body)
		if len(body) > 0 && body[0] == '@' {
			var err error
			if b, err = os.ReadFile(body[1:]); err != nil {
				return nil, err
			}
		}
		return []request{{method, path, b}}, nil
	}
	data, err := os.ReadFile(corpus)
	if err != nil {
		return nil, err
	}
	var entries []struct {
		Door string          `json:"door"`
		Body json.RawMessage `json:"body"`
	}
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: %w", corpus, err)
	}
	var out []request
	for _, e := range entries {
		out = append(out, request{"POST", "/v1/" + e.Door, e.Body})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests", corpus)
	}
	return out, nil
}

type report struct {
	sent, errors int
	elapsed      time.Duration
	latencies    []time.Duration
	statuses     map[int]int
	bytes        int64
	firstErr     string
	stopped      bool
}

// run sends n requests, c at a time, cycling through reqs.
func run(ctx context.Context, client *http.Client, base string, reqs []request, n, c int, strict bool, want int) *report {
	var next atomic.Int64
	var mu sync.Mutex
	r := &report{statuses: map[int]int{}, latencies: make([]time.Duration, 0, n)}
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < c; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lat := make([]time.Duration, 0, n/c+1)
			statuses := map[int]int{}
			var errs int
			var nbytes int64
			var firstErr string
			for {
				i := next.Add(1) - 1
				if i >= int64(n) || ctx.Err() != nil {
					break
				}
				q := reqs[int(i)%len(reqs)]
				t0 := time.Now()
				status, size, err := do(ctx, client, base, q)
				lat = append(lat, time.Since(t0))
				nbytes += size
				switch {
				case err != nil:
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
				default:
					statuses[status]++
					if status >= 500 || strict && status != want {
						errs++
						if firstErr == "" {
							firstErr = fmt.Sprintf("%s %s: status %d", q.method, q.path, status)
						}
					}
				}
			}
			mu.Lock()
			r.latencies = append(r.latencies, lat...)
			r.errors += errs
			r.bytes += nbytes
			for s, k := range statuses {
				r.statuses[s] += k
			}
			if r.firstErr == "" {
				r.firstErr = firstErr
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	r.sent = len(r.latencies)
	r.stopped = r.sent < n
	return r
}

func do(ctx context.Context, client *http.Client, base string, q request) (int, int64, error) {
	var body io.Reader
	if q.method != "GET" && q.method != "HEAD" {
		body = bytes.NewReader(q.body)
	}
	req, err := http.NewRequestWithContext(ctx, q.method, base+q.path, body)
	if err != nil {
		return 0, 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer res.Body.Close()
	n, err := io.Copy(io.Discard, res.Body)
	return res.StatusCode, n, err
}

func (r *report) print(w io.Writer, base string, c int) {
	slices.Sort(r.latencies)
	q := func(p float64) time.Duration {
		if len(r.latencies) == 0 {
			return 0
		}
		return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))]
	}
	fmt.Fprintf(w, "%s: %d requests, %d concurrent, in %v", base, r.sent, c, r.elapsed.Round(time.Millisecond))
	if r.stopped {
		fmt.Fprint(w, " (stopped at -max)")
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  %.0f requests/s, %.1f MB/s\n", float64(r.sent)/r.elapsed.Seconds(), float64(r.bytes)/r.elapsed.Seconds()/1e6)
	fmt.Fprintf(w, "  latency p50 %v  p90 %v  p99 %v  max %v\n", q(0.50).Round(time.Microsecond), q(0.90).Round(time.Microsecond),
		q(0.99).Round(time.Microsecond), q(1).Round(time.Microsecond))
	var codes []int
	for s := range r.statuses {
		codes = append(codes, s)
	}
	sort.Ints(codes)
	fmt.Fprint(w, "  statuses")
	for _, s := range codes {
		fmt.Fprintf(w, " %d×%d", s, r.statuses[s])
	}
	fmt.Fprintf(w, "\n  errors %d", r.errors)
	if r.firstErr != "" {
		fmt.Fprintf(w, " (first: %s)", r.firstErr)
	}
	fmt.Fprintln(w)
}
