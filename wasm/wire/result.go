package wire

// The encoders of the answer types (codec_gen.go) are generated from core/engine's types (go
// generate ./wasm/wire): they follow the declarations field by field — order, omitempty, nil
// slices as null and empty ones as [] — as encoding/json would; the tests fill every field of
// every type and compare.
//
// They write through the few small helpers below, which are never inlined: in WebAssembly an
// inlined append costs some hundred bytes at every call site, a call a few dozen (see
// wasm/browser).

// An encoder appends to b; ok turns false on a number JSON cannot carry (NaN, ±Inf), where
// encoding/json fails too.
type encoder struct {
	b  []byte
	ok bool
}

// raw writes s as it is.
//
//go:noinline
func (e *encoder) raw(s string) { e.b = append(e.b, s...) }

// str writes name (the field's key with its punctuation, such as `,"id":`) and v as a JSON string.
//
//go:noinline
func (e *encoder) str(name, v string) { e.b = appendString(append(e.b, name...), v) }

// int writes name and v.
//
//go:noinline
func (e *encoder) int(name string, v int) { e.b = appendInt(append(e.b, name...), v) }

// bool writes name and v.
//
//go:noinline
func (e *encoder) bool(name string, v bool) { e.b = appendBool(append(e.b, name...), v) }

// float writes name and f.
//
//go:noinline
func (e *encoder) float(name string, f float64) {
	var good bool
	if e.b, good = appendFloat(append(e.b, name...), f); !good {
		e.ok = false
	}
}

// optString writes name and v unless v is empty (omitempty).
//
//go:noinline
func (e *encoder) optString(name, v string) {
	if v != "" {
		e.str(name, v)
	}
}

// optInt writes name and v unless v is 0 (omitempty).
//
//go:noinline
func (e *encoder) optInt(name string, v int) {
	if v != 0 {
		e.int(name, v)
	}
}

// unlead takes the comma out of "{," at b[at], where an object began whose first fields may all
// be left out: each of its fields is written after a comma (codec_gen.go's PricedStep).
//
//go:noinline
func (e *encoder) unlead(at int) {
	if at+1 < len(e.b) && e.b[at+1] == ',' {
		copy(e.b[at+1:], e.b[at+2:])
		e.b = e.b[:len(e.b)-1]
	}
}

// cell writes name and [x,y,z]. It writes the bytes itself, not through the helpers: results
// hold thousands of cells.
func (e *encoder) cell(name string, c [3]int32) {
	b := append(e.b, name...)
	b = appendInt(append(b, '['), int(c[0]))
	b = appendInt(append(b, ','), int(c[1]))
	b = appendInt(append(b, ','), int(c[2]))
	e.b = append(b, ']')
}

// point writes name and [x,y,z].
func (e *encoder) point(name string, p [3]float64) {
	e.raw(name)
	sep := "["
	for _, v := range p {
		e.float(sep, v)
		sep = ","
	}
	e.raw("]")
}

// list writes name and, for a list without elements, null (nil) or []; it reports whether
// the elements are still to be written, each after its separator ("[" for the first, "," for
// the others), and then "]".
func (e *encoder) list(name string, null bool, n int) bool {
	e.raw(name)
	switch {
	case null:
		e.raw("null")
	case n == 0:
		e.raw("[]")
	default:
		return true
	}
	return false
}
