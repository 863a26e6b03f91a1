package api

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// Memory after a heavy request, natively (issue 29, 5): the HTTP door answers issue 29's
// request 1 (a size-98 caster's 1 aura: 1.8 GB natively once), one of the largest answers (a
// line of 10⁶ cells), then HEAVY_CALLS (10 000) ordinary requests. Go's heap is returned: what
// it holds live after the ordinary calls is what it held before the heavy ones (within a few
// MB), and debug.FreeOSMemory gives back to the system what the heavy ones made it take (the
// runtime's scavenger does so by itself, in the background, within minutes). The numbers —
// live heap, heap taken from the system and not yet given back, resident memory — are logged
// for the record (wasm/api/doc.go quotes them). Counted in bytes, never timed.
func TestMemoryReturnsAfterAHeavyRequest(t *testing.T) {
	calls := envCount(t, "HEAVY_CALLS", 10000)
	h := New()
	send := func(body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/v1/evaluate", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("%.80s: %d %.300s", body, w.Code, w.Body)
		}
		return w
	}
	const (
		request1 = `{"template":"1 aura","caster":{"id":"c","x":0,"y":0,"z":0,"size":98,"height":98},"obstacles":[{"x":49,"y":49,"z":98}],"bounds":{"min":[0,0,0],"max":[0,0,0]}}`
		line     = `{"template":"Lin1000SE","caster":{"id":"c","x":0,"y":0,"z":0}}`
		ordinary = `{"template": "Cir2", "origin": {"x": 3, "y": 3, "z": 0}, "tokens": [{"id": "a", "x": 4, "y": 3}], "obstacles": [{"x": 4, "y": 2}]}`
	)
	type look struct {
		what                string
		live, held, rss, tA uint64
	}
	var rows []look
	var total uint64
	see := func(what string) look {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l := look{what, m.HeapAlloc, m.HeapSys - m.HeapReleased, rss(), m.TotalAlloc - total}
		total = m.TotalAlloc
		rows = append(rows, l)
		return l
	}
	defer func() {
		for _, r := range rows {
			t.Logf("%-34s live heap %6.1f MB, heap held %6.1f MB, RSS %6.1f MB, allocated since the last %7.1f MB",
				r.what, mb(r.live), mb(r.held), mb(r.rss), mb(r.tA))
		}
	}()
	want := send(ordinary).Body.String()
	base := see("before")
	send(request1)
	if r := see("after request 1"); r.tA > 256<<20 {
		t.Errorf("request 1 allocated %.0f MB, past 256 MB", mb(r.tA))
	}
	send(request1)
	big := send(line).Body.Len()
	see("after request 1 again and the line (" + strconv.Itoa(big>>20) + " MB of JSON)")
	for i := range calls {
		if got := send(ordinary).Body.String(); i%1000 == 0 && got != want {
			t.Fatalf("ordinary call %d: %s, first %s", i, got, want)
		}
	}
	end := see("after " + strconv.Itoa(calls) + " ordinary calls")
	if end.live > base.live+8<<20 {
		t.Errorf("the live heap after the ordinary calls is %.1f MB, %.1f MB before the heavy requests: something of them stays", mb(end.live), mb(base.live))
	}
	debug.FreeOSMemory()
	if freed := see("after debug.FreeOSMemory"); freed.held > base.held+16<<20 {
		t.Errorf("the heap still holds %.1f MB of the system's memory (%.1f MB before the heavy requests)", mb(freed.held), mb(base.held))
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// rss is the process's resident memory, from /proc (0 where there is none).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(string(f[1]), 10, 64)
	return pages * uint64(os.Getpagesize())
}
