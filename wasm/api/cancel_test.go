package api

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aoekit/aoekit/core/engine"
)

// TestClientGoneStillAnswered: the engine's work is not cancelled with the request's context.
// net/http cancels it when the client closes its side of the connection, as a client that
// half-closes after its request does while it still reads (nc -N, some proxies): such a
// client was answered 400 "cancelled: context canceled" for a valid request. An evaluation and
// a move whose request context is already done are answered as from any client.
func TestClientGoneStillAnswered(t *testing.T) {
	h := New()
	for _, c := range []struct{ path, body, want string }{
		{"/v1/evaluate", `{"template": "5 burst", "rules": "drawsteel", "caster": {"id": "c", "x": 0, "y": 0}, "obstacles": [{"x": 2, "y": 0}]}`, `{"template":`},
		{"/v1/move", `{"kind": "push", "distance": 5, "source": {"x": 0, "y": 0}, "target": "g", "tokens": [{"id": "g", "x": 1, "y": 0}]}`, `{"path":[[2,0,0],`},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequest("POST", c.path, strings.NewReader(c.body)).WithContext(ctx)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 || !strings.HasPrefix(w.Body.String(), c.want) {
			t.Errorf("%s, its context done: %d %.200s", c.path, w.Code, w.Body)
		}
	}
}

// stalled is a ResponseWriter whose client does not read: Write waits until release closes.
type stalled struct {
	*httptest.ResponseRecorder
	writing chan struct{} // closed when Write is first called
	release chan struct{}
	once    sync.Once
}

func (s *stalled) Write(p []byte) (int, error) {
	s.once.Do(func() { close(s.writing) })
	<-s.release
	return s.ResponseRecorder.Write(p)
}

// TestSlowReadersHoldNoSlot: an answer being written to a client that does not read holds no
// evaluation slot (four such clients held every slot of a 2-core server, and every POST was
// answered 503); large answers being written count against a budget of answerBudget bytes a
// slot instead, past which a large answer is 503 while small ones are still answered.
func TestSlowReadersHoldNoSlot(t *testing.T) {
	defer func(b int) { answerBudget = b }(answerBudget)
	answerBudget = 5 << 20
	big := func(engine.Context, []byte) ([]byte, *engine.Error) {
		return []byte(`"` + strings.Repeat("x", 2<<20) + `"`), nil
	}
	small := func(engine.Context, []byte) ([]byte, *engine.Error) { return []byte(`{"ok":true}`), nil }
	h := newHandler(doors{parse: small, evaluate: big, move: small, cover: small, fullAttack: small, version: func() []byte { return []byte(`{}`) }},
		Options{MaxEvaluations: 1})
	release := make(chan struct{})
	var done sync.WaitGroup
	defer func() { close(release); done.Wait() }()
	for i := range 2 { // two big answers stalled: 4 MiB of the 5 a slot allows
		s := &stalled{ResponseRecorder: httptest.NewRecorder(), writing: make(chan struct{}), release: release}
		req := httptest.NewRequest("POST", "/v1/evaluate", strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		done.Add(1)
		go func() { defer done.Done(); h.ServeHTTP(s, req) }()
		select {
		case <-s.writing:
		case <-time.After(30 * time.Second):
			t.Fatalf("big answer %d: not written", i)
		}
	}
	if w := (call{"POST", "/v1/parse", "application/json", "{}"}).do(t, h); w.Code != 200 {
		t.Errorf("a small answer while two large ones are stalled: %d %s", w.Code, w.Body)
	}
	w := call{"POST", "/v1/evaluate", "application/json", "{}"}.do(t, h)
	if e := errorOf(t, w); w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" ||
		e.Code != engine.CodeTooLarge || e.Message != "the server is busy: answers of 5 MiB in all being sent; retry" {
		t.Errorf("a third large answer: %d %+v", w.Code, e)
	}
	if w := (call{"POST", "/v1/move", "application/json", "{}"}).do(t, h); w.Code != 200 {
		t.Errorf("a small answer after the refusal: %d %s", w.Code, w.Body)
	}
}

// timeout is a net.Error that timed out.
type timeout struct{}

func (timeout) Error() string   { return "i/o timeout" }
func (timeout) Timeout() bool   { return true }
func (timeout) Temporary() bool { return true }

// TestBodyErrorsNameNoAddress: a body that stalls past the read deadline is answered "timed
// out", not with net's "read tcp 127.0.0.1:8787->10.0.0.7:55926: i/o timeout", which named the
// server's addresses to a client behind a proxy. Any other failure to read a body is one
// sentence in both builds (issue 29, 7): net/http's errors and the Workers glue's JavaScript one
// for the same request (a body shorter than declared) differed.
func TestBodyErrorsNameNoAddress(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 55926}
	const failed = "it ended before its declared length, its chunked framing is broken, or the connection was lost"
	for _, c := range []struct {
		err  error
		want string
	}{
		{&net.OpError{Op: "read", Net: "tcp", Source: addr, Addr: addr, Err: timeout{}}, "timed out"},
		{&net.OpError{Op: "read", Net: "tcp", Source: addr, Addr: addr, Err: errors.New("connection reset by peer")}, failed},
		{io.ErrUnexpectedEOF, failed},
		{errors.New("malformed chunked encoding"), failed},
		{errors.New("JavaScript error on read: Error: Network connection lost."), failed}, // the Workers glue's
	} {
		if got := bodyError(c.err); got != c.want || strings.Contains(got, "10.0.0.7") {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}
