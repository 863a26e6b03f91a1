// Command wire times the stateless JSON door natively, for make bench (web/bench/bench.mjs):
// wire.Evaluate (decode the request, evaluate, encode the answer) and wire.DecodeRequest alone,
// on the benchmark boards of core/engine's TestDumpBenchBoards. It is what the WebAssembly
// module runs for each evaluate, without WebAssembly and without the JavaScript boundary.
//
//	go run ./web/bench/wire -boards build/bench/boards -calls 200 -budget 2s typical stress …
//
// It prints one JSON object: for each case, the median and p95 in ns of each, and the count.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/aoekit/aoekit/wasm/wire"
)

type timing struct {
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	N      int     `json:"n"`
}

// sample times fn: warm-up calls, then up to calls samples, fewer past budget (not under 20).
func sample(fn func(), calls int, budget time.Duration) timing {
	t0 := time.Now()
	fn()
	first := time.Since(t0)
	for range min(20, max(2, int(budget/8/max(first, time.Microsecond)))) {
		fn()
	}
	n := max(min(calls, 20), min(calls, int(budget/max(first, time.Microsecond))))
	ts := make([]float64, n)
	for i := range ts {
		t := time.Now()
		fn()
		ts[i] = float64(time.Since(t).Nanoseconds())
	}
	slices.Sort(ts)
	q := func(p float64) float64 {
		i := p * float64(len(ts)-1)
		lo := int(i)
		hi := min(lo+1, len(ts)-1)
		return ts[lo] + (ts[hi]-ts[lo])*(i-float64(lo))
	}
	return timing{Median: q(0.5), P95: q(0.95), N: n}
}

func main() {
	boards := flag.String("boards", "build/bench/boards", "the directory of the dumped boards")
	calls := flag.Int("calls", 200, "samples per case, at most")
	budget := flag.Duration("budget", 2*time.Second, "time per case and function, about")
	flag.Parse()
	out := map[string]map[string]any{}
	for _, name := range flag.Args() {
		raw, err := os.ReadFile(filepath.Join(*boards, name+".json"))
		if err != nil {
			fail(err)
		}
		var c struct{ Request json.RawMessage }
		if err := json.Unmarshal(raw, &c); err != nil {
			fail(fmt.Errorf("%s: %v", name, err))
		}
		body := []byte(c.Request)
		answer, werr := wire.Evaluate(body)
		if werr != nil {
			fail(fmt.Errorf("%s: %s", name, wire.Error(werr)))
		}
		var res struct{ Count int }
		if err := json.Unmarshal(answer, &res); err != nil {
			fail(fmt.Errorf("%s: %v", name, err))
		}
		out[name] = map[string]any{
			"bytes":    len(body),
			"count":    res.Count,
			"evaluate": sample(func() { wire.Evaluate(body) }, *calls, *budget),
			"decode":   sample(func() { wire.DecodeRequest(body) }, *calls, *budget),
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "wire:", err)
	os.Exit(1)
}
