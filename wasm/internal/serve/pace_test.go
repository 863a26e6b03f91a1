//go:build unix

package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// smallBuffers is a listener whose connections have a small send buffer, so that a reader's
// pace shows at the server within a few kilobytes instead of the megabytes loopback buffers.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(16 << 10)
	}
	return c, err
}

// dialSmall connects with a small receive buffer, set before connecting so that the window the
// client offers stays small.
func dialSmall(addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: 10 * time.Second, Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = setRcvBuf(fd, 16<<10) })
		if err != nil {
			return err
		}
		return serr
	}}
	return d.Dial("tcp", addr)
}

// answer is a handler that writes size bytes in one Write, and reports what Write returned.
func answer(size int, wrote chan<- error) http.Handler {
	body := bytes.Repeat([]byte("0123456789abcdef"), size/16)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, err := w.Write(body)
		wrote <- err
	})
}

// start runs c.Run on a loopback listener until the test ends.
func start(t *testing.T, c Config, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, smallBuffers{ln}, h) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("Run did not return")
		}
	})
	return ln.Addr().String()
}

// get sends GET / on conn and returns the response, its body to be read.
func get(t *testing.T, conn net.Conn) (*http.Response, *bufio.Reader) {
	t.Helper()
	io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReaderSize(conn, 4<<10)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, br
}

// TestSlowReaderGetsWholeAnswer: an answer that takes many times WriteTimeout to read, read
// steadily, arrives whole (a 30 s deadline for the whole answer once cut a 14 MB answer read at
// 300 KB/s short at 12.2 MB).
func TestSlowReaderGetsWholeAnswer(t *testing.T) {
	const size = 3 << 20
	wrote := make(chan error, 1)
	// A generous timeout (a loaded CI machine may pause the reader for a while); the whole read
	// still takes several times as long, which one deadline for the whole answer would cut.
	const timeout = time.Second
	addr := start(t, Config{WriteTimeout: timeout, WriteChunk: 16 << 10}, answer(size, wrote))
	conn, err := dialSmall(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))
	res, _ := get(t, conn)
	// About 1 MB/s: 16 KB every 15 ms, each chunk read well within its timeout.
	buf := make([]byte, 16<<10)
	got := 0
	began := time.Now()
	for reads := 0; reads < 10*size/len(buf); reads++ {
		n, err := io.ReadFull(res.Body, buf)
		got += n
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Logf("read: %v", err)
			}
			break
		}
		time.Sleep(15 * time.Millisecond)
	}
	took := time.Since(began)
	t.Logf("read %d of %d B in %v, %.0f× the write timeout", got, size, took.Round(time.Millisecond), float64(took)/float64(timeout))
	if got != size {
		t.Errorf("the slow reader got %d of %d bytes", got, size)
	}
	if took < 2*timeout {
		t.Logf("the answer took %v to read, not much longer than WriteTimeout: this run proves little", took)
	}
	select {
	case err := <-wrote:
		if err != nil {
			t.Errorf("the handler's Write failed: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("the handler did not finish")
	}
}

// TestStalledReaderIsCutOff: a reader that stops reading is cut off after about WriteTimeout.
func TestStalledReaderIsCutOff(t *testing.T) {
	const size = 8 << 20
	wrote := make(chan error, 1)
	addr := start(t, Config{WriteTimeout: 250 * time.Millisecond, WriteChunk: 16 << 10}, answer(size, wrote))
	conn, err := dialSmall(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))
	res, _ := get(t, conn) // then reads nothing
	select {
	case err := <-wrote:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("the handler's Write to a stalled reader: %v; want a timeout", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the handler is still writing to a reader that stopped")
	}
	got, _ := io.Copy(io.Discard, res.Body)
	t.Logf("the stalled reader got %d of %d B before the server cut it off", got, size)
	if got >= size {
		t.Errorf("the stalled reader got the whole answer (%d B): the buffers hold it all, the test proves nothing", got)
	}
}

// TestDefaults: a zero Config is the documented one.
func TestDefaults(t *testing.T) {
	c := Config{}.withDefaults()
	if c.WriteTimeout != 30*time.Second || c.WriteChunk != 64<<10 || c.ReadTimeout != 30*time.Second ||
		c.ReadHeaderTimeout != 10*time.Second || c.IdleTimeout != 2*time.Minute || c.Grace != Grace || c.MaxHeaderBytes != 64<<10 {
		t.Errorf("defaults: %+v", c)
	}
}
