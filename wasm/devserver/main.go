//go:build !js

// Command devserver serves a folder (the demo site, static/) on a loopback address for
// `make demo`: plain files, application/wasm for the module, no caching.
package main

import (
	"context"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/aoekit/aoekit/wasm/internal/serve"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (loopback by default)")
	dir := flag.String("dir", "static", "folder to serve")
	flag.Parse()
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		log.Fatalf("devserver: %s is not a folder (run `make demo`, which builds it)", *dir)
	}
	files := http.FileServer(http.Dir(*dir))
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("devserver: %v", err)
	}
	log.Printf("serving %s on http://%s/ (Ctrl-C to stop)", *dir, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve.Run(ctx, ln, handler); err != nil {
		log.Fatalf("devserver: %v", err)
	}
}
