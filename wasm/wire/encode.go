package wire

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The append functions below write values exactly as encoding/json does with
// SetEscapeHTML(false): the tests compare them with it byte for byte.

// AppendString is appendString, for the overlay's answers (wasm/overlay's summary): one JSON
// string writer in every module.
func AppendString(dst []byte, s string) []byte { return appendString(dst, s) }

// appendString appends s as a JSON string: ", \ and control characters escaped (\b \f \n \r
// \t by name, others as \u00XX), invalid UTF-8 as \ufffd, U+2028 and U+2029 as \u2028 and
// \u2029, everything else (<, >, & included) as is.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b, n, esc := s[i], 1, ""
		switch {
		case b >= utf8.RuneSelf:
			var c rune
			c, n = utf8.DecodeRuneInString(s[i:])
			switch {
			case c == utf8.RuneError && n == 1:
				esc = `\ufffd`
			case c == '\u2028':
				esc = `\u2028`
			case c == '\u2029':
				esc = `\u2029`
			}
		case b < 0x20:
			esc = controlEscapes[b]
		case b == '"':
			esc = `\"`
		case b == '\\':
			esc = `\\`
		}
		if esc != "" {
			dst = append(append(dst, s[start:i]...), esc...)
			start = i + n
		}
		i += n
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// controlEscapes are the JSON escapes of the control characters, as encoding/json writes them.
var controlEscapes = [0x20]string{
	`\u0000`, `\u0001`, `\u0002`, `\u0003`, `\u0004`, `\u0005`, `\u0006`, `\u0007`,
	`\b`, `\t`, `\n`, `\u000b`, `\f`, `\r`, `\u000e`, `\u000f`,
	`\u0010`, `\u0011`, `\u0012`, `\u0013`, `\u0014`, `\u0015`, `\u0016`, `\u0017`,
	`\u0018`, `\u0019`, `\u001a`, `\u001b`, `\u001c`, `\u001d`, `\u001e`, `\u001f`,
}

// Quote returns s as a JSON string, cut short past 64 bytes (at a rune's start, with an
// ellipsis), for messages: a request's text shown as the request wrote it, never a long one
// whole. The overlay quotes its options with it too, so that it links neither strconv's quoting
// nor unicode.IsPrint's tables (issue 30: wasm/overlay's link test).
func Quote(s string) string {
	if len(s) > 64 {
		cut := 64
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return string(appendString(nil, s))
}

// appendFloat appends a finite f as encoding/json's float64 encoder does (ES6 number to
// string: 'f' format, 'e' below 1e-6 and from 1e21, exponents without leading zeros). It
// reports false for NaN and ±Inf, which JSON cannot carry.
func appendFloat(dst []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	// A point in world units is a lattice point over 400 (los.Point.World): f is then the
	// float nearest k/400 = 25k/10⁴, whose shortest form is that decimal (at most 4 places
	// and, below 2^40/400, at most 15 digits: no shorter decimal lies within half a unit of
	// f's last place). Written here without strconv's general shortest-form search.
	if k := math.Round(f * 400); f != 0 && math.Abs(k) < 1<<40 && k/400 == f {
		n := int64(k) * 25
		if n < 0 {
			dst, n = append(dst, '-'), -n
		}
		dst = strconv.AppendInt(dst, n/10000, 10)
		if frac := n % 10000; frac != 0 {
			digits := [5]byte{'.', byte('0' + frac/1000), byte('0' + frac/100%10), byte('0' + frac/10%10), byte('0' + frac%10)}
			end := len(digits)
			for digits[end-1] == '0' {
				end--
			}
			dst = append(dst, digits[:end]...)
		}
		return dst, true
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// e-09 → e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

func appendInt(dst []byte, v int) []byte { return strconv.AppendInt(dst, int64(v), 10) }

func appendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

func itoa(n int) string { return strconv.Itoa(n) }
