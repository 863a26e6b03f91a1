//go:build js && wasm

package jsapi

import (
	"unsafe"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// The direct calls: the exports Register bound, called by the loaders through functions the
// module itself exports (go:wasmexport) instead of through syscall/js. The request's bytes go
// into a buffer in the module's memory (aoekit_in), aoekit_call answers them, and the answer's
// bytes are read from the module's memory (aoekit_out). A call through syscall/js makes
// js.Values of its arguments and answer, each with a finalizer that the runtime files among
// the others of its memory span one by one: some 14 µs a call in Node once thousands pile up
// between collections, a third of it filing them; a direct call costs nanoseconds to cross.
// The answers are the same bytes, and the errors the same errors (answer).

// The kinds of export in Register's table.
const (
	directScene  = 1 // called with a scene's id and maybe packed obstacles
	directPacked = 2 // answers bytes (a Uint8Array), not a string of JSON
	directBoard  = 4 // called with maybe packed obstacles after the body
)

// direct is the state of the direct calls: the table Register bound, the request buffer and
// the last answer, kept until the next call (JavaScript copies it out first).
var direct struct {
	table   []Export
	in, out []byte
}

// directIn makes the request buffer at least n bytes long and returns its address.
//
//go:wasmexport aoekit_in
func directIn(n int32) uint32 {
	if int(n) > len(direct.in) {
		direct.in = make([]byte, n)
	}
	return address(direct.in)
}

// directCall answers export fn (an index in Register's table) for the request in the first n
// bytes of the request buffer, followed by packed bytes of packed obstacles, for the scene id
// when it is a scene's function. It returns the length of the answer, at aoekit_out, or, when
// the answer is an error (wire.Error's JSON), −1 minus its length. Nothing panics out of it.
//
//go:wasmexport aoekit_call
func directCall(fn, n, id, packed int32) (r int32) {
	defer func() {
		if p := recover(); p != nil {
			r = directError(wire.Recovered(p))
		}
		if len(direct.in) > 1<<16 { // a large request's buffer is not kept
			direct.in = nil
		}
	}()
	direct.out = nil
	if fn < 0 || int(fn) >= len(direct.table) || n < 0 || packed < 0 || int(n)+int(packed) > len(direct.in) {
		return directError(wire.InternalError("a direct call out of bounds"))
	}
	var pk []byte
	if packed > 0 {
		pk = direct.in[n : n+packed : n+packed]
	}
	out, err := answer(&direct.table[fn], int(id), direct.in[:n:n], pk)
	if err != nil {
		return directError(err)
	}
	direct.out = out
	return int32(len(out))
}

// directError keeps err's JSON as the answer and returns −1 minus its length.
func directError(err *engine.Error) int32 {
	direct.out = wire.Error(err)
	return -1 - int32(len(direct.out))
}

// directOut returns the address of the last answer.
//
//go:wasmexport aoekit_out
func directOut() uint32 { return address(direct.out) }

// address is the address of b's first byte in the module's memory (0 when b is empty).
func address(b []byte) uint32 {
	if len(b) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
}
