//go:build js && wasm

package jsapi

import (
	"strconv"
	"syscall/js"
	"unsafe"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/internal/limits"
	"github.com/aoekit/aoekit/wasm/wire"
)

// Register sets one JavaScript function on target for every export, target.maxBody to the
// largest request, in bytes of UTF-8, a function accepts, and target.maxPacked to the most
// bytes of packed obstacles: the loader checks them before a request crosses into Go. It also makes list the table of the direct calls (direct_js.go), and
// sets target.direct to it: "name:kind " for each export, in order, kind having directScene
// for a scene's function, directBoard for one taking packed obstacles after its body, and
// directPacked for one that answers bytes.
func Register(target js.Value, list []Export) {
	b := newBinder()
	table := ""
	for _, e := range list {
		target.Set(e.Name, js.FuncOf(b.bind(e)))
		kind := 0
		if e.Scene != nil {
			kind |= directScene
		}
		if e.Board != nil {
			kind |= directBoard
		}
		if e.Packed {
			kind |= directPacked
		}
		table += e.Name + ":" + strconv.Itoa(kind) + " "
	}
	target.Set("maxBody", limits.MaxBody)
	target.Set("maxPacked", wire.MaxPacked)
	direct.table = list
	target.Set("direct", table)
}

// A RawExport is a module's own function of the JavaScript arguments themselves (the overlay's
// attach, draw…): its answer, any value syscall/js can pass, or its error.
type RawExport struct {
	Name string
	Fn   func(args []js.Value) (any, *engine.Error)
}

// RegisterRaw sets one JavaScript function on target for every raw export, bound as Register
// binds the engine's: its error as an Error, a panic recovered into an internal error.
func RegisterRaw(target js.Value, list []RawExport) {
	b := newBinder()
	for _, e := range list {
		target.Set(e.Name, js.FuncOf(b.bindRaw(e.Fn)))
	}
}

// A binder turns handlers into JavaScript functions; it holds the constructors they use.
type binder struct {
	errorCtor, bytesCtor, objectCtor js.Value
}

func newBinder() binder {
	return binder{
		errorCtor:  js.Global().Get("Error"),
		bytesCtor:  js.Global().Get("Uint8Array"),
		objectCtor: js.Global().Get("Object"),
	}
}

// bind returns the JavaScript function for e. It takes the body as its one string argument
// (none means an empty body) — after the scene's id for a scene's export, and before an
// optional Uint8Array of packed obstacles for a scene's or a board's — and returns the answer —
// a string, or a Uint8Array when e is packed — or an Error. Nothing panics out of it.
func (b binder) bind(e Export) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = b.jsError(wire.Recovered(r))
			}
		}()
		id := 0
		var packed []byte
		if e.Scene != nil {
			if len(args) == 0 || args[0].Type() != js.TypeNumber {
				return b.jsError(&engine.Error{Code: engine.CodeBadRequest, Message: e.Name + ": the first argument must be a scene id"})
			}
			id, args = args[0].Int(), args[1:]
		}
		if (e.Scene != nil || e.Board != nil) && len(args) > 1 && !args[1].IsUndefined() && !args[1].IsNull() {
			if !args[1].InstanceOf(b.bytesCtor) {
				return b.jsError(&engine.Error{Code: engine.CodeBadRequest, Message: e.Name + ": packed obstacles must come as a Uint8Array"})
			}
			n := args[1].Length()
			if n > wire.MaxPacked {
				return b.jsError(packedTooLarge(n))
			}
			packed = make([]byte, n)
			js.CopyBytesToGo(packed, args[1])
		}
		var body []byte
		if len(args) > 0 && !args[0].IsUndefined() {
			if args[0].Type() != js.TypeString {
				return b.jsError(&engine.Error{Code: engine.CodeBadRequest,
					Message: e.Name + ": the request must be a string of JSON, not " + args[0].Type().String()})
			}
			// Its size before its bytes: a UTF-16 code unit is 1 to 3 bytes of UTF-8, so a
			// string longer than MaxBody units is refused without copying it into Go, and one
			// that is copied costs at most 3 × MaxBody. (Length wants an object: Object(s) is
			// the string's wrapper, which does not copy it.)
			if n := b.objectCtor.Invoke(args[0]).Length(); n > limits.MaxBody {
				return b.jsError(tooLarge(e.Name, n, "at least "))
			}
			// The string's bytes, not a copy: wire only reads a body and keeps no part of it.
			// (A request may be a megabyte; String already copied it out of JavaScript.)
			s := args[0].String()
			body = unsafe.Slice(unsafe.StringData(s), len(s))
		}
		out, err := answer(&e, id, body, packed)
		if err != nil {
			return b.jsError(err)
		}
		if !e.Packed {
			// out is fresh and never touched again: no copy before syscall/js copies it.
			return unsafe.String(unsafe.SliceData(out), len(out))
		}
		bytes := b.bytesCtor.New(len(out))
		js.CopyBytesToJS(bytes, out)
		return bytes
	}
}

// bindRaw returns the JavaScript function for fn: its answer, or its error as an Error. A panic
// in fn (or in the DOM under it) is recovered into an internal error: nothing panics out of it.
func (b binder) bindRaw(fn func(args []js.Value) (any, *engine.Error)) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			if r := recover(); r != nil {
				result = b.jsError(wire.Recovered(r))
			}
		}()
		out, err := fn(args)
		if err != nil {
			return b.jsError(err)
		}
		return out
	}
}

// tooLarge is the error for a request of n bytes of UTF-8 ("at least" n, when counted in
// UTF-16 code units), past MaxBody.
func tooLarge(name string, n int, atLeast string) *engine.Error {
	return &engine.Error{Code: engine.CodeTooLarge, Message: name + ": the request is " + atLeast +
		strconv.Itoa(n) + " bytes of JSON; the limit is " + limits.MaxBodyText}
}

// packedTooLarge is the error for n bytes of packed obstacles, past wire.MaxPacked.
func packedTooLarge(n int) *engine.Error {
	return &engine.Error{Code: engine.CodeTooLarge, Message: "obstacles (packed): " + strconv.Itoa(n/16) +
		" obstacles, past the limit of " + strconv.Itoa(engine.MaxObstacles), Field: "obstacles"}
}

// answer answers export e (for the scene id, when it is a scene's) with body and packed
// obstacles, refusing a body past MaxBody and packed obstacles past wire.MaxPacked: what a call
// through syscall/js (bind) and a direct call (direct_js.go) both do once their arguments are
// bytes.
func answer(e *Export, id int, body, packed []byte) ([]byte, *engine.Error) {
	switch {
	case len(body) > limits.MaxBody:
		return nil, tooLarge(e.Name, len(body), "")
	case len(packed) > wire.MaxPacked:
		return nil, packedTooLarge(len(packed))
	case e.Scene != nil:
		return callScene(e.Scene, id, body, packed)
	case e.Board != nil:
		return callScene(func(_ int, body, packed []byte) ([]byte, *engine.Error) { return e.Board(body, packed) }, 0, body, packed)
	}
	return call(e.Handle, body)
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
