//go:build !js

package main

import (
	"context"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/aoekit/aoekit/wasm/api"
	"github.com/aoekit/aoekit/wasm/internal/serve"
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

// run serves until SIGINT or SIGTERM, then lets requests in flight finish (up to serve.Grace).
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
	log.Printf("aoekit API on http://%s (POST /v1/parse, /v1/evaluate, /v1/move; GET /v1/version)", ln.Addr())
	if err := serve.Run(ctx, ln, h); err != nil {
		return err
	}
	log.Print("stopped")
	return nil
}
