package wire

import (
	"strconv"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/engine"
)

// MaxDepth is the deepest nesting of arrays and objects a body may have.
const MaxDepth = 64

// scan checks that data is exactly one JSON value (RFC 8259), valid UTF-8, nested at most
// MaxDepth deep, with optional white space around it. Its error names the byte offset (from 0)
// where the input stops being JSON.
func scan(data []byte) *engine.Error {
	s := scanner{data: data}
	s.ws()
	if err := s.value(0); err != nil {
		return err
	}
	s.ws()
	if s.i < len(s.data) {
		return s.fail("unexpected data after the JSON value")
	}
	return nil
}

type scanner struct {
	data []byte
	i    int
}

func (s *scanner) fail(what string) *engine.Error {
	if s.i >= len(s.data) {
		what = "unexpected end of input"
	}
	return malformed(s.i, what)
}

func malformed(at int, what string) *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Message: "malformed JSON at byte " + strconv.Itoa(at) + ": " + what}
}

func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value scans one value at nesting depth depth (the number of arrays and objects around it).
func (s *scanner) value(depth int) *engine.Error {
	if s.i >= len(s.data) {
		return s.fail("")
	}
	switch c := s.data[s.i]; {
	case c == '{' || c == '[':
		return s.container(depth + 1)
	case c == '"':
		return s.str()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.fail("expected a value")
}

// container scans an object or an array at nesting depth depth.
func (s *scanner) container(depth int) *engine.Error {
	if depth > MaxDepth {
		return malformed(s.i, "nested deeper than "+strconv.Itoa(MaxDepth)+" levels")
	}
	obj := s.data[s.i] == '{'
	end, sep := byte(']'), "expected ',' or ']'"
	if obj {
		end, sep = '}', "expected ',' or '}'"
	}
	s.i++
	s.ws()
	if s.i < len(s.data) && s.data[s.i] == end {
		s.i++
		return nil
	}
	for {
		if obj {
			if s.i >= len(s.data) || s.data[s.i] != '"' {
				return s.fail("expected a field name (a string)")
			}
			if err := s.str(); err != nil {
				return err
			}
			s.ws()
			if s.i >= len(s.data) || s.data[s.i] != ':' {
				return s.fail("expected ':'")
			}
			s.i++
			s.ws()
		}
		if err := s.value(depth); err != nil {
			return err
		}
		s.ws()
		switch {
		case s.i >= len(s.data):
			return s.fail("")
		case s.data[s.i] == ',':
			s.i++
			s.ws()
		case s.data[s.i] == end:
			s.i++
			return nil
		default:
			return s.fail(sep)
		}
	}
}

func (s *scanner) str() *engine.Error {
	s.i++ // "
	for s.i < len(s.data) {
		s.i = plainRun(s.data, s.i)
		if s.i == len(s.data) {
			break
		}
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return nil
		case c == '\\':
			s.i++
			if s.i >= len(s.data) {
				return s.fail("")
			}
			switch s.data[s.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i++
			case 'u':
				s.i++
				for k := 0; k < 4; k++ {
					if s.i >= len(s.data) {
						return s.fail("")
					}
					if !isHex(s.data[s.i]) {
						return s.fail(`expected 4 hexadecimal digits after \u`)
					}
					s.i++
				}
			default:
				return s.fail("invalid escape in string")
			}
		case c < 0x20:
			return s.fail("control character in string (escape it)")
		default: // past ASCII (plainRun stops at nothing else)
			r, n := utf8.DecodeRune(s.data[s.i:])
			if r == utf8.RuneError && n == 1 {
				return s.fail("invalid UTF-8")
			}
			s.i += n
		}
	}
	return s.fail("")
}

// plainRun returns the end of the run of plain characters (ASCII, not a control character, a
// quote or a backslash) of data from i: the most of a string, passed over in a function this
// small, so that V8 does not soon spend a core optimizing str (it tiers a function up by how
// much of its own code it ran, counted whole on each turn of a loop; issue 30).
func plainRun(data []byte, i int) int {
	for i < len(data) {
		if c := data[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			break
		}
		i++
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (s *scanner) digits() *engine.Error {
	if s.i >= len(s.data) || !isDigit(s.data[s.i]) {
		return s.fail("expected a digit")
	}
	for s.i < len(s.data) && isDigit(s.data[s.i]) {
		s.i++
	}
	return nil
}

func (s *scanner) number() *engine.Error {
	if s.data[s.i] == '-' {
		s.i++
	}
	if s.i < len(s.data) && s.data[s.i] == '0' {
		s.i++
	} else if err := s.digits(); err != nil {
		return err
	}
	if s.i < len(s.data) && s.data[s.i] == '.' {
		s.i++
		if err := s.digits(); err != nil {
			return err
		}
	}
	if s.i < len(s.data) && (s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		s.i++
		if s.i < len(s.data) && (s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if err := s.digits(); err != nil {
			return err
		}
	}
	return nil
}

func (s *scanner) literal(lit string) *engine.Error {
	for k := 0; k < len(lit); k++ {
		if s.i >= len(s.data) {
			return s.fail("")
		}
		if s.data[s.i] != lit[k] {
			return s.fail("expected " + lit)
		}
		s.i++
	}
	return nil
}
