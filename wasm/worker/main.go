//go:build !js

package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/aoekit/aoekit/wasm/api"
)

func main() {
	port := os.Getenv("PORT")
	if port == "" {
		port = "8787"
	}
	addr := flag.String("addr", net.JoinHostPort("127.0.0.1", port), "address to listen on (host:port); the default is loopback only")
	quiet := flag.Bool("quiet", false, "no access log")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	if err := run(*addr, *quiet); err != nil {
		log.Fatal(err)
	}
}

// run serves until SIGINT or SIGTERM, then lets requests in flight finish (up to 10 s).
func run(addr string, quiet bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h := api.New()
	if !quiet {
		h = accessLog(log.Writer(), h)
	}
	return serve(ctx, ln, h)
}

// serve serves h on ln until ctx ends, then shuts down gracefully: it stops accepting, lets
// requests in flight finish (up to 10 s) and returns nil.
func serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	log.Printf("aoekit API on http://%s (POST /v1/parse, /v1/evaluate, /v1/move; GET /v1/version)", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Print("shutting down")
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Print("stopped")
	return nil
}
