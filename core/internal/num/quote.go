package num

import "unicode/utf8"

//go:generate env WRITE_PRINT_TABLE=1 go test -run ^TestPrintTableUpToDate$ .

// GoQuote is strconv.Quote(s): s in double quotes, as a Go string literal, with printable runes
// as they are and everything else escaped (\n, \x00, \u2028, \xff for a byte that is not UTF-8).
// It is its own code rather than strconv's because strconv's quoting adds some 3 KB of brotli to
// the WebAssembly module (issue 30), and unicode.IsPrint's tables more; num's tests hold it to
// strconv.Quote on every rune and on fuzzed text.
//
//go:noinline
func GoQuote(s string) string {
	b := make([]byte, 1, 2+4*len(s)) // an escape is at most 4 bytes for each byte it stands for
	b[0] = '"'
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case w == 1 && r == utf8.RuneError: // a byte that is not UTF-8
			b = appendHex(b, 'x', uint32(s[i]), 2)
		case isPrint(r):
			b = append(b, s[i:i+w]...)
		case '\a' <= r && r <= '\r': // \a \b \t \n \v \f \r are the runes 7 to 13, in that order
			b = append(b, '\\', "abtnvfr"[r-'\a'])
		case r < ' ' || r == 0x7f:
			b = appendHex(b, 'x', uint32(r), 2)
		case r < 0x10000:
			b = appendHex(b, 'u', uint32(r), 4)
		default:
			b = appendHex(b, 'U', uint32(r), 8)
		}
		i += w
	}
	return string(append(b, '"'))
}

// appendHex appends the escape \ kind and the n lowest hexadecimal digits of v, in lower case.
// (It and isPrint are never inlined: GoQuote is no hot path, and each inlined copy adds to the
// module.)
//
//go:noinline
func appendHex(b []byte, kind byte, v uint32, n int) []byte {
	b = append(b, '\\', kind)
	for s := 4 * (n - 1); s >= 0; s -= 4 {
		b = append(b, "0123456789abcdef"[v>>uint(s)&0xf])
	}
	return b
}

// isPrint is strconv.IsPrint, which is unicode.IsPrint: letters, marks, numbers, punctuation,
// symbols and the ASCII space. Past Latin-1 it walks printRuns (print_table.go), the lengths of
// the alternating runs of runes that are not printable and that are, from U+0100 on: a linear
// walk of 1.5 KB, for error messages only.
//
//go:noinline
func isPrint(r rune) bool {
	if r < 0x100 {
		return ' ' <= r && r < 0x7f || 0xa1 <= r && r != 0xad
	}
	at, print := rune(0x100), false
	for i := 0; i < len(printRuns); print = !print {
		var run rune
		for shift := 0; ; shift += 7 {
			c := printRuns[i]
			i++
			run |= rune(c&0x7f) << shift
			if c < 0x80 {
				break
			}
		}
		if at += run; r < at {
			return print
		}
	}
	return false
}
