//go:build !js

// Command devserver serves a folder (the demo site, static/) on a loopback address for
// `make demo`: plain files, application/wasm for the module, no caching, and the brotli or gzip
// copy of a file when the browser accepts it. With -precompress it writes those copies
// (name.br, name.gz beside each large text or .wasm file) instead, for `make static`.
package main

import (
	"context"
	"flag"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/aoekit/aoekit/wasm/internal/serve"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (loopback by default)")
	dir := flag.String("dir", "static", "folder to serve")
	precompress := flag.Bool("precompress", false, "write name.br and name.gz beside each large text or .wasm file under -dir, then exit")
	flag.Parse()
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		log.Fatalf("devserver: %s is not a folder (run `make demo`, which builds it)", *dir)
	}
	if *precompress {
		err := Precompress(*dir, func(name string, from, to int) {
			log.Printf("wrote %s: %d B → %d B", name, from, to)
		})
		if err != nil {
			log.Fatalf("devserver: %v", err)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("devserver: %v", err)
	}
	log.Printf("serving %s on http://%s/ (Ctrl-C to stop)", *dir, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, ln, *dir); err != nil {
		log.Fatalf("devserver: %v", err)
	}
}

// run serves the folder dir on ln until ctx ends: staticHandler, with the security headers on
// net/http's own answers too (guard).
func run(ctx context.Context, ln net.Listener, dir string) error {
	g := guard(ln)
	return serve.Run(ctx, g, g.handler(staticHandler(dir)))
}
