//go:build js && wasm

package main

import (
	"fmt"
	"net/http"
	"runtime"
	"syscall/js"
)

var uint8Array = js.Global().Get("Uint8Array")

// serveFunc is binding.serve, which glue/worker.mjs calls once for each request, its body read:
//
//	serve(method, url, headers, contentLength, body, bodyError, done)
//
// with the arguments of bridgeRequest (body a Uint8Array, or null when the request has none;
// bodyError "" when the body was read to its end). It answers with h in a goroutine of its own
// (which runs before the call returns to JavaScript unless the handler waits for JavaScript) and
// calls done(null, status, statusText, headers, body) with bridgeResponse's values (body a
// Uint8Array or null), or done(message) when the request could not be handled. It returns
// undefined, or a message when it was called wrongly.
//
// This is the only js.Func of a request's path, made once; the values a request brings are
// released when Go's garbage collector finds them unused.
func serveFunc(h http.Handler) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 7 || args[6].Type() != js.TypeFunction {
			return fmt.Sprintf("serve: %d arguments; want method, url, headers, contentLength, body, bodyError, done", len(args))
		}
		in := bridgeRequest{
			Method:        args[0].String(),
			URL:           args[1].String(),
			Header:        args[2].String(),
			ContentLength: int64(args[3].Int()),
			BodyError:     args[5].String(),
		}
		if body := args[4]; !body.IsNull() && !body.IsUndefined() {
			in.HasBody = true
			in.Body = make([]byte, body.Length())
			js.CopyBytesToGo(in.Body, body)
		}
		done := args[6]
		go func() {
			var sink jsBody
			out, err := serveBridgeTo(h, in, &sink)
			if err != nil {
				done.Invoke(err.Error())
				return
			}
			var body any // null
			if out.Body != nil {
				body = sink.value()
			}
			done.Invoke(nil, out.Status, http.StatusText(out.Status), out.Header, body)
		}()
		return nil
	})
}

// debugFunc is binding.debug, set only when the env binding AOEKIT_DEBUG_GO is (the memory test
// of wasm/worker/e2e): it collects Go's garbage — so that the JavaScript values Go no longer
// uses are released before the call returns — and returns Go's counts as JSON.
func debugFunc() js.Func {
	return js.FuncOf(func(js.Value, []js.Value) any {
		runtime.GC()
		runtime.GC() // finalizers queued by the first collection have run by the second
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return fmt.Sprintf(`{"goroutines":%d,"heapAlloc":%d,"heapObjects":%d,"heapSys":%d}`,
			runtime.NumGoroutine(), m.HeapAlloc, m.HeapObjects, m.HeapSys)
	})
}

// jsBody keeps an answer's body in JavaScript's memory, a Uint8Array for each write, as the
// handler writes it (wasm/api writes an answer once).
type jsBody struct {
	chunks []js.Value
	n      int
}

func (b *jsBody) Write(p []byte) (int, error) {
	if len(p) > 0 {
		c := uint8Array.New(len(p))
		js.CopyBytesToJS(c, p)
		b.chunks = append(b.chunks, c)
		b.n += len(p)
	}
	return len(p), nil
}

// value is the body as one Uint8Array.
func (b *jsBody) value() js.Value {
	switch len(b.chunks) {
	case 0:
		return uint8Array.New(0)
	case 1:
		return b.chunks[0]
	}
	all, at := uint8Array.New(b.n), 0
	for _, c := range b.chunks {
		all.Call("set", c, at)
		at += c.Length()
	}
	return all
}
