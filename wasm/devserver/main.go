//go:build !js

// Command devserver serves a folder (the demo site, static/) on a loopback address for
// `make demo`: plain files, application/wasm for the module, no caching.
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
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (loopback by default)")
	dir := flag.String("dir", "static", "folder to serve")
	flag.Parse()
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		log.Fatalf("devserver: %s is not a folder (run `make demo`, which builds it)", *dir)
	}
	files := http.FileServer(http.Dir(*dir))
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "no-store")
			files.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 5 * time.Second,
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("devserver: %v", err)
	}
	log.Printf("serving %s on http://%s/ (Ctrl-C to stop)", *dir, ln.Addr())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("devserver: %v", err)
	}
}
