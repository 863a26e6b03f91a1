package api

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aoekit/aoekit/core/engine"
)

// TestQueue (issue 29, 6): a request that finds every slot taken waits its turn, first come
// first served, and is answered when a slot frees; past the queue's length it is refused at
// once, and after QueueWait it is refused; every refusal is 503 with Retry-After.
func TestQueue(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var order []string
	entered := make(chan string, 16)
	block := func(_ engine.Context, body []byte) ([]byte, *engine.Error) {
		entered <- string(body)
		if string(body) == `"first"` {
			<-release
		}
		mu.Lock()
		order = append(order, string(body))
		mu.Unlock()
		return []byte(`{"ok":true}`), nil
	}
	d := doors{parse: block, evaluate: block, move: block, cover: block, fullAttack: block, version: func() []byte { return []byte(`{}`) }}
	h, g := newHandlerGate(d, Options{MaxEvaluations: 1, QueueWait: 20 * time.Second, QueueLength: 3})
	var done sync.WaitGroup
	codes := map[string]int{}
	send := func(body string) {
		done.Add(1)
		go func() {
			defer done.Done()
			w := call{"POST", "/v1/evaluate", "application/json", body}.do(t, h)
			mu.Lock()
			codes[body] = w.Code
			mu.Unlock()
		}()
	}
	send(`"first"`)
	if got := <-entered; got != `"first"` {
		t.Fatalf("entered %s", got)
	}
	// Three wait, in the order they came (each is queued before the next is sent).
	for i, b := range []string{`"a"`, `"b"`, `"c"`} {
		send(b)
		waitFor(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return len(g.queue) == i+1 })
	}
	// A fourth finds the queue full: 503 at once.
	w := call{"POST", "/v1/evaluate", "application/json", `"d"`}.do(t, h)
	if e := errorOf(t, w); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" ||
		e.Message != "the server is busy: 1 requests in progress and 3 waiting; retry" {
		t.Errorf("past the queue: %d %+v", w.Code, e)
	}
	close(release)
	done.Wait()
	if strings.Join(order, " ") != `"first" "a" "b" "c"` {
		t.Errorf("answered in the order %v; want first, a, b, c", order)
	}
	for b, c := range codes {
		if c != 200 {
			t.Errorf("%s: %d", b, c)
		}
	}
}

// TestQueueWaitsOut: a request that waits past QueueWait is refused with 503, naming the wait;
// one whose client goes away while it waits leaves the queue.
func TestQueueWaitsOut(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{}, 4)
	block := func(_ engine.Context, body []byte) ([]byte, *engine.Error) {
		entered <- struct{}{}
		<-release
		return []byte(`{}`), nil
	}
	d := doors{parse: block, evaluate: block, move: block, cover: block, fullAttack: block, version: func() []byte { return []byte(`{}`) }}
	h := newHandler(d, Options{MaxEvaluations: 1, QueueWait: 50 * time.Millisecond})
	go call{"POST", "/v1/evaluate", "application/json", "{}"}.do(t, h)
	<-entered
	w := call{"POST", "/v1/evaluate", "application/json", "{}"}.do(t, h)
	if e := errorOf(t, w); w.Code != http.StatusServiceUnavailable || e.Message != "the server is busy: 1 requests in progress; this one waited 50ms for its turn; retry" {
		t.Errorf("waited out: %d %+v", w.Code, e)
	}
	g := newGate(1, 4, time.Minute)
	if g.enter(context.Background()) != admitted {
		t.Fatal("a free slot refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if why := g.enter(ctx); why != gaveUp || len(g.queue) != 0 {
		t.Errorf("a client gone: %d, %d still queued", why, len(g.queue))
	}
	g.leave()
	if g.free != 1 {
		t.Errorf("%d free after leave", g.free)
	}
}

// waitFor waits until ok holds, for up to 10 s.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for range 10000 {
		if ok() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("waited 10 s")
}
