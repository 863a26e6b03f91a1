package wire

import (
	"strconv"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/decimal"
	"github.com/aoekit/aoekit/core/engine"
)

// A decoder walks a body that scan has accepted, one typed value at a time. It keeps the path
// to the value it is reading so that a type error can name it ("tokens[3].x").
type decoder struct {
	data []byte
	i    int
	path []step
	buf  []byte // scratch for unescaping field names
}

// A step is one level of a path: a field name, a map key (quoted when printed, and cut past 64
// bytes) or an index.
type step struct {
	key   string
	index int // -1 for a field, -2 for a map key
}

// newDecoder checks data and returns a decoder at its first value.
func newDecoder(data []byte) (*decoder, *engine.Error) {
	if err := scan(data); err != nil {
		return nil, err
	}
	d := &decoder{data: data, path: make([]step, 0, 8)}
	d.ws()
	return d, nil
}

// Most helpers of the decoder are never inlined (//go:noinline): each inlined copy of one that
// appends or allocates costs some hundred bytes of WebAssembly, a call a few dozen.

// ws skips white space.
//
//go:noinline
func (d *decoder) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *decoder) peek() byte {
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

// field, mapKey and index push a step onto the path, pop takes the last one off.
//
//go:noinline
func (d *decoder) field(name string) { d.path = append(d.path, step{key: name, index: -1}) }

//go:noinline
func (d *decoder) mapKey(key string) { d.path = append(d.path, step{key: key, index: -2}) }

//go:noinline
func (d *decoder) index(i int) { d.path = append(d.path, step{index: i}) }

//go:noinline
func (d *decoder) pop() { d.path = d.path[:len(d.path)-1] }

// where returns the current path, as in tokens[3].x, or "request" at the top.
func (d *decoder) where() string {
	if len(d.path) == 0 {
		return "request"
	}
	var b []byte
	for k, s := range d.path {
		switch s.index {
		case -1:
			if k > 0 {
				b = append(b, '.')
			}
			b = append(b, s.key...)
		case -2: // a key past 64 bytes is cut, as quote cuts the values it shows
			b = append(append(append(b, '['), Quote(s.key)...), ']')
		default:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(s.index), 10)
			b = append(b, ']')
		}
	}
	return string(b)
}

// got names the kind of the value at the cursor, for error messages.
func (d *decoder) got() string {
	switch d.peek() {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// fail reports msg at the current path.
//
//go:noinline
func (d *decoder) fail(msg string) *engine.Error {
	where := d.where()
	return &engine.Error{Code: engine.CodeBadRequest, Message: where + ": " + msg, Field: engine.FieldOf(where + ": ")}
}

// typeErr reports that the value at the cursor is not of the wanted kind.
//
//go:noinline
func (d *decoder) typeErr(want string) *engine.Error {
	return d.fail("expected " + want + ", got " + d.got())
}

// null consumes a null and reports whether there was one.
//
//go:noinline
func (d *decoder) null() bool {
	if d.peek() == 'n' {
		d.i += 4
		d.ws()
		return true
	}
	return false
}

// objectStart starts reading an object; false when the value is not one.
//
//go:noinline
func (d *decoder) objectStart() bool {
	if d.peek() != '{' {
		return false
	}
	d.i++
	d.ws()
	return true
}

// next returns the name of the object's next field, the cursor on its value, or false at the
// end of the object. The name is valid until the next call.
func (d *decoder) next() ([]byte, bool) {
	switch d.peek() {
	case '}':
		d.i++
		d.ws()
		return nil, false
	case ',':
		d.i++
		d.ws()
	}
	key, buffered := d.rawString(d.buf[:0])
	if buffered {
		d.buf = key[:0]
	}
	d.ws()
	d.i++ // :
	d.ws()
	return key, true
}

// array starts reading an array; false when the value is not one.
//
//go:noinline
func (d *decoder) array() bool {
	if d.peek() != '[' {
		return false
	}
	d.i++
	d.ws()
	return true
}

// more reports whether the array has another element, the cursor on it.
func (d *decoder) more() bool {
	switch d.peek() {
	case ']':
		d.i++
		d.ws()
		return false
	case ',':
		d.i++
		d.ws()
	}
	return true
}

// skip passes over one value, with the scanner (which has checked it already).
func (d *decoder) skip() {
	s := scanner{data: d.data, i: d.i}
	s.value(0)
	d.i = s.i
	d.ws()
}

func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// rawString reads a string at the cursor, unescaped. A string with escapes is appended to buf
// (buffered is true); any other is a slice of the input.
func (d *decoder) rawString(buf []byte) (s []byte, buffered bool) {
	d.i++ // "
	start := d.i
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case '"':
			s := d.data[start:d.i]
			d.i++
			return s, false
		case '\\':
			return d.unescape(append(buf, d.data[start:d.i]...)), true
		}
		d.i++
	}
	return d.data[start:], false
}

// unescape continues a string from an escape, appending to b.
func (d *decoder) unescape(b []byte) []byte {
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch c {
		case '"':
			d.i++
			return b
		case '\\':
			d.i++
			e := d.data[d.i]
			d.i++
			switch e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := d.hex4()
				if utf16IsSurrogate(r) {
					r2 := rune(-1)
					if r < 0xdc00 && d.i+6 <= len(d.data) && d.data[d.i] == '\\' && d.data[d.i+1] == 'u' {
						save := d.i
						d.i += 2
						r2 = d.hex4()
						if r2 >= 0xdc00 && r2 < 0xe000 {
							r = (r-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
						} else {
							d.i = save
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default: // " \ /
				b = append(b, e)
			}
		default:
			b = append(b, c)
			d.i++
		}
	}
	return b
}

func utf16IsSurrogate(r rune) bool { return r >= 0xd800 && r < 0xe000 }

func (d *decoder) hex4() rune {
	var r rune
	for k := 0; k < 4; k++ {
		c := d.data[d.i]
		d.i++
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// string reads a string.
func (d *decoder) string() (string, *engine.Error) {
	if d.peek() != '"' {
		return "", d.typeErr("a string")
	}
	b, _ := d.rawString(nil)
	s := string(b)
	d.ws()
	return s, nil
}

// boolean reads true or false.
func (d *decoder) boolean() (bool, *engine.Error) {
	switch d.peek() {
	case 't':
		d.i += 4
		d.ws()
		return true, nil
	case 'f':
		d.i += 5
		d.ws()
		return false, nil
	}
	return false, d.typeErr("a boolean (true or false)")
}

// numberToken reads the number at the cursor, or returns nil when there is none.
func (d *decoder) numberToken() []byte {
	c := d.peek()
	if c != '-' && !isDigit(c) {
		return nil
	}
	start := d.i
	for d.i < len(d.data) && !isDelim(d.data[d.i]) {
		d.i++
	}
	tok := d.data[start:d.i]
	d.ws()
	return tok
}

// shown returns a number token for a message, cut short when long.
func shown(tok []byte) string {
	if len(tok) > 24 {
		return string(tok[:24]) + "…"
	}
	return string(tok)
}

// Integers on the wire are 32-bit: −2^31 ≤ n < 2^31.
const (
	minInt = -1 << 31
	maxInt = 1<<31 - 1
)

// integer reads an integral number within ±2^31 (1e3 and 4.0 are integers), judged by its
// decimal value: 1.0000000000000000001 is not an integer, though the float64 nearest it is.
func (d *decoder) integer() (int, *engine.Error) {
	tok := d.numberToken()
	if tok == nil {
		return 0, d.typeErr("an integer")
	}
	v, ok := plainInt(tok)
	if !ok {
		x, _ := decimal.Parse(tok) // scan checked the syntax
		m, exact, small := x.Scaled(0)
		limit := uint64(maxInt)
		if x.Neg {
			limit = -minInt
		}
		if !small || m > limit || m == limit && !exact {
			return 0, d.outOfRange(tok)
		}
		if !exact {
			return 0, d.fail("expected an integer, got " + shown(tok))
		}
		v = int64(m)
		if x.Neg {
			v = -v
		}
	}
	if v < minInt || v > maxInt {
		return 0, d.outOfRange(tok)
	}
	return int(v), nil
}

func (d *decoder) outOfRange(tok []byte) *engine.Error {
	return d.fail("integer " + shown(tok) + " out of range (-2147483648 to 2147483647)")
}

// plainInt parses an integer written without fraction or exponent, saturating far past
// ±2^31; ok is false for other number forms.
func plainInt(tok []byte) (int64, bool) {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	var v int64
	for _, c := range tok {
		if !isDigit(c) {
			return 0, false
		}
		if v < 1<<40 {
			v = v*10 + int64(c-'0')
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

// unsigned reads a non-negative integral number below 2^64, judged by its decimal value
// (−0 is 0).
func (d *decoder) unsigned() (uint64, *engine.Error) {
	tok := d.numberToken()
	if tok == nil {
		return 0, d.typeErr("an integer from 0 to 18446744073709551615")
	}
	if v, ok := parseUint(tok); ok {
		return v, nil
	}
	x, _ := decimal.Parse(tok) // scan checked the syntax
	v, exact, small := x.Scaled(0)
	if !small || !exact || x.Neg && !x.IsZero() {
		return 0, d.notUnsigned(tok)
	}
	return v, nil
}

// notUnsigned reports tok, a number that is not an integer from 0 to 2^64 − 1.
//
//go:noinline
func (d *decoder) notUnsigned(tok []byte) *engine.Error {
	return d.fail("expected an integer from 0 to 18446744073709551615, got " + shown(tok))
}

// fill reads an obstacle's fill, a number in (0, 1], and rounds it to the lattice by its
// decimal value, exactly (SPEC §5.1, engine.ParseFill): 0.03625 is 15/400, handed to the
// engine as the float64 15/400.
func (d *decoder) fill() (float64, *engine.Error) {
	tok := d.numberToken()
	if tok == nil {
		return 0, d.typeErr("a number in (0, 1]")
	}
	f, ok := engine.ParseFill(tok)
	if !ok {
		return 0, d.fail("expected a number in (0, 1], got " + shown(tok))
	}
	return f, nil
}
