// Package serve runs an http.Handler on a listener until a context ends, then shuts down
// gracefully: the native API server (wasm/worker) and the demo's file server
// (wasm/devserver) share it.
package serve

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Grace is how long requests in flight may take to finish once ctx ends.
const Grace = 10 * time.Second

// Run serves h on ln until ctx ends, then stops accepting, lets requests in flight finish (up
// to Grace) and returns nil. It returns the server's error if serving fails first.
func Run(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), Grace)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
