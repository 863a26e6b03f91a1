// Package serve runs an http.Handler on a listener until a context ends, then shuts down
// gracefully: the native API server (wasm/worker) and the demo's file server
// (wasm/devserver) share it.
package serve

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"time"
)

// Grace is how long requests in flight may take to finish once ctx ends (Config.Grace's default).
const Grace = 10 * time.Second

// Config bounds what one connection may cost. A zero field takes its default.
type Config struct {
	// ReadHeaderTimeout bounds reading a request's headers (default 10 s); ReadTimeout, its
	// headers and body (default 30 s).
	ReadHeaderTimeout, ReadTimeout time.Duration
	// WriteTimeout is how long writing one chunk of an answer may take (default 30 s): an
	// answer is written WriteChunk bytes at a time (default 64 KiB), and the write deadline
	// moves to WriteTimeout from now before each chunk. So a large answer read slowly but
	// steadily arrives whole, however long it takes, while a reader that stops reading is cut
	// off after WriteTimeout. The deadline also bounds writes outside the handler (the
	// server's own error answers), from the moment a request has been read.
	WriteTimeout time.Duration
	WriteChunk   int
	// IdleTimeout bounds a kept-alive connection between requests (default 2 min).
	IdleTimeout time.Duration
	// Grace is how long requests in flight may take to finish once Run's ctx ends (default Grace).
	Grace time.Duration
	// MaxHeaderBytes bounds a request's headers (default 64 KiB).
	MaxHeaderBytes int
}

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.ReadHeaderTimeout, 10*time.Second)
	def(&c.ReadTimeout, 30*time.Second)
	def(&c.WriteTimeout, 30*time.Second)
	def(&c.IdleTimeout, 2*time.Minute)
	def(&c.Grace, Grace)
	if c.WriteChunk <= 0 {
		c.WriteChunk = 64 << 10
	}
	if c.MaxHeaderBytes <= 0 {
		c.MaxHeaderBytes = 64 << 10
	}
	return c
}

// Run serves h on ln with the default Config until ctx ends, then stops accepting, lets
// requests in flight finish (up to Grace) and returns nil. It returns the server's error if
// serving fails first.
func Run(ctx context.Context, ln net.Listener, h http.Handler) error {
	return Config{}.Run(ctx, ln, h)
}

// Run serves h on ln as the package's Run does, bounded by c.
func (c Config) Run(ctx context.Context, ln net.Listener, h http.Handler) error {
	c = c.withDefaults()
	srv := &http.Server{
		Handler:           paced(h, c.WriteTimeout, c.WriteChunk),
		ReadHeaderTimeout: c.ReadHeaderTimeout,
		ReadTimeout:       c.ReadTimeout,
		WriteTimeout:      c.WriteTimeout,
		IdleTimeout:       c.IdleTimeout,
		MaxHeaderBytes:    c.MaxHeaderBytes,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), c.Grace)
	defer cancel()
	if err := srv.Shutdown(shutdown); errors.Is(err, context.DeadlineExceeded) {
		// Requests still in flight after the grace (a client that stopped reading its answer)
		// are cut off: the server has shut down as asked, not failed.
		log.Printf("shutdown: closed the connections still open after %v", c.Grace)
		srv.Close()
	} else if err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// paced has h write its answers through a pacedWriter.
func paced(h http.Handler, timeout time.Duration, chunk int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&pacedWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: timeout, chunk: chunk}, r)
	})
}

// A pacedWriter writes chunk bytes at a time, each with a write deadline timeout from its start.
type pacedWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	chunk   int
}

func (w *pacedWriter) Write(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		n := min(len(p), w.chunk)
		// An error means the connection cannot take deadlines: the server's WriteTimeout stays.
		w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
		m, err := w.ResponseWriter.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

func (w *pacedWriter) WriteHeader(status int) {
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection (Flush, deadlines).
func (w *pacedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
