//go:build !js

package main

import (
	"context"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"runtime"
	"strconv"
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
	maxEval := flag.Int("max-evaluations", defaultMaxEvaluations(),
		"how many requests the engine answers at once; past it a request waits its turn (0: no cap; default 2 × GOMAXPROCS)")
	queueWait := flag.Duration("queue-wait", api.DefaultQueueWait, "how long a request waits for its turn before a 503 with Retry-After: 1 (negative: no waiting)")
	queueLength := flag.Int("queue-length", 0, "how many requests may wait at once (0: 64 × -max-evaluations)")
	flag.Parse()
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	if *maxEval < 0 {
		log.Fatalf("-max-evaluations %d: want 0 (no cap) or more", *maxEval)
	}
	if *queueLength < 0 {
		log.Fatalf("-queue-length %d: want 0 (64 × -max-evaluations) or more", *queueLength)
	}
	if err := run(*addr, *quiet, api.Options{MaxEvaluations: *maxEval, QueueWait: *queueWait, QueueLength: *queueLength}); err != nil {
		log.Fatal(err)
	}
}

// defaultMaxEvaluations is 2 × GOMAXPROCS: the engine is CPU-bound, so more at once only adds
// memory and latency; twice the processors keeps them busy while answers are written.
func defaultMaxEvaluations() int {
	return 2 * runtime.GOMAXPROCS(0)
}

// run serves until SIGINT or SIGTERM, then lets requests in flight finish (up to serve.Grace).
func run(addr string, quiet bool, o api.Options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h := newHandler(o)
	if !quiet {
		h = accessLog(log.Writer(), h)
	}
	limit := "no cap"
	if o.MaxEvaluations > 0 {
		limit = strconv.Itoa(o.MaxEvaluations)
		if o.QueueWait >= 0 {
			wait, length := o.QueueWait, o.QueueLength
			if wait == 0 {
				wait = api.DefaultQueueWait
			}
			if length == 0 {
				length = 64 * o.MaxEvaluations
			}
			limit += ", then up to " + strconv.Itoa(length) + " waiting up to " + wait.String()
		}
	}
	log.Printf("aoekit API on http://%s (POST /v1/parse, /v1/evaluate, /v1/move, /v1/cover, /v1/full-attack; GET /v1/version); evaluations at once: %s", ln.Addr(), limit)
	if err := serve.Run(ctx, ln, h); err != nil {
		return err
	}
	log.Print("stopped")
	return nil
}
