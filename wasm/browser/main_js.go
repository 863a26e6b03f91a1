//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
	"unsafe"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/internal/limits"
	"github.com/aoekit/aoekit/wasm/wire"
)

// handshake is the global under which the loader (web/index.js) hands main the object to
// register on; the loader deletes it as soon as main has returned control.
const handshake = "__aoekit"

func main() {
	register(target(), exports)
	select {} // keep the functions alive: JavaScript calls them while main waits
}

// target returns the object the loader handed over, or a new globalThis.aoekit without one.
func target() js.Value {
	if t := js.Global().Get(handshake); t.Type() == js.TypeObject {
		return t
	}
	t := js.Global().Get("Object").New()
	js.Global().Set("aoekit", t)
	return t
}

// register sets one JavaScript function on target for every export, and target.maxBody to
// the largest request, in bytes of UTF-8, a function accepts: the loader checks it before a
// request crosses into Go.
func register(target js.Value, list []export) {
	b := binder{
		errorCtor:  js.Global().Get("Error"),
		bytesCtor:  js.Global().Get("Uint8Array"),
		objectCtor: js.Global().Get("Object"),
	}
	for _, e := range list {
		target.Set(e.name, js.FuncOf(b.bind(e)))
	}
	target.Set("maxBody", limits.MaxBody)
}

// A binder turns handlers into JavaScript functions; it holds the constructors they use.
type binder struct {
	errorCtor, bytesCtor, objectCtor js.Value
}

// bind returns the JavaScript function for e. It takes the body as its one string argument
// (none means an empty body) — after the scene's id for a scene's export, and before an
// optional Uint8Array of packed obstacles — and returns the answer — a string, or a Uint8Array
// when e is packed — or an Error. Nothing panics out of it.
func (b binder) bind(e export) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = b.jsError(wire.Recovered(r))
			}
		}()
		id := 0
		var packed []byte
		if e.scene != nil {
			if len(args) == 0 || args[0].Type() != js.TypeNumber {
				return b.jsError(&engine.Error{Code: engine.CodeBadRequest, Message: e.name + ": the first argument must be a scene id"})
			}
			id, args = args[0].Int(), args[1:]
			if len(args) > 1 && !args[1].IsUndefined() && !args[1].IsNull() {
				if !args[1].InstanceOf(b.bytesCtor) {
					return b.jsError(&engine.Error{Code: engine.CodeBadRequest, Message: e.name + ": packed obstacles must come as a Uint8Array"})
				}
				n := args[1].Length()
				if n > wire.MaxPacked {
					return b.jsError(&engine.Error{Code: engine.CodeTooLarge, Message: "obstacles (packed): " + strconv.Itoa(n/16) +
						" obstacles, past the limit of " + strconv.Itoa(engine.MaxObstacles)})
				}
				packed = make([]byte, n)
				js.CopyBytesToGo(packed, args[1])
			}
		}
		var body []byte
		if len(args) > 0 && !args[0].IsUndefined() {
			if args[0].Type() != js.TypeString {
				return b.jsError(&engine.Error{Code: engine.CodeBadRequest,
					Message: e.name + ": the request must be a string of JSON, not " + args[0].Type().String()})
			}
			// Its size before its bytes: a UTF-16 code unit is 1 to 3 bytes of UTF-8, so a
			// string longer than MaxBody units is refused without copying it into Go, and one
			// that is copied costs at most 3 × MaxBody. (Length wants an object: Object(s) is
			// the string's wrapper, which does not copy it.)
			if n := b.objectCtor.Invoke(args[0]).Length(); n > limits.MaxBody {
				return b.tooLarge(e.name, n, "at least ")
			}
			// The string's bytes, not a copy: wire only reads a body and keeps no part of it.
			// (A request may be a megabyte; String already copied it out of JavaScript.)
			s := args[0].String()
			if len(s) > limits.MaxBody {
				return b.tooLarge(e.name, len(s), "")
			}
			body = unsafe.Slice(unsafe.StringData(s), len(s))
		}
		var out []byte
		var err *engine.Error
		if e.scene != nil {
			out, err = callScene(e.scene, id, body, packed)
		} else {
			out, err = call(e.handle, body)
		}
		if err != nil {
			return b.jsError(err)
		}
		if !e.packed {
			// out is fresh and never touched again: no copy before syscall/js copies it.
			return unsafe.String(unsafe.SliceData(out), len(out))
		}
		bytes := b.bytesCtor.New(len(out))
		js.CopyBytesToJS(bytes, out)
		return bytes
	}
}

// tooLarge is the error for a request of n bytes of UTF-8 ("at least" n, when counted in
// UTF-16 code units), past MaxBody.
func (b binder) tooLarge(name string, n int, atLeast string) js.Value {
	return b.jsError(&engine.Error{Code: engine.CodeTooLarge, Message: name + ": the request is " + atLeast +
		strconv.Itoa(n) + " bytes of JSON; the limit is " + limits.MaxBodyText})
}

// jsError returns err as a JavaScript Error with code, message and, when err has them, field
// and at (a full attack's step index even when it is 0, as on the wire).
func (b binder) jsError(err *engine.Error) js.Value {
	v := b.errorCtor.New(err.Message)
	v.Set("code", string(err.Code))
	if err.Field != "" {
		v.Set("field", err.Field)
	}
	if err.At != 0 || err.Step {
		v.Set("at", err.At)
	}
	return v
}
