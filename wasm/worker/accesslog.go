//go:build !js

package main

import (
	"io"
	"net/http"
	"strconv"
	"time"
)

// accessLog writes one line per request to out: method, path, status, bytes written and
// duration, as in "POST /v1/evaluate 200 1234 1.52ms".
func accessLog(out io.Writer, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w}
		defer func() {
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			line := make([]byte, 0, 96)
			line = append(line, r.Method...)
			line = append(line, ' ')
			line = append(line, r.URL.RequestURI()...)
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(rec.status), 10)
			line = append(line, ' ')
			line = strconv.AppendInt(line, rec.bytes, 10)
			line = append(line, ' ')
			line = append(line, time.Since(start).Round(10*time.Microsecond).String()...)
			line = append(line, '\n')
			out.Write(line)
		}()
		next.ServeHTTP(rec, r)
	})
}

// recorder notes the status and the number of body bytes written.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
