//go:build !js

package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
)

// net/http answers some requests itself, before any handler runs, and with none of the handler's
// headers: headers past http.Server's MaxHeaderBytes (431), a request it cannot parse (400), an
// HTTP version it does not speak (505), a Transfer-Encoding it does not know (501), an Expect
// other than 100-continue (417). It writes each straight to the connection and closes it. A
// guardedListener gives those answers the demo's securityHeaders too, so that every answer the
// demo server sends carries them (issue 29, 9): its connections add the headers to an answer
// that starts on the wire while no handler is running and that lacks them.
//
// A handler's answer never passes for one of net/http's: the handler is marked as running on its
// connection (by the remote address, which names one open connection) while it runs, and an
// answer with a Content-Length is flushed before it returns. What net/http writes for it later —
// the whole of a small answer (its headers, with the policy, and a body that fit net/http's
// buffer), the end of a chunked one — either carries the policy or does not start with "HTTP/1.".

// guardedListener wraps a listener's connections as guardedConns, by remote address.
type guardedListener struct {
	net.Listener
	mu    sync.Mutex
	conns map[string]*guardedConn
}

// guard returns ln with net/http's own answers given securityHeaders; serve with its handler.
func guard(ln net.Listener) *guardedListener {
	return &guardedListener{Listener: ln, conns: map[string]*guardedConn{}}
}

func (l *guardedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	g := &guardedConn{Conn: c, l: l, key: c.RemoteAddr().String()}
	l.mu.Lock()
	l.conns[g.key] = g
	l.mu.Unlock()
	return g, nil
}

// handler runs h marked as running on the request's connection, and flushes an answer with a
// Content-Length before it returns (which changes nothing of it: its length is set).
func (l *guardedListener) handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		c := l.conns[r.RemoteAddr]
		l.mu.Unlock()
		if c == nil {
			h.ServeHTTP(w, r)
			return
		}
		c.handling.Add(1)
		defer c.handling.Add(-1)
		h.ServeHTTP(w, r)
		if w.Header().Get("Content-Length") != "" {
			http.NewResponseController(w).Flush()
		}
	})
}

// A guardedConn adds ownHeaders to an answer net/http writes on its own (see guardedListener).
type guardedConn struct {
	net.Conn
	l        *guardedListener
	key      string
	handling atomic.Int32 // handlers running on the connection
	once     sync.Once
}

// ownHeaders are securityHeaders as header lines, in a fixed order.
var ownHeaders = func() []byte {
	var b bytes.Buffer
	keys := make([]string, 0, len(securityHeaders))
	for k := range securityHeaders {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(k + ": " + securityHeaders[k] + "\r\n")
	}
	return b.Bytes()
}()

func (c *guardedConn) Write(p []byte) (int, error) {
	if c.handling.Load() == 0 && bytes.HasPrefix(p, []byte("HTTP/1.")) {
		line := bytes.Index(p, []byte("\r\n"))
		head := bytes.Index(p, []byte("\r\n\r\n"))
		if line >= 0 && head >= 0 && !bytes.Contains(p[:head+2], []byte("\r\nContent-Security-Policy:")) {
			out := make([]byte, 0, len(p)+len(ownHeaders))
			out = append(append(append(out, p[:line+2]...), ownHeaders...), p[line+2:]...)
			if _, err := c.Conn.Write(out); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return c.Conn.Write(p)
}

// ReadFrom keeps sendfile for a file's body (written while its handler runs).
func (c *guardedConn) ReadFrom(r io.Reader) (int64, error) { return io.Copy(c.Conn, r) }

// CloseWrite is the connection's, which net/http uses after its 431.
func (c *guardedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *guardedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		if c.l.conns[c.key] == c {
			delete(c.l.conns, c.key)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}
