package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestGracefulShutdown: cancelling Run's context lets a request in flight finish.
func TestGracefulShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		io.WriteString(w, "done")
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Run(ctx, ln, slow) }()
	got := make(chan string, 1)
	go func() {
		res, err := http.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		got <- string(b)
	}()
	<-started
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if s := <-got; s != "done" {
		t.Errorf("request in flight: %q", s)
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("still listening after shutdown")
	}
}

// TestShutdownPastTheGrace: a request still in flight when the grace ends (a client that
// stopped reading) is cut off, and Run returns nil: the server shut down as asked (it exited
// with status 1, a failure to a process manager).
func TestShutdownPastTheGrace(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	started, stop := make(chan struct{}), make(chan struct{})
	defer close(stop)
	stuck := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select {
		case <-stop:
		case <-r.Context().Done(): // closed by Run
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Config{Grace: 200 * time.Millisecond}.Run(ctx, ln, stuck) }()
	go http.Get("http://" + ln.Addr().String() + "/")
	<-started
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Run: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its grace")
	}
}
